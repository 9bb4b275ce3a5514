"""Dominations engine speed: whole games, legal placements (kept frontier vs a full scan),
legal-action enumeration at mid-game positions, placement previews and state copies, and
the greedy bot's win rate against the random one, measured in one run and written to
BENCHMARKS.md.

No other digital Dominations exists, so the comparison made in the same run is against
the obvious alternative the issue rules out: finding legal placements by scanning the
whole board instead of keeping the frontier up to date.

Usage: ``python benchmarks/dominations.py [--quick] [--no-write] [--workers W]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import time
from pathlib import Path
from typing import Any

from dominari.bots.dominations_random import DominationsRandomBot
from dominari.dominations.board import LINK_ALL_SIDES, LINK_LOCUS
from dominari.dominations.data import default_data
from dominari.dominations.engine import GROWTH, DominationsConfig, DominationsState
from dominari.dominations.grid import Cell
from dominari.dominations.notation import PLACE, Action
from dominari.sim import simulate
from dominari.sim.runner import bot_seed
from dominari.sim.stats import wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- dominations:start -->"
END = "<!-- dominations:end -->"


ROUNDS = 4
"""Games are timed in rounds of different seeds; the best round is reported (as ``timeit``
does): this shared machine's speed varies by tens of percent from minute to minute."""


