//! The search against a full scan: every rule variant, seat and table size, cards held
//! twice, 16 cards, cards placed, and the parts of the walk one by one.

use super::rest::{rest_is_plain, Rest};
use super::side::*;
use super::twins::Twins;
use super::*;
use crate::cards::Wheel;
use crate::cards::{Card, DeckKind};
use crate::cards::{Category, HandValue, PRIMARY_SHIFT};
use crate::deal::{rng_for, shuffle};
use crate::error::Lane;
use crate::rules::Rules;
use crate::rules::{HomeRun, Majority, Mode, Scoop};
use crate::split::HandSplits;
use crate::strategy::ev::ev_all;
use crate::strategy::lanes::{LaneCounts, LaneTables};
use crate::strategy::model::Role;
use crate::strategy::model::{lane_value_rises, lane_values_monotone, Context};
use crate::strategy::removal::Removal;
use crate::strategy::train::build_tables;

/// The search of [`super::best_splits`] with its arguments one by one: the `top` best
/// splits of the hand `cards` (`v5`, `v3`, `three_keys` as in [`Hand`]) kept apart by
/// `distinct`.
#[allow(clippy::too_many_arguments)]
fn best_splits(
    cards: &[Card],
    v5: &[HandValue],
    v3: &[HandValue],
    three_keys: Option<crate::cards::ThreeKeys<'_>>,
    rules: &Rules,
    tables: &LaneTables,
    removal: Option<&Removal>,
    ctx: Context,
    top: usize,
    distinct: Distinct,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    best_splits_above(
        cards,
        v5,
        v3,
        three_keys,
        rules,
        tables,
        removal,
        ctx,
        top,
        distinct,
        f64::NEG_INFINITY,
        Need::default(),
        stats,
    )
}

/// As [`best_splits`], worth more than `above` and holding what `need` asks for.
#[allow(clippy::too_many_arguments)]
fn best_splits_above(
    cards: &[Card],
    v5: &[HandValue],
    v3: &[HandValue],
    three_keys: Option<crate::cards::ThreeKeys<'_>>,
    rules: &Rules,
    tables: &LaneTables,
    removal: Option<&Removal>,
    ctx: Context,
    top: usize,
    distinct: Distinct,
    above: f64,
    need: Need,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    let hand = Hand {
        cards,
        v5,
        v3,
        three_keys,
    };
    let pricing = Pricing {
        rules,
        tables,
        removal,
        ctx,
    };
    let ask = Ask {
        top,
        distinct,
        above,
        need,
    };
    super::best_splits(&hand, &pricing, ask, stats)
}

/// Rule variants covering every term of the model: royalties, scoop double and bonus,
/// home run double and bonus, majority bonus, banker mode with the banker winning ties.
fn variants() -> Vec<Rules> {
    let mut royal = [[1i64; 10]; 3];
    royal[0][3] = 3;
    royal[1][6] = 2;
    royal[1][7] = 8;
    royal[1][8] = 10;
    royal[2][7] = 4;
    royal[2][8] = 5;
    let mut tiered = [[1i64; 10], [2; 10], [3; 10]];
    tiered[0][3] = 7;
    tiered[1][7] = 10;
    tiered[1][8] = 12;
    tiered[2][7] = 11;
    tiered[2][8] = 13;
    vec![
        Rules::default(),
        Rules {
            lane_values: royal,
            scoop: Scoop::double(),
            home_run: HomeRun::double(3),
            ..Rules::default()
        },
        Rules {
            lane_values: tiered,
            scoop: Scoop::bonus(6),
            home_run: HomeRun::bonus(12, 4),
            ..Rules::default()
        },
        Rules {
            majority: Majority { units: 1 },
            ..Rules::default()
        },
        Rules {
            mode: Mode::Banker,
            banker_wins_ties: true,
            lane_values: [[1; 10], [2; 10], [3; 10]],
            scoop: Scoop::double(),
            ..Rules::default()
        },
        // Lane values that fall as the category rises: a front pair worth more than
        // front trips, middle quads worth less than a middle full house.
        Rules {
            lane_values: falling(royal),
            scoop: Scoop::double(),
            home_run: HomeRun::double(3),
            ..Rules::default()
        },
        // The same with the banker winning ties: its players' bounds are not priced at
        // the envelope (a drawn lane pays their own units), the banker's are.
        Rules {
            mode: Mode::Banker,
            banker_wins_ties: true,
            lane_values: falling([[1; 10], [2; 10], [3; 10]]),
            scoop: Scoop::bonus(3),
            ..Rules::default()
        },
    ]
}

fn falling(mut values: [[i64; 10]; 3]) -> [[i64; 10]; 3] {
    values[0][1] = values[0][3] + 6;
    values[1][7] = values[1][6] - 1;
    values
}

/// The best expected units of each key's splits, best first.
fn best_of_each<K: Ord>(scan: &[Candidate], key: impl Fn(&Candidate) -> K) -> Vec<f64> {
    let mut by_key = std::collections::BTreeMap::new();
    for c in scan {
        let e = by_key.entry(key(c)).or_insert(f64::MIN);
        *e = c.expected.max(*e);
    }
    let mut best: Vec<f64> = by_key.into_values().collect();
    best.sort_by(|a, b| b.partial_cmp(a).unwrap());
    best
}

/// Whether no two of `found` share a key.
fn all_differ<K: Ord>(found: &[Candidate], key: impl Fn(&Candidate) -> K) -> bool {
    let mut seen: Vec<K> = found.iter().map(key).collect();
    seen.sort();
    seen.dedup();
    seen.len() == found.len()
}

