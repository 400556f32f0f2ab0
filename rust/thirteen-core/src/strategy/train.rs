//! Training of the lane tables ([`crate::strategy::lanes`]) by fictitious play.
//!
//! Iteration 0 arranges every hand of `deals` random tables greedily (or by `ev` on warm-start
//! tables); iteration `t` arranges fresh deals by `ev` on the tables of the average so far, a
//! best response to it, and counts the lane values played. The tables are the average of all
//! iterations' counts, iteration `t` weighted `t + 1` (linear averaging: early, poor
//! iterations fade). Each iteration reports two Kolmogorov–Smirnov distances (the largest gap
//! between two cumulative distributions of a lane's value, the largest over the three lanes):
//! `change`, between the averaged tables before and after it, and `gap`, between its best
//! response and the average it answered. Training stops after `iterations`, or earlier once
//! `change` falls below `tolerance`.
//!
//! Deals are seeded per iteration and deal, every hand is solved independently and the
//! counts are integers, so the result is the same for the same arguments on any number of
//! threads.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::ops::Range;

use rayon::prelude::*;

use crate::cards::Card;
use crate::cards::HandValue;
use crate::deal::{rng_at, shuffle};
use crate::error::{Error, Lane};
use crate::given::Plain;
use crate::limits::{Limit, TRAIN_DEAL, TRAIN_DEALS, TRAIN_ITERATIONS};
use crate::rules::{Mode, Rules};
use crate::score::Submission;
use crate::strategy::keep::solve_ev_keep;
use crate::strategy::lane_counts::lanes_from_plain;
use crate::strategy::lanes::{check_classes, class_of, LaneCounts, LanePairs, LaneTables, CLASSES};
use crate::strategy::model::{Context, Role};
use crate::strategy::solve::{play, Strategy};

/// What to train.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Table size played (2 to 4).
    pub players: usize,
    /// Random tables dealt per iteration.
    pub deals: usize,
    /// Most iterations (iteration 0 included).
    pub iterations: usize,
    /// Stop once an iteration's `change` is below this (0: run every iteration).
    pub tolerance: f64,
    /// Seed of the deals.
    pub seed: u64,
}

impl TrainConfig {
    /// Checks a run under `rules`: a table size some rule set allows
    /// ([`crate::limits::TABLE_SIZE`]) and these rules do ([`Error::BadPlayerCount`]), deals in [`TRAIN_DEALS`] and iterations in
    /// [`TRAIN_ITERATIONS`] ([`Error::OutOfRange`]), a tolerance that is a number at least 0
    /// ([`Error::InvalidArgument`]).
    pub fn check(&self, rules: &Rules) -> crate::Result<()> {
        check_table_size(self.players)?;
        TRAIN_DEALS.check(i64::try_from(self.deals).unwrap_or(i64::MAX))?;
        TRAIN_ITERATIONS.check(i64::try_from(self.iterations).unwrap_or(i64::MAX))?;
        if !self.tolerance.is_finite() || self.tolerance < 0.0 {
            return Err(Error::InvalidArgument {
                message: format!(
                    "tolerance must be a number at least 0, got {}",
                    self.tolerance
                ),
            });
        }
        rules.check_players(self.players as i64).map(|_| ())
    }
}

/// [`Error::BadPlayerCount`] unless some rule set allows a table of `players`
/// ([`Rules::check_table_size`]).
fn check_table_size(players: usize) -> crate::Result<()> {
    Rules::check_table_size(i64::try_from(players).unwrap_or(i64::MAX)).map(|_| ())
}

/// One iteration of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterationReport {
    /// Iteration number, from 0.
    pub iteration: usize,
    /// Hands arranged and counted (declared specials are not counted).
    pub hands: usize,
    /// KS distance between the averaged tables before and after this iteration (1 for
    /// iteration 0).
    pub change: f64,
    /// KS distance between this iteration's best response and the tables it answered
    /// (1 for iteration 0 without warm start).
    pub gap: f64,
}

type Maps = [BTreeMap<u32, u64>; 3];

fn pairs(maps: &Maps) -> [Vec<(u32, u64)>; 3] {
    std::array::from_fn(|i| maps[i].iter().map(|(&v, &c)| (v, c)).collect())
}

