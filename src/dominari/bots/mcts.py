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
  and buys, the Provinces left and the lead in 4-VP steps from -2 to 2), so a buy
  with 8 coins and a buy with 3 coins are different nodes.
- **Policy first.** The root tries up to ``width`` actions, the policy's first. A
  deeper node first follows the policy (:data:`FOLLOW`: the policy's action in each
  world, since the worlds that meet at a node differ in what the policy would do) and
  admits actual actions beside it as ``widen * sqrt(visits)`` grows (0: deeper
  decisions follow the policy).
- **Trust.** The root keeps the policy's action unless the search's best is ahead
  by ``trust`` standard errors: among many noisy estimates, the best is often
  only lucky.

Budgets are iterations (rollouts), rollout *steps* (the actions the rollouts play, a
deterministic stand-in for time: a late-game rollout is short, so the same budget buys
many more of them where the game is decided), or seconds per decision; iterations and
steps are deterministic for a seed. In a paired race (``paired``) a sampled world plays
every candidate still in the race, and the budgets are read between worlds: at least one
world is played, and the last may take the rollouts or steps past their budget by up to
one rollout per candidate. Seconds are a cap: a rollout that reaches the deadline is
abandoned (its world counts for nothing; a Dominion rollout without a cut-off is played
to its end by the fast playout, a few milliseconds), and a search that has compared
nothing by then plays its policy's action, worked out first: a search checks the clock
before each action it plays and after ranking candidates, so a decision ends about one
move of the policy after its time.
Rewards are 1 for a win (shared wins split it) and 0 for a loss, blended with
``margin`` of a score-margin term (``tanh`` of the lead over the best other
player); a cut-off game gives each player the ``tanh`` of their heuristic lead over the
best other player, from 0 to 1 (graded, so that candidates played in the same worlds
differ by how much better they leave the game).

>>> from dominari.dominion.engine import DominionConfig, DominionState
>>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
>>> bot = MCTSBot("dominion", iterations=50, seed=3)
>>> bot.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import decimal
import functools
import inspect
import math
import os
import random
import re
import reprlib
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from dominari.bots.base import check_seed, misuse
from dominari.core.checks import real, short_path, whole
from dominari.core.checks import seed as seed_value
from dominari.core.errors import (
    ConfigError,
    DominariError,
    StrategyError,
    UnknownBotError,
)
from dominari.core.rng import restore, snapshot

LEVELS: dict[str, dict[str, dict[str, Any]]] = {
    "dominion": {  # a rollout action costs about 5 us: whole games, candidates raced
        # easy: so few worlds that a candidate ahead by luck is often taken, which makes
        # it weaker than its own rule bot (BENCHMARKS.md: the levels as a ladder)
        "mcts-easy": {"iterations": 30, "width": 4, "paired": True, "margin": 0.0},
        # mcts and mcts-hard play the opening book's buys where it has a line (on First
        # Game: :mod:`dominari.bots.book`); easy plays its own
        "mcts": {"iterations": None, "steps": 100_000, "width": 7, "paired": True,
                 "margin": 0.0, "prune": 2.5, "book": True},
        "mcts-hard": {"iterations": None, "steps": 400_000, "width": 8, "paired": True,
                      "margin": 0.0, "prune": 3.0, "book": True},
    },
    "dominations": {  # greedy rollouts cost about 5 ms an action: the greedy bot's best
        # options, each played on in the same few worlds (only the tile supply is hidden)
        # until every player has had one more turn (easy: for 8 actions), then judged by
        # the leads in an estimate of the final score (:func:`_dominations_scores`)
        "mcts-easy": {"iterations": 2, "cutoff": 8, "width": 2, "paired": True,
                      "trust": 0.0},
        "mcts": {"iterations": 4, "cutoff_turns": 1, "width": 2, "paired": True,
                 "trust": 0.0},
        "mcts-hard": {"iterations": 9, "cutoff_turns": 1, "width": 3, "paired": True,
                      "trust": 0.0},
    },
}
"""Difficulty levels per game: names usable wherever a bot name is, mapped to budgets."""
ROLLOUT_COST = 4
"""What setting up one rollout's world (sampling, copying) counts against a ``steps``
budget, in rollout actions (about the time it takes)."""
SEARCH_BOTS: tuple[str, ...] = ("mcts-easy", "mcts", "mcts-hard")
_DEFAULT: Any = object()
"""``iterations`` not given: 200, unless a budget of ``seconds`` or ``steps`` is."""
FOLLOW = "follow the policy"
"""The edge of a decision below the root that plays the policy's action in each world."""

EXPLORATION = 0.7
"""The tree's exploration constant ``c`` where none is given."""


def seconds_text(seconds: float) -> str:
    """A time budget in a bot's name: the shortest text that reads back as the number, so
    that the name plays the same (``0.1234567``, not ``0.123457``; ``1``, not ``1.0``).

    >>> seconds_text(1.0), seconds_text(0.25), seconds_text(0.1234567)
    ('1', '0.25', '0.1234567')
    """
    text = repr(float(seconds))
    return text[:-2] if text.endswith(".0") else text


class _OutOfTime(Exception):
    """A rollout reached its decision's deadline (``seconds``): its world is abandoned."""


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
    """An estimate of each player's final score: VP now, the influence that will still be
    scored at each end of age to come, the knowledge kept (about a VP a unit, as the greedy
    bot values it), the objective's VP for the goals met now plus a share of the next step
    for the progress towards the others (:func:`_objective_outlook`), what the cards and
    cities held will still bring (:func:`~dominari.bots.dominations_greedy.holdings_worth`)
    and, in the prototype variant, the final tree scoring of the tree as it stands (§14): a
    cut-off after a round must not judge a long-term purchase a loss. A finished game's
    VP already hold the objective and the tree scoring, so only the first terms count."""
    from dominari.bots.dominations_greedy import holdings_worth
    from dominari.dominations.engine import tree_score

    ages_left = 3 - state.age + 1
    over = state.is_terminal()
    prototype = state.rules.variant == "prototype"
    out = []
    for p, ps in enumerate(state.players):
        s = float(ps.vp + ps.influence * ages_left) + sum(ps.knowledge)
        if not over:
            s += _objective_outlook(state, p) + holdings_worth(state, p)
            if prototype:
                s += tree_score(ps.tree)
        out.append(s)
    return out


OUTLOOK_SHARE = 0.5
"""The share of what meeting a goal would add that full progress on it is worth."""


def _objective_outlook(state: Any, p: int) -> float:
    """The VP of player ``p``'s objective if the game ended now (D-END-2), plus, for each
    goal not yet met, :data:`OUTLOOK_SHARE` × the VP that meeting it next would add × its
    fraction done (:func:`~dominari.dominations.objectives.goal_gains`): with the
    progressive table that is the next step's VP for every goal (goals are worth
    10/10/20/30/30 more one after another); with ``per_goal`` the goal's own VP; with
    ``ten_each`` 10."""
    from dominari.dominations.objectives import goal_gains, objective_vp

    progress = state.objective_progress(p)
    if not progress:
        return 0.0
    met = [have >= need for have, need in progress]
    table = state.rules.objective_table
    gains = goal_gains(met, table)
    ahead: float = sum(g * have / need
                       for g, (have, need) in zip(gains, progress, strict=True) if g)
    return objective_vp(met, table) + OUTLOOK_SHARE * ahead


