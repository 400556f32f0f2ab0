//! Special hands (报到, RULES.md 4): which a hand holds and how they compare.

use std::cmp::Ordering;

use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use thirteen_core as core;

use crate::arrangements::PyArrangement;
use crate::convert::{thirteen_cards, with_rules, Comparison};
use crate::pickle::{self, Reduced};

/// A special hand (报到, RULES.md 4) as scored: ``key`` (rule-file key), ``units`` it collects,
/// ``tier`` (0 = highest) and, for three straights / flushes / straight flushes, the
/// ``arrangement`` that shows it (else None).
#[pyclass(name = "SpecialHand", frozen, module = "thirteen._core")]
#[derive(Clone)]
pub(crate) struct PySpecialHand(pub(crate) core::SpecialHand);

#[pymethods]
impl PySpecialHand {
    /// The special's key, e.g. ``"dragon"``.
    #[getter]
    fn key(&self) -> &'static str {
        self.0.key()
    }
    /// Units it collects from each opponent it beats.
    #[getter]
    fn units(&self) -> i64 {
        self.0.units
    }
    /// Its tier, 0 = highest.
    #[getter]
    fn tier(&self) -> u8 {
        self.0.tier
    }
    /// The arrangement showing the pattern (three-straights family), else None.
    #[getter]
    fn arrangement(&self) -> Option<PyArrangement> {
        self.0.arrangement.map(PyArrangement)
    }
    fn __repr__(&self) -> String {
        match &self.0.arrangement {
            Some(a) => format!(
                "SpecialHand({}, units={}, tier={}, arrangement='{a}')",
                self.0.key(),
                self.0.units,
                self.0.tier
            ),
            None => format!(
                "SpecialHand({}, units={}, tier={})",
                self.0.key(),
                self.0.units,
                self.0.tier
            ),
        }
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        pickle::reduce(slf.py(), "SpecialHand", &slf.get().0)
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Comparison {
        match (other.cast::<PySpecialHand>(), op) {
            (Ok(o), CompareOp::Eq) => Comparison::Bool(self.0 == o.get().0),
            (Ok(o), CompareOp::Ne) => Comparison::Bool(self.0 != o.get().0),
            _ => Comparison::NotImplemented,
        }
    }
}

/// The highest special the 13 ``cards`` hold among those ``rules`` recognise, ranked by its
/// ``special_tiers`` (RULES.md 4), or None. Raises ``CountError`` unless 13 cards,
/// ``DuplicateCardError``, ``CardError``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
fn find_special(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PySpecialHand>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py
            .detach(|| core::find_special(&hand, r))
            .map(PySpecialHand))
    })
}

/// Every special the 13 ``cards`` hold among those ``rules`` recognise, as keys in canonical
/// order (RULES.md 4). Raises as ``find_special``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
fn held_specials(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<&'static str>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(core::held_specials(&hand, r)
            .into_iter()
            .map(core::Special::key)
            .collect())
    })
}

/// Special against special (RULES.md 4): ``1`` when ``a``'s tier is higher, ``-1`` when lower,
/// ``0`` for equal tiers (suits never decide).
#[pyfunction]
fn compare_specials(a: &Bound<'_, PySpecialHand>, b: &Bound<'_, PySpecialHand>) -> i8 {
    match core::compare_specials(&a.get().0, &b.get().0) {
        Ordering::Greater => 1,
        Ordering::Less => -1,
        Ordering::Equal => 0,
    }
}

/// Registers special hands and their functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySpecialHand>()?;
    m.add_function(wrap_pyfunction!(find_special, m)?)?;
    m.add_function(wrap_pyfunction!(held_specials, m)?)?;
    m.add_function(wrap_pyfunction!(compare_specials, m)?)?;
    Ok(())
}
