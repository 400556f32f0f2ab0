//! Lane counts as a caller gives them (`LaneTables.from_counts`, what a training `count`
//! callback returns), checked and read: a lane's `(value, count)` pairs, and maps of the
//! three lanes' pairs under `front`, `middle` and `back`, per class of the arrangement as
//! well ([`CLASSES`] of them).

use super::lanes::{LaneCounts, LanePairs, CLASSES};
use crate::cards::HandValue;
use crate::error::{Error, Lane, Result};
use crate::given::{Given, Plain};
use crate::limits::{HAND_VALUE, LANE_COUNT};

fn invalid(message: String) -> Error {
    Error::InvalidArgument { message }
}

fn wrong_type(message: String) -> Error {
    Error::WrongType { message }
}

impl LaneCounts {
    /// A lane's `(value, count)` pairs given as integers, checked in order: each value a hand
    /// value of the lane's size ([`Error::OutOfRange`] outside [`HAND_VALUE`],
    /// [`Error::NotAHandValue`]), each count from 0 ([`LANE_COUNT`]).
    pub fn pairs_given<'a>(
        pairs: impl IntoIterator<Item = (&'a Given, &'a Given)>,
        lane: Lane,
    ) -> Result<Vec<(u32, u64)>> {
        (pairs.into_iter())
            .map(|(value, count)| {
                let raw = HAND_VALUE.given(value)? as u32;
                let value = HandValue::from_raw(raw, lane.size())?;
                Ok((value.raw(), LANE_COUNT.given(count)? as u64))
            })
            .collect()
    }

    /// Per-class counts given as plain data: a list of [`CLASSES`] maps of the three lanes'
    /// pairs (no other key), read class by class. Errors: [`Error::WrongType`] for another
    /// shape, [`Error::InvalidArgument`] for a key missing or too many, those of
    /// [`LaneCounts::pairs_given`]; the number of classes is checked with their sums
    /// ([`LaneCounts::new`]).
    pub fn classes_from_plain(classes: &Plain) -> Result<Vec<LanePairs>> {
        let not_list = || wrong_type("classes must be a list of dicts of lane counts".into());
        let items = classes.items().ok_or_else(not_list)?;
        let mut out = Vec::with_capacity(CLASSES);
        for (k, class) in items.iter().enumerate() {
            let Plain::Map(keys) = class else {
                return Err(wrong_type(format!(
                    "class {k} must be a dict of lane counts"
                )));
            };
            if keys.len() != Lane::ALL.len() {
                return Err(invalid(format!(
                    "class {k} must hold the counts of front, middle and back, got {} keys",
                    keys.len()
                )));
            }
            out.push(lanes_from_plain(class, |lane| {
                format!("class {k} has no {} counts", lane.key())
            })?);
        }
        Ok(out)
    }
}

