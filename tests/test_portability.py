"""What differs on macOS and Windows, tested here on Linux by taking away what those
systems lack: ``os.fchmod`` (Windows, before Python 3.13), a standard output that cannot
encode every character (a Windows code page where the output is a file or a pipe),
SIGKILL, pools of more than 61 processes, paths that begin with a drive."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dominari.bots.mcts import search_spec
from dominari.sim import pool
from dominari.sim.records import LinesFile, write_text_atomic


def test_files_are_written_whole_without_fchmod(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Records, charts and ``--per-game`` rows are written where the system has no
    ``os.fchmod`` (the run failed with an AttributeError after its games), with ``\\n``
    line ends whatever the system's (a record made anywhere reads the same)."""
    monkeypatch.delattr(os, "fchmod")
    write_text_atomic(tmp_path / "r.json", "{\n}\n")
    lines = LinesFile(tmp_path / "rows.jsonl")
    lines.write({"a": 1})
    lines.keep()
    assert (tmp_path / "r.json").read_bytes() == b"{\n}\n"
    assert (tmp_path / "rows.jsonl").read_bytes() == b'{"a":1}\n'


def test_a_pool_has_no_more_processes_than_the_system_allows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows waits on at most 61 processes: more workers asked for (the default on a
    machine of more CPUs) are run by that many, with the same results."""
    seen: list[int] = []
    run_local = pool._run_local

    def counted(fn: Any, out: Any, workers: int, *rest: Any) -> None:
        seen.append(workers)
        run_local(fn, out, workers, *rest)

    monkeypatch.setattr(pool, "MAX_PROCESSES", 1)
    monkeypatch.setattr(pool, "_run_local", counted)
    assert pool.run_tasks(abs, [-1, 2, -3], workers=2, stall=60.0) == [1, 2, 3]
    assert seen == [1]


def test_the_results_print_where_the_output_cannot_encode_them(tmp_path: Path) -> None:
    """A tournament's ratings say μ and σ: written to a file through a Windows code page
    they failed once every game was played, the results lost. Now the characters the
    encoding lacks read ``?``."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    out = subprocess.run([sys.executable, "-m", "dominari", "tournament", "dominion",
                          "--players", "bm,smithy", "-n", "2", "--seed", "1",
                          "--kingdom", "first-game", "--no-progress"],
                         capture_output=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr.decode("cp1252", "replace")
    text = out.stdout.decode("cp1252")
    assert "ranked by ? ? 3?" in text and "Traceback" not in out.stderr.decode("cp1252")


@pytest.mark.parametrize("path", [r"C:\books\b.toml", "c:/books/b.toml"])
def test_a_search_bots_file_may_begin_with_a_drive(path: str) -> None:
    """``book=C:\\books\\b.toml`` was read as the option ``book=C`` and ``\\books…``,
    which is no option."""
    assert search_spec(f"mcts:book={path}:seconds=1") == (
        "mcts", {"book": path, "seconds": "1"})
    assert search_spec(f"mcts-hard:own={path}") == ("mcts-hard", {"own": path})
