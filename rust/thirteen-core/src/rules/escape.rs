//! Escape (逃跑 / 强退, RULES.md 5 "Escape"): what a player who leaves mid-round pays, and to
//! whom, for one leaver or several.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Where an escaping player's penalty goes (RULES.md 6 `escape.to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeTo {
    /// `units`, split equally among the others.
    Split,
    /// `by_players[n]` to the player with the highest result, ties split equally.
    Winner,
}

/// The escape penalty of a rule set (RULES.md 6 `escape`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Escape {
    /// Who receives it.
    pub to: EscapeTo,
    /// The penalty for `to = "split"` (0 otherwise).
    pub units: i64,
    /// The penalty for `to = "winner"` by players dealt in (index = player count, leaver
    /// included; 0 where not given).
    pub by_players: [i64; 5],
}

impl Escape {
    /// The penalty of one leaver at a table of `dealt_in` players.
    pub fn amount(&self, dealt_in: usize) -> i64 {
        match self.to {
            EscapeTo::Split => self.units,
            EscapeTo::Winner => self.by_players.get(dealt_in).copied().unwrap_or(0),
        }
    }

    /// What one leaver pays, per seat: `results` holds the others' round results (the leaver's
    /// entry is ignored); its length is the number of players dealt in. The leaver's entry is
    /// minus the amount; the receivers are every other seat (`split`) or those with the highest
    /// result (`winner`). Errors: [`Error::InvalidArgument`] for a missing result under
    /// `winner`.
    pub fn payments(&self, leaver: usize, results: &[Option<i64>]) -> Result<Vec<i64>> {
        let n = results.len();
        let others = (0..n).filter(|&s| s != leaver);
        let receivers: Vec<usize> = match self.to {
            EscapeTo::Split => others.collect(),
            EscapeTo::Winner => {
                let mut best = i64::MIN;
                for s in others.clone() {
                    let r = results[s].ok_or_else(|| Error::InvalidArgument {
                        message: format!("no result for seat {s}"),
                    })?;
                    best = best.max(r);
                }
                others.filter(|&s| results[s] == Some(best)).collect()
            }
        };
        Ok(share_out(self.amount(n), leaver, &receivers, n))
    }

    /// What the leavers of one round pay, per seat, summed (RULES.md 5 "Escape"): each leaver,
    /// in `leavers`, pays separately and only the seats still in receive. `results`: per seat
    /// dealt in, the showdown's result (the leavers' entries are ignored). `split`: the penalty
    /// is shared by the seats still in; `winner`: `by_players[n]`, `n` all the players dealt
    /// in, to the seats still in with the highest result. At least one seat must still be in.
    pub fn round_payments(&self, leavers: &[usize], results: &[i64]) -> Vec<i64> {
        let n = results.len();
        let present: Vec<usize> = (0..n).filter(|s| !leavers.contains(s)).collect();
        let receivers: Vec<usize> = match self.to {
            EscapeTo::Split => present,
            EscapeTo::Winner => {
                let best = present.iter().map(|&s| results[s]).max();
                present
                    .into_iter()
                    .filter(|&s| Some(results[s]) == best)
                    .collect()
            }
        };
        let mut total = vec![0i64; n];
        for &leaver in leavers {
            let paid = share_out(self.amount(n), leaver, &receivers, n);
            for (t, p) in total.iter_mut().zip(paid) {
                *t += p;
            }
        }
        total
    }
}

/// `amount` from `leaver` to `receivers` in equal shares, the remainder one unit at a time to
/// the receivers after the leaver in seat order, wrapping round, at a table of `n`.
fn share_out(amount: i64, leaver: usize, receivers: &[usize], n: usize) -> Vec<i64> {
    let mut payments = vec![0i64; n];
    let k = receivers.len() as i64;
    let (share, remainder) = (amount.div_euclid(k), amount.rem_euclid(k));
    for &s in receivers {
        payments[s] = share;
    }
    let after = (1..n)
        .map(|k| (leaver + k) % n)
        .filter(|s| receivers.contains(s))
        .take(remainder as usize);
    for s in after {
        payments[s] += 1;
    }
    payments[leaver] = -amount;
    payments
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(units: i64) -> Escape {
        Escape {
            to: EscapeTo::Split,
            units,
            by_players: [0; 5],
        }
    }

    #[test]
    fn a_split_goes_to_the_others_with_remainders_after_the_leaver() {
        let r = split(18);
        assert_eq!(
            r.payments(3, &[Some(4), Some(4), Some(-8), None]).unwrap(),
            vec![6, 6, 6, -18]
        );
        // 20 / 3 = 6 rest 2: the seats after the leaver (1) in order are 2, 3, then 0.
        assert_eq!(
            split(20)
                .payments(1, &[Some(0), None, Some(0), Some(0)])
                .unwrap(),
            vec![6, -20, 7, 7]
        );
    }

    #[test]
    fn several_leavers_pay_only_the_seats_still_in() {
        // Seats 1 and 3 leave a table of 4 under a split of 7: each pays 7 to seats 0 and 2,
        // 3 each and the odd unit to the first seat still in after the leaver (2 for 1, 0 for
        // 3).
        assert_eq!(
            split(7).round_payments(&[1, 3], &[5, 0, -5, 0]),
            vec![7, -7, 7, -7]
        );
        // To the winner: by_players[4] = 48 from each leaver; seats 0 and 2 tie on 5.
        let winner = Escape {
            to: EscapeTo::Winner,
            units: 0,
            by_players: [0, 0, 12, 24, 48],
        };
        assert_eq!(
            winner.round_payments(&[3], &[5, -10, 5, 99]),
            vec![24, 0, 24, -48]
        );
        assert_eq!(
            winner.round_payments(&[1, 3], &[2, 0, -2, 0]),
            vec![96, -48, 0, -48]
        );
        assert!(winner.payments(0, &[None, Some(1), None]).is_err());
    }
}
