//! Table evaluation of 5- and 3-card hands (RULES.md 3): the same values as the straightforward
//! evaluators of [`super::reference`], read from tables indexed by a key of the hand's ranks.
//!
//! Each card contributes a `u32` ([`card_key`]): bits 0..19 hold the key of its rank, and a
//! 3-bit field at bit `19 + 3 × suit` counts its suit. A hand's key is the sum of its cards'
//! keys, so it is built with one addition per card, in any order, and duplicate diamonds
//! (extra deck) need no special case:
//!
//! ```text
//!  31 30..28  27..25  24..22  21..19   18 ................ 0
//!  0  spades  hearts  clubs   diamonds sum of the rank keys
//! ```
//!
//! The rank keys are chosen so that two different multisets of five (or three) ranks never
//! have the same sum. Five cards are suited when a suit field reads 5 (binary `101`: its top and
//! bottom bits are both set, which no smaller count does). The rank sum (below 2^19) is mapped
//! onto a dense slot by row displacement: `slot = offset[sum >> shift] + (sum mod 2^shift)`,
//! the offsets chosen when the tables are built so that the 6,188 five-rank multisets (455 for
//! three ranks) land in distinct slots. A value is then one read per hand: 5-card tables per
//! wheel rule and suitedness, one 3-card table.
//!
//! The tables are filled once, at first use, by evaluating one hand of each multiset with the
//! straightforward evaluators, so both agree by construction; the exhaustive tests compare them
//! on every multiset of card codes.

use std::sync::OnceLock;

use super::card::Card;
use super::reference::{evaluate3_reference, evaluate5_reference};
use super::value::{HandValue, Wheel};

/// Rank keys, two first: each is the smallest number keeping the sums of any five ranks with
/// repetition (up to five of a rank) distinct, so the sums of three are distinct too (two equal
/// sums of three would give two equal sums of five with the same two ranks added).
const RANK_KEYS: [u32; 13] = [
    0, 1, 6, 31, 108, 366, 926, 2286, 5733, 12905, 27316, 44676, 94545,
];
const RANK_BITS: u32 = 19;
const RANK_MASK: u32 = (1 << RANK_BITS) - 1;
const SUIT_SHIFT: u32 = RANK_BITS;
/// Bit 0 of each suit field.
const SUIT_LOW_BITS: u32 = 0b001_001_001_001 << SUIT_SHIFT;

// The largest sum of five rank keys must stay below the suit fields.
const _: () = assert!(5 * RANK_KEYS[12] < 1 << RANK_BITS);

/// Per-card keys by card code (`rank_index * 4 + suit`), padded to 64 so that a masked index
/// needs no bounds check.
const CARD_KEYS: [u32; 64] = {
    let mut keys = [0u32; 64];
    let mut code = 0;
    while code < 52 {
        keys[code] = RANK_KEYS[code >> 2] + (1 << (SUIT_SHIFT + 3 * (code as u32 & 3)));
        code += 1;
    }
    keys
};

/// The key of one card; a hand's key is the sum of its cards' keys.
#[inline(always)]
pub fn card_key(card: Card) -> u32 {
    CARD_KEYS[card.code() as usize & 63]
}

/// Whether three cards with this key sum share one suit (a suit field reads 3, binary
/// `011`: no smaller count of three cards sets both its low bits).
#[inline(always)]
fn three_of_a_suit(key: u32) -> bool {
    key & (key >> 1) & SUIT_LOW_BITS != 0
}

/// Whether five cards with this key sum share one suit.
#[inline(always)]
fn suited(key: u32) -> bool {
    (key >> 2) & key & SUIT_LOW_BITS != 0
}

