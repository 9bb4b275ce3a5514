"""Pilot matches for tuning the search bots: a search configuration (any ``MCTSBot``
arguments, or a level name) against rule bots, a few dozen games at a time.

Each game seats the search bot at ``game % seats`` and plays the seed ``--seed + game``,
so two configurations run with the same ``--seed`` play the same deals: compare them game
by game (``--lines`` prints each game as a JSON line: game, seat, ranks, scores, CPU
seconds). The summary gives the outright wins with their Wilson 95% interval and the
mean score lead over the mean and over the best other player, which is far less noisy
than the win rate: a pilot of 40 four-player games has a win rate interval of about
±15 points. ``--exact-model`` has the search model the other seats as the opponent
itself (the bot it really plays), to measure what a perfect opponent model is worth.
The matches of record are ``benchmarks/bots.py``; this is for choosing what they should
measure.

Usage::

    python benchmarks/pilot.py dominations --seats 4 -n 40 \\
        --level '{"iterations": 4, "cutoff": 24, "width": 2, "paired": true, "trust": 0}'
    python benchmarks/pilot.py dominion --opponent smithy --kingdom first-game -n 200 \\
        --level mcts
    python benchmarks/pilot.py dominion --kingdom first-game -n 400 --seed 9000 \\
        --opponent benchmarks/strategies/smithy_market_militia.toml --exact-model
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from dominari.bots import load_bot
from dominari.bots.mcts import LEVELS, MCTSBot
from dominari.core.errors import ConfigError, DominariError
from dominari.sim.runner import game_options, play_game
from dominari.sim.stats import wilson

OPPONENT = {"dominations": "greedy", "dominion": "smithy"}


def _options(game: str, kingdom: str | Sequence[str] | None) -> Any:
    return game_options(game, kingdom=kingdom or ("first-game" if game == "dominion" else None))


def exact_model(bot: MCTSBot, opponent: Any) -> None:
    """Make ``bot``'s search model every other seat as ``opponent`` itself (what a perfect
    model of the opponents is worth), its own seat as before."""
    hooks = bot._hooks  # an experiment of the pilot's, not an option of the bot
    policy = hooks.policy

    def exact(state: Any, rng: Any) -> list[Any]:
        me = state.current_player()
        return [model if p == me else opponent for p, model in enumerate(policy(state, rng))]

    bot._hooks = dataclasses.replace(hooks, policy=exact)


def play(job: tuple[str, int, str, dict[str, Any], str | Sequence[str] | None, int, int, bool],
         ) -> list[Any]:
    """One game: (game index, seat, ranks, scores, CPU seconds of the whole game)."""
    game, seats, opponent, level, kingdom, seed, g, exact = job
    seat = g % seats
    state = _options(game, kingdom).new_game(seats, seed + g, tuple(f"p{k}" for k in range(seats)))
    bots: list[Any] = [load_bot(opponent, game) for _ in range(seats)]
    bots[seat] = MCTSBot(game, seed=seed + g, **level)
    if exact:
        exact_model(bots[seat], load_bot(opponent, game))
    for i, b in enumerate(bots):
        b.reset(seed + g + 1000 * (i + 1))
    t = time.process_time()
    out = play_game(bots, state).outcome()
    return [g, seat, list(out.ranks), [int(x) for x in out.scores],
            round(time.process_time() - t, 2)]


def level_of(text: str, game: str) -> dict[str, Any]:
    """The MCTSBot arguments of a level name or a JSON object."""
    if text in LEVELS[game]:
        return dict(LEVELS[game][text])
    try:
        level = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"--level: neither a level ({', '.join(LEVELS[game])}) nor a "
                          f"JSON object of MCTSBot arguments ({e.msg})") from e
    if not isinstance(level, dict):
        raise ConfigError("--level: give a JSON object of MCTSBot arguments")
    try:
        MCTSBot(game, **level)  # a bad value fails here, with its message
    except TypeError as e:
        raise ConfigError(f"--level: {e}") from e
    return level


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=("dominations", "dominion"))
    ap.add_argument("--level", default="mcts", help="a level name or a JSON object of "
                    "MCTSBot arguments (default mcts)")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--opponent", default=None, help="the rule bot in the other seats "
                    "(default greedy for dominations, smithy for dominion)")
    ap.add_argument("--kingdom", default=None, help="dominion: the kingdom (first-game)")
    ap.add_argument("-n", "--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lines", action="store_true", help="print every game as a JSON line")
    ap.add_argument("--exact-model", action="store_true", help="the search models the "
                    "other seats as the opponent itself (a perfect opponent model)")
    args = ap.parse_args(argv)
    try:
        level = level_of(args.level, args.game)
        opponent = args.opponent or OPPONENT[args.game]
        load_bot(opponent, args.game)
        if args.games < 1 or args.workers < 1 or not 2 <= args.seats <= 4:
            raise ConfigError("games and workers must be at least 1, seats 2 to 4")
        _options(args.game, args.kingdom).new_game(args.seats, args.seed, ("a",) * args.seats)
    except DominariError as e:
        print(f"pilot: {e}", file=sys.stderr)
        return 2
    jobs = [(args.game, args.seats, opponent, level, args.kingdom, args.seed, g,
             args.exact_model) for g in range(args.games)]
    wins = shared = 0
    lead_mean = lead_best = cpu = 0.0
    with Pool(args.workers) as pool:
        for g, seat, ranks, scores, t in pool.imap_unordered(play, jobs):
            if args.lines:
                print(json.dumps([g, seat, ranks, scores, t]), flush=True)
            first = ranks.count(1)
            wins += ranks[seat] == 1 and first == 1
            shared += ranks[seat] == 1 and first > 1
            others = scores[:seat] + scores[seat + 1:]
            lead_mean += scores[seat] - sum(others) / len(others)
            lead_best += scores[seat] - max(others)
            cpu += t
    n = args.games
    lo, hi = wilson(wins, n)
    print(f"{json.dumps(level)} vs {opponent} x{args.seats - 1}: {n} games, won {wins} "
          f"({100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]), shared {shared}; "
          f"score lead over the mean other {lead_mean / n:+.1f}, over the best "
          f"{lead_best / n:+.1f}; {cpu / n:.1f} s CPU a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