/// The search on a 13-card hand's splits with its own card removal, nothing placed,
/// for the `top` splits above `above` (`f64::NEG_INFINITY`: [`best_splits`]).
#[allow(clippy::too_many_arguments)]
fn search_hand(
    s: &HandSplits,
    rules: &Rules,
    tables: &LaneTables,
    ctx: Context,
    top: usize,
    mode: Distinct,
    above: f64,
    stats: &mut SearchStats,
) -> Vec<Candidate> {
    best_splits_above(
        s.cards(),
        s.five_values(),
        s.three_values(),
        Some(s.three_keys()),
        rules,
        tables,
        tables.removal(s.cards(), rules).as_ref(),
        ctx,
        top,
        mode,
        above,
        Need::default(),
        stats,
    )
}

fn random_hand(rng: &mut rand_chacha::ChaCha20Rng, deck: DeckKind, n: usize) -> Vec<Card> {
    let mut cards = deck.cards();
    shuffle(&mut cards, rng);
    cards.truncate(n);
    cards
}

/// `each` random 13-card hands from the standard deck, as many from the deck with extra
/// diamonds (some cards twice), then the hands `built`; each with the wheel low and
/// second.
fn test_hands(seed: u64, each: usize, built: &[&str]) -> Vec<([Card; 13], Wheel)> {
    let mut rng = rng_for(seed);
    let mut hands: Vec<[Card; 13]> = Vec::new();
    for deck in [DeckKind::Standard, DeckKind::ExtraDiamonds] {
        for _ in 0..each {
            let mut d = deck.cards();
            shuffle(&mut d, &mut rng);
            hands.push(d[..13].try_into().unwrap());
        }
    }
    for text in built {
        hands.push(crate::cards::parse_cards(text).unwrap().try_into().unwrap());
    }
    hands
        .into_iter()
        .flat_map(|h| [(h, Wheel::Low), (h, Wheel::Second)])
        .collect()
}

/// Each test hand with its subsets evaluated and what its cards leave.
fn prepared(
    hands: &[([Card; 13], Wheel)],
) -> impl Iterator<Item = (&[Card; 13], Wheel, HandSplits, Rest)> + '_ {
    (hands.iter()).map(|(h, wheel)| (h, *wheel, HandSplits::new(h, *wheel), Rest::new(h)))
}

#[test]
fn the_middles_side_groups_the_legal_pairs_of_the_strongest_middle() {
    // Middles by hand: a full house (the strongest, but in no legal pair here), two
    // straights to the nine, a straight to the eight, two pair.
    let v5: Vec<HandValue> = [
        "Ac Ad Ah 2c 2d",
        "9c 8d 7h 6s 5c",
        "9d 8c 7s 6h 5d",
        "8c 7d 6h 5s 4c",
        "Kc Kd 4h 4s 2c",
    ]
    .iter()
    .map(|t| {
        let cards: [Card; 5] = crate::cards::parse_cards(t).unwrap().try_into().unwrap();
        crate::cards::evaluate5(&cards, Wheel::Low)
    })
    .collect();
    // (front, middle): fronts 10.. are only names here.
    let pairs = [(10u16, 0u16), (11, 1), (12, 2), (13, 3), (14, 4)];
    let mut side = MiddleSide::default();
    side.fill(&pairs, &v5, &|_, mi| mi != 0);
    assert_eq!(side.len(), 4);
    // The two straights to the nine (equal values: the higher front first); after them
    // the straight to the eight.
    assert_eq!(side.strongest_group(), Some((2, Some(3))));
    assert_eq!(
        (0..2).map(|k| side.pair(k)).collect::<Vec<_>>(),
        [(12, 2), (11, 1)]
    );
    // Every pair legal: the full house alone, and the straights after it.
    let mut side = MiddleSide::default();
    side.fill(&pairs, &v5, &|_, _| true);
    assert_eq!(side.strongest_group(), Some((1, Some(2))));
    assert_eq!((0..1).map(|k| side.pair(k)).collect::<Vec<_>>(), [(10, 0)]);
    // A group alone: nothing after it.
    let mut side = MiddleSide::default();
    side.fill(&pairs[1..3], &v5, &|_, _| true);
    assert_eq!(side.strongest_group(), Some((2, None)));
    // More than SIDE_GROUP pairs of the strongest middle's category and deciding ranks
    // (here one middle with five fronts): no group.
    let many: Vec<(u16, u16)> = (0..=SIDE_GROUP as u16).map(|f| (20 + f, 1)).collect();
    let mut side = MiddleSide::default();
    side.fill(&many, &v5, &|_, _| true);
    assert_eq!(side.strongest_group(), None);
    // No legal pair: none.
    let mut side = MiddleSide::default();
    side.fill(&pairs, &v5, &|_, _| false);
    assert_eq!(side.strongest_group(), None);
}

#[test]
fn a_rest_is_plain_as_its_middles_values_say() {
    // Every back of random hands, standard and with extra diamonds (some cards twice),
    // and of hands built to leave flushes, straights and the back's own ranks, five of
    // a kind and thirteen of a suit; the wheel low and second.
    let hands = test_hands(
        17,
        150,
        &[
            "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
            "5h 6h 7h 8h 9h 5c 6c 7c 8c 9c 2d 3d 4s",
            "7s 7h 7d 7c 8s 8h 8d 8c 9s 9h 9d 9c Ts",
            "2h 3h 4h 5h 6h 7h 8h 2s 3s 4s 5s 6s Ad",
            // The extra diamonds: cards twice, five of a kind, thirteen of a suit.
            "7d 7d 7c 7h 7s 8d 8d 9d 9d Td Td Jd Jd",
            "2d 2d 3d 3d 4d 4d 5d 5d 6d 6d Ad Ad Kd",
            "Ad Ad Ac Ah As 2d 2d 3d 3d 4d 4d 5d 5c",
        ],
    );
    let (mut plain, mut other) = (0, 0);
    for (h, wheel, s, rest) in prepared(&hands) {
        let v5 = s.five_values();
        for (bi, &mb) in subsets(13).five.iter().enumerate() {
            let want = rest_is_plain(crate::split::rest_pairs(bi), v5, v5[bi]);
            assert_eq!(
                rest.is_plain(mb, v5[bi]),
                want,
                "{h:?} {wheel:?} back {mb:b}"
            );
            if want {
                plain += 1;
            } else {
                other += 1;
            }
        }
    }
    assert!(plain > 10_000 && other > 10_000, "{plain} {other}");
}

