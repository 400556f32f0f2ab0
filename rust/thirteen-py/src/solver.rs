//! Arrangement engine: enumeration, lane tables, solving, hints.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use thirteen_core as core;
use thirteen_core::limits::Limit;
use thirteen_core::{Error, Lane};

use crate::arrangements::PyArrangement;
use crate::convert::{
    cards_list, extract_cards, seed_value, thirteen_cards, with_rules, Int, RulesArg, Text,
};
use crate::errors::{to_pyerr, IntoPy};
use crate::pickle::Reduced;
use crate::rules::PyRules;
use crate::specials::PySpecialHand;

fn split_filter(legal: bool, pareto: bool) -> core::split::SplitFilter {
    match (legal, pareto) {
        (_, true) => core::split::SplitFilter::Pareto,
        (true, false) => core::split::SplitFilter::Legal,
        (false, false) => core::split::SplitFilter::All,
    }
}

/// Number of splits of a 13-card hand (RULES.md 2): all 72,072, only the non-fouled ones
/// (``legal=True``), or the Pareto set of the legal ones (``pareto=True``: splits that no other
/// split matches or beats in every lane while beating them in one). Raises ``CountError``,
/// ``DuplicateCardError``, ``CardError``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, *, legal = false, pareto = false))]
fn count_splits(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    legal: bool,
    pareto: bool,
) -> PyResult<usize> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py.detach(|| {
            let s = core::split::HandSplits::new(&hand, r.wheel);
            match split_filter(legal, pareto) {
                core::split::SplitFilter::All => 72_072,
                core::split::SplitFilter::Legal => s.count_legal(),
                f => s.list(f).len(),
            }
        }))
    })
}

/// The splits of a 13-card hand as ``Arrangement`` objects, in enumeration order (middle
/// subsets in increasing position-mask order, then the fronts); filters as ``count_splits``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, *, legal = false, pareto = false))]
fn splits(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    legal: bool,
    pareto: bool,
) -> PyResult<Vec<PyArrangement>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py.detach(|| {
            let s = core::split::HandSplits::new(&hand, r.wheel);
            s.list(split_filter(legal, pareto))
                .iter()
                .map(|sp| PyArrangement(s.arrangement(sp)))
                .collect()
        }))
    })
}

/// Per-lane win-probability tables of the ``ev`` strategy (for each lane and hand value, how
/// often an opponent's lane is below, equal or above, and what it collects when above),
/// built by self-play for one rule set. ``counts()`` gives the data they are built from.
/// Pickles as its rules and counts.
#[pyclass(name = "LaneTables", frozen, module = "thirteen._core")]
struct PyLaneTables {
    tables: core::solve::LaneTables,
    counts: core::solve::LaneCounts,
    rules: Option<Py<PyRules>>,
}

