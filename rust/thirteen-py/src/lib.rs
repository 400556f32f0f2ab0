//! Python bindings of `thirteen-core`: type conversions, error mapping and GIL release only.
//! All game logic lives in the core crate.

use std::cmp::Ordering;
use std::sync::OnceLock;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
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
    // A batch error keeps the class and details of the table's error, with the table named.
    let err = match err {
        Error::InTable { inner, .. } => *inner,
        other => other,
    };
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
            Error::InvalidArgument { .. } | Error::InTable { .. } => "ThirteenError",
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
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.value.ranks().into_iter().map(Rank::from))
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

// ---------------------------------------------------------------------------------------------
// Special hands.

/// A special hand (报到, RULES.md 4) as scored: ``key`` (rule-file key), ``units`` it collects,
/// ``tier`` (0 = highest) and, for three straights / flushes / straight flushes, the
/// ``arrangement`` that shows it (else None).
#[pyclass(name = "SpecialHand", frozen, module = "thirteen._core")]
#[derive(Clone)]
struct PySpecialHand(core::special::SpecialHand);

#[pymethods]
impl PySpecialHand {
    /// The special's key, e.g. ``"dragon"``.
    #[getter]
    fn key(&self) -> &'static str {
        self.0.key()
    }
    /// Units it collects from each opponent it beats.
    #[getter]
    fn units(&self) -> i64 {
        self.0.units
    }
    /// Its tier, 0 = highest.
    #[getter]
    fn tier(&self) -> u8 {
        self.0.tier
    }
    /// The arrangement showing the pattern (three-straights family), else None.
    #[getter]
    fn arrangement(&self) -> Option<PyArrangement> {
        self.0.arrangement.map(PyArrangement)
    }
    fn __repr__(&self) -> String {
        match &self.0.arrangement {
            Some(a) => format!(
                "SpecialHand({}, units={}, tier={}, arrangement='{a}')",
                self.0.key(),
                self.0.units,
                self.0.tier
            ),
            None => format!(
                "SpecialHand({}, units={}, tier={})",
                self.0.key(),
                self.0.units,
                self.0.tier
            ),
        }
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        match (other.cast::<PySpecialHand>(), op) {
            (Ok(o), CompareOp::Eq) => PyObject2::Bool(self.0 == o.get().0),
            (Ok(o), CompareOp::Ne) => PyObject2::Bool(self.0 != o.get().0),
            _ => PyObject2::NotImplemented,
        }
    }
}

fn thirteen_cards(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    deck: core::DeckKind,
) -> PyResult<[core::Card; 13]> {
    let cards = extract_cards(cards)?;
    core::card::validate_hand(&cards, deck, 13).py_err(py)?;
    Ok(cards.try_into().expect("13 cards checked"))
}

/// The highest special the 13 ``cards`` hold among those ``rules`` recognise, ranked by its
/// ``special_tiers`` (RULES.md 4), or None. Raises ``CountError`` unless 13 cards,
/// ``DuplicateCardError``, ``CardError``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
fn find_special(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PySpecialHand>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py
            .detach(|| core::special::find_special(&hand, r))
            .map(PySpecialHand))
    })
}

/// Every special the 13 ``cards`` hold among those ``rules`` recognise, as keys in canonical
/// order (RULES.md 4). Raises as ``find_special``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None))]
fn held_specials(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<&'static str>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(core::special::held_specials(&hand, r)
            .into_iter()
            .map(|k| core::rules::SPECIAL_KEYS[k])
            .collect())
    })
}

/// Special against special (RULES.md 4): ``1`` when ``a``'s tier is higher, ``-1`` when lower,
/// ``0`` for equal tiers (suits never decide).
#[pyfunction]
fn compare_specials(a: &Bound<'_, PySpecialHand>, b: &Bound<'_, PySpecialHand>) -> i8 {
    match core::special::compare_specials(&a.get().0, &b.get().0) {
        Ordering::Greater => 1,
        Ordering::Less => -1,
        Ordering::Equal => 0,
    }
}

// ---------------------------------------------------------------------------------------------
// Settlement.

