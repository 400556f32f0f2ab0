//! Lane tables of the `ev` strategy: for each lane and hand value, the distribution of an
//! opponent's lane value (how often it is below, equal and above, and the lane value it
//! collects when above), from self-play counts ([`crate::strategy::train`]); and the same per class of
//! the opponent's arrangement ([`class_of`]), which the model mixes to price events that
//! need several lanes at once (a scoop, 打枪), where the lanes of one hand are not
//! independent.

use std::collections::BTreeMap;

use crate::cards::{evaluate3, evaluate5, Category, HandValue, Wheel};
use crate::cards::{Card, DeckKind, Rank, Suit};
use crate::error::{Error, Lane, Result};
use crate::rules::{Mode, Rules};
use crate::strategy::removal::{Chances, Groups, LaneCurve, Removal};

/// Every value a 5-card or 3-card hand can have with `deck` under `wheel` (about 8,000), so
/// that every lookup of [`LaneTables`] is one hash probe.
fn all_values(deck: DeckKind, wheel: Wheel) -> Vec<u32> {
    let (mut five, three) = values_by_size(deck, wheel);
    five.extend(three);
    five.sort_unstable();
    five.dedup();
    five
}

/// [`all_values`] as 5-card values and 3-card values, each sorted.
fn values_by_size(deck: DeckKind, wheel: Wheel) -> (Vec<u32>, Vec<u32>) {
    const SUITS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];
    let extra = deck == DeckKind::ExtraDiamonds;
    let card = |r: usize, s: usize| Card::new(Rank::from_index(r as u8), SUITS[s]);
    let mut out = Vec::with_capacity(8_192);
    let mut ranks = [0usize; 5];
    // Rank multisets of five, lowest first.
    fn each(k: usize, from: usize, ranks: &mut [usize; 5], f: &mut dyn FnMut(&[usize; 5])) {
        if k == 5 {
            f(ranks);
            return;
        }
        for r in from..13 {
            ranks[k] = r;
            each(k + 1, r, ranks, f);
        }
    }
    each(0, 0, &mut ranks, &mut |rs| {
        let most = (0..5)
            .map(|i| rs.iter().filter(|&&r| r == rs[i]).count())
            .max()
            .unwrap_or(1);
        // The j-th card of a rank takes the j-th suit: no flush unless all ranks differ.
        let occurrence = |i: usize| rs[..i].iter().filter(|&&r| r == rs[i]).count();
        if most <= 4 {
            let mut suits: [usize; 5] = std::array::from_fn(occurrence);
            if most == 1 {
                suits[1] = 1;
            }
            out.push(evaluate5(&std::array::from_fn(|i| card(rs[i], suits[i])), wheel).raw());
        }
        if most == 1 || (extra && most <= 2) {
            // A flush (with pairs only from the two copies of each diamond).
            out.push(evaluate5(&std::array::from_fn(|i| card(rs[i], 3)), wheel).raw());
        }
        if extra && most == 5 {
            let suits = [0, 1, 2, 3, 3];
            out.push(evaluate5(&std::array::from_fn(|i| card(rs[i], suits[i])), wheel).raw());
        }
    });
    let mut three = Vec::with_capacity(455);
    for a in 0..13 {
        for b in a..13 {
            for c in b..13 {
                let rs = [a, b, c];
                let suits: [usize; 3] =
                    std::array::from_fn(|i| rs[..i].iter().filter(|&&r| r == rs[i]).count());
                three.push(evaluate3(&std::array::from_fn(|i| card(rs[i], suits[i]))).raw());
            }
        }
    }
    for v in [&mut out, &mut three] {
        v.sort_unstable();
        v.dedup();
    }
    (out, three)
}

/// Classes of an opponent's arrangement in the joint model: its front (high card; a pair
/// below nines; a pair of nines or better; three of a kind) by its middle (one pair or less;
/// two pair; three of a kind or a straight; a flush or better).
pub const CLASSES: usize = 16;

