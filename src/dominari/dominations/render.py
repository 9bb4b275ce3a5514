"""SVG pictures of the Dominations board and of a whole game state.

Both functions are pure: they read the board (or state) and return the text of a
standalone SVG document, the same text for the same input, byte for byte (no
randomness, no clock, numbers always written with at most two decimals).

Every filled cell is a group ``<g class="cell land" data-cell="2,0">`` (``cradle``
and ``monument`` for the other kinds) holding a ``<title>`` with its hover text,
the triangle itself (``<polygon class="tri">``), the resource dots at its corners,
its settlement and its city. Domain colours are never the only cue: every dot
also carries its letter (``T C A S G R``, ``V`` for vestigium, ``X`` corruptio).
Closed monument sides (D-GROW-2) are thick dark lines. ``highlight`` outlines
cells (the web app marks legal cells with it) and ``show_frontier`` every cell
where a land tile may go, each as ``<polygon class="highlight">`` or
``<polygon class="frontier">`` with a ``data-cell`` attribute.

>>> from types import SimpleNamespace
>>> board = Board.with_cradle([SimpleNamespace(ccw=k, cw=(k + 3) % 6) for k in range(6)])
>>> svg = board_svg(board, show_frontier=True, title="Start")
>>> svg.startswith("<svg "), svg.count('class="tri"'), svg.count('class="frontier"')
(True, 6, 6)

For a game in progress, ``state_svg(state)`` adds a panel with every player's
score, knowledge and reserve limits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from dominari.dominations.board import CRADLE, LAND, MONUMENT, Board
from dominari.dominations.data import COLOURS
from dominari.dominations.grid import (
    CENTRE,
    CORNER_DELTAS_DOWN,
    CORNER_DELTAS_UP,
    CRADLE_CELLS,
    Cell,
    Vertex,
)

if TYPE_CHECKING:
    from dominari.dominations.engine import DominationsState

__all__ = [
    "DOMAIN_COLOURS",
    "DOMAIN_LETTERS",
    "PLAYER_COLOURS",
    "SCALE",
    "board_svg",
    "state_svg",
]

SCALE = 80.0
"""Pixels per side of a cell."""
MARGIN = 0.45 * SCALE

DOMAIN_LETTERS = COLOURS
"""Letter of each colour code: the six domains, then vestigium (6) and corruptio (7)."""
DOMAIN_NAMES = ("Trade", "Craft", "Art", "Science", "Government", "Religion",
                "vestigium", "corruptio")
DOMAIN_COLOURS = (
    "#f2c21b",  # T Trade: yellow
    "#f08a24",  # C Craft: orange
    "#2f6fd0",  # A Art: blue
    "#2e8b3e",  # S Science: green
    "#d2352b",  # G Government: red
    "#8a4fbf",  # R Religion: purple
    "#ffffff",  # V vestigium: white (drawn with a dark outline)
    "#222222",  # X corruptio: black
)
"""Fill colour of each colour code (index as in :data:`DOMAIN_LETTERS`)."""
_DOMAIN_TEXT = ("#222222", "#222222", "#ffffff", "#ffffff", "#ffffff", "#ffffff",
                "#222222", "#ffffff")
"""Letter colour on each domain colour (chosen for contrast)."""
_UNKNOWN_COLOUR = "#bbbbbb"

PLAYER_COLOURS = (
    "#1d1d1d",  # black
    "#f5f5f0",  # white
    "#7a4a1e",  # brown
    "#00a5a8",  # teal
)
"""City and name colours of players 1–4 (none of them a domain colour)."""
_PLAYER_TEXT = ("#ffffff", "#1d1d1d", "#ffffff", "#1d1d1d")
"""Text (level numbers, names) on each player colour."""
_PLAYER_EDGE = ("#ffffff", "#1d1d1d", "#ffffff", "#1d1d1d")
"""Outline of each player's city marker, contrasting with its fill."""

_BACKGROUND = "#e7edf0"
_LAND_FILL = "#f4e8c8"
_CRADLE_FILL = "#d7b06d"
_MONUMENT_FILL = "#a9a9a4"
_CELL_EDGE = "#8a7a5c"
_DARK = "#2b2b2b"
_HIGHLIGHT = "#e0a800"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

_PANEL_WIDTH = 300.0
_PANEL_GAP = 24.0
_HEADING = 30.0


# -- small helpers --------------------------------------------------------------------------


