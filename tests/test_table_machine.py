"""A state machine over :class:`thirteen.Table` under every preset (issue 52): any
sequence of seatings, rounds and moves, good or bad, with a save and a load between any
two steps.

Every action goes to two tables: the one played from the start and its *twin*, the table
loaded from the last save. They must give the same answer (the same return value, or the
same exception class and message) and stay in the same state, so a save loads back to
the same state and the loaded table behaves as the original would. A refused action
raises a ``ThirteenError`` subclass or a ``TypeError`` and changes nothing (the save
before and after is the same text). Every save, signed or not, loads back and saves to
the same text; so does the round in progress saved alone.

Deals and swaps without a seed come from the secure random source: after one, the twin
is the original's save loaded again (the draw cannot be repeated).

``THIRTEEN_MACHINE_EXAMPLES`` sets the runs per preset and ``THIRTEEN_MACHINE_STEPS`` the
most steps a run (CI: 40 and 40, the same runs every time: about 8 s of CPU for the eight
presets; set either for a longer, random hunt).
"""

from __future__ import annotations

import os
from typing import Any, Callable, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import thirteen
from thirteen import (
    Arrangement,
    Declaration,
    Round,
    RoundStateError,
    RuleSet,
    SurrenderError,
    Table,
    ThirteenError,
)

EXAMPLES = int(os.environ.get("THIRTEEN_MACHINE_EXAMPLES", "40"))
STEPS = int(os.environ.get("THIRTEEN_MACHINE_STEPS", "40"))
MACHINE = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    derandomize="THIRTEEN_MACHINE_EXAMPLES" not in os.environ,
)

#: What a refused action may raise (WORKING_RULES: a ThirteenError or a TypeError).
DOCUMENTED = (ThirteenError, TypeError)

KEY = b"machine key"
PLAYERS = ["a", "b", "c", "d", "e", 7]
# Arguments are mostly good, so that play goes on, and now and then bad. A seed is now
# and then None: the secure random source.
seeds = st.integers(-3, 2**64 - 1).map(lambda s: None if s < 0 else s)

has_round = precondition(lambda self: self.table.round is not None)
has_swap = precondition(
    lambda self: self.table.round is not None and self.table.rules.swap is not None
)


