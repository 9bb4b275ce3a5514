"""Time pyminion 0.4.0 playing Big Money vs Big Money.

Run with the interpreter of a virtual environment that has ``pyminion==0.4.0``
installed (see ``benchmarks/peers.py``); this file never imports ``dominari``.

Usage: ``python pyminion_bm.py GAMES``. Prints exactly one JSON line:
``{"games": N, "seconds": S, "games_per_s": R, "version": "0.4.0"}``.

pyminion is benchmarked as users get it: importing it sets the root logger to
INFO (with a ``NullHandler``), so every log call still builds its message and a
``LogRecord``. That cost is left in. Only the per-game output is switched off,
via ``Game(log_stdout=False, log_file=False)``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from importlib.metadata import version

from pyminion.bots.examples import BigMoney
from pyminion.expansions.base import (
    base_set,
    cellar,
    market,
    merchant,
    militia,
    mine,
    moat,
    remodel,
    smithy,
    village,
    workshop,
)
from pyminion.game import Game

# pyminion does not define a "First Game" kingdom and has no first-edition
# Woodcutter, so use the second-edition First Game cards, all of which it has.
FIRST_GAME = [cellar, market, merchant, militia, mine, moat, remodel, smithy, village, workshop]


def play_one() -> None:
    players = [BigMoney(player_id="bm1"), BigMoney(player_id="bm2")]
    game = Game(
        players=players,
        expansions=[base_set],
        kingdom_cards=list(FIRST_GAME),
        log_stdout=False,
        log_file=False,
    )
    game.play()


def main(argv: list[str]) -> int:
    games = int(argv[1]) if len(argv) > 1 else 100
    if games < 1:
        print("games must be >= 1", file=sys.stderr)
        return 2
    random.seed(1)
    start = time.perf_counter()
    for _ in range(games):
        play_one()
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "games": games,
                "seconds": round(seconds, 6),
                "games_per_s": round(games / seconds, 3),
                "version": version("pyminion"),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
