//! Python bindings of `thirteen-core`: type conversions, error mapping and GIL release only.
//! All game logic lives in the core crate; each module here mirrors one of its concepts.

use pyo3::prelude::*;

mod arrangements;
mod cards;
mod convert;
mod dealing;
mod enums;
mod errors;
mod pickle;
mod rules;
mod settlement;
mod solver;
mod specials;
mod values;

/// The compiled core of ``thirteen``; use the ``thirteen`` package, which re-exports it.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    enums::register(m)?;
    cards::register(m)?;
    rules::register(m)?;
    values::register(m)?;
    arrangements::register(m)?;
    specials::register(m)?;
    settlement::register(m)?;
    solver::register(m)?;
    dealing::register(m)?;
    pickle::register(m)?;
    Ok(())
}
