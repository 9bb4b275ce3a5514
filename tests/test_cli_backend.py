"""``dominari simulate --backend``: local processes or Ray, same results; bad values and a
missing Ray are one-line errors."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dominari.cli import main

ARGS = ["simulate", "dominion", "--players", "bmu,smithy", "--kingdom", "first-game",
        "-n", "12", "--seed", "4", "--json"]  # fmt: skip


@pytest.fixture(autouse=True)
def _hang_up_as_from_a_terminal() -> Iterator[None]:
    """The runs here are hung up as a closed terminal hangs them up: they begin with
    SIGHUP at its default, as from a terminal, though the suite itself runs under
    ``nohup``, which ignores it for every process it starts (each such test timed out)."""
    if not hasattr(signal, "SIGHUP"):
        yield
        return
    old = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, old)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_unknown_backend_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *ARGS, "--backend", "bogus")
    assert code == 2
    assert out == ""
    assert err == "dominari: error: unknown backend 'bogus': use one of local, ray\n"


def test_backend_names_ignore_case(capsys: pytest.CaptureFixture[str]) -> None:
    code, default, err = run(capsys, *ARGS, "--workers", "1")
    assert code == 0, err
    code, local, err = run(capsys, *ARGS, "--workers", "2", "--backend", "LOCAL")
    assert code == 0, err
    assert json.loads(local) == json.loads(default)


def test_ray_backend_without_ray_says_how_to_install(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    code, out, err = run(capsys, *ARGS, "--backend", "ray")
    assert code == 2
    assert out == ""
    assert err == ("dominari: error: the ray backend needs Ray: "
                   "pip install 'dominari[cluster]'\n")  # fmt: skip


def test_ray_backend_gives_the_local_results(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The command starts a local cluster of --workers CPUs itself (a few seconds); a
    stall limit watches its tasks, and changes nothing of the results."""
    ray = pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    code, local, err = run(capsys, *ARGS, "--workers", "1")
    assert code == 0, err
    started = not ray.is_initialized()
    try:
        code, out, err = run(capsys, *ARGS, "--workers", "2", "--backend", "ray",
                             "--stall-timeout", "60")  # fmt: skip
    finally:
        if started:
            ray.shutdown()
    assert code == 0, err
    assert json.loads(out) == json.loads(local)
    # the session the command began ended before its results were printed: nothing of
    # Ray's (a lost worker's notice, held back and summed) can follow them on stdout
    assert not started or not ray.is_initialized()


@pytest.mark.parametrize("backend", ["local", "ray"])
def test_a_terminated_run_says_so_and_keeps_its_journal(tmp_path: Path, backend: str) -> None:
    """SIGTERM (a service manager, ``kill``) stops a run on either backend the same way:
    one line, exit 128 + 15, the workers stopped and the journal whole, so that the run
    goes on from it. ``ray.init`` replaced the handler: Ray's printed a crash dump of its
    native handler and exited with status 15."""
    if backend == "ray":
        pytest.importorskip("ray")
    journal = tmp_path / "run.jsonl"
    args = [sys.executable, "-m", "dominari", "tournament", "dominion", "--players",
            "bm,smithy", "-n", "1000000", "--seed", "1", "--workers", "2", "--no-progress",
            "--journal", str(journal), "--backend", backend]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    with _reaped(proc):
        deadline = time.monotonic() + 180
        while not (journal.exists() and journal.read_text("utf-8").count("\n") >= 3):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no games were journalled"
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    *notes, kept, last = [line for line in err.splitlines() if line]  # Smithy's note first
    assert (proc.returncode, out, last) == (143, "", "dominari: terminated")
    assert kept == (f"dominari: note: the journal {journal} keeps the games played so far: "
                    "the same command goes on from them")
    assert all(line.startswith("dominari: note: Smithy buys Smithy, which 40% of kingdoms")
               for line in notes)
    lines = journal.read_text("utf-8").splitlines()
    assert lines and all(json.loads(line) for line in lines)


def _records_run(folder: Path, games: int, ignore_hangup: bool = False
                 ) -> subprocess.Popen[str]:
    """A ``simulate --record-dir folder`` run of ``games`` in a session of its own (SIGHUP
    ignored from the start, as ``nohup`` runs it, with ``ignore_hangup``)."""
    args = [sys.executable, "-m", "dominari", "simulate", "dominion", "--players", "bm,smithy",
            "-n", str(games), "--seed", "3", "--workers", "2", "--no-progress",
            "--kingdom", "first-game", "--record-dir", str(folder)]  # fmt: skip

    def ignore() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=ignore if ignore_hangup else None)  # fmt: skip