/// A declared special hand (报到): the player's 13 ``cards`` (Cards or a string) and,
/// optionally, the ``special`` key named. Checked by ``settle`` (``CountError``,
/// ``DuplicateCardError``, ``FalseSpecialError`` naming the seat).
#[pyclass(name = "Declaration", frozen, module = "thirteen._core")]
struct PyDeclaration {
    cards: Vec<core::Card>,
    special: Option<String>,
}

#[pymethods]
impl PyDeclaration {
    #[new]
    #[pyo3(signature = (cards, special = None))]
    fn new(cards: &Bound<'_, PyAny>, special: Option<String>) -> PyResult<Self> {
        Ok(PyDeclaration {
            cards: extract_cards(cards)?,
            special,
        })
    }
    /// The cards.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_list(py, &self.cards)
    }
    /// The key named, or None.
    #[getter]
    fn special(&self) -> Option<&str> {
        self.special.as_deref()
    }
    fn __repr__(&self) -> String {
        format!(
            "Declaration('{}', special={})",
            core::format_cards(&self.cards, false),
            self.special
                .as_deref()
                .map_or("None".to_string(), |s| format!("'{s}'"))
        )
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject2 {
        let key = |d: &PyDeclaration| {
            let mut c: Vec<u8> = d.cards.iter().map(|c| c.code()).collect();
            c.sort_unstable();
            (c, d.special.clone())
        };
        match (other.cast::<PyDeclaration>(), op) {
            (Ok(o), CompareOp::Eq) => PyObject2::Bool(key(self) == key(o.get())),
            (Ok(o), CompareOp::Ne) => PyObject2::Bool(key(self) != key(o.get())),
            _ => PyObject2::NotImplemented,
        }
    }
}

/// A settled round (RULES.md 5), immutable. ``totals`` (units per seat, summing to 0),
/// ``fouled``, ``surrendered``, ``scoops`` (``(winner, loser)``), ``home_runs``; ``to_dict()``
/// gives every pair's lanes and steps and the reveal order as plain data.
#[pyclass(name = "Settlement", frozen, module = "thirteen._core")]
struct PySettlement(core::score::Settlement);

#[pymethods]
impl PySettlement {
    /// Units per seat (sum 0).
    #[getter]
    fn totals(&self) -> Vec<i64> {
        self.0.totals.clone()
    }
    /// Fouled seats (相公).
    #[getter]
    fn fouled(&self) -> Vec<usize> {
        self.0.fouled.clone()
    }
    /// Seats that surrendered.
    #[getter]
    fn surrendered(&self) -> Vec<usize> {
        self.0.surrendered.clone()
    }
    /// Scoops (打枪) as ``(winner, loser)``.
    #[getter]
    fn scoops(&self) -> Vec<(usize, usize)> {
        self.0.scoops.clone()
    }
    /// Seats that hit a home run (全垒打).
    #[getter]
    fn home_runs(&self) -> Vec<usize> {
        self.0.home_runs.clone()
    }
    /// Declared specials as scored, per seat (None where not declared).
    #[getter]
    fn specials(&self) -> Vec<Option<PySpecialHand>> {
        self.0
            .specials
            .iter()
            .map(|s| s.clone().map(PySpecialHand))
            .collect()
    }
    /// The settlement as plain dicts and lists: ``totals``, ``fouled``, ``surrendered``,
    /// ``specials``, ``scoops``, ``home_runs``, ``pairs`` (``seats``, ``lanes``, ``steps``,
    /// ``total``; signed from the lower seat's side) and ``reveal`` (per lane, seats weakest
    /// first).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.0;
        let d = PyDict::new(py);
        d.set_item("totals", &s.totals)?;
        d.set_item("fouled", &s.fouled)?;
        d.set_item("surrendered", &s.surrendered)?;
        let specials = pyo3::types::PyList::empty(py);
        for sp in &s.specials {
            match sp {
                None => specials.append(py.None())?,
                Some(sp) => {
                    let e = PyDict::new(py);
                    e.set_item("key", sp.key())?;
                    e.set_item("units", sp.units)?;
                    e.set_item("tier", sp.tier)?;
                    specials.append(e)?;
                }
            }
        }
        d.set_item("specials", specials)?;
        let scoops: Vec<[usize; 2]> = s.scoops.iter().map(|&(a, b)| [a, b]).collect();
        d.set_item("scoops", scoops)?;
        d.set_item("home_runs", &s.home_runs)?;
        let pairs = pyo3::types::PyList::empty(py);
        for pr in &s.pairs {
            let e = PyDict::new(py);
            e.set_item("seats", [pr.seats.0, pr.seats.1])?;
            let lanes = pyo3::types::PyList::empty(py);
            for l in pr.lanes.iter().flatten() {
                let ld = PyDict::new(py);
                ld.set_item("lane", l.lane.key())?;
                ld.set_item("winner", l.winner)?;
                ld.set_item("category", l.category.map(core::Category::key))?;
                ld.set_item("units", l.units)?;
                lanes.append(ld)?;
            }
            e.set_item("lanes", lanes)?;
            let steps = PyDict::new(py);
            for (name, v) in core::score::STEPS.iter().zip(pr.steps) {
                steps.set_item(name, v)?;
            }
            e.set_item("steps", steps)?;
            e.set_item("total", pr.total)?;
            pairs.append(e)?;
        }
        d.set_item("pairs", pairs)?;
        let reveal = pyo3::types::PyList::empty(py);
        for (lane, order) in Lane::ALL.iter().zip(&s.reveal) {
            let e = PyDict::new(py);
            e.set_item("lane", lane.key())?;
            e.set_item("order", order)?;
            reveal.append(e)?;
        }
        d.set_item("reveal", reveal)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!("<Settlement totals={:?}>", self.0.totals)
    }
}

