"""Dominations as a PettingZoo AEC environment: action indices and the observation vector.

The board and the trees are unbounded in the rules (a cell may lie anywhere next to the filled
ones), so absolute coordinates make no finite index space. Indices name places *relative to
what is already there*, in an order that never changes during a game:

- a **filled cell** by its ordinal ``k`` in ``board.order`` (the order cells were filled: the 6
  cradle cells, then tiles and monument cells as placed). At most ``F`` cells are ever filled:
  6 cradle cells + 90 land tiles + 2 cells of each of the 6 diamond monuments = **108**;
- an **empty cell next to the board** by ``3k + s``: the cell across side ``s`` of filled cell
  ``k``. A cell touching several filled cells is named by the earliest one (the smallest
  ``k``), so the name is unique and stays the same while the cell is empty;
- a **vertex** (a locus) by ``3k + c``: corner ``c`` of the earliest filled cell around it;
- a **tree position** by ``4k + d``: the position in direction ``d`` (top, right, bottom,
  left) of the ``k``-th card of the deciding player's tree, in placement order, earliest card
  first. A tree holds at most ``T`` = 1 campfire + 15 mastery cards + 15 monument level
  cards (one build and one develop phase in each of 15 turns) + 3 influence copies = **34**;
- a **tile of a hand** by its slot in the hand's list order (as ``view()`` lists it), at most
  ``H`` = 7 + 2 (the High Priestess) = **9** tiles.

Action index space
------------------
One ``Discrete`` space, segments in this order (sizes for the built-in data; ``n`` players):

==============  ==============  =====================================================
segment         size            index within the segment → engine action
==============  ==============  =====================================================
place           H·3·3F = 8748   ``(slot·3 + rotation)·3F + w``: the hand tile at
                                ``slot``, rotated, on the cell across side ``s`` of
                                filled cell ``k`` (``w = 3k + s``), scoring that
                                side (``connection=all-sides``: the cell named ``w``,
                                scoring every side)
place-locus     H·3·3F = 8748   the same with ``w`` a vertex: the placement that
                                completes that locus
reactivate      F·6 = 648       ``6k + link``: the Inventor scores the tile on filled
                                cell ``k`` again (link 0–2 a side, 3–5 a locus corner)
pass            1
vestigium       6               vestigium counts as domain ``d``
exchange        36              ``6a + b``: campfire exchange of ``a`` for ``b``
city            F = 108         build a city on filled cell ``k``
upgrade         F = 108         upgrade the city on filled cell ``k``
monument        12·4T = 1632    ``m·4T + p``: the next level of monument ``m``, its card
                                at tree position ``p``
monument-tile   21F = 2268      second step of a level 1 (its tile): a diamond
                                ``(w·2 + r)·3 + side`` (the cell named ``w`` is c1,
                                ``r`` = 0, when c1 touches the board, else c2, ``r`` =
                                1; c2 lies across ``side`` of c1); a circle
                                ``18F + v`` on the locus named ``v``
pay             6·20 = 120      ``20d + (amount - 1)``: pay a monument level's cost
card            288·4T = 39168  ``code·4T + p``: mastery copy ``code`` at tree position
                                ``p`` (acquire; the free copy at an age's end)
advance         72              turn skill ``s`` advanced (develop, or the copy)
resolve         126·2 = 252     ``2·source + slot``: resolve that effect next (sources:
                                72 skills, 50 level cards, 4 campfires)
choose          16 + 12 = 28    keep objective ``i``, or monument ``16 + i``
return          H = 9           return the hand tile at ``slot``
done            1
return-all      1
mulligan        1
order           n!              the Governor's initiative order, permutations of the
                                seats in lexicographic order
==============  ==============  =====================================================

Total: **61,955 + n!** (61,957 for 2 players, 61,961 for 3, 61,979 for 4), the same with
either ``connection`` option and either variant. The flat product of a level 1 monument (card
position × tile position, over a million indices) is split in two steps: the ``monument`` index,
then, for a level 1 only, a ``monument-tile`` index; every other action is one index. The
codec is a bijection between the legal actions of any state and their index paths
(:func:`action_to_indices`, :func:`indices_to_action`, or :class:`Codec`); a legal action
outside the bounds above would be an engine bug and raises ``ValueError``.

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=5))
>>> codec = Codec(2)
>>> a = s.legal_actions()[0]; s.format_action(a), codec.encode(s, a)
('choose O01', (61915,))
>>> codec.decode(s, (61915,)) == a, codec.size
(True, 61957)

Observation vector
------------------
``float32``, raw values (not scaled). Everything is public in Dominations except the order of
the tile supply and, during the setup drafts, the cards other players drew and kept: those are
never encoded (a player's drawn pairs only for that player; others' objectives and the
monuments drafted only once the drafts are over), exactly as ``view()`` hides them. Seats are
relative to the observer (slot 0 the observer, slot ``r`` the player ``r`` seats after). The
length depends on the player count only: **11,085** for 2 players, 13,556 for 3, 16,027 for 4
(``Observer(players).layout.describe()`` lists every block with its offset and bounds).

================  ===================================================================
block             meaning
================  ===================================================================
age, turn         one-hot age 1–3; turn in the age (1–5; 6 once its turns are over)
phase             one-hot of the engine's phase (growth … setup)
pending           one-hot kind of the pending decision (effects order, vestigium, pay,
                  step, copy, draft, tiles, initiative); ``pending_amount``: knowledge
                  left to pay or gained vestigium left to split; ``tiles_mode`` one-hot
draft             what is drafted now (objective, monument); ``draft_options``: the
                  observer's own cards drawn and not yet chosen from (both pairs are
                  drawn at setup, D-SET-3)
due               counts of the effects due, by resolve index (``2·source + slot``)
queued            per seat: the decisions waiting under the one now, by kind;
                  ``due_queued``: per seat, the effects due in those, by resolve index;
                  ``steps``: the engine's steps waiting under it, by kind (what the end
                  of an age has still to score, …)
substep           a level 1 monument chosen, awaiting its tile: flag, monument one-hot,
                  the card's tree position (col, row)
taking            a monument level whose cost is being paid: flag, monument one-hot, the
                  card's tree position, its tile (flag, x, y) for a level 1
supply            tiles left in the supply; ``supply_known``: how many at its bottom were put
                  back from a (public) hand; ``supply_bottom``: the first of those, in the
                  order they will be drawn, as hand slots are
mover, deciding   one-hot seats; ``initiative``: each seat's place in the initiative order
flags             the Artisan's second tile may be placed; a tile was placed this turn
exchanged         the domains the mover exchanged into this turn
produced          the knowledge the mover produced this turn, per domain (``on_produce``
                  skills fire on its multiples)
batch             per seat: what the placement being scored produces, per domain, and the
                  vestigium still to assign; ``assign_queue``: each seat's place in the
                  queue assigning it (the vestigium phase)
roles             per domination card: holder (seat one-hot, or none), used, active
monuments         per monument: in play, diamond, circle, levels taken, levels, controller
                  (seat one-hot, or none), tile placed, tile position x, y
mastery_supply    per mastery copy: still in the supply
knowledge …       per seat: knowledge, limits, domains whose overflow VP this phase already
                  gave, city tokens, influence, VP, VP by source,
                  hand size, mulligans, turns, tree size, nodi by colour, objective
                  (one-hot) with per goal (have, need, met) and its VP now, skills held,
                  skills advanced, level cards held
hands             per seat, per hand slot: present, settlement domain, corner colours
trees             per seat, per tree card in placement order: present, col, row, campfire,
                  level card, advanced, domain, value, four half-nodi colours
board             per filled cell in fill order: present, kind (cradle, land, monument),
                  x, y, points up, corner colours, settlement, city owner (seat) and level,
                  closed sides, sides against a filled cell, corners under a circle
================  ===================================================================

Hand slots, tree cards and board cells are in the same orders as the action indices name them.

Global state
------------
``env.state()`` (``Observer(players, full=True)``) is the vector of an observer who sees
everything, for centralised critics and analysis, never for a seat's own policy. It has the
observation's blocks with seat ``q`` in slot ``q`` (absolute), every objective and drafted
monument shown during the drafts, ``drafts`` (per seat, the two cards it drew and has still to
choose from) in place of ``draft_options``, and ``supply_next``: the next tiles to be drawn,
in order, up to 9 (the supply's real top, unknown to the players unless they are its known
bottom). It is 11,392 entries for 2 players, 13,891 for 3, 16,390 for 4.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np

from dominari.core.errors import ConfigError, IllegalActionError
from dominari.core.game import GameState
from dominari.dominations.board import (
    CRADLE,
    LAND,
    LINK_ALL_SIDES,
    LINK_LOCUS,
    MAX_CITY_LEVEL,
)
from dominari.dominations.board import MONUMENT as MONUMENT_CELL
from dominari.dominations.cards import CAMPFIRE_BASE, LEVEL_BASE, Catalog
from dominari.dominations.data import DOMAINS, GameData, RoleEffect, default_data
from dominari.dominations.engine import (
    AGE_END,
    AGES,
    CITY_TOKENS,
    DECISION_NAMES,
    F_CHOOSE,
    F_COPY,
    F_EFFECTS,
    F_GAIN,
    F_PAY,
    F_STEP,
    F_TILES,
    HAND_SIZE,
    MAX_LIMIT,
    MONUMENT_CARD,
    OBJECTIVE,
    OVER,
    PHASE_NAMES,
    S_TAKE_LEVEL,
    SETUP,
    STEP_NAMES,
    TILE_MODES,
    TURNS_PER_AGE,
    VP_SOURCES,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.grid import (
    VERTEX_CELL_CORNER,
    VERTEX_CELL_DELTAS,
    Cell,
    Vertex,
    corner_vertex,
    key_xy,
    side_neighbour,
)
from dominari.dominations.notation import (
    ACQUIRE,
    ADVANCE,
    AS_DOMAIN,
    CHOOSE,
    CITY,
    COPY,
    COPY_ADVANCE,
    DONE,
    EXCHANGE,
    MONUMENT,
    MULLIGAN,
    NO_TILE,
    ORDER,
    PASS,
    PAY,
    PLACE,
    REACTIVATE,
    RESOLVE,
    RETURN,
    RETURN_ALL,
    UPGRADE,
    Action,
    order_code,
    tile_code,
    tile_where,
)
from dominari.dominations.objectives import goals_progress, objective_vp
from dominari.dominations.rules import Rules
from dominari.dominations.tree import DIRECTIONS, ROOT, CardInTree, Pos
from dominari.envs.base import FloatArray, GameEnv, Layout, Node, check_options, check_players

SEGMENTS = ("place", "place-locus", "reactivate", "pass", "vestigium", "exchange", "city",
            "upgrade", "monument", "monument-tile", "pay", "card", "advance", "resolve",
            "choose", "return", "done", "return-all", "mulligan", "order")
"""The segments of the action index space, in order."""

_REACTIVATE_LINKS = 6  # sides 0–2, loci 3–5
_COLOURS = 8  # half-nodus and corner colour codes 0–7 (six domains, vestigium, corruptio)


def _diamonds(data: GameData) -> int:
    return sum(1 for m in data.monuments if m.shape == "diamond")


def max_hand(data: GameData) -> int:
    """The most tiles a hand can hold: 7, plus every extra tile a domination card draws."""
    return HAND_SIZE + sum(e.amount for r in data.roles for e in r.effects
                           if isinstance(e, RoleEffect) and e.kind == "role_tiles")


def max_cells(data: GameData) -> int:
    """The most cells ever filled: the cradle, every land tile, two cells per diamond."""
    return len(data.cradle) + len(data.tiles) + 2 * _diamonds(data)


def max_tree(data: GameData) -> int:
    """The most cards a tree can hold: the campfire, one card per build and develop phase
    of each of the 15 turns, one influence copy per age (and never more than the cards)."""
    cat = Catalog.of(data)
    return min(1 + 2 * AGES * TURNS_PER_AGE + AGES, 1 + len(cat.copy_ids) + len(cat.levels))


class _Context:
    """Per-state lookups the codec needs: cell, tree and hand ordinals of the decider."""

    __slots__ = ("board", "cell_cache", "hand", "hand_slot", "order", "ordinal", "positions",
                 "tree", "tree_ordinal")

    def __init__(self, state: DominationsState) -> None:
        self.board = state.board
        self.order = state.board.order
        self.ordinal = {key: i for i, key in enumerate(self.order)}
        player = state.current_player()
        ps = state.players[player] if player >= 0 else state.players[0]
        self.tree = ps.tree
        self.positions: list[Pos] = list(ps.tree.cards)
        self.tree_ordinal = {pos: i for i, pos in enumerate(self.positions)}
        self.hand = ps.hand
        self.hand_slot = {t: i for i, t in enumerate(ps.hand)}
        self.cell_cache: dict[tuple[int, int], int] = {}


class Codec:
    """The action index space of Dominations for ``players`` seats (see the module docstring).

    ``encode(state, action)`` gives the index path of a legal action (one index, or two for a
    level 1 monument), ``decode(state, path)`` the action a path names (``ValueError`` when it
    names none; whether it is legal is the state's business), ``choices(state)`` every legal
    index mapped to its action (or to the second step's mapping).
    """

    def __init__(self, players: int, rules: Rules | None = None, data: GameData | None = None
                 ) -> None:
        self.players = players
        self.rules = rules if rules is not None else Rules()
        self.data = data if data is not None else default_data()
        cat = self.catalog = Catalog.of(self.data)
        self.hand_slots = max_hand(self.data)
        self.cells = max_cells(self.data)
        self.tree_cards = max_tree(self.data)
        self.where = 3 * self.cells
        self.tree_slots = 4 * self.tree_cards
        self.n_skills = len(cat.skills)
        self.n_levels = len(cat.levels)
        self.n_copies = len(cat.copy_ids)
        self.n_monuments = len(self.data.monuments)
        self.n_objectives = len(self.data.objectives)
        self.n_sources = self.n_skills + self.n_levels + len(self.data.campfires)
        codes = [*range(self.n_skills), *(LEVEL_BASE + i for i in range(self.n_levels)),
                 *(CAMPFIRE_BASE + i for i in range(len(self.data.campfires)))]
        self.effect_slots = max(1, max(len(cat.effects(c, adv)) for c in codes
                                       for adv in (False, True)))
        self.pay_max = MAX_LIMIT
        self.orders: list[tuple[int, ...]] = list(itertools.permutations(range(players)))
        self._order_rank = {order_code(o): i for i, o in enumerate(self.orders)}
        self.diamond_tiles = 6 * self.where
        sizes = {
            "place": self.hand_slots * 3 * self.where,
            "place-locus": self.hand_slots * 3 * self.where,
            "reactivate": self.cells * _REACTIVATE_LINKS,
            "pass": 1,
            "vestigium": 6,
            "exchange": 36,
            "city": self.cells,
            "upgrade": self.cells,
            "monument": self.n_monuments * self.tree_slots,
            "monument-tile": self.diamond_tiles + self.where,
            "pay": 6 * self.pay_max,
            "card": self.n_copies * self.tree_slots,
            "advance": self.n_skills,
            "resolve": self.n_sources * self.effect_slots,
            "choose": self.n_objectives + self.n_monuments,
            "return": self.hand_slots,
            "done": 1,
            "return-all": 1,
            "mulligan": 1,
            "order": len(self.orders),
        }
        self.sizes = sizes
        self.offsets: dict[str, int] = {}
        total = 0
        for name in SEGMENTS:
            self.offsets[name] = total
            total += sizes[name]
        self.size = total
        self._starts = [self.offsets[name] for name in SEGMENTS]
        self._place_start = self.offsets["place"]
        self._locus_start = self.offsets["place-locus"]

    def describe(self) -> str:
        """One line per segment: offset, size, name."""
        return "\n".join(f"{self.offsets[n]:7d} {self.sizes[n]:7d}  {n}" for n in SEGMENTS)

    def segment(self, index: int) -> tuple[str, int]:
        """The segment of a (first or second step) index and the index within it."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is out of range 0 to {self.size - 1}")
        name = SEGMENTS[bisect.bisect_right(self._starts, index) - 1]
        return name, index - self.offsets[name]

    # ------------------------------------------------------------------ slots
    def _bound(self, value: int, limit: int, what: str) -> int:
        if not 0 <= value < limit:
            raise ValueError(f"{what} {value} is outside the index space (0 to {limit - 1}): "
                             "the bounds of dominari.envs.dominations are wrong")
        return value

    def _cell_slot(self, ctx: _Context, cell: int) -> int:
        """``3k + s`` for an empty cell: across side ``s`` of the earliest filled neighbour."""
        best = -1
        for s in range(3):
            k = ctx.ordinal.get(side_neighbour(cell, s))
            if k is not None and (best < 0 or 3 * k + s < best):
                best = 3 * k + s
        if best < 0:
            raise ValueError(f"cell {Cell.from_key(cell)} touches no filled cell")
        return self._bound(best, self.where, "cell slot")

    def _cell_of(self, ctx: _Context, w: int) -> int:
        """The empty cell a canonical cell slot names (``ValueError`` if none)."""
        k, s = divmod(w, 3)
        if k >= len(ctx.order):
            raise ValueError(f"cell slot {w}: only {len(ctx.order)} cells are filled")
        cell = side_neighbour(ctx.order[k], s)
        if ctx.board.is_filled(cell) or self._cell_slot(ctx, cell) != w:
            raise ValueError(f"cell slot {w} names no empty cell (or not by its earliest "
                             "filled neighbour)")
        return cell

    def _side_slot(self, ctx: _Context, cell: int, side: int) -> int:
        """``3k + side``: the filled cell ``k`` across ``side`` of ``cell``."""
        k = ctx.ordinal.get(side_neighbour(cell, side))
        if k is None:
            raise ValueError(f"nothing is filled across side {side} of {Cell.from_key(cell)}")
        return self._bound(3 * k + side, self.where, "side slot")

    def _vertex_slot(self, ctx: _Context, vertex: int) -> int:
        """``3k + c``: corner ``c`` of the earliest filled cell around ``vertex``."""
        best = -1
        for delta, corner in zip(VERTEX_CELL_DELTAS, VERTEX_CELL_CORNER, strict=True):
            k = ctx.ordinal.get(vertex + delta)
            if k is not None and (best < 0 or 3 * k + corner < best):
                best = 3 * k + corner
        if best < 0:
            raise ValueError(f"no filled cell around {Vertex.from_key(vertex)}")
        return self._bound(best, self.where, "vertex slot")

    def _vertex_of(self, ctx: _Context, v: int) -> int:
        k, c = divmod(v, 3)
        if k >= len(ctx.order):
            raise ValueError(f"vertex slot {v}: only {len(ctx.order)} cells are filled")
        vertex = corner_vertex(ctx.order[k], c)
        if self._vertex_slot(ctx, vertex) != v:
            raise ValueError(f"vertex slot {v} does not name its vertex by the earliest cell")
        return vertex

    def _tree_slot(self, ctx: _Context, pos: Pos) -> int:
        """``4k + d``: direction ``d`` of the earliest tree card next to ``pos``."""
        best = -1
        for d, (dc, dr) in enumerate(DIRECTIONS):
            k = ctx.tree_ordinal.get((pos[0] - dc, pos[1] - dr))
            if k is not None and (best < 0 or 4 * k + d < best):
                best = 4 * k + d
        if best < 0:
            raise ValueError(f"tree position {pos} touches no card")
        return self._bound(best, self.tree_slots, "tree slot")

    def _pos_of(self, ctx: _Context, p: int) -> Pos:
        k, d = divmod(p, 4)
        if k >= len(ctx.positions):
            raise ValueError(f"tree slot {p}: the tree holds {len(ctx.positions)} cards")
        col, row = ctx.positions[k]
        pos = (col + DIRECTIONS[d][0], row + DIRECTIONS[d][1])
        if pos in ctx.tree_ordinal or self._tree_slot(ctx, pos) != p:
            raise ValueError(f"tree slot {p} names no empty position (or not by its earliest "
                             "card)")
        return pos

    def _hand_slot(self, ctx: _Context, tile: int) -> int:
        slot = ctx.hand_slot.get(tile)
        if slot is None:
            raise ValueError(f"tile {tile} is not in the deciding player's hand")
        return self._bound(slot, self.hand_slots, "hand slot")

    def _tile_of(self, ctx: _Context, slot: int) -> int:
        if slot >= len(ctx.hand):
            raise ValueError(f"hand slot {slot}: the hand holds {len(ctx.hand)} tiles")
        return ctx.hand[slot]

    def _source_index(self, code: int) -> int:
        if code >= CAMPFIRE_BASE:
            return self.n_skills + self.n_levels + code - CAMPFIRE_BASE
        if code >= LEVEL_BASE:
            return self.n_skills + self._bound(code - LEVEL_BASE, self.n_levels, "level card")
        return self._bound(code, self.n_skills, "skill")

    def _source_code(self, index: int) -> int:
        if index >= self.n_skills + self.n_levels:
            return CAMPFIRE_BASE + index - self.n_skills - self.n_levels
        if index >= self.n_skills:
            return LEVEL_BASE + index - self.n_skills
        return index

    # ------------------------------------------------------------------ encode
    def encode(self, state: DominationsState, action: Action, ctx: _Context | None = None
               ) -> tuple[int, ...]:
        """The index path of ``action`` in ``state`` (a legal action: other actions may have
        no path, ``ValueError``)."""
        if not isinstance(action, Action):
            raise ValueError(f"not a Dominations action: {action!r}")
        if ctx is None:
            ctx = _Context(state)
        kind, a, b, c, d = action
        off = self.offsets
        if kind == PLACE:
            return (self._place(ctx, a, b, c, d),)
        if kind == REACTIVATE:
            k = ctx.ordinal.get(a)
            if k is None:
                raise ValueError(f"no filled cell {Cell.from_key(a)} to reactivate")
            return (off["reactivate"] + self._bound(k, self.cells, "cell")
                    * _REACTIVATE_LINKS + self._bound(b, _REACTIVATE_LINKS, "link"),)
        if kind in (CITY, UPGRADE):
            k = ctx.ordinal.get(a)
            if k is None:
                raise ValueError(f"no filled cell {Cell.from_key(a)} for a city")
            segment = "city" if kind == CITY else "upgrade"
            return (off[segment] + self._bound(k, self.cells, "cell"),)
        if kind == MONUMENT:
            m = self._bound(a, self.n_monuments, "monument")
            head = off["monument"] + m * self.tree_slots + self._tree_slot(ctx, (b, c))
            if d == NO_TILE:
                return (head,)
            where, side = tile_where(d)
            if side < 0:
                tail = self.diamond_tiles + self._vertex_slot(ctx, where)
            else:
                tail = self._diamond_tail(ctx, where, side)
            return (head, off["monument-tile"] + tail)
        if kind in (ACQUIRE, COPY):
            code = self._bound(a, self.n_copies, "mastery copy")
            return (off["card"] + code * self.tree_slots + self._tree_slot(ctx, (b, c)),)
        if kind in (ADVANCE, COPY_ADVANCE):
            return (off["advance"] + self._bound(a, self.n_skills, "skill"),)
        if kind == RESOLVE:
            return (off["resolve"] + self._source_index(a) * self.effect_slots
                    + self._bound(b, self.effect_slots, "effect slot"),)
        if kind == PAY:
            return (off["pay"] + self._bound(a, 6, "domain") * self.pay_max
                    + self._bound(b - 1, self.pay_max, "amount - 1"),)
        if kind == EXCHANGE:
            return (off["exchange"] + 6 * self._bound(a, 6, "domain")
                    + self._bound(b, 6, "domain"),)
        if kind == AS_DOMAIN:
            return (off["vestigium"] + self._bound(a, 6, "domain"),)
        if kind == CHOOSE:
            index = b if a == OBJECTIVE else self.n_objectives + b
            return (off["choose"] + self._bound(index, self.sizes["choose"], "draft card"),)
        if kind == RETURN:
            return (off["return"] + self._hand_slot(ctx, a),)
        if kind == ORDER:
            rank = self._order_rank.get(a)
            if rank is None:
                raise ValueError(f"{a} is not an initiative order of {self.players} players")
            return (off["order"] + rank,)
        simple = {PASS: "pass", DONE: "done", RETURN_ALL: "return-all", MULLIGAN: "mulligan"}
        if kind in simple:
            return (off[simple[kind]],)
        raise ValueError(f"unknown action kind {kind}")

    def _place(self, ctx: _Context, tile: int, cell: int, rotation: int, link: int) -> int:
        """The index of placing ``tile`` on ``cell`` (a PLACE action's fields)."""
        slot = ctx.hand_slot.get(tile)
        if slot is None or slot >= self.hand_slots or not 0 <= rotation < 3:
            slot = self._hand_slot(ctx, tile)  # ValueError
            self._bound(rotation, 3, "rotation")
        locus = link >= LINK_LOCUS and link != LINK_ALL_SIDES
        w = ctx.cell_cache.get((cell, link))
        if w is None:
            if locus:
                w = self._vertex_slot(ctx, corner_vertex(cell, link - LINK_LOCUS))
            elif link == LINK_ALL_SIDES:
                w = self._cell_slot(ctx, cell)
            else:
                w = self._side_slot(ctx, cell, self._bound(link, 3, "side"))
            ctx.cell_cache[cell, link] = w
        start = self._locus_start if locus else self._place_start
        return start + (slot * 3 + rotation) * self.where + w

    # ------------------------------------------------------------------ decode
    def decode(self, state: DominationsState, path: Sequence[int], ctx: _Context | None = None
               ) -> Action:
        """The action an index path names in ``state`` (``ValueError`` if it names none)."""
        if not 1 <= len(path) <= 2:
            raise ValueError(f"an index path has one or two indices, not {len(path)}")
        if ctx is None:
            ctx = _Context(state)
        name, i = self.segment(int(path[0]))
        if name == "monument":
            m, p = divmod(i, self.tree_slots)
            col, row = self._pos_of(ctx, p)
            needs_tile = state.levels_taken.get(m, 0) == 0
            if len(path) == 1:
                if needs_tile:
                    raise ValueError("level 1 of a monument needs a second index: where its "
                                     "tile goes (the monument-tile segment)")
                return Action(MONUMENT, m, col, row, NO_TILE)
            if not needs_tile:
                raise ValueError("only level 1 of a monument takes a second index")
            tail_name, t = self.segment(int(path[1]))
            if tail_name != "monument-tile":
                raise ValueError(f"the second index of a monument is a monument-tile index, "
                                 f"not {tail_name}")
            return Action(MONUMENT, m, col, row, self._tile_code(ctx, m, t))
        if len(path) != 1:
            raise ValueError(f"a {name} action is one index")
        if name in ("place", "place-locus"):
            head, w = divmod(i, self.where)
            slot, rotation = divmod(head, 3)
            tile = self._tile_of(ctx, slot)
            if name == "place-locus":
                vertex = self._vertex_of(ctx, w)
                empty = [(vertex + delta, corner) for delta, corner
                         in zip(VERTEX_CELL_DELTAS, VERTEX_CELL_CORNER, strict=True)
                         if not ctx.board.is_filled(vertex + delta)]
                if len(empty) != 1:
                    raise ValueError(f"{Vertex.from_key(vertex)} is not a locus one tile "
                                     "short of complete")
                cell, corner = empty[0]
                return Action(PLACE, tile, cell, rotation, LINK_LOCUS + corner)
            if self.rules.all_sides:
                return Action(PLACE, tile, self._cell_of(ctx, w), rotation, LINK_ALL_SIDES)
            k, side = divmod(w, 3)
            if k >= len(ctx.order):
                raise ValueError(f"cell slot {w}: only {len(ctx.order)} cells are filled")
            cell = side_neighbour(ctx.order[k], side)
            if ctx.board.is_filled(cell):
                raise ValueError(f"cell {Cell.from_key(cell)} is filled")
            return Action(PLACE, tile, cell, rotation, side)
        if name == "reactivate":
            k, link = divmod(i, _REACTIVATE_LINKS)
            if k >= len(ctx.order):
                raise ValueError(f"cell {k}: only {len(ctx.order)} cells are filled")
            return Action(REACTIVATE, ctx.order[k], link)
        if name in ("city", "upgrade"):
            if i >= len(ctx.order):
                raise ValueError(f"cell {i}: only {len(ctx.order)} cells are filled")
            return Action(CITY if name == "city" else UPGRADE, ctx.order[i])
        copying = bool(state.stack) and state.stack[-1][0] == F_COPY
        if name == "card":
            code, p = divmod(i, self.tree_slots)
            col, row = self._pos_of(ctx, p)
            return Action(COPY if copying else ACQUIRE, code, col, row)
        if name == "advance":
            return Action(COPY_ADVANCE if copying else ADVANCE, i)
        if name == "resolve":
            source, slot = divmod(i, self.effect_slots)
            return Action(RESOLVE, self._source_code(source), slot)
        if name == "pay":
            domain, amount = divmod(i, self.pay_max)
            return Action(PAY, domain, amount + 1)
        if name == "exchange":
            return Action(EXCHANGE, *divmod(i, 6))
        if name == "vestigium":
            return Action(AS_DOMAIN, i)
        if name == "choose":
            if i < self.n_objectives:
                return Action(CHOOSE, OBJECTIVE, i)
            return Action(CHOOSE, MONUMENT_CARD, i - self.n_objectives)
        if name == "return":
            return Action(RETURN, self._tile_of(ctx, i))
        if name == "order":
            return Action(ORDER, order_code(self.orders[i]))
        if name == "monument-tile":
            raise ValueError("a monument-tile index is the second step of a level 1 monument")
        return Action({"pass": PASS, "done": DONE, "return-all": RETURN_ALL,
                       "mulligan": MULLIGAN}[name])

    def _tile_code(self, ctx: _Context, monument: int, t: int) -> int:
        if self.data.monuments[monument].shape == "circle":
            if t < self.diamond_tiles:
                raise ValueError("a circle monument goes on a locus: a circle tile index")
            vertex = self._vertex_of(ctx, t - self.diamond_tiles)
            return tile_code(vertex, 3)
        if t >= self.diamond_tiles:
            raise ValueError("a diamond monument goes on two cells: a diamond tile index")
        rest, side = divmod(t, 3)
        w, role = divmod(rest, 2)
        anchor = self._cell_of(ctx, w)
        c1 = anchor if role == 0 else side_neighbour(anchor, side)
        code = tile_code(c1, side)
        if self._diamond_tail(ctx, c1, side) != t:
            raise ValueError(f"diamond tile index {t} does not name its cells canonically")
        return code

    def _diamond_tail(self, ctx: _Context, c1: int, side: int) -> int:
        touches = any(ctx.board.is_filled(side_neighbour(c1, s)) for s in range(3))
        anchor = c1 if touches else side_neighbour(c1, side)
        return (self._cell_slot(ctx, anchor) * 2 + (0 if touches else 1)) * 3 + side

    # ------------------------------------------------------------------ choices
    def choices(self, state: DominationsState) -> Node:
        """Every legal index now: → its action, or (a level 1 monument) → the second step's
        indices → actions. ``ValueError`` if a legal action has no index or shares one."""
        ctx = _Context(state)
        root: Node = {}
        place = self._place
        for action in state.legal_actions():
            path = ((place(ctx, action[1], action[2], action[3], action[4]),)
                    if action[0] == PLACE  # most of them, by far: straight to its index
                    else self.encode(state, action, ctx))
            if len(path) == 1:
                if path[0] in root:
                    raise ValueError(f"{state.format_action(action)} and "
                                     f"{state.format_action(root[path[0]])} share index "
                                     f"{path[0]}")
                root[path[0]] = action
                continue
            sub = root.setdefault(path[0], {})
            if not isinstance(sub, dict) or path[1] in sub:
                raise ValueError(f"{state.format_action(action)} shares its indices {path}")
            sub[path[1]] = action
        return root


@functools.lru_cache(maxsize=16)
def _codec(players: int, rules: Rules, data: GameData) -> Codec:
    return Codec(players, rules, data)


def action_to_indices(action: Action, state: DominationsState) -> tuple[int, ...]:
    """The index path of a legal ``action`` in ``state``: one index, or two for a level 1
    monument (:meth:`Codec.encode` with the codec of the state's configuration)."""
    return _codec(state.num_players, state.rules, state.data).encode(state, action)


def indices_to_action(indices: Sequence[int], state: DominationsState) -> Action:
    """The action an index path names in ``state`` (:meth:`Codec.decode`); ``ValueError``
    if it names none.

    >>> from dominari.dominations.engine import DominationsConfig, DominationsState
    >>> s = DominationsState.new(DominationsConfig(players=3, seed=1))
    >>> all(indices_to_action(action_to_indices(a, s), s) == a for a in s.legal_actions())
    True
    """
    return _codec(state.num_players, state.rules, state.data).decode(state, indices)


# ---------------------------------------------------------------------- observation
_TREE_WIDTH = 1 + 2 + 3 + 6 + 1 + 4 * _COLOURS
"""Per tree card: present, col, row, campfire, level card, advanced, domain, value, halves."""
_HAND_WIDTH = 1 + 6 + 3 * _COLOURS
"""Per hand slot: present, settlement domain, three corner colours."""


class Observer:
    """The observation layout of a configuration and its encoder (see the module docstring);
    with ``full``, the layout and encoder of the global state (seen by all, seats absolute).

    >>> Observer(2).layout.size, Observer(2, full=True).layout.size
    (11085, 11392)
    """

    def __init__(self, players: int, data: GameData | None = None,
                 codec: Codec | None = None, full: bool = False) -> None:
        self.players = players
        self.full = full
        self.data = data if data is not None else default_data()
        self.catalog = Catalog.of(self.data)
        self.codec = codec if codec is not None else Codec(players, data=self.data)
        self.goals = max((len(o.goals) for o in self.data.objectives), default=1)
        self.cell_width = 1 + 3 + 2 + 1 + 3 * _COLOURS + 6 + players + 1 + 3 + 3 + 3
        self.monument_width = players + 9
        self.role_width = players + 3
        self.layout = self._layout()
        self._off = self.layout.offsets
        self._forget()

    _REMEMBERED = frozenset({"_rows", "_near", "_tile_rows", "_card_rows", "_goals", "_taken"})
    """The attributes :meth:`_forget` empties (and a pickle leaves out)."""

    def _forget(self) -> None:
        """Start with no entries remembered. The encoder keeps the entries it builds (board
        cells, tree cards, tiles, objective progress, the mastery supply) keyed by every fact
        they are made of, so they never go stale; a pickle leaves them out."""
        self._rows: dict[tuple[Any, ...], FloatArray] = {}
        self._near: dict[int, tuple[int, ...]] = {}  # cell → its side neighbours, corners
        self._tile_rows: dict[int, FloatArray] = {}
        self._card_rows: dict[tuple[Any, ...], tuple[FloatArray, int, int]] = {}
        self._goals: dict[tuple[Any, ...], tuple[tuple[float, ...], int]] = {}
        self._taken: tuple[list[int], FloatArray] = ([], np.zeros(0, np.float32))

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._REMEMBERED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._forget()

    def _layout(self) -> Layout:
        p, c, big, huge = self.players, self.codec, 1000.0, 1e4
        lay = Layout()
        lay.add("age", AGES, doc="one-hot: age 1, 2, 3")
        lay.add("turn", 1, high=TURNS_PER_AGE + 1,
                doc="turn in the age (1-5; 6 once its turns are over)")
        lay.add("phase", len(PHASE_NAMES), doc="one-hot: " + ", ".join(PHASE_NAMES))
        lay.add("pending", len(DECISION_NAMES),
                doc="one-hot pending decision: " + ", ".join(DECISION_NAMES))
        lay.add("pending_amount", 1, high=big,
                doc="knowledge left to pay (pay), or gained vestigium left to split "
                "(vestigium; a placement's is in batch)")
        lay.add("tiles_mode", len(TILE_MODES), doc="one-hot: " + ", ".join(TILE_MODES))
        lay.add("draft", 2, doc="one-hot: an objective or a monument is drafted")
        if self.full:
            lay.add("drafts", p * (c.n_objectives + c.n_monuments),
                    doc="per seat: the two cards it drew and has still to choose from: "
                    "objectives, then monuments")
        else:
            lay.add("draft_options", c.n_objectives + c.n_monuments,
                    doc="the observer's own cards drawn and not yet chosen from: the two "
                    "objectives, then the two monuments (D-SET-3: both drawn at setup)")
        lay.add("due", c.n_sources * c.effect_slots, high=big,
                doc="counts of the effects due, by resolve index")
        lay.add("queued", p * len(DECISION_NAMES), high=big,
                doc="per seat: decisions waiting under the one now, by kind (as pending; "
                "effects due whose order cannot matter resolve without a question)")
        lay.add("due_queued", p * c.n_sources * c.effect_slots, high=big,
                doc="per seat: counts of the effects due in those, by resolve index")
        lay.add("steps", len(STEP_NAMES), high=big,
                doc="the engine's steps waiting under the decision now, by kind: "
                + ", ".join(STEP_NAMES))
        lay.add("substep", 1 + c.n_monuments,
                doc="a level 1 monument awaits its tile: flag, monument one-hot")
        lay.add("substep_pos", 2, low=-c.tree_cards, high=c.tree_cards,
                doc="that level card's tree position (col, row)")
        lay.add("taking", 1 + c.n_monuments + 5, low=-128, high=128,
                doc="a monument level chosen, its cost being paid: flag, monument one-hot, "
                "the card's tree position (col, row), its tile: flag, x, y")
        lay.add("supply", 1, high=len(self.data.tiles), doc="tiles left in the supply")
        lay.add("supply_known", 1, high=len(self.data.tiles),
                doc="tiles put back under the supply and still there, known to all")
        lay.add("supply_bottom", c.hand_slots * _HAND_WIDTH,
                doc="the first of those in the order they will be drawn, per slot: present, "
                "settlement one-hot, 3 corner colour one-hots")
        if self.full:
            lay.add("supply_next", c.hand_slots * _HAND_WIDTH,
                    doc="the next tiles drawn, in order (the supply's real top), per slot as "
                    "supply_bottom")
        lay.add("mover", p, doc="one-hot seat whose turn it is")
        lay.add("deciding", p, doc="one-hot seat deciding now")
        lay.add("initiative", p, high=p - 1, doc="per seat: place in the initiative order")
        lay.add("flags", 2, doc="the Artisan's second tile may be placed; a tile was placed")
        lay.add("exchanged", 6, doc="domains the mover exchanged into this turn")
        lay.add("produced", 6, high=big,
                doc="knowledge the mover produced this turn, per domain (on_produce counts it)")
        lay.add("batch", p * 7, high=big,
                doc="per seat: knowledge the placement being scored produces, per domain, "
                "then vestigium still to assign (the vestigium phase)")
        lay.add("assign_queue", p, high=p,
                doc="per seat: its place in the queue assigning that vestigium (1 first; 0 "
                "not in it)")
        lay.add("roles", 6 * self.role_width,
                doc="per domination card: holder seat one-hot, no holder, used, active")
        lay.add("monuments", c.n_monuments * self.monument_width, low=-128, high=128,
                doc="per monument: in play, diamond, circle, levels taken, levels, "
                "controller seat one-hot, no controller, tile placed, tile x, tile y")
        lay.add("mastery_supply", c.n_copies, doc="per mastery copy: in the supply")
        lay.add("knowledge", p * 6, high=big, doc="per seat, per domain")
        lay.add("limits", p * 6, high=big, doc="per seat, per domain: reserve limit")
        lay.add("overflow", p * 6, doc="per seat, per domain: its overflow VP already given "
                "in this phase")
        lay.add("tokens", p, high=CITY_TOKENS, doc="per seat: city tokens left")
        lay.add("influence", p, high=huge, doc="per seat")
        lay.add("vp", p, low=-huge, high=huge, doc="per seat")
        lay.add("vp_by", p * len(VP_SOURCES), low=-huge, high=huge,
                doc="per seat: VP by source (" + ", ".join(VP_SOURCES) + ")")
        lay.add("hand_size", p, high=c.hand_slots, doc="per seat")
        lay.add("mulligans", p, high=big, doc="per seat: mulligans this age")
        lay.add("turns", p, high=big, doc="per seat: turns taken")
        lay.add("tree_size", p, high=c.tree_cards, doc="per seat: cards in the tree")
        lay.add("nodi", p * 7, high=big, doc="per seat: complete nodi per domain, colourless")
        lay.add("objective", p * c.n_objectives,
                doc="per seat: one-hot objective kept" + (
                    "" if self.full else " (others' hidden during the draft)"))
        lay.add("goals", p * self.goals * 3, high=big, doc="per seat, per goal: have, need, met")
        lay.add("objective_vp", p, high=big, doc="per seat: objective VP if the game ended now")
        lay.add("skills", p * c.n_skills, doc="per seat: skills held")
        lay.add("advanced", p * c.n_skills, doc="per seat: skills held advanced")
        lay.add("level_cards", p * c.n_levels, doc="per seat: monument level cards held")
        lay.add("hands", p * c.hand_slots * _HAND_WIDTH,
                doc="per seat, per hand slot: present, settlement one-hot, 3 corner colour "
                "one-hots (T C A S G R V X)")
        lay.add("trees", p * c.tree_cards * _TREE_WIDTH, low=-big, high=big,
                doc="per seat, per card in placement order: present, col, row, campfire, "
                "level card, advanced, domain one-hot, value, 4 half-nodus colour one-hots")
        lay.add("board", c.cells * self.cell_width, low=-128, high=128,
                doc="per filled cell in fill order: present, kind one-hot (cradle, land, "
                "monument), x, y, up, 3 corner colour one-hots, settlement one-hot, city owner "
                "seat one-hot, city level, closed sides, sides against a filled cell, corners "
                "under a circle monument")
        return lay

    def encode(self, state: DominationsState, viewer: int, pending: Sequence[int] = ()
               ) -> FloatArray:
        """The observation of ``viewer``; ``pending`` is a first step already chosen."""
        obs = np.zeros(self.layout.size, dtype=np.float32)
        off = self._off
        n = self.players

        def seat(q: int) -> int:
            return (q - viewer) % n

        obs[off["age"] + min(max(state.age, 1), AGES) - 1] = 1.0
        obs[off["turn"]] = state.round + 1
        obs[off["phase"] + state.phase] = 1.0
        drafting_objectives = drafting_monuments = False
        if state.phase == SETUP:
            for f in state.stack:
                if f[0] == F_CHOOSE:
                    drafting_objectives |= f[2] == OBJECTIVE
                    drafting_monuments |= f[2] == MONUMENT_CARD
        if state.stack and state.phase != OVER:
            self._pending(state, obs, viewer)
            self._queued(state, obs, viewer)
        if state.phase == SETUP:  # the drafts: each player's drawn pairs are its secret
            width = self.codec.n_objectives + self.codec.n_monuments
            for f in state.stack:
                if f[0] == F_CHOOSE and (self.full or f[1] == viewer):
                    base = (off["drafts"] + f[1] * width if self.full
                            else off["draft_options"]) + (
                        0 if f[2] == OBJECTIVE else self.codec.n_objectives)
                    for i in f[3]:
                        obs[base + i] = 1.0
        if self.full:
            pile = state.supply  # drawn from its end
            for slot in range(min(len(pile), self.codec.hand_slots)):
                self._tile(obs, off["supply_next"] + slot * _HAND_WIDTH, pile[-1 - slot])
        if pending:
            name, i = self.codec.segment(pending[0])
            if name == "monument":
                m, p = divmod(i, self.codec.tree_slots)
                obs[off["substep"]] = 1.0
                obs[off["substep"] + 1 + m] = 1.0
                col, row = self.codec._pos_of(_Context(state), p)
                obs[off["substep_pos"]] = col
                obs[off["substep_pos"] + 1] = row
        obs[off["supply"]] = len(state.supply)
        known = state.supply_known
        if known:
            obs[off["supply_known"]] = known
            pile = state.supply  # its bottom first: the next known tile to draw is pile[known - 1]
            for slot in range(min(known, self.codec.hand_slots)):
                self._tile(obs, off["supply_bottom"] + slot * _HAND_WIDTH,
                           pile[known - 1 - slot])
        if state.phase != OVER:
            obs[off["mover"] + seat(state.mover)] = 1.0
            obs[off["deciding"] + seat(state.current_player())] = 1.0
        for place, q in enumerate(state.order):
            obs[off["initiative"] + seat(q)] = place
        obs[off["flags"]] = float(state.second)
        obs[off["flags"] + 1] = float(state.tile_placed)
        for d in range(6):
            obs[off["exchanged"] + d] = float(state.exchanged >> d & 1)
        obs[off["produced"]:off["produced"] + 6] = state.produced
        for q, made in enumerate(state.batch):
            obs[off["batch"] + 7 * seat(q):off["batch"] + 7 * seat(q) + 7] = made
        for place, q in enumerate(state.assign_queue):
            obs[off["assign_queue"] + seat(q)] = place + 1
        active = state.roles_active and state.phase != AGE_END
        for d in range(6):
            base = off["roles"] + d * self.role_width
            holder = state.roles[d]
            obs[base + (seat(holder) if holder >= 0 else n)] = 1.0
            obs[base + n + 1] = float(state.role_used[d])
            obs[base + n + 2] = float(active and holder >= 0 and not state.role_used[d])
        controllers = {m: state.controller(m) for m in state.monuments}
        if not drafting_monuments or self.full:
            self._monuments(state, obs, viewer, controllers)
        taken = state.taken
        if taken != self._taken[0]:  # it changes only when a copy is taken
            self._taken = (taken[:], np.array([owner < 0 for owner in taken], np.float32))
        obs[off["mastery_supply"]:off["mastery_supply"] + len(taken)] = self._taken[1]
        cities: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        levels = state.board.city_level
        for key, owner in state.board.city_owner.items():
            cities[owner].append((key, levels[key]))
        for q in range(n):
            hidden = drafting_objectives and q != viewer and not self.full
            controlled = sum(1 for who in controllers.values() if who == q)
            self._player(state, obs, q, seat(q), hidden, controlled, cities[q])
        self._board(state, obs, viewer)
        return obs

    def _pending(self, state: DominationsState, obs: FloatArray, viewer: int) -> None:
        off = self._off
        top = state.stack[-1]
        kind = top[0]
        obs[off["pending"] + kind] = 1.0
        if kind in (F_PAY, F_GAIN):
            obs[off["pending_amount"]] = top[2]
        elif kind == F_TILES:
            obs[off["tiles_mode"] + top[2]] = 1.0
        elif kind == F_CHOOSE:
            obs[off["draft"] + top[2]] = 1.0
        elif kind == F_EFFECTS:
            due, slots = off["due"], self.codec.effect_slots
            for d in top[2]:
                obs[due + self.codec._source_index(d.source) * slots + d.slot] += 1.0

    def _queued(self, state: DominationsState, obs: FloatArray, viewer: int) -> None:
        """The decisions under the one now (each names its player) and a monument level whose
        cost is being paid (an engine step under the payment)."""
        off, n, c = self._off, self.players, self.codec
        kinds, slots = len(DECISION_NAMES), c.effect_slots
        width = c.n_sources * slots
        for f in state.stack[:-1]:
            kind = f[0]
            if kind == F_STEP:
                obs[off["steps"] + f[1]] += 1.0
                if f[1] == S_TAKE_LEVEL:
                    self._taking(obs, f[3], f[4], f[5])
                continue
            if kind == F_EFFECTS and not f[2]:  # all resolved: it goes once those above do
                continue
            r = (f[1] - viewer) % n
            obs[off["queued"] + r * kinds + kind] += 1.0
            if kind == F_EFFECTS:
                base = off["due_queued"] + r * width
                for d in f[2]:
                    obs[base + c._source_index(d.source) * slots + d.slot] += 1.0

    def _taking(self, obs: FloatArray, m: int, pos: Pos, tile: int) -> None:
        base = self._off["taking"]
        obs[base] = 1.0
        obs[base + 1 + m] = 1.0
        at = base + 1 + self.codec.n_monuments
        obs[at:at + 2] = pos
        if tile != NO_TILE:
            key, side = tile_where(tile)
            points = [key_xy(key)] if side < 0 else [key_xy(key),
                                                     key_xy(side_neighbour(key, side))]
            obs[at + 2:at + 5] = (1.0, sum(x for x, _ in points) / len(points),
                                  sum(y for _, y in points) / len(points))

    def _monuments(self, state: DominationsState, obs: FloatArray, viewer: int,
                   controllers: Mapping[int, int | None]) -> None:
        n, width = self.players, self.monument_width
        cat = self.catalog
        for m in state.monuments:
            base = self._off["monuments"] + m * width
            obs[base] = 1.0
            obs[base + (2 if self.data.monuments[m].shape == "circle" else 1)] = 1.0
            obs[base + 3] = state.levels_taken.get(m, 0)
            obs[base + 4] = len(cat.monument_levels[m])
            who = controllers[m]
            obs[base + 5 + ((who - viewer) % n if who is not None else n)] = 1.0
            placed = state.placed.get(m)
            if placed is not None:
                points = [key_xy(k) for k in placed.cells] or [key_xy(placed.vertex)]
                obs[base + n + 6] = 1.0
                obs[base + n + 7] = sum(x for x, _ in points) / len(points)
                obs[base + n + 8] = sum(y for _, y in points) / len(points)

    def _tile(self, obs: FloatArray, base: int, t: int) -> None:
        """A tile of a hand or of the supply at ``base`` (:meth:`_tile_row`)."""
        obs[base:base + _HAND_WIDTH] = self._tile_row(t)

    def _tile_row(self, t: int) -> FloatArray:
        """A tile's entry: present, settlement domain one-hot, its 3 corner colours one-hot
        (cached: tiles never change)."""
        row = self._tile_rows.get(t)
        if row is None:
            tile = self.data.tiles[t]
            row = self._tile_rows[t] = np.zeros(_HAND_WIDTH, dtype=np.float32)
            row[0] = 1.0
            if 0 <= tile.settlement < 6:
                row[1 + tile.settlement] = 1.0
            for j, colour in enumerate(tile.corners):
                if 0 <= colour < _COLOURS:
                    row[7 + j * _COLOURS + colour] = 1.0
        return row

    def _card_row(self, first: bool, pos: Pos, card: CardInTree
                  ) -> tuple[FloatArray, int, int]:
        """A tree card's entry (present, col, row, campfire, level card, advanced, domain
        one-hot, value, half-nodus colours), with its level card code and skill code (-1 for
        none), cached by the card and its place."""
        facts = (first, pos, card)
        found = self._card_rows.get(facts)
        if found is not None:
            return found
        if len(self._card_rows) > 20_000:  # cards of many games: start again
            self._card_rows.clear()
        cat = self.catalog
        row = np.zeros(_TREE_WIDTH, dtype=np.float32)
        row[0:3] = (1.0, pos[0], pos[1])
        level = skill = -1
        if first:
            row[3] = 1.0
        elif card.level_card:
            row[4] = 1.0
            level = cat.level_code.get(card.id, -1)
        else:
            code = cat.copy_code.get(card.id)
            if code is not None:
                skill = cat.copy_skill[code]
        row[5] = float(card.advanced)
        if card.domain is not None and 0 <= card.domain < 6:
            row[6 + card.domain] = 1.0
        row[12] = card.value
        for j, half in enumerate(card.sides):
            row[13 + j * _COLOURS + half] = 1.0
        found = self._card_rows[facts] = (row, level, skill)
        return found

    def _player(self, state: DominationsState, obs: FloatArray, q: int, r: int,
                objective_hidden: bool, controlled: int, cities: Sequence[tuple[int, int]]
                ) -> None:
        """Seat ``q``'s blocks at slot ``r``; ``cities`` are its cities (key, level)."""
        off, c = self._off, self.codec
        ps = state.players[q]
        tree = ps.tree
        obs[off["knowledge"] + 6 * r:off["knowledge"] + 6 * r + 6] = ps.knowledge
        obs[off["limits"] + 6 * r:off["limits"] + 6 * r + 6] = ps.limits()
        overflow = ps.overflow
        if overflow:
            for d in range(6):
                obs[off["overflow"] + 6 * r + d] = float(overflow >> d & 1)
        obs[off["tokens"] + r] = ps.tokens
        obs[off["influence"] + r] = ps.influence
        obs[off["vp"] + r] = ps.vp
        w = len(VP_SOURCES)
        obs[off["vp_by"] + w * r:off["vp_by"] + w * r + w] = ps.vp_by
        obs[off["hand_size"] + r] = len(ps.hand)
        obs[off["mulligans"] + r] = state.mulligans[q] if state.mulligans else 0
        obs[off["turns"] + r] = ps.turns
        obs[off["tree_size"] + r] = len(tree)
        nodi = tree.nodi_counts()
        obs[off["nodi"] + 7 * r:off["nodi"] + 7 * r + 7] = nodi[:7]
        hand = ps.hand[:c.hand_slots]
        if hand:
            base = off["hands"] + r * c.hand_slots * _HAND_WIDTH
            obs[base:base + len(hand) * _HAND_WIDTH] = np.concatenate(
                [self._tile_row(t) for t in hand])
        parts, cards = [], []
        skills, advanced = off["skills"] + c.n_skills * r, off["advanced"] + c.n_skills * r
        levels = off["level_cards"] + c.n_levels * r
        for k, (pos, card) in enumerate(tree.cards.items()):
            if pos != ROOT:  # what the goals read: the mastery cards (Tree.mastery_cards)
                cards.append(None if card.level_card else (card.value, card.domain))
            if k >= c.tree_cards:
                continue
            row, level, skill = self._card_row(k == 0, pos, card)
            parts.append(row)
            if level >= 0:
                obs[levels + level] = 1.0
            elif skill >= 0:
                obs[skills + skill] = 1.0
                if card.advanced:
                    obs[advanced + skill] = 1.0
        if parts:
            base = off["trees"] + r * c.tree_cards * _TREE_WIDTH
            obs[base:base + len(parts) * _TREE_WIDTH] = np.concatenate(parts)
        index = state.objectives[q] if state.objectives else -1
        if index >= 0 and not objective_hidden:
            obs[off["objective"] + c.n_objectives * r + index] = 1.0
            progress, vp = self._progress(state, q, index, controlled, cities, nodi, cards)
            base = off["goals"] + 3 * self.goals * r
            obs[base:base + len(progress)] = progress
            obs[off["objective_vp"] + r] = vp

    def _progress(self, state: DominationsState, q: int, index: int, controlled: int,
                  cities: Sequence[tuple[int, int]], nodi: Sequence[int],
                  cards: Sequence[tuple[int, int | None] | None]
                  ) -> tuple[tuple[float, ...], int]:
        """The goals of seat ``q``'s objective ``index`` (have, need, met for each) and the
        objective's VP if the game ended now (:meth:`DominationsState.objective_progress`),
        cached by everything a goal reads: the seat's cities, its nodi and mastery cards (the
        tree in order, ``None`` for a level card), its influence and monuments controlled."""
        ps = state.players[q]
        facts = (index, tuple(cities), tuple(nodi), tuple(cards), ps.influence, controlled,
                 state.rules.objective_table)
        found = self._goals.get(facts)
        if found is not None:
            return found
        if len(self._goals) > 20_000:
            self._goals.clear()
        progress = goals_progress(self.data.objectives[index].goals, q, state.board, ps.tree,
                                  ps.influence, controlled)
        flat = tuple(x for have, need in progress[:self.goals]
                     for x in (have, need, float(have >= need)))
        found = self._goals[facts] = (flat, objective_vp(
            [have >= need for have, need in progress], state.rules.objective_table))
        return found

    def _cell_row(self, key: int, kind: int, colours: tuple[int, int, int],
                  settlement: int | None, closed: int, around: int, owner: int,
                  level: int) -> FloatArray:
        """A filled board cell's entry: ``around`` has a bit for each side against a filled
        cell (0–2) and each corner under a circle monument (3–5); ``owner`` is the city
        owner's seat from the observer (-1 for none), ``level`` its city level."""
        row = np.zeros(self.cell_width, dtype=np.float32)
        x, y = key_xy(key)
        row[0] = 1.0
        row[1 + {CRADLE: 0, LAND: 1, MONUMENT_CELL: 2}.get(kind, 1)] = 1.0
        row[4:7] = (x, y, float(key & 1))
        for j, colour in enumerate(colours):
            if 0 <= colour < _COLOURS:
                row[7 + j * _COLOURS + colour] = 1.0
        at = 7 + 3 * _COLOURS
        if settlement is not None and 0 <= settlement < 6:
            row[at + settlement] = 1.0
        at += 6
        if owner >= 0:
            row[at + owner] = 1.0
            row[at + self.players] = min(level, MAX_CITY_LEVEL)
        at += self.players + 1
        for s in range(3):
            row[at + s] = float(closed >> s & 1)
            row[at + 3 + s] = float(around >> s & 1)
            row[at + 6 + s] = float(around >> 3 + s & 1)
        return row

    def _board(self, state: DominationsState, obs: FloatArray, viewer: int) -> None:
        """The filled cells in fill order, each entry the one row of its facts (cached)."""
        board, n = state.board, self.players
        order = board.order[:self.codec.cells]
        if not order:
            return
        rows, near = self._rows, self._near
        if len(rows) > 20_000:  # cells of many games: start again
            rows.clear()
        filled, circles = board.kind, board.circles
        colours, settlement, closed = board.colours, board.settlement.get, board.closed.get
        owners, levels = board.city_owner.get, board.city_level
        parts = []
        for key in order:
            nb = near.get(key)
            if nb is None:
                nb = near[key] = (*(side_neighbour(key, s) for s in range(3)),
                                  *(corner_vertex(key, s) for s in range(3)))
            around = ((nb[0] in filled) | (nb[1] in filled) << 1 | (nb[2] in filled) << 2
                      | (nb[3] in circles) << 3 | (nb[4] in circles) << 4
                      | (nb[5] in circles) << 5)
            owner = owners(key)
            facts = (key, filled[key], colours[key], settlement(key), closed(key, 0), around,
                     -1 if owner is None else (owner - viewer) % n,
                     0 if owner is None else levels[key])
            row = rows.get(facts)
            if row is None:
                row = rows[facts] = self._cell_row(*facts)
            parts.append(row)
        base = self._off["board"]
        obs[base:base + len(parts) * self.cell_width] = np.concatenate(parts)


# ---------------------------------------------------------------------- environment
def _rules(variant: str | None, rules: Rules | Mapping[str, str] | None) -> Rules:
    """The rule options of an environment: ``rules`` with ``variant`` (if given) applied; a
    ``rules`` that names another variant (a mapping with ``variant``, a ``Rules`` whose variant
    is not the default) contradicts it."""
    if rules is None:
        base = Rules()
    elif isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, Mapping):
        base = Rules().with_options(rules)
    else:
        raise ConfigError(f"rules must be a mapping of rule options (e.g. "
                          f"{{'connection': 'all-sides'}}) or a Rules, not {rules!r}")
    if variant is None:
        return base
    named = (isinstance(rules, Mapping) and "variant" in rules) or (
        isinstance(rules, Rules) and rules.variant != Rules().variant)
    if named and base.variant != variant:
        raise ConfigError(f"variant={variant!r} contradicts the rule option "
                          f"variant={base.variant!r}")
    return replace(base, variant=variant)


