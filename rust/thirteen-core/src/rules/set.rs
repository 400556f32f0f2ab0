//! [`Rules`]: what the engine reads of a rule set, one named type per rule, built once from a
//! checked rule-set file ([`RuleFile`]).

use super::choices::{FoulPolicy, Mode, TieBreak};
use super::names::variants;
use super::schema;
use super::{
    BankerStake, Escape, EscapeTo, HomeRun, HorseCard, Majority, RuleFile, Scoop, Special,
    Specials, Surrender,
};
use crate::cards::DeckKind;
use crate::cards::{Category, Wheel};
use crate::error::{Error, Lane, Result};
use crate::given::Given;

/// The rules the engine plays by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Preset or file name.
    pub name: String,
    /// Deck.
    pub deck: DeckKind,
    /// Cards dealt per player (13 or 16).
    pub dealt: u8,
    /// Table sizes allowed, ascending.
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
    /// The majority bonus (step 5).
    pub majority: Majority,
    /// The scoop (step 6).
    pub scoop: Scoop,
    /// The home run (step 7).
    pub home_run: HomeRun,
    /// Foul policy.
    pub foul: FoulPolicy,
    /// Whether a foul counts as a scoop.
    pub foul_counts_as_scoop: bool,
    /// Surrender (step 1).
    pub surrender: Surrender,
    /// The recognised specials (step 2).
    pub specials: Specials,
    /// Quads count as two pairs.
    pub quads_as_two_pairs: bool,
    /// `A 2 3` is a 3-card straight.
    pub a23_is_straight: bool,
    /// Rank index from which twelve royals counts (9 = J, 8 = T).
    pub twelve_royals_from: u8,
    /// The horse card (step 8).
    pub horse_card: Option<HorseCard>,
    /// Escape penalty.
    pub escape: Option<Escape>,
    /// Swap-three maximum.
    pub swap: Option<u8>,
    /// Cut for the deal order.
    pub cut: bool,
}

/// Canonical special keys, high to low (RULES.md 4): the serde names of [`Special`].
pub fn special_keys() -> &'static [&'static str] {
    variants::<Special>()
}

impl Default for Rules {
    fn default() -> Self {
        Rules::from(&RuleFile::default())
    }
}

impl Rules {
    /// The default rules ([`Rules::default`], `RuleSet.default()`'s), built once: the rules
    /// of a call given none.
    pub fn standard() -> &'static Rules {
        static STANDARD: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
        STANDARD.get_or_init(Rules::default)
    }
}

impl From<&RuleFile> for Rules {
    /// The engine's rules of a checked file ([`RuleFile::check`]).
    fn from(f: &RuleFile) -> Rules {
        let mut lane_values = [[1i64; 10]; 3];
        for (row, lane) in lane_values.iter_mut().zip(Lane::ALL) {
            if let Some(table) = f.lane_values.lane(lane) {
                *row = [table.base.map_or(1, |b| b.0); 10];
                for (&c, &v) in &table.values {
                    row[c as usize] = v.0;
                }
            }
        }
        let bonus = |b: &schema::BonusFile| {
            (
                b.kind.unwrap_or_default(),
                b.units.map_or(0, |u| u.0),
                b.min_players.map_or(0, |m| m.0 as u8),
            )
        };
        let (kind, units, _) = bonus(&f.scoop);
        let scoop = Scoop { kind, units };
        let (kind, units, min_players) = bonus(&f.home_run);
        let home_run = HomeRun {
            kind,
            units,
            min_players,
        };
        let mut specials = Specials::default();
        for (t, tier) in f.special_tiers.iter().flatten().enumerate() {
            for &s in tier {
                let units = f.specials.0.get(&s).map_or(0, |u| u.0);
                specials.set(s, units, t as u8);
            }
        }
        if f.special_tiers.is_none() {
            for (t, (&s, &u)) in f.specials.0.iter().enumerate() {
                specials.set(s, u.0, t as u8);
            }
        }
        let escape = f.escape.as_ref().map(|e| {
            let mut by_players = [0i64; 5];
            for (&n, &u) in e.by_players.iter().flat_map(|b| &b.0) {
                by_players[n as usize] = u.0;
            }
            Escape {
                to: e.to.unwrap_or(EscapeTo::Split),
                units: e.units.map_or(0, |u| u.0),
                by_players,
            }
        });
        Rules {
            name: f.name.clone(),
            deck: f.deck,
            dealt: f.dealt.0 as u8,
            players: f.players.iter().map(|p| p.0 as u8).collect(),
            wheel: f.wheel,
            tie_break: f.tie_break,
            mode: f.mode,
            banker_wins_ties: f.banker_wins_ties,
            lane_values,
            majority: Majority {
                units: f.majority_bonus.0,
            },
            scoop,
            home_run,
            foul: f.foul,
            foul_counts_as_scoop: f.foul_counts_as_scoop,
            surrender: Surrender {
                allowed: f.surrender.allowed.unwrap_or(false),
                units: f.surrender.units.map_or(0, |u| u.0),
            },
            specials,
            quads_as_two_pairs: f.quads_as_two_pairs,
            a23_is_straight: f.a23_is_straight,
            twelve_royals_from: match f.twelve_royals_from {
                schema::RoyalsFrom::J => 9,
                schema::RoyalsFrom::T => 8,
            },
            horse_card: f.horse_card.map(|h| HorseCard { card: h.0 }),
            escape,
            swap: f.swap.as_ref().and_then(|s| s.max_cards).map(|m| m.0 as u8),
            cut: f.cut,
        }
    }
}

