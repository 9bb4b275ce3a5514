"""Objective cards at game end: which goals a player has met, and what they are worth.

Pure functions over a player's board position, tree and scores (rules §10, D-END-2 and
D-END-3; data spec §7). The engine passes the player's ``influence`` and ``controlled``, the
number of different monuments in play that the player controls (D-BUILD-10).

Goal kinds (:class:`~dominari.dominations.data.Goal`):

* ``cities_of_levels`` — for each ``(level, count)`` of ``goal.levels``, ``count`` cities of
  at least that level; a higher city counts for a lower requirement, but each city fills only
  one requirement (the cities are assigned to the requirements in the best way);
* ``adjacent_cities`` — one group of at least ``goal.count`` side-adjacent cities (two groups
  of 8 and 3 are not 11);
* ``city_groups`` — at least ``goal.count`` maximal groups of the player's cities;
* ``monuments`` — ``controlled`` ≥ ``goal.count``;
* ``nodi`` — for each ``(colour, count)`` of ``goal.nodi``, at least ``count`` complete nodi of
  that colour;
* ``influence`` — ``influence`` ≥ ``goal.count``;
* ``mastery_cards`` — for each :class:`~dominari.dominations.data.CardRequirement`, ``count``
  mastery cards (not level cards, not the campfire) of exactly that value whose domain is
  listed; different requirements take different cards (assigned in the best way).

>>> from dominari.dominations.board import Board
>>> from dominari.dominations.data import Goal
>>> from dominari.dominations.tree import Tree
>>> board, tree = Board(), Tree()
>>> goal = Goal("influence", count=30)
>>> goal_met(goal, 0, board, tree, influence=31, controlled=0), describe_goal(goal)
(True, 'influence 30')
>>> goal_progress(Goal("monuments", count=2), 0, board, tree, influence=0, controlled=1)
(1, 2)
>>> objective_vp([True, False, True, True, False], "progressive")
40
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from dominari.dominations.board import Board
from dominari.dominations.data import ANY, DOMAIN_NAMES, CardRequirement, Goal, ObjectiveDef
from dominari.dominations.effects import city_groups
from dominari.dominations.tree import Tree

__all__ = [
    "GOAL_KINDS", "PER_GOAL_VP", "PROGRESSIVE_VP", "SCORINGS", "describe_goal", "goal_gains",
    "goal_met", "goal_progress", "goals_met", "goals_progress", "objective_vp",
]  # fmt: skip

GOAL_KINDS: Final = ("cities_of_levels", "adjacent_cities", "city_groups", "monuments", "nodi",
                     "influence", "mastery_cards")  # fmt: skip
"""The goal kinds of D-END-3, as the data names them."""
PROGRESSIVE_VP: Final = (0, 10, 20, 40, 70, 100)
"""VP by the number of goals met (D-END-2, rule option ``objective_scoring="progressive"``)."""
PER_GOAL_VP: Final = (15, 15, 20, 15, 15)
"""VP of each goal when met (``objective_scoring="per_goal"``, data spec §7)."""
TEN_EACH_VP: Final = 10
"""VP per goal met in the prototype rules (``"ten_each"``, rules §14)."""
SCORINGS: Final = ("progressive", "per_goal", "ten_each")

_Item = TypeVar("_Item")
_Slot = TypeVar("_Slot")


def _matched(items: Sequence[_Item], slots: Sequence[_Slot],
             fits: Callable[[_Item, _Slot], bool]) -> int:  # fmt: skip
    """The largest number of slots that can be filled, each by a different item that fits it
    (a maximum bipartite matching, by augmenting paths; the inputs are a few dozen at most)."""
    owner: list[int] = [-1] * len(slots)  # slot -> item index
    edges = [[j for j, slot in enumerate(slots) if fits(item, slot)] for item in items]

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if owner[j] < 0 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    matched = 0
    for i in range(len(items)):
        if matched == len(slots):
            break
        if augment(i, set()):
            matched += 1
    return matched


def _cities(board: Board, player: int) -> list[int]:
    """The levels of the player's cities."""
    level = board.city_level
    return [level[key] for key, owner in board.city_owner.items() if owner == player]


@functools.lru_cache(maxsize=4096)
def _levels_filled(cities: tuple[int, ...], levels: tuple[tuple[int, int], ...]) -> int:
    """How many of the cities ``levels`` requires (``(level, count)`` pairs) the cities of
    these levels fill at once (a higher city counts for a lower requirement)."""
    slots = [lv for lv, n in levels for _ in range(n)]
    return _matched(cities, slots, lambda city, lv: city >= lv)


