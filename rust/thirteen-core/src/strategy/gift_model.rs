//! What the other seats give in swap-three (换三张, RULES.md 7.3), as the gift decision
//! ([`crate::strategy::gift`]) models them: how often the engine's own decision gives 0 to 3
//! cards, and how often it gives a card of each rank that it holds once (loose) or more
//! often (paired), measured on random hands.
//!
//! A modelled seat draws the size of its gift from [`GiftModel::sizes`] (never more than
//! the rules allow), then draws that many of its cards one at a time, each with a weight
//! of its rank's rate ([`GiftModel::loose`] or [`GiftModel::paired`]).
//!
//! The shipped models ([`GiftModel::shipped`]) are a fixed point: `benches/gift.py --fit`
//! starts from a seat that gives its three lowest loose cards, lets the engine decide on
//! random hands against the model, measures these rates, and repeats with the rates
//! measured, until they settle.

use rand::RngCore;

use crate::cards::Card;
use crate::deal::uniform_below;

/// How often the engine gives what (per 1,000 decisions, or per 1,000 cards held).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GiftModel {
    /// Gifts of 0, 1, 2 and 3 cards, per 1,000 decisions.
    pub sizes: [u32; 4],
    /// Per rank (2 to ace): the cards given per 1,000 held once in the hand.
    pub loose: [u32; 13],
    /// Per rank: the cards given per 1,000 held twice or more.
    pub paired: [u32; 13],
}

impl GiftModel {
    /// The starting point of the fit: three loose cards given, the lower the likelier.
    pub const START: GiftModel = GiftModel {
        sizes: [0, 0, 0, 1000],
        loose: [
            1000, 900, 800, 700, 600, 500, 400, 300, 200, 100, 50, 20, 10,
        ],
        paired: [0; 13],
    };

    /// The model of the engine at a table of `players` (2 to 4).
    pub fn shipped(players: usize) -> GiftModel {
        SHIPPED[players.clamp(2, 4) - 2]
    }

    /// The cards of `hand` a seat gives under the model, at most `max_cards`, drawn with
    /// `rng`.
    pub fn gift(&self, hand: &[Card], max_cards: usize, rng: &mut impl RngCore) -> Vec<Card> {
        let total: u32 = self.sizes.iter().sum();
        let mut pick = uniform_below(rng, total.max(1));
        let mut k = 0;
        for (size, &share) in self.sizes.iter().enumerate() {
            if pick < share {
                k = size;
                break;
            }
            pick -= share;
        }
        let mut ranks = [0u8; 13];
        for c in hand {
            ranks[c.rank_index() as usize] += 1;
        }
        let mut weights: Vec<u32> = hand
            .iter()
            .map(|c| {
                let r = c.rank_index() as usize;
                if ranks[r] == 1 {
                    self.loose[r]
                } else {
                    self.paired[r]
                }
            })
            .collect();
        let mut out = Vec::with_capacity(k);
        for _ in 0..k.min(max_cards) {
            let sum: u32 = weights.iter().sum();
            if sum == 0 {
                break;
            }
            let mut x = uniform_below(rng, sum);
            let i = weights
                .iter()
                .position(|&w| {
                    if x < w {
                        true
                    } else {
                        x -= w;
                        false
                    }
                })
                .expect("x < sum");
            out.push(hand[i]);
            weights[i] = 0;
        }
        out
    }
}

/// The shipped models at 2, 3 and 4 players: `benches/gift.py --fit --players 4 --hands 800
/// --iterations 8` from [`GiftModel::START`], then `--players 2` and `--players 3` with
/// `--hands 600 --iterations 4 --start` the four players' model (each the last iteration; the
/// sizes rounded to 1,000).
const SHIPPED: [GiftModel; 3] = [
    GiftModel {
        sizes: [18, 62, 215, 705],
        loose: [
            559, 471, 403, 327, 346, 386, 393, 362, 357, 365, 367, 371, 205,
        ],
        paired: [61, 67, 95, 73, 56, 71, 96, 89, 70, 63, 46, 21, 13],
    },
    GiftModel {
        sizes: [15, 60, 176, 749],
        loose: [
            549, 478, 424, 393, 389, 381, 377, 377, 380, 379, 383, 379, 240,
        ],
        paired: [52, 83, 81, 63, 79, 82, 84, 61, 64, 46, 28, 16, 10],
    },
    GiftModel {
        sizes: [10, 56, 144, 790],
        loose: [
            551, 492, 429, 383, 401, 363, 390, 342, 374, 389, 361, 372, 260,
        ],
        paired: [83, 72, 102, 72, 80, 74, 66, 58, 66, 46, 39, 15, 5],
    },
];
