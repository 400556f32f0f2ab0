//! Hand values (RULES.md 3): categories, evaluation one by one and in numpy batches, and lane
//! comparison.

use std::cmp::Ordering;

use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyTuple;
use thirteen_core as core;
use thirteen_core::Error;

use crate::cards::Rank;
use crate::convert::{extract_cards, with_rules, PyObject2};
use crate::errors::{to_pyerr, IntoPy};

/// Hand categories, low to high (RULES.md 3). ``category.key`` is the rule-file key.
#[pyclass(eq, eq_int, ord, hash, frozen, module = "thirteen._core")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types)]
enum Category {
    HIGH_CARD = 0,
    ONE_PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
    FIVE_OF_A_KIND,
}

const CATEGORIES: [Category; 10] = [
    Category::HIGH_CARD,
    Category::ONE_PAIR,
    Category::TWO_PAIR,
    Category::THREE_OF_A_KIND,
    Category::STRAIGHT,
    Category::FLUSH,
    Category::FULL_HOUSE,
    Category::FOUR_OF_A_KIND,
    Category::STRAIGHT_FLUSH,
    Category::FIVE_OF_A_KIND,
];

#[pymethods]
impl Category {
    /// The value, 0 (high card) to 9 (five of a kind).
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
    /// The key used in rule files: ``"high_card"`` … ``"five_of_a_kind"``.
    #[getter]
    fn key(&self) -> &'static str {
        core::Category::ALL[*self as usize].key()
    }
}

/// The value of a 3- or 5-card hand (RULES.md 3), totally ordered in game order.
///
/// ``category``: Category; ``ranks``: the deciding ranks in order; ``high``: the first;
/// ``size``: 3 or 5; ``value``: the packed integer (its order is the game order).
#[pyclass(name = "HandValue", frozen, module = "thirteen._core")]
#[derive(Clone, Copy)]
pub(crate) struct PyHandValue {
    pub(crate) value: core::HandValue,
    pub(crate) size: u8,
}

#[pymethods]
impl PyHandValue {
    /// Rebuilds a value from ``value`` (as returned by ``evaluate_batch``) and ``size``.
    #[staticmethod]
    #[pyo3(signature = (value, size = 5))]
    fn from_raw(value: u32, size: u8) -> PyResult<Self> {
        let category = value >> 28;
        if category > 9 || !(size == 3 || size == 5) {
            return Err(pyo3::exceptions::PyValueError::new_err("not a hand value"));
        }
        Ok(PyHandValue {
            value: core::HandValue(value),
            size,
        })
    }
    /// The category.
    #[getter]
    fn category(&self) -> Category {
        CATEGORIES[self.value.category() as usize]
    }
    /// The deciding ranks, in order.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.value.ranks().into_iter().map(Rank::from))
    }
    /// The first deciding rank.
    #[getter]
    fn high(&self) -> Rank {
        self.value.high().into()
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
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        match other.cast::<PyHandValue>() {
            Ok(o) => PyObject2::Bool(op.matches(self.value.cmp(&o.get().value))),
            Err(_) => PyObject2::NotImplemented,
        }
    }
}

fn wrong_count(got: usize) -> Error {
    Error::WrongCount {
        expected: 5,
        got,
        lane: None,
        player: None,
    }
}

/// Evaluates a 3- or 5-card hand (RULES.md 3).
///
/// Args: ``cards``: 3 or 5 ``Card`` (or a string); ``rules``: ``RuleSet`` or None (wheel and
/// deck come from it). Raises ``CountError`` for another size, ``DuplicateCardError`` for a card
/// beyond the deck, ``CardError`` for bad text.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
fn evaluate(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PyHandValue> {
    let py = cards.py();
    let cards = extract_cards(cards)?;
    with_rules(rules, |r| {
        core::card::check_duplicates(&cards, r.deck, |_| None).py_err(py)?;
        let value = core::evaluate(&cards, r.wheel)
            .ok_or_else(|| to_pyerr(py, wrong_count(cards.len())))?;
        Ok(PyHandValue {
            value,
            size: cards.len() as u8,
        })
    })
}

/// Evaluates many hands at once, without the GIL.
///
/// Args: ``hands``: numpy ``uint8`` array of shape ``(n, 5)`` or ``(n, 3)`` of card codes
/// (``Card.code``); ``rules``: ``RuleSet`` or None. Returns a numpy ``uint32`` array of the
/// packed values (``HandValue.value``; ``HandValue.from_raw`` rebuilds one).
/// Raises ``CardError`` for a code over 51, ``DuplicateCardError`` for a card beyond the deck,
/// ``CountError`` for another width.
#[pyfunction]
#[pyo3(signature = (hands, rules = None))]
fn evaluate_batch<'py>(
    hands: PyReadonlyArray2<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let py = hands.py();
    let width = hands.shape()[1];
    if width != 3 && width != 5 {
        return Err(to_pyerr(py, wrong_count(width)));
    }
    let owned;
    let data: &[u8] = match hands.as_slice() {
        Ok(s) => s,
        Err(_) => {
            owned = hands.as_array().iter().copied().collect::<Vec<u8>>();
            &owned
        }
    };
    let out = with_rules(rules, |r| {
        py.detach(|| core::eval::evaluate_batch(data, width, r.wheel, r.deck))
            .py_err(py)
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Compares two players' lanes (RULES.md 3): ``1`` when ``a`` wins, ``-1`` when ``b`` wins,
/// ``0`` for a draw. ``a``, ``b``: 3 or 5 cards each (same size); ``rules``: ``RuleSet`` or
/// None (``tie_break`` and ``wheel`` apply). Raises ``CountError``, ``DuplicateCardError``.
#[pyfunction]
#[pyo3(signature = (a, b, rules = None))]
fn compare_lanes(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<i8> {
    let py = a.py();
    let (a, b) = (extract_cards(a)?, extract_cards(b)?);
    with_rules(rules, |r| {
        core::card::check_duplicates(&a, r.deck, |_| None).py_err(py)?;
        core::card::check_duplicates(&b, r.deck, |_| None).py_err(py)?;
        Ok(match core::compare_lanes(&a, &b, r).py_err(py)? {
            Ordering::Greater => 1,
            Ordering::Less => -1,
            Ordering::Equal => 0,
        })
    })
}

/// Registers categories, hand values and the evaluation functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Category>()?;
    m.add_class::<PyHandValue>()?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(compare_lanes, m)?)?;
    Ok(())
}
