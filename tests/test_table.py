"""The server-facing round flow: ``thirteen.Round`` and ``thirteen.Table`` (RULES.md 5, 7, 8).

Expected values are worked out by hand from RULES.md (escape payments, surrender, rake,
banker stakes, ladders) from the round's own showdown results, never read back from the
code under test.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Dict, List, Sequence

import pytest

import thirteen
from thirteen import Arrangement, CardNotHeldError, CountError, Declaration, DuplicateCardError
from thirteen import FalseSpecialError, FouledError, PlayerCountError, Round, RoundResult
from thirteen import RoundStateError, RuleSet, SurrenderError, Table, TableError, ThirteenError

KAIXIN = RuleSet.preset("kaixin")
KAIXIN_SWAP = RuleSet.preset("kaixin-swap")
KAIXIN_EXTRA = RuleSet.preset("kaixin-extra")
BIANFENG = RuleSet.preset("bianfeng")
LUOSONG = RuleSet.preset("luosong")
WESTERN = RuleSet.preset("western-2-4")
SHISANZHANG = RuleSet.preset("shisanzhang")

# RULES.md 8: the first titles of the two ladders.
MONEY_TITLES = [
    "jobless", "temp worker", "contract worker", "regular worker", "assistant supervisor"
]  # fmt: skip
POINTS_TITLES = ["newbie", "beginner", "novice", "intermediate", "senior"]


def level_of(score: int) -> int:
    """RULES.md 8 by hand: level k needs 100 × 2^(k−1); below 100 is level 1."""
    score = max(score, 0)
    level = 1
    while level < 24 and score >= 100 * 2**level:
        level += 1
    return level


def solved(rnd: Round, seat: int) -> Any:
    """The solver's play for a seat (what a client would submit)."""
    banker = rnd.rules.mode == "banker" and seat == rnd.banker
    return thirteen.solve(rnd.hand(seat), rnd.rules, players=rnd.seats, banker=banker).submission()


def submit_all(rnd: Round, seats: Sequence[int]) -> None:
    for seat in seats:
        rnd.submit(seat, solved(rnd, seat))


def dealt_round(rules: RuleSet, seats: Any, seed: int, **kwargs: Any) -> Round:
    rnd = Round(rules, seats, seed=seed, **kwargs)
    rnd.deal()
    return rnd


def pair_sums(settlement: Dict[str, Any], n: int) -> List[int]:
    """Each seat's total as the sum of its pair results (signed from the lower seat)."""
    out = [0] * n
    for pair in settlement["pairs"]:
        a, b = pair["seats"]
        out[a] += pair["total"]
        out[b] -= pair["total"]
    return out


# --------------------------------------------------------------------------- a round


def test_full_round_kaixin() -> None:
    rnd = Round(KAIXIN, ["ann", "bob", "cat", "dan"], seed=2026, stake=25)
    assert rnd.phase == "new"
    with pytest.raises(RoundStateError):
        rnd.hand(0)
    rnd.deal()
    assert rnd.phase == "arrange"  # kaixin has no swap-three
    hands = [rnd.hand(s) for s in range(4)]
    assert all(len(h) == 13 for h in hands)
    assert len({c for h in hands for c in h}) == 52
    with pytest.raises(RoundStateError):
        rnd.deal()
    submit_all(rnd, [0, 1, 2])
    assert rnd.missing == (3,)
    before = rnd.to_dict()
    with pytest.raises(RoundStateError) as err:
        rnd.settle()
    assert err.value.player == 3
    assert rnd.to_dict() == before
    submit_all(rnd, [3])
    with pytest.raises(RoundStateError):
        rnd.submit(0, solved(rnd, 0))  # a seat submits once
    res = rnd.settle()
    assert rnd.phase == "settled" and rnd.result == res
    assert res.players == ("ann", "bob", "cat", "dan")
    assert sum(res.units) == 0
    assert res.escape == (0, 0, 0, 0)
    assert res.results == res.units
    assert list(res.units) == res.settlement["totals"]
    assert pair_sums(res.settlement, 4) == list(res.units)
    assert len(res.settlement["pairs"]) == 6  # all pairs of 4
    assert res.money == tuple(u * 25 for u in res.units)
    assert res.rake == (0, 0, 0, 0)
    assert res.auto == (None, None, None, None)
    assert res.balances is None and res.bankrupt == ()
    with pytest.raises(RoundStateError):
        rnd.settle()