fn to_counts(maps: &Maps, classes: &[Maps]) -> LaneCounts {
    LaneCounts {
        lanes: pairs(maps),
        classes: classes.iter().map(pairs).collect(),
    }
}

/// Adds `from`'s counts, each times `weight`, to `to`.
fn add_maps(to: &mut Maps, from: &Maps, weight: u64) {
    for lane in 0..3 {
        for (&v, &c) in &from[lane] {
            let slot = to[lane].entry(v).or_insert(0);
            *slot = slot.saturating_add(c.saturating_mul(weight));
        }
    }
}

/// Largest difference of the two cumulative distributions (each normalised by its total).
fn ks(a: &BTreeMap<u32, u64>, b: &BTreeMap<u32, u64>) -> f64 {
    let (ta, tb) = (a.values().sum::<u64>(), b.values().sum::<u64>());
    if ta == 0 || tb == 0 {
        return 1.0;
    }
    let (mut ca, mut cb) = (0u64, 0u64);
    let mut worst = 0.0f64;
    let mut ia = a.iter().peekable();
    let mut ib = b.iter().peekable();
    loop {
        let next = match (ia.peek(), ib.peek()) {
            (None, None) => break,
            (Some(x), None) => *x.0,
            (None, Some(y)) => *y.0,
            (Some(x), Some(y)) => (*x.0).min(*y.0),
        };
        while let Some((&v, &c)) = ia.peek() {
            if v != next {
                break;
            }
            ca += c;
            ia.next();
        }
        while let Some((&v, &c)) = ib.peek() {
            if v != next {
                break;
            }
            cb += c;
            ib.next();
        }
        worst = worst.max((ca as f64 / ta as f64 - cb as f64 / tb as f64).abs());
    }
    worst
}

fn ks3(a: &Maps, b: &Maps) -> f64 {
    (0..3).map(|i| ks(&a[i], &b[i])).fold(0.0, f64::max)
}

/// The lane values counted over some deals of one iteration: for each lane (front, middle,
/// back) how many arranged hands played each value, over all hands and per class of the
/// arrangement ([`class_of`]). Declared specials are not counted, so every lane's counts sum
/// to the number of arranged hands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IterationCounts {
    /// Per lane, value (as [`crate::HandValue::raw`]) to number of hands.
    pub lanes: [BTreeMap<u32, u64>; 3],
    /// The same per class ([`CLASSES`] entries once anything is counted).
    pub classes: Vec<[BTreeMap<u32, u64>; 3]>,
}

impl IterationCounts {
    /// The counts a caller returned for a whole iteration of `cfg` (`lanes`: each lane's
    /// `(value, hands)` pairs, repeated values added up; `classes`, when given, the same per
    /// class), checked: every lane counts the same hands, at most the `players × deals` of
    /// an iteration, and the classes add up to the lanes ([`check_classes`]). Errors:
    /// [`Error::InvalidArgument`] naming what does not fit.
    pub fn returned(
        lanes: LanePairs,
        classes: Option<Vec<LanePairs>>,
        cfg: &TrainConfig,
    ) -> crate::Result<IterationCounts> {
        let most = cfg.players.saturating_mul(cfg.deals);
        let mut counts = IterationCounts::default();
        for (map, pairs) in counts.lanes.iter_mut().zip(lanes) {
            for (v, c) in pairs {
                let slot = map.entry(v).or_insert(0);
                *slot = slot.saturating_add(c);
            }
        }
        let hands: Vec<u64> = (counts.lanes.iter())
            .map(|l| l.values().fold(0u64, |a, &c| a.saturating_add(c)))
            .collect();
        if hands[1] != hands[0] || hands[2] != hands[0] || hands[0] > most as u64 {
            return Err(Error::InvalidArgument {
                message: format!(
                    "count returned {} front, {} middle and {} back values; every lane counts \
                     the same hands, at most {most}",
                    hands[0], hands[1], hands[2]
                ),
            });
        }
        if let Some(classes) = classes {
            check_classes(&pairs(&counts.lanes), &classes)?;
            counts.classes = (classes.into_iter())
                .map(|c| std::array::from_fn(|i| c[i].iter().copied().collect()))
                .collect();
        }
        Ok(counts)
    }

