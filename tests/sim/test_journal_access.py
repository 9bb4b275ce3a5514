"""Tournament journals and what the user may write: a journal needs only its own file to be
writable (an empty file is begun in place, not removed and made again); one that cannot be
written is refused before any game, and one that must be written again as a whole says that
this needs its folder writable too. Also: a journal cut off inside its first line.

Root ignores file modes, so each case runs with the refusals stood in for (the calls that
would fail raise as they would for a user without the right), and, where the tests do not
run as root, with real modes as well."""

from __future__ import annotations

import errno
import importlib
import io
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dominari.core.errors import ConfigError
from dominari.sim.journal import GameResult, Journal, JournalError
from dominari.sim.tournament import TournamentResult, tournament

journal_module = importlib.import_module("dominari.sim.journal")
tournament_module = importlib.import_module("dominari.sim.tournament")  # not the function
PLAYERS = ["bm", "smithy"]
GAME = GameResult((0, 1), (1, 2), (30, 20), "provinces", (0, 1))
ROOT = os.geteuid() == 0
needs_modes = pytest.mark.skipif(ROOT, reason="root ignores file modes")


def run(path: Path | None, games: int = 2, **kw: Any) -> TournamentResult:
    return tournament(PLAYERS, games, 5, workers=1, kingdom="first-game", journal=path, **kw)


def _denied(path: Any) -> PermissionError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def _within(path: Any, folder: Path) -> bool:
    return Path(os.path.abspath(os.fspath(path))).parent == folder


