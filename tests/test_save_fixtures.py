"""Saves written by an earlier engine load and save again to the same text (issue 53).

``tests/fixtures/saves/*.saves`` hold rounds and tables in many states under every preset
(and two rule sets the presets lack: a banker who may escape, swap-three without an
escape rule), each unsigned and signed, as written before rounds were restored by replay
(``generate.py`` beside them says how). The format is a promise: every one of them loads,
equal to itself saved again, byte for byte.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

from thirteen import Round, RuleSet, Table

FOLDER = Path(__file__).resolve().parent / "fixtures" / "saves"
KEY = b"fixture key"


def fixtures() -> List[Tuple[str, str, str]]:
    """(rule set, save name, save text) of every line of every file."""
    out = []
    for path in sorted(FOLDER.glob("*.saves")):
        for line in path.read_text(encoding="utf-8").splitlines():
            name, text = line.split("\t", 1)
            out.append((path.stem, name, text))
    return out


FIXTURES = fixtures()


@pytest.mark.parametrize(
    "name, text", [(f"{r}.{n}", t) for r, n, t in FIXTURES], ids=[f"{r}.{n}" for r, n, _ in FIXTURES]
)
def test_a_saved_state_loads_and_saves_again_the_same(name: str, text: str) -> None:
    cls = Round if name.endswith(".round") else Table
    key = KEY if ".signed." in name else None
    loaded: Any = cls.from_json(text, key=key)
    assert loaded.to_json(key=key) == text
    assert cls.from_dict(loaded.to_dict()).to_json(key=key) == text


def test_the_fixtures_cover_every_preset_and_state() -> None:
    assert len(FIXTURES) >= 600
    rules_names = {r for r, _, _ in FIXTURES}
    assert set(RuleSet.presets()) <= rules_names
    seen: Dict[str, Set[Any]] = {}

    def note(what: str, value: Any) -> None:
        seen.setdefault(what, set()).add(value)

    for _, name, text in FIXTURES:
        data = json.loads(text)
        note("signed", "hmac" in data)
        rounds = [data] if name.endswith(".round") else []
        if name.endswith(".table"):
            note("table with a round", data["round"] is not None)
            note("table players", bool(data["players"]))
            for player in data["players"]:
                for flag in ("left", "disconnected", "stand_after_round"):
                    if player[flag]:
                        note("table flags", flag)
            if data["round"] is not None:
                rounds.append(data["round"])
        for rnd in rounds:
            note("phase", rnd["phase"])
            note("seeded", rnd["seed"] is not None)
            for field in ("escaped", "surrendered", "disconnected"):
                if rnd[field]:
                    note("seat lists", field)
            if any(g for g in rnd["given"]):
                note("swap", rnd["phase"])
            for sub in rnd["submissions"]:
                if sub is not None:
                    note("plays", "special" if "cards" in sub else "lanes")
            for reason in rnd["auto"]:
                note("auto", reason)
            result = rnd["result"]
            if result is not None:
                note("settled", "balances" if result["balances"] is not None else "plain")
                note("settled", "showdown" if result["settlement"] is not None else "nobody")
                if result["bankrupt"]:
                    note("settled", "bankrupt")
    assert seen["signed"] == {True, False}
    assert seen["table with a round"] == {True, False}
    assert seen["table flags"] == {"left", "disconnected", "stand_after_round"}
    assert seen["phase"] == {"new", "swap", "arrange", "settled"}
    assert seen["seeded"] == {True, False}
    assert seen["seat lists"] == {"escaped", "surrendered", "disconnected"}
    assert seen["swap"] == {"swap", "arrange", "settled"}
    assert seen["plays"] == {"special", "lanes"}
    assert seen["auto"] == {None, "timeout", "disconnect"}
    assert seen["settled"] == {"balances", "plain", "showdown", "nobody", "bankrupt"}


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("save_fixtures", FOLDER / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()
TAMPERED = [json.loads(line) for line in (FOLDER / "tampered.jsonl").read_text().splitlines()]
SAVES = {f"{r}.{n}": t for r, n, t in FIXTURES}


def test_tampered_saves_are_taken_as_before() -> None:
    """Each fixture edited a few ways (a place set, deleted, bumped, swapped or copied):
    a save refused then is refused now with the same error class and ``key``, and one
    that loaded then loads now into the same state (the digest of its save)."""
    assert len(TAMPERED) >= 1800
    changed = []
    for row in TAMPERED:
        name = row["save"]
        cls = Round if name.endswith(".round") else Table
        data = GENERATOR.apply(json.loads(SAVES[name]), row["edits"])
        want = {k: v for k, v in row.items() if k not in ("save", "edits")}
        got = GENERATOR.outcome(cls, data)
        if got != want:
            changed.append((name, row["edits"], want, got))
    assert not changed, f"{len(changed)} tampered saves taken otherwise, e.g. {changed[:3]}"
