"""Can a learned win probability replace the Dominion search's long rollouts? An experiment.

The Dominion level plays every rollout to the end of the game. Early in a game a rollout is
about 300 actions, so a decision's budget buys only a few dozen worlds, and its candidates
are told apart with much noise. A rollout cut off after a few turns and judged by a model
of the win probability would be ten times cheaper. This measures whether such a model is
good enough to tell buys apart:

``data`` plays First Game games of the search's model of itself against the opponent it
models (Smithy-Market against Smithy-BM, seats rotating) and keeps a sample of turn
starts: features of the position seen by the player to move (both decks, the draw piles,
the hands, the score, the Provinces left, who plays first) and that player's result (1 a
win, ½ shared, 0 a loss).

``train`` fits a one-hidden-layer network (tanh, logistic output, Adam on the log loss,
NumPy) on 90% of the positions and reports the log loss on the rest, against a constant.

``eval`` runs levels with ``cutoff_turns`` on a file of judged decisions written by
``benchmarks/decisions.py collect``, with the model as the judge of cut-off rollouts (it is
put in place of the game's heuristic for the run), and prints what ``decisions.py eval``
prints: each level's true gain per decision in the search's own model, and its difference
from the first level. The first level should be the current one, without a cut-off.

Usage::

    python benchmarks/value_cutoff.py data -n 120000 --out /tmp/value.npz
    python benchmarks/value_cutoff.py train /tmp/value.npz --out /tmp/value-model.npz
    python benchmarks/value_cutoff.py eval /tmp/decisions.json --model /tmp/value-model.npz \\
        --level mcts --level '{"iterations": null, "steps": 100000, "width": 7, \\
        "paired": true, "margin": 0.0, "prune": 2.5, "cutoff_turns": 2}'

The model is an experiment's, not the game's: it is never installed, and no level uses it.
"""

from __future__ import annotations

import argparse
import random
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from dominari.bots import load_bot
from dominari.bots import mcts as M
from dominari.core.errors import ConfigError, DominariError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionState
from dominari.sim.runner import game_options

sys.path.insert(0, str(Path(__file__).resolve().parent))
import decisions  # benchmarks/ is not a package: its folder is on the path

COIN = [C.CARDS[c].coins for c in range(C.NUM_CARDS)]
OWN, OPPONENT = "smithy-market", "smithy"


def features(state: DominionState, p: int, own_model: int) -> list[float]:
    """The position at the start of ``p``'s turn, seen by ``p`` (two players):
    ``own_model`` is 1 if ``p`` plays the searcher's own rule bot."""
    q = 1 - p
    out: list[float] = []
    for x in (p, q):
        ps = state.players[x]
        owned = ps.owned
        total = sum(owned)
        money = owned[C.COPPER] + 2 * owned[C.SILVER] + 3 * owned[C.GOLD] + owned[C.MARKET]
        out.extend(owned)
        out.extend([total, money, money / total, len(ps.deck), sum(COIN[c] for c in ps.deck),
                    len(ps.discard), sum(COIN[c] for c in ps.hand),
                    sum(1 for c in ps.hand if C.IS_ACTION[c])])
    first = 1 if state.players[p].turns > state.players[q].turns else 0
    out.extend([state.supply[C.PROVINCE], state.score(p) - state.score(q), state.empty_piles,
                state.players[p].turns, first, own_model])
    return out


def _positions(job: tuple[int, int, float]) -> tuple[Any, Any]:
    start, n, share = job
    rng = random.Random(start)
    xs: list[list[float]] = []
    ys: list[float] = []
    for g in range(start, start + n):
        own = g % 2
        state = game_options("dominion", kingdom="first-game").new_game(2, 500_000 + g,
                                                                        ("a", "b"))
        bots = [load_bot(OPPONENT, "dominion"), load_bot(OPPONENT, "dominion")]
        bots[own] = load_bot(OWN, "dominion")
        rows = []
        turn = -1
        while not state.is_terminal():
            if state.turn_number != turn:
                turn = state.turn_number
                if rng.random() < share:
                    p = state.turn_player
                    rows.append((p, features(state, p, int(p == own))))
            state.apply(bots[state.current_player()].act(state))
        ranks = state.outcome().ranks  # type: ignore[union-attr]
        for p, f in rows:
            xs.append(f)
            ys.append(1.0 if ranks[p] == 1 and ranks[1 - p] != 1 else
                      0.5 if ranks[p] == 1 else 0.0)
    return np.array(xs, dtype=np.float32), np.array(ys, dtype=np.float32)


def _data(args: argparse.Namespace) -> int:
    jobs = [(s, min(1000, args.games - s), args.share) for s in range(0, args.games, 1000)]
    with Pool(args.workers) as pool:
        parts = pool.map(_positions, jobs)
    x = np.concatenate([a for a, _ in parts])
    y = np.concatenate([b for _, b in parts])
    np.savez(args.out, X=x, Y=y)
    print(f"{len(x)} positions of {args.games} games: {args.out}")
    return 0


