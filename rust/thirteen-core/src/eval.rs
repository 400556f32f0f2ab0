//! Hand values (RULES.md 3): a hand's value is one `u32` whose integer order is the game order.
//!
//! Layout: the category in bits 28..32, then a category-specific payload whose integer order is
//! the order of the deciding ranks:
//!
//! * high card, one pair, two pair, three of a kind, full house, four and five of a kind:
//!   `primary << 14 | kickers`, where `primary` is the bit mask of the rank(s) that decide first
//!   (the pair, the two pairs, the trips, the quads) and `kickers` the bit mask of the others
//!   (for a full house the pair). For sets of distinct ranks, integer order of masks equals the
//!   lexicographic order of the ranks sorted high to low, and a shorter set that is a prefix of
//!   a longer one is smaller: exactly "a missing kicker counts below every rank", so 3-card
//!   front values share the scale with 5-card values and the foul check is two comparisons.
//! * straight and straight flush: `primary = 2 × top index` (five = 3 … ace = 12); the wheel is
//!   `2 × 3` when `wheel = low` and `2 × 12 − 1` (between king-high and ace-high) when `second`.
//! * flush: five 4-bit nibbles, `rank index + 1` high to low (a flush may hold a pair with the
//!   extra-diamonds deck).
//!
//! [`evaluate5`] and [`evaluate3`] read the values from the tables of [`crate::eval_table`];
//! [`evaluate5_reference`] and [`evaluate3_reference`] compute them straightforwardly from rank
//! masks, fill those tables and serve as the test oracle.

use std::fmt;

use crate::card::{Card, DeckKind, Rank};
use crate::error::{Error, Result};
use crate::eval_table::{card_key, tables};

/// Where the wheel `A 2 3 4 5` ranks among straights (RULES.md 3).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Wheel {
    /// The lowest straight, five high.
    #[default]
    Low,
    /// Second highest, just below `T J Q K A`.
    Second,
}

/// Hand categories, low to high (RULES.md 3).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Category {
    HighCard = 0,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    FiveOfAKind,
}

impl Category {
    /// All categories, low to high.
    pub const ALL: [Category; 10] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
        Category::FiveOfAKind,
    ];

    /// The key used in rule files and test vectors (`"two_pair"`).
    pub fn key(self) -> &'static str {
        [
            "high_card",
            "one_pair",
            "two_pair",
            "three_of_a_kind",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
            "five_of_a_kind",
        ][self as usize]
    }

    /// Parses a category key.
    pub fn from_key(key: &str) -> Option<Category> {
        Category::ALL.iter().copied().find(|c| c.key() == key)
    }

    /// Readable name ("two pair").
    pub fn name(self) -> &'static str {
        [
            "high card",
            "one pair",
            "two pair",
            "three of a kind",
            "straight",
            "flush",
            "full house",
            "four of a kind",
            "straight flush",
            "five of a kind",
        ][self as usize]
    }
}

const CAT_SHIFT: u32 = 28;
pub(crate) const PRIMARY_SHIFT: u32 = 14;
const LOW_MASK: u32 = (1 << PRIMARY_SHIFT) - 1;
const WHEEL_MASK: u16 = 0b1_0000_0000_1111;

/// A hand value: its integer order is the game order for 3- and 5-card hands alike.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct HandValue(pub u32);

impl HandValue {
    #[inline]
    const fn masks(cat: Category, primary: u32, kickers: u32) -> HandValue {
        HandValue(((cat as u32) << CAT_SHIFT) | (primary << PRIMARY_SHIFT) | kickers)
    }

    /// The category.
    #[inline]
    pub fn category(self) -> Category {
        Category::ALL[(self.0 >> CAT_SHIFT) as usize]
    }

    /// The raw integer.
    #[inline]
    pub fn raw(self) -> u32 {
        self.0
    }

    /// The primary field's 13 bits: the deciding ranks' mask (rank index `i` at bit `i`) of
    /// a hand that is not a straight or a flush (see the module docs).
    #[inline]
    pub(crate) fn primary_mask(self) -> u32 {
        (self.0 >> PRIMARY_SHIFT) & 0x1fff
    }

    /// The low field's 13 bits: the kickers' rank mask of a hand that is not a flush.
    #[inline]
    pub(crate) fn kicker_mask(self) -> u32 {
        self.0 & 0x1fff
    }