def _dominion_policy(state: Any, rng: random.Random) -> list[Any]:
    """A ranked rule bot in every seat (the bots are deterministic): for each other player
    the one that best explains the Kingdom cards that player owns (all gains are public),
    for the player to move the one it is assumed to play before it has bought anything
    (:func:`~dominari.bots.kingdom.model_bot`: Witch-BM where Witch is in the kingdom,
    else Smithy-BM where Smithy is, else Council Room, Library ... down to BMU, in the
    order for the game's number of players; Workshop/Gardens once a player has bought a
    Workshop or a Gardens)."""
    from dominari.bots.kingdom import model_bot, rule_bot

    kingdom = state.kingdom
    me = state.current_player()
    bots: dict[str, Any] = {}
    out = []
    for p, ps in enumerate(state.players):
        owned = () if p == me else [c for c in kingdom if ps.owned[c]]
        name = model_bot(kingdom, owned, state.num_players)
        bot = bots.get(name)
        if bot is None:
            bot = bots[name] = rule_bot(name)
        out.append(bot)
    return out


def _dominion_own(state: Any) -> Any:
    """The rule bot that models the searcher's own seat where one plays better than the
    policy's model of a player who has bought nothing: the kingdom's best rule bot where
    that is a rush (Workshop/Gardens, which the policy assumes of a player only once its
    buys show it), Smithy-Market where that is Smithy-BM and Market is in the kingdom (it
    beats Smithy-BM on First Game, and the search plays more like it than like Smithy-BM:
    it most often leaves Smithy-BM to take a Market at 5), else None (the policy)."""
    from dominari.bots.kingdom import RUSHES, best_rule_bot, rule_bot
    from dominari.dominion.cards import MARKET

    kingdom = state.kingdom
    best = best_rule_bot(kingdom, state.num_players)
    if best == "smithy" and MARKET in kingdom:
        return rule_bot("smithy-market")
    return rule_bot(best) if best in RUSHES else None


def _dominations_policy(state: Any, rng: random.Random) -> list[Any]:
    """The greedy bot in every seat (it is deterministic)."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    bot = DominationsGreedyBot()
    return [bot] * state.num_players


def _dominion_playout(state: Any, bots: Sequence[Any]) -> int:
    from dominari.bots.playout import play_out

    return play_out(state, bots, record=False)  # a rollout's end alone is read


def _dominion_winners(state: Any) -> list[int]:
    return state.winners()  # type: ignore[no-any-return]


def _dominion_quiet(world: Any) -> None:
    world.log = None  # (a logged world would also play its rollouts the slow way)


def _dominations_quiet(world: Any) -> None:
    if world.config.log:  # (the events serve the log in words and the outcome's notes)
        world.config = replace(world.config, log=False)
        world.events = []


def _dominion_searched(state: Any) -> bool:
    # The buy phase's choices decide a Dominion game; the rest is left to the rule bot.
    return state.phase == 1 and not state.stack


def _always(state: Any) -> bool:
    return True


def _dominations_searched(state: Any) -> bool:
    # The choices of a turn: the tile placed, and what is built and developed. Payments,
    # vestigium, the order of effects and the rest are left to the greedy bot.
    return not state.stack and state.phase in (0, 2, 3)  # growth, build, develop


def _dominion_observe(state: Any) -> Hashable:
    # Public: who decides, in which phase, with how many coins and buys, how many
    # Provinces are left and roughly how the player stands (the lead in 4-VP steps, -2 to
    # 2): a buy's best choice depends on them as much as on the coins.
    from dominari.dominion.cards import PROVINCE

    p = state.current_player()
    lead = state.score(p) - max(state.score(q) for q in range(state.num_players) if q != p)
    return (p, state.phase, state.coins, state.buys, state.supply[PROVINCE],
            max(-2, min(2, lead // 4)))


def _nothing(state: Any) -> Hashable:
    return None


def _dominion_order(state: Any, actions: Sequence[Any]) -> list[Any]:
    # Victory cards first (greening and duchy dancing decide close games), then the dearest
    # card: a buy's alternatives worth trying are rarely the cheap ones.
    from dominari.dominion.cards import COST, IS_VICTORY

    def key(a: Any) -> tuple[int, int]:
        if not a.cards:
            return (2, 0)
        card = a.cards[0]
        return (0 if IS_VICTORY[card] else 1, -COST[card])

    return sorted(actions, key=key)


_local = threading.local()


def _ranker() -> Any:
    """The greedy bot that ranks Dominations options for the search (made once a thread:
    it keeps notes of the position it weighs, which searches in other threads must not
    overwrite)."""
    ranker = getattr(_local, "ranker", None)
    if ranker is None:
        from dominari.bots.dominations_greedy import DominationsGreedyBot

        ranker = _local.ranker = DominationsGreedyBot(name="ranker")
    return ranker


def _dominations_order(state: Any, actions: Sequence[Any]) -> list[Any]:
    # The greedy bot's own ranking of the options it weighed, then the rest as they come.
    ranked = _ranker().ranked(state, len(actions))
    seen = set(ranked)
    return [*ranked, *(a for a in actions if a not in seen)]


@dataclass(frozen=True)
class GameHooks:
    """What the search knows of a game beyond the core protocol."""

    scores: Callable[[Any], list[float]]
    """A heuristic score per player (higher is better), for the cut-offs of unfinished
    games (a finished game is judged by its outcome)."""
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
    own: Callable[[Any], Any] | None = None
    """The rule bot that plays the searcher's own seat where the game knows one better
    than the policy (None, or a None answer: the policy plays it too); a bot's ``own``
    overrides it."""
    playout: Callable[[Any, Sequence[Any]], int] | None = None
    """Plays a rollout that is not cut off to the end with the seats' bots and returns
    the actions it took, exactly as applying each bot's action in turn would, only faster
    (None: that loop)."""
    winners: Callable[[Any], list[int]] | None = None
    """The winners of a finished game, as ``outcome()`` ranks them, only faster: what a
    rollout's end is read for (None: the outcome)."""
    quiet: Callable[[Any], None] | None = None
    """Stops the event log of a sampled world, which nothing in a search reads: a state
    played with its log on (``play``, the server) would otherwise copy it into every
    world and log every rollout (None: the game keeps none)."""


HOOKS: dict[str, GameHooks] = {
    "dominion": GameHooks(_dominion_scores, _dominion_policy, _dominion_searched, 8.0,
                          _dominion_observe, _dominion_order, _dominion_own,
                          _dominion_playout, _dominion_winners, _dominion_quiet),
    "dominations": GameHooks(_dominations_scores, _dominations_policy, _dominations_searched,
                             30.0, _nothing, _dominations_order, quiet=_dominations_quiet),
}


