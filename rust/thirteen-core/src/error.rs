//! The one error type of the engine; each variant is one documented failure.

use crate::cards::Card;
use crate::given::Given;

/// Which lane of an arrangement.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lane {
    /// 头墩, 3 cards.
    Front = 0,
    /// 中墩, 5 cards.
    Middle = 1,
    /// 尾墩, 5 cards.
    Back = 2,
}

impl Lane {
    /// Front, middle, back.
    pub const ALL: [Lane; 3] = [Lane::Front, Lane::Middle, Lane::Back];

    /// `"front"`, `"middle"` or `"back"`.
    pub fn key(self) -> &'static str {
        ["front", "middle", "back"][self as usize]
    }

    /// Cards in the lane: 3 or 5.
    pub fn size(self) -> usize {
        [3, 5, 5][self as usize]
    }
}

/// Everything that can go wrong in the engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A card token that cannot be read.
    #[error("bad card token {token:?} at position {position}")]
    BadCard {
        /// The token as written.
        token: String,
        /// 0-based index of the token.
        position: usize,
    },
    /// Wrong number of cards (or of lanes).
    #[error(
        "wrong number of cards{}: expected {expected}, got {got}",
        where_(lane, player)
    )]
    WrongCount {
        /// Expected count.
        expected: usize,
        /// Count given.
        got: usize,
        /// The lane, when a lane is short or long.
        lane: Option<Lane>,
        /// The seat, in a table.
        player: Option<usize>,
    },
    /// A hand to solve of neither 13 cards (those kept) nor every card the rules deal (more
    /// than 13).
    #[error(
        "wrong number of cards: expected 13 (the cards kept) or {dealt} (every card dealt), got {got}"
    )]
    DealtCount {
        /// The cards the rules deal.
        dealt: usize,
        /// Count given.
        got: usize,
    },
    /// A card beyond what the deck holds.
    #[error("duplicate card {card}{}", where_(&None, player))]
    DuplicateCard {
        /// The card.
        card: Card,
        /// The seat holding the extra copy, in a table.
        player: Option<usize>,
    },
    /// A card placed in a lane that the hand does not hold (or placed more often than held).
    #[error("placed card {card} is not in the hand (or placed more often than held)")]
    CardNotHeld {
        /// The card.
        card: Card,
    },
    /// A fouled arrangement under `foul = "reject"`.
    #[error("player {player} fouled: the lanes must satisfy front <= middle <= back")]
    Fouled {
        /// The lowest fouled seat.
        player: usize,
    },
    /// A special declared that the cards do not hold or the rules do not recognise.
    #[error("{}", false_special_message(player, special))]
    FalseSpecial {
        /// The seat.
        player: Option<usize>,
        /// The key declared, if any.
        special: Option<String>,
    },
    /// A table size the rules do not allow.
    #[error("{}", player_count_message(got, allowed))]
    BadPlayerCount {
        /// Players given (any integer: negative, or beyond 64 bits, as well).
        got: Given,
        /// Table sizes allowed.
        allowed: Vec<u8>,
    },
    /// A surrender the rules do not allow, or a bad seat.
    #[error("player {player} may not surrender under these rules")]
    SurrenderNotAllowed {
        /// The seat, as given.
        player: i64,
    },
    /// Another bad argument (a banker seat or stake that does not fit the table).
    #[error("{message}")]
    InvalidArgument {
        /// What is wrong.
        message: String,
    },
    /// An argument of the wrong shape or type (a Python ``TypeError``): lane counts that are
    /// not the lists and maps they should be.
    #[error("{message}")]
    WrongType {
        /// What was expected and what was given.
        message: String,
    },
    /// An error in one table of a batch.
    #[error("table {table}: {inner}")]
    InTable {
        /// Index of the table in the batch.
        table: usize,
        /// The table's error.
        inner: Box<Error>,
    },
    /// A number outside the bounds the engine accepts (see [`crate::limits`]).
    #[error("{}", out_of_range_message(key, value, *min, *max))]
    OutOfRange {
        /// The argument or rule key.
        key: String,
        /// The value given, as text (it may not fit in 64 bits).
        value: String,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// A raw integer that is not the value of any hand of that size.
    #[error("{value:#x} is not the value of a {size}-card hand")]
    NotAHandValue {
        /// The integer given.
        value: u32,
        /// The hand size asked for, 3 or 5.
        size: usize,
    },
    /// An invalid rule set (RULES.md 6): `key` is the dotted path of the offending key.
    #[error("rule set key '{key}': {message}")]
    RuleSet {
        /// Dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
}

fn where_(lane: &Option<Lane>, player: &Option<usize>) -> String {
    let mut s = String::new();
    if let Some(p) = player {
        s.push_str(&format!(" for player {p}"));
    }
    if let Some(l) = lane {
        s.push_str(&format!(" in the {} lane", l.key()));
    }
    s
}

fn out_of_range_message(key: &str, value: &str, min: i64, max: i64) -> String {
    if max == i64::MAX {
        format!("{key} must be an integer >= {min}, got {value}")
    } else {
        format!("{key} must be an integer from {min} to {max}, got {value}")
    }
}

fn false_special_message(player: &Option<usize>, special: &Option<String>) -> String {
    let who = player.map_or(String::from("the hand"), |p| format!("player {p}"));
    match special {
        Some(k) => format!("false special declaration: {who} does not hold a recognised {k}"),
        None => format!("false special declaration: {who} holds no recognised special hand"),
    }
}

/// The message of [`Error::BadPlayerCount`] for a table size written as `got` (any integer, so
/// that a caller holding a negative or very large one says the same).
pub fn player_count_message(got: impl std::fmt::Display, allowed: &[u8]) -> String {
    format!("{got} players is not allowed by the rules (allowed: {allowed:?})")
}

/// A locating detail of an error: an attribute of the exception the bindings raise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Not known or not applicable (Python's `None`).
    None,
    /// An integer (a count, a seat, a position, a bound), or one beyond 64 bits as written.
    Int(Given),
    /// Text (a token, a card, a lane, a key, a value as written).
    Text(String),
    /// Integers, as a tuple (the table sizes allowed).
    Ints(Vec<i64>),
}

