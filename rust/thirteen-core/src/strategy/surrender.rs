//! Surrender decisions (Western rule sets, RULES.md 5 step 1): what surrendering is worth to a
//! seat, set against its best play by [`crate::solve`].
//!
//! A surrendered seat pays `surrender.units` to each seat it meets that did not surrender
//! ([`crate::Surrender::pays`]), and nothing else is scored for it. The model takes the other
//! seats as not surrendering (the lane tables were made by self-play without surrender, and
//! the best play's expected units are priced against those opponents): surrendering is worth
//! `−units` times the opponents met, exactly, before the horse card's doubling and a banker's
//! stake multipliers, as the expected units of a play are.

use crate::rules::Rules;
use crate::strategy::model::Context;

/// The expected units of surrendering for the seat `ctx` (`None` when the rules do not allow
/// surrender): what it pays each opponent met, each taken as not surrendering.
pub fn surrender_expected(rules: &Rules, ctx: Context) -> Option<f64> {
    let pays = rules.surrender.pays(true, false);
    rules
        .surrender
        .allowed
        .then(|| pays as f64 * ctx.opponents_met(rules) as f64)
}

/// Whether a seat whose best play expects `best` units surrenders: when surrendering
/// (`surrender`, [`surrender_expected`]) loses strictly less.
pub fn surrenders(surrender: Option<f64>, best: f64) -> bool {
    surrender.is_some_and(|s| s > best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Mode, Surrender};
    use crate::strategy::model::Role;

    fn ctx(players: usize, role: Role) -> Context {
        Context { players, role }
    }

    #[test]
    fn a_surrender_pays_each_opponent_met() {
        // RULES.md 5 step 1: 3 units to each seat that did not surrender.
        let western = Rules {
            surrender: Surrender::allowed(3),
            ..Rules::default()
        };
        assert_eq!(
            surrender_expected(&western, ctx(2, Role::Player)),
            Some(-3.0)
        );
        assert_eq!(
            surrender_expected(&western, ctx(4, Role::Player)),
            Some(-9.0)
        );
        // Banker mode: a player meets the banker only; the banker meets every player.
        let banker = Rules {
            mode: Mode::Banker,
            ..western
        };
        assert_eq!(
            surrender_expected(&banker, ctx(4, Role::Player)),
            Some(-3.0)
        );
        assert_eq!(
            surrender_expected(&banker, ctx(4, Role::Banker)),
            Some(-9.0)
        );
        // Not allowed: no surrender to weigh.
        assert_eq!(
            surrender_expected(&Rules::default(), ctx(4, Role::Player)),
            None
        );
        // Strictly less lost; never against a play of no expectation (greedy).
        assert!(surrenders(Some(-9.0), -9.5));
        assert!(!surrenders(Some(-9.0), -9.0));
        assert!(!surrenders(Some(-9.0), f64::NAN));
        assert!(!surrenders(None, -100.0));
    }
}
