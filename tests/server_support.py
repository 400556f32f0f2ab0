"""Helpers of the server tests: ``thirteen serve`` as a real subprocess on 127.0.0.1 and a
real SQLite file, and plays computed for a hand."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("sqlalchemy")
pytest.importorskip("msgspec")

import thirteen  # noqa: E402
from thirteen.server.process import ServerProcess  # noqa: E402

# A card token stands alone: not inside a word, and not inside the URL-safe random ids and secrets
# the server hands out (session, secret, player ``p-...``; alphabet ``A-Za-z0-9_-``), where a run
# like ``-3c_`` would otherwise read as a card.
CARD = re.compile(r"(?<![\w-])(?:10|[2-9TJQKA])[shcd](?![\w-])", re.I)


class Server(ServerProcess):
    """A test server (see :class:`thirteen.server.process.ServerProcess`)."""


def serve(tmp_path: Path, *args: str, name: str = "server.db") -> Server:
    """Starts a server on a fresh SQLite file in ``tmp_path``."""
    return Server(tmp_path / name, list(args)).start()


def lanes(sub: Any) -> Dict[str, str]:
    """The action fields of an arrangement."""
    return {
        "front": thirteen.format_cards(list(sub.front)),
        "middle": thirteen.format_cards(list(sub.middle)),
        "back": thirteen.format_cards(list(sub.back)),
    }


def best_action(hand: str, rules: thirteen.RuleSet, players: int) -> Dict[str, Any]:
    """The engine's play for a hand as a ``submit`` or ``declare`` action."""
    sol = thirteen.solve(hand, rules, players=players)
    if sol.arrangement is None:
        return {"type": "declare", "special": sol.special.key}
    return {"type": "submit", **lanes(sol.arrangement)}


def cards_in(value: Any) -> set:
    """Every card token in any string inside a frame (canonical text)."""
    out: set = set()
    if isinstance(value, str):
        for token in CARD.findall(value):
            out.add(str(thirteen.Card(token)))
    elif isinstance(value, dict):
        for v in value.values():
            out |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_in(v)
    return out
