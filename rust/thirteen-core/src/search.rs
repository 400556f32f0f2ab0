//! Exact search for the `ev` strategy's best splits of 13 to 16 cards (RULES.md 2).
//!
//! Branch and bound over backs. When each lane's value never falls as the category rises,
//! the model's score never falls as any lane's value rises ([`crate::model`]), so the score
//! of a split is at most the score with each lane replaced by a stronger hand. For a back `b`:
//!
//! * `ub1(b) = score(strongest front of the hand at most c, a middle of value c, b)` bounds
//!   every split with a back no stronger than `b` (a legal front is at most its middle, at
//!   most its back), where `c`, the middle cap, is the strongest five that misses some five
//!   at least it and at most `b` (a legal middle misses its back, which is at least the
//!   middle and, once the walk is at `b`, at most `b`). A five that has no such partner at
//!   one back has none at a weaker one, so the cap is a place in the walk's order that only
//!   moves forward, each place tested 64 partners at a time with `Falling::first_missing`;
//!   when no five has a partner, no split is left and the walk ends. With 13 cards the
//!   walk is not taken (it tested some 300 fives a hand on the slowest hands, about a
//!   quarter of their instructions, and saved them 3 backs visited in 23): the middle is
//!   capped by the back's own value, or, when the hand does not hold the back's group (its
//!   category and deciding ranks) twice over, by the strongest five below the group (two
//!   disjoint fives of one group hold its deciding ranks twice: `Rest::group_floor`; found
//!   without sorting, `Falling::strongest_below`; none: no split is left). `ub1` falls as
//!   backs are visited in falling value: the search stops at a back whose `ub1` cannot beat
//!   the `top`-th best split found. With 13 cards it is checked at every eighth back only:
//!   stopping up to seven backs late costs their `ub2` checks and changes no result (a back
//!   past one whose `ub1` failed is only searched if its own bounds pass), where checking
//!   every back costs a score each (with more cards a back costs more than a score, and
//!   `ub1` is checked at each). With 13 cards its front is also one that a legal split with
//!   a back no stronger than `b` can hold: a front is passed for good once none of the 126
//!   ways to split the other ten positions into two fives has the weaker at least the front
//!   and the stronger at most `b` (for most fronts the counts of the cards they leave show
//!   that no two disjoint fives each hold a pair, two pairs or trips at least the front, so
//!   that a five of every such way is a straight or a flush: the ways are then read from
//!   those fives, none or a few, `Rest::reach_special`). The fronts are checked when `ub1`
//!   does not stop the search, down to the first high card (taken as held, unchecked); the
//!   first `ub2` below starts its fronts there too;
//! * with 13 cards, `ub2(b) = score(strongest front, strongest middle, b)` over the legal
//!   splits of the cards `b` leaves skips a back. It is taken in steps: first a looser one
//!   from the walk's own order (the first five from `b`'s value down that misses `b`, the
//!   first front from the front cap on that misses it, found 64 places at a time with
//!   `Falling::first_missing`), then the exact one. A back whose bound would take a front
//!   and a middle no stronger than those of a bound that failed at an earlier (no weaker)
//!   back is skipped without scoring: its bound is at most that one (the last four
//!   failures are kept);
//! * with 13 cards and one split asked for, the back's (front, middle) pairs are read from
//!   the walks' orders: each five or three that misses the back leaves one three or five
//!   of the other eight positions ([`crate::split::subset_index`]). The strongest legal
//!   middle is the first five from `b`'s value down whose three is legal with it (looked
//!   for in 64 places, else over the back's 56 pairs); with it and the first front from
//!   the cap that misses `b`, `ub2` is taken a second time. Then only the back's Pareto
//!   frontier is scored: fronts in falling value from the cap (ties: higher index first),
//!   each kept when its middle is legal and beats the middle of every stronger kept front,
//!   until `score(front, strongest middle, b)` cannot beat the best found (at the first
//!   front kept, this is the exact `ub2`) or the front's middle is the strongest. A lane's
//!   features are its value's, so a score of a (front, middle) pair of the values of one
//!   already taken for this back is that one: the second `ub2` is not taken again when its
//!   values are the first's, nor a front's bound when it is the `ub2` just taken, nor the
//!   split's own score when its middle has the strongest middle's value (its bound). A
//!   frontier that has kept six fronts is met from the middles' side too, when the back's
//!   strongest legal middles are at most four of one category and deciding ranks (a
//!   straight that only the weakest fronts leave, say): if the next front with the
//!   strongest middle outside them cannot beat the best found, their pairs are scored and
//!   the frontier ends (a pair not reached has a front no stronger than that one, or was
//!   met on the front side, and a middle among them or no stronger than that middle);
//! * with 13 cards and one split (or distinct splits) asked for, a back of a value an
//!   earlier back had is skipped when neither leaves a flush or a five of the back's own
//!   value: a value fixes its ranks, so the two leave the same ranks, the same (front,
//!   middle) values and the same scores, and a later split must beat the best found
//!   strictly (and, distinct, its twin of the same three values);
//! * with 13 cards, one split asked for and lane values that never fall, the backs of one
//!   category and deciding ranks that all hold the same cards (one pair, two pair, trips
//!   or quads whose ranks the hand holds exactly that often: a run, [`crate::runs`]) are
//!   searched front first when the walk meets the first of them: each front from the cap
//!   that misses the held cards, in falling value, until `score(front, the first five
//!   from the run's first back down that misses the held cards, the run's first back)`
//!   cannot beat the best found (every middle of the run's splits is at most that five);
//!   per front, its ways to give the back its kickers from the positions left (the
//!   middle takes the rest), strongest middle first, a way kept when its back beats the
//!   back of every stronger way kept, each scored until its bound with the run's first
//!   back cannot beat the best found, or until a way's back is the run's first back's
//!   value (no later way's back can beat it). The run's other backs are then passed, and
//!   the first back after them takes `ub1`. (The walk visited each back of such a run
//!   before: in the slowest hands 100 to 165 backs of one pair, whose bounds lie within a
//!   few thousandths of a unit of the best split);
//! * with 13 cards and more splits asked for, the exact `ub2` and the legal pairs come
//!   from the back's 56 pairs ([`crate::split::rest_pairs`]) in one branch-free pass, and
//!   every legal pair is scored;
//! * with more than 13 cards (or with 13 and cards placed, [`Need`]), the middles come
//!   from the walk's order too, strongest first, each with the strongest legal front of
//!   the cards left (with every legal front when the front's lane values fall, and down to
//!   the first that cannot beat the best found when more splits are asked for), until
//!   `ub3(b, m) = score(strongest front left by b, m, b)` cannot beat the best found; with
//!   one split asked for, a middle whose front is no stronger than a stronger middle's is
//!   skipped. The middles that miss the back, and each middle's front (the first front no
//!   stronger than it that misses both), are found 64 places at a time. With one split (or
//!   distinct ones) asked for, a middle of the same value as the one before it is skipped
//!   (it leaves the same ranks, so fronts of the same values: a front's value is its
//!   ranks'): its splits have the values of splits already placed or bounded, and a
//!   later split must beat the best strictly;
//! * with nothing placed and one split (or distinct ones) asked for, a back that holds the
//!   same cards as an earlier back of its value (a card held twice, the extra diamonds:
//!   `Twins`) is skipped likewise, unless a five of its own value misses it: a middle of
//!   the back's value sits under the later of two such fives only ([`middle_under`]), so
//!   that split of the later back is none of the earlier's.
//!
//! When a lane's value falls as the category rises somewhere (a custom rule set), the
//! score can fall as a lane's value rises, and the bounds above would not hold. They are
//! then taken with each lane priced at its value's envelope (the most that any category up
//! to its own is worth, [`crate::model::lane_value_envelope`]): that score never falls as
//! a lane's value rises, and it is at least the split's own score, since more units never
//! lower the score ([`crate::model::units_raise_score`]; a player against a banker who wins
//! ties is the exception, and there nothing is pruned). The splits that pass are scored
//! with their own values; the Pareto-frontier shortcuts, which need the own score to rise,
//! are left out: every legal pair of a back that passes is scored, and with more than 13
//! cards each front of a (back, middle) in falling value until its bound cannot beat the
//! best found.
//!
//! No split is skipped unless its score provably cannot beat what was found. Tests compare
//! it with a full scan, under falling lane values too.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::OnceLock;

use crate::card::Card;
use crate::error::Lane;
use crate::eval::{Category, HandValue, Wheel, PRIMARY_SHIFT};
use crate::falling::{self, Falling};
use crate::lanes::LaneTables;
use crate::model::{
    features, features_worth, lane_value_envelope, lane_value_rises, lane_values_monotone,
    units_raise_score, Context, Feat, Scorer,
};
use crate::removal::Removal;
use crate::rules::Rules;
use crate::runs::Run;
use crate::split::ThreeKeys;

/// The 5- and 3-position subsets of `n` positions (masks in increasing order).
pub(crate) struct Subsets {
    pub(crate) five: Vec<u32>,
    pub(crate) three: Vec<u32>,
    /// Their entries' low words in the walks' orders ([`falling::tails`]).
    five_tails: Vec<u64>,
    three_tails: Vec<u64>,
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
        .map(|&m| crate::eval::evaluate5(&of::<5>(cards, m), wheel))
        .collect();
    let v3 = (subs.three.iter())
        .map(|&m| crate::eval::evaluate3(&of::<3>(cards, m)))
        .collect();
    (v5, v3)
}

