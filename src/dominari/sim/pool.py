"""Pools that run batches of seeded games: one interface, several backends.

A *task* is a picklable value (a :class:`~dominari.sim.runner.Chunk` of games, a
tournament shard …) and a *function* a top-level function of one task that returns a
picklable result. :func:`run_tasks` runs every task once and returns the results in
task order, whatever the backend or the number of workers, so a simulation's result
depends only on its seed.

Backends (:data:`BACKENDS`):

- ``local`` (the default): this process for one worker, else a pool of local worker
  processes (``--workers N``).
- ``ray``: a Ray cluster (the optional ``cluster`` extra); ``ray.init()`` connects to
  ``RAY_ADDRESS`` or starts a local cluster.

>>> run_tasks(abs, [-1, 2, -3])
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

from dominari.core.errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS: tuple[str, ...] = ("local", "ray")
"""The pool backends by name."""


def check_backend(name: str) -> str:
    """The canonical backend name (any case); :class:`ConfigError` for an unknown one."""
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
) -> list[R]:
    """Run ``fn(task)`` for every task; return the results in task order.

    ``progress(task, result)`` is called in this process as each task finishes (in
    any order). ``workers`` bounds the parallelism; ``start_method`` is the
    multiprocessing start method of the local pool.
    """
    backend = check_backend(backend)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"the number of workers must be at least 1, not {workers!r}")
    results: list[R | None] = [None] * len(tasks)
    if backend == "ray":
        raise ConfigError("the ray backend is not available yet")
    if workers == 1 or len(tasks) <= 1:
        for k, task in enumerate(tasks):
            results[k] = res = fn(task)
            if progress is not None:
                progress(task, res)
    else:
        _run_local(fn, tasks, results, min(workers, len(tasks)), progress, start_method)
    return results  # type: ignore[return-value]  # every slot is filled


def _run_local(fn: Callable[[T], R], tasks: Sequence[T], results: list[R | None],
               workers: int, progress: Callable[[T, R], None] | None,
               start_method: str | None) -> None:
    ctx = multiprocessing.get_context(start_method)
    window = workers * 4  # bounded number of tasks in flight
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending: dict[Future[R], int] = {}
        next_task = 0
        try:
            while next_task < len(tasks) or pending:
                while next_task < len(tasks) and len(pending) < window:
                    pending[pool.submit(fn, tasks[next_task])] = next_task
                    next_task += 1
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    k = pending.pop(fut)
                    results[k] = res = fut.result()
                    if progress is not None:
                        progress(tasks[k], res)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
