//! The best splits a search has found so far, and the score a split must beat to join them.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::ask::Distinct;
use crate::cards::HandValue;

/// One candidate split with its expected units.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// Front, middle, back subset indices (into the 3- and 5-position subsets of the hand's
    /// positions; for 13 cards those of [`crate::split::HandSplits`]).
    pub subsets: (usize, usize, usize),
    /// Expected units.
    pub expected: f64,
}

/// Highest expected units first: the order of candidate and choice lists (a NaN compares
/// equal to everything).
pub(crate) fn best_first(a: f64, b: f64) -> Ordering {
    b.partial_cmp(&a).unwrap_or(Ordering::Equal)
}

/// The best splits found so far (ties: first found), at most `top`, and `floor`: once
/// `top` are found (or from the start, when seeded with a score to beat), the score a
/// split must beat to be kept.
pub(super) struct Found {
    kept: Kept,
    top: usize,
    distinct: Distinct,
    seeded: bool,
    /// What a split must beat once [`Found::full`].
    pub(super) floor: f64,
}

/// A list kept best first, or, for many splits without `distinct`, a heap with the worst on
/// top, numbered as found (inserting into a long list moves it, the heap does not).
enum Kept {
    List(Vec<Candidate>),
    Heap(BinaryHeap<Ranked>, usize),
}

/// A split in [`Kept::Heap`]: greater is worse (fewer expected units, or as many and found
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

    /// Room for `top` splits (at least one) kept apart by `distinct`, each worth more than
    /// `above` (minus infinity: any).
    pub(super) fn new(top: usize, distinct: Distinct, above: f64) -> Found {
        let top = top.max(1);
        let kept = if top > Found::LIST_MOST && !distinct.any() {
            // Grown as splits are found: a long list asked for may find far fewer.
            Kept::Heap(BinaryHeap::with_capacity(top.min(4096) + 1), 0)
        } else {
            Kept::List(Vec::with_capacity(top + 1))
        };
        Found {
            kept,
            top,
            distinct,
            seeded: above > f64::NEG_INFINITY,
            floor: above,
        }
    }

    fn len(&self) -> usize {
        match &self.kept {
            Kept::List(list) => list.len(),
            Kept::Heap(heap, _) => heap.len(),
        }
    }

    /// Whether a split must beat [`Found::floor`] to be kept: `top` are found, or the search
    /// was seeded with a score to beat.
    #[inline]
    pub(super) fn full(&self) -> bool {
        self.seeded || self.len() == self.top
    }

    /// Keeps split `subsets` worth `expected` when it is among the `top` best found (with
    /// `distinct`, when it beats the kept split of its key too; `v3`, `v5` the values the
    /// subsets index), raising the floor once `top` are kept.
    #[inline(always)]
    pub(super) fn offer(
        &mut self,
        subsets: (usize, usize, usize),
        expected: f64,
        v3: &[HandValue],
        v5: &[HandValue],
    ) {
        let c = Candidate { subsets, expected };
        if self.full() && c.expected <= self.floor {
            return;
        }
        let top = self.top;
        let best = match &mut self.kept {
            Kept::Heap(heap, seq) => {
                *seq += 1;
                heap.push(Ranked { c, seq: *seq });
                if heap.len() > top {
                    heap.pop();
                }
                if heap.len() == top {
                    self.floor = heap.peek().expect("top splits").c.expected;
                }
                return;
            }
            Kept::List(list) => list,
        };
        let distinct = self.distinct;
        if distinct.any() {
            let key =
                |c: &Candidate| distinct.key([v3[c.subsets.0], v5[c.subsets.1], v5[c.subsets.2]]);
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
            self.floor = best[top - 1].expected;
        }
    }

    /// The splits kept, best first (ties: first found).
    pub(super) fn into_vec(self) -> Vec<Candidate> {
        let mut best = match self.kept {
            Kept::List(list) => list,
            Kept::Heap(heap, _) => heap.into_sorted_vec().into_iter().map(|r| r.c).collect(),
        };
        best.sort_by(|a, b| best_first(a.expected, b.expected));
        best
    }
}