/// Counts of a hand's cards by suit and by rank, four bits each (`1 << 4·suit` and
/// `1 << 4·rank` per card; a 13-card hand holds at most 13 of a suit, 5 of a rank), per
/// position and for the whole hand: what [`Rest::is_plain`] needs of the cards a back leaves
/// (13 cards only: 16 could count 16 of a suit).
struct Rest {
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
    fn new(cards: &[Card]) -> Rest {
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
    fn left_unsuited(&self, mask: u32) -> Option<u64> {
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
    fn is_plain(&self, mask: u32, back: HandValue) -> bool {
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
    fn group_floor(&self, back: HandValue) -> Option<u32> {
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
    fn reach_special(&self, mask: u32, front: HandValue, v5: &[HandValue]) -> Option<u32> {
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

/// A hand holding some card twice (the extra diamonds of kaixin 多三张, more than 13 cards):
/// each position weighs `1 << 2·p`, `p` the first position holding its card, so that a set of
/// positions sums to the count of each card it holds (at most two: two bits each). Two sets
/// with one key hold the same cards, and so leave the same cards.
struct Twins {
    weight: [u64; 16],
}

impl Twins {
    fn new(cards: &[Card]) -> Option<Twins> {
        debug_assert!(cards.len() <= 16);
        let mut weight = [0u64; 16];
        let mut twice = false;
        for (p, c) in cards.iter().enumerate() {
            let first = cards.iter().position(|x| x == c).unwrap_or(p);
            twice |= first != p;
            weight[p] = 1 << (2 * first);
        }
        twice.then_some(Twins { weight })
    }

    /// The cards that the positions of `mask` hold, as a key.
    fn key(&self, mask: u32) -> u64 {
        let mut m = mask;
        let mut k = 0;
        while m != 0 {
            k += self.weight[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        k
    }
}

/// Whether some five of value `value`, at place `from` of `order` or after (the first place
/// of that value), holds none of the positions of `mask`.
fn own_value_missing(order: &mut Falling, from: usize, value: u32, mask: u32) -> bool {
    let mut q = from;
    while q < order.len() && falling::value(order.at(q)) == value {
        if falling::mask(order.at(q)) & mask == 0 {
            return true;
        }
        q += 1;
    }
    false
}

/// [`Rest::is_plain`] by reading the values of the back's 56 middles (the tests' oracle).
#[cfg(test)]
fn rest_is_plain(pairs: &[(u16, u16); 56], v5: &[HandValue], back: HandValue) -> bool {
    pairs.iter().all(|&(_, mi)| {
        let v = v5[mi as usize];
        v != back && !matches!(v.category(), Category::Flush | Category::StraightFlush)
    })
}

/// Ways to split a front's ten other positions into two fives read at once by the search's
/// `reach` (126 in all: 9 steps).
const REACH_WAYS: usize = 14;
const _: () = assert!(126 % REACH_WAYS == 0, "every way read");

/// With 13 cards, `ub1` is checked at every this many places of the walk (module docs).
const UB1_EVERY: usize = 8;

/// Fronts of a back's frontier scored before its strongest middles may be taken from the
/// middles' side.
const SIDE_AFTER: usize = 6;
/// The most pairs of one category and deciding ranks of middle so taken.
const SIDE_GROUP: usize = 4;

/// A back's legal (front, middle) pairs, for taking its strongest middles first:
/// `(middle value << 32 | front << 16 | middle)` per pair.
struct MiddleSide {
    keys: [u64; 56],
    len: usize,
    /// The pairs of the strongest group, strongest middle first.
    group: [u64; SIDE_GROUP],
}

impl Default for MiddleSide {
    fn default() -> Self {
        MiddleSide {
            keys: [0; 56],
            len: 0,
            group: [0; SIDE_GROUP],
        }
    }
}

impl MiddleSide {
    /// The legal pairs of `pairs` (a back's 56).
    fn fill(
        &mut self,
        pairs: &[(u16, u16)],
        v5: &[HandValue],
        legal: &impl Fn(usize, usize) -> bool,
    ) {
        for &(fi, mi) in pairs {
            if legal(fi as usize, mi as usize) {
                self.keys[self.len] =
                    (v5[mi as usize].raw() as u64) << 32 | (fi as u64) << 16 | mi as u64;
                self.len += 1;
            }
        }
    }

    /// The pairs whose middle is of the category and deciding ranks of the strongest
    /// middle, when at most [`SIDE_GROUP`] (their count), and the middle of the strongest
    /// pair after them (`None`: there is none).
    fn strongest_group(&mut self) -> Option<(usize, Option<usize>)> {
        let top = *self.keys[..self.len].iter().max()?;
        let key = ((top >> 32) as u32) >> PRIMARY_SHIFT;
        let mut n = 0;
        let mut after = 0u64;
        for &k in &self.keys[..self.len] {
            if ((k >> 32) as u32) >> PRIMARY_SHIFT == key {
                if n == SIDE_GROUP {
                    return None;
                }
                self.group[n] = k;
                n += 1;
            } else {
                after = after.max(k);
            }
        }
        self.group[..n].sort_unstable_by(|x, y| y.cmp(x));
        Some((n, (after != 0).then_some((after & 0xffff) as usize)))
    }

    /// The `(front, middle)` of the first `n` pairs of the strongest group, strongest
    /// middle first.
    fn pairs_of(&self, n: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.group[..n]
            .iter()
            .map(|&k| ((k >> 16 & 0xffff) as usize, (k & 0xffff) as usize))
    }
}

/// The (front value, middle value) of the last few bounds that failed at a back: a later
/// back (no stronger) whose bound would take a front and middle no stronger fails too.
#[derive(Default)]
struct Failed {
    last: [(u32, u32); 4],
    n: usize,
}

impl Failed {
    fn push(&mut self, front: u32, middle: u32) {
        self.last[self.n % self.last.len()] = (front, middle);
        self.n += 1;
    }

    /// Whether a failed bound had a front and a middle at least these.
    fn covers(&self, front: u32, middle: u32) -> bool {
        self.last[..self.n.min(self.last.len())]
            .iter()
            .any(|&(f, m)| front <= f && middle <= m)
    }
}

/// Which splits a list of more than one keeps apart: every split, or one per three lane
/// values (the same play in other cards is left out), or one per label (hints, 牌型提示:
/// the front's category and highest rank, the middle's and the back's categories).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Distinct {
    /// Every split.
    #[default]
    No,
    /// One split per three lane values.
    Values,
    /// One split per label.
    Labels,
}

impl Distinct {
    /// Whether some splits are kept apart.
    pub fn any(self) -> bool {
        self != Distinct::No
    }

    /// The key that splits kept apart differ in, from their three lane values. A label's
    /// key is a function of the values, so splits of equal values share it.
    #[inline]
    fn key(self, [f, m, b]: [HandValue; 3]) -> (u32, u32, u32) {
        match self {
            Distinct::Labels => {
                let top_rank = 31 - f.primary_mask().max(1).leading_zeros();
                (
                    (f.category() as u32) << 4 | top_rank,
                    m.category() as u32,
                    b.category() as u32,
                )
            }
            _ => (f.raw(), m.raw(), b.raw()),
        }
    }
}

/// One candidate split with its expected units.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// Front, middle, back subset indices (into the 3- and 5-position subsets of the hand's
    /// positions; for 13 cards those of [`crate::split::HandSplits`]).
    pub subsets: (usize, usize, usize),
    /// Expected units.
    pub expected: f64,
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

/// The best splits found so far (ties: first found): a list kept best first, or, for many
/// splits without `distinct`, a heap with the worst on top, numbered as found (inserting
/// into a long list moves it, the heap does not).
enum Found {
    List(Vec<Candidate>),
    Heap(BinaryHeap<Ranked>, usize),
}

/// A split in [`Found::Heap`]: greater is worse (fewer expected units, or as many and found
/// later).
#[derive(Clone, Copy)]
struct Ranked {
    c: Candidate,
    seq: usize,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.c.expected.total_cmp(&self.c.expected)).then(self.seq.cmp(&other.seq))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

impl Found {
    /// Splits asked for beyond which the heap is kept.
    const LIST_MOST: usize = 32;

    fn new(top: usize, distinct: bool) -> Found {
        if top > Found::LIST_MOST && !distinct {
            // Grown as splits are found: a long list asked for may find far fewer.
            Found::Heap(BinaryHeap::with_capacity(top.min(4096) + 1), 0)
        } else {
            Found::List(Vec::with_capacity(top + 1))
        }
    }

    fn len(&self) -> usize {
        match self {
            Found::List(list) => list.len(),
            Found::Heap(heap, _) => heap.len(),
        }
    }

    /// Best first.
    fn into_vec(self) -> Vec<Candidate> {
        match self {
            Found::List(list) => list,
            Found::Heap(heap, _) => heap.into_sorted_vec().into_iter().map(|r| r.c).collect(),
        }
    }
}

/// Per-thread feature caches of the middle and back lanes, valid where the stamp is the
/// current search's.
#[derive(Default)]
struct Cache {
    stamp: u32,
    front: Vec<(u32, Feat)>,
    mid: Vec<(u32, Feat)>,
    back: Vec<(u32, Feat)>,
    /// Per front (13 cards): the weakest back seen of a legal split holding it, and whether
    /// it is the weakest there is.
    reach: Vec<(u32, u32, bool)>,
    backs: Falling,
    fronts: Falling,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// What was searched, for benchmarks and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Backs whose bounds were computed.
    pub visited: usize,
    /// Backs whose middles were looked at.
    pub backs: usize,
    /// Splits scored exactly.
    pub scored: usize,
    /// Runs of backs searched front first.
    pub runs: usize,
    /// Fronts of such runs passed as twins of the front before them.
    pub twin_fronts: usize,
    /// Frontiers ended from the middles' side (their strongest middles scored first).
    pub middle_side: usize,
}

/// The `top` best splits by expected units, best first (ties: first found), from the values
/// of every 5- and 3-position subset of `n` positions (`v5`, `v3` indexed as
/// [`subsets`]`(n)`); `three_keys`, when given, each three's place among the 3-card values
/// ([`crate::split::HandSplits::three_keys`], the tables'; else they are computed from
/// `v3`). With
/// `distinct`, a split whose three lane values equal a better
/// candidate's is left out. With `removal` (the hand's, [`LaneTables::removal`]) the
/// opponents' lanes are weighed by the cards held. At least one candidate is returned: a
/// legal split always exists.
#[allow(clippy::too_many_arguments)]
pub fn best_splits(
    cards: &[Card],
    v5: &[HandValue],
    v3: &[HandValue],
    three_keys: Option<ThreeKeys<'_>>,
    rules: &Rules,
    tables: &LaneTables,
    removal: Option<&Removal>,
    ctx: Context,
    top: usize,
    distinct: Distinct,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    best_splits_above(
        cards,
        v5,
        v3,
        three_keys,
        rules,
        tables,
        removal,
        ctx,
        top,
        distinct,
        f64::NEG_INFINITY,
        Need::default(),
        stats,
    )
}

/// Positions (bits of the dealt cards) that the splits must hold:
/// `lanes` in the front, middle and back (cards already placed, 牌型提示 while arranging),
/// `held` in any lane (the horse card, when kept). Empty: every split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need {
    /// Positions that each lane (front, middle, back) must hold.
    pub lanes: [u32; 3],
    /// Positions that some lane must hold.
    pub held: u32,
}

impl Need {
    /// Nothing asked for.
    pub fn is_empty(&self) -> bool {
        *self == Need::default()
    }
}

/// As [`best_splits`], keeping only splits worth more than `above` that hold what `need`
/// asks for (with 13 cards and a need, a back's middles come from the walk, as with more
/// cards, instead of its 56 pairs): the search prunes against `above` from the start, as
/// if `top` splits that good were already found. Empty when no such split is worth more
/// (with `above` at minus infinity and `need` empty, as [`best_splits`]).
///
/// The bounds hold for every split, so they hold for those that meet `need`; the
/// shortcuts that pass a back or a middle for one of the same cards or value already
/// searched are left out when `need` is not empty (the other may not meet it), and a
/// middle's front is passed for one of a stronger middle only when that split met it.
#[allow(clippy::too_many_arguments)]
pub fn best_splits_above(
    cards: &[Card],
    v5: &[HandValue],
    v3: &[HandValue],
    three_keys: Option<ThreeKeys<'_>>,
    rules: &Rules,
    tables: &LaneTables,
    removal: Option<&Removal>,
    ctx: Context,
    top: usize,
    distinct: Distinct,
    above: f64,
    need: Need,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    let seeded = above > f64::NEG_INFINITY;
    let n = cards.len();
    let free = need.is_empty();
    // Splits listed (more than one, equal values allowed): a middle and a back of one value
    // are listed both ways round.
    let both = top > 1 && !distinct.any();
    let [need_front, need_middle, need_back] = need.lanes;
    let s = subsets(n);
    let top = top.max(1);
    let rest_of = Rest::new(cards);
    let scorer = Scorer::new(rules, ctx, tables);
    // With lane values that never fall as the category rises, the score never falls as a
    // lane's value rises. Otherwise the bounds price each lane at its value's envelope (the
    // most a category up to its own is worth), which bounds every split with weaker lanes
    // when more units never lower the score; exact scores use the lanes' own values.
    let monotone = lane_values_monotone(rules);
    let prune = monotone || units_raise_score(rules, ctx.role, tables);
    let envelope = Lane::ALL.map(|lane| lane_value_envelope(rules, lane));
    // More than 13 cards: with the front's values rising, a (back, middle)'s strongest
    // front scores best, whatever the other lanes' values do.
    let front_rises = lane_value_rises(rules, Lane::Front);
    let feat = |v: HandValue, lane: Lane| {
        let units = envelope[lane as usize][v.category() as usize] as f64;
        features_worth(v, lane, units, tables, rules, ctx.role, removal)
    };
    // A split's exact score from its lanes' (bounding) features.
    let exact = |f: &Feat, m: &Feat, b: &Feat, (fi, mi, bi): (usize, usize, usize)| {
        if monotone {
            scorer.score(f, m, b)
        } else {
            let own =
                |v: HandValue, lane: Lane| features(v, lane, tables, rules, ctx.role, removal);
            scorer.score(
                &own(v3[fi], Lane::Front),
                &own(v5[mi], Lane::Middle),
                &own(v5[bi], Lane::Back),
            )
        }
    };
    // Fronts in falling value: as backs fall in value, so does the strongest front that can
    // sit below them (a legal front is at most its middle, at most its back).
    let mut cap = 0usize;
    let mut best = Found::new(top, distinct.any());
    let mut floor = above;
    let offer =
        |subsets: (usize, usize, usize), expected: f64, found: &mut Found, floor: &mut f64| {
            let c = Candidate { subsets, expected };
            if (seeded || found.len() == top) && c.expected <= *floor {
                return;
            }
            let best = match found {
                Found::Heap(heap, seq) => {
                    *seq += 1;
                    heap.push(Ranked { c, seq: *seq });
                    if heap.len() > top {
                        heap.pop();
                    }
                    if heap.len() == top {
                        *floor = heap.peek().expect("top splits").c.expected;
                    }
                    return;
                }
                Found::List(list) => list,
            };
            if distinct.any() {
                let key = |c: &Candidate| {
                    distinct.key([v3[c.subsets.0], v5[c.subsets.1], v5[c.subsets.2]])
                };
                let t = key(&c);
                if let Some(i) = best.iter().position(|x| key(x) == t) {
                    if best[i].expected >= c.expected {
                        return;
                    }
                    best.remove(i);
                }
            }
            let pos = best
                .iter()
                .position(|x| x.expected < c.expected)
                .unwrap_or(best.len());
            best.insert(pos, c);
            best.truncate(top);
            if best.len() == top {
                *floor = best[top - 1].expected;
            }
        };
    CACHE.with(|cell| {
        let mut cache = cell.borrow_mut();
        let cache = &mut *cache;
        // Backs (and middles) and fronts in falling value.
        let order = &mut cache.backs;
        let fronts = &mut cache.fronts;
        order.fill(v5, &s.five_tails);
        fronts.fill_threes(v3, &s.three_tails, three_keys);
        cache.stamp = cache.stamp.wrapping_add(1);
        if cache.stamp == 0 || cache.mid.len() < v5.len() || cache.front.len() < v3.len() {
            cache.front = vec![(0, Feat::default()); v3.len()];
            cache.mid = vec![(0, Feat::default()); v5.len()];
            cache.back = vec![(0, Feat::default()); v5.len()];
            cache.reach = vec![(0, 0, false); v3.len()];
            cache.stamp = 1;
        }
        let stamp = cache.stamp;
        let (c_front, c_mid, c_back) = (&mut cache.front, &mut cache.mid, &mut cache.back);
        let c_reach = &mut cache.reach;
        // 13 cards: whether a legal split holding front `fi` can have a back of value at most
        // `limit`: some way to split the other ten positions into two fives has its weaker
        // at least the front and its stronger at most `limit`. Kept per front as the weakest
        // such back seen, and whether that is the least (a full scan found none below).
        let mut reach = |fi: usize, limit: u32| -> bool {
            let slot = &mut c_reach[fi];
            if slot.0 == stamp && (slot.1 <= limit || slot.2) {
                return slot.1 <= limit;
            }
            let vf = v3[fi].raw();
            let mut w = u32::MAX;
            // Most fronts leave no two fives that each hold a pair, two pairs or trips at
            // least the front: their ways are read from the rest's few straights and
            // flushes (none, often), where reading the 126 ways would take all of them.
            if let Some(w) = rest_of.reach_special(s.three[fi], v3[fi], v5) {
                *slot = (stamp, w, true);
                return w <= limit;
            }
            // Without a branch per way (whether a way qualifies is unpredictable), 14 ways
            // at a time, then whether one found is low enough.
            for ways in crate::split::front_rest(fi).chunks_exact(REACH_WAYS) {
                for &(a, b) in ways {
                    let (x, y) = (v5[a as usize].raw(), v5[b as usize].raw());
                    let stronger = if x.min(y) >= vf { x.max(y) } else { u32::MAX };
                    w = w.min(stronger);
                }
                if w <= limit {
                    *slot = (stamp, w, false);
                    return true;
                }
            }
            *slot = (stamp, w, true);
            false
        };
        let mut lazy = |i: usize, lane: Lane| -> Feat {
            let (slot, v) = match lane {
                Lane::Front => (&mut c_front[i], v3[i]),
                Lane::Middle => (&mut c_mid[i], v5[i]),
                Lane::Back => (&mut c_back[i], v5[i]),
            };
            if slot.0 != stamp {
                *slot = (stamp, feat(v, lane));
            }
            slot.1
        };
        let mut run_start = 0;
        let (mut mid, mut mid_end) = (0usize, 0usize);
        // The entry of the middle cap (set at the first check; until then no cap: every
        // value is at most this one's).
        let mut mid_key = u64::MAX;
        // The first high card front (found when first needed).
        let mut hc = 0usize;
        let mut failed = Failed::default();
        // The value of the last back searched whose rest is plain ([`rest_is_plain`]).
        let mut covered: Option<HandValue> = None;
        // A card held twice, one split (or distinct ones) asked for: the cards of the backs
        // of this value searched so far.
        let twins = Twins::new(cards).filter(|_| (top == 1 || distinct.any()) && free);
        let mut held: Vec<u64> = Vec::new();
        // The last run of backs searched front first: its later backs are passed, and the
        // first back after them takes `ub1` whatever its place.
        let mut passing: Option<Run> = None;
        let mut run_passed = false;
        // The frontier's other side, refilled per back.
        let mut side = MiddleSide::default();
        for at in 0..order.len() {
            let key = order.at(at);
            let bi = falling::index(key);
            let (mb, vb) = (falling::mask(key), v5[bi]);
            if at > 0 && falling::value(order.at(at - 1)) != vb.raw() {
                run_start = at;
            }
            if passing.is_some_and(|run| run.holds(vb.raw())) {
                run_passed = true;
                continue;
            }
            let full = seeded || best.len() == top;
            stats.visited += 1;
            // A card held twice: a back holding the same cards as an earlier back of its
            // value leaves the same cards, so its splits are the earlier back's with the same
            // three values; a later split must beat the best strictly (and, distinct, its
            // twin of the same values), so the later back is skipped.
            if let Some(t) = &twins {
                if at == run_start {
                    held.clear();
                }
                let k = t.key(mb);
                // Unless a five of the back's own value misses it: such a middle sits under
                // the later of two backs of its value only ([`middle_under`]), so that split
                // of the later back is none of the earlier's.
                if held.contains(&k) && !own_value_missing(order, run_start, vb.raw(), mb) {
                    continue;
                }
                held.push(k);
            }
            if prune && full {
                // The middle cap (more than 13 cards): the first five from this back's value
                // down that some five at least it and at most this back misses (`mid`,
                // moving forward only); with 13 cards, the back's own value or the strongest
                // five below its group (module docs).
                let check = n > 13 || at % UB1_EVERY == 0 || run_passed;
                run_passed = false;
                if check {
                    mid_key = if n == 13 {
                        // The back's own value caps the middle, or the strongest five below
                        // its group when no middle can be of its group.
                        match rest_of.group_floor(vb) {
                            Some(least) => match order.strongest_below(run_start, least) {
                                Some(key) => key,
                                // No five below the group: no legal split has a back this
                                // weak.
                                None => break,
                            },
                            None => order.at(run_start),
                        }
                    } else {
                        let mut p = mid.max(run_start);
                        while p < order.len() {
                            let kp = order.at(p);
                            if p >= mid_end {
                                mid_end = p + 1;
                                while mid_end < order.len()
                                    && falling::value(order.at(mid_end)) == falling::value(kp)
                                {
                                    mid_end += 1;
                                }
                            }
                            if order.first_missing(run_start, mid_end, falling::mask(kp)) < mid_end
                            {
                                break;
                            }
                            p += 1;
                        }
                        if p == order.len() {
                            // No five misses a five at least it and at most this back: no
                            // legal split has a back this weak.
                            break;
                        }
                        mid = p;
                        order.at(mid)
                    };
                }
                let mid_cap = vb.raw().min(falling::value(mid_key));
                while cap + 1 < fronts.len() && falling::value(fronts.at(cap)) > mid_cap {
                    cap += 1;
                }
                if check {
                    let mc = lazy(falling::index(mid_key), Lane::Middle);
                    let bf = lazy(bi, Lane::Back);
                    let fc = lazy(falling::index(fronts.at(cap)), Lane::Front);
                    let mut ub1 = scorer.score(&fc, &mc, &bf);
                    // 13 cards: a front no legal split with a back at most this one holds is
                    // passed for good (later backs are no stronger), down to the first high
                    // card front (taken as held, unchecked). The fronts passed also tighten
                    // the first `ub2` of the backs up to the next check.
                    if n == 13 && ub1 > floor {
                        while hc < fronts.len()
                            && v3[falling::index(fronts.at(hc))].category() != Category::HighCard
                        {
                            hc += 1;
                        }
                        if hc < fronts.len() && hc > cap {
                            while cap < hc {
                                let fk = fronts.at(cap);
                                if falling::value(fk) <= mid_cap
                                    && reach(falling::index(fk), vb.raw())
                                {
                                    break;
                                }
                                cap += 1;
                            }
                            let fc = lazy(falling::index(fronts.at(cap)), Lane::Front);
                            ub1 = scorer.score(&fc, &mc, &bf);
                        }
                    }
                    if ub1 <= floor {
                        break;
                    }
                }
            }
            // With 13 cards (and nothing placed) the back's 56 splits come from a table; with
            // more, or cards placed, its middles come from the walk.
            let pairs = (n == 13 && free).then(|| crate::split::rest_pairs(bi));
            // 13 cards, one split asked for: a run of backs that differ only in their
            // kickers, searched front first (module docs), then passed. A legal split with
            // a back at most this one has its front at the cap or after.
            let run = match pairs {
                Some(_) if monotone && top == 1 && prune => Run::of(cards, vb),
                _ => None,
            };
            if let Some(run) = run {
                passing = Some(run);
                stats.runs += 1;
                let held = run.held();
                // Often far past the run's backs (a hand whose only aces are the run's
                // holds fives without an ace only after every five with one), so found
                // without sorting the walk's order that far.
                let Some(q0) = order.strongest_missing(at, held) else {
                    continue;
                };
                let top_mf = lazy(falling::index(q0), Lane::Middle);
                let bf = lazy(bi, Lane::Back);
                let mut r = cap;
                let mut ways = [(0, 0, 0); crate::runs::MOST_WAYS];
                // Twin fronts: the value of the last front whose rest (the positions the
                // held cards and the front leave) holds no five of one suit, when no back of
                // the run can be a flush (its held cards of one rank differ in suit).
                let twins = run.unsuited(cards);
                let mut twin: Option<u32> = None;
                while let Some(fk) = fronts.next_missing(&mut r, fronts.len(), held) {
                    let fi = falling::index(fk);
                    // A front of the value of the front before it holds the same ranks, so
                    // its rest holds the same ranks too. When neither rest holds five of one
                    // suit, no middle there is a flush, and the two fronts' ways have the
                    // same middle and back values and score alike: a later split must beat
                    // the best found strictly, so the later front is passed.
                    if twins {
                        let plain = rest_of.left_unsuited(held | falling::mask(fk)).is_some();
                        if plain && twin == Some(falling::value(fk)) {
                            stats.twin_fronts += 1;
                            continue;
                        }
                        twin = plain.then_some(falling::value(fk));
                    }
                    let ff = lazy(fi, Lane::Front);
                    if (seeded || best.len() == top) && scorer.score(&ff, &top_mf, &bf) <= floor {
                        break;
                    }
                    let mut high = 0u32;
                    for &(k, mi, b) in run
                        .splits(falling::mask(fk), falling::value(fk), v5, &mut ways)
                        .iter()
                    {
                        let (mi, b, vb2) = (mi as usize, b as usize, k as u32);
                        if vb2 <= high {
                            continue;
                        }
                        let mf = lazy(mi, Lane::Middle);
                        if (seeded || best.len() == top) && scorer.score(&ff, &mf, &bf) <= floor {
                            break;
                        }
                        high = vb2;
                        stats.scored += 1;
                        let e = scorer.score(&ff, &mf, &lazy(b, Lane::Back));
                        offer((fi, mi, b), e, &mut best, &mut floor);
                        if vb2 == vb.raw() {
                            break;
                        }
                    }
                }
                continue;
            }
            // 13 cards, one split asked for or distinct ones: a value fixes its ranks, so
            // every back of one value leaves the same ranks. When neither of two such backs
            // leaves a flush (five of one suit) or a five of the back's own value, their
            // (front, middle) pairs have the same values, legal alike, and score alike: the
            // later back holds no split that the earlier one's twin (the same three values)
            // did not already place or bound. A split must beat the best strictly to replace
            // it, and a distinct one also its twin; so the later back is skipped.
            if pairs.is_some() && (top == 1 || distinct.any()) {
                // Only a back that shares its value with a neighbour in the walk can cover
                // or be covered.
                let in_run = at > run_start
                    || (at + 1 < order.len() && falling::value(order.at(at + 1)) == vb.raw());
                if in_run && rest_of.is_plain(mb, vb) {
                    if covered == Some(vb) {
                        continue;
                    }
                    covered = Some(vb);
                }
            }
            let legal_mid = |mi: usize| middle_under(v5[mi].raw(), mi, vb.raw(), bi, both);
            // A legal (front, middle) pair for this back: the middle under it, the front no
            // stronger than the middle.
            let legal_pair = |fi: usize, mi: usize| legal_mid(mi) & (v3[fi] <= v5[mi]);
            let Some(pairs) = pairs else {
                // The back holds its placed cards and none placed elsewhere.
                if mb & need_back != need_back || mb & (need_front | need_middle) != 0 {
                    continue;
                }
                let bf = lazy(bi, Lane::Back);
                // More than 13 cards: the middles in the walk's order from this back's value
                // down, each with the strongest legal front of the cards left, until the
                // strongest front the back leaves cannot lift a middle past the best found
                // (`ub3`; later middles are weaker). With one split asked for, a middle whose
                // front is no stronger than a stronger middle's is skipped.
                let r = fronts.first_missing(cap, fronts.len(), mb);
                if r == fronts.len() {
                    continue;
                }
                let tf = lazy(falling::index(fronts.at(r)), Lane::Front);
                stats.backs += 1;
                let mut seen: Option<HandValue> = None;
                // The middles missing the back, 64 places tested at once, each with the
                // first front missing both from the first front no stronger than it.
                let mut q = run_start;
                let mut fcap = cap;
                // One split (or distinct ones) asked for: a middle of the value of the middle
                // before it leaves the same ranks (a value fixes its ranks), so the same
                // front values (a front's value is its ranks'): its splits have the values
                // of the earlier one's, and it is skipped as a twin back is.
                let mut last_middle = None;
                while let Some(key) = order.next_missing(&mut q, order.len(), mb) {
                    let (mi, mm) = (falling::index(key), falling::mask(key));
                    if !legal_mid(mi) || mm & need_middle != need_middle || mm & need_front != 0 {
                        continue;
                    }
                    let vm = v5[mi];
                    if (top == 1 || distinct.any()) && free {
                        if last_middle == Some(vm) {
                            continue;
                        }
                        last_middle = Some(vm);
                    }
                    let mf = lazy(mi, Lane::Middle);
                    if prune
                        && (seeded || best.len() == top)
                        && scorer.score(&tf, &mf, &bf) <= floor
                    {
                        break;
                    }
                    while fcap < fronts.len() && falling::value(fronts.at(fcap)) > vm.raw() {
                        fcap += 1;
                    }
                    // The fronts that miss both, strongest first: when the front's values
                    // rise only the strongest can be best, and with more splits asked for
                    // a weaker one is scored until one cannot beat the best found; when
                    // they do not, each is scored.
                    let mut r = fcap;
                    // The positions the front must hold: its placed cards, and those to be
                    // held that the back and middle do not.
                    let must = need_front | (need.held & !(mb | mm));
                    while let Some(fk) = fronts.next_missing(&mut r, fronts.len(), mb | mm) {
                        let fi = falling::index(fk);
                        if falling::mask(fk) & must != must {
                            continue;
                        }
                        if monotone && top == 1 {
                            if seen.is_some_and(|h| v3[fi] <= h) {
                                break;
                            }
                            seen = Some(v3[fi]);
                        }
                        let ff = lazy(fi, Lane::Front);
                        // Falling lane values: the fronts after this one are no stronger, so
                        // its bound (at the envelope) bounds them too.
                        if !monotone
                            && prune
                            && (seeded || best.len() == top)
                            && scorer.score(&ff, &mf, &bf) <= floor
                        {
                            break;
                        }
                        stats.scored += 1;
                        let e = exact(&ff, &mf, &bf, (fi, mi, bi));
                        offer((fi, mi, bi), e, &mut best, &mut floor);
                        if front_rises
                            && (top == 1 || ((seeded || best.len() == top) && e <= floor))
                        {
                            break;
                        }
                    }
                }
                continue;
            };
            // The last score taken for this back with a front and a middle of these values
            // (a lane's features are its value's): a later score of the same values is it.
            let mut passed: Option<(u32, u32, f64)> = None;
            if prune && full {
                // A first `ub2`, from the walk's order: the strongest five from this back's
                // value down that misses the back, and the strongest front from `cap` on that
                // misses it (neither there: the back leaves no legal split). A search cut
                // short bounds by the place where it stopped (all after are at most that).
                const SCAN: usize = 64;
                let q = order.first_missing(run_start, order.len().min(run_start + SCAN), mb);
                let r = fronts.first_missing(cap, fronts.len().min(cap + SCAN), mb);
                if q == order.len() || r == fronts.len() {
                    continue;
                }
                let (kq, kr) = (order.at(q), fronts.at(r));
                let (vq, vr) = (falling::value(kq), falling::value(kr));
                if failed.covers(vr, vq) {
                    continue;
                }
                let (mi, fi) = (falling::index(kq), falling::index(kr));
                let bf = lazy(bi, Lane::Back);
                let s = scorer.score(&lazy(fi, Lane::Front), &lazy(mi, Lane::Middle), &bf);
                if s <= floor {
                    failed.push(vr, vq);
                    continue;
                }
                passed = Some((vr, vq, s));
            }
            let bf = lazy(bi, Lane::Back);
            if monotone && top == 1 {
                // The strongest legal middle: the first five from this back's value down
                // that misses the back and leaves a front no stronger than it (64 places
                // looked at, else the back's 56 pairs).
                let rest = crate::split::ALL_POSITIONS as u32 & !mb;
                const SCAN: usize = 64;
                let until = order.len().min(run_start + SCAN);
                let mut q = run_start;
                let mut strongest = None;
                while let Some(key) = order.next_missing(&mut q, until, mb) {
                    let mi = falling::index(key);
                    let fi = crate::split::subset_index(rest ^ falling::mask(key));
                    if legal_pair(fi, mi) {
                        strongest = Some((mi, falling::value(key)));
                        break;
                    }
                }
                if strongest.is_none() && until < order.len() {
                    // Each middle as `value << 16 | !index` (16 bits): a legal middle is one
                    // whose key is at most the back's (weaker, or as strong and placed later).
                    let kb = ((vb.raw() as u64) << 16) | (!bi as u64 & 0xffff);
                    let mut km = 0u64;
                    for &(fi, mi) in pairs {
                        let vm = v5[mi as usize].raw();
                        let key = ((vm as u64) << 16) | (!mi as u64 & 0xffff);
                        let ok = (key <= kb) & (v3[fi as usize].raw() <= vm);
                        km = km.max(key & (ok as u64).wrapping_neg());
                    }
                    strongest = (km != 0).then_some((!km as usize & 0xffff, (km >> 16) as u32));
                }
                let Some((top_mi, top_value)) = strongest else {
                    continue;
                };
                // A second `ub2`: the strongest legal middle with the first front from the
                // cap that misses the back (every legal front is there or after it).
                let mut r = fronts.first_missing(cap, fronts.len(), mb);
                if r == fronts.len() {
                    continue;
                }
                let top_mf = lazy(top_mi, Lane::Middle);
                if full {
                    let kr = fronts.at(r);
                    let vr = falling::value(kr);
                    // The first `ub2` of the same values passed: this one is it.
                    if passed.is_none_or(|(f, m, _)| (f, m) != (vr, top_value)) {
                        if failed.covers(vr, top_value) {
                            continue;
                        }
                        let s = scorer.score(&lazy(falling::index(kr), Lane::Front), &top_mf, &bf);
                        if s <= floor {
                            failed.push(vr, top_value);
                            continue;
                        }
                        passed = Some((vr, top_value, s));
                    }
                }
                // The frontier: fronts missing the back in falling value, each kept when
                // its middle is legal and beats every kept middle (`high`). After the first
                // few, the strongest middles may be taken from the other side: when the
                // strongest middle left is one of a few of its category and deciding ranks
                // (a straight that only the weakest fronts leave, say) and the front with
                // the strongest middle after them cannot beat the best found, their pairs
                // are scored, and every other pair is bounded by that: its front is this
                // one or after it, and its middle is at most that middle.
                let mut high: Option<u32> = None;
                let mut kept = 0;
                side.len = 0;
                while let Some(fk) = fronts.next_missing(&mut r, fronts.len(), mb) {
                    let (fi, mi) = (
                        falling::index(fk),
                        crate::split::subset_index(rest ^ falling::mask(fk)),
                    );
                    let (vf, vm) = (falling::value(fk), v5[mi].raw());
                    if !legal_pair(fi, mi) || high.is_some_and(|h| vm <= h) {
                        continue;
                    }
                    let ff = lazy(fi, Lane::Front);
                    // The front's bound: the `ub2` just taken when the values are its.
                    let ub = match passed {
                        Some((f, m, s)) if (f, m) == (vf, top_value) => s,
                        _ => scorer.score(&ff, &top_mf, &bf),
                    };
                    if ub <= floor {
                        if high.is_none() {
                            failed.push(vf, top_value);
                        }
                        break;
                    }
                    if kept >= SIDE_AFTER && full {
                        if side.len == 0 {
                            side.fill(pairs, v5, &legal_pair);
                        }
                        if let Some((group, after)) = side.strongest_group() {
                            let beaten = match after {
                                Some(a) => scorer.score(&ff, &lazy(a, Lane::Middle), &bf) <= floor,
                                None => true,
                            };
                            if beaten {
                                stats.middle_side += 1;
                                // Strongest middle first; a pair whose front is one the
                                // front side met (stronger than this front) was scored or
                                // passed there, and one whose front is no stronger than
                                // that of a stronger middle scored here is passed.
                                let mut front_high = 0u32;
                                for (sf, sm) in side.pairs_of(group) {
                                    let vsf = v3[sf].raw();
                                    if vsf > vf || (front_high != 0 && vsf <= front_high) {
                                        continue;
                                    }
                                    front_high = vsf;
                                    stats.scored += 1;
                                    let e = exact(
                                        &lazy(sf, Lane::Front),
                                        &lazy(sm, Lane::Middle),
                                        &bf,
                                        (sf, sm, bi),
                                    );
                                    offer((sf, sm, bi), e, &mut best, &mut floor);
                                }
                                break;
                            }
                        }
                    }
                    if high.is_none() {
                        stats.backs += 1;
                    }
                    high = Some(vm);
                    kept += 1;
                    stats.scored += 1;
                    // A middle of the strongest's value: the split's score is the bound.
                    let e = if vm == top_value {
                        ub
                    } else {
                        exact(&ff, &lazy(mi, Lane::Middle), &bf, (fi, mi, bi))
                    };
                    offer((fi, mi, bi), e, &mut best, &mut floor);
                    if vm == top_value {
                        break;
                    }
                }
                continue;
            }
            // 13 cards: the back's 56 (front, middle) pairs. The legal ones are kept with
            // their values, and the strongest legal front and middle found (`ub2`) in the
            // same branch-free pass, each as `value << 8 | place + 1`.
            let mut legal = [(0u32, 0u32, 0u16, 0u16); 56];
            let mut k = 0;
            let (mut kf, mut km) = (0u64, 0u64);
            for &(fi, mi) in pairs {
                let (vf, vm) = (v3[fi as usize].raw(), v5[mi as usize].raw());
                let ok = legal_pair(fi as usize, mi as usize);
                let sel = (ok as u64).wrapping_neg();
                legal[k] = (vf, vm, fi, mi);
                kf = kf.max((((vf as u64) << 8) | (k as u64 + 1)) & sel);
                km = km.max((((vm as u64) << 8) | (k as u64 + 1)) & sel);
                k += ok as usize;
            }
            if k == 0 {
                continue;
            }
            let legal = &legal[..k];
            let pick = |key: u64| legal[(key & 0xff) as usize - 1];
            let top_value = (km >> 8) as u32;
            let top_mf = lazy(pick(km).3 as usize, Lane::Middle);
            if prune && full {
                let ub2 = scorer.score(&lazy(pick(kf).2 as usize, Lane::Front), &top_mf, &bf);
                if ub2 <= floor {
                    failed.push((kf >> 8) as u32, top_value);
                    continue;
                }
            }
            stats.backs += 1;
            for &(_, _, fi, mi) in legal {
                let (fi, mi) = (fi as usize, mi as usize);
                stats.scored += 1;
                let e = exact(
                    &lazy(fi, Lane::Front),
                    &lazy(mi, Lane::Middle),
                    &bf,
                    (fi, mi, bi),
                );
                offer((fi, mi, bi), e, &mut best, &mut floor);
            }
        }
    });
    let mut best = best.into_vec();
    best.sort_by(|a, b| crate::solve::best_first(a.expected, b.expected));
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, DeckKind};
    use crate::deal::{rng_for, shuffle};
    use crate::eval::Wheel;
    use crate::lanes::{LaneCounts, LaneTables};
    use crate::model::Role;
    use crate::rules::{HomeRun, Majority, Mode, Scoop};
    use crate::solve::ev_all;
    use crate::split::HandSplits;
    use crate::train::build_tables;

    /// Rule variants covering every term of the model: royalties, scoop double and bonus,
    /// home run double and bonus, majority bonus, banker mode with the banker winning ties.
    fn variants() -> Vec<Rules> {
        let mut royal = [[1i64; 10]; 3];
        royal[0][3] = 3;
        royal[1][6] = 2;
        royal[1][7] = 8;
        royal[1][8] = 10;
        royal[2][7] = 4;
        royal[2][8] = 5;
        let mut tiered = [[1i64; 10], [2; 10], [3; 10]];
        tiered[0][3] = 7;
        tiered[1][7] = 10;
        tiered[1][8] = 12;
        tiered[2][7] = 11;
        tiered[2][8] = 13;
        vec![
            Rules::default(),
            Rules {
                lane_values: royal,
                scoop: Scoop::double(),
                home_run: HomeRun::double(3),
                ..Rules::default()
            },
            Rules {
                lane_values: tiered,
                scoop: Scoop::bonus(6),
                home_run: HomeRun::bonus(12, 4),
                ..Rules::default()
            },
            Rules {
                majority: Majority { units: 1 },
                ..Rules::default()
            },
            Rules {
                mode: Mode::Banker,
                banker_wins_ties: true,
                lane_values: [[1; 10], [2; 10], [3; 10]],
                scoop: Scoop::double(),
                ..Rules::default()
            },
            // Lane values that fall as the category rises: a front pair worth more than
            // front trips, middle quads worth less than a middle full house.
            Rules {
                lane_values: falling(royal),
                scoop: Scoop::double(),
                home_run: HomeRun::double(3),
                ..Rules::default()
            },
            // The same with the banker winning ties: its players' bounds are not priced at
            // the envelope (a drawn lane pays their own units), the banker's are.
            Rules {
                mode: Mode::Banker,
                banker_wins_ties: true,
                lane_values: falling([[1; 10], [2; 10], [3; 10]]),
                scoop: Scoop::bonus(3),
                ..Rules::default()
            },
        ]
    }

    fn falling(mut values: [[i64; 10]; 3]) -> [[i64; 10]; 3] {
        values[0][1] = values[0][3] + 6;
        values[1][7] = values[1][6] - 1;
        values
    }

    /// The best expected units of each key's splits, best first.
    fn best_of_each<K: Ord>(scan: &[Candidate], key: impl Fn(&Candidate) -> K) -> Vec<f64> {
        let mut by_key = std::collections::BTreeMap::new();
        for c in scan {
            let e = by_key.entry(key(c)).or_insert(f64::MIN);
            *e = c.expected.max(*e);
        }
        let mut best: Vec<f64> = by_key.into_values().collect();
        best.sort_by(|a, b| b.partial_cmp(a).unwrap());
        best
    }

    /// Whether no two of `found` share a key.
    fn all_differ<K: Ord>(found: &[Candidate], key: impl Fn(&Candidate) -> K) -> bool {
        let mut seen: Vec<K> = found.iter().map(key).collect();
        seen.sort();
        seen.dedup();
        seen.len() == found.len()
    }

    /// The search on a 13-card hand's splits with its own card removal, nothing placed,
    /// for the `top` splits above `above` (`f64::NEG_INFINITY`: [`best_splits`]).
    #[allow(clippy::too_many_arguments)]
    fn search_hand(
        s: &HandSplits,
        rules: &Rules,
        tables: &LaneTables,
        ctx: Context,
        top: usize,
        mode: Distinct,
        above: f64,
        stats: &mut SearchStats,
    ) -> Vec<Candidate> {
        best_splits_above(
            s.cards(),
            s.five_values(),
            s.three_values(),
            Some(s.three_keys()),
            rules,
            tables,
            tables.removal(s.cards(), rules).as_ref(),
            ctx,
            top,
            mode,
            above,
            Need::default(),
            stats,
        )
    }

    fn random_hand(rng: &mut rand_chacha::ChaCha20Rng, deck: DeckKind, n: usize) -> Vec<Card> {
        let mut cards = deck.cards();
        shuffle(&mut cards, rng);
        cards.truncate(n);
        cards
    }

    /// `each` random 13-card hands from the standard deck, as many from the deck with extra
    /// diamonds (some cards twice), then the hands `built`; each with the wheel low and
    /// second.
    fn test_hands(seed: u64, each: usize, built: &[&str]) -> Vec<([Card; 13], Wheel)> {
        let mut rng = rng_for(seed);
        let mut hands: Vec<[Card; 13]> = Vec::new();
        for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
            for _ in 0..each {
                let mut d = deck.cards();
                shuffle(&mut d, &mut rng);
                hands.push(d[..13].try_into().unwrap());
            }
        }
        for text in built {
            hands.push(crate::card::parse_cards(text).unwrap().try_into().unwrap());
        }
        hands
            .into_iter()
            .flat_map(|h| [(h, Wheel::Low), (h, Wheel::Second)])
            .collect()
    }

    #[test]
    fn the_middles_side_groups_the_legal_pairs_of_the_strongest_middle() {
        // Middles by hand: a full house (the strongest, but in no legal pair here), two
        // straights to the nine, a straight to the eight, two pair.
        let v5: Vec<HandValue> = [
            "Ac Ad Ah 2c 2d",
            "9c 8d 7h 6s 5c",
            "9d 8c 7s 6h 5d",
            "8c 7d 6h 5s 4c",
            "Kc Kd 4h 4s 2c",
        ]
        .iter()
        .map(|t| {
            let cards: [Card; 5] = crate::card::parse_cards(t).unwrap().try_into().unwrap();
            crate::eval::evaluate5(&cards, Wheel::Low)
        })
        .collect();
        // (front, middle): fronts 10.. are only names here.
        let pairs = [(10u16, 0u16), (11, 1), (12, 2), (13, 3), (14, 4)];
        let mut side = MiddleSide::default();
        side.fill(&pairs, &v5, &|_, mi| mi != 0);
        assert_eq!(side.len, 4);
        // The two straights to the nine (equal values: the higher front first); after them
        // the straight to the eight.
        assert_eq!(side.strongest_group(), Some((2, Some(3))));
        assert_eq!(side.pairs_of(2).collect::<Vec<_>>(), [(12, 2), (11, 1)]);
        // Every pair legal: the full house alone, and the straights after it.
        let mut side = MiddleSide::default();
        side.fill(&pairs, &v5, &|_, _| true);
        assert_eq!(side.strongest_group(), Some((1, Some(2))));
        assert_eq!(side.pairs_of(1).collect::<Vec<_>>(), [(10, 0)]);
        // A group alone: nothing after it.
        let mut side = MiddleSide::default();
        side.fill(&pairs[1..3], &v5, &|_, _| true);
        assert_eq!(side.strongest_group(), Some((2, None)));
        // More than SIDE_GROUP pairs of the strongest middle's category and deciding ranks
        // (here one middle with five fronts): no group.
        let many: Vec<(u16, u16)> = (0..=SIDE_GROUP as u16).map(|f| (20 + f, 1)).collect();
        let mut side = MiddleSide::default();
        side.fill(&many, &v5, &|_, _| true);
        assert_eq!(side.strongest_group(), None);
        // No legal pair: none.
        let mut side = MiddleSide::default();
        side.fill(&pairs, &v5, &|_, _| false);
        assert_eq!(side.strongest_group(), None);
    }

    #[test]
    fn a_rest_is_plain_as_its_middles_values_say() {
        // Every back of random hands, standard and with extra diamonds (some cards twice),
        // and of hands built to leave flushes, straights and the back's own ranks, five of
        // a kind and thirteen of a suit; the wheel low and second.
        let hands = test_hands(
            17,
            150,
            &[
                "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
                "5h 6h 7h 8h 9h 5c 6c 7c 8c 9c 2d 3d 4s",
                "7s 7h 7d 7c 8s 8h 8d 8c 9s 9h 9d 9c Ts",
                "2h 3h 4h 5h 6h 7h 8h 2s 3s 4s 5s 6s Ad",
                // The extra diamonds: cards twice, five of a kind, thirteen of a suit.
                "7d 7d 7c 7h 7s 8d 8d 9d 9d Td Td Jd Jd",
                "2d 2d 3d 3d 4d 4d 5d 5d 6d 6d Ad Ad Kd",
                "Ad Ad Ac Ah As 2d 2d 3d 3d 4d 4d 5d 5c",
            ],
        );
        let (mut plain, mut other) = (0, 0);
        for &(ref h, wheel) in &hands {
            let s = HandSplits::new(h, wheel);
            let rest = Rest::new(h);
            let v5 = s.five_values();
            for (bi, &mb) in subsets(13).five.iter().enumerate() {
                let want = rest_is_plain(crate::split::rest_pairs(bi), v5, v5[bi]);
                assert_eq!(
                    rest.is_plain(mb, v5[bi]),
                    want,
                    "{h:?} {wheel:?} back {mb:b}"
                );
                if want {
                    plain += 1;
                } else {
                    other += 1;
                }
            }
        }
        assert!(plain > 10_000 && other > 10_000, "{plain} {other}");
    }

    #[test]
    fn a_fronts_ways_read_from_straights_and_flushes_are_its_126_ways() {
        // Every pair and trips front of random hands (standard, and with extra diamonds:
        // cards twice, five of a kind) and of hands built around pairs, trips, straights
        // and flushes: where the straights and flushes left are read, the weakest stronger
        // five over the ways with both fives at least the front is the one the 126 ways
        // give. They must be read often, both with no such way and with one, and the ways
        // read in full often too (a rule that never fires would pass).
        let hands = test_hands(
            29,
            300,
            &[
                // Pairs: four at or above a low front, two above a high one, two pairs below.
                "Ac Ad Kc Kd 5c 5d 4h 4s 9c Th 2d 3s 7h",
                "Ac Ad 8c 8d 5c 5d 4h 4s 9c Th 2d 3s 7h",
                "Kc Kd Qc Qd Jh 2d 3s 4h 6s 8c 9d Th Ac",
                // Trips: two sets, one set, sets and a straight left; quads.
                "7s 7h 7d 9c 9d 9h 2c 2d 4s 5h Jc Qd Kh",
                "7s 7h 7d 9c 9d Ah 2c 2d 4s 5h Jc Qd Kh",
                "7s 7h 7d 3c 4d 5h 6c 8d 9s Th Jc Qd Kh",
                "7s 7h 7d 7c 4d 5h 6c 8d 9s Th Jc Qd Kh",
                "Ks Kh Kd Kc 2d 2h 6c 8d 9s Th Jc Qd Ah",
                // Straights and flushes left behind, the wheel among them; a straight flush.
                "Ah 2c 3d 4s 5h 5c 5d Kc Kd Qs Jh 9c 8d",
                "2h 5h 8h Jh Kh Ac Ad 3c 3d 9s 9d Tc 7s",
                "9d Td Jd Qd Kd 9h Th Jh Qh Kh 9s 2c 3c",
                "As Ad Ac Kh Qh Jh Th 9h 8h 7h 6h 5h Kc",
                "6c Qd Js Qs 2h 9s Kd 7c 8s Qh 3c Ac 4d",
                // A straight whose top rank is held three times: with the nine of hearts a
                // straight flush, with another nine the weaker plain straight.
                "2c 2d 3s 9h 9s 9c 5h 6h 7h 8h Kc Jd Ad",
                // The extra diamonds: cards twice, five of a kind.
                "7d 7d 7c 7h 7s 8d 8d 9d 9d Td Td Jd Jd",
                "Ad Ad Ac Ah As 2d 2d 3d 3d 4d 4d 5d 5c",
            ],
        );
        let (mut none, mut some, mut full) = (0, 0, 0);
        for &(ref h, wheel) in &hands {
            let s = HandSplits::new(h, wheel);
            let rest = Rest::new(h);
            let (v3, v5) = (s.three_values(), s.five_values());
            for (fi, &mf) in subsets(13).three.iter().enumerate() {
                let vf = v3[fi];
                if !matches!(vf.category(), Category::OnePair | Category::ThreeOfAKind) {
                    continue;
                }
                let ways = crate::split::front_rest(fi)
                    .iter()
                    .map(|&(a, b)| (v5[a as usize], v5[b as usize]))
                    .filter(|&(x, y)| x.min(y) >= vf)
                    .map(|(x, y)| x.max(y).raw())
                    .min()
                    .unwrap_or(u32::MAX);
                match rest.reach_special(mf, vf, v5) {
                    Some(w) => {
                        assert_eq!(w, ways, "{h:?} {wheel:?} front {mf:b}");
                        if w == u32::MAX {
                            none += 1
                        } else {
                            some += 1
                        }
                    }
                    None => full += 1,
                }
            }
        }
        assert!(
            none > 2_000 && some > 100 && full > 2_000,
            "{none} {some} {full}"
        );
    }

    #[test]
    fn no_two_disjoint_fives_share_a_group_whose_floor_is_given() {
        // Every five of random hands (standard, and with extra diamonds: cards twice, five
        // of a kind) and of hands built to hold groups twice (two pairs of one rank, a high
        // card's ranks twice): where a floor is given, no five of the group misses another
        // (no middle of the group sits under a back of it), every five of the group is at
        // least the floor and every five outside it below is under it. Floors must be
        // given and withheld often (a rule that never fires would pass).
        let hands = test_hands(
            37,
            100,
            &[
                "As Ad Ac Ah Kc Kd Qs Jh 9c 7d 5s 4h 3c",
                "As Ks Qs Js 9h Ah Kh Qh Jh 9s 7c 5d 3c",
                "As Ad Ks Kd Qs Ah Ac Kh Kc Qh 7c 5d 3c",
                "6c Qd Js Qs 2h 9s Kd 7c 8s Qh 3c Ac 4d",
                "7d 7d 7c 7h 7s 8d 8d 9d 9d Td Td Jd Jd",
            ],
        );
        let (mut given, mut withheld) = (0, 0);
        for &(ref h, wheel) in &hands {
            let s = HandSplits::new(h, wheel);
            let rest = Rest::new(h);
            let v5 = s.five_values();
            let masks = &subsets(13).five;
            let group = |v: HandValue| v.raw() >> PRIMARY_SHIFT;
            for (bi, &vb) in v5.iter().enumerate() {
                let Some(least) = rest.group_floor(vb) else {
                    withheld += 1;
                    continue;
                };
                given += 1;
                for (mi, &vm) in v5.iter().enumerate() {
                    if group(vm) == group(vb) {
                        assert!(vm.raw() >= least, "{h:?} {vb:?} {vm:?}");
                        assert!(
                            masks[mi] & masks[bi] != 0 || mi == bi,
                            "{h:?} {vb:?} {vm:?}"
                        );
                    } else if vm < vb {
                        assert!(vm.raw() < least, "{h:?} {vb:?} {vm:?}");
                    }
                }
            }
        }
        assert!(given > 100_000 && withheld > 1_000, "{given} {withheld}");
    }

    /// A banker who wins ties, heads-up, on tables with classes: the search's best equals
    /// the full scan's to the last bit (it missed it by 3e-9 and 1e-8 units while a lane's
    /// P(at most) was taken as P(below) + P(equal) and rounded: one unit in the last place
    /// above the next value's P(below), so a bound fell under a split it bounds).
    #[test]
    fn a_banker_who_wins_ties_gets_the_full_scans_best_exactly() {
        let rules = &variants()[4];
        let counts = build_tables(rules, 4, 300, 2, 3);
        let mixed = LaneTables::from_counts(&counts, rules);
        let h: [Card; 13] = crate::card::parse_cards("8d Js Qh 3s 6d Tc 3d Ks 2s 5c Qc Th 7d")
            .unwrap()
            .try_into()
            .unwrap();
        for removal in [true, false] {
            let tables = &mixed.clone().with_card_removal(removal);
            let ctx = Context {
                players: 2,
                role: Role::Banker,
            };
            let (found, best, _) = crate::solve::ev_check(&h, rules, tables, ctx);
            assert_eq!(found.to_bits(), best.to_bits(), "{found} vs {best}");
        }
    }

    #[test]
    fn pruned_search_equals_full_scan() {
        let mut rng = rng_for(11);
        for rules in variants() {
            // Splits scored exactly and legal splits, where the bounds prune.
            let (mut scored, mut legal) = (0usize, 0usize);
            // Half the hands on tables with classes (the joint model), half without.
            let counts = build_tables(&rules, 4, 300, 2, 3);
            let mixed = LaneTables::from_counts(&counts, &rules);
            let lanes_only =
                LaneTables::from_counts(&LaneCounts::of_lanes(counts.lanes.clone()), &rules);
            assert!(mixed.has_classes() && !lanes_only.has_classes());
            for players in [2, 3, 4] {
                for role in [Role::Player, Role::Banker] {
                    if role == Role::Banker && rules.mode != Mode::Banker {
                        continue;
                    }
                    let ctx = Context { players, role };
                    for i in 0..12 {
                        // Card removal on (the default) and, every third hand, off.
                        let base = if i % 2 == 0 { &mixed } else { &lanes_only };
                        let tables = &base.clone().with_card_removal(i % 3 != 2);
                        // Hands where falling lane values change the best split: trips or
                        // a pair in front; quads or a full house in the middle. Under the
                        // falling rules, a frontier of (front, middle) misses the first's
                        // best split. Then backs of one value met many times: three ways
                        // to hold K K K 5 5, the last in the walk (the lowest positions)
                        // leaving five hearts for a flush middle where the others leave
                        // four; straights, each held with several suits; and two flushes
                        // of one value, a middle and a back listed both ways round.
                        let h: [Card; 13] = match i {
                            0..=5 => crate::card::parse_cards(
                                [
                                    "Kc Tc 3d Ts Td 9h 9s 8d 9d 3s 5s 5c 3h",
                                    "Ah Ad Ac Kh Kd 7s 7c 4h 4d 9s 3c 2h 5s",
                                    "9h 9d 9c 9s Qh Qd Qc 5h 5d 2s 3c 7h Jd",
                                    "5c 5d 2s 3d 8c Ah Qh 9h 7h 5h Ks Kd Kc",
                                    "9s Kh 9c Jc 7d 6d Qc Th 8c 4d Js 3h 8h",
                                    "Ah Kh 9h 7h 5h As Ks 9s 7s 5s Qd Jc 2c",
                                ][i],
                            )
                            .unwrap(),
                            _ => random_hand(&mut rng, DeckKind::Standard, 13),
                        }
                        .try_into()
                        .unwrap();
                        let s = HandSplits::new(&h, rules.wheel);
                        let scan = ev_all(&s, &rules, tables, ctx);
                        let mut all: Vec<f64> = scan.iter().map(|c| c.expected).collect();
                        let pruned = crate::model::units_raise_score(&rules, role, tables);
                        all.sort_by(|a, b| b.partial_cmp(a).unwrap());
                        // The best of each distinct (front, middle, back) values, best first.
                        let triple = |c: &Candidate| {
                            let (f, m, b) = c.subsets;
                            (s.three_values()[f], s.five_values()[m], s.five_values()[b])
                        };
                        let all_distinct = best_of_each(&scan, triple);
                        // The best of each label (the hints' kinds): the front's category
                        // and the rank it holds most often (the highest of those), the
                        // middle's and the back's categories, told from the cards.
                        let label = |c: &Candidate| {
                            let (f, m, b) = s.masks(c.subsets.0, c.subsets.1, c.subsets.2);
                            let mut count = [0u8; 13];
                            for p in (0..13).filter(|p| f >> p & 1 == 1) {
                                count[h[p].rank_index() as usize] += 1;
                            }
                            let most = *count.iter().max().unwrap();
                            let rank = (0..13).rev().find(|&r| count[r] == most).unwrap();
                            let category = |m: u16| s.value(m).category();
                            (category(f), rank, category(m), category(b))
                        };
                        let all_labels = best_of_each(&scan, label);
                        // One best split (the per-back frontier), the six best, the six
                        // best with distinct lane values, and the best of the five best labels.
                        let modes = [
                            (1, Distinct::No),
                            (6, Distinct::No),
                            (6, Distinct::Values),
                            (5, Distinct::Labels),
                        ];
                        for (want, mode) in modes {
                            let mut stats = SearchStats::default();
                            let top = search_hand(
                                &s,
                                &rules,
                                tables,
                                ctx,
                                want,
                                mode,
                                f64::NEG_INFINITY,
                                &mut stats,
                            );
                            let expect = match mode {
                                Distinct::No => &all,
                                Distinct::Values => &all_distinct,
                                Distinct::Labels => &all_labels,
                            };
                            let want = want.min(expect.len());
                            assert_eq!(top.len(), want);
                            if pruned {
                                scored += stats.scored;
                                legal += all.len();
                            }
                            for (c, e) in top.iter().zip(expect) {
                                assert!((c.expected - e).abs() < 1e-9, "{} vs {e}", c.expected);
                                let v = triple(c);
                                assert!(v.0 <= v.1 && v.1 <= v.2, "legal");
                            }
                            if mode == Distinct::Values {
                                assert!(all_differ(&top, triple), "distinct values");
                            }
                            if mode == Distinct::Labels {
                                assert!(all_differ(&top, label), "distinct labels");
                            }
                            // Pruned against a floor from the start: the splits above it,
                            // none when it is the best. Floors halfway between two scores
                            // of the full scan (clear of rounding).
                            for k in [0usize, 2, 9] {
                                let (Some(&hi), Some(&lo)) = (expect.get(k), expect.get(k + 1))
                                else {
                                    continue;
                                };
                                if hi - lo < 1e-6 {
                                    continue;
                                }
                                for above in [(hi + lo) / 2.0, expect[0] + 1e-6] {
                                    let got = search_hand(
                                        &s, &rules, tables, ctx, want, mode, above, &mut stats,
                                    );
                                    let better: Vec<f64> =
                                        expect.iter().copied().filter(|&e| e > above).collect();
                                    assert_eq!(got.len(), better.len().min(want), "above {above}");
                                    for (c, e) in got.iter().zip(&better) {
                                        assert!(
                                            (c.expected - e).abs() < 1e-9,
                                            "{} vs {e}",
                                            c.expected
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // The bounds cut the work, with falling lane values too.
            assert!(scored * 10 < legal, "{scored} of {legal} splits scored");
        }
    }

    #[test]
    fn runs_of_backs_searched_front_first_equal_a_full_scan() {
        // Hands of five to seven ranks: many one-pair, two-pair and trips backs that differ
        // only in their kickers (runs searched front first), quads, and runs the walk
        // searches back by back (a rank held three times under a pair's run, a full house).
        // Each rule set also with the deck of extra diamonds (a pair may be one card held
        // twice), its tables built for that deck.
        let mut rng = rng_for(29);
        let (mut fronts_first, mut best_in_run, mut twins) = (0, 0, 0);
        let decks = [DeckKind::Standard, DeckKind::ExtraDiamonds];
        let sets = variants()
            .into_iter()
            .flat_map(|r| decks.map(|deck| Rules { deck, ..r.clone() }))
            .filter(lane_values_monotone);
        for rules in sets {
            let counts = build_tables(&rules, 4, 300, 2, 3);
            let tables = LaneTables::from_counts(&counts, &rules);
            for i in 0..120 {
                let h = crate::runs::few_ranks(&mut rng, rules.deck, 5 + i % 3);
                let role = if rules.mode == Mode::Banker {
                    Role::Banker
                } else {
                    Role::Player
                };
                let ctx = Context {
                    players: 2 + i % 3,
                    role,
                };
                let s = HandSplits::new(&h, rules.wheel);
                let mut all: Vec<f64> = ev_all(&s, &rules, &tables, ctx)
                    .iter()
                    .map(|c| c.expected)
                    .collect();
                all.sort_by(|a, b| b.partial_cmp(a).unwrap());
                let mut floors = vec![
                    (f64::NEG_INFINITY, Distinct::No),
                    (f64::NEG_INFINITY, Distinct::Values),
                    (all[0] + 1e-6, Distinct::No),
                ];
                if let Some(k) = (1..all.len()).find(|&k| all[0] - all[k] > 1e-6) {
                    floors.push(((all[0] + all[k]) / 2.0, Distinct::No));
                }
                for (above, mode) in floors {
                    let mut stats = SearchStats::default();
                    let got = search_hand(&s, &rules, &tables, ctx, 1, mode, above, &mut stats);
                    fronts_first += stats.runs;
                    twins += stats.twin_fronts;
                    if above > all[0] {
                        assert!(got.is_empty(), "nothing above the best");
                        continue;
                    }
                    assert_eq!(got.len(), 1);
                    assert!(
                        (got[0].expected - all[0]).abs() < 1e-9,
                        "{} vs {}",
                        got[0].expected,
                        all[0]
                    );
                    let (f, m, b) = got[0].subsets;
                    let (vf, vm, vb) =
                        (s.three_values()[f], s.five_values()[m], s.five_values()[b]);
                    assert!(vf <= vm && vm <= vb, "legal");
                    let (mf, mm, mb) = s.masks(f, m, b);
                    assert_eq!(mf | mm | mb, 0x1fff, "every card placed once");
                    best_in_run += crate::runs::Run::of(&h, vb).is_some() as usize;
                }
            }
        }
        // Many best splits have a back of a run searched front first.
        assert!(
            best_in_run > 300,
            "{best_in_run} best splits with a back of a run"
        );
        // The runs were searched front first (not only passed by the bounds), and fronts
        // of them passed as twins.
        assert!(
            fronts_first > 100,
            "{fronts_first} runs searched front first"
        );
        assert!(twins > 100, "{twins} twin fronts passed");
    }

    #[test]
    fn hands_holding_a_diamond_twice_equal_a_full_scan() {
        // The extra diamonds: a pair of one diamond held twice, and many other diamonds of
        // seven ranks, under every rule set. Two backs that hold the same cards are not
        // twins when a five of their value misses them: that middle sits under the later
        // back only (with straight flushes held twice, that split was lost before).
        use rand::Rng;
        let mut rng = rng_for(31);
        let ctx = Context {
            players: 4,
            role: Role::Player,
        };
        for rules in variants() {
            let rules = Rules {
                deck: DeckKind::ExtraDiamonds,
                ..rules
            };
            let counts = build_tables(&rules, 4, 300, 2, 3);
            let tables = LaneTables::from_counts(&counts, &rules);
            let role = if rules.mode == Mode::Banker {
                Role::Banker
            } else {
                Role::Player
            };
            let ctx = Context { role, ..ctx };
            for _ in 0..150 {
                let mut ranks: Vec<u8> = (0..13).collect();
                for i in (1..13).rev() {
                    ranks.swap(i, rng.random_range(0..=i));
                }
                ranks.truncate(7);
                let diamond = crate::card::Suit::Diamonds as u8;
                let pair = Card::from_code(ranks[0] * 4 + diamond).unwrap();
                let mut deck = DeckKind::ExtraDiamonds.cards();
                shuffle(&mut deck, &mut rng);
                let rest = deck
                    .into_iter()
                    .filter(|c| ranks.contains(&c.rank_index()) && *c != pair);
                // 3 to 11 more diamonds (11: every card a diamond), the rest other suits.
                let (suited, other): (Vec<Card>, Vec<Card>) = rest
                    .into_iter()
                    .partition(|c| c.suit() == crate::card::Suit::Diamonds);
                let diamonds = 3 + rng.random_range(0..9usize);
                let mut h = vec![pair, pair];
                h.extend(&suited[..diamonds]);
                h.extend(&other[..11 - diamonds]);
                let h: [Card; 13] = h.try_into().unwrap();
                let s = HandSplits::new(&h, rules.wheel);
                let best = ev_all(&s, &rules, &tables, ctx)
                    .iter()
                    .map(|c| c.expected)
                    .fold(f64::NEG_INFINITY, f64::max);
                let got = search_hand(
                    &s,
                    &rules,
                    &tables,
                    ctx,
                    1,
                    Distinct::No,
                    f64::NEG_INFINITY,
                    &mut SearchStats::default(),
                );
                assert!(
                    (got[0].expected - best).abs() < 1e-9,
                    "{h:?}: {} against {best}",
                    got[0].expected
                );
            }
        }
    }

    #[test]
    fn explain_prices_the_split_as_the_search_does() {
        // The model's terms for the best split found: its units are the search's score;
        // the probabilities are probabilities, and with every lane certain to win (lose)
        // the scoop is certain too (lanes certain in every class).
        let mut rng = rng_for(21);
        for rules in variants() {
            let counts = build_tables(&rules, 4, 200, 1, 5);
            let tables = LaneTables::from_counts(&counts, &rules);
            for (i, role) in [Role::Player, Role::Banker].into_iter().enumerate() {
                if role == Role::Banker && rules.mode != Mode::Banker {
                    continue;
                }
                let ctx = Context { players: 4, role };
                for k in 0..8 {
                    let tables = &tables.clone().with_card_removal((i + k) % 2 == 0);
                    let h: [Card; 13] = random_hand(&mut rng, DeckKind::Standard, 13)
                        .try_into()
                        .unwrap();
                    let s = HandSplits::new(&h, rules.wheel);
                    let removal = tables.removal(&h, &rules);
                    let best = best_splits(
                        s.cards(),
                        s.five_values(),
                        s.three_values(),
                        Some(s.three_keys()),
                        &rules,
                        tables,
                        removal.as_ref(),
                        ctx,
                        1,
                        Distinct::No,
                        &mut SearchStats::default(),
                    )[0];
                    let (f, m, b) = best.subsets;
                    let values = [s.three_values()[f], s.five_values()[m], s.five_values()[b]];
                    let x = crate::model::explain(values, &rules, tables, ctx, removal.as_ref());
                    assert!((x.units - best.expected).abs() < 1e-9, "{x:?} vs {best:?}");
                    for p in x.lanes.iter().flat_map(|&(w, l)| [w, l, w + l]) {
                        assert!((-1e-6..=1.0 + 1e-6).contains(&p), "{x:?}");
                    }
                    assert!(x.scoop >= 0.0 && x.scooped >= 0.0, "{x:?}");
                    assert!(x.scoop + x.scooped <= 1.0 + 1e-6, "{x:?}");
                }
            }
        }
        // The strongest possible split against tables of weak opponents only.
        let rules = variants()[2].clone();
        let weak = crate::card::parse_cards("2s 3h 5c 2c 3d 4s 6h 8c 2h 3c 4d 6s 9c").unwrap();
        let v = |c: &[Card]| crate::eval::evaluate(c, rules.wheel).unwrap();
        let lanes: [Vec<(u32, u64)>; 3] = [
            vec![(v(&weak[..3]).raw(), 5)],
            vec![(v(&weak[3..8]).raw(), 5)],
            vec![(v(&weak[8..]).raw(), 5)],
        ];
        let mut classes: Vec<[Vec<(u32, u64)>; 3]> = vec![Default::default(); 16];
        classes[0] = lanes.clone();
        let tables = LaneTables::from_counts(&LaneCounts { lanes, classes }, &rules);
        let strong = crate::card::parse_cards("As Ad Ac Ks Kh Kd Kc Qs 5h 6h 7h 8h 9h").unwrap();
        let ctx = Context {
            players: 2,
            role: Role::Player,
        };
        let x = crate::model::explain(
            [v(&strong[..3]), v(&strong[3..8]), v(&strong[8..])],
            &rules,
            &tables,
            ctx,
            None,
        );
        assert_eq!(x.lanes, [(1.0, 0.0); 3]);
        assert!((x.scoop - 1.0).abs() < 1e-6 && x.scooped == 0.0, "{x:?}");
        // Heads-up (no home run at 2 players): trips in front 7, quads in the middle 10, a
        // straight flush in the back 13, and the 6-unit scoop bonus: 36 units.
        assert!((x.units - 36.0).abs() < 1e-6, "{x:?}");
    }

    /// The cards at the positions of `mask`.
    fn picked(dealt: &[Card], mask: u32) -> Vec<Card> {
        (0..dealt.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| dealt[i])
            .collect()
    }

    /// Rule sets for the extra diamonds' 16 cards: lane values that rise (as kaixin-extra),
    /// and five of a kind worth less than a straight flush in the middle and back.
    fn extra_rules() -> (Rules, Rules) {
        let middle_falls = Rules {
            deck: DeckKind::ExtraDiamonds,
            dealt: 16,
            ..variants().remove(1)
        };
        let mut rising = middle_falls.clone();
        rising.lane_values[1][9] = 11;
        rising.lane_values[2][9] = 6;
        (rising, middle_falls)
    }

    /// A hand of `n` cards drawn from the extra deck's 26 diamonds and `others` cards of the
    /// other suits: many cards held twice.
    fn diamond_heavy(rng: &mut rand_chacha::ChaCha20Rng, n: usize, others: usize) -> Vec<Card> {
        let (mut pool, mut rest): (Vec<Card>, Vec<Card>) = DeckKind::ExtraDiamonds
            .cards()
            .iter()
            .partition(|c| c.suit() == crate::card::Suit::Diamonds);
        shuffle(&mut rest, rng);
        pool.extend_from_slice(&rest[..others]);
        shuffle(&mut pool, rng);
        pool.truncate(n);
        pool
    }

    #[test]
    fn twins_keys_are_equal_exactly_when_the_cards_are() {
        let mut rng = rng_for(22);
        for case in 0..40 {
            let hand = diamond_heavy(&mut rng, 16, [4, 12, 20, 30][case % 4]);
            let mut once = hand.clone();
            once.sort();
            once.dedup();
            let Some(twins) = Twins::new(&hand) else {
                assert_eq!(once.len(), 16, "no card held twice");
                continue;
            };
            assert!(once.len() < 16);
            let cards_of = |m: u32| {
                let mut c: Vec<Card> = (0..16)
                    .filter(|i| m >> i & 1 == 1)
                    .map(|i| hand[i])
                    .collect();
                c.sort();
                c
            };
            // One key for one set of cards, and one set of cards for one key.
            let mut by_key = std::collections::HashMap::new();
            let mut by_cards = std::collections::HashMap::new();
            for &m in &subsets(16).five {
                let (k, c) = (twins.key(m), cards_of(m));
                assert_eq!(by_key.entry(k).or_insert_with(|| c.clone()), &c);
                assert_eq!(by_cards.entry(c).or_insert(k), &k);
            }
        }
        let standard = random_hand(&mut rng, DeckKind::Standard, 13);
        assert!(Twins::new(&standard).is_none());
    }

    #[test]
    fn cards_held_twice_leave_the_best_splits_unchanged() {
        // Hands of 13 to 16 cards, many held twice, so that many backs and middles hold
        // the same cards as another: the best split (and the best three with distinct
        // values) against the best of every way to keep 13.
        let (rising, middle_falls) = extra_rules();
        let counts = build_tables(&rising, 4, 200, 2, 5);
        let ctx = Context {
            players: 4,
            role: Role::Player,
        };
        let mut rng = rng_for(21);
        let (hands, mut twice) = (16, 0);
        for case in 0..hands {
            let n = [13, 14, 15, 16][case % 4];
            let rules = if case / 4 % 2 == 0 {
                &rising
            } else {
                &middle_falls
            };
            let tables = &LaneTables::from_counts(&counts, rules);
            let dealt = diamond_heavy(&mut rng, n, [4, 12, 20][case % 3]);
            twice += Twins::new(&dealt).is_some() as usize;
            let s = subsets(n);
            let pick = |m: u32| picked(&dealt, m);
            let (v5, v3) = subset_values(&dealt, rules.wheel);
            let removal = tables.removal(&dealt, rules);
            // Every way to keep 13: 13 cards by a full scan; more, each way by the 13-card
            // search (checked against a full scan above) for its best `K` splits, all of
            // them (not distinct: no split is skipped as another's twin there). A split uses
            // 13 of the cards, so it is met under one way to keep 13 only; each way's `K`
            // must hold its best three values (else `K` is too small for this check).
            const K: usize = 100;
            let mut all: Vec<(f64, [HandValue; 3])> = Vec::new();
            for keep in (0u32..1 << n).filter(|m| m.count_ones() == 13) {
                let hs = HandSplits::new(&pick(keep).try_into().unwrap(), rules.wheel);
                let (h3, h5) = (hs.three_values(), hs.five_values());
                let c = if n == 13 {
                    ev_all(&hs, rules, tables, ctx)
                } else {
                    best_splits(
                        hs.cards(),
                        h5,
                        h3,
                        None,
                        rules,
                        tables,
                        removal.as_ref(),
                        ctx,
                        K,
                        Distinct::No,
                        &mut SearchStats::default(),
                    )
                };
                let values: Vec<[HandValue; 3]> = c
                    .iter()
                    .map(|c| [h3[c.subsets.0], h5[c.subsets.1], h5[c.subsets.2]])
                    .collect();
                let mut kinds = values.clone();
                kinds.sort();
                kinds.dedup();
                assert!(c.len() < K || kinds.len() >= 3, "K too small");
                all.extend(c.iter().zip(values).map(|(c, v)| (c.expected, v)));
            }
            all.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
            let mut distinct: Vec<(f64, [HandValue; 3])> = Vec::new();
            for &w in &all {
                if !distinct.iter().any(|d| d.1 == w.1) {
                    distinct.push(w);
                }
            }
            // The best forty with any values too (each split counted, twins included).
            for (top, dist) in [(1, false), (3, true), (40, false)] {
                let want = if dist { &distinct } else { &all };
                let got = best_splits(
                    &dealt,
                    &v5,
                    &v3,
                    None,
                    rules,
                    tables,
                    removal.as_ref(),
                    ctx,
                    top,
                    if dist { Distinct::Values } else { Distinct::No },
                    &mut SearchStats::default(),
                );
                assert_eq!(got.len(), top);
                for (c, w) in got.iter().zip(want) {
                    assert!((c.expected - w.0).abs() < 1e-9, "{} vs {}", c.expected, w.0);
                    let (f, m, b) = c.subsets;
                    let (mf, mm, mb) = (s.three[f], s.five[m], s.five[b]);
                    assert_eq!((mf & mm, mf & mb, mm & mb), (0, 0, 0), "disjoint lanes");
                    assert!(v3[f] <= v5[m] && v5[m] <= v5[b], "legal");
                }
            }
        }
        assert!(
            twice >= hands - 2,
            "most hands hold some card twice: {twice}"
        );
    }

    #[test]
    fn sixteen_cards_equal_the_best_of_every_13() {
        // Three rule sets: lane values that rise (as kaixin-extra); five of a kind worth
        // less than a straight flush in the middle and back (as `variants` leaves it), the
        // bounds at the envelope but a (back, middle)'s strongest front still best; and a
        // front pair worth more than front trips, fronts scored down to the first whose
        // bound cannot beat the best found.
        let (rising, middle_falls) = extra_rules();
        let mut front_falls = rising.clone();
        front_falls.lane_values[0][1] = 9;
        assert!(lane_values_monotone(&rising));
        assert!(
            !lane_values_monotone(&middle_falls) && lane_value_rises(&middle_falls, Lane::Front)
        );
        assert!(!lane_value_rises(&front_falls, Lane::Front));
        // One training (the tables' lane outcomes), priced under each rule set.
        let counts = build_tables(&rising, 4, 200, 2, 5);
        let ctx = Context {
            players: 4,
            role: Role::Player,
        };
        let mut rng = rng_for(12);
        let cases = [
            (&rising, 14),
            (&middle_falls, 15),
            (&rising, 16),
            (&middle_falls, 16),
            (&rising, 16),
            (&middle_falls, 16),
            (&rising, 16),
            (&front_falls, 14),
            (&front_falls, 14),
            (&front_falls, 15),
            (&front_falls, 15),
            (&front_falls, 15),
        ];
        // The last hand, found by searching random ones: there, stopping at the first front
        // whose own score (not its bound) cannot beat the best found misses the best split.
        let fixed = "Th Kc 5c Ad 7h 7s Ts 2h As 7c Jc Ah 3d 2c Td";
        for (case, (rules, n)) in cases.into_iter().enumerate() {
            let tables = &LaneTables::from_counts(&counts, rules);
            {
                let dealt = if case + 1 == cases.len() {
                    crate::card::parse_cards(fixed).unwrap()
                } else {
                    random_hand(&mut rng, DeckKind::ExtraDiamonds, n)
                };
                let s = subsets(n);
                let pick = |m: u32| picked(&dealt, m);
                let (v5, v3) = subset_values(&dealt, rules.wheel);
                // Brute force over every way to keep 13, each solved by the 13-card search
                // (itself checked against a full scan above): a split uses 13 of the cards,
                // so it is met under one way to keep 13 only, and the best three splits are
                // the best three of each way's best three.
                // Card removal (none with the extra diamonds) counts every dealt card.
                let removal = tables.removal(&dealt, rules);
                // Each way to keep 13 and its best three splits' scores.
                let mut kept: Vec<(u32, Vec<f64>)> = Vec::new();
                for keep in (0u32..1 << n).filter(|m| m.count_ones() == 13) {
                    let h: [Card; 13] = pick(keep).try_into().unwrap();
                    let hs = HandSplits::new(&h, rules.wheel);
                    let mut st = SearchStats::default();
                    let c = best_splits(
                        hs.cards(),
                        hs.five_values(),
                        hs.three_values(),
                        Some(hs.three_keys()),
                        rules,
                        tables,
                        removal.as_ref(),
                        ctx,
                        3,
                        Distinct::No,
                        &mut st,
                    );
                    kept.push((keep, c.iter().map(|c| c.expected).collect()));
                }
                // Every split, then each position in turn as one every split must hold (as
                // the horse card when kept): the best three of the ways to keep 13 that hold
                // it.
                let needs = std::iter::once(0).chain((0..n).map(|i| 1u32 << i));
                for (need, top) in needs.flat_map(|need| [(need, 1), (need, 3)]) {
                    let mut want: Vec<f64> = kept
                        .iter()
                        .filter(|k| k.0 & need == need)
                        .flat_map(|k| k.1.iter().copied())
                        .collect();
                    want.sort_by(|a, b| b.partial_cmp(a).unwrap());
                    // From the start, and pruned against a floor between the best two (clear
                    // of rounding) or above the best (nothing).
                    let mut floors = vec![f64::NEG_INFINITY, want[0] + 1e-6];
                    if want[0] - want[1] > 1e-6 {
                        floors.push((want[0] + want[1]) / 2.0);
                    }
                    for above in floors {
                        let got = best_splits_above(
                            &dealt,
                            &v5,
                            &v3,
                            None,
                            rules,
                            tables,
                            removal.as_ref(),
                            ctx,
                            top,
                            Distinct::No,
                            above,
                            Need {
                                held: need,
                                ..Need::default()
                            },
                            &mut SearchStats::default(),
                        );
                        let better: Vec<f64> =
                            want.iter().copied().filter(|&e| e > above).collect();
                        assert_eq!(got.len(), better.len().min(top), "case {case} {above}");
                        for (c, e) in got.iter().zip(&better) {
                            assert!((c.expected - e).abs() < 1e-9, "{} vs {e}", c.expected);
                            let (f, m, b) = c.subsets;
                            let (mf, mm, mb) = (s.three[f], s.five[m], s.five[b]);
                            assert_eq!((mf & mm, mf & mb, mm & mb), (0, 0, 0), "disjoint lanes");
                            assert!(v3[f] <= v5[m] && v5[m] <= v5[b], "legal");
                            assert_eq!((mf | mm | mb) & need, need, "held");
                        }
                    }
                }
            }
        }
    }
}
