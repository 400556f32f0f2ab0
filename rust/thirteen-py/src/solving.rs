//! Solving hands: the splits of a hand, one solve (代打, hints), completions, batches, and the
//! exact search's checks for tests and benchmarks. Each function converts its arguments,
//! fills the core's `SolveOptions` and makes one core call without the GIL.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core::Distinct;
use thirteen_core::{self as core, SolveOptions, Strategy};
use thirteen_core::{ev_scan, explain_arrangement, Choice};
use thirteen_core::{HandSplits, SplitFilter};

use crate::arrangements::PyArrangement;
use crate::convert::{cards_list, extract_cards, thirteen_cards, with_rules, Text};
use crate::errors::IntoPy;
use crate::lane_tables::{with_hand, PyLaneTables};
use crate::specials::PySpecialHand;

/// Number of splits of a 13-card hand (RULES.md 2): all 72,072, only the non-fouled ones
/// (``legal=True``), or the Pareto set of the legal ones (``pareto=True``: splits that no other
/// split matches or beats in every lane while beating them in one). Raises ``CountError``,
/// ``DuplicateCardError``, ``CardError``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, *, legal = false, pareto = false))]
pub(crate) fn count_splits(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    legal: bool,
    pareto: bool,
) -> PyResult<usize> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py.detach(|| HandSplits::new(&hand, r.wheel).count(SplitFilter::of(legal, pareto))))
    })
}

/// The splits of a 13-card hand as ``Arrangement`` objects, in enumeration order (middle
/// subsets in increasing position-mask order, then the fronts); filters as ``count_splits``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, *, legal = false, pareto = false))]
pub(crate) fn splits(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    legal: bool,
    pareto: bool,
) -> PyResult<Vec<PyArrangement>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py.detach(|| {
            let s = HandSplits::new(&hand, r.wheel);
            s.list(SplitFilter::of(legal, pareto))
                .iter()
                .map(|sp| PyArrangement(s.arrangement(sp)))
                .collect()
        }))
    })
}

type ChoiceTuple = (Option<PyArrangement>, Option<PySpecialHand>, f64);

fn choice_tuple(c: Choice) -> ChoiceTuple {
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
pub(crate) fn _ev_scan(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    players: usize,
    banker: bool,
) -> PyResult<(f64, f64, usize, usize, usize)> {
    let py = cards.py();
    let ctx = SolveOptions::new(players, banker).py_err(py)?.ctx;
    let (pruned, full, stats) =
        with_hand(cards, rules, tables, |hand, r, t| ev_scan(hand, r, t, ctx))?;
    Ok((pruned, full, stats.backs, stats.scored, stats.middle_side))
}

/// `_explain`'s result: per lane (P(win), P(lose)), P(scoop), P(scooped), expected units.
type ExplainTuple = (Vec<(f64, f64)>, f64, f64, f64);

/// What the ``ev`` model believes of an arrangement, for benchmarks: ``([(P(win), P(lose))
/// per lane, front first], P(scoop), P(scooped), expected units)`` against one opponent
/// (units: against the table), card removal from the arrangement's 13 cards included when
/// the tables use it. Raises as ``_solve`` for bad rules, table size or cards.
#[pyfunction]
#[pyo3(signature = (arrangement, rules, tables, *, players = 4, banker = false))]
pub(crate) fn _explain(
    arrangement: &Bound<'_, PyArrangement>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    players: usize,
    banker: bool,
) -> PyResult<ExplainTuple> {
    let py = arrangement.py();
    let ctx = SolveOptions::new(players, banker).py_err(py)?.ctx;
    let a = arrangement.get().0;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        let x = explain_arrangement(&a, r, t, ctx).py_err(py)?;
        Ok((x.lanes.to_vec(), x.scoop, x.scooped, x.units))
    })
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
pub(crate) fn _solve<'py>(
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
    let seat = SolveOptions::new(players, banker).py_err(py)?;
    let name = strategy.get(py, "strategy")?;
    let options = SolveOptions {
        strategy: Strategy::named(name, samples, seed).py_err(py)?,
        top,
        distinct: Distinct::of(distinct, labels),
        ..seat
    };
    let solved = with_hand(cards, rules, tables, |dealt, r, t| {
        core::solve(dealt, r, t, &options)
    })?;
    Ok((
        cards_list(py, &solved.kept)?,
        solved.choices.into_iter().map(choice_tuple).collect(),
    ))
}

/// The legal ways to finish a hand with some cards already placed (engine behind
/// ``thirteen.complete``): ``cards`` 13 (or ``rules.dealt``) cards; ``front``, ``middle``,
/// ``back`` the placed cards. Returns
/// ``[(arrangement, None, expected units), ...]`` best first, at most ``limit``.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, *, front, middle, back, players = 4, banker = false, limit = 20))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _complete(
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
    let options = SolveOptions::new(players, banker).py_err(py)?;
    let placed = [
        extract_cards(front)?,
        extract_cards(middle)?,
        extract_cards(back)?,
    ];
    let choices = with_hand(cards, rules, tables, |dealt, r, t| {
        core::complete(dealt, r, t, &options, &placed, limit)
    })?;
    Ok(choices.into_iter().map(choice_tuple).collect())
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
pub(crate) fn solve_batch<'py>(
    hands: PyReadonlyArray2<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: &Bound<'py, PyLaneTables>,
    players: usize,
    banker: bool,
    strategy: Text,
) -> PyResult<(Bound<'py, numpy::PyArray2<u8>>, Bound<'py, PyArray1<i8>>)> {
    let py = hands.py();
    let seat = SolveOptions::new(players, banker).py_err(py)?;
    let options = SolveOptions {
        strategy: Strategy::named(strategy.get(py, "strategy")?, 0, 0).py_err(py)?,
        ..seat
    };
    let width = hands.shape()[1];
    let codes: Vec<u8> = hands.as_array().iter().copied().collect();
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        let out = py
            .detach(|| core::solve_batch(&codes, width, r, t, &options))
            .py_err(py)?;
        let (codes, specials) = core::batch_arrays(&out);
        let n = specials.len();
        Ok((
            PyArray1::from_vec(py, codes).reshape([n, core::HAND_SIZE])?,
            PyArray1::from_vec(py, specials),
        ))
    })
}
