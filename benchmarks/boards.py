"""The Dominion search against ``best`` on random kingdoms of one kind: those whose best
rule bot (for two players) is a given strategy.

The match of record ``dominion-random`` (``benchmarks/bots.py``) deals one random kingdom
a game, so the rare kinds of board come up a few times in 1,000 games (a Laboratory board
15 times, a Moat board 8). This plays a kind on its own: game ``g`` draws random
kingdoms (``dominari.dominion.kingdoms.resolve("random", …)``, from the seed and ``g``)
until one's best rule bot (:func:`dominari.bots.kingdom.best_rule_bot`) is ``BOT``, then
seats the search at ``g % 2`` against ``best`` with the deal ``--seed + g``. The same
arguments play the same games on any machine and with any number of workers.

Usage::

    python benchmarks/boards.py laboratory -n 200 --seed 31
    python benchmarks/boards.py moat -n 200 --seed 32 --lines
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from dominari.bots.kingdom import KINGDOM_ORDER, best_rule_bot
from dominari.bots.mcts import LEVELS
from dominari.dominion.kingdoms import names, resolve
from dominari.sim.stats import wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pilot import play as play_one  # benchmarks/ is not a package: its folder is on the path

TRIES = 100_000
"""Random kingdoms drawn for a game at most (the rarest kind, BMU's, is about 1 in 500)."""


def kingdom_for(bot: str, seed: int, g: int) -> tuple[int, ...]:
    """Game ``g``'s kingdom: the first random one whose best rule bot is ``bot``."""
    for k in range(TRIES):
        kingdom = resolve("random", seed * 1_000_003 + g * 10_007 + k)
        if best_rule_bot(kingdom, 2) == bot:
            return kingdom
    raise SystemExit(f"boards: no kingdom for {bot} in {TRIES} random ones")


def play(job: tuple[str, str, int, int]) -> list[Any]:
    """One game: (game, seat, ranks, scores, CPU seconds, the kingdom's cards), played as
    ``benchmarks/pilot.py`` plays one against ``best``."""
    bot, level, seed, g = job
    kingdom = names(kingdom_for(bot, seed, g))
    game = play_one(("dominion", 2, "best", dict(LEVELS["dominion"][level]), kingdom, seed,
                     g, False))
    return [*game, kingdom]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bot", choices=KINGDOM_ORDER, help="the best rule bot of the boards")
    ap.add_argument("--level", default="mcts", choices=tuple(LEVELS["dominion"]))
    ap.add_argument("-n", "--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lines", action="store_true", help="print every game as a JSON line")
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.seed < 0:
        print("boards: games and workers must be at least 1, the seed 0 or more",
              file=sys.stderr)
        return 2
    wins = shared = 0
    mine = theirs = cpu = 0.0
    jobs = [(args.bot, args.level, args.seed, g) for g in range(args.games)]
    with Pool(args.workers) as pool:
        for g, seat, ranks, scores, t, kingdom in pool.imap_unordered(play, jobs):
            if args.lines:
                print(json.dumps([g, seat, ranks, scores, t, kingdom]), flush=True)
            wins += ranks[seat] < ranks[1 - seat]
            shared += ranks[seat] == ranks[1 - seat]
            mine += scores[seat]
            theirs += scores[1 - seat]
            cpu += t
    n = args.games
    lo, hi = wilson(wins, n)
    print(f"{args.level} vs best on {args.bot} boards: {n} games, won {wins} "
          f"({100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]), shared {shared}; "
          f"mean VP {mine / n:.1f} against {theirs / n:.1f}; {cpu / n:.1f} s CPU a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
