//! Settlement (RULES.md 5): declarations, settling one table or a numpy batch, escape payments
//! and money.

use numpy::{Ix3, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::limits::{BANKER, ESCAPED, LEAVER, RAKE_CAP, STAKE, UNITS};

use crate::arrangements::PyArrangement;
use crate::convert::{
    cards_list, codes_array, given, json_dict, row_major, rules_of, CardsArg, Int, RulesArg, Text,
};
use crate::errors::IntoPy;
use crate::pickle::{self, Reduced};
use crate::specials::PySpecialHand;

/// A declared special hand (报到): the player's 13 ``cards`` (Cards or a string) and,
/// optionally, the ``special`` key named. Checked by ``settle`` (``CountError``,
/// ``DuplicateCardError``, ``FalseSpecialError`` naming the seat).
#[pyclass(name = "Declaration", frozen, eq, module = "thirteen._core")]
pub(crate) struct PyDeclaration {
    cards: Vec<core::Card>,
    special: Option<String>,
}

/// Declarations are equal when they hold the same cards, in any order, and name the same key.
impl PartialEq for PyDeclaration {
    fn eq(&self, other: &Self) -> bool {
        let key = |d: &PyDeclaration| {
            let mut c: Vec<u8> = d.cards.iter().map(|c| c.code()).collect();
            c.sort_unstable();
            (c, d.special.clone())
        };
        key(self) == key(other)
    }
}

#[pymethods]
impl PyDeclaration {
    #[new]
    #[pyo3(signature = (cards, special = None))]
    fn new(py: Python<'_>, cards: CardsArg, special: Option<Text>) -> PyResult<Self> {
        let special = special.map(|s| s.get(py, "special").map(str::to_owned));
        Ok(PyDeclaration {
            cards: cards.0,
            special: special.transpose()?,
        })
    }
    /// The cards.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.cards)
    }
    /// The key named, or None.
    #[getter]
    fn special(&self) -> Option<&str> {
        self.special.as_deref()
    }
    fn __repr__(&self) -> String {
        format!(
            "Declaration('{}', special={})",
            core::format_cards(&self.cards, false),
            self.special
                .as_deref()
                .map_or("None".to_string(), |s| format!("'{s}'"))
        )
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let text = core::format_cards(&self.cards, false);
        Ok((
            py.get_type::<PyDeclaration>().into_any(),
            (text, self.special.clone()).into_pyobject(py)?,
        ))
    }
}

/// A settled round (RULES.md 5), immutable. ``totals`` (units per seat, summing to 0),
/// ``fouled``, ``surrendered``, ``scoops`` (``(winner, loser)``), ``home_runs``; ``to_dict()``
/// gives every pair's lanes and steps and the reveal order as plain data.
#[pyclass(name = "Settlement", frozen, eq, module = "thirteen._core")]
#[derive(PartialEq)]
pub(crate) struct PySettlement(pub(crate) core::Settlement);

#[pymethods]
impl PySettlement {
    /// Units per seat (sum 0).
    #[getter]
    fn totals(&self) -> Vec<i64> {
        self.0.totals.clone()
    }
    /// Fouled seats (相公).
    #[getter]
    fn fouled(&self) -> Vec<usize> {
        self.0.fouled.clone()
    }
    /// Seats that surrendered.
    #[getter]
    fn surrendered(&self) -> Vec<usize> {
        self.0.surrendered.clone()
    }
    /// Scoops (打枪) as ``(winner, loser)``.
    #[getter]
    fn scoops(&self) -> Vec<(usize, usize)> {
        self.0.scoops.clone()
    }
    /// Seats that hit a home run (全垒打).
    #[getter]
    fn home_runs(&self) -> Vec<usize> {
        self.0.home_runs.clone()
    }
    /// Declared specials as scored, per seat (None where not declared).
    #[getter]
    fn specials(&self) -> Vec<Option<PySpecialHand>> {
        self.0
            .specials
            .iter()
            .map(|s| s.clone().map(PySpecialHand))
            .collect()
    }
    /// The settlement as plain dicts and lists: ``totals``, ``fouled``, ``surrendered``,
    /// ``specials``, ``scoops``, ``home_runs``, ``pairs`` (``seats``, ``lanes``, ``steps``,
    /// ``total``; signed from the lower seat's side) and ``reveal`` (per lane, seats weakest
    /// first).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        json_dict(py, &self.0.to_plain_json())
    }
    fn __repr__(&self) -> String {
        format!("<Settlement totals={:?}>", self.0.totals)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        pickle::reduce(slf.py(), "Settlement", &slf.get().0)
    }
}

