"""A random Dominations player that is uniform over each *part* of a compound choice.

A uniform pick over all placements would favour cells with several links and hands
of many tiles; this bot picks a tile, then a cell, then a rotation and link, each
uniformly. In the build phase it builds or upgrades (uniformly among what it can
afford) four times out of five; it never uses the campfire exchange, so its games
stay short and readable.

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
>>> bot = DominationsRandomBot(seed=3)
>>> s.apply(bot.act(s)); s.phase_name
'build'
"""

from __future__ import annotations

import random

from dominari.dominations.engine import ASSIGN, BUILD, GROWTH, DominationsState
from dominari.dominations.notation import CITY, PASS_ACTION, PLACE, UPGRADE, VESTIGIUM, Action


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
        if state.phase == GROWTH:
            places = [a for a in acts if a.kind == PLACE]
            if places:
                tile = rng.choice(sorted({a.a for a in places}))
                cell = rng.choice(sorted({a.b for a in places if a.a == tile}))
                return rng.choice([a for a in places if a.a == tile and a.b == cell])
        elif state.phase == ASSIGN:
            return rng.choice([a for a in acts if a.kind == VESTIGIUM])
        elif state.phase == BUILD:
            builds = [a for a in acts if a.kind in (CITY, UPGRADE)]
            if builds and rng.random() < self.build_rate:
                return rng.choice(builds)
            return PASS_ACTION
        return rng.choice(acts)
