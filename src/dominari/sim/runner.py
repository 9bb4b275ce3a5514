"""Run many seeded bot-versus-bot games, in parallel processes, reproducibly.

Game ``i`` of a simulation with seed ``s`` is played with the game seed
:func:`game_seed` ``(s, i)`` and each seat's bot is reset with
:func:`bot_seed` ``(s, i, seat)``, so every game depends only on ``(s, i)``:
the results are the same whatever the number of worker processes.

Work is cut into chunks of consecutive games (:class:`Chunk`); a worker
process loads the bots once from their spec strings and plays a chunk into an
integer :class:`~dominari.sim.stats.Tally`. :func:`run_chunk` is a plain
top-level function of picklable values, so any pool (a process pool, Ray)
can run it.

The runner knows games only through their options (:class:`DominionOptions`,
:class:`DominationsOptions`): each validates itself and sets up a game state
with the core protocol (:class:`~dominari.core.game.GameState`), which
:func:`play_game` plays to its end.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import random
import re
import signal
import site
import sysconfig
import threading
import unicodedata
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar, overload

from dominari.bots.base import GameBot, playing
from dominari.bots.kingdom import KingdomBestBot
from dominari.bots.playout import can_play_out, play_out
from dominari.core.checks import seed as seed_value
from dominari.core.checks import short_path, whole
from dominari.core.errors import ConfigError, DominariError, StrategyError, machine_failed
from dominari.core.game import GameState
from dominari.dominion.cards import NAME
from dominari.dominion.engine import END_REASONS, DominionConfig, DominionState
from dominari.dominion.kingdoms import check_spec
from dominari.dominion.kingdoms import describe as describe_kingdom
from dominari.dominion.kingdoms import fixed as fixed_kingdom
from dominari.dominion.kingdoms import resolve as resolve_kingdom
from dominari.sim.deadline import (
    DecisionClock,
    Overtime,
    check_decision_timeout,
)
from dominari.sim.journal import (
    PACKAGE,
    code_files,
    code_fingerprint,
    folder_files,
    spec_files,
    tree_fingerprint,
)
from dominari.sim.pool import beat, check_backend, check_stall, each_result, init_ray
from dominari.sim.records import (
    ANY_RECORDS,
    SIMULATION_RECORDS,
    HeldFolder,
    remove_files,
    temporary_files,
    write_record_atomic,
)
from dominari.sim.seats import SeatRecorder, record_with_seats
from dominari.sim.stats import SimResult, Tally

if TYPE_CHECKING:
    from dominari.dominations.data import GameData
    from dominari.dominations.rules import Rules

HUMAN = "human"
"""The seat spec of a person at the terminal (``dominari play`` only)."""

DEFAULT_MAX_TURNS = 100
"""Turns per player after which a simulated Dominion game is stopped (``turn-limit``)."""

MAX_CHUNK = 250
MAX_GAMES = 100_000_000
"""The most games one run plays (its chunks are listed up front: a mistyped ``-n`` of
twenty digits would fill the memory before the first game)."""

GAMES: tuple[str, ...] = ("dominion", "dominations")
"""The games the runner can play."""

GAME_TITLES = {"dominion": "Dominion", "dominations": "Dominations"}

S = TypeVar("S", bound=GameState)


class BotError(DominariError):
    """A bot chose an action the engine rejects (a bug in the bot or its strategy), failed
    or took too long. Beside its message, what a script needs to play the game again: the
    game's ``seed``, ``who`` failed (``bot 'x' (seat 1, …)``), and in a run, the ``game``
    (counted from 0, as ``--per-game`` rows' ``index``) and, in a tournament, its
    ``matchup`` (from 0); each ``None`` where not known.

    >>> e = BotError.chose(7, "bot 'x' (seat 1)", "buy Gold", ValueError("3 coins"))
    >>> e.seed, e.who, e.again("game 3 of the simulation: …", game=2).game
    (7, "bot 'x' (seat 1)", 2)
    """

    seed: int | None = None
    who: str | None = None
    game: int | None = None
    matchup: int | None = None

    def of(self, seed: object, who: str) -> BotError:
        """This error with its facts: the game's ``seed`` (None where it is not an
        integer) and ``who`` failed."""
        self.seed = seed if isinstance(seed, int) else None
        self.who = who
        return self

    def again(self, message: str, *, seed: int | None = None, game: int | None = None,
              matchup: int | None = None) -> BotError:
        """This error said again as ``message`` (with where it happened), its facts kept
        and the game's ``seed``, ``game`` and ``matchup`` added where given."""
        out = BotError(message)
        out.who, out.machine = self.who, self.machine
        out.seed = self.seed if seed is None else seed
        out.game = self.game if game is None else game
        out.matchup = self.matchup if matchup is None else matchup
        return out

    @classmethod
    def deciding(cls, seed: object, who: str, exc: BaseException) -> BotError:
        """The error for a game stopped by ``exc`` raised while ``who`` was deciding.

        >>> BotError.deciding(7, "bot 'bm' (seat 1)", KeyError("x"))
        BotError("the game with seed 7 stopped while bot 'bm' (seat 1) was deciding: KeyError: 'x'")
        """
        return cls(f"the game with seed {seed} stopped while {who} was deciding: "
                   f"{error_words(exc)}{_user_line(exc)}").of(seed, who)

    @classmethod
    def overtime(cls, seed: object, who: str, limit: float, took: float,
                 exc: BaseException | None = None) -> BotError:
        """The error for ``who``, whose decision ran past the run's ``limit``: stopped
        there (``exc``, the :class:`~dominari.sim.deadline.Overtime` raised where it was),
        or judged once it returned after ``took`` seconds.

        >>> print(BotError.overtime(7, "bot 'x' (seat 1)", 2.0, 3.25))
        bot 'x' (seat 1) took 3.25 s over one decision in the game with seed 7, past the ... 2 s
        """
        if exc is not None:
            return cls(f"{who} was still deciding after the decision timeout of {limit:g} s "
                       f"in the game with seed {seed}, and was stopped{_stopped_at(exc)}"
                       ).of(seed, who)
        return cls(f"{who} took {took:.3g} s over one decision in the game with seed {seed}, "
                   f"past the decision timeout of {limit:g} s").of(seed, who)  # fmt: skip

    @classmethod
    def chose(cls, seed: object, who: str, action: str, exc: BaseException) -> BotError:
        """The error for ``who``, whose ``action`` (in words) the engine refused (``exc``).

        >>> str(BotError.chose(7, "bot 'x' (seat 1)", "buy Gold", ValueError("3 coins")))
        "bot 'x' (seat 1) chose buy Gold in the game with seed 7: 3 coins"
        """
        return cls(f"{who} chose {action} in the game with seed {seed}: {exc}").of(seed, who)

    @classmethod
    def changed_state(cls, seed: object, who: str) -> BotError:
        """The error for ``who``, which played on the state it was given.

        >>> str(BotError.changed_state(7, "bot 'x' (seat 1)"))[:56]
        "bot 'x' (seat 1) changed the game's state while deciding"
        """
        return cls(f"{who} changed the game's state while deciding, in the game with seed "
                   f"{seed}: a bot reads the state it is given and works on state.copy()"
                   ).of(seed, who)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived from ``parts`` (stable across runs and machines)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation seeded ``seed`` (63 bits)."""
    return derive_seed("dominari-game", seed, index)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed the bot in ``seat`` is reset with for game ``index``."""
    return derive_seed("dominari-bot", seed, index, seat)


RECORD_GLOB = SIMULATION_RECORDS
"""The names of a simulation's record files (:func:`record_name`)."""


def record_name(index: int) -> str:
    """The file name of game ``index``'s record (``game-000001.json`` for index 0)."""
    return f"game-{index + 1:06d}.json"


