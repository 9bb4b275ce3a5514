"""Ratings: how long a tournament's ratings take, per game and at the largest tournament
issue 6 allows, written to BENCHMARKS.md.

A tournament rates its games one by one after they are played (``rate_games``, OpenSkill's
full-pairing Bradley-Terry model), so at its maximum of games the ratings are a wait of
their own after the games. This measures the time a game at 2, 3 and 4 seats, on stand-in
results of 10 entries (random seatings and places, a shared first place in a game out of
ten, as seeded here), against OpenSkill's Plackett-Luce model (the one used before) rating
the same games in the same run, the two alternating round by round so that both see the
same machine load. The figure for the maximum is the median time a game times
:data:`~dominari.sim.tournament.MAX_TOURNAMENT_GAMES`.

Usage: ``python benchmarks/ratings.py [--games N] [--rounds R] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dominari.sim.journal import GameResult
from dominari.sim.tournament import MAX_TOURNAMENT_GAMES, RATING_NAME, rate_games
from run import machine, publish

START = "<!-- ratings:start -->"
END = "<!-- ratings:end -->"
ENTRIES = 10


def stand_ins(seats: int, games: int, seed: int) -> list[GameResult]:
    """``games`` results of ``seats``-seat games among :data:`ENTRIES` entries: random
    seatings and places, a first place shared in one game out of ten."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        seating = tuple(rng.sample(range(ENTRIES), seats))
        places = list(range(1, seats + 1))
        rng.shuffle(places)
        if rng.random() < 0.1:  # two share the first place
            places = [1 if p == 2 else p for p in places]
        out.append(GameResult(seating, tuple(places), (0,) * seats, "provinces"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games a round (default 20,000)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of each model (default 3)")
    ap.add_argument("--no-write", action="store_true", help="print, do not write the file")
    args = ap.parse_args(argv)
    rows = []
    for seats in (2, 3, 4):
        games = stand_ins(seats, args.games, seats)
        ours: list[float] = []
        peer: list[float] = []
        for _ in range(args.rounds):  # alternating: both see the same load
            began = time.perf_counter()
            rate_games(games, ENTRIES)
            ours.append((time.perf_counter() - began) / len(games))
            began = time.perf_counter()
            rate_games(games, ENTRIES, model="PlackettLuce")
            peer.append((time.perf_counter() - began) / len(games))
        us, them = statistics.median(ours), statistics.median(peer)
        rows.append(f"| {seats} | {1e6 * us:.1f} | {1e6 * them:.1f} | {us / them:.2f} | "
                    f"{us * MAX_TOURNAMENT_GAMES / 60:.1f} |")
    date = dt.date.today().isoformat()
    section = "\n".join([
        f"- Command: `python benchmarks/ratings.py --games {args.games} --rounds "
        f"{args.rounds}` ({date})",
        f"- Machine: {machine()}",
        f"- Model: {RATING_NAME} (`rate_games`); peer: OpenSkill's Plackett-Luce, the model "
        "used before, on the same games in the same run, alternating round by round.",
        f"- Stand-in results of {ENTRIES} entries, {args.games:,} games a seat count, a first "
        "place shared in one game out of ten; the median of the rounds.",
        "",
        "| Seats | µs a game | Plackett-Luce µs a game | Ratio | Minutes for "
        f"{MAX_TOURNAMENT_GAMES:,} games |",
        "|---:|---:|---:|---:|---:|",
        *rows,
    ])
    publish("Ratings", START, END, section, not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
