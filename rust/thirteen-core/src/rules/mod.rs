//! The rules the engine plays by (RULES.md 5 and 6), built once from a rule-set file and passed
//! by reference to every call after that.
//!
//! [`schema`] is the one declaration of the rule-set keys and the values they allow; it reads
//! and checks a file. [`Rules`] is what the engine reads, one named type per rule, each with
//! the method that says what it pays, called by the settlement ([`crate::score`]) and by the
//! `ev` model ([`crate::strategy::model`]) alike:
//!
//! | rule (RULES.md 5) | type | file |
//! | --- | --- | --- |
//! | surrender (step 1) | [`Surrender`] | `surrender.rs` |
//! | specials (step 2, section 4) | [`Special`], [`Specials`] | `special.rs` |
//! | majority bonus (step 5) | [`Majority`] | `bonus.rs` |
//! | scoop, 打枪 (step 6) | [`Scoop`] | `bonus.rs` |
//! | home run, 全垒打 (step 7) | [`HomeRun`] | `bonus.rs` |
//! | horse card, 马牌 (step 8) | [`HorseCard`] | `horse.rs` |
//! | banker stakes (step 9) | [`BankerStake`] | `stakes.rs` |
//! | escape, 逃跑 | [`Escape`] | `escape.rs` |

mod bonus;
mod choices;
mod escape;
mod horse;
mod names;
pub mod schema;
mod set;
mod special;
mod stakes;
mod surrender;

pub use bonus::{BonusKind, HomeRun, Majority, Scoop};
pub use choices::{FoulPolicy, Mode, TieBreak};
pub use escape::{Escape, EscapeTo};
pub use horse::HorseCard;
pub use schema::RuleFile;
pub use set::{special_index, special_keys, Rules};
pub use special::{Special, Specials};
pub use stakes::BankerStake;
pub use surrender::Surrender;

#[cfg(test)]
mod tests;