/// The class (0 to [`CLASSES`] − 1) of an arrangement with these front and middle values.
pub fn class_of(front: HandValue, middle: HandValue) -> usize {
    static NINES: std::sync::OnceLock<HandValue> = std::sync::OnceLock::new();
    let nines = *NINES.get_or_init(|| {
        evaluate3(&[
            Card::new(Rank::Nine, Suit::Spades),
            Card::new(Rank::Nine, Suit::Hearts),
            Card::new(Rank::Two, Suit::Clubs),
        ])
    });
    let f = match front.category() {
        Category::HighCard => 0,
        Category::OnePair if front < nines => 1,
        Category::OnePair => 2,
        _ => 3,
    };
    let m = match middle.category() {
        Category::HighCard | Category::OnePair => 0,
        Category::TwoPair => 1,
        Category::ThreeOfAKind | Category::Straight => 2,
        _ => 3,
    };
    4 * f + m
}

/// Per opponent class, for one lane and hand value: `w` = P(opponent's lane below),
/// `l` = P(above), `u` = expected units the opponent's lane collects when above (0 when
/// not), each given the class. The front's rows are multiplied by the class weights, so that
/// a product over the three lanes summed over the classes is the mixture's probability.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClassRow {
    pub w: [f32; CLASSES],
    pub l: [f32; CLASSES],
    pub u: [f32; CLASSES],
}

/// Who takes a drawn lane in the class rows: nobody (a draw), this seat (the banker's, when
/// the banker wins ties) or the opponent (a player against such a banker; the drawn lane
/// then pays the opponent's equal lane value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    Drawn = 0,
    Mine = 1,
    Theirs = 2,
}

/// The rows of one [`Ties`] variant: per lane, one row per value of the lane's size (3-card
/// values for the front, 5-card for the middle and back), in the order of [`Slot::row`].
pub type ClassRows = [Vec<ClassRow>; 3];

/// The class-conditional tables: each class's weight and rows.
#[derive(Clone, Debug)]
struct Classes {
    weight: [f64; CLASSES],
    /// Per class: how often an arrangement of the class scoops another seat's
    /// ([`scoop_rates`]).
    scoops: [f64; CLASSES],
    /// Indexed by [`Ties`]; only `Drawn` unless the rules give ties to the banker.
    rows: Vec<ClassRows>,
}

/// One lane's class row of `v` from the classes' distributions.
fn class_row(
    dists: &[[LaneDist; 3]],
    weight: &[f64; CLASSES],
    lane: Lane,
    v: HandValue,
    ties: Ties,
    rules: &Rules,
) -> ClassRow {
    let mut r = ClassRow::default();
    let units = rules.lane_value(lane, v.category()) as f64;
    for (k, d) in dists.iter().enumerate() {
        let d = &d[lane as usize];
        if d.is_empty() {
            continue;
        }
        // P(win), P(lose) and the units lost from the cumulative sums as they are (not
        // P(below) + P(equal)), so that each row moves with the value after rounding.
        let (below, at_most, above) = d.cumulative(v);
        let (w, l, u) = match ties {
            Ties::Drawn => (below, 1.0 - at_most, above),
            Ties::Mine => (at_most, 1.0 - at_most, above),
            // A drawn lane pays the opponent's equal lane value.
            Ties::Theirs => (below, 1.0 - below, above + (at_most - below) * units),
        };
        let l = l.max(0.0);
        let p = if lane == Lane::Front { weight[k] } else { 1.0 };
        r.w[k] = (w * p) as f32;
        r.l[k] = (l * p) as f32;
        r.u[k] = (u * p) as f32;
    }
    r
}

/// Per class `c`: the chance that an arrangement of class `c` wins all three lanes against
/// another seat's arrangement (a scoop, 打枪), that seat's class drawn by the class weights
/// and, within a pair of classes, the lanes taken as independent:
/// `Σ_c' weight[c'] · Π_lane P(lane of c > lane of c')`.
fn scoop_rates(dists: &[[LaneDist; 3]], weight: &[f64; CLASSES]) -> [f64; CLASSES] {
    std::array::from_fn(|c| {
        (0..dists.len().min(CLASSES))
            .map(|o| {
                weight[o]
                    * (0..3)
                        .map(|lane| dists[c][lane].beats(&dists[o][lane]))
                        .product::<f64>()
            })
            .sum()
    })
}

