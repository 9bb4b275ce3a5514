"""Actions of Dominations and their text notation (parses and prints both ways).

===============================  ============================================================
notation                         meaning
===============================  ============================================================
``L07 2,0 r1 via 1,0``           place tile L07 on cell 2,0, rotation 1, connecting to 1,0
``L07 0,1 r2 locus @1,1``        place it completing the locus @1,1 and score that locus
``L07 2,0 r1``                   place it; the link may be left out when only one is possible
                                 (and is always left out with ``connection=all-sides``)
``vestigium T``                  one vestigium knowledge (produced or gained) counts as Trade
``city 2,0``                     build a city on the settlement of 2,0
``upgrade 2,0``                  upgrade your city on 2,0 by one level
``monument M01 0,1 on 2,0 2,1``  contribute level 1 of monument M01: its level card goes to
                                 tree position 0,1 and its diamond tile on cells 2,0 (c1) and
                                 2,1 (c2) (D-BUILD-6, D-BUILD-7)
``monument M07 -1,0 on @1,1``    … a circle monument's tile on the locus @1,1
``monument M01 0,2``             contribute the next level (the tile is already placed)
``pay 3 T``                      pay 3 Trade of a monument level's cost (any mix of domains)
``acquire T3a-2 0,1``            acquire mastery copy T3a-2, placed at tree position 0,1
``upgrade T3a``                  turn your Caravans card to its advanced side (D-DEV-5)
``copy T3a-2 0,1``               end of age: the influence leader copies a skill another player
                                 holds, free (D-AGE-3); ``copy upgrade T3a`` turns their own
                                 card advanced instead (D-AGE-4); ``pass`` copies nothing
``resolve T3a``                  of several effects due at once, resolve this card's next
                                 (``resolve M01-L5``; ``resolve T3a/2`` for its 2nd effect)
``exchange T C``                 campfire exchange: pay 2 Trade, gain 1 Craft
``pass``                         end the build or develop phase without acting (or decline
                                 the Artisan's second tile)
``choose O03``                   setup: keep this objective (or ``choose M07``: this
                                 monument) of the two drawn (D-SET-3)
``return L07``                   put this tile back under the supply (keeping tiles between
                                 ages, or a mulligan, D-SET-5, D-AGE-9)
``done``                         stop returning tiles (then draw back up)
``return all``                   prototype: return last age's tiles and draw a full hand
``mulligan``                     prototype: put the whole hand back and draw again (7, 6, 5)
``order 2 1 3``                  the Governor: the initiative order of the next age, by
                                 player number
``reactivate 3,0 via 2,0``       the Inventor: score a placed tile again instead of placing
                                 one (``reactivate 3,0 locus @1,1``; rules §13.6)
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
from typing import TYPE_CHECKING, NamedTuple

from dominari.core.errors import ParseError
from dominari.dominations.board import LINK_ALL_SIDES, LINK_LOCUS
from dominari.dominations.data import DOMAIN_NAMES, DOMAINS
from dominari.dominations.grid import (
    Cell,
    Vertex,
    corner_vertex,
    key_text,
    parse_rotation,
    side_neighbour,
)
from dominari.dominations.tree import format_position, parse_position

PLACE = 0
AS_DOMAIN = 1
"""``vestigium T``: one unit of vestigium knowledge counts as this domain."""
CITY = 2
UPGRADE = 3
PASS = 4
EXCHANGE = 5
MONUMENT = 6
PAY = 7
ACQUIRE = 8
ADVANCE = 9
"""``upgrade T3a``: a mastery card to its advanced side (``UPGRADE`` is the city's)."""
RESOLVE = 10
COPY = 11
"""``copy T3a-2 0,1``: the influence leader copies a skill another player has (D-AGE-3)."""
COPY_ADVANCE = 12
"""``copy upgrade T3a``: … or turns their own basic card advanced, as another's is (D-AGE-4)."""

CHOOSE = 13
"""``choose O03`` / ``choose M07``: keep one of the two objectives (``a`` 0) or monuments
(``a`` 1) drawn at setup; ``b`` its index in the data (D-SET-3)."""
RETURN = 14
"""``return L07``: put tile ``a`` back at the bottom of the supply (D-SET-5, D-AGE-9)."""
DONE = 15
"""``done``: stop returning tiles; the hand is drawn back up."""
RETURN_ALL = 16
"""``return all``: prototype, start of a later age: return last age's tiles (§14)."""
MULLIGAN = 17
"""``mulligan``: prototype: put the whole hand back and draw 7, then 6, then 5 (§14)."""
ORDER = 18
"""``order 2 1 3``: the Governor's initiative order; ``a`` the player numbers (from 1) as
decimal digits, first player first (``213``)."""
REACTIVATE = 19
"""``reactivate 3,0 via 2,0``: the Inventor scores placed tile ``a`` with link ``b`` (§13.6)."""

FIELD_COUNTS = (4, 1, 1, 1, 0, 2, 4, 2, 3, 1, 2, 3, 1, 2, 1, 0, 0, 0, 1, 2)
"""How many of the fields ``a``–``d`` each action kind uses, by kind (see :class:`Action`)."""

NO_TILE = -1
"""``MONUMENT`` field ``d`` when the monument tile is not placed by this action."""

if TYPE_CHECKING:
    from dominari.dominations.cards import Catalog

LINK_UNSPECIFIED = -1
"""A parsed placement whose link was left out; the state fills it in when it is unique."""


class Action(NamedTuple):
    """One decision. Fields by kind:

    - ``PLACE``: ``a`` tile index, ``b`` cell key, ``c`` rotation, ``d`` link
      (side 0–2, ``LINK_LOCUS + corner`` or ``LINK_ALL_SIDES``);
    - ``AS_DOMAIN``: ``a`` domain; ``CITY``/``UPGRADE``: ``a`` cell key;
    - ``EXCHANGE``: ``a`` domain paid, ``b`` domain gained; ``PASS``: nothing;
    - ``MONUMENT``: ``a`` monument index, ``b``/``c`` tree column/row, ``d`` where its tile
      goes (:func:`tile_code`) or :data:`NO_TILE`;
    - ``PAY``: ``a`` domain, ``b`` amount;
    - ``ACQUIRE``: ``a`` copy code (:class:`~dominari.dominations.cards.Catalog`),
      ``b``/``c`` tree column/row;
    - ``ADVANCE``: ``a`` skill index;
    - ``RESOLVE``: ``a`` effect source code, ``b`` the effect's index on its side;
    - ``COPY``: as ``ACQUIRE``; ``COPY_ADVANCE``: ``a`` skill index;
    - ``CHOOSE``: ``a`` 0 objective / 1 monument, ``b`` its index; ``RETURN``: ``a`` tile;
      ``DONE``, ``RETURN_ALL``, ``MULLIGAN``: nothing; ``ORDER``: ``a`` the order as digits;
    - ``REACTIVATE``: ``a`` cell key of a placed tile, ``b`` link (as ``PLACE``'s ``d``).
    """

    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0


PASS_ACTION = Action(PASS)
DONE_ACTION = Action(DONE)


def order_code(order: Sequence[int]) -> int:
    """Pack an initiative order (players from 0) as :data:`ORDER`'s ``a``.

    >>> order_code([1, 0, 2]), order_players(213)
    (213, [1, 0, 2])
    """
    return int("".join(str(p + 1) for p in order))


def order_players(code: int) -> list[int]:
    """Unpack :func:`order_code` (nothing for a code that is not one)."""
    return [int(ch) - 1 for ch in str(code)] if code > 0 else []


def place(tile: int, cell: int, rotation: int, link: int) -> Action:
    return Action(PLACE, tile, cell, rotation, link)


def tile_code(key: int, side: int) -> int:
    """Pack where a monument tile goes: a diamond's c1 cell key and the ``side`` towards c2
    (0–2), or a circle's locus vertex key with ``side`` 3."""
    return key * 4 + side


def tile_where(code: int) -> tuple[int, int]:
    """Unpack :func:`tile_code`: ``(cell, side)`` for a diamond, ``(vertex, -1)`` for a circle."""
    key, side = divmod(code, 4)
    return (key, -1) if side == 3 else (key, side)


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
        return f"locus @{key_text(corner_vertex(cell_key, link - LINK_LOCUS))}"
    return f"via {key_text(side_neighbour(cell_key, link))}"


_PLACED_AT: dict[tuple[int, int, int], str] = {}
"""A placement's text after its tile (`` 2,0 r1 via 1,0``) by cell key, rotation and link,
remembered as :func:`~dominari.dominations.grid.key_text` remembers a key's (views write
every legal placement)."""


def format_action(action: Action, tile_ids: Sequence[str], catalog: Catalog | None = None) -> str:
    """The notation of ``action``; ``tile_ids[i]`` names tile index ``i``; cards and monuments
    need the ``catalog``."""
    kind = action.kind
    if kind == PLACE:
        where = _PLACED_AT.get((action.b, action.c, action.d))
        if where is None:
            if len(_PLACED_AT) >= 100_000:  # a few thousand in real games
                _PLACED_AT.clear()
            link = link_text(action.b, action.d)
            where = _PLACED_AT[action.b, action.c, action.d] = (
                f" {key_text(action.b)} r{action.c}" + (f" {link}" if link else ""))
        return tile_ids[action.a] + where
    if kind == AS_DOMAIN:
        return f"vestigium {DOMAINS[action.a]}"
    if kind == CITY:
        return f"city {Cell.from_key(action.a)}"
    if kind == UPGRADE:
        return f"upgrade {Cell.from_key(action.a)}"
    if kind == EXCHANGE:
        return f"exchange {DOMAINS[action.a]} {DOMAINS[action.b]}"
    if kind == PASS:
        return "pass"
    if kind == PAY:
        return f"pay {action.b} {DOMAINS[action.a]}"
    if kind == RETURN:
        return f"return {tile_ids[action.a]}"
    if kind == DONE:
        return "done"
    if kind == RETURN_ALL:
        return "return all"
    if kind == MULLIGAN:
        return "mulligan"
    if kind == ORDER:
        return "order " + " ".join(str(p + 1) for p in order_players(action.a))
    if kind == REACTIVATE:
        text = f"reactivate {Cell.from_key(action.a)}"
        link = link_text(action.a, action.b)
        return f"{text} {link}" if link else text
    if catalog is None:
        raise ValueError("card and monument actions need the catalog to be written")
    if kind == ACQUIRE:
        return f"acquire {catalog.copy_ids[action.a]} {format_position((action.b, action.c))}"
    if kind == ADVANCE:
        return f"upgrade {catalog.skills[action.a].id}"
    if kind == COPY:
        return f"copy {catalog.copy_ids[action.a]} {format_position((action.b, action.c))}"
    if kind == COPY_ADVANCE:
        return f"copy upgrade {catalog.skills[action.a].id}"
    if kind == CHOOSE:
        return ("choose " + (catalog.data.objectives[action.b].id if action.a == 0
                             else catalog.data.monuments[action.b].id))
    if kind == RESOLVE:
        name = catalog.source_id(action.a)
        return f"resolve {name}" if action.b == 0 else f"resolve {name}/{action.b + 1}"
    if kind == MONUMENT:
        text = (f"monument {catalog.data.monuments[action.a].id} "
                f"{format_position((action.b, action.c))}")
        if action.d == NO_TILE:
            return text
        key, side = tile_where(action.d)
        if side < 0:
            return f"{text} on {Vertex.from_key(key)}"
        return f"{text} on {Cell.from_key(key)} {Cell.from_key(side_neighbour(key, side))}"
    raise ValueError(f"unknown action kind {kind}")


_VERBS = ("a placement (e.g. 'L07 2,0 r1 via 1,0'), 'city x,y', 'upgrade x,y', "
          "'monument M01 0,1 …', 'pay 3 T', 'acquire T3a-2 0,1', 'upgrade T3a', "
          "'resolve T3a', 'copy T3a-2 0,1', 'exchange T C', 'vestigium T', 'choose O03', "
          "'return L07', 'done', 'order 2 1', 'reactivate 3,0 via 2,0' or 'pass'")


def parse(text: str, tile_index: Mapping[str, int] | None = None,
          catalog: Catalog | None = None) -> Action:
    """Parse one action. A placement's link is :data:`LINK_UNSPECIFIED` when left out.

    ``tile_index`` maps tile ids (upper case) to indices; placements need it. Card and
    monument actions need the ``catalog``.
    """
    words = text.split()
    if not words:
        raise ParseError(f"empty action: expected {_VERBS}")
    verb = words[0].lower()
    rest = words[1:]
    if verb == "pass":
        if rest:
            raise ParseError(f"'pass' takes nothing after it, got {' '.join(rest)!r}")
        return PASS_ACTION
    if verb in ("done", "keep", "mulligan"):
        if rest:
            raise ParseError(f"{verb!r} takes nothing after it, got {' '.join(rest)!r}")
        return Action(MULLIGAN) if verb == "mulligan" else DONE_ACTION
    if verb == "return":
        if len(rest) != 1:
            raise ParseError("'return' needs one tile of your hand ('return L07') or 'all'")
        if rest[0].lower() == "all":
            return Action(RETURN_ALL)
        tile = (tile_index or {}).get(rest[0].upper())
        if tile is None:
            raise ParseError(f"unknown tile {rest[0]!r}: 'return' names a tile of your hand, "
                             "for example 'return L07'")
        return Action(RETURN, tile)
    if verb == "choose":
        if len(rest) != 1:
            raise ParseError("'choose' needs one objective or monument, e.g. 'choose O03'")
        cat = _need(catalog)
        word = rest[0].upper()
        objectives = {o.id.upper(): i for i, o in enumerate(cat.data.objectives)}
        if word in objectives:
            return Action(CHOOSE, 0, objectives[word])
        if word in cat.monument_index:
            return Action(CHOOSE, 1, cat.monument_index[word])
        raise ParseError(f"unknown objective or monument {rest[0]!r}: e.g. 'choose O03' or "
                         "'choose M07'")
    if verb == "order":
        if not rest or not all(w.isdigit() and 1 <= int(w) <= 4 for w in rest) or len(
                set(rest)) != len(rest):
            raise ParseError("'order' needs every player's number once, first player first, "
                             "for example 'order 2 1 3'")
        return Action(ORDER, order_code([int(w) - 1 for w in rest]))
    if verb == "reactivate":
        return _parse_reactivate(rest)
    if verb == "upgrade" and len(rest) == 1 and "," not in rest[0]:
        return Action(ADVANCE, _skill(rest[0], catalog))
    if verb == "acquire":
        return _copy_at(ACQUIRE, rest, catalog, "'acquire' needs a mastery copy and a tree "
                        "position, for example 'acquire T3a-2 0,1'")
    if verb == "copy":
        if len(rest) == 2 and rest[0].lower() == "upgrade":
            return Action(COPY_ADVANCE, _skill(rest[1], catalog))
        return _copy_at(COPY, rest, catalog, "'copy' needs a mastery copy and a tree position "
                        "('copy T3a-2 0,1') or 'copy upgrade T3a'")
    if verb == "resolve":
        if len(rest) != 1:
            raise ParseError("'resolve' needs the card whose effect resolves next, "
                             "for example 'resolve T3a'")
        return _parse_resolve(rest[0], _need(catalog))
    if verb == "pay":
        return _parse_pay(rest)
    if verb == "monument":
        return _parse_monument(rest, _need(catalog))
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
        return Action(AS_DOMAIN, domain_index(rest[0]))
    return _parse_place(words, tile_index)


def _need(catalog: Catalog | None) -> Catalog:
    if catalog is None:
        raise ParseError("card and monument actions can only be read in a game")
    return catalog


def _copy_at(kind: int, rest: list[str], catalog: Catalog | None, usage: str) -> Action:
    """``<copy id> <position>`` for ``acquire`` and ``copy``."""
    if len(rest) > 2:  # a position written with spaces, "(0, 1)"
        rest = [rest[0], "".join(rest[1:])]
    if len(rest) != 2:
        raise ParseError(usage)
    code = _need(catalog).copy_code.get(rest[0].upper())
    if code is None:
        raise ParseError(f"unknown mastery card copy {rest[0]!r}: a copy is a skill id and "
                         "its copy number, for example 'T3a-2'")
    col, row = parse_position(rest[1])
    return Action(kind, code, col, row)


def _skill(text: str, catalog: Catalog | None) -> int:
    index = _need(catalog).skill_index.get(text.upper())
    if index is None:
        raise ParseError(f"unknown skill {text!r}: 'upgrade' takes a city's cell (2,0) or a "
                         "skill id (T3a)")
    return index


def _parse_resolve(word: str, catalog: Catalog) -> Action:
    name, _, nth = word.partition("/")
    code = catalog.source_code.get(name.upper())
    if code is None:
        raise ParseError(f"unknown card {name!r}: name a skill (T3a) or a monument level "
                         "card (M01-L5)")
    index = 0
    if nth:
        if not nth.isdigit() or int(nth) < 1:
            raise ParseError(f"'{word}': after '/' comes the effect's number on the card, from 1")
        index = int(nth) - 1
    return Action(RESOLVE, code, index)


def _parse_pay(rest: list[str]) -> Action:
    if len(rest) == 1:  # "pay T": one knowledge
        return Action(PAY, domain_index(rest[0]), 1)
    if len(rest) != 2:
        raise ParseError("'pay' needs an amount and a domain, for example 'pay 3 T'")
    amount, dom = (rest[0], rest[1]) if rest[0].isdigit() else (rest[1], rest[0])
    if not amount.isdigit() or int(amount) < 1:
        raise ParseError(f"'pay' needs a positive amount, got {' '.join(rest)!r}")
    return Action(PAY, domain_index(dom), int(amount))


def _parse_monument(rest: list[str], catalog: Catalog) -> Action:
    usage = ("for example 'monument M01 0,1' (a later level), 'monument M01 0,1 on 2,0 2,1' "
             "(level 1 of a diamond: its two cells) or 'monument M07 0,1 on @1,1' (a circle)")
    if len(rest) < 2:
        raise ParseError(f"'monument' needs the monument and a tree position: {usage}")
    index = catalog.monument_index.get(rest[0].upper())
    if index is None:
        raise ParseError(f"unknown monument {rest[0]!r}: {usage}")
    col, row = parse_position(rest[1])
    tile = NO_TILE
    more = rest[2:]
    if more:
        if more[0].lower() != "on" or len(more) not in (2, 3):
            raise ParseError(f"after the tree position expected 'on …': {usage}")
        if len(more) == 2:
            tile = tile_code(Vertex.parse(more[1]).key, 3)
        else:
            c1, c2 = Cell.parse(more[1]), Cell.parse(more[2])
            try:
                side = c1.side_towards(c2)
            except ValueError:
                raise ParseError(f"a diamond's two cells share a side; {c1} and {c2} "
                                 "do not") from None
            tile = tile_code(c1.key, side)
    return Action(MONUMENT, index, col, row, tile)


def _parse_reactivate(rest: list[str]) -> Action:
    if len(rest) not in (1, 3):
        raise ParseError("'reactivate' needs a placed tile's cell and how it scores, for "
                         "example 'reactivate 3,0 via 2,0' or 'reactivate 3,0 locus @1,1'")
    cell = Cell.parse(rest[0])
    link = _parse_link(cell, rest[1:]) if len(rest) == 3 else LINK_UNSPECIFIED
    return Action(REACTIVATE, cell.key, link)


def _parse_link(cell: Cell, rest: list[str]) -> int:
    """``via x,y`` or ``locus @x,y`` from ``cell``."""
    how = rest[0].lower()
    if len(rest) != 2 or how not in ("via", "locus"):
        raise ParseError(f"expected 'via x,y' or 'locus @x,y', got {' '.join(rest)!r}")
    if how == "via":
        other = Cell.parse(rest[1])
        try:
            return cell.side_towards(other)
        except ValueError:
            raise ParseError(f"{other} does not share a side with {cell}") from None
    vertex = Vertex.parse(rest[1])
    corners = cell.corners()
    if vertex not in corners:
        raise ParseError(f"{vertex} is not a corner of {cell}")
    return LINK_LOCUS + corners.index(vertex)


def _parse_place(words: list[str], tile_index: Mapping[str, int] | None) -> Action:
    tile_id = words[0].upper()
    if tile_index is None or tile_id not in tile_index:
        raise ParseError(f"unknown action or tile {words[0]!r}: a placement starts with a tile id "
                         "(e.g. 'L07 2,0 r1'); other actions are city, upgrade, monument, pay, "
                         "acquire, resolve, exchange, vestigium, pass")
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
        if len(rest) != 2 or rest[0].lower() not in ("via", "locus"):
            raise ParseError(f"after the rotation expected 'via x,y' or 'locus @x,y', "
                             f"got {' '.join(rest)!r}")
        link = _parse_link(cell, rest)
    return Action(PLACE, tile_index[tile_id], cell.key, rotation, link)
