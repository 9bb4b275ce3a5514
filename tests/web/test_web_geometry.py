"""The browser's triangular-grid geometry (``js/dominations/geometry.js``) agrees with the
Python grid (``dominari.dominations.grid``) and the SVG renderer's point maths
(``dominari.dominations.render``) for many cells and vertices."""

from __future__ import annotations

from typing import Any

import pytest

from dominari.dominations import render
from dominari.dominations.grid import Cell, Vertex, cell_key
from dominari.server.service import dominations_catalog
from dominari.server.tables import new_state

pytestmark = pytest.mark.timeout(120)



def engine_rotations() -> list[tuple[list[str], list[list[str]]]]:
    """For each tile of a fresh hand: its printed corners and, for r0–r2, the colours the
    engine puts on the board's cell corners when it is placed with that rotation."""
    state = new_state("dominations", {"players": 2, "seed": 3}, {})
    while state.view(0)["phase"] != "growth":
        state.apply(state.legal_actions()[0])
    tiles = {t["id"]: t["corners"] for t in dominations_catalog(None)["files"]["tiles"]}
    player = state.current_player()
    out = []
    for tile in state.view(player)["players"][player]["hand"]:
        placed = []
        for r in range(3):
            text = next(a for a in state.view(player)["legal_actions"]
                        if a.startswith(f"{tile} ") and f" r{r} " in a)
            after = state.copy()
            after.apply(after.parse_action(text))
            cell = text.split()[1]
            placed.append(next(c["colours"] for c in after.view(0)["board"]
                               if c["cell"] == cell))
        out.append((tiles[tile], placed))
    return out


TILES = engine_rotations()
CELLS = [(x, y) for x in range(-7, 8) for y in range(-5, 6)]
VERTICES = [(x, y) for x in range(-8, 9) for y in range(-5, 6) if (x + y) % 2 == 0]

# Everything geometry.js computes for the cells and vertices above, in one round trip.
JS = """async ([cells, vertices, tiles]) => {
  const g = await import('/static/js/dominations/geometry.js');
  const xy = (p) => [p.x, p.y];
  return {
    cells: cells.map(([x, y]) => {
      const c = {x, y};
      const text = g.formatCell(c);
      return {
        text, parsed: xy(g.parseCell(text)), up: g.isUp(c), upFromText: g.isUp(text),
        corners: g.cornerVertices(c).map(xy),
        neighbours: g.neighbours(c).map(xy),
        points: g.cellPoints(c),
        centroid: g.centroid(c),
        center: g.cellCenterPlane(c),
        cornerAt: g.cornerVertices(c).map((v) => g.cornerAt(c, g.formatVertex(v))),
        sides: g.neighbours(c).map((n) => g.sideTowards(n, c)),
      };
    }),
    vertices: vertices.map(([x, y]) => {
      const v = {x, y};
      const text = g.formatVertex(v);
      return {text, parsed: xy(g.parseVertex(text)), cells: g.vertexCells(v).map(xy),
              point: g.vertexPoint(v)};
    }),
    rotations: [0, 1, 2].map((r) => g.rotateColours(['T', 'S', 'R'], r)),
    tiles: tiles.map((corners) => [0, 1, 2].map((r) => g.rotateColours(corners, r))),
    bad: [g.parseCell('x'), g.parseVertex('@1,0'), g.parseVertex('1,1')],
    spaced: [xy(g.parseCell(' ( 3 , -1 ) ')), xy(g.parseVertex('@ -2,0'))],
    scale: g.SCALE,
  };
}"""


@pytest.fixture(scope="module")
def js(live_server: Any, browser: Any) -> dict[str, Any]:
    page = browser.new_page()
    try:
        page.goto(live_server.url)
        return dict(page.evaluate(JS, [CELLS, VERTICES, [c for c, _ in TILES]]))
    finally:
        page.close()


def close(a: Any, b: Any) -> bool:
    return all(abs(p - q) < 1e-9 for p, q in zip(a, b, strict=True))


def test_scale_matches_the_renderer(js: dict[str, Any]) -> None:
    assert js["scale"] == render.SCALE


def test_cells_parse_format_and_orientation(js: dict[str, Any]) -> None:
    for (x, y), got in zip(CELLS, js["cells"], strict=True):
        cell = Cell(x, y)
        assert got["text"] == str(cell)
        assert tuple(got["parsed"]) == tuple(Cell.parse(str(cell)))
        assert got["up"] is cell.up and got["upFromText"] is cell.up
    assert js["spaced"] == [[3, -1], [-2, 0]]
    assert js["bad"] == [None, None, None]


def test_corners_neighbours_and_sides(js: dict[str, Any]) -> None:
    for (x, y), got in zip(CELLS, js["cells"], strict=True):
        cell = Cell(x, y)
        assert [tuple(v) for v in got["corners"]] == [tuple(v) for v in cell.corners()]
        assert [tuple(n) for n in got["neighbours"]] == [tuple(n) for n in cell.neighbours()]
        assert got["cornerAt"] == [0, 1, 2]
        # Across a shared edge both cells use the same side number (grid.facing_side).
        assert got["sides"] == [0, 1, 2]


def test_points_and_centroids_match_the_svg_renderer(js: dict[str, Any]) -> None:
    for (x, y), got in zip(CELLS, js["cells"], strict=True):
        key = cell_key(x, y)
        corners = render._corners(key)
        assert all(close(p, q) for p, q in zip(got["points"], corners, strict=True))
        assert close(got["centroid"], render._centroid(corners))
        assert close(got["center"], Cell(x, y).center())


def test_vertices(js: dict[str, Any]) -> None:
    for (x, y), got in zip(VERTICES, js["vertices"], strict=True):
        v = Vertex(x, y)
        assert got["text"] == str(v)
        assert tuple(got["parsed"]) == tuple(Vertex.parse(str(v)))
        assert [tuple(c) for c in got["cells"]] == [tuple(c) for c in v.cells()]
        assert close(got["point"], render._svg_point(v.key))


def test_rotation_puts_tile_corner_i_on_cell_corner_i_plus_r(js: dict[str, Any]) -> None:
    """As the engine's placement check: the cell's corner j shows the tile's corner j - r."""
    corners = ("T", "S", "R")
    for r, got in enumerate(js["rotations"]):
        assert got == [corners[(j - r) % 3] for j in range(3)]
        for i in range(3):
            assert got[(i + r) % 3] == corners[i]


def test_rotation_matches_the_engine(js: dict[str, Any]) -> None:
    """Placing real tiles with r0, r1, r2 colours the cell's corners as geometry.js says."""
    assert TILES
    for (_corners, placed), got in zip(TILES, js["tiles"], strict=True):
        assert got == placed
