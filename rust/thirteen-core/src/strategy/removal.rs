//! Card removal for the `ev` model: an opponent's lanes are dealt from the cards this seat
//! does not hold, so the lane tables' distribution of an opponent's lane value (counted over
//! all deals, [`crate::strategy::lanes`]) is reweighted for the hand being solved.
//!
//! The values of a lane's table are cut into groups whose cards are named by their ranks:
//! a high card by its top rank, a pair, two pair, trips or quads by the ranks that make them,
//! a straight, a full house or a straight flush by all its ranks, a flush by its top rank.
//! Each value's count is weighted by its group's `ρ`, the chance that the named cards are
//! all among the unseen ones (`C(4 − held, k) / C(4, k)` per rank named `k` times; per suit
//! for flushes and straight flushes) times, for each card the group leaves open (kickers), a
//! random card's chance of being unseen (`C(52 − n, j) / C(52, j)` for `j` open cards, `n`
//! held). The reweighted counts give the lane's `(P(below), P(equal), expected units the
//! opponent collects when above)`; a group's values are kept in value order inside it, so
//! `P(below)` still rises and the expected units still fall as the value rises, and the
//! search's bounds hold ([`crate::strategy::search`]). Only the lanes' own outcomes are reweighted;
//! the events that need all three lanes (scoops, home runs) keep the tables' class rows.
//!
//! Used with the standard deck only (with the extra diamonds a card may be held twice).

use crate::cards::Card;

/// Bits of a hand value below the primary ranks (the kickers; [`crate::cards::HandValue`] layout).
const LOW_MASK: u32 = (1 << 14) - 1;

/// The key of the group holding raw value `v`: the value with what the group leaves open
/// cleared. Non-decreasing in `v`, and at most `v`.
pub(crate) fn group_key(v: u32) -> u32 {
    match v >> 28 {
        // High card: the top rank of the primary mask.
        0 => {
            let primary = (v >> 14) & LOW_MASK;
            if primary == 0 {
                return v;
            }
            (v & 0xF000_0000) | ((1 << (31 - primary.leading_zeros())) << 14)
        }
        // One pair, two pair, trips, quads: the ranks that make them.
        1 | 2 | 3 | 7 => v & !LOW_MASK,
        // Flush: the top rank's nibble.
        5 => v & 0xF00F_0000,
        // Straight, full house, straight flush, five of a kind: every rank.
        _ => v,
    }
}

/// How a group's `ρ` is computed from the hand.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Recipe {
    /// Rank `a` named `ka` times and rank `b` named `kb` times (`kb = 0`: none), `open`
    /// cards left open.
    Ranks {
        a: u8,
        ka: u8,
        b: u8,
        kb: u8,
        open: u8,
    },
    /// A straight with this top rank index (3 = the wheel).
    Straight(u8),
    /// A flush with this top rank index, its other four ranks open below it.
    Flush(u8),
    /// A straight flush with this top rank index.
    StraightFlush(u8),
    /// Nothing named (a value the standard deck has no group for): weight one.
    One,
}

fn top_bit(mask: u32) -> u8 {
    (31 - mask.leading_zeros()) as u8
}

/// The recipe of the group with key `key` in a lane of `size` cards.
pub(crate) fn recipe(key: u32, size: u8) -> Recipe {
    let primary = (key >> 14) & LOW_MASK;
    let low = key & LOW_MASK;
    let straight_top = || {
        if primary & 1 == 1 {
            3
        } else {
            (primary / 2) as u8
        }
    };
    match key >> 28 {
        0 if primary != 0 => Recipe::Ranks {
            a: top_bit(primary),
            ka: 1,
            b: 0,
            kb: 0,
            open: size - 1,
        },
        1 if primary != 0 => Recipe::Ranks {
            a: top_bit(primary),
            ka: 2,
            b: 0,
            kb: 0,
            open: size - 2,
        },
        2 if primary.count_ones() == 2 => Recipe::Ranks {
            a: top_bit(primary),
            ka: 2,
            b: primary.trailing_zeros() as u8,
            kb: 2,
            open: size - 4,
        },
        3 if primary != 0 => Recipe::Ranks {
            a: top_bit(primary),
            ka: 3,
            b: 0,
            kb: 0,
            open: size - 3,
        },
        4 => Recipe::Straight(straight_top()),
        5 => Recipe::Flush((((key >> 16) & 15) as u8).saturating_sub(1)),
        6 if primary != 0 && low != 0 => Recipe::Ranks {
            a: top_bit(primary),
            ka: 3,
            b: top_bit(low),
            kb: 2,
            open: 0,
        },
        7 if primary != 0 => Recipe::Ranks {
            a: top_bit(primary),
            ka: 4,
            b: 0,
            kb: 0,
            open: 1,
        },
        8 => Recipe::StraightFlush(straight_top()),
        _ => Recipe::One,
    }
}

