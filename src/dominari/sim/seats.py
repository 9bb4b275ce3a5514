"""What played each seat of a recorded game, and the game played again by those bots.

A record written by ``play``, ``show``, ``simulate`` or ``tournament`` says what played
each seat (``seats``, :func:`seat_entries`): a bot's spec, the seed it was reset with, the
files it played with (by their full paths, with their SHA-256) and, for a search, every
setting of its search. :func:`rerun` builds those bots,
resets each with its seed, and walks the record's actions: at each decision of a bot's
seat it asks the bot, and compares its answer with the recorded action, up to the first
that differs (after it, the bot's random numbers are no longer the game's). A human
seat's actions are taken as recorded. A search of an iteration or step budget makes its
moves again exactly; one stopped by the clock (``seconds``) may not, and is named.

>>> from dominari.bots import load_bot
>>> from dominari.sim.runner import DominionOptions, play_game
>>> state = DominionOptions(kingdom="first-game").new_game(2, 5, ("BM", "Smithy"))
>>> bots = [load_bot("bm"), load_bot("smithy")]
>>> for bot, seed in zip(bots, (1, 2)):
...     bot.reset(seed)
>>> record = play_game(bots, state).record()
>>> record["seats"] = seat_entries(bots, ["bm", "smithy"], [1, 2], state)
>>> done = rerun(record, type(state).from_record(record, upto=0))
>>> done.made, done.compared == len(record["actions"])
(True, True)
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dominari.bots import bot_names, load_bot
from dominari.bots.base import GameBot, playing
from dominari.bots.mcts import SETTINGS, MCTSBot, function_name
from dominari.bots.python_bot import python_spec
from dominari.core.errors import DominariError, RecordError
from dominari.core.records import replay
from dominari.sim.journal import code_fingerprint, spec_paths
from dominari.sim.stats import made_by


class SeatRecorder:
    """What a run's bots are, worked out once (their specs, a search's settings, the files
    they play with and their digests), for the records of its games (:meth:`entries`):
    a game adds only its seating, the seeds and what ``best`` played as.

    ``bots`` and ``specs`` are a run's bots (None for a human) and the specs they were
    named by; ``game`` the game's name."""

    def __init__(self, bots: Sequence[GameBot | None], specs: Sequence[str],
                 game: str) -> None:  # fmt: skip
        names = set(bot_names(game))
        self._bots = list(bots)
        self._static = [None if bot is None else _static_entry(bot, spec.strip(), names)
                        for bot, spec in zip(bots, specs, strict=True)]  # fmt: skip

    def entries(self, order: Sequence[int], seeds: Sequence[int | None],
                state: object) -> list[dict[str, Any]]:
        """The ``seats`` of ``state``'s game, where seat ``p`` was played by bot
        ``order[p]`` of the run, reset with ``seeds[p]`` (see :func:`seat_entries`)."""
        out: list[dict[str, Any]] = []
        for seat, (k, seed) in enumerate(zip(order, seeds, strict=True)):
            static = self._static[k]
            if static is None:
                out.append({"seat": seat, "kind": "human"})
                continue
            entry: dict[str, Any] = {"seat": seat, "kind": "bot", "bot": static["bot"],
                                     "seed": seed}  # fmt: skip
            for key, value in static.items():
                if key != "bot":
                    entry[key] = dict(value) if isinstance(value, dict) else value
            for_game = getattr(self._bots[k], "for_game", None)  # best: the kingdom's bot
            if for_game is not None:
                entry["played_as"] = for_game(state).name
            out.append(entry)
        return out


