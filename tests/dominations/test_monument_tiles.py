"""Diamond and circle monument tiles on the board: geometry, closed sides, corners."""

from __future__ import annotations

import pytest

from dominari.dominations.board import (
    LAND,
    NO_RESOURCE,
    Board,
    diamond_cells,
)
from dominari.dominations.data import MonumentDef, default_data
from dominari.dominations.grid import CENTRE, Cell, Vertex, side_corners
from dominari.dominations.production import RESOURCE, placement_yields

DIAMONDS = [m for m in default_data().monuments if m.shape == "diamond"]


def fresh() -> Board:
    return Board.with_cradle(default_data().cradle)


def side_vertices(cell: Cell, side: int) -> set[Vertex]:
    a, b = side_corners(side)
    return {cell.corner(a), cell.corner(b)}


@pytest.mark.parametrize("monument", DIAMONDS, ids=lambda m: m.id)
@pytest.mark.parametrize("side", [0, 1, 2])
def test_diamond_geometry_follows_the_card(monument: MonumentDef, side: int) -> None:
    m = monument
    assert m.sides is not None and m.corners is not None
    a, b = diamond_cells(Cell(3, 0).key, side, m.sides, m.corners)
    ca, cb = Cell.from_key(a.key), Cell.from_key(b.key)
    assert cb in ca.neighbours()
    k = side
    p, q, s = ca.corner((k + 2) % 3), ca.corner(k), ca.corner((k + 1) % 3)
    r = cb.corner((k + 2) % 3)
    assert {q, s} == side_vertices(ca, k) == side_vertices(cb, k)  # the inner side QS
    assert p not in cb.corners() and r not in ca.corners()  # P and R are the acute ends
    # the card's sides: s1 = PQ and s4 = SP on c1, s2 = QR and s3 = RS on c2
    expected = {0: {p, q}, 3: {s, p}}
    for s_index, verts in expected.items():
        closed_side = next(x for x in range(3) if side_vertices(ca, x) == verts)
        assert bool(a.closed >> closed_side & 1) == (m.sides[s_index] == "-")
    for s_index, verts in {1: {q, r}, 2: {r, s}}.items():
        closed_side = next(x for x in range(3) if side_vertices(cb, x) == verts)
        assert bool(b.closed >> closed_side & 1) == (m.sides[s_index] == "-")
    # the card's corners land on the right vertices
    at = {p: a.colours[(k + 2) % 3], q: a.colours[k], s: a.colours[(k + 1) % 3]}
    assert [at[p], at[q], at[s]] == [NO_RESOURCE if c is None else c
                                     for c in m.corners[:3]]
    assert b.colours[(k + 2) % 3] == (NO_RESOURCE if m.corners[3] is None
                                      else m.corners[3])


@pytest.mark.rule("D-GROW-2")
def test_closed_sides_of_a_placed_diamond_take_no_tile() -> None:
    pharos = DIAMONDS[0]
    assert pharos.sides is not None and pharos.corners is not None
    board = fresh()
    # c1 on 2,0 (right of the cradle's K1) with its inner side on top: P touches the cradle
    cells = diamond_cells(Cell(2, 0).key, 1, pharos.sides, pharos.corners)
    assert board.diamond_fits(cells) is None
    board.place_diamond(cells)
    assert set(board.frontier) == board.slow_open_cells()
    for c in cells:
        for side in range(3):
            nb = Cell.from_key(c.key).neighbour(side).key
            if c.closed >> side & 1:
                assert not board.is_open_cell(nb) and nb in board.blocked
    # a second diamond may not put a closed side against anything, nor float
    other = diamond_cells(Cell(-2, 0).key, 0, ("-", "-", "-", "-"), (None,) * 6)
    assert "closed" in (board.diamond_fits(other) or "")
    floating = diamond_cells(Cell(20, 20).key, 0, pharos.sides, pharos.corners)
    assert "no open side" in (board.diamond_fits(floating) or "")
    with pytest.raises(ValueError, match="already filled"):
        board.place_diamond(cells)


@pytest.mark.rule("D-GROW-3")
def test_a_tile_connected_to_a_monument_produces_its_corners() -> None:
    pharos = DIAMONDS[0]
    assert pharos.sides is not None and pharos.corners is not None
    board = fresh()
    cells = diamond_cells(Cell(2, 0).key, 1, pharos.sides, pharos.corners)
    board.place_diamond(cells)
    # s1 (P-Q) lies against the cradle; s2 (Q-R) is c2's one open side facing an empty cell
    c2 = Cell.from_key(cells[1].key)
    s2 = next(x for x in range(3) if board.is_open_cell(c2.neighbour(x).key))
    target = c2.neighbour(s2)
    ys = placement_yields(board, target.key, (NO_RESOURCE,) * 3, -1, s2, mover=0)
    got = sorted(y.domain for y in ys if y.source == RESOURCE)
    assert got == sorted([pharos.corners[3], pharos.corners[4]])  # c2.R (Art) and c2.Q (Trade)


def side_neighbour_key(key: int, side: int) -> int:
    return Cell.from_key(key).neighbour(side).key


def test_circle_monuments_stand_on_free_complete_loci() -> None:
    board = fresh()
    assert "centre of the cradle" in (board.circle_fits(CENTRE.key) or "")
    v = Vertex(2, 0)
    assert "not the centre of a complete locus" in (board.circle_fits(v.key) or "")
    for c in v.cells():
        if not board.is_filled(c.key):
            board.fill(c.key, LAND, (0, 0, 0), 0)
    board.place_circle(v.key, 6)
    assert board.circles[v.key] == 6
    with pytest.raises(ValueError, match="already stands"):
        board.place_circle(v.key, 7)