/// Settles one round (RULES.md 5).
///
/// Args: ``submissions``: per seat an ``Arrangement`` or a ``Declaration``; ``rules``:
/// ``RuleSet``; ``banker``: the banker's seat (banker mode); ``stakes``: per seat the stake
/// multiplier (banker mode; 1 to 1,000, default 1); ``surrendered``: seats that surrendered.
/// Returns a ``Settlement``. Raises, checked in this order (the first offender; nothing is
/// settled): ``PlayerCountError``; ``ThirteenError`` (banker seat) or ``CountError`` (stakes
/// not one per seat) or ``LimitError`` (a stake outside 1 to 1,000); ``SurrenderError``;
/// ``CountError`` (a seat without 13 cards); ``DuplicateCardError``; ``FalseSpecialError``;
/// ``FouledError`` (under ``foul = "reject"``). An integer beyond 64 bits is a ``LimitError``
/// before any of these; a non-integer a ``TypeError``.
#[pyfunction]
#[pyo3(
    signature = (submissions, rules = None, *, banker = Int::of(0), stakes = None, surrendered = None),
    text_signature = "(submissions, rules=None, *, banker=0, stakes=None, surrendered=None)"
)]
pub(crate) fn settle(
    py: Python<'_>,
    submissions: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
    banker: Int,
    stakes: Option<Vec<Int>>,
    surrendered: Option<Vec<Int>>,
) -> PyResult<PySettlement> {
    let subs = submissions
        .try_iter()?
        .enumerate()
        .map(|(seat, item)| submission(seat, &item?))
        .collect::<PyResult<Vec<_>>>()?;
    let args = table_args(banker, stakes, surrendered).py_err(py)?;
    core::settle(&subs, rules_of(&rules), &args)
        .py_err(py)
        .map(PySettlement)
}

/// The seat arguments of a settlement as the core takes them.
fn table_args(
    banker: Int,
    stakes: Option<Vec<Int>>,
    surrendered: Option<Vec<Int>>,
) -> core::Result<core::TableArgs> {
    let surrendered = given(surrendered.unwrap_or_default());
    core::TableArgs::given(&banker.0, stakes.map(given).as_deref(), &surrendered)
}

/// A seat's submission: an ``Arrangement`` or a ``Declaration`` (``TypeError`` otherwise).
fn submission(seat: usize, item: &Bound<'_, PyAny>) -> PyResult<core::Submission> {
    if let Ok(a) = item.cast::<PyArrangement>() {
        Ok(core::Submission::Arranged(a.get().0))
    } else if let Ok(d) = item.cast::<PyDeclaration>() {
        let d = d.get();
        Ok(core::Submission::Declared {
            cards: d.cards.clone(),
            special: d.special.clone(),
        })
    } else {
        Err(PyTypeError::new_err(format!(
            "seat {seat}: expected Arrangement or Declaration, got {}",
            item.get_type().name()?
        )))
    }
}

/// Settles a round with escapes (逃跑 / 强退, RULES.md 5 "Escape"): the seats still in among
/// themselves (a home run counting the players dealt in), and each leaver's escape penalty.
///
/// Args: ``submissions``: per seat dealt in, an ``Arrangement`` or a ``Declaration``, ``None``
/// for a seat that left; ``rules``; ``escaped``: the seats that left, in the order they left;
/// ``banker``, ``stakes``, ``surrendered`` as for ``settle``, naming round seats. Returns
/// ``(settlement, results, escape)``: the ``Settlement`` of the seats still in (``None`` when
/// fewer than two are, or the banker left), the showdown's units per round seat and the escape
/// payments per round seat. Raises ``PlayerCountError`` (seats dealt in), ``ThirteenError``
/// (a leaver that is not a seat or is named twice, no seat left in, a submission missing or
/// given for a leaver), then the errors of ``settle``.
#[pyfunction]
#[pyo3(
    signature = (submissions, rules = None, *, escaped = Vec::new(), banker = Int::of(0), stakes = None, surrendered = None),
    text_signature = "(submissions, rules=None, *, escaped=(), banker=0, stakes=None, surrendered=None)"
)]
pub(crate) fn settle_round(
    py: Python<'_>,
    submissions: &Bound<'_, PyAny>,
    rules: Option<RulesArg<'_>>,
    escaped: Vec<Int>,
    banker: Int,
    stakes: Option<Vec<Int>>,
    surrendered: Option<Vec<Int>>,
) -> PyResult<(Option<PySettlement>, Vec<i64>, Vec<i64>)> {
    let subs = submissions
        .try_iter()?
        .enumerate()
        .map(|(seat, item)| {
            let item = item?;
            match item.is_none() {
                true => Ok(None),
                false => submission(seat, &item).map(Some),
            }
        })
        .collect::<PyResult<Vec<_>>>()?;
    let escaped = ESCAPED.fits_all(&given(escaped)).py_err(py)?;
    let args = table_args(banker, stakes, surrendered).py_err(py)?;
    let round = core::settle_round(&subs, rules_of(&rules), &args, &escaped).py_err(py)?;
    Ok((
        round.settlement.map(PySettlement),
        round.results,
        round.escape,
    ))
}

