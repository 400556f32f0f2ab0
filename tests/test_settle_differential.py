"""Differential properties of special hands and settlement (RULES.md 4 and 5).

Random deals (2 to 4 players, both decks), random rule sets (every preset plus random valid
overrides, banker mode included), arrangements from a simple non-fouling split or a random
one, and declarations where a special is held. For each table the Rust core and the
pure-Python reference must agree on every field of the result, or raise the same error
(class, kind and player). Also: totals sum to zero, seats can be swapped, and a player
scooped by everyone never has a positive total.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import thirteen
import thirteen.reference as ref
from thirteen.errors import ThirteenError
from thirteen.rules import PRESET_NAMES, SPECIAL_KEYS, RuleSet

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=False,
)


def random_rules(rng: random.Random) -> RuleSet:
    """A preset, often with random valid overrides (RULES.md 6)."""
    base = rng.choice(PRESET_NAMES)
    over: Dict[str, Any] = {"base": base}
    if rng.random() < 0.7:
        if rng.random() < 0.5:
            over["wheel"] = rng.choice(["low", "second"])
        if rng.random() < 0.5:
            over["foul"] = rng.choice(["reject", "lose_all"])
            over["foul_counts_as_scoop"] = rng.random() < 0.5
        if rng.random() < 0.4:
            over["majority_bonus"] = rng.randint(0, 2)
        if rng.random() < 0.5:
            kind = rng.choice(["none", "double", "bonus"])
            over["scoop"] = {"kind": kind, **({"units": rng.randint(1, 6)} if kind == "bonus" else {})}
        if rng.random() < 0.5:
            kind = rng.choice(["none", "double", "bonus"])
            hr: Dict[str, Any] = {"kind": kind}
            if kind != "none":
                hr["min_players"] = rng.choice([3, 4])
            if kind == "bonus":
                hr["units"] = rng.randint(1, 12)
            over["home_run"] = hr
        if rng.random() < 0.3:
            over["horse_card"] = rng.choice(["As", "Th", "5c", "2d", "Kd"])
        if rng.random() < 0.4:
            keys = rng.sample(list(SPECIAL_KEYS), rng.randint(1, len(SPECIAL_KEYS)))
            over["specials"] = {k: rng.randint(1, 40) for k in keys}
            over["quads_as_two_pairs"] = rng.random() < 0.5
            over["a23_is_straight"] = rng.random() < 0.5
            over["twelve_royals_from"] = rng.choice(["J", "T"])
        if rng.random() < 0.3:
            over["mode"] = "banker"
            over["tie_break"] = rng.choice(["none", "suit"])
            over["banker_wins_ties"] = over["tie_break"] == "none" and rng.random() < 0.6
        elif rng.random() < 0.3:
            over["mode"] = "all_pairs"
            over["banker_wins_ties"] = False
            over["tie_break"] = rng.choice(["none", "suit"])
    return RuleSet.from_dict(over)


def deal(rng: random.Random, rules: RuleSet, players: int) -> List[List[str]]:
    cards = [str(c) for c in ref.deck(rules)]
    rng.shuffle(cards)
    hands = [cards[13 * i : 13 * (i + 1)] for i in range(players)]
    # Now and then give a player a hand rich in specials (pairs, one suit, a run).
    if rng.random() < 0.5:
        seat = rng.randrange(players)
        used = {c for i, h in enumerate(hands) if i != seat for c in h}
        pool = [c for c in cards if c not in used]
        pattern = rng.choice(["pairs", "suit", "run", "big"])
        if pattern == "pairs":
            pool.sort(key=lambda c: ref.Card.parse(c).rank)
        elif pattern == "suit":
            pool.sort(key=lambda c: (ref.Card.parse(c).suit, rng.random()))
        elif pattern == "run":
            pool.sort(key=lambda c: (rng.random() < 0.5, ref.Card.parse(c).rank))
        else:
            pool.sort(key=lambda c: -ref.Card.parse(c).rank)
        start = rng.randrange(0, max(1, len(pool) - 13))
        hands[seat] = pool[start : start + 13]
    return hands


def build(impl: Any, rng: random.Random, hands: List[List[str]], rules: RuleSet,
          plan: List[Tuple[str, Any]]) -> List[Any]:
    subs = []
    for hand, (how, extra) in zip(hands, plan):
        if how == "declare":
            subs.append(impl.Declaration(" ".join(hand), extra))
        else:
            front, middle, back = extra
            subs.append(impl.Arrangement(" ".join(front), " ".join(middle), " ".join(back), rules=rules))
    return subs


def make_plan(rng: random.Random, hands: List[List[str]], rules: RuleSet) -> List[Tuple[str, Any]]:
    plan: List[Tuple[str, Any]] = []
    for hand in hands:
        held = ref.find_special(" ".join(hand), rules)
        if held is not None and rng.random() < 0.7:
            named: Optional[str] = rng.choice([None, held.key])
            plan.append(("declare", named))
            continue
        # Mostly a legal split (the first of a few random tries that does not foul), else
        # whatever random split comes (fouls are part of the game too).
        tries = 12 if rng.random() < 0.8 else 1
        for _ in range(tries):
            shuffled = hand[:]
            rng.shuffle(shuffled)
            split = (shuffled[:3], shuffled[3:8], shuffled[8:])
            arrangement = ref.Arrangement(*(" ".join(lane) for lane in split), rules=rules)
            if not ref.is_foul(arrangement, rules):
                break
        plan.append(("arrange", split))
    return plan


def outcome(impl: Any, subs: List[Any], rules: RuleSet, **kw: Any) -> Any:
    try:
        return impl.settle(subs, rules, **kw).to_dict()
    except ThirteenError as e:
        return ("error", type(e).__name__, e.kind, getattr(e, "player", None), getattr(e, "card", None))


def table_args(rng: random.Random, rules: RuleSet, n: int) -> Dict[str, Any]:
    kw: Dict[str, Any] = {}
    if rules.mode == "banker":
        kw["banker"] = rng.randrange(n)
        kw["stakes"] = [rng.randint(1, 3) for _ in range(n)]
    if rules.surrender.allowed and rng.random() < 0.3:
        kw["surrendered"] = [rng.randrange(n)]
    return kw


class Table(NamedTuple):
    """A random table: its generator (which builds the submissions next), rules, size, hands,
    each seat's plan and the keywords of ``settle``."""

    rng: random.Random
    rules: RuleSet
    n: int
    hands: List[List[str]]
    plan: List[Tuple[str, Any]]
    kw: Dict[str, Any]


