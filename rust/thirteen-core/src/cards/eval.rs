//! Evaluation of 3- and 5-card hands (RULES.md 3), by table lookup ([`super::eval_table`]):
//! one addition per card and one read per hand. [`super::reference`] computes the same values
//! straightforwardly from rank masks, fills those tables and serves as the test oracle.

use super::card::{Card, DeckKind, Suit};
use super::eval_table::{card_key, tables};
use super::parse::check_duplicates;
use super::value::{HandValue, Wheel};
use crate::error::{Error, Result};

/// Evaluates five cards (RULES.md 3) by table lookup ([`super::eval_table`]). Duplicates
/// (extra deck) are allowed; the caller checks them against the deck. Equals
/// [`super::reference::evaluate5_reference`] for any five card codes.
#[inline]
pub fn evaluate5(cards: &[Card; 5], wheel: Wheel) -> HandValue {
    let key = cards.iter().fold(0, |key, &c| key + card_key(c));
    tables().value5(key, wheel)
}

/// Evaluates a 3-card front (RULES.md 3): high card, one pair or three of a kind only, by
/// table lookup ([`super::eval_table`]). Equals [`super::reference::evaluate3_reference`] for any three cards.
#[inline]
pub fn evaluate3(cards: &[Card; 3]) -> HandValue {
    let key = cards.iter().fold(0, |key, &c| key + card_key(c));
    tables().value3(key)
}

/// Evaluates a 3- or 5-card hand; `None` for any other size.
pub fn evaluate(cards: &[Card], wheel: Wheel) -> Option<HandValue> {
    match cards.len() {
        3 => Some(evaluate3(cards.try_into().ok()?)),
        5 => Some(evaluate5(cards.try_into().ok()?, wheel)),
        _ => None,
    }
}

/// The value of a 3- or 5-card hand of `deck` (RULES.md 3), checked: no card more often than
/// the deck holds ([`Error::DuplicateCard`]), then the size ([`Error::WrongCount`]).
pub fn evaluate_hand(cards: &[Card], wheel: Wheel, deck: DeckKind) -> Result<HandValue> {
    check_duplicates(cards, deck, |_| None)?;
    evaluate(cards, wheel).ok_or(Error::WrongCount {
        expected: 5,
        got: cards.len(),
        lane: None,
        player: None,
    })
}

/// Evaluates `data.len() / width` hands of `width` (3 or 5) card codes, row after row, into
/// their raw values. Codes must be below 52 ([`Error::BadCard`]), no card may occur in a
/// hand more often than `deck` holds it ([`Error::DuplicateCard`]), and another width, or data
/// that is not whole rows, is an [`Error::WrongCount`].
pub fn evaluate_batch(data: &[u8], width: usize, wheel: Wheel, deck: DeckKind) -> Result<Vec<u32>> {
    if width != 3 && width != 5 {
        return Err(Error::WrongCount {
            expected: 5,
            got: width,
            lane: None,
            player: None,
        });
    }
    if data.len() % width != 0 {
        return Err(Error::WrongCount {
            expected: width,
            got: data.len() % width,
            lane: None,
            player: None,
        });
    }
    // Every code first, in one pass the compiler vectorises (the largest code), so that the
    // loop over the rows has no branch per card.
    if data.iter().copied().max().is_some_and(|code| code >= 52) {
        let position = data.iter().position(|&c| c >= 52).expect("a code over 51");
        return Err(Error::BadCard {
            token: data[position].to_string(),
            position,
        });
    }
    let t = tables();
    if width == 5 {
        rows::<5>(data, deck, |key| t.value5(key, wheel).0)
    } else {
        rows::<3>(data, deck, |key| t.value3(key).0)
    }
}

/// The values of rows of `W` codes, each below 52: a row holding a card more often than
/// `deck` has it is an [`Error::DuplicateCard`].
#[inline(always)]
fn rows<const W: usize>(
    data: &[u8],
    deck: DeckKind,
    value: impl Fn(u32) -> u32,
) -> Result<Vec<u32>> {
    let extra = deck == DeckKind::ExtraDiamonds;
    // Diamonds (suit 0) may appear twice with the extra deck, never three times.
    let allowed = if extra { DIAMOND_BITS } else { 0 };
    let mut out = Vec::with_capacity(data.len() / W);
    for hand in data.chunks_exact(W) {
        let (mut seen, mut twice, mut key) = (0u64, 0u64, 0u32);
        for &code in hand {
            let bit = 1u64 << code;
            twice |= seen & bit;
            seen |= bit;
            key += card_key(Card(code));
        }
        if twice & !allowed != 0 || (extra && twice != 0 && has_triple(hand)) {
            return Err(duplicate(hand, deck));
        }
        out.push(value(key));
    }
    Ok(out)
}

/// The error for a row holding a card more often than `deck` has it: the first such card.
#[cold]
fn duplicate(hand: &[u8], deck: DeckKind) -> Error {
    let mut counts = [0u8; 52];
    let card = hand
        .iter()
        .map(|&c| Card::from_code(c).expect("checked"))
        .find(|c| {
            counts[c.code() as usize] += 1;
            counts[c.code() as usize] > deck.copies(*c)
        })
        .expect("a duplicate was seen");
    Error::DuplicateCard { card, player: None }
}

const DIAMOND_BITS: u64 = 0x1_1111_1111_1111;

fn has_triple(hand: &[u8]) -> bool {
    hand.iter()
        .any(|c| hand.iter().filter(|d| *d == c).count() > 2)
}

/// The suit consulted by `tie_break = "suit"` (RULES.md 3): the best suit among the cards of
/// the first deciding rank.
pub fn tie_suit(cards: &[Card], value: HandValue) -> Suit {
    let high = value.high();
    cards
        .iter()
        .filter(|c| c.rank() == high)
        .map(|c| c.suit())
        .max()
        .expect("the first deciding rank is held")
}

