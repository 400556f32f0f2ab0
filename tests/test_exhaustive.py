"""Exhaustive checks of hand values (RULES.md 3) through the core's ``evaluate_batch``.

Every 5-card hand (2,598,960) and every 3-card hand (22,100) of the standard deck:
the category counts (the textbook poker counts), the number of distinct values, and a
pinned hash of the whole sorted order of the distinct values. The Rust tests
(rust/thirteen-core/tests/exhaustive.rs) pin the same hashes. The order is then
re-derived from ``thirteen.reference`` on one representative hand per class, so the
pin rests on two independent implementations, not on the core alone.

Hash: for each distinct value ascending, the line ``category_key:ranks`` (ranks =
the deciding ranks' ``Rank.char`` concatenated), lines joined by "\\n", FNV-1a 64-bit
over the UTF-8 bytes.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import thirteen
import thirteen.reference as ref
from thirteen.errors import CardError, CountError, DuplicateCardError
from thirteen.rules import RuleSet

LOW = RuleSet.default()
SECOND = RuleSet.default().replace(wheel="second")
EXTRA = RuleSet.preset("kaixin-extra")
EXTRA_SECOND = EXTRA.replace(wheel="second")

PINNED = {"low": 7448376318417819500, "second": 7550857926424327128}
PINNED_FRONT = 15526665797178753423

FIVE_CARD_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_302_540,
}
THREE_CARD_COUNTS = {"three_of_a_kind": 52, "one_pair": 3_744, "high_card": 18_304}
CATEGORY_KEYS = [
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
]  # fmt: skip


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def line(value: Any) -> str:
    return f"{value.category.key}:" + "".join(r.char for r in value.ranks)


def order_hash(values_ascending: List[Any]) -> int:
    return fnv1a64("\n".join(line(v) for v in values_ascending).encode("utf-8"))


def all_hands(n: int) -> np.ndarray:
    return np.fromiter(
        itertools.combinations(range(52), n), dtype=np.dtype((np.uint8, n)), count=comb(52, n)
    )


@pytest.fixture(scope="module")
def hands5() -> np.ndarray:
    hands = all_hands(5)
    assert hands.shape == (2_598_960, 5)
    return hands


@pytest.fixture(scope="module")
def hands3() -> np.ndarray:
    hands = all_hands(3)
    assert hands.shape == (22_100, 3)
    return hands


def classes(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct packed values, the index of the first hand of each, and the counts."""
    return np.unique(values, return_index=True, return_counts=True)


def check_all(
    hands: np.ndarray, rules: Any, size: int, counts: Dict[str, int], n_distinct: int, pin: int
) -> None:
    values = thirteen.evaluate_batch(hands, rules)
    assert values.shape == (len(hands),)
    distinct, first, per_class = classes(values)
    assert len(distinct) == n_distinct
    assert int(per_class.sum()) == len(hands)

    core_values = [thirteen.HandValue.from_raw(int(v), size) for v in distinct]
    # category counts, through HandValue and through the packed layout (category in bits 28+)
    by_category: Dict[str, int] = {}
    for value, n in zip(core_values, per_class):
        by_category[value.category.key] = by_category.get(value.category.key, 0) + int(n)
    assert by_category == counts
    packed = np.bincount((values >> 28).astype(np.int64), minlength=10)
    assert {CATEGORY_KEYS[i]: int(n) for i, n in enumerate(packed) if n} == counts

    # the packed order is the HandValue order, and strictly increasing
    assert sorted(core_values) == core_values
    assert all(a < b for a, b in zip(core_values, core_values[1:]))
    assert all(v.size == size for v in core_values)
    # the packed integer round-trips
    assert [v.value for v in core_values] == [int(v) for v in distinct]
    assert order_hash(core_values) == pin

    # The reference, on one representative hand per class: the same value text,
    # the same strict order, hence the same hash.
    deck = ref.deck()
    ref_values = [ref.evaluate([deck[c] for c in hands[i]], rules) for i in first]
    assert [line(v) for v in ref_values] == [line(v) for v in core_values]
    assert [str(v) for v in ref_values] == [str(v) for v in core_values]
    assert all(a < b for a, b in zip(ref_values, ref_values[1:]))
    assert sorted(ref_values) == ref_values
    assert len(set(ref_values)) == n_distinct
    assert order_hash(ref_values) == pin
    # and the core's own evaluate on the same representatives
    core_deck = thirteen.deck()
    direct = [thirteen.evaluate([core_deck[c] for c in hands[i]], rules) for i in first]
    assert direct == core_values

    # Beyond the representatives: a random sample of hands (all of them for 3 cards)
    # evaluated by the reference gives the value of the class the core put them in.
    rng = np.random.default_rng(13)
    sample = np.arange(len(hands)) if len(hands) <= 25_000 else rng.choice(len(hands), 100_000, replace=False)
    class_of = np.searchsorted(distinct, values[sample])
    ref_by_class = ref_values
    for i, k in zip(sample, class_of):
        value = ref.evaluate([deck[c] for c in hands[i]], rules)
        assert value == ref_by_class[k], (hands[i], line(value), line(ref_by_class[k]))


@pytest.mark.parametrize("wheel", ["low", "second"])
def test_all_five_card_hands(hands5: np.ndarray, wheel: str) -> None:
    rules = LOW if wheel == "low" else SECOND
    check_all(hands5, rules, 5, FIVE_CARD_COUNTS, 7_462, PINNED[wheel])


