//! The bonuses (RULES.md 5 steps 5 to 7): the majority bonus of a pair, the scoop (打枪) of a
//! pair, the home run (全垒打) of a table. Each type says what it pays in a settlement
//! (`pays`, integer units, signed from the lower seat's side as the steps are) and, beside it,
//! what the same rule is worth to the `ev` model (`expected`, over probabilities): the two
//! are one rule written for two kinds of number, and nothing else prices these bonuses.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::Mode;

/// How a scoop or a home run pays (RULES.md 6 `scoop.kind`, `home_run.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusKind {
    /// Not scored.
    #[default]
    None,
    /// The pair's result so far doubles.
    Double,
    /// A fixed number of units more.
    Bonus,
}

impl BonusKind {
    /// What a bonus of this kind adds to a pair, signed from A's side, when A (`a_side`) or B
    /// earned it and the pair's result so far is `so_far`: `double` adds `so_far` again (the
    /// result doubles), `bonus` adds `units` to the side that earned it.
    #[inline]
    fn pays(self, units: i64, a_side: bool, so_far: i64) -> i64 {
        match self {
            BonusKind::Double => so_far,
            BonusKind::Bonus if a_side => units,
            BonusKind::Bonus => -units,
            BonusKind::None => 0,
        }
    }
}

/// The majority bonus (Western 2-4, RULES.md 5 step 5): the side that won more lanes collects
/// `units` more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Majority {
    /// Units to the side that won more lanes; 0 when not scored.
    pub units: i64,
}

impl Majority {
    /// Whether the rule set scores a majority bonus.
    #[inline]
    pub fn is_scored(self) -> bool {
        self.units != 0
    }

    /// Step 5, signed from A's side: `units` to the side that won more lanes (drawn lanes count
    /// for neither), 0 when they won as many.
    #[inline]
    pub fn pays(self, won_a: u8, won_b: u8) -> i64 {
        match won_a.cmp(&won_b) {
            std::cmp::Ordering::Greater => self.units,
            std::cmp::Ordering::Less => -self.units,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// The units as a float, for the model.
    #[inline]
    pub fn units_f64(self) -> f64 {
        self.units as f64
    }

    /// The expectation of [`Majority::pays`] when `edge` = P(more lanes won) − P(more lost).
    #[inline]
    pub fn expected(self, edge: f64) -> f64 {
        self.units_f64() * edge
    }
}

/// The scoop (打枪, RULES.md 5 step 6): what a side that won all three lanes of a pair adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Scoop {
    /// How it pays.
    pub kind: BonusKind,
    /// The units of `kind = "bonus"` (0 otherwise).
    pub units: i64,
}

impl Scoop {
    /// Not scored.
    pub const NONE: Scoop = Scoop {
        kind: BonusKind::None,
        units: 0,
    };

    /// The pair's result so far doubles.
    pub const fn double() -> Scoop {
        Scoop {
            kind: BonusKind::Double,
            units: 0,
        }
    }

    /// `units` more to the scooper.
    pub const fn bonus(units: i64) -> Scoop {
        Scoop {
            kind: BonusKind::Bonus,
            units,
        }
    }

    /// Whether a scoop pays anything.
    #[inline]
    pub fn is_scored(self) -> bool {
        self.kind != BonusKind::None
    }

    /// Step 6, signed from A's side: what the scoop adds when `a_scooped` (else B scooped),
    /// `so_far` being the pair's result so far, the lanes plus the majority bonus (signed from
    /// A's side): `double` adds it again (the result doubles), `bonus` adds `units` to the
    /// scooper.
    #[inline]
    pub fn pays(self, a_scooped: bool, so_far: i64) -> i64 {
        self.kind.pays(self.units, a_scooped, so_far)
    }

    /// The expectation of [`Scoop::pays`] over one pair: `p_win` = P(this seat scoops) with
    /// `won` the expected result so far when it does, `p_lose` = P(it is scooped) with
    /// `lost()` the expected result so far then, weighed by that probability (a double pays it
    /// back). `None` when the scoop is not scored (nothing is added, not even a zero).
    #[inline]
    pub fn expected(
        self,
        p_win: f64,
        p_lose: f64,
        won: f64,
        lost: impl FnOnce() -> f64,
    ) -> Option<f64> {
        match self.kind {
            BonusKind::Double => Some(p_win * won - lost()),
            BonusKind::Bonus => Some(self.units as f64 * (p_win - p_lose)),
            BonusKind::None => None,
        }
    }

    /// A pair's result after a scoop won with `so_far` (lanes and majority bonus): twice it for
    /// `double`, `units` more for `bonus`.
    #[inline]
    pub fn after(self, so_far: f64) -> f64 {
        match self.kind {
            BonusKind::Double => 2.0 * so_far,
            BonusKind::Bonus => so_far + self.units as f64,
            BonusKind::None => so_far,
        }
    }

    /// [`Scoop::after`] as `lanes × factor + units` for a scoop whose lanes are worth `lanes`,
    /// with the majority bonus `majority`: `(factor, units)`.
    #[inline]
    pub fn after_lanes(self, majority: Majority) -> (f64, f64) {
        let mb = majority.units_f64();
        match self.kind {
            BonusKind::Double => (2.0, 2.0 * mb),
            BonusKind::Bonus => (1.0, mb + self.units as f64),
            BonusKind::None => (1.0, mb),
        }
    }
}

/// The home run (全垒打, RULES.md 5 step 7): a player who scooped every other player still in
/// the showdown, at a table of at least `min_players` players dealt in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct HomeRun {
    /// How it pays.
    pub kind: BonusKind,
    /// The units from each opponent of `kind = "bonus"` (0 otherwise).
    pub units: i64,
    /// The fewest players dealt in (leavers included) for a home run to count.
    pub min_players: u8,
}

