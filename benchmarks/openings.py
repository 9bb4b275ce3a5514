"""Openings on First Game against Smithy-BM: which is best, and which the search plays.

The Dominion search's first two buys are its noisiest decisions: a rollout from the first
turn is a whole game, so the level races a few hundred worlds, and a difference of a few
points between two openings is within their noise. Rule bots settle it: each variant is
Smithy-Market (the search's own model on First Game) with one rule before its own, taken
only on the first two turns, played against Smithy-BM on the same deals (seed 11, seats
rotating). A variant changes only the games whose opening it changes (5/2 or 2/5: a sixth
of them; 4/3 or 3/4: the rest), so the difference to Smithy-Market is counted in those.

``--level`` then asks the search level what it buys on its first turn with 5 or 4 coins, on
that many deals of its own (seeds 1 on, the deals whose first hand has those coins), each
search a fresh bot seeded by the deal, with the opening book off (``book=no``: the
search's own answer).

What the rule bots found is the opening book's line for First Game
(``src/dominari/bots/opening-book.toml``), which the levels ``mcts`` and ``mcts-hard`` play.
``--apply MATCH ...`` puts the book into the journals of the Dominion matches of record
(``benchmarks/bots.py``) without playing them all again. The search runs at a book
decision all the same, so its random numbers stay those of the game without the book: a
game whose buys the book does not change is the journal's game (``--verify K`` plays K
of them to the end to show it). Only the games of a kingdom that the book has a line
for are played, up to the searcher's third turn, and only those whose buys it changed
are played out; their results replace the journal's. ``benchmarks/bots.py --only MATCH``
then plays 16 of the journal's games again at random, finds them as the journal has
them, and stamps the journal with the code as it is now.

    python benchmarks/openings.py --level 40         # about 7 minutes on 2 cores
    python benchmarks/openings.py --games 0 --apply dominion-smithy --verify 10 \\
        --out benchmarks/results/pilots/opening-book.jsonl    # about 45 minutes
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

from dominari.bots import load_bot
from dominari.bots.base import playing
from dominari.bots.book import default_book
from dominari.bots.mcts import LEVELS, mcts_bot
from dominari.bots.strategy import read_strategy
from dominari.dominion.cards import NAME
from dominari.sim.journal import GameResult, Journal
from dominari.sim.runner import game_options, play_game, simulate, turn_order

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import JOURNALS, MATCHES, match_game  # benchmarks/ is not a package: on the path
from expert import _result

OWN = Path(__file__).resolve().parent.parent / "src/dominari/bots/strategies/smithy-market.toml"

VARIANTS: dict[str, tuple[str, str] | None] = {
    "Smithy-Market (Smithy/Silver, Smithy on 5/2)": None,
    "Silver/Silver, then Smithy-Market": ("Silver", "turn <= 2 and coins < 5"),
    "Militia/Silver": ("Militia", "turn <= 2 and coins == 4 and count('Militia') < 1"),
    "Remodel/Silver": ("Remodel", "turn <= 2 and coins == 4 and count('Remodel') < 1"),
    "Smithy/Moat": ("Moat", "turn <= 2 and coins == 3 and count('Smithy') > 0"),
    "Mine on 5/2": ("Mine", "turn <= 2 and coins == 5"),
    "Market on 5/2": ("Market", "turn <= 2 and coins == 5"),
    "Militia on 5/2": ("Militia", "turn <= 2 and coins == 5"),
    "Smithy/Cellar on 5/2": ("Cellar", "turn <= 2 and coins == 2"),
    "Smithy/Moat on 5/2": ("Moat", "turn <= 2 and coins == 2"),
}
"""Name → the rule put before Smithy-Market's buy rules (card, condition), or None."""

LATER: dict[str, tuple[str, str]] = {
    "a Mine at 5 (not a Market or the Smithy)": ("Mine", "coins == 5 and count('Mine') < 1"),
    "a Silver at 5": ("Silver", "coins == 5"),
    "a second Smithy at 5": ("Smithy", "coins == 5 and count('Smithy') < 2"),
    "a Militia at 5": ("Militia", "coins == 5 and count('Militia') < 1"),
    "a Market at 6 (not a Gold)": ("Market", "coins == 6"),
    "a Militia at 4 (not a Silver)": ("Militia", "coins == 4 and count('Militia') < 1"),
    "a second Smithy at 4": ("Smithy", "coins == 4 and count('Smithy') < 2"),
    "a Cellar at 2 (not nothing)": ("Cellar", "coins == 2 and count('Cellar') < 1"),
}
"""The third and fourth turns (after the first shuffle): the rule, taken on those turns."""


