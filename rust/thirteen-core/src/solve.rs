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

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashSet;

use rayon::prelude::*;

use crate::arrange::Arrangement;
use crate::card::{Card, DeckKind};
use crate::deal::{rng_at, shuffle};
use crate::error::{Error, Lane};
use crate::eval::HandValue;

use crate::model::{features, Scorer};
use crate::removal::Removal;
use crate::rules::{Mode, Rules};
use crate::score::{settle_known_totals, Scratch, Submission};
use crate::search::{best_splits, Distinct, Need, SearchStats};
use crate::special::{find_special, SpecialHand};
use crate::split::HandSplits;

pub use crate::search::Candidate;

pub use crate::lanes::{LaneCounts, LaneDist, LaneTables};
pub use crate::model::{Context, Role};
pub use crate::train::build_tables;

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

/// Expected units of every legal split, keeping the `top` best (ties: first found), best
/// first. Always at least one: a legal split exists for every hand.
pub fn ev_candidates(
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
/// pruned search of [`crate::search`] finds what a full scan finds.
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
    let search = |removal: Option<&Removal>, stats: &mut SearchStats| {
        best_splits(
            splits.cards(),
            splits.five_values(),
            splits.three_values(),
            Some(splits.three_keys()),
            rules,
            tables,
            removal,
            ctx,
            top,
            distinct,
            stats,
        )
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
fn ev_all_with(
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

/// Expected units of declaring a special worth `units` at this table.
fn special_expected_units(units: i64, rules: &Rules, ctx: Context) -> f64 {
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
            .map(|c| Choice {
                arrangement: Some(arrangement_of(splits, c)),
                special: None,
                expected: c.expected,
            })
            .collect()
    });
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

/// Highest expected units first: the order of candidate and choice lists (a NaN compares
/// equal to everything).
pub(crate) fn best_first(a: f64, b: f64) -> Ordering {
    b.partial_cmp(&a).unwrap_or(Ordering::Equal)
}

/// The positions in `cards` of the placed cards (each held card placed at most once): all
/// of them, and those of each lane. Errors: [`Error::WrongCount`] naming the first lane that
/// holds more than its size, else [`Error::CardNotHeld`] naming the first placed card not
/// held (or placed more often than held).
fn placed_positions(cards: &[Card], placed: &[Vec<Card>; 3]) -> Result<(u32, [u32; 3]), Error> {
    for (lane, want) in Lane::ALL.into_iter().zip(placed) {
        if want.len() > lane.size() {
            return Err(Error::WrongCount {
                expected: lane.size(),
                got: want.len(),
                lane: Some(lane),
                player: None,
            });
        }
    }
    let mut used = 0u32;
    let mut need = [0u32; 3];
    for (lane, want) in placed.iter().enumerate() {
        for &card in want {
            let pos = (0..cards.len())
                .find(|&i| cards[i] == card && used & (1 << i) == 0)
                .ok_or(Error::CardNotHeld { card })?;
            used |= 1 << pos;
            need[lane] |= 1 << pos;
        }
    }
    Ok((used, need))
}

/// The arrangements of `found` (best first), each once, at most `limit`: a card held twice
/// (the 65-card deck's diamonds) makes the same arrangement from two splits of positions.
fn distinct_choices(
    found: &[Candidate],
    limit: usize,
    arrangement_of: impl Fn(&Candidate) -> Arrangement,
) -> Vec<Choice> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for c in found {
        if out.len() == limit {
            break;
        }
        let arrangement = arrangement_of(c);
        if seen.insert(arrangement) {
            out.push(Choice {
                arrangement: Some(arrangement),
                special: None,
                expected: c.expected,
            });
        }
    }
    out
}

/// The legal ways to finish a hand when some cards are already placed (牌型提示 while
/// arranging): `placed[lane]` lists cards already in front, middle and back. Every legal
/// split of 13 of `dealt` (13 to 16 cards; with more than 13, kaixin 多三张, 13 are kept)
/// that keeps the placed cards in their lanes, each distinct arrangement once, with its
/// expected units, best first (at most `limit`). Priced as [`solve_ev_keep`] chooses the
/// cards to keep: card removal from every dealt card. Exact: one pruned search of the
/// dealt cards over the splits that hold the placed cards in their lanes
/// ([`crate::search::best_splits_above`] with a [`Need`]); a card held twice makes one
/// arrangement of several splits of positions, and more splits are asked for until
/// `limit` arrangements are found or none is left. Errors: [`Error::WrongCount`] when a
/// lane holds more placed cards than its size, [`Error::CardNotHeld`] when a placed card is
/// not dealt (or placed more often than dealt).
pub fn complete_keep(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    placed: &[Vec<Card>; 3],
    limit: usize,
) -> Result<Vec<Choice>, Error> {
    let n = dealt.len();
    assert!((13..=16).contains(&n), "13 to 16 cards");
    let (_, lanes) = placed_positions(dealt, placed)?;
    if limit == 0 {
        return Ok(Vec::new());
    }
    let removal = tables.removal(dealt, rules);
    // 13 cards: the evaluator's values (and its threes' keys) at once.
    let thirteen = <&[Card; 13]>::try_from(dealt)
        .ok()
        .map(|h| HandSplits::new(h, rules.wheel));
    let more;
    let (v5, v3): (&[HandValue], &[HandValue]) = match &thirteen {
        Some(s) => (s.five_values(), s.three_values()),
        None => {
            more = crate::search::subset_values(dealt, rules.wheel);
            (&more.0, &more.1)
        }
    };
    let need = Need { lanes, held: 0 };
    // 13 cards make at most 1,287 × 56 splits: asking for more finds no more.
    let mut top = if n == 13 { limit.min(1287 * 56) } else { limit };
    loop {
        let found = crate::search::best_splits_above(
            dealt,
            v5,
            v3,
            thirteen.as_ref().map(|s| s.three_keys()),
            rules,
            tables,
            removal.as_ref(),
            ctx,
            top,
            Distinct::No,
            f64::NEG_INFINITY,
            need,
            &mut SearchStats::default(),
        );
        let out = distinct_choices(&found, limit, |c| arrangement_at(dealt, c));
        if out.len() == limit || found.len() < top {
            return Ok(out);
        }
        top = top.saturating_mul(2);
    }
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

/// The cards of a position mask of `cards`, high to low (rank, then suit), for display.
fn pick(cards: &[Card], m: u32) -> Vec<Card> {
    let mut out: Vec<Card> = (0..cards.len())
        .filter(|i| m & (1 << i) != 0)
        .map(|i| cards[i])
        .collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

/// The arrangement of a candidate split of `cards` (13 to 16; subsets indexed as
/// [`crate::search::subsets`]).
fn arrangement_at(cards: &[Card], c: &Candidate) -> Arrangement {
    let subs = crate::search::subsets(cards.len());
    let (fi, mi, bi) = c.subsets;
    Arrangement {
        front: pick(cards, subs.three[fi]).try_into().expect("3"),
        middle: pick(cards, subs.five[mi]).try_into().expect("5"),
        back: pick(cards, subs.five[bi]).try_into().expect("5"),
    }
}

/// The best split of 13 of `cards` (13 to 16 of them) by `ev`, priced with `removal`, and
/// its expected units: searched over the cards directly (back-major, pruned by the same
/// bounds as [`ev_candidates`]; the cards left out are whatever the best split does not
/// use).
fn best_kept(
    cards: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    removal: Option<&Removal>,
    ctx: Context,
) -> (Arrangement, f64) {
    best_kept_above(
        cards,
        rules,
        tables,
        removal,
        ctx,
        f64::NEG_INFINITY,
        Need::default(),
    )
    .expect("a legal split")
}

/// As [`best_kept`], when some split that keeps the cards at the positions of `need` is
/// worth more than `above` (the search pruned against it from the start).
fn best_kept_above(
    cards: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    removal: Option<&Removal>,
    ctx: Context,
    above: f64,
    need: Need,
) -> Option<(Arrangement, f64)> {
    let (v5, v3) = crate::search::subset_values(cards, rules.wheel);
    let mut stats = SearchStats::default();
    let c = *crate::search::best_splits_above(
        cards,
        &v5,
        &v3,
        None,
        rules,
        tables,
        removal,
        ctx,
        1,
        Distinct::No,
        above,
        need,
        &mut stats,
    )
    .first()?;
    let arrangement = arrangement_at(cards, &c);
    Some((arrangement, c.expected))
}

/// The best 13 of `dealt` cards (16 in kaixin 多三张) and their play by `ev`: the best split
/// of any 13 of them ([`best_kept`], card removal from every dealt card), and every way to
/// keep 13 is checked for a special worth declaring.
///
/// **Horse card** (马牌, RULES.md 5 step 8): when it is dealt here, keeping it doubles every
/// result of this seat, so plays are compared at twice their expected units when they keep
/// it: a hand expected to win keeps it when the best 13 holding it are worth more than half
/// the best without it, and a hand expected to lose drops it when it can lose less than
/// twice as much without it. Each choice's `expected` is its units before the doubling (as
/// for 13 cards, where every play keeps the horse card alike).
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
    let removal = tables.removal(dealt, rules);
    let horse = rules
        .horse_card
        .and_then(|h| dealt.iter().position(|&c| c == h.card));
    // A play's worth for the choice: its expected units, doubled when it keeps the horse.
    let worth = |cards: &[Card], e: f64| match horse {
        Some(h) if cards.contains(&dealt[h]) => 2.0 * e,
        _ => e,
    };
    let (mut arrangement, mut e) = best_kept(dealt, rules, tables, removal.as_ref(), ctx);
    if let Some(h) = horse {
        let with = arrangement.cards().contains(&dealt[h]);
        if with && e < 0.0 {
            // Losing: the best 13 of the other cards (without any copy of it: a 65-card
            // deck may deal it twice) may lose less undoubled.
            let without: Vec<Card> = dealt.iter().copied().filter(|&c| c != dealt[h]).collect();
            if without.len() >= 13 {
                let (a, e2) = best_kept(&without, rules, tables, removal.as_ref(), ctx);
                if e2 > 2.0 * e {
                    (arrangement, e) = (a, e2);
                }
            }
        } else if !with && e > 0.0 {
            // Winning without it: the best 13 that keep it may be worth more doubled, when
            // worth more than half the best (one search of the dealt cards, pruned against
            // that, over the splits that hold it).
            let need = Need {
                held: 1 << h,
                ..Need::default()
            };
            if let Some((a, e2)) =
                best_kept_above(dealt, rules, tables, removal.as_ref(), ctx, e / 2.0, need)
            {
                (arrangement, e) = (a, e2);
            }
        }
    }
    let mut kept = arrangement.cards().to_vec();
    let mut value = worth(&kept, e);
    let mut choice = Choice {
        arrangement: Some(arrangement),
        special: None,
        expected: e,
    };
    // A special held by some 13 of the cards, when declaring it beats the split. Skipped
    // when no recognised special could beat it (even doubled by a horse card), or when only
    // the dragons are recognised and the cards lack one of the 13 ranks.
    let most = rules.specials.units.iter().copied().max().unwrap_or(0);
    let most = worth(dealt, special_expected_units(most, rules, ctx));
    let dragons_only = rules.specials.units[2..].iter().all(|&u| u <= 0);
    let ranks = dealt.iter().fold(0u16, |m, c| m | 1 << c.rank_index());
    if most > value && (!dragons_only || ranks == 0x1fff) {
        for drop in (0..=all).filter(|m| m.count_ones() as usize == n - 13) {
            let hand: Vec<Card> = pick(dealt, all & !drop);
            let hand13: [Card; 13] = hand.as_slice().try_into().expect("13");
            if let Some(sp) = find_special(&hand13, rules) {
                let se = special_expected(&sp, rules, ctx);
                if worth(&hand, se) > value {
                    value = worth(&hand, se);
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
        Strategy::Ev => submission(cards, &solve_ev(cards, rules, tables, ctx, 1)[0]),
    }
}

/// What a seat holding `cards` submits for choice `c`: its arrangement, or the declaration
/// of its special (named).
fn submission(cards: &[Card; 13], c: &Choice) -> Submission {
    match (&c.arrangement, &c.special) {
        (Some(a), _) => Submission::Arranged(*a),
        (None, Some(sp)) => Submission::Declared {
            cards: cards.to_vec(),
            special: Some(sp.key().to_string()),
        },
        (None, None) => unreachable!("a choice has an arrangement or a special"),
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
            let (hand, submission) = if dealt.len() == 13 {
                let hand: [Card; 13] = dealt.as_slice().try_into().expect("13");
                (hand, play(&hand, rules, tables, ctx, strategy))
            } else {
                // The 13 kept, and with `ev` their play as chosen (card removal from every
                // card dealt).
                let (kept, choice) = solve_ev_keep(dealt, rules, tables, ctx);
                let hand: [Card; 13] = kept.try_into().expect("13");
                match strategy {
                    Strategy::Ev => (hand, submission(&hand, &choice)),
                    Strategy::Greedy => (hand, play(&hand, rules, tables, ctx, strategy)),
                }
            };
            match submission {
                Submission::Arranged(a) => (a.cards(), None),
                Submission::Declared { special, .. } => (
                    hand,
                    special.as_deref().and_then(crate::rules::special_index),
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrange::is_foul;
    use crate::card::parse_cards;
    use crate::deal::rng_for;

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

    /// Every legal finish of a 13-card hand with the placed cards in their lanes, priced
    /// one by one (no pruning), best first, at most `limit`: the oracle of the search.
    fn complete_scan(
        cards: &[Card; 13],
        rules: &Rules,
        tables: &LaneTables,
        ctx: Context,
        placed: &[Vec<Card>; 3],
        limit: usize,
    ) -> Option<Vec<Choice>> {
        let (_, need) = placed_positions(cards, placed).ok()?;
        let splits = HandSplits::new(cards, rules.wheel);
        let removal = tables.removal(splits.cards(), rules);
        let need = need.map(|m| m as u16);
        let mut all = ev_all_with(&splits, rules, tables, ctx, removal.as_ref(), need);
        all.sort_by(|a, b| best_first(a.expected, b.expected));
        Some(distinct_choices(&all, limit, |c| {
            arrangement_of(&splits, c)
        }))
    }

    #[test]
    fn complete_names_an_over_full_lane_first_then_a_card_not_held() {
        let cards = hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc");
        let c = |t: &str| parse_cards(t).unwrap();
        let rules = Rules::default();
        let tables = LaneTables::from_counts(&build_tables(&rules, 4, 50, 1, 1), &rules);
        let ctx = Context {
            players: 4,
            role: Role::Player,
        };
        let run = |placed: [Vec<Card>; 3]| complete_keep(&cards, &rules, &tables, ctx, &placed, 5);
        // The 2 of hearts is not held, and the back holds six: the back is named.
        let err = run([c("2h"), vec![], c("2c 3d 4h 5s 6c 7d")]).unwrap_err();
        assert_eq!(
            err,
            Error::WrongCount {
                expected: 5,
                got: 6,
                lane: Some(Lane::Back),
                player: None
            }
        );
        // The king of spades placed twice, held once; then a card not held at all.
        let twice = run([c("Ks"), c("Ks"), vec![]]).unwrap_err();
        assert_eq!(twice, Error::CardNotHeld { card: c("Ks")[0] });
        let absent = run([vec![], c("Kc Ah"), vec![]]).unwrap_err();
        assert_eq!(absent, Error::CardNotHeld { card: c("Ah")[0] });
        assert_eq!(run([c("2c"), c("3d"), c("4h")]).unwrap().len(), 5);
    }

    #[test]
    fn complete_of_13_cards_lists_the_best_finishes_as_a_scan_does() {
        // Rising lane values with and without the royal bonuses, lane values that fall (a
        // front pair worth more than front trips), a banker's seat; 0 to 6 cards placed.
        let mut royal = Rules::default();
        royal.lane_values[0][3] = 3;
        royal.lane_values[1][6] = 2;
        royal.lane_values[2][7] = 4;
        let mut falling = Rules::default();
        falling.lane_values[0][1] = 9;
        let banker = Rules {
            mode: crate::rules::Mode::Banker,
            ..Rules::default()
        };
        let mut rng = rng_for(41);
        for (r, rules) in [Rules::default(), royal, falling, banker]
            .iter()
            .enumerate()
        {
            let counts = build_tables(rules, 4, 300, 2, 3);
            let tables = LaneTables::from_counts(&counts, rules);
            for case in 0..14 {
                let ctx = Context {
                    players: 2 + case % 3,
                    role: if r == 3 && case % 2 == 0 {
                        Role::Banker
                    } else {
                        Role::Player
                    },
                };
                let mut deck = DeckKind::Standard.cards();
                shuffle(&mut deck, &mut rng);
                let cards: [Card; 13] = deck[..13].try_into().unwrap();
                // `case / 2` cards placed: back, front, middle in turn.
                let mut placed: [Vec<Card>; 3] = Default::default();
                for (k, &c) in cards[..case / 2].iter().enumerate() {
                    placed[(k + 2) % 3].push(c);
                }
                let all = complete_scan(&cards, rules, &tables, ctx, &placed, usize::MAX).unwrap();
                let price: std::collections::HashMap<Arrangement, f64> = all
                    .iter()
                    .map(|c| (c.arrangement.unwrap(), c.expected))
                    .collect();
                for limit in [1, 5, 20, 300, 1_000_000] {
                    let got = complete_keep(&cards, rules, &tables, ctx, &placed, limit).unwrap();
                    assert_eq!(got.len(), limit.min(all.len()), "rules {r} case {case}");
                    let mut seen = HashSet::new();
                    for (c, want) in got.iter().zip(&all) {
                        assert!(
                            (c.expected - want.expected).abs() < 1e-9,
                            "rules {r} case {case} limit {limit}: {} vs {}",
                            c.expected,
                            want.expected
                        );
                        let a = c.arrangement.unwrap();
                        assert!(
                            (price[&a] - c.expected).abs() < 1e-9,
                            "priced as a scan does"
                        );
                        assert!(seen.insert(a), "listed once");
                    }
                }
            }
        }
    }

    #[test]
    fn complete_keep_lists_the_best_finishes_of_every_13_kept() {
        // 16 dealt from the extra diamonds (no card removal there, so a 13 kept is priced
        // alike alone): the finishes are those of the ways to keep 13 that hold the placed
        // cards, merged (each 13-card list a full scan), best first, each arrangement once.
        // Lane values that rise, and a front pair worth more than front trips (the bounds
        // at the envelope, fronts scored until their bound fails). The best 300 of each 13
        // kept hold the best 300 of all.
        let rising = Rules {
            deck: DeckKind::ExtraDiamonds,
            dealt: 16,
            ..Rules::default()
        };
        let mut falling = rising.clone();
        falling.lane_values[0][1] = 9;
        assert!(!crate::model::lane_values_monotone(&falling));
        let counts = build_tables(&rising, 4, 300, 2, 3);
        let ctx = Context {
            players: 3,
            role: Role::Player,
        };
        let mut rng = rng_for(31);
        for (case, rules) in [&rising, &falling].into_iter().cycle().take(10).enumerate() {
            let tables = LaneTables::from_counts(&counts, rules);
            let mut deck = DeckKind::ExtraDiamonds.cards();
            shuffle(&mut deck, &mut rng);
            let dealt = &deck[..16];
            // `case` cards placed: front, middle, back in turn.
            let mut placed: [Vec<Card>; 3] = Default::default();
            for (k, &c) in dealt[..case].iter().enumerate() {
                placed[k % 3].push(c);
            }
            let mut merged: std::collections::HashMap<Arrangement, f64> = Default::default();
            for drop in
                (0u32..1 << 16).filter(|m| m.count_ones() == 3 && m & ((1 << case) - 1) == 0)
            {
                let kept: [Card; 13] = pick(dealt, !drop).try_into().unwrap();
                for c in complete_scan(&kept, rules, &tables, ctx, &placed, 300).unwrap() {
                    merged.insert(c.arrangement.unwrap(), c.expected);
                }
            }
            let mut want: Vec<f64> = merged.values().copied().collect();
            want.sort_by(|a, b| best_first(*a, *b));
            for limit in [1, 7, 40, 300] {
                let got = complete_keep(dealt, rules, &tables, ctx, &placed, limit).unwrap();
                assert_eq!(got.len(), limit.min(want.len()), "case {case}");
                let mut seen = HashSet::new();
                for (c, e) in got.iter().zip(&want) {
                    assert!(
                        (c.expected - e).abs() < 1e-9,
                        "case {case}: {} vs {e}",
                        c.expected
                    );
                    let a = c.arrangement.unwrap();
                    assert!((merged[&a] - c.expected).abs() < 1e-9, "priced as kept");
                    assert!(seen.insert(a), "listed once");
                }
                // Every finish worth more than the last listed is listed.
                let last = got.last().map_or(f64::INFINITY, |c| c.expected);
                let above = merged.values().filter(|&&e| e > last + 1e-9).count();
                assert!(
                    above < got.len() || got.is_empty(),
                    "case {case}: {above} above"
                );
            }
        }
    }
}
