"""Card effects (data spec §2): one interpreter for the whole vocabulary, driven by the data.

A player's tree decides which effects act: the face-up side of each mastery card, each monument
level card and the campfire. :func:`compile_effects` turns a tree into an :class:`Effects`
table, rebuilt whenever the tree changes (a card taken, a card upgraded), holding

- the **triggered** effects by trigger (``start_of_turn``, ``on_produce`` …) as :class:`Hook`
  entries, so the engine finds what fires without looking at cards;
- the **modifiers**, already summed where they can be: production bonuses, exchange rates and
  reserve-limit raises; cost reductions stay a list because some count things (Irrigation:
  one less per city you have), counted when a cost is paid.

An effect that fires becomes a :class:`Due`. The engine resolves dues one after another
(``DominationsState``); when several are due at once and their order could change the result,
their owner chooses the order (D-FLOW-5, :func:`order_matters`).

Counting terms (:func:`count`) read the player's tree, cities and scores as they stand when the
effect resolves (data spec §2.4).

>>> from dominari.dominations.data import default_data
>>> from dominari.dominations.tree import Tree
>>> from dominari.dominations.cards import Catalog
>>> cat = Catalog.of(default_data())
>>> t = Tree()
>>> fx = compile_effects(t, cat)
>>> fx.exchange_rates, fx.bonuses
(((-1, 2, 1),), (0, 0, 0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from dominari.dominations.board import Board
from dominari.dominations.cards import LEVEL_BASE, Catalog
from dominari.dominations.data import (
    ANY,
    Modifier,
    Per,
    Triggered,
)
from dominari.dominations.grid import side_neighbour
from dominari.dominations.tree import ROOT, Tree

# Trigger names (data spec §2.1)
IMMEDIATE = "immediate"
START_OF_TURN = "start_of_turn"
START_OF_AGE = "start_of_age"
END_OF_AGE = "end_of_age"
ON_PRODUCE = "on_produce"
ON_NODUS = "on_complete_nodus"
ON_CITY = "on_build_or_upgrade_city"
ON_DOMINATION = "on_domination_received"
DOMINANCE = "when_dominance_determined"

# Action kinds (data spec §2.2)
GAIN = "gain_knowledge"
FILL = "fill_knowledge"
VP = "gain_vp"
INFLUENCE = "gain_influence"

COST_TARGETS = ("acq", "upg", "city", "mon")


class Hook(NamedTuple):
    """A triggered effect in a tree: its source code, its slot (index) on the side, the effect."""

    source: int
    slot: int
    effect: Triggered


class Due(NamedTuple):
    """A triggered effect that fired and waits to resolve.

    ``city`` is the settlement domain of the city just built or upgraded (``on_build_or_upgrade
    _city``, for ``gain_knowledge`` of domain ``city``), else -1.
    """

    source: int
    slot: int
    effect: Triggered
    city: int = -1


class Effects:
    """The effects acting in one tree (see the module docstring). Immutable once built."""

    __slots__ = ("bonuses", "costs", "exchange_rates", "hooks", "limit_bonus")

    def __init__(self) -> None:
        self.hooks: dict[str, tuple[Hook, ...]] = {}
        self.costs: dict[str, tuple[Modifier, ...]] = {}
        self.bonuses: tuple[int, int, int, int] = (0, 0, 0, 0)
        """Production bonuses: settlement +same, settlement +vestigium, city +same, city +V."""
        self.exchange_rates: tuple[tuple[int, int, int], ...] = ()
        """``(domain or -1 for any, pay, gain)``, the campfire's first."""
        self.limit_bonus: tuple[int, ...] = (0,) * 6

    def hooked(self, trigger: str) -> tuple[Hook, ...]:
        return self.hooks.get(trigger, ())


def card_source(catalog: Catalog, card_id: str, pos: tuple[int, int]) -> int:
    """The effect source code of a card lying in a tree."""
    if pos == ROOT:
        return catalog.source_code[card_id.upper()]
    level = catalog.level_code.get(card_id)
    if level is not None:
        return LEVEL_BASE + level
    return catalog.copy_skill[catalog.copy_code[card_id]]


def compile_effects(tree: Tree, catalog: Catalog) -> Effects:
    """The :class:`Effects` of a tree: every face-up side's effects, in tree order."""
    hooks: dict[str, list[Hook]] = {}
    costs: dict[str, list[Modifier]] = {}
    bonuses = [0, 0, 0, 0]
    rates: list[tuple[int, int, int]] = []
    limits = [0] * 6
    for pos, card in tree.cards.items():
        source = card_source(catalog, card.id, pos)
        for index, eff in enumerate(catalog.effects(source, card.advanced)):
            if isinstance(eff, Triggered):
                hooks.setdefault(eff.trigger, []).append(Hook(source, index, eff))
            elif isinstance(eff, Modifier):
                kind = eff.kind
                if kind == "cost_reduction":
                    costs.setdefault(eff.target, []).append(eff)
                elif kind == "production_bonus":
                    slot = (0 if eff.source == "settle" else 2) + eff.as_vestigium
                    bonuses[slot] += eff.amount
                elif kind == "exchange":
                    rates.append((eff.domain, eff.pay, eff.get))
                elif kind == "reserve_limit_raise":
                    for d in range(6) if eff.domain == ANY else (eff.domain,):
                        limits[d] += eff.amount
    fx = Effects()
    fx.hooks = {k: tuple(v) for k, v in hooks.items()}
    fx.costs = {k: tuple(v) for k, v in costs.items()}
    fx.bonuses = (bonuses[0], bonuses[1], bonuses[2], bonuses[3])
    fx.exchange_rates = tuple(rates)
    fx.limit_bonus = tuple(limits)
    return fx


