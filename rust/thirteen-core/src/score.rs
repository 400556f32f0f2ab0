//! Settlement of a table (RULES.md 5): who pays whom how many units, step by step, plus escape
//! payments.

use std::cmp::Ordering;

use crate::arrange::{break_tie, values_foul, Arrangement};
use crate::cards::{Card, HAND_SIZE};
use crate::cards::{Category, HandValue};
use crate::error::{Error, Lane, Result};
use crate::given::Given;
use crate::limits::{BANKER, STAKE_MULTIPLIER, SURRENDERED};
use crate::rules::{BankerStake, FoulPolicy, HomeRun, Mode, Rules, Special};
use crate::special::{held_and_highest, SpecialHand};

/// One player's submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Submission {
    /// A played arrangement.
    Arranged(Arrangement),
    /// A declared special (报到) with the 13 cards and, optionally, the key named.
    Declared {
        /// The cards (13 expected; checked by [`settle`]).
        cards: Vec<Card>,
        /// The key the player named, if any.
        special: Option<String>,
    },
}

impl Submission {
    /// The submitted cards (an arrangement's in front, middle, back order).
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        let lanes: [&[Card]; 3] = match self {
            Submission::Arranged(a) => [&a.front, &a.middle, &a.back],
            Submission::Declared { cards, .. } => [cards, &[], &[]],
        };
        lanes.into_iter().flatten().copied()
    }

    /// Number of cards submitted.
    pub fn len(&self) -> usize {
        match self {
            Submission::Arranged(_) => 13,
            Submission::Declared { cards, .. } => cards.len(),
        }
    }

    /// Whether no card was submitted.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The steps of a pair's result, in the order they apply (RULES.md 5).
pub const STEPS: [&str; 8] = [
    "surrender",
    "special",
    "lanes",
    "majority",
    "scoop",
    "home_run",
    "horse",
    "stake",
];

const SURRENDER: usize = 0;
const SPECIAL: usize = 1;
const LANES: usize = 2;
const MAJORITY: usize = 3;
const SCOOP: usize = 4;
const HOME_RUN: usize = 5;
const HORSE: usize = 6;
const STAKE: usize = 7;

/// One lane of a compared pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LaneResult {
    /// The lane.
    pub lane: Lane,
    /// The winning seat, `None` when drawn.
    pub winner: Option<usize>,
    /// The winner's lane category, `None` when drawn.
    pub category: Option<Category>,
    /// Units the winner collects.
    pub units: i64,
}

impl LaneResult {
    fn drawn(lane: Lane) -> LaneResult {
        LaneResult {
            lane,
            winner: None,
            category: None,
            units: 0,
        }
    }
}

/// The result of one compared pair, `seats.0 < seats.1`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairResult {
    /// The two seats, lower first.
    pub seats: (usize, usize),
    /// The three lanes; `None` when surrender or a special decided the pair.
    pub lanes: Option<[LaneResult; 3]>,
    /// What each step of [`STEPS`] added, signed from the lower seat's side.
    pub steps: [i64; 8],
    /// The sum of the steps: what the higher seat pays the lower.
    pub total: i64,
}

/// A settled round; it serialises (serde) to keep or send a result as it is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settlement {
    /// Units per seat; they sum to zero.
    pub totals: Vec<i64>,
    /// Fouled seats (相公), ascending.
    pub fouled: Vec<usize>,
    /// Seats that surrendered, ascending.
    pub surrendered: Vec<usize>,
    /// Declared specials as scored, per seat.
    pub specials: Vec<Option<SpecialHand>>,
    /// Scoops (打枪) as `(winner, loser)`, sorted.
    pub scoops: Vec<(usize, usize)>,
    /// Seats that hit a home run (全垒打).
    pub home_runs: Vec<usize>,
    /// Every compared pair, sorted by seats.
    pub pairs: Vec<PairResult>,
    /// Per lane (front, middle, back), the showing seats weakest first (ties keep seat order).
    pub reveal: [Vec<usize>; 3],
}

