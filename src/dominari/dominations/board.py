"""The board: the cradle, placed land tiles, monument cells, cities, and where tiles may go.

A :class:`Board` keeps, per filled cell (by integer key, see :mod:`grid`), its
kind, the colours at its three corners (already rotated into the cell's corner
order, :data:`NO_RESOURCE` where a corner shows nothing), its settlement and
city. It also keeps, incrementally, the **frontier**: every empty cell that has
at least one side fully against an open side of a filled cell and no side
against a closed monument side (``D-GROW-2``), with a bitmask of those sides,
and the number of filled cells around every vertex, so that a placement that
completes a **locus** (``D-GROW-7``) is known without looking around.

>>> from dominari.dominations.data import default_data
>>> b = Board.with_cradle(default_data().cradle)
>>> sorted(str(Cell.from_key(k)) for k in b.frontier)
['-2,-1', '-2,0', '0,-2', '0,1', '2,-1', '2,0']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from dominari.dominations.grid import (
    CORNER_DELTAS_DOWN,
    CORNER_DELTAS_UP,
    CRADLE_CELLS,
    VERTEX_CELL_CORNER,
    Cell,
    Vertex,
    cell_key,
    side_neighbour,
)

NO_RESOURCE = -1
"""A corner that shows no resource (the cradle centre, bare monument corners)."""
NO_SETTLEMENT = -1

CRADLE = 0
LAND = 1
MONUMENT = 2
KIND_NAMES = ("cradle", "land", "monument")

LINK_LOCUS = 3
"""Growth link ``0..2``: the connection across that side; ``3 + c``: the locus at corner ``c``."""
LINK_ALL_SIDES = 6
"""Rule option ``connection="all-sides"``: every touching side is a connection."""

MAX_CITY_LEVEL = 3
CENTRE_KEY = cell_key(0, 0)
"""The vertex key of the cradle's centre."""


class CradleCellLike(Protocol):
    @property
    def ccw(self) -> int: ...
    @property
    def cw(self) -> int: ...


class DiamondCell(NamedTuple):
    """One cell of a placed diamond monument tile: corner colours and closed sides."""

    key: int
    colours: tuple[int, int, int]
    closed: int


def diamond_cells(
    cell: int, side: int, sides: Sequence[str], corners: Sequence[int | None]
) -> tuple[DiamondCell, DiamondCell]:
    """Lay a diamond monument (data spec §6.1) on the grid.

    The diamond's cell c1 (P-Q-S) goes on ``cell`` and its cell c2 (R-S-Q) on the cell
    across ``side``, which becomes the diamond's inner side QS; the three choices of
    ``side`` and the choice of ``cell`` among the two give its six orientations (it is
    never flipped). ``sides`` are s1…s4 (``R``/``O`` open, ``-`` closed); ``corners`` the
    resources at c1.P, c1.Q, c1.S, c2.R, c2.Q, c2.S (None: none).

    With ``k = side``: c1's corners P, Q, S are the cell's corners k+2, k, k+1; c2's R, S,
    Q are the neighbour's corners k+2, k, k+1 (clockwise in both, as on the card); s1 = PQ
    and s4 = SP are c1's sides k+2 and k+1, s2 = QR and s3 = RS are c2's sides k+1, k+2.

    >>> a, b = diamond_cells(Cell(2, 0).key, 1, ("R", "R", "-", "-"), (0, 3, None, 2, 0, None))
    >>> str(Cell.from_key(b.key)), a.colours, b.closed
    ('2,1', (0, 3, -1), 1)
    """
    k = side
    other = side_neighbour(cell, k)

    def colour(value: int | None) -> int:
        return NO_RESOURCE if value is None else value

    c1 = [NO_RESOURCE] * 3
    c1[(k + 2) % 3], c1[k], c1[(k + 1) % 3] = (colour(corners[0]), colour(corners[1]),
                                               colour(corners[2]))
    c2 = [NO_RESOURCE] * 3
    c2[(k + 2) % 3], c2[(k + 1) % 3], c2[k] = (colour(corners[3]), colour(corners[4]),
                                               colour(corners[5]))
    closed1 = (sides[0] == "-") << (k + 2) % 3 | (sides[3] == "-") << (k + 1) % 3
    closed2 = (sides[1] == "-") << (k + 1) % 3 | (sides[2] == "-") << (k + 2) % 3
    return (DiamondCell(cell, (c1[0], c1[1], c1[2]), closed1),
            DiamondCell(other, (c2[0], c2[1], c2[2]), closed2))


