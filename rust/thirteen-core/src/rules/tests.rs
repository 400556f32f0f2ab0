//! The schema's checks, key by key (RULES.md 6): each refused file names the key that
//! RULES.md 6 and the Python `RuleSet` name for it.

use super::*;

use crate::cards::Category;
use crate::error::{Error, Lane};
use crate::given::Given;

const FLAT: &str = r#""lane_values":{"front":{"base":1},"middle":{"base":1},"back":{"base":1}}"#;

/// A file of the flat lanes and `extra` (more keys, comma-led).
fn file(extra: &str) -> String {
    format!("{{{FLAT}{extra}}}")
}

fn refused_at(json: &str) -> String {
    match Rules::from_json(json) {
        Err(Error::RuleSet { key, .. }) => key,
        other => panic!("{json} gave {other:?}"),
    }
}

#[test]
fn reads_a_preset_shaped_json() {
    let json = r#"{"name":"shisanzhang","wheel":"low","tie_break":"none","mode":"all_pairs",
      "lane_values":{"front":{"base":1,"three_of_a_kind":7},"middle":{"base":2,"four_of_a_kind":10,"straight_flush":12},
      "back":{"base":3,"four_of_a_kind":11,"straight_flush":13}},
      "scoop":{"kind":"bonus","units":6},"home_run":{"kind":"bonus","units":12,"min_players":4},
      "foul":"reject","specials":{"dragon":36},"cut":true,"horse_card":null,"escape":null,"swap":null}"#;
    let r = Rules::from_json(json).unwrap();
    assert_eq!(r.lane_value(Lane::Middle, Category::FourOfAKind), 10);
    assert_eq!(r.lane_value(Lane::Middle, Category::FullHouse), 2);
    assert_eq!(r.lane_value(Lane::Front, Category::ThreeOfAKind), 7);
    assert_eq!(r.scoop, Scoop::bonus(6));
    assert_eq!(r.home_run, HomeRun::bonus(12, 4));
    assert_eq!(r.specials.units(Special::Dragon), 36);
    assert_eq!(r.specials.tier(Special::Dragon), 0);
    assert!(r.cut);
    assert_eq!(refused_at(r#"{"wheel":"middle"}"#), "wheel");
}

#[test]
fn the_canonical_form_is_what_python_writes() {
    let f = RuleFile::from_json(&file(
        r#","players":[4,2],"specials":{"six_pairs":4,"dragon":36},
        "special_tiers":[["six_pairs"],["dragon"]],"horse_card":" a♠ ","twelve_royals_from":"10",
        "escape":{"to":"winner","by_players":{" 4":3,"2":1}},"surrender":{"allowed":false}"#,
    ))
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&f.to_json()).unwrap();
    assert_eq!(v["players"], serde_json::json!([2, 4]));
    assert_eq!(
        v["specials"],
        serde_json::json!({"dragon": 36, "six_pairs": 4})
    );
    assert_eq!(
        v["special_tiers"],
        serde_json::json!([["six_pairs"], ["dragon"]])
    );
    assert_eq!(v["horse_card"], "As");
    assert_eq!(v["twelve_royals_from"], "T");
    assert_eq!(
        v["escape"],
        serde_json::json!({"to": "winner", "by_players": {"2": 1, "4": 3}})
    );
    assert_eq!(
        v["surrender"],
        serde_json::json!({"allowed": false, "units": 0})
    );
    assert_eq!(v["scoop"], serde_json::json!({"kind": "none"}));
    assert_eq!(v["lane_values"]["front"], serde_json::json!({"base": 1}));
    // The canonical form reads back as itself.
    assert_eq!(RuleFile::from_json(&f.to_json()).unwrap(), f);
    let r = Rules::from(&f);
    assert_eq!(r.specials.tier(Special::SixPairs), 0);
    assert_eq!(r.escape.unwrap().by_players, [0, 0, 1, 0, 3]);
}

