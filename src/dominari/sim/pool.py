"""Pools that run batches of seeded games: one interface, several backends.

A *task* is a picklable value (a :class:`~dominari.sim.runner.Chunk` of games, a
tournament shard …) and a *function* a top-level function of one task that returns a
picklable result. :func:`run_tasks` runs every task once and returns the results in
task order, whatever the backend or the number of workers, so a simulation's result
depends only on its seed. :func:`each_result` runs them the same way but hands each
result over as it arrives and keeps none, for runs of millions of games (the tasks may
be a lazy :class:`~collections.abc.Sequence`, made one at a time as they are sent).

Backends (:data:`BACKENDS`):

- ``local`` (the default): this process for one worker, else a pool of local worker
  processes (``--workers N``), with up to ``4 N`` tasks queued so that no worker waits.
- ``ray``: a Ray cluster (the optional ``cluster`` extra:
  ``pip install 'dominari[cluster]'``). If this process has not initialised Ray yet,
  :func:`init_ray` connects to the cluster at ``RAY_ADDRESS`` or else starts a local
  cluster of ``workers`` CPUs. ``workers`` is the number of tasks running at once (a
  cluster with fewer free CPUs queues the rest). The cluster is left running for later
  calls, since starting one takes seconds; Ray stops a local cluster it started when
  this process exits. Every node of a remote cluster needs ``dominari`` installed (and
  the module of the task function importable).

Lost workers are retried *by shard*. When a worker process dies while running a task
(killed by the system, out of memory, a crash in native code; for Ray also a lost node
or a lost result) the task is run again, up to ``retries`` times, before a
:class:`PoolError` names it. A result is stored once, by task index, so a retried task
never counts twice. A :class:`MemoryError` raised in a worker (an allocation refused
under a memory limit, short of the system killing the worker) is the machine's, not the
task's: it is retried the same way (on local workers alone, once the others are done,
as a suspect of a crash is). Any other exception raised
by the task function itself is deterministic (the same seed fails the same way): it is
not retried but raised as it is, for Ray unwrapped from Ray's ``RayTaskError``.

Hung workers are waited for, unless a *stall limit* is given: then a task that shows no
progress (its start, a :func:`beat` each game) for that many seconds has its worker
stopped, and is run again like a lost one. Local workers write the time of their last
beat into memory shared with this process; Ray workers send it, at most a few times a
second, to a small actor of the run's (:class:`_Beats`), and a hung Ray task is
cancelled with ``force=True``, which ends its worker process.

>>> run_tasks(abs, [-1, 2, -3])
[1, 2, 3]
>>> run_tasks(abs, [-1, 2, -3], workers=2, progress=lambda task, result: None)
[1, 2, 3]
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import math
import multiprocessing
import os
import queue
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

from dominari.core.errors import ConfigError, DominariError, machine_failed

T = TypeVar("T")
R = TypeVar("R")

BACKENDS: tuple[str, ...] = ("local", "ray")
"""The pool backends by name."""

DEFAULT_RETRIES = 3
"""How many times a task whose worker died is run again before :class:`PoolError`."""

RAY_MISSING = "the ray backend needs Ray: pip install 'dominari[cluster]'"

MIN_STALL = 0.1
"""The shortest stall limit, in seconds (the watch looks four times in one)."""

_QUEUED_PER_WORKER = 4  # local pool: tasks submitted per worker process
_WATCH_EVERY = 1.0  # seconds: how often a local worker checks that its parent lives

_START_GRACE = 60.0
"""Seconds, at least, that local workers watched for stalls may take to start a first
task (a spawned worker imports the engines; a loaded machine takes its time)."""

_HEAD_EVERY = 5.0
"""How often, in seconds, a Ray run looks whether its cluster's head still answers
(:class:`_Head`)."""
_HEAD_MISSES = 2
"""How many looks in a row the head must fail before the run fails."""
_HEAD_WAIT = 2.0
"""How long, in seconds, a look waits for the head to take the connection."""
_START_WAIT = 10.0
"""Seconds a Ray task waits, at most, for the watch actor to have its start."""

_CANCEL_GRACE = 60.0
"""Seconds a Ray task cancelled as hung may take to end before it is given up for lost
(its worker unreachable) and run again anyway."""

_RAY_LOST = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "LocalRayletDiedError",
             "OutOfMemoryError")  # fmt: skip
"""Ray exceptions that mean a task's worker, node or result was lost, not that the task
failed: such a task is run again."""


MEMORY_ERROR = "ran out of memory (a MemoryError"
"""How a task (or this process) that raised :class:`MemoryError` is said to have failed."""
OUT_OF_MEMORY = (f"its worker {MEMORY_ERROR}: fewer workers, or a machine with more memory, "
                 "may give it room)")
"""Why a task that raised :class:`MemoryError` failed, in words. A worker's memory is
the machine's and its neighbours', not the task's seed: such a task is run again (on
local workers alone, once the others are done), as a lost one is, up to the retries."""


class PoolError(DominariError):
    """Workers kept dying while running a task (or the pool could not start)."""


class WorkersLost(PoolError):
    """The run failed in its workers, not in what it asked for: they died, hung, or could
    not start, more often than they are tried again (the command line ends with status 1,
    not 2: the same request may succeed on another day or machine). A task lost where a
    Python bot of the user's own plays (its ``own_code``) is a plain :class:`PoolError`:
    that bot may be what ended its worker."""


def check_backend(name: str) -> str:
    """The canonical backend name (any case); :class:`ConfigError` for an unknown one.

    >>> check_backend("Ray")
    'ray'
    """
    key = name.strip().lower()
    if key not in BACKENDS:
        raise ConfigError(f"unknown backend {name!r}: use one of {', '.join(BACKENDS)}")
    return key


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int = 1,
    backend: str = "local",
    progress: Callable[[T, R], None] | None = None,
    start_method: str | None = "spawn",
    retries: int = DEFAULT_RETRIES,
    stall: float | None = None,
    retried: Callable[[int, str], None] | None = None,
) -> list[R]:
    """Run ``fn(task)`` for every task; return the results in task order.

    ``progress(task, result)`` is called in this process as each task finishes (in
    any order), once per task. ``workers`` bounds the parallelism (local: worker
    processes, 1 runs in this process; ray: tasks running at once). ``start_method``
    is the multiprocessing start method of the local pool. A task whose worker dies
    is run again up to ``retries`` times (not with one local worker: this process is
    the worker); so is a task that raised :class:`MemoryError` in a worker (the
    machine's memory, not the task, ran short: see :data:`OUT_OF_MEMORY`); any other
    exception raised by ``fn`` propagates at once. With ``stall``, a
    task that shows no progress for ``stall`` seconds (that long since it started or
    last called :func:`beat`) is taken for hung: its worker is killed (on Ray, the task
    cancelled with ``force``) and it is run again like a task whose worker died (with
    one local worker too: the task then runs in a worker process, not in this one).
    ``retried(k, why)`` is called in this process each time task ``k`` is to be run again,
    with why in words (its worker died, hung, ran out of memory).

    Raises :class:`ConfigError` for a bad backend, worker or retry count (or Ray
    missing) and :class:`PoolError` when a task's workers died more than ``retries``
    times.
    """
    values: list[R | None] = [None] * len(tasks)

    def keep(k: int, value: R) -> None:
        values[k] = value
        if progress is not None:
            progress(tasks[k], value)

    each_result(fn, tasks, keep, workers=workers, backend=backend,
                start_method=start_method, retries=retries, stall=stall,
                retried=retried)  # fmt: skip
    return values  # type: ignore[return-value]  # every slot is filled


def each_result(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    receive: Callable[[int, R], None],
    *,
    workers: int = 1,
    backend: str = "local",
    start_method: str | None = "spawn",
    retries: int = DEFAULT_RETRIES,
    stall: float | None = None,
    retried: Callable[[int, str], None] | None = None,
) -> None:
    """Run ``fn(task)`` for every task as :func:`run_tasks` does, but keep no result:
    ``receive(k, result)`` is called in this process with task ``k``'s result as it
    arrives (in any order), once per task. What the run holds besides the results in
    flight is a few bytes a task, so that the caller's own running totals bound its
    memory; ``tasks[k]`` is asked for only as task ``k`` is sent (again, if retried).

    >>> got = {}
    >>> each_result(abs, [-1, 2, -3], got.__setitem__)
    >>> got
    {0: 1, 1: 2, 2: 3}
    """
    backend = check_backend(backend)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"the number of workers must be at least 1, not {workers!r}")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ConfigError(f"the number of retries must be 0 or more, not {retries!r}")
    stall = check_stall(stall)
    out = _Results(tasks, receive, retries, retried)
    if not tasks:
        return
    if backend == "ray":
        _run_ray(fn, out, workers, stall)
    elif (workers == 1 or len(tasks) == 1) and stall is None:
        for k in range(len(tasks)):
            try:
                value = fn(tasks[k])
            except MemoryError as exc:  # in this process: run again, it would find no
                # more room
                raise machine_failed(PoolError(
                    f"task {k + 1} of {len(tasks)} ({_describe(tasks[k])}) {MEMORY_ERROR}: a "
                    "machine with more memory may give it room)"), exc) from None
            out.store(k, value)
    else:
        _run_local(fn, out, min(workers, len(tasks), MAX_PROCESSES or workers), start_method,
                   stall)


def check_stall(stall: object) -> float | None:
    """A stall limit in seconds as a float (None: no limit); :class:`ConfigError` for one
    that is not a finite number of at least :data:`MIN_STALL` seconds.

    >>> check_stall(90)
    90.0
    """
    if stall is None:
        return None
    if isinstance(stall, bool) or not isinstance(stall, (int, float)) or not (
            0 < stall < math.inf):  # fmt: skip
        raise ConfigError(f"the stall limit must be a positive number of seconds, not "
                          f"{stall!r}")  # fmt: skip
    if stall < MIN_STALL:
        raise ConfigError(f"the stall limit must be at least {MIN_STALL:g} s (the watch "
                          f"looks a few times in it), not {stall!r}")  # fmt: skip
    return float(stall)


class _Results(Generic[T, R]):
    """Which tasks are done (each result handed over once) and the failures charged to
    tasks: a byte a task, and a dict entry a task that lost a worker."""

    def __init__(self, tasks: Sequence[T], receive: Callable[[int, R], None],
                 retries: int, retried: Callable[[int, str], None] | None = None,
                 ) -> None:  # fmt: skip
        self.tasks = tasks
        self.receive = receive
        self.retries = retries
        self.retried = retried
        self._done = bytearray(len(tasks))
        self.left = len(tasks)
        self.failures: dict[int, int] = {}

    def store(self, k: int, value: R) -> None:
        """Hand task ``k``'s result over; a second result of a retried task is dropped."""
        if self._done[k]:
            return
        self._done[k] = 1
        self.left -= 1
        self.receive(k, value)

    def done(self, k: int) -> bool:
        return bool(self._done[k])

    def charge(self, k: int, what: str) -> None:
        """Count a lost worker against task ``k``; :class:`WorkersLost` past the retries."""
        failures = self.failures[k] = self.failures.get(k, 0) + 1
        if failures > self.retries:
            times = f"{failures} time{'s' if failures != 1 else ''}"
            text = (f"task {k + 1} of {len(self.tasks)} ({_describe(self.tasks[k])}) was "
                    f"lost {times}: {what}")
            own = tuple(getattr(self.tasks[k], "own_code", ()))
            if own and what != OUT_OF_MEMORY:  # the user's code may have ended it: theirs
                raise PoolError(f"{text}; a bot of your own plays there "  # (status 2)
                                f"({', '.join(own)}): it may be what ended or stopped its "
                                f"worker")
            failed = WorkersLost(text)
            failed.machine = what == OUT_OF_MEMORY  # the machine's memory ran short
            raise failed
        if self.retried is not None:
            self.retried(k, what)


class _Queue:
    """Task indexes to send: those handed back (to the front, in order), then every index
    from ``next`` to ``stop`` not sent yet, without listing them.

    >>> q = _Queue(4)
    >>> q.popleft(), q.popleft()
    (0, 1)
    >>> q.extendleft([1]); [q.popleft() for _ in range(len(q))]
    [1, 2, 3]
    """

    def __init__(self, stop: int) -> None:
        self.back: deque[int] = deque()
        self.next = 0
        self.stop = stop

    def __len__(self) -> int:
        return len(self.back) + self.stop - self.next

    def popleft(self) -> int:
        if self.back:
            return self.back.popleft()
        if self.next >= self.stop:
            raise IndexError("pop from an empty queue")
        self.next += 1
        return self.next - 1

    def extendleft(self, ks: Sequence[int]) -> None:
        """Put ``ks`` back at the front, in their order."""
        self.back.extendleft(reversed(ks))

    def appendleft(self, k: int) -> None:
        self.back.appendleft(k)


def _describe(task: object, limit: int = 120) -> str:
    """A task in words: its ``describe()`` where it has one, else its shortened repr."""
    describe = getattr(task, "describe", None)
    text = " ".join((describe() if callable(describe) else repr(task)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}".rstrip(": ")


def _on_one_line(exc: BaseException, limit: int = 400) -> str:
    """``exc`` in one line, all of its message (a hint of several lines stays whole),
    shortened past ``limit`` characters.

    >>> _on_one_line(ValueError("Bad address. To fix this, either:\\n  1. unset it, or"))
    'ValueError: Bad address. To fix this, either: 1. unset it, or'
    """
    text = " ".join(f"{type(exc).__name__}: {exc}".split()).rstrip(": ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------ local processes
class _Watch:
    """What the parent of a local pool sees of its tasks, in memory it shares with the
    workers: a flag per task, set when the task starts, so that after a crash it knows
    which tasks were running; with a stall limit, also the time each task last showed
    progress (its start, each :func:`beat`) and the process running it."""

    def __init__(self, ctx: Any, tasks: int, stall: float | None) -> None:
        self.started = ctx.RawArray(ctypes.c_bool, tasks)
        self.stall = stall
        self.beats = ctx.RawArray(ctypes.c_double, tasks) if stall is not None else None
        self.pids = ctx.RawArray(ctypes.c_int, tasks) if stall is not None else None
        self.hung: set[int] = set()
        """The tasks whose worker this process killed for a stall."""
        self.wedged: str | None = None
        """Why this process stopped the pool with no task hung, if it did: ``"stalled"``,
        no task made progress at all; ``"start"``, no task started at all."""
        now = time.monotonic()
        self.checked = now
        """When this process last looked for stalls."""
        self.since = now
        """Progress is not asked for before this: the pool's start, or the end of a time
        this process did not look (it was stopped, Ctrl-Z, or busy)."""
        self.news: float | None = None
        """When a task last started, showed progress or finished, as far as seen here
        (None before any: the workers' start, imports and all, is given
        :attr:`start_limit`)."""

    def shared(self) -> tuple[Any, Any, Any]:
        return self.started, self.beats, self.pids

    @property
    def start_limit(self) -> float:
        """How long the workers may take to start a first task."""
        return max(self.stall or 0.0, _START_GRACE)

    def every(self) -> float | None:
        """How often to look for stalls (None: never)."""
        return None if self.stall is None else min(1.0, self.stall / 4)

    def stop_stalled(self, pool: ProcessPoolExecutor, running: Iterable[int],
                     finished: bool) -> None:  # fmt: skip
        """Kill the worker of each task of ``running`` (those sent and not finished) that
        has shown no progress for the stall limit, or every worker when no task has
        started, shown progress or finished for that long (a worker stopped while idle
        holds the task queue), or when none has started a first task within
        :attr:`start_limit` (a stopped worker, or workers stuck starting): the pool
        breaks, and the task is run again as a lost one. ``finished``: a task finished
        since the last look."""
        if self.stall is None or self.beats is None or self.pids is None:
            return
        now = time.monotonic()
        if now - self.checked > self.stall / 2:  # this process did not look for that long:
            self.since = now  # the workers' silence then says nothing (Ctrl-Z stops all)
        self.checked = now
        if finished:
            self.news = now
        for k in running:
            if not self.started[k] or k in self.hung:
                continue
            beat = self.beats[k]
            self.news = beat if self.news is None else max(self.news, beat)
            if now - max(beat, self.since) > self.stall:
                self.hung.add(k)
                with contextlib.suppress(OSError):  # it ended just now
                    os.kill(self.pids[k], KILL)
        if self.hung or self.wedged:
            return
        if self.news is not None and now - max(self.news, self.since) > self.stall:
            self.wedged = "stalled"
        elif self.news is None and now - self.since > self.start_limit:
            self.wedged = "start"
        if self.wedged:
            terminate_workers(pool, kill=True)

    def lost(self, k: int, broken: BaseException) -> str:
        """Why task ``k`` was lost, in words."""
        if k in self.hung and self.stall is not None:
            return _hung(self.stall)
        return f"its worker process died ({broken})"


def _hung(stall: float) -> str:
    """Why a task stopped as hung was lost, in words."""
    return (f"it showed no progress for {stall:g} s, so its worker was taken for hung and "
            f"stopped (a game that takes longer needs a longer --stall-timeout)")  # fmt: skip


_SHARED: tuple[Any, Any, Any] | None = None
"""In a local worker process: the :class:`_Watch` arrays it shares with its parent."""
_RUNNING = -1
"""In a local worker process: the task it runs (-1: none)."""


def _init_worker(shared: tuple[Any, Any, Any], parent: int) -> None:
    global _SHARED
    _SHARED = shared
    start_worker(parent, DEAF_WORKER)  # Ctrl-C's, a closed terminal's: the parent stops
    # its workers


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (the process that removes a run's
    shared memory and semaphores if it dies) deaf to SIGHUP, as it is to Ctrl-C and
    SIGTERM: a closed terminal hangs up every process of its session, and a tracker
    killed so was started again as the run stopped, which then printed a ``KeyError``
    traceback for each of the run's semaphores it had not seen. SIGHUP is blocked while
    it starts (it keeps the mask) and comes to this process after, if it came."""
    if not HANG_UP:  # no SIGHUP, no POSIX resource tracker either
        return
    from multiprocessing import resource_tracker

    with blocked(HANG_UP):
        resource_tracker.ensure_running()


@contextlib.contextmanager
def blocked(signals: Iterable[int]) -> Iterator[None]:
    """Block ``signals`` in this thread for the ``with`` block: a process started meanwhile
    keeps the mask (so it is born deaf to them until it says otherwise), and a signal that
    came meanwhile reaches this process once the block ends. A no-op where the platform
    has no signal masks (Windows)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def beat() -> None:
    """Say that the task this process runs is making progress (a game finished): with a
    stall limit, a task that shows none for that long is taken for hung. Cheap, and a
    no-op outside a watched worker process."""
    if _SHARED is not None and _SHARED[1] is not None and _RUNNING >= 0:
        _SHARED[1][_RUNNING] = time.monotonic()
    elif _RAY_BEAT is not None:
        _ray_beat(_RAY_BEAT)


HANG_UP: tuple[int, ...] = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
"""SIGHUP (a closed terminal's, a dropped ssh session's) where the platform has it."""


KILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)
"""The signal that stops a stalled worker where it is: SIGKILL, or on Windows, which has
none, SIGTERM (``os.kill`` ends the process there, as TerminateProcess does)."""

MAX_PROCESSES: int | None = 61 if sys.platform == "win32" else None
"""The most worker processes one pool may have, where the system bounds them (Windows
waits on at most 61); more are asked for, these serve (results are the same)."""


DEAF_WORKER: tuple[int, ...] = (signal.SIGINT, *HANG_UP)
"""The signals a pool's worker ignores: Ctrl-C's and a closed terminal's reach the whole
process group, and the parent stops its workers itself. A worker is born with them
blocked (:func:`blocked` around the pool's start), so that one that comes while the
worker starts, before it can ignore them, does not print a traceback of its start-up."""


def start_worker(parent: int, deaf_to: Iterable[int] = ()) -> None:
    """In a worker process as it starts: ignore the signals ``deaf_to``, which reach a
    whole process group where its parent stops its workers itself (one that came while
    they were blocked, as the worker started, is dropped with them), and end once the
    process ``parent`` that started it is gone (:func:`watch_parent`)."""
    deaf = tuple(deaf_to)
    for sig in deaf:
        signal.signal(sig, signal.SIG_IGN)
    if deaf and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, deaf)
    watch_parent(parent)


def watch_parent(parent: int) -> None:
    """In a worker process: end it once the process ``parent`` that started it is gone
    (killed with SIGKILL, say): an orphan would wait on its task queue forever, holding
    the terminal. A daemon thread checks every :data:`_WATCH_EVERY` seconds that the
    process that forked this one is still its parent and, where multiprocessing keeps a
    pipe to ``parent`` (with the ``forkserver`` start method, not the process that
    forked this one), that the pipe is still open."""
    origin = multiprocessing.parent_process()
    if origin is not None and origin.pid != parent:
        origin = None
    forked_by = os.getppid() if origin is not None else parent

    def watch() -> None:
        while os.getppid() == forked_by and (origin is None or origin.is_alive()):
            time.sleep(_WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="dominari-parent-watch", daemon=True).start()


def terminate_workers(pool: ProcessPoolExecutor, wait: float = 5.0,
                      kill: bool = False) -> None:
    """Stop the worker processes of ``pool`` (their tasks' results are not wanted) with
    SIGTERM, or SIGKILL if ``kill`` (for workers that ignore SIGTERM), and wait up to
    ``wait`` seconds for them to be gone, so that none is still writing a file when the
    caller cleans up after the run. A worker still there then (a stopped process keeps a
    SIGTERM pending, and the interpreter would wait for it at exit) is killed."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        with contextlib.suppress(Exception):  # already gone
            if kill:
                proc.kill()
            else:
                proc.terminate()
    end = time.monotonic() + wait
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(max(0.0, end - time.monotonic()))
    for proc in procs:
        with contextlib.suppress(Exception):
            if proc.is_alive():
                proc.kill()
                proc.join(5.0)  # at once, unless the machine is busy


def _call(fn: Callable[[T], R], k: int, task: T) -> R:
    """Run task ``k`` in a worker process, marking it started first."""
    global _RUNNING
    if _SHARED is not None:
        started, beats, pids = _SHARED
        if beats is not None:
            beats[k] = time.monotonic()
            pids[k] = os.getpid()
        started[k] = True  # last: the parent reads the others once it is set
    _RUNNING = k
    try:
        return fn(task)
    finally:
        _RUNNING = -1


STDIN_MAIN = ("worker processes cannot be started from a script read from standard input "
              "(python - < script.py): each starts by reading the main script again, and "
              "there is none: save it to a file and run that, or use one worker")
"""Why a pool is not started where the main module is standard input (the library user's
audit: four tracebacks of the workers' start, then "worker processes died 4 times")."""


def _run_local(fn: Callable[[T], R], out: _Results[T, R], workers: int,
               start_method: str | None, stall: float | None = None) -> None:  # fmt: skip
    """Run the tasks on a pool of ``workers`` processes, rebuilt when a worker dies.

    A dead worker breaks the whole pool: every unfinished task is lost. Tasks that had
    not started go back to the queue. Those that were running (the suspects; which one
    killed its worker is not known) are each charged a failure and run again alone, one
    at a time, so that a task that keeps killing its worker is named and the others are
    not charged again. Deaths with no task running (a worker that could not start) are
    counted apart and bounded by the same number of retries. With ``stall``, a task that
    shows no progress for that long has its worker killed (:class:`_Watch`), and is
    charged and run again the same way.
    """
    ctx = multiprocessing.get_context(start_method)
    main = sys.modules.get("__main__")
    if ctx.get_start_method() != "fork" and getattr(main, "__file__", None) == "<stdin>":
        raise ConfigError(STDIN_MAIN)
    start_resource_tracker()
    todo = _Queue(len(out.tasks))
    alone: deque[int] = deque()  # suspects of a crash, to be run one at a time
    idle_deaths = 0
    while out.left:
        pool: ProcessPoolExecutor | None = None
        try:
            watch = _Watch(ctx, len(out.tasks), stall)
            started = watch.started
            with blocked(DEAF_WORKER):  # (the workers are born deaf; this process hears
                # a Ctrl-C that came meanwhile once they are started, just below)
                pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                           initializer=_init_worker,
                                           initargs=(watch.shared(), os.getpid()))
                _launch_all(pool)
        except BaseException as exc:
            if pool is not None:  # stopped as they start: gone before this process, which
                # would remove the semaphores they are still reading (a traceback each)
                terminate_workers(pool, kill=True)
                pool.shutdown(wait=False, cancel_futures=True)
            if isinstance(exc, OSError):  # out of file descriptors or memory: too many
                raise WorkersLost(f"cannot start a pool of {workers} worker processes "
                                  f"({exc.strerror or exc}): use fewer workers") from None
            raise
        finished = False
        broken: BrokenProcessPool | None = None
        left = out.left
        try:
            broken, lost = _local_round(fn, out, pool, todo, alone,
                                        workers * _QUEUED_PER_WORKER, watch)  # fmt: skip
            finished = True
        finally:  # every result is in, or the run failed: do not wait for the workers
            if not finished or broken is not None or stall is not None:
                # An error or an interrupt: stop the tasks running now too. A broken pool:
                # its own clean-up can miss a worker that was still starting when another
                # died (added to the pool after it stopped the others), which would then
                # wait for a task forever and this process for it at exit. With a stall
                # limit, the idle workers of a finished run too: one stopped while idle
                # would keep this process from exiting (killed: they have nothing left
                # to do, and a stopped one would keep a SIGTERM pending).
                terminate_workers(pool, kill=finished and broken is None)
            manager = getattr(pool, "_executor_manager_thread", None)  # gone at shutdown
            pool.shutdown(wait=False, cancel_futures=True)
            if not finished and manager is not None:  # the process may be exiting
                _join_manager(manager)
        if broken is None:
            continue
        suspects = sorted(k for k in lost if started[k] and not out.done(k))
        waiting = sorted(k for k in lost if not started[k] and not out.done(k))
        todo.extendleft(waiting)
        if out.left < left:  # the workers ran tasks: deaths before now were not a pattern
            idle_deaths = 0
        if not suspects:
            idle_deaths += 1
            if idle_deaths > out.retries and watch.wedged == "start":
                raise WorkersLost(f"no worker process started a task within "
                                  f"{watch.start_limit:g} s, {idle_deaths} times, and the "
                                  f"workers were stopped each time (a worker stopped, or "
                                  f"workers stuck starting: a slow import, a network "
                                  f"folder that does not answer)")  # fmt: skip
            if idle_deaths > out.retries and watch.wedged:
                raise WorkersLost(f"no task made progress for {stall:g} s, {idle_deaths} "
                                  "times, and the workers were stopped each time (a worker "
                                  "stopped while idle holds the others up)")  # fmt: skip
            if idle_deaths > out.retries:
                why = _main_guard(ctx.get_start_method())
                died = WorkersLost if not why else PoolError  # (a script's own mistake)
                raise died(f"worker processes died {idle_deaths} times before running a "
                           f"task: {broken}{why}")  # fmt: skip
        if watch.hung:  # a stall: the tasks beside the hung one are not suspects
            todo.extendleft([k for k in suspects if k not in watch.hung])
            suspects = [k for k in suspects if k in watch.hung]
        for k in suspects:
            out.charge(k, watch.lost(k, broken))
        alone.extendleft(reversed(suspects))


def _main_guard(method: str) -> str:
    """The likely cause of workers that die before running a task, where they import the
    calling script (``spawn``, ``forkserver``) and that script has no
    ``if __name__ == "__main__":`` (not the ``dominari`` command's, nor ``python -m``, nor
    a notebook), else ``""``.

    >>> _main_guard("fork")
    ''
    """
    if method not in ("spawn", "forkserver"):
        return ""
    main = sys.modules.get("__main__")
    script = getattr(main, "__file__", None)
    if not script or getattr(main, "__spec__", None) is not None:
        return ""
    try:
        with open(script, encoding="utf-8", errors="replace") as f:
            if "__main__" in f.read():  # guarded: the workers died of something else
                return ""
    except OSError:
        return ""
    return (f" (likely cause: worker processes are started with {method!r} and import "
            f"the calling script, so a script must call the simulation under "
            f"'if __name__ == \"__main__\":')")


def _launch_all(pool: ProcessPoolExecutor) -> None:
    """Start every worker of ``pool`` now, before its first task. Otherwise ``submit``
    starts one as it finds none idle (spawn and forkserver pools, CPython 3.11), and one
    started while another worker dies races with the pool's manager thread, which is
    going over the workers to stop them: it fails with "dictionary changed size during
    iteration" and prints that traceback on the terminal (the run itself goes on, whole).
    A pool rebuilt after a crash ran into it often: its first task runs alone, so its
    second worker was started later, just as a task could kill the first."""
    launch = getattr(pool, "_launch_processes", None)  # the pool's own way, if it has it
    if callable(launch):
        launch()


def _join_manager(thread: threading.Thread, wait: float = 5.0) -> None:
    """Wait up to ``wait`` seconds for the thread that managed a pool (its workers gone)
    to end. A process that exits while it is ending can have Python's exit hook wake it
    through the pipe it is closing, and print an ``OSError`` traceback after the run's
    one-line message (CPython 3.11)."""
    if thread is not threading.current_thread():
        thread.join(wait)


def _local_round(fn: Callable[[T], R], out: _Results[T, R], pool: ProcessPoolExecutor,
                 todo: _Queue, alone: deque[int], window: int, watch: _Watch,
                 ) -> tuple[BrokenProcessPool | None, list[int]]:  # fmt: skip
    """Feed ``pool`` until every task is done or a worker dies; the error that broke the
    pool (None if it did not break) and the tasks lost with it.

    Up to ``window`` tasks from ``todo`` are in flight; a task from ``alone`` runs with
    none beside it. ``watch`` stops the workers of stalled tasks.
    """
    pending: dict[Future[R], int] = {}
    lost: list[int] = []
    broken: BrokenProcessPool | None = None
    solo = False  # a task of ``alone`` is running
    while (todo or alone or pending) and broken is None:
        queue: list[int] = []
        if not pending and alone:
            queue, solo = [alone.popleft()], True
        elif not solo:
            queue = [todo.popleft() for _ in range(min(len(todo), window - len(pending)))]
        for k in queue:
            try:
                pending[pool.submit(_call, fn, k, out.tasks[k])] = k
            except BrokenProcessPool as exc:
                broken = exc
                lost.append(k)
            except OSError as exc:
                # The pool broke while it was starting a replacement worker: the executor's
                # pipe is already closed (Python raises this instead of BrokenProcessPool).
                broken = BrokenProcessPool(f"a worker could not be started: {exc}")
                lost.append(k)
        if not pending:
            break
        done, _ = wait(pending, timeout=watch.every(), return_when=FIRST_COMPLETED)
        for fut in done:
            k = pending.pop(fut)
            try:
                value = fut.result()
            except BrokenProcessPool as exc:
                broken = exc
                lost.append(k)
                continue
            except MemoryError:  # the machine's memory, not the seed: run again, alone,
                # once the others are done (the most memory it can have)
                out.charge(k, OUT_OF_MEMORY)
                alone.append(k)
                continue
            out.store(k, value)
        if broken is None:  # only the tasks still running: a finished one's worker is
            watch.stop_stalled(pool, pending.values(), bool(done))  # running another
        solo = solo and bool(pending)
    for fut, k in pending.items():  # the pool broke: these fail too (or just finished)
        try:
            out.store(k, fut.result())
        except BrokenProcessPool:
            lost.append(k)
    return broken, lost


# ---------------------------------------------------------------------------- Ray
def init_ray(num_cpus: int | None = None) -> Any:
    """The ``ray`` module, initialised as the ``ray`` backend does it.

    If this process has not initialised Ray yet: with ``RAY_ADDRESS`` set, connect to
    that cluster (``auto`` finds one started on this machine with ``ray start``); else
    start a local cluster of ``num_cpus`` CPUs (None: one per core) for this process,
    which Ray stops when the process exits. No dashboard, no worker logs forwarded.
    Threads share the session: it is begun once, under :data:`_RAY_LOCK`, by the main
    thread or one that lasts as long as the process (:func:`_in_lasting_thread`).

    Raises :class:`ConfigError` if Ray is not installed and :class:`PoolError` if no
    cluster can be started or reached.
    """
    try:
        import ray
    except ImportError:
        raise ConfigError(RAY_MISSING) from None
    with _RAY_LOCK:  # another thread's ray.init would fail, and its clean-up end this one
        if not ray.is_initialized():
            if threading.current_thread() is threading.main_thread():
                _begin_ray(ray, num_cpus)
            else:
                _in_lasting_thread(lambda: _begin_ray(ray, num_cpus))
    return ray


_STARTER: list[queue.SimpleQueue[Any]] = []
"""The queue of :func:`_in_lasting_thread`'s thread, once it is started."""


def _in_lasting_thread(job: Callable[[], None]) -> None:
    """Do ``job`` in a thread that lasts as long as this process (started the first time),
    raising what it raises. Ray binds the processes of a local cluster it starts to the
    thread that starts them (Linux's parent-death signal, which follows the thread, not
    the process): a cluster begun by a run's own thread was killed as that thread ended,
    under any other run on it; Ray then ended this process, its agents left running."""
    if not _STARTER:
        jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=_do_jobs, args=(jobs,), name="dominari-ray-start",
                         daemon=True).start()  # fmt: skip
        _STARTER.append(jobs)
    done: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
    _STARTER[0].put((job, done))
    error = done.get()
    if error is not None:
        raise error


