"""The game-agnostic protocol every Dominari game implements.

A game is a :class:`GameState`: one node of the game tree, owning its RNG.
``current_player()`` says who decides, ``legal_actions()`` what they may do,
``apply(action)`` does it (raising :class:`IllegalActionError` with a reason
when it is not legal), ``copy()`` gives an independent state and
``outcome()`` the result once ``is_terminal()``.

Hidden information follows OpenSpiel: ``view(player)`` is exactly what that
player may see (``None`` is a spectator) and ``determinize(player, rng)``
re-deals everything that player cannot see, for search bots.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

TERMINAL = -1
"""``current_player()`` of a finished game."""

S = TypeVar("S", bound="GameState")


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``ranks[p]`` is 1 for every winner; a shared win gives several players
    rank 1.

    >>> o = Outcome(scores=(30, 24), ranks=(1, 2), reason="provinces", turns=(17, 17))
    >>> o.winners, o.is_shared_win
    ((0,), False)
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str
    turns: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, r in enumerate(self.ranks) if r == 1)

    @property
    def is_shared_win(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "turns": list(self.turns),
        }


class GameState(abc.ABC):
    """One state of a game. Subclasses implement the abstract methods."""

    game_name: ClassVar[str] = ""

    num_players: int
    history: list[Any]
    """The actions applied so far, in order (with the seed, a game record)."""

    @abc.abstractmethod
    def current_player(self) -> int:
        """The player who decides now, or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> Sequence[Hashable]:
        """The actions the current player may take (empty when terminal)."""

    @abc.abstractmethod
    def apply(self, action: Any) -> None:
        """Apply ``action``; raise ``IllegalActionError`` saying why if it is illegal."""

    @abc.abstractmethod
    def copy(self: S, rng: random.Random | None = None) -> S:
        """An independent deep copy, RNG included: a clone of the state's generator, or
        ``rng`` if given (a search plays each candidate in one sampled world with a
        generator restored from one snapshot, :mod:`dominari.core.rng`)."""

    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once terminal, else ``None``."""

    @abc.abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """A JSON-serialisable dict of what ``player`` may see (``None``: spectator)."""

    def views(self, players: Sequence[int | None], *, log: bool = True
              ) -> list[dict[str, Any]]:
        """``view(p)`` for each of ``players``. Games override it to build what the views
        have in common once: the dicts may then share their public parts, so treat them
        as read-only. ``log=False`` leaves out the log in words of a game whose view
        carries one (for a caller that sends the log another way)."""
        out = [self.view(p) for p in players]
        if not log:
            for v in out:
                v.pop("log", None)
        return out

    @abc.abstractmethod
    def determinize(self: S, player: int, rng: Any) -> S:
        """A full state consistent with what ``player`` knows, unseen cards re-dealt."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> Any:
        """Parse action notation in the context of this state (prefixes allowed)."""

    @abc.abstractmethod
    def format_action(self, action: Any) -> str:
        """The notation of ``action``; ``parse_action(format_action(a)) == a``."""

    @abc.abstractmethod
    def record(self) -> dict[str, Any]:
        """The game record: game name, config (with seed) and action notation list."""
