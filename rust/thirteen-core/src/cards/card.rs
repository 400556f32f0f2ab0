//! Cards, ranks, suits and decks (RULES.md 1).

use std::fmt;

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
