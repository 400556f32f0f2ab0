//! A hand's 5- or 3-card subsets in falling value, for the search of [`super`]:
//! a counting sort on the value's top bits (the category and the highest deciding ranks),
//! each bucket sorted only when a reader first reaches it. Each entry packs the value, the
//! subset's position mask and its index, so a walk reads one word per subset.
//!
//! For the search's bounds, [`Falling::first_missing`] finds the first subset from a place
//! on that misses a set of positions: per 64 places, one bitset per position of the subsets
//! holding it (built when first read), so 64 places are tested with a few word operations.

use crate::cards::HandValue;
use crate::cards::{three_key, ThreeKeys, THREE_KEYS};

/// Bits of the value kept below the bucket number.
const BUCKET_SHIFT: u32 = 22;
const BUCKETS: usize = 1 << (32 - BUCKET_SHIFT);
const INDEX_BITS: u32 = 13;
/// Streams of [`Falling::fill`], each with its own counter per bucket.
const STREAMS: usize = 8;

/// Subsets in falling value (ties: higher mask first), sorted lazily.
pub(crate) struct Falling {
    /// `value << 32 | mask << 13 | index`, grouped by bucket, buckets in falling order.
    keys: Vec<u64>,
    /// Start of each non-empty bucket in `keys`, in falling order, and the end.
    starts: Vec<u32>,
    /// Per bucket and stream: its size, then its next free place; all zero between fills.
    count: Box<[[u32; STREAMS]; BUCKETS]>,
    /// `keys[..sorted]` is in order; `starts[next]` is the first bucket not sorted yet.
    sorted: usize,
    next: usize,
    /// Per block of 64 places: for each position, which of the block's subsets hold it;
    /// up to date for the places below `built`.
    holds: Vec<[u64; POSITIONS]>,
    built: usize,
    /// The last block tested by [`Falling::first_missing`]: the mask, the block, the end of
    /// the places built in it then (0: none kept), and which of those hold a position of
    /// the mask. A walk calls it again and again with one mask in one block.
    tested: (u32, usize, usize, u64),
    /// [`Falling::fill_threes`]'s key per subset.
    dense: Vec<u16>,
}

/// How many entries of a large bucket (more than twice this) [`Falling::sort_to`] picks
/// and sorts at once.
const SORT_PART: usize = 64;

/// Places whose bitsets [`Falling::first_missing`] builds at once (a power of two, at
/// most 64).
const BUILD_STEP: usize = 16;

/// Positions a subset's mask can hold.
const POSITIONS: usize = 16;

/// For sixteen position masks, per position the set of masks holding it (bit `i` for
/// `masks[i]`): the 16×16 bit matrix transposed. Written as sixteen sign tests per
/// position, which the compiler does in vector registers, where setting each mask's bits
/// one at a time chains loads and stores through the same words.
#[inline]
fn holders16(masks: &[u16; 16]) -> [u16; POSITIONS] {
    std::array::from_fn(|p| {
        let mut bits = 0u16;
        for (i, &m) in masks.iter().enumerate() {
            bits |= ((((m << (15 - p)) as i16) < 0) as u16) << i;
        }
        bits
    })
}

/// The low words of the entries of subsets with these position masks, subset `i` at `i`
/// (`mask << 13 | i`): made once per set of subsets, so that a fill adds only the values.
pub(crate) fn tails(masks: &[u32]) -> Vec<u64> {
    masks
        .iter()
        .enumerate()
        .map(|(i, &m)| (m as u64) << INDEX_BITS | i as u64)
        .collect()
}

/// The entry of a subset of value `v` whose low word ([`tails`]) is `tail`.
#[inline]
fn entry(v: HandValue, tail: u64) -> u64 {
    (v.raw() as u64) << 32 | tail
}

/// The value of an entry.
#[inline]
pub(crate) fn value(key: u64) -> u32 {
    (key >> 32) as u32
}

/// The position mask of an entry.
#[inline]
pub(crate) fn mask(key: u64) -> u32 {
    ((key >> INDEX_BITS) & 0xffff) as u32
}

