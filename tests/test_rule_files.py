"""Rule-set text and files (RULES.md 6): ``from_json`` / ``from_toml`` read text (or a
dict), ``RuleSet.load`` reads a path, and nothing is ever guessed (issue 9)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

from thirteen import RuleSet, RuleSetError
from thirteen.rules import LaneTable

HOUSE_TOML = 'base = "kaixin"\nname = "house"\nlane_values.front = { base = 2 }\n'
HOUSE = {"base": "kaixin", "name": "house", "lane_values": {"front": {"base": 2}}}


def test_text_and_dicts() -> None:
    kaixin = RuleSet.preset("kaixin")
    for r in (
        RuleSet.from_toml(HOUSE_TOML),
        RuleSet.from_json(json.dumps(HOUSE)),
        RuleSet.from_json(json.dumps(HOUSE).encode("utf-8")),
        RuleSet.from_toml(HOUSE_TOML.encode("utf-8")),
        RuleSet.from_json(HOUSE),
        RuleSet.from_toml(HOUSE),
    ):
        assert r.name == "house"
        assert r.lane_values.front == LaneTable(2)
        assert r.lane_values.back == kaixin.lane_values.back


def test_load_reads_a_path_by_its_suffix(tmp_path: Path) -> None:
    toml_path = tmp_path / "house.toml"
    toml_path.write_text(HOUSE_TOML, encoding="utf-8")
    json_path = tmp_path / "house.json"
    json_path.write_text(json.dumps(HOUSE), encoding="utf-8")
    want = RuleSet.from_dict(HOUSE)
    assert RuleSet.load(toml_path) == want
    assert RuleSet.load(str(json_path)) == want
    assert RuleSet.load(json_path, format="json") == want
    other = tmp_path / "house.txt"
    other.write_text(HOUSE_TOML, encoding="utf-8")
    with pytest.raises(RuleSetError, match="txt"):
        RuleSet.load(other)  # no guess from the content
    assert RuleSet.load(other, format="toml") == want
    with pytest.raises(RuleSetError, match="format"):
        RuleSet.load(other, format="yaml")
    with pytest.raises(OSError):
        RuleSet.load(tmp_path / "missing.toml")
    with pytest.raises(TypeError):
        RuleSet.load(3)  # type: ignore[arg-type]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_load_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    # Issue 52 N4: RuleSet.load blocked forever opening a FIFO nobody writes to. The call
    # runs in a child process, so that a regression fails on the timeout, not hangs.
    fifo = tmp_path / "house.toml"
    os.mkfifo(fifo)
    code = (
        "import sys\n"
        "from thirteen import RuleSet, RuleSetError\n"
        "try:\n"
        "    RuleSet.load(sys.argv[1])\n"
        "except RuleSetError as exc:\n"
        "    print(exc.message)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert "not a regular file" in done.stdout and str(fifo) in done.stdout


def test_load_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    # A directory raised IsADirectoryError, and a device was read: /dev/null as TOML
    # is the empty file, which loaded as the default rule set.
    folder = tmp_path / "rules.toml"
    folder.mkdir()
    for path, format in ((folder, None), (Path(os.devnull), "toml"), (Path(os.devnull), "json")):
        with pytest.raises(RuleSetError, match="not a regular file"):
            RuleSet.load(path, format=format)
    # A link to a regular file is read as the file.
    real = tmp_path / "house.toml"
    real.write_text(HOUSE_TOML, encoding="utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    assert RuleSet.load(link) == RuleSet.load(real)


def test_a_path_given_as_text_is_text_not_a_file(tmp_path: Path) -> None:
    path = tmp_path / "house.json"
    path.write_text(json.dumps(HOUSE), encoding="utf-8")
    with pytest.raises(RuleSetError):
        RuleSet.from_json(str(path))  # not JSON text; the file is never opened
    with pytest.raises(RuleSetError):
        RuleSet.from_json("/dev/zero")
    with pytest.raises(RuleSetError):
        RuleSet.from_toml("/dev/zero")
    with pytest.raises(TypeError):
        RuleSet.from_json(path)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        RuleSet.from_toml(path)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [3, 0, None, 1.5, ["{}"], True])
def test_non_text_is_a_type_error_and_touches_no_file_descriptor(bad: Any) -> None:
    read, write = os.pipe()
    try:
        for parse in (RuleSet.from_json, RuleSet.from_toml):
            with pytest.raises(TypeError):
                parse(bad)
        # Both ends are still open: nothing was read from or closed on a descriptor.
        os.write(write, b"x")
        assert os.read(read, 1) == b"x"
        if isinstance(bad, int) and not isinstance(bad, bool) and bad >= 0:
            os.fstat(bad)  # a small integer descriptor (stdin for 0) is still open
    finally:
        os.close(read)
        os.close(write)


def test_from_json_of_3_leaves_descriptor_3_open() -> None:
    # The case: from_json(3) read and then closed file descriptor 3.
    fds = []
    try:
        while not fds or fds[-1] < 3:
            fds.append(os.open(os.devnull, os.O_RDONLY))
        with pytest.raises(TypeError):
            RuleSet.from_json(3)  # type: ignore[arg-type]
        os.fstat(3)  # still open
    finally:
        for fd in fds:
            os.close(fd)


DEEP = 100_000


@pytest.mark.parametrize(
    "text",
    [
        "[" * DEEP + "]" * DEEP,
        '{"lane_values": ' + "[" * DEEP + "]" * DEEP + "}",
        '{"a":' * DEEP + "1" + "}" * DEEP,
    ],
    ids=["array", "in-a-key", "objects"],
)
def test_json_nested_deep_is_a_rule_set_error(text: str) -> None:
    with pytest.raises(RuleSetError, match="nested|JSON|table"):
        RuleSet.from_json(text)


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * DEEP + "]" * DEEP,
        "a = " + "{b = " * DEEP + "1" + "}" * DEEP,
        "lane_values.front = " + "[" * 500 + "]" * 500,
    ],
    ids=["arrays", "inline-tables", "in-a-key"],
)
def test_toml_nested_deep_is_a_rule_set_error(text: str) -> None:
    with pytest.raises(RuleSetError):
        RuleSet.from_toml(text)


def test_dicts_nested_deep_are_rule_set_errors() -> None:
    deep: Any = []
    for _ in range(DEEP):
        deep = [deep]
    for bad in (
        {"lane_values": deep},
        {"base": "kaixin", "specials": {"dragon": deep}},
        {"base": "kaixin", "special_tiers": deep},
    ):
        with pytest.raises(RuleSetError):
            RuleSet.from_dict(bad)
    with pytest.raises(RuleSetError):
        RuleSet.preset("kaixin").replace(escape=deep)
    with pytest.raises(RuleSetError):
        RuleSet(lane_values=deep)


def test_invalid_text_names_the_problem() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_toml("wheel = \n")
    assert info.value.key is None and "TOML" in str(info.value)
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_json("{not json")
    assert info.value.key is None and "JSON" in str(info.value)
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_json("[1, 2]")
    assert info.value.key is None
    with pytest.raises(RuleSetError):
        RuleSet.from_json(b"\xff\xfe")  # not UTF-8


# --------------------------------------------------------------------------- documented bounds

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rule-files.md"

# Each row of the "Bounds" table of docs/rule-files.md: the override that sets the key to v,
# and the key a RuleSetError names.
BOUNDED = {
    "`lane_values.<lane>.base`": (
        lambda v: {"lane_values": {"back": {"base": v}}}, "lane_values.back.base"),
    "`lane_values.<lane>.<category>`": (
        lambda v: {"lane_values": {"middle": {"base": 1, "flush": v}}},
        "lane_values.middle.flush"),
    "`majority_bonus`": (lambda v: {"majority_bonus": v}, "majority_bonus"),
    "`scoop.units`": (lambda v: {"scoop": {"kind": "bonus", "units": v}}, "scoop.units"),
    "`home_run.units`": (
        lambda v: {"home_run": {"kind": "bonus", "units": v, "min_players": 4}},
        "home_run.units"),
    "`surrender.units` (with `allowed = true`)": (
        lambda v: {"surrender": {"allowed": True, "units": v}}, "surrender.units"),
    "`surrender.units` (with `allowed = false`)": (
        lambda v: {"surrender": {"allowed": False, "units": v}}, "surrender.units"),
    "`specials.<special>`": (lambda v: {"specials": {"dragon": v}}, "specials.dragon"),
    "`escape.units`": (lambda v: {"escape": {"to": "split", "units": v}}, "escape.units"),
    "`escape.by_players.<n>`": (
        lambda v: {"escape": {"to": "winner", "by_players": {"2": v, "3": 1, "4": 1}}},
        "escape.by_players.2"),
    "`swap.max_cards`": (lambda v: {"swap": {"max_cards": v}}, "swap.max_cards"),
}  # fmt: skip


def documented_bounds() -> Dict[str, Tuple[int, int]]:
    section = DOCS.read_text(encoding="utf-8").split("## Bounds", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| ([\d,]+) \| ([\d,]+) \|$", section, re.M)
    out = {}
    for keys, low, high in rows:
        qualifier = re.search(r" \(with .*\)$", keys)
        for key in re.split(r", (?=`)", keys[: qualifier.start()] if qualifier else keys):
            name = key.strip() + (qualifier.group(0) if qualifier and "surrender" in key else "")
            out[name] = (int(low.replace(",", "")), int(high.replace(",", "")))
    return out


def test_every_bound_the_rule_files_page_states_is_the_one_enforced() -> None:
    bounds = documented_bounds()
    assert set(bounds) == set(BOUNDED)
    for name, (low, high) in bounds.items():
        override, key = BOUNDED[name]
        for ok in (low, high):
            RuleSet.from_dict({"base": "kaixin", **override(ok)})
        for bad in (low - 1, high + 1):
            with pytest.raises(RuleSetError) as err:
                RuleSet.from_dict({"base": "kaixin", **override(bad)})
            assert err.value.key == key, (name, bad)


def test_the_other_documented_limits() -> None:
    for dealt in (12, 14, 15, 17):
        with pytest.raises(RuleSetError) as err:
            RuleSet.from_dict({"base": "kaixin", "dealt": dealt})
        assert err.value.key == "dealt"
    # 16 cards × 4 players = 64 > 52; 16 × 3 = 48 fits; the 65-card deck seats 4.
    with pytest.raises(RuleSetError, match="52"):
        RuleSet.from_dict({"base": "kaixin", "dealt": 16})
    RuleSet.from_dict({"base": "kaixin", "dealt": 16, "players": [2, 3]})
    RuleSet.from_dict({"base": "kaixin", "dealt": 16, "deck": "extra_diamonds"})
    for players in ([], [1], [5], [2, 2], [True]):
        with pytest.raises(RuleSetError) as err:
            RuleSet.from_dict({"base": "kaixin", "players": players})
        assert err.value.key == "players"
    for n in (2, 5):
        with pytest.raises(RuleSetError) as err:
            RuleSet.from_dict(
                {"base": "kaixin", "home_run": {"kind": "double", "min_players": n}}
            )
        assert err.value.key == "home_run.min_players"
    with pytest.raises(RuleSetError) as err:  # no payment for 4 players
        RuleSet.from_dict({"base": "kaixin", "escape": {"to": "winner", "by_players": {2: 1, 3: 1}}})
    assert err.value.key == "escape.by_players"
    with pytest.raises(RuleSetError) as err:
        RuleSet.from_dict({"base": "kaixin", "name": "\ud800"})
    assert err.value.key == "name"
    with pytest.raises(RuleSetError, match="nested"):
        RuleSet.from_dict({"base": "kaixin", "lane_values": {"front": {"base": [[[[[[[1]]]]]]]}}})
