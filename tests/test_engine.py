"""The arrangement engine: the core's ``count_splits`` / ``splits`` / ``solve`` / ``hints`` /
``complete`` / ``solve_batch`` against the pure-Python reference
(``thirteen.reference.engine``) and against counts argued from RULES.md 2-4.

Splits are compared as multisets of keys (the sorted card codes of front, middle, back):
a split is made by positions, so with the extra-diamonds deck two splits that swap the
two copies of a diamond are both listed and look alike.

Every random hand comes from a fixed seed (``random.Random(n)``).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from itertools import combinations
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pytest

import thirteen as core
import thirteen.reference as ref
from thirteen.errors import (
    CardNotHeldError,
    CountError,
    DuplicateCardError,
    PlayerCountError,
    ThirteenError,
)
from thirteen.rules import SPECIAL_KEYS, RuleSet
from thirteen.solver import label

Key = Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[int, ...]]

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
SAME_SUIT_DRAGON = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
PRESETS = RuleSet.presets()


# Helpers ---------------------------------------------------------------------------------


def key(a: Any) -> Key:
    """An arrangement (core or reference) as sorted card codes per lane."""
    return tuple(tuple(sorted(c.code for c in lane)) for lane in (a.front, a.middle, a.back))  # type: ignore[return-value]


def keys(arrangements: Sequence[Any]) -> Counter:
    return Counter(key(a) for a in arrangements)


def codes(cards: Sequence[Any]) -> List[int]:
    return sorted(c.code for c in cards)


def text(cards: Sequence[Any]) -> str:
    return " ".join(str(c) for c in cards)


def rules_of(name: str) -> RuleSet:
    return RuleSet.default() if name == "default" else RuleSet.preset(name)


WHEEL_SECOND = RuleSet.default().replace(wheel="second")


def random_hand(seed: int, rules: RuleSet, size: int = 13) -> str:
    """``size`` cards drawn without replacement from the rule set's deck."""
    return text(random.Random(seed).sample(ref.deck(rules), size))


def wheel_hand(seed: int) -> str:
    """A standard 13-card hand holding A, 2, 3, 4 and 5 (so the wheel rule matters)."""
    rng = random.Random(seed)
    cards = [rng.choice([c for c in ref.deck() if c.rank == r]) for r in (14, 2, 3, 4, 5)]
    rest = [c for c in ref.deck() if c not in cards]
    return text(cards + rng.sample(rest, 8))


def extra_hand(seed: int, doubles: int = 1) -> str:
    """A 13-card hand from the 65-card extra-diamonds deck holding ``doubles`` diamonds twice."""
    rules = RuleSet.preset("kaixin-extra")
    rng = random.Random(seed)
    diamonds = rng.sample([c for c in ref.deck() if c.suit == ref.Suit.DIAMONDS], doubles)
    assert len(ref.deck(rules)) == 65
    # The other cards: the standard deck without the chosen diamonds (so no other diamond
    # comes twice).
    rest = [c for c in ref.deck() if c not in diamonds]
    cards = diamonds + diamonds + rng.sample(rest, 13 - 2 * doubles)
    rng.shuffle(cards)
    return text(cards)


_TABLES: Dict[str, Any] = {}


def tables_for(rules: RuleSet) -> Any:
    """The shipped lane tables of a preset (every preset is served exactly by a shipped
    table file; kaixin-swap by kaixin's)."""
    if rules.name not in _TABLES:
        _TABLES[rules.name] = core.lane_tables(rules, 4)
    return _TABLES[rules.name]




def best5(cards: Sequence[Any], rules: RuleSet) -> Any:
    """The largest value of any 5 of ``cards`` (reference evaluation)."""
    return max(ref.evaluate(list(s), rules) for s in combinations(cards, 5))


def minus(cards: Sequence[Any], taken: Sequence[Any]) -> List[Any]:
    """``cards`` without ``taken`` (as multisets of codes)."""
    left = Counter(c.code for c in taken)
    out = []
    for c in cards:
        if left[c.code]:
            left[c.code] -= 1
        else:
            out.append(c)
    assert not +left, "taken is not part of cards"
    return out


def as_ref_cards(cards: Sequence[Any]) -> List[Any]:
    return [ref.Card.from_code(c.code) for c in cards]


def assert_legal(arrangement: Any, rules: RuleSet) -> None:
    """Not fouled, by the core and by the reference (each on its own Arrangement type)."""
    c = core.Arrangement(
        [core.Card.from_code(x.code) for x in arrangement.front],
        [core.Card.from_code(x.code) for x in arrangement.middle],
        [core.Card.from_code(x.code) for x in arrangement.back],
        rules=rules,
    )
    assert not core.is_foul(c, rules), str(arrangement)
    r = ref.Arrangement(
        as_ref_cards(arrangement.front),
        as_ref_cards(arrangement.middle),
        as_ref_cards(arrangement.back),
        rules=rules,
    )
    assert not ref.is_foul(r, rules), str(arrangement)


