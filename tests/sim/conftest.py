"""Fixtures shared by the simulator's tests."""

from __future__ import annotations

import errno
import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


class FullDisk:
    """Game records that stop being written, as on a disk that fills up, once ``after``
    of them are written (each run's count starts again after :meth:`clear`); with
    ``temp`` the failing write leaves a temporary file, as a worker killed while writing
    would. ``written`` lists those written."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, after: int, temp: bool) -> None:
        self._runner = importlib.import_module("dominari.sim.runner")
        self._real = self._runner.write_record_atomic
        self._monkeypatch = monkeypatch
        self.after, self.temp = after, temp
        self.written: list[Path] = []
        monkeypatch.setattr(self._runner, "write_record_atomic", self._write)

    def _write(self, path: Path, data: Any) -> None:
        if len(self.written) == self.after:
            if self.temp:
                (path.parent / f".{path.name}.x1y2.tmp").write_text("{", encoding="utf-8")
            raise OSError(errno.ENOSPC, "No space left on device")
        self._real(path, data)
        self.written.append(path)

    def clear(self) -> None:
        self.written.clear()

    def mend(self) -> None:
        """Records are written again."""
        self._monkeypatch.setattr(self._runner, "write_record_atomic", self._real)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., FullDisk]]:
    """``full_disk(after, temp=False)``: a :class:`FullDisk` from now on."""
    yield lambda after, temp=False: FullDisk(monkeypatch, after, temp)


@pytest.fixture
def no_cluster(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The simulation runner's module, whose pool fails before any game as a Ray cluster
    that does not answer would (``ConfigError: no Ray cluster answers``)."""
    from dominari.core.errors import ConfigError

    runner = importlib.import_module("dominari.sim.runner")

    def fail(*args: object, **kw: object) -> object:
        raise ConfigError("no Ray cluster answers")

    monkeypatch.setattr(runner, "each_result", fail)
    return runner


@pytest.fixture
def counted(count_games: Callable[[], list[int]]) -> list[int]:
    """The number of games actually played by each tournament shard from now on."""
    return count_games()


@pytest.fixture
def count_games(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[int]]:
    """``count_games()``: the number of games played by each tournament shard (in this
    process) from then on, a list that grows as they are played."""
    return lambda: _count_games(monkeypatch)


def _count_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    tournament = importlib.import_module("dominari.sim.tournament")  # not the function
    played: list[int] = []
    real = tournament.play_shard

    def play(shard: Any) -> Any:
        played.append(shard.stop - shard.start)
        return real(shard)

    monkeypatch.setattr(tournament, "play_shard", play)
    return played


@pytest.fixture
def fill_disk(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Callable[[int, Any], int]]:
    """``fill_disk(room=10)``: the disk fills up at the next ``os.write``: it writes
    ``room`` bytes of its data, and every write after it fails with ENOSPC (a half line,
    then a full disk). Returns the real ``os.write``, to put back."""
    return lambda room=10: _fill_disk(monkeypatch, room)


def _fill_disk(monkeypatch: pytest.MonkeyPatch, room: int) -> Callable[[int, Any], int]:
    real = os.write

    def half_then_full(fd: int, data: Any) -> int:
        monkeypatch.setattr(os, "write", lambda fd, data: (_ for _ in ()).throw(
            OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))))
        return real(fd, bytes(data)[:room])

    monkeypatch.setattr(os, "write", half_then_full)
    return real
