//! Special hands (报到 / 特殊牌型, RULES.md 4): detection with the rule set's variant switches,
//! the tier ranking and, for the three-straights family, the arrangement that shows it.

use std::sync::OnceLock;

use crate::arrange::Arrangement;
use crate::cards::Card;
use crate::cards::{evaluate3, evaluate5, HandValue};
use crate::rules::{Rules, Special};
use crate::split::{pick, sorted_desc};

/// The special a hand is scored as.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SpecialHand {
    /// The special reported; serialised as its key.
    pub kind: Special,
    /// Units it collects.
    pub units: i64,
    /// Its tier, 0 = highest.
    pub tier: u8,
    /// For the three-straights family, the split that shows the pattern.
    pub arrangement: Option<Arrangement>,
}

impl SpecialHand {
    /// The rule-file key, e.g. `"dragon"`.
    pub fn key(&self) -> &'static str {
        self.kind.key()
    }
}

const WHEEL5: u16 = 0b1_0000_0000_1111;
const A23: u16 = 0b1_0000_0000_0011;

/// Whether five cards with these ranks (a rank mask) are a straight.
fn straight5(m: u16) -> bool {
    m.count_ones() == 5 && (m == WHEEL5 || m >> m.trailing_zeros() == 0b11111)
}

/// Whether three cards with these ranks (a rank mask) are a 3-card straight.
fn straight3(m: u16, a23: bool) -> bool {
    m.count_ones() == 3 && (m >> m.trailing_zeros() == 0b111 || (a23 && m == A23))
}

/// A hand's positions by rank and by suit, so that a subset of positions is tested without
/// gathering its cards.
struct Positions {
    /// Each position's rank bit.
    rank: [u16; 13],
    /// Each suit's positions.
    suit: [u16; 4],
}

impl Positions {
    fn of(cards: &[Card; 13]) -> Positions {
        let mut p = Positions {
            rank: [0; 13],
            suit: [0; 4],
        };
        for (i, c) in cards.iter().enumerate() {
            p.rank[i] = 1 << c.rank_index();
            p.suit[c.suit() as usize] |= 1 << i;
        }
        p
    }

