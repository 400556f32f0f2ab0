"""Terminal output lines up with and without colour, and shows cards one way everywhere:
through ``rich``'s recording console and through a real pseudo-terminal."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from typing import List

import pytest
from rich.console import Console

import thirteen
from thirteen.commands.play import play_round, show_round
from thirteen.commands.render import Screen, lane_name
from thirteen.rules import RuleSet

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LETTER_CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][shdc](?![A-Za-z])")
GLYPH_CARD = re.compile(r"[2-9TJQKA][♠♥♣♦]")


def screen(color: bool, glyphs: bool) -> Screen:
    console = Console(
        file=io.StringIO(), record=True, force_terminal=True, width=100,
        color_system="truecolor" if color else None, no_color=not color,
    )
    return Screen(console, glyphs=glyphs)


def rendered(color: bool, glyphs: bool, rules: str = "kaixin", seed: int = 2026) -> str:
    s = screen(color, glyphs)
    show_round(s, play_round(RuleSet.preset(rules), 4 if rules != "kaixin-extra" else 3, seed))
    text = s.console.file.getvalue()  # type: ignore[attr-defined]
    return str(text)


def lane_rows(text: str) -> List[str]:
    """The rows of the arrangements table (the lines that name a lane)."""
    row = re.compile(r"^(seat \d+( \(you\))?)?\s+(front|middle|back)\s")
    return [line for line in text.splitlines() if row.match(line)]


@pytest.mark.parametrize("rules", ["kaixin", "kaixin-extra", "shisanzhang"])
def test_colour_changes_no_column(rules: str) -> None:
    coloured = rendered(color=True, glyphs=True, rules=rules)
    plain = rendered(color=False, glyphs=True, rules=rules)
    assert "\x1b[31m" in coloured  # red hearts and diamonds
    assert "\x1b[" not in plain
    assert ANSI.sub("", coloured) == plain


@pytest.mark.parametrize("glyphs", [True, False])
def test_lane_columns_line_up(glyphs: bool) -> None:
    text = ANSI.sub("", rendered(color=True, glyphs=glyphs))
    rows = lane_rows(text)
    assert len(rows) == 12  # 4 seats × 3 lanes
    for word in ("front|middle|back", r"[2-9TJQKA]", r"(high card|one pair|two pair|three|straight|flush|full|four)"):
        starts = set()
        for row in rows:
            # the first match after the seat column
            m = re.compile(word).search(row, 9)
            assert m is not None, row
            starts.add(m.start())
        assert len(starts) == 1, (word, rows)


def test_glyphs_or_letters_in_every_section() -> None:
    with_glyphs = ANSI.sub("", rendered(color=True, glyphs=True))
    with_letters = rendered(color=False, glyphs=False)
    assert LETTER_CARD.search(with_glyphs) is None
    assert GLYPH_CARD.search(with_letters) is None
    # every section that shows cards shows them: the deal and the lanes
    for text, card in ((with_glyphs, GLYPH_CARD), (with_letters, LETTER_CARD)):
        deal = text.split("Arrangements")[0]
        lanes = text.split("Arrangements")[1].split("The reveal")[0]
        assert card.search(deal) and card.search(lanes)


def test_lane_names() -> None:
    rules = RuleSet.preset("kaixin")
    a = thirteen.Arrangement.parse("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d", rules)
    assert [lane_name(v) for v in a.values(rules)] == ["pair of aces", "full house", "full house"]
    assert lane_name(thirteen.evaluate("Ks 7d 3c", rules)) == "king high"
    assert lane_name(thirteen.evaluate("7s 7d 7c", rules)) == "three sevens"


def _pty_run(args: List[str], env_extra: dict[str, str]) -> str:
    """Runs the command on a pseudo-terminal 100 columns wide; returns what it showed."""
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"}, **env_extra)
    proc = subprocess.Popen(
        [sys.executable, "-m", "thirteen", *args],
        stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, close_fds=True,
    )
    os.close(child_fd)
    chunks = []
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main_fd)
    assert proc.wait(timeout=300) == 0
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_on_a_pseudo_terminal_colour_keeps_the_layout() -> None:
    coloured = _pty_run(["play", "--seed", "2026"], {})
    plain = _pty_run(["play", "--seed", "2026"], {"NO_COLOR": "1"})
    assert "\x1b[31m" in coloured and "\x1b[31m" not in plain
    assert ANSI.sub("", coloured) == ANSI.sub("", plain)
    text = ANSI.sub("", coloured)
    assert GLYPH_CARD.search(text) and LETTER_CARD.search(text) is None
    rows = lane_rows(text)
    assert len(rows) == 12
    assert len({row.index(re.search(r"front|middle|back", row).group()) for row in rows}) == 1  # type: ignore[union-attr]


def test_simulate_shows_progress_with_rate_and_eta_on_a_terminal() -> None:
    shown = ANSI.sub("", _pty_run(["simulate", "-n", "40", "--seed", "1", "--strategies", "greedy"], {}))
    assert "rounds/s" in shown and "ETA" in shown and "/40" in shown
    assert "40 rounds of kaixin" in shown  # then the summary
    quiet = ANSI.sub("", _pty_run(["simulate", "-n", "5", "--seed", "1", "--quiet"], {}))
    assert "rounds/s" not in quiet and "5 rounds of kaixin" in quiet
