//! `thirteen-core`: the engine of the card game Thirteen (十三水 / 十三张, Chinese Poker).
//!
//! Cards and hand values ([`Card`], [`HandValue`], [`evaluate`]), arrangements and fouls
//! ([`Arrangement`], [`is_foul`]), rule sets ([`Rules`]), special hands ([`find_special`]),
//! settlement ([`settle`]), money ([`money`]), dealing ([`deal`]), the strategies that arrange
//! a hand ([`solve`], [`SolveOptions`]) and their training ([`train`]), and the numeric bounds
//! that keep all of it exact ([`limits`]). The modules are private; this page is the engine's
//! public face. The rules are those of the project's RULES.md; section numbers in the docs
//! refer to it.

mod arrange;
mod cards;
mod deal;
mod error;
mod given;
pub mod limits;
mod money;
mod round;
mod rules;
mod score;
mod special;
mod split;
mod strategy;

pub use arrange::{compare_lanes, is_foul, values_foul, Arrangement};
pub use cards::{
    check_duplicates, evaluate, evaluate3, evaluate3_reference, evaluate5, evaluate5_reference,
    evaluate_batch, evaluate_hand, evaluate_subsets13, format_cards, hand13, parse_cards,
    validate_hand, Card, Category, DeckKind, HandValue, Rank, Suit, ThreeKeys, Wheel, FIVES_OF_13,
    HAND_SIZE, THREES_OF_13,
};
pub use deal::{
    deal, deal_os, rng_at, rng_for, shuffle, shuffled_deck, swap, swap_rng, swap_under, Deal,
};
pub use error::{player_count_message, Detail, Error, Lane, Result};
pub use given::{Given, Plain};
pub use money::{money, Percent, Rake};
pub use round::{escape_payments, settle_round, RoundSettlement};
pub use rules::schema::options as rule_options;
pub use rules::{
    special_index, special_keys, BankerStake, BonusKind, Escape, EscapeTo, FoulPolicy, HomeRun,
    HorseCard, Majority, Mode, RuleFile, Rules, Scoop, Special, Specials, Surrender, TieBreak,
};
pub use score::{settle, settle_batch, Settlement, Submission, TableArgs, STEPS};
pub use special::{
    compare_specials, find_special, held_specials, holds as holds_special, SpecialHand,
};
pub use split::{HandSplits, Split, SplitFilter};
pub use strategy::ev::{ev_scan, explain_arrangement, solve_ev, Choice};
pub use strategy::gift::{gift, Gift, GiftOptions, GiftSearch};
pub use strategy::gift_model::GiftModel;
pub use strategy::greedy::solve_greedy;
pub use strategy::lanes::{LaneCounts, LanePairs, LaneTables};
pub use strategy::mc::{solve_mc, MC_EV_PLAYS, MC_GATE};
pub use strategy::model::{Context, Explained, Role};
pub use strategy::removal::Removal;
pub use strategy::search::{
    best_splits, Ask, Candidate, Distinct, Hand, Need, Pricing, SearchStats,
};
pub use strategy::solve::{
    batch_arrays, complete, solve, solve_batch, SolveOptions, Solved, Strategy,
};
pub use strategy::surrender::{surrender_expected, surrenders};
pub use strategy::train::{
    build_tables, deal_range, shard_counts, train, train_with, Answered, IterationCounts,
    IterationReport, TrainConfig,
};
