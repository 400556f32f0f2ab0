//! Lane counts packed in bytes, for the trips of a training run between processes (the
//! tables an iteration answers, sent to the workers; the counts of a range of its deals,
//! sent back): a few hundred kilobytes copied as they are, where lists of pairs are built
//! and read item by item.
//!
//! The layout, every number little-endian: the number of lists `n` (`u32`: 3, or 3 + 3 ×
//! [`CLASSES`] with the classes), then each list's number of pairs (`n` × `u32`), then the
//! pairs of every list in turn, each a raw hand value (`u32`) and its count (`u64`). The
//! lists are front, middle and back, then each class's front, middle and back.

use super::lanes::{LaneCounts, LanePairs, CLASSES};
use super::train::{IterationCounts, TrainConfig};
use crate::cards::HandValue;
use crate::error::{Error, Lane, Result};

/// Bytes of one packed `(value, count)` pair.
const PAIR: usize = 12;

fn invalid(message: String) -> Error {
    Error::InvalidArgument {
        message: format!("packed lane counts: {message}"),
    }
}

impl LaneCounts {
    /// These counts packed (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let lists: Vec<&Vec<(u32, u64)>> = (self.lanes.iter())
            .chain(self.classes.iter().flatten())
            .collect();
        let pairs: usize = lists.iter().map(|l| l.len()).sum();
        let mut out = Vec::with_capacity(4 * (1 + lists.len()) + PAIR * pairs);
        out.extend_from_slice(&(lists.len() as u32).to_le_bytes());
        for list in &lists {
            out.extend_from_slice(&(list.len() as u32).to_le_bytes());
        }
        for &(value, count) in lists.iter().flat_map(|l| l.iter()) {
            out.extend_from_slice(&value.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
        }
        out
    }

    /// Counts packed by [`LaneCounts::to_bytes`], checked: the layout's lengths, each value a
    /// hand value of its lane's size ([`Error::NotAHandValue`]), and the classes adding up to
    /// the lanes ([`LaneCounts::new`]). Errors: [`Error::InvalidArgument`] for bytes of
    /// another layout.
    pub fn from_bytes(bytes: &[u8]) -> Result<LaneCounts> {
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        let n = word(0).ok_or_else(|| invalid(format!("{} bytes hold no header", bytes.len())))?;
        let n = n as usize;
        if n != Lane::ALL.len() && n != Lane::ALL.len() * (1 + CLASSES) {
            return Err(invalid(format!(
                "{n} lists (expected 3, or 3 per class too)"
            )));
        }
        let lengths: Vec<usize> = (0..n)
            .map(|i| word(4 + 4 * i).map(|l| l as usize))
            .collect::<Option<_>>()
            .ok_or_else(|| invalid(format!("{} bytes hold no {n} list lengths", bytes.len())))?;
        let start = 4 * (1 + n);
        let expected = lengths
            .iter()
            .try_fold(start, |s, &l| l.checked_mul(PAIR)?.checked_add(s));
        if expected != Some(bytes.len()) {
            return Err(invalid(format!(
                "{} bytes for lists of {lengths:?} pairs",
                bytes.len()
            )));
        }
        let mut at = start;
        let mut lists = Vec::with_capacity(n);
        for (i, &length) in lengths.iter().enumerate() {
            let lane = Lane::ALL[i % Lane::ALL.len()];
            let mut list = Vec::with_capacity(length);
            for pair in bytes[at..at + PAIR * length].chunks_exact(PAIR) {
                let value = u32::from_le_bytes(pair[..4].try_into().expect("4 bytes"));
                let count = u64::from_le_bytes(pair[4..].try_into().expect("8 bytes"));
                list.push((HandValue::from_raw(value, lane.size())?.raw(), count));
            }
            at += PAIR * length;
            lists.push(list);
        }
        let mut lists = lists.into_iter();
        let mut three =
            || -> LanePairs { std::array::from_fn(|_| lists.next().unwrap_or_default()) };
        let lanes = three();
        let classes = (n > Lane::ALL.len()).then(|| (0..CLASSES).map(|_| three()).collect());
        LaneCounts::new(lanes, classes)
    }
}

impl IterationCounts {
    /// The counts of a whole iteration of `cfg` from the packed counts of disjoint ranges of
    /// its deals ([`LaneCounts::from_bytes`]), added up and checked as
    /// [`IterationCounts::returned`]: the classes are kept when every part that counted a
    /// hand brought them. Errors: those of the parts, then of the sum.
    pub fn from_packed(parts: &[&[u8]], cfg: &TrainConfig) -> Result<IterationCounts> {
        let mut lanes = LanePairs::default();
        let mut classes: Option<Vec<LanePairs>> = Some(vec![LanePairs::default(); CLASSES]);
        for part in parts {
            let counts = LaneCounts::from_bytes(part)?;
            if counts.lanes[0].iter().all(|p| p.1 == 0) {
                continue;
            }
            for (to, from) in lanes.iter_mut().zip(&counts.lanes) {
                to.extend_from_slice(from);
            }
            match (&mut classes, counts.classes.is_empty()) {
                (Some(to), false) => {
                    for (to, from) in to.iter_mut().flatten().zip(counts.classes.iter().flatten()) {
                        to.extend_from_slice(from);
                    }
                }
                _ => classes = None,
            }
        }
        let counted = lanes[0].iter().any(|p| p.1 > 0);
        let mut classes = classes.filter(|_| counted);
        for list in classes.iter_mut().flatten().flatten() {
            merge(list);
        }
        IterationCounts::returned(lanes, classes, cfg)
    }
}

