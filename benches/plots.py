"""The plots of ``docs/benchmarks.md``, from this script's own measurements.

``--measure`` runs the benchmarks below, each in a subprocess with its ``--json`` output, and
saves what they found in ``benches/results/NAME.json`` with the machine, the date, the
commit, each command, its output and the CPU time it took (its processes and their
children). ``--draw`` draws ``docs/img/NAME.svg`` from the saved files (matplotlib, the
``bench`` extra), byte for byte the same on every run of the same matplotlib.

- ``speed``: ``ev``'s CPU time over the evaluation of the hand's 1,573 subsets, hand by hand,
  per preset (``speed.py``: the least of 9 calls of each).
- ``cpoker``: heads-up against cpoker's trained player, 10,000 deals in duplicate
  (``cpoker.py``; ``mc`` on fewer deals).
- ``exploit``: the full best response's gain against ``ev`` per preset and table size
  (``exploit.py`` on fewer hands than its default).
- ``quality``: ``ev`` against ``greedy`` and ``mc`` against ``ev``, 4 players, duplicate
  (``quality.py``).
- ``convergence``: the shipped lane tables' training logs (``convergence.py``).

Usage::

    nice -n 10 python benches/plots.py --measure [speed cpoker exploit quality convergence]
    python benches/plots.py --draw [NAME ...]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

BENCHES = Path(__file__).resolve().parent
ROOT = BENCHES.parent
RESULTS = BENCHES / "results"
IMAGES = ROOT / "docs" / "img"

#: The 13-card presets, in speed.py's order; kaixin-extra deals 16 (no subsets' ratio,
#: and the best response's 560 ways to keep 13 are too slow for a plot).
THIRTEEN = ["shisanzhang", "bianfeng", "luosong", "kaixin", "kaixin-swap", "western-2-4", "western-1-6"]
#: kaixin-swap scores and plays as kaixin (its swap comes before the deal is arranged), so
#: the strength plots leave it out.
STRENGTH = [p for p in THIRTEEN if p != "kaixin-swap"]
EXPLOIT_HANDS = 200

#: Each measurement: the benchmark commands it runs (the script in benches/, its arguments).
MEASUREMENTS: Dict[str, List[List[str]]] = {
    "speed": [["speed.py", "--hands", "2000", "--repeat", "9", "--mc-hands", "0", "--batch", "0",
               "--sixteen", "0", "--complete", "0", "--presets", *THIRTEEN, "kaixin-extra"]],
    "cpoker": [["cpoker.py", "--strategy", "ev", "--deals", "10000"],
               ["cpoker.py", "--strategy", "greedy", "--deals", "10000"],
               ["cpoker.py", "--strategy", "mc", "--samples", "100", "--deals", "2000"]],
    # One worker: exploit.py's process pool forks, and a forked child of a process that has
    # imported thirteen hangs in solve_batch (the core's thread pool is not in the child).
    "exploit": [["exploit.py", "--rules", p, "--players", str(n), "--hands", str(EXPLOIT_HANDS), "--workers", "1"]
                for p in STRENGTH for n in (2, 3, 4)],
    "quality": [["quality.py", "--rules", *STRENGTH, "--deals", "20000", "--mc-deals", "2000",
                 "--mc-samples", "100", "--agree-hands", "0"]],
    "convergence": [["convergence.py"]],
}


# ------------------------------------------------------------------------------ measuring


def machine() -> Dict[str, Any]:
    """The host: CPU model (family and model from /proc/cpuinfo), L2 a core, cores, system,
    Python and thirteen versions."""
    info: Dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    try:
        l2 = Path("/sys/devices/system/cpu/cpu0/cache/index2/size").read_text().strip()
    except OSError:
        l2 = None
    import thirteen

    return {"cpu": info.get("model name", platform.processor() or platform.machine()),
            "family": info.get("cpu family"), "model": info.get("model"), "l2_per_core": l2,
            "cores": os.cpu_count(), "system": f"{platform.system()} {platform.machine()}",
            "python": platform.python_version(), "thirteen": thirteen.__version__}


def commit() -> str:
    """The checkout's commit, ``+`` when it has uncommitted changes."""
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True)
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(command: List[str]) -> Dict[str, Any]:
    """Runs one benchmark with ``--json``: its command line, load average before, CPU and
    wall seconds, what it printed and the results it wrote."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        argv = [sys.executable, str(BENCHES / command[0]), *command[1:], "--json", str(out)]
        load = os.getloadavg()[0]
        cpu, wall = children_cpu(), time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True)
        cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        return {"command": "python benches/" + " ".join(command), "load_before": round(load, 2),
                "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
                "printed": done.stdout.splitlines(), "results": json.loads(out.read_text())}


def dumps(data: Any) -> str:
    """JSON with one level of indent a nesting, and lists of plain values on one line."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    flat = re.compile(r"\[\n\s*([^\[\]{}]*?)\n\s*\]")
    return flat.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",\n")) + "]", text) + "\n"


