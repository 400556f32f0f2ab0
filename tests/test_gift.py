"""Swap-three gifts (换三张, RULES.md 7.3; issue 54): ``thirteen.gift``, its hints, and the
engine giving for a seat in ``Round.auto``, ``Round.finish_swap``, tables and ``simulate``.

Expected values come from RULES.md 7.3 (each seat gives 0 to ``max_cards`` of its cards; the
pooled gifts are shuffled and each seat draws back as many as it gave) and from an
independent pure-Python Monte Carlo of the model the engine documents.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import List, Sequence, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import thirteen
from thirteen import (
    Card,
    CardError,
    CountError,
    DuplicateCardError,
    LimitError,
    PlayerCountError,
    Round,
    RoundStateError,
    RuleSet,
    RuleSetError,
    Table,
    _core,
)

SWAP = RuleSet.preset("kaixin-swap")
DECK = list(thirteen.deck(SWAP))


def held(cards: Sequence[Card], hand: Sequence[Card]) -> bool:
    """Each card of ``cards`` is in ``hand``, as often as given (RULES.md 7.3)."""
    return not (Counter(cards) - Counter(hand))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.permutations(DECK),
    st.sampled_from([2, 3, 4]),
    st.integers(min_value=0, max_value=2**64 - 1),
)
def test_a_gift_is_held_within_the_limit_and_the_same_for_a_seed(
    deck: List[Card], players: int, seed: int
) -> None:
    hand = deck[:13]
    g = thirteen.gift(hand, SWAP, players=players, seed=seed, top=3)
    for choice in (g, *g.alternatives):
        assert len(choice.cards) <= SWAP.swap.max_cards  # type: ignore[union-attr]
        assert held(choice.cards, hand)
        assert math.isfinite(choice.expected)
    assert len(g.alternatives) == 2
    assert [a.expected for a in (g, *g.alternatives)] == sorted(
        (a.expected for a in (g, *g.alternatives)), reverse=True
    )
    again = thirteen.gift(hand, SWAP, players=players, seed=seed, top=3)
    assert again == g


def test_keeping_every_card_is_valued_exactly() -> None:
    # Giving nothing keeps the hand (RULES.md 7.3: draw back as many as given, none): its
    # value is the best play's, exactly.
    hand = thirteen.deal(SWAP, 4, 11).hands[0]
    g = thirteen.gift(hand, SWAP, players=4, top=10)
    keep = [a for a in (g, *g.alternatives) if not a.cards]
    if keep:
        assert keep[0].expected == thirteen.solve(hand, SWAP, players=4).expected
        assert keep[0].label == "keep every card"
    else:  # ten gifts ranked above keeping: each beats it
        assert g.alternatives[-1].expected >= thirteen.solve(hand, SWAP, players=4).expected
    assert g.label == ("give " + " ".join(map(str, g.cards)) if g.cards else "keep every card")


def _model_pool(rng: random.Random, unseen: List[Card], others: int) -> List[Card]:
    """The other seats' gifts under a model where each gives three of its loose cards (a
    rank it holds once), chosen uniformly (fewer when it holds fewer)."""
    deck = list(unseen)
    rng.shuffle(deck)
    out: List[Card] = []
    for o in range(others):
        hand = deck[13 * o : 13 * o + 13]
        ranks = Counter(c.rank for c in hand)
        loose = [c for c in hand if ranks[c.rank] == 1]
        out += rng.sample(loose, min(3, len(loose)))
    return out


def test_a_gifts_value_agrees_with_an_independent_monte_carlo() -> None:
    # Differential: the engine's expected units of its gift against a plain Monte Carlo of
    # the same model (the other seats dealt from the unseen cards, each giving three loose
    # cards at random; the seat draws as many as it gave, uniformly from the pool; the hand
    # after the swap valued by thirteen.solve). One finalist, so its value is measured on
    # fresh pools only (no selection bias).
    players = 3
    tables = thirteen.lane_tables(SWAP, players)
    hand = list(thirteen.deal(SWAP, players, 5).hands[0])
    model = ([0, 0, 0, 1000], [1000] * 13, [0] * 13)
    ranked = _core._gift(hand, SWAP, tables, players, False, 7, 1, model, (4, 4, 1, 3000))
    cards, engine = ranked[0]
    assert cards, "the test wants a gift to price"
    unseen = [c for c in DECK if c not in hand]
    kept = [c for c in hand if c not in cards]
    rng = random.Random(1)
    values = []
    for _ in range(3000):
        pool = list(cards) + _model_pool(rng, unseen, players - 1)
        drawn = rng.sample(pool, len(cards))
        values.append(thirteen.solve(kept + drawn, SWAP, players=players, tables=tables).expected)
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    # Two independent means of 3,000 draws each: within 4 standard errors of their difference.
    assert abs(engine - mean) < 4 * sd * math.sqrt(2 / 3000), (engine, mean, sd)


@pytest.mark.parametrize(
    "call, error, text",
    [
        (lambda h: thirteen.gift(h, RuleSet.preset("kaixin")), RuleSetError, "swap"),
        (lambda h: thirteen.gift(h[:12], SWAP), CountError, "13"),
        (lambda h: thirteen.gift(h[:12] + h[:1], SWAP), DuplicateCardError, "duplicate"),
        (lambda h: thirteen.gift("As Kd 1x", SWAP), CardError, "1x"),
        (lambda h: thirteen.gift(h, SWAP, players=5), PlayerCountError, "5"),
        (lambda h: thirteen.gift(h, SWAP, top=0), LimitError, "top"),
        (lambda h: thirteen.gift(h, SWAP, top=11), LimitError, "top"),
        (lambda h: thirteen.gift(h, SWAP, seed=-1), LimitError, "seed"),
        (lambda h: thirteen.gift(h, SWAP, seed=2**64), LimitError, "seed"),
        (lambda h: thirteen.gift(h, SWAP, seed="1"), TypeError, "seed"),  # type: ignore[arg-type]
        (lambda h: thirteen.gift(h, None), TypeError, "rules"),  # type: ignore[arg-type]
        (lambda h: thirteen.gift(h, SWAP, banker="yes"), TypeError, "banker"),  # type: ignore[arg-type]
        (lambda h: thirteen.gift(h, SWAP, top=True), TypeError, "top"),
        (lambda h: thirteen.gift(42, SWAP), TypeError, ""),  # type: ignore[arg-type]
    ],
)
def test_bad_requests_name_the_problem(call: object, error: type, text: str) -> None:
    hand = DECK[:13]
    with pytest.raises(error) as info:
        call(hand)  # type: ignore[operator]
    assert text in str(info.value)


def conserved(before: Sequence[Sequence[Card]], after: Sequence[Sequence[Card]], gifts: dict) -> None:
    """RULES.md 7.3: the same cards in all, each seat keeps what it did not give and holds
    as many as before."""
    assert Counter(c for h in before for c in h) == Counter(c for h in after for c in h)
    for s, (b, a) in enumerate(zip(before, after)):
        assert len(a) == len(b)
        assert not (Counter(b) - Counter(gifts.get(s, ())) - Counter(a))


@pytest.mark.parametrize("seed", [3, 4])
def test_auto_gives_in_the_swap_phase_and_the_round_completes(seed: int) -> None:
    rnd = Round(SWAP, 4, seed=seed)
    rnd.deal()
    assert rnd.phase == "swap"
    before = [rnd.hand(s) for s in range(4)]
    for s in range(4):
        cards = rnd.auto(s, "timeout" if s % 2 else "disconnect")
        assert isinstance(cards, tuple) and 0 <= len(cards) <= 3 and held(cards, before[s])
        assert rnd.given[s] == cards
    assert rnd.auto_given == {0: "disconnect", 1: "timeout", 2: "disconnect", 3: "timeout"}
    # The engine's choice is the first gift hint (the same pools in a seeded round).
    assert rnd.gift_hints(2, 3)[0].cards == rnd.given[2]
    rnd.finish_swap()
    conserved(before, [rnd.hand(s) for s in range(4)], rnd.given)
    for s in range(4):
        rnd.auto(s)
    result = rnd.settle()
    assert sum(result.units) == 0
    # A save holds who gave by the engine, and loads to the same round.
    again = Round.from_json(rnd.to_json())
    assert again.auto_given == rnd.auto_given and again.to_dict() == rnd.to_dict()


def test_finish_swap_gives_for_disconnected_and_missing_seats() -> None:
    # As a seat that has not arranged is auto-arranged at settlement (RULES.md 7.4): a
    # disconnected seat gives the engine's gift; with auto_missing every seat that has not
    # given does; a seat that gave keeps its own gift.
    rnd = Round(SWAP, 4, seed=8)
    rnd.deal()
    before = [rnd.hand(s) for s in range(4)]
    rnd.give(0, before[0][:2])
    rnd.disconnect(1)
    engine = thirteen.gift(before[1], SWAP, players=4, seed=8 * 8 + 1)
    rnd.finish_swap()
    assert rnd.given[0] == tuple(before[0][:2])
    assert rnd.given[1] == engine.cards
    assert rnd.auto_given == {1: "disconnect"}
    assert 2 not in rnd.given and 3 not in rnd.given
    conserved(before, [rnd.hand(s) for s in range(4)], rnd.given)
    timed = Round(SWAP, 3, seed=9)
    timed.deal()
    timed.finish_swap(auto_missing=True)
    assert timed.auto_given == {0: "timeout", 1: "timeout", 2: "timeout"}


def test_an_own_gift_replaces_the_engines_and_refusals_change_nothing() -> None:
    rnd = Round(SWAP, 2, seed=1)
    rnd.deal()
    hand = rnd.hand(0)
    rnd.auto(0)
    rnd.give(0, hand[:1])
    assert rnd.auto_given == {} and rnd.given[0] == tuple(hand[:1])
    with pytest.raises(CountError):
        rnd.auto(0, play=hand[:4])
    other = rnd.hand(1)[0]
    with pytest.raises(thirteen.CardNotHeldError):
        rnd.auto(0, play=[other])
    with pytest.raises(thirteen.ThirteenError):
        rnd.auto(0, "bored")
    assert rnd.given[0] == tuple(hand[:1]) and rnd.auto_given == {}
    with pytest.raises(thirteen.ThirteenError):
        rnd.gift_hints(0, 11)
    with pytest.raises(TypeError):
        rnd.gift_hints(0, "3")  # type: ignore[arg-type]
    rnd.finish_swap()
    with pytest.raises(RoundStateError):
        rnd.gift_hints(0)


def test_a_tables_round_and_simulate_give_by_the_engine() -> None:
    table = Table(SWAP, seats=3)
    for p in "abc":
        table.sit(p, balance=1000)
    rnd = table.start_round(seed=2)
    assert rnd.phase == "swap"
    rnd.finish_swap(auto_missing=True)
    assert set(rnd.auto_given) == {0, 1, 2}
    report = table.finish_round(auto_missing=True)
    assert sum(report.units.values()) == 0
    # simulate: ev seats give the engine's gift, a greedy seat nothing; a seeded run is
    # the same twice.
    runs = [
        thirteen.simulate(rules, 3, ["ev", "ev", "greedy"], 3, seed=4, workers=1)
        for rules in (SWAP, SWAP, RuleSet.preset("kaixin"))
    ]
    for run in runs:
        del run["seconds"]
    assert runs[0] == runs[1]
    assert runs[0]["rounds"] == 3
    # kaixin deals what kaixin-swap deals (no cut, the same deck): the swap changed play.
    assert runs[0]["mean_units_per_round"] != runs[2]["mean_units_per_round"]


def test_a_save_with_wrong_engine_gifts_is_refused_by_field() -> None:
    rnd = Round(SWAP, 3, seed=6)
    rnd.deal()
    rnd.auto(1, "disconnect")
    data = rnd.to_dict()
    assert data["auto_given"] == [None, "disconnect", None]
    # A save without engine gifts has no auto_given field (saves written before: the same).
    plain = Round(SWAP, 3, seed=6)
    plain.deal()
    assert "auto_given" not in plain.to_dict()
    for bad, key in (
        ({**data, "auto_given": [None, "disconnect"]}, "auto_given"),
        ({**data, "auto_given": [None, "disconnect", "timeout"]}, "auto_given[2]"),
        ({**data, "auto_given": [None, "bored", None]}, "auto_given[1]"),
    ):
        with pytest.raises(thirteen.SaveError) as info:
            Round.from_dict(bad)
        assert info.value.key == key, info.value
