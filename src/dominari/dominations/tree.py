"""The civilization tree: each player's grid of cards joined by nodi (D-DEV-7, D-DEV-8).

A tree starts with its campfire card (the root) and grows by one card at a time. Cards are
never moved and never rotated, so a card is fully described by where it lies and by its four
half-nodi ``(top, right, bottom, left)``: colour codes 0–5 (the domains ``T C A S G R``),
:data:`VESTIGIUM` (6, white) or :data:`CORRUPTIO` (7, black), as in
:mod:`dominari.dominations.data`.

Positions
---------
A position is a pair of integers ``(col, row)``; the campfire lies at ``(0, 0)``. ``col`` grows
to the right and ``row`` grows **upward**, as ``y`` does for the board's cells
(:mod:`dominari.dominations.grid`): the card above the campfire is at ``(0, 1)``, the one below
it at ``(0, -1)``. So a card's top half faces the bottom half of the card at ``(col, row + 1)``
and its right half the left half of the card at ``(col + 1, row)``. Positions are written
``col,row`` (``1,-2``); :func:`parse_position` also accepts spaces and parentheses.

Joining halves
--------------
Two facing halves form a complete nodus (:func:`join`) when they have the same colour, or when
one is a vestigium and the other coloured (the nodus takes that colour). Two vestigia never
join, and a corruptio never joins anything, not even another corruptio. With the prototype
rule option ``vestigium_pairs`` (§14 of the rules) two vestigia form a :data:`COLOURLESS`
nodus, which counts for no colour. A new card must touch the tree orthogonally, and **every**
side where it touches a card must form a nodus (D-DEV-7, D-ADJ-1).

>>> t = Tree()                                # a campfire [V, V, V, V] at 0,0
>>> t.legal_positions((0, 1, 6, 7))           # Trade top, Craft right, V bottom, X left
[(-1, 0), (0, -1)]
>>> t.place((1, 0), "T3a-2", (0, 1, 6, 7), domain=0, value=3)   # its X would face the campfire
Traceback (most recent call last):
...
dominari.core.errors.IllegalActionError: T3a-2 at 1,0: its left half (corruptio) and ...
>>> t.place((0, -1), "T3a-2", (0, 1, 6, 7), domain=0, value=3)  # its Trade top half joins
[0]
>>> t.nodi(0), t.nodi_total(), t.colours()
(1, 1, 1)
>>> print(t.render_text())
 V
V@V
 V
 T
XtC
 V

Only the two halves that meet (the campfire's bottom V and the card's top T) form a nodus; the
other halves are open and never count (D-DEV-8).

The tree is a plain value: :meth:`Tree.copy` is cheap (a few shallow dictionary copies) and
copies never share state. The frontier (the empty positions next to the tree, with the halves
each would face) and the nodus counts are kept up to date on every placement, so
:meth:`Tree.legal_positions` checks only the frontier.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Final, NamedTuple

from dominari.core.errors import IllegalActionError, ParseError
from dominari.dominations.data import ANY, CORRUPTIO, DOMAIN_NAMES, DOMAINS, VESTIGIUM

__all__ = [
    "CAMPFIRE_SIDES", "COLOURLESS", "DIRECTIONS", "ROOT", "SIDE_NAMES", "CardInTree", "Pos",
    "Sides", "Tree", "format_position", "half_name", "join", "parse_position",
]  # fmt: skip

Pos = tuple[int, int]
"""A tree position ``(col, row)``; ``row`` grows upward."""
Sides = tuple[int, int, int, int]
"""A card's half-nodi ``(top, right, bottom, left)``."""

ROOT: Final[Pos] = (0, 0)
"""Where the campfire lies."""
CAMPFIRE_SIDES: Final[Sides] = (VESTIGIUM, VESTIGIUM, VESTIGIUM, VESTIGIUM)
"""The halves of every campfire card F1–F4 (data spec §4)."""
COLOURLESS: Final = 6
"""The colour of a nodus of two vestigia (prototype option only). It is the vestigium code:
a white nodus. :meth:`Tree.nodi` takes it like a domain; it never counts as a colour."""

