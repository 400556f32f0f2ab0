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

use std::fmt;

use super::card::Rank;

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

pub(super) const CAT_SHIFT: u32 = 28;
pub(crate) const PRIMARY_SHIFT: u32 = 14;
const LOW_MASK: u32 = (1 << PRIMARY_SHIFT) - 1;
pub(super) const WHEEL_MASK: u16 = 0b1_0000_0000_1111;

/// A hand value: its integer order is the game order for 3- and 5-card hands alike.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct HandValue(pub u32);

impl HandValue {
    #[inline]
    pub(super) const fn masks(cat: Category, primary: u32, kickers: u32) -> HandValue {
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
