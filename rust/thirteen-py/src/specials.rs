//! Special hands (报到, RULES.md 4): which a hand holds and how they compare.

use std::cmp::Ordering;

use pyo3::prelude::*;
use thirteen_core as core;

use crate::arrangements::PyArrangement;
use crate::convert::{thirteen_cards, with_rules};
use crate::pickle::{self, Reduced};

/// A special hand (报到, RULES.md 4) as scored: ``key`` (rule-file key), ``units`` it collects,
/// ``tier`` (0 = highest) and, for three straights / flushes / straight flushes, the
/// ``arrangement`` that shows it (else None).
#[pyclass(name = "SpecialHand", frozen, eq, module = "thirteen._core")]
#[derive(Clone, PartialEq)]
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
        let shown = (self.0.arrangement).map_or(String::new(), |a| format!(", arrangement='{a}'"));
        let (key, units, tier) = (self.0.key(), self.0.units, self.0.tier);
        format!("SpecialHand({key}, units={units}, tier={tier}{shown})")
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        pickle::reduce(slf.py(), "SpecialHand", &slf.get().0)
    }
}

/// The highest special the 13 ``cards`` hold among those ``rules`` recognise, ranked by its
/// ``special_tiers`` (RULES.md 4), or None. Raises ``CountError`` unless 13 cards,
/// ``DuplicateCardError``, ``CardError``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
pub(crate) fn find_special(
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
pub(crate) fn held_specials(
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
pub(crate) fn compare_specials(a: &Bound<'_, PySpecialHand>, b: &Bound<'_, PySpecialHand>) -> i8 {
    match core::compare_specials(&a.get().0, &b.get().0) {
        Ordering::Greater => 1,
        Ordering::Less => -1,
        Ordering::Equal => 0,
    }
}