#[test]
fn a_fronts_ways_read_from_straights_and_flushes_are_its_126_ways() {
    // Every pair and trips front of random hands (standard, and with extra diamonds:
    // cards twice, five of a kind) and of hands built around pairs, trips, straights
    // and flushes: where the straights and flushes left are read, the weakest stronger
    // five over the ways with both fives at least the front is the one the 126 ways
    // give. They must be read often, both with no such way and with one, and the ways
    // read in full often too (a rule that never fires would pass).
    let hands = test_hands(
        29,
        300,
        &[
            // Pairs: four at or above a low front, two above a high one, two pairs below.
            "Ac Ad Kc Kd 5c 5d 4h 4s 9c Th 2d 3s 7h",
            "Ac Ad 8c 8d 5c 5d 4h 4s 9c Th 2d 3s 7h",
            "Kc Kd Qc Qd Jh 2d 3s 4h 6s 8c 9d Th Ac",
            // Trips: two sets, one set, sets and a straight left; quads.
            "7s 7h 7d 9c 9d 9h 2c 2d 4s 5h Jc Qd Kh",
            "7s 7h 7d 9c 9d Ah 2c 2d 4s 5h Jc Qd Kh",
            "7s 7h 7d 3c 4d 5h 6c 8d 9s Th Jc Qd Kh",
            "7s 7h 7d 7c 4d 5h 6c 8d 9s Th Jc Qd Kh",
            "Ks Kh Kd Kc 2d 2h 6c 8d 9s Th Jc Qd Ah",
            // Straights and flushes left behind, the wheel among them; a straight flush.
            "Ah 2c 3d 4s 5h 5c 5d Kc Kd Qs Jh 9c 8d",
            "2h 5h 8h Jh Kh Ac Ad 3c 3d 9s 9d Tc 7s",
            "9d Td Jd Qd Kd 9h Th Jh Qh Kh 9s 2c 3c",
            "As Ad Ac Kh Qh Jh Th 9h 8h 7h 6h 5h Kc",
            "6c Qd Js Qs 2h 9s Kd 7c 8s Qh 3c Ac 4d",
            // A straight whose top rank is held three times: with the nine of hearts a
            // straight flush, with another nine the weaker plain straight.
            "2c 2d 3s 9h 9s 9c 5h 6h 7h 8h Kc Jd Ad",
            // The extra diamonds: cards twice, five of a kind.
            "7d 7d 7c 7h 7s 8d 8d 9d 9d Td Td Jd Jd",
            "Ad Ad Ac Ah As 2d 2d 3d 3d 4d 4d 5d 5c",
        ],
    );
    let (mut none, mut some, mut full) = (0, 0, 0);
    for (h, wheel, s, rest) in prepared(&hands) {
        let (v3, v5) = (s.three_values(), s.five_values());
        for (fi, &mf) in subsets(13).three.iter().enumerate() {
            let vf = v3[fi];
            if !matches!(vf.category(), Category::OnePair | Category::ThreeOfAKind) {
                continue;
            }
            let ways = crate::split::front_rest(fi)
                .iter()
                .map(|&(a, b)| (v5[a as usize], v5[b as usize]))
                .filter(|&(x, y)| x.min(y) >= vf)
                .map(|(x, y)| x.max(y).raw())
                .min()
                .unwrap_or(u32::MAX);
            match rest.reach_special(mf, vf, v5) {
                Some(w) => {
                    assert_eq!(w, ways, "{h:?} {wheel:?} front {mf:b}");
                    if w == u32::MAX {
                        none += 1
                    } else {
                        some += 1
                    }
                }
                None => full += 1,
            }
        }
    }
    assert!(
        none > 2_000 && some > 100 && full > 2_000,
        "{none} {some} {full}"
    );
}

#[test]
fn no_two_disjoint_fives_share_a_group_whose_floor_is_given() {
    // Every five of random hands (standard, and with extra diamonds: cards twice, five
    // of a kind) and of hands built to hold groups twice (two pairs of one rank, a high
    // card's ranks twice): where a floor is given, no five of the group misses another
    // (no middle of the group sits under a back of it), every five of the group is at
    // least the floor and every five outside it below is under it. Floors must be
    // given and withheld often (a rule that never fires would pass).
    let hands = test_hands(
        37,
        100,
        &[
            "As Ad Ac Ah Kc Kd Qs Jh 9c 7d 5s 4h 3c",
            "As Ks Qs Js 9h Ah Kh Qh Jh 9s 7c 5d 3c",
            "As Ad Ks Kd Qs Ah Ac Kh Kc Qh 7c 5d 3c",
            "6c Qd Js Qs 2h 9s Kd 7c 8s Qh 3c Ac 4d",
            "7d 7d 7c 7h 7s 8d 8d 9d 9d Td Td Jd Jd",
        ],
    );
    let (mut given, mut withheld) = (0, 0);
    for (h, _, s, rest) in prepared(&hands) {
        let v5 = s.five_values();
        let masks = &subsets(13).five;
        let group = |v: HandValue| v.raw() >> PRIMARY_SHIFT;
        for (bi, &vb) in v5.iter().enumerate() {
            let Some(least) = rest.group_floor(vb) else {
                withheld += 1;
                continue;
            };
            given += 1;
            for (mi, &vm) in v5.iter().enumerate() {
                if group(vm) == group(vb) {
                    assert!(vm.raw() >= least, "{h:?} {vb:?} {vm:?}");
                    assert!(
                        masks[mi] & masks[bi] != 0 || mi == bi,
                        "{h:?} {vb:?} {vm:?}"
                    );
                } else if vm < vb {
                    assert!(vm.raw() < least, "{h:?} {vb:?} {vm:?}");
                }
            }
        }
    }
    assert!(given > 100_000 && withheld > 1_000, "{given} {withheld}");
}

