"""Ray runs from several threads of one process: they share the one Ray session Dominari
begins for the process (begun once, under a lock, from a thread that lasts as long as
the process: Ray kills a local cluster's processes as the thread that started them
ends), and a run stopped short lets its own tasks run out while another thread's run
is on that session (the session ends with the last run out, as with a run alone).

Each test begins Dominari's own local cluster (a few seconds) and ends it; they are
skipped when Ray is not installed or already runs in this process.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from dominari.sim import pool, simulate

PLAYERS = ["bm", "smithy"]
WAIT = 120.0
"""How long (seconds) a test waits for a thread's run: a broken one fails the test."""
pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def own_ray(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The ``ray`` module, with no session running yet: the test's runs begin Dominari's
    own (a local cluster), which is ended at the end."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray already runs in this process")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)  # a local cluster, not the user's
    try:
        yield ray
    finally:
        pool.end_own_ray()
        if ray.is_initialized():  # a run of a failed test still on it
            with contextlib.suppress(Exception):
                ray.shutdown()
            pool._RAY_SESSION["ours"] = False


def _in_threads(*runs: Any) -> list[Any]:
    """Call each of ``runs`` in a thread of its own, all at once: what each returned, or
    the exception it raised (a ``SystemExit`` too, as Ray raises in a run whose session
    ended under it)."""
    got: list[Any] = [None] * len(runs)
    together = threading.Barrier(len(runs))

    def call(i: int) -> None:
        together.wait()
        try:
            got[i] = runs[i]()
        except BaseException as exc:  # the test looks at it
            got[i] = exc

    threads = [threading.Thread(target=call, args=(i,), daemon=True)
               for i in range(len(runs))]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not any(thread.is_alive() for thread in threads), "a run never ended"
    return got


def _session_whole(ray: Any) -> None:
    """The session is Dominari's, used by no run now, and none of the processes Ray
    started for it is dead (killed as the thread that began it ended)."""
    assert ray.is_initialized()
    assert pool._RAY_SESSION["ours"] and not pool._RAY_SESSION.get("runs", 0)
    node = getattr(ray._private.worker, "_global_node", None)  # Ray's own bookkeeping
    if node is not None:
        assert [kind for kind, _ in node.dead_processes()] == []


def test_two_ray_runs_at_once_from_two_threads_give_the_local_results(own_ray: Any) -> None:
    """Both runs find no session and start one at the same moment: it is begun once and
    shared (the second ``ray.init`` failed, and its clean-up ended the first's session),
    and it outlives the thread that began it, for later runs."""
    local = [simulate(PLAYERS, 6, seed=seed, workers=1).to_json() for seed in (1, 2)]
    got = _in_threads(
        lambda: simulate(PLAYERS, 6, seed=1, workers=2, backend="ray").to_json(),
        lambda: simulate(PLAYERS, 6, seed=2, workers=2, backend="ray").to_json())
    assert got == local
    # a normal end leaves Dominari's session running, as after a run alone
    _session_whole(own_ray)
    assert simulate(PLAYERS, 6, seed=1, workers=2, backend="ray").to_json() == local[0]
    _session_whole(own_ray)


def test_a_ray_run_stopped_short_leaves_another_threads_run_going(own_ray: Any) -> None:
    """A run whose progress callback raises (the library's way to stop one) while another
    thread's run is on the session stops only itself (its tasks run out); the other run, held in
    its first progress call until then, goes on to its full result."""
    local = simulate(PLAYERS, 40, seed=2, workers=1).to_json()
    going, stopped = threading.Event(), threading.Event()

    def held(games: int) -> None:  # the long run is mid-way, its tasks out, until the
        going.set()  # short one has stopped
        stopped.wait(WAIT)

    def stop(games: int) -> None:
        raise RuntimeError("stopped by the user")

    def long() -> dict[str, Any]:
        return simulate(PLAYERS, 40, seed=2, workers=2, backend="ray", progress=held).to_json()

    def short() -> Any:
        going.wait(WAIT)
        try:
            return simulate(PLAYERS, 6, seed=1, workers=2, backend="ray", progress=stop)
        finally:
            stopped.set()

    # the session begun first, by this thread, as a command's or a notebook's first run
    simulate(PLAYERS, 2, seed=3, workers=2, backend="ray")
    got = _in_threads(long, short)
    assert isinstance(got[1], RuntimeError) and str(got[1]) == "stopped by the user"
    assert got[0] == local
    # the last run out ended normally: the session is left running, as after a run alone
    _session_whole(own_ray)
    # and a run alone stopped short still ends it with its tasks
    with pytest.raises(RuntimeError, match="stopped by the user"):
        simulate(PLAYERS, 6, seed=1, workers=2, backend="ray", progress=stop)
    assert not own_ray.is_initialized() and not pool._RAY_SESSION["ours"]


def test_a_run_stopped_twice_is_counted_out_of_the_session(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A run stopped again while it stops (a second Ctrl-C) still leaves Dominari's session:
    the last run out ends it as ever (a stand-in for Ray, whose calls are interrupted)."""
    class Failed(Exception):
        pass

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    task = SimpleNamespace(remote=lambda *args: object())
    fake = SimpleNamespace(exceptions=SimpleNamespace(RayTaskError=Failed,
                                                      TaskCancelledError=Failed),
                           remote=lambda fn: SimpleNamespace(options=lambda **kw: task),
                           wait=interrupted, cancel=interrupted, shutdown=lambda: None)
    monkeypatch.setattr(pool, "init_ray", lambda workers=None: fake)
    monkeypatch.setitem(sys.modules, "ray", fake)
    for ours in (True, False):  # Dominari's own session, or the caller's (cancelled)
        monkeypatch.setattr(pool, "_RAY_SESSION", {"ours": ours, "runs": 1})  # another's
        with pytest.raises(KeyboardInterrupt):
            pool.each_result(abs, [1, 2], lambda k, v: None, workers=2, backend="ray")
        session = pool._RAY_SESSION
        assert session["runs"] == 1 and session["ours"] is ours  # the other run's alone
        pool._leave_ray(stopped=True)  # the other run, stopped too: the last out
        assert session["runs"] == 0 and session["ours"] is False  # ours: ended
