//! A back's Pareto frontier (13 cards, one split asked for, lane values that never fall):
//! its (front, middle) pairs read from the walks' orders, fronts in falling value, each kept
//! when its middle beats the middle of every stronger front kept.

use super::falling;
use super::side::SIDE_AFTER;
use super::state::{Back, Search};
use crate::error::Lane;
use crate::strategy::model::Feat;

/// Places of the walk's order looked at for the strongest legal middle before the back's
/// 56 pairs are read instead.
const SCAN: usize = 64;

impl Search<'_> {
    /// Scores the frontier of `back` (its 56 pairs `pairs`; `passed`, the first `ub2` taken
    /// for it, as (front value, middle value, score); `full`, whether a split had to beat
    /// the best found when the back was reached).
    ///
    /// Each five or three that misses the back leaves one three or five of the other eight
    /// positions. With the strongest legal middle and the first front from the cap that
    /// misses the back, `ub2` is taken a second time (not when its values are the first
    /// `ub2`'s). Then the fronts in falling value from the cap (ties: higher index first),
    /// each kept when its middle is legal and beats the middle of every stronger kept
    /// front, until `score(front, strongest middle, back)` cannot beat the best found or the
    /// front's middle is the strongest. A split whose middle has the strongest middle's
    /// value scores its bound. After [`SIDE_AFTER`] fronts kept, the strongest middles may
    /// be taken from the other side ([`Search::middle_side`]).
    pub(super) fn frontier(
        &mut self,
        back: Back,
        pairs: &[(u16, u16); 56],
        mut passed: Option<(u32, u32, f64)>,
        full: bool,
    ) {
        let (mb, bi) = (back.mask, back.bi);
        let bf = self.feat(bi, Lane::Back);
        let Some((top_mi, top_value)) = self.strongest_middle(back, pairs) else {
            return;
        };
        // A second `ub2`: the strongest legal middle with the first front from the cap
        // that misses the back (every legal front is there or after it).
        let fronts = &mut self.cache.fronts;
        let mut r = fronts.first_missing(self.walk.cap, fronts.len(), mb);
        if r == fronts.len() {
            return;
        }
        let top_mf = self.feat(top_mi, Lane::Middle);
        if full {
            let kr = self.cache.fronts.at(r);
            let vr = falling::value(kr);
            // The first `ub2` of the same values passed: this one is it.
            if passed.is_none_or(|(f, m, _)| (f, m) != (vr, top_value)) {
                if self.walk.failed.covers(vr, top_value) {
                    return;
                }
                let ff = self.feat(falling::index(kr), Lane::Front);
                let s = self.price.score(&ff, &top_mf, &bf);
                if s <= self.found.floor {
                    self.walk.failed.push(vr, top_value);
                    return;
                }
                passed = Some((vr, top_value, s));
            }
        }
        let rest = crate::split::ALL_POSITIONS as u32 & !mb;
        // The strongest middle kept so far, and how many fronts were kept.
        let mut high: Option<u32> = None;
        let mut kept = 0;
        self.walk.side.clear();
        loop {
            let fronts = &mut self.cache.fronts;
            let Some(fk) = fronts.next_missing(&mut r, fronts.len(), mb) else {
                break;
            };
            let (fi, mi) = (
                falling::index(fk),
                crate::split::subset_index(rest ^ falling::mask(fk)),
            );
            let (vf, vm) = (falling::value(fk), self.v5[mi].raw());
            if !self.legal_pair(back, fi, mi) || high.is_some_and(|h| vm <= h) {
                continue;
            }
            let ff = self.feat(fi, Lane::Front);
            // The front's bound: the `ub2` just taken when the values are its.
            let ub = match passed {
                Some((f, m, s)) if (f, m) == (vf, top_value) => s,
                _ => self.price.score(&ff, &top_mf, &bf),
            };
            if ub <= self.found.floor {
                if high.is_none() {
                    self.walk.failed.push(vf, top_value);
                }
                break;
            }
            if kept >= SIDE_AFTER && full && self.middle_side(back, pairs, (vf, ff), bf) {
                break;
            }
            if high.is_none() {
                self.stats.backs += 1;
            }
            high = Some(vm);
            kept += 1;
            self.stats.scored += 1;
            // A middle of the strongest's value: the split's score is the bound.
            let e = if vm == top_value {
                ub
            } else {
                let mf = self.feat(mi, Lane::Middle);
                let values = [self.v3[fi], self.v5[mi], back.value];
                self.price.exact(&ff, &mf, &bf, values)
            };
            self.offer((fi, mi, bi), e);
            if vm == top_value {
                break;
            }
        }
    }

    /// The strongest legal middle of `back` and its value: the first five from the back's
    /// value down that misses the back and leaves a front no stronger than it (64 places
    /// looked at, else the back's 56 pairs `pairs`). `None`: the back has no legal split.
    fn strongest_middle(&mut self, back: Back, pairs: &[(u16, u16); 56]) -> Option<(usize, u32)> {
        let (v3, v5, mb) = (self.v3, self.v5, back.mask);
        let rest = crate::split::ALL_POSITIONS as u32 & !mb;
        let until = self.cache.backs.len().min(self.walk.run_start + SCAN);
        let mut q = self.walk.run_start;
        while let Some(key) = self.cache.backs.next_missing(&mut q, until, mb) {
            let mi = falling::index(key);
            let fi = crate::split::subset_index(rest ^ falling::mask(key));
            if self.legal_pair(back, fi, mi) {
                return Some((mi, falling::value(key)));
            }
        }
        if until >= self.cache.backs.len() {
            return None;
        }
        // Each middle as `value << 16 | !index` (16 bits): a legal middle is one whose key
        // is at most the back's (weaker, or as strong and placed later).
        let kb = ((back.value.raw() as u64) << 16) | (!back.bi as u64 & 0xffff);
        let mut km = 0u64;
        for &(fi, mi) in pairs {
            let vm = v5[mi as usize].raw();
            let key = ((vm as u64) << 16) | (!mi as u64 & 0xffff);
            let ok = (key <= kb) & (v3[fi as usize].raw() <= vm);
            km = km.max(key & (ok as u64).wrapping_neg());
        }
        (km != 0).then_some((!km as usize & 0xffff, (km >> 16) as u32))
    }

    /// Whether the frontier of `back` ends from the middles' side at the front of value and
    /// features `(vf, ff)`: when the strongest legal middle is one of a few of its category
    /// and deciding ranks (a straight that only the weakest fronts leave, say) and this
    /// front with the strongest middle after them cannot beat the best found, their pairs
    /// are scored (strongest middle first), and every other pair is bounded by that: its
    /// front is this one or after it, and its middle is at most that middle.
    fn middle_side(
        &mut self,
        back: Back,
        pairs: &[(u16, u16); 56],
        (vf, ff): (u32, Feat),
        bf: Feat,
    ) -> bool {
        if self.walk.side.is_empty() {
            let v5 = self.v5;
            let mut side = std::mem::take(&mut self.walk.side);
            let legal = |fi: usize, mi: usize| self.legal_pair(back, fi, mi);
            side.fill(pairs, v5, &legal);
            self.walk.side = side;
        }
        let Some((group, after)) = self.walk.side.strongest_group() else {
            return false;
        };
        let beaten = match after {
            Some(a) => {
                let af = self.feat(a, Lane::Middle);
                self.price.score(&ff, &af, &bf) <= self.found.floor
            }
            None => true,
        };
        if !beaten {
            return false;
        }
        self.stats.middle_side += 1;
        // Strongest middle first; a pair whose front is one the front side met (stronger
        // than this front) was scored or passed there, and one whose front is no stronger
        // than that of a stronger middle scored here is passed.
        let mut front_high = 0u32;
        for k in 0..group {
            let (sf, sm) = self.walk.side.pair(k);
            let vsf = self.v3[sf].raw();
            if vsf > vf || (front_high != 0 && vsf <= front_high) {
                continue;
            }
            front_high = vsf;
            self.stats.scored += 1;
            let (sff, smf) = (self.feat(sf, Lane::Front), self.feat(sm, Lane::Middle));
            let values = [self.v3[sf], self.v5[sm], back.value];
            let e = self.price.exact(&sff, &smf, &bf, values);
            self.offer((sf, sm, back.bi), e);
        }
        true
    }
}
