"""Errors a user can cause. Each carries one clear message saying what and why."""


class DominariError(Exception):
    """Base class of every error caused by user input (actions, files, flags)."""


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
