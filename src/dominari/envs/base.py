"""What both game environments share: the AEC cycle over an engine, observation layouts.

:class:`GameEnv` is a PettingZoo :class:`~pettingzoo.AECEnv` over one
:class:`~dominari.core.game.GameState`. Each game module supplies the new game for a seed, the
action codec (legal engine actions to indices) and the observation encoder.

Agents and turns
    ``player_0`` … ``player_{n-1}`` are the engine's seats. ``agent_selection`` is always the
    player the engine waits on (``current_player()``); in Dominion that includes a victim
    answering an Attack, in Dominations a player splitting gained vestigium or choosing a
    draft card, so the same agent may act several times in a row.

Actions
    ``action_space(agent)`` is ``Discrete(N)``, N fixed by the configuration. The mask
    (``observe(agent)["action_mask"]``, ``int8``) has a 1 exactly at the indices legal now for
    the agent to act and is all zeros for the others. It is built from ``legal_actions()``
    through the game's codec, never by trying indices. Most engine actions are one index; the
    codec may split an action into a first and a second index (Dominations: level 1 of a
    monument, the level card's tree position and then where its tile goes): the first step
    only records the choice (the same agent acts again, with the mask of the second step).
    An index that is not legal, or not an integer, raises
    :class:`~dominari.core.errors.IllegalActionError` (a ``ValueError``) saying why (not
    an integer, out of range, or not legal now, naming the legal indices), and changes
    nothing. ``choices()`` maps the legal indices to engine actions,
    ``action_indices(action)`` gives the indices of an engine action (to let a bot play a
    seat), ``index_action(i)`` the action an index would complete, and ``action_text(i)``
    that action in the game's notation (``buy Smithy``, ``city 2,-1``).

Observations
    ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}`` with
    the spaces of ``observation_space(agent)``. The vector encodes only what that player may see
    (seats relative to the observer: slot 0 is the observer, slot 1 the next seat, …); its
    layout is a :class:`Layout` of named blocks (``print(env.layout.describe())`` shows it).

Global state
    ``state()`` is a ``float32`` vector for centralised critics: what the observations show,
    with seats absolute (slot ``q`` is ``player_q``), and what they hide from the players
    (each game's module lists it: hands, drafts, the next cards or tiles to be drawn; not
    the whole order of a shuffled pile). It does not depend on who acts; ``state_space`` is
    its ``Box`` and ``env.state_layout`` its layout. PettingZoo's wrappers pass both on
    (``turn_based_aec_to_parallel`` too; these games are not ``is_parallelizable``). Never
    give it to a seat's own policy: it shows the others' secrets.

Raw views
    With ``raw_view=True`` (the default) ``infos[agent_selection]["view"]`` is the engine's
    ``view(player)`` of the agent to act; once the game is over every agent's info holds its
    final view and ``"outcome"`` (``Outcome.to_json()``). ``view(agent)`` computes any agent's
    view on demand. Other infos are empty dictionaries.

Rewards and the end
    Rewards are 0 until the game ends; then each winner gets ``1 / (number of winners)`` (a
    shared win splits the point) and every other player 0, so rewards always sum to 1. A game
    that the engine stops by a limit that is not a rule (Dominion's ``max_turns``) is a
    *truncation*: every agent is truncated, rewards stay 0, and the engine's outcome (by VP) is
    in the infos. After the end each agent steps once with ``None`` and leaves ``agents``, as
    PettingZoo's dead-step convention has it (another action then is an
    :class:`~dominari.core.errors.IllegalActionError` too).

Rendering
    ``render()`` gives the game as text (``render_mode="ansi"``) or prints it (``"human"``,
    which also prints it after every ``reset()`` and ``step()``, as PettingZoo's games do):
    the public state, the hand of the agent to act and its legal actions in words (the
    first few). It is for people watching or debugging, not an observation: it shows that
    agent's hidden cards.

Seeding
    ``reset(seed=s)`` starts the game the engine starts with seed ``s`` (the same game as
    ``DominionState.new(DominionConfig(..., seed=s))``) and reseeds the environment's own RNG,
    from which ``reset()`` without a seed draws the next game seed; a fresh environment draws
    from system entropy. ``options`` is accepted and ignored.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import operator
import random
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dominari.core.errors import ConfigError, IllegalActionError
from dominari.core.game import GameState

Node = dict[int, Any]
"""A step's legal indices: index → engine action, or → the :data:`Node` of a second step."""

