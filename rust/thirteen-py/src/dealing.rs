//! Dealing (RULES.md 7): seeded or OS-random deals with the cut, and swap-three.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core as core;

use crate::cards::PyCard;
use crate::convert::{cards_list, rules_of, seed_value, CardsArg, Int, RulesArg};
use crate::errors::IntoPy;
use crate::pickle::{self, Reduced};

/// One round's deal (RULES.md 7): ``hands`` (per seat, the cards in the order dealt), the
/// shuffled ``deck``, the ``cut_card`` and the seat that counted as 1 (``cut_start``) when the
/// rules cut (切牌), the seat dealt ``first``, and the ``seed`` (None when the operating
/// system's secure random source shuffled). Compares equal to the same deal; pickles.
#[pyclass(name = "Deal", frozen, eq, module = "thirteen._core")]
#[derive(PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct PyDeal {
    inner: core::Deal,
    seed: Option<u64>,
}

#[pymethods]
impl PyDeal {
    /// Per seat, the cards dealt.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner.hands.iter().map(|h| cards_list(py, h)).collect()
    }
    /// The shuffled deck.
    #[getter]
    fn deck<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.inner.deck)
    }
    /// The cut card, or None.
    #[getter]
    fn cut_card(&self) -> Option<PyCard> {
        self.inner.cut.map(|(c, _)| PyCard(c))
    }
    /// The seat that counted as 1 for the cut, or None.
    #[getter]
    fn cut_start(&self) -> Option<usize> {
        self.inner.cut.map(|(_, s)| s)
    }
    /// The seat dealt first.
    #[getter]
    fn first(&self) -> usize {
        self.inner.first
    }
    /// The seed, or None.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        pickle::reduce(slf.py(), "Deal", slf.get())
    }
    fn __repr__(&self) -> String {
        format!(
            "<Deal seed={:?} first={} players={}>",
            self.seed,
            self.inner.first,
            self.inner.hands.len()
        )
    }
}

/// Shuffles and deals one round (RULES.md 7): ``players`` seats, ``rules.dealt`` cards each,
/// the cut when ``rules.cut``. With ``seed`` (0 ≤ seed < 2**64) the deal is the same on every
/// platform and version (ChaCha20 keyed by the seed, our own Fisher–Yates; see the docs of
/// ``thirteen_core::deal``); without, the operating system's secure random source shuffles.
/// Raises ``PlayerCountError`` for a table size the rules do not allow (any other integer,
/// negative or huge too, as the reference does), ``ThirteenError`` for a bad seed.
#[pyfunction]
#[pyo3(
    signature = (rules = None, players = Int::of(4), seed = None),
    text_signature = "(rules=None, players=4, seed=None)"
)]
pub(crate) fn deal(
    py: Python<'_>,
    rules: Option<RulesArg<'_>>,
    players: Int,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDeal> {
    let r = rules_of(&rules);
    let players = r.check_players_given(&players.0).py_err(py)?;
    let seed = seed.map(|s| seed_value(py, s)).transpose()?;
    let inner = match seed {
        Some(s) => core::deal(r, players, s),
        None => core::deal_os(r, players),
    }
    .py_err(py)?;
    Ok(PyDeal { inner, seed })
}

/// Swap-three (换三张, RULES.md 7): each seat gives ``given[seat]`` (cards it holds, at most
/// ``rules.swap.max_cards``); the pool is shuffled and each seat draws back as many as it gave,
/// in seat order. ``seed``: the round's seed (the pool is shuffled on its generator's stream
/// 1), or None for the secure random source. Returns the new hands. Raises ``CountError``
/// (too many given, or not one list per seat), ``ThirteenError`` (a card not held),
/// ``RuleSetError`` when the rules have no swap.
#[pyfunction]
#[pyo3(signature = (hands, given, rules = None, seed = None))]
pub(crate) fn swap_cards<'py>(
    py: Python<'py>,
    hands: Vec<CardsArg>,
    given: Vec<CardsArg>,
    rules: Option<RulesArg<'py>>,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    let seed = seed.map(|s| seed_value(py, s)).transpose()?;
    let hands: Vec<Vec<core::Card>> = hands.into_iter().map(|h| h.0).collect();
    let given: Vec<Vec<core::Card>> = given.into_iter().map(|g| g.0).collect();
    let out = core::swap_under(rules_of(&rules), &hands, &given, seed).py_err(py)?;
    out.iter().map(|h| cards_list(py, h)).collect()
}
