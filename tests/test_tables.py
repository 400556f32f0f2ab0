"""Lane tables: which tables a rule set plays with (keyed by what changes play), the bounded
cache, training (reproducible, logged, stopping at a tolerance), and the exact search."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
import warnings
from typing import Any, Dict, List, Tuple

import pytest

import thirteen
from thirteen import RuleSet, TableSet, TablesWarning
from thirteen import _core
from thirteen import table_store as store
from thirteen.rules import PRESET_NAMES


def test_size_groups_follow_the_home_run_rule() -> None:
    # RULES.md 6: kaixin's home run needs 3 players dealt in, shisanzhang's 4, western has none.
    assert store.size_groups(RuleSet.preset("kaixin")) == [(2,), (3,), (4,)]
    assert store.size_groups(RuleSet.preset("shisanzhang")) == [(2, 3), (4,)]
    assert store.size_groups(RuleSet.preset("western-2-4")) == [(2, 3, 4)]


def test_play_key_ignores_name_money_escape_and_rake() -> None:
    kaixin = RuleSet.preset("kaixin")
    house = kaixin.replace(name="house", escape=None, cut=True, horse_card="Ah",
                           surrender={"allowed": True, "units": 3})
    assert store.key_digest(store.play_key(house)) == store.key_digest(store.play_key(kaixin))
    richer = kaixin.replace(lane_values={"front": {"base": 1, "three_of_a_kind": 5}})
    assert store.key_digest(store.play_key(richer)) != store.key_digest(store.play_key(kaixin))


def test_every_preset_ships_exact_tables_for_every_size() -> None:
    ships = store.shipped()
    # One file per play key: kaixin-swap plays with kaixin's (swapping is not a play key).
    assert "kaixin-swap" not in ships
    assert store.play_key(RuleSet.preset("kaixin-swap")) == store.play_key(RuleSet.preset("kaixin"))
    by_digest = {ts.digest: ts for ts in ships.values()}
    for rules in [RuleSet.preset(name) for name in PRESET_NAMES] + [RuleSet.default()]:
        ts = by_digest[store.key_digest(store.play_key(rules))]
        assert ts.key == store.play_key(rules)
        assert [s.players for s in ts.sizes] == store.size_groups(rules)
        for s in ts.sizes:
            assert s.log, "the convergence log ships with the tables"
            assert all(sum(c for _, c in s.counts[lane]) > 0 for lane in ("front", "middle", "back"))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            thirteen.lane_tables(rules, max(rules.players))


def test_a_renamed_preset_uses_the_preset_tables_without_warning() -> None:
    house = RuleSet.preset("kaixin").replace(name="my house")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mine = thirteen.lane_tables(house, 4)
    assert mine.counts() == thirteen.lane_tables(RuleSet.preset("kaixin"), 4).counts()


def test_a_custom_play_key_warns_once_and_uses_the_nearest_tables() -> None:
    custom = RuleSet.preset("kaixin").replace(name="royal front", lane_values={"front": {"base": 1, "three_of_a_kind": 9}})
    with pytest.warns(TablesWarning, match="lane_values"):
        t = thirteen.lane_tables(custom, 3)
    assert t.counts() == thirteen.lane_tables(RuleSet.preset("kaixin"), 3).counts()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        thirteen.lane_tables(custom, 3)
        thirteen.solve("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc", custom, players=3)


def test_the_cache_is_bounded_and_can_be_cleared() -> None:
    base = RuleSet.preset("bianfeng")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TablesWarning)
        for i in range(store.CACHE_SIZE + 8):
            r = base.replace(name=f"r{i}", lane_values={"back": {"base": 1, "four_of_a_kind": 4 + i}})
            thirteen.lane_tables(r, 2)
    assert store.cache_size() == store.CACHE_SIZE
    thirteen.clear_table_cache()
    assert store.cache_size() == 0


def test_solve_reads_the_cache_as_it_is_now() -> None:
    # `solve`'s path to its tables (the most recent entry read without the LRU update)
    # hands back the cached entry, a fresh one after the cache is cleared, and a rule set's
    # registered tables once they are registered.
    rules = RuleSet.preset("western-2-4").replace(name="fresh", majority_bonus=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TablesWarning)
        first = store.cached_lane_tables(rules, 2)
        assert store.cached_lane_tables(rules, 2) is first
        assert thirteen.lane_tables(rules, 2) is first
        thirteen.clear_table_cache()
        second = store.cached_lane_tables(rules, 2)
    assert second is not first and store.cache_size() == 1
    ts = thirteen.train(rules, players=[2], deals=30, iterations=2, seed=3)
    thirteen.register_tables(ts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        third = store.cached_lane_tables(rules, 2)
    assert third is not second
    assert third.counts() == ts.lane_tables(rules, 2).counts()
    assert third.counts() != second.counts()


def test_the_cache_drops_the_least_recently_used_through_solves_path(monkeypatch) -> None:
    # Two entries kept: the one read again (through the lock, then through the read that
    # skips it) stays; the one left unread goes when a third comes.
    monkeypatch.setattr(store, "CACHE_SIZE", 2)
    thirteen.clear_table_cache()
    base = RuleSet.preset("western-2-4")
    k1, k2, k3 = (base.replace(name=f"k{i}", majority_bonus=i) for i in (2, 3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TablesWarning)
        t1 = store.cached_lane_tables(k1, 2)
        t2 = store.cached_lane_tables(k2, 2)
        assert store.cached_lane_tables(k1, 2) is t1
        assert store.cached_lane_tables(k1, 2) is t1
        store.cached_lane_tables(k3, 2)
        assert store.cache_size() == 2
        assert store.cached_lane_tables(k1, 2) is t1
        assert store.cached_lane_tables(k2, 2) is not t2
    thirteen.clear_table_cache()


def test_training_is_byte_identical_and_logged() -> None:
    rules = RuleSet.preset("western-2-4")
    seen = []
    a = thirteen.train(rules, players=[2], deals=40, iterations=3, tolerance=0, seed=5,
                       progress=lambda g, it, hands, change, gap: seen.append((g, it, hands)))
    b = thirteen.train(rules, players=[2], deals=40, iterations=3, tolerance=0, seed=5)
    assert a.to_bytes() == b.to_bytes()
    assert seen == [((2,), 0, 80), ((2,), 1, 80), ((2,), 2, 80)]
    assert [r[0] for r in a.sizes[0].log] == [0, 1, 2]
    # Weighted by iteration: 80 hands × (1 + 2 + 3) per lane.
    assert sum(c for _, c in a.sizes[0].counts["front"]) == 80 * 6
    assert TableSet.from_bytes(a.to_bytes()) == a
    # Another seed deals other cards, even one that differs from it only in the low bits
    # (the counts, not just the recorded settings, differ).
    other = thirteen.train(rules, players=[2], deals=40, iterations=3, tolerance=0, seed=6)
    assert other.sizes[0].counts != a.sizes[0].counts


def test_training_stops_at_the_tolerance() -> None:
    # Linear averaging moves the tables by at most 2 / (t + 2) at iteration t: iteration 1
    # moves them by at most 2/3, below a tolerance of 0.9.
    ts = thirteen.train(RuleSet.preset("western-2-4"), players=[2], deals=20, iterations=10, tolerance=0.9)
    assert len(ts.sizes[0].log) == 2


def test_registered_tables_serve_their_play_key() -> None:
    custom = RuleSet.preset("western-2-4").replace(name="w", majority_bonus=2)
    ts = thirteen.train(custom, players=[2], deals=30, iterations=2, seed=1)
    thirteen.register_tables(ts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = thirteen.lane_tables(custom.replace(name="w again"), 2)
    assert got.counts() == ts.lane_tables(custom, 2).counts()


def test_train_rejects_bad_arguments() -> None:
    rules = RuleSet.preset("kaixin")
    with pytest.raises(thirteen.PlayerCountError):
        thirteen.train(rules, players=[5])
    with pytest.raises(ValueError):
        thirteen.train(rules, deals=0)
    with pytest.raises(ValueError):
        thirteen.train(rules, tolerance=-1)


def test_train_command_writes_loadable_tables(tmp_path) -> None:
    out = tmp_path / "w.json.gz"
    run = subprocess.run(
        [sys.executable, "-m", "thirteen.cli", "train", "--rules", "western-2-4", "--players", "2",
         "--deals", "20", "--iterations", "2", "--out", str(out), "--json"],
        capture_output=True, text=True, check=True,
    )
    report = json.loads(run.stdout)
    assert [row["iteration"] for row in report["log"]] == [0, 1]
    assert TableSet.load(out).key == store.play_key(RuleSet.preset("western-2-4"))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_ev_search_equals_a_full_scan(name: str) -> None:
    """The pruned search finds the best expected units a scan of every legal split finds, with
    card removal (the default) and without; on these hands some frontier is ended from the
    middles' side (about one hand in twenty on the shipped tables)."""
    rules = RuleSet.preset(name)
    rng = random.Random(name)
    deck = thirteen.deck(rules)
    side_ended = 0
    for players in rules.players:
        shipped = thirteen.lane_tables(rules, players)
        for i in range(40):
            tables = shipped if i % 3 else shipped.with_card_removal(False)
            hand = rng.sample(deck, 13)
            for banker in ([False, True] if rules.mode == "banker" else [False]):
                pruned, full, backs, scored, side = _core._ev_scan(
                    hand, rules, tables, players=players, banker=banker
                )
                assert pruned == full, (name, players, hand)
                side_ended += side
    assert side_ended > 0