def measure(names: Sequence[str]) -> float:
    """Runs each measurement of ``names`` and saves it; the CPU seconds they took in all."""
    RESULTS.mkdir(exist_ok=True)
    total = 0.0
    for name in names:
        runs = []
        for command in MEASUREMENTS[name]:
            print(f"{name}: {' '.join(command)}", file=sys.stderr, flush=True)
            runs.append(run(command))
            print(f"  {runs[-1]['cpu_seconds']} s CPU, {runs[-1]['wall_seconds']} s wall", file=sys.stderr, flush=True)
        cpu = round(sum(r["cpu_seconds"] for r in runs), 1)
        total += cpu
        saved = {"measurement": name, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 "machine": machine(), "commit": commit(), "cpu_seconds": cpu,
                 "made_by": f"python benches/plots.py --measure {name}", "runs": runs}
        (RESULTS / f"{name}.json").write_text(dumps(saved), encoding="utf-8")
    return total


# -------------------------------------------------------------------------------- drawing


def load(name: str) -> Dict[str, Any]:
    data: Dict[str, Any] = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def host(data: Dict[str, Any]) -> str:
    """One line for a figure's foot: the machine, the date and the results file (for the
    training logs, which do not name the machine that trained the tables: the commit)."""
    if data["measurement"] == "convergence":
        return (f"The training logs carried by the lane tables shipped at commit {data['commit']}, read {data['date']}; "
                f"data: benches/results/convergence.json")
    m = data["machine"]
    cpu = m["cpu"] + (f" (family {m['family']}, model {m['model']}" + (f", {m['l2_per_core']} L2 a core" if m["l2_per_core"] else "") + ")"
                      if m["family"] else "")
    return (f"{cpu}, {m['cores']} cores, {m['system']}, CPython {m['python']}; measured {data['date']} "
            f"at {data['commit']}; data: benches/results/{data['measurement']}.json")


def setup() -> Any:
    """matplotlib with the svg backend and stable output (fixed ids, no date)."""
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "thirteen", "svg.fonttype": "none", "font.size": 9,
                         "font.family": "DejaVu Sans", "axes.grid": True, "grid.alpha": 0.3,
                         "figure.facecolor": "white", "savefig.facecolor": "white"})
    return plt


def save(plt: Any, fig: Any, name: str, data: Dict[str, Any]) -> Path:
    fig.text(0.01, 0.005, host(data), fontsize=6.5, color="0.35", ha="left", va="bottom")
    IMAGES.mkdir(parents=True, exist_ok=True)
    path = IMAGES / f"{name}.svg"
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return path


def percentile_bars(ax: Any, names: Sequence[str], dists: Sequence[Dict[str, float]], unit: str, digits: int) -> None:
    """Per name: p1–p99 as a line, p25–p75 as a box, p50 as a bar, p90 and p99 as marks,
    p50 and p99 written beside them."""
    from matplotlib.patches import Rectangle

    for i, d in enumerate(dists):
        ax.plot([i, i], [d["p1"], d["p99"]], color="0.45", lw=1, zorder=1)
        ax.add_patch(Rectangle((i - 0.22, d["p25"]), 0.44, d["p75"] - d["p25"], facecolor="#f4c7a1",
                               edgecolor="#b5541c", zorder=2))
        ax.plot([i - 0.22, i + 0.22], [d["p50"], d["p50"]], color="#b5541c", lw=2.2, zorder=3)
        ax.plot(i, d["p90"], marker="^", color="#1f5fa8", ms=5, zorder=4, ls="none")
        ax.plot(i, d["p99"], marker="D", color="#7a1fa8", ms=4.5, zorder=4, ls="none")
        ax.annotate(f"{d['p50']:.{digits}f}{unit}", (i + 0.24, d["p50"]), fontsize=6.5, va="center")
        ax.annotate(f"{d['p99']:.{digits}f}{unit}", (i + 0.1, d["p99"]), fontsize=6.5, va="bottom", color="#7a1fa8")
    ax.set_xticks(range(len(names)), names, rotation=25, ha="right")
    ax.set_xlim(-0.6, len(names) - 0.3)