// Row displacement parameters: rows of 2^SHIFT sums; ROWS and SLOTS are powers of two so that
// masked indices need no bounds checks. Sums of five are below 5 × 94,545 < 3,694 × 2^7 and
// those of three below 3 × 94,545 < 554 × 2^9; the packed rows reach slot 7,200 of 8,192 and
// 662 of 1,024 (checked when built).
const SHIFT5: u32 = 7;
const ROWS5: usize = 4096;
const SLOTS5: usize = 8192;
const SHIFT3: u32 = 9;
const ROWS3: usize = 1024;
const SLOTS3: usize = 1024;

#[inline(always)]
fn slot<const ROWS: usize>(offsets: &[u16; ROWS], shift: u32, key: u32) -> usize {
    let sum = key & RANK_MASK;
    offsets[(sum >> shift) as usize & (ROWS - 1)] as usize + (sum & ((1 << shift) - 1)) as usize
}

/// The evaluation tables; see the module docs.
pub struct Tables {
    offsets5: Box<[u16; ROWS5]>,
    /// `[wheel][suited][slot]`.
    values5: Box<[[[u32; SLOTS5]; 2]; 2]>,
    offsets3: Box<[u16; ROWS3]>,
    values3: Box<[u32; SLOTS3]>,
    /// Per slot of `values3`: the value's [`three_key`].
    keys3: Box<[u16; SLOTS3]>,
}

impl Tables {
    /// The value of five cards whose keys sum to `key`.
    #[inline(always)]
    pub fn value5(&self, key: u32, wheel: Wheel) -> HandValue {
        let s = slot(&self.offsets5, SHIFT5, key) & (SLOTS5 - 1);
        HandValue(self.values5[wheel as usize][suited(key) as usize][s])
    }

    /// The value of three cards whose keys sum to `key`.
    #[inline(always)]
    pub fn value3(&self, key: u32) -> HandValue {
        HandValue(self.values3[self.slot3(key)])
    }

    /// The slot of three cards whose keys sum to `key`, in `values3` and `keys3`.
    #[inline(always)]
    fn slot3(&self, key: u32) -> usize {
        slot(&self.offsets3, SHIFT3, key) & (SLOTS3 - 1)
    }
}

/// The tables, built at first use (a few milliseconds).
#[inline]
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// Every multiset of `n` ranks, as rank indices low to high.
fn rank_multisets(n: usize) -> Vec<Vec<u8>> {
    fn extend(from: u8, left: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for r in from..13 {
            cur.push(r);
            extend(r, left - 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, &mut Vec::with_capacity(n), &mut out);
    out
}

fn rank_sum(ranks: &[u8]) -> u32 {
    ranks.iter().map(|&r| RANK_KEYS[r as usize]).sum()
}

/// Row offsets placing every sum in its own slot below `slots`: rows are placed fullest
/// first, each at the lowest offset where none of its columns is taken.
fn displace<const ROWS: usize>(sums: &[u32], shift: u32, slots: usize) -> Box<[u16; ROWS]> {
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); ROWS];
    for &s in sums {
        let row = (s >> shift) as usize;
        assert!(row < ROWS, "rank sum {s} beyond the row table");
        rows[row].push((s & ((1 << shift) - 1)) as usize);
    }
    let mut order: Vec<usize> = (0..ROWS).filter(|&r| !rows[r].is_empty()).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(rows[r].len()), r));
    // Taken slots, one bit each. A row's offset is the lowest at which all its columns are
    // free: when column `c` lands on a taken slot, the offsets up to the next free slot after
    // it fail on `c` too and are skipped.
    let mut taken = vec![0u64; (slots + (1 << shift)) / 64 + 1];
    let is_taken = |taken: &[u64], i: usize| (taken[i / 64] >> (i % 64)) & 1 == 1;
    let next_free = |taken: &[u64], mut i: usize| loop {
        let free = !taken[i / 64] >> (i % 64);
        if free != 0 {
            return i + free.trailing_zeros() as usize;
        }
        i = (i / 64 + 1) * 64;
    };
    let mut offsets = Box::new([0u16; ROWS]);
    for r in order {
        let mut offset = 0;
        while let Some(&c) = rows[r].iter().find(|&&c| is_taken(&taken, offset + c)) {
            offset = next_free(&taken, offset + c) - c;
            assert!(offset < slots, "table too small");
        }
        for &c in &rows[r] {
            assert!(offset + c < slots, "table too small");
            taken[(offset + c) / 64] |= 1 << ((offset + c) % 64);
        }
        offsets[r] = offset as u16;
    }
    offsets
}

