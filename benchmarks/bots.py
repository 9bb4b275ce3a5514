"""Search bot strength: two-player (and four-player) matches of the search bots against the
best rule bots, with seat rotation and Wilson 95% intervals, plus the time each search
decision takes, written to BENCHMARKS.md.

The matches are issue 6's goals: in Dominion the ``mcts`` level against Smithy-BM on First
Game, against Witch-BM on Size Distortion (a recommended kingdom with Witch) and against
``best`` (each game's kingdom's best rule bot) on random kingdoms, one a game; in
Dominations ``mcts`` against ``greedy`` with 2 players, and against three ``greedy`` bots
with 4; and, for the levels' sake, ``mcts-easy`` against Smithy-BM on First Game and
against ``greedy``. Games run through the tournament runner (seats rotate every game;
results depend on the seed only). Each match's result is kept in
``benchmarks/results/bots.json`` (kept in git: the section is rendered from it) so a match
can be measured again alone (``--only``) without losing the others, and every finished
game is journaled in ``benchmarks/results/journals/`` (in git too) so that a run stopped
part-way (a match takes hours) goes on where it stopped, on a fresh clone too; the journal
is started anew when the code or the level has changed (``--fresh`` forces it).

Usage: ``python benchmarks/bots.py [--only NAME ...] [--games N] [--quick] [--no-write]
[--workers W] [--fresh] [--render] [--retime]`` (``--render`` measures nothing: it writes
the section again from the results file; ``--retime`` times the decisions again and keeps
the games, for a change that makes the search faster without changing a game).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from dominari.bots import load_bot
from dominari.bots.mcts import LEVELS, MCTSBot, describe_level
from dominari.core.errors import ConfigError
from dominari.sim.journal import Journal, JournalError
from dominari.sim.runner import bot_seed, game_options, game_seed, seat_names
from dominari.sim.stats import mean_ci95, wilson
from dominari.sim.tournament import (
    seating,
    tournament,
    tournament_bot_seed,
    tournament_game_seed,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish, speed

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "bots.json"
JOURNALS = ROOT / "benchmarks" / "results" / "journals"
"""Every finished game of a match, as it finishes (:mod:`dominari.sim.journal`): a run
stopped part-way goes on where it stopped when run again."""
START = "<!-- bots:start -->"
END = "<!-- bots:end -->"


@dataclass(frozen=True)
class Match:
    name: str
    game: str
    players: tuple[str, ...]
    kingdom: str | None
    games: int
    goal: float | None
    """The win rate the issue asks of the search bot (the first entry); None where it
    asks none (Dominion with 4 players, and ``mcts-easy``: measured for the players'
    sake)."""
    timed_games: int = 4


SEED = 2026
"""Every match's tournament seed."""
RECHECK = 16
"""Games of a match's journal played again when the code has changed since they were
played: the journal is kept (stamped with the new code) if all come out the same."""

MATCHES = (
    Match("dominion-smithy", "dominion", ("mcts", "smithy"), "first-game", 1000, 0.60),
    Match("dominion-easy", "dominion", ("mcts-easy", "smithy"), "first-game", 1000, None),
    Match("dominion-witch", "dominion", ("mcts", "witch"), "size-distortion", 1000, 0.60),
    Match("dominion-random", "dominion", ("mcts", "best"), "random", 1000, 0.60),
    Match("dominion-4p", "dominion", ("mcts", "best", "best", "best"), "random", 1000, None,
          2),
    Match("dominations-2p", "dominations", ("mcts", "greedy"), None, 1000, 0.75, 2),
    Match("dominations-easy", "dominations", ("mcts-easy", "greedy"), None, 1000, None, 2),
    Match("dominations-4p", "dominations", ("mcts", "greedy", "greedy", "greedy"), None, 1000,
          0.40, 1),
)