/// The ranks of the straight with top rank index `top` (3: the wheel, ace to five).
fn straight_ranks(top: u8) -> [u8; 5] {
    if top <= 3 {
        [12, 0, 1, 2, 3]
    } else {
        std::array::from_fn(|i| top - i as u8)
    }
}

/// `C(n, k)` for small arguments, as a float.
fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// `RANK_CHANCE[h][k]` = `C(4 − h, k) / C(4, k)`: the chance that `k` named cards of a rank
/// of which `h` are held are all unseen.
const RANK_CHANCE: [[f64; 5]; 5] = [
    [1.0, 1.0, 1.0, 1.0, 1.0],
    [1.0, 3.0 / 4.0, 3.0 / 6.0, 1.0 / 4.0, 0.0],
    [1.0, 2.0 / 4.0, 1.0 / 6.0, 0.0, 0.0],
    [1.0, 1.0 / 4.0, 0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0, 0.0, 0.0],
];

/// Where [`Chances`] keeps the chance of `k` named cards of rank `r`.
#[inline]
fn rank_at(k: u8, r: u8) -> usize {
    13 * k as usize + r as usize
}

/// Where [`Chances::factors_into`] puts the open cards' chances, and the first `ρ` of a
/// group of another recipe.
const OPEN_AT: u16 = 65;
const OTHERS_AT: u16 = OPEN_AT + 6;

/// Places in [`Chances::factors_into`]'s table: one per `u8` index, so that a group's
/// gather needs no bounds check. The values of a deck under a wheel have at most 44 groups
/// of other recipes (`factor_table_holds_every_group`); tables whose groups would not fit
/// (185 or more) weigh nothing (card removal off, [`Groups::weights_into`]).
pub(crate) const FACTORS: usize = 256;

/// For a recipe that names ranks only, where its `ρ`'s factors sit in [`Chances`]: its two
/// ranks' chances and its open cards' (`None` for the other recipes).
fn reads(recipe: Recipe) -> Option<[u8; 3]> {
    match recipe {
        Recipe::Ranks { a, ka, b, kb, open } => {
            Some([rank_at(ka, a) as u8, rank_at(kb, b) as u8, open])
        }
        _ => None,
    }
}

/// The chances, for one held hand, that what a group names is among the unseen cards.
pub(crate) struct Chances {
    /// `ranks[13 k + r]`: `C(4 − held of r, k) / C(4, k)`.
    ranks: [f64; 65],
    /// `open[j]`: `C(52 − n, j) / C(52, j)`.
    open: [f64; 6],
    /// `held[s]`: the rank mask held in suit `s`.
    held: [u16; 4],
}

impl Chances {
    /// The chances for a hand of standard-deck cards.
    pub(crate) fn new(cards: &[Card]) -> Chances {
        let mut count = [0u32; 13];
        let mut held = [0u16; 4];
        for c in cards {
            count[c.rank_index() as usize] += 1;
            held[(c.code() & 3) as usize] |= 1 << c.rank_index();
        }
        let ranks = std::array::from_fn(|i| RANK_CHANCE[count[i % 13].min(4) as usize][i / 13]);
        let unseen = 52u32.saturating_sub(cards.len() as u32);
        let open = std::array::from_fn(|j| choose(unseen, j as u32) / choose(52, j as u32));
        Chances { ranks, open, held }
    }

    /// The `ρ` of a group that names ranks only, from its [`reads`].
    #[inline]
    fn named(&self, [a, b, open]: [u8; 3]) -> f64 {
        self.ranks[a as usize] * self.ranks[b as usize] * self.open[open as usize]
    }