/// The three lanes' pairs of a map, lane by lane: each a list of `(value, count)` tuples
/// ([`LaneCounts::pairs_given`]); a missing lane is [`Error::InvalidArgument`] with the
/// message `missing` makes.
pub(crate) fn lanes_from_plain(map: &Plain, missing: impl Fn(Lane) -> String) -> Result<LanePairs> {
    let mut lanes = LanePairs::default();
    for (slot, lane) in lanes.iter_mut().zip(Lane::ALL) {
        let pairs = map.get(lane.key()).ok_or_else(|| invalid(missing(lane)))?;
        let not_pairs = || {
            let shape = "must be a list of (value, count) tuples of integers";
            wrong_type(format!("the {} counts {shape}", lane.key()))
        };
        let given = (pairs.items().ok_or_else(not_pairs)?.iter())
            .map(|pair| match pair {
                Plain::Tuple(vc) => match vc.as_slice() {
                    [Plain::Int(v), Plain::Int(c)] => Ok((v, c)),
                    _ => Err(not_pairs()),
                },
                _ => Err(not_pairs()),
            })
            .collect::<Result<Vec<_>>>()?;
        *slot = LaneCounts::pairs_given(given, lane)?;
    }
    Ok(lanes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> Plain {
        Plain::Int(Given::Int(v))
    }

    /// The raw value of a 3- or 5-card hand.
    fn value(cards: &str) -> i64 {
        let cards = crate::parse_cards(cards).unwrap();
        crate::evaluate(&cards, crate::Wheel::default())
            .unwrap()
            .raw() as i64
    }

    fn pair(v: i64, c: i64) -> Plain {
        Plain::Tuple(vec![int(v), int(c)])
    }

    /// A map of the three lanes, each holding `pairs`.
    fn lanes(front: Vec<Plain>, five: Vec<Plain>) -> Plain {
        let entry = |k: &str, p: &Vec<Plain>| (k.to_string(), Plain::List(p.clone()));
        Plain::Map(vec![
            entry("front", &front),
            entry("middle", &five),
            entry("back", &five),
        ])
    }

    #[test]
    fn pairs_are_hand_values_of_the_lane_and_counts_from_zero() {
        let ace_pair = value("Ah Ad 3c");
        let (v, c) = (Given::Int(ace_pair), Given::Int(2));
        assert_eq!(
            LaneCounts::pairs_given([(&v, &c)], Lane::Front),
            Ok(vec![(ace_pair as u32, 2)])
        );
        // A 3-card value is no 5-card value; a negative count and a huge value are out of range.
        let e = LaneCounts::pairs_given([(&v, &c)], Lane::Back).unwrap_err();
        assert!(matches!(e, Error::NotAHandValue { size: 5, .. }));
        let e = LaneCounts::pairs_given([(&v, &Given::Int(-1))], Lane::Front).unwrap_err();
        assert!(matches!(e, Error::OutOfRange { ref key, .. } if key == "count"));
        let huge = Given::Beyond("99999999999999999999".into());
        let e = LaneCounts::pairs_given([(&huge, &c)], Lane::Front).unwrap_err();
        assert!(matches!(e, Error::OutOfRange { ref key, .. } if key == "value"));
    }

    #[test]
    fn classes_are_read_class_by_class_and_name_the_first_fault() {
        let (five, three) = (value("2s 2h 3d 3c 9s"), value("Kh 9d 3c"));
        let good = lanes(vec![pair(three, 1)], vec![pair(five, 1)]);
        let empty = lanes(Vec::new(), Vec::new());
        let mut classes = vec![empty; CLASSES];
        classes[1] = good.clone();
        let read = LaneCounts::classes_from_plain(&Plain::List(classes.clone())).unwrap();
        assert_eq!(read[1][2], vec![(five as u32, 1)]);
        assert!(read[0].iter().all(Vec::is_empty));
        let fault = |class: Plain| {
            let mut bad = classes.clone();
            bad[3] = class;
            LaneCounts::classes_from_plain(&Plain::List(bad)).unwrap_err()
        };
        let message = |e: Error| e.to_string();
        assert_eq!(
            fault(Plain::List(Vec::new())),
            Error::WrongType {
                message: "class 3 must be a dict of lane counts".into()
            }
        );
        let Plain::Map(mut keys) = good.clone() else {
            unreachable!()
        };
        keys[2].0 = "rear".into();
        assert_eq!(
            message(fault(Plain::Map(keys.clone()))),
            "class 3 has no back counts"
        );
        keys.push(("classes".into(), Plain::List(Vec::new())));
        assert!(message(fault(Plain::Map(keys))).ends_with("got 4 keys"));
        let swapped = lanes(vec![pair(five, 1)], vec![pair(five, 1)]);
        assert!(matches!(
            fault(swapped),
            Error::NotAHandValue { size: 3, .. }
        ));
        let listed = lanes(vec![Plain::List(vec![int(three), int(1)])], Vec::new());
        assert!(matches!(fault(listed), Error::WrongType { .. }));
        let not_list = LaneCounts::classes_from_plain(&Plain::Other("str".into()));
        assert!(matches!(not_list, Err(Error::WrongType { .. })));
    }
}
