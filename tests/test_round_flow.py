"""Round and table flow after an escape (RULES.md 5 step 7 and "Escape"), and the table's
round that cannot be driven around the table.

Expected values are computed by hand from RULES.md and the kaixin preset (RULES.md 6).
"""

from __future__ import annotations

import pytest

from thirteen import Arrangement, Round, RoundStateError, RuleSet, Table, TableError

KAIXIN = RuleSet.preset("kaixin")
SHISANZHANG = RuleSet.preset("shisanzhang")

# The seeded deal of Round(kaixin, 3, seed=0) (pinned by the golden deal of thirteen.deal):
#   seat 0: 3d Qs 8s As 2s 7c 4h 5h 7h Qd 6s 6h 4s
#   seat 1: 9s Ah Jh 7d 6c Js Ts Ad Qc 4c Jd Th 5s
SEAT0 = Arrangement.parse("Qs Qd 7c | 7h 6h 5h 4h 3d | As 8s 6s 4s 2s", KAIXIN)
SEAT1 = Arrangement.parse("Ts Th 9s | Ah Ad Qc 7d 6c | Js Jh Jd 5s 4c", KAIXIN)


def test_home_run_counts_the_players_dealt_in_after_an_escape() -> None:
    # By hand, kaixin (RULES.md 6): seat 0 wins the front (pair of queens over tens, 1),
    # the middle (straight over a pair, 1) and the back (flush over trips, 1): L = 3.
    # Scoop double: 3 + 3 = 6. Seat 2 escapes; three players were dealt in and kaixin's
    # home run needs 3 (RULES.md 5 step 7 counts players dealt in), and seat 0 scooped
    # every player still in the showdown: double again, 12. Escape: kaixin pays
    # by_players[3] = 24 to the highest result, seat 0.
    rnd = Round(KAIXIN, 3, seed=0)
    rnd.deal()
    rnd.submit(0, SEAT0)
    rnd.submit(1, SEAT1)
    rnd.escape(2)
    res = rnd.settle()
    assert res.results == (12, -12, 0)
    assert res.escape == (24, 0, -24)
    assert res.units == (36, -12, -24)
    assert res.settlement is not None
    assert res.settlement["home_runs"] == [0]
    assert res.settlement["pairs"][0]["steps"]["home_run"] == 6


def test_home_run_after_an_escape_with_auto_arranged_seats() -> None:
    # The case: seats 0 and 1 auto-arranged (代打), seat 2 escapes. Whatever the
    # arrangements, a seat that scoops the other has its result doubled once by the scoop
    # and once more by the home run: 4 × its lane sum.
    rnd = Round(KAIXIN, 3, seed=0)
    rnd.deal()
    rnd.auto(0)
    rnd.auto(1)
    rnd.escape(2)
    res = rnd.settle()
    assert res.settlement is not None
    pair = res.settlement["pairs"][0]
    if res.settlement["scoops"]:
        lanes = pair["steps"]["lanes"]
        assert res.settlement["home_runs"] == [res.settlement["scoops"][0][0]]
        assert res.results[0] == 4 * lanes
    else:
        assert res.settlement["home_runs"] == []
    assert sum(res.units) == 0


def test_no_home_run_when_too_few_were_dealt_in() -> None:
    # shisanzhang's home run needs 4 players dealt in (RULES.md 6): 3 dealt, one escapes.
    # No escape rule in shisanzhang, so the leaver is auto-arranged instead; use a copy
    # with a split escape so that seat 2 really leaves.
    rules = SHISANZHANG.replace(escape={"to": "split", "units": 6})
    rnd = Round(rules, 3, seed=0)
    rnd.deal()
    rnd.submit(0, Arrangement.parse("Qs Qd 7c | 7h 6h 5h 4h 3d | As 8s 6s 4s 2s", rules))
    rnd.submit(1, Arrangement.parse("Ts Th 9s | Ah Ad Qc 7d 6c | Js Jh Jd 5s 4c", rules))
    rnd.escape(2)
    res = rnd.settle()
    # By hand: lanes 1 + 2 + 3 = 6 (no royalties here), scoop bonus +6 = 12, no home run.
    assert res.results == (12, -12, 0)
    assert res.settlement is not None and res.settlement["home_runs"] == []
    # Escape split: 6 units, 3 each to seats 0 and 1.
    assert res.escape == (3, 3, -6)


