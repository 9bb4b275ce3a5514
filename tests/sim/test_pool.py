"""The task pool: order, progress, identical results on every backend, lost workers
retried by shard without double counting, task errors not retried.

The Ray checks are one test, so that one local cluster is started for them (a few
seconds) on whichever xdist worker runs it; it is skipped when Ray is not installed.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pool_tasks
import pytest
from pool_tasks import (
    beat_in_bursts,
    beat_then_hang_once_on,
    crash_always,
    crash_on,
    crash_once,
    crash_slowly_on,
    crashy_chunk,
    fail_on,
    hang_always,
    hang_for_once_on,
    hang_once_on,
    hang_up_ignored,
    out_of_memory_on,
    out_of_memory_once,
    out_of_memory_once_on,
    runs,
    signals_of_a_worker,
    sleep_or_fail,
    slow_but_beating,
    square,
    stop_an_idle_sibling,
    stop_self_once_on,
)

from dominari.core.errors import ConfigError
from dominari.sim import pool, simulate
from dominari.sim.pool import (
    RAY_MISSING,
    PoolError,
    WorkersLost,
    _check_reachable,
    blocked,
    each_result,
    init_ray,
    run_tasks,
)
from dominari.sim.runner import Chunk, DominionOptions, record_name, run_chunk
from dominari.sim.stats import Tally
from dominari.sim.tournament import tournament

PLAYERS = ["bmu", "smithy"]
pytestmark = pytest.mark.timeout(300)
"""A pool that hangs (a broken stall watch: the tasks here sleep for an hour) fails its
test instead of holding up the suite; the slowest test here, Ray's, takes about a minute."""


def _tasks(folder: Path, values: range) -> list[tuple[str, int]]:
    return [(str(folder), v) for v in values]


# ---------------------------------------------------------------------- local
def test_results_come_in_task_order_and_progress_once_per_task(tmp_path: Path) -> None:
    seen: list[int] = []
    tasks = _tasks(tmp_path, range(10))
    out = run_tasks(square, tasks, workers=2, progress=lambda task, r: seen.append(task[1]))
    assert out == [v * v for v in range(10)]
    assert sorted(seen) == list(range(10))
    assert all(runs(tmp_path, v) == 1 for v in range(10))


def test_one_worker_runs_in_this_process_in_order() -> None:
    seen: list[tuple[int, int]] = []
    local = 3  # a closure: it could not be sent to a worker process
    out = run_tasks(lambda x: x + local, [1, 2, 3], progress=lambda t, r: seen.append((t, r)))
    assert out == [4, 5, 6]
    assert seen == [(1, 4), (2, 5), (3, 6)]


