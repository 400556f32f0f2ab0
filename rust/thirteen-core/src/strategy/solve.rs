//! Auto-arrange (代打) and hints: one entry, [`solve`], for the strategies: the greedy
//! baseline ([`crate::strategy::greedy`]), the expected-value strategy `ev` ([`crate::strategy::ev`]) built on
//! per-lane win-probability tables ([`crate::strategy::lanes`], trained by self-play in
//! [`crate::strategy::train`]), and the Monte Carlo strategy `mc` ([`crate::strategy::mc`]); 16 dealt and hands
//! finished with cards placed in [`crate::strategy::keep`].

use rayon::prelude::*;

use crate::cards::{check_duplicates, validate_hand, Card};
use crate::error::{Error, Result};
use crate::limits::{COMPLETE_KEEP_LIMIT, MC_SAMPLES, SOLVE_TOP};
use crate::rules::Rules;
use crate::score::Submission;
use crate::strategy::ev::{solve_ev, solve_ev_with, submission, Choice};
use crate::strategy::greedy::solve_greedy;
use crate::strategy::keep::{complete_keep, solve_ev_keep};
use crate::strategy::lanes::LaneTables;
use crate::strategy::mc::solve_mc;
use crate::strategy::model::{Context, Role};
use crate::strategy::search::Distinct;
use crate::strategy::surrender::{surrender_expected, surrenders};

/// The strategy used to arrange a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Strongest back, then middle.
    Greedy,
    /// Expected value from lane tables.
    Ev,
    /// Monte Carlo: `ev`'s play, set against its other best plays on `samples` deals of the
    /// unseen cards, shuffled from `seed` ([`crate::strategy::mc`]).
    Mc {
        /// Deals of the unseen cards.
        samples: usize,
        /// Seed of the deals.
        seed: u64,
    },
}

impl Strategy {
    /// The names of the strategies, as callers write them.
    pub const NAMES: [&'static str; 3] = ["ev", "mc", "greedy"];

    /// The strategy named `name` (`"ev"`, `"mc"` with `samples` and `seed`, or `"greedy"`).
    /// Errors: [`Error::InvalidArgument`] for another name.
    pub fn named(name: &str, samples: usize, seed: u64) -> Result<Strategy> {
        match name {
            "ev" => Ok(Strategy::Ev),
            "mc" => Ok(Strategy::Mc { samples, seed }),
            "greedy" => Ok(Strategy::Greedy),
            other => Err(Error::InvalidArgument {
                message: format!(
                    "unknown strategy {other:?} (expected \"ev\", \"mc\" or \"greedy\")"
                ),
            }),
        }
    }

    /// The strategy's name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Ev => "ev",
            Strategy::Mc { .. } => "mc",
            Strategy::Greedy => "greedy",
        }
    }
}

/// How [`solve`] (and [`complete`], [`solve_batch`]) solve a hand: for which seat, by which
/// strategy, how many plays, kept apart how.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// The table size and seat.
    pub ctx: Context,
    /// The strategy.
    pub strategy: Strategy,
    /// Plays to rank, best first (1 to [`SOLVE_TOP`]'s most).
    pub top: usize,
    /// Which plays of `ev` the list keeps apart (hints: [`Distinct::Labels`]).
    pub distinct: Distinct,
}

impl SolveOptions {
    /// One play by `ev` for a seat at a table of `players` (a size some rule set allows,
    /// [`crate::limits::TABLE_SIZE`]: 2 to 4), the banker's when `banker` (else a player's).
    /// Errors: [`Error::BadPlayerCount`] for another table size.
    pub fn new(players: usize, banker: bool) -> Result<SolveOptions> {
        let players = Rules::check_table_size(i64::try_from(players).unwrap_or(i64::MAX))?;
        let role = if banker { Role::Banker } else { Role::Player };
        Ok(SolveOptions {
            ctx: Context { players, role },
            strategy: Strategy::Ev,
            top: 1,
            distinct: Distinct::No,
        })
    }
}