    /// The ranks held at the positions of `m` (a rank mask).
    fn ranks(&self, m: u16) -> u16 {
        let mut bits = m;
        let mut out = 0;
        while bits != 0 {
            out |= self.rank[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out
    }

    /// Whether the positions of `m` hold one suit.
    fn suited(&self, m: u16) -> bool {
        self.suit.iter().any(|&s| m & !s == 0)
    }
}

/// Position masks of the 1,287 five-card subsets of 13 positions.
fn five_subsets() -> &'static [u16] {
    static SUBSETS: OnceLock<Vec<u16>> = OnceLock::new();
    SUBSETS.get_or_init(|| (0u16..1 << 13).filter(|m| m.count_ones() == 5).collect())
}

type Candidate = ([HandValue; 3], [u8; 13], Arrangement);

/// The best non-fouled split whose middle and back satisfy `five` and whose front satisfies
/// `three`: the largest back, then middle, then front (values), then the largest card codes
/// sorted descending (back, middle, front) (RULES.md 4).
fn best_pattern(
    cards: &[Card; 13],
    rules: &Rules,
    five: impl Fn(u16) -> bool,
    three: impl Fn(u16) -> bool,
) -> Option<Arrangement> {
    let good: Vec<(u16, [Card; 5])> = five_subsets()
        .iter()
        .filter(|&&m| five(m))
        .map(|&m| (m, pick::<5>(cards, m)))
        .collect();
    let mut best: Option<Candidate> = None;
    for (i, (ma, a)) in good.iter().enumerate() {
        for (mb, b) in &good[i + 1..] {
            if ma & mb != 0 {
                continue;
            }
            let rest = 0x1fff & !(ma | mb);
            if !three(rest) {
                continue;
            }
            let front: [Card; 3] = pick(cards, rest);
            let (va, vb) = (evaluate5(a, rules.wheel), evaluate5(b, rules.wheel));
            let key_a = sorted_desc(*a).map(|c| c.code());
            let key_b = sorted_desc(*b).map(|c| c.code());
            let ((vm, middle), (vbk, back)) = if (va, key_a) <= (vb, key_b) {
                ((va, *a), (vb, *b))
            } else {
                ((vb, *b), (va, *a))
            };
            let vf = evaluate3(&front);
            if vf > vm {
                continue; // cannot happen for these patterns; never report a fouled split
            }
            let arrangement = Arrangement {
                front: sorted_desc(front),
                middle: sorted_desc(middle),
                back: sorted_desc(back),
            };
            let mut codes = [0u8; 13];
            codes[..5].copy_from_slice(&arrangement.back.map(|c| c.code()));
            codes[5..10].copy_from_slice(&arrangement.middle.map(|c| c.code()));
            codes[10..].copy_from_slice(&arrangement.front.map(|c| c.code()));
            let cand = ([vbk, vm, vf], codes, arrangement);
            if best.as_ref().is_none_or(|b| (cand.0, cand.1) > (b.0, b.1)) {
                best = Some(cand);
            }
        }
    }
    best.map(|b| b.2)
}

/// Whether the 13 cards hold special `kind` under the rules' switches, and the arrangement
/// showing it for the three-straights family.
pub fn holds(cards: &[Card; 13], kind: Special, rules: &Rules) -> Option<Option<Arrangement>> {
    holds_shaped(cards, &Shape::of(cards), kind, rules)
}

/// What the checks of [`holds`] read from the cards, found once per hand, so that each check
/// but the split searches is a few operations.
struct Shape {
    /// Cards per rank.
    counts: [u8; 13],
    /// The ranks held (a rank mask).
    present: u16,
    /// The lowest and highest rank index held.
    low: u8,
    high: u8,
    /// Red cards held.
    reds: u8,
    /// All 13 cards of one suit.
    one_suit: bool,
    /// Suit counts that three flushes (or straight flushes) need: 13, 3+10, 5+8 or 3+5+5.
    flush_shape: bool,
    /// Ranks held at least three and at least four times.
    three_up: u8,
    four_up: u8,
    /// The ranks held exactly three times (a rank mask).
    threes: u16,
    /// The pairs of the ranks not held exactly four times (`n / 2` each).
    halves: u32,
    /// The ranks held exactly four times.
    fours: u32,
}

impl Shape {
    fn of(cards: &[Card; 13]) -> Shape {
        let mut counts = [0u8; 13];
        let mut suits = [0u8; 4];
        let mut reds = 0u8;
        for c in cards {
            counts[c.rank_index() as usize] += 1;
            suits[c.suit() as usize] += 1;
            reds += c.suit().is_red() as u8;
        }
        let mut s = Shape {
            counts,
            present: 0,
            low: 0,
            high: 0,
            reds,
            one_suit: suits.contains(&13),
            flush_shape: false,
            three_up: 0,
            four_up: 0,
            threes: 0,
            halves: 0,
            fours: 0,
        };
        for (r, &n) in counts.iter().enumerate() {
            s.present |= ((n > 0) as u16) << r;
            s.threes |= ((n == 3) as u16) << r;
            s.three_up += (n >= 3) as u8;
            s.four_up += (n >= 4) as u8;
            if n == 4 {
                s.fours += 1;
            } else {
                s.halves += (n / 2) as u32;
            }
        }
        s.low = s.present.trailing_zeros() as u8;
        s.high = 15 - s.present.leading_zeros() as u8;
        // Suit counts high to low, zeros last.
        suits.sort_unstable_by(|a, b| b.cmp(a));
        s.flush_shape = matches!(
            suits,
            [13, 0, 0, 0] | [10, 3, 0, 0] | [8, 5, 0, 0] | [5, 5, 3, 0]
        );
        s
    }

