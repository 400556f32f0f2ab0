//! The horse card (马牌, RULES.md 5 step 8, a house option): a pair's result doubles once when
//! either side holds the marked card.

use crate::cards::Card;

/// The horse card of a rule set (RULES.md 6 `horse_card`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HorseCard {
    /// The marked card.
    pub card: Card,
}

impl HorseCard {
    /// Whether `cards` (the 13 a seat played or declared) hold the card.
    #[inline]
    pub fn held_by(self, mut cards: impl Iterator<Item = Card>) -> bool {
        cards.any(|c| c == self.card)
    }

    /// Step 8: what the horse card adds to a pair whose result so far is `so_far` when either
    /// side holds it (the result doubles).
    #[inline]
    pub fn pays(self, so_far: i64) -> i64 {
        so_far
    }

    /// What expected units `e` are worth when the seat keeps the card (they double).
    #[inline]
    pub fn doubled(self, e: f64) -> f64 {
        2.0 * e
    }
}