    /// The deciding ranks, in order (RULES.md 3 table); see the module docs.
    pub fn ranks(self) -> Vec<Rank> {
        let primary = (self.0 >> PRIMARY_SHIFT) & LOW_MASK;
        let low = self.0 & LOW_MASK;
        match self.category() {
            Category::Straight | Category::StraightFlush => {
                let top = if primary & 1 == 1 { 12 } else { primary / 2 };
                vec![Rank::from_index(top as u8)]
            }
            Category::Flush => (0..5)
                .map(|i| Rank::from_index(((self.0 >> (16 - 4 * i)) & 15) as u8 - 1))
                .collect(),
            _ => {
                let mut out = ranks_of_mask(primary);
                out.extend(ranks_of_mask(low));
                out
            }
        }
    }

    /// The first deciding rank (`high` in the test vectors).
    pub fn high(self) -> Rank {
        self.ranks()[0]
    }

    /// Whether this is the wheel when `wheel = second` (reads as "ace-to-five").
    fn is_second_wheel(self) -> bool {
        matches!(
            self.category(),
            Category::Straight | Category::StraightFlush
        ) && (self.0 >> PRIMARY_SHIFT) & 1 == 1
    }

    /// Readable description, e.g. "two pair, kings and sevens".
    pub fn describe(self) -> String {
        let cat = self.category();
        let r = self.ranks();
        let tail = match cat {
            Category::HighCard => r[0].name().to_string(),
            Category::OnePair | Category::ThreeOfAKind | Category::FourOfAKind => {
                r[0].plural().to_string()
            }
            Category::FiveOfAKind => r[0].plural().to_string(),
            Category::TwoPair => format!("{} and {}", r[0].plural(), r[1].plural()),
            Category::FullHouse => format!("{} over {}", r[0].plural(), r[1].plural()),
            Category::Straight | Category::StraightFlush if self.is_second_wheel() => {
                "ace-to-five".to_string()
            }
            Category::Straight | Category::StraightFlush | Category::Flush => {
                format!("{} high", r[0].name())
            }
        };
        format!("{}, {}", cat.name(), tail)
    }
}

impl fmt::Debug for HandValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HandValue({:#010x}: {})", self.0, self.describe())
    }
}

impl fmt::Display for HandValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

fn ranks_of_mask(mut mask: u32) -> Vec<Rank> {
    let mut out = Vec::with_capacity(5);
    while mask != 0 {
        let top = 31 - mask.leading_zeros();
        out.push(Rank::from_index(top as u8));
        mask &= !(1 << top);
    }
    out
}

/// The straight top index (3 = five … 12 = ace) of a 5-rank mask, or `None`.
const fn straight_top(mask: u16) -> Option<u32> {
    if mask == WHEEL_MASK {
        return Some(3);
    }
    let low = mask.trailing_zeros();
    if mask.count_ones() == 5 && (mask >> low) == 0b11111 {
        Some(low + 4)
    } else {
        None
    }
}

const fn straight_primary(top: u32, mask: u16, wheel: Wheel) -> u32 {
    if mask == WHEEL_MASK && matches!(wheel, Wheel::Second) {
        2 * 12 - 1
    } else {
        2 * top
    }
}

const fn flush_nibbles(mask: u16) -> u32 {
    let mut out = 0u32;
    let mut i = 13;
    while i > 0 {
        i -= 1;
        if mask & (1 << i) != 0 {
            out = (out << 4) | (i + 1);
        }
    }
    out
}

/// Values of five distinct ranks by mask: `[plain, suited]` per wheel rule.
const fn build_tables(wheel: Wheel) -> [[u32; 8192]; 2] {
    let mut t = [[0u32; 8192]; 2];
    let mut m = 0usize;
    while m < 8192 {
        let mask = m as u16;
        if mask.count_ones() == 5 {
            match straight_top(mask) {
                Some(top) => {
                    let p = straight_primary(top, mask, wheel);
                    t[0][m] = HandValue::masks(Category::Straight, p, 0).0;
                    t[1][m] = HandValue::masks(Category::StraightFlush, p, 0).0;
                }
                None => {
                    t[0][m] = HandValue::masks(Category::HighCard, m as u32, 0).0;
                    t[1][m] = ((Category::Flush as u32) << CAT_SHIFT) | flush_nibbles(mask);
                }
            }
        }
        m += 1;
    }
    t
}

static TABLE_LOW: [[u32; 8192]; 2] = build_tables(Wheel::Low);
static TABLE_SECOND: [[u32; 8192]; 2] = build_tables(Wheel::Second);

