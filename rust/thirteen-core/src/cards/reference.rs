//! The straightforward evaluators (RULES.md 3): hand values computed from rank masks. They
//! fill the lookup tables of [`super::eval_table`] and serve as the test oracle.

use super::card::Card;
use super::value::{Category, HandValue, Wheel, CAT_SHIFT, WHEEL_MASK};

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
