//! Auto-arrange (代打) and hints: the greedy baseline, the expected-value strategy `ev` built
//! on per-lane win-probability tables, and the Monte Carlo strategy `mc`.
//!
//! **Lane tables.** For each lane and hand value, the distribution of an opponent's lane
//! value: how often it is below, equal and above, and the lane value (units) it collects
//! when above. They come from self-play ([`build_tables`]): deal many tables, arrange every
//! hand with the current strategy, count the lane values, rebuild, repeat.
//!
//! **Expected units of a split** against one opponent, treating lanes as independent: the sum
//! over lanes of `P(win) × my lane value − E[opponent's lane value when it wins]`, plus the
//! scoop (打枪) term (`P(win all)` and `P(lose all)`, doubled lanes or bonus units), the
//! majority bonus and a home-run (全垒打) term; times the number of opponents met. A held
//! special is declared when its units beat the best split's expectation.

use std::cmp::Ordering;

use rayon::prelude::*;

use crate::arrange::Arrangement;
use crate::card::{Card, DeckKind};
use crate::deal::{rng_for, shuffle};
use crate::error::Lane;
use crate::eval::HandValue;
use crate::rules::{BonusKind, Mode, Rules};
use crate::score::{settle, Submission, TableArgs};
use crate::special::{find_special, SpecialHand};
use crate::split::HandSplits;

/// Opponent lane-value distribution of one lane.
#[derive(Clone, Debug, Default)]
pub struct LaneDist {
    values: Vec<HandValue>,
    /// `cum_below[i]` = P(opponent < values[i]); length n + 1.
    cum_below: Vec<f64>,
    mass: Vec<f64>,
    /// `above_from[i]` = Σ_{j ≥ i} P(values[j]) × lane value of values[j]; length n + 1.
    above_from: Vec<f64>,
    /// `bucket[b]` = first index whose value's top bits (`value >> BUCKET_SHIFT`) are `>= b`.
    bucket: Vec<u32>,
}

const BUCKET_SHIFT: u32 = 20;
const BUCKETS: usize = 1 << (32 - BUCKET_SHIFT);

impl LaneDist {
    /// Builds the distribution from `(raw value, count)` pairs.
    pub fn from_counts(counts: &[(u32, u64)], lane: Lane, rules: &Rules) -> LaneDist {
        let mut pairs: Vec<(HandValue, u64)> = counts
            .iter()
            .map(|&(v, c)| (HandValue(v), c))
            .filter(|p| p.1 > 0)
            .collect();
        pairs.sort_unstable();
        pairs.dedup_by(|b, a| {
            if a.0 == b.0 {
                a.1 += b.1;
                true
            } else {
                false
            }
        });
        let total: f64 = pairs.iter().map(|p| p.1 as f64).sum::<f64>().max(1.0);
        let n = pairs.len();
        let mut d = LaneDist {
            values: pairs.iter().map(|p| p.0).collect(),
            cum_below: vec![0.0; n + 1],
            mass: pairs.iter().map(|p| p.1 as f64 / total).collect(),
            above_from: vec![0.0; n + 1],
            bucket: Vec::new(),
        };
        d.bucket = (0..=BUCKETS)
            .map(|b| {
                d.values
                    .partition_point(|v| ((v.raw() >> BUCKET_SHIFT) as usize) < b)
                    as u32
            })
            .collect();
        for i in 0..n {
            d.cum_below[i + 1] = d.cum_below[i] + d.mass[i];
        }
        for i in (0..n).rev() {
            let units = rules.lane_value(lane, d.values[i].category()) as f64;
            d.above_from[i] = d.above_from[i + 1] + d.mass[i] * units;
        }
        d
    }

    /// `(P(below), P(equal), expected units the opponent collects when above)` for `v`.
    #[inline]
    pub fn lookup(&self, v: HandValue) -> (f64, f64, f64) {
        let b = (v.raw() >> BUCKET_SHIFT) as usize;
        let (lo, hi) = (self.bucket[b] as usize, self.bucket[b + 1] as usize);
        let i = lo + self.values[lo..hi].partition_point(|&x| x < v);
        let eq = i < self.values.len() && self.values[i] == v;
        let tie = if eq { self.mass[i] } else { 0.0 };
        (self.cum_below[i], tie, self.above_from[i + eq as usize])
    }

