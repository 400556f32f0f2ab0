//! Settlement (RULES.md 5): declarations, settling one table or a numpy batch, escape payments
//! and money.

use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyDict, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::{Error, Lane};

use crate::arrangements::PyArrangement;
use crate::convert::{cards_list, extract_cards, with_rules, PyObject2};
use crate::errors::{to_pyerr, IntoPy};
use crate::specials::PySpecialHand;

/// A declared special hand (报到): the player's 13 ``cards`` (Cards or a string) and,
/// optionally, the ``special`` key named. Checked by ``settle`` (``CountError``,
/// ``DuplicateCardError``, ``FalseSpecialError`` naming the seat).
#[pyclass(name = "Declaration", frozen, module = "thirteen._core")]
struct PyDeclaration {
    cards: Vec<core::Card>,
    special: Option<String>,
}

#[pymethods]
impl PyDeclaration {
    #[new]
    #[pyo3(signature = (cards, special = None))]
    fn new(cards: &Bound<'_, PyAny>, special: Option<String>) -> PyResult<Self> {
        Ok(PyDeclaration {
            cards: extract_cards(cards)?,
            special,
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
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        let key = |d: &PyDeclaration| {
            let mut c: Vec<u8> = d.cards.iter().map(|c| c.code()).collect();
            c.sort_unstable();
            (c, d.special.clone())
        };
        match (other.cast::<PyDeclaration>(), op) {
            (Ok(o), CompareOp::Eq) => PyObject2::Bool(key(self) == key(o.get())),
            (Ok(o), CompareOp::Ne) => PyObject2::Bool(key(self) != key(o.get())),
            _ => PyObject2::NotImplemented,
        }
    }
}

/// A settled round (RULES.md 5), immutable. ``totals`` (units per seat, summing to 0),
/// ``fouled``, ``surrendered``, ``scoops`` (``(winner, loser)``), ``home_runs``; ``to_dict()``
/// gives every pair's lanes and steps and the reveal order as plain data.
#[pyclass(name = "Settlement", frozen, module = "thirteen._core")]
struct PySettlement(core::score::Settlement);

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
        let s = &self.0;
        let d = PyDict::new(py);
        d.set_item("totals", &s.totals)?;
        d.set_item("fouled", &s.fouled)?;
        d.set_item("surrendered", &s.surrendered)?;
        let specials = pyo3::types::PyList::empty(py);
        for sp in &s.specials {
            match sp {
                None => specials.append(py.None())?,
                Some(sp) => {
                    let e = PyDict::new(py);
                    e.set_item("key", sp.key())?;
                    e.set_item("units", sp.units)?;
                    e.set_item("tier", sp.tier)?;
                    specials.append(e)?;
                }
            }
        }
        d.set_item("specials", specials)?;
        let scoops: Vec<[usize; 2]> = s.scoops.iter().map(|&(a, b)| [a, b]).collect();
        d.set_item("scoops", scoops)?;
        d.set_item("home_runs", &s.home_runs)?;
        let pairs = pyo3::types::PyList::empty(py);
        for pr in &s.pairs {
            let e = PyDict::new(py);
            e.set_item("seats", [pr.seats.0, pr.seats.1])?;
            let lanes = pyo3::types::PyList::empty(py);
            for l in pr.lanes.iter().flatten() {
                let ld = PyDict::new(py);
                ld.set_item("lane", l.lane.key())?;
                ld.set_item("winner", l.winner)?;
                ld.set_item("category", l.category.map(core::Category::key))?;
                ld.set_item("units", l.units)?;
                lanes.append(ld)?;
            }
            e.set_item("lanes", lanes)?;
            let steps = PyDict::new(py);
            for (name, v) in core::score::STEPS.iter().zip(pr.steps) {
                steps.set_item(name, v)?;
            }
            e.set_item("steps", steps)?;
            e.set_item("total", pr.total)?;
            pairs.append(e)?;
        }
        d.set_item("pairs", pairs)?;
        let reveal = pyo3::types::PyList::empty(py);
        for (lane, order) in Lane::ALL.iter().zip(&s.reveal) {
            let e = PyDict::new(py);
            e.set_item("lane", lane.key())?;
            e.set_item("order", order)?;
            reveal.append(e)?;
        }
        d.set_item("reveal", reveal)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!("<Settlement totals={:?}>", self.0.totals)
    }
}

/// Settles one round (RULES.md 5).
///
/// Args: ``submissions``: per seat an ``Arrangement`` or a ``Declaration``; ``rules``:
/// ``RuleSet``; ``banker``: the banker's seat (banker mode); ``stakes``: per seat the stake
/// multiplier (banker mode; default 1); ``surrendered``: seats that surrendered.
/// Returns a ``Settlement``. Raises, checked in this order (the first offender; nothing is
/// settled): ``PlayerCountError``; ``ThirteenError`` (banker seat, a stake below 1) or
/// ``CountError`` (stakes not one per seat); ``SurrenderError``; ``CountError`` (a seat
/// without 13 cards); ``DuplicateCardError``; ``FalseSpecialError``; ``FouledError`` (under
/// ``foul = "reject"``).
#[pyfunction]
#[pyo3(signature = (submissions, rules = None, *, banker = 0, stakes = None, surrendered = None))]
fn settle(
    submissions: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    banker: usize,
    stakes: Option<Vec<i64>>,
    surrendered: Option<Vec<usize>>,
) -> PyResult<PySettlement> {
    let surrendered = surrendered.unwrap_or_default();
    let py = submissions.py();
    let mut subs = Vec::with_capacity(4);
    for (seat, item) in submissions.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(a) = item.cast::<PyArrangement>() {
            subs.push(core::score::Submission::Arranged(a.get().0));
        } else if let Ok(d) = item.cast::<PyDeclaration>() {
            let d = d.get();
            subs.push(core::score::Submission::Declared {
                cards: d.cards.clone(),
                special: d.special.clone(),
            });
        } else {
            return Err(PyTypeError::new_err(format!(
                "seat {seat}: expected Arrangement or Declaration, got {}",
                item.get_type().name()?
            )));
        }
    }
    let args = core::score::TableArgs {
        banker,
        stakes,
        surrendered,
    };
    with_rules(rules, |r| {
        core::score::settle(&subs, r, &args)
            .py_err(py)
            .map(PySettlement)
    })
}

