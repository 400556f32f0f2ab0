//! Errors: one helper maps every core error onto the class of `thirteen.errors` that the core
//! names (imported by name, so that a missing class is an ``ImportError``, never a panic),
//! with the details the core gives as its attributes.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::{Detail, Error, Given};

/// The Python exception for a core error: [`Error::class`] with [`Error::details`] as its
/// attributes.
pub(crate) fn to_pyerr(py: Python<'_>, err: Error) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let kw = PyDict::new(py);
        for (name, detail) in err.details() {
            kw.set_item(name, detail_object(py, detail)?)?;
        }
        let class = match err.class() {
            "TypeError" => py.get_type::<PyTypeError>().into_any(),
            name => py.import("thirteen.errors")?.getattr(name)?,
        };
        Ok(PyErr::from_value(
            class.call((err.to_string(),), Some(&kw))?,
        ))
    };
    build().unwrap_or_else(|e| e)
}

/// A detail as a Python object: ``None``, an ``int`` of any size, a ``str`` or a tuple.
fn detail_object(py: Python<'_>, detail: Detail) -> PyResult<Bound<'_, PyAny>> {
    Ok(match detail {
        Detail::None => py.None().into_bound(py),
        Detail::Int(n) => given_int(py, &n)?,
        Detail::Text(text) => PyString::new(py, &text).into_any(),
        Detail::Ints(ints) => PyTuple::new(py, ints)?.into_any(),
    })
}

/// An integer as given, as a Python ``int`` (one beyond 64 bits rebuilt from its text; the
/// text itself when an ``int`` subclass wrote it otherwise).
fn given_int<'py>(py: Python<'py>, n: &Given) -> PyResult<Bound<'py, PyAny>> {
    match n {
        Given::Int(v) => Ok(v.into_pyobject(py)?.into_any()),
        Given::Beyond(text) => (py.get_type::<PyInt>().call1((text.as_str(),)))
            .or_else(|_| Ok(PyString::new(py, text).into_any())),
    }
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