def _do_jobs(jobs: queue.SimpleQueue[Any]) -> None:
    """:func:`_in_lasting_thread`'s thread: each job done, what it raised (or None) put on
    its own queue."""
    while True:
        job, done = jobs.get()
        try:
            job()
        except BaseException as exc:  # handed over to the thread that waits for it
            done.put(exc)
        else:
            done.put(None)


def _begin_ray(ray: Any, num_cpus: int | None) -> None:
    """:func:`init_ray`'s start of a session, under :data:`_RAY_LOCK`."""
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "logging_level": logging.ERROR}  # fmt: skip
    address = os.environ.get("RAY_ADDRESS", "").strip()
    if not address:
        options.update(address="local", num_cpus=num_cpus)
    reached = bool(address) and _check_reachable(address)
    handlers = _signal_handlers()
    try:
        try:
            ray.init(**options)
        except BaseException as exc:  # whatever Ray began is stopped, a stop too
            with contextlib.suppress(Exception):
                ray.shutdown()
            term = handlers.get(signal.SIGTERM)
            if isinstance(exc, SystemExit) and exc.code == signal.SIGTERM and \
                    callable(term):  # Ray's SIGTERM handler, set while it starts
                term(signal.SIGTERM, None)  # the run stops as on any backend
            raise
        _RAY_SESSION["ours"] = True
    except Exception as exc:  # a bad RAY_ADDRESS, a cluster that cannot start
        if not address:
            raise WorkersLost(f"could not start a local Ray cluster: "
                              f"{_on_one_line(exc)}") from exc  # fmt: skip
        why = _on_one_line(exc).split(" Please specify the one to connect to", 1)[0]
        if reached and not os.environ.get("RAY_AUTH_MODE", "").strip():
            raise PoolError(f"RAY_ADDRESS={address}: a server answers there, but Ray "
                            f"could not join it as a cluster ({why}); {_RAY_AUTH}") \
                from exc  # fmt: skip
        raise PoolError(f"no Ray cluster answers at RAY_ADDRESS={address} ({why}); "
                        f"{_RAY_FIX}") from exc  # fmt: skip
    finally:
        _restore_signal_handlers(handlers)