impl Settlement {
    /// The settlement as plain JSON (the documented `Settlement.to_dict()`): `totals`,
    /// `fouled`, `surrendered`, `specials` (`{key, units, tier}` or null), `scoops` (pairs),
    /// `home_runs`, `pairs` (`seats`, `lanes` (`lane`, `winner`, `category`, `units`), `steps`
    /// by name, `total`) and `reveal` (`lane`, `order`), keys in that order.
    pub fn to_plain_json(&self) -> String {
        let lanes = |pr: &PairResult| -> Vec<PlainLane> {
            pr.lanes
                .iter()
                .flatten()
                .map(|l| PlainLane {
                    lane: l.lane.key(),
                    winner: l.winner,
                    category: l.category.map(Category::key),
                    units: l.units,
                })
                .collect()
        };
        let plain = PlainSettlement {
            totals: &self.totals,
            fouled: &self.fouled,
            surrendered: &self.surrendered,
            specials: self
                .specials
                .iter()
                .map(|s| {
                    s.as_ref().map(|s| PlainSpecial {
                        key: s.key(),
                        units: s.units,
                        tier: s.tier,
                    })
                })
                .collect(),
            scoops: self.scoops.iter().map(|&(a, b)| [a, b]).collect(),
            home_runs: &self.home_runs,
            pairs: self
                .pairs
                .iter()
                .map(|pr| PlainPair {
                    seats: [pr.seats.0, pr.seats.1],
                    lanes: lanes(pr),
                    steps: PlainSteps(pr.steps),
                    total: pr.total,
                })
                .collect(),
            reveal: Lane::ALL
                .iter()
                .zip(&self.reveal)
                .map(|(lane, order)| PlainReveal {
                    lane: lane.key(),
                    order,
                })
                .collect(),
        };
        serde_json::to_string(&plain).expect("a settlement serialises")
    }
}

#[derive(serde::Serialize)]
struct PlainSettlement<'a> {
    totals: &'a [i64],
    fouled: &'a [usize],
    surrendered: &'a [usize],
    specials: Vec<Option<PlainSpecial>>,
    scoops: Vec<[usize; 2]>,
    home_runs: &'a [usize],
    pairs: Vec<PlainPair>,
    reveal: Vec<PlainReveal<'a>>,
}

#[derive(serde::Serialize)]
struct PlainSpecial {
    key: &'static str,
    units: i64,
    tier: u8,
}

#[derive(serde::Serialize)]
struct PlainPair {
    seats: [usize; 2],
    lanes: Vec<PlainLane>,
    steps: PlainSteps,
    total: i64,
}

#[derive(serde::Serialize)]
struct PlainLane {
    lane: &'static str,
    winner: Option<usize>,
    category: Option<&'static str>,
    units: i64,
}

#[derive(serde::Serialize)]
struct PlainReveal<'a> {
    lane: &'static str,
    order: &'a [usize],
}

/// A pair's steps by name, in [`STEPS`] order.
struct PlainSteps([i64; 8]);

impl serde::Serialize for PlainSteps {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_map(STEPS.iter().zip(self.0))
    }
}

/// Seat-level arguments of a settlement, as a caller gives them (checked by [`settle`]).
#[derive(Clone, Debug, Default)]
pub struct TableArgs {
    /// The banker's seat (banker mode).
    pub banker: i64,
    /// Stake multiplier per seat (banker mode), default 1.
    pub stakes: Option<Vec<i64>>,
    /// Seats that surrendered.
    pub surrendered: Vec<i64>,
}

