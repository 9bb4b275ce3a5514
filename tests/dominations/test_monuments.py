"""Monument tiles in play: where they may go, their rewards and their control (rules §6)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominations.board import LAND, MONUMENT, Board, diamond_cells
from dominari.dominations.data import MonumentDef, default_data
from dominari.dominations.grid import CENTRE, Cell, Vertex, side_neighbour
from dominari.dominations.monuments import (
    PlacedMonument,
    circle_options,
    control_scores,
    controller,
    diamond_options,
    place_monument,
    placed_record,
    rewards_for_city,
    rewards_on_placement,
)
from dominari.dominations.tree import Tree

T, C, A, S, G, R = range(6)
DATA = default_data()
MONUMENTS = DATA.monuments
PHAROS = DATA.monument_by_id["M01"]  # diamond, sides R R - -, next to a Trade city, 10 VP
PYRAMID = DATA.monument_by_id["M03"]  # diamond, sides R O R O, next to a Craft city
GARDENS = DATA.monument_by_id["M07"]  # circle, 5 VP per Craft city on the locus
DIAMONDS = [m for m in MONUMENTS if m.shape == "diamond"]


def key(text: str) -> int:
    return Cell.parse(text).key


def fresh() -> Board:
    return Board.with_cradle(DATA.cradle)


def land(board: Board, cell: str, settlement: int) -> None:
    board.fill(key(cell), LAND, (T, T, T), settlement, tile=0)


def city(board: Board, cell: str, player: int, level: int = 1) -> None:
    board.build_city(key(cell), player)
    for _ in range(level - 1):
        board.upgrade_city(key(cell))


def snapshot(board: Board) -> dict[str, Any]:
    return {name: getattr(board, name) for name in Board.__slots__}


def names(keys: Iterable[int]) -> list[str]:
    return sorted(str(Cell.from_key(k)) for k in keys)


def open_neighbours(cells: tuple[Any, Any]) -> set[int]:
    """Cells across a side of the diamond that its own closed masks leave open."""
    keys = {c.key for c in cells}
    return {side_neighbour(c.key, s) for c in cells for s in range(3)
            if not c.closed >> s & 1 and side_neighbour(c.key, s) not in keys}  # fmt: skip


def brute_force(board: Board, mon: MonumentDef) -> list[tuple[int, int]]:
    """Every fitting orientation in a window far larger than the board, checked naively."""
    assert mon.sides is not None and mon.corners is not None
    found = []
    for y in range(-8, 9):
        for x in range(-12, 13):
            for side in range(3):
                cells = diamond_cells(Cell(x, y).key, side, mon.sides, mon.corners)
                if board.diamond_fits(cells) is not None:
                    continue
                if mon.place_domain is not None and not any(
                    nb in board.city_owner and board.settlement.get(nb) == mon.place_domain
                    for nb in open_neighbours(cells)
                ):
                    continue
                found.append((Cell(x, y).key, side))
    return sorted(found)


def busy_board() -> Board:
    """Land around the cradle: Trade and Craft cities, an empty Trade settlement."""
    b = fresh()
    land(b, "2,0", T)
    city(b, "2,0", 1)
    land(b, "-2,0", C)
    city(b, "-2,0", 0, 2)
    land(b, "0,-2", T)  # a Trade settlement without a city
    land(b, "0,1", T)
    city(b, "0,1", 2)
    land(b, "0,2", C)
    land(b, "2,-1", C)
    city(b, "2,-1", 0)
    land(b, "3,-1", R)
    city(b, "3,-1", 1)
    return b


def tree_with(*card_ids: str) -> Tree:
    """A tree holding these level cards around its campfire (at most four)."""
    t = Tree()
    for pos, card_id in zip(((0, 1), (1, 0), (0, -1), (-1, 0)), card_ids, strict=False):
        t.place(pos, card_id, (T, T, T, T), level_card=True)
    return t


def pharos_scene() -> tuple[Board, PlacedMonument]:
    """The rulebook's Pharos: a Trade city (player 1) across its R side s1."""
    b = fresh()
    land(b, "2,0", T)
    city(b, "2,0", 1, 2)
    placed = place_monument(b, PHAROS, (key("3,0"), 0))
    return b, placed


