//! Every value a 3- or 5-card hand can have, to check raw integers that come from outside the
//! engine (a caller rebuilding a [`HandValue`] from `evaluate_batch` output) before anything
//! decodes them.
//!
//! A hand's value depends only on its multiset of ranks, on whether all its cards share a suit
//! and on the wheel rule, so the set is built from rank multisets: each once with mixed suits
//! and, where one suit can hold it (each rank at most twice, the extra diamonds), once suited;
//! under both wheel rules. That is 7,464 five-card values on the standard deck (7,462 per wheel
//! rule, the wheel straight and straight flush differing), plus those of the extra-diamonds
//! deck, and 455 three-card values.

use std::sync::OnceLock;

use super::card::{Card, Rank, Suit};
use super::eval::{evaluate3, evaluate5};
use super::value::{HandValue, Wheel};
use crate::error::{Error, Result};
use crate::given::Given;
use crate::limits::{HAND_VALUE, SIZE};

/// The rank multisets of `size` cards with no rank more than `most` times, as rank indices
/// low to high.
fn rank_multisets(size: usize, most: usize) -> Vec<Vec<u8>> {
    fn extend(start: u8, left: usize, most: usize, current: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(current.clone());
            return;
        }
        for r in start..13 {
            let held = current.iter().filter(|&&x| x == r).count();
            if held < most {
                current.push(r);
                extend(r, left - 1, most, current, out);
                current.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(0, size, most, &mut Vec::with_capacity(size), &mut out);
    out
}

/// Cards of the ranks with suits cycling diamonds, clubs, hearts, spades along the sorted
/// ranks: repeated ranks get distinct suits (a fifth copy is the extra diamond), and five
/// cards never share one suit.
fn mixed(ranks: &[u8]) -> Vec<Card> {
    ranks
        .iter()
        .enumerate()
        .map(|(i, &r)| Card::new(Rank::from_index(r), Suit::ALL[i % 4]))
        .collect()
}

fn suited(ranks: &[u8]) -> Vec<Card> {
    ranks
        .iter()
        .map(|&r| Card::new(Rank::from_index(r), Suit::Diamonds))
        .collect()
}

/// How often the most repeated rank occurs.
fn most_repeated(ranks: &[u8]) -> usize {
    ranks
        .iter()
        .map(|r| ranks.iter().filter(|&x| x == r).count())
        .max()
        .unwrap_or(0)
}

/// The values of five cards from the standard deck (each rank at most four times, a suit
/// holding a rank once) or the extra-diamonds deck (five times, diamonds twice).
fn five_card_values(extra_deck: bool, wheels: &[Wheel]) -> Vec<u32> {
    let (most, most_suited) = if extra_deck { (5, 2) } else { (4, 1) };
    let mut out = Vec::new();
    for ranks in rank_multisets(5, most) {
        let mut hands = vec![mixed(&ranks)];
        if most_repeated(&ranks) <= most_suited {
            hands.push(suited(&ranks));
        }
        for hand in hands {
            let hand: [Card; 5] = hand.try_into().expect("five cards");
            for &wheel in wheels {
                out.push(evaluate5(&hand, wheel).raw());
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn three_card_values() -> Vec<u32> {
    let mut out: Vec<u32> = rank_multisets(3, 3)
        .iter()
        .map(|ranks| evaluate3(&mixed(ranks).try_into().expect("three cards")).raw())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn values_of(size: usize) -> &'static [u32] {
    static FIVE: OnceLock<Vec<u32>> = OnceLock::new();
    static THREE: OnceLock<Vec<u32>> = OnceLock::new();
    if size == 3 {
        THREE.get_or_init(three_card_values)
    } else {
        FIVE.get_or_init(|| {
            let both = [Wheel::Low, Wheel::Second];
            let mut all = five_card_values(true, &both);
            all.extend(five_card_values(false, &both));
            all.sort_unstable();
            all.dedup();
            all
        })
    }
}

impl HandValue {
    /// [`HandValue::from_raw`] of integers as a caller gave them: `raw` within
    /// [`HAND_VALUE`], `size` from 0 ([`Error::OutOfRange`] otherwise). Returns the value
    /// and its size.
    pub fn from_given(raw: &Given, size: &Given) -> Result<(HandValue, usize)> {
        let raw = HAND_VALUE.given(raw)? as u32;
        let size = SIZE.given_index(size)?;
        Ok((HandValue::from_raw(raw, size)?, size))
    }

    /// The value `raw` of a `size`-card hand (3 or 5), checked to be the value of some hand
    /// under some rule set ([`Error::NotAHandValue`] otherwise); only checked values are safe
    /// to decode ([`HandValue::ranks`], [`HandValue::describe`]).
    pub fn from_raw(raw: u32, size: usize) -> Result<HandValue> {
        let known = (size == 3 || size == 5) && values_of(size).binary_search(&raw).is_ok();
        if known {
            Ok(HandValue(raw))
        } else {
            Err(Error::NotAHandValue { value: raw, size })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::value::Category;
    use super::*;

    #[test]
    fn as_many_values_as_hand_classes() {
        // 7,462 distinct 5-card classes per wheel rule; the two rules differ only in the
        // wheel straight and the wheel straight flush. 455 = C(15, 3) rank multisets of three
        // cards with at most three of a rank.
        assert_eq!(five_card_values(false, &[Wheel::Low]).len(), 7_462);
        assert_eq!(five_card_values(false, &[Wheel::Second]).len(), 7_462);
        assert_eq!(
            five_card_values(false, &[Wheel::Low, Wheel::Second]).len(),
            7_464
        );
        assert_eq!(three_card_values().len(), 455);
    }

    #[test]
    fn every_dealt_hand_value_is_accepted() {
        let cards: Vec<Card> = (0..52).map(|c| Card::from_code(c).unwrap()).collect();
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let v = evaluate3(&[cards[a], cards[b], cards[c]]);
                    assert_eq!(HandValue::from_raw(v.raw(), 3), Ok(v));
                    for d in (c + 1..52).step_by(7) {
                        for e in (d + 1..52).step_by(5) {
                            let hand = [cards[a], cards[b], cards[c], cards[d], cards[e]];
                            for wheel in [Wheel::Low, Wheel::Second] {
                                let v = evaluate5(&hand, wheel);
                                assert_eq!(HandValue::from_raw(v.raw(), 5), Ok(v));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn accepted_values_decode() {
        for size in [3, 5] {
            for &raw in values_of(size) {
                let v = HandValue::from_raw(raw, size).unwrap();
                assert_eq!(v.ranks()[0], v.high());
                assert!(v.describe().starts_with(v.category().name()));
            }
        }
    }

    #[test]
    fn extra_deck_hands_are_accepted() {
        let card = |r: u8, s: Suit| Card::new(Rank::from_index(r), s);
        let d = |r: u8| card(r, Suit::Diamonds);
        // Five aces (four suits and the extra diamond), and a diamond flush holding a pair.
        let (c, h, s) = (Suit::Clubs, Suit::Hearts, Suit::Spades);
        let five = evaluate5(
            &[d(12), d(12), card(12, c), card(12, h), card(12, s)],
            Wheel::Low,
        );
        assert_eq!(five.category(), Category::FiveOfAKind);
        assert!(HandValue::from_raw(five.raw(), 5).is_ok());
        let flush_pair = evaluate5(&[d(3), d(3), d(7), d(9), d(11)], Wheel::Low);
        assert_eq!(flush_pair.category(), Category::Flush);
        assert!(HandValue::from_raw(flush_pair.raw(), 5).is_ok());
    }

    #[test]
    fn other_integers_are_refused() {
        for raw in [0, 1, 5 << 28, 10 << 28, u32::MAX, (1 << 28) | 1] {
            assert_eq!(
                HandValue::from_raw(raw, 5),
                Err(Error::NotAHandValue {
                    value: raw,
                    size: 5
                })
            );
        }
        let pair_front = evaluate3(&mixed(&[4, 4, 9]).try_into().unwrap());
        assert!(HandValue::from_raw(pair_front.raw(), 5).is_err());
        assert!(HandValue::from_raw(pair_front.raw(), 4).is_err());
    }
}