# Hands whose best split is a pair of the middles' side after its first (its strongest
# middle): found among 81,000 random hands over every preset, the only ones a build that
# scored the first pair of the group alone got wrong.
SIDE_HANDS = [
    ("kaixin-extra", 2, "Ad Jd Qd Ac Kd 6d 2s 7d Kd Qd 4d As 5c"),
    ("kaixin-extra", 3, "6h Kd 4c 6c Kd Kc Tc Td Qd Ac 8d 5d 9h"),
    ("kaixin-extra", 4, "2h 6d 9h 9d 4s 9c 8d 7h 8d 4h Qd Kd 3d"),
    ("kaixin-extra", 4, "9d 4s 8d Qd Kd 5c Tc 4d Kd 4d 7d Ts 3h"),
]


@pytest.mark.parametrize(("name", "players", "hand"), SIDE_HANDS)
def test_every_pair_of_the_middles_side_is_scored(name: str, players: int, hand: str) -> None:
    """A frontier ended from the middles' side scores each pair of its group that could be
    best, not only the strongest middle's: the search equals the full scan."""
    rules = RuleSet.preset(name)
    tables = thirteen.lane_tables(rules, players)
    pruned, full, backs, scored, side = _core._ev_scan(hand, rules, tables, players=players)
    assert side > 0
    assert pruned == full


