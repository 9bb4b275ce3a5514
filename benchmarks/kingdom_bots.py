"""The built-in Dominion strategies, two by two: does ``KINGDOM_ORDERS`` hold?

``dominari.bots.kingdom.KINGDOM_ORDERS`` ranks the built-in strategies from the strongest
down, per number of players; ``best`` plays, and the search models a seat with, the first
one that fits the kingdom. This plays
every pair of the ranked strategies in a 2-player match (``dominari.sim.tournament``,
seats rotating every game) on a kingdom holding the Kingdom cards both buy, completed
with cards neither buys, and checks that no strategy loses clearly (by more than two
standard errors, a shared win as half a win) to one ranked below it: strategies that
play as well as each other within the noise may stand in either order. It writes the
table of results between the ``kingdom-bots`` markers of BENCHMARKS.md and says on
standard error, and in the table's notes, where the order does not hold (then
``KINGDOM_ORDERS`` is to be changed; the run still ends with 0, so that ``make bench`` goes
on to its other benchmarks).

With ``--seats 3`` or ``--seats 4`` the pairs play 3- or 4-player games: a pair's two
strategies fill the table half and half (with 3 seats two tables, two of the first and
one of the second, then one and two), and a strategy's result is its seats' share of the
wins over both halves of the table, so that 50% is again an even match (the table goes
between the ``kingdom-bots-3`` or ``kingdom-bots-4`` markers).

Usage: ``python benchmarks/kingdom_bots.py [-n GAMES] [--seats 2|3|4] [--seed S]
[--workers W] [--no-write]`` (about a minute with the defaults on 2 cores, 2 players).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import math
import sys
import time
from pathlib import Path

from dominari.bots import builtin_strategy
from dominari.bots.kingdom import KINGDOM_ORDERS, kingdom_cards
from dominari.sim import tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, replace_section

START = "<!-- kingdom-bots:start -->"
END = "<!-- kingdom-bots:end -->"
FILLER = ("Cellar", "Chapel", "Village", "Festival", "Spy", "Thief", "Adventurer",
          "Woodcutter", "Chancellor", "Feast", "Mine", "Remodel", "Throne Room")  # fmt: skip
"""Kingdom cards no ranked strategy buys, to complete a match's kingdom."""


def kingdom_for(a: str, b: str) -> list[str]:
    """The Kingdom cards both strategies buy, completed to 10 from :data:`FILLER`."""
    cards = sorted(kingdom_cards(a) | kingdom_cards(b))
    return cards + [c for c in FILLER if c not in cards][: 10 - len(cards)]


def score(wins: int, ties: int, games: int) -> float:
    """The share of games won, a shared win as half."""
    return (wins + ties / 2) / games


TABLES = {2: ((0, 1),), 3: ((0, 0, 1), (0, 1, 1)), 4: ((0, 0, 1, 1),)}
"""Per number of seats, the tables a pair plays: 0 for the pair's first strategy, 1 for
the second; every table together seats each strategy equally often."""


def pair_score(a: str, b: str, games: int, seed: int, seats: int,
               workers: int) -> tuple[float, float]:
    """The shares of the wins (a shared win as half) of ``a``'s and ``b``'s seats over
    :data:`TABLES` of ``seats``, ``games`` games split between the tables (they sum to 1
    but for ties)."""
    shares = [0.0, 0.0]
    pair = (a, b)
    for table in TABLES[seats]:
        r = tournament([pair[k] for k in table], games // len(TABLES[seats]), seed,
                       seats=seats, workers=workers, kingdom=kingdom_for(a, b))
        m = r.matchups[0]  # one match-up: the whole table
        for k, w, t in zip(table, m.wins, m.ties, strict=True):
            shares[k] += score(w, t, m.games) / len(TABLES[seats])
    return shares[0], shares[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=2000, help="games per pair")
    ap.add_argument("--seats", type=int, choices=sorted(TABLES), default=2,
                    help="players a game (default 2)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-write", action="store_true", help="do not write BENCHMARKS.md")
    args = ap.parse_args(argv)

    names = KINGDOM_ORDERS[args.seats]
    label = {n: builtin_strategy(n).name for n in names}
    result: dict[tuple[str, str], float] = {}
    started = time.perf_counter()
    for a, b in itertools.combinations(names, 2):
        result[a, b], result[b, a] = pair_score(a, b, args.games, args.seed, args.seats,
                                                args.workers)
        print(f"{label[a]:>18} {100 * result[a, b]:5.1f}%  {label[b]}", flush=True)
    elapsed = time.perf_counter() - started

    played = args.games // len(TABLES[args.seats]) * len(TABLES[args.seats])  # a pair's
    se = 0.5 / math.sqrt(played)
    pairs = list(itertools.combinations(names, 2))
    broken = [(a, b) for a, b in pairs if result[a, b] < 0.5 - 2 * se]
    close = [(a, b) for a, b in pairs if 0.5 - 2 * se <= result[a, b] <= 0.5 + 2 * se]
    seats = "" if args.seats == 2 else f" --seats {args.seats}"
    tables = {2: " (", 3: " in 3-player games (two tables: two of the row and one of the "
                          "column, then one and two; the share of the row's seats; ",
              4: " in 4-player games (two of the row and two of the column at a table; "
                 "the share of the row's seats; "}[args.seats]
    lines = [
        f"Measured {dt.date.today()} with `python benchmarks/kingdom_bots.py -n {args.games}"
        f"{seats} --seed {args.seed}` on {machine()} ({elapsed:.0f} s on {args.workers} "
        "workers).",
        "",
        f"Each cell: the row's share of its {played:,} games against the column{tables}"
        "seats rotating, a shared win as half), on a kingdom of the Kingdom cards both buy "
        f"completed with cards neither buys; a standard error is about {100 * se:.1f} "
        f"points. Rows and columns are in `KINGDOM_ORDERS[{args.seats}]`, so the order "
        "holds when no cell right of the diagonal is below 50% by more than two standard errors.",
        "",
        "| strategy | " + " | ".join(label[n] for n in names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for a in names:
        cells = ["—" if a == b else f"{100 * result[a, b]:.1f}" for b in names]
        lines.append(f"| {label[a]} | " + " | ".join(cells) + " |")
    lines.append("")
    if broken:
        lines.append("**The order does not hold** for: " + ", ".join(
            f"{label[a]} over {label[b]} ({100 * result[a, b]:.1f}%)" for a, b in broken) + ".")
    else:
        lines.append("The order holds: no strategy loses clearly to one ranked below it.")
    if close:
        lines.append("Within two standard errors of 50% (either order would do): " + ", ".join(
            f"{label[a]} against {label[b]} ({100 * result[a, b]:.1f}%)" for a, b in close)
            + ".")
    section = "\n".join(lines)
    print(section)
    if not args.no_write:
        start, end = START, END
        title = "Rule bots by kingdom"
        if args.seats != 2:
            start, end = (m.replace("kingdom-bots", f"kingdom-bots-{args.seats}")
                          for m in (START, END))
            title += f", {args.seats} players"
        print(f"wrote {replace_section(title, start, end, section)}")
    if broken:
        print("warning: KINGDOM_ORDERS does not hold; see the table", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
