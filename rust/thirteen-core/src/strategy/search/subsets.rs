//! The 5- and 3-position subsets of a hand of 13 to 16 cards, their values, and which
//! middle may sit under which back.

use std::sync::OnceLock;

use super::falling;
use crate::cards::Card;
use crate::cards::{HandValue, Wheel};

/// The 5- and 3-position subsets of `n` positions (masks in increasing order).
pub(crate) struct Subsets {
    pub(crate) five: Vec<u32>,
    pub(crate) three: Vec<u32>,
    /// Their entries' low words in the walks' orders ([`falling::tails`]).
    pub(super) five_tails: Vec<u64>,
    pub(super) three_tails: Vec<u64>,
}

/// Subsets of `n` positions, `n` from 13 to 16.
pub(crate) fn subsets(n: usize) -> &'static Subsets {
    static S: [OnceLock<Subsets>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    assert!((13..=16).contains(&n), "13 to 16 cards");
    S[n - 13].get_or_init(|| {
        let five: Vec<u32> = (0u32..1 << n).filter(|m| m.count_ones() == 5).collect();
        let three: Vec<u32> = (0u32..1 << n).filter(|m| m.count_ones() == 3).collect();
        Subsets {
            five_tails: falling::tails(&five),
            three_tails: falling::tails(&three),
            five,
            three,
        }
    })
}

/// The values of every 5- and 3-position subset of `cards` (13 to 16), indexed as
/// [`subsets`].
pub(crate) fn subset_values(cards: &[Card], wheel: Wheel) -> (Vec<HandValue>, Vec<HandValue>) {
    let subs = subsets(cards.len());
    // The cards of a position mask, in position order (evaluation ignores the order).
    fn of<const K: usize>(cards: &[Card], m: u32) -> [Card; K] {
        let mut out = [cards[0]; K];
        let (mut rest, mut k) = (m, 0);
        while rest != 0 {
            out[k] = cards[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            k += 1;
        }
        out
    }
    let v5 = (subs.five.iter())
        .map(|&m| crate::cards::evaluate5(&of::<5>(cards, m), wheel))
        .collect();
    let v3 = (subs.three.iter())
        .map(|&m| crate::cards::evaluate3(&of::<3>(cards, m)))
        .collect();
    (v5, v3)
}

/// Whether a middle of value `vm` (subset `mi`) may sit under a back of value `vb` (subset
/// `bi`): weaker, or of equal value, where the pair is met from both sides and one is kept
/// (the middle placed no earlier), unless `both` (more than one split listed with equal
/// values allowed: swapped, the two are two arrangements). Branch-free (`&`, `|`): the
/// 13-card pass tests every pair.
#[inline(always)]
pub(crate) fn middle_under(vm: u32, mi: usize, vb: u32, bi: usize, both: bool) -> bool {
    (vm < vb) | ((vm == vb) & (both | (mi >= bi)))
}