class MCTSBot:
    """A search bot for ``game`` (``dominion`` or ``dominations``).

    ``iterations`` (rollouts), ``steps`` (actions played in rollouts, each rollout also
    counting :data:`ROLLOUT_COST` for setting up its world) or ``seconds`` per decision
    bound the search, whichever runs out first (without any, 200 iterations; with
    ``seconds`` or ``steps`` alone, no cap of iterations); a paired race reads them between
    worlds (see the module's docstring). ``c`` is the exploration constant of the tree's
    selection (0.7; a paired race without ``widen`` has no tree below its candidates, and
    refuses it); ``cutoff`` stops rollouts after that many actions and scores the
    position with the game's heuristic (None: play to the end); ``cutoff_turns`` stops them
    once every player has had that many more turns (the searcher's own turn is finished
    first), so that all candidates are judged at the same point of the game. A Dominations
    search without a cut-off plays every rollout to the end of the game, about 0.2 s each
    here: give it a cut-off, or use a level (:func:`mcts_bot`). ``tree`` says whose
    decisions are nodes of the tree: ``"mine"`` (the searching player's decisions that
    the game's hooks call worth searching; everyone else is played by the rule-bot
    policy, an opponent model) or ``"all"`` (every decision of every player).
    ``margin`` blends the score margin into the reward (0: wins only). ``shared`` is what a
    shared victory is worth to each of its winners (None: a win split between them, ½ with
    two; 0: only an outright win counts).

    The policy guides the search: a new decision node first tries the policy's action;
    the root tries up to ``width`` actions (all by default), deeper nodes admit
    another action each time ``widen * sqrt(visits)`` grows by one (0: deeper decisions
    follow the policy). ``trust`` keeps the policy's action at the root unless the
    search's best is ahead by that many standard errors (0: always the search's best).
    ``own`` names a rule bot (as anywhere a bot is named: a built-in name or a strategy
    file) that plays the searching player's own seat instead of the game's policy: the
    decisions outside the tree, the first candidate at the root, and the searcher's moves
    in every rollout. The other seats keep the policy, the model of the opponents. A
    searcher that plays better than the policy is better modelled by a better own bot.
    Without ``own`` the game's hooks may name one for the position (in Dominion,
    the kingdom's best rule bot where that is a rush, such as Workshop/Gardens, and
    Smithy-Market where it is Smithy-BM and Market is in the kingdom).

    ``paired`` plays the root's candidates in the same sampled worlds instead of choosing
    among them by the tree's statistics; ``prune`` then races them: a candidate behind the
    best by more than ``prune`` standard errors of their paired differences is dropped (0:
    never; a search that is not paired refuses it), and the search stops as soon as one
    candidate is left. With ``widen`` above 0
    each candidate's worlds grow a tree of the searcher's later decisions below it, so
    that a candidate is judged with a future that searches too; with 0 they are played
    out by the policy.

    ``book`` (Dominion: ``True`` for the built-in opening book, or a book file's path)
    plays the book's buys where it has a line for the game (:mod:`dominari.bots.book`:
    on the first turns of a kingdom whose openings were measured with rule bots) instead
    of the search's; :attr:`book_moves` counts those that differ.

    A search of one's own may replace the game's two models. ``policy(state, rng)``
    returns one bot per seat (anything with ``act(state)``) for a decision at ``state``:
    they play every world of that decision's search, outside the tree and in the rollouts,
    instead of the game's rule bots (the searcher's seat too, unless ``own`` names its
    bot); draw any random numbers from ``rng``, the search's own generator, for the search
    to stay reproducible. ``evaluate(state)`` returns a score per player (higher is better)
    for a rollout cut off unfinished, instead of the game's heuristic; each player's reward
    is then ``tanh`` of its lead over the best other player, scaled by
    :attr:`GameHooks.margin_scale` (8 VP in Dominion, 30 in Dominations), so give scores
    in about the game's points. It needs ``cutoff`` or ``cutoff_turns``. A search with
    either is named by a bot file of one's own (``FILE.py:NAME``) to play in runs, whose
    records then name that file.

    Without ``seed``, and until :meth:`reset`, the search draws its numbers from the
    operating system: the simulator resets every bot with a seed before each game, and a
    library user who wants a game again calls ``reset(seed)`` too.
    """

    def __init__(self, game: str, iterations: Any = _DEFAULT, seconds: float | None = None,
                 c: float | None = None, cutoff: int | None = None, seed: int | None = None,
                 name: str = "mcts", tree: str = "mine", margin: float = 0.2,
                 widen: float = 0.0, trust: float = 1.0, width: int | None = None,
                 paired: bool = False, steps: int | None = None,
                 prune: float = 0.0, cutoff_turns: int | None = None,
                 own: str | os.PathLike[str] | None = None, shared: float | None = None,
                 book: bool | str = False,
                 policy: Callable[[Any, random.Random], Sequence[Any]] | None = None,
                 evaluate: Callable[[Any], Sequence[float]] | None = None) -> None:
        if not isinstance(game, str) or game.strip().lower() not in HOOKS:
            raise ConfigError(f"no search for the game {game!r}: dominion or dominations")
        game = game.strip().lower()
        if iterations is _DEFAULT:  # a budget of seconds or steps alone is not capped
            iterations = 200 if seconds is None and steps is None else None
        if iterations is None and seconds is None and steps is None:
            raise ConfigError("a search needs a budget: iterations, steps or seconds per "
                              "decision")
        if iterations is not None:
            iterations = whole(iterations, "iterations", 1)
        if steps is not None:
            steps = whole(steps, "steps", 1)
        prune = real(prune, "prune (standard errors)", 0.0)
        trust = real(trust, "trust (standard errors)", 0.0)
        widen = real(widen, "widen", 0.0)
        if not isinstance(paired, bool):
            raise ConfigError(f"paired must be True or False, not {paired!r}")
        if c is not None:
            c = real(c, "the exploration constant c", 0.0)
            if paired and widen == 0.0:
                raise ConfigError("c (the exploration constant) does nothing in a paired race "
                                  "without widen: its candidates are played out by the policy "
                                  "in the same worlds, with no tree below them")
        if prune > 0.0 and not paired:
            raise ConfigError("prune does nothing in a search that is not paired: it drops "
                              "the candidates of a paired race")
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"a search bot's name is a non-empty string, not {name!r}")
        if seconds is not None:
            seconds = check_seconds(seconds)
        if tree not in ("mine", "all"):
            raise ConfigError(f"tree must be 'mine' or 'all', not {tree!r}")
        if width is not None:
            width = whole(width, "width", 1)
        margin = real(margin, "margin", 0.0, 1.0)
        if shared is not None:
            shared = real(shared, "shared", 0.0, 1.0)
        if cutoff is not None:
            cutoff = whole(cutoff, "cutoff", 1)
        if cutoff_turns is not None:
            cutoff_turns = whole(cutoff_turns, "cutoff_turns", 1)
        if seed is not None:
            seed = seed_value(seed, "the search's seed")
        if isinstance(own, os.PathLike):
            own = os.fspath(own)  # a strategy file's path, as its string names it
        if own is not None and not isinstance(own, str):
            raise ConfigError(f"own names a rule bot (a name or a strategy file's path), not "
                              f"{type(own).__name__} {own!r}")
        self._own: Any = None
        if own is not None:
            from dominari.bots import GAME_BOTS, load_bot

            if search_spec(own) is not None:
                raise ConfigError(f"own must be a rule bot, not the search bot {own!r}")
            try:
                self._own = load_bot(own, game)  # names resolve as everywhere else
            except UnknownBotError:  # a wrong strategy file says what is wrong with it
                files = " or the path of a .toml strategy file" if game == "dominion" else ""
                raise ConfigError(f"own bot {own!r} is not a rule bot of {game}: use one of "
                                  f"{', '.join(GAME_BOTS[game])}{files}") from None
        self.own = own
        self._book: Any = None
        if book is not False:
            self._book = _opening_book(game, book)
        self.book = book
        self.book_moves = 0
        """How many of its buys the opening book has changed (where the book's buy was not
        the search's)."""
        self.game = game
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.c = EXPLORATION if c is None else c
        self.cutoff = cutoff
        self.cutoff_turns = cutoff_turns
        self._stop_turn = 1 << 62  # the turn at which rollouts stop (set per decision)
        self._deadline: float | None = None  # when the decision's time is up (set per
        # decision, with ``seconds``): a rollout that reaches it is abandoned
        self.tree = tree
        self.margin = margin
        self.shared = shared
        self.widen = widen
        self.trust = trust
        self.width = width if width is not None else 1 << 30
        self.paired = paired
        self.steps = steps
        self.prune = prune
        self._steps_done = 0
        self._rng = random.Random(seed)
        if seed is not None:
            self._seed_own(seed)
        self._hooks = _own_models(HOOKS[game], policy, evaluate,
                                  cutoff is not None or cutoff_turns is not None)
        self.policy, self.evaluate = policy, evaluate
        self.last_root: Node | None = None
        """The tree of the last decision (for inspection and tests)."""

    def __repr__(self) -> str:
        """The bot as made again (the settings that differ from a bare ``MCTSBot``'s; a
        function by its name, not as code).

        >>> MCTSBot("dominion", iterations=30)
        <MCTSBot 'mcts' dominion iterations=30>
        """
        bare = _BARE.get(self.game)
        if bare is None:
            bare = _BARE[self.game] = MCTSBot(self.game).settings()
        differ = " ".join(f"{k}={function_name(v) if callable(v) else v!r}"
                          for k, v in self.settings().items() if v != bare.get(k))
        return f"<MCTSBot {self.name!r} {self.game}{' ' + differ if differ else ''}>"

    def settings(self) -> dict[str, Any]:
        """Every setting of the search, as :class:`MCTSBot`'s arguments of the same names:
        ``MCTSBot(game, **bot.settings())`` searches as ``bot`` does. A record keeps them
        beside the bot's name, so that it says what a level was when the game was played
        (``c`` is None where there is no tree to explore: a paired race without ``widen``).

        >>> settings = mcts_bot("mcts:width=5", "dominion").settings()
        >>> settings["steps"], settings["width"], settings["paired"], settings["book"]
        (100000, 5, True, True)
        >>> MCTSBot("dominion", **settings).settings() == settings
        True
        """
        unused = self.paired and self.widen == 0.0  # a race without a tree: no c
        return {"iterations": self.iterations, "steps": self.steps, "seconds": self.seconds,
                "c": None if unused else self.c, "cutoff": self.cutoff,
                "cutoff_turns": self.cutoff_turns, "tree": self.tree, "margin": self.margin,
                "shared": self.shared, "widen": self.widen, "trust": self.trust,
                "width": None if self.width == 1 << 30 else self.width,
                "paired": self.paired, "prune": self.prune, "own": self.own,
                "book": self.book, "policy": self.policy,
                "evaluate": self.evaluate}  # fmt: skip

    def cap_seconds(self, seconds: float) -> None:
        """Think at most ``seconds`` a decision (a shorter budget of its own is kept); a
        name that is a spec says the new budget, so that a record names what played.
        ``seconds`` is checked as the constructor checks it (:func:`check_seconds`: more
        than 0, at most :data:`MAX_SECONDS`).

        >>> bot = mcts_bot("mcts-hard:width=5:seconds=3", "dominion")
        >>> bot.cap_seconds(0.5)
        >>> bot.seconds, bot.name
        (0.5, 'mcts-hard:width=5:seconds=0.5')
        >>> bot.cap_seconds(0.1234567); bot.name   # every digit: the name plays the same
        'mcts-hard:width=5:seconds=0.1234567'
        >>> bot.cap_seconds(float("nan"))
        Traceback (most recent call last):
        ...
        dominari.core.errors.ConfigError: seconds per decision must be a finite number, not nan
        """
        seconds = check_seconds(seconds)
        if self.seconds is not None and self.seconds <= seconds:
            return
        self.seconds = seconds
        parsed = search_spec(self.name)
        if parsed is not None:  # not a name of its own
            level, options = parsed
            options["seconds"] = seconds_text(seconds)
            self.name = spec_name(level, options)

    def reset(self, seed: int) -> None:
        seed = check_seed(seed)
        self._rng.seed(seed)
        self._seed_own(seed)

    def _seed_own(self, seed: int) -> None:
        """Seed the own model (``own=random`` draws its own numbers) from ``seed``, apart
        from the search's generator, whose numbers it leaves as they were."""
        if self._own is not None:
            self._own.reset(random.Random(f"dominari-own-model-{seed}").getrandbits(63))

    def act(self, state: Any) -> Any:
        fault = misuse(state, self.game, self.name)  # once a decision: cheap beside a search
        if fault is not None:
            raise fault
        action = self._search(state)
        book = self._book
        if book is not None and book.covers(state):
            # The search ran all the same, so that its random numbers, and with them every
            # later decision, are those of the game without the book: a game whose buys
            # the book leaves alone is that game, and the book's worth can be measured on
            # the same deals (benchmarks/openings.py). It costs the first turns' searches.
            move = book.move(state, self.models(state)[state.current_player()])
            if move is not None and move != action:
                self.book_moves += 1
                return move
        return action

    def _search(self, state: Any) -> Any:
        """The search's action at ``state`` (:meth:`act` before the book)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # The decision's time counts from here: working out the models and the candidates
        # is part of it.
        self._deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        me = state.current_player()
        rng = self._rng
        hooks = self._hooks
        policy = self.models(state)  # the same bots serve every world of this search
        if self.tree == "mine" and not hooks.searched(state):
            return policy[me].act(state)
        root = Node(player=me)
        self._steps_done = 0
        if self.cutoff_turns is not None:
            # Every player gets the same number of turns after this one, which the
            # searcher finishes first: the rollouts stop at the start of a turn of the
            # player after the searcher, so candidates are judged at the same point.
            self._stop_turn = state.turn_number + self.cutoff_turns * state.num_players + 1
        if self.paired:
            return self._paired(root, state, legal, me, policy, rng)
        # Under a deadline the policy's move is worked out first, within the time: what a
        # search that compares nothing plays, and what ``trust`` keeps.
        fallback = policy[me].act(state) if self._deadline is not None else None
        done = 0
        try:
            while self._budget_left(done):
                self._iterate(root, self._world(state, me, rng), me, policy, rng)
                done += 1
        except _OutOfTime:  # the last iteration was abandoned: nothing of it was backed up
            if not done:
                self.last_root = root
                return fallback
        self.last_root = root
        best = max((root.children[a] for a in legal
                    if a in root.children and root.children[a].visits),
                   key=lambda n: (n.visits, n.value), default=None)
        if best is None:
            return rng.choice(list(legal))
        if self.trust > 0.0:
            # Keep the policy's choice unless the search found better by ``trust`` standard
            # errors: a search's winner among many noisy estimates is often just lucky.
            mine = root.children.get(policy[me].act(state) if fallback is None else fallback)
            if mine is not None and mine is not best and mine.visits > 0:
                gap = best.value / best.visits - mine.value / mine.visits
                if gap < self.trust * 0.5 * math.sqrt(1.0 / best.visits + 1.0 / mine.visits):
                    return mine.action
        return best.action

    def models(self, state: Any) -> list[Any]:
        """The rule bots, one per seat, that play the decisions outside the tree and the
        rollouts of a search at ``state``: the game's policy, with the own bot (the bot's
        ``own``, else the game's choice for the position, if any) in the seat to move.

        >>> from dominari.dominion.engine import DominionConfig, DominionState
        >>> from dominari.dominion.kingdoms import RECOMMENDED
        >>> s = DominionState.new(DominionConfig(seed=1, kingdom=RECOMMENDED["first-game"]))
        >>> me = s.current_player()
        >>> bots = MCTSBot("dominion").models(s)
        >>> bots[me].name, bots[1 - me].name
        ('Smithy-Market', 'Smithy')
        >>> MCTSBot("dominion", own="bmu").models(s)[me].name
        'BMU'
        """
        hooks = self._hooks
        policy = hooks.policy(state, self._rng)
        own = self._own if self._own is not None or hooks.own is None else hooks.own(state)
        if own is None:
            return policy
        policy = [*policy]
        policy[state.current_player()] = own
        return policy

    def _late(self) -> bool:
        """Whether the decision's time is up (never, under a budget of work alone)."""
        return self._deadline is not None and time.perf_counter() > self._deadline

    def _world(self, state: Any, me: int, rng: random.Random) -> Any:
        """A world sampled from what ``me`` knows of ``state`` (its log stopped)."""
        world = state.determinize(me, rng)
        quiet = self._hooks.quiet
        if quiet is not None:
            quiet(world)
        return world

    def _budget_left(self, done: int) -> bool:
        """Whether the search may go on after ``done`` iterations (at least one is made)."""
        if done == 0:
            return True
        if self.iterations is not None and done >= self.iterations:
            return False
        if self.steps is not None and self._steps_done >= self.steps:
            return False
        return self._deadline is None or time.perf_counter() < self._deadline

    def _paired(self, root: Node, state: Any, legal: Sequence[Any], me: int,
                policy: list[Any], rng: random.Random) -> Any:
        """The root's candidates (the policy's action, then the game's order, at most
        ``width``) each played out in the *same* sampled worlds: common random numbers,
        so the differences between candidates are measured with far less noise than
        their values. With ``prune``, candidates clearly behind the best are dropped as
        the worlds accumulate (a race). The best mean wins, unless it beats the policy's
        action by less than ``trust`` standard errors of the paired differences."""
        order = self._hooks.order
        first = policy[me].act(state)
        ranked = None
        if not self._late():  # (the policy's move, a greedy bot's say, may have taken it)
            ranked = (order(state, legal) if order is not None
                      else rng.sample(list(legal), len(legal)))
        if ranked is None or self._late():  # (so may the ranking)
            self.last_root = root
            return first
        candidates = [first, *(a for a in ranked if a != first)][: self.width]
        m = len(candidates)
        children = [Node(a, me) for a in candidates]
        for a, child in zip(candidates, children, strict=True):
            root.children[a] = child
        # Paired differences between every two candidates still in the race: their sums
        # and sums of squares over the worlds both were played in (all since the start).
        dsum = [[0.0] * m for _ in range(m)]
        dsq = [[0.0] * m for _ in range(m)]
        alive = list(range(m))
        prune = self.prune
        deep = self.widen > 0.0  # the searcher's later decisions are nodes below each
        worlds = 0
        done = 0
        r = [0.0] * m
        longest = 0.0  # the longest world so far, in seconds: under a deadline, no world
        # is begun that would likely end past it (a world half played compares nothing)
        deadline = self._deadline
        while len(alive) > 1 and self._budget_left(done):
            if deadline is not None:
                began = time.perf_counter()
                if worlds and began + longest > deadline:
                    break
            # One sampled world: the same deals and the same random numbers for every
            # candidate still in the race (:func:`fork`).
            copies = fork(self._world(state, me, rng), len(alive))
            try:
                for k, w in zip(alive, copies, strict=True):
                    if worlds == 0 and k and deadline is not None and (
                            time.perf_counter() > deadline):
                        raise _OutOfTime
                    w.apply(candidates[k])
                    r[k] = (self._descend(children[k], None, w, me, policy, rng)[me] if deep
                            else self._rollout(w, policy)[me])
            except _OutOfTime:
                if worlds:  # the world half played compares nothing: the others decide
                    break
                # Out of time before the first world was played for every candidate: they
                # cannot be compared, so the policy's action it is.
                self.last_root = root
                return candidates[0]
            for k in alive:  # a world counts once every candidate has been played in it
                child = children[k]
                child.visits += 1
                child.avail += 1
                child.value += r[k]
            for x in alive:
                rx = r[x]
                sx, qx = dsum[x], dsq[x]
                for y in alive:
                    d = rx - r[y]
                    sx[y] += d
                    qx[y] += d * d
            worlds += 1
            root.visits += 1
            done += len(alive)
            if deadline is not None:
                longest = max(longest, time.perf_counter() - began)
            if prune > 0.0 and worlds >= 32 and worlds % 8 == 0:
                best = max(alive, key=lambda k: children[k].value)
                alive = [k for k in alive
                         if k == best or not _behind(dsum[best][k], dsq[best][k], worlds,
                                                     prune)]
        self.last_root = root
        if len(alive) == 1:
            return candidates[alive[0]]
        if worlds == 0:
            return candidates[0]
        k = max(alive, key=lambda i: children[i].value)  # all alive: the same worlds
        if k == 0 or self.trust <= 0.0 or 0 not in alive:
            return candidates[k]
        if worlds < 2:  # no spread yet to tell a lead from luck: keep the policy's
            return candidates[0]
        mean = dsum[k][0] / worlds
        var = max(0.0, (dsq[k][0] - worlds * mean * mean) / (worlds - 1))
        return candidates[k] if mean > self.trust * math.sqrt(var / worlds) else candidates[0]

    # -- one iteration ---------------------------------------------------------------------

    def _iterate(self, root: Node, world: Any, me: int, policy: list[Any],
                 rng: random.Random) -> None:
        self._descend(None, root, world, me, policy, rng)

    def _descend(self, edge: Node | None, node: Node | None, world: Any, me: int,
                 policy: list[Any], rng: random.Random) -> Sequence[float]:
        """One iteration in ``world``: down the tree from the decision ``node`` (the root;
        ``edge`` None) or from below ``edge`` (a root candidate of a paired race, whose
        statistics the race keeps), one new edge, a rollout, the backup; the rewards.

        The root's edges are actions. A deeper decision's first edge is :data:`FOLLOW`,
        the policy's action in each world: a decision node stands for every world in
        which the searcher observes the same, and the policy's choice differs between
        them. Actual actions are admitted beside it as the node's visits grow
        (``widen``), in the game's order."""
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
        root = node if edge is None else None
        path: list[Node] = []
        decisions = [] if node is None else [node]
        walked = 0  # the actions played on the way down (they count against ``steps``)
        deadline = self._deadline
        while not world.is_terminal():
            if deadline is not None and time.perf_counter() > deadline:
                raise _OutOfTime  # (before a move: nothing of this world is backed up)
            walked += 1
            player = world.current_player()
            if mine_only and (player != me or not searched(world)):
                world.apply(policy[player].act(world))
                continue
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply(legal[0])
                continue
            if order is not None:
                legal = order(world, legal)  # (a Dominations ranking: a greedy move)
                if deadline is not None and time.perf_counter() > deadline:
                    raise _OutOfTime
            if edge is not None:
                key = observe(world)
                node = edge.next.get(key)
                if node is None:
                    node = edge.next[key] = Node(player=player)
                decisions.append(node)
            assert node is not None
            at_root = node is root
            options = legal if at_root else [FOLLOW, *legal]
            children = node.children
            for a in options:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            # Progressive widening: the root tries up to ``width`` actions, the policy's
            # first; deeper nodes start with the policy (FOLLOW) and admit an action as
            # their visits grow.
            tried = sum(1 for a in options if a in children)
            if tried < len(options) and (tried < width if at_root
                                         else tried < 1 + widen * sqrt(node.visits)):
                if not at_root and FOLLOW not in children:
                    key_action, action = FOLLOW, policy[player].act(world)
                else:  # the policy's action, unless tried: then the next in the order
                    action = policy[player].act(world) if at_root else FOLLOW
                    if action in children:
                        untried = [a for a in legal if a not in children]
                        action = untried[0] if order is not None else rng.choice(untried)
                    key_action = action
                child = children[key_action] = Node(key_action, player)
                child.avail = 1
                world.apply(action)
                path.append(child)
                break
            best = None
            best_score = -1.0
            for a in options:
                ch = children.get(a)
                if ch is None:
                    continue
                score = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = ch, score
            assert best is not None
            world.apply(policy[player].act(world) if best.action is FOLLOW else best.action)
            path.append(best)
            edge = best
        self._steps_done += walked
        rewards = self._rollout(world, policy)
        for d in decisions:
            d.visits += 1
        for n in path:
            n.visits += 1
            n.value += rewards[n.player]
        return rewards

    def _rollout(self, world: Any, policy: list[Any]) -> Sequence[float]:
        n = world.num_players
        scores = self._hooks.scores
        steps = 0
        playout = self._hooks.playout
        if playout is not None and self.cutoff is None and self.cutoff_turns is None:
            steps = playout(world, policy)
        elif not world.is_terminal():
            cutoff = self.cutoff if self.cutoff is not None else 1 << 62
            by_turns = self.cutoff_turns is not None  # else the turn is not read at all
            stop = self._stop_turn
            deadline = self._deadline
            while not world.is_terminal():
                if steps >= cutoff or (by_turns and world.turn_number >= stop):
                    self._steps_done += steps + ROLLOUT_COST
                    return _leads(scores(world), self._hooks.margin_scale)
                if deadline is not None and time.perf_counter() > deadline:
                    raise _OutOfTime
                world.apply(policy[world.current_player()].act(world))
                steps += 1
        self._steps_done += steps + ROLLOUT_COST
        m = self.margin
        fast = self._hooks.winners
        if m == 0.0 and fast is not None:  # the winners alone are read
            winners = fast(world)
        else:
            out = world.outcome()
            winners = [p for p in range(n) if out.ranks[p] == 1]
        share = 1.0 / len(winners) if self.shared is None or len(winners) == 1 else self.shared
        win = [share if p in winners else 0.0 for p in range(n)]
        if m == 0.0:
            return win
        final = [float(x) for x in out.scores]
        scale = self._hooks.margin_scale
        rewards = []
        for p in range(n):
            lead = final[p] - max(final[q] for q in range(n) if q != p)
            rewards.append((1.0 - m) * win[p] + m * 0.5 * (1.0 + math.tanh(lead / scale)))
        return rewards


