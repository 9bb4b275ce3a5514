"""Bots playing server seats, off the event loop.

A bot decision runs in a worker (a process pool by default, so a search bot never
holds up other games; a thread pool for tests and tiny servers). The worker receives the
pickled state, the bot's name and a seed, and answers the action in notation. Search
bots get the game's per-decision time budget (the server's ``--bot-seconds`` when the game
was created) on top of their level's budget.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from dominari.bots import bot_blurbs, bot_names, load_bot
from dominari.bots.base import playing
from dominari.bots.mcts import SEARCH_BOTS, MCTSBot, seconds_text
from dominari.core.errors import ConfigError, DominariError
from dominari.sim.pool import (
    MAX_PROCESSES,
    STOP_SIGNALS,
    blocked,
    start_resource_tracker,
    start_worker,
    terminate_workers,
)

log = logging.getLogger("dominari.server")
_LOCAL = threading.local()
"""Each worker's bots, made once (a search bot keeps its RNG and its tree between calls, so
threads of a thread pool must not share one)."""


def server_bot_names(game: str) -> tuple[str, ...]:
    """The bots a client may seat: the built-in names (never a file path)."""
    return bot_names(game)


def server_bot_blurbs(game: str, seconds: float) -> dict[str, str]:
    """A few words on each bot a client may seat (see :func:`server_bot_names`), a search
    level's with its time per decision (``seconds``, the server's ``--bot-seconds``), which
    other games' bots can lengthen: decisions wait their turn for a free bot worker.

    >>> server_bot_blurbs("dominations", 1.0)["mcts"]
    'search: wins 4 in 5 two-player games against greedy; up to 1 s a move, longer on a busy server'
    >>> server_bot_blurbs("dominations", 0.2)["mcts"].split("; ")[1]
    'up to 0.2 s a move (measured without a cut: less time may weaken it), longer on a busy server'
    """
    blurbs = bot_blurbs(game)
    cut = " (measured without a cut: less time may weaken it)" if seconds < 1 else ""
    return {name: (f"{blurbs[name]}; up to {seconds_text(seconds)} s a move{cut}, longer on "
                   "a busy server" if name in SEARCH_BOTS else blurbs[name])
            for name in server_bot_names(game)}


def check_bot(game: str, name: str) -> str:
    key = name.strip().lower()
    names = server_bot_names(game)
    if key not in names:
        level = key.partition(":")[0].strip()
        if ":" in key and level in SEARCH_BOTS:
            raise ConfigError(f"{game} bot {name!r}: the server seats its levels as they "
                              f"are, without options; use one of {', '.join(names)} (the "
                              f"server's time per decision is 'dominari serve "
                              f"--bot-seconds')")
        if ":" in key and level in names:
            raise ConfigError(f"{game} bot {name!r}: {level} takes no options (only a search "
                              f"level does, and the server seats those without); use one "
                              f"of {', '.join(names)}")
        other = "dominations" if game == "dominion" else "dominion"
        if key in server_bot_names(other):
            raise ConfigError(f"{key!r} is a {other.capitalize()} bot, not a "
                              f"{game.capitalize()} one: use one of {', '.join(names)}")
        raise ConfigError(f"unknown {game} bot {name!r}: use one of {', '.join(names)}")
    return key


def played_as(name: str, seconds: float) -> str:
    """The bot spec that plays a server seat of bot ``name`` under a time per decision of
    ``seconds`` (a search level is capped by it; a rule bot does not think by the clock).

    >>> played_as("mcts-hard", 1.0), played_as("smithy", 1.0), played_as("mcts", 0.25)
    ('mcts-hard:seconds=1', 'smithy', 'mcts:seconds=0.25')
    """
    return name if name not in SEARCH_BOTS else f"{name}:seconds={seconds_text(seconds)}"


def search_settings(game: str, name: str, seconds: float) -> dict[str, Any]:
    """Every setting of the search level ``name`` as the server plays it under a time per
    decision of ``seconds`` (:meth:`~dominari.bots.mcts.MCTSBot.settings`): a game keeps
    them from its creation, so that its searches play, and its record says, what the level
    was then.

    >>> settings = search_settings("dominion", "mcts", 1.0)
    >>> settings["steps"], settings["seconds"]
    (100000, 1.0)
    """
    searcher = load_bot(name, game)
    assert isinstance(searcher, MCTSBot)
    searcher.seconds = seconds
    return searcher.settings()


def played_seat(game: str, seat: dict[str, Any], seconds: float,
                settings: dict[str, Any] | None = None, state: Any = None) -> dict[str, Any]:
    """A seat of :meth:`~dominari.server.tables.Table.seat_list` as its game's record
    gives it: a bot as the server played it (:func:`played_as`) and, for a search level,
    every setting of its search, those the game was created with (``settings``; for a
    game stored before games kept them, the level's now), as a simulation's record does;
    for a bot that plays each game as another (Dominion's ``best``: the best rule bot for
    the kingdom and number of players of ``state``, the game's state), that bot's name in
    ``played_as``, as a simulation's record has it.

    >>> played_seat("dominion", {"seat": 0, "kind": "bot", "bot": "mcts"}, 1.0)["bot"]
    'mcts:seconds=1'
    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> state = DominionState.new(DominionConfig(kingdom="first-game", seed=1))
    >>> played_seat("dominion", {"seat": 1, "kind": "bot", "bot": "best"}, 1.0,
    ...             state=state)["played_as"]
    'Smithy'
    """
    bot = seat.get("bot")
    if bot is None:
        return dict(seat)
    out = {**seat, "bot": played_as(bot, seconds)}
    if bot in SEARCH_BOTS:
        out["search"] = (settings if settings is not None
                         else search_settings(game, bot, seconds))  # fmt: skip
    elif state is not None and game == "dominion" and bot == "best":
        with contextlib.suppress(DominariError):  # a fact of the record, never in the way
            out["played_as"] = str(playing(load_bot(bot, game), state).name)
    return out


@functools.cache
def _cards_bought(game: str, name: str) -> tuple[int, ...]:
    """The Kingdom card ids that the rule bot ``name`` buys, in id order (none for a bot
    that is not a Dominion strategy: a search, ``best``, ``random``, a Dominations bot)."""
    from dominari.bots.kingdom import strategy_needs
    from dominari.bots.strategy import StrategyBot

    if game != "dominion" or name in SEARCH_BOTS:
        return ()
    try:
        bot = load_bot(name, game)
    except DominariError:  # a stored game's bot this version lacks: its seat says nothing
        return ()  # (the game loads all the same, and the bot's decisions fail alone)
    return tuple(sorted(strategy_needs(bot.strategy))) if isinstance(bot, StrategyBot) else ()


def buys_kingdom_cards(game: str, name: str) -> bool:
    """Whether ``name`` is a Dominion rule bot that buys Kingdom cards (which a game's
    kingdom may lack: :func:`missing_cards`)."""
    return bool(_cards_bought(game, name))


def missing_cards(game: str, name: str, state: Any) -> list[str]:
    """The Kingdom cards (names) that the Dominion rule bot ``name`` buys and the kingdom
    of ``state`` (the game's) lacks: the bot plays without them, as a money bot where it
    buys no other Kingdom card. Empty for every other bot (``best`` plays the best rule bot
    that fits the kingdom).

    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> state = DominionState.new(DominionConfig(kingdom="first-game", seed=1))
    >>> missing_cards("dominion", "witch", state), missing_cards("dominion", "smithy", state)
    (['Witch'], [])
    """
    from dominari.dominion.cards import NAME

    bought = _cards_bought(game, name)
    if not bought:
        return []
    have = frozenset(state.kingdom)
    return [NAME[c] for c in bought if c not in have]


def missing_note(seat: dict[str, Any]) -> str | None:
    """One sentence on a seat of :meth:`~dominari.server.tables.Table.seat_list` whose
    rule bot buys Kingdom cards the game lacks (its ``missing_cards``), else None.

    >>> print(missing_note({"seat": 1, "kind": "bot", "bot": "witch", "name": "Wendy",
    ...                     "missing_cards": ["Witch"]}))
    Seat 2 (Wendy): the bot witch buys Witch, not in this game's kingdom: it plays without it...
    """
    lacking = seat.get("missing_cards")
    if not lacking:
        return None
    bot = str(seat.get("bot"))
    note = (f"Seat {seat['seat'] + 1} ({seat['name']}): the bot {bot} buys "
            f"{', '.join(lacking)}, not in this game's kingdom: it plays without "
            f"{'it' if len(lacking) == 1 else 'them'}")
    if len(lacking) >= len(_cards_bought("dominion", bot)):
        note += ", buying only basic cards"
    return note + "."


def _bot(game: str, name: str, seconds: float, settings: dict[str, Any] | None = None) -> Any:
    key = (game, name, seconds,
           None if settings is None else json.dumps(settings, sort_keys=True))
    bots: dict[tuple[Any, ...], Any] | None = getattr(_LOCAL, "bots", None)
    if bots is None:
        bots = _LOCAL.bots = {}
    bot = bots.get(key)
    if bot is None:
        if name in SEARCH_BOTS and settings is not None:  # as the game was created
            try:
                bot = MCTSBot(game, name=played_as(name, seconds), **settings)
            except (DominariError, TypeError, ValueError) as exc:  # kept by another version
                log.warning("a game's settings of %s no longer make a search (%s): it plays "
                            "as the level is now", name, exc)
        if bot is None:
            bot = load_bot(name, game)
            if name in SEARCH_BOTS and isinstance(bot, MCTSBot):
                bot.seconds = seconds
        bots[key] = bot
    return bot


def choose(game: str, state: bytes, name: str, seed: int, seconds: float,
           settings: dict[str, Any] | None = None) -> str:
    """The action (notation) the bot ``name`` takes in the pickled ``state``; a search
    level plays with ``settings`` where its game keeps them (:func:`search_settings`)."""
    s = pickle.loads(state)
    bot = _bot(game, name, seconds, settings)
    bot.reset(seed)
    return str(s.format_action(bot.act(s)))


def pool_size(kind: str, workers: int) -> int:
    """The workers a pool of ``kind`` made for ``workers`` has: as many, but for a pool of
    processes on Windows, which has at most :data:`~dominari.sim.pool.MAX_PROCESSES`."""
    return min(workers, MAX_PROCESSES or workers) if kind == "process" else workers


def make_executor(kind: str, workers: int) -> Executor:
    """``process`` (default) or ``thread`` workers for bot decisions.

    A worker process ignores Ctrl-C, SIGTERM and SIGHUP, which reach the whole process
    group when a server is stopped from its terminal, by a service manager or by its
    terminal closing: the server stops its workers itself (:func:`stop_executor`) after
    its bots' decisions are cancelled, and a worker whose server is gone ends by itself.
    So does multiprocessing's resource tracker
    (:func:`~dominari.sim.pool.start_resource_tracker`). A worker is deaf from its birth:
    the signals are blocked while the pool may start one (:class:`_DeafPool`), and its
    initializer ignores them before it lets them in."""
    if workers < 1:
        raise ConfigError(f"bot workers must be at least 1, not {workers}")
    if kind == "process":
        start_resource_tracker()
        return _DeafPool(max_workers=pool_size(kind, workers),
                         mp_context=multiprocessing.get_context("spawn"),
                         initializer=_init_worker, initargs=(os.getpid(),))
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dominari-bot")
    raise ConfigError(f"bot executor must be 'process' or 'thread', not {kind!r}")


T = TypeVar("T")

class _DeafPool(ProcessPoolExecutor):
    """A process pool whose workers are started with :data:`STOP_SIGNALS` blocked (a new
    process keeps its parent's signal mask), so that one still starting when the server is
    stopped or hung up, before its initializer ignores them, is not killed (and taken for
    lost). The pool starts a worker in ``submit``, when none is idle."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with blocked(STOP_SIGNALS):  # one that came meanwhile reaches this process after
            return super().submit(fn, *args, **kwargs)


def _init_worker(parent: int) -> None:
    start_worker(parent, STOP_SIGNALS)
    if hasattr(signal, "pthread_sigmask"):  # born with them blocked: ignored now, let in
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def stop_executor(executor: Executor) -> None:
    """Stop the bot workers now: decisions still running are not wanted any more. The
    workers ignore SIGTERM (see :func:`make_executor`), so they are killed."""
    if isinstance(executor, ProcessPoolExecutor):
        terminate_workers(executor, kill=True)
    executor.shutdown(wait=False, cancel_futures=True)