    /// What a `count` callback returned for a whole iteration of `cfg`, given as plain data:
    /// a map of the three lanes' `(value, count)` tuples and, optionally, under `classes`,
    /// the same per class ([`LaneCounts::classes_from_plain`]), then checked as
    /// [`IterationCounts::returned`]. Errors: [`Error::WrongType`] for another shape,
    /// [`Error::InvalidArgument`] for keys missing or too many, and those of the pairs.
    pub fn from_plain(out: &Plain, cfg: &TrainConfig) -> crate::Result<IterationCounts> {
        let Plain::Map(keys) = out else {
            return Err(Error::WrongType {
                message: format!(
                    "count must return a dict of the lanes' counts, not {}",
                    out.kind()
                ),
            });
        };
        let classes = out.get("classes");
        if keys.len() != Lane::ALL.len() + classes.is_some() as usize {
            return Err(Error::InvalidArgument {
                message: format!(
                    "count must return the counts of front, middle and back (and of their \
                     classes), got {} keys",
                    keys.len()
                ),
            });
        }
        let lanes = lanes_from_plain(out, |lane| {
            format!("count returned no {} counts", lane.key())
        })?;
        let classes = classes.map(LaneCounts::classes_from_plain).transpose()?;
        IterationCounts::returned(lanes, classes, cfg)
    }

    /// These counts as sorted `(value, hands)` pairs, lane by lane and class by class.
    pub fn to_counts(&self) -> LaneCounts {
        to_counts(&self.lanes, &self.classes)
    }

    /// Hands counted (the sum of one lane's counts).
    pub fn hands(&self) -> u64 {
        self.lanes[0].values().sum()
    }

    /// Adds `other`'s counts to these (counts of disjoint deal ranges add up to the counts
    /// of their union).
    pub fn add(&mut self, other: &IterationCounts) {
        add_maps(&mut self.lanes, &other.lanes, 1);
        if self.classes.len() < other.classes.len() {
            self.classes
                .resize_with(other.classes.len(), Default::default);
        }
        for (to, from) in self.classes.iter_mut().zip(&other.classes) {
            add_maps(to, from, 1);
        }
    }

    /// Counts one arranged hand's lane values.
    pub fn count(&mut self, values: [u32; 3]) {
        if self.classes.len() < CLASSES {
            self.classes.resize_with(CLASSES, Default::default);
        }
        let k = class_of(HandValue(values[0]), HandValue(values[1]));
        for (lane, &value) in values.iter().enumerate() {
            *self.lanes[lane].entry(value).or_insert(0) += 1;
            *self.classes[k][lane].entry(value).or_insert(0) += 1;
        }
    }
}

/// The lane values played at deals `deals` (of `0..cfg.deals`) of iteration `it`, every
/// hand arranged by `strategy` on `tables`, as `solve` arranges it (with card removal when
/// the tables have it, [`crate::strategy::removal`]: the counts are of the strategy that is played, so
/// the averaged tables are its fixed point). Deal `d` of iteration `it` is shuffled from its
/// own seed, so the counts of a range do not depend on the other ranges or on the threads:
/// splitting `0..cfg.deals` into ranges and adding their counts gives the counts of the
/// whole iteration.
pub fn iteration_counts(
    rules: &Rules,
    tables: &LaneTables,
    strategy: Strategy,
    cfg: &TrainConfig,
    it: usize,
    deals: Range<usize>,
) -> IterationCounts {
    let players = cfg.players;
    let values: Vec<[u32; 3]> = deals
        .into_par_iter()
        .flat_map_iter(|d| {
            let mut deck = rules.deck.cards();
            let mut rng = rng_at(cfg.seed, it as u64, d as u64);
            shuffle(&mut deck, &mut rng);
            let dealt = rules.dealt as usize;
            let mut out = Vec::with_capacity(players);
            for p in 0..players {
                let hand_cards = &deck[dealt * p..dealt * (p + 1)];
                let ctx = Context {
                    players,
                    role: if rules.mode == Mode::Banker && p == 0 {
                        Role::Banker
                    } else {
                        Role::Player
                    },
                };
                let hand: [Card; 13] = if dealt == 13 {
                    hand_cards.try_into().expect("13")
                } else if strategy == Strategy::Greedy {
                    hand_cards[..13].try_into().expect("13")
                } else {
                    solve_ev_keep(hand_cards, rules, tables, ctx)
                        .0
                        .try_into()
                        .expect("13")
                };
                if let Submission::Arranged(a) = play(&hand, rules, tables, ctx, strategy) {
                    out.push(a.values(rules.wheel).map(|v| v.raw()));
                }
            }
            out
        })
        .collect();
    let mut counts = IterationCounts::default();
    for v in &values {
        counts.count(*v);
    }
    counts
}