/// A banker who wins ties, heads-up, on tables with classes: the search's best equals
/// the full scan's to the last bit (it missed it by 3e-9 and 1e-8 units while a lane's
/// P(at most) was taken as P(below) + P(equal) and rounded: one unit in the last place
/// above the next value's P(below), so a bound fell under a split it bounds).
#[test]
fn a_banker_who_wins_ties_gets_the_full_scans_best_exactly() {
    let rules = &variants()[4];
    let counts = build_tables(rules, 4, 300, 2, 3);
    let mixed = LaneTables::from_counts(&counts, rules);
    let h: [Card; 13] = crate::cards::parse_cards("8d Js Qh 3s 6d Tc 3d Ks 2s 5c Qc Th 7d")
        .unwrap()
        .try_into()
        .unwrap();
    for removal in [true, false] {
        let tables = &mixed.clone().with_card_removal(removal);
        let ctx = Context {
            players: 2,
            role: Role::Banker,
        };
        let (found, best, _) = crate::strategy::ev::ev_check(&h, rules, tables, ctx);
        assert_eq!(found.to_bits(), best.to_bits(), "{found} vs {best}");
    }
}

#[test]
fn pruned_search_equals_full_scan() {
    let mut rng = rng_for(11);
    for rules in variants() {
        // Splits scored exactly and legal splits, where the bounds prune.
        let (mut scored, mut legal) = (0usize, 0usize);
        // Half the hands on tables with classes (the joint model), half without.
        let counts = build_tables(&rules, 4, 300, 2, 3);
        let mixed = LaneTables::from_counts(&counts, &rules);
        let lanes_only =
            LaneTables::from_counts(&LaneCounts::of_lanes(counts.lanes.clone()), &rules);
        assert!(mixed.has_classes() && !lanes_only.has_classes());
        for players in [2, 3, 4] {
            for role in [Role::Player, Role::Banker] {
                if role == Role::Banker && rules.mode != Mode::Banker {
                    continue;
                }
                let ctx = Context { players, role };
                for i in 0..12 {
                    // Card removal on (the default) and, every third hand, off.
                    let base = if i % 2 == 0 { &mixed } else { &lanes_only };
                    let tables = &base.clone().with_card_removal(i % 3 != 2);
                    // Hands where falling lane values change the best split: trips or
                    // a pair in front; quads or a full house in the middle. Under the
                    // falling rules, a frontier of (front, middle) misses the first's
                    // best split. Then backs of one value met many times: three ways
                    // to hold K K K 5 5, the last in the walk (the lowest positions)
                    // leaving five hearts for a flush middle where the others leave
                    // four; straights, each held with several suits; and two flushes
                    // of one value, a middle and a back listed both ways round.
                    let h: [Card; 13] = match i {
                        0..=5 => crate::cards::parse_cards(
                            [
                                "Kc Tc 3d Ts Td 9h 9s 8d 9d 3s 5s 5c 3h",
                                "Ah Ad Ac Kh Kd 7s 7c 4h 4d 9s 3c 2h 5s",
                                "9h 9d 9c 9s Qh Qd Qc 5h 5d 2s 3c 7h Jd",
                                "5c 5d 2s 3d 8c Ah Qh 9h 7h 5h Ks Kd Kc",
                                "9s Kh 9c Jc 7d 6d Qc Th 8c 4d Js 3h 8h",
                                "Ah Kh 9h 7h 5h As Ks 9s 7s 5s Qd Jc 2c",
                            ][i],
                        )
                        .unwrap(),
                        _ => random_hand(&mut rng, DeckKind::Standard, 13),
                    }
                    .try_into()
                    .unwrap();
                    let s = HandSplits::new(&h, rules.wheel);
                    let scan = ev_all(&s, &rules, tables, ctx);
                    let mut all: Vec<f64> = scan.iter().map(|c| c.expected).collect();
                    let pruned = crate::strategy::model::units_raise_score(&rules, role, tables);
                    all.sort_by(|a, b| b.partial_cmp(a).unwrap());
                    // The best of each distinct (front, middle, back) values, best first.
                    let triple = |c: &Candidate| {
                        let (f, m, b) = c.subsets;
                        (s.three_values()[f], s.five_values()[m], s.five_values()[b])
                    };
                    let all_distinct = best_of_each(&scan, triple);
                    // The best of each label (the hints' kinds): the front's category
                    // and the rank it holds most often (the highest of those), the
                    // middle's and the back's categories, told from the cards.
                    let label = |c: &Candidate| {
                        let (f, m, b) = s.masks(c.subsets.0, c.subsets.1, c.subsets.2);
                        let mut count = [0u8; 13];
                        for p in (0..13).filter(|p| f >> p & 1 == 1) {
                            count[h[p].rank_index() as usize] += 1;
                        }
                        let most = *count.iter().max().unwrap();
                        let rank = (0..13).rev().find(|&r| count[r] == most).unwrap();
                        let category = |m: u16| s.value(m).category();
                        (category(f), rank, category(m), category(b))
                    };
                    let all_labels = best_of_each(&scan, label);
                    // One best split (the per-back frontier), the six best, the six
                    // best with distinct lane values, and the best of the five best labels.
                    let modes = [
                        (1, Distinct::No),
                        (6, Distinct::No),
                        (6, Distinct::Values),
                        (5, Distinct::Labels),
                    ];
                    for (want, mode) in modes {
                        let mut stats = SearchStats::default();
                        let top = search_hand(
                            &s,
                            &rules,
                            tables,
                            ctx,
                            want,
                            mode,
                            f64::NEG_INFINITY,
                            &mut stats,
                        );
                        let expect = match mode {
                            Distinct::No => &all,
                            Distinct::Values => &all_distinct,
                            Distinct::Labels => &all_labels,
                        };
                        let want = want.min(expect.len());
                        assert_eq!(top.len(), want);
                        if pruned {
                            scored += stats.scored;
                            legal += all.len();
                        }
                        for (c, e) in top.iter().zip(expect) {
                            assert!((c.expected - e).abs() < 1e-9, "{} vs {e}", c.expected);
                            let v = triple(c);
                            assert!(v.0 <= v.1 && v.1 <= v.2, "legal");
                        }
                        if mode == Distinct::Values {
                            assert!(all_differ(&top, triple), "distinct values");
                        }
                        if mode == Distinct::Labels {
                            assert!(all_differ(&top, label), "distinct labels");
                        }
                        // Pruned against a floor from the start: the splits above it,
                        // none when it is the best. Floors halfway between two scores
                        // of the full scan (clear of rounding).
                        for k in [0usize, 2, 9] {
                            let (Some(&hi), Some(&lo)) = (expect.get(k), expect.get(k + 1)) else {
                                continue;
                            };
                            if hi - lo < 1e-6 {
                                continue;
                            }
                            for above in [(hi + lo) / 2.0, expect[0] + 1e-6] {
                                let got = search_hand(
                                    &s, &rules, tables, ctx, want, mode, above, &mut stats,
                                );
                                let better: Vec<f64> =
                                    expect.iter().copied().filter(|&e| e > above).collect();
                                assert_eq!(got.len(), better.len().min(want), "above {above}");
                                for (c, e) in got.iter().zip(&better) {
                                    assert!((c.expected - e).abs() < 1e-9, "{} vs {e}", c.expected);
                                }
                            }
                        }
                    }
                }
            }
        }
        // The bounds cut the work, with falling lane values too.
        assert!(scored * 10 < legal, "{scored} of {legal} splits scored");
    }
}

