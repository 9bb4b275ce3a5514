"""Tournament journals: finished games written down a batch at a time, so that a long
tournament stopped for any reason (a killed process, a lost machine, the end of a
working day) goes on where it stopped instead of starting again.

A journal is a JSON Lines file. Its first line says what it is and which tournament
it belongs to (the *key*: game, entries, seats, seed, game options and a fingerprint
of the code that played the games); each further line holds a run of consecutive
finished games of one match-up::

    {"dominari_journal": 2, "key": {...}}
    {"matchup": 0, "start": 10, "games": [[[0, 1], [1, 2], [412, 380], "end", [1, 0]], ...]}

A game is its seating (entry positions by seat), its ranks and scores by seat, how it
ended, the seats in the order of their first turns and, for Dominations, each seat's
mastery cards at the end (skill ids; a sixth item, which games of journals written before
it was kept lack). Journals written before the turn
order was kept (format 1) lack it (a game of four items); a tournament deals such games
again from their seeds to learn it, and writes the journal again as format 2
(:meth:`Journal.write_known`).

Reusing a journal's games is exact because a tournament game depends on its seeds
only (see :mod:`dominari.sim.tournament`), so the games are the same games whether
played now or in the earlier run. The key guards that promise: a journal written for
other entries, another seed or seat count, other options, another version of the
code, or strategy files (or Python bots' files) that have since changed, is refused
with a message saying what differs; but a tournament plays the match-ups of players whose
files alone changed again, and reads the others back (:meth:`Journal.open`'s
``changed``). The number of games is not part of the key: a
journal of a 500-game run serves the first 500 games of a 1,000-game run.

A run killed while writing leaves an unfinished last line; it is dropped (and cut
from the file, by a reader only while no run holds the journal: a run's last line may be
one it is writing) when the journal is opened again. A run killed while creating the journal
may leave only the start of its first line: such a file holds no game, and is begun again
as an empty file is. Any other damage is refused, naming the line as an editor numbers it
(blank lines counted).

A journal is written through the file itself (its games appended, an empty file begun in
place), so it needs only the file to be writable; writing it again as a whole (as format 2,
or stamped with new code) makes a new file beside it, and needs its folder writable too.

A run that writes a journal holds it (``Journal.open(..., hold=True)``, an exclusive
``flock`` where the system has one, released by :meth:`Journal.close` or when the
process ends): a second run on the same file is refused instead of playing the same
games again beside it.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
>>> j = Journal.open(path, {"seed": 1})
>>> j.record(0, 0, [GameResult((0, 1), (1, 2), (30, 20), "provinces")])
>>> Journal.open(path, {"seed": 1}).known[(0, 0)].scores
(30, 20)
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from dominari.core.errors import ConfigError, DominariError
from dominari.sim.records import BUSY, lock_file

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: journals are not held
    fcntl = None  # type: ignore[assignment]

FORMAT = 2
"""The journal format's version, in its first line: 2 since games keep their turn order
(format 1, read too, has none; a tournament gives its games theirs and writes the journal
as format 2)."""
READS = (1, 2)
"""The formats this version reads."""

_CODE_SUFFIXES = (".py", ".json", ".toml")
_PLAYING = ("core", "dominion", "dominations", "bots", "sim")
"""The subpackages of dominari that play tournament games: only they are in the code
fingerprint, so editing the command line or the web app does not void journals."""


class GameResult(NamedTuple):
    """One finished tournament game, compactly: entry positions in seat order, and per
    seat the rank (1 for every winner) and the score; how the game ended; and the seats
    in the order of their first turns (the engines draw who begins from the game's seed:
    see :func:`dominari.sim.runner.turn_order`), empty where it is not known (a journal
    written before it was kept); and Dominations' mastery cards each seat held at the end
    (skill ids, sorted: :func:`~dominari.sim.runner.held_cards`), empty where not known
    (Dominion, or a journal written before they were kept)."""

    seating: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str
    order: tuple[int, ...] = ()
    held: tuple[tuple[str, ...], ...] = ()

    def same(self, other: GameResult) -> bool:
        """Whether ``other`` is the same result, a turn order or mastery cards unknown on
        either side matching any (a journal's game without them, played again).

        >>> g = GameResult((0, 1), (1, 2), (30, 20), "provinces", (1, 0))
        >>> g.same(g._replace(order=())), g.same(g._replace(order=(0, 1)))
        (True, False)
        """
        return self[:4] == other[:4] and (not self.order or not other.order
                                          or self.order == other.order) and (
            not self.held or not other.held or self.held == other.held)


class JournalError(ConfigError):
    """A journal that cannot serve this tournament: not a journal, damaged, or written
    for another tournament."""


_OTHER_GAME = {
    "dominion": ("dominations/", "bots/dominations_"),
    "dominations": ("dominion/", "bots/strategy.py", "bots/conditions.py",
                    "bots/strategies/", "bots/random_bot.py", "bots/book.py",
                    "bots/opening-book.toml", "bots/playout.py", "bots/learned.py",
                    "bots/kingdom.py"),
}
"""Per game, the source (paths under dominari) that only the *other* game plays with: left
out of that game's fingerprint, so work on one game does not void the other's journals."""


@functools.cache
def code_fingerprint(game: str | None = None) -> str:
    """A SHA-256 over the source of the parts of Dominari that play games (engines,
    bots, data, runners): it changes whenever a game could be played differently. With
    ``game``, the other game's engine and bots are left out.

    >>> code_fingerprint("dominations") != code_fingerprint("dominion") != code_fingerprint()
    True
    """
    return tree_fingerprint(PACKAGE, game)


PACKAGE = Path(__file__).resolve().parent.parent
"""The folder of Dominari's source (``dominari``)."""


def code_files() -> list[tuple[str, int, int]]:
    """The path, modification time and size of every file :func:`code_fingerprint` may
    read (a few stat calls, nothing read): while they are the same, so is the code.

    >>> code_files() == code_files()
    True
    """
    out = []
    for part in _PLAYING:
        for folder, subfolders, names in os.walk(PACKAGE / part):
            subfolders[:] = [d for d in subfolders if d != "__pycache__"]
            for name in names:
                if name.endswith(_CODE_SUFFIXES):
                    stat = os.stat(path := os.path.join(folder, name))
                    out.append((path, stat.st_mtime_ns, stat.st_size))
    return sorted(out)


def tree_fingerprint(root: Path, game: str | None = None) -> str:
    """:func:`code_fingerprint` of the package source at ``root``."""
    skip = _OTHER_GAME.get(game or "", ())
    return _hash_tree(root, lambda rel: (
        rel.suffix in _CODE_SUFFIXES and "__pycache__" not in rel.parts
        and rel.parts[0] in _PLAYING and not rel.as_posix().startswith(skip)))


def _hash_tree(root: Path, keep: Callable[[Path], bool], pattern: str | None = None) -> str:
    """A SHA-256 over the path (relative to ``root``) and the contents of every file under
    ``root`` (or, with ``pattern``, in ``root`` and matching it) whose relative path
    ``keep`` accepts, in path order."""
    h = hashlib.sha256()
    for f in sorted(root.rglob("*") if pattern is None else root.glob(pattern)):
        rel = f.relative_to(root)
        if keep(rel) and f.is_file():
            h.update(rel.as_posix().encode())
            h.update(b"\0")
            h.update(f.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def spec_files(specs: Iterable[str]) -> dict[str, str]:
    """The SHA-256 of every bot spec that is a file (a strategy file, followed by the
    learned buy policy it names, if any; a Python bot's file) or a search bot whose own seat is one
    (``mcts:own=FILE``) or that plays an opening book of its own (``mcts:book=FILE``,
    after the own seat's file), by spec."""
    out = {}
    for spec in specs:
        path = _spec_file(spec)
        book = _book_file(spec)
        if path is None and book is None:
            continue
        h = hashlib.sha256(Path(path).read_bytes() if path is not None else b"")
        policy = None if path is None else _named_policy(Path(path))
        for extra in (policy, book):
            if extra is not None:
                h.update(b"\0")
                h.update(extra.read_bytes())
        out[spec] = h.hexdigest()
    return out


def spec_paths(spec: str) -> list[Path]:
    """The files a bot spec plays with (those :func:`spec_files` digests): a strategy file
    (the spec, or a search's own seat), the buy policy it names, a search's opening book."""
    path = _spec_file(spec)
    policy = None if path is None else _named_policy(Path(path))
    return [Path(p) for p in (path, policy, _book_file(spec)) if p is not None]


def _book_file(spec: str) -> Path | None:
    """The opening book file a search bot spec names (``mcts:book=FILE``), if it is a
    readable file (a bad one is the bot loader's to report)."""
    from dominari.bots.mcts import search_spec

    try:
        search = search_spec(spec)
    except DominariError:
        return None
    path = search[1].get("book", "") if search is not None else ""
    return Path(path) if path.lower().endswith(".toml") and os.path.isfile(path) else None


def folder_files(folder: str | os.PathLike[str]) -> str:
    """A SHA-256 over the names and contents of the component files in ``folder`` (a data
    folder of corrected components: its ``*.json`` files, which the loader reads or
    refuses): it changes whenever one of them is edited, and not for other files kept
    there (notes, records, a journal)."""
    return _hash_tree(Path(folder), lambda _: True, "*.json")


def _named_policy(spec: Path) -> Path | None:
    """The buy policy file that the strategy file ``spec`` names, if it names a readable
    one (a bad file is the bot loader's to report)."""
    try:
        value = tomllib.loads(spec.read_text(encoding="utf-8-sig")).get("policy")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if not isinstance(value, str):
        return None
    from dominari.bots.strategy import policy_path

    path = policy_path(value, spec.parent)
    return path if path.is_file() else None


class Journal:
    """An open journal: the games it already holds (:attr:`known`, by match-up and game
    index) and a way to append more (:meth:`record`)."""

    def __init__(self, path: Path,
                 known: MutableMapping[tuple[int, int], GameResult]) -> None:  # fmt: skip
        self.path = path
        self.known = known
        self.created = False
        """Whether :meth:`open` began the journal (it held no games before): made the file,
        or wrote the first line into a file that held no game (empty, or its first line cut
        off)."""
        self._in_place = False  # begun in a file that was there: emptied, not removed
        self.format = FORMAT
        """The format the file is written in (:data:`READS`)."""
        self._held: int | None = None  # the descriptor whose lock holds the file
        self._unwritable: JournalError | None = None  # why a held file cannot be written
        self.dropped: dict[int, int] = {}
        """The games let go as it was opened, by match-up: those of players whose files
        changed (:meth:`open`'s ``changed``)."""
        self._unsettled: tuple[Any, frozenset[int]] | None = None  # for settle()
        self.stamped = False
        """Whether :meth:`open` stamped the journal with this code (its games, written by
        other code or files, rechecked)."""

    def _swap(self, data: bytes | Iterable[bytes], keep: tuple[int, int] | None = None,
              doing: str = "rewritten") -> None:  # fmt: skip
        """Replace the file at once (:func:`_replace`, ``doing`` saying what for its
        message); a held journal stays held, the new file locked before it takes the old
        one's place, so no other run comes between."""
        fd = _replace(self.path, data, keep, hold=self._held is not None, doing=doing)
        if fd is not None:
            self.close()
            self._held = fd

    def _hold(self) -> None:
        """Hold the file for this run (a lock on it); :class:`JournalError` if another
        run holds it now. A file that cannot be written is noted: a run that has games to
        play asks :meth:`check_writable` before the first, and one that has none (the
        journal holds them all) only reads it."""
        self.close()
        lock = lock_file(self.path, create=False)  # read-write: a lock NFS grants too
        if lock is BUSY:
            raise JournalError(f"journal {self.path}: another run is writing it now; wait "
                               "for that run to end, or give another file")
        if isinstance(lock, int):
            self._held = lock
            return
        # None: a system or file system without locks (written unheld), or a file that
        # cannot be opened to be written (read-only), which would fail the run later.
        try:
            os.close(os.open(self.path, os.O_WRONLY | _BINARY))
        except OSError as e:
            self._unwritable = _cannot_write(self.path, e)

    def check_writable(self) -> None:
        """:class:`JournalError` if the file cannot be written (read-only), said before a
        run plays the games it would keep there."""
        if self._unwritable is not None:
            raise self._unwritable

    def _begin(self, head: bytes) -> None:
        """Write the first line ``head`` into the file, which holds no game (empty, or its
        first line cut off), through the file itself (a held journal's own descriptor):
        nothing is made or removed in its folder, which may be one this run cannot write
        in. A failure leaves the file empty, which holds no game either."""
        try:
            self._empty(head)
        except OSError as e:
            raise _cannot_write(self.path, e) from e
        self.created = self._in_place = True

    def _empty(self, head: bytes = b"") -> None:
        """Cut the file to nothing, then write ``head`` (if any) into it, through the file
        itself (a held journal's own descriptor); ``OSError`` if that fails."""
        fd = (os.dup(self._held) if self._held is not None
              else os.open(self.path, os.O_WRONLY | _BINARY))  # fmt: skip
        try:
            os.ftruncate(fd, 0)
            if head:
                os.lseek(fd, 0, os.SEEK_SET)
                _write_whole(fd, head, 0)
        finally:
            os.close(fd)

    def close(self) -> None:
        """Let go of the file (another run may then write it); nothing to do when it was
        not held."""
        if self._held is not None:
            with contextlib.suppress(OSError):
                os.close(self._held)
            self._held = None

    def discard_if_unused(self) -> bool:
        """Remove the file if :meth:`open` made it and no game was written to it (a run
        that fails before its first game leaves nothing behind), or empty it again if it
        was there holding no game (as :meth:`open` found it, give or take the start of a
        first line cut off, which held nothing); whether it did."""
        if not self.created or len(self.known):
            return False
        if not self._in_place:
            self.path.unlink(missing_ok=True)
        else:
            with contextlib.suppress(OSError):  # (it was writable a moment ago)
                self._empty()
        return True

    @classmethod
    def open(cls, path: str | os.PathLike[str], key: Mapping[str, Any],
             recheck: Callable[[Mapping[tuple[int, int], GameResult]], None] | None = None,
             check: Callable[[int, int, GameResult], str | None] | None = None,
             into: MutableMapping[tuple[int, int], GameResult] | None = None,
             hold: bool = False,
             changed: Callable[[Sequence[str]], Iterable[int]] | None = None,
             ) -> Journal:  # fmt: skip
        """Open the journal at ``path`` for the tournament ``key`` (JSON values),
        creating it if it does not exist; :class:`JournalError` if it cannot serve.

        ``hold``: the run will write it, so hold the file until :meth:`close` (a
        :class:`JournalError` if another run holds it), before anything is read.

        ``check(matchup, index, game)`` says what is wrong with a game that cannot be
        this tournament's (another seating, a match-up it does not have), or None: a
        journal holding one is damaged, and refused naming its line.

        A journal written by other code or files (its key differs only in
        :data:`REPLAYED` fields) serves when ``recheck`` is given and accepts its games:
        ``recheck(known)`` replays some of them with this code and raises
        :class:`JournalError` if any comes out otherwise; if it returns, the journal is
        stamped with ``key`` (its first line rewritten, the games kept: :attr:`stamped`)
        and served. A journal of this very key is rechecked too where ``recheck`` is given
        (a check of the file: a game edited or damaged by hand comes out otherwise).

        A journal whose key differs only in what some players' files hold (the same
        players, their files at the same paths, one edited since) serves when ``changed``
        is given (``recheck`` or not): ``changed(specs)`` names the match-ups those
        players' specs (as the key has them) play, whose games are let go (to be played
        again) and the others kept (:attr:`dropped` counts those let go, by match-up). The
        file is written again with ``key`` and the games kept by :meth:`settle`, which the
        caller calls once nothing else can refuse the run (a records folder), or else
        the first game recorded does: a run refused before leaves the file as it was.

        ``into`` is where the games read and recorded are kept (:attr:`known`; a new dict
        by default): a tournament gives its compact table, which keeps only the games it
        plays. The file is read a line at a time, so that it is never all in memory."""
        p = Path(path)
        # As it reads back (tuples become lists), its paths as the files they name: the
        # same tournament run again from another folder, or with ./x for x, matches.
        key = comparable_key(json.loads(json.dumps(key)))
        if p.is_dir():
            raise JournalError(f"journal {p}: is a folder, not a file")
        if p.exists() and not p.is_file():
            raise JournalError(f"journal {p}: is not a regular file (a pipe, a device or a "
                               f"socket); give a file's path")
        if p.is_symlink() and not p.exists():
            raise JournalError(f"journal {p}: is a link to {os.readlink(p)}, which does not "
                               f"exist; give the file's own path")
        head = (json.dumps({"dominari_journal": FORMAT, "key": key}) + "\n").encode()
        if not p.exists():
            if not p.parent.is_dir():  # a typo in the path, not a folder to make
                what = "is a file, not a folder" if p.parent.exists() else "does not exist"
                raise JournalError(f"journal {p}: cannot be created (folder {p.parent} "
                                   f"{what})")  # fmt: skip
            try:
                with p.open("xb") as f:
                    f.write(head)
            except OSError as e:
                parent = p.parent
                while not parent.exists() and parent != parent.parent:
                    parent = parent.parent
                why = (f"{parent} is a file, not a folder" if parent.is_file()
                       else e.strerror)  # fmt: skip
                raise JournalError(f"journal {p}: cannot be created ({why})") from e
            book = cls(p, {} if into is None else into)
            book.created = True
            if hold:
                book._hold()
            return book
        known: MutableMapping[tuple[int, int], GameResult] = {} if into is None else into
        book = cls(p, known)
        if hold:  # before anything is read: another run may be writing it
            book._hold()
        try:
            if _holds_no_game(p):  # made empty (touch), or cut off while made: begun again
                book._begin(head)
            else:
                book._read(key, recheck, check, changed)
        except BaseException:
            book.close()
            raise
        return book

    def _read(self, key: Any,
              recheck: Callable[[Mapping[tuple[int, int], GameResult]], None] | None,
              check: Callable[[int, int, GameResult], str | None] | None,
              changed: Callable[[Sequence[str]], Iterable[int]] | None = None) -> None:
        """:meth:`open`'s reading of an existing journal into :attr:`known`."""
        p, known = self.path, self.known
        try:
            src = p.open("rb")
        except OSError as e:
            raise JournalError(f"journal {p}: cannot be read ({e.strerror})") from e
        with src:
            lines = _lines(src)
            first = next(lines, None)
            if first is None and not src.read().strip():
                raise JournalError(f"journal {p}: holds only blank lines, not a journal; "
                                   "delete it or give another file")  # fmt: skip
            try:
                head = json.loads(first[1]) if first is not None else None
            except ValueError:
                head = None
            if not isinstance(head, dict) or "dominari_journal" not in head:
                raise JournalError(f"{p} is not a Dominari tournament journal; give another "
                                   "file (a file that is not a journal is never written "
                                   "over)")
            if head["dominari_journal"] not in READS:
                raise JournalError(f"journal {p}: format {head['dominari_journal']!r}, this "
                                   f"version reads formats "
                                   f"{' and '.join(map(str, READS))}")  # fmt: skip
            self.format = head["dominari_journal"]
            body = src.tell()  # where the games begin
            old = comparable_key(head.get("key"))  # ``key`` already is
            same = old == key
            # Games whose code or files alone changed may still be the same: a recheck tells.
            played_otherwise = isinstance(old, dict) and not same and (
                {k: v for k, v in old.items() if k not in REPLAYED}
                == {k: v for k, v in key.items() if k not in REPLAYED})
            edited = _edited(old, key) if played_otherwise and changed is not None else []
            drop = frozenset(changed(edited)) if changed is not None and edited else frozenset()
            if not same and not edited and not (played_otherwise and recheck is not None):
                hint = (", or replay some of them with this code to keep it if they come "
                        "out the same (--recheck N)") if played_otherwise else ""
                raise JournalError(f"journal {p} was written for another tournament "
                                   f"({_differences(old, key)}); its games cannot "
                                   f"be reused: give another file or delete it{hint}")  # fmt: skip
            for n, line in lines:
                for (m, j), game in _games(p, n, _load_line(p, n, line), check):
                    if m in drop:
                        self.dropped[m] = self.dropped.get(m, 0) + 1
                        continue
                    if (m, j) in known and known[(m, j)] != game:  # the same game twice: fine
                        raise JournalError(
                            f"journal {p} line {n}: game {j} of match-up {m} (counted from "
                            "0, as in the file) is not the game an earlier line holds (the file "
                            "is damaged or was edited); remove one of the two lines (its games "
                            "are played again), or delete the journal or give another file")
                    try:
                        known[(m, j)] = game
                    except ValueError as e:  # a table's own limits: a score past 2**63 …
                        raise JournalError(f"journal {p} line {n}: {e}; {_MEND}") from None
            end = src.tell()  # after the last whole line
            unfinished = _unfinished(src)
        if edited:  # written again by settle(), once the run is sure to go on
            self._unsettled = (key, drop)
            return
        if not same:
            assert recheck is not None
            recheck(known)  # raises if the games are not this code's
            # Its first line stamped with this code, its games kept (an unfinished line not).
            self._swap((json.dumps({"dominari_journal": FORMAT, "key": key}) + "\n").encode(),
                       (body, end), doing="stamped with this code")  # fmt: skip
            self.format = FORMAT  # games without a turn order are format 2's too
            self.stamped = True
            return
        if recheck is not None:  # this key's: a check of the file itself
            recheck(known)
        if unfinished:  # only now, when the file is known to be this tournament's journal
            # A reader that does not hold the file cuts the line only while no run holds it:
            # a run writing it now is writing that line, not leaving it unfinished.
            lock = None if self._held is not None else lock_file(p, create=False)
            if lock is BUSY:
                return
            try:
                with p.open("r+b") as cut:
                    cut.truncate(end)
            except OSError as e:  # (a run that writes it has been refused a read-only file)
                raise JournalError(f"journal {p}: cannot be written ({e.strerror}) to cut off "
                                   "its unfinished last line (a run stopped while writing "
                                   "it): make it writable, or give another file") from e
            finally:
                if isinstance(lock, int):
                    os.close(lock)

    def settle(self) -> None:
        """Write the journal again as :meth:`open` left it to be (stamped with this
        tournament's key, without the games of the players whose files changed); nothing
        where there is nothing to write."""
        if self._unsettled is None:
            return
        key, drop = self._unsettled
        head = {"dominari_journal": FORMAT, "key": key}
        with self.path.open("rb") as f:
            self._swap(self._lines_again(f, head, drop), doing="written again without the "
                       "games of the players whose files changed")  # fmt: skip
        self._unsettled = None
        self.format = FORMAT

    def _lines_again(self, f: BinaryIO, head: dict[str, Any] | None,
                     drop: frozenset[int] = frozenset()) -> Iterator[bytes]:  # fmt: skip
        """The journal ``f`` a line at a time, as written again in this format: its first
        line ``head`` (None: as it was, in this format), without the runs of the match-ups
        ``drop`` nor an unfinished last line, each game as held (:attr:`known`, where a
        game read from the file may have been given its turn order since), or as the file
        has it where it is not held (past a table's limit)."""
        rows = _lines(f)
        first = json.loads(next(rows)[1])
        yield (json.dumps(head or {**first, "dominari_journal": FORMAT}) + "\n").encode()
        for n, line in rows:
            entry = _load_line(self.path, n, line)
            m, start = entry["matchup"], entry["start"]
            if m in drop:
                continue
            games = [self.known.get(at, game) for at, game in _games(self.path, n, entry)]
            yield (_run_line(m, start, games) + "\n").encode()

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Journal:
        """The journal at ``path`` opened for the tournament it was written for (its own
        key): to read its games, or to :meth:`rewrite` some of them."""
        p = Path(path)
        try:
            with p.open(encoding="utf-8") as f:
                key = json.loads(f.readline())["key"]
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            raise JournalError(f"journal {p}: cannot be read as a journal ({e})") from None
        return cls.open(p, key)

    def rewrite(self, games: Mapping[tuple[int, int], GameResult]) -> None:
        """Put ``games`` (by match-up and game index, each one the journal holds) in place
        of the journal's, its key and its other games as they were; the file is replaced
        at once, so a stop halfway leaves the old one whole."""
        missing = sorted(set(games) - set(self.known))
        if missing:
            m, j = missing[0]
            raise JournalError(f"journal {self.path}: holds no game {j} of match-up {m} "
                               "to rewrite")
        before = {key: self.known[key] for key in games}
        self.known.update(games)
        try:
            self.write_known()
        except BaseException:
            self.known.update(before)  # the file is as it was: so are its games
            raise

    def write_known(self) -> None:
        """Write the journal again in this format (:data:`FORMAT`), its key as it was and
        each game as held (:attr:`known`, where a game read from the file may have been
        given its turn order since), or as the file has it where it is not held (past a
        table's limit); the file is replaced at once, so a stop halfway leaves the old one
        whole, and is written a line at a time (a journal of millions of games)."""
        self.settle()
        doing = (f"upgraded from format {self.format} to format {FORMAT}"
                 if self.format < FORMAT else "written again")  # fmt: skip
        with self.path.open("rb") as f:
            self._swap(self._lines_again(f, None), doing=doing)
        self.format = FORMAT

    def record(self, matchup: int, start: int, games: Sequence[GameResult]) -> None:
        """Append games ``start``… of match-up ``matchup`` and make sure they are on disk."""
        if self._unsettled is not None:
            self.settle()
        data = (_run_line(matchup, start, games) + "\n").encode()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | _BINARY)
            try:
                _write_whole(fd, data, os.fstat(fd).st_size)
            finally:
                os.close(fd)
        except OSError as e:
            raise JournalError(f"journal {self.path}: cannot be written ({e.strerror}); "
                               f"the games it holds are kept, and the run goes on from "
                               f"them when run again") from e
        for k, g in enumerate(games):
            self.known[(matchup, start + k)] = g


def _write_whole(fd: int, data: bytes, size: int) -> None:
    """Write all of ``data`` at ``fd``'s place and make it durable; on a failure, cut the
    file back to ``size`` bytes (no half line left behind) and raise it again."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, size)
        raise


def _run_line(matchup: int, start: int, games: Sequence[GameResult]) -> str:
    """The journal line of a run of games of one match-up from game ``start`` on."""
    return json.dumps({"matchup": matchup, "start": start,
                       "games": [[list(g.seating), list(g.ranks), list(g.scores), g.reason,
                                  *([list(g.order)] if g.order else []),
                                  *([[list(c) for c in g.held]] if g.held and g.order
                                    else [])]  # (the cards after the order, always known)
                                 for g in games]}, separators=(",", ":"))  # fmt: skip


def _lines(f: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """The whole lines of a journal open at its start that are not blank, each with its
    number in the file (from 1, blank lines counted, as an editor shows it), up to its
    last whole line: an unfinished last line (a run killed while writing it) is left
    unread, and ``f`` at its start.

    >>> import io
    >>> list(_lines(io.BytesIO(b'{"a": 1}\\n\\n  \\n{"b": 2}\\n{"c"')))
    [(1, b'{"a": 1}\\n'), (4, b'{"b": 2}\\n')]
    """
    n = 0
    while True:
        at = f.tell()
        line = f.readline()
        if not line.endswith(b"\n"):  # the end of the file, or an unfinished line
            f.seek(at)
            return
        n += 1
        if line.strip():
            yield n, line


_HEAD = b'{"dominari_journal": '
"""How a journal's first line begins, as every version writes it."""


def _holds_no_game(path: Path) -> bool:
    """Whether the file at ``path`` holds no game and nothing else: it is empty (made by
    ``touch``), or all it holds is the start of a journal's first line, unfinished (a run
    killed while creating the journal, before any game could be written; no line ends in
    it, so it is a last line and unfinished, the kind a journal drops). A file that cannot
    be read is not (:meth:`Journal.open` says why).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     f = Path(folder) / "j.jsonl"
    ...     [(f.write_bytes(text), _holds_no_game(f))[1] for text in (
    ...         b"", b'{"domi', b'{"dominari_journal": 2, "key": {"se',
    ...         b'{"dominari_journal": 2}', b'{"dominari_journal": 2}\\n', b"notes", b" ")]
    [True, True, True, True, False, False, False]
    """
    try:
        if path.stat().st_size == 0:
            return True
        with path.open("rb") as f:
            start = f.read(len(_HEAD))
            if not _HEAD.startswith(start):
                return False
            while block := f.read(1 << 16):
                if b"\n" in block:
                    return False
    except OSError:
        return False
    return True


def _cannot_write(path: Path, e: OSError) -> JournalError:
    """The error for a journal that cannot be opened (or begun) to be written: before any
    game, so nothing is lost."""
    fix = ("make it writable, or give another file" if e.errno in _DENIED
           else "give another file")  # fmt: skip
    return JournalError(f"journal {path}: cannot be written ({e.strerror}): {fix}")


_BINARY = getattr(os, "O_BINARY", 0)
"""Windows' flag for a file opened without newline translation (0 elsewhere)."""
_DENIED = (errno.EACCES, errno.EPERM, errno.EROFS)
"""The errors of a file or folder that may not be written (rather than one that failed)."""


def _unfinished(f: BinaryIO) -> bool:
    """Whether ``f`` (where :func:`_lines` stopped) holds an unfinished line there."""
    at = f.tell()
    more = f.read(1)
    f.seek(at)
    return bool(more)


def _replace(path: Path, data: bytes | Iterable[bytes], keep: tuple[int, int] | None = None,
             hold: bool = False, doing: str = "rewritten") -> int | None:  # fmt: skip
    """Write ``data`` (bytes, or pieces of them in order) to ``path`` at once, then bytes
    ``keep = (start, stop)`` of the file as it was (copied a block at a time: a journal's
    games, behind a new first line): a new file moved over the old one, so that a stop
    halfway leaves the old file whole (and no part file). With ``hold``, the new file is
    locked before it takes the old one's place, and the descriptor holding the lock is
    returned (None where the system has no ``flock``). A failure is a
    :class:`JournalError` saying that the journal cannot be ``doing`` and why (the new
    file needs a folder this run may write in)."""
    part = path.with_name(path.name + ".part")
    held: int | None = None
    in_folder = True  # making the new file, or moving it: what the folder must allow
    try:
        with part.open("wb") as f:
            in_folder = False
            if hold and fcntl is not None:  # a new file: nobody else holds it
                held = os.dup(f.fileno())
                fcntl.flock(held, fcntl.LOCK_EX)
            if isinstance(data, bytes):
                f.write(data)
            else:
                f.writelines(data)
            if keep is not None:
                with path.open("rb") as old:
                    old.seek(keep[0])
                    left = keep[1] - keep[0]
                    while left > 0 and (block := old.read(min(left, 1 << 20))):
                        f.write(block)
                        left -= len(block)
            f.flush()
            os.fsync(f.fileno())
        in_folder = True
        os.replace(part, path)
    except BaseException as e:  # a stop too: the old file whole, and no part file left
        with contextlib.suppress(OSError):  # (none made where the folder is read-only)
            part.unlink(missing_ok=True)
        if held is not None:
            os.close(held)
        if isinstance(e, OSError):
            raise JournalError(_replace_failed(path, doing, e, in_folder)) from e
        raise
    return held


def _replace_failed(path: Path, doing: str, e: OSError, in_folder: bool) -> str:
    """The message of :func:`_replace` failing with ``e`` (``in_folder``: while making or
    moving the new file, where a folder that may not be written fails it)."""
    text = f"journal {path}: cannot be {doing} ({e.strerror})"
    if not (in_folder and e.errno in _DENIED):
        return text + "; it is left as it was"
    folder = path.parent if str(path.parent) != "." else path.parent.resolve()
    return text + (f": that needs its folder {folder} writable, not only the file (a new "
                   "file is written there to take its place); it is left as it was: make the "
                   "folder writable, or copy the journal to a folder you can write in")


_MEND = ("remove that line (its games are played again), or delete the journal or give "
         "another file")
"""What to do with a journal's line that cannot be read: one line of games lost costs
only those games (the tournament organiser's audit: the advice was to delete it all)."""


def _load_line(path: Path, n: int, line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError as e:
        raise JournalError(f"journal {path} line {n}: damaged ({e}); {_MEND}") from e


def _games(path: Path, n: int, entry: Any,
           check: Callable[[int, int, GameResult], str | None] | None = None,
           ) -> list[tuple[tuple[int, int], GameResult]]:  # fmt: skip
    """The games of journal line ``n``, by (match-up, game index); ``check`` as for
    :meth:`Journal.open`."""

    def bad(why: str) -> JournalError:
        return JournalError(f"journal {path} line {n}: {why}; {_MEND}")

    if not isinstance(entry, dict) or not {"matchup", "start", "games"} <= entry.keys():
        raise bad("not a run of games (matchup, start, games)")
    m, start, games = entry["matchup"], entry["start"], entry["games"]
    if not (_is_index(m) and _is_index(start) and isinstance(games, list)):
        raise bad("matchup and start must be whole numbers of 0 or more, games a list")
    out = []
    for k, g in enumerate(games):
        ok = (isinstance(g, list) and len(g) in (4, 5, 6) and isinstance(g[3], str)
              and all(isinstance(x, list) and all(_is_int(v) for v in x)
                      for x in (*g[:3], *g[4:5]))
              and len(g[0]) == len(g[1]) == len(g[2]) >= 2
              and (len(g) == 4 or sorted(g[4]) == list(range(len(g[0]))))
              and (len(g) < 6 or (isinstance(g[5], list) and len(g[5]) == len(g[0])
                                  and all(isinstance(x, list)
                                          and all(isinstance(c, str) for c in x)
                                          for x in g[5]))))  # fmt: skip
        if not ok:
            raise bad(f"game {k} is not [seating, ranks, scores, reason] or [seating, ranks, "
                      "scores, reason, turn order] (the turn order: every seat once), or "
                      "that and each seat's mastery cards")  # fmt: skip
        game = GameResult(tuple(g[0]), tuple(g[1]), tuple(g[2]), g[3],
                          tuple(g[4]) if len(g) >= 5 else (),
                          tuple(tuple(x) for x in g[5]) if len(g) == 6 else ())
        why = None if check is None else check(m, start + k, game)
        if why is not None:
            raise bad(f"game {start + k} of match-up {m} (counted from 0, as in the file): "
                      f"{why}")
        out.append(((m, start + k), game))
    return out


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_index(v: Any) -> bool:
    return _is_int(v) and v >= 0


REPLAYED = frozenset({"code", "files", "data_files"})
"""The fields of a journal's key that say what plays the games (the code, the strategy
files, the data folder's files) rather than which games they are: when only they differ,
a recheck may show that the games come out the same."""


def _path_key(path: Any) -> Any:
    """A path as a key compares it: the file or folder it names, however spelled
    (``./x.toml``, ``x.toml``, ``/home/…/x.toml``); anything else as it is."""
    if isinstance(path, str) and path and os.path.exists(path):
        return os.path.realpath(path)
    return path


def _spec_file(spec: str) -> str | None:
    """The strategy file a bot spec plays with: the spec itself when it is a file's path,
    a search bot's own seat (``mcts:own=FILE``), a Python bot's file (``FILE.py:NAME``);
    None for a built-in bot's name (never read as a path, even beside a file of that name)
    or a bad spec (the bot loader's to report)."""
    from dominari.bots import GAME_BOTS
    from dominari.bots.mcts import search_spec
    from dominari.bots.python_bot import python_file, python_spec

    if python_spec(spec) is not None:  # a Python bot: its file
        return python_file(spec)
    try:
        search = search_spec(spec)
    except DominariError:
        return None
    path = search[1].get("own", "") if search is not None else spec
    if any(path.strip().lower() in names for names in GAME_BOTS.values()):
        return None
    return path if os.path.isfile(path) else None


def _spec_key(spec: Any) -> Any:
    """A bot spec as a key compares it: a strategy file's path as the file it names, a
    built-in bot's name in lower case (``BM`` plays as ``bm``), a search level's options
    in order, their names and values in lower case (a file's path as the file it names),
    any other spec as it is.

    >>> [_spec_key(s) for s in (" BM", "MCTS:Width=8:steps=100", "mcts:paired=YES:own=BMU")]
    ['bm', 'mcts:steps=100:width=8', 'mcts:own=bmu:paired=yes']
    """
    if not isinstance(spec, str):
        return spec
    if _spec_file(spec) == spec:
        return _path_key(spec)
    from dominari.bots.python_bot import python_spec

    python = python_spec(spec)
    if python is not None:  # a Python bot: its file as the file it names, and the name
        return f"{_path_key(python[0])}:{python[1]}"
    from dominari.bots import GAME_BOTS
    from dominari.bots.mcts import search_spec, spec_name

    try:
        search = search_spec(spec)
    except DominariError:
        return spec
    if search is not None:
        level, options = search
        return spec_name(level, {k: _option_key(k, v) for k, v in sorted(options.items())})
    name = spec.strip().lower()
    return name if any(name in names for names in GAME_BOTS.values()) else spec


def _option_key(option: str, value: str) -> str:
    """A search option's value as a key compares it (see :func:`_spec_key`): the values
    that may be paths (``own``, ``book``) as the files they name, or else in lower case as
    the bot reads them."""
    if option in ("own", "book") and os.path.isfile(value):
        return str(_path_key(value))
    return value.lower()


def _kingdom_key(kingdom: Any) -> Any:
    """A Dominion ``kingdom`` option as a key compares it: a set's name or ``random`` in
    lower case, card names as their cards in the game's order (``village, Smithy`` is
    ``Smithy,Village``); anything that is no kingdom as it is (the game's to refuse).

    >>> [_kingdom_key(k) for k in ("First-Game", "smithy, Village", ["village", "smithy"])]
    ['first-game', 'Smithy,Village', 'Smithy,Village']
    """
    from dominari.core.errors import ParseError
    from dominari.dominion.cards import NAME, card_id
    from dominari.dominion.kingdoms import RECOMMENDED

    if isinstance(kingdom, str):
        text = kingdom.strip().lower()
        if text in RECOMMENDED or text == "random":
            return text
        names: Any = kingdom.split(",")
    else:
        names = kingdom
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return kingdom
    try:
        cards = sorted({card_id(n.strip()) for n in names})
    except ParseError:
        return kingdom
    return ",".join(NAME[c] for c in cards) if len(cards) == len(names) else kingdom


def comparable_key(key: Any) -> Any:
    """A journal key with its paths (file specs, their hashes' keys, the data folder) as
    :func:`_path_key` gives them, so that the same tournament matches however typed."""
    if not isinstance(key, dict):
        return key
    out = dict(key)
    if isinstance(out.get("players"), list):
        out["players"] = [_spec_key(s) for s in out["players"]]
    if isinstance(out.get("files"), dict):
        out["files"] = {_spec_key(k): v for k, v in out["files"].items()}
    options = out.get("options")
    if isinstance(options, dict) and "data" in options:
        out["options"] = {**options, "data": _path_key(options["data"])}
    if isinstance(options, dict) and "kingdom" in options:
        out["options"] = {**out["options"], "kingdom": _kingdom_key(options["kingdom"])}
    return out


def _differences(old: Any, new: Mapping[str, Any]) -> str:
    """Which fields of the key differ, in words (both keys as :func:`comparable_key` gives
    them)."""
    if not isinstance(old, dict):
        return "it has no key"
    if old.get("game") != new.get("game"):  # then the code and all else differ as well
        return f"a {old.get('game')} tournament's journal, for a {new.get('game')} tournament"
    names = {"code": "the code has changed since", "files": _files_differ(old.get("files"),
                                                                         new.get("files")),
             "data_files": "the data folder's files have changed"}
    diff = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return "; ".join(names.get(k) or _field_differs(k, old.get(k), new.get(k))
                     for k in diff)  # fmt: skip


def _field_differs(name: str, old: Any, new: Any) -> str:
    """How one field of two keys differs, in words: of a field that is an object (the
    options), only the entries that differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        return "; ".join(f"{name}.{k} {old.get(k)!r} there, {new.get(k)!r} here"
                         for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k))
    return f"{name} {old!r} there, {new!r} here"


def _edited(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The specs (as keys have them) whose files changed where two keys differ only in
    that (the same code, data files and players' file paths); else ``[]``.

    >>> _edited({"code": "c", "files": {"a.toml": "1", "b.toml": "2"}},
    ...         {"code": "c", "files": {"a.toml": "1", "b.toml": "3"}})
    ['b.toml']
    """
    if any(old.get(k) != new.get(k) for k in REPLAYED - {"files"}):
        return []
    before, now = old.get("files"), new.get("files")
    if not isinstance(before, dict) or not isinstance(now, dict) or set(before) != set(now):
        return []
    return sorted(k for k in now if before[k] != now[k])


def _files_differ(old: Any, new: Any) -> str:
    """How the files the players play with (strategy files, Python bots' files: digest by
    spec) of two keys differ, in words."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return "the players' files have changed"
    if set(old) == set(new):
        changed = ", ".join(k for k in sorted(new) if old[k] != new[k])
        return (f"the players' files have changed since: {changed}; any edit counts, a "
                f"comment too")
    if sorted(old.values()) == sorted(new.values()):
        return ("the same players' files, at other paths (a journal goes with the paths "
                "it was played with)")
    return "other players' files"