def _front_only_tables(rules: Any, **kw: Any) -> thirteen.LaneTables:
    """Tables where the opponent's front was king high twice, a pair of twos once and a pair
    of queens once; its middle and back always 7-5-4-3-2 (every middle and back beats them)."""
    v = lambda text: thirteen.evaluate(text, rules).value  # noqa: E731
    weak = [(v("7c 5d 4h 3s 2c"), 4)]
    front = [(v("Kd 9c 4s"), 2), (v("2s 2h 5c"), 1), (v("Qc Qh 3s"), 1)]
    return thirteen.LaneTables.from_counts(rules, front, weak, weak, **kw)


def test_card_removal_weighs_the_opponents_front_by_the_cards_held() -> None:
    """The ev model with card removal: the opponent's lanes are dealt from the unseen cards.
    Held: two queens, no king, no two. By hand, each front the opponent was seen with is
    weighed by the chance that the cards it names are unseen: king high 1 × C(39,2)/C(52,2)
    (its two other cards open), the twos C(4,2)/C(4,2) × 39/52 (one open), the queens
    C(2,2)/C(4,2) × 39/52."""
    # Heads-up, every lane worth 1, no scoop or majority bonus: a lane adds P(win) − P(lose).
    rules = RuleSet.preset("western-2-4").replace(name="lanes-only", majority_bonus=0)
    hand = "Qs Qd Ah Ac 3d 4d 5c 6h 7s 8c 9d Th Jc"
    k, twos, queens = 0.5 * 741 / 1326, 0.25 * 0.75, 0.25 * 0.75 / 6
    on = _front_only_tables(rules)
    off = _front_only_tables(rules, card_removal=False)
    assert on.card_removal and not off.card_removal
    assert not on.with_card_removal(False).card_removal
    assert pickle.loads(pickle.dumps(off)).card_removal is False
    # The front a pair of queens with a three: it ties the queens seen and beats the rest;
    # the middle and back win (2 units).
    best = lambda t: thirteen.complete(hand, rules, front="Qs Qd 3d", players=2, tables=t)[0]  # noqa: E731
    assert best(off).expected == pytest.approx(0.75 + 2.0, abs=1e-6)
    assert best(on).expected == pytest.approx((k + twos) / (k + twos + queens) + 2.0, abs=1e-6)
    # The extra-diamonds deck (a card may be held twice): never weighed.
    assert not thirteen.lane_tables(RuleSet.preset("kaixin-extra"), 4).card_removal