SIDE_NAMES: Final = ("top", "right", "bottom", "left")
DIRECTIONS: Final[tuple[Pos, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""The offset of the neighbour across each side, in side order (top, right, bottom, left)."""

_COLOURS = 8  # half codes 0–7
_NONE = 8
"""In a frontier entry: no card across that side."""
_NO_FACING = (_NONE, _NONE, _NONE, _NONE)
_POSITION_RE = re.compile(r"^\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*$")
_HALF_NAMES = (*DOMAIN_NAMES, "vestigium", "corruptio")


def join(a: int, b: int, vestigium_pairs: bool = False) -> int | None:
    """The colour of the nodus that facing halves ``a`` and ``b`` form, or None (D-DEV-7).

    Same colour → that colour; vestigium + colour → the colour; two vestigia → None, or
    :data:`COLOURLESS` with the prototype option; a corruptio → None whatever it faces.

    >>> join(2, 2), join(6, 4), join(4, 6), join(1, 2)
    (2, 4, 4, None)
    >>> join(6, 6), join(6, 6, vestigium_pairs=True), join(7, 7), join(7, 6)
    (None, 6, None, None)
    """
    if not (0 <= a < _COLOURS and 0 <= b < _COLOURS):
        raise ValueError(f"half-nodus codes are 0-7, not {a} and {b}")
    if a == CORRUPTIO or b == CORRUPTIO:
        return None
    if a == VESTIGIUM:
        if b == VESTIGIUM:
            return COLOURLESS if vestigium_pairs else None
        return b
    if b == VESTIGIUM or a == b:
        return a
    return None


def _join_table(vestigium_pairs: bool) -> tuple[tuple[int | None, ...], ...]:
    return tuple(tuple(join(a, b, vestigium_pairs) for b in range(_COLOURS))
                 for a in range(_COLOURS))  # fmt: skip


def _fit_masks(table: tuple[tuple[int | None, ...], ...]) -> tuple[int, ...]:
    # Bit b of mask[a]: a half a can face b (b = _NONE: no card there, always fine).
    return tuple(sum(1 << b for b in range(_COLOURS) if table[a][b] is not None) | 1 << _NONE
                 for a in range(_COLOURS))  # fmt: skip


_TABLES = (_join_table(False), _join_table(True))
_MASKS = (_fit_masks(_TABLES[0]), _fit_masks(_TABLES[1]))


def half_name(code: int) -> str:
    """The name of a half-nodus colour code, as error messages print it.

    >>> half_name(1), half_name(6), half_name(7)
    ('Craft', 'vestigium', 'corruptio')
    """
    if not 0 <= code < _COLOURS:
        raise ValueError(f"no half-nodus has the code {code}")
    return _HALF_NAMES[code]


def format_position(pos: Pos) -> str:
    """The text form ``col,row`` of a position.

    >>> format_position((1, -2))
    '1,-2'
    """
    return f"{pos[0]},{pos[1]}"


def parse_position(text: str) -> Pos:
    """The position written ``col,row`` (spaces and parentheses allowed).

    >>> parse_position("1,-2"), parse_position(" (0, 3) ")
    ((1, -2), (0, 3))
    >>> parse_position("1;2")
    Traceback (most recent call last):
    ...
    dominari.core.errors.ParseError: '1;2' is not a tree position (expected col,row such as 1,-2)
    """
    body = text.strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    m = _POSITION_RE.match(body)
    if m is None:
        raise ParseError(f"{text!r} is not a tree position (expected col,row such as 1,-2)")
    return int(m.group(1)), int(m.group(2))


def _check_sides(sides: Sequence[int]) -> Sides:
    if len(sides) != 4 or any(type(h) is not int or not 0 <= h < _COLOURS for h in sides):
        raise ValueError(f"card sides must be four half codes 0-7, not {tuple(sides)!r}")
    return (sides[0], sides[1], sides[2], sides[3])


class CardInTree(NamedTuple):
    """One card of a tree. ``domain`` and ``value`` are the mastery card's (None and 0 for the
    campfire; a level card may carry its monument's domain, its value is 0)."""

    id: str
    """``F1`` (campfire), ``T3a-2`` (mastery copy) or ``M01-L1`` (monument level card)."""
    sides: Sides
    level_card: bool = False
    advanced: bool = False
    domain: int | None = None
    value: int = 0


class Tree:
    """One player's civilization tree. See the module docstring for positions and joins.

    >>> t = Tree.new()
    >>> t.place((-1, 0), "C3a-1", (1, 1, 2, 1), domain=1, value=3)   # right Craft meets a V
    [1]
    >>> t.legal_positions((7, 0, 1, 6))        # X top, Trade right, Craft bottom, V left
    [(-1, 1), (0, 1)]
    >>> t.place((-1, 1), "C6a-3", (7, 0, 1, 6), domain=1, value=6)   # Craft on Craft
    [1]

    Now ``0,1`` touches two cards, and both sides must form a nodus:

    >>> t.place((0, 1), "A3b-2", (2, 2, 2, 1), domain=2, value=3)
    Traceback (most recent call last):
    ...
    dominari.core.errors.IllegalActionError: A3b-2 at 0,1: its left half (Craft) and the ...
    >>> t.is_legal((0, 1), (2, 2, 2, 1)), t.is_legal((0, 1), (2, 2, 2, 0))  # Trade left fits
    (False, True)
    >>> t.nodi(1), t.nodi_total(), t.count_cards(domains=(1,))
    (2, 2, 2)
    >>> u = t.copy(); u.upgrade((-1, 0)); t.cards[(-1, 0)].advanced, u.cards[(-1, 0)].advanced
    (False, True)
    """

    __slots__ = ("_count", "_join", "_mask", "_open", "cards", "vestigium_pairs")

    cards: dict[Pos, CardInTree]
    """The cards by position, in placement order (the campfire first). Do not edit it:
    use :meth:`place` and :meth:`upgrade`."""
    vestigium_pairs: bool
    _open: dict[Pos, tuple[int, int, int, int]]
    _count: list[int]
    _join: tuple[tuple[int | None, ...], ...]
    _mask: tuple[int, ...]

    def __init__(self, root_sides: Sequence[int] = CAMPFIRE_SIDES, *, root_id: str = "F1",
                 vestigium_pairs: bool = False) -> None:  # fmt: skip
        sides = _check_sides(root_sides)
        self.vestigium_pairs = vestigium_pairs
        self._join = _TABLES[vestigium_pairs]
        self._mask = _MASKS[vestigium_pairs]
        self.cards = {ROOT: CardInTree(root_id, sides)}
        self._count = [0] * 7
        self._open = {}
        self._grow(ROOT, sides)

    @classmethod
    def new(cls, root_sides: Sequence[int] = CAMPFIRE_SIDES, *, root_id: str = "F1",
            vestigium_pairs: bool = False) -> Tree:  # fmt: skip
        """A tree holding only its campfire (the same as calling :class:`Tree`)."""
        return cls(root_sides, root_id=root_id, vestigium_pairs=vestigium_pairs)

    def copy(self) -> Tree:
        """An independent copy (card records are immutable, so shallow copies suffice)."""
        t = Tree.__new__(Tree)
        t.cards = dict(self.cards)
        t.vestigium_pairs = self.vestigium_pairs
        t._join = self._join
        t._mask = self._mask
        t._open = dict(self._open)
        t._count = self._count[:]
        return t

    def __eq__(self, other: object) -> bool:
        """Same rule option and the same cards (positions, ids, sides, flags)."""
        if not isinstance(other, Tree):
            return NotImplemented
        return self.vestigium_pairs == other.vestigium_pairs and self.cards == other.cards

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        cards = " ".join(f"{c.id}@{format_position(p)}" for p, c in self.cards.items())
        return f"<Tree {cards}>"

    def __len__(self) -> int:
        """The number of cards, the campfire included."""
        return len(self.cards)

    # ------------------------------------------------------------------ placement
    def _grow(self, pos: Pos, sides: Sides) -> None:
        """Record a card at ``pos`` in the frontier: drop ``pos``, add or update its empty
        neighbours with the half each now faces."""
        self._open.pop(pos, None)
        col, row = pos
        cards, frontier = self.cards, self._open
        for d, (dc, dr) in enumerate(DIRECTIONS):
            q = (col + dc, row + dr)
            if q in cards:
                continue
            # q's side (d + 2) % 4 faces our side d.
            f = list(frontier.get(q, _NO_FACING))
            f[(d + 2) % 4] = sides[d]
            frontier[q] = (f[0], f[1], f[2], f[3])

    def _fits(self, facing: tuple[int, int, int, int], sides: Sides) -> bool:
        m = self._mask
        return bool(m[sides[0]] >> facing[0] & m[sides[1]] >> facing[1]
                    & m[sides[2]] >> facing[2] & m[sides[3]] >> facing[3] & 1)  # fmt: skip

    def frontier(self) -> list[Pos]:
        """The empty positions orthogonally adjacent to the tree, sorted."""
        return sorted(self._open)

    def legal_positions(self, sides: Sequence[int]) -> list[Pos]:
        """Every position where a card with these halves may go (D-DEV-7), sorted.

        An empty list means the card cannot be taken.
        """
        m = self._mask
        top, right, bottom, left = (m[h] for h in _check_sides(sides))
        return sorted(p for p, (f0, f1, f2, f3) in self._open.items()
                      if top >> f0 & right >> f1 & bottom >> f2 & left >> f3 & 1)  # fmt: skip

    def positions_for(self, cards: Sequence[Sequence[int]]) -> list[list[Pos]]:
        """:meth:`legal_positions` of several cards at once, in the same order (one pass of
        set-up; the halves are trusted to be valid codes, as loaded data are)."""
        m = self._mask
        opens = sorted(self._open.items())
        out = []
        for sides in cards:
            top, right, bottom, left = m[sides[0]], m[sides[1]], m[sides[2]], m[sides[3]]
            out.append([p for p, (f0, f1, f2, f3) in opens
                        if top >> f0 & right >> f1 & bottom >> f2 & left >> f3 & 1])
        return out

    def can_place(self, sides: Sequence[int]) -> bool:
        """Whether the card has at least one legal position (faster than listing them)."""
        m = self._mask
        top, right, bottom, left = (m[h] for h in _check_sides(sides))
        return any(top >> f0 & right >> f1 & bottom >> f2 & left >> f3 & 1
                   for f0, f1, f2, f3 in self._open.values())  # fmt: skip

    def is_legal(self, pos: Pos, sides: Sequence[int]) -> bool:
        """Whether a card with these halves may go at ``pos``."""
        facing = self._open.get(pos)
        return facing is not None and self._fits(facing, _check_sides(sides))

    def _reject(self, pos: Pos, card_id: str, sides: Sides) -> IllegalActionError:
        """The error saying why ``card_id`` may not go at ``pos``."""
        where = f"{card_id} at {format_position(pos)}"
        if pos in self.cards:
            return IllegalActionError(
                f"{where}: the position is taken by {self._name(pos)} (D-DEV-7)")
        facing = self._open.get(pos)
        if facing is None:
            return IllegalActionError(
                f"{where}: the card touches no side of a card of the tree (a corner does not "
                f"count) (D-DEV-7, D-ADJ-1)")
        for d in range(4):
            h, o = sides[d], facing[d]
            if o != _NONE and self._join[h][o] is None:
                dc, dr = DIRECTIONS[d]
                other = (pos[0] + dc, pos[1] + dr)
                if CORRUPTIO in (h, o):
                    why = "a corruptio never joins"
                elif h == o == VESTIGIUM:
                    why = "two vestigia never join"
                else:
                    why = "different colours"
                return IllegalActionError(
                    f"{where}: its {SIDE_NAMES[d]} half ({half_name(h)}) and the "
                    f"{SIDE_NAMES[(d + 2) % 4]} half ({half_name(o)}) of {self._name(other)} "
                    f"do not form a nodus: {why} (D-DEV-7)")
        raise AssertionError("_reject called on a legal placement")  # pragma: no cover

    def _name(self, pos: Pos) -> str:
        card = self.cards[pos]
        name = "the campfire" if pos == ROOT else card.id
        return f"{name} at {format_position(pos)}"

    def _formed(self, facing: tuple[int, int, int, int], sides: Sides) -> list[int]:
        t = self._join
        out = []
        for d in range(4):
            if facing[d] != _NONE:
                c = t[sides[d]][facing[d]]
                assert c is not None
                out.append(c)
        return out

    def nodi_formed(self, pos: Pos, sides: Sequence[int], card_id: str = "the card") -> list[int]:
        """The colours of the nodi a card placed at ``pos`` would complete, in side order
        (top, right, bottom, left); :data:`COLOURLESS` for a pair of vestigia. Raises
        :class:`IllegalActionError` if the placement is not legal."""
        s = _check_sides(sides)
        facing = self._open.get(pos)
        if facing is None or not self._fits(facing, s):
            raise self._reject(pos, card_id, s)
        return self._formed(facing, s)

    def place(self, pos: Pos, card_id: str, sides: Sequence[int], *, level_card: bool = False,
              domain: int | None = None, value: int = 0) -> list[int]:  # fmt: skip
        """Put a card in the tree (D-DEV-7) and return the colours of the nodi it completes
        (as :meth:`nodi_formed`). ``domain``/``value`` are the mastery card's (for
        :meth:`count_cards`). An illegal placement raises :class:`IllegalActionError` saying
        which side fails and why, and changes nothing."""
        s = _check_sides(sides)
        facing = self._open.get(pos)
        if facing is None or not self._fits(facing, s):
            raise self._reject(pos, card_id, s)
        formed = self._formed(facing, s)
        for c in formed:
            self._count[c] += 1
        self.cards[pos] = CardInTree(card_id, s, level_card, False, domain, value)
        self._grow(pos, s)
        return formed

    def upgrade(self, pos: Pos) -> None:
        """Turn the mastery card at ``pos`` to its advanced side (D-DEV-5)."""
        card = self.cards.get(pos)
        where = f"upgrade {format_position(pos)}"
        if card is None:
            raise IllegalActionError(f"{where}: no card lies there")
        if pos == ROOT or card.level_card:
            kind = "the campfire" if pos == ROOT else f"{card.id} (a monument level card)"
            raise IllegalActionError(f"{where}: {kind} has no advanced side")
        if card.advanced:
            raise IllegalActionError(f"{where}: {card.id} is already advanced")
        self.cards[pos] = card._replace(advanced=True)

    # ------------------------------------------------------------------ counting
    def nodi(self, colour: int) -> int:
        """Complete nodi of ``colour`` (0–5, or :data:`COLOURLESS`); ``ANY`` (-1, the data's
        ``*``) counts them all (D-DEV-8). ``nodi(¬c)`` of the effects is
        ``nodi_total() - nodi(c)``."""
        if 0 <= colour <= COLOURLESS:
            return self._count[colour]
        if colour == ANY:
            return sum(self._count)
        raise ValueError(f"no nodus has the colour {colour}")

    def nodi_counts(self) -> list[int]:
        """Complete nodi per colour: the six domains, then :data:`COLOURLESS` (a copy)."""
        return self._count[:]

    def nodi_total(self) -> int:
        """All complete nodi (colourless ones included)."""
        return sum(self._count)

    def colours(self) -> int:
        """The number of domain colours with at least one complete nodus (0–6)."""
        return sum(1 for n in self._count[:6] if n)

    def slow_nodi(self) -> list[int]:
        """:meth:`nodi_counts` recounted from the cards alone (a reference for tests)."""
        counts = [0] * 7
        for (col, row), card in self.cards.items():
            # Each pair once: look up and right only.
            for d in (0, 1):
                dc, dr = DIRECTIONS[d]
                other = self.cards.get((col + dc, row + dr))
                if other is not None:
                    c = join(card.sides[d], other.sides[d + 2], self.vestigium_pairs)
                    if c is not None:
                        counts[c] += 1
        return counts

    def mastery_cards(self) -> Iterator[tuple[Pos, CardInTree]]:
        """The mastery cards (not the campfire, not level cards) with their positions."""
        return ((p, c) for p, c in self.cards.items() if p != ROOT and not c.level_card)

    def count_cards(self, domains: Iterable[int] | None = None,
                    values: Iterable[int] | None = None, advanced: bool | None = None,
                    level_cards: bool = False) -> int:  # fmt: skip
        """How many cards pass every filter given. Counts mastery cards, or monument level
        cards with ``level_cards=True``; never the campfire. ``domains``/``values``: the
        card's domain/value is one of these; ``advanced``: the side up.

        >>> t = Tree()
        >>> _ = t.place((1, 0), "T3a-1", (0, 1, 2, 0), domain=0, value=3)
        >>> _ = t.place((0, 1), "M01-L1", (6, 6, 0, 1), level_card=True, domain=0)
        >>> t.count_cards(), t.count_cards(values=(6, 9)), t.count_cards(level_cards=True)
        (1, 0, 1)
        """
        doms = None if domains is None else frozenset(domains)
        vals = None if values is None else frozenset(values)
        n = 0
        for pos, card in self.cards.items():
            if pos == ROOT or card.level_card != level_cards:
                continue
            if doms is not None and card.domain not in doms:
                continue
            if vals is not None and card.value not in vals:
                continue
            if advanced is not None and card.advanced != advanced:
                continue
            n += 1
        return n

    def position_of(self, card_id: str) -> Pos | None:
        """Where the card with this id lies, or None."""
        for pos, card in self.cards.items():
            if card.id == card_id:
                return pos
        return None

    def has_skill(self, skill_id: str) -> bool:
        """Whether a copy of this skill (``T3a`` for ``T3a-1`` … ``T3a-4``) is in the tree
        (the one-copy rule, D-DEV-4)."""
        prefix = skill_id + "-"
        return any(c.id.startswith(prefix) or c.id == skill_id for _, c in self.mastery_cards())

    def level_cards(self, levels: Mapping[str, int]) -> list[int]:
        """The levels (sorted) of a monument's level cards in the tree (control,
        D-BUILD-10): ``levels`` maps each of its level cards' ids to its level, as the
        data set names them (``M01-L1`` in the built-in one, anything in a user's).

        >>> t = Tree()
        >>> _ = t.place((0, 1), "Pharos/2", (6, 6, 0, 1), level_card=True, domain=0)
        >>> t.level_cards({"Pharos/1": 1, "Pharos/2": 2}), t.level_cards({"M01-L2": 2})
        ([2], [])
        """
        return sorted(levels[c.id] for c in self.cards.values()
                      if c.level_card and c.id in levels)

    # ------------------------------------------------------------------ display
    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_col, min_row, max_col, max_row)`` of the cards."""
        cols = [p[0] for p in self.cards]
        rows = [p[1] for p in self.cards]
        return min(cols), min(rows), max(cols), max(rows)

    def render_text(self) -> str:
        """An ASCII picture, top row first: each card is a 3×3 block with its halves' letters
        (``T C A S G R``, ``V`` vestigium, ``X`` corruptio) on its four sides and in its
        centre ``@`` for the campfire, ``m`` for a level card, or the mastery card's domain
        letter, lower case on the basic side and upper case on the advanced side (``?`` when
        no domain was given). Empty positions are blank; trailing spaces are stripped."""
        min_c, min_r, max_c, max_r = self.bounds()
        letters = DOMAINS + "VX"
        lines: list[str] = []
        for row in range(max_r, min_r - 1, -1):
            block = [[" "] * (3 * (max_c - min_c + 1)) for _ in range(3)]
            for col in range(min_c, max_c + 1):
                card = self.cards.get((col, row))
                if card is None:
                    continue
                x = 3 * (col - min_c)
                top, right, bottom, left = (letters[h] for h in card.sides)
                if (col, row) == ROOT:
                    mid = "@"
                elif card.level_card:
                    mid = "m"
                elif card.domain is None or not 0 <= card.domain < 6:
                    mid = "?"
                else:
                    mid = DOMAINS[card.domain] if card.advanced else DOMAINS[card.domain].lower()
                block[0][x + 1] = top
                block[1][x: x + 3] = [left, mid, right]
                block[2][x + 1] = bottom
            lines.extend("".join(r).rstrip() for r in block)
        return "\n".join(lines)