def games_per_second(players: int, games: int) -> tuple[float, float]:
    best = (0.0, 0.0)
    per_round = max(1, games // ROUNDS)
    for r in range(ROUNDS):
        t = time.perf_counter()
        actions = 0
        for seed in range(r * per_round, (r + 1) * per_round):
            s = DominationsState.new(DominationsConfig(players=players, seed=seed, log=False))
            bot = DominationsRandomBot(seed=seed)
            while not s.is_terminal():
                s.apply(bot.act(s))
                actions += 1
        elapsed = time.perf_counter() - t
        if per_round / elapsed > best[0]:
            best = (per_round / elapsed, actions / elapsed)
    return best


def scan_placements(s: DominationsState) -> list[Action]:
    """Legal placements by scanning every filled cell's sides and every corner's ring."""
    board = s.board
    out = []
    for key in sorted(board.slow_open_cells()):
        cell = Cell.from_key(key)
        loci = [c for c, v in enumerate(cell.corners())
                if sum(board.is_filled(x.key) for x in v.cells()) == 5]
        if loci:
            links = [LINK_LOCUS + c for c in loci]
        elif s.rules.all_sides:
            links = [LINK_ALL_SIDES]
        else:
            links = [side for side, n in enumerate(cell.neighbours()) if board.is_filled(n.key)]
        for t in s.players[s.mover].hand:
            for r in range(3):
                out.extend(Action(PLACE, t, key, r, link) for link in links)
    return out


def positions(count: int) -> list[DominationsState]:
    """Growth-phase positions from 4-player random games, early to late."""
    out = []
    seed = 0
    while len(out) < count:
        s = DominationsState.new(DominationsConfig(players=4, seed=seed, log=False))
        bot = DominationsRandomBot(seed=seed)
        rng = random.Random(seed)
        stops = sorted(rng.sample(range(1, 55), 6))
        turn = 0
        while not s.is_terminal() and stops:
            if s.phase == GROWTH and s.turn_number != turn:
                turn = s.turn_number
                if turn >= stops[0]:
                    stops.pop(0)
                    out.append(s.copy())
            s.apply(bot.act(s))
        seed += 1
    return out[:count]


def mid_game(count: int, players: int = 4, age: int = 2, turn: int = 7
             ) -> list[DominationsState]:
    """Every decision of the ``turn``-th player turn of ``age`` (growth, build, develop and
    any pending decision) from seeded random-bot games, until ``count`` positions."""
    out: list[DominationsState] = []
    seed = 0
    while len(out) < count:
        s = DominationsState.new(DominationsConfig(players=players, seed=seed, log=False))
        bots = [DominationsRandomBot(seed=bot_seed(seed, 0, p)) for p in range(players)]
        first = None
        while not s.is_terminal() and s.age <= age:
            if s.age == age and first is None:
                first = s.turn_number
            if first is not None and s.turn_number - first + 1 == turn:
                out.append(s.copy())
            elif first is not None and s.turn_number - first + 1 > turn:
                break
            s.apply(bots[s.current_player()].act(s))
        seed += 1
    return out[:count]


def greedy_vs_random(games: int, workers: int) -> dict[str, Any]:
    """The greedy bot against the random one, 2 players, half the games in each seat
    (through the simulation runner)."""
    first = simulate(["greedy", "random"], games // 2, seed=1, workers=workers,
                     game="dominations")  # fmt: skip
    second = simulate(["random", "greedy"], games - games // 2, seed=2, workers=workers,
                      game="dominations")  # fmt: skip
    n = first.games + second.games
    wins = first.players[0].wins + second.players[1].wins
    vp = first.players[0].total_vp + second.players[1].total_vp
    vp_random = first.players[1].total_vp + second.players[0].total_vp
    return {"games": n, "wins": wins, "rate": wins / n, "ci": wilson(wins, n),
            "vp": vp / n, "vp_random": vp_random / n}


def rate(fn: Any, items: list[Any], repeat: int) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        for x in items:
            fn(x)
    return repeat * len(items) / (time.perf_counter() - t)


def measure(quick: bool, workers: int = 1) -> dict[str, Any]:
    games = 20 if quick else 200
    default_data()  # load and validate the component files before timing
    g2, a2 = games_per_second(2, games)
    g4, a4 = games_per_second(4, games // 2)
    pos = positions(12 if quick else 60)
    for s in pos:
        assert set(s.placements()) == set(scan_placements(s))
    repeat = 3 if quick else 20
    frontier = rate(lambda s: s.placements(), pos, repeat)
    scan = rate(scan_placements, pos, max(1, repeat // 4))
    placements = [s.placements() for s in pos]
    mean_actions = sum(map(len, placements)) / len(placements)
    sample = [(s, random.Random(i).choice(p)) for i, (s, p) in enumerate(zip(pos, placements,
                                                                            strict=True))]
    preview = rate(lambda sp: sp[0].preview(sp[1]), sample, repeat * 5)
    copies = rate(lambda s: s.copy(), pos, repeat * 5)
    middle = mid_game(40 if quick else 200)
    legal = rate(lambda s: s.legal_actions(), middle, repeat)
    mean_legal = sum(len(s.legal_actions()) for s in middle) / len(middle)
    versus = greedy_vs_random(20 if quick else 200, workers)
    return {
        "legal": legal, "legal_positions": len(middle), "mean_legal": mean_legal,
        "versus": versus,
        "games2": g2, "actions2": a2, "games4": g4, "actions4": a4, "n_games": games,
        "frontier": frontier, "scan": scan, "positions": len(pos), "mean_actions": mean_actions,
        "preview": preview, "copy": copies,
    }


def render(r: dict[str, Any]) -> str:
    when = dt.date.today().isoformat()
    return "\n".join([
        f"Measured {when} with `make bench` (`benchmarks/dominations.py`) on {machine()}.",
        "",
        "| what | per second |",
        "|---|---|",
        f"| 2-player games, random bots, whole game, one process ({r['n_games']} games, "
        f"best of {ROUNDS} rounds) | {r['games2']:,.0f} games ({r['actions2']:,.0f} actions) |",
        f"| 4-player games, random bots, whole game, one process ({r['n_games'] // 2} games, "
        f"best of {ROUNDS} rounds) | {r['games4']:,.0f} games ({r['actions4']:,.0f} actions) |",
        f"| all legal placements of a position, kept frontier "
        f"({r['positions']} positions, {r['mean_actions']:.0f} placements on average) "
        f"| {r['frontier']:,.0f} |",
        f"| the same by scanning the whole board (same run) | {r['scan']:,.0f} |",
        f"| **kept frontier ÷ full scan** | **{r['frontier'] / r['scan']:.1f}×** |",
        f"| preview of one placement (itemised production) | {r['preview']:,.0f} |",
        f"| state copy (for search) | {r['copy']:,.0f} |",
        f"| all legal actions at mid-game (4 players, 7th turn of age 2: "
        f"{r['legal_positions']} decisions, {r['mean_legal']:.0f} actions on average) "
        f"| {r['legal']:,.0f} |",
        versus_row(r["versus"]),
        "",
        "A game is every decision of 3 ages: placements, vestigium, cities, monument levels "
        "(with their payments), mastery cards and the order of effects; the random bot builds "
        "or develops four times out of five. No other Dominations engine exists to compare "
        "with, so the kept frontier is compared with a full board scan in the same run.",
    ])


def versus_row(v: dict[str, Any]) -> str:
    lo, hi = v["ci"]
    return (f"| greedy vs random, 2 players, seats swapped ({v['games']} games, win rate, "
            f"mean VP {v['vp']:.1f} vs {v['vp_random']:.1f}) "
            f"| {100 * v['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sample sizes (a smoke run)")
    ap.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    ap.add_argument("--workers", type=int, default=1,
                    help="worker processes for the greedy-vs-random games (default 1)")
    args = ap.parse_args(argv)
    section = render(measure(args.quick, max(1, args.workers)))
    publish("Dominations engine", START, END, section, not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
