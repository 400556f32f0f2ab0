//! Units to money (RULES.md 5 "Money"): `units × stake` in integer minor currency units, less
//! the rake (服务费) taken from each winner.

use crate::error::{Error, Result};
use crate::limits::{Limit, RAKE_CAP, STAKE, UNITS};

/// Most decimal places a rake percentage may have (`"2.125"` has 3).
pub const PERCENT_DECIMALS: usize = 9;

const PERCENT: Limit = Limit::new("rake percent", 0, 100);

/// A rake percentage as an exact fraction `numerator / denominator` percent, `0..=100`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Percent {
    /// Numerator.
    pub numerator: i64,
    /// Denominator, a power of ten.
    pub denominator: i64,
}

impl Percent {
    /// Reads a decimal percentage: optional sign, digits, optionally `.` and at most
    /// [`PERCENT_DECIMALS`] significant decimals (`"5"`, `"2.5"`, `" 0.75 "`, `"3."`, `".5"`).
    ///
    /// Errors: [`Error::InvalidArgument`] for other text; [`Error::OutOfRange`] for a number
    /// outside 0 to 100 (`"-0.5"`, `"100.01"`, `"1000000000000000000.5"`).
    pub fn parse(text: &str) -> Result<Percent> {
        let bad = || Error::InvalidArgument {
            message: format!(
                "bad rake percent {text:?}: expected a decimal number such as 5 or \"2.5\" \
                 (at most {PERCENT_DECIMALS} decimals)"
            ),
        };
        let trimmed = text.trim();
        let (negative, number) = match trimmed.as_bytes().first() {
            Some(b'-') => (true, &trimmed[1..]),
            Some(b'+') => (false, &trimmed[1..]),
            _ => (false, trimmed),
        };
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
            return Err(bad());
        }
        let frac = frac.trim_end_matches('0');
        if frac.len() > PERCENT_DECIMALS {
            return Err(bad());
        }
        let int = int.trim_start_matches('0');
        let is_zero = int.is_empty() && frac.is_empty();
        let out_of_range = || PERCENT.error(trimmed);
        // More than three integer digits is above 100 whatever follows.
        if int.len() > 3 || (negative && !is_zero) {
            return Err(out_of_range());
        }
        let denominator = 10i64.pow(frac.len() as u32);
        let whole: i64 = if int.is_empty() {
            0
        } else {
            int.parse().map_err(|_| bad())?
        };
        let part: i64 = if frac.is_empty() {
            0
        } else {
            frac.parse().map_err(|_| bad())?
        };
        let numerator = whole * denominator + part;
        if numerator > 100 * denominator {
            return Err(out_of_range());
        }
        Ok(Percent {
            numerator,
            denominator,
        })
    }
}

/// The rake: a percentage of each positive amount, at most `cap` from one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rake {
    /// The percentage.
    pub percent: Percent,
    /// The most taken from one player, `None` for no cap.
    pub cap: Option<i64>,
}

