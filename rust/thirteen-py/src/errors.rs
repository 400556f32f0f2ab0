//! Errors: one helper maps every core error onto the classes of `thirteen.errors` (imported by
//! name, so that a missing class is an ``ImportError``, never a panic).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use thirteen_core as core;
use thirteen_core::{Error, Lane};

use crate::convert::Int;

/// The Python exception for a core error, with its locating details as attributes.
pub(crate) fn to_pyerr(py: Python<'_>, err: Error) -> PyErr {
    let message = err.to_string();
    // A batch error keeps the class and details of the table's error, with the table named.
    let err = match err {
        Error::InTable { inner, .. } => *inner,
        other => other,
    };
    let build = || -> PyResult<PyErr> {
        let kw = PyDict::new(py);
        let class = match &err {
            Error::BadCard { token, position } => {
                kw.set_item("token", token)?;
                kw.set_item("position", position)?;
                "CardError"
            }
            Error::WrongCount {
                expected,
                got,
                lane,
                player,
            } => {
                kw.set_item("expected", expected)?;
                kw.set_item("got", got)?;
                kw.set_item("lane", lane.map(Lane::key))?;
                kw.set_item("player", player)?;
                "CountError"
            }
            Error::DealtCount { dealt, got } => {
                kw.set_item("expected", dealt)?;
                kw.set_item("got", got)?;
                "CountError"
            }
            Error::DuplicateCard { card, player } => {
                kw.set_item("card", card.to_string())?;
                kw.set_item("player", player)?;
                "DuplicateCardError"
            }
            Error::CardNotHeld { card } => {
                kw.set_item("card", card.to_string())?;
                "CardNotHeldError"
            }
            Error::Fouled { player } => {
                kw.set_item("player", player)?;
                "FouledError"
            }
            Error::FalseSpecial { player, special } => {
                kw.set_item("player", player)?;
                kw.set_item("special", special)?;
                "FalseSpecialError"
            }
            Error::BadPlayerCount { got, allowed } => {
                kw.set_item("got", got)?;
                kw.set_item("allowed", PyTuple::new(py, allowed)?)?;
                "PlayerCountError"
            }
            Error::SurrenderNotAllowed { player } => {
                kw.set_item("player", player)?;
                "SurrenderError"
            }
            Error::OutOfRange {
                key,
                value,
                min,
                max,
            } => {
                kw.set_item("key", key)?;
                kw.set_item("value", value)?;
                kw.set_item("minimum", min)?;
                kw.set_item("maximum", (*max < i64::MAX).then_some(*max))?;
                "LimitError"
            }
            Error::InvalidArgument { .. } | Error::InTable { .. } | Error::NotAHandValue { .. } => {
                "ThirteenError"
            }
            Error::RuleSet { key, .. } => {
                kw.set_item("key", key)?;
                "RuleSetError"
            }
        };
        exception(py, class, &message, &kw)
    };
    build().unwrap_or_else(|e| e)
}

/// The exception ``class`` of ``thirteen.errors`` with ``message`` and the details ``kw``.
fn exception(
    py: Python<'_>,
    class: &str,
    message: &str,
    kw: &Bound<'_, PyDict>,
) -> PyResult<PyErr> {
    let cls = py.import("thirteen.errors")?.getattr(class)?;
    Ok(PyErr::from_value(cls.call((message,), Some(kw))?))
}

/// The exception ``class`` of ``thirteen.errors`` with ``message`` and the details that
/// `fill` sets (an error raised while building it is returned instead).
fn detailed(
    py: Python<'_>,
    class: &str,
    message: &str,
    fill: impl FnOnce(&Bound<'_, PyDict>) -> PyResult<()>,
) -> PyErr {
    let kw = PyDict::new(py);
    fill(&kw)
        .and_then(|()| exception(py, class, message, &kw))
        .unwrap_or_else(|e| e)
}

/// ``PlayerCountError`` for a table size outside ``allowed`` given as any integer: a
/// negative one, or one beyond 64 bits, is as disallowed as 5 (``got`` is the integer given).
pub(crate) fn player_count_error(py: Python<'_>, got: &Int, allowed: &[u8]) -> PyErr {
    let message = core::player_count_message(got, allowed);
    detailed(py, "PlayerCountError", &message, |kw| {
        kw.set_item("got", got.to_python(py)?)?;
        kw.set_item("allowed", PyTuple::new(py, allowed)?)
    })
}

/// ``.py_err(py)`` on a core result: the error mapped by [`to_pyerr`].
pub(crate) trait IntoPy<T> {
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPy<T> for core::Result<T> {
    #[inline]
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_pyerr(py, e))
    }
}
