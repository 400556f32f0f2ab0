//! The walk over backs in falling value: each back bounded, then searched by the phase that
//! fits it (module docs of [`super`], and the engine internals in the docs).

use super::ask::Ask;
use super::falling;
use super::found::Candidate;
use super::price::Price;
use super::runs::Run;
use super::state::{Back, Hand, Search, SearchStats, CACHE};
use super::twins::own_value_missing;
use crate::rules::Rules;
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::Context;
use crate::strategy::removal::Removal;

/// How a search prices splits: the seat `ctx` under `rules`, with the lane tables `tables`
/// and, when given, the hand's card removal ([`LaneTables::removal`]).
#[derive(Clone, Copy)]
pub struct Pricing<'a> {
    /// The rule set.
    pub rules: &'a Rules,
    /// The lane tables of the `ev` model.
    pub tables: &'a LaneTables,
    /// The opponents' lanes weighed by the cards held.
    pub removal: Option<&'a Removal>,
    /// The table size and seat.
    pub ctx: Context,
}

/// The `ask.top` best splits of `hand` by expected units, best first (ties: first found),
/// kept apart by `ask.distinct`, each worth more than `ask.above` and holding what
/// `ask.need` asks for, counting what was searched into `stats`. With nothing needed and
/// `above` at minus infinity at least one split is returned: a legal split always exists;
/// else empty when no such split is worth more (the search prunes against `above` from
/// the start, as if `top` splits that good were already found).
///
/// The bounds hold for every split, so they hold for those that meet `need`; the
/// shortcuts that pass a back or a middle for one of the same cards or value already
/// searched are left out when `need` is not empty (the other may not meet it), and a
/// middle's front is passed for one of a stronger middle only when that split met it.
/// With 13 cards and a need, a back's middles come from the walk, as with more cards,
/// instead of its 56 pairs.
pub fn best_splits(
    hand: &Hand<'_>,
    pricing: &Pricing<'_>,
    ask: Ask,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    let price = Price::new(pricing.rules, pricing.tables, pricing.removal, pricing.ctx);
    CACHE
        .with(|cell| {
            let mut cache = cell.borrow_mut();
            let mut search = Search::new(hand, price, ask, &mut cache, stats);
            search.walk();
            search.found
        })
        .into_vec()
}

impl Search<'_> {
    /// Visits the backs in falling value until the bound of the backs left cannot beat the
    /// best found (or no legal split is left), searching each back that its bounds pass.
    fn walk(&mut self) {
        for at in 0..self.cache.backs.len() {
            let key = self.cache.backs.at(at);
            let bi = falling::index(key);
            let back = Back {
                at,
                bi,
                mask: falling::mask(key),
                value: self.v5[bi],
            };
            if at > 0 && falling::value(self.cache.backs.at(at - 1)) != back.value.raw() {
                self.walk.run_start = at;
            }
            if (self.walk.passing).is_some_and(|run| run.holds(back.value.raw())) {
                self.walk.run_passed = true;
                continue;
            }
            let full = self.found.full();
            self.stats.visited += 1;
            if self.holds_searched_cards(back) {
                continue;
            }
            if self.price.prune && full && self.no_back_left(back) {
                break;
            }
            self.search_back(back, full);
        }
    }

    /// Searches one back that its bounds passed, by the phase that fits it. `full`: whether
    /// a split had to beat the best found when the back was reached.
    fn search_back(&mut self, back: Back, full: bool) {
        // With 13 cards (and nothing placed) the back's 56 splits come from a table; with
        // more, or cards placed, its middles come from the walk.
        let pairs = (self.n == 13 && self.free).then(|| crate::split::rest_pairs(back.bi));
        // 13 cards, one split asked for: a run of backs that differ only in their
        // kickers, searched front first, then passed.
        let run = match pairs {
            Some(_) if self.price.monotone && self.top == 1 && self.price.prune => {
                Run::of(self.cards, back.value)
            }
            _ => None,
        };
        if let Some(run) = run {
            self.front_first(run, back);
            return;
        }
        let one = self.top == 1 || self.distinct.any();
        if pairs.is_some() && one && self.covered(back) {
            return;
        }
        let Some(pairs) = pairs else {
            self.middles(back);
            return;
        };
        // The last score taken for this back with a front and a middle of these values
        // (a lane's features are its value's): a later score of the same values is it.
        let mut passed = None;
        if self.price.prune && full {
            match self.first_ub2(back) {
                Some(ub2) => passed = Some(ub2),
                None => return,
            }
        }
        if self.price.monotone && self.top == 1 {
            self.frontier(back, pairs, passed, full);
        } else {
            self.every_pair(back, pairs, full);
        }
    }

    /// A card held twice, one split (or distinct ones) asked for: whether `back` holds the
    /// same cards as an earlier back of its value (recording it otherwise). It leaves the
    /// same cards, so its splits are the earlier back's with the same three values; a later
    /// split must beat the best strictly (and, distinct, its twin of the same values), so
    /// the later back is skipped. Unless a five of the back's own value misses it: such a
    /// middle sits under the later of two backs of its value only
    /// ([`super::subsets::middle_under`]), so that split of the later back is none of the
    /// earlier's.
    fn holds_searched_cards(&mut self, back: Back) -> bool {
        let run_start = self.walk.run_start;
        let Some(t) = &mut self.walk.twins else {
            return false;
        };
        if back.at == run_start {
            t.clear();
        }
        let k = t.key(back.mask);
        let order = &mut self.cache.backs;
        if t.searched(k) && !own_value_missing(order, run_start, back.value.raw(), back.mask) {
            return true;
        }
        t.push(k);
        false
    }

    /// 13 cards, one split asked for or distinct ones: whether an earlier back of this
    /// value covers `back` (recording it otherwise). A value fixes its ranks, so every back
    /// of one value leaves the same ranks. When neither of two such backs leaves a flush
    /// (five of one suit) or a five of the back's own value, their (front, middle) pairs
    /// have the same values, legal alike, and score alike: the later back holds no split
    /// that the earlier one's twin (the same three values) did not already place or bound.
    /// A split must beat the best strictly to replace it, and a distinct one also its twin;
    /// so the later back is skipped.
    fn covered(&mut self, back: Back) -> bool {
        let order = &mut self.cache.backs;
        let vb = back.value;
        // Only a back that shares its value with a neighbour in the walk can cover or be
        // covered.
        let in_run = back.at > self.walk.run_start
            || (back.at + 1 < order.len() && falling::value(order.at(back.at + 1)) == vb.raw());
        if in_run && self.rest.is_plain(back.mask, vb) {
            if self.walk.covered == Some(vb) {
                return true;
            }
            self.walk.covered = Some(vb);
        }
        false
    }
}