@functools.lru_cache(maxsize=4096)
def _cards_filled(cards: tuple[tuple[int, int | None], ...],
                  requirements: tuple[CardRequirement, ...]) -> int:  # fmt: skip
    """How many of the mastery cards ``requirements`` asks for the ``cards`` (value, domain)
    fill at once, different requirements taking different cards."""
    reqs = [(q.value, q.domains) for q in requirements for _ in range(q.count)]
    return _matched(cards, reqs, lambda card, req: card[0] == req[0]
                    and (card[1] in req[1] or ANY in req[1]))  # fmt: skip


def goal_progress(goal: Goal, player: int, board: Board, tree: Tree, influence: int,
                  controlled: int) -> tuple[int, int]:  # fmt: skip
    """``(have, need)`` for one goal (D-END-3); ``have >= need`` exactly when it is met.

    ``adjacent_cities``: the largest group; ``city_groups``: the number of groups;
    ``monuments``/``influence``: ``controlled``/``influence``; ``cities_of_levels`` and
    ``mastery_cards``: how many of the cities/cards required can be filled at once, out of
    all required; ``nodi``: the sum over the listed colours of ``min(have, need)``, out of
    the sum of needs.

    >>> from dominari.dominations.board import Board
    >>> from dominari.dominations.tree import Tree
    >>> goal = Goal("nodi", nodi=((5, 4),))               # 4 Religion nodi
    >>> goal_progress(goal, 0, Board(), Tree(), 0, 0)
    (0, 4)
    """
    return goals_progress((goal,), player, board, tree, influence, controlled)[0]


def goals_progress(goals: Sequence[Goal], player: int, board: Board, tree: Tree,
                   influence: int, controlled: int) -> list[tuple[int, int]]:  # fmt: skip
    """:func:`goal_progress` of each of ``goals``, in order, reading the player's cities,
    city groups and mastery cards once for them all.

    >>> from dominari.dominations.board import Board
    >>> from dominari.dominations.tree import Tree
    >>> goals_progress([Goal("influence", count=30), Goal("monuments", count=2)], 0,
    ...                Board(), Tree(), influence=31, controlled=1)
    [(31, 30), (1, 2)]
    """
    cities: tuple[int, ...] | None = None
    groups: list[list[int]] | None = None
    cards: tuple[tuple[int, int | None], ...] | None = None
    out = []
    for goal in goals:
        kind = goal.kind
        if kind == "cities_of_levels":
            if cities is None:
                cities = tuple(sorted(_cities(board, player)))
            out.append((_levels_filled(cities, goal.levels), sum(n for _, n in goal.levels)))
        elif kind == "adjacent_cities" or kind == "city_groups":
            if groups is None:
                groups = city_groups(board, player)
            have = (max((len(g) for g in groups), default=0) if kind == "adjacent_cities"
                    else len(groups))  # fmt: skip
            out.append((have, goal.count))
        elif kind == "monuments":
            out.append((controlled, goal.count))
        elif kind == "influence":
            out.append((influence, goal.count))
        elif kind == "nodi":
            out.append((sum(min(tree.nodi(c), n) for c, n in goal.nodi),
                        sum(n for _, n in goal.nodi)))  # fmt: skip
        elif kind == "mastery_cards":
            if cards is None:  # sorted: the number filled does not depend on the order
                cards = tuple(sorted(((c.value, c.domain) for _, c in tree.mastery_cards()),
                                     key=_card_order))  # fmt: skip
            out.append((_cards_filled(cards, goal.cards), sum(q.count for q in goal.cards)))
        else:
            raise ValueError(f"unknown goal kind {kind!r} (expected one of "
                             f"{', '.join(GOAL_KINDS)})")  # fmt: skip
    return out


def _card_order(card: tuple[int, int | None]) -> tuple[int, int]:
    return card[0], -2 if card[1] is None else card[1]


def goal_met(goal: Goal, player: int, board: Board, tree: Tree, influence: int,
             controlled: int) -> bool:  # fmt: skip
    """Whether ``player`` meets ``goal`` (D-END-3).

    >>> from dominari.dominations.board import Board
    >>> from dominari.dominations.tree import Tree
    >>> goal_met(Goal("monuments", count=1), 0, Board(), Tree(), influence=0, controlled=1)
    True
    """
    have, need = goal_progress(goal, player, board, tree, influence, controlled)
    return have >= need


def goals_met(objective: ObjectiveDef, player: int, board: Board, tree: Tree, influence: int,
              controlled: int) -> tuple[bool, ...]:  # fmt: skip
    """For each goal of the card, in order, whether ``player`` meets it (D-END-3)."""
    return tuple(have >= need for have, need in goals_progress(
        objective.goals, player, board, tree, influence, controlled))