def values(arrangement: Any, rules: RuleSet) -> Tuple[Any, ...]:
    return tuple(ref.evaluate(as_ref_cards(lane), rules) for lane in arrangement.lanes)


# 1. Core against reference: splits, legal splits, Pareto splits -------------------------

ALL_CASES = [
    ("default", lambda: random_hand(1, RuleSet.default())),
    ("kaixin-extra", lambda: extra_hand(2, doubles=2)),
    ("default", lambda: wheel_hand(3)),
    ("second", lambda: wheel_hand(4)),
]

FILTER_CASES = [
    ("default", lambda: random_hand(11, RuleSet.default())),
    ("kaixin", lambda: random_hand(12, RuleSet.default())),
    ("default", lambda: wheel_hand(13)),
    ("second", lambda: wheel_hand(14)),
    ("bianfeng", lambda: wheel_hand(15)),
    ("kaixin-extra", lambda: extra_hand(16, doubles=1)),
    ("kaixin-extra", lambda: extra_hand(17, doubles=3)),
    ("second", lambda: DRAGON),
]


def case_rules(name: str) -> RuleSet:
    return WHEEL_SECOND if name == "second" else rules_of(name)


@pytest.mark.parametrize("rules_name,make", ALL_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(ALL_CASES)])
def test_all_splits_match_reference(rules_name: str, make: Any) -> None:
    rules, hand = case_rules(rules_name), make()
    got = core.splits(hand, rules)
    want = ref.splits(hand, rules)
    assert len(got) == len(want) == 72072
    assert core.count_splits(hand, rules) == ref.count_splits(hand, rules) == 72072
    assert keys(got) == keys(want), hand
    # Every split uses exactly the hand's cards.
    assert all(codes(a.cards) == codes(core.parse_cards(hand)) for a in got[:: 997])


@pytest.mark.parametrize(
    "rules_name,make", FILTER_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(FILTER_CASES)]
)
def test_legal_and_pareto_splits_match_reference(rules_name: str, make: Any) -> None:
    rules, hand = case_rules(rules_name), make()
    legal_core, legal_ref = core.splits(hand, rules, legal=True), ref.splits(hand, rules, legal=True)
    assert keys(legal_core) == keys(legal_ref), hand
    assert core.count_splits(hand, rules, legal=True) == len(legal_ref)
    assert ref.count_splits(hand, rules, legal=True) == len(legal_ref)

    pareto_core = core.splits(hand, rules, pareto=True)
    pareto_ref = ref.splits(hand, rules, pareto=True)
    assert keys(pareto_core) == keys(pareto_ref), hand
    assert core.count_splits(hand, rules, pareto=True) == len(pareto_ref)
    assert ref.count_splits(hand, rules, pareto=True) == len(pareto_ref)
    # legal=True with pareto=True is the Pareto set too.
    assert core.count_splits(hand, rules, legal=True, pareto=True) == len(pareto_ref)

    # The Pareto set by its definition, on the core's own lists: no legal split dominates
    # a kept one (checked against the distinct value triples).
    lane_value = functools.lru_cache(maxsize=None)(
        lambda lane: ref.evaluate([ref.Card.from_code(c) for c in lane], rules)
    )
    triple = {k: tuple(lane_value(lane) for lane in k) for k in keys(legal_core)}
    pareto_keys = keys(pareto_core)
    kept = {triple[k] for k in pareto_keys}
    distinct = set(triple.values())
    for t in kept:
        assert not any(
            all(x >= y for x, y in zip(u, t)) and any(x > y for x, y in zip(u, t)) for u in distinct
        )
    for k, t in triple.items():
        assert (t in kept) == (k in pareto_keys)


# 2. Counts argued by hand -----------------------------------------------------------------


@pytest.mark.parametrize("impl", [core, ref], ids=["core", "reference"])
def test_dragon_has_72072_splits(impl: Any) -> None:
    # C(13,5) middles x C(8,5) backs of the rest = 1287 x 56.
    assert math.comb(13, 5) * math.comb(8, 5) == math.comb(13, 3) * math.comb(10, 5) == 72072
    assert impl.count_splits(DRAGON) == 72072
    assert impl.count_splits(DRAGON, RuleSet.preset("kaixin")) == 72072