/// The rules object of a ``rules`` argument, kept for pickling (None for the defaults).
fn rules_object(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Py<PyRules>>> {
    Ok(rules
        .map(|r| r.extract::<RulesArg>())
        .transpose()?
        .and_then(|r| r.object()))
}

/// A lane's ``(value, count)`` pairs from Python: every value a hand value of the lane's
/// size (``size`` cards), every count from 0 to 2**63 − 1 (``LimitError``, ``ThirteenError``).
fn lane_pairs(py: Python<'_>, pairs: Vec<(Int, Int)>, size: usize) -> PyResult<Vec<(u32, u64)>> {
    pairs
        .into_iter()
        .map(|(v, c)| {
            let raw = v.within(
                py,
                &Limit {
                    key: "value",
                    min: 0,
                    max: u32::MAX as i64,
                },
            )?;
            let value = core::HandValue::from_raw(raw as u32, size).py_err(py)?;
            let count = c.within(
                py,
                &Limit {
                    key: "count",
                    min: 0,
                    max: i64::MAX,
                },
            )?;
            Ok((value.raw(), count as u64))
        })
        .collect()
}

#[pymethods]
impl PyLaneTables {
    /// Builds tables from lane-value counts: three lists (front, middle, back) of
    /// ``(value, count)`` pairs, ``value`` as ``HandValue.value``; ``classes``, when given,
    /// the same counts per class of the arrangement: a list of 16 dicts
    /// ``{"front": pairs, "middle": pairs, "back": pairs}`` that add up to the lanes' counts
    /// (``ThirteenError`` otherwise). ``card_removal``: whether ``ev`` weighs the opponents'
    /// lanes by the cards held (the standard deck only; see ``with_card_removal``).
    #[staticmethod]
    #[pyo3(signature = (rules, front, middle, back, classes = None, card_removal = true))]
    fn from_counts(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        front: Vec<(Int, Int)>,
        middle: Vec<(Int, Int)>,
        back: Vec<(Int, Int)>,
        classes: Option<&Bound<'_, PyAny>>,
        card_removal: bool,
    ) -> PyResult<Self> {
        let lanes = [
            lane_pairs(py, front, 3)?,
            lane_pairs(py, middle, 5)?,
            lane_pairs(py, back, 5)?,
        ];
        let classes = match classes {
            None => Vec::new(),
            Some(c) => class_pairs(py, c, &lanes)?,
        };
        let counts = core::solve::LaneCounts { lanes, classes };
        let kept = rules_object(rules)?;
        with_rules(rules, |r| {
            Ok(PyLaneTables {
                tables: core::solve::LaneTables::from_counts(&counts, r)
                    .with_card_removal(card_removal),
                counts,
                rules: kept,
            })
        })
    }
    /// Whether ``ev`` weighs an opponent's lanes by the cards the seat holds (card removal,
    /// RULES.md 5): the tables count an opponent's lanes over all deals, and the values
    /// named by cards the seat holds are made rarer. On by default; always off with the
    /// extra-diamonds deck.
    #[getter]
    fn card_removal(&self) -> bool {
        let standard = self
            .rules
            .as_ref()
            .is_none_or(|r| r.get().rules.deck == core::card::DeckKind::Standard);
        self.tables.card_removal() && standard
    }
    /// These tables with card removal switched on or off (``on``: bool; off, ``ev`` plays
    /// as it did before card removal).
    fn with_card_removal(&self, py: Python<'_>, on: bool) -> Self {
        PyLaneTables {
            tables: self.tables.clone().with_card_removal(on),
            counts: self.counts.clone(),
            rules: self.rules.as_ref().map(|r| r.clone_ref(py)),
        }
    }
    /// The counts: ``{"front": [(value, count), ...], "middle": ..., "back": ...}``, and
    /// ``"classes"``: the same per class of the arrangement (16 dicts) when the tables have
    /// them.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = lanes_dict(py, &self.counts.lanes)?;
        if !self.counts.classes.is_empty() {
            d.set_item("classes", self.class_dicts(py)?)?;
        }
        Ok(d)
    }
    /// Number of hands counted per lane.
    #[getter]
    fn samples(&self) -> u64 {
        self.counts[0].iter().map(|p| p.1).sum()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let rules = me.rules.as_ref().map(|r| r.clone_ref(py));
        let [front, middle, back] = &me.counts.lanes;
        let classes = if me.counts.classes.is_empty() {
            None
        } else {
            Some(me.class_dicts(py)?)
        };
        Ok((
            py.get_type::<PyLaneTables>().getattr("from_counts")?,
            (
                rules,
                front.clone(),
                middle.clone(),
                back.clone(),
                classes,
                me.tables.card_removal(),
            )
                .into_pyobject(py)?,
        ))
    }
}

impl PyLaneTables {
    fn class_dicts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.counts
            .classes
            .iter()
            .map(|c| lanes_dict(py, c))
            .collect()
    }
}

/// ``{"front": pairs, "middle": pairs, "back": pairs}``.
fn lanes_dict<'py, P>(py: Python<'py>, lanes: &[P; 3]) -> PyResult<Bound<'py, PyDict>>
where
    P: IntoPyPairs,
{
    let d = PyDict::new(py);
    for (lane, c) in Lane::ALL.iter().zip(lanes) {
        d.set_item(lane.key(), c.pairs())?;
    }
    Ok(d)
}

/// A lane's counts as sorted ``(value, count)`` pairs.
trait IntoPyPairs {
    fn pairs(&self) -> Vec<(u32, u64)>;
}