/// Settles one round (RULES.md 5).
///
/// Args: ``submissions``: per seat an ``Arrangement`` or a ``Declaration``; ``rules``:
/// ``RuleSet``; ``banker``: the banker's seat (banker mode); ``stakes``: per seat the stake
/// multiplier (banker mode; default 1); ``surrendered``: seats that surrendered.
/// Returns a ``Settlement``. Raises, checked in this order (the first offender; nothing is
/// settled): ``PlayerCountError``; ``ThirteenError`` (banker seat, a stake below 1) or
/// ``CountError`` (stakes not one per seat); ``SurrenderError``; ``CountError`` (a seat
/// without 13 cards); ``DuplicateCardError``; ``FalseSpecialError``; ``FouledError`` (under
/// ``foul = "reject"``).
#[pyfunction]
#[pyo3(signature = (submissions, rules = None, *, banker = 0, stakes = None, surrendered = None))]
fn settle(
    submissions: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    banker: usize,
    stakes: Option<Vec<i64>>,
    surrendered: Option<Vec<usize>>,
) -> PyResult<PySettlement> {
    let surrendered = surrendered.unwrap_or_default();
    let py = submissions.py();
    let mut subs = Vec::with_capacity(4);
    for (seat, item) in submissions.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(a) = item.cast::<PyArrangement>() {
            subs.push(core::score::Submission::Arranged(a.get().0));
        } else if let Ok(d) = item.cast::<PyDeclaration>() {
            let d = d.get();
            subs.push(core::score::Submission::Declared {
                cards: d.cards.clone(),
                special: d.special.clone(),
            });
        } else {
            return Err(PyTypeError::new_err(format!(
                "seat {seat}: expected Arrangement or Declaration, got {}",
                item.get_type().name()?
            )));
        }
    }
    let args = core::score::TableArgs {
        banker,
        stakes,
        surrendered,
    };
    with_rules(rules, |r| {
        core::score::settle(&subs, r, &args)
            .py_err(py)
            .map(PySettlement)
    })
}

/// Settles many tables of arrangements at once, without the GIL, for simulations.
///
/// Args: ``tables``: numpy ``uint8`` array of shape ``(n_tables, players, 13)`` of card codes,
/// each row front (3), middle (5), back (5); ``rules``: ``RuleSet``; ``banker``: banker seat.
/// Returns a numpy ``int64`` array ``(n_tables, players)`` of units. Raises the errors of
/// ``settle`` for the first bad table (its message names the table index).
#[pyfunction]
#[pyo3(signature = (tables, rules = None, *, banker = 0))]
fn settle_batch<'py>(
    tables: numpy::PyReadonlyArray3<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
    banker: usize,
) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
    let py = tables.py();
    let shape = tables.shape().to_vec();
    if shape[2] != 13 {
        return Err(to_pyerr(
            py,
            Error::WrongCount {
                expected: 13,
                got: shape[2],
                lane: None,
                player: None,
            },
        ));
    }
    let owned;
    let data: &[u8] = match tables.as_slice() {
        Ok(s) => s,
        Err(_) => {
            owned = tables.as_array().iter().copied().collect::<Vec<u8>>();
            &owned
        }
    };
    let out = with_rules(rules, |r| {
        py.detach(|| core::score::settle_batch(data, shape[1], r, banker))
            .py_err(py)
    })?;
    let arr = numpy::PyArray1::from_vec(py, out);
    arr.reshape([shape[0], shape[1]])
}

