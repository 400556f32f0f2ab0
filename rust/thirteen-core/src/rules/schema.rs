//! The rule-set schema (RULES.md 6): the one declaration of every rule-set key, the values it
//! allows and its bounds. [`RuleFile`] is read with serde (`deny_unknown_fields`; choices are
//! enums named by `rename_all`), checked ([`RuleFile::check`]: bounds from
//! [`crate::limits`], the keys that depend on each other), and written back in canonical form;
//! [`super::Rules`] is built from it. The Python `RuleSet` is a facade over this schema: it
//! sends its keys here and reads the canonical form back, and its tables of allowed values
//! come from [`options`].
//!
//! Every error is an [`Error::RuleSet`] whose `key` is the dotted path of the first offending
//! key (`lane_values.front.straight`, `escape.by_players.5`).

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use super::names::variants;
use super::{BonusKind, EscapeTo, FoulPolicy, Mode, Special, TieBreak};
use crate::cards::{Card, DeckKind};
use crate::cards::{Category, Wheel};
use crate::error::{Error, Lane, Result};
use crate::limits::{RULE_UNITS, SWAP_CARDS, TABLE_SIZE};

/// The cards a player may be dealt (RULES.md 1): 13, or 16 of which 13 are kept (多三张).
pub const DEALT: [i64; 2] = [13, 16];
/// The categories a 3-card front lane can hold (RULES.md 3).
pub const FRONT_CATEGORIES: [Category; 3] = [
    Category::HighCard,
    Category::OnePair,
    Category::ThreeOfAKind,
];
/// The table sizes a home run may start from (it needs two players to scoop).
pub const HOME_RUN_MIN_PLAYERS: [i64; 2] = [3, 4];

/// The lowest rank of twelve royals (十二皇族, RULES.md 4): `"J"` or `"T"` (also read from
/// `"10"` and lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum RoyalsFrom {
    /// From the jack.
    #[default]
    J,
    /// From the ten.
    T,
}

/// A rule-set file (RULES.md 6) as read: every key, with the defaults of
/// `RuleSet.default()` for the keys left out (`lane_values`: every lane worth 1).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default, expecting = "a table of rule-set keys")]
pub struct RuleFile {
    /// The rule set's name.
    pub name: String,
    /// `standard` or `extra_diamonds` (RULES.md 1).
    #[serde(deserialize_with = "choice")]
    pub deck: DeckKind,
    /// Cards dealt per player, one of [`DEALT`].
    pub dealt: Int,
    /// Table sizes allowed, banker included, from [`TABLE_SIZE`], each once.
    pub players: Vec<Int>,
    /// `low` or `second` (RULES.md 3).
    #[serde(deserialize_with = "choice")]
    pub wheel: Wheel,
    /// `none` or `suit` (RULES.md 3).
    #[serde(deserialize_with = "choice")]
    pub tie_break: TieBreak,
    /// `all_pairs` or `banker` (RULES.md 5).
    #[serde(deserialize_with = "choice")]
    pub mode: Mode,
    /// In banker mode, a drawn lane goes to the banker.
    pub banker_wins_ties: bool,
    /// What the winner of each lane collects (RULES.md 5 step 4).
    pub lane_values: LaneValues,
    /// Units for winning more lanes (RULES.md 5 step 5).
    pub majority_bonus: Int,
    /// 打枪 (RULES.md 5 step 6).
    pub scoop: BonusFile,
    /// 全垒打 (RULES.md 5 step 7).
    pub home_run: BonusFile,
    /// `reject` or `lose_all` (RULES.md 5).
    #[serde(deserialize_with = "choice")]
    pub foul: FoulPolicy,
    /// Under `lose_all`, a foul pays as a scoop.
    pub foul_counts_as_scoop: bool,
    /// Surrender (RULES.md 5 step 1).
    pub surrender: SurrenderFile,
    /// Recognised specials and their units, in canonical order (RULES.md 4).
    pub specials: SpecialValues,
    /// Equal-rank groups of the specials, high to low (one tier per special when left out).
    pub special_tiers: Option<Vec<Vec<Special>>>,
    /// Four of a rank count as two pairs.
    pub quads_as_two_pairs: bool,
    /// `A 2 3` is a 3-card straight.
    pub a23_is_straight: bool,
    /// The lowest rank of twelve royals.
    #[serde(deserialize_with = "royals_from")]
    pub twelve_royals_from: RoyalsFrom,
    /// 马牌 (RULES.md 5 step 8).
    pub horse_card: Option<HorseCardText>,
    /// 逃跑 (RULES.md 5 "Escape").
    pub escape: Option<EscapeFile>,
    /// 换三张 (RULES.md 7).
    pub swap: Option<SwapFile>,
    /// 切牌 (RULES.md 7).
    pub cut: bool,
}