    /// The pairs held (a rank held four times is two pairs when `quads_as_two_pairs`, else
    /// none; three times, one pair).
    fn pairs(&self, quads_as_two_pairs: bool) -> u32 {
        self.halves
            + if quads_as_two_pairs {
                2 * self.fours
            } else {
                0
            }
    }
}

/// [`holds`] with the hand's shape found.
fn holds_shaped(
    cards: &[Card; 13],
    shape: &Shape,
    kind: Special,
    rules: &Rules,
) -> Option<Option<Arrangement>> {
    let distinct = shape.present == 0x1fff;
    let a23 = rules.a23_is_straight;
    let flush_shape = shape.flush_shape;
    // Cheap exact or necessary conditions first; the split search only when they pass.
    let yes = match kind {
        Special::ThreeStraightFlushes | Special::ThreeFlushes if !flush_shape => false,
        Special::ThreeStraights if !straights_shape(&shape.counts, shape.present, a23) => false,
        Special::SameSuitDragon => distinct && shape.one_suit,
        Special::Dragon => distinct,
        Special::TwelveRoyals => shape.low >= rules.twelve_royals_from,
        Special::ThreeStraightFlushes => {
            let p = Positions::of(cards);
            return best_pattern(
                cards,
                rules,
                |m| p.suited(m) && straight5(p.ranks(m)),
                |m| p.suited(m) && straight3(p.ranks(m), a23),
            )
            .map(Some);
        }
        Special::ThreeQuads => shape.four_up >= 3,
        Special::AllBig => shape.low >= 6,
        Special::AllSmall => shape.high <= 6,
        Special::OneColor => shape.reds == 0 || shape.reds == 13,
        Special::FourTrips => shape.three_up >= 4,
        // One rank held three times; the pairs of the others (its own pair counted once).
        Special::FivePairsTrips => {
            shape.threes.count_ones() == 1 && shape.pairs(rules.quads_as_two_pairs) == 6
        }
        Special::SixPairs => shape.pairs(rules.quads_as_two_pairs) == 6,
        Special::ThreeStraights => {
            let p = Positions::of(cards);
            return best_pattern(
                cards,
                rules,
                |m| straight5(p.ranks(m)),
                |m| straight3(p.ranks(m), a23),
            )
            .map(Some);
        }
        Special::ThreeFlushes => {
            let p = Positions::of(cards);
            return best_pattern(cards, rules, |m| p.suited(m), |m| p.suited(m)).map(Some);
        }
    };
    yes.then_some(None)
}

/// The five-card runs as rank masks: 2-6 … T-A, and the wheel.
const RUNS5: [u16; 10] = {
    let mut t = [WHEEL5; 10];
    let mut s = 0;
    while s < 9 {
        t[s] = 0b11111 << s;
        s += 1;
    }
    t
};

/// Whether the rank counts (`present`: the ranks held) are exactly a 3-card straight and
/// two 5-card straights (ranks only): a necessary and sufficient condition for 三顺子.
fn straights_shape(counts: &[u8; 13], present: u16, a23: bool) -> bool {
    let held = |c: &[u8; 13]| -> u16 {
        c.iter()
            .enumerate()
            .fold(0, |m, (r, &n)| m | ((n > 0) as u16) << r)
    };
    let take = |c: &mut [u8; 13], run: u16| {
        for (r, n) in c.iter_mut().enumerate() {
            *n -= ((run >> r) & 1) as u8;
        }
    };
    for (i, &a) in RUNS5.iter().enumerate() {
        if a & present != a {
            continue;
        }
        let mut after_a = *counts;
        take(&mut after_a, a);
        let left = held(&after_a);
        for &b in &RUNS5[i..] {
            if b & left != b {
                continue;
            }
            let mut rest = after_a;
            take(&mut rest, b);
            if rest.iter().all(|&n| n <= 1) && straight3(held(&rest), a23) {
                return true;
            }
        }
    }
    false
}

/// The specials the rules recognise and the cards hold, high to low.
pub fn held_specials(cards: &[Card; 13], rules: &Rules) -> Vec<Special> {
    let mut held = Vec::new();
    scan(cards, rules, Some(&mut held));
    held
}

/// The highest recognised special held (RULES.md 4): the best tier, reported as the first key
/// of that tier in canonical order that is held; `None` when none is held.
pub fn find_special(cards: &[Card; 13], rules: &Rules) -> Option<SpecialHand> {
    scan(cards, rules, None)
}

/// [`held_specials`] and [`find_special`] at once, each kind checked once (for `settle`).
pub(crate) fn held_and_highest(
    cards: &[Card; 13],
    rules: &Rules,
) -> (Vec<Special>, Option<SpecialHand>) {
    let mut held = Vec::new();
    let highest = scan(cards, rules, Some(&mut held));
    (held, highest)
}

/// The highest recognised special held; with `held`, every kind is checked and those held
/// are pushed (canonical order), else a kind whose tier cannot beat the best found is not.
fn scan(
    cards: &[Card; 13],
    rules: &Rules,
    mut held: Option<&mut Vec<Special>>,
) -> Option<SpecialHand> {
    let shape = Shape::of(cards);
    let mut best: Option<(u8, Special, Option<Arrangement>)> = None;
    for k in Special::ALL {
        if !rules.specials.recognises(k) {
            continue;
        }
        let tier = rules.specials.tier(k);
        let beats = best.as_ref().is_none_or(|&(t, _, _)| t > tier);
        if !beats && held.is_none() {
            continue;
        }
        if let Some(shown) = holds_shaped(cards, &shape, k, rules) {
            if let Some(h) = held.as_deref_mut() {
                h.push(k);
            }
            if beats {
                best = Some((tier, k, shown));
            }
        }
    }
    best.map(|(tier, k, arrangement)| SpecialHand {
        kind: k,
        units: rules.specials.units(k),
        tier,
        arrangement,
    })
}

/// Special against special: `Greater` when `a`'s tier is higher (RULES.md 4); suits and the
/// banker never decide.
pub fn compare_specials(a: &SpecialHand, b: &SpecialHand) -> std::cmp::Ordering {
    b.tier.cmp(&a.tier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn kaixin() -> Rules {
        let mut r = Rules::default();
        let units = [108, 36, 24, 20, 20, 15, 15, 10, 8, 5, 4, 4, 3];
        for (k, &u) in units.iter().enumerate() {
            r.specials.set(Special::ALL[k], u, k as u8);
        }
        r
    }

    fn hand(text: &str) -> [Card; 13] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    fn key(text: &str, rules: &Rules) -> Option<&'static str> {
        find_special(&hand(text), rules).map(|s| s.key())
    }

    #[test]
    fn each_special() {
        let r = kaixin();
        let cases = [
            (
                "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad",
                Some("same_suit_dragon"),
            ),
            ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", Some("dragon")),
            (
                "Jc Js Jh Qd Qc Qh Kd Kc Kh As Ac Ah Ad",
                Some("twelve_royals"),
            ),
            (
                "2h 3h 4h 9h Th Jh Qh Kh 2s 3s 4s 5s 6s",
                Some("three_straight_flushes"),
            ),
            (
                "2c 2d 2h 2s 5c 5d 5h 5s 9c 9d 9h 9s Ah",
                Some("three_quads"),
            ),
            ("8c 8d 9h Ts Jc Qd Kh As Ac Td 9s Jh Qc", Some("all_big")),
            ("2c 2d 3h 4s 5c 6d 7h 8s 8c 6h 5s 4d 3c", Some("all_small")),
            ("2h 3h 5h 6h 7h 9h Jh 2d 4d 8d Td Qd Ad", Some("one_color")),
            ("2c 2d 2h 5c 5d 5h 9c 9d 9h Jc Jd Jh As", Some("four_trips")),
            (
                "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 9c 9d 9h",
                Some("five_pairs_trips"),
            ),
            ("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah", Some("six_pairs")),
            (
                "Jc Qd Kh Ac 2d 3h 4s 5c 5d 6h 7s 8c 9d",
                Some("three_straights"),
            ),
            (
                "2h 5h 9h 3s 6s 8s Ts Ks 2c 4c 7c Jc Ac",
                Some("three_flushes"),
            ),
            ("2h 5h 9h 3s 6s 8s Ts Ks 2c 4c 7c Jc Ad", None),
        ];
        for (text, want) in cases {
            assert_eq!(key(text, &r), want, "{text}");
        }
    }

    #[test]
    fn three_straights_arrangement_prefers_largest_back() {
        let r = kaixin();
        // A dragon also holds three straights: T-A back, 5-9 middle, 2-3-4 front.
        let a = holds(
            &hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"),
            Special::ThreeStraights,
            &r,
        )
        .unwrap()
        .unwrap();
        assert!(!crate::arrange::is_foul(&a, &r));
        assert_eq!(a.to_string(), "4h 3d 2c | 9s 8h 7d 6c 5s | Ac Ks Qh Jd Tc");
    }
}
