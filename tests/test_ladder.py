"""Level ladders (等级 / 称号), RULES.md 8: the shipped data against the formula."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List

import pytest

import thirteen.reference.ladder as ref
from thirteen.errors import RuleSetError, ThirteenError
from thirteen.ladder import (
    LADDER_NAMES,
    Ladder,
    Level,
    LevelInfo,
    level_change,
    level_for,
)

MONEY = "bianfeng-money"
POINTS = "bianfeng-points"
TOP = 838_860_800

# Typed in from RULES.md 8 (money ladder, 银子, levels 1 to 24).
MONEY_TITLES = [
    "jobless", "temp worker", "contract worker", "regular worker",
    "assistant supervisor", "deputy supervisor", "supervisor", "assistant manager",
    "deputy manager", "manager", "assistant president", "vice president",
    "president", "director", "vice chairman", "chairman",
    "gambler", "gambling saint", "gambling god", "Bian Feng's richest",
    "China's richest", "Asia's richest", "world's richest", "God of Wealth",
]  # fmt: skip

# Typed in from RULES.md 8 (points ladder, levels 1 to 24).
POINTS_TITLES = [
    "newbie", "beginner", "novice", "intermediate",
    "senior", "adept", "first dan", "middle dan",
    "high dan", "master candidate", "master", "first-class master",
    "county master", "city master", "provincial master", "national master",
    "international master", "grand master", "top master", "Thirteen Minister",
    "Thirteen Prime Minister", "Thirteen President", "Thirteen Emperor",
    "Thirteen Supreme",
]  # fmt: skip

THRESHOLDS = [
    100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 51_200, 102_400,
    204_800, 409_600, 819_200, 1_638_400, 3_276_800, 6_553_600, 13_107_200,
    26_214_400, 52_428_800, 104_857_600, 209_715_200, 419_430_400, 838_860_800,
]  # fmt: skip


# ---------------------------------------------------------------------- vectors


@pytest.mark.parametrize(
    ("ladder", "score", "level", "title"),
    [
        (MONEY, 0, 1, "jobless"),
        (MONEY, 200, 2, "temp worker"),
        (POINTS, 838_860_799, 23, "Thirteen Emperor"),
        (MONEY, 838_860_800, 24, "God of Wealth"),
    ],
    ids=["L1", "L2", "L3", "L4"],
)
def test_vectors(ladder: str, score: int, level: int, title: str) -> None:
    for info in (level_for(ladder, score), Ladder.load(ladder).level_for(score)):
        assert (info.level, info.title) == (level, title)
    expected = ref.level_for(ladder, score)
    assert (expected.level, expected.title) == (level, title)


def test_vectors_file() -> None:
    """The shared ``ladders.json`` vectors, when the cases folder is there."""
    path = Path(__file__).resolve().parents[1].parent / "shared" / "cases" / "ladders.json"
    if not path.exists():
        pytest.skip("shared cases not present")
    cases = json.loads(path.read_text(encoding="utf-8"))
    assert cases
    for case in cases:
        arg = case["input"]["level_for"]
        info = level_for(arg["ladder"], arg["score"])
        assert {"level": info.level, "title": info.title} == case["expected"], case["id"]


# ---------------------------------------------------------------------- data


def test_names() -> None:
    assert Ladder.names() == (MONEY, POINTS) == LADDER_NAMES
    for name in Ladder.names():
        assert Ladder.load(name).name == name


@pytest.mark.parametrize(("name", "titles"), [(MONEY, MONEY_TITLES), (POINTS, POINTS_TITLES)])
def test_shipped_data(name: str, titles: List[str]) -> None:
    ladder = Ladder.load(name)
    assert len(titles) == len(THRESHOLDS) == 24
    assert [lv.title for lv in ladder.levels] == titles
    assert [lv.threshold for lv in ladder.levels] == THRESHOLDS
    assert [lv.level for lv in ladder.levels] == list(range(1, 25))
    assert THRESHOLDS == [100 * 2 ** (k - 1) for k in range(1, 25)]
    assert ref.TITLES[name] == titles
    assert ladder.description


def test_load_is_cached_and_equal() -> None:
    a = Ladder.load(MONEY)
    assert Ladder.load(MONEY) is a
    assert Ladder.from_dict(a.to_dict()) == a
    assert Ladder.load(MONEY) != Ladder.load(POINTS)


def _boundaries() -> List[Any]:
    out = []
    for name in LADDER_NAMES:
        for k in range(1, 25):
            t = 100 * 2 ** (k - 1)
            for score in (t - 1, t, t + 1):
                out.append(pytest.param(name, score, id=f"{name}-{score}"))
        for score in (0, 1, 50, 99, 2 * TOP, 10**30):
            out.append(pytest.param(name, score, id=f"{name}-{score}"))
    return out


@pytest.mark.parametrize(("name", "score"), _boundaries())
def test_boundaries_against_reference(name: str, score: int) -> None:
    got = level_for(name, score)
    want = ref.level_for(name, score)
    assert got.to_dict() == want.to_dict()
    assert isinstance(got, LevelInfo)


@pytest.mark.parametrize("name", LADDER_NAMES)
def test_boundaries_by_hand(name: str) -> None:
    titles = MONEY_TITLES if name == MONEY else POINTS_TITLES
    for k in range(2, 25):
        t = THRESHOLDS[k - 1]
        assert level_for(name, t - 1).level == k - 1
        assert level_for(name, t).level == k
        assert level_for(name, t).title == titles[k - 1]
        assert level_for(name, t + 1).level == k
    # Level 1: below the first threshold, at it, and just under the second.
    for score in (0, 99, 100, 101, 199):
        assert level_for(name, score).level == 1
        assert level_for(name, score).title == titles[0]


# ---------------------------------------------------------------------- progress


def test_progress_bottom() -> None:
    info = level_for(MONEY, 0)
    assert info == LevelInfo(1, "jobless", 100, 200, 0.0)
    assert level_for(MONEY, 50).progress == 0.25
    assert level_for(MONEY, 100).progress == 0.5
    assert level_for(MONEY, 100).threshold == 100
    assert level_for(MONEY, 199).progress == pytest.approx(0.995)
    assert level_for(MONEY, 99).threshold == 100  # the listed threshold, also below it


def test_progress_middle() -> None:
    info = level_for(POINTS, 1_600)
    assert (info.level, info.threshold, info.next_threshold, info.progress) == (
        5, 1_600, 3_200, 0.0,
    )  # fmt: skip
    assert level_for(POINTS, 2_400).progress == 0.5
    assert level_for(POINTS, 3_199).progress < 1.0
    assert level_for(POINTS, 3_200).level == 6


def test_progress_top() -> None:
    for score in (TOP, TOP + 1, 10**20):
        info = level_for(MONEY, score)
        assert info.level == 24
        assert info.threshold == TOP
        assert info.next_threshold is None
        assert info.progress == 1.0
    below = level_for(MONEY, TOP - 1)
    assert below.next_threshold == TOP
    assert 0.99 < below.progress < 1.0


def test_progress_range_and_monotone() -> None:
    ladder = Ladder.load(POINTS)
    last = (0, -1.0)
    for score in range(0, 5_000, 7):
        info = ladder.level_for(score)
        assert 0.0 <= info.progress < 1.0
        if info.level == last[0]:
            assert info.progress > last[1]
        last = (info.level, info.progress)


def test_to_dict() -> None:
    assert level_for(POINTS, TOP).to_dict() == {
        "level": 24,
        "title": "Thirteen Supreme",
        "threshold": TOP,
        "next_threshold": None,
        "progress": 1.0,
    }
    json.dumps(level_for(MONEY, 12345).to_dict())


def test_frozen() -> None:
    info = level_for(MONEY, 0)
    with pytest.raises(AttributeError):
        info.level = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Ladder.load(MONEY).name = "x"  # type: ignore[misc]


def test_integer_like_scores() -> None:
    np = pytest.importorskip("numpy")
    assert level_for(MONEY, np.int64(200)).level == 2


# ---------------------------------------------------------------------- level_change


def test_level_change() -> None:
    assert level_change(MONEY, 0, 199) is None
    assert level_change(MONEY, 250, 250) is None
    up = level_change(MONEY, 199, 200)
    assert up is not None
    before, after = up
    assert (before.level, after.level) == (1, 2)
    assert after.title == "temp worker"
    down = level_change(Ladder.load(POINTS), TOP, 0)
    assert down is not None
    assert (down[0].level, down[1].level) == (24, 1)
    assert Ladder.load(MONEY).level_change(400, 3_200) == (
        level_for(MONEY, 400),
        level_for(MONEY, 3_200),
    )


# ---------------------------------------------------------------------- custom


CUSTOM = """\
name = "club"
description = "our club's ladder"

