//! The bounds of the walk: `ub1`, which bounds every split with a back no stronger than the
//! current one (and ends the walk when it cannot beat the best found), and the first `ub2`
//! of a back, from the walk's own order.

use super::falling;
use super::state::{Back, Search};
use crate::cards::Category;
use crate::error::Lane;

/// With 13 cards, `ub1` is checked at every this many places of the walk (`ub1`'s docs).
const UB1_EVERY: usize = 8;

/// Ways to split a front's ten other positions into two fives read at once by
/// [`Search::reach`] (126 in all: 9 steps).
const REACH_WAYS: usize = 14;
const _: () = assert!(126 % REACH_WAYS == 0, "every way read");

/// Places of the walk's orders looked at for a first `ub2`.
const SCAN: usize = 64;

impl Search<'_> {
    /// Whether no split with a back no stronger than `back` can beat the best found, or
    /// none is legal (`ub1`): the walk ends. Also lowers the front cap to the middle cap.
    ///
    /// The middle cap, more than 13 cards: the first five from this back's value down that
    /// some five at least it and at most this back misses (moving forward only); with 13
    /// cards, the back's own value or the strongest five below its group. With 13 cards it
    /// is checked at every eighth back only (and at the first back after a run searched
    /// front first): stopping up to seven backs late changes no result.
    pub(super) fn no_back_left(&mut self, back: Back) -> bool {
        let check = self.n > 13 || back.at % UB1_EVERY == 0 || self.walk.run_passed;
        self.walk.run_passed = false;
        if check {
            match self.middle_cap(back) {
                Some(key) => self.walk.mid_key = key,
                None => return true,
            }
        }
        let mid_cap = back.value.raw().min(falling::value(self.walk.mid_key));
        let fronts = &mut self.cache.fronts;
        let cap = &mut self.walk.cap;
        while *cap + 1 < fronts.len() && falling::value(fronts.at(*cap)) > mid_cap {
            *cap += 1;
        }
        check && self.ub1(back, mid_cap) <= self.found.floor
    }

    /// The entry of the middle cap at `back` (`None`: no legal split has a back this weak).
    fn middle_cap(&mut self, back: Back) -> Option<u64> {
        let run_start = self.walk.run_start;
        let order = &mut self.cache.backs;
        if self.n == 13 {
            // The back's own value caps the middle, or the strongest five below its group
            // when no middle can be of its group (none: no legal split has a back this
            // weak).
            return match self.rest.group_floor(back.value) {
                Some(least) => order.strongest_below(run_start, least),
                None => Some(order.at(run_start)),
            };
        }
        let (mid, mid_end) = (&mut self.walk.mid, &mut self.walk.mid_end);
        let mut p = (*mid).max(run_start);
        while p < order.len() {
            let kp = order.at(p);
            if p >= *mid_end {
                *mid_end = p + 1;
                while *mid_end < order.len()
                    && falling::value(order.at(*mid_end)) == falling::value(kp)
                {
                    *mid_end += 1;
                }
            }
            if order.first_missing(run_start, *mid_end, falling::mask(kp)) < *mid_end {
                break;
            }
            p += 1;
        }
        if p == order.len() {
            // No five misses a five at least it and at most this back: no legal split has
            // a back this weak.
            return None;
        }
        *mid = p;
        Some(order.at(p))
    }

    /// `ub1` at `back` with the middle cap `mid_cap`: the score of the front cap, the
    /// middle cap and the back. With 13 cards, when it does not stop the search, a front
    /// no legal split with a back at most this one holds is passed for good (later backs
    /// are no stronger), down to the first high card front (taken as held, unchecked), and
    /// the bound is taken again with the front cap so lowered. The fronts passed also
    /// tighten the first `ub2` of the backs up to the next check.
    fn ub1(&mut self, back: Back, mid_cap: u32) -> f64 {
        let mc = self.feat(falling::index(self.walk.mid_key), Lane::Middle);
        let bf = self.feat(back.bi, Lane::Back);
        let cap_front = falling::index(self.cache.fronts.at(self.walk.cap));
        let fc = self.feat(cap_front, Lane::Front);
        let ub1 = self.price.score(&fc, &mc, &bf);
        if self.n != 13 || ub1 <= self.found.floor {
            return ub1;
        }
        let fronts_len = self.cache.fronts.len();
        let mut hc = self.walk.hc;
        while hc < fronts_len
            && self.v3[falling::index(self.cache.fronts.at(hc))].category() != Category::HighCard
        {
            hc += 1;
        }
        self.walk.hc = hc;
        if hc >= fronts_len || hc <= self.walk.cap {
            return ub1;
        }
        while self.walk.cap < hc {
            let fk = self.cache.fronts.at(self.walk.cap);
            if falling::value(fk) <= mid_cap && self.reach(falling::index(fk), back.value.raw()) {
                break;
            }
            self.walk.cap += 1;
        }
        let cap_front = falling::index(self.cache.fronts.at(self.walk.cap));
        let fc = self.feat(cap_front, Lane::Front);
        self.price.score(&fc, &mc, &bf)
    }

    /// 13 cards: whether a legal split holding front `fi` can have a back of value at most
    /// `limit`: some way to split the other ten positions into two fives has its weaker at
    /// least the front and its stronger at most `limit`. Kept per front as the weakest such
    /// back seen, and whether that is the least (a full scan found none below).
    fn reach(&mut self, fi: usize, limit: u32) -> bool {
        let (v3, v5) = (self.v3, self.v5);
        let stamp = self.cache.stamp();
        let slot = &mut self.cache.reach[fi];
        if slot.0 == stamp && (slot.1 <= limit || slot.2) {
            return slot.1 <= limit;
        }
        let vf = v3[fi].raw();
        let mut w = u32::MAX;
        // Most fronts leave no two fives that each hold a pair, two pairs or trips at least
        // the front: their ways are read from the rest's few straights and flushes (none,
        // often), where reading the 126 ways would take all of them.
        if let Some(w) = self.rest.reach_special(self.subsets.three[fi], v3[fi], v5) {
            *slot = (stamp, w, true);
            return w <= limit;
        }
        // Without a branch per way (whether a way qualifies is unpredictable), 14 ways at a
        // time, then whether one found is low enough.
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
    }

    /// 13 cards, a first `ub2` of `back` from the walk's order: the strongest five from the
    /// back's value down that misses the back, and the strongest front from the cap on that
    /// misses it (neither there: the back leaves no legal split). A search cut short bounds
    /// by the place where it stopped (all after are at most that). `None`: the back is
    /// passed (no legal split, or the bound, or an earlier failed one, cannot beat the best
    /// found); else the (front value, middle value, score) of the bound.
    pub(super) fn first_ub2(&mut self, back: Back) -> Option<(u32, u32, f64)> {
        let (run_start, cap, mb) = (self.walk.run_start, self.walk.cap, back.mask);
        let order = &mut self.cache.backs;
        let q = order.first_missing(run_start, order.len().min(run_start + SCAN), mb);
        let fronts = &mut self.cache.fronts;
        let r = fronts.first_missing(cap, fronts.len().min(cap + SCAN), mb);
        if q == self.cache.backs.len() || r == self.cache.fronts.len() {
            return None;
        }
        let (kq, kr) = (self.cache.backs.at(q), self.cache.fronts.at(r));
        let (vq, vr) = (falling::value(kq), falling::value(kr));
        if self.walk.failed.covers(vr, vq) {
            return None;
        }
        let (mi, fi) = (falling::index(kq), falling::index(kr));
        let bf = self.feat(back.bi, Lane::Back);
        let (ff, mf) = (self.feat(fi, Lane::Front), self.feat(mi, Lane::Middle));
        let s = self.price.score(&ff, &mf, &bf);
        if s <= self.found.floor {
            self.walk.failed.push(vr, vq);
            return None;
        }
        Some((vr, vq, s))
    }
}