def draw_speed(plt: Any) -> Path:
    data = load("speed")
    run, = data["runs"]
    found = run["results"]
    presets = [p for p, v in found["presets"].items() if v["ratio"]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [7, 8]})
    percentile_bars(left, presets, [found["presets"][p]["ratio"] for p in presets], "×", 2)
    for y, what in ((2, "target p50 ≤ 2×"), (3, "target p99 ≤ 3×")):
        left.axhline(y, color="0.3", ls="--", lw=0.8)
        left.annotate(what, (len(presets) - 0.35, y), fontsize=7, ha="right", va="bottom", color="0.3")
    left.set_ylabel("ev's CPU time / the evaluation's (ratio per hand)")
    left.set_title("ev over evaluating the hand's 1,573 subsets")
    left.set_ylim(bottom=1)
    every = list(found["presets"])
    percentile_bars(right, every, [found["presets"][p]["ev_us"] for p in every], "", 1)
    right.set_yscale("log")
    right.set_ylabel("ev's CPU time per hand (µs, log scale)")
    right.set_title("ev's own time (16 dealt: kaixin-extra)")
    from matplotlib.lines import Line2D

    keys = [Line2D([], [], color="#b5541c", lw=2.2, label="p50"),
            Line2D([], [], marker="s", color="#f4c7a1", markeredgecolor="#b5541c", ls="none", ms=8, label="p25–p75"),
            Line2D([], [], marker="^", color="#1f5fa8", ls="none", label="p90"),
            Line2D([], [], marker="D", color="#7a1fa8", ls="none", ms=4.5, label="p99"),
            Line2D([], [], color="0.45", lw=1, label="p1–p99")]
    right.legend(handles=keys, fontsize=7, loc="upper left")
    fig.suptitle(f"solve(strategy=\"ev\"), most players of each preset: {found['hands']:,} random hands a preset, "
                 f"each the least of {found['repeat']} calls (CPU time)", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return save(plt, fig, "speed", data)


def interval_rows(ax: Any, labels: Sequence[str], rows: Sequence[Tuple[float, float]], digits: int,
                  color: str = "#b5541c") -> None:
    """Horizontal: each row's mean with its 95% interval, the value written beside it."""
    for i, (mean, half) in enumerate(rows):
        ax.errorbar(mean, i, xerr=half, fmt="o", color=color, capsize=4, ms=5)
        ax.annotate(f"{mean:+.{digits}f} ± {half:.{digits}f}", (mean, i), xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=7.5)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.invert_yaxis()
    ax.axvline(0, color="0.3", lw=0.8)


def draw_cpoker(plt: Any) -> Path:
    data = load("cpoker")
    rows = [r["results"] for r in data["runs"]]
    labels = [f"{r['strategy']}" + (f" ({r['samples']} samples)" if r["samples"] else "") + f"\n{r['deals']:,} deals"
              for r in rows]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.75 * len(rows)))
    interval_rows(ax, labels, [(r["mean"], r["half"]) for r in rows], 4)
    ax.set_xlabel("edge over cpoker (points per hand, mean with 95% interval; 0 = as strong)")
    ax.set_title("Heads-up against cpoker's trained player, western-2-4, duplicate (../shared/bench)")
    lo = min(r["mean"] - r["half"] for r in rows)
    ax.set_xlim(min(lo * 1.15, -0.05), max(0.05, -lo * 0.15))
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return save(plt, fig, "cpoker", data)


def draw_exploit(plt: Any) -> Path:
    data = load("exploit")
    rows = [r["results"] for r in data["runs"]]
    presets = list(dict.fromkeys(r["rules"] for r in rows))
    sizes = sorted({r["players"] for r in rows})
    colors = {2: "#1f5fa8", 3: "#b5541c", 4: "#2e8b57"}
    fig, ax = plt.subplots(figsize=(9, 4))
    for k, n in enumerate(sizes):
        at = [(presets.index(r["rules"]) + (k - (len(sizes) - 1) / 2) * 0.22, r) for r in rows if r["players"] == n]
        ax.errorbar([x for x, _ in at], [r["mean"] for _, r in at], yerr=[r["half"] for _, r in at],
                    fmt="o", color=colors.get(n, "0.3"), capsize=3, ms=4.5, label=f"{n} players")
    ax.axhline(0, color="0.3", lw=0.8)
    names = [p + (" (seat 0 the banker)" if any(r["rules"] == p and r["role"] == "banker" for r in rows) else "")
             for p in presets]
    ax.set_xticks(range(len(presets)), names, rotation=15, ha="right")
    ax.set_ylabel("best response's gain over ev (units per hand)")
    hands = sorted({r["hands"] for r in rows})
    deals = rows[0]["deals"], rows[0]["verdict"]
    ax.set_title(f"Full best response to ev (benches/exploit.py), 95% intervals\n"
                 f"seat 0's best play on {deals[0]:,} deals, judged on {deals[1]:,} fresh deals; "
                 f"{', '.join(map(str, hands))} random hands a point", fontsize=9.5)
    ax.legend(fontsize=8)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return save(plt, fig, "exploit", data)