def objective_vp(met: Sequence[bool], scoring: str = "progressive") -> int:
    """The VP of an objective card whose goals are ``met`` (D-END-2).

    ``progressive`` (the default): 0/10/20/40/70/100 for 0–5 goals met; ``per_goal``: goal
    ``i`` is worth ``(15, 15, 20, 15, 15)[i]`` when met; ``ten_each``: 10 per goal met (the
    prototype rules, §14).

    >>> met = (True, True, False, False, True)
    >>> objective_vp(met), objective_vp(met, "per_goal"), objective_vp(met, "ten_each")
    (40, 45, 30)
    """
    if len(met) > len(PER_GOAL_VP):
        raise ValueError(f"an objective has at most {len(PER_GOAL_VP)} goals, not {len(met)}")
    if scoring == "progressive":
        return PROGRESSIVE_VP[sum(1 for m in met if m)]
    if scoring == "per_goal":
        return sum(vp for vp, m in zip(PER_GOAL_VP, met, strict=False) if m)
    if scoring == "ten_each":
        return TEN_EACH_VP * sum(1 for m in met if m)
    raise ValueError(f"unknown objective scoring {scoring!r} (expected one of "
                     f"{', '.join(SCORINGS)})")  # fmt: skip


def goal_gains(met: Sequence[bool], scoring: str = "progressive") -> tuple[int, ...]:
    """What meeting each goal next would add to the objective's VP (D-END-2): 0 for a goal
    already met. With ``progressive`` it is the next step of the table for every open goal,
    with ``per_goal`` the goal's own VP, with ``ten_each`` 10.

    >>> met = (True, False, False, False, False)
    >>> goal_gains(met), goal_gains(met, "per_goal"), goal_gains(met, "ten_each")
    ((0, 10, 10, 10, 10), (0, 15, 20, 15, 15), (0, 10, 10, 10, 10))
    """
    return _goal_gains(tuple(bool(m) for m in met), scoring)


@functools.cache
def _goal_gains(met: tuple[bool, ...], scoring: str) -> tuple[int, ...]:
    now = objective_vp(met, scoring)
    return tuple(0 if m else objective_vp((*met[:i], True, *met[i + 1:]), scoring) - now
                 for i, m in enumerate(met))


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _join(parts: Sequence[str], word: str = "and") -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def _domain(code: int) -> str:
    return "any domain" if code == ANY else DOMAIN_NAMES[code]


@functools.lru_cache(maxsize=1024)
def describe_goal(goal: Goal) -> str:
    """A short English text of a goal.

    >>> from dominari.dominations.data import CardRequirement
    >>> describe_goal(Goal("cities_of_levels", levels=((1, 5), (2, 1))))
    '5 cities of level 1+ and 1 of level 2+'
    >>> describe_goal(Goal("nodi", nodi=((0, 8), (4, 5), (3, 3))))
    '8 Trade, 5 Government and 3 Science nodi'
    >>> describe_goal(Goal("mastery_cards", cards=(CardRequirement(2, 9, (1, 5)),)))
    '2 mastery cards of value 9 in Craft or Religion'
    """
    kind, n = goal.kind, goal.count
    if kind == "cities_of_levels":
        parts = [f"{_plural(k, 'city', 'cities') if i == 0 else k} of level {lv}+"
                 for i, (lv, k) in enumerate(goal.levels)]  # fmt: skip
        return _join(parts)
    if kind == "adjacent_cities":
        return f"a group of {_plural(n, 'city', 'adjacent cities')}"
    if kind == "city_groups":
        return _plural(n, "group of cities", "separate groups of cities")
    if kind == "monuments":
        return f"control {_plural(n, 'monument', 'monuments')}"
    if kind == "influence":
        return f"influence {n}"
    if kind == "nodi":
        parts = [f"{c} {_domain(col)}" for col, c in goal.nodi]
        total_one = len(goal.nodi) == 1 and goal.nodi[0][1] == 1
        return f"{_join(parts)} {'nodus' if total_one else 'nodi'}"
    if kind == "mastery_cards":
        parts = [f"{_plural(q.count, 'mastery card', 'mastery cards') if i == 0 else q.count} "
                 f"of value {q.value} in {_join([_domain(d) for d in q.domains], 'or')}"
                 for i, q in enumerate(goal.cards)]  # fmt: skip
        return _join(parts)
    raise ValueError(f"unknown goal kind {kind!r} (expected one of {', '.join(GOAL_KINDS)})")