/// The deals `start..stop` of a training iteration counted in shards, checked: `stop` in
/// [`TRAIN_DEAL`], `start` from 0 to `stop` ([`Error::OutOfRange`]).
pub fn deal_range(start: i64, stop: i64) -> crate::Result<Range<usize>> {
    let stop = TRAIN_DEAL.index(stop)?;
    Ok(Limit::new("start", 0, stop as i64).index(start)?..stop)
}

/// [`iteration_counts`] of iteration `iteration` (from 0) of a run of `players` seeded by
/// `seed`, over `deals`, as a shard of a training run counts them: greedily (`greedy`) or
/// by `ev` on `tables`. Errors: [`Error::BadPlayerCount`] for a table size the strategies do
/// not price, [`Error::InvalidArgument`] for `ev` without tables.
pub fn shard_counts(
    rules: &Rules,
    tables: Option<&LaneTables>,
    greedy: bool,
    (players, seed): (usize, u64),
    iteration: usize,
    deals: Range<usize>,
) -> crate::Result<IterationCounts> {
    check_table_size(players)?;
    let empty = LaneTables::default();
    let (strategy, tables) = match (greedy, tables) {
        (true, t) => (Strategy::Greedy, t.unwrap_or(&empty)),
        (false, Some(t)) => (Strategy::Ev, t),
        (false, None) => {
            return Err(Error::InvalidArgument {
                message: "ev needs the tables it answers (greedy=True plays without)".into(),
            })
        }
    };
    let cfg = TrainConfig {
        players,
        deals: deals.end,
        iterations: iteration + 1,
        tolerance: 0.0,
        seed,
    };
    Ok(iteration_counts(
        rules, tables, strategy, &cfg, iteration, deals,
    ))
}

/// Trains lane tables for `cfg.players` under `rules` (see the module docs). `warm`, when
/// given, is the strategy of iteration 0 instead of the greedy one. `report` is called after
/// every iteration; returning `false` stops the run there. Returns the averaged counts.
pub fn train(
    rules: &Rules,
    cfg: &TrainConfig,
    warm: Option<&LaneCounts>,
    report: impl FnMut(&IterationReport) -> bool,
) -> LaneCounts {
    let count = |it: usize, strategy: Strategy, answered: &Answered| {
        Ok::<_, Infallible>(iteration_counts(
            rules,
            answered.tables(),
            strategy,
            cfg,
            it,
            0..cfg.deals,
        ))
    };
    match train_with(rules, cfg, warm, count, report) {
        Ok(counts) => counts,
        Err(never) => match never {},
    }
}

/// The tables an iteration answers: their counts, and the tables built from them
/// ([`LaneTables::from_counts`]) when first asked for (a `count` that plays elsewhere sends
/// the counts and never needs them here).
pub struct Answered<'a> {
    counts: Option<&'a LaneCounts>,
    rules: &'a Rules,
    tables: OnceCell<LaneTables>,
}

impl<'a> Answered<'a> {
    /// The tables of `counts` under `rules` (`None`: the empty tables of a greedy start).
    pub fn new(counts: Option<&'a LaneCounts>, rules: &'a Rules) -> Answered<'a> {
        Answered {
            counts,
            rules,
            tables: OnceCell::new(),
        }
    }

    /// The counts the tables are built from (`None` for the empty tables).
    pub fn counts(&self) -> Option<&'a LaneCounts> {
        self.counts
    }

    /// The tables, built on the first call.
    pub fn tables(&self) -> &LaneTables {
        (self.tables).get_or_init(|| {
            self.counts.map_or_else(LaneTables::default, |c| {
                LaneTables::from_counts(c, self.rules)
            })
        })
    }
}