def fork(world: Any, n: int) -> list[Any]:
    """``n`` states in the state of ``world``, its generator's included, to play ``n``
    candidates in one sampled world: copies whose generators are restored from one
    snapshot of the world's (reading a generator's state takes longer than the rest of a
    copy), and the world itself last. The same games as ``n`` copies of the world.

    >>> import random
    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> world = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
    >>> a, b, c = fork(world, 3)
    >>> c is world and a.rng is not b.rng
    True
    >>> a.rng.random() == b.rng.random() == c.rng.random()
    True
    """
    seeds = snapshot(world.rng)
    return [*(world.copy(restore(seeds)) for _ in range(n - 1)), world]


def _behind(dsum: float, dsq: float, n: int, z: float) -> bool:
    """Whether a paired mean difference (its sum and sum of squares over ``n`` worlds) is
    above ``z`` of its standard errors: the candidate it is measured against is behind."""
    mean = dsum / n
    var = max(0.0, (dsq - n * mean * mean) / (n - 1))
    return mean > z * math.sqrt(var / n) if var > 0.0 else mean > 0.0


def _own_models(hooks: GameHooks, policy: object, evaluate: object,
                cut: bool) -> GameHooks:  # fmt: skip
    """``hooks`` with a search's own ``policy`` and ``evaluate`` (see :class:`MCTSBot`),
    each checked: a function, ``evaluate`` only with a cut-off (``cut``), and answers of
    one per seat (:class:`_OwnPolicy`, :class:`_OwnEvaluate`)."""
    if policy is not None:
        if not callable(policy):
            raise ConfigError(f"policy must be a function of a state and a random generator "
                              f"that gives one bot per seat, not {policy!r}")  # fmt: skip
        # the game's own bot for the searcher's seat and its fast playout are its policy's
        hooks = replace(hooks, policy=_OwnPolicy(policy), own=None, playout=None)
    if evaluate is not None:
        if not callable(evaluate):
            raise ConfigError(f"evaluate must be a function of a state that gives a score "
                              f"per player, not {evaluate!r}")  # fmt: skip
        if not cut:
            raise ConfigError("evaluate does nothing without cutoff or cutoff_turns: every "
                              "rollout is played to the end of the game")  # fmt: skip
        hooks = replace(hooks, scores=_OwnEvaluate(evaluate))
    return hooks


