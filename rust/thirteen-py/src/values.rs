//! Hand values (RULES.md 3): evaluation one by one and in numpy batches, and lane comparison.

use std::cmp::Ordering;

use numpy::{Ix2, PyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core as core;

use crate::convert::{codes_array, row_major, rules_of, CardsArg, Int, RulesArg};
use crate::enums;
use crate::errors::IntoPy;

/// The value of a 3- or 5-card hand (RULES.md 3), totally ordered in game order.
///
/// ``category``: Category; ``ranks``: the deciding ranks in order; ``high``: the first;
/// ``size``: 3 or 5; ``value``: the packed integer (its order is the game order). Pickles.
#[pyclass(name = "HandValue", frozen, eq, ord, module = "thirteen._core")]
#[derive(Clone, Copy)]
pub(crate) struct PyHandValue {
    pub(crate) value: core::HandValue,
    pub(crate) size: u8,
}

/// Values compare in game order, whatever their sizes (a front against a middle).
impl PartialEq for PyHandValue {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl PartialOrd for PyHandValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.value.cmp(&other.value))
    }
}

#[pymethods]
impl PyHandValue {
    /// Rebuilds a value from ``value`` (as returned by ``evaluate_batch``) and ``size`` (3 or
    /// 5). Raises ``LimitError`` for ``value`` outside 0..2**32 − 1 or a negative ``size``, and
    /// ``ThirteenError`` when it is not the value of any hand of that size.
    #[staticmethod]
    #[pyo3(signature = (value, size = Int::of(5)), text_signature = "(value, size=5)")]
    fn from_raw(py: Python<'_>, value: Int, size: Int) -> PyResult<Self> {
        let (value, size) = core::HandValue::from_given(&value.0, &size.0).py_err(py)?;
        Ok(PyHandValue {
            value,
            size: size as u8,
        })
    }
    /// The category.
    #[getter]
    fn category<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        enums::category(py, self.value.category())
    }
    /// The deciding ranks, in order.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let ranks = self.value.ranks().into_iter().map(|r| enums::rank(py, r));
        PyTuple::new(py, ranks.collect::<PyResult<Vec<_>>>()?)
    }
    /// The first deciding rank.
    #[getter]
    fn high<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        enums::rank(py, self.value.high())
    }
    /// 3 (front) or 5.
    #[getter]
    fn size(&self) -> u8 {
        self.size
    }
    /// The packed integer.
    #[getter]
    fn value(&self) -> u32 {
        self.value.raw()
    }
    fn __str__(&self) -> String {
        self.value.describe()
    }
    fn __repr__(&self) -> String {
        format!("<HandValue {}>", self.value.describe())
    }
    fn __hash__(&self) -> u64 {
        self.value.raw() as u64
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (u32, u8))> {
        Ok((
            py.get_type::<PyHandValue>().getattr("from_raw")?,
            (self.value.raw(), self.size),
        ))
    }
}

/// Evaluates a 3- or 5-card hand (RULES.md 3).
///
/// Args: ``cards``: 3 or 5 ``Card`` (or a string); ``rules``: ``RuleSet`` or None (wheel and
/// deck come from it). Raises ``CountError`` for another size, ``DuplicateCardError`` for a card
/// beyond the deck, ``CardError`` for bad text.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
pub(crate) fn evaluate(
    py: Python<'_>,
    cards: CardsArg,
    rules: Option<RulesArg<'_>>,
) -> PyResult<PyHandValue> {
    let r = rules_of(&rules);
    let value = core::evaluate_hand(&cards.0, r.wheel, r.deck).py_err(py)?;
    let size = cards.0.len() as u8;
    Ok(PyHandValue { value, size })
}

/// Evaluates many hands at once, without the GIL.
///
/// Args: ``hands``: numpy ``uint8`` array of shape ``(n, 5)`` or ``(n, 3)`` of card codes
/// (``Card.code``), in any memory layout (C or Fortran order, transposed, strided: rows are
/// read as indexed); ``rules``: ``RuleSet`` or None. Returns a numpy ``uint32`` array of the
/// packed values (``HandValue.value``; ``HandValue.from_raw`` rebuilds one).
/// Raises ``TypeError`` for anything but a 2-dimensional ``uint8`` array (convert with
/// ``a.astype(np.uint8)``), ``CardError`` for a code over 51, ``DuplicateCardError`` for a card
/// beyond the deck, ``CountError`` for another width.
#[pyfunction]
#[pyo3(signature = (hands, rules = None))]
pub(crate) fn evaluate_batch<'py>(
    hands: &Bound<'py, PyAny>,
    rules: Option<RulesArg<'py>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let py = hands.py();
    let hands = codes_array::<Ix2>(hands, "hands", "(n, 5) or (n, 3)")?;
    let width = hands.shape()[1];
    let data = row_major(&hands);
    let r = rules_of(&rules);
    let out = py
        .detach(|| core::evaluate_batch(&data, width, r.wheel, r.deck))
        .py_err(py)?;
    Ok(PyArray1::from_vec(py, out))
}

/// Compares two players' lanes (RULES.md 3): ``1`` when ``a`` wins, ``-1`` when ``b`` wins,
/// ``0`` for a draw. ``a``, ``b``: 3 or 5 cards each (same size); ``rules``: ``RuleSet`` or
/// None (``tie_break`` and ``wheel`` apply). Raises ``CountError``, ``DuplicateCardError``.
#[pyfunction]
#[pyo3(signature = (a, b, rules = None))]
pub(crate) fn compare_lanes(
    py: Python<'_>,
    a: CardsArg,
    b: CardsArg,
    rules: Option<RulesArg<'_>>,
) -> PyResult<i8> {
    let r = rules_of(&rules);
    Ok(match core::compare_lanes(&a.0, &b.0, r).py_err(py)? {
        Ordering::Greater => 1,
        Ordering::Less => -1,
        Ordering::Equal => 0,
    })
}
