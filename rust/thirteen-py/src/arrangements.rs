//! Arrangements (RULES.md 2): front, middle and back lanes, and the foul check.

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use thirteen_core as core;

use crate::convert::{cards_list, read_cards, rules_of, CardsArg, RulesArg};
use crate::errors::IntoPy;
use crate::values::PyHandValue;

/// A split of 13 cards into front (头墩, 3), middle (中墩, 5) and back (尾墩, 5) (RULES.md 2).
///
/// ``Arrangement(front, middle, back, rules=None)``: each lane a sequence of ``Card`` or a
/// string. Raises ``CountError`` naming a lane of the wrong size, ``DuplicateCardError`` for a
/// card beyond the deck of ``rules``, ``CardError`` for bad text.
#[pyclass(name = "Arrangement", frozen, eq, module = "thirteen._core")]
#[derive(Clone, Copy)]
pub(crate) struct PyArrangement(pub(crate) core::Arrangement);

/// Arrangements are equal when each lane holds the same cards, in any order.
impl PartialEq for PyArrangement {
    fn eq(&self, other: &Self) -> bool {
        self.0.canonical() == other.0.canonical()
    }
}

#[pymethods]
impl PyArrangement {
    #[new]
    #[pyo3(signature = (front, middle, back, rules = None))]
    fn new(
        py: Python<'_>,
        front: CardsArg,
        middle: CardsArg,
        back: CardsArg,
        rules: Option<RulesArg<'_>>,
    ) -> PyResult<Self> {
        let deck = rules_of(&rules).deck;
        core::Arrangement::new(&front.0, &middle.0, &back.0, deck)
            .py_err(py)
            .map(PyArrangement)
    }

    /// Parses ``"Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"``; raises ``CountError`` when there
    /// are not three ``|``-separated lanes, and the errors of the constructor.
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn parse(text: &Bound<'_, PyString>, rules: Option<RulesArg<'_>>) -> PyResult<Self> {
        let deck = rules_of(&rules).deck;
        read_cards(text, |t| core::Arrangement::parse(t, deck)).map(PyArrangement)
    }

    /// The 3 front cards.
    #[getter]
    fn front<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.front)
    }
    /// The 5 middle cards.
    #[getter]
    fn middle<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.middle)
    }
    /// The 5 back cards.
    #[getter]
    fn back<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.back)
    }
    /// All 13 cards, front, middle, back.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.cards())
    }
    /// ``(front, middle, back)``.
    #[getter]
    fn lanes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, [self.front(py)?, self.middle(py)?, self.back(py)?])
    }
    /// The three lane values (front, middle, back) under ``rules``.
    #[pyo3(signature = (rules = None))]
    fn values(&self, rules: Option<RulesArg<'_>>) -> (PyHandValue, PyHandValue, PyHandValue) {
        let v = self.0.values(rules_of(&rules).wheel);
        let hv = |value, size| PyHandValue { value, size };
        (hv(v[0], 3), hv(v[1], 5), hv(v[2], 5))
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Arrangement('{}')", self.0)
    }
    fn __hash__(&self) -> u64 {
        let codes = self.0.canonical().cards().map(|c| c.code());
        codes.iter().fold(0xcbf29ce484222325u64, |h, &c| {
            (h ^ c as u64).wrapping_mul(0x100000001b3)
        })
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyArrangement>().getattr("parse")?,
            (self.0.to_string(),),
        ))
    }
}

/// Whether an arrangement is fouled (相公 / 倒水): not front ≤ middle ≤ back in the rules'
/// order (RULES.md 2). ``arrangement``: ``Arrangement``; ``rules``: ``RuleSet`` or None.
#[pyfunction]
#[pyo3(signature = (arrangement, rules = None))]
pub(crate) fn is_foul(arrangement: &Bound<'_, PyArrangement>, rules: Option<RulesArg<'_>>) -> bool {
    core::is_foul(&arrangement.get().0, rules_of(&rules))
}