def outcome(value: Any) -> Any:
    """A return value as plain data, to compare the two tables' answers."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (Arrangement, Declaration)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return [outcome(v) for v in value]
    return value


def play_of(table: Table, seat: Any, kind: str) -> Any:
    """A submission of the given kind for the seat of the table's round (built from the
    table it is sent to, so that both tables get the same one)."""
    view = table.round
    assert view is not None
    if kind == "junk":
        return "As Ks"
    if kind == "none":
        return None
    hand = view.hand(seat)
    rules = view.rules
    if kind in ("good", "dict"):
        banker = rules.mode == "banker" and seat == view.banker
        sub = thirteen.solve(hand, rules, players=view.seats, banker=banker).submission()
        if kind == "dict" and isinstance(sub, Arrangement):
            return {lane: " ".join(map(str, cards)) for lane, cards in zip(
                ("front", "middle", "back"), sub.lanes)}  # fmt: skip
        return sub
    if kind == "lanes":  # the first 13 cards in deal order: often fouled
        return Arrangement(hand[:3], hand[3:8], hand[8:13], rules)
    if kind == "declare":  # often a special the cards do not hold
        return Declaration(list(hand[:13]), None)
    # "foreign": another seat's first 13 cards
    other = view.hand((seat + 1) % view.seats)
    return Arrangement(other[:3], other[3:8], other[8:13], rules)


def gift_of(table: Table, seat: Any, kind: str, count: int) -> Any:
    """Cards for swap-three (换三张): some of the seat's own, too many, or another's."""
    view = table.round
    assert view is not None
    if kind == "junk":
        return 5 if count % 2 else "zz"
    hand = view.hand(seat)
    if kind == "own":
        return list(hand[:count])
    if kind == "twice":
        return [hand[0]] * 2
    return list(view.hand((seat + 1) % view.seats)[:1])


class TableMachine(RuleBasedStateMachine):
    """One preset's table, played and saved at random (see the module docstring)."""

    preset = "kaixin"

    def __init__(self) -> None:
        super().__init__()
        self.table: Table
        self.twin: Optional[Table] = None

    # ------------------------------------------------------------------ the harness

    def both(self, action: Callable[[Table], Any], resync: bool = False) -> Tuple[bool, Any]:
        """Plays ``action`` on the table and on its twin; returns (ok, value). With
        ``resync`` the twin is reloaded from the table after a success (a draw from the
        secure random source cannot be repeated)."""
        answers = []
        for table in [self.table] + ([self.twin] if self.twin is not None else []):
            before = table.to_json()
            try:
                value = action(table)
            except DOCUMENTED as exc:
                assert table.to_json() == before, f"a refused action changed the table: {exc!r}"
                answers.append((False, (type(exc), str(exc))))
            else:
                answers.append((True, outcome(value)))
            if resync and answers[0][0]:
                break
        if resync and answers[0][0] and self.twin is not None:
            self.twin = self.loaded(self.table.to_json())
        else:
            assert all(a == answers[0] for a in answers), f"the twin answers otherwise: {answers}"
        return answers[0]

    def loaded(self, text: str, key: Optional[bytes] = None) -> Table:
        again = Table.from_json(text, key=key)
        assert again.to_dict() == self.table.to_dict()
        assert again.to_json(key=key) == text
        return again

    def round_action(self, action: Callable[[Any], Any], resync: bool = False) -> None:
        self.both(lambda t: action(t.round), resync)

    def seat(self, data: st.DataObject) -> int:
        """A round seat: mostly one of the round's, now and then one it does not have."""
        view = self.table.round
        assert view is not None
        return data.draw(st.sampled_from([*range(view.seats)] * 3 + [-1, view.seats]))

    def who(self, data: st.DataObject) -> Any:
        """A player id: mostly a seated one, now and then anyone."""
        return data.draw(st.sampled_from([*self.table.players] * 3 + PLAYERS))

    # ------------------------------------------------------------------ setup

    @initialize(
        size=st.sampled_from([None, 2, 3, 4]),
        stake=st.integers(0, 5),
        min_balance=st.integers(0, 200),
        rake=st.sampled_from([None, (5, None), ("2.5", 30)]),
        seated=st.integers(0, 4),
        seed=seeds,
    )
    def open_table(
        self, size: Optional[int], stake: int, min_balance: int, rake: Any, seated: int,
        seed: Optional[int],
    ) -> None:  # fmt: skip
        """A table with some players seated and, when they are a count the rules allow, a
        round dealt."""
        rules = RuleSet.preset(self.preset)
        self.table = table = Table(
            rules, seats=size, stake=stake, rake=rake, min_balance=min_balance
        )
        for player in PLAYERS[: min(seated, table.size)]:
            table.sit(player, None, min_balance + 100 * (1 + PLAYERS.index(player)))
        if len(table.players) in rules.players:
            table.start_round(seed)

    @invariant()
    def twin_in_step(self) -> None:
        if self.twin is not None:
            assert self.twin.to_dict() == self.table.to_dict()

    # ------------------------------------------------------------------ seating

    @rule(
        player=st.sampled_from(PLAYERS + [1.5]),
        seat=st.sampled_from([None, None, None, 0, 1, 2, 3, -1, 4]),
        balance=st.integers(-20, 3000).map(lambda b: None if b < -10 else b),
    )
    def sit(self, player: Any, seat: Optional[int], balance: Optional[int]) -> None:
        self.both(lambda t: t.sit(player, seat, balance))

    @rule(data=st.data(), how=st.sampled_from(["stand", "stand_after_round"]))
    def stand(self, data: st.DataObject, how: str) -> None:
        player = self.who(data)
        self.both(lambda t: getattr(t, how)(player))

    @rule(data=st.data(), how=st.sampled_from(["disconnect", "reconnect", "leave"]))
    def connection(self, data: st.DataObject, how: str) -> None:
        player = self.who(data)
        self.both(lambda t: getattr(t, how)(player))

    # ------------------------------------------------------------------ rounds

    @precondition(lambda self: self.table.round is None)
    @rule(data=st.data(), seed=seeds)
    def fill_and_start(self, data: st.DataObject, seed: Optional[int]) -> None:
        """Seats players with enough money until their count is one the rules allow, and
        deals (after checking that there is no round to finish)."""
        self.both(lambda t: t.finish_round())
        rules = self.table.rules
        want = data.draw(st.sampled_from([n for n in rules.players if n <= self.table.size]))
        for player in PLAYERS:
            if len(self.table.players) >= want:
                break
            if player not in self.table.players:
                self.both(lambda t: t.sit(player, None, self.table.min_balance + 500))
        while len(self.table.players) > want:
            last = self.table.players[-1]
            self.both(lambda t: t.stand(last))
        self.both(lambda t: t.start_round(seed), seed is None)

    @precondition(lambda self: self.table.round is None)
    @rule(
        seed=seeds,
        banker=st.sampled_from([None, None, "a", "b", "c", "z"]),
        stakes=st.sampled_from([None, None, None, {"a": 2}, {"b": 3, "c": 1}, {"z": 2}, {"a": 0}]),
    )
    def start(self, seed: Optional[int], banker: Any, stakes: Any) -> None:
        self.both(lambda t: t.start_round(seed, banker=banker, stakes=stakes), seed is None)

    @has_swap
    @rule(
        data=st.data(),
        kind=st.sampled_from(["own", "own", "own", "twice", "foreign", "junk"]),
        count=st.integers(0, 4),
    )
    def give(self, data: st.DataObject, kind: str, count: int) -> None:
        seat = self.seat(data)
        self.round_action(lambda r: r.give(seat, gift_of(self.table, seat, kind, count)))

    @has_swap
    @rule()
    def finish_swap(self) -> None:
        view = self.table.round
        assert view is not None
        self.round_action(lambda r: r.finish_swap(), view.seed is None)

    @has_round
    @rule(
        data=st.data(),
        kind=st.sampled_from(
            ["good", "good", "good", "dict", "lanes", "declare", "foreign", "junk", "none"]
        ),
    )
    def submit(self, data: st.DataObject, kind: str) -> None:
        seat = self.seat(data)
        self.round_action(lambda r: r.submit(seat, play_of(self.table, seat, kind)))

    @has_round
    @rule(
        data=st.data(), move=st.sampled_from(["surrender", "escape", "disconnect", "reconnect"])
    )
    def seat_move(self, data: st.DataObject, move: str) -> None:
        seat = self.seat(data)
        self.round_action(lambda r: getattr(r, move)(seat))

    @has_round
    @rule(data=st.data(), reason=st.sampled_from(["timeout", "disconnect", "asleep", "hints"]))
    def auto(self, data: st.DataObject, reason: str) -> None:
        """Auto-arranges a seat (代打), or asks for its hints (which change nothing)."""
        seat = self.seat(data)
        if reason == "hints":
            n = data.draw(st.integers(0, 3))
            self.round_action(lambda r: r.hints(seat, n))
        else:
            self.round_action(lambda r: r.auto(seat, reason))

    @has_round
    @rule(auto_missing=st.booleans())
    def finish(self, auto_missing: bool) -> None:
        """Finishes the round (after checking that neither a second round nor the view's
        own settle can be started instead)."""
        self.both(lambda t: t.start_round(1))
        self.round_action(lambda r: r.settle(auto_missing=True))
        view = self.table.round
        assert view is not None
        ok, _ = self.both(lambda t: t.finish_round(auto_missing=auto_missing))
        if not ok:
            return
        # The finished round, settled with balances, saves and loads as a Round.
        text = view.to_json()
        assert Round.from_json(text).to_json() == text
        # The view of a finished round reads it, but none of its moves reach the table.
        before = self.table.to_json()
        for move in (
            lambda: view.escape(0), lambda: view.disconnect(0), lambda: view.reconnect(0),
            lambda: view.submit(0, None), lambda: view.auto(0), lambda: view.give(0, ""),
            lambda: view.finish_swap(),
        ):  # fmt: skip
            with pytest.raises(RoundStateError):
                move()
        with pytest.raises((RoundStateError, SurrenderError)):  # the rules' refusal comes first
            view.surrender(0)
        assert self.table.to_json() == before

    # ------------------------------------------------------------------ saves

    @rule(key=st.sampled_from([None, KEY]))
    def save_and_load(self, key: Optional[bytes]) -> None:
        self.twin = self.loaded(self.table.to_json(key=key), key)
        view = self.table.round
        if view is not None:
            # The round in progress alone, as Round.to_dict / from_dict see it.
            alone = Round.from_dict(view.to_dict())
            assert alone.to_dict() == view.to_dict()
            text = alone.to_json(key=key)
            assert Round.from_json(text, key=key).to_json(key=key) == text


PRESETS: List[str] = RuleSet.presets()


@pytest.mark.parametrize("preset", PRESETS)
def test_table_state_machine(preset: str) -> None:
    machine = type(f"TableMachine_{preset}", (TableMachine,), {"preset": preset})
    run_state_machine_as_test(machine, settings=MACHINE)


def test_the_machine_covers_every_preset() -> None:
    shipped = sorted(
        name[: -len(".toml")]
        for name in os.listdir(os.path.join(os.path.dirname(thirteen.__file__), "presets"))
        if name.endswith(".toml")
    )
    assert sorted(PRESETS) == shipped
