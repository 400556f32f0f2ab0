//! The strict card parser and the checks of a hand's cards (RULES.md 1).

use super::card::{Card, DeckKind, Rank, Suit};
use crate::error::{Error, Result};
use crate::given::Given;

impl TryFrom<String> for Card {
    type Error = Error;
    fn try_from(text: String) -> Result<Card> {
        Card::parse_token(&text, 0)
    }
}

impl Card {
    /// Parses one token (`As`, `10h`, `a♠`); `position` is used in the error.
    pub fn parse_token(token: &str, position: usize) -> Result<Card> {
        let bad = || Error::BadCard {
            token: token.to_string(),
            position,
        };
        let mut chars = token.chars();
        let first = chars.next().ok_or_else(bad)?;
        let rest = chars.as_str();
        let (rank, rest) = if first == '1' {
            match rest.strip_prefix('0') {
                Some(r) => (Rank::Ten, r),
                None => return Err(bad()),
            }
        } else {
            (Rank::from_char(first).ok_or_else(bad)?, rest)
        };
        let mut rest = rest.chars();
        let suit = rest.next().and_then(Suit::from_char).ok_or_else(bad)?;
        if rest.next().is_some() {
            return Err(bad());
        }
        Ok(Card::new(rank, suit))
    }
}

impl std::str::FromStr for Card {
    type Err = Error;
    fn from_str(s: &str) -> Result<Card> {
        Card::parse_token(s, 0)
    }
}

/// Parses a list of cards separated by any run of whitespace and commas (`,` or the
/// full-width `，`) (RULES.md 1).
///
/// Errors: [`Error::BadCard`] naming the first bad token and its 0-based position.
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '，')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| Card::parse_token(t, i))
        .collect()
}

/// Formats cards as `As Kd Tc`, or with glyphs `A♠ K♦ T♣`.
pub fn format_cards(cards: &[Card], glyphs: bool) -> String {
    let parts: Vec<String> = cards
        .iter()
        .map(|c| if glyphs { c.glyph() } else { c.to_string() })
        .collect();
    parts.join(" ")
}

/// Checks that no card occurs more often than `deck` holds it; the cards are scanned in
/// order and the first one whose occurrence exceeds the deck is reported.
pub fn check_duplicates<'a>(
    cards: impl IntoIterator<Item = &'a Card>,
    deck: DeckKind,
    mut player_of: impl FnMut(usize) -> Option<usize>,
) -> Result<()> {
    let mut counts = [0u8; 52];
    for (i, &card) in cards.into_iter().enumerate() {
        let n = &mut counts[card.code() as usize];
        *n += 1;
        if *n > deck.copies(card) {
            return Err(Error::DuplicateCard {
                card,
                player: player_of(i),
            });
        }
    }
    Ok(())
}

/// Checks a hand of `size` cards: the count, then duplicates (RULES.md 1).
pub fn validate_hand(cards: &[Card], deck: DeckKind, size: usize) -> Result<()> {
    if cards.len() != size {
        return Err(Error::WrongCount {
            expected: size,
            got: cards.len(),
            lane: None,
            player: None,
        });
    }
    check_duplicates(cards, deck, |_| None)
}

/// The cards a player keeps and plays (RULES.md 1): 13, however many are dealt.
pub const HAND_SIZE: usize = 13;

/// A player's 13 cards (RULES.md 1): [`validate_hand`] of [`HAND_SIZE`], as an array.
pub fn hand13(cards: &[Card], deck: DeckKind) -> Result<[Card; HAND_SIZE]> {
    validate_hand(cards, deck, HAND_SIZE)?;
    Ok(cards.try_into().expect("13 cards checked"))
}

impl Card {
    /// The card with the code `given` (any integer); [`Error::BadCard`] naming it
    /// unless it is 0 to 51.
    pub fn from_given(given: &Given) -> Result<Card> {
        let code = match given {
            Given::Int(v) => u8::try_from(*v).ok(),
            Given::Beyond(_) => None,
        };
        code.and_then(Card::from_code)
            .ok_or_else(|| Error::BadCard {
                token: given.to_string(),
                position: 0,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_spelling() {
        let a = parse_cards("As Kd 10c").unwrap();
        let b = parse_cards("AS,KD,TC").unwrap();
        let c = parse_cards("a♠ k♦ t♣").unwrap();
        let d = parse_cards(" , a♤,, K♢\tt♧ ").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        assert_eq!(format_cards(&a, false), "As Kd Tc");
        assert_eq!(format_cards(&a, true), "A♠ K♦ T♣");
        assert_eq!(parse_cards("").unwrap(), vec![]);
    }

    #[test]
    fn rejects_bad_tokens_with_position() {
        for (text, token, pos) in [
            ("As Kx", "Kx", 1),
            ("As Ahh", "Ahh", 1),
            ("1h", "1h", 0),
            ("As Kd 11c", "11c", 2),
            ("A", "A", 0),
            ("As Kd Tc 100s", "100s", 3),
            ("Xs", "Xs", 0),
        ] {
            match parse_cards(text) {
                Err(Error::BadCard { token: t, position }) => {
                    assert_eq!((t.as_str(), position), (token, pos), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn codes_and_order() {
        let c = Card::new(Rank::Ace, Suit::Spades);
        assert_eq!(c.code(), 51);
        assert_eq!(Card::new(Rank::Two, Suit::Diamonds).code(), 0);
        assert!(Suit::Spades > Suit::Hearts && Suit::Hearts > Suit::Clubs);
        assert!(Suit::Clubs > Suit::Diamonds);
        assert_eq!(DeckKind::Standard.cards().len(), 52);
        assert_eq!(DeckKind::ExtraDiamonds.cards().len(), 65);
    }

    #[test]
    fn duplicates_named_first_offender() {
        let cards = parse_cards("8d 9c 10h Qs Kd 8c 9h As Ad 10c 10h Ks Qd").unwrap();
        match validate_hand(&cards, DeckKind::Standard, 13) {
            Err(Error::DuplicateCard { card, .. }) => assert_eq!(card.to_string(), "Th"),
            other => panic!("{other:?}"),
        }
        let two = parse_cards("Ad Ad Kc").unwrap();
        assert!(validate_hand(&two, DeckKind::ExtraDiamonds, 3).is_ok());
        assert!(validate_hand(&two, DeckKind::Standard, 3).is_err());
        let three = parse_cards("Ad Ad Ad").unwrap();
        assert!(validate_hand(&three, DeckKind::ExtraDiamonds, 3).is_err());
        let hearts = parse_cards("Ah Ah Kc").unwrap();
        assert!(validate_hand(&hearts, DeckKind::ExtraDiamonds, 3).is_err());
    }
}
