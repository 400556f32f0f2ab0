//! Python bindings of `thirteen-core`: type conversions, error mapping and GIL release only.
//! All game logic lives in the core crate; each module here mirrors one of its concepts.

use pyo3::prelude::*;

mod arrangements;
mod cards;
mod convert;
mod dealing;
mod enums;
mod errors;
mod gifts;
mod lane_tables;
mod pickle;
mod rules;
mod settlement;
mod solving;
mod specials;
mod surrender;
mod training;
mod values;

/// The compiled core of ``thirteen``; use the ``thirteen`` package, which re-exports it.
/// The core's worker threads block SIGINT and SIGTERM, so that the kernel delivers them to a
/// thread that Python runs: a signal taken by a worker would leave the main thread asleep in
/// a read (Ctrl-C at an input prompt doing nothing).
#[cfg(unix)]
fn block_signals_in_workers() {
    use nix::sys::signal::{SigSet, Signal};
    let block = || {
        let mut set = SigSet::empty();
        set.add(Signal::SIGINT);
        set.add(Signal::SIGTERM);
        // Failing leaves the thread as it was: signals may then reach it, as before.
        let _ = set.thread_block();
    };
    // An error means the pool already exists (built by an embedding program): leave it.
    let _ = rayon::ThreadPoolBuilder::new()
        .start_handler(move |_| block())
        .build_global();
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    #[cfg(unix)]
    block_signals_in_workers();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    enums::register(m)?;
    cards::register(m)?;
    rules::register(m)?;
    values::register(m)?;
    arrangements::register(m)?;
    specials::register(m)?;
    settlement::register(m)?;
    lane_tables::register(m)?;
    solving::register(m)?;
    gifts::register(m)?;
    surrender::register(m)?;
    training::register(m)?;
    dealing::register(m)?;
    pickle::register(m)?;
    Ok(())
}
