//! Dealing (RULES.md 7): seeded or OS-random deals with the cut, and swap-three.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use thirteen_core as core;
use thirteen_core::Error;

use crate::cards::PyCard;
use crate::convert::{cards_list, extract_cards, seed_value, with_rules};
use crate::errors::{to_pyerr, IntoPy};

/// One round's deal (RULES.md 7): ``hands`` (per seat, the cards in the order dealt), the
/// shuffled ``deck``, the ``cut_card`` and the seat that counted as 1 (``cut_start``) when the
/// rules cut (切牌), the seat dealt ``first``, and the ``seed`` (None when the operating
/// system's secure random source shuffled).
#[pyclass(name = "Deal", frozen, module = "thirteen._core")]
struct PyDeal {
    inner: core::deal::Deal,
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
/// Raises ``PlayerCountError``.
#[pyfunction]
#[pyo3(signature = (rules = None, players = 4, seed = None))]
fn deal(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: usize,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDeal> {
    let seed = seed.map(|s| seed_value(py, s)).transpose()?;
    with_rules(rules, |r| {
        let inner = match seed {
            Some(s) => core::deal::deal(r, players, s),
            None => core::deal::deal_os(r, players),
        }
        .py_err(py)?;
        Ok(PyDeal { inner, seed })
    })
}

/// Swap-three (换三张, RULES.md 7): each seat gives ``given[seat]`` (cards it holds, at most
/// ``rules.swap.max_cards``); the pool is shuffled and each seat draws back as many as it gave,
/// in seat order. ``seed``: the round's seed (the pool is shuffled on its generator's stream
/// 1), or None for the secure random source. Returns the new hands. Raises ``CountError``
/// (too many given, or not one list per seat), ``ThirteenError`` (a card not held),
/// ``RuleSetError`` when the rules have no swap.
#[pyfunction]
#[pyo3(signature = (hands, given, rules = None, seed = None))]
fn swap_cards<'py>(
    py: Python<'py>,
    hands: Vec<Bound<'py, PyAny>>,
    given: Vec<Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    let seed = seed.map(|s| seed_value(py, s)).transpose()?;
    let hands: Vec<Vec<core::Card>> = hands.iter().map(extract_cards).collect::<PyResult<_>>()?;
    let given: Vec<Vec<core::Card>> = given.iter().map(extract_cards).collect::<PyResult<_>>()?;
    with_rules(rules, |r| {
        let max = r.swap.ok_or_else(|| {
            to_pyerr(
                py,
                Error::RuleSet {
                    key: "swap".into(),
                    message: "these rules have no swap-three".into(),
                },
            )
        })?;
        let out = match seed {
            Some(s) => core::deal::swap(&hands, &given, max as usize, &mut core::deal::swap_rng(s)),
            None => {
                use rand::SeedableRng;
                core::deal::swap(
                    &hands,
                    &given,
                    max as usize,
                    &mut rand_chacha::ChaCha20Rng::from_os_rng(),
                )
            }
        }
        .py_err(py)?;
        out.iter().map(|h| cards_list(py, h)).collect()
    })
}

/// Registers the dealing functions and classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeal>()?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(swap_cards, m)?)?;
    Ok(())
}
