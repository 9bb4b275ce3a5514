"""What a growth placement produces, item by item (rules §5, D-GROW-3 … D-GROW-8).

:func:`placement_yields` returns a list of :class:`Yield` items — which resource,
which concentration, which settlement, which city, for whom — so that the engine,
bots, logs and the web page share one account of *why* a placement gives what
it gives. Amounts of domain :data:`VESTIGIUM` are wild: the receiver chooses their
domain before they are added (D-VOC-1, D-VOC-2).

Production is computed before the tile is put down, so the same function answers
"what would this placement produce?" (``DominationsState.preview``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from dominari.dominations.board import (
    LINK_ALL_SIDES,
    LINK_LOCUS,
    NO_RESOURCE,
    Board,
)
from dominari.dominations.data import VESTIGIUM
from dominari.dominations.grid import (
    CORNER_DELTAS_DOWN,
    CORNER_DELTAS_UP,
    VERTEX_CELL_CORNER,
    VERTEX_CELL_DELTAS,
    shared_corner,
    side_neighbour,
)

# Yield sources
RESOURCE = 0
"""A corner resource at an end of the connected side (``where`` = corner of ``cell``)."""
CONCENTRATION = 1
"""Two equal resources meeting at an end of the connected side (``where`` = vertex key)."""
SETTLEMENT = 2
"""The placed tile's settlement (D-GROW-5)."""
CITY = 3
"""An activated city produces its level for its owner (D-GROW-6); ``where`` = level."""
SETTLEMENT_BONUS = 4
"""A production bonus on the settlement (Merchant, Guilds, Livestock …)."""
CITY_BONUS = 5
"""A production bonus on an activated city (Bureaucracy …)."""
LOCUS_RESOURCE = 6
"""A resource at the centre of a completed locus (``where`` = vertex key)."""

SOURCE_NAMES = (
    "resource",
    "concentration",
    "settlement",
    "city",
    "settlement bonus",
    "city bonus",
    "locus",
)

class Yield(NamedTuple):
    """One item of production: ``amount`` of ``domain`` (6 = vestigium) for ``player``."""

    player: int
    domain: int
    amount: int
    source: int
    cell: int
    """Key of the cell the item comes from."""
    where: int = 0


Bonuses = Sequence[tuple[int, int, int, int]]
"""Per player: (settlement +same, settlement +vestigium, city +same, city +vestigium)."""


def placement_yields(
    board: Board,
    key: int,
    colours: tuple[int, int, int],
    settlement: int,
    link: int,
    mover: int,
    bonuses: Bonuses | None = None,
) -> list[Yield]:
    """Everything produced by placing a tile (corner ``colours``, ``settlement``) on ``key``.

    ``link`` is a side 0–2 (the one connection, §13.1), ``LINK_LOCUS + c`` (the
    locus at corner ``c``, which the placement completes) or ``LINK_ALL_SIDES``.
    The board is read as it is *before* the tile goes down.
    """
    out: list[Yield] = []
    if link >= LINK_ALL_SIDES:
        mask = board.frontier.get(key, 0)
        for side in range(3):
            if mask >> side & 1:
                _connection(board, key, colours, side, mover, bonuses, out)
    elif link >= LINK_LOCUS:
        corner = link - LINK_LOCUS
        vertex = key + (CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN)[corner]
        _locus(board, vertex, key, colours, mover, bonuses, out, lift=False)
    else:
        _connection(board, key, colours, link, mover, bonuses, out)
    _settlement(key, settlement, mover, bonuses, out)
    return out


def _settlement(key: int, settlement: int, mover: int, bonuses: Bonuses | None,
                out: list[Yield]) -> None:
    if settlement < 0:
        return
    out.append(Yield(mover, settlement, 1, SETTLEMENT, key))
    if bonuses is not None:
        _bonus(out, mover, settlement, bonuses[mover][0], bonuses[mover][1], SETTLEMENT_BONUS,
               key)