impl TableArgs {
    /// The seat arguments as a caller gave them, each integer fitting in 64 bits (else
    /// [`Error::OutOfRange`] naming `banker`, `stakes` or `surrendered`); their ranges are
    /// checked by [`settle`], in its order.
    pub fn given(banker: &Given, stakes: Option<&[Given]>, surrendered: &[Given]) -> Result<Self> {
        Ok(TableArgs {
            banker: BANKER.fits(banker)?,
            stakes: stakes.map(|s| STAKE_MULTIPLIER.fits_all(s)).transpose()?,
            surrendered: SURRENDERED.fits_all(surrendered)?,
        })
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidArgument { message }
}

/// Settles one round (RULES.md 5).
///
/// Validation comes first, in this order, naming the first offender: the table size
/// ([`Error::BadPlayerCount`]); the banker seat ([`Error::InvalidArgument`]) and the stakes
/// ([`Error::WrongCount`], [`Error::OutOfRange`] outside `1..=`
/// [`crate::limits::MAX_STAKE_MULTIPLIER`]); the surrendered seats
/// ([`Error::SurrenderNotAllowed`]); each seat's
/// 13 cards ([`Error::WrongCount`]); cards beyond the deck across the table, seats in order
/// ([`Error::DuplicateCard`]); declarations ([`Error::FalseSpecial`]); under `foul = "reject"`
/// the lowest fouled seat that did not surrender ([`Error::Fouled`]). Nothing is scored
/// before all of them pass.
pub fn settle(subs: &[Submission], rules: &Rules, args: &TableArgs) -> Result<Settlement> {
    rules.check_players(subs.len() as i64)?;
    settle_among(subs, rules, args, subs.len())
}

/// [`settle`] for the seats still in a round of `dealt_in` players (those dealt in, leavers
/// included): the table size is not checked again, and a home run counts by `dealt_in`
/// (RULES.md 5 step 7).
pub(crate) fn settle_among(
    subs: &[Submission],
    rules: &Rules,
    args: &TableArgs,
    dealt_in: usize,
) -> Result<Settlement> {
    let n = subs.len();
    let banker = seat_of(args.banker, n, "banker")?;
    let stakes = Rules::banker_stakes(n, args.stakes.as_deref())?;
    let mut given = args.surrendered.clone();
    given.sort_unstable();
    given.dedup();
    let mut gone_list = Vec::with_capacity(given.len());
    for &seat in &given {
        match usize::try_from(seat) {
            Ok(s) if s < n && rules.surrender.allowed => gone_list.push(s),
            _ => return Err(Error::SurrenderNotAllowed { player: seat }),
        }
    }

    for (seat, sub) in subs.iter().enumerate() {
        if sub.len() != 13 {
            return Err(Error::WrongCount {
                expected: 13,
                got: sub.len(),
                lane: None,
                player: Some(seat),
            });
        }
    }
    let mut counts = [0u8; 52];
    for (seat, sub) in subs.iter().enumerate() {
        for card in sub.cards() {
            let k = &mut counts[card.code() as usize];
            *k += 1;
            if *k > rules.deck.copies(card) {
                return Err(Error::DuplicateCard {
                    card,
                    player: Some(seat),
                });
            }
        }
    }

    let mut declared: Vec<Option<SpecialHand>> = vec![None; n];
    for (seat, sub) in subs.iter().enumerate() {
        if let Submission::Declared { cards, special } = sub {
            let hand: [Card; 13] = cards.as_slice().try_into().expect("13 cards checked");
            let (held, highest) = held_and_highest(&hand, rules);
            let false_special = || Error::FalseSpecial {
                player: Some(seat),
                special: special.clone(),
            };
            if let Some(key) = special {
                let named = Special::from_key(key).ok_or_else(false_special)?;
                if !held.contains(&named) {
                    return Err(false_special());
                }
            }
            if held.is_empty() {
                return Err(false_special());
            }
            declared[seat] = highest;
        }
    }
    let table = Checked {
        banker,
        stakes: Some(&stakes),
        gone_list: &gone_list,
        declared: &declared,
        dealt_in,
    };
    score_table(subs, rules, &table, gone_list.clone())
}

/// `seat` as a seat of an `n`-player table ([`Error::InvalidArgument`] naming `what`).
pub(crate) fn seat_of(seat: i64, n: usize, what: &str) -> Result<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < n)
        .ok_or_else(|| {
            invalid(format!(
                "{what} seat {seat} is not a seat of a {n}-player table"
            ))
        })
}

/// Settles a table whose submissions are known good, as [`settle`] without its checks: each
/// seat holds 13 cards, none beyond the deck across the table, and `declared[seat]` is the
/// special [`find_special`] finds in a declaring seat's cards (`None` for an arranged seat).
/// No one surrendered and every stake is 1. The settlement's `reveal` and `specials` (what
/// a table shows) are left empty. Errors: [`Error::Fouled`] under `foul = "reject"`.
#[cfg(test)]
pub(crate) fn settle_known(
    subs: &[Submission],
    declared: &[Option<SpecialHand>],
    rules: &Rules,
    banker: usize,
) -> Result<Settlement> {
    let mut scratch = Scratch::default();
    settle_known_totals(subs, declared, rules, banker, &mut scratch)?;
    Ok(scratch.settlement(subs.len(), Vec::new()))
}

