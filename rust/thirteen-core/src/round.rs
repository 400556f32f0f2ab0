//! A round's settlement with escapes (逃跑 / 强退, RULES.md 5 "Escape"): the seats still in are
//! settled among themselves, a home run still counting the players dealt in (step 7), and each
//! leaver pays its escape penalty.

use crate::error::{Error, Result};
use crate::rules::{Mode, Rules};
use crate::score::{seat_of, settle_among, Settlement, Submission, TableArgs};

/// A settled round: the showdown of the seats still in and what the leavers pay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundSettlement {
    /// The settlement of the seats still in (seat `i` is round seat `settled[i]`); `None` when
    /// fewer than two seats are still in, or when the banker left (banker mode).
    pub settlement: Option<Settlement>,
    /// The seats still in, ascending.
    pub settled: Vec<usize>,
    /// Units from the showdown per round seat (0 for a leaver or without a settlement).
    pub results: Vec<i64>,
    /// Escape payments per round seat: minus the penalty for a leaver, what the others receive.
    pub escape: Vec<i64>,
}

impl RoundSettlement {
    /// Units per round seat: the showdown's result plus escape payments; they sum to 0.
    pub fn units(&self) -> Vec<i64> {
        self.results
            .iter()
            .zip(&self.escape)
            .map(|(r, e)| r + e)
            .collect()
    }
}

/// Settles a round of `subs.len()` seats dealt in, of which the seats of `escaped` left (in the
/// order they left; their entry of `subs` is `None`, every other seat's `Some`).
///
/// `args` names round seats: the banker, each seat's stake (banker mode) and the seats that
/// surrendered. The seats still in are settled as [`crate::score::settle`] settles a table,
/// with their table size taken as allowed and a home run counted by the players dealt in
/// (RULES.md 5 step 7): a leaver neither takes a home run away nor makes one. Then each
/// leaver pays ([`crate::rules::Escape::round_payments`]); with no `escape` rule nothing is
/// paid.
///
/// Errors, before anything is settled: [`Error::BadPlayerCount`] for a number of seats dealt
/// in the rules do not allow; [`Error::InvalidArgument`] for a leaver that is not a seat, is
/// named twice, or leaves no seat in, and for a submission missing for a seat still in or
/// given for a leaver; then those of [`crate::score::settle`] for the seats still in.
pub fn settle_round(
    subs: &[Option<Submission>],
    rules: &Rules,
    args: &TableArgs,
    escaped: &[i64],
) -> Result<RoundSettlement> {
    let n = rules.check_players(subs.len() as i64)?;
    let mut leavers: Vec<usize> = Vec::with_capacity(escaped.len());
    for &seat in escaped {
        let s = seat_of(seat, n, "escaped")?;
        if leavers.contains(&s) {
            return Err(invalid(format!("seat {s} escaped twice")));
        }
        leavers.push(s);
    }
    if leavers.len() >= n {
        return Err(invalid("at least one seat must stay in the round".into()));
    }
    let banker = seat_of(args.banker, n, "banker")?;
    Rules::banker_stakes(n, args.stakes.as_deref())?;
    let settled: Vec<usize> = (0..n).filter(|s| !leavers.contains(s)).collect();
    // Surrendered seats as seats of the table still in; a leaver's surrender is void.
    let mut surrendered = Vec::with_capacity(args.surrendered.len());
    for &seat in &args.surrendered {
        match usize::try_from(seat).ok().filter(|&s| s < n) {
            Some(s) if leavers.contains(&s) => {}
            Some(s) if rules.surrender.allowed => {
                surrendered.push(settled.iter().position(|&t| t == s).expect("in") as i64);
            }
            _ => return Err(Error::SurrenderNotAllowed { player: seat }),
        }
    }
    let mut table = Vec::with_capacity(settled.len());
    for (seat, sub) in subs.iter().enumerate() {
        match (sub, leavers.contains(&seat)) {
            (Some(sub), false) => table.push(sub.clone()),
            (None, true) => {}
            (None, false) => return Err(invalid(format!("no submission for seat {seat}"))),
            (Some(_), true) => {
                return Err(invalid(format!("seat {seat} escaped but has a submission")))
            }
        }
    }
    let mut results = vec![0i64; n];
    let banker_left = rules.mode == Mode::Banker && leavers.contains(&banker);
    let settlement = if settled.len() < 2 || banker_left {
        None
    } else {
        let index = |seat: usize| settled.iter().position(|&s| s == seat);
        let among = TableArgs {
            banker: index(banker).unwrap_or(0) as i64,
            stakes: args
                .stakes
                .as_ref()
                .map(|s| settled.iter().map(|&seat| s[seat]).collect()),
            surrendered,
        };
        let s = settle_among(&table, rules, &among, n)?;
        for (i, &seat) in settled.iter().enumerate() {
            results[seat] = s.totals[i];
        }
        Some(s)
    };
    let escape = match &rules.escape {
        Some(e) if !leavers.is_empty() => e.round_payments(&leavers, &results),
        _ => vec![0; n],
    };
    Ok(RoundSettlement {
        settlement,
        settled,
        results,
        escape,
    })
}

