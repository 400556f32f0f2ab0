//! Arguments as callers give them (the bindings pass Python's values on unchecked): integers
//! of any size ([`Given`]) checked against the engine's bounds by name, and the flags, seats
//! and sizes that the core turns into its own types. Every refusal names the argument.

use thirteen_core::limits::{seed_error, Limit, BANKER, HAND_VALUE, STAKE_MULTIPLIER, UNITS};
use thirteen_core::{
    batch_arrays, compare_lanes, evaluate_hand, parse_cards, Card, DeckKind, Distinct, Error,
    Given, HandValue, RuleFile, Rules, SplitFilter, TableArgs, Wheel,
};

const HUGE: &str = "123456789012345678901234567890";

fn huge() -> Given {
    Given::Beyond(HUGE.into())
}

/// The key an out-of-range error names.
fn key(e: Error) -> String {
    match e {
        Error::OutOfRange { key, .. } => key,
        other => panic!("not out of range: {other:?}"),
    }
}

#[test]
fn an_integer_beyond_64_bits_is_out_of_range_under_its_name() {
    assert_eq!(huge().to_string(), HUGE);
    assert_eq!(UNITS.given(&Given::Int(-5)), Ok(-5));
    assert_eq!(key(UNITS.given(&huge()).unwrap_err()), "units");
    // `fits` leaves the range to the callee; `given_index` wants a count.
    assert_eq!(STAKE_MULTIPLIER.fits(&Given::Int(0)), Ok(0));
    assert_eq!(key(STAKE_MULTIPLIER.fits(&huge()).unwrap_err()), "stakes");
    assert_eq!(Limit::count("seat").given_index(&Given::Int(3)), Ok(3));
    assert!(Limit::count("seat").given_index(&Given::Int(-1)).is_err());
    let all = [Given::Int(1), huge(), Given::Int(2)];
    assert_eq!(key(UNITS.fits_all(&all).unwrap_err()), "units");
    let e = HAND_VALUE.given(&Given::Int(1 << 32)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "value must be an integer from 0 to 4294967295, got 4294967296"
    );
}

#[test]
fn seats_and_stakes_fit_in_64_bits_before_the_table_checks_them() {
    let one = Given::Int(1);
    let args = TableArgs::given(&one, Some(&[one.clone(), Given::Int(7)]), &[Given::Int(0)]);
    let args = args.unwrap();
    assert_eq!(
        (args.banker, args.stakes, args.surrendered),
        (1, Some(vec![1, 7]), vec![0])
    );
    assert_eq!(
        key(TableArgs::given(&huge(), None, &[]).unwrap_err()),
        "banker"
    );
    let stakes = [one.clone(), huge()];
    assert_eq!(
        key(TableArgs::given(&one, Some(&stakes), &[]).unwrap_err()),
        "stakes"
    );
    let e = TableArgs::given(&one, None, &[huge()]).unwrap_err();
    assert_eq!(key(e), "surrendered");
    assert_eq!(key(BANKER.fits(&huge()).unwrap_err()), "banker");
}

#[test]
fn a_table_size_beyond_64_bits_is_as_disallowed_as_five() {
    let rules = Rules::default();
    assert_eq!(rules.check_players_given(&Given::Int(3)), Ok(3));
    for players in [Given::Int(5), Given::Int(-2), huge()] {
        let e = rules.check_players_given(&players).unwrap_err();
        assert_eq!(e.class(), "PlayerCountError");
        assert_eq!(
            e.to_string(),
            format!("{players} players is not allowed by the rules (allowed: [2, 3, 4])")
        );
    }
}

