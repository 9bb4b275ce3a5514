"""Bots: for Dominion a random bot and strategy bots defined by TOML files; for
Dominations a random bot and a greedy one; for both, information-set Monte Carlo tree
search at three levels (``mcts-easy``, ``mcts``, ``mcts-hard``). Bot names are per game.

>>> BUILTIN_BOTS[:6]
('random', 'bm', 'bmu', 'smithy', 'smithy-market', 'witch')
>>> load_bot("bmu").name
'BMU'
>>> bot_names("dominations")
('random', 'greedy', 'mcts-easy', 'mcts', 'mcts-hard')
>>> load_bot("random", game="dominations")
DominationsRandomBot('random')
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal, overload

from dominari.bots.base import Bot, DominationsBot, GameBot
from dominari.bots.mcts import SEARCH_BOTS, MCTSBot, mcts_bot, search_spec
from dominari.bots.python_bot import load_python_bot, python_spec
from dominari.bots.random_bot import RandomBot
from dominari.bots.strategy import (
    Strategy,
    StrategyBot,
    load_strategy,
    parse_strategy_text,
)
from dominari.core.errors import ConfigError, StrategyError, UnknownBotError

BUILTIN_STRATEGIES: tuple[str, ...] = (
    "bm", "bmu", "smithy", "smithy-market", "witch", "militia", "council-room", "library",
    "laboratory", "market", "moat", "bureaucrat", "moneylender", "workshop-gardens",
)  # fmt: skip
BUILTIN_BOTS: tuple[str, ...] = ("random", *BUILTIN_STRATEGIES, "best")
"""The Dominion bots by name (strategy file paths work too); ``best`` plays each game as
its kingdom's best rule bot (:class:`~dominari.bots.kingdom.KingdomBestBot`)."""
DOMINATIONS_BOTS: tuple[str, ...] = ("random", "greedy")
"""The Dominations bots by name."""
GAME_BOTS: dict[str, tuple[str, ...]] = {"dominion": BUILTIN_BOTS,
                                         "dominations": DOMINATIONS_BOTS}  # fmt: skip


def bot_names(game: str = "dominion") -> tuple[str, ...]:
    """The built-in bot names of ``game`` (the search levels last); :class:`ConfigError`
    for an unknown game."""
    names = GAME_BOTS.get(game) if isinstance(game, str) else None
    if names is None:
        raise ConfigError(f"unknown game {game!r}: available games are {', '.join(GAME_BOTS)}")
    return (*names, *SEARCH_BOTS)


_BLURBS: dict[str, dict[str, str]] = {
    "dominion": {
        "random": "random moves",
        "bm": "Big Money",
        "bmu": "Big Money Ultimate",
        "smithy": "Smithy Big Money",
        "smithy-market": "a Smithy and Markets",
        "witch": "Double Witch",
        "militia": "Double Militia",
        "council-room": "Council Room Big Money",
        "library": "Library Big Money",
        "laboratory": "Laboratory Big Money",
        "market": "Market Big Money",
        "moat": "Double Moat",
        "bureaucrat": "Double Bureaucrat",
        "moneylender": "Moneylender Big Money",
        "workshop-gardens": "Workshop/Gardens",
        "best": "the kingdom's best rule bot",
    },
    "dominations": {
        "random": "random moves",
        "greedy": "the best move now",
    },
}
_SEARCH_BLURBS: dict[str, dict[str, str]] = {  # as measured: BENCHMARKS.md, "Search bots"
    "dominion": {
        "mcts-easy": "search, quick: wins 4 in 10 two-player games against smithy on First "
                     "Game",
        "mcts": "search: wins 6 in 10 two-player games against smithy on First Game, 2 in 3 "
                "against best",
        "mcts-hard": "search, 3 times the work of mcts for no gain measured",
    },
    "dominations": {
        "mcts-easy": "search, quick: wins 2 in 3 two-player games against greedy",
        "mcts": "search: wins 4 in 5 two-player games against greedy",
        "mcts-hard": "search, more work than mcts (its gain not measured)",
    },
}


def bot_blurbs(game: str = "dominion") -> dict[str, str]:
    """A few words on each built-in bot of ``game``, for a player choosing an opponent: a
    search level's with how strong it measured, against the game's rule bots.

    >>> bot_blurbs("dominations")["mcts"]
    'search: wins 4 in 5 two-player games against greedy'
    >>> list(bot_blurbs("dominations")) == list(bot_names("dominations"))
    True
    """
    names = bot_names(game)
    return {name: _BLURBS[game].get(name) or _SEARCH_BLURBS[game][name] for name in names}


@cache
def builtin_strategy(name: str) -> Strategy:
    """The built-in strategy ``name`` (one of :data:`BUILTIN_STRATEGIES`)."""
    if name not in BUILTIN_STRATEGIES:
        raise StrategyError(f"no built-in strategy {name!r}; known: "
                            f"{', '.join(BUILTIN_STRATEGIES)}")
    res = resources.files("dominari.bots").joinpath("strategies", f"{name}.toml")
    return parse_strategy_text(res.read_text(encoding="utf-8"), f"{name}.toml", name)


@overload
def load_bot(spec: str | os.PathLike[str], game: Literal["dominion"] = ...) -> Bot: ...
@overload
def load_bot(spec: str | os.PathLike[str], game: Literal["dominations"]) -> DominationsBot: ...
@overload
def load_bot(spec: str | os.PathLike[str], game: str) -> GameBot: ...


