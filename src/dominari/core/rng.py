"""The random numbers a game state owns: fast, exact equivalents of :mod:`random`'s.

A state owns a :class:`random.Random`, so that a seed and an action list replay a game
exactly. The engines shuffle on their hot path (every reshuffle of a deck, every sampled
world of a search) and copy states with their RNG (every candidate of a search), so the
two operations are done here without :mod:`random`'s per-element method calls:

- :func:`shuffle` draws exactly the numbers ``random.Random.shuffle`` draws (Python 3.11)
  and puts the items in the same order, about twice as fast; the algorithm is written out
  here, so a record replays the same on any Python version.
- :func:`clone` is a new generator in the same state, without seeding one first;
  :func:`snapshot` and :func:`restore` make many from one state, reading it once.

>>> import random
>>> a, b = random.Random(7), random.Random(7)
>>> x, y = list(range(10)), list(range(10))
>>> a.shuffle(x); shuffle(b, y)
>>> x == y and a.random() == b.random()
True
>>> c = clone(a)
>>> c.random() == a.random()
True
"""

from __future__ import annotations

import _random
import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place with ``rng``: the Fisher-Yates shuffle of
    ``random.Random.shuffle``, each index below ``n`` drawn as ``getrandbits`` of ``n``'s
    bit length until it falls below ``n`` (Python 3.11's ``_randbelow``).

    >>> r = random.Random(1)
    >>> deck = [1, 2, 3, 4, 5]
    >>> shuffle(r, deck)
    >>> deck
    [3, 4, 5, 1, 2]
    """
    getrandbits = rng.getrandbits
    n = len(items)
    if n > _SHORT:
        steps: Any = ((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    else:
        steps = _STEPS[_SHORT - n:]
    for i, k in steps:  # the index i + 1 items down, and the bits that draw one below it
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_SHORT = 512
_STEPS = tuple((i, (i + 1).bit_length()) for i in range(_SHORT - 1, 0, -1))
"""The steps of :func:`shuffle` for up to ``_SHORT`` items, the last ``n - 1`` for ``n``
(a tuple read is faster than ``bit_length`` at each step)."""


def clone(rng: random.Random) -> random.Random:
    """A new generator in ``rng``'s state (``random.Random()`` would first seed itself
    from the operating system, only for the state to be replaced).

    The state is read and written by the C generator's own methods: ``random.Random``'s
    wrappers add a version check and a tuple for the Gaussian cache, which take a third
    of the time; the cache is copied alone."""
    out = _new(_Random)
    _setstate(out, _getstate(rng))
    out.gauss_next = rng.gauss_next  # type: ignore[attr-defined]
    return out


def snapshot(rng: random.Random) -> tuple[Any, Any]:
    """``rng``'s state, for :func:`restore` to make any number of generators in it: where
    several copies of one state are needed (a search's candidates, each played in the same
    world), reading the state once is cheaper than a :func:`clone` each.

    >>> r = random.Random(3)
    >>> s = snapshot(r)
    >>> a, b = restore(s), restore(s)
    >>> a.random() == b.random() == r.random()
    True
    """
    return _getstate(rng), rng.gauss_next  # type: ignore[attr-defined]


def restore(state: tuple[Any, Any]) -> random.Random:
    """A new generator in a state taken by :func:`snapshot`."""
    out = _new(_Random)
    _setstate(out, state[0])
    out.gauss_next = state[1]  # type: ignore[attr-defined]
    return out


_Random = random.Random
_new = random.Random.__new__
_getstate = _random.Random.getstate
_setstate = _random.Random.setstate
