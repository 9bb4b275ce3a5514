"""Information-set Monte Carlo tree search (single observer), one implementation for both games.

SO-ISMCTS (Cowling, Powley & Whitehouse 2012) searches the searching player's
*information sets*: every iteration samples one world consistent with what the
player knows (``state.determinize(player, rng)``), then walks one shared tree
with the actions legal in that world. Selection is *availability-aware*: a
child's exploration term counts the iterations in which its action was legal,
not the parent's visits, so actions that are rarely possible are not starved.
A new child is added per iteration (expansion), the world is played on by a
cheap rollout policy (the game's rule bots), optionally cut off after a number
of actions and judged by a heuristic, and the result is backed up: each edge
keeps the reward of the player who chose its action.

The rule bots are also the *policy* that guides the search (the game's
:class:`GameHooks` say which bots, which decisions are worth a node, and what
the searcher observes at a decision):

- **Whose decisions are nodes.** By default (``tree="mine"``) only the searching
  player's decisions that matter (in Dominion, the buys) are nodes; the other
  players and the rest of the searcher's decisions are played by the policy, a
  model of the opponents. ``tree="all"`` makes every decision a node.
- **Observations split nodes.** Below an edge, the next decision is looked up by
  what the searcher then observes (in Dominion: who decides, the phase, coins
  and buys), so a buy with 8 coins and a buy with 3 coins are different nodes.
- **Policy first.** A new node first tries the policy's action; the root tries up
  to ``width`` actions, a deeper node admits another as ``widen * sqrt(visits)``
  grows (0: deeper decisions follow the policy).
- **Trust.** The root keeps the policy's action unless the search's best is ahead
  by ``trust`` standard errors: among many noisy estimates, the best is often
  only lucky.

Budgets are iterations (deterministic for a seed) or seconds per decision.
Rewards are 1 for a win (shared wins split it) and 0 for a loss, blended with
``margin`` of a score-margin term (``tanh`` of the lead over the best other
player); a cut-off game gives each player their heuristic score's place between
the lowest and the highest (0 to 1).

>>> from dominari.dominion.engine import DominionConfig, DominionState
>>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
>>> bot = MCTSBot("dominion", iterations=50, seed=3)
>>> bot.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from dominari.core.errors import ConfigError

LEVELS: dict[str, dict[str, dict[str, Any]]] = {
    "dominion": {  # rollouts are cheap (about 0.2 ms): whole games, candidates paired
        "mcts-easy": {"iterations": 250, "width": 4, "paired": True, "margin": 0.0},
        "mcts": {"iterations": 1000, "width": 4, "paired": True, "margin": 0.0},
        "mcts-hard": {"iterations": 4000, "width": 6, "paired": True, "margin": 0.0},
    },
    "dominations": {  # greedy rollouts cost about 3 ms an action: few, cut off and judged
        "mcts-easy": {"iterations": 6, "cutoff": 12, "width": 3},
        "mcts": {"iterations": 16, "cutoff": 20, "width": 4},
        "mcts-hard": {"iterations": 48, "cutoff": 30, "width": 6},
    },
}
"""Difficulty levels per game: names usable wherever a bot name is, mapped to budgets."""
SEARCH_BOTS: tuple[str, ...] = ("mcts-easy", "mcts", "mcts-hard")


class Node:
    """A node of the shared tree.

    A *decision* node (the root, and each entry of an edge's ``next``) holds the
    ``children`` edges, one per action tried there. An *edge* is reached by ``action``,
    chosen by ``player``, and keeps that player's reward statistics; its ``next`` maps
    what the searching player observes at the following decision (the game's
    ``observe`` hook, such as the coins in hand) to the decision node for it.
    """

    __slots__ = ("action", "avail", "children", "next", "player", "value", "visits")

    def __init__(self, action: Hashable = None, player: int = -1) -> None:
        self.action = action
        self.player = player
        self.children: dict[Hashable, Node] = {}
        self.next: dict[Hashable, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


def _dominion_scores(state: Any) -> list[float]:
    return [float(state.score(p)) for p in range(state.num_players)]


def _dominations_scores(state: Any) -> list[float]:
    # VP now, plus the influence that will still be scored at each end of age to come.
    ages_left = 3 - state.age + 1
    return [float(ps.vp + ps.influence * ages_left) for ps in state.players]


def _dominion_policy(state: Any, rng: random.Random) -> list[Any]:
    """The best rule bot for the kingdom, in every seat: Witch-BM where Witch is in the
    kingdom, else Smithy-BM where Smithy is, else BMU (the bots are deterministic)."""
    from dominari.bots import builtin_strategy
    from dominari.bots.strategy import StrategyBot
    from dominari.dominion.cards import SMITHY, WITCH

    kingdom = state.kingdom
    name = "witch" if WITCH in kingdom else "smithy" if SMITHY in kingdom else "bmu"
    bot = StrategyBot(builtin_strategy(name))
    return [bot] * state.num_players


def _dominations_policy(state: Any, rng: random.Random) -> list[Any]:
    """The greedy bot in every seat (it is deterministic)."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    bot = DominationsGreedyBot()
    return [bot] * state.num_players


def _dominion_searched(state: Any) -> bool:
    # The buy phase's choices decide a Dominion game; the rest is left to the rule bot.
    return state.phase == 1 and not state.stack


def _always(state: Any) -> bool:
    return True


def _dominion_observe(state: Any) -> Hashable:
    # Public: who decides, in which phase, with how many coins and buys.
    return (state.current_player(), state.phase, state.coins, state.buys)


def _nothing(state: Any) -> Hashable:
    return None


def _dominion_order(state: Any, actions: Sequence[Any]) -> list[Any]:
    # The dearest card first: a buy's alternatives worth trying are rarely the cheap ones.
    from dominari.dominion.cards import COST

    return sorted(actions, key=lambda a: -COST[a.cards[0]] if a.cards else 1)


@dataclass(frozen=True)
class GameHooks:
    """What the search knows of a game beyond the core protocol."""

    scores: Callable[[Any], list[float]]
    """A heuristic score per player (higher is better), for cut-offs and margins."""
    policy: Callable[[Any, random.Random], list[Any]]
    """Rule bots, one per seat, that play the decisions outside the tree and the rollouts."""
    searched: Callable[[Any], bool]
    """Whether the current decision is worth a node of the tree (else the policy plays)."""
    margin_scale: float
    """A score lead that counts as decisive (the margin term's tanh scale)."""
    observe: Callable[[Any], Hashable]
    """What the searching player sees of a decision that the moves leading to it do not
    fix (public or their own information only): decisions that differ in it get their
    own nodes."""
    order: Callable[[Any, Sequence[Any]], list[Any]] | None = None
    """The order in which a node tries actions after the policy's (None: at random)."""


HOOKS: dict[str, GameHooks] = {
    "dominion": GameHooks(_dominion_scores, _dominion_policy, _dominion_searched, 8.0,
                          _dominion_observe, _dominion_order),
    "dominations": GameHooks(_dominations_scores, _dominations_policy, _always, 60.0,
                             _nothing),
}


class MCTSBot:
    """A search bot for ``game`` (``dominion`` or ``dominations``).

    ``iterations`` (default) or ``seconds`` per decision bound the search; ``c`` is the
    exploration constant; ``cutoff`` stops rollouts after that many actions and scores the
    position with the game's heuristic (None: play to the end). ``tree`` says whose
    decisions are nodes of the tree: ``"mine"`` (the searching player's decisions that
    the game's hooks call worth searching; everyone else is played by the rule-bot
    policy, an opponent model) or ``"all"`` (every decision of every player).
    ``margin`` blends the score margin into the reward (0: wins only).

    The policy guides the search: a new decision node first tries the policy's action;
    the root tries up to ``width`` actions (all by default), deeper nodes admit
    another action each time ``widen * sqrt(visits)`` grows by one (0: deeper decisions
    follow the policy). ``trust`` keeps the policy's action at the root unless the
    search's best is ahead by that many standard errors (0: always the search's best).
    """

    def __init__(self, game: str, iterations: int | None = 200, seconds: float | None = None,
                 c: float = 0.7, cutoff: int | None = None, seed: int | None = None,
                 name: str = "mcts", tree: str = "mine", margin: float = 0.2,
                 widen: float = 0.0, trust: float = 1.0, width: int | None = None,
                 paired: bool = False) -> None:
        if game not in HOOKS:
            raise ConfigError(f"no search for the game {game!r}: dominion or dominations")
        if iterations is None and seconds is None:
            raise ConfigError("a search needs a budget: iterations or seconds per decision")
        if iterations is not None and iterations < 1:
            raise ConfigError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ConfigError(f"seconds per decision must be positive, not {seconds}")
        if tree not in ("mine", "all"):
            raise ConfigError(f"tree must be 'mine' or 'all', not {tree!r}")
        if width is not None and width < 1:
            raise ConfigError(f"width must be at least 1, not {width}")
        if not 0.0 <= margin <= 1.0:
            raise ConfigError(f"margin must be between 0 and 1, not {margin}")
        self.game = game
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.cutoff = cutoff
        self.tree = tree
        self.margin = margin
        self.widen = widen
        self.trust = trust
        self.width = width if width is not None else 1 << 30
        self.paired = paired
        self._rng = random.Random(seed)
        self._hooks = HOOKS[game]
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
        hooks = self._hooks
        policy = hooks.policy(state, rng)  # the same bots serve every world of this search
        if self.tree == "mine" and not hooks.searched(state):
            return policy[me].act(state)
        root = Node(player=me)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if self.paired:
            return self._paired(root, state, legal, me, policy, rng, deadline)
        done = 0
        while self._budget_left(done, deadline):
            self._iterate(root, state.determinize(me, rng), me, policy, rng)
            done += 1
        self.last_root = root
        best = max((root.children[a] for a in legal if a in root.children),
                   key=lambda n: (n.visits, n.value), default=None)
        if best is None:
            return rng.choice(list(legal))
        if self.trust > 0.0:
            # Keep the policy's choice unless the search found better by ``trust`` standard
            # errors: a search's winner among many noisy estimates is often just lucky.
            mine = root.children.get(policy[me].act(state))
            if mine is not None and mine is not best and mine.visits > 0:
                gap = best.value / best.visits - mine.value / mine.visits
                if gap < self.trust * 0.5 * math.sqrt(1.0 / best.visits + 1.0 / mine.visits):
                    return mine.action
        return best.action

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Whether the search may go on after ``done`` iterations (at least one is made)."""
        if self.iterations is not None and done >= self.iterations:
            return False
        return deadline is None or done == 0 or time.perf_counter() < deadline

    def _paired(self, root: Node, state: Any, legal: Sequence[Any], me: int,
                policy: list[Any], rng: random.Random, deadline: float | None) -> Any:
        """The root's candidates (the policy's action, then the game's order, at most
        ``width``) each played out in the *same* sampled worlds: common random numbers,
        so the differences between candidates are measured with far less noise than
        their values. The best mean wins, unless it beats the policy's action by less
        than ``trust`` standard errors of the paired differences."""
        order = self._hooks.order
        first = policy[me].act(state)
        ranked = order(state, legal) if order is not None else rng.sample(list(legal),
                                                                           len(legal))
        candidates = [first, *(a for a in ranked if a != first)][: self.width]
        rewards: list[list[float]] = [[] for _ in candidates]
        for a in candidates:
            root.children[a] = Node(a, me)
        done = 0
        while self._budget_left(done, deadline):
            world = state.determinize(me, rng)
            for k, a in enumerate(candidates):
                w = world.copy()  # the same deals and the same RNG state for every candidate
                w.apply(a)
                r = self._rollout(w, policy)[me]
                rewards[k].append(r)
                child = root.children[a]
                child.visits += 1
                child.avail += 1
                child.value += r
            root.visits += 1
            done += len(candidates)
        self.last_root = root
        means = [sum(rs) / len(rs) for rs in rewards]
        k = max(range(len(candidates)), key=lambda i: means[i])
        if k == 0 or self.trust <= 0.0:
            return candidates[k]
        diffs = [x - y for x, y in zip(rewards[k], rewards[0], strict=True)]
        n = len(diffs)
        if n < 2:
            return candidates[0]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return candidates[k] if mean > self.trust * math.sqrt(var / n) else candidates[0]

    # -- one iteration ---------------------------------------------------------------------

    def _iterate(self, root: Node, world: Any, me: int, policy: list[Any],
                 rng: random.Random) -> None:
        hooks = self._hooks
        searched = hooks.searched
        observe = hooks.observe
        mine_only = self.tree == "mine"
        log = math.log
        sqrt = math.sqrt
        c = self.c
        widen = self.widen
        width = self.width
        order = hooks.order
        node = root
        edge: Node | None = None  # the edge just taken; its ``next`` holds the decisions
        path: list[Node] = []
        decisions = [root]
        while not world.is_terminal():
            player = world.current_player()
            if mine_only and (player != me or not searched(world)):
                world.apply(policy[player].act(world))
                continue
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply(legal[0])
                continue
            if order is not None:
                legal = order(world, legal)
            if edge is not None:
                key = observe(world)
                node = edge.next.get(key)  # type: ignore[assignment]
                if node is None:
                    node = edge.next[key] = Node(player=player)
                decisions.append(node)
            children = node.children
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            # Progressive widening: the root tries every action; deeper nodes start with the
            # policy's choice and admit another action as their visits grow.
            tried = sum(1 for a in legal if a in children)
            if tried < len(legal) and (tried < width if node is root
                                       else tried < 1 + widen * sqrt(node.visits)):
                action = policy[player].act(world)
                if action in children:
                    untried = [a for a in legal if a not in children]
                    action = untried[0] if order is not None else rng.choice(untried)
                child = children[action] = Node(action, player)
                child.avail = 1
                world.apply(action)
                path.append(child)
                break
            best = None
            best_score = -1.0
            for a in legal:
                ch = children.get(a)
                if ch is None:
                    continue
                score = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = ch, score
            assert best is not None
            world.apply(best.action)
            path.append(best)
            edge = best
        rewards = self._rollout(world, policy)
        for d in decisions:
            d.visits += 1
        for n in path:
            n.visits += 1
            n.value += rewards[n.player]

    def _rollout(self, world: Any, policy: list[Any]) -> Sequence[float]:
        n = world.num_players
        scores = self._hooks.scores
        if not world.is_terminal():
            steps = 0
            cutoff = self.cutoff
            while not world.is_terminal():
                if cutoff is not None and steps >= cutoff:
                    return _spread(scores(world))
                world.apply(policy[world.current_player()].act(world))
                steps += 1
        out = world.outcome()
        winners = [p for p in range(n) if out.ranks[p] == 1]
        win = [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        m = self.margin
        if m == 0.0:
            return win
        final = [float(x) for x in out.scores]
        scale = self._hooks.margin_scale
        rewards = []
        for p in range(n):
            lead = final[p] - max(final[q] for q in range(n) if q != p)
            rewards.append((1.0 - m) * win[p] + m * 0.5 * (1.0 + math.tanh(lead / scale)))
        return rewards


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
