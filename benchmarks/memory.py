"""Memory: the peak memory of the process that runs a simulation or a tournament of millions
of games, measured with stand-in games and written to BENCHMARKS.md.

What grows with the number of games is the runner's bookkeeping, not the games: each game
is played and let go in a worker. So the games here are stand-ins (the chunk or shard
function is replaced by one that makes plausible results at once: a Dominations-sized
tally with 6 VP sources per chunk, a tournament result with shared wins and two end
reasons per game), played in this process (``workers=1``), and what is measured is the
peak resident memory (``ru_maxrss``) of a fresh process per scenario, with a digest of the
result's JSON. With ``--baseline SRC`` the same scenarios run, in the same run, on another
version's source folder (a ``git worktree`` of an earlier commit), and the table puts the
two side by side: the digests must agree, since only the bookkeeping changed.

Usage: ``python benchmarks/memory.py [--baseline SRC] [--quick] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- memory:start -->"
END = "<!-- memory:end -->"

SCENARIO = r'''
import hashlib, importlib, json, os, resource, sys, time
kind, games, seats, entries, journal = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4]), sys.argv[5]
from dominari.sim.journal import GameResult
from dominari.sim.stats import Tally
runner = importlib.import_module("dominari.sim.runner")
tour = importlib.import_module("dominari.sim.tournament")

def chunk(c):
    t = Tally(len(c.specs))
    sources = [{s: 1 + p for s in "abcdef"} for p in range(len(c.specs))]
    for i in range(c.start, c.stop, 50):
        t.add((30, 20), (1, 2), (20, 20), "provinces" if i % 100 else "three-piles", sources)
    return t

def shard(s):
    out, shared = [], {}
    for j in range(s.start, s.stop):
        seating = tour.seating(s.entries, j)
        seating = shared.setdefault(seating, seating)
        k, a = len(seating), (j * 7919 + s.matchup) % 3
        ranks = tuple(range(1, k + 1)) if a == 0 else tuple(range(k, 0, -1)) if a == 1 \
            else (1,) * k
        ranks = shared.setdefault(ranks, ranks)
        # who began, where the code keeps it (a baseline from before does not)
        order = tuple((j + p) % k for p in range(k))
        extra = (shared.setdefault(order, order),) if "order" in GameResult._fields else ()
        # scores that give those places (a journal read back checks that they do)
        out.append(GameResult(seating, ranks, tuple(40 + j % 13 - r for r in ranks),
                              "provinces" if j % 5 else "three-piles", *extra))
    return tuple(out)

runner.run_chunk = chunk
tour.play_shard = shard
players = ["bm", "bmu", "smithy", "random", "witch"][:entries]
t = time.perf_counter()
if kind == "simulate":
    result = runner.simulate(players[:seats], games, 1, workers=1)
    played = games
else:
    result = tour.tournament(players, games, 1, seats=seats, workers=1,
                             journal=journal or None)
    played = result.games
def shared(value):  # the results both versions give: not the turn-order counts of 2026-11-27
    if isinstance(value, dict):
        return {k: shared(v) for k, v in value.items() if k != "by_turn"}
    return [shared(v) for v in value] if isinstance(value, list) else value

data = json.dumps(shared(result.to_json()), sort_keys=True).encode()
print(json.dumps({"games": played, "seconds": time.perf_counter() - t,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "digest": hashlib.sha256(data).hexdigest()[:12]}))
'''


def scenarios(quick: bool) -> list[tuple[str, str, int, int, int, str]]:
    """``(title, kind, games, seats, entries, journal)``: journal is ``""`` (none),
    ``write`` (a new one) or ``read`` (the one the scenario before wrote, complete)."""
    k = 100 if quick else 1
    return [
        ("simulate, 2 seats, 1,000,000 games", "simulate", 1_000_000 // k, 2, 2, ""),
        ("simulate, 2 seats, 10,000,000 games", "simulate", 10_000_000 // k, 2, 2, ""),
        ("simulate, 2 seats, 100,000,000 games", "simulate", 100_000_000 // k, 2, 2, ""),
        ("tournament, 2 seats, 3 × 1,000,000 games", "tournament", 1_000_000 // k, 2, 3, ""),
        ("the same, with a journal written", "tournament", 1_000_000 // k, 2, 3, "write"),
        ("the same, its journal read back whole", "tournament", 1_000_000 // k, 2, 3, "read"),
        ("tournament, 4 seats, 5 × 200,000 games", "tournament", 200_000 // k, 4, 5, ""),
    ]


def measure(src: Path, quick: bool) -> list[dict[str, float | str]]:
    """Every scenario, each in a fresh process importing dominari from ``src``."""
    out = []
    env = {**os.environ, "PYTHONPATH": str(src)}
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "t.jsonl"
        for title, kind, games, seats, entries, how in scenarios(quick):
            if how == "write":
                journal.unlink(missing_ok=True)
            path = str(journal) if how else ""
            done = subprocess.run([sys.executable, "-c", SCENARIO, kind, str(games), str(seats),
                                   str(entries), path], env=env, capture_output=True,
                                  text=True, check=False)  # fmt: skip
            if done.returncode:
                raise SystemExit(f"{title} ({src}): {done.stderr.strip()}")
            row = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"{src}: {title}: {row['peak_mb']:.0f} MB, {row['seconds']:.1f} s",
                  file=sys.stderr)  # fmt: skip
            out.append(row)
    return out


def _version(src: Path) -> str:
    """The baseline in words: its commit, when ``src`` is in a git checkout."""
    done = subprocess.run(["git", "-C", str(src), "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    line = done.stdout.strip()
    return f"commit {line[:120]}" if done.returncode == 0 and line else f"the source at {src}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, default=None, metavar="SRC",
                    help="another version's source folder (its src/), measured beside")
    ap.add_argument("--quick", action="store_true", help="a hundredth of the games")
    ap.add_argument("--no-write", action="store_true", help="print, do not write the file")
    args = ap.parse_args(argv)
    mine = measure(ROOT / "src", args.quick)
    base = measure(args.baseline, args.quick) if args.baseline else None
    head = "| scenario | games | peak memory | time |"
    rule = "|---|---|---|---|"
    if base is not None:
        head += " baseline peak | baseline time | same result |"
        rule += "---|---|---|"
    lines = [head, rule]
    for k, (title, *_rest) in enumerate(scenarios(args.quick)):
        row = mine[k]
        line = (f"| {title} | {int(row['games']):,} | {row['peak_mb']:,.0f} MB | "
                f"{row['seconds']:.1f} s |")  # fmt: skip
        if base is not None:
            other = base[k]
            line += (f" {other['peak_mb']:,.0f} MB | {other['seconds']:.1f} s | "
                     f"{'yes' if other['digest'] == row['digest'] else '**no**'} |")
        lines.append(line)
    note = (f"Baseline: {_version(args.baseline)}, measured in the same run (its column "
            "of times shares the machine with whatever else ran then)."
            if args.baseline else "No baseline in this run.")
    section = "\n".join([
        f"Measured {dt.date.today()} with `python benchmarks/memory.py"
        f"{' --baseline SRC' if args.baseline else ''}{' --quick' if args.quick else ''}` "
        f"on {machine()}; stand-in games, one process per scenario, peak resident memory "
        "(`ru_maxrss`, which includes some 25 MB of interpreter and imports).",
        "", *lines, "", note,
    ])  # fmt: skip
    publish("Memory", START, END, section, not args.no_write and not args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