impl HomeRun {
    /// Not scored.
    pub const NONE: HomeRun = HomeRun {
        kind: BonusKind::None,
        units: 0,
        min_players: 0,
    };

    /// Each of the hitter's results doubles again, from `min_players` players.
    pub const fn double(min_players: u8) -> HomeRun {
        HomeRun {
            kind: BonusKind::Double,
            units: 0,
            min_players,
        }
    }

    /// `units` more from each opponent, from `min_players` players.
    pub const fn bonus(units: i64, min_players: u8) -> HomeRun {
        HomeRun {
            kind: BonusKind::Bonus,
            units,
            min_players,
        }
    }

    /// Whether a home run counts at a table of `dealt_in` players (those dealt in, leavers
    /// included: a leaver does not take a home run away).
    #[inline]
    pub fn counts(self, dealt_in: usize) -> bool {
        self.kind != BonusKind::None && dealt_in >= self.min_players as usize
    }

    /// The seats that can hit one: in banker mode the banker only (every other seat meets the
    /// banker alone), else every seat of the `n` compared.
    #[inline]
    pub fn hitters(mode: Mode, banker: usize, n: usize) -> Range<usize> {
        match mode {
            Mode::Banker => banker..banker + 1,
            Mode::AllPairs => 0..n,
        }
    }

    /// Whether a seat of this role can hit one (see [`HomeRun::hitters`]).
    #[inline]
    pub fn can_hit(mode: Mode, is_banker: bool) -> bool {
        mode == Mode::AllPairs || is_banker
    }

    /// Step 7, signed from A's side: what a home run adds to a pair of its hitter (`a_hit`:
    /// A is the hitter), `so_far` the pair's result so far (steps 1 to 6): `double` adds it
    /// again, `bonus` adds `units` to the hitter.
    #[inline]
    pub fn pays(self, a_hit: bool, so_far: i64) -> i64 {
        self.kind.pays(self.units, a_hit, so_far)
    }

    /// The expectation of [`HomeRun::pays`] per opponent, `each` being the pair's expected
    /// result when scooped ([`Scoop::after`]): it again for `double`, `units` for `bonus`.
    #[inline]
    pub fn extra(self, each: f64) -> f64 {
        match self.kind {
            BonusKind::Double => each,
            BonusKind::Bonus => self.units as f64,
            BonusKind::None => 0.0,
        }
    }

    /// What a scooped seat pays the hitter on top, as `(units per scoop, factor of the lanes
    /// lost)`, given the scoop's [`Scoop::after_lanes`]: `bonus` its units alone; `double` the
    /// pair's result again. `None` when a home run pays nothing.
    #[inline]
    pub fn extra_lanes(self, after: (f64, f64)) -> Option<(f64, f64)> {
        let (factor, units) = after;
        match self.kind {
            BonusKind::Bonus => Some((self.units as f64, 0.0)),
            BonusKind::Double => Some((units, factor)),
            BonusKind::None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majority_pays_the_side_that_won_more_lanes() {
        let m = Majority { units: 1 };
        assert_eq!(m.pays(2, 1), 1);
        assert_eq!(m.pays(0, 1), -1);
        assert_eq!(m.pays(1, 1), 0);
        assert_eq!(m.expected(0.5), 0.5);
        assert!(!Majority::default().is_scored());
    }

    #[test]
    fn a_doubled_scoop_doubles_the_result_so_far() {
        // RULES.md 5 step 6: lanes 3 and a majority bonus of 1 won by B: -4 doubles to -8.
        assert_eq!(Scoop::double().pays(false, -4), -4);
        assert_eq!(Scoop::bonus(6).pays(true, 3), 6);
        assert_eq!(Scoop::bonus(6).pays(false, -3), -6);
        assert_eq!(Scoop::NONE.pays(true, 3), 0);
        assert_eq!(Scoop::double().after(4.0), 8.0);
        assert_eq!(Scoop::bonus(3).after(3.0), 6.0);
        assert_eq!(
            Scoop::double().after_lanes(Majority { units: 1 }),
            (2.0, 2.0)
        );
        assert_eq!(Scoop::NONE.expected(0.5, 0.25, 3.0, || 1.0), None);
        assert_eq!(Scoop::bonus(4).expected(0.5, 0.25, 3.0, || 1.0), Some(1.0));
        assert_eq!(Scoop::double().expected(0.5, 0.25, 3.0, || 1.0), Some(0.5));
    }

    #[test]
    fn a_home_run_counts_the_players_dealt_in() {
        let h = HomeRun::bonus(12, 4);
        assert!(h.counts(4) && !h.counts(3));
        assert!(!HomeRun::NONE.counts(4));
        assert_eq!(h.pays(true, 100), 12);
        assert_eq!(h.pays(false, 100), -12);
        assert_eq!(HomeRun::double(3).pays(false, -7), -7);
        assert_eq!(HomeRun::hitters(Mode::Banker, 2, 4), 2..3);
        assert_eq!(HomeRun::hitters(Mode::AllPairs, 2, 4), 0..4);
        assert_eq!(HomeRun::double(3).extra(6.0), 6.0);
        assert_eq!(h.extra_lanes((2.0, 1.0)), Some((12.0, 0.0)));
        assert_eq!(HomeRun::double(3).extra_lanes((2.0, 1.0)), Some((1.0, 2.0)));
    }
}