/// What a player who left mid-round (逃跑 / 强退) pays, per seat (RULES.md 5 "Escape").
///
/// `results`: the others' round results in units (the leaver's entry is ignored); its length
/// is the number of players dealt in. The leaver's entry is minus the amount; remainders of an
/// uneven split go one unit at a time to the receiving seats after the leaver, in seat order,
/// wrapping round. With no `escape` rule nothing is paid.
pub fn escape_payments(rules: &Rules, leaver: i64, results: &[Option<i64>]) -> Result<Vec<i64>> {
    let n = results.len();
    let leaver = seat_of(leaver, n, "leaver")?;
    match &rules.escape {
        Some(escape) if n >= 2 => escape.payments(leaver, results),
        _ => Ok(vec![0; n]),
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidArgument { message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrange::Arrangement;
    use crate::cards::DeckKind;

    fn arr(text: &str) -> Option<Submission> {
        Some(Submission::Arranged(
            Arrangement::parse(text, DeckKind::Standard).unwrap(),
        ))
    }

    /// The four hands of score.rs's shisanzhang test: seat 0 scoops the three others.
    fn four() -> Vec<Option<Submission>> {
        vec![
            arr("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"),
            arr("Kh 7d 3c | Th Td 6c 6s 2c | Tc Ts 8h 8c 4d"),
            arr("Ks 8d 4h | 9h 9s 7c 7s 3d | As Ac 6h 6d 3h"),
            arr("Kd Qc Js | 5c 5d 4s 4c 8s | 2s 2h 2d 7h 3s"),
        ]
    }

    fn rules(extra: &str) -> Rules {
        Rules::from_json(&format!(
            r#"{{"players":[4],"lane_values":{{"front":{{"base":1}},"middle":{{"base":1}},
            "back":{{"base":1}}}},"scoop":{{"kind":"bonus","units":2}},
            "home_run":{{"kind":"bonus","units":5,"min_players":4}}{extra}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_home_run_counts_the_players_dealt_in() {
        // Seat 3 leaves a table of 4 that allows 4 only; seats 0, 1, 2 are settled as a table
        // of 3, and seat 0, which scoops 1 and 2 (3 lanes + 2 each), still hits the home run
        // of a 4-player deal: 5 more from each, 20 in all. Seat 2 beats seat 1 in the front
        // (K 8 4 over K 7 3) and the back (A A 6 6 over T T 8 8), loses the middle (T T 6 6
        // over 9 9 7 7): 1 unit. Seat 3 pays the split of 7: 7 / 3 = 2 each, the odd unit to
        // seat 0, the first seat still in after it.
        let r = rules(r#","escape":{"to":"split","units":7}"#);
        let mut subs = four();
        subs[3] = None;
        let got = settle_round(&subs, &r, &TableArgs::default(), &[3]).unwrap();
        assert_eq!(got.settled, vec![0, 1, 2]);
        assert_eq!(got.results, vec![20, -11, -9, 0]);
        assert_eq!(got.settlement.as_ref().unwrap().home_runs, vec![0]);
        assert_eq!(got.escape, vec![3, 2, 2, -7]);
        assert_eq!(got.units().iter().sum::<i64>(), 0);
    }

    #[test]
    fn without_enough_seats_in_nothing_is_compared() {
        let r = rules(r#","escape":{"to":"winner","by_players":{"4":9}}"#);
        let mut subs = four();
        for s in [1, 2, 3] {
            subs[s] = None;
        }
        let got = settle_round(&subs, &r, &TableArgs::default(), &[2, 1, 3]).unwrap();
        assert_eq!(got.settlement, None);
        assert_eq!(got.escape, vec![27, -9, -9, -9]);
        assert!(settle_round(&subs, &r, &TableArgs::default(), &[2, 1]).is_err());
        let all = vec![None, None, None, None];
        assert!(settle_round(&all, &r, &TableArgs::default(), &[0, 1, 2, 3]).is_err());
        assert!(settle_round(&four(), &r, &TableArgs::default(), &[1, 1]).is_err());
        assert!(settle_round(&four()[..3], &r, &TableArgs::default(), &[]).is_err());
    }

    #[test]
    fn escape_payments_of_one_leaver() {
        let r = rules(r#","escape":{"to":"split","units":18}"#);
        assert_eq!(
            escape_payments(&r, 3, &[Some(4), Some(4), Some(-8), None]).unwrap(),
            vec![6, 6, 6, -18]
        );
        assert!(escape_payments(&r, 4, &[Some(4), Some(4), Some(-8), None]).is_err());
        assert_eq!(
            escape_payments(&Rules::default(), 1, &[Some(1), None]).unwrap(),
            vec![0, 0]
        );
    }
}
