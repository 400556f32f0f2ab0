"""Load test of ``thirteen serve``: N bot clients on M tables over real loopback sockets
for a bounded time.

    python benches/load_server.py                       # 400 bots, 100 tables, 60 s
    python benches/load_server.py --bots 16 --tables 4 --seconds 8 --json
    python benches/load_server.py --spectators 200       # a sit watched by 200 spectators
    python benches/load_server.py --bots 1000 --tables 250 --think 4 --pause 2   # people's pace
    python benches/load_server.py --soak                 # 10 minutes, the server's memory over time

The server runs as a subprocess on 127.0.0.1 with a fresh SQLite file (every change
committed) and no AI seats: each table is played by its bots. Each bot joins, sits, and
in every round submits the ``greedy`` arrangement of its hand (cheap, so the bots' own
CPU stays small next to the server's). Reported: rounds settled per second (rounds whose
result arrived inside the measured window, after every bot sat), message latency (from
sending an action to its reply: p50, p99, max, in ms), messages, and errors (error
frames, dropped connections, failed sits: must be 0), and the server process's own CPU time
in the measured window (from ``/proc``), per settled round, and its memory (RSS). The bots
and the server share the machine; the numbers are for this machine and this size.

By default a bot submits as soon as it is dealt and the next round is dealt at once: the
tables play flat out and the machine is saturated (a throughput measure: CPU per round).
``--think S`` makes each bot wait a random 0 to ``S`` seconds before it submits and
``--pause S`` is the server's pause between rounds: tables at people's pace, where the
latency is what a player would see. ``--soak`` runs 10 minutes (``--seconds`` to change it)
and samples the server's RSS every 10 s: it must stay flat.

``--spectators N`` measures instead what N spectators cost a room: N connections join one
room (reported: a join's latency, the first 20 against the last 20, and the server's CPU time
per join), then one player sits and stands 20 times (reported: the sit's latency, median and
max, and the server's CPU time per sit and stand).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Set, Tuple

import thirteen
from thirteen import RuleSet
from thirteen.server.client import TableClient
from thirteen.server.process import ServerProcess

RULES = RuleSet.preset("kaixin")


@dataclass
class Stats:
    latencies: List[float] = field(default_factory=list)
    errors: List[str] = field(default_factory=list)
    rounds: Set[Tuple[str, int]] = field(default_factory=set)
    messages: int = 0


def play(hand: str, players: int) -> dict:
    sol = thirteen.solve(hand, RULES, players=players, strategy="greedy")
    if sol.arrangement is None:
        return {"type": "declare"}
    a = sol.arrangement
    return {
        "type": "submit",
        "front": thirteen.format_cards(list(a.front)),
        "middle": thirteen.format_cards(list(a.middle)),
        "back": thirteen.format_cards(list(a.back)),
    }


async def bot(
    url: str, name: str, room: str, start: asyncio.Event, window: List[float], stats: Stats, think: float
) -> None:
    try:
        c = await TableClient.connect(url, timeout=60, keep_frames=False)
        await c.join(room, name, timeout=60)
        t = time.perf_counter()
        await c.request({"type": "sit"}, timeout=60)
        stats.latencies.append(time.perf_counter() - t)
    except Exception as exc:  # a failed join or sit is an error of the run
        stats.errors.append(f"{name}: {type(exc).__name__}: {exc}")
        return
    await start.wait()
    pending: Dict[int, float] = {}
    played = 0
    try:
        while time.perf_counter() < window[1]:
            try:
                f = await c.recv(timeout=max(0.05, window[1] - time.perf_counter()))
            except asyncio.TimeoutError:
                break
            kind = f["type"]
            if kind == "you":
                r = f["round"]
                if r and r.get("hand") and r["phase"] == "arrange" and not r.get("play") and r["number"] > played:
                    played = r["number"]
                    players = c.state["round"]["players"] if c.state and c.state["round"] else 4
                    if think > 0:
                        await asyncio.sleep(random.uniform(0, think))
                    seq = await c.send(play(r["hand"], players))
                    pending[seq] = time.perf_counter()
                    stats.messages += 1
            elif kind in ("ok", "pong") and f.get("seq") in pending:
                stats.latencies.append(time.perf_counter() - pending.pop(f["seq"]))
            elif kind == "error":
                stats.errors.append(f"{name}: {f['code']}: {f['message']}")
            elif kind == "result":
                if window[0] <= time.perf_counter() <= window[1]:
                    stats.rounds.add((room, f["round"]))
    except Exception as exc:
        stats.errors.append(f"{name}: {type(exc).__name__}: {exc}")
    finally:
        try:
            await c.close()
        except Exception:
            pass


async def sample_memory(pid: int, every: float, samples: List[Tuple[float, float]]) -> None:
    """Appends (seconds since start, RSS in MB) of process ``pid`` every ``every`` seconds."""
    t0 = time.perf_counter()
    while True:
        samples.append((round(time.perf_counter() - t0, 1), rss_mb(pid)))
        await asyncio.sleep(every)


def commits(url: str) -> Dict[str, int]:
    """The server's group-commit counters (``/health``): transactions, and room changes
    written in them."""
    http = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
    with urllib.request.urlopen(f"{http}/health", timeout=10) as r:
        return dict(json.loads(r.read()).get("commits", {"transactions": 0, "rooms": 0}))


async def run(url: str, pid: int, bots: int, tables: int, seconds: float, think: float = 0.0, sample_every: float = 10.0) -> dict:
    stats = Stats()
    start = asyncio.Event()
    window = [0.0, float("inf")]
    tasks = []
    for i in range(bots):
        room = f"load-{i % tables}"
        tasks.append(asyncio.create_task(bot(url, f"bot{i}", room, start, window, stats, think)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)  # stagger the connections a little
    # Every bot has sat (or failed) when its first latency or error is recorded.
    ramp = time.perf_counter()
    while len(stats.latencies) + len(stats.errors) < bots and time.perf_counter() - ramp < 120:
        await asyncio.sleep(0.05)
    ramp = time.perf_counter() - ramp
    sits = len(stats.latencies)
    stats.latencies.clear()
    memory: List[Tuple[float, float]] = []
    sampler = asyncio.create_task(sample_memory(pid, sample_every, memory))
    cpu0 = cpu_seconds(pid)
    commits0 = commits(url)
    window[0] = time.perf_counter()
    window[1] = window[0] + seconds
    start.set()
    while time.perf_counter() < window[1]:
        await asyncio.sleep(min(1.0, max(0.0, window[1] - time.perf_counter())))
    cpu = cpu_seconds(pid) - cpu0
    commits1 = commits(url)
    transactions = commits1["transactions"] - commits0["transactions"]
    memory.append((round(time.perf_counter() - window[0], 1), rss_mb(pid)))
    sampler.cancel()
    await asyncio.gather(*tasks)
    lat = sorted(stats.latencies)
    rounds = len(stats.rounds)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "bots": bots,
        "tables": tables,
        "seconds": seconds,
        "ramp_seconds": round(ramp, 2),
        "seated": sits,
        "think_seconds": think,
        "rounds": rounds,
        "rounds_per_second": round(rounds / seconds, 2),
        "messages": stats.messages,
        "latency_ms": {"p50": pct(0.50), "p99": pct(0.99), "max": pct(1.0)},
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "server_cpu_seconds": round(cpu, 2),
        "server_cpu_ms_per_round": round(1000 * cpu / rounds, 3) if rounds else None,
        "transactions": transactions,
        "room_changes_per_transaction": round((commits1["rooms"] - commits0["rooms"]) / max(1, transactions), 2),
        "server_rss_mb": memory[-1][1],
        "server_rss_mb_over_time": memory,
    }


async def watched_sits(url: str, pid: int, spectators: int, cycles: int = 20) -> dict:
    """One player sits and stands ``cycles`` times in a room with ``spectators`` other
    connections: the sit's latency and the server's CPU time per sit and stand."""
    watchers = []
    joins = []
    c0 = cpu_seconds(pid)
    for i in range(spectators):
        w = await TableClient.connect(url, timeout=60)
        t = time.perf_counter()
        await w.join("watched", f"watcher{i}", timeout=60)
        await w.wait_for(lambda f: f["type"] == "you", 60)
        joins.append(time.perf_counter() - t)
        watchers.append(w)
    join_cpu = cpu_seconds(pid) - c0

    async def drain(w: TableClient) -> None:
        try:
            while True:
                await w.ws.recv()
        except Exception:
            pass

    readers = [asyncio.create_task(drain(w)) for w in watchers]
    p = await TableClient.connect(url, timeout=60)
    await p.join("watched", "player", timeout=60)
    await asyncio.sleep(1.0)
    sits = []
    c0 = cpu_seconds(pid)
    for _ in range(cycles):
        t = time.perf_counter()
        await p.request({"type": "sit"}, timeout=60)
        sits.append(time.perf_counter() - t)
        await p.request({"type": "stand"}, timeout=60)
    cpu = cpu_seconds(pid) - c0
    for r in readers:
        r.cancel()
    for w in watchers + [p]:
        await w.close()
    first, last = joins[:20], joins[-20:]
    return {
        "spectators": spectators,
        "join_ms": {
            "first_20_median": round(1000 * statistics.median(first), 2) if first else None,
            "last_20_median": round(1000 * statistics.median(last), 2) if last else None,
        },
        "server_cpu_ms_per_join": round(1000 * join_cpu / spectators, 2) if spectators else None,
        "sit_ms": {"median": round(1000 * statistics.median(sits), 2), "max": round(1000 * max(sits), 2)},
        "server_cpu_ms_per_sit_and_stand": round(1000 * cpu / cycles, 2),
    }


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux ``/proc``; 0 elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError):
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bots", type=int, default=int(os.environ.get("THIRTEEN_LOAD_BOTS", 400)))
    p.add_argument("--tables", type=int, default=int(os.environ.get("THIRTEEN_LOAD_TABLES", 100)))
    p.add_argument("--seconds", type=float, default=float(os.environ.get("THIRTEEN_LOAD_SECONDS", 60)))
    p.add_argument("--think", type=float, default=0.0, help="a bot waits a random 0 to THINK seconds before it submits")
    p.add_argument("--pause", type=float, default=0.0, help="the server's pause between rounds, seconds")
    p.add_argument("--soak", action="store_true", help="10 minutes (unless --seconds), RSS sampled every 10 s")
    p.add_argument("--server-path", default=None, metavar="DIR",
                   help="run the server from another checkout's python/ directory (PYTHONPATH), for A/B runs")
    p.add_argument("--spectators", type=int, default=None, help="measure a sit watched by this many spectators")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    # A thousand bots hold many objects: the bots' process collects garbage rarely, else
    # its pauses (hundreds of ms) would be counted as the server's latency.
    gc.set_threshold(200_000, 50, 1000)
    if args.soak and "--seconds" not in (argv if argv is not None else sys.argv[1:]):
        args.seconds = 600.0
    if args.spectators is None and (args.bots < 2 * args.tables or args.bots > 4 * args.tables):
        p.error("each table needs 2 to 4 bots")
    clients = max(args.bots, args.spectators or 0) + 16
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "load.db",
            ["--ai", "0", "--seats", "4", "--arrange-seconds", "60", "--pause-seconds", str(args.pause),
             "--rate", "100", "--burst", "200", "--grants-per-address", str(clients),
             "--max-connections-per-address", str(clients), "--max-spectators", str(clients)],
            env={"PYTHONPATH": args.server_path} if args.server_path else None,
        ).start()
        if args.spectators is not None:
            try:
                report = asyncio.run(watched_sits(server.ws, server.proc.pid, args.spectators))
            finally:
                server.stop()
            print(json.dumps(report))
            return 0
        try:
            t0 = time.process_time()
            every = 10.0 if args.soak else max(1.0, args.seconds / 10)
            report = asyncio.run(
                run(server.ws, server.proc.pid, args.bots, args.tables, args.seconds, args.think, every)
            )
            report["bots_cpu_seconds"] = round(time.process_time() - t0, 2)
        finally:
            server.stop()
        crashed = [line for line in server.output if "Traceback" in line or "ERROR" in line]
        report["server_errors"] = len(crashed)
        report["errors"] += len(crashed)
    if args.json:
        print(json.dumps(report))
    else:
        lat = report["latency_ms"]
        print(
            f"{report['bots']} bots on {report['tables']} tables for {report['seconds']} s: "
            f"{report['rounds']} rounds ({report['rounds_per_second']} rounds/s), "
            f"{report['messages']} actions, latency p50 {lat['p50']} ms, p99 {lat['p99']} ms, "
            f"max {lat['max']} ms, errors {report['errors']} (ramp-up {report['ramp_seconds']} s; "
            f"CPU: server {report['server_cpu_seconds']} s = {report['server_cpu_ms_per_round']} ms a round, "
            f"bots {report['bots_cpu_seconds']} s; server RSS {report['server_rss_mb']} MB)"
        )
        if args.soak:
            print("server RSS (s, MB):", " ".join(f"{t:.0f}:{m:.0f}" for t, m in report["server_rss_mb_over_time"]))
        for e in report["error_samples"]:
            print("  ", e)
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