@pytest.mark.parametrize("impl", [core, ref], ids=["core", "reference"])
@pytest.mark.parametrize("rules", [RuleSet.default(), WHEEL_SECOND], ids=["wheel-low", "wheel-second"])
def test_same_suit_dragon_legal_count_is_half(impl: Any, rules: RuleSet) -> None:
    # 13 spades of distinct ranks: every 5-card lane is a flush or a straight flush, the
    # front (3 distinct ranks, no front straights or flushes) is a high card, so the front
    # is always below both 5-card lanes. The middle and back hold disjoint rank sets, so
    # they are never equal (two flushes differ in some rank; two straight flushes have
    # different tops; otherwise the categories differ). Swapping middle and back is a
    # bijection between the splits with middle < back and those with middle > back:
    # exactly half of the 72,072 splits are legal.
    assert impl.count_splits(SAME_SUIT_DRAGON, rules, legal=True) == 72072 // 2 == 36036


@pytest.mark.parametrize("impl", [core, ref], ids=["core", "reference"])
def test_one_duplicate_diamond_looks_alike(impl: Any) -> None:
    # Two copies of one diamond and 11 distinct cards: 72,072 splits by position. Swapping
    # the two copies maps a split to itself when they share a lane, else to a different
    # split that looks the same. Same lane: front 11*C(10,5) = 2772; middle C(11,3)*C(8,5)
    # = 9240; back the same 9240; total 21,252. The other 50,820 pair up: 25,410 looks.
    rules = RuleSet.preset("kaixin-extra")
    hand = extra_hand(21, doubles=1)
    assert 11 * math.comb(10, 5) + 2 * math.comb(11, 3) * math.comb(8, 5) == 21252
    got = impl.splits(hand, rules)
    assert len(got) == impl.count_splits(hand, rules) == 72072
    assert len(keys(got)) == 21252 + (72072 - 21252) // 2 == 46662


# 3. Greedy, solve, hints, complete --------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_lane_values(preset: str) -> None:
    rules = RuleSet.preset(preset)
    tables = tables_for(rules)
    for seed in range(3):
        hand = random_hand(100 + seed, rules, 13) if seed else wheel_hand(100)
        cards = as_ref_cards(core.parse_cards(hand))
        solution = core.solve(hand, rules, players=max(rules.players), strategy="greedy", tables=tables)
        mine = ref.greedy(hand, rules)
        best_back = best5(cards, rules)
        for arrangement in ([solution.arrangement] if solution.arrangement is not None else []) + [mine]:
            assert codes(arrangement.cards) == codes(cards)
            assert_legal(arrangement, rules)
            front, middle, back = values(arrangement, rules)
            assert back == best_back, (hand, str(arrangement))
            assert middle == best5(minus(cards, as_ref_cards(arrangement.back)), rules), (hand, str(arrangement))
        if solution.arrangement is None:
            assert ref.find_special(cards, rules) is not None


def check_solution(solution: Any, dealt: str, rules: RuleSet) -> None:
    dealt_cards = core.parse_cards(dealt)
    kept = solution.kept
    assert len(kept) == 13
    if rules.dealt == 13 and len(dealt_cards) == 13:
        assert codes(kept) == codes(dealt_cards)
    else:
        assert not Counter(codes(kept)) - Counter(codes(dealt_cards)), "kept a card not dealt"
    if solution.arrangement is None:
        assert solution.special is not None
        assert core.find_special(list(kept), rules) is not None
        assert ref.find_special(as_ref_cards(kept), rules) is not None
        assert solution.special.key in rules.specials
    else:
        assert codes(solution.arrangement.cards) == codes(kept)
        assert_legal(solution.arrangement, rules)


@pytest.mark.parametrize("preset", PRESETS)
def test_solve_every_preset(preset: str) -> None:
    rules = RuleSet.preset(preset)
    tables = tables_for(rules)
    hands = [random_hand(200 + i, rules, rules.dealt) for i in range(2)] + [DRAGON]
    for hand in hands:
        for players in rules.players:
            for strategy in ("ev", "greedy"):
                kwargs = {"banker": True} if rules.mode == "banker" and players == 2 else {}
                solution = core.solve(hand, rules, players=players, strategy=strategy, tables=tables, **kwargs)
                assert solution.strategy == strategy
                check_solution(solution, hand, rules)
    for hand in hands[:2]:
        solution = core.solve(hand, rules, players=3, strategy="mc", samples=50, seed=1, tables=tables)
        check_solution(solution, hand, rules)