OLD_REFERENCE_GAMES_PER_S = 5_360
"""BM-vs-BM First Game games per second in one process on the machine of 2026-11-21
(``make bench``'s steady speed), where the Dominion levels were set (100,000 rollout steps
took 0.2 s a decision), with the code of that day: the machines here are shared and their
speed varies by 2-3 times, so each row's decision times come with the speed of the machine
they were timed on. Rows timed before 2026-11-24 were measured against it."""
PLAYOUT_SPEEDUP = 1.12
"""How much faster the playout of 2026-11-24 plays the same BM-vs-BM games (measured
alternately with the code before it, on one machine)."""
REFERENCE_GAMES_PER_S = round(OLD_REFERENCE_GAMES_PER_S * PLAYOUT_SPEEDUP)
"""The same machine's speed counted with the current playout, so that a percentage stays
a measure of the machine, not of the code; each row records the reference it was timed
against."""


def decision_times(m: Match, games: int, start: int = 0) -> list[float]:
    """Seconds of every decision the search bot made in ``games`` games from game
    ``start`` on (one process)."""
    times: list[float] = []
    options = game_options(m.game, kingdom=m.kingdom)
    n = len(m.players)
    for i in range(start, start + games):
        bots = [load_bot(spec, m.game) for spec in m.players]
        seat = i % n  # the search bot moves round the table
        bots[0], bots[seat] = bots[seat], bots[0]
        for k, b in enumerate(bots):
            b.reset(bot_seed(99, i, k))
        s = options.new_game(n, game_seed(99, i), tuple(f"p{k}" for k in range(n)))
        while not s.is_terminal():
            p = s.current_player()
            if p == seat and len(s.legal_actions()) > 1:
                t = time.perf_counter()
                a = bots[p].act(s)
                times.append(time.perf_counter() - t)
            else:
                a = bots[p].act(s)
            s.apply(a)
    return times


def measure(m: Match, games: int, workers: int, fresh: bool = False) -> dict[str, Any]:
    t = time.perf_counter()
    done = [0]

    def progress(k: int) -> None:
        done[0] += k
        print(f"\r{m.name}: {done[0]}/{games} games", end="", file=sys.stderr, flush=True)

    book = JOURNALS / f"{m.name}.jsonl"
    if fresh:
        book.unlink(missing_ok=True)
    run = partial(tournament, list(m.players), games, seed=SEED, seats=len(m.players),
                  workers=workers, game=m.game, kingdom=m.kingdom, progress=progress,
                  journal=book, recheck=RECHECK)  # fmt: skip
    try:
        r = run()
    except JournalError as e:  # another level, or code that plays other games
        print(f"{e}; starting it anew", file=sys.stderr)
        book.unlink()
        done[0] = 0
        r = run()
    print(file=sys.stderr)
    wall = time.perf_counter() - t
    me = next(s for s in r.players if s.entry == 0)
    others = [s for s in r.players if s.entry != 0]
    return {
        "game": m.game, "players": list(m.players), "kingdom": m.kingdom, "games": me.games,
        "wins": me.wins, "ties": me.ties, "rate": me.win_rate, "ci": list(me.ci95),
        "goal": m.goal, "mean_score": me.mean_score,
        "others_mean_score": sum(o.mean_score for o in others) / len(others),
        **timing(m, m.timed_games if games >= 100 else 1),
        "level": LEVELS[m.game].get(m.players[0]), "own": own_model(m),
        "by_best": by_best(m, me.games),
        "wall_s": wall, "workers": workers, "machine": machine(),
        "date": dt.date.today().isoformat(),
    }  # fmt: skip


