//! Arrangements (front 3, middle 5, back 5), the foul check and lane comparison
//! (RULES.md 2 and 3).

use std::cmp::Ordering;
use std::fmt;

use crate::cards::{check_duplicates, format_cards, parse_cards, Card, DeckKind};
use crate::cards::{evaluate, evaluate3, evaluate5, tie_suit, HandValue, Wheel};
use crate::error::{Error, Lane, Result};
use crate::rules::{Rules, TieBreak};

/// A player's split of 13 cards into front (头墩), middle (中墩) and back (尾墩).
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Arrangement {
    /// 3 cards.
    pub front: [Card; 3],
    /// 5 cards.
    pub middle: [Card; 5],
    /// 5 cards.
    pub back: [Card; 5],
}

fn lane_array<const N: usize>(cards: &[Card], lane: Lane) -> Result<[Card; N]> {
    cards.try_into().map_err(|_| Error::WrongCount {
        expected: N,
        got: cards.len(),
        lane: Some(lane),
        player: None,
    })
}

impl Arrangement {
    /// Builds an arrangement; errors name a lane of the wrong size, then the first card
    /// (front, middle, back order) beyond what `deck` holds.
    pub fn new(front: &[Card], middle: &[Card], back: &[Card], deck: DeckKind) -> Result<Self> {
        let a = Arrangement {
            front: lane_array(front, Lane::Front)?,
            middle: lane_array(middle, Lane::Middle)?,
            back: lane_array(back, Lane::Back)?,
        };
        check_duplicates(&a.cards(), deck, |_| None)?;
        Ok(a)
    }

    /// Parses `"Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"`.
    pub fn parse(text: &str, deck: DeckKind) -> Result<Self> {
        let groups: Vec<&str> = text.split('|').collect();
        if groups.len() != 3 {
            return Err(Error::WrongCount {
                expected: 3,
                got: groups.len(),
                lane: None,
                player: None,
            });
        }
        // Token positions count across the whole text, so an error points at the right token.
        let mut lanes: Vec<Vec<Card>> = Vec::with_capacity(3);
        let mut offset = 0;
        for g in &groups {
            let cards = parse_cards(g).map_err(|e| match e {
                Error::BadCard { token, position } => Error::BadCard {
                    token,
                    position: position + offset,
                },
                other => other,
            })?;
            offset += cards.len();
            lanes.push(cards);
        }
        Arrangement::new(&lanes[0], &lanes[1], &lanes[2], deck)
    }

    /// The 13 cards, front then middle then back.
    pub fn cards(&self) -> [Card; 13] {
        let mut out = [self.front[0]; 13];
        out[..3].copy_from_slice(&self.front);
        out[3..8].copy_from_slice(&self.middle);
        out[8..].copy_from_slice(&self.back);
        out
    }

    /// The same arrangement with each lane's cards in code order: arrangements that put the
    /// same cards in the same lanes have the same canonical form (the order inside a lane
    /// never matters to the rules).
    pub fn canonical(&self) -> Arrangement {
        let mut a = *self;
        a.front.sort_unstable();
        a.middle.sort_unstable();
        a.back.sort_unstable();
        a
    }

    /// The cards of one lane.
    pub fn lane(&self, lane: Lane) -> &[Card] {
        match lane {
            Lane::Front => &self.front,
            Lane::Middle => &self.middle,
            Lane::Back => &self.back,
        }
    }

    /// The three lane values, front first.
    #[inline]
    pub fn values(&self, wheel: Wheel) -> [HandValue; 3] {
        [
            evaluate3(&self.front),
            evaluate5(&self.middle, wheel),
            evaluate5(&self.back, wheel),
        ]
    }
}

impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | {} | {}",
            format_cards(&self.front, false),
            format_cards(&self.middle, false),
            format_cards(&self.back, false)
        )
    }
}

impl fmt::Debug for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arrangement({self})")
    }
}

/// Whether lane values break front <= middle <= back (相公 / 倒水, RULES.md 2).
#[inline]
pub fn values_foul(v: &[HandValue; 3]) -> bool {
    v[0] > v[1] || v[1] > v[2]
}

/// Whether the arrangement is fouled under the rules' order (suits never looked at).
pub fn is_foul(a: &Arrangement, rules: &Rules) -> bool {
    values_foul(&a.values(rules.wheel))
}

/// Compares two lanes of equal values by the rules' tie-break: `Greater` when `a` wins.
#[inline]
pub fn break_tie(a: &[Card], b: &[Card], value: HandValue, rules: &Rules) -> Ordering {
    match rules.tie_break {
        TieBreak::None => Ordering::Equal,
        TieBreak::Suit => tie_suit(a, value).cmp(&tie_suit(b, value)),
    }
}

