//! Shuffling and dealing (RULES.md 7).
//!
//! The seeded shuffle is portable and stable across platforms and versions: the generator is
//! ChaCha20 (`rand_chacha::ChaCha20Rng`, whose output stream is fixed by the ChaCha
//! specification) keyed by the seed's 8 little-endian bytes followed by 24 zero bytes, stream
//! 0, and the shuffle is our own Fisher–Yates: for `i` from `n − 1` down to
//! 1, draw `j` uniform in `0..=i` by rejection sampling on `next_u32` (draw `x`; reject while
//! `x >= 2^32 − (2^32 mod (i + 1))`; `j = x mod (i + 1)`), then swap `i` and `j`. The deck
//! starts in [`DeckKind::cards`] order. A golden deal pins this in the tests.
//!
//! After the shuffle, the same generator draws the cut (切牌, when the rules have `cut`): the
//! cut card's position `uniform_below(deck size)` and the seat that counts as 1
//! `uniform_below(players)`. Seats are numbered counterclockwise, so counting from seat `s`
//! to the cut card's number `k` (A = 1 … K = 13) reaches seat `(s + k − 1) mod players`,
//! which is dealt first; cards then go one at a time to the following seats. Without `cut`,
//! seat 0 is dealt first. The swap-three pool (换三张) is shuffled by a second generator,
//! the same key on stream 1.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::cards::{Card, DeckKind};
use crate::error::{Error, Result};
use crate::rules::Rules;

/// A uniform integer in `0..bound` (`bound >= 1`) by rejection sampling.
pub fn uniform_below(rng: &mut impl RngCore, bound: u32) -> u32 {
    let zone = u32::MAX - (u32::MAX - bound + 1) % bound;
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return x % bound;
        }
    }
}

/// Shuffles `cards` in place with the documented Fisher–Yates walk.
pub fn shuffle(cards: &mut [Card], rng: &mut impl RngCore) {
    for i in (1..cards.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
}

/// The generator for a seed: ChaCha20 keyed by the seed's little-endian bytes, zero-padded
/// (deal 0 of round 0 of [`rng_at`]).
pub fn rng_for(seed: u64) -> ChaCha20Rng {
    rng_at(seed, 0, 0)
}

/// The generator of deal `index` of round `round` under `seed` (a training iteration's
/// deals, a Monte Carlo solve's samples): ChaCha20 keyed by the three numbers' little-endian
/// bytes, each its own word of the key, so that two seeds never share a deal, whatever their
/// bits (mixing them into one word, by exclusive or say, would give seeds that differ below
/// the number of deals the same deals in another order).
pub fn rng_at(seed: u64, round: u64, index: u64) -> ChaCha20Rng {
    let mut key = [0u8; 32];
    for (word, x) in key.chunks_exact_mut(8).zip([seed, round, index]) {
        word.copy_from_slice(&x.to_le_bytes());
    }
    ChaCha20Rng::from_seed(key)
}

/// The deck of `kind`, shuffled with the generator seeded by `seed`.
pub fn shuffled_deck(kind: DeckKind, seed: u64) -> Vec<Card> {
    let mut cards = kind.cards();
    shuffle(&mut cards, &mut rng_for(seed));
    cards
}

/// A deal of one round; it serialises (serde).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Deal {
    /// Each seat's cards, in the order dealt.
    pub hands: Vec<Vec<Card>>,
    /// The shuffled deck the cards came from.
    pub deck: Vec<Card>,
    /// The cut card and the seat that counted as 1 (when the rules have `cut`).
    pub cut: Option<(Card, usize)>,
    /// The seat dealt first.
    pub first: usize,
}

/// Shuffles the rules' deck with `rng`, cuts when the rules say so, and deals `rules.dealt`
/// cards to each of `players` seats, one at a time from the first seat (RULES.md 7).
pub fn deal_with(rules: &Rules, players: usize, rng: &mut impl RngCore) -> Result<Deal> {
    rules.check_players(players as i64)?;
    let mut deck = rules.deck.cards();
    shuffle(&mut deck, rng);
    let mut first = 0;
    let mut cut = None;
    if rules.cut {
        let card = deck[uniform_below(rng, deck.len() as u32) as usize];
        let start = uniform_below(rng, players as u32) as usize;
        let count = card.rank_index() as usize + 2;
        let count = if count == 14 { 1 } else { count };
        first = (start + count - 1) % players;
        cut = Some((card, start));
    }
    let dealt = rules.dealt as usize;
    let mut hands = vec![Vec::with_capacity(dealt); players];
    for (i, &card) in deck.iter().take(dealt * players).enumerate() {
        hands[(first + i) % players].push(card);
    }
    Ok(Deal {
        hands,
        deck,
        cut,
        first,
    })
}

/// [`deal_with`] seeded: the same seed gives the same deal everywhere.
pub fn deal(rules: &Rules, players: usize, seed: u64) -> Result<Deal> {
    deal_with(rules, players, &mut rng_for(seed))
}

/// [`deal_with`] from the operating system's secure random source.
pub fn deal_os(rules: &Rules, players: usize) -> Result<Deal> {
    let mut rng = ChaCha20Rng::from_os_rng();
    deal_with(rules, players, &mut rng)
}

