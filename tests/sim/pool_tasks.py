"""Task functions for the pool tests (``test_pool.py``).

They are top-level functions of a module of their own so that worker processes can
import them: a spawned local worker gets this test process's ``sys.path`` (pytest puts
this folder on it), and the Ray tests register the module to be pickled by value.
Each task is ``(folder, value)``: the functions leave one file per run in ``folder``
(``run-<value>-<n>``) so that a test can count how often a task ran.
"""

from __future__ import annotations

import os
from pathlib import Path

from dominari.core.errors import ConfigError
from dominari.sim.runner import Chunk, run_chunk
from dominari.sim.stats import Tally


def runs(folder: str | Path, value: object) -> int:
    """How many times the task of ``value`` has started (so far)."""
    return sum(1 for _ in Path(folder).glob(f"run-{value}-*"))


def _start(folder: str, value: object) -> int:
    """Note one more run of the task of ``value``; the number of earlier runs."""
    before = runs(folder, value)
    (Path(folder) / f"run-{value}-{before + 1}").touch()
    return before


def square(task: tuple[str, int]) -> int:
    folder, value = task
    _start(folder, value)
    return value * value


def crash_once(task: tuple[str, int]) -> int:
    """Kill this worker process the first time; the square of the value after."""
    folder, value = task
    if _start(folder, value) == 0:
        os._exit(1)
    return value * value


def out_of_memory_once(task: tuple[str, int]) -> int:
    """Raise :class:`MemoryError` the first time (an allocation refused under a memory
    limit); the square of the value after."""
    folder, value = task
    if _start(folder, value) == 0:
        raise MemoryError
    return value * value


def out_of_memory_once_on(task: tuple[str, int, int]) -> int:
    """Raise :class:`MemoryError` the first time the value is ``bad``; else take a little
    time and leave an ``end-<value>-<n>`` file as the run ends."""
    import time

    folder, value, bad = task
    before = _start(folder, value)
    if value == bad and before == 0:
        raise MemoryError
    time.sleep(0.05)
    (Path(folder) / f"end-{value}-{before + 1}").touch()
    return value * value


def hang_up_ignored(_task: object) -> bool:
    """Whether this worker process ignores SIGHUP (its parent stops it on a hang-up)."""
    import signal

    return signal.getsignal(signal.SIGHUP) == signal.SIG_IGN


def signals_of_a_worker(_task: object) -> tuple[bool, bool, bool]:
    """Whether this worker ignores Ctrl-C and SIGHUP, and whether it blocks neither (born
    with them blocked, it must not keep them so: a later one would wait there)."""
    import signal

    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return (signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
            signal.getsignal(signal.SIGHUP) == signal.SIG_IGN,
            not ({signal.SIGINT, signal.SIGHUP} & set(blocked)))


def out_of_memory_on(task: tuple[str, int, int]) -> int:
    """Raise :class:`MemoryError` every time the value is ``bad``."""
    folder, value, bad = task
    _start(folder, value)
    if value == bad:
        raise MemoryError
    return value * value


def crash_on(task: tuple[str, int, int]) -> int:
    """Kill this worker process every time the value is ``bad``."""
    folder, value, bad = task
    _start(folder, value)
    if value == bad:
        os._exit(1)
    return value * value


def crash_slowly_on(task: tuple[str, int, int]) -> int:
    """:func:`crash_on`, but the worker dies a second after the task starts."""
    import time

    folder, value, bad = task
    _start(folder, value)
    if value == bad:
        time.sleep(1.0)
        os._exit(1)
    return value * value


def fail_on(task: tuple[str, int, int]) -> int:
    """Raise :class:`ConfigError` for a negative value and ``ValueError`` for ``bad``."""
    folder, value, bad = task
    _start(folder, value)
    if value < 0:
        raise ConfigError(f"no games for {value}")
    if value == bad:
        raise ValueError(f"bad value {value}")
    return value * value