#[test]
fn runs_of_backs_searched_front_first_equal_a_full_scan() {
    // Hands of five to seven ranks: many one-pair, two-pair and trips backs that differ
    // only in their kickers (runs searched front first), quads, and runs the walk
    // searches back by back (a rank held three times under a pair's run, a full house).
    // Each rule set also with the deck of extra diamonds (a pair may be one card held
    // twice), its tables built for that deck.
    let mut rng = rng_for(29);
    let (mut fronts_first, mut best_in_run, mut twins) = (0, 0, 0);
    let decks = [DeckKind::Standard, DeckKind::ExtraDiamonds];
    let sets = variants()
        .into_iter()
        .flat_map(|r| decks.map(|deck| Rules { deck, ..r.clone() }))
        .filter(lane_values_monotone);
    for rules in sets {
        let counts = build_tables(&rules, 4, 300, 2, 3);
        let tables = LaneTables::from_counts(&counts, &rules);
        for i in 0..120 {
            let h = super::runs::few_ranks(&mut rng, rules.deck, 5 + i % 3);
            let role = if rules.mode == Mode::Banker {
                Role::Banker
            } else {
                Role::Player
            };
            let ctx = Context {
                players: 2 + i % 3,
                role,
            };
            let s = HandSplits::new(&h, rules.wheel);
            let mut all: Vec<f64> = ev_all(&s, &rules, &tables, ctx)
                .iter()
                .map(|c| c.expected)
                .collect();
            all.sort_by(|a, b| b.partial_cmp(a).unwrap());
            let mut floors = vec![
                (f64::NEG_INFINITY, Distinct::No),
                (f64::NEG_INFINITY, Distinct::Values),
                (all[0] + 1e-6, Distinct::No),
            ];
            if let Some(k) = (1..all.len()).find(|&k| all[0] - all[k] > 1e-6) {
                floors.push(((all[0] + all[k]) / 2.0, Distinct::No));
            }
            for (above, mode) in floors {
                let mut stats = SearchStats::default();
                let got = search_hand(&s, &rules, &tables, ctx, 1, mode, above, &mut stats);
                fronts_first += stats.runs;
                twins += stats.twin_fronts;
                if above > all[0] {
                    assert!(got.is_empty(), "nothing above the best");
                    continue;
                }
                assert_eq!(got.len(), 1);
                assert!(
                    (got[0].expected - all[0]).abs() < 1e-9,
                    "{} vs {}",
                    got[0].expected,
                    all[0]
                );
                let (f, m, b) = got[0].subsets;
                let (vf, vm, vb) = (s.three_values()[f], s.five_values()[m], s.five_values()[b]);
                assert!(vf <= vm && vm <= vb, "legal");
                let (mf, mm, mb) = s.masks(f, m, b);
                assert_eq!(mf | mm | mb, 0x1fff, "every card placed once");
                best_in_run += super::runs::Run::of(&h, vb).is_some() as usize;
            }
        }
    }
    // Many best splits have a back of a run searched front first.
    assert!(
        best_in_run > 300,
        "{best_in_run} best splits with a back of a run"
    );
    // The runs were searched front first (not only passed by the bounds), and fronts
    // of them passed as twins.
    assert!(
        fronts_first > 100,
        "{fronts_first} runs searched front first"
    );
    assert!(twins > 100, "{twins} twin fronts passed");
}

