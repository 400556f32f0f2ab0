//! A back's 56 (front, middle) pairs scored one by one (13 cards, more than one split asked
//! for or lane values that fall).

use super::state::{Back, Search};
use crate::error::Lane;

impl Search<'_> {
    /// Scores every legal pair of `back` (its 56 pairs `pairs`), once its exact `ub2` (the
    /// strongest legal front and middle, found in the same branch-free pass that keeps the
    /// legal pairs with their values, each as `value << 8 | place + 1`) can beat the best
    /// found (`full`: whether a split had to beat it when the back was reached).
    pub(super) fn every_pair(&mut self, back: Back, pairs: &[(u16, u16); 56], full: bool) {
        let (v3, v5, bi) = (self.v3, self.v5, back.bi);
        let bf = self.feat(bi, Lane::Back);
        let mut legal = [(0u32, 0u32, 0u16, 0u16); 56];
        let mut k = 0;
        let (mut kf, mut km) = (0u64, 0u64);
        for &(fi, mi) in pairs {
            let (vf, vm) = (v3[fi as usize].raw(), v5[mi as usize].raw());
            let ok = self.legal_pair(back, fi as usize, mi as usize);
            let sel = (ok as u64).wrapping_neg();
            legal[k] = (vf, vm, fi, mi);
            kf = kf.max((((vf as u64) << 8) | (k as u64 + 1)) & sel);
            km = km.max((((vm as u64) << 8) | (k as u64 + 1)) & sel);
            k += ok as usize;
        }
        if k == 0 {
            return;
        }
        let legal = &legal[..k];
        let pick = |key: u64| legal[(key & 0xff) as usize - 1];
        let top_value = (km >> 8) as u32;
        let top_mf = self.feat(pick(km).3 as usize, Lane::Middle);
        if self.price.prune && full {
            let ff = self.feat(pick(kf).2 as usize, Lane::Front);
            if self.price.score(&ff, &top_mf, &bf) <= self.found.floor {
                self.walk.failed.push((kf >> 8) as u32, top_value);
                return;
            }
        }
        self.stats.backs += 1;
        for &(_, _, fi, mi) in legal {
            let (fi, mi) = (fi as usize, mi as usize);
            self.stats.scored += 1;
            let (ff, mf) = (self.feat(fi, Lane::Front), self.feat(mi, Lane::Middle));
            let e = self
                .price
                .exact(&ff, &mf, &bf, [v3[fi], v5[mi], back.value]);
            self.offer((fi, mi, bi), e);
        }
    }
}
