"""Saved rounds and tables that cannot be trusted (issue 9): each tampering is refused with
a ``SaveError`` naming the problem, and a signed save (HMAC-SHA256) refuses any change.

Every tampered save starts from a real save and changes one thing a cheating client or a
broken store would change.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable, Dict, Optional

import pytest

from thirteen import Round, RoundStateError, RuleSet, SaveError, Table, TableError, ThirteenError
from thirteen.errors import SaveError as SaveErrorFromErrors

KAIXIN = RuleSet.preset("kaixin")
KAIXIN_SWAP = RuleSet.preset("kaixin-swap")
BIANFENG = RuleSet.preset("bianfeng")
SHISANZHANG = RuleSet.preset("shisanzhang")
WESTERN = RuleSet.preset("western-2-4")
KEY = b"server secret"


def arranging(seed: Any = 0, rules: RuleSet = KAIXIN, n: int = 3) -> Round:
    """A round in the arrange phase: seat 0 auto-arranged, nobody else yet."""
    rnd = Round(rules, n, seed=seed, stake=10)
    rnd.deal()
    rnd.auto(0)
    return rnd


def settled(seed: Any = 0) -> Round:
    rnd = Round(KAIXIN, 3, seed=seed, stake=10, rake=(5, None))
    rnd.deal()
    rnd.escape(2)
    rnd.settle(auto_missing=True, balances=[100, 1, 1000], min_balance=5)
    return rnd


def edited(rnd: Any, edit: Callable[[Dict[str, Any]], Any]) -> Dict[str, Any]:
    data = copy.deepcopy(rnd.to_dict())
    edit(data)
    return data


def refused(cls: Any, data: Any, match: Optional[str] = None, key: Any = None) -> SaveError:
    with pytest.raises(SaveError, match=match) as info:
        if isinstance(data, str):
            cls.from_json(data, key=key)
        else:
            cls.from_dict(data)
    if isinstance(data, dict):  # the same refusal from the JSON text
        try:
            text = json.dumps(data)
        except RecursionError:  # too deep for the test's own encoder
            return info.value
        with pytest.raises(SaveError, match=match):
            cls.from_json(text, key=key)
    return info.value


def test_save_error_is_documented() -> None:
    assert SaveError is SaveErrorFromErrors
    assert issubclass(SaveError, ThirteenError) and issubclass(SaveError, ValueError)
    assert SaveError.kind == "bad_save"


def test_honest_saves_load_in_the_same_state() -> None:
    for rnd in (arranging(), arranging(None), settled(), settled(None), Round(KAIXIN, 2)):
        again = Round.from_json(rnd.to_json())
        assert again.to_dict() == rnd.to_dict()
    swap = Round(KAIXIN_SWAP, 4, seed=3)
    swap.deal()
    swap.give(0, swap.hand(0)[:3])
    assert Round.from_json(swap.to_json()).to_dict() == swap.to_dict()
    swap.finish_swap()
    assert Round.from_json(swap.to_json()).to_dict() == swap.to_dict()
    western = Round(WESTERN, 3)
    western.deal()
    western.surrender(1)
    assert Round.from_json(western.to_json()).to_dict() == western.to_dict()


# --------------------------------------------------------------------------- not a save at all


@pytest.mark.parametrize(
    "text",
    [
        '{"format":"thirteen.round/1"}',
        "[]",
        "null",
        "3",
        '"thirteen.round/1"',
        "{not json",
        '{"format":"thirteen.table/1"}',
        "\ud800",
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
    ],
    ids=[
        "format-only",
        "list",
        "null",
        "number",
        "string",
        "bad-json",
        "a-table",
        "surrogate",
        "deep",
        "deep-obj",
    ],
)
def test_not_a_saved_round(text: str) -> None:
    refused(Round, text)
    refused(Table, text)


def test_from_dict_and_from_json_take_their_types() -> None:
    refused(Round, {"format": "thirteen.round/1"})
    for bad in ([], None, 3, "x"):
        with pytest.raises(SaveError):
            Round.from_dict(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Round.from_json(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Table.from_json(None)  # type: ignore[arg-type]


def test_deep_nesting_inside_a_save_is_refused() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    for field in ("rules", "players", "submissions", "result", "deal"):
        refused(Round, edited(arranging(), lambda d: d.__setitem__(field, deep)))
    data = edited(settled(), lambda d: d["result"].__setitem__("settlement", {"totals": deep}))
    refused(Round, data)
    refused(Round, edited(arranging(), lambda d: d["rules"].__setitem__("specials", deep)))
    refused(Table, edited(table_mid_round(), lambda d: d["rules"].__setitem__("name", deep)))
    refused(Table, edited(table_mid_round(), lambda d: d.__setitem__("round", deep)))


def test_a_field_of_the_wrong_shape_names_it() -> None:
    err = refused(Round, edited(arranging(), lambda d: d.__setitem__("escaped", ["1"])))
    assert err.key == "escaped[0]"
    err = refused(Round, edited(arranging(), lambda d: d.__setitem__("stake", True)))
    assert err.key == "stake"
    refused(Round, edited(arranging(), lambda d: d.__setitem__("extra", 1)), "extra")
    refused(Round, edited(arranging(), lambda d: d.__setitem__("phase", "won")))
    refused(Round, edited(arranging(), lambda d: d["auto"].__setitem__(0, "bored")))


# --------------------------------------------------------------------------- the deal


def test_hands_swapped_between_seats_with_the_seed() -> None:
    def swap(d: Dict[str, Any]) -> None:
        for hands in (d["deal"]["hands"], d["hands"]):
            hands[1], hands[2] = hands[2], hands[1]

    err = refused(Round, edited(arranging(), swap), "seed")
    assert err.key == "deal"


def test_hands_that_are_not_the_deal() -> None:
    def swap_current(d: Dict[str, Any]) -> None:
        d["hands"][1], d["hands"][2] = d["hands"][2], d["hands"][1]

    refused(Round, edited(arranging(None), swap_current), "hands")
    refused(Round, edited(arranging(), lambda d: d.__setitem__("seed", 1)), "seed")
    refused(Round, edited(arranging(), lambda d: d["deal"].__setitem__("first", 2)))


def test_duplicate_cards_are_refused() -> None:
    def dup(d: Dict[str, Any]) -> None:
        # Seat 1's first card becomes seat 2's first card, in the deal and the hands.
        card = d["deal"]["hands"][2].split()[0]
        for hands in (d["deal"]["hands"], d["hands"]):
            cards = hands[1].split()
            cards[0] = card
            hands[1] = " ".join(cards)

    err = refused(Round, edited(arranging(None), dup), "more often than the deck")
    assert err.key == "deal.hands"


def test_cards_outside_the_deck_and_wrong_counts() -> None:
    def bad_card(d: Dict[str, Any]) -> None:
        d["deal"]["hands"][1] = d["hands"][1] = "Zz " + " ".join(d["hands"][1].split()[1:])

    refused(Round, edited(arranging(None), bad_card))

    def short(d: Dict[str, Any]) -> None:
        d["deal"]["hands"][1] = d["hands"][1] = " ".join(d["hands"][1].split()[1:])

    refused(Round, edited(arranging(None), short), "13")
    refused(Round, edited(arranging(None), lambda d: d["deal"]["hands"].pop()))


def test_a_new_round_holds_no_cards() -> None:
    dealt = arranging().to_dict()

    def unplay(d: Dict[str, Any]) -> None:
        d["phase"] = "new"
        d["submissions"] = [None] * 3
        d["auto"] = [None] * 3

    refused(Round, edited(arranging(), unplay), "new")
    assert dealt["phase"] == "arrange"


def test_the_cut_must_give_the_first_seat() -> None:
    rnd = arranging(None, SHISANZHANG)
    data = rnd.to_dict()
    assert data["deal"]["cut_card"] is not None
    first = data["deal"]["first"]
    refused(Round, edited(rnd, lambda d: d["deal"].__setitem__("first", (first + 1) % 3)), "cut")
    refused(Round, edited(rnd, lambda d: d["deal"].__setitem__("cut_card", None)), "cut")


def test_swap_three_gifts_and_hands() -> None:
    swap = Round(KAIXIN_SWAP, 4, seed=3)
    swap.deal()
    gift = swap.hand(0)[:3]
    swap.give(0, gift)
    other = swap.hand(1)[0]
    refused(Round, edited(swap, lambda d: d["given"].__setitem__(0, str(other))), "hold")
    four = " ".join(str(c) for c in swap.hand(0)[:4])
    refused(Round, edited(swap, lambda d: d["given"].__setitem__(0, four)))
    swap.finish_swap()

    def trade(d: Dict[str, Any]) -> None:
        d["hands"][0], d["hands"][1] = d["hands"][1], d["hands"][0]

    refused(Round, edited(swap, trade), "swap")


# --------------------------------------------------------------------------- seats and players


@pytest.mark.parametrize("field", ["escaped", "surrendered", "disconnected"])
@pytest.mark.parametrize("seats", [[1, 1], [-1], [3], [True]])
def test_seat_lists_unique_and_in_range(field: str, seats: Any) -> None:
    rules = WESTERN if field == "surrendered" else KAIXIN
    refused(Round, edited(arranging(None, rules), lambda d: d.__setitem__(field, seats)))


def test_escaped_twice_would_charge_twice() -> None:
    rnd = arranging()
    rnd.escape(2)
    err = refused(Round, edited(rnd, lambda d: d.__setitem__("escaped", [2, 2])), "twice")
    assert err.key == "escaped"


def test_player_ids_a_save_can_hold() -> None:
    with pytest.raises(ThirteenError, match="Unicode"):
        Round(KAIXIN, ["a", "\ud800"])
    refused(Round, edited(arranging(), lambda d: d.__setitem__("players", [0, 1, "\ud800"])))
    with pytest.raises(SaveError, match="Unicode"):
        Round.from_dict(edited(arranging(), lambda d: d.__setitem__("rules", "\ud800")))
    table = Table(KAIXIN)
    with pytest.raises(ThirteenError, match="Unicode"):
        table.sit("\udfff", None, 10)
    assert table.players == ()


def test_players_unique_and_per_seat_lists_complete() -> None:
    refused(Round, edited(arranging(), lambda d: d.__setitem__("players", [0, 1, 1])), "distinct")
    refused(Round, edited(arranging(), lambda d: d["given"].pop()))
    refused(Round, edited(arranging(), lambda d: d["submissions"].append(None)))
    refused(Round, edited(arranging(), lambda d: d.__setitem__("banker", -1)))


def test_escape_and_surrender_need_their_rules() -> None:
    rules = SHISANZHANG  # no escape rule, no surrender
    refused(Round, edited(arranging(None, rules), lambda d: d.__setitem__("escaped", [1])))
    refused(Round, edited(arranging(None, rules), lambda d: d.__setitem__("surrendered", [1])))


def test_all_seats_cannot_escape() -> None:
    rnd = Round(KAIXIN, 2, seed=1)
    rnd.deal()
    rnd.escape(1)
    refused(Round, edited(rnd, lambda d: d.__setitem__("escaped", [1, 0])), "stay")


# --------------------------------------------------------------------------- submissions


def test_submissions_must_be_valid_plays_of_the_seat() -> None:
    rnd = arranging()
    mine = rnd.to_dict()["submissions"][0]
    # Seat 0's play submitted for seat 1: cards seat 1 does not hold.
    refused(Round, edited(rnd, lambda d: d["submissions"].__setitem__(1, mine)), "hold")

    def fouled(d: Dict[str, Any]) -> None:
        sub = d["submissions"][0]
        sub["front"], sub["back"] = (
            " ".join(sub["back"].split()[:3]),
            " ".join(sub["front"].split() + sub["back"].split()[3:]),
        )

    refused(Round, edited(rnd, fouled))
    refused(Round, edited(rnd, lambda d: d["submissions"].__setitem__(0, {"front": "As"})))
    refused(Round, edited(rnd, lambda d: d["submissions"][0].__setitem__("special", "dragon")))
    refused(Round, edited(rnd, lambda d: d["auto"].__setitem__(1, "timeout")), "auto")


def test_a_leaver_has_no_submission() -> None:
    rnd = arranging()
    rnd.escape(0)
    play = arranging().to_dict()["submissions"][0]
    refused(Round, edited(rnd, lambda d: d["submissions"].__setitem__(0, play)))


# --------------------------------------------------------------------------- results


def test_a_settled_round_edited_back_to_arrange() -> None:
    rnd = settled()
    refused(Round, edited(rnd, lambda d: d.__setitem__("phase", "arrange")), "result")

    # Without its result it looks like a round about to settle: only a signature shows it
    # was changed.
    def unsettle(d: Dict[str, Any]) -> None:
        d["phase"] = "arrange"
        d["result"] = None

    plain = json.dumps(edited(rnd, unsettle))
    assert Round.from_json(plain).phase == "arrange"
    signed = json.loads(rnd.to_json(key=KEY))
    unsettle(signed)
    refused(Round, json.dumps(signed), "signature", key=KEY)


def test_a_settled_round_needs_its_result_and_every_seat() -> None:
    refused(Round, edited(settled(), lambda d: d.__setitem__("result", None)), "result")

    def forget(d: Dict[str, Any]) -> None:
        d["submissions"][1] = None
        d["auto"][1] = None

    refused(Round, edited(settled(), forget), "every seat")


@pytest.mark.parametrize(
    "path, value",
    [
        (("money", 0), 10**6),
        (("units", 1), 0),
        (("escape", 2), 0),
        (("results", 0), 1),
        (("rake", 0), 0),
        (("stake",), 1),
        (("settlement", "totals", 0), 99),
        (("balances", 1), 10**6),
        (("bankrupt",), [0]),
        (("escaped",), []),
        (("players", 0), "mallory"),
    ],
)
def test_an_edited_result_is_refused(path: Any, value: Any) -> None:
    def edit(d: Dict[str, Any]) -> None:
        target = d["result"]
        for step in path[:-1]:
            target = target[step]
        # An edit must change the field: a number that already holds the value moves by one.
        if target[path[-1]] == value and isinstance(value, int):
            target[path[-1]] = value + 1
        else:
            target[path[-1]] = value

    rnd = settled()
    assert rnd.result is not None and rnd.result.bankrupt == (1,)
    refused(Round, edited(rnd, edit), "result")


# --------------------------------------------------------------------------- signatures


def test_signed_saves() -> None:
    for obj in (arranging(), settled(), table_mid_round()):
        cls = type(obj)
        text = obj.to_json(key=KEY)
        assert "hmac" in json.loads(text)
        assert cls.from_json(text, key=KEY).to_dict() == obj.to_dict()
        assert cls.from_json(text, key=KEY.decode()).to_dict() == obj.to_dict()
        assert cls.from_json(text).to_dict() == obj.to_dict()  # no key: not checked
        refused(cls, text, "signature", key=b"another key")
        refused(cls, obj.to_json(), "not signed", key=KEY)
        data = json.loads(text)
        data["hmac"] = data["hmac"][:-1] + ("0" if data["hmac"][-1] != "0" else "1")
        refused(cls, json.dumps(data), "signature", key=KEY)
        data = json.loads(text)
        data["hmac"] = 5
        refused(cls, json.dumps(data), "signature", key=KEY)


@pytest.mark.parametrize(
    "signature",
    ["é" * 64, "\u0660" * 64, "\uff10" * 64, "ab" * 31 + "😀", ""],
    ids=["latin", "arabic-digits", "fullwidth-digits", "emoji", "empty"],
)
def test_a_signature_of_any_text_is_a_save_error(signature: str) -> None:
    # Issue 52 N3: a non-ASCII signature raised TypeError from hmac.compare_digest.
    for obj in (arranging(), table_mid_round()):
        cls = type(obj)
        data = json.loads(obj.to_json(key=KEY))
        data["hmac"] = signature
        for ascii_only in (True, False):
            error = refused(cls, json.dumps(data, ensure_ascii=ascii_only), "signature", key=KEY)
            assert error.key == "hmac"


def test_signed_round_with_any_field_changed() -> None:
    text = settled().to_json(key=KEY)
    for field, value in (("stake", 11), ("seed", 1), ("escaped", []), ("phase", "arrange")):
        data = json.loads(text)
        data[field] = value
        refused(Round, json.dumps(data), "signature", key=KEY)


def test_signature_keys() -> None:
    rnd = arranging()
    for bad in (3, None, ["k"]):
        if bad is None:
            continue
        with pytest.raises(TypeError):
            rnd.to_json(key=bad)
        with pytest.raises(TypeError):
            Round.from_json(rnd.to_json(key=KEY), key=bad)
    with pytest.raises(ValueError):
        rnd.to_json(key=b"")
    # A key no one could have signed with, and text that is not Unicode: named, not a
    # UnicodeEncodeError.
    for bad in (b"", "", "k\ud800"):
        with pytest.raises(ThirteenError, match="signing key") as info:
            rnd.to_json(key=bad)
        assert not isinstance(info.value, UnicodeError)
        with pytest.raises(ThirteenError, match="signing key"):
            Round.from_json(rnd.to_json(key=KEY), key=bad)


# --------------------------------------------------------------------------- tables


def table_mid_round() -> Table:
    table = Table(KAIXIN, stake=3, min_balance=10)
    for i, p in enumerate(["p", "q", "r", "s"]):
        table.sit(p, i, 1000 + i)
    table.start_round(seed=555)
    table.disconnect("s")
    table.stand_after_round("q")
    return table


def test_honest_tables_load() -> None:
    table = table_mid_round()
    assert Table.from_json(table.to_json()).to_dict() == table.to_dict()
    table.finish_round(auto_missing=True)
    assert Table.from_json(table.to_json()).to_dict() == table.to_dict()
    table.sit("late", None, 50)
    assert Table.from_json(table.to_json()).to_dict() == table.to_dict()


def players(edit: Callable[[Any], Any]) -> Callable[[Dict[str, Any]], Any]:
    return lambda d: edit(d["players"])


@pytest.mark.parametrize(
    "edit, match",
    [
        (players(lambda ps: ps[1].__setitem__("player", "p")), "twice"),
        (players(lambda ps: ps[1].__setitem__("seat", 0)), "seat 0"),
        (players(lambda ps: ps[1].__setitem__("seat", -1)), "seat"),
        (players(lambda ps: ps[1].__setitem__("seat", 4)), "seat"),
        (players(lambda ps: ps[1].__setitem__("balance", "1000")), "balance"),
        (players(lambda ps: ps[0].__setitem__("left", True)), "left"),
        (players(lambda ps: ps[3].__setitem__("disconnected", False)), "disconnected"),
        (players(lambda ps: ps.pop()), "not seated"),
        (lambda d: d["round"].__setitem__("stake", 4), "stake"),
        (lambda d: d.__setitem__("size", 5), "seats"),
        (lambda d: d.__setitem__("rounds_played", -1), "rounds_played"),
        (lambda d: d.__setitem__("money_ladder", "nope"), "ladder"),
        (lambda d: d.__setitem__("money_ladder", {"name": "x", "levels": [[]]}), "ladder"),
        (lambda d: d["round"]["rules"].__setitem__("name", "other"), "rules"),
    ],
)
def test_tampered_tables(edit: Callable[[Dict[str, Any]], Any], match: str) -> None:
    refused(Table, edited(table_mid_round(), edit), match)


def test_a_table_never_saves_a_settled_round() -> None:
    table = table_mid_round()
    rnd = Round.from_dict(table.to_dict()["round"])
    rnd.settle(auto_missing=True)
    data = table.to_dict()
    data["round"] = rnd.to_dict()
    refused(Table, data, "settled")


def test_flags_without_a_round() -> None:
    table = table_mid_round()
    table.finish_round(auto_missing=True)
    data = table.to_dict()
    data["players"][0]["stand_after_round"] = True
    refused(Table, data, "round")


# ------------------------------------------------------------------- leavers without an escape rule
#
# Issue 52 N1: under rules with no escape, a player who leaves is auto-arranged instead
# (RULES.md 5 "Escape"), so the round records the seat as disconnected; the table's flags
# say whether the player left or only lost the connection. Every such state must save and
# load back.

NO_ESCAPE = ["luosong", "shisanzhang", "western-1-6", "western-2-4"]


def test_the_presets_without_an_escape_rule() -> None:
    assert sorted(n for n in RuleSet.presets() if RuleSet.preset(n).escape is None) == NO_ESCAPE


def no_escape_table(rules: RuleSet) -> Table:
    table = Table(rules, stake=2, min_balance=10)
    for i, p in enumerate(["p", "q", "r"]):
        table.sit(p, i, 1000)
    table.start_round(seed=52)
    return table


def same_after_loading(table: Table) -> None:
    for key in (None, KEY):
        again = Table.from_json(table.to_json(key=key), key=key)
        assert again.to_dict() == table.to_dict()


@pytest.mark.parametrize(
    "rules",
    [RuleSet.preset(n) for n in NO_ESCAPE] + [KAIXIN_SWAP.replace(escape=None)],
    ids=NO_ESCAPE + ["kaixin-swap-no-escape"],
)
def test_a_table_without_escape_saves_every_leaver(rules: RuleSet) -> None:
    # Disconnected (断线), then back.
    table = no_escape_table(rules)
    table.disconnect("p")
    same_after_loading(table)
    table.reconnect("p")
    same_after_loading(table)
    # Disconnected, then gone for good (强退): the player left.
    table.disconnect("p")
    table.leave("p")
    same_after_loading(table)
    # Left first: a later disconnect is refused as it is under an escape rule, and changes
    # nothing; so is leaving twice and coming back.
    table.leave("q")
    same_after_loading(table)
    before = table.to_dict()
    for refused_call in (table.disconnect, table.leave):
        with pytest.raises(RoundStateError, match="has left the round"):
            refused_call("q")
        assert table.to_dict() == before
    with pytest.raises(TableError):
        table.reconnect("q")
    assert table.to_dict() == before
    same_after_loading(table)
    if table.round is not None and table.round.phase == "swap":
        table.round.finish_swap()
        same_after_loading(table)
    report = table.finish_round(auto_missing=True)
    assert report.stood_up == {"p": "left", "q": "left"}


# ------------------------------------------------------------------- states play cannot reach
#
# A table save is loaded only in a state play could have reached (issue 53: the save is
# replayed through the table's methods); these three were accepted before.


def test_a_seated_balance_below_the_room_minimum_is_refused() -> None:
    # A player sits with at least min_balance and is stood up (破产) as soon as a round
    # leaves it below: no seated player is ever under the minimum.
    for table in (table_mid_round(), Table(KAIXIN, min_balance=10)):
        if not table.players:
            table.sit("p", None, 10)
        err = refused(Table, edited(table, players(lambda ps: ps[0].__setitem__("balance", 9))))
        assert err.key == "players[0].balance" and "minimum" in str(err)


def test_a_round_dealt_out_of_seat_order_is_refused_at_its_players() -> None:
    # q and s trade places in the round: the round names its players out of seat order
    # (it was refused later, at the first flag the trade made wrong).
    def trade(d: Dict[str, Any]) -> None:
        ps = d["round"]["players"]
        ps[1], ps[3] = ps[3], ps[1]

    err = refused(Table, edited(table_mid_round(), trade), "seat order")
    assert err.key == "round.players"


def test_a_leaver_without_an_escape_rule_has_a_play() -> None:
    # With no escape rule a player who leaves while arranging is auto-arranged at once
    # (代打): its seat cannot be without a play, unless it left during a swap.
    table = no_escape_table(SHISANZHANG)
    table.leave("p")
    view = table.round
    assert view is not None and 0 in view.submissions

    def unplay(d: Dict[str, Any]) -> None:
        d["round"]["submissions"][0] = None
        d["round"]["auto"][0] = None

    err = refused(Table, edited(table, unplay), "auto-arranges")
    assert err.key == "round.submissions[0]"
    swap = no_escape_table(KAIXIN_SWAP.replace(escape=None))
    swap.leave("p")  # during the swap: no play yet, and none after it
    rnd = swap.round
    assert rnd is not None
    rnd.finish_swap()
    assert 0 not in rnd.submissions
    same_after_loading(swap)
