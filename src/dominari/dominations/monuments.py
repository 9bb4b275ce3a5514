"""Monument tiles on the board: where they may go, what they pay, who controls them.

Rules §6 (D-BUILD-7 … D-BUILD-10) and data spec §6.1. The player who builds a monument's
level 1 places its tile (D-BUILD-7):

* a **diamond** covers two cells, ``(cell, side)`` as :func:`~board.diamond_cells` lays it
  (c1 on ``cell``, c2 across ``side``). It is placed like a land tile, only its open sides
  (``R``/``O``) may touch anything, and usually one of them must lie against a city whose
  settlement is of the card's domain (:attr:`~data.MonumentDef.place_domain`);
* a **circle** stands on the centre of a complete locus that holds no circle yet, never the
  centre of the cradle.

Placing a tile produces nothing (D-BUILD-8). Its **reward** (D-BUILD-9) is paid once per city:
to the cities already standing on its reward cells when it is placed
(:func:`rewards_on_placement`) and to each city built there later (:func:`rewards_for_city`),
never for upgrades. **Control** (D-BUILD-10) adds a player's level cards of the monument to
the levels of their cities next to it (:func:`control_scores`, :func:`controller`).

>>> from dominari.dominations.board import LAND, Board
>>> from dominari.dominations.data import default_data
>>> from dominari.dominations.grid import Cell
>>> data = default_data()
>>> pharos = data.monument_by_id["M01"]                  # sides R R - -, next to a Trade city
>>> board = Board.with_cradle(data.cradle)
>>> diamond_options(board, pharos)                       # no Trade city yet
[]
>>> _ = board.fill(Cell(2, 0).key, LAND, (0, 0, 0), 0)  # a Trade settlement right of the cradle
>>> board.build_city(Cell(2, 0).key, 1)
>>> [(str(Cell.from_key(c)), s) for c, s in diamond_options(board, pharos)]
[('3,-1', 1), ('3,0', 0), ('2,1', 2), ('3,1', 0)]
>>> placed = place_monument(board, pharos, (Cell(3, 0).key, 0))   # s1 (R) against the city
>>> def at(keys): return [str(Cell.from_key(k)) for k in keys]
>>> at(placed.cells), at(placed.reward_cells)      # c1, c2; the cells across its R sides
(['3,0', '4,0'], ['2,0', '4,1'])
>>> [(player, vp, at([c])) for player, vp, c in rewards_on_placement(board, placed, pharos)]
[(1, 10, ['2,0'])]
>>> _ = board.fill(Cell(4, 1).key, LAND, (0, 0, 0), 1)  # later: a Craft city across s2
>>> board.build_city(Cell(4, 1).key, 0)
>>> rewards_for_city(board, [placed], data.monuments, Cell(4, 1).key)   # (player, VP, monument)
[(0, 10, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from dominari.core.errors import IllegalActionError
from dominari.dominations.board import CENTRE_KEY, Board, DiamondCell, diamond_cells
from dominari.dominations.data import DOMAIN_NAMES, MonumentDef
from dominari.dominations.grid import VERTEX_CELL_DELTAS, Cell, Vertex, side_neighbour
from dominari.dominations.tree import Tree

__all__ = [
    "PlacedMonument", "circle_options", "control_scores", "controller", "diamond_options",
    "place_monument", "placed_record", "rewards_for_city", "rewards_on_placement",
]  # fmt: skip

DIAMOND = "diamond"
CIRCLE = "circle"
OPEN_SIDES = ("R", "O")
"""Side marks that may touch land tiles (``R`` also carries the reward symbol)."""


class PlacedMonument(NamedTuple):
    """A monument tile on the board, with the cells its reward and its control look at.

    >>> from dominari.dominations.data import default_data
    >>> gardens = default_data().monument_by_id["M07"]
    >>> p = placed_record(gardens, (Vertex(2, 0).key, -1))
    >>> p.shape, p.vertex == Vertex(2, 0).key, p.cells, p.side, len(p.reward_cells)
    ('circle', True, (), -1, 6)
    """

    monument: int
    """Index into ``GameData.monuments``."""
    shape: str
    """``"diamond"`` or ``"circle"``."""
    cells: tuple[int, ...]
    """Diamond: the keys of c1 and c2; circle: ``()``."""
    vertex: int
    """Circle: the vertex key of its locus; diamond: -1."""
    side: int
    """Diamond: the ``side`` of :func:`~board.diamond_cells` (0–2); circle: -1."""
    reward_cells: tuple[int, ...]
    """Sorted keys of the cells whose cities get the reward (D-BUILD-9): a diamond's cells
    across an ``R`` side, a circle's six locus cells."""
    adjacent_cells: tuple[int, ...]
    """Sorted keys of the cells whose cities count for control (D-BUILD-10): a diamond's cells
    across an open side (``R`` or ``O``), a circle's six locus cells."""


