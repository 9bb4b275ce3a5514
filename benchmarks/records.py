"""What a game record costs a simulation that writes one a game (``--record-dir``),
written to BENCHMARKS.md.

- **Text**: the JSON text of one finished game's record, as records are laid out now
  (:func:`~dominari.sim.records.record_text`: a key a line, a list's item a line, each
  value on one line) and as they were (``json.dumps(indent=1)``), over the records of
  seeded games of the rule bots (Dominion, First Game, Smithy-BM against BM; Dominations,
  greedy against greedy); rounds alternate the two, so both see the same machine load.
- **File**: writing a record's text to a new file through a temporary file and a rename
  (:func:`~dominari.sim.records.write_text_atomic`), against a plain write of the same
  text, in a fresh folder.
- **Run**: one worker's simulation of the same games with records and without, in
  alternating rounds: games per second each way.

Not part of ``make bench`` (about a minute).

Usage: ``python benchmarks/records.py [--games N] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

START = "<!-- records:start -->"
END = "<!-- records:end -->"


def _records(game: str, players: list[str], n: int) -> list[dict[str, Any]]:
    """The records of ``n`` seeded games of ``players``."""
    from dominari.sim import simulate

    folder = Path(tempfile.mkdtemp(prefix="dominari-records-"))
    try:
        simulate(players, n, seed=1, workers=1, game=game, record_dir=folder / "r",
                 **({"kingdom": "first-game"} if game == "dominion" else {}))  # fmt: skip
        return [json.loads(p.read_text(encoding="utf-8"))
                for p in sorted((folder / "r").glob("game-*.json"))]  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _per_item(fn: Any, items: list[Any], rounds: int = 5) -> float:
    """The median over ``rounds`` of ``fn``'s time per item, in µs."""
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        for x in items:
            fn(x)
        times.append((time.perf_counter() - t) / len(items) * 1e6)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    from dominari.sim import simulate
    from dominari.sim.records import record_text, write_text_atomic

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per run (default 1000)")
    ap.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = ap.parse_args(argv)

    rows = []
    for label, game, players in (("Dominion, First Game", "dominion", ["smithy", "bm"]),
                                 ("Dominations, 2 players", "dominations",
                                  ["greedy", "greedy"])):  # fmt: skip
        records = _records(game, players, 200 if game == "dominion" else 20)

        def old(r: dict[str, Any]) -> str:
            return json.dumps(r, indent=1, ensure_ascii=False) + "\n"

        new_us, old_us = [], []
        for _ in range(3):  # alternate: both see the same load
            new_us.append(_per_item(record_text, records))
            old_us.append(_per_item(old, records))
        size = statistics.mean(len(record_text(r).encode()) for r in records)
        rows.append((label, len(records), statistics.median(new_us),
                     statistics.median(old_us), size))  # fmt: skip

    text = record_text(_records("dominion", ["smithy", "bm"], 1)[0])
    folder = Path(tempfile.mkdtemp(prefix="dominari-files-"))
    try:
        count = iter(range(10**9))

        def atomic(_: object) -> None:
            write_text_atomic(folder / f"a-{next(count)}.json", text)

        def plain(_: object) -> None:
            with open(folder / f"p-{next(count)}.json", "w", encoding="utf-8") as f:
                f.write(text)

        atomic_us = _per_item(atomic, list(range(500)))
        plain_us = _per_item(plain, list(range(500)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    runs: dict[bool, list[float]] = {True: [], False: []}
    for k in range(2):
        for recorded in (True, False):
            where = Path(tempfile.mkdtemp(prefix="dominari-run-"))
            try:
                t = time.perf_counter()
                simulate(["smithy", "bm"], args.games, seed=k, workers=1, kingdom="first-game",
                         record_dir=where / "r" if recorded else None)  # fmt: skip
                runs[recorded].append(args.games / (time.perf_counter() - t))
            finally:
                shutil.rmtree(where, ignore_errors=True)

    date = dt.date.today().isoformat()
    out = [f"`python benchmarks/records.py --games {args.games}`, {date}, {machine()}.", "",
           "| record text | records | now µs | `indent=1` µs | indent=1 ÷ now | bytes now |",
           "|---|---|---|---|---|---|"]
    out += [f"| {label} | {n} | {new:.0f} | {old:.0f} | {old / new:.2f} | {size:,.0f} |"
            for label, n, new, old, size in rows]
    out += ["", "| writing a record's text to a new file | µs a file |", "|---|---|",
            f"| through a temporary file and a rename (`write_text_atomic`) | {atomic_us:.0f} |",
            f"| a plain write | {plain_us:.0f} |", "",
            "| one worker, Smithy-BM vs BM, First Game | games/s (2 rounds) |", "|---|---|",
            f"| with `--record-dir` | {', '.join(f'{x:,.0f}' for x in runs[True])} |",
            f"| without | {', '.join(f'{x:,.0f}' for x in runs[False])} |"]
    publish("Records", START, END, "\n".join(out), not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