def variant_file(rule: tuple[str, str] | None, folder: Path, k: int) -> Path:
    """Smithy-Market with ``rule`` first, written as a strategy file in ``folder``."""
    text = OWN.read_text()
    if rule is not None:
        head, sep, rest = text.partition("[[buy]]")
        card, when = rule
        text = f'{head}[[buy]]\ncard = "{card}"\nwhen = "{when}"\n\n{sep}{rest}'
    path = folder / f"opening-{k}.toml"
    path.write_text(text)
    read_strategy(path)  # a malformed rule fails here, with its message
    return path


def rule_bots(games: int, seed: int, workers: int) -> None:
    print(f"Each variant against Smithy-BM on First Game, {games:,} games, seed {seed}, "
          "seats rotating; the difference from Smithy-Market over all games and, for an "
          "opening, over the games of that split of coins.")
    print()
    print("| variant | won outright | shared | a shared win as ½ | outright, against "
          "Smithy-Market: all games | in the games of its opening |")
    print("|---|---|---|---|---|---|")
    later = {f"turns 3–4: {name}": (card, f"turn >= 3 and turn <= 4 and {when}")
             for name, (card, when) in LATER.items()}
    base = 0
    with tempfile.TemporaryDirectory() as folder:
        for k, (name, rule) in enumerate({**VARIANTS, **later}.items()):
            path = variant_file(rule, Path(folder), k)
            r = simulate([str(path), "smithy"], games, seed, workers, kingdom="first-game")
            won, shared = r.players[0].wins, r.players[0].ties
            if rule is None:
                base = won
                diff = within = "—"
            else:  # 5/2 and 2/5 come in 42 of 252 first hands, 4/3 and 3/4 in the rest
                diff = f"{100 * (won - base) / games:+.2f} points"
                share = 42 / 252 if "5/2" in name else 210 / 252
                within = ("" if name.startswith("turns") else
                          f"{100 * (won - base) / (games * share):+.1f} points")
            print(f"| {name} | {100 * won / games:.2f}% | {100 * shared / games:.2f}% | "
                  f"{100 * (won + shared / 2) / games:.2f}% | {diff} | {within} |", flush=True)


def level_choices(level: str, deals: int, coins: int) -> Counter[str]:
    """What ``level`` buys on its first turn with ``coins`` coins, over ``deals`` deals."""
    options = game_options("dominion", kingdom="first-game")
    model = load_bot("smithy-market", "dominion")
    found: Counter[str] = Counter()
    seed = 0
    while sum(found.values()) < deals:
        seed += 1
        state = options.new_game(2, seed, ("search", "smithy"))
        while state.phase != 1 or state.stack:  # the Treasures played: the first buy
            state.apply(model.act(state))
        if state.coins != coins:
            continue
        booked = LEVELS["dominion"].get(level.partition(":")[0], {}).get("book")
        bot = mcts_bot(f"{level}:book=no" if booked and "book=" not in level else level,
                       "dominion")  # the search's own buy, not the book's
        bot.reset(seed)
        action = bot.act(state)
        found[NAME[action.cards[0]] if action.cards else "nothing"] += 1
    return found


DOMINION = {m.name: m for m in MATCHES if m.game == "dominion"}
"""The Dominion matches of record (``benchmarks/bots.py``), by name."""


def apply_game(job: tuple[str, int, bool]) -> tuple[int, bool, GameResult | None]:
    """Game ``j`` of match ``name`` with the level as it is now, book and all: (j, whether
    the book changed a buy, the game's result). A game the book cannot change (no line
    for its kingdom and players, or none of its buys changed by the end of the book's
    turns) is not played on, and its result is None, unless ``full``."""
    name, j, full = job
    state, table, seats = match_game(DOMINION[name], j)
    order = tuple(turn_order(state))  # drawn at the deal
    me = seats.index(0)
    search = table[me]
    book = default_book()
    if book.for_game(state):
        players = [playing(b, state) for b in table]
        while not state.is_terminal() and state.players[me].turns <= book.turns:
            state.apply(players[state.current_player()].act(state))
    changed = search.book_moves > 0
    if not (changed or full):
        return j, False, None
    play_game(table, state)
    out = state.outcome()
    assert out is not None
    return j, changed, GameResult(seats, tuple(out.ranks), tuple(out.scores), out.reason,
                                  order)  # fmt: skip