def gardens_scene() -> Board:
    """The locus @2,0 completed: cradle cells 1,0 and 1,-1 plus four land tiles."""
    b = fresh()
    land(b, "2,0", C)
    city(b, "2,0", 0, 3)
    land(b, "3,0", C)
    city(b, "3,0", 1)
    land(b, "3,-1", T)
    city(b, "3,-1", 1, 2)
    land(b, "2,-1", C)  # an empty Craft settlement
    return b


# -- geometry --------------------------------------------------------------------------------


@pytest.mark.rule("D-BUILD-9", "D-BUILD-10", "D-ADJ-1")
@pytest.mark.parametrize("mon", DIAMONDS, ids=lambda m: m.id)
def test_diamond_record_names_the_cells_across_its_open_and_reward_sides(
    mon: MonumentDef,
) -> None:
    assert mon.sides is not None and mon.corners is not None
    for cell in ("3,0", "2,1"):
        for side in range(3):
            rec = placed_record(mon, (key(cell), side))
            cells = diamond_cells(key(cell), side, mon.sides, mon.corners)
            assert rec.shape == "diamond" and rec.monument == mon.index
            assert rec.cells == (cells[0].key, cells[1].key) and rec.side == side
            assert rec.vertex == -1
            assert set(rec.adjacent_cells) == open_neighbours(cells)
            # the reward cells: open only where the card shows R
            only_r = tuple("R" if m == "R" else "-" for m in mon.sides)
            assert set(rec.reward_cells) == open_neighbours(
                diamond_cells(key(cell), side, only_r, mon.corners))
            assert list(rec.adjacent_cells) == sorted(rec.adjacent_cells)
            assert list(rec.reward_cells) == sorted(rec.reward_cells)
            assert len(rec.adjacent_cells) == sum(m != "-" for m in mon.sides)
            assert len(rec.reward_cells) == mon.sides.count("R")
            assert not set(rec.adjacent_cells) & set(rec.cells)


@pytest.mark.rule("D-BUILD-9", "D-BUILD-10")
def test_circle_record_is_the_six_locus_cells() -> None:
    v = Vertex(2, 0)
    rec = placed_record(GARDENS, (v.key, -1))
    assert rec == PlacedMonument(GARDENS.index, "circle", (), v.key, -1,
                                 rec.reward_cells, rec.reward_cells)  # fmt: skip
    assert rec.reward_cells == tuple(sorted(c.key for c in v.cells()))


# -- placement (D-BUILD-7) -------------------------------------------------------------------


@pytest.mark.rule("D-BUILD-7", "D-ADJ-1")
def test_a_diamond_must_face_a_city_of_its_domain_across_an_open_side() -> None:
    b = fresh()
    assert diamond_options(b, PHAROS) == []  # no city at all
    land(b, "2,0", T)
    assert diamond_options(b, PHAROS) == []  # a Trade settlement, but no city
    land(b, "-2,0", C)
    city(b, "-2,0", 0)
    assert diamond_options(b, PHAROS) == []  # a city of another domain does not qualify
    city(b, "2,0", 1)
    options = diamond_options(b, PHAROS)
    assert options and options == sorted(options)
    for cell, side in options:
        rec = placed_record(PHAROS, (cell, side))
        assert key("2,0") in rec.adjacent_cells  # the city lies across an open side
    # a Pharos with a closed side against the city (s4 of c1 = 3,0's left side) is refused
    before = snapshot(b.copy())
    with pytest.raises(IllegalActionError, match="closed"):
        place_monument(b, PHAROS, (key("3,0"), 1))
    assert (key("3,0"), 1) not in options
    assert snapshot(b) == before


@pytest.mark.rule("D-BUILD-7", "D-ADJ-1")
@pytest.mark.parametrize("mon", [PHAROS, PYRAMID, DATA.monument_by_id["M05"]],
                         ids=lambda m: m.id)  # fmt: skip
def test_diamond_options_are_exactly_the_fitting_orientations(mon: MonumentDef) -> None:
    b = busy_board()
    expected = brute_force(b, mon)
    assert diamond_options(b, mon) == expected
    if mon.place_domain in (T, C):
        assert expected  # the busy board has cities of both domains
    for cell, side in expected:
        copy = b.copy()
        place_monument(copy, mon, (cell, side))