[[levels]]
level = 1
threshold = 0
title = "guest"

[[levels]]
level = 2
threshold = 10
title = "member"

[[levels]]
level = 3
threshold = 1_000
title = "elder"
"""


def test_custom_ladder_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(CUSTOM, encoding="utf-8")
    ladder = Ladder.from_toml(path)
    assert ladder.name == "club"
    assert ladder.description == "our club's ladder"
    assert ladder.levels == (
        Level(1, 0, "guest"),
        Level(2, 10, "member"),
        Level(3, 1_000, "elder"),
    )
    assert level_for(ladder, 0) == LevelInfo(1, "guest", 0, 10, 0.0)
    assert level_for(ladder, 9).title == "guest"
    assert level_for(ladder, 10).title == "member"
    assert level_for(ladder, 505).progress == 0.5
    assert level_for(ladder, 1_000) == LevelInfo(3, "elder", 1_000, None, 1.0)
    assert Ladder.from_toml(str(path)) == ladder
    assert level_change(ladder, 9, 10) is not None


def test_custom_ladder_from_dict_without_level_numbers() -> None:
    ladder = Ladder.from_dict(
        {"name": "x", "levels": [{"threshold": 5, "title": "a"}, {"threshold": 6, "title": "b"}]}
    )
    assert [lv.level for lv in ladder.levels] == [1, 2]
    assert ladder.description == ""
    assert ladder.level_for(0).title == "a"
    one = Ladder.from_dict({"name": "one", "levels": [{"threshold": 1, "title": "only"}]})
    assert one.level_for(0) == LevelInfo(1, "only", 1, None, 1.0)


# ---------------------------------------------------------------------- errors


def _levels(*pairs: Any) -> List[Any]:
    return [{"level": i + 1, "threshold": t, "title": s} for i, (t, s) in enumerate(pairs)]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"name": "x", "levels": _levels((100, "a"), (100, "b"))}, "levels[1].threshold"),
        (
            {"name": "x", "levels": _levels((1, "a"), (5, "b"), (9, "c"), (8, "d"))},
            "levels[3].threshold",
        ),
        ({"name": "x", "levels": _levels((-1, "a"))}, "levels[0].threshold"),
        ({"name": "x", "levels": _levels((1.5, "a"))}, "levels[0].threshold"),
        ({"name": "x", "levels": _levels((True, "a"))}, "levels[0].threshold"),
        ({"name": "x", "levels": _levels(("100", "a"))}, "levels[0].threshold"),
        ({"name": "x", "levels": [{"level": 1, "title": "a"}]}, "levels[0].threshold"),
        ({"name": "x", "levels": [{"level": 1, "threshold": 1}]}, "levels[0].title"),
        ({"name": "x", "levels": _levels((1, "a"), (2, ""))}, "levels[1].title"),
        ({"name": "x", "levels": _levels((1, "a"), (2, 7))}, "levels[1].title"),
        (
            {"name": "x", "levels": [{"level": 2, "threshold": 1, "title": "a"}]},
            "levels[0].level",
        ),
        (
            {"name": "x", "levels": [{"threshold": 1, "title": "a", "titel": "b"}]},
            "levels[0].titel",
        ),
        ({"name": "x", "levels": ["a"]}, "levels[0]"),
        ({"name": "x", "levels": []}, "levels"),
        ({"name": "x", "levels": "abc"}, "levels"),
        ({"name": "x"}, "levels"),
        ({"levels": _levels((1, "a"))}, "name"),
        ({"name": "", "levels": _levels((1, "a"))}, "name"),
        ({"name": 3, "levels": _levels((1, "a"))}, "name"),
        ({"name": "x", "description": 1, "levels": _levels((1, "a"))}, "description"),
        ({"name": "x", "levels": _levels((1, "a")), "extra": 1}, "extra"),
        # Text a save cannot hold (a lone surrogate): refused here, not when a table saves.
        ({"name": "x\ud800", "levels": _levels((1, "a"))}, "name"),
        ({"name": "x", "description": "\udfff", "levels": _levels((1, "a"))}, "description"),
        ({"name": "x", "levels": _levels((1, "a"), (5, "b\ud800"))}, "levels[1].title"),
    ],
)
def test_bad_ladder(data: Any, key: str) -> None:
    with pytest.raises(RuleSetError) as err:
        Ladder.from_dict(data)
    assert err.value.key == key
    assert isinstance(err.value, ThirteenError)
    assert isinstance(err.value, ValueError)


def test_bad_ladder_not_a_table() -> None:
    with pytest.raises(RuleSetError) as err:
        Ladder.from_dict([1, 2])  # type: ignore[arg-type]
    assert err.value.key is None


def test_bad_ladder_constructor() -> None:
    with pytest.raises(RuleSetError) as err:
        Ladder("x", (Level(1, 10, "a"), Level(2, 5, "b")))
    assert err.value.key == "levels[1].threshold"


def refused_file(path: Path, text: str) -> RuleSetError:
    """The error of loading a ladder file holding ``text`` (written to ``path``)."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleSetError) as err:
        Ladder.from_toml(path)
    return err.value


