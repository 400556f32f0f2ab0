//! Swap-three gifts (换三张, RULES.md 7.3): which 0 to `max_cards` of its cards a seat gives,
//! and the expected units of the hand it then plays.
//!
//! **The value of a gift.** A seat holding `H` gives `G`; the other seats give theirs; the
//! pool is shuffled and the seat draws `|G|` of it, a uniformly random `|G|`-subset `D` (its
//! own cards may come back). It then plays `(H \ G) ∪ D`, worth what `ev` expects of that
//! hand's best play (the best split's expected units, or a held special's declaration) for
//! the seat's table. A gift's value is the mean of that over the pool. Giving nothing keeps
//! `H`: its value is exact.
//!
//! **The other seats' gifts** are dealt from the cards this seat does not hold, and each
//! other seat gives what [`crate::strategy::gift_model`] says the engine gives from such a
//! hand.
//!
//! **The search**, with common random numbers (every gift of a size meets the same pools and
//! the same draw positions):
//!
//! 1. each single card is given against [`GiftSearch::screen_pools`] pools (16); the
//!    [`GiftSearch::shortlist`] cards (7) whose gift is worth most are kept;
//! 2. every gift of 1 to `max_cards` of them is valued against the same pools;
//! 3. the best [`GiftSearch::finalists`] (8; more when more are asked for) are valued again
//!    against [`GiftSearch::final_pools`] fresh pools (256), and set against giving
//!    nothing.
//!
//! Hands seen twice are valued once. Everything is drawn from generators keyed by the seed
//! ([`crate::deal::rng_at`] with the round word [`GIFT_STREAM`]), so the decision is a
//! function of the hand, the rules, the tables, the table size and the seed.

use std::collections::HashMap;

use rand::RngCore;

use crate::cards::{validate_hand, Card};
use crate::deal::{rng_at, shuffle, uniform_below};
use crate::error::{Error, Result};
use crate::limits::GIFT_TOP;
use crate::rules::Rules;
use crate::strategy::ev::solve_ev;
use crate::strategy::gift_model::GiftModel;
use crate::strategy::keep::solve_ev_keep;
use crate::strategy::lanes::LaneTables;
use crate::strategy::mc::unseen;
use crate::strategy::model::Context;
use crate::strategy::solve::SolveOptions;

/// The most cards a shortlist holds (its gifts are enumerated as bit masks).
const SHORTLIST_MOST: usize = 13;

/// How much a gift decision searches: see the module's documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GiftSearch {
    /// Pools each single card, and then each gift of the shortlist, is valued against.
    pub screen_pools: usize,
    /// Cards kept after the single cards are screened: gifts are made of them.
    pub shortlist: usize,
    /// Gifts valued again on fresh pools (at least; more when more are asked for).
    pub finalists: usize,
    /// The fresh pools of the finalists.
    pub final_pools: usize,
}

impl GiftSearch {
    /// The engine's search (`benches/gift.py` measures its cost and gain).
    pub const DEFAULT: GiftSearch = GiftSearch {
        screen_pools: 16,
        shortlist: 7,
        finalists: 8,
        final_pools: 256,
    };
}

/// The round word of the generators of the pools ([`crate::deal::rng_at`]`(seed,
/// GIFT_STREAM + stage, pool)`): apart from a deal's (word 0) and `mc`'s samples.
pub const GIFT_STREAM: u64 = 0x6769_6674_0000_0000;

/// How [`gift`] decides: for which seat, from which seed, how many gifts to rank.
#[derive(Clone, Copy, Debug)]
pub struct GiftOptions {
    /// The table size and seat.
    pub ctx: Context,
    /// The seed of the pools.
    pub seed: u64,
    /// Gifts to rank, best first ([`GIFT_TOP`]: 1 to 10).
    pub top: usize,
    /// What the other seats give ([`GiftModel::shipped`] for the table size, unless
    /// another is given: fitting the model).
    pub model: Option<GiftModel>,
    /// How much to search ([`GiftSearch::DEFAULT`]).
    pub search: GiftSearch,
}

impl GiftOptions {
    /// The engine's gift (one, from seed 0) for a seat at a table of `players` (2 to 4),
    /// the banker's when `banker`. Errors: [`Error::BadPlayerCount`] for another size.
    pub fn new(players: usize, banker: bool) -> Result<GiftOptions> {
        Ok(GiftOptions {
            ctx: SolveOptions::new(players, banker)?.ctx,
            seed: 0,
            top: 1,
            model: None,
            search: GiftSearch::DEFAULT,
        })
    }
}