/// The subset index of an entry.
#[inline]
pub(crate) fn index(key: u64) -> usize {
    (key & ((1 << INDEX_BITS) - 1)) as usize
}

impl Default for Falling {
    fn default() -> Self {
        Falling {
            keys: Vec::new(),
            starts: Vec::new(),
            count: Box::new([[0; STREAMS]; BUCKETS]),
            sorted: 0,
            next: 0,
            holds: Vec::new(),
            built: 0,
            tested: (0, 0, 0, 0),
            dense: Vec::new(),
        }
    }
}

impl Falling {
    /// Refills with the subsets of `values` and their entries' low words `tails` ([`tails`]
    /// of their position masks; index `i` is subset `i`; at most 8,192 subsets of at most 16
    /// positions), reusing the buffers.
    pub(crate) fn fill(&mut self, values: &[HandValue], tails: &[u64]) {
        debug_assert!(values.len() <= 1 << INDEX_BITS && values.len() == tails.len());
        // Eight streams, each with its own counters: subset `i` is in stream `i % 8`.
        // Neighbouring subsets share most positions and often a bucket, and a counter's
        // increments are a chain of loads and stores; eight counters per bucket keep eight
        // chains in flight (four did about as well in a later measurement); each stream
        // also marks its own occupied buckets (one shared bitset would be one more chain).
        // A bucket's order is made when it is sorted.
        let mut occupied = [0u64; BUCKETS / 64];
        let n = values.len();
        let bucket = |v: HandValue| (v.raw() >> BUCKET_SHIFT) as usize;
        let whole = n - n % STREAMS;
        let mut occ = [[0u64; BUCKETS / 64]; STREAMS];
        // Whole chunks of `STREAMS` (reads that need no bounds checks), then the rest.
        for chunk in values.chunks_exact(STREAMS) {
            for (s, occ) in occ.iter_mut().enumerate() {
                let b = bucket(chunk[s]);
                self.count[b][s] += 1;
                occ[b / 64] |= 1 << (b % 64);
            }
        }
        for (i, &v) in values.iter().enumerate().skip(whole) {
            let b = bucket(v);
            self.count[b][i % STREAMS] += 1;
            occ[i % STREAMS][b / 64] |= 1 << (b % 64);
        }
        for (w, o) in occupied.iter_mut().enumerate() {
            *o = occ.iter().fold(0, |a, s| a | s[w]);
        }
        // Highest bucket first; each counter becomes its stream's next free place.
        self.starts.clear();
        let mut sum = 0u32;
        for w in (0..occupied.len()).rev() {
            let mut bits = occupied[w];
            while bits != 0 {
                let top = 63 - bits.leading_zeros() as usize;
                bits &= !(1 << top);
                let b = w * 64 + top;
                self.starts.push(sum);
                for c in &mut self.count[b] {
                    let k = *c;
                    *c = sum;
                    sum += k;
                }
            }
        }
        self.starts.push(sum);
        // Every place is written once below: no need to clear.
        self.keys.resize(n, 0);
        let chunks = values
            .chunks_exact(STREAMS)
            .zip(tails.chunks_exact(STREAMS));
        // The counter is read into a register and written back before the key is stored:
        // the compiler cannot tell that a store to `keys` leaves the counters unchanged, and
        // would read the counter again after it (fill 3.0 µs a 13-card hand, from 3.6).
        let (keys, count) = (&mut self.keys[..], &mut *self.count);
        for (vs, ts) in chunks {
            for s in 0..STREAMS {
                let b = bucket(vs[s]);
                let at = count[b][s];
                count[b][s] = at + 1;
                keys[at as usize] = entry(vs[s], ts[s]);
            }
        }
        for (i, (&v, &t)) in values.iter().zip(tails).enumerate().skip(whole) {
            let b = bucket(v);
            let at = count[b][i % STREAMS];
            count[b][i % STREAMS] = at + 1;
            keys[at as usize] = entry(v, t);
        }
        for (w, &bits) in occupied.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                self.count[w * 64 + bits.trailing_zeros() as usize] = [0; STREAMS];
                bits &= bits - 1;
            }
        }
        self.sorted = 0;
        self.next = 0;
        self.built = 0;
        self.tested = (0, 0, 0, 0);
    }

    /// Refills with 3-card subsets (as [`Falling::fill`]), sorted at once: each value has a
    /// bucket of its own ([`three_key`]; `keys`, when given, holds each subset's, read with
    /// the values instead of computed from them), so a counting sort puts them in falling
    /// order, and scattering from the last subset to the first puts equal values' higher
    /// masks first.
    /// `keys`, the tables', are taken as they are; computed keys' order is checked, and
    /// were it wrong (a value no 3-card hand has), the subsets are filled by
    /// [`Falling::fill`] instead.
    pub(crate) fn fill_threes(
        &mut self,
        values: &[HandValue],
        tails: &[u64],
        keys: Option<ThreeKeys<'_>>,
    ) {
        debug_assert!(values.len() <= 1 << INDEX_BITS && values.len() == tails.len());
        if values.len() > u16::MAX as usize {
            self.fill(values, tails);
            return;
        }
        // Keys read beside the values (13 cards: [`crate::split::HandSplits::three_keys`],
        // which only the tables make) are those of values some three cards have, in value
        // order (`three_card_keys_are_in_value_order`); computed ones are checked below.
        let given = keys.map(|k| k.0).filter(|k| k.len() == values.len());
        let dense: &[u16] = match given {
            Some(keys) => keys,
            None => {
                self.dense.clear();
                self.dense
                    .extend(values.iter().map(|&v| three_key(v) as u16));
                &self.dense
            }
        };
        let mut count = [0u16; THREE_KEYS + 1];
        for &d in dense {
            count[(d as usize).min(THREE_KEYS)] += 1;
        }
        // Highest key first: `count[d]` becomes the last place of key `d`, plus one.
        let mut sum = 0u16;
        for c in count.iter_mut().rev() {
            sum += *c;
            *c = sum;
        }
        let n = values.len();
        self.keys.resize(n, 0);
        let keys = &mut self.keys[..];
        for ((&v, &t), &d) in values.iter().zip(tails).zip(dense) {
            let d = (d as usize).min(THREE_KEYS);
            let at = count[d] - 1;
            count[d] = at;
            keys[at as usize] = entry(v, t);
        }
        // The keys are distinct: in falling order each is below the one before. A value no
        // 3-card hand has could break that; then the general fill sorts them.
        if given.is_none() && keys.windows(2).any(|w| w[0] <= w[1]) {
            self.fill(values, tails);
            return;
        }
        self.starts.clear();
        self.starts.extend([0, n as u32]);
        self.sorted = n;
        self.next = 1;
        self.built = 0;
        self.tested = (0, 0, 0, 0);
    }

    /// Number of subsets.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The entry at place `q` in falling order (sorting up to it first).
    #[inline(always)]
    pub(crate) fn at(&mut self, q: usize) -> u64 {
        if q >= self.sorted {
            self.sort_to(q);
        }
        self.keys[q]
    }

    /// The first place in `from..until` whose subset holds none of the positions of `mask`,
    /// else `until` (at most the number of subsets). The places are tested up to 64 at a
    /// time, as far as their bitsets are built; a place not built yet is built with the
    /// next [`BUILD_STEP`] places, so a subset found early sorts no further than it needs.
    pub(crate) fn first_missing(&mut self, from: usize, until: usize, mask: u32) -> usize {
        debug_assert!(until <= self.len());
        let mut q = from;
        while q < until {
            if q >= self.built {
                self.build((q + BUILD_STEP) & !(BUILD_STEP - 1));
            }
            let w = q / 64;
            let end = until.min(self.built).min(w * 64 + 64);
            let hit = match self.tested {
                (m, b, e, hit) if m == mask && b == w && end <= e => hit,
                _ => {
                    let holds = &self.holds[w];
                    let mut hit = 0u64;
                    let mut bits = mask;
                    while bits != 0 {
                        hit |= holds[bits.trailing_zeros() as usize];
                        bits &= bits - 1;
                    }
                    self.tested = (mask, w, self.built.min(w * 64 + 64), hit);
                    hit
                }
            };
            // The places `q..end` of the block.
            let span = (u64::MAX << (q % 64)) & (u64::MAX >> (64 - (end - w * 64)));
            let free = !hit & span;
            if free != 0 {
                return w * 64 + free.trailing_zeros() as usize;
            }
            q = end;
        }
        until
    }

    /// The entry of the strongest subset at place `from` or after (a place already read
    /// with [`Falling::at`]) that holds none of the positions of `mask` (equal values: the
    /// higher mask, as the order has them), else `None`, found without sorting or building
    /// any further: the places with bitsets from `from` on, tested 64 at a time, then the
    /// other sorted places in order, then each bucket not sorted yet read whole, the
    /// strongest bucket first (the first bucket that holds such a subset holds the
    /// strongest). What a walk that stops far before it would sort and build to find it.
    pub(crate) fn strongest_missing(&mut self, from: usize, mask: u32) -> Option<u64> {
        debug_assert!(from < self.sorted);
        if from < self.built {
            let q = self.first_missing(from, self.built, mask);
            if q < self.built {
                return Some(self.keys[q]);
            }
        }
        let clash = (mask as u64) << INDEX_BITS;
        self.strongest_from(from.max(self.built), |k| k & clash == 0)
    }

    /// The entry of the strongest subset at place `from` or after (a place already read
    /// with [`Falling::at`]) whose value is below `least` (equal values: the higher mask),
    /// else `None`, found without sorting any further: the sorted places in order, then each
    /// bucket not sorted yet read whole, the strongest bucket first.
    pub(crate) fn strongest_below(&self, from: usize, least: u32) -> Option<u64> {
        debug_assert!(from < self.sorted);
        let bound = (least as u64) << 32;
        self.strongest_from(from, |k| k < bound)
    }

    /// The entry of the strongest subset at place `from` or after (at most the sorted
    /// places' end) that `keep` keeps: the first kept of the sorted places, else the
    /// strongest kept of the first bucket not sorted yet that holds one.
    fn strongest_from(&self, from: usize, keep: impl Fn(u64) -> bool) -> Option<u64> {
        if let Some(&key) = self.keys[from..self.sorted].iter().find(|&&k| keep(k)) {
            return Some(key);
        }
        for b in self.next..self.starts.len() - 1 {
            let bucket = &self.keys[self.starts[b] as usize..self.starts[b + 1] as usize];
            let strongest =
                (bucket.iter()).fold(0u64, |best, &k| if keep(k) { best.max(k) } else { best });
            // A key is never 0: its mask holds some position.
            if strongest != 0 {
                return Some(strongest);
            }
        }
        None
    }

    /// The entry at the first place in `*from..until` whose subset holds none of the
    /// positions of `mask`, moving `*from` past it; `None` when there is none.
    #[inline]
    pub(crate) fn next_missing(
        &mut self,
        from: &mut usize,
        until: usize,
        mask: u32,
    ) -> Option<u64> {
        let q = self.first_missing(*from, until, mask);
        if q >= until {
            *from = until;
            return None;
        }
        *from = q + 1;
        Some(self.at(q))
    }

    /// Builds the position bitsets of the places up to `end` (at most the number of
    /// subsets), sorting them first.
    #[inline(never)]
    fn build(&mut self, end: usize) {
        let end = end.min(self.len());
        let blocks = end.div_ceil(64);
        if self.holds.len() < blocks {
            self.holds.resize(blocks, [0; POSITIONS]);
        }
        if end > self.sorted {
            self.sort_to(end - 1);
        }
        // Block by block, the block's bitsets in a local array (zeroed at its first place).
        let mut q = self.built;
        while q < end {
            let w = q / 64;
            let stop = end.min(w * 64 + 64);
            let mut holds = if q % 64 == 0 {
                [0; POSITIONS]
            } else {
                self.holds[w]
            };
            // Sixteen places at a time: their masks' bit matrix transposed.
            let mut at = q;
            while at < stop {
                let next = stop.min((at | 15) + 1);
                let mut masks = [0u16; 16];
                for (slot, &key) in masks.iter_mut().zip(&self.keys[at..next]) {
                    *slot = mask(key) as u16;
                }
                let shift = at % 64;
                for (h, bits) in holds.iter_mut().zip(holders16(&masks)) {
                    *h |= (bits as u64) << shift;
                }
                at = next;
            }
            self.holds[w] = holds;
            q = stop;
        }
        self.built = self.built.max(end);
    }

    /// Sorts the buckets up to the one holding place `q`. Of a bucket with more than twice
    /// [`SORT_PART`] entries, only the strongest [`SORT_PART`] are picked and sorted; the
    /// rest stay a bucket of their own (a reader often stops within a large bucket).
    #[inline(never)]
    fn sort_to(&mut self, q: usize) {
        while self.sorted <= q {
            let (a, b) = (
                self.starts[self.next] as usize,
                self.starts[self.next + 1] as usize,
            );
            let bucket = &mut self.keys[a..b];
            if bucket.len() > 2 * SORT_PART {
                bucket.select_nth_unstable_by(SORT_PART - 1, |x, y| y.cmp(x));
                bucket[..SORT_PART].sort_unstable_by(|x, y| y.cmp(x));
                self.sorted = a + SORT_PART;
                self.starts[self.next] = self.sorted as u32;
            } else {
                bucket.sort_unstable_by(|x, y| y.cmp(x));
                self.sorted = b;
                self.next += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_subsets_found_without_sorting_are_the_first_in_order() {
        // Random values over a few buckets, 5-position masks of 13 positions; each query
        // after reading some places (some bitsets built, some buckets not sorted, large
        // ones in part): the first missing a mask, the first below a value.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let masks: Vec<u32> = (0u32..1 << 13).filter(|m| m.count_ones() == 5).collect();
        let mut f = Falling::default();
        let mut g = Falling::default();
        let mut below = [0usize; 2];
        for round in 0..200 {
            let values: Vec<HandValue> = (0..masks.len())
                .map(|_| {
                    HandValue(
                        rng.random_range(0..8u32) << 28 | rng.random_range(0..1u32 << 16) << 6,
                    )
                })
                .collect();
            f.fill(&values, &tails(&masks));
            g.fill(&values, &tails(&masks));
            let from = rng.random_range(0..masks.len());
            f.at(from);
            if round % 2 == 0 {
                f.first_missing(0, (from + 1).min(f.len()), 0x1fff);
            }
            for _ in 0..10 {
                let mask = loop {
                    let m = rng.random_range(1u32..1 << 13);
                    if m.count_ones() <= 10 {
                        break m;
                    }
                };
                let want = (from..g.len())
                    .map(|q| g.at(q))
                    .find(|&k| self::mask(k) & mask == 0);
                assert_eq!(f.strongest_missing(from, mask), want, "round {round}");
                // Below a value held, one above it, any value, or the least held (none).
                let least = match rng.random_range(0..4) {
                    0 => values[rng.random_range(0..values.len())].raw(),
                    1 => values[rng.random_range(0..values.len())].raw() + 1,
                    2 => rng.random_range(0..9u32 << 28),
                    _ => values.iter().min().expect("values").raw(),
                };
                let want = (from..g.len()).map(|q| g.at(q)).find(|&k| value(k) < least);
                let got = f.strongest_below(from, least);
                assert_eq!(got, want, "round {round}");
                below[got.is_some() as usize] += 1;
            }
        }
        // Both outcomes, often (a search that never finds one, or always does, would pass).
        assert!(below[0] > 300 && below[1] > 1_000, "{below:?}");
    }

    #[test]
    fn reads_in_falling_order_with_masks_and_indices() {
        // Values across many buckets and within one, with ties.
        let raw = [
            5u32 << 28 | 7,
            1 << 28,
            5 << 28 | 9,
            3,
            1 << 28,
            8 << 28,
            5 << 28 | 7,
        ];
        let values: Vec<HandValue> = raw.iter().map(|&r| HandValue(r)).collect();
        let masks: Vec<u32> = (0..raw.len() as u32).map(|i| 0b11111 << i).collect();
        let mut f = Falling::default();
        for _ in 0..2 {
            f.fill(&values, &tails(&masks));
            let got: Vec<(u32, usize)> = (0..f.len())
                .map(|q| f.at(q))
                .map(|k| (value(k), index(k)))
                .collect();
            // Falling value; equal values by falling mask (the higher index here).
            assert_eq!(
                got,
                vec![
                    (8 << 28, 5),
                    (5 << 28 | 9, 2),
                    (5 << 28 | 7, 6),
                    (5 << 28 | 7, 0),
                    (1 << 28, 4),
                    (1 << 28, 1),
                    (3, 3)
                ]
            );
            for q in 0..f.len() {
                let k = f.at(q);
                assert_eq!(mask(k), masks[index(k)]);
            }
        }
    }

    #[test]
    fn reads_large_buckets_in_order_a_part_at_a_time() {
        // 1,287 subsets in three buckets of 429, values tied in pairs; each fill is read to
        // a different depth (within a bucket's first part, at its edges, across buckets),
        // so each fill starts from a state a part-sorted bucket left.
        let values: Vec<HandValue> = (0..1287u32)
            .map(|i| HandValue(((i % 3) << 22) | ((i * 7919) % 500)))
            .collect();
        let masks: Vec<u32> = (0..1287u32).map(|i| (i * 37) & 0xffff).collect();
        let mut want: Vec<(u32, u32, usize)> =
            (0..1287).map(|i| (values[i].raw(), masks[i], i)).collect();
        want.sort_by(|a, b| b.cmp(a));
        let mut f = Falling::default();
        for depth in [1, 47, 48, 49, 63, 64, 65, 97, 129, 428, 430, 1287, 5] {
            f.fill(&values, &tails(&masks));
            for (q, w) in want.iter().enumerate().take(depth) {
                let k = f.at(q);
                assert_eq!((value(k), mask(k), index(k)), *w, "place {q} of {depth}");
            }
        }
    }

    #[test]
    fn three_card_subsets_come_in_falling_order_at_once() {
        // Every 3-card subset of random hands of 13 to 16 cards (15 and 16 from the deck
        // with extra diamonds, so some cards come twice), against a full sort of the entries;
        // then hands whose ranks repeat most (trips, many pairs), where ties are common.
        use crate::cards::evaluate3;
        use crate::cards::{parse_cards, Card, DeckKind};
        use crate::deal::{rng_for, shuffle};
        let check = |cards: &[Card]| {
            let n = cards.len();
            let masks: Vec<u32> = (0u32..1 << n).filter(|m| m.count_ones() == 3).collect();
            let values: Vec<HandValue> = masks
                .iter()
                .map(|&m| {
                    let at: Vec<Card> = (0..n)
                        .filter(|&i| m >> i & 1 == 1)
                        .map(|i| cards[i])
                        .collect();
                    evaluate3(&[at[0], at[1], at[2]])
                })
                .collect();
            let mut want: Vec<(u32, u32, usize)> = (0..masks.len())
                .map(|i| (values[i].raw(), masks[i], i))
                .collect();
            want.sort_by(|a, b| b.cmp(a));
            let mut f = Falling::default();
            // A used buffer first: the fives' fill leaves other buckets and a part sorted.
            f.fill(&values, &tails(&masks));
            f.at(3);
            f.fill_threes(&values, &tails(&masks), None);
            assert_eq!(f.sorted, masks.len(), "sorted at once");
            for (q, w) in want.iter().enumerate() {
                let k = f.at(q);
                assert_eq!((value(k), mask(k), index(k)), *w, "place {q}");
            }
            assert_eq!(f.first_missing(0, f.len(), masks[want[0].2]), {
                want.iter()
                    .position(|w| w.1 & masks[want[0].2] == 0)
                    .unwrap_or(f.len())
            });
            // 13 cards: the same order from the keys the tables give beside the values,
            // taken unchecked.
            if let Ok(hand) = <[Card; 13]>::try_from(cards) {
                let splits = crate::split::HandSplits::new(&hand, crate::cards::Wheel::Low);
                assert_eq!(splits.three_values(), &values[..]);
                f.fill(&values, &tails(&masks));
                f.fill_threes(&values, &tails(&masks), Some(splits.three_keys()));
                for (q, w) in want.iter().enumerate() {
                    let k = f.at(q);
                    assert_eq!((value(k), mask(k), index(k)), *w, "place {q}, keyed");
                }
            }
        };
        let mut rng = rng_for(11);
        for (deck, n) in [
            (DeckKind::Standard, 13),
            (DeckKind::Standard, 14),
            (DeckKind::ExtraDiamonds, 15),
            (DeckKind::ExtraDiamonds, 16),
        ] {
            for _ in 0..200 {
                let mut d = deck.cards();
                shuffle(&mut d, &mut rng);
                check(&d[..n]);
            }
        }
        for hand in [
            "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s Ac",
            "Ac Ad Kc Kd Qc Qd Jc Jd Tc Td 9c 9d 8c",
            "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c",
        ] {
            check(&parse_cards(hand).unwrap());
        }
    }

    #[test]
    fn three_card_keys_are_in_value_order() {
        // Every 3-card value in increasing order gets an increasing key below the bound.
        use crate::cards::evaluate3;
        use crate::cards::DeckKind;
        let d = DeckKind::Standard.cards();
        let mut values: Vec<HandValue> = Vec::new();
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    values.push(evaluate3(&[d[a], d[b], d[c]]));
                }
            }
        }
        values.sort();
        values.dedup();
        assert_eq!(values.len(), 455);
        let keys: Vec<usize> = values.iter().map(|&v| three_key(v)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "increasing");
        assert!(*keys.last().unwrap() < THREE_KEYS);
        // Values of five cards (no 3-card hand has them) are still read in falling order:
        // the order made from their keys is checked, and the general fill takes over.
        let values: Vec<HandValue> = (0..56u32)
            .map(|i| HandValue(((i % 9) << 28) | ((i * 7919) % 9000)))
            .collect();
        let masks: Vec<u32> = (0..56u32).map(|i| i * 3 + 1).collect();
        let mut want: Vec<(u32, u32, usize)> =
            (0..56).map(|i| (values[i].raw(), masks[i], i)).collect();
        want.sort_by(|a, b| b.cmp(a));
        let mut f = Falling::default();
        f.fill_threes(&values, &tails(&masks), None);
        for (q, w) in want.iter().enumerate() {
            let k = f.at(q);
            assert_eq!((value(k), mask(k), index(k)), *w, "place {q}");
        }
    }

    #[test]
    fn finds_the_first_subset_missing_some_positions() {
        // 200 subsets (four blocks of places), masks of a few positions each; every start
        // and a spread of masks against a plain scan.
        let values: Vec<HandValue> = (0..200u32).map(|i| HandValue((i * 7919) % 1000)).collect();
        let masks: Vec<u32> = (0..200u32)
            .map(|i| (1 << (i % 16)) | (1 << ((i * 5 + 3) % 16)) | (1 << ((i * 11) % 13)))
            .collect();
        let mut f = Falling::default();
        for round in 0..2 {
            f.fill(&values, &tails(&masks));
            for from in (0..=f.len()).step_by(if round == 0 { 1 } else { 7 }) {
                for until in [from, from + 1, from + 63, from + 64, from + 130, f.len()] {
                    let until = until.min(f.len());
                    for miss in [0u32, 1, 0b101, 0x00ff, 0x7ff0, 0xfffe, 0xffff] {
                        let want = (from..until)
                            .find(|&q| mask(f.at(q)) & miss == 0)
                            .unwrap_or(until);
                        let got = f.first_missing(from, until, miss);
                        assert_eq!(got, want, "{from}..{until}, {miss:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn walks_with_one_mask_while_places_are_built() {
        // `next_missing` over every place with one mask, the places built a step at a time
        // as the walk reaches them, another mask asked between its steps (each answer
        // against a plain scan of a sorted copy), and the walk's places against the scan's.
        let mut x = 777u64;
        let mut f = Falling::default();
        for round in 0..40 {
            let n = 100 + (lcg(&mut x) >> 40) as usize % 300;
            let values: Vec<HandValue> = (0..n)
                .map(|_| HandValue((lcg(&mut x) >> 44) as u32))
                .collect();
            let masks: Vec<u32> = (0..n)
                .map(|_| (0..3).fold(0, |m, _| m | 1 << ((lcg(&mut x) >> 40) % 16)))
                .collect();
            let sorted = filled(&mut f, &values, &masks);
            let miss = (lcg(&mut x) >> 40) as u32 & 0x0f0f | 1 << (round % 16);
            let other = (lcg(&mut x) >> 40) as u32 & 0xffff;
            let (mut from, mut walked) = (0, Vec::new());
            while let Some(k) = f.next_missing(&mut from, n, miss) {
                walked.push(k);
                let (a, b) = (from.saturating_sub(5), (from + 40).min(n));
                let want = (a..b).find(|&q| mask(sorted[q]) & other == 0).unwrap_or(b);
                assert_eq!(
                    f.first_missing(a, b, other),
                    want,
                    "round {round}, {a}..{b}"
                );
            }
            let want: Vec<u64> = sorted
                .iter()
                .copied()
                .filter(|&k| mask(k) & miss == 0)
                .collect();
            assert_eq!(walked, want, "round {round}");
        }
    }

    /// Fills `f` with the subsets of `values` and `masks`, and returns their entries sorted
    /// as a plain scan would read them.
    fn filled(f: &mut Falling, values: &[HandValue], masks: &[u32]) -> Vec<u64> {
        let mut sorted: Vec<u64> = (values.iter().zip(tails(masks)))
            .map(|(&v, t)| entry(v, t))
            .collect();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        f.fill(values, &tails(masks));
        sorted
    }

    /// The next state of a 64-bit linear congruential generator (the tests' random draws).
    fn lcg(x: &mut u64) -> u64 {
        *x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *x
    }

    #[test]
    fn holders_are_the_masks_transposed() {
        // Every position of 16, the sign bit's included, against one bit read at a time.
        let mut x = 99u64;
        for _ in 0..2000 {
            let masks: [u16; 16] = std::array::from_fn(|_| (lcg(&mut x) >> 40) as u16);
            let got = holders16(&masks);
            for (p, &bits) in got.iter().enumerate() {
                for (i, &m) in masks.iter().enumerate() {
                    assert_eq!(bits >> i & 1, m >> p & 1, "position {p}, mask {i}");
                }
            }
        }
    }

    #[test]
    fn builds_the_places_it_tests_a_step_at_a_time() {
        // Each fill is asked in a scattered order before any place is read, so places are
        // built a few at a time, blocks part built, over the bitsets of an earlier fill with
        // other masks; the answers against a plain scan of a sorted copy.
        let mut f = Falling::default();
        let mut x = 12345u64;
        let mut next = |k: usize| (lcg(&mut x) >> 33) as usize % k;
        for round in 0..4u32 {
            let n = 150 + 40 * round as usize;
            let values: Vec<HandValue> = (0..n as u32)
                .map(|i| HandValue((i * 7919 + round * 13) % 997))
                .collect();
            let masks: Vec<u32> = (0..n as u32)
                .map(|i| (1 << ((i + round) % 16)) | (1 << ((i * 3 + 5 * round) % 16)))
                .collect();
            let sorted = filled(&mut f, &values, &masks);
            for _ in 0..300 {
                let from = next(n + 1);
                let until = (from + next(80)).min(n);
                // About 4, 8 or 12 positions of 16: found at once, or after many places.
                let (a, b) = (next(1 << 16) as u32, next(1 << 16) as u32);
                let miss = [a & b, a, a | b][next(3)];
                let want = (from..until)
                    .find(|&q| mask(sorted[q]) & miss == 0)
                    .unwrap_or(until);
                assert_eq!(f.first_missing(from, until, miss), want, "{from}..{until}");
            }
        }
    }
}