#[test]
fn hands_holding_a_diamond_twice_equal_a_full_scan() {
    // The extra diamonds: a pair of one diamond held twice, and many other diamonds of
    // seven ranks, under every rule set. Two backs that hold the same cards are not
    // twins when a five of their value misses them: that middle sits under the later
    // back only (with straight flushes held twice, that split was lost before).
    use rand::Rng;
    let mut rng = rng_for(31);
    let ctx = Context {
        players: 4,
        role: Role::Player,
    };
    for rules in variants() {
        let rules = Rules {
            deck: DeckKind::ExtraDiamonds,
            ..rules
        };
        let counts = build_tables(&rules, 4, 300, 2, 3);
        let tables = LaneTables::from_counts(&counts, &rules);
        let role = if rules.mode == Mode::Banker {
            Role::Banker
        } else {
            Role::Player
        };
        let ctx = Context { role, ..ctx };
        for _ in 0..150 {
            let mut ranks: Vec<u8> = (0..13).collect();
            for i in (1..13).rev() {
                ranks.swap(i, rng.random_range(0..=i));
            }
            ranks.truncate(7);
            let diamond = crate::cards::Suit::Diamonds as u8;
            let pair = Card::from_code(ranks[0] * 4 + diamond).unwrap();
            let mut deck = DeckKind::ExtraDiamonds.cards();
            shuffle(&mut deck, &mut rng);
            let rest = deck
                .into_iter()
                .filter(|c| ranks.contains(&c.rank_index()) && *c != pair);
            // 3 to 11 more diamonds (11: every card a diamond), the rest other suits.
            let (suited, other): (Vec<Card>, Vec<Card>) = rest
                .into_iter()
                .partition(|c| c.suit() == crate::cards::Suit::Diamonds);
            let diamonds = 3 + rng.random_range(0..9usize);
            let mut h = vec![pair, pair];
            h.extend(&suited[..diamonds]);
            h.extend(&other[..11 - diamonds]);
            let h: [Card; 13] = h.try_into().unwrap();
            let s = HandSplits::new(&h, rules.wheel);
            let best = ev_all(&s, &rules, &tables, ctx)
                .iter()
                .map(|c| c.expected)
                .fold(f64::NEG_INFINITY, f64::max);
            let got = search_hand(
                &s,
                &rules,
                &tables,
                ctx,
                1,
                Distinct::No,
                f64::NEG_INFINITY,
                &mut SearchStats::default(),
            );
            assert!(
                (got[0].expected - best).abs() < 1e-9,
                "{h:?}: {} against {best}",
                got[0].expected
            );
        }
    }
}

#[test]
fn explain_prices_the_split_as_the_search_does() {
    // The model's terms for the best split found: its units are the search's score;
    // the probabilities are probabilities, and with every lane certain to win (lose)
    // the scoop is certain too (lanes certain in every class).
    let mut rng = rng_for(21);
    for rules in variants() {
        let counts = build_tables(&rules, 4, 200, 1, 5);
        let tables = LaneTables::from_counts(&counts, &rules);
        for (i, role) in [Role::Player, Role::Banker].into_iter().enumerate() {
            if role == Role::Banker && rules.mode != Mode::Banker {
                continue;
            }
            let ctx = Context { players: 4, role };
            for k in 0..8 {
                let tables = &tables.clone().with_card_removal((i + k) % 2 == 0);
                let h: [Card; 13] = random_hand(&mut rng, DeckKind::Standard, 13)
                    .try_into()
                    .unwrap();
                let s = HandSplits::new(&h, rules.wheel);
                let removal = tables.removal(&h, &rules);
                let best = best_splits(
                    s.cards(),
                    s.five_values(),
                    s.three_values(),
                    Some(s.three_keys()),
                    &rules,
                    tables,
                    removal.as_ref(),
                    ctx,
                    1,
                    Distinct::No,
                    &mut SearchStats::default(),
                )[0];
                let (f, m, b) = best.subsets;
                let values = [s.three_values()[f], s.five_values()[m], s.five_values()[b]];
                let x =
                    crate::strategy::model::explain(values, &rules, tables, ctx, removal.as_ref());
                assert!((x.units - best.expected).abs() < 1e-9, "{x:?} vs {best:?}");
                for p in x.lanes.iter().flat_map(|&(w, l)| [w, l, w + l]) {
                    assert!((-1e-6..=1.0 + 1e-6).contains(&p), "{x:?}");
                }
                assert!(x.scoop >= 0.0 && x.scooped >= 0.0, "{x:?}");
                assert!(x.scoop + x.scooped <= 1.0 + 1e-6, "{x:?}");
            }
        }
    }
    // The strongest possible split against tables of weak opponents only.
    let rules = variants()[2].clone();
    let weak = crate::cards::parse_cards("2s 3h 5c 2c 3d 4s 6h 8c 2h 3c 4d 6s 9c").unwrap();
    let v = |c: &[Card]| crate::cards::evaluate(c, rules.wheel).unwrap();
    let lanes: [Vec<(u32, u64)>; 3] = [
        vec![(v(&weak[..3]).raw(), 5)],
        vec![(v(&weak[3..8]).raw(), 5)],
        vec![(v(&weak[8..]).raw(), 5)],
    ];
    let mut classes: Vec<[Vec<(u32, u64)>; 3]> = vec![Default::default(); 16];
    classes[0] = lanes.clone();
    let tables = LaneTables::from_counts(&LaneCounts { lanes, classes }, &rules);
    let strong = crate::cards::parse_cards("As Ad Ac Ks Kh Kd Kc Qs 5h 6h 7h 8h 9h").unwrap();
    let ctx = Context {
        players: 2,
        role: Role::Player,
    };
    let x = crate::strategy::model::explain(
        [v(&strong[..3]), v(&strong[3..8]), v(&strong[8..])],
        &rules,
        &tables,
        ctx,
        None,
    );
    assert_eq!(x.lanes, [(1.0, 0.0); 3]);
    assert!((x.scoop - 1.0).abs() < 1e-6 && x.scooped == 0.0, "{x:?}");
    // Heads-up (no home run at 2 players): trips in front 7, quads in the middle 10, a
    // straight flush in the back 13, and the 6-unit scoop bonus: 36 units.
    assert!((x.units - 36.0).abs() < 1e-6, "{x:?}");
}

/// The cards at the positions of `mask`.
fn picked(dealt: &[Card], mask: u32) -> Vec<Card> {
    (0..dealt.len())
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| dealt[i])
        .collect()
}

