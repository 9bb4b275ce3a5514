"""One seat against Dominari's bots: a single-agent Gymnasium environment.

:class:`VersusEnv` turns a game environment (:class:`~dominari.envs.dominion.DominionEnv`,
:class:`~dominari.envs.dominations.DominationsEnv`) into a ``gymnasium.Env`` for the agent
of one seat; the other seats are played by bots, any bot name the simulator takes
(``smithy``, ``best``, ``greedy``, ``mcts-easy``, a strategy file …) or a bot object, or
by policies over observations (:class:`PolicyOpponent`, or any callable: a frozen copy
of the agent, for self-play). It is what a learner of one policy against fixed
opponents, or an evaluation against them, needs: ``reset()`` then ``step()`` until the
episode ends, no agent loop.

Episodes
    ``reset(seed=s)`` deals the game the AEC environment deals for seed ``s`` (the engine's
    game of that seed) and plays the bots' decisions up to the agent's first one;
    ``step(index)`` plays the agent's index, then the bots' decisions until the agent must
    decide again or the game ends. A Dominations level 1 monument takes two of the
    agent's steps, as in the AEC environment. ``reset()`` without a seed draws the next
    game seed from the generator a seeded reset set (system entropy before any).

Seats
    ``seat=0`` (the default) … ``num_players - 1``: the agent always plays that seat.
    ``seat=None`` draws it at each reset, from the game's seed (the same seed, the same
    seat, a drawn one's too: ``reset(seed=info["game_seed"])`` plays an episode again),
    so that the agent sits at every place among the bots: who plays before it and who
    after. (Who begins is the engine's draw from the game's seed, whatever the seat.)
    ``env.seat`` is the seat of the current episode; the bots fill the other seats in
    the order given.

Observations, actions, rewards
    The AEC environment's: ``observation_space`` is its ``Dict`` of the ``float32`` vector
    and the ``int8`` action mask, ``action_space`` its ``Discrete`` index space, and
    ``action_masks()`` the mask as booleans (for maskable learners, sb3-contrib's
    ``MaskablePPO`` among them). The reward is the agent's share of the win (1, or 1/k of
    a win shared by k) when the game ends, else 0. A game the engine stops by a limit that
    is not a rule (Dominion's ``max_turns``) is *truncated*, reward 0.

Infos
    ``seat``, the agent's seat; ``game_seed``, the seed of the episode's game (drawn where
    ``reset()`` was given none: with it, ``reset(seed=game_seed)`` plays the episode
    again, whatever vector of environments it was logged from); ``players``, what plays
    each seat this episode (the bot's name, the rule bot that ``best`` plays for this
    kingdom, say ``Witch``; None at the agent's seat); ``view`` (with ``raw_view=True``,
    the default), the engine's view of the agent's seat; at the end of the game
    ``outcome`` (``Outcome.to_json()``). An illegal loss (``illegal="lose"``) ends the
    episode, not the game: its info has ``illegal`` instead of an outcome.

Illegal indices
    ``illegal="raise"`` (the default): an index that is not legal raises
    :class:`~dominari.core.errors.IllegalActionError` (a ``ValueError``) saying why, and
    changes nothing. ``illegal="lose"`` ends the episode instead: terminated, reward
    ``illegal_reward`` (default -1), the reason in ``info["illegal"]``; for learners
    that do not mask (Gymnasium's ``check_env`` steps random indices too, and passes in
    this mode). What is not an index of the action space at all (a float, an array, out
    of range) raises in both modes: a bug, not a move.

Policy opponents
    ``policy(obs) -> index`` gets its seat's observation, as the agent's (the vector and
    the mask, seats relative to that seat), and its index is stepped as the agent's is:
    a level 1 monument's second step is asked for again. An illegal index, or an
    exception, raises :class:`~dominari.sim.runner.BotError` and ends the episode. Its
    randomness is its own: the seeds do not reach it. A policy is *shared*, never copied
    (not by the environment, nor by ``copy.deepcopy`` of it): the environments given one
    policy (a vector of them, the copies of one) all play that object, so that a model's
    weights are one, and a learner that updates them updates every opponent made of them.

Registered ids
    ``gymnasium.make("dominari/DominionVersus-v0", opponents=["smithy"], ...)`` and
    ``"dominari/DominationsVersus-v0"`` build them (keyword arguments as the factories'),
    once :mod:`dominari.envs` is imported.

Bots
    Each bot is reset for each game with a seed drawn from the game's seed and its seat,
    so an episode with a seed is the same episode every time (a search bot with a time
    budget, ``mcts:seconds=…``, excepted: its work depends on the clock). Each environment
    plays its own bots: a bot given by name is loaded for it, and a bot object given is
    *copied* (``copy.deepcopy``) when the environment is made, so that the environments
    made with one bot object (``gymnasium.make_vec(..., opponents=[bot])``, or one per
    thread) do not play on one bot's state (a search bot's random generator), and the
    object given is left as it was. A bot that cannot be copied is refused
    (:class:`~dominari.core.errors.ConfigError`); one whose ``__deepcopy__`` returns
    itself is shared, at its owner's risk. ``copy.deepcopy`` of the environment copies
    its bots too (the copy plays on as the original would, on its own). A bot that
    chooses an action the engine rejects, or fails while beginning a game or deciding (a
    bot of the other game fails at one or the other), raises
    :class:`~dominari.sim.runner.BotError` naming it and the game's seed; the episode is
    then over (``reset()`` to go on). ``decision_timeout=S`` (seconds) holds the bots (not
    the policies) to S seconds a decision and S for ``reset``, as ``simulate``'s
    ``--decision-timeout`` does: a bot that takes longer raises a ``BotError``, stopped
    where it runs past it in the main thread (see :mod:`dominari.sim.deadline`).

Rendering
    ``render_mode="human"`` prints the game after each ``reset()`` and ``step()``;
    ``"ansi"`` gives its text from ``render()``.

>>> env = dominion_versus(opponents=["smithy"], kingdom="first-game")
>>> obs, info = env.reset(seed=7)
>>> info["seat"], env.opponents, obs["action_mask"].dtype, info["players"]
(0, ('Smithy',), dtype('int8'), (None, 'Smithy'))
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> terminated = truncated = False
>>> while not (terminated or truncated):
...     legal = np.flatnonzero(env.action_masks())
...     obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
>>> reward, info["outcome"]["winners"]   # random buys lose to Smithy
(0.0, [1])
"""

