//! Criterion benchmarks of the core: 5-card evaluation throughput, the foul check and a
//! 4-player settlement (one thread).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thirteen_core::score::{settle, Submission, TableArgs};
use thirteen_core::solve::{
    build_tables, solve_ev, solve_greedy, solve_mc, Context, LaneTables, Role,
};
use thirteen_core::split::HandSplits;
use thirteen_core::{evaluate5, is_foul, Arrangement, Card, DeckKind, Rules, Wheel};

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

fn bench_eval(c: &mut Criterion) {
    let hands = random_hands(1 << 16);
    let mut group = c.benchmark_group("evaluate5");
    group.throughput(Throughput::Elements(hands.len() as u64));
    for wheel in [Wheel::Low, Wheel::Second] {
        group.bench_with_input(
            BenchmarkId::new("random_hands", format!("{wheel:?}")),
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
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut deck = DeckKind::Standard.cards();
    let hands: Vec<[Card; 13]> = (0..64)
        .map(|_| {
            deck.shuffle(&mut rng);
            deck[..13].try_into().unwrap()
        })
        .collect();
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
        b.iter(|| solve_mc(black_box(&hands[0]), &rules, &tables, ctx, 1000, 7, 8)[0].expected)
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_eval,
    bench_foul,
    bench_settle,
    bench_splits,
    bench_solve
);
criterion_main!(benches);
