"""The core's entry points for training in shards (``thirteen._core.iteration_counts`` and
``train(count=...)``, what ``thirteen.train(backend="ray")`` runs): counts of deal ranges add
up to the iteration's, a counting callback gives the local tables, and what a callback
returns is checked before it is used."""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Optional, Tuple

import pytest

import thirteen
from thirteen import RuleSet, _core

RULES = RuleSet.preset("western-2-4")
Counts = Dict[str, Any]
LANES = ("front", "middle", "back")


def added(parts: List[Counts]) -> Counts:
    """The sum of counts, lanes and classes, written out here (not the package's own)."""

    def lanes(ds: List[Dict[str, Any]]) -> Dict[str, Any]:
        out = {}
        for lane in LANES:
            c: Counter[int] = Counter()
            for d in ds:
                c.update(dict(d[lane]))
            out[lane] = sorted((v, n) for v, n in c.items() if n)
        return out

    total = lanes(parts)
    with_classes = [p for p in parts if "classes" in p]
    if with_classes:
        total["classes"] = [lanes([p["classes"][k] for p in with_classes]) for k in range(16)]
    return total


def counts(tables: Optional[_core.LaneTables], iteration: int, greedy: bool, start: int, stop: int,
           players: int = 2, seed: int = 5) -> Counts:
    return _core.iteration_counts(RULES, tables, players=players, seed=seed, iteration=iteration,
                                  greedy=greedy, start=start, stop=stop)


def test_counts_of_ranges_add_up_to_the_iteration() -> None:
    whole = counts(None, 0, True, 0, 30)
    assert list(whole) == ["front", "middle", "back", "classes"]
    # 30 deals of 2 hands, each arranged (western-2-4 declares no special): 60 per lane.
    assert [sum(n for _, n in whole[lane]) for lane in LANES] == [60, 60, 60]
    assert all(whole[lane] == sorted(whole[lane]) for lane in LANES)
    # The classes split the same hands: 60 in all, and value by value they add up to the lanes.
    assert len(whole["classes"]) == 16
    assert sum(n for c in whole["classes"] for _, n in c["front"]) == 60
    assert added(whole["classes"]) == {lane: whole[lane] for lane in LANES}
    parts = [counts(None, 0, True, a, b) for a, b in ((0, 4), (4, 4), (4, 29), (29, 30))]
    assert added(parts) == whole
    assert counts(None, 1, True, 0, 30) != whole  # another iteration deals other cards
    assert counts(None, 0, True, 5, 5) == {"front": [], "middle": [], "back": []}


def test_a_counting_callback_gives_the_local_tables() -> None:
    calls: List[Tuple[int, bool, bool]] = []

    def count(iteration: int, greedy: bool, tables: Optional[_core.LaneTables]) -> Counts:
        calls.append((iteration, greedy, tables is None))
        return added([counts(tables, iteration, greedy, a, b) for a, b in ((0, 13), (13, 40))])

    args: Dict[str, Any] = {"players": 2, "deals": 40, "iterations": 3, "tolerance": 0.0, "seed": 5}
    local = _core.train(RULES, **args)
    ranged = _core.train(RULES, count=count, **args)
    assert ranged.counts() == local.counts()
    # Iteration 0 plays greedily without tables; later ones answer the averaged tables.
    assert calls == [(0, True, True), (1, False, False), (2, False, False)]


def test_classes_are_kept_only_when_every_iteration_brings_them() -> None:
    # A callback that returns the lanes alone in some iteration: the classes of the others
    # would not add up to the lanes, so the tables come out without classes (and load again).
    def count(iteration: int, greedy: bool, tables: Optional[_core.LaneTables]) -> Counts:
        got = counts(tables, iteration, greedy, 0, 20)
        return got if iteration == 0 else {lane: got[lane] for lane in LANES}

    t = _core.train(RULES, players=2, deals=20, iterations=3, tolerance=0.0, seed=5, count=count)
    c = t.counts()
    assert "classes" not in c and t.samples == 40 * (1 + 2 + 3)
    assert _core.LaneTables.from_counts(RULES, c["front"], c["middle"], c["back"]).counts() == c
    # Every iteration with classes: they are kept and add up to the lanes.
    full = _core.train(RULES, players=2, deals=20, iterations=3, tolerance=0.0, seed=5,
                       count=lambda it, greedy, tables: counts(tables, it, greedy, 0, 20)).counts()
    assert len(full["classes"]) == 16 and added(full["classes"]) == {lane: full[lane] for lane in LANES}


