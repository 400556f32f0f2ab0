//! The core's rules object (RULES.md 6), built once from the rule-set JSON that the Python
//! layer validated (`RuleSet.to_json()`), then passed by reference to every engine call.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::card::{Card, DeckKind};
use crate::error::{Error, Lane, Result};
use crate::eval::{Category, Wheel};

/// Suit tie-break rule for rank-equal lanes (RULES.md 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TieBreak {
    /// Rank-equal lanes draw (强碰).
    #[default]
    None,
    /// One suit decides (bianfeng).
    Suit,
}

/// Who is compared with whom (RULES.md 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Every player against every other.
    #[default]
    AllPairs,
    /// Each player against the banker (庄家) only.
    Banker,
}

/// Scoop (打枪) or home run (全垒打) kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BonusKind {
    /// Not scored.
    #[default]
    None,
    /// The result doubles.
    Double,
    /// A fixed number of units more.
    Bonus,
}

/// What happens to a fouled arrangement (相公 / 倒水).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FoulPolicy {
    /// Refused at submission.
    #[default]
    Reject,
    /// Loses all three lanes.
    LoseAll,
}

/// Where an escaping player's penalty goes (逃跑).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EscapeTo {
    /// Split among the others.
    Split,
    /// To the round's winner(s).
    Winner,
}

/// Escape penalty (RULES.md 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escape {
    /// Recipient rule.
    pub to: EscapeTo,
    /// Units for `split`.
    pub units: i64,
    /// Units by players dealt in (index = player count) for `winner`.
    pub by_players: [i64; 5],
}

/// The rules the engine plays by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Preset or file name.
    pub name: String,
    /// Deck.
    pub deck: DeckKind,
    /// Cards dealt per player (13 or 16).
    pub dealt: u8,
    /// Table sizes allowed.
    pub players: Vec<u8>,
    /// Wheel rule.
    pub wheel: Wheel,
    /// Tie-break rule.
    pub tie_break: TieBreak,
    /// Comparison mode.
    pub mode: Mode,
    /// Banker wins drawn lanes.
    pub banker_wins_ties: bool,
    /// Lane values: `[lane][category]`, the entry or the lane's base.
    pub lane_values: [[i64; 10]; 3],
    /// Majority bonus (units).
    pub majority_bonus: i64,
    /// Scoop kind and units.
    pub scoop: (BonusKind, i64),
    /// Home run kind, units and minimum table size.
    pub home_run: (BonusKind, i64, u8),
    /// Foul policy.
    pub foul: FoulPolicy,
    /// Whether a foul counts as a scoop.
    pub foul_counts_as_scoop: bool,
    /// Surrender units, when allowed.
    pub surrender: Option<i64>,
    /// Recognised specials: units by special index (canonical order), 0 when not recognised.
    pub special_units: [i64; 13],
    /// Tier of each recognised special (0 = highest).
    pub special_tier: [u8; 13],
    /// Quads count as two pairs.
    pub quads_as_two_pairs: bool,
    /// `A 2 3` is a 3-card straight.
    pub a23_is_straight: bool,
    /// Rank index from which twelve royals counts (9 = J, 8 = T).
    pub twelve_royals_from: u8,
    /// The horse card (马牌).
    pub horse_card: Option<Card>,
    /// Escape penalty.
    pub escape: Option<Escape>,
    /// Swap-three maximum.
    pub swap: Option<u8>,
    /// Cut for the deal order.
    pub cut: bool,
}

/// Canonical special keys, high to low (RULES.md 4).
pub const SPECIAL_KEYS: [&str; 13] = [
    "same_suit_dragon",
    "dragon",
    "twelve_royals",
    "three_straight_flushes",
    "three_quads",
    "all_big",
    "all_small",
    "one_color",
    "four_trips",
    "five_pairs_trips",
    "six_pairs",
    "three_straights",
    "three_flushes",
];

