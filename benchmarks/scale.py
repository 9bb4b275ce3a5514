"""Scale: simulation speed with 1 and 2 local worker processes, and the Ray backend's
overhead against local processes, measured in one run and written to BENCHMARKS.md.

Two workloads go through the simulation runner (``dominari.sim.simulate``) exactly as
``dominari simulate`` runs them: Dominion BMU vs Smithy on the First Game kingdom, and
4-player Dominations between random bots. Each is played in rounds (a different seed per
round) by 1 local worker (this process), 2 local worker processes and, when Ray is
installed, 2 Ray tasks at a time on a local cluster; the three runs of a round are
checked to give identical results. The best round of each is reported (as ``timeit``
does): this shared machine's speed varies by tens of percent from minute to minute. The
time to start the Ray cluster is measured apart; every run includes starting its local
worker processes.

Usage: ``python benchmarks/scale.py [--quick] [--no-write] [--rounds R] [--no-ray]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dominari.sim import simulate
from dominari.sim.pool import init_ray, run_tasks
from dominari.sim.runner import Chunk, game_options, run_chunk, seat_names

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- scale:start -->"
END = "<!-- scale:end -->"
GOAL = 1.8
"""The speed-up from 1 to 2 workers that issue 6 asks for on a 2-core machine."""

WORKLOADS: dict[str, dict[str, Any]] = {
    "dominion": {"title": "Dominion, BMU vs Smithy, First Game", "players": ["bmu", "smithy"],
                 "kw": {"kingdom": "first-game"}, "games": 100_000, "quick": 2_000},
    "dominations": {"title": "Dominations, 4 random bots", "players": ["random"] * 4,
                    "kw": {"game": "dominations"}, "games": 1_200, "quick": 60},
}  # fmt: skip


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def startup(name: str) -> float:
    """Seconds for 2 fresh local worker processes to start and play one game each (the
    fixed cost of a 2-worker run: spawn, imports, bots, game data)."""
    w = WORKLOADS[name]
    specs = tuple(w["players"])
    options = game_options(w["kw"].get("game", "dominion"), kingdom=w["kw"].get("kingdom"))
    names = seat_names(list(specs))
    chunks = [Chunk(specs, names, options, 1, i, i + 1) for i in range(2)]
    seconds, _ = timed(lambda: run_tasks(run_chunk, chunks, workers=2))
    return seconds


def measure_workload(name: str, games: int, rounds: int, ray: bool) -> dict[str, Any]:
    w = WORKLOADS[name]
    runs: dict[str, list[float]] = {"one": [], "two": [], "ray": []}
    for r in range(rounds):
        seed = 1000 + r
        sims = {}
        for key, workers, backend in (("one", 1, "local"), ("two", 2, "local"),
                                      ("ray", 2, "ray")):  # fmt: skip
            if key == "ray" and not ray:
                continue
            seconds, sims[key] = timed(lambda s=seed, n=workers, b=backend: simulate(
                w["players"], games, s, n, backend=b, **w["kw"]))
            runs[key].append(seconds)
            print(f"  {name} round {r + 1}: {key:>3} {games / seconds:8,.0f} games/s "
                  f"({seconds:.1f} s)", flush=True)
        first = sims["one"].to_json()
        assert all(s.to_json() == first for s in sims.values()), "results differ by backend"
    best = {k: min(v) for k, v in runs.items() if v}
    return {"name": name, "title": w["title"], "games": games, "rounds": rounds,
            "best": best, "runs": runs, "startup": startup(name)}  # fmt: skip


def measure(quick: bool, rounds: int, ray: bool) -> dict[str, Any]:
    result: dict[str, Any] = {"rounds": rounds, "ray": None}
    if ray:
        init_seconds, module = timed(lambda: init_ray(2))  # a local cluster of 2 CPUs
        result["ray"] = {"init": init_seconds, "version": module.__version__}
    result["workloads"] = [
        measure_workload(name, w["quick" if quick else "games"], rounds, ray)
        for name, w in WORKLOADS.items()
    ]
    if ray:
        result["ray"]["shutdown"], _ = timed(module.shutdown)
    return result


def render(r: dict[str, Any]) -> str:
    when = dt.date.today().isoformat()
    ray = r["ray"]
    lines = [
        f"Measured {when} with `make bench` (`benchmarks/scale.py`) on {machine()}; "
        f"games/s the best of {r['rounds']} rounds, every run from a cold start of its "
        "workers; a speed-up is the median of the rounds' own ratios (each round plays the "
        "same seeds with 1 and 2 workers), with the lowest and highest.",
        "",
        "| workload (games per run) | 1 worker | 2 local workers | speed-up | "
        + ("2 Ray tasks at a time | Ray vs local (2 workers) |" if ray else ""),
        "|---|---|---|---|" + ("---|---|" if ray else ""),
    ]
    for w in r["workloads"]:
        g, best, runs = w["games"], w["best"], w["runs"]
        ratios = sorted(o / t for o, t in zip(runs["one"], runs["two"], strict=True))
        row = (f"| {w['title']} ({g:,}) | {g / best['one']:,.0f} games/s ({best['one']:.1f} s) "
               f"| {g / best['two']:,.0f} games/s ({best['two']:.1f} s) "
               f"| **{statistics.median(ratios):.2f}×** ({ratios[0]:.2f}–{ratios[-1]:.2f}) |")
        if ray:
            extra = statistics.median(
                (y - t) / t for y, t in zip(runs["ray"], runs["two"], strict=True))
            row += (f" {g / best['ray']:,.0f} games/s ({best['ray']:.1f} s) "
                    f"| {100 * extra:+.0f}% (median of the rounds) |")
        lines.append(row)
    lines += [
        "",
        "Fixed cost of a 2-worker local run (2 worker processes spawned, each playing one "
        "game: imports, bots, game data): "
        + ", ".join(f"{w['title'].split(',')[0]} {w['startup']:.2f} s" for w in r["workloads"])
        + ".",
    ]
    if ray:
        lines.append(
            f"Ray {ray['version']}: starting the local cluster (`ray.init()`, once per "
            f"process, not in the rows above) took {ray['init']:.1f} s and stopping it "
            f"{ray['shutdown']:.1f} s.")
    else:
        lines.append("Ray is not installed (or `--no-ray`): no Ray rows.")
    lines.append(f"Goal of issue 6: a speed-up of at least {GOAL}× from 1 to 2 workers.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sample sizes (a smoke run)")
    ap.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    ap.add_argument("--rounds", type=int, default=None,
                    help="rounds per workload (default 4, 1 with --quick)")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray backend")
    args = ap.parse_args(argv)
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else 4)
    ray = not args.no_ray and importlib.util.find_spec("ray") is not None
    section = render(measure(args.quick, max(1, rounds), ray))
    publish("Scale", START, END, section, not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
