"""The triangular grid: cells, their sides and corners, vertices, and their notation.

The board is a tiling of the plane by equilateral triangles with horizontal sides.
Every triangle (a **cell**) points up (△) or down (▽).

Coordinates
-----------
A cell is named by two signed integers ``x,y``: ``y`` is its row (row 0 lies just
above the centre of the board, row -1 just below) and ``x`` its column, counted in
half-side steps so that cells next to each other in a row have consecutive ``x``.
A cell points **up** when ``x + y`` is odd and **down** when it is even. The
Cradle of Humanity is the hexagon of six cells around the centre vertex:
``0,0`` (top, ▽), ``1,0`` (upper right, △), ``1,-1`` (lower right, ▽),
``0,-1`` (bottom, △), ``-1,-1`` (lower left, ▽), ``-1,0`` (upper left, △).

A **vertex** is written ``@x,y`` with ``x + y`` even: ``y`` is the height (the
line between rows ``y - 1`` and ``y``) and ``x`` the same half-side column count.
``@0,0`` is the centre of the cradle.

Corners and sides of a cell are numbered clockwise from its apex: corner 0 is the
top corner of a △ and the bottom corner of a ▽; side ``k`` runs from corner ``k``
to corner ``k + 1`` (so side 0 is the right side of a △ and the left side of a ▽,
side 1 its horizontal side, side 2 the remaining one).

>>> c = Cell.parse("1,0")
>>> c.up, [str(n) for n in c.neighbours()]
(True, ['2,0', '1,-1', '0,0'])
>>> [str(v) for v in c.corners()]
['@1,1', '@2,0', '@0,0']
>>> [str(c) for c in Vertex(0, 0).cells()]
['0,0', '1,0', '1,-1', '0,-1', '-1,-1', '-1,0']

Internally the engine uses integer **keys** (:func:`cell_key`), with neighbour and
corner arithmetic on the key alone; the value objects here are for people,
notation and tests.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from dominari.core.errors import ParseError

OFFSET = 128
"""Coordinates range over ``-OFFSET .. OFFSET - 1`` (far more than 90 tiles can reach)."""
WIDTH = 2 * OFFSET + 1
"""Row stride of a key. It is odd, so a key's parity is the parity of ``x + y``."""

_CELL_RE = re.compile(r"^\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*$")
_VERTEX_RE = re.compile(r"^\s*@\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*$")


def cell_key(x: int, y: int) -> int:
    """The integer key of cell ``x,y`` (vertices use the same formula).

    >>> cell_key(0, 0) % 2, cell_key(1, 0) % 2   # ▽ even, △ odd
    (0, 1)
    """
    return (y + OFFSET) * WIDTH + (x + OFFSET)


def key_xy(key: int) -> tuple[int, int]:
    """Inverse of :func:`cell_key`.

    >>> key_xy(cell_key(-3, 5))
    (-3, 5)
    """
    y, x = divmod(key, WIDTH)
    return x - OFFSET, y - OFFSET


_KEY_TEXT: dict[int, str] = {}


def key_text(key: int) -> str:
    """``x,y`` of the cell (or, after ``@``, the vertex) with this key: ``str(Cell.from_key(
    key))``, remembered (views and notation write the same few keys over and over).

    >>> key_text(cell_key(-3, 5)), str(Vertex.from_key(cell_key(2, 0)))
    ('-3,5', '@2,0')
    """
    text = _KEY_TEXT.get(key)
    if text is None:
        x, y = key_xy(key)
        text = _KEY_TEXT[key] = f"{x},{y}"
    return text


def key_is_up(key: int) -> bool:
    """Whether the cell with this key points up (△)."""
    return bool(key & 1)


def side_neighbour(key: int, side: int) -> int:
    """The key of the cell across ``side`` (0, 1, 2) of the cell ``key``."""
    if key & 1:  # △: right, bottom, left
        return key + 1 if side == 0 else (key - WIDTH if side == 1 else key - 1)
    return key - 1 if side == 0 else (key + WIDTH if side == 1 else key + 1)  # ▽: left, top, right


