//! The core's rules object, built once from a validated rule set.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core as core;

use crate::convert::Text;
use crate::errors::IntoPy;
use crate::pickle::Reduced;

/// The core's rules object, built once from a validated rule set (``RuleSet.to_json()``).
/// Users pass ``RuleSet`` objects; this type is what they carry inside. ``Rules(json)`` raises
/// ``RuleSetError`` naming the key for JSON the engine cannot play by (unknown values, table
/// sizes other than 2 to 4, amounts beyond 10,000 units); it pickles as its JSON.
#[pyclass(name = "Rules", frozen, module = "thirteen._core")]
pub(crate) struct PyRules {
    pub(crate) rules: core::Rules,
    json: String,
}

#[pymethods]
impl PyRules {
    #[new]
    fn new(py: Python<'_>, json: Text) -> PyResult<Self> {
        let json = json
            .read(|shown| core::Error::RuleSet {
                key: "<json>".to_string(),
                message: format!("the JSON is not valid Unicode text (a lone surrogate): {shown}"),
            })
            .py_err(py)?;
        let rules = core::Rules::from_json(json).py_err(py)?;
        Ok(PyRules {
            rules,
            json: json.to_string(),
        })
    }
    /// The rule set's name.
    #[getter]
    fn name(&self) -> &str {
        &self.rules.name
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        Ok((
            py.get_type::<PyRules>().into_any(),
            PyTuple::new(py, [slf.get().json.as_str()])?,
        ))
    }
}

/// Registers the rules class.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()
}