def check_game(name: str) -> str:
    """The canonical name of a game (any case); :class:`ConfigError` for an unknown one."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in GAMES:
        raise ConfigError(f"unknown game {name!r}: available games are {', '.join(GAMES)}")
    return key


def spec_list(specs: object, what: str) -> tuple[Any, ...]:
    """``specs`` as a tuple, where they are a list (any iterable but a string) of what
    ``what`` names; :class:`ConfigError` otherwise, one string of names separated by
    commas shown as the list it was likely meant to be.

    >>> spec_list("bm,smithy", "players")
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: players are a list of bot specs, one per seat, not \
the string 'bm,smithy': ['bm', 'smithy']
    """
    if isinstance(specs, str):
        raise ConfigError(f"{what} are a list of bot specs, one per seat, not the string "
                          f"{specs!r}: {[p.strip() for p in specs.split(',')]!r}")
    if not isinstance(specs, Iterable):
        raise ConfigError(f"{what} are a list of bot specs, one per seat, not {specs!r}")
    return tuple(specs)


def load_bots(specs: Sequence[str | os.PathLike[str]], game: str = "dominion"
              ) -> list[GameBot]:
    """One bot of ``game`` per seat from a list of spec strings (built-in names; for
    Dominion also strategy file paths, as strings or path objects).

    Raises :class:`StrategyError` for an unknown name or a bad strategy file or Python bot
    (every one of them, in one message),
    :class:`ConfigError` for specs that are not a list of strings (one string of names
    separated by commas is refused, as :func:`simulate` refuses it).
    """
    from dominari.bots import load_bot

    bots: list[GameBot] = []
    failed: list[StrategyError] = []  # every bad file said at once (a class's bots)
    for spec in spec_list(specs, "the bots"):
        if isinstance(spec, str) and spec.strip().lower() == HUMAN:
            raise StrategyError("'human' cannot play in a simulation or a tournament; name a bot"
                                + (" or strategy file" if game == "dominion" else ""))
        try:
            bots.append(load_bot(spec, game))  # a spec that is no string or path: ConfigError
        except StrategyError as exc:
            failed.append(exc)
    said = list(dict.fromkeys(str(exc) for exc in failed))  # a spec given twice: once
    if len(said) == 1:
        raise failed[0]
    if said:
        raise StrategyError(f"{len(said)} bots cannot be loaded: "
                            + "; ".join(said)) from failed[0]
    return bots


def own_code(specs: Iterable[str]) -> tuple[str, ...]:
    """The specs of ``specs`` that are Python bots of the user's own (``FILE.py:NAME``).

    >>> own_code(["bm", "mine.py:Mine", "mcts"])
    ('mine.py:Mine',)
    """
    from dominari.bots.python_bot import python_spec

    return tuple(s for s in specs if isinstance(s, str) and python_spec(s) is not None)


def seat_names(names: Sequence[str], specs: Sequence[str] = ()) -> tuple[str, ...]:
    """Distinct display names: names that read the same get ``#1``, ``#2``… by seat,
    skipping a number whose name another player already has. Names read the same when
    they differ only in spaces at their ends, runs of spaces, or characters that show
    nothing (a zero-width space, a soft hyphen: Unicode's format characters), so that no
    two rows of a table read alike; such names are numbered as they show. A name that
    shows nothing at all is refused (:class:`ConfigError`, naming the bot of ``specs``,
    where given, that has it): its rows would be blank.

    >>> seat_names(["BMU", "Smithy", "BMU"])
    ('BMU#1', 'Smithy', 'BMU#2')
    >>> seat_names(["BM#1", "BM", "BM"])
    ('BM#1', 'BM#2', 'BM#3')
    >>> seat_names(["BM", "BM ", "B\u200bM"])
    ('BM#1', 'BM#2', 'BM#3')
    >>> seat_names(["BM", " "])
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: a player's name must show something, not ' '
    """
    shown = [_shown(n) for n in names]
    for at, (name, looks) in enumerate(zip(names, shown, strict=True)):
        if not looks:
            bot = f" (bot {specs[at]!r})" if at < len(specs) else ""
            raise ConfigError(f"a player's name must show something, not {name!r}{bot}")
    counts = Counter(shown)
    taken = {looks for looks in shown if counts[looks] == 1}  # kept as they are
    out = []
    for name, looks in zip(names, shown, strict=True):
        if counts[looks] == 1:
            out.append(name)
            continue
        k = 1
        while f"{looks}#{k}" in taken:
            k += 1
        taken.add(f"{looks}#{k}")
        out.append(f"{looks}#{k}")
    return tuple(out)


def _shown(name: str) -> str:
    """``name`` as it shows: without format characters (Cf), its runs of white space one
    space, none at its ends."""
    return " ".join("".join(c for c in name if unicodedata.category(c) != "Cf").split())


def parse_players(text: str, game: str = "dominion") -> list[str]:
    """Seat specs from ``a,b[,c[,d]]``; raises :class:`ConfigError` for empty entries or a
    player count ``game`` is not for (both games take 2 to 4)."""
    parts = text.split(",")
    specs = [part.strip() for part in parts]
    for i in range(len(parts)):  # a file whose name holds a comma cannot be named here
        for j in range(i + 2, len(parts) + 1):
            joined = ",".join(parts[i:j]).strip()
            if os.path.isfile(joined):
                raise ConfigError(f"--players: {joined!r} is a file whose name holds a "
                                  f"comma, which separates the players: rename the file")
    if any(not s for s in specs):
        raise ConfigError(f"--players {text!r}: empty seat; give comma-separated bot names")
    if not 2 <= len(specs) <= 4:
        title = GAME_TITLES.get(game, game)
        raise ConfigError(f"--players: {title} is for 2 to 4 players, not {len(specs)}")
    return specs


# ----------------------------------------------------------------- game options
@dataclass(frozen=True)
class DominionOptions:
    """How Dominion games of a simulation are set up."""

    game: ClassVar[str] = "dominion"
    end_reasons: ClassVar[frozenset[str]] = END_REASONS
    """How a game may end (``Outcome.reason``)."""
    kingdom: str | tuple[str, ...] = "random"
    """A recommended set name, ``random`` (a kingdom per game) or card names."""
    max_turns: int | None = DEFAULT_MAX_TURNS
    """Turns per player after which a game stops (None: no limit)."""

    def check(self, players: int, names: tuple[str, ...], seed: int) -> None:
        """Raise :class:`DominariError` for options that cannot be played."""
        resolve_kingdom(self.kingdom, seed)  # an unknown set or card fails here
        DominionConfig(players=players, kingdom=self.kingdom, seed=0, max_turns=self.max_turns,
                       names=names)  # fmt: skip

    def new_game(self, players: int, seed: int, names: tuple[str, ...]) -> DominionState:
        return DominionState.new(DominionConfig(players=players, kingdom=self.kingdom,
                                                seed=seed, max_turns=self.max_turns,
                                                names=names))  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        return {"kingdom": self.kingdom if isinstance(self.kingdom, str) else list(self.kingdom),
                "max_turns": self.max_turns}  # fmt: skip


def _default_rules() -> Rules:
    from dominari.dominations.rules import Rules

    return Rules()


@dataclass(frozen=True)
class DominationsOptions:
    """How Dominations games of a simulation are set up: rule options and a data folder."""

    game: ClassVar[str] = "dominations"
    rules: Rules = field(default_factory=_default_rules)
    data: str | None = None
    """A folder of corrected component files (None: the built-in data)."""

    def check(self, players: int, names: tuple[str, ...], seed: int) -> None:
        """Raise :class:`DominariError` for options that cannot be played (a bad data
        folder gives the loader's message)."""
        from dominari.dominations.engine import DominationsConfig

        dominations_data(self.data)
        DominationsConfig(players=players, seed=seed, names=names, rules=self.rules,
                          data=self.data)  # fmt: skip

    def new_game(self, players: int, seed: int, names: tuple[str, ...]) -> GameState:
        from dominari.dominations.engine import DominationsConfig, DominationsState

        config = DominationsConfig(players=players, seed=seed, names=names, rules=self.rules,
                                   data=self.data, log=False)  # fmt: skip
        return DominationsState.new(config, dominations_data(self.data))

    @property
    def end_reasons(self) -> frozenset[str]:
        """How a game may end (``Outcome.reason``)."""
        from dominari.dominations.engine import END_REASONS

        return END_REASONS

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "data": self.data}


GameOptions = DominionOptions | DominationsOptions

_DATA: dict[str | None, GameData] = {}
"""The component data of each folder, loaded once per process for what plays in threads
that begin no run (the server's games, games made by hand); those of a thread that
begins runs are its own (:attr:`_Loaded.data`)."""


def dominations_data(folder: str | None) -> GameData:
    """The component data of ``folder``: in a thread that has begun a run (:func:`begin_run`,
    :func:`use_stamp`), as its files held when that thread's latest run began (another
    thread's runs neither share nor reload them); else loaded once per process."""
    cache = _LOADED.data if _LOADED.stamp and folder is not None else _DATA
    data = cache.get(folder)
    if data is None:
        from dominari.dominations.data import load_data

        data = cache[folder] = load_data(folder)
    return data


def game_options(game: str, *, kingdom: str | Sequence[str] | None = None,
                 max_turns: int | None = DEFAULT_MAX_TURNS, rules: Rules | None = None,
                 data: str | os.PathLike[str] | None = None) -> GameOptions:
    """The options of ``game`` from keyword values; :class:`ConfigError` for options the
    game does not have (``kingdom`` for Dominations, ``rules`` for Dominion …) and for
    values no game can be played with, said here rather than when a run starts (an
    unknown card or set, a turn limit of 0, a data folder that does not load).

    >>> game_options("dominion", kingdom=["Smithy", "Smithee"])
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: kingdom: unknown card 'Smithee': not one of the 32 \
base-set cards
    """
    game = check_game(game)
    if game == "dominion":
        if rules is not None or data is not None:
            raise ConfigError("rule options and data folders are Dominations options; "
                              "Dominion takes a kingdom and a turn limit")
        options = DominionOptions("random" if kingdom is None else check_spec(kingdom),
                                  max_turns)  # fmt: skip
        options.check(2, (), 0)  # neither the cards nor the turn limit depend on these
        return options
    if kingdom is not None:
        raise ConfigError("Dominations has no kingdom: the kingdom option is Dominion's")
    if max_turns != DEFAULT_MAX_TURNS and max_turns is not None:
        raise ConfigError("a Dominations game always ends after 3 ages: the turn limit is "
                          "Dominion's")
    found = DominationsOptions(rules if rules is not None else _default_rules(),
                               None if data is None else os.fspath(data))
    if found.data is not None:  # said now, not when a run starts (which loads it as it
        from dominari.dominations.data import load_data  # is then)

        load_data(found.data)
    return found


# ----------------------------------------------------------------------- chunks
@dataclass(frozen=True)
class Chunk:
    """Games ``start`` to ``stop - 1`` of a simulation: everything a worker needs."""

    specs: tuple[str, ...]
    names: tuple[str, ...]
    options: GameOptions
    seed: int
    start: int
    stop: int
    record_dir: str | None = None
    by_card: bool = False
    """Count each seat's results by the Kingdom cards of each game (Dominion)."""
    stamp: str | None = None
    """The run's code and what its files hold (:func:`begin_run`), for :func:`use_stamp`."""
    rows: bool = False
    """Keep each game's own result (:attr:`Tally.rows`), for :func:`simulate`'s
    ``each_game``."""
    decision_timeout: float | None = None
    """The most seconds a bot may take over one decision (:func:`play_game`'s
    ``timeout``)."""

    @property
    def game(self) -> str:
        return self.options.game

    @property
    def own_code(self) -> tuple[str, ...]:
        """The Python bots of its own that the run plays (``FILE.py:NAME``): a worker that
        dies may be theirs to answer for (:class:`~dominari.sim.pool.WorkersLost`)."""
        return own_code(self.specs)

    def describe(self) -> str:
        """The chunk in words, for messages: ``games 26-50 of seed 1 (bm, smithy)``."""
        return f"{game_range(self.start, self.stop)} of seed {self.seed} ({', '.join(self.names)})"


def game_range(start: int, stop: int) -> str:
    """Games ``start`` to ``stop - 1`` (indices from 0) in words, numbered from 1 as
    their record files are (game 26 is ``game-000026.json``).

    >>> game_range(25, 50), game_range(7, 8)
    ('games 26-50', 'game 8')
    """
    return f"game {start + 1}" if stop == start + 1 else f"games {start + 1}-{stop}"


class _Loaded(threading.local):
    """What a thread keeps loaded for the runs it plays, so that two runs at once in one
    process, from two threads, neither share nor reload each other's: one bot per spec
    (:func:`bots_for`; a bot keeps state while it plays), the component data of each
    data folder (:func:`dominations_data`), the stamp (:func:`begin_run`) of the code and
    files they were loaded from, and the process that checked it (a forked worker checks
    again)."""

    def __init__(self) -> None:
        self.bots: dict[tuple[str, tuple[str, ...]], list[GameBot]] = {}
        self.data: dict[str | None, GameData] = {}
        self.stamp = ""
        self.pid = 0


_LOADED = _Loaded()


CHANGED = ("the files this run plays with (a strategy file, the buy policy or opening "
           "book it names, a Python bot's file, the data folder's component files) do not "
           "hold in this worker "
           "what they held when the run began: edited since (run it again), or other files "
           "under the same paths where this worker runs (give paths every worker shares)")

_LOADED_FILES = code_files()
LOADED_CODE = code_fingerprint()
"""The :func:`~dominari.sim.journal.code_fingerprint` of the code that plays games (every
game's), as this process loaded it: its files when this module was imported (hashed
again only once their :func:`~dominari.sim.journal.code_files` differ)."""

CODE_CHANGED = ("Dominari's code has changed on disk since this process loaded it (an "
                "upgrade, a git pull, an edit): start the process again, so that one version "
                "of the code plays the run")
CODE_DIFFERS = ("Dominari's code in this worker is not the code of the process that began "
                "the run: its files changed since that process loaded them (start it again), "
                "or another version is installed where this worker runs (install one version "
                "everywhere)")

class RunFiles(NamedTuple):
    """What the files a run plays with hold (:func:`run_files`)."""

    specs: dict[str, str]
    """The SHA-256 of each bot spec that names files, by spec."""
    data: str | None
    """The SHA-256 of the data folder's component files; ``None`` without a data folder."""


def run_files(specs: Iterable[str], options: GameOptions) -> RunFiles:
    """The SHA-256 of every bot spec that names files (its strategy file, buy policy and
    opening book: :func:`~dominari.sim.journal.spec_files`), and of the data folder's
    component files (:func:`~dominari.sim.journal.folder_files`; ``None`` without a data
    folder): what a journal's key and a run's stamp say of them, read once."""
    folder = getattr(options, "data", None)
    return RunFiles(spec_files(specs), None if folder is None else folder_files(folder))


def run_stamp(specs: Iterable[str], options: GameOptions, files: RunFiles | None = None) -> str:
    """A SHA-256 over what the files a run plays with hold (every strategy file, buy
    policy and opening book its bot specs name, and the data folder: where it is and its
    component files; ``files`` if they were read already); ``""`` for a run that reads no
    file."""
    specs_held, folder_held = run_files(specs, options) if files is None else files
    folder = getattr(options, "data", None)
    if not specs_held and folder is None:
        return ""
    data = None if folder is None else [os.path.realpath(folder), folder_held]
    text = json.dumps([sorted(specs_held.items()), data], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def begin_run(specs: Iterable[str], options: GameOptions, files: RunFiles | None = None) -> str:
    """The stamp of a run that begins in this process: Dominari's code as this process
    loaded it (:data:`LOADED_CODE`) and the :func:`run_stamp` of its files, for its
    workers to check (:func:`use_stamp`). :class:`ConfigError` if the code's files have
    changed since this process loaded them (:data:`CODE_CHANGED`). The bots and data
    that earlier runs loaded here are let go if their files now hold something else (an
    edited strategy file or data folder, a relative path from another folder), so the
    run plays with what the files hold now, as its workers do."""
    if code_files() != _LOADED_FILES and tree_fingerprint(PACKAGE) != LOADED_CODE:
        raise ConfigError(CODE_CHANGED)
    stamp = f"{LOADED_CODE}:{run_stamp(specs, options, files)}"
    _take_stamp(stamp)
    return stamp


def start_run(specs: tuple[str, ...], options: GameOptions, bots: list[GameBot],
              seated: tuple[str, ...], seed: int, *, reuse: bool,
              files: RunFiles | None = None) -> str:
    """What a run does once its bots are loaded (``bots``, one per spec), before its
    first game: :func:`begin_run` (its stamp, returned), the options checked for a first
    game's seats (``seated``, their names: an unknown card, a bad data folder …), and,
    where its games are played in this process by one worker (``reuse``), the bots
    kept for them."""
    stamp = begin_run(specs, options, files)  # what was loaded for files since edited is let go
    game_code(options.game)  # (now, while the files are the code loaded)
    options.check(len(seated), seated, seed)
    if reuse:
        bots_for(options.game, specs, bots)  # reuse the bots loaded for the checks
    return stamp


_GAME_CODE: dict[str, str] = {}


def game_code(game: str) -> str:
    """:func:`~dominari.sim.journal.code_fingerprint` of ``game`` for the code this process
    loaded: worked out at its first run of the game (:func:`start_run`, once
    :func:`begin_run` has found the files still that code), then kept. A result names it
    (``dominari.code`` in its JSON), as a tournament's journal does, so that results of
    the same code can be told from others."""
    code = _GAME_CODE.get(game)
    if code is None:
        code = _GAME_CODE[game] = code_fingerprint(game)
    return code


def use_stamp(stamp: str | None, specs: Iterable[str], options: GameOptions) -> None:
    """In a worker, before the games of a run stamped ``stamp`` (:func:`begin_run`): the
    bots and data an earlier run loaded in this process (a Ray worker serves many runs)
    are let go, and :class:`ConfigError` if this worker's code is not the code that
    began the run (:data:`CODE_DIFFERS`) or the files no longer hold what they held then
    (:data:`CHANGED`), checked once in each process. ``None``: games played apart from a
    run (a chunk made by hand), with what is loaded; a bare :func:`run_stamp` checks the
    files alone."""
    if stamp is None or (stamp == _LOADED.stamp and _LOADED.pid == os.getpid()):
        return
    code, _, files = stamp.rpartition(":")
    if code and code != LOADED_CODE:
        raise ConfigError(CODE_DIFFERS)
    if run_stamp(specs, options) != files:
        raise ConfigError(CHANGED)
    _take_stamp(stamp)


def _take_stamp(stamp: str) -> None:
    if stamp != _LOADED.stamp:
        _LOADED.bots.clear()
        _LOADED.data.clear()
    _LOADED.stamp, _LOADED.pid = stamp, os.getpid()


def bots_for(game: str, specs: tuple[str, ...],
             loaded: list[GameBot] | None = None) -> list[GameBot]:
    """One bot per spec, loaded once per process and thread (worker processes reuse them,
    for the run :func:`use_stamp` says); ``loaded`` gives bots already loaded for these
    specs, to keep."""
    cache = _LOADED.bots
    if loaded is not None:
        cache[game, specs] = loaded
    bots = cache.get((game, specs))
    if bots is None:
        bots = cache[game, specs] = load_bots(specs, game)
    return bots


def _seed_of(state: GameState) -> Any:
    seed = getattr(state, "seed", None)
    if seed is None:
        seed = getattr(getattr(state, "config", None), "seed", None)
    return seed


def action_text(state: GameState, action: Any) -> str:
    """``action`` in the game's notation, or as Python prints it where it is none of the
    game's (a bot's nonsense, for its error)."""
    try:
        return state.format_action(action)
    except Exception:  # a bot's nonsense need not be printable in notation
        return str(action)


def play_game(bots: Sequence[GameBot], state: S, *,
              labels: Sequence[str] | None = None, timeout: float | None = None) -> S:
    """Play the game ``state`` between ``bots`` (seat order) to its end; return it.

    Works on any state with the core protocol (``current_player``, ``apply``).
    Raises :class:`ConfigError` before playing unless there is one bot a player, and
    :class:`BotError` when a bot fails: it chooses an action the engine rejects, raises an
    error (its line named where it is in a file of the user's own), or changes the state
    it was given. ``labels`` say who plays each seat in such a message, beside the bot's
    name (a run's ``Bot#2: carol/bot.py:Bot``). With ``timeout`` (seconds,
    :func:`~dominari.sim.deadline.check_decision_timeout`), a decision that takes longer is
    a :class:`BotError` too, and is stopped where it runs past it where that can be done
    (:class:`~dominari.sim.deadline.DecisionClock`).
    A Dominion game between strategy bots (``best`` among them: each game its kingdom's)
    is played by :func:`dominari.bots.playout.play_out`: the same game, faster (their
    actions are always legal).
    """
    players = list(bots)
    if len(players) != state.num_players:
        raise ConfigError(f"{len(players)} bot{'' if len(players) == 1 else 's'} for a game "
                          f"of {state.num_players} players: give one bot a player, in seat "
                          "order")
    try:
        players = [playing(b, state) for b in bots]  # ``best``: the kingdom's strategy bot
        if isinstance(state, DominionState) and can_play_out(state, players):
            play_out(state, players)
            return state
        if timeout is None:
            _play_steps(players, state, labels)
        else:
            with DecisionClock(timeout) as clock:
                _play_steps([_Timed(b, clock, f"bot {b.name!r} ({seat_words(p, labels)})")
                             for p, b in enumerate(players)], state, labels)  # fmt: skip
    except (DominariError, MemoryError):
        raise
    except BaseException as exc:  # a bug in a bot or its strategy (or, rarely, the engine);
        if not isinstance(exc, Exception) and not bots_own_stop(exc):  # ``sys.exit`` in one
            raise
        p = state.current_player()
        who = "a bot"
        if 0 <= p < len(bots):
            name, plays = bots[p].name, players[p].name
            as_ = "" if plays == name else f" playing {plays!r}"
            who = f"bot {name!r}{as_} ({seat_words(p, labels)})"
        raise BotError.deciding(_seed_of(state), who, exc) from exc
    return state


def seat_words(p: int, labels: Sequence[str] | None) -> str:
    """``seat 2``, or ``seat 2, Bot#2: carol/bot.py:Bot`` with a run's labels."""
    label = labels[p] if labels is not None and 0 <= p < len(labels) else None
    return f"seat {p + 1}" if not label else f"seat {p + 1}, {label}"


class DrewGameDice(DominariError):
    """A bot of the user's own drew from the game's generator (``state.rng``) while
    deciding (:class:`_GameDice`)."""


class _GameDice(random.Random):
    """The game's generator as a bot of the user's own sees it while it decides (its class
    for that time: the same object, in the same state, so ``state.copy()`` clones it as
    ever), but a draw from it is refused. Those numbers deal the game: a bot that drew
    them changed the game unseen, and its records did not replay (the library user's
    audit). A deep copy or a pickle of it (a bot's own copy of the state) is a plain
    generator in its state."""

    def __reduce__(self) -> tuple[Any, ...]:
        return random.Random, (), self.getstate()

    def random(self) -> float:
        raise DrewGameDice(GAME_DICE)

    def getrandbits(self, k: int) -> int:
        raise DrewGameDice(GAME_DICE)

    def seed(self, *args: Any, **kwargs: Any) -> None:  # (or set the game's numbers anew)
        raise DrewGameDice(GAME_DICE)

    def setstate(self, state: Any) -> None:
        raise DrewGameDice(GAME_DICE)


GAME_DICE = ("it drew from the game's own random numbers (state.rng), which deal the game "
             "(its records would not replay): draw from a generator of the bot's own, "
             "seeded in reset(seed)")


def sealed_dice(state: Any) -> Any:
    """Make ``state``'s generator a :class:`_GameDice` while a bot of the user's decides
    (its class changed in place: a tenth of a microsecond, where a copy of its state took
    14); returns it, for :func:`unsealed_dice` (None where the state has none)."""
    real = getattr(state, "rng", None)
    if type(real) is not random.Random:
        return None
    real.__class__ = _GameDice
    return real


def unsealed_dice(state: Any, real: Any) -> None:
    """Make ``state``'s generator plain again (:func:`sealed_dice`)."""
    if real is not None:
        real.__class__ = random.Random


class _Sealed:
    """A bot of the user's own, deciding on a state whose generator refuses draws
    (:func:`sealed_dice`)."""

    __slots__ = ("bot", "name")

    def __init__(self, bot: GameBot) -> None:
        self.bot, self.name = bot, bot.name

    def reset(self, seed: int) -> None:
        self.bot.reset(seed)

    def act(self, state: GameState) -> Any:
        real = sealed_dice(state)
        try:
            return self.bot.act(state)
        finally:
            unsealed_dice(state, real)


def own_class(bot: object) -> bool:
    """Whether ``bot`` is of a class of the user's own (a bot file's), not Dominari's: its
    decisions are made on a state whose generator refuses draws (:func:`sealed_dice`)."""
    inner = bot.bot if isinstance(bot, _Timed) else bot
    module = type(inner).__module__ or ""
    return module != "dominari" and not module.startswith("dominari.")


def _play_steps(bots: Sequence[GameBot], state: GameState,
                labels: Sequence[str] | None = None) -> None:
    """:func:`play_game`'s loop: each bot's action applied in turn, checked by the engine;
    a bot that changes the state it is given (other than through a copy) is stopped, and
    so is one of the user's own that draws from the game's generator."""
    current = state.current_player
    apply = state.apply
    history: list[Any] | None = getattr(state, "history", None)
    bots = [_Sealed(bot) if own_class(bot) else bot for bot in bots]  # (Dominari's bare)
    p = current()
    while p >= 0:
        bot = bots[p]
        before = len(history) if history is not None else 0
        try:
            action = bot.act(state)
        except (BotError, MemoryError):
            raise
        except DominariError as exc:  # the engine refusing what the bot tried on the state
            raise BotError.deciding(_seed_of(state), f"bot {bot.name!r} "
                                    f"({seat_words(p, labels)})", exc) from exc
        if history is not None and len(history) != before:
            raise BotError.changed_state(_seed_of(state),
                                         f"bot {bot.name!r} ({seat_words(p, labels)})")
        try:
            apply(action)
        except DominariError as exc:
            raise BotError.chose(_seed_of(state), f"bot {bot.name!r} ({seat_words(p, labels)})",
                                 action_text(state, action), exc) from None
        p = current()


class _Timed:
    """A bot whose every decision ``clock`` times (:func:`play_game`'s ``timeout``)."""

    __slots__ = ("bot", "clock", "name", "who")

    def __init__(self, bot: GameBot, clock: DecisionClock, who: str) -> None:
        self.bot, self.clock, self.name, self.who = bot, clock, bot.name, who

    def reset(self, seed: int) -> None:
        self.bot.reset(seed)

    def act(self, state: GameState) -> Any:
        clock = self.clock
        try:
            action = clock.call(self.bot.act, state)
        except Overtime as exc:
            raise BotError.overtime(_seed_of(state), self.who, clock.limit, clock.limit,
                                    exc) from None  # fmt: skip
        if clock.took > clock.limit:
            raise BotError.overtime(_seed_of(state), self.who, clock.limit, clock.took)
        return action


def ask_bot(bot: GameBot, state: S, who: str, timeout: float | None = None) -> Any:
    """One decision of ``bot`` on ``state``, checked as :func:`play_game` checks each, for
    a game played a decision at a time (``dominari play``'s, ``replay --bots``'s): a
    :class:`BotError` naming ``who`` (``bot 'x' (seat 1)``) where the bot raises an error
    (a file of the user's own: its line), changes the state it was given, or takes longer
    than ``timeout`` seconds (stopped where it runs past it where that can be done:
    :class:`~dominari.sim.deadline.DecisionClock`). The engine's check of the action is
    the caller's.

    >>> from dominari.bots.random_bot import RandomBot
    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> state = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
    >>> ask_bot(RandomBot(seed=1), state, "bot 'random' (seat 1)") in state.legal_actions()
    True
    """
    history: list[Any] | None = getattr(state, "history", None)
    before = len(history) if history is not None else 0
    real = sealed_dice(state) if own_class(bot) else None
    try:
        if timeout is None:
            action = bot.act(state)
        else:
            with DecisionClock(timeout) as clock:
                action = _Timed(bot, clock, who).act(state)
    except (BotError, MemoryError):
        raise
    except Exception as exc:  # a bug in the bot, the engine refusing what it tried …
        raise BotError.deciding(_seed_of(state), who, exc) from exc
    except BaseException as exc:  # ``sys.exit`` in the bot … (not Ctrl-C, nor a signal)
        if not bots_own_stop(exc):
            raise
        raise BotError.deciding(_seed_of(state), who, exc) from exc
    finally:
        unsealed_dice(state, real)
    if history is not None and len(history) != before:
        raise BotError.changed_state(_seed_of(state), who)
    return action


def reset_bots(bots: Sequence[GameBot], seeds: Sequence[int],
               labels: Sequence[str] | None = None, timeout: float | None = None, *,
               seats: Sequence[int] | None = None) -> None:
    """``reset(seed)`` each bot for its game; :class:`BotError` naming the bot where one
    fails (a bot of the user's own: its line), or takes longer than ``timeout`` seconds
    (as :func:`play_game`'s decisions). ``seats`` are the bots' seats (from 0), where
    not every seat's bot is given (a game with humans: ``dominari play``'s)."""
    clock = DecisionClock(timeout) if timeout is not None else None
    with clock or contextlib.nullcontext():
        for k, (bot, seed) in enumerate(zip(bots, seeds, strict=True)):
            p = k if seats is None else seats[k]
            who = f"bot {bot.name!r} ({seat_words(p, labels)})"
            try:
                if clock is None:
                    bot.reset(seed)
                else:
                    clock.call(bot.reset, seed)
                    if clock.took > clock.limit:
                        raise BotError(f"{who} took {clock.took:.3g} s in reset({seed}), past "
                                       f"the decision timeout of {clock.limit:g} s"
                                       ).of(None, who)
            except Overtime as exc:
                raise BotError(f"{who} was still in reset({seed}) after the decision timeout "
                               f"of {timeout:g} s, and was stopped{_stopped_at(exc)}"
                               ).of(None, who) from None  # fmt: skip
            except (BotError, MemoryError):
                raise
            except Exception as exc:
                raise BotError(f"{who} failed in reset({seed}): {error_words(exc)}"
                               f"{_user_line(exc)}").of(None, who) from exc  # fmt: skip
            except BaseException as exc:
                if not bots_own_stop(exc):
                    raise
                raise BotError(f"{who} stopped in reset({seed}): {error_words(exc)}"
                               f"{_user_line(exc)}").of(None, who) from exc  # fmt: skip


def error_words(exc: BaseException) -> str:
    """``KeyError: 'x'``; ``SystemExit`` alone where the exception says nothing more.

    >>> error_words(KeyError("x")), error_words(SystemExit())
    ("KeyError: 'x'", 'SystemExit')
    """
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def bots_own_stop(exc: BaseException, anywhere: bool = False) -> bool:
    """Whether ``exc``, an exception that is no ``Exception``, is a bot's own (a bot
    file's ``sys.exit()``, an exception class of its own deriving from ``BaseException``):
    raised last in a bot file of the user's own (``anywhere``: in a file outside
    Dominari, Python's library and installed packages: a policy of the user's own), and
    neither Ctrl-C, raised through a signal's handler (a stop of the run: it stops it),
    nor the decision clock's :class:`Overtime`. A bot's own is said as its error: the game
    stopped, the bot named, as for any error of a bot's.

    >>> bots_own_stop(KeyboardInterrupt()), bots_own_stop(SystemExit(3))  # (no traceback)
    (False, False)
    """
    if isinstance(exc, (Exception, KeyboardInterrupt, GeneratorExit, Overtime)):
        return False
    handlers = _handler_codes()
    tb, last = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code in handlers:
            return False
        last, tb = tb, tb.tb_next
    if last is None:
        return False
    path = os.path.realpath(last.tb_frame.f_code.co_filename)
    if anywhere:
        return os.path.isfile(path) and not in_library(path)
    from dominari.bots.python_bot import bot_files

    return path in bot_files()


def _handler_codes() -> set[Any]:
    """The code of every signal handler of this process that is Python's: a function, a
    method, a ``functools.partial`` of one, or an object's ``__call__``."""
    codes = set()
    for sig in signal.valid_signals():
        try:
            handler = signal.getsignal(sig)
        except (ValueError, OSError):
            continue
        while isinstance(handler, partial):
            handler = handler.func
        code = getattr(getattr(handler, "__func__", handler), "__code__", None)
        if code is None and callable(handler):  # an object's __call__
            code = getattr(type(handler).__call__, "__code__", None)
        if code is not None:
            codes.add(code)
    return codes


def _stopped_at(exc: BaseException) -> str:
    """`` (at carol/bot.py line 12)``: where a bot was stopped (:func:`_user_line`)."""
    return _user_line(exc).replace(" (", " (at ", 1)


LIBRARY_FOLDERS = tuple(os.path.realpath(d) + os.sep for d in {
    os.path.dirname(os.path.dirname(__file__)),  # Dominari
    *(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")),
    *site.getsitepackages(), site.getusersitepackages()})
"""Folders whose files are no bot's of the user's own: Dominari's, Python's library and
installed packages' (:func:`in_library`)."""


def in_library(path: str) -> bool:
    """Whether the file ``path`` is in one of :data:`LIBRARY_FOLDERS`.

    >>> in_library(os.__file__), in_library("/nowhere/my_bot.py")
    (True, False)
    """
    return os.path.realpath(path).startswith(LIBRARY_FOLDERS)


def card_gaps(bots: Sequence[GameBot], names: Sequence[str], kingdom: str | Sequence[str],
              ) -> tuple[dict[str, list[str]], dict[str, dict[str, float]]]:  # fmt: skip
    """The Kingdom cards Dominion's rule bots (``bots``, named ``names``) buy that the
    games of ``kingdom`` (a spec) never have, by name (``missing_cards``: the bot plays
    without them), and those only some of its kingdoms have, with the share of kingdoms
    that do (``partial_cards``).

    >>> from dominari.bots import load_bot
    >>> card_gaps([load_bot("witch"), load_bot("bm")], ["Witch", "BM"], "first-game")
    ({'Witch': ['Witch']}, {})
    >>> card_gaps([load_bot("witch")], ["Witch"], "random")
    ({}, {'Witch': {'Witch': 0.4}})
    """
    from dominari.bots.kingdom import strategy_needs
    from dominari.bots.strategy import StrategyBot
    from dominari.dominion.kingdoms import chance

    missing: dict[str, list[str]] = {}
    partial: dict[str, dict[str, float]] = {}
    for bot, name in zip(bots, names, strict=True):
        if not isinstance(bot, StrategyBot):
            continue
        shares = {c: chance(kingdom, c) for c in sorted(strategy_needs(bot.strategy))}
        if any(v == 0 for v in shares.values()):
            missing[name] = [NAME[c] for c, v in shares.items() if v == 0]
        elif any(v < 1 for v in shares.values()):
            partial[name] = {NAME[c]: v for c, v in shares.items() if v < 1}
    return missing, partial


def timed_searches(bots: Iterable[object]) -> list[str]:
    """The names of the search bots among ``bots`` that stop their searches by the clock
    (``mcts:seconds=…``), once each: their games depend on the machine, not only on the
    seed."""
    from dominari.bots.mcts import MCTSBot

    return list(dict.fromkeys(b.name for b in bots
                              if isinstance(b, MCTSBot) and b.seconds is not None))


def run_notes(bots: Sequence[GameBot], names: Sequence[str], options: GameOptions,
              specs: Sequence[str] = ()) -> dict[str, Any]:  # fmt: skip
    """What a run's results say beside their numbers (as JSON values, each only where
    there is one; the command line says them on stderr too): the search bots that stop
    their searches by the clock (``timed_searches``: their games depend on the machine,
    not only on the seed), and Dominion's rule bots' cards that the kingdom lacks
    (``missing_cards``, ``partial_cards``: :func:`card_gaps`). Then what played, by
    player name, for whoever publishes the results: every setting of each search bot
    (``searches``, as a record's seats have them: what its level was in this version; a
    library's own functions by name),
    and the SHA-256 of the files each bot of ``specs`` (the players' specs) plays with
    (``bot_files``: a strategy file with its policy, a Python bot's file, a search's own
    seat or book), as a tournament's journal keys them."""
    from dominari.bots import bot_names
    from dominari.bots.mcts import MCTSBot
    from dominari.sim.journal import spec_files
    from dominari.sim.seats import search_settings

    notes: dict[str, Any] = {}
    timed = timed_searches(bots)
    if timed:
        notes["timed_searches"] = timed
    builtin = set(bot_names(options.game))
    searches = {name: search_settings(bot, builtin) for bot, name in zip(bots, names,
                                                                         strict=True)
                if isinstance(bot, MCTSBot)}
    if searches:
        notes["searches"] = searches
    held = spec_files(specs)
    if held:
        notes["bot_files"] = {name: held[spec] for spec, name in zip(specs, names,
                                                                     strict=True)
                              if spec in held}
    if isinstance(options, DominionOptions):
        missing, partial = card_gaps(bots, names, options.kingdom)
        if missing:
            notes["missing_cards"] = missing
        if partial:
            notes["partial_cards"] = partial
    return notes


def data_digest_of(options: GameOptions) -> str:
    """The digest of the files of the data folder a run plays with (as a record names
    it, so that runs on two versions of one folder tell themselves apart); ``""`` for the
    built-in data, or Dominion."""
    folder = getattr(options, "data", None) if options.game == "dominations" else None
    if folder is None:
        return ""
    from dominari.dominations.engine import data_digest

    return str(data_digest(dominations_data(folder)))


def seat_labels(names: Sequence[str], specs: Sequence[str]) -> list[str]:
    """Who plays each seat, for a bot's error: a bot of a file (a Python bot's, a strategy
    file's) by its display name and spec (``Bot#2: carol/bot.py:Bot``), a built-in bot by
    its name alone (``""``).

    >>> seat_labels(["BM", "Bot#2", "Mine"], ["bm", "carol/bot.py:Bot", "mine.toml"])
    ['', 'Bot#2: carol/bot.py:Bot', 'Mine: mine.toml']
    """
    from dominari.bots.python_bot import python_spec

    return [f"{name}: {spec.strip()}" if isinstance(spec, str) and (
        python_spec(spec) is not None or spec.strip().lower().endswith(".toml")) else ""
        for name, spec in zip(names, specs, strict=True)]


def _user_line(exc: BaseException) -> str:
    """`` (carol/bot.py line 12)``: where ``exc`` was raised last in a bot file of the
    user's own, or a module beside one (:func:`~dominari.bots.python_bot.bot_folders`);
    else last in a file outside Dominari, Python's library and installed packages; or
    ``""``."""
    import traceback

    from dominari.bots.python_bot import bot_folders

    folders = bot_folders()
    ours = elsewhere = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        path = os.path.realpath(frame.filename)
        if not os.path.isfile(path):
            continue
        here = f" ({short_path(path)} line {frame.lineno})"
        if os.path.dirname(path) in folders:
            ours = here
        elif not in_library(path):
            elsewhere = here
    return ours or elsewhere


def turn_order(state: GameState) -> list[int]:
    """The seats of a game just dealt in the order of their first turns, the one that
    begins first: the engines draw it from the game's seed (Dominion: who begins, then
    clockwise; Dominations: the initiative order of the first round).

    >>> from dominari.dominion.engine import DominionConfig, DominionState
    >>> s = DominionState.new(DominionConfig(players=3, seed=1))
    >>> order = turn_order(s)
    >>> order[0] == s.current_player(), sorted(order)
    (True, [0, 1, 2])
    """
    if state.game_name == "dominations":
        return list(state.order)  # type: ignore[attr-defined]
    if state.game_name == "dominion":
        first, n = state.turn_player, state.num_players  # type: ignore[attr-defined]
        return [(first + k) % n for k in range(n)]
    raise ValueError(f"no turn order known for the game {state.game_name!r}")


def run_chunk(chunk: Chunk) -> Tally:
    """Play the chunk's games and count their results (runs in a worker process)."""
    use_stamp(chunk.stamp, chunk.specs, chunk.options)
    bots = bots_for(chunk.game, chunk.specs)
    n = len(bots)
    tally = Tally(n)
    record_dir = Path(chunk.record_dir) if chunk.record_dir is not None else None
    recorder = SeatRecorder(bots, chunk.specs, chunk.game)
    labels = seat_labels(chunk.names, chunk.specs)
    seats = range(n)
    # Seats whose bot plays each game as some rule bot (``best``): counted by it.
    as_seats = [(f"as:{p}:", bot) for p, bot in enumerate(bots)
                if isinstance(bot, KingdomBestBot)]  # fmt: skip
    cards = _CARD_FEATURES if chunk.by_card else None
    keys = key_cards(bots)  # the games are also grouped by which of them they have
    bits = [(c, 1 << k) for k, c in enumerate(keys.cards)]
    best_at = [p for p, bot in enumerate(bots) if isinstance(bot, KingdomBestBot)]
    alike = not keys.unknown
    grouped: dict[tuple[int, object], str] = {}  # (card, group): its feature, made once
    for i in range(chunk.start, chunk.stop):
        state = chunk.options.new_game(n, game_seed(chunk.seed, i), chunk.names)
        order = turn_order(state)
        seeds = [bot_seed(chunk.seed, i, seat) for seat in range(n)]
        try:
            reset_bots(bots, seeds, labels, chunk.decision_timeout)
            play_game(bots, state, labels=labels, timeout=chunk.decision_timeout)
        except BotError as exc:  # which game of the run: played again alone by its seed
            where = "" if record_dir is None else stopped_record(
                record_dir / (STOPPED + record_name(i)), state,
                partial(recorder.entries, seats, seeds, state), exc)  # fmt: skip
            raise exc.again(f"game {i + 1} of the simulation: {exc}{where}",
                            seed=game_seed(chunk.seed, i), game=i) from exc
        beat()  # a game finished: the worker is not hung
        out = state.outcome()
        assert out is not None
        played = [bot.for_game(state).name  # type: ignore[arg-type]
                  for _, bot in as_seats]  # Dominion: only it has best
        features = [lead + name for (lead, _), name in zip(as_seats, played, strict=True)]
        if chunk.by_card and chunk.game == "dominations":
            features.extend(_held_features(state))
        elif cards is not None:
            kingdom = state.kingdom  # type: ignore[attr-defined]
            features.extend(cards[c] for c in kingdom)
            if alike:
                group: object = sum(bit for c, bit in bits if c in kingdom)
                if played:  # every seat of best plays the same rule bot
                    group = (group, played[0])
                features.extend(alike_features(kingdom, group, grouped))
        breakdown = out.extra.get("vp_breakdown")
        tally.add(out.scores, out.ranks, out.turns, out.reason, breakdown, order, features)
        if chunk.rows:
            tally.rows.append((
                i, tuple(out.scores), tuple(out.ranks), tuple(out.turns), out.reason,
                None if order is None else tuple(order),
                getattr(state, "kingdom", None),  # Dominion's Kingdom cards (ids)
                tuple(played[best_at.index(p)] if p in best_at else None for p in seats)
                if played else None, breakdown,
                held_cards(state, n) if chunk.game == "dominations" else None,
                held_monuments(state) if chunk.game == "dominations" else None))  # fmt: skip
        if record_dir is not None:
            write_record(record_dir / record_name(i), state,
                         recorder.entries(seats, seeds, state))  # fmt: skip
    return tally


_CARD_FEATURES = {c: f"card:{NAME[c]}" for c in range(len(NAME))}
"""Each card's feature for :attr:`Tally.split` (``card:Witch``), made once."""


def _held_features(state: Any) -> list[str]:
    """A Dominations game's features for :attr:`Tally.split`: each mastery card (by skill)
    each seat held at the end (``mastery:1:T3a Marketplace``: a skill's id has no white
    space, its name may have any); and for the differences among games alike
    (:func:`~dominari.sim.stats.mastery_splits`), each seat's group of games, by how many
    cards it held (``held@1:12``), and each card in it (``mastery@1:12:T3a``)."""
    held = list(_held_skills(state))
    counts = Counter(p for p, _ in held)
    out = [f"mastery:{p}:{skill.id} {skill.name}" for p, skill in held]
    out.extend(f"mastery@{p}:{counts[p]}:{skill.id}" for p, skill in held)
    out.extend(f"held@{p}:{counts[p]}" for p in range(state.num_players))
    # the monuments (:func:`~dominari.sim.stats.monument_splits`): those in play; each
    # seat's group of games, by how many level cards it held, with each in play, and in
    # it each monument it held a level card of
    monuments = state.data.monuments
    in_play = [monuments[m] for m in sorted(state.levels_taken)]
    out.extend(f"monument-in:{mon.id}" for mon in in_play)
    for p, levels in enumerate(_held_levels(state)):
        k = len(levels)
        out.extend(f"mgroup@{p}:{k}:{mon.id}" for mon in in_play)
        for m in sorted(set(levels)):
            mon = monuments[m]
            out.append(f"monument:{p}:{mon.id} {mon.name}")
            out.append(f"monument@{p}:{k}:{mon.id}")
    return out


def _level_cards(state: Any) -> list[list[str]]:
    """Each seat's monument level cards at the end of a Dominations game (ids)."""
    return [[card.id for card in ps.tree.cards.values() if card.level_card]
            for ps in state.players]  # fmt: skip


def _held_levels(state: Any) -> list[list[int]]:
    """Each seat's monument level cards at the end of a Dominations game: the index of
    each one's monument."""
    cat = state.catalog
    return [[cat.level_monument[cat.level_code[card]] for card in cards]
            for cards in _level_cards(state)]  # fmt: skip


def held_monuments(state: Any) -> dict[str, Any]:
    """A Dominations game's monuments at its end, for its row: ``monuments_in_play``
    (ids, by index) and ``monument_levels``, each seat's level cards (ids, sorted)."""
    return {"monuments_in_play": [state.data.monuments[m].id
                                  for m in sorted(state.levels_taken)],
            "monument_levels": [sorted(cards) for cards in _level_cards(state)]}


def _held_skills(state: Any) -> Iterator[tuple[int, Any]]:
    """Each mastery card held at the end of a Dominations game: its seat and its skill."""
    cat = state.catalog
    for code, p in enumerate(state.taken):
        if p >= 0:
            yield p, cat.skills[cat.copy_skill[code]]


def held_cards(state: Any, players: int) -> tuple[tuple[str, ...], ...]:
    """Each seat's mastery cards at the end of a Dominations game (skill ids, sorted; a
    tree holds one copy of a skill at most, D-DEV-4)."""
    held: list[list[str]] = [[] for _ in range(players)]
    for p, skill in _held_skills(state):
        held[p].append(skill.id)
    return tuple(tuple(sorted(cards)) for cards in held)


def _group_feature(group: object, lead: str = "") -> str:
    """The feature of a game's group: by the key cards it has (``group@3``: the first
    two), and by the rule bot ``best`` played (``group@3/Smithy``); ``lead`` before them
    (``group@2.3``: a tournament's match-up)."""
    if isinstance(group, tuple):
        return f"group@{lead}{group[0]}/{group[1]}"
    return f"group@{lead}{group}"


def alike_features(kingdom: Iterable[int], group: object,
                   made: dict[tuple[int, object], str], lead: str = "") -> list[str]:
    """A game's features for the differences among games alike
    (:class:`~dominari.sim.stats.CardSplit`): its ``group``'s (``group@G``, see
    :func:`_group_feature`; ``lead`` before ``G``) and each of its ``kingdom``'s cards' in
    it (``card@G:Witch``), each made once into ``made`` (by card, -1 for the group's own,
    and group).

    >>> alike_features([29], (3, "Witch"), {}, "2.")
    ['group@2.3/Witch', 'card@2.3/Witch:Witch']
    """
    name = made.get((-1, group))
    if name is None:
        name = made[-1, group] = _group_feature(group, lead)
    out = [name]
    for c in kingdom:
        feature = made.get((c, group))
        if feature is None:
            feature = made[c, group] = f"card@{name[6:]}:{NAME[c]}"
        out.append(feature)
    return out


_SUPPLY_CALL = re.compile(r"""supply\(\s*(['"])(.*?)\1\s*\)""")


def _supply_read(strategy: Any) -> frozenset[int]:
    """The Kingdom cards whose supply a condition of ``strategy`` reads (``supply('X')``;
    the conditions were checked when the file was read)."""
    from dominari.dominion.cards import KINGDOM, card_id

    return frozenset(c for rule in strategy.buy if rule.when
                     for m in _SUPPLY_CALL.finditer(rule.when)
                     if (c := card_id(m.group(2))) in KINGDOM)  # fmt: skip


MAX_KEY_CARDS = 8
"""The most key cards games are grouped by (up to 256 groups of them): more groups hold
too few games each to compare a card within them (:class:`~dominari.sim.stats.CardSplit`)."""


class KeyCards(NamedTuple):
    """What the results by card group games by (:func:`key_cards`), so that a card is
    compared with and without it among games alike in them."""

    cards: tuple[int, ...]
    """The Kingdom cards the strategy bots at the table buy, or whose supply a condition
    of theirs reads (``supply('Gardens')``: its play differs where the kingdom lacks it),
    sorted."""
    played_as: bool = False
    """``best`` is at the table: games are also grouped by the rule bot it played, the
    first of its order that fits the kingdom (which of the cards of all its strategies the
    kingdom has changes its play only through that)."""
    unknown: str = ""
    """Why games cannot be grouped alike in what the bots buy ('' when they can): a bot
    chooses its buys by search or by a learned policy, or the strategies buy more than
    :data:`MAX_KEY_CARDS` cards. No difference among games alike is then given."""


def key_cards(bots: Sequence[object]) -> KeyCards:
    """What the rule bots among ``bots`` buy (a strategy bot the cards of its strategy;
    ``best`` as the rule bot it plays in a game; a random bot none, whatever the
    kingdom): what the results by card group the games by, so that a card is compared
    with and without it among games alike in it (see
    :class:`~dominari.sim.stats.CardSplit`)."""
    from dominari.bots.kingdom import strategy_needs
    from dominari.bots.random_bot import RandomBot
    from dominari.bots.strategy import StrategyBot

    found: set[int] = set()
    played_as = False
    for bot in bots:
        if isinstance(bot, StrategyBot):
            if bot.learned is not None:
                return KeyCards((), unknown=f"{bot.name} buys by a learned policy that may "
                                            "overrule its buy rules, not from a list of "
                                            "cards")  # fmt: skip
            found |= strategy_needs(bot.strategy) | _supply_read(bot.strategy)
        elif isinstance(bot, KingdomBestBot):
            played_as = True
        elif not isinstance(bot, RandomBot):
            name = getattr(bot, "name", type(bot).__name__)
            return KeyCards((), unknown=f"{name} chooses what it buys by searching the "
                                        "game, not from a list of cards")  # fmt: skip
    if len(found) > MAX_KEY_CARDS:
        cards = ", ".join(sorted(NAME[c] for c in found))
        return KeyCards((), unknown=f"the strategies here buy {len(found)} Kingdom cards "
                                    f"({cards}), and games are grouped alike in at most "
                                    f"{MAX_KEY_CARDS}")  # fmt: skip
    return KeyCards(tuple(sorted(found)), played_as)


def check_by_card(options: GameOptions) -> None:
    """:class:`ConfigError` unless results can be split by card: Dominion games whose
    kingdoms differ (``random``, or fewer than 10 cards named), or Dominations games (by
    the mastery cards each seat held at the end)."""
    if not isinstance(options, DominionOptions):
        return
    if fixed_kingdom(options.kingdom) is not None:
        raise ConfigError("results by Kingdom card need kingdoms that differ between games, "
                          f"and the kingdom {describe_kingdom(options.kingdom)} is the same "
                          "in every game: give a random kingdom, or fewer than 10 cards")


def write_record(target: Path, state: GameState, seats: list[dict[str, Any]]) -> None:
    """Write the record of the finished game ``state`` to ``target`` (atomically), with
    what played its seats (:func:`~dominari.sim.seats.seat_entries`); :class:`ConfigError`
    naming the file if it cannot be written."""
    try:
        write_record_atomic(target, record_with_seats(state, seats))
    except OSError as exc:  # a full disk, a folder removed during the run … (said as the
        # machine's where it is: the mark, not the OS error, comes back from a worker)
        raise machine_failed(ConfigError(f"cannot write game record {str(target)!r} "
                                         f"({exc.strerror or exc})"), exc) from None


STOPPED = "stopped-"
"""The start of the name of a game's record that a bot stopped (``stopped-game-000004.json``),
beside a run's records: no record of a run (a run that fails removes those), and a run
into the folder leaves it be."""


def stopped_record(target: Path, state: GameState, seats: Callable[[], list[dict[str, Any]]],
                   exc: BaseException) -> str:  # fmt: skip
    """Write the record of the game ``state`` a bot stopped (``exc``), up to the stop, to
    ``target`` (:data:`STOPPED`), with what played its seats (``seats()``) and the stop in
    words (``stopped``); the words that say where it is for the error, or ``""`` where
    it cannot be written (the bot's error is the one said)."""
    try:
        record = record_with_seats(state, seats())
        record["stopped"] = str(exc)
        write_record_atomic(target, record)
    except Exception:  # a state the bot left unreadable, a full disk …
        return ""
    return f"; the game up to there: {short_path(str(target))} (dominari replay shows it)"


def check_run(games: object, workers: object, seed: object, backend: str,
              what: str, limit: int | None = None) -> tuple[int, int, int, str]:
    """Check the numbers of a run of many games (``what`` names ``games`` in the message,
    at most ``limit``, default :data:`MAX_GAMES`); return them as plain ints (a NumPy
    integer too) with the canonical backend name. Raises :class:`ConfigError`."""
    n = whole(games, what, 1)
    limit = MAX_GAMES if limit is None else limit
    if n > limit:
        raise ConfigError(f"{what} must be at most {limit:,}, not {n:,}: split the "
                          "run into several with different seeds")  # fmt: skip
    count, backend = whole(workers, "the number of workers", 1), check_backend(backend)
    most = local_worker_limit()
    if backend == "local" and count > most:
        raise ConfigError(f"{count:,} workers: the local backend starts a process for each, "
                          f"and this machine has {default_workers()} CPU(s); give at most "
                          f"{most} (about one a CPU plays fastest), or --backend ray for a "
                          "cluster")  # fmt: skip
    return n, count, seed_value(seed, "the seed"), backend


def local_worker_limit() -> int:
    """The most worker processes the local backend starts: 4 a CPU, at least 16 (more
    play no faster, and a typo such as 200 for 20 would start them all)."""
    return max(16, 4 * default_workers())


def check_request(players: object, options: object, keywords: dict[str, object],
                  progress: object, start_method: object,
                  started: object = None) -> tuple[str, ...]:
    """The checks :func:`simulate` and :func:`~dominari.sim.tournament.tournament` share:
    ``players`` is a list of bot specs (strings; a strategy file's path object is read as
    its string), ``options`` a game's options and not
    given beside the keywords that would make them, ``progress`` and ``started``
    callable, ``start_method`` a multiprocessing start method; returns the specs."""
    # a strategy file's path object is its string: records and journals name it so
    specs = tuple(os.fspath(p) if isinstance(p, os.PathLike) else p
                  for p in spec_list(players, "players"))
    for spec in specs:
        if isinstance(spec, str):
            continue
        if isinstance(spec, type) or callable(getattr(spec, "act", None)):
            kind, what = ((spec.__name__, "classes") if isinstance(spec, type)
                          else (type(spec).__name__, "objects"))
            shown = (f"{kind} {what}: every game needs its own bots, made in its worker "
                     "from a spec (a bot of your own: the file and the class or function "
                     "that makes it, FILE.py:NAME)")
        else:
            shown = f"{type(spec).__name__} {spec!r}"
        raise ConfigError("players are named by their specs (a bot's name, a strategy "
                          f"file's path or a Python bot's FILE.py:NAME, as load_bot takes), "
                          f"not {shown}")
    if options is not None:
        if not isinstance(options, (DominionOptions, DominationsOptions)):
            raise ConfigError(f"options must be game_options(...), not {options!r}")
        given = [k for k, v in keywords.items()
                 if v is not None and not (k == "max_turns" and v == DEFAULT_MAX_TURNS)]
        if given:
            raise ConfigError(f"give the game's options as options= or as keywords, not "
                              f"both: {', '.join(given)} given beside options")  # fmt: skip
    if progress is not None and not callable(progress):
        raise ConfigError(f"progress must be a function of the games done, not {progress!r}")
    if started is not None and not callable(started):
        raise ConfigError(f"started must be a function (of nothing), not {started!r}")
    if start_method is not None and start_method not in ("spawn", "fork", "forkserver"):
        raise ConfigError(f"start_method must be spawn, fork or forkserver, not "
                          f"{start_method!r}")
    return specs


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about 8 chunks per worker, at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (workers * 8))))


