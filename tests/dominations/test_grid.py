"""Triangular grid geometry and its notation (issue 3, §2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominari.core.errors import ParseError
from dominari.dominations.grid import (
    CENTRE,
    CORNER_DELTAS_DOWN,
    CORNER_DELTAS_UP,
    CRADLE_CELLS,
    VERTEX_CELL_CORNER,
    Cell,
    Placement,
    Vertex,
    cell_key,
    corner_vertex,
    key_is_up,
    key_xy,
    shared_corner,
    side_neighbour,
)

coord = st.integers(min_value=-60, max_value=60)
cells = st.builds(Cell, coord, coord)


def vertex_of(x: int, y: int) -> Vertex:
    return Vertex(x, y) if (x + y) % 2 == 0 else Vertex(x + 1, y)


@given(cells)
def test_key_round_trip_and_orientation(c: Cell) -> None:
    assert key_xy(c.key) == (c.x, c.y)
    assert key_is_up(c.key) == c.up == bool((c.x + c.y) % 2)
    assert Cell.parse(str(c)) == c


@given(cells)
def test_neighbours_are_mutual_and_of_the_other_orientation(c: Cell) -> None:
    for side, n in enumerate(c.neighbours()):
        assert n.up != c.up
        assert n.neighbour(side) == c  # facing sides share their number
        assert n.side_towards(c) == side


@given(cells)
def test_a_shared_side_has_the_same_two_corners(c: Cell) -> None:
    for side in range(3):
        n = c.neighbour(side)
        mine = {c.corner(side), c.corner((side + 1) % 3)}
        theirs = {n.corner(side), n.corner((side + 1) % 3)}
        assert mine == theirs
        for end in (side, (side + 1) % 3):
            assert c.corner(end) == n.corner(shared_corner(side, end))
        # the third corners differ: the two cells lie on either side of the edge
        assert c.corner((side + 2) % 3) != n.corner((side + 2) % 3)


@given(cells)
def test_corners_are_distinct_vertices_with_even_parity(c: Cell) -> None:
    vs = c.corners()
    assert len(set(vs)) == 3
    assert all((v.x + v.y) % 2 == 0 for v in vs)
    for v in vs:
        assert c in v.cells()


@given(coord, coord)
@pytest.mark.rule("D-ADJ-1")
def test_six_cells_around_a_vertex(x: int, y: int) -> None:
    """Consecutive cells around a vertex share a side (adjacent); the others touch only at
    the corner, which is not adjacency."""
    v = vertex_of(x, y)
    around = v.cells()
    assert len(set(around)) == 6
    assert [c.up for c in around] == [False, True, False, True, False, True]
    for c, corner in zip(around, VERTEX_CELL_CORNER, strict=True):
        assert c.corner(corner) == v
    # consecutive cells around the vertex share a side (clockwise ring)
    for i in range(6):
        a, b = around[i], around[(i + 1) % 6]
        assert b in a.neighbours()
        for j in (2, 3, 4):
            assert around[(i + j) % 6] not in a.neighbours()


def test_corner_order_is_clockwise_from_the_apex() -> None:
    up, down = Cell(1, 0), Cell(0, 0)
    top, right, left = (v.point() for v in up.corners())
    assert top[1] > right[1] == left[1] and right[0] > left[0]
    bottom, upper_left, upper_right = (v.point() for v in down.corners())
    assert bottom[1] < upper_left[1] == upper_right[1] and upper_left[0] < upper_right[0]
    # key arithmetic agrees with the value objects
    for c in (up, down):
        deltas = CORNER_DELTAS_UP if c.up else CORNER_DELTAS_DOWN
        for k in range(3):
            assert corner_vertex(c.key, k) == c.key + deltas[k] == c.corner(k).key
            assert side_neighbour(c.key, k) == c.neighbour(k).key


@pytest.mark.rule("D-SET-1")
def test_cradle_is_the_hexagon_around_the_centre() -> None:
    assert CENTRE.cells() == CRADLE_CELLS
    assert [c.up for c in CRADLE_CELLS] == [False, True, False, True, False, True]  # K0 ▽ top


def test_notation_round_trips_and_rejects_bad_text() -> None:
    assert str(Vertex.parse("@ -2, 0")) == "@-2,0"
    assert Placement.parse("3,-1 r2") == Placement(Cell(3, -1), 2)
    assert Placement.parse("3,-1") == Placement(Cell(3, -1), 0)
    assert cell_key(0, 0) != cell_key(1, 0)
    for bad, cls in (("3;1", Cell), ("a,b", Cell), ("@1,0", Vertex), ("1,1", Vertex),
                     ("999,0", Cell), ("3,1 r3", Placement), ("", Placement)):
        with pytest.raises(ParseError):
            cls.parse(bad)  # type: ignore[attr-defined]
    with pytest.raises(ParseError, match="x \\+ y must be even"):
        Vertex.parse("@1,0")
    with pytest.raises(ParseError, match="off the board"):
        Cell.parse("500,2")
