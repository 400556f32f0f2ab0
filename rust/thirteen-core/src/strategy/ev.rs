//! The expected-value strategy `ev`: the expected units of a split against the table, from
//! per-lane win-probability tables ([`crate::strategy::lanes`]) and the rule set's scoring, searched
//! exactly ([`crate::strategy::search`]); a held special is declared when its units beat the best
//! split's expectation.
//!
//! **Expected units of a split** against one opponent, treating lanes as independent: the sum
//! over lanes of `P(win) × my lane value − E[opponent's lane value when it wins]`, plus the
//! scoop (打枪) term (`P(win all)` and `P(lose all)`, doubled lanes or bonus units), the
//! majority bonus and a home-run (全垒打) term; times the number of opponents met
//! ([`crate::strategy::model`]).

use std::cell::RefCell;

use crate::arrange::Arrangement;
use crate::cards::{evaluate3, evaluate5, HandValue};
use crate::cards::{validate_hand, Card};
use crate::error::{Lane, Result};
use crate::rules::Rules;
use crate::score::Submission;
use crate::special::{find_special, SpecialHand};
use crate::split::HandSplits;
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::{explain, features, Context, Explained, Scorer};
use crate::strategy::removal::Removal;
use crate::strategy::search::{best_splits, Ask, Candidate, Distinct, Hand, Pricing, SearchStats};

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

impl Choice {
    /// Playing `arrangement`, worth `expected` units.
    pub(crate) fn split(arrangement: Arrangement, expected: f64) -> Choice {
        Choice {
            arrangement: Some(arrangement),
            special: None,
            expected,
        }
    }

    /// Declaring `special`, worth `expected` units.
    pub(crate) fn declared(special: SpecialHand, expected: f64) -> Choice {
        Choice {
            arrangement: None,
            special: Some(special),
            expected,
        }
    }
}

/// Expected units of every legal split, keeping the `top` best (ties: first found), best
/// first. Always at least one: a legal split exists for every hand.
#[cfg(test)]
pub(crate) fn ev_candidates(
    splits: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
) -> Vec<Candidate> {
    ev_candidates_with(
        splits,
        splits.cards(),
        rules,
        tables,
        ctx,
        top,
        Distinct::No,
    )
}

/// As [`ev_candidates`]; with `distinct`, splits whose three lane values (or labels) equal a
/// better candidate's are left out (the same play with other cards). Card removal is that of
/// `held`: the hand's cards, or every card dealt when 13 were kept of more. Exact: the
/// pruned search of [`crate::strategy::search`] finds what a full scan finds.
pub fn ev_candidates_with(
    splits: &HandSplits,
    held: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    distinct: Distinct,
) -> Vec<Candidate> {
    ev_candidates_counted(
        splits,
        held,
        rules,
        tables,
        ctx,
        top,
        distinct,
        &mut SearchStats::default(),
    )
}

/// As [`ev_candidates_with`], counting what the search looked at into `stats`.
#[allow(clippy::too_many_arguments)]
pub fn ev_candidates_counted(
    splits: &HandSplits,
    held: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    distinct: Distinct,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    let hand = Hand {
        cards: splits.cards(),
        v5: splits.five_values(),
        v3: splits.three_values(),
        three_keys: Some(splits.three_keys()),
    };
    let search = |removal: Option<&Removal>, stats: &mut SearchStats| {
        let pricing = Pricing {
            rules,
            tables,
            removal,
            ctx,
        };
        best_splits(&hand, &pricing, Ask::best(top, distinct), stats)
    };
    // The hand's card-removal weights in this thread's buffers (a fresh one only if they
    // are in use: the search does not come back here, so they never are).
    REMOVAL.with(|cell| match cell.try_borrow_mut() {
        Ok(mut removal) => {
            let on = tables.removal_into(held, rules, &mut removal);
            search(on.then_some(&*removal), stats)
        }
        Err(_) => search(tables.removal(held, rules).as_ref(), stats),
    })
}

thread_local! {
    /// Card-removal weights, refilled for each hand searched on this thread.
    static REMOVAL: RefCell<Removal> = RefCell::new(Removal::default());
    /// The subsets' values of the hand solved on this thread, refilled for each hand.
    static SPLITS: RefCell<Option<HandSplits>> = const { RefCell::new(None) };
}

/// `f` of the hand's evaluated subsets, in this thread's buffers (fresh ones only if those
/// are in use, which `f` here never makes them).
fn with_splits<R>(cards: &[Card; 13], rules: &Rules, f: impl FnOnce(&HandSplits) -> R) -> R {
    SPLITS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let splits = match slot.as_mut() {
                Some(s) => {
                    s.refill(cards, rules.wheel);
                    s
                }
                None => slot.insert(HandSplits::new(cards, rules.wheel)),
            };
            f(splits)
        }
        Err(_) => f(&HandSplits::new(cards, rules.wheel)),
    })
}

/// The exact search checked against a full scan, for tests and benchmarks: `(best expected
/// units by the pruned search, best by scoring every legal split, backs searched, splits
/// scored by the pruned search)`.
pub fn ev_check(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
) -> (f64, f64, SearchStats) {
    let splits = HandSplits::new(cards, rules.wheel);
    let mut stats = SearchStats::default();
    let pruned = ev_candidates_counted(
        &splits,
        cards,
        rules,
        tables,
        ctx,
        1,
        Distinct::No,
        &mut stats,
    )[0]
    .expected;
    let full = ev_all(&splits, rules, tables, ctx)
        .iter()
        .map(|c| c.expected)
        .fold(f64::NEG_INFINITY, f64::max);
    (pruned, full, stats)
}

