//! Where the `ev` search spends its time on random hands (a development aid):
//! `cargo run --release -p thirteen-core --example ev_profile`.
use std::time::Instant;

use thirteen_core::{
    best_splits, build_tables, rng_for, shuffle, solve_mc, Ask, Card, Context, DeckKind, Distinct,
    Hand, HandSplits, HomeRun, LaneCounts, LaneTables, Majority, Pricing, Removal, Role, Rules,
    Scoop, SearchStats,
};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(default)
}

/// The hand of a 13-card hand's evaluated subsets, as the search reads it.
fn hand_of(s: &HandSplits) -> Hand<'_> {
    Hand {
        cards: s.cards(),
        v5: s.five_values(),
        v3: s.three_values(),
        three_keys: Some(s.three_keys()),
    }
}

/// The `p`-quantile of times sorted in rising order.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    sorted[((p * sorted.len() as f64) as usize).min(sorted.len() - 1)]
}

fn main() {
    let mut royal = [[1i64; 10]; 3];
    royal[0][3] = 3;
    royal[1][6] = 2;
    royal[1][7] = 8;
    royal[1][8] = 10;
    royal[2][7] = 4;
    royal[2][8] = 5;
    let kaixin = Rules {
        lane_values: royal,
        scoop: Scoop::double(),
        home_run: HomeRun::double(3),
        ..Rules::default()
    };
    let western = Rules {
        majority: Majority { units: 1 },
        ..Rules::default()
    };
    // Approximations of two presets' scoring (the default wheel, no suit order): kaixin's
    // royalties without its home run (as bianfeng), and lane units 1, 2, 3 (as luosong).
    let bianfeng = Rules {
        home_run: HomeRun::NONE,
        ..kaixin.clone()
    };
    let mut plain = [[1i64; 10]; 3];
    plain[1] = [2; 10];
    plain[2] = [3; 10];
    let luosong = Rules {
        lane_values: plain,
        ..bianfeng.clone()
    };
    // ONLY=kaixin, western, bianfeng or luosong: that rule set alone (for a profiler);
    // the last two only when named.
    let only = std::env::var("ONLY").ok();
    for (name, rules) in [
        ("kaixin", kaixin),
        ("western", western),
        ("bianfeng", bianfeng),
        ("luosong", luosong),
    ] {
        let named_only = matches!(name, "bianfeng" | "luosong");
        if only.as_deref().map_or(named_only, |o| o != name) {
            continue;
        }
        // Trained once and kept in a file, so that runs compare on the same tables.
        // Lines `class lane value hands`, class 16 for all hands.
        let path = std::env::temp_dir().join(format!("ev_profile_{name}_classes.txt"));
        let counts: LaneCounts = match std::fs::read_to_string(&path) {
            Ok(text) => {
                let mut c = LaneCounts {
                    classes: vec![Default::default(); 16],
                    ..LaneCounts::default()
                };
                for line in text.lines() {
                    let f: Vec<u64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
                    let (k, lane, pair) = (f[0] as usize, f[1] as usize, (f[2] as u32, f[3]));
                    match c.classes.get_mut(k) {
                        Some(class) => class[lane].push(pair),
                        None => c.lanes[lane].push(pair),
                    }
                }
                c
            }
            Err(_) => {
                let c = build_tables(&rules, 4, env("DEALS", 3000), 3, 1);
                let of = |k: usize, lanes: &[Vec<(u32, u64)>; 3]| -> String {
                    (0..3)
                        .flat_map(|l| {
                            lanes[l]
                                .iter()
                                .map(move |(v, n)| format!("{k} {l} {v} {n}\n"))
                        })
                        .collect()
                };
                let mut text = of(16, &c.lanes);
                for (k, lanes) in c.classes.iter().enumerate() {
                    text += &of(k, lanes);
                }
                std::fs::write(&path, text).unwrap();
                c
            }
        };
        // LANES_ONLY=1: the model without classes, for comparison.
        let counts = if env("LANES_ONLY", 0) == 1 {
            LaneCounts::of_lanes(counts.lanes)
        } else {
            counts
        };
        // NO_REMOVAL=1: without card removal, for comparison.
        let tables =
            LaneTables::from_counts(&counts, &rules).with_card_removal(env("NO_REMOVAL", 0) == 0);
        let ctx = Context {
            players: 4,
            role: Role::Player,
        };
        // MC=players: `mc` with 1,000 samples on 30 hands at that table size, and nothing else.
        if let Ok(p) = std::env::var("MC") {
            let ctx = Context {
                players: p.parse().unwrap(),
                role: Role::Player,
            };
            let mut rng = rng_for(5);
            let start = Instant::now();
            for i in 0..30 {
                let mut d = DeckKind::Standard.cards();
                shuffle(&mut d, &mut rng);
                let hand: [Card; 13] = d[..13].try_into().unwrap();
                solve_mc(&hand, &rules, &tables, ctx, 1000, i, 1);
            }
            println!(
                "{name}: mc {} players, {:.1} ms a hand",
                ctx.players,
                start.elapsed().as_secs_f64() * 1e3 / 30.0
            );
            continue;
        }
        let mut rng = rng_for(7);
        let hands: Vec<[Card; 13]> = (0..env("HANDS", 2000))
            .map(|_| {
                let mut d = DeckKind::Standard.cards();
                shuffle(&mut d, &mut rng);
                d[..13].try_into().unwrap()
            })
            .collect();
        // The best split of one hand, counting into `st`.
        // The same, keeping only splits worth more than `above`.
        let search_above = |s: &HandSplits, above: f64, st: &mut SearchStats| {
            let removal = tables.removal(s.cards(), &rules);
            let pricing = Pricing {
                rules: &rules,
                tables: &tables,
                removal: removal.as_ref(),
                ctx,
            };
            let ask = Ask {
                above,
                ..Ask::best(1, Distinct::No)
            };
            best_splits(&hand_of(s), &pricing, ask, st)
        };
        let search = |s: &HandSplits, st: &mut SearchStats| search_above(s, f64::NEG_INFINITY, st);
        // Card removal's weights of each hand into one buffer, as the search does (no
        // allocation once it has grown): the seconds taken and how many hands have weights.
        let weights_pass = |hands: &[[Card; 13]], buffer: &mut Removal| {
            let start = Instant::now();
            let kept = hands
                .iter()
                .filter(|h| tables.removal_into(&h[..], &rules, buffer))
                .count();
            (start.elapsed().as_secs_f64(), kept)
        };
        // SLOW=k: only the hands whose search visits at least k backs (the slow tail); FAST=k:
        // only those that visit at most k (the typical hand, where fixed costs weigh most).
        // HAND="9s Kh ...": that hand alone (or hands separated by `;`).
        let hands: Vec<[Card; 13]> = match std::env::var("HAND") {
            Ok(h) => h
                .split(';')
                .map(|one| {
                    thirteen_core::parse_cards(one)
                        .expect("HAND: 13 cards")
                        .try_into()
                        .expect("HAND: 13 cards")
                })
                .collect(),
            Err(_) => hands,
        };
        let hands: Vec<[Card; 13]> = match env("SLOW", 0) {
            0 if env("FAST", 0) > 0 => hands
                .into_iter()
                .filter(|h| {
                    let mut st = SearchStats::default();
                    search(&HandSplits::new(h, rules.wheel), &mut st);
                    st.visited <= env("FAST", 0)
                })
                .collect(),
            0 => hands,
            k => hands
                .into_iter()
                .filter(|h| {
                    let mut st = SearchStats::default();
                    search(&HandSplits::new(h, rules.wheel), &mut st);
                    st.visited >= k
                })
                .collect(),
        };
        // FIRST=1: each hand evaluated and searched three times in a row, the first call's
        // cost against the least of the next two (what a server pays for a new hand against
        // what a repeated benchmark sees). FIRST=eval: the hand's subsets evaluated once
        // untimed before; FIRST=perm: the first timed call follows one on the same cards in
        // reverse order (the same values and table entries, other positions).
        if let Ok(warm) = std::env::var("FIRST") {
            let mut pairs: Vec<(f64, f64, f64)> = Vec::new();
            for h in &hands {
                if warm == "eval" {
                    std::hint::black_box(HandSplits::new(h, rules.wheel));
                }
                let mut t = [0.0; 3];
                let mut r = *h;
                r.reverse();
                for (k, slot) in t.iter_mut().enumerate() {
                    let hand = if warm == "perm" && k == 0 { &r } else { h };
                    let start = Instant::now();
                    search(
                        &HandSplits::new(hand, rules.wheel),
                        &mut SearchStats::default(),
                    );
                    *slot = start.elapsed().as_secs_f64() * 1e6;
                }
                if warm == "perm" {
                    t[0] = t[1];
                    t[1] = t[2];
                }
                pairs.push((t[0], t[1], t[2]));
            }
            let mut a: Vec<f64> = pairs.iter().map(|p| p.0).collect();
            let mut b: Vec<f64> = pairs.iter().map(|p| p.1.min(p.2)).collect();
            a.sort_by(|x, y| x.partial_cmp(y).unwrap());
            b.sort_by(|x, y| x.partial_cmp(y).unwrap());
            println!(
                "first p50 {:.1} µs, least of next two p50 {:.1}",
                a[a.len() / 2],
                b[b.len() / 2]
            );
            continue;
        }
        // ANALYSE=1: where the best split's back sits in the walk: its place, whether it is in
        // the first back's group (category and primary ranks) and its place from that group's
        // end (its weakest back).
        if env("ANALYSE", 0) == 1 {
            let masks: Vec<u32> = (0u32..1 << 13).filter(|m| m.count_ones() == 5).collect();
            let mut hist_pos = [0usize; 8];
            let (mut same_group_first, mut last_of_group, mut n_tot) = (0, 0, 0);
            let mut from_end_hist = [0usize; 6];
            let mut group_sizes = 0usize;
            for h in &hands {
                let s = HandSplits::new(h, rules.wheel);
                let v5 = s.five_values();
                let mut order: Vec<usize> = (0..masks.len()).collect();
                order.sort_by_key(|&i| {
                    std::cmp::Reverse(((v5[i].raw() as u64) << 32) | masks[i] as u64)
                });
                let bi = search(&s, &mut SearchStats::default())[0].subsets.2;
                let pos = order.iter().position(|&i| i == bi).unwrap();
                let b = [0usize, 1, 2, 4, 8, 16, 64, 10000]
                    .iter()
                    .position(|&t| pos < t)
                    .unwrap_or(7);
                hist_pos[b] += 1;
                let grp = |i: usize| v5[i].raw() >> 14;
                let g = grp(bi);
                let members: Vec<usize> = order.iter().copied().filter(|&i| grp(i) == g).collect();
                let at = members.iter().position(|&i| i == bi).unwrap();
                let from_end = members.len() - 1 - at;
                from_end_hist[from_end.min(5)] += 1;
                group_sizes += members.len();
                if grp(order[0]) == g {
                    same_group_first += 1;
                }
                if from_end == 0 {
                    last_of_group += 1;
                }
                n_tot += 1;
            }
            println!(
                "{name}: the best split's back at walk place <1, <2, <4, <8, <16, <64, more: \
                 {:?}; in the first back's group {same_group_first}, the last of its group \
                 {last_of_group}; places from its group's end 0 to 5 and more: \
                 {from_end_hist:?}; mean group size {:.1} ({n_tot} hands)",
                &hist_pos[1..],
                group_sizes as f64 / n_tot as f64
            );
            continue;
        }
        // WEIGHTS=n: card removal's weights alone, n passes over the hands (for a profiler).
        if let Ok(n) = std::env::var("WEIGHTS") {
            let mut buffer = Removal::default();
            let passes: usize = n.parse().expect("WEIGHTS: a count");
            let spent: f64 = (0..passes)
                .map(|_| weights_pass(&hands, &mut buffer).0)
                .sum();
            println!(
                "{name}: weights {:.2} µs a hand",
                spent * 1e6 / (hands.len() * passes) as f64
            );
            continue;
        }
        // SEEDED=1: each hand searched with its best split's own score as the floor (less a
        // hair), against the plain search, hand by hand in turn, least of three each: what
        // a perfect first guess would save.
        if env("SEEDED", 0) == 1 {
            let mut plain_t = Vec::new();
            let mut seeded_t = Vec::new();
            let (mut v0, mut v1, mut s0, mut s1) = (0, 0, 0, 0);
            for h in &hands {
                let s = HandSplits::new(h, rules.wheel);
                let run = |above: f64, st: &mut SearchStats| search_above(&s, above, st);
                let mut st = SearchStats::default();
                let best = run(f64::NEG_INFINITY, &mut st)[0].expected;
                v0 += st.visited;
                s0 += st.scored;
                let floor = best - 1e-9;
                let mut st = SearchStats::default();
                run(floor, &mut st);
                v1 += st.visited;
                s1 += st.scored;
                for (above, out) in [(f64::NEG_INFINITY, &mut plain_t), (floor, &mut seeded_t)] {
                    let mut least = f64::MAX;
                    for _ in 0..3 {
                        let t = Instant::now();
                        run(above, &mut SearchStats::default());
                        least = least.min(t.elapsed().as_secs_f64() * 1e6);
                    }
                    out.push(least);
                }
            }
            for x in [&mut plain_t, &mut seeded_t] {
                x.sort_by(|a, b| a.partial_cmp(b).unwrap());
            }
            let q = quantile;
            let n = hands.len();
            println!(
                "{name}: plain p50 {:.1} p90 {:.1} p99 {:.1} µs, visited {:.1} scored {:.1}; \
                 seeded p50 {:.1} p90 {:.1} p99 {:.1}, visited {:.1} scored {:.1}",
                q(&plain_t, 0.5),
                q(&plain_t, 0.9),
                q(&plain_t, 0.99),
                v0 as f64 / n as f64,
                s0 as f64 / n as f64,
                q(&seeded_t, 0.5),
                q(&seeded_t, 0.9),
                q(&seeded_t, 0.99),
                v1 as f64 / n as f64,
                s1 as f64 / n as f64
            );
            continue;
        }
        // WARM=n: each hand evaluated and searched n times in a row, and nothing else (the
        // regime of `speed.py`, which takes the least of three calls, for a profiler).
        if let Ok(n) = std::env::var("WARM") {
            let n: usize = n.parse().expect("WARM: a count");
            let start = Instant::now();
            for h in &hands {
                for _ in 0..n {
                    search(
                        &HandSplits::new(h, rules.wheel),
                        &mut SearchStats::default(),
                    );
                }
            }
            println!(
                "{name}: warm, mean {:.2} µs a hand (evaluation and search)",
                start.elapsed().as_secs_f64() * 1e6 / (hands.len() * n) as f64
            );
            continue;
        }
        let t0 = Instant::now();
        let splits: Vec<HandSplits> = hands
            .iter()
            .map(|h| HandSplits::new(h, rules.wheel))
            .collect();
        let t_eval = t0.elapsed().as_secs_f64() / hands.len() as f64;
        let mut stats = SearchStats::default();
        let repeat = env("REPEAT", 1);
        let t1 = Instant::now();
        for s in splits.iter().cycle().take(splits.len() * repeat) {
            search(s, &mut stats);
        }
        let t_search = t1.elapsed().as_secs_f64() / (hands.len() * repeat) as f64;
        // As `solve` does it: each hand's subsets evaluated, then searched at once.
        let t4 = Instant::now();
        for h in hands.iter().cycle().take(hands.len() * repeat) {
            search(
                &HandSplits::new(h, rules.wheel),
                &mut SearchStats::default(),
            );
        }
        let t_solve = t4.elapsed().as_secs_f64() / (hands.len() * repeat) as f64;
        // The same, each hand timed once (no repeat to warm it): quantiles.
        let mut once: Vec<f64> = hands
            .iter()
            .map(|h| {
                let t = Instant::now();
                search(
                    &HandSplits::new(h, rules.wheel),
                    &mut SearchStats::default(),
                );
                t.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        once.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let at = |q: f64| quantile(&once, q);
        println!(
            "  both, each hand once: p50 {:.1} µs, p90 {:.1}, p99 {:.1}",
            at(0.5),
            at(0.9),
            at(0.99)
        );
        // Per hand: the time of its search (least of five) and what was searched, slowest
        // last.
        let mut per: Vec<(f64, SearchStats)> = splits
            .iter()
            .map(|s| {
                // The least of five searches (the machine is shared).
                let mut st = SearchStats::default();
                let mut least = f64::MAX;
                for _ in 0..5 {
                    st = SearchStats::default();
                    let t = Instant::now();
                    search(s, &mut st);
                    least = least.min(t.elapsed().as_secs_f64());
                }
                (least, st)
            })
            .collect();
        if let Ok(k) = std::env::var("SHOW") {
            // The slowest hands, with what their searches did.
            let mut by: Vec<usize> = (0..per.len()).collect();
            by.sort_by(|&a, &b| per[b].0.total_cmp(&per[a].0));
            for &i in by.iter().take(k.parse().unwrap_or(3)) {
                let h: Vec<String> = hands[i].iter().map(|c| c.to_string()).collect();
                let (t, st) = per[i];
                println!(
                    "  {:.1} µs, visited {}, backs {}, scored {}: {}",
                    t * 1e6,
                    st.visited,
                    st.backs,
                    st.scored,
                    h.join(" ")
                );
            }
        }
        per.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
        for q in [0.5, 0.9, 0.99] {
            let (t, st) = per[(q * per.len() as f64) as usize];
            println!(
                "  p{:.0}: {:.1} µs, visited {}, backs {}, scored {}",
                q * 100.0,
                t * 1e6,
                st.visited,
                st.backs,
                st.scored
            );
        }
        // Card removal's cost: each hand evaluated and searched with it and without, in turn.
        let plain = tables.clone().with_card_removal(false);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for (i, h) in hands.iter().enumerate() {
            for k in 0..2 {
                let on = (i + k) % 2 == 0;
                let t = if on { &tables } else { &plain };
                let start = Instant::now();
                let s = HandSplits::new(h, rules.wheel);
                let removal = t.removal(s.cards(), &rules);
                let pricing = Pricing {
                    rules: &rules,
                    tables: t,
                    removal: removal.as_ref(),
                    ctx,
                };
                let ask = Ask::best(1, Distinct::No);
                best_splits(&hand_of(&s), &pricing, ask, &mut SearchStats::default());
                let us = start.elapsed().as_secs_f64() * 1e6;
                if on {
                    with.push(us)
                } else {
                    without.push(us)
                }
            }
        }
        let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
        // The least of five passes over the hands (the machine is shared).
        let mut buffer = Removal::default();
        let (mut least, mut kept) = (f64::MAX, 0);
        for _ in 0..5 {
            let (spent, k) = weights_pass(&hands, &mut buffer);
            (least, kept) = (least.min(spent), k);
        }
        println!(
            "  card removal's weights alone: {:.2} µs a hand ({kept}, least of five passes)",
            least * 1e6 / hands.len() as f64
        );
        with.sort_by(|a, b| a.partial_cmp(b).unwrap());
        without.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let q = quantile;
        println!(
            "  card removal on / off, in turn: mean {:.1} / {:.1} µs, p50 {:.1} / {:.1}, p99 {:.1} / {:.1}",
            mean(&with),
            mean(&without),
            q(&with, 0.5),
            q(&without, 0.5),
            q(&with, 0.99),
            q(&without, 0.99)
        );
        let n = hands.len() as f64;
        let t2 = Instant::now();
        let mut sink = 0u64;
        for s in &splits {
            let mut order: Vec<u64> = s
                .five_values()
                .iter()
                .enumerate()
                .map(|(i, v)| ((v.raw() as u64) << 16) | i as u64)
                .collect();
            order.sort_unstable_by(|a, b| b.cmp(a));
            sink += order[0];
        }
        let t_sort = t2.elapsed().as_secs_f64() / n;
        let t3 = Instant::now();
        let mut fs = 0.0;
        for s in &splits {
            for &v in s.three_values() {
                fs += tables.lookup(thirteen_core::Lane::Front, v).0;
            }
            for &v in s.five_values() {
                fs += tables.lookup(thirteen_core::Lane::Middle, v).0;
            }
        }
        let t_look = t3.elapsed().as_secs_f64() / n;
        println!(
            "sort {:.1} µs, 1573 lookups {:.1} µs ({sink} {fs})",
            t_sort * 1e6,
            t_look * 1e6
        );
        println!(
            "{name}: eval {:.1} µs, search {:.1} µs, both per hand {:.1} µs; visited {:.0}, backs {:.1}, scored {:.0}",
            t_eval * 1e6,
            t_search * 1e6,
            t_solve * 1e6,
            stats.visited as f64 / n / repeat as f64,
            stats.backs as f64 / n / repeat as f64,
            stats.scored as f64 / n / repeat as f64
        );
    }
}