impl From<i64> for Detail {
    fn from(n: i64) -> Detail {
        Detail::Int(Given::Int(n))
    }
}

impl From<usize> for Detail {
    fn from(n: usize) -> Detail {
        i64::try_from(n).unwrap_or(i64::MAX).into()
    }
}

impl<T: Into<Detail>> From<Option<T>> for Detail {
    fn from(x: Option<T>) -> Detail {
        x.map_or(Detail::None, Into::into)
    }
}

impl From<String> for Detail {
    fn from(text: String) -> Detail {
        Detail::Text(text)
    }
}

impl Error {
    /// Whether this is a [`Error::WrongCount`] of `got` cards where `expected` were wanted,
    /// whatever lane or seat it names (the tests' check of a short or long hand).
    #[cfg(test)]
    pub(crate) fn is_wrong_count(&self, expected: usize, got: usize) -> bool {
        matches!(self, Error::WrongCount { expected: e, got: g, .. } if (*e, *g) == (expected, got))
    }

    /// The error for the argument `name` given as text that is not valid Unicode (a lone
    /// surrogate, which UTF-8 cannot hold), `shown` as the caller writes it (`'ev\ud800'`).
    pub fn not_unicode(name: &str, shown: &str) -> Error {
        Error::InvalidArgument {
            message: format!("{name} is not valid Unicode text (a lone surrogate): {shown}"),
        }
    }