def test_fouled_submission_rejected_and_round_unchanged() -> None:
    rnd = dealt_round(KAIXIN, 4, seed=7)
    fouled = None
    for seat in range(4):
        play = solved(rnd, seat)
        if isinstance(play, Arrangement):
            # Middle and back exchanged: the stronger five now sit in the middle.
            candidate = Arrangement(play.front, play.back, play.middle)
            if thirteen.is_foul(candidate, KAIXIN):
                fouled = (seat, candidate, play)
                break
    assert fouled is not None
    seat, bad, good = fouled
    submit_all(rnd, [s for s in range(4) if s != seat][:1])
    before = rnd.to_dict()
    with pytest.raises(FouledError) as err:
        rnd.submit(seat, bad)
    assert err.value.player == seat
    assert rnd.to_dict() == before
    assert seat not in rnd.submissions
    rnd.submit(seat, good)  # the player rearranges
    assert rnd.submissions[seat] == good


def test_wrong_cards_rejected() -> None:
    rnd = dealt_round(KAIXIN, 4, seed=11)
    before = rnd.to_dict()
    other = solved(rnd, 1)
    with pytest.raises(CardNotHeldError) as err:
        rnd.submit(0, other)  # seat 1's cards
    assert isinstance(err.value, ThirteenError)
    assert err.value.player == 0
    hand = list(rnd.hand(0))
    stranger = rnd.hand(2)[0]
    swapped = [stranger] + hand[1:]
    with pytest.raises(CardNotHeldError) as err:
        rnd.submit(0, Arrangement(swapped[:3], swapped[3:8], swapped[8:]))
    assert err.value.player == 0 and err.value.card == str(stranger)
    with pytest.raises(CountError) as err_count:
        rnd.submit(0, Declaration(hand[:12]))
    assert err_count.value.player == 0 and err_count.value.got == 12
    with pytest.raises(DuplicateCardError) as err_dup:
        rnd.submit(0, Declaration(hand[:12] + [hand[0]]))
    assert err_dup.value.player == 0 and err_dup.value.card == str(hand[0])
    with pytest.raises(TypeError):
        rnd.submit(0, "not a submission")  # type: ignore[arg-type]
    with pytest.raises(ThirteenError):
        rnd.submit(4, other)  # no such seat
    assert rnd.to_dict() == before


def test_false_special_rejected() -> None:
    rnd = dealt_round(KAIXIN, 4, seed=11)
    plain = [s for s in range(4) if not thirteen.held_specials(rnd.hand(s), KAIXIN)]
    assert plain
    seat = plain[0]
    hand = rnd.hand(seat)
    before = rnd.to_dict()
    with pytest.raises(FalseSpecialError) as err:
        rnd.submit(seat, Declaration(hand))
    assert err.value.player == seat
    # A dragon needs 13 distinct ranks (RULES.md 4); this hand repeats one.
    assert len({c.rank for c in hand}) < 13
    with pytest.raises(FalseSpecialError) as err:
        rnd.submit(seat, Declaration(hand, "dragon"))
    assert err.value.player == seat and err.value.special == "dragon"
    assert rnd.to_dict() == before


def test_swap_three_kaixin_swap() -> None:
    rnd = dealt_round(KAIXIN_SWAP, 4, seed=31)
    assert rnd.phase == "swap"
    old = [rnd.hand(s) for s in range(4)]
    with pytest.raises(RoundStateError):
        rnd.submit(0, solved(rnd, 0))  # not before the swap
    with pytest.raises(CountError) as err:
        rnd.give(0, old[0][:4])  # at most 3 (RULES.md 7.3)
    assert err.value.player == 0
    with pytest.raises(CardNotHeldError):
        rnd.give(0, [old[1][0]])
    rnd.give(0, old[0][5:8])  # replaced by the next gift
    gifts = {0: old[0][:3], 1: old[1][:2], 2: old[2][4:5]}
    for seat, cards in gifts.items():
        rnd.give(seat, list(cards))
    rnd.finish_swap()
    assert rnd.phase == "arrange"
    new = [rnd.hand(s) for s in range(4)]
    assert Counter(c for h in old for c in h) == Counter(c for h in new for c in h)
    drawn_all: Counter = Counter()
    for seat in range(4):
        given = Counter(gifts.get(seat, ()))
        kept = Counter(old[seat]) - given
        assert len(new[seat]) == 13
        assert not kept - Counter(new[seat])  # kept cards stay
        drawn = Counter(new[seat]) - kept
        assert sum(drawn.values()) == sum(given.values())  # back as many as given
        drawn_all += drawn
    assert drawn_all == Counter(c for g in gifts.values() for c in g)  # the pool
    assert Counter(new[3]) == Counter(old[3])  # seat 3 gave nothing
    assert rnd.dealt_hands == tuple(old)
    with pytest.raises(RoundStateError):
        rnd.give(3, old[3][:1])
    # Replay: the same seed and gifts give the same hands.
    again = dealt_round(KAIXIN_SWAP, 4, seed=31)
    assert [again.hand(s) for s in range(4)] == old
    for seat, cards in gifts.items():
        again.give(seat, cards)
    again.finish_swap()
    assert [again.hand(s) for s in range(4)] == new
    submit_all(rnd, range(4))
    assert sum(rnd.settle().units) == 0


