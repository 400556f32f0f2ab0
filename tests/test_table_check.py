"""`thirteen train --check FILE` (``make tables-check``): a table file passes only when it holds
exactly what training makes; a changed count, log row, setting or byte fails, naming the file."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path
from typing import Any

import pytest

import thirteen
from thirteen import RuleSet, TableSet
from thirteen import table_store as store
from thirteen.cli import main
from thirteen.table_check import check_sizes

#: Tiny training, so that each check retrains in well under a second.
TINY = ["--deals", "20", "--iterations", "2", "--quiet"]
ROOT = Path(__file__).resolve().parents[1]


def train(tmp_path: Path, rules: str, *extra: str) -> Path:
    out = tmp_path / f"{rules}.json.gz"
    assert main(["train", "--rules", rules, *TINY, "--out", str(out), *extra]) == 0
    return out


def check(path: Path, rules: str, *extra: str) -> int:
    return main(["train", "--rules", rules, *TINY, "--check", str(path), *extra])


def tampered(path: Path, players: int, change: Any) -> Path:
    """A copy of the table file at ``path`` whose table for ``players`` went through ``change``."""
    ts = TableSet.load(path)
    sizes = tuple(change(s) if players in s.players else s for s in ts.sizes)
    out = path.with_name("tampered-" + path.name)
    TableSet(key=ts.key, sizes=sizes, settings=ts.settings, name=ts.name).save(out)
    return out


def one_more(s: store.SizeTables, lane: str = "front") -> store.SizeTables:
    """``s`` with one more hand counted at the first value of ``lane``."""
    pairs = list(s.counts[lane])
    pairs[0] = (pairs[0][0], pairs[0][1] + 1)
    return store.SizeTables(players=s.players, counts={**s.counts, lane: pairs}, log=s.log)


def test_the_file_training_wrote_passes(tmp_path: Path, capsys: Any) -> None:
    out = train(tmp_path, "western-2-4")
    capsys.readouterr()
    assert check(out, "western-2-4") == 0
    assert capsys.readouterr().out.startswith(f"{out}: the tables training makes (western-2-4, players 2,3,4)")


@pytest.mark.parametrize(
    "change, message",
    [
        (one_more, "at 2,3,4 players, the front counts differ: pair 0 is"),
        (lambda s: one_more(s, "back"), "at 2,3,4 players, the back counts differ"),
        (lambda s: store.SizeTables(players=s.players, counts=s.counts, log=s.log[:-1]),
         "training ran 2 iterations, the file records 1"),
        (lambda s: store.SizeTables(players=s.players, counts=s.counts,
                                    log=s.log[:-1] + ((s.log[-1][0], s.log[-1][1], s.log[-1][2] + 1e-12, s.log[-1][3]),)),
         "log row"),
    ],
)
def test_a_tampered_table_fails_naming_the_file(tmp_path: Path, capsys: Any, change: Any, message: str) -> None:
    bad = tampered(train(tmp_path, "western-2-4"), 2, change)
    capsys.readouterr()
    assert check(bad, "western-2-4") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"thirteen: {bad} is not what training makes: ") and message in err
    assert "make tables" in err


def test_other_settings_other_classes_and_other_bytes_fail(tmp_path: Path, capsys: Any) -> None:
    out = train(tmp_path, "western-2-4")
    classes = tampered(out, 3, lambda s: store.SizeTables(
        players=s.players, counts={lane: s.counts[lane] for lane in store.LANES}, log=s.log))
    assert check(classes, "western-2-4") == 1
    assert "0 classes where training counts 16" in capsys.readouterr().err
    # The same tables gzipped otherwise: equal once decoded, but not the bytes make tables writes.
    recompressed = tmp_path / "recompressed.json.gz"
    recompressed.write_bytes(gzip.compress(gzip.decompress(out.read_bytes()), compresslevel=1, mtime=0))
    assert TableSet.load(recompressed) == TableSet.load(out)
    assert check(recompressed, "western-2-4") == 1
    assert "the same tables, in other bytes" in capsys.readouterr().err


def test_the_settings_are_compared(tmp_path: Path, capsys: Any) -> None:
    out = train(tmp_path, "western-2-4")
    capsys.readouterr()
    assert check(out, "western-2-4", "--seed", "2") == 1
    err = capsys.readouterr().err
    assert "its settings {'deals': 20, 'iterations': 2, 'seed': 1, 'tolerance': 0.0002} are not training's" in err
    assert "'seed': 2}" in err


def test_players_checks_one_table_trained_with_the_sizes_that_share_it(tmp_path: Path, capsys: Any) -> None:
    # kaixin's home run needs 3 players: 2, 3 and 4 players have a table each (RULES.md 6).
    out = train(tmp_path, "kaixin", "--players", "2,3")
    bad = tampered(out, 3, one_more)
    capsys.readouterr()
    assert check(bad, "kaixin", "--players", "2") == 0
    assert "players 2)" in capsys.readouterr().out
    assert check(bad, "kaixin", "--players", "3") == 1
    assert "at 3 players, the front counts differ" in capsys.readouterr().err
    assert check(out, "kaixin", "--players", "4") == 1
    assert "it holds no table for 4 players (it holds 2, 3)" in capsys.readouterr().err
    # western-2-4 has no home run: one table for 2, 3 and 4, trained at 4 players; checking
    # size 3 trains that whole table, which the file holds.
    western = train(tmp_path, "western-2-4")
    capsys.readouterr()
    assert check(western, "western-2-4", "--players", "3") == 0


def test_check_sizes_widens_to_the_shared_table() -> None:
    assert check_sizes(RuleSet.preset("western-2-4"), [3]) == [2, 3, 4]
    assert check_sizes(RuleSet.preset("shisanzhang"), [2]) == [2, 3]
    assert check_sizes(RuleSet.preset("shisanzhang"), [4]) == [4]
    assert check_sizes(RuleSet.preset("kaixin"), [3]) == [3]
    assert check_sizes(RuleSet.preset("kaixin")) == [2, 3, 4]
    with pytest.raises(thirteen.PlayerCountError):
        check_sizes(RuleSet.preset("kaixin"), [5])


def test_a_file_that_is_not_tables_is_refused_before_training(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    import thirteen.commands.train as command

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("trained before reading the file to check")

    monkeypatch.setattr(command, "train", never)
    junk = tmp_path / "junk.json.gz"
    junk.write_bytes(b"not gzip")
    assert main(["train", "--rules", "western-2-4", *TINY, "--check", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"thirteen: error: --check: {junk}: not a thirteen lane-table file")
    assert main(["train", "--rules", "western-2-4", *TINY, "--check", str(tmp_path / "missing.json.gz")]) == 2
    assert "missing.json.gz" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "--rules", "western-2-4", "--check", str(junk), "--out", str(junk)])


def test_make_tables_check_runs_the_check_on_the_shipped_files() -> None:
    plan = subprocess.run(["make", "-n", "tables-check", "TABLE_PRESETS=luosong", "TABLE_PLAYERS=2"],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "for p in luosong; do" in plan
    assert "thirteen train --rules $p --check python/thirteen/tables/$p.json.gz" in plan
    assert "--players 2 --quiet || exit 1" in plan
    everything = subprocess.run(["make", "-n", "tables-check"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout
    assert "--players" not in everything
    for name in store.shipped():
        assert f" {name} " in everything.split(";")[0] + " "