/// Evaluates five cards (RULES.md 3) by table lookup ([`crate::eval_table`]). Duplicates
/// (extra deck) are allowed; the caller checks them against the deck. Equals
/// [`evaluate5_reference`] for any five card codes.
#[inline]
pub fn evaluate5(cards: &[Card; 5], wheel: Wheel) -> HandValue {
    let key = cards.iter().fold(0, |key, &c| key + card_key(c));
    tables().value5(key, wheel)
}

/// Evaluates five cards (RULES.md 3) from their rank masks: the straightforward evaluator that
/// fills the lookup tables and checks them. Duplicates (extra deck) are allowed.
pub fn evaluate5_reference(cards: &[Card; 5], wheel: Wheel) -> HandValue {
    let c = cards.map(|c| c.code());
    let suited = ((c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4])) & 3 == 0;
    let (mut m1, mut m2, mut m3, mut m4, mut m5) = (0u16, 0u16, 0u16, 0u16, 0u16);
    for code in c {
        let b = 1u16 << (code >> 2);
        m5 |= m4 & b;
        m4 |= m3 & b;
        m3 |= m2 & b;
        m2 |= m1 & b;
        m1 |= b;
    }
    if m2 == 0 {
        let table = match wheel {
            Wheel::Low => &TABLE_LOW,
            Wheel::Second => &TABLE_SECOND,
        };
        return HandValue(table[suited as usize][m1 as usize]);
    }
    paired(m1, m2, m3, m4, m5, suited, &c)
}

#[cold]
fn suited_with_pair(codes: &[u8; 5]) -> HandValue {
    let mut ranks = codes.map(|c| (c >> 2) as u32 + 1);
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let nibbles = ranks.iter().fold(0u32, |acc, r| (acc << 4) | r);
    HandValue(((Category::Flush as u32) << CAT_SHIFT) | nibbles)
}

#[inline]
fn paired(m1: u16, m2: u16, m3: u16, m4: u16, m5: u16, suited: bool, c: &[u8; 5]) -> HandValue {
    let (m1, m2, m3, m4) = (m1 as u32, m2 as u32, m3 as u32, m4 as u32);
    if m5 != 0 {
        HandValue::masks(Category::FiveOfAKind, m5 as u32, 0)
    } else if m4 != 0 {
        HandValue::masks(Category::FourOfAKind, m4, m1 & !m4)
    } else if m3 != 0 {
        if m2 != m3 {
            HandValue::masks(Category::FullHouse, m3, m2 & !m3)
        } else {
            HandValue::masks(Category::ThreeOfAKind, m3, m1 & !m3)
        }
    } else if suited {
        suited_with_pair(c)
    } else if m2.count_ones() == 2 {
        HandValue::masks(Category::TwoPair, m2, m1 & !m2)
    } else {
        HandValue::masks(Category::OnePair, m2, m1 & !m2)
    }
}

/// Evaluates a 3-card front (RULES.md 3): high card, one pair or three of a kind only, by
/// table lookup ([`crate::eval_table`]). Equals [`evaluate3_reference`] for any three cards.
#[inline]
pub fn evaluate3(cards: &[Card; 3]) -> HandValue {
    let key = cards.iter().fold(0, |key, &c| key + card_key(c));
    tables().value3(key)
}

/// Evaluates a 3-card front (RULES.md 3) from its rank masks: the straightforward evaluator
/// that fills the lookup table and checks it.
pub fn evaluate3_reference(cards: &[Card; 3]) -> HandValue {
    let (mut m1, mut m2, mut m3) = (0u32, 0u32, 0u32);
    for card in cards {
        let b = 1u32 << card.rank_index();
        m3 |= m2 & b;
        m2 |= m1 & b;
        m1 |= b;
    }
    if m3 != 0 {
        HandValue::masks(Category::ThreeOfAKind, m3, 0)
    } else if m2 != 0 {
        HandValue::masks(Category::OnePair, m2, m1 & !m2)
    } else {
        HandValue::masks(Category::HighCard, m1, 0)
    }
}

/// Evaluates a 3- or 5-card hand; `None` for any other size.
pub fn evaluate(cards: &[Card], wheel: Wheel) -> Option<HandValue> {
    match cards.len() {
        3 => Some(evaluate3(cards.try_into().ok()?)),
        5 => Some(evaluate5(cards.try_into().ok()?, wheel)),
        _ => None,
    }
}

