//! The `ev` strategy's lane tables: built from counts, read back as counts, pickled.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirteen_core as core;
use thirteen_core::limits::{HAND_VALUE, LANE_COUNT};
use thirteen_core::{Error, Lane};
use thirteen_core::{LaneCounts, LanePairs, LaneTables};

use crate::convert::{with_rules, Int, RulesArg};
use crate::errors::{to_pyerr, IntoPy};
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
        .and_then(|r| r.object()))
}

/// A lane's ``(value, count)`` pairs from Python: every value a hand value of the lane's
/// size (``size`` cards), every count from 0 to 2**63 − 1 (``LimitError``, ``ThirteenError``).
pub(crate) fn lane_pairs(
    py: Python<'_>,
    pairs: Vec<(Int, Int)>,
    size: usize,
) -> PyResult<Vec<(u32, u64)>> {
    pairs
        .into_iter()
        .map(|(v, c)| {
            let raw = v.within(py, &HAND_VALUE)?;
            let value = core::HandValue::from_raw(raw as u32, size).py_err(py)?;
            let count = c.within(py, &LANE_COUNT)?;
            Ok((value.raw(), count as u64))
        })
        .collect()
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
        let lanes = [
            lane_pairs(py, front, Lane::Front.size())?,
            lane_pairs(py, middle, Lane::Middle.size())?,
            lane_pairs(py, back, Lane::Back.size())?,
        ];
        let classes = classes.map(|c| class_pairs(py, c)).transpose()?;
        let counts = LaneCounts::new(lanes, classes).py_err(py)?;
        let kept = rules_object(rules)?;
        with_rules(rules, |r| {
            Ok(PyLaneTables {
                tables: LaneTables::from_counts(&counts, r).with_card_removal(card_removal),
                counts,
                rules: kept,
            })
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
        let d = lanes_dict(py, &self.counts.lanes)?;
        if !self.counts.classes.is_empty() {
            d.set_item("classes", self.class_dicts(py)?)?;
        }
        Ok(d)
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
        let [front, middle, back] = &me.counts.lanes;
        let classes = if me.counts.classes.is_empty() {
            None
        } else {
            Some(me.class_dicts(py)?)
        };
        Ok((
            py.get_type::<PyLaneTables>().getattr("from_counts")?,
            (
                rules,
                front.clone(),
                middle.clone(),
                back.clone(),
                classes,
                me.tables.card_removal(),
            )
                .into_pyobject(py)?,
        ))
    }
}

impl PyLaneTables {
    fn class_dicts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.counts
            .classes
            .iter()
            .map(|c| lanes_dict(py, c))
            .collect()
    }
}

/// ``{"front": pairs, "middle": pairs, "back": pairs}``.
pub(crate) fn lanes_dict<'py, P>(py: Python<'py>, lanes: &[P; 3]) -> PyResult<Bound<'py, PyDict>>
where
    P: IntoPyPairs,
{
    let d = PyDict::new(py);
    for (lane, c) in Lane::ALL.iter().zip(lanes) {
        d.set_item(lane.key(), c.pairs())?;
    }
    Ok(d)
}

/// A lane's counts as sorted ``(value, count)`` pairs.
pub(crate) trait IntoPyPairs {
    fn pairs(&self) -> Vec<(u32, u64)>;
}

impl IntoPyPairs for Vec<(u32, u64)> {
    fn pairs(&self) -> Vec<(u32, u64)> {
        self.clone()
    }
}

impl IntoPyPairs for std::collections::BTreeMap<u32, u64> {
    fn pairs(&self) -> Vec<(u32, u64)> {
        self.iter().map(|(&v, &n)| (v, n)).collect()
    }
}

/// The per-class counts of ``from_counts`` and of a ``count`` callback: a list of dicts of
/// the three lanes' pairs (``TypeError`` for another shape; the core checks that there are
/// 16 and that they add up to the lanes).
pub(crate) fn class_pairs(py: Python<'_>, classes: &Bound<'_, PyAny>) -> PyResult<Vec<LanePairs>> {
    let bad = |message: String| to_pyerr(py, Error::InvalidArgument { message });
    let list: Vec<Bound<'_, PyAny>> = classes.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("classes must be a list of dicts of lane counts")
    })?;
    let mut out = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let dict = item.cast::<PyDict>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "class {k} must be a dict of lane counts"
            ))
        })?;
        if dict.len() != 3 {
            return Err(bad(format!(
                "class {k} must hold the counts of front, middle and back, got {} keys",
                dict.len()
            )));
        }
        let mut three: LanePairs = Default::default();
        for (i, lane) in Lane::ALL.iter().enumerate() {
            let Some(pairs) = dict.get_item(lane.key())? else {
                return Err(bad(format!("class {k} has no {} counts", lane.key())));
            };
            three[i] = lane_pairs(py, pairs.extract()?, lane.size())?;
        }
        out.push(three);
    }
    Ok(out)
}

/// Registers the lane tables' class.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLaneTables>()
}
