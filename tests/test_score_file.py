"""``thirteen score`` with malformed table files (issue 9): every bad field gives a clear
message and exit code 2, never a traceback or exit 0 with wrong money."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

A = {"front": "Ah Ad Kc", "middle": "Jh Jd Jc 5s 5h", "back": "Qs Qh Qd 9c 9d"}
B = {"front": "Kh 7d 3c", "middle": "Th Td 6c 6s 2c", "back": "Tc Ts 8h 8c 4d"}


def score(tmp_path: Path, table: Any, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "table.json"
    path.write_text(table if isinstance(table, str) else json.dumps(table), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "thirteen.cli", "score", str(path), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def table(**fields: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {"rules": "luosong", "players": [A, B]}
    out.update(fields)
    return out


@pytest.mark.parametrize(
    "bad, words",
    [
        (table(players=[{"special": "dragon"}, B]), ["cards", "player 0"]),
        (table(players=[{"front": 1, "middle": 2, "back": 3}, B]), ["players[0].front", "text"]),
        (table(players=[A, {"front": "Kh 7d 3c"}]), ["player 1", "middle"]),
        (table(players=[A, 7]), ["players[1]"]),
        (table(players=[A, dict(B, special="dragon")]), ["player 1", "not both"]),
        (table(banker="0"), ["'banker' must be an integer, got text"]),
        (table(banker=1.5), ["banker"]),
        (table(banker=True), ["banker"]),
        (table(stakes="2"), ["stakes"]),
        (table(stakes=[1, "2"]), ["stakes[1]"]),
        (table(stakes=[1, 2, 3]), ["stakes must have one entry per player"]),
        (table(stakes=[1]), ["stakes must have one entry per player"]),
        (table(surrendered=1), ["surrendered"]),
        (table(surrendered=["1"]), ["surrendered[0]"]),
        (table(rake=5), ["rake"]),
        (table(rake={"cap": 5}), ["rake", "percent"]),
        (table(rake={"percent": [5]}), ["rake.percent"]),
        (table(rake={"percent": 5, "cap": "50"}), ["rake.cap"]),
        (table(stake="100"), ["stake"]),
        (table(stake=-1), ["stake"]),
        (table(rules=5), ["rules"]),
        (table(rules="nope"), ["unknown preset"]),
        (table(extra=1), ["extra"]),
        (table(stake=2**63), ["stake"]),
        ("[" * 100_000 + "]" * 100_000, ["JSON"]),
        ("{", ["JSON"]),
        ([], ["players"]),
    ],
)
def test_malformed_fields_exit_2_with_a_message(tmp_path: Path, bad: Any, words: Any) -> None:
    r = score(tmp_path, bad)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("thirteen: error:")
    for word in words:
        assert word in r.stderr, (word, r.stderr)


def test_a_stake_of_2_62_is_refused(tmp_path: Path) -> None:
    r = score(tmp_path, table(rules="shisanzhang", stake=2**62))
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_banker_and_stakes_score_by_hand(tmp_path: Path) -> None:
    # luosong (RULES.md 6): banker mode, lanes 1/2/3, scoop doubles. Seat 0 (banker)
    # beats seat 1 in all three lanes: (1 + 2 + 3) × 2 = 12; seat 1's stake 3 → 36.
    r = score(tmp_path, table(banker=0, stakes=[1, 3], stake=10), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["totals"] == [36, -36]
    assert data["money"] == [360, -360]
    # The same table with seat 1 as banker: seat 0's stake now counts.
    r = score(tmp_path, table(banker=1, stakes=[2, 1]), "--json")
    assert json.loads(r.stdout)["totals"] == [24, -24]


def test_surrendered_and_a_special(tmp_path: Path) -> None:
    dragon = {"special": "dragon", "cards": "2c 3d 4h 5c 6c 7d 8h 9s Tc Js Qc Ks Ac"}
    r = score(tmp_path, {"rules": "shisanzhang", "players": [A, dragon]}, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["totals"] == [-36, 36]  # shisanzhang dragon 36 (RULES.md 6)
    r = score(tmp_path, {"rules": "western-2-4", "players": [A, B], "surrendered": [1]}, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["totals"] == [3, -3]  # western surrender pays 3