def test_bad_toml_files(tmp_path: Path) -> None:
    assert refused_file(tmp_path / "broken.toml", "name = \n").key is None
    unordered = CUSTOM.replace("threshold = 1_000", "threshold = 10")
    assert refused_file(tmp_path / "unordered.toml", unordered).key == "levels[2].threshold"
    untitled = CUSTOM.replace('title = "member"\n', "")
    assert refused_file(tmp_path / "untitled.toml", untitled).key == "levels[1].title"
    with pytest.raises(OSError):
        Ladder.from_toml(tmp_path / "missing.toml")


@pytest.mark.parametrize("score", [-1, -(10**20), 1.0, 200.0, True, False, "200", None, [200]])
def test_bad_score(score: Any) -> None:
    for call in (
        lambda: level_for(MONEY, score),
        lambda: Ladder.load(POINTS).level_for(score),
        lambda: level_change(MONEY, 0, score),
        lambda: level_change(MONEY, score, 0),
        lambda: ref.level_for(MONEY, score),
    ):
        with pytest.raises(ThirteenError) as err:
            call()
        assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("name", ["bianfeng", "BIANFENG-MONEY", "", "../presets/bianfeng", None])
def test_unknown_ladder(name: Any) -> None:
    for call in (
        lambda: Ladder.load(name),
        lambda: level_for(name, 0),
        lambda: level_change(name, 0, 200),
    ):
        with pytest.raises(ThirteenError) as err:
            call()
        assert isinstance(err.value, ValueError)
        assert not isinstance(err.value, RuleSetError)
    if isinstance(name, str):
        with pytest.raises(ThirteenError):
            ref.level_for(name, 0)
