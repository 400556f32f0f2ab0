//! The Monte Carlo strategy `mc`: the best `ev` candidates settled exactly against sampled
//! deals of the unseen cards.

use rayon::prelude::*;

use crate::cards::{Card, DeckKind};
use crate::deal::{rng_at, shuffle};
use crate::rules::{Mode, Rules};
use crate::score::{settle_known_totals, Scratch, Submission};
use crate::special::SpecialHand;
use crate::strategy::ev::{solve_ev, solve_ev_with, submission, Choice};
use crate::strategy::keep::solve_ev_keep;
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::{Context, Role};
use crate::strategy::search::{best_first, Distinct};

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
/// ([`solve_ev_keep`]); the `top` best candidates of `ev` of distinct lane values (card
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
    let opponents = ctx.players.saturating_sub(1).max(1);
    let pool = unseen(held, rules.deck);
    // What each opponent is dealt: the rules' count, where the cards left allow it.
    let dealt = (rules.dealt as usize).clamp(13, 16);
    let dealt = if opponents * dealt <= pool.len() {
        dealt
    } else {
        13
    };
    let subs: Vec<Submission> = cands.iter().map(|c| submission(cards, c)).collect();
    let me = match (rules.mode, ctx.role) {
        (Mode::Banker, Role::Banker) => 0,
        (Mode::Banker, Role::Player) => 1,
        _ => 0,
    };
    // Per rayon task: the candidates' sums and the buffers each sample refills. A sample
    // adds whole units, so the sums are exact whatever the order of addition.
    let buffers = || {
        (
            vec![0.0f64; subs.len()],
            pool.clone(),
            Vec::<Submission>::with_capacity(opponents + 1),
            Vec::<Option<SpecialHand>>::with_capacity(opponents + 1),
            Scratch::default(),
        )
    };
    let sums: Vec<f64> = (0..samples)
        .into_par_iter()
        .fold(
            buffers,
            |(mut out, mut deck, mut table, mut declared, mut scratch), i| {
                let mut rng = rng_at(seed, 0, i as u64);
                deck.copy_from_slice(&pool);
                shuffle(&mut deck, &mut rng);
                // Each seat's submission and declared special; the specials are known from the
                // solves, so the table is settled without checking them again per candidate.
                table.clear();
                declared.clear();
                table.push(subs[0].clone());
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
                for (ci, sub) in subs.iter().enumerate() {
                    table[me] = sub.clone();
                    declared[me] = cands[ci].special.clone();
                    if let Ok(totals) =
                        settle_known_totals(&table, &declared, rules, 0, &mut scratch)
                    {
                        out[ci] += totals[me] as f64;
                    }
                }
                (out, deck, table, declared, scratch)
            },
        )
        .map(|(out, ..)| out)
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
    cands.sort_by(|a, b| best_first(a.expected, b.expected));
    cands
}
