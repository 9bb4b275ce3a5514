"""The decision interface shared by bots, humans and ML agents.

A bot is asked to act only when ``state.current_player()`` is its seat; it
returns one of ``state.legal_actions()`` (or any action ``state.apply``
accepts). Bots own their randomness: ``reset(seed)`` is called before every
game, so a simulation is reproducible from its seed. ``act`` is given the game's real
state, hidden cards and all: a fair bot reads only what its seat may see
(``state.view(seat)``; a search samples the rest with ``state.determinize``), and no bot
may change the state (work on ``state.copy()``): the game would no longer replay from its
record, and the runner's ``play_game`` stops a bot that plays a move on it.

:class:`Bot` is a Dominion bot, :class:`DominationsBot` a Dominations one;
:class:`GameBot` is either (what the game-agnostic runner's ``play_game`` takes). A
simulation or a tournament takes its bots by their specs, not as objects, and makes them
in each worker: a built-in name, a strategy file's path, or a bot of your own in Python,
``FILE.py:NAME`` (:mod:`dominari.bots.python_bot`).

A bot may hand each whole game to another bot: its ``for_game(state)`` names the bot that
plays ``state``'s game (``best`` plays each Dominion game as its kingdom's best rule
bot). The runner asks :func:`playing` once a game, after ``reset(seed)``, so that such a
game is played at the speed of the bot that really plays it; passing the reset on to that
bot is the handing bot's own business (``best``'s strategies have nothing to reset).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn, Protocol, runtime_checkable

from dominari.core.checks import seed as seed_value
from dominari.core.errors import ConfigError, DominariError, IllegalActionError

if TYPE_CHECKING:
    from dominari.dominations.engine import DominationsState
    from dominari.dominations.notation import Action as DominationsAction
    from dominari.dominion.actions import Action
    from dominari.dominion.engine import DominionState


@runtime_checkable
class Bot(Protocol):
    """A Dominion bot: a ``name``, ``reset(seed)`` and ``act(state) -> Action``."""

    name: str

    def reset(self, seed: int) -> None:
        """Prepare for a new game; seed any randomness from ``seed``."""

    def act(self, state: DominionState) -> Action:
        """The action for ``state.current_player()`` in ``state``."""


@runtime_checkable
class DominationsBot(Protocol):
    """A Dominations bot: a ``name``, ``reset(seed)`` and ``act(state) -> Action``."""

    name: str

    def reset(self, seed: int) -> None:
        """Prepare for a new game; seed any randomness from ``seed``."""

    def act(self, state: DominationsState) -> DominationsAction:
        """The action for ``state.current_player()`` in ``state``."""


@runtime_checkable
class GameBot(Protocol):
    """A bot of any game (the runner passes it states of the game it was loaded for)."""

    name: str

    def reset(self, seed: int) -> None:
        """Prepare for a new game; seed any randomness from ``seed``."""

    def act(self, state: Any) -> Any:
        """The action for ``state.current_player()`` in ``state``."""


def playing(bot: GameBot, state: Any) -> GameBot:
    """The bot that plays ``state``'s game in ``bot``'s seat: ``bot.for_game(state)``
    where ``bot`` hands each game to another, else ``bot`` itself.

    >>> from dominari.bots import load_bot
    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> s = DominionState.new(DominionConfig(kingdom="first-game", seed=1))
    >>> playing(load_bot("best"), s).name, playing(load_bot("bmu"), s).name
    ('Smithy', 'BMU')
    """
    for_game = getattr(bot, "for_game", None)
    return bot if for_game is None else for_game(state)


def check_seed(seed: object) -> int:
    """``seed`` checked as a bot's seed: a whole number of 0 or more, as every seed is (a
    ``ConfigError`` otherwise; ``random.Random`` would play ``-5`` as ``5``).

    >>> check_seed(7)
    7
    >>> check_seed(-5)
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: a bot's seed is a whole number of 0 or more, not -5
    """
    return seed_value(seed, "a bot's seed")


def misuse(state: object, game: str | None, name: str) -> DominariError | None:
    """Why a bot named ``name`` could not act on ``state``, as a clear error, or None
    where ``state`` is a game in play of its own (the bot's own failure): a
    :class:`ConfigError` for a state of another game than ``game`` (None: a bot of any
    game, given something that is no game's state), an :class:`IllegalActionError` for a
    finished game. A rule bot asks it only once its own code has failed, so that a
    decision pays nothing for the check; a search bot asks it before each search, whose
    cost it is nothing beside.

    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> s = DominionState.new(DominionConfig(seed=1))
    >>> misuse(s, "dominion", "BM") is None
    True
    >>> misuse(s, "dominations", "greedy")
    ConfigError('greedy plays dominations games, not a DominionState')
    """
    kind = getattr(state, "game_name", None)
    if game is not None and kind != game:
        return ConfigError(f"{name} plays {game} games, not a {type(state).__name__}")
    if not isinstance(kind, str):
        return ConfigError(f"{name} plays a game's state, not a {type(state).__name__}")
    try:
        over = state.is_terminal()  # type: ignore[attr-defined]
    except Exception:  # a state broken some other way: the bot's error says more
        return None
    if over is True:
        return IllegalActionError("the game is over: there is no decision to make")
    return None


def raise_misuse(exc: Exception, state: object, game: str | None, name: str) -> NoReturn:
    """Raise what a bot named ``name`` raises once its own code failed with ``exc`` on
    ``state``: :func:`misuse`'s clear error where the state is the cause (``exc`` left
    out of it), else ``exc`` again, as it was::

        except Exception as exc:  # told apart only now: a decision pays nothing for it
            raise_misuse(exc, state, "dominion", self.name)
    """
    error = misuse(state, game, name)
    if error is None:
        raise exc
    raise error from None