from __future__ import annotations

import copy
import math
import numbers
import operator
import os
import random
from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium
import numpy as np

from dominari.bots import load_bot
from dominari.bots.base import GameBot, check_seed, playing
from dominari.core.errors import ConfigError, DominariError, IllegalActionError
from dominari.envs.base import GameEnv, check_options, shared_in_copy
from dominari.envs.dominations import DominationsEnv
from dominari.envs.dominion import DominionEnv
from dominari.sim.deadline import check_decision_timeout
from dominari.sim.runner import BotError, ask_bot, bots_own_stop, derive_seed, reset_bots

ILLEGAL = ("raise", "lose")
"""What an illegal index of the agent does: raise, or end the episode as a loss."""


class VersusEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """The agent of one seat of ``env`` against ``opponents`` (bot names, bot objects, of
    which the environment plays its own copies, or policies, which it shares: one per
    other seat, filling the seats other than the agent's in the order given). See the
    module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (as gymnasium.Env declares it)
        "render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, env: GameEnv, opponents: Sequence[str | os.PathLike[str] | GameBot],
                 seat: int | None = 0, illegal: str = "raise",
                 illegal_reward: float = -1.0, decision_timeout: float | None = None) -> None:
        if not isinstance(env, GameEnv):
            raise ConfigError(f"VersusEnv wraps a Dominari game environment, not {env!r}")
        self.aec = env
        """The game's AEC environment that the episodes play (treat it as read-only)."""
        game = "dominion" if isinstance(env, DominionEnv) else "dominations"
        players = len(env.possible_agents)
        _check_list(opponents)
        if len(opponents) != players - 1:
            raise ConfigError(f"{players} players need {players - 1} opponent"
                              f"{'s' if players > 2 else ''}, not {len(opponents)} "
                              f"({', '.join(map(str, opponents)) or 'none'})")
        self._bots: list[GameBot | PolicyOpponent] = [_opponent(b, game) for b in opponents]
        if seat is not None:
            if isinstance(seat, bool) or not hasattr(seat, "__index__") \
                    or not 0 <= operator.index(seat) < players:
                raise ConfigError(f"seat is None (drawn each game) or a seat 0 to "
                                  f"{players - 1}, not {seat!r}")
            seat = operator.index(seat)
        self.fixed_seat = seat
        if illegal not in ILLEGAL:
            raise ConfigError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.illegal = illegal
        reward: Any = illegal_reward  # a NumPy number too
        if isinstance(reward, bool | np.bool_) or not isinstance(reward, numbers.Real) \
                or not math.isfinite(reward):
            raise ConfigError(f"illegal_reward is a finite number, not {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        self.decision_timeout = check_decision_timeout(decision_timeout)
        """The most seconds a bot opponent may take over one decision, or over ``reset``
        (None: no limit; see the module docstring)."""
        self.observation_space = env.observation_space(env.possible_agents[0])
        self.action_space = env.action_space(env.possible_agents[0])
        self.render_mode = env.render_mode
        env._render_each_step = False  # printed here once the bots have answered
        self.seat = seat if seat is not None else 0
        """The agent's seat in the current episode."""
        self._players: list[GameBot | PolicyOpponent | None] = []
        self._info: dict[str, Any] = {"seat": self.seat}
        """What every info of the episode holds (the seat, the game's seed, the players)."""
        self._over = True
        self._reward = 0.0

    @property
    def opponents(self) -> tuple[str, ...]:
        """The bots' names, in the order given."""
        return tuple(b.name for b in self._bots)

    @property
    def game(self) -> Any:
        """The engine state of the current game (treat it as read-only)."""
        return self.aec.game

    @property
    def agent(self) -> str:
        """The agent's name in the AEC environment (``player_<seat>``)."""
        return self.aec.possible_agents[self.seat]

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """Deal a new game (see the module docstring); ``options`` is accepted and
        ignored. If a bot fails while playing up to the agent's first decision, the
        episode is over (``reset()`` again)."""
        self.aec.reset(seed=seed)  # ConfigError for a bad seed, before anything changes
        self._over = True  # until the bots have played up to the agent's first decision
        if seed is not None:
            seed = operator.index(seed)  # a NumPy integer, as the game took it
        super().reset(seed=seed)
        game_seed = self.aec.game_seed  # (the seed given, else drawn)
        n = len(self.aec.possible_agents)
        self.seat = self.fixed_seat if self.fixed_seat is not None \
            else random.Random(derive_seed("versus-seat", game_seed)).randrange(n)
        state = self.aec.game
        bots = iter(self._bots)
        self._players = []
        for q in range(n):
            if q == self.seat:
                self._players.append(None)
                continue
            bot = next(bots)
            try:
                if not isinstance(bot, PolicyOpponent):
                    bot = playing(bot, state)  # ``best``: the kingdom's rule bot
                seed_q = derive_seed("versus-bot", game_seed, q)
                if self.decision_timeout is None or isinstance(bot, PolicyOpponent):
                    bot.reset(seed_q)
                else:
                    reset_bots([bot], [seed_q], self.aec.possible_agents,
                               self.decision_timeout, seats=[q])  # fmt: skip
            except (MemoryError, BotError):
                raise
            except Exception as exc:  # a bug in the bot, or a bot of the other game
                who = f"bot {bot.name!r} ({self.aec.possible_agents[q]})"
                raise BotError(f"{who} could not begin the game with seed {game_seed}: "
                               f"{type(exc).__name__}: {exc}").of(game_seed, who) from exc
            self._players.append(bot)
        self._info = {"seat": self.seat, "game_seed": game_seed,
                      "players": tuple(None if b is None else b.name for b in self._players)}
        self._reward = 0.0
        self._play_bots()
        obs, _, _, _, info = self._result()  # the episode begins: not over
        if self.render_mode == "human":
            self.aec.render()
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool,
                                          dict[str, Any]]:
        """Play the agent's index, then the bots up to the agent's next decision or the
        end."""
        if self._over:
            raise RuntimeError("the episode is over (or not begun): call reset()")
        aec = self.aec
        aec._check_index(action)  # not an index in range: raised, whatever ``illegal`` says
        self._reward = 0.0
        try:
            aec.step(action)
        except IllegalActionError as exc:
            if self.illegal == "raise":
                raise
            self._over = True
            obs = aec.observe(self.agent)
            obs["action_mask"][:] = 0
            info = {**self._info, "illegal": str(exc)}
            if aec.raw_view:
                info["view"] = aec.view(self.agent)
            return obs, self.illegal_reward, True, False, info
        self._reward += aec.rewards[self.agent]
        self._over = True  # until the bots have played: a bot that fails ends the episode
        self._play_bots()
        result = self._result()
        if self.render_mode == "human":
            aec.render()
        return result

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal indices now, as booleans (all False once the episode is over)."""
        if self._over:
            return np.zeros(self.aec.num_actions, dtype=np.bool_)
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def __deepcopy__(self, memo: dict[int, Any]) -> VersusEnv:
        """An independent copy (its game environment and bots copied), but for its policy
        opponents and their policies, which the copy shares (see the module docstring)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        policies = [o for b in self._bots if isinstance(b, PolicyOpponent)
                    for o in (b, b.policy)]  # fmt: skip
        with shared_in_copy(memo, policies):
            for name, value in self.__dict__.items():
                new.__dict__[name] = copy.deepcopy(value, memo)
        return new

    def close(self) -> None:
        self.aec.close()

    # ------------------------------------------------------------------ internals
    def _play_bots(self) -> None:
        """The others' decisions until the agent's or the end. A bot's action goes to the
        engine straight (the engine checks it), and the AEC environment catches up once,
        when the agent is to act or the game is over: no index map, no view for the bots'
        decisions. A policy opponent plays through the AEC environment, as the agent."""
        aec, game = self.aec, self.aec.game
        behind = False  # the engine has moved since the AEC environment last looked
        p = game.current_player()
        while p >= 0 and p != self.seat:
            bot = self._players[p]
            assert bot is not None
            who = f"bot {bot.name!r} ({aec.possible_agents[p]})"
            if isinstance(bot, PolicyOpponent):
                if behind:
                    aec._after_move()
                    behind = False
                self._play_policy(bot, who)
                p = game.current_player()
                continue
            action = ask_bot(bot, game, who, self.decision_timeout)  # (changed it: stopped)
            try:
                game.apply(action)
            except DominariError as exc:
                raise BotError(f"{who} chose {_quote(game, action)} in the game with seed "
                               f"{aec.game_seed}: {exc}").of(aec.game_seed, who) from None
            behind = True
            p = game.current_player()
        if behind:
            aec._after_move()  # the agent's turn (choices, view) or the end (rewards)
            aec._accumulate_rewards()
            self._reward += aec.rewards[self.agent]

    def _play_policy(self, bot: PolicyOpponent, who: str) -> None:
        """One index of a policy opponent, chosen from its seat's observation and mask."""
        aec = self.aec
        index = self._ask(who, bot.policy, aec.observe(aec.agent_selection))
        try:
            aec.step(index)
        except IllegalActionError as exc:
            raise BotError(f"{who} chose index {index!r} in the game with seed "
                           f"{aec.game_seed}: {exc}").of(aec.game_seed, who) from None
        self._reward += aec.rewards[self.agent]

    def _ask(self, who: str, decide: Callable[[Any], Any], what: Any) -> Any:
        """``decide(what)``: a policy opponent's decision (a bot's goes through
        :func:`~dominari.sim.runner.ask_bot`), any failure of it (a bug, the project's own
        errors, which are not the agent's) a :class:`BotError` naming ``who`` and the
        game's seed."""
        try:
            return decide(what)
        except MemoryError:
            raise
        except Exception as exc:
            raise BotError.deciding(self.aec.game_seed, who, exc) from exc
        except BaseException as exc:  # ``sys.exit`` in the policy (not Ctrl-C, a signal)
            if not bots_own_stop(exc, anywhere=True):
                raise
            raise BotError.deciding(self.aec.game_seed, who, exc) from exc

    def _result(self) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool,
                               dict[str, Any]]:
        aec, me = self.aec, self.agent
        terminated, truncated = aec.terminations[me], aec.truncations[me]
        self._over = terminated or truncated
        info = {**self._info, **aec.infos[me]}
        return aec.observe(me), self._reward, terminated, truncated, info