impl Rules {
    /// Builds the rules from rule-set JSON (the keys of RULES.md 6, as `RuleSet.to_json()`
    /// writes them; keys left out take `RuleSet.default()`'s values).
    ///
    /// Errors: [`Error::RuleSet`] naming the first offending key (see [`schema`]).
    pub fn from_json(text: &str) -> Result<Rules> {
        RuleFile::from_json(text).map(|f| Rules::from(&f))
    }

    /// A table size the rules allow, as a count; [`Error::BadPlayerCount`] for any other
    /// integer (RULES.md 1, `players`).
    pub fn check_players(&self, players: i64) -> Result<usize> {
        self.check_players_given(&Given::Int(players))
    }

    /// [`Rules::check_players`] for an integer as given: one beyond 64 bits is as disallowed
    /// as 5.
    pub fn check_players_given(&self, players: &Given) -> Result<usize> {
        let allowed = |n: i64| self.players.iter().any(|&p| i64::from(p) == n);
        match players {
            Given::Int(n) if allowed(*n) => Ok(*n as usize),
            _ => Err(Error::BadPlayerCount {
                got: players.clone(),
                allowed: self.players.clone(),
            }),
        }
    }

    /// A table size some rule set may allow ([`crate::limits::TABLE_SIZE`], RULES.md 1), as a
    /// count; [`Error::BadPlayerCount`] for any other integer. For a call that takes a table
    /// size before its rules (training).
    pub fn check_table_size(players: i64) -> Result<usize> {
        use crate::limits::TABLE_SIZE;
        match TABLE_SIZE.check(players) {
            Ok(n) => Ok(n as usize),
            Err(_) => Err(Error::BadPlayerCount {
                got: Given::Int(players),
                allowed: (TABLE_SIZE.min..=TABLE_SIZE.max).map(|p| p as u8).collect(),
            }),
        }
    }

    /// The lane value the winner of `lane` collects with `category` (RULES.md 5 step 4).
    #[inline]
    pub fn lane_value(&self, lane: Lane, category: Category) -> i64 {
        self.lane_values[lane as usize][category as usize]
    }

    /// The stake multipliers of a banker table of `n` seats (`None`: all 1), each checked
    /// ([`Error::WrongCount`], [`Error::OutOfRange`] naming `stakes[seat]`).
    pub fn banker_stakes(n: usize, stakes: Option<&[i64]>) -> Result<Vec<BankerStake>> {
        let Some(stakes) = stakes else {
            return Ok(vec![BankerStake::ONE; n]);
        };
        if stakes.len() != n {
            return Err(Error::WrongCount {
                expected: n,
                got: stakes.len(),
                lane: None,
                player: None,
            });
        }
        stakes
            .iter()
            .enumerate()
            .map(|(seat, &m)| BankerStake::of_seat(seat, m))
            .collect()
    }
}

/// Index of a special key in canonical order.
pub fn special_index(key: &str) -> Option<usize> {
    Special::from_key(key).map(Special::index)
}
