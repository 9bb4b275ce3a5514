"""A bot that picks a uniformly random legal action."""

from __future__ import annotations

import random

from dominari.bots.base import check_seed, raise_misuse
from dominari.dominion.actions import Action
from dominari.dominion.engine import DominionState


class RandomBot:
    """Chooses uniformly among ``state.legal_actions()`` with its own RNG.

    >>> from dominari.dominion.engine import DominionConfig
    >>> bot = RandomBot()
    >>> bot.reset(1)
    >>> s = DominionState.new(DominionConfig(seed=2))
    >>> s.is_legal(bot.act(s))
    True
    """

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(None if seed is None else check_seed(seed))

    def __repr__(self) -> str:
        return f"RandomBot({self.name!r})"

    def reset(self, seed: int) -> None:
        self._rng.seed(check_seed(seed))

    def act(self, state: DominionState) -> Action:
        """A legal action of ``state``, of either game (it only picks among them); a
        finished game raises :class:`~dominari.core.errors.IllegalActionError`."""
        try:
            return self._rng.choice(state.legal_actions())
        except Exception as exc:  # (no check before: a decision pays nothing for it)
            raise_misuse(exc, state, None, self.name)
