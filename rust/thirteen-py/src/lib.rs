//! Python bindings of `thirteen-core`: type conversions, error mapping and GIL release only.
//! All game logic lives in the core crate.

use std::cmp::Ordering;
use std::sync::OnceLock;

use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyDict, PyString, PyTuple};
use thirteen_core as core;
use thirteen_core::{Error, Lane};

// ---------------------------------------------------------------------------------------------
// Errors: one helper maps every core error onto the classes of `thirteen.errors`.

fn to_pyerr(py: Python<'_>, err: Error) -> PyErr {
    let message = err.to_string();
    let build = || -> PyResult<PyErr> {
        let kw = PyDict::new(py);
        let class = match &err {
            Error::BadCard { token, position } => {
                kw.set_item("token", token)?;
                kw.set_item("position", position)?;
                "CardError"
            }
            Error::WrongCount {
                expected,
                got,
                lane,
                player,
            } => {
                kw.set_item("expected", expected)?;
                kw.set_item("got", got)?;
                kw.set_item("lane", lane.map(Lane::key))?;
                kw.set_item("player", player)?;
                "CountError"
            }
            Error::DuplicateCard { card, player } => {
                kw.set_item("card", card.to_string())?;
                kw.set_item("player", player)?;
                "DuplicateCardError"
            }
            Error::Fouled { player } => {
                kw.set_item("player", player)?;
                "FouledError"
            }
            Error::FalseSpecial { player, special } => {
                kw.set_item("player", player)?;
                kw.set_item("special", special)?;
                "FalseSpecialError"
            }
            Error::BadPlayerCount { got, allowed } => {
                kw.set_item("got", got)?;
                kw.set_item("allowed", PyTuple::new(py, allowed)?)?;
                "PlayerCountError"
            }
            Error::SurrenderNotAllowed { player } => {
                kw.set_item("player", player)?;
                "SurrenderError"
            }
            Error::RuleSet { key, .. } => {
                kw.set_item("key", key)?;
                "RuleSetError"
            }
        };
        let cls = py.import("thirteen.errors")?.getattr(class)?;
        Ok(PyErr::from_value(cls.call((message.clone(),), Some(&kw))?))
    };
    build().unwrap_or_else(|e| e)
}

trait IntoPy<T> {
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPy<T> for core::Result<T> {
    #[inline]
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_pyerr(py, e))
    }
}

// ---------------------------------------------------------------------------------------------
// Ranks, suits, categories.

/// A card rank, TWO (2) to ACE (14). ``int(rank)`` is its value; ``rank.char`` its letter.
#[pyclass(eq, eq_int, ord, hash, frozen, module = "thirteen._core")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types)]
enum Rank {
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
enum Suit {
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

/// Hand categories, low to high (RULES.md 3). ``category.key`` is the rule-file key.
#[pyclass(eq, eq_int, ord, hash, frozen, module = "thirteen._core")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types)]
enum Category {
    HIGH_CARD = 0,
    ONE_PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
    FIVE_OF_A_KIND,
}

const CATEGORIES: [Category; 10] = [
    Category::HIGH_CARD,
    Category::ONE_PAIR,
    Category::TWO_PAIR,
    Category::THREE_OF_A_KIND,
    Category::STRAIGHT,
    Category::FLUSH,
    Category::FULL_HOUSE,
    Category::FOUR_OF_A_KIND,
    Category::STRAIGHT_FLUSH,
    Category::FIVE_OF_A_KIND,
];

#[pymethods]
impl Category {
    /// The value, 0 (high card) to 9 (five of a kind).
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
    /// The key used in rule files: ``"high_card"`` … ``"five_of_a_kind"``.
    #[getter]
    fn key(&self) -> &'static str {
        core::Category::ALL[*self as usize].key()
    }
}

// ---------------------------------------------------------------------------------------------
// Cards.

/// A playing card (RULES.md 1). Frozen and hashable; ``str(card)`` is ``"As"``.
///
/// ``Card(text)`` or ``Card.parse(text)`` read one token (``"As"``, ``"10h"``, ``"a♠"``);
/// ``Card.from_code(code)`` builds from ``code = (rank - 2) * 4 + suit``.
/// Raises ``CardError`` for a bad token.
#[pyclass(name = "Card", frozen, module = "thirteen._core")]
#[derive(Clone, Copy)]
struct PyCard(core::Card);

#[pymethods]
impl PyCard {
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<Self> {
        core::Card::parse_token(text, 0).py_err(py).map(PyCard)
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

/// Result of a rich comparison: a bool, or NotImplemented for a foreign type.
enum PyObject2 {
    Bool(bool),
    NotImplemented,
}

impl<'py> IntoPyObject<'py> for PyObject2 {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;
    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            PyObject2::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
            PyObject2::NotImplemented => py.NotImplemented().into_bound(py),
        })
    }
}