/// Settles many tables of arrangements at once, without the GIL, for simulations.
///
/// Args: ``tables``: numpy ``uint8`` array of shape ``(n_tables, players, 13)`` of card codes,
/// each row front (3), middle (5), back (5); ``rules``: ``RuleSet``; ``banker``: banker seat.
/// Returns a numpy ``int64`` array ``(n_tables, players)`` of units. Raises the errors of
/// ``settle`` for the first bad table (its message names the table index).
#[pyfunction]
#[pyo3(signature = (tables, rules = None, *, banker = 0))]
fn settle_batch<'py>(
    tables: numpy::PyReadonlyArray3<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
    banker: usize,
) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
    let py = tables.py();
    let shape = tables.shape().to_vec();
    if shape[2] != 13 {
        return Err(to_pyerr(
            py,
            Error::WrongCount {
                expected: 13,
                got: shape[2],
                lane: None,
                player: None,
            },
        ));
    }
    let owned;
    let data: &[u8] = match tables.as_slice() {
        Ok(s) => s,
        Err(_) => {
            owned = tables.as_array().iter().copied().collect::<Vec<u8>>();
            &owned
        }
    };
    let out = with_rules(rules, |r| {
        py.detach(|| core::score::settle_batch(data, shape[1], r, banker))
            .py_err(py)
    })?;
    let arr = numpy::PyArray1::from_vec(py, out);
    arr.reshape([shape[0], shape[1]])
}

/// What a player who left mid-round (逃跑 / 强退) pays, per seat (RULES.md 5 "Escape").
///
/// Args: ``rules``: ``RuleSet`` (its ``escape``); ``leaver``: the seat; ``results``: per seat the
/// round result in units (None for the leaver); its length is the players dealt in.
/// Returns units per seat (sum 0); never multiplied.
#[pyfunction]
fn escape_payments(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    leaver: usize,
    results: Vec<Option<i64>>,
) -> PyResult<Vec<i64>> {
    with_rules(rules, |r| {
        core::score::escape_payments(r, leaver, &results).py_err(py)
    })
}

/// Parses a rake percentage: an int, or a decimal string / float such as ``"2.5"``, into a
/// fraction ``(numerator, denominator)``.
fn parse_percent(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<(i64, i64)> {
    let bad = || {
        to_pyerr(
            py,
            Error::InvalidArgument {
                message: format!("bad rake percent {obj}"),
            },
        )
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    let text = if let Ok(i) = obj.extract::<i64>() {
        i.to_string()
    } else if obj.is_instance_of::<pyo3::types::PyFloat>() {
        obj.repr()?.to_string()
    } else if let Ok(s) = obj.cast::<PyString>() {
        s.to_cow()?.trim().to_string()
    } else {
        return Err(bad());
    };
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    if int.is_empty() && frac.is_empty() || frac.len() > 9 {
        return Err(bad());
    }
    let den = 10i64.pow(frac.len() as u32);
    let int: i64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let frac_v: i64 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| bad())?
    };
    if int < 0 || frac.starts_with(['+', '-']) {
        return Err(bad());
    }
    let num = int * den + frac_v;
    if num > 100 * den {
        return Err(bad());
    }
    Ok((num, den))
}

/// Units to money in integer minor currency units (RULES.md 5 "Money").
///
/// Args: ``units``: per player (escape payments included); ``stake``: minor units per unit
/// (int ≥ 0); ``rake``: ``(percent, cap)`` or None, ``percent`` an int or decimal string
/// (``"2.5"``), ``cap`` the most taken from one player (None: no cap). Returns per player
/// ``units × stake`` less ``floor(amount × percent / 100)`` (capped) from positive amounts.
/// Raises ``ThirteenError`` for a bad stake, percent or cap.
#[pyfunction]
#[pyo3(signature = (units, stake, rake = None))]
fn money(
    py: Python<'_>,
    units: Vec<i64>,
    stake: i64,
    rake: Option<(Bound<'_, PyAny>, Option<i64>)>,
) -> PyResult<Vec<i64>> {
    let invalid = |m: String| to_pyerr(py, Error::InvalidArgument { message: m });
    if stake < 0 {
        return Err(invalid(format!(
            "stake must be an integer >= 0, got {stake}"
        )));
    }
    let rake = match rake {
        None => None,
        Some((p, cap)) => {
            let (num, den) = parse_percent(py, &p)?;
            if cap.is_some_and(|c| c < 0) {
                return Err(invalid(format!(
                    "rake cap must be an integer >= 0 or None, got {cap:?}"
                )));
            }
            Some((num, den, cap))
        }
    };
    Ok(core::score::money(&units, stake, rake))
}

/// Registers declarations, settlements and the settlement functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeclaration>()?;
    m.add_class::<PySettlement>()?;
    m.add_function(wrap_pyfunction!(settle, m)?)?;
    m.add_function(wrap_pyfunction!(settle_batch, m)?)?;
    m.add_function(wrap_pyfunction!(escape_payments, m)?)?;
    m.add_function(wrap_pyfunction!(money, m)?)?;
    Ok(())
}
