"""Differential properties of a round some players left (逃跑 / 强退, RULES.md 5 "Escape" and
step 7): ``thirteen.settle_round`` (the core) against ``thirteen.reference.settle_round``.

Every preset, each with its own escape rule or one of each kind added, at every table size it
allows (and variants allowing fewer sizes, so that the seats still in are a size the rules do
not allow, and home runs from 3 and 4 players), with 0 to 3 leavers in random order, random
arrangements, declarations, surrenders and bankers with stakes. Core and reference agree on
the settlement of the seats still in (or its absence), the showdown's units and the escape
payments, or raise the same error; the units sum to zero.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_settle_differential import build, deal, make_plan

import thirteen
import thirteen.reference as ref
from thirteen.errors import ThirteenError
from thirteen.rules import PRESET_NAMES, RuleSet

ESCAPES: List[Optional[Dict[str, Any]]] = [
    None,  # the preset's own
    {"to": "split", "units": 7},
    {"to": "winner", "by_players": {"2": 5, "3": 11, "4": 13}},
]


def rules_for(name: str, rng: random.Random) -> RuleSet:
    """The preset with an escape rule (its own or one of each kind), now and then allowing
    fewer table sizes or scoring a home run from 3 or 4 players."""
    over: Dict[str, Any] = {"base": name}
    escape = rng.choice(ESCAPES)
    base = RuleSet.preset(name)
    if escape is not None or base.escape is None:
        over["escape"] = escape or ESCAPES[1]
    if rng.random() < 0.4 and base.dealt == 13:
        over["players"] = rng.choice([[4], [3, 4], [2, 4]])
    if rng.random() < 0.4:
        kind = rng.choice(["double", "bonus"])
        over["home_run"] = {"kind": kind, "min_players": rng.choice([3, 4])}
        if kind == "bonus":
            over["home_run"]["units"] = rng.randint(1, 12)
    return RuleSet.from_dict(over)


def round_outcome(impl: Any, subs: List[Any], rules: RuleSet, **kw: Any) -> Any:
    try:
        settlement, results, escape = impl.settle_round(subs, rules, **kw)
    except ThirteenError as e:
        return ("error", type(e).__name__, e.kind, getattr(e, "player", None))
    shown = None if settlement is None else settlement.to_dict()
    return shown, list(results), list(escape)


def check_round(name: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = rules_for(name, rng)
    n = rng.choice(list(rules.players))
    hands = [h[:13] for h in deal(rng, rules, n)]
    plan = make_plan(rng, hands, rules)
    leavers = rng.sample(range(n), rng.randint(0, min(3, n - 1)))
    kw: Dict[str, Any] = {"escaped": leavers}
    if rules.mode == "banker":
        kw["banker"] = rng.randrange(n)
        kw["stakes"] = [rng.randint(1, 3) for _ in range(n)]
    if rules.surrender.allowed and rng.random() < 0.4:
        kw["surrendered"] = rng.sample(range(n), rng.randint(1, n - 1))
    outcomes = []
    for impl in (thirteen, ref):
        subs: List[Any] = build(impl, rng, hands, rules, plan)
        for seat in leavers:
            subs[seat] = None
        outcomes.append(round_outcome(impl, subs, rules, **kw))
    core, expected = outcomes
    assert core == expected, (rules.to_dict(), hands, plan, kw)
    if core[0] != "error":
        shown, results, escape = core
        assert sum(results) + sum(escape) == 0
        still_in = [s for s in range(n) if s not in leavers]
        assert all(results[s] == 0 for s in leavers)
        assert all(escape[s] <= 0 for s in leavers) and all(escape[s] >= 0 for s in still_in)
        if shown is not None:
            assert len(shown["totals"]) == len(still_in)


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_round_core_equals_reference(name: str, seed: int) -> None:
    check_round(name, seed)


def test_a_home_run_after_an_escape_counts_the_players_dealt_in() -> None:
    """kaixin: a home run doubles again from 3 players dealt in. Four are dealt in and two
    leave: the two still in are compared, and the one who scoops the other hits a home run.
    Its lanes: a front pair (1), a middle full house (kaixin's middle full house: 2), a back
    full house (1): 4; the scoop doubles it to 8, the home run again to 16. Each leaver pays
    the winner by_players[4] = 48."""
    rules = RuleSet.preset("kaixin")
    strong = "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"
    weak = "Kh 7d 3c | Th Td 6c 6s 2c | Tc Ts 8h 8c 4d"
    for impl in (thirteen, ref):
        subs = [impl.Arrangement.parse(strong), None, impl.Arrangement.parse(weak), None]
        settlement, results, escape = impl.settle_round(subs, rules, escaped=[3, 1])
        assert settlement is not None and list(settlement.home_runs) == [0]
        assert list(results) == [16, 0, -16, 0]
        assert list(escape) == [96, -48, 0, -48]