/// A solved hand: the 13 cards kept (the cards dealt when 13 were), the plays, best first
/// (at least one), and what surrendering is worth when the rules allow it.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The cards kept.
    pub kept: Vec<Card>,
    /// The plays, best first.
    pub choices: Vec<Choice>,
    /// The expected units of surrendering (RULES.md 5 step 1,
    /// [`crate::strategy::surrender::surrender_expected`]), `None` when the rules do not
    /// allow it.
    pub surrender: Option<f64>,
}

impl Solved {
    /// Whether the seat surrenders: surrendering loses strictly less than the best play
    /// (never with `greedy`, whose play has no expectation).
    pub fn surrenders(&self) -> bool {
        surrenders(self.surrender, self.choices[0].expected)
    }
}

/// The number of cards a hand to solve holds, checked: 13, or `rules.dealt` (16 in 多三张,
/// 13 then kept), each card of the rules' deck and none more often than it holds. Errors:
/// [`Error::DealtCount`] (neither 13 nor `rules.dealt`, when the rules deal more),
/// [`Error::WrongCount`], [`Error::DuplicateCard`].
pub fn dealt_size(dealt: &[Card], rules: &Rules) -> Result<usize> {
    let size = if dealt.len() == 13 {
        13
    } else {
        rules.dealt as usize
    };
    if size > 13 && dealt.len() != size {
        return Err(Error::DealtCount {
            dealt: size,
            got: dealt.len(),
        });
    }
    validate_hand(dealt, rules.deck, size)?;
    Ok(size)
}

/// Solves one hand (代打, hints): `dealt` 13 cards, or `rules.dealt` (16 in 多三张: the best
/// 13 by `ev` are kept, card removal from every card dealt), by `options`' strategy for its
/// seat. `ev` lists `options.top` plays kept apart by `options.distinct` (a held special's
/// declaration among them where it ranks); `mc` ([`solve_mc`]) weighs `ev`'s play against
/// its other best plays on sampled deals and lists its choice first (with more than 13
/// dealt, the 13 kept are its choice's), then the plays it weighed by mean; `greedy` plays one split, its expectation NaN. Errors: those of
/// [`dealt_size`], and [`Error::OutOfRange`] for `top` outside [`SOLVE_TOP`] or `mc`'s
/// samples outside [`MC_SAMPLES`].
pub fn solve(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    options: &SolveOptions,
) -> Result<Solved> {
    dealt_size(dealt, rules)?;
    let top = SOLVE_TOP.index(i64::try_from(options.top).unwrap_or(i64::MAX))?;
    if let Strategy::Mc { samples, .. } = options.strategy {
        MC_SAMPLES.index(i64::try_from(samples).unwrap_or(i64::MAX))?;
    }
    let ctx = options.ctx;
    if let Strategy::Mc { samples, seed } = options.strategy {
        let (kept, choices) = solve_mc(dealt, rules, tables, ctx, samples, seed, top);
        return Ok(Solved {
            kept,
            choices,
            surrender: surrender_expected(rules, ctx),
        });
    }
    let kept: Vec<Card> = if dealt.len() == 13 {
        dealt.to_vec()
    } else {
        solve_ev_keep(dealt, rules, tables, ctx).0
    };
    let hand: [Card; 13] = kept.as_slice().try_into().expect("13 kept");
    let choices = match options.strategy {
        Strategy::Greedy => vec![Choice {
            arrangement: Some(solve_greedy(&hand, rules)),
            special: None,
            expected: f64::NAN,
        }],
        Strategy::Ev | Strategy::Mc { .. } => {
            solve_ev_with(&hand, dealt, rules, tables, ctx, top, options.distinct)
        }
    };
    Ok(Solved {
        kept,
        choices,
        surrender: surrender_expected(rules, ctx),
    })
}

