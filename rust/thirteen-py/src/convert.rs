//! Arguments converted once, before any work: text (valid Unicode or a named error), cards from
//! text or sequences, the rules object, integers of any size, seeds, numpy arrays of card codes
//! in row-major order, and Python values as plain data for the core to read.

use std::borrow::Cow;

use numpy::ndarray::Dimension;
use numpy::{Element, PyReadonlyArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::limits::Limit;
use thirteen_core::Error;

use crate::cards::{shared_card, PyCard};
use crate::errors::{to_pyerr, IntoPy};
use crate::rules::PyRules;

/// The UTF-8 text of a Python ``str``, the one place the bindings read text: ``None`` when it
/// is not valid Unicode (a lone surrogate such as ``'\ud800'``, which UTF-8 cannot hold; PyO3
/// would raise a ``UnicodeEncodeError`` naming nothing useful). Callers turn ``None`` into a
/// documented error: [`Text`], [`read_cards`].
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Option<Cow<'a, str>>> {
    match s.to_cow() {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => Ok(None),
        Err(e) => Err(e),
    }
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

/// The text with one U+FFFD in place of each lone surrogate (through UTF-16, where a lone
/// surrogate is one unit; UTF-8 would give one U+FFFD per byte).
fn replaced(s: &Bound<'_, PyString>) -> String {
    (s.call_method1("encode", ("utf-16-le", "surrogatepass")))
        .and_then(|b| {
            b.call_method1("decode", ("utf-16-le", "replace"))?
                .extract()
        })
        .unwrap_or_else(|_| s.to_string_lossy().into_owned())
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

    /// The text of the argument ``name`` ([`Error::not_unicode`] otherwise).
    pub(crate) fn get(&self, py: Python<'_>, name: &str) -> PyResult<&str> {
        self.read(|shown| Error::not_unicode(name, shown))
            .py_err(py)
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

/// A ``rules`` argument: a ``Rules`` or a ``RuleSet`` (its cached ``_core`` attribute); the
/// functions take ``None`` for the defaults. Anything else is a ``TypeError``; an error while a
/// ``RuleSet`` builds its rules object (``RuleSetError``) is raised as it is.
pub(crate) struct RulesArg<'py>(pub(crate) Bound<'py, PyRules>);

impl<'a, 'py> FromPyObject<'a, 'py> for RulesArg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(r) = obj.cast::<PyRules>() {
            return Ok(RulesArg(r.to_owned()));
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
        Ok(RulesArg(
            inner.cast_into::<PyRules>().map_err(|_| not_rules())?,
        ))
    }
}

/// The rules of an optional ``rules`` argument.
pub(crate) fn rules_of<'a>(rules: &'a Option<RulesArg<'_>>) -> &'a core::Rules {
    match rules {
        Some(r) => &r.0.get().rules,
        None => core::Rules::standard(),
    }
}

/// Resolves a ``rules`` argument and runs ``f`` with it.
pub(crate) fn with_rules<T>(
    rules: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&core::Rules) -> PyResult<T>,
) -> PyResult<T> {
    match rules {
        None => f(core::Rules::standard()),
        Some(obj) => f(&obj.extract::<RulesArg>()?.0.get().rules),
    }
}

/// An integer argument of any size, as the core takes it ([`core::Given`]): its value, or its
/// text when it does not fit in 64 bits (the core's bounds then refuse it by name). ``bool``
/// and non-integers are a ``TypeError``.
#[derive(Clone, Debug)]
pub(crate) struct Int(pub(crate) core::Given);

impl Int {
    /// An integer known to fit.
    pub(crate) const fn of(value: i64) -> Int {
        Int(core::Given::Int(value))
    }

    /// The value when it fits in 64 bits (the core checks its range where it is used, in
    /// its documented order), else ``LimitError`` naming ``limit``.
    pub(crate) fn value(&self, py: Python<'_>, limit: &Limit) -> PyResult<i64> {
        limit.fits(&self.0).py_err(py)
    }

    /// A count or a seat: ``within`` as ``usize``.
    pub(crate) fn index(&self, py: Python<'_>, limit: &Limit) -> PyResult<usize> {
        limit.given_index(&self.0).py_err(py)
    }
}

/// The integers as the core takes them.
pub(crate) fn given(ints: Vec<Int>) -> Vec<core::Given> {
    ints.into_iter().map(|i| i.0).collect()
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an integer, got bool"));
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int::of(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Int(
                core::Given::Beyond(obj.str()?.to_string_lossy().into_owned()),
            )),
            Err(e) => Err(e),
        }
    }
}

/// A Python value as plain data for the core to read ([`core::Plain`]): dicts (keys as text;
/// another key as Python writes it), lists, tuples and integers copied, anything else named
/// by its type.
pub(crate) fn plain(obj: &Bound<'_, PyAny>) -> PyResult<core::Plain> {
    let items = || -> PyResult<Vec<core::Plain>> { obj.try_iter()?.map(|i| plain(&i?)).collect() };
    Ok(if let Ok(dict) = obj.cast::<PyDict>() {
        let key = |k: &Bound<'_, PyAny>| match k.cast::<PyString>() {
            Ok(s) => s.to_string_lossy().into_owned(),
            Err(_) => shown(k),
        };
        let entries = dict.iter().map(|(k, v)| Ok((key(&k), plain(&v)?)));
        core::Plain::Map(entries.collect::<PyResult<_>>()?)
    } else if obj.is_instance_of::<PyList>() {
        core::Plain::List(items()?)
    } else if obj.is_instance_of::<PyTuple>() {
        core::Plain::Tuple(items()?)
    } else {
        match obj.extract::<Int>() {
            Ok(int) => core::Plain::Int(int.0),
            Err(_) => core::Plain::Other(obj.get_type().name()?.to_string()),
        }
    })
}

/// A seed argument: an int from 0 to 2**64 − 1 ([`core::limits::seed_error`] otherwise).
pub(crate) fn seed_value(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    (obj.extract::<u64>()).map_err(|_| to_pyerr(py, core::limits::seed_error(obj)))
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