def search_settings(bot: MCTSBot, names: set[str]) -> dict[str, Any]:
    """Every setting of the search ``bot`` as JSON values (:meth:`MCTSBot.settings`): a
    library's own ``policy`` or ``evaluate`` function by its name and where it is written
    (:func:`~dominari.bots.mcts.function_name`), its ``own`` seat's or ``book``'s file by
    its full path; ``names``: the game's built-in bots (an ``own`` seat of that name is
    never read as a path, even beside a file of that name)."""
    settings = bot.settings()
    for key in ("policy", "evaluate"):
        if settings[key] is not None:
            settings[key] = function_name(settings[key])
    own, book = settings["own"], settings["book"]
    if isinstance(own, str) and own.strip().lower() not in names and Path(own).is_file():
        settings["own"] = str(Path(own).resolve())
    if isinstance(book, str) and Path(book).is_file():
        settings["book"] = str(Path(book).resolve())
    return settings


def _static_entry(bot: GameBot, spec: str, names: set[str]) -> dict[str, Any]:
    """A seat's entry but for its seed and what ``best`` played as (:class:`SeatRecorder`)."""
    # a search bot's name is its spec in lower case, with a time cap where one was set; a
    # bot file's (FILE.py:NAME) is played again from its file, whatever it makes
    search = isinstance(bot, MCTSBot) and python_spec(spec) is None
    entry: dict[str, Any] = {"bot": bot.name if search else spec}
    paths = spec_paths(spec)
    if search:
        assert isinstance(bot, MCTSBot)
        entry["search"] = search_settings(bot, names)
    elif paths:
        entry["file"] = str(paths[0].resolve())  # the strategy file (or Python bot's)
    if paths:
        entry["files"] = {str(p.resolve()): _sha256(p) for p in paths}
    return entry


def seat_entries(bots: Sequence[GameBot | None], specs: Sequence[str],
                 seeds: Sequence[int | None], state: Any) -> list[dict[str, Any]]:
    """What played each seat of ``state``'s game, for its record (``seats``): the seat, a
    ``human`` or a ``bot`` with the spec it was named by and the seed it was reset with; a
    search bot's every setting too (:meth:`MCTSBot.settings`: what its level was when the
    game was played), and the rule bot ``best`` played the game as. A bot that plays with
    files (a strategy file, the buy policy it names, a search's own seat or opening book)
    has them in ``files``, by full path, with the SHA-256 of each, and a strategy file's
    bot and a search's settings name them by their full paths, so that the game is played
    again from anywhere (:func:`rerun`), and a changed file is seen. A run of many games
    works its bots out once (:class:`SeatRecorder`).

    >>> from dominari.sim.runner import DominionOptions
    >>> state = DominionOptions(kingdom="first-game").new_game(2, 1, ("A", "B"))
    >>> bots = [load_bot("mcts-easy"), load_bot("best")]
    >>> entries = seat_entries(bots, ["MCTS-easy", "best"], [11, 12], state)
    >>> entries[0]["bot"], entries[0]["seed"], entries[0]["search"]["iterations"]
    ('mcts-easy', 11, 30)
    >>> entries[1]
    {'seat': 1, 'kind': 'bot', 'bot': 'best', 'seed': 12, 'played_as': 'Smithy'}
    """
    recorder = SeatRecorder(bots, specs, state.game_name)
    return recorder.entries(range(len(bots)), seeds, state)


