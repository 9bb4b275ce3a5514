"""Learning environments: how many steps a second the PettingZoo adapters take, and what
they cost over the engine they wrap, written to BENCHMARKS.md.

Each round plays the same seeded games four ways, one process, uniformly random legal
actions:

- **env**: the AEC loop a learner runs (``agent_iter``, ``last()`` with the observation
  vector and the action mask, a random legal index, ``step``) with ``raw_view=False``, dead
  steps not counted. The index is drawn from ``env.choices()``, the mask's ones:
  ``np.flatnonzero`` of a Dominations mask (62,000 entries) takes about 80 µs, which a
  learner masking logits does not spend;
- **default**: the same with the default ``raw_view=True``, which also puts the engine's
  view (a dict of everything the player sees) in the infos every step;
- **env + state()**: the first, also reading the global state every step (a centralised
  critic);
- **engine**: the actions those games played, replayed on the engine alone
  (``legal_actions()`` then ``apply()``), the floor any adapter starts from.

The rounds alternate them on the same games, so that the ratios see the same machine
load; each figure is the best round (the least disturbed), a ratio the median of the
rounds'. Not part of ``make bench`` (half a minute); needs the ``envs`` extra.

Usage: ``python benchmarks/envs.py [--rounds R] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

START = "<!-- envs:start -->"
END = "<!-- envs:end -->"

CASES: tuple[tuple[str, str, int, int], ...] = (
    # label, game, players, games a round
    ("Dominion, 2 players, First Game", "dominion", 2, 60),
    ("Dominion, 4 players, random kingdoms", "dominion", 4, 30),
    ("Dominations, 2 players", "dominations", 2, 6),
    ("Dominations, 4 players", "dominations", 4, 3),
)


def _env(game: str, players: int, raw_view: bool = False) -> Any:
    from dominari.envs import dominations_env, dominion_env

    if game == "dominion":
        kingdom = "first-game" if players == 2 else "random"
        return dominion_env(num_players=players, kingdom=kingdom, raw_view=raw_view)
    return dominations_env(num_players=players, raw_view=raw_view)


def play_env(env: Any, seeds: range, with_state: bool) -> tuple[float, int, list[Any]]:
    """Seconds and steps of the games of ``seeds`` through ``env``; the engine games."""
    import numpy as np

    steps, games = 0, []
    t0 = time.perf_counter()
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()  # the observation made, not read
            if with_state:
                env.state()
            if terminated or truncated:
                env.step(None)
                continue
            legal = list(env.choices())  # the mask's ones (scanning 62,000 entries costs
            env.step(legal[rng.integers(len(legal))])  # more than the step)
            steps += 1
        games.append(env.game)
    return time.perf_counter() - t0, steps, games


def play_engine(games: list[Any]) -> tuple[float, int]:
    """Seconds and actions of replaying ``games`` on the engine: ``legal_actions()`` and
    ``apply()`` for each action they played."""
    starts = [type(g).from_record(g.record(), upto=0) for g in games]
    actions = [list(g.history) for g in games]
    n = 0
    t0 = time.perf_counter()
    for state, played in zip(starts, actions, strict=True):
        for action in played:
            state.legal_actions()
            state.apply(action)
            n += 1
    seconds = time.perf_counter() - t0
    for state, game in zip(starts, games, strict=True):
        assert state.history == game.history and state.is_terminal()
    return seconds, n


def measure(rounds: int) -> list[dict[str, Any]]:
    out = []
    for label, game, players, count in CASES:
        env, viewing = _env(game, players), _env(game, players, raw_view=True)
        rows: dict[str, list[tuple[float, int]]] = {"env": [], "default": [], "state": [],
                                                    "engine": []}
        for k in range(rounds):
            seeds = range(1000 * k, 1000 * k + count)
            seconds, steps, games = play_env(env, seeds, with_state=False)
            rows["env"].append((seconds, steps))
            seconds1, steps1, _ = play_env(viewing, seeds, with_state=False)
            assert steps1 == steps  # the same games
            rows["default"].append((seconds1, steps1))
            seconds2, steps2, _ = play_env(env, seeds, with_state=True)
            assert steps2 == steps  # the same games
            rows["state"].append((seconds2, steps2))
            rows["engine"].append(play_engine(games))
            print(f"{label}, round {k + 1}: env {steps / seconds:,.0f} steps/s, "
                  f"engine {rows['engine'][-1][1] / rows['engine'][-1][0]:,.0f}",
                  file=sys.stderr, flush=True)  # fmt: skip
        best = {name: max(n / s for s, n in runs) for name, runs in rows.items()}
        ratio = statistics.median(
            (e[0] / e[1]) / (g[0] / g[1]) for e, g in zip(rows["env"], rows["engine"],
                                                          strict=True))
        with_state, with_view = (statistics.median(
            (s[0] / s[1]) / (e[0] / e[1]) for s, e in zip(rows[name], rows["env"],
                                                          strict=True))
            for name in ("state", "default"))
        out.append({"label": label, "games": count, "steps": rows["env"][0][1],
                    "best": best, "ratio": ratio, "state_ratio": with_state,
                    "view_ratio": with_view,
                    "size": env.layout.size, "state_size": env.state_layout.size})
    return out


VERSUS: tuple[tuple[str, str, str, int], ...] = (
    # label, game, opponent, games a round
    ("Dominion, First Game, against Smithy-BM", "dominion", "smithy", 60),
    ("Dominations, 2 players, against greedy", "dominations", "greedy", 4),
)


class _Replay:
    """The agent's seat played again from the actions it took (the reference games)."""

    name = "replay"

    def __init__(self, actions: list[Any]) -> None:
        self._actions = iter(actions)

    def reset(self, seed: int) -> None:
        pass

    def act(self, state: Any) -> Any:
        return next(self._actions)