/// What a player who left mid-round (逃跑 / 强退) pays, per seat (RULES.md 5 "Escape").
///
/// Args: ``rules``: ``RuleSet`` (its ``escape``); ``leaver``: the seat; ``results``: per seat the
/// round result in units (None for the leaver); its length is the players dealt in.
/// Returns units per seat (sum 0); never multiplied.
#[pyfunction]
fn escape_payments(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    leaver: usize,
    results: Vec<Option<i64>>,
) -> PyResult<Vec<i64>> {
    with_rules(rules, |r| {
        core::score::escape_payments(r, leaver, &results).py_err(py)
    })
}

/// Parses a rake percentage: an int, or a decimal string / float such as ``"2.5"``, into a
/// fraction ``(numerator, denominator)``.
fn parse_percent(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<(i64, i64)> {
    let bad = || {
        to_pyerr(
            py,
            Error::InvalidArgument {
                message: format!("bad rake percent {obj}"),
            },
        )
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    let text = if let Ok(i) = obj.extract::<i64>() {
        i.to_string()
    } else if obj.is_instance_of::<pyo3::types::PyFloat>() {
        obj.repr()?.to_string()
    } else if let Ok(s) = obj.cast::<PyString>() {
        s.to_cow()?.trim().to_string()
    } else {
        return Err(bad());
    };
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    if int.is_empty() && frac.is_empty() || frac.len() > 9 {
        return Err(bad());
    }
    let den = 10i64.pow(frac.len() as u32);
    let int: i64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let frac_v: i64 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| bad())?
    };
    if int < 0 || frac.starts_with(['+', '-']) {
        return Err(bad());
    }
    let num = int * den + frac_v;
    if num > 100 * den {
        return Err(bad());
    }
    Ok((num, den))
}

/// Units to money in integer minor currency units (RULES.md 5 "Money").
///
/// Args: ``units``: per player (escape payments included); ``stake``: minor units per unit
/// (int ≥ 0); ``rake``: ``(percent, cap)`` or None, ``percent`` an int or decimal string
/// (``"2.5"``), ``cap`` the most taken from one player (None: no cap). Returns per player
/// ``units × stake`` less ``floor(amount × percent / 100)`` (capped) from positive amounts.
/// Raises ``ThirteenError`` for a bad stake, percent or cap.
#[pyfunction]
#[pyo3(signature = (units, stake, rake = None))]
fn money(
    py: Python<'_>,
    units: Vec<i64>,
    stake: i64,
    rake: Option<(Bound<'_, PyAny>, Option<i64>)>,
) -> PyResult<Vec<i64>> {
    let invalid = |m: String| to_pyerr(py, Error::InvalidArgument { message: m });
    if stake < 0 {
        return Err(invalid(format!(
            "stake must be an integer >= 0, got {stake}"
        )));
    }
    let rake = match rake {
        None => None,
        Some((p, cap)) => {
            let (num, den) = parse_percent(py, &p)?;
            if cap.is_some_and(|c| c < 0) {
                return Err(invalid(format!(
                    "rake cap must be an integer >= 0 or None, got {cap:?}"
                )));
            }
            Some((num, den, cap))
        }
    };
    Ok(core::score::money(&units, stake, rake))
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
    m.add_class::<PySpecialHand>()?;
    m.add_class::<PyDeclaration>()?;
    m.add_class::<PySettlement>()?;
    m.add_function(wrap_pyfunction!(find_special, m)?)?;
    m.add_function(wrap_pyfunction!(held_specials, m)?)?;
    m.add_function(wrap_pyfunction!(compare_specials, m)?)?;
    m.add_function(wrap_pyfunction!(settle, m)?)?;
    m.add_function(wrap_pyfunction!(settle_batch, m)?)?;
    m.add_function(wrap_pyfunction!(escape_payments, m)?)?;
    m.add_function(wrap_pyfunction!(money, m)?)?;
    add_engine(m)?;
    add_dealing(m)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Arrangement engine: enumeration, lane tables, solving, hints.

fn split_filter(legal: bool, pareto: bool) -> core::split::SplitFilter {
    match (legal, pareto) {
        (_, true) => core::split::SplitFilter::Pareto,
        (true, false) => core::split::SplitFilter::Legal,
        (false, false) => core::split::SplitFilter::All,
    }
}

/// Number of splits of a 13-card hand (RULES.md 2): all 72,072, only the non-fouled ones
/// (``legal=True``), or the Pareto set of the legal ones (``pareto=True``: splits that no other
/// split matches or beats in every lane while beating them in one). Raises ``CountError``,
/// ``DuplicateCardError``, ``CardError``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, *, legal = false, pareto = false))]
fn count_splits(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    legal: bool,
    pareto: bool,
) -> PyResult<usize> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py.detach(|| {
            let s = core::split::HandSplits::new(&hand, r.wheel);
            match split_filter(legal, pareto) {
                core::split::SplitFilter::All => 72_072,
                core::split::SplitFilter::Legal => s.count_legal(),
                f => s.list(f).len(),
            }
        }))
    })
}

