//! The greedy baseline: the strongest back, then the strongest middle of the rest.

use crate::arrange::Arrangement;
use crate::cards::Card;
use crate::rules::Rules;
use crate::split::HandSplits;
use crate::strategy::ev::arrangement_of;
use crate::strategy::search::Candidate;

/// The greedy baseline: the strongest back, then the strongest middle of the rest, the rest
/// in front (never fouled). Ties go to the first subset in enumeration order.
pub fn solve_greedy(cards: &[Card; 13], rules: &Rules) -> Arrangement {
    let splits = HandSplits::new(cards, rules.wheel);
    let v5 = splits.five_values();
    let back = (0..v5.len()).fold(0, |best, i| if v5[i] > v5[best] { i } else { best });
    let (mut front, mut middle) = (usize::MAX, usize::MAX);
    for (f, m) in splits.rest_of(back) {
        if middle == usize::MAX || v5[m] > v5[middle] {
            (front, middle) = (f, m);
        }
    }
    arrangement_of(
        &splits,
        &Candidate {
            subsets: (front, middle, back),
            expected: 0.0,
        },
    )
}