impl IntoPyPairs for Vec<(u32, u64)> {
    fn pairs(&self) -> Vec<(u32, u64)> {
        self.clone()
    }
}

impl IntoPyPairs for std::collections::BTreeMap<u32, u64> {
    fn pairs(&self) -> Vec<(u32, u64)> {
        self.iter().map(|(&v, &n)| (v, n)).collect()
    }
}

/// The per-class counts of ``from_counts`` and of a ``count`` callback: a list of 16 dicts of
/// the three lanes' pairs, adding up to ``lanes`` value by value (``ThirteenError``).
fn class_pairs(
    py: Python<'_>,
    classes: &Bound<'_, PyAny>,
    lanes: &[Vec<(u32, u64)>; 3],
) -> PyResult<Vec<core::lanes::LanePairs>> {
    let bad = |message: String| to_pyerr(py, Error::InvalidArgument { message });
    let list: Vec<Bound<'_, PyAny>> = classes.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("classes must be a list of dicts of lane counts")
    })?;
    let n = core::lanes::CLASSES;
    if list.len() != n {
        return Err(bad(format!(
            "classes must hold {n} classes, got {}",
            list.len()
        )));
    }
    let mut out = Vec::with_capacity(n);
    for (k, item) in list.iter().enumerate() {
        let dict = item.cast::<PyDict>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "class {k} must be a dict of lane counts"
            ))
        })?;
        if dict.len() != 3 {
            return Err(bad(format!(
                "class {k} must hold the counts of front, middle and back, got {} keys",
                dict.len()
            )));
        }
        let mut three: [Vec<(u32, u64)>; 3] = Default::default();
        for (i, lane) in Lane::ALL.iter().enumerate() {
            let Some(pairs) = dict.get_item(lane.key())? else {
                return Err(bad(format!("class {k} has no {} counts", lane.key())));
            };
            three[i] = lane_pairs(py, pairs.extract()?, if i == 0 { 3 } else { 5 })?;
        }
        out.push(three);
    }
    for (i, lane) in Lane::ALL.iter().enumerate() {
        let total = |pairs: &mut dyn Iterator<Item = &(u32, u64)>| {
            let mut m = std::collections::BTreeMap::<u32, u64>::new();
            for &(v, c) in pairs {
                let slot = m.entry(v).or_insert(0);
                *slot = slot.saturating_add(c);
            }
            m.retain(|_, c| *c > 0);
            m
        };
        let of_classes = total(&mut out.iter().flat_map(|c| c[i].iter()));
        if of_classes != total(&mut lanes[i].iter()) {
            return Err(bad(format!(
                "the classes' {} counts do not add up to the lane's counts",
                lane.key()
            )));
        }
    }
    Ok(out)
}

