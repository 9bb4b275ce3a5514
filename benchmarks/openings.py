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
search a fresh bot seeded by the deal.

``--record N`` plays deals 0 to N - 1 of the First Game match of record (``benchmarks/bots.py
--only dominion-smithy``: the same deals, seats and seeds) with the level and an opening
book (:class:`BookBot`: a Mine with 5 coins, else Smithy-Market's buy, on its first two
turns) and compares each with the journaled game. The book bot still searches at the
book's decisions, so its random numbers stay those of the level's game: a deal whose
opening the book does not change is the journal's game, stopped once the searcher's third
turn begins (``--verify K`` plays K of them to the end to show it), and only the others
are played out.

    python benchmarks/openings.py --level 40         # about 7 minutes on 2 cores
    python benchmarks/openings.py --games 0 --record 2600 --verify 10 \\
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
from typing import Any

from dominari.bots import load_bot
from dominari.bots.mcts import LEVELS, MCTSBot, mcts_bot
from dominari.bots.strategy import read_strategy
from dominari.dominion.actions import BUY_A, Action
from dominari.dominion.cards import MINE, NAME
from dominari.sim.runner import game_options, simulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expert import _journal, _result, match_deal  # benchmarks/ is not a package: on the path

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
        bot = mcts_bot(level, "dominion")
        bot.reset(seed)
        action = bot.act(state)
        found[NAME[action.cards[0]] if action.cards else "nothing"] += 1
    return found


class BookBot(MCTSBot):
    """A Dominion search level whose buys on its first two turns come from the opening
    book: a Mine with 5 coins where the kingdom has one, else its own model's buy
    (Smithy-Market on First Game). It searches those decisions all the same, and throws
    the answer away, so that its random numbers afterwards are the level's; ``changed``
    says whether the book overruled the search."""

    def __init__(self, level: dict[str, Any]) -> None:
        super().__init__("dominion", **level)
        self.changed = False

    def act(self, state: Any) -> Any:
        action = super().act(state)
        me = state.current_player()
        if state.phase == 1 and not state.stack and state.players[me].turns <= 2:
            if state.coins == 5 and state.supply[MINE] > 0:
                book: Action = BUY_A[MINE]
            else:
                book = self.models(state)[me].act(state)
            if book != action:
                self.changed = True
                return book
        return action


def record_game(job: tuple[int, bool]) -> tuple[int, bool, int, int]:
    """Deal ``j`` of the match of record with the book bot: (j, changed, won outright,
    shared); an unchanged deal is stopped at the searcher's third turn (0, 0) unless
    ``full``."""
    j, full = job
    search = BookBot(dict(LEVELS["dominion"]["mcts"]))
    state, table, me = match_deal(j, search)
    while not state.is_terminal():
        state.apply(table[state.current_player()].act(state))
        if not (full or search.changed) and state.players[me].turns > 2:
            return j, False, 0, 0
    out = state.outcome()
    assert out is not None
    return (j, search.changed, *_result(out.ranks, me))


def record(deals: int, verify: int, workers: int, out: Path | None) -> None:
    """Deals 0 to ``deals`` - 1 with the book, each compared with the journal's game; with
    ``out``, one JSON line a deal: ``[deal, changed, won outright, shared, the level won
    outright, the level shared]``."""
    book = {j: _result(ranks, seats.index(0)) for j, (seats, ranks) in _journal(
        "dominion-smithy").items()}
    if deals > len(book):
        raise SystemExit(f"openings.py: error: --record takes at most {len(book)} deals, the "
                         "games of the journal")
    changed = won = shared = old_won = old_shared = only_new = only_old = same = 0
    unchanged: list[int] = []
    with Pool(workers) as pool, out.open("w") if out else contextlib.nullcontext() as lines:
        for j, moved, w, sh in pool.imap_unordered(record_game,
                                                   [(j, False) for j in range(deals)]):
            ow, osh = book[j]
            if not moved:  # the journal's game
                unchanged.append(j)
                w, sh = ow, osh
            if lines is not None:
                lines.write(json.dumps([j, int(moved), w, sh, ow, osh]) + "\n")
                lines.flush()
            old_won += ow
            old_shared += osh
            if moved:
                changed += 1
                only_new += w and not ow
                only_old += ow and not w
            won += w
            shared += sh
        checks = [(j, True) for j in sorted(unchanged)[:verify]]
        for j, _moved, w, sh in pool.imap(record_game, checks):  # each the journal's game
            if (w, sh) != book[j]:
                raise SystemExit(f"openings.py: deal {j} is not the journal's game")
            same += 1
    print(f"{deals} deals of the match of record: the book changed the opening of {changed}")
    print(f"with the book: {won} won outright ({100 * won / deals:.1f}%), {shared} shared; "
          f"the level: {old_won} ({100 * old_won / deals:.1f}%), {old_shared} shared")
    print(f"won only with the book {only_new}, only by the level {only_old}: "
          f"{100 * (only_new - only_old) / deals:+.2f} ± "
          f"{100 * (only_new + only_old) ** 0.5 / deals:.2f} points (one standard error)")
    if verify:
        print(f"{same} deals the book does not change, played to the end: the journal's games")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games a variant (0: none)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--level", type=int, default=0, metavar="DEALS",
                    help="also ask the search level its first buy on this many deals each")
    ap.add_argument("--name", default="mcts", help="the search level asked (default mcts)")
    ap.add_argument("--record", type=int, default=0, metavar="DEALS",
                    help="play the match of record's first DEALS deals with the book")
    ap.add_argument("--out", type=Path, help="with --record: a JSON line a deal, to this file")
    ap.add_argument("--verify", type=int, default=0, metavar="K",
                    help="with --record: play K unchanged deals to the end as a check")
    args = ap.parse_args(argv)
    if min(args.games, args.level, args.record, args.verify) < 0:
        ap.error("--games, --level, --record and --verify take 0 or more")
    if args.games:
        rule_bots(args.games, args.seed, args.workers)
    if args.level:
        print()
        for coins in (5, 4):
            found = level_choices(args.name, args.level, coins)
            told = ", ".join(f"{card} {k}" for card, k in found.most_common())
            print(f"{args.name}, first turn with {coins} coins, {args.level} deals: {told}",
                  flush=True)
    if args.record:
        record(args.record, args.verify, args.workers, args.out)


if __name__ == "__main__":
    main()