/// The splits of a 13-card hand as ``Arrangement`` objects, in enumeration order (middle
/// subsets in increasing position-mask order, then the fronts); filters as ``count_splits``.
#[pyfunction]
#[pyo3(signature = (cards, rules = None, *, legal = false, pareto = false))]
fn splits(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    legal: bool,
    pareto: bool,
) -> PyResult<Vec<PyArrangement>> {
    let py = cards.py();
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        Ok(py.detach(|| {
            let s = core::split::HandSplits::new(&hand, r.wheel);
            s.list(split_filter(legal, pareto))
                .iter()
                .map(|sp| PyArrangement(s.arrangement(sp)))
                .collect()
        }))
    })
}

/// Per-lane win-probability tables of the ``ev`` strategy (for each lane and hand value, how
/// often an opponent's lane is below, equal or above, and what it collects when above),
/// built by self-play for one rule set. ``counts()`` gives the data they are built from.
#[pyclass(name = "LaneTables", frozen, module = "thirteen._core")]
struct PyLaneTables {
    tables: core::solve::LaneTables,
    counts: core::solve::LaneCounts,
}

#[pymethods]
impl PyLaneTables {
    /// Builds tables from lane-value counts: three lists (front, middle, back) of
    /// ``(value, count)`` pairs, ``value`` as ``HandValue.value``.
    #[staticmethod]
    #[pyo3(signature = (rules, front, middle, back))]
    fn from_counts(
        rules: Option<&Bound<'_, PyAny>>,
        front: Vec<(u32, u64)>,
        middle: Vec<(u32, u64)>,
        back: Vec<(u32, u64)>,
    ) -> PyResult<Self> {
        let counts = [front, middle, back];
        with_rules(rules, |r| {
            Ok(PyLaneTables {
                tables: core::solve::LaneTables::from_counts(&counts, r),
                counts,
            })
        })
    }
    /// The counts: ``{"front": [(value, count), ...], "middle": ..., "back": ...}``.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (lane, c) in Lane::ALL.iter().zip(&self.counts) {
            d.set_item(lane.key(), c)?;
        }
        Ok(d)
    }
    /// Number of hands counted per lane.
    #[getter]
    fn samples(&self) -> u64 {
        self.counts[0].iter().map(|p| p.1).sum()
    }
}

/// Builds lane tables for ``rules`` by self-play, without the GIL and on every core:
/// ``iterations`` rounds of ``deals`` random tables of ``players``; round 0 arranges with the
/// greedy strategy, later rounds with ``ev`` on the previous round's tables (RULES.md 7 deal).
#[pyfunction]
#[pyo3(signature = (rules = None, *, players = 4, deals = 20000, iterations = 3, seed = 0))]
fn build_tables(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: usize,
    deals: usize,
    iterations: usize,
    seed: u64,
) -> PyResult<PyLaneTables> {
    if !(2..=4).contains(&players) {
        return Err(to_pyerr(
            py,
            Error::BadPlayerCount {
                got: players,
                allowed: vec![2, 3, 4],
            },
        ));
    }
    with_rules(rules, |r| {
        let counts = py.detach(|| core::solve::build_tables(r, players, deals, iterations, seed));
        Ok(PyLaneTables {
            tables: core::solve::LaneTables::from_counts(&counts, r),
            counts,
        })
    })
}

