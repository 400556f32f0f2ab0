//! The rule set's plain choices: the suit tie-break, who is compared with whom, and what a
//! foul does (RULES.md 3, 5, 6).

use serde::{Deserialize, Serialize};

/// Suit tie-break rule for rank-equal lanes (RULES.md 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Rank-equal lanes draw (强碰).
    #[default]
    None,
    /// One suit decides (bianfeng).
    Suit,
}

/// Who is compared with whom (RULES.md 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every player against every other.
    #[default]
    AllPairs,
    /// Each player against the banker (庄家) only.
    Banker,
}

/// What happens to a fouled arrangement (相公 / 倒水).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoulPolicy {
    /// Refused at submission.
    #[default]
    Reject,
    /// Loses all three lanes.
    LoseAll,
}