NEIGHBOUR_DELTAS_UP = (1, -WIDTH, -1)
NEIGHBOUR_DELTAS_DOWN = (-1, WIDTH, 1)
CORNER_DELTAS_UP = (WIDTH, 1, -1)
"""Vertex key minus cell key for the corners 0, 1, 2 of a △ (top, lower right, lower left)."""
CORNER_DELTAS_DOWN = (0, WIDTH - 1, WIDTH + 1)
"""Vertex key minus cell key for the corners 0, 1, 2 of a ▽ (bottom, upper left, upper right)."""
VERTEX_CELL_DELTAS = (0, 1, 1 - WIDTH, -WIDTH, -1 - WIDTH, -1)
"""Cell key minus vertex key for the six cells around a vertex, clockwise from the top."""
VERTEX_CELL_CORNER = (0, 2, 1, 0, 2, 1)
"""Which corner of each of those six cells lies on the vertex."""


def corner_vertex(key: int, corner: int) -> int:
    """The vertex key at ``corner`` of cell ``key``."""
    return key + (CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN)[corner]


def facing_side(side: int) -> int:
    """The side of the neighbour that lies against ``side``.

    Across a shared edge a △ and a ▽ use the same side number: a △'s right side
    (0) meets the ▽'s left side (0), bottom (1) meets top (1), left (2) meets
    right (2). So this is the identity; it exists to make code read right.

    >>> a = Cell(1, 0)
    >>> all(a.neighbour(s).neighbour(facing_side(s)) == a for s in range(3))
    True
    """
    return side


def side_corners(side: int) -> tuple[int, int]:
    """The corners at the two ends of ``side`` (anticlockwise end first)."""
    return side, (side + 1) % 3


def shared_corner(side: int, corner_end: int) -> int:
    """The neighbour's corner that coincides with our corner ``corner_end`` of ``side``.

    Our side ``k`` runs from corner ``k`` to ``k + 1``; the neighbour's side
    ``k`` runs the other way round, so our corner ``k`` is its corner ``k + 1``
    and our corner ``k + 1`` is its corner ``k``.

    >>> a = Cell(1, 0)
    >>> b = a.neighbour(0)
    >>> a.corner(0) == b.corner(shared_corner(0, 0)), a.corner(1) == b.corner(shared_corner(0, 1))
    (True, True)
    """
    return (side + 1) % 3 if corner_end == side else side


