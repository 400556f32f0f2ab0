//! The `ev` strategy's model of a split's expected units (RULES.md 5) against the table:
//! lanes independent, each lane's outcome from the lane tables ([`crate::lanes`]).
//!
//! Against one opponent: the sum over lanes of `P(win) × my lane value − E[opponent's lane
//! value when it wins]`, plus the scoop (打枪) term (`P(win all)` and `P(lose all)`, doubled
//! lanes or bonus units), the majority bonus and a home-run (全垒打) term; times the number
//! of opponents met. Every term is non-decreasing in each lane's value when the lane values
//! never fall as the category rises, which makes the pruned search of [`crate::search`] exact.

use crate::error::Lane;
use crate::eval::HandValue;
use crate::lanes::LaneTables;
use crate::rules::{BonusKind, Mode, Rules};

/// The seat a hand is solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An ordinary player (all-pairs mode), or a player against the banker.
    Player,
    /// The banker (庄家) in banker mode.
    Banker,
}

/// The table a hand is solved for.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// Players at the table, this one included (2 to 4).
    pub players: usize,
    /// This seat's role.
    pub role: Role,
}

impl Context {
    pub(crate) fn opponents_met(&self, rules: &Rules) -> usize {
        match (rules.mode, self.role) {
            (Mode::Banker, Role::Player) => 1,
            _ => self.players.saturating_sub(1),
        }
    }
}

#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Feat {
    pub(crate) w: f64,
    pub(crate) l: f64,
    pub(crate) t: f64,
    pub(crate) units: f64,
    pub(crate) gain: f64,
    /// Expected units paid in this lane when it is lost.
    pub(crate) paid: f64,
}

pub(crate) fn features(
    value: HandValue,
    lane: Lane,
    tables: &LaneTables,
    rules: &Rules,
    role: Role,
) -> Feat {
    let units = rules.lane_value(lane, value.category()) as f64;
    if tables.lanes[lane as usize].is_empty() {
        return Feat {
            w: 0.5,
            l: 0.5,
            t: 0.0,
            units,
            gain: 0.0,
            paid: units,
        };
    }
    let (mut w, mut t, above) = tables.lookup(lane, value);
    let mut l = (1.0 - w - t).max(0.0);
    let mut lose_units = above;
    if rules.mode == Mode::Banker && rules.banker_wins_ties {
        match role {
            Role::Banker => {
                w += t;
            }
            Role::Player => {
                l += t;
                // A drawn lane lost to the banker pays the banker's (equal) lane value.
                lose_units += t * units;
            }
        }
        t = 0.0;
    }
    Feat {
        w,
        l,
        t,
        units,
        gain: w * units - lose_units,
        paid: if l > 0.0 { lose_units / l } else { 0.0 },
    }
}

/// P(more lanes won than lost) − P(more lost than won), lanes independent.
fn majority_edge(f: [&Feat; 3]) -> f64 {
    // Distribution of (won − lost) over the three lanes.
    let mut dist = [0.0f64; 7];
    dist[3] = 1.0;
    for x in f {
        let mut next = [0.0f64; 7];
        for (d, &p) in dist.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            if d + 1 < 7 {
                next[d + 1] += p * x.w;
            }
            if d >= 1 {
                next[d - 1] += p * x.l;
            }
            next[d] += p * x.t;
        }
        dist = next;
    }
    dist[4..].iter().sum::<f64>() - dist[..3].iter().sum::<f64>()
}

pub(crate) struct Scorer<'a> {
    rules: &'a Rules,
    k: f64,
    hr_opponents: i32,
    home_run: bool,
}

impl<'a> Scorer<'a> {
    pub(crate) fn new(rules: &'a Rules, ctx: Context) -> Self {
        let k = ctx.opponents_met(rules);
        Scorer {
            rules,
            k: k as f64,
            hr_opponents: k as i32,
            home_run: rules.home_run.0 != BonusKind::None
                && ctx.players >= rules.home_run.2 as usize
                && (rules.mode == Mode::AllPairs || ctx.role == Role::Banker)
                && k >= 1,
        }
    }

    #[inline]
    pub(crate) fn score(&self, f: &Feat, m: &Feat, b: &Feat) -> f64 {
        let r = self.rules;
        let mut per = f.gain + m.gain + b.gain;
        let pw = f.w * m.w * b.w;
        let pl = f.l * m.l * b.l;
        let lanes_won = f.units + m.units + b.units;
        let lanes_lost = f.paid + m.paid + b.paid;
        let mut scoop_win = lanes_won;
        if r.majority_bonus != 0 {
            let mb = r.majority_bonus as f64;
            per += mb * majority_edge([f, m, b]);
            scoop_win += mb;
        }
        match r.scoop.0 {
            BonusKind::Double => {
                per += pw * scoop_win - pl * (lanes_lost + r.majority_bonus as f64)
            }
            BonusKind::Bonus => per += r.scoop.1 as f64 * (pw - pl),
            BonusKind::None => {}
        }
        let mut total = self.k * per;
        if self.home_run {
            let p_hr = pw.powi(self.hr_opponents);
            let each = match r.scoop.0 {
                BonusKind::Double => 2.0 * scoop_win,
                BonusKind::Bonus => scoop_win + r.scoop.1 as f64,
                BonusKind::None => scoop_win,
            };
            total += p_hr
                * self.k
                * match r.home_run.0 {
                    BonusKind::Double => each,
                    BonusKind::Bonus => r.home_run.1 as f64,
                    BonusKind::None => 0.0,
                };
        }
        total
    }
}

/// Whether each lane's value never falls as the category rises, over the categories the
/// lane can hold under the rules' deck.
pub(crate) fn lane_values_monotone(rules: &Rules) -> bool {
    // Only the categories a lane can hold: the front has no straights, flushes or full
    // houses, and five of a kind needs the extra-diamonds deck (RULES.md 3).
    let five = rules.deck == crate::card::DeckKind::ExtraDiamonds;
    rules.lane_values.iter().enumerate().all(|(lane, row)| {
        let cats: &[usize] = match (lane, five) {
            (0, _) => &[0, 1, 3],
            (_, false) => &[0, 1, 2, 3, 4, 5, 6, 7, 8],
            (_, true) => &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        };
        cats.windows(2).all(|w| row[w[0]] <= row[w[1]])
    })
}
