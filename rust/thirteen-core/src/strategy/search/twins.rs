//! Backs that hold the same cards, in a hand holding some card twice (the extra diamonds of
//! kaixin 多三张, more than 13 cards).

use super::falling::{self, Falling};
use crate::cards::Card;

/// A hand holding some card twice: each position weighs `1 << 2·p`, `p` the first position
/// holding its card, so that a set of positions sums to the count of each card it holds (at
/// most two: two bits each). Two sets with one key hold the same cards, and so leave the
/// same cards. Also the keys of the backs of one value searched so far.
pub(super) struct Twins {
    weight: [u64; 16],
    held: Vec<u64>,
}

impl Twins {
    /// The twins of `cards`, when some card is held twice.
    pub(super) fn new(cards: &[Card]) -> Option<Twins> {
        debug_assert!(cards.len() <= 16);
        let mut weight = [0u64; 16];
        let mut twice = false;
        for (p, c) in cards.iter().enumerate() {
            let first = cards.iter().position(|x| x == c).unwrap_or(p);
            twice |= first != p;
            weight[p] = 1 << (2 * first);
        }
        twice.then_some(Twins {
            weight,
            held: Vec::new(),
        })
    }

    /// The cards that the positions of `mask` hold, as a key.
    pub(super) fn key(&self, mask: u32) -> u64 {
        let mut m = mask;
        let mut k = 0;
        while m != 0 {
            k += self.weight[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        k
    }

    /// Forgets the backs searched (a new value begins).
    pub(super) fn clear(&mut self) {
        self.held.clear();
    }

    /// Whether a back of key `key` was searched (since the last [`Twins::clear`]).
    pub(super) fn searched(&self, key: u64) -> bool {
        self.held.contains(&key)
    }

    /// Records a back of key `key` as searched.
    pub(super) fn push(&mut self, key: u64) {
        self.held.push(key);
    }
}

/// Whether some five of value `value`, at place `from` of `order` or after (the first place
/// of that value), holds none of the positions of `mask`.
pub(super) fn own_value_missing(order: &mut Falling, from: usize, value: u32, mask: u32) -> bool {
    let mut q = from;
    while q < order.len() && falling::value(order.at(q)) == value {
        if falling::mask(order.at(q)) & mask == 0 {
            return true;
        }
        q += 1;
    }
    false
}