impl Default for RuleFile {
    fn default() -> Self {
        let flat = || {
            Some(LaneTable {
                base: Some(Int(1)),
                values: BTreeMap::new(),
            })
        };
        RuleFile {
            name: "default".into(),
            deck: DeckKind::Standard,
            dealt: Int(13),
            players: vec![Int(2), Int(3), Int(4)],
            wheel: Wheel::Low,
            tie_break: TieBreak::None,
            mode: Mode::AllPairs,
            banker_wins_ties: false,
            lane_values: LaneValues {
                front: flat(),
                middle: flat(),
                back: flat(),
            },
            majority_bonus: Int(0),
            scoop: BonusFile::none(),
            home_run: BonusFile::none(),
            foul: FoulPolicy::Reject,
            foul_counts_as_scoop: false,
            surrender: SurrenderFile {
                allowed: Some(false),
                units: None,
            },
            specials: SpecialValues::default(),
            special_tiers: None,
            quads_as_two_pairs: true,
            a23_is_straight: true,
            twelve_royals_from: RoyalsFrom::J,
            horse_card: None,
            escape: None,
            swap: None,
            cut: false,
        }
    }
}

/// `scoop` and `home_run`: `{kind, units, min_players}` (`min_players` for a home run only).
#[derive(Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default, expecting = "a table")]
pub struct BonusFile {
    /// `none`, `double` or `bonus` (required).
    #[serde(deserialize_with = "optional_choice")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<BonusKind>,
    /// The units of `kind = "bonus"` (required then, refused otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<Int>,
    /// A home run's fewest players dealt in, one of [`HOME_RUN_MIN_PLAYERS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_players: Option<Int>,
}

impl BonusFile {
    fn none() -> BonusFile {
        BonusFile {
            kind: Some(BonusKind::None),
            ..BonusFile::default()
        }
    }
}

/// `surrender`: `{allowed, units}`.
#[derive(Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default, expecting = "a table")]
pub struct SurrenderFile {
    /// Whether a player may surrender (required).
    pub allowed: Option<bool>,
    /// What a surrendered player pays each other (required when allowed).
    pub units: Option<Int>,
}

/// `escape`: `{to, units}` or `{to, by_players}`.
#[derive(Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default, expecting = "a table")]
pub struct EscapeFile {
    /// `split` or `winner` (required).
    #[serde(deserialize_with = "optional_choice")]
    pub to: Option<EscapeTo>,
    /// The penalty of `to = "split"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<Int>,
    /// The penalty of `to = "winner"` by players dealt in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_players: Option<ByPlayers>,
}

/// `swap`: `{max_cards}`.
#[derive(Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default, expecting = "a table")]
pub struct SwapFile {
    /// The most cards a player may give, from [`SWAP_CARDS`] (required).
    pub max_cards: Option<Int>,
}

/// `lane_values`: the three lane tables.
#[derive(Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, expecting = "a table")]
pub struct LaneValues {
    /// The front lane's table (required).
    #[serde(default)]
    pub front: Option<LaneTable>,
    /// The middle lane's table (required).
    #[serde(default)]
    pub middle: Option<LaneTable>,
    /// The back lane's table (required).
    #[serde(default)]
    pub back: Option<LaneTable>,
}

/// One lane table: `base` and a value per category key (totals, not additions).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LaneTable {
    /// The value of a category without an entry (required).
    pub base: Option<Int>,
    /// The entries, in category order.
    pub values: BTreeMap<Category, Int>,
}

/// `specials`: the recognised specials and their units, in canonical order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SpecialValues(pub BTreeMap<Special, Int>);

