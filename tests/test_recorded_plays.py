"""Deals, swaps and plays made before, handed to a round (issue 53): ``Round.deal(dealt)``,
``Round.finish_swap(hands)``, ``Round.auto(seat, reason, play=...)``, and a table's
``rounds_played`` and ``start_round(dealt=...)``. A save is loaded by replaying it through
these; each is checked as play would have made it (RULES.md 1, 7.1–7.3), and a refusal
changes nothing."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, List

import pytest

import thirteen
from thirteen import CardNotHeldError, CountError, DuplicateCardError, LimitError, Round
from thirteen import RoundStateError, RuleSet, Table, TableError
from thirteen.errors import DealError, ThirteenError

KAIXIN = RuleSet.preset("kaixin")
KAIXIN_SWAP = RuleSet.preset("kaixin-swap")
SHISANZHANG = RuleSet.preset("shisanzhang")  # cuts the deck (切牌)


def recorded(deal: Any, **changes: Any) -> Any:
    """A deal's parts as a save holds them (card text), with some changed."""
    parts = {
        "hands": [" ".join(map(str, h)) for h in deal.hands],
        "cut_card": None if deal.cut_card is None else str(deal.cut_card),
        "cut_start": deal.cut_start,
        "first": deal.first,
    }
    parts.update(changes)
    return SimpleNamespace(**parts)


def refused(rnd: Round, call: Any, kind: Any) -> Any:
    before = rnd.to_dict()
    with pytest.raises(kind) as info:
        call()
    assert rnd.to_dict() == before
    return info.value


def test_a_seeded_round_deals_its_seed_and_nothing_else() -> None:
    shuffled = Round(KAIXIN, 3, seed=7)
    shuffled.deal()
    replayed = Round(KAIXIN, 3, seed=7)
    replayed.deal(thirteen.deal(KAIXIN, 3, 7))
    assert replayed.to_dict() == shuffled.to_dict()
    again = Round(KAIXIN, 3, seed=7)
    again.deal(recorded(thirteen.deal(KAIXIN, 3, 7)))
    assert again.to_dict() == shuffled.to_dict()
    other = Round(KAIXIN, 3, seed=7)
    error = refused(other, lambda: other.deal(thirteen.deal(KAIXIN, 3, 8)), DealError)
    assert error.key is None and "seed 7" in str(error)


def test_an_unseeded_round_deals_any_deal_of_its_rules() -> None:
    deal = thirteen.deal(KAIXIN, 4, 99)
    rnd = Round(KAIXIN, 4)
    rnd.deal(recorded(deal))
    assert rnd.dealt_hands == tuple(tuple(h) for h in deal.hands)
    assert rnd.phase == "arrange" and rnd.first == 0


def test_a_deal_the_rules_cannot_make_is_refused() -> None:
    deal = thirteen.deal(KAIXIN, 3, 5)
    hands = [" ".join(map(str, h)) for h in deal.hands]
    rnd = Round(KAIXIN, 3)
    error = refused(rnd, lambda: rnd.deal(recorded(deal, hands=hands[:2])), CountError)
    assert (error.expected, error.got, error.player) == (3, 2, None)
    short = [hands[0], " ".join(hands[1].split()[1:]), hands[2]]
    error = refused(rnd, lambda: rnd.deal(recorded(deal, hands=short)), CountError)
    assert (error.expected, error.got, error.player) == (13, 12, 1)
    # Seat 1's first card is seat 0's first card too: a standard deck has it once.
    twice = [hands[0], " ".join([hands[0].split()[0]] + hands[1].split()[1:]), hands[2]]
    error = refused(rnd, lambda: rnd.deal(recorded(deal, hands=twice)), DuplicateCardError)
    assert error.card == hands[0].split()[0]
    # Without a cut, seat 0 is dealt first and there is no cut card.
    for change in ({"first": 1}, {"cut_card": "As", "cut_start": 0}):
        error = refused(rnd, lambda: rnd.deal(recorded(deal, **change)), DealError)
        assert error.key is None
    with pytest.raises(RoundStateError):
        dealt = Round(KAIXIN, 3)
        dealt.deal()
        dealt.deal(recorded(deal))


def test_the_cut_must_reach_the_first_seat() -> None:
    deal = thirteen.deal(SHISANZHANG, 4, 3)
    assert deal.cut_card is not None and deal.cut_start is not None
    rank = int(deal.cut_card.rank)
    count = 1 if rank == 14 else rank  # A counts 1, K 13 (RULES.md 7.2)
    assert deal.first == (deal.cut_start + count - 1) % 4
    rnd = Round(SHISANZHANG, 4)
    rnd.deal(recorded(deal))
    assert rnd.first == deal.first
    for change, key in (
        ({"first": (deal.first + 1) % 4}, "first"),
        ({"cut_start": 4}, "cut_start"),
        ({"cut_card": None}, "cut_card"),
        ({"cut_start": None}, "cut_card"),
    ):
        fresh = Round(SHISANZHANG, 4)
        error = refused(fresh, lambda: fresh.deal(recorded(deal, **change)), DealError)
        assert error.key == key