/// [`train`] with the counting of each iteration's deals left to `count`, which may play
/// them elsewhere (other processes or machines, in ranges whose counts it adds up with
/// [`IterationCounts::add`] or [`IterationCounts::from_packed`]). `count(it, strategy,
/// answered)` must return the counts of [`iteration_counts`] over `0..cfg.deals` for
/// iteration `it`, `strategy` and the tables of `answered` (their counts, `None` for the
/// empty tables of a greedy iteration 0; the tables are built here only if `count` asks for
/// them). The first error of `count` stops the run and is returned.
pub fn train_with<E>(
    rules: &Rules,
    cfg: &TrainConfig,
    warm: Option<&LaneCounts>,
    mut count: impl FnMut(usize, Strategy, &Answered) -> Result<IterationCounts, E>,
    mut report: impl FnMut(&IterationReport) -> bool,
) -> Result<LaneCounts, E> {
    let mut avg: Maps = Default::default();
    // The classes' counts, kept only while every iteration that counted hands brought them
    // (a `count` may return the lanes alone): else they would not add up to the lanes.
    let mut avg_classes: Option<Vec<Maps>> = Some(Vec::new());
    let mut built: Option<LaneCounts> = warm.cloned();
    let warm_maps: Option<Maps> =
        warm.map(|c| std::array::from_fn(|i| c[i].iter().copied().collect()));
    for it in 0..cfg.iterations.max(1) {
        let strategy = if it == 0 && warm.is_none() {
            Strategy::Greedy
        } else {
            Strategy::Ev
        };
        let fresh = count(it, strategy, &Answered::new(built.as_ref(), rules))?;
        let hands = fresh.hands() as usize;
        let IterationCounts {
            lanes: fresh,
            classes: fresh_classes,
        } = fresh;
        let gap = match (it, &warm_maps) {
            (0, Some(w)) => ks3(&fresh, w),
            (0, None) => 1.0,
            _ => ks3(&fresh, &avg),
        };
        let before = avg.clone();
        let weight = it as u64 + 1;
        add_maps(&mut avg, &fresh, weight);
        if hands > 0 && fresh_classes.len() != CLASSES {
            avg_classes = None;
        }
        if let Some(avg_classes) = avg_classes.as_mut() {
            if avg_classes.len() < fresh_classes.len() {
                avg_classes.resize_with(fresh_classes.len(), Default::default);
            }
            for (to, from) in avg_classes.iter_mut().zip(&fresh_classes) {
                add_maps(to, from, weight);
            }
        }
        let change = if it == 0 { 1.0 } else { ks3(&avg, &before) };
        built = Some(to_counts(&avg, avg_classes.as_deref().unwrap_or_default()));
        let go_on = report(&IterationReport {
            iteration: it,
            hands,
            change,
            gap,
        });
        if !go_on || (it > 0 && change < cfg.tolerance) {
            break;
        }
    }
    Ok(to_counts(&avg, avg_classes.as_deref().unwrap_or_default()))
}

