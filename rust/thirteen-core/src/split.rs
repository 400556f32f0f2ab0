//! Enumeration of a hand's splits (RULES.md 2): all 72,072 ordered (front, middle, back)
//! splits of 13 positions, the legal (non-fouled) ones and the Pareto set.
//!
//! Enumeration works on positions, not cards: every 5-card and 3-card subset of the 13
//! positions is a 13-bit mask, evaluated once per hand; a split is three masks. Duplicate
//! diamonds of the extra deck need no special case.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::arrange::Arrangement;
use crate::cards::Card;
use crate::cards::{evaluate_subsets13_keyed, ThreeKeys, FIVES_OF_13, THREES_OF_13};
use crate::cards::{HandValue, Wheel};

/// All 13 positions.
pub const ALL_POSITIONS: u16 = 0x1fff;

/// Ordered (front, middle, back) splits of 13 positions: `C(13, 5) · C(8, 5)`.
pub const ALL_SPLITS: usize = 72_072;

struct Tables {
    five: Vec<u16>,
    three: Vec<u16>,
    index: Vec<u16>,
    /// For each middle (index into `five`), the 56 `(front index, back index)` pairs of the
    /// remaining 8 positions. The same for every hand: splits are a property of positions.
    by_middle: Vec<[(u16, u16); 56]>,
    /// The 36,036 unordered splits `(front, a, b)` with `a < b` (indices into `three` and
    /// `five`): each stands for the two ordered splits (middle a, back b) and (middle b, back a).
    unordered: Vec<[u16; 3]>,
    /// For each front (index into `three`), the 126 unordered `(five, five)` index pairs that
    /// split the 10 positions it leaves.
    by_front: Vec<[(u16, u16); 126]>,
}

fn positions<const N: usize>(mask: u16) -> [u8; N] {
    let mut out = [0u8; N];
    let mut k = 0;
    for i in 0..13u8 {
        if mask & (1 << i) != 0 {
            out[k] = i;
            k += 1;
        }
    }
    out
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let five: Vec<u16> = (0..1u16 << 13).filter(|m| m.count_ones() == 5).collect();
        let three: Vec<u16> = (0..1u16 << 13).filter(|m| m.count_ones() == 3).collect();
        let mut index = vec![u16::MAX; 1 << 13];
        for (i, &m) in five.iter().enumerate() {
            index[m as usize] = i as u16;
        }
        for (i, &m) in three.iter().enumerate() {
            index[m as usize] = i as u16;
        }
        let by_middle: Vec<[(u16, u16); 56]> = five
            .iter()
            .map(|&middle| {
                let rest = ALL_POSITIONS & !middle;
                let pos: [u8; 8] = positions(rest);
                let mut out = [(0u16, 0u16); 56];
                let mut n = 0;
                for i in 0..8 {
                    for j in i + 1..8 {
                        for k in j + 1..8 {
                            let front = (1u16 << pos[i]) | (1 << pos[j]) | (1 << pos[k]);
                            let back = rest & !front;
                            out[n] = (index[front as usize], index[back as usize]);
                            n += 1;
                        }
                    }
                }
                out
            })
            .collect();
        let mut unordered = Vec::with_capacity(36_036);
        for (mi, pairs) in by_middle.iter().enumerate() {
            for &(fi, bi) in pairs {
                if (mi as u16) < bi {
                    unordered.push([fi, mi as u16, bi]);
                }
            }
        }
        let mut by_front = vec![[(0u16, 0u16); 126]; three.len()];
        let mut filled = vec![0usize; three.len()];
        for &[fi, a, b] in &unordered {
            let f = fi as usize;
            by_front[f][filled[f]] = (a, b);
            filled[f] += 1;
        }
        debug_assert!(filled.iter().all(|&k| k == 126));
        Tables {
            by_front,
            unordered,
            five,
            three,
            index,
            by_middle,
        }
    })
}

/// The 56 `(3-position subset, 5-position subset)` index pairs that split the 8 positions
/// left by the 5-position subset `five` of 13 positions.
#[inline]
pub(crate) fn rest_pairs(five: usize) -> &'static [(u16, u16); 56] {
    &tables().by_middle[five]
}

/// The index of a 3- or 5-position subset of 13 positions (into the hand's 3- or
/// 5-position subsets), from its mask.
#[inline]
pub(crate) fn subset_index(mask: u32) -> usize {
    tables().index[mask as usize] as usize
}

/// The 126 unordered `(5-position subset, 5-position subset)` index pairs that split the 10
/// positions left by the 3-position subset `three` of 13 positions.
#[inline]
pub(crate) fn front_rest(three: usize) -> &'static [(u16, u16); 126] {
    &tables().by_front[three]
}

