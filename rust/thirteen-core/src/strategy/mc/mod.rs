//! The Monte Carlo strategy `mc`: `ev`'s own play, set against `ev`'s other best plays on
//! sampled deals of the unseen cards, each play settled exactly on the same deals.
//!
//! `ev` prices a split by a model (lanes independent but for the classes of scoops, tables
//! of win rates trained by self-play); `mc` checks its pick where the model may misprice it:
//! it keeps `ev`'s play unless another play's mean units on the same deals beat it by more
//! than [`MC_GATE`] standard errors of the paired difference (a selection among noisy means
//! overrates the winner; the gate keeps a play that only looks better by chance from
//! replacing one the model prefers).

mod plays;
mod tally;

use crate::cards::{Card, DeckKind};
use crate::rules::Rules;
use crate::strategy::ev::{submission, Choice};
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::Context;
use crate::strategy::search::best_first;
pub use plays::MC_EV_PLAYS;
use plays::{plays, Play};
use tally::{tally, Tally, Weighed};

/// Standard errors of the paired difference by which a play's mean units must beat `ev`'s
/// own play's for `mc` to play it instead.
pub const MC_GATE: f64 = 1.0;

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

/// Monte Carlo over the unseen cards (strategy `mc`) for the seat `ctx` holding `dealt` (13
/// cards, or 14 to 16 of which 13 are kept): the plays of [`plays`] (`ev`'s own play, its
/// `top.max(`[`MC_EV_PLAYS`]`)` best of distinct lane values, the best of each lane
/// structure, a held special) are settled exactly against `samples` deals of the other
/// seats' hands from the cards not dealt here, each arranged by `ev` (deals shuffled from
/// `seed`, in parallel: the result depends on the seed only). The play kept is `ev`'s own,
/// unless the best mean of those whose paired mean difference from it exceeds [`MC_GATE`]
/// standard errors (with one sample, none does). Returns the 13 cards the chosen play keeps
/// and the plays with their mean units on the deals: the chosen play first, then the others
/// by mean, best first.
pub fn solve_mc(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    samples: usize,
    seed: u64,
    top: usize,
) -> (Vec<Card>, Vec<Choice>) {
    let mut plays = plays(dealt, rules, tables, ctx, top.max(MC_EV_PLAYS));
    let weighed: Vec<Weighed> = plays
        .iter()
        .map(|p| Weighed {
            submission: submission(&p.kept, &p.choice),
            declared: p.choice.special.clone(),
        })
        .collect();
    let pool = unseen(dealt, rules.deck);
    let sums = tally(&weighed, &pool, rules, tables, ctx, samples, seed);
    let chosen = gate(&sums, samples, MC_GATE);
    let n = samples.max(1) as f64;
    for (p, units) in plays.iter_mut().zip(&sums.units) {
        p.choice.expected = units / n;
    }
    let first = plays.remove(chosen);
    plays.sort_by(|a, b| best_first(a.choice.expected, b.choice.expected));
    let kept = first.kept.to_vec();
    let choices = std::iter::once(first)
        .chain(plays)
        .map(|p: Play| p.choice)
        .collect();
    (kept, choices)
}

/// The play kept after `samples` deals tallied in `sums` (play 0 the reference): of the
/// plays whose mean difference from play 0 exceeds `z` standard errors of that mean (the
/// deals' sample standard deviation over the square root of their number), the one of the
/// highest mean difference (the first of equals); play 0 when none does or with fewer than
/// two deals.
fn gate(sums: &Tally, samples: usize, z: f64) -> usize {
    if samples < 2 {
        return 0;
    }
    let n = samples as f64;
    let mut best = (0, 0.0);
    for (i, (&d, &d2)) in sums.diff.iter().zip(&sums.diff_sq).enumerate().skip(1) {
        let mean = d / n;
        let var = ((d2 - d * d / n) / (n - 1.0)).max(0.0);
        if mean > z * (var / n).sqrt() && mean > best.1 {
            best = (i, mean);
        }
    }
    best.0
}

#[cfg(test)]
mod tests;