def draw_quality(plt: Any) -> Path:
    data = load("quality")
    rows = data["runs"][0]["results"]["duplicate"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, a, color in zip(axes, ("ev", "mc"), ("#b5541c", "#1f5fa8")):
        mine = [r for r in rows if r["a"].startswith(a)]
        interval_rows(ax, [f"{r['rules']}\n{r['deals']:,} deals" for r in mine],
                      [(r["mean"], r["half"]) for r in mine], 3, color)
        ax.set_title(f"{mine[0]['a']} against {mine[0]['b']}")
        ax.set_xlabel("units per hand (A − B, mean with 95% interval)")
    lo, hi = axes[1].get_xlim()
    axes[1].set_xlim(min(lo, -0.1), max(hi, 0.1))
    axes[0].set_xlim(0, axes[0].get_xlim()[1] * 1.08)
    fig.suptitle("Duplicate format, 4 players: each seat in turn played by A, the others by B "
                 "(benches/quality.py)", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return save(plt, fig, "quality", data)


def draw_convergence(plt: Any) -> Path:
    data = load("convergence")
    groups = data["runs"][0]["results"]["groups"]
    names = list(dict.fromkeys(g["tables"] for g in groups))
    cmap = plt.get_cmap("tab10")
    styles = ["-", "--", ":"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.4), sharex=True)
    for g in groups:
        log = [row for row in g["log"] if row[0] > 0]  # iteration 0 is the start (1.0, 1.0)
        same = [h for h in groups if h["tables"] == g["tables"]]
        style = styles[same.index(g) % len(styles)]
        label = g["tables"] + ("" if len(same) == 1 else f", {', '.join(map(str, g['players']))} players")
        color = cmap(names.index(g["tables"]) % 10)
        for ax, column in ((left, 2), (right, 3)):
            ax.plot([r[0] for r in log], [r[column] for r in log], style, color=color, lw=1.1, label=label)
    tolerance = groups[0]["settings"].get("tolerance")
    if tolerance:
        left.axhline(tolerance, color="0.2", ls="--", lw=0.8)
        left.annotate(f"tolerance {tolerance}: training stops", (1, tolerance), fontsize=7, va="bottom")
    for ax, what in ((left, "change: how far the iteration moved the averaged tables"),
                     (right, "gap: its best response against the tables it answered")):
        ax.set_yscale("log")
        ax.set_xlabel("iteration (fictitious play, 32,000 deals each)")
        ax.set_ylabel("Kolmogorov–Smirnov distance (log scale)")
        ax.set_title(what, fontsize=9)
    right.legend(fontsize=6.5, ncol=2, loc="upper right")
    fig.suptitle("Training of the shipped lane tables, from the logs they carry (thirteen train)", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return save(plt, fig, "convergence", data)


DRAW: Dict[str, Callable[[Any], Path]] = {"speed": draw_speed, "cpoker": draw_cpoker, "exploit": draw_exploit,
                                          "quality": draw_quality, "convergence": draw_convergence}


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--measure", action="store_true", help="run the benchmarks, save benches/results/NAME.json")
    what.add_argument("--draw", action="store_true", help="draw docs/img/NAME.svg from the saved results")
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"which ({', '.join(MEASUREMENTS)}); all by default")
    args = parser.parse_args(list(argv) or None)
    unknown = [n for n in args.names if n not in MEASUREMENTS]
    if unknown:
        parser.error(f"no measurement {', '.join(unknown)} (there are {', '.join(MEASUREMENTS)})")
    names = args.names or list(MEASUREMENTS)
    if args.measure:
        cpu = measure(names)
        print(f"measured {', '.join(names)}: {cpu:.0f} s CPU", file=sys.stderr)
    else:
        plt = setup()
        for name in names:
            print(DRAW[name](plt))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