@pytest.mark.parametrize(
    "returned, error, message",
    [
        ([], TypeError, "dict of the lanes' counts"),
        ({"front": [], "middle": []}, thirteen.ThirteenError, "front, middle and back"),
        ({"front": [], "middle": [], "rear": []}, thirteen.ThirteenError, "no back counts"),
        ({"front": [(1, 1)], "middle": [], "back": []}, thirteen.ThirteenError, "not the value of a 3-card hand"),
        ("unequal", thirteen.ThirteenError, "every lane counts the same hands"),
        ("too many", thirteen.ThirteenError, "at most 80"),
        ("negative", thirteen.LimitError, "count"),
        ("15 classes", thirteen.ThirteenError, "16 classes"),
        ("classes off", thirteen.ThirteenError, "do not add up"),
        ("class not a dict", TypeError, "class 3 must be a dict"),
    ],
)
def test_what_a_callback_returns_is_checked(returned: Any, error: type, message: str) -> None:
    real = counts(None, 0, True, 0, 40)
    if returned == "unequal":
        returned = {**real, "back": real["back"][1:]}
    elif returned == "too many":
        returned = {lane: [(v, n * 2) for v, n in real[lane]] for lane in LANES}
    elif returned == "negative":
        returned = {lane: [(v, -n) for v, n in real[lane]] for lane in LANES}
    elif returned == "15 classes":
        returned = {**real, "classes": real["classes"][:15]}
    elif returned == "classes off":
        # One hand's front missing from its class: the classes no longer add up to the lanes.
        classes = [dict(c) for c in real["classes"]]
        k = next(i for i, c in enumerate(classes) if c["front"])
        v, n = classes[k]["front"][0]
        classes[k]["front"] = [(v, n - 1)] + classes[k]["front"][1:]
        returned = {**real, "classes": classes}
    elif returned == "class not a dict":
        returned = {**real, "classes": real["classes"][:3] + [[]] + real["classes"][4:]}
    with pytest.raises(error, match=message):
        _core.train(RULES, players=2, deals=40, iterations=2, tolerance=0.0, seed=5,
                    count=lambda it, greedy, tables: returned)


def test_a_callback_error_stops_the_run_and_comes_back() -> None:
    seen: List[int] = []

    def count(iteration: int, greedy: bool, tables: Optional[_core.LaneTables]) -> Counts:
        seen.append(iteration)
        if iteration == 1:
            raise RuntimeError("lost a worker")
        return counts(tables, iteration, greedy, 0, 10)

    with pytest.raises(RuntimeError, match="lost a worker"):
        _core.train(RULES, players=2, deals=10, iterations=4, tolerance=0.0, seed=5, count=count)
    assert seen == [0, 1]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"start": 5, "stop": 4}, thirteen.LimitError, "start"),
        ({"stop": 10**8 + 1}, thirteen.LimitError, "stop"),
        ({"start": -1}, thirteen.LimitError, "start"),
        ({"iteration": 10**4 + 1}, thirteen.LimitError, "iteration"),
        ({"players": 5}, thirteen.PlayerCountError, "5"),
        ({"greedy": False}, thirteen.ThirteenError, "ev needs the tables"),
        ({"stop": "9"}, TypeError, "integer"),
    ],
)
def test_iteration_counts_arguments_are_bounded(kwargs: Dict[str, Any], error: type, message: str) -> None:
    args: Dict[str, Any] = {"players": 2, "seed": 1, "iteration": 0, "greedy": True, "start": 0, "stop": 3}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        _core.iteration_counts(RULES, None, **args)


# --- where the table file goes, checked before any iteration (issue 52, N5) ------------


@pytest.mark.parametrize(
    "where, message",
    [
        ("folder", "is a folder"),
        ("missing/t.json.gz", "no folder"),
        ("file/t.json.gz", "no folder"),
        ("/sys/t.json.gz", "cannot write"),  # sysfs refuses new files, even to root
    ],
)
def test_an_out_that_cannot_be_written_is_refused_before_training(where: str, message: str, tmp_path: Any) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    out = where if where.startswith("/") else tmp_path / where
    played: List[int] = []
    with pytest.raises(thirteen.ThirteenError, match=message):
        thirteen.train(RULES, players=[2], deals=5, iterations=1, out=out,
                       progress=lambda *row: played.append(1))
    assert played == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "folder"]  # nothing left behind
    assert list((tmp_path / "folder").iterdir()) == []