def test_kaixin_extra_submits_13_of_16() -> None:
    rnd = dealt_round(KAIXIN_EXTRA, 4, seed=5)
    hands = [rnd.hand(s) for s in range(4)]
    assert all(len(h) == 16 for h in hands)
    counts = Counter(c for h in hands for c in h)
    assert sum(counts.values()) == 64
    assert all(n == 1 or (n == 2 and str(c).endswith("d")) for c, n in counts.items())
    undealt = Counter(thirteen.deck(KAIXIN_EXTRA)) - counts
    assert sum(undealt.values()) == 1  # 65 − 64
    (card,) = undealt
    seat = next(s for s in range(4) if card not in hands[s])
    cards = list(hands[seat][:13])
    bad = [card] + cards[1:]
    before = rnd.to_dict()
    with pytest.raises(CardNotHeldError) as err:
        rnd.submit(seat, Declaration(bad))
    assert err.value.player == seat and err.value.card == str(card)
    with pytest.raises(CountError):
        rnd.submit(seat, Declaration(hands[seat]))  # 16 cards, not 13
    assert rnd.to_dict() == before
    # Each seat keeps 13 of its 16 (here the last 13) in a legal split. (The solver is not
    # used: no lane tables ship for kaixin-extra, and building them takes seconds.)
    for s in range(4):
        kept = list(hands[s][3:])
        rnd.submit(s, thirteen.splits(kept, KAIXIN_EXTRA, legal=True)[0])
    res = rnd.settle()
    assert sum(res.units) == 0
    assert all(not Counter(rnd.submissions[s].cards) - Counter(hands[s]) for s in range(4))


# --------------------------------------------------------------------------- escape


def expected_winner_escape(results: Sequence[int], leaver: int, amount: int) -> List[int]:
    """RULES.md 5 by hand: ``amount`` to the highest result, ties split, remainders one at
    a time to the seats after the leaver in seat order."""
    n = len(results)
    others = [s for s in range(n) if s != leaver]
    best = max(results[s] for s in others)
    winners = [s for s in others if results[s] == best]
    share, rest = divmod(amount, len(winners))
    out = [0] * n
    for s in winners:
        out[s] = share
    for k in range(1, n):
        s = (leaver + k) % n
        if s in winners and rest:
            out[s] += 1
            rest -= 1
    out[leaver] = -amount
    return out


def test_escape_kaixin_to_winner() -> None:
    rnd = dealt_round(KAIXIN, 4, seed=41, stake=5)
    submit_all(rnd, [0, 2])
    rnd.escape(2)  # leaves after submitting: the submission is dropped
    assert rnd.escaped == (2,) and 2 not in rnd.submissions
    with pytest.raises(RoundStateError):
        rnd.submit(2, solved(rnd, 2))
    with pytest.raises(RoundStateError):
        rnd.escape(2)
    submit_all(rnd, [1, 3])
    res = rnd.settle()
    assert res.escaped == (2,)
    assert res.settled_seats == (0, 1, 3)
    assert len(res.settlement["totals"]) == 3
    assert res.results[2] == 0 and sum(res.results) == 0
    # The others are settled among themselves (RULES.md 5 "Escape").
    direct = thirteen.settle([rnd.submissions[s] for s in (0, 1, 3)], KAIXIN).totals
    assert [res.results[s] for s in (0, 1, 3)] == direct
    expected = expected_winner_escape(res.results, 2, 48)  # kaixin: 4 players → 48
    assert list(res.escape) == expected
    assert list(res.units) == [r + e for r, e in zip(res.results, expected)]
    assert res.units[2] == -48
    assert res.money == tuple(5 * u for u in res.units)
    assert sum(res.units) == 0