class PolicyOpponent:
    """An opponent that decides as the agent does: ``policy(obs)`` gets its seat's
    observation (the ``{"observation", "action_mask"}`` of the AEC environment, a Dominations
    level 1 monument's second step included) and returns a legal index. For self-play,
    a frozen copy of the agent's policy; a plain callable among the opponents is taken as
    one (named after it). It handles its own randomness: ``reset`` does nothing. The
    environments given one policy share it (it is not copied, as a bot object is)."""

    def __init__(self, policy: Callable[[dict[str, np.ndarray[Any, Any]]], Any],
                 name: str | None = None) -> None:
        if not callable(policy):
            raise ConfigError(f"a policy opponent needs a callable policy, not {policy!r}")
        if name is not None and not isinstance(name, str):
            raise ConfigError(f"a policy opponent's name is a string, not {name!r}")
        self.policy = policy
        self.name = name if name is not None else str(getattr(policy, "__name__", "policy"))

    def reset(self, seed: int) -> None:
        """Nothing to reset (the seed is checked all the same)."""
        check_seed(seed)

    def __repr__(self) -> str:
        return f"PolicyOpponent({self.name!r})"


def _check_list(opponents: Any) -> None:
    """:class:`ConfigError` unless ``opponents`` is a list (a sequence, not a string)."""
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        raise ConfigError(f"opponents is a list of bots, one per other seat, not "
                          f"{opponents!r}")


