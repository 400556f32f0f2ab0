//! A search's state: the hand, what is asked, how splits are priced, what is found, the
//! walk's orders and caches (this thread's, reused hand after hand) and what the walk
//! carries from back to back.

use std::cell::RefCell;

use super::ask::{Ask, Distinct, Need};
use super::failed::Failed;
use super::falling::Falling;
use super::found::Found;
use super::price::Price;
use super::rest::Rest;
use super::runs::Run;
use super::side::MiddleSide;
use super::subsets::{subsets, Subsets};
use super::twins::Twins;
use crate::cards::Card;
use crate::cards::HandValue;
use crate::cards::ThreeKeys;
use crate::error::Lane;
use crate::strategy::model::Feat;

/// The hand a search looks at: its cards (13 to 16) and the values of their 5- and
/// 3-position subsets (indexed as [`subsets`]); `three_keys`, when given, each three's
/// place among the 3-card values ([`crate::split::HandSplits::three_keys`], the tables';
/// else they are computed from `v3`).
#[derive(Clone, Copy)]
pub struct Hand<'a> {
    /// The cards, 13 to 16.
    pub cards: &'a [Card],
    /// The values of the 5-position subsets.
    pub v5: &'a [HandValue],
    /// The values of the 3-position subsets.
    pub v3: &'a [HandValue],
    /// The threes' places among the 3-card values, when the tables gave them.
    pub three_keys: Option<ThreeKeys<'a>>,
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

/// Per-thread walk orders and caches, valid where the stamp is the current search's: each
/// subset's features in each lane it can fill, and per front what [`Search::reach`]
/// found.
#[derive(Default)]
pub(super) struct Cache {
    stamp: u32,
    front: Vec<(u32, Feat)>,
    mid: Vec<(u32, Feat)>,
    back: Vec<(u32, Feat)>,
    /// Per front (13 cards): the weakest back seen of a legal split holding it, and whether
    /// it is the weakest there is.
    pub(super) reach: Vec<(u32, u32, bool)>,
    /// The 5-position subsets (backs and middles) in falling value.
    pub(super) backs: Falling,
    /// The 3-position subsets (fronts) in falling value.
    pub(super) fronts: Falling,
}

impl Cache {
    /// This search's stamp.
    #[inline]
    pub(super) fn stamp(&self) -> u32 {
        self.stamp
    }
}

thread_local! {
    pub(super) static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// A back of the walk: its place, subset index, position mask and value.
#[derive(Clone, Copy)]
pub(super) struct Back {
    pub(super) at: usize,
    pub(super) bi: usize,
    pub(super) mask: u32,
    pub(super) value: HandValue,
}

/// What the walk carries from back to back.
pub(super) struct Walk {
    /// The front cap: fronts in falling value; as backs fall in value, so does the
    /// strongest front that can sit below them (a legal front is at most its middle, at
    /// most its back).
    pub(super) cap: usize,
    /// The first place of the current back's value.
    pub(super) run_start: usize,
    /// More than 13 cards: the place of the middle cap and the end of its value's places.
    pub(super) mid: usize,
    pub(super) mid_end: usize,
    /// The entry of the middle cap (set at the first check; until then no cap: every
    /// value is at most this one's).
    pub(super) mid_key: u64,
    /// The first high card front (found when first needed).
    pub(super) hc: usize,
    /// The last bounds that failed.
    pub(super) failed: Failed,
    /// The value of the last back searched whose rest is plain ([`Rest::is_plain`]).
    pub(super) covered: Option<HandValue>,
    /// A card held twice, one split (or distinct ones) asked for: the cards of the backs
    /// of this value searched so far.
    pub(super) twins: Option<Twins>,
    /// The last run of backs searched front first: its later backs are passed, and the
    /// first back after them takes `ub1` whatever its place.
    pub(super) passing: Option<Run>,
    pub(super) run_passed: bool,
    /// The frontier's other side, refilled per back.
    pub(super) side: MiddleSide,
}

/// One search: its hand, its question and pricing, what it found, its caches and walk.
pub(super) struct Search<'a> {
    pub(super) cards: &'a [Card],
    pub(super) v5: &'a [HandValue],
    pub(super) v3: &'a [HandValue],
    pub(super) n: usize,
    pub(super) subsets: &'static Subsets,
    /// The suit and rank counts of the hand's cards.
    pub(super) rest: Rest,
    /// Splits asked for (at least one).
    pub(super) top: usize,
    pub(super) distinct: Distinct,
    pub(super) need: Need,
    /// Nothing needed.
    pub(super) free: bool,
    /// Splits listed (more than one, equal values allowed): a middle and a back of one
    /// value are listed both ways round.
    pub(super) both: bool,
    pub(super) price: Price<'a>,
    pub(super) found: Found,
    pub(super) cache: &'a mut Cache,
    pub(super) walk: Walk,
    pub(super) stats: &'a mut SearchStats,
}

