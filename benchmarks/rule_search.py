"""Search a family of rule bots for one that beats Smithy-BM on First Game (issue 6).

The Dominion search plays its own seat in its rollouts with a rule bot (Smithy-Market), and
a better one would lift the search with it. Single changes to Smithy-Market were tried one
at a time (BENCHMARKS.md, "Search bots"); this script changes many at once: a money deck
with a few Actions, described by 12 settings (when to green, how many Smithies, Markets
and Militias and where they stand among the buys, a Moat, a Mine, a Village), searched at
random, then locally around the best, then the best 16 and Smithy-Market are played again
on 20,000 common deals (seed 11, as every rule bot in BENCHMARKS.md). Results count a shared
win as half a win.

``--family engine`` searches Village/Smithy engines instead (16 settings: at least 3 to 7
Villages, Smithies per Village, Markets, Militias, a Remodel, a Cellar, Workshops, capped
Gold and Silver, when to start on Provinces, among them only with 16 coins and 2 Buys): the
"First Game engine" that is said to beat Smithy-BM, written as buy rules.

    python benchmarks/rule_search.py                 # about 25 minutes on 2 cores
    python benchmarks/rule_search.py --family engine # about 5 minutes
    python benchmarks/rule_search.py --random 40 --rounds 1 --games 1000 --final 2000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from multiprocessing import Pool
from pathlib import Path
from typing import Any

Config = dict[str, Any]

SPACE: dict[str, list[Any]] = {
    "province": [13, 14, 15, 16, 17],   # a Province when total_money > this
    "duchy": [3, 4, 5],                 # a Duchy over Gold at this few Provinces left
    "estate": [1, 2, 3],                # an Estate at this few
    "duchy_late": [5, 6, 7],            # a Duchy over Silver and Actions at this few
    "smithy": ["one", "two", "per 9", "per 11", "per 13", "one + per 16"],
    "market": [0, 1, 2, 3, 99],         # at most this many Markets
    "market_first": [False, True],      # the first Market over Gold, once a Smithy is in
    "militia": [0, 1, 2],
    "militia_at": ["before Smithy", "after Smithy", "after Market"],
    "militia_gate": ["any", "after a Smithy"],
    "moat": [0, 1],                     # a Moat with 2 coins before the late game
    "mine": [0, 1],                     # a Mine in place of a Market before the late game
    "village": [0, 1],                  # a Village once two terminals are in
}

SMITHY_MARKET: Config = {"province": 15, "duchy": 4, "estate": 2, "duchy_late": 6,
                         "smithy": "one", "market": 99, "market_first": False, "militia": 0,
                         "militia_at": "after Smithy", "militia_gate": "any", "moat": 0,
                         "mine": 0, "village": 0}  # fmt: skip

SMITHIES = {"one": "count('Smithy') < 1", "two": "count('Smithy') < 2",
            "per 9": "count('Smithy') < count_treasures / 9",
            "per 11": "count('Smithy') < count_treasures / 11",
            "per 13": "count('Smithy') < count_treasures / 13",
            "one + per 16": "count('Smithy') < 1 + count_treasures / 16"}  # fmt: skip


ENGINE_SPACE: dict[str, list[Any]] = {
    "villages": [3, 4, 5, 6, 7],        # Villages until this many, then one per terminal
    "village_at": ["over Silver", "under Silver"],
    "smithies": ["< villages", "<= villages", "< villages + 1, at most 3", "at most 2",
                 "at most 3", "at most 4"],
    "market": [0, 2, 4, 6, 99],         # at most this many Markets
    "market_at": ["over Smithy", "under Smithy"],
    "gold": [0, 1, 2, 99],              # at most this many Golds over the Actions
    "militia": [0, 1, 2],
    "remodel": [0, 1],
    "cellar": [0, 1],
    "workshop": [0, 1, 2],
    "silver": [0, 2, 3, 5, 99],         # at most this many Silvers over the Villages
    "green": ["always", "double", "from turn", "from actions"],
    "turn": [8, 10, 12, 14],            # "from turn": Provinces from this turn on
    "actions": [6, 8, 10, 12],          # "from actions": once this many Actions are owned
    "duchy": [2, 3, 4, 5],
    "estate": [0, 1, 2],
}
"""The engine family (``--family engine``). Every bot of it buys Villages and Smithies."""

ENGINE: Config = {"villages": 5, "village_at": "over Silver", "smithies": "< villages",
                  "market": 4, "market_at": "over Smithy", "gold": 99, "militia": 1,
                  "remodel": 0, "cellar": 0, "workshop": 0, "silver": 3, "green": "double",
                  "turn": 12, "actions": 8, "duchy": 4, "estate": 2}  # fmt: skip
"""The engine family's hand-written member, searched from with the random ones."""

