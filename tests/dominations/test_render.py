"""The SVG picture of the board and of a game state."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any, NamedTuple

import pytest

from dominari.dominations.board import LAND, MONUMENT, Board
from dominari.dominations.grid import Cell, Vertex
from dominari.dominations.render import (
    DOMAIN_COLOURS,
    PLAYER_COLOURS,
    board_svg,
    state_svg,
)

T, C, A, S, G, R, V = range(7)
NS = {"svg": "http://www.w3.org/2000/svg"}
TILE_IDS = [f"L{i:02d}" for i in range(1, 91)]


class K(NamedTuple):
    ccw: int
    cw: int


CRADLE = [K(T, S), K(C, G), K(A, R), K(S, T), K(G, C), K(R, A)]


def key(text: str) -> int:
    return Cell.parse(text).key


def sample_board() -> Board:
    """The cradle, four land tiles (three with cities) and a monument cell."""
    b = Board.with_cradle(CRADLE)
    b.fill(key("2,0"), LAND, (T, T, S), T, tile=6, rotation=1)
    b.fill(key("2,-1"), LAND, (C, V, A), A, tile=1)
    b.fill(key("3,0"), LAND, (G, R, -1), R, tile=2, rotation=2)
    b.fill(key("0,1"), LAND, (S, G, C), G, tile=3)
    b.fill(key("-2,0"), MONUMENT, (T, -1, A), closed=0b011)
    b.build_city(key("2,0"), 1)
    b.upgrade_city(key("2,0"))
    b.build_city(key("2,-1"), 0)
    b.build_city(key("0,1"), 3)
    return b


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def cells(root: ET.Element) -> dict[str, ET.Element]:
    """The cell groups by their data-cell attribute."""
    out = {}
    for g in root.iter(f"{{{NS['svg']}}}g"):
        if (g.get("class") or "").split()[:1] == ["cell"]:
            out[g.get("data-cell", "")] = g
    return out


def title_of(group: ET.Element) -> str:
    t = group.find("svg:title", NS)
    assert t is not None and t.text is not None
    return t.text


def polygons(root: ET.Element, cls: str) -> list[ET.Element]:
    return [p for p in root.iter(f"{{{NS['svg']}}}polygon") if p.get("class") == cls]


def board_state(b: Board) -> dict[str, Any]:
    return {name: getattr(b, name) for name in Board.__slots__}


# -- the board -----------------------------------------------------------------------------


def test_a_complete_svg_document_with_a_viewbox() -> None:
    svg = board_svg(sample_board())
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    box = [float(v) for v in root.get("viewBox", "").split()]
    assert len(box) == 4 and box[2] > 0 and box[3] > 0


def test_one_polygon_and_one_titled_group_per_filled_cell() -> None:
    b = sample_board()
    root = parse(board_svg(b, tile_ids=TILE_IDS))
    assert len(polygons(root, "tri")) == len(b.kind) == 11
    groups = cells(root)
    assert set(groups) == {str(Cell.from_key(k)) for k in b.kind}
    for name, g in groups.items():
        assert title_of(g).startswith(f"{name} — ")
    kinds = sorted(g.get("class", "") for g in groups.values())
    assert kinds.count("cell cradle") == 6
    assert kinds.count("cell land") == 4
    assert kinds.count("cell monument") == 1


def test_the_viewbox_contains_every_cell() -> None:
    b = sample_board()
    root = parse(board_svg(b, highlight=[key("5,0")], show_frontier=True))
    x0, y0, w, h = (float(v) for v in root.get("viewBox", "").split())
    for poly in root.iter(f"{{{NS['svg']}}}polygon"):
        for pair in (poly.get("points") or "").split():
            x, y = (float(v) for v in pair.split(","))
            assert x0 < x < x0 + w and y0 < y < y0 + h


def test_titles_tell_tile_settlement_corners_and_city() -> None:
    b = sample_board()
    groups = cells(parse(board_svg(b, tile_ids=TILE_IDS, player_names=["Ann", "Bob"])))
    assert title_of(groups["2,0"]) == (
        "2,0 — L07 (r1): settlement Trade; corners T T S; city of Bob, level 2")
    assert title_of(groups["2,-1"]).endswith("corners C V A; city of Ann, level 1")
    assert title_of(groups["3,0"]) == "3,0 — L03 (r2): settlement Religion; corners G R –"
    assert title_of(groups["0,0"]).startswith("0,0 — cradle: corners – T S")
    # without names the players are P1, P2…: player 4 here (index 3)
    assert "city of P4, level 1" in title_of(groups["0,1"])


def test_settlement_and_resources_are_drawn_with_letters() -> None:
    b = Board.with_cradle(CRADLE)
    b.fill(key("2,0"), LAND, (S, -1, V), R, tile=0)
    g = cells(parse(board_svg(b)))["2,0"]
    dots = {c: [x for x in g.iter() if x.get("class") == c] for c in ("settlement", "resource")}
    assert len(dots["settlement"]) == 1 and len(dots["resource"]) == 2  # no dot for -1
    letters = [t.text for d in dots["resource"] for t in d.iter(f"{{{NS['svg']}}}text")]
    assert letters == ["S", "V"]
    fills = [c.get("fill") for d in dots["resource"] for c in d.iter(f"{{{NS['svg']}}}circle")]
    assert fills == [DOMAIN_COLOURS[S], DOMAIN_COLOURS[V]]
    settlement = [t.text for t in dots["settlement"][0].iter(f"{{{NS['svg']}}}text")]
    assert settlement == ["R"]


def test_city_marker_shows_owner_colour_and_level() -> None:
    b = sample_board()
    groups = cells(parse(board_svg(b)))
    city = next(x for x in groups["2,0"].iter() if x.get("class") == "city")
    assert (city.get("data-owner"), city.get("data-level")) == ("1", "2")
    assert PLAYER_COLOURS[1] in {p.get("fill") for p in city.iter(f"{{{NS['svg']}}}path")}
    texts = [t.text for t in city.iter(f"{{{NS['svg']}}}text")]
    assert "2" in texts and "T" in texts  # the level, and the settlement's letter badge


def test_colour_constants() -> None:
    assert len(DOMAIN_COLOURS) >= 7 and len(set(DOMAIN_COLOURS)) == len(DOMAIN_COLOURS)
    assert len(PLAYER_COLOURS) == 4 and not set(PLAYER_COLOURS) & set(DOMAIN_COLOURS)


@pytest.mark.rule("D-GROW-2")
def test_closed_monument_sides_are_drawn() -> None:
    b = sample_board()
    groups = cells(parse(board_svg(b)))
    mono = groups["-2,0"]
    lines = [x for x in mono.iter(f"{{{NS['svg']}}}line") if x.get("class") == "closed"]
    assert len(lines) == 2  # closed = sides 0 and 1
    assert "closed sides 0, 1" in title_of(mono)
    assert not any(x.get("class") == "closed" for x in groups["2,0"].iter())


def test_circle_monument_on_its_vertex() -> None:
    b = sample_board()
    b.circles[Vertex(2, 0).key] = 6
    root = parse(board_svg(b, monument_ids=[f"M{i:02d}" for i in range(1, 13)]))
    circles = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "circle-monument"]
    assert len(circles) == 1 and circles[0].get("data-vertex") == "@2,0"
    assert "M07" in title_of(circles[0])
    c = circles[0].find("svg:circle", NS)
    assert c is not None and (c.get("cx"), c.get("cy")) == ("80", "0")


def test_highlight_and_frontier_outlines() -> None:
    b = sample_board()
    plain = parse(board_svg(b))
    assert not polygons(plain, "highlight") and not polygons(plain, "frontier")
    wanted = [key("1,1"), key("0,-2")]
    root = parse(board_svg(b, highlight=wanted, show_frontier=True))
    assert len(polygons(root, "highlight")) == 2
    assert len(polygons(root, "frontier")) == len(b.frontier)
    outlined = {g.get("data-cell") for g in root.iter(f"{{{NS['svg']}}}g")
                if g.get("class") == "highlight-cell"}
    assert outlined == {"1,1", "0,-2"}
    assert len(polygons(root, "tri")) == len(b.kind)  # outlines are not cells


def test_text_is_escaped() -> None:
    b = sample_board()
    svg = board_svg(b, player_names=["<&>\"'", "Bob"], title="a <title> & more")
    root = parse(svg)
    assert "<&>" not in svg
    assert "city of <&>\"', level 1" in title_of(cells(root)["2,-1"])
    t = root.find("svg:title", NS)
    assert t is not None and t.text == "a <title> & more"


def test_deterministic_and_pure() -> None:
    b = sample_board()
    before = board_state(b.copy())
    kw: dict[str, Any] = {"tile_ids": TILE_IDS, "highlight": {key("1,1"), key("0,-2")},
                          "show_frontier": True}
    first = board_svg(b, **kw)
    assert board_svg(b, **kw) == first
    assert board_svg(b.copy(), **kw) == first
    assert board_state(b) == before
    numbers = re.sub(r"#[0-9a-f]{6}", "", first)  # leave out the colours
    assert not re.search(r"\d[eE][-+]?\d|nan|inf", numbers)  # plain numbers only
    assert not re.search(r"\.\d{3}", numbers)  # at most two decimals


def test_empty_board_still_renders() -> None:
    root = parse(board_svg(Board()))
    assert not polygons(root, "tri")


# -- a whole state -------------------------------------------------------------------------


def play(seed: int = 5, placements: int = 24) -> Any:
    from dominari.dominations.engine import DominationsConfig, DominationsState
    from dominari.dominations.notation import PLACE

    s = DominationsState.new(DominationsConfig(players=3, seed=seed, names=("Ann", "<Bo&b>",
                                                                              "Cy")))
    rng = random.Random(seed)
    placed = 0
    while placed < placements and not s.is_terminal():
        acts = s.legal_actions()
        builds = [a for a in acts if s.format_action(a).startswith(("city", "upgrade"))]
        places = [a for a in acts if a.kind == PLACE]
        if builds:
            a = builds[0]
        elif places:
            a = rng.choice(places)
            placed += 1
        else:
            passes = [a for a in acts if s.format_action(a) == "pass"]
            a = passes[0] if passes else acts[0]
        s.apply(a)
    return s


def test_state_svg_shows_board_players_and_phase() -> None:
    s = play()
    before = board_state(s.board.copy())
    knowledge = [ps.knowledge.copy() for ps in s.players]
    svg = state_svg(s)
    assert state_svg(s) == svg
    assert board_state(s.board) == before
    assert [ps.knowledge for ps in s.players] == knowledge
    root = parse(svg)
    assert len(polygons(root, "tri")) == len(s.board.kind)
    text = " ".join(t.text or "" for t in root.iter(f"{{{NS['svg']}}}text"))
    assert f"Age {s.age}" in text and s.phase_name in text
    assert "<Bo&b>" in text and "<Bo&b>" not in svg
    for ps in s.players:
        assert f"{ps.vp} VP" in text
        limits = ps.limits()
        for d in range(6):
            assert f"{ps.knowledge[d]}/{limits[d]}" in text
    players = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "player"]
    assert len(players) == 3
    for p, g in enumerate(players):
        rect = g.find("svg:rect", NS)
        assert rect is not None and rect.get("fill") == PLAYER_COLOURS[p]
    groups = cells(root)
    for k, owner in s.board.city_owner.items():
        title = title_of(groups[str(Cell.from_key(k))])
        assert f"city of {s.config.player_names()[owner]}, level {s.board.city_level[k]}" in title
    for k, t in s.board.tile.items():
        assert s.data.tiles[t].id in title_of(groups[str(Cell.from_key(k))])