def apply(name: str, verify: int, workers: int, out: Path | None) -> None:
    """Put the opening book into the journal of the match of record ``name``: every game
    that the book changes is played again with it and replaces the journal's; ``verify``
    games that it does not change are played to the end, and must come out as the
    journal has them. With ``out``, one JSON line a game: ``[game, changed, won outright,
    shared, before: won outright, shared]`` (the search bot's)."""
    journal = Journal.read(JOURNALS / f"{name}.jsonl")
    known = {j: g for (_, j), g in journal.known.items()}
    deals = len(known)
    new: dict[int, GameResult] = {}
    unchanged: list[int] = []
    won = shared = old_won = old_shared = only_new = only_old = same = 0
    with Pool(workers) as pool, out.open("w") if out else contextlib.nullcontext() as lines:
        jobs = [(name, j, False) for j in sorted(known)]
        for j, changed, game in pool.imap(apply_game, jobs, chunksize=4):
            old = known[j]
            ow, osh = _result(old.ranks, old.seating.index(0))
            w, sh = (ow, osh) if game is None else _result(game.ranks, game.seating.index(0))
            if game is None:
                unchanged.append(j)
            else:
                new[j] = game
                only_new += w and not ow
                only_old += ow and not w
            if lines is not None:
                lines.write(json.dumps([j, int(changed), w, sh, ow, osh]) + "\n")
            won, shared = won + w, shared + sh
            old_won, old_shared = old_won + ow, old_shared + osh
            print(f"\r{name}: {j + 1}/{deals} games, {len(new)} changed", end="",
                  file=sys.stderr, flush=True)
        print(file=sys.stderr)
        checks = [(name, j, True) for j in unchanged[:verify]]
        for j, _changed, game in pool.imap(apply_game, checks):
            if not game.same(known[j]):
                raise SystemExit(f"openings.py: game {j} of {name}, which the book does not "
                                 f"change, is not the journal's game: {game} here, "
                                 f"{known[j]} there")
            same += 1
    if new:  # the one match-up's games, its key kept: bots.py rechecks and stamps it
        journal.rewrite({(0, j): game for j, game in new.items()})
    print(f"{name}: {deals} games; the book changed {len(new)} of them (journal "
          f"{'patched' if new else 'unchanged'})")
    print(f"with the book: {won} won outright ({100 * won / deals:.1f}%), {shared} shared; "
          f"before: {old_won} ({100 * old_won / deals:.1f}%), {old_shared} shared")
    print(f"won only with the book {only_new}, only before {only_old}: "
          f"{100 * (only_new - only_old) / deals:+.2f} ± "
          f"{100 * (only_new + only_old) ** 0.5 / deals:.2f} points (one standard error)")
    if verify:
        print(f"{same} games the book does not change, played to the end: the journal's")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games a variant (0: none)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--level", type=int, default=0, metavar="DEALS",
                    help="also ask the search level its first buy on this many deals each")
    ap.add_argument("--name", default="mcts", help="the search level asked (default mcts)")
    ap.add_argument("--apply", nargs="+", default=[], choices=list(DOMINION), metavar="MATCH",
                    help="put the opening book into these matches' journals (the games "
                         "it changes played again): " + ", ".join(DOMINION))
    ap.add_argument("--out", type=Path,
                    help="with one --apply match: a JSON line a game, to this file")
    ap.add_argument("--verify", type=int, default=0, metavar="K",
                    help="with --apply: play K games the book does not change to the end, "
                         "as a check")
    args = ap.parse_args(argv)
    if min(args.games, args.level, args.verify) < 0:
        ap.error("--games, --level and --verify take 0 or more")
    if args.out is not None and len(args.apply) != 1:
        ap.error("--out takes the games of one --apply match")
    if args.games:
        rule_bots(args.games, args.seed, args.workers)
    if args.level:
        print()
        for coins in (5, 4):
            found = level_choices(args.name, args.level, coins)
            told = ", ".join(f"{card} {k}" for card, k in found.most_common())
            print(f"{args.name}, first turn with {coins} coins, {args.level} deals: {told}",
                  flush=True)
    for name in args.apply:
        apply(name, args.verify, args.workers, args.out)


if __name__ == "__main__":
    main()
