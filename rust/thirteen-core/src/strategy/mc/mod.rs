//! The Monte Carlo strategy `mc`: the best `ev` candidates settled exactly against sampled
//! deals of the unseen cards.

mod tally;

use crate::cards::{Card, DeckKind};
use crate::rules::Rules;
use crate::strategy::ev::{solve_ev_with, submission, Choice};
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::Context;
use crate::strategy::search::{best_first, Distinct};
use tally::{tally, Weighed};

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
/// hands from the cards not in `held` (every card dealt to this seat: the 13 kept, `cards`,
/// and with more dealt the ones set aside), each opponent dealt what the rules deal
/// (`rules.dealt`, 13 to 16) and arranged by `ev`, which keeps its best 13 when dealt more
/// ([`crate::strategy::keep::solve_ev_keep`]); the `top` best candidates of `ev` of distinct lane values (card
/// removal from `held`; two plays of the same three values, the same play in other suits,
/// settle alike against every deal), and a held special, are settled exactly against
/// every sample, in parallel; the best mean wins. Returns the candidates with their mean
/// units, best first.
#[allow(clippy::too_many_arguments)]
pub fn solve_mc(
    cards: &[Card; 13],
    held: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    samples: usize,
    seed: u64,
    top: usize,
) -> Vec<Choice> {
    let mut cands = solve_ev_with(
        cards,
        held,
        rules,
        tables,
        ctx,
        top.max(1),
        Distinct::Values,
    );
    let pool = unseen(held, rules.deck);
    let plays: Vec<Weighed> = cands
        .iter()
        .map(|c| Weighed {
            submission: submission(cards, c),
            declared: c.special.clone(),
        })
        .collect();
    let sums = tally(&plays, &pool, rules, tables, ctx, samples, seed);
    for (c, s) in cands.iter_mut().zip(sums) {
        c.expected = s / samples.max(1) as f64;
    }
    cands.sort_by(|a, b| best_first(a.expected, b.expected));
    cands
}
