//! More cards dealt than played (kaixin 多三张: 16 dealt, 13 kept) and hands finished with
//! some cards placed: the best split of 13 of the cards by `ev`, the horse card's doubling,
//! a special held by some 13, and the legal finishes of a hand, best first.

use std::collections::HashSet;

use crate::arrange::Arrangement;
use crate::cards::Card;
use crate::cards::HandValue;
use crate::error::{Error, Lane};
use crate::rules::Rules;
use crate::special::find_special;
use crate::split::HandSplits;
use crate::strategy::ev::{solve_ev, special_expected, special_expected_units, Choice};
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::Context;
use crate::strategy::removal::Removal;
use crate::strategy::search::{
    best_splits, subset_values, subsets, Ask, Candidate, Distinct, Hand, Need, Pricing, SearchStats,
};

/// The positions in `cards` of the placed cards (each held card placed at most once): all
/// of them, and those of each lane. Errors: [`Error::WrongCount`] naming the first lane that
/// holds more than its size, else [`Error::CardNotHeld`] naming the first placed card not
/// held (or placed more often than held).
pub(crate) fn placed_positions(
    cards: &[Card],
    placed: &[Vec<Card>; 3],
) -> Result<(u32, [u32; 3]), Error> {
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
/// ([`crate::strategy::search::best_splits`] with a [`Need`]); a card held twice makes one
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
    let need = Need { lanes, held: 0 };
    let pricing = Pricing {
        rules,
        tables,
        removal: removal.as_ref(),
        ctx,
    };
    // 13 cards make at most 1,287 × 56 splits: asking for more finds no more.
    let mut top = if n == 13 { limit.min(1287 * 56) } else { limit };
    with_dealt_hand(dealt, rules, |hand| loop {
        let ask = Ask {
            need,
            ..Ask::best(top, Distinct::No)
        };
        let found = best_splits(hand, &pricing, ask, &mut SearchStats::default());
        let out = distinct_choices(&found, limit, |c| arrangement_at(dealt, c));
        if out.len() == limit || found.len() < top {
            return Ok(out);
        }
        top = top.saturating_mul(2);
    })
}

/// The `top` best splits of 13 of `dealt` (13 to 16 cards) by `ev`, kept apart by
/// `distinct`, best first, each as an arrangement with its expected units: card removal
/// from every dealt card, as [`solve_ev_keep`] prices them (no horse card doubling; no
/// special).
pub(crate) fn ranked_splits(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    distinct: Distinct,
) -> Vec<Choice> {
    let removal = tables.removal(dealt, rules);
    let pricing = Pricing {
        rules,
        tables,
        removal: removal.as_ref(),
        ctx,
    };
    let found = with_dealt_hand(dealt, rules, |hand| {
        best_splits(
            hand,
            &pricing,
            Ask::best(top, distinct),
            &mut SearchStats::default(),
        )
    });
    found
        .iter()
        .map(|c| Choice::split(arrangement_at(dealt, c), c.expected))
        .collect()
}

/// `f` of the search's view of `dealt` (13 to 16 cards): the values of its 5- and 3-position
/// subsets (for 13 cards the evaluator's, with its threes' keys).
pub(crate) fn with_dealt_hand<R>(
    dealt: &[Card],
    rules: &Rules,
    f: impl FnOnce(&Hand<'_>) -> R,
) -> R {
    let thirteen = <&[Card; 13]>::try_from(dealt)
        .ok()
        .map(|h| HandSplits::new(h, rules.wheel));
    let more;
    let (v5, v3): (&[HandValue], &[HandValue]) = match &thirteen {
        Some(s) => (s.five_values(), s.three_values()),
        None => {
            more = subset_values(dealt, rules.wheel);
            (&more.0, &more.1)
        }
    };
    f(&Hand {
        cards: dealt,
        v5,
        v3,
        three_keys: thirteen.as_ref().map(|s| s.three_keys()),
    })
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
/// [`crate::strategy::search::subsets`]).
fn arrangement_at(cards: &[Card], c: &Candidate) -> Arrangement {
    let subs = subsets(cards.len());
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
    let (v5, v3) = subset_values(cards, rules.wheel);
    let hand = Hand {
        cards,
        v5: &v5,
        v3: &v3,
        three_keys: None,
    };
    let pricing = Pricing {
        rules,
        tables,
        removal,
        ctx,
    };
    let ask = Ask {
        above,
        need,
        ..Ask::best(1, Distinct::No)
    };
    let c = *best_splits(&hand, &pricing, ask, &mut SearchStats::default()).first()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, DeckKind};
    use crate::deal::{rng_for, shuffle};
    use crate::strategy::ev::{arrangement_of, ev_all_with};
    use crate::strategy::model::Role;
    use crate::strategy::search::best_first;
    use crate::strategy::train::build_tables;

    fn hand(text: &str) -> [Card; 13] {
        parse_cards(text).unwrap().try_into().unwrap()
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
        assert!(!crate::strategy::model::lane_values_monotone(&falling));
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
