//! The engine's numeric bounds: every number a caller gives is checked against one of these
//! before any work, so that no sum or product the engine forms can leave `i64`.
//!
//! Why these bounds are enough (RULES.md 5, the steps of one compared pair):
//!
//! ```text
//! every rule-set amount (lane value, majority, scoop, home run, surrender, special,
//! escape)                                        ≤ R = 10^4 units
//! lanes ≤ 3R; + majority ≤ 4R; + scoop (doubled, or + R) ≤ 8R; special or surrender alone ≤ R
//! home run (doubled, or + R)                     ≤ 16R
//! horse card (doubled)                           ≤ 32R
//! banker stake multiplier (× s, s ≤ S = 10^3)    ≤ 32RS
//! a seat meets at most 3 opponents               |total| ≤ 96RS = 9.6 × 10^8 < U = 10^9
//! money: |units| ≤ U, stake ≤ M = 10^9           |units × stake| ≤ UM = 10^18 < 2^63 ≈ 9.2 × 10^18
//! rake: amount × percent numerator (≤ 100 × 10^9) ≤ 10^29, computed in i128 (< 1.7 × 10^38)
//! ```
//!
//! A round's units (a settlement plus escape payments of at most 3 leavers, each ≤ R) stay
//! below `U` as well, so they can always be turned into money.

use std::fmt::Display;

use crate::error::{Error, Result};
use crate::given::Given;

/// An inclusive range an integer argument must lie in, and the name it is reported under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The argument or rule key, as the caller knows it.
    pub key: &'static str,
    /// The smallest value allowed.
    pub min: i64,
    /// The largest value allowed.
    pub max: i64,
}

impl Limit {
    /// `value` when it lies in the range, else [`Error::OutOfRange`].
    pub fn check(&self, value: i64) -> Result<i64> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(self.error(value))
        }
    }

    /// [`Limit::check`] for a count or seat, returned as `usize`.
    pub fn index(&self, value: i64) -> Result<usize> {
        let v = self.check(value)?;
        usize::try_from(v).map_err(|_| self.error(value))
    }

    /// The integer `given`, checked ([`Limit::check`]; one beyond 64 bits is out of range).
    pub fn given(&self, given: &Given) -> Result<i64> {
        self.fits(given).and_then(|v| self.check(v))
    }

    /// [`Limit::given`] for a count or a seat, as `usize`.
    pub fn given_index(&self, given: &Given) -> Result<usize> {
        self.fits(given).and_then(|v| self.index(v))
    }

    /// The value of `given` when it fits in 64 bits, its range unchecked (the callee checks
    /// it where it is used, in its documented order); else the error naming this limit.
    pub fn fits(&self, given: &Given) -> Result<i64> {
        match given {
            Given::Int(v) => Ok(*v),
            Given::Beyond(text) => Err(self.error(text)),
        }
    }

    /// [`Limit::fits`] for each integer given, in order.
    pub fn fits_all(&self, given: &[Given]) -> Result<Vec<i64>> {
        given.iter().map(|g| self.fits(g)).collect()
    }

    /// The error for `value` (any text, e.g. an integer too large for `i64`).
    pub fn error(&self, value: impl Display) -> Error {
        self.error_at(self.key, value)
    }

    /// The error for `value` reported under another key (`"stakes[2]"`).
    pub fn error_at(&self, key: impl Into<String>, value: impl Display) -> Error {
        Error::OutOfRange {
            key: key.into(),
            value: value.to_string(),
            min: self.min,
            max: self.max,
        }
    }

    /// The range `min..=max` of the argument or key `key`.
    pub const fn new(key: &'static str, min: i64, max: i64) -> Limit {
        Limit { key, min, max }
    }

    /// A count or a seat: any integer `>= 0`.
    pub const fn count(key: &'static str) -> Limit {
        Limit::new(key, 0, i64::MAX)
    }
}

/// Seats and sizes a caller names, each any integer `>= 0` where a bound is checked at once,
/// and checked against the table (or the hand) by the callee otherwise: the banker's seat,
/// the seats that surrendered or escaped, a leaver's seat, a hand's size.
pub const BANKER: Limit = Limit::count("banker");
/// See [`BANKER`].
pub const SURRENDERED: Limit = Limit::count("surrendered");
/// See [`BANKER`].
pub const ESCAPED: Limit = Limit::count("escaped");
/// See [`BANKER`].
pub const LEAVER: Limit = Limit::count("leaver");
/// See [`BANKER`].
pub const SIZE: Limit = Limit::count("size");

/// The error for a seed that is not an integer from 0 to 2**64 − 1 (`shown` as given): seeds
/// key the deal's generator (RULES.md 7) and take every `u64`.
pub fn seed_error(shown: impl Display) -> Error {
    Error::InvalidArgument {
        message: format!("a seed is an integer from 0 to 2**64 - 1, got {shown}"),
    }
}

