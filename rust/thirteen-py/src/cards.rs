//! Cards (RULES.md 1) and card lists: parse, format, the deck, a hand check.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use thirteen_core as core;
use thirteen_core::limits::SIZE;

use crate::convert::{read_cards, rules_of, CardsArg, Int, RulesArg};
use crate::enums;
use crate::errors::IntoPy;

/// A playing card (RULES.md 1). Frozen and hashable; ``str(card)`` is ``"As"``.
///
/// ``Card(text)`` or ``Card.parse(text)`` read one token (``"As"``, ``"10h"``, ``"a♠"``);
/// ``Card.from_code(code)`` builds from ``code = (rank - 2) * 4 + suit``.
/// Raises ``CardError`` for a bad token.
#[pyclass(name = "Card", frozen, eq, ord, module = "thirteen._core")]
#[derive(Clone, Copy, PartialEq, PartialOrd)]
pub(crate) struct PyCard(pub(crate) core::Card);

/// The 52 ``Card`` objects, made once. A ``Card`` is immutable (frozen, no ``__dict__``, no
/// subclasses), so the card lists the bindings return share them instead of allocating 13
/// objects for every hand solved.
static SHARED: PyOnceLock<Vec<Py<PyCard>>> = PyOnceLock::new();

/// The shared ``Card`` object of `card` ([`SHARED`]).
pub(crate) fn shared_card<'py>(py: Python<'py>, card: core::Card) -> PyResult<Bound<'py, PyCard>> {
    let all = SHARED.get_or_try_init(py, || {
        (0..52u8)
            .filter_map(core::Card::from_code)
            .map(|c| Py::new(py, PyCard(c)))
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(all[card.code() as usize].bind(py).clone())
}

#[pymethods]
impl PyCard {
    #[new]
    fn new(text: &Bound<'_, PyString>) -> PyResult<Self> {
        read_cards(text, |t| core::Card::parse_token(t.trim(), 0)).map(PyCard)
    }

    /// Parses one card token; raises ``CardError``.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyString>) -> PyResult<Self> {
        Self::new(text)
    }

    /// The card with ``code`` (an int, 0..51); raises ``CardError`` for any other int.
    #[staticmethod]
    fn from_code(py: Python<'_>, code: Int) -> PyResult<Self> {
        core::Card::from_given(&code.0).py_err(py).map(PyCard)
    }

    /// The rank.
    #[getter]
    fn rank<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        enums::rank(py, self.0.rank())
    }
    /// The suit.
    #[getter]
    fn suit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        enums::suit(py, self.0.suit())
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
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<PyCard>().into_any(), (self.0.to_string(),)))
    }
}

/// Parses cards separated by whitespace and/or commas (RULES.md 1) into a list of ``Card``.
/// Raises ``CardError`` naming the first bad token and its 0-based position.
#[pyfunction]
pub(crate) fn parse_cards(text: &Bound<'_, PyString>) -> PyResult<Vec<PyCard>> {
    let cards = read_cards(text, core::parse_cards)?;
    Ok(cards.into_iter().map(PyCard).collect())
}

/// Formats cards as ``"As Kd Tc"``, or with ``glyphs=True`` as ``"A♠ K♦ T♣"``.
#[pyfunction]
#[pyo3(signature = (cards, glyphs = false))]
pub(crate) fn format_cards(cards: CardsArg, glyphs: bool) -> String {
    core::format_cards(&cards.0, glyphs)
}

/// The deck of ``rules`` (52 cards, or 65 with ``deck = "extra_diamonds"``) in code order,
/// extra diamonds appended in rank order.
#[pyfunction]
#[pyo3(signature = (rules = None))]
pub(crate) fn deck(rules: Option<RulesArg<'_>>) -> Vec<PyCard> {
    rules_of(&rules)
        .deck
        .cards()
        .into_iter()
        .map(PyCard)
        .collect()
}

/// Checks a hand: exactly ``size`` cards (``CountError``; a negative ``size`` is a
/// ``LimitError``) and no card more often than the deck holds (``DuplicateCardError`` naming
/// the first offender in input order). ``cards``: a string or a sequence of ``Card``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, size = Int::of(13)), text_signature = "(cards, rules=None, size=13)")]
pub(crate) fn validate_hand(
    py: Python<'_>,
    cards: CardsArg,
    rules: Option<RulesArg<'_>>,
    size: Int,
) -> PyResult<()> {
    let size = size.index(py, &SIZE)?;
    core::validate_hand(&cards.0, rules_of(&rules).deck, size).py_err(py)
}