/// Cards of the given ranks; suits `0, 1, 2, 3, 0` by position when `plain` (never five of one
/// suit), all diamonds otherwise. Duplicate codes are fine: values depend only on the ranks
/// and on whether all five cards share a suit.
fn cards_of(ranks: &[u8], plain: bool) -> Vec<Card> {
    ranks
        .iter()
        .enumerate()
        .map(|(i, &r)| Card(r * 4 + if plain { (i % 4) as u8 } else { 0 }))
        .collect()
}

fn build() -> Tables {
    let fives = rank_multisets(5);
    let sums5: Vec<u32> = fives.iter().map(|m| rank_sum(m)).collect();
    let offsets5 = displace::<ROWS5>(&sums5, SHIFT5, SLOTS5);
    let mut values5 = Box::new([[[0u32; SLOTS5]; 2]; 2]);
    for (ranks, &sum) in fives.iter().zip(&sums5) {
        let s = slot(&offsets5, SHIFT5, sum);
        for (w, wheel) in [Wheel::Low, Wheel::Second].into_iter().enumerate() {
            for (suited, plain) in [(0, true), (1, false)] {
                let cards: [Card; 5] = cards_of(ranks, plain).try_into().expect("five cards");
                values5[w][suited][s] = evaluate5_reference(&cards, wheel).0;
            }
        }
    }
    let threes = rank_multisets(3);
    let sums3: Vec<u32> = threes.iter().map(|m| rank_sum(m)).collect();
    let offsets3 = displace::<ROWS3>(&sums3, SHIFT3, SLOTS3);
    let mut values3 = Box::new([0u32; SLOTS3]);
    let mut keys3 = Box::new([0u16; SLOTS3]);
    for (ranks, &sum) in threes.iter().zip(&sums3) {
        let cards: [Card; 3] = cards_of(ranks, true).try_into().expect("three cards");
        let (s, v) = (slot(&offsets3, SHIFT3, sum), evaluate3_reference(&cards));
        values3[s] = v.0;
        keys3[s] = three_key(v) as u16;
    }
    Tables {
        offsets5,
        values5,
        offsets3,
        values3,
        keys3,
    }
}

/// Keys of the 3-card values: 286 high cards, 169 places for a pair and its kicker, 13
/// trips ([`three_key`]).
pub(crate) const THREE_KEYS: usize = 468;

/// `C(n, k)` for small arguments, at compile time.
const fn choose(n: u16, k: u16) -> u16 {
    if k > n {
        return 0;
    }
    let (mut num, mut den, mut i) = (1u32, 1u32, 0u32);
    while i < k as u32 {
        num *= n as u32 - i;
        den *= i + 1;
        i += 1;
    }
    (num / den) as u16
}

/// The colex terms of the set bits of `bits`, rank `lowest + i` for bit `i` of `width`,
/// when `seen` higher ranks came before: the `j`-th rank from the top, `r`, adds
/// `C(r, 3 − j)` (the first three only); and how many ranks that makes.
const fn colex_terms(bits: usize, lowest: u16, width: u16, seen: u16) -> (u16, u16) {
    let (mut sum, mut seen, mut i) = (0u16, seen, width);
    while i > 0 {
        i -= 1;
        if bits >> i & 1 == 1 {
            if seen < 3 {
                sum += choose(lowest + i, 3 - seen);
            }
            seen += 1;
        }
    }
    (sum, seen)
}