def test_solve_sixteen_dealt_keeps_thirteen() -> None:
    rules = RuleSet.preset("kaixin-extra")
    assert rules.dealt == 16
    tables = tables_for(rules)
    for seed in range(4):
        hand = random_hand(300 + seed, rules, 16)
        for strategy in ("ev", "greedy"):
            solution = core.solve(hand, rules, players=4, strategy=strategy, tables=tables)
            check_solution(solution, hand, rules)
    # A dragon among 16 cards (two copies of 2d, 3d, 4d): keep the 13 ranks and declare it.
    dragon16 = DRAGON + " 2d 2d 4d"
    solution = core.solve(dragon16, rules, players=4, tables=tables)
    check_solution(solution, dragon16, rules)
    assert solution.special is not None and solution.special.key == "dragon"
    # Neither 13 (kept) nor 16 (dealt): the message names both counts taken.
    hand14 = random_hand(310, rules, 16).split()[:14]
    for call in (lambda: core.solve(hand14, rules, tables=tables),
                 lambda: core.complete(hand14, rules, tables=tables)):
        with pytest.raises(CountError) as err:
            call()
        assert (err.value.expected, err.value.got) == (16, 14)
        assert "expected 13 (the cards kept) or 16" in str(err.value)


def test_sixteen_dealt_from_a_standard_deck_price_every_dealt_card() -> None:
    """With 16 dealt from 52 cards, no opponent can hold any of the 16 (RULES.md 1): the
    play's card removal is that of all 16, in the choice of the 13 kept, in ``solve``'s
    play and ``expected``, in ``complete`` and in ``solve_batch``."""
    rules = RuleSet.preset("kaixin").replace(dealt=16, players=(2, 3), name="kaixin-16")
    rng = random.Random(1234)
    deck = list(core.deck(rules))
    hands = [rng.sample(deck, 16) for _ in range(40)]
    with pytest.warns(core.TablesWarning):
        core.lane_tables(rules, 3)
    rank = lambda cards: sorted(core.Card.from_code(int(c)).rank for c in cards)  # noqa: E731
    arranged, specials = core.solve_batch(np.array([[c.code for c in h] for h in hands], dtype=np.uint8),
                                          rules, players=3)
    for hand, row, special in zip(hands, arranged, specials):
        solved = core.solve(hand, rules, players=3)
        if solved.special is not None:
            continue
        first = core.complete(hand, rules, players=3, limit=1)[0]
        assert solved.expected == pytest.approx(first.expected, abs=1e-9)
        a = solved.arrangement
        assert [rank(row[:3]), rank(row[3:8]), rank(row[8:])] == [
            rank([c.code for c in lane]) for lane in (a.front, a.middle, a.back)]


@pytest.mark.parametrize("seed", [3, 5, 0, 9])
def test_sixteen_dealt_keep_the_horse_card_when_doubling_pays(seed: int) -> None:
    """RULES.md 5 step 8: whoever plays the horse card has every pairwise result doubled. Of
    16 cards, the kept 13 hold it exactly when the best play holding it, doubled, beats the
    best play without it (each found by ``complete``, which prices plays undoubled: with it
    placed in each lane, and without it as the best of every 13 kept of the other 15)."""
    base = RuleSet.preset("kaixin-extra")
    rng = random.Random(seed)
    hand = rng.sample(list(core.deck(base)), 16)
    horse = hand[rng.randrange(16)]
    assert hand.count(horse) == 1  # these seeds deal it once (checked, not a general fact)
    rules = base.replace(horse_card=str(horse), name="kaixin-extra-horse")
    tables = tables_for(base)
    firsts = [core.complete(hand, base, players=3, limit=1, tables=tables, **{lane: [horse]})
              for lane in ("front", "middle", "back")]
    with_horse = max(f[0].expected for f in firsts if f)
    others = [c for c in hand if c != horse]
    without = max(core.complete(kept, base, players=3, limit=1, tables=tables)[0].expected
                  for kept in _keeps(others, []))
    solution = core.solve(hand, rules, players=3, tables=tables)
    assert solution.special is None
    keeps = 2 * with_horse > without
    assert (horse in solution.kept) == keeps
    assert solution.expected == pytest.approx(with_horse if keeps else without, abs=1e-9)
    # Without the horse card the choice is the best play, whatever it holds.
    assert core.solve(hand, base, players=3, tables=tables).expected == pytest.approx(
        max(with_horse, without), abs=1e-9)


def test_mc_deals_opponents_what_the_rules_deal() -> None:
    # With 16 dealt (RULES.md 2, kaixin-extra) every opponent is dealt 16 and keeps its best
    # 13, from the cards this seat was not dealt (its 3 set aside included). Dealt only 13
    # (weaker hands), they lost about 13 units a hand more to this seat than `ev`'s model and
    # the settled results say; both estimate the same mean, so they must stay close.
    rules = RuleSet.preset("kaixin-extra")
    tables = tables_for(rules)
    gaps = []
    for seed in range(6):
        hand = random_hand(500 + seed, rules, 16)
        ev = core.solve(hand, rules, players=3, tables=tables)
        mc = core.solve(hand, rules, players=3, strategy="mc", samples=300, seed=seed, tables=tables)
        check_solution(mc, hand, rules)
        gaps.append(mc.expected - ev.expected)
    assert abs(sum(gaps) / len(gaps)) < 3.0, gaps