    /// The class of `thirteen.errors` that the bindings (and the reference) raise for this
    /// error (Python's own ``TypeError`` for [`Error::WrongType`]); a batch's error
    /// ([`Error::InTable`]) is its table's.
    pub fn class(&self) -> &'static str {
        match self {
            Error::BadCard { .. } => "CardError",
            Error::WrongCount { .. } | Error::DealtCount { .. } => "CountError",
            Error::DuplicateCard { .. } => "DuplicateCardError",
            Error::CardNotHeld { .. } => "CardNotHeldError",
            Error::Fouled { .. } => "FouledError",
            Error::FalseSpecial { .. } => "FalseSpecialError",
            Error::BadPlayerCount { .. } => "PlayerCountError",
            Error::SurrenderNotAllowed { .. } => "SurrenderError",
            Error::OutOfRange { .. } => "LimitError",
            Error::InvalidArgument { .. } | Error::NotAHandValue { .. } => "ThirteenError",
            Error::WrongType { .. } => "TypeError",
            Error::RuleSet { .. } => "RuleSetError",
            Error::InTable { inner, .. } => inner.class(),
        }
    }

    /// The locating details of [`Error::class`], by attribute name (a batch's error: its
    /// table's); an unbounded maximum is [`Detail::None`].
    pub fn details(&self) -> Vec<(&'static str, Detail)> {
        let card = |c: &Card| Detail::Text(c.to_string());
        match self {
            Error::BadCard { token, position } => {
                vec![
                    ("token", token.clone().into()),
                    ("position", (*position).into()),
                ]
            }
            Error::WrongCount {
                expected,
                got,
                lane,
                player,
            } => vec![
                ("expected", (*expected).into()),
                ("got", (*got).into()),
                ("lane", lane.map(|l| l.key().to_string()).into()),
                ("player", (*player).into()),
            ],
            Error::DealtCount { dealt, got } => {
                vec![("expected", (*dealt).into()), ("got", (*got).into())]
            }
            Error::DuplicateCard { card: c, player } => {
                vec![("card", card(c)), ("player", (*player).into())]
            }
            Error::CardNotHeld { card: c } => vec![("card", card(c))],
            Error::Fouled { player } => vec![("player", (*player).into())],
            Error::FalseSpecial { player, special } => {
                vec![
                    ("player", (*player).into()),
                    ("special", special.clone().into()),
                ]
            }
            Error::BadPlayerCount { got, allowed } => vec![
                ("got", Detail::Int(got.clone())),
                (
                    "allowed",
                    Detail::Ints(allowed.iter().map(|&p| p.into()).collect()),
                ),
            ],
            Error::SurrenderNotAllowed { player } => {
                vec![("player", (*player).into())]
            }
            Error::OutOfRange {
                key,
                value,
                min,
                max,
            } => vec![
                ("key", key.clone().into()),
                ("value", value.clone().into()),
                ("minimum", (*min).into()),
                ("maximum", (*max < i64::MAX).then_some(*max).into()),
            ],
            Error::RuleSet { key, .. } => vec![("key", key.clone().into())],
            Error::InvalidArgument { .. } | Error::NotAHandValue { .. } => Vec::new(),
            Error::WrongType { .. } => Vec::new(),
            Error::InTable { inner, .. } => inner.details(),
        }
    }
}

/// Result with the engine's error.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_its_class_and_locates_itself() {
        let count = Error::WrongCount {
            expected: 5,
            got: 4,
            lane: Some(Lane::Middle),
            player: None,
        };
        assert_eq!(count.class(), "CountError");
        assert_eq!(
            count.details(),
            [
                ("expected", Detail::Int(Given::Int(5))),
                ("got", Detail::Int(Given::Int(4))),
                ("lane", Detail::Text("middle".into())),
                ("player", Detail::None),
            ]
        );
        // A batch's error is its table's, the table named only in the message.
        let batch = Error::InTable {
            table: 7,
            inner: Box::new(count.clone()),
        };
        assert_eq!(
            (batch.class(), batch.details()),
            (count.class(), count.details())
        );
        assert!(batch.to_string().starts_with("table 7: "));
        let huge = Given::Beyond("123456789012345678901234567890".into());
        let players = Error::BadPlayerCount {
            got: huge.clone(),
            allowed: vec![2, 4],
        };
        assert_eq!(players.class(), "PlayerCountError");
        assert_eq!(
            players.details(),
            [
                ("got", Detail::Int(huge)),
                ("allowed", Detail::Ints(vec![2, 4]))
            ]
        );
        assert_eq!(
            players.to_string(),
            "123456789012345678901234567890 players is not allowed by the rules (allowed: [2, 4])"
        );
        let unbounded = crate::limits::Limit::count("seat").error(-1);
        assert_eq!(unbounded.class(), "LimitError");
        assert_eq!(unbounded.details()[3], ("maximum", Detail::None));
    }
}
