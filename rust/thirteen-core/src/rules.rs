//! The core's rules object (RULES.md 6), built once from the rule-set JSON that the Python
//! layer validated (`RuleSet.to_json()`), then passed by reference to every engine call.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::card::{Card, DeckKind};
use crate::error::{Error, Lane, Result};
use crate::eval::{Category, Wheel};
use crate::limits::RULE_UNITS;

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

/// A rule-set amount (units) checked against [`RULE_UNITS`], reported under `key`.
fn amount(key: &str, value: i64) -> Result<i64> {
    RULE_UNITS.check(value).map_err(|_| {
        bad(
            key,
            format!(
                "must be from {} to {} units, got {value}",
                RULE_UNITS.min, RULE_UNITS.max
            ),
        )
    })
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
    /// refuse (unknown enumeration values, unknown categories or specials, bad cards, table
    /// sizes other than 2 to 4, more cards dealt than the deck holds) and for amounts outside
    /// `0..=`[`crate::limits::MAX_RULE_UNITS`], so that no settlement can overflow.
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
        if ![13, 16].contains(&r.dealt) {
            return Err(bad("dealt", format!("must be 13 or 16, got {}", r.dealt)));
        }
        if let Some(p) = spec.players {
            r.players = p;
        }
        let mut sizes = r.players.clone();
        sizes.sort_unstable();
        sizes.dedup();
        if sizes.len() != r.players.len()
            || sizes.is_empty()
            || sizes.iter().any(|n| !(2..=4).contains(n))
        {
            return Err(bad(
                "players",
                format!("table sizes are 2, 3 or 4, each once, got {:?}", r.players),
            ));
        }
        let most = *sizes.last().expect("not empty") as usize;
        if r.dealt as usize * most > r.deck.size() {
            return Err(bad(
                "dealt",
                format!(
                    "{} cards x {most} players is more than the deck's {}",
                    r.dealt,
                    r.deck.size()
                ),
            ));
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
            let base = amount(
                &format!("lane_values.{lane_key}.base"),
                *table.get("base").unwrap_or(&1),
            )?;
            *row = [base; 10];
            for (k, &v) in table {
                if k == "base" {
                    continue;
                }
                let key = format!("lane_values.{lane_key}.{k}");
                let cat = Category::from_key(k).ok_or_else(|| bad(&key, "unknown category"))?;
                row[cat as usize] = amount(&key, v)?;
            }
        }
        r.majority_bonus = amount("majority_bonus", spec.majority_bonus.unwrap_or(0))?;
        if let Some(s) = spec.scoop {
            r.scoop = (
                bonus_kind("scoop.kind", s.kind.as_deref())?,
                amount("scoop.units", s.units.unwrap_or(0))?,
            );
        }
        if let Some(h) = spec.home_run {
            r.home_run = (
                bonus_kind("home_run.kind", h.kind.as_deref())?,
                amount("home_run.units", h.units.unwrap_or(0))?,
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
                r.surrender = Some(amount("surrender.units", s.units.unwrap_or(0))?);
            }
        }
        for (k, &v) in &spec.specials {
            let key = format!("specials.{k}");
            let i = special_index(k).ok_or_else(|| bad(&key, "unknown special"))?;
            r.special_units[i] = amount(&key, v)?;
        }
        match spec.special_tiers {
            Some(tiers) => {
                if tiers.len() > SPECIAL_KEYS.len() {
                    return Err(bad("special_tiers", "more tiers than there are specials"));
                }
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
                by_players[n] = amount(&format!("escape.by_players.{n}"), u)?;
            }
            r.escape = Some(Escape {
                to,
                units: amount("escape.units", e.units.unwrap_or(0))?,
                by_players,
            });
        }
        r.swap = spec.swap.map(|s| s.max_cards);
        r.cut = spec.cut.unwrap_or(false);
        Ok(r)
    }

    /// Checks a table size against `players` ([`Error::BadPlayerCount`]).
    pub fn check_players(&self, players: usize) -> Result<()> {
        if self.players.iter().any(|&p| p as usize == players) {
            Ok(())
        } else {
            Err(Error::BadPlayerCount {
                got: players,
                allowed: self.players.clone(),
            })
        }
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

    fn refused_at(json: &str) -> String {
        match Rules::from_json(json) {
            Err(Error::RuleSet { key, .. }) => key,
            other => panic!("{json} gave {other:?}"),
        }
    }

    #[test]
    fn table_sizes_and_deals_must_fit_the_deck() {
        assert_eq!(refused_at(r#"{"players":[]}"#), "players");
        assert_eq!(refused_at(r#"{"players":[0]}"#), "players");
        assert_eq!(refused_at(r#"{"players":[5]}"#), "players");
        assert_eq!(refused_at(r#"{"players":[2,2]}"#), "players");
        assert_eq!(refused_at(r#"{"dealt":14}"#), "dealt");
        // 16 cards to 4 players is 64 cards: more than 52, within 65.
        assert_eq!(refused_at(r#"{"dealt":16}"#), "dealt");
        assert!(Rules::from_json(r#"{"dealt":16,"players":[2,3]}"#).is_ok());
        assert!(Rules::from_json(r#"{"dealt":16,"deck":"extra_diamonds"}"#).is_ok());
    }

    #[test]
    fn amounts_are_bounded() {
        let r = Rules::from_json(r#"{"lane_values":{"back":{"base":10000}}}"#).unwrap();
        assert_eq!(r.lane_value(Lane::Back, Category::HighCard), 10_000);
        for (json, key) in [
            (
                r#"{"lane_values":{"back":{"base":10001}}}"#,
                "lane_values.back.base",
            ),
            (
                r#"{"lane_values":{"front":{"base":1,"one_pair":-1}}}"#,
                "lane_values.front.one_pair",
            ),
            (
                r#"{"majority_bonus":4611686018427387904}"#,
                "majority_bonus",
            ),
            (r#"{"scoop":{"kind":"bonus","units":20000}}"#, "scoop.units"),
            (
                r#"{"home_run":{"kind":"bonus","units":20000}}"#,
                "home_run.units",
            ),
            (
                r#"{"surrender":{"allowed":true,"units":20000}}"#,
                "surrender.units",
            ),
            (r#"{"specials":{"dragon":20000}}"#, "specials.dragon"),
            (r#"{"escape":{"to":"split","units":20000}}"#, "escape.units"),
            (
                r#"{"escape":{"to":"winner","by_players":{"2":20000}}}"#,
                "escape.by_players.2",
            ),
            // Beyond i64 the JSON itself is refused.
            (r#"{"majority_bonus":9223372036854775808}"#, "<json>"),
        ] {
            assert_eq!(refused_at(json), key, "{json}");
        }
    }
}