/// Builds lane tables for ``rules`` by self-play, without the GIL and on every core:
/// ``iterations`` rounds of ``deals`` random tables of ``players``; round 0 arranges with the
/// greedy strategy, later rounds with ``ev`` on the previous round's tables (RULES.md 7 deal).
/// Raises ``PlayerCountError`` for a table size ``rules`` do not allow, ``LimitError`` for ``deals``
/// outside 1 to 10**8 or ``iterations`` outside 1 to 10**4, ``ThirteenError`` for a ``seed``
/// outside 0 to 2**64 − 1, ``TypeError`` for a non-integer.
#[pyfunction]
#[pyo3(
    signature = (rules = None, *, players = Int::of(4), deals = Int::of(20000), iterations = Int::of(3), seed = None),
    text_signature = "(rules=None, *, players=4, deals=20000, iterations=3, seed=0)"
)]
fn build_tables(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: Int,
    deals: Int,
    iterations: Int,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyLaneTables> {
    let deals = deals.index(
        py,
        &Limit {
            key: "deals",
            min: 1,
            max: 100_000_000,
        },
    )?;
    let iterations = iterations.index(
        py,
        &Limit {
            key: "iterations",
            min: 1,
            max: 10_000,
        },
    )?;
    let seed = seed.map_or(Ok(0), |s| seed_value(py, s))?;
    with_rules(rules, |r| {
        // A table size the rules allow: no more cards dealt than the deck holds.
        let players = players.table_size(py, r)?;
        let counts = py.detach(|| core::solve::build_tables(r, players, deals, iterations, seed));
        Ok(PyLaneTables {
            tables: core::solve::LaneTables::from_counts(&counts, r),
            counts,
            rules: rules_object(rules)?,
        })
    })
}

/// Trains lane tables for ``rules`` by fictitious play (the engine behind ``thirteen.train``),
/// without the GIL and on every core: ``players`` table size, ``deals`` random tables per
/// iteration, at most ``iterations``, stopping once an iteration changes the tables by less
/// than ``tolerance`` (a Kolmogorov–Smirnov distance); ``warm`` tables play iteration 0;
/// ``report(iteration, hands, change, gap)`` is called after each iteration and stops the run
/// when it returns a false value. ``count(iteration, greedy, tables)``, when given, counts
/// each iteration's deals instead of this process (elsewhere, in ranges): it must return what
/// ``iteration_counts`` returns for deals ``0`` to ``deals`` of that iteration (``tables``:
/// ``None`` for the greedy iteration 0). Raises what ``report`` or ``count`` raise;
/// ``ThirteenError`` for counts of another shape or more hands than the deals hold.
#[pyfunction]
#[pyo3(signature = (rules, *, players, deals, iterations, tolerance, seed, warm = None, report = None, count = None))]
#[allow(clippy::too_many_arguments)]
fn train(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: usize,
    deals: usize,
    iterations: usize,
    tolerance: f64,
    seed: u64,
    warm: Option<&Bound<'_, PyLaneTables>>,
    report: Option<Py<PyAny>>,
    count: Option<Py<PyAny>>,
) -> PyResult<PyLaneTables> {
    check_players(py, players)?;
    if deals == 0 || iterations == 0 || !tolerance.is_finite() || tolerance < 0.0 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "deals and iterations must be at least 1 and tolerance a number at least 0",
        ));
    }
    let warm_counts = warm.map(|w| w.get().counts.clone());
    let kept = rules_object(rules)?;
    with_rules(rules, |r| {
        // A table size the rules allow: no more cards dealt than the deck holds.
        r.check_players(players as i64).py_err(py)?;
        let cfg = core::train::TrainConfig {
            players,
            deals,
            iterations,
            tolerance,
            seed,
        };
        let mut failure: Option<PyErr> = None;
        let on_report = |it: &core::train::IterationReport| {
            let Some(report) = &report else { return true };
            Python::attach(|py| {
                match report
                    .call1(py, (it.iteration, it.hands, it.change, it.gap))
                    .and_then(|v| v.is_truthy(py))
                {
                    Ok(go_on) => go_on,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                }
            })
        };
        let counts = py.detach(|| match &count {
            None => Ok(core::train::train(r, &cfg, warm_counts.as_ref(), on_report)),
            Some(count) => core::train::train_with(
                r,
                &cfg,
                warm_counts.as_ref(),
                |it, strategy, tables, built| {
                    Python::attach(|py| {
                        let tables = built
                            .map(|c| PyLaneTables {
                                tables: tables.clone(),
                                counts: c.clone(),
                                rules: kept.as_ref().map(|k| k.clone_ref(py)),
                            })
                            .map(|t| Py::new(py, t))
                            .transpose()?;
                        let greedy = strategy == core::solve::Strategy::Greedy;
                        let out = count.call1(py, (it, greedy, tables))?;
                        counts_from_py(py, out.bind(py), players * deals)
                    })
                },
                on_report,
            ),
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let counts = counts?;
        Ok(PyLaneTables {
            tables: core::solve::LaneTables::from_counts(&counts, r),
            counts,
            rules: rules_object(rules)?,
        })
    })
}

/// ``BadPlayerCount`` for a table size no rule set allows (the core's check).
fn check_players(py: Python<'_>, players: usize) -> PyResult<()> {
    core::Rules::check_table_size(players as i64)
        .map(|_| ())
        .py_err(py)
}

/// The counts a ``count`` callback of ``train`` returned, checked: a dict of the three lanes'
/// ``(value, count)`` pairs whose lanes count the same number of hands, at most ``most``.
fn counts_from_py(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    most: usize,
) -> PyResult<core::train::IterationCounts> {
    let bad = |message: String| to_pyerr(py, Error::InvalidArgument { message });
    let dict = out.cast::<PyDict>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "count must return a dict of the lanes' counts, not {}",
            out.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let classes = dict.get_item("classes")?;
    if dict.len() != 3 + classes.is_some() as usize {
        return Err(bad(format!(
            "count must return the counts of front, middle and back (and of their classes), \
             got {} keys",
            dict.len()
        )));
    }
    let mut counts = core::train::IterationCounts::default();
    for (i, lane) in Lane::ALL.iter().enumerate() {
        let Some(pairs) = dict.get_item(lane.key())? else {
            return Err(bad(format!("count returned no {} counts", lane.key())));
        };
        let size = if i == 0 { 3 } else { 5 };
        for (v, c) in lane_pairs(py, pairs.extract()?, size)? {
            let slot = counts.lanes[i].entry(v).or_insert(0);
            *slot = slot.saturating_add(c);
        }
    }
    let hands: Vec<u64> = counts
        .lanes
        .iter()
        .map(|l| l.values().fold(0u64, |a, &c| a.saturating_add(c)))
        .collect();
    if hands[1] != hands[0] || hands[2] != hands[0] || hands[0] > most as u64 {
        return Err(bad(format!(
            "count returned {} front, {} middle and {} back values; every lane counts the \
             same hands, at most {most}",
            hands[0], hands[1], hands[2]
        )));
    }
    if let Some(classes) = classes {
        let lanes: [Vec<(u32, u64)>; 3] = std::array::from_fn(|i| counts.lanes[i].pairs());
        counts.classes = class_pairs(py, &classes, &lanes)?
            .into_iter()
            .map(|c| std::array::from_fn(|i| c[i].iter().copied().collect()))
            .collect();
    }
    Ok(counts)
}

/// The lane values played at deals ``start`` to ``stop`` (not included) of training
/// iteration ``iteration`` (as ``train`` with ``players`` and ``seed`` deals them), every hand
/// arranged greedily (``greedy``) or by ``ev`` on ``tables``, on every core without the GIL:
/// ``{"front": [(value, count), ...], "middle": ..., "back": ...}``, sorted by value.
/// Counts of consecutive ranges add up to the counts of the whole iteration. Raises
/// ``PlayerCountError``, ``LimitError`` (``start`` after ``stop``, ``stop`` above 10**8,
/// ``iteration`` above 10**4), ``ThirteenError`` (``ev`` without tables).
#[pyfunction]
#[pyo3(signature = (rules, tables, *, players, seed, iteration, greedy, start, stop))]
#[allow(clippy::too_many_arguments)]
fn iteration_counts<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyLaneTables>>,
    players: usize,
    seed: u64,
    iteration: Int,
    greedy: bool,
    start: Int,
    stop: Int,
) -> PyResult<Bound<'py, PyDict>> {
    check_players(py, players)?;
    let stop = stop.within(
        py,
        &Limit {
            key: "stop",
            min: 0,
            max: 100_000_000,
        },
    )? as usize;
    let start = start.within(
        py,
        &Limit {
            key: "start",
            min: 0,
            max: stop as i64,
        },
    )? as usize;
    let it = iteration.within(
        py,
        &Limit {
            key: "iteration",
            min: 0,
            max: 10_000,
        },
    )? as usize;
    if !greedy && tables.is_none() {
        return Err(to_pyerr(
            py,
            Error::InvalidArgument {
                message: "ev needs the tables it answers (greedy=True plays without)".into(),
            },
        ));
    }
    let empty = core::solve::LaneTables::default();
    let tables = tables.map(|t| t.get());
    with_rules(rules, |r| {
        let cfg = core::train::TrainConfig {
            players,
            deals: stop,
            iterations: it + 1,
            tolerance: 0.0,
            seed,
        };
        let strategy = if greedy {
            core::solve::Strategy::Greedy
        } else {
            core::solve::Strategy::Ev
        };
        let lane_tables = tables.map_or(&empty, |t| &t.tables);
        let counts = py.detach(|| {
            core::train::iteration_counts(r, lane_tables, strategy, &cfg, it, start..stop)
        });
        let d = lanes_dict(py, &counts.lanes)?;
        if !counts.classes.is_empty() {
            let classes = counts
                .classes
                .iter()
                .map(|c| lanes_dict(py, c))
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("classes", classes)?;
        }
        Ok(d)
    })
}

