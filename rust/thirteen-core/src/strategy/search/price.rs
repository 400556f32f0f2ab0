//! How the search prices a split, and how it bounds the splits it has not scored.

use crate::cards::HandValue;
use crate::error::Lane;
use crate::rules::Rules;
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::{
    features, features_worth, lane_value_envelope, lane_value_rises, lane_values_monotone,
    units_raise_score, Context, Feat, Scorer,
};
use crate::strategy::removal::Removal;

/// The `ev` model of a seat, as the search reads it: a split's exact score, and each lane's
/// features at the value that bounds it.
///
/// With lane values that never fall as the category rises, the score never falls as a
/// lane's value rises. Otherwise the bounds price each lane at its value's envelope (the
/// most a category up to its own is worth), which bounds every split with weaker lanes
/// when more units never lower the score; exact scores use the lanes' own values.
pub(super) struct Price<'a> {
    rules: &'a Rules,
    tables: &'a LaneTables,
    removal: Option<&'a Removal>,
    ctx: Context,
    scorer: Scorer<'a>,
    envelope: [[i64; 10]; 3],
    /// Whether each lane's value never falls as the category rises.
    pub(super) monotone: bool,
    /// Whether the bounds hold, so splits may be pruned.
    pub(super) prune: bool,
    /// Whether the front's value never falls as the category rises: more than 13 cards,
    /// a (back, middle)'s strongest front scores best, whatever the other lanes' values do.
    pub(super) front_rises: bool,
}

impl<'a> Price<'a> {
    /// The model of seat `ctx` under `rules` and `tables`, the opponents' lanes weighed by
    /// `removal` (the hand's card removal) when given.
    pub(super) fn new(
        rules: &'a Rules,
        tables: &'a LaneTables,
        removal: Option<&'a Removal>,
        ctx: Context,
    ) -> Price<'a> {
        let monotone = lane_values_monotone(rules);
        Price {
            rules,
            tables,
            removal,
            ctx,
            scorer: Scorer::new(rules, ctx, tables),
            envelope: Lane::ALL.map(|lane| lane_value_envelope(rules, lane)),
            monotone,
            prune: monotone || units_raise_score(rules, ctx.role, tables),
            front_rises: lane_value_rises(rules, Lane::Front),
        }
    }

    /// The features of a lane of value `v` that bound it: at the lane value's envelope.
    #[inline]
    pub(super) fn bounding(&self, v: HandValue, lane: Lane) -> Feat {
        let units = self.envelope[lane as usize][v.category() as usize] as f64;
        features_worth(
            v,
            lane,
            units,
            self.tables,
            self.rules,
            self.ctx.role,
            self.removal,
        )
    }

    /// The score of three lanes' features.
    #[inline]
    pub(super) fn score(&self, f: &Feat, m: &Feat, b: &Feat) -> f64 {
        self.scorer.score(f, m, b)
    }

    /// A split's exact score from its lanes' bounding features and values (front, middle,
    /// back): the score of those features when lane values never fall, else of the lanes'
    /// own.
    #[inline(always)]
    pub(super) fn exact(&self, f: &Feat, m: &Feat, b: &Feat, values: [HandValue; 3]) -> f64 {
        if self.monotone {
            self.scorer.score(f, m, b)
        } else {
            self.own_score(values)
        }
    }

    /// The score of three lanes of these values (front, middle, back) at their own units.
    #[inline(never)]
    fn own_score(&self, values: [HandValue; 3]) -> f64 {
        let own = |v: HandValue, lane: Lane| {
            features(
                v,
                lane,
                self.tables,
                self.rules,
                self.ctx.role,
                self.removal,
            )
        };
        self.scorer.score(
            &own(values[0], Lane::Front),
            &own(values[1], Lane::Middle),
            &own(values[2], Lane::Back),
        )
    }
}