def test_a_huge_seat_count_is_refused_before_anything_is_built() -> None:
    from thirteen import PlayerCountError

    for count in (2**53 + 1, 10**30, -5, 5):
        with pytest.raises(PlayerCountError) as info:
            Round(KAIXIN, count)
        assert info.value.got == count


def test_hints_count_is_bounded() -> None:
    # A huge count once reached the solver, which reserved memory for it and aborted.
    from thirteen import ThirteenError

    rnd = Round(KAIXIN, 2, seed=0)
    rnd.deal()
    before = rnd.to_dict()
    for n in (0, -1, 51, 2**37, 2**64):
        with pytest.raises(ThirteenError, match="hints"):
            rnd.hints(0, n)
    for bad in (1.5, "3", None, True):
        with pytest.raises(TypeError):
            rnd.hints(0, bad)
    assert rnd.to_dict() == before
    assert 1 <= len(rnd.hints(0, 2)) <= 2


# --------------------------------------------------------------------------- the table's round


def seated(rules: RuleSet = KAIXIN, n: int = 3) -> Table:
    table = Table(rules, min_balance=1)
    for i in range(n):
        table.sit(f"p{i}", i, 10_000)
    return table


def test_table_round_escape_goes_through_the_table() -> None:
    table = seated()
    rnd = table.start_round(seed=0)
    rnd.escape(2)  # routed to Table.leave("p2")
    assert table.player("p2").left
    assert rnd.escaped == (2,)
    rnd.submit(0, SEAT0)
    rnd.submit(1, SEAT1)
    report = table.finish_round()
    assert report.stood_up == {"p2": "left"}
    assert "p2" not in table.players
    assert report.units == {"p0": 36, "p1": -12, "p2": -24}


def test_table_round_disconnect_and_reconnect_go_through_the_table() -> None:
    table = seated()
    rnd = table.start_round(seed=0)
    rnd.disconnect(1)
    assert table.player("p1").disconnected and rnd.disconnected == (1,)
    rnd.reconnect(1)
    assert not table.player("p1").disconnected and rnd.disconnected == ()
    rnd.disconnect(2)
    report = table.finish_round(auto_missing=True)
    assert report.stood_up == {"p2": "disconnected"}


def test_table_round_cannot_be_settled_around_the_table() -> None:
    table = seated()
    rnd = table.start_round(seed=0)
    before = table.to_dict()
    with pytest.raises(TableError):
        rnd.settle(auto_missing=True)
    assert table.to_dict() == before
    assert table.round is not None and table.round.phase == "arrange"
    # Still playable through the table.
    assert table.finish_round(auto_missing=True).result.units is not None
    assert table.round is None


def test_table_round_is_a_view_and_a_stale_view_drives_nothing() -> None:
    table = seated()
    rnd = table.start_round(seed=0)
    assert table.round is not None and table.round.players == rnd.players
    assert not isinstance(rnd, Round)  # a view, not the live round
    table.finish_round(auto_missing=True)
    assert rnd.phase == "settled" and rnd.result is not None
    with pytest.raises(RoundStateError):
        rnd.submit(0, SEAT0)  # that round is over
    table.start_round(seed=1)
    before = table.to_dict()
    for action in (rnd.escape, rnd.disconnect):
        with pytest.raises(RoundStateError):
            action(0)  # a view of a finished round does not reach the next one
    assert table.to_dict() == before


def test_a_stake_beyond_the_money_bounds_is_refused_at_once() -> None:
    from thirteen import ThirteenError

    # Round(stake=2**63) used to be accepted and then could never settle.
    with pytest.raises(ThirteenError):
        Round(KAIXIN, 2, stake=2**63)
    with pytest.raises(ThirteenError):
        Table(KAIXIN, stake=2**63)