def match_game(m: Match, j: int, search: Any = None) -> tuple[Any, list[Any], tuple[int, ...]]:
    """Game ``j`` of match ``m`` as its tournament deals it (seats, seeds, kingdom), with
    new bots (``search``, if given, in the place of the first entry's): the state, the
    bots by seat, reset with the tournament's seeds, and the seating (entries by seat)."""
    entries = tuple(range(len(m.players)))
    seats = seating(entries, j)
    bots = [load_bot(spec, m.game) for spec in m.players]
    if search is not None:
        bots[0] = search
    names = seat_names([b.name for b in bots])
    state = game_options(m.game, kingdom=m.kingdom).new_game(
        len(seats), tournament_game_seed(SEED, entries, j), tuple(names[e] for e in seats))
    table = [bots[e] for e in seats]
    for p, bot in enumerate(table):
        bot.reset(tournament_bot_seed(SEED, entries, j, p))
    return state, table, seats


def by_best(m: Match, games: int) -> dict[str, list[int]]:
    """For a match on random kingdoms, its games grouped by the best rule bot of each
    game's kingdom (what ``best`` played): per bot, ``[games, search bot's outright wins,
    shared wins]``, from the match's journal (its first ``games`` games)."""
    if m.kingdom != "random":
        return {}
    from dominari.bots.kingdom import best_rule_bot
    from dominari.dominion.kingdoms import resolve

    entries = tuple(range(len(m.players)))  # one match-up: every entry at the table
    out: dict[str, list[int]] = {}
    for (_, j), game in sorted(Journal.read(JOURNALS / f"{m.name}.jsonl").known.items()):
        if j >= games:
            continue
        kingdom = resolve("random", tournament_game_seed(SEED, entries, j))
        row = out.setdefault(best_rule_bot(kingdom, len(m.players)), [0, 0, 0])
        row[0] += 1
        if game.ranks[game.seating.index(0)] == 1:
            row[1 if game.ranks.count(1) == 1 else 2] += 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1][0]))


def timing(m: Match, games: int) -> dict[str, Any]:
    """The search bot's decision times in ``games`` games, with the machine's speed as
    they are taken (BM-vs-BM games per second, from a burst before each game: a shared
    machine's speed drifts within minutes) and the day."""
    times: list[float] = []
    played = seconds = 0.0
    for i in range(games):
        burst = speed(500, 1 + 500 * i)
        played += burst["games"]
        seconds += burst["seconds"]
        times += decision_times(m, 1, i)
    times.sort()
    pace = played / seconds
    return {
        "decision_mean_s": sum(times) / len(times) if times else 0.0,
        "decision_p95_s": times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "decision_max_s": times[-1] if times else 0.0, "decisions_timed": len(times),
        "bm_games_per_s": pace, "reference_games_per_s": REFERENCE_GAMES_PER_S,
        "timed": dt.date.today().isoformat(),
    }  # fmt: skip


def retime(m: Match, r: dict[str, Any]) -> dict[str, Any]:
    """A match's result with its decisions timed again by the code as it is now: for a
    change that makes the search faster without changing a game (the journal's games are
    not played again, so the caller must know that they would come out the same). The
    level must be the one the match was played at."""
    level = LEVELS[m.game].get(m.players[0])
    if r.get("level") != level:
        raise ConfigError(f"{m.name} was played at another level ({r.get('level')}, now "
                          f"{level}): measure the match again instead")
    return {**r, **timing(m, m.timed_games)}


def own_model(m: Match) -> str | None:
    """The rule bot that the search bot's searches play its own seat with (in the
    rollouts and outside the tree), when it is not the policy of the other seats."""
    bot = load_bot(m.players[0], m.game)
    if not isinstance(bot, MCTSBot):
        return None
    if m.kingdom == "random":
        return "each kingdom's own model (`dominari.bots.mcts`)"
    state = game_options(m.game, kingdom=m.kingdom).new_game(len(m.players), 1, tuple(
        f"p{k}" for k in range(len(m.players))))
    models = [b.name for b in bot.models(state)]
    me = models.pop(state.current_player())
    return me if me not in models else None