def test_escape_kaixin_three_and_two_players() -> None:
    rnd = dealt_round(KAIXIN, 3, seed=42)
    rnd.escape(0)
    submit_all(rnd, [1, 2])
    res = rnd.settle()
    assert list(res.escape) == expected_winner_escape(res.results, 0, 24)  # 3 players → 24
    # Two players: the one left is the winner and takes 12; nothing else is compared.
    two = dealt_round(KAIXIN, ["x", "y"], seed=43)
    two.escape(0)
    with pytest.raises(RoundStateError):
        two.escape(1)  # the last seat cannot escape
    two.submit(1, solved(two, 1))
    res2 = two.settle()
    assert res2.settlement is None
    assert res2.results == (0, 0)
    assert res2.units == (-12, 12)


def test_escape_bianfeng_split() -> None:
    rnd = dealt_round(BIANFENG, 4, seed=51)
    rnd.escape(1)
    submit_all(rnd, [0, 2, 3])
    res = rnd.settle()
    assert res.settled_seats == (0, 2, 3)
    assert res.escape == (6, -18, 6, 6)  # 18 split equally among 3
    assert res.units == tuple(r + e for r, e in zip(res.results, (6, -18, 6, 6)))
    assert sum(res.units) == 0
    # An uneven split: the remainder goes one unit at a time to the seats after the leaver.
    odd = BIANFENG.replace(escape={"to": "split", "units": 19})
    rnd = dealt_round(odd, 4, seed=52)
    rnd.escape(2)
    submit_all(rnd, [0, 1, 3])
    assert rnd.settle().escape == (6, 6, -19, 7)  # 19 = 3 × 6 + 1 → seat 3
    odd = BIANFENG.replace(escape={"to": "split", "units": 20})
    rnd = dealt_round(odd, 4, seed=53)
    rnd.escape(3)
    submit_all(rnd, [0, 1, 2])
    assert rnd.settle().escape == (7, 7, 6, -20)  # 20 = 3 × 6 + 2 → seats 0, 1
    three = dealt_round(BIANFENG, 3, seed=54)
    three.escape(0)
    submit_all(three, [1, 2])
    assert three.settle().escape == (-18, 9, 9)


def test_escape_two_leavers_pay_separately() -> None:
    rnd = dealt_round(BIANFENG, 4, seed=55)
    rnd.escape(0)
    rnd.escape(2)
    submit_all(rnd, [1, 3])
    res = rnd.settle()
    assert res.settled_seats == (1, 3)
    # Each leaver's 18 is split between the two seats still in.
    assert res.escape == (-18, 18, -18, 18)


def test_escape_without_rule_is_auto_arranged() -> None:
    assert SHISANZHANG.escape is None
    rnd = dealt_round(SHISANZHANG, 4, seed=61)
    rnd.escape(1)
    assert rnd.escaped == ()
    assert 1 in rnd.submissions and rnd.auto_reasons == {1: "disconnect"}
    submit_all(rnd, [0, 2, 3])
    res = rnd.settle()
    assert res.auto == (None, "disconnect", None, None)
    assert res.settled_seats == (0, 1, 2, 3) and res.escape == (0, 0, 0, 0)
    assert sum(res.units) == 0


# --------------------------------------------------------------------------- other rules


def test_surrender_western() -> None:
    rnd = dealt_round(WESTERN, 3, seed=71)
    rnd.surrender(1)
    with pytest.raises(RoundStateError):
        rnd.submit(1, solved(rnd, 1))
    with pytest.raises(RoundStateError):
        rnd.surrender(1)
    submit_all(rnd, [0, 2])
    with pytest.raises(RoundStateError):
        rnd.surrender(0)
    res = rnd.settle()
    assert res.surrendered == (1,)
    a, b = rnd.submissions[0], rnd.submissions[2]
    assert not thirteen.is_foul(a, WESTERN) and not thirteen.is_foul(b, WESTERN)
    # Seat 0 against seat 2 by hand: 1 unit a lane, +1 for the majority (2-4 scoring).
    won = [0, 0]
    for lane_a, lane_b in zip(a.lanes, b.lanes):
        c = thirteen.compare_lanes(lane_a, lane_b, WESTERN)
        if c > 0:
            won[0] += 1
        elif c < 0:
            won[1] += 1
    pair = won[0] - won[1] + (1 if won[0] > won[1] else -1 if won[1] > won[0] else 0)
    # The surrendered seat pays 3 to each of the others (RULES.md 5 step 1).
    assert res.units == (pair + 3, -6, -pair + 3)
    with pytest.raises(SurrenderError) as err:
        dealt_round(KAIXIN, 4, seed=72).surrender(2)
    assert err.value.player == 2