/// The units per seat of [`settle_known`]'s settlement, scored in `scratch`'s buffers
/// (reused from table to table: no allocation once they have grown). For `solve_mc`, which
/// settles the same declarations against many tables and reads the totals only.
pub(crate) fn settle_known_totals<'s>(
    subs: &[Submission],
    declared: &[Option<SpecialHand>],
    rules: &Rules,
    banker: usize,
    scratch: &'s mut Scratch,
) -> Result<&'s [i64]> {
    debug_assert_eq!(subs.len(), declared.len());
    let table = Checked {
        banker,
        stakes: None,
        gone_list: &[],
        declared,
        dealt_in: subs.len(),
    };
    score_steps(scratch, subs, rules, &table)?;
    Ok(&scratch.totals)
}

/// A table that passed the checks of [`settle`]: the banker's seat, each seat's stake (`None`:
/// all 1), the seats that surrendered, each seat's declared special, and the players dealt in
/// (for the home run).
pub(crate) struct Checked<'t> {
    banker: usize,
    stakes: Option<&'t [BankerStake]>,
    gone_list: &'t [usize],
    declared: &'t [Option<SpecialHand>],
    dealt_in: usize,
}

/// The buffers of one table's scoring (steps 1 to 9), kept to be reused.
#[derive(Default)]
pub(crate) struct Scratch {
    gone: Vec<bool>,
    values: Vec<Option<[HandValue; 3]>>,
    fouled_flag: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    results: Vec<PairResult>,
    scoops: Vec<(usize, usize)>,
    home_runs: Vec<usize>,
    totals: Vec<i64>,
}

impl Scratch {
    /// The settlement of the table just scored into these buffers, without what the table
    /// shows (`reveal`, `specials`).
    fn settlement(self, n: usize, surrendered: Vec<usize>) -> Settlement {
        let mut scoops = self.scoops;
        scoops.sort_unstable();
        Settlement {
            totals: self.totals,
            fouled: (0..n).filter(|&s| self.fouled_flag[s]).collect(),
            surrendered,
            specials: Vec::new(),
            scoops,
            home_runs: self.home_runs,
            pairs: self.results,
            reveal: Default::default(),
        }
    }
}

/// The scoring of [`settle`] (steps 1 to 9) once the table has passed its checks, with what
/// the table shows (the settlement's `reveal` and `specials`).
fn score_table(
    subs: &[Submission],
    rules: &Rules,
    table: &Checked<'_>,
    gone_list: Vec<usize>,
) -> Result<Settlement> {
    let n = subs.len();
    let mut scratch = Scratch::default();
    score_steps(&mut scratch, subs, rules, table)?;
    let values = &scratch.values;
    let shown: Vec<usize> = (0..n)
        .filter(|&s| values[s].is_some() && !scratch.fouled_flag[s])
        .collect();
    let reveal = std::array::from_fn(|i| {
        let mut order = shown.clone();
        order.sort_by_key(|&s| values[s].expect("shown")[i]);
        order
    });
    let specials = (0..n)
        .map(|s| {
            if scratch.gone[s] {
                None
            } else {
                table.declared[s].clone()
            }
        })
        .collect();
    Ok(Settlement {
        reveal,
        specials,
        ..scratch.settlement(n, gone_list)
    })
}

/// The seats of a checked table as the steps read them.
struct Seats<'a> {
    subs: &'a [Submission],
    rules: &'a Rules,
    banker: usize,
    gone: &'a [bool],
    values: &'a [Option<[HandValue; 3]>],
    fouled: &'a [bool],
    declared: &'a [Option<SpecialHand>],
}

