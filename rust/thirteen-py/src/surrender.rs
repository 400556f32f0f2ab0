//! Surrender (Western rule sets): what surrendering is worth to a seat, for ``thirteen.solve``
//! to set against the best play. Converts the arguments and makes one core call.

use pyo3::prelude::*;
use thirteen_core::{self as core, SolveOptions};

use crate::convert::with_rules;
use crate::errors::IntoPy;

/// The expected units of surrendering (RULES.md 5 step 1) for a seat at a table of
/// ``players``, the banker's when ``banker``: minus ``surrender.units`` for each opponent met,
/// each taken as not surrendering; ``None`` when the rules do not allow surrender.
/// ``PlayerCountError`` for a table size other than 2 to 4.
#[pyfunction]
#[pyo3(signature = (rules, players = 4, banker = false))]
pub(crate) fn _surrender_expected(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: usize,
    banker: bool,
) -> PyResult<Option<f64>> {
    let ctx = SolveOptions::new(players, banker).py_err(py)?.ctx;
    with_rules(rules, |r| Ok(core::surrender_expected(r, ctx)))
}