/// Evaluates `data.len() / width` hands of `width` (3 or 5) card codes, row after row, into
/// their raw values. Codes must be below 52 ([`Error::BadCard`]), no card may occur in a
/// hand more often than `deck` holds it ([`Error::DuplicateCard`]), and another width, or data
/// that is not whole rows, is an [`Error::WrongCount`].
pub fn evaluate_batch(data: &[u8], width: usize, wheel: Wheel, deck: DeckKind) -> Result<Vec<u32>> {
    if width != 3 && width != 5 {
        return Err(Error::WrongCount {
            expected: 5,
            got: width,
            lane: None,
            player: None,
        });
    }
    if data.len() % width != 0 {
        return Err(Error::WrongCount {
            expected: width,
            got: data.len() % width,
            lane: None,
            player: None,
        });
    }
    // Every code first, in one pass the compiler vectorises (the largest code), so that the
    // loop over the rows has no branch per card.
    if data.iter().copied().max().is_some_and(|code| code >= 52) {
        let position = data.iter().position(|&c| c >= 52).expect("a code over 51");
        return Err(Error::BadCard {
            token: data[position].to_string(),
            position,
        });
    }
    let t = tables();
    if width == 5 {
        rows::<5>(data, deck, |key| t.value5(key, wheel).0)
    } else {
        rows::<3>(data, deck, |key| t.value3(key).0)
    }
}

/// The values of rows of `W` codes, each below 52: a row holding a card more often than
/// `deck` has it is an [`Error::DuplicateCard`].
#[inline(always)]
fn rows<const W: usize>(
    data: &[u8],
    deck: DeckKind,
    value: impl Fn(u32) -> u32,
) -> Result<Vec<u32>> {
    let extra = deck == DeckKind::ExtraDiamonds;
    // Diamonds (suit 0) may appear twice with the extra deck, never three times.
    let allowed = if extra { DIAMOND_BITS } else { 0 };
    let mut out = Vec::with_capacity(data.len() / W);
    for hand in data.chunks_exact(W) {
        let (mut seen, mut twice, mut key) = (0u64, 0u64, 0u32);
        for &code in hand {
            let bit = 1u64 << code;
            twice |= seen & bit;
            seen |= bit;
            key += card_key(Card(code));
        }
        if twice & !allowed != 0 || (extra && twice != 0 && has_triple(hand)) {
            return Err(duplicate(hand, deck));
        }
        out.push(value(key));
    }
    Ok(out)
}

/// The error for a row holding a card more often than `deck` has it: the first such card.
#[cold]
fn duplicate(hand: &[u8], deck: DeckKind) -> Error {
    let mut counts = [0u8; 52];
    let card = hand
        .iter()
        .map(|&c| Card::from_code(c).expect("checked"))
        .find(|c| {
            counts[c.code() as usize] += 1;
            counts[c.code() as usize] > deck.copies(*c)
        })
        .expect("a duplicate was seen");
    Error::DuplicateCard { card, player: None }
}

const DIAMOND_BITS: u64 = 0x1_1111_1111_1111;

fn has_triple(hand: &[u8]) -> bool {
    hand.iter()
        .any(|c| hand.iter().filter(|d| *d == c).count() > 2)
}