@contextlib.contextmanager
def _reaped(proc: subprocess.Popen[Any]) -> Iterator[None]:
    """Kill ``proc``'s whole session if it is still running when the block ends."""
    try:
        yield
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _when_recording(proc: subprocess.Popen[Any], folder: Path, games: int = 1) -> None:
    """Wait until ``proc`` has recorded ``games`` in ``folder``."""
    deadline = time.monotonic() + 180
    while not (folder.is_dir() and sum(1 for _ in folder.glob("game-*.json")) >= games):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no games were recorded"
        time.sleep(0.05)


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_hung_up_run_cleans_up_as_a_stopped_one(tmp_path: Path) -> None:
    """A closed terminal or a dropped ssh session (SIGHUP) stops a run as Ctrl-C does: one
    line, exit 128 + 1, the results of the games it finished on standard output, and the
    records it wrote removed with the folder it made, so that the same command runs again
    (before, the run died at once and left its records and its lock behind, and the same
    command was refused). Under ``nohup`` (SIGHUP ignored) the run goes on to its end."""
    folder = tmp_path / "records"
    proc = _records_run(folder, 1_000_000)
    with _reaped(proc):
        _when_recording(proc, folder, 1_000)  # four chunks of 250 games
        os.killpg(proc.pid, signal.SIGHUP)  # the whole session, as a terminal does
        out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err.splitlines()[-1]) == (129, "dominari: hung up")
    assert out.startswith("Stopped after ") and " of 1,000,000 games: the results of the " \
        "first " in out.splitlines()[0]  # (where output goes on: a file, a pipe)
    assert not folder.exists()
    kept = tmp_path / "kept"
    proc = _records_run(kept, 300, ignore_hangup=True)
    with _reaped(proc):
        _when_recording(proc, kept)
        os.killpg(proc.pid, signal.SIGHUP)
        out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "300 games played" in out
    assert len(list(kept.glob("game-*.json"))) == 300


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
@pytest.mark.parametrize(("extra", "to_file"), [([], False), (["--json"], False), ([], True),
                                                (["--no-progress"], True)])  # fmt: skip
def test_a_run_on_a_terminal_that_goes_away_stops_cleanly(tmp_path: Path, extra: list[str],
                                                          to_file: bool) -> None:
    """A real terminal closed under a run with its progress bar: the bar fails to write
    as it closes, which must not hide the hang-up (the run exited 1, not 129). With its
    output going to a file, the results of the games it finished still go there, with or
    without the bar (they were lost: the bar's error, or the note on the terminal's
    stderr, came first)."""
    import fcntl
    import pty
    import select
    import termios
    import threading

    folder = tmp_path / "records"
    master, slave = pty.openpty()

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    args = [sys.executable, "-m", "dominari", "simulate", "dominion", "--players", "bm,smithy",
            "-n", "1000000", "--seed", "3", "--workers", "2", "--kingdom", "first-game",
            "--record-dir", str(folder), *extra]  # fmt: skip
    results = tmp_path / "results.txt"
    with results.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(args, stdin=slave, stdout=out if to_file else slave,
                                stderr=slave, preexec_fn=own_terminal)  # fmt: skip
    os.close(slave)

    done = threading.Event()

    def drain() -> None:  # the terminal's reader: the bar never blocks on a full buffer
        with contextlib.suppress(OSError):
            while not done.is_set():
                if select.select([master], [], [], 0.1)[0] and not os.read(master, 65536):
                    return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    with _reaped(proc):
        _when_recording(proc, folder, 1_000 if to_file else 1)  # (four batches of 250)
        time.sleep(0.5)  # the bar has drawn
        done.set()  # (a read blocked on the terminal would keep it open past its close)
        reader.join()
        os.close(master)  # the terminal goes away: its session is hung up
        assert proc.wait(timeout=120) == 129
    assert not folder.exists()
    if to_file:
        assert results.read_text(encoding="utf-8").startswith("Stopped after ")


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_server_stops_gracefully_on_a_hang_up(tmp_path: Path) -> None:
    """``serve`` on a hang-up stops as on SIGTERM, through the server's own shutdown
    (the hang-up was turned into an exception its event loop only logged, and the server
    went on), exit 129 as a run's. Its bot workers, thinking for a game of search bots,
    and their resource tracker are deaf to it: the server stops them, and nothing of
    theirs is printed (a worker killed by it was taken for lost and started again)."""
    import json
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [sys.executable, "-m", "dominari", "serve", "--port", str(port), "--db",
            f"sqlite:///{tmp_path / 'games.db'}"]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    with _reaped(proc):
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the server did not answer"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        game = json.dumps({"game": "dominion", "kingdom": "first-game", "seed": 1,
                           "seats": [{"kind": "bot", "bot": "mcts-easy"},
                                     {"kind": "bot", "bot": "mcts-easy"}]}).encode()
        ask = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=game,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(ask, timeout=30) as answer:
            assert answer.status == 201
        time.sleep(1.0)  # its bots are thinking
        os.killpg(proc.pid, signal.SIGHUP)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 129 and err.splitlines()[-1] == "dominari: hung up", err
    assert "Application shutdown complete" in err
    for worse in ("Traceback", "KeyError", "lost its worker", "asked again"):
        assert worse not in err, err


def test_a_run_whose_cluster_is_lost_says_its_journal_keeps_the_games(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Ray user's audit: a run whose cluster's head went away hung a minute, then Ray
    ended the process in its own words. It now fails at once (``_Head``), and the journal
    is said to keep the games played, as for a stop."""
    from dominari import cli
    from dominari.sim.pool import WorkersLost

    journal = tmp_path / "j.jsonl"

    def lost(*args: Any, started: Any = None, **kwargs: Any) -> Any:
        started()
        journal.write_text("{}\n", encoding="utf-8")
        raise WorkersLost("the head of the Ray cluster (10.0.0.1:6379) stopped answering")

    monkeypatch.setattr(cli, "tournament", lost)
    code, _, err = run(capsys, "tournament", "dominion", "--players", "bm,smithy", "-n", "10",
                       "--seed", "1", "--workers", "1", "--journal", str(journal),
                       "--no-progress")  # fmt: skip
    assert code != 0
    assert err.splitlines()[-2:] == [
        f"dominari: note: the journal {journal} keeps the games played so far: the same "
        "command goes on from them",
        "dominari: error: the head of the Ray cluster (10.0.0.1:6379) stopped answering"]
