"""MkDocs hook: the presets table of the rules reference, made from the preset files.

``docs/rules.md`` holds the marker ``<!-- presets-table -->``; at build time it becomes a
table with one row per ``python/thirteen/presets/*.toml``, each read through
``RuleSet.preset`` (so a ``base`` preset's keys are inherited). ``tests/test_docs.py``
checks the table against the files themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

MARKER = "<!-- presets-table -->"
PRESETS = Path(__file__).resolve().parents[2] / "python" / "thirteen" / "presets"
COLUMNS = (
    "preset", "deck, dealt", "compared", "wheel A-5", "ties", "front", "middle", "back",
    "scoop", "home run", "foul", "specials (units)", "other",
)


def _words(key: str) -> str:
    return key.replace("_", " ")


def _lane(table: Any) -> str:
    extra = ", ".join(f"{_words(k)} {v}" for k, v in table.values.items())
    return f"{table.base}" + (f" ({extra})" if extra else "")


def _bonus(bonus: Any, min_players: Any = None) -> str:
    if bonus.kind == "none":
        return "–"
    text = "×2" if bonus.kind == "double" else f"+{bonus.units}"
    if min_players is not None:
        text += f", {min_players}+ players"
    return text


def _other(rules: Any) -> str:
    parts: List[str] = []
    if rules.majority_bonus:
        parts.append(f"majority +{rules.majority_bonus}")
    if rules.surrender.allowed:
        parts.append(f"surrender {rules.surrender.units}")
    if rules.escape is not None:
        if rules.escape.to == "split":
            parts.append(f"escape {rules.escape.units} split")
        else:
            amounts = "/".join(str(v) for _, v in sorted(rules.escape.by_players.items()))
            parts.append(f"escape {amounts} to the winner")
    if rules.swap is not None:
        parts.append(f"swap {rules.swap.max_cards} (换三张)")
    if rules.cut:
        parts.append("cut (切牌)")
    if rules.horse_card:
        parts.append(f"horse card {rules.horse_card}")
    return ", ".join(parts) or "–"


def _row(name: str) -> List[str]:
    from thirteen import RuleSet

    r = RuleSet.preset(name)
    mode = "banker only" + (", banker wins ties" if r.banker_wins_ties else "") if r.mode == "banker" else "all pairs"
    foul = "rejected" if r.foul == "reject" else "loses all" + (", as a scoop" if r.foul_counts_as_scoop else "")
    specials = ", ".join(f"{_words(k)} {v}" for k, v in r.specials.items()) or "–"
    return [
        f"`{name}`",
        f"{r.deck.replace('_', ' ')}, {r.dealt}",
        mode,
        r.wheel,
        "suit ♠>♥>♣>♦" if r.tie_break == "suit" else "draw",
        _lane(r.lane_values.front),
        _lane(r.lane_values.middle),
        _lane(r.lane_values.back),
        _bonus(r.scoop),
        _bonus(r.home_run, r.home_run.min_players if r.home_run.kind != "none" else None),
        foul,
        specials,
        _other(r),
    ]


def preset_names() -> List[str]:
    """The presets shipped as files, in the order of ``thirteen.rules.PRESET_NAMES`` (files
    it does not list come last, by name)."""
    from thirteen.rules import PRESET_NAMES

    on_disk = sorted(p.stem for p in PRESETS.glob("*.toml"))
    return [n for n in PRESET_NAMES if n in on_disk] + [n for n in on_disk if n not in PRESET_NAMES]


def presets_table() -> str:
    """The presets as a Markdown table; lane cells read ``base (category units, ...)``."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    for name in preset_names():
        lines.append("| " + " | ".join(_row(name)) + " |")
    return "\n".join(lines)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs event: replaces the marker with the table."""
    if MARKER in markdown:
        return markdown.replace(MARKER, presets_table())
    return markdown