def read_only_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Stand in for ``chmod a-w folder`` for a root that ignores it: nothing can be made,
    removed or renamed in ``folder``; its files are written as their own modes allow."""
    folder = Path(os.path.abspath(folder))
    real_open, real_io_open = os.open, io.open

    def no_entry(real: Any) -> Any:
        def call(src: Any, *args: Any, **kw: Any) -> Any:
            if _within(src, folder) or (args and _within(args[0], folder)):
                raise _denied(src)
            return real(src, *args, **kw)
        return call

    for name in ("unlink", "remove", "replace", "rename"):
        monkeypatch.setattr(os, name, no_entry(getattr(os, name)))

    def fd_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & os.O_CREAT and _within(path, folder) and not os.path.exists(path):
            raise _denied(path)
        return real_open(path, flags, *args, **kw)

    def file_open(path: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        makes = "x" in mode or (("w" in mode or "a" in mode) and not os.path.exists(path))
        if isinstance(path, (str, os.PathLike)) and makes and _within(path, folder):
            raise _denied(path)
        return real_io_open(path, mode, *args, **kw)

    monkeypatch.setattr(os, "open", fd_open)
    monkeypatch.setattr(io, "open", file_open)  # (what pathlib's Path.open calls)


def read_only_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Stand in for ``chmod a-w path`` for a root that ignores it: the file cannot be opened
    to be written (it can be read)."""
    target = os.path.abspath(path)
    real_open, real_io_open = os.open, io.open

    def fd_open(name: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR) and os.path.abspath(name) == target:
            raise _denied(name)
        return real_open(name, flags, *args, **kw)

    def file_open(name: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        if (isinstance(name, (str, os.PathLike)) and set(mode) & set("wax+")
                and os.path.abspath(name) == target):  # fmt: skip
            raise _denied(name)
        return real_io_open(name, mode, *args, **kw)

    monkeypatch.setattr(os, "open", fd_open)
    monkeypatch.setattr(io, "open", file_open)


@pytest.fixture
def modes(tmp_path: Path) -> Iterator[list[Path]]:
    """Paths whose write permission a test takes away, given back at its end (so that
    pytest can remove them)."""
    changed: list[Path] = []
    yield changed
    for p in changed:
        p.chmod(p.stat().st_mode | stat.S_IWUSR)


def _journal_in(folder: Path, name: str) -> tuple[Path, Path]:
    """A new folder, and the path of a journal ``name`` in it (not made)."""
    folder.mkdir()
    return folder, folder / name


def _format_1(path: Path) -> None:
    """Make ``path`` a journal as written before turn orders were kept (format 1)."""
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    lines = [json.dumps({**json.loads(head), "dominari_journal": 1})]
    for line in rest:
        entry = json.loads(line)
        entry["games"] = [g[:4] for g in entry["games"]]
        lines.append(json.dumps(entry))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# 1. An empty file is begun in place.


def test_an_empty_journal_is_written_through_the_file_itself(tmp_path: Path) -> None:
    """The first line goes into the file that is there, not into a new file put in its
    place: a link stays a link (to the journal), and the file stays the same file."""
    path = tmp_path / "e.jsonl"
    path.touch()
    inode = path.stat().st_ino
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    j = Journal.open(link, {"seed": 1}, hold=True)
    try:
        j.record(0, 0, [GAME])
    finally:
        j.close()
    assert link.is_symlink() and path.stat().st_ino == inode
    assert Journal.open(path, {"seed": 1}).known == {(0, 0): GAME}


def test_an_empty_journal_in_a_folder_that_cannot_be_written_is_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """The file is writable, so it serves: the folder is not written in (removing the file
    and making it again needed the folder writable)."""
    folder, path = _journal_in(tmp_path / "rod3", "e.jsonl")
    path.touch()
    read_only_folder(monkeypatch, folder)
    first = run(path)
    assert first.reused == 0 and first.to_json() == run(None).to_json()
    counted.clear()
    assert run(path).reused == 2 and counted == []
    assert sorted(f.name for f in folder.iterdir()) == ["e.jsonl"]


def test_an_empty_journal_of_a_run_that_fails_at_once_is_left_empty(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that plays no game leaves the file as it found it: there and empty (it used to
    be removed, a file the user had made), also where the folder cannot be written."""
    path = tmp_path / "e.jsonl"
    path.touch()
    read_only_folder(monkeypatch, tmp_path)

    def fail(*args: Any, **kw: Any) -> Any:
        raise ConfigError("no Ray cluster answers")

    monkeypatch.setattr(tournament_module, "each_result", fail)
    with pytest.raises(ConfigError, match="no Ray cluster"):
        run(path)
    assert path.is_file() and path.read_bytes() == b""


def test_an_empty_journal_that_cannot_be_begun_is_left_empty(
        tmp_path: Path, fill_disk: Callable[[], object]) -> None:
    """A full disk while its first line is written: one error naming the journal, and no
    half line left (an empty file, as it was)."""
    path = tmp_path / "e.jsonl"
    path.touch()
    fill_disk()
    with pytest.raises(JournalError) as e:
        Journal.open(path, {"seed": 1}, hold=True)
    assert str(e.value) == (f"journal {path}: cannot be written (No space left on device): "
                            "give another file")
    assert path.read_bytes() == b""


@needs_modes
def test_an_empty_journal_in_a_read_only_folder_is_used(tmp_path: Path,
                                                        modes: list[Path]) -> None:
    folder, path = _journal_in(tmp_path / "rod3", "e.jsonl")
    path.touch()
    folder.chmod(0o555)
    modes.append(folder)
    assert run(path).to_json() == run(None).to_json()
    assert run(path).reused == 2


# 3. A journal that cannot be written is refused before any game.


def test_a_read_only_journal_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """A run that would write it says so at once, and leaves it as it was; a reader that
    writes nothing (:meth:`Journal.read`) still reads it."""
    path = tmp_path / "ro4.jsonl"
    run(path)
    before = path.read_bytes()
    read_only_file(monkeypatch, path)
    counted.clear()
    for _ in range(2):  # and again: the same refusal, nothing played
        with pytest.raises(JournalError) as e:
            run(path, games=4)
        assert str(e.value) == (f"journal {path}: cannot be written (Permission denied): make "
                                "it writable, or give another file")
        assert counted == [] and path.read_bytes() == before
    assert len(Journal.read(path).known) == 2


def test_a_read_only_journal_holding_every_game_serves_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """A run whose games the journal holds all writes nothing: it is served, as before."""
    path = tmp_path / "done.jsonl"
    first = run(path)
    before = path.read_bytes()
    read_only_file(monkeypatch, path)
    counted.clear()
    again = run(path)
    assert counted == [] and path.read_bytes() == before
    assert again.to_json() == first.to_json()


@pytest.mark.skipif(journal_module.fcntl is None, reason="no flock on this system")
def test_a_file_system_without_locks_is_written_unheld_but_a_read_only_file_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where ``flock`` is not supported, a journal that can be written is written (unheld);
    one that cannot is refused before a run writes it, as where locks are."""
    from dominari.sim import records

    def no_locks(fd: int, how: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(records.fcntl, "flock", no_locks)
    path = tmp_path / "t.jsonl"
    j = Journal.open(path, {"seed": 1}, hold=True)
    j.record(0, 0, [GAME])
    again = Journal.open(path, {"seed": 1}, hold=True)  # unheld: nothing to refuse it
    again.record(0, 1, [GAME._replace(seating=(1, 0), order=(1, 0))])
    j.close()
    again.close()
    assert len(Journal.open(path, {"seed": 1}).known) == 2
    read_only_file(monkeypatch, path)
    with pytest.raises(JournalError, match=r"cannot be written \(Permission denied\): make it "
                                           r"writable, or give another file"):
        Journal.open(path, {"seed": 1}, hold=True).check_writable()


def test_the_command_refuses_a_read_only_journal_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from dominari.cli import main

    path = tmp_path / "ro4.jsonl"
    args = ["tournament", "dominion", "--players", "bm,bmu", "-n", "2", "--seed", "5",
            "--kingdom", "first-game", "--workers", "1", "--no-progress", "--journal",
            str(path)]  # fmt: skip
    assert main(args) == 0
    before = path.read_bytes()
    capsys.readouterr()
    read_only_file(monkeypatch, path)
    assert main([*args[:5], "4", *args[6:]]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"dominari: error: journal {path}: cannot be written "
                                 "(Permission denied): make it writable, or give another file\n")
    assert path.read_bytes() == before


def test_a_reader_that_cannot_cut_an_unfinished_line_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    Journal.open(path, {"seed": 1}).record(0, 0, [GAME])
    path.write_bytes(path.read_bytes() + b'{"matchup": 0, "st')
    before = path.read_bytes()
    read_only_file(monkeypatch, path)
    with pytest.raises(JournalError, match=r"cannot be written \(Permission denied\) to cut "
                                           r"off its unfinished last line"):
        Journal.open(path, {"seed": 1})
    assert path.read_bytes() == before


@needs_modes
def test_a_journal_of_mode_444_is_refused_before_any_game(
        tmp_path: Path, modes: list[Path], counted: list[int]) -> None:
    path = tmp_path / "ro4.jsonl"
    run(path)
    path.chmod(0o444)
    modes.append(path)
    before = path.read_bytes()
    counted.clear()
    with pytest.raises(JournalError, match=r"cannot be written \(Permission denied\): make it "
                                           r"writable, or give another file"):
        run(path, games=4)
    assert counted == [] and path.read_bytes() == before


# 4. Written again as a whole: the folder must be writable, and the message says so.


def test_a_first_format_journal_in_a_folder_that_cannot_be_written_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, path = _journal_in(tmp_path / "rod4", "f1.jsonl")
    run(path)
    _format_1(path)
    before = path.read_bytes()
    read_only_folder(monkeypatch, folder)
    with pytest.raises(JournalError) as e:
        run(path)
    assert str(e.value) == (
        f"journal {path}: cannot be upgraded from format 1 to format 2 (Permission denied): "
        f"that needs its folder {folder} writable, not only the file (a new file is written "
        "there to take its place); it is left as it was: make the folder writable, or copy "
        "the journal to a folder you can write in")
    assert path.read_bytes() == before
    assert sorted(f.name for f in folder.iterdir()) == ["f1.jsonl"]


def test_a_journal_stamped_with_new_code_in_a_folder_that_cannot_be_written_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    run(path)
    before = path.read_bytes()
    monkeypatch.setattr(tournament_module, "code_fingerprint", lambda game=None: "1" * 64)
    read_only_folder(monkeypatch, tmp_path)
    with pytest.raises(JournalError, match=r"cannot be stamped with this code \(Permission "
                                           r"denied\): that needs its folder .* writable, "
                                           r"not only the file"):
        run(path, recheck=2)
    assert path.read_bytes() == before


def test_a_failure_that_is_not_the_folders_does_not_blame_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while the new file is written: the journal is left as it was, and the
    folder is not named."""
    path = tmp_path / "t.jsonl"
    run(path)
    _format_1(path)
    before = path.read_bytes()
    real = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(JournalError) as e:
        run(path)
    monkeypatch.setattr(os, "fsync", real)
    assert str(e.value) == (f"journal {path}: cannot be upgraded from format 1 to format 2 "
                            "(No space left on device); it is left as it was")
    assert path.read_bytes() == before


@needs_modes
def test_a_first_format_journal_in_a_read_only_folder_says_why(tmp_path: Path,
                                                               modes: list[Path]) -> None:
    folder, path = _journal_in(tmp_path / "rod4", "f1.jsonl")
    run(path)
    _format_1(path)
    before = path.read_bytes()
    folder.chmod(0o555)
    modes.append(folder)
    with pytest.raises(JournalError, match=r"cannot be upgraded from format 1 to format 2 "
                                           r"\(Permission denied\): that needs its folder "
                                           r".* writable"):
        run(path)
    assert path.read_bytes() == before


# 5. A journal cut off inside its first line.


@pytest.mark.parametrize("cut", [1, 10, 21, 30, 80, -2, -1])
def test_a_journal_cut_off_in_its_first_line_is_begun_again(
        tmp_path: Path, cut: int, counted: list[int]) -> None:
    """A run killed while creating the journal leaves the start of its first line and no
    game: the unfinished last line that it is, dropped, and the journal begun again (the
    same run goes on, with the uninterrupted run's result)."""
    path = tmp_path / "t.jsonl"
    run(path)
    head = path.read_bytes().split(b"\n")[0] + b"\n"
    path.write_bytes(head[:cut])  # -1: all of it but its newline
    counted.clear()
    again = run(path)
    assert again.reused == 0 and sum(counted) == 2
    assert again.to_json() == run(None).to_json()
    assert path.read_bytes().startswith(head)
    assert run(path).reused == 2


def test_a_first_line_cut_off_of_another_tournaments_journal_holds_no_game_either(
        tmp_path: Path) -> None:
    """The games are what a key guards: a journal cut off before its first game (whatever
    tournament it began) has none to mix up with this one's, and is begun again, as an
    empty file is. Anything else that does not end a line stays not a journal."""
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"dominari_journal": 2, "key": {"game": "dominations", "players": ["ra')
    assert run(path).reused == 0
    assert json.loads(path.read_text(encoding="utf-8").split("\n")[0])["key"]["players"] == \
        PLAYERS
    path.write_bytes(b'{"dominari": 2, "ke')
    with pytest.raises(JournalError, match="is not a Dominari tournament journal"):
        run(path)
    assert path.read_bytes() == b'{"dominari": 2, "ke'