def test_banker_mode_luosong_with_stakes() -> None:
    stakes = [1, 1, 2, 3]
    rnd = dealt_round(LUOSONG, 4, seed=81, banker=1, stakes=stakes)
    plain = dealt_round(LUOSONG, 4, seed=81, banker=1)
    for seat in range(4):
        play = solved(rnd, seat)
        rnd.submit(seat, play)
        plain.submit(seat, play)
    res, ref = rnd.settle(), plain.settle()
    # Only banker–player pairs are scored; each is multiplied by the player's stake.
    assert all(1 in pair["seats"] for pair in ref.settlement["pairs"])
    assert len(ref.settlement["pairs"]) == 3
    for seat in (0, 2, 3):
        assert res.units[seat] == stakes[seat] * ref.units[seat]
    assert res.units[1] == -sum(res.units[s] for s in (0, 2, 3))
    with pytest.raises(ThirteenError):
        Round(KAIXIN, 4, stakes=[1, 1, 1, 1])  # stakes are for banker mode
    with pytest.raises(ThirteenError):
        Round(LUOSONG, 4, banker=4)


def test_rake_only_from_winners() -> None:
    # Two players, one escapes: units are known by hand, -12 / +12 (kaixin, 2 players).
    def escaped_round(stake: int, rake: Any) -> RoundResult:
        rnd = dealt_round(KAIXIN, 2, seed=91, stake=stake, rake=rake)
        rnd.escape(0)
        rnd.submit(1, solved(rnd, 1))
        return rnd.settle()

    res = escaped_round(100, (5, None))
    assert res.units == (-12, 12)
    assert res.money == (-1200, 1140)  # 5 % of 1200
    assert res.rake == (0, 60)
    assert escaped_round(100, (5, 50)).money == (-1200, 1150)  # capped at 50
    assert escaped_round(33, ("2.5", None)).money == (-396, 387)  # floor(9.9) = 9
    assert escaped_round(33, (2.5, 5)).money == (-396, 391)
    # A full round: each winner pays floor(5 %) at most 3, losers pay in full.
    rnd = dealt_round(KAIXIN, 4, seed=92, stake=40, rake=(5, 3))
    submit_all(rnd, range(4))
    full = rnd.settle()
    for u, m in zip(full.units, full.money):
        amount = 40 * u
        assert m == (amount - min(amount * 5 // 100, 3) if amount > 0 else amount)
    assert sum(full.money) == -sum(full.rake) <= 0
    with pytest.raises(ThirteenError):
        Round(KAIXIN, 4, rake=("abc", None))


def test_replayed_seed_same_deal() -> None:
    a = dealt_round(KAIXIN, 4, seed=99)
    b = dealt_round(KAIXIN, 4, seed=99)
    c = dealt_round(KAIXIN, 4, seed=100)
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]
    direct = thirteen.deal(KAIXIN, 4, seed=99).hands
    assert [a.hand(s) for s in range(4)] == [tuple(h) for h in direct]
    assert [a.hand(s) for s in range(4)] != [c.hand(s) for s in range(4)]
    # With the cut (切牌), the cut card and the first seat replay too.
    x = dealt_round(SHISANZHANG, 3, seed=7)
    y = dealt_round(SHISANZHANG, 3, seed=7)
    assert x.cut_card is not None and x.cut_card == y.cut_card
    assert x.first == y.first and x.cut_start == y.cut_start
    assert [x.hand(s) for s in range(3)] == [y.hand(s) for s in range(3)]
    # Without a seed the deal is random and no seed is recorded.
    z = Round(KAIXIN, 4)
    z.deal()
    assert z.seed is None and len(z.hand(0)) == 13


# --------------------------------------------------------------------------- saving


def test_serialise_mid_round_and_resume() -> None:
    rnd = dealt_round(KAIXIN, ["a", "b", "c", "d"], seed=2024, stake=7, rake=("2.5", 10))
    submit_all(rnd, [0, 1])
    rnd.disconnect(3)
    text = rnd.to_json()
    json.loads(text)  # plain JSON
    copy = Round.from_json(text)
    assert copy.to_dict() == rnd.to_dict()
    assert copy.phase == "arrange" and copy.submissions == rnd.submissions
    assert [copy.hand(s) for s in range(4)] == [rnd.hand(s) for s in range(4)]
    for r in (rnd, copy):
        r.submit(2, solved(r, 2))
    balances = [500, 40, 900, 60]
    one = rnd.settle(balances=balances, min_balance=50)
    two = copy.settle(balances=balances, min_balance=50)
    assert one == two
    assert one.auto == (None, None, None, "disconnect")  # seat 3 was auto-arranged (代打)
    # Balances and bankruptcy by hand.
    assert one.balances == tuple(b + m for b, m in zip(balances, one.money))
    assert one.bankrupt == tuple(s for s in range(4) if balances[s] + one.money[s] < 50)
    assert RoundResult.from_dict(json.loads(json.dumps(one.to_dict()))) == one
    settled = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    assert settled.phase == "settled" and settled.result == one


def test_serialise_mid_swap_with_escape_and_resume() -> None:
    rnd = dealt_round(KAIXIN_SWAP, 4, seed=2025)
    rnd.give(0, rnd.hand(0)[:3])
    rnd.escape(2)
    copy = Round.from_json(rnd.to_json())
    for r in (rnd, copy):
        r.give(1, r.hand(1)[-2:])
        r.finish_swap()
    assert [copy.hand(s) for s in range(4)] == [rnd.hand(s) for s in range(4)]
    for r in (rnd, copy):
        r.submit(0, solved(r, 0))
    saved = Round.from_json(rnd.to_json())
    results = [r.settle(auto_missing=True) for r in (rnd, copy, saved)]
    assert results[0] == results[1] == results[2]
    assert results[0].escaped == (2,)
    assert results[0].auto == (None, "timeout", None, "timeout")
    assert results[0].units[2] == -48


def test_auto_and_hints() -> None:
    rnd = dealt_round(KAIXIN, 4, seed=3)
    hints = rnd.hints(0, n=3)
    assert 1 <= len(hints) <= 3
    with pytest.raises(ThirteenError):
        rnd.auto(0, reason="bored")
    play = rnd.auto(0)
    assert rnd.submissions[0] == play and rnd.auto_reasons == {0: "timeout"}
    rnd.auto(1, reason="disconnect")
    before = rnd.to_dict()
    with pytest.raises(RoundStateError):
        rnd.settle()
    assert rnd.to_dict() == before
    res = rnd.settle(auto_missing=True)
    assert res.auto == ("timeout", "disconnect", "timeout", "timeout")


def test_bad_round_arguments() -> None:
    with pytest.raises(PlayerCountError):
        Round(KAIXIN, 5)
    with pytest.raises(PlayerCountError):
        Round(KAIXIN.replace(players=[4]), ["a", "b", "c"])
    with pytest.raises(ThirteenError):
        Round(KAIXIN, ["a", "a"])
    with pytest.raises(ThirteenError):
        Round(KAIXIN, 4, seed=-1)
    with pytest.raises(ThirteenError):
        Round(KAIXIN, 4, stake=-1)


# --------------------------------------------------------------------------- the table


def auto_units(rules: RuleSet, n: int, seed: int) -> List[int]:
    """The units of a round where every seat submits the solver's play, as
    :func:`submit_players` does (to choose where to seat)."""
    rnd = dealt_round(rules, n, seed=seed)
    submit_all(rnd, range(n))
    return list(rnd.settle().units)


def submit_players(table: Table, players: Sequence[Any]) -> None:
    rnd = table.round
    assert rnd is not None
    for p in players:
        seat = table.round_seat(p)
        rnd.submit(seat, solved(rnd, seat))


def expected_changes(before: Dict[Any, int], after: Dict[Any, int]) -> Dict[Any, tuple]:
    return {
        p: (level_of(before[p]), level_of(after[p]))
        for p in before
        if level_of(before[p]) != level_of(after[p])
    }


def test_table_three_rounds() -> None:
    stake = 10
    table = Table(KAIXIN, stake=stake, min_balance=100)
    assert table.size == 4
    seed1 = 1001
    units = auto_units(KAIXIN, 4, seed1)
    winner = units.index(max(units))
    loser = units.index(min(units))
    assert units[loser] < 0 < units[winner]
    rest = [s for s in range(4) if s not in (winner, loser)]
    names = {winner: "win", loser: "lose", rest[0]: "quit", rest[1]: "stay"}
    balances = {"win": 399, "lose": 100, "quit": 1000, "stay": 1000}
    points = {"win": 199, "lose": 0, "quit": 0, "stay": 0}
    for seat in range(4):
        p = names[seat]
        assert table.sit(p, seat, balances[p], points=points[p]) == seat
    with pytest.raises(TableError):
        table.sit("late", 0, 1000)  # taken
    with pytest.raises(TableError):
        table.sit("poor", None, 99)  # below the room minimum

    # Round 1: the loser goes bankrupt (破产), "quit" asked to stand up (自动站起).
    rnd = table.start_round(seed=seed1)
    assert rnd.players == tuple(names[s] for s in range(4))
    with pytest.raises(TableError):
        table.start_round()
    with pytest.raises(TableError):
        table.stand("quit")  # dealt in: not between rounds
    assert table.stand_after_round("quit") is None
    submit_players(table, table.players)
    report = table.finish_round()
    assert table.round is None and table.rounds_played == 1
    assert [report.units[names[s]] for s in range(4)] == units
    after_bal = {p: balances[p] + stake * report.units[p] for p in balances}
    after_pts = {p: points[p] + report.units[p] for p in points}
    assert report.money == {p: stake * report.units[p] for p in balances}
    assert report.balances == after_bal and report.points == after_pts
    assert report.bankrupt == ("lose",)
    assert report.stood_up == {"lose": "bankrupt", "quit": "stand_after_round"}
    assert set(table.players) == {"win", "stay"}
    # Level changes by hand (RULES.md 8): 399 is level 2 (temp worker), 400 level 3.
    money_moves = expected_changes(balances, after_bal)
    points_moves = expected_changes(points, after_pts)
    assert money_moves["win"][0] == 2 and money_moves["win"][1] >= 3
    assert points_moves["win"] == (1, 2)
    got = {
        ladder: {
            c.player: (c.before.level, c.after.level)
            for c in report.level_changes
            if c.ladder == ladder
        }
        for ladder in ("bianfeng-money", "bianfeng-points")
    }
    assert got == {"bianfeng-money": money_moves, "bianfeng-points": points_moves}
    win = {c.ladder: c for c in report.level_changes if c.player == "win"}
    win_money, win_points = win["bianfeng-money"], win["bianfeng-points"]
    assert win_money.before.title == MONEY_TITLES[1] and win_money.promoted
    if win_money.after.level <= 5:
        assert win_money.after.title == MONEY_TITLES[win_money.after.level - 1]
    assert (win_points.before.title, win_points.after.title) == tuple(POINTS_TITLES[:2])

    # Round 2: four again; "stay" disconnects (断线) and is auto-played, "new1" comes back.
    table.sit("new1", None, 2000)
    table.sit("new2", None, 2000)
    assert len(table.players) == 4
    bal2 = {p: table.balance(p) for p in table.players}
    table.start_round(seed=1002)
    assert table.disconnect("stay") is None
    table.disconnect("new1")
    table.reconnect("new1")
    with pytest.raises(TableError):
        table.reconnect("new2")
    submit_players(table, ["win", "new1", "new2"])
    report2 = table.finish_round()
    assert report2.auto == {"stay": "disconnect"}
    assert report2.stood_up == {"stay": "disconnected"}
    assert report2.balances == {p: bal2[p] + stake * report2.units[p] for p in bal2}
    assert sum(report2.units.values()) == 0
    assert "stay" not in table.players and "new1" in table.players
    with pytest.raises(TableError):
        table.reconnect("stay")  # the seat was released

    # Round 3: "new2" leaves mid-round (强退) and pays the escape penalty.
    table.sit("new3", None, 3000)
    bal3 = {p: table.balance(p) for p in table.players}
    rnd3 = table.start_round(seed=1003)
    assert len(rnd3.players) == 4
    table.leave("new2")
    submit_players(table, [p for p in rnd3.players if p != "new2"])
    report3 = table.finish_round()
    res3 = report3.result
    leaver = rnd3.players.index("new2")
    assert list(res3.escape) == expected_winner_escape(res3.results, leaver, 48)
    assert report3.units["new2"] == -48
    assert report3.balances["new2"] == bal3["new2"] - 48 * stake
    assert report3.escaped == ("new2",)
    assert report3.stood_up == {"new2": "left"}
    assert report3.balances == {p: bal3[p] + stake * report3.units[p] for p in bal3}
    assert "new2" not in table.players
    assert table.rounds_played == 3
    for p in table.players:
        assert table.balance(p) == report3.balances[p]


def test_table_serialise_mid_round() -> None:
    table = Table(KAIXIN, stake=3, rake=(10, 20), min_balance=10)
    for i, p in enumerate(["p", "q", "r", "s"]):
        table.sit(p, i, 1000 + i, points=i)
    table.start_round(seed=555)
    submit_players(table, ["p", "q"])
    table.disconnect("s")
    table.stand_after_round("q")
    copy = Table.from_json(table.to_json())
    assert copy.to_dict() == table.to_dict()
    for t in (table, copy):
        submit_players(t, ["r"])
    one, two = table.finish_round(), copy.finish_round()
    assert one == two
    assert one.stood_up == {"q": "stand_after_round", "s": "disconnected"}
    assert table.to_dict() == copy.to_dict()
    # Rake: winners lose floor(10 %) capped at 20; losers pay in full.
    for p, u in one.units.items():
        amount = 3 * u
        assert one.money[p] == (amount - min(amount // 10, 20) if amount > 0 else amount)


def test_table_rules_and_errors() -> None:
    table = Table(KAIXIN, min_balance=10)
    table.sit("a", None, 100)
    with pytest.raises(PlayerCountError):
        table.start_round()  # one player
    with pytest.raises(TableError):
        table.finish_round()
    with pytest.raises(TableError):
        table.sit("a", None, 100)  # already seated
    table.sit("b", 3, 100)
    assert table.seats == ("a", None, None, "b")
    rnd = table.start_round(seed=9)
    assert rnd.players == ("a", "b")
    table.sit("c", None, 100)  # sits during the round: dealt in from the next one
    assert "c" not in rnd.players
    assert table.stand("c").balance == 100
    before = table.to_dict()
    with pytest.raises(RoundStateError):
        table.finish_round()  # nobody submitted
    assert table.to_dict() == before
    report = table.finish_round(auto_missing=True)
    assert report.auto == {"a": "timeout", "b": "timeout"}
    assert table.leave("a").player == "a"  # between rounds: stands up at once
    assert table.players == ("b",)
    # Banker mode: the banker and stake multipliers are set per round.
    lt = Table(LUOSONG)
    for p in ("a", "b", "c"):
        lt.sit(p, None, 1000)
    r = lt.start_round(seed=4, banker="b", stakes={"c": 2})
    assert r.banker == 1 and r.stakes == (1, 1, 2)
    res = lt.finish_round(auto_missing=True).result
    assert all(1 in pair["seats"] for pair in res.settlement["pairs"])


def test_a_table_round_hands_on_its_rounds_reads_and_moves_only() -> None:
    table = Table(KAIXIN)
    for p in ("a", "b", "c"):
        table.sit(p, None, 100)
    view = table.start_round(seed=3)
    rnd = Round.from_dict(view.to_dict())  # the same round, alone
    for name in ("players", "phase", "seed", "dealt_hands", "present", "missing"):
        assert getattr(view, name) == getattr(rnd, name)
    assert view.hand(1) == rnd.hand(1) and view.player_of(2) == "c"
    assert set(thirteen.TableRound.READS_AND_PLAYS) <= set(dir(view))
    # Nothing else of the round: not its deal, settle or private state.
    for name in ("deal", "_hands", "_live_round", "from_dict"):
        with pytest.raises(AttributeError):
            getattr(view, name)
    with pytest.raises(TableError):
        view.settle()
    view.escape(2)  # through the table: c left (强退)
    assert table.player("c").left and view.escaped == (2,)
    table.finish_round(auto_missing=True)
    with pytest.raises(RoundStateError):
        view.disconnect(0)
