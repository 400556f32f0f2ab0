//! Cards and hand values (RULES.md 1 and 3): cards, ranks, suits and decks, the strict
//! parser, hand values as one integer, their evaluation by table lookup and the
//! straightforward evaluators that fill and check the tables.

mod card;
mod eval;
mod eval_table;
mod parse;
mod reference;
mod valid_values;
mod value;

pub use card::{Card, DeckKind, Rank, Suit};
pub use eval::{evaluate, evaluate3, evaluate5, evaluate_batch, evaluate_hand, tie_suit};
pub use eval_table::{evaluate_subsets13, ThreeKeys, FIVES_OF_13, THREES_OF_13};
pub(crate) use eval_table::{evaluate_subsets13_keyed, three_key, THREE_KEYS};
pub use parse::{check_duplicates, format_cards, hand13, parse_cards, validate_hand, HAND_SIZE};
pub use reference::{evaluate3_reference, evaluate5_reference};
pub(crate) use value::PRIMARY_SHIFT;
pub use value::{Category, HandValue, Wheel};
