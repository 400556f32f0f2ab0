//! Exhaustive golden checks of hand values (RULES.md 3): every 5-card and 3-card hand of the
//! standard deck, the category counts, the number of distinct values, and a pinned hash of the
//! full sorted order per wheel rule (the same hash the Python tests compute from the reference).

use std::collections::BTreeMap;

use thirteen_core::{evaluate3, evaluate5, Card, Category, HandValue, Wheel};
use thirteen_core::{evaluate3_reference, evaluate5_reference};

/// FNV-1a, 64 bits, of the ordered class list: one line per distinct value, low to high,
/// `category_key:ranks` (rank characters of the deciding ranks), lines joined by `\n`.
fn order_hash(values: &BTreeMap<HandValue, u64>) -> u64 {
    let text: Vec<String> = values
        .keys()
        .map(|v| {
            let ranks: String = v.ranks().iter().map(|r| r.char()).collect();
            format!("{}:{}", v.category().key(), ranks)
        })
        .collect();
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text.join("\n").bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn all5(wheel: Wheel) -> BTreeMap<HandValue, u64> {
    let mut values = BTreeMap::new();
    let cards: Vec<Card> = (0..52).map(|c| Card::from_code(c).unwrap()).collect();
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let v =
                            evaluate5(&[cards[a], cards[b], cards[c], cards[d], cards[e]], wheel);
                        *values.entry(v).or_insert(0) += 1;
                    }
                }
            }
        }
    }
    values
}

fn by_category(values: &BTreeMap<HandValue, u64>) -> BTreeMap<Category, u64> {
    let mut out = BTreeMap::new();
    for (v, n) in values {
        *out.entry(v.category()).or_insert(0) += n;
    }
    out
}

#[test]
fn five_card_counts_both_wheels() {
    use Category::*;
    let expected = [
        (HighCard, 1_302_540),
        (OnePair, 1_098_240),
        (TwoPair, 123_552),
        (ThreeOfAKind, 54_912),
        (Straight, 10_200),
        (Flush, 5_108),
        (FullHouse, 3_744),
        (FourOfAKind, 624),
        (StraightFlush, 40),
    ];
    let mut hashes = vec![];
    for wheel in [Wheel::Low, Wheel::Second] {
        let values = all5(wheel);
        assert_eq!(values.values().sum::<u64>(), 2_598_960);
        assert_eq!(values.len(), 7_462);
        let cats = by_category(&values);
        for (cat, n) in expected {
            assert_eq!(cats[&cat], n, "{cat:?} with {wheel:?}");
        }
        hashes.push(order_hash(&values));
    }
    assert_eq!(hashes, vec![PINNED_LOW, PINNED_SECOND]);
}

/// Pinned order hashes (also asserted from Python against the reference implementation).
const PINNED_LOW: u64 = 7448376318417819500;
const PINNED_SECOND: u64 = 7550857926424327128;

#[test]
fn three_card_counts() {
    let mut values = BTreeMap::new();
    let cards: Vec<Card> = (0..52).map(|c| Card::from_code(c).unwrap()).collect();
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                *values
                    .entry(evaluate3(&[cards[a], cards[b], cards[c]]))
                    .or_insert(0u64) += 1;
            }
        }
    }
    assert_eq!(values.values().sum::<u64>(), 22_100);
    assert_eq!(values.len(), 455);
    let cats = by_category(&values);
    assert_eq!(cats[&Category::ThreeOfAKind], 52);
    assert_eq!(cats[&Category::OnePair], 3_744);
    assert_eq!(cats[&Category::HighCard], 18_304);
    assert_eq!(order_hash(&values), PINNED_FRONT);
}

const PINNED_FRONT: u64 = 15526665797178753423;

/// Calls `f` with every multiset of `N` card codes (codes non-decreasing), i.e. every hand a
/// caller can pass, valid or not: order does not matter to either evaluator.
fn each_code_multiset<const N: usize>(mut f: impl FnMut(&[Card; N])) {
    fn rec<const N: usize>(
        from: u8,
        depth: usize,
        hand: &mut [Card; N],
        f: &mut impl FnMut(&[Card; N]),
    ) {
        if depth == N {
            f(hand);
            return;
        }
        for code in from..52 {
            hand[depth] = Card::from_code(code).unwrap();
            rec(code, depth + 1, hand, f);
        }
    }
    let mut hand = [Card::from_code(0).unwrap(); N];
    rec(0, 0, &mut hand, &mut f);
}

/// Copies of the most repeated card and whether the repeated cards are all diamonds.
fn repeats(hand: &[Card]) -> (usize, bool) {
    let mut most = 1;
    let mut diamonds_only = true;
    for (i, c) in hand.iter().enumerate() {
        let n = hand.iter().filter(|d| *d == c).count();
        most = most.max(n);
        if n > 1 && (i == 0 || hand[i - 1] != *c) {
            diamonds_only &= c.suit() == thirteen_core::Suit::Diamonds;
        }
    }
    (most, diamonds_only)
}

#[test]
fn table_evaluator_equals_reference_on_every_five() {
    for wheel in [Wheel::Low, Wheel::Second] {
        let (mut all, mut standard, mut extra) = (0u64, 0u64, 0u64);
        each_code_multiset::<5>(|hand| {
            let got = evaluate5(hand, wheel);
            let want = evaluate5_reference(hand, wheel);
            assert_eq!(got, want, "{hand:?} {wheel:?}");
            all += 1;
            match repeats(hand) {
                (1, _) => standard += 1,
                (2, true) => extra += 1,
                _ => {}
            }
        });
        // C(52 + 4, 5) multisets; C(52, 5) standard hands; the extra deck adds the hands with
        // one doubled diamond, 13 × C(51, 3), or two, C(13, 2) × 50.
        assert_eq!(all, 3_819_816);
        assert_eq!(standard, 2_598_960);
        assert_eq!(extra, 13 * 20_825 + 78 * 50);
    }
}

#[test]
fn table_evaluator_equals_reference_on_every_three() {
    let mut all = 0;
    each_code_multiset::<3>(|hand| {
        assert_eq!(evaluate3(hand), evaluate3_reference(hand), "{hand:?}");
        all += 1;
    });
    assert_eq!(all, 24_804); // C(52 + 2, 3)
}