def _name(mon: MonumentDef) -> str:
    return f"the {mon.name}"


def _diamond_sides(mon: MonumentDef) -> tuple[str, str, str, str]:
    if mon.shape != DIAMOND or mon.sides is None:
        raise ValueError(f"{mon.id} is not a diamond monument with four sides")
    return mon.sides


def _diamond_open(cell: int, side: int, sides: Sequence[str]) -> list[tuple[int, str]]:
    """``(neighbour key, mark)`` across each outer side s1…s4 of the diamond.

    As in :func:`~board.diamond_cells`, with ``k = side``: s1 and s4 are c1's sides k+2 and
    k+1, s2 and s3 are c2's sides k+1 and k+2.
    """
    k = side
    c2 = side_neighbour(cell, k)
    return [
        (side_neighbour(cell, (k + 2) % 3), sides[0]),
        (side_neighbour(c2, (k + 1) % 3), sides[1]),
        (side_neighbour(c2, (k + 2) % 3), sides[2]),
        (side_neighbour(cell, (k + 1) % 3), sides[3]),
    ]


def _locus_cells(vertex: int) -> tuple[int, ...]:
    return tuple(sorted(vertex + d for d in VERTEX_CELL_DELTAS))


def placed_record(mon: MonumentDef, where: tuple[int, int]) -> PlacedMonument:
    """The record of ``mon``'s tile placed at ``where`` (pure geometry: the board is not read).

    ``where`` is ``(cell, side)`` for a diamond and ``(vertex, -1)`` for a circle.

    >>> from dominari.dominations.data import default_data
    >>> pharos = default_data().monument_by_id["M01"]     # R R - -: two open sides
    >>> p = placed_record(pharos, (Cell(3, 0).key, 2))
    >>> [str(Cell.from_key(c)) for c in p.reward_cells] == [
    ...     str(Cell.from_key(c)) for c in p.adjacent_cells]
    True
    >>> len(p.adjacent_cells)
    2
    """
    if mon.shape == CIRCLE:
        locus = _locus_cells(where[0])
        return PlacedMonument(mon.index, CIRCLE, (), where[0], -1, locus, locus)
    sides = _diamond_sides(mon)
    cell, side = where
    if side not in (0, 1, 2):
        raise ValueError(f"a diamond's side is 0, 1 or 2, not {side}")
    across = _diamond_open(cell, side, sides)
    reward = tuple(sorted({nb for nb, mark in across if mark == "R"}))
    adjacent = tuple(sorted({nb for nb, mark in across if mark in OPEN_SIDES}))
    return PlacedMonument(mon.index, DIAMOND, (cell, side_neighbour(cell, side)), -1, side,
                          reward, adjacent)  # fmt: skip


def _lay(mon: MonumentDef, cell: int, side: int) -> tuple[DiamondCell, DiamondCell]:
    corners = mon.corners if mon.corners is not None else (None,) * 6
    return diamond_cells(cell, side, _diamond_sides(mon), corners)


def _has_domain_city(board: Board, cells: Iterable[int], domain: int) -> bool:
    owner, settlement = board.city_owner, board.settlement
    return any(c in owner and settlement.get(c) == domain for c in cells)


