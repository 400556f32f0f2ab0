//! `mc`'s behaviour: what it may play (held cards, no foul, a held special), its gate against
//! `ev`'s play, and its determinism per seed.

use super::*;
use crate::arrange::is_foul;
use crate::cards::parse_cards;
use crate::deal::{rng_for, shuffle};
use crate::rules::Special;
use crate::special::find_special;
use crate::strategy::ev::solve_ev;
use crate::strategy::keep::solve_ev_keep;
use crate::strategy::model::Role;
use crate::strategy::train::build_tables;

fn ctx(players: usize) -> Context {
    Context {
        players,
        role: Role::Player,
    }
}

/// Rules recognising the specials, kaixin's units (RULES.md 4).
fn with_specials(mut rules: Rules) -> Rules {
    let units = [108, 36, 24, 20, 20, 15, 15, 10, 8, 5, 4, 4, 3];
    for (k, &u) in units.iter().enumerate() {
        rules.specials.set(Special::ALL[k], u, k as u8);
    }
    rules
}

fn extra() -> Rules {
    Rules {
        deck: DeckKind::ExtraDiamonds,
        dealt: 16,
        ..Rules::default()
    }
}

/// A tally of deals whose per-play differences from play 0 are `diffs[play][deal]`.
fn tally_of(diffs: &[&[i64]]) -> Tally {
    let mut t = Tally {
        units: vec![0.0; diffs.len() + 1],
        diff: vec![0.0],
        diff_sq: vec![0.0],
    };
    for d in diffs {
        t.diff.push(d.iter().sum::<i64>() as f64);
        t.diff_sq.push(d.iter().map(|x| x * x).sum::<i64>() as f64);
    }
    t
}

#[test]
fn the_gate_keeps_evs_play_unless_a_mean_beats_it_by_z_standard_errors() {
    // Four deals. Play 1 gains 1 on each: mean 1, no spread, so any z passes it. Play 2
    // gains 3, -1, 3, -1: mean 1, sample variance (2² × 4) / 3 = 16/3, standard error
    // sqrt(16/3 / 4) = 1.1547: it passes at z = 0.8 (0.92 < 1) but not at z = 1.
    let steady: &[i64] = &[1, 1, 1, 1];
    let swinging: &[i64] = &[3, -1, 3, -1];
    assert_eq!(gate(&tally_of(&[swinging]), 4, 1.0), 0);
    assert_eq!(gate(&tally_of(&[swinging]), 4, 0.8), 1);
    assert_eq!(gate(&tally_of(&[swinging, steady]), 4, 1.0), 2);
    // Equal means that both pass: the first of them.
    assert_eq!(gate(&tally_of(&[swinging, steady]), 4, 0.5), 1);
    // The highest mean of those that pass.
    assert_eq!(gate(&tally_of(&[steady, &[2, 2, 2, 2]]), 4, 1.0), 2);
    // Every play ties with ev's on every deal, or loses on average: ev's play.
    assert_eq!(gate(&tally_of(&[&[0; 4], &[0; 4]]), 4, 0.0), 0);
    assert_eq!(gate(&tally_of(&[&[-1, -1, -1, 2]]), 4, 0.0), 0);
    // One deal has no spread to measure: ev's play.
    assert_eq!(gate(&tally_of(&[&[5]]), 1, 0.0), 0);
}

/// Whether `cards` are among `dealt` (as many times as dealt at the most).
fn held(cards: &[Card], dealt: &[Card]) -> bool {
    let mut left = dealt.to_vec();
    cards
        .iter()
        .all(|c| match left.iter().position(|x| x == c) {
            Some(p) => {
                left.swap_remove(p);
                true
            }
            None => false,
        })
}

fn check_plays(dealt: &[Card], rules: &Rules, kept: &[Card], choices: &[Choice]) {
    assert_eq!(kept.len(), 13);
    assert!(held(kept, dealt), "kept {kept:?} of {dealt:?}");
    for (i, c) in choices.iter().enumerate() {
        match (&c.arrangement, &c.special) {
            (Some(a), None) => {
                assert!(!is_foul(a, rules), "{a:?} fouls");
                assert!(held(&a.cards(), dealt), "{a:?} of {dealt:?}");
                if i == 0 {
                    let (mut x, mut y) = (a.cards().to_vec(), kept.to_vec());
                    x.sort_unstable();
                    y.sort_unstable();
                    assert_eq!(x, y, "the play kept is the play chosen");
                }
            }
            (None, Some(sp)) => {
                let hand: [Card; 13] = kept.try_into().unwrap();
                let found = find_special(&hand, rules).expect("a special held");
                assert_eq!(found.kind, sp.kind);
            }
            _ => panic!("a choice is an arrangement or a declaration"),
        }
    }
}

