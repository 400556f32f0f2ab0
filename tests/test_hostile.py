"""Hostile input to the Python API: every bad argument raises a documented exception (a
``ThirteenError`` subclass, itself a ``ValueError``, or a ``TypeError``) and a failing
``Round`` / ``Table`` call changes nothing (issue 9).
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import pytest

import thirteen
import thirteen.reference as ref
from thirteen import Round, RuleSet, Table

HAND = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc"
LANES = "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"

# --------------------------------------------------------------------------- rules of the wrong type

RULES_CALLS: List[Tuple[str, Callable[[Any], Any]]] = [
    ("Round", lambda r: Round(r, 2)),
    ("Table", lambda r: Table(r)),
    ("reference.deck", lambda r: ref.deck(r)),
    ("reference.validate_hand", lambda r: ref.validate_hand(HAND, r)),
    ("reference.evaluate", lambda r: ref.evaluate("As Ks Qs Js Ts", r)),
    ("reference.compare_lanes", lambda r: ref.compare_lanes("As Ks Qs", "2c 2d 3h", r)),
    ("reference.is_foul", lambda r: ref.is_foul(LANES, r)),
    ("reference.Arrangement.parse", lambda r: ref.Arrangement.parse(LANES, r)),
    ("reference.held_specials", lambda r: ref.held_specials(HAND, r)),
    ("reference.find_special", lambda r: ref.find_special(HAND, r)),
    ("reference.settle", lambda r: ref.settle([ref.Arrangement.parse(LANES)] * 2, r)),
    ("reference.escape_payments", lambda r: ref.escape_payments(r, 0, [None, 1])),
    ("reference.deal", lambda r: ref.deal(r, 4, 1)),
    ("reference.swap_cards", lambda r: ref.swap_cards([HAND], [""], r, 1)),
    ("reference.count_splits", lambda r: ref.count_splits(HAND, r)),
    ("reference.greedy", lambda r: ref.greedy(HAND, r)),
    ("reference.completions", lambda r: ref.completions(HAND, r)),
]


@pytest.mark.parametrize("bad", [False, 0, "kaixin", {"base": "kaixin"}, 1.5])
@pytest.mark.parametrize("call", [c for _, c in RULES_CALLS], ids=[n for n, _ in RULES_CALLS])
def test_rules_of_the_wrong_type_is_a_type_error_naming_rules(
    call: Callable[[Any], Any], bad: Any
) -> None:
    with pytest.raises(TypeError, match="rules"):
        call(bad)