def _bonus(out: list[Yield], player: int, domain: int, same: int, wild: int, source: int,
           key: int) -> None:
    """A production bonus: ``same`` more of ``domain`` and ``wild`` vestigium."""
    if same:
        out.append(Yield(player, domain, same, source, key))
    if wild:
        out.append(Yield(player, VESTIGIUM, wild, source, key))


def _city(board: Board, key: int, bonuses: Bonuses | None, out: list[Yield]) -> None:
    owner = board.city_owner.get(key)
    if owner is None:
        return
    level = board.city_level[key]
    domain = board.settlement[key]
    out.append(Yield(owner, domain, level, CITY, key, level))
    if bonuses is not None:
        _bonus(out, owner, domain, bonuses[owner][2], bonuses[owner][3], CITY_BONUS, key)


def _connection(board: Board, key: int, colours: tuple[int, int, int], side: int, mover: int,
                bonuses: Bonuses | None, out: list[Yield]) -> None:
    """D-GROW-3/4/6: the four resources of the connected side, concentration, the city."""
    nb = side_neighbour(key, side)
    theirs = board.colours[nb]
    deltas = CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN
    for end in (side, (side + 1) % 3):
        mine = colours[end]
        other_corner = shared_corner(side, end)
        other = theirs[other_corner]
        if mine != NO_RESOURCE:
            out.append(Yield(mover, mine, 1, RESOURCE, key, end))
        if other != NO_RESOURCE:
            out.append(Yield(mover, other, 1, RESOURCE, nb, other_corner))
        if mine == other and mine != NO_RESOURCE:
            out.append(Yield(mover, mine, 1, CONCENTRATION, key, key + deltas[end]))
    _city(board, nb, bonuses, out)


def _locus(board: Board, vertex: int, key: int, colours: tuple[int, int, int], mover: int,
           bonuses: Bonuses | None, out: list[Yield], lift: bool) -> None:
    """D-GROW-7/8: every resource at the centre (unless a circle monument covers it), every
    city on the six cells. ``key`` is the cell being placed (not on the board yet), or -1."""
    covered = not lift and vertex in board.circles
    for delta, corner in zip(VERTEX_CELL_DELTAS, VERTEX_CELL_CORNER, strict=True):
        cell = vertex + delta
        colour = colours[corner] if cell == key else board.colours[cell][corner]
        if colour != NO_RESOURCE and not covered:
            out.append(Yield(mover, colour, 1, LOCUS_RESOURCE, cell, vertex))
        if cell != key:
            _city(board, cell, bonuses, out)


def reactivation_yields(board: Board, key: int, link: int, mover: int,
                        bonuses: Bonuses | None = None) -> list[Yield]:
    """The Inventor's reactivation of the placed land tile ``key`` (rules §13.6).

    ``link`` is a side 0–2 against a filled cell (scored as a connection, with
    concentration and the neighbour's city) or ``LINK_LOCUS + c`` for a complete
    locus at corner ``c`` (a circle monument there is lifted: its resources count).
    The tile's settlement produces too.
    """
    out: list[Yield] = []
    colours = board.colours[key]
    if link >= LINK_LOCUS:
        corner = link - LINK_LOCUS
        vertex = key + (CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN)[corner]
        _locus(board, vertex, -1, colours, mover, bonuses, out, lift=True)
        # The reactivated tile's own city activates with the locus.
    else:
        _connection(board, key, colours, link, mover, bonuses, out)
    _settlement(key, board.settlement.get(key, -1), mover, bonuses, out)
    return out


def totals(yields: Sequence[Yield], players: int) -> list[list[int]]:
    """Per player, per domain 0–6 (6 = vestigium), the amounts produced.

    >>> totals([Yield(0, 1, 1, RESOURCE, 0), Yield(0, 1, 2, CITY, 0), Yield(1, 6, 1, CITY, 0)], 2)
    [[0, 3, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1]]
    """
    result = [[0] * 7 for _ in range(players)]
    for y in yields:
        result[y.player][y.domain] += y.amount
    return result