/// [`ev_check`] of a hand given as cards, checked: 13 cards of the rules' deck, none more
/// often than it holds ([`crate::Error::WrongCount`], [`crate::Error::DuplicateCard`]).
pub fn ev_scan(
    cards: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
) -> Result<(f64, f64, SearchStats)> {
    validate_hand(cards, rules.deck, 13)?;
    let hand: &[Card; 13] = cards.try_into().expect("13 cards");
    Ok(ev_check(hand, rules, tables, ctx))
}

/// What the `ev` model believes of `arrangement` for the seat `ctx` ([`explain`]): its
/// lanes' values, and card removal from its 13 cards when the tables use it. Errors: its
/// cards checked against the rules' deck ([`crate::Error::DuplicateCard`]).
pub fn explain_arrangement(
    arrangement: &Arrangement,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
) -> Result<Explained> {
    let cards = arrangement.cards();
    validate_hand(&cards, rules.deck, 13)?;
    let values = [
        evaluate3(&arrangement.front),
        evaluate5(&arrangement.middle, rules.wheel),
        evaluate5(&arrangement.back, rules.wheel),
    ];
    let removal = tables.removal(&cards, rules);
    Ok(explain(values, rules, tables, ctx, removal.as_ref()))
}

/// Expected units of every legal split, the exhaustive way (no pruning); for tests.
pub fn ev_all(
    splits: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
) -> Vec<Candidate> {
    let removal = tables.removal(splits.cards(), rules);
    ev_all_with(splits, rules, tables, ctx, removal.as_ref(), [0; 3])
}

/// As [`ev_all`], with the card removal of `removal` (that of every dealt card when more
/// than 13 were dealt), and only the splits whose front, middle and back hold the cards
/// of `need`'s masks (checked before a split is scored).
pub(crate) fn ev_all_with(
    splits: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    removal: Option<&Removal>,
    need: [u16; 3],
) -> Vec<Candidate> {
    let v3 = splits.three_values();
    let v5 = splits.five_values();
    // Each subset's features in each lane it can fill, once (a lane's features depend only
    // on its value).
    let f = |v: &HandValue, lane| features(*v, lane, tables, rules, ctx.role, removal);
    let fronts: Vec<_> = v3.iter().map(|v| f(v, Lane::Front)).collect();
    let middles: Vec<_> = v5.iter().map(|v| f(v, Lane::Middle)).collect();
    let backs: Vec<_> = v5.iter().map(|v| f(v, Lane::Back)).collect();
    let scorer = Scorer::new(rules, ctx, tables);
    let mut out = Vec::new();
    let placed = need != [0; 3];
    splits.for_each_index(|fi, mi, bi| {
        if placed {
            let (f, m, b) = splits.masks(fi, mi, bi);
            if f & need[0] != need[0] || m & need[1] != need[1] || b & need[2] != need[2] {
                return;
            }
        }
        if v3[fi] <= v5[mi] && v5[mi] <= v5[bi] {
            let e = scorer.score(&fronts[fi], &middles[mi], &backs[bi]);
            out.push(Candidate {
                subsets: (fi, mi, bi),
                expected: e,
            });
        }
    });
    out
}

pub(crate) fn arrangement_of(splits: &HandSplits, c: &Candidate) -> Arrangement {
    let (f, m, b) = c.subsets;
    let (fm, mm, bm) = splits.masks(f, m, b);
    splits.arrangement(&crate::split::Split {
        front: fm,
        middle: mm,
        back: bm,
        values: [HandValue(0); 3],
    })
}

/// Expected units of declaring a special worth `units` at this table.
pub(crate) fn special_expected_units(units: i64, rules: &Rules, ctx: Context) -> f64 {
    units as f64 * ctx.opponents_met(rules) as f64
}

/// Expected units of declaring `special` at this table.
pub fn special_expected(special: &SpecialHand, rules: &Rules, ctx: Context) -> f64 {
    special_expected_units(special.units, rules, ctx)
}

/// Solves 13 cards with the `ev` strategy; `top` also returns the runners-up (best first).
pub fn solve_ev(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
) -> Vec<Choice> {
    solve_ev_with(cards, cards, rules, tables, ctx, top, Distinct::No)
}

/// As [`solve_ev`]; with `distinct`, runners-up differ in some lane's value, or in their
/// label (hints, 牌型提示).
pub fn solve_ev_with(
    cards: &[Card; 13],
    held: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    distinct: Distinct,
) -> Vec<Choice> {
    let mut out: Vec<Choice> = with_splits(cards, rules, |splits| {
        ev_candidates_with(splits, held, rules, tables, ctx, top, distinct)
            .iter()
            .map(|c| Choice::split(arrangement_of(splits, c), c.expected))
            .collect()
    });
    if let Some(sp) = find_special(cards, rules) {
        let e = special_expected(&sp, rules, ctx);
        let pos = out.iter().position(|c| c.expected < e).unwrap_or(out.len());
        out.insert(pos, Choice::declared(sp, e));
        out.truncate(top.max(1));
    }
    out
}

/// What a seat holding `cards` submits for choice `c`: its arrangement, or the declaration
/// of its special (named).
pub(crate) fn submission(cards: &[Card; 13], c: &Choice) -> Submission {
    match (&c.arrangement, &c.special) {
        (Some(a), _) => Submission::Arranged(*a),
        (None, Some(sp)) => Submission::Declared {
            cards: cards.to_vec(),
            special: Some(sp.key().to_string()),
        },
        (None, None) => unreachable!("a choice has an arrangement or a special"),
    }
}
