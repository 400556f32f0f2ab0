//! The plays `mc` weighs: `ev`'s own play first (the play `mc` keeps unless its samples
//! show another to be better), then `ev`'s best plays of distinct lane values and a held
//! special's declaration, each once.

use crate::cards::Card;
use crate::rules::Rules;
use crate::special::find_special;
use crate::strategy::ev::Choice;
use crate::strategy::keep::{ranked_splits, solve_ev_keep};
use crate::strategy::lanes::LaneTables;
use crate::strategy::model::Context;
use crate::strategy::search::Distinct;

/// How many of `ev`'s best plays of distinct lane values `mc` weighs at the least (more when
/// more plays are asked for).
pub const MC_EV_PLAYS: usize = 16;

/// A play `mc` weighs: the 13 cards it keeps (the dealt cards when 13 were) and the play.
#[derive(Clone, Debug)]
pub(crate) struct Play {
    /// The cards kept.
    pub(crate) kept: [Card; 13],
    /// The arrangement or the special declared.
    pub(crate) choice: Choice,
}

impl Play {
    fn of(choice: Choice, kept: [Card; 13]) -> Play {
        Play { kept, choice }
    }

    /// What makes two plays settle alike against every deal: the kept cards and the three
    /// lane values (the same play in other suits), or the special declared.
    fn key(&self, rules: &Rules) -> (Vec<Card>, Option<&'static str>, [u32; 3]) {
        let mut kept = self.kept.to_vec();
        kept.sort_unstable();
        match (&self.choice.arrangement, &self.choice.special) {
            (Some(a), _) => (kept, None, a.values(rules.wheel).map(|v| v.raw())),
            (None, Some(sp)) => (kept, Some(sp.key()), [0; 3]),
            (None, None) => unreachable!("a choice has an arrangement or a special"),
        }
    }
}

/// The plays of `dealt` (13 cards, or 14 to 16 of which 13 are kept) that `mc` weighs for
/// the seat `ctx`, `ev`'s own play ([`solve_ev_keep`]) first; then `ev`'s `top` best
/// splits of distinct lane values, and with 13 dealt a special they hold (with more dealt,
/// a special is weighed when `ev` declares it). Each play once (two of the same kept cards
/// and lane values settle alike).
pub(crate) fn plays(
    dealt: &[Card],
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
) -> Vec<Play> {
    let (kept, own) = solve_ev_keep(dealt, rules, tables, ctx);
    let kept: [Card; 13] = kept.try_into().expect("13 kept");
    let split = |c: Choice| {
        let kept = c.arrangement.as_ref().expect("a split").cards();
        Play::of(c, kept)
    };
    let mut out = vec![Play::of(own, kept)];
    out.extend(
        ranked_splits(dealt, rules, tables, ctx, top, Distinct::Values)
            .into_iter()
            .map(split),
    );
    if let Ok(hand) = <[Card; 13]>::try_from(dealt) {
        if let Some(special) = find_special(&hand, rules) {
            let e = crate::strategy::ev::special_expected(&special, rules, ctx);
            out.push(Play::of(Choice::declared(special, e), hand));
        }
    }
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|p| {
        let key = p.key(rules);
        let new = !seen.contains(&key);
        if new {
            seen.push(key);
        }
        new
    });
    out
}
