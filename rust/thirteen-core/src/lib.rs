//! `thirteen-core`: the engine of the card game Thirteen (十三水 / 十三张, Chinese Poker).
//!
//! Cards ([`card`]), hand values and lane comparison ([`eval`]), arrangements and fouls
//! ([`arrange`]), rule sets ([`rules`]), special hands ([`special`]), settlement
//! ([`score`]), money ([`money`]) and the numeric bounds that keep all of it exact ([`limits`]).
//! The rules are those of the project's RULES.md; section numbers in the docs refer to it.

pub mod arrange;
pub mod card;
pub mod deal;
pub mod error;
pub mod eval;
pub mod eval_table;
mod falling;
pub mod lanes;
pub mod limits;
pub mod model;
pub mod money;
pub mod removal;
pub mod round;
pub mod rules;
mod runs;
pub mod score;
pub mod search;
pub mod solve;
pub mod special;
pub mod split;
pub mod train;
pub mod valid_values;

pub use arrange::{compare_lanes, is_foul, Arrangement};
pub use card::{format_cards, parse_cards, Card, DeckKind, Rank, Suit};
pub use error::{Error, Lane, Result};
pub use eval::{evaluate, evaluate3, evaluate5, Category, HandValue, Wheel};
pub use rules::{Rules, TieBreak};