/// The suit consulted by `tie_break = "suit"` (RULES.md 3): the best suit among the cards of
/// the first deciding rank.
pub fn tie_suit(cards: &[Card], value: HandValue) -> crate::card::Suit {
    let high = value.high();
    cards
        .iter()
        .filter(|c| c.rank() == high)
        .map(|c| c.suit())
        .max()
        .expect("the first deciding rank is held")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn v(text: &str, wheel: Wheel) -> HandValue {
        evaluate(&parse_cards(text).unwrap(), wheel).unwrap()
    }
    fn lo(text: &str) -> HandValue {
        v(text, Wheel::Low)
    }

    #[test]
    fn categories_and_describe() {
        let cases = [
            ("As Kd 9c 7h 2s", "high card, ace"),
            ("Qs Qd 9c 7h 2s", "one pair, queens"),
            ("Ks Kd 7c 7h 2s", "two pair, kings and sevens"),
            ("5s 5d 5c 7h 2s", "three of a kind, fives"),
            ("6s 7d 8c 9h Ts", "straight, ten high"),
            ("As 2d 3c 4h 5s", "straight, five high"),
            ("As Js 9s 7s 2s", "flush, ace high"),
            ("Ks Kd Kc 7h 7s", "full house, kings over sevens"),
            ("As Ad Ac Ah 2s", "four of a kind, aces"),
            ("9s Ts Js Qs Ks", "straight flush, king high"),
            ("Ad Ad Ac Ah As", "five of a kind, aces"),
            ("6s 6d 6c", "three of a kind, sixes"),
            ("Ad Ad Ac", "three of a kind, aces"),
        ];
        for (text, want) in cases {
            assert_eq!(lo(text).describe(), want, "{text}");
        }
        assert_eq!(
            v("As 2d 3c 4h 5s", Wheel::Second).describe(),
            "straight, ace-to-five"
        );
    }

    #[test]
    fn wheel_both_ways() {
        let wheel = "As 2d 3c 4h 5s";
        let six = "2s 3d 4c 5h 6s";
        let king = "9s Td Jc Qh Ks";
        let broadway = "Ts Jd Qc Kh As";
        assert!(lo(wheel) < lo(six));
        assert_eq!(lo(wheel).high(), Rank::Five);
        let s = |t| v(t, Wheel::Second);
        assert!(s(wheel) > s(king) && s(wheel) < s(broadway) && s(wheel) > s(six));
        assert_eq!(s(wheel).high(), Rank::Ace);
        assert_eq!(lo("Ks As 2d 3c 4h").category(), Category::HighCard);
    }

    #[test]
    fn kickers_and_cross_size() {
        assert!(lo("5h 5s Kh 9c 8h") > lo("5d 5c Qs 9d 7s"));
        assert!(lo("6s 6h 3s 3h As") < lo("7h 7s 2h 2s Ac"));
        assert!(lo("Ah Ad Kc") > lo("As Ac Qd 3c 2d"));
        assert!(lo("Ah Ad Kc") < lo("As Ac Kd 3c 2d"));
        assert!(lo("Qh Qd 3c") < lo("9s Tc Jd Qs Kh"));
        assert!(lo("Ah Ad Ac") > lo("2s 2h 2d 5c 7c"));
        assert!(lo("Qh 8d 3s") < lo("Ac Kd 9h 6s 2c"));
        assert!(lo("Ac Kd 2h") < lo("As Kc 3d 2s 4h"));
    }

    #[test]
    fn batch_equals_one_by_one_and_names_errors() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
            let mut cards = deck.cards();
            for (width, wheel) in [(5, Wheel::Low), (5, Wheel::Second), (3, Wheel::Low)] {
                let mut data = Vec::new();
                for _ in 0..2_000 {
                    cards.shuffle(&mut rng);
                    data.extend(cards[..width].iter().map(|c| c.code()));
                }
                let got = evaluate_batch(&data, width, wheel, deck).unwrap();
                let want: Vec<u32> = data
                    .chunks_exact(width)
                    .map(|h| {
                        let hand: Vec<Card> = h.iter().map(|&c| Card(c)).collect();
                        evaluate(&hand, wheel).unwrap().0
                    })
                    .collect();
                assert_eq!(got, want, "{deck:?} {width} {wheel:?}");
            }
        }
        let batch =
            |data: &[u8], width| evaluate_batch(data, width, Wheel::Low, DeckKind::Standard);
        assert!(matches!(
            batch(&[0, 1, 2, 3, 4, 5, 6, 7], 4),
            Err(Error::WrongCount {
                expected: 5,
                got: 4,
                ..
            })
        ));
        assert!(matches!(
            batch(&[0, 1, 2, 3, 4, 5, 6, 7, 52], 3),
            Err(Error::BadCard { position: 8, .. })
        ));
        // Every code is checked before any row: a code over 51 is named even after a row
        // holding a card twice.
        assert!(matches!(
            batch(&[0, 0, 1, 60, 2, 3], 3),
            Err(Error::BadCard { position: 3, .. })
        ));
        match batch(&[0, 1, 2, 8, 9, 8], 3) {
            Err(Error::DuplicateCard { card, .. }) => assert_eq!(card.to_string(), "4d"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn extra_deck_flush_with_pairs() {
        let fp = lo("Ad Ad Kd Kd 4d");
        assert_eq!(fp.category(), Category::Flush);
        assert_eq!(
            fp.ranks(),
            vec![Rank::Ace, Rank::Ace, Rank::King, Rank::King, Rank::Four]
        );
        assert!(fp > lo("Ah Kh Qh Jh 9h"));
        assert!(fp < lo("Ks Kd Kc 7h 7s"));
        assert_eq!(lo("Ad Ad Ac Ah Kd").category(), Category::FourOfAKind);
    }
}