impl Seats<'_> {
    /// Steps 1 to 6 of the pair `a < b`, a scoop pushed to `scoops` as `(winner, loser)`.
    fn pair(&self, a: usize, b: usize, scoops: &mut Vec<(usize, usize)>) -> PairResult {
        let rules = self.rules;
        let mut pr = PairResult {
            seats: (a, b),
            lanes: None,
            steps: [0; 8],
            total: 0,
        };
        // 1. Surrender.
        if self.gone[a] || self.gone[b] {
            pr.steps[SURRENDER] = rules.surrender.pays(self.gone[a], self.gone[b]);
            return pr;
        }
        // 2. Specials.
        let (sa, sb) = (&self.declared[a], &self.declared[b]);
        if sa.is_some() || sb.is_some() {
            let kind = |s: &Option<SpecialHand>| s.as_ref().map(|s| s.kind);
            pr.steps[SPECIAL] = rules.specials.pays(kind(sa), kind(sb));
            return pr;
        }
        let (fa, fb) = (self.fouled[a], self.fouled[b]);
        // 3. Both fouled.
        if fa && fb {
            pr.lanes = Some(Lane::ALL.map(LaneResult::drawn));
            return pr;
        }
        // 4. Lanes.
        let (lanes, won, lanes_total) = self.lanes(a, b);
        pr.lanes = Some(lanes);
        pr.steps[LANES] = lanes_total;
        // 5. Majority bonus.
        pr.steps[MAJORITY] = rules.majority.pays(won[0], won[1]);
        // 6. Scoop.
        let scooper = if won[0] == 3 {
            Some(a)
        } else if won[1] == 3 {
            Some(b)
        } else {
            None
        };
        let scooper = scooper.filter(|_| !(fa || fb) || rules.foul_counts_as_scoop);
        if let Some(w) = scooper {
            scoops.push((w, if w == a { b } else { a }));
            let so_far = pr.steps[LANES] + pr.steps[MAJORITY];
            pr.steps[SCOOP] = rules.scoop.pays(w == a, so_far);
        }
        pr
    }

    /// Step 4 of the pair `a < b`: the three lanes, the lanes each side won and the lanes'
    /// units signed from A's side. A fouled side loses every lane.
    fn lanes(&self, a: usize, b: usize) -> ([LaneResult; 3], [u8; 2], i64) {
        let rules = self.rules;
        let (va, vb) = (
            self.values[a].expect("arranged"),
            self.values[b].expect("arranged"),
        );
        let (fa, fb) = (self.fouled[a], self.fouled[b]);
        let (Submission::Arranged(arr_a), Submission::Arranged(arr_b)) =
            (&self.subs[a], &self.subs[b])
        else {
            unreachable!("both arranged")
        };
        let mut won = [0u8; 2];
        let mut lanes_total = 0i64;
        let mut lane_results = Lane::ALL.map(LaneResult::drawn);
        for lane in Lane::ALL {
            let i = lane as usize;
            let winner = if fa || fb {
                Some(if fa { b } else { a })
            } else {
                let mut cmp = va[i]
                    .cmp(&vb[i])
                    .then_with(|| break_tie(arr_a.lane(lane), arr_b.lane(lane), va[i], rules));
                if cmp == Ordering::Equal && rules.mode == Mode::Banker && rules.banker_wins_ties {
                    cmp = if a == self.banker {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    };
                }
                match cmp {
                    Ordering::Greater => Some(a),
                    Ordering::Less => Some(b),
                    Ordering::Equal => None,
                }
            };
            if let Some(w) = winner {
                let cat = if w == a { va[i] } else { vb[i] }.category();
                let units = rules.lane_value(lane, cat);
                lane_results[i] = LaneResult {
                    lane,
                    winner: Some(w),
                    category: Some(cat),
                    units,
                };
                won[(w == b) as usize] += 1;
                lanes_total += if w == a { units } else { -units };
            }
        }
        (lane_results, won, lanes_total)
    }
}

