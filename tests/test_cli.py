"""The ``thirteen`` command, driven as a subprocess like a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"


def run(*args: str, input: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "thirteen.cli", *args],
        capture_output=True,
        text=True,
        input=input,
        timeout=300,
    )


@pytest.mark.parametrize("command", [[], ["play"], ["solve"], ["score"], ["simulate"], ["demo"]])
def test_help_everywhere(command: List[str]) -> None:
    r = run(*command, "--help")
    assert r.returncode == 0
    assert "usage: thirteen" in r.stdout


def test_play_prints_a_real_round_and_replays() -> None:
    r = run("play", "--seed", "7")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "kaixin, 4 players, seed 7" in out
    for seat in range(4):
        assert f"seat {seat}:" in out
    assert "Totals:" in out and "\x1b[" not in out  # piped: plain text
    assert run("play", "--seed", "7").stdout == out


def test_play_json_is_a_settled_round() -> None:
    r = run("play", "--seed", "11", "--rules", "shisanzhang", "--players", "3", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["players"] == 3 and data["rules"] == "shisanzhang"
    assert sum(data["settlement"]["totals"]) == 0
    dealt = [set(h) for h in data["dealt"]]
    assert all(len(h) == 13 for h in dealt)
    assert data["cut"] is not None  # shisanzhang cuts (切牌)
    for hand, sub in zip(data["dealt"], data["submissions"]):
        cards = sub["cards"].split() if "special" in sub else " ".join(sub[k] for k in ("front", "middle", "back")).split()
        assert sorted(cards) == sorted(hand)


def test_play_interactive_takes_a_hint() -> None:
    r = run("play", "--seed", "3", "--interactive", input="1\n")
    assert r.returncode == 0, r.stderr
    assert "Hints (back / middle / front):" in r.stdout and "Totals:" in r.stdout


def test_solve_declares_a_dragon_and_shows_runners_up() -> None:
    r = run("solve", DRAGON)
    assert r.returncode == 0, r.stderr
    assert "declare dragon" in r.stdout
    assert "Runners-up:" in r.stdout
    r = run("solve", "As Ah Ad Kc Kd Qs Js Ts 9s 2c 3h 5d 7c", "--json")
    data = json.loads(r.stdout)
    assert data["best"]["arrangement"] is not None and data["special_held"] is None


def test_score_file(tmp_path: Path) -> None:
    table = {
        "rules": "shisanzhang",
        "players": [
            {"front": "Ah Ad Kc", "middle": "Jh Jd Jc 5s 5h", "back": "Qs Qh Qd 9c 9d"},
            {"front": "Kh 7d 3c", "middle": "Th Td 6c 6s 2c", "back": "Tc Ts 8h 8c 4d"},
        ],
        "stake": 100,
        "rake": {"percent": 5, "cap": 50},
    }
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    r = run("score", str(path), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    # RULES.md 6 shisanzhang: lanes 1 + 2 + 3, scoop +6 = 12; money 1200 less 5% capped at 50.
    assert data["totals"] == [12, -12]
    assert data["money"] == [1150, -1200]
    r = run("score", str(path))
    assert "seat 0 scoops seat 1" in r.stdout


def test_simulate_summary() -> None:
    r = run("simulate", "-n", "6", "--seed", "1", "--strategies", "ev,greedy,greedy,greedy", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["rounds"] == 6 and data["strategies"] == ["ev", "greedy", "greedy", "greedy"]
    assert abs(sum(data["mean_units_per_round"])) < 1e-9
    r = run("simulate", "-n", "3", "--seed", "1", "--rules", "bianfeng", "--players", "2")
    assert r.returncode == 0 and "3 rounds of bianfeng" in r.stdout


def test_demo() -> None:
    r = run("demo")
    assert r.returncode == 0
    assert "two pair, kings and sevens" in r.stdout and "FOULED" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "As Kd Xx 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"], "bad card token"),
        (["solve", "As Kd"], "expected 13"),
        (["play", "--rules", "nosuch"], "invalid choice"),
        (["score", "/nonexistent/table.json"], "cannot read"),
        (["simulate", "-n", "1", "--strategies", "ev,foo"], "strategies"),
        (["play", "--seed", "-1"], "seeds are 0 to 2**64 - 1"),
        (["simulate", "-n", "0"], "must be at least 1"),
    ],
)
def test_errors_exit_2_with_a_message(args: List[str], message: str) -> None:
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr


def test_score_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    r = run("score", str(path))
    assert r.returncode == 2 and "not valid JSON" in r.stderr


@pytest.mark.parametrize(
    "table, message",
    [
        ({"rules": "nope", "players": []}, "unknown preset 'nope'"),
        ({"rules": "kaixin", "stake": "abc", "players": [
            {"front": "Ah Ad Kc", "middle": "Jh Jd Jc 5s 5h", "back": "Qs Qh Qd 9c 9d"},
            {"front": "Kh 7d 3c", "middle": "Th Td 6c 6s 2c", "back": "Tc Ts 8h 8c 4d"}]},
         "'stake' must be"),
    ],
)
def test_score_names_the_bad_key(tmp_path: Path, table: dict, message: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    r = run("score", str(path))
    assert r.returncode == 2 and message in r.stderr


def test_full_width_separators() -> None:
    # A Chinese input method types the full-width comma and space.
    r = run("solve", "2c\uff0c3d 4h\u30005s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    assert r.returncode == 0, r.stderr
    assert "declare dragon" in r.stdout


def test_broken_pipe_is_quiet() -> None:
    r = subprocess.run(
        f"{sys.executable} -m thirteen.cli play --seed 5 | head -1",
        shell=True, capture_output=True, text=True, timeout=300,
    )
    assert "Broken pipe" not in r.stderr
