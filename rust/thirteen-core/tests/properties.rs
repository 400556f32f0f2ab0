//! Property tests of the core's entry points with hostile input: arbitrary text, rule-set JSON
//! of any shape (numbers near and beyond `i64`), card codes, seats, stakes and amounts. Nothing
//! may panic; what is accepted must be right: totals sum to zero and stay within the bounds of
//! `thirteen_core::limits`, money is exact, deals hand out the deck, every value decodes.
//!
//! Sized for CI by proptest's default (256 cases a property); `PROPTEST_CASES=100000 cargo test
//! --release --test properties` runs a large fuzz.

use proptest::prelude::*;
use serde_json::{json, Value};
use thirteen_core::check_duplicates;
use thirteen_core::limits::{MAX_RULE_UNITS, MAX_STAKE_MULTIPLIER};
use thirteen_core::{
    compare_lanes, deal, evaluate, evaluate_batch, parse_cards, swap, swap_rng, swap_under,
    Arrangement, Card, Category, Error, HandValue, Rules, Wheel,
};
use thirteen_core::{escape_payments, money, special_keys, values_foul, Percent, Rake};
use thirteen_core::{find_special, held_specials, settle, settle_batch, Submission, TableArgs};

// ------------------------------------------------------------------------------ strategies

/// Integers a hostile caller sends: small ones, the bounds and their neighbours, the ends of
/// `i64`.
fn hostile_int() -> impl Strategy<Value = i64> {
    prop_oneof![
        -3i64..20,
        Just(MAX_RULE_UNITS),
        Just(MAX_RULE_UNITS + 1),
        Just(MAX_STAKE_MULTIPLIER + 1),
        Just(1 << 62),
        Just(i64::MAX),
        Just(i64::MIN),
        any::<i64>(),
    ]
}

/// A JSON number, sometimes beyond `i64` or not an integer.
fn json_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => hostile_int().prop_map(Value::from),
        1 => Just(json!(9223372036854775808u64)),
        1 => Just(json!(1.5)),
        1 => Just(json!("7")),
    ]
}

fn pick(options: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop::sample::select(options).prop_map(Value::from)
}

/// The keys of a lane table: `base` and each category's (the engine's names: this test is
/// about hostile values, the schema's own tests pin the names).
fn lane_keys() -> Vec<&'static str> {
    std::iter::once("base")
        .chain(Category::ALL.iter().map(|c| c.key()))
        .collect()
}

/// A lane table: its base and up to three more keys (a base again, or categories).
fn lane_table(number: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    (
        number.clone(),
        prop::collection::btree_map(prop::sample::select(lane_keys()), number, 0..4),
    )
        .prop_map(|(base, m)| {
            let mut table: serde_json::Map<String, Value> =
                m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            table.entry("base").or_insert(base);
            Value::Object(table)
        })
}