    /// The factors [`Groups::weights_into`] reads by a group's [`Groups::gather`]: the rank
    /// chances, then the open cards' ([`OPEN_AT`]), then one `ρ` per group of another recipe
    /// ([`OTHERS_AT`] on, in `others`' order), zeros after them, [`FACTORS`] in all, the last
    /// always a zero (`others` beyond it are left out: [`Groups::new`] marks such groups as
    /// not fitting).
    fn factors_into(&self, others: &[(u16, Recipe)], out: &mut Vec<f64>) {
        out.clear();
        out.extend_from_slice(&self.ranks);
        out.extend_from_slice(&self.open);
        let room = FACTORS - 1 - OTHERS_AT as usize;
        out.extend(others.iter().take(room).map(|&(_, r)| self.rho(r)));
        out.resize(FACTORS, 0.0);
    }

    /// The group's `ρ`.
    pub(crate) fn rho(&self, recipe: Recipe) -> f64 {
        let unseen = |r: u8, s: usize| (self.held[s] >> r) & 1 == 0;
        match recipe {
            Recipe::Ranks { .. } => self.named(reads(recipe).unwrap_or_default()),
            Recipe::Straight(top) => straight_ranks(top)
                .iter()
                .map(|&r| self.ranks[rank_at(1, r)])
                .product(),
            Recipe::Flush(top) => {
                // Per suit: the top card unseen, and four of the ranks below it unseen.
                let below = (1u16 << top) - 1;
                let ways: f64 = (0..4)
                    .filter(|&s| unseen(top, s))
                    .map(|s| choose((below & !self.held[s]).count_ones(), 4))
                    .sum();
                ways / (4.0 * choose(top as u32, 4)).max(1.0)
            }
            Recipe::StraightFlush(top) => {
                let ranks = straight_ranks(top);
                (0..4)
                    .filter(|&s| ranks.iter().all(|&r| unseen(r, s)))
                    .count() as f64
                    / 4.0
            }
            Recipe::One => 1.0,
        }
    }
}

/// Lane tables of one hand size cut into groups (module docs): the groups of every lane
/// of that size (the middle and back share theirs), in value order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Groups {
    keys: Vec<u32>,
    /// Per group, where its `ρ`'s three factors sit in [`Chances::factors_into`]'s table:
    /// when its recipe names ranks only, its [`reads`] (the open cards' after the ranks');
    /// else its own `ρ`, times two factors of one.
    gather: Vec<[u8; 3]>,
    /// Whether every group's factors have a place in the table (false: card removal off).
    fits: bool,
    /// The groups whose recipe names more than ranks (straights, flushes, straight flushes),
    /// with their recipes.
    others: Vec<(u16, Recipe)>,
    /// Per lane, each group's share of it.
    lanes: Vec<Shares>,
}

/// One lane's shares of the groups, as the lookup slots round them (f32).
#[derive(Clone, Debug, Default)]
struct Shares {
    /// `P(below)` of the group's first value.
    start: Vec<f32>,
    /// The group's share: `P(below)` of the first value after it, less `start`.
    mass: Vec<f64>,
    /// The expected units above the group's last value.
    above_end: Vec<f32>,
    /// The group's expected units: above its first value, less `above_end`.
    above_mass: Vec<f64>,
}

/// In [`Groups::locate`]'s answer: the value's group is the one at the index.
pub(crate) const OWN: u16 = 1 << 15;

/// One lane's table as [`Groups::new`] reads it: `values` in increasing order,
/// `cum_below[i]` = P(below `values[i]`), `above_from[i]` = expected units from `values[i]`
/// up (both of length `values.len() + 1`).
pub(crate) struct LaneCurve<'a> {
    pub(crate) values: &'a [u32],
    pub(crate) cum_below: &'a [f64],
    pub(crate) above_from: &'a [f64],
}

