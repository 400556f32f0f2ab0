//! Arguments converted once, before any work: cards from text or sequences, the rules object,
//! integers of any size, seeds, numpy arrays of card codes in row-major order; and the result
//! of a rich comparison.

use std::borrow::Cow;
use std::sync::OnceLock;

use numpy::ndarray::Dimension;
use numpy::{Element, PyReadonlyArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::limits::Limit;
use thirteen_core::Error;

use crate::cards::PyCard;
use crate::errors::{to_pyerr, IntoPy};
use crate::rules::PyRules;

/// Result of a rich comparison: a bool, or NotImplemented for a foreign type.
pub(crate) enum Comparison {
    Bool(bool),
    NotImplemented,
}

impl<'py> IntoPyObject<'py> for Comparison {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;
    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            Comparison::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
            Comparison::NotImplemented => py.NotImplemented().into_bound(py),
        })
    }
}

/// Cards given as a string (parsed, RULES.md 1) or a sequence of ``Card`` / card strings.
pub(crate) struct CardsArg(pub(crate) Vec<core::Card>);

impl<'a, 'py> FromPyObject<'a, 'py> for CardsArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let py = obj.py();
        if let Ok(s) = obj.cast::<PyString>() {
            return core::parse_cards(&s.to_cow()?).py_err(py).map(CardsArg);
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
        Ok(CardsArg(out))
    }
}

/// Reads cards from a string (parsed) or a sequence of ``Card`` / card strings.
pub(crate) fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<core::Card>> {
    obj.extract::<CardsArg>().map(|c| c.0)
}

/// The cards as a tuple of ``Card``.
pub(crate) fn cards_list<'py>(
    py: Python<'py>,
    cards: &[core::Card],
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cards.iter().map(|&c| PyCard(c)))
}

/// Exactly 13 cards within the deck of the rules.
pub(crate) fn thirteen_cards(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    deck: core::DeckKind,
) -> PyResult<[core::Card; 13]> {
    let cards = extract_cards(cards)?;
    core::card::validate_hand(&cards, deck, 13).py_err(py)?;
    Ok(cards.try_into().expect("13 cards checked"))
}

/// A ``rules`` argument: ``None`` (the defaults), a ``Rules`` or a ``RuleSet`` (its cached
/// ``_core`` attribute). Anything else is a ``TypeError``; an error while a ``RuleSet``
/// builds its rules object (``RuleSetError``) is raised as it is.
pub(crate) enum RulesArg<'py> {
    Default,
    Given(Bound<'py, PyRules>),
}

impl RulesArg<'_> {
    /// The core's rules.
    pub(crate) fn get(&self) -> &core::Rules {
        match self {
            RulesArg::Default => default_rules(),
            RulesArg::Given(r) => &r.get().rules,
        }
    }

    /// The rules object to keep (``None`` for the defaults).
    pub(crate) fn object(&self) -> Option<Py<PyRules>> {
        match self {
            RulesArg::Default => None,
            RulesArg::Given(r) => Some(r.clone().unbind()),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for RulesArg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(RulesArg::Default);
        }
        if let Ok(r) = obj.cast::<PyRules>() {
            return Ok(RulesArg::Given(r.to_owned()));
        }
        let not_rules = || {
            let kind = obj
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            PyTypeError::new_err(format!(
                "rules must be a thirteen.RuleSet or None, got {kind}"
            ))
        };
        let inner = match obj.getattr(pyo3::intern!(obj.py(), "_core")) {
            Ok(inner) => inner,
            Err(e) if e.is_instance_of::<PyAttributeError>(obj.py()) => return Err(not_rules()),
            Err(e) => return Err(e),
        };
        let rules = inner.cast_into::<PyRules>().map_err(|_| not_rules())?;
        Ok(RulesArg::Given(rules))
    }
}

/// The rules of an optional ``rules`` argument.
pub(crate) fn rules_of<'a>(rules: &'a Option<RulesArg<'_>>) -> &'a core::Rules {
    match rules {
        Some(r) => r.get(),
        None => default_rules(),
    }
}

/// The default rule set, built once.
pub(crate) fn default_rules() -> &'static core::Rules {
    static DEFAULT: OnceLock<core::Rules> = OnceLock::new();
    DEFAULT.get_or_init(core::Rules::default)
}

/// Resolves a ``rules`` argument and runs ``f`` with it.
pub(crate) fn with_rules<T>(
    rules: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&core::Rules) -> PyResult<T>,
) -> PyResult<T> {
    match rules {
        None => f(default_rules()),
        Some(obj) => f(obj.extract::<RulesArg>()?.get()),
    }
}

/// An integer argument of any size: its value, or its text when it does not fit in 64 bits
/// (the core's bounds then refuse it by name). ``bool`` and non-integers are a ``TypeError``.
#[derive(Clone, Debug)]
pub(crate) struct Int(Result<i64, String>);

impl Int {
    /// An integer known to fit.
    pub(crate) const fn of(value: i64) -> Int {
        Int(Ok(value))
    }

    /// The value, checked against ``limit`` (``LimitError`` naming it otherwise).
    pub(crate) fn within(&self, py: Python<'_>, limit: &Limit) -> PyResult<i64> {
        match &self.0 {
            Ok(v) => limit.check(*v),
            Err(text) => Err(limit.error(text)),
        }
        .py_err(py)
    }

    /// The value when it fits in 64 bits (the core checks its range where it is used, in
    /// its documented order), else ``LimitError`` naming ``limit``.
    pub(crate) fn value(&self, py: Python<'_>, limit: &Limit) -> PyResult<i64> {
        match &self.0 {
            Ok(v) => Ok(*v),
            Err(text) => Err(limit.error(text)).py_err(py),
        }
    }

    /// A count or a seat: ``within`` as ``usize``.
    pub(crate) fn index(&self, py: Python<'_>, limit: &Limit) -> PyResult<usize> {
        match &self.0 {
            Ok(v) => limit.index(*v),
            Err(text) => Err(limit.error(text)),
        }
        .py_err(py)
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Ok(v) => write!(f, "{v}"),
            Err(text) => f.write_str(text),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an integer, got bool"));
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int(Ok(v))),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Int(Err(obj.str()?.to_cow()?.into_owned())))
            }
            Err(e) => Err(e),
        }
    }
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

/// A numpy array of card codes (``uint8``) with ``D`` dimensions; any other array or object is
/// a ``TypeError`` naming the argument and what it expects.
pub(crate) fn codes_array<'py, D: Dimension>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    shape: &str,
) -> PyResult<PyReadonlyArray<'py, u8, D>> {
    obj.extract::<PyReadonlyArray<'py, u8, D>>().map_err(|_| {
        let got = match (obj.getattr("dtype"), obj.getattr("shape")) {
            (Ok(dtype), Ok(shape)) => format!("an array of dtype {dtype} and shape {shape}"),
            _ => obj
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string()),
        };
        PyTypeError::new_err(format!(
            "{name} must be a numpy array of dtype uint8 and shape {shape}, got {got}"
        ))
    })
}

/// The array's elements in row-major (C) order whatever its memory layout: borrowed when it
/// is C-contiguous, else copied in index order (Fortran order, transposed, strided views).
pub(crate) fn row_major<'a, T: Element + Copy, D: Dimension>(
    array: &'a PyReadonlyArray<'_, T, D>,
) -> Cow<'a, [T]> {
    if array.is_c_contiguous() {
        if let Ok(slice) = array.as_slice() {
            return Cow::Borrowed(slice);
        }
    }
    Cow::Owned(array.as_array().iter().copied().collect())
}