FALLING = {
    # A front pair worth more than front trips (RULES.md 6 allows any lane values).
    "front": {"lane_values": {"front": {"base": 1, "one_pair": 9, "three_of_a_kind": 3}}},
    # Middle quads worth less than a middle full house.
    "middle": {"lane_values": {"middle": {"base": 1, "full_house": 4, "four_of_a_kind": 2}}},
    # The same with the banker winning ties: a player's bounds are not priced at the
    # envelope there, the banker's are.
    "banker": {"mode": "banker", "banker_wins_ties": True,
               "lane_values": {"middle": {"base": 1, "full_house": 4, "four_of_a_kind": 2}}},
}


@pytest.mark.parametrize("case", sorted(FALLING))
def test_ev_search_equals_a_full_scan_when_lane_values_fall(case: str) -> None:
    """With lane values that fall as the category rises, the search still finds what a scan of
    every legal split finds, and its bounds still leave most splits unscored."""
    rules = RuleSet.preset("kaixin").replace(name=f"falling-{case}", **FALLING[case])
    rng = random.Random(case)
    deck = thirteen.deck(rules)
    fixed = ["Ah Ad Ac Kh Kd 7s 7c 4h 4d 9s 3c 2h 5s", "9h 9d 9c 9s Qh Qd Qc 5h 5d 2s 3c 7h Jd"]
    scored_all = searches = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", thirteen.TablesWarning)
        for players in (2, 4):
            tables = thirteen.lane_tables(rules, players)
            for i in range(6):
                hand = thirteen.parse_cards(fixed[i]) if i < len(fixed) else rng.sample(deck, 13)
                for banker in ([False, True] if rules.mode == "banker" else [False]):
                    pruned, full, backs, scored, _ = _core._ev_scan(
                        hand, rules, tables, players=players, banker=banker
                    )
                    assert pruned == full, (case, players, hand, banker)
                    if banker or rules.mode != "banker":
                        searches += 1
                        scored_all += scored
    # A full scan scores thousands of legal splits a hand.
    assert scored_all < 1000 * searches, (scored_all, searches)


def test_lane_table_counts_are_checked() -> None:
    # Issue 9: a raw value that is no hand's (category 15) used to panic the core.
    with pytest.raises(thirteen.ThirteenError):
        thirteen.LaneTables.from_counts(None, [(0xF0000000, 1)], [], [])
    with pytest.raises(thirteen.LimitError):
        thirteen.LaneTables.from_counts(None, [(-1, 1)], [], [])
    with pytest.raises(thirteen.LimitError):
        thirteen.LaneTables.from_counts(None, [], [(2**40, 1)], [])
    pair = thirteen.evaluate("Ah Ad 3c").value
    with pytest.raises(thirteen.LimitError):
        thirteen.LaneTables.from_counts(None, [(pair, -5)], [], [])
    # A 3-card value is not a 5-card lane's.
    with pytest.raises(thirteen.ThirteenError):
        thirteen.LaneTables.from_counts(None, [], [(pair, 1)], [])
    assert thirteen.LaneTables.from_counts(None, [(pair, 2)], [], []).samples == 2


def test_shipped_tables_hold_classes_that_add_up_to_the_lanes() -> None:
    # Every shipped table size has the 16 classes of the joint model, and value by value the
    # classes' counts add up to the lanes' (so no hand is counted twice or lost).
    for name, ts in store.shipped().items():
        for s in ts.sizes:
            assert len(s.counts["classes"]) == 16, name
            for lane in ("front", "middle", "back"):
                total: Dict[int, int] = {}
                for c in s.counts["classes"]:
                    for v, n in c[lane]:
                        total[v] = total.get(v, 0) + n
                assert sorted(total.items()) == sorted(s.counts[lane]), (name, lane)
            tables = ts.lane_tables(RuleSet.preset(name) if name != "default" else RuleSet.default(),
                                    s.players[0])
            assert len(tables.counts()["classes"]) == 16