def chunk_bounds(games: int, workers: int) -> list[tuple[int, int]]:
    """The ``(start, stop)`` of each chunk of consecutive games: :func:`chunk_size` games,
    then smaller ones as the games left run out (a quarter of what is left per worker,
    down to an eighth of the first size), so that the workers finish together instead of
    one waiting on another's last big chunk.

    >>> [stop - start for start, stop in chunk_bounds(100, 2)]
    [7, 7, 7, 7, 7, 7, 7, 7, 6, 5, 5, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]
    >>> chunk_bounds(3, 4)
    [(0, 1), (1, 2), (2, 3)]
    """
    starts = chunk_starts(games, workers)
    return [(starts[k], starts[k + 1]) for k in range(len(starts) - 1)]


def chunk_starts(games: int, workers: int) -> array[int]:
    """The first game of every chunk of :func:`chunk_bounds`, then ``games``: 8 bytes a
    chunk (400,000 chunks at the most games), where a list of pairs takes some 120.

    >>> list(chunk_starts(10, 1))
    [0, 2, 4, 6, 7, 8, 9, 10]
    """
    size = chunk_size(games, workers)
    least = max(1, size // 8)
    out = array("q", [0])
    start = 0
    while start < games:
        left = games - start
        start = min(games, start + min(size, max(least, math.ceil(left / (4 * workers)))))
        out.append(start)
    return out


class _Chunks(Sequence[Chunk]):
    """The chunks of a simulation, each made when asked for (see :func:`chunk_starts`)."""

    def __init__(self, specs: tuple[str, ...], names: tuple[str, ...], options: GameOptions,
                 seed: int, starts: array[int], record_dir: str | None,
                 by_card: bool = False, stamp: str | None = None,
                 rows: bool = False, decision_timeout: float | None = None) -> None:
        self.specs, self.names, self.options, self.seed = specs, names, options, seed
        self.decision_timeout = decision_timeout
        self.starts = starts
        self.record_dir = record_dir
        self.by_card = by_card
        self.stamp = stamp
        self.rows = rows

    def __len__(self) -> int:
        return len(self.starts) - 1

    @overload
    def __getitem__(self, k: int) -> Chunk: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[Chunk]: ...
    def __getitem__(self, k: int | slice) -> Chunk | Sequence[Chunk]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not -len(self) <= k < len(self):
            raise IndexError("chunk index out of range")
        k %= len(self)
        return Chunk(self.specs, self.names, self.options, self.seed, self.starts[k],
                     self.starts[k + 1], self.record_dir, self.by_card,
                     self.stamp, self.rows, self.decision_timeout)  # fmt: skip


def game_row(row: tuple[Any, ...], seed: int) -> dict[str, Any]:
    """A game's own result (a row of :attr:`Tally.rows`, of a simulation of ``seed``) as
    JSON values: its ``index`` (from 0; its record is numbered from 1) and ``seed``
    (:func:`game_seed`), each seat's ``scores``, ``ranks`` (1: won; shared where several
    are 1) and ``turns``, how it ``ended``, the seats in ``turn_order`` (the first began);
    Dominion's ``kingdom`` and, with ``best`` at the table, each seat's ``played_as`` (the
    rule bot it played, or None); Dominations' ``vp_breakdown`` (each seat's VP by
    source), ``masteries`` (each seat's mastery cards at the end, by skill id, as the
    results by card count them), ``monuments_in_play`` and ``monument_levels`` (each
    seat's monument level cards at the end: :func:`held_monuments`).

    >>> row = game_row((4, (30, 25), (1, 2), (17, 16), "provinces", (1, 0), (21, 29),
    ...                 ("Witch", None), None, None), seed=1)
    >>> row["index"], row["ranks"], row["turn_order"], row["kingdom"], row["played_as"]
    (4, [1, 2], [1, 0], ['Moat', 'Witch'], ['Witch', None])
    """
    i, scores, ranks, turns, reason, order, kingdom, played, breakdown, held, *more = row
    monuments = more[0] if more else None
    out: dict[str, Any] = {"index": i, "seed": game_seed(seed, i), "scores": list(scores),
                           "ranks": list(ranks), "turns": list(turns), "ended": reason}
    if order is not None:
        out["turn_order"] = list(order)
    if kingdom is not None:
        out["kingdom"] = [NAME[c] for c in kingdom]
    if played is not None:
        out["played_as"] = list(played)
    if breakdown is not None:
        out["vp_breakdown"] = [dict(sources) for sources in breakdown]
    if held is not None:
        out["masteries"] = [list(cards) for cards in held]
    if monuments is not None:
        out.update(monuments)
    return out


class _InOrder:
    """Tallies merged into ``total`` in chunk order as they arrive in any order: those that
    come early wait (a few, of the chunks sent beside a slower one) until every chunk
    before them is in. Merging in order keeps the end reasons and VP sources in the
    order first seen, so the result does not depend on which chunk finished first."""

    def __init__(self, total: Tally,
                 each: Callable[[tuple[Any, ...]], None] | None = None) -> None:
        self.total = total
        self.next = 0
        self.waiting: dict[int, Tally] = {}
        self.each = each
        """Called with each game's row (:attr:`Tally.rows`), in game order."""
        self.torn = False
        """Whether a merge was stopped halfway (by Ctrl-C): ``total`` is then no
        chunk's."""

    def add(self, k: int, tally: Tally) -> None:
        self.waiting[k] = tally
        while self.next in self.waiting:
            tally = self.waiting.pop(self.next)
            if self.each is not None:
                for row in tally.rows:
                    self.each(row)
            tally.rows = []
            self.torn = True
            self.total.merge(tally)
            self.next += 1
            self.torn = False


def default_workers() -> int:
    return os.cpu_count() or 1


_RECORD_TEMP = temporary_files(RECORD_GLOB)
_STOPPED_TEMP = temporary_files(STOPPED + RECORD_GLOB)


def simulate(
    players: Sequence[str | os.PathLike[str]],
    games: int,
    seed: int,
    workers: int = 1,
    *,
    game: str | None = None,
    kingdom: str | Sequence[str] | None = None,
    max_turns: int | None = DEFAULT_MAX_TURNS,
    rules: Rules | None = None,
    data: str | os.PathLike[str] | None = None,
    options: GameOptions | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int], None] | None = None,
    start_method: str | None = "spawn",
    backend: str = "local",
    stall: float | None = None,
    decision_timeout: float | None = None,
    by_card: bool = False,
    started: Callable[[], None] | None = None,
    each_game: Callable[[dict[str, Any]], None] | None = None,
    stopped: Callable[[SimResult], None] | None = None,
) -> SimResult:
    """Play ``games`` seeded games of ``game`` (default Dominion) between the bots named
    by ``players`` (one spec per seat: a bot's name, or a strategy file's path as a string
    or a path object).

    ``workers`` processes share the games (1: all in this process); the result
    does not depend on it. Dominion: ``kingdom`` is a recommended set name,
    ``random`` (the default: a different kingdom each game) or card names;
    ``max_turns`` stops a game after that many turns of every player.
    Dominations: ``rules`` are the rule options, ``data`` a folder of component
    files. ``options`` gives a game's options at once instead
    (:class:`DominionOptions`, :class:`DominationsOptions`). ``record_dir``
    receives one record file per game (a run that fails or is interrupted removes those
    it wrote, so that it can be run again into the same folder). ``progress(k)`` is
    called in this process each time ``k`` more games are done. ``backend`` is the
    pool that runs the games (:data:`~dominari.sim.pool.BACKENDS`: ``local``
    processes or ``ray``). With ``stall`` (seconds), a batch of games
    whose worker finishes no game for that long is taken for hung: the worker is killed
    and the batch played again (see :func:`~dominari.sim.pool.each_result`).
    ``decision_timeout`` (seconds) stops the run with a :class:`BotError` naming the bot
    that takes longer over one decision (see :func:`play_game`).
    ``by_card`` splits every seat's results by card: Dominion (kingdoms that differ between
    games) by the Kingdom cards of each game (:attr:`SimResult.by_card`), Dominations by
    the mastery cards each seat held at the end (:attr:`SimResult.by_mastery`). A seat played by
    ``best`` always has its results by the rule bot it played (``played_as``).
    ``started()`` is called once everything given is checked, before the first game (the
    command line says its notes then, so that a refused run says only why).
    ``each_game(row)`` is called in this process with each game's own result, in game
    order whatever the workers (:func:`game_row`: its index, seed, scores, ranks, turns,
    how it ended, the turn order, and its kingdom, the rule bots ``best`` played, or the
    VP by source and the mastery cards held), for statistics of one's own; an exception it
    raises stops the run.
    ``stopped(result)`` is called when the run is stopped from outside (Ctrl-C: a
    ``KeyboardInterrupt``, or another exception that is not an ``Exception``) after it
    finished a batch of games, before the stop goes on: ``result`` holds the games of the
    batches finished in game order (batches of up to :data:`MAX_CHUNK` games; a batch
    finished after one still being played is left out with it): the same results as a
    run of that many games gives, with :attr:`SimResult.games_asked` saying how many
    were asked for. Its records are removed as those of any run that does not end;
    ``each_game`` may have had the rows of some games past them (of the batch whose rows
    it was given when the stop came).
    Raises :class:`DominariError` subclasses for bad input, before any game is
    played or file written.
    """
    specs = check_request(players, options, {"kingdom": kingdom, "max_turns": max_turns,
                                             "rules": rules, "data": data},
                          progress, start_method, started)  # fmt: skip
    games, workers, seed, backend = check_run(games, workers, seed, backend,
                                              "the number of games")  # fmt: skip
    stall = check_stall(stall)
    decision_timeout = check_decision_timeout(decision_timeout)
    if each_game is not None and not callable(each_game):
        raise ConfigError(f"each_game must be a function of a game's row, not {each_game!r}")
    if stopped is not None and not callable(stopped):
        raise ConfigError(f"stopped must be a function of a result, not {stopped!r}")
    if options is None:
        options = game_options(game or "dominion", kingdom=kingdom, max_turns=max_turns,
                               rules=rules, data=data)  # fmt: skip
    elif game is not None and check_game(game) != options.game:
        raise ConfigError(f"options of {options.game} given for a game of {game}")
    if not 2 <= len(specs) <= 4:
        raise ConfigError(f"{GAME_TITLES[options.game]} is for 2 to 4 players, "
                          f"not {len(specs)}")  # fmt: skip
    bots = load_bots(specs, options.game)
    names = seat_names([b.name for b in bots], specs)
    stamp = start_run(specs, options, bots, names, seed,
                      reuse=workers == 1 and backend == "local")  # fmt: skip
    if not isinstance(by_card, bool):
        raise ConfigError(f"by_card must be True or False, not {by_card!r}")
    if by_card:
        check_by_card(options)
    held = HeldFolder(record_dir, fresh=ANY_RECORDS) if record_dir is not None else None
    rdir = str(held.path) if held is not None else None

    starts = chunk_starts(games, workers)
    chunks = _Chunks(specs, names, options, seed, starts, rdir, by_card, stamp,
                     rows=each_game is not None,
                     decision_timeout=decision_timeout)  # fmt: skip
    total = _InOrder(Tally(len(specs)), None if each_game is None else
                     lambda row: each_game(game_row(row, seed)))  # fmt: skip
    retried: list[str] = []  # the batches played again, their workers lost

    def done(k: int, tally: Tally) -> None:
        total.add(k, tally)
        if progress is not None:
            progress(starts[k + 1] - starts[k])

    def result() -> SimResult:
        keys = key_cards(bots) if by_card and options.game == "dominion" else KeyCards(())
        return SimResult.from_tally(total.total, names=names, specs=specs, seed=seed,
                                    game=options.game, options=options.to_json(),
                                    key_cards=tuple(NAME[c] for c in keys.cards),
                                    key_played_as=keys.played_as,
                                    unadjusted=keys.unknown,
                                    code=game_code(options.game),
                                    games_asked=games,
                                    notes=run_notes(bots, names, options, specs),
                                    data_digest=data_digest_of(options),
                                    retried=tuple(retried))  # fmt: skip

    try:
        _run_chunks(chunks, done, workers, backend, start_method, stall, started, held,
                    lambda k, why: retried.append(f"{game_range(starts[k], starts[k + 1])}: "
                                                  f"{why}"))  # fmt: skip
    except BaseException as exc:
        if (stopped is not None and not isinstance(exc, Exception) and total.total.games
                and not total.torn):
            stopped(result())  # the games finished in order before the stop
        raise
    assert total.next == len(chunks) and not total.waiting
    return result()


