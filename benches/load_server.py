"""Load test of ``thirteen serve``: N bot clients on M tables over real loopback sockets
for a bounded time.

    python benches/load_server.py                       # 400 bots, 100 tables, 60 s
    python benches/load_server.py --bots 16 --tables 4 --seconds 8 --json
    python benches/load_server.py --spectators 200       # a sit watched by 200 spectators

The server runs as a subprocess on 127.0.0.1 with a fresh SQLite file (every change
committed) and no AI seats: each table is played by its bots. Each bot joins, sits, and
in every round submits the ``greedy`` arrangement of its hand (cheap, so the bots' own
CPU stays small next to the server's). Reported: rounds settled per second (rounds whose
result arrived inside the measured window, after every bot sat), message latency (from
sending an action to its reply: p50, p99, max, in ms), messages, and errors (error
frames, dropped connections, failed sits: must be 0). The bots and the server share the
machine; the numbers are for this machine and this size.

``--spectators N`` measures instead what N spectators cost a room: N connections join one
room (reported: a join's latency, the first 20 against the last 20, and the server's CPU time
per join), then one player sits and stands 20 times (reported: the sit's latency, median and
max, and the server's CPU time per sit and stand).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
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


async def bot(url: str, name: str, room: str, start: asyncio.Event, window: List[float], stats: Stats) -> None:
    try:
        c = await TableClient.connect(url, timeout=60)
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


async def run(url: str, bots: int, tables: int, seconds: float) -> dict:
    stats = Stats()
    start = asyncio.Event()
    window = [0.0, float("inf")]
    tasks = []
    for i in range(bots):
        room = f"load-{i % tables}"
        tasks.append(asyncio.create_task(bot(url, f"bot{i}", room, start, window, stats)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)  # stagger the connections a little
    # Every bot has sat (or failed) when its first latency or error is recorded.
    ramp = time.perf_counter()
    while len(stats.latencies) + len(stats.errors) < bots and time.perf_counter() - ramp < 120:
        await asyncio.sleep(0.05)
    ramp = time.perf_counter() - ramp
    sits = len(stats.latencies)
    stats.latencies.clear()
    window[0] = time.perf_counter()
    window[1] = window[0] + seconds
    start.set()
    await asyncio.gather(*tasks)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "bots": bots,
        "tables": tables,
        "seconds": seconds,
        "ramp_seconds": round(ramp, 2),
        "seated": sits,
        "rounds": len(stats.rounds),
        "rounds_per_second": round(len(stats.rounds) / seconds, 2),
        "messages": stats.messages,
        "latency_ms": {"p50": pct(0.50), "p99": pct(0.99), "max": pct(1.0)},
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
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
    p.add_argument("--spectators", type=int, default=None, help="measure a sit watched by this many spectators")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if args.spectators is None and (args.bots < 2 * args.tables or args.bots > 4 * args.tables):
        p.error("each table needs 2 to 4 bots")
    clients = max(args.bots, args.spectators or 0) + 16
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "load.db",
            ["--ai", "0", "--seats", "4", "--arrange-seconds", "60", "--pause-seconds", "0",
             "--rate", "100", "--burst", "200", "--grants-per-address", str(clients),
             "--max-connections-per-address", str(clients), "--max-spectators", str(clients)],
        ).start()
        if args.spectators is not None:
            try:
                report = asyncio.run(watched_sits(server.ws, server.proc.pid, args.spectators))
            finally:
                server.stop()
            print(json.dumps(report))
            return 0
        try:
            t0, s0 = time.process_time(), cpu_seconds(server.proc.pid)
            report = asyncio.run(run(server.ws, args.bots, args.tables, args.seconds))
            report["bots_cpu_seconds"] = round(time.process_time() - t0, 2)
            report["server_cpu_seconds"] = round(cpu_seconds(server.proc.pid) - s0, 2)
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
            f"CPU: server {report['server_cpu_seconds']} s, bots {report['bots_cpu_seconds']} s)"
        )
        for e in report["error_samples"]:
            print("  ", e)
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