impl Groups {
    /// The groups of lanes of `size`-card values: every key some lane's values have (a lane
    /// without a value of a group has no share of it).
    pub(crate) fn new(lanes: &[LaneCurve<'_>], size: u8) -> Groups {
        let mut keys: Vec<u32> = lanes
            .iter()
            .flat_map(|l| l.values.iter().map(|&v| group_key(v)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let shares = lanes
            .iter()
            .map(|l| {
                let mut sh = Shares::default();
                let mut s = 0;
                for &key in &keys {
                    let mut e = s;
                    while e < l.values.len() && group_key(l.values[e]) == key {
                        e += 1;
                    }
                    let (start, end) = (l.cum_below[s] as f32, l.cum_below[e] as f32);
                    let (a_start, a_end) = (l.above_from[s] as f32, l.above_from[e] as f32);
                    sh.start.push(start);
                    sh.mass.push(end as f64 - start as f64);
                    sh.above_end.push(a_end);
                    sh.above_mass.push(a_start as f64 - a_end as f64);
                    s = e;
                }
                sh
            })
            .collect();
        let recipes: Vec<Recipe> = keys.iter().map(|&k| recipe(k, size)).collect();
        let others: Vec<(u16, Recipe)> = recipes
            .iter()
            .enumerate()
            .filter(|(_, &r)| reads(r).is_none())
            .map(|(g, &r)| (g as u16, r))
            .collect();
        // A rank named no times and no open cards are chances of one (exactly 1.0). The
        // rank-only reads are below `OTHERS_AT` (at most 64 and 65 + 5); the table's last
        // place is kept a zero, read for an open count no lane has (a value no hand has, as
        // reads past the table's end did). Groups of other recipes past it do not fit:
        // their index is never read (`weights_into` gives up first).
        let fits = OTHERS_AT as usize + others.len() < FACTORS;
        let open_at = |open: u8| {
            if open <= 5 {
                OPEN_AT as u8 + open
            } else {
                (FACTORS - 1) as u8
            }
        };
        let mut other = OTHERS_AT as usize;
        let gather = recipes
            .iter()
            .map(|&r| match reads(r) {
                Some([a, b, open]) => [a, b, open_at(open)],
                None => {
                    other += 1;
                    [u8::try_from(other - 1).unwrap_or(0), 0, OPEN_AT as u8]
                }
            })
            .collect();
        Groups {
            gather,
            fits,
            others,
            keys,
            lanes: shares,
        }
    }

    /// Places its factors take in [`Chances::factors_into`]'s table (fewer than
    /// [`FACTORS`] for the groups to fit), and whether they fit.
    #[cfg(test)]
    pub(crate) fn factors_needed(&self) -> (usize, bool) {
        (OTHERS_AT as usize + self.others.len(), self.fits)
    }

    /// Where raw value `v` sits: its group's index with [`OWN`], or, when no lane has a
    /// value of its group, the number of groups below it.
    pub(crate) fn locate(&self, v: u32) -> u16 {
        let key = group_key(v);
        let at = self.keys.partition_point(|&k| k < key);
        if self.keys.get(at) == Some(&key) {
            at as u16 | OWN
        } else {
            at as u16
        }
    }

    /// `(P(below), P(at most), expected units above)` in lane `lane` (of these groups) of a
    /// value located at `at` whose unweighted ones are `(b, m, a)` (as the slots hold
    /// them), under the hand's weights. P(at most) is weighed as P(below) is, so that it is
    /// the next value's P(below) here too.
    #[inline]
    pub(crate) fn weigh(
        &self,
        w: &GroupWeights,
        lane: usize,
        at: u16,
        (b, m, a): (f32, f32, f32),
    ) -> (f64, f64, f64) {
        let (sh, lw) = (&self.lanes[lane], &w.lanes[lane]);
        let g = (at & !OWN) as usize;
        // The weighted units from group `g` on.
        let above = |g: usize| lw.units - lw.units_before[g];
        if at & OWN == 0 {
            let below = lw.below[g] * lw.scale;
            return (below, below, above(g) * lw.scale);
        }
        let rho = w.rho[g];
        // `max` then `min`, not `clamp`: no panic whatever the shares. Kept within the
        // group's share (the sums' next term), so the order across groups holds after
        // rounding.
        let part = |x: f32| (x as f64 - sh.start[g] as f64).max(0.0).min(sh.mass[g]);
        let below = |x: f32| (lw.below[g] + rho * part(x)).min(lw.below[g + 1]) * lw.scale;
        let part_above = (a as f64 - sh.above_end[g] as f64)
            .max(0.0)
            .min(sh.above_mass[g]);
        (
            below(b),
            below(m),
            (above(g + 1) + rho * part_above).min(above(g)) * lw.scale,
        )
    }

    /// The hand's weights of these groups, written into `out` (its buffers reused from
    /// hand to hand: no allocation once they have grown); false when a lane weighs nothing
    /// (`out` is then not to be read).
    pub(crate) fn weights_into(&self, chances: &Chances, out: &mut GroupWeights) -> bool {
        if !self.fits {
            return false;
        }
        chances.factors_into(&self.others, &mut out.factors);
        out.lanes.resize_with(self.lanes.len(), Weights::default);
        // The middle's and back's sums in one pass (their chains interleave).
        match (&self.lanes[..], &mut out.lanes[..]) {
            ([a, b], [wa, wb]) => sums([a, b], &self.gather, &out.factors, &mut out.rho, [wa, wb]),
            (lanes, weights) => {
                for (sh, w) in lanes.iter().zip(weights) {
                    sums([sh], &self.gather, &out.factors, &mut out.rho, [w]);
                }
            }
        }
        out.lanes.iter().all(|w| w.scale.is_finite())
    }
}

/// Each group's `ρ` (the product of its three `factors` at `gather`, into `rho`) and the
/// weighted sums of `L` lanes' shares under them, all in one pass from the first group up,
/// into `out` (each sized here): per lane two running sums kept in registers. A lane whose
/// weighted total is not positive gets an infinite scale (it weighs nothing).
fn sums<const L: usize>(
    shares: [&Shares; L],
    gather: &[[u8; 3]],
    factors: &[f64],
    rho: &mut Vec<f64>,
    out: [&mut Weights; L],
) {
    let n = gather.len();
    rho.resize(n, 0.0);
    // Every slice cut to the length the loop reads, so that its reads need no checks.
    let rho = &mut rho[..n];
    let mass = shares.map(|s| &s.mass[..n]);
    let above_mass = shares.map(|s| &s.above_mass[..n]);
    let mut out = out.map(|w| {
        w.below.resize(n + 1, 0.0);
        w.units_before.resize(n + 1, 0.0);
        (
            &mut w.below[..n + 1],
            &mut w.units_before[..n + 1],
            &mut w.units,
            &mut w.scale,
        )
    });
    for (below, before, _, _) in out.iter_mut() {
        below[0] = 0.0;
        before[0] = 0.0;
    }
    // A `u8` index into [`FACTORS`] places: no check per read. A table of another length,
    // which `factors_into` never makes, reads as zeros (the lanes then weigh nothing).
    static ZEROS: [f64; FACTORS] = [0.0; FACTORS];
    let table: &[f64; FACTORS] = factors.try_into().unwrap_or(&ZEROS);
    let factor = |i: u8| table[i as usize];
    let (mut up, mut units) = ([0.0f64; L], [0.0f64; L]);
    for (g, &[a, b, c]) in gather.iter().enumerate() {
        let r = factor(a) * factor(b) * factor(c);
        rho[g] = r;
        for l in 0..L {
            up[l] += r * mass[l][g];
            out[l].0[g + 1] = up[l];
            units[l] += r * above_mass[l][g];
            out[l].1[g + 1] = units[l];
        }
    }
    for (l, (below, _, total, scale)) in out.into_iter().enumerate() {
        *total = units[l];
        let z = below[n];
        *scale = if z > 0.0 { 1.0 / z } else { f64::INFINITY };
    }
}

/// One hand's weights of [`Groups`]: `rho[g]` per group, and per lane its sums.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct GroupWeights {
    rho: Vec<f64>,
    lanes: Vec<Weights>,
    /// [`Chances::factors_into`]'s table for this hand.
    factors: Vec<f64>,
}

/// One lane's weighted sums: `below[g]` the weighted share of the groups before `g`,
/// `units_before[g]` the weighted units of the groups before `g`, `units` those of all
/// (the units from `g` on are `units − units_before[g]`); each read is multiplied by
/// `scale`, one over the weighted total share.
#[derive(Clone, Debug, Default, PartialEq)]
struct Weights {
    below: Vec<f64>,
    units_before: Vec<f64>,
    units: f64,
    scale: f64,
}

/// Card removal for one hand: the weights of the front's groups and of the middle's and
/// back's ([`crate::strategy::lanes::LaneTables::removal`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Removal {
    pub(crate) front: GroupWeights,
    pub(crate) five: GroupWeights,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::cards::{evaluate3, evaluate5, Wheel};

    fn v5(text: &str) -> u32 {
        let c: [Card; 5] = parse_cards(text).unwrap().try_into().unwrap();
        evaluate5(&c, Wheel::Low).raw()
    }

    #[test]
    fn groups_follow_the_named_ranks() {
        // Same pair, other kickers: one group; another pair: another.
        assert_eq!(
            group_key(v5("8s 8d Ac 7h 2d")),
            group_key(v5("8c 8h Kc 3h 2s"))
        );
        assert!(group_key(v5("8s 8d Ac 7h 2d")) < group_key(v5("9s 9d 4c 3h 2d")));
        // High card: the top rank only.
        assert_eq!(
            group_key(v5("Ks 9d 7c 4h 2d")),
            group_key(v5("Kc Qh Jc 9h 8s"))
        );
        // Flush: the top rank only; full house: both ranks.
        assert_eq!(
            group_key(v5("Ks 9s 7s 4s 2s")),
            group_key(v5("Kh Qh Jh 9h 8h"))
        );
        assert_ne!(
            group_key(v5("8s 8d 8c 2h 2d")),
            group_key(v5("8s 8d 8c 3h 3d"))
        );
        let front: [Card; 3] = parse_cards("Qs Qd 4c").unwrap().try_into().unwrap();
        assert_eq!(
            group_key(evaluate3(&front).raw()),
            group_key(v5("Qc Qh Ac 9h 8s"))
        );
    }

    #[test]
    fn rank_chances_are_the_binomial_ratios() {
        for h in 0..5u32 {
            for k in 0..5u32 {
                let want = choose(4 - h, k) / choose(4, k);
                assert!((RANK_CHANCE[h as usize][k as usize] - want).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn chances_by_hand() {
        // Held: two queens, one eight, and the spades A K Q J (no ten of spades).
        let hand = parse_cards("Qs Qd 8c As Ks Js 2h 3h 4d 5d 6c 7c 9h").unwrap();
        let ch = Chances::new(&hand);
        // A pair of queens: C(2, 2) / C(4, 2) = 1/6, three cards open.
        let q = 39.0 * 38.0 * 37.0 / (52.0 * 51.0 * 50.0);
        let pair_q = ch.rho(recipe(group_key(v5("Qc Qh Ac 9h 8s")), 5));
        assert!((pair_q - q / 6.0).abs() < 1e-12, "{pair_q}");
        // Trips of tens: none held, C(4, 3) / C(4, 3) = 1, two open.
        let trips = ch.rho(recipe(group_key(v5("Tc Th Td 9h 8s")), 5));
        assert!((trips - 39.0 * 38.0 / (52.0 * 51.0)).abs() < 1e-12);
        // Royal straight flush: spades (A K J held) and diamonds (Q held) blocked: 2/4.
        assert_eq!(ch.rho(recipe(v5("Ac Kc Qc Jc Tc"), 5)), 0.5);
        // Straight 8-Q: 8 (1 held), 9 (1), T (0), J (1), Q (2): 3/4 · 3/4 · 1 · 3/4 · 1/2.
        let st = ch.rho(recipe(v5("Qc Jh Td 9h 8s"), 5));
        assert!((st - 0.75f64.powi(3) * 0.5).abs() < 1e-12);
        // Full house, eights over queens: C(3, 3)/4 · C(2, 2)/6.
        let fh = ch.rho(recipe(v5("8s 8d 8h Qh Qc"), 5));
        assert!((fh - 0.25 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn a_lane_is_weighed_by_the_cards_held() {
        use crate::error::Lane;
        use crate::rules::Rules;
        use crate::strategy::lanes::{LaneCounts, LaneTables};
        let v3 = |t: &str| {
            let c: [Card; 3] = parse_cards(t).unwrap().try_into().unwrap();
            evaluate3(&c)
        };
        // Fronts seen: king high twice, a pair of twos once, a pair of queens once.
        let front = vec![
            (v3("Kd 9c 4s").raw(), 2),
            (v3("2s 2h 5c").raw(), 1),
            (v3("Qc Qh 3s").raw(), 1),
        ];
        let five = vec![(v5("8s 8d Ac 7h 2d"), 1)];
        let rules = Rules::default();
        let counts = LaneCounts::of_lanes([front, five.clone(), five]);
        let tables = LaneTables::from_counts(&counts, &rules);
        // Held: two queens and two aces, no king and no two.
        let hand = parse_cards("Qs Qd Ah Ac 3d 4d 5c 6h 7s 8c 9d Th Jc").unwrap();
        let removal = tables.removal(&hand, &rules).unwrap();
        // ρ: king high (1 of 4 kings' chance 1, two cards open) C(39,2)/C(52,2); the pair of
        // twos (none held, one open) 3/4; the pair of queens C(2,2)/C(4,2) × 3/4 = 1/8.
        let (k, twos, queens) = (0.5 * 741.0 / 1326.0, 0.25 * 0.75, 0.25 * 0.125);
        let z = k + twos + queens;
        let near = |a: f64, b: f64| assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        let look = |t: &str| tables.lookup_removed(Lane::Front, v3(t), Some(&removal)).0;
        // A pair of threes beats king high and the twos; the queens are above, worth the
        // front pair's units.
        let units = rules.lane_value(Lane::Front, crate::cards::Category::OnePair) as f64;
        // (P(below), P(at most), units above.)
        let (b, m, a) = look("3s 3h Ac");
        near(b, (k + twos) / z);
        near(m, (k + twos) / z);
        near(a, queens / z * units);
        // The queens with a three kicker: equal to the one seen; with a four: above all.
        let (b, m, a) = look("Qd Qs 3c");
        near(b, (k + twos) / z);
        near(m, 1.0);
        near(a, 0.0);
        near(look("Qd Qs 4c").0, 1.0);
        // Without card removal the lookup is the counts' own: 3/4 below the pair of threes.
        near(
            tables
                .lookup_removed(Lane::Front, v3("3s 3h Ac"), None)
                .0
                 .0,
            0.75,
        );
        assert!(tables
            .clone()
            .with_card_removal(false)
            .removal(&hand, &rules)
            .is_none());
    }

    #[test]
    fn weights_written_into_a_used_buffer_are_the_fresh_ones() {
        // The search refills one buffer per thread from hand to hand and from tables to
        // tables: whatever it held before, the weights must be those of a fresh one.
        use crate::rules::Rules;
        use crate::strategy::lanes::{LaneCounts, LaneTables};
        let v3 = |t: &str| {
            let c: [Card; 3] = parse_cards(t).unwrap().try_into().unwrap();
            evaluate3(&c).raw()
        };
        let rules = Rules::default();
        let small = LaneTables::from_counts(
            &LaneCounts::of_lanes([
                vec![(v3("Kd 9c 4s"), 2), (v3("2s 2h 5c"), 1)],
                vec![(v5("8s 8d Ac 7h 2d"), 1)],
                vec![(v5("8s 8d Ac 7h 2d"), 1)],
            ]),
            &rules,
        );
        // More groups in every lane: other pairs, two pair, trips, a straight, a flush, a
        // full house.
        let fives = [
            "8s 8d Ac 7h 2d",
            "9s 9d Ac 7h 2d",
            "9s 9d 4c 4h 2d",
            "Ts Td Tc 7h 2d",
            "9s Td Jc Qh Kd",
            "Ks 9s 7s 4s 2s",
            "8s 8d 8c 2h 2d",
        ];
        let many: Vec<(u32, u64)> = fives.iter().map(|t| (v5(t), 3)).collect();
        let big = LaneTables::from_counts(
            &LaneCounts::of_lanes([
                vec![
                    (v3("Kd 9c 4s"), 2),
                    (v3("2s 2h 5c"), 1),
                    (v3("Qc Qh 3s"), 1),
                ],
                many.clone(),
                many,
            ]),
            &rules,
        );
        let hands = [
            parse_cards("Qs Qd Ah Ac 3d 4d 5c 6h 7s 8c 9d Th Jc").unwrap(),
            parse_cards("2c 2d 2h 9s 9c Ks Qs Js 4s 5h 6d 7d 8h").unwrap(),
        ];
        let mut buffer = Removal::default();
        for round in 0..2 {
            for (tables, hand) in [(&big, &hands[round]), (&small, &hands[1 - round])] {
                assert!(tables.removal_into(hand, &rules, &mut buffer));
                assert_eq!(Some(&buffer), tables.removal(hand, &rules).as_ref());
            }
        }
    }
}