/// The colex rank of a 3-rank mask, `C(r1, 3) + C(r2, 2) + C(r3, 1)` for ranks
/// `r1 > r2 > r3`, in two table reads: `COLEX_HIGH[m >> 7]` holds the terms of the ranks 7
/// to 12 and how many there are, `COLEX_LOW[that many][m & 127]` the terms of the rest.
const COLEX_HIGH: [(u16, u16); 64] = {
    let mut t = [(0u16, 0u16); 64];
    let mut m = 0;
    while m < 64 {
        t[m] = colex_terms(m, 7, 6, 0);
        m += 1;
    }
    t
};
const COLEX_LOW: [[u16; 128]; 4] = {
    let mut t = [[0u16; 128]; 4];
    let mut above = 0;
    while above < 4 {
        let mut m = 0;
        while m < 128 {
            t[above][m] = colex_terms(m, 0, 7, above as u16).0;
            m += 1;
        }
        above += 1;
    }
    t
};

/// A 3-card value's place among all 3-card values, in value order, below [`THREE_KEYS`]:
/// a high card by its three ranks' colex rank (the order of their rank masks), a pair by
/// its rank then its kicker's, trips by rank. Any other value gets some key at most
/// [`THREE_KEYS`] (the search's walk of the fronts checks the order it makes).
#[inline]
pub(crate) fn three_key(v: HandValue) -> usize {
    let (cat, p, k) = (v.raw() >> 28, v.primary_mask(), v.kicker_mask());
    let (sum, seen) = COLEX_HIGH[(p >> 7) as usize];
    let high = (sum + COLEX_LOW[(seen & 3) as usize][(p & 127) as usize]) as usize;
    // One rank bit's index (13 for none).
    let rank = |m: u32| (m | 1 << 13).trailing_zeros() as usize;
    let key = match cat {
        0 => high,
        1 => 286 + 13 * rank(p) + rank(k),
        _ => 455 + rank(p),
    };
    key.min(THREE_KEYS)
}

/// Each three's place among the 3-card values ([`three_key`]), read from the evaluation
/// tables beside its value ([`crate::split::HandSplits::three_keys`]): only the tables make
/// them, so the search can take their order as exact without checking it.
#[derive(Clone, Copy, Debug)]
pub struct ThreeKeys<'a>(pub(crate) &'a [u16]);

/// Number of 5-card subsets of a 13-card hand.
pub const FIVES_OF_13: usize = 1287;
/// Number of 3-card subsets of a 13-card hand.
pub const THREES_OF_13: usize = 286;

/// Evaluates every 5-card and 3-card subset of a 13-card hand (RULES.md 3), each subset in
/// one addition and one table read: the keys of the 78 pairs of positions are summed once,
/// and each subset is a pair (its two lowest positions) added to the key of the rest.
///
/// Subsets come in colexicographic order of their positions (`{0,1,2,3,4}`, `{0,1,2,3,5}`,
/// `{0,1,2,4,5}`, ...), which is increasing order of their 13-bit position masks. Duplicate
/// diamonds (extra deck) are fine; values equal [`super::eval::evaluate5`] and
/// [`super::eval::evaluate3`] of each subset.
// Positions index the keys and size the runs at once (an iterator over the keys measured
// about 1,800 instructions a hand more under cachegrind).
#[allow(clippy::needless_range_loop)]
pub fn evaluate_subsets13(
    cards: &[Card; 13],
    wheel: Wheel,
    five: &mut [HandValue; FIVES_OF_13],
    three: &mut [HandValue; THREES_OF_13],
) {
    subsets13(cards, wheel, five, three, None);
}

/// As [`evaluate_subsets13`], also writing each 3-card subset's place among all 3-card
/// values in value order ([`three_key`]), read from a table beside the
/// values: what the search's walk of the fronts sorts by.
pub(crate) fn evaluate_subsets13_keyed(
    cards: &[Card; 13],
    wheel: Wheel,
    five: &mut [HandValue; FIVES_OF_13],
    three: &mut [HandValue; THREES_OF_13],
    keys: &mut [u16; THREES_OF_13],
) {
    subsets13(cards, wheel, five, three, Some(keys));
}

