//! The `ev` strategy's model of a split's expected units (RULES.md 5) against the table:
//! lanes independent, each lane's outcome from the lane tables ([`crate::strategy::lanes`]).
//!
//! Against one opponent: the sum over lanes of `P(win) × my lane value − E[opponent's lane
//! value when it wins]`, plus the scoop (打枪) term (`P(win all)` and `P(lose all)`, doubled
//! lanes or bonus units), the majority bonus and a home-run (全垒打) term; times the number
//! of opponents met. Every term is non-decreasing in each lane's value when the lane values
//! never fall as the category rises, which makes the pruned search of [`crate::strategy::search`] exact.
//! After rounding too: a lane's P(win) and P(lose) are read from entries of the tables'
//! cumulative sums (P(below), P(at most) = the next value's P(below)), never built from a
//! P(equal), so that no term moves against the value by a unit in the last place.
//!
//! With card removal ([`crate::strategy::removal`]) each lane's outcome is weighed by the cards held:
//! the opponent's lane is dealt from the unseen cards. The class rows below are not.
//!
//! The lanes of one opponent's hand are not independent (a strong front is often bought with
//! a weak middle), so when the tables hold classes of the opponent's arrangement
//! ([`crate::strategy::lanes::class_of`]) the events that need all three lanes (a scoop won or lost,
//! and the units paid when scooped) are priced as a mixture: lanes independent within a
//! class, the classes weighted by how often they are played. Sums over the classes run in a
//! fixed order on non-negative terms, so the score stays non-decreasing in each lane's value
//! after rounding too.
//!
//! With classes, an opponent's home run that takes this seat in is priced too (all-pairs
//! mode, at a table where a home run counts): the opponent scoops this seat (`P(lose all)`
//! per class of its arrangement) and each other seat with its class's scoop rate
//! ([`crate::strategy::lanes::LaneTables::class_scoops`]), taken as independent; the units it pays are
//! subtracted. The seat's own home run is `P(win all)` to the power of the opponents met.

use crate::cards::HandValue;
use crate::error::Lane;
use crate::rules::{BonusKind, HomeRun, Mode, Rules};
use crate::strategy::lanes::{ClassRow, ClassRows, LaneTables, Ties, CLASSES};
use crate::strategy::removal::Removal;

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
    /// The value's row in the lane's class rows ([`LaneTables::class_rows`]).
    pub(crate) row: u32,
}

pub(crate) fn features(
    value: HandValue,
    lane: Lane,
    tables: &LaneTables,
    rules: &Rules,
    role: Role,
    removal: Option<&Removal>,
) -> Feat {
    let units = rules.lane_value(lane, value.category()) as f64;
    features_worth(value, lane, units, tables, rules, role, removal)
}