fn context(py: Python<'_>, players: usize, banker: bool) -> PyResult<core::solve::Context> {
    check_players(py, players)?;
    Ok(core::solve::Context {
        players,
        role: if banker {
            core::solve::Role::Banker
        } else {
            core::solve::Role::Player
        },
    })
}

type ChoiceTuple = (Option<PyArrangement>, Option<PySpecialHand>, f64);

fn choice_tuple(c: core::solve::Choice) -> ChoiceTuple {
    (
        c.arrangement.map(PyArrangement),
        c.special.map(PySpecialHand),
        c.expected,
    )
}

/// For tests and benchmarks of the exact search: ``(best expected units by the pruned
/// search, best by a scan of every legal split, backs searched, splits scored, frontiers
/// ended from the middles' side)`` for 13 cards.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, *, players = 4, banker = false))]
fn _ev_scan(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    players: usize,
    banker: bool,
) -> PyResult<(f64, f64, usize, usize, usize)> {
    let py = cards.py();
    let ctx = context(py, players, banker)?;
    let hand = extract_cards(cards)?;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        core::card::validate_hand(&hand, r.deck, 13).py_err(py)?;
        let hand: [core::Card; 13] = hand.as_slice().try_into().expect("13");
        let (pruned, full, stats) = py.detach(|| core::solve::ev_check(&hand, r, t, ctx));
        Ok((pruned, full, stats.backs, stats.scored, stats.middle_side))
    })
}