def swap_round(seed: Any) -> Round:
    rnd = Round(KAIXIN_SWAP, 3, seed=seed)
    rnd.deal(thirteen.deal(KAIXIN_SWAP, 3, 12))
    rnd.give(0, rnd.hand(0)[:3])
    rnd.give(2, rnd.hand(2)[:1])
    return rnd


def test_a_seeded_swap_is_the_seeds() -> None:
    shuffled, replayed = swap_round(12), swap_round(12)
    shuffled.finish_swap()
    replayed.finish_swap([h for h in (shuffled.hand(s) for s in range(3))])
    assert replayed.to_dict() == shuffled.to_dict()
    kept = swap_round(12)
    error = refused(kept, lambda: kept.finish_swap([kept.hand(s) for s in range(3)]), DealError)
    assert error.key == "hands"


def test_an_unseeded_swap_is_any_swap_of_the_gifts() -> None:
    rnd = swap_round(None)
    hands: List[Any] = [list(rnd.hand(s)) for s in range(3)]
    # Seat 0 draws back seat 2's gift and two of its own; seat 2 draws seat 0's third.
    gift0, gift2 = hands[0][:3], hands[2][:1]
    after = [gift2 + gift0[:2] + hands[0][3:], hands[1], gift0[2:] + hands[2][1:]]
    rnd.finish_swap(after)
    assert [sorted(map(str, rnd.hand(s))) for s in range(3)] == [
        sorted(map(str, h)) for h in after
    ]
    # Seat 1 gave nothing: it cannot come out with another card.
    other = swap_round(None)
    moved = [hands[0], [hands[2][0]] + hands[1][1:], [hands[1][0]] + hands[2][1:]]
    error = refused(other, lambda: other.finish_swap(moved), DealError)
    assert error.key == "hands"
    error = refused(other, lambda: other.finish_swap(hands[:2]), CountError)
    assert (error.expected, error.got) == (3, 2)


def test_auto_records_a_play_made_elsewhere() -> None:
    rnd = Round(KAIXIN, 3, seed=4)
    rnd.deal()
    play = thirteen.solve(rnd.hand(1), KAIXIN, players=3, strategy="greedy").submission()
    assert rnd.auto(1, "disconnect", play=play) == play
    assert rnd.submissions[1] == play and rnd.auto_reasons == {1: "disconnect"}
    theirs = rnd.submissions[1]
    refused(rnd, lambda: rnd.auto(2, play=theirs), CardNotHeldError)
    refused(rnd, lambda: rnd.auto(1, play=play), RoundStateError)


def test_a_table_carries_its_rounds_played_and_deals_a_recorded_deal() -> None:
    table = Table(KAIXIN, rounds_played=12)
    assert table.rounds_played == 12
    with pytest.raises(LimitError, match="rounds_played") as info:
        Table(KAIXIN, rounds_played=-1)
    assert info.value.key == "rounds_played"
    for bad in ("3", 1.0, True):
        with pytest.raises(TypeError, match="rounds_played"):
            Table(KAIXIN, rounds_played=bad)  # type: ignore[arg-type]
    for p in ("a", "b"):
        table.sit(p, None, 100)
    deal = thirteen.deal(KAIXIN, 2, 31)
    view = table.start_round(dealt=deal)
    assert view.dealt_hands == tuple(tuple(h) for h in deal.hands) and view.seed is None
    table.finish_round(auto_missing=True)
    before = table.to_dict()
    with pytest.raises(DuplicateCardError):
        table.start_round(dealt=recorded(deal, hands=[recorded(deal).hands[0]] * 2))
    assert table.to_dict() == before


def test_the_refusals_a_save_reuses_say_what_a_save_says() -> None:
    rnd = Round(KAIXIN, 2, seed=1)
    rnd.deal()
    rnd.escape(1)
    with pytest.raises(RoundStateError, match="at least one seat must stay"):
        rnd.escape(0)
    table = Table(KAIXIN)
    table.sit("p", None, 100)
    with pytest.raises(TableError, match="twice"):
        table.sit("p", None, 100)
    assert issubclass(DealError, ThirteenError) and DealError.kind == "bad_deal"


def test_a_round_names_the_player_of_a_seat() -> None:
    rnd = Round(KAIXIN, ["north", 7, "west"])
    assert [rnd.player_of(s) for s in range(3)] == ["north", 7, "west"]
    for bad in (-1, 3, "1", True):
        with pytest.raises(ThirteenError, match="not a seat"):
            rnd.player_of(bad)  # type: ignore[arg-type]