def record_with_seats(state: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """``state``'s game record with what played its seats (:func:`seat_entries`) and what
    made it (``dominari``: Dominari's version and the fingerprint of the code that plays
    the game, :func:`~dominari.sim.journal.code_fingerprint`, as a run's JSON names them),
    so that ``replay --bots`` can say when other code may play otherwise."""
    record: dict[str, Any] = state.record()
    record["seats"] = seats
    record["dominari"] = made_by(code_fingerprint(state.game_name))
    return record


def _sha256(path: Path) -> str:
    """The SHA-256 of the regular file ``path`` (:class:`OSError` for anything else: a
    record names its files, and a device or a pipe is none of them)."""
    if not stat.S_ISREG(os.stat(path).st_mode):  # before opening: a pipe would wait
        raise OSError(errno.EINVAL, "not a regular file")
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


@dataclass(frozen=True)
class Divergence:
    """The first recorded action a bot does not make again."""

    action: int
    """Its place among the record's actions, from 1."""
    seat: int
    """The seat that made it, from 0."""
    bot: str
    """The bot's spec, as the record names it."""
    recorded: str
    """The recorded action (notation)."""
    played: str
    """What the bot plays there now (notation)."""


@dataclass(frozen=True)
class Rerun:
    """What :func:`rerun` found."""

    compared: int
    """The bots' decisions asked again and compared, up to the first that differs."""
    actions: int
    """The record's actions."""
    divergence: Divergence | None
    """The first that differs, or None."""
    clocked: tuple[str, ...]
    """The search bots that had a time per decision (``seconds``): their moves depended on
    the machine, so a divergence of theirs is no fault of the record."""
    played_as: tuple[tuple[int, str, str], ...] = ()
    """The seats whose bot (``best``) now plays the game as another rule bot than the
    record says: (seat, as recorded, as now)."""

    @property
    def made(self) -> bool:
        """Whether the bots made every recorded action of theirs again."""
        return self.divergence is None


def seat_bots(record: dict[str, Any], game: str, players: int,
              timeout: float | None = None) -> list[Any]:  # fmt: skip
    """A bot for each seat the record's ``seats`` name (None for a human), reset with its
    recorded seed (within ``timeout`` seconds, as :func:`rerun`'s decisions);
    :class:`RecordError` saying what is missing or wrong, or how a bot's ``reset`` failed."""
    from dominari.sim.runner import reset_bots  # (the runner imports this module)

    seats = record.get("seats")
    if not isinstance(seats, list):
        raise RecordError("the record does not say what played its seats (no 'seats': "
                          "records of this version of play, simulate and tournament do)")
    if len(seats) != players:
        raise RecordError(f"the record's 'seats' name {len(seats)} "
                          f"seat{'s' if len(seats) != 1 else ''} for a game of {players} "
                          "players")  # fmt: skip
    bots: list[Any] = []
    for p, entry in enumerate(seats):
        if not isinstance(entry, dict) or entry.get("seat") != p:
            raise RecordError(f"the record's seat {p + 1} is not an entry for that seat: "
                              f"{entry!r}")  # fmt: skip
        if entry.get("kind") == "human":
            bots.append(None)
            continue
        spec, seed = entry.get("bot"), entry.get("seed")
        if not isinstance(spec, str) or type(seed) is not int or seed < 0:
            raise RecordError(f"the record's seat {p + 1} names no bot and seed it was reset "
                              "with (a server seeds each of its bots' decisions: its games "
                              "are not played again by their bots)")  # fmt: skip
        _check_files(entry, p)
        search, file = entry.get("search"), entry.get("file")
        if "search" in entry:
            if not isinstance(search, dict):
                raise RecordError(f"the record's seat {p + 1} ({spec}): 'search' is not the "
                                  f"settings of a search (a mapping), but {search!r}")
            unknown = sorted(set(search) - SETTINGS.keys())
            if unknown:
                raise RecordError(f"the record's seat {p + 1} ({spec}): unknown search "
                                  f"setting(s) {', '.join(map(repr, unknown))}; a search's are "
                                  f"{', '.join(sorted(SETTINGS))}")  # fmt: skip
            for key in ("policy", "evaluate"):
                if search.get(key) is not None:
                    raise RecordError(f"the record's seat {p + 1} ({spec}) searched with "
                                      f"its own {key}, {search[key]}, which a record "
                                      "cannot hold: name the search by a bot file "
                                      "(FILE.py:NAME), whose records play it again")
        try:
            if isinstance(search, dict):
                bot: Any = MCTSBot(game, name=spec, **search)
            else:
                named = spec if not isinstance(file, str) else file
                python = python_spec(spec)
                if python is not None and isinstance(file, str):  # FILE.py:NAME, by full path
                    named = f"{file}:{python[1]}"
                bot = load_bot(named, game)
            reset_bots([bot], [seed], None, timeout, seats=[p])  # a bot's failure named
        except (DominariError, TypeError, ValueError, OverflowError) as exc:
            raise RecordError(f"the record's seat {p + 1} ({spec}) cannot be played again: "
                              f"{exc}") from None
        bots.append(bot)
    if all(b is None for b in bots):
        raise RecordError("every seat of the record is a human's: there is no bot to play "
                          "the game again")
    return bots


def _check_files(entry: dict[str, Any], p: int) -> None:
    """:class:`RecordError` unless every file the seat's bot played with is as it was."""
    files = entry.get("files")
    if not isinstance(files, dict):
        return
    for path, digest in files.items():
        try:
            now = _sha256(Path(path))
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
            raise RecordError(f"the record's seat {p + 1} ({entry.get('bot')}) played with "
                              f"{path}, which cannot be read "
                              f"({getattr(exc, 'strerror', None) or exc})") from None
        if now != digest:
            raise RecordError(f"the record's seat {p + 1} ({entry.get('bot')}) played with "
                              f"{path}, which has changed since (its SHA-256 differs): its "
                              "bot would play otherwise")  # fmt: skip


def rerun(record: dict[str, Any], state: Any, timeout: float | None = None) -> Rerun:
    """Walk ``record``'s actions from ``state``, its game at the start
    (``from_record(record, upto=0)``), asking the bots its seats name at their
    decisions (see the module's docstring). Raises :class:`RecordError` for a record that
    names no bots (or only humans), a bot that cannot be made again (a file changed since
    included), or an action that does not apply; a
    :class:`~dominari.sim.runner.BotError` for a bot that fails at a decision (raises an
    error, changes the state it is given, or takes longer than ``timeout`` seconds: see
    :func:`~dominari.sim.runner.ask_bot`)."""
    from dominari.sim.runner import BotError, ask_bot  # (the runner imports this module)

    bots = seat_bots(record, state.game_name, state.num_players, timeout)
    specs = [x.get("bot") for x in record["seats"]]
    clocked = tuple(dict.fromkeys(b.name for b in bots
                                  if isinstance(b, MCTSBot) and b.seconds is not None))
    players: Sequence[Any] = [None if b is None else playing(b, state) for b in bots]
    played_as = tuple((p, entry["played_as"], players[p].name)
                      for p, entry in enumerate(record["seats"])
                      if players[p] is not None and isinstance(entry.get("played_as"), str)
                      and entry["played_as"] != players[p].name)  # fmt: skip
    compared = [0]

    def ask(i: int, recorded: Any) -> None:  # the bot of the seat to act, if any
        p = state.current_player()
        bot = players[p] if 0 <= p < len(players) else None
        if bot is None:
            return
        try:
            played = ask_bot(bot, state, f"bot {specs[p]!r} (seat {p + 1})", timeout)
        except BotError as exc:  # where in the record (counted as replay --upto counts)
            raise exc.again(f"{exc}, at the record's action {i + 1:,}") from exc
        compared[0] += 1
        if played != recorded and _text(state, played) != record["actions"][i]:
            raise _Diverged(Divergence(i + 1, p, str(specs[p]), state.format_action(recorded),
                                       _text(state, played)))  # fmt: skip

    try:
        replay(state, record, None, state.parse_action, ask)
    except _Diverged as stop:
        return Rerun(compared[0], len(record["actions"]), stop.divergence, clocked, played_as)
    return Rerun(compared[0], len(record["actions"]), None, clocked, played_as)


class _Diverged(Exception):
    """A bot plays otherwise than the record: :func:`rerun` stops there."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence)
        self.divergence = divergence


def _text(state: Any, action: Any) -> str:
    try:
        return str(state.format_action(action))
    except (DominariError, ValueError, TypeError, IndexError):
        return repr(action)  # not an action of this game at all