ENGINE_SMITHIES = {"< villages": "count('Smithy') < count('Village')",
                   "<= villages": "count('Smithy') <= count('Village')",
                   "< villages + 1, at most 3":
                       "count('Smithy') < count('Village') + 1 and count('Smithy') < 3",
                   "at most 2": "count('Smithy') < 2", "at most 3": "count('Smithy') < 3",
                   "at most 4": "count('Smithy') < 4"}  # fmt: skip


def normal(c: Config) -> Config:
    """``c`` with the settings that cannot matter set to one value, so that the same bot is
    played once."""
    c = dict(c)
    if "villages" in c:  # the engine family
        if c["green"] != "from turn":
            c["turn"] = 12
        if c["green"] != "from actions":
            c["actions"] = 8
        if not c["market"]:
            c["market_at"] = "over Smithy"
        return c
    if not c["militia"]:
        c["militia_at"], c["militia_gate"] = "after Smithy", "any"
    if not c["market"]:
        c["market_first"] = False
    if not c["militia"] and c["smithy"] == "one":
        c["village"] = 0  # never two terminals
    return c


def strategy(c: Config) -> str:
    """The strategy file of the bot ``c`` (of either family)."""
    if "villages" in c:
        return _file(engine_rules(c))
    rules: list[tuple[str, str | None]] = [
        ("Province", f"total_money > {c['province']} and (provinces_left > 1 or vp_lead + 6 > 0)"),
        ("Duchy", f"provinces_left <= {c['duchy']}"),
        ("Estate", f"provinces_left <= {c['estate']}"),
    ]
    if c["market_first"] and c["market"]:
        rules.append(("Market", "count('Market') < 1 and count('Smithy') >= 1"))
    rules += [("Gold", None), ("Duchy", f"provinces_left <= {c['duchy_late']}")]
    militia = None
    if c["militia"]:
        when = f"count('Militia') < {c['militia']}"
        if c["militia_gate"] != "any":
            when += " and count('Smithy') >= 1"
        militia = ("Militia", when)
    if militia and c["militia_at"] == "before Smithy":
        rules.append(militia)
    if c["village"]:
        rules.append(("Village", "count('Village') < 1 "
                                 "and count('Smithy') + count('Militia') >= 2"))
    rules.append(("Smithy", SMITHIES[c["smithy"]]))
    if militia and c["militia_at"] == "after Smithy":
        rules.append(militia)
    if c["mine"]:
        rules.append(("Mine", "count('Mine') < 1 and provinces_left > 5"))
    if c["market"]:
        rules.append(("Market", f"count('Market') < {c['market']}"))
    if militia and c["militia_at"] == "after Market":
        rules.append(militia)
    rules.append(("Silver", None))
    if c["moat"]:
        rules.append(("Moat", "count('Moat') < 1 and provinces_left > 4"))
    return _file(rules)


def engine_rules(c: Config) -> list[tuple[str, str | None]]:
    """The buy rules of the engine ``c``."""
    province = {"always": None,
                "double": "coins >= 16 or (buys == 1 and count('Province') >= 1) "
                          "or provinces_left <= 5",
                "from turn": f"turn >= {c['turn']} or provinces_left <= 6",
                "from actions": f"count_actions >= {c['actions']} or provinces_left <= 6"}
    rules: list[tuple[str, str | None]] = [
        ("Province", province[c["green"]]), ("Duchy", f"provinces_left <= {c['duchy']}")]
    if c["estate"]:
        rules.append(("Estate", f"provinces_left <= {c['estate']}"))
    if c["gold"]:
        rules.append(("Gold", f"count('Gold') < {c['gold']}"))
    if c["militia"]:
        rules.append(("Militia", f"count('Militia') < {c['militia']}"))
    smithy = ("Smithy", f"count('Smithy') < 1 or {ENGINE_SMITHIES[c['smithies']]}")
    market = [("Market", f"count('Market') < {c['market']}")] if c["market"] else []
    rules += [*market, smithy] if c["market_at"] == "over Smithy" else [smithy, *market]
    if c["remodel"]:
        rules.append(("Remodel", "count('Remodel') < 1"))
    village = ("Village", f"count('Village') < {c['villages']} or count('Village') < "
                          "count('Smithy') + count('Militia') + count('Workshop') "
                          "+ count('Remodel')")
    if c["village_at"] == "over Silver":
        rules.append(village)
    if c["workshop"]:
        rules.append(("Workshop", f"count('Workshop') < {c['workshop']}"))
    rules.append(("Gold", None))
    if c["silver"]:
        rules.append(("Silver", f"count('Silver') < {c['silver']}"))
    if c["village_at"] == "under Silver":
        rules.append(village)
    if c["cellar"]:
        rules.append(("Cellar", "count('Cellar') < 1"))
    return rules


