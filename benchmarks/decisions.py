"""How good are the Dominion search's decisions, one by one? A decision-level harness.

A match of 1,000 games measures a search level to about ±3 points, which takes hours
here. This measures its *decisions* instead, in the search's own model (every seat goes on
as the rule bot the search models it with, :meth:`MCTSBot.models`: on First Game
Smithy-Market in the searcher's seat and Smithy-BM in the other):

``collect`` plays a level against a rule bot (seeds ``--seed`` on, seats rotating, as
``benchmarks/pilot.py`` does) and keeps every searched decision. For each it measures
every candidate's value with many paired worlds (``--worlds``, far more than a level
affords): the ground truth that a level's choice is judged by. The candidates judged are the
first ``--judge-width`` in the search's own order (7, the level's width; 0: every legal
action, to see what a wider search could find). Games are stored as records
(seed and actions), so a decision is rebuilt by replaying its game.

``eval`` runs one or more levels ``--runs`` times (seeds 1000 on) on every decision and
prints, per level, the true value gained over the searcher's own rule bot's action per
decision (early: the first 20 turns; late: the rest), the regret against the best
candidate and how often it leaves that action; with two or more levels, each one's paired difference
from the first (the same seeds, the same decisions).

Usage::

    python benchmarks/decisions.py collect -n 6 --worlds 3000 --out /tmp/decisions.json
    python benchmarks/decisions.py collect -n 8 --worlds 1500 --judge-width 0 --out /tmp/all.json
    python benchmarks/decisions.py eval /tmp/decisions.json --runs 4 \\
        --level mcts --level '{"iterations": null, "steps": 100000, "width": 7, \\
        "paired": true, "margin": 0.0, "prune": 3.5}'

The ground truth is that of the model, not of the game: a candidate is valued as if both
players then played their rule bots, while the searcher will in fact search again. A level
that leaves little regret here can still lose games to a model that is wrong.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot
from dominari.core.errors import ConfigError, DominariError
from dominari.dominion.engine import DominionState
from dominari.sim.runner import game_options

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pilot import level_of  # benchmarks/ is not a package: its folder is on the path

EARLY_TURNS = 20
"""Decisions before this turn number (both players' turns counted) are "early"."""


def _searched(state: DominionState, seat: int) -> bool:
    return (state.current_player() == seat and state.phase == 1 and not state.stack
            and len(state.legal_actions()) > 1)


def collect_game(job: tuple[int, int, dict[str, Any], str, str, int, int | None, int]
                 ) -> dict[str, Any]:
    """One game of the level against the rule bot, and the ground truth of each of the
    level's searched decisions in it (those before turn ``before`` only, if given) for the
    first ``judged`` candidates in the search's order (0: every legal action)."""
    g, seed, level, opponent, kingdom, worlds, before, judged = job
    seat = g % 2
    state = game_options("dominion", kingdom=kingdom).new_game(2, seed + g, ("a", "b"))
    bots: list[Any] = [load_bot(opponent, "dominion") for _ in range(2)]
    bots[seat] = MCTSBot("dominion", seed=seed + g, **level)
    for i, b in enumerate(bots):
        b.reset(seed + g + 1000 * (i + 1))
    decisions = []
    while not state.is_terminal():
        if _searched(state, seat) and (before is None or state.turn_number < before):
            start = state.copy()
            action = bots[seat].act(state)
            width = judged or len(start.legal_actions())
            judge = MCTSBot("dominion", iterations=width * worlds, width=width, paired=True,
                            margin=0.0, prune=0.0, trust=0.0, seed=99)
            judge.act(start)
            root = judge.last_root
            assert root is not None
            policy = judge.models(start)[seat].act(start)  # the root's first candidate
            decisions.append({
                "upto": len(start.history), "turn": start.turn_number,
                "policy": str(policy), "level": str(action), "worlds": root.visits,
                "truth": {str(c.action): c.value / c.visits for c in root.children.values()},
            })
        else:
            action = bots[state.current_player()].act(state)
        state.apply(action)
    return {"game": g, "seat": seat, "record": state.record(), "decisions": decisions}


def evaluate_decision(job: tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], int]
                      ) -> list[list[float]]:
    """Each level's true gain over its own rule bot's action on one decision, per run (NaN: the
    level chose an action outside the judged candidates)."""
    record, decision, levels, runs = job
    state = DominionState.from_record(record, upto=decision["upto"])
    truth = decision["truth"]
    base = truth[decision["policy"]]
    out = []
    for level in levels:
        row = []
        for r in range(runs):
            action = str(MCTSBot("dominion", seed=1000 + r, **level).act(state.copy()))
            row.append(truth.get(action, math.nan) - base)
        out.append(row)
    return out


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and measure the ground truth")
    c.add_argument("--level", default="mcts")
    c.add_argument("--opponent", default="smithy")
    c.add_argument("--kingdom", default="first-game")
    c.add_argument("-n", "--games", type=int, default=6)
    c.add_argument("--seed", type=int, default=5000)
    c.add_argument("--worlds", type=int, default=3000)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--before-turn", type=int, default=None, metavar="T",
                   help="judge only the decisions before turn T (both players' turns "
                        "counted; the early game, whose rollouts are long, is the noisy part)")
    c.add_argument("--judge-width", type=int, default=7, metavar="K",
                   help="candidates judged per decision, in the search's order (the level's "
                        "width by default; 0: every legal action, to see what a wider "
                        "search could find)")
    c.add_argument("--out", required=True, type=Path)
    e = sub.add_parser("eval", help="run levels on the collected decisions")
    e.add_argument("file", type=Path)
    e.add_argument("--level", action="append", required=True)
    e.add_argument("--runs", type=int, default=4)
    e.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    try:
        if args.workers < 1:
            raise ConfigError("--workers must be at least 1")
        if args.command == "collect":
            if args.games < 1 or args.worlds < 2:
                raise ConfigError("--games must be at least 1 and --worlds at least 2")
            if args.before_turn is not None and args.before_turn < 1:
                raise ConfigError("--before-turn must be at least 1")
            if args.judge_width < 0:
                raise ConfigError("--judge-width must be 0 (every action) or more")
            level = level_of(args.level, "dominion")
            load_bot(args.opponent, "dominion")
            game_options("dominion", kingdom=args.kingdom).new_game(2, args.seed, ("a", "b"))
            return _collect(args, level)
        if args.runs < 1:
            raise ConfigError("--runs must be at least 1")
        levels = [level_of(text, "dominion") for text in args.level]
        try:
            data = json.loads(args.file.read_text())
            games = data["games"]
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ConfigError(f"{args.file}: not a file written by 'collect' ({err})") from err
        return _evaluate(games, levels, args.runs, args.workers)
    except DominariError as err:
        print(f"decisions: {err}", file=sys.stderr)
        return 2


