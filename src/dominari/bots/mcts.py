"""Information-set Monte Carlo tree search (single observer), one implementation for both games.

SO-ISMCTS (Cowling, Powley & Whitehouse 2012) searches the searching player's
*information sets*: every iteration samples one world consistent with what the
player knows (``state.determinize(player, rng)``), then walks one shared tree
with the actions legal in that world. Selection is *availability-aware*: a
child's exploration term counts the iterations in which its action was legal,
not the parent's visits, so actions that are rarely possible are not starved.
A new child is added per iteration (expansion), the world is played on by a
cheap rollout policy (the game's rule bots), optionally cut off after a number
of actions and judged by a heuristic, and the result is backed up: each node
keeps the reward of the player who chose the action leading to it.

Budgets are iterations (deterministic for a seed) or seconds per decision.
Rewards are 1 for a win (shared wins split it), 0 for a loss; a cut-off game
gives each player their heuristic score's place between the lowest and the
highest (0 to 1).

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
>>> bot = MCTSBot("dominations", iterations=20, seed=3)
>>> bot.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from dominari.core.errors import ConfigError

LEVELS: dict[str, dict[str, dict[str, Any]]] = {
    "dominion": {
        "mcts-easy": {"iterations": 50},
        "mcts": {"iterations": 200},
        "mcts-hard": {"iterations": 800},
    },
    "dominations": {  # rollouts of a whole Dominations game are long: cut off and judged
        "mcts-easy": {"iterations": 30, "cutoff": 40},
        "mcts": {"iterations": 100, "cutoff": 80},
        "mcts-hard": {"iterations": 300, "cutoff": 160},
    },
}
"""Difficulty levels per game: names usable wherever a bot name is, mapped to budgets."""
SEARCH_BOTS: tuple[str, ...] = ("mcts-easy", "mcts", "mcts-hard")


class Node:
    """One node of the shared tree: reached by ``action``, chosen by ``player``."""

    __slots__ = ("action", "avail", "children", "player", "value", "visits")

    def __init__(self, action: Hashable = None, player: int = -1) -> None:
        self.action = action
        self.player = player
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


def _dominion_scores(state: Any) -> list[float]:
    return [float(state.score(p)) for p in range(state.num_players)]


def _dominations_scores(state: Any) -> list[float]:
    # VP now, plus the influence that will still be scored at each end of age to come.
    ages_left = 3 - state.age + 1
    return [float(ps.vp + ps.influence * ages_left) for ps in state.players]


SCORES: dict[str, Callable[[Any], list[float]]] = {
    "dominion": _dominion_scores,
    "dominations": _dominations_scores,
}


def _rollout_bots(game: str, players: int, rng: random.Random) -> list[Any]:
    if game == "dominations":
        from dominari.bots.dominations_random import DominationsRandomBot

        return [DominationsRandomBot(seed=rng.getrandbits(32)) for _ in range(players)]
    from dominari.bots import builtin_strategy
    from dominari.bots.strategy import StrategyBot

    bots = []
    for _ in range(players):
        bot = StrategyBot(builtin_strategy("bmu"))
        bot.reset(rng.getrandbits(32))
        bots.append(bot)
    return bots


class MCTSBot:
    """A search bot for ``game`` (``dominion`` or ``dominations``).

    ``iterations`` (default) or ``seconds`` per decision bound the search; ``c`` is the
    exploration constant; ``cutoff`` stops rollouts after that many actions and scores the
    position with the game's heuristic (None: play to the end).
    """

    def __init__(self, game: str, iterations: int | None = 200, seconds: float | None = None,
                 c: float = 0.7, cutoff: int | None = None, seed: int | None = None,
                 name: str = "mcts") -> None:
        if game not in SCORES:
            raise ConfigError(f"no search for the game {game!r}: dominion or dominations")
        if iterations is None and seconds is None:
            raise ConfigError("a search needs a budget: iterations or seconds per decision")
        if iterations is not None and iterations < 1:
            raise ConfigError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ConfigError(f"seconds per decision must be positive, not {seconds}")
        self.game = game
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.cutoff = cutoff
        self._rng = random.Random(seed)
        self._scores = SCORES[game]
        self.last_root: Node | None = None
        """The tree of the last decision (for inspection and tests)."""

    def __repr__(self) -> str:
        return f"MCTSBot({self.game!r}, {self.name!r})"

    def reset(self, seed: int) -> None:
        self._rng.seed(seed)

    def act(self, state: Any) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        rng = self._rng
        root = Node(player=me)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.determinize(me, rng), rng)
            done += 1
        self.last_root = root
        best = max((root.children[a] for a in legal if a in root.children),
                   key=lambda n: (n.visits, n.value), default=None)
        return best.action if best is not None else rng.choice(list(legal))

    # -- one iteration ---------------------------------------------------------------------

    def _iterate(self, root: Node, world: Any, rng: random.Random) -> None:
        node = root
        path: list[Node] = []
        while not world.is_terminal():
            legal = world.legal_actions()
            player = world.current_player()
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = rng.choice(untried)
                child = children[action] = Node(action, player)
                child.avail = 1
                world.apply(action)
                path.append(child)
                break
            log_avail = math.log
            c = self.c
            best = None
            best_score = -1.0
            for a in legal:
                ch = children[a]
                score = ch.value / ch.visits + c * math.sqrt(log_avail(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = ch, score
            assert best is not None
            world.apply(best.action)
            path.append(best)
            node = best
        rewards = self._rollout(world, rng)
        for n in path:
            n.visits += 1
            n.value += rewards[n.player]

    def _rollout(self, world: Any, rng: random.Random) -> Sequence[float]:
        n = world.num_players
        if not world.is_terminal():
            bots = _rollout_bots(self.game, n, rng)
            steps = 0
            cutoff = self.cutoff
            while not world.is_terminal():
                if cutoff is not None and steps >= cutoff:
                    return _spread(self._scores(world))
                world.apply(bots[world.current_player()].act(world))
                steps += 1
        out = world.outcome()
        winners = [p for p in range(n) if out.ranks[p] == 1]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


def _spread(scores: Sequence[float]) -> list[float]:
    """Each player's place between the lowest (0) and highest (1) heuristic score."""
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [1.0 / len(scores)] * len(scores)
    return [(s - lo) / (hi - lo) for s in scores]


def mcts_bot(name: str, game: str) -> MCTSBot:
    """The bot of a difficulty level name (:data:`LEVELS`) for ``game``."""
    key = name.strip().lower()
    levels = LEVELS.get(game)
    if levels is None:
        raise ConfigError(f"no search for the game {game!r}: dominion or dominations")
    if key not in levels:
        raise ConfigError(f"unknown search level {name!r}: {', '.join(levels)}")
    return MCTSBot(game, name=key, **levels[key])
