//! The `ev` strategy's lane tables: built from counts, read back as counts, pickled.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use thirteen_core as core;
use thirteen_core::Lane;
use thirteen_core::{LaneCounts, LanePairs, LaneTables};

use crate::convert::{extract_cards, plain, with_rules, Int, RulesArg};
use crate::errors::IntoPy;
use crate::pickle::Reduced;
use crate::rules::PyRules;

/// Per-lane win-probability tables of the ``ev`` strategy (for each lane and hand value, how
/// often an opponent's lane is below, equal or above, and what it collects when above),
/// built by self-play for one rule set. ``counts()`` gives the data they are built from.
/// Pickles as its rules and counts.
#[pyclass(name = "LaneTables", frozen, module = "thirteen._core")]
pub(crate) struct PyLaneTables {
    pub(crate) tables: LaneTables,
    pub(crate) counts: LaneCounts,
    pub(crate) rules: Option<Py<PyRules>>,
}

/// The rules object of a ``rules`` argument, kept for pickling (None for the defaults).
pub(crate) fn rules_object(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Py<PyRules>>> {
    Ok(rules
        .map(|r| r.extract::<RulesArg>())
        .transpose()?
        .map(|r| r.0.unbind()))
}

/// Runs a core call on a hand with lane tables, without the GIL (the bindings of ``solve``,
/// ``complete``, ``gift`` and the search's checks): ``cards`` converted, the rules of
/// ``rules`` (``None``: the standard rules) and the tables of ``tables``; the core's error
/// raised as its class (``thirteen.errors``).
pub(crate) fn with_hand<T: Send>(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    call: impl FnOnce(&[core::Card], &core::Rules, &LaneTables) -> core::Result<T> + Send,
) -> PyResult<T> {
    let py = cards.py();
    let hand = extract_cards(cards)?;
    let t = &tables.get().tables;
    with_rules(rules, |r| py.detach(|| call(&hand, r, t)).py_err(py))
}

impl PyLaneTables {
    /// The tables of `counts` under `rules`, kept with the rules object (for pickling).
    pub(crate) fn new(counts: LaneCounts, rules: &core::Rules, kept: Option<Py<PyRules>>) -> Self {
        let tables = LaneTables::from_counts(&counts, rules);
        PyLaneTables {
            tables,
            counts,
            rules: kept,
        }
    }
}

#[pymethods]
impl PyLaneTables {
    /// Builds tables from lane-value counts: three lists (front, middle, back) of
    /// ``(value, count)`` pairs, ``value`` as ``HandValue.value``; ``classes``, when given,
    /// the same counts per class of the arrangement: a list of 16 dicts
    /// ``{"front": pairs, "middle": pairs, "back": pairs}`` that add up to the lanes' counts
    /// (``ThirteenError`` otherwise). ``card_removal``: whether ``ev`` weighs the opponents'
    /// lanes by the cards held (the standard deck only; see ``with_card_removal``).
    #[staticmethod]
    #[pyo3(signature = (rules, front, middle, back, classes = None, card_removal = true))]
    fn from_counts(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        front: Vec<(Int, Int)>,
        middle: Vec<(Int, Int)>,
        back: Vec<(Int, Int)>,
        classes: Option<&Bound<'_, PyAny>>,
        card_removal: bool,
    ) -> PyResult<Self> {
        let pairs = |given: &[(Int, Int)], lane| {
            LaneCounts::pairs_given(given.iter().map(|(v, c)| (&v.0, &c.0)), lane).py_err(py)
        };
        let lanes = [
            pairs(&front, Lane::Front)?,
            pairs(&middle, Lane::Middle)?,
            pairs(&back, Lane::Back)?,
        ];
        let classes = classes.map(plain).transpose()?;
        let classes = (classes
            .as_ref()
            .map(LaneCounts::classes_from_plain)
            .transpose())
        .py_err(py)?;
        let counts = LaneCounts::new(lanes, classes).py_err(py)?;
        let kept = rules_object(rules)?;
        with_rules(rules, |r| {
            let tables = LaneTables::from_counts(&counts, r).with_card_removal(card_removal);
            Ok(PyLaneTables {
                tables,
                counts,
                rules: kept,
            })
        })
    }
    /// Builds tables from counts packed in bytes, as a packed training ``count`` receives
    /// them (``_core.train``) and as the tables pickle; ``card_removal``: as ``from_counts``
    /// (None: on where the deck allows it). ``ThirteenError`` for bytes of another layout.
    #[staticmethod]
    #[pyo3(signature = (rules, packed, card_removal = None))]
    fn from_packed(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        packed: &[u8],
        card_removal: Option<bool>,
    ) -> PyResult<Self> {
        let counts = LaneCounts::from_bytes(packed).py_err(py)?;
        let kept = rules_object(rules)?;
        with_rules(rules, |r| {
            let built = PyLaneTables::new(counts, r, kept);
            let tables = match card_removal {
                Some(on) => built.tables.with_card_removal(on),
                None => built.tables,
            };
            Ok(PyLaneTables { tables, ..built })
        })
    }
    /// Whether ``ev`` weighs an opponent's lanes by the cards the seat holds (card removal,
    /// RULES.md 5): the tables count an opponent's lanes over all deals, and the values
    /// named by cards the seat holds are made rarer. On by default; always off with the
    /// extra-diamonds deck.
    #[getter]
    fn card_removal(&self) -> bool {
        let deck =
            (self.rules.as_ref()).map_or_else(core::DeckKind::default, |r| r.get().rules.deck);
        self.tables.weighs_cards(deck)
    }
    /// These tables with card removal switched on or off (``on``: bool; off, ``ev`` plays
    /// as it did before card removal).
    fn with_card_removal(&self, py: Python<'_>, on: bool) -> Self {
        PyLaneTables {
            tables: self.tables.clone().with_card_removal(on),
            counts: self.counts.clone(),
            rules: self.rules.as_ref().map(|r| r.clone_ref(py)),
        }
    }
    /// The counts: ``{"front": [(value, count), ...], "middle": ..., "back": ...}``, and
    /// ``"classes"``: the same per class of the arrangement (16 dicts) when the tables have
    /// them.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        counts_dict(py, &self.counts)
    }
    /// Number of hands counted per lane.
    #[getter]
    fn samples(&self) -> u64 {
        self.counts[0].iter().map(|p| p.1).sum()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let rules = me.rules.as_ref().map(|r| r.clone_ref(py));
        let packed = PyBytes::new(py, &me.counts.to_bytes());
        Ok((
            py.get_type::<PyLaneTables>().getattr("from_packed")?,
            (rules, packed, me.tables.card_removal()).into_pyobject(py)?,
        ))
    }
}

/// The counts as ``{"front": pairs, "middle": pairs, "back": pairs}``, with ``"classes"``
/// (the same per class) when there are.
pub(crate) fn counts_dict<'py>(
    py: Python<'py>,
    counts: &LaneCounts,
) -> PyResult<Bound<'py, PyDict>> {
    let d = lanes_dict(py, &counts.lanes)?;
    if !counts.classes.is_empty() {
        d.set_item("classes", class_dicts(py, counts)?)?;
    }
    Ok(d)
}

fn class_dicts<'py>(py: Python<'py>, counts: &LaneCounts) -> PyResult<Vec<Bound<'py, PyDict>>> {
    counts.classes.iter().map(|c| lanes_dict(py, c)).collect()
}

/// ``{"front": pairs, "middle": pairs, "back": pairs}``.
fn lanes_dict<'py>(py: Python<'py>, lanes: &LanePairs) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (lane, pairs) in Lane::ALL.iter().zip(lanes) {
        d.set_item(lane.key(), pairs)?;
    }
    Ok(d)
}
