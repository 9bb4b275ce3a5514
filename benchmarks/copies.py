"""What copies cost where a search makes many: a search bot's decision in a game played
with its event log on (``play``, the server) against the same decision without it, and a
deep copy of a learning environment, written to BENCHMARKS.md.

- **Logged search**: seeded games of the rule bots (Smithy-BM on random Dominion kingdoms,
  the greedy bot at Dominations); at every few decisions of the kind the search weighs,
  the same search level, reset with the same seed, decides from the logged state and from
  the same state without its log, alternately. Both make the same moves (a search's worlds
  log nothing); the ratio of their times is what the log costs a search (1.0: nothing).
- **Environment copy**: ``copy.deepcopy(env)`` at every fifth step of a random game
  (uniform legal actions), for each game and player count, with and without the raw view
  in the infos; the median, the 90th percentile and the most.

Not part of ``make bench`` (about two minutes); the copies need the ``envs`` extra.

Usage: ``python benchmarks/copies.py [--no-write]``.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

START = "<!-- copies:start -->"
END = "<!-- copies:end -->"

SEARCHES: tuple[tuple[str, str, int, tuple[int, ...], int], ...] = (
    # label, game, players, seeds, every k-th searched decision
    ("Dominion, `mcts`, 2 players, random kingdoms", "dominion", 2, (3, 5), 4),
    ("Dominations, `mcts`, 2 players", "dominations", 2, (3,), 6),
)


def _new(game: str, players: int, seed: int) -> Any:
    if game == "dominion":
        from dominari.dominion.engine import DominionConfig, DominionState

        return DominionState.new(DominionConfig(players=players, kingdom="random",
                                                seed=seed, log=True))  # fmt: skip
    from dominari.dominations.engine import DominationsConfig, DominationsState

    return DominationsState.new(DominationsConfig(players=players, seed=seed, log=True))


def _unlogged(state: Any) -> Any:
    plain = pickle.loads(pickle.dumps(state))
    if hasattr(plain, "log"):  # Dominion
        plain.log = None
    else:
        from dataclasses import replace

        plain.config = replace(plain.config, log=False)
        plain.events = []
    return plain


def _searched(game: str, state: Any) -> bool:
    """Whether the search weighs the decision (a Dominion buy, a Dominations turn's)."""
    from dominari.bots.mcts import HOOKS

    return HOOKS[game].searched(state) and len(state.legal_actions()) > 1


def measure_search(game: str, players: int, seeds: tuple[int, ...],
                   every: int) -> dict[str, Any]:  # fmt: skip
    from dominari.bots import load_bot

    rule = "smithy" if game == "dominion" else "greedy"
    times = {True: 0.0, False: 0.0}
    decisions = same = 0
    for seed in seeds:
        state = _new(game, players, seed)
        bots = [load_bot(rule, game) for _ in range(players)]
        for b in bots:
            b.reset(seed)
        weighed = 0
        while not state.is_terminal():
            if _searched(game, state):
                weighed += 1
                if weighed % every == 0:
                    plain = _unlogged(state)
                    moves = {}
                    for logged, st in ((True, state), (False, plain)):
                        bot = load_bot("mcts", game)
                        bot.reset(1)
                        t = time.perf_counter()
                        moves[logged] = bot.act(st)
                        times[logged] += time.perf_counter() - t
                    decisions += 1
                    same += moves[True] == moves[False]
            state.apply(bots[state.current_player()].act(state))
    return {"decisions": decisions, "same": same, "logged": times[True],
            "plain": times[False]}


COPIES: tuple[tuple[str, str, int, bool], ...] = (
    ("Dominion, 2 players", "dominion", 2, True),
    ("Dominations, 2 players", "dominations", 2, True),
    ("Dominations, 4 players", "dominations", 4, True),
    ("Dominations, 4 players, `raw_view=False`", "dominations", 4, False),
)


def measure_copies(game: str, players: int, raw_view: bool) -> list[float]:
    from dominari.envs import dominations_env, dominion_env

    make = dominion_env if game == "dominion" else dominations_env
    times = []
    for seed in (3, 4):
        env = make(num_players=players, raw_view=raw_view)
        env.reset(seed=seed)
        rng = random.Random(seed)
        for i, _agent in enumerate(env.agent_iter()):
            if any(env.last()[2:4]):
                env.step(None)
                continue
            if i % 5 == 0:
                t = time.perf_counter()
                copy.deepcopy(env)
                times.append(time.perf_counter() - t)
            env.step(rng.choice(list(env.choices())))
    return sorted(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-write", action="store_true", help="print, do not write BENCHMARKS.md")
    args = ap.parse_args(argv)
    lines = [f"`python benchmarks/copies.py`, {dt.date.today().isoformat()}, {machine()}.", "",
             "| search from a logged game | decisions | same moves | logged s | unlogged s "
             "| logged ÷ unlogged |", "|---|---|---|---|---|---|"]
    for label, game, players, seeds, every in SEARCHES:
        r = measure_search(game, players, seeds, every)
        lines.append(f"| {label} | {r['decisions']} | {r['same']} | {r['logged']:.2f} | "
                     f"{r['plain']:.2f} | {r['logged'] / r['plain']:.2f} |")
    lines += ["", "| `copy.deepcopy(env)` | copies | median ms | 90% ms | most ms |",
              "|---|---|---|---|---|"]
    for label, game, players, raw_view in COPIES:
        t = measure_copies(game, players, raw_view)
        lines.append(f"| {label} | {len(t)} | {1000 * t[len(t) // 2]:.2f} | "
                     f"{1000 * t[int(0.9 * len(t))]:.2f} | {1000 * t[-1]:.2f} |")
    publish("Copies", START, END, "\n".join(lines), not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