/// Steps 1 to 9 of a checked table into `scratch`: each seat's lane values and foul, every
/// compared pair's result, the scoops and home runs, the units per seat.
fn score_steps(
    scratch: &mut Scratch,
    subs: &[Submission],
    rules: &Rules,
    table: &Checked<'_>,
) -> Result<()> {
    let n = subs.len();
    let Scratch {
        gone,
        values,
        fouled_flag,
        pairs,
        results,
        scoops,
        home_runs,
        totals,
    } = scratch;
    gone.clear();
    gone.resize(n, false);
    for &s in table.gone_list {
        gone[s] = true;
    }
    values.clear();
    values.resize(n, None);
    fouled_flag.clear();
    fouled_flag.resize(n, false);
    for (seat, sub) in subs.iter().enumerate() {
        if let (Submission::Arranged(a), false) = (sub, gone[seat]) {
            let v = a.values(rules.wheel);
            fouled_flag[seat] = values_foul(&v);
            values[seat] = Some(v);
        }
    }
    if rules.foul == FoulPolicy::Reject {
        if let Some(player) = (0..n).find(|&s| fouled_flag[s]) {
            return Err(Error::Fouled { player });
        }
    }

    // --- the compared pairs ---------------------------------------------------------------
    let banker = table.banker;
    pairs.clear();
    match rules.mode {
        Mode::Banker => pairs.extend(
            (0..n)
                .filter(|&p| p != banker)
                .map(|p| (banker.min(p), banker.max(p))),
        ),
        Mode::AllPairs => pairs.extend((0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)))),
    }
    let seats = Seats {
        subs,
        rules,
        banker,
        gone,
        values,
        fouled: fouled_flag,
        declared: table.declared,
    };
    results.clear();
    scoops.clear();
    for &(a, b) in pairs.iter() {
        // Steps 1 to 6.
        results.push(seats.pair(a, b, scoops));
    }

    // 7. Home run: the hitter scooped every other seat still in the showdown.
    home_runs.clear();
    if rules.home_run.counts(table.dealt_in) {
        for p in HomeRun::hitters(rules.mode, banker, n) {
            if gone[p] || table.declared[p].is_some() {
                continue;
            }
            let mut opponents = (0..n).filter(|&q| q != p && !gone[q]).peekable();
            if opponents.peek().is_some() && opponents.all(|q| scoops.contains(&(p, q))) {
                home_runs.push(p);
            }
        }
    }
    for pr in results.iter_mut() {
        let (a, b) = pr.seats;
        if gone[a] || gone[b] {
            continue;
        }
        for &p in home_runs.iter() {
            if p == a || p == b {
                pr.steps[HOME_RUN] = rules.home_run.pays(p == a, pr.steps.iter().sum());
            }
        }
    }
    // 8. Horse card.
    if let Some(horse) = rules.horse_card {
        for pr in results.iter_mut() {
            let (a, b) = pr.seats;
            if gone[a] || gone[b] {
                continue;
            }
            if horse.held_by(subs[a].cards()) || horse.held_by(subs[b].cards()) {
                pr.steps[HORSE] = horse.pays(pr.steps.iter().sum());
            }
        }
    }
    // 9. Banker stakes.
    if rules.mode == Mode::Banker {
        for pr in results.iter_mut() {
            let (a, b) = pr.seats;
            let player = if a == banker { b } else { a };
            let stake = table.stakes.map_or(BankerStake::ONE, |s| s[player]);
            pr.steps[STAKE] = stake.pays(pr.steps.iter().sum::<i64>());
        }
    }

    totals.clear();
    totals.resize(n, 0);
    for pr in results.iter_mut() {
        pr.total = pr.steps.iter().sum();
        totals[pr.seats.0] += pr.total;
        totals[pr.seats.1] -= pr.total;
    }
    Ok(())
}

