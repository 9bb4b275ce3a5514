"""A time limit on each decision of a bot: a run's ``decision_timeout``
(``--decision-timeout S``).

:class:`DecisionClock` times each decision. Where it can, in the main thread of a process
whose platform has ``SIGALRM`` and whose real-time timer nothing else uses (a local worker
process, or the process of a run of one worker), it also interrupts a decision that runs past
the limit (an endless loop): the bot's ``act`` then raises :class:`Overtime` where it is,
which the runner turns into an error naming the bot and its line. Elsewhere a decision is
judged once it returns. A decision that runs inside C code for long (a NumPy call) is
interrupted once it comes back to Python.

The clock changes no game: a run with a limit plays the same games as one without, or
stops.

>>> clock = DecisionClock(5.0)
>>> with clock:
...     clock.start()
...     took = clock.stop()
>>> 0 <= took < 5
True
"""

from __future__ import annotations

import math
import signal
import threading
import time
from types import FrameType, TracebackType

from dominari.core.errors import ConfigError

MIN_DECISION_TIMEOUT = 0.01
"""The shortest limit a decision may be given, in seconds (the timer's resolution is far
finer, but a limit below it says nothing a bot can meet)."""

_AGAIN = 0.1
"""After the limit, seconds between further interrupts, should a bot catch the first."""


class Overtime(BaseException):
    """Raised inside a bot's ``act`` once its decision has run past the limit: a
    ``BaseException``, so that a bot's ``except Exception`` does not swallow it."""


def check_decision_timeout(limit: object) -> float | None:
    """A decision's time limit in seconds as a float (None: no limit); :class:`ConfigError`
    for one that is not a finite number of at least :data:`MIN_DECISION_TIMEOUT`.

    >>> check_decision_timeout(2)
    2.0
    >>> check_decision_timeout(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: the decision timeout must be ... at least 0.01, not 0
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not (
            MIN_DECISION_TIMEOUT <= limit < math.inf):  # fmt: skip
        raise ConfigError(f"the decision timeout must be a number of seconds of at least "
                          f"{MIN_DECISION_TIMEOUT:g}, not {limit!r}")  # fmt: skip
    return float(limit)


def can_interrupt() -> bool:
    """Whether a decision of this thread can be interrupted: the main thread, a platform
    with ``SIGALRM``, and a real-time timer nobody runs."""
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))  # fmt: skip


class DecisionClock:
    """Times each decision against ``limit`` seconds, and interrupts one that runs past it
    where it can (:attr:`interrupts`). Used as a context around a game: it holds
    ``SIGALRM`` while it is entered, and gives it back as it was."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.interrupts = False
        """Whether a decision that runs past the limit is interrupted (else judged once it
        returns)."""
        self._armed = False
        self._began = 0.0
        self._old: object = None

    def __enter__(self) -> DecisionClock:
        self.interrupts = can_interrupt()
        if self.interrupts:
            try:
                self._old = signal.signal(signal.SIGALRM, self._ring)
            except (ValueError, OSError):  # not the main interpreter, say
                self.interrupts = False
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.stop()
        if self.interrupts:
            signal.signal(signal.SIGALRM, self._old)  # type: ignore[arg-type]
            self.interrupts = False

    def _ring(self, signum: int, frame: FrameType | None) -> None:
        if self._armed:
            raise Overtime

    def start(self) -> None:
        """A decision begins."""
        self._armed = True
        if self.interrupts:
            signal.setitimer(signal.ITIMER_REAL, self.limit, _AGAIN)
        self._began = time.perf_counter()

    def stop(self) -> float:
        """The decision is over (or stopped): the seconds it took. Idempotent."""
        self._armed = False
        if self.interrupts:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
        return time.perf_counter() - self._began
