"""``thirteen simulate``'s summary: the same for any number of workers, and its 95% intervals
recomputed from the rounds themselves."""

from __future__ import annotations

import math
from pathlib import Path
import statistics

import thirteen
from thirteen import RuleSet
from thirteen.commands.simulate import simulate


def test_the_summary_does_not_depend_on_the_workers() -> None:
    rules = RuleSet.preset("kaixin")
    one = simulate(rules, 4, ["ev", "greedy", "ev", "greedy"], 24, seed=5, workers=1)
    two = simulate(rules, 4, ["ev", "greedy", "ev", "greedy"], 24, seed=5, workers=2)
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_means_and_intervals_match_the_rounds() -> None:
    rules = RuleSet.preset("western-2-4")
    rounds, seed = 30, 11
    s = simulate(rules, 2, ["ev", "greedy"], rounds, seed=seed)
    per_seat = [[], []]
    for r in range(rounds):
        d = thirteen.deal(rules, 2, seed + r)
        subs = [
            thirteen.solve(list(d.hands[0]), rules, players=2, seed=r).submission(),
            thirteen.solve(list(d.hands[1]), rules, players=2, strategy="greedy", seed=r).submission(),
        ]
        for seat, t in enumerate(thirteen.settle(subs, rules).totals):
            per_seat[seat].append(t)
    for seat in range(2):
        xs = per_seat[seat]
        assert math.isclose(s["mean_units_per_round"][seat], statistics.mean(xs))
        half = 1.96 * statistics.stdev(xs) / math.sqrt(rounds)
        assert math.isclose(s["ci95_units_per_round"][seat], half, rel_tol=1e-9)


# --- shards, the spread of a seat's result, the rake (RULES.md 5 "Money") ---------------

import pytest

from thirteen.simulation import ShardCounts, quantile, shards


def test_quantiles_by_hand() -> None:
    # Four rounds: -3 once, 0 twice, +5 once. Cumulative counts 1, 3, 4 (of 4). The q
    # quantile is the smallest result whose cumulative count reaches 4q: 0.2 -> -3,
    # 1 -> -3, 2 -> 0, 3 -> 0, 3.8 -> +5.
    h = {0: 2, 5: 1, -3: 1}
    assert [quantile(h, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95)] == [-3, -3, 0, 0, 5]
    assert quantile({7: 1}, 0.5) == 7
    with pytest.raises(ValueError):
        quantile({}, 0.5)


def test_shards_have_a_fixed_size() -> None:
    assert list(shards(10, 4)) == [(0, 4), (4, 8), (8, 10)]
    assert list(shards(8, 4)) == [(0, 4), (4, 8)]
    assert list(shards(3, 1000)) == [(0, 3)]
    assert list(shards(10, 4, start=3)) == [(3, 7), (7, 10)]


def test_shard_counts_add_by_hand() -> None:
    from types import SimpleNamespace as Settled

    dragon = Settled(key="dragon")
    a = ShardCounts.empty(2)
    a.count_round(Settled(totals=[3, -3], fouled=[], scoops=[(0, 1)], home_runs=[], specials=[None, None]), rake=1)
    b = ShardCounts.empty(2)
    b.count_round(Settled(totals=[-2, 2], fouled=[1], scoops=[], home_runs=[], specials=[dragon, None]), rake=0)
    b.count_round(Settled(totals=[3, -3], fouled=[], scoops=[], home_runs=[], specials=[None, None]), rake=1)
    total = ShardCounts.empty(2)
    for part in (a, b):
        total.add(part)
    assert total.rounds == 3
    assert total.totals == [4, -4]
    assert total.squares == [9 + 4 + 9, 9 + 4 + 9]
    assert total.histogram == [{3: 2, -2: 1}, {-3: 2, 2: 1}]
    assert total.events == {"fouls": 1, "scoops": 1, "home_runs": 0}
    assert total.specials == {"dragon": 1}
    assert (total.rake, total.rake_squares) == (2, 2)
    # The parts are not changed.
    assert a.rounds == 1 and b.rounds == 2


def _rounds(rules: RuleSet, players: int, strategies: list, rounds: int, seed: int) -> list:
    """Every round's totals, played as a server would, one by one."""
    out = []
    for r in range(rounds):
        d = thirteen.deal(rules, players, seed + r)
        subs = [thirteen.solve(list(h), rules, players=players, strategy=strategies[i], seed=r).submission()
                for i, h in enumerate(d.hands)]
        out.append(thirteen.settle(subs, rules).totals)
    return out


