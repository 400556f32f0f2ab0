//! What the cards left by a back or a front can make, read from counts of their suits and
//! ranks: whether a back's rest is plain (no flush, no five of the back's value), the least
//! value of a back's group when no middle can share it, and a front's ways read from the
//! straights and flushes of its rest.

use crate::cards::Card;
use crate::cards::{Category, HandValue, PRIMARY_SHIFT};

/// Counts of a hand's cards by suit and by rank, four bits each (`1 << 4·suit` and
/// `1 << 4·rank` per card; a 13-card hand holds at most 13 of a suit, 5 of a rank), per
/// position and for the whole hand: what [`Rest::is_plain`] needs of the cards a back leaves
/// (13 cards only: 16 could count 16 of a suit).
pub(super) struct Rest {
    at: [(u32, u64); 16],
    suits: u32,
    ranks: u64,
    /// The positions of each suit and of each rank (13 positions at most).
    suit_at: [u16; 4],
    rank_at: [u16; 13],
}

/// Every rank's bit 3 (13 ranks).
const RANK_GUARDS: u64 = 0x8_8888_8888_8888;
/// Every rank's bit 0.
const RANK_ONES: u64 = RANK_GUARDS >> 3;

impl Rest {
    pub(super) fn new(cards: &[Card]) -> Rest {
        let mut at = [(0u32, 0u64); 16];
        let (mut suit_at, mut rank_at) = ([0u16; 4], [0u16; 13]);
        for (p, (slot, c)) in at.iter_mut().zip(cards).enumerate() {
            let (suit, rank) = ((c.code() & 3) as usize, c.rank_index() as usize);
            *slot = (1 << (4 * suit), 1 << (4 * rank));
            suit_at[suit] |= 1 << p;
            rank_at[rank] |= 1 << p;
        }
        Rest {
            at,
            suits: at.iter().map(|a| a.0).sum(),
            ranks: at.iter().map(|a| a.1).sum(),
            suit_at,
            rank_at,
        }
    }

    /// The suit and rank counts of the positions outside `mask`.
    #[inline]
    fn left(&self, mask: u32) -> (u32, u64) {
        let (mut suits, mut ranks) = (self.suits, self.ranks);
        let mut m = mask;
        while m != 0 {
            let (s, r) = self.at[m.trailing_zeros() as usize];
            suits -= s;
            ranks -= r;
            m &= m - 1;
        }
        (suits, ranks)
    }

    /// The rank counts of the positions outside `mask`, when they hold no five of one suit
    /// (at most 13 of a suit in all: no carry between the counts).
    #[inline]
    pub(super) fn left_unsuited(&self, mask: u32) -> Option<u64> {
        let (suits, ranks) = self.left(mask);
        ((suits + 0x3333) & 0x8888 == 0).then_some(ranks)
    }

    /// Whether no five of the 8 positions that a back of value `back` on positions `mask`
    /// leaves (the middles of its 56 pairs) is a flush, a straight flush or of the back's
    /// own value: the rest's values are then those of its ranks alone, and every middle is
    /// below the back. Five of one suit make a flush or a straight flush, and are the only
    /// ones that do; a value other than those is its ranks', so the rest holds it exactly
    /// when it holds the back's ranks (then, with no flush there, as a five of that value).
    #[inline]
    pub(super) fn is_plain(&self, mask: u32, back: HandValue) -> bool {
        let Some(ranks) = self.left_unsuited(mask) else {
            return false;
        };
        if matches!(back.category(), Category::Flush | Category::StraightFlush) {
            return true;
        }
        let back_ranks = self.ranks - ranks;
        // Each rank held at least as often in the rest as in the back (counts at most 5).
        ((ranks | RANK_GUARDS) - back_ranks) & RANK_GUARDS != RANK_GUARDS
    }

    /// The least value of the group of `back` (its category and deciding ranks: a pair of
    /// jacks with any kickers, say) when no middle can be of that group under a back of it:
    /// two disjoint fives of one group each hold its deciding ranks (the pair, both pairs,
    /// the trips, the quads, the full house's trips, a high card's five ranks), so the hand
    /// would hold each of them twice as often. `None` when it does, or for a straight, a
    /// flush, a straight flush or five of a kind (their deciding ranks are not read here).
    #[inline]
    pub(super) fn group_floor(&self, back: HandValue) -> Option<u32> {
        let times = match back.category() {
            Category::HighCard => 1,
            Category::OnePair | Category::TwoPair => 2,
            Category::ThreeOfAKind | Category::FullHouse => 3,
            Category::FourOfAKind => 4,
            _ => return None,
        };
        let mut ranks = back.primary_mask();
        while ranks != 0 {
            let r = ranks.trailing_zeros();
            if (self.ranks >> (4 * r)) & 15 < 2 * times {
                return Some(back.raw() & !((1 << PRIMARY_SHIFT) - 1));
            }
            ranks &= ranks - 1;
        }
        None
    }

