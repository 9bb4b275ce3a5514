"""A random Dominations player that is uniform over each *part* of a compound choice.

A uniform pick over all placements would favour cells with several links and hands
of many tiles; this bot picks a cell, then a tile, a rotation and a link, each
uniformly, without building the list of every placement. In the build phase it
builds or upgrades a city or contributes a monument
level (uniformly: first the kind, then the target, then where) four times out of
five, and in the develop phase it acquires or upgrades a mastery card (the skill
first, then the copy and position) as often; it builds only the chosen skill's
placements. Pending decisions (the order of
effects, gained vestigium, a monument payment, the drafts, the Governor's order)
are uniform; when returning tiles (keeping tiles between ages, a mulligan) it stops
half of the time and otherwise returns a tile chosen uniformly, so it keeps most
of its hand. The Inventor's reactivation and a placement are equally likely kinds,
and the Artisan's second tile is always placed. It never uses the campfire
exchange, so its games stay short and readable.

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=1))
>>> bot = DominationsRandomBot(seed=3)
>>> while s.phase_name != "build": s.apply(bot.act(s))
>>> s.turn_number
1
"""

from __future__ import annotations

import random

from dominari.bots.base import check_seed, misuse, raise_misuse
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
    DONE_ACTION,
    EXCHANGE,
    MONUMENT,
    PASS_ACTION,
    PLACE,
    Action,
)


class DominationsRandomBot:
    def __init__(self, seed: int | None = None, name: str = "random", build_rate: float = 0.8
                 ) -> None:
        self.name = name
        self.build_rate = build_rate
        self._rng = random.Random(None if seed is None else check_seed(seed))

    def __repr__(self) -> str:
        return f"DominationsRandomBot({self.name!r})"

    def reset(self, seed: int) -> None:
        self._rng.seed(check_seed(seed))

    def act(self, state: DominationsState) -> Action:
        """A random action (see the module's docstring); a finished game raises
        :class:`~dominari.core.errors.IllegalActionError`, a Dominion state
        :class:`~dominari.core.errors.ConfigError`."""
        if getattr(state, "game_name", None) != "dominations":  # asked first: a Dominion
            error = misuse(state, "dominations", self.name)  # state's phase may pass for
            if error is not None:  # one of its own, and an action come of it
                raise error
        try:
            rng = self._rng
            if state.stack:
                acts = state.legal_actions()
                if state.stack[-1][0] == F_TILES and rng.random() < 0.5:
                    return DONE_ACTION
                return rng.choice([a for a in acts if a.kind != EXCHANGE and a != DONE_ACTION]
                                  or acts)
            phase = state.phase
            if phase == GROWTH:
                again = state.reactivations() if state.may_reactivate() else []
                cells = list(state.board.frontier)
                hand = state.players[state.mover].hand
                if again and (not cells or not hand or rng.random() < 0.5):
                    key = rng.choice(sorted({a.a for a in again}))
                    return rng.choice([a for a in again if a.a == key])
                if cells and hand:
                    key = rng.choice(cells)
                    links = state.board.links(key, state.rules.all_sides)
                    return Action(PLACE, rng.choice(hand), key, rng.randrange(3), rng.choice(links))
            elif phase == ASSIGN:
                return Action(AS_DOMAIN, rng.randrange(6))
            elif phase == BUILD:
                if rng.random() >= self.build_rate:
                    return PASS_ACTION
                cities = state.builds()
                levels = state.monument_levels()
                kinds = sorted({a.kind for a in cities} | ({MONUMENT} if levels else set()))
                while kinds:
                    kind = rng.choice(kinds)
                    if kind != MONUMENT:
                        return self._staged([a for a in cities if a.kind == kind])
                    options = state.monument_options([rng.choice(levels)[0]])
                    if options:  # (a level 1 tile with nowhere to go: another kind)
                        return rng.choice(options)
                    kinds.remove(MONUMENT)
                return PASS_ACTION
            elif phase == DEVELOP:
                if rng.random() >= self.build_rate:
                    return PASS_ACTION
                advances = state.advances()
                skills = state.acquirable_skills()
                rng.shuffle(skills)
                kinds = ([ACQUIRE] if skills else []) + ([ADVANCE] if advances else [])
                while kinds:
                    kind = rng.choice(kinds)
                    if kind == ADVANCE:
                        return rng.choice(advances)
                    for skill in skills:  # a skill at random among those with a fitting copy
                        cards = state.acquisitions([skill])
                        if cards:
                            return self._staged(cards)
                    kinds.remove(ACQUIRE)
                return PASS_ACTION
            acts = state.legal_actions()
            return rng.choice([a for a in acts if a.kind != EXCHANGE] or acts)
        except Exception as exc:  # misuse is told apart only now: a decision pays nothing for it
            raise_misuse(exc, state, "dominations", self.name)

    def _staged(self, acts: list[Action]) -> Action:
        """Uniform over the kind, then over field ``a`` (what), then over the rest (where)."""
        rng = self._rng
        kind = rng.choice(sorted({a.kind for a in acts}))
        acts = [a for a in acts if a.kind == kind]
        what = rng.choice(sorted({a.a for a in acts}))
        return rng.choice([a for a in acts if a.a == what])
