//! The special hands a rule set recognises (报到, RULES.md 4) and what they pay (RULES.md 5
//! step 2). Detection (which special 13 cards hold) is [`crate::special`].

use serde::{Deserialize, Serialize};

use super::names::variants;

/// A special hand (报到 / 特殊牌型), high to low in canonical order (RULES.md 4); its rule-file
/// key is its name in snake case (`same_suit_dragon`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Special {
    /// 至尊青龙: A to K of one suit.
    SameSuitDragon = 0,
    /// 一条龙: A to K.
    Dragon,
    /// 十二皇族: twelve cards from `twelve_royals_from` up.
    TwelveRoyals,
    /// 三同花顺: three straight flushes.
    ThreeStraightFlushes,
    /// 三分天下: three quads.
    ThreeQuads,
    /// 全大: all 8 or higher.
    AllBig,
    /// 全小: all 8 or lower.
    AllSmall,
    /// 凑一色: one colour.
    OneColor,
    /// 四套三条: four trips.
    FourTrips,
    /// 五对三条: five pairs and trips.
    FivePairsTrips,
    /// 六对半: six pairs.
    SixPairs,
    /// 三顺子: three straights.
    ThreeStraights,
    /// 三同花: three flushes.
    ThreeFlushes,
}

impl Special {
    /// Every special, in canonical order (high to low).
    pub const ALL: [Special; 13] = [
        Special::SameSuitDragon,
        Special::Dragon,
        Special::TwelveRoyals,
        Special::ThreeStraightFlushes,
        Special::ThreeQuads,
        Special::AllBig,
        Special::AllSmall,
        Special::OneColor,
        Special::FourTrips,
        Special::FivePairsTrips,
        Special::SixPairs,
        Special::ThreeStraights,
        Special::ThreeFlushes,
    ];

    /// Its canonical index (0 = `same_suit_dragon`).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The rule-file key (`"dragon"`), as serde names it.
    pub fn key(self) -> &'static str {
        variants::<Special>()[self.index()]
    }

    /// The special of a rule-file key.
    pub fn from_key(key: &str) -> Option<Special> {
        let i = variants::<Special>().iter().position(|k| *k == key)?;
        Some(Special::ALL[i])
    }
}

/// The specials a rule set recognises: units and tier of each (RULES.md 6 `specials`,
/// `special_tiers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Specials {
    /// Units each collects, by canonical index; 0 when not recognised.
    pub units: [i64; 13],
    /// Tier of each recognised special (0 = highest); `u8::MAX` when not recognised.
    pub tier: [u8; 13],
}

impl Default for Specials {
    fn default() -> Self {
        Specials {
            units: [0; 13],
            tier: [u8::MAX; 13],
        }
    }
}

impl Specials {
    /// Whether the rule set recognises `special`.
    #[inline]
    pub fn recognises(&self, special: Special) -> bool {
        self.units[special.index()] > 0
    }

    /// The units `special` collects (0 when not recognised).
    #[inline]
    pub fn units(&self, special: Special) -> i64 {
        self.units[special.index()]
    }

    /// The tier of `special` (0 = highest).
    #[inline]
    pub fn tier(&self, special: Special) -> u8 {
        self.tier[special.index()]
    }

    /// Recognises `special` with `units` in `tier`.
    pub fn set(&mut self, special: Special, units: i64, tier: u8) {
        self.units[special.index()] = units;
        self.tier[special.index()] = tier;
    }

    /// Step 2, signed from A's side, when either side declared (`a`, `b`: the specials
    /// scored): one declarer collects its value; of two, the higher tier collects its own value
    /// and equal tiers draw (RULES.md 4; suits and the banker never decide).
    pub fn pays(&self, a: Option<Special>, b: Option<Special>) -> i64 {
        match (a, b) {
            (Some(a), None) => self.units(a),
            (None, Some(b)) => -self.units(b),
            (Some(a), Some(b)) => match self.tier(a).cmp(&self.tier(b)) {
                std::cmp::Ordering::Less => self.units(a),
                std::cmp::Ordering::Greater => -self.units(b),
                std::cmp::Ordering::Equal => 0,
            },
            (None, None) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_serde_names_in_canonical_order() {
        assert_eq!(Special::SameSuitDragon.key(), "same_suit_dragon");
        assert_eq!(Special::ThreeFlushes.key(), "three_flushes");
        for s in Special::ALL {
            assert_eq!(Special::from_key(s.key()), Some(s));
        }
        assert_eq!(Special::from_key("royal_flush"), None);
    }

    #[test]
    fn the_higher_tier_collects_its_own_value() {
        let mut s = Specials::default();
        s.set(Special::Dragon, 52, 0);
        s.set(Special::SixPairs, 3, 1);
        s.set(Special::ThreeFlushes, 4, 1);
        assert_eq!(s.pays(Some(Special::Dragon), None), 52);
        assert_eq!(s.pays(None, Some(Special::SixPairs)), -3);
        assert_eq!(s.pays(Some(Special::SixPairs), Some(Special::Dragon)), -52);
        assert_eq!(s.pays(Some(Special::Dragon), Some(Special::SixPairs)), 52);
        assert_eq!(
            s.pays(Some(Special::ThreeFlushes), Some(Special::SixPairs)),
            0
        );
    }
}