    /// The ways to split the 10 positions that a front on positions `mask` leaves into two
    /// fives both at least the front (of value `front`: a pair or trips), read from the few
    /// fives of the rest that are straights or flushes, when every such way holds one: the
    /// weakest stronger five of those ways (`u32::MAX`: no way), as the 126 ways would
    /// give it. `None` when the rest may split into two fives that each hold a *core* (the
    /// ranks that lift a five to the front or above without a straight or a flush: against
    /// a pair, a pair of a rank at least the front's, two pairs, or trips; against trips,
    /// trips), when it holds a rank five times, or when it holds more than [`SPECIALS`]
    /// straights and flushes: the ways are then read in full.
    ///
    /// A five at least a pair or trips is a straight, a flush or a straight flush (its
    /// ranks distinct, or all one suit) or holds a core (one pair, two pair, trips, a full
    /// house, quads, five of a kind each hold one); so where no two disjoint cores exist,
    /// one five of every way is a straight or a flush, and those fives name every way.
    #[inline]
    pub(super) fn reach_special(
        &self,
        mask: u32,
        front: HandValue,
        v5: &[HandValue],
    ) -> Option<u32> {
        let (_, ranks) = self.left(mask);
        // Bit 3 of each rank held at least twice, three, four, five times (counts at most 5).
        let at_least = |k: u64| (ranks + (8 - k) * RANK_ONES) & RANK_GUARDS;
        let (twice, thrice, four) = (at_least(2), at_least(3), at_least(4));
        if at_least(5) != 0 {
            return None;
        }
        // The pair's (trips') rank index: its one bit in the value's primary mask.
        let rank = front.primary_mask().trailing_zeros();
        let two_cores = match front.category() {
            Category::OnePair => {
                let at_or_above = u64::MAX << (4 * rank);
                let (high, all) = ((twice & at_or_above).count_ones(), twice.count_ones());
                match thrice.count_ones() {
                    0 => high >= 2 || (high == 1 && all >= 3) || all >= 4,
                    // Trips and a core of the other ranks, or a rank at least the front's
                    // four times (two pairs of it).
                    1 => {
                        let others = twice & !thrice;
                        others & at_or_above != 0
                            || others.count_ones() >= 2
                            || four & at_or_above != 0
                    }
                    _ => true,
                }
            }
            Category::ThreeOfAKind => thrice.count_ones() >= 2,
            _ => return None,
        };
        if two_cores {
            return None;
        }
        let rest = ((1u32 << 13) - 1) & !mask;
        let vf = front.raw();
        let mut w = u32::MAX;
        let mut seen = 0usize;
        let mut way = |five: u32| {
            let (x, y) = (
                v5[crate::split::subset_index(five)].raw(),
                v5[crate::split::subset_index(rest ^ five)].raw(),
            );
            if x.min(y) >= vf {
                w = w.min(x.max(y));
            }
        };
        // Flushes: every five of a suit held five to seven times (`k − 5` of its positions
        // dropped; two of them each pair once, the lower first).
        for &suit in &self.suit_at {
            let held = suit as u32 & rest;
            let k = held.count_ones() as usize;
            if k < 5 {
                continue;
            }
            seen += [1, 6, 21].get(k - 5).copied()?;
            if seen > SPECIALS {
                return None;
            }
            match k {
                5 => way(held),
                6 => single_bits(held).for_each(|a| way(held & !a)),
                _ => {
                    for a in single_bits(held) {
                        for b in single_bits(held & !((a << 1) - 1)) {
                            way(held & !a & !b);
                        }
                    }
                }
            }
        }
        // Straights: five ranks in a row, the wheel's (ace to five) included, one position
        // of each.
        let at: [u32; 13] = std::array::from_fn(|r| self.rank_at[r] as u32 & rest);
        for low in 0..10 {
            let window: [u32; 5] = if low == 0 {
                [at[12], at[0], at[1], at[2], at[3]]
            } else {
                std::array::from_fn(|i| at[low - 1 + i])
            };
            if window.contains(&0) {
                continue;
            }
            seen += window
                .iter()
                .map(|p| p.count_ones() as usize)
                .product::<usize>();
            if seen > SPECIALS {
                return None;
            }
            let [r0, r1, r2, r3, r4] = window.map(single_bits);
            for p0 in r0 {
                for p1 in r1.clone() {
                    for p2 in r2.clone() {
                        for p3 in r3.clone() {
                            for p4 in r4.clone() {
                                way(p0 | p1 | p2 | p3 | p4);
                            }
                        }
                    }
                }
            }
        }
        Some(w)
    }
}

/// Each single bit of `mask`, lowest first.
#[inline]
fn single_bits(mask: u32) -> impl Iterator<Item = u32> + Clone {
    let mut m = mask;
    std::iter::from_fn(move || {
        let bit = m & m.wrapping_neg();
        m ^= bit;
        (bit != 0).then_some(bit)
    })
}

/// The most straights and flushes [`Rest::reach_special`] reads for one front (more: the
/// front's 126 ways are read instead).
const SPECIALS: usize = 24;

/// [`Rest::is_plain`] by reading the values of the back's 56 middles (the tests' oracle).
#[cfg(test)]
pub(super) fn rest_is_plain(pairs: &[(u16, u16); 56], v5: &[HandValue], back: HandValue) -> bool {
    pairs.iter().all(|&(_, mi)| {
        let v = v5[mi as usize];
        v != back && !matches!(v.category(), Category::Flush | Category::StraightFlush)
    })
}