#[test]
fn table_sizes_and_deals_must_fit_the_deck() {
    assert_eq!(refused_at(r#"{"players":[]}"#), "players");
    assert_eq!(refused_at(r#"{"players":[0]}"#), "players");
    assert_eq!(refused_at(r#"{"players":[5]}"#), "players");
    assert_eq!(refused_at(r#"{"players":[2,2]}"#), "players");
    assert_eq!(refused_at(r#"{"players":[2,true]}"#), "players");
    assert_eq!(refused_at(r#"{"dealt":14}"#), "dealt");
    // 16 cards to 4 players is 64 cards: more than 52, within 65.
    assert_eq!(refused_at(r#"{"dealt":16}"#), "dealt");
    assert!(Rules::from_json(r#"{"dealt":16,"players":[2,3]}"#).is_ok());
    assert!(Rules::from_json(r#"{"dealt":16,"deck":"extra_diamonds"}"#).is_ok());
    let r = Rules::from_json(r#"{"players":[4,2]}"#).unwrap();
    assert_eq!(r.check_players(4), Ok(4));
    assert!(matches!(
        r.check_players(3),
        Err(Error::BadPlayerCount {
            got: Given::Int(3),
            ..
        })
    ));
    assert!(r.check_players(-2).is_err());
}

#[test]
fn amounts_are_bounded() {
    let r = Rules::from_json(
        r#"{"lane_values":{"front":{"base":1},"middle":{"base":1},"back":{"base":10000}}}"#,
    )
    .unwrap();
    assert_eq!(r.lane_value(Lane::Back, Category::HighCard), 10_000);
    for (json, key) in [
        (
            r#"{"lane_values":{"front":{"base":1},"middle":{"base":1},"back":{"base":10001}}}"#,
            "lane_values.back.base",
        ),
        (
            r#"{"lane_values":{"front":{"base":1,"one_pair":-1},"middle":{"base":1},"back":{"base":1}}}"#,
            "lane_values.front.one_pair",
        ),
    ] {
        assert_eq!(refused_at(json), key, "{json}");
    }
    for (extra, key) in [
        (r#","majority_bonus":4611686018427387904"#, "majority_bonus"),
        (r#","majority_bonus":-1"#, "majority_bonus"),
        (r#","scoop":{"kind":"bonus","units":20000}"#, "scoop.units"),
        (
            r#","home_run":{"kind":"bonus","units":20000,"min_players":3}"#,
            "home_run.units",
        ),
        (
            r#","surrender":{"allowed":true,"units":20000}"#,
            "surrender.units",
        ),
        (r#","specials":{"dragon":20000}"#, "specials.dragon"),
        (r#","escape":{"to":"split","units":20000}"#, "escape.units"),
        (
            r#","escape":{"to":"winner","by_players":{"2":20000,"3":1,"4":1}}"#,
            "escape.by_players.2",
        ),
        // Beyond i64.
        (r#","majority_bonus":9223372036854775808"#, "majority_bonus"),
        (
            r#","majority_bonus":99999999999999999999999"#,
            "majority_bonus",
        ),
    ] {
        assert_eq!(refused_at(&file(extra)), key, "{extra}");
    }
}

/// Every refusal of the Python `RuleSet`'s tests (tests/test_rules.py), by key.
#[test]
fn each_bad_key_is_named() {
    for (extra, key) in [
        (r#","colour":"red""#, "colour"),
        (r#","scoop":{"kind":"double","factor":2}"#, "scoop.factor"),
        (r#","home_run":{"kind":"none","bonus":1}"#, "home_run.bonus"),
        (
            r#","surrender":{"allowed":false,"cost":1}"#,
            "surrender.cost",
        ),
        (
            r#","escape":{"to":"split","units":1,"cap":2}"#,
            "escape.cap",
        ),
        (r#","swap":{"max_cards":3,"min_cards":1}"#, "swap.min_cards"),
        (
            r#","specials":{"dragon":1,"royal_flush":2}"#,
            "specials.royal_flush",
        ),
        (r#","dealt":true"#, "dealt"),
        (r#","dealt":"13""#, "dealt"),
        (r#","majority_bonus":true"#, "majority_bonus"),
        (r#","majority_bonus":1.0"#, "majority_bonus"),
        (r#","banker_wins_ties":1"#, "banker_wins_ties"),
        (r#","cut":"yes""#, "cut"),
        (r#","name":7"#, "name"),
        (r#","players":"234""#, "players"),
        (r#","scoop":"double""#, "scoop"),
        (r#","specials":{"dragon":"36"}"#, "specials.dragon"),
        (
            r#","specials":{"dragon":1},"special_tiers":"dragon""#,
            "special_tiers",
        ),
        (r#","quads_as_two_pairs":null"#, "quads_as_two_pairs"),
        (r#","deck":"jokers""#, "deck"),
        (r#","deck":3"#, "deck"),
        (r#","wheel":"high""#, "wheel"),
        (r#","tie_break":"colour""#, "tie_break"),
        (r#","mode":"solo""#, "mode"),
        (r#","foul":"pay""#, "foul"),
        (r#","scoop":{"kind":"triple"}"#, "scoop.kind"),
        (r#","scoop":{"units":3}"#, "scoop.kind"),
        (r#","specials":{"dragon":0}"#, "specials.dragon"),
        (
            r#","specials":{"dragon":1},"special_tiers":[["dragon"],["bogus"]]"#,
            "special_tiers",
        ),
        (
            r#","specials":{"dragon":1,"six_pairs":1},"special_tiers":[["dragon","six_pairs"],["dragon"]]"#,
            "special_tiers",
        ),
        (
            r#","specials":{"dragon":1},"special_tiers":[["dragon"],[]]"#,
            "special_tiers",
        ),
        (
            r#","specials":{"dragon":1,"six_pairs":1},"special_tiers":[["dragon"]]"#,
            "special_tiers",
        ),
        (r#","banker_wins_ties":true"#, "banker_wins_ties"),
        (
            r#","mode":"banker","banker_wins_ties":true,"tie_break":"suit""#,
            "banker_wins_ties",
        ),
        (r#","scoop":{"kind":"bonus"}"#, "scoop.units"),
        (r#","scoop":{"kind":"bonus","units":0}"#, "scoop.units"),
        (r#","scoop":{"kind":"double","units":2}"#, "scoop.units"),
        (
            r#","scoop":{"kind":"double","min_players":3}"#,
            "scoop.min_players",
        ),
        (
            r#","home_run":{"kind":"bonus","min_players":3}"#,
            "home_run.units",
        ),
        (r#","home_run":{"kind":"double"}"#, "home_run.min_players"),
        (
            r#","home_run":{"kind":"double","min_players":2}"#,
            "home_run.min_players",
        ),
        (
            r#","home_run":{"kind":"none","min_players":3}"#,
            "home_run.min_players",
        ),
        (r#","surrender":{"allowed":true}"#, "surrender.units"),
        (
            r#","surrender":{"allowed":true,"units":0}"#,
            "surrender.units",
        ),
        (r#","surrender":{"units":3}"#, "surrender.allowed"),
        (r#","escape":{"to":"split"}"#, "escape.units"),
        (r#","escape":{"to":"split","units":0}"#, "escape.units"),
        (
            r#","escape":{"to":"split","units":3,"by_players":{"2":1}}"#,
            "escape.by_players",
        ),
        (r#","escape":{"units":3}"#, "escape.to"),
        (r#","escape":{"to":"loser","units":3}"#, "escape.to"),
        (r#","escape":{"to":"winner"}"#, "escape.by_players"),
        (
            r#","escape":{"to":"winner","by_players":{"2":12,"3":24}}"#,
            "escape.by_players",
        ),
        (
            r#","escape":{"to":"winner","units":5,"by_players":{"2":1}}"#,
            "escape.units",
        ),
        (
            r#","escape":{"to":"winner","by_players":{"2":1,"3":1,"4":1,"5":1}}"#,
            "escape.by_players.5",
        ),
        (
            r#","escape":{"to":"winner","by_players":{"2":1,"3":0,"4":1}}"#,
            "escape.by_players.3",
        ),
        (
            r#","escape":{"to":"winner","by_players":{"two":1}}"#,
            "escape.by_players.two",
        ),
        (r#","horse_card":"1h""#, "horse_card"),
        (r#","horse_card":"Ahh""#, "horse_card"),
        (r#","horse_card":"A""#, "horse_card"),
        (r#","horse_card":"Ax""#, "horse_card"),
        (r#","horse_card":"""#, "horse_card"),
        (r#","horse_card":14"#, "horse_card"),
        (r#","twelve_royals_from":"Q""#, "twelve_royals_from"),
        (r#","twelve_royals_from":11"#, "twelve_royals_from"),
        (r#","swap":{"max_cards":0}"#, "swap.max_cards"),
        (r#","swap":{"max_cards":14}"#, "swap.max_cards"),
        (r#","swap":{}"#, "swap.max_cards"),
    ] {
        assert_eq!(refused_at(&file(extra)), key, "{extra}");
    }
    for (json, key) in [
        (
            r#"{"lane_values":{"front":{"base":1},"middle":{"base":1}}}"#,
            "lane_values.back",
        ),
        (
            r#"{"lane_values":{"front":{"base":1},"middle":{},"back":{"base":1}}}"#,
            "lane_values.middle.base",
        ),
        (
            r#"{"lane_values":{"front":{"base":1},"middle":{"base":0},"back":{"base":1}}}"#,
            "lane_values.middle.base",
        ),
        (
            r#"{"lane_values":{"front":{"base":1.5},"middle":{"base":1},"back":{"base":1}}}"#,
            "lane_values.front.base",
        ),
        (r#"{"lane_values":{"side":{"base":1}}}"#, "lane_values.side"),
        (r#"{"lane_values":[1,2,3]}"#, "lane_values"),
        (
            r#"{"lane_values":{"front":{"base":1,"straight":2},"middle":{"base":1},"back":{"base":1}}}"#,
            "lane_values.front.straight",
        ),
        (
            r#"{"lane_values":{"front":{"base":1},"middle":{"base":1,"royal_flush":20},"back":{"base":1}}}"#,
            "lane_values.middle.royal_flush",
        ),
        (
            r#"{"lane_values":{"front":{"base":1},"middle":{"base":1},"back":{"base":1,"five_of_a_kind":6}}}"#,
            "lane_values.back.five_of_a_kind",
        ),
    ] {
        assert_eq!(refused_at(json), key, "{json}");
    }
    let extra = r#"{"deck":"extra_diamonds","lane_values":{"front":{"base":1},"middle":{"base":1},"back":{"base":1,"five_of_a_kind":6}}}"#;
    assert_eq!(
        Rules::from_json(extra)
            .unwrap()
            .lane_value(Lane::Back, Category::FiveOfAKind),
        6
    );
    assert_eq!(refused_at("[1, 2]"), "<json>");
    assert_eq!(refused_at("{} x"), "<json>");
}

#[test]
fn messages_say_what_was_expected_and_what_came() {
    let message = |extra: &str| Rules::from_json(&file(extra)).unwrap_err().to_string();
    assert_eq!(
        message(r#","deck":"jokers""#),
        "rule set key 'deck': must be one of 'standard', 'extra_diamonds', got 'jokers'"
    );
    assert_eq!(
        message(r#","majority_bonus":-1"#),
        "rule set key 'majority_bonus': must be at least 0, got -1"
    );
    assert!(message(r#","dealt":16"#).contains("52"));
    assert!(message(r#","majority_bonus":1.5"#).contains("expected an integer"));
    assert!(message(r#","colour":1"#).contains("unknown field `colour`"));
}

#[test]
fn the_options_table_lists_each_choice() {
    let o = schema::options();
    assert_eq!(o["deck"], serde_json::json!(["standard", "extra_diamonds"]));
    assert_eq!(o["dealt"], serde_json::json!([13, 16]));
    assert_eq!(
        o["bonus_kind"],
        serde_json::json!(["none", "double", "bonus"])
    );
    assert_eq!(o["twelve_royals_from"], serde_json::json!(["J", "T"]));
    assert_eq!(o["keys"][0], "name");
    assert_eq!(o["keys"].as_array().unwrap().len(), 24);
    assert_eq!(o["specials"][12], "three_flushes");
    assert_eq!(special_keys()[1], "dragon");
}