    /// Number of distinct values observed.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing was observed.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Win-probability tables of the three lanes.
#[derive(Clone, Debug, Default)]
pub struct LaneTables {
    /// Front, middle, back.
    pub lanes: [LaneDist; 3],
    /// Open-addressing index of every value observed in some lane: `(raw value, entry)`
    /// slots (raw value 0, which no hand has, marks an empty slot).
    slots: Vec<(u32, u32)>,
    /// Per observed value, the three lanes' `(below, equal, above units)`.
    entries: Vec<[(f64, f64, f64); 3]>,
}

#[inline]
fn slot_of(v: u32, bits: u32) -> usize {
    (v.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

/// Raw lane-value counts from self-play, the data form of [`LaneTables`].
pub type LaneCounts = [Vec<(u32, u64)>; 3];

impl LaneTables {
    /// Builds the tables from counts.
    pub fn from_counts(counts: &LaneCounts, rules: &Rules) -> LaneTables {
        let lanes: [LaneDist; 3] =
            std::array::from_fn(|i| LaneDist::from_counts(&counts[i], Lane::ALL[i], rules));
        let mut values: Vec<u32> = lanes
            .iter()
            .flat_map(|d| d.values.iter().map(|v| v.raw()))
            .filter(|&v| v != 0)
            .collect();
        values.sort_unstable();
        values.dedup();
        let bits = (2 * values.len().max(1))
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        let mut slots = vec![(0u32, 0u32); 1 << bits];
        let mut entries = Vec::with_capacity(values.len());
        for &v in &values {
            let mut h = slot_of(v, bits);
            while slots[h].0 != 0 {
                h = (h + 1) & (slots.len() - 1);
            }
            slots[h] = (v, entries.len() as u32);
            entries.push(std::array::from_fn(|i| lanes[i].lookup(HandValue(v))));
        }
        LaneTables {
            lanes,
            slots,
            entries,
        }
    }

    /// `(P(below), P(equal), expected units the opponent collects when above)` for `v` in
    /// `lane`: one hash probe for a value observed in some lane, else a search.
    #[inline]
    pub fn lookup(&self, lane: Lane, v: HandValue) -> (f64, f64, f64) {
        if !self.slots.is_empty() {
            let mask = self.slots.len() - 1;
            let mut h = slot_of(v.raw(), mask.count_ones());
            loop {
                let (key, entry) = self.slots[h];
                if key == v.raw() {
                    return self.entries[entry as usize][lane as usize];
                }
                if key == 0 {
                    break;
                }
                h = (h + 1) & mask;
            }
        }
        self.lanes[lane as usize].lookup(v)
    }
}

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
    fn opponents_met(&self, rules: &Rules) -> usize {
        match (rules.mode, self.role) {
            (Mode::Banker, Role::Player) => 1,
            _ => self.players.saturating_sub(1),
        }
    }
}

/// A solved hand: a split, or a declared special, with its expected units.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The arrangement played (None when the special is declared).
    pub arrangement: Option<Arrangement>,
    /// The special declared.
    pub special: Option<SpecialHand>,
    /// Expected units against the table.
    pub expected: f64,
}

#[derive(Clone, Copy, Default)]
struct Feat {
    w: f64,
    l: f64,
    t: f64,
    units: f64,
    gain: f64,
    /// Expected units paid in this lane when it is lost.
    paid: f64,
}

fn features(value: HandValue, lane: Lane, tables: &LaneTables, rules: &Rules, role: Role) -> Feat {
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

struct Scorer<'a> {
    rules: &'a Rules,
    k: f64,
    hr_opponents: i32,
    home_run: bool,
}

impl<'a> Scorer<'a> {
    fn new(rules: &'a Rules, ctx: Context) -> Self {
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

    /// An upper bound of [`Scorer::score`] for lanes whose features are at most these
    /// (win probabilities, gains and lane values), the losing terms left out.
    /// `f`, `m` and `b` bound the lanes: win probabilities, gains and lane values from above,
    /// loss probabilities and the units paid when losing from below.
    fn bound(&self, f: &Feat, m: &Feat, b: &Feat) -> f64 {
        let r = self.rules;
        let pw = f.w * m.w * b.w;
        let pl = f.l * m.l * b.l;
        let mb = r.majority_bonus.max(0) as f64;
        let won = f.units + m.units + b.units + mb;
        let mut per = f.gain + m.gain + b.gain + mb;
        per += match r.scoop.0 {
            BonusKind::Double => pw * won - pl * (f.paid + m.paid + b.paid + mb),
            BonusKind::Bonus => r.scoop.1 as f64 * (pw - pl),
            BonusKind::None => 0.0,
        };
        let mut total = self.k * per;
        if self.home_run {
            let each = match r.scoop.0 {
                BonusKind::Double => 2.0 * won,
                BonusKind::Bonus => won + r.scoop.1 as f64,
                BonusKind::None => won,
            };
            total += pw.powi(self.hr_opponents)
                * self.k
                * match r.home_run.0 {
                    BonusKind::Double => each,
                    BonusKind::Bonus => r.home_run.1 as f64,
                    BonusKind::None => 0.0,
                };
        }
        total
    }

    #[inline]
    fn score(&self, f: &Feat, m: &Feat, b: &Feat) -> f64 {
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

/// Bounds of the best front among `fronts`: win probability, gain and lane value from
/// above, loss probability and units paid when losing from below.
fn front_bound<'a>(fronts: impl Iterator<Item = &'a Feat>) -> Feat {
    fronts.fold(
        Feat {
            w: 0.0,
            l: f64::INFINITY,
            t: 0.0,
            units: 0.0,
            gain: f64::NEG_INFINITY,
            paid: f64::INFINITY,
        },
        |acc, f| Feat {
            w: acc.w.max(f.w),
            l: acc.l.min(f.l),
            t: 0.0,
            units: acc.units.max(f.units),
            gain: acc.gain.max(f.gain),
            paid: acc.paid.min(f.paid),
        },
    )
}

/// A middle lane's bound for any middle whose value is at most the one `at` describes: the
/// same features, with the units paid when losing bounded by the lane's smallest value.
fn middle_bound(at: &Feat, rules: &Rules) -> Feat {
    let least = rules.lane_values[1].iter().copied().min().unwrap_or(1) as f64;
    Feat {
        paid: least.min(at.paid),
        ..*at
    }
}

/// One candidate split with its expected units.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// Front, middle, back subset indices (see [`HandSplits::masks`]).
    pub subsets: (usize, usize, usize),
    /// Expected units.
    pub expected: f64,
}

/// Expected units of every legal split, keeping the `top` best (ties: first found), best
/// first. Always at least one: a legal split exists for every hand.
pub fn ev_candidates(
    splits: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
) -> Vec<Candidate> {
    ev_candidates_with(splits, rules, tables, ctx, top, false)
}

/// As [`ev_candidates`]; with `distinct`, splits whose three lane values equal a better
/// candidate's are left out (the same play with other cards).
pub fn ev_candidates_with(
    splits: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    distinct: bool,
) -> Vec<Candidate> {
    let v3 = splits.three_values();
    let v5 = splits.five_values();
    let front: Vec<Feat> = v3
        .iter()
        .map(|&v| features(v, Lane::Front, tables, rules, ctx.role))
        .collect();
    let mid: Vec<Feat> = v5
        .iter()
        .map(|&v| features(v, Lane::Middle, tables, rules, ctx.role))
        .collect();
    let back: Vec<Feat> = v5
        .iter()
        .map(|&v| features(v, Lane::Back, tables, rules, ctx.role))
        .collect();
    let scorer = Scorer::new(rules, ctx);
    let top = top.max(1);
    let mut best: Vec<Candidate> = Vec::with_capacity(top + 1);
    let mut floor = f64::NEG_INFINITY;
    let triple = |c: &Candidate| {
        let (f, m, b) = c.subsets;
        (v3[f], v5[m], v5[b])
    };
    let offer = |c: Candidate, best: &mut Vec<Candidate>, floor: &mut f64| {
        if best.len() == top && c.expected <= *floor {
            return;
        }
        if distinct {
            let t = triple(&c);
            if let Some(i) = best.iter().position(|x| triple(x) == t) {
                if best[i].expected >= c.expected {
                    return;
                }
                best.remove(i);
            }
        }
        let pos = best
            .iter()
            .position(|x| x.expected < c.expected)
            .unwrap_or(best.len());
        best.insert(pos, c);
        best.truncate(top);
        if best.len() == top {
            *floor = best[top - 1].expected;
        }
    };
    // Back-major search with an upper bound per back: the score grows with every lane's
    // value, so with the back fixed the middle is at most the back's own value and the front
    // at most the best front of the hand (see `Scorer::bound`).
    let best_front = front_bound(front.iter());
    let bounds: Vec<f64> = (0..v5.len())
        .map(|b| scorer.bound(&best_front, &middle_bound(&mid[b], rules), &back[b]))
        .collect();
    let prune = lane_values_monotone(rules);
    let search_back = |bi: usize, best: &mut Vec<Candidate>, floor: &mut f64| {
        let vb = v5[bi];
        for (fi, mi) in splits.rest_of(bi) {
            let vm = v5[mi];
            // Equal middle and back: the pair is met from both sides; keep one.
            if vm > vb || (vm == vb && mi < bi) || v3[fi] > vm {
                continue;
            }
            let e = scorer.score(&front[fi], &mid[mi], &back[bi]);
            offer(
                Candidate {
                    subsets: (fi, mi, bi),
                    expected: e,
                },
                best,
                floor,
            );
        }
    };
    // Start from the back with the best bound, then search, best bound first, only the backs
    // whose bound can still beat what was found (all of them when not pruning).
    let first = (0..bounds.len()).fold(0, |a, b| if bounds[b] > bounds[a] { b } else { a });
    search_back(first, &mut best, &mut floor);
    let mut order: Vec<(f64, usize)> = (0..v5.len())
        .filter(|&b| b != first && (!prune || best.len() < top || bounds[b] > floor))
        .map(|b| (bounds[b], b))
        .collect();
    order.sort_unstable_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(Ordering::Equal));
    for &(bound, bi) in &order {
        if prune && best.len() == top && bound <= floor {
            break;
        }
        if prune && best.len() == top {
            // A tighter bound from the cards this back leaves: the best front and the best
            // legal middle among its 56 splits (taken apart, so still an upper bound).
            let vb = v5[bi];
            let f_ub = front_bound(splits.rest_of(bi).map(|(fi, _)| &front[fi]));
            let m_best = splits
                .rest_of(bi)
                .map(|(_, mi)| mi)
                .filter(|&mi| v5[mi] <= vb)
                .max_by_key(|&mi| v5[mi]);
            let Some(m_best) = m_best else { continue };
            if scorer.bound(&f_ub, &middle_bound(&mid[m_best], rules), &back[bi]) <= floor {
                continue;
            }
        }
        search_back(bi, &mut best, &mut floor);
    }
    best
}

/// Whether each lane's value never falls as the category rises.
fn lane_values_monotone(rules: &Rules) -> bool {
    rules.lane_values.iter().enumerate().all(|(lane, row)| {
        let cats: &[usize] = if lane == 0 {
            &[0, 1, 3]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        };
        cats.windows(2).all(|w| row[w[0]] <= row[w[1]])
    })
}

/// Expected units of every legal split, the exhaustive way (no pruning); for tests.
pub fn ev_all(
    splits: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
) -> Vec<Candidate> {
    let v3 = splits.three_values();
    let v5 = splits.five_values();
    let f = |v, lane, d| features(v, lane, d, rules, ctx.role);
    let scorer = Scorer::new(rules, ctx);
    let mut out = Vec::new();
    splits.for_each_index(|fi, mi, bi| {
        if v3[fi] <= v5[mi] && v5[mi] <= v5[bi] {
            let e = scorer.score(
                &f(v3[fi], Lane::Front, tables),
                &f(v5[mi], Lane::Middle, tables),
                &f(v5[bi], Lane::Back, tables),
            );
            out.push(Candidate {
                subsets: (fi, mi, bi),
                expected: e,
            });
        }
    });
    out
}

fn arrangement_of(splits: &HandSplits, c: &Candidate) -> Arrangement {
    let (f, m, b) = c.subsets;
    let (fm, mm, bm) = splits.masks(f, m, b);
    splits.arrangement(&crate::split::Split {
        front: fm,
        middle: mm,
        back: bm,
        values: [HandValue(0); 3],
    })
}

/// Expected units of declaring `special` at this table.
pub fn special_expected(special: &SpecialHand, rules: &Rules, ctx: Context) -> f64 {
    special.units as f64 * ctx.opponents_met(rules) as f64
}

/// Solves 13 cards with the `ev` strategy; `top` also returns the runners-up (best first).
pub fn solve_ev(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
) -> Vec<Choice> {
    solve_ev_with(cards, rules, tables, ctx, top, false)
}

/// As [`solve_ev`]; with `distinct`, runners-up differ in some lane's value (hints).
pub fn solve_ev_with(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    distinct: bool,
) -> Vec<Choice> {
    let splits = HandSplits::new(cards, rules.wheel);
    let mut out: Vec<Choice> = ev_candidates_with(&splits, rules, tables, ctx, top, distinct)
        .iter()
        .map(|c| Choice {
            arrangement: Some(arrangement_of(&splits, c)),
            special: None,
            expected: c.expected,
        })
        .collect();
    if let Some(sp) = find_special(cards, rules) {
        let e = special_expected(&sp, rules, ctx);
        let pos = out.iter().position(|c| c.expected < e).unwrap_or(out.len());
        out.insert(
            pos,
            Choice {
                arrangement: None,
                special: Some(sp),
                expected: e,
            },
        );
        out.truncate(top.max(1));
    }
    out
}

/// The legal ways to finish a hand when some cards are already placed (牌型提示 while
/// arranging): `placed[lane]` lists cards already in front, middle and back. Every legal
/// split that keeps them there, with its expected units, best first (at most `limit`).
/// `None` when a placed card is not in the hand (or placed more often than held) or a lane
/// holds too many.
pub fn complete(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    placed: &[Vec<Card>; 3],
    limit: usize,
) -> Option<Vec<Choice>> {
    let mut used = 0u16;
    let mut need = [0u16; 3];
    for (lane, want) in placed.iter().enumerate() {
        if want.len() > Lane::ALL[lane].size() {
            return None;
        }
        for c in want {
            let pos = (0..13).find(|&i| cards[i] == *c && used & (1 << i) == 0)?;
            used |= 1 << pos;
            need[lane] |= 1 << pos;
        }
    }
    let splits = HandSplits::new(cards, rules.wheel);
    let mut all: Vec<Candidate> = ev_all(&splits, rules, tables, ctx)
        .into_iter()
        .filter(|c| {
            let (f, m, b) = splits.masks(c.subsets.0, c.subsets.1, c.subsets.2);
            f & need[0] == need[0] && m & need[1] == need[1] && b & need[2] == need[2]
        })
        .collect();
    all.sort_by(|a, b| {
        b.expected
            .partial_cmp(&a.expected)
            .unwrap_or(Ordering::Equal)
    });
    all.truncate(limit);
    Some(
        all.iter()
            .map(|c| Choice {
                arrangement: Some(arrangement_of(&splits, c)),
                special: None,
                expected: c.expected,
            })
            .collect(),
    )
}

/// The greedy baseline: the strongest back, then the strongest middle of the rest, the rest
/// in front (never fouled). Ties go to the first subset in enumeration order.
pub fn solve_greedy(cards: &[Card; 13], rules: &Rules) -> Arrangement {
    let splits = HandSplits::new(cards, rules.wheel);
    let v5 = splits.five_values();
    let back = (0..v5.len()).fold(0, |best, i| if v5[i] > v5[best] { i } else { best });
    let (mut front, mut middle) = (usize::MAX, usize::MAX);
    for (f, m) in splits.rest_of(back) {
        if middle == usize::MAX || v5[m] > v5[middle] {
            (front, middle) = (f, m);
        }
    }
    arrangement_of(
        &splits,
        &Candidate {
            subsets: (front, middle, back),
            expected: 0.0,
        },
    )
}

/// The best 13 of `dealt` cards (16 in kaixin 多三张) and their play by `ev`: the split is
/// searched over the dealt cards directly (back-major, pruned by the same bounds as
/// [`ev_candidates`]; the three cards left out are whatever the best split does not use),
/// and every way to keep 13 is checked for a special worth declaring.
pub fn solve_ev_keep(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
) -> (Vec<Card>, Choice) {
    let n = dealt.len();
    if n == 13 {
        let hand: [Card; 13] = dealt.try_into().expect("13");
        return (
            dealt.to_vec(),
            solve_ev(&hand, rules, tables, ctx, 1).remove(0),
        );
    }
    assert!((14..=16).contains(&n), "13 to 16 cards");
    let all: u32 = (1 << n) - 1;
    let subsets = |k: u32| -> Vec<u32> { (0..=all).filter(|m| m.count_ones() == k).collect() };
    let (five, three) = (subsets(5), subsets(3));
    let mut index = vec![u16::MAX; 1 << n];
    for (i, &m) in five.iter().enumerate() {
        index[m as usize] = i as u16;
    }
    for (i, &m) in three.iter().enumerate() {
        index[m as usize] = i as u16;
    }
    // Cards of a position mask, high to low (rank, then suit), for display.
    let pick = |m: u32| -> Vec<Card> {
        let mut cards: Vec<Card> = (0..n)
            .filter(|i| m & (1 << i) != 0)
            .map(|i| dealt[i])
            .collect();
        cards.sort_unstable_by(|a, b| b.cmp(a));
        cards
    };
    let v5: Vec<HandValue> = five
        .iter()
        .map(|&m| crate::eval::evaluate5(&pick(m).try_into().expect("5"), rules.wheel))
        .collect();
    let v3: Vec<HandValue> = three
        .iter()
        .map(|&m| crate::eval::evaluate3(&pick(m).try_into().expect("3")))
        .collect();
    let feat = |v, lane: Lane| features(v, lane, tables, rules, ctx.role);
    let front: Vec<Feat> = v3.iter().map(|&v| feat(v, Lane::Front)).collect();
    let mid: Vec<Feat> = v5.iter().map(|&v| feat(v, Lane::Middle)).collect();
    let back: Vec<Feat> = v5.iter().map(|&v| feat(v, Lane::Back)).collect();
    let scorer = Scorer::new(rules, ctx);
    let best_front = front_bound(front.iter());
    let prune = lane_values_monotone(rules);
    let mut order: Vec<(f64, usize)> = (0..five.len())
        .map(|b| {
            (
                scorer.bound(&best_front, &middle_bound(&mid[b], rules), &back[b]),
                b,
            )
        })
        .collect();
    order.sort_unstable_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(Ordering::Equal));
    let mut best: Option<(f64, usize, usize, usize)> = None;
    let floor = |b: &Option<(f64, usize, usize, usize)>| b.map_or(f64::NEG_INFINITY, |x| x.0);
    // Middles in descending value: with monotone lane values the bound only falls along it.
    let mut by_value: Vec<usize> = (0..five.len()).collect();
    by_value.sort_unstable_by(|&x, &y| v5[y].cmp(&v5[x]));
    for &(bound, bi) in &order {
        if prune && bound <= floor(&best) {
            break;
        }
        let (mb, vb) = (five[bi], v5[bi]);
        // The best front the cards left by this back can still give (a tighter bound).
        let front_ub = front_bound(
            three
                .iter()
                .zip(&front)
                .filter(|(&m, _)| m & mb == 0)
                .map(|(_, f)| f),
        );
        if prune
            && scorer.bound(&front_ub, &middle_bound(&mid[bi], rules), &back[bi]) <= floor(&best)
        {
            continue;
        }
        // Middles above the back's value can never be used: start just below it.
        let start = by_value.partition_point(|&m| v5[m] > vb);
        for &mi in &by_value[start..] {
            let mm = five[mi];
            let vm = v5[mi];
            if mm & mb != 0 || vm > vb || (vm == vb && mi < bi) {
                continue;
            }
            if prune
                && scorer.bound(&front_ub, &middle_bound(&mid[mi], rules), &back[bi])
                    <= floor(&best)
            {
                break;
            }
            let rest = all & !(mb | mm);
            let mut pos = [0u32; 6];
            let mut k = 0;
            for i in 0..n as u32 {
                if rest & (1 << i) != 0 {
                    pos[k] = i;
                    k += 1;
                }
            }
            for x in 0..k {
                for y in x + 1..k {
                    for z in y + 1..k {
                        let fm = (1 << pos[x]) | (1 << pos[y]) | (1 << pos[z]);
                        let fi = index[fm as usize] as usize;
                        if v3[fi] > vm {
                            continue;
                        }
                        let e = scorer.score(&front[fi], &mid[mi], &back[bi]);
                        if e > floor(&best) {
                            best = Some((e, fi, mi, bi));
                        }
                    }
                }
            }
        }
    }
    let (e, fi, mi, bi) = best.expect("a legal split exists");
    let arrangement = Arrangement {
        front: pick(three[fi]).try_into().expect("3"),
        middle: pick(five[mi]).try_into().expect("5"),
        back: pick(five[bi]).try_into().expect("5"),
    };
    let mut kept = arrangement.cards().to_vec();
    let mut choice = Choice {
        arrangement: Some(arrangement),
        special: None,
        expected: e,
    };
    // A special held by some 13 of the cards, when declaring it beats the split.
    if rules.special_units.iter().any(|&u| u > 0) {
        for &drop in &three {
            let hand: Vec<Card> = pick(all & !drop);
            let hand13: [Card; 13] = hand.as_slice().try_into().expect("13");
            if let Some(sp) = find_special(&hand13, rules) {
                let se = special_expected(&sp, rules, ctx);
                if se > choice.expected {
                    kept = hand;
                    choice = Choice {
                        arrangement: None,
                        special: Some(sp),
                        expected: se,
                    };
                }
            }
        }
    }
    (kept, choice)
}

