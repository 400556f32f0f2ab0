//! Python bindings of `thirteen-core`: type conversions, error mapping and GIL release only.
//! All game logic lives in the core crate; each module here mirrors one of its concepts.

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

// The module's classes and functions, module by module; Rank, Suit, Category and the version
// are added at init.
/// The compiled core of ``thirteen``; use the ``thirteen`` package, which re-exports it.
#[pyo3::pymodule]
mod _core {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::arrangements::{is_foul, PyArrangement};
    #[pymodule_export]
    use crate::cards::{deck, format_cards, parse_cards, validate_hand, PyCard};
    #[pymodule_export]
    use crate::dealing::{deal, swap_cards, PyDeal};
    #[pymodule_export]
    use crate::gifts::_gift;
    #[pymodule_export]
    use crate::lane_tables::PyLaneTables;
    #[pymodule_export]
    use crate::pickle::_restore;
    #[pymodule_export]
    use crate::rules::{rule_options, PyRules};
    #[pymodule_export]
    use crate::settlement::{escape_payments, money, settle, settle_batch, settle_round};
    #[pymodule_export]
    use crate::settlement::{PyDeclaration, PySettlement};
    #[pymodule_export]
    use crate::solving::{
        _complete, _ev_scan, _explain, _solve, count_splits, solve_batch, splits,
    };
    #[pymodule_export]
    use crate::specials::{compare_specials, find_special, held_specials, PySpecialHand};
    #[pymodule_export]
    use crate::surrender::_surrender_expected;
    #[pymodule_export]
    use crate::training::{build_tables, iteration_counts, train};
    #[pymodule_export]
    use crate::values::{compare_lanes, evaluate, evaluate_batch, PyHandValue};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        #[cfg(unix)]
        super::block_signals_in_workers();
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        crate::enums::add_classes(m)
    }
}