/// Swap-three (换三张): each seat gives `given[seat]` (cards it holds, at most `max_cards`);
/// the given cards are pooled and shuffled, and each seat draws back as many as it gave, in
/// seat order. Returns the new hands (kept cards in their order, drawn cards appended).
pub fn swap(
    hands: &[Vec<Card>],
    given: &[Vec<Card>],
    max_cards: usize,
    rng: &mut impl RngCore,
) -> Result<Vec<Vec<Card>>> {
    if given.len() != hands.len() {
        return Err(Error::WrongCount {
            expected: hands.len(),
            got: given.len(),
            lane: None,
            player: None,
        });
    }
    let mut kept: Vec<Vec<Card>> = Vec::with_capacity(hands.len());
    let mut pool = Vec::new();
    for (seat, (hand, give)) in hands.iter().zip(given).enumerate() {
        if give.len() > max_cards {
            return Err(Error::WrongCount {
                expected: max_cards,
                got: give.len(),
                lane: None,
                player: Some(seat),
            });
        }
        let mut rest = hand.clone();
        for c in give {
            let pos = rest
                .iter()
                .position(|x| x == c)
                .ok_or(Error::InvalidArgument {
                    message: format!("player {seat} gives {c}, which it does not hold"),
                })?;
            rest.remove(pos);
            pool.push(*c);
        }
        kept.push(rest);
    }
    shuffle(&mut pool, rng);
    let mut next = 0;
    for (seat, give) in given.iter().enumerate() {
        kept[seat].extend_from_slice(&pool[next..next + give.len()]);
        next += give.len();
    }
    Ok(kept)
}

/// Swap-three under `rules` (at most `rules.swap` cards a seat): shuffled with the round's
/// `seed` ([`swap_rng`]) or, without one, from the operating system's secure random source.
///
/// Errors: [`Error::RuleSet`] when the rules have no swap-three, and those of [`swap`].
pub fn swap_under(
    rules: &Rules,
    hands: &[Vec<Card>],
    given: &[Vec<Card>],
    seed: Option<u64>,
) -> Result<Vec<Vec<Card>>> {
    let max = rules.swap.ok_or_else(|| Error::RuleSet {
        key: "swap".into(),
        message: "these rules have no swap-three".into(),
    })? as usize;
    match seed {
        Some(s) => swap(hands, given, max, &mut swap_rng(s)),
        None => swap(hands, given, max, &mut ChaCha20Rng::from_os_rng()),
    }
}

/// The swap generator of a seeded round: the seed's generator on stream 1.
pub fn swap_rng(seed: u64) -> ChaCha20Rng {
    let mut rng = rng_for(seed);
    rng.set_stream(1);
    rng
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_deal_is_stable() {
        // Pinned: a change here changes every seeded deal ever recorded.
        let d = shuffled_deck(DeckKind::Standard, 2026);
        assert_eq!(crate::cards::format_cards(&d[..13], false), GOLDEN_2026);
    }

    const GOLDEN_2026: &str = "Td Th 8h 3d 9h 7d Qs Qd Jc 2s 2d 9c 8s";

    #[test]
    fn deal_cut_and_swap() {
        let mut rules = Rules::default();
        let d = deal(&rules, 4, 7).unwrap();
        assert_eq!(d.first, 0);
        assert_eq!(d.hands.len(), 4);
        assert!(d.hands.iter().all(|h| h.len() == 13));
        // One at a time: seat s gets deck cards s, s + 4, s + 8, ...
        assert_eq!(d.hands[1][2], d.deck[1 + 2 * 4]);
        rules.cut = true;
        let c = deal(&rules, 3, 7).unwrap();
        let (card, start) = c.cut.unwrap();
        let count = match card.rank() {
            crate::cards::Rank::Ace => 1,
            r => r as usize,
        };
        assert_eq!(c.first, (start + count - 1) % 3);
        assert_eq!(c.hands[c.first][0], c.deck[0]);
        assert!(deal(&rules, 5, 1).is_err());
        // Swap: everyone gets back as many as given; the multiset of cards is unchanged.
        let given = vec![
            d.hands[0][..3].to_vec(),
            vec![],
            d.hands[2][..1].to_vec(),
            d.hands[3][..2].to_vec(),
        ];
        let after = swap(&d.hands, &given, 3, &mut swap_rng(7)).unwrap();
        let mut before: Vec<Card> = d.hands.concat();
        let mut now: Vec<Card> = after.concat();
        before.sort();
        now.sort();
        assert_eq!(before, now);
        assert!(after.iter().all(|h| h.len() == 13));
        assert_eq!(after[1], d.hands[1]);
        let too_many = vec![d.hands[0][..4].to_vec(), vec![], vec![], vec![]];
        assert!(swap(&d.hands, &too_many, 3, &mut swap_rng(7)).is_err());
        let not_held = vec![d.hands[1][..1].to_vec(), vec![], vec![], vec![]];
        assert!(swap(&d.hands, &not_held, 3, &mut swap_rng(7)).is_err());
    }

    #[test]
    fn uniform_and_complete() {
        let mut rng = rng_for(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[uniform_below(&mut rng, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        let mut d = shuffled_deck(DeckKind::Standard, 42);
        d.sort();
        assert_eq!(d, DeckKind::Standard.cards());
        assert_ne!(
            shuffled_deck(DeckKind::Standard, 1),
            shuffled_deck(DeckKind::Standard, 2)
        );
        assert_eq!(
            shuffled_deck(DeckKind::Standard, 9),
            shuffled_deck(DeckKind::Standard, 9)
        );
    }
}