class _OwnPolicy:
    """A search's own policy, its answers checked (a :class:`ConfigError` naming it)."""

    def __init__(self, policy: Callable[[Any, random.Random], Sequence[Any]]) -> None:
        self.policy = policy

    def __call__(self, state: Any, rng: random.Random) -> list[Any]:
        got = self.policy(state, rng)
        try:
            bots = list(got)
        except TypeError:  # (no sequence: a function that forgot its return, say)
            bots = []
        if len(bots) != state.num_players or not all(
                callable(getattr(b, "act", None)) for b in bots):  # fmt: skip
            raise ConfigError(f"policy {function_name(self.policy)} gave {reprlib.repr(got)} "
                              f"for a game of {state.num_players} players: one bot (with "
                              "act(state)) a seat")  # fmt: skip
        return bots


class _OwnEvaluate:
    """A search's own evaluation, its answers checked (a :class:`ConfigError` naming it)."""

    def __init__(self, evaluate: Callable[[Any], Sequence[float]]) -> None:
        self.evaluate = evaluate

    def __call__(self, state: Any) -> list[float]:
        got = self.evaluate(state)
        try:
            out = [float(x) for x in got]
        except (TypeError, ValueError):  # no sequence, or not of numbers
            out = []
        if len(out) != state.num_players or not all(map(math.isfinite, out)):
            raise ConfigError(f"evaluate {function_name(self.evaluate)} gave "
                              f"{reprlib.repr(got)} for a game of {state.num_players} "
                              "players: a finite score a player")  # fmt: skip
        return out