/// `pairs` sorted by value, the counts of a value added up (saturating) into one pair.
fn merge(pairs: &mut Vec<(u32, u64)>) {
    pairs.sort_unstable_by_key(|p| p.0);
    pairs.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.saturating_add(later.1);
        }
        same
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::strategy::solve::Strategy;
    use crate::strategy::train::iteration_counts;
    use crate::LaneTables;

    fn cfg(deals: usize) -> TrainConfig {
        TrainConfig {
            players: 2,
            deals,
            iterations: 1,
            tolerance: 0.0,
            seed: 3,
        }
    }

    /// The greedy counts of deals `range` of iteration 0 of [`cfg`].
    fn greedy(range: std::ops::Range<usize>) -> IterationCounts {
        let tables = LaneTables::default();
        iteration_counts(
            &Rules::default(),
            &tables,
            Strategy::Greedy,
            &cfg(20),
            0,
            range,
        )
    }

    #[test]
    fn counts_come_back_from_their_bytes() {
        let counts = greedy(0..20).to_counts();
        assert_eq!(counts.classes.len(), CLASSES);
        let bytes = counts.to_bytes();
        // The header and lengths, then 12 bytes a pair.
        let pairs: usize = (counts.lanes.iter().chain(counts.classes.iter().flatten()))
            .map(Vec::len)
            .sum();
        assert_eq!(bytes.len(), 4 * (1 + 3 + 3 * CLASSES) + 12 * pairs);
        assert_eq!(LaneCounts::from_bytes(&bytes), Ok(counts.clone()));
        let lanes = LaneCounts::of_lanes(counts.lanes.clone());
        assert_eq!(LaneCounts::from_bytes(&lanes.to_bytes()), Ok(lanes));
        let empty = LaneCounts::default();
        assert_eq!(
            empty.to_bytes(),
            [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(LaneCounts::from_bytes(&empty.to_bytes()), Ok(empty));
    }

    #[test]
    fn bytes_of_another_layout_are_refused() {
        let counts = greedy(0..5).to_counts();
        let bytes = counts.to_bytes();
        let message = |b: &[u8]| LaneCounts::from_bytes(b).unwrap_err().to_string();
        assert!(message(&[]).contains("0 bytes hold no header"));
        assert!(message(&[4, 0, 0, 0]).contains("4 lists"));
        assert!(message(&bytes[..bytes.len() - 1]).contains("bytes for lists of"));
        assert!(message(&[3, 0, 0, 0, 0]).contains("hold no 3 list lengths"));
        // A length so large that the pairs' bytes overflow.
        let mut huge = vec![3, 0, 0, 0];
        huge.extend_from_slice(&[255; 12]);
        assert!(message(&huge).contains("bytes for lists of"));
        // A front value that is no 3-card value; classes that do not add up.
        let mut wrong = bytes.clone();
        let first = 4 * (1 + 3 + 3 * CLASSES);
        wrong[first..first + 4].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(
            LaneCounts::from_bytes(&wrong),
            Err(Error::NotAHandValue { value: 7, size: 3 })
        ));
        let mut more = counts.clone();
        more.lanes[0][0].1 += 1;
        more.lanes[1][0].1 += 1;
        more.lanes[2][0].1 += 1;
        assert!(message(&more.to_bytes()).contains("do not add up"));
    }

    #[test]
    fn merged_pairs_add_up_by_value() {
        let mut pairs = vec![(5, 1), (2, 3), (5, 4), (9, u64::MAX), (9, 1), (2, 0)];
        merge(&mut pairs);
        assert_eq!(pairs, [(2, 3), (5, 5), (9, u64::MAX)]);
    }

    #[test]
    fn packed_parts_add_up_to_the_iteration() {
        let whole = greedy(0..20);
        let parts: Vec<Vec<u8>> = [0..4, 4..4, 4..19, 19..20]
            .into_iter()
            .map(|r| greedy(r).to_counts().to_bytes())
            .collect();
        let slices: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        assert_eq!(
            IterationCounts::from_packed(&slices, &cfg(20)),
            Ok(whole.clone())
        );
        let reversed: Vec<&[u8]> = slices.iter().rev().copied().collect();
        assert_eq!(
            IterationCounts::from_packed(&reversed, &cfg(20)),
            Ok(whole.clone())
        );
        // A part without its classes: the sum keeps the lanes only.
        let bare = LaneCounts::of_lanes(greedy(0..4).to_counts().lanes).to_bytes();
        let mixed = [bare.as_slice(), slices[2], slices[3]];
        let sum = IterationCounts::from_packed(&mixed, &cfg(20)).unwrap();
        assert_eq!(sum.lanes, whole.lanes);
        assert!(sum.classes.is_empty());
        // No part, or none that counted a hand: nothing counted.
        assert_eq!(
            IterationCounts::from_packed(&[], &cfg(20)),
            Ok(IterationCounts::default())
        );
        // More hands than the deals hold: refused as a returned count is.
        let twice = [slices[0], slices[0], slices[2], slices[2], slices[3]];
        assert!(IterationCounts::from_packed(&twice, &cfg(10)).is_err());
    }
}