def test_distribution_and_rake_match_the_rounds() -> None:
    rules = RuleSet.preset("kaixin")
    strategies = ["ev", "greedy", "greedy"]
    rounds, seed, stake = 40, 3, 10
    s = simulate(rules, 3, strategies, rounds, seed=seed, stake=stake, rake=("5", 4), shard_rounds=9)
    played = _rounds(rules, 3, strategies, rounds, seed)
    for seat in range(3):
        xs = sorted(t[seat] for t in played)
        d = s["distribution"][seat]
        # The q quantile of n sorted results is the ceil(q n)-th smallest.
        for key, q in (("p5", 0.05), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p95", 0.95)):
            assert d[key] == xs[math.ceil(q * rounds) - 1], (seat, key)
        assert d["won"] == sum(x > 0 for x in xs) / rounds
        assert d["drawn"] == sum(x == 0 for x in xs) / rounds
        assert d["lost"] == sum(x < 0 for x in xs) / rounds
        assert sum(n for _, n in d["histogram"]) == rounds
    # The rake: 5% of each winner's money (units x 10), rounded down, at most 4 a player.
    fees = [sum(min(t * stake * 5 // 100, 4) for t in totals if t > 0) for totals in played]
    assert math.isclose(s["rake_per_round"], statistics.mean(fees))
    assert math.isclose(s["ci95_rake_per_round"], 1.96 * statistics.stdev(fees) / math.sqrt(rounds))
    assert s["rake"] == {"percent": "5", "cap": 4} and s["stake"] == 10
    # Without a rake nothing is taken.
    plain = simulate(rules, 3, strategies, 5, seed=seed)
    assert plain["rake_per_round"] == 0 and plain["rake"] is None


def test_the_summary_does_not_depend_on_the_shard_size() -> None:
    rules = RuleSet.preset("western-2-4")
    runs = [simulate(rules, 2, ["ev", "greedy"], 23, seed=8, shard_rounds=n, workers=w)
            for n, w in ((1000, 2), (5, 1), (1, 2))]
    for run in runs:
        run.pop("seconds")
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"rounds": 0}, thirteen.LimitError, "rounds must be at least 1"),
        ({"shard_rounds": 0}, thirteen.LimitError, "shard_rounds must be at least 1"),
        ({"samples": 0}, thirteen.LimitError, "samples must be at least 1"),
        ({"rounds": 2.5}, TypeError, "rounds must be an int"),
        ({"strategies": ["ev"]}, thirteen.ThirteenError, "1 strategies for 2 players"),
        ({"strategies": ["ev", "best"]}, thirteen.ThirteenError, "unknown strategy 'best'"),
        ({"players": 5}, thirteen.PlayerCountError, "5"),
        ({"stake": -1}, thirteen.LimitError, "stake"),
        ({"rake": ("101", None)}, thirteen.LimitError, "rake"),
        ({"backend": "spark"}, thirteen.BackendError, "unknown backend 'spark'"),
        ({"backend": "local", "address": "auto"}, thirteen.BackendError, "is for backend='ray'"),
        ({"rules": "kaixin"}, TypeError, "RuleSet"),
    ],
)
def test_bad_arguments_are_refused_before_any_round(kwargs: dict, error: type, message: str) -> None:
    played = []
    args = {"rules": RuleSet.preset("kaixin"), "players": 2, "strategies": ["ev", "greedy"], "rounds": 3,
            "seed": 1, "advance": lambda: played.append(1)}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        simulate(**args)
    assert played == []


# --- long runs: shards made lazily, a bound on rounds (issue 52, N2) -------------------------


class Stop(Exception):
    """Raised by an ``advance`` to stop a run early."""


@pytest.mark.parametrize("workers", [1, 2])
def test_a_long_run_makes_its_shards_as_it_goes(workers: int) -> None:
    """10**11 rounds start at once (the shards are not all made first: that ran out of
    memory) and stop when ``advance`` raises."""
    seen: list = []

    def advance() -> None:
        seen.append(1)
        if len(seen) == 3:
            raise Stop

    with pytest.raises(Stop):
        simulate(RuleSet.preset("western-2-4"), 2, ["greedy", "greedy"], 10**11, seed=1, workers=workers,
                 advance=advance)
    assert len(seen) == 3


@pytest.mark.parametrize("rounds", [10**12 + 1, 2**64, 10**30])
def test_rounds_past_the_bound_are_refused(rounds: int) -> None:
    from thirteen.simulation import MAX_ROUNDS

    assert MAX_ROUNDS == 10**12
    with pytest.raises(thirteen.LimitError, match=r"rounds must be at most 10\*\*12") as info:
        simulate(RuleSet.preset("kaixin"), 2, ["ev", "ev"], rounds)
    assert (info.value.key, info.value.maximum) == ("rounds", 10**12)


@pytest.mark.parametrize("rounds", [str(10**13), str(2**64)])
def test_the_command_refuses_rounds_past_the_bound(rounds: str) -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "thirteen", "simulate", "-n", rounds, "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"thirteen: error: rounds must be at most 10**12 (MAX_ROUNDS), got {rounds}\n"