def _run_chunks(chunks: _Chunks, done: Callable[[int, Tally], None], workers: int,
                backend: str, start_method: str | None, stall: float | None,
                started: Callable[[], None] | None, held: HeldFolder | None,
                retried: Callable[[int, str], None] | None = None) -> None:
    """:func:`simulate`'s games, chunk by chunk (each to ``done(k, tally)``), into
    ``held``'s folder of records if any, which a run that does not end leaves empty;
    ``retried`` as :func:`~dominari.sim.pool.each_result`'s."""
    rdir = str(held.path) if held is not None else None
    try:
        try:
            if started is not None:
                if backend == "ray":  # a cluster that cannot be reached is said before
                    init_ray(workers)  # the notes, as any other refusal
                started()
            each_result(run_chunk, chunks, done, workers=workers, backend=backend,
                        start_method=start_method, stall=stall, retried=retried)  # fmt: skip
        except BaseException:
            # A run that fails or is stopped leaves no records: the folder held none of an
            # earlier run (else it was refused) and no other run wrote there while it was
            # held, so all are this run's, and the same run again would be refused for
            # them; nor does it leave the folders it made.
            if held is not None:  # the records, and any a killed worker left half written
                held.discard(RECORD_GLOB, _RECORD_TEMP, _STOPPED_TEMP)  # (a stopped game's
                # record is kept, but not one half written by a worker stopped meanwhile)
            raise
        if rdir is not None:  # a worker killed while writing a record left its temporary
            remove_files(rdir, _RECORD_TEMP)  # file: the retry wrote the record whole
    finally:
        if held is not None:
            held.close()  # another run may write there now