/// Trains lane tables for ``rules`` by fictitious play (the engine behind ``thirteen.train``),
/// without the GIL and on every core: ``players`` table size, ``deals`` random tables per
/// iteration, at most ``iterations``, stopping once an iteration changes the tables by less
/// than ``tolerance`` (a Kolmogorov–Smirnov distance); ``warm`` tables play iteration 0;
/// ``report(iteration, hands, change, gap)`` is called after each iteration and stops the run
/// when it returns a false value. Raises what ``report`` raises.
#[pyfunction]
#[pyo3(signature = (rules, *, players, deals, iterations, tolerance, seed, warm = None, report = None))]
#[allow(clippy::too_many_arguments)]
fn train(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    players: usize,
    deals: usize,
    iterations: usize,
    tolerance: f64,
    seed: u64,
    warm: Option<&Bound<'_, PyLaneTables>>,
    report: Option<Py<PyAny>>,
) -> PyResult<PyLaneTables> {
    if !(2..=4).contains(&players) {
        return Err(to_pyerr(
            py,
            Error::BadPlayerCount {
                got: players,
                allowed: vec![2, 3, 4],
            },
        ));
    }
    if deals == 0 || iterations == 0 || !tolerance.is_finite() || tolerance < 0.0 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "deals and iterations must be at least 1 and tolerance a number at least 0",
        ));
    }
    let warm_counts = warm.map(|w| w.get().counts.clone());
    with_rules(rules, |r| {
        let cfg = core::train::TrainConfig {
            players,
            deals,
            iterations,
            tolerance,
            seed,
        };
        let mut failure: Option<PyErr> = None;
        let counts = py.detach(|| {
            core::train::train(r, &cfg, warm_counts.as_ref(), |it| {
                let Some(report) = &report else { return true };
                Python::attach(|py| {
                    match report
                        .call1(py, (it.iteration, it.hands, it.change, it.gap))
                        .and_then(|v| v.is_truthy(py))
                    {
                        Ok(go_on) => go_on,
                        Err(e) => {
                            failure = Some(e);
                            false
                        }
                    }
                })
            })
        });
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(PyLaneTables {
            tables: core::solve::LaneTables::from_counts(&counts, r),
            counts,
        })
    })
}

fn context(py: Python<'_>, players: usize, banker: bool) -> PyResult<core::solve::Context> {
    if !(2..=4).contains(&players) {
        return Err(to_pyerr(
            py,
            Error::BadPlayerCount {
                got: players,
                allowed: vec![2, 3, 4],
            },
        ));
    }
    Ok(core::solve::Context {
        players,
        role: if banker {
            core::solve::Role::Banker
        } else {
            core::solve::Role::Player
        },
    })
}

type ChoiceTuple = (Option<PyArrangement>, Option<PySpecialHand>, f64);

fn choice_tuple(c: core::solve::Choice) -> ChoiceTuple {
    (
        c.arrangement.map(PyArrangement),
        c.special.map(PySpecialHand),
        c.expected,
    )
}

/// For tests and benchmarks of the exact search: ``(best expected units by the pruned
/// search, best by a scan of every legal split, backs searched, splits scored)`` for 13 cards.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, *, players = 4, banker = false))]
fn _ev_scan(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    players: usize,
    banker: bool,
) -> PyResult<(f64, f64, usize, usize)> {
    let py = cards.py();
    let ctx = context(py, players, banker)?;
    let hand = extract_cards(cards)?;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        core::card::validate_hand(&hand, r.deck, 13).py_err(py)?;
        let hand: [core::Card; 13] = hand.as_slice().try_into().expect("13");
        Ok(py.detach(|| core::solve::ev_check(&hand, r, t, ctx)))
    })
}