#[allow(clippy::needless_range_loop)]
fn subsets13(
    cards: &[Card; 13],
    wheel: Wheel,
    five: &mut [HandValue; FIVES_OF_13],
    three: &mut [HandValue; THREES_OF_13],
    mut keys: Option<&mut [u16; THREES_OF_13]>,
) {
    let t = tables();
    let plain = &t.values5[wheel as usize][0];
    let k = cards.map(card_key);
    // The pairs of positions in colexicographic order: those below position `c` are the
    // first `c·(c − 1)/2`, in the order of the subsets that hold them with `c` and above.
    let mut pairs = [0u32; 78];
    let mut j = 0;
    for b in 1..13 {
        for a in 0..b {
            pairs[j] = k[a] + k[b];
            j += 1;
        }
    }
    // Each run (a third position `c` and the positions above it fixed) fills the next
    // `c·(c − 1)/2` places: one slice per run, so the loop over it reads and writes
    // unchecked.
    let mut at = 0;
    for e in 4..13 {
        for d in 3..e {
            let kd = k[e] + k[d];
            for c in 2..d {
                let kc = kd + k[c];
                let n = c * (c - 1) / 2;
                let run = &mut five[at..at + n];
                if three_of_a_suit(kc) {
                    for (v, &kp) in run.iter_mut().zip(&pairs[..n]) {
                        *v = t.value5(kc + kp, wheel);
                    }
                } else {
                    // No two more cards make five of one suit: the unsuited table alone.
                    for (v, &kp) in run.iter_mut().zip(&pairs[..n]) {
                        *v = HandValue(plain[slot(&t.offsets5, SHIFT5, kc + kp) & (SLOTS5 - 1)]);
                    }
                }
                at += n;
            }
        }
    }
    let mut at = 0;
    for c in 2..13 {
        let n = c * (c - 1) / 2;
        let run = three[at..at + n].iter_mut().zip(&pairs[..n]);
        match &mut keys {
            None => run.for_each(|(v, &kp)| *v = t.value3(k[c] + kp)),
            Some(keys) => {
                for ((v, &kp), key) in run.zip(&mut keys[at..at + n]) {
                    let s = t.slot3(k[c] + kp);
                    *v = HandValue(t.values3[s]);
                    *key = t.keys3[s];
                }
            }
        }
        at += n;
    }
}

#[cfg(test)]
mod tests {
    use super::super::card::DeckKind;
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    #[test]
    fn rank_sums_are_distinct() {
        // C(13 + 5 - 1, 5) and C(13 + 3 - 1, 3) multisets.
        for (n, count) in [(5, 6_188), (3, 455)] {
            let sums: HashSet<u32> = rank_multisets(n).iter().map(|m| rank_sum(m)).collect();
            assert_eq!(sums.len(), count, "sums of {n}");
        }
    }

    #[test]
    fn suit_fields_detect_five_of_one_suit() {
        // Every split of five cards over the four suits: suited only when one suit holds all.
        for a in 0..=5u32 {
            for b in 0..=5 - a {
                for c in 0..=5 - a - b {
                    let d = 5 - a - b - c;
                    let key = (a << 19) | (b << 22) | (c << 25) | (d << 28) | RANK_MASK;
                    assert_eq!(suited(key), [a, b, c, d].contains(&5), "{a} {b} {c} {d}");
                }
            }
        }
    }

    #[test]
    fn tables_fill_every_multiset_in_its_own_slot() {
        let t = tables();
        let slots5: HashSet<usize> = rank_multisets(5)
            .iter()
            .map(|m| slot(&t.offsets5, SHIFT5, rank_sum(m)))
            .collect();
        assert_eq!(slots5.len(), 6_188);
        assert!(slots5.iter().all(|&s| s < SLOTS5));
        let slots3: HashSet<usize> = rank_multisets(3)
            .iter()
            .map(|m| slot(&t.offsets3, SHIFT3, rank_sum(m)))
            .collect();
        assert_eq!(slots3.len(), 455);
        assert!(slots3.iter().all(|&s| s < SLOTS3));
    }