_RAY_SESSION = {"ours": False, "runs": 0}
"""Whether this process's Ray session is one :func:`init_ray` began (a run stopped short
ends it), not its caller's; how many runs (of any thread) use it now."""
_RAY_LOCK = threading.RLock()
"""Held while this process's Ray session is begun or ended, and while a run joins or
leaves it (:data:`_RAY_SESSION`): runs of several threads share one session."""


def _forget_ray_threads() -> None:
    """In a forked child: the lock and the starting thread were its parent's (a lock held
    by a thread that is not there, a queue no thread reads)."""
    global _RAY_LOCK
    _RAY_LOCK = threading.RLock()
    _STARTER.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_ray_threads)


def end_own_ray() -> None:
    """End the Ray session :func:`init_ray` began in this process, if any (a caller's own
    session is left alone), unless a run of this process (another thread's) still uses
    it. Ray's threads print what its cluster reports, such as a lost worker, to
    standard output, some of it late (repeated messages are held back and summed): a
    command ends the session before it prints its results, so that nothing of Ray's
    follows them."""
    with _RAY_LOCK:
        if _RAY_SESSION["ours"] and not _RAY_SESSION["runs"]:
            import ray

            with contextlib.suppress(Exception):
                ray.shutdown()
            _RAY_SESSION["ours"] = False