/// Units to money: per player `units × stake`, less from each positive amount
/// `floor(amount × percent / 100)`, at most the cap; losers pay in full.
///
/// Errors: [`Error::OutOfRange`] for units outside `±`[`crate::limits::MAX_UNITS`], a stake
/// outside `0..=`[`crate::limits::MAX_STAKE`] or a negative cap. Within those bounds no
/// product overflows (see [`crate::limits`]).
pub fn money(units: &[i64], stake: i64, rake: Option<Rake>) -> Result<Vec<i64>> {
    STAKE.check(stake)?;
    for &u in units {
        UNITS.check(u)?;
    }
    if let Some(cap) = rake.and_then(|r| r.cap) {
        RAKE_CAP.check(cap)?;
    }
    Ok(units
        .iter()
        .map(|&u| {
            let amount = u * stake;
            match rake {
                Some(Rake { percent, cap }) if amount > 0 => {
                    let fee = (amount as i128 * percent.numerator as i128)
                        .div_euclid(percent.denominator as i128 * 100)
                        as i64;
                    amount - cap.map_or(fee, |c| fee.min(c))
                }
                _ => amount,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{MAX_STAKE, MAX_UNITS};

    fn pct(text: &str) -> Result<(i64, i64)> {
        Percent::parse(text).map(|p| (p.numerator, p.denominator))
    }

    fn rake(text: &str, cap: Option<i64>) -> Option<Rake> {
        Some(Rake {
            percent: Percent::parse(text).unwrap(),
            cap,
        })
    }

    #[test]
    fn percentages_are_exact_decimals() {
        assert_eq!(pct("5"), Ok((5, 1)));
        assert_eq!(pct(" 2.5 "), Ok((25, 10)));
        assert_eq!(pct("2.50000000000"), Ok((25, 10)));
        assert_eq!(pct(".5"), Ok((5, 10)));
        assert_eq!(pct("3."), Ok((3, 1)));
        assert_eq!(pct("+1"), Ok((1, 1)));
        assert_eq!(pct("-0"), Ok((0, 1)));
        assert_eq!(pct("100"), Ok((100, 1)));
        assert_eq!(pct("100.000"), Ok((100, 1)));
        assert_eq!(pct("0.000000001"), Ok((1, 1_000_000_000)));
    }

    #[test]
    fn bad_and_out_of_range_percentages_are_refused() {
        for text in [
            "",
            ".",
            "abc",
            "1e2",
            "1/2",
            "2,5",
            "0x10",
            "--1",
            "1.2.3",
            "0.0000000001",
        ] {
            assert!(
                matches!(pct(text), Err(Error::InvalidArgument { .. })),
                "{text:?}"
            );
        }
        for text in [
            "-0.5",
            "-1",
            "100.01",
            "101",
            "1000000000000000000.5",
            "99999999999999999999999",
        ] {
            assert!(
                matches!(pct(text), Err(Error::OutOfRange { .. })),
                "{text:?}"
            );
        }
    }

    #[test]
    fn money_by_hand() {
        // 10 units at 100: 1000, 5 % of it is 50, capped at 20; the loser pays 1000.
        assert_eq!(
            money(&[10, -10], 100, rake("2.5", Some(20))).unwrap(),
            vec![980, -1000]
        );
        // 300 less 5 % = 15.
        assert_eq!(
            money(&[3, -3], 100, rake("5", None)).unwrap(),
            vec![285, -300]
        );
        // 0.975 is floored to 0; 1 exactly is taken.
        assert_eq!(
            money(&[39, -39], 1, rake("2.5", Some(5))).unwrap(),
            vec![39, -39]
        );
        assert_eq!(
            money(&[40, -40], 1, rake("2.5", Some(5))).unwrap(),
            vec![39, -40]
        );
    }

    #[test]
    fn money_at_the_bounds_is_exact() {
        let top = MAX_UNITS * MAX_STAKE; // 10^18
        assert_eq!(
            money(&[MAX_UNITS, -MAX_UNITS], MAX_STAKE, None).unwrap(),
            vec![top, -top]
        );
        // 100 % of the largest amount, and a 0.000000001 % rake of it (10^18 × 10^-11).
        assert_eq!(
            money(&[MAX_UNITS], MAX_STAKE, rake("100", None)).unwrap(),
            vec![0]
        );
        assert_eq!(
            money(&[MAX_UNITS], MAX_STAKE, rake("0.000000001", None)).unwrap(),
            vec![top - 10_000_000]
        );
    }

    #[test]
    fn money_beyond_the_bounds_is_refused() {
        // 3 × 2^62 would wrap and pay the loser.
        assert!(matches!(
            money(&[3, -3], 1 << 62, None),
            Err(Error::OutOfRange { .. })
        ));
        assert!(money(&[1], -1, None).is_err());
        assert!(money(&[MAX_UNITS + 1], 1, None).is_err());
        assert!(money(&[-MAX_UNITS - 1], 1, None).is_err());
        assert!(money(&[1], 1, rake("5", Some(-1))).is_err());
    }
}