/// `_explain`'s result: per lane (P(win), P(lose)), P(scoop), P(scooped), expected units.
type ExplainTuple = (Vec<(f64, f64)>, f64, f64, f64);

/// What the ``ev`` model believes of an arrangement, for benchmarks: ``([(P(win), P(lose))
/// per lane, front first], P(scoop), P(scooped), expected units)`` against one opponent
/// (units: against the table), card removal from the arrangement's 13 cards included when
/// the tables use it. Raises as ``_solve`` for bad rules, table size or cards.
#[pyfunction]
#[pyo3(signature = (arrangement, rules, tables, *, players = 4, banker = false))]
fn _explain(
    arrangement: &Bound<'_, PyArrangement>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    players: usize,
    banker: bool,
) -> PyResult<ExplainTuple> {
    let py = arrangement.py();
    let ctx = context(py, players, banker)?;
    let a = arrangement.get().0;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        let cards = a.cards();
        core::card::validate_hand(&cards, r.deck, 13).py_err(py)?;
        let values = [
            core::evaluate3(&a.front),
            core::evaluate5(&a.middle, r.wheel),
            core::evaluate5(&a.back, r.wheel),
        ];
        let removal = t.removal(&cards, r);
        let x = core::model::explain(values, r, t, ctx, removal.as_ref());
        Ok((x.lanes.to_vec(), x.scoop, x.scooped, x.units))
    })
}

/// The number of cards a hand to solve holds, checked: 13, or ``rules.dealt`` (16 in 多三张,
/// 13 then kept), each card of the rules' deck and none more often than it holds.
fn check_dealt(py: Python<'_>, dealt: &[core::Card], r: &core::rules::Rules) -> PyResult<usize> {
    let size = if dealt.len() == 13 {
        13
    } else {
        r.dealt as usize
    };
    if size > 13 && dealt.len() != size {
        return Err(crate::errors::dealt_count_error(py, size, dealt.len()));
    }
    core::card::validate_hand(dealt, r.deck, size).py_err(py)?;
    Ok(size)
}