/// `escape.by_players`: the penalty by players dealt in (keys `"2"` to `"4"`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ByPlayers(pub BTreeMap<u8, Int>);

/// The horse card as written (any of RULES.md 1's spellings), kept as its card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HorseCardText(pub Card);

/// An integer of a rule set, any size JSON can write exactly; bounds are checked by
/// [`RuleFile::check`] under the key's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Int(pub i64);

// ------------------------------------------------------------------------------ checks

fn bad(key: impl Into<String>, message: impl Into<String>) -> Error {
    Error::RuleSet {
        key: key.into(),
        message: message.into(),
    }
}

/// `'a', 'b'`: allowed values as the messages list them.
fn listing<T: fmt::Display>(values: impl IntoIterator<Item = T>) -> String {
    values
        .into_iter()
        .map(|v| format!("'{v}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn numbers(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `value` within `min..=max`, else an error under `key`.
fn within(key: &str, value: Int, min: i64, max: i64) -> Result<i64> {
    if value.0 < min {
        Err(bad(key, format!("must be at least {min}, got {}", value.0)))
    } else if value.0 > max {
        Err(bad(key, format!("must be at most {max}, got {}", value.0)))
    } else {
        Ok(value.0)
    }
}

/// An amount in units, `min..=`[`RULE_UNITS`]`.max`.
fn amount(key: &str, value: Int, min: i64) -> Result<i64> {
    within(key, value, min, RULE_UNITS.max)
}

fn one_of(key: &str, value: Int, allowed: &[i64]) -> Result<i64> {
    if allowed.contains(&value.0) {
        Ok(value.0)
    } else {
        Err(bad(
            key,
            format!("must be one of {}, got {}", numbers(allowed), value.0),
        ))
    }
}

impl RuleFile {
    /// The error for rule-set text that is not valid Unicode (a lone surrogate, which UTF-8
    /// cannot hold), `shown` as the caller writes it: [`Error::RuleSet`] at `"<json>"`.
    pub fn not_unicode(shown: &str) -> Error {
        Error::RuleSet {
            key: "<json>".to_string(),
            message: format!("the JSON is not valid Unicode text (a lone surrogate): {shown}"),
        }
    }

    /// Reads and checks rule-set JSON; the result is in canonical form ([`RuleFile::check`]).
    ///
    /// Errors: [`Error::RuleSet`] naming the first offending key; `key = "<json>"` for text
    /// that is not a JSON object.
    pub fn from_json(text: &str) -> Result<RuleFile> {
        let mut json = serde_json::Deserializer::from_str(text);
        let mut file: RuleFile = serde_path_to_error::deserialize(&mut json).map_err(|e| {
            let key = dotted(e.path());
            let message = e.inner().to_string();
            // serde_json adds where in the text; the key says where in the rule set.
            let message = match message.rfind(" at line ") {
                Some(i) if !key.is_empty() => message[..i].to_string(),
                _ => message,
            };
            bad(if key.is_empty() { "<json>" } else { &key }, message)
        })?;
        json.end().map_err(|e| bad("<json>", e.to_string()))?;
        file.check()?;
        Ok(file)
    }

    /// The canonical JSON of a checked file: every key, tables in canonical order (the form
    /// `RuleSet.to_dict()` has).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a rule file serialises")
    }

    /// Checks what serde cannot, in key order, and puts the file in canonical form: table
    /// sizes sorted, tiers filled in and sorted, the surrender's units filled in.
    pub fn check(&mut self) -> Result<()> {
        one_of("dealt", self.dealt, &DEALT)?;
        let mut sizes: Vec<i64> = Vec::new();
        if self.players.is_empty() {
            return Err(bad(
                "players",
                "must name at least one table size (2, 3 or 4)",
            ));
        }
        for &p in &self.players {
            if TABLE_SIZE.check(p.0).is_err() {
                return Err(bad(
                    "players",
                    format!("table sizes must be 2, 3 or 4, got {}", p.0),
                ));
            }
            if sizes.contains(&p.0) {
                return Err(bad(
                    "players",
                    format!("table size {} is listed twice", p.0),
                ));
            }
            sizes.push(p.0);
        }
        sizes.sort_unstable();
        self.players = sizes.iter().map(|&p| Int(p)).collect();
        let most = *sizes.last().expect("not empty");
        let deck = self.deck.size() as i64;
        if self.dealt.0 * most > deck {
            let name = variants::<DeckKind>()[self.deck as usize];
            return Err(bad(
                "dealt",
                format!(
                    "{} cards x {most} players = {} is more than the {name} deck's {deck} cards",
                    self.dealt.0,
                    self.dealt.0 * most
                ),
            ));
        }
        if self.banker_wins_ties && self.mode != Mode::Banker {
            return Err(bad(
                "banker_wins_ties",
                "only applies with mode = \"banker\"",
            ));
        }
        if self.banker_wins_ties && self.tie_break != TieBreak::None {
            return Err(bad(
                "banker_wins_ties",
                "cannot be combined with tie_break = \"suit\"",
            ));
        }
        self.lane_values.check(self.deck)?;
        amount("majority_bonus", self.majority_bonus, 0)?;
        self.scoop.check("scoop", false)?;
        self.home_run.check("home_run", true)?;
        self.surrender.check()?;
        self.check_specials()?;
        if let Some(escape) = &self.escape {
            escape.check(&sizes)?;
        }
        if let Some(swap) = &self.swap {
            let key = "swap.max_cards";
            let max = swap
                .max_cards
                .ok_or_else(|| bad(key, "missing (1 to 13)"))?;
            within(key, max, SWAP_CARDS.min, SWAP_CARDS.max)?;
        }
        Ok(())
    }

    fn check_specials(&mut self) -> Result<()> {
        for (special, &units) in &self.specials.0 {
            amount(&format!("specials.{}", special.key()), units, 1)?;
        }
        let recognised: Vec<Special> = self.specials.0.keys().copied().collect();
        let Some(tiers) = &mut self.special_tiers else {
            self.special_tiers = Some(recognised.iter().map(|&s| vec![s]).collect());
            return Ok(());
        };
        let key = "special_tiers";
        let mut placed: Vec<Special> = Vec::new();
        for tier in tiers.iter_mut() {
            if tier.is_empty() {
                return Err(bad(key, "a tier cannot be empty"));
            }
            for &special in tier.iter() {
                if !recognised.contains(&special) {
                    return Err(bad(key, format!("'{}' is not in specials", special.key())));
                }
                if placed.contains(&special) {
                    return Err(bad(key, format!("'{}' is listed twice", special.key())));
                }
                placed.push(special);
            }
            tier.sort_unstable();
        }
        if let Some(s) = recognised.iter().find(|s| !placed.contains(s)) {
            return Err(bad(
                key,
                format!("recognised special '{}' is in no tier", s.key()),
            ));
        }
        Ok(())
    }
}

impl LaneValues {
    fn check(&self, deck: DeckKind) -> Result<()> {
        for lane in Lane::ALL {
            let key = format!("lane_values.{}", lane.key());
            let table = self
                .lane(lane)
                .as_ref()
                .ok_or_else(|| bad(&key, "missing lane table"))?;
            for &category in table.values.keys() {
                let at = format!("{key}.{}", category.key());
                if lane == Lane::Front && !FRONT_CATEGORIES.contains(&category) {
                    let holds = listing(FRONT_CATEGORIES.map(Category::key));
                    return Err(bad(at, format!("the front lane only holds {holds}")));
                }
                if category == Category::FiveOfAKind && deck != DeckKind::ExtraDiamonds {
                    return Err(bad(at, "five of a kind needs deck = \"extra_diamonds\""));
                }
            }
            let base = table.base.ok_or_else(|| {
                bad(
                    format!("{key}.base"),
                    "missing: every lane table needs a base value",
                )
            })?;
            amount(&format!("{key}.base"), base, 1)?;
            for (category, &units) in &table.values {
                amount(&format!("{key}.{}", category.key()), units, 1)?;
            }
        }
        Ok(())
    }

    /// The table of `lane`.
    pub fn lane(&self, lane: Lane) -> &Option<LaneTable> {
        match lane {
            Lane::Front => &self.front,
            Lane::Middle => &self.middle,
            Lane::Back => &self.back,
        }
    }
}

impl BonusFile {
    fn check(&self, key: &str, home_run: bool) -> Result<()> {
        let kinds = listing(variants::<BonusKind>());
        let kind = self
            .kind
            .ok_or_else(|| bad(format!("{key}.kind"), format!("missing (one of {kinds})")))?;
        let units_key = format!("{key}.units");
        match (kind, self.units) {
            (BonusKind::Bonus, None) => {
                return Err(bad(units_key, "missing: kind = \"bonus\" needs units"));
            }
            (BonusKind::Bonus, Some(units)) => {
                amount(&units_key, units, 1)?;
            }
            (_, Some(_)) => {
                let name = variants::<BonusKind>()[kind as usize];
                return Err(bad(
                    units_key,
                    format!("only applies with kind = \"bonus\", not '{name}'"),
                ));
            }
            (_, None) => {}
        }
        let min_key = format!("{key}.min_players");
        match (home_run, kind, self.min_players) {
            (false, _, Some(_)) => Err(bad(min_key, "only applies to a home run")),
            (true, BonusKind::None, Some(_)) => Err(bad(
                min_key,
                "only applies to a home run (kind not \"none\")",
            )),
            (true, BonusKind::None, None) | (false, _, None) => Ok(()),
            (true, _, None) => Err(bad(
                min_key,
                "missing: a home run needs min_players (3 or 4)",
            )),
            (true, _, Some(n)) => one_of(&min_key, n, &HOME_RUN_MIN_PLAYERS).map(|_| ()),
        }
    }
}

impl SurrenderFile {
    fn check(&mut self) -> Result<()> {
        let allowed = self
            .allowed
            .ok_or_else(|| bad("surrender.allowed", "missing (true or false)"))?;
        let key = "surrender.units";
        match (allowed, self.units) {
            (true, None) => Err(bad(key, "missing: an allowed surrender needs units")),
            (true, Some(units)) => amount(key, units, 1).map(|_| ()),
            (false, units) => {
                let units = units.unwrap_or(Int(0));
                amount(key, units, 0)?;
                self.units = Some(units);
                Ok(())
            }
        }
    }
}

impl EscapeFile {
    fn check(&self, sizes: &[i64]) -> Result<()> {
        let to = self.to.ok_or_else(|| {
            bad(
                "escape.to",
                format!("missing (one of {})", listing(variants::<EscapeTo>())),
            )
        })?;
        match (to, &self.units, &self.by_players) {
            (EscapeTo::Split, _, Some(_)) => Err(bad(
                "escape.by_players",
                "only applies with to = \"winner\"",
            )),
            (EscapeTo::Split, None, None) => {
                Err(bad("escape.units", "missing: to = \"split\" needs units"))
            }
            (EscapeTo::Split, Some(units), None) => amount("escape.units", *units, 1).map(|_| ()),
            (EscapeTo::Winner, Some(_), _) => Err(bad(
                "escape.units",
                "only applies with to = \"split\" (use by_players)",
            )),
            (EscapeTo::Winner, None, None) => Err(bad(
                "escape.by_players",
                "missing: to = \"winner\" needs by_players",
            )),
            (EscapeTo::Winner, None, Some(by)) => {
                for (n, &units) in &by.0 {
                    amount(&format!("escape.by_players.{n}"), units, 1)?;
                }
                match sizes.iter().find(|&&p| !by.0.contains_key(&(p as u8))) {
                    Some(p) => Err(bad(
                        "escape.by_players",
                        format!("no payment for a table of {p} players"),
                    )),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The schema's allowed values, as one table for the Python facade: the keys in file order,
/// each choice's values, the category, lane and special keys, the deck sizes and the bounds.
pub fn options() -> serde_json::Value {
    let deck_sizes: serde_json::Map<String, serde_json::Value> =
        [DeckKind::Standard, DeckKind::ExtraDiamonds]
            .into_iter()
            .map(|d| {
                (
                    variants::<DeckKind>()[d as usize].to_string(),
                    d.size().into(),
                )
            })
            .collect();
    serde_json::json!({
        "keys": variants::<RuleFile>(),
        "deck": variants::<DeckKind>(),
        "dealt": DEALT,
        "players": (TABLE_SIZE.min..=TABLE_SIZE.max).collect::<Vec<_>>(),
        "wheel": variants::<Wheel>(),
        "tie_break": variants::<TieBreak>(),
        "mode": variants::<Mode>(),
        "foul": variants::<FoulPolicy>(),
        "bonus_kind": variants::<BonusKind>(),
        "home_run_min_players": HOME_RUN_MIN_PLAYERS,
        "escape_to": variants::<EscapeTo>(),
        "twelve_royals_from": variants::<RoyalsFrom>(),
        "lanes": Lane::ALL.map(Lane::key),
        "categories": variants::<Category>(),
        "front_categories": FRONT_CATEGORIES.map(Category::key),
        "specials": variants::<Special>(),
        "deck_sizes": deck_sizes,
        "max_rule_units": RULE_UNITS.max,
        "swap_max_cards": [SWAP_CARDS.min, SWAP_CARDS.max],
    })
}

/// The dotted key of a serde path: map keys joined by dots, list positions left out
/// (`players[1]` is reported as `players`).
fn dotted(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let keys: Vec<String> = path
        .iter()
        .filter_map(|s| match s {
            Segment::Map { key } => Some(key.clone()),
            Segment::Enum { variant } => Some(variant.clone()),
            Segment::Seq { .. } | Segment::Unknown => None,
        })
        .collect();
    keys.join(".")
}

// ------------------------------------------------------------------------ value readers

/// A choice named by its serde name: `must be one of 'low', 'second', got 'high'`.
fn choice<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> std::result::Result<T, D::Error> {
    d.deserialize_str(ChoiceVisitor(PhantomData))
}

fn optional_choice<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    d.deserialize_option(OptionVisitor(ChoiceVisitor::<T>(PhantomData)))
}

struct ChoiceVisitor<T>(PhantomData<T>);

impl<T: DeserializeOwned> Visitor<'_> for ChoiceVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "text ({})", listing(variants::<T>()))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<T, E> {
        T::deserialize(v.into_deserializer()).map_err(|_: de::value::Error| {
            E::custom(format!(
                "must be one of {}, got '{v}'",
                listing(variants::<T>())
            ))
        })
    }
}

/// `null` as absent, anything else as `V` reads it.
struct OptionVisitor<V>(V);

impl<'de, V: Visitor<'de> + Clone> Visitor<'de> for OptionVisitor<V> {
    type Value = Option<V::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    fn visit_none<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_any(self.0).map(Some)
    }
}

impl<T> Clone for ChoiceVisitor<T> {
    fn clone(&self) -> Self {
        ChoiceVisitor(PhantomData)
    }
}

fn royals_from<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<RoyalsFrom, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = RoyalsFrom;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("'J' or 'T'")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<RoyalsFrom, E> {
            match v.to_uppercase().as_str() {
                "J" => Ok(RoyalsFrom::J),
                "T" | "10" => Ok(RoyalsFrom::T),
                _ => Err(E::custom(format!("must be 'J' or 'T', got '{v}'"))),
            }
        }
    }
    d.deserialize_str(V)
}

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Int, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Int, E> {
                Ok(Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Int, E> {
                i64::try_from(v)
                    .map(Int)
                    .map_err(|_| E::custom(format!("out of range, got {v}")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Int, E> {
                // JSON writes an integer beyond 64 bits as a float.
                if v.fract() == 0.0 && v.abs() >= 9.2e18 {
                    Err(E::custom(format!("out of range, got {v}")))
                } else {
                    Err(E::invalid_type(de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_i64(V)
    }
}

impl<'de> Deserialize<'de> for HorseCardText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<HorseCardText, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = HorseCardText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card such as 'As'")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<HorseCardText, E> {
                Card::parse_token(v.trim(), 0)
                    .map(HorseCardText)
                    .map_err(|_| {
                        E::custom(format!(
                        "not a card: '{v}' (rank 2-9, T or 10, J, Q, K, A, then suit s h c d or \
                         ♠ ♥ ♣ ♦)"
                    ))
                    })
            }
        }
        d.deserialize_str(V)
    }
}

impl Serialize for HorseCardText {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A map key read as text and checked by `read` (an error inside the key, so that the error's
/// path names it).
struct KeyOf<T>(T);

trait ReadKey: Sized {
    fn read(key: &str) -> std::result::Result<Self, String>;
    fn expecting() -> &'static str;
}

impl<'de, T: ReadKey> Deserialize<'de> for KeyOf<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<T: ReadKey> Visitor<'_> for V<T> {
            type Value = KeyOf<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(T::expecting())
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<KeyOf<T>, E> {
                T::read(v).map(KeyOf).map_err(E::custom)
            }
        }
        d.deserialize_str(V(PhantomData))
    }
}

/// A lane-table key: `base` (`None`) or a category.
struct LaneKey(Option<Category>);

impl ReadKey for LaneKey {
    fn read(key: &str) -> std::result::Result<Self, String> {
        if key == "base" {
            return Ok(LaneKey(None));
        }
        Category::ALL
            .into_iter()
            .find(|c| c.key() == key)
            .map(|c| LaneKey(Some(c)))
            .ok_or_else(|| {
                format!(
                    "unknown category (expected 'base' or one of {})",
                    listing(variants::<Category>())
                )
            })
    }
    fn expecting() -> &'static str {
        "'base' or a category key"
    }
}

impl ReadKey for Special {
    fn read(key: &str) -> std::result::Result<Self, String> {
        Special::from_key(key).ok_or_else(|| {
            format!(
                "unknown key (expected one of {})",
                listing(variants::<Special>())
            )
        })
    }
    fn expecting() -> &'static str {
        "a special's key"
    }
}