/// Rule sets for the extra diamonds' 16 cards: lane values that rise (as kaixin-extra),
/// and five of a kind worth less than a straight flush in the middle and back.
fn extra_rules() -> (Rules, Rules) {
    let middle_falls = Rules {
        deck: DeckKind::ExtraDiamonds,
        dealt: 16,
        ..variants().remove(1)
    };
    let mut rising = middle_falls.clone();
    rising.lane_values[1][9] = 11;
    rising.lane_values[2][9] = 6;
    (rising, middle_falls)
}

/// A hand of `n` cards drawn from the extra deck's 26 diamonds and `others` cards of the
/// other suits: many cards held twice.
fn diamond_heavy(rng: &mut rand_chacha::ChaCha20Rng, n: usize, others: usize) -> Vec<Card> {
    let (mut pool, mut rest): (Vec<Card>, Vec<Card>) = DeckKind::ExtraDiamonds
        .cards()
        .iter()
        .partition(|c| c.suit() == crate::cards::Suit::Diamonds);
    shuffle(&mut rest, rng);
    pool.extend_from_slice(&rest[..others]);
    shuffle(&mut pool, rng);
    pool.truncate(n);
    pool
}

#[test]
fn twins_keys_are_equal_exactly_when_the_cards_are() {
    let mut rng = rng_for(22);
    for case in 0..40 {
        let hand = diamond_heavy(&mut rng, 16, [4, 12, 20, 30][case % 4]);
        let mut once = hand.clone();
        once.sort();
        once.dedup();
        let Some(twins) = Twins::new(&hand) else {
            assert_eq!(once.len(), 16, "no card held twice");
            continue;
        };
        assert!(once.len() < 16);
        let cards_of = |m: u32| {
            let mut c: Vec<Card> = (0..16)
                .filter(|i| m >> i & 1 == 1)
                .map(|i| hand[i])
                .collect();
            c.sort();
            c
        };
        // One key for one set of cards, and one set of cards for one key.
        let mut by_key = std::collections::HashMap::new();
        let mut by_cards = std::collections::HashMap::new();
        for &m in &subsets(16).five {
            let (k, c) = (twins.key(m), cards_of(m));
            assert_eq!(by_key.entry(k).or_insert_with(|| c.clone()), &c);
            assert_eq!(by_cards.entry(c).or_insert(k), &k);
        }
    }
    let standard = random_hand(&mut rng, DeckKind::Standard, 13);
    assert!(Twins::new(&standard).is_none());
}

#[test]
fn cards_held_twice_leave_the_best_splits_unchanged() {
    // Hands of 13 to 16 cards, many held twice, so that many backs and middles hold
    // the same cards as another: the best split (and the best three with distinct
    // values) against the best of every way to keep 13.
    let (rising, middle_falls) = extra_rules();
    let counts = build_tables(&rising, 4, 200, 2, 5);
    let ctx = Context {
        players: 4,
        role: Role::Player,
    };
    let mut rng = rng_for(21);
    let (hands, mut twice) = (16, 0);
    for case in 0..hands {
        let n = [13, 14, 15, 16][case % 4];
        let rules = if case / 4 % 2 == 0 {
            &rising
        } else {
            &middle_falls
        };
        let tables = &LaneTables::from_counts(&counts, rules);
        let dealt = diamond_heavy(&mut rng, n, [4, 12, 20][case % 3]);
        twice += Twins::new(&dealt).is_some() as usize;
        let s = subsets(n);
        let pick = |m: u32| picked(&dealt, m);
        let (v5, v3) = subset_values(&dealt, rules.wheel);
        let removal = tables.removal(&dealt, rules);
        // Every way to keep 13: 13 cards by a full scan; more, each way by the 13-card
        // search (checked against a full scan above) for its best `K` splits, all of
        // them (not distinct: no split is skipped as another's twin there). A split uses
        // 13 of the cards, so it is met under one way to keep 13 only; each way's `K`
        // must hold its best three values (else `K` is too small for this check).
        const K: usize = 100;
        let mut all: Vec<(f64, [HandValue; 3])> = Vec::new();
        for keep in (0u32..1 << n).filter(|m| m.count_ones() == 13) {
            let hs = HandSplits::new(&pick(keep).try_into().unwrap(), rules.wheel);
            let (h3, h5) = (hs.three_values(), hs.five_values());
            let c = if n == 13 {
                ev_all(&hs, rules, tables, ctx)
            } else {
                best_splits(
                    hs.cards(),
                    h5,
                    h3,
                    None,
                    rules,
                    tables,
                    removal.as_ref(),
                    ctx,
                    K,
                    Distinct::No,
                    &mut SearchStats::default(),
                )
            };
            let values: Vec<[HandValue; 3]> = c
                .iter()
                .map(|c| [h3[c.subsets.0], h5[c.subsets.1], h5[c.subsets.2]])
                .collect();
            let mut kinds = values.clone();
            kinds.sort();
            kinds.dedup();
            assert!(c.len() < K || kinds.len() >= 3, "K too small");
            all.extend(c.iter().zip(values).map(|(c, v)| (c.expected, v)));
        }
        all.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        let mut distinct: Vec<(f64, [HandValue; 3])> = Vec::new();
        for &w in &all {
            if !distinct.iter().any(|d| d.1 == w.1) {
                distinct.push(w);
            }
        }
        // The best forty with any values too (each split counted, twins included).
        for (top, dist) in [(1, false), (3, true), (40, false)] {
            let want = if dist { &distinct } else { &all };
            let got = best_splits(
                &dealt,
                &v5,
                &v3,
                None,
                rules,
                tables,
                removal.as_ref(),
                ctx,
                top,
                if dist { Distinct::Values } else { Distinct::No },
                &mut SearchStats::default(),
            );
            assert_eq!(got.len(), top);
            for (c, w) in got.iter().zip(want) {
                assert!((c.expected - w.0).abs() < 1e-9, "{} vs {}", c.expected, w.0);
                let (f, m, b) = c.subsets;
                let (mf, mm, mb) = (s.three[f], s.five[m], s.five[b]);
                assert_eq!((mf & mm, mf & mb, mm & mb), (0, 0, 0), "disjoint lanes");
                assert!(v3[f] <= v5[m] && v5[m] <= v5[b], "legal");
            }
        }
    }
    assert!(
        twice >= hands - 2,
        "most hands hold some card twice: {twice}"
    );
}