FloatArray = np.ndarray[Any, np.dtype[np.float32]]
MaskArray = np.ndarray[Any, np.dtype[np.int8]]

RENDER_MODES = ("ansi", "human")
_STATE = -1
"""The key of the global state among the cached observations (those are keyed by seat)."""


_SHOWN = 8
"""The most legal actions :meth:`GameEnv.render` names."""


@dataclass(frozen=True)
class Block:
    """A named run of the observation vector: ``size`` values from ``offset``, each within
    ``[low, high]``."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    doc: str

    @property
    def end(self) -> int:
        return self.offset + self.size


class Layout:
    """The named blocks of an observation vector, in order, with their bounds.

    >>> lay = Layout()
    >>> lay.add("phase", 3, doc="one-hot: action, buy, over")
    0
    >>> lay.add("coins", 1, high=1000, doc="coins to spend")
    3
    >>> lay.size, lay["coins"].offset, lay.high().tolist()
    (4, 3, [1.0, 1.0, 1.0, 1000.0])
    >>> print(lay.describe())
         0      3  phase   [0, 1]  one-hot: action, buy, over
         3      1  coins   [0, 1000]  coins to spend
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self._by_name: dict[str, Block] = {}
        self.offsets: dict[str, int] = {}
        """Each block's offset by name (for encoders: one lookup, no :class:`Block`)."""
        self.size = 0

    def add(self, name: str, size: int, low: float = 0.0, high: float = 1.0, doc: str = "") -> int:
        """Append a block; return its offset."""
        if name in self._by_name:
            raise ValueError(f"layout block {name!r} added twice")
        if size < 1 or low > high:
            raise ValueError(f"layout block {name!r}: bad size {size} or bounds {low}..{high}")
        block = Block(name, self.size, size, low, high, doc)
        self.blocks.append(block)
        self._by_name[name] = block
        self.offsets[name] = block.offset
        self.size += size
        return block.offset

    def __getitem__(self, name: str) -> Block:
        return self._by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def low(self) -> FloatArray:
        out = np.empty(self.size, dtype=np.float32)
        for b in self.blocks:
            out[b.offset:b.end] = b.low
        return out

    def high(self) -> FloatArray:
        out = np.empty(self.size, dtype=np.float32)
        for b in self.blocks:
            out[b.offset:b.end] = b.high
        return out

    def describe(self) -> str:
        """One line per block: offset, size, name, bounds and meaning."""
        return "\n".join(f"{b.offset:6d} {b.size:6d}  {b.name}   [{b.low:g}, {b.high:g}]  {b.doc}"
                         for b in self.blocks)


def check_players(num_players: Any, game: str) -> int:
    """``num_players`` as an int from 2 to 4, or :class:`ConfigError` saying why not."""
    if isinstance(num_players, bool) or not isinstance(num_players, int | np.integer) or not (
            2 <= int(num_players) <= 4):
        raise ConfigError(f"{game} is for 2 to 4 players: num_players must be 2, 3 or 4, "
                          f"not {num_players!r}")
    return int(num_players)


def check_options(env_class: type, options: Mapping[str, Any], factory: str,
                  others: str = "", leave: tuple[str, ...] = ()) -> None:
    """:class:`ConfigError` naming the ``options`` that ``factory`` does not take: those
    that are not keyword arguments of ``env_class`` (less ``leave``); the message lists
    the ``others`` it takes first (a typo, ``kingdon=``, was Python's bare ``TypeError``).

    >>> from dominari.envs.dominion import DominionEnv
    >>> check_options(DominionEnv, {"kingdon": "x"}, "dominion_env")
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: dominion_env: unknown option kingdon; the options are \
DominionEnv's num_players, kingdom, max_turns, render_mode, raw_view
    """
    known = [n for n in inspect.signature(env_class).parameters if n not in leave]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ConfigError(f"{factory}: unknown option{'s' if len(unknown) > 1 else ''} "
                          f"{', '.join(unknown)}; the options are {others}"
                          f"{env_class.__name__}'s {', '.join(known)}")


class GameEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The AEC cycle over a :class:`GameState` (see the module docstring). Subclasses
    implement :meth:`_new_game`, :meth:`_choices`, :meth:`_action_indices`,
    :meth:`_observation` and :meth:`_render_text`."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "dominari_game_v0", "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }  # fmt: skip

    def __init__(self, num_players: int, num_actions: int, layout: Layout,
                 render_mode: str | None = None, raw_view: bool = True, *,
                 state_layout: Layout) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if not isinstance(raw_view, bool):
            raise ConfigError(f"raw_view must be True or False, not {raw_view!r}")
        self.render_mode = render_mode
        self._render_each_step = True
        """Whether reset() and step() print the game in human mode (a wrapper that prints
        it itself, once a turn of its own, turns it off)."""
        self.raw_view = raw_view
        self.num_actions = num_actions
        self.layout = layout
        self.possible_agents: list[str] = [f"player_{i}" for i in range(num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = layout.low(), layout.high()
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            }) for a in self.possible_agents
        }  # fmt: skip
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.state_layout = state_layout
        self.state_space = spaces.Box(state_layout.low(), state_layout.high(), dtype=np.float32)
        for space in self._spaces():
            _freeze_bounds(space)  # (shared by copies: see __deepcopy__)
        self._rng = random.Random()
        self.game_seed: int | None = None
        """The engine seed of the current game (``None`` before the first reset)."""
        self._game: GameState | None = None
        self._node: Node = {}
        self._choices_root: Node = {}
        self._prefix: list[int] = []
        self._obs_cache: dict[int, FloatArray] = {}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    _shared_on_copy: ClassVar[frozenset[str]] = frozenset({"layout", "state_layout"})
    """Attributes that never change once the environment is made: a copy shares them."""

    _unchanged: ClassVar[frozenset[str]] = frozenset({"_node", "_choices_root"})
    """Attributes replaced, never changed in place (the legal actions' tree of the decision
    now, which :meth:`choices` gives a copy of): a copy shares them until it replaces its
    own."""

    def __deepcopy__(self, memo: dict[int, Any]) -> GameEnv:
        """An independent copy, as ``copy.deepcopy`` makes it (for search over
        environments), but cheaply: the game by its engine's ``copy()``, what never
        changes (the game data, the action codec, the layout, the legal actions' tree, the
        bounds of the spaces) shared, and the spaces' random generators copied."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        bounds = [array for space in self._spaces() for box in _boxes(space)
                  for array in _bounds(box)]  # fmt: skip
        for array in bounds:
            array.flags.writeable = False  # (an unpickled environment's are writeable)
        with shared_in_copy(memo, bounds):
            for name, value in self.__dict__.items():
                if name in self._shared_on_copy or name in self._unchanged:
                    new.__dict__[name] = value
                elif name == "_game":
                    new.__dict__[name] = None if value is None else value.copy()
                elif type(value) is random.Random:  # (its state: 625 numbers to deep-copy)
                    twin = new.__dict__[name] = memo[id(value)] = random.Random()
                    twin.setstate(value.getstate())
                else:
                    new.__dict__[name] = copy.deepcopy(value, memo)
        return new

    def _spaces(self) -> tuple[spaces.Space[Any], ...]:
        return (*self.observation_spaces.values(), *self.action_spaces.values(),
                self.state_space)  # fmt: skip

    # ------------------------------------------------------------------ game hooks
    def _new_game(self, seed: int) -> GameState:
        raise NotImplementedError

    def _choices(self, game: GameState) -> Node:
        """The legal indices of the decision now (the first step)."""
        raise NotImplementedError

    def _action_indices(self, game: GameState, action: Hashable) -> tuple[int, ...]:
        raise NotImplementedError

    def _observation(self, game: GameState, player: int) -> FloatArray:
        raise NotImplementedError

    def _render_text(self, game: GameState) -> str:
        raise NotImplementedError

    def _state(self, game: GameState) -> FloatArray:
        raise NotImplementedError

    def _truncated(self, game: GameState) -> bool:
        """Whether a finished game was stopped by a limit that is not a rule."""
        return False

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        self._player(agent)  # ConfigError naming the agents for another name
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        self._player(agent)
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ accessors
    @property
    def game(self) -> GameState:
        """The engine state of the current game (treat it as read-only)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    @property
    def pending(self) -> tuple[int, ...]:
        """The first index of a two-step action already chosen, or ``()``."""
        return tuple(self._prefix)

    def choices(self) -> dict[int, Any]:
        """The legal indices now: each maps to the engine action it plays, or (the first step of
        a two-step action) to the mapping of the second step's indices."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return _copy_node(self._node)

    def index_action(self, index: int) -> Any:
        """The engine action legal index ``index`` completes now, or ``None`` when it is the
        first step of a two-step action; :class:`IllegalActionError` if it is not legal."""
        choice = self._node.get(self._check_index(index))
        if choice is None:
            raise IllegalActionError(self._illegal_message(index))
        return None if isinstance(choice, dict) else choice

    def action_text(self, index: int) -> str:
        """Legal index ``index`` now in words: the game's notation of the action it plays,
        or, for the first step of a two-step action, what its actions share and how many
        second steps follow; :class:`IllegalActionError` if it is not legal.

        >>> from dominari.envs import dominion_env
        >>> env = dominion_env(kingdom="first-game")
        >>> env.reset(seed=1)
        >>> sorted(env.action_text(i) for i in env.choices())[:3]
        ['buy Cellar', 'buy Copper', 'buy Curse']
        """
        choice = self._node.get(self._check_index(index))
        if choice is None:
            raise IllegalActionError(self._illegal_message(index))
        if not isinstance(choice, dict):
            return self.game.format_action(choice)
        words = [self.game.format_action(a).split(" ") for a in choice.values()]
        shared = []
        for column in zip(*words, strict=False):  # the words all the actions begin with
            if any(w != column[0] for w in column):
                break
            shared.append(column[0])
        lead = " ".join(shared)
        then = f"one of {len(words)}" if len(words) > 1 else "its one second step"
        return f"{lead}{' ' if lead else ''}… (a first step: then {then})"

    def action_indices(self, action: Hashable) -> tuple[int, ...]:
        """The indices to step, in order, to play the legal engine action ``action`` (after
        any already chosen first step, see :attr:`pending`)."""
        path = self._action_indices(self.game, action)
        node: Any = self._choices_root
        for i in path:
            if not isinstance(node, dict) or i not in node:
                raise IllegalActionError(f"{self._quote(action)} is not legal now")
            node = node[i]
        if node != action:
            raise IllegalActionError(f"{self._quote(action)} is not legal now")
        if path[:len(self._prefix)] != tuple(self._prefix):
            chosen = ", ".join(map(str, self._prefix))
            raise IllegalActionError(f"{self._quote(action)} does not follow the first step "
                                     f"already chosen (index {chosen})")  # fmt: skip
        return path[len(self._prefix):]

    def _quote(self, action: Hashable) -> str:
        """``action`` in the game's notation, or its repr where it has none."""
        try:
            return repr(self.game.format_action(action))
        except Exception:  # not an action of this game
            return repr(action)

    def view(self, agent: str) -> dict[str, Any]:
        """The engine's raw view of ``agent`` (what that player may see), now."""
        return self.game.view(self._player(agent))

    def _player(self, agent: str) -> int:
        """The seat of ``agent``; :class:`ConfigError` naming the agents for another name."""
        seat = self._seat.get(agent)
        if seat is None:
            raise ConfigError(f"no agent {agent!r}: the agents are "
                              f"{', '.join(self.possible_agents)}")
        return seat

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool | np.bool_) or not hasattr(seed, "__index__"):
                raise ConfigError(f"a seed is a non-negative integer, not {seed!r}")
            seed = operator.index(seed)
            if seed < 0:  # Random(-s) plays Random(s)'s game: a sweep would repeat games
                raise ConfigError(f"a seed is a non-negative integer, not {seed}")
            self._rng.seed(seed)
            game_seed = seed
        else:
            game_seed = self._rng.getrandbits(63)
        self.game_seed = game_seed
        self._game = self._new_game(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._after_move()
        if self.render_mode == "human" and self._render_each_step:
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        player = self._player(agent)
        obs = self._obs_cache.get(player)
        if obs is None:
            obs = self._observation(self.game, player)
            self._obs_cache[player] = obs
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if (agent == self.agent_selection and agent in self.terminations
                and not self.terminations[agent] and not self.truncations[agent] and self._node):
            mask[np.fromiter(self._node, dtype=np.int64, count=len(self._node))] = 1
        return {"observation": obs.copy(), "action_mask": mask}

    def state(self) -> FloatArray:
        """The global state vector now (see the module docstring), hidden parts included; a
        new array each call."""
        state = self._obs_cache.get(_STATE)
        if state is None:
            state = self._state(self.game)
            self._obs_cache[_STATE] = state
        return state.copy()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_live()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def step(self, action: Any) -> None:
        self._check_live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"the game is over for {agent}: step it with None "
                                         f"(its last step), not {action!r}")
            self._was_dead_step(action)
            return
        index = self._check_index(action)
        choice = self._node.get(index)
        if choice is None:
            raise IllegalActionError(self._illegal_message(index))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(choice, dict):
            self._prefix.append(index)
            self._node = choice
            self._obs_cache.clear()
        else:
            self.game.apply(choice)
            self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human" and self._render_each_step:
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode "
                                  "(use render_mode='ansi' or 'human')")
            return None
        text = self._render_text(self.game)
        if self._node:  # what the agent to act may do, in words
            legal = [self.action_text(i) for i in sorted(self._node)[:_SHOWN]]
            more = len(self._node) - len(legal)
            text += (f"\n{self.agent_selection} to act, {len(self._node):,} legal action"
                     f"{'s' if len(self._node) != 1 else ''}"
                     f"{' (second step)' if self._prefix else ''}: {'; '.join(legal)}"
                     f"{f' … and {more:,} more' if more else ''}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ internals
    def _check_live(self) -> None:
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has taken its last step: "
                               "call reset() to start another")

    def _check_index(self, action: Any) -> int:
        if action is None or isinstance(action, bool | np.bool_):
            raise IllegalActionError(
                f"{self.agent_selection} must act: expected an action index 0 to "
                f"{self.num_actions - 1}, got {action!r}")
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"an action is an integer index 0 to {self.num_actions - 1}"
                                     f", not {action!r}") from None
        if not 0 <= index < self.num_actions:
            raise IllegalActionError(f"action index {index} is out of range 0 to "
                                     f"{self.num_actions - 1}")
        return index

    def _illegal_message(self, index: int) -> str:
        legal = sorted(self._node)
        shown = ", ".join(map(str, legal[:12])) + (" …" if len(legal) > 12 else "")
        step = " (second step)" if self._prefix else ""
        return (f"action index {index} is not legal for {self.agent_selection} now{step}; "
                f"legal: {shown} (see the action mask)")

    def _after_move(self) -> None:
        """Update turn, choices, rewards and infos after the engine moved (or a reset)."""
        game = self.game
        self._prefix = []
        self._obs_cache.clear()
        for a in self.agents:
            self.infos[a] = {}
        if game.is_terminal():
            self._node = self._choices_root = {}
            self._finish(game)
            return
        player = game.current_player()
        self.agent_selection = self.possible_agents[player]
        self._node = self._choices_root = self._choices(game)
        if not self._node:  # pragma: no cover - the engines always offer an action
            raise RuntimeError(f"the engine offers no legal action to player {player}")
        if self.raw_view:
            self.infos[self.agent_selection]["view"] = game.view(player)

    def _finish(self, game: GameState) -> None:
        outcome = game.outcome()
        assert outcome is not None
        truncated = self._truncated(game)
        winners = outcome.winners
        for a in self.agents:
            p = self._seat[a]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
                self.rewards[a] = 1.0 / len(winners) if p in winners else 0.0
            info: dict[str, Any] = {"outcome": outcome.to_json()}
            if self.raw_view:
                info["view"] = game.view(p)
            self.infos[a] = info