/// Rule-set JSON of the shape `RuleSet.to_json()` writes, each key present or not, values
/// from `number` (amounts) and from valid and invalid choices.
fn rules_json(number: BoxedStrategy<Value>) -> impl Strategy<Value = String> {
    let tables = (
        lane_table(number.clone()),
        lane_table(number.clone()),
        lane_table(number.clone()),
    )
        .prop_map(|(f, m, b)| json!({"front": f, "middle": m, "back": b}));
    // A scoop or a home run: `units` with a bonus, `min_players` with a home run, and now and
    // then a key where it does not belong.
    let bonus = |number: BoxedStrategy<Value>, home_run: bool| {
        (
            pick(&["none", "double", "bonus", "triple"]),
            number,
            prop_oneof![Just(3u8), Just(4u8), 0u8..6],
            prop::bool::weighted(0.1),
        )
            .prop_map(move |(kind, units, min, stray)| {
                let mut b = json!({ "kind": kind });
                if kind == "bonus" || stray {
                    b["units"] = units;
                }
                if home_run && (kind != "none" || stray) {
                    b["min_players"] = json!(min);
                }
                b
            })
    };
    let specials =
        prop::collection::btree_map(prop::sample::select(special_keys()), number.clone(), 0..5);
    let escape = (
        pick(&["split", "winner"]),
        number.clone(),
        number.clone(),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(to, units, two, stray)| {
            let mut e = json!({ "to": to });
            if to == "split" || stray {
                e["units"] = units;
            }
            if to == "winner" || stray {
                e["by_players"] = json!({"2": two, "3": 1, "4": 2});
            }
            e
        });
    (
        (
            prop::collection::vec(0u8..6, 0..4),
            prop_oneof![Just(13u8), Just(16u8), 0u8..20],
            pick(&["standard", "extra_diamonds", "jokers"]),
            pick(&["low", "second"]),
            pick(&["none", "suit"]),
            pick(&["all_pairs", "banker"]),
            any::<bool>(),
        ),
        (
            tables,
            number.clone(),
            bonus(number.clone(), false),
            bonus(number.clone(), true),
            pick(&["reject", "lose_all"]),
            any::<bool>(),
            (any::<bool>(), number),
        ),
        (
            specials,
            prop::option::of(pick(&["As", "Ah", "2d", "Zz"])),
            prop::option::of(escape),
            prop::option::of(0u8..20),
            any::<bool>(),
            any::<u32>(),
        ),
    )
        .prop_map(|(a, b, c)| {
            let (players, dealt, deck, wheel, tie_break, mode, banker_wins) = a;
            let (lanes, majority, scoop, home_run, foul, foul_scoop, (allowed, surrender)) = b;
            let (specials, horse, escape, swap, cut, keep) = c;
            let mut spec = json!({
                "players": players, "dealt": dealt, "deck": deck, "wheel": wheel,
                "tie_break": tie_break, "mode": mode, "banker_wins_ties": banker_wins,
                "lane_values": lanes, "majority_bonus": majority, "scoop": scoop,
                "home_run": home_run, "foul": foul, "foul_counts_as_scoop": foul_scoop,
                "surrender": {"allowed": allowed, "units": surrender}, "specials": specials,
                "horse_card": horse, "escape": escape,
                "swap": swap.map(|m| json!({"max_cards": m})), "cut": cut,
            });
            // Leave keys out at random so defaults are exercised too.
            let map = spec.as_object_mut().expect("object");
            let keys: Vec<String> = map.keys().cloned().collect();
            for (i, k) in keys.iter().enumerate() {
                if keep & (1 << i) == 0 {
                    map.remove(k);
                }
            }
            spec.to_string()
        })
}

/// Rules the core accepts: amounts within the bounds (at the bound often).
fn valid_rules() -> impl Strategy<Value = Rules> {
    let amount = prop_oneof![0i64..20, Just(MAX_RULE_UNITS)]
        .prop_map(Value::from)
        .boxed();
    rules_json(amount).prop_filter_map("refused rule set", |j| Rules::from_json(&j).ok())
}

fn card() -> impl Strategy<Value = Card> {
    (0u8..52).prop_map(|c| Card::from_code(c).expect("below 52"))
}

/// A table of `players` 13-card hands dealt from a shuffled deck, each arranged (the first of
/// its rotations that does not foul, else as dealt) or, one time in eight, declared naming a
/// random key.
fn table(rules: &Rules, players: usize) -> impl Strategy<Value = Vec<Submission>> {
    let (deck, kind, wheel) = (rules.deck.cards(), rules.deck, rules.wheel);
    let n = players.min(deck.len() / 13);
    let choice = (
        0u8..8,
        prop::option::of(prop::sample::select(special_keys())),
    );
    (Just(deck).prop_shuffle(), prop::collection::vec(choice, n)).prop_map(move |(deck, seats)| {
        seats
            .into_iter()
            .enumerate()
            .map(|(seat, (declare, key))| {
                let hand = &deck[seat * 13..seat * 13 + 13];
                if declare == 0 {
                    return Submission::Declared {
                        cards: hand.to_vec(),
                        special: key.map(str::to_string),
                    };
                }
                let split = |h: &[Card]| {
                    Arrangement::new(&h[..3], &h[3..8], &h[8..], kind).expect("13 dealt cards")
                };
                let legal = (0..13).find_map(|r| {
                    let mut h = hand.to_vec();
                    h.rotate_left(r);
                    let a = split(&h);
                    (!values_foul(&a.values(wheel))).then_some(a)
                });
                Submission::Arranged(legal.unwrap_or_else(|| split(hand)))
            })
            .collect()
    })
}

/// The most a seat can win or lose in one settlement under these bounds (96 × R × S).
const MOST_UNITS: i64 = 96 * MAX_RULE_UNITS * MAX_STAKE_MULTIPLIER;

// ------------------------------------------------------------------------------ properties

