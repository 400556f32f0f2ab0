"""The ``thirteen`` command, driven as a subprocess like a user would."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
# Seat 0's cards of the kaixin deal with seed 2026 (checked by test_play_seed_2026_seat_0).
SEAT0_2026 = "Ac Ad Ks Kh Jc Tc Td 9h 8s 5c 5d 4s 4c"
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
LETTER_CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][shdc](?![A-Za-z])")
GLYPH_CARD = re.compile(r"[2-9TJQKA][♠♥♣♦]")


def run(*args: str, input: str = "", env: Dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "thirteen", *args],
        capture_output=True,
        text=True,
        input=input,
        timeout=300,
        env=None if env is None else {**os.environ, **env},
    )


def keys_of(data: Any) -> List[str]:
    """Every key of every object in a JSON document."""
    if isinstance(data, dict):
        return list(data) + [k for v in data.values() for k in keys_of(v)]
    if isinstance(data, list):
        return [k for v in data for k in keys_of(v)]
    return []


def json_only(r: subprocess.CompletedProcess[str]) -> Any:
    """The JSON document that is the whole of standard output, its keys snake_case."""
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)  # fails on anything else printed to stdout
    bad = [k for k in keys_of(data) if not SNAKE.match(k)]
    assert bad == [], f"keys not in snake_case: {bad}"
    return data


@pytest.mark.parametrize("command", [[], ["play"], ["solve"], ["score"], ["simulate"], ["demo"]])
def test_help_everywhere(command: List[str]) -> None:
    r = run(*command, "--help")
    assert r.returncode == 0
    assert "usage: thirteen" in r.stdout


def test_python_dash_m_thirteen_and_the_script_agree() -> None:
    script = Path(sys.executable).with_name("thirteen")
    by_module = run("--version")
    assert by_module.returncode == 0 and by_module.stdout.strip()
    if script.exists():
        by_script = subprocess.run([str(script), "--version"], capture_output=True, text=True)
        assert by_script.stdout == by_module.stdout


def test_play_prints_a_real_round_and_replays() -> None:
    r = run("play", "--seed", "7")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "kaixin, 4 players, seed 7" in out
    for seat in range(4):
        assert f"seat {seat}" in out
    assert "Totals" in out and "\x1b[" not in out  # piped: plain text
    assert run("play", "--seed", "7").stdout == out


def test_piped_output_uses_letters_in_every_section() -> None:
    # Glyphs only on a terminal, and then everywhere (tests/test_render.py); piped, never.
    for args in (["play", "--seed", "2026"], ["demo"], ["solve", DRAGON, "--top", "3"]):
        out = run(*args).stdout
        assert GLYPH_CARD.search(out) is None, args
        assert LETTER_CARD.search(out) is not None, args


def test_play_seed_2026_seat_0() -> None:
    data = json_only(run("play", "--seed", "2026", "--json"))
    assert sorted(data["dealt"][0]) == sorted(SEAT0_2026.split())


def test_play_json_is_a_settled_round() -> None:
    data = json_only(run("play", "--seed", "11", "--rules", "shisanzhang", "--players", "3", "--json"))
    assert data["players"] == 3 and data["rules"] == "shisanzhang"
    assert sum(data["settlement"]["totals"]) == 0
    dealt = [set(h) for h in data["dealt"]]
    assert all(len(h) == 13 for h in dealt)
    assert data["cut"] is not None  # shisanzhang cuts (切牌)
    assert data["you"] is None
    for hand, sub in zip(data["dealt"], data["submissions"]):
        cards = sub["cards"].split() if "special" in sub else " ".join(sub[k] for k in ("front", "middle", "back")).split()
        assert sorted(cards) == sorted(hand)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--seed", "3", "--json"],
        ["solve", DRAGON, "--json"],
        ["simulate", "-n", "2", "--seed", "1", "--json"],
        ["demo", "--json"],
    ],
)
def test_every_json_is_json_only_with_snake_case_keys(args: List[str]) -> None:
    json_only(run(*args))


def test_play_interactive_takes_a_hint() -> None:
    r = run("play", "--seed", "2026", "--interactive", input="1\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Hints" in out and "Totals" in out
    # The hand is shown sorted, highest first, and the person's seat is marked.
    assert f"Your hand (seat 0): {SEAT0_2026}" in out
    assert "seat 0 (you)" in out
    # Hints read front → middle → back, like the lanes and the prompt.
    header = next(line for line in out.splitlines() if line.lstrip().startswith("#"))
    assert header.split()[:4] == ["#", "front", "middle", "back"]
    assert "front | middle | back" in out


def test_play_interactive_json_keeps_prompts_off_stdout() -> None:
    r = run("play", "--seed", "2026", "--interactive", "--json", input="1\n")
    data = json_only(r)
    assert data["you"] == 0
    assert "Your hand" in r.stderr and "Hints" in r.stderr


def test_play_interactive_names_the_mistake() -> None:
    typed = [
        "Ac Ad Jc | Tc Td 8s 5c 5d",                              # two lanes
        "Ac Ad | Ks Kh Jc Tc Td | 9h 8s 5c 5d 4s 4c",             # front short
        "Ac Ad Jc | Tc Td 8s 5c | Ks Kh 9h 4s 4c 5d",             # middle short
        "Ac Ad Jc | Tc Td 8s 5c 7h | Ks Kh 9h 4s 4c",             # 7h not held
        "Ac Ad Jc | Tc Td 8s 5c 5c | Ks Kh 9h 4s 4c",             # 5c twice
        "Ac Ad Jc | Tc Td 8s 5c Zz | Ks Kh 9h 4s 4c",             # bad token
        "Ac Ad Jc | Ks Kh 9h 4s 4c | Tc Td 8s 5c 5d",             # fouled (kaixin rejects)
        "9",                                                       # no such hint
        "Ac Ad Jc | Tc Td 8s 5c 5d | Ks Kh 9h 4s 4c",             # fine
    ]
    r = run("play", "--seed", "2026", "--interactive", "--json", input="\n".join(typed) + "\n")
    data = json_only(r)
    err = " ".join(r.stderr.split())  # messages may wrap at the terminal's width
    assert "you gave 2" in err and "front | middle | back" in err
    assert "the front needs 3 cards, you gave 2" in err
    assert "the middle needs 5 cards, you gave 4" in err
    assert "7h is not in your hand" in err
    assert "5c is used 2 times, but you hold it once" in err
    assert "the middle:" in err and "Zz" in err
    assert "fouled (相公): the middle (two pair, kings and fours) beats the back (two pair, tens and fives)" in err
    assert "There is no hint 9" in err
    assert data["submissions"][0] == {"front": "Ac Ad Jc", "middle": "Tc Td 8s 5c 5d", "back": "Ks Kh 9h 4s 4c"}


def test_play_interactive_16_cards_you_choose_13() -> None:
    first = json_only(run("play", "--seed", "2026", "--rules", "kaixin-extra", "--json"))
    dealt = first["dealt"][0]
    assert len(dealt) == 16
    aside = sorted(dealt)[:3]
    r = run("play", "--seed", "2026", "--rules", "kaixin-extra", "--interactive", "--json",
            input=" ".join(aside) + "\n1\n")
    data = json_only(r)
    assert "are dealt 16 cards" in r.stderr and "Set 3 aside" in r.stderr
    kept = data["kept"][0]
    rest = list(dealt)
    for card in aside:
        rest.remove(card)
    assert sorted(kept) == sorted(rest)
    played = data["submissions"][0]
    cards = played["cards"].split() if "special" in played else " ".join(played.values()).split()
    assert sorted(cards) == sorted(rest)


def test_play_interactive_end_of_input_lets_the_engine_play() -> None:
    r = run("play", "--seed", "2026", "--interactive", input="")
    assert r.returncode == 0, r.stderr
    assert "No more input" in r.stdout and "Totals" in r.stdout


def test_ctrl_c_exits_130_quietly() -> None:
    # The core's worker threads block SIGINT, so Ctrl-C reaches the main thread even while it
    # waits at the prompt (a worker taking it once left the prompt asleep).
    # A shell's background job starts with SIGINT ignored, and a child inherits that (as a
    # CI runner may): give the command the disposition a terminal gives it.
    proc = subprocess.Popen(
        [sys.executable, "-m", "thirteen", "play", "--seed", "2026", "--interactive"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        seen = b""
        deadline = time.monotonic() + 120
        while b"front | middle | back:" not in seen:  # the prompt is waiting for input
            assert time.monotonic() < deadline, seen
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, seen
            seen += chunk
        proc.send_signal(signal.SIGINT)
        # Wait with stdin still open: end-of-input would end the prompt without the signal.
        proc.wait(timeout=60)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    assert proc.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


def test_solve_declares_a_dragon_and_shows_runners_up() -> None:
    r = run("solve", DRAGON)
    assert r.returncode == 0, r.stderr
    assert "declare dragon" in r.stdout
    rows = [line.split()[0] for line in r.stdout.splitlines() if re.match(r"\s*[1-4]\s", line)]
    assert rows == ["1", "2", "3", "4"]  # --top 4: the best and three runners-up
    data = json_only(run("solve", "As Ah Ad Kc Kd Qs Js Ts 9s 2c 3h 5d 7c", "--json"))
    assert data["best"]["arrangement"] is not None and data["special_held"] is None
    assert len(data["runners_up"]) == 3


def test_solve_greedy_says_why_there_is_no_runner_up() -> None:
    r = run("solve", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc", "--strategy", "greedy", "--top", "2")
    assert r.returncode == 0, r.stderr
    assert "No runners-up: greedy" in r.stdout
    data = json_only(run("solve", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc",
                         "--strategy", "greedy", "--top", "2", "--json"))
    assert data["runners_up"] == [] and "greedy" in data["runners_up_note"]
    data = json_only(run("solve", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc", "--top", "2", "--json"))
    assert len(data["runners_up"]) == 1 and data["runners_up_note"] is None


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
    data = json_only(run("score", str(path), "--json"))
    # RULES.md 6 shisanzhang: lanes 1 + 2 + 3, scoop +6 = 12; money 1200 less 5% capped at 50.
    assert data["totals"] == [12, -12]
    assert data["money"] == [1150, -1200]
    r = run("score", str(path))
    assert "seat 0 scoops seat 1" in r.stdout
    assert re.search(r"seat 0\s+\+12\s+\+1150", r.stdout)


def test_simulate_summary() -> None:
    data = json_only(run("simulate", "-n", "6", "--seed", "1", "--strategies", "ev,greedy,greedy,greedy", "--json"))
    assert data["rounds"] == 6 and data["strategies"] == ["ev", "greedy", "greedy", "greedy"]
    assert abs(sum(data["mean_units_per_round"])) < 1e-9
    assert set(data["per_round"]) == {"fouls", "scoops", "home_runs"}
    r = run("simulate", "-n", "3", "--seed", "1", "--rules", "bianfeng", "--players", "2")
    assert r.returncode == 0 and "3 rounds of bianfeng" in r.stdout
    assert r.stderr == ""  # no progress bar when standard error is not a terminal


def test_demo() -> None:
    r = run("demo")
    assert r.returncode == 0
    assert "two pair, kings and sevens" in r.stdout and "fouled (相公)" in r.stdout
    data = json_only(run("demo", "--json"))
    assert [a["fouled"] for a in data["arrangements"]] == [False, True, False]
    assert [c["result"] for c in data["lane_comparisons"]] == ["drawn", "second wins"]


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
        (["simulate", "-n", "2", "--seed", str(2**64 - 1)], "past 2**64 - 1"),
    ],
)
def test_errors_exit_2_with_a_message(args: List[str], message: str) -> None:
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr


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
def test_score_names_the_bad_key(tmp_path: Path, table: Dict[str, Any], message: str) -> None:
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
        f"{sys.executable} -m thirteen play --seed 5 | head -1",
        shell=True, capture_output=True, text=True, timeout=300,
    )
    assert "Broken pipe" not in r.stderr and "Traceback" not in r.stderr


def test_score_rules_file_is_used_when_the_table_names_none(tmp_path: Path) -> None:
    # A rule file with a scoop bonus of 5 instead of kaixin's doubling: lanes 1 + 2 + 1
    # (kaixin: front pair 1, middle full house 2, back full house 1), then +5 for the scoop.
    (tmp_path / "house.toml").write_text('base = "kaixin"\nscoop = { kind = "bonus", units = 5 }\n')
    table = {"players": [
        {"front": "Ah Ad Kc", "middle": "Jh Jd Jc 5s 5h", "back": "Qs Qh Qd 9c 9d"},
        {"front": "Kh 7d 3c", "middle": "Th Td 6c 6s 2c", "back": "Tc Ts 8h 8c 4d"},
    ]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    data = json_only(run("score", str(path), "--rules-file", str(tmp_path / "house.toml"), "--json"))
    assert data["totals"] == [9, -9]
    data = json_only(run("score", str(path), "--json"))  # kaixin: (1 + 2 + 1) × 2
    assert data["totals"] == [8, -8]


def test_an_argument_that_is_not_utf8_names_the_card() -> None:
    # The byte \xff is no UTF-8: Python hands it over as the lone surrogate \udcff.
    hand = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks K\udcff"
    r = run("solve", hand)
    assert r.returncode == 2
    assert "bad card token" in r.stderr and "position 12" in r.stderr
    assert "codec" not in r.stderr and "Traceback" not in r.stderr


def test_core_worker_threads_block_sigint_and_sigterm() -> None:
    # Linux shows each thread's blocked signals in /proc: after a parallel solve, the core's
    # worker threads block SIGINT (2) and SIGTERM (15), and the main thread blocks neither.
    code = (
        "import glob, os, numpy as np, thirteen\n"
        "r = thirteen.RuleSet.preset('kaixin')\n"
        "d = np.array([c.code for c in thirteen.deck(r)], np.uint8)\n"
        "thirteen.solve_batch(np.stack([d[:13]] * 64), r)\n"
        "for t in sorted(glob.glob(f'/proc/{os.getpid()}/task/*/status')):\n"
        "    f = dict(l.split(':', 1) for l in open(t).read().splitlines() if ':' in l)\n"
        "    print(int(t.split('/')[-2]) == os.getpid(), int(f['SigBlk'], 16))\n"
    )
    if not os.path.exists("/proc/self/task"):
        pytest.skip("no /proc")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, RAYON_NUM_THREADS="2"))
    rows = [line.split() for line in out.stdout.splitlines()]
    both = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    main = [int(m) for is_main, m in rows if is_main == "True"]
    blocking = [int(m) for is_main, m in rows if is_main == "False" and int(m) & both == both]
    assert main and main[0] & both == 0
    assert len(blocking) == 2  # the two workers
