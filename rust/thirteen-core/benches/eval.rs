//! Criterion benchmarks of the core: 5-card evaluation against `rs_poker` and the subsets of a
//! 13-card hand (thread CPU time), the foul check, a 4-player settlement, splits and solving.

use std::hint::black_box;
use std::time::Duration;

use cpu_time::ThreadTime;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rs_poker::core::Rankable;
use thirteen_core::build_tables;
use thirteen_core::solve_ev;
use thirteen_core::solve_greedy;
use thirteen_core::solve_mc;
use thirteen_core::HandSplits;
use thirteen_core::LaneTables;
use thirteen_core::{
    evaluate3, evaluate5, is_foul, Arrangement, Card, DeckKind, HandValue, Rules, Wheel,
};
use thirteen_core::{evaluate3_reference, evaluate5_reference, evaluate_batch};
use thirteen_core::{evaluate_subsets13, FIVES_OF_13, THREES_OF_13};
use thirteen_core::{settle, Submission, TableArgs};
use thirteen_core::{Context, Role};

fn random_hands(n: usize) -> Vec<[Card; 5]> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut deck = DeckKind::Standard.cards();
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            [deck[0], deck[1], deck[2], deck[3], deck[4]]
        })
        .collect()
}

/// `n` random 13-card hands of the standard deck.
fn random_hands13(n: usize, seed: u64) -> Vec<[Card; 13]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deck = DeckKind::Standard.cards();
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            deck[..13].try_into().unwrap()
        })
        .collect()
}

fn random_arrangements(n: usize) -> Vec<Arrangement> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut deck = DeckKind::Standard.cards();
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            Arrangement::new(&deck[..3], &deck[3..8], &deck[8..13], DeckKind::Standard).unwrap()
        })
        .collect()
}

/// Thread CPU time as criterion's measurement: the machine is shared, and wall time would
/// count the time other processes hold the core.
struct CpuTime {
    /// Only lends its duration formatter.
    wall: WallTime,
}

impl Measurement for CpuTime {
    type Intermediate = ThreadTime;
    type Value = Duration;
    fn start(&self) -> ThreadTime {
        ThreadTime::now()
    }
    fn end(&self, start: ThreadTime) -> Duration {
        start.elapsed()
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self.wall.formatter()
    }
}

/// The same hands as `rs_poker` cards.
fn rs_poker_hands(hands: &[[Card; 5]]) -> Vec<[rs_poker::core::Card; 5]> {
    let convert = |c: Card| {
        rs_poker::core::Card::new(
            rs_poker::core::Value::from_char(c.rank().char()).expect("rank"),
            rs_poker::core::Suit::from_char(c.suit().char()).expect("suit"),
        )
    };
    hands.iter().map(|h| h.map(convert)).collect()
}

/// Our 5-card evaluation (table and reference) and `rs_poker`'s `rank()` side by side on the
/// same 65,536 random hands, in CPU time; time per element is time per hand.
fn bench_eval(c: &mut Criterion<CpuTime>) {
    let hands = random_hands(1 << 16);
    let rs_hands = rs_poker_hands(&hands);
    let mut group = c.benchmark_group("evaluate5");
    group.throughput(Throughput::Elements(hands.len() as u64));
    for wheel in [Wheel::Low, Wheel::Second] {
        group.bench_with_input(
            BenchmarkId::new("table", format!("{wheel:?}")),
            &hands,
            |b, hands| {
                b.iter(|| {
                    let mut acc = 0u32;
                    for h in hands {
                        acc = acc.wrapping_add(evaluate5(black_box(h), wheel).raw());
                    }
                    acc
                })
            },
        );
    }
    let codes: Vec<u8> = hands.iter().flatten().map(|c| c.code()).collect();
    group.bench_with_input(
        BenchmarkId::new("checked_batch", "Low"),
        &codes,
        |b, codes| b.iter(|| evaluate_batch(black_box(codes), 5, Wheel::Low, DeckKind::Standard)),
    );
    group.bench_with_input(BenchmarkId::new("reference", "Low"), &hands, |b, hands| {
        b.iter(|| {
            let mut acc = 0u32;
            for h in hands {
                acc = acc.wrapping_add(evaluate5_reference(black_box(h), Wheel::Low).raw());
            }
            acc
        })
    });
    group.bench_with_input(
        BenchmarkId::new("rs_poker", "rank"),
        &rs_hands,
        |b, hands| {
            b.iter(|| {
                let mut acc = 0u32;
                for h in hands {
                    let r = black_box(&h[..]).rank();
                    acc = acc.wrapping_add(u32::from(r.value_bits()) | (r.category() as u32) << 16);
                }
                acc
            })
        },
    );
    group.finish();
}