def load_bot(spec: str | os.PathLike[str], game: str = "dominion") -> GameBot:
    """A new bot of ``game`` from a built-in name (any case).

    Dominion: ``random``, a built-in strategy (:data:`BUILTIN_STRATEGIES`: ``bm``, ``bmu``,
    ``smithy``, ``smithy-market``, ``witch``, ``militia``, ``council-room``, ``library``,
    ``laboratory``, ``market``, ``moat``, ``bureaucrat``, ``moneylender``,
    ``workshop-gardens``), ``best`` (each game played as its kingdom's best rule bot, see
    :mod:`dominari.bots.kingdom`) or the path of a ``.toml`` strategy file (a string or a
    path object, read as its string). Dominations:
    ``random`` or ``greedy``. Both: the search levels, alone or with options
    (``mcts:steps=200000:width=8``, see :func:`dominari.bots.mcts.mcts_bot`), and a bot of
    your own in Python, ``FILE.py:NAME`` (see :mod:`dominari.bots.python_bot`). Raises
    :class:`UnknownBotError` (a :class:`StrategyError`) naming the known bots for an
    unknown name (and the one it is close to, for a typo) or an empty one,
    :class:`StrategyError` for a bad strategy file or Python bot, :class:`ConfigError` for
    a bad search option, options given to a rule bot, or a spec that is not a string or a
    path (a bot object).

    >>> load_bot("mcts-hard:seconds=2", "dominations").seconds
    2.0
    """
    if isinstance(game, str):
        game = game.strip().lower()  # any case, as for the command line's games
    names = bot_names(game)
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)  # a strategy file's path, as its string names it
    if not isinstance(spec, str):
        raise ConfigError(f"a bot is named by a string (one of {', '.join(names)} or a "
                            f"strategy file's path), not {type(spec).__name__} {spec!r}")
    key = spec.strip().lower()
    if not key:
        raise UnknownBotError(f"a bot's name is empty ({spec!r}): use one of "
                              f"{', '.join(names)}"
                              + (" or the path of a .toml strategy file"
                                 if game == "dominion" else ""))
    if python_spec(spec) is not None:  # FILE.py:NAME, a bot of the user's own
        return load_python_bot(spec)  # type: ignore[no-any-return]
    if search_spec(key) is not None:  # a level, or a level with options
        return mcts_bot(spec, game)
    _check_no_options(spec, key, game, names)
    if game == "dominations":
        if key == "random":
            from dominari.bots.dominations_random import DominationsRandomBot

            return DominationsRandomBot()
        if key == "greedy":
            return _greedy_bot()
        other = (" (a Dominion bot)" if key in BUILTIN_STRATEGIES or key == "best"
                 or key.endswith(".toml") else "")
        raise UnknownBotError(f"unknown Dominations bot {spec!r}{other}{_close(key, names)}: "
                              f"use one of {', '.join(names)}")
    if key == "random":
        return RandomBot()
    if key in BUILTIN_STRATEGIES:
        return StrategyBot(builtin_strategy(key))
    if key == "best":
        from dominari.bots.kingdom import KingdomBestBot

        return KingdomBestBot()
    if key.endswith(".toml") or _may_be_file(spec):
        return load_strategy(spec.strip())
    if _is_folder(spec.strip()):
        raise UnknownBotError(f"unknown bot {spec!r}: it is a folder; a strategy is a .toml "
                              f"file (or use one of {', '.join(names)})")
    other = " (a Dominations bot)" if key == "greedy" else _close(key, names)
    raise UnknownBotError(f"unknown bot {spec!r}{other}: use one of {', '.join(names)} "
                          "or the path of a .toml strategy file")


def _check_no_options(spec: str, key: str, game: str, names: tuple[str, ...]) -> None:
    """:class:`ConfigError` for a rule bot given options (``smithy:width=3``): only a
    search level takes them."""
    name, colon, _ = key.partition(":")
    if colon and name.strip() in names:
        raise ConfigError(f"bot {spec.strip()!r}: {name.strip()} takes no options (only a "
                          f"search level does: {', '.join(SEARCH_BOTS)})")


def _close(key: str, names: Sequence[str]) -> str:
    """`` (did you mean 'mcts-hard'?)`` for a name close to a known one, else ``""``."""
    close = difflib.get_close_matches(key.partition(":")[0].strip(), names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _may_be_file(spec: str) -> bool:
    """Whether ``spec`` is a file, or a path that cannot be looked at (a folder without
    permission): then reading it says why."""
    try:
        return Path(spec).is_file()
    except OSError:
        return True


def _is_folder(spec: str) -> bool:
    try:
        return Path(spec).is_dir()
    except OSError:
        return False


def _greedy_bot() -> GameBot:
    from dominari.bots.dominations_greedy import DominationsGreedyBot  # heavy: only when asked

    return DominationsGreedyBot()


__all__ = [
    "BUILTIN_BOTS",
    "BUILTIN_STRATEGIES",
    "DOMINATIONS_BOTS",
    "GAME_BOTS",
    "Bot",
    "DominationsBot",
    "GameBot",
    "MCTSBot",
    "RandomBot",
    "Strategy",
    "StrategyBot",
    "bot_blurbs",
    "bot_names",
    "builtin_strategy",
    "load_bot",
    "load_strategy",
]