/// Solves one hand (the engine behind ``thirteen.solve``): ``cards`` 13 (or ``rules.dealt``)
/// cards; ``strategy`` ``"ev"``, ``"mc"`` or ``"greedy"``. Returns ``(kept cards, [(arrangement
/// or None, special or None, expected units), ...])`` best first.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, *, players = 4, banker = false, strategy = "ev", samples = 1000, seed = 0, top = 1, distinct = false))]
#[allow(clippy::too_many_arguments)]
fn _solve(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    players: usize,
    banker: bool,
    strategy: &str,
    samples: usize,
    seed: u64,
    top: usize,
    distinct: bool,
) -> PyResult<(Vec<PyCard>, Vec<ChoiceTuple>)> {
    let py = cards.py();
    let ctx = context(py, players, banker)?;
    let dealt = extract_cards(cards)?;
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        let size = if dealt.len() == 13 {
            13
        } else {
            r.dealt as usize
        };
        core::card::validate_hand(&dealt, r.deck, size).py_err(py)?;
        let (kept, choices) = py.detach(|| {
            let kept: Vec<core::Card> = if dealt.len() == 13 {
                dealt.clone()
            } else {
                core::solve::solve_ev_keep(&dealt, r, t, ctx).0
            };
            let hand: [core::Card; 13] = kept.as_slice().try_into().expect("13");
            let choices = match strategy {
                "ev" => Ok(core::solve::solve_ev_with(&hand, r, t, ctx, top, distinct)),
                "mc" => Ok(core::solve::solve_mc(
                    &hand,
                    r,
                    t,
                    ctx,
                    samples,
                    seed,
                    top.max(8),
                )),
                "greedy" => Ok(vec![core::solve::Choice {
                    arrangement: Some(core::solve::solve_greedy(&hand, r)),
                    special: None,
                    expected: f64::NAN,
                }]),
                other => Err(other.to_string()),
            };
            (kept, choices)
        });
        let choices = choices.map_err(|s| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "unknown strategy {s:?} (expected \"ev\", \"mc\" or \"greedy\")"
            ))
        })?;
        Ok((
            kept.into_iter().map(PyCard).collect(),
            choices.into_iter().map(choice_tuple).collect(),
        ))
    })
}

/// The legal ways to finish a hand with some cards already placed (engine behind
/// ``thirteen.complete``): ``front``, ``middle``, ``back`` the placed cards. Returns
/// ``[(arrangement, None, expected units), ...]`` best first, at most ``limit``.
#[pyfunction]
#[pyo3(signature = (cards, rules, tables, *, front, middle, back, players = 4, banker = false, limit = 20))]
#[allow(clippy::too_many_arguments)]
fn _complete(
    cards: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    tables: &Bound<'_, PyLaneTables>,
    front: &Bound<'_, PyAny>,
    middle: &Bound<'_, PyAny>,
    back: &Bound<'_, PyAny>,
    players: usize,
    banker: bool,
    limit: usize,
) -> PyResult<Vec<ChoiceTuple>> {
    let py = cards.py();
    let ctx = context(py, players, banker)?;
    let placed = [
        extract_cards(front)?,
        extract_cards(middle)?,
        extract_cards(back)?,
    ];
    let t = &tables.get().tables;
    with_rules(rules, |r| {
        let hand = thirteen_cards(py, cards, r.deck)?;
        for (lane, cards) in Lane::ALL.iter().zip(&placed) {
            if cards.len() > lane.size() {
                return Err(to_pyerr(
                    py,
                    Error::WrongCount {
                        expected: lane.size(),
                        got: cards.len(),
                        lane: Some(*lane),
                        player: None,
                    },
                ));
            }
        }
        let out = py.detach(|| core::solve::complete(&hand, r, t, ctx, &placed, limit));
        match out {
            Some(v) => Ok(v.into_iter().map(choice_tuple).collect()),
            None => {
                let all: Vec<core::Card> = placed.iter().flatten().copied().collect();
                let mut counts = [0u8; 52];
                let mut held = [0u8; 52];
                for c in hand {
                    held[c.code() as usize] += 1;
                }
                let card = all
                    .into_iter()
                    .find(|c| {
                        counts[c.code() as usize] += 1;
                        counts[c.code() as usize] > held[c.code() as usize]
                    })
                    .expect("a placed card is not held");
                Err(to_pyerr(
                    py,
                    Error::InvalidArgument {
                        message: format!("placed card {card} is not in the hand (or placed twice)"),
                    },
                ))
            }
        }
    })
}