def _diamond_why(board: Board, mon: MonumentDef, cell: int, side: int) -> str | None:
    """Why ``mon``'s diamond cannot go on ``(cell, side)`` (None if it can)."""
    why = board.diamond_fits(_lay(mon, cell, side))
    if why is not None:
        rule = "" if "(D-" in why else " (D-BUILD-7)"
        return f"{_name(mon)} cannot go on {Cell.from_key(cell)} side {side}: {why}{rule}"
    if mon.place_domain is not None:
        placed = placed_record(mon, (cell, side))
        if not _has_domain_city(board, placed.adjacent_cells, mon.place_domain):
            return (f"{_name(mon)} must lie, across an open side, against a "
                    f"{DOMAIN_NAMES[mon.place_domain]} city (D-BUILD-7)")  # fmt: skip
    return None


def diamond_options(board: Board, mon: MonumentDef) -> list[tuple[int, int]]:
    """Every legal ``(cell, side)`` for ``mon``'s diamond tile (D-BUILD-7), sorted.

    The tile must fit (:meth:`~board.Board.diamond_fits`) and, when the card names a domain,
    lie across an open side against a city (anyone's) on a settlement of that domain. Only
    cells next to those cities (or, without a condition, the frontier) and their neighbours
    are tried: one of the two cells always touches them.

    >>> from dominari.dominations.data import default_data
    >>> data = default_data()
    >>> len(diamond_options(Board.with_cradle(data.cradle), data.monument_by_id["M03"]))
    0
    """
    _diamond_sides(mon)
    kind = board.kind
    if mon.place_domain is None:
        seeds: Iterable[int] = board.frontier
    else:
        domain, settlement = mon.place_domain, board.settlement
        seeds = {nb for c in board.city_owner if settlement.get(c) == domain
                 for nb in (side_neighbour(c, s) for s in range(3)) if nb not in kind}  # fmt: skip
    candidates: set[tuple[int, int]] = set()
    for e in seeds:
        for k in range(3):
            other = side_neighbour(e, k)
            if other in kind:
                continue
            candidates.add((e, k))  # e is c1
            candidates.add((other, k))  # e is c2 (facing sides share their number)
    return sorted(c for c in candidates if _diamond_why(board, mon, c[0], c[1]) is None)


def circle_options(board: Board) -> list[int]:
    """Sorted vertex keys of every complete locus free for a circle monument (D-BUILD-7).

    >>> from dominari.dominations.data import default_data
    >>> circle_options(Board.with_cradle(default_data().cradle))   # the cradle centre: never
    []
    """
    return sorted(v for v, n in board.filled_around.items()
                  if n == 6 and v != CENTRE_KEY and v not in board.circles)  # fmt: skip


def place_monument(board: Board, mon: MonumentDef, where: tuple[int, int]) -> PlacedMonument:
    """Put ``mon``'s tile on the board at ``where`` and return its record (D-BUILD-7).

    ``where`` is ``(cell, side)`` for a diamond, ``(vertex, -1)`` for a circle. An illegal
    place raises :class:`IllegalActionError` saying why and leaves the board unchanged.
    Placing produces nothing (D-BUILD-8); the caller pays :func:`rewards_on_placement`.

    >>> from dominari.dominations.data import default_data
    >>> data = default_data()
    >>> place_monument(Board.with_cradle(data.cradle), data.monument_by_id["M07"],
    ...                (Vertex(0, 0).key, -1))
    Traceback (most recent call last):
    ...
    dominari.core.errors.IllegalActionError: the Hanging Gardens of Babylon cannot stand on ...
    """
    if mon.shape == CIRCLE:
        vertex, extra = where
        if extra != -1:
            raise IllegalActionError(
                f"{_name(mon)} is a circle monument: it takes a vertex only (D-BUILD-7)")
        why = board.circle_fits(vertex)
        if why is not None:
            raise IllegalActionError(
                f"{_name(mon)} cannot stand on {Vertex.from_key(vertex)}: {why} (D-BUILD-7)")
        board.place_circle(vertex, mon.index)
        return placed_record(mon, where)
    cell, side = where
    if side not in (0, 1, 2):
        raise IllegalActionError(
            f"{_name(mon)} is a diamond monument: its side is 0, 1 or 2, not {side} (D-BUILD-7)")
    why = _diamond_why(board, mon, cell, side)
    if why is not None:
        raise IllegalActionError(why)
    board.place_diamond(_lay(mon, cell, side))
    return placed_record(mon, where)