class Cell(NamedTuple):
    """A triangular cell ``x,y`` (``x + y`` odd: △, even: ▽).

    >>> Cell.parse(" 3 , -1 "), str(Cell(3, -1)), Cell(3, -1).up
    (Cell(x=3, y=-1), '3,-1', False)
    """

    x: int
    y: int

    @property
    def up(self) -> bool:
        return bool((self.x + self.y) & 1)

    @property
    def key(self) -> int:
        return cell_key(self.x, self.y)

    @classmethod
    def from_key(cls, key: int) -> Cell:
        return cls(*key_xy(key))

    def neighbour(self, side: int) -> Cell:
        """The cell across ``side``."""
        return Cell.from_key(side_neighbour(self.key, side))

    def neighbours(self) -> tuple[Cell, Cell, Cell]:
        """The cells across sides 0, 1, 2."""
        return (self.neighbour(0), self.neighbour(1), self.neighbour(2))

    def side_towards(self, other: Cell) -> int:
        """The side shared with ``other``; ``ValueError`` if they are not adjacent.

        >>> Cell(1, 0).side_towards(Cell(0, 0))
        2
        """
        for side in range(3):
            if self.neighbour(side) == other:
                return side
        raise ValueError(f"cells {self} and {other} do not share a side")

    def corner(self, corner: int) -> Vertex:
        """The vertex at ``corner`` (0 = apex, clockwise)."""
        return Vertex.from_key(corner_vertex(self.key, corner))

    def corners(self) -> tuple[Vertex, Vertex, Vertex]:
        return (self.corner(0), self.corner(1), self.corner(2))

    def center(self) -> tuple[float, float]:
        """The centroid in plane units (side length 1, y up).

        >>> Cell(0, 0).center()[0], round(Cell(0, 0).center()[1], 3)
        (0.0, 0.577)
        """
        h = 3**0.5 / 2
        y0 = self.y * h
        return self.x / 2, (y0 + h / 3 if self.up else y0 + 2 * h / 3)

    def __str__(self) -> str:
        return f"{self.x},{self.y}"

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse ``x,y`` (parentheses and spaces allowed)."""
        m = _CELL_RE.match(text)
        if not m:
            raise ParseError(f"bad cell {text!r}: expected two integers 'x,y', for example 1,-1")
        x, y = int(m.group(1)), int(m.group(2))
        _check_range(text, x, y)
        return cls(x, y)


class Vertex(NamedTuple):
    """A grid vertex ``@x,y`` (``x + y`` even).

    >>> Vertex.parse("@2,0"), str(Vertex(2, 0))
    (Vertex(x=2, y=0), '@2,0')
    """

    x: int
    y: int

    @property
    def key(self) -> int:
        return cell_key(self.x, self.y)

    @classmethod
    def from_key(cls, key: int) -> Vertex:
        return cls(*key_xy(key))

    def cells(self) -> tuple[Cell, ...]:
        """The six cells around the vertex, clockwise from the top one."""
        k = self.key
        return tuple(Cell.from_key(k + d) for d in VERTEX_CELL_DELTAS)

    def point(self) -> tuple[float, float]:
        """Position in plane units (side length 1, y up)."""
        return self.x / 2, self.y * 3**0.5 / 2

    def __str__(self) -> str:
        return f"@{self.x},{self.y}"

    @classmethod
    def parse(cls, text: str) -> Vertex:
        m = _VERTEX_RE.match(text)
        if not m:
            raise ParseError(f"bad vertex {text!r}: expected '@x,y', for example @0,0")
        x, y = int(m.group(1)), int(m.group(2))
        _check_range(text, x, y)
        if (x + y) % 2:
            raise ParseError(f"bad vertex {text!r}: x + y must be even for a vertex")
        return cls(x, y)


def _check_range(text: str, x: int, y: int) -> None:
    if not (-OFFSET <= x < OFFSET and -OFFSET <= y < OFFSET):
        raise ParseError(f"cell or vertex {text.strip()!r} is off the board "
                         f"(coordinates run from {-OFFSET} to {OFFSET - 1})")


class Placement(NamedTuple):
    """A cell and a rotation 0–2: the tile's corner ``i`` lies on the cell's corner ``i + r``.

    Written ``x,y r`` (``1,0 r2``); the rotation defaults to 0 when omitted.

    >>> p = Placement.parse("1,0 r2"); p, str(p)
    (Placement(cell=Cell(x=1, y=0), rotation=2), '1,0 r2')
    """

    cell: Cell
    rotation: int

    def __str__(self) -> str:
        return f"{self.cell} r{self.rotation}"

    @classmethod
    def parse(cls, text: str) -> Placement:
        parts = text.split()
        if not parts or len(parts) > 2:
            raise ParseError(f"bad placement {text!r}: expected 'x,y rN', for example 1,0 r2")
        rotation = 0
        if len(parts) == 2:
            rotation = parse_rotation(parts[1])
        return cls(Cell.parse(parts[0]), rotation)


def parse_rotation(text: str) -> int:
    """``r0``, ``r1`` or ``r2`` (the ``r`` is optional)."""
    t = text.strip().lower().removeprefix("r")
    if t not in ("0", "1", "2"):
        raise ParseError(f"bad rotation {text!r}: expected r0, r1 or r2")
    return int(t)


CRADLE_CELLS = (Cell(0, 0), Cell(1, 0), Cell(1, -1), Cell(0, -1), Cell(-1, -1), Cell(-1, 0))
"""Cradle cells K0–K5, clockwise from the top (rules §13.2, data spec §5)."""
CENTRE = Vertex(0, 0)