_BARE: dict[str, dict[str, Any]] = {}
"""A bare search's settings, by game (:meth:`MCTSBot.__repr__`)."""


def function_name(function: object) -> str:
    """A function by its name and where it is written, for messages and records
    (``value (my_search.py line 3)``; a ``functools.partial`` by the function it calls).

    >>> function_name(math.floor), function_name(functools.partial(int, base=2))
    ('floor', 'int')
    """
    inner = function
    while isinstance(inner, functools.partial):
        inner = inner.func
    name = getattr(inner, "__qualname__", None) or type(inner).__qualname__
    code = getattr(inner, "__code__", None) or getattr(  # (or an object's __call__)
        inspect.getattr_static(type(inner), "__call__", None), "__code__", None)
    if code is None:
        return str(name)
    return f"{name} ({short_path(code.co_filename)} line {code.co_firstlineno})"


def _leads(scores: Sequence[float], scale: float) -> list[float]:
    """Each player's heuristic lead over the best other player, squashed to 0..1 (``tanh``
    with ``scale`` a decisive lead): a cut-off game's reward, graded, so that paired
    candidates differ by how much better they leave the game, not only by who leads."""
    out = []
    for p, s in enumerate(scores):
        lead = s - max(x for q, x in enumerate(scores) if q != p)
        out.append(0.5 * (1.0 + math.tanh(lead / scale)))
    return out


_DIGITS = r"[0-9](?:_?[0-9])*"
_NUMBER = re.compile(rf"[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})"
                     rf"(?:[eE][+-]?{_DIGITS})?", re.ASCII)  # fmt: skip
"""A number as a spec writes it, as Python does: ASCII digits (a ``_`` between two), a
point, an exponent."""