/// Self-play tables as [`train`] makes them, running every one of `iterations` (kept for
/// callers that ask for a fixed amount of work).
pub fn build_tables(
    rules: &Rules,
    players: usize,
    deals: usize,
    iterations: usize,
    seed: u64,
) -> LaneCounts {
    let cfg = TrainConfig {
        players,
        deals,
        iterations,
        tolerance: 0.0,
        seed,
    };
    train(rules, &cfg, None, |_| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(u32, u64)]) -> BTreeMap<u32, u64> {
        pairs.iter().copied().collect()
    }

    #[test]
    fn ks_distance_by_hand() {
        // a: 1/4 at 1, 3/4 at 3; b: 1/2 at 2, 1/2 at 3. CDFs at 1: 0.25 vs 0; at 2: 0.25 vs
        // 0.5; at 3: 1 vs 1. Largest gap 0.25.
        let a = map(&[(1, 1), (3, 3)]);
        let b = map(&[(2, 5), (3, 5)]);
        assert!((ks(&a, &b) - 0.25).abs() < 1e-12);
        assert_eq!(ks(&a, &a), 0.0);
        assert_eq!(ks(&a, &BTreeMap::new()), 1.0);
    }

    #[test]
    fn training_is_reproducible_and_converges() {
        let rules = Rules::default();
        let cfg = TrainConfig {
            players: 4,
            deals: 150,
            iterations: 6,
            tolerance: 0.0,
            seed: 9,
        };
        let mut log = Vec::new();
        let a = train(&rules, &cfg, None, |r| {
            log.push(*r);
            true
        });
        let b = train(&rules, &cfg, None, |_| true);
        assert_eq!(a, b);
        assert_eq!(log.len(), 6);
        // The classes split the same weighted hands: value by value they add up to the lanes,
        // and each class holds the hands of its front and middle only.
        assert_eq!(a.classes.len(), CLASSES);
        for lane in 0..3 {
            let mut sum = BTreeMap::new();
            for c in &a.classes {
                for &(v, n) in &c[lane] {
                    *sum.entry(v).or_insert(0u64) += n;
                }
            }
            assert_eq!(sum, map(&a.lanes[lane]));
        }
        for (k, c) in a.classes.iter().enumerate() {
            for &(f, _) in &c[0] {
                for &(m, _) in &c[1] {
                    let (fk, mk) = (class_of(HandValue(f), HandValue(m)) / 4, k / 4);
                    assert_eq!(fk, mk, "front of class {k}");
                    assert_eq!(class_of(HandValue(f), HandValue(m)) % 4, k % 4, "middle");
                }
            }
        }
        // 150 tables of 4: 600 hands per iteration, all arranged (no specials recognised).
        assert!(log.iter().all(|r| r.hands == 600));
        // Linear averaging: iteration t moves the average by at most 2 (t + 1) / ((t + 1)(t + 2)).
        for r in &log[1..] {
            let t = r.iteration as f64;
            assert!(r.change <= 2.0 / (t + 2.0) + 1e-12, "{r:?}");
        }
        // Weighted totals: 600 × (1 + 2 + ... + 6) per lane.
        let total: u64 = a[0].iter().map(|p| p.1).sum();
        assert_eq!(total, 600 * 21);
        // Stopping early at a tolerance.
        let loose = TrainConfig {
            tolerance: 0.9,
            ..cfg
        };
        let mut n = 0;
        train(&rules, &loose, None, |_| {
            n += 1;
            true
        });
        assert_eq!(n, 2);
    }

    #[test]
    fn counts_of_deal_ranges_add_up_to_the_iteration() {
        let rules = Rules::default();
        let cfg = TrainConfig {
            players: 3,
            deals: 40,
            iterations: 1,
            tolerance: 0.0,
            seed: 4,
        };
        let tables = LaneTables::default();
        let whole = iteration_counts(&rules, &tables, Strategy::Greedy, &cfg, 2, 0..40);
        // 40 tables of 3 hands, every hand arranged (the default rules recognise no special).
        assert_eq!(whole.hands(), 120);
        let mut parts = IterationCounts::default();
        for r in [0..7, 7..8, 8..8, 8..40] {
            parts.add(&iteration_counts(
                &rules,
                &tables,
                Strategy::Greedy,
                &cfg,
                2,
                r,
            ));
        }
        assert_eq!(parts, whole);
        // Another iteration deals other cards.
        let other = iteration_counts(&rules, &tables, Strategy::Greedy, &cfg, 3, 0..40);
        assert_ne!(other, whole);
    }

    #[test]
    fn seeds_that_differ_in_their_low_bits_deal_other_cards() {
        // Seeds 4 and 5 (and 6) differ below the deal count: mixed into one word with the
        // deal's index by exclusive or, they would deal the same 40 decks in another order,
        // and the counts, a sum over the deals, would be equal.
        let rules = Rules::default();
        let tables = LaneTables::default();
        let counts = |seed: u64| {
            let cfg = TrainConfig {
                players: 3,
                deals: 40,
                iterations: 1,
                tolerance: 0.0,
                seed,
            };
            iteration_counts(&rules, &tables, Strategy::Greedy, &cfg, 2, 0..40)
        };
        let four = counts(4);
        assert_ne!(counts(5), four);
        assert_ne!(counts(6), four);
        assert_eq!(counts(4), four);
    }

    #[test]
    fn self_play_counts_the_plays_solve_makes() {
        // The counts are the fixed point's data: each hand as `play` arranges it on the same
        // tables, card removal included (it changes some plays, so the counts differ).
        let rules = Rules::default();
        let cfg = TrainConfig {
            players: 4,
            deals: 40,
            iterations: 1,
            tolerance: 0.0,
            seed: 21,
        };
        let tables = LaneTables::from_counts(&build_tables(&rules, 4, 200, 2, 8), &rules);
        assert!(tables.card_removal());
        let it = 3;
        let counted = iteration_counts(&rules, &tables, Strategy::Ev, &cfg, it, 0..40);
        let mut want = IterationCounts::default();
        for d in 0..40u64 {
            let mut deck = rules.deck.cards();
            shuffle(&mut deck, &mut rng_at(21, 3, d));
            for p in 0..4 {
                let hand: [Card; 13] = deck[13 * p..13 * p + 13].try_into().unwrap();
                let ctx = Context {
                    players: 4,
                    role: Role::Player,
                };
                if let Submission::Arranged(a) = play(&hand, &rules, &tables, ctx, Strategy::Ev) {
                    want.count(a.values(rules.wheel).map(|v| v.raw()));
                }
            }
        }
        assert_eq!(counted, want);
        let plain = tables.clone().with_card_removal(false);
        let without = iteration_counts(&rules, &plain, Strategy::Ev, &cfg, it, 0..40);
        assert_eq!(without.hands(), counted.hands());
        assert_ne!(without, counted);
    }

    #[test]
    fn training_with_counts_in_ranges_gives_the_same_tables() {
        let rules = Rules::default();
        let cfg = TrainConfig {
            players: 2,
            deals: 30,
            iterations: 3,
            tolerance: 0.0,
            seed: 12,
        };
        let mut local = Vec::new();
        let a = train(&rules, &cfg, None, |r| {
            local.push(*r);
            true
        });
        let mut seen = Vec::new();
        let mut ranged = Vec::new();
        let b = train_with(
            &rules,
            &cfg,
            None,
            |it, strategy, answered| {
                let counts = answered.counts();
                seen.push((it, strategy, counts.map(|c| c[0].len())));
                // Rebuild the tables from the counts handed over, as a remote worker does.
                let tables =
                    counts.map_or_else(LaneTables::default, |c| LaneTables::from_counts(c, &rules));
                let mut total = IterationCounts::default();
                for r in [0..11, 11..30] {
                    total.add(&iteration_counts(&rules, &tables, strategy, &cfg, it, r));
                }
                Ok::<_, ()>(total)
            },
            |r| {
                ranged.push(*r);
                true
            },
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(local, ranged);
        assert_eq!(seen[0].0, 0);
        assert_eq!(seen[0].1, Strategy::Greedy);
        assert_eq!(seen[0].2, None);
        assert!(seen[1..]
            .iter()
            .all(|s| s.1 == Strategy::Ev && s.2.is_some()));
        // An error of the counting stops the run and comes back.
        let mut calls = 0;
        let failed = train_with(
            &rules,
            &cfg,
            None,
            |_, _, _| {
                calls += 1;
                if calls == 2 {
                    Err("lost a worker")
                } else {
                    Ok(IterationCounts::default())
                }
            },
            |_| true,
        );
        assert_eq!(failed, Err("lost a worker"));
        assert_eq!(calls, 2);
    }

    #[test]
    fn a_run_is_checked_before_it_starts() {
        let rules = Rules {
            players: vec![2, 3],
            ..Rules::default()
        };
        let cfg = TrainConfig {
            players: 2,
            deals: 10,
            iterations: 2,
            tolerance: 0.0,
            seed: 1,
        };
        assert_eq!(cfg.check(&rules), Ok(()));
        let with = |f: &dyn Fn(&mut TrainConfig)| {
            let mut c = cfg;
            f(&mut c);
            c.check(&rules).unwrap_err()
        };
        // Five players: not a size the strategies price; four: not one these rules allow.
        let five = with(&|c| c.players = 5);
        assert!(matches!(five, Error::BadPlayerCount { ref allowed, .. } if allowed == &[2, 3, 4]));
        let four = with(&|c| c.players = 4);
        assert!(matches!(four, Error::BadPlayerCount { ref allowed, .. } if allowed == &[2, 3]));
        for (f, key) in [
            (
                &(|c: &mut TrainConfig| c.deals = 0) as &dyn Fn(&mut TrainConfig),
                "deals",
            ),
            (&|c: &mut TrainConfig| c.deals = 100_000_001, "deals"),
            (&|c: &mut TrainConfig| c.iterations = 0, "iterations"),
            (&|c: &mut TrainConfig| c.iterations = 10_001, "iterations"),
        ] {
            assert!(matches!(with(f), Error::OutOfRange { key: ref k, .. } if k == key));
        }
        for t in [-0.5, f64::NAN, f64::INFINITY] {
            let err = with(&|c| c.tolerance = t);
            assert!(err
                .to_string()
                .starts_with("tolerance must be a number at least 0"));
        }
    }

    #[test]
    fn a_shard_names_its_bad_range_and_needs_tables_for_ev() {
        assert_eq!(deal_range(3, 7), Ok(3..7));
        assert_eq!(deal_range(0, 0), Ok(0..0));
        let key = |r: crate::Result<Range<usize>>| match r.unwrap_err() {
            Error::OutOfRange { key, .. } => key,
            e => panic!("{e:?}"),
        };
        assert_eq!(key(deal_range(5, 4)), "start");
        assert_eq!(key(deal_range(-1, 4)), "start");
        assert_eq!(key(deal_range(0, 100_000_001)), "stop");
        let rules = Rules::default();
        let err = shard_counts(&rules, None, false, (2, 1), 0, 0..3).unwrap_err();
        assert!(err.to_string().starts_with("ev needs the tables"));
        let err = shard_counts(&rules, None, true, (5, 1), 0, 0..3).unwrap_err();
        assert!(matches!(
            err,
            Error::BadPlayerCount {
                got: crate::Given::Int(5),
                ..
            }
        ));
        // Greedy without tables: the counts of iteration_counts itself.
        let got = shard_counts(&rules, None, true, (2, 1), 0, 0..3).unwrap();
        let cfg = TrainConfig {
            players: 2,
            deals: 3,
            iterations: 1,
            tolerance: 0.0,
            seed: 1,
        };
        let want = iteration_counts(
            &rules,
            &LaneTables::default(),
            Strategy::Greedy,
            &cfg,
            0,
            0..3,
        );
        assert_eq!(got, want);
        assert_eq!(got.hands(), 6);
    }

    #[test]
    fn counts_returned_for_an_iteration_must_count_the_same_hands() {
        // Two players, two deals: at most four hands.
        let cfg = TrainConfig {
            players: 2,
            deals: 2,
            iterations: 1,
            tolerance: 0.0,
            seed: 0,
        };
        let lanes =
            |n: u64| -> LanePairs { [vec![(7, n)], vec![(9, n)], vec![(9, 1), (11, n - 1)]] };
        let ok = IterationCounts::returned(lanes(4), None, &cfg).unwrap();
        assert_eq!(ok.hands(), 4);
        assert_eq!(ok.lanes[2], map(&[(9, 1), (11, 3)]));
        // Repeated values add up.
        let twice = IterationCounts::returned(
            [vec![(7, 1), (7, 1)], vec![(9, 2)], vec![(9, 2)]],
            None,
            &cfg,
        )
        .unwrap();
        assert_eq!(twice.lanes[0], map(&[(7, 2)]));
        let err = IterationCounts::returned(lanes(5), None, &cfg).unwrap_err();
        assert!(err.to_string().contains("at most 4"), "{err}");
        let mut unequal = lanes(4);
        unequal[2].pop();
        let err = IterationCounts::returned(unequal, None, &cfg).unwrap_err();
        assert!(err.to_string().contains("every lane counts the same hands"));
        // Classes: sixteen that add up to the lanes, else named.
        let mut classes: Vec<LanePairs> = vec![Default::default(); CLASSES];
        classes[3] = lanes(4);
        let with = IterationCounts::returned(lanes(4), Some(classes.clone()), &cfg).unwrap();
        assert_eq!(with.classes.len(), CLASSES);
        assert_eq!(with.classes[3][0], map(&[(7, 4)]));
        let err = IterationCounts::returned(lanes(4), Some(classes[..15].to_vec()), &cfg);
        assert!(err.unwrap_err().to_string().contains("16 classes, got 15"));
        classes[3][1] = vec![(9, 3)];
        let err = IterationCounts::returned(lanes(4), Some(classes), &cfg).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the classes' middle counts do not add up to the lane's counts"
        );
    }
}
