"""An SVG picture of one player's civilization tree (D-DEV-7, D-DEV-8).

:func:`tree_svg` is pure, as the board pictures of :mod:`dominari.dominations.render`
are: it reads the tree and returns the text of a standalone SVG document, the same text
for the same input, byte for byte (no randomness, no clock, cards drawn in position
order whatever order they were placed in, numbers written with at most two decimals).

Rows grow upward, as in the tree: the card at ``0,1`` is drawn above the campfire at
``0,0``. Every card is a group ``<g class="card mastery" data-pos="1,0"
data-card="T3a-2">`` (``level`` for a monument level card, ``campfire`` for the root)
holding a ``<title>`` with its hover text, a rounded rectangle in its domain colour, a
short label (name or id, value, ``★ adv`` on the advanced side, which also has a double
frame) and its four half-nodi, half-discs at the middle of its sides, each in its colour
*with its letter* (``T C A S G R``, ``V`` vestigium, ``X`` corruptio): colours are never
the only cue. Where two facing halves join (:func:`~dominari.dominations.tree.join`) a
``<g class="nodus" data-colour="T">`` draws the complete nodus: a bridge across the gap
between the cards, with the nodus's letter, and a ring around both halves. Halves that
face nothing (or do not join) stay open halves: only complete nodi count (D-DEV-8).

``legal`` positions (where a selected card may go) are dashed ``<rect class="legal"
data-pos="0,-1">``; ``highlight`` outlines positions (``<rect class="highlight">``);
``player`` tints the frame and the heading with that player's colour. The heading sums
up the cards and the complete nodi per colour.

>>> from dominari.dominations.tree import Tree
>>> t = Tree()
>>> t.place((0, -1), "T3a-2", (0, 1, 6, 7), domain=0, value=3)
[0]
>>> svg = tree_svg(t, legal=[(1, -1)], title="Ada")
>>> svg.startswith("<svg "), svg.count('class="card '), svg.count('class="nodus"')
(True, 2, 1)
>>> svg.count('class="legal"'), svg.count('class="half '), svg == tree_svg(t.copy(),
...     legal=[(1, -1)], title="Ada")
(1, 8, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from dominari.dominations.data import DOMAIN_NAMES, GameData
from dominari.dominations.render import (
    _DOMAIN_TEXT,
    DOMAIN_COLOURS,
    DOMAIN_LETTERS,
    PLAYER_COLOURS,
    _dot,
    _num,
    _text,
)
from dominari.dominations.tree import (
    COLOURLESS,
    DIRECTIONS,
    ROOT,
    SIDE_NAMES,
    CardInTree,
    Pos,
    Tree,
    format_position,
    half_name,
    join,
)

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "GAP", "tree_svg"]

CARD_WIDTH: Final = 150.0
"""Width of a card in pixels."""
CARD_HEIGHT: Final = 120.0
"""Height of a card in pixels."""
GAP: Final = 18.0
"""Space between neighbouring cards (the bridge of a complete nodus spans it)."""
_PITCH_X = CARD_WIDTH + GAP
_PITCH_Y = CARD_HEIGHT + GAP
_HALF_R = 16.0
"""Radius of a half-nodus."""
_MARGIN = 28.0
_MIN_WIDTH = 420.0
"""The heading needs this much room even for a lone campfire."""

_BACKGROUND = "#e7edf0"
_DARK = "#2b2b2b"
_CARD_EDGE = "#4a4a44"
_CAMPFIRE_FILL = "#d7b06d"
_LEVEL_FILL = "#a9a9a4"
_UNKNOWN_FILL = "#bbbbbb"
_HIGHLIGHT = "#e0a800"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_PLAYER_TEXT = ("#ffffff", "#1d1d1d", "#ffffff", "#1d1d1d")
"""Text on each player colour (as the board's panel writes it)."""

_TITLE_SIZE = 18.0
_LINE = 22.0


def _letter(code: int) -> str:
    return DOMAIN_LETTERS[code] if 0 <= code < len(DOMAIN_LETTERS) else "?"


def _centre(pos: Pos) -> tuple[float, float]:
    """SVG centre of the card at ``pos`` (row grows upward, SVG y downward)."""
    return pos[0] * _PITCH_X, -pos[1] * _PITCH_Y


def _domain_name(domain: int | None) -> str | None:
    return DOMAIN_NAMES[domain] if domain is not None and 0 <= domain < 6 else None


def _fit(text: str, width: float, size: float, smallest: float) -> tuple[str, float]:
    """A font size (at least ``smallest``) at which ``text`` fits ``width``, shortening the
    text with an ellipsis when even the smallest size is too large."""
    per_char = 0.6  # a generous average glyph width, in font sizes
    if len(text) * per_char * size <= width:
        return text, size
    size = max(smallest, width / (len(text) * per_char))
    most = int(width / (per_char * size))
    if len(text) > most:
        text = text[: max(most - 1, 1)] + "…"
    return text, size


class _Info:
    """What a card shows: kind, fill, short label lines and hover text."""

    __slots__ = ("domain", "kind", "lines", "title", "value")

    def __init__(self, pos: Pos, card: CardInTree, data: GameData | None) -> None:
        where = format_position(pos)
        halves = " ".join(_letter(h) for h in card.sides)
        self.domain = card.domain
        self.value = card.value
        if pos == ROOT:
            self.kind = "campfire"
            name = "Campfire"
            if data is not None and card.id in data.campfire_by_id:
                name = data.campfire_by_id[card.id].name
            self.lines = (name, card.id, "root")
            head = f"{card.id} — {name} (root of the tree)"
        elif card.level_card:
            self.kind = "level"
            level = data.level_by_id.get(card.id) if data is not None else None
            if level is not None and data is not None:
                monument = data.monument_by_id.get(level.monument)
                mname = monument.name if monument is not None else level.monument
                if self.domain is None and monument is not None:
                    self.domain = monument.domain
                dname = _domain_name(self.domain)
                head = (f"{card.id} — level {level.level} of {mname}"
                        + (f" ({dname})" if dname else "") + f", {level.vp} VP")
                self.lines = (mname, f"{card.id} · L{level.level}", f"{level.vp} VP")
            else:
                dname = _domain_name(self.domain)
                head = f"{card.id} — monument level card" + (f" ({dname})" if dname else "")
                self.lines = (card.id, "level card", "")
        else:
            self.kind = "mastery"
            name = None
            if data is not None:
                copy = data.copy_by_id.get(card.id)
                skill = data.skill_by_id.get(copy.owner if copy is not None else card.id)
                if skill is not None:
                    name = skill.name
                    if self.domain is None:
                        self.domain = skill.domain
                    if not self.value:
                        self.value = skill.cost
            dname = _domain_name(self.domain) or "unknown domain"
            side = "advanced" if card.advanced else "basic"
            value = f"value {self.value}" if self.value else "no value"
            head = (f"{card.id}" + (f" — {name}" if name else "")
                    + f" ({dname}, {value}), {side} side")
            marker = "★ adv" if card.advanced else "basic"
            value_text = f" · {self.value}" if self.value else ""
            self.lines = ((name, f"{card.id}{value_text}", marker) if name
                          else (card.id, f"{dname}{value_text}", marker))
        self.title = f"{head}; at {where}; halves {halves} (top, right, bottom, left)"

    @property
    def fill(self) -> str:
        if self.kind == "campfire":
            return _CAMPFIRE_FILL
        if self.kind == "level":
            return _LEVEL_FILL
        d = self.domain
        return DOMAIN_COLOURS[d] if d is not None and 0 <= d < 6 else _UNKNOWN_FILL

    @property
    def ink(self) -> str:
        d = self.domain
        if self.kind == "mastery" and d is not None and 0 <= d < 6:
            return _DOMAIN_TEXT[d]
        return _DARK


def _half(cx: float, cy: float, side: int, code: int, joined: bool) -> str:
    """A half-disc on the middle of one side of a card, bulging into the card, with its
    letter."""
    r = _HALF_R
    dx, dy = DIRECTIONS[side][0], -DIRECTIONS[side][1]  # outward, SVG coordinates
    mx, my = cx + dx * CARD_WIDTH / 2, cy + dy * CARD_HEIGHT / 2
    tx, ty = -dy, dx  # along the side
    a = (mx - tx * r, my - ty * r)
    b = (mx + tx * r, my + ty * r)
    # Going from a to b through the inward point (-dx, -dy): clockwise on screen (SVG's
    # sweep flag 1) when the turn from -t to the inward normal is positive.
    sweep = 1 if (-tx) * (-dy) - (-ty) * (-dx) > 0 else 0
    known = 0 <= code < len(DOMAIN_COLOURS)
    fill = DOMAIN_COLOURS[code] if known else _UNKNOWN_FILL
    ink = _DOMAIN_TEXT[code] if known else _DARK
    state = "joined" if joined else "open"
    d = (f"M{_num(a[0])},{_num(a[1])} A{_num(r)},{_num(r)} 0 0 {sweep} "
         f"{_num(b[0])},{_num(b[1])} Z")
    lx, ly = mx - dx * r * 0.5, my - dy * r * 0.5
    return (f'<g class="half {state}" data-side="{SIDE_NAMES[side]}" '
            f'data-colour="{_letter(code)}">'
            f'<path d="{d}" fill="{fill}" stroke="{_DARK}" stroke-width="1.2" '
            'stroke-linejoin="round"/>'
            + _text(lx, ly, _letter(code), r * 0.72, ink, weight="bold") + "</g>")


def _card(pos: Pos, card: CardInTree, info: _Info, joined: tuple[bool, ...]) -> list[str]:
    cx, cy = _centre(pos)
    x, y = cx - CARD_WIDTH / 2, cy - CARD_HEIGHT / 2
    attrs = (f'class="card {info.kind}" data-pos="{format_position(pos)}" '
             f"data-card={quoteattr(card.id)}")
    if info.domain is not None and 0 <= info.domain < 6:
        attrs += f' data-domain="{_letter(info.domain)}"'
    if info.kind == "mastery":
        side = "advanced" if card.advanced else "basic"
        attrs += f' data-value="{info.value}" data-side="{side}"'
    out = [f"<g {attrs}>", f"<title>{escape(info.title)}</title>",
           f'<rect class="face" x="{_num(x)}" y="{_num(y)}" width="{_num(CARD_WIDTH)}" '
           f'height="{_num(CARD_HEIGHT)}" rx="9" fill="{info.fill}" stroke="{_CARD_EDGE}" '
           f'stroke-width="{"3.5" if card.advanced else "1.5"}"/>']
    if card.advanced:  # a double frame: the advanced side is not shown by colour alone
        out.append(f'<rect class="advanced-frame" x="{_num(x + 5)}" y="{_num(y + 5)}" '
                   f'width="{_num(CARD_WIDTH - 10)}" height="{_num(CARD_HEIGHT - 10)}" rx="6" '
                   f'fill="none" stroke="{info.ink}" stroke-width="1.2"/>')
    room = CARD_WIDTH - 2 * _HALF_R - 12
    first, second, third = info.lines
    text, size = _fit(first, room, 13.0, 9.5)
    out.append(_text(cx, cy - 17, text, size, info.ink, weight="bold", cls="name"))
    text, size = _fit(second, room, 11.5, 9.0)
    out.append(_text(cx, cy + 1, text, size, info.ink, cls="id"))
    if third:
        text, size = _fit(third, room, 11.5, 9.0)
        out.append(_text(cx, cy + 18, text, size, info.ink,
                         weight="bold" if card.advanced else "normal", cls="marker"))
    if info.kind == "level" and info.domain is not None and 0 <= info.domain < 6:
        out.append(_dot(x + 13, y + 13, 8.0, info.domain, "level-domain"))
    out.extend(_half(cx, cy, d, card.sides[d], joined[d]) for d in range(4))
    out.append("</g>")
    return out


def _nodus(a: Pos, b: Pos, vertical: bool, colour: int, halves: tuple[int, int]) -> list[str]:
    """The complete nodus between ``a`` and its neighbour ``b`` above it (``vertical``) or
    to its right."""
    ax, ay = _centre(a)
    r = _HALF_R
    if vertical:  # the gap above a
        mx, my = ax, ay - CARD_HEIGHT / 2 - GAP / 2
        bw, bh = 2 * r * 0.8, GAP + 2
    else:  # the gap right of a
        mx, my = ax + CARD_WIDTH / 2 + GAP / 2, ay
        bw, bh = GAP + 2, 2 * r * 0.8
    known = 0 <= colour < len(DOMAIN_COLOURS)
    fill = DOMAIN_COLOURS[colour] if known else _UNKNOWN_FILL
    ink = _DOMAIN_TEXT[colour] if known else _DARK
    name = "colourless (two vestigia)" if colour == COLOURLESS else half_name(colour)
    sides = ("bottom", "top") if vertical else ("right", "left")
    first, second = (b, a) if vertical else (a, b)
    title = (f"complete {name} nodus: {format_position(first)} {sides[0]} "
             f"({_letter(halves[0])}) + {format_position(second)} {sides[1]} "
             f"({_letter(halves[1])})")
    ring = GAP / 2 + r + 4
    return [f'<g class="nodus" data-colour="{_letter(colour)}" '
            f'data-between="{format_position(first)} {format_position(second)}">',
            f"<title>{escape(title)}</title>",
            f'<circle class="ring" cx="{_num(mx)}" cy="{_num(my)}" r="{_num(ring)}" '
            f'fill="none" stroke="{_DARK}" stroke-width="6"/>',
            f'<circle cx="{_num(mx)}" cy="{_num(my)}" r="{_num(ring)}" fill="none" '
            f'stroke="{fill}" stroke-width="3.5"/>',
            f'<rect class="bridge" x="{_num(mx - bw / 2)}" y="{_num(my - bh / 2)}" '
            f'width="{_num(bw)}" height="{_num(bh)}" rx="3" fill="{fill}" stroke="{_DARK}" '
            'stroke-width="1.2"/>',
            _text(mx, my, _letter(colour), 11.0, ink, weight="bold"),
            "</g>"]


def _slot(pos: Pos, cls: str, label: str) -> list[str]:
    """An outline of a whole position: dashed for ``legal``, gold for ``highlight``."""
    cx, cy = _centre(pos)
    where = format_position(pos)
    if cls == "legal":
        x, y, w, h = cx - CARD_WIDTH / 2, cy - CARD_HEIGHT / 2, CARD_WIDTH, CARD_HEIGHT
        style = ('fill="#ffffff" fill-opacity="0.45" stroke="#6d6d62" stroke-width="2" '
                 'stroke-dasharray="8 6"')
    else:
        x, y = cx - CARD_WIDTH / 2 - 5, cy - CARD_HEIGHT / 2 - 5
        w, h = CARD_WIDTH + 10, CARD_HEIGHT + 10
        style = (f'fill="none" stroke="{_HIGHLIGHT}" stroke-width="4" '
                 'stroke-dasharray="12 5"')
    out = [f'<rect class="{cls}" data-pos="{where}" x="{_num(x)}" y="{_num(y)}" '
           f'width="{_num(w)}" height="{_num(h)}" rx="10" {style}>'
           f"<title>{escape(f'{where} — {label}')}</title></rect>"]
    if cls == "legal":
        out.append(_text(cx, cy, where, 13.0, "#55554c", cls="legal-label"))
    return out


def _summary(tree: Tree) -> tuple[str, list[tuple[int, int]]]:
    mastery = tree.count_cards()
    advanced = tree.count_cards(advanced=True)
    levels = tree.count_cards(level_cards=True)
    counts = tree.nodi_counts()
    total = tree.nodi_total()
    line = (f"{mastery} mastery card{'' if mastery == 1 else 's'} ({advanced} adv.) · "
            f"{levels} level card{'' if levels == 1 else 's'} · "
            f"{total} nod{'us' if total == 1 else 'i'}")
    shown = [(c, counts[c]) for c in range(6)]
    if counts[COLOURLESS] or tree.vestigium_pairs:
        shown.append((COLOURLESS, counts[COLOURLESS]))
    return line, shown


def tree_svg(tree: Tree, data: GameData | None = None, *, title: str | None = None,
             legal: Iterable[Pos] = (), highlight: Iterable[Pos] = (),
             player: int | None = None) -> str:
    """The tree as a standalone SVG document (a pure function of its arguments).

    ``data`` adds skill, monument and campfire names and the VP of level cards (without
    it cards show their ids and the domain and value recorded in the tree). ``title``
    heads the picture (default ``Civilization tree``, or ``P2 — civilization tree`` with
    ``player=1``); ``legal`` positions are drawn as dashed empty slots and ``highlight``
    positions outlined in gold; ``player`` (0–3) tints the frame and heading.
    """
    legal_set = sorted(set(legal))
    highlighted = sorted(set(highlight))
    # Reading order (top row first), so equal trees give equal text whatever the order of
    # placement.
    order = sorted(tree.cards, key=lambda p: (-p[1], p[0]))
    cards = tree.cards

    joined: dict[Pos, list[bool]] = {p: [False] * 4 for p in order}
    nodi: list[str] = []
    for pos in order:
        card = cards[pos]
        for d in (0, 1):  # each pair once: up and right
            dc, dr = DIRECTIONS[d]
            other_pos = (pos[0] + dc, pos[1] + dr)
            other = cards.get(other_pos)
            if other is None:
                continue
            mine, theirs = card.sides[d], other.sides[d + 2]
            colour = join(mine, theirs, tree.vestigium_pairs)
            if colour is None:
                continue
            joined[pos][d] = joined[other_pos][d + 2] = True
            halves = (theirs, mine) if d == 0 else (mine, theirs)
            nodi.extend(_nodus(pos, other_pos, d == 0, colour, halves))

    body: list[str] = []
    if legal_set:
        body.append('<g class="legal-positions">')
        for pos in legal_set:
            body.extend(_slot(pos, "legal", "a legal position for the selected card"))
        body.append("</g>")
    body.append('<g class="cards">')
    for pos in order:
        card = cards[pos]
        body.extend(_card(pos, card, _Info(pos, card, data), tuple(joined[pos])))
    body.append("</g>")
    body.append('<g class="nodi">')
    body.extend(nodi)
    body.append("</g>")
    if highlighted:
        body.append('<g class="highlights">')
        for pos in highlighted:
            body.extend(_slot(pos, "highlight", "highlighted"))
        body.append("</g>")

    # The view box: every card and slot, a margin, and the heading above.
    spots = [*order, *legal_set, *highlighted]
    xs = [_centre(p)[0] for p in spots]
    ys = [_centre(p)[1] for p in spots]
    x0 = min(xs) - CARD_WIDTH / 2 - _MARGIN
    x1 = max(xs) + CARD_WIDTH / 2 + _MARGIN
    y1 = max(ys) + CARD_HEIGHT / 2 + _MARGIN
    width = x1 - x0
    if width < _MIN_WIDTH:
        x0 -= (_MIN_WIDTH - width) / 2
        width = _MIN_WIDTH
    heading_h = 3 * _LINE + 16
    y0 = min(ys) - CARD_HEIGHT / 2 - _MARGIN - heading_h
    height = y1 - y0

    tint = PLAYER_COLOURS[player % len(PLAYER_COLOURS)] if player is not None else None
    ink = _PLAYER_TEXT[player % len(_PLAYER_TEXT)] if player is not None else _DARK
    if title is None:
        title = ("Civilization tree" if player is None
                 else f"P{player + 1} — civilization tree")
    line, shown = _summary(tree)
    hx, hy = x0 + _MARGIN * 0.5, y0 + 10
    head = ['<g class="heading"' + (f' data-player="{player}"' if player is not None else "")
            + ">"]
    if tint is not None:
        head.append(f'<rect class="heading-band" x="{_num(x0 + 6)}" y="{_num(y0 + 6)}" '
                    f'width="{_num(width - 12)}" height="{_num(_LINE + 10)}" rx="6" '
                    f'fill="{tint}" stroke="{_DARK}" stroke-width="1.5"/>')
    head.append(_text(hx, hy + _LINE * 0.55, title, _TITLE_SIZE, ink, weight="bold",
                      anchor="start", cls="title"))
    head.append(_text(hx, hy + _LINE * 1.75, line, 13.0, _DARK, anchor="start",
                      cls="summary"))
    step = 50.0
    for k, (colour, count) in enumerate(shown):
        cx = hx + 10 + k * step
        cy = hy + _LINE * 2.85
        head.append(f'<g class="nodi-count" data-colour="{_letter(colour)}" '
                    f'data-count="{count}">')
        name = "colourless" if colour == COLOURLESS else half_name(colour)
        head.append(f"<title>{escape(f'{count} complete {name} nodi')}</title>")
        head.append(_dot(cx, cy, 9.0, colour, "nodi-colour"))
        head.append(_text(cx + 13, cy, str(count), 13.0, _DARK, weight="bold",
                          anchor="start"))
        head.append("</g>")
    head.append("</g>")

    svg_attrs = (f'xmlns="http://www.w3.org/2000/svg" viewBox="{_num(x0)} {_num(y0)} '
                 f'{_num(width)} {_num(height)}" width="{_num(width)}" '
                 f'height="{_num(height)}" font-family={quoteattr(_FONT)} class="tree"')
    if player is not None:
        svg_attrs += f' data-player="{player}"'
    parts = [f"<svg {svg_attrs}>", f"<title>{escape(title)}</title>",
             f'<rect class="background" x="{_num(x0)}" y="{_num(y0)}" width="{_num(width)}" '
             f'height="{_num(height)}" fill="{_BACKGROUND}"/>']
    if tint is not None:
        parts.append(f'<rect class="frame" x="{_num(x0 + 2)}" y="{_num(y0 + 2)}" '
                     f'width="{_num(width - 4)}" height="{_num(height - 4)}" rx="8" '
                     f'fill="none" stroke="{_DARK}" stroke-width="4"/>')
        parts.append(f'<rect class="frame" x="{_num(x0 + 2)}" y="{_num(y0 + 2)}" '
                     f'width="{_num(width - 4)}" height="{_num(height - 4)}" rx="8" '
                     f'fill="none" stroke="{tint}" stroke-width="2.5"/>')
    parts.extend(head)
    parts.extend(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