#[test]
fn mc_plays_held_cards_never_fouls_and_means_whole_units_per_deal() {
    let mut rng = rng_for(54);
    for (rules, players) in [
        (with_specials(Rules::default()), 4),
        (with_specials(Rules::default()), 2),
        (extra(), 3),
    ] {
        let tables = LaneTables::from_counts(&build_tables(&rules, players, 40, 1, 1), &rules);
        for i in 0..4 {
            let mut deck = rules.deck.cards();
            shuffle(&mut deck, &mut rng);
            let dealt = &deck[..rules.dealt as usize];
            let samples = 24;
            let (kept, choices) = solve_mc(dealt, &rules, &tables, ctx(players), samples, i, 1);
            check_plays(dealt, &rules, &kept, &choices);
            assert!(choices.len() > MC_EV_PLAYS / 2, "{}", choices.len());
            // The plays after the first are ranked by mean.
            assert!(choices[1..]
                .windows(2)
                .all(|w| w[0].expected >= w[1].expected));
            // Each mean is whole units summed over the deals, over their number.
            for c in &choices {
                let total = c.expected * samples as f64;
                assert!((total - total.round()).abs() < 1e-9, "{}", c.expected);
            }
        }
    }
}

#[test]
fn mc_is_a_function_of_its_seed() {
    let rules = Rules::default();
    let tables = LaneTables::from_counts(&build_tables(&rules, 4, 40, 1, 1), &rules);
    let dealt = parse_cards("2c 5d 7h 9s Jc Kd Ah 3s 6c 8d Th Qs 4c").unwrap();
    let run = |seed| solve_mc(&dealt, &rules, &tables, ctx(4), 200, seed, 1);
    let text = |(kept, choices): (Vec<Card>, Vec<Choice>)| {
        let plays: Vec<String> = choices
            .iter()
            .map(|c| format!("{:?} {:?} {}", c.arrangement, c.special, c.expected))
            .collect();
        format!("{kept:?} {plays:?}")
    };
    assert_eq!(text(run(7)), text(run(7)));
    // Another seed deals other hands: some mean differs.
    assert_ne!(text(run(7)), text(run(8)));
}

#[test]
fn with_one_deal_mc_plays_what_ev_plays() {
    // No spread to measure on one deal: the gate keeps ev's play, 13 dealt or 16.
    let mut rng = rng_for(9);
    for rules in [Rules::default(), extra()] {
        let tables = LaneTables::from_counts(&build_tables(&rules, 3, 40, 1, 1), &rules);
        for seed in 0..4 {
            let mut deck = rules.deck.cards();
            shuffle(&mut deck, &mut rng);
            let dealt = &deck[..rules.dealt as usize];
            let (kept, choices) = solve_mc(dealt, &rules, &tables, ctx(3), 1, seed, 1);
            let (ev_kept, ev) = if dealt.len() == 13 {
                let hand: [Card; 13] = dealt.try_into().unwrap();
                (
                    dealt.to_vec(),
                    solve_ev(&hand, &rules, &tables, ctx(3), 1).remove(0),
                )
            } else {
                solve_ev_keep(dealt, &rules, &tables, ctx(3))
            };
            assert_eq!(kept, ev_kept);
            assert_eq!(choices[0].arrangement, ev.arrangement);
            assert_eq!(choices[0].special, ev.special);
        }
    }
}

#[test]
fn mc_declares_a_dragon_and_weighs_a_held_special() {
    // A dragon (RULES.md 4) collects 36 from each opponent under these units; no split
    // of it can do as well on any deal (at most 5 + 10 + 3 lane units, doubled by a scoop).
    let rules = with_specials(Rules::default());
    let tables = LaneTables::from_counts(&build_tables(&rules, 4, 40, 1, 1), &rules);
    let dragon = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac").unwrap();
    let (_, choices) = solve_mc(&dragon, &rules, &tables, ctx(4), 50, 3, 1);
    let first = choices[0].special.as_ref().expect("declared");
    assert_eq!(first.kind, Special::Dragon);
    assert_eq!(choices[0].expected, 36.0 * 3.0);
    // Six pairs and a card (六对半, 3 units a seat here): weighed among the plays whatever
    // ev makes of it, and listed once.
    let pairs = parse_cards("2c 2d 4h 4s 6c 6d 8h 8s Tc Td Qh Qs Ac").unwrap();
    let (_, choices) = solve_mc(&pairs, &rules, &tables, ctx(4), 50, 3, 1);
    let declared = choices.iter().filter(|c| c.special.is_some()).count();
    assert_eq!(declared, 1);
}
