//! Ranks, suits and cards (RULES.md 1), and card lists: parse, format, the deck, a hand check.

use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use thirteen_core as core;
use thirteen_core::Error;

use crate::convert::{extract_cards, with_rules, PyObject2};
use crate::errors::{to_pyerr, IntoPy};

/// A card rank, TWO (2) to ACE (14). ``int(rank)`` is its value; ``rank.char`` its letter.
#[pyclass(eq, eq_int, ord, hash, frozen, module = "thirteen._core")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types)]
pub(crate) enum Rank {
    TWO = 2,
    THREE,
    FOUR,
    FIVE,
    SIX,
    SEVEN,
    EIGHT,
    NINE,
    TEN,
    JACK,
    QUEEN,
    KING,
    ACE,
}

const RANKS: [Rank; 13] = [
    Rank::TWO,
    Rank::THREE,
    Rank::FOUR,
    Rank::FIVE,
    Rank::SIX,
    Rank::SEVEN,
    Rank::EIGHT,
    Rank::NINE,
    Rank::TEN,
    Rank::JACK,
    Rank::QUEEN,
    Rank::KING,
    Rank::ACE,
];

impl From<core::Rank> for Rank {
    fn from(r: core::Rank) -> Self {
        RANKS[r.index() as usize]
    }
}

#[pymethods]
impl Rank {
    /// The value, 2 to 14.
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
    /// ``"2"`` … ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``.
    #[getter]
    fn char(&self) -> char {
        core::Rank::from_index(*self as u8 - 2).char()
    }
}

/// A suit. Values follow the tie-break order ♠ > ♥ > ♣ > ♦ (RULES.md 1, 3).
#[pyclass(eq, eq_int, ord, hash, frozen, module = "thirteen._core")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types)]
pub(crate) enum Suit {
    DIAMONDS = 0,
    CLUBS = 1,
    HEARTS = 2,
    SPADES = 3,
}

const SUITS: [Suit; 4] = [Suit::DIAMONDS, Suit::CLUBS, Suit::HEARTS, Suit::SPADES];

#[pymethods]
impl Suit {
    /// The value, 0 (diamonds) to 3 (spades).
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
    /// ``"d"``, ``"c"``, ``"h"`` or ``"s"``.
    #[getter]
    fn char(&self) -> char {
        core::Suit::ALL[*self as usize].char()
    }
    /// ``"♦"``, ``"♣"``, ``"♥"`` or ``"♠"``.
    #[getter]
    fn glyph(&self) -> char {
        core::Suit::ALL[*self as usize].glyph()
    }
}

/// A playing card (RULES.md 1). Frozen and hashable; ``str(card)`` is ``"As"``.
///
/// ``Card(text)`` or ``Card.parse(text)`` read one token (``"As"``, ``"10h"``, ``"a♠"``);
/// ``Card.from_code(code)`` builds from ``code = (rank - 2) * 4 + suit``.
/// Raises ``CardError`` for a bad token.
#[pyclass(name = "Card", frozen, module = "thirteen._core")]
#[derive(Clone, Copy)]
pub(crate) struct PyCard(pub(crate) core::Card);

#[pymethods]
impl PyCard {
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<Self> {
        core::Card::parse_token(text.trim(), 0)
            .py_err(py)
            .map(PyCard)
    }

    /// Parses one card token; raises ``CardError``.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Self> {
        Self::new(py, text)
    }

    /// The card with ``code`` (0..51); raises ``CardError`` outside that range.
    #[staticmethod]
    fn from_code(py: Python<'_>, code: i64) -> PyResult<Self> {
        u8::try_from(code)
            .ok()
            .and_then(core::Card::from_code)
            .map(PyCard)
            .ok_or_else(|| {
                to_pyerr(
                    py,
                    Error::BadCard {
                        token: code.to_string(),
                        position: 0,
                    },
                )
            })
    }

    /// The rank.
    #[getter]
    fn rank(&self) -> Rank {
        self.0.rank().into()
    }
    /// The suit.
    #[getter]
    fn suit(&self) -> Suit {
        SUITS[self.0.suit() as usize]
    }
    /// ``(rank - 2) * 4 + suit``, 0..51.
    #[getter]
    fn code(&self) -> u8 {
        self.0.code()
    }
    /// Text with the suit glyph, ``"A♠"``.
    #[getter]
    fn glyph(&self) -> String {
        self.0.glyph()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        self.0.to_string()
    }
    fn __hash__(&self) -> u64 {
        self.0.code() as u64
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        match other.cast::<PyCard>() {
            Ok(o) => PyObject2::Bool(op.matches(self.0.cmp(&o.get().0))),
            Err(_) => PyObject2::NotImplemented,
        }
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<PyCard>().into_any(), (self.0.to_string(),)))
    }
}

/// Parses cards separated by whitespace and/or commas (RULES.md 1) into a list of ``Card``.
/// Raises ``CardError`` naming the first bad token and its 0-based position.
#[pyfunction]
fn parse_cards(py: Python<'_>, text: &str) -> PyResult<Vec<PyCard>> {
    Ok(core::parse_cards(text)
        .py_err(py)?
        .into_iter()
        .map(PyCard)
        .collect())
}

/// Formats cards as ``"As Kd Tc"``, or with ``glyphs=True`` as ``"A♠ K♦ T♣"``.
#[pyfunction]
#[pyo3(signature = (cards, glyphs = false))]
fn format_cards(cards: &Bound<'_, PyAny>, glyphs: bool) -> PyResult<String> {
    Ok(core::format_cards(&extract_cards(cards)?, glyphs))
}

/// The deck of ``rules`` (52 cards, or 65 with ``deck = "extra_diamonds"``) in code order,
/// extra diamonds appended in rank order.
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn deck(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyCard>> {
    with_rules(rules, |r| {
        Ok(r.deck.cards().into_iter().map(PyCard).collect())
    })
}

/// Checks a hand: exactly ``size`` cards (``CountError``) and no card more often than the deck
/// holds (``DuplicateCardError`` naming the first offender in input order). ``cards``: a string
/// or a sequence of ``Card``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, size = 13))]
fn validate_hand(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    size: usize,
) -> PyResult<()> {
    let py = cards.py();
    let cards = extract_cards(cards)?;
    with_rules(rules, |r| {
        core::card::validate_hand(&cards, r.deck, size).py_err(py)
    })
}

/// Registers ranks, suits, cards and the card-list functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rank>()?;
    m.add_class::<Suit>()?;
    m.add_class::<PyCard>()?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(format_cards, m)?)?;
    m.add_function(wrap_pyfunction!(deck, m)?)?;
    m.add_function(wrap_pyfunction!(validate_hand, m)?)?;
    Ok(())
}
