"""``thirteen.reference`` differs from the package's API exactly where docs/cards.md says:
these tests list the differences, so a new one fails here until the docs say it."""

from __future__ import annotations

import pickle
from typing import Any, Set

import pytest

import thirteen
import thirteen.reference as ref
from thirteen import RuleSet

RULES = RuleSet.preset("kaixin")
SPLIT = "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"
OTHER = "Kh 7d 3c | 8h 8c 6c 6s 2c | Th Td Ts 4d 4s"
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"

#: The names docs/cards.md lists as the package's only.
ONLY_IN_PACKAGE = {
    "RuleSet", "evaluate_batch", "settle_batch", "solve_batch", "solve", "hints", "complete",
    "lane_tables", "build_tables", "train", "TableSet", "TablesWarning", "register_tables",
    "clear_table_cache", "Round", "Table", "Ladder", "level_change", "simulate", "BackendError",
    "gift", "Gift",
    # "the errors and type aliases"; and the types those functions return
    "Solution", "Hint", "LaneTables", "RoundResult", "TablePlayer", "TableRoundReport",
    "LevelChange", "LevelInfo", "ThirteenError", "CardError", "CountError", "SaveError", "TableRound",
    "DuplicateCardError", "FouledError", "FalseSpecialError", "PlayerCountError",
    "SurrenderError", "RuleSetError", "LimitError", "RoundStateError", "CardNotHeldError",
    "TableError", "DealError",
    "CardsLike", "Submission", "PlayerId", "__version__",
}
ONLY_IN_REFERENCE = {"greedy", "completions"}


def public(obj: Any) -> Set[str]:
    return {m for m in dir(obj) if not m.startswith("_")}


def test_module_level_names() -> None:
    assert set(thirteen.__all__) - set(ref.__all__) == ONLY_IN_PACKAGE
    assert set(ref.__all__) - set(thirteen.__all__) == ONLY_IN_REFERENCE


def test_card_from_text_as_in_the_core() -> None:
    for text in ("As", "10h", "a♠", "2d"):
        assert str(ref.Card(text)) == str(thirteen.Card(text))
        assert ref.Card(text).code == thirteen.Card(text).code
    assert ref.Card("As") == ref.Card(ref.Rank.ACE, ref.Suit.SPADES) == ref.Card(14, 3)
    assert pickle.loads(pickle.dumps(ref.Card("Kd"))) == ref.Card("Kd")
    with pytest.raises(thirteen.CardError):
        ref.Card("Xx")
    with pytest.raises(TypeError):
        ref.Card(14)
    with pytest.raises(TypeError):
        ref.Card("A", 3)


@pytest.mark.parametrize(
    "name, core, reference, core_only, reference_only",
    [
        ("Card", thirteen.Card("As"), ref.Card("As"), set(), set()),
        ("HandValue", thirteen.evaluate("As Ks Qs Js 9s", RULES), ref.evaluate("As Ks Qs Js 9s", RULES),
         {"value", "from_raw"}, {"ace_to_five"}),
        ("Arrangement", thirteen.Arrangement.parse(SPLIT), ref.Arrangement.parse(SPLIT), {"values"}, set()),
        ("Deal", thirteen.deal(RULES, 4, 1), ref.deal(RULES, 4, 1), set(), set()),
        ("SpecialHand", thirteen.find_special(DRAGON, RULES), ref.find_special(DRAGON, RULES), set(), set()),
        ("Declaration", thirteen.Declaration(DRAGON), ref.Declaration(DRAGON), set(), set()),
        ("Settlement",
         thirteen.settle([thirteen.Arrangement.parse(SPLIT), thirteen.Arrangement.parse(OTHER)], RULES),
         ref.settle([ref.Arrangement.parse(SPLIT), ref.Arrangement.parse(OTHER)], RULES),
         set(), {"pairs", "reveal"}),
    ],
)
def test_members_differ_only_as_documented(
    name: str, core: Any, reference: Any, core_only: Set[str], reference_only: Set[str]
) -> None:
    assert public(core) - public(reference) == core_only, name
    assert public(reference) - public(core) == reference_only, name


def test_enums_are_int_enums_in_the_reference() -> None:
    for core_type, ref_type, member in (
        (thirteen.Rank, ref.Rank, "ACE"), (thirteen.Suit, ref.Suit, "SPADES"),
        (thirteen.Category, ref.Category, "FLUSH"),
    ):
        assert isinstance(getattr(ref_type, member), int)
        assert getattr(ref_type, member).value == getattr(core_type, member).value
        assert len(list(ref_type)) >= 4
