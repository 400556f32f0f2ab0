//! Exact search for the `ev` strategy's best splits of 13 to 16 cards (RULES.md 2).
//!
//! Branch and bound over backs in falling value ([`best_splits`]): a [`Search`] walks the
//! backs, bounds the splits of each back, and of those its bounds pass, scores the few that
//! can beat the best found: by the back's Pareto frontier, by runs of backs searched front
//! first, by the middles of the walk's order, or pair by pair. No split is skipped unless
//! its score provably cannot beat what was found; where a lane's value falls as the
//! category rises, the bounds price each lane at its value's envelope. The bounds, the
//! walk's orders and each shortcut are described in the engine internals
//! (`docs/internals.md`); the tests compare the search with a full scan.
//!
//! [`Search`]: state::Search

mod ask;
mod bounds;
mod failed;
mod falling;
mod found;
mod front_first;
mod frontier;
mod middles;
mod pairs;
mod price;
mod rest;
mod runs;
mod side;
mod state;
mod subsets;
mod twins;
mod walk;

#[cfg(test)]
mod tests;

pub use ask::{Ask, Distinct, Need};
pub(crate) use found::best_first;
pub use found::Candidate;
pub use state::{Hand, SearchStats};
pub(crate) use subsets::{subset_values, subsets};
pub use walk::{best_splits, Pricing};