impl<'a> Search<'a> {
    /// A search of `hand` for `ask`, priced by `price`, in this thread's `cache` (its
    /// orders refilled for the hand), counting into `stats`.
    pub(super) fn new(
        hand: &Hand<'a>,
        price: Price<'a>,
        ask: Ask,
        cache: &'a mut Cache,
        stats: &'a mut SearchStats,
    ) -> Search<'a> {
        let (v5, v3) = (hand.v5, hand.v3);
        let subsets = subsets(hand.cards.len());
        cache.backs.fill(v5, &subsets.five_tails);
        cache
            .fronts
            .fill_threes(v3, &subsets.three_tails, hand.three_keys);
        cache.stamp = cache.stamp.wrapping_add(1);
        if cache.stamp == 0 || cache.mid.len() < v5.len() || cache.front.len() < v3.len() {
            cache.front = vec![(0, Feat::default()); v3.len()];
            cache.mid = vec![(0, Feat::default()); v5.len()];
            cache.back = vec![(0, Feat::default()); v5.len()];
            cache.reach = vec![(0, 0, false); v3.len()];
            cache.stamp = 1;
        }
        let top = ask.top.max(1);
        let free = ask.need.is_empty();
        Search {
            cards: hand.cards,
            v5,
            v3,
            n: hand.cards.len(),
            subsets,
            rest: Rest::new(hand.cards),
            top,
            distinct: ask.distinct,
            need: ask.need,
            free,
            both: top > 1 && !ask.distinct.any(),
            price,
            found: Found::new(top, ask.distinct, ask.above),
            cache,
            walk: Walk {
                cap: 0,
                run_start: 0,
                mid: 0,
                mid_end: 0,
                mid_key: u64::MAX,
                hc: 0,
                failed: Failed::default(),
                covered: None,
                twins: Twins::new(hand.cards).filter(|_| (top == 1 || ask.distinct.any()) && free),
                passing: None,
                run_passed: false,
                side: MiddleSide::default(),
            },
            stats,
        }
    }

    /// The bounding features of subset `i` in `lane` (cached for this search).
    #[inline]
    pub(super) fn feat(&mut self, i: usize, lane: Lane) -> Feat {
        let c = &mut *self.cache;
        let (slot, v) = match lane {
            Lane::Front => (&mut c.front[i], self.v3[i]),
            Lane::Middle => (&mut c.mid[i], self.v5[i]),
            Lane::Back => (&mut c.back[i], self.v5[i]),
        };
        if slot.0 != c.stamp {
            *slot = (c.stamp, self.price.bounding(v, lane));
        }
        slot.1
    }

    /// Whether the split `(fi, mi, bi)`'s features score no more than the best found, once
    /// a split must beat it (the score is taken only then).
    #[inline]
    pub(super) fn cannot_beat(&self, f: &Feat, m: &Feat, b: &Feat) -> bool {
        self.found.full() && self.price.score(f, m, b) <= self.found.floor
    }

    /// Offers split `subsets` worth `expected` to the best found.
    #[inline]
    pub(super) fn offer(&mut self, subsets: (usize, usize, usize), expected: f64) {
        self.found.offer(subsets, expected, self.v3, self.v5);
    }

    /// Whether middle `mi` may sit under `back` ([`super::subsets::middle_under`]).
    #[inline]
    pub(super) fn legal_middle(&self, back: Back, mi: usize) -> bool {
        super::subsets::middle_under(self.v5[mi].raw(), mi, back.value.raw(), back.bi, self.both)
    }

    /// Whether `(fi, mi)` is a legal (front, middle) pair for `back`: the middle under it,
    /// the front no stronger than the middle.
    #[inline]
    pub(super) fn legal_pair(&self, back: Back, fi: usize, mi: usize) -> bool {
        self.legal_middle(back, mi) & (self.v3[fi] <= self.v5[mi])
    }
}
