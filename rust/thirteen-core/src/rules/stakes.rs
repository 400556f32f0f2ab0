//! Banker stakes (RULES.md 5 step 9): in banker mode each banker–player result is multiplied by
//! that player's stake multiplier.

use crate::error::Result;
use crate::limits::STAKE_MULTIPLIER;

/// A player's stake multiplier against the banker (庄家), `1..=`
/// [`crate::limits::MAX_STAKE_MULTIPLIER`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BankerStake {
    /// The multiplier.
    pub multiplier: i64,
}

impl BankerStake {
    /// Stake 1 (the default).
    pub const ONE: BankerStake = BankerStake { multiplier: 1 };

    /// The multiplier of `seat`, checked against its bounds ([`crate::Error::OutOfRange`]
    /// naming `stakes[seat]`).
    pub fn of_seat(seat: usize, multiplier: i64) -> Result<BankerStake> {
        STAKE_MULTIPLIER
            .check(multiplier)
            .map_err(|_| STAKE_MULTIPLIER.error_at(format!("stakes[{seat}]"), multiplier))?;
        Ok(BankerStake { multiplier })
    }

    /// Step 9: what the stake adds to a banker–player result `so_far` (it is multiplied).
    #[inline]
    pub fn pays(self, so_far: i64) -> i64 {
        so_far * (self.multiplier - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stake_multiplies_the_result() {
        assert_eq!(BankerStake { multiplier: 3 }.pays(-5), -10);
        assert_eq!(BankerStake::ONE.pays(7), 0);
        assert!(BankerStake::of_seat(2, 0).is_err());
        assert!(BankerStake::of_seat(2, 1001).is_err());
    }
}
