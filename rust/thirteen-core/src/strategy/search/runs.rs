//! Runs of backs that differ only in their kickers, for the search of [`super`].
//!
//! The 13-card walk meets its backs in falling value, so the backs of one category and
//! deciding ranks (one pair of jacks, say) come one after another: a run. When the hand holds
//! exactly the cards those ranks need (two jacks, not three), every back of the run holds
//! them, and the backs differ only in their kickers. A hand with pairs can have a run of
//! 100 to 165 backs whose bounds all lie within a few thousandths of a unit of the best split
//! (the kickers move a lane's worth by about that much), so a back-by-back walk visits each.
//!
//! Searched front first instead, the run is a small problem per front: with the run's held
//! cards and the front placed, the positions left (8 with a pair, 6 with two pair or quads,
//! 7 with trips) go to the middle and the back's kickers: at most 56 ways (one pair, three
//! kickers of 8), 21 (trips, two of 7) or 6 (two pair or quads, one of 6)
//! ([`Run::splits`]). Those ways are the run's splits with that front, each once.

use super::subsets::middle_under;
use crate::cards::Card;
use crate::cards::{Category, HandValue, PRIMARY_SHIFT};
use crate::split::{subset_index, ALL_POSITIONS};

/// Most ways to give a run's back its kickers, with one front placed: `C(8, 3)`.
pub(crate) const MOST_WAYS: usize = 56;

/// One way to split the positions a front leaves: `(middle value << 32 | back value,
/// middle index, back index)`, indices into the hand's 5-position subsets.
pub(crate) type Way = (u64, u16, u16);

/// A run of backs: its category and deciding ranks, and the positions every back of it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    /// A value's bits above the kickers ([`PRIMARY_SHIFT`]): the category and deciding ranks.
    key: u32,
    /// The positions of the cards of the deciding ranks.
    held: u32,
}

impl Run {
    /// The run `back` (a value of the walk) starts, when every back of it holds the same
    /// positions: one pair, two pair, trips or quads, and the hand holds exactly the cards
    /// of the deciding ranks that the category needs (two of a pair's rank, not three).
    /// A full house is left to the walk: its runs are short (one per pair held) and the
    /// front-first search of them was measured slower.
    pub(crate) fn of(cards: &[Card], back: HandValue) -> Option<Run> {
        let needs = match back.category() {
            Category::OnePair => 2,
            Category::ThreeOfAKind => 3,
            Category::TwoPair | Category::FourOfAKind => 4,
            _ => return None,
        };
        let ranks = back.primary_mask();
        let mut held = 0u32;
        for (p, c) in cards.iter().enumerate() {
            held |= (ranks >> c.rank_index() & 1) << p;
        }
        (held.count_ones() == needs).then_some(Run {
            key: back.raw() >> PRIMARY_SHIFT,
            held,
        })
    }

    /// The positions every back of the run holds.
    pub(crate) fn held(&self) -> u32 {
        self.held
    }

    /// Whether no two held cards of `cards` (the hand the run was found in) are the same
    /// card: the held cards of one rank then differ in suit, so no back of the run is a
    /// flush (a card held twice, the extra diamonds, can break this).
    pub(crate) fn unsuited(&self, cards: &[Card]) -> bool {
        let mut seen = 0u128;
        let mut m = self.held;
        while m != 0 {
            let bit = 1u128 << cards[m.trailing_zeros() as usize].code();
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
            m &= m - 1;
        }
        true
    }

    /// Whether a 5-card value is one of the run's (its category and deciding ranks).
    #[inline]
    pub(crate) fn holds(&self, v: u32) -> bool {
        v >> PRIMARY_SHIFT == self.key
    }

    /// The run's legal splits with the front at positions `front` (13 positions, the front
    /// missing [`Run::held`]) of value `vf`: each way to give the back its kickers from the
    /// positions left whose back is of the run, with a middle under the back
    /// ([`middle_under`], one split listed) and at least the front; written to `out`,
    /// strongest middle first (equal middles: stronger back first). `v5`: the values of the
    /// hand's 5-position subsets.
    pub(crate) fn splits<'a>(
        &self,
        front: u32,
        vf: u32,
        v5: &[HandValue],
        out: &'a mut [Way; MOST_WAYS],
    ) -> &'a mut [Way] {
        let rest = ALL_POSITIONS as u32 & !(self.held | front);
        let kickers = 5 - self.held.count_ones();
        let mut at = [0u32; 13];
        let mut left = 0;
        let mut m = rest;
        while m != 0 {
            at[left] = 1 << m.trailing_zeros();
            left += 1;
            m &= m - 1;
        }
        let mut n = 0;
        let mut way = |kicks: u32| {
            let (bi, mi) = (subset_index(self.held | kicks), subset_index(rest & !kicks));
            let (vb, vm) = (v5[bi].raw(), v5[mi].raw());
            if self.holds(vb) && middle_under(vm, mi, vb, bi, false) && vf <= vm {
                // At most C(8, 3) ways: the held cards and the front leave 8 positions or
                // fewer.
                out[n] = ((vm as u64) << 32 | vb as u64, mi as u16, bi as u16);
                n += 1;
            }
        };
        for i in 0..left {
            if kickers == 1 {
                way(at[i]);
                continue;
            }
            for j in i + 1..left {
                if kickers == 2 {
                    way(at[i] | at[j]);
                    continue;
                }
                for k in j + 1..left {
                    way(at[i] | at[j] | at[k]);
                }
            }
        }
        let ways = &mut out[..n];
        ways.sort_unstable_by_key(|w| std::cmp::Reverse(w.0));
        ways
    }
}

