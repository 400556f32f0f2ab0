//! Arrangements (RULES.md 2): front, middle and back lanes, and the foul check.

use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyTuple;
use thirteen_core as core;

use crate::convert::{cards_list, extract_cards, with_rules, PyObject2};
use crate::errors::IntoPy;
use crate::values::PyHandValue;

/// A split of 13 cards into front (头墩, 3), middle (中墩, 5) and back (尾墩, 5) (RULES.md 2).
///
/// ``Arrangement(front, middle, back, rules=None)``: each lane a sequence of ``Card`` or a
/// string. Raises ``CountError`` naming a lane of the wrong size, ``DuplicateCardError`` for a
/// card beyond the deck of ``rules``, ``CardError`` for bad text.
#[pyclass(name = "Arrangement", frozen, module = "thirteen._core")]
#[derive(Clone, Copy)]
pub(crate) struct PyArrangement(pub(crate) core::Arrangement);

fn deck_of(rules: Option<&Bound<'_, PyAny>>) -> PyResult<core::DeckKind> {
    with_rules(rules, |r| Ok(r.deck))
}

#[pymethods]
impl PyArrangement {
    #[new]
    #[pyo3(signature = (front, middle, back, rules = None))]
    fn new(
        front: &Bound<'_, PyAny>,
        middle: &Bound<'_, PyAny>,
        back: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let py = front.py();
        let deck = deck_of(rules)?;
        let (f, m, b) = (
            extract_cards(front)?,
            extract_cards(middle)?,
            extract_cards(back)?,
        );
        core::Arrangement::new(&f, &m, &b, deck)
            .py_err(py)
            .map(PyArrangement)
    }

    /// Parses ``"Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"``; raises ``CountError`` when there
    /// are not three ``|``-separated lanes, and the errors of the constructor.
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn parse(py: Python<'_>, text: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let deck = deck_of(rules)?;
        core::Arrangement::parse(text, deck)
            .py_err(py)
            .map(PyArrangement)
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
    fn values(
        &self,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(PyHandValue, PyHandValue, PyHandValue)> {
        with_rules(rules, |r| {
            let v = self.0.values(r.wheel);
            let hv = |value, size| PyHandValue { value, size };
            Ok((hv(v[0], 3), hv(v[1], 5), hv(v[2], 5)))
        })
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Arrangement('{}')", self.0)
    }
    fn __hash__(&self) -> u64 {
        sorted_lanes(&self.0)
            .iter()
            .fold(0xcbf29ce484222325u64, |h, &c| {
                (h ^ c as u64).wrapping_mul(0x100000001b3)
            })
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        match (other.cast::<PyArrangement>(), op) {
            (Ok(o), CompareOp::Eq) => {
                PyObject2::Bool(sorted_lanes(&self.0) == sorted_lanes(&o.get().0))
            }
            (Ok(o), CompareOp::Ne) => {
                PyObject2::Bool(sorted_lanes(&self.0) != sorted_lanes(&o.get().0))
            }
            _ => PyObject2::NotImplemented,
        }
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyArrangement>().getattr("parse")?,
            (self.0.to_string(),),
        ))
    }
}

/// Lane contents with the order inside each lane ignored (for equality and hashing).
fn sorted_lanes(a: &core::Arrangement) -> [u8; 13] {
    let mut codes = a.cards().map(|c| c.code());
    codes[..3].sort_unstable();
    codes[3..8].sort_unstable();
    codes[8..].sort_unstable();
    codes
}

/// Whether an arrangement is fouled (相公 / 倒水): not front ≤ middle ≤ back in the rules'
/// order (RULES.md 2). ``arrangement``: ``Arrangement``; ``rules``: ``RuleSet`` or None.
#[pyfunction]
#[pyo3(signature = (arrangement, rules = None))]
fn is_foul(
    arrangement: &Bound<'_, PyArrangement>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    with_rules(rules, |r| Ok(core::is_foul(&arrangement.get().0, r)))
}

/// Registers arrangements and the foul check.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyArrangement>()?;
    m.add_function(wrap_pyfunction!(is_foul, m)?)?;
    Ok(())
}
