"""Monuments through the engine: contributing levels, paying, placing the tile, rewards and
control (D-BUILD-6 … D-BUILD-10), with the rulebook examples of the Pharos and the Hanging
Gardens."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominations.board import LAND, MONUMENT
from dominari.dominations.engine import (
    BUILD,
    DEVELOP,
    F_PAY,
    VP_MONUMENTS,
    DominationsState,
)
from dominari.dominations.grid import Cell, Vertex
from dominari.dominations.notation import EXCHANGE, PAY
from dominari.dominations.notation import MONUMENT as MONUMENT_ACTION
from dominari.dominations.production import RESOURCE
from dominari.dominations.render import state_svg

from .helpers import A, C, R, T, do, give, grant, new, other_turn

PHAROS, GARDENS = 0, 6  # monument indices of M01, M07
M01_LEVELS = {f"M01-L{k}": k for k in range(1, 6)}  # the Pharos's level cards, by id


def land(s: DominationsState, cell: str, settlement: int, corners: tuple[int, int, int] = (0, 0, 0),
         owner: int | None = None, level: int = 1) -> int:
    """A land tile put straight on the board, with a city if ``owner`` is given."""
    key = Cell.parse(cell).key
    s.board.fill(key, LAND, corners, settlement)
    if owner is not None:
        s.board.build_city(key, owner)
        for _ in range(level - 1):
            s.board.upgrade_city(key)
    return key


def to_build(s: DominationsState) -> None:
    """The mover places a tile left of the cradle (away from the monuments) and reaches the
    build phase."""
    s.apply(next(a for a in s.placements() if Cell.from_key(a.b).x < 0))
    while s.phase != BUILD or s.stack:
        s.apply(next(a for a in s.legal_actions() if a.kind != EXCHANGE))


def monument_text(s: DominationsState, m: int, tile: str = "") -> str:
    """A legal 'monument …' action for monument index ``m`` (its first tree position)."""
    acts = [s.format_action(a) for a in s.legal_actions()
            if a.kind == MONUMENT_ACTION and a.a == m]
    matching = [t for t in acts if t.endswith(tile)]
    assert matching, (tile, acts)
    return matching[0]


@pytest.mark.rule("D-BUILD-1", "D-BUILD-6", "D-BUILD-7", "D-BUILD-8", "D-BUILD-9")
def test_pharos_level_one_any_mix_payment_tile_and_reward() -> None:
    """Level 1 costs 5 in any mix: the player pays step by step, the tile goes against their
    Trade city (10 VP, D-BUILD-9), the level card goes into the tree (5 VP) and fills Trade."""
    s = new(seed=1, monuments=("M01", "M07"))
    p = s.mover
    ps = s.players[p]
    land(s, "2,0", T, owner=p)
    ps.city_limit[T] = 10
    to_build(s)
    ps.knowledge = [3, 2, 1, 0, 0, 0]
    assert not [a for a in s.legal_actions() if a.kind == MONUMENT_ACTION and a.a == GARDENS]
    text = monument_text(s, PHAROS, "on 3,0 4,0")
    before = ps.vp
    do(s, text)
    assert s.stack and s.stack[-1][0] == F_PAY and s.phase_name == "pay"
    assert not [a for a in s.legal_actions() if a.kind == EXCHANGE]
    with pytest.raises(IllegalActionError, match="not while paying"):
        do(s, "exchange T C")
    with pytest.raises(IllegalActionError, match="you have 1 Art, not 2"):
        do(s, "pay 2 A")
    assert {s.format_action(a) for a in s.legal_actions() if a.kind == PAY} == {
        "pay 1 T", "pay 2 T", "pay 3 T", "pay 1 C", "pay 2 C", "pay 1 A"}
    do(s, "pay 2 C")
    with pytest.raises(IllegalActionError, match="only 3 knowledge is left"):
        do(s, "pay 4 T")
    do(s, "pay 1 A")  # 2 left and only Trade: paid without asking
    assert not s.stack and s.phase == DEVELOP
    assert [s.board.kind[Cell.parse(c).key] for c in ("3,0", "4,0")] == [MONUMENT, MONUMENT]
    assert s.levels_taken[PHAROS] == 1 and ps.tree.level_cards(M01_LEVELS) == [1]
    assert ps.vp - before == 5 + 10 and ps.vp_by[VP_MONUMENTS] == 15
    # the tile produced nothing (D-BUILD-8); level 1 filled Trade up to the limit
    assert ps.knowledge == [10, 0, 0, 0, 0, 0]  # (1 Trade was left before the fill)
    assert s.placed[PHAROS].cells == (Cell(3, 0).key, Cell(4, 0).key)


@pytest.mark.rule("D-BUILD-9")
def test_pharos_pays_the_city_owner_once_and_a_city_built_later() -> None:
    """The rulebook example: the Pharos gives 10 VP to the owner of an adjacent Trade city,
    whoever built the monument, and later 10 VP to a city built on the free settlement across
    its other reward side; upgrading that city gives nothing more."""
    s = new(seed=2, monuments=("M01", "M07"))
    p = s.mover
    q = 1 - p
    land(s, "2,0", T, owner=q)
    to_build(s)
    s.players[p].knowledge = [5, 0, 0, 0, 0, 0]
    do(s, monument_text(s, PHAROS, "on 3,0 4,0"))  # one domain only: paid without asking
    assert s.players[q].vp == 10 and s.players[p].vp == 5
    assert s.players[p].knowledge[T] == 5  # paid 5, then level 1 filled up to the limit
    do(s, "pass")
    other_turn(s, avoid=("4,1",))
    # p places a Craft tile on 4,1, against the Pharos' s2 (a reward side), and builds there
    give(s, "L16")
    s.apply(next(a for a in s.placements() if a.b == Cell(4, 1).key and a.a == 15))
    while s.phase != BUILD or s.stack:
        s.apply(next(a for a in s.legal_actions() if a.kind != EXCHANGE))
    ps = s.players[p]
    ps.knowledge[C] = 3
    before = ps.vp
    do(s, "city 4,1")
    assert ps.vp - before == 10
    do(s, "pass")
    other_turn(s)
    to_build(s) if s.phase != BUILD else None
    ps.knowledge[C] = 6
    before = ps.vp
    do(s, "upgrade 4,1")
    assert ps.vp == before  # never again for upgrades


@pytest.mark.rule("D-BUILD-8")
def test_later_tiles_activate_the_monuments_resources() -> None:
    s = new(seed=3, monuments=("M01", "M07"))
    p = s.mover
    land(s, "2,0", T, owner=p)
    to_build(s)
    s.players[p].knowledge = [5, 0, 0, 0, 0, 0]
    do(s, monument_text(s, PHAROS, "on 3,0 4,0"))
    do(s, "pass")
    give(s, "L90")
    acts = [a for a in s.placements() if a.b == Cell(4, 1).key and a.a == 89]
    yields = s.preview(acts[0])
    mon_cells = {Cell(3, 0).key, Cell(4, 0).key}
    from_monument = [y for y in yields if y.source == RESOURCE and y.cell in mon_cells]
    assert from_monument  # the Pharos' corner resources are produced like any tile's


@pytest.mark.rule("D-BUILD-7")
def test_the_pharos_needs_a_trade_city_and_level_one_needs_a_place() -> None:
    s = new(seed=4, monuments=("M01", "M07"))
    p = s.mover
    land(s, "2,0", C, owner=p)  # a Craft city: not enough for the Pharos
    to_build(s)
    s.players[p].knowledge = [9, 0, 0, 0, 0, 0]
    assert not [a for a in s.legal_actions() if a.kind == MONUMENT_ACTION and a.a == PHAROS]
    with pytest.raises(IllegalActionError, match="against a Trade city"):
        do(s, "monument M01 0,1 on 3,0 4,0")
    with pytest.raises(IllegalActionError, match="places its tile"):
        do(s, "monument M01 0,1")
    with pytest.raises(IllegalActionError, match="is a diamond"):
        do(s, "monument M01 0,1 on @2,0")
    with pytest.raises(IllegalActionError, match="not in play"):
        do(s, "monument M03 0,1 on 3,0 4,0")
    assert s.players[p].knowledge[T] == 9 and not s.placed


@pytest.mark.rule("D-BUILD-7", "D-BUILD-9")
def test_hanging_gardens_pay_per_craft_city_on_their_locus() -> None:
    """The rulebook example: 5 VP per Craft city on the locus, whatever its level and owner,
    at placement and for a Craft city built there later; nothing for other domains."""
    s = new(seed=5, monuments=("M01", "M07"))
    p = s.mover
    q = 1 - p
    land(s, "2,0", C, owner=p)
    land(s, "3,0", C, owner=q, level=2)
    land(s, "3,-1", T, owner=p)
    land(s, "2,-1", C)  # a free Craft settlement
    to_build(s)
    s.players[p].knowledge = [0, 0, 0, 0, 0, 5]
    do(s, monument_text(s, GARDENS, "on @2,0"))
    assert s.board.circles == {Vertex(2, 0).key: GARDENS}
    assert s.players[p].vp == 5 + 5 and s.players[q].vp == 5  # level card 5 + one city each
    do(s, "pass")
    other_turn(s, avoid=("2,-1",))
    to_build(s)
    s.players[p].knowledge[C] = 3
    before = s.players[p].vp
    do(s, "city 2,-1")
    assert s.players[p].vp - before == 5


@pytest.mark.rule("D-BUILD-6", "D-BUILD-10")
def test_levels_in_order_by_anyone_and_control() -> None:
    s = new(seed=6, monuments=("M01", "M07"))
    p = s.mover
    q = 1 - p
    land(s, "2,0", T, owner=q, level=2)
    to_build(s)
    s.players[p].knowledge = [5, 0, 0, 0, 0, 0]
    do(s, monument_text(s, PHAROS, "on 3,0 4,0"))
    # p: one level card; q: a level-2 city next to the Pharos
    assert s.controller(PHAROS) == q
    do(s, "pass")
    to_build(s)
    s.players[q].knowledge = [4, 4, 0, 0, 0, 0]
    with pytest.raises(IllegalActionError, match="already on the board"):
        do(s, "monument M01 0,1 on 3,0 4,0")
    text = monument_text(s, PHAROS)
    assert "on" not in text.split()  # later levels place no tile
    do(s, text)  # 8 to pay with exactly 8 knowledge: only one way, no question
    assert s.players[q].tree.level_cards(M01_LEVELS) == [2] and s.levels_taken[PHAROS] == 2
    assert s.controller(PHAROS) == q  # 1 card + 2 levels against 1 card
    key = Cell(2, 0).key
    del s.board.city_owner[key], s.board.city_level[key]  # without q's city: 1 card each
    assert s.controller(PHAROS) == p  # a tie: the lowest level card (L1) wins
    view = s.view(None)
    pharos = next(m for m in view["monuments"] if m["id"] == "M01")
    assert pharos["taken"] == 2 and pharos["next"] == "M01-L3" and pharos["controller"] == p


@pytest.mark.rule("D-BUILD-5")
def test_patronage_lowers_level_costs_and_named_costs_are_paid_in_their_domain() -> None:
    s = new(seed=7, monuments=("M01", "M07"), monument_cost="named")
    p = s.mover
    land(s, "2,0", T, owner=p)
    grant(s, p, "A6d-1")  # Patronage: monument levels cost 3 less
    to_build(s)
    assert s.level_cost(p, PHAROS) == 2 and s.level_domain(PHAROS) == T
    s.players[p].knowledge = [2, 0, 5, 0, 0, 0]
    do(s, monument_text(s, PHAROS, "on 3,0 4,0"))
    assert not s.stack  # named domain: no payment decision
    assert s.players[p].knowledge[A] == 5 and s.players[p].knowledge[R] == 0


def test_a_level_card_needs_a_place_in_the_tree() -> None:
    s = new(seed=8, monuments=("M01", "M07"))
    p = s.mover
    land(s, "2,0", T, owner=p)
    tree = s.players[p].tree
    for k, (pos, sides) in enumerate((((0, 1), (7, 7, 0, 7)), ((1, 0), (7, 7, 7, 0)),
                                      ((0, -1), (0, 7, 7, 7)), ((-1, 0), (7, 0, 7, 7)))):
        tree.place(pos, f"M02-L{k + 1}", sides, level_card=True)
    to_build(s)
    s.players[p].knowledge = [9, 0, 0, 0, 0, 0]
    assert not [a for a in s.legal_actions() if a.kind == MONUMENT_ACTION]


def test_the_board_picture_names_the_monument_on_its_cells() -> None:
    s = new(seed=9, monuments=("M01", "M07"))
    p = s.mover
    land(s, "2,0", T, owner=p)
    to_build(s)
    s.players[p].knowledge = [5, 0, 0, 0, 0, 0]
    do(s, monument_text(s, PHAROS, "on 3,0 4,0"))
    root = ET.fromstring(state_svg(s))
    cells = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
             if g.get("data-monument") == "M01"]
    assert sorted(g.get("data-cell") for g in cells) == ["3,0", "4,0"]
    titles = [g.find("{http://www.w3.org/2000/svg}title") for g in cells]
    assert all(t is not None and "Pharos of Alexandria" in (t.text or "") for t in titles)