/// Settles `data.len() / (players × cards)` tables of arrangements given as card codes (per
/// seat: front 3, middle 5, back 5) and returns the units per seat, table after table. The first
/// bad table's error is returned, its message naming the table index.
///
/// Errors: [`Error::WrongCount`] unless each seat's row holds 13 `cards`; then
/// [`Error::BadPlayerCount`], and those of [`settle`].
pub fn settle_batch(
    data: &[u8],
    players: usize,
    cards: usize,
    rules: &Rules,
    banker: i64,
) -> Result<Vec<i64>> {
    if cards != HAND_SIZE {
        return Err(Error::WrongCount {
            expected: HAND_SIZE,
            got: cards,
            lane: None,
            player: None,
        });
    }
    rules.check_players(players as i64)?;
    let per_table = players * 13;
    if data.len() % per_table != 0 {
        return Err(Error::WrongCount {
            expected: per_table,
            got: data.len() % per_table,
            lane: None,
            player: None,
        });
    }
    let mut out = Vec::with_capacity(data.len() / per_table * players);
    let args = TableArgs {
        banker,
        ..TableArgs::default()
    };
    let mut subs = Vec::with_capacity(players);
    for (t, table) in data.chunks_exact(per_table).enumerate() {
        subs.clear();
        for (seat, row) in table.chunks_exact(13).enumerate() {
            let mut cards = [Card(0); 13];
            for (i, &code) in row.iter().enumerate() {
                cards[i] = Card::from_code(code).ok_or_else(|| Error::BadCard {
                    token: code.to_string(),
                    position: seat * 13 + i,
                })?;
            }
            subs.push(Submission::Arranged(Arrangement {
                front: [cards[0], cards[1], cards[2]],
                middle: cards[3..8].try_into().expect("5 cards"),
                back: cards[8..13].try_into().expect("5 cards"),
            }));
        }
        let s = settle(&subs, rules, &args).map_err(|e| in_table(e, t))?;
        out.extend_from_slice(&s.totals);
    }
    Ok(out)
}

