"""Actions of Dominations and their text notation (parses and prints both ways).

===============================  ============================================================
notation                         meaning
===============================  ============================================================
``L07 2,0 r1 via 1,0``           place tile L07 on cell 2,0, rotation 1, connecting to 1,0
``L07 0,1 r2 locus @1,1``        place it completing the locus @1,1 and score that locus
``L07 2,0 r1``                   place it; the link may be left out when only one is possible
                                 (and is always left out with ``connection=all-sides``)
``vestigium T``                  one produced vestigium knowledge counts as Trade
``city 2,0``                     build a city on the settlement of 2,0
``upgrade 2,0``                  upgrade your city on 2,0 by one level
``exchange T C``                 campfire exchange: pay 2 Trade, gain 1 Craft
``pass``                         end the build phase without building
===============================  ============================================================

Domains are written by letter (``T C A S G R``) or name (``Trade``, ``craft``…).
See :mod:`dominari.dominations.grid` for cells (``x,y``), vertices (``@x,y``) and
rotations (``r0``–``r2``).

>>> a = parse("city 2,0"); a.kind == CITY, format_action(a, ())
(True, 'city 2,0')
>>> parse("exchange trade G") == Action(EXCHANGE, 0, 4)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from dominari.core.errors import ParseError
from dominari.dominations.board import LINK_ALL_SIDES, LINK_LOCUS
from dominari.dominations.data import DOMAIN_NAMES, DOMAINS
from dominari.dominations.grid import (
    Cell,
    Vertex,
    corner_vertex,
    parse_rotation,
    side_neighbour,
)

PLACE = 0
VESTIGIUM = 1
CITY = 2
UPGRADE = 3
PASS = 4
EXCHANGE = 5

LINK_UNSPECIFIED = -1
"""A parsed placement whose link was left out; the state fills it in when it is unique."""


class Action(NamedTuple):
    """One decision. Fields by kind:

    - ``PLACE``: ``a`` tile index, ``b`` cell key, ``c`` rotation, ``d`` link
      (side 0–2, ``LINK_LOCUS + corner`` or ``LINK_ALL_SIDES``);
    - ``VESTIGIUM``: ``a`` domain; ``CITY``/``UPGRADE``: ``a`` cell key;
    - ``EXCHANGE``: ``a`` domain paid, ``b`` domain gained; ``PASS``: nothing.
    """

    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0


PASS_ACTION = Action(PASS)


def place(tile: int, cell: int, rotation: int, link: int) -> Action:
    return Action(PLACE, tile, cell, rotation, link)


def domain_index(text: str) -> int:
    """``T``/``Trade``/``tra`` → 0 …

    >>> domain_index("g"), domain_index("Science"), domain_index("rel")
    (4, 3, 5)
    """
    t = text.strip().lower()
    if len(t) == 1 and t.upper() in DOMAINS:
        return DOMAINS.index(t.upper())
    matches = [i for i, n in enumerate(DOMAIN_NAMES) if n.lower().startswith(t)] if t else []
    if len(matches) == 1:
        return matches[0]
    raise ParseError(f"unknown domain {text!r}: expected one of {', '.join(DOMAIN_NAMES)} "
                     f"or a letter {' '.join(DOMAINS)}")


def link_text(cell_key: int, link: int) -> str:
    """The notation of a link from the placed cell: ``via x,y`` or ``locus @x,y`` (or empty)."""
    if link in (LINK_ALL_SIDES, LINK_UNSPECIFIED):
        return ""
    if link >= LINK_LOCUS:
        return f"locus {Vertex.from_key(corner_vertex(cell_key, link - LINK_LOCUS))}"
    return f"via {Cell.from_key(side_neighbour(cell_key, link))}"


def format_action(action: Action, tile_ids: Sequence[str]) -> str:
    """The notation of ``action``; ``tile_ids[i]`` names tile index ``i``."""
    kind = action.kind
    if kind == PLACE:
        text = f"{tile_ids[action.a]} {Cell.from_key(action.b)} r{action.c}"
        link = link_text(action.b, action.d)
        return f"{text} {link}" if link else text
    if kind == VESTIGIUM:
        return f"vestigium {DOMAINS[action.a]}"
    if kind == CITY:
        return f"city {Cell.from_key(action.a)}"
    if kind == UPGRADE:
        return f"upgrade {Cell.from_key(action.a)}"
    if kind == EXCHANGE:
        return f"exchange {DOMAINS[action.a]} {DOMAINS[action.b]}"
    if kind == PASS:
        return "pass"
    raise ValueError(f"unknown action kind {kind}")


def parse(text: str, tile_index: Mapping[str, int] | None = None) -> Action:
    """Parse one action. A placement's link is :data:`LINK_UNSPECIFIED` when left out.

    ``tile_index`` maps tile ids (upper case) to indices; placements need it.
    """
    words = text.split()
    if not words:
        raise ParseError("empty action: expected a placement (e.g. 'L07 2,0 r1 via 1,0'), "
                         "'city x,y', 'upgrade x,y', 'exchange T C', 'vestigium T' or 'pass'")
    verb = words[0].lower()
    rest = words[1:]
    if verb == "pass":
        if rest:
            raise ParseError(f"'pass' takes nothing after it, got {' '.join(rest)!r}")
        return PASS_ACTION
    if verb in ("city", "build", "upgrade"):
        if len(rest) != 1:
            raise ParseError(f"{verb!r} needs one cell, for example '{verb} 2,0'")
        key = Cell.parse(rest[0]).key
        return Action(UPGRADE if verb == "upgrade" else CITY, key)
    if verb in ("exchange", "trade-in"):
        if len(rest) != 2:
            raise ParseError("'exchange' needs the domain paid and the domain gained, "
                             "for example 'exchange T C'")
        a, b = domain_index(rest[0]), domain_index(rest[1])
        if a == b:
            raise ParseError("an exchange must gain a different domain than the one paid")
        return Action(EXCHANGE, a, b)
    if verb in ("vestigium", "v"):
        if len(rest) != 1:
            raise ParseError("'vestigium' needs one domain, for example 'vestigium T'")
        return Action(VESTIGIUM, domain_index(rest[0]))
    return _parse_place(words, tile_index)


def _parse_place(words: list[str], tile_index: Mapping[str, int] | None) -> Action:
    tile_id = words[0].upper()
    if tile_index is None or tile_id not in tile_index:
        raise ParseError(f"unknown action or tile {words[0]!r}: a placement starts with a tile id "
                         "(e.g. 'L07 2,0 r1'); other actions are city, upgrade, exchange, "
                         "vestigium, pass")
    if len(words) < 2:
        raise ParseError(f"placing {tile_id} needs a cell, for example '{tile_id} 2,0 r1'")
    cell = Cell.parse(words[1])
    rest = words[2:]
    rotation = 0
    if rest and rest[0].lower().startswith("r"):
        rotation = parse_rotation(rest[0])
        rest = rest[1:]
    link = LINK_UNSPECIFIED
    if rest:
        how = rest[0].lower()
        if len(rest) != 2 or how not in ("via", "locus"):
            raise ParseError(f"after the rotation expected 'via x,y' or 'locus @x,y', "
                             f"got {' '.join(rest)!r}")
        if how == "via":
            other = Cell.parse(rest[1])
            try:
                link = cell.side_towards(other)
            except ValueError:
                raise ParseError(f"{other} does not share a side with {cell}") from None
        else:
            vertex = Vertex.parse(rest[1])
            corners = cell.corners()
            if vertex not in corners:
                raise ParseError(f"{vertex} is not a corner of {cell}")
            link = LINK_LOCUS + corners.index(vertex)
    return Action(PLACE, tile_index[tile_id], cell.key, rotation, link)