/// One split of a hand: position masks and lane values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Split {
    /// Positions of the front (3 bits set).
    pub front: u16,
    /// Positions of the middle (5 bits set).
    pub middle: u16,
    /// Positions of the back (5 bits set).
    pub back: u16,
    /// Values of front, middle and back.
    pub values: [HandValue; 3],
}

impl Split {
    /// Whether the split is fouled (front ≤ middle ≤ back broken).
    #[inline]
    pub fn is_foul(&self) -> bool {
        crate::arrange::values_foul(&self.values)
    }
}

/// Which splits to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SplitFilter {
    /// All 72,072 ordered splits.
    #[default]
    All,
    /// Only non-fouled splits.
    Legal,
    /// The non-fouled splits that no other split matches or beats in every lane while beating
    /// it in one (splits with identical lane values are all kept).
    Pareto,
}

impl SplitFilter {
    /// The filter of the flags callers pass: `pareto` (implies legal), else `legal`, else all.
    pub fn of(legal: bool, pareto: bool) -> SplitFilter {
        match (legal, pareto) {
            (_, true) => SplitFilter::Pareto,
            (true, false) => SplitFilter::Legal,
            (false, false) => SplitFilter::All,
        }
    }
}

/// A 13-card hand with every 5- and 3-card subset of its positions evaluated once.
pub struct HandSplits {
    cards: [Card; 13],
    v5: Vec<HandValue>,
    v3: Vec<HandValue>,
    /// Each three's place among the 3-card values ([`crate::cards::three_key`]).
    k3: Vec<u16>,
}

impl HandSplits {
    /// Evaluates the 1,287 five-card and 286 three-card subsets of `cards`.
    pub fn new(cards: &[Card; 13], wheel: Wheel) -> Self {
        let mut splits = HandSplits {
            cards: *cards,
            v5: vec![HandValue::default(); FIVES_OF_13],
            v3: vec![HandValue::default(); THREES_OF_13],
            k3: vec![0; THREES_OF_13],
        };
        splits.refill(cards, wheel);
        splits
    }

    /// Re-evaluates every subset for another hand in these buffers (no allocation), both
    /// in increasing mask order, the order of the subset tables.
    pub fn refill(&mut self, cards: &[Card; 13], wheel: Wheel) {
        evaluate_subsets13_keyed(
            cards,
            wheel,
            self.v5.as_mut_slice().try_into().expect("1,287 values"),
            self.v3.as_mut_slice().try_into().expect("286 values"),
            self.k3.as_mut_slice().try_into().expect("286 keys"),
        );
        self.cards = *cards;
    }

    /// Values of the 1,287 five-position subsets, in [`HandSplits::for_each_index`] index order.
    pub fn five_values(&self) -> &[HandValue] {
        &self.v5
    }

    /// Values of the 286 three-position subsets.
    pub fn three_values(&self) -> &[HandValue] {
        &self.v3
    }