def _opponent(spec: Any, game: str) -> GameBot | PolicyOpponent:
    """A bot by its spec (a name, a strategy file's path as a string or a path object, a
    Python bot's ``FILE.py:NAME``), loaded; a bot object, copied (the environment's own);
    a :class:`PolicyOpponent`, or a callable policy (wrapped in one), shared."""
    if isinstance(spec, str | os.PathLike):
        return load_bot(spec, game)
    if isinstance(spec, PolicyOpponent):
        return spec
    if isinstance(spec, type):
        raise ConfigError(f"an opponent is a bot, not a class: {spec.__name__}() makes one")
    if callable(getattr(spec, "act", None)) and callable(getattr(spec, "reset", None)) \
            and isinstance(getattr(spec, "name", None), str):
        try:
            return cast(GameBot, copy.deepcopy(spec))
        except MemoryError:
            raise
        except Exception as exc:  # a lock, a connection, a generator ... in the bot
            raise ConfigError(f"bot {spec.name!r} cannot be copied, and each environment "
                              f"plays its own copy of a bot object: {type(exc).__name__}: "
                              f"{exc} (give the bot by its spec, a name or FILE.py:NAME, "
                              f"or make it copyable)") from exc
    if callable(spec) and not hasattr(spec, "act"):
        return PolicyOpponent(spec)
    raise ConfigError(f"an opponent is a bot's spec (a name, a strategy file, FILE.py:NAME), "
                      f"a bot with a name, "
                      f"reset() and act(), or a policy (a callable of an observation), not "
                      f"{spec!r}")