@pytest.mark.parametrize("hand", [
    "9s 9h 8c 8h 7s 7d 6c 6h 5s 5h Ad Kc Qh",
    "2d 2c 4h 4c 6d 6c 8d 8s Tc Ts Qc Qs Ac",
])
def test_mc_alternatives_differ_in_some_lane_value(hand: str) -> None:
    # `mc` settles `ev`'s best candidates against each deal; two plays of the same three lane
    # values (the same play in other suits) settle alike against every deal, so its
    # candidates, and the runners-up it lists, each differ from the better ones in some
    # lane's value (solve's docstring). These hands hold such twins among their best plays,
    # and a special, declared among them where it ranks.
    rules = RuleSet.preset("kaixin")
    tables = tables_for(rules)
    solution = core.solve(hand, rules, players=4, strategy="mc", samples=100, seed=1, top=6, tables=tables)
    plays = [solution, *solution.alternatives]
    assert len(plays) == 6
    values = [tuple(p.arrangement.values(rules)) for p in plays if p.arrangement is not None]
    assert len(set(values)) == len(values) >= 5
    for p in plays:
        check_solution(p, hand, rules)


def test_solve_declares_dragon_under_kaixin() -> None:
    rules = RuleSet.preset("kaixin")
    # A dragon collects 36 from each of 3 opponents; no split of it can do better
    # (at most 5 + 10 + 3 lane units per opponent, doubled by a scoop).
    solution = core.solve(DRAGON, rules, players=4)
    assert solution.declares and solution.special is not None and solution.special.key == "dragon"


def test_hints_fill_the_count_asked_when_plays_of_more_kinds_exist() -> None:
    # Five pairs and an ace: `hints(n=8)` lists at least five kinds of play, so asking for
    # three or five gets three or five, the first ones of the longer list.
    rules = RuleSet.preset("kaixin")
    hand = "2d 2c 4h 4c 6d 6c 8d 8s Tc Ts Qc Qs Ac"
    many = [h.label for h in core.hints(hand, rules, n=8)]
    assert len(many) >= 5
    for n in (3, 5):
        assert [h.label for h in core.hints(hand, rules, n=n)] == many[:n]
    for seed in range(6):
        hand = random_hand(700 + seed, rules)
        many = [h.label for h in core.hints(hand, rules, n=12)]
        for n in (3, 5):
            assert [h.label for h in core.hints(hand, rules, n=n)] == many[:n]


@pytest.mark.parametrize("preset", ["western-2-4", "shisanzhang"])
def test_hints_are_the_best_play_of_each_of_the_best_kinds(preset: str) -> None:
    # Against every legal finish priced by `complete` (the 10,000 best, which hold the best
    # play of every kind they name): the best play of each label (牌型提示's kinds), best
    # first; `hints(n)` lists the first `n` of them. Hands with no special, so that only
    # arrangements compete, and under Western rules surrendering (RULES.md 5 step 1: 3 units
    # to each of the 3 opponents), listed where it ranks.
    rules = RuleSet.preset(preset)
    gone = [-9.0] if rules.surrender.allowed else []
    for seed in range(6):
        hand = random_hand(900 + seed, rules)
        if ref.find_special(hand, rules) is not None:
            continue
        finishes = core.complete(hand, rules, players=4, limit=10_000)
        best: Dict[str, float] = {}
        for f in finishes:
            assert f.arrangement is not None
            best.setdefault(label(f.arrangement, rules), f.expected)
        kinds = sorted(best.items(), key=lambda kv: -kv[1])
        for n in (1, 5, 8):
            hs = core.hints(hand, rules, players=4, n=n)
            plays = [h for h in hs if not h.surrender]
            assert len(plays) == min(n, len(kinds))
            # Surrendering besides the n plays, where it ranks, when it beats one of them.
            shown = [e for e in gone if e > plays[-1].expected or len(plays) < n]
            ranked = sorted([h.expected for h in plays] + shown, reverse=True)
            assert [h.expected for h in hs] == ranked
            assert [h.expected for h in hs if h.surrender] == shown
            for h, (_, e) in zip(plays, kinds):
                assert h.label in best and math.isclose(h.expected, best[h.label], abs_tol=1e-9)
                assert math.isclose(h.expected, e, abs_tol=1e-9)
            assert len({h.label for h in hs}) == len(hs)