def _collect(args: argparse.Namespace, level: dict[str, Any]) -> int:
    jobs = [(g, args.seed, level, args.opponent, args.kingdom, args.worlds, args.before_turn,
             args.judge_width) for g in range(args.games)]
    t = time.time()
    with Pool(args.workers) as pool:
        games = sorted(pool.imap_unordered(collect_game, jobs), key=lambda x: x["game"])
    n = sum(len(x["decisions"]) for x in games)
    args.out.write_text(json.dumps({"level": level, "opponent": args.opponent,
                                    "kingdom": args.kingdom, "worlds": args.worlds,
                                    "judge_width": args.judge_width,
                                    "seed": args.seed, "games": games}))
    print(f"{len(games)} games, {n} searched decisions judged with {args.worlds} worlds "
          f"each, in {time.time() - t:.0f} s: {args.out}")
    return 0


def _evaluate(games: list[dict[str, Any]], levels: list[dict[str, Any]], runs: int,
              workers: int) -> int:
    jobs = [(x["record"], d, levels, runs) for x in games for d in x["decisions"]]
    if not jobs:
        raise ConfigError("no decisions to evaluate")
    early = [d["turn"] < EARLY_TURNS for x in games for d in x["decisions"]]
    best = [max(d["truth"].values()) - d["truth"][d["policy"]]
            for x in games for d in x["decisions"]]
    t = time.time()
    with Pool(workers) as pool:
        results = pool.map(evaluate_decision, jobs)
    print(f"{len(jobs)} decisions of {len(games)} games, {runs} runs each, "
          f"{time.time() - t:.0f} s; the best candidate gains "
          f"{sum(best) / len(best):+.4f} a decision over the own rule bot (an upper bound)")
    first: list[float] = []
    for i, level in enumerate(levels):
        gains = [g for res in results for g in res[i]]
        flags = [e for e, res in zip(early, results, strict=True) for _ in res[i]]
        valid = [g for g in gains if not math.isnan(g)]
        m, se = _mean_se(valid)
        e_m, _ = _mean_se([g for g, f in zip(gains, flags, strict=True)
                           if f and not math.isnan(g)] or [0.0])
        l_m, _ = _mean_se([g for g, f in zip(gains, flags, strict=True)
                           if not f and not math.isnan(g)] or [0.0])
        left = sum(1 for g in gains if g != 0.0) / len(gains)  # NaN counts: not the own bot's
        line = (f"{json.dumps(level)}: gain {m:+.4f} ± {se:.4f} a decision (early "
                f"{e_m:+.4f}, late {l_m:+.4f}), regret {sum(best) / len(best) - m:.4f}, "
                f"not the own bot's action in {100 * left:.0f}%")
        if i == 0:
            first = gains
        else:
            d, dse = _mean_se([a - b for a, b in zip(gains, first, strict=True)
                               if not (math.isnan(a) or math.isnan(b))])
            line += f"; against the first: {d:+.4f} ± {dse:.4f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
