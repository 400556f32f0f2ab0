//! Surrender (Western rule sets, RULES.md 5 step 1): a player gives up before the showdown and
//! pays a fixed amount.

/// The surrender rule (RULES.md 6 `surrender`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Surrender {
    /// Whether a player may surrender.
    pub allowed: bool,
    /// What a surrendered player pays each player who did not.
    pub units: i64,
}

impl Surrender {
    /// Allowed, at `units` a player.
    pub const fn allowed(units: i64) -> Surrender {
        Surrender {
            allowed: true,
            units,
        }
    }

    /// Step 1, signed from A's side, for a pair where `a_gone` and `b_gone` say who
    /// surrendered: the surrendered side pays `units`; two surrendered players pay each other
    /// nothing.
    #[inline]
    pub fn pays(self, a_gone: bool, b_gone: bool) -> i64 {
        match (a_gone, b_gone) {
            (true, false) => -self.units,
            (false, true) => self.units,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_surrendered_side_pays() {
        let s = Surrender::allowed(3);
        assert_eq!(s.pays(true, false), -3);
        assert_eq!(s.pays(false, true), 3);
        assert_eq!(s.pays(true, true), 0);
    }
}