    /// The places of the 286 three-position subsets' values among all 3-card values
    /// ([`crate::cards::three_key`]), as the search's walk of the fronts sorts them.
    pub fn three_keys(&self) -> ThreeKeys<'_> {
        ThreeKeys(&self.k3)
    }

    /// Calls `f(front, middle, back)` with subset indices (into [`HandSplits::three_values`]
    /// and [`HandSplits::five_values`]) for each of the 72,072 ordered splits; the fastest walk.
    #[inline]
    pub fn for_each_index(&self, mut f: impl FnMut(usize, usize, usize)) {
        for (mi, pairs) in tables().by_middle.iter().enumerate() {
            for &(fi, bi) in pairs {
                f(fi as usize, mi, bi as usize);
            }
        }
    }

    /// The 56 ways to split the 8 positions left by the 5-position subset `five`: pairs of
    /// `(3-position subset, 5-position subset)` indices.
    #[inline]
    pub fn rest_of(&self, five: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        tables().by_middle[five]
            .iter()
            .map(|&(f, b)| (f as usize, b as usize))
    }

    /// Position masks of a split given by subset indices.
    pub fn masks(&self, front: usize, middle: usize, back: usize) -> (u16, u16, u16) {
        let t = tables();
        (t.three[front], t.five[middle], t.five[back])
    }

    /// The hand.
    pub fn cards(&self) -> &[Card; 13] {
        &self.cards
    }

    /// The value of a 5-position (or 3-position) mask.
    #[inline]
    pub fn value(&self, mask: u16) -> HandValue {
        let i = tables().index[mask as usize] as usize;
        if mask.count_ones() == 5 {
            self.v5[i]
        } else {
            self.v3[i]
        }
    }

    /// Calls `f` for each of the 72,072 ordered splits: middle masks in increasing order, then
    /// the 56 ways to take 3 of the remaining 8 positions for the front.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Split)) {
        let t = tables();
        let (v3, v5) = (&self.v3[..], &self.v5[..]);
        for (mi, pairs) in t.by_middle.iter().enumerate() {
            let vm = v5[mi];
            let middle = t.five[mi];
            for &(fi, bi) in pairs {
                f(Split {
                    front: t.three[fi as usize],
                    middle,
                    back: t.five[bi as usize],
                    values: [v3[fi as usize], vm, v5[bi as usize]],
                });
            }
        }
    }

    /// Calls `f(front, low, high, tied)` for each of the 36,036 unordered splits, with subset
    /// indices ordered so that `value(low) <= value(high)`: the only order of the two 5-card
    /// lanes that can be legal (both orders when `tied`, the values being equal).
    #[inline]
    pub fn for_each_unordered(&self, mut f: impl FnMut(usize, usize, usize, bool)) {
        let v5 = &self.v5[..];
        for &[fi, a, b] in &tables().unordered {
            let (a, b) = (a as usize, b as usize);
            let (va, vb) = (v5[a], v5[b]);
            if va <= vb {
                f(fi as usize, a, b, va == vb);
            } else {
                f(fi as usize, b, a, false);
            }
        }
    }

    /// Number of non-fouled splits (each unordered split counts once per legal order).
    pub fn count_legal(&self) -> usize {
        let (v3, v5) = (&self.v3[..], &self.v5[..]);
        let mut n = 0;
        for &[fi, a, b] in &tables().unordered {
            let (va, vb) = (v5[a as usize], v5[b as usize]);
            let low = va.min(vb);
            n += (v3[fi as usize] <= low) as usize * (1 + (va == vb) as usize);
        }
        n
    }

    /// Number of splits passing `filter`: all 72,072, the legal ones, or the Pareto set.
    pub fn count(&self, filter: SplitFilter) -> usize {
        match filter {
            SplitFilter::All => ALL_SPLITS,
            SplitFilter::Legal => self.count_legal(),
            f => self.list(f).len(),
        }
    }

    /// The splits passing `filter`, in [`HandSplits::for_each`] order.
    pub fn list(&self, filter: SplitFilter) -> Vec<Split> {
        let mut out = Vec::new();
        match filter {
            SplitFilter::All => self.for_each(|s| out.push(s)),
            SplitFilter::Legal | SplitFilter::Pareto => self.for_each(|s| {
                if !s.is_foul() {
                    out.push(s)
                }
            }),
        }
        if filter == SplitFilter::Pareto {
            let keep = pareto_mask(&out);
            let mut i = 0;
            out.retain(|_| {
                i += 1;
                keep[i - 1]
            });
        }
        out
    }

    /// The arrangement of a split, each lane's cards high to low.
    pub fn arrangement(&self, s: &Split) -> Arrangement {
        let cards = &self.cards;
        Arrangement {
            front: sorted_desc(pick(cards, s.front)),
            middle: sorted_desc(pick(cards, s.middle)),
            back: sorted_desc(pick(cards, s.back)),
        }
    }
}

/// The `N` cards at the positions of `mask` (which holds `N`), in position order.
pub(crate) fn pick<const N: usize>(cards: &[Card; 13], mask: u16) -> [Card; N] {
    let mut out = [cards[0]; N];
    let mut k = 0;
    for (i, &c) in cards.iter().enumerate() {
        if mask & (1 << i) != 0 {
            out[k] = c;
            k += 1;
        }
    }
    out
}

/// Cards of a lane sorted by descending (rank, suit), for display and tie-breaks.
pub(crate) fn sorted_desc<const N: usize>(mut lane: [Card; N]) -> [Card; N] {
    lane.sort_unstable_by(|a, b| b.cmp(a));
    lane
}