def _pace(r: dict[str, Any]) -> str:
    """The machine's speed as a row's decisions were timed, against the reference's."""
    pace = r.get("bm_games_per_s")
    if not pace:
        return ""  # rows measured before the speed was recorded
    ref = r.get("reference_games_per_s", OLD_REFERENCE_GAMES_PER_S)  # older rows: none
    return f"; machine at {100 * pace / ref:.0f}% of the reference speed"


def _timed(r: dict[str, Any]) -> str:
    """The day the decisions were timed again, where it is not the match's."""
    when = r.get("timed")
    return f", {when}" if when and when != r["date"] else ""


def half_credit(wins: int, ties: int, games: int) -> tuple[float, float, float] | None:
    """The mean score of a 2-player match where a win is 1, a shared win ½ and a loss 0,
    and its 95% interval (Student's t, :func:`~dominari.sim.stats.mean_ci95`: the score
    is not a yes or no, so Wilson's does not apply; with hundreds of games the two agree
    to a tenth of a point); None for fewer than 2 games. The tool's win share
    (``WinShare.win_share_ci95``) widens t's interval to Wilson's of the share where that
    is wider, which at 1,000 games moves the far end by up to 0.2 points; the table keeps
    t's, as published (no match of record has games all alike, where t's is a point).

    >>> [round(100 * x, 1) for x in half_credit(1535, 94, 2600)]
    [60.8, 59.0, 62.7]
    >>> half_credit(1, 0, 1) is None
    True
    """
    interval = mean_ci95(wins + ties / 2, wins + ties / 4, games)  # the scores, squares
    if interval is None:
        return None
    lo, hi = interval
    return (wins + ties / 2) / games, max(0.0, lo), min(1.0, hi)


def _status(lo: float, hi: float, goal: float | None) -> str:
    """A goal's status for an interval: met, not met or open ("" without a goal)."""
    if goal is None:
        return ""
    return "met" if lo >= goal else ("not met" if hi < goal else "open")


def _half_cell(r: dict[str, Any]) -> str:
    """The table's cell for a shared win counted as ½ (2-player matches only: with more
    players a win is shared two or three ways, which the totals do not say)."""
    if len(r["players"]) != 2 or not r["games"]:
        return "—"
    credit = half_credit(r["wins"], r["ties"], r["games"])
    if credit is None:
        return "—"
    mean, lo, hi = credit
    met = _status(lo, hi, r["goal"])
    return f"{100 * mean:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]{f' ({met})' if met else ''}"