/// Opponent lane-value distribution of one lane.
#[derive(Clone, Debug, Default)]
pub struct LaneDist {
    values: Vec<HandValue>,
    /// `cum_below[i]` = P(opponent < values[i]); length n + 1.
    cum_below: Vec<f64>,
    mass: Vec<f64>,
    /// `above_from[i]` = Σ_{j ≥ i} P(values[j]) × lane value of values[j]; length n + 1.
    above_from: Vec<f64>,
    /// `bucket[b]` = first index whose value's top bits (`value >> BUCKET_SHIFT`) are `>= b`.
    bucket: Vec<u32>,
}

const BUCKET_SHIFT: u32 = 20;
const BUCKETS: usize = 1 << (32 - BUCKET_SHIFT);

impl LaneDist {
    /// Builds the distribution from `(raw value, count)` pairs.
    pub fn from_counts(counts: &[(u32, u64)], lane: Lane, rules: &Rules) -> LaneDist {
        let mut pairs: Vec<(HandValue, u64)> = counts
            .iter()
            .map(|&(v, c)| (HandValue(v), c))
            .filter(|p| p.1 > 0)
            .collect();
        pairs.sort_unstable();
        pairs.dedup_by(|b, a| {
            if a.0 == b.0 {
                a.1 += b.1;
                true
            } else {
                false
            }
        });
        let total: f64 = pairs.iter().map(|p| p.1 as f64).sum::<f64>().max(1.0);
        let n = pairs.len();
        let mut d = LaneDist {
            values: pairs.iter().map(|p| p.0).collect(),
            cum_below: vec![0.0; n + 1],
            mass: pairs.iter().map(|p| p.1 as f64 / total).collect(),
            above_from: vec![0.0; n + 1],
            bucket: Vec::new(),
        };
        d.bucket = (0..=BUCKETS)
            .map(|b| {
                d.values
                    .partition_point(|v| ((v.raw() >> BUCKET_SHIFT) as usize) < b)
                    as u32
            })
            .collect();
        for i in 0..n {
            d.cum_below[i + 1] = d.cum_below[i] + d.mass[i];
        }
        for i in (0..n).rev() {
            let units = rules.lane_value(lane, d.values[i].category()) as f64;
            d.above_from[i] = d.above_from[i + 1] + d.mass[i] * units;
        }
        d
    }

    /// `(P(below), P(at most), expected units the opponent collects when above)` for `v`:
    /// entries of the cumulative sums, so that each never moves against `v`, and a value's
    /// P(at most) is the next observed value's P(below), the same number (P(equal) is the
    /// difference).
    #[inline]
    pub fn cumulative(&self, v: HandValue) -> (f64, f64, f64) {
        let b = (v.raw() >> BUCKET_SHIFT) as usize;
        let (lo, hi) = (self.bucket[b] as usize, self.bucket[b + 1] as usize);
        let i = lo + self.values[lo..hi].partition_point(|&x| x < v);
        let eq = (i < self.values.len() && self.values[i] == v) as usize;
        (
            self.cum_below[i],
            self.cum_below[i + eq],
            self.above_from[i + eq],
        )
    }

    /// P(a value drawn from this distribution is above one drawn from `other`); 0 when
    /// either is empty. One merge of the two sorted value lists.
    pub fn beats(&self, other: &LaneDist) -> f64 {
        if self.is_empty() || other.is_empty() {
            return 0.0;
        }
        // `i`: this distribution's first value above `other`'s current one.
        let (mut i, mut p) = (0, 0.0);
        for (v, m) in other.values.iter().zip(&other.mass) {
            while i < self.values.len() && self.values[i] <= *v {
                i += 1;
            }
            p += m * (1.0 - self.cum_below[i]);
        }
        p
    }