def _copy_node(node: Node) -> dict[int, Any]:
    """``node`` and the nodes below it copied (their actions, immutable, shared)."""
    return {i: _copy_node(c) if isinstance(c, dict) else c for i, c in node.items()}


@contextlib.contextmanager
def shared_in_copy(memo: dict[int, Any], objects: Iterable[Any]) -> Iterator[None]:
    """Within it, ``copy.deepcopy(..., memo)`` shares ``objects`` instead of copying them.
    They are shared for this one copy alone: they leave ``memo`` after it, so that the same
    objects copied beside it in one ``copy.deepcopy`` call (a caller's list of the
    environment and its bounds, say) are copies. Objects already in ``memo`` stay as the
    memo has them."""
    shared = {id(o): o for o in objects if id(o) not in memo}
    memo.update(shared)
    try:
        yield
    finally:
        for key in shared:
            del memo[key]


def _boxes(space: spaces.Space[Any]) -> list[spaces.Box]:
    if isinstance(space, spaces.Dict):
        return [box for sub in space.spaces.values() for box in _boxes(sub)]
    return [space] if isinstance(space, spaces.Box) else []


def _bounds(box: spaces.Box) -> tuple[Any, ...]:
    return (box.low, box.high, box.bounded_below, box.bounded_above)


def _freeze_bounds(space: spaces.Space[Any]) -> None:
    """Make the bounds of ``space``'s boxes read-only (they never change; copies of the
    environment share them)."""
    for box in _boxes(space):
        for array in _bounds(box):
            array.flags.writeable = False
