"""Stall watch: what ``--stall-timeout`` costs a simulation, locally and on Ray, written
to BENCHMARKS.md.

The same 2-worker simulation (BMU vs Smithy, First Game, 250-game chunks: the shortest
tasks the runner makes, so the watch's cost a task weighs most) runs with and without a
stall limit of 30 s, on local worker processes and on a local Ray cluster of 2 CPUs
(started once, before the clock). Rounds alternate the four runs, each with a new seed;
the runs of a round must give identical results (the script asserts it). This shared
machine's speed moves by tens of percent between minutes, so the cost is the median,
over the rounds, of a watched run's time over the plain run's just before it; the best
time of each run is shown too. Not part of ``make bench`` (a few minutes; needs Ray).

Usage: ``python benchmarks/stall.py [--games N] [--rounds R] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

START = "<!-- stall:start -->"
END = "<!-- stall:end -->"
LIMIT = 30.0


def measure(games: int, rounds: int) -> dict[tuple[str, bool], list[float]]:
    """The seconds of each (backend, watched) run, round by round."""
    from dominari.sim import simulate
    from dominari.sim.pool import end_own_ray, init_ray

    init_ray(2)
    times: dict[tuple[str, bool], list[float]] = {}
    try:
        for k in range(rounds):
            seen = set()
            for backend in ("local", "ray"):
                for watched in (False, True):
                    t0 = time.perf_counter()
                    result = simulate(["bmu", "smithy"], games, seed=100 + k, workers=2,
                                      kingdom="first-game", backend=backend,
                                      stall=LIMIT if watched else None)  # fmt: skip
                    seconds = time.perf_counter() - t0
                    seen.add(json.dumps(result.to_json(), sort_keys=True))
                    key = (backend, watched)
                    times.setdefault(key, []).append(seconds)
                    print(f"round {k + 1}: {backend:5s} {'watched' if watched else 'plain':7s}"
                          f" {seconds:6.2f} s", file=sys.stderr, flush=True)  # fmt: skip
            assert len(seen) == 1, "a stall limit changed a result"
    finally:
        end_own_ray()
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games a run (100,000)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    ap.add_argument("--no-write", action="store_true", help="print, do not write the file")
    args = ap.parse_args(argv)
    times = measure(args.games, args.rounds)
    lines = ["| backend (2 workers) | no limit, best | `--stall-timeout 30`, best | "
             "cost (median of the rounds' ratios) | the rounds' ratios |",
             "|---|---|---|---|---|"]
    for backend in ("local", "ray"):
        plain, watched = times[backend, False], times[backend, True]
        ratios = [w / p for p, w in zip(plain, watched, strict=True)]
        lines.append(f"| {backend} | {args.games / min(plain):,.0f} games/s "
                     f"({min(plain):.2f} s) | {args.games / min(watched):,.0f} games/s "
                     f"({min(watched):.2f} s) | **{100 * (statistics.median(ratios) - 1):+.0f}%**"
                     f" | {', '.join(f'{r:.2f}' for r in ratios)} |")  # fmt: skip
    section = "\n".join([
        f"Measured {dt.date.today()} with `python benchmarks/stall.py --games {args.games} "
        f"--rounds {args.rounds}` on {machine()}; BMU vs Smithy, First Game, "
        f"{args.rounds} rounds, identical results with and without the limit.",
        "", *lines,
    ])  # fmt: skip
    publish("Stall watch", START, END, section, not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
