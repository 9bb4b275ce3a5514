"""The board: frontier, loci, closed monument sides, and what a placement produces."""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.dominations.board import (
    LAND,
    LINK_ALL_SIDES,
    LINK_LOCUS,
    MONUMENT,
    NO_RESOURCE,
    Board,
)
from dominari.dominations.grid import CRADLE_CELLS, Cell, Vertex
from dominari.dominations.production import (
    CITY,
    CONCENTRATION,
    LOCUS_RESOURCE,
    RESOURCE,
    SETTLEMENT,
    SETTLEMENT_BONUS,
    VESTIGIUM,
    placement_yields,
    reactivation_yields,
    totals,
)

T, C, A, S, G, R = range(6)


class K(NamedTuple):
    ccw: int
    cw: int


CRADLE = [K(T, S), K(C, G), K(A, R), K(S, T), K(G, C), K(R, A)]  # the data spec's rule


def cradle_board(cradle: list[K] = CRADLE) -> Board:
    return Board.with_cradle(cradle)


def key(text: str) -> int:
    return Cell.parse(text).key


def place(board: Board, cell: str, colours: tuple[int, int, int], settlement: int = T) -> None:
    board.fill(key(cell), LAND, colours, settlement, tile=0)


def sums(yields: list, players: int = 2) -> list[list[int]]:  # type: ignore[type-arg]
    return totals(yields, players)


@pytest.mark.rule("D-SET-1")
def test_cradle_corners_follow_the_data() -> None:
    b = cradle_board()
    # K1 (1,0) is a △ whose outer side runs from its apex @1,1 (ccw) to @2,0 (cw).
    assert b.colours[key("1,0")] == (C, G, NO_RESOURCE)
    # K0 (0,0) is the top ▽: bottom corner on the centre, outer side from @-1,1 to @1,1.
    assert b.colours[key("0,0")] == (NO_RESOURCE, T, S)
    assert b.is_locus(Vertex(0, 0).key)
    assert sorted(str(Cell.from_key(k)) for k in b.frontier) == [
        "-2,-1", "-2,0", "0,-2", "0,1", "2,-1", "2,0"]


@pytest.mark.rule("D-GROW-3", "D-GROW-4", "D-GROW-5")
def test_rulebook_example_one_craft_one_religion_four_trade() -> None:
    """The DE rulebook's example: 1 Craft, 1 Religion, 4 Trade (1 settlement + 3 for the
    matching Trade resources with their concentration bonus)."""
    b = cradle_board([K(T, S), K(T, C), K(A, R), K(S, T), K(G, C), K(R, A)])
    # 2,0 is a ▽ whose side 0 lies against K1: its corner 1 meets K1's Trade corner @1,1,
    # its corner 0 meets K1's Craft corner @2,0.
    ys = placement_yields(b, key("2,0"), (R, T, A), T, 0, mover=0)
    assert sums(ys)[0] == [4, 1, 0, 0, 0, 1, 0]
    kinds = sorted((y.source, y.domain, y.amount) for y in ys)
    assert kinds == sorted([(RESOURCE, T, 1), (RESOURCE, T, 1), (CONCENTRATION, T, 1),
                            (RESOURCE, R, 1), (RESOURCE, C, 1), (SETTLEMENT, T, 1)])
    # the corner away from the connection (Art) produces nothing
    assert all(y.domain != A for y in ys)


@pytest.mark.rule("D-GROW-3")
def test_only_the_chosen_connection_scores() -> None:
    b = cradle_board()
    place(b, "2,0", (T, T, T), settlement=C)  # ▽ right of K1
    place(b, "2,-1", (S, S, S), settlement=C)  # △ right of K2
    place(b, "3,0", (A, A, A), settlement=C)  # △ right of 2,0
    target = key("3,-1")  # ▽ below 3,0 and right of 2,-1
    sides = b.touching_sides(target)
    assert len(sides) == 2
    seen = set()
    for side in sides:
        ys = placement_yields(b, target, (G, G, G), R, side, mover=0)
        seen.add(tuple(sums(ys)[0]))
        assert sum(y.amount for y in ys if y.source == SETTLEMENT) == 1
    assert len(seen) == len(sides)  # each connection gives its own production


@pytest.mark.rule("D-GROW-6", "D-GROW-11")
def test_a_connected_city_produces_its_level_for_its_owner() -> None:
    b = cradle_board()
    place(b, "2,0", (T, C, A), settlement=S)
    b.build_city(key("2,0"), player=1)
    b.upgrade_city(key("2,0"))
    # 3,0 is a △ right of 2,0: its side 2 lies against 2,0.
    ys = placement_yields(b, key("3,0"), (G, G, R), R, 2, mover=0)
    city = [y for y in ys if y.source == CITY]
    assert city == [city[0]] and (city[0].player, city[0].domain, city[0].amount) == (1, S, 2)
    assert sums(ys)[1] == [0, 0, 0, 2, 0, 0, 0]


def ring_board() -> tuple[Board, int]:
    """Five of the six cells around @2,0 filled; returns the board and the empty sixth."""
    b = cradle_board()
    v = Vertex(2, 0)
    empty = [c for c in v.cells() if not b.is_filled(c.key)]
    rng = random.Random(1)
    # fill cells in an order that always touches the board
    while len(empty) > 1:
        for c in empty:
            if b.is_open_cell(c.key):
                place(b, str(c), (rng.randrange(6), rng.randrange(6), rng.randrange(6)), S)
                empty.remove(c)
                break
    return b, empty[0].key