MAX_WHOLE = 10**12
"""The largest whole number a search option takes (``steps=1e12``: days a decision)."""


def _whole(text: str) -> int | None:
    """A whole number of ASCII digits, read exactly (``2e5`` too), up to
    :data:`MAX_WHOLE`; None for ``none``.

    >>> _whole("200_000"), _whole("2.5e5"), _whole("1e12"), _whole("none")
    (200000, 250000, 1000000000000, None)
    """
    if text == "none":
        return None
    if not _NUMBER.fullmatch(text):
        raise ValueError("a whole number")
    try:
        number = decimal.Decimal(text.replace("_", ""))
    except decimal.DecimalException:  # an exponent of 19 digits or more
        mantissa, _, exponent = text.replace("_", "").lower().partition("e")
        number = decimal.Decimal(mantissa)
        if number and exponent.startswith("-"):
            raise ValueError("a whole number") from None
        if number:
            raise ValueError(f"at most {MAX_WHOLE:,}" if number > 0 else "positive") from None
    if number.copy_abs() > MAX_WHOLE:
        raise ValueError(f"at most {MAX_WHOLE:,}" if number > 0 else "positive")
    if number != number.to_integral_value():
        raise ValueError("a whole number")
    return int(number)


def _real(text: str) -> float:
    if not _NUMBER.fullmatch(text):
        if re.fullmatch(r"[+-]?(?:inf|infinity|nan)", text.lower()):
            raise ValueError("a finite number")
        raise ValueError("a number")
    number = float(text.replace("_", ""))
    if not math.isfinite(number):
        raise ValueError("a finite number")
    return number


MAX_SECONDS = 60.0
"""The most seconds a decision a search bot spec (``mcts:seconds=…``), ``--bot-seconds``
or :class:`MCTSBot` gives: a longer search is one of steps or iterations, which a machine
does not change."""
_LONGER = "a longer search takes steps or iterations instead, the same on any machine"


def check_seconds(seconds: object) -> float:
    """``seconds`` a decision as a ``float``: a finite number above 0 and at most
    :data:`MAX_SECONDS` (:class:`ConfigError` otherwise, as a spec's ``seconds=`` is
    refused).

    >>> check_seconds(2)
    2.0
    >>> check_seconds(1000)
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: seconds per decision must be at most 60, not 1000; \
a longer search takes steps or iterations instead, the same on any machine
    """
    number = real(seconds, "seconds per decision")
    fault = seconds_fault(number, f"{number:g}")
    if fault:
        raise ConfigError(f"seconds per decision must be {fault}")
    return number


def seconds_fault(seconds: float, given: str | None = None) -> str | None:
    """What a number of seconds a decision must be instead (``not`` the ``given`` text of
    it, where given), with advice where there is some; ``None`` for a good one: the one
    wording of a spec's ``seconds=``, :class:`MCTSBot`'s ``seconds`` and the command
    line's ``--bot-seconds``.

    >>> seconds_fault(0.5), seconds_fault(0), seconds_fault(90, "90")
    (None, 'more than 0', 'at most 60, not 90; a longer search takes steps or iterations \
instead, the same on any machine')
    """
    advice = ""
    if not math.isfinite(seconds):
        need = "a finite number"
    elif seconds <= 0.0:
        need = "more than 0"
    elif seconds > MAX_SECONDS:
        need, advice = f"at most {MAX_SECONDS:g}", f"; {_LONGER}"
    else:
        return None
    return need + (f", not {given}" if given is not None else "") + advice


def _spec_seconds(text: str) -> float | None:
    seconds = _real_or_none(text)
    fault = None if seconds is None else seconds_fault(seconds)
    if fault:  # the spec parser names the value given itself
        raise ValueError(fault)
    return seconds


def _real_or_none(text: str) -> float | None:
    return None if text == "none" else _real(text)


def _yes_no(text: str) -> bool:
    if text in ("yes", "true", "on", "1"):
        return True
    if text in ("no", "false", "off", "0"):
        return False
    raise ValueError("yes or no")


def _tree(text: str) -> str:
    if text not in ("mine", "all"):
        raise ValueError("mine or all")
    return text


def _bot_name(text: str) -> str | None:
    return None if text.lower() == "none" else text


def _book_spec(text: str) -> bool | str:
    try:
        return _yes_no(text.lower())
    except ValueError:
        if not text.lower().endswith(".toml"):
            raise ValueError("yes, no or the path of a .toml book file") from None
        return text


def _opening_book(game: str, book: object) -> Any:
    """The opening book a search plays with: the built-in one for ``True``, else the
    book file at the path ``book`` (:mod:`dominari.bots.book`)."""
    if game != "dominion":
        raise ConfigError("book: only Dominion's search has an opening book")
    from dominari.bots.book import default_book, read_book

    if book is True:
        return default_book()
    if not isinstance(book, str) or not book.strip():
        raise ConfigError(f"book must be True, False or a book file's path, not {book!r}")
    word = book.strip().lower()
    if word in ("yes", "no", "true", "false") and not os.path.exists(book):
        # The spec's words (``mcts:book=yes``) are Python's True and False here.
        raise ConfigError(f"book must be True, False or a book file's path, and there is "
                          f"no file {book!r}: for the built-in book give book=True, for "
                          f"none book=False")
    try:
        return read_book(book)
    except StrategyError as exc:
        raise ConfigError(f"book: {exc}") from None


SETTINGS: Mapping[str, Any] = MappingProxyType({
    name: None if p.default is _DEFAULT else EXPLORATION if name == "c" else p.default
    for name, p in inspect.signature(MCTSBot).parameters.items()
    if name not in ("game", "seed", "name")})
"""Every setting of a search (the keys of :meth:`MCTSBot.settings`), with
:class:`MCTSBot`'s default: what a record's ``search`` may give, and what ``replay``
names where it is not the default. ``iterations`` is None here: without a budget of
``steps`` or ``seconds`` a search has 200 rollouts. (:meth:`MCTSBot.settings` gives
``c`` as None where a search has no tree to explore.)

>>> SETTINGS["margin"], SETTINGS["tree"], SETTINGS["c"], SETTINGS["iterations"]
(0.2, 'mine', 0.7, None)
>>> set(SETTINGS) == set(MCTSBot("dominion").settings())
True
>>> {k: v for k, v in MCTSBot("dominion").settings().items() if v != SETTINGS[k]}
{'iterations': 200}
"""


SEARCH_OPTIONS: dict[str, tuple[Callable[[str], Any], str]] = {
    "iterations": (_whole, "rollouts a decision (none: no limit; a paired race reads it "
                   "between worlds)"),
    "steps": (_whole, "rollout actions a decision (none: no limit; a paired race reads it "
              "between worlds)"),
    "seconds": (_spec_seconds, f"seconds a decision, at most {MAX_SECONDS:g} (none: no "
                "limit)"),
    "width": (_whole, "candidates at the root (none: all)"),
    "paired": (_yes_no, "candidates played in the same worlds"),
    "prune": (_real, "a paired candidate is dropped this many standard errors behind"),
    "trust": (_real, "the policy's move is kept unless beaten by this many standard errors"),
    "c": (_real, "exploration constant of the tree (not paired, or with widen)"),
    "margin": (_real, "share of the score margin in the reward, 0 to 1"),
    "shared": (_real_or_none, "what a shared victory is worth, 0 to 1 (none: split)"),
    "cutoff": (_whole, "rollouts stop after this many actions (none: at the end)"),
    "cutoff_turns": (_whole, "rollouts stop after this many more turns each (none: at "
                     "the end)"),
    "widen": (_real, "later decisions of the searcher searched too (0: the policy's)"),
    "tree": (_tree, "whose decisions are nodes: mine or all"),
    "own": (_bot_name, "the rule bot (a name; in Dominion also a .toml strategy file) that "
            "plays the searcher's seat in the search"),
    "book": (_book_spec, "the opening book's buys on the first turns: yes, no or a book "
             "file"),
}
"""The options a search bot spec may set (``mcts:steps=200000:width=8``): name → (parser
of its value, what it means). They are :class:`MCTSBot`'s arguments of the same names."""
_VERBATIM = ("own", "book")
"""The options whose values are kept as given (they may be file paths), not lower-cased."""

