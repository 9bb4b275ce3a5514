"""Expert iteration, one step: learn the Dominion search's buys as a rule bot's policy.

The search's rollouts play its own seat with a rule bot (on First Game, Smithy-Market), and
the search plays better than that bot: one step of policy improvement over it. A policy
learned from the search's buys is a better model of the searcher's own future, so a search
that plays its own seat with it could look further (expert iteration, Anthony, Tian &
Barber 2017). The learned policy is a :class:`dominari.bots.learned.BuyPolicy` on top of
Smithy-Market: its rules propose a buy, the weights may overrule it. The parts:

``collect``
    plays a level against a rule bot (seeds ``--seed`` on, seats rotating) and writes one
    JSON line for every searched buy: the raw position (both decks, the searcher's draw
    pile, the race), the root's candidates with their worlds and mean results, the own
    model's buy and the level's. ``--own WEIGHTS`` plays the search's own seat with a
    policy learned before (the next iteration).
``train``
    fits a softmax over the legal buys (numpy, Adam, L2): a weight vector per card over
    :data:`dominari.bots.learned.FEATURES` plus a bonus for the rules' buy. ``--target
    soft`` (the default) fits the root's results (a softmax of the candidates' mean
    results at a temperature of 0.02), ``level`` the level's buy alone. It prints how
    often the policy takes the level's buy on a fifth of the games held out, then fits
    all of them and writes the policy file.
``eval``
    plays Smithy-Market with the learned policy (``none``: without) against a rule bot,
    seats rotating, and prints the win rate.
``record``
    plays games of the match of record (``benchmarks/bots.py --only dominion-smithy``:
    the same deals, seats and seeds) with the search's own seat played by the learned
    policy, and compares each with the journaled game of the level.

Usage::

    python benchmarks/expert.py collect -n 600 --out /tmp/expert.jsonl
    python benchmarks/expert.py train /tmp/expert.jsonl --out /tmp/policy.json
    python benchmarks/expert.py eval /tmp/policy.json -n 20000
    python benchmarks/expert.py record /tmp/policy.json -n 300 > /tmp/record.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from dominari.bots import load_bot
from dominari.bots.learned import NOTHING, BuyPolicy, counts, features
from dominari.bots.mcts import MCTSBot
from dominari.bots.playout import play_out
from dominari.core.errors import ConfigError, DominariError
from dominari.dominion.engine import DominionState
from dominari.sim.journal import Journal
from dominari.sim.runner import game_options

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import MATCHES, match_game  # benchmarks/ is not a package: on the path
from deviations import searched_game
from pilot import level_of


def raw(state: DominionState, me: int) -> dict[str, Any]:
    """The position as the searcher knows it, by card index: what a policy may look at."""
    mine, theirs = state.players[me], state.players[1 - me]
    return {
        "turn": state.turn_number, "coins": state.coins, "buys": state.buys,
        "first": int(mine.turns > theirs.turns),  # on its turn: it played first
        "supply": list(state.supply), "score": [state.score(me), state.score(1 - me)],
        "owned": list(mine.owned), "deck": counts(mine.deck),
        "theirs": list(theirs.owned), "their_deck_size": len(theirs.deck),
    }  # fmt: skip


def _card(action: Any) -> int:
    return action.cards[0] if action.cards else NOTHING


def play(job: tuple[int, int, dict[str, Any], str, str, str]) -> list[dict[str, Any]]:
    """One game of the level against the rule bot: a line for each searched buy."""
    g, seed, level, opponent, kingdom, own = job
    bot = None
    if own:
        bot = load_bot("smithy-market", "dominion")
        bot.learned = BuyPolicy.load(own)

    def line(state: DominionState, seat: int, search: MCTSBot, model: Any,
             action: Any) -> dict[str, Any]:
        root = search.last_root
        cands = [[_card(a), n.visits, n.value / n.visits if n.visits else 0.0]
                 for a, n in root.children.items()]
        legal = sorted({_card(a) for a in state.legal_actions()})
        return {**raw(state, seat), "legal": legal, "candidates": cands,
                "model": _card(model), "level": _card(action)}

    return searched_game(g, seed, level, opponent, kingdom, line, bot)


def row_features(r: dict[str, Any]) -> list[float]:
    return features(r["owned"], r["deck"], r["theirs"], r["supply"],
                    r["score"][0] - r["score"][1], r["coins"], r["buys"], r["turn"],
                    r["first"])


N_CHOICES = NOTHING + 1


# -- training ------------------------------------------------------------------------------

def train(rows: list[dict[str, Any]], l2: float, epochs: int, target: str) -> dict[str, Any]:
    """A softmax over the legal buys: score(card) = W[card] . x + b * [card is the model's].

    ``target`` "level" fits the level's buy; "soft" the root's mean results (a softmax of
    the candidates' means at temperature 0.02, the rest at 0)."""
    import numpy as np

    X = np.array([row_features(r) for r in rows])
    n, f = X.shape
    mask = np.zeros((n, N_CHOICES), dtype=bool)
    model = np.zeros((n, N_CHOICES))
    y = np.zeros((n, N_CHOICES))
    for i, r in enumerate(rows):
        mask[i, r["legal"]] = True
        model[i, r["model"]] = 1.0
        if target == "soft":
            cands = [(c, v, m) for c, v, m in r["candidates"] if v > 0]
            top = max(v for _, v, _ in cands)
            w = np.array([math.exp(m / 0.02) * (v / top) for _, v, m in cands])
            for (c, _, _), wi in zip(cands, w / w.sum(), strict=True):
                y[i, c] = wi
        else:
            y[i, r["level"]] = 1.0
    W = np.zeros((f, N_CHOICES))
    b = np.array(3.0)
    lr = 0.5
    mW, vW, mb, vb = np.zeros_like(W), np.zeros_like(W), 0.0, 0.0
    for t in range(1, epochs + 1):
        z = X @ W + b * model
        z = np.where(mask, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z) * mask
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / n
        gW = X.T @ g + l2 * W
        gb = float((g * model).sum())
        # Adam
        mW = 0.9 * mW + 0.1 * gW
        vW = 0.999 * vW + 0.001 * gW * gW
        W -= lr * 0.02 * (mW / (1 - 0.9**t)) / (np.sqrt(vW / (1 - 0.999**t)) + 1e-8)
        mb = 0.9 * mb + 0.1 * gb
        vb = 0.999 * vb + 0.001 * gb * gb
        b = b - lr * 0.02 * (mb / (1 - 0.9**t)) / (math.sqrt(vb / (1 - 0.999**t)) + 1e-8)
    z = np.where(mask, X @ W + b * model, -1e9)
    loss = -float((y * (z - np.log(np.exp(z - z.max(1, keepdims=True)).sum(1, keepdims=True))
                        - z.max(1, keepdims=True)) * (y > 0)).sum() / n)
    policy = BuyPolicy(W.T.tolist(), float(b)).to_dict()
    return {**policy, "loss": loss}


def agreement(rows: list[dict[str, Any]], weights: dict[str, Any]) -> dict[str, float]:
    """How often the policy takes the level's buy, and the model's, on ``rows``."""
    pol = BuyPolicy.from_dict(weights)
    same_level = same_model = left = left_hit = 0
    for r in rows:
        c = pol.pick(row_features(r), r["legal"], r["model"])
        same_level += c == r["level"]
        same_model += c == r["model"]
        if r["level"] != r["model"]:
            left += 1
            left_hit += c == r["level"]
    n = max(len(rows), 1)
    return {"level": same_level / n, "model": same_model / n,
            "deviations_caught": left_hit / max(left, 1), "deviations": left / n}


def _result(ranks: Any, seat: int) -> tuple[int, int]:
    """(won outright, shared a win) for ``seat`` by a game's ranks."""
    first = ranks[seat] == 1
    alone = list(ranks).count(1) == 1
    return int(first and alone), int(first and not alone)


def _eval_game(job: tuple[int, int, str, str, str]) -> tuple[int, int]:
    """One game of the learned bot (seat ``g % 2``): (won outright, shared a win)."""
    g, seed, weights_path, opponent, kingdom = job
    seat = g % 2
    state = game_options("dominion", kingdom=kingdom).new_game(2, seed + g, ("a", "b"))
    bots: list[Any] = [load_bot(opponent, "dominion") for _ in range(2)]
    bots[seat] = load_bot("smithy-market", "dominion")
    if weights_path:
        bots[seat].learned = BuyPolicy.load(weights_path)
    play_out(state, bots)  # the game step by step would play (tests/bots/test_learned.py)
    out = state.outcome()
    assert out is not None
    return _result(out.ranks, seat)


def _journal(name: str) -> dict[int, tuple[tuple[int, ...], tuple[int, ...]]]:
    """The match of record's games by index: (entries by seat, ranks by seat)."""
    path = Path(__file__).resolve().parent / "results" / "journals" / f"{name}.jsonl"
    return {j: (g.seating, g.ranks) for (_, j), g in Journal.read(path).known.items()}


def match_deal(j: int, search: MCTSBot) -> tuple[DominionState, list[Any], int]:
    """Deal ``j`` of the match of record (mcts vs smithy on First Game, seed 2026), with
    ``search`` in the search's seat: the new game, the bots by seat (reset with the
    match's seeds) and the search's seat."""
    m = next(m for m in MATCHES if m.name == "dominion-smithy")
    state, table, seats = match_game(m, j, search)
    return state, table, seats.index(0)


def _record_game(job: tuple[int, str, dict[str, Any]]) -> tuple[int, int, int, float]:
    """Game ``j`` of the match of record, the search's own seat played by the learned
    policy: (j, won outright, shared, CPU seconds)."""
    import time

    from dominari.sim.runner import play_game

    j, weights_path, level = job
    search = MCTSBot("dominion", **level)
    if weights_path:
        search._own = load_bot("smithy-market", "dominion")
        search._own.learned = BuyPolicy.load(weights_path)
    state, table, seat = match_deal(j, search)
    t = time.process_time()
    play_game(table, state)
    out = state.outcome()
    assert out is not None
    return (j, *_result(out.ranks, seat), time.process_time() - t)


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, ValueError) as e:
        raise ConfigError(f"{path}: not a file written by expert.py collect ({e})") from e


def _games_args(p: argparse.ArgumentParser, games: int, seed: int) -> None:
    """The options of a run of games against a rule bot (collect, eval)."""
    p.add_argument("--opponent", default="smithy")
    p.add_argument("--kingdom", default="first-game")
    p.add_argument("-n", "--games", type=int, default=games)
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--workers", type=int, default=2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--level", default="mcts")
    _games_args(c, games=40, seed=20000)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--own", help="a policy file: the search's own seat plays it")
    t = sub.add_parser("train")
    t.add_argument("data", type=Path)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--l2", type=float, default=1e-3)
    t.add_argument("--epochs", type=int, default=3000)
    t.add_argument("--target", choices=("level", "soft"), default="soft")
    e = sub.add_parser("eval")
    e.add_argument("weights", help="the weights' JSON file, or 'none' for the model itself")
    _games_args(e, games=20000, seed=11)
    m = sub.add_parser("record", help="games of the match of record (mcts vs smithy, "
                       "First Game), the search's own seat learned; paired with the journal")
    m.add_argument("weights", help="the weights' JSON file, or 'none' for the level itself")
    m.add_argument("--start", type=int, default=0)
    m.add_argument("-n", "--games", type=int, default=100)
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--level", default="mcts", help="the search level (a name or a JSON "
                   "object of MCTSBot arguments) that plays the match's search seat")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "record":
            level = level_of(args.level, "dominion")
            weights = "" if args.weights == "none" else args.weights
            if weights:
                BuyPolicy.load(weights)  # a bad file fails here, with its message
            book = _journal("dominion-smithy")
            jobs = [(j, weights, level) for j in range(args.start, args.start + args.games)]
            wins = shared = base_wins = base_shared = only_new = only_old = 0
            cpu = 0.0
            with Pool(args.workers) as pool:
                for j, w, sh, t in pool.imap_unordered(_record_game, jobs):
                    seats, ranks = book[j]
                    bw, bs = _result(ranks, seats.index(0))
                    wins += w
                    shared += sh
                    base_wins += bw
                    base_shared += bs
                    only_new += w and not bw
                    only_old += bw and not w
                    cpu += t
                    print(json.dumps([j, w, sh, bw, bs, round(t, 1)]), flush=True)
            n = len(jobs)
            print(f"{n} games: won {wins} ({100 * wins / n:.1f}%), shared {shared}; the level "
                  f"on the same deals: {base_wins}, shared {base_shared}; won only by this "
                  f"{only_new}, only by the level {only_old}; {cpu / n:.1f} s CPU a game")
        elif args.cmd == "collect":
            level = level_of(args.level, "dominion")
            if args.own:
                BuyPolicy.load(args.own)
            jobs = [(g, args.seed, level, args.opponent, args.kingdom, args.own or "")
                    for g in range(args.games)]
            done = 0
            with Pool(args.workers) as pool, args.out.open("a") as f:
                for lines in pool.imap_unordered(play, jobs):
                    f.write("".join(json.dumps(x) + "\n" for x in lines))
                    f.flush()
                    done += 1
                    print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
        elif args.cmd == "train":
            rows = _read(args.data)
            if len({r["game"] for r in rows}) < 5:
                raise ConfigError(f"{args.data}: buys of at least 5 games are needed")
            games = sorted({r["game"] for r in rows})
            held = set(games[: len(games) // 5])
            fit = [r for r in rows if r["game"] not in held]
            test = [r for r in rows if r["game"] in held]
            w = train(fit, args.l2, args.epochs, args.target)
            print(f"{len(fit)} buys to fit, {len(test)} held out; loss {w['loss']:.4f}")
            print("fit:", agreement(fit, w))
            print("held out:", agreement(test, w))
            w = train(rows, args.l2, args.epochs, args.target)
            args.out.write_text(json.dumps(w))
        else:
            weights = "" if args.weights == "none" else args.weights
            if weights:
                BuyPolicy.load(weights)
            jobs = [(g, args.seed, weights, args.opponent, args.kingdom)
                    for g in range(args.games)]
            with Pool(args.workers) as pool:
                res = pool.map(_eval_game, jobs, chunksize=200)
            wins = sum(r[0] for r in res)
            shared = sum(r[1] for r in res)
            n = len(res)
            half = (wins + 0.5 * shared) / n
            se = math.sqrt(half * (1 - half) / n)
            print(f"{n} games: {wins} won outright ({100 * wins / n:.1f}%), "
                  f"{shared} shared; {100 * half:.1f}% ± {100 * se:.1f} with a "
                  f"shared win as 1/2")
    except DominariError as e:
        print(f"expert: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