/// A table size written as a key (`"3"`, also with spaces).
struct SizeKey(u8);

impl ReadKey for SizeKey {
    fn read(key: &str) -> std::result::Result<Self, String> {
        let text = key.trim();
        let n = (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse::<i64>().ok())
            .flatten()
            .ok_or_else(|| "table sizes must be 2, 3 or 4".to_string())?;
        match TABLE_SIZE.check(n) {
            Ok(n) => Ok(SizeKey(n as u8)),
            Err(_) => Err(format!("table sizes must be 2, 3 or 4, got {n}")),
        }
    }
    fn expecting() -> &'static str {
        "a table size"
    }
}

/// Reads a table of `K` keys and `Option<Int>` values (`null` = absent) into `insert`.
fn read_table<'de, A: MapAccess<'de>, K: ReadKey>(
    mut map: A,
    mut insert: impl FnMut(K, Int) -> std::result::Result<(), String>,
) -> std::result::Result<(), A::Error> {
    while let Some(KeyOf(key)) = map.next_key::<KeyOf<K>>()? {
        if let Some(value) = map.next_value::<Option<Int>>()? {
            insert(key, value).map_err(de::Error::custom)?;
        }
    }
    Ok(())
}

/// A visitor of a table, `expecting` "a table".
struct TableVisitor<T>(PhantomData<T>);