/// The legal ways to finish a hand with some cards already placed (牌型提示 while
/// arranging): `dealt` as in [`solve`], `placed[lane]` the cards already in front, middle
/// and back; at most `limit` finishes, best first, priced for `options`' seat
/// ([`complete_keep`]). Errors: those of [`dealt_size`]; with more than 13 dealt,
/// [`Error::OutOfRange`] for `limit` beyond [`COMPLETE_KEEP_LIMIT`]; [`Error::WrongCount`]
/// for a lane over-full (the first named), else [`Error::CardNotHeld`] for a placed card not
/// dealt (the first).
pub fn complete(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    options: &SolveOptions,
    placed: &[Vec<Card>; 3],
    limit: usize,
) -> Result<Vec<Choice>> {
    if dealt_size(dealt, rules)? > 13 {
        COMPLETE_KEEP_LIMIT.check(i64::try_from(limit).unwrap_or(i64::MAX))?;
    }
    complete_keep(dealt, rules, tables, options.ctx, placed, limit)
}

/// Arranges (or declares) a hand for play with `strategy`.
pub fn play(
    cards: &[Card; 13],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    strategy: Strategy,
) -> Submission {
    let choice = match strategy {
        Strategy::Greedy => return Submission::Arranged(solve_greedy(cards, rules)),
        Strategy::Ev => solve_ev(cards, rules, tables, ctx, 1).remove(0),
        Strategy::Mc { samples, seed } => solve_mc(cards, rules, tables, ctx, samples, seed, 1)
            .1
            .remove(0),
    };
    submission(cards, &choice)
}

/// The hands of a batch: `codes` row after row, `width` card codes a row (13, or
/// `rules.dealt`). Errors: [`Error::WrongCount`] for another width, [`Error::BadCard`] for a
/// code that is no card (its position in `codes`), [`Error::InTable`] naming the row of a
/// card held more often than the deck holds it.
fn batch_hands(codes: &[u8], width: usize, rules: &Rules) -> Result<Vec<Vec<Card>>> {
    if width != 13 && width != rules.dealt as usize {
        return Err(Error::WrongCount {
            expected: rules.dealt as usize,
            got: width,
            lane: None,
            player: None,
        });
    }
    let mut hands = Vec::with_capacity(codes.len() / width);
    for (i, row) in codes.chunks(width).enumerate() {
        let cards: Vec<Card> = row
            .iter()
            .enumerate()
            .map(|(j, &c)| {
                Card::from_code(c).ok_or(Error::BadCard {
                    token: c.to_string(),
                    position: i * width + j,
                })
            })
            .collect::<Result<_>>()?;
        check_duplicates(&cards, rules.deck, |_| None).map_err(|e| Error::InTable {
            table: i,
            inner: Box::new(e),
        })?;
        hands.push(cards);
    }
    Ok(hands)
}

/// [`solve_batch`]'s plays as two flat arrays (numpy's layout): the 13 card codes of each hand,
/// row after row, and each hand's declared special index, `-1` when arranged.
pub fn batch_arrays(plays: &[([Card; 13], Option<usize>)]) -> (Vec<u8>, Vec<i8>) {
    let codes = plays.iter().flat_map(|(cards, _)| cards.map(Card::code));
    let specials = plays.iter().map(|(_, sp)| sp.map_or(-1, |k| k as i8));
    (codes.collect(), specials.collect())
}