#[test]
fn sixteen_cards_equal_the_best_of_every_13() {
    // Three rule sets: lane values that rise (as kaixin-extra); five of a kind worth
    // less than a straight flush in the middle and back (as `variants` leaves it), the
    // bounds at the envelope but a (back, middle)'s strongest front still best; and a
    // front pair worth more than front trips, fronts scored down to the first whose
    // bound cannot beat the best found.
    let (rising, middle_falls) = extra_rules();
    let mut front_falls = rising.clone();
    front_falls.lane_values[0][1] = 9;
    assert!(lane_values_monotone(&rising));
    assert!(!lane_values_monotone(&middle_falls) && lane_value_rises(&middle_falls, Lane::Front));
    assert!(!lane_value_rises(&front_falls, Lane::Front));
    // One training (the tables' lane outcomes), priced under each rule set.
    let counts = build_tables(&rising, 4, 200, 2, 5);
    let ctx = Context {
        players: 4,
        role: Role::Player,
    };
    let mut rng = rng_for(12);
    let cases = [
        (&rising, 14),
        (&middle_falls, 15),
        (&rising, 16),
        (&middle_falls, 16),
        (&rising, 16),
        (&middle_falls, 16),
        (&rising, 16),
        (&front_falls, 14),
        (&front_falls, 14),
        (&front_falls, 15),
        (&front_falls, 15),
        (&front_falls, 15),
    ];
    // The last hand, found by searching random ones: there, stopping at the first front
    // whose own score (not its bound) cannot beat the best found misses the best split.
    let fixed = "Th Kc 5c Ad 7h 7s Ts 2h As 7c Jc Ah 3d 2c Td";
    for (case, (rules, n)) in cases.into_iter().enumerate() {
        let tables = &LaneTables::from_counts(&counts, rules);
        {
            let dealt = if case + 1 == cases.len() {
                crate::cards::parse_cards(fixed).unwrap()
            } else {
                random_hand(&mut rng, DeckKind::ExtraDiamonds, n)
            };
            let s = subsets(n);
            let pick = |m: u32| picked(&dealt, m);
            let (v5, v3) = subset_values(&dealt, rules.wheel);
            // Brute force over every way to keep 13, each solved by the 13-card search
            // (itself checked against a full scan above): a split uses 13 of the cards,
            // so it is met under one way to keep 13 only, and the best three splits are
            // the best three of each way's best three.
            // Card removal (none with the extra diamonds) counts every dealt card.
            let removal = tables.removal(&dealt, rules);
            // Each way to keep 13 and its best three splits' scores.
            let mut kept: Vec<(u32, Vec<f64>)> = Vec::new();
            for keep in (0u32..1 << n).filter(|m| m.count_ones() == 13) {
                let h: [Card; 13] = pick(keep).try_into().unwrap();
                let hs = HandSplits::new(&h, rules.wheel);
                let mut st = SearchStats::default();
                let c = best_splits(
                    hs.cards(),
                    hs.five_values(),
                    hs.three_values(),
                    Some(hs.three_keys()),
                    rules,
                    tables,
                    removal.as_ref(),
                    ctx,
                    3,
                    Distinct::No,
                    &mut st,
                );
                kept.push((keep, c.iter().map(|c| c.expected).collect()));
            }
            // Every split, then each position in turn as one every split must hold (as
            // the horse card when kept): the best three of the ways to keep 13 that hold
            // it.
            let needs = std::iter::once(0).chain((0..n).map(|i| 1u32 << i));
            for (need, top) in needs.flat_map(|need| [(need, 1), (need, 3)]) {
                let mut want: Vec<f64> = kept
                    .iter()
                    .filter(|k| k.0 & need == need)
                    .flat_map(|k| k.1.iter().copied())
                    .collect();
                want.sort_by(|a, b| b.partial_cmp(a).unwrap());
                // From the start, and pruned against a floor between the best two (clear
                // of rounding) or above the best (nothing).
                let mut floors = vec![f64::NEG_INFINITY, want[0] + 1e-6];
                if want[0] - want[1] > 1e-6 {
                    floors.push((want[0] + want[1]) / 2.0);
                }
                for above in floors {
                    let got = best_splits_above(
                        &dealt,
                        &v5,
                        &v3,
                        None,
                        rules,
                        tables,
                        removal.as_ref(),
                        ctx,
                        top,
                        Distinct::No,
                        above,
                        Need {
                            held: need,
                            ..Need::default()
                        },
                        &mut SearchStats::default(),
                    );
                    let better: Vec<f64> = want.iter().copied().filter(|&e| e > above).collect();
                    assert_eq!(got.len(), better.len().min(top), "case {case} {above}");
                    for (c, e) in got.iter().zip(&better) {
                        assert!((c.expected - e).abs() < 1e-9, "{} vs {e}", c.expected);
                        let (f, m, b) = c.subsets;
                        let (mf, mm, mb) = (s.three[f], s.five[m], s.five[b]);
                        assert_eq!((mf & mm, mf & mb, mm & mb), (0, 0, 0), "disjoint lanes");
                        assert!(v3[f] <= v5[m] && v5[m] <= v5[b], "legal");
                        assert_eq!((mf | mm | mb) & need, need, "held");
                    }
                }
            }
        }
    }
}