/// Reads cards from a string (parsed) or a sequence of ``Card`` / card strings.
fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<core::Card>> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return core::parse_cards(&s.to_cow()?).py_err(py);
    }
    let mut out = Vec::with_capacity(13);
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(c) = item.cast::<PyCard>() {
            out.push(c.get().0);
        } else if let Ok(s) = item.cast::<PyString>() {
            out.push(core::Card::parse_token(&s.to_cow()?, i).py_err(py)?);
        } else {
            return Err(PyTypeError::new_err(format!(
                "expected a Card or a card string at position {i}, got {}",
                item.get_type().name()?
            )));
        }
    }
    Ok(out)
}

fn cards_list<'py>(py: Python<'py>, cards: &[core::Card]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cards.iter().map(|&c| PyCard(c)))
}

// ---------------------------------------------------------------------------------------------
// Rules.

/// The core's rules object, built once from a validated rule set (``RuleSet.to_json()``).
/// Users pass ``RuleSet`` objects; this type is what they carry inside.
#[pyclass(name = "Rules", frozen, module = "thirteen._core")]
struct PyRules(core::Rules);

#[pymethods]
impl PyRules {
    #[new]
    fn new(py: Python<'_>, json: &str) -> PyResult<Self> {
        core::Rules::from_json(json).py_err(py).map(PyRules)
    }
    /// The rule set's name.
    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }
}

fn default_rules() -> &'static core::Rules {
    static DEFAULT: OnceLock<core::Rules> = OnceLock::new();
    DEFAULT.get_or_init(core::Rules::default)
}