def _file(rules: list[tuple[str, str | None]]) -> str:
    lines = ['name = "Candidate"', ""]
    for card, when in rules:
        lines += ["[[buy]]", f'card = "{card}"'] + ([f'when = "{when}"'] if when else []) + [""]
    return "\n".join(lines)


def key(c: Config) -> str:
    return json.dumps(normal(c), sort_keys=True)


def _play(task: tuple[str, int, int, str]) -> tuple[str, int, int, int]:
    from dominari.sim.runner import simulate

    ck, seed, n, folder = task
    path = Path(folder) / f"{os.getpid()}-{seed}.toml"
    path.write_text(strategy(json.loads(ck)))
    r = simulate([str(path), "smithy"], n, seed, 1, kingdom="first-game", start_method=None)
    return ck, r.players[0].wins, r.players[0].ties, n


Tally = dict[str, list[int]]


def play(pool: Any, configs: list[Config], seed: int, games: int, folder: str,
         parts: int = 2) -> Tally:
    """Each of ``configs`` against Smithy-BM, ``games`` games in ``parts`` seeded parts:
    ``{key: [won, shared, games]}``."""
    tasks = [(key(c), seed + 1000 * s, games // parts, folder)
             for c in configs for s in range(parts)]  # fmt: skip
    out: Tally = {}
    for ck, won, shared, n in pool.imap_unordered(_play, tasks):
        t = out.setdefault(ck, [0, 0, 0])
        t[0] += won
        t[1] += shared
        t[2] += n
    return out


def rate(t: list[int]) -> float:
    return (t[0] + 0.5 * t[1]) / t[2]


def leaders(seen: Tally, k: int = 5) -> list[float]:
    """The ``k`` best rates so far, rounded."""
    return [round(rate(t), 4) for t in sorted(seen.values(), key=rate, reverse=True)[:k]]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7, help="the search's own randomness")
    ap.add_argument("--random", type=int, default=160, help="random bots to start from")
    ap.add_argument("--rounds", type=int, default=6, help="rounds of local search")
    ap.add_argument("--games", type=int, default=4000, help="games a bot in the search")
    ap.add_argument("--final", type=int, default=20000, help="games a bot at the end")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--family", choices=("money", "engine"), default="money",
                    help="money decks around Smithy-Market, or Village/Smithy engines")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    space, first = (ENGINE_SPACE, ENGINE) if args.family == "engine" else (SPACE, SMITHY_MARKET)
    seen: Tally = {}
    with tempfile.TemporaryDirectory() as folder, Pool(args.workers) as pool:
        start = [first] + [{k: rng.choice(v) for k, v in space.items()}
                           for _ in range(args.random - 1)]  # fmt: skip
        unique = list({key(c): c for c in start}.values())
        seen.update(play(pool, unique, 100, args.games, folder))
        print(f"{len(seen)} random bots; the best: {leaders(seen)}", flush=True)
        for r in range(args.rounds):
            elite = [json.loads(k) for k in sorted(seen, key=lambda k: -rate(seen[k]))[:12]]
            kids: dict[str, Config] = {}
            for parent in elite:
                for _ in range(8):
                    kid = dict(parent)
                    for _ in range(rng.choice([1, 1, 2])):
                        f = rng.choice(list(space))
                        kid[f] = rng.choice(space[f])
                    if key(kid) not in seen:
                        kids[key(kid)] = kid
            seen.update(play(pool, list(kids.values()), 200 + 10 * r, args.games, folder))
            print(f"round {r + 1}: {len(kids)} new bots, {len(seen)} in all; the best: "
                  f"{leaders(seen)}", flush=True)
        best = [json.loads(k) for k in sorted(seen, key=lambda k: -rate(seen[k]))[:16]]
        for ref in (first, SMITHY_MARKET):  # the references, played again beside them
            if key(ref) not in {key(c) for c in best}:
                best.append(ref)
        final = play(pool, best, 11, args.final, folder, parts=4)
    print(f"\nplayed again, {args.final} games each against Smithy-BM on First Game "
          "(seed 11), a shared win as 1/2:")
    for k in sorted(final, key=lambda k: -rate(final[k])):
        t = final[k]
        mark = ("  <- Smithy-Market" if k == key(SMITHY_MARKET)
                else "  <- the hand-written engine" if k == key(ENGINE) else "")
        print(f"{100 * rate(t):5.2f}%  won {t[0]}, shared {t[1]}  {k}{mark}")


if __name__ == "__main__":
    main()