def _join_ray(workers: int) -> Any:
    """The ``ray`` module (:func:`init_ray`), its session counted as used by one more run
    until :func:`_leave_ray`: no other run ends it before then."""
    with _RAY_LOCK:
        ray = init_ray(workers)
        _RAY_SESSION["runs"] += 1
    return ray


def _leave_ray(stopped: bool) -> None:
    """A run no longer uses the session; if it was ``stopped`` short and was the last run
    of Dominari's own session, the session ends (:func:`end_own_ray`)."""
    with _RAY_LOCK:
        _RAY_SESSION["runs"] -= 1
        if stopped:
            end_own_ray()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, *HANG_UP)
"""The signals that stop a run (Ctrl-C, SIGTERM, a hang-up): they reach a whole process
group, whose workers ignore them (their parent stops them)."""


def _signal_handlers() -> dict[int, Any]:
    """This process's Python handlers of Ctrl-C, SIGTERM and SIGHUP (none outside the main
    thread, where they cannot be set)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}


def _restore_signal_handlers(handlers: dict[int, Any]) -> None:
    """Put back the handlers that ``ray.init`` replaced: its own SIGTERM handler exits
    with status 15 and a crash dump of its native handler, where a run stops as it does
    on any backend (``dominari: terminated``, its workers stopped, its files whole)."""
    for sig, handler in handlers.items():
        if handler is not None:
            signal.signal(sig, handler)


_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""An HTTP/2 client's preface and an empty SETTINGS frame: a gRPC server (a Ray head's
GCS) answers with a SETTINGS frame of its own."""