def _rewarded(board: Board, placed: PlacedMonument, mon: MonumentDef, cell: int) -> bool:
    """Whether a city on ``cell`` is owed ``mon``'s reward (D-BUILD-9)."""
    if cell not in placed.reward_cells or mon.reward_vp <= 0:
        return False
    if placed.shape == CIRCLE:
        return mon.reward_domain is not None and board.settlement.get(cell) == mon.reward_domain
    return True


def rewards_on_placement(board: Board, placed: PlacedMonument,
                         mon: MonumentDef) -> list[tuple[int, int, int]]:  # fmt: skip
    """``(player, vp, cell)`` for every city already on a reward cell (D-BUILD-9), by cell.

    A diamond pays every city across an ``R`` side; a circle every city of its reward domain
    on its locus, whatever the city's level.
    """
    owner = board.city_owner
    return [(owner[c], mon.reward_vp, c) for c in placed.reward_cells
            if c in owner and _rewarded(board, placed, mon, c)]  # fmt: skip


def rewards_for_city(
    board: Board, placed: Iterable[PlacedMonument], monuments: Sequence[MonumentDef], cell: int
) -> list[tuple[int, int, int]]:
    """``(player, vp, monument index)`` owed for a city just **built** on ``cell`` (D-BUILD-9).

    Only a build is paid, never an upgrade: call it after a build only. Sorted by monument.
    """
    player = board.city_owner.get(cell)
    if player is None:
        return []
    out = [(player, monuments[p.monument].reward_vp, p.monument) for p in placed
           if _rewarded(board, p, monuments[p.monument], cell)]  # fmt: skip
    return sorted(out, key=lambda r: r[2])


def _level_ids(mon: MonumentDef) -> dict[str, int]:
    """``mon``'s level cards: id (as its data set names it) to level."""
    return {lv.id: lv.level for lv in mon.levels}


def control_scores(board: Board, placed: PlacedMonument | None, mon: MonumentDef,
                   trees: Sequence[Tree]) -> list[int]:  # fmt: skip
    """Per player: ``mon``'s level cards in their tree plus the levels of their cities next to
    the tile (D-BUILD-10). With no tile on the board yet only level cards count."""
    levels = _level_ids(mon)
    scores = [len(t.level_cards(levels)) for t in trees]
    if placed is not None:
        owner, level = board.city_owner, board.city_level
        for c in placed.adjacent_cells:
            if c in owner:
                scores[owner[c]] += level[c]
    return scores


def controller(board: Board, placed: PlacedMonument | None, mon: MonumentDef,
               trees: Sequence[Tree], order: Sequence[int]) -> int | None:  # fmt: skip
    """The player who controls ``mon`` (D-BUILD-10), or None when every score is 0.

    The highest score wins; a tie goes to the tied player holding the lowest level card of
    ``mon``, and when none of them holds one, to the one earliest in ``order`` (initiative,
    D-VOC-3).
    """
    scores = control_scores(board, placed, mon, trees)
    best = max(scores, default=0)
    if best < 1:
        return None
    tied = [p for p, s in enumerate(scores) if s == best]
    if len(tied) == 1:
        return tied[0]
    rank = {p: i for i, p in enumerate(order)}

    def initiative(p: int) -> int:
        return rank.get(p, len(order) + p)

    levels = _level_ids(mon)
    lowest = {p: cards[0] for p in tied if (cards := trees[p].level_cards(levels))}
    if lowest:
        return min(lowest, key=lambda p: (lowest[p], initiative(p)))
    return min(tied, key=initiative)
