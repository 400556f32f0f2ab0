//! The deals `mc` samples: the other seats dealt from the unseen cards and arranged by `ev`,
//! and the plays weighed settled exactly against each deal, in parallel.

use rayon::prelude::*;

use crate::cards::Card;
use crate::deal::{rng_at, shuffle};
use crate::rules::{Mode, Rules};
use crate::score::{settle_known_totals, Scratch, Submission};
use crate::special::SpecialHand;
use crate::strategy::ev::{solve_ev, submission};
use crate::strategy::keep::solve_ev_keep;
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::{Context, Role};

/// One play `mc` weighs: what the seat submits and the special it declares (`None`: an
/// arrangement).
#[derive(Clone, Debug)]
pub(crate) struct Weighed {
    /// The submission.
    pub(crate) submission: Submission,
    /// The special declared.
    pub(crate) declared: Option<SpecialHand>,
}

/// What the deals gave each play: the sum of its units, and of the difference from the
/// first play's units and its square (for a paired comparison with the first play). Whole
/// units each, so exact whatever the order of addition.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    /// Per play, its units summed over the deals.
    pub(crate) units: Vec<f64>,
    /// Per play, its units less the first play's, summed.
    pub(crate) diff: Vec<f64>,
    /// Per play, the squares of those differences, summed.
    pub(crate) diff_sq: Vec<f64>,
}

impl Tally {
    fn new(plays: usize) -> Tally {
        Tally {
            units: vec![0.0; plays],
            diff: vec![0.0; plays],
            diff_sq: vec![0.0; plays],
        }
    }

    /// Adds one deal's units of each play.
    fn add_deal(&mut self, units: &[i64]) {
        let first = units[0];
        for (i, &u) in units.iter().enumerate() {
            let d = (u - first) as f64;
            self.units[i] += u as f64;
            self.diff[i] += d;
            self.diff_sq[i] += d * d;
        }
    }

    /// Both tallies' deals.
    fn merge(mut self, other: Tally) -> Tally {
        for (a, b) in [
            (&mut self.units, other.units),
            (&mut self.diff, other.diff),
            (&mut self.diff_sq, other.diff_sq),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }
}

/// The [`Tally`] of each play's units over `samples` deals of the other seats' hands from `pool`
/// (the cards this seat was not dealt), shuffled from `seed` (deal `i` from
/// [`rng_at`]`(seed, 0, i)`): each opponent dealt what the rules deal (`rules.dealt`, 13 to
/// 16, where the cards left allow it, else 13) and arranged by `ev`, which keeps its best 13
/// when dealt more ([`solve_ev_keep`]); every play settled exactly against the same deals
/// (a play the table refuses, which a play of held cards never is, counts 0).
pub(crate) fn tally(
    plays: &[Weighed],
    pool: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    samples: usize,
    seed: u64,
) -> Tally {
    let opponents = ctx.players.saturating_sub(1).max(1);
    // What each opponent is dealt: the rules' count, where the cards left allow it.
    let dealt = (rules.dealt as usize).clamp(13, 16);
    let dealt = if opponents * dealt <= pool.len() {
        dealt
    } else {
        13
    };
    let me = match (rules.mode, ctx.role) {
        (Mode::Banker, Role::Banker) => 0,
        (Mode::Banker, Role::Player) => 1,
        _ => 0,
    };
    // Per rayon task: the plays' tally and the buffers each sample refills.
    let buffers = || {
        (
            Tally::new(plays.len()),
            vec![0i64; plays.len()],
            pool.to_vec(),
            Vec::<Submission>::with_capacity(opponents + 1),
            Vec::<Option<SpecialHand>>::with_capacity(opponents + 1),
            Scratch::default(),
        )
    };
    (0..samples)
        .into_par_iter()
        .fold(
            buffers,
            |(mut out, mut units, mut deck, mut table, mut declared, mut scratch), i| {
                let mut rng = rng_at(seed, 0, i as u64);
                deck.copy_from_slice(pool);
                shuffle(&mut deck, &mut rng);
                // Each seat's submission and declared special; the specials are known from the
                // solves, so the table is settled without checking them again per play.
                table.clear();
                declared.clear();
                table.push(plays[0].submission.clone());
                declared.push(None);
                for o in 0..opponents {
                    let octx = Context {
                        players: ctx.players,
                        role: if me == 1 && o == 0 {
                            Role::Banker
                        } else {
                            Role::Player
                        },
                    };
                    let given = &deck[dealt * o..dealt * o + dealt];
                    let (hand, c) = if dealt == 13 {
                        let hand: [Card; 13] = given.try_into().expect("13");
                        (hand, solve_ev(&hand, rules, tables, octx, 1).remove(0))
                    } else {
                        let (kept, c) = solve_ev_keep(given, rules, tables, octx);
                        (kept.as_slice().try_into().expect("13 kept"), c)
                    };
                    table.push(submission(&hand, &c));
                    declared.push(c.special);
                }
                if me == 1 {
                    table.swap(0, 1);
                    declared.swap(0, 1);
                }
                for (pi, play) in plays.iter().enumerate() {
                    table[me] = play.submission.clone();
                    declared[me] = play.declared.clone();
                    units[pi] = settle_known_totals(&table, &declared, rules, 0, &mut scratch)
                        .map_or(0, |totals| totals[me]);
                }
                out.add_deal(&units);
                (out, units, deck, table, declared, scratch)
            },
        )
        .map(|(out, ..)| out)
        .reduce(|| Tally::new(plays.len()), Tally::merge)
}
