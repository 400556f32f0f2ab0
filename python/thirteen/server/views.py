"""What each client is shown: the ``state`` frame (the same for everyone in the room), the
``you`` frame (one viewer's own) and the ``result`` frame.

The one rule of this module: before the reveal a viewer sees only its own cards. The
``state`` frame holds no card; the ``you`` frame holds the viewer's own hand and play; the
``result`` frame, sent after the round is settled, holds every seat's play.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List, Mapping, Optional, Tuple

from thirteen import Arrangement, PlayerId, Declaration, Table, TableRound, TableRoundReport, format_cards, level_for

__all__ = ["state_frame", "you_frame", "result_frame", "play_dict", "is_ai"]


def is_ai(player: Any) -> bool:
    """Whether a table player id is an AI seat (ids ``ai-...``)."""
    return isinstance(player, str) and player.startswith("ai-")


def play_dict(sub: Any) -> Dict[str, Any]:
    """An arrangement as ``{"front", "middle", "back"}`` or a declaration as
    ``{"special", "cards"}`` (card text)."""
    if isinstance(sub, Arrangement):
        return {
            "front": format_cards(list(sub.front)),
            "middle": format_cards(list(sub.middle)),
            "back": format_cards(list(sub.back)),
        }
    assert isinstance(sub, Declaration)
    return {"special": sub.special, "cards": format_cards(list(sub.cards))}


def _levels(money_ladder: str, points_ladder: str, balance: int, points: int) -> Dict[str, Any]:
    money, pts = _level_pair(money_ladder, points_ladder, max(balance, 0), max(points, 0))
    return {
        "money": {"level": money[0], "title": money[1]},
        "points": {"level": pts[0], "title": pts[1]},
    }


@functools.lru_cache(maxsize=4096)
def _level_pair(
    money_ladder: str, points_ladder: str, balance: int, points: int
) -> Tuple[Tuple[int, str], Tuple[int, str]]:
    """(level, title) on both ladders, remembered: a state frame shows every seat's."""
    money = level_for(money_ladder, balance)
    pts = level_for(points_ladder, points)
    return (money.level, money.title), (pts.level, pts.title)


def state_frame(
    room: str,
    table: Table,
    *,
    names: Mapping[PlayerId, str],
    online: Mapping[PlayerId, bool],
    deadline_in: Optional[float],
    ladders: Tuple[str, str],
) -> Dict[str, Any]:
    """The room as everyone in it sees it: the same frame for every viewer, made once per
    change and sent to all. It holds no card: for the seats dealt in, only whether they
    have played (and given). ``names`` are display names, ``online`` whether a player has
    a live connection, ``deadline_in`` seconds left on the clock."""
    rules = table.rules
    rnd: Optional[TableRound] = table.round
    round_players = rnd.players if rnd is not None else ()
    # Each of the round's properties is read once (every read builds its answer).
    played = (set(rnd.submissions) | set(rnd.surrendered)) if rnd is not None else set()
    gave = set(rnd.given) if rnd is not None else set()
    seats: List[Optional[Dict[str, Any]]] = []
    for seat, player in enumerate(table.seats):
        if player is None:
            seats.append(None)
            continue
        info = table.player(player)
        ai = is_ai(player)
        entry: Dict[str, Any] = {
            "seat": seat,
            "player": player,
            "name": names.get(player, str(player)),
            "ai": ai,
            "online": ai or bool(online.get(player)),
            "balance": info.balance,
            "points": info.points,
            "levels": _levels(ladders[0], ladders[1], info.balance, info.points),
            "in_round": player in round_players,
            "played": False,
            "left": info.left,
            "disconnected": info.disconnected,
            "stand_after_round": info.stand_after_round,
        }
        if rnd is not None and player in round_players:
            s = round_players.index(player)
            entry["played"] = s in played
            entry["gave"] = s in gave
        seats.append(entry)
    round_view: Optional[Dict[str, Any]] = None
    if rnd is not None:
        round_view = {
            "number": table.rounds_played + 1,
            "phase": rnd.phase,
            "deadline_in": None if deadline_in is None else max(0.0, round(deadline_in, 1)),
            "players": len(round_players),
        }
    return {
        "type": "state",
        "room": room,
        "rules": {
            "name": rules.name,
            "dealt": rules.dealt,
            "surrender": rules.surrender.allowed,
            "swap": 0 if rules.swap is None else rules.swap.max_cards,
            "mode": rules.mode,
            "foul": rules.foul,
        },
        "stake": table.stake,
        "min_balance": table.min_balance,
        "seats": seats,
        "round": round_view,
    }


def you_frame(
    table: Table,
    *,
    viewer: str,
    name: str,
    account: Optional[int],
    waiting: bool,
) -> Dict[str, Any]:
    """What only ``viewer`` sees: its seat, account (money not at the table), whether it
    waits for a seat, and, when dealt in to the round, its own hand, play, gift and how it
    was played (代打 reason)."""
    rnd: Optional[TableRound] = table.round
    you: Dict[str, Any] = {
        "type": "you",
        "player": viewer,
        "name": name,
        "seat": table.seats.index(viewer) if viewer in table.seats else None,
        "account": account,
        "waiting": waiting,
        "round": None,
    }
    if rnd is not None and viewer in rnd.players:
        s = rnd.players.index(viewer)
        sub = rnd.submissions.get(s)
        gift = rnd.given.get(s)
        you["round"] = {
            "number": table.rounds_played + 1,
            "phase": rnd.phase,
            "seat": s,
            "hand": None if s in rnd.escaped else format_cards(list(rnd.hand(s))),
            "play": None if sub is None else play_dict(sub),
            "surrendered": s in rnd.surrendered,
            "auto": rnd.auto_reasons.get(s),
            "given": None if gift is None else format_cards(list(gift)),
        }
    return you


def result_frame(
    room: str,
    number: int,
    report: TableRoundReport,
    plays: Mapping[int, Any],
    names: Mapping[PlayerId, str],
) -> Dict[str, Any]:
    """The reveal of a settled round (every seat's play, the settlement lane by lane,
    scoops, home runs, units, money, balances, level changes, who stood up)."""
    # Read from the report as it is (its to_dict() deep-copies the settlement: this frame
    # is encoded at once and the report is not kept).
    result = report.result
    seats = []
    for s, player in enumerate(report.players):
        seats.append(
            {
                **report.player_dict(player),
                "name": names.get(player, str(player)),
                "ai": is_ai(player),
                "seat": s,
                "play": None if s not in plays else play_dict(plays[s]),
                "escaped": s in result.escaped,
                "surrendered": s in result.surrendered,
                "rake": result.rake[s],
            }
        )
    return {
        "type": "result",
        "room": room,
        "round": number,
        "seats": seats,
        "settled_seats": list(result.settled_seats),
        "settlement": result.settlement,
        "stake": result.stake,
        "level_changes": [c.to_dict() for c in report.level_changes],
        "bankrupt": list(report.bankrupt),
    }