/// Settles many tables of arrangements at once, without the GIL, for simulations.
///
/// Args: ``tables``: numpy ``uint8`` array of shape ``(n_tables, players, 13)`` of card codes,
/// each row front (3), middle (5), back (5), in any memory layout (read as indexed);
/// ``rules``: ``RuleSet``; ``banker``: banker seat. Returns a numpy ``int64`` array
/// ``(n_tables, players)`` of units. Raises ``TypeError`` for anything but a 3-dimensional
/// ``uint8`` array, ``CountError`` for rows that are not 13 cards, ``PlayerCountError``, and
/// the errors of ``settle`` for the first bad table (its message names the table index).
#[pyfunction]
#[pyo3(
    signature = (tables, rules = None, *, banker = Int::of(0)),
    text_signature = "(tables, rules=None, *, banker=0)"
)]
pub(crate) fn settle_batch<'py>(
    tables: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
    banker: Int,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let py = tables.py();
    let tables = codes_array::<Ix3>(tables, "tables", "(n_tables, players, 13)")?;
    let shape = tables.shape().to_vec();
    let banker = banker.value(py, &BANKER)?;
    let data = row_major(&tables);
    let r = rules_of(&rules);
    let out = py
        .detach(|| core::settle_batch(&data, shape[1], shape[2], r, banker))
        .py_err(py)?;
    PyArray1::from_vec(py, out).reshape([shape[0], shape[1]])
}

/// What a player who left mid-round (逃跑 / 强退) pays, per seat (RULES.md 5 "Escape").
///
/// Args: ``rules``: ``RuleSet`` (its ``escape``); ``leaver``: the seat; ``results``: per seat the
/// round result in units (None for the leaver); its length is the players dealt in.
/// Returns units per seat (sum 0); never multiplied. Raises ``ThirteenError`` for a leaver
/// who is not a seat or a missing result, ``LimitError`` for an integer beyond 64 bits.
#[pyfunction]
pub(crate) fn escape_payments(
    py: Python<'_>,
    rules: Option<RulesArg<'_>>,
    leaver: Int,
    results: Vec<Option<Int>>,
) -> PyResult<Vec<i64>> {
    let leaver = leaver.value(py, &LEAVER)?;
    let results = results
        .iter()
        .map(|r| r.as_ref().map(|u| u.value(py, &UNITS)).transpose())
        .collect::<PyResult<Vec<_>>>()?;
    core::escape_payments(rules_of(&rules), leaver, &results).py_err(py)
}

/// The text of a rake percentage: an int, a float (as written, ``repr``) or a string.
fn percent_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = |s: Bound<'_, PyString>| {
        Ok(s.extract::<Text>()?
            .get(obj.py(), "rake percent")?
            .to_owned())
    };
    if obj.is_instance_of::<PyFloat>() {
        text(obj.repr()?)
    } else if obj.is_instance_of::<PyString>() || obj.is_exact_instance_of::<PyInt>() {
        text(obj.str()?)
    } else {
        let kind = obj.get_type().name()?;
        Ok(format!("<{kind}>"))
    }
}

/// Units to money in integer minor currency units (RULES.md 5 "Money").
///
/// Args: ``units``: per player (escape payments included), each within ±1,000,000,000;
/// ``stake``: minor units per unit, 0 to 1,000,000,000; ``rake``: ``(percent, cap)`` or None,
/// ``percent`` an int or a decimal string (``"2.5"``, at most 9 decimals) from 0 to 100,
/// ``cap`` the most taken from one player (an int >= 0, or None: no cap). Returns per player
/// ``units × stake`` less ``floor(amount × percent / 100)`` (capped) from positive amounts;
/// within these bounds every amount is exact (README, "Numeric bounds").
/// Raises ``LimitError`` for a number outside its bounds, ``ThirteenError`` for a percentage
/// that is not a decimal number, ``TypeError`` for a non-integer stake, unit or cap.
#[pyfunction]
#[pyo3(signature = (units, stake, rake = None))]
pub(crate) fn money(
    py: Python<'_>,
    units: Vec<Int>,
    stake: Int,
    rake: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<i64>> {
    let units = UNITS.fits_all(&given(units)).py_err(py)?;
    let stake = stake.value(py, &STAKE)?;
    let rake = match rake.map(|r| r.extract::<(Bound<PyAny>, Bound<PyAny>)>()) {
        None => None,
        Some(Err(_)) => {
            let message = "rake must be a (percent, cap) pair or None";
            return Err(PyTypeError::new_err(message));
        }
        Some(Ok((percent, cap))) => Some(core::Rake {
            percent: core::Percent::parse(&percent_text(&percent)?).py_err(py)?,
            cap: cap
                .extract::<Option<Int>>()?
                .map(|c| c.value(py, &RAKE_CAP))
                .transpose()?,
        }),
    };
    core::money(&units, stake, rake).py_err(py)
}