/// One gift and the expected units of the hand played after the swap.
#[derive(Clone, Debug, PartialEq)]
pub struct Gift {
    /// The cards given (none: keep the hand).
    pub cards: Vec<Card>,
    /// Expected units against the table after the swap: exact for giving nothing, else the
    /// mean over [`GiftSearch::final_pools`] pools.
    pub expected: f64,
}

/// One pool the seat draws from: the other seats' gifts, and for each size of gift the
/// positions drawn.
struct Pool {
    /// The other seats' gifts, pooled.
    others: Vec<Card>,
    /// Per gift size `k` (index `k - 1`): the `k` positions drawn among `k + others.len()`,
    /// where positions below `k` are the seat's own cards, in the order given.
    draws: Vec<Vec<u8>>,
}

impl Pool {
    /// Pool `index` of stage `stage`: the other seats dealt from `unseen`, their gifts by
    /// the model, and the draws of each gift size.
    fn new(table: &Table, model: &GiftModel, stage: u64, index: usize) -> Pool {
        let mut rng = rng_at(table.seed, GIFT_STREAM + stage, index as u64);
        let mut deck = table.unseen.to_vec();
        shuffle(&mut deck, &mut rng);
        let max_cards = table.max_cards;
        let mut given = Vec::with_capacity(table.others * max_cards);
        for hand in deck.chunks_exact(table.dealt).take(table.others) {
            given.extend(model.gift(hand, max_cards, &mut rng));
        }
        let draws = (1..=max_cards)
            .map(|k| draw_positions(k, k + given.len(), &mut rng))
            .collect();
        Pool {
            others: given,
            draws,
        }
    }
}

/// What the pools of one decision share: the cards this seat does not hold, the other
/// seats' number and what each is dealt, the most cards a gift holds, the seed.
struct Table {
    unseen: Vec<Card>,
    others: usize,
    dealt: usize,
    max_cards: usize,
    seed: u64,
}

/// `k` distinct positions of `0..n`, uniformly (the first `k` of a partial Fisher–Yates).
fn draw_positions(k: usize, n: usize, rng: &mut impl RngCore) -> Vec<u8> {
    let mut all: Vec<u8> = (0..n as u8).collect();
    for i in 0..k {
        let j = i + uniform_below(rng, (n - i) as u32) as usize;
        all.swap(i, j);
    }
    all.truncate(k);
    all
}

/// The value of hands ([`gift`]'s first paragraph), each hand valued once.
struct Valuer<'a> {
    rules: &'a Rules,
    tables: &'a LaneTables,
    ctx: Context,
    seen: HashMap<u128, f64>,
    hand: Vec<Card>,
}

impl Valuer<'_> {
    /// What `ev` expects of the best play of `cards` (13, or the rules' dealt count).
    fn value(&mut self, cards: &[Card]) -> f64 {
        let mut key = 0u128;
        for c in cards {
            let bit = 1u128 << c.code();
            key |= if key & bit == 0 { bit } else { bit << 64 };
        }
        if let Some(&v) = self.seen.get(&key) {
            return v;
        }
        let v = match <&[Card; 13]>::try_from(cards) {
            Ok(hand) => solve_ev(hand, self.rules, self.tables, self.ctx, 1)[0].expected,
            Err(_) => {
                solve_ev_keep(cards, self.rules, self.tables, self.ctx)
                    .1
                    .expected
            }
        };
        self.seen.insert(key, v);
        v
    }

    /// The mean value of the hand after giving the cards at positions `give` (of the held
    /// hand), over `pools`.
    fn mean(&mut self, held: &[Card], give: &[usize], pools: &[Pool]) -> f64 {
        let k = give.len();
        self.hand.clear();
        self.hand.extend(
            held.iter()
                .enumerate()
                .filter(|(i, _)| !give.contains(i))
                .map(|(_, &c)| c),
        );
        let kept = self.hand.len();
        let mut sum = 0.0;
        for pool in pools {
            self.hand.truncate(kept);
            for &p in &pool.draws[k - 1] {
                let p = p as usize;
                let card = if p < k {
                    held[give[p]]
                } else {
                    pool.others[p - k]
                };
                self.hand.push(card);
            }
            let hand = std::mem::take(&mut self.hand);
            sum += self.value(&hand);
            self.hand = hand;
        }
        sum / pools.len() as f64
    }
}

/// The gifts of 1 to `most` cards made of the positions in `short`, each a sorted list of
/// positions.
fn gifts_of(short: &[usize], most: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for mask in 1u32..(1 << short.len()) {
        if mask.count_ones() as usize <= most {
            let mut g: Vec<usize> = (0..short.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| short[i])
                .collect();
            g.sort_unstable();
            out.push(g);
        }
    }
    out
}