#[cfg(test)]
mod tests {
    use super::super::card::Rank;
    use super::super::parse::parse_cards;
    use super::super::value::Category;
    use super::*;

    fn v(text: &str, wheel: Wheel) -> HandValue {
        evaluate(&parse_cards(text).unwrap(), wheel).unwrap()
    }
    fn lo(text: &str) -> HandValue {
        v(text, Wheel::Low)
    }

    #[test]
    fn categories_and_describe() {
        let cases = [
            ("As Kd 9c 7h 2s", "high card, ace"),
            ("Qs Qd 9c 7h 2s", "one pair, queens"),
            ("Ks Kd 7c 7h 2s", "two pair, kings and sevens"),
            ("5s 5d 5c 7h 2s", "three of a kind, fives"),
            ("6s 7d 8c 9h Ts", "straight, ten high"),
            ("As 2d 3c 4h 5s", "straight, five high"),
            ("As Js 9s 7s 2s", "flush, ace high"),
            ("Ks Kd Kc 7h 7s", "full house, kings over sevens"),
            ("As Ad Ac Ah 2s", "four of a kind, aces"),
            ("9s Ts Js Qs Ks", "straight flush, king high"),
            ("Ad Ad Ac Ah As", "five of a kind, aces"),
            ("6s 6d 6c", "three of a kind, sixes"),
            ("Ad Ad Ac", "three of a kind, aces"),
        ];
        for (text, want) in cases {
            assert_eq!(lo(text).describe(), want, "{text}");
        }
        assert_eq!(
            v("As 2d 3c 4h 5s", Wheel::Second).describe(),
            "straight, ace-to-five"
        );
    }

    #[test]
    fn wheel_both_ways() {
        let wheel = "As 2d 3c 4h 5s";
        let six = "2s 3d 4c 5h 6s";
        let king = "9s Td Jc Qh Ks";
        let broadway = "Ts Jd Qc Kh As";
        assert!(lo(wheel) < lo(six));
        assert_eq!(lo(wheel).high(), Rank::Five);
        let s = |t| v(t, Wheel::Second);
        assert!(s(wheel) > s(king) && s(wheel) < s(broadway) && s(wheel) > s(six));
        assert_eq!(s(wheel).high(), Rank::Ace);
        assert_eq!(lo("Ks As 2d 3c 4h").category(), Category::HighCard);
    }

    #[test]
    fn kickers_and_cross_size() {
        assert!(lo("5h 5s Kh 9c 8h") > lo("5d 5c Qs 9d 7s"));
        assert!(lo("6s 6h 3s 3h As") < lo("7h 7s 2h 2s Ac"));
        assert!(lo("Ah Ad Kc") > lo("As Ac Qd 3c 2d"));
        assert!(lo("Ah Ad Kc") < lo("As Ac Kd 3c 2d"));
        assert!(lo("Qh Qd 3c") < lo("9s Tc Jd Qs Kh"));
        assert!(lo("Ah Ad Ac") > lo("2s 2h 2d 5c 7c"));
        assert!(lo("Qh 8d 3s") < lo("Ac Kd 9h 6s 2c"));
        assert!(lo("Ac Kd 2h") < lo("As Kc 3d 2s 4h"));
    }

    #[test]
    fn batch_equals_one_by_one_and_names_errors() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
            let mut cards = deck.cards();
            for (width, wheel) in [(5, Wheel::Low), (5, Wheel::Second), (3, Wheel::Low)] {
                let mut data = Vec::new();
                for _ in 0..2_000 {
                    cards.shuffle(&mut rng);
                    data.extend(cards[..width].iter().map(|c| c.code()));
                }
                let got = evaluate_batch(&data, width, wheel, deck).unwrap();
                let want: Vec<u32> = data
                    .chunks_exact(width)
                    .map(|h| {
                        let hand: Vec<Card> = h.iter().map(|&c| Card(c)).collect();
                        evaluate(&hand, wheel).unwrap().0
                    })
                    .collect();
                assert_eq!(got, want, "{deck:?} {width} {wheel:?}");
            }
        }
        let batch =
            |data: &[u8], width| evaluate_batch(data, width, Wheel::Low, DeckKind::Standard);
        assert!(matches!(
            batch(&[0, 1, 2, 3, 4, 5, 6, 7], 4),
            Err(Error::WrongCount {
                expected: 5,
                got: 4,
                ..
            })
        ));
        assert!(matches!(
            batch(&[0, 1, 2, 3, 4, 5, 6, 7, 52], 3),
            Err(Error::BadCard { position: 8, .. })
        ));
        // Every code is checked before any row: a code over 51 is named even after a row
        // holding a card twice.
        assert!(matches!(
            batch(&[0, 0, 1, 60, 2, 3], 3),
            Err(Error::BadCard { position: 3, .. })
        ));
        match batch(&[0, 1, 2, 8, 9, 8], 3) {
            Err(Error::DuplicateCard { card, .. }) => assert_eq!(card.to_string(), "4d"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn extra_deck_flush_with_pairs() {
        let fp = lo("Ad Ad Kd Kd 4d");
        assert_eq!(fp.category(), Category::Flush);
        assert_eq!(
            fp.ranks(),
            vec![Rank::Ace, Rank::Ace, Rank::King, Rank::King, Rank::Four]
        );
        assert!(fp > lo("Ah Kh Qh Jh 9h"));
        assert!(fp < lo("Ks Kd Kc 7h 7s"));
        assert_eq!(lo("Ad Ad Ac Ah Kd").category(), Category::FourOfAKind);
    }
}