impl Default for Rules {
    fn default() -> Self {
        Rules {
            name: "default".into(),
            deck: DeckKind::Standard,
            dealt: 13,
            players: vec![2, 3, 4],
            wheel: Wheel::Low,
            tie_break: TieBreak::None,
            mode: Mode::AllPairs,
            banker_wins_ties: false,
            lane_values: [[1; 10]; 3],
            majority_bonus: 0,
            scoop: (BonusKind::None, 0),
            home_run: (BonusKind::None, 0, 0),
            foul: FoulPolicy::Reject,
            foul_counts_as_scoop: false,
            surrender: None,
            special_units: [0; 13],
            special_tier: [u8::MAX; 13],
            quads_as_two_pairs: true,
            a23_is_straight: true,
            twelve_royals_from: 9,
            horse_card: None,
            escape: None,
            swap: None,
            cut: false,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct BonusSpec {
    kind: Option<String>,
    units: Option<i64>,
    min_players: Option<u8>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SurrenderSpec {
    allowed: bool,
    units: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct EscapeSpec {
    to: Option<String>,
    units: Option<i64>,
    by_players: BTreeMap<String, i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SwapSpec {
    max_cards: u8,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Spec {
    name: Option<String>,
    deck: Option<String>,
    dealt: Option<u8>,
    players: Option<Vec<u8>>,
    wheel: Option<String>,
    tie_break: Option<String>,
    mode: Option<String>,
    banker_wins_ties: Option<bool>,
    lane_values: BTreeMap<String, BTreeMap<String, i64>>,
    majority_bonus: Option<i64>,
    scoop: Option<BonusSpec>,
    home_run: Option<BonusSpec>,
    foul: Option<String>,
    foul_counts_as_scoop: Option<bool>,
    surrender: Option<SurrenderSpec>,
    specials: BTreeMap<String, i64>,
    special_tiers: Option<Vec<Vec<String>>>,
    quads_as_two_pairs: Option<bool>,
    a23_is_straight: Option<bool>,
    twelve_royals_from: Option<String>,
    horse_card: Option<String>,
    escape: Option<EscapeSpec>,
    swap: Option<SwapSpec>,
    cut: Option<bool>,
}

fn bad(key: &str, message: impl Into<String>) -> Error {
    Error::RuleSet {
        key: key.into(),
        message: message.into(),
    }
}

fn choice<T: Copy>(key: &str, value: Option<&str>, default: T, options: &[(&str, T)]) -> Result<T> {
    match value {
        None => Ok(default),
        Some(v) => options
            .iter()
            .find(|(name, _)| *name == v)
            .map(|(_, t)| *t)
            .ok_or_else(|| bad(key, format!("unknown value {v:?}"))),
    }
}

fn bonus_kind(key: &str, kind: Option<&str>) -> Result<BonusKind> {
    choice(
        key,
        kind,
        BonusKind::None,
        &[
            ("none", BonusKind::None),
            ("double", BonusKind::Double),
            ("bonus", BonusKind::Bonus),
        ],
    )
}

impl Rules {
    /// Builds the rules from rule-set JSON (the RULES.md 6 keys, as `RuleSet.to_json()` writes).
    ///
    /// Errors: [`Error::RuleSet`] naming the key, for what the Python validation would also
    /// refuse (unknown enumeration values, unknown categories or specials, bad cards).
    pub fn from_json(text: &str) -> Result<Rules> {
        let spec: Spec = serde_json::from_str(text).map_err(|e| bad("<json>", e.to_string()))?;
        let mut r = Rules::default();
        if let Some(n) = spec.name {
            r.name = n;
        }
        r.deck = choice(
            "deck",
            spec.deck.as_deref(),
            DeckKind::Standard,
            &[
                ("standard", DeckKind::Standard),
                ("extra_diamonds", DeckKind::ExtraDiamonds),
            ],
        )?;
        r.dealt = spec.dealt.unwrap_or(13);
        if let Some(p) = spec.players {
            r.players = p;
        }
        r.wheel = choice(
            "wheel",
            spec.wheel.as_deref(),
            Wheel::Low,
            &[("low", Wheel::Low), ("second", Wheel::Second)],
        )?;
        r.tie_break = choice(
            "tie_break",
            spec.tie_break.as_deref(),
            TieBreak::None,
            &[("none", TieBreak::None), ("suit", TieBreak::Suit)],
        )?;
        r.mode = choice(
            "mode",
            spec.mode.as_deref(),
            Mode::AllPairs,
            &[("all_pairs", Mode::AllPairs), ("banker", Mode::Banker)],
        )?;
        r.banker_wins_ties = spec.banker_wins_ties.unwrap_or(false);
        for (lane_key, table) in &spec.lane_values {
            let lane = Lane::ALL
                .into_iter()
                .find(|l| l.key() == lane_key)
                .ok_or_else(|| bad(&format!("lane_values.{lane_key}"), "unknown lane"))?;
            let row = &mut r.lane_values[lane as usize];
            let base = *table.get("base").unwrap_or(&1);
            *row = [base; 10];
            for (k, &v) in table {
                if k == "base" {
                    continue;
                }
                let cat = Category::from_key(k).ok_or_else(|| {
                    bad(&format!("lane_values.{lane_key}.{k}"), "unknown category")
                })?;
                row[cat as usize] = v;
            }
        }
        r.majority_bonus = spec.majority_bonus.unwrap_or(0);
        if let Some(s) = spec.scoop {
            r.scoop = (
                bonus_kind("scoop.kind", s.kind.as_deref())?,
                s.units.unwrap_or(0),
            );
        }
        if let Some(h) = spec.home_run {
            r.home_run = (
                bonus_kind("home_run.kind", h.kind.as_deref())?,
                h.units.unwrap_or(0),
                h.min_players.unwrap_or(0),
            );
        }
        r.foul = choice(
            "foul",
            spec.foul.as_deref(),
            FoulPolicy::Reject,
            &[
                ("reject", FoulPolicy::Reject),
                ("lose_all", FoulPolicy::LoseAll),
            ],
        )?;
        r.foul_counts_as_scoop = spec.foul_counts_as_scoop.unwrap_or(false);
        if let Some(s) = spec.surrender {
            if s.allowed {
                r.surrender = Some(s.units.unwrap_or(0));
            }
        }
        for (k, &v) in &spec.specials {
            let i =
                special_index(k).ok_or_else(|| bad(&format!("specials.{k}"), "unknown special"))?;
            r.special_units[i] = v;
        }
        match spec.special_tiers {
            Some(tiers) => {
                for (t, tier) in tiers.iter().enumerate() {
                    for k in tier {
                        let i = special_index(k)
                            .filter(|&i| r.special_units[i] > 0)
                            .ok_or_else(|| {
                                bad(
                                    "special_tiers",
                                    format!("{k:?} is not a recognised special"),
                                )
                            })?;
                        r.special_tier[i] = t as u8;
                    }
                }
            }
            None => {
                let mut t = 0;
                for i in 0..13 {
                    if r.special_units[i] > 0 {
                        r.special_tier[i] = t;
                        t += 1;
                    }
                }
            }
        }
        r.quads_as_two_pairs = spec.quads_as_two_pairs.unwrap_or(true);
        r.a23_is_straight = spec.a23_is_straight.unwrap_or(true);
        r.twelve_royals_from = match spec.twelve_royals_from.as_deref() {
            None | Some("J") => 9,
            Some("T") => 8,
            Some(v) => return Err(bad("twelve_royals_from", format!("unknown value {v:?}"))),
        };
        if let Some(h) = spec.horse_card {
            r.horse_card = Some(h.parse().map_err(|_| bad("horse_card", "not a card"))?);
        }
        if let Some(e) = spec.escape {
            let to = choice(
                "escape.to",
                e.to.as_deref(),
                EscapeTo::Split,
                &[("split", EscapeTo::Split), ("winner", EscapeTo::Winner)],
            )?;
            let mut by_players = [0i64; 5];
            for (n, &u) in &e.by_players {
                let n: usize = n
                    .parse()
                    .ok()
                    .filter(|&n| (2..=4).contains(&n))
                    .ok_or_else(|| bad("escape.by_players", "player counts are 2 to 4"))?;
                by_players[n] = u;
            }
            r.escape = Some(Escape {
                to,
                units: e.units.unwrap_or(0),
                by_players,
            });
        }
        r.swap = spec.swap.map(|s| s.max_cards);
        r.cut = spec.cut.unwrap_or(false);
        Ok(r)
    }

    /// The lane value the winner of `lane` collects with `category` (RULES.md 5 step 4).
    #[inline]
    pub fn lane_value(&self, lane: Lane, category: Category) -> i64 {
        self.lane_values[lane as usize][category as usize]
    }
}

/// Index of a special key in canonical order.
pub fn special_index(key: &str) -> Option<usize> {
    SPECIAL_KEYS.iter().position(|k| *k == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_preset_shaped_json() {
        let json = r#"{"name":"shisanzhang","wheel":"low","tie_break":"none","mode":"all_pairs",
          "lane_values":{"front":{"base":1,"three_of_a_kind":7},"middle":{"base":2,"four_of_a_kind":10,"straight_flush":12},
          "back":{"base":3,"four_of_a_kind":11,"straight_flush":13}},
          "scoop":{"kind":"bonus","units":6},"home_run":{"kind":"bonus","units":12,"min_players":4},
          "foul":"reject","specials":{"dragon":36},"cut":true,"horse_card":null,"escape":null,"swap":null}"#;
        let r = Rules::from_json(json).unwrap();
        assert_eq!(r.lane_value(Lane::Middle, Category::FourOfAKind), 10);
        assert_eq!(r.lane_value(Lane::Middle, Category::FullHouse), 2);
        assert_eq!(r.lane_value(Lane::Front, Category::ThreeOfAKind), 7);
        assert_eq!(r.scoop, (BonusKind::Bonus, 6));
        assert_eq!(r.special_units[1], 36);
        assert_eq!(r.special_tier[1], 0);
        assert!(r.cut);
        assert!(Rules::from_json(r#"{"wheel":"middle"}"#).is_err());
    }
}