def test_shipped_tables_are_what_train_makes_with_its_defaults() -> None:
    # `make tables` runs `thirteen train` with its defaults: every shipped file records them,
    # and each table size stopped at the tolerance before the iteration cap.
    from thirteen.training import DEFAULTS

    for name, ts in store.shipped().items():
        assert ts.settings == DEFAULTS, name
        for s in ts.sizes:
            last = s.log[-1]
            assert last[2] < DEFAULTS["tolerance"], (name, s.players)
            assert len(s.log) < DEFAULTS["iterations"], (name, s.players)


def test_a_table_file_without_classes_still_loads() -> None:
    # An earlier release's file holds the lanes only: it loads, and prices with lanes independent.
    ts = store.shipped()["kaixin"]
    bare = TableSet(key=ts.key, sizes=tuple(
        store.SizeTables(players=s.players, counts={lane: s.counts[lane] for lane in ("front", "middle", "back")},
                         log=s.log) for s in ts.sizes), settings=ts.settings, name=ts.name)
    again = TableSet.from_bytes(bare.to_bytes())
    tables = again.lane_tables(RuleSet.preset("kaixin"), 4)
    assert "classes" not in tables.counts()
    assert tables.counts()["back"] == ts.lane_tables(RuleSet.preset("kaixin"), 4).counts()["back"]
    hand = "2s 2h 5d 7c 9s Jh Kd 3c 6s 8h Td Qc 4d"  # no special
    assert thirteen.solve(hand, RuleSet.preset("kaixin"), tables=tables).arrangement is not None


def test_class_counts_are_checked() -> None:
    pair, high = thirteen.evaluate("Ah Ad 3c").value, thirteen.evaluate("Kh 9d 3c").value
    five = thirteen.evaluate("2s 2h 3d 3c 9s").value
    lanes = ([(pair, 1), (high, 1)], [(five, 2)], [(five, 2)])
    empty: Dict[str, List[Tuple[int, int]]] = {"front": [], "middle": [], "back": []}
    classes: List[Any] = [dict(empty) for _ in range(16)]
    classes[8] = {"front": [(pair, 1)], "middle": [(five, 1)], "back": [(five, 1)]}
    classes[1] = {"front": [(high, 1)], "middle": [(five, 1)], "back": [(five, 1)]}
    t = thirteen.LaneTables.from_counts(None, *lanes, classes)
    assert t.counts()["classes"] == classes and t.samples == 2
    assert pickle.loads(pickle.dumps(t)).counts() == t.counts()
    assert "classes" not in thirteen.LaneTables.from_counts(None, *lanes).counts()
    with pytest.raises(thirteen.ThirteenError, match="16 classes"):
        thirteen.LaneTables.from_counts(None, *lanes, classes[:15])
    with pytest.raises(thirteen.ThirteenError, match="front counts do not add up"):
        thirteen.LaneTables.from_counts(None, *lanes, [classes[8]] * 2 + classes[2:])
    with pytest.raises(TypeError, match="class 5 must be a dict"):
        thirteen.LaneTables.from_counts(None, *lanes, classes[:5] + [[]] + classes[6:])
    with pytest.raises(thirteen.ThirteenError, match="class 0 has no back counts"):
        thirteen.LaneTables.from_counts(None, *lanes, [{"front": [], "middle": [], "rear": []}] + classes[1:])
    with pytest.raises(thirteen.ThirteenError, match="3-card"):
        bad = [dict(c) for c in classes]
        bad[1] = {**classes[1], "front": [(five, 1)]}
        thirteen.LaneTables.from_counts(None, *lanes, bad)


def test_train_arguments_are_bounded() -> None:
    rules = RuleSet.preset("western-2-4")
    with pytest.raises(thirteen.LimitError):
        thirteen.train(rules, deals=2**70)
    with pytest.raises(thirteen.LimitError):
        thirteen.train(rules, seed=-1)
    with pytest.raises(TypeError):
        thirteen.train(rules, iterations=True)
    with pytest.raises(TypeError):
        thirteen.train("kaixin")  # type: ignore[arg-type]