/// Resolves a ``rules`` argument: ``None`` (defaults), a ``Rules`` or a ``RuleSet`` (its
/// cached ``_core`` attribute).
fn with_rules<T>(
    rules: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&core::Rules) -> PyResult<T>,
) -> PyResult<T> {
    match rules {
        None => f(default_rules()),
        Some(obj) if obj.is_none() => f(default_rules()),
        Some(obj) => {
            if let Ok(r) = obj.cast::<PyRules>() {
                return f(&r.get().0);
            }
            let inner = obj
                .getattr(pyo3::intern!(obj.py(), "_core"))
                .map_err(|_| PyTypeError::new_err("rules must be a thirteen.RuleSet or None"))?;
            let r = inner
                .cast::<PyRules>()
                .map_err(|_| PyTypeError::new_err("rules must be a thirteen.RuleSet or None"))?;
            f(&r.get().0)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hand values.

/// The value of a 3- or 5-card hand (RULES.md 3), totally ordered in game order.
///
/// ``category``: Category; ``ranks``: the deciding ranks in order; ``high``: the first;
/// ``size``: 3 or 5; ``value``: the packed integer (its order is the game order).
#[pyclass(name = "HandValue", frozen, module = "thirteen._core")]
#[derive(Clone, Copy)]
struct PyHandValue {
    value: core::HandValue,
    size: u8,
}

#[pymethods]
impl PyHandValue {
    /// Rebuilds a value from ``value`` (as returned by ``evaluate_batch``) and ``size``.
    #[staticmethod]
    #[pyo3(signature = (value, size = 5))]
    fn from_raw(value: u32, size: u8) -> PyResult<Self> {
        let category = value >> 28;
        if category > 9 || !(size == 3 || size == 5) {
            return Err(pyo3::exceptions::PyValueError::new_err("not a hand value"));
        }
        Ok(PyHandValue {
            value: core::HandValue(value),
            size,
        })
    }
    /// The category.
    #[getter]
    fn category(&self) -> Category {
        CATEGORIES[self.value.category() as usize]
    }
    /// The deciding ranks, in order.
    #[getter]
    fn ranks(&self) -> Vec<Rank> {
        self.value.ranks().into_iter().map(Rank::from).collect()
    }
    /// The first deciding rank.
    #[getter]
    fn high(&self) -> Rank {
        self.value.high().into()
    }
    /// 3 (front) or 5.
    #[getter]
    fn size(&self) -> u8 {
        self.size
    }
    /// The packed integer.
    #[getter]
    fn value(&self) -> u32 {
        self.value.raw()
    }
    fn __str__(&self) -> String {
        self.value.describe()
    }
    fn __repr__(&self) -> String {
        format!("<HandValue {}>", self.value.describe())
    }
    fn __hash__(&self) -> u64 {
        self.value.raw() as u64
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        match other.cast::<PyHandValue>() {
            Ok(o) => PyObject2::Bool(op.matches(self.value.cmp(&o.get().value))),
            Err(_) => PyObject2::NotImplemented,
        }
    }
}

fn wrong_count(got: usize) -> Error {
    Error::WrongCount {
        expected: 5,
        got,
        lane: None,
        player: None,
    }
}

/// Evaluates a 3- or 5-card hand (RULES.md 3).
///
/// Args: ``cards``: 3 or 5 ``Card`` (or a string); ``rules``: ``RuleSet`` or None (wheel and
/// deck come from it). Raises ``CountError`` for another size, ``DuplicateCardError`` for a card
/// beyond the deck, ``CardError`` for bad text.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
fn evaluate(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PyHandValue> {
    let py = cards.py();
    let cards = extract_cards(cards)?;
    with_rules(rules, |r| {
        core::card::check_duplicates(&cards, r.deck, |_| None).py_err(py)?;
        let value = core::evaluate(&cards, r.wheel)
            .ok_or_else(|| to_pyerr(py, wrong_count(cards.len())))?;
        Ok(PyHandValue {
            value,
            size: cards.len() as u8,
        })
    })
}

/// Evaluates many hands at once, without the GIL.
///
/// Args: ``hands``: numpy ``uint8`` array of shape ``(n, 5)`` or ``(n, 3)`` of card codes
/// (``Card.code``); ``rules``: ``RuleSet`` or None. Returns a numpy ``uint32`` array of the
/// packed values (``HandValue.value``; ``HandValue.from_raw`` rebuilds one).
/// Raises ``CardError`` for a code over 51, ``DuplicateCardError`` for a card beyond the deck,
/// ``CountError`` for another width.
#[pyfunction]
#[pyo3(signature = (hands, rules = None))]
fn evaluate_batch<'py>(
    hands: PyReadonlyArray2<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let py = hands.py();
    let width = hands.shape()[1];
    if width != 3 && width != 5 {
        return Err(to_pyerr(py, wrong_count(width)));
    }
    let owned;
    let data: &[u8] = match hands.as_slice() {
        Ok(s) => s,
        Err(_) => {
            owned = hands.as_array().iter().copied().collect::<Vec<u8>>();
            &owned
        }
    };
    let out = with_rules(rules, |r| {
        py.detach(|| core::eval::evaluate_batch(data, width, r.wheel, r.deck))
            .py_err(py)
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Compares two players' lanes (RULES.md 3): ``1`` when ``a`` wins, ``-1`` when ``b`` wins,
/// ``0`` for a draw. ``a``, ``b``: 3 or 5 cards each (same size); ``rules``: ``RuleSet`` or
/// None (``tie_break`` and ``wheel`` apply). Raises ``CountError``, ``DuplicateCardError``.
#[pyfunction]
#[pyo3(signature = (a, b, rules = None))]
fn compare_lanes(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<i8> {
    let py = a.py();
    let (a, b) = (extract_cards(a)?, extract_cards(b)?);
    with_rules(rules, |r| {
        core::card::check_duplicates(&a, r.deck, |_| None).py_err(py)?;
        core::card::check_duplicates(&b, r.deck, |_| None).py_err(py)?;
        Ok(match core::compare_lanes(&a, &b, r).py_err(py)? {
            Ordering::Greater => 1,
            Ordering::Less => -1,
            Ordering::Equal => 0,
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Arrangements.

/// A split of 13 cards into front (头墩, 3), middle (中墩, 5) and back (尾墩, 5) (RULES.md 2).
///
/// ``Arrangement(front, middle, back, rules=None)``: each lane a sequence of ``Card`` or a
/// string. Raises ``CountError`` naming a lane of the wrong size, ``DuplicateCardError`` for a
/// card beyond the deck of ``rules``, ``CardError`` for bad text.
#[pyclass(name = "Arrangement", frozen, module = "thirteen._core")]
#[derive(Clone, Copy)]
struct PyArrangement(core::Arrangement);

fn deck_of(rules: Option<&Bound<'_, PyAny>>) -> PyResult<core::DeckKind> {
    with_rules(rules, |r| Ok(r.deck))
}

#[pymethods]
impl PyArrangement {
    #[new]
    #[pyo3(signature = (front, middle, back, rules = None))]
    fn new(
        front: &Bound<'_, PyAny>,
        middle: &Bound<'_, PyAny>,
        back: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let py = front.py();
        let deck = deck_of(rules)?;
        let (f, m, b) = (
            extract_cards(front)?,
            extract_cards(middle)?,
            extract_cards(back)?,
        );
        core::Arrangement::new(&f, &m, &b, deck)
            .py_err(py)
            .map(PyArrangement)
    }

    /// Parses ``"Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"``; raises ``CountError`` when there
    /// are not three ``|``-separated lanes, and the errors of the constructor.
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn parse(py: Python<'_>, text: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let deck = deck_of(rules)?;
        core::Arrangement::parse(text, deck)
            .py_err(py)
            .map(PyArrangement)
    }

    /// The 3 front cards.
    #[getter]
    fn front<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.front)
    }
    /// The 5 middle cards.
    #[getter]
    fn middle<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.middle)
    }
    /// The 5 back cards.
    #[getter]
    fn back<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.back)
    }
    /// All 13 cards, front, middle, back.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.0.cards())
    }
    /// ``(front, middle, back)``.
    #[getter]
    fn lanes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, [self.front(py)?, self.middle(py)?, self.back(py)?])
    }
    /// The three lane values (front, middle, back) under ``rules``.
    #[pyo3(signature = (rules = None))]
    fn values(
        &self,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(PyHandValue, PyHandValue, PyHandValue)> {
        with_rules(rules, |r| {
            let v = self.0.values(r.wheel);
            let hv = |value, size| PyHandValue { value, size };
            Ok((hv(v[0], 3), hv(v[1], 5), hv(v[2], 5)))
        })
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Arrangement('{}')", self.0)
    }
    fn __hash__(&self) -> u64 {
        sorted_lanes(&self.0)
            .iter()
            .fold(0xcbf29ce484222325u64, |h, &c| {
                (h ^ c as u64).wrapping_mul(0x100000001b3)
            })
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        match (other.cast::<PyArrangement>(), op) {
            (Ok(o), CompareOp::Eq) => {
                PyObject2::Bool(sorted_lanes(&self.0) == sorted_lanes(&o.get().0))
            }
            (Ok(o), CompareOp::Ne) => {
                PyObject2::Bool(sorted_lanes(&self.0) != sorted_lanes(&o.get().0))
            }
            _ => PyObject2::NotImplemented,
        }
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyArrangement>().getattr("parse")?,
            (self.0.to_string(),),
        ))
    }
}

/// Lane contents with the order inside each lane ignored (for equality and hashing).
fn sorted_lanes(a: &core::Arrangement) -> [u8; 13] {
    let mut codes = a.cards().map(|c| c.code());
    codes[..3].sort_unstable();
    codes[3..8].sort_unstable();
    codes[8..].sort_unstable();
    codes
}

/// Whether an arrangement is fouled (相公 / 倒水): not front ≤ middle ≤ back in the rules'
/// order (RULES.md 2). ``arrangement``: ``Arrangement``; ``rules``: ``RuleSet`` or None.
#[pyfunction]
#[pyo3(signature = (arrangement, rules = None))]
fn is_foul(
    arrangement: &Bound<'_, PyArrangement>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    with_rules(rules, |r| Ok(core::is_foul(&arrangement.get().0, r)))
}

// ---------------------------------------------------------------------------------------------
// Card lists.

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

/// The compiled core of ``thirteen``; use the ``thirteen`` package, which re-exports it.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Rank>()?;
    m.add_class::<Suit>()?;
    m.add_class::<Category>()?;
    m.add_class::<PyCard>()?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyHandValue>()?;
    m.add_class::<PyArrangement>()?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(format_cards, m)?)?;
    m.add_function(wrap_pyfunction!(deck, m)?)?;
    m.add_function(wrap_pyfunction!(validate_hand, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(compare_lanes, m)?)?;
    m.add_function(wrap_pyfunction!(is_foul, m)?)?;
    Ok(())
}
