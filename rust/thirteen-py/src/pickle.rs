//! Pickling of the classes whose state is core data (``Settlement``, ``Deal``,
//! ``SpecialHand``): ``__reduce__`` gives ``(_core._restore, (class name, JSON))`` and
//! ``_restore`` reads the JSON back through the same checks as any input (cards by text,
//! specials by key), so a damaged pickle is a ``ThirteenError``, never a bad object.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde::Serialize;
use thirteen_core::Error;

use crate::convert::Text;
use crate::dealing::PyDeal;
use crate::errors::to_pyerr;
use crate::settlement::PySettlement;
use crate::specials::PySpecialHand;

/// What ``__reduce__`` returns: a callable and its arguments.
pub(crate) type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

/// ``__reduce__`` of an object whose state is ``state``.
pub(crate) fn reduce<'py, T: Serialize>(
    py: Python<'py>,
    class: &str,
    state: &T,
) -> PyResult<Reduced<'py>> {
    let json = serde_json::to_string(state).map_err(|e| bad(py, class, e))?;
    let restore = py.import("thirteen._core")?.getattr("_restore")?;
    Ok((restore, PyTuple::new(py, [class, json.as_str()])?))
}

fn bad(py: Python<'_>, class: &str, e: impl std::fmt::Display) -> PyErr {
    let message = format!("not a pickled {class}: {e}");
    to_pyerr(py, Error::InvalidArgument { message })
}

/// Rebuilds a pickled object (the counterpart of ``__reduce__``; not for direct use).
#[pyfunction]
pub(crate) fn _restore(py: Python<'_>, kind: Text, json: Text) -> PyResult<Py<PyAny>> {
    let (kind, json) = (kind.get(py, "kind")?, json.get(py, "json")?);
    fn read<'a, T: serde::Deserialize<'a>>(
        py: Python<'_>,
        class: &str,
        json: &'a str,
    ) -> PyResult<T> {
        serde_json::from_str(json).map_err(|e| bad(py, class, e))
    }
    Ok(match kind {
        "Settlement" => Py::new(py, PySettlement(read(py, kind, json)?))?.into_any(),
        "Deal" => Py::new(py, read::<PyDeal>(py, kind, json)?)?.into_any(),
        "SpecialHand" => Py::new(py, PySpecialHand(read(py, kind, json)?))?.into_any(),
        _ => return Err(bad(py, kind, "not a class that pickles this way")),
    })
}