/// The strategy used to arrange a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Strongest back, then middle.
    Greedy,
    /// Expected value from lane tables.
    Ev,
}

/// Arranges (or declares) a hand for play with `strategy`.
pub fn play(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    strategy: Strategy,
) -> Submission {
    match strategy {
        Strategy::Greedy => Submission::Arranged(solve_greedy(cards, rules)),
        Strategy::Ev => {
            let c = solve_ev(cards, rules, tables, ctx, 1).remove(0);
            match (c.arrangement, c.special) {
                (Some(a), _) => Submission::Arranged(a),
                (None, Some(sp)) => Submission::Declared {
                    cards: cards.to_vec(),
                    special: Some(sp.key().to_string()),
                },
                (None, None) => unreachable!("a choice has an arrangement or a special"),
            }
        }
    }
}

/// The cards not in `hand`, as the deck holds them (extra copies of diamonds included).
pub fn unseen(hand: &[Card], deck: DeckKind) -> Vec<Card> {
    let mut left = deck.cards();
    for c in hand {
        if let Some(p) = left.iter().position(|x| x == c) {
            left.swap_remove(p);
        }
    }
    left.sort_unstable();
    left
}

/// Monte Carlo over the unseen cards (strategy `mc`): `samples` deals of the opponents'
/// hands from the cards not in `cards`, each opponent arranged by `ev`; the `top` best
/// candidates of `ev` (and a held special) are settled exactly against every sample, in
/// parallel; the best mean wins. Returns the candidates with their mean units, best first.
pub fn solve_mc(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    samples: usize,
    seed: u64,
    top: usize,
) -> Vec<Choice> {
    let mut cands = solve_ev(cards, rules, tables, ctx, top.max(1));
    let opponents = ctx.players.saturating_sub(1).max(1);
    let pool = unseen(cards, rules.deck);
    let subs: Vec<Submission> = cands
        .iter()
        .map(|c| match &c.arrangement {
            Some(a) => Submission::Arranged(*a),
            None => Submission::Declared {
                cards: cards.to_vec(),
                special: c.special.as_ref().map(|s| s.key().to_string()),
            },
        })
        .collect();
    let me = match (rules.mode, ctx.role) {
        (Mode::Banker, Role::Banker) => 0,
        (Mode::Banker, Role::Player) => 1,
        _ => 0,
    };
    let sums: Vec<f64> = (0..samples)
        .into_par_iter()
        .map(|i| {
            let mut rng = rng_for(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut deck = pool.clone();
            shuffle(&mut deck, &mut rng);
            let mut table: Vec<Submission> = Vec::with_capacity(opponents + 1);
            table.push(subs[0].clone());
            for o in 0..opponents {
                let hand: [Card; 13] = deck[13 * o..13 * o + 13].try_into().expect("13");
                let octx = Context {
                    players: ctx.players,
                    role: if me == 1 && o == 0 {
                        Role::Banker
                    } else {
                        Role::Player
                    },
                };
                table.push(play(&hand, rules, tables, octx, Strategy::Ev));
            }
            if me == 1 {
                table.swap(0, 1);
            }
            let args = TableArgs {
                banker: 0,
                ..TableArgs::default()
            };
            let mut out = vec![0.0f64; subs.len()];
            for (ci, sub) in subs.iter().enumerate() {
                table[me] = sub.clone();
                if let Ok(s) = settle(&table, rules, &args) {
                    out[ci] = s.totals[me] as f64;
                }
            }
            out
        })
        .reduce(
            || vec![0.0; subs.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    for (c, s) in cands.iter_mut().zip(sums) {
        c.expected = s / samples.max(1) as f64;
    }
    cands.sort_by(|a, b| {
        b.expected
            .partial_cmp(&a.expected)
            .unwrap_or(Ordering::Equal)
    });
    cands
}

/// Solves many hands (`dealt` cards each, 13 or 16) in parallel with `strategy`. Returns per
/// hand the 13 cards in front, middle, back order (for a declared special: the 13 kept cards
/// as dealt) and the declared special's canonical index (`None` when arranged).
pub fn solve_batch(
    hands: &[Vec<Card>],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    strategy: Strategy,
) -> Vec<([Card; 13], Option<usize>)> {
    hands
        .par_iter()
        .map(|dealt| {
            let hand: [Card; 13] = if dealt.len() == 13 {
                dealt.as_slice().try_into().expect("13")
            } else {
                solve_ev_keep(dealt, rules, tables, ctx)
                    .0
                    .try_into()
                    .expect("13")
            };
            match play(&hand, rules, tables, ctx, strategy) {
                Submission::Arranged(a) => (a.cards(), None),
                Submission::Declared { special, .. } => (
                    hand,
                    special.as_deref().and_then(crate::rules::special_index),
                ),
            }
        })
        .collect()
}

/// Self-play: `iterations` rounds of `deals` random tables of `players`; round 0 arranges
/// every hand with the greedy strategy, later rounds with `ev` on the previous round's tables.
/// Returns the lane-value counts of the last round (declared specials are not counted).
pub fn build_tables(
    rules: &Rules,
    players: usize,
    deals: usize,
    iterations: usize,
    seed: u64,
) -> LaneCounts {
    let mut tables = LaneTables::default();
    let mut counts: LaneCounts = Default::default();
    for it in 0..iterations.max(1) {
        let strategy = if it == 0 {
            Strategy::Greedy
        } else {
            Strategy::Ev
        };
        let values: Vec<[u32; 3]> = (0..deals)
            .into_par_iter()
            .flat_map_iter(|d| {
                let mut deck = rules.deck.cards();
                let mut rng = rng_for(seed ^ ((it as u64) << 40) ^ d as u64);
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
                        solve_ev_keep(hand_cards, rules, &tables, ctx)
                            .0
                            .try_into()
                            .expect("13")
                    };
                    if let Submission::Arranged(a) = play(&hand, rules, &tables, ctx, strategy) {
                        out.push(a.values(rules.wheel).map(|v| v.raw()));
                    }
                }
                out
            })
            .collect();
        let mut maps: [std::collections::BTreeMap<u32, u64>; 3] = Default::default();
        for v in &values {
            for lane in 0..3 {
                *maps[lane].entry(v[lane]).or_insert(0) += 1;
            }
        }
        counts = maps.map(|m| m.into_iter().collect());
        tables = LaneTables::from_counts(&counts, rules);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrange::is_foul;
    use crate::card::parse_cards;

    fn hand(text: &str) -> [Card; 13] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    #[test]
    fn greedy_and_ev_never_foul() {
        let rules = Rules::default();
        let counts = build_tables(&rules, 4, 300, 2, 1);
        let tables = LaneTables::from_counts(&counts, &rules);
        let ctx = Context {
            players: 4,
            role: Role::Player,
        };
        let mut rng = rng_for(5);
        for _ in 0..50 {
            let mut deck = DeckKind::Standard.cards();
            shuffle(&mut deck, &mut rng);
            let h: [Card; 13] = deck[..13].try_into().unwrap();
            assert!(!is_foul(&solve_greedy(&h, &rules), &rules));
            let c = solve_ev(&h, &rules, &tables, ctx, 3);
            assert!(!c.is_empty());
            for choice in &c {
                assert!(!is_foul(choice.arrangement.as_ref().unwrap(), &rules));
            }
            assert!(c.windows(2).all(|w| w[0].expected >= w[1].expected));
        }
        // The pruned search finds the exhaustive optimum.
        let mut rng = rng_for(8);
        for players in [2, 4] {
            let ctx = Context {
                players,
                role: Role::Player,
            };
            for _ in 0..40 {
                let mut deck = DeckKind::Standard.cards();
                shuffle(&mut deck, &mut rng);
                let h: [Card; 13] = deck[..13].try_into().unwrap();
                let s = HandSplits::new(&h, rules.wheel);
                let pruned = ev_candidates(&s, &rules, &tables, ctx, 1)[0].expected;
                let all = ev_all(&s, &rules, &tables, ctx);
                let best = all
                    .iter()
                    .map(|c| c.expected)
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!((pruned - best).abs() < 1e-9, "{pruned} vs {best}");
            }
        }
        // Sixteen cards (多三张): the kept 13 play a legal split that no single discard choice
        // of the 13-card search beats.
        let extra = Rules {
            deck: DeckKind::ExtraDiamonds,
            dealt: 16,
            ..Rules::default()
        };
        for _ in 0..3 {
            let mut deck = DeckKind::ExtraDiamonds.cards();
            shuffle(&mut deck, &mut rng);
            let dealt = &deck[..16];
            let ctx = Context {
                players: 4,
                role: Role::Player,
            };
            let (kept, choice) = solve_ev_keep(dealt, &extra, &tables, ctx);
            assert_eq!(kept.len(), 13);
            let a = choice.arrangement.unwrap();
            assert!(!is_foul(&a, &extra));
            // Brute force over the 560 ways to keep 13.
            let mut best = f64::NEG_INFINITY;
            for x in 0..16 {
                for y in x + 1..16 {
                    for z in y + 1..16 {
                        let h: Vec<Card> = (0..16)
                            .filter(|i| ![x, y, z].contains(i))
                            .map(|i| dealt[i])
                            .collect();
                        let h: [Card; 13] = h.try_into().unwrap();
                        best = best.max(solve_ev(&h, &extra, &tables, ctx, 1)[0].expected);
                    }
                }
            }
            assert!(
                (choice.expected - best).abs() < 1e-9,
                "{} vs {best}",
                choice.expected
            );
        }
        let g = solve_greedy(&hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc"), &rules);
        assert_eq!(
            crate::eval::evaluate5(&g.back, rules.wheel).category(),
            crate::eval::Category::Straight
        );
    }
}