/// Solves many hands in parallel with `options`' strategy (`ev` or `greedy`) for its seat:
/// `codes` row after row, `width` card codes a row (13, or `rules.dealt`: the best 13 are
/// kept, by `ev`). Returns per hand the 13 cards in front, middle, back order (for a
/// declared special: the 13 kept cards as dealt) and the declared special's canonical index
/// (`None` when arranged). Errors: [`Error::InvalidArgument`] for `mc`, then those of the
/// rows ([`Error::WrongCount`] for another width, [`Error::BadCard`] for a code that is no
/// card, at its position in `codes`, [`Error::InTable`] naming the row of a card held more
/// often than the deck holds it).
pub fn solve_batch(
    codes: &[u8],
    width: usize,
    rules: &Rules,
    tables: &LaneTables,
    options: &SolveOptions,
) -> Result<Vec<([Card; 13], Option<usize>)>> {
    let (ctx, strategy) = (options.ctx, options.strategy);
    if let Strategy::Mc { .. } = strategy {
        return Err(Error::InvalidArgument {
            message: "unknown batch strategy \"mc\" (expected \"ev\" or \"greedy\")".into(),
        });
    }
    let hands = batch_hands(codes, width, rules)?;
    Ok(hands
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
                    _ => (hand, play(&hand, rules, tables, ctx, strategy)),
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
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrange::is_foul;
    use crate::cards::parse_cards;
    use crate::cards::DeckKind;
    use crate::deal::{rng_for, shuffle};
    use crate::split::HandSplits;
    use crate::strategy::ev::{ev_all, ev_candidates, solve_ev};
    use crate::strategy::mc::MC_EV_PLAYS;
    use crate::strategy::model::Role;
    use crate::strategy::train::build_tables;

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
            crate::cards::evaluate5(&g.back, rules.wheel).category(),
            crate::cards::Category::Straight
        );
    }

    fn kaixin_extra() -> Rules {
        Rules {
            deck: DeckKind::ExtraDiamonds,
            dealt: 16,
            ..Rules::default()
        }
    }

    #[test]
    fn solve_checks_the_seat_the_cards_and_the_bounds_before_solving() {
        let rules = Rules::default();
        let tables = LaneTables::default();
        // Table sizes the strategies price: 2 to 4.
        for players in [0, 1, 5] {
            assert_eq!(
                SolveOptions::new(players, false).unwrap_err(),
                Error::BadPlayerCount {
                    got: crate::Given::Int(players as i64),
                    allowed: vec![2, 3, 4]
                }
            );
        }
        let options = SolveOptions::new(3, false).unwrap();
        assert_eq!(options.ctx.players, 3);
        assert_eq!(options.ctx.role, Role::Player);
        assert_eq!(SolveOptions::new(2, true).unwrap().ctx.role, Role::Banker);
        // 12 cards: a count error naming 13; 14 of 16 dealt: neither the kept nor the dealt.
        let deck = DeckKind::ExtraDiamonds.cards();
        let err = solve(&deck[..12], &rules, &tables, &options).unwrap_err();
        assert!(err.is_wrong_count(13, 12), "{err:?}");
        let err = solve(&deck[..14], &kaixin_extra(), &tables, &options).unwrap_err();
        assert_eq!(err, Error::DealtCount { dealt: 16, got: 14 });
        assert_eq!(
            err.to_string(),
            "wrong number of cards: expected 13 (the cards kept) or 16 (every card dealt), got 14"
        );
        // The extra diamonds twice in a standard deal.
        let twice: Vec<Card> = deck[..12].iter().chain(&deck[52..53]).copied().collect();
        assert!(matches!(
            solve(&twice, &rules, &tables, &options).unwrap_err(),
            Error::DuplicateCard { .. }
        ));
        let hand = &deck[..13];
        for top in [0, 1001] {
            let o = SolveOptions { top, ..options };
            let err = solve(hand, &rules, &tables, &o).unwrap_err();
            assert!(
                matches!(err, Error::OutOfRange { ref key, .. } if key == "top"),
                "{err:?}"
            );
        }
        let mc = |samples| SolveOptions {
            strategy: Strategy::Mc { samples, seed: 1 },
            ..options
        };
        let err = solve(hand, &rules, &tables, &mc(0)).unwrap_err();
        assert!(matches!(err, Error::OutOfRange { ref key, .. } if key == "samples"));
        assert!(solve(hand, &rules, &tables, &mc(2)).is_ok());
    }

    #[test]
    fn strategies_are_named_and_mc_weighs_at_least_sixteen_plays() {
        assert_eq!(Strategy::named("ev", 5, 6), Ok(Strategy::Ev));
        assert_eq!(Strategy::named("greedy", 5, 6), Ok(Strategy::Greedy));
        assert_eq!(
            Strategy::named("mc", 5, 6),
            Ok(Strategy::Mc {
                samples: 5,
                seed: 6
            })
        );
        let err = Strategy::named("best", 5, 6).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown strategy \"best\" (expected \"ev\", \"mc\" or \"greedy\")"
        );
        for name in Strategy::NAMES {
            assert_eq!(Strategy::named(name, 1, 0).unwrap().name(), name);
        }
        // One play asked of mc: it still weighs sixteen of ev's plays at the least (a hand
        // of many distinct plays has that many), its choice first, the rest ranked.
        let rules = Rules::default();
        let tables = LaneTables::from_counts(&build_tables(&rules, 4, 50, 1, 1), &rules);
        let options = SolveOptions {
            strategy: Strategy::Mc {
                samples: 4,
                seed: 9,
            },
            ..SolveOptions::new(4, false).unwrap()
        };
        let h = hand("2c 5d 7h 9s Jc Kd Ah 3s 6c 8d Th Qs 4c");
        let solved = solve(&h, &rules, &tables, &options).unwrap();
        assert!(
            solved.choices.len() >= MC_EV_PLAYS,
            "{}",
            solved.choices.len()
        );
        assert!(solved.choices[1..]
            .windows(2)
            .all(|w| w[0].expected >= w[1].expected));
        // Greedy: one play, its expectation not a number.
        let greedy = SolveOptions {
            strategy: Strategy::Greedy,
            ..options
        };
        let solved = solve(&h, &rules, &tables, &greedy).unwrap();
        assert_eq!(solved.choices.len(), 1);
        assert!(solved.choices[0].expected.is_nan());
        assert_eq!(solved.kept, h.to_vec());
    }

    #[test]
    fn complete_bounds_the_finishes_of_more_than_13_cards() {
        let rules = kaixin_extra();
        let tables = LaneTables::default();
        let options = SolveOptions::new(3, false).unwrap();
        let deck = DeckKind::ExtraDiamonds.cards();
        let placed: [Vec<Card>; 3] = Default::default();
        let err = complete(&deck[..16], &rules, &tables, &options, &placed, 10_001).unwrap_err();
        assert!(matches!(err, Error::OutOfRange { ref key, max: 10_000, .. } if key == "limit"));
        // 13 cards: any limit only truncates.
        let some = complete(&deck[..13], &rules, &tables, &options, &placed, usize::MAX);
        assert!(!some.unwrap().is_empty());
    }

    #[test]
    fn a_batch_refuses_mc_first_then_names_the_bad_code_and_the_table() {
        let rules = Rules::default();
        let tables = LaneTables::default();
        let options = SolveOptions::new(4, false).unwrap();
        let mc = SolveOptions {
            strategy: Strategy::Mc {
                samples: 1,
                seed: 0,
            },
            ..options
        };
        // Every row a duplicate: mc is refused before the rows are read.
        let zeros = [0u8; 26];
        let err = solve_batch(&zeros, 13, &rules, &tables, &mc).unwrap_err();
        assert!(err.to_string().contains("strategy"), "{err}");
        let err = solve_batch(&zeros, 13, &rules, &tables, &options).unwrap_err();
        assert_eq!(err.to_string(), "table 0: duplicate card 2d");
        let err = solve_batch(&zeros[..14], 14, &rules, &tables, &options).unwrap_err();
        assert!(err.is_wrong_count(13, 14), "{err:?}");
        let mut codes: Vec<u8> = (0..26).collect();
        codes[20] = 52;
        let err = solve_batch(&codes, 13, &rules, &tables, &options).unwrap_err();
        assert_eq!(
            err,
            Error::BadCard {
                token: "52".into(),
                position: 20
            }
        );
        codes[20] = 20;
        let out = solve_batch(&codes, 13, &rules, &tables, &options).unwrap();
        assert_eq!(out.len(), 2);
    }
}