    /// Number of distinct values observed.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing was observed.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Win-probability tables of the three lanes.
#[derive(Clone, Debug, Default)]
pub struct LaneTables {
    /// Front, middle, back.
    pub lanes: [LaneDist; 3],
    /// Open-addressing index of every value a lane can hold, each slot holding the
    /// value and the three lanes' `(below, equal, above units)` (raw value 0, which no hand
    /// has, marks an empty slot): one cache line per lookup.
    slots: Vec<Slot>,
    /// Per class of the opponent's arrangement, when the counts have them.
    classes: Option<Box<Classes>>,
    /// The front's table, and the middle's and back's, cut into groups for card removal
    /// ([`crate::strategy::removal`]).
    groups: [Groups; 2],
    /// Whether `ev` weighs the tables by the cards held (the standard deck only).
    card_removal: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u32,
    /// Per lane: P(below), P(at most) and the units above ([`LaneDist::cumulative`]).
    lanes: [[f32; 3]; 3],
    /// The value's row in the class rows of its size (`u32::MAX`: none).
    row: u32,
    /// Where the value sits among the front's groups and among the middle's and back's
    /// ([`Groups::locate`]).
    group: [u16; 2],
}

#[inline]
fn slot_of(v: u32, bits: u32) -> usize {
    (v.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

/// Raw lane-value counts from self-play, the data form of [`LaneTables`]: per lane (front,
/// middle, back) `(raw value, hands)` pairs, and the same per class of the arrangement
/// ([`class_of`]; empty when not recorded, else [`CLASSES`] entries).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneCounts {
    pub lanes: LanePairs,
    pub classes: Vec<LanePairs>,
}

/// The three lanes' `(raw value, hands)` pairs.
pub type LanePairs = [Vec<(u32, u64)>; 3];

impl std::ops::Index<usize> for LaneCounts {
    type Output = Vec<(u32, u64)>;
    fn index(&self, lane: usize) -> &Self::Output {
        &self.lanes[lane]
    }
}

impl LaneCounts {
    /// Counts of the three lanes and, when given, of each class: [`CLASSES`] of them, adding
    /// up to the lanes' counts value by value. Errors: [`Error::InvalidArgument`] naming what
    /// does not fit.
    pub fn new(lanes: LanePairs, classes: Option<Vec<LanePairs>>) -> Result<LaneCounts> {
        if let Some(classes) = &classes {
            check_classes(&lanes, classes)?;
        }
        Ok(LaneCounts {
            lanes,
            classes: classes.unwrap_or_default(),
        })
    }

    /// Counts of the three lanes only.
    pub fn of_lanes(lanes: LanePairs) -> LaneCounts {
        LaneCounts {
            lanes,
            classes: Vec::new(),
        }
    }
}

/// Whether `classes` are [`CLASSES`] and add up to `lanes`, lane by lane and value by value
/// (counts of zero left out). Errors: [`Error::InvalidArgument`] naming the number of
/// classes or the first lane whose counts differ.
pub fn check_classes(lanes: &LanePairs, classes: &[LanePairs]) -> Result<()> {
    let bad = |message: String| Err(Error::InvalidArgument { message });
    if classes.len() != CLASSES {
        return bad(format!(
            "classes must hold {CLASSES} classes, got {}",
            classes.len()
        ));
    }
    let total = |pairs: &mut dyn Iterator<Item = &(u32, u64)>| {
        let mut m = BTreeMap::<u32, u64>::new();
        for &(v, c) in pairs {
            let slot = m.entry(v).or_insert(0);
            *slot = slot.saturating_add(c);
        }
        m.retain(|_, c| *c > 0);
        m
    };
    for (i, lane) in Lane::ALL.iter().enumerate() {
        let of_classes = total(&mut classes.iter().flat_map(|c| c[i].iter()));
        if of_classes != total(&mut lanes[i].iter()) {
            return bad(format!(
                "the classes' {} counts do not add up to the lane's counts",
                lane.key()
            ));
        }
    }
    Ok(())
}

impl LaneTables {
    /// Builds the tables from counts.
    pub fn from_counts(counts: &LaneCounts, rules: &Rules) -> LaneTables {
        let lanes: [LaneDist; 3] =
            std::array::from_fn(|i| LaneDist::from_counts(&counts[i], Lane::ALL[i], rules));
        let classes = (counts.classes.len() == CLASSES).then(|| {
            let dists: Vec<[LaneDist; 3]> = counts
                .classes
                .iter()
                .map(|c| std::array::from_fn(|i| LaneDist::from_counts(&c[i], Lane::ALL[i], rules)))
                .collect();
            let hands: Vec<f64> = counts
                .classes
                .iter()
                .map(|c| c[0].iter().map(|p| p.1 as f64).sum())
                .collect();
            let total = hands.iter().sum::<f64>().max(1.0);
            let weight: [f64; CLASSES] = std::array::from_fn(|k| hands[k] / total);
            let (five, three) = values_by_size(rules.deck, rules.wheel);
            let variants: &[Ties] = if rules.mode == Mode::Banker && rules.banker_wins_ties {
                &[Ties::Drawn, Ties::Mine, Ties::Theirs]
            } else {
                &[Ties::Drawn]
            };
            let rows = variants
                .iter()
                .map(|&ties| {
                    std::array::from_fn(|i| {
                        let of = if i == 0 { &three } else { &five };
                        of.iter()
                            .map(|&v| {
                                class_row(&dists, &weight, Lane::ALL[i], HandValue(v), ties, rules)
                            })
                            .collect()
                    })
                })
                .collect();
            let scoops = scoop_rates(&dists, &weight);
            (
                Box::new(Classes {
                    weight,
                    scoops,
                    rows,
                }),
                five,
                three,
            )
        });
        let mut values: Vec<u32> = lanes
            .iter()
            .flat_map(|d| d.values.iter().map(|v| v.raw()))
            .chain(all_values(rules.deck, rules.wheel))
            .filter(|&v| v != 0)
            .collect();
        values.sort_unstable();
        values.dedup();
        let bits = (2 * values.len().max(1))
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        let mut slots = vec![Slot::default(); 1 << bits];
        let raw: Vec<Vec<u32>> = lanes
            .iter()
            .map(|d| d.values.iter().map(|v| v.raw()).collect())
            .collect();
        let lane_curve = |i: usize| LaneCurve {
            values: &raw[i],
            cum_below: &lanes[i].cum_below,
            above_from: &lanes[i].above_from,
        };
        let groups = [
            Groups::new(&[lane_curve(0)], 3),
            Groups::new(&[lane_curve(1), lane_curve(2)], 5),
        ];
        let mut tables = LaneTables {
            lanes,
            slots: Vec::new(),
            classes: None,
            groups,
            card_removal: rules.deck == DeckKind::Standard,
        };
        for &v in &values {
            let mut h = slot_of(v, bits);
            while slots[h].key != 0 {
                h = (h + 1) & (slots.len() - 1);
            }
            // A 3- and a 5-card value never share a raw value (RULES.md 3: separate scales).
            let row = classes.as_ref().and_then(|(_, five, three)| {
                five.binary_search(&v)
                    .or_else(|_| three.binary_search(&v))
                    .ok()
            });
            slots[h] = Slot {
                key: v,
                lanes: std::array::from_fn(|i| {
                    let (b, m, a) = tables.lanes[i].cumulative(HandValue(v));
                    [b as f32, m as f32, a as f32]
                }),
                row: row.map_or(u32::MAX, |r| r as u32),
                group: std::array::from_fn(|i| tables.groups[i].locate(v)),
            };
        }
        tables.slots = slots;
        tables.classes = classes.map(|c| c.0);
        tables
    }

    /// Whether the tables hold the class-conditional distributions.
    #[inline]
    pub fn has_classes(&self) -> bool {
        self.classes.is_some()
    }

    /// Each class's weight (its share of the hands counted); `None` without classes.
    pub fn class_weights(&self) -> Option<[f64; CLASSES]> {
        self.classes.as_ref().map(|c| c.weight)
    }

    /// Per class, how often an arrangement of the class scoops another seat's
    /// ([`scoop_rates`]); `None` without classes.
    pub fn class_scoops(&self) -> Option<[f64; CLASSES]> {
        self.classes.as_ref().map(|c| c.scoops)
    }

    /// The class rows with drawn lanes taken as `ties` says; `None` without classes (or
    /// for a `ties` variant the rules do not use).
    pub fn class_rows(&self, ties: Ties) -> Option<&ClassRows> {
        self.classes.as_ref()?.rows.get(ties as usize)
    }

    /// The slot of `v` (one hash probe), if it has one.
    #[inline]
    fn slot(&self, v: HandValue) -> Option<&Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut h = slot_of(v.raw(), mask.count_ones());
        loop {
            let slot = &self.slots[h];
            if slot.key == v.raw() {
                return Some(slot);
            }
            if slot.key == 0 {
                return None;
            }
            h = (h + 1) & mask;
        }
    }

    /// `(P(below), P(equal), expected units the opponent collects when above)` for `v` in
    /// `lane`, to single precision: one hash probe for a value observed in some lane, else a
    /// search.
    #[inline]
    pub fn lookup(&self, lane: Lane, v: HandValue) -> (f64, f64, f64) {
        self.lookup_row(lane, v).0
    }

    /// Whether `ev` weighs these tables by the cards held ([`crate::strategy::removal`]).
    pub fn card_removal(&self) -> bool {
        self.card_removal
    }

    /// Whether `ev` weighs these tables by the cards held under a rule set dealing from
    /// `deck`: card removal is on and the deck is the standard one (it is always off with
    /// the extra diamonds).
    pub fn weighs_cards(&self, deck: DeckKind) -> bool {
        self.card_removal && deck == DeckKind::Standard
    }

    /// These tables with card removal on or off (it is on for the standard deck); clone
    /// first to keep both.
    pub fn with_card_removal(mut self, on: bool) -> LaneTables {
        self.card_removal = on;
        self
    }

    /// The card-removal weights for a seat holding `cards` under `rules`; `None` when card
    /// removal is off, the rules' deck is not the standard one or the tables are empty.
    pub fn removal(&self, cards: &[Card], rules: &Rules) -> Option<Removal> {
        let mut out = Removal::default();
        self.removal_into(cards, rules, &mut out).then_some(out)
    }

    /// [`LaneTables::removal`] written into `out`, whose buffers are reused (no allocation
    /// once they have grown: the search keeps one per thread); false where `removal` gives
    /// `None` (`out` is then not to be read).
    pub fn removal_into(&self, cards: &[Card], rules: &Rules, out: &mut Removal) -> bool {
        if !self.card_removal
            || rules.deck != DeckKind::Standard
            || self.lanes.iter().any(|d| d.is_empty())
        {
            return false;
        }
        let chances = Chances::new(cards);
        self.groups[0].weights_into(&chances, &mut out.front)
            && self.groups[1].weights_into(&chances, &mut out.five)
    }

    /// `(P(below), P(at most), units above)` of `v` in `lane`, as [`LaneTables::entry`]
    /// reads them, weighed by `removal` when given; and the value's class row.
    #[inline]
    pub(crate) fn lookup_removed(
        &self,
        lane: Lane,
        v: HandValue,
        removal: Option<&Removal>,
    ) -> ((f64, f64, f64), u32) {
        let (i, size) = (lane as usize, (lane != Lane::Front) as usize);
        let ([b, m, a], row, at) = self.entry(lane, v);
        let Some(removal) = removal else {
            return ((b as f64, m as f64, a as f64), row);
        };
        let groups = &self.groups[size];
        let at = at.map_or_else(|| groups.locate(v.raw()), |g| g[size]);
        let weights = [&removal.front, &removal.five][size];
        (
            groups.weigh(weights, i.saturating_sub(1), at, (b, m, a)),
            row,
        )
    }

    /// The `(P(below), P(at most), units above)` of `v` in `lane`, its class row and where
    /// it sits among the groups, from its slot; a value without one (none of the rules'
    /// deck) is read from the lane's distribution, rounded as the slots are, so that every
    /// value's features share one precision and stay in value order (rounding to nearest
    /// never reverses an order; each is an entry of a cumulative sum, and a value's
    /// P(at most) is the same number as the next value's P(below)), with no class row
    /// (`u32::MAX`) and its groups left to find.
    #[inline]
    fn entry(&self, lane: Lane, v: HandValue) -> ([f32; 3], u32, Option<[u16; 2]>) {
        if let Some(slot) = self.slot(v) {
            return (slot.lanes[lane as usize], slot.row, Some(slot.group));
        }
        let (b, m, a) = self.lanes[lane as usize].cumulative(v);
        ([b as f32, m as f32, a as f32], u32::MAX, None)
    }

    /// [`LaneTables::lookup`] and the value's index in the lane's [`ClassRows`]
    /// (`u32::MAX` when it has none).
    #[inline]
    pub fn lookup_row(&self, lane: Lane, v: HandValue) -> ((f64, f64, f64), u32) {
        let ([b, m, a], row, _) = self.entry(lane, v);
        ((b as f64, m as f64 - b as f64, a as f64), row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_table_holds_every_group() {
        // Card removal's groups over every value of either deck, both wheels: the places
        // their factors take fit the table read without checks (FACTORS), with room to
        // spare: 71 rank and open-card chances, then one place per group of straights,
        // flushes, straight flushes and, with the extra diamonds, five of a kind (28 such
        // groups of the standard deck's 5-card values, 44 with the extra diamonds).
        for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
            for wheel in [Wheel::Low, Wheel::Second] {
                let (five, three) = values_by_size(deck, wheel);
                for (values, size, lanes) in [(&five, 5, 2), (&three, 3, 1)] {
                    let n = values.len();
                    let cum: Vec<f64> = (0..=n).map(|i| i as f64 / n as f64).collect();
                    let above: Vec<f64> = (0..=n).map(|i| (n - i) as f64).collect();
                    let curve = || crate::strategy::removal::LaneCurve {
                        values,
                        cum_below: &cum,
                        above_from: &above,
                    };
                    let curves: Vec<_> = (0..lanes).map(|_| curve()).collect();
                    let (needed, fits) = Groups::new(&curves, size).factors_needed();
                    assert!(needed <= 71 + 44, "{deck:?} {wheel:?} {size}: {needed}");
                    assert!(fits, "{deck:?} {wheel:?} {size}");
                }
            }
        }
    }

    /// Every term the model reads of a lane value (P(below), P(lose) and the units the
    /// opponent collects, under each way a drawn lane goes, and the class rows) moves with
    /// the value exactly as it rises, with no tolerance: the search's bounds rest on it
    /// ([`crate::strategy::search`]). Taking P(at most) as P(below) + P(equal), rounded to single
    /// precision, could put it one unit in the last place above the next value's P(below),
    /// and the search then missed a full scan's best split by 1e-8 units (a banker who
    /// wins ties).
    #[test]
    fn every_term_read_of_a_lane_value_moves_with_it() {
        use crate::rules::Scoop;
        use crate::strategy::model::{features_worth, Role};
        let banker = Rules {
            mode: Mode::Banker,
            banker_wins_ties: true,
            lane_values: [[1; 10], [2; 10], [3; 10]],
            scoop: Scoop::double(),
            ..Rules::default()
        };
        let held = crate::cards::parse_cards("8d Js Qh 3s 6d Tc 3d Ks 2s 5c Qc Th 7d").unwrap();
        for rules in [Rules::default(), banker] {
            let counts = crate::strategy::train::build_tables(&rules, 4, 300, 2, 3);
            let tables = LaneTables::from_counts(&counts, &rules);
            let removal = tables.removal(&held, &rules);
            assert!(removal.is_some() && tables.has_classes());
            let (five, three) = values_by_size(rules.deck, rules.wheel);
            let ties_pay = rules.banker_wins_ties;
            for lane in Lane::ALL {
                let values = if lane == Lane::Front { &three } else { &five };
                for role in [Role::Player, Role::Banker] {
                    // A player against a banker who wins ties pays its own units on a draw:
                    // its score is not monotone and the search prunes nothing there.
                    let whole = !(ties_pay && role == Role::Player);
                    for weights in [None, removal.as_ref()] {
                        let f = |v: u32| {
                            features_worth(HandValue(v), lane, 1.0, &tables, &rules, role, weights)
                        };
                        for pair in values.windows(2) {
                            let (a, b) = (f(pair[0]), f(pair[1]));
                            let at = (lane, role, weights.is_some(), pair[1]);
                            assert!(b.w >= a.w, "P(win) {at:?}: {} < {}", b.w, a.w);
                            assert!(b.l <= a.l, "P(lose) {at:?}: {} > {}", b.l, a.l);
                            if whole {
                                assert!(b.gain >= a.gain, "gain {at:?}: {} < {}", b.gain, a.gain);
                            }
                        }
                    }
                }
                let variants: &[Ties] = if ties_pay {
                    &[Ties::Drawn, Ties::Mine, Ties::Theirs]
                } else {
                    &[Ties::Drawn]
                };
                for &ties in variants {
                    let rows = &tables.class_rows(ties).unwrap()[lane as usize];
                    let row = |v: u32| &rows[tables.lookup_row(lane, HandValue(v)).1 as usize];
                    for pair in values.windows(2) {
                        let (a, b) = (row(pair[0]), row(pair[1]));
                        for k in 0..CLASSES {
                            let at = (lane, ties, k, pair[1]);
                            assert!(b.w[k] >= a.w[k], "row w {at:?}: {} < {}", b.w[k], a.w[k]);
                            assert!(b.l[k] <= a.l[k], "row l {at:?}: {} > {}", b.l[k], a.l[k]);
                            if ties != Ties::Theirs {
                                assert!(b.u[k] <= a.u[k], "row u {at:?}: {} > {}", b.u[k], a.u[k]);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_value_is_enumerated() {
        // 7,462 distinct 5-card values and 455 3-card values (RULES.md 3), on separate scales.
        assert_eq!(
            all_values(DeckKind::Standard, Wheel::Low).len(),
            7_462 + 455
        );
        assert_eq!(
            all_values(DeckKind::Standard, Wheel::Second).len(),
            7_462 + 455
        );
        // The extra diamonds add five of a kind (13) and flushes holding pairs or two pairs:
        // 13 × C(12,3) one-pair and C(13,2) × 11 two-pair rank patterns.
        let extra = all_values(DeckKind::ExtraDiamonds, Wheel::Low).len();
        assert_eq!(extra, 7_462 + 455 + 13 + 13 * 220 + 78 * 11);
    }

    #[test]
    fn beats_is_the_chance_of_a_higher_value() {
        let rules = Rules::default();
        let v = |k: u32| k << 14;
        let dist = |pairs: &[(u32, u64)]| LaneDist::from_counts(pairs, Lane::Back, &rules);
        // {1, 3} evenly against {2}: only the 3 is above.
        let a = dist(&[(v(1), 1), (v(3), 1)]);
        let b = dist(&[(v(2), 5)]);
        assert!((a.beats(&b) - 0.5).abs() < 1e-12);
        assert!((b.beats(&a) - 0.5).abs() < 1e-12);
        // Equal values are not above: {1, 2, 3} against itself, 3 of 9 pairs above.
        let c = dist(&[(v(1), 1), (v(2), 1), (v(3), 1)]);
        assert!((c.beats(&c) - 1.0 / 3.0).abs() < 1e-12);
        // Weighted: {1: 3/4, 4: 1/4} against {2: 1/2, 4: 1/2}: the 4 above the 2, 1/8.
        let d = dist(&[(v(1), 3), (v(4), 1)]);
        let e = dist(&[(v(2), 1), (v(4), 1)]);
        assert!((d.beats(&e) - 0.125).abs() < 1e-12);
        // And back: both of its values are above the 1 (3/4), neither above the 4.
        assert!((e.beats(&d) - 0.75).abs() < 1e-12);
        assert_eq!(dist(&[]).beats(&a), 0.0);
    }

    #[test]
    fn lane_counts_take_classes_that_add_up_to_the_lanes() {
        let lanes: LanePairs = [vec![(7, 2)], vec![(9, 1), (11, 1)], vec![(12, 2)]];
        assert!(LaneCounts::new(lanes.clone(), None)
            .unwrap()
            .classes
            .is_empty());
        // Two classes share the hands (a value split over two entries of one class adds up).
        let mut classes: Vec<LanePairs> = vec![Default::default(); CLASSES];
        classes[0] = [vec![(7, 1)], vec![(9, 1)], vec![(12, 1)]];
        classes[5] = [vec![(7, 1)], vec![(11, 1), (11, 0)], vec![(12, 1)]];
        let counts = LaneCounts::new(lanes.clone(), Some(classes.clone())).unwrap();
        assert_eq!(counts.classes.len(), CLASSES);
        // Given but empty, or one hand short in the back.
        let err = LaneCounts::new(lanes.clone(), Some(Vec::new())).unwrap_err();
        assert_eq!(err.to_string(), "classes must hold 16 classes, got 0");
        classes[5][2] = Vec::new();
        let err = LaneCounts::new(lanes, Some(classes)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the classes' back counts do not add up to the lane's counts"
        );
    }
}
