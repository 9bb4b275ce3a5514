r"""Checks of what a caller passes in (configs, budgets, counts, names), each raising
:class:`~dominari.core.errors.ConfigError` that says what was wrong and what is wanted.

Whole numbers may be any integer type (a NumPy integer from ``np.arange`` too) but not a
``bool``, a ``float`` or a string; they come back as plain ``int``.

>>> whole(3, "games", 1), seed(7)
(3, 7)
>>> seed(-5)
Traceback (most recent call last):
...
dominari.core.errors.ConfigError: a seed is a whole number of 0 or more, not -5
>>> real(float("nan"), "seconds")
Traceback (most recent call last):
...
dominari.core.errors.ConfigError: seconds must be a finite number, not nan
>>> names(["Ann", "Bob\x1b[2J"])
Traceback (most recent call last):
...
dominari.core.errors.ConfigError: a player's name must hold no control characters: 'Bob\x1b[2J'
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import re
from collections.abc import Iterable
from typing import SupportsIndex, cast

from dominari.core.errors import ConfigError


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer of any integer type, not a bool."""
    return type(value) is int or (isinstance(value, numbers.Integral)
                                  and not isinstance(value, bool))


def _int(value: object) -> int:
    return value if type(value) is int else operator.index(cast(SupportsIndex, value))


def whole(value: object, what: str, minimum: int | None = None) -> int:
    """``value`` as an ``int``, when it is a whole number of at least ``minimum``."""
    if not is_whole(value):
        raise ConfigError(f"{what} must be a whole number, not {value!r}")
    number = _int(value)
    if minimum is not None and number < minimum:
        raise ConfigError(f"{what} must be at least {minimum}, not {number}")
    return number


def seed(value: object, what: str = "a seed") -> int:
    """A seed: a whole number of 0 or more (``random.Random`` would play ``-5`` as ``5``)."""
    if not is_whole(value) or _int(value) < 0:
        raise ConfigError(f"{what} is a whole number of 0 or more, not {value!r}")
    return _int(value)


def real(value: object, what: str, minimum: float | None = None,
         maximum: float | None = None) -> float:
    """``value`` as a ``float``, when it is a finite number (not a bool) within bounds."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise ConfigError(f"{what} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ConfigError(f"{what} must be a finite number, not {number!r}")
    if minimum is not None and maximum is not None and not minimum <= number <= maximum:
        raise ConfigError(f"{what} must be between {minimum:g} and {maximum:g}, not "
                          f"{number:g}")
    if minimum is not None and number < minimum:
        raise ConfigError(f"{what} must be at least {minimum:g}, not {number:g}")
    if maximum is not None and number > maximum:
        raise ConfigError(f"{what} must be at most {maximum:g}, not {number:g}")
    return number


def player(value: object, players: int) -> int:
    """A player index of a game of ``players`` players (0 to ``players - 1``)."""
    if not is_whole(value) or not 0 <= _int(value) < players:
        raise ConfigError(f"no player {value!r}: the players are 0 to {players - 1}")
    return _int(value)


UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""The characters a name must not hold: control characters (C0 with the tab, DEL and C1:
a terminal acts on escape sequences), the line and paragraph separators, and the
bidirectional overrides and isolates (they reorder the text around them where it is
shown). The bidirectional marks (U+200E, U+200F, U+061C) are letters' company in Hebrew
and Arabic names, and stay."""


def names(values: Iterable[object]) -> None:
    """:class:`ConfigError` for a player's name that holds a character of :data:`UNSHOWN`
    (a record's names are printed by ``replay``, a server's shown in the browser). The
    configs' ``from_json`` reads such a name, from a record or a game stored before this
    check, as :func:`escaped`."""
    for name in values:
        if not isinstance(name, str):
            raise ConfigError(f"a player's name must be text, not {name!r}")
        if UNSHOWN.search(name):
            raise ConfigError(f"a player's name must hold no control characters: {name!r}")


def escaped(text: str) -> str:
    r"""``text`` with each character of :data:`UNSHOWN` written as its escape, to print what
    a file says without a terminal acting on it.

    >>> print(escaped("mcts\x1b[2J"))
    mcts\x1b[2J
    """
    return UNSHOWN.sub(lambda m: repr(m.group())[1:-1], text)


def short_path(path: str) -> str:
    """``path`` relative to the working folder where it is within it (as a message names a
    file of the user's), else as it is.

    >>> short_path(os.path.join(os.getcwd(), "bot.py")), short_path("/elsewhere/bot.py")
    ('bot.py', '/elsewhere/bot.py')
    """
    try:
        rel = os.path.relpath(path)
    except ValueError:  # (another drive)
        return path
    return rel if not rel.startswith(os.pardir) else path