def test_hints() -> None:
    rules = RuleSet.preset("kaixin")
    for seed in range(4):
        hand = random_hand(400 + seed, rules)
        for n in (1, 3, 5):
            hs = core.hints(hand, rules, players=4, n=n)
            assert 1 <= len(hs) <= n
            expected = [h.expected for h in hs]
            assert expected == sorted(expected, reverse=True)
            seen = set()
            for h in hs:
                assert h.label
                if h.arrangement is None:
                    assert h.special is not None and ref.find_special(hand, rules) is not None
                    continue
                assert codes(h.arrangement.cards) == codes(core.parse_cards(hand))
                assert_legal(h.arrangement, rules)
                triple = values(h.arrangement, rules)
                assert triple not in seen, "hints repeat the same lane values"
                seen.add(triple)
    first = core.hints(DRAGON, rules, players=4)[0]
    assert first.arrangement is None and first.special is not None and first.special.key == "dragon"
    assert "dragon" in first.label
    first = core.hints(SAME_SUIT_DRAGON, rules, players=4)[0]
    assert first.special is not None and first.special.key == "same_suit_dragon"
    # No specials recognised: only arrangements.
    assert all(h.arrangement is not None for h in core.hints(DRAGON, RuleSet.default(), n=5))


@pytest.mark.parametrize("seed", range(3))
def test_complete_matches_reference_completions(seed: int) -> None:
    rules = RuleSet.preset("kaixin")
    rng = random.Random(500 + seed)
    hand = core.parse_cards(random_hand(500 + seed, rules))
    placed = rng.sample(hand, 3)
    back, front = placed[:2], placed[2:]
    want = keys(ref.completions(text(hand), rules, back=text(back), front=text(front)))
    assert want  # these fixed seeds have legal finishes (checked, not a general fact)

    short = core.complete(hand, rules, back=back, front=front)
    assert len(short) == min(20, sum(want.values()))
    full = core.complete(hand, rules, back=back, front=front, limit=10**6)
    assert set(keys([h.arrangement for h in full])) == set(want)
    assert keys([h.arrangement for h in full]) == want
    for hs in (short, full):
        assert [h.expected for h in hs] == sorted((h.expected for h in hs), reverse=True)
        for h in hs:
            a = h.arrangement
            assert key(a) in want
            assert not Counter(codes(back)) - Counter(codes(a.back))
            assert not Counter(codes(front)) - Counter(codes(a.front))
            assert_legal(a, rules)
            assert h.label
    # The best completions are the best of the full list.
    assert [key(h.arrangement) for h in short] == [key(h.arrangement) for h in full[: len(short)]]


def test_complete_duplicates_and_nothing_placed() -> None:
    rules = RuleSet.preset("kaixin-extra")
    hand = extra_hand(600, doubles=1)
    dup = [c for c, n in Counter(core.parse_cards(hand)).items() if n == 2][0]

    want = keys(ref.completions(hand, rules, middle=f"{dup} {dup}"))
    got = core.complete(hand, rules, middle=[dup, dup], limit=10**6, tables=tables_for(rules))
    assert set(keys([h.arrangement for h in got])) == set(want)
    for h in got:
        assert [c.code for c in h.arrangement.middle].count(dup.code) == 2

    hand = random_hand(601, RuleSet.default())
    every = core.complete(hand, limit=10**6)
    assert keys([h.arrangement for h in every]) == keys(ref.splits(hand, legal=True))


@pytest.mark.parametrize("hand, placed", [
    ("Ad Ad Kd Qs Jh 9c 8c 7d 6s 5h 4c 3d 2s", {}),
    ("Td 7d 2h Qc 9d 2d 4d Jd Ad 4s 8d 6d 3s 4h 5d 7d", {}),
    ("Kd As Jh Qh 9d Ac 3s 6h 3d Qd Td 2d 8d 5c 8d Th", {"front": "As", "middle": "Qh Th"}),
])
def test_complete_lists_each_arrangement_once_with_a_card_held_twice(hand: str, placed: Dict[str, str]) -> None:
    """The 65-card deck deals some diamonds twice: two splits of positions can be one
    arrangement, listed once, and a shorter list is the start of a longer one."""
    rules = RuleSet.preset("kaixin-extra")
    longer = core.complete(hand, rules, players=3, limit=60, **placed)
    assert len({key(h.arrangement) for h in longer}) == len(longer) == 60
    for k in (2, 5, 10):
        shorter = core.complete(hand, rules, players=3, limit=k, **placed)
        assert [h.expected for h in shorter] == [h.expected for h in longer[:k]]


def test_complete_without_legal_finish_is_empty() -> None:
    # Trip aces in front: the middle must reach trip aces or more, but the other ten cards
    # hold no trips, no five consecutive ranks (no 5) and at most three of a suit.
    hand = "Ah Ad Ac 2s 2h 3s 3h 4c 4d 6s 6h 7c 8d"
    assert ref.completions(hand, front="Ah Ad Ac") == []
    assert core.complete(hand, front="Ah Ad Ac", limit=10**6) == []


