"""Where does the Dominion search leave its own model's buy? Data for a better model.

The search's rollouts play its own seat with a rule bot (:meth:`MCTSBot.models`: on First
Game, Smithy-Market). The search itself plays better than that bot, so a rule bot (or a
learned one) that buys more as the search buys would model its future better: expert
iteration. This plays a level against a rule bot (seeds ``--seed`` on, seats rotating, as
``benchmarks/pilot.py`` does) and writes one JSON line for every searched buy: the
position's features, the own model's buy and the level's, and the game's result for the
searcher (on the game's last line). It then prints how often the level left the model's
buy, and the commonest (model, level) pairs, early (turns < 20) and late.

Usage::

    python benchmarks/deviations.py -n 40 --out /tmp/deviations.jsonl
    python benchmarks/deviations.py --summary /tmp/deviations.jsonl   # print only

Lines are appended as games finish, so a stopped run keeps its games (``--out`` is opened
for appending; a game's lines are written together).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot
from dominari.core.errors import ConfigError, DominariError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionState
from dominari.sim.runner import game_options

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decisions import EARLY_TURNS, _searched  # benchmarks/ is not a package: on the path
from pilot import level_of


def _card(action: Any) -> str:
    return C.NAME[action.cards[0]] if action.cards else "end"


def features(state: DominionState, me: int) -> dict[str, Any]:
    """What a buy rule could look at: the searcher's deck and the race, by name."""
    mine, theirs = state.players[me], state.players[1 - me]

    def deck(owned: list[int]) -> dict[str, int]:
        return {C.NAME[c]: n for c, n in enumerate(owned) if n}

    return {
        "turn": state.turn_number, "coins": state.coins, "buys": state.buys,
        "provinces_left": state.supply[C.PROVINCE],
        "vp_lead": state.score(me) - state.score(1 - me),
        "mine": deck(mine.owned), "theirs": deck(theirs.owned),
    }  # fmt: skip


def searched_game(g: int, seed: int, level: dict[str, Any], opponent: str, kingdom: str,
                  line: Callable[[DominionState, int, MCTSBot, Any, Any], dict[str, Any]],
                  own: Any = None) -> list[dict[str, Any]]:
    """One game of the level (its own seat played by ``own`` if given) against the rule
    bot, seed ``seed + g``, the search in seat ``g % 2``: ``line(state, seat, search,
    model's action, level's action)`` for each searched buy, the game's result for the
    searcher on the last line."""
    seat = g % 2
    state = game_options("dominion", kingdom=kingdom).new_game(2, seed + g, ("a", "b"))
    bots: list[Any] = [load_bot(opponent, "dominion") for _ in range(2)]
    search = bots[seat] = MCTSBot("dominion", seed=seed + g, **level)
    if own is not None:
        search._own = own
    for i, b in enumerate(bots):
        b.reset(seed + g + 1000 * (i + 1))
    lines = []
    while not state.is_terminal():
        if _searched(state, seat):
            model = search.models(state)[seat].act(state)
            action = search.act(state)
            lines.append({"game": seed + g, "seat": seat,
                          **line(state, seat, search, model, action)})
        else:
            action = bots[state.current_player()].act(state)
        state.apply(action)
    out = state.outcome()
    assert out is not None
    result = ("win" if out.ranks[seat] == 1 and list(out.ranks).count(1) == 1
              else "shared" if out.ranks[seat] == 1 else "loss")
    if lines:
        lines[-1]["result"] = result
    return lines


def play(job: tuple[int, int, dict[str, Any], str, str]) -> list[dict[str, Any]]:
    """One game of the level against the rule bot: a line for each searched buy."""
    def line(state: DominionState, seat: int, search: MCTSBot, model: Any,
             action: Any) -> dict[str, Any]:
        return {**features(state, seat), "model": _card(model), "level": _card(action)}

    return searched_game(*job, line)


def summary(rows: list[dict[str, Any]]) -> str:
    """How often the level left its model's buy, and the commonest pairs, early and late."""
    if not rows:
        return "no searched buys"
    out = []
    for name, part in (("early", [r for r in rows if r["turn"] < EARLY_TURNS]),
                       ("late", [r for r in rows if r["turn"] >= EARLY_TURNS])):
        left = [r for r in part if r["model"] != r["level"]]
        share = 100 * len(left) / len(part) if part else 0.0
        out.append(f"{name}: {len(part)} buys, the level left its model's in {len(left)} "
                   f"({share:.0f}%)")
        for (model, level), n in Counter((r["model"], r["level"]) for r in left).most_common(8):
            out.append(f"  {n:4d}  {model} -> {level}")
    games = [r["result"] for r in rows if "result" in r]
    out.append(f"{len(games)} games: {games.count('win')} won, {games.count('shared')} "
               f"shared, {games.count('loss')} lost")
    return "\n".join(out)


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, ValueError) as e:
        raise ConfigError(f"{path}: not a file written by deviations.py ({e})") from e


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="mcts", help="a level name or a JSON object of "
                    "MCTSBot arguments (default mcts)")
    ap.add_argument("--opponent", default="smithy")
    ap.add_argument("--kingdom", default="first-game")
    ap.add_argument("-n", "--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=6000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, help="the JSON-lines file to append to")
    ap.add_argument("--summary", type=Path, metavar="FILE",
                    help="play nothing: summarize a file written before")
    args = ap.parse_args(argv)
    try:
        if args.summary is not None:
            print(summary(_read(args.summary)))
            return 0
        if args.out is None:
            raise ConfigError("give --out FILE to write to (or --summary FILE)")
        if args.games < 1 or args.workers < 1:
            raise ConfigError("--games and --workers must be at least 1")
        level = level_of(args.level, "dominion")
        load_bot(args.opponent, "dominion")
        game_options("dominion", kingdom=args.kingdom).new_game(2, args.seed, ("a", "b"))
    except DominariError as e:
        print(f"deviations: {e}", file=sys.stderr)
        return 2
    jobs = [(g, args.seed, level, args.opponent, args.kingdom) for g in range(args.games)]
    rows: list[dict[str, Any]] = []
    with Pool(args.workers) as pool, args.out.open("a") as f:
        for lines in pool.imap_unordered(play, jobs):
            f.write("".join(json.dumps(x) + "\n" for x in lines))
            f.flush()
            rows += lines
            print(f"\r{sum('result' in r for r in rows)}/{args.games} games", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
