//! What a search is asked for: how many splits, kept apart how, worth more than what, and
//! holding which cards.

use crate::cards::HandValue;

/// Which splits a list of more than one keeps apart: every split, or one per three lane
/// values (the same play in other cards is left out), or one per label (hints, 牌型提示:
/// the front's category and highest rank, the middle's and the back's categories).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Distinct {
    /// Every split.
    #[default]
    No,
    /// One split per three lane values.
    Values,
    /// One split per label.
    Labels,
}

impl Distinct {
    /// The flags callers pass: `labels` (implies distinct), else `distinct` (by values).
    pub fn of(distinct: bool, labels: bool) -> Distinct {
        match (distinct, labels) {
            (_, true) => Distinct::Labels,
            (true, false) => Distinct::Values,
            (false, false) => Distinct::No,
        }
    }

    /// Whether some splits are kept apart.
    pub fn any(self) -> bool {
        self != Distinct::No
    }

    /// The key that splits kept apart differ in, from their three lane values. A label's
    /// key is a function of the values, so splits of equal values share it.
    #[inline]
    pub(super) fn key(self, [f, m, b]: [HandValue; 3]) -> (u32, u32, u32) {
        match self {
            Distinct::Labels => {
                let top_rank = 31 - f.primary_mask().max(1).leading_zeros();
                (
                    (f.category() as u32) << 4 | top_rank,
                    m.category() as u32,
                    b.category() as u32,
                )
            }
            _ => (f.raw(), m.raw(), b.raw()),
        }
    }
}

/// Positions (bits of the dealt cards) that the splits must hold:
/// `lanes` in the front, middle and back (cards already placed, 牌型提示 while arranging),
/// `held` in any lane (the horse card, when kept). Empty: every split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need {
    /// Positions that each lane (front, middle, back) must hold.
    pub lanes: [u32; 3],
    /// Positions that some lane must hold.
    pub held: u32,
}

impl Need {
    /// Nothing asked for.
    pub fn is_empty(&self) -> bool {
        *self == Need::default()
    }
}

/// What a search looks for: the `top` best splits (at least one), kept apart by
/// `distinct`, each worth more than `above` (minus infinity: any) and holding what `need`
/// asks for.
#[derive(Clone, Copy, Debug)]
pub struct Ask {
    /// How many splits to list, best first.
    pub top: usize,
    /// Which splits the list keeps apart.
    pub distinct: Distinct,
    /// What a split must be worth more than (the search prunes against it from the start).
    pub above: f64,
    /// The positions the splits must hold.
    pub need: Need,
}

impl Ask {
    /// The `top` best splits kept apart by `distinct`, of every split.
    pub fn best(top: usize, distinct: Distinct) -> Ask {
        Ask {
            top,
            distinct,
            above: f64::NEG_INFINITY,
            need: Need::default(),
        }
    }
}
