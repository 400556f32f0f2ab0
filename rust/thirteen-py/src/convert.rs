//! Arguments converted once, before any work: text (valid Unicode or a named error), cards from
//! text or sequences, the rules object, integers of any size, seeds, numpy arrays of card codes
//! in row-major order; and the result of a rich comparison.

use std::borrow::Cow;
use std::sync::OnceLock;

use numpy::ndarray::Dimension;
use numpy::{Element, PyReadonlyArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::limits::Limit;
use thirteen_core::Error;

use crate::cards::{shared_card, PyCard};
use crate::errors::{player_count_error, to_pyerr, IntoPy};
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

/// The UTF-8 text of a Python ``str``, the one place the bindings read text: ``None`` when it
/// is not valid Unicode (a lone surrogate such as ``'\ud800'``, which UTF-8 cannot hold; PyO3
/// would raise a ``UnicodeEncodeError`` naming nothing useful). Callers turn ``None`` into a
/// documented error: [`named_text`], [`Text`], [`read_cards`].
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Option<Cow<'a, str>>> {
    match s.to_cow() {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The error for the argument ``name`` given as text that is not valid Unicode, ``shown`` as
/// Python writes it (``'ev\ud800'``): a ``ThirteenError`` naming the argument.
pub(crate) fn invalid_text(name: &str, shown: &str) -> Error {
    Error::InvalidArgument {
        message: format!("{name} is not valid Unicode text (a lone surrogate): {shown}"),
    }
}

/// The text of the argument ``name``; a ``ThirteenError`` naming it when it is not valid
/// Unicode.
pub(crate) fn named_text<'a>(s: &'a Bound<'_, PyString>, name: &str) -> PyResult<Cow<'a, str>> {
    utf8(s)?.ok_or_else(|| to_pyerr(s.py(), invalid_text(name, &shown(s))))
}

/// Reads card text with ``read`` (RULES.md 1). Text that is not valid Unicode is read with
/// U+FFFD in place of each lone surrogate, which no card token holds, so the error is the one
/// that text gets: a ``CardError`` naming the first unreadable token and its position.
pub(crate) fn read_cards<T>(
    s: &Bound<'_, PyString>,
    read: impl Fn(&str) -> core::Result<T>,
) -> PyResult<T> {
    match utf8(s)? {
        Some(text) => read(&text),
        None => {
            let lossy = replaced(s);
            Err(read(&lossy).err().unwrap_or(Error::BadCard {
                token: lossy,
                position: 0,
            }))
        }
    }
    .py_err(s.py())
}

/// The text with one U+FFFD in place of each lone surrogate (read through UTF-16, where a
/// lone surrogate is one unit; UTF-8 would give one U+FFFD per byte).
fn replaced(s: &Bound<'_, PyString>) -> String {
    let units = s
        .call_method1(
            pyo3::intern!(s.py(), "encode"),
            ("utf-16-le", "surrogatepass"),
        )
        .ok()
        .and_then(|b| b.cast_into::<PyBytes>().ok())
        .map(|b| {
            let bytes = b.as_bytes();
            bytes
                .chunks_exact(2)
                .map(|u| u16::from_le_bytes([u[0], u[1]]))
                .collect::<Vec<u16>>()
        });
    match units {
        Some(units) => String::from_utf16_lossy(&units),
        None => s.to_string_lossy().into_owned(),
    }
}

/// The text as Python writes it (``repr``), for messages: surrogates come out escaped.
fn shown(s: &Bound<'_, PyAny>) -> String {
    s.repr()
        .map_or_else(|_| s.to_string(), |r| r.to_string_lossy().into_owned())
}

/// A text argument: its text, or, when it is not valid Unicode, how Python writes it, refused
/// under the argument's name where the function reads it ([`Text::get`]). Not text at all is a
/// ``TypeError``.
#[derive(Clone, Debug)]
pub(crate) struct Text(Result<Cow<'static, str>, String>);

impl Text {
    /// A text known to be valid (a default).
    pub(crate) const fn of(text: &'static str) -> Text {
        Text(Ok(Cow::Borrowed(text)))
    }

    /// The text, or the error ``invalid`` makes of how Python writes it.
    pub(crate) fn read(&self, invalid: impl FnOnce(&str) -> Error) -> core::Result<&str> {
        match &self.0 {
            Ok(text) => Ok(text),
            Err(shown) => Err(invalid(shown)),
        }
    }

    /// The text of the argument ``name`` ([`invalid_text`] otherwise).
    pub(crate) fn get(&self, py: Python<'_>, name: &str) -> PyResult<&str> {
        self.read(|shown| invalid_text(name, shown)).py_err(py)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>()?;
        Ok(Text(match utf8(&s)? {
            Some(text) => Ok(Cow::Owned(text.into_owned())),
            None => Err(shown(&s)),
        }))
    }
}

/// Cards given as a string (parsed, RULES.md 1) or a sequence of ``Card`` / card strings.
pub(crate) struct CardsArg(pub(crate) Vec<core::Card>);

impl<'a, 'py> FromPyObject<'a, 'py> for CardsArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = obj.cast::<PyString>() {
            return read_cards(&s, core::parse_cards).map(CardsArg);
        }
        let mut out = Vec::with_capacity(13);
        for (i, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            if let Ok(c) = item.cast::<PyCard>() {
                out.push(c.get().0);
            } else if let Ok(s) = item.cast::<PyString>() {
                out.push(read_cards(s, |t| core::Card::parse_token(t, i))?);
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
    let shared = cards
        .iter()
        .map(|&c| shared_card(py, c))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, shared)
}

/// A player's 13 cards within the deck of the rules (the core's check).
pub(crate) fn thirteen_cards(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    deck: core::DeckKind,
) -> PyResult<[core::Card; 13]> {
    core::hand13(&extract_cards(cards)?, deck).py_err(py)
}

/// JSON text of a table (the core's plain form of a result) as a Python ``dict``.
pub(crate) fn json_dict<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyDict>> {
    let loads = py.import(pyo3::intern!(py, "json"))?.getattr("loads")?;
    Ok(loads.call1((json,))?.cast_into::<PyDict>()?)
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

    /// The integer as a Python ``int`` (its text when an ``int`` subclass wrote it otherwise).
    pub(crate) fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.0 {
            Ok(v) => Ok(v.into_pyobject(py)?.into_any()),
            Err(text) => py
                .get_type::<PyInt>()
                .call1((text.as_str(),))
                .or_else(|_| Ok(PyString::new(py, text).into_any())),
        }
    }

    /// A table size ``rules`` allow (the core's check): any other integer, negative or beyond
    /// 64 bits included, is a ``PlayerCountError``.
    pub(crate) fn table_size(&self, py: Python<'_>, rules: &core::Rules) -> PyResult<usize> {
        match &self.0 {
            Ok(v) => rules.check_players(*v).py_err(py),
            Err(_) => Err(player_count_error(py, self, &rules.players)),
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
                Ok(Int(Err(obj.str()?.to_string_lossy().into_owned())))
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
