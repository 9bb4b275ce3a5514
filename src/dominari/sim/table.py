"""Every game's result of a tournament, compactly: a few bytes a game.

A tournament keeps each game's result for its ratings (they are updated game by game).
As :class:`~dominari.sim.journal.GameResult` tuples that took 150 to 500 bytes a game
(with a journal, which kept its own, read back whole), several GB at the 10,000,000
games a tournament may play. A :class:`GameTable` keeps per match-up one array of ranks
(a byte a seat), one of scores (4 bytes a seat, 8 once a score needs them), one of
end reasons (an index into the reasons seen, 2 bytes) and one of turn orders (a byte: which
of the ``seats!`` orders, 0 where it is not known), and no seating at all: game ``j``
of a match-up is seated by the tournament's rotation, which repeats every ``seats!``
games. A 2-seat game takes 13 bytes, a 4-seat one 23. A Dominations game also keeps each
seat's mastery cards (a dict entry a game, and a tuple of skill ids a seat, each id one
string for the table): some 450 bytes a game more at 2 seats, 900 at 4, at the tens of
games a second Dominations plays.

It reads and writes as a mapping of ``(match-up, game)`` to ``GameResult``, the way a
:class:`~dominari.sim.journal.Journal` holds its games, and each match-up reads as the
list of its games.

>>> t = GameTable([[(0, 1), (1, 0)]], 3)
>>> t[0, 1] = GameResult((1, 0), (2, 1), (25, 31), "provinces", (1, 0))
>>> t[0, 1]
GameResult(seating=(1, 0), ranks=(2, 1), scores=(25, 31), reason='provinces', order=(1, 0), held=())
>>> len(t), (0, 0) in t
(1, False)
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from typing import overload

from dominari.sim.journal import GameResult

_ORDERS = {k: list(itertools.permutations(range(k))) for k in range(2, 6)}
"""Every turn order of ``k`` seats, by its index (1 + the index is kept; 0: not known)."""
_ORDER_IDS = {order: i + 1 for orders in _ORDERS.values() for i, order in enumerate(orders)}


class MatchupGames(Sequence[GameResult]):
    """The games ``0 … n - 1`` of one match-up, each kept once it is put in, and any later
    game put in too (a journal of a longer run holds them: they can be rechecked), up to
    ``limit``; as a sequence, the first ``n`` games.

    ``seatings[j % len(seatings)]`` seats game ``j``. ``reasons`` and ``reason_ids`` are
    the table's (shared by its match-ups). Reading a game not put in yet is a
    :class:`KeyError`.
    """

    def __init__(self, seatings: Sequence[tuple[int, ...]], n: int, reasons: list[str],
                 reason_ids: dict[str, int], limit: int | None = None) -> None:  # fmt: skip
        self.seatings = [tuple(s) for s in seatings]
        self.seats = len(self.seatings[0])
        self.n = n
        self.limit = n if limit is None else max(n, limit)
        """Games from here on are not kept."""
        self.ranks = bytearray(n * self.seats)
        """Every game's ranks by seat, 0 for a game not in yet (ranks start at 1)."""
        self.scores = array("i", bytes(4 * n * self.seats))
        self.reason = array("H", bytes(2 * n))
        self.order = bytearray(n)
        """Every game's turn order: 1 + its index in :data:`_ORDERS`, 0 where not known."""
        self.held = 0
        """How many of the first ``n`` games are in."""
        self.later = 0
        """How many games from ``n`` on are in."""
        self._reasons = reasons
        self._reason_ids = reason_ids
        self._rankings: dict[tuple[int, ...], tuple[int, ...]] = {}  # one tuple each
        self.cards: dict[int, tuple[tuple[str, ...], ...]] = {}
        """Dominations: the mastery cards each seat held at the end, by game (the games
        that have them: a journal's written before they were kept do not)."""
        self._card_sets: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple each
        self._card_ids: dict[str, str] = {}  # one string each (a journal's are new each)

    def __len__(self) -> int:
        return self.n

    def has(self, j: int) -> bool:
        """Whether game ``j`` is in (one of the first ``n`` or a later one)."""
        return 0 <= j < len(self.reason) and self.ranks[j * self.seats] != 0

    def present(self, everything: bool = False) -> Iterator[int]:
        """The games in, in order: of the first ``n``, or ``everything`` kept."""
        k, ranks = self.seats, self.ranks
        return (j for j in range(len(self.reason) if everything else self.n) if ranks[j * k])

    def unordered(self) -> Iterator[int]:
        """The games in (every one kept) whose turn order is not known, in order."""
        k, ranks, order = self.seats, self.ranks, self.order
        return (j for j in range(len(self.reason)) if ranks[j * k] and not order[j])

    @overload
    def __getitem__(self, j: int) -> GameResult: ...
    @overload
    def __getitem__(self, j: slice) -> Sequence[GameResult]: ...
    def __getitem__(self, j: int | slice) -> GameResult | Sequence[GameResult]:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(self.n))]
        if j < 0:
            j += self.n
        if not 0 <= j < self.n:
            raise IndexError(f"game {j} of {self.n}")
        return self.game(j)

    def game(self, j: int) -> GameResult:
        """Game ``j`` (one of the first ``n`` or a later one); :class:`KeyError` if it is
        not in."""
        if not self.has(j):
            raise KeyError(f"game {j} is not in")
        return self._result(j)

    def __iter__(self) -> Iterator[GameResult]:
        """The first ``n`` games in order (:class:`KeyError` at the first one not in)."""
        ranks, k = self.ranks, self.seats
        for j in range(self.n):
            if not ranks[j * k]:
                raise KeyError(f"game {j} is not in yet")
            yield self._result(j)

    def _result(self, j: int) -> GameResult:
        """Game ``j``, which is in, as a result (its ranks' tuple shared with the games
        ranked alike)."""
        k = self.seats
        at = j * k
        ranks = tuple(self.ranks[at:at + k])
        order = self.order[j]
        return GameResult(self.seatings[j % len(self.seatings)],
                          self._rankings.setdefault(ranks, ranks),
                          tuple(self.scores[at:at + k]), self._reasons[self.reason[j]],
                          _ORDERS[k][order - 1] if order else (),
                          self.cards.get(j, ()))  # fmt: skip

    def put(self, j: int, game: GameResult) -> None:
        """Keep game ``j`` (its seating is the match-up's, its ranks 1 to 255: a
        :class:`ValueError` otherwise); a game from ``limit`` on is not kept."""
        if not 0 <= j < self.limit:
            return
        k = self.seats
        ranks, scores = game.ranks, game.scores
        if game.seating != self.seatings[j % len(self.seatings)]:
            raise ValueError(f"game {j} seats {game.seating}, not "
                             f"{self.seatings[j % len(self.seatings)]}")  # fmt: skip
        if len(ranks) != k or len(scores) != k or min(ranks) < 1 or max(ranks) > 255:
            raise ValueError(f"game {j}: ranks {ranks} and scores {scores} are not one "
                             f"place (1 to 255) and one score for each of {k} seats")
        order = _ORDER_IDS.get(game.order, 0) if game.order else 0
        if game.order and (not order or len(game.order) != k):
            raise ValueError(f"game {j}: the turn order {game.order} does not name each of "
                             f"{k} seats once")  # fmt: skip
        low, high = min(scores), max(scores)
        if low < -(1 << 63) or high >= 1 << 63:
            raise ValueError(f"game {j}: scores {scores} are out of range (a score is "
                             "kept in 64 bits)")  # fmt: skip
        rid = self._reason_ids.get(game.reason)
        if rid is None:
            if len(self._reasons) >= 1 << 16:
                raise ValueError("more than 65,536 different end reasons")
            rid = self._reason_ids[game.reason] = len(self._reasons)
            self._reasons.append(game.reason)
        if self.scores.typecode == "i" and (low < -(1 << 31) or high >= 1 << 31):
            self.scores = array("q", self.scores)  # a score past 2**31: 8 bytes a score
        if j >= len(self.reason):  # a later game than the first n: room for it
            self._grow(min(self.limit, max(j + 1, 2 * len(self.reason))))
        at = j * k
        if not self.ranks[at]:
            if j < self.n:
                self.held += 1
            else:
                self.later += 1
        self.ranks[at:at + k] = bytes(ranks)
        table = self.scores
        for p in range(k):
            table[at + p] = scores[p]
        self.reason[j] = rid
        self.order[j] = order
        if game.held:
            if len(game.held) != k:
                raise ValueError(f"game {j}: mastery cards for {len(game.held)} seats, not "
                                 f"{k}")  # fmt: skip
            sets, ids = self._card_sets, self._card_ids
            self.cards[j] = tuple(sets.setdefault(held, held) for held in (
                tuple(ids.setdefault(c, c) for c in cards) for cards in game.held))
        else:
            self.cards.pop(j, None)

    def lacks_cards(self) -> bool:
        """Whether a game in (one of the first ``n``) has no mastery cards kept."""
        return any(j not in self.cards for j in self.present())

    def _grow(self, games: int) -> None:
        more = games - len(self.reason)
        self.ranks.extend(bytes(more * self.seats))
        self.scores.extend(array(self.scores.typecode, bytes(self.scores.itemsize * more
                                                             * self.seats)))  # fmt: skip
        self.reason.extend(array("H", bytes(2 * more)))
        self.order.extend(bytes(more))

    def remove(self, j: int) -> None:
        if self.has(j):
            self.ranks[j * self.seats:(j + 1) * self.seats] = bytes(self.seats)
            self.cards.pop(j, None)
            if j < self.n:
                self.held -= 1
            else:
                self.later -= 1