_DRIVE = re.compile(r"\s*(own|book)\s*=\s*[A-Za-z]", re.IGNORECASE)
"""An option that is a file path's Windows drive, its ``:`` read as a separator."""


def search_spec(spec: str) -> tuple[str, dict[str, str]] | None:
    """The level and the raw ``option=value`` pairs of a search bot spec, or None when
    ``spec`` does not start with a level name (it is another bot, or a file).

    >>> search_spec("mcts-hard:seconds=1:width=5")
    ('mcts-hard', {'seconds': '1', 'width': '5'})
    >>> search_spec("smithy") is None, search_spec("mcts")
    (True, ('mcts', {}))

    A file's path may begin with a Windows drive:

    >>> search_spec("mcts:book=C:/books/b.toml:seconds=1")
    ('mcts', {'book': 'C:/books/b.toml', 'seconds': '1'})
    """
    parts = spec.strip().split(":")
    level = parts[0].strip().lower()
    if level not in SEARCH_BOTS:
        return None
    options: dict[str, str] = {}
    given: list[str] = []
    for part in parts[1:]:
        if given and _DRIVE.fullmatch(given[-1]) and part[:1] in ("\\", "/"):
            given[-1] += f":{part}"  # a path's drive, read with its path
        else:
            given.append(part)
    for part in given:
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        value = value.strip()
        if not eq or not key or not value:
            raise ConfigError(f"search bot {spec!r}: {part!r} is not option=value "
                              f"(for example {level}:steps=200000:width=8)")
        if key not in SEARCH_OPTIONS:
            raise ConfigError(f"search bot {spec!r}: unknown option {key!r}; the options "
                              f"are {', '.join(SEARCH_OPTIONS)}")
        if key in options:
            raise ConfigError(f"search bot {spec!r}: option {key!r} is given twice")
        options[key] = value
    return level, options


_LIFTS = {"iterations": "no limit of rollouts", "steps": "no limit of rollout steps",
          "seconds": "no limit of seconds", "width": "no limit of candidates",
          "cutoff": "no cut-off after a number of actions",
          "cutoff_turns": "no cut-off after a number of turns", "book": "no opening book",
          "own": "no rule bot set for its own seat (none: its default model)",
          "shared": "no worth of a shared win set (none: split, its default)"}
"""The options whose ``none`` (or ``book=no``) lifts something of the level's, by what it
lifts: given for a level without it, such an option changes nothing and is refused."""


_OF_GAME = {"dominion": "Dominion's", "dominations": "Dominations'"}


def describe_level(settings: dict[str, Any], own: str | None = None) -> str:
    """A level's budget and settings in words (:data:`LEVELS`), with ``own``, the rule bot
    that plays the searcher's seat in its rollouts, where it is known.

    >>> describe_level(LEVELS["dominion"]["mcts"])
    "100,000 rollout steps, at most 7 candidates, paired worlds, dropped 2.5 standard errors \
behind, the opening book's buys on its first turns where the book has a line"
    >>> describe_level(LEVELS["dominations"]["mcts-easy"])
    '2 rollouts, cut off after 8 actions, at most 2 candidates, paired worlds'
    """
    parts = []
    if settings.get("steps"):
        parts.append(f"{settings['steps']:,} rollout steps")
    if settings.get("iterations"):
        parts.append(f"{settings['iterations']:,} rollouts")
    if settings.get("seconds"):
        parts.append(f"at most {seconds_text(settings['seconds'])} s a decision")
    if settings.get("cutoff"):
        parts.append(f"cut off after {settings['cutoff']} actions")
    if settings.get("cutoff_turns"):
        turns = settings["cutoff_turns"]
        parts.append(f"cut off when every player has had {turns} more "
                     f"turn{'s' if turns > 1 else ''}")
    if settings.get("width"):
        parts.append(f"at most {settings['width']} candidates")
    if settings.get("paired"):
        parts.append("paired worlds")
    if settings.get("prune"):
        parts.append(f"dropped {settings['prune']} standard errors behind")
    if own:
        parts.append(f"its own seat played by {own} in the search")
    if settings.get("book"):
        parts.append("the opening book's buys on its first turns where the book has a line")
    return ", ".join(parts) or "default"


def spec_name(level: str, options: dict[str, str]) -> str:
    """The spec of a level with options, as :func:`search_spec` reads it.

    >>> spec_name("mcts", {"steps": "400000", "width": "8"})
    'mcts:steps=400000:width=8'
    """
    return ":".join([level, *(f"{k}={v}" for k, v in options.items())])


def mcts_bot(name: str, game: str) -> MCTSBot:
    """The bot of a difficulty level name (:data:`LEVELS`) for ``game``, or of a level with
    options changed: ``LEVEL:option=value:…`` (:data:`SEARCH_OPTIONS`), for example
    ``mcts:steps=400000`` or ``mcts-easy:seconds=0.5:iterations=none``. A budget option
    replaces the level's budget of its kind (``steps=400000`` the level's steps) and keeps
    the others: every budget then set bounds the search, whichever runs out first
    (``none`` lifts one). The bot's name is the spec as given, lower case, so that tables
    tell the variants apart.

    >>> mcts_bot("mcts:steps=400000:width=8", "dominion").steps
    400000
    >>> mcts_bot("MCTS-easy:Seconds=0.5", "dominion").name
    'mcts-easy:seconds=0.5'
    """
    levels = LEVELS.get(game)
    if levels is None:
        raise ConfigError(f"no search for the game {game!r}: dominion or dominations")
    parsed = search_spec(name)
    if parsed is None:
        raise ConfigError(f"unknown search level {name!r}: {', '.join(levels)}")
    key, raw = parsed
    settings = dict(levels[key])
    label: dict[str, str] = {}  # the options as the name shows them
    for option, text in raw.items():
        parse, meaning = SEARCH_OPTIONS[option]
        try:
            value = parse(text if option in _VERBATIM else text.lower())
        except ValueError as exc:
            raise ConfigError(f"search bot {name.strip()!r}: {option}={text!r} is not "
                              f"{exc} ({option}: {meaning})") from None
        if (value is None or value is False) and option in _LIFTS and not settings.get(option):
            # an option that would change nothing: lifting what the level does not have
            raise ConfigError(f"search bot {name.strip()!r}: {option}={text} changes "
                              f"nothing: {_OF_GAME[game]} {key} has {_LIFTS[option]} ({key}: "
                              f"{describe_level(levels[key])})")  # fmt: skip
        settings[option] = value
        # lower case, but a path (a book or strategy file) as given
        label[option] = text if isinstance(value, str) and option in _VERBATIM else text.lower()
    if settings.get("paired") is False and "prune" not in raw:
        settings.pop("prune", None)  # the level's race: nothing to prune once not paired
    try:
        return MCTSBot(game, name=spec_name(key, label), **settings)
    except DominariError as exc:  # a bad budget, an unknown own bot
        raise ConfigError(f"search bot {name.strip()!r}: {exc}") from None