def _keeps(hand: Sequence[Any], placed: Sequence[Any]) -> List[List[Any]]:
    """Every way to keep 13 of ``hand`` that keeps the ``placed`` cards (by position)."""
    rest = list(hand)
    for c in placed:
        rest.remove(c)
    drops = combinations(range(len(rest)), len(hand) - 13)
    return [list(placed) + [c for i, c in enumerate(rest) if i not in drop] for drop in drops]


@pytest.mark.parametrize("seed", range(2))
def test_complete_sixteen_cards_is_the_best_finish_of_any_13_kept(seed: int) -> None:
    """kaixin-extra (16 dealt, 13 kept): the finishes of 16 cards are those of the ways to
    keep 13, merged and ranked (each 13-card list checked against the reference above)."""
    rules = RuleSet.preset("kaixin-extra")
    rng = random.Random(900 + seed)
    hand = core.parse_cards(random_hand(900 + seed, rules, size=16))
    chosen = rng.sample(hand, 4)
    front, middle, back = chosen[:1], chosen[1:2], chosen[2:]
    placed = front + middle + back
    got = core.complete(hand, rules, front=front, middle=middle, back=back, players=3)
    merged: Dict[Key, float] = {}
    for kept in _keeps(hand, placed):
        for h in core.complete(kept, rules, front=front, middle=middle, back=back, players=3):
            merged[key(h.arrangement)] = h.expected
    best = sorted(merged.values(), reverse=True)[:20]
    assert len(got) == 20 and [h.expected for h in got] == best
    for h in got:
        assert merged[key(h.arrangement)] == h.expected
        assert not Counter(codes(h.arrangement.cards)) - Counter(codes(hand))
        assert_legal(h.arrangement, rules)
    # Nothing placed: the first finish is solve's play.
    free = core.complete(hand, rules, players=3, limit=1)
    solved = core.solve(hand, rules, players=3)
    if solved.special is None:
        assert free[0].expected == solved.expected and key(free[0].arrangement) == key(solved.arrangement)


def test_complete_sixteen_cards_lists_a_middle_and_back_of_one_value_both_ways() -> None:
    """Two 8-high straights: each as the middle with the other as the back is its own
    finish, worth the same; the best 300 finishes of 16 cards are those of the ways to keep
    13, merged (a search that met each such pair once left out a group of 32 of them)."""
    rules = RuleSet.preset("kaixin-extra")
    hand = core.parse_cards("5c 7c Jd Qh 3h 5d 8d 4c 7d Ah 6s Kh 4d 8s 6c 9d")
    front = [c for c in hand if str(c) == "Qh"]
    got = core.complete(hand, rules, front=front, players=3, limit=300)
    merged: Dict[Key, float] = {}
    for kept in _keeps(hand, front):
        for h in core.complete(kept, rules, front=front, players=3, limit=300):
            merged[key(h.arrangement)] = h.expected
    assert [h.expected for h in got] == sorted(merged.values(), reverse=True)[:300]
    swapped = {(k[0], k[2], k[1]) for k in keys([h.arrangement for h in got])}
    assert swapped & set(keys([h.arrangement for h in got])), "some middle and back swapped"


def test_complete_sixteen_cards_lists_every_legal_finish() -> None:
    """12 of 16 cards placed: each finish puts one of the other 4 in the back, and is listed
    when the reference finds it not fouled."""
    rules = RuleSet.preset("kaixin-extra")
    hand = core.parse_cards(random_hand(950, rules, size=16))
    play = core.solve(hand, rules, players=3).arrangement
    assert play is not None  # this fixed hand is arranged (checked, not a general fact)
    front, middle, back = list(play.front), list(play.middle), list(play.back)[:4]
    rest = list(hand)
    for c in front + middle + back:
        rest.remove(c)
    want = set()
    for c in rest:
        finish = ref.Arrangement(as_ref_cards(front), as_ref_cards(middle), as_ref_cards(back + [c]))
        if not ref.is_foul(finish, rules):
            want.add(key(finish))
    got = core.complete(hand, rules, front=front, middle=middle, back=back, players=3, limit=10_000)
    assert want and set(keys([h.arrangement for h in got])) == want
    assert len(got) == len(want)  # each arrangement once, however many ways to keep it
    with pytest.raises(core.LimitError) as err:
        core.complete(hand, rules, back=back, players=3, limit=10_001)
    assert err.value.key == "limit" and err.value.maximum == 10_000
    with pytest.raises(CountError):
        core.complete(hand, RuleSet.preset("kaixin"), back=back)


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_complete_errors(impl: str) -> None:
    hand = random_hand(700, RuleSet.default())
    cards = core.parse_cards(hand)
    outside = next(c for c in core.deck() if c not in cards)

    def run(**placed: Any) -> Any:
        if impl == "core":
            return core.complete(hand, **placed)
        return ref.completions(hand, **placed)

    with pytest.raises(CardNotHeldError) as held:
        run(back=str(outside))
    assert held.value.card == str(outside) and held.value.kind == "card_not_held"
    assert str(outside) in str(held.value)
    with pytest.raises(CardNotHeldError) as held:
        run(front=str(cards[0]), back=str(cards[0]))
    assert held.value.card == str(cards[0])
    with pytest.raises(CountError) as err:
        run(front=text(cards[:4]))
    assert err.value.lane == "front" and err.value.expected == 3 and err.value.got == 4
    with pytest.raises(CountError) as err:
        run(middle=text(cards[:6]))
    assert err.value.lane == "middle"