@pytest.mark.rule("D-BUILD-7")
def test_diamond_options_without_a_condition_use_the_whole_frontier() -> None:
    free = dataclasses.replace(PHAROS, place_domain=None)
    b = busy_board()
    expected = brute_force(b, free)
    assert diamond_options(b, free) == expected
    assert len(expected) > len(diamond_options(b, PHAROS))
    assert diamond_options(fresh(), free) == brute_force(fresh(), free)


@pytest.mark.rule("D-BUILD-7")
def test_circle_options_are_the_free_complete_loci() -> None:
    b = fresh()
    assert b.is_locus(CENTRE.key)
    assert circle_options(b) == []  # the cradle centre never takes a monument
    land(b, "2,0", C)
    land(b, "3,0", C)
    land(b, "3,-1", T)
    assert circle_options(b) == []  # @2,0 is not complete yet
    land(b, "2,-1", C)
    assert circle_options(b) == [Vertex(2, 0).key]
    land(b, "-2,0", A)
    land(b, "-3,0", A)
    land(b, "-3,-1", A)
    land(b, "-2,-1", A)
    assert circle_options(b) == sorted([Vertex(2, 0).key, Vertex(-2, 0).key])
    place_monument(b, GARDENS, (Vertex(2, 0).key, -1))
    assert b.circles == {Vertex(2, 0).key: GARDENS.index}
    assert circle_options(b) == [Vertex(-2, 0).key]


@pytest.mark.rule("D-BUILD-7")
def test_illegal_placements_raise_and_change_nothing() -> None:
    b = busy_board()
    before = snapshot(b.copy())
    cases: list[tuple[MonumentDef, tuple[int, int], str]] = [
        # not against a Trade city: beside the empty Trade settlement 0,-2 only
        (PHAROS, (key("-1,-2"), 1), "against a Trade city"),
        (PHAROS, (key("20,20"), 0), "no open side"),
        (PHAROS, (key("2,0"), 1), "already filled"),
        (PHAROS, (key("3,0"), 3), "0, 1 or 2"),
        (GARDENS, (CENTRE.key, -1), "centre of the cradle"),
        (GARDENS, (Vertex(4, 0).key, -1), "not the centre of a complete locus"),
        (GARDENS, (CENTRE.key, 0), "vertex only"),
    ]
    for mon, where, reason in cases:
        with pytest.raises(IllegalActionError, match=reason) as err:
            place_monument(b, mon, where)
        assert "(D-" in str(err.value)
        assert snapshot(b) == before
    with pytest.raises(IllegalActionError) as err:
        place_monument(b, PHAROS, (key("-1,-2"), 1))
    assert str(err.value) == ("the Pharos of Alexandria must lie, across an open side, against "
                              "a Trade city (D-BUILD-7)")  # fmt: skip


@pytest.mark.rule("D-BUILD-7")
def test_a_locus_takes_one_circle() -> None:
    b = gardens_scene()
    place_monument(b, GARDENS, (Vertex(2, 0).key, -1))
    before = snapshot(b.copy())
    with pytest.raises(IllegalActionError, match="already stands"):
        place_monument(b, DATA.monument_by_id["M08"], (Vertex(2, 0).key, -1))
    assert snapshot(b) == before


@pytest.mark.rule("D-BUILD-7", "D-BUILD-8")
def test_placing_a_diamond_fills_two_bare_cells_and_produces_nothing() -> None:
    b, placed = pharos_scene()
    assert placed == placed_record(PHAROS, (key("3,0"), 0))
    assert names(placed.cells) == ["3,0", "4,0"]
    for c in placed.cells:
        assert b.kind[c] == MONUMENT and c not in b.settlement and c not in b.city_owner
    assert b.city_level == {key("2,0"): 2}  # nothing else changed hands
    # its closed sides (s3, s4) take no tile, now or later
    assert key("3,-1") in b.blocked and key("5,0") in b.blocked
    assert set(b.frontier) == b.slow_open_cells()


# -- rewards (D-BUILD-9) ---------------------------------------------------------------------