def _log_loss(p: Any, y: Any) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _train(args: argparse.Namespace) -> int:
    data = np.load(args.file)
    x, y = data["X"].astype(np.float64), data["Y"].astype(np.float64)
    cut = int(len(x) * 0.9)  # the last games are held out
    mu, sd = x[:cut].mean(0), x[:cut].std(0)
    sd[sd == 0] = 1.0
    xs = (x - mu) / sd
    rng = np.random.default_rng(0)
    h = args.hidden
    w = {"W1": rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], h)), "b1": np.zeros(h),
         "w2": rng.normal(0, 1 / np.sqrt(h), h), "b2": np.zeros(1)}
    m1 = {k: np.zeros_like(v) for k, v in w.items()}
    m2 = {k: np.zeros_like(v) for k, v in w.items()}
    lr, t = 2e-3, 0

    def forward(v: Any) -> tuple[Any, Any]:
        hidden = np.tanh(v @ w["W1"] + w["b1"])
        return hidden @ w["w2"] + w["b2"], hidden

    for epoch in range(args.epochs):
        order = rng.permutation(cut)
        for i in range(0, cut, 2048):
            idx = order[i:i + 2048]
            z, hidden = forward(xs[idx])
            g = (1 / (1 + np.exp(-z)) - y[idx]) / len(idx)
            gh = np.outer(g, w["w2"]) * (1 - hidden * hidden)
            grads = {"w2": hidden.T @ g, "b2": np.array([g.sum()]), "W1": xs[idx].T @ gh,
                     "b1": gh.sum(0)}
            t += 1
            for k in w:
                m1[k] = 0.9 * m1[k] + 0.1 * grads[k]
                m2[k] = 0.999 * m2[k] + 0.001 * grads[k] ** 2
                w[k] -= lr * (m1[k] / (1 - 0.9**t)) / (np.sqrt(m2[k] / (1 - 0.999**t)) + 1e-8)
        if epoch == args.epochs * 3 // 4:
            lr /= 3
        z, _ = forward(xs[cut:])
        print(f"epoch {epoch}: held-out log loss {_log_loss(1 / (1 + np.exp(-z)), y[cut:]):.4f}"
              f" (a constant: {_log_loss(np.full(len(x) - cut, y[:cut].mean()), y[cut:]):.4f})",
              flush=True)
    np.savez(args.out, mu=mu, sd=sd, **w)
    print(f"model: {args.out}")
    return 0


_MODEL: list[Any] = []


def _value_scores(state: DominionState) -> list[float]:
    """The game's heuristic replaced: ±half the model's logit for the player to move, so
    that the search's ``tanh`` of the lead with a scale of 2 is the model's probability."""
    if state.is_terminal():
        return [100.0 * state.score(p) for p in range(2)]
    w1, b1, w2, b2 = _MODEL
    tp = state.turn_player
    x = np.asarray(features(state, tp, 0), dtype=np.float64)  # cut off on the other's turn
    z = float(np.tanh(x @ w1 + b1) @ w2 + b2)
    return [z / 2, -z / 2] if tp == 0 else [-z / 2, z / 2]


def _install(path: Path) -> None:
    d = np.load(path)
    sd, mu = d["sd"], d["mu"]
    _MODEL[:] = [d["W1"] / sd[:, None], d["b1"] - (mu / sd) @ d["W1"], d["w2"],
                 float(d["b2"][0])]
    h = M.HOOKS["dominion"]
    M.HOOKS["dominion"] = M.GameHooks(_value_scores, h.policy, h.searched, 2.0, h.observe,
                                      h.order, h.own)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="play rule-bot games and keep positions")
    d.add_argument("-n", "--games", type=int, default=120_000)
    d.add_argument("--share", type=float, default=0.25, help="share of turn starts kept")
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("train", help="fit the model")
    t.add_argument("file", type=Path)
    t.add_argument("--hidden", type=int, default=32)
    t.add_argument("--epochs", type=int, default=8)
    t.add_argument("--out", type=Path, required=True)
    e = sub.add_parser("eval", help="levels judged on collected decisions, the model in use")
    e.add_argument("file", type=Path)
    e.add_argument("--model", type=Path, required=True)
    e.add_argument("--level", action="append", required=True)
    e.add_argument("--runs", type=int, default=4)
    e.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    try:
        if args.command == "data":
            if args.games < 1 or not 0.0 < args.share <= 1.0 or args.workers < 1:
                raise ConfigError("-n and --workers must be at least 1, --share in (0, 1]")
            return _data(args)
        if args.command == "train":
            if args.hidden < 1 or args.epochs < 1:
                raise ConfigError("--hidden and --epochs must be at least 1")
            return _train(args)
        try:
            _install(args.model)
        except (OSError, KeyError, ValueError) as err:
            raise ConfigError(f"{args.model}: not a model written by 'train' ({err})") from err
        rest = ["eval", str(args.file), "--runs", str(args.runs), "--workers",
                str(args.workers)]
        for level in args.level:
            rest += ["--level", level]
        return decisions.main(rest)  # its workers are forked: they see the model
    except DominariError as err:
        print(f"value_cutoff: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
