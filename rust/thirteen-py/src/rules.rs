//! The core's rules object, built once from a validated rule set.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core as core;

use crate::convert::{Int, Text};
use crate::errors::IntoPy;
use crate::pickle::Reduced;

/// The core's rules object, built once from rule-set JSON (the keys of RULES.md 6) checked by
/// the core's schema. Users pass ``RuleSet`` objects; this type is what they carry inside.
/// ``Rules(json)`` raises ``RuleSetError`` naming the first offending key; ``canonical`` is the
/// rule set in canonical form (``RuleSet.to_dict()``'s, as JSON); it pickles as that.
#[pyclass(name = "Rules", frozen, module = "thirteen._core")]
pub(crate) struct PyRules {
    pub(crate) rules: core::Rules,
    json: String,
}

#[pymethods]
impl PyRules {
    #[new]
    fn new(py: Python<'_>, json: Text) -> PyResult<Self> {
        let json = json.read(core::RuleFile::not_unicode).py_err(py)?;
        let file = core::RuleFile::from_json(json).py_err(py)?;
        Ok(PyRules {
            rules: core::Rules::from(&file),
            json: file.to_json(),
        })
    }
    /// The rule set in canonical form, as JSON text: every key, tables in canonical order.
    #[getter]
    fn canonical(&self) -> &str {
        &self.json
    }
    /// The rule set's name.
    #[getter]
    fn name(&self) -> &str {
        &self.rules.name
    }
    /// ``players`` when it is a table size the rules allow, else ``PlayerCountError`` (any
    /// other integer); ``TypeError`` for a non-integer.
    fn check_players(&self, py: Python<'_>, players: Int) -> PyResult<usize> {
        self.rules.check_players_given(&players.0).py_err(py)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        Ok((
            py.get_type::<PyRules>().into_any(),
            PyTuple::new(py, [slf.get().json.as_str()])?,
        ))
    }
}

/// The rule-set schema's allowed values as JSON text: the keys in file order, each choice's
/// values, the category, lane and special keys, the deck sizes and the bounds.
#[pyfunction]
pub(crate) fn rule_options() -> String {
    core::rule_options().to_string()
}
