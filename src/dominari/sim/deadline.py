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

import signal
import threading
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import TypeVar

from dominari.core.errors import ConfigError

MIN_DECISION_TIMEOUT = 0.01
"""The shortest limit a decision may be given, in seconds (the timer's resolution is far
finer, but a limit below it says nothing a bot can meet)."""
MAX_DECISION_TIMEOUT = 1e6
"""The longest limit, in seconds (some 11 days; the system's timer takes no more)."""

T = TypeVar("T")
R = TypeVar("R")

_TICKS = 4
"""How many times in a limit the clock looks at the decision being made: a decision that
runs past the limit is stopped within a quarter of it more."""
_TICK_MIN = 0.002
"""The shortest time between two looks, in seconds."""


class Overtime(BaseException):
    """Raised inside a bot's ``act`` once its decision has run past the limit: a
    ``BaseException``, so that a bot's ``except Exception`` does not swallow it."""


def check_decision_timeout(limit: object) -> float | None:
    """A decision's time limit in seconds as a float (None: no limit); :class:`ConfigError`
    for one that is not a number of seconds from :data:`MIN_DECISION_TIMEOUT` to
    :data:`MAX_DECISION_TIMEOUT`.

    >>> check_decision_timeout(2)
    2.0
    >>> check_decision_timeout(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dominari.core.errors.ConfigError: the decision timeout must be ... 0.01 to 1e+06, not 0
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not (
            MIN_DECISION_TIMEOUT <= limit <= MAX_DECISION_TIMEOUT):  # fmt: skip
        raise ConfigError(f"the decision timeout must be a number of seconds from "
                          f"{MIN_DECISION_TIMEOUT:g} to {MAX_DECISION_TIMEOUT:g}, not "
                          f"{limit!r}")  # fmt: skip
    return float(limit)


def can_interrupt() -> bool:
    """Whether a decision of this thread can be interrupted: the main thread, a platform
    with ``SIGALRM``, and a real-time timer nobody runs."""
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))  # fmt: skip


def stop_within(exc: BaseException) -> BaseException | None:
    """The stop from outside (Ctrl-C, a signal: an exception that is no ``Exception``)
    that an :class:`Overtime` ``exc`` was raised over, as a bot cleaned up after it; None
    where there is none (the decision did run past its limit)."""
    seen: set[int] = set()
    cause = exc.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if not isinstance(cause, (Exception, Overtime)):
            return cause
        cause = cause.__context__
    return None


class DecisionClock:
    """Times each decision against ``limit`` seconds, and interrupts one that runs past it
    where it can (:attr:`interrupts`). Used as a context around a game: while it is
    entered it holds ``SIGALRM``, whose timer looks at the decision being made a few
    times a limit (nothing more happens at a decision than reading the time), and gives
    it back as it was."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.interrupts = False
        """Whether a decision that runs past the limit is interrupted (else judged once it
        returns)."""
        self._armed = False
        self._began = 0.0
        self._old: object = None
        self.took = 0.0
        """The seconds the last :meth:`call` took."""

    def __enter__(self) -> DecisionClock:
        self.interrupts = can_interrupt()
        if self.interrupts:
            try:
                self._old = signal.signal(signal.SIGALRM, self._ring)
            except (ValueError, OSError):  # not the main interpreter, say
                self.interrupts = False
            else:
                tick = max(self.limit / _TICKS, _TICK_MIN)
                signal.setitimer(signal.ITIMER_REAL, tick, tick)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self._armed = False
        if self.interrupts:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
            signal.signal(signal.SIGALRM, self._old)  # type: ignore[arg-type]
            self.interrupts = False

    def _ring(self, signum: int, frame: FrameType | None) -> None:
        if self._armed and time.perf_counter() - self._began > self.limit:
            raise Overtime

    def call(self, act: Callable[[T], R], arg: T) -> R:
        """``act(arg)`` timed (a bot's ``act(state)``, ``reset(seed)``): its answer, the
        seconds it took in :attr:`took`. An :class:`Overtime` where it ran past the limit
        and was stopped; the stop from outside an ``Overtime`` was raised over (Ctrl-C, a
        signal, as the bot cleaned up: :func:`stop_within`) as itself."""
        try:
            self.start()
            try:
                return act(arg)
            finally:
                self.took = self.stop()
        except Overtime as exc:
            self.stop()  # (should it have rung as the first stop began)
            stop = stop_within(exc)
            if stop is not None:
                raise stop from None
            raise

    def start(self) -> None:
        """A decision begins."""
        self._began = time.perf_counter()
        self._armed = True

    def stop(self) -> float:
        """The decision is over (or stopped): the seconds it took. Idempotent."""
        self._armed = False
        return time.perf_counter() - self._began
