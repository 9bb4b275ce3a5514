"""Errors a user can cause. Each carries one clear message saying what and why."""

import errno

MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG,
                            errno.ENOMEM, errno.EMFILE, errno.ENFILE, errno.ESTALE})
"""The errors of a file operation that are the machine's, not the request's: a full disk
or quota, a failing device, a file too large for the file system, too little memory, too
many open files, a network file gone stale. A path that is missing, refused or read-only
is the request's."""


class DominariError(Exception):
    """Base class of every error caused by user input (actions, files, flags).

    ``machine`` is True on an error the machine caused while doing what was asked (a full
    disk, too little memory: :func:`machine_failed`), which the same request may not meet
    elsewhere or later; it is kept across processes (an attribute pickles with the error).
    """

    machine: bool = False


def machine_cause(cause: BaseException) -> bool:
    """Whether ``cause`` is the machine's: a :class:`MemoryError`, or an :class:`OSError`
    of :data:`MACHINE_ERRNOS`."""
    return isinstance(cause, MemoryError) or (isinstance(cause, OSError)
                                              and cause.errno in MACHINE_ERRNOS)


def machine_failed(error: DominariError, cause: BaseException) -> DominariError:
    """``error``, marked as the machine's (:attr:`DominariError.machine`) where ``cause``
    is: a :class:`MemoryError`, or an :class:`OSError` of :data:`MACHINE_ERRNOS`.

    >>> machine_failed(DominariError("cannot write x"), OSError(28, "full")).machine
    True
    >>> machine_failed(DominariError("cannot write x"), OSError(13, "denied")).machine
    False
    """
    if machine_cause(cause):
        error.machine = True
    return error


class IllegalActionError(DominariError, ValueError):
    """An action that is not legal in the current state; the message says why."""


class ParseError(DominariError, ValueError):
    """Text that is not valid notation (an unknown card, verb or malformed action)."""


class ConfigError(DominariError, ValueError):
    """A game configuration that cannot be played (bad player count, unknown kingdom)."""


class RecordError(DominariError, ValueError):
    """A game record file that is malformed or does not replay."""


class StrategyError(DominariError, ValueError):
    """A bot strategy file that is malformed or names something unknown."""


class UnknownBotError(StrategyError):
    """A bot name that is neither a built-in bot of the game nor a strategy file's path."""