class Board:
    """Filled cells and the frontier. Mutable; :meth:`copy` is cheap (a few dicts)."""

    __slots__ = (
        "blocked",
        "circles",
        "city_level",
        "city_owner",
        "closed",
        "colours",
        "filled_around",
        "frontier",
        "kind",
        "order",
        "rotation",
        "settlement",
        "tile",
    )

    def __init__(self) -> None:
        self.kind: dict[int, int] = {}
        self.colours: dict[int, tuple[int, int, int]] = {}
        self.settlement: dict[int, int] = {}
        self.tile: dict[int, int] = {}
        self.rotation: dict[int, int] = {}
        self.closed: dict[int, int] = {}
        self.city_owner: dict[int, int] = {}
        self.city_level: dict[int, int] = {}
        self.frontier: dict[int, int] = {}
        """Empty cell key -> bitmask of its sides that lie against an open filled side."""
        self.blocked: set[int] = set()
        """Empty cells touching a closed monument side: never legal."""
        self.filled_around: dict[int, int] = {}
        """Vertex key -> number of filled cells around it (6 = a complete locus)."""
        self.order: list[int] = []
        """Filled cell keys in the order they were filled."""
        self.circles: dict[int, int] = {}
        """Vertex key -> circle monument standing on that locus (D-GROW-8)."""

    @classmethod
    def with_cradle(cls, cradle: Sequence[CradleCellLike]) -> Board:
        """A board holding only the Cradle of Humanity (rules §13.2).

        Cell ``k`` shows ``cradle[k].ccw`` and ``cradle[k].cw`` at the anticlockwise
        and clockwise ends of its outer side; its corner on the centre is bare.
        """
        board = cls()
        for k, cell in enumerate(CRADLE_CELLS):
            centre = VERTEX_CELL_CORNER[k]
            colours = [NO_RESOURCE, NO_RESOURCE, NO_RESOURCE]
            colours[(centre + 1) % 3] = cradle[k].ccw
            colours[(centre + 2) % 3] = cradle[k].cw
            board.fill(cell.key, CRADLE, (colours[0], colours[1], colours[2]))
        return board

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.kind = self.kind.copy()
        b.colours = self.colours.copy()
        b.settlement = self.settlement.copy()
        b.tile = self.tile.copy()
        b.rotation = self.rotation.copy()
        b.closed = self.closed.copy()
        b.city_owner = self.city_owner.copy()
        b.city_level = self.city_level.copy()
        b.frontier = self.frontier.copy()
        b.blocked = self.blocked.copy()
        b.filled_around = self.filled_around.copy()
        b.order = self.order.copy()
        b.circles = self.circles.copy()
        return b

    # -- filling ---------------------------------------------------------------------------

    def fill(
        self,
        key: int,
        kind: int,
        colours: tuple[int, int, int],
        settlement: int = NO_SETTLEMENT,
        tile: int = -1,
        rotation: int = 0,
        closed: int = 0,
    ) -> list[int]:
        """Fill cell ``key``; return the vertex keys of the loci this completes.

        ``closed`` is a bitmask of this cell's closed sides (monument tiles only).
        Updates the frontier and the vertex counts incrementally.
        """
        if key in self.kind:
            raise ValueError(f"cell {Cell.from_key(key)} is already filled")
        self.kind[key] = kind
        self.colours[key] = colours
        if settlement != NO_SETTLEMENT:
            self.settlement[key] = settlement
        if tile >= 0:
            self.tile[key] = tile
            self.rotation[key] = rotation
        if closed:
            self.closed[key] = closed
        self.order.append(key)
        frontier = self.frontier
        frontier.pop(key, None)
        self.blocked.discard(key)
        kinds = self.kind
        for side in range(3):
            nb = side_neighbour(key, side)
            if nb in kinds:
                continue
            if closed >> side & 1:
                self.blocked.add(nb)
                frontier.pop(nb, None)
            elif nb not in self.blocked:
                # Sides facing each other across an edge share their number (grid.facing_side).
                frontier[nb] = frontier.get(nb, 0) | (1 << side)
        completed = []
        around = self.filled_around
        for delta in CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN:
            v = key + delta
            n = around.get(v, 0) + 1
            around[v] = n
            if n == 6:
                completed.append(v)
        return completed

    # -- queries ---------------------------------------------------------------------------

    def is_filled(self, key: int) -> bool:
        return key in self.kind

    def is_open_cell(self, key: int) -> bool:
        """Whether a land tile may be placed on ``key`` (D-GROW-2)."""
        return key in self.frontier

    def completes(self, key: int) -> list[int]:
        """Corners ``c`` of empty cell ``key`` whose vertex a tile there would complete."""
        around = self.filled_around
        deltas = CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN
        return [c for c in range(3) if around.get(key + deltas[c], 0) == 5]

    def links(self, key: int, all_sides: bool = False) -> tuple[int, ...]:
        """The growth links a placement on ``key`` may score (D-GROW-3, D-GROW-7).

        A completed locus is forced (one of them, chosen, if several); otherwise one
        of the sides against a filled cell (``all_sides``: all of them at once).
        """
        loci = self.completes(key)
        if loci:
            return tuple(LINK_LOCUS + c for c in loci)
        mask = self.frontier.get(key, 0)
        if all_sides:
            return (LINK_ALL_SIDES,) if mask else ()
        return tuple(s for s in range(3) if mask >> s & 1)

    def touching_sides(self, key: int) -> tuple[int, ...]:
        mask = self.frontier.get(key, 0)
        return tuple(s for s in range(3) if mask >> s & 1)

    def is_locus(self, vertex: int) -> bool:
        return self.filled_around.get(vertex, 0) == 6

    # -- cities -----------------------------------------------------------------------------

    def build_city(self, key: int, player: int) -> None:
        if key not in self.settlement or key in self.city_owner:
            raise ValueError(f"no empty settlement on {Cell.from_key(key)}")
        self.city_owner[key] = player
        self.city_level[key] = 1

    def upgrade_city(self, key: int) -> int:
        level = self.city_level[key] + 1
        if level > MAX_CITY_LEVEL:
            raise ValueError(f"the city on {Cell.from_key(key)} is already level {MAX_CITY_LEVEL}")
        self.city_level[key] = level
        return level

    # -- monument tiles -------------------------------------------------------------------------

    def diamond_fits(self, cells: Sequence[DiamondCell]) -> str | None:
        """Why a diamond monument tile cannot go there (None if it can, D-BUILD-7).

        Both cells empty; at least one open side fully against a filled cell; no closed
        side against a filled cell (closed sides touch nothing, now and later).
        """
        keys = {c.key for c in cells}
        touches = False
        for c in cells:
            if c.key in self.kind:
                return f"{Cell.from_key(c.key)} is already filled"
            for side in range(3):
                nb = side_neighbour(c.key, side)
                if nb in keys or nb not in self.kind:
                    continue
                if c.closed >> side & 1 or self.closed.get(nb, 0) >> side & 1:
                    return (f"the side of {Cell.from_key(c.key)} against {Cell.from_key(nb)} "
                            "is closed: it may touch nothing (D-GROW-2)")
                touches = True
        if not touches:
            return "no open side lies fully against a placed tile (D-BUILD-7)"
        return None

    def place_diamond(self, cells: Sequence[DiamondCell]) -> list[int]:
        """Fill the two cells of a diamond monument tile; returns the loci it completes.

        Placing it produces nothing (D-BUILD-8); its open sides later take land tiles,
        whose connections produce its corner resources as usual.
        """
        why = self.diamond_fits(cells)
        if why is not None:
            raise ValueError(why)
        completed: list[int] = []
        for c in cells:
            completed += self.fill(c.key, MONUMENT, c.colours, closed=c.closed)
        return completed

    def circle_fits(self, vertex: int) -> str | None:
        """Why a circle monument cannot stand on ``vertex`` (None if it can, D-BUILD-7)."""
        if vertex == CENTRE_KEY:
            return "the centre of the cradle takes no monument"
        if not self.is_locus(vertex):
            return f"{Vertex.from_key(vertex)} is not the centre of a complete locus"
        if vertex in self.circles:
            return f"a circle monument already stands on {Vertex.from_key(vertex)}"
        return None

    def place_circle(self, vertex: int, monument: int) -> None:
        why = self.circle_fits(vertex)
        if why is not None:
            raise ValueError(why)
        self.circles[vertex] = monument

    def slow_open_cells(self) -> set[int]:
        """Reference scan of the whole board for legal cells (tests compare it to the frontier)."""
        result = set()
        for key in self.kind:
            for side in range(3):
                nb = side_neighbour(key, side)
                if nb in self.kind:
                    continue
                if self.closed.get(key, 0) >> side & 1:
                    continue
                if any(
                    self.closed.get(side_neighbour(nb, s2), 0) >> s2 & 1
                    for s2 in range(3)
                    if side_neighbour(nb, s2) in self.kind
                ):
                    continue
                result.add(nb)
        return result
