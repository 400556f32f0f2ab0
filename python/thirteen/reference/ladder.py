"""Reference level ladders (等级), written directly from RULES.md 8.

An independent, plain re-implementation of :func:`thirteen.ladder.level_for` for the
two bianfeng ladders: the thresholds come from the formula (level *k* needs
100 × 2^(k−1)) and the titles (称号) are typed in from RULES.md 8. It never reads the
shipped TOML files, so the tests can check those files against it.

Conventions shared with :mod:`thirteen.ladder` (where RULES.md is silent):
``threshold`` is the level's own threshold (100 for level 1, also for a score below
it); ``progress`` is measured from 0 on level 1 and from the level's threshold above
it; at the top level (24, open-ended) ``next_threshold`` is ``None`` and ``progress``
is 1.0. Scores must be whole numbers >= 0.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from ..errors import ThirteenError

__all__ = ["LEVELS", "TITLES", "RefLevelInfo", "threshold", "level_for"]

LEVELS = 24
"""Number of levels of each bianfeng ladder."""

TITLES: Dict[str, List[str]] = {
    # Money ladder (银子), levels 1 to 24.
    "bianfeng-money": [
        "jobless",
        "temp worker",
        "contract worker",
        "regular worker",
        "assistant supervisor",
        "deputy supervisor",
        "supervisor",
        "assistant manager",
        "deputy manager",
        "manager",
        "assistant president",
        "vice president",
        "president",
        "director",
        "vice chairman",
        "chairman",
        "gambler",
        "gambling saint",
        "gambling god",
        "Bian Feng's richest",
        "China's richest",
        "Asia's richest",
        "world's richest",
        "God of Wealth",
    ],
    # Points ladder, levels 1 to 24 (24 is untitled in the source: "Thirteen Supreme").
    "bianfeng-points": [
        "newbie",
        "beginner",
        "novice",
        "intermediate",
        "senior",
        "adept",
        "first dan",
        "middle dan",
        "high dan",
        "master candidate",
        "master",
        "first-class master",
        "county master",
        "city master",
        "provincial master",
        "national master",
        "international master",
        "grand master",
        "top master",
        "Thirteen Minister",
        "Thirteen Prime Minister",
        "Thirteen President",
        "Thirteen Emperor",
        "Thirteen Supreme",
    ],
}


@dataclass(frozen=True)
class RefLevelInfo:
    """Level of a score: ``level``, ``title``, ``threshold``, ``next_threshold``
    (``None`` at the top), ``progress`` (0.0 up to 1.0)."""

    level: int
    title: str
    threshold: int
    next_threshold: Optional[int]
    progress: float

    def to_dict(self) -> Dict[str, Any]:
        """The fields as a plain dict."""
        return dataclasses.asdict(self)


def threshold(level: int) -> int:
    """The score level ``level`` (1 to 24) needs: 100 × 2^(level−1) (RULES.md 8)."""
    return 100 * (1 << (level - 1))


def level_for(ladder_name: str, score: int) -> RefLevelInfo:
    """The level of ``score`` (money or points, whole units) on the bianfeng ladder
    ``ladder_name`` (``"bianfeng-money"`` or ``"bianfeng-points"``), RULES.md 8.

    Raises:
        ThirteenError: an unknown ladder, or a score that is not a whole number >= 0.
    """
    if ladder_name not in TITLES:
        raise ThirteenError(f"unknown ladder {ladder_name!r}")
    if type(score) is not int:
        raise ThirteenError(f"score must be a whole number, got {score!r}")
    if score < 0:
        raise ThirteenError(f"score must be >= 0, got {score}")
    # The highest level whose threshold the score reaches; level 1 below them all.
    level = 1
    for k in range(1, LEVELS + 1):
        if score >= threshold(k):
            level = k
    if level == LEVELS:
        next_threshold: Optional[int] = None
        progress = 1.0
    else:
        next_threshold = threshold(level + 1)
        start = 0 if level == 1 else threshold(level)
        progress = (score - start) / (next_threshold - start)
    return RefLevelInfo(
        level=level,
        title=TITLES[ladder_name][level - 1],
        threshold=threshold(level),
        next_threshold=next_threshold,
        progress=progress,
    )