/// Solves one hand (the engine behind ``thirteen.solve``): ``cards`` 13 (or ``rules.dealt``)
/// cards; ``strategy`` ``"ev"``, ``"mc"`` or ``"greedy"``. Returns ``(kept cards (a tuple),
/// [(arrangement or None, special or None, expected units), ...])`` best first; with
/// ``distinct``, each differs from the better ones in some lane's value, and with ``labels``
/// (which implies ``distinct``), in its label (``hints``: the front's category and highest
/// rank, the middle's and the back's categories). The arguments may be passed in order
/// (``solve`` does: keywords cost a lookup each).
#[pyfunction]
#[pyo3(
    signature = (cards, rules, tables, players = 4, banker = false, strategy = Text::of("ev"), samples = 1000, seed = 0, top = 1, distinct = false, labels = false),
    text_signature = "(cards, rules, tables, players=4, banker=False, strategy='ev', samples=1000, seed=0, top=1, distinct=False, labels=False)"
)]
#[allow(clippy::too_many_arguments)]
fn _solve<'py>(
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: &Bound<'py, PyLaneTables>,
    players: usize,
    banker: bool,
    strategy: Text,
    samples: usize,
    seed: u64,
    top: usize,
    distinct: bool,
    labels: bool,
) -> PyResult<(Bound<'py, PyTuple>, Vec<ChoiceTuple>)> {
    let py = cards.py();
    let distinct = match (distinct, labels) {
        (_, true) => core::search::Distinct::Labels,
        (true, false) => core::search::Distinct::Values,
        (false, false) => core::search::Distinct::No,
    };
    let ctx = context(py, players, banker)?;
    let strategy = strategy.get(py, "strategy")?;
    let dealt = extract_cards(cards)?;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        check_dealt(py, &dealt, r)?;
        let (kept, choices) = py.detach(|| {
            let kept: Vec<core::Card> = if dealt.len() == 13 {
                dealt.clone()
            } else {
                core::solve::solve_ev_keep(&dealt, r, t, ctx).0
            };
            let hand: [core::Card; 13] = kept.as_slice().try_into().expect("13");
            let choices = match strategy {
                "ev" => Ok(core::solve::solve_ev_with(
                    &hand, &dealt, r, t, ctx, top, distinct,
                )),
                "mc" => Ok(core::solve::solve_mc(
                    &hand,
                    &dealt,
                    r,
                    t,
                    ctx,
                    samples,
                    seed,
                    top.max(8),
                )),
                "greedy" => Ok(vec![core::solve::Choice {
                    arrangement: Some(core::solve::solve_greedy(&hand, r)),
                    special: None,
                    expected: f64::NAN,
                }]),
                other => Err(other.to_string()),
            };
            (kept, choices)
        });
        let choices = choices.map_err(|s| {
            let message = format!("unknown strategy {s:?} (expected \"ev\", \"mc\" or \"greedy\")");
            to_pyerr(py, Error::InvalidArgument { message })
        })?;
        Ok((
            cards_list(py, &kept)?,
            choices.into_iter().map(choice_tuple).collect(),
        ))
    })
}

/// The legal ways to finish a hand with some cards already placed (engine behind
/// ``thirteen.complete``): ``cards`` 13 (or ``rules.dealt``) cards; ``front``, ``middle``,
/// ``back`` the placed cards. Returns
/// ``[(arrangement, None, expected units), ...]`` best first, at most ``limit``.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, *, front, middle, back, players = 4, banker = false, limit = 20))]
#[allow(clippy::too_many_arguments)]
fn _complete(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    front: &Bound<'_, PyAny>,
    middle: &Bound<'_, PyAny>,
    back: &Bound<'_, PyAny>,
    players: usize,
    banker: bool,
    limit: usize,
) -> PyResult<Vec<ChoiceTuple>> {
    let py = cards.py();
    let ctx = context(py, players, banker)?;
    let placed = [
        extract_cards(front)?,
        extract_cards(middle)?,
        extract_cards(back)?,
    ];
    let dealt = extract_cards(cards)?;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        let size = check_dealt(py, &dealt, r)?;
        if size > 13 {
            core::limits::COMPLETE_KEEP_LIMIT
                .check(i64::try_from(limit).unwrap_or(i64::MAX))
                .py_err(py)?;
        }
        // A lane over-full (the first named), else a placed card not dealt (the first).
        py.detach(|| core::solve::complete_keep(&dealt, r, t, ctx, &placed, limit))
            .map(|v| v.into_iter().map(choice_tuple).collect())
            .map_err(|e| to_pyerr(py, e))
    })
}

