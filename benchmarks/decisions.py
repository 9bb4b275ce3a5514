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

``summary`` adds the collected decisions up per game, in points of win rate: what the
level's own choices in those games gained over its own rule bot's, and what the best judged
candidate would have (with ``--judge-width 0``, also the best of the first ``--width`` in
the search's order: what a wider root could add). Summed over a game's decisions, those
gains are the level's whole lead over its own rule bot in the model (the performance
difference lemma: a policy's advantage over another, summed along its own games, is the
difference of their values); on First Game the model's other seat is the opponent itself,
so the sum predicts the match.

``eval`` runs one or more levels ``--runs`` times (seeds 1000 on) on every decision and
prints, per level, the true value gained over the searcher's own rule bot's action per
decision (early: the first 20 turns; late: the rest), the regret against the best
candidate and how often it leaves that action; with two or more levels, each one's paired difference
from the first (the same seeds, the same decisions).

Usage::

    python benchmarks/decisions.py collect -n 6 --worlds 3000 --out /tmp/decisions.json
    python benchmarks/decisions.py collect -n 8 --worlds 1500 --judge-width 0 --out /tmp/all.json
    python benchmarks/decisions.py summary /tmp/all.json --width 7
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
                # in the search's order (the children's): the own bot's action, then the
                # game's order, so a level of width K had the first K as its candidates
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
    m = sub.add_parser("summary", help="the collected decisions' gains, added up per game")
    m.add_argument("file", type=Path)
    m.add_argument("--width", type=int, default=7, metavar="K",
                   help="with a file judged on every legal action: also the best of the "
                        "first K candidates in the search's order (the level's width)")
    e = sub.add_parser("eval", help="run levels on the collected decisions")
    e.add_argument("file", type=Path)
    e.add_argument("--level", action="append", required=True)
    e.add_argument("--runs", type=int, default=4)
    e.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    try:
        if args.command == "collect":
            if args.workers < 1:
                raise ConfigError("--workers must be at least 1")
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
        if args.command == "summary":
            if args.width < 1:
                raise ConfigError("--width must be at least 1")
            return _summary(_read(args.file), args.width)
        if args.workers < 1:
            raise ConfigError("--workers must be at least 1")
        if args.runs < 1:
            raise ConfigError("--runs must be at least 1")
        levels = [level_of(text, "dominion") for text in args.level]
        return _evaluate(_read(args.file)["games"], levels, args.runs, args.workers)
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


def _read(path: Path) -> dict[str, Any]:
    """A file written by ``collect``, checked for what ``summary`` and ``eval`` read."""
    try:
        data = json.loads(path.read_text())
        for x in data["games"]:
            for d in x["decisions"]:
                truth = d["truth"]
                if not (d["policy"] in truth and d["level"] in truth
                        and isinstance(d["turn"], int)):
                    raise ValueError(f"a decision of game {x['game']} lacks its truth")
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ConfigError(f"{path}: not a file written by 'collect' ({err!r})") from err
    return data  # type: ignore[no-any-return]


def _summary(data: dict[str, Any], width: int) -> int:
    games = data["games"]
    wide = data.get("judge_width") == 0
    print(f"{len(games)} games of {json.dumps(data.get('level'))} against "
          f"{data.get('opponent')} on {data.get('kingdom')}, each decision judged with "
          f"{data.get('worlds')} worlds; gains over the own rule bot's action, a decision "
          f"(± a standard error) and summed per game in points of win rate")
    parts = (("early", lambda t: t < EARLY_TURNS), ("late", lambda t: t >= EARLY_TURNS),
             ("all", lambda t: True))
    for name, keep in parts:
        rows = [d for x in games for d in x["decisions"] if keep(d["turn"])]
        if not rows:
            continue
        per_game = len(rows) / len(games)
        columns = [("the level's choices", [d["truth"][d["level"]] for d in rows]),
                   ("the best judged", [max(d["truth"].values()) for d in rows])]
        if wide:  # the truth is in the search's order: the level's candidates come first
            columns.append((f"the best of the first {width}",
                            [max(list(d["truth"].values())[:width]) for d in rows]))
        text = []
        for label, values in columns:
            m, se = _mean_se([v - d["truth"][d["policy"]]
                              for v, d in zip(values, rows, strict=True)])
            text.append(f"{label} {m:+.4f} ± {se:.4f} ({100 * m * per_game:+.1f} points)")
        print(f"{name}: {len(rows)} decisions, {per_game:.1f} a game; " + "; ".join(text))
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
