"""A random Dominations player that is uniform over each *part* of a compound choice.

A uniform pick over all placements would favour cells with several links and hands
of many tiles; this bot picks a tile, then a cell, then a rotation and link, each
uniformly. In the build phase it builds or upgrades a city or contributes a monument
level (uniformly: first the kind, then the target, then where) four times out of
five, and in the develop phase it acquires or upgrades a mastery card (the skill
first, then the copy and position) as often. Pending decisions (the order of
effects, gained vestigium, a monument payment, the drafts, the Governor's order)
are uniform; when returning tiles (keeping tiles between ages, a mulligan) it stops
half of the time and otherwise returns a tile chosen uniformly, so it keeps most
of its hand. The Inventor's reactivation and a placement are equally likely kinds,
and the Artisan's second tile is always placed. It never uses the campfire
exchange, so its games stay short and readable.

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
>>> bot = DominationsRandomBot(seed=3)
>>> s.apply(bot.act(s)); s.phase_name
'build'
"""

from __future__ import annotations

import random

from dominari.dominations.engine import (
    ASSIGN,
    BUILD,
    DEVELOP,
    F_TILES,
    GROWTH,
    DominationsState,
)
from dominari.dominations.notation import (
    ACQUIRE,
    ADVANCE,
    AS_DOMAIN,
    CITY,
    DONE_ACTION,
    EXCHANGE,
    MONUMENT,
    PASS_ACTION,
    PLACE,
    REACTIVATE,
    UPGRADE,
    Action,
)


class DominationsRandomBot:
    def __init__(self, seed: int | None = None, name: str = "random", build_rate: float = 0.8
                 ) -> None:
        self.name = name
        self.build_rate = build_rate
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"DominationsRandomBot({self.name!r})"

    def reset(self, seed: int) -> None:
        self._rng.seed(seed)

    def act(self, state: DominationsState) -> Action:
        rng = self._rng
        acts = state.legal_actions()
        if state.stack:
            if state.stack[-1][0] == F_TILES and rng.random() < 0.5:
                return DONE_ACTION
            return rng.choice([a for a in acts if a.kind != EXCHANGE and a != DONE_ACTION]
                              or acts)
        if state.phase == GROWTH:
            places = [a for a in acts if a.kind == PLACE]
            again = [a for a in acts if a.kind == REACTIVATE]
            if again and (not places or rng.random() < 0.5):
                key = rng.choice(sorted({a.a for a in again}))
                return rng.choice([a for a in again if a.a == key])
            if places:
                tile = rng.choice(sorted({a.a for a in places}))
                cell = rng.choice(sorted({a.b for a in places if a.a == tile}))
                return rng.choice([a for a in places if a.a == tile and a.b == cell])
        elif state.phase == ASSIGN:
            return rng.choice([a for a in acts if a.kind == AS_DOMAIN])
        elif state.phase == BUILD:
            builds = [a for a in acts if a.kind in (CITY, UPGRADE, MONUMENT)]
            if builds and rng.random() < self.build_rate:
                return self._staged(builds)
            return PASS_ACTION
        elif state.phase == DEVELOP:
            cards = [a for a in acts if a.kind in (ACQUIRE, ADVANCE)]
            if cards and rng.random() < self.build_rate:
                if all(a.kind == ACQUIRE for a in cards):
                    skill = state.catalog.copy_skill
                    pick = rng.choice(sorted({skill[a.a] for a in cards}))
                    cards = [a for a in cards if skill[a.a] == pick]
                return self._staged(cards)
            return PASS_ACTION
        return rng.choice([a for a in acts if a.kind != EXCHANGE] or acts)

    def _staged(self, acts: list[Action]) -> Action:
        """Uniform over the kind, then over field ``a`` (what), then over the rest (where)."""
        rng = self._rng
        kind = rng.choice(sorted({a.kind for a in acts}))
        acts = [a for a in acts if a.kind == kind]
        what = rng.choice(sorted({a.a for a in acts}))
        return rng.choice([a for a in acts if a.a == what])