def play_versus(env: Any, seeds: range) -> tuple[float, int, list[tuple[Any, list[Any]]]]:
    """Seconds and agent steps of random agents' episodes against the bots; the games and
    the agent's actions."""
    import numpy as np

    steps, games = 0, []
    t0 = time.perf_counter()
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        mine: list[Any] = []
        over = False
        while not over:
            index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            action = env.aec.index_action(index)
            if action is not None:
                mine.append(action)
            obs, _, terminated, truncated, _ = env.step(index)
            over = terminated or truncated
            steps += 1
        games.append((env.game, mine))
    return time.perf_counter() - t0, steps, games


def play_bots(game: str, opponent: str, games: list[tuple[Any, list[Any]]]) -> float:
    """Seconds of the same games in the simulator's loop: the bot deciding as in the
    episodes, the agent's actions replayed."""
    from dominari.bots import load_bot
    from dominari.sim.runner import derive_seed, play_game

    starts = [(type(g).from_record(g.record(), upto=0), mine) for g, mine in games]
    bot = load_bot(opponent, game)
    t0 = time.perf_counter()
    for state, mine in starts:
        bot.reset(derive_seed("versus-bot", state.config.seed, 1))
        play_game([_Replay(mine), bot], state)
    seconds = time.perf_counter() - t0
    for (state, _), (g, _) in zip(starts, games, strict=True):
        assert state.history == g.history  # the same games
    return seconds


def measure_versus(rounds: int) -> list[dict[str, Any]]:
    from dominari.envs import dominations_versus, dominion_versus

    out = []
    for label, game, opponent, count in VERSUS:
        env = (dominion_versus(opponents=[opponent], kingdom="first-game", raw_view=False)
               if game == "dominion" else
               dominations_versus(opponents=[opponent], raw_view=False))
        runs = []
        for k in range(rounds):
            seeds = range(1000 * k, 1000 * k + count)
            seconds, steps, games = play_versus(env, seeds)
            runs.append((seconds, steps, play_bots(game, opponent, games)))
            print(f"{label}, round {k + 1}: {steps / seconds:,.0f} agent steps/s",
                  file=sys.stderr, flush=True)
        out.append({"label": label, "games": count, "steps": runs[0][1],
                    "steps_s": max(n / s for s, n, _ in runs),
                    "games_s": max(count / s for s, _, _ in runs),
                    "ratio": statistics.median(s / b for s, _, b in runs)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds (3)")
    ap.add_argument("--no-write", action="store_true", help="print, do not write the file")
    args = ap.parse_args(argv)
    rows = measure(args.rounds)
    lines = ["| game | games a round (steps of round 1) | env steps/s (`raw_view=False`) | "
             "µs a step | default (`raw_view=True`) | with `state()` | engine actions/s | "
             "env time over the engine's | observation, state entries |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        b = r["best"]
        lines.append(
            f"| {r['label']} | {r['games']} ({r['steps']:,}) | {b['env']:,.0f} | "
            f"{1e6 / b['env']:,.0f} | {b['default']:,.0f} "
            f"({100 * (r['view_ratio'] - 1):+.0f}% time) | {b['state']:,.0f} "
            f"({100 * (r['state_ratio'] - 1):+.0f}% time) | {b['engine']:,.0f} | "
            f"{r['ratio']:.1f}× | {r['size']:,}, {r['state_size']:,} |")  # fmt: skip
    versus = ["| episodes (`VersusEnv`, `raw_view=False`) | games a round (agent steps "
              "of round 1) | agent steps/s | games/s | time over the same games in the "
              "simulator's loop |", "|---|---|---|---|---|"]
    for r in measure_versus(args.rounds):
        versus.append(f"| {r['label']} | {r['games']} ({r['steps']:,}) | {r['steps_s']:,.0f} "
                      f"| {r['games_s']:,.1f} | {r['ratio']:.1f}× |")
    section = "\n".join([
        f"Measured {dt.date.today()} with `python benchmarks/envs.py --rounds {args.rounds}` "
        f"on {machine()}; one process, uniformly random legal actions; best round of "
        f"{args.rounds}, ratios the median of the rounds'.",
        "", *lines, "",
        "A step is one `last()` (observation vector and mask) and one `step()` (the first "
        "of a two-step Dominations action counts as one); the engine column replays the same "
        "games' actions with `legal_actions()` and `apply()` only, so the ratio is the whole "
        "step's time over the engine's (the adapter adds that less one). About half of a "
        "Dominations step is its observation, which encodes the whole board, every tree "
        "and each objective's progress (11,085 entries for 2 players); the encoder keeps "
        "the entries it has built (cells, tree cards, tiles, goal progress) and reuses "
        "them while their facts stand. The default `raw_view=True` also builds the "
        "engine's view for the infos every step, and in Dominations that view (every "
        "legal action written out, the objectives described) costs more than the rest "
        "of the step: learners that do not read it pass `raw_view=False`. No other "
        "environment of these games exists to compare with; the engine is the reference "
        "measured in the same run.",
        "", *versus, "",
        "An episode is a random agent's game against the bot through `reset()` and "
        "`step()` (the bot's decisions inside `step()`); the reference plays the same "
        "games in the simulator's loop (`play_game`), the bot deciding again and the "
        "agent's actions replayed, so the ratio is what the single-agent wrapper and the "
        "AEC environment under it add to the bot's and the engine's time.",
    ])  # fmt: skip
    publish("Learning environments", START, END, section, not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