@pytest.mark.rule("D-BUILD-9")
def test_pharos_pays_ten_to_the_trade_city_across_its_reward_side() -> None:
    b, placed = pharos_scene()
    assert names(placed.reward_cells) == ["2,0", "4,1"]
    assert rewards_on_placement(b, placed, PHAROS) == [(1, 10, key("2,0"))]
    # later a city is built on a free settlement across the other R side (s2): 10 VP
    land(b, "4,1", C)
    city(b, "4,1", 0)
    assert rewards_for_city(b, [placed], MONUMENTS, key("4,1")) == [(0, 10, PHAROS.index)]
    # a city elsewhere (2,1 touches the Pharos only at a corner) gets nothing
    land(b, "2,1", T)
    city(b, "2,1", 2)
    assert rewards_for_city(b, [placed], MONUMENTS, key("2,1")) == []
    # no city on the cell: nothing; the cells across the closed sides can hold none
    assert rewards_for_city(b, [placed], MONUMENTS, key("5,1")) == []
    assert not b.is_open_cell(key("3,-1")) and not b.is_open_cell(key("5,0"))


@pytest.mark.rule("D-BUILD-9")
def test_diamond_pays_every_city_across_an_r_side_whatever_its_domain() -> None:
    b = fresh()
    land(b, "2,0", T)
    city(b, "2,0", 1)
    land(b, "4,1", R)
    city(b, "4,1", 3, 3)
    placed = place_monument(b, PHAROS, (key("3,0"), 0))
    assert rewards_on_placement(b, placed, PHAROS) == sorted(
        [(1, 10, key("2,0")), (3, 10, key("4,1"))], key=lambda r: r[2])


@pytest.mark.rule("D-BUILD-9")
def test_pyramid_open_side_without_reward_pays_nothing() -> None:
    # M03 (R O R O): a Craft city across an O side allows the placement but earns no VP
    b = fresh()
    land(b, "2,0", C)
    city(b, "2,0", 0)
    options = diamond_options(b, PYRAMID)
    by_reward = {(c, s): key("2,0") in placed_record(PYRAMID, (c, s)).reward_cells
                 for c, s in options}  # fmt: skip
    assert True in by_reward.values() and False in by_reward.values()
    o_side = next(o for o, r in by_reward.items() if not r)
    placed = place_monument(b, PYRAMID, o_side)
    assert key("2,0") in placed.adjacent_cells
    assert rewards_on_placement(b, placed, PYRAMID) == []


@pytest.mark.rule("D-BUILD-9")
def test_hanging_gardens_pay_five_per_craft_city_on_the_locus() -> None:
    b = gardens_scene()
    land(b, "4,0", C)  # a Craft city next to the locus but not on it
    city(b, "4,0", 2)
    placed = place_monument(b, GARDENS, (Vertex(2, 0).key, -1))
    # the level-3 and the level-1 Craft city alike; the Trade city nothing
    assert rewards_on_placement(b, placed, GARDENS) == sorted(
        [(0, 5, key("2,0")), (1, 5, key("3,0"))], key=lambda r: r[2])
    city(b, "2,-1", 2)  # built later on the locus's empty Craft settlement
    assert rewards_for_city(b, [placed], MONUMENTS, key("2,-1")) == [(2, 5, GARDENS.index)]
    assert rewards_for_city(b, [placed], MONUMENTS, key("3,-1")) == []  # a Trade city
    assert rewards_for_city(b, [placed], MONUMENTS, key("4,0")) == []  # off the locus


@pytest.mark.rule("D-BUILD-9")
def test_a_city_may_be_owed_by_several_monuments() -> None:
    b = fresh()
    land(b, "2,0", T)
    city(b, "2,0", 1)
    pharos = place_monument(b, PHAROS, (key("3,0"), 0))  # R sides face 2,0 and 4,1
    for cell, dom in (("2,1", C), ("3,1", C), ("4,1", C)):
        land(b, cell, dom)
    gardens = place_monument(b, GARDENS, (Vertex(3, 1).key, -1))
    assert key("4,1") in gardens.reward_cells and key("4,1") in pharos.reward_cells
    city(b, "4,1", 0)
    assert rewards_for_city(b, [gardens, pharos], MONUMENTS, key("4,1")) == [
        (0, 10, PHAROS.index), (0, 5, GARDENS.index)]


# -- control (D-BUILD-10) --------------------------------------------------------------------