macro_rules! table_deserialize {
    ($ty:ty, $key:ty, |$out:ident, $k:ident, $v:ident| $insert:expr) => {
        impl<'de> Visitor<'de> for TableVisitor<$ty> {
            type Value = $ty;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<$ty, A::Error> {
                let mut $out = <$ty>::default();
                read_table(map, |$k: $key, $v: Int| $insert)?;
                Ok($out)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<$ty, D::Error> {
                d.deserialize_map(TableVisitor::<$ty>(PhantomData))
            }
        }
    };
}

table_deserialize!(LaneTable, LaneKey, |out, k, v| {
    match k.0 {
        None => out.base = Some(v),
        Some(c) => {
            out.values.insert(c, v);
        }
    }
    Ok(())
});

table_deserialize!(SpecialValues, Special, |out, k, v| {
    out.0.insert(k, v);
    Ok(())
});

table_deserialize!(ByPlayers, SizeKey, |out, k, v| {
    match out.0.insert(k.0, v) {
        Some(_) => Err(format!("table size {} is listed twice", k.0)),
        None => Ok(()),
    }
});

impl Serialize for LaneTable {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1 + self.values.len()))?;
        if let Some(base) = self.base {
            map.serialize_entry("base", &base)?;
        }
        for (c, v) in &self.values {
            map.serialize_entry(c.key(), v)?;
        }
        map.end()
    }
}

impl Serialize for SpecialValues {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k.key(), v)))
    }
}

impl Serialize for ByPlayers {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k.to_string(), v)))
    }
}
