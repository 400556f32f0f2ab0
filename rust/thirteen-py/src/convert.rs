//! Arguments converted once: cards from text or sequences, the rules object, seeds, and the
//! result of a rich comparison.

use std::sync::OnceLock;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::Error;

use crate::cards::PyCard;
use crate::errors::{to_pyerr, IntoPy};
use crate::rules::PyRules;

/// Result of a rich comparison: a bool, or NotImplemented for a foreign type.
pub(crate) enum PyObject2 {
    Bool(bool),
    NotImplemented,
}

impl<'py> IntoPyObject<'py> for PyObject2 {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;
    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            PyObject2::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
            PyObject2::NotImplemented => py.NotImplemented().into_bound(py),
        })
    }
}

/// Reads cards from a string (parsed) or a sequence of ``Card`` / card strings.
pub(crate) fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<core::Card>> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return core::parse_cards(&s.to_cow()?).py_err(py);
    }
    let mut out = Vec::with_capacity(13);
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(c) = item.cast::<PyCard>() {
            out.push(c.get().0);
        } else if let Ok(s) = item.cast::<PyString>() {
            out.push(core::Card::parse_token(&s.to_cow()?, i).py_err(py)?);
        } else {
            return Err(PyTypeError::new_err(format!(
                "expected a Card or a card string at position {i}, got {}",
                item.get_type().name()?
            )));
        }
    }
    Ok(out)
}

pub(crate) fn cards_list<'py>(
    py: Python<'py>,
    cards: &[core::Card],
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cards.iter().map(|&c| PyCard(c)))
}

pub(crate) fn default_rules() -> &'static core::Rules {
    static DEFAULT: OnceLock<core::Rules> = OnceLock::new();
    DEFAULT.get_or_init(core::Rules::default)
}

/// Resolves a ``rules`` argument: ``None`` (defaults), a ``Rules`` or a ``RuleSet`` (its
/// cached ``_core`` attribute).
pub(crate) fn with_rules<T>(
    rules: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&core::Rules) -> PyResult<T>,
) -> PyResult<T> {
    match rules {
        None => f(default_rules()),
        Some(obj) if obj.is_none() => f(default_rules()),
        Some(obj) => {
            if let Ok(r) = obj.cast::<PyRules>() {
                return f(&r.get().0);
            }
            let inner = obj
                .getattr(pyo3::intern!(obj.py(), "_core"))
                .map_err(|_| PyTypeError::new_err("rules must be a thirteen.RuleSet or None"))?;
            let r = inner
                .cast::<PyRules>()
                .map_err(|_| PyTypeError::new_err("rules must be a thirteen.RuleSet or None"))?;
            f(&r.get().0)
        }
    }
}

pub(crate) fn thirteen_cards(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    deck: core::DeckKind,
) -> PyResult<[core::Card; 13]> {
    let cards = extract_cards(cards)?;
    core::card::validate_hand(&cards, deck, 13).py_err(py)?;
    Ok(cards.try_into().expect("13 cards checked"))
}

/// A seed argument: an int from 0 to 2**64 − 1, else ``ThirteenError``.
pub(crate) fn seed_value(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    obj.extract::<u64>().map_err(|_| {
        to_pyerr(
            py,
            Error::InvalidArgument {
                message: format!("a seed is an integer from 0 to 2**64 - 1, got {obj}"),
            },
        )
    })
}
