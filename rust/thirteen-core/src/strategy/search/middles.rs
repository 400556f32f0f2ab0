//! A back searched from its middles (more than 13 cards, or 13 with cards placed): the
//! middles in the walk's order, strongest first, each with its fronts.

use super::falling;
use super::state::{Back, Search};
use crate::cards::HandValue;
use crate::error::Lane;
use crate::strategy::model::Feat;

impl Search<'_> {
    /// Searches `back` from its middles: those in the walk's order from the back's value
    /// down that miss it (64 places tested at once), each with the strongest legal front of
    /// the cards left, until the strongest front the back leaves cannot lift a middle past
    /// the best found (`ub3`; later middles are weaker). With one split asked for, a middle
    /// whose front is no stronger than a stronger middle's is skipped.
    pub(super) fn middles(&mut self, back: Back) {
        let [need_front, need_middle, need_back] = self.need.lanes;
        let mb = back.mask;
        // The back holds its placed cards and none placed elsewhere.
        if mb & need_back != need_back || mb & (need_front | need_middle) != 0 {
            return;
        }
        let bf = self.feat(back.bi, Lane::Back);
        let fronts = &mut self.cache.fronts;
        let r = fronts.first_missing(self.walk.cap, fronts.len(), mb);
        if r == fronts.len() {
            return;
        }
        let strongest = falling::index(self.cache.fronts.at(r));
        let tf = self.feat(strongest, Lane::Front);
        self.stats.backs += 1;
        // The strongest front scored with a stronger middle (one split asked for).
        let mut seen: Option<HandValue> = None;
        let mut q = self.walk.run_start;
        // Each middle's fronts start at the first front no stronger than it.
        let mut fcap = self.walk.cap;
        // One split (or distinct ones) asked for: a middle of the value of the middle before
        // it leaves the same ranks (a value fixes its ranks), so the same front values (a
        // front's value is its ranks'): its splits have the values of the earlier one's, and
        // it is skipped as a twin back is.
        let mut last_middle = None;
        let one = (self.top == 1 || self.distinct.any()) && self.free;
        loop {
            let order = &mut self.cache.backs;
            let Some(key) = order.next_missing(&mut q, order.len(), mb) else {
                break;
            };
            let (mi, mm) = (falling::index(key), falling::mask(key));
            if !self.legal_middle(back, mi)
                || mm & need_middle != need_middle
                || mm & need_front != 0
            {
                continue;
            }
            let vm = self.v5[mi];
            if one {
                if last_middle == Some(vm) {
                    continue;
                }
                last_middle = Some(vm);
            }
            let mf = self.feat(mi, Lane::Middle);
            if self.price.prune && self.cannot_beat(&tf, &mf, &bf) {
                break;
            }
            let fronts = &mut self.cache.fronts;
            while fcap < fronts.len() && falling::value(fronts.at(fcap)) > vm.raw() {
                fcap += 1;
            }
            self.fronts_of(back, (mi, mm, mf), bf, fcap, &mut seen);
        }
    }

    /// The fronts of `back` and middle `(mi, mask, features)` that miss both, strongest
    /// first from place `fcap`: when the front's values rise only the strongest can be
    /// best, and with more splits asked for a weaker one is scored until one cannot beat the
    /// best found; when they do not, each is scored. `seen`: the strongest front scored
    /// with a stronger middle, with one split asked for (a front no stronger ends this
    /// middle's).
    fn fronts_of(
        &mut self,
        back: Back,
        (mi, mm, mf): (usize, u32, Feat),
        bf: Feat,
        fcap: usize,
        seen: &mut Option<HandValue>,
    ) {
        let (mb, bi) = (back.mask, back.bi);
        let monotone = self.price.monotone;
        let mut r = fcap;
        // The positions the front must hold: its placed cards, and those to be held that the
        // back and middle do not.
        let must = self.need.lanes[0] | (self.need.held & !(mb | mm));
        loop {
            let fronts = &mut self.cache.fronts;
            let Some(fk) = fronts.next_missing(&mut r, fronts.len(), mb | mm) else {
                break;
            };
            let fi = falling::index(fk);
            if falling::mask(fk) & must != must {
                continue;
            }
            if monotone && self.top == 1 {
                if seen.is_some_and(|h| self.v3[fi] <= h) {
                    break;
                }
                *seen = Some(self.v3[fi]);
            }
            let ff = self.feat(fi, Lane::Front);
            // Falling lane values: the fronts after this one are no stronger, so its bound
            // (at the envelope) bounds them too.
            if !monotone && self.price.prune && self.cannot_beat(&ff, &mf, &bf) {
                break;
            }
            self.stats.scored += 1;
            let values = [self.v3[fi], self.v5[mi], self.v5[bi]];
            let e = self.price.exact(&ff, &mf, &bf, values);
            self.offer((fi, mi, bi), e);
            let beaten = self.found.full() && e <= self.found.floor;
            if self.price.front_rises && (self.top == 1 || beaten) {
                break;
            }
        }
    }
}