def _num(value: float) -> str:
    """A number with at most two decimals, no trailing zeros and never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pt(p: tuple[float, float]) -> str:
    return f"{_num(p[0])},{_num(p[1])}"


def _svg_point(vertex_key: int) -> tuple[float, float]:
    """SVG coordinates of a vertex (plane y points up, SVG y down)."""
    x, y = Vertex.from_key(vertex_key).point()
    return x * SCALE, -y * SCALE


def _corners(key: int) -> tuple[tuple[float, float], ...]:
    """The SVG points of a cell's corners 0, 1, 2."""
    deltas = CORNER_DELTAS_UP if key & 1 else CORNER_DELTAS_DOWN
    return tuple(_svg_point(key + d) for d in deltas)


def _centroid(pts: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def _towards(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    """The point a fraction ``t`` of the way from ``a`` to ``b``."""
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(_pt(p) for p in pts)


def _letter(code: int) -> str:
    return DOMAIN_LETTERS[code] if 0 <= code < len(DOMAIN_LETTERS) else "?"


def _colour_name(code: int) -> str:
    return DOMAIN_NAMES[code] if 0 <= code < len(DOMAIN_NAMES) else f"colour {code}"


def _player_name(player: int, names: Sequence[str]) -> str:
    return names[player] if 0 <= player < len(names) else f"P{player + 1}"


def _player_colour(player: int) -> int:
    return player % len(PLAYER_COLOURS)


def _text(x: float, y: float, text: str, size: float, fill: str, *,
          weight: str = "normal", anchor: str = "middle", cls: str | None = None) -> str:
    """A text element whose visual centre (``anchor="middle"``) or left end sits at ``x, y``."""
    extra = f" class={quoteattr(cls)}" if cls else ""
    return (f'<text{extra} x="{_num(x)}" y="{_num(y + size * 0.35)}" font-size="{_num(size)}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}">{escape(text)}</text>')


def _dot(x: float, y: float, r: float, code: int, cls: str) -> str:
    """A coloured circle with its letter (every colour also has its letter)."""
    known = 0 <= code < len(DOMAIN_COLOURS)
    fill = DOMAIN_COLOURS[code] if known else _UNKNOWN_COLOUR
    ink = _DOMAIN_TEXT[code] if known else _DARK
    return (f'<g class={quoteattr(cls)}><circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" '
            f'fill="{fill}" stroke="{_DARK}" stroke-width="{_num(r * 0.16)}"/>'
            + _text(x, y, _letter(code), r * 1.25, ink, weight="bold") + "</g>")


class _Box:
    """A growing bounding box in SVG coordinates."""

    def __init__(self) -> None:
        self.x0 = self.y0 = float("inf")
        self.x1 = self.y1 = float("-inf")

    def add(self, x: float, y: float, pad: float = 0.0) -> None:
        self.x0 = min(self.x0, x - pad)
        self.y0 = min(self.y0, y - pad)
        self.x1 = max(self.x1, x + pad)
        self.y1 = max(self.y1, y + pad)

    @property
    def empty(self) -> bool:
        return self.x0 > self.x1


# -- the board ------------------------------------------------------------------------------


def _cell_title(board: Board, key: int, tile_ids: Sequence[str],
                player_names: Sequence[str], monument: str | None = None) -> str:
    """Hover text, e.g. ``2,0 — L07 (r1): settlement Trade; corners T T S; city of P2, level 2``."""
    kind = board.kind[key]
    corners = " ".join(_letter(c) if c >= 0 else "–" for c in board.colours[key])
    if kind == CRADLE:
        head = "cradle"
    elif kind == MONUMENT:
        head = f"monument {monument}" if monument else "monument"
    else:
        tile = board.tile.get(key)
        if tile is None:
            head = "land tile"
        else:
            name = tile_ids[tile] if 0 <= tile < len(tile_ids) else f"tile {tile}"
            head = f"{name} (r{board.rotation.get(key, 0)})"
    parts = []
    if key in board.settlement:
        parts.append(f"settlement {_colour_name(board.settlement[key])}")
    parts.append(f"corners {corners}")
    closed = board.closed.get(key, 0)
    if closed:
        parts.append("closed side" + ("s " if closed & (closed - 1) else " ")
                     + ", ".join(str(s) for s in range(3) if closed >> s & 1))
    if key in board.city_owner:
        owner = _player_name(board.city_owner[key], player_names)
        parts.append(f"city of {owner}, level {board.city_level.get(key, 1)}")
    return f"{Cell.from_key(key)} — {head}: " + "; ".join(parts)


def _city_marker(cx: float, cy: float, owner: int, level: int, domain: int) -> str:
    """A house in the owner's colour with the level written in it.

    It sits inside the settlement's ring, which stays visible around it; the
    settlement's letter moves to a small badge on the ring.
    """
    c = _player_colour(owner)
    w = SCALE * 0.105  # half width
    top = cy - SCALE * 0.14
    eave = cy - SCALE * 0.045
    base = cy + SCALE * 0.105
    house = [(cx, top), (cx + w, eave), (cx + w, base), (cx - w, base), (cx - w, eave)]
    d = "M" + " L".join(_pt(p) for p in house) + " Z"
    badge = _dot(cx + SCALE * 0.16, cy + SCALE * 0.13, SCALE * 0.07, domain, "settlement-badge")
    return (f'<g class="city" data-owner="{owner}" data-level="{level}">'
            f'<path d="{d}" fill="{PLAYER_COLOURS[c]}" stroke="{_DARK}" '
            f'stroke-width="{_num(SCALE * 0.045)}" stroke-linejoin="round"/>'
            f'<path d="{d}" fill="none" stroke="{_PLAYER_EDGE[c]}" '
            f'stroke-width="{_num(SCALE * 0.018)}" stroke-linejoin="round"/>'
            + _text(cx, cy + SCALE * 0.035, str(level), SCALE * 0.15, _PLAYER_TEXT[c],
                    weight="bold") + badge + "</g>")


def _cell_group(board: Board, key: int, tile_ids: Sequence[str],
                player_names: Sequence[str], monument: str | None = None) -> list[str]:
    kind = board.kind[key]
    pts = _corners(key)
    centre = _centroid(pts)
    kind_name = {CRADLE: "cradle", LAND: "land", MONUMENT: "monument"}.get(kind, "other")
    fill = {CRADLE: _CRADLE_FILL, MONUMENT: _MONUMENT_FILL}.get(kind, _LAND_FILL)
    title = _cell_title(board, key, tile_ids, player_names, monument)
    extra = f" data-monument={quoteattr(monument.split()[0])}" if monument else ""
    out = [f'<g class="cell {kind_name}" data-cell="{Cell.from_key(key)}"{extra}>',
           f"<title>{escape(title)}</title>",
           f'<polygon class="tri" points="{_points(pts)}" fill="{fill}" '
           f'stroke="{_CELL_EDGE}" stroke-width="{_num(SCALE * 0.02)}" '
           'stroke-linejoin="round"/>']
    closed = board.closed.get(key, 0)
    for side in range(3):
        if closed >> side & 1:
            a, b = pts[side], pts[(side + 1) % 3]
            out.append(f'<line class="closed" x1="{_num(a[0])}" y1="{_num(a[1])}" '
                       f'x2="{_num(b[0])}" y2="{_num(b[1])}" stroke="{_DARK}" '
                       f'stroke-width="{_num(SCALE * 0.08)}" stroke-linecap="round"/>')
    for corner, code in enumerate(board.colours[key]):
        if code < 0:
            continue
        x, y = _towards(pts[corner], centre, 0.33)
        out.append(_dot(x, y, SCALE * 0.075, code, "resource"))
    if key in board.settlement:
        out.append(_dot(centre[0], centre[1], SCALE * 0.2, board.settlement[key], "settlement"))
    if monument:
        out.append(_text(centre[0], centre[1] + SCALE * 0.05, monument.split()[0], SCALE * 0.16,
                         _DARK, weight="bold", cls="monument-label"))
    if key in board.city_owner and key in board.settlement:
        out.append(_city_marker(centre[0], centre[1], board.city_owner[key],
                                board.city_level.get(key, 1), board.settlement[key]))
    out.append("</g>")
    return out


def _outline(key: int, cls: str, label: str) -> list[str]:
    """A dashed outline of a cell, slightly inset so that it shows next to its neighbours."""
    pts = _corners(key)
    centre = _centroid(pts)
    inset = [_towards(p, centre, 0.1) for p in pts]
    if cls == "highlight":
        style = (f'fill="{_HIGHLIGHT}" fill-opacity="0.18" stroke="{_HIGHLIGHT}" '
                 f'stroke-width="{_num(SCALE * 0.045)}" stroke-dasharray="'
                 f'{_num(SCALE * 0.1)} {_num(SCALE * 0.06)}"')
    else:
        style = (f'fill="#ffffff" fill-opacity="0.35" stroke="#8d8d80" '
                 f'stroke-width="{_num(SCALE * 0.015)}" stroke-dasharray="'
                 f'{_num(SCALE * 0.05)} {_num(SCALE * 0.05)}"')
    cell = Cell.from_key(key)
    return [f'<g class="{cls}-cell" data-cell="{cell}">',
            f"<title>{escape(f'{cell} — {label}')}</title>",
            f'<polygon class="{cls}" points="{_points(inset)}" {style} '
            'stroke-linejoin="round"/>',
            "</g>"]


def _circle_monument(vertex: int, monument: int, monument_ids: Sequence[str]) -> list[str]:
    x, y = _svg_point(vertex)
    name = (monument_ids[monument] if 0 <= monument < len(monument_ids)
            else f"monument {monument + 1}")
    label = (monument_ids[monument] if 0 <= monument < len(monument_ids)
             else f"M{monument + 1}")
    r = SCALE * 0.3
    return [f'<g class="circle-monument" data-vertex="{Vertex.from_key(vertex)}">',
            f"<title>{escape(f'{Vertex.from_key(vertex)} — circle monument {name}')}</title>",
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="{_MONUMENT_FILL}" '
            f'stroke="{_DARK}" stroke-width="{_num(SCALE * 0.05)}"/>',
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.78)}" fill="none" '
            f'stroke="#ffffff" stroke-width="{_num(SCALE * 0.02)}"/>',
            _text(x, y, label, SCALE * 0.16, _DARK, weight="bold"),
            "</g>"]


