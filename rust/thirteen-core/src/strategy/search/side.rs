//! A back's strongest middles, for ending its frontier from the middles' side.

use crate::cards::{HandValue, PRIMARY_SHIFT};

/// Fronts of a back's frontier scored before its strongest middles may be taken from the
/// middles' side.
pub(super) const SIDE_AFTER: usize = 6;
/// The most pairs of one category and deciding ranks of middle so taken.
pub(super) const SIDE_GROUP: usize = 4;

/// A back's legal (front, middle) pairs, for taking its strongest middles first:
/// `(middle value << 32 | front << 16 | middle)` per pair.
pub(super) struct MiddleSide {
    keys: [u64; 56],
    len: usize,
    /// The pairs of the strongest group, strongest middle first.
    group: [u64; SIDE_GROUP],
}

impl Default for MiddleSide {
    fn default() -> Self {
        MiddleSide {
            keys: [0; 56],
            len: 0,
            group: [0; SIDE_GROUP],
        }
    }
}

impl MiddleSide {
    /// Empties it, for another back.
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// How many pairs are held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Whether no pair is held (not filled yet for this back).
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The legal pairs of `pairs` (a back's 56).
    pub(super) fn fill(
        &mut self,
        pairs: &[(u16, u16)],
        v5: &[HandValue],
        legal: &impl Fn(usize, usize) -> bool,
    ) {
        for &(fi, mi) in pairs {
            if legal(fi as usize, mi as usize) {
                self.keys[self.len] =
                    (v5[mi as usize].raw() as u64) << 32 | (fi as u64) << 16 | mi as u64;
                self.len += 1;
            }
        }
    }

    /// The pairs whose middle is of the category and deciding ranks of the strongest
    /// middle, when at most [`SIDE_GROUP`] (their count), and the middle of the strongest
    /// pair after them (`None`: there is none).
    pub(super) fn strongest_group(&mut self) -> Option<(usize, Option<usize>)> {
        let top = *self.keys[..self.len].iter().max()?;
        let key = ((top >> 32) as u32) >> PRIMARY_SHIFT;
        let mut n = 0;
        let mut after = 0u64;
        for &k in &self.keys[..self.len] {
            if ((k >> 32) as u32) >> PRIMARY_SHIFT == key {
                if n == SIDE_GROUP {
                    return None;
                }
                self.group[n] = k;
                n += 1;
            } else {
                after = after.max(k);
            }
        }
        self.group[..n].sort_unstable_by(|x, y| y.cmp(x));
        Some((n, (after != 0).then_some((after & 0xffff) as usize)))
    }

    /// The `(front, middle)` of pair `k` of the strongest group, strongest middle first.
    pub(super) fn pair(&self, k: usize) -> (usize, usize) {
        let key = self.group[k];
        ((key >> 16 & 0xffff) as usize, (key & 0xffff) as usize)
    }
}