def crashy_chunk(task: tuple[str, Chunk]) -> Tally:
    """:func:`run_chunk`, but the first run of each chunk dies after playing its games
    (and writing their records), so the games are played twice and must count once."""
    folder, chunk = task
    tally = run_chunk(chunk)
    if _start(folder, chunk.start) == 0:
        os._exit(1)
    return tally


def sleep_or_fail(task: tuple[str, int]) -> int:
    """Raise ``ValueError`` for value 0 once the others have started; sleep a long time for
    the others (a task still running when the run fails)."""
    import time

    folder, value = task
    _start(folder, value)
    if value == 0:
        while runs(folder, 1) == 0:
            time.sleep(0.01)
        raise ValueError("bad value 0")
    time.sleep(600)
    return value


def crash_always(task: object) -> int:
    """Kill this worker process, whatever the task."""
    os._exit(1)


def hang_once_on(task: tuple[str, int, int]) -> int:
    """Hang (sleep for an hour) the first time the value is ``bad``; the square after."""
    import time

    folder, value, bad = task
    if _start(folder, value) == 0 and value == bad:
        time.sleep(3600)
    return value * value


def hang_always(task: tuple[str, int]) -> int:
    import time

    folder, value = task
    _start(folder, value)
    time.sleep(3600)
    return value


def slow_but_beating(task: tuple[str, int]) -> int:
    """Run for some 1.2 s, saying it makes progress every 0.1 s."""
    import time

    from dominari.sim.pool import beat

    folder, value = task
    _start(folder, value)
    for _ in range(12):
        time.sleep(0.1)
        beat()
    return value * value


def beat_then_hang_once_on(task: tuple[str, int, int]) -> int:
    """Show progress for about a second, or hang the first time the value is ``bad``."""
    import time

    from dominari.sim.pool import beat

    folder, value, bad = task
    if _start(folder, value) == 0 and value == bad:
        time.sleep(3600)
    for _ in range(10):
        time.sleep(0.1)
        beat()
    return value * value


def stop_an_idle_sibling(task: tuple[str, int]) -> int:
    """Value 0, the first time: wait until the other worker process of the pool is idle,
    then stop it (SIGSTOP), as a user's Ctrl-Z of one process would; it then holds the
    pool's task queue, and no task can start. Any other value: its square."""
    import signal
    import time

    folder, value = task
    if _start(folder, value) == 0 and value == 0:
        time.sleep(1.0)  # the other worker ran its task and waits for the next one
        parent = os.getppid()
        for child in Path(f"/proc/{parent}/task/{parent}/children").read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if int(child) != os.getpid() and b"spawn_main" in cmdline:
                os.kill(int(child), signal.SIGSTOP)
    return value * value


def beat_in_bursts(task: tuple[str, int]) -> int:
    """Two games, each some 2 s long with a beat 0.45 s in and at its end: the longest
    silence is 1.6 s, yet a beat held back (sent at most every 0.5 s with a 2 s limit)
    leaves the watch's last one 2.05 s old. The square of the value."""
    import time

    from dominari.sim.pool import beat

    folder, value = task
    _start(folder, value)
    for _ in range(2):
        beat()
        time.sleep(0.45)
        beat()
        time.sleep(1.6)
    beat()
    return value * value


def hang_for_once_on(task: tuple[str, int, int, float]) -> int:
    """Hang (sleep ``seconds``) the first time the value is ``bad``; the square after."""
    import time

    folder, value, bad, seconds = task
    if _start(folder, value) == 0 and value == bad:
        time.sleep(seconds)
    return value * value


def stop_self_once_on(task: tuple[str, int, int]) -> int:
    """The first time the value is ``bad``: write this process's id to ``pid-<value>`` and
    stop it (SIGSTOP) 0.2 s in; the square of the value when it goes on, or after."""
    import signal
    import time

    folder, value, bad = task
    if _start(folder, value) == 0 and value == bad:
        (Path(folder) / f"pid-{value}").write_text(str(os.getpid()))
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGSTOP)
    return value * value