# -- counting terms (data spec §2.4) ----------------------------------------------------------


class Holdings(NamedTuple):
    """What a count reads: the player, their tree and scores, and the board."""

    player: int
    tree: Tree
    knowledge: Sequence[int]
    influence: int
    board: Board


def count(per: Per, h: Holdings) -> int:
    """The value of a counting term, before the divisor.

    >>> from dominari.dominations.board import Board
    >>> h = Holdings(0, Tree(), [3, 0, 0, 0, 0, 2], 7, Board())
    >>> count(Per("know"), h), count(Per("know", domain=5), h), count(Per("influence"), h)
    (5, 2, 7)
    """
    kind = per.count
    if kind == "nodi":
        tree = h.tree
        if per.except_colour is not None:
            return tree.nodi_total() - tree.nodi(per.except_colour)
        return tree.nodi(per.colour)
    if kind == "colours":
        return h.tree.colours()
    if kind == "cards":
        advanced = None if per.side == "*" else per.side == "a"
        return h.tree.count_cards(values=per.values, advanced=advanced)
    if kind == "mcards":
        return h.tree.count_cards(level_cards=True)
    if kind == "know":
        return sum(h.knowledge) if per.domain == ANY else h.knowledge[per.domain]
    if kind == "influence":
        return h.influence
    board = h.board
    if kind == "cities" or kind == "bcities":
        mine = kind == "cities"
        dom = per.domain
        settlement = board.settlement
        return sum(1 for key, owner in board.city_owner.items()
                   if (not mine or owner == h.player) and (dom == ANY or settlement[key] == dom))
    if kind == "levels":
        return sum(board.city_level[key] for key, owner in board.city_owner.items()
                   if owner == h.player)
    if kind == "groups":
        return len(city_groups(board, h.player))
    raise ValueError(f"unknown count {kind!r}")


def amount(base: int, per: Per | None, h: Holdings) -> int:
    """``base`` or ``base × ⌊count ÷ divisor⌋`` (data spec §2.2)."""
    if per is None:
        return base
    return base * (count(per, h) // per.divisor)


def city_groups(board: Board, player: int) -> list[list[int]]:
    """The player's cities in maximal groups of side-adjacent cities (D-ADJ-1, D-ADJ-2),
    each group sorted, groups in order of their first cell."""
    mine = {key for key, owner in board.city_owner.items() if owner == player}
    groups: list[list[int]] = []
    seen: set[int] = set()
    for start in sorted(mine):
        if start in seen:
            continue
        group = [start]
        seen.add(start)
        i = 0
        while i < len(group):
            key = group[i]
            i += 1
            for side in range(3):
                nb = side_neighbour(key, side)
                if nb in mine and nb not in seen:
                    seen.add(nb)
                    group.append(nb)
        groups.append(sorted(group))
    return groups


def reduction(costs: Sequence[Modifier], h: Holdings) -> int:
    """The sum of cost reductions (counted now)."""
    return sum(amount(m.amount, m.per, h) for m in costs)


# -- resolution order (D-FLOW-5) ---------------------------------------------------------------

_KNOW = 1
_INFLUENCE = 2


@cache
def _reads_writes(effect: Triggered) -> tuple[int, int]:
    reads = writes = 0
    for act in effect.actions:
        if act.kind in (GAIN, FILL):
            writes |= _KNOW
        elif act.kind == INFLUENCE:
            writes |= _INFLUENCE
        if act.kind == FILL:
            reads |= _KNOW
        per = act.per
        if per is not None:
            if per.count == "know":
                reads |= _KNOW
            elif per.count == "influence":
                reads |= _INFLUENCE
    return reads, writes


def order_matters(dues: Sequence[Due]) -> bool:
    """Whether resolving these dues in different orders can give different results: some
    due reads (counts knowledge or influence, or fills up to the limit) what another
    writes. When it cannot, the engine resolves them in order without asking."""
    if len(dues) < 2:
        return False
    rw = [_reads_writes(d.effect) for d in dues]
    for i, (reads, _) in enumerate(rw):
        if not reads:
            continue
        for j, (_, writes) in enumerate(rw):
            if i != j and reads & writes:
                return True
    return False