/// Which splits are on the Pareto front of their lane values (back, middle, front).
fn pareto_mask(splits: &[Split]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..splits.len()).collect();
    let key = |i: usize| {
        let v = splits[i].values;
        (v[2], v[1], v[0])
    };
    order.sort_unstable_by_key(|&i| std::cmp::Reverse(key(i)));
    let mut keep = vec![false; splits.len()];
    // Staircase of the points kept so far: middle -> the best front among points whose
    // middle is at least that; fronts strictly increase as middles decrease.
    let mut stair: BTreeMap<HandValue, HandValue> = BTreeMap::new();
    let mut g = 0;
    while g < order.len() {
        let mut h = g;
        while h < order.len() && key(order[h]) == key(order[g]) {
            h += 1;
        }
        let (m, f) = (splits[order[g]].values[1], splits[order[g]].values[0]);
        // Earlier points have a back at least as large; one with middle >= m and front >= f
        // dominates (its values differ from this group's somewhere).
        let dominated = stair.range(m..).next().is_some_and(|(_, &best)| best >= f);
        if !dominated {
            for &i in &order[g..h] {
                keep[i] = true;
            }
            let doomed: Vec<HandValue> = stair
                .range(..=m)
                .filter(|(_, &bf)| bf <= f)
                .map(|(&k, _)| k)
                .collect();
            for k in doomed {
                stair.remove(&k);
            }
            stair.insert(m, f);
        }
        g = h;
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn hand(text: &str) -> [Card; 13] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    #[test]
    fn refilled_for_another_hand_holds_that_hands_values() {
        // Each subset's value from evaluate5 / evaluate3 of its own cards, the wheel too.
        let (a, b) = (
            hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"),
            hand("As Ah Ad Kc Kd 2s 3s 4s 5s 9h 9c Tc Jd"),
        );
        let mut h = HandSplits::new(&a, Wheel::Low);
        for (cards, wheel) in [(b, Wheel::Second), (a, Wheel::Second), (b, Wheel::Low)] {
            h.refill(&cards, wheel);
            assert_eq!(h.cards(), &cards);
            let pick = |mask: u32| -> Vec<Card> {
                (0..13)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| cards[i])
                    .collect()
            };
            let fives = (0u32..1 << 13).filter(|m| m.count_ones() == 5);
            for (i, m) in fives.enumerate() {
                let five: [Card; 5] = pick(m).try_into().unwrap();
                assert_eq!(h.five_values()[i], crate::cards::evaluate5(&five, wheel));
            }
            let threes = (0u32..1 << 13).filter(|m| m.count_ones() == 3);
            for (i, m) in threes.enumerate() {
                let three: [Card; 3] = pick(m).try_into().unwrap();
                assert_eq!(h.three_values()[i], crate::cards::evaluate3(&three));
            }
        }
    }

    #[test]
    fn counts_and_pareto() {
        let h = HandSplits::new(&hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"), Wheel::Low);
        let mut n = 0;
        h.for_each(|_| n += 1);
        assert_eq!(n, 72_072);
        let mut u = 0;
        h.for_each_unordered(|_, _, _, _| u += 1);
        assert_eq!(u, 36_036);
        let mut legal_by_walk = 0;
        h.for_each(|s| legal_by_walk += !s.is_foul() as usize);
        assert_eq!(h.count_legal(), legal_by_walk);
        let legal = h.list(SplitFilter::Legal);
        let pareto = h.list(SplitFilter::Pareto);
        assert!(!legal.is_empty() && pareto.len() <= legal.len());
        // Brute force: nothing in the Pareto set is dominated; everything else is.
        let dominates = |a: &Split, b: &Split| {
            (0..3).all(|i| a.values[i] >= b.values[i]) && (0..3).any(|i| a.values[i] > b.values[i])
        };
        for s in &legal {
            let dominated = legal.iter().any(|o| dominates(o, s));
            assert_eq!(pareto.contains(s), !dominated);
        }
    }

    #[test]
    fn a_front_leaves_126_distinct_partitions_of_its_ten_positions() {
        let t = tables();
        for (fi, &front) in t.three.iter().enumerate() {
            let mut seen = std::collections::BTreeSet::new();
            for &(a, b) in front_rest(fi) {
                let (ma, mb) = (t.five[a as usize], t.five[b as usize]);
                assert_eq!(ma & mb, 0);
                assert_eq!(ma | mb | front, ALL_POSITIONS);
                assert!(seen.insert((ma.min(mb), ma.max(mb))));
            }
            assert_eq!(seen.len(), 126);
        }
    }

    #[test]
    fn counts_are_those_of_the_lists() {
        let hand: [Card; 13] = crate::cards::parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc")
            .unwrap()
            .try_into()
            .unwrap();
        let h = HandSplits::new(&hand, Wheel::Low);
        assert_eq!(h.count(SplitFilter::All), 72_072);
        assert_eq!(h.count(SplitFilter::All), h.list(SplitFilter::All).len());
        for f in [SplitFilter::Legal, SplitFilter::Pareto] {
            assert_eq!(h.count(f), h.list(f).len());
        }
    }
}