/// A random 13-card hand of `ranks` ranks (5 to 13) from `deck`, for tests: many pairs and
/// trips, so long runs.
#[cfg(test)]
pub(crate) fn few_ranks(
    rng: &mut rand_chacha::ChaCha20Rng,
    deck: crate::cards::DeckKind,
    ranks: usize,
) -> [Card; 13] {
    let mut cards = deck.cards();
    crate::deal::shuffle(&mut cards, rng);
    let mut chosen: Vec<u8> = Vec::new();
    for c in &cards {
        if chosen.len() < ranks && !chosen.contains(&c.rank_index()) {
            chosen.push(c.rank_index());
        }
    }
    cards.retain(|c| chosen.contains(&c.rank_index()));
    cards[..13].try_into().expect("13 cards of 5 ranks or more")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Wheel;
    use crate::cards::{parse_cards, DeckKind};
    use crate::deal::rng_for;
    use crate::split::HandSplits;

    fn hand(text: &str) -> [Card; 13] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    /// The value of the 5 cards of `hand` named in `text`.
    fn five(h: &[Card; 13], text: &str) -> HandValue {
        let c: [Card; 5] = parse_cards(text).unwrap().try_into().unwrap();
        assert!(c.iter().all(|x| h.contains(x)));
        crate::cards::evaluate5(&c, Wheel::Low)
    }

    #[test]
    fn a_run_is_one_held_set_of_cards() {
        let h = hand("Jc Js 9s 9c 8c 8h Kh Qc Th 7d 6d 4d 3h");
        // One pair of jacks: both jacks, positions 0 and 1.
        let run = Run::of(&h, five(&h, "Jc Js Kh Qc Th")).unwrap();
        assert_eq!(run.held(), 0b11);
        // Two pair, nines and eights: positions 2 to 5.
        let run = Run::of(&h, five(&h, "9s 9c 8c 8h Kh")).unwrap();
        assert_eq!(run.held(), 0b11_1100);
        // No run of a high card, a straight or a flush.
        assert_eq!(Run::of(&h, five(&h, "Kh Qc Th 7d 3h")), None);
        assert_eq!(Run::of(&h, five(&h, "Kh Qc Jc Th 9s")), None);
        // A third king: the pair's backs hold different kings.
        let h = hand("Kc Ks Kh 9c 8c 8h 2h Qc Th 7d 6d 4d 3h");
        assert_eq!(Run::of(&h, five(&h, "Kc Ks Qc Th 9c")), None);
        // Trips held exactly, and a full house (left to the walk).
        let run = Run::of(&h, five(&h, "Kc Ks Kh Qc Th")).unwrap();
        assert_eq!(run.held(), 0b111);
        assert_eq!(Run::of(&h, five(&h, "Kc Ks Kh 8c 8h")), None);
    }

    #[test]
    fn a_run_of_one_card_held_twice_may_have_flush_backs() {
        // Two pair of jacks and nines: four different cards, no back of it a flush.
        let h = hand("Jc Js 9s 9c 8c 8h Kh Qc Th 7d 6d 4d 3h");
        assert!(Run::of(&h, five(&h, "Jc Js 9s 9c Kh"))
            .unwrap()
            .unsuited(&h));
        // The extra diamonds: a pair of the jack of diamonds held twice, which with three
        // more diamonds is a flush.
        let h = hand("Jd Jd 9s 9c 8c 8h Kh Qc Th 7d 6d 4d 3h");
        let run = Run::of(&h, five(&h, "Jd Jd Kh Qc Th")).unwrap();
        assert_eq!(run.held(), 0b11);
        assert!(!run.unsuited(&h));
    }

    #[test]
    fn a_fronts_ways_are_the_runs_legal_splits_with_it() {
        // Against every (middle, back) pair of the positions the front leaves, for random
        // hands of few ranks and each run and front they hold.
        let mut rng = rng_for(5);
        let mut checked = 0;
        for case in 0..60 {
            let deck = if case % 3 == 2 {
                DeckKind::ExtraDiamonds
            } else {
                DeckKind::Standard
            };
            let h = few_ranks(&mut rng, deck, 5 + case % 3);
            let s = HandSplits::new(&h, Wheel::Low);
            let (v5, v3) = (s.five_values(), s.three_values());
            let fives = &crate::strategy::search::subsets(13).five;
            let threes = &crate::strategy::search::subsets(13).three;
            let mut out = [(0, 0, 0); MOST_WAYS];
            for &back in fives {
                let Some(run) = Run::of(&h, v5[subset_index(back)]) else {
                    continue;
                };
                for (fi, &front) in threes.iter().enumerate() {
                    if front & run.held() != 0 {
                        continue;
                    }
                    let vf = v3[fi].raw();
                    let got: Vec<Way> = run.splits(front, vf, v5, &mut out).to_vec();
                    let mut want: Vec<Way> = Vec::new();
                    for (bi, &b) in fives.iter().enumerate() {
                        let m = ALL_POSITIONS as u32 & !(front | b);
                        if b & run.held() != run.held() || b & front != 0 {
                            continue;
                        }
                        let mi = subset_index(m);
                        let (vb, vm) = (v5[bi].raw(), v5[mi].raw());
                        let legal = vf <= vm && (vm < vb || (vm == vb && mi >= bi));
                        if run.holds(vb) && legal {
                            want.push(((vm as u64) << 32 | vb as u64, mi as u16, bi as u16));
                        }
                    }
                    want.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
                    let mut sorted = got.clone();
                    sorted.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
                    assert_eq!(sorted, want, "front {front:#b}");
                    assert!(got.windows(2).all(|w| w[0].0 >= w[1].0), "strongest first");
                    checked += want.len();
                }
            }
        }
        assert!(checked > 10_000, "{checked} splits checked");
    }
}