def _board_body(board: Board, tile_ids: Sequence[str], player_names: Sequence[str],
                highlight: Iterable[int], show_frontier: bool,
                monument_ids: Sequence[str], monument_cells: Mapping[int, str] | None = None,
                ) -> tuple[list[str], _Box]:
    """The board's elements and their bounding box (in board coordinates)."""
    box = _Box()
    out: list[str] = []
    highlighted = sorted(set(highlight))
    frontier = sorted(board.frontier) if show_frontier else []
    for key in board.order:
        for p in _corners(key):
            box.add(*p)
    for key in (*highlighted, *frontier):
        for p in _corners(key):
            box.add(*p)
    if frontier:
        out.append('<g class="frontier-cells">')
        for key in frontier:
            out.extend(_outline(key, "frontier", "open cell"))
        out.append("</g>")
    out.append('<g class="cells">')
    for key in board.order:
        out.extend(_cell_group(board, key, tile_ids, player_names,
                               (monument_cells or {}).get(key)))
    out.append("</g>")
    if any(board.kind.get(cell.key) == CRADLE for cell in CRADLE_CELLS):
        x, y = _svg_point(CENTRE.key)
        out.append(f'<g class="cradle-label">'
                   f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(SCALE * 0.06)}" '
                   f'fill="{_DARK}"/>'
                   + _text(x, y + SCALE * 0.17, "Cradle", SCALE * 0.15, _DARK, weight="bold")
                   + "</g>")
    if board.circles:
        out.append('<g class="circle-monuments">')
        for vertex in sorted(board.circles):
            x, y = _svg_point(vertex)
            box.add(x, y, SCALE * 0.35)
            out.extend(_circle_monument(vertex, board.circles[vertex], monument_ids))
        out.append("</g>")
    if highlighted:
        out.append('<g class="highlights">')
        for key in highlighted:
            out.extend(_outline(key, "highlight", "highlighted"))
        out.append("</g>")
    if box.empty:
        box.add(0.0, 0.0, SCALE)
    return out, box


