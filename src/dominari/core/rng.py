"""The random numbers a game state owns: fast, exact equivalents of :mod:`random`'s.

A state owns a :class:`random.Random`, so that a seed and an action list replay a game
exactly. The engines shuffle on their hot path (every reshuffle of a deck, every sampled
world of a search) and copy states with their RNG (every candidate of a search), so the
two operations are done here without :mod:`random`'s per-element method calls:

- :func:`shuffle` draws exactly the numbers ``random.Random.shuffle`` draws (Python 3.11)
  and puts the items in the same order, about twice as fast; the algorithm is written out
  here, so a record replays the same on any Python version.
- :func:`clone` is a new generator in the same state, without seeding one first.

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
    from the operating system, only for the state to be replaced)."""
    out = random.Random.__new__(random.Random)
    out.setstate(rng.getstate())
    return out