/// All 1,573 subsets (1,287 fives, 286 threes) of a 13-card hand: incrementally with the
/// tables, and one subset at a time with the table and the reference evaluators; time per
/// element is time per hand.
fn bench_subsets(c: &mut Criterion<CpuTime>) {
    let hands = random_hands13(64, 17);
    let pick = |h: &[Card; 13], mask: u32| -> Vec<Card> {
        (0..13)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| h[i])
            .collect()
    };
    let positions =
        |n: u32| -> Vec<u32> { (0..1 << 13).filter(|m: &u32| m.count_ones() == n).collect() };
    let (fives, threes) = (positions(5), positions(3));
    // Every subset of every hand, gathered beforehand.
    let gathered5: Vec<[Card; 5]> = hands
        .iter()
        .flat_map(|h| fives.iter().map(|&m| pick(h, m).try_into().unwrap()))
        .collect();
    let gathered3: Vec<[Card; 3]> = hands
        .iter()
        .flat_map(|h| threes.iter().map(|&m| pick(h, m).try_into().unwrap()))
        .collect();
    let mut group = c.benchmark_group("subsets13");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("all_1573_incremental", |b| {
        let mut five = [HandValue::default(); FIVES_OF_13];
        let mut three = [HandValue::default(); THREES_OF_13];
        b.iter(|| {
            let mut acc = 0u32;
            for h in &hands {
                evaluate_subsets13(black_box(h), Wheel::Low, &mut five, &mut three);
                acc = acc.wrapping_add(five[1000].raw() ^ three[200].raw());
            }
            acc
        })
    });
    for (name, reference) in [("one_by_one_table", false), ("one_by_one_reference", true)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for h in &gathered5 {
                    let v = if reference {
                        evaluate5_reference(black_box(h), Wheel::Low)
                    } else {
                        evaluate5(black_box(h), Wheel::Low)
                    };
                    acc = acc.wrapping_add(v.raw());
                }
                for h in &gathered3 {
                    let v = if reference {
                        evaluate3_reference(black_box(h))
                    } else {
                        evaluate3(black_box(h))
                    };
                    acc = acc.wrapping_add(v.raw());
                }
                acc
            })
        });
    }
    group.finish();
}

fn bench_foul(c: &mut Criterion) {
    let arrangements = random_arrangements(1 << 12);
    let rules = Rules::default();
    let mut group = c.benchmark_group("is_foul");
    group.throughput(Throughput::Elements(arrangements.len() as u64));
    group.bench_function("random_arrangements", |b| {
        b.iter(|| {
            arrangements
                .iter()
                .filter(|a| is_foul(black_box(a), &rules))
                .count()
        })
    });
    group.finish();
}

fn bench_settle(c: &mut Criterion) {
    let rules = Rules::from_json(
        r#"{"lane_values":{"front":{"base":1,"three_of_a_kind":3},
        "middle":{"base":1,"full_house":2,"four_of_a_kind":8,"straight_flush":10},
        "back":{"base":1,"four_of_a_kind":4,"straight_flush":5}},
        "scoop":{"kind":"double"},"home_run":{"kind":"double","min_players":3},"foul":"lose_all"}"#,
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut deck = DeckKind::Standard.cards();
    let tables: Vec<Vec<Submission>> = (0..1024)
        .map(|_| {
            deck.shuffle(&mut rng);
            deck.chunks(13)
                .map(|h| {
                    Submission::Arranged(
                        Arrangement::new(&h[..3], &h[3..8], &h[8..], DeckKind::Standard).unwrap(),
                    )
                })
                .collect()
        })
        .collect();
    let args = TableArgs::default();
    let mut group = c.benchmark_group("settle");
    group.throughput(Throughput::Elements(tables.len() as u64));
    group.bench_function("four_players", |b| {
        b.iter(|| {
            tables
                .iter()
                .map(|t| settle(black_box(t), &rules, &args).unwrap().totals[0])
                .sum::<i64>()
        })
    });
    group.finish();
}

fn bench_splits(c: &mut Criterion) {
    let hands = random_hands13(64, 5);
    let mut group = c.benchmark_group("splits");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("evaluate_and_walk_72072", |b| {
        b.iter(|| {
            let mut legal = 0usize;
            for h in &hands {
                legal += HandSplits::new(black_box(h), Wheel::Low).count_legal();
            }
            legal
        })
    });
    group.finish();
}

fn bench_solve(c: &mut Criterion) {
    let rules = Rules::default();
    let tables = LaneTables::from_counts(&build_tables(&rules, 4, 2000, 2, 1), &rules);
    let ctx = Context {
        players: 4,
        role: Role::Player,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut deck = DeckKind::Standard.cards();
    let hands: Vec<[Card; 13]> = (0..32)
        .map(|_| {
            deck.shuffle(&mut rng);
            deck[..13].try_into().unwrap()
        })
        .collect();
    let mut group = c.benchmark_group("solve");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("ev", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| solve_ev(black_box(h), &rules, &tables, ctx, 1)[0].expected)
                .sum::<f64>()
        })
    });
    group.bench_function("greedy", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| solve_greedy(black_box(h), &rules).front[0].code() as u32)
                .sum::<u32>()
        })
    });
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    group.bench_function("mc_1000_samples", |b| {
        b.iter(|| solve_mc(black_box(&hands[0]), &rules, &tables, ctx, 1000, 7, 1).1[0].expected)
    });
    group.finish();
}

criterion_group!(benches, bench_foul, bench_settle, bench_splits, bench_solve);
criterion_group! {
    name = evaluation;
    config = Criterion::default().with_measurement(CpuTime { wall: WallTime });
    targets = bench_eval, bench_subsets
}
criterion_main!(evaluation, benches);
