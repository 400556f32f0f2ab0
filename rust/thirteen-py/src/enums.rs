//! Ranks, suits and categories are the Python integer enums of `thirteen.enums` (so that they
//! iterate, pickle and compare with ints like any ``IntEnum``); the bindings hand out their
//! members, looked up once.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use thirteen_core as core;

/// The members of one enum class, low to high, imported on first use.
struct Members {
    class: &'static str,
    cell: PyOnceLock<Py<PyTuple>>,
}

impl Members {
    const fn new(class: &'static str) -> Members {
        Members {
            class,
            cell: PyOnceLock::new(),
        }
    }

    fn class<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("thirteen.enums")?.getattr(self.class)
    }

    fn get<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let members = self.cell.get_or_try_init(py, || -> PyResult<_> {
            let class = self.class(py)?;
            Ok(PyTuple::new(py, class.try_iter()?.collect::<PyResult<Vec<_>>>()?)?.unbind())
        })?;
        members.bind(py).get_item(index)
    }
}

static RANKS: Members = Members::new("Rank");
static SUITS: Members = Members::new("Suit");
static CATEGORIES: Members = Members::new("Category");

/// The ``Rank`` member of a rank.
pub(crate) fn rank(py: Python<'_>, r: core::Rank) -> PyResult<Bound<'_, PyAny>> {
    RANKS.get(py, r.index() as usize)
}

/// The ``Suit`` member of a suit.
pub(crate) fn suit(py: Python<'_>, s: core::Suit) -> PyResult<Bound<'_, PyAny>> {
    SUITS.get(py, s as usize)
}

/// The ``Category`` member of a category.
pub(crate) fn category(py: Python<'_>, c: core::Category) -> PyResult<Bound<'_, PyAny>> {
    CATEGORIES.get(py, c as usize)
}

/// Adds ``Rank``, ``Suit`` and ``Category`` to the module (the classes of `thirteen.enums`).
pub(crate) fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for members in [&RANKS, &SUITS, &CATEGORIES] {
        m.add(members.class, members.class(m.py())?)?;
    }
    Ok(())
}
