"""Reading and writing game record files (JSON), atomically.

A record is written to a temporary file in the target's folder and renamed
over the target, so a reader never sees a half-written file and an error
leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import re
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dominari.core.errors import ConfigError, RecordError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: folders are not held
    fcntl = None  # type: ignore[assignment]


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write ``data`` as JSON to ``path`` through a temporary file and a rename."""
    write_text_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def write_record_atomic(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Write a game record to ``path`` through a temporary file and a rename, laid out by
    :func:`record_text`."""
    write_text_atomic(path, record_text(record))


_ONE_LINE = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
_A_LINE_EACH = json.JSONEncoder(ensure_ascii=False, separators=(",\n  ", ": ")).encode


def record_text(record: dict[str, Any]) -> str:
    """A game record (any JSON object) as JSON text: each of its keys on a line, and each
    item of a list (its actions, its seats …) on a line of its own, each value on one
    line. As easy to read as indented JSON, and written twice as fast (a record of a
    simulation's thousands): JSON's C encoder writes each line.

    >>> print(record_text({"game": "dominion", "config": {"players": 2},
    ...                    "actions": ["buy Silver", "end"], "seats": []}), end="")
    {
     "game": "dominion",
     "config": {"players": 2},
     "actions": [
      "buy Silver",
      "end"
     ],
     "seats": []
    }
    """
    parts = []
    for key, value in record.items():
        if isinstance(value, list) and value:
            body = (_A_LINE_EACH(value)[1:-1] if all(type(v) is str for v in value)
                    else ",\n  ".join(map(_ONE_LINE, value)))  # (a string holds no
            parts.append(f" {_ONE_LINE(key)}: [\n  {body}\n ]")  # newline: it is escaped)
        else:
            parts.append(f" {_ONE_LINE(key)}: {_ONE_LINE(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


@functools.cache
def _umask() -> int:
    """The process's umask (read once: reading it means setting it for an instant)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _new_file_mode(target: Path) -> int:
    """The permissions a file written at ``target`` gets: those of the file it replaces,
    else what the umask gives a new file (``mkstemp`` alone would make it owner-only)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def temporary_files(pattern: str) -> str:
    """The glob pattern of the temporary files :func:`write_text_atomic` leaves while it
    writes files of ``pattern`` (a process killed meanwhile leaves one behind).

    >>> temporary_files("game-*.json")
    '.game-*.json.*.tmp'
    """
    return f".{pattern}.*.tmp"


def _set_mode(fd: int, mode: int) -> None:
    """Give the open file ``fd`` the permissions ``mode`` (where the system has them: not
    Windows before Python 3.13, where its files have no such bits)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename; the file
    keeps the permissions of the one it replaces, or gets a new file's. A symbolic link
    is written through: the file it points to is replaced, the link kept."""
    target = _through_link(Path(path))
    fd, tmp = tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.",
                               suffix=".tmp")  # fmt: skip
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            _set_mode(f.fileno(), _new_file_mode(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class LinesFile:
    """A file of JSON values, one a line (JSON Lines), written as they come through a
    temporary file beside it, and put in its place whole (:meth:`keep`) or not at all
    (:meth:`discard`): a run that fails or is stopped leaves the file as it was. ``flag``
    names it first in messages (the command line's). A symbolic link is written through.
    """

    def __init__(self, path: str | os.PathLike[str], flag: str = "") -> None:
        self.given = str(path)
        self.target = _through_link(Path(path))
        self.lead = f"{flag} " if flag else ""
        try:
            fd, self.tmp = tempfile.mkstemp(dir=self.target.parent or Path("."),
                                            prefix=f".{self.target.name}.", suffix=".tmp")
        except OSError as exc:
            raise self._failed(exc) from None
        self.file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def write(self, value: Any) -> None:
        """Add ``value`` as a line; :class:`ConfigError` if it cannot be written (a full
        disk …)."""
        try:
            self.file.write(json.dumps(value, separators=(",", ":"), allow_nan=False) + "\n")
        except OSError as exc:
            raise self._failed(exc) from None

    def keep(self) -> None:
        """Put the file in its place, with the permissions of the one it replaces or a new
        file's."""
        try:
            self.file.flush()
            _set_mode(self.file.fileno(), _new_file_mode(self.target))
            self.file.close()
            os.replace(self.tmp, self.target)
        except OSError as exc:
            self.discard()
            raise self._failed(exc) from None

    def discard(self) -> None:
        """Remove what was written: the file is left as it was."""
        with contextlib.suppress(OSError):
            self.file.close()
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)

    def _failed(self, exc: OSError) -> ConfigError:
        return ConfigError(f"{self.lead}{self.given!r} cannot be written ({exc.strerror}); "
                           "it was left as it was")


def _through_link(path: Path) -> Path:
    """The file a symbolic link ``path`` points to (the path itself for any other, and for
    a link in a loop, which is then replaced as it is)."""
    if not path.is_symlink():
        return path
    try:
        return path.resolve(strict=False)
    except (RuntimeError, OSError):  # a loop of links (RuntimeError before Python 3.13)
        return path


_KINDS = {"record": (rb'\{\s*"format"\s*:\s*"dominari-record"', "a game record"),
          "games": (rb'\{\s*"(index|matchup)"\s*:', "a file of games, one a line"),
          "svg": (rb"(<\?xml[^>]*>\s*)?(<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]",
                  "an SVG drawing")}
"""The kinds of file :func:`check_writable_file` replaces only one of: how such a file
begins (after a byte-order mark and white space), and its name in words."""


def check_writable_file(path: str | os.PathLike[str], flag: str | None = None, *,
                        reads: Sequence[tuple[str | os.PathLike[str], str]] = (),
                        kind: str | None = None) -> Path:
    """Check before any work that a file could be written at ``path`` (given with the
    command-line ``flag``, which the messages then name first).

    Raises :class:`ConfigError` if it names a folder, its folder is missing or is a
    file, or no file can be created in its folder (a file is made there and removed);
    and, for a file already there, if it is no regular file (a pipe, a device), one the
    run reads (``reads``: paths and what each is, a strategy file, a journal …), a
    read-only one, or, with a ``kind`` (``record``, ``svg``), a file of another kind (an
    empty file is of none), so that nothing a user keeps is replaced by a slip.
    """
    given = Path(path)
    target = _through_link(given)  # the file it points to is written
    lead = f"{flag} " if flag else ""
    if target.is_dir():
        raise ConfigError(f"{lead}{str(target)!r} is a folder, not a file name")
    lead = f"{flag}: " if flag else ""
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise ConfigError(f"{lead}cannot write {str(target)!r}: {str(parent)!r} is a file, "
                          "not a folder")  # fmt: skip
    if not parent.is_dir():
        raise ConfigError(f"{lead}cannot write {str(target)!r}: folder {str(parent)!r} does "
                          "not exist")  # fmt: skip
    try:
        _probe(parent, f".{target.name}.")
    except OSError as exc:
        raise ConfigError(f"{lead}cannot write {str(target)!r}: no file can be made in folder "
                          f"{str(parent)!r} ({exc.strerror})") from None
    if target.exists():
        _check_replaceable(target, str(path), lead, reads, kind)
    return given


def _check_replaceable(target: Path, given: str, lead: str,
                       reads: Sequence[tuple[str | os.PathLike[str], str]],
                       kind: str | None) -> None:
    """:class:`ConfigError` unless the file ``target`` (named ``given``) may be replaced:
    see :func:`check_writable_file`."""
    if not target.is_file():  # reading it to see what it is might wait forever
        raise ConfigError(f"{lead}{given!r} is a pipe, socket or device, not a file: give "
                          "a file's name")  # fmt: skip
    for read, what in reads:
        with contextlib.suppress(OSError):
            if os.path.samefile(target, read):
                raise ConfigError(f"{lead}{given!r} is {what}, which this run reads: write "
                                  "to another file")  # fmt: skip
    if not os.access(target, os.W_OK):
        raise ConfigError(f"{lead}cannot write {given!r}: the file is read-only (make it "
                          "writable, or give another file)")  # fmt: skip
    if kind is not None and not _is_kind(target, kind):
        raise ConfigError(f"{lead}{given!r} is already there and is not {_KINDS[kind][1]}: "
                          "give another file name, or remove it")  # fmt: skip


def _is_kind(path: Path, kind: str) -> bool:
    """Whether the regular file ``path`` is empty or begins as a file of ``kind``
    (:data:`_KINDS`) does."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    return not text or re.match(_KINDS[kind][0], text, re.DOTALL) is not None


def _probe(folder: Path, prefix: str) -> None:
    """Make a file in ``folder`` and remove it: :class:`OSError` if none can be made."""
    fd, probe = tempfile.mkstemp(prefix=prefix, suffix=".probe", dir=folder)
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def missing_folders(path: str | os.PathLike[str]) -> list[Path]:
    """The folders that creating the folder ``path`` makes: it and every missing parent,
    the deepest first (for :func:`remove_folders` to take back).

    >>> missing_folders("/")
    []
    """
    out = []
    target = Path(path).absolute()
    while not target.exists() and target != target.parent:
        out.append(target)
        target = target.parent
    return out


def remove_files(folder: str | os.PathLike[str], *patterns: str) -> None:
    """Remove the files of ``folder`` that match ``patterns`` (those already gone too)."""
    for pattern in patterns:
        for f in Path(folder).glob(pattern):
            with contextlib.suppress(OSError):
                f.unlink()


def remove_folders(folders: Sequence[Path]) -> None:
    """Remove ``folders`` (deepest first, as :func:`missing_folders` lists them) where they
    are empty and no run holds them (:class:`HeldFolder`: a run started meanwhile may have
    made the same folder): what a failed run made, not left behind. A lock file a run left
    (:data:`LOCK_FILE`, a run killed before it let go) does not keep a folder."""
    for folder in folders:
        lock = lock_file(folder / LOCK_FILE, create=False)
        if lock is BUSY:
            continue  # another run holds it
        try:  # held by none (or no locks here): its lock file goes, taken if it can be
            with contextlib.suppress(OSError):
                os.unlink(folder / LOCK_FILE)
            with contextlib.suppress(OSError):
                folder.rmdir()
        finally:
            if isinstance(lock, int):
                os.close(lock)


LOCK_FILE = ".dominari-records.lock"
"""The file in a records folder that a run holding it locks (:class:`HeldFolder`), removed
when the run lets go."""
BUSY = object()
"""What :func:`lock_file` gives for a lock another run holds."""


def lock_file(path: Path, create: bool, shared: bool = False) -> int | object | None:
    """Lock the file ``path`` (``flock``, exclusive, without waiting; made if ``create``):
    its open descriptor, :data:`BUSY` if another run holds it, or None where there is no
    lock to take (no such file and not ``create``, or a system or file system without
    locks). Raises :class:`FileNotFoundError` if ``create`` and its folder is gone, and
    other :class:`OSError` if the file cannot be made. ``shared``: a shared lock on the
    file opened read-only (it may be another user's; without waiting, should it be a
    pipe), to see whether a run holds it."""
    if fcntl is None:  # pragma: no cover - Windows: folders are not held
        return None
    mode = os.O_RDONLY | os.O_NONBLOCK if shared else os.O_RDWR
    try:
        fd = os.open(path, mode | (os.O_CREAT if create else 0), 0o666)
    except OSError:
        if create:
            raise
        return None
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            return BUSY
        return None  # no locks here: the folder is written unheld
    return fd


SIMULATION_RECORDS = "game-[0-9][0-9][0-9][0-9][0-9][0-9]*.json"
"""The names of a simulation's record files (``game-000001.json`` …)."""
TOURNAMENT_RECORDS = "matchup-[0-9][0-9][0-9]*-game-[0-9][0-9][0-9][0-9][0-9][0-9]*.json"
"""The names of a tournament's record files (``matchup-001-game-000001.json`` …)."""
TOURNAMENT_INDEX = "tournament.json"
"""The file beside a tournament's records that names the tournament and its match-ups."""
ANY_RECORDS = (SIMULATION_RECORDS, TOURNAMENT_RECORDS, TOURNAMENT_INDEX)
"""What a run's records folder must not hold already: any run's records."""


def prepare_dir(path: str | os.PathLike[str], fresh: str | Sequence[str] | None = None) -> Path:
    """Create the folder ``path`` (and its parents) if needed, and check that files can
    be written in it (a file is made there and removed).

    Raises :class:`ConfigError` if it exists as a file, cannot be created or written in
    (then no folder it made is left), or, with glob patterns ``fresh`` (one or several),
    if it already holds files matching one (the records of an earlier run, which a new
    run's would overwrite in part and mix with).
    """
    target = Path(path)
    check_fresh(target, fresh)
    made = missing_folders(target)
    try:
        _make_dir(target)
        _check_writable(target)
    except ConfigError:
        remove_folders(made)
        raise
    return target


def _make_dir(target: Path) -> None:
    """Create the folder ``target`` and its parents if needed (:class:`ConfigError`)."""
    if target.exists() and not target.is_dir():
        raise ConfigError(f"{str(target)!r} exists and is not a folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create folder {str(target)!r}: {exc.strerror}") from None


def _check_writable(target: Path) -> None:
    """:class:`ConfigError` unless a file can be made in the folder ``target``."""
    try:
        _probe(target, ".")
    except OSError as exc:
        raise ConfigError(f"cannot write in folder {str(target)!r}: {exc.strerror}") from None


def check_fresh(folder: Path, fresh: str | Sequence[str] | None, held: bool = False) -> None:
    """Raise :class:`ConfigError` if ``folder`` holds files matching one of the glob
    patterns ``fresh``: the records of an earlier run, or of a run that writes there now
    (unless ``held``: this run holds the folder itself), which the message tells apart."""
    patterns = (fresh,) if isinstance(fresh, str) else tuple(fresh or ())
    if not patterns or not folder.is_dir():
        return
    found = sorted(f.name for pattern in patterns for f in folder.glob(pattern))
    if not found:
        return
    if not held and _held_elsewhere(folder):
        raise ConfigError(f"folder {str(folder)!r}: another run is writing records there "
                          "now; wait for it to end, or give another folder")
    games = [name for name in found if name != TOURNAMENT_INDEX]
    what = [f"{len(games):,} game record{'s' if len(games) != 1 else ''} ({games[0]} …)"
            ] if games else []  # fmt: skip
    if len(games) < len(found):
        what.append(f"a tournament's index of its records ({TOURNAMENT_INDEX})")
    raise ConfigError(f"folder {str(folder)!r} already holds {' and '.join(what)} from an "
                      "earlier run: name a new or empty folder, or remove them, so that two "
                      "runs' records do not mix")


def _held_elsewhere(folder: Path) -> bool:
    """Whether a run holds the records folder ``folder`` now (:class:`HeldFolder`, this
    process's own too): its lock file is locked. The probe's lock is shared and let go at
    once: two probes never refuse each other, and a run that takes the folder during one
    waits a moment for it (:meth:`HeldFolder._hold`)."""
    lock = lock_file(folder / LOCK_FILE, create=False, shared=True)
    if isinstance(lock, int):
        os.close(lock)  # the shared lock goes with it
    return lock is BUSY


_PROBE_WAITS = 5
"""How many times, 10 ms apart, a run that finds its folder's lock taken tries again
before it is refused: another process's probe (:func:`_held_elsewhere`) holds it for an
instant; another run, for its whole length."""


class HeldFolder:
    """A records folder made (with its parents) and held for a run: a lock file
    in it (:data:`LOCK_FILE`) is locked (``flock``, where the system has it), so that a
    second run, a simulation's or a tournament's, is refused the folder while this one
    writes there. The check for an earlier run's records (``fresh``) is made once the
    folder is held, so two runs started together cannot both pass it; and a held folder
    is never empty, so no other run removes it.

    ``where`` names the folder in the messages (``--record-dir 'recs'``). Raises
    :class:`ConfigError` as :func:`prepare_dir` does, or if another run holds the folder;
    no folder it made is then left. :meth:`close` lets go of it, removing the lock file;
    :meth:`discard`, for a run that failed, also removes its files and the folders made.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     held = HeldFolder(Path(tmp) / "recs")
    ...     try:
    ...         HeldFolder(Path(tmp) / "recs", where="--record-dir recs")
    ...     except ConfigError as exc:
    ...         print(exc)
    ...     finally:
    ...         held.close()
    ...     print(sorted(p.name for p in (Path(tmp) / "recs").iterdir()))
    --record-dir recs: another run is writing records there now; wait for it to end, or ...
    []
    """

    def __init__(self, path: str | os.PathLike[str], fresh: str | Sequence[str] | None = None,
                 where: str | None = None) -> None:  # fmt: skip
        self.where = where or f"folder {str(path)!r}"
        self.path = Path(path).absolute()
        """The folder, from the working folder when the run began (the run is not moved
        by a change of it meanwhile: another thread's ``os.chdir``, a notebook's ``%cd``)."""
        self._file = self.path / LOCK_FILE
        self._fd: int | None = None
        self._unheld = False
        """Whether the folder is written without a lock (a file system without them)."""
        self.made = missing_folders(path)
        """The folders the hold made, the deepest first (:meth:`discard` removes them)."""
        try:  # (said of the folder as named: the working folder is still the run's)
            self._hold(Path(path))
            check_fresh(Path(path), fresh, held=True)
        except BaseException:
            self.discard()
            raise

    def _hold(self, target: Path) -> None:
        """Make the folder and lock its lock file, then check that it can be written in:
        made again if another run removed the folder or the file meanwhile (one that
        failed: it removes only an empty folder, and a held one is not)."""
        for _ in range(3):
            _make_dir(target)
            try:
                lock = lock_file(target / LOCK_FILE, create=True)
                for _ in range(_PROBE_WAITS):  # a probe's shared lock is let go at once
                    if lock is not BUSY:
                        break
                    time.sleep(0.01)
                    lock = lock_file(target / LOCK_FILE, create=True)
            except FileNotFoundError:
                continue  # the folder was removed since it was made
            except OSError as exc:
                raise ConfigError(f"cannot write in folder {str(target)!r}: "
                                  f"{exc.strerror}") from None
            if lock is BUSY:
                raise ConfigError(f"{self.where}: another run is writing records there now; "
                                  "wait for it to end, or give another folder")
            if isinstance(lock, int):
                self._fd = lock
                try:
                    same = os.path.samestat(os.fstat(lock), os.stat(self._file))
                except FileNotFoundError:
                    same = False
                if not same:  # the file (or its folder) was removed before it was locked
                    self._release(remove=False)
                    continue
            else:  # a file system without locks: the folder is written unheld
                self._unheld = True
            _check_writable(target)
            return
        raise ConfigError(f"{self.where}: the folder was removed each time it was taken; "
                          "give a folder no other program removes")

    def _release(self, remove: bool) -> None:
        if remove and (self._fd is not None or self._unheld):
            with contextlib.suppress(OSError):  # while it is held, so that no run locks
                os.unlink(self._file)  # the file it removes
            self._unheld = False
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        """Let go of the folder (another run may write there), removing its lock file."""
        self._release(remove=True)

    def discard(self, *patterns: str) -> None:
        """The end of a run that failed: remove its files matching ``patterns`` while the
        folder is held, let go, then remove the folders the hold made where they are empty
        (and no other run holds them). A second Ctrl-C (or a signal) while the files go
        does not stop it: a stopped run leaves none (tens of thousands took seconds, and
        were left, the folder then refused to the same run again); the exception that
        ended the run is the one its caller raises."""
        for _ in range(_DISCARD_TRIES):
            try:
                if self._fd is not None or self._unheld:
                    remove_files(self.path, *patterns)
                break
            except Exception:  # an error, not an interruption: said
                raise
            except BaseException:  # Ctrl-C again, SIGTERM: finish all the same
                continue
        self.close()
        remove_folders(self.made)


_DISCARD_TRIES = 1000
"""How many interruptions (Ctrl-C, a signal) :meth:`HeldFolder.discard` lets pass while it
removes a run's files (bounded: a run is never kept from ending)."""


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file; :class:`RecordError` says what is wrong with it."""
    p = Path(path)
    if p.exists() and not p.is_file() and not p.is_dir():
        raise RecordError(f"{str(p)!r} is a pipe, socket or device, not a record file")
    try:  # a byte-order mark (as Windows Notepad writes) is no part of the text
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RecordError(f"record file {str(p)!r} not found") from None
    except IsADirectoryError:
        raise RecordError(f"{str(p)!r} is a folder, not a record file") from None
    except UnicodeDecodeError:
        raise RecordError(f"{str(p)!r} is not a text (UTF-8) file") from None
    except OSError as exc:
        raise RecordError(f"cannot read {str(p)!r}: {exc.strerror}") from None
    journal = RecordError(f"{str(p)!r} is a tournament journal (a JSON line a game), not a "
                          "game record: a tournament writes its games' records with "
                          "--record-dir")  # fmt: skip
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if text.startswith('{"dominari_journal"'):
            raise journal from None
        raise RecordError(
            f"{str(p)!r} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    if isinstance(data, dict) and "dominari_journal" in data:
        raise journal
    if not isinstance(data, dict):
        raise RecordError(f"{str(p)!r}: a record must be a JSON object")
    return data