def test_no_tasks_need_no_pool() -> None:
    assert run_tasks(abs, [], workers=4) == []


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"workers": 0}, "workers must be at least 1"), ({"workers": True}, "workers"),
     ({"backend": "dask"}, "unknown backend 'dask': use one of local, ray"),
     ({"retries": -1}, "retries must be 0 or more")],
)  # fmt: skip
def test_bad_arguments_are_config_errors(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        run_tasks(abs, [1, 2], **kwargs)


def test_ray_backend_without_ray_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(ConfigError) as err:
        run_tasks(abs, [1, 2], backend="ray")
    assert str(err.value) == RAY_MISSING == (
        "the ray backend needs Ray: pip install 'dominari[cluster]'")


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_results_do_not_depend_on_workers(game: str) -> None:
    kw: dict[str, Any] = {"kingdom": "first-game"} if game == "dominion" else {}
    players = PLAYERS if game == "dominion" else ["random", "random", "random"]
    games = 24 if game == "dominion" else 6
    one = simulate(players, games, seed=3, workers=1, game=game, **kw).to_json()
    for workers in (2, 3) if game == "dominion" else (2,):
        assert simulate(players, games, seed=3, workers=workers, game=game, **kw,
                        backend="local").to_json() == one  # fmt: skip


@pytest.mark.parametrize(("game", "players", "games"), [
    ("dominion", ["mcts-easy:trust=0", "bm"], 4),  # trust=0: the search's own best each time
    ("dominations", ["mcts-easy", "random"], 2),
])  # fmt: skip
def test_search_bots_play_the_same_games_in_any_worker(game: str, players: list[str],
                                                       games: int) -> None:
    """A search seeded per game plays the same games in this process and in workers
    (spawned: other hash seeds, other object addresses)."""
    kw: dict[str, Any] = {"kingdom": "first-game"} if game == "dominion" else {}
    one = simulate(players, games, seed=3, workers=1, game=game, **kw).to_json()
    assert simulate(players, games, seed=3, workers=2, game=game, **kw).to_json() == one


def test_a_second_result_of_a_task_is_dropped() -> None:
    """A task run again (its worker thought lost or hung) may still answer from its
    first run: its result is handed over once, and the tasks left count it once."""
    got: list[tuple[int, str]] = []
    results = pool._Results(["a", "b"], lambda k, v: got.append((k, v)), retries=2)
    results.store(1, "first")
    results.store(1, "again")
    assert got == [(1, "first")] and results.left == 1
    assert results.done(1) and not results.done(0)
    results.store(0, "only")
    assert got == [(1, "first"), (0, "only")] and results.left == 0


def test_a_lost_worker_is_retried_and_each_task_counted_once(tmp_path: Path) -> None:
    seen: list[int] = []
    tasks = _tasks(tmp_path, range(3))
    out = run_tasks(crash_once, tasks, workers=2, progress=lambda task, r: seen.append(task[1]))
    assert out == [0, 1, 4]
    assert sorted(seen) == [0, 1, 2]  # progress once per task
    # Every task ran at least twice (its first run kills its worker). A task that was
    # running, on its way to success, in a worker the pool stopped when another worker
    # died runs once more: the counts above must not see it twice all the same.
    assert all(runs(tmp_path, v) >= 2 for v in range(3))


def test_games_of_a_retried_chunk_count_once(tmp_path: Path) -> None:
    """Each chunk's first run plays and records its games, then its worker dies: the
    rerun replays them (same seeds), yet the totals count every game once."""
    games, seed, workers, size = 12, 11, 2, 4
    options = DominionOptions("first-game", 100)
    records = tmp_path / "records"
    records.mkdir()
    names = ("BMU", "Smithy")
    chunks = [Chunk(tuple(PLAYERS), names, options, seed, start, min(games, start + size),
                    str(records)) for start in range(0, games, size)]  # fmt: skip
    marks = tmp_path / "marks"
    marks.mkdir()
    tallies = run_tasks(crashy_chunk, [(str(marks), c) for c in chunks], workers=workers)
    total = Tally(2)
    for t in tallies:
        total.merge(t)
    assert total == run_chunk(Chunk(tuple(PLAYERS), names, options, seed, 0, games))
    assert total.games == games
    # rewritten in place under the same names, never doubled (a worker killed while
    # writing may leave a hidden temporary file, never a half-written record)
    assert sorted(p.name for p in records.glob("game-*.json")) == [
        record_name(i) for i in range(games)]
    assert all(runs(marks, c.start) >= 2 for c in chunks)  # once more if stopped by a sibling


def test_a_task_that_keeps_killing_its_worker_is_named(tmp_path: Path) -> None:
    tasks = [(str(tmp_path), v, 1) for v in range(4)]
    with pytest.raises(WorkersLost, match=r"task 2 of 4 \(.*\) was lost 2 times: its worker "
                       r"process died"):  # fmt: skip
        run_tasks(crash_on, tasks, workers=2, retries=1)
    assert runs(tmp_path, 1) == 2  # the first run and one retry


def test_a_task_out_of_memory_is_run_again_and_named_if_it_keeps_failing(
        tmp_path: Path) -> None:
    """A MemoryError in a worker is the machine's memory, not the task's seed: the task
    runs again (alone), counted once; one that keeps failing is named, not a traceback.
    In this process (one worker) it is named at once."""
    seen: list[int] = []
    once = tmp_path / "once"
    once.mkdir()
    out = run_tasks(out_of_memory_once, _tasks(once, range(3)), workers=2,
                    progress=lambda task, r: seen.append(task[1]))  # fmt: skip
    assert out == [0, 1, 4] and sorted(seen) == [0, 1, 2]
    assert [runs(once, v) for v in range(3)] == [2, 2, 2]
    always = tmp_path / "always"
    always.mkdir()
    with pytest.raises(PoolError, match=r"task 2 of 3 \(.*\) was lost 2 times: its worker "
                       r"ran out of memory \(a MemoryError"):  # fmt: skip
        run_tasks(out_of_memory_on, [(str(always), v, 1) for v in range(3)], workers=2,
                  retries=1)  # fmt: skip
    assert runs(always, 1) == 2
    alone = tmp_path / "alone"
    alone.mkdir()
    tasks = [(str(alone), v, 1) for v in range(6)]
    assert run_tasks(out_of_memory_once_on, tasks, workers=2) == [v * v for v in range(6)]
    again = (alone / "run-1-2").stat().st_mtime_ns  # the retry began after every other
    assert all(again >= end.stat().st_mtime_ns for end in alone.glob("end-*")
               if not end.name.startswith("end-1-"))  # fmt: skip
    inline = tmp_path / "inline"
    inline.mkdir()
    with pytest.raises(PoolError, match=r"task 1 of 2 \(.*\) ran out of memory"):
        run_tasks(out_of_memory_on, [(str(inline), v, 0) for v in range(2)], workers=1)
    assert runs(inline, 0) == 1


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_local_workers_leave_a_hang_up_to_their_parent() -> None:
    """A closed terminal hangs up every process of its session: the workers ignore it,
    and their parent stops them as it stops (a worker killed first broke the pool)."""
    assert run_tasks(hang_up_ignored, list(range(4)), workers=2) == [True] * 4


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_local_workers_leave_ctrl_c_to_their_parent_from_birth() -> None:
    """A Ctrl-C reaches the whole process group: a worker ignores it (its parent stops
    it), and is born with it blocked until it does, so that one that came as the worker
    started printed no traceback of its start-up (the tournament organiser's audit: two
    times in six, a Ctrl-C in the run's first second). It keeps neither blocked."""
    assert run_tasks(signals_of_a_worker, list(range(4)), workers=2) == [(True,) * 3] * 4
    # this process's mask is as it was: Ctrl-C reaches it
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_ctrl_c_as_the_pool_starts_stops_its_workers_at_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A Ctrl-C that comes while the workers start (heard by this process once they are
    started) stops them before the run ends: left to start, each read the semaphores
    this process then removed and printed a ``FileNotFoundError`` traceback."""
    procs: list[Any] = []
    launch = pool._launch_all

    def interrupted(p: Any) -> None:
        launch(p)
        procs.extend(p._processes.values())
        raise KeyboardInterrupt

    monkeypatch.setattr(pool, "_launch_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_tasks(square, [(str(tmp_path), v) for v in range(4)], workers=2)
    assert len(procs) == 2 and not any(p.is_alive() for p in procs)


def test_a_task_error_is_raised_at_once_not_retried(tmp_path: Path) -> None:
    tasks = [(str(tmp_path), v, 2) for v in range(4)]
    with pytest.raises(ValueError, match="bad value 2"):
        run_tasks(fail_on, tasks, workers=2)
    assert runs(tmp_path, 2) == 1
    with pytest.raises(ConfigError, match=r"^no games for -1$"):
        run_tasks(fail_on, [(str(tmp_path), -1, 2), (str(tmp_path), 3, 2)], workers=2)
    assert runs(tmp_path, -1) == 1


def test_a_failed_run_stops_the_tasks_still_running(tmp_path: Path) -> None:
    """An error (or Ctrl-C) ends the run at once: the workers busy with other tasks are
    stopped, not waited for (this process would otherwise wait for them at exit)."""
    import multiprocessing

    with pytest.raises(ValueError, match="bad value 0"):
        run_tasks(sleep_or_fail, _tasks(tmp_path, range(2)), workers=2)
    assert runs(tmp_path, 1) == 1  # the other task was running
    for _ in range(1000):  # the stopped workers are reaped within moments, not 600 s
        if not multiprocessing.active_children():
            break
        time.sleep(0.01)
    assert multiprocessing.active_children() == []


class _LateWorkers(dict[int, Any]):
    """The worker table of a ``ProcessPoolExecutor`` (CPython 3.11's internals) playing
    a race seen under load: the second worker, started by ``submit`` while the first
    dies, is entered only once the pool broke and its manager thread stopped the workers
    it knew and told those alive to end. The manager then waits for the lock ``submit``
    holds, and at last joins every worker of the table: this one too, which nobody
    stopped and which waits for a task forever."""

    def __init__(self, pool: Any) -> None:
        super().__init__()
        self.pool = pool
        self.late = 0

    def __setitem__(self, pid: int, proc: Any) -> None:
        if len(self) == 1 and not self.late:
            manager = self.pool._executor_manager_thread
            for _ in range(3000):  # the first worker dies on its task; the manager stops
                # the others, tells those alive to end, and waits for the lock
                frame = sys._current_frames().get(manager.ident)
                if frame is not None and frame.f_code.co_name == "join_executor_internals":
                    break
                time.sleep(0.01)
            self.late = pid
        super().__setitem__(pid, proc)

    def values(self) -> Any:
        """The workers, each that has ended reaped first (else the manager may count a
        worker that just died as alive, and tell it to end: the other one gets that)."""
        from multiprocessing.connection import wait as ready

        for proc in super().values():
            if ready([proc.sentinel], 0):
                proc.join(1.0)
        return super().values()


def test_no_worker_outlives_a_broken_pool(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:  # fmt: skip
    """A worker that was starting when another died (so the pool's own clean-up did not
    see it) is stopped all the same: none is left waiting for a task, which would also
    keep this process waiting for it at exit."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from dominari.sim import pool as pool_module

    tables: list[_LateWorkers] = []

    class LatePool(ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if not tables:  # the first pool only
                tables.append(_LateWorkers(self))
                self._processes = tables[0]  # type: ignore[assignment]

        def _spawn_process(self) -> None:
            if self._processes is tables[0] and len(tables[0]) == 1:
                for _ in range(3000):  # the first worker has the task that kills it
                    if runs(tmp_path, 0):
                        break
                    time.sleep(0.01)
            super()._spawn_process()  # type: ignore[misc]

    monkeypatch.setattr(pool_module, "ProcessPoolExecutor", LatePool)
    # The pool starts all its workers before the first task (_launch_all), so none is
    # started late by itself: this plays a pool that still does, as Python's own does.
    monkeypatch.setattr(pool_module, "_launch_all", lambda pool: None)
    tasks = [(str(tmp_path), v, 0) for v in range(2)]  # value 0 kills its worker every time
    try:
        with pytest.raises(PoolError, match="task 1 of 2"):
            run_tasks(crash_slowly_on, tasks, workers=2, retries=1)
        assert tables[0].late  # the race was played
        for _ in range(1000):
            if not multiprocessing.active_children():
                break
            time.sleep(0.01)
        assert multiprocessing.active_children() == []
    finally:  # on a failure, do not leave this process waiting for the worker at exit
        for child in multiprocessing.active_children():
            child.kill()


def test_stopping_the_workers_ends_a_stopped_worker_too() -> None:
    """A worker that is stopped (SIGSTOP, or hung in the kernel) keeps a SIGTERM pending
    and never ends, and the interpreter waits for it at exit: a run stopped by Ctrl-C or
    ``kill`` then never ended. ``terminate_workers`` kills what is left after its wait."""
    import os
    import signal
    from concurrent.futures import ProcessPoolExecutor

    from dominari.sim.pool import terminate_workers

    pool = ProcessPoolExecutor(max_workers=1)
    try:
        pid = pool.submit(os.getpid).result(timeout=60)
        proc = next(iter(pool._processes.values()))  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGSTOP)
        started = time.monotonic()
        terminate_workers(pool, wait=0.5)
        # The pool's own thread may reap the worker at the same moment, and then this
        # process's poll of it says "alive" until that thread records its exit code: wait
        # for the code, which a worker that never ended would never get.
        while proc.exitcode is None and time.monotonic() - started < 5.0:
            time.sleep(0.01)
        assert proc.exitcode is not None and time.monotonic() - started < 5.0
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


@pytest.mark.parametrize("method", ["spawn", "fork", "forkserver"])
def test_a_worker_ends_when_the_process_that_started_it_is_gone(method: str) -> None:
    """A pool's workers watch their parent: killed with SIGKILL, it leaves no orphan that
    waits on its task queue forever, whichever way the workers were started (a fork
    server's workers are not its children)."""
    code = textwrap.dedent(f"""
        import os, sys
        from dominari.sim import simulate
        def report(k):
            print(*(c.pid for c in __import__("multiprocessing").active_children()),
                  flush=True)
            os.kill(os.getpid(), 9)
        if __name__ == "__main__":
            simulate(["bm", "bm"], 2000, seed=1, workers=2, kingdom="first-game",
                     progress=report, start_method={method!r})
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=False)  # fmt: skip
    assert run.returncode == -9, run.stderr
    pids = [int(p) for p in run.stdout.split()]
    assert pids
    for _ in range(1000):
        alive = [p for p in pids if _alive(p)]
        if not alive:
            break
        time.sleep(0.01)
    assert alive == []


def test_every_start_method_plays_the_same_games() -> None:
    """Workers started by fork, spawn or a fork server play the same games; a fork
    server's workers, whose parent is the server, do not take it for their parent gone
    (they all ended at once, and the run failed)."""
    results = {method: simulate(["bmu", "smithy"], 12, seed=3, workers=2,
                                kingdom="first-game", start_method=method).to_json()
               for method in ("spawn", "fork", "forkserver")}  # fmt: skip
    assert results["fork"] == results["spawn"] == results["forkserver"]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


def test_a_lost_task_is_named_by_its_games(tmp_path: Path) -> None:
    chunk = Chunk(("bm", "smithy"), ("BM", "Smithy"), DominionOptions(), 7, 25, 50)
    # games numbered from 1, as the record files are (game-000026.json …)
    with pytest.raises(PoolError, match=r"task [12] of 2 \(games 26-50 of seed 7 \(BM, "
                       r"Smithy\)\) was lost 1 time: "):  # fmt: skip
        run_tasks(crash_always, [chunk, chunk], workers=2, retries=0)


def test_too_many_workers_for_the_machine_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool the machine cannot start (out of file descriptors for its pipes) says how
    many workers were asked for, rather than only the system's error."""
    import errno
    import importlib

    pool_module = importlib.import_module("dominari.sim.pool")

    def no_pipes(*args: object, **kw: object) -> object:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(pool_module, "ProcessPoolExecutor", no_pipes)
    with pytest.raises(WorkersLost, match=r"cannot start a pool of 300 worker processes \(Too "
                                        r"many open files\): use fewer workers"):
        run_tasks(abs, list(range(400)), workers=300)


def _unreachable_cluster(monkeypatch: pytest.MonkeyPatch) -> int:
    """``RAY_ADDRESS`` set to a port of this machine where nothing listens (the port);
    the test is skipped where Ray is not installed or already runs in this process."""
    pytest.importorskip("ray")
    if sys.modules["ray"].is_initialized():
        pytest.skip("Ray already runs in this process")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    return port


def test_an_unreachable_ray_address_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    port = _unreachable_cluster(monkeypatch)
    with pytest.raises(PoolError, match=f"no Ray cluster answers at RAY_ADDRESS=127.0.0.1:{port}"):
        init_ray(2)


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_a_run_on_an_unreachable_cluster_says_only_why(
        command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The command's notes (Witch-BM on First Game has no Witch) are said once a run is
    sure to play: a cluster that does not answer is refused first, alone, as any mistake
    in what was given (the notes came before it)."""
    from dominari.cli import main

    _unreachable_cluster(monkeypatch)
    assert main([command, "dominion", "--players", "witch,bm", "--kingdom", "first-game",
                 "-n", "2", "--seed", "1", "--backend", "ray", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("dominari: error: no Ray cluster answers at ")
    assert err.count("\n") == 1


def test_an_address_ray_cannot_reach_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """``RAY_ADDRESS=auto`` with no cluster on this machine: Ray's own advice names a flag
    of its command line; the error names the variable and what to do instead."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray already runs in this process")

    def no_cluster(**options: object) -> None:
        raise ConnectionError("Could not find any running Ray instance. Please specify the "
                              "one to connect to by setting `--address` flag or "
                              "`RAY_ADDRESS` environment variable.")

    monkeypatch.setattr(ray, "init", no_cluster)
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    with pytest.raises(PoolError) as caught:
        init_ray(2)
    assert str(caught.value) == (
        "no Ray cluster answers at RAY_ADDRESS=auto (ConnectionError: Could not find any "
        "running Ray instance.); start one with 'ray start --head' and give its address "
        "(host:6379 by default), or unset RAY_ADDRESS to start a local one")
    monkeypatch.delenv("RAY_ADDRESS")
    with pytest.raises(PoolError, match="could not start a local Ray cluster: "
                                        "ConnectionError: Could not find"):
        init_ray(2)


@contextmanager
def a_server(answer: bytes | None) -> Iterator[int]:
    """A server on a free local port that answers every connection with ``answer`` once
    it has read the client's first bytes (``b""``: hangs up; None: says nothing); its
    port."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            held.append(conn)
            conn.recv(64)
            if answer is not None:
                conn.sendall(answer)
            if answer == b"":
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize(("answer", "message"), [
    (b"HTTP/1.0 400 Bad request\r\n\r\n", "something listens there, but not a Ray head"),
    (b"", "something listens there, but not a Ray head"),  # closes at once
    (None, "something listens there but says nothing"),
])  # fmt: skip
def test_a_ray_address_where_no_gcs_answers_fails_at_once(answer: bytes | None,
                                                          message: str) -> None:
    """A web server or Ray's dashboard at ``RAY_ADDRESS`` is no cluster: Ray would retry for
    minutes, deaf to Ctrl-C; the check says so within its timeout."""
    with a_server(answer) as port, pytest.raises(
            PoolError, match=f"RAY_ADDRESS=127.0.0.1:{port} .*{message}"):
        _check_reachable(f"127.0.0.1:{port}", timeout=0.5)
    # a gRPC server (HTTP/2) answers the preface with a SETTINGS frame: it passes
    with a_server(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])) as port:
        _check_reachable(f"127.0.0.1:{port}", timeout=0.5)


def test_a_server_ray_cannot_join_is_said_to_want_a_token(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A head started by ``ray start`` (Ray 2.60) wants a token: Ray retries for some 20
    s, then says only that it failed to connect. Where a gRPC server answered at the
    address, the error says so and names the setting, unless it is set already."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray already runs in this process")

    def refused(**options: object) -> None:
        raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379")

    monkeypatch.setattr(ray, "init", refused)
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    with a_server(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])) as port:
        monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
        with pytest.raises(PoolError) as caught:
            init_ray(2)
        assert str(caught.value).startswith(
            f"RAY_ADDRESS=127.0.0.1:{port}: a server answers there, but Ray could not join it "
            "as a cluster (ConnectionError: Failed to connect to Ray cluster at "
            "10.0.0.1:6379); a cluster started by 'ray start' asks for its token")
        assert "set RAY_AUTH_MODE=token here too" in str(caught.value)
        monkeypatch.setenv("RAY_AUTH_MODE", "token")  # set, and still refused: not that
        with pytest.raises(PoolError, match="no Ray cluster answers at RAY_ADDRESS="):
            init_ray(2)


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), SystemExit(signal.SIGTERM)])
def test_a_run_stopped_while_ray_starts_stops_what_ray_began(
        monkeypatch: pytest.MonkeyPatch, stop: BaseException) -> None:
    """Ctrl-C or SIGTERM while ``ray.init`` starts a local cluster: whatever it began is
    shut down (else the process crashed at exit and left Ray's agents behind), and
    SIGTERM, which Ray's own handler turns into ``SystemExit(15)`` while it starts, stops
    the run through the process's own handler, as on any backend."""
    import threading

    from dominari.sim import pool

    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray already runs in this process")
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are the main thread's")
    calls: list[str] = []

    class Terminated(BaseException):  # as the CLI's: not an error of the run
        pass

    def ours(signum: int, frame: object) -> None:
        calls.append("handler")
        raise Terminated

    def starting(**options: object) -> None:
        raise stop

    monkeypatch.setattr(ray, "init", starting)
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("shutdown"))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    before = signal.signal(signal.SIGTERM, ours)
    try:
        with pytest.raises(Terminated if isinstance(stop, SystemExit) else KeyboardInterrupt):
            init_ray(2)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert calls == (["shutdown", "handler"] if isinstance(stop, SystemExit) else ["shutdown"])
    assert not pool._RAY_SESSION["ours"]


# ------------------------------------------------------------------------ Ray
def _continue(pid_file: Path) -> None:
    """Let a stopped process go on (SIGCONT), its id read from ``pid_file``."""
    with contextlib.suppress(OSError, ValueError):
        os.kill(int(pid_file.read_text()), signal.SIGCONT)


@contextmanager
def local_ray() -> Iterator[Any]:
    """Ray, initialised as the backend does it, here a local cluster of 2 CPUs (or the
    cluster this process already runs); stopped at the end if started here."""
    pytest.importorskip("ray")
    started = not sys.modules["ray"].is_initialized()
    ray = init_ray(2)
    # Ray workers do not get pytest's sys.path: send the test tasks by value.
    ray.cloudpickle.register_pickle_by_value(pool_tasks)
    try:
        yield ray
    finally:
        ray.cloudpickle.unregister_pickle_by_value(pool_tasks)
        if started:
            ray.shutdown()


def test_ray_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything on Ray in one test, so that one cluster is started (a few seconds)
    whichever xdist worker runs it."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)  # a local cluster, not the user's
    with local_ray() as cluster:
        # a simulation gives the local results, for both games
        local = simulate(PLAYERS, 20, seed=5, workers=1, kingdom="first-game")
        ray = simulate(PLAYERS, 20, seed=5, workers=2, kingdom="first-game", backend="ray")
        assert ray.to_json() == local.to_json()
        players = ["random", "random"]
        local = simulate(players, 4, seed=5, workers=1, game="dominations")
        ray = simulate(players, 4, seed=5, workers=2, game="dominations", backend="ray")
        assert ray.to_json() == local.to_json()
        # and a tournament its local results
        entries = ["bm", "smithy", "random"]
        assert tournament(entries, 4, 3, workers=2, kingdom="first-game",
                          backend="ray").to_json() == tournament(
            entries, 4, 3, workers=1, kingdom="first-game").to_json()  # fmt: skip

        # a task runs in this process's folder, where the worker has it (the analyst's
        # audit: on a cluster of 'ray start', relative paths were read from its folder)
        monkeypatch.chdir(tmp_path)
        assert run_tasks(os.path.abspath, [".", "x"], workers=2, backend="ray") == [
            str(tmp_path), str(tmp_path / "x")]

        # a worker that cannot load the task (Dominari not installed there): one line
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "elsewhere" / "only_here.py").write_text("def twice(x):\n"
                                                             "    return 2 * x\n")
        monkeypatch.syspath_prepend(str(tmp_path / "elsewhere"))
        from only_here import twice  # type: ignore[import-not-found]

        with pytest.raises(PoolError, match=r"^a Ray worker could not take task \d of 2 "
                                            r"\(RaySystemError: System error: No module "
                                            r"named 'only_here'\): Ray could not run it "
                                            r"there; where a module is missing, install "
                                            r"Dominari, the version this process runs"):
            run_tasks(twice, [1, 2], workers=2, backend="ray")

        # results in task order, progress once per task
        seen: list[int] = []
        folder = tmp_path / "order"
        folder.mkdir()
        out = run_tasks(square, _tasks(folder, range(6)), workers=2, backend="ray",
                        progress=lambda task, r: seen.append(task[1]))  # fmt: skip
        assert out == [v * v for v in range(6)]
        assert sorted(seen) == list(range(6))

        # a lost worker is retried, its task counted once
        seen.clear()
        folder = tmp_path / "crash-once"
        folder.mkdir()
        out = run_tasks(crash_once, _tasks(folder, range(3)), workers=2, backend="ray",
                        progress=lambda task, r: seen.append(task[1]))  # fmt: skip
        assert out == [0, 1, 4]
        assert sorted(seen) == [0, 1, 2]
        assert [runs(folder, v) for v in range(3)] == [2, 2, 2]

        # a task out of memory is run again, as a lost one
        folder = tmp_path / "memory"
        folder.mkdir()
        out = run_tasks(out_of_memory_once, _tasks(folder, range(3)), workers=2,
                        backend="ray")  # fmt: skip
        assert out == [0, 1, 4] and [runs(folder, v) for v in range(3)] == [2, 2, 2]

        # a task that keeps killing its worker is named after the retries
        folder = tmp_path / "crash-always"
        folder.mkdir()
        with pytest.raises(PoolError, match=r"task 1 of 2 \(.*\) was lost 2 times: its Ray "
                           r"worker was lost \(WorkerCrashedError"):  # fmt: skip
            run_tasks(crash_on, [(str(folder), v, 0) for v in range(2)], workers=2,
                      backend="ray", retries=1)  # fmt: skip
        assert runs(folder, 0) == 2

        # the task's own errors come out unwrapped, not retried
        folder = tmp_path / "errors"
        folder.mkdir()
        with pytest.raises(ConfigError) as err:
            run_tasks(fail_on, [(str(folder), 1, 9), (str(folder), -1, 9)], workers=2,
                      backend="ray")  # fmt: skip
        assert type(err.value) is ConfigError
        assert str(err.value) == "no games for -1"
        with pytest.raises(ValueError, match="bad value 9"):
            run_tasks(fail_on, [(str(folder), 9, 9)], backend="ray")
        assert runs(folder, -1) == runs(folder, 9) == 1

        # with a stall limit: a hung task is cancelled, its worker ended, and run again
        folder = tmp_path / "hang-once"
        folder.mkdir()
        tasks = [(str(folder), v, 2) for v in range(4)]
        t0 = time.monotonic()
        assert run_tasks(hang_once_on, tasks, workers=2, backend="ray", stall=1.0) == [
            0, 1, 4, 9]
        assert time.monotonic() - t0 < 60  # not the hour it hung for
        assert runs(folder, 2) == 2
        assert [runs(folder, v) for v in (0, 1, 3)] == [1, 1, 1]

        # a task that keeps hanging is named
        folder = tmp_path / "hang-always"
        folder.mkdir()
        ours = pool._RAY_SESSION["ours"]
        with pytest.raises(PoolError, match=r"task 1 of 1 .* lost 1 time: it showed no "
                                            r"progress for 0.5 s"):  # fmt: skip
            run_tasks(hang_always, [(str(folder), 7)], backend="ray", stall=0.5, retries=0)
        assert runs(folder, 7) == 1
        # the session the run began ended with it, and no other was begun after it
        assert not (ours and cluster.is_initialized())

        # a beat held back (sent at most every S/4) does not make a healthy task look hung
        folder = tmp_path / "bursts"
        folder.mkdir()
        assert run_tasks(beat_in_bursts, _tasks(folder, range(2)), workers=2,
                         backend="ray", stall=2.0) == [0, 1]  # fmt: skip
        assert [runs(folder, v) for v in range(2)] == [1, 1]

        # a worker stopped (SIGSTOP) 0.2 s into its first task, before any beat but its
        # start, is cancelled all the same (Ray then ends it), and its task run again
        folder = tmp_path / "stop-self"
        folder.mkdir()
        tasks = [(str(folder), v, 1) for v in range(2)]
        release = threading.Timer(40.0, _continue, (folder / "pid-1",))  # if not watched
        release.start()
        try:
            assert run_tasks(stop_self_once_on, tasks, workers=2, backend="ray",
                             stall=1.0) == [0, 1]  # fmt: skip
        finally:
            release.cancel()
        assert runs(folder, 1) == 2  # stopped, cancelled, run again

        # a watch actor that restarts (its node lost) still catches a task hung before
        folder = tmp_path / "actor-restart"
        folder.mkdir()
        watches: list[Any] = []
        real_watch = pool._RayWatch

        def keep_watch(*args: Any) -> Any:
            watches.append(real_watch(*args))
            return watches[-1]

        def restart_actor() -> None:
            while not (watches and watches[0].started):  # the hung task has started
                time.sleep(0.05)
            cluster.kill(watches[0].actor, no_restart=False)

        monkeypatch.setattr(pool, "_RayWatch", keep_watch)
        killer = threading.Thread(target=restart_actor, daemon=True)
        killer.start()
        t0 = time.monotonic()  # (caught, it takes seconds; not caught, the whole hang:
        # a bound far from both holds on a machine busy with other work too)
        assert run_tasks(hang_for_once_on, [(str(folder), 0, 0, 90.0)], backend="ray",
                         stall=1.0) == [0]  # fmt: skip
        assert runs(folder, 0) == 2 and time.monotonic() - t0 < 60
        killer.join(1)
        monkeypatch.setattr(pool, "_RayWatch", real_watch)

        # the limit is on progress, not on a task's length, nor on the time a task waits
        # for a free CPU (4 at once on 2 CPUs); a simulation is the same
        folder = tmp_path / "beating"
        folder.mkdir()
        assert run_tasks(slow_but_beating, _tasks(folder, range(4)), workers=4,
                         backend="ray", stall=0.6) == [0, 1, 4, 9]  # fmt: skip
        assert [runs(folder, v) for v in range(4)] == [1, 1, 1, 1]
        plain = simulate(PLAYERS, 12, seed=4, workers=1).to_json()
        assert simulate(PLAYERS, 12, seed=4, workers=2, backend="ray",
                        stall=30).to_json() == plain  # fmt: skip

        # a cancelled task that does not end (its worker out of reach) is given up for
        # lost after a grace, and run again (last: the hung one keeps a CPU till the end)
        monkeypatch.setattr(pool, "_CANCEL_GRACE", 1.0)
        monkeypatch.setattr(cluster, "cancel", lambda *args, **kwargs: None)
        folder = tmp_path / "unreachable"
        folder.mkdir()
        tasks = [(str(folder), v, 0) for v in range(3)]
        assert run_tasks(hang_once_on, tasks, workers=2, backend="ray", stall=0.5) == [
            0, 1, 4]
        assert runs(folder, 0) == 2


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_each_result_hands_results_over_once_and_keeps_none(tmp_path: Path) -> None:
    """``each_result`` gives every task's result once, by index, in any order; lost
    workers are retried as for ``run_tasks``, without a second hand-over. Twelve crashes
    in a row print no traceback of the pool's own thread (it raced with a worker started
    late, see ``_launch_all``)."""
    from dominari.sim.pool import each_result

    got: dict[int, int] = {}

    def receive(k: int, value: int) -> None:
        assert k not in got
        got[k] = value

    tasks = _tasks(tmp_path, range(12))
    each_result(crash_once, tasks, receive, workers=2)
    assert got == {k: v * v for k, (_, v) in enumerate(tasks)}
    assert all(runs(tmp_path, v) == 2 for v in range(12))  # crashed once, then run


def test_each_result_asks_for_a_task_only_when_it_sends_it() -> None:
    """A lazy list of tasks is read one task at a time, as each is sent: a run of
    400,000 chunks need not make them all first."""
    from collections.abc import Sequence as Seq

    from dominari.sim.pool import each_result

    asked: list[int] = []

    class Lazy(Seq[int]):
        def __len__(self) -> int:
            return 5

        def __getitem__(self, k: Any) -> Any:
            asked.append(k)
            return -k

    seen: list[tuple[int, list[int]]] = []
    each_result(abs, Lazy(), lambda k, v: seen.append((v, list(asked))))
    assert seen == [(k, list(range(k + 1))) for k in range(5)]


# ---------------------------------------------------------------------- stalls
@pytest.mark.parametrize("workers", [1, 2])
def test_a_hung_task_is_stopped_and_run_again(tmp_path: Path, workers: int) -> None:
    """With a stall limit, a task that shows no progress for that long has its worker
    killed and runs again, counted once; with one worker too (in a worker process)."""
    tasks = [(str(tmp_path), v, 2) for v in range(5)]
    t0 = time.monotonic()
    assert run_tasks(hang_once_on, tasks, workers=workers, stall=0.5) == [v * v for v in range(5)]
    assert time.monotonic() - t0 < 60  # not the hour it hung for
    assert runs(tmp_path, 2) == 2


def test_a_task_that_keeps_hanging_is_named(tmp_path: Path) -> None:
    with pytest.raises(PoolError, match=r"task 1 of 1 .* lost 2 times: it showed no "
                                        r"progress for 0.3 s"):
        run_tasks(hang_always, [(str(tmp_path), 7)], workers=2, stall=0.3, retries=1)
    assert runs(tmp_path, 7) == 2


def test_a_slow_task_that_shows_progress_is_not_stopped(tmp_path: Path) -> None:
    """The limit is on progress, not on a task's length: ``beat()`` (a game finished)
    keeps a long task alive."""
    tasks = _tasks(tmp_path, range(3))
    assert run_tasks(slow_but_beating, tasks, workers=2, stall=0.5) == [0, 1, 4]
    assert all(runs(tmp_path, v) == 1 for v in range(3))


@pytest.mark.parametrize("stall", [0, -1, float("nan"), float("inf"), True, "5"])
def test_a_bad_stall_limit_is_refused(stall: object) -> None:
    with pytest.raises(ConfigError, match="stall limit must be a positive number"):
        run_tasks(abs, [1], stall=stall)  # type: ignore[arg-type]


@pytest.mark.parametrize("stall", [1e-320, 0.05])
def test_a_stall_limit_too_short_to_watch_is_refused(stall: float) -> None:
    with pytest.raises(ConfigError, match=r"stall limit must be at least 0.1 s .* not "):
        run_tasks(abs, [1], stall=stall)
    assert run_tasks(abs, [-1], stall=0.1) == [1]


def _tick(beats: Any, running: list[int], seconds: float) -> list[int]:
    """Ask ``beats`` which of ``running`` are quiet every 0.04 s for ``seconds``, as the
    caller does (often enough for the actor to know it is not stopped); the last answer."""
    end = time.monotonic() + seconds
    quiet = beats.quiet(running, reset=False)[2]
    while time.monotonic() < end:
        time.sleep(0.04)
        quiet = beats.quiet(running, reset=False)[2]
    return list(quiet)


def test_the_ray_watch_names_the_quiet_tries_by_its_own_clock() -> None:
    """The Ray run's watch actor (here a plain object): a try that started and has sent
    no beat for the limit (plus the most a beat is held back: 0.5 + 0.125 s) is quiet;
    one not started yet is not; after a time the caller did not look, silence before it
    says nothing; tries no longer running are forgotten."""
    beats = pool._Beats(stall=0.5, every=0.125)
    beats.beat(1)
    beats.beat(2)
    assert _tick(beats, [1, 2, 3], 0.3) == []
    beats.beat(2)
    assert _tick(beats, [1, 2, 3], 0.15) == []  # try 1 quiet for some 0.45 s: not yet
    assert _tick(beats, [1, 2, 3], 0.25) == [1]  # 0.7 s; try 3 never started
    assert beats.quiet([1, 2, 3], reset=True)[1:] == ([1, 2], [])
    assert _tick(beats, [2, 3], 0.75) == [2] and list(beats.last) == [2]


def test_the_ray_watch_actor_counts_its_own_stops_as_no_silence() -> None:
    """An actor that handled nothing for half the limit (stopped, or starved of CPU) may
    have the workers' beats waiting in its queue: silence counts from its return. A
    restarted actor has a new epoch, and tries said to have started are timed again."""
    beats = pool._Beats(stall=0.5, every=0.125)
    beats.beat(1)
    time.sleep(0.75)  # the actor stopped: nothing handled
    assert beats.quiet([1], reset=False)[2] == []
    assert _tick(beats, [1], 0.75) == [1]
    again = pool._Beats(stall=0.5, every=0.125)
    assert again.epoch != beats.epoch and again.quiet([1], reset=False)[1:] == ([], [])
    again.restore([1])
    assert _tick(beats, [1], 0.3) == [1] and _tick(again, [1], 0.3) == []
    assert _tick(again, [1], 0.5) == [1]


def test_a_simulation_with_a_stall_limit_is_the_same() -> None:
    plain = simulate(PLAYERS, 12, 4, workers=1).to_json()
    assert simulate(PLAYERS, 12, 4, workers=1, stall=60).to_json() == plain


def test_a_slow_parent_does_not_take_its_workers_for_hung(tmp_path: Path) -> None:
    """The parent busy (a slow hand-over: a journal's write) or stopped (Ctrl-Z) for longer
    than the limit says nothing of its workers: none is stopped, no task run twice; nor
    is the worker of a task that just finished, now running another."""
    tasks = _tasks(tmp_path, range(8))
    slow = [True]

    def receive(k: int, value: int) -> None:  # the first hand-over takes 1.3 s
        if slow.pop() if slow else False:
            time.sleep(1.3)

    each_result(slow_but_beating, tasks, receive, workers=2, stall=1.0)
    assert all(runs(tmp_path, v) == 1 for v in range(8))


def test_only_the_hung_task_is_charged(tmp_path: Path) -> None:
    """The tasks running beside a hung one are lost with the pool, but are not suspects:
    they go back to the queue uncharged (with no retry left, the error names the hung
    task, not one beside it)."""
    tasks = [(str(tmp_path), v, 2) for v in range(3)]
    with pytest.raises(PoolError, match=r"task 3 of 3 .* lost 1 time: it showed no progress"):
        run_tasks(beat_then_hang_once_on, tasks, workers=3, stall=0.5, retries=0)
    tasks = [(str(tmp_path / "again"), v, 2) for v in range(3)]
    (tmp_path / "again").mkdir()
    assert run_tasks(beat_then_hang_once_on, tasks, workers=3, stall=0.5) == [0, 1, 4]


def _stuck_starting(first: int, marker: Path) -> Any:
    """A worker initializer (for a fork pool) that hangs in the first ``first`` workers
    started, as a worker stuck in an import or stopped before its first task would."""
    real = pool._init_worker

    def init(*args: Any) -> None:
        fd = os.open(marker, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, b"x")
            index = os.lseek(fd, 0, os.SEEK_CUR) - 1  # this worker's place, race-free
        finally:
            os.close(fd)
        if index < first:
            time.sleep(3600)
        real(*args)

    return init


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="needs fork")  # fmt: skip
def test_workers_that_start_no_task_are_stopped_and_started_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """With a stall limit, a pool whose workers start no task at all within the start
    allowance (stuck starting, or one stopped before its first task, holding the task
    queue) is stopped and started again; when that keeps happening, the run fails
    saying so, instead of waiting for ever."""
    monkeypatch.setattr(pool, "_START_GRACE", 1.0)
    monkeypatch.setattr(pool, "_init_worker", _stuck_starting(2, tmp_path / "once"))
    tasks = _tasks(tmp_path, range(4))
    t0 = time.monotonic()
    assert run_tasks(square, tasks, workers=2, stall=0.5, start_method="fork") == [
        0, 1, 4, 9]
    assert time.monotonic() - t0 < 60
    # The two stuck workers, then the second pool's: one of them may be stopped with the
    # pool before it starts, when the other has played every task (a busy machine).
    assert (tmp_path / "once").read_bytes() in (b"xxx", b"xxxx")

    monkeypatch.setattr(pool, "_init_worker", _stuck_starting(99, tmp_path / "always"))
    with pytest.raises(PoolError, match=r"no worker process started a task within 1 s, "
                                        r"2 times, and the workers were stopped each time"):
        run_tasks(square, tasks, workers=2, stall=0.5, start_method="fork", retries=1)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_worker_stopped_while_idle_does_not_wedge_the_run(tmp_path: Path) -> None:
    """A worker stopped while it waits for a task holds the pool's task queue: no task
    starts. With a stall limit the pool is stopped and started again, and the run ends
    (its process too: the stopped worker is not waited for at exit)."""
    tasks = _tasks(tmp_path, range(8))
    t0 = time.monotonic()
    assert run_tasks(stop_an_idle_sibling, tasks, workers=2, stall=1.0) == [
        v * v for v in range(8)]
    assert time.monotonic() - t0 < 60
    import multiprocessing

    for _ in range(1000):
        if not multiprocessing.active_children():
            break
        time.sleep(0.01)
    assert multiprocessing.active_children() == []


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks here")
def test_signals_blocked_for_a_block_come_after_it_and_the_mask_is_as_it_was() -> None:
    """``blocked`` (a worker started meanwhile is born deaf to them): a signal sent during
    the block is held, and handled as the block ends; the mask is then the one before."""
    got: list[int] = []
    old = signal.signal(signal.SIGUSR1, lambda sig, frame: got.append(sig))
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        with blocked([signal.SIGUSR1]):
            assert signal.SIGUSR1 in signal.pthread_sigmask(signal.SIG_BLOCK, [])
            # to this thread (a signal to the process may go to another, unblocked one)
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
            time.sleep(0.05)
            assert got == []
        time.sleep(0.05)  # (Python runs the handler at its next check)
        assert got == [signal.SIGUSR1]
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
    finally:
        signal.signal(signal.SIGUSR1, old)


def test_each_retry_is_told_with_why(tmp_path: Path) -> None:
    """The reproducibility audit: a run that played batches again (a worker killed, hung)
    gave the results of a run that lost none, and nothing said it: ``retried(k, why)``
    is called for each."""
    told: list[tuple[int, str]] = []
    out = run_tasks(crash_once, _tasks(tmp_path, range(3)), workers=2,
                    retried=lambda k, why: told.append((k, why)))  # fmt: skip
    assert out == [0, 1, 4]
    assert {k for k, _ in told} == {0, 1, 2}
    assert all(why.startswith("its worker process died") for _, why in told)


_DIES_ONCE = """
import os, pathlib, signal

class Bot:
    name = "Dies"

    def reset(self, seed):
        mark = pathlib.Path(__file__).with_name("died")
        if not mark.exists():  # the first game of the first batch: the worker dies
            mark.write_text("x")
            os.kill(os.getpid(), signal.SIGKILL)

    def act(self, state):
        return state.legal_actions()[0]
"""


def test_a_run_says_which_batches_it_played_again(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from dominari.cli import main
    from dominari.sim import simulate, tournament

    bot = tmp_path / "dies.py"
    bot.write_text(_DIES_ONCE, encoding="utf-8")
    result = simulate([f"{bot}:Bot", "bm"], 8, seed=1, workers=2, kingdom="first-game")
    assert result.games == 8 and len(result.retried) >= 1
    assert re.match(r"games? \d+(-\d+)?: its worker process died", result.retried[0])
    assert "retried" not in result.to_json()  # the results: a run's that lost none
    (tmp_path / "died").unlink()
    assert main(["simulate", "dominion", "--players", f"{bot}:Bot,bm", "-n", "8", "--seed",
                 "1", "--workers", "2", "--kingdom", "first-game", "--json",
                 "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == result.to_json()
    journal = tmp_path / "t.jsonl"  # and a journal's games rechecked (the review)
    tournament([f"{bot}:Bot", "bm"], 4, 1, workers=1, kingdom="first-game", journal=journal)
    (tmp_path / "died").unlink()
    again = tournament([f"{bot}:Bot", "bm"], 4, 1, workers=2, kingdom="first-game",
                       journal=journal, recheck=4)  # fmt: skip
    assert again.rechecked == 4 and any("(rechecked): its worker process died" in why
                                        for why in again.retried)
    assert re.search(r"dominari: note: \d batch(es)? of games (was|were) played again, "
                     r"(its worker|their workers) lost \(each game counted once\): "
                     r"games? \d+(-\d+)?: its worker process died", err), err


def test_a_ray_run_looks_whether_its_clusters_head_still_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Ray user's audit: with the cluster stopped mid-run (``ray stop``), the run hung
    for a minute, then Ray ended the process with its own log and no word of the run. The
    run looks every few seconds whether the head still takes a connection, and fails once
    it has not twice in a row, saying so."""
    import socket
    import types

    with socket.socket() as s:  # a port of this machine where nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    context = types.SimpleNamespace(gcs_address=f"127.0.0.1:{port}")
    fake = types.SimpleNamespace(get_runtime_context=lambda: context)
    monkeypatch.setattr(pool, "_HEAD_EVERY", 0.0)
    head = pool._Head(fake)
    head.look()  # once: Ray may be busy; not yet
    with pytest.raises(WorkersLost, match=rf"^the head of the Ray cluster \(127.0.0.1:{port}\) "
                                          r"stopped answering during the run \(Connection "
                                          r"refused\): the cluster stopped"):
        head.look()
    with socket.socket() as s:  # a head that answers resets the count
        s.bind(("127.0.0.1", 0))
        s.listen()
        context.gcs_address = f"127.0.0.1:{s.getsockname()[1]}"
        alive = pool._Head(fake)
        for _ in range(3):
            alive.look()
        assert alive.misses == 0
    assert pool._Head(types.SimpleNamespace()).where is None  # no address known: no look


def test_a_script_read_from_standard_input_is_told_to_use_a_file(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``python - < script.py`` with two workers: spawned workers read the main script
    again and there is none; they died four times with tracebacks before the error said
    nothing of why (the library user's audit). Now one ConfigError, before any worker."""
    from dominari.sim.pool import STDIN_MAIN

    monkeypatch.setattr(sys.modules["__main__"], "__file__", "<stdin>", raising=False)
    with pytest.raises(ConfigError) as e:
        run_tasks(square, [(str(tmp_path), 1), (str(tmp_path), 2)], workers=2,
                  start_method="spawn")
    assert str(e.value) == STDIN_MAIN
    assert run_tasks(square, [(str(tmp_path), 1), (str(tmp_path), 2)], workers=1) == [1, 4]
