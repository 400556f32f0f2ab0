//! Swap-three gifts (换三张): the engine's decision of what a seat gives. Converts the
//! arguments, fills the core's `GiftOptions` and makes one core call without the GIL.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core::{self as core, GiftModel, GiftOptions, GiftSearch};

use crate::convert::cards_list;
use crate::errors::IntoPy;
use crate::lane_tables::{with_hand, PyLaneTables};

/// The gifts of a hand (the engine behind ``thirteen.gift``): ``cards`` the cards dealt;
/// returns ``[(cards given (a tuple), expected units after the swap), ...]`` best first, at
/// most ``top`` (1 to 10), giving nothing among them where it ranks. ``model``: the other
/// seats' gifts as ``(sizes, loose, paired)`` (4, 13 and 13 rates per mille, fitting the
/// model: ``benches/gift.py --fit``); ``None``: the shipped model. ``search``: ``(screen
/// pools, shortlist, finalists, final pools)`` (benchmarks); ``None``: the engine's.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, players = 4, banker = false, seed = 0, top = 1, model = None, search = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _gift<'py>(
    cards: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: &Bound<'py, PyLaneTables>,
    players: usize,
    banker: bool,
    seed: u64,
    top: usize,
    model: Option<([u32; 4], [u32; 13], [u32; 13])>,
    search: Option<(usize, usize, usize, usize)>,
) -> PyResult<Vec<(Bound<'py, PyTuple>, f64)>> {
    let py = cards.py();
    let mut options = GiftOptions::new(players, banker).py_err(py)?;
    let model = model.map(|(sizes, loose, paired)| GiftModel {
        sizes,
        loose,
        paired,
    });
    options.seed = seed;
    options.top = top;
    options.model = model;
    if let Some((screen_pools, shortlist, finalists, final_pools)) = search {
        options.search = GiftSearch {
            screen_pools,
            shortlist,
            finalists,
            final_pools,
        };
    }
    let gifts = with_hand(cards, rules, tables, |hand, r, t| {
        core::gift(hand, r, t, &options)
    })?;
    gifts
        .into_iter()
        .map(|g| Ok((cards_list(py, &g.cards)?, g.expected)))
        .collect()
}