/// Most finishes `complete` lists for a hand of more than 13 dealt cards: a 16-card hand
/// has about 40 million splits of 13 of its cards, too many to list whole.
pub const COMPLETE_KEEP_LIMIT: Limit = Limit::new("limit", 1, 10_000);

/// Most plays a solve ranks (`top`, `hints`' `n`).
pub const SOLVE_TOP: Limit = Limit::new("top", 1, 1_000);

/// Most gifts a swap-three decision ranks (`top`, the gift hints' `n`): each is valued on
/// fresh pools ([`crate::strategy::gift`]).
pub const GIFT_TOP: Limit = Limit {
    key: "top",
    min: 1,
    max: 10,
};

/// Most samples of the `mc` strategy.
pub const MC_SAMPLES: Limit = Limit::new("samples", 1, 10_000_000);

/// Random tables dealt per iteration of training.
pub const TRAIN_DEALS: Limit = Limit::new("deals", 1, 100_000_000);

/// Iterations of training.
pub const TRAIN_ITERATIONS: Limit = Limit::new("iterations", 1, 10_000);

/// A deal of a training iteration counted in shards (`start`, `stop`: the end of a range
/// of deals, at most [`TRAIN_DEALS`]).
pub const TRAIN_DEAL: Limit = Limit::new("stop", 0, 100_000_000);

/// The first deal of a range counted in shards (up to [`TRAIN_DEAL`]).
pub const TRAIN_START: Limit = Limit::new("start", TRAIN_DEAL.min, TRAIN_DEAL.max);

/// A training iteration counted in shards (iteration 0 is the first).
pub const TRAIN_ITERATION: Limit = Limit::new("iteration", 0, 10_000);

/// A hand value as an integer ([`crate::cards::HandValue::raw`]): of a lane's counts, or to
/// rebuild a value from.
pub const HAND_VALUE: Limit = Limit::new("value", 0, u32::MAX as i64);

/// How often a lane value was played, in lane counts.
pub const LANE_COUNT: Limit = Limit::count("count");

/// Largest amount of any rule-set entry (`R`): lane values, bonuses, specials, surrender,
/// escape penalties.
pub const MAX_RULE_UNITS: i64 = 10_000;
/// Largest banker-mode stake multiplier of a seat (`S`).
pub const MAX_STAKE_MULTIPLIER: i64 = 1_000;
/// Largest units (positive or negative) of one seat that [`crate::money::money`] takes (`U`).
pub const MAX_UNITS: i64 = 1_000_000_000;
/// Largest stake, in minor currency units per unit (`M`).
pub const MAX_STAKE: i64 = 1_000_000_000;

/// A rule-set amount, `0..=R` (the Python layer asks for at least 1 where 0 makes no sense).
pub const RULE_UNITS: Limit = Limit::new("units", 0, MAX_RULE_UNITS);
/// The table sizes a rule set may allow (RULES.md 1): 2 to 4 players, banker included.
pub const TABLE_SIZE: Limit = Limit::new("players", 2, 4);
/// Swap-three (换三张, RULES.md 7): the most cards a player may give, `1..=13`.
pub const SWAP_CARDS: Limit = Limit::new("swap.max_cards", 1, 13);
/// A banker-mode stake multiplier, `1..=S`.
pub const STAKE_MULTIPLIER: Limit = Limit::new("stakes", 1, MAX_STAKE_MULTIPLIER);
/// Units of one seat, `-U..=U`.
pub const UNITS: Limit = Limit::new("units", -MAX_UNITS, MAX_UNITS);
/// The money stake, `0..=M`.
pub const STAKE: Limit = Limit::new("stake", 0, MAX_STAKE);
/// The rake cap: any amount `>= 0`.
pub const RAKE_CAP: Limit = Limit::count("rake cap");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_settlement_and_its_money_fit_in_i64() {
        // The chain of the module docs, checked in wider arithmetic.
        let r = MAX_RULE_UNITS as i128;
        let s = MAX_STAKE_MULTIPLIER as i128;
        let seat = 3 * 32 * r * s;
        assert!(seat + 3 * r < MAX_UNITS as i128);
        assert!(MAX_UNITS as i128 * MAX_STAKE as i128 <= i64::MAX as i128);
        assert!(i64::MAX as i128 * 100 * 1_000_000_000 < i128::MAX);
    }

    #[test]
    fn limits_name_the_key_and_the_value() {
        assert_eq!(STAKE.check(5), Ok(5));
        let e = STAKE.check(-1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "stake must be an integer from 0 to 1000000000, got -1"
        );
        let e = Limit::count("players").index(-3).unwrap_err();
        assert_eq!(e.to_string(), "players must be an integer >= 0, got -3");
        assert_eq!(Limit::count("players").index(4), Ok(4));
        let e = UNITS.error("123456789012345678901234567890");
        assert!(e
            .to_string()
            .ends_with("got 123456789012345678901234567890"));
    }
}