/// Compares two players' lanes (3 or 5 cards each, same size): `Greater` when `a` wins,
/// `Equal` for a drawn lane (RULES.md 3; the banker's ties are the settlement's business).
/// Errors: [`Error::DuplicateCard`] for a card of `a`, then of `b`, beyond the rules' deck;
/// [`Error::WrongCount`].
pub fn compare_lanes(a: &[Card], b: &[Card], rules: &Rules) -> Result<Ordering> {
    check_duplicates(a, rules.deck, |_| None)?;
    check_duplicates(b, rules.deck, |_| None)?;
    let size_err = |got: usize| Error::WrongCount {
        expected: if a.len() == 3 { 3 } else { 5 },
        got,
        lane: None,
        player: None,
    };
    let va = evaluate(a, rules.wheel).ok_or_else(|| size_err(a.len()))?;
    let vb = evaluate(b, rules.wheel).ok_or_else(|| size_err(b.len()))?;
    if a.len() != b.len() {
        return Err(size_err(b.len()));
    }
    Ok(va.cmp(&vb).then_with(|| break_tie(a, b, va, rules)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(text: &str) -> Arrangement {
        Arrangement::parse(text, DeckKind::Standard).unwrap()
    }

    #[test]
    fn canonical_forms_ignore_the_order_inside_a_lane_only() {
        let a = arr("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d");
        let b = arr("Kc Ad Ah | 5h Jc 5s Jd Jh | 9d Qd 9c Qh Qs");
        let c = arr("Ah Ad Kc | Qs Qh Qd 9c 9d | Jh Jd Jc 5s 5h");
        assert_ne!(a, b);
        assert_eq!(a.canonical(), b.canonical());
        assert_ne!(a.canonical(), c.canonical());
        // Code order: ranks low to high, then suits d < c < h < s.
        assert_eq!(
            a.canonical().to_string(),
            "Kc Ad Ah | 5h 5s Jd Jc Jh | 9d 9c Qd Qh Qs"
        );
    }

    #[test]
    fn fouls_cross_size_and_equal() {
        let r = Rules::default();
        assert!(is_foul(
            &arr("Ah Ad Kc | As Ac Qd 3c 2d | Ks Kd Kh 4c 4d"),
            &r
        ));
        assert!(!is_foul(
            &arr("Ah Ad Kc | As Ac Kd 3c 2d | Qs Qh Qc 4c 4d"),
            &r
        ));
        assert!(!is_foul(
            &arr("Qh Qd 3c | 9s Tc Jd Qs Kh | Ah Ad Ac 5c 5d"),
            &r
        ));
        assert!(!is_foul(
            &arr("2c 3d 5h | Ks Qd 9h 7c 4s | Kd Qh 9c 7s 4d"),
            &r
        ));
        let wheel = arr("Qs 8d 6h | As 2d 3c 4h 5s | 9c Tc Jd Qh Kh");
        assert!(!is_foul(&wheel, &r));
        let second = Rules {
            wheel: Wheel::Second,
            ..Rules::default()
        };
        assert!(is_foul(&wheel, &second));
    }

    #[test]
    fn lane_sizes_and_duplicates() {
        let e = Arrangement::parse(
            "Ah Ad | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d",
            DeckKind::Standard,
        );
        assert!(matches!(
            e,
            Err(Error::WrongCount {
                lane: Some(Lane::Front),
                expected: 3,
                got: 2,
                ..
            })
        ));
        let d = Arrangement::parse(
            "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c Ah",
            DeckKind::Standard,
        );
        assert!(matches!(d, Err(Error::DuplicateCard { .. })));
        let p = Arrangement::parse(
            "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c",
            DeckKind::Standard,
        );
        assert!(matches!(
            p,
            Err(Error::WrongCount {
                lane: Some(Lane::Back),
                ..
            })
        ));
        let t = Arrangement::parse("Ah Ad Kc | Jh Jd Jc 5s 5h", DeckKind::Standard);
        assert!(matches!(
            t,
            Err(Error::WrongCount {
                expected: 3,
                got: 2,
                lane: None,
                ..
            })
        ));
        let b = Arrangement::parse(
            "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9x",
            DeckKind::Standard,
        );
        assert!(matches!(b, Err(Error::BadCard { position: 12, .. })));
    }

    #[test]
    fn suit_tie_break() {
        let suit = Rules {
            tie_break: TieBreak::Suit,
            ..Rules::default()
        };
        let c = |a: &str, b: &str, r: &Rules| {
            compare_lanes(&parse_cards(a).unwrap(), &parse_cards(b).unwrap(), r).unwrap()
        };
        // The pair's best suit decides, not a higher kicker.
        assert_eq!(c("5h 5c As 9d 7c", "5s 5d Ad 9h 7d", &suit), Ordering::Less);
        assert_eq!(c("Kh 9c 5d", "Ks 9d 5c", &suit), Ordering::Less);
        assert_eq!(
            c("Kh 9c 5d", "Ks 9d 5c", &Rules::default()),
            Ordering::Equal
        );
        assert_eq!(c("Ks 9c 5d", "Kh 9d 7c", &suit), Ordering::Less);
    }
}