@pytest.mark.rule("D-BUILD-10", "D-ADJ-1")
def test_control_adds_level_cards_and_adjacent_city_levels() -> None:
    b, placed = pharos_scene()  # player 1's level-2 Trade city on 2,0 (across s1)
    land(b, "4,1", C)
    city(b, "4,1", 0)  # across s2
    land(b, "2,1", T)
    city(b, "2,1", 2, 3)  # touches the Pharos at a corner only: does not count
    trees = [tree_with("M01-L2"), tree_with(), tree_with("M01-L1", "M01-L3", "M07-L1")]
    assert control_scores(b, placed, PHAROS, trees) == [2, 2, 2]
    # a three-way tie: player 2 holds the lowest level card (L1)
    assert controller(b, placed, PHAROS, trees, [0, 1, 2]) == 2
    # without the tile only level cards count
    assert control_scores(b, None, PHAROS, trees) == [1, 0, 2]
    assert controller(b, None, PHAROS, trees, [0, 1, 2]) == 2


@pytest.mark.rule("D-BUILD-10")
def test_control_ties_go_to_the_lowest_level_card_then_initiative() -> None:
    b, placed = pharos_scene()  # player 1: a level-2 city beside it
    trees = [tree_with("M01-L4", "M01-L5"), tree_with(), tree_with("M01-L3")]
    assert control_scores(b, placed, PHAROS, trees) == [2, 2, 1]
    assert controller(b, placed, PHAROS, trees, [1, 2, 0]) == 0  # only 0 holds a card
    trees = [tree_with("M01-L4"), tree_with(), tree_with("M01-L2")]
    assert controller(b, placed, PHAROS, trees, [0, 1, 2]) == 1  # a clear winner
    trees = [tree_with(), tree_with(), tree_with()]
    b.upgrade_city(key("2,0"))
    land(b, "4,1", C)
    city(b, "4,1", 0, 3)
    assert control_scores(b, placed, PHAROS, trees) == [3, 3, 0]
    assert controller(b, placed, PHAROS, trees, [1, 0, 2]) == 1  # initiative decides
    assert controller(b, placed, PHAROS, trees, [2, 0, 1]) == 0


@pytest.mark.rule("D-BUILD-10")
def test_nobody_controls_a_monument_with_no_score() -> None:
    b = fresh()
    land(b, "2,0", T)
    city(b, "2,0", 1)
    trees = [tree_with(), tree_with()]
    assert controller(b, None, PHAROS, trees, [0, 1]) is None
    gardens = placed_record(GARDENS, (Vertex(-2, 0).key, -1))
    assert control_scores(b, gardens, GARDENS, trees) == [0, 0]
    assert controller(b, gardens, GARDENS, trees, [0, 1]) is None


@pytest.mark.rule("D-BUILD-10")
def test_circle_control_counts_the_cities_on_its_locus() -> None:
    b = gardens_scene()  # player 0: level 3 on 2,0; player 1: level 1 on 3,0, level 2 on 3,-1
    land(b, "4,0", C)
    city(b, "4,0", 0, 3)  # off the locus
    placed = place_monument(b, GARDENS, (Vertex(2, 0).key, -1))
    trees = [tree_with(), tree_with(), tree_with("M07-L1", "M07-L2", "M07-L3")]
    assert control_scores(b, placed, GARDENS, trees) == [3, 3, 3]
    assert controller(b, placed, GARDENS, trees, [0, 1, 2]) == 2
    assert controller(b, placed, GARDENS, trees[:2], [1, 0]) == 1


@pytest.mark.rule("D-BUILD-10")
def test_control_counts_a_monuments_level_cards_by_its_own_ids() -> None:
    """A data set may name level cards as it likes (the schema asks only for a word): the
    control of a monument counts its level cards by the ids its data gives them, not by
    the built-in ``M01-L1`` pattern (with other ids, none counted, and games changed)."""
    from dataclasses import replace

    renamed = replace(PHAROS, levels=tuple(replace(lv, id=f"Pharos/{lv.level}")
                                           for lv in PHAROS.levels))
    b, placed = pharos_scene()  # player 1's level-2 Trade city beside it
    trees = [tree_with("Pharos/2", "Pharos/3"), tree_with(), tree_with("M01-L1")]
    assert control_scores(b, placed, renamed, trees) == [2, 2, 0]
    assert controller(b, placed, renamed, trees, [1, 0, 2]) == 0  # holds a level card
    assert control_scores(b, placed, PHAROS, trees) == [0, 2, 1]