proptest! {
    // Rule sets the core refuses are drawn again (`valid_rules`); allow that at any size.
    #![proptest_config(ProptestConfig {
        max_local_rejects: u32::MAX,
        ..ProptestConfig::default()
    })]

    #[test]
    fn card_text_never_panics(text in "[ -~♠♥♦♣♤♡♢♧，、\u{3000}1]{0,60}") {
        if let Ok(cards) = parse_cards(&text) {
            let again = parse_cards(&thirteen_core::format_cards(&cards, false)).unwrap();
            prop_assert_eq!(again, cards);
        }
        let _ = Card::parse_token(&text, 0);
    }

    #[test]
    fn any_rule_set_json_is_refused_or_bounded(spec in rules_json(json_number().boxed())) {
        if let Ok(r) = Rules::from_json(&spec) {
            prop_assert!(!r.players.is_empty() && r.players.iter().all(|p| (2..=4).contains(p)));
            prop_assert!(r.players.iter().all(|&p| p as usize * r.dealt as usize <= r.deck.size()));
            let amounts = r.lane_values.iter().flatten().copied()
                .chain(r.specials.units)
                .chain([r.majority.units, r.scoop.units, r.home_run.units, r.surrender.units])
                .chain(r.escape.iter().flat_map(|e| e.by_players.into_iter().chain([e.units])));
            for a in amounts {
                prop_assert!((0..=MAX_RULE_UNITS).contains(&a), "amount {}", a);
            }
        }
        let _ = Rules::from_json(&spec.replace(':', ""));
    }

    #[test]
    fn raw_values_are_refused_or_decode(raw in any::<u32>(), size in 0usize..7) {
        if let Ok(v) = HandValue::from_raw(raw, size) {
            prop_assert_eq!(v.ranks()[0], v.high());
            prop_assert!(v.describe().starts_with(v.category().name()));
        }
    }

    #[test]
    fn values_of_dealt_hands_come_back(cards in prop::collection::vec(card(), 5), second in any::<bool>()) {
        let wheel = if second { Wheel::Second } else { Wheel::Low };
        for n in [3, 5] {
            let v = evaluate(&cards[..n], wheel).unwrap();
            prop_assert_eq!(HandValue::from_raw(v.raw(), n), Ok(v));
        }
    }

    #[test]
    fn batches_of_any_bytes(data in prop::collection::vec(any::<u8>(), 0..80), width in 0usize..8, rules in valid_rules()) {
        let batch = evaluate_batch(&data, width, rules.wheel, rules.deck);
        let whole_rows = (width == 3 || width == 5) && data.len() % width == 0;
        if let (Some(position), true) = (data.iter().position(|&c| c >= 52), whole_rows) {
            // The first code over 51 is named, whatever else the rows hold.
            let token = data[position].to_string();
            prop_assert_eq!(&batch, &Err(Error::BadCard { token, position }));
        }
        if let Ok(values) = &batch {
            prop_assert_eq!(values.len() * width, data.len());
            for (row, &v) in data.chunks(width).zip(values) {
                let cards: Vec<Card> = row.iter().map(|&c| Card::from_code(c).unwrap()).collect();
                prop_assert!(check_duplicates(&cards, rules.deck, |_| None).is_ok());
                prop_assert_eq!(HandValue::from_raw(v, width).map(|h| h.raw()), Ok(v));
                prop_assert_eq!(evaluate(&cards, rules.wheel).map(|h| h.raw()), Some(v));
            }
        }
    }

    #[test]
    fn lanes_compare_or_refuse(a in prop::collection::vec(card(), 0..7), b in prop::collection::vec(card(), 0..7), rules in valid_rules()) {
        if let Ok(order) = compare_lanes(&a, &b, &rules) {
            prop_assert_eq!(compare_lanes(&b, &a, &rules).unwrap(), order.reverse());
        }
    }

    #[test]
    fn settlements_sum_to_zero_within_bounds(
        (rules, subs) in valid_rules().prop_flat_map(|r| {
            let players = r.players.clone();
            (Just(r.clone()), prop::sample::select(players).prop_flat_map(move |p| table(&r, p as usize)))
        }),
        banker in hostile_int(),
        stakes in prop::option::of(prop::collection::vec(prop_oneof![1i64..4, Just(MAX_STAKE_MULTIPLIER), hostile_int()], 0..5)),
        surrendered in prop::collection::vec(prop_oneof![0i64..4, hostile_int()], 0..3),
    ) {
        let args = TableArgs { banker, stakes, surrendered };
        if let Ok(s) = settle(&subs, &rules, &args) {
            prop_assert_eq!(s.totals.iter().sum::<i64>(), 0);
            prop_assert!(s.totals.iter().all(|t| t.abs() <= MOST_UNITS));
            for p in &s.pairs {
                prop_assert_eq!(p.total, p.steps.iter().sum::<i64>());
            }
        }
        let hand: [Card; 13] = subs[0].cards().collect::<Vec<_>>().try_into().expect("13 dealt");
        if let Some(sp) = find_special(&hand, &rules) {
            prop_assert!(held_specials(&hand, &rules).contains(&sp.kind));
        }
    }

    #[test]
    fn batch_settlements_of_any_bytes(data in prop::collection::vec(any::<u8>(), 0..120), players in 0usize..6, cards in prop_oneof![Just(13usize), 0usize..16], banker in hostile_int(), rules in valid_rules()) {
        let got = settle_batch(&data, players, cards, &rules, banker);
        if cards != 13 {
            let refused = matches!(got, Err(Error::WrongCount { expected: 13, .. }));
            prop_assert!(refused, "{:?}", got);
        }
        if let Ok(totals) = got {
            prop_assert_eq!(totals.len() * 13, data.len());
            for t in totals.chunks(players.max(1)) {
                prop_assert_eq!(t.iter().sum::<i64>(), 0);
            }
        }
    }

    #[test]
    fn deals_hand_out_the_deck(rules in valid_rules(), players in 0usize..7, seed in any::<u64>()) {
        if let Ok(d) = deal(&rules, players, seed) {
            prop_assert_eq!(d.hands.len(), players);
            prop_assert!(d.hands.iter().all(|h| h.len() == rules.dealt as usize));
            // The hands are the top of the shuffled deck, which is the rules' deck.
            let mut dealt: Vec<Card> = d.hands.concat();
            let mut top = d.deck[..dealt.len()].to_vec();
            let (mut deck, mut full) = (d.deck.clone(), rules.deck.cards());
            dealt.sort();
            top.sort();
            deck.sort();
            full.sort();
            prop_assert_eq!(dealt, top);
            prop_assert_eq!(deck, full);
            let given: Vec<Vec<Card>> = d.hands.iter().map(|h| h[..h.len().min(2)].to_vec()).collect();
            if let Ok(after) = swap_under(&rules, &d.hands, &given, Some(seed)) {
                let mut before: Vec<Card> = d.hands.concat();
                let mut now: Vec<Card> = after.concat();
                before.sort();
                now.sort();
                prop_assert_eq!(before, now);
            }
        }
    }

    #[test]
    fn swaps_of_anything(hands in prop::collection::vec(prop::collection::vec(card(), 0..6), 0..4), given in prop::collection::vec(prop::collection::vec(card(), 0..4), 0..4), max in 0usize..5, seed in any::<u64>()) {
        let _ = swap(&hands, &given, max, &mut swap_rng(seed));
    }

    #[test]
    fn escape_payments_sum_to_zero(rules in valid_rules(), leaver in hostile_int(), results in prop::collection::vec(prop::option::of(hostile_int()), 0..6)) {
        if let Ok(p) = escape_payments(&rules, leaver, &results) {
            prop_assert_eq!(p.iter().sum::<i64>(), 0);
            prop_assert_eq!(p.len(), results.len());
        }
    }

    #[test]
    fn money_is_exact_or_refused(units in prop::collection::vec(hostile_int(), 0..4), stake in hostile_int(), percent in "[+-]?[0-9]{0,20}(\\.[0-9]{0,12})?", cap in prop::option::of(hostile_int())) {
        let parsed = Percent::parse(&percent);
        if let Ok(p) = parsed {
            prop_assert!(p.numerator >= 0 && p.numerator <= 100 * p.denominator);
        }
        let rake = parsed.ok().map(|percent| Rake { percent, cap });
        if let Ok(out) = money(&units, stake, rake) {
            for (&u, &m) in units.iter().zip(&out) {
                let amount = u as i128 * stake as i128;
                let fee = match rake {
                    Some(r) if amount > 0 => {
                        let fee = amount * r.percent.numerator as i128 / (r.percent.denominator as i128 * 100);
                        r.cap.map_or(fee, |c| fee.min(c as i128))
                    }
                    _ => 0,
                };
                prop_assert_eq!(m as i128, amount - fee);
            }
        }
    }
}

#[test]
fn every_category_key_is_known() {
    for c in Category::ALL {
        assert_eq!(Category::from_key(c.key()), Some(c));
    }
}