#[test]
fn cards_and_values_given_as_integers() {
    assert_eq!(
        Card::from_given(&Given::Int(51)),
        Ok(Card::from_code(51).unwrap())
    );
    for code in [Given::Int(52), Given::Int(-1), huge()] {
        let e = Card::from_given(&code).unwrap_err();
        assert_eq!(
            e,
            Error::BadCard {
                token: code.to_string(),
                position: 0
            }
        );
    }
    let pair = evaluate_hand(
        &parse_cards("Ah Ad 3c").unwrap(),
        Wheel::default(),
        DeckKind::Standard,
    );
    let pair = pair.unwrap();
    let raw = Given::Int(pair.raw() as i64);
    assert_eq!(HandValue::from_given(&raw, &Given::Int(3)), Ok((pair, 3)));
    let e = HandValue::from_given(&raw, &Given::Int(5)).unwrap_err();
    assert!(matches!(e, Error::NotAHandValue { size: 5, .. }));
    assert_eq!(
        key(HandValue::from_given(&raw, &Given::Int(-3)).unwrap_err()),
        "size"
    );
    assert_eq!(
        key(HandValue::from_given(&huge(), &Given::Int(3)).unwrap_err()),
        "value"
    );
}

#[test]
fn a_hand_is_checked_for_duplicates_before_its_size() {
    let twice = parse_cards("Ah Ah 3c 4d").unwrap();
    let e = evaluate_hand(&twice, Wheel::default(), DeckKind::Standard).unwrap_err();
    assert!(matches!(e, Error::DuplicateCard { player: None, .. }));
    let four = parse_cards("Ah Ad 3c 4d").unwrap();
    let e = evaluate_hand(&four, Wheel::default(), DeckKind::Standard).unwrap_err();
    assert_eq!(
        e,
        Error::WrongCount {
            expected: 5,
            got: 4,
            lane: None,
            player: None
        }
    );
    // Lanes compared: `a`'s duplicates, then `b`'s, then the sizes.
    let rules = Rules::default();
    let (a, b) = (
        parse_cards("2c 2c 3d").unwrap(),
        parse_cards("Kh Kh Qd").unwrap(),
    );
    let e = compare_lanes(&a, &b, &rules).unwrap_err();
    assert!(matches!(e, Error::DuplicateCard { card, .. } if card.to_string() == "2c"));
    let five = parse_cards("Kh Kd Qd Qs 2s").unwrap();
    let e = compare_lanes(&five, &b, &rules).unwrap_err();
    assert!(matches!(e, Error::DuplicateCard { card, .. } if card.to_string() == "Kh"));
}

#[test]
fn flags_become_the_cores_choices() {
    assert_eq!(SplitFilter::of(false, false), SplitFilter::All);
    assert_eq!(SplitFilter::of(true, false), SplitFilter::Legal);
    assert_eq!(SplitFilter::of(false, true), SplitFilter::Pareto);
    assert_eq!(Distinct::of(false, false), Distinct::No);
    assert_eq!(Distinct::of(true, false), Distinct::Values);
    assert_eq!(Distinct::of(false, true), Distinct::Labels);
}

#[test]
fn batch_plays_flatten_row_by_row_with_minus_one_for_an_arrangement() {
    let hand = |text: &str| -> [Card; 13] { parse_cards(text).unwrap().try_into().unwrap() };
    let a = hand("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac");
    let b = hand("2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad");
    let (codes, specials) = batch_arrays(&[(a, None), (b, Some(2))]);
    assert_eq!(codes.len(), 26);
    // code = (rank - 2) * 4 + suit, diamonds 0 and clubs 1: 2c, 2d and Ad.
    assert_eq!((codes[0], codes[13], codes[25]), (1, 0, 48));
    assert_eq!(specials, vec![-1, 2]);
}

#[test]
fn refusals_of_text_and_seeds_name_what_was_given() {
    let e = Error::not_unicode("strategy", "'ev\\ud800'");
    assert_eq!(e.class(), "ThirteenError");
    assert_eq!(
        e.to_string(),
        "strategy is not valid Unicode text (a lone surrogate): 'ev\\ud800'"
    );
    let e = RuleFile::not_unicode("'{\\ud800}'");
    assert_eq!((e.class(), e.details()[0].0), ("RuleSetError", "key"));
    assert!(e
        .to_string()
        .starts_with("rule set key '<json>': the JSON is not valid Unicode"));
    let e = seed_error(-1);
    assert_eq!(
        e.to_string(),
        "a seed is an integer from 0 to 2**64 - 1, got -1"
    );
}