def random_table(seed: int) -> Table:
    rng = random.Random(seed)
    rules = random_rules(rng)
    n = rng.choice(list(rules.players))
    hands = deal(rng, rules, n)
    plan = make_plan(rng, hands, rules)
    return Table(rng, rules, n, hands, plan, table_args(rng, rules, n))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_settlement_core_equals_reference(seed: int) -> None:
    rng, rules, n, hands, plan, kw = random_table(seed)
    core = outcome(thirteen, build(thirteen, rng, hands, rules, plan), rules, **kw)
    expected = outcome(ref, build(ref, rng, hands, rules, plan), rules, **kw)
    assert core == expected, (rules.to_dict(), hands, plan, kw)
    if isinstance(core, dict):
        assert sum(core["totals"]) == 0
        # A player scooped by every opponent never has a positive total.
        for p in range(n):
            opponents = [q for q in range(n) if q != p]
            if rules.mode == "all_pairs" and all([q, p] in core["scoops"] for q in opponents):
                assert core["totals"][p] <= 0


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_swapping_two_players_swaps_their_results(seed: int) -> None:
    rng, rules, n, hands, plan, kw = random_table(seed)
    i, j = rng.sample(range(n), 2)
    perm = list(range(n))
    perm[i], perm[j] = j, i
    kw2 = dict(kw)
    if "banker" in kw:
        kw2["banker"] = perm[kw["banker"]]
        kw2["stakes"] = [kw["stakes"][perm[s]] for s in range(n)]
    if "surrendered" in kw:
        kw2["surrendered"] = [perm[s] for s in kw["surrendered"]]
    a = outcome(thirteen, build(thirteen, rng, hands, rules, plan), rules, **kw)
    b = outcome(thirteen, build(thirteen, rng, [hands[perm[s]] for s in range(n)], rules,
                                [plan[perm[s]] for s in range(n)]), rules, **kw2)
    if isinstance(a, dict):
        assert isinstance(b, dict)
        assert [b["totals"][perm[s]] for s in range(n)] == a["totals"]
        assert sorted(perm[s] for s in b["fouled"]) == a["fouled"]
        assert sorted([perm[w], perm[l]] for w, l in b["scoops"]) == a["scoops"]
    else:
        assert not isinstance(b, dict)
        assert a[:3] == b[:3]


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_specials_core_equals_reference(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    hand = deal(rng, rules, 2)[rng.randrange(2)]
    text = " ".join(hand)
    assert thirteen.held_specials(text, rules) == ref.held_specials(text, rules)
    core, expected = thirteen.find_special(text, rules), ref.find_special(text, rules)
    if expected is None:
        assert core is None
        return
    assert core is not None
    assert (core.key, core.units, core.tier) == (expected.key, expected.units, expected.tier)
    assert str(core.arrangement) == str(expected.arrangement)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 4),
    units=st.integers(-5, 60),
)
def test_escape_and_money_core_equals_reference(seed: int, n: int, units: int) -> None:
    rng = random.Random(seed)
    leaver = rng.randrange(n)
    results: List[Optional[int]] = [rng.randint(-20, 20) for _ in range(n)]
    results[leaver] = None
    for escape in (
        {"to": "split", "units": abs(units) + 1},
        {"to": "winner", "by_players": {"2": abs(units) + 1, "3": abs(units) + 2, "4": abs(units) + 5}},
    ):
        rules = RuleSet.from_dict({"base": "kaixin", "escape": escape})
        core = thirteen.escape_payments(rules, leaver, results)
        assert core == ref.escape_payments(rules, leaver, results)
        assert sum(core) == 0
    amounts = [rng.randint(-50, 50) for _ in range(n)]
    stake = rng.randint(0, 500)
    rake = (rng.choice([0, 1, 3, 5, "2.5", "0.75", 10]), rng.choice([None, 0, 7, 1000]))
    assert thirteen.money(amounts, stake, rake) == ref.money(amounts, stake, rake)
    assert thirteen.money(amounts, stake) == ref.money(amounts, stake)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_settles_random_tables(name: str) -> None:
    """A thousand random tables per preset (with the hypothesis tests above, thousands in
    all): core and reference agree on every field."""
    rules = RuleSet.preset(name)
    rng = random.Random(name)
    for _ in range(1000):
        n = rng.choice(list(rules.players))
        hands = deal(rng, rules, n)
        plan = make_plan(rng, hands, rules)
        kw = table_args(rng, rules, n)
        core = outcome(thirteen, build(thirteen, rng, hands, rules, plan), rules, **kw)
        expected = outcome(ref, build(ref, rng, hands, rules, plan), rules, **kw)
        assert core == expected, (hands, plan, kw)
