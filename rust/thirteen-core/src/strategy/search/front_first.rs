//! A run of backs searched front first (13 cards, one split asked for, lane values that
//! never fall): the backs of one category and deciding ranks that all hold the same cards
//! ([`Run`]), met at the first of them.

use super::falling;
use super::runs::{Run, MOST_WAYS};
use super::state::{Back, Search};
use crate::error::Lane;

impl Search<'_> {
    /// Searches the run that `back` starts front first, then marks it passed: each front
    /// from the cap that misses the held cards, in falling value, until `score(front, the
    /// first five from the run's first back down that misses the held cards, the run's
    /// first back)` cannot beat the best found (every middle of the run's splits is at most
    /// that five); per front, its ways to give the back its kickers from the positions left
    /// (the middle takes the rest), strongest middle first, a way kept when its back beats
    /// the back of every stronger way kept, each scored until its bound with the run's
    /// first back cannot beat the best found, or until a way's back is the run's first
    /// back's value (no later way's back can beat it).
    pub(super) fn front_first(&mut self, run: Run, back: Back) {
        self.walk.passing = Some(run);
        self.stats.runs += 1;
        let held = run.held();
        // Often far past the run's backs (a hand whose only aces are the run's holds fives
        // without an ace only after every five with one), so found without sorting the
        // walk's order that far.
        let Some(q0) = self.cache.backs.strongest_missing(back.at, held) else {
            return;
        };
        let top_mf = self.feat(falling::index(q0), Lane::Middle);
        let bf = self.feat(back.bi, Lane::Back);
        let mut r = self.walk.cap;
        let mut ways = [(0, 0, 0); MOST_WAYS];
        // Twin fronts: the value of the last front whose rest (the positions the held cards
        // and the front leave) holds no five of one suit, when no back of the run can be a
        // flush (its held cards of one rank differ in suit).
        let twins = run.unsuited(self.cards);
        let mut twin: Option<u32> = None;
        loop {
            let fronts = &mut self.cache.fronts;
            let Some(fk) = fronts.next_missing(&mut r, fronts.len(), held) else {
                break;
            };
            let fi = falling::index(fk);
            // A front of the value of the front before it holds the same ranks, so its rest
            // holds the same ranks too. When neither rest holds five of one suit, no middle
            // there is a flush, and the two fronts' ways have the same middle and back
            // values and score alike: a later split must beat the best found strictly, so
            // the later front is passed.
            if twins {
                let plain = self.rest.left_unsuited(held | falling::mask(fk)).is_some();
                if plain && twin == Some(falling::value(fk)) {
                    self.stats.twin_fronts += 1;
                    continue;
                }
                twin = plain.then_some(falling::value(fk));
            }
            let ff = self.feat(fi, Lane::Front);
            if self.cannot_beat(&ff, &top_mf, &bf) {
                break;
            }
            let mut high = 0u32;
            let v5 = self.v5;
            for &(k, mi, b) in run
                .splits(falling::mask(fk), falling::value(fk), v5, &mut ways)
                .iter()
            {
                let (mi, b, vb2) = (mi as usize, b as usize, k as u32);
                if vb2 <= high {
                    continue;
                }
                let mf = self.feat(mi, Lane::Middle);
                if self.cannot_beat(&ff, &mf, &bf) {
                    break;
                }
                high = vb2;
                self.stats.scored += 1;
                let wf = self.feat(b, Lane::Back);
                let e = self.price.score(&ff, &mf, &wf);
                self.offer((fi, mi, b), e);
                if vb2 == back.value.raw() {
                    break;
                }
            }
        }
    }
}