/// The best gifts (换三张, RULES.md 7.3) of `hand` (the cards dealt: `rules.dealt`) for the
/// seat of `options`, best first, at most `options.top`; giving nothing is always valued and
/// listed where it ranks. See the module's documentation for the model and the search.
///
/// Errors: [`Error::RuleSet`] (key `swap`) when the rules have no swap-three;
/// [`Error::OutOfRange`] for `top` outside [`GIFT_TOP`]; [`Error::WrongCount`] for a hand of
/// another size than the rules deal, [`Error::DuplicateCard`] for a card held more often
/// than the deck holds it.
pub fn gift(
    hand: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    options: &GiftOptions,
) -> Result<Vec<Gift>> {
    let max_cards = rules.swap.ok_or_else(|| Error::RuleSet {
        key: "swap".into(),
        message: "these rules have no swap-three".into(),
    })? as usize;
    let top = GIFT_TOP.index(i64::try_from(options.top).unwrap_or(i64::MAX))?;
    let dealt = rules.dealt as usize;
    validate_hand(hand, rules.deck, dealt)?;
    let ctx = options.ctx;
    let table = Table {
        unseen: unseen(hand, rules.deck),
        others: ctx.players - 1,
        dealt,
        max_cards,
        seed: options.seed,
    };
    let model = options
        .model
        .unwrap_or_else(|| GiftModel::shipped(ctx.players));
    let pools = |stage: u64, count: usize| -> Vec<Pool> {
        (0..count)
            .map(|i| Pool::new(&table, &model, stage, i))
            .collect()
    };
    let mut valuer = Valuer {
        rules,
        tables,
        ctx,
        seen: HashMap::new(),
        hand: Vec::with_capacity(dealt),
    };
    let keep = Gift {
        cards: Vec::new(),
        expected: valuer.value(hand),
    };
    let search = options.search;
    let screen = pools(0, search.screen_pools.max(1));
    // 1. Each single card.
    let mut singles: Vec<(f64, usize)> = (0..dealt)
        .map(|p| (valuer.mean(hand, &[p], &screen), p))
        .collect();
    singles.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let short: Vec<usize> = singles
        .iter()
        .take(search.shortlist.min(SHORTLIST_MOST))
        .map(|s| s.1)
        .collect();
    // 2. Every gift of the shortlist.
    let mut race: Vec<(f64, Vec<usize>)> = gifts_of(&short, max_cards)
        .into_iter()
        .map(|g| match singles.iter().find(|s| g == [s.1]) {
            Some(s) => (s.0, g),
            None => (valuer.mean(hand, &g, &screen), g),
        })
        .collect();
    race.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    race.truncate(search.finalists.max(top));
    // 3. The finalists on fresh pools, against giving nothing.
    let fresh = pools(1, search.final_pools.max(1));
    let mut out: Vec<Gift> = vec![keep];
    for (_, g) in race {
        let expected = valuer.mean(hand, &g, &fresh);
        out.push(Gift {
            cards: g.iter().map(|&p| hand[p]).collect(),
            expected,
        });
    }
    out.sort_by(|a, b| {
        b.expected
            .total_cmp(&a.expected)
            .then(a.cards.len().cmp(&b.cards.len()))
    });
    out.truncate(top);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, DeckKind};
    use crate::deal::deal;
    use crate::strategy::train::build_tables;

    fn swap_rules() -> Rules {
        Rules {
            swap: Some(3),
            ..Rules::default()
        }
    }

    fn options(players: usize, seed: u64, top: usize) -> GiftOptions {
        GiftOptions {
            seed,
            top,
            ..GiftOptions::new(players, false).unwrap()
        }
    }

    /// Whether `gift` takes each card from `hand` at most as often as held.
    fn held(gift: &[Card], hand: &[Card]) -> bool {
        let mut left = hand.to_vec();
        gift.iter().all(|c| match left.iter().position(|x| x == c) {
            Some(p) => {
                left.swap_remove(p);
                true
            }
            None => false,
        })
    }

    #[test]
    fn a_gift_is_held_within_the_limit_and_the_same_for_a_seed() {
        let rules = swap_rules();
        let tables = LaneTables::from_counts(&build_tables(&rules, 4, 200, 1, 3), &rules);
        for (seed, players) in [(1, 4), (2, 2), (3, 3), (4, 4)] {
            let hand = &deal(&rules, players, seed).unwrap().hands[0];
            let ranked = gift(hand, &rules, &tables, &options(players, seed, 5)).unwrap();
            assert_eq!(ranked.len(), 5);
            assert!(ranked.windows(2).all(|w| w[0].expected >= w[1].expected));
            // Keeping every card is always valued, exactly: the hand's best play.
            let keep = ranked
                .iter()
                .find(|g| g.cards.is_empty())
                .map(|g| g.expected);
            let hand13: [Card; 13] = hand.as_slice().try_into().unwrap();
            let ctx = options(players, seed, 1).ctx;
            let exact = solve_ev(&hand13, &rules, &tables, ctx, 1)[0].expected;
            if let Some(k) = keep {
                assert_eq!(k.to_bits(), exact.to_bits());
            } else {
                assert!(ranked[4].expected >= exact);
            }
            for g in &ranked {
                assert!(g.cards.len() <= 3 && held(&g.cards, hand), "{g:?}");
            }
            let again = gift(hand, &rules, &tables, &options(players, seed, 5)).unwrap();
            assert_eq!(again, ranked);
        }
        // Swap-three of one card at most: no gift holds two.
        let one = Rules {
            swap: Some(1),
            ..Rules::default()
        };
        let hand = &deal(&one, 4, 9).unwrap().hands[1];
        for g in gift(hand, &one, &tables, &options(4, 9, 10)).unwrap() {
            assert!(g.cards.len() <= 1);
        }
    }

    #[test]
    fn a_pool_of_the_seats_own_cards_gives_its_hand_back() {
        // RULES.md 7.3: each seat draws back as many as it gave, from the pooled gifts. When
        // the others give nothing, the pool is the seat's own gift: every gift is worth
        // exactly what keeping the hand is, and keeping ranks first.
        let rules = swap_rules();
        let tables = LaneTables::default();
        let none = GiftModel {
            sizes: [1000, 0, 0, 0],
            ..GiftModel::START
        };
        let hand = parse_cards("2c 5d 7h 9s Jc Kd Ah 3s 6c 8d Th Qs 4c").unwrap();
        let o = GiftOptions {
            model: Some(none),
            ..options(4, 5, 10)
        };
        let ranked = gift(&hand, &rules, &tables, &o).unwrap();
        assert!(ranked[0].cards.is_empty());
        let keep = ranked[0].expected;
        assert!(ranked.iter().all(|g| g.expected == keep), "{ranked:?}");
    }

    #[test]
    fn bad_requests_are_refused_by_name() {
        let tables = LaneTables::default();
        let hand = DeckKind::Standard.cards()[..13].to_vec();
        // No swap-three in the rules.
        let err = gift(&hand, &Rules::default(), &tables, &options(4, 0, 1)).unwrap_err();
        assert!(
            matches!(err, Error::RuleSet { ref key, .. } if key == "swap"),
            "{err:?}"
        );
        let rules = swap_rules();
        for top in [0, 11] {
            let err = gift(&hand, &rules, &tables, &options(4, 0, top)).unwrap_err();
            assert!(matches!(err, Error::OutOfRange { ref key, max: 10, .. } if key == "top"));
        }
        let err = gift(&hand[..12], &rules, &tables, &options(4, 0, 1)).unwrap_err();
        assert!(err.is_wrong_count(13, 12), "{err:?}");
        let mut twice = hand.clone();
        twice[12] = twice[0];
        let err = gift(&twice, &rules, &tables, &options(4, 0, 1)).unwrap_err();
        assert!(matches!(err, Error::DuplicateCard { .. }), "{err:?}");
        assert!(matches!(
            GiftOptions::new(5, false).unwrap_err(),
            Error::BadPlayerCount {
                got: crate::Given::Int(5),
                ..
            }
        ));
    }

    #[test]
    fn the_model_gives_held_cards_within_its_sizes() {
        let mut rng = rng_at(3, 0, 0);
        let hand = parse_cards("2c 2d 7h 9s Jc Kd Ah 3s 6c 8d Th Qs 4c").unwrap();
        // Only loose cards have weight here: the pair of twos is never given.
        let m = GiftModel {
            sizes: [0, 0, 0, 1000],
            loose: [1; 13],
            paired: [0; 13],
        };
        for _ in 0..200 {
            let g = m.gift(&hand, 3, &mut rng);
            assert_eq!(g.len(), 3);
            assert!(held(&g, &hand));
            assert!(g.iter().all(|c| c.rank() != crate::cards::Rank::Two));
            assert!(m.gift(&hand, 1, &mut rng).len() == 1);
        }
        // Fewer cards with weight than the size drawn: those only.
        let two = parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c").unwrap();
        assert_eq!(m.gift(&two, 3, &mut rng), parse_cards("5c").unwrap());
        for players in 2..=4 {
            let s = GiftModel::shipped(players);
            assert_eq!(s.sizes.iter().sum::<u32>(), 1000);
        }
    }
}
