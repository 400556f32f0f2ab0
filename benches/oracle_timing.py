"""Does a refusal's latency tell who holds a card? The card oracle of issue 52, timed.

A player submits its hand with one card replaced by a card it does not hold, for every such
card, many times in a random order, over a real socket to a ``thirteen serve`` subprocess
on 127.0.0.1 (two seats: the other seat, an AI, holds 13 of the 39 probes and 26 were never
dealt). After the reveal the probes are grouped by holder; reported: each group's latency
(median, 10th and 90th percentile, in microseconds) and the ratio of the medians. The
answers themselves are byte-identical (``tests/test_server_secrecy.py``); this measures the
one channel a test cannot pin: time. Numbers are for this machine, loaded as it is.

    python benches/oracle_timing.py --repeats 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

import thirteen
from thirteen import RuleSet
from thirteen.server.client import TableClient
from thirteen.server.process import ServerProcess

RULES = RuleSet.preset("kaixin")


def split(cards: List[str]) -> dict:
    return {"front": " ".join(cards[:3]), "middle": " ".join(cards[3:8]), "back": " ".join(cards[8:13])}


async def measure(url: str, repeats: int) -> dict:
    c = await TableClient.connect(url)
    await c.join("timing", "tim")
    await c.request({"type": "sit"})
    you = await c.wait_for(lambda f: f["type"] == "you" and (f["round"] or {}).get("hand"), 30)
    hand = you["round"]["hand"].split()
    probes = [str(card) for card in thirteen.deck() if str(card) not in hand]
    times: Dict[str, List[float]] = {p: [] for p in probes}
    order = probes * repeats
    random.Random(52).shuffle(order)
    for probe in order:
        seq = await c.send({"type": "submit", **split([probe] + hand[1:])})
        start = time.perf_counter()
        while True:
            frame = json.loads(await c.ws.recv())
            if frame.get("seq") == seq and frame["type"] == "error":
                break
        times[probe].append(time.perf_counter() - start)
    sol = thirteen.solve(" ".join(hand), RULES, players=2)
    play = {"type": "declare"} if sol.arrangement is None else {
        "type": "submit", **split([str(x) for x in (*sol.arrangement.front, *sol.arrangement.middle, *sol.arrangement.back)])}
    await c.request(play)
    result = await c.wait_for(lambda f: f["type"] == "result", 60)
    await c.close()
    other = result["seats"][1]["play"]
    held = set(" ".join(v for k, v in other.items() if k in ("front", "middle", "back", "cards") and isinstance(v, str)).split())
    groups = {"held by the other seat": [], "never dealt": []}
    for probe, ts in times.items():
        groups["held by the other seat" if probe in held else "never dealt"].extend(ts)
    report = {}
    for name, ts in groups.items():
        ts.sort()
        report[name] = {
            "n": len(ts),
            "median_us": round(1e6 * statistics.median(ts), 1),
            "p10_us": round(1e6 * ts[len(ts) // 10], 1),
            "p90_us": round(1e6 * ts[9 * len(ts) // 10], 1),
        }
    medians = [g["median_us"] for g in report.values()]
    report["median_ratio"] = round(max(medians) / min(medians), 3)
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=20, help="times each probe is sent (default 20)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "timing.db",
            ["--seats", "2", "--ai", "1", "--seed", "52", "--arrange-seconds", "600", "--rate", "100000", "--burst", "100000"],
        ).start()
        try:
            report = asyncio.run(measure(server.ws, args.repeats))
        finally:
            server.stop()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