def _document(width: float, height: float, x0: float, y0: float, title: str | None,
              body: list[str]) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_num(x0)} {_num(y0)} '
            f'{_num(width)} {_num(height)}" width="{_num(width)}" height="{_num(height)}" '
            f'font-family={quoteattr(_FONT)}>')
    parts = [head]
    if title is not None:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(f'<rect class="background" x="{_num(x0)}" y="{_num(y0)}" '
                 f'width="{_num(width)}" height="{_num(height)}" fill="{_BACKGROUND}"/>')
    parts.extend(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def board_svg(
    board: Board,
    *,
    tile_ids: Sequence[str] = (),
    player_names: Sequence[str] = (),
    highlight: Iterable[int] = (),
    show_frontier: bool = False,
    title: str | None = None,
    monument_ids: Sequence[str] = (),
    monument_cells: Mapping[int, str] | None = None,
) -> str:
    """The board as a standalone SVG document (a pure function of its arguments).

    ``tile_ids`` names land tiles by index (``"L07"``) and ``player_names`` city
    owners (default ``P1``…); ``monument_ids`` names circle monuments by index and
    ``monument_cells`` the cells of diamond monuments (``{cell key: "M01 Pharos …"}``).
    ``highlight`` is a collection of cell keys to outline in dashed gold,
    ``show_frontier`` outlines every empty cell where a land tile may go, and
    ``title`` becomes the document's title and a heading above the board.
    """
    body, box = _board_body(board, tile_ids, player_names, highlight, show_frontier,
                            monument_ids, monument_cells)
    x0, y0 = box.x0 - MARGIN, box.y0 - MARGIN
    width, height = box.x1 - box.x0 + 2 * MARGIN, box.y1 - box.y0 + 2 * MARGIN
    if title is not None:
        y0 -= _HEADING
        height += _HEADING
        body = [_text(x0 + MARGIN * 0.5, y0 + _HEADING * 0.6, title, 18, _DARK,
                      weight="bold", anchor="start", cls="heading"), *body]
    return _document(width, height, x0, y0, title, body)


# -- a whole state ----------------------------------------------------------------------------


def _player_block(state: DominationsState, player: int, x: float, y: float,
                  names: Sequence[str]) -> tuple[list[str], float]:
    """One player's panel entry; returns the elements and its height."""
    ps = state.players[player]
    c = _player_colour(player)
    name = _player_name(player, names)
    moving = player == state.mover and not state.is_terminal()
    w = _PANEL_WIDTH
    out = [f'<g class="player" data-player="{player}">',
           f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="26" rx="5" '
           f'fill="{PLAYER_COLOURS[c]}" stroke="{_DARK}" stroke-width="1.5"/>',
           _text(x + 10, y + 13, ("▶ " if moving else "") + name, 15, _PLAYER_TEXT[c],
                 weight="bold", anchor="start", cls="player-name"),
           _text(x + w - 10, y + 13, f"{ps.vp} VP", 15, _PLAYER_TEXT[c], weight="bold",
                 anchor="end", cls="vp")]
    y += 44
    out.append(_text(x + 4, y, f"influence {ps.influence} · city tokens {ps.tokens}",
                     13, _DARK, anchor="start", cls="stats"))
    y += 26
    limits = ps.limits()
    step = w / 6
    for d in range(6):
        cx = x + step * (d + 0.5)
        out.append(_dot(cx, y, 11, d, "knowledge-domain"))
        out.append(_text(cx, y + 22, f"{ps.knowledge[d]}/{limits[d]}", 13, _DARK,
                         weight="bold", cls="knowledge"))
    y += 44
    hand = ps.hand
    if hand:
        ids = state.tile_ids
        shown = " ".join(ids[t] if 0 <= t < len(ids) else str(t) for t in hand)
        out.append(_text(x + 4, y, f"hand: {shown}", 11, "#555555", anchor="start",
                         cls="hand"))
        y += 18
    out.append("</g>")
    return out, y


def state_svg(state: DominationsState) -> str:
    """The board with a side panel: age, turn and phase, and per player (in their colour)
    VP, influence, city tokens left, knowledge/reserve limit per domain and the hand.

    Pure: the state is only read.
    """
    names = state.config.player_names()
    monument_ids = tuple(m.id for m in state.data.monuments)
    monument_cells = {key: f"{state.data.monuments[m].id} {state.data.monuments[m].name}"
                      for m, placed in state.placed.items() for key in placed.cells}
    body, box = _board_body(state.board, state.tile_ids, names, (), False, monument_ids,
                            monument_cells)
    board_x0, board_y0 = box.x0 - MARGIN, box.y0 - MARGIN
    board_w = box.x1 - box.x0 + 2 * MARGIN
    board_h = box.y1 - box.y0 + 2 * MARGIN
    px = board_x0 + board_w + _PANEL_GAP
    py = board_y0 + MARGIN * 0.5
    if state.is_terminal():
        status = f"Game over after age {state.age}"
    else:
        turn = min(state.round + 1, 5)
        status = f"Age {state.age} · turn {turn} · {state.phase_name}"
    panel = ['<g class="panel">',
             _text(px, py + 10, status, 17, _DARK, weight="bold", anchor="start",
                   cls="status")]
    y = py + 32
    if not state.is_terminal():
        mover = _player_name(state.mover, names)
        panel.append(_text(px, y, f"{mover} to play · tiles left {len(state.supply)}", 13,
                           _DARK, anchor="start", cls="to-play"))
        y += 26
    for p in range(len(state.players)):
        block, y = _player_block(state, p, px, y, names)
        panel.extend(block)
        y += 10
    panel.append("</g>")
    panel_h = y - board_y0 + MARGIN * 0.5
    width = board_w + _PANEL_GAP + _PANEL_WIDTH + MARGIN * 0.5
    height = max(board_h, panel_h)
    title = f"Dominations — {status}"
    return _document(width, height, board_x0, board_y0, title, [*body, *panel])