/// Solves many hands at once on every core, without the GIL.
///
/// Args: ``hands``: numpy ``uint8`` array ``(n, 13)`` (or ``(n, rules.dealt)``) of card codes;
/// ``rules``; ``tables``: ``LaneTables``; ``players``; ``strategy``: ``"ev"`` or ``"greedy"``.
/// Returns ``(arrangements, specials)``: ``uint8 (n, 13)`` card codes in front, middle, back
/// order (a declared hand: its 13 kept cards) and ``int8 (n,)`` the declared special's
/// canonical index, −1 when arranged.
#[pyfunction]
#[pyo3(signature = (hands, rules, tables, *, players = 4, banker = false, strategy = "ev"))]
#[allow(clippy::type_complexity)]
fn solve_batch<'py>(
    hands: PyReadonlyArray2<'py, u8>,
    rules: Option<&Bound<'py, PyAny>>,
    tables: &Bound<'py, PyLaneTables>,
    players: usize,
    banker: bool,
    strategy: &str,
) -> PyResult<(Bound<'py, numpy::PyArray2<u8>>, Bound<'py, PyArray1<i8>>)> {
    let py = hands.py();
    let ctx = context(py, players, banker)?;
    let strategy = match strategy {
        "ev" => core::solve::Strategy::Ev,
        "greedy" => core::solve::Strategy::Greedy,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown batch strategy {other:?} (expected \"ev\" or \"greedy\")"
            )))
        }
    };
    let width = hands.shape()[1];
    let t = &tables.get().tables;
    let rows: Vec<Vec<u8>> = hands
        .as_array()
        .rows()
        .into_iter()
        .map(|r| r.to_vec())
        .collect();
    with_rules(rules, |r| {
        if width != 13 && width != r.dealt as usize {
            return Err(to_pyerr(
                py,
                Error::WrongCount {
                    expected: r.dealt as usize,
                    got: width,
                    lane: None,
                    player: None,
                },
            ));
        }
        let mut parsed = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let cards: Vec<core::Card> = row
                .iter()
                .enumerate()
                .map(|(j, &c)| {
                    core::Card::from_code(c).ok_or(Error::BadCard {
                        token: c.to_string(),
                        position: i * width + j,
                    })
                })
                .collect::<Result<_, _>>()
                .py_err(py)?;
            core::card::check_duplicates(&cards, r.deck, |_| None)
                .map_err(|e| Error::InTable {
                    table: i,
                    inner: Box::new(e),
                })
                .py_err(py)?;
            parsed.push(cards);
        }
        let out = py.detach(|| core::solve::solve_batch(&parsed, r, t, ctx, strategy));
        let mut codes = Vec::with_capacity(out.len() * 13);
        let mut specials = Vec::with_capacity(out.len());
        for (cards, sp) in out {
            codes.extend(cards.map(|c| c.code()));
            specials.push(sp.map_or(-1, |k| k as i8));
        }
        let n = specials.len();
        Ok((
            PyArray1::from_vec(py, codes).reshape([n, 13])?,
            PyArray1::from_vec(py, specials),
        ))
    })
}

/// Registers the arrangement engine's functions and classes.
fn add_engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLaneTables>()?;
    m.add_function(wrap_pyfunction!(count_splits, m)?)?;
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(build_tables, m)?)?;
    m.add_function(wrap_pyfunction!(train, m)?)?;
    m.add_function(wrap_pyfunction!(_solve, m)?)?;
    m.add_function(wrap_pyfunction!(_complete, m)?)?;
    m.add_function(wrap_pyfunction!(_ev_scan, m)?)?;
    m.add_function(wrap_pyfunction!(solve_batch, m)?)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Dealing.

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

/// A seed argument: an int from 0 to 2**64 − 1, else ``ThirteenError``.
fn seed_value(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    obj.extract::<u64>().map_err(|_| {
        to_pyerr(
            py,
            Error::InvalidArgument {
                message: format!("a seed is an integer from 0 to 2**64 - 1, got {obj}"),
            },
        )
    })
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
fn add_dealing(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeal>()?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(swap_cards, m)?)?;
    Ok(())
}
