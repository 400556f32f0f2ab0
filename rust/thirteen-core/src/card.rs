//! Cards, ranks, suits, decks and the strict card parser (RULES.md 1).

use std::fmt;

use crate::error::{Error, Result};

/// A rank, `Two` (2) to `Ace` (14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks, low to high.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = two, 12 = ace).
    #[inline]
    pub fn from_index(i: u8) -> Rank {
        Rank::ALL[i as usize]
    }

    /// Index 0 (two) to 12 (ace).
    #[inline]
    pub fn index(self) -> u8 {
        self as u8 - 2
    }

    /// The rank's character: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn char(self) -> char {
        b"23456789TJQKA"[self.index() as usize] as char
    }

    /// English name, singular ("ace").
    pub fn name(self) -> &'static str {
        [
            "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
            "queen", "king", "ace",
        ][self.index() as usize]
    }

    /// English name, plural ("aces", "sixes").
    pub fn plural(self) -> &'static str {
        [
            "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces",
        ][self.index() as usize]
    }

    /// Parses one rank character (`T` or `t` for ten; `10` is handled by the card parser).
    pub fn from_char(c: char) -> Option<Rank> {
        let i = match c.to_ascii_uppercase() {
            '2'..='9' => c as u8 - b'2',
            'T' => 8,
            'J' => 9,
            'Q' => 10,
            'K' => 11,
            'A' => 12,
            _ => return None,
        };
        Some(Rank::from_index(i))
    }
}

/// A suit. The discriminants follow the tie-break order of RULES.md 3: ♠ > ♥ > ♣ > ♦.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Diamonds = 0,
    Clubs = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    /// All suits, lowest (diamonds) first.
    pub const ALL: [Suit; 4] = [Suit::Diamonds, Suit::Clubs, Suit::Hearts, Suit::Spades];

    /// `d`, `c`, `h` or `s`.
    pub fn char(self) -> char {
        b"dchs"[self as usize] as char
    }

    /// `♦`, `♣`, `♥` or `♠`.
    pub fn glyph(self) -> char {
        ['♦', '♣', '♥', '♠'][self as usize]
    }

    /// Whether the suit is red (♥ ♦).
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// Parses a suit letter (any case) or glyph (black or white).
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c {
            's' | 'S' | '♠' | '♤' => Suit::Spades,
            'h' | 'H' | '♥' | '♡' => Suit::Hearts,
            'c' | 'C' | '♣' | '♧' => Suit::Clubs,
            'd' | 'D' | '♦' | '♢' => Suit::Diamonds,
            _ => return None,
        })
    }
}

/// A card: `code = rank_index * 4 + suit` (0..52). The two copies of a diamond in the
/// extra-diamonds deck are the same card. Serialised as its text (`"As"`).
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(into = "String", try_from = "String")]
pub struct Card(pub(crate) u8);

impl From<Card> for String {
    fn from(card: Card) -> String {
        card.to_string()
    }
}

impl TryFrom<String> for Card {
    type Error = Error;
    fn try_from(text: String) -> Result<Card> {
        Card::parse_token(&text, 0)
    }
}

impl Card {
    /// Builds a card from its rank and suit.
    #[inline]
    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank.index() * 4 + suit as u8)
    }

    /// The card with this code, or `None` when `code >= 52`.
    #[inline]
    pub fn from_code(code: u8) -> Option<Card> {
        (code < 52).then_some(Card(code))
    }

    /// The code, `rank_index * 4 + suit`.
    #[inline]
    pub fn code(self) -> u8 {
        self.0
    }

    /// The rank.
    #[inline]
    pub fn rank(self) -> Rank {
        Rank::from_index(self.0 >> 2)
    }

    /// The rank index, 0 (two) to 12 (ace).
    #[inline]
    pub fn rank_index(self) -> u8 {
        self.0 >> 2
    }

    /// The suit.
    #[inline]
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 & 3) as usize]
    }

    /// Text with a suit glyph, e.g. `A♠`.
    pub fn glyph(self) -> String {
        format!("{}{}", self.rank().char(), self.suit().glyph())
    }

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

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().char(), self.suit().char())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
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

/// The deck a rule set plays with (RULES.md 1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum DeckKind {
    /// 52 cards.
    #[default]
    Standard,
    /// 52 cards plus a second set of the 13 diamonds (kaixin 多三张), 65 cards.
    ExtraDiamonds,
}

impl DeckKind {
    /// How many copies of `card` the deck holds.
    #[inline]
    pub fn copies(self, card: Card) -> u8 {
        match self {
            DeckKind::ExtraDiamonds if card.suit() == Suit::Diamonds => 2,
            _ => 1,
        }
    }

    /// Number of cards in the deck.
    pub fn size(self) -> usize {
        match self {
            DeckKind::Standard => 52,
            DeckKind::ExtraDiamonds => 65,
        }
    }

    /// The deck's cards in code order, the extra diamonds appended in rank order.
    pub fn cards(self) -> Vec<Card> {
        let mut out: Vec<Card> = (0..52).map(Card).collect();
        if self == DeckKind::ExtraDiamonds {
            out.extend(Rank::ALL.iter().map(|&r| Card::new(r, Suit::Diamonds)));
        }
        out
    }
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