def _quote(state: Any, action: Any) -> str:
    try:
        return repr(state.format_action(action))
    except Exception:  # a bot's nonsense need not be printable in notation
        return repr(action)


def dominion_versus(opponents: Sequence[str | os.PathLike[str] | GameBot] = ("best",),
                    seat: int | None = 0, illegal: str = "raise", illegal_reward: float = -1.0,
                    decision_timeout: float | None = None, **kwargs: Any) -> VersusEnv:
    """Dominion for one agent against ``opponents`` (one per other seat; the default, the
    kingdom's best rule bot); other keyword arguments are :class:`DominionEnv`'s, the number
    of players following from the opponents."""
    return _versus(DominionEnv, opponents, seat, illegal, illegal_reward, decision_timeout,
                   kwargs)


def dominations_versus(opponents: Sequence[str | os.PathLike[str] | GameBot] = ("greedy",),
                       seat: int | None = 0, illegal: str = "raise",
                       illegal_reward: float = -1.0, decision_timeout: float | None = None,
                       **kwargs: Any) -> VersusEnv:
    """Dominations for one agent against ``opponents`` (one per other seat; the default,
    ``greedy``); other keyword arguments are :class:`DominationsEnv`'s."""
    return _versus(DominationsEnv, opponents, seat, illegal, illegal_reward,
                   decision_timeout, kwargs)


def _versus(env_class: type[DominionEnv] | type[DominationsEnv], opponents: Any,
            seat: int | None, illegal: str, illegal_reward: float,
            decision_timeout: float | None, kwargs: dict[str, Any]) -> VersusEnv:
    if "num_players" in kwargs:
        raise ConfigError("the number of players follows from the opponents (one per other "
                          "seat); do not give num_players")
    check_options(env_class, kwargs,
                  "dominion_versus" if env_class is DominionEnv else "dominations_versus",
                  "opponents, seat, illegal, illegal_reward, decision_timeout and ",
                  ("num_players",))
    _check_list(opponents)
    if not 1 <= len(opponents) <= 3:
        raise ConfigError(f"1 to 3 opponents (2 to 4 players), not {len(opponents)}")
    check_decision_timeout(decision_timeout)  # before the game environment is made
    env = env_class(num_players=len(opponents) + 1, **kwargs)
    return VersusEnv(env, opponents, seat, illegal, illegal_reward, decision_timeout)


ENV_IDS = {"dominari/DominionVersus-v0": dominion_versus,
           "dominari/DominationsVersus-v0": dominations_versus}
"""The Gymnasium ids of the factories: ``gymnasium.make("dominari/DominionVersus-v0",
opponents=["smithy"], kingdom="first-game")`` (registered when :mod:`dominari.envs` is
imported)."""
for _id, _factory in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=f"{__name__}:{_factory.__name__}")
