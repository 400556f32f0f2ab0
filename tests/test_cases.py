"""The handed test vectors (``../shared/cases/*.json``) against the core and the reference.

The whole folder is loaded, so new files are picked up. An operation that an
implementation does not provide yet is skipped with its name; everything else must pass.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

import pytest

from support import IMPLEMENTATIONS, cases_dir, load_cases
from thirteen.errors import ThirteenError
from thirteen.rules import RuleSet

CASES = load_cases()

# The function each operation needs from an implementation.
NEEDS = {
    "classify": "evaluate",
    "classify_front": "evaluate",
    "compare": "compare_lanes",
    "compare_front": "compare_lanes",
    "is_foul": "is_foul",
    "validate": "validate_hand",
    "special": "find_special",
    "special_arranged": "find_special",
    "compare_special": "compare_specials",
    "lane_points": None,
    "score": "settle",
    "escape": "escape_payments",
    "level_for": "level_for",
}


def test_cases_folder_present() -> None:
    if not CASES:
        if os.environ.get("CI"):
            pytest.fail(f"no test vectors found in {cases_dir()}")
        pytest.skip(f"no test vectors found in {cases_dir()}")
    assert all(len(c["input"]) == 1 for c in CASES)


def _rank_char(text: str) -> str:
    return "T" if text == "10" else text.upper()


def _winner(result: int) -> Any:
    return {1: 0, -1: 1, 0: "tie"}[result]


def _submission(impl: Any, player: Dict[str, Any], rules: Optional[RuleSet]) -> Any:
    if "special" in player:
        return impl.Declaration(player["cards"], player["special"])
    return impl.Arrangement(player["front"], player["middle"], player["back"], rules=rules)


def run_case(impl: Any, case: Dict[str, Any]) -> None:
    """Runs one case against one implementation and asserts every expected key."""
    ((op, arg),) = case["input"].items()
    if op not in NEEDS:
        pytest.fail(f"unknown operation {op!r} in {case['id']}")
    need = NEEDS[op]
    if need is not None and not hasattr(impl, need):
        pytest.skip(f"operation {op!r} not implemented by {impl.__name__} yet")
    rules = RuleSet.from_dict(case["rules"]) if case["rules"] is not None else None
    exp = case["expected"]
    if op in ("classify", "classify_front"):
        value = impl.evaluate(impl.parse_cards(arg), rules)
        assert value.size == (5 if op == "classify" else 3)
        assert value.category.key == exp["category"]
        if "high" in exp:
            assert value.high.char == _rank_char(exp["high"])
    elif op in ("compare", "compare_front"):
        a, b = (impl.parse_cards(x) for x in arg)
        assert _winner(impl.compare_lanes(a, b, rules)) == exp["winner"]
        assert _winner(impl.compare_lanes(b, a, rules)) == {0: 1, 1: 0, "tie": "tie"}[exp["winner"]]
    elif op == "is_foul":
        arrangement = impl.Arrangement(arg["front"], arg["middle"], arg["back"], rules=rules)
        assert impl.is_foul(arrangement, rules) is exp["foul"]
    elif op == "validate":
        with pytest.raises(ThirteenError) as info:
            impl.validate_hand(arg, rules)
        assert info.value.kind == exp["error"]
        if "card" in exp:
            assert info.value.card == str(impl.parse_cards(exp["card"])[0])
    elif op in ("special", "special_arranged"):
        text = arg if op == "special" else " ".join([arg["front"], arg["middle"], arg["back"]])
        found = impl.find_special(impl.parse_cards(text), rules)
        assert (found.key if found else None) == exp["special"]
    elif op == "compare_special":
        a, b = (impl.find_special(impl.parse_cards(x), rules) for x in arg)
        assert _winner(impl.compare_specials(a, b)) == exp["winner"]
    elif op == "lane_points":
        assert rules is not None
        assert rules.lane_value(arg["lane"], arg["winner_category"]) == exp["points"]
    elif op == "score":
        subs = [_submission(impl, p, rules) for p in arg["players"]]
        kwargs = {k: arg[k] for k in ("banker", "stakes") if k in arg}
        if "error" in exp:
            with pytest.raises(ThirteenError) as info:
                impl.settle(subs, rules, **kwargs)
            assert info.value.kind == exp["error"]
            if "player" in exp:
                assert info.value.player == exp["player"]
            return
        result = impl.settle(subs, rules, **kwargs).to_dict()
        assert result["totals"] == exp["points"]
        if "scoops" in exp:
            assert sorted(map(list, result["scoops"])) == sorted(exp["scoops"])
        if "home_run" in exp:
            assert sorted(result["home_runs"]) == sorted(exp["home_run"])
        if "fouled" in exp:
            assert sorted(result["fouled"]) == sorted(exp["fouled"])
    elif op == "escape":
        payments = impl.escape_payments(rules, arg["leaver"], arg["results"])
        assert list(payments) == exp["payments"]
    elif op == "level_for":
        level = impl.level_for(arg["ladder"], arg["score"])
        assert level.level == exp["level"]
        assert level.title == exp["title"]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("case", CASES, ids=[f"{c['_file']}:{c['id']}" for c in CASES])
def test_case(case: Dict[str, Any], name: str) -> None:
    run_case(IMPLEMENTATIONS[name], case)