    /// Each subset evaluated on its own with the straightforward evaluators, positions in
    /// increasing mask order.
    fn one_by_one(cards: &[Card; 13], wheel: Wheel) -> (Vec<HandValue>, Vec<HandValue>) {
        let pick = |mask: u32| -> Vec<Card> {
            (0..13)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| cards[i])
                .collect()
        };
        let masks = |n: u32| (0u32..1 << 13).filter(move |m| m.count_ones() == n);
        let five = masks(5)
            .map(|m| evaluate5_reference(&pick(m).try_into().unwrap(), wheel))
            .collect();
        let three = masks(3)
            .map(|m| evaluate3_reference(&pick(m).try_into().unwrap()))
            .collect();
        (five, three)
    }

    #[test]
    fn subsets_equal_one_by_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
            let mut cards = deck.cards();
            for _ in 0..100 {
                cards.shuffle(&mut rng);
                let hand: [Card; 13] = cards[..13].try_into().unwrap();
                for wheel in [Wheel::Low, Wheel::Second] {
                    let mut five = [HandValue(0); FIVES_OF_13];
                    let mut three = [HandValue(0); THREES_OF_13];
                    evaluate_subsets13(&hand, wheel, &mut five, &mut three);
                    let (want5, want3) = one_by_one(&hand, wheel);
                    assert_eq!(five.to_vec(), want5, "{hand:?} {wheel:?}");
                    assert_eq!(three.to_vec(), want3, "{hand:?}");
                }
            }
        }
    }

    #[test]
    fn keyed_subsets_give_the_same_values_and_each_three_its_place() {
        // The keys read beside the values are the places `three_key` computes from them.
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
            let mut cards = deck.cards();
            for _ in 0..200 {
                cards.shuffle(&mut rng);
                let hand: [Card; 13] = cards[..13].try_into().unwrap();
                let (mut five, mut three) =
                    ([HandValue(0); FIVES_OF_13], [HandValue(0); THREES_OF_13]);
                evaluate_subsets13(&hand, Wheel::Low, &mut five, &mut three);
                let (mut five_k, mut three_k) =
                    ([HandValue(0); FIVES_OF_13], [HandValue(0); THREES_OF_13]);
                let mut keys = [u16::MAX; THREES_OF_13];
                evaluate_subsets13_keyed(&hand, Wheel::Low, &mut five_k, &mut three_k, &mut keys);
                assert_eq!(
                    (five.to_vec(), three.to_vec()),
                    (five_k.to_vec(), three_k.to_vec())
                );
                for (v, &k) in three.iter().zip(&keys) {
                    assert_eq!(k as usize, three_key(*v), "{v:?}");
                }
            }
        }
    }

    #[test]
    fn subsets_of_a_hand_with_every_category() {
        // Straight flush, wheel, flush with a pair (duplicate diamonds), quads, five of a kind.
        let hand: [Card; 13] = crate::cards::parse_cards("Ad Ad As Ah Ac 2d 3d 4d 5d 5d 9s 9h 9c")
            .unwrap()
            .try_into()
            .unwrap();
        for wheel in [Wheel::Low, Wheel::Second] {
            let mut five = [HandValue(0); FIVES_OF_13];
            let mut three = [HandValue(0); THREES_OF_13];
            evaluate_subsets13(&hand, wheel, &mut five, &mut three);
            let (want5, want3) = one_by_one(&hand, wheel);
            assert_eq!(five.to_vec(), want5);
            assert_eq!(three.to_vec(), want3);
            let cats: HashSet<_> = five.iter().map(|v| v.category()).collect();
            assert_eq!(cats.len(), 10, "{cats:?}");
        }
    }
}
