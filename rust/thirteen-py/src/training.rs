//! Training the lane tables by self-play: whole runs, and the counts of a range of deals for
//! training in shards.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use thirteen_core as core;
use thirteen_core::limits::{
    TRAIN_DEAL, TRAIN_DEALS, TRAIN_ITERATION, TRAIN_ITERATIONS, TRAIN_START,
};
use thirteen_core::{IterationCounts, IterationReport, Strategy, TrainConfig};

use crate::convert::{plain, seed_value, with_rules, Int};
use crate::errors::IntoPy;
use crate::lane_tables::{counts_dict, rules_object, PyLaneTables};

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
pub(crate) fn build_tables(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: Int,
    deals: Int,
    iterations: Int,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyLaneTables> {
    let deals = deals.index(py, &TRAIN_DEALS)?;
    let iterations = iterations.index(py, &TRAIN_ITERATIONS)?;
    let seed = seed.map_or(Ok(0), |s| seed_value(py, s))?;
    with_rules(rules, |r| {
        // A table size the rules allow: no more cards dealt than the deck holds.
        let players = r.check_players_given(&players.0).py_err(py)?;
        let counts = py.detach(|| core::build_tables(r, players, deals, iterations, seed));
        Ok(PyLaneTables::new(counts, r, rules_object(rules)?))
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
/// ``None`` for the greedy iteration 0). ``packed``: ``count`` is given the tables' counts in
/// bytes (``LaneTables.from_packed``) and returns a list of the packed counts of ranges of
/// the deals (``iteration_counts(..., packed=True)``). Raises what ``report`` or ``count``
/// raise; ``ThirteenError`` for counts of another shape or more hands than the deals hold.
#[pyfunction]
#[pyo3(signature = (rules, *, players, deals, iterations, tolerance, seed, warm = None, report = None, count = None, packed = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn train(
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
    packed: bool,
) -> PyResult<PyLaneTables> {
    let cfg = TrainConfig {
        players,
        deals,
        iterations,
        tolerance,
        seed,
    };
    let warm_counts = warm.map(|w| w.get().counts.clone());
    let kept = rules_object(rules)?;
    with_rules(rules, |r| {
        cfg.check(r).py_err(py)?;
        let mut failure: Option<PyErr> = None;
        let on_report = |it: &IterationReport| {
            let Some(report) = &report else { return true };
            let args = (it.iteration, it.hands, it.change, it.gap);
            Python::attach(|py| report.call1(py, args).and_then(|v| v.is_truthy(py)))
                .unwrap_or_else(|e| {
                    failure = Some(e);
                    false
                })
        };
        let counts = py.detach(|| match &count {
            None => Ok(core::train(r, &cfg, warm_counts.as_ref(), on_report)),
            Some(count) => core::train_with(
                r,
                &cfg,
                warm_counts.as_ref(),
                |it, strategy, answered| {
                    Python::attach(|py| {
                        let greedy = strategy == Strategy::Greedy;
                        if packed {
                            let sent = answered.counts().map(|c| PyBytes::new(py, &c.to_bytes()));
                            let out = count.call1(py, (it, greedy, sent))?;
                            let parts: Vec<Bound<'_, PyBytes>> = out.extract(py)?;
                            let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
                            return IterationCounts::from_packed(&parts, &cfg).py_err(py);
                        }
                        let tables = (answered.counts())
                            .map(|c| PyLaneTables {
                                tables: answered.tables().clone(),
                                counts: c.clone(),
                                rules: kept.as_ref().map(|k| k.clone_ref(py)),
                            })
                            .map(|t| Py::new(py, t))
                            .transpose()?;
                        let out = count.call1(py, (it, greedy, tables))?;
                        IterationCounts::from_plain(&plain(out.bind(py))?, &cfg).py_err(py)
                    })
                },
                on_report,
            ),
        });
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(PyLaneTables::new(counts?, r, kept))
    })
}

/// The lane values played at deals ``start`` to ``stop`` (not included) of training
/// iteration ``iteration`` (as ``train`` with ``players`` and ``seed`` deals them), every hand
/// arranged greedily (``greedy``) or by ``ev`` on ``tables``, on every core without the GIL:
/// ``{"front": [(value, count), ...], "middle": ..., "back": ...}``, sorted by value.
/// Counts of consecutive ranges add up to the counts of the whole iteration. Raises
/// ``packed``: the same counts in bytes (``LaneCounts`` packed, for ``train``'s packed
/// ``count``). Raises ``PlayerCountError``, ``LimitError`` (``start`` after ``stop``, ``stop``
/// above 10**8, ``iteration`` above 10**4), ``ThirteenError`` (``ev`` without tables).
#[pyfunction]
#[pyo3(signature = (rules, tables, *, players, seed, iteration, greedy, start, stop, packed = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn iteration_counts<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyLaneTables>>,
    players: usize,
    seed: u64,
    iteration: Int,
    greedy: bool,
    start: Int,
    stop: Int,
    packed: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let deals = core::deal_range(start.value(py, &TRAIN_START)?, stop.value(py, &TRAIN_DEAL)?);
    let iteration = iteration.index(py, &TRAIN_ITERATION);
    let tables = tables.map(|t| &t.get().tables);
    with_rules(rules, |r| {
        let (deals, iteration) = (deals.py_err(py)?, iteration?);
        let counts = py.detach(|| {
            let run = (players, seed);
            core::shard_counts(r, tables, greedy, run, iteration, deals)
        });
        let counts = counts.py_err(py)?.to_counts();
        match packed {
            true => Ok(PyBytes::new(py, &counts.to_bytes()).into_any()),
            false => Ok(counts_dict(py, &counts)?.into_any()),
        }
    })
}