fn in_table(e: Error, table: usize) -> Error {
    Error::InTable {
        table,
        inner: Box::new(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::DeckKind;

    fn arr(text: &str) -> Submission {
        Submission::Arranged(Arrangement::parse(text, DeckKind::Standard).unwrap())
    }

    fn shisanzhang() -> Rules {
        Rules::from_json(
            r#"{"lane_values":{"front":{"base":1,"three_of_a_kind":7},
            "middle":{"base":2,"four_of_a_kind":10,"straight_flush":12},
            "back":{"base":3,"four_of_a_kind":11,"straight_flush":13}},
            "scoop":{"kind":"bonus","units":6},"home_run":{"kind":"bonus","units":12,"min_players":4},
            "specials":{"dragon":36}}"#,
        )
        .unwrap()
    }

    #[test]
    fn scoop_and_home_run_shisanzhang() {
        let r = shisanzhang();
        let p = [
            arr("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"),
            arr("Kh 7d 3c | Th Td 6c 6s 2c | Tc Ts 8h 8c 4d"),
            arr("Ks 8d 4h | 9h 9s 7c 7s 3d | As Ac 6h 6d 3h"),
            arr("Kd Qc Js | 5c 5d 4s 4c 8s | 2s 2h 2d 7h 3s"),
        ];
        let two = settle(&p[..2], &r, &TableArgs::default()).unwrap();
        assert_eq!(two.totals, vec![12, -12]);
        let four = settle(&p, &r, &TableArgs::default()).unwrap();
        assert_eq!(four.totals, vec![72, -28, -24, -20]);
        assert_eq!(four.home_runs, vec![0]);
        assert_eq!(four.totals.iter().sum::<i64>(), 0);
    }

    #[test]
    fn kept_buffers_pay_as_fresh_ones_after_a_rejected_foul() {
        // `mc`'s buffers: a 2-seat table refused for a foul (front trips over a high card
        // middle), then the 4- and 2-seat tables above, worked by hand there.
        let r = Rules {
            foul: FoulPolicy::Reject,
            ..shisanzhang()
        };
        let p = [
            arr("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"),
            arr("Kh 7d 3c | Th Td 6c 6s 2c | Tc Ts 8h 8c 4d"),
            arr("Ks 8d 4h | 9h 9s 7c 7s 3d | As Ac 6h 6d 3h"),
            arr("Kd Qc Js | 5c 5d 4s 4c 8s | 2s 2h 2d 7h 3s"),
        ];
        let fouled = arr("Ah Ad Ac | 2d 3h 4h 5s 7c | 8d 9h Jc Qs Kd");
        let mut scratch = Scratch::default();
        let got = settle_known_totals(&[p[1].clone(), fouled], &[None, None], &r, 0, &mut scratch);
        assert!(matches!(got, Err(Error::Fouled { player: 1 })), "{got:?}");
        let got = settle_known_totals(&p, &[None, None, None, None], &r, 0, &mut scratch);
        assert_eq!(got.unwrap(), &[72, -28, -24, -20]);
        let got = settle_known_totals(&p[..2], &[None, None], &r, 0, &mut scratch);
        assert_eq!(got.unwrap(), &[12, -12]);
    }

    /// `settle_known` (no checks, specials given) settles valid tables as `settle` does
    /// (all but what the table shows, which it leaves out), and `settle_known_totals` pays
    /// the same units with its buffers reused from table to table of different sizes:
    /// random deals arranged greedily, with seats holding a special declaring it, under
    /// scoop, home-run, majority, horse-card and banker rule sets.
    #[test]
    fn settle_known_equals_settle_on_valid_tables() {
        use crate::deal::{rng_for, shuffle};
        let mut kaixin = shisanzhang();
        for (k, special) in Special::ALL.into_iter().enumerate() {
            kaixin.specials.set(special, 3 + k as i64, k as u8);
        }
        kaixin.horse_card = Some(crate::rules::HorseCard {
            card: crate::cards::parse_cards("Ah").unwrap()[0],
        });
        let banker = Rules {
            mode: Mode::Banker,
            banker_wins_ties: true,
            majority: crate::rules::Majority { units: 1 },
            ..shisanzhang()
        };
        // Hands holding specials (six pairs, three flushes, a dragon), dealt among the others.
        let specials = [
            "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah",
            "2h 5h 9h 3s 6s 8s Ts Ks 2c 4c 7c Jc Ac",
            "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",
        ];
        let mut rng = rng_for(5);
        let mut declared_seen = 0;
        // One set of buffers for every table, as `solve_mc` keeps them.
        let mut scratch = Scratch::default();
        for rules in [kaixin, banker] {
            for t in 0..60 {
                let n = 2 + t % 3;
                let mut deck = DeckKind::Standard.cards();
                shuffle(&mut deck, &mut rng);
                let mut hands: Vec<[Card; 13]> = (0..n)
                    .map(|s| deck[13 * s..13 * s + 13].try_into().unwrap())
                    .collect();
                if t % 4 == 0 {
                    // One seat holds a special; the others are dealt from what is left.
                    let sp: Vec<Card> = crate::cards::parse_cards(specials[t / 4 % 3]).unwrap();
                    let mut rest: Vec<Card> =
                        deck.iter().copied().filter(|c| !sp.contains(c)).collect();
                    shuffle(&mut rest, &mut rng);
                    hands[0] = sp.try_into().unwrap();
                    for (s, h) in hands.iter_mut().enumerate().skip(1) {
                        *h = rest[13 * (s - 1)..13 * s].try_into().unwrap();
                    }
                }
                let mut subs = Vec::new();
                let mut declared = Vec::new();
                for h in &hands {
                    match crate::special::find_special(h, &rules) {
                        Some(sp) => {
                            declared_seen += 1;
                            subs.push(Submission::Declared {
                                cards: h.to_vec(),
                                special: None,
                            });
                            declared.push(Some(sp));
                        }
                        None => {
                            subs.push(Submission::Arranged(crate::strategy::greedy::solve_greedy(
                                h, &rules,
                            )));
                            declared.push(None);
                        }
                    }
                }
                let seat = t % n;
                let args = TableArgs {
                    banker: seat as i64,
                    ..TableArgs::default()
                };
                let want = settle(&subs, &rules, &args).unwrap();
                let totals = settle_known_totals(&subs, &declared, &rules, seat, &mut scratch);
                assert_eq!(totals.unwrap(), want.totals.as_slice(), "table {t}");
                let got = settle_known(&subs, &declared, &rules, seat).unwrap();
                // What a table shows is left out; everything it pays is as `settle` has it.
                assert!(got.reveal.iter().all(|r| r.is_empty()), "table {t}");
                assert!(got.specials.is_empty(), "table {t}");
                let got = Settlement {
                    reveal: want.reveal.clone(),
                    specials: want.specials.clone(),
                    ..got
                };
                assert_eq!(got, want, "table {t}");
            }
        }
        assert!(declared_seen >= 20, "{declared_seen} declarations");
    }
}