class GameTable(MutableMapping[tuple[int, int], GameResult]):
    """Games ``0 … games - 1`` of every match-up (``seatings[m]``: the seatings of match-up
    ``m``'s games, repeating), by ``(match-up, game)``, and any later game put in, up to
    ``limit`` (a journal of a longer run holds them; its games past ``limit``, which no
    run can play, are not kept, nor games of a match-up the table does not have).

    As a mapping it holds every game kept (:meth:`played` counts the first ``games``), so
    that a journal's games can be rechecked as they all were before.
    """

    def __init__(self, seatings: Sequence[Sequence[tuple[int, ...]]], games: int,
                 limit: int | None = None) -> None:  # fmt: skip
        self.games = games
        self.reasons: list[str] = []
        ids: dict[str, int] = {}
        self.matchups = [MatchupGames(s, games, self.reasons, ids, limit) for s in seatings]

    def __len__(self) -> int:
        return sum(m.held + m.later for m in self.matchups)

    def played(self) -> int:
        """How many of the first ``games`` games of every match-up are in."""
        return sum(m.held for m in self.matchups)

    def _at(self, key: tuple[int, int]) -> tuple[MatchupGames, int] | None:
        m, j = key
        if 0 <= m < len(self.matchups) and j >= 0:
            return self.matchups[m], j
        return None

    def __contains__(self, key: object) -> bool:
        if not (isinstance(key, tuple) and len(key) == 2):
            return False
        at = self._at(key)
        return at is not None and at[0].has(at[1])

    def __getitem__(self, key: tuple[int, int]) -> GameResult:
        at = self._at(key)
        if at is None or not at[0].has(at[1]):
            raise KeyError(key)
        return at[0].game(at[1])

    def __setitem__(self, key: tuple[int, int], game: GameResult) -> None:
        at = self._at(key)
        if at is not None:
            at[0].put(at[1], game)

    def __delitem__(self, key: tuple[int, int]) -> None:
        if key not in self:
            raise KeyError(key)
        m, j = key
        self.matchups[m].remove(j)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        """The keys of the games in, by match-up, then game (as ``sorted`` orders them)."""
        for m, games in enumerate(self.matchups):
            for j in games.present(everything=True):
                yield m, j

    def keys_at(self, positions: Iterable[int]) -> list[tuple[int, int]]:
        """The keys at ``positions`` (0-based, ascending) in :meth:`__iter__`'s order, in
        one pass over the games, skipping the match-ups before each."""
        out: list[tuple[int, int]] = []
        wanted = iter(positions)
        i = next(wanted, None)
        base = 0  # the position of the current match-up's first game
        for m, games in enumerate(self.matchups):
            count = games.held + games.later
            if i is None:
                break
            if i >= base + count:
                base += count
                continue
            for at, j in enumerate(games.present(everything=True), start=base):
                while i is not None and i == at:
                    out.append((m, j))
                    i = next(wanted, None)
                if i is None or i >= base + count:
                    break
            base += count
        if i is not None:
            raise IndexError(f"game {i} of {len(self)}")
        return out