/// [`features`] of a lane worth `units` (for the search's bounds, its
/// [`lane_value_envelope`]); with `removal`, the opponent's lane is weighed by the cards
/// held ([`crate::strategy::removal`]).
pub(crate) fn features_worth(
    value: HandValue,
    lane: Lane,
    units: f64,
    tables: &LaneTables,
    rules: &Rules,
    role: Role,
    removal: Option<&Removal>,
) -> Feat {
    if tables.lanes[lane as usize].is_empty() {
        return Feat {
            w: 0.5,
            l: 0.5,
            t: 0.0,
            units,
            gain: 0.0,
            paid: units,
            ..Feat::default()
        };
    }
    // P(lose) is 1 − P(at most), not 1 − P(below) − P(equal): the former moves with the
    // value after rounding (a value's P(at most) is the next one's P(below)).
    let ((below, at_most, above), row) = tables.lookup_removed(lane, value, removal);
    let (mut w, mut t, mut l) = (below, (at_most - below).max(0.0), (1.0 - at_most).max(0.0));
    let mut lose_units = above;
    if rules.mode == Mode::Banker && rules.banker_wins_ties {
        match role {
            Role::Banker => w = at_most,
            Role::Player => {
                l = (1.0 - below).max(0.0);
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
        row,
    }
}

/// The categories a lane can hold under the rules' deck, low to high: the front has no
/// straights, flushes or full houses, and five of a kind needs the extra diamonds.
fn lane_categories(rules: &Rules, lane: Lane) -> &'static [usize] {
    let five = rules.deck == crate::cards::DeckKind::ExtraDiamonds;
    match (lane, five) {
        (Lane::Front, _) => &[0, 1, 3],
        (_, false) => &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        (_, true) => &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    }
}

/// A lane's value made non-decreasing in the category, per category: the most that a
/// category the lane can hold, up to this one, is worth. It equals the lane's value where
/// that never falls; scoring with it bounds any split with weaker lanes (see
/// [`units_raise_score`]).
pub(crate) fn lane_value_envelope(rules: &Rules, lane: Lane) -> [i64; 10] {
    let row = &rules.lane_values[lane as usize];
    let mut out = *row;
    let mut most = i64::MIN;
    let cats = lane_categories(rules, lane);
    for (c, slot) in out.iter_mut().enumerate() {
        if cats.contains(&c) {
            most = most.max(row[c]);
        }
        if most > i64::MIN {
            *slot = most;
        }
    }
    out
}

/// Whether the score never falls as a lane's units rise, all else the same, and the tables
/// cover every lane (an empty lane prices a lost lane at its own units). Every seat but a
/// player against a banker who wins ties, whose drawn lanes pay their own units.
pub(crate) fn units_raise_score(rules: &Rules, role: Role, tables: &LaneTables) -> bool {
    let drawn_pays = rules.mode == Mode::Banker && rules.banker_wins_ties && role == Role::Player;
    !drawn_pays && tables.lanes.iter().all(|l| !l.is_empty())
}

/// Four classes' terms, one SSE register (`wide`'s vector: each lane's product and sum
/// are the IEEE operations the scalar code takes, so the scores are the same to the bit).
type Four = wide::f32x4;

/// The classes `4 c .. 4 c + 4` of `x`.
#[inline(always)]
fn four(x: &[f32; CLASSES], c: usize) -> Four {
    Four::from([x[4 * c], x[4 * c + 1], x[4 * c + 2], x[4 * c + 3]])
}

/// Over the classes, against one opponent: the sums of P(win all three lanes), of P(lose
/// all three), of the units the opponent collects over the three lanes when it wins all
/// three (with `LANES`; else 0), and of the last two each weighed by `rate` (with `RATE`;
/// else 0). Each sum in one fixed tree order (monotone under rounding): each class with the
/// class eight places on, those sums with the ones four places on, then `(q0 + q2) + (q1 +
/// q3)`. The terms are taken four classes at a time in vectors and added as they are made,
/// so that none passes through memory (taken sixteen at a time as plain arrays, then
/// added, they went through the stack: 475 instructions a score on the p99 band of kaixin
/// hands, 241 now; plain four-float arrays in this order compiled to 350 to 450).
#[inline(always)]
fn class_sums<const LANES: bool, const RATE: bool>(
    f: &ClassRow,
    m: &ClassRow,
    b: &ClassRow,
    rate: &[f32; CLASSES],
) -> [f64; 5] {
    let zero = Four::ZERO;
    let quarter = |c: usize| -> [Four; 5] {
        let pw = four(&f.w, c) * four(&m.w, c) * four(&b.w, c);
        let (fl, ml, bl) = (four(&f.l, c), four(&m.l, c), four(&b.l, c));
        let pl = fl * ml * bl;
        let lost = if LANES {
            four(&f.u, c) * (ml * bl) + fl * (four(&m.u, c) * bl + ml * four(&b.u, c))
        } else {
            zero
        };
        if RATE {
            let r = four(rate, c);
            [pw, pl, lost, pl * r, lost * r]
        } else {
            [pw, pl, lost, zero, zero]
        }
    };
    let (q0, q2) = (quarter(0), quarter(2));
    let low = [
        q0[0] + q2[0],
        q0[1] + q2[1],
        q0[2] + q2[2],
        q0[3] + q2[3],
        q0[4] + q2[4],
    ];
    let (q1, q3) = (quarter(1), quarter(3));
    let total = |i: usize| {
        let q = (low[i] + (q1[i] + q3[i])).to_array();
        ((q[0] + q[2]) + (q[1] + q[3])) as f64
    };
    [total(0), total(1), total(2), total(3), total(4)]
}

/// The price of an opponent's home run (全垒打) that takes this seat in: the opponent must
/// scoop this seat (P(lose all three), per class of its arrangement) and every other seat,
/// each with its class's scoop rate ([`LaneTables::class_scoops`]), taken as independent.
/// Per class, `rate` = that rate to the power of the other seats' number; the extra units
/// paid are `scooped` per scoop plus `lost` times the lane units lost in it.
#[derive(Clone, Copy, Debug)]
struct Against {
    rate: [f32; CLASSES],
    scooped: f64,
    lost: f64,
}

impl Against {
    /// The expected extra units paid to one opponent's home run, from the split's sums over
    /// the classes of P(lose all three) and of the units lost then, each weighed by the
    /// classes' rates ([`class_sums`], the latter with `lanes` when `self.lost` is not 0).
    #[inline]
    fn units(&self, rated_pl: f64, rated_lost: f64) -> f64 {
        let lost_part = if self.lost != 0.0 {
            self.lost * rated_lost
        } else {
            0.0
        };
        self.scooped * rated_pl + lost_part
    }

    /// For a seat meeting every other seat (RULES.md 4, step 7): at a table of at least
    /// the home run's `min_players`, with classes in the tables and a home run that pays.
    fn new(rules: &Rules, ctx: Context, tables: &LaneTables) -> Option<Against> {
        if rules.mode != Mode::AllPairs || !rules.home_run.counts(ctx.players) {
            return None;
        }
        let scoops = tables.class_scoops()?;
        let others = ctx.players as i32 - 2;
        let rate = scoops.map(|s| pow_small(s, others) as f32);
        // What a scooped seat pays its scooper on top: units per scoop and a factor of the
        // lanes' units lost (RULES.md 5 steps 6 and 7).
        let (scooped, lost) = rules
            .home_run
            .extra_lanes(rules.scoop.after_lanes(rules.majority))?;
        Some(Against {
            rate,
            scooped,
            lost,
        })
    }
}

/// P(more lanes won than lost) − P(more lost than won), lanes independent.
fn majority_edge(f: [&Feat; 3]) -> f64 {
    // Distribution of (won − lost) over the three lanes, offset by 3: after `i` lanes only
    // the places `3 − i ..= 3 + i` can hold anything, so only they are spread (the others
    // hold exact zeros, whose terms would add nothing).
    let mut dist = [0.0f64; 7];
    dist[3] = 1.0;
    for (i, x) in f.into_iter().enumerate() {
        let mut next = [0.0f64; 7];
        for d in 3 - i..=3 + i {
            let p = dist[d];
            next[d + 1] += p * x.w;
            next[d - 1] += p * x.l;
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
    /// The tables' class rows for this seat, when they have classes (the joint events are
    /// then priced by [`joint`]).
    rows: Option<&'a ClassRows>,
    /// An opponent's home run that takes this seat in, when one can (with classes).
    against: Option<Against>,
}

/// A row of zeros, for a value without a class row (no lane of the rules' deck has one).
static NO_ROW: ClassRow = ClassRow {
    w: [0.0; CLASSES],
    l: [0.0; CLASSES],
    u: [0.0; CLASSES],
};

impl<'a> Scorer<'a> {
    pub(crate) fn new(rules: &'a Rules, ctx: Context, tables: &'a LaneTables) -> Self {
        let k = ctx.opponents_met(rules);
        let ties = match (
            rules.mode == Mode::Banker && rules.banker_wins_ties,
            ctx.role,
        ) {
            (false, _) => Ties::Drawn,
            (true, Role::Banker) => Ties::Mine,
            (true, Role::Player) => Ties::Theirs,
        };
        let home_run = rules.home_run.counts(ctx.players)
            && HomeRun::can_hit(rules.mode, ctx.role == Role::Banker)
            && k >= 1;
        // Only a scoop or a home run needs the joint events.
        let joint = rules.scoop.is_scored() || home_run;
        let rows = tables.class_rows(ties).filter(|_| joint);
        Scorer {
            rules,
            against: rows.and(Against::new(rules, ctx, tables)),
            rows,
            k: k as f64,
            hr_opponents: k as i32,
            home_run,
        }
    }

    /// Against one opponent: P(win all three lanes), P(lose all three) and the units the
    /// opponent collects over the three lanes when it wins all three (over the classes:
    /// only when a doubled scoop pays them again, else 0; lanes independent: the sum of the
    /// lanes' expected units paid when lost). Always inlined: the extension's build kept it
    /// a call of its own, its four results passed through memory.
    #[inline(always)]
    fn joint_events(&self, f: &Feat, m: &Feat, b: &Feat) -> (f64, f64, f64, f64) {
        if let Some(rows) = self.rows {
            let row = |lane: usize, r: u32| rows[lane].get(r as usize).unwrap_or(&NO_ROW);
            let paid = self.rules.scoop.kind == BonusKind::Double;
            let (fr, mr, br) = (row(0, f.row), row(1, m.row), row(2, b.row));
            let Some(a) = &self.against else {
                let [pw, pl, lost, _, _] = if paid {
                    class_sums::<true, false>(fr, mr, br, &NO_ROW.w)
                } else {
                    class_sums::<false, false>(fr, mr, br, &NO_ROW.w)
                };
                return (pw, pl, lost, 0.0);
            };
            // The per-class terms weighed by the rates, for the opponent's home run.
            let [pw, pl, lost, rated_pl, rated_lost] = if paid || a.lost != 0.0 {
                class_sums::<true, true>(fr, mr, br, &a.rate)
            } else {
                class_sums::<false, true>(fr, mr, br, &a.rate)
            };
            let lost_all = if paid { lost } else { 0.0 };
            (pw, pl, lost_all, a.units(rated_pl, rated_lost))
        } else {
            (
                f.w * m.w * b.w,
                f.l * m.l * b.l,
                f.paid + m.paid + b.paid,
                0.0,
            )
        }
    }

    #[inline]
    pub(crate) fn score(&self, f: &Feat, m: &Feat, b: &Feat) -> f64 {
        let r = self.rules;
        let mut per = f.gain + m.gain + b.gain;
        let (pw, pl, lost_all, home_run_against) = self.joint_events(f, m, b);
        let lanes_won = f.units + m.units + b.units;
        let mut scoop_win = lanes_won;
        if r.majority.is_scored() {
            per += r.majority.expected(majority_edge([f, m, b]));
            scoop_win += r.majority.units_f64();
        }
        // The expected result so far when scooped, weighed by P(scooped): over the classes the
        // lanes' part is already weighed.
        let lost = || {
            let mb = r.majority.units_f64();
            if self.rows.is_some() {
                lost_all + pl * mb
            } else {
                pl * (lost_all + mb)
            }
        };
        if let Some(scoop) = r.scoop.expected(pw, pl, scoop_win, lost) {
            per += scoop;
        }
        let mut total = self.k * (per - home_run_against);
        if self.home_run {
            let p_hr = pow_small(pw, self.hr_opponents);
            let each = r.scoop.after(scoop_win);
            total += p_hr * self.k * r.home_run.extra(each);
        }
        total
    }
}

/// `x` to the power `n`, as `powi` computes it (the same products in the same order), without
/// its call for the table sizes there are (at most three opponents, at most two others).
#[inline]
fn pow_small(x: f64, n: i32) -> f64 {
    match n {
        0 => 1.0,
        1 => x,
        2 => x * x,
        3 => x * (x * x),
        _ => x.powi(n),
    }
}

/// What the `ev` model believes of one split (RULES.md 5): the terms it prices, for reading
/// a choice (a development aid; `benches/explain.py` sets them against play).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Explained {
    /// Per lane (front, middle, back) against one opponent: (P(win), P(lose)); the rest of
    /// 1 is a draw. Card removal included when given.
    pub lanes: [(f64, f64); 3],
    /// P(win all three lanes) against one opponent (a scoop, 打枪).
    pub scoop: f64,
    /// P(lose all three lanes) against one opponent.
    pub scooped: f64,
    /// Expected units against the table: the score the search ranks splits by.
    pub units: f64,
}

/// The model's terms for a split with lane values `values` (front, middle, back) held by a
/// seat whose card-removal weights are `removal` ([`LaneTables::removal`], `None`: off).
/// `units` is what [`crate::strategy::search::best_splits`] scores the split.
pub fn explain(
    values: [HandValue; 3],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    removal: Option<&Removal>,
) -> Explained {
    let f = Lane::ALL.map(|lane| {
        features(
            values[lane as usize],
            lane,
            tables,
            rules,
            ctx.role,
            removal,
        )
    });
    let scorer = Scorer::new(rules, ctx, tables);
    let (scoop, scooped, ..) = scorer.joint_events(&f[0], &f[1], &f[2]);
    Explained {
        lanes: f.map(|x| (x.w, x.l)),
        scoop,
        scooped,
        units: scorer.score(&f[0], &f[1], &f[2]),
    }
}

/// Whether each lane's value never falls as the category rises, over the categories the
/// lane can hold under the rules' deck.
pub(crate) fn lane_values_monotone(rules: &Rules) -> bool {
    Lane::ALL
        .into_iter()
        .all(|lane| lane_value_rises(rules, lane))
}

/// Whether a lane's value never falls as the category rises, over the categories the lane
/// can hold: the front has no straights, flushes or full houses, and five of a kind needs
/// the extra-diamonds deck (RULES.md 3). Every term of the score is non-decreasing in such a
/// lane's hand value, whatever the other lanes' values.
pub(crate) fn lane_value_rises(rules: &Rules, lane: Lane) -> bool {
    let row = &rules.lane_values[lane as usize];
    lane_categories(rules, lane)
        .windows(2)
        .all(|w| row[w[0]] <= row[w[1]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::cards::{evaluate3, evaluate5};
    use crate::rules::{Majority, Scoop};
    use crate::strategy::lanes::{class_of, LaneCounts};

    #[test]
    fn pow_small_is_powi() {
        let spread = (0..1000).map(|i| (i as f64 * 0.618_033_988_749_895).fract());
        for x in [0.0, 1e-9, 0.5, 1.0].into_iter().chain(spread) {
            for n in 0..6 {
                assert_eq!(pow_small(x, n).to_bits(), x.powi(n).to_bits(), "{x} {n}");
            }
        }
    }

    fn v3(text: &str) -> HandValue {
        evaluate3(&parse_cards(text).unwrap().try_into().unwrap())
    }

    fn v5(text: &str) -> HandValue {
        evaluate5(
            &parse_cards(text).unwrap().try_into().unwrap(),
            crate::cards::Wheel::Low,
        )
    }

    #[test]
    fn envelope_is_the_most_a_category_up_to_this_one_is_worth() {
        // Front: a pair worth 9, trips 3 (two pair cannot be held in front). Middle: a full
        // house worth 4, quads 2, a straight flush 5.
        let mut rules = Rules::default();
        rules.lane_values[0] = [1, 9, 1, 3, 1, 1, 1, 1, 1, 1];
        rules.lane_values[1] = [1, 1, 1, 1, 1, 1, 4, 2, 5, 1];
        assert_eq!(
            lane_value_envelope(&rules, Lane::Front)[..4],
            [1, 9, 9, 9],
            "trips priced as the pair below them"
        );
        assert_eq!(
            lane_value_envelope(&rules, Lane::Middle)[..9],
            [1, 1, 1, 1, 1, 1, 4, 4, 5]
        );
        // Lane values that never fall are their own envelope.
        assert_eq!(
            lane_value_envelope(&rules, Lane::Back),
            rules.lane_values[2]
        );
    }

    #[test]
    fn classes_follow_the_front_and_the_middle() {
        let pair = v5("Ks Kh 7d 6c 3s");
        assert_eq!(class_of(v3("Ks Qh 9d"), pair), 0);
        assert_eq!(class_of(v3("8s 8h Ac"), pair), 4);
        assert_eq!(class_of(v3("9s 9h 2c"), pair), 8);
        assert_eq!(class_of(v3("As Ah Kc"), v5("2s 2h 3d 3c 9s")), 9);
        assert_eq!(class_of(v3("4s 4h 4c"), v5("2s 3h 4d 5c 6s")), 14);
        assert_eq!(class_of(v3("2s 3h 5c"), v5("2s 7s 9s Js Ks")), 3);
        assert_eq!(class_of(v3("2s 3h 5c"), v5("7s 7h 7d 7c Ks")), 3);
    }

    /// Opponents of two kinds, three weak hands (class 0) to one strong (class 15): a split
    /// between them wins every lane against the weak and loses every lane to the strong.
    fn tables(rules: &Rules, classes: bool) -> LaneTables {
        let weak = [v3("2s 3h 5c"), v5("2c 3d 4s 6h 8c"), v5("2h 3c 4d 6s 9c")];
        let strong = [v3("As Ad Ac"), v5("Ks Kh Kd Kc Qs"), v5("9h Th Jh Qh Kh")];
        let lanes: [Vec<(u32, u64)>; 3] =
            std::array::from_fn(|i| vec![(weak[i].raw(), 3), (strong[i].raw(), 1)]);
        let mut per: Vec<[Vec<(u32, u64)>; 3]> = vec![Default::default(); CLASSES];
        per[0] = std::array::from_fn(|i| vec![(weak[i].raw(), 3)]);
        per[15] = std::array::from_fn(|i| vec![(strong[i].raw(), 1)]);
        let counts = LaneCounts {
            lanes,
            classes: if classes { per } else { Vec::new() },
        };
        LaneTables::from_counts(&counts, rules)
    }

    /// The score of a split that wins every lane against the weak and loses every lane to
    /// the strong, at a table of `players`.
    fn expected(rules: &Rules, classes: bool, players: usize) -> f64 {
        let t = tables(rules, classes);
        let ctx = Context {
            players,
            role: Role::Player,
        };
        let feat = |v, lane| features(v, lane, &t, rules, Role::Player, None);
        Scorer::new(rules, ctx, &t).score(
            &feat(v3("Ks Qh 9d"), Lane::Front),
            &feat(v5("Ks Kh 7d 6c 3s"), Lane::Middle),
            &feat(v5("2s 2h 5d 5c 9s"), Lane::Back),
        )
    }

    #[test]
    fn a_scoop_is_priced_over_the_whole_hand() {
        // Every lane worth 1; each lane won 3/4, lost 1/4: 1/2 a lane, 1.5 in all. With
        // classes all three are won with P 3/4 and lost with P 1/4; lanes independent, with
        // P 27/64 and 1/64.
        // A scoop bonus of 6: 1.5 + 6 × (3/4 − 1/4) = 4.5; independent 1.5 + 6 × 26/64.
        // A doubled scoop (three lanes of 1 won or lost again): 1.5 + 3 × 3/4 − 3 × 1/4 = 3;
        // independent 1.5 + 3 × 27/64 − 3 × 1/64 = 2.71875.
        // A majority bonus of 1 (no scoop) stays priced with lanes independent (the mixture
        // measured no gain heads-up, at 1.65× the time): two lanes or more of three won with
        // P 54/64 and lost with 10/64: 1.5 + 44/64 = 2.1875 either way.
        for (scoop, majority, mixed, lanes_only) in [
            (Scoop::bonus(6), 0, 4.5, 1.5 + 2.4375),
            (Scoop::double(), 0, 3.0, 2.71875),
            (Scoop::NONE, 1, 2.1875, 2.1875),
        ] {
            let rules = Rules {
                scoop,
                majority: Majority { units: majority },
                ..Rules::default()
            };
            let (got, lanes) = (expected(&rules, true, 2), expected(&rules, false, 2));
            assert!((got - mixed).abs() < 1e-6, "{scoop:?} {majority}: {got}");
            assert!(
                (lanes - lanes_only).abs() < 1e-6,
                "{scoop:?} {majority}: {lanes}"
            );
        }
    }

    #[test]
    fn scoop_rates_are_read_from_the_classes() {
        // The weak class (weight 3/4) ties the weak in every lane and loses every lane to
        // the strong: it never scoops. The strong class scoops the weak (3/4 of seats) and
        // ties the strong.
        let t = tables(&Rules::default(), true);
        let s = t.class_scoops().expect("classes");
        assert!(s[0].abs() < 1e-12, "{s:?}");
        assert!((s[15] - 0.75).abs() < 1e-12, "{s:?}");
        assert!(s[1..15].iter().all(|&x| x == 0.0), "{s:?}");
        assert_eq!(tables(&Rules::default(), false).class_scoops(), None);
    }

    #[test]
    fn an_opponents_home_run_is_priced() {
        // The split wins every lane against the weak (P 3/4) and loses every lane to the
        // strong (P 1/4), lanes worth 1; the strong class scoops another seat with P 3/4.
        let score = |rules: &Rules, players: usize| expected(rules, true, players);
        // Scoop +6, home run +12 from each at 4 players. Per opponent: lanes 1.5, scoop
        // 6 × (3/4 − 1/4) = 3; three opponents: 13.5. Mine: all three scooped with P 27/64,
        // 12 from each: 15.1875. Theirs: a strong opponent (1/4) scoops me and both others
        // ((3/4)²): 12 × 1/4 × 9/16 = 1.6875 from me, for each of three: 5.0625.
        let bonus = Rules {
            scoop: Scoop::bonus(6),
            home_run: HomeRun::bonus(12, 4),
            ..Rules::default()
        };
        let got = score(&bonus, 4);
        assert!((got - (13.5 + 15.1875 - 5.0625)).abs() < 1e-5, "{got}");
        // At 3 players the home run needs 4: lanes and scoops only, two opponents.
        let got = score(&bonus, 3);
        assert!((got - 9.0).abs() < 1e-5, "{got}");
        // Doubled scoop and home run from 3 players. Per opponent: 1.5 + 3 × 3/4 − 3 × 1/4
        // = 3; two: 6. Mine: P 9/16 of scooping both, each pair's 6 doubled again: 9/16 × 2
        // × 6 = 6.75. Theirs: the strong scoops me (1/4, 3 lanes doubled: 6) and the other
        // seat (3/4), doubling the 6 again: 6 × 1/4 × 3/4 = 1.125, for each of two: 2.25.
        let double = Rules {
            scoop: Scoop::double(),
            home_run: HomeRun::double(3),
            ..Rules::default()
        };
        let got = score(&double, 3);
        assert!((got - (6.0 + 6.75 - 2.25)).abs() < 1e-5, "{got}");
        // In banker mode only the banker hits a home run: no opponent's is priced.
        let banker = Rules {
            mode: Mode::Banker,
            ..bonus
        };
        let ctx = Context {
            players: 4,
            role: Role::Banker,
        };
        let t = tables(&banker, true);
        assert!(Against::new(&banker, ctx, &t).is_none());
    }

    /// Each class's terms, sixteen classes at a time, then added in the tree order, as the
    /// model was first written: what [`class_sums`] must equal to the bit.
    fn class_sums_by_class(
        f: &ClassRow,
        m: &ClassRow,
        b: &ClassRow,
        lanes: bool,
        rate: &[f32; CLASSES],
    ) -> [f64; 5] {
        let sum16 = |x: [f32; CLASSES]| {
            let h: [f32; 8] = std::array::from_fn(|i| x[i] + x[i + 8]);
            let q: [f32; 4] = std::array::from_fn(|i| h[i] + h[i + 4]);
            ((q[0] + q[2]) + (q[1] + q[3])) as f64
        };
        let pw = std::array::from_fn(|k| f.w[k] * m.w[k] * b.w[k]);
        let pl: [f32; CLASSES] = std::array::from_fn(|k| f.l[k] * m.l[k] * b.l[k]);
        let lost: [f32; CLASSES] = std::array::from_fn(|k| {
            if lanes {
                let ml = m.l[k] * b.l[k];
                f.u[k] * ml + f.l[k] * (m.u[k] * b.l[k] + m.l[k] * b.u[k])
            } else {
                0.0
            }
        });
        [
            sum16(pw),
            sum16(pl),
            sum16(lost),
            sum16(std::array::from_fn(|k| pl[k] * rate[k])),
            sum16(std::array::from_fn(|k| lost[k] * rate[k])),
        ]
    }

    #[test]
    fn class_sums_equal_the_terms_taken_class_by_class_to_the_bit() {
        use rand::Rng;
        let mut rng = crate::deal::rng_for(7);
        let mut next = |scale: f32| rng.random::<f32>() * scale;
        let mut row = |scale: f32| ClassRow {
            w: std::array::from_fn(|_| next(1.0)),
            l: std::array::from_fn(|_| next(1.0)),
            u: std::array::from_fn(|_| next(scale)),
        };
        let bits = |s: [f64; 5]| s.map(f64::to_bits);
        for _ in 0..2000 {
            let (f, m, b) = (row(3.0), row(20.0), row(10.0));
            let rate: [f32; CLASSES] = row(1.0).w;
            let no_rate = |s: [f64; 5]| [s[0], s[1], s[2], 0.0, 0.0];
            assert_eq!(
                bits(class_sums::<true, true>(&f, &m, &b, &rate)),
                bits(class_sums_by_class(&f, &m, &b, true, &rate))
            );
            assert_eq!(
                bits(class_sums::<false, true>(&f, &m, &b, &rate)),
                bits(class_sums_by_class(&f, &m, &b, false, &rate))
            );
            assert_eq!(
                bits(class_sums::<true, false>(&f, &m, &b, &rate)),
                bits(no_rate(class_sums_by_class(&f, &m, &b, true, &rate)))
            );
            assert_eq!(
                bits(class_sums::<false, false>(&f, &m, &b, &rate)),
                bits(no_rate(class_sums_by_class(&f, &m, &b, false, &rate)))
            );
        }
    }
}
