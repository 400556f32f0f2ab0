//! The core's rules object, built once from a validated rule set.

use pyo3::prelude::*;
use thirteen_core as core;

use crate::errors::IntoPy;

/// The core's rules object, built once from a validated rule set (``RuleSet.to_json()``).
/// Users pass ``RuleSet`` objects; this type is what they carry inside.
#[pyclass(name = "Rules", frozen, module = "thirteen._core")]
pub(crate) struct PyRules(pub(crate) core::Rules);

#[pymethods]
impl PyRules {
    #[new]
    fn new(py: Python<'_>, json: &str) -> PyResult<Self> {
        core::Rules::from_json(json).py_err(py).map(PyRules)
    }
    /// The rule set's name.
    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }
}

/// Registers the rules class.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()
}