def render(results: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| match | games | search bot wins | win rate [95% CI] | goal | a shared win as ½ "
        "[95% CI] | mean score (search vs others) | s per search decision: mean / p95 / "
        "max | machine, date |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for m in MATCHES:
        r = results.get(m.name)
        if r is None:
            continue
        lo, hi = r["ci"]
        where = f" ({r['kingdom']})" if r["kingdom"] else ""
        shared = f" (+{r['ties']} shared)" if r["ties"] else ""
        goal = r["goal"]
        met = _status(lo, hi, goal)
        lines.append(
            f"| {' vs '.join(r['players'])}{where} | {r['games']} | {r['wins']}{shared} "
            f"| {100 * r['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
            f"| {f'≥ {100 * goal:.0f}% ({met})' if goal else '—'} | {_half_cell(r)} "
            f"| {r['mean_score']:.1f} vs {r['others_mean_score']:.1f} "
            f"| {r['decision_mean_s']:.3f} / {r['decision_p95_s']:.3f} / "
            f"{r['decision_max_s']:.3f} ({r['decisions_timed']} timed{_pace(r)}"
            f"{_timed(r)}) "
            f"| {r['machine'].split(',')[0]}, {r['workers']} workers, {r['date']} |")
    for m in MATCHES:
        r = results.get(m.name)
        if r is None or not r.get("by_best"):
            continue
        lines += ["", f"{' vs '.join(r['players'])} ({r['kingdom']}), by the best rule bot "
                  "of each game's kingdom (what `best` played):", "",
                  "| best rule bot | games | search bot wins | win rate [95% CI] |",
                  "|---|---|---|---|"]
        for name, (n, won, tied) in r["by_best"].items():
            lo, hi = wilson(won, n)
            shared = f" (+{tied} shared)" if tied else ""
            lines.append(f"| {name} | {n} | {won}{shared} | {100 * won / n:.1f}% "
                         f"[{100 * lo:.1f}, {100 * hi:.1f}] |")
    levels = [f"{r['players'][0]} in {m.name}: {describe_level(r['level'], r.get('own'))}"
              for m in MATCHES
              if (r := results.get(m.name)) is not None and r.get("level")]
    if levels:
        lines += ["", "Search level as measured: " + "; ".join(levels) + "."]
    lines += [
        "",
        "Command: `make bench-bots` (`python benchmarks/bots.py`; `--only NAME` measures "
        "one match again). Games go through `dominari.sim.tournament` with seats rotated "
        "every game; the interval is Wilson's. \"met\" means the whole interval is above the "
        "goal, \"not met\" that it is below, \"open\" that it straddles it. The goal "
        "counts a win won outright; \"a shared win as ½\" is the mean score with a win "
        "worth 1, a shared win ½ and a loss 0 (Student's t interval), the goal judged by "
        "it the same way. Decision "
        "times are measured apart, in one process, on the decisions where the bot had a "
        "choice; the machine's speed beside them is its BM-vs-BM games per second at the "
        f"time, against the {REFERENCE_GAMES_PER_S:,} of the machine the levels were set "
        f"on (2026-11-21), counted with the current playout (that machine played "
        f"{OLD_REFERENCE_GAMES_PER_S:,} with the code of the day; the playout of 2026-11-24 "
        f"is {PLAYOUT_SPEEDUP} times as fast). Rows timed before 2026-11-24 were measured "
        f"against {OLD_REFERENCE_GAMES_PER_S:,} with the code then.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=[m.name for m in MATCHES], default=None,
                    help="measure these matches only (the others keep their last result)")
    ap.add_argument("--games", type=int, default=None,
                    help="games per match (default: 1000, the issue's minimum)")
    ap.add_argument("--quick", action="store_true", help="20 games per match (a smoke run)")
    ap.add_argument("--no-write", action="store_true",
                    help="print, do not edit BENCHMARKS.md or the results file")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--fresh", action="store_true",
                    help="play every game again (by default the games a stopped run left in "
                    "benchmarks/results/journals/ are reused)")  # fmt: skip
    ap.add_argument("--render", action="store_true",
                    help="measure nothing: write the section again from the results file")
    ap.add_argument("--retime", action="store_true",
                    help="time the decisions again without playing the games (after a change "
                    "that makes the search faster and leaves every game as it was)")
    args = ap.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    if RESULTS.exists():
        results = json.loads(RESULTS.read_text(encoding="utf-8"))
    elif args.render:
        print(f"bots.py: error: no results file {RESULTS} to render", file=sys.stderr)
        return 2
    for m in MATCHES:
        if args.render or (args.only is not None and m.name not in args.only):
            continue
        if args.retime:
            if m.name not in results:
                print(f"bots.py: error: {m.name} has no result to time again",
                      file=sys.stderr)
                return 2
            try:
                r = retime(m, results[m.name])
            except ConfigError as e:
                print(f"bots.py: error: {e}", file=sys.stderr)
                return 2
        else:
            games = 20 if args.quick else (args.games or m.games)
            r = measure(m, games, max(1, args.workers), args.fresh)
        print(json.dumps({m.name: r}), flush=True)
        if not args.no_write and not args.quick:
            results[m.name] = r
            RESULTS.parent.mkdir(parents=True, exist_ok=True)
            RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    section = render(results)
    publish("Search bots", START, END, section, not args.no_write and not args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