/// Solves many hands at once on every core, without the GIL.
///
/// Args: ``hands``: numpy ``uint8`` array ``(n, 13)`` (or ``(n, rules.dealt)``) of card codes;
/// ``rules``; ``tables``: ``LaneTables``; ``players``; ``strategy``: ``"ev"`` or ``"greedy"``.
/// Returns ``(arrangements, specials)``: ``uint8 (n, 13)`` card codes in front, middle, back
/// order (a declared hand: its 13 kept cards) and ``int8 (n,)`` the declared special's
/// canonical index, −1 when arranged.
#[pyfunction]
#[pyo3(
    signature = (hands, rules, tables, *, players = 4, banker = false, strategy = Text::of("ev")),
    text_signature = "(hands, rules, tables, *, players=4, banker=False, strategy='ev')"
)]
#[allow(clippy::type_complexity)]
fn solve_batch<'py>(
    hands: PyReadonlyArray2<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: &Bound<'py, PyLaneTables>,
    players: usize,
    banker: bool,
    strategy: Text,
) -> PyResult<(Bound<'py, numpy::PyArray2<u8>>, Bound<'py, PyArray1<i8>>)> {
    let py = hands.py();
    let ctx = context(py, players, banker)?;
    let strategy = match strategy.get(py, "strategy")? {
        "ev" => core::solve::Strategy::Ev,
        "greedy" => core::solve::Strategy::Greedy,
        other => {
            let message =
                format!("unknown batch strategy {other:?} (expected \"ev\" or \"greedy\")");
            return Err(to_pyerr(py, Error::InvalidArgument { message }));
        }
    };
    let width = hands.shape()[1];
    let t = &tables.get().tables;
    let rows: Vec<Vec<u8>> = hands
        .as_array()
        .rows()
        .into_iter()
        .map(|r| r.to_vec())
        .collect();
    with_rules(rules, |r| {
        if width != 13 && width != r.dealt as usize {
            return Err(to_pyerr(
                py,
                Error::WrongCount {
                    expected: r.dealt as usize,
                    got: width,
                    lane: None,
                    player: None,
                },
            ));
        }
        let mut parsed = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let cards: Vec<core::Card> = row
                .iter()
                .enumerate()
                .map(|(j, &c)| {
                    core::Card::from_code(c).ok_or(Error::BadCard {
                        token: c.to_string(),
                        position: i * width + j,
                    })
                })
                .collect::<Result<_, _>>()
                .py_err(py)?;
            core::card::check_duplicates(&cards, r.deck, |_| None)
                .map_err(|e| Error::InTable {
                    table: i,
                    inner: Box::new(e),
                })
                .py_err(py)?;
            parsed.push(cards);
        }
        let out = py.detach(|| core::solve::solve_batch(&parsed, r, t, ctx, strategy));
        let mut codes = Vec::with_capacity(out.len() * 13);
        let mut specials = Vec::with_capacity(out.len());
        for (cards, sp) in out {
            codes.extend(cards.map(|c| c.code()));
            specials.push(sp.map_or(-1, |k| k as i8));
        }
        let n = specials.len();
        Ok((
            PyArray1::from_vec(py, codes).reshape([n, 13])?,
            PyArray1::from_vec(py, specials),
        ))
    })
}

/// Registers the arrangement engine's functions and classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLaneTables>()?;
    m.add_function(wrap_pyfunction!(count_splits, m)?)?;
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(build_tables, m)?)?;
    m.add_function(wrap_pyfunction!(train, m)?)?;
    m.add_function(wrap_pyfunction!(iteration_counts, m)?)?;
    m.add_function(wrap_pyfunction!(_ev_scan, m)?)?;
    m.add_function(wrap_pyfunction!(_explain, m)?)?;
    m.add_function(wrap_pyfunction!(_solve, m)?)?;
    m.add_function(wrap_pyfunction!(_complete, m)?)?;
    m.add_function(wrap_pyfunction!(solve_batch, m)?)?;
    Ok(())
}