def test_all_three_card_hands(hands3: np.ndarray) -> None:
    check_all(hands3, LOW, 3, THREE_CARD_COUNTS, 455, PINNED_FRONT)


def test_all_three_card_hands_reference_alone(hands3: np.ndarray) -> None:
    """The 3-card counts and pin from the reference only, no core involved."""
    deck = ref.deck()
    values = [ref.evaluate([deck[c] for c in row], LOW) for row in hands3.tolist()]
    counts: Dict[str, int] = {}
    for v in values:
        counts[v.category.key] = counts.get(v.category.key, 0) + 1
    assert counts == THREE_CARD_COUNTS
    distinct = sorted(set(values))
    assert len(distinct) == 455
    assert order_hash(distinct) == PINNED_FRONT
    # the wheel rule does not touch 3-card hands
    assert np.array_equal(thirteen.evaluate_batch(hands3, SECOND), thirteen.evaluate_batch(hands3))


def test_wheel_rules_differ_only_on_wheels(hands5: np.ndarray) -> None:
    low = thirteen.evaluate_batch(hands5, LOW)
    second = thirteen.evaluate_batch(hands5, SECOND)
    differ = np.flatnonzero(low != second)
    # A-2-3-4-5: 4^5 rank/suit choices = 1,024 hands (4 of them straight flushes)
    assert len(differ) == 1_024
    ranks = np.sort(hands5[differ] // 4, axis=1)
    assert (ranks == np.array([0, 1, 2, 3, 12])).all()


# ---------------------------------------------------------------------------
# evaluate_batch: errors and agreement with evaluate


def test_batch_errors() -> None:
    with pytest.raises(CardError):
        thirteen.evaluate_batch(np.array([[0, 1, 2, 3, 52]], dtype=np.uint8))
    with pytest.raises(CardError):
        thirteen.evaluate_batch(np.array([[0, 1, 2], [255, 4, 5]], dtype=np.uint8))
    with pytest.raises(DuplicateCardError) as info:
        thirteen.evaluate_batch(np.array([[8, 9, 10, 11, 12], [51, 7, 51, 3, 0]], dtype=np.uint8))
    assert info.value.card == "As"
    with pytest.raises(DuplicateCardError) as info:
        thirteen.evaluate_batch(np.array([[0, 0, 1, 2, 3]], dtype=np.uint8))  # 2d 2d: standard
    assert info.value.card == "2d"
    for width in (1, 2, 4, 6, 13):
        with pytest.raises(CountError):
            thirteen.evaluate_batch(np.zeros((3, width), dtype=np.uint8) + np.arange(width, dtype=np.uint8))


def test_batch_extra_deck_copies() -> None:
    # two 2d are fine with the extra deck; three are not; two 2s never
    out = thirteen.evaluate_batch(np.array([[0, 0, 4, 8, 12]], dtype=np.uint8), EXTRA)
    assert thirteen.HandValue.from_raw(int(out[0])) == thirteen.evaluate("2d 2d 3d 4d 5d", EXTRA)
    assert thirteen.HandValue.from_raw(int(out[0])).category.key == "flush"
    with pytest.raises(DuplicateCardError) as info:
        thirteen.evaluate_batch(np.array([[0, 0, 0, 8, 12]], dtype=np.uint8), EXTRA)
    assert info.value.card == "2d"
    with pytest.raises(DuplicateCardError) as info:
        thirteen.evaluate_batch(np.array([[3, 4, 3, 8, 12]], dtype=np.uint8), EXTRA)
    assert info.value.card == "2s"
    fives = thirteen.evaluate_batch(np.array([[48, 49, 50, 51, 48]], dtype=np.uint8), EXTRA)
    assert thirteen.HandValue.from_raw(int(fives[0])).category.key == "five_of_a_kind"


def random_hands(rng: np.random.Generator, deck_codes: np.ndarray, n: int, size: int) -> np.ndarray:
    """``n`` hands of ``size`` cards drawn without replacement from ``deck_codes``."""
    picks = np.argsort(rng.random((n, len(deck_codes))), axis=1)[:, :size]
    return deck_codes[picks].astype(np.uint8)


@pytest.mark.parametrize("rules", [LOW, SECOND, EXTRA, EXTRA_SECOND], ids=["low", "second", "extra", "extra-second"])
@pytest.mark.parametrize("size, n", [(5, 3000), (3, 1000)])
def test_batch_agrees_with_evaluate(rules: Any, size: int, n: int) -> None:
    rng = np.random.default_rng(1300 + size)
    deck_codes = np.array([c.code for c in thirteen.deck(rules)], dtype=np.uint8)
    hands = random_hands(rng, deck_codes, n, size)
    values = thirteen.evaluate_batch(hands, rules)
    assert values.dtype == np.uint32
    cards = thirteen.deck()
    for row, packed in zip(hands, values):
        direct = thirteen.evaluate([cards[c] for c in row], rules)
        assert direct.value == int(packed)
        rebuilt = thirteen.HandValue.from_raw(int(packed), size)
        assert rebuilt == direct and str(rebuilt) == str(direct)
        assert rebuilt.size == size
    # the packed order is the game order on these hands too
    rebuilt_all = [thirteen.HandValue.from_raw(int(v), size) for v in values]
    order = np.argsort(values, kind="stable")
    assert [rebuilt_all[i] for i in order] == sorted(rebuilt_all)
    if rules.deck == "extra_diamonds" and size == 5:
        # the sample does hold repeated diamonds
        assert any(len(set(row.tolist())) < 5 for row in hands)