# 4. solve_batch against single solves -----------------------------------------------------


@pytest.mark.parametrize("strategy", ["ev", "greedy"])
def test_solve_batch_matches_solve(strategy: str) -> None:
    rules = RuleSet.preset("kaixin")
    hands = [core.parse_cards(random_hand(800 + i, rules)) for i in range(18)]
    hands += [core.parse_cards(DRAGON), core.parse_cards("2s 2h 5c 5d 7s 7h 9c 9d Js Jh Kc Kd Ac")]
    array = np.array([[c.code for c in h] for h in hands], dtype=np.uint8)
    arrangements, specials = core.solve_batch(array, rules, players=4, strategy=strategy)
    assert arrangements.shape == (len(hands), 13) and arrangements.dtype == np.uint8
    assert specials.shape == (len(hands),) and specials.dtype == np.int8
    for i, hand in enumerate(hands):
        single = core.solve(hand, rules, players=4, strategy=strategy)
        row = [int(x) for x in arrangements[i]]
        if single.arrangement is None:
            assert specials[i] == SPECIAL_KEYS.index(single.special.key), text(hand)
            assert sorted(row) == codes(hand)
        else:
            assert specials[i] == -1, text(hand)
            got = (tuple(sorted(row[:3])), tuple(sorted(row[3:8])), tuple(sorted(row[8:])))
            assert got == key(single.arrangement), text(hand)
    if strategy == "ev":
        assert specials[len(hands) - 2] == SPECIAL_KEYS.index("dragon")


# 5. Errors --------------------------------------------------------------------------------


def test_errors() -> None:
    rules = RuleSet.preset("kaixin")
    hand = random_hand(900, rules)
    for players in (1, 5):
        with pytest.raises(PlayerCountError):
            core.solve(hand, rules, players=players)
        with pytest.raises(PlayerCountError):
            core.hints(hand, rules, players=players)
        with pytest.raises(PlayerCountError):
            core.complete(hand, rules, players=players)
    with pytest.raises(PlayerCountError):
        core.solve(hand, rules.replace(players=[2, 3]), players=4)
    with pytest.raises(ValueError):
        core.solve(hand, rules, strategy="best")
    twelve = " ".join(hand.split()[:12])
    fourteen = hand + " " + next(str(c) for c in core.deck() if str(c) not in hand.split())
    for bad in (twelve, fourteen):
        with pytest.raises(CountError):
            core.solve(bad, rules)
        for impl in (core, ref):
            with pytest.raises(CountError):
                impl.count_splits(bad)
            with pytest.raises(CountError):
                impl.splits(bad, legal=True)
        with pytest.raises(CountError):
            ref.greedy(bad)
    # 16 cards are a 多三张 deal for solve, never a hand to split.
    sixteen = random_hand(901, RuleSet.preset("kaixin-extra"), 16)
    for impl in (core, ref):
        with pytest.raises(CountError):
            impl.count_splits(sixteen, RuleSet.preset("kaixin-extra"))
    repeated = " ".join(hand.split()[:12] + hand.split()[:1])
    for impl in (core, ref):
        with pytest.raises(DuplicateCardError) as err:
            impl.count_splits(repeated)
        assert err.value.card == hand.split()[0]
    # A repeated diamond is fine with the extra deck, a third copy is not.
    extra = RuleSet.preset("kaixin-extra")
    assert core.count_splits("2d 2d " + " ".join(DRAGON.split()[1:12]), extra) == 72072
    with pytest.raises(DuplicateCardError):
        core.count_splits("2d 2d " + " ".join(DRAGON.split()[1:12]))
    for impl in (core, ref):
        with pytest.raises(DuplicateCardError):
            impl.count_splits("2d 2d 2d " + " ".join(DRAGON.split()[1:11]), extra)