# --- worker processes (the local backend) ---------------------------------------------------


def _children_seen(monkeypatch: pytest.MonkeyPatch, workers: int, **kwargs: object) -> tuple:
    """A run's summary (without ``seconds``) and the most worker processes alive when a
    round was counted."""
    import multiprocessing

    from thirteen import simulation

    # Hand the rest to the processes after one probe shard, however short the run.
    monkeypatch.setattr(simulation, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(simulation, "POOL_SECONDS", 0.0)
    most = [0]

    def advance() -> None:
        most[0] = max(most[0], len(multiprocessing.active_children()))

    s = simulate(RuleSet.preset("kaixin"), 4, ["mc", "ev", "greedy", "ev"], 36, seed=4, samples=8,
                 stake=10, rake=("5", None), workers=workers, advance=advance, **kwargs)  # type: ignore[arg-type]
    s.pop("seconds")
    return s, most[0]


def test_worker_processes_give_the_summary_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    one, none = _children_seen(monkeypatch, 1, shard_rounds=4)
    three, seen = _children_seen(monkeypatch, 3, shard_rounds=4)
    assert none == 0 and seen == 2  # this process and two worker processes played shards
    assert one == three and one["rounds"] == 36
    # Sized shards (no shard_rounds), tapered near the end: the same summary again.
    sized, seen = _children_seen(monkeypatch, 2)
    assert sized == one and seen == 1


def test_tapered_shards_shrink_near_the_end() -> None:
    from thirteen.simulation import tapered

    # 100 rounds from 0 in shards of at most 30, for 2 workers: each shard at most a quarter
    # of the rounds left (100 // 4 = 25, then 75 // 4 = 18, ...), at least 1.
    plan = list(tapered(100, 30, 0, 2))
    assert plan[:3] == [(0, 25), (25, 43), (43, 57)]
    assert plan[-1][1] == 100 and all(a < b for a, b in plan)
    assert all(b == c for (_, b), (c, _) in zip(plan, plan[1:]))
    assert list(tapered(10, 1000, 7, 1)) == [(7, 8), (8, 9), (9, 10)]


def test_shards_last_about_the_target() -> None:
    from thirteen.simulation import shard_size

    # 10,000 rounds a second for 0.5 s: 5,000 a shard, when the run is long enough to give
    # each of 2 workers four of them; shorter runs are cut finer, and a shard is never empty.
    assert shard_size(10_000, 10**6, 2, 0.5) == 5_000
    assert shard_size(10_000, 8_000, 2, 0.5) == 1_000
    assert shard_size(0.5, 100, 2, 0.5) == 1
    assert shard_size(10_000, 3, 2, 0.5) == 1


def _children(pid: int, marker: bytes) -> list:
    """The processes whose parent is ``pid`` and whose command line holds ``marker``."""
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if entry.name.isdigit() and int(stat.rpartition(")")[2].split()[1]) == pid and marker in cmdline:
            found.append(int(entry.name))
    return found


def test_a_killed_worker_process_is_a_clear_error() -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "thirteen", "simulate", "-n", "3000", "--seed", "1", "--strategies", "mc",
         "--samples", "40", "--workers", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not _children(proc.pid, b"spawn_main") and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(proc.pid, b"spawn_main")
        assert workers, "no worker process started"
        time.sleep(1.0)
        os.kill(workers[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 2 and out == ""
    assert "thirteen: error: a worker process of this machine died" in err and "Traceback" not in err


def test_a_script_without_a_main_guard_simulates_on_processes(tmp_path: Path) -> None:
    # A user's plain script (no `if __name__ == "__main__":`) calling simulate with worker
    # processes: the workers must not run the script again (each would start processes of
    # its own while it starts: the run hung). The script notes every process that runs it;
    # expected: only itself. (The run is long enough for the workers to start and play.)
    import json
    import subprocess
    import sys

    script = tmp_path / "plain.py"
    script.write_text(
        "import json, os, thirteen\n"
        "with open('ran.txt', 'a') as f: f.write(f'{os.getpid()}\\n')\n"
        "rules = thirteen.RuleSet.preset('kaixin')\n"
        "s = thirteen.simulate(rules, 4, ['ev', 'greedy', 'greedy', 'greedy'], 30000, seed=3,"
        " workers=2, shard_rounds=50)\n"
        "print(json.dumps(s['rounds'] == 30000))\n",
        encoding="utf-8",
    )
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err[-2000:]
    assert json.loads(out.strip().splitlines()[-1]) is True
    assert (tmp_path / "ran.txt").read_text().split() == [str(proc.pid)], err[-2000:]
