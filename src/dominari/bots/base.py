"""The decision interface shared by bots, humans and ML agents.

A bot is asked to act only when ``state.current_player()`` is its seat; it
returns one of ``state.legal_actions()`` (or any action ``state.apply``
accepts). Bots own their randomness: ``reset(seed)`` is called before every
game, so a simulation is reproducible from its seed.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from dominari.dominion.actions import Action
from dominari.dominion.engine import DominionState


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name``, ``reset(seed)`` and ``act(state) -> Action``."""

    name: str

    def reset(self, seed: int) -> None:
        """Prepare for a new game; seed any randomness from ``seed``."""

    def act(self, state: DominionState) -> Action:
        """The action for ``state.current_player()`` in ``state``."""