def test_the_train_command_names_an_out_folder(tmp_path: Any) -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "thirteen", "train", "--rules", "western-2-4", "--players", "2",
                        "--deals", "5", "--iterations", "1", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("thirteen: error: out: ") and "is a folder" in r.stderr


def test_packed_counts_add_up_as_the_lists_do() -> None:
    """What a Ray task of training sends back (``packed=True``: bytes) is the same counts, and
    the core adds packed parts, in any order, to the sum of the lists written out here;
    parts that counted no hand add nothing."""
    ranges = ((0, 4), (4, 4), (4, 29), (29, 30))
    parts = [counts(None, 0, True, a, b) for a, b in ranges]
    packed = [_core.iteration_counts(RULES, None, players=2, seed=5, iteration=0, greedy=True, start=a, stop=b,
                                     packed=True) for a, b in ranges]
    assert all(isinstance(p, bytes) for p in packed)
    # Bytes: 4 for the number of lists (3 lanes, 3 per class for 16 classes), 4 for each
    # list's length, 12 for each (value, count) pair.
    pairs = sum(len(parts[2][lane]) for lane in LANES) + sum(len(c[lane]) for c in parts[2]["classes"] for lane in LANES)
    assert len(packed[2]) == 4 + 4 * 51 + 12 * pairs
    assert _core.LaneTables.from_packed(RULES, packed[2]).counts() == parts[2]
    assert len(packed[1]) == 16  # no hand: three empty lists

    def count_packed(order: List[bytes]) -> Any:
        def count(iteration: int, greedy: bool, tables: Optional[bytes]) -> List[bytes]:
            return order
        return _core.train(RULES, players=2, deals=30, iterations=1, tolerance=0, seed=5, count=count,
                           packed=True).counts()

    assert count_packed(packed) == count_packed(packed[::-1]) == added(parts) == counts(None, 0, True, 0, 30)


def test_a_packed_counting_callback_gives_the_local_tables() -> None:
    sent: List[Optional[bytes]] = []

    def count(iteration: int, greedy: bool, packed: Optional[bytes]) -> List[bytes]:
        sent.append(packed)
        tables = None if packed is None else _core.LaneTables.from_packed(RULES, packed)
        return [_core.iteration_counts(RULES, tables, players=2, seed=5, iteration=iteration, greedy=greedy,
                                       start=a, stop=b, packed=True) for a, b in ((0, 13), (13, 40))]

    args: Dict[str, Any] = {"players": 2, "deals": 40, "iterations": 3, "tolerance": 0.0, "seed": 5}
    local = _core.train(RULES, **args)
    assert _core.train(RULES, count=count, packed=True, **args).counts() == local.counts()
    assert sent[0] is None and all(isinstance(p, bytes) for p in sent[1:]) and len(sent) == 3
    # The tables of iteration 2 are those of the first two iterations' average.
    assert _core.LaneTables.from_packed(RULES, sent[2]).counts() == _core.train(RULES, **{**args, "iterations": 2}).counts()


@pytest.mark.parametrize(
    "packed, message",
    [
        (b"", "packed lane counts: 0 bytes hold no header"),
        (b"\x04\x00\x00\x00", "packed lane counts: 4 lists"),
        (b"\x03\x00\x00\x00" + b"\x00" * 11, "hold no 3 list lengths"),
        (b"\x03\x00\x00\x00" + b"\x01\x00\x00\x00" + b"\x00" * 8, "bytes for lists of"),
    ],
)
def test_packed_counts_of_another_layout_are_refused(packed: bytes, message: str) -> None:
    with pytest.raises(thirteen.ThirteenError, match=message):
        _core.train(RULES, players=2, deals=5, iterations=1, tolerance=0, seed=5, count=lambda *a: [packed],
                    packed=True)
    with pytest.raises(thirteen.ThirteenError, match=message):
        _core.LaneTables.from_packed(RULES, packed)


@pytest.mark.parametrize("returned", [["front"], None, {"front": []}])
def test_a_packed_count_returns_a_list_of_bytes(returned: Any) -> None:
    with pytest.raises(TypeError):
        _core.train(RULES, players=2, deals=5, iterations=1, tolerance=0, seed=5, count=lambda *a: returned,
                    packed=True)