class DominationsEnv(GameEnv):
    """Dominations for 2 to 4 agents (see :mod:`dominari.envs.base` and this module's
    docstring). ``variant`` is ``"retail"`` (the default) or ``"prototype"``; ``rules`` sets
    any rule option (``{"connection": "all-sides"}`` …, or a
    :class:`~dominari.dominations.rules.Rules`). Unknown options and values are refused with
    a :class:`~dominari.core.errors.ConfigError`."""

    metadata: ClassVar[dict[str, Any]] = {**GameEnv.metadata, "name": "dominations_v0"}
    _shared_on_copy = GameEnv._shared_on_copy | {"rules", "data", "codec", "observer",
                                                  "state_observer"}

    def __init__(self, num_players: int = 2, variant: str | None = None,
                 rules: Rules | Mapping[str, str] | None = None,
                 render_mode: str | None = None, raw_view: bool = True) -> None:
        players = check_players(num_players, "Dominations")
        self.rules = _rules(variant, rules)
        self.data = default_data()
        self.codec = Codec(players, self.rules, self.data)
        self.observer = Observer(players, self.data, self.codec)
        self.state_observer = Observer(players, self.data, self.codec, full=True)
        super().__init__(players, self.codec.size, self.observer.layout, render_mode, raw_view,
                         state_layout=self.state_observer.layout)

    def _new_game(self, seed: int) -> DominationsState:
        return DominationsState.new(DominationsConfig(
            players=len(self.possible_agents), seed=seed, rules=self.rules, log=False),
            self.data)

    @property
    def game(self) -> DominationsState:
        """The engine state of the current game (treat it as read-only)."""
        game = super().game
        assert isinstance(game, DominationsState)
        return game

    def _choices(self, game: GameState) -> Node:
        assert isinstance(game, DominationsState)
        return self.codec.choices(game)

    def _action_indices(self, game: GameState, action: Hashable) -> tuple[int, ...]:
        assert isinstance(game, DominationsState)
        if not isinstance(action, Action):
            raise IllegalActionError(f"not a Dominations action: {action!r}")
        try:
            return self.codec.encode(game, action)
        except ValueError as exc:
            raise IllegalActionError(f"{game.format_action(action)}: {exc}") from None

    def _observation(self, game: GameState, player: int) -> FloatArray:
        assert isinstance(game, DominationsState)
        return self.observer.encode(game, player, self._prefix)

    def _state(self, game: GameState) -> FloatArray:
        assert isinstance(game, DominationsState)
        return self.state_observer.encode(game, 0, self._prefix)

    def _render_text(self, game: GameState) -> str:
        assert isinstance(game, DominationsState)
        names = self.possible_agents  # seats by agent name, as step() and last() call them
        head = f"Dominations, age {game.age} turn {game.round + 1}: {game.phase_name}"
        if not game.is_terminal():
            head += f" ({names[game.mover]}'s turn, {names[game.current_player()]} decides)"
        lines = [head]
        for q, ps in enumerate(game.players):
            know = " ".join(f"{DOMAINS[d]}{ps.knowledge[d]}" for d in range(6))
            cities = sum(1 for owner in game.board.city_owner.values() if owner == q)
            lines.append(f"{names[q]}: {ps.vp} VP, influence {ps.influence}, knowledge {know}, "
                         f"{len(ps.hand)} tiles in hand, {len(ps.tree)} cards in the tree, "
                         f"{cities} cities")
        last = game.format_action(game.history[-1]) if game.history else "-"
        lines.append(f"Board: {len(game.board.order)} cells filled; supply {len(game.supply)} "
                     f"tiles; last action: {last}")
        if game.is_terminal():
            out = game.outcome()
            assert out is not None
            lines.append("Game over; winner: " + ", ".join(names[p] for p in out.winners))
        else:
            who = game.current_player()
            hand = " ".join(game.data.tiles[t].id for t in game.players[who].hand)
            lines.append(f"{names[who]}'s tiles in hand: {hand or '(none)'}")
        return "\n".join(lines)


def dominations_env(**kwargs: Any) -> DominationsEnv:
    """A :class:`DominationsEnv` (keyword arguments as its constructor's; another is
    refused, with the list of them)."""
    check_options(DominationsEnv, kwargs, "dominations_env")
    return DominationsEnv(**kwargs)