def test_explain_gives_the_models_terms_worked_by_hand() -> None:
    """``_core._explain`` on the card-removal example above: the front (a pair of queens)
    wins with P (k + twos) / (k + twos + queens) and never loses (it ties the queens); the
    middle and back always win; without classes a scoop is the lanes' product."""
    rules = RuleSet.preset("western-2-4").replace(name="lanes-only", majority_bonus=0)
    hand = "Qs Qd Ah Ac 3d 4d 5c 6h 7s 8c 9d Th Jc"
    k, twos, queens = 0.5 * 741 / 1326, 0.25 * 0.75, 0.25 * 0.75 / 6
    w = (k + twos) / (k + twos + queens)
    for tables, front in ((_front_only_tables(rules), w),
                          (_front_only_tables(rules, card_removal=False), 0.75)):
        best = thirteen.complete(hand, rules, front="Qs Qd 3d", players=2, tables=tables)[0]
        lanes, scoop, scooped, units = _core._explain(best.arrangement, rules, tables, players=2)
        assert lanes[0] == pytest.approx((front, 0.0), abs=1e-6)
        assert lanes[1] == pytest.approx((1.0, 0.0)) and lanes[2] == pytest.approx((1.0, 0.0))
        assert scoop == pytest.approx(front, abs=1e-6) and scooped == 0.0
        assert units == pytest.approx(front + 2.0, abs=1e-6)
        assert units == pytest.approx(best.expected, abs=1e-9)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_explain_prices_the_solved_arrangement_as_solve_does(name: str) -> None:
    rules = RuleSet.preset(name)
    rng = random.Random(f"explain-{name}")
    deck = thirteen.deck(rules)
    players = max(rules.players)
    tables = thirteen.lane_tables(rules, players)
    for _ in range(4):
        s = thirteen.solve(rng.sample(deck, 13), rules, players=players)
        if s.arrangement is None:
            continue
        lanes, scoop, scooped, units = _core._explain(s.arrangement, rules, tables, players=players)
        assert units == pytest.approx(s.expected, abs=1e-9)
        assert all(0.0 <= p <= 1.0 + 1e-6 for lane in lanes for p in (*lane, sum(lane)))
        assert 0.0 <= scoop and 0.0 <= scooped and scoop + scooped <= 1.0 + 1e-6


def test_explain_refuses_bad_arguments() -> None:
    rules = RuleSet.preset("kaixin")
    tables = thirteen.lane_tables(rules, 4)
    a = thirteen.Arrangement.parse("9s 8s 8d | Ah Ad 5h 5c 3d | 7c 7d 4h 4c 4d")
    with pytest.raises(thirteen.PlayerCountError):
        _core._explain(a, rules, tables, players=5)
    with pytest.raises(TypeError):
        _core._explain("9s 8s 8d", rules, tables)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _core._explain(a, 7, tables)  # type: ignore[arg-type]


def test_registered_tables_serve_only_the_sizes_they_hold(monkeypatch) -> None:
    # Tables trained for two players serve two players; at four the preset's shipped tables
    # of the same play key stay in use (they were trained for four).
    monkeypatch.setattr(store, "_REGISTERED", {})
    thirteen.clear_table_cache()
    try:
        rules = RuleSet.preset("kaixin")
        shipped4 = thirteen.lane_tables(rules, 4).counts()
        ts = thirteen.train(rules, players=[2], deals=30, iterations=2, seed=1)
        thirteen.register_tables(ts)
        assert thirteen.lane_tables(rules, 2).counts() == ts.lane_tables(rules, 2).counts()
        assert thirteen.lane_tables(rules, 4).counts() == shipped4
        assert store.cached_lane_tables(rules, 4).counts() == shipped4
    finally:
        thirteen.clear_table_cache()


def test_the_tables_warning_points_at_the_callers_line() -> None:
    # From `solve`, `hints` or `lane_tables` alike, the warning names the line that called
    # the package, not a line inside it.
    thirteen.clear_table_cache()
    base = RuleSet.preset("western-2-4")
    hand = "2d 2c 4h 4c 6d 6c 8d 8s Tc Ts Qc Qs Ac"
    calls = (
        lambda r: thirteen.solve(hand, r, players=2),
        lambda r: thirteen.hints(hand, r, players=2),
        lambda r: thirteen.lane_tables(r, 2),
    )
    for i, call in enumerate(calls):
        rules = base.replace(name=f"warned{i}", majority_bonus=5 + i)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            call(rules)
        assert [w.filename for w in seen if issubclass(w.category, TablesWarning)] == [__file__]
    thirteen.clear_table_cache()