@pytest.mark.rule("D-GROW-7")
def test_completing_a_locus_scores_the_locus_not_a_connection() -> None:
    b, last = ring_board()
    v = Vertex(2, 0)
    assert b.filled_around[v.key] == 5
    links = b.links(last)
    assert len(links) == 1 and links[0] >= LINK_LOCUS  # forced
    corner = links[0] - LINK_LOCUS
    assert Cell.from_key(last).corner(corner) == v
    b.build_city(key("2,0"), player=1)
    colours = [T, T, T]
    colours[corner] = R
    ys = placement_yields(b, last, (colours[0], colours[1], colours[2]), G, links[0], mover=0)
    assert not [y for y in ys if y.source == CONCENTRATION]
    centre = [y for y in ys if y.source == LOCUS_RESOURCE]
    expected = []
    for c in v.cells():
        if c.key == last:
            expected.append(R)
        else:
            col = b.colours[c.key][next(k for k in range(3) if c.corner(k) == v)]
            if col != NO_RESOURCE:
                expected.append(col)
    assert sorted(y.domain for y in centre) == sorted(expected)
    assert [(y.player, y.source) for y in ys if y.source == CITY] == [(1, CITY)]
    assert [y.domain for y in ys if y.source == SETTLEMENT] == [G]
    # the filled ring is a locus once the tile is down
    assert b.fill(last, LAND, (T, T, T), G) == [v.key]


@pytest.mark.rule("D-GROW-7")
def test_a_placement_completing_two_loci_chooses_one() -> None:
    b = cradle_board()
    # Fill the rings around two corners of 1,1, all but 1,1 itself.
    target = Cell(1, 1)
    va, vb = target.corner(1), target.corner(2)
    rng = random.Random(3)
    todo = [c for v in (va, vb) for c in v.cells() if c != target and not b.is_filled(c.key)]
    todo = list(dict.fromkeys(todo))
    while todo:
        for c in todo:
            if b.is_open_cell(c.key):
                place(b, str(c), (rng.randrange(6),) * 3, C)
                todo.remove(c)
                break
        else:  # pragma: no cover
            raise AssertionError("could not reach every cell")
    links = b.links(target.key)
    assert sorted(links) == sorted({LINK_LOCUS + 1, LINK_LOCUS + 2} & set(links))
    assert len(links) >= 2


@pytest.mark.rule("D-GROW-8")
def test_a_circle_monument_covers_the_locus_centre_until_lifted() -> None:
    b, last = ring_board()
    place(b, str(Cell.from_key(last)), (A, A, A), T)
    v = Vertex(2, 0).key
    b.circles[v] = 7
    k = key("2,0")
    corner = next(c for c in range(3) if Cell.from_key(k).corner(c) == Vertex(2, 0))
    lifted = reactivation_yields(b, k, LINK_LOCUS + corner, mover=0)
    assert len([y for y in lifted if y.source == LOCUS_RESOURCE]) >= 5  # lifted: all count
    from dominari.dominations import production

    covered: list = []  # type: ignore[type-arg]
    production._locus(b, v, -1, (0, 0, 0), 0, None, covered, lift=False)
    assert not [y for y in covered if y.source == LOCUS_RESOURCE]


def test_bonuses_and_all_sides_option() -> None:
    b = cradle_board()
    place(b, "2,0", (T, C, A), settlement=S)
    bonuses = [(1, 2, 0, 0), (0, 0, 0, 0)]
    ys = placement_yields(b, key("2,1"), (G, G, R), R, 1, 0, bonuses)
    extra = [(y.domain, y.amount) for y in ys if y.source == SETTLEMENT_BONUS]
    assert sorted(extra) == [(R, 1), (VESTIGIUM, 2)]
    place(b, "2,-1", (S, S, S), settlement=C)
    place(b, "3,0", (A, A, A), settlement=C)
    target = key("3,-1")
    assert len(b.touching_sides(target)) == 2
    both = placement_yields(b, target, (G, G, G), R, LINK_ALL_SIDES, 0)
    one = [placement_yields(b, target, (G, G, G), R, s, 0) for s in b.touching_sides(target)]
    settle = 1
    assert sum(y.amount for y in both) == sum(sum(y.amount for y in o) for o in one) - settle


@pytest.mark.rule("D-GROW-2")
def test_closed_monument_sides_block_cells() -> None:
    b = cradle_board()
    # a monument cell right of K1 with its side 2 (towards 3,0) closed
    b.fill(key("2,0"), MONUMENT, (T, NO_RESOURCE, NO_RESOURCE), closed=0b100)
    assert not b.is_open_cell(key("3,0"))
    assert key("3,0") in b.blocked
    assert b.is_open_cell(key("2,1"))  # across an open side
    assert b.slow_open_cells() == set(b.frontier)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
@pytest.mark.rule("D-GROW-2")
def test_frontier_matches_a_full_scan(seed: int, n: int) -> None:
    """The incrementally kept frontier equals a slow scan of the board, and a cell's links
    are its touching sides unless it completes a locus."""
    rng = random.Random(seed)
    b = cradle_board()
    for _ in range(n):
        if not b.frontier:
            break
        k = rng.choice(sorted(b.frontier))
        if rng.random() < 0.1:
            b.fill(k, MONUMENT, (T, NO_RESOURCE, S), closed=rng.randrange(8))
        else:
            b.fill(k, LAND, (rng.randrange(7), rng.randrange(6), rng.randrange(6)), T)
        assert set(b.frontier) == b.slow_open_cells()
    for k, mask in b.frontier.items():
        c = Cell.from_key(k)
        touching = {s for s in range(3) if b.is_filled(c.neighbour(s).key)}
        assert {s for s in range(3) if mask >> s & 1} == touching
        assert all(b.filled_around.get(v.key, 0) == sum(b.is_filled(x.key) for x in v.cells())
                   for v in c.corners())
    assert set(CRADLE_CELLS) <= {Cell.from_key(k) for k in b.kind}