_RAY_FIX = ("start one with 'ray start --head' and give its address (host:6379 by default), "
            "or unset RAY_ADDRESS to start a local one")
"""What to do when ``RAY_ADDRESS`` names no cluster (Ray's own advice names a flag of its
command line, which Dominari does not have)."""
_RAY_AUTH = ("a cluster started by 'ray start' asks for its token (Ray's token "
             "authentication, on by default): set RAY_AUTH_MODE=token here too, with the "
             "token in ~/.ray/auth_token or RAY_AUTH_TOKEN, or give RAY_ADDRESS=auto on the "
             "head's machine; else, is it a Ray head's GCS port (6379 by default)?")
"""What to do when a gRPC server answers at ``RAY_ADDRESS`` but Ray cannot join it: most
often a cluster that wants a token this process does not send."""


def _check_reachable(address: str, timeout: float = 5.0) -> bool:
    """Fail fast when ``RAY_ADDRESS`` names a ``host:port`` where no Ray cluster answers:
    where nothing listens, or where something that is not a gRPC server does (a web
    server, Ray's dashboard). Ray itself would wait for minutes, retrying, deaf to
    Ctrl-C. True if a gRPC server answered there; False for the addresses Ray checks
    (``auto``, ``local`` and ``ray://``)."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return False
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)),
                                      timeout) as conn:  # fmt: skip
            conn.settimeout(timeout)
            conn.sendall(_HTTP2_HELLO)
            answer = b""
            while len(answer) < 9:
                chunk = conn.recv(9 - len(answer))
                if not chunk:
                    break
                answer += chunk
    except TimeoutError:
        raise PoolError(f"no Ray cluster answers at RAY_ADDRESS={address} (something "
                        f"listens there but says nothing); {_RAY_FIX}") from None  # fmt: skip
    except OSError as exc:
        raise PoolError(f"no Ray cluster answers at RAY_ADDRESS={address} "
                        f"({exc.strerror or exc}); {_RAY_FIX}") from None  # fmt: skip
    if len(answer) < 9 or answer[3] != 4:  # not an HTTP/2 SETTINGS frame
        raise PoolError(f"no Ray cluster answers at RAY_ADDRESS={address} (something "
                        f"listens there, but not a Ray head's GCS: the dashboard's or "
                        f"another server's port?); {_RAY_FIX}")  # fmt: skip
    return True


_RAY_BEAT: list[Any] | None = None
"""In a Ray worker running a watched task: the :class:`_Beats` actor, the task's key,
how often to send a beat, and when the last was sent."""


_RAY_WATCHED_BY: str | None = None
"""In a Ray worker: the run whose watch actor this process has reached already."""


def _apply(fn: Callable[[T], R], task: T,
           watch: tuple[Any, int, float, str] | None = None, cwd: str | None = None) -> R:
    """``fn(task)``, as a Ray task (``ray.remote`` takes only Python functions), in the
    folder ``cwd`` where this worker has it (the folder of the process that began the
    run: the relative paths a run names, a bot file, a strategy file, ``--data``, are
    read from there, as in a local worker, not from the folder ``ray start`` ran in). With
    ``watch`` (the run's :class:`_Beats` actor, this try's key, how often to send, the
    run's token), the task's start and then its :func:`beat` calls are sent to the actor.

    The first task of a run in this process waits until the actor has its start: the
    first call to an actor finds and connects to it, which can take a few tenths of a
    second, and a worker stopped (SIGSTOP) meanwhile would go unwatched. Later starts
    are not waited for (a round trip a task cost some 7% of a run of short tasks): Ray's
    own threads send them within a millisecond, whatever the task does then."""
    global _RAY_BEAT, _RAY_WATCHED_BY
    if cwd is not None:
        _enter(cwd)
    if watch is None:
        return fn(task)
    actor, key, every, run = watch
    started = actor.beat.remote(key)
    if run != _RAY_WATCHED_BY:
        import ray

        with contextlib.suppress(ray.exceptions.RayError):  # slow or restarting: the
            ray.get(started, timeout=_START_WAIT)  # first beat will do
        _RAY_WATCHED_BY = run
    _RAY_BEAT = [actor, key, every, time.monotonic()]
    try:
        return fn(task)
    finally:
        _RAY_BEAT = None


def _not_taken(k: int, tasks: int, exc: BaseException) -> PoolError:
    """The error of a Ray worker that could not load task ``k`` (of ``tasks``): a module
    its function or arguments need is missing there (Ray's ``RaySystemError``)."""
    return PoolError(f"a Ray worker could not take task {k + 1} of {tasks} "
                     f"({_first_line(exc)}): Ray could not run it there; where a module is "
                     "missing, install Dominari, the version this process runs, where each "
                     "Ray worker runs (and the module of a function of your own run on "
                     "Ray)")  # fmt: skip


def _enter(folder: str) -> None:
    """Work in ``folder`` where this process has it (a Ray worker of a node that lacks it
    stays where it is: its paths are then the user's to share, as the README says)."""
    with contextlib.suppress(OSError):  # (no such folder here, or this one is gone)
        if os.getcwd() != folder and os.path.isdir(folder):
            os.chdir(folder)


def _ray_beat(state: list[Any]) -> None:
    """Send a beat to the watch actor unless one went less than its interval ago (the
    actor allows for that interval)."""
    now = time.monotonic()
    if now - state[3] >= state[2]:
        state[3] = now
        state[0].beat.remote(state[1])


class _Beats:
    """A Ray actor that keeps, by its own clock, when each try of a task last showed
    progress (its start and its beats, sent by the workers: clocks of other nodes are not
    compared), and says which have shown none for the stall limit (plus ``every``, the
    most a worker holds a beat back).

    A time in which the actor itself handled nothing for half the limit (it was stopped,
    or starved) says nothing of the workers: their beats may wait in its queue, so
    silence is counted from its end. A restarted actor has a new ``epoch``: the caller
    then tells it again which tries had started (:meth:`restore`).

    >>> beats = _Beats(stall=60.0, every=1.0); beats.beat(7)
    >>> beats.quiet([7, 8], reset=False)[1:]
    ([7], [])
    """

    def __init__(self, stall: float, every: float) -> None:
        self.limit = stall + every
        self.gap = stall / 2
        self.epoch = os.urandom(8).hex()
        self.last: dict[int, float] = {}
        self.since = self.handled = time.monotonic()

    def _now(self) -> float:
        now = time.monotonic()
        if now - self.handled > self.gap:  # this actor did not run for a while
            self.since = now
        self.handled = now
        return now

    def beat(self, key: int) -> None:
        self.last[key] = self._now()

    def restore(self, keys: list[int]) -> None:
        """Tries known to have started (before a restart): their silence counts from now."""
        now = self._now()
        for key in keys:
            self.last.setdefault(key, now)

    def quiet(self, running: list[int], reset: bool) -> tuple[str, list[int], list[int]]:
        """This actor's epoch, the tries of ``running`` that have started, and those of
        them that have shown no progress for the limit; tries not running are forgotten.
        ``reset``: the caller did not look for a while, so silence before now says
        nothing (its own processes were stopped too)."""
        now = self._now()
        if reset:
            self.since = now
        keep = set(running)
        self.last = {key: t for key, t in self.last.items() if key in keep}
        quiet = [key for key, t in self.last.items() if now - max(t, self.since) > self.limit]
        return self.epoch, list(self.last), quiet


class _RayWatch:
    """The caller's side of a Ray run's stall limit: its :class:`_Beats` actor, asked
    every so often which running tries are hung; those are cancelled with ``force``
    (their worker processes end) and, once Ray says so, lost."""

    def __init__(self, ray: Any, stall: float) -> None:
        self.ray = ray
        self.stall = stall
        self.every = min(1.0, stall / 4)
        self.actor: Any = ray.remote(_Beats).options(
            num_cpus=0, max_restarts=-1, max_task_retries=-1).remote(stall, self.every)
        self.run = os.urandom(8).hex()
        """This run's token (a worker waits for its first start in a run to arrive)."""
        self.checked = time.monotonic()
        self.hung: dict[Any, float] = {}
        """The refs cancelled as hung, and when."""
        self.epoch: str | None = None
        self.started: set[int] = set()
        """The tries the actor said had started (told again to a restarted actor)."""
        self.quiet_errors = tuple(getattr(ray.exceptions, name) for name in (
            "GetTimeoutError", "ActorDiedError", "ActorUnavailableError")
            if hasattr(ray.exceptions, name))  # fmt: skip

    def for_try(self, key: int) -> tuple[Any, int, float, str]:
        """What try ``key`` of a task needs to be watched (:func:`_apply`'s ``watch``)."""
        return self.actor, key, self.every, self.run

    def stop_stalled(self, pending: dict[Any, tuple[int, int]]) -> list[Any]:
        """Cancel the running tries that show no progress; the refs cancelled longer than
        :data:`_CANCEL_GRACE` ago and still not ended (to give up for lost)."""
        now = time.monotonic()
        if now - self.checked < self.every:
            return []
        reset = now - self.checked > self.stall / 2
        self.checked = now
        keys = {key: ref for ref, (_, key) in pending.items() if ref not in self.hung}
        try:
            epoch, started, quiet = self.ray.get(
                self.actor.quiet.remote(list(keys), reset), timeout=max(10.0, self.stall))
        except self.quiet_errors:  # the actor is being restarted: look again later
            epoch, started, quiet = self.epoch, [], []
        self.started.intersection_update(keys)
        if epoch != self.epoch:
            if self.epoch is not None and self.started:  # a restarted actor knows none
                self.actor.restore.remote(sorted(self.started))
            self.epoch = epoch
        self.started.update(started)
        for key in quiet:
            self.hung[keys[key]] = now
            with contextlib.suppress(Exception):  # it ended just now
                self.ray.cancel(keys[key], force=True)
        return [ref for ref, t in self.hung.items()
                if ref in pending and now - t > _CANCEL_GRACE]  # fmt: skip

    def close(self) -> None:
        """Let the actor go: it ends once no task holds it (killed, it would have beats
        still on their way retried, and say so on the terminal)."""
        self.actor = None


class _Head:
    """Looks, every :data:`_HEAD_EVERY` seconds, whether the head of the Ray cluster a run
    uses (its GCS) still takes a connection. Where it has gone (the cluster stopped, its
    machine lost), Ray waits for it a minute, then ends the process in its own words, with
    no word of the run; the run fails once the head has failed :data:`_HEAD_MISSES` looks
    in a row, saying so (a journal keeps the games played)."""

    def __init__(self, ray: Any) -> None:
        try:
            address = str(ray.get_runtime_context().gcs_address)
        except Exception:  # an older Ray, or none known: not looked at
            address = ""
        host, sep, port = address.rpartition(":")
        self.where = (host.strip("[]"), int(port)) if sep and port.isdigit() else None
        self.address = address
        self.last = time.monotonic()
        self.misses = 0

    def look(self) -> None:
        """Look, if it is time; :class:`WorkersLost` once the head has gone."""
        if self.where is None or time.monotonic() - self.last < _HEAD_EVERY:
            return
        try:
            with socket.create_connection(self.where, _HEAD_WAIT):
                pass
        except OSError as exc:
            self.misses += 1
            if self.misses >= _HEAD_MISSES:
                raise WorkersLost(f"the head of the Ray cluster ({self.address}) stopped "
                                  f"answering during the run ({exc.strerror or exc}): the "
                                  "cluster stopped, or its machine is gone; the games being "
                                  "played are lost") from None  # fmt: skip
        else:
            self.misses = 0
        self.last = time.monotonic()


def _run_ray(fn: Callable[[T], R], out: _Results[T, R], workers: int,
             stall: float | None = None) -> None:  # fmt: skip
    """Run the tasks as Ray tasks, ``workers`` at a time, retrying lost ones here
    (Ray's own retries are off, so that every failure is counted in one place). With
    ``stall``, a task that shows no progress for that long is cancelled and lost."""
    todo = _Queue(len(out.tasks))
    pending: dict[Any, tuple[int, int]] = {}  # a try's ref: its task, its key
    watch: _RayWatch | None = None
    tries = 0
    stopped = False
    ray = _join_ray(workers)
    try:
        lost_types = tuple(getattr(ray.exceptions, name) for name in _RAY_LOST
                           if hasattr(ray.exceptions, name))  # fmt: skip
        task_error = ray.exceptions.RayTaskError
        cancelled = ray.exceptions.TaskCancelledError
        system_error = getattr(ray.exceptions, "RaySystemError", ())  # (() catches none)
        remote = ray.remote(_apply).options(max_retries=0, retry_exceptions=False)
        try:
            cwd: str | None = os.getcwd()
        except OSError:  # this process's folder is gone: the workers stay where they are
            cwd = None
        watch = _RayWatch(ray, stall) if stall is not None else None
        head = _Head(ray)
        every = _HEAD_EVERY if watch is None else min(watch.every, _HEAD_EVERY)
        while todo or pending:
            while todo and len(pending) < workers:
                k = todo.popleft()
                tries += 1
                watched = None if watch is None else watch.for_try(tries)
                pending[remote.remote(fn, out.tasks[k], watched, cwd)] = (k, tries)
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=every)
            head.look()
            for ref in ready:
                k, _ = pending.pop(ref)
                try:
                    value = ray.get(ref)
                except task_error as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, system_error):  # the worker could not load it
                        raise _not_taken(k, len(out.tasks), cause) from None
                    if isinstance(cause, lost_types):
                        out.charge(k, f"its Ray worker was lost ({_first_line(cause)})")
                        todo.appendleft(k)
                        continue
                    if isinstance(cause, MemoryError):  # the worker's memory, not the seed
                        out.charge(k, OUT_OF_MEMORY)
                        todo.appendleft(k)
                        continue
                    if isinstance(cause, Exception):
                        raise cause from exc  # the task's own error, as raised in the worker
                    raise
                except lost_types as exc:
                    out.charge(k, f"its Ray worker was lost ({_first_line(exc)})")
                    todo.appendleft(k)
                    continue
                except system_error as exc:  # the worker could not load the task
                    raise _not_taken(k, len(out.tasks), exc) from None
                except cancelled:
                    if watch is None or ref not in watch.hung:
                        raise
                    out.charge(k, _hung(watch.stall))
                    todo.appendleft(k)
                    continue
                finally:
                    if watch is not None:
                        watch.hung.pop(ref, None)
                out.store(k, value)
            if watch is not None:
                for ref in watch.stop_stalled(pending):  # cancelled, yet not ended
                    k, _ = pending.pop(ref)
                    del watch.hung[ref]
                    out.charge(k, _hung(watch.stall))
                    todo.appendleft(k)
    except BaseException:
        stopped = True
        if watch is not None:
            watch.close()
        if not _RAY_SESSION["ours"]:  # the caller's own session: only this run's tasks are
            for ref in pending:  # stopped
                with contextlib.suppress(Exception):  # already finished or gone
                    ray.cancel(ref)
        # Dominari's own (counted in, so not ended meanwhile): ended with this run's tasks
        # if no other run uses it, else they run out (cancelling them raced with their
        # replies: Ray crashed, and would take the other runs with it)
        raise
    finally:
        if watch is not None:
            watch.close()
        _leave_ray(stopped)  # counted out whatever stops the stopping
