"""Shared helpers for Dominations engine tests: scenarios set up directly on a state."""

from __future__ import annotations

import random
from typing import Any

from dominari.dominations.cards import Catalog
from dominari.dominations.effects import Effects, compile_effects
from dominari.dominations.engine import (
    AGE_START,
    ASSIGN,
    BUILD,
    DEVELOP,
    EV_INFLUENCE,
    SETUP,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.grid import Cell
from dominari.dominations.notation import DONE_ACTION, EXCHANGE, ORDER, Action, order_code
from dominari.dominations.rules import Rules
from dominari.dominations.tree import Pos

T, C, A, S, G, R = range(6)


def new(players: int = 2, seed: int = 5, monuments: tuple[str, ...] = (), setup: bool = True,
        **rules: str) -> DominationsState:
    """A new game; with ``setup`` its drafts and mulligans are answered with the first option
    and 'done' (:func:`skip_setup`)."""
    s = DominationsState.new(DominationsConfig(players=players, seed=seed, monuments=monuments,
                                               rules=Rules().with_options(rules)))
    if setup:
        skip_setup(s)
    return s


def skip_setup(s: DominationsState) -> None:
    """Keep the first objective and monument offered and take no mulligan."""
    while s.phase == SETUP:
        acts = s.legal_actions()
        s.apply(DONE_ACTION if DONE_ACTION in acts else acts[0])


def tile(s: DominationsState, tid: str) -> int:
    return [t.id for t in s.data.tiles].index(tid)


def give(s: DominationsState, *tids: str, player: int | None = None) -> None:
    """Put these tiles first in a hand (the mover's by default), taking them from wherever."""
    idx = [tile(s, t) for t in tids]
    for ps in s.players:
        ps.hand = [t for t in ps.hand if t not in idx]
    s.supply = [t for t in s.supply if t not in idx]
    s.players[s.mover if player is None else player].hand[:0] = idx


def do(s: DominationsState, *texts: str) -> None:
    for text in texts:
        s.apply(s.parse_action(text))


def finish_turn(s: DominationsState) -> None:
    """Pass the rest of the current turn (build and develop phases)."""
    assert s.phase in (BUILD, DEVELOP) and not s.stack
    if s.phase == BUILD:
        do(s, "pass")
    do(s, "pass")


def assign_all(s: DominationsState, domain: str = "T") -> None:
    """Answer every pending vestigium question with ``domain``."""
    while s.phase == ASSIGN or (s.stack and s.phase_name == "vestigium"):
        do(s, f"vestigium {domain}")


def other_turn(s: DominationsState, avoid: tuple[str, ...] = ()) -> None:
    """Play a whole turn: a placement away from the ``avoid`` cells, vestigium to Trade, pass."""
    keys = {Cell.parse(c).key for c in avoid}
    s.apply(next(a for a in s.placements() if a.b not in keys))
    assign_all(s)
    if s.second:  # the Artisan's second tile is declined
        do(s, "pass")
    finish_turn(s)


def finish_age_start(s: DominationsState) -> None:
    """Answer the questions between ages: the Governor keeps the order, everyone keeps their
    tiles and takes no mulligan; start-of-age effects in the order offered."""
    while s.phase == AGE_START:
        acts = s.legal_actions()
        if DONE_ACTION in acts:
            s.apply(DONE_ACTION)
        elif acts[0].kind == ORDER:
            s.apply(Action(ORDER, order_code(s.order)))
        else:
            s.apply(next(a for a in acts if a.kind != EXCHANGE))


def role_influence(s: DominationsState, p: int) -> int:
    """Influence ``p`` gained from domination cards so far (the Diplomat's +2)."""
    return sum(e[2] for e in s.events if e[0] == EV_INFLUENCE and e[1] == p and e[3] == -1)


def random_game(seed: int, players: int = 2, stop: int | None = None, **rules: str
                ) -> DominationsState:
    s = new(players, seed, **rules)
    rng = random.Random(seed)
    steps = 0
    while not s.is_terminal() and (stop is None or steps < stop):
        acts = s.legal_actions()
        non_exchange = [a for a in acts if a.kind != EXCHANGE]
        s.apply(rng.choice(non_exchange if rng.random() < 0.9 else acts))
        steps += 1
    return s


def grant(s: DominationsState, player: int, card_id: str, pos: Pos | None = None,
          advanced: bool = False) -> Pos:
    """Put a mastery copy (``T3a-1``) or a level card (``M01-L1``) into a tree as a scenario
    set-up: no cost, no VP, no effect fires; the tree's effects are rebuilt. Returns where."""
    cat = s.catalog
    ps = s.players[player]
    level = cat.level_code.get(card_id)
    if level is not None:
        sides = cat.level_sides[level]
        kw: dict[str, Any] = {"level_card": True,
                              "domain": s.data.monuments[cat.level_monument[level]].domain}
    else:
        code = cat.copy_code[card_id]
        skill = cat.skills[cat.copy_skill[code]]
        sides = cat.copy_sides[code]
        kw = {"domain": skill.domain, "value": skill.cost}
        s.taken[code] = player
    if pos is None:
        pos = ps.tree.legal_positions(sides)[0]
    ps.tree.place(pos, card_id, sides, **kw)
    if advanced:
        ps.tree.upgrade(pos)
    ps.fx = compile_effects(ps.tree, cat)
    return pos


def copy_of(s: DominationsState, skill_id: str, player: int | None = None) -> str:
    """A copy of the skill still in the supply that has a legal place in the player's tree."""
    cat = s.catalog
    p = s.mover if player is None else player
    tree = s.players[p].tree
    for code in cat.skill_copies[cat.skill_index[skill_id.upper()]]:
        if s.taken[code] < 0 and tree.can_place(cat.copy_sides[code]):
            return cat.copy_ids[code]
    raise AssertionError(f"no copy of {skill_id} fits")


def patch_fx(s: DominationsState, player: int, **fields: Any) -> None:
    """Replace parts of a player's compiled effects (for modifiers no card in the data has)."""
    ps = s.players[player]
    fx = Effects()
    for name in Effects.__slots__:
        setattr(fx, name, fields.get(name, getattr(ps.fx, name)))
    ps.fx = fx


def recompile(s: DominationsState, player: int) -> None:
    ps = s.players[player]
    ps.fx = compile_effects(ps.tree, Catalog.of(s.data))


def to_develop(s: DominationsState) -> None:
    """From the growth phase: place the first legal tile, Trade for any vestigium, pass the
    build phase; the mover is then in the develop phase."""
    while s.stack:  # start-of-turn questions first
        s.apply(next(a for a in s.legal_actions() if a.kind != EXCHANGE))
    s.apply(s.placements()[0])
    assign_all(s)
    while s.stack:  # effects of the placement
        s.apply(next(a for a in s.legal_actions() if a.kind != EXCHANGE))
    if s.second:  # the Artisan's second tile is declined
        do(s, "pass")
    do(s, "pass")
    assert s.phase == DEVELOP


def pass_turns(s: DominationsState, n: int = 1) -> None:
    """Play ``n`` whole turns with the first legal placement and passes; pending questions are
    answered with the first legal answer (vestigium to Trade)."""
    for _ in range(n):
        start = s.turn_number
        while s.turn_number == start and not s.is_terminal():
            acts = [a for a in s.legal_actions() if a.kind != EXCHANGE]
            if s.phase in (BUILD, DEVELOP) and not s.stack:
                do(s, "pass")
            else:
                s.apply(acts[0])


def to_age_end(s: DominationsState) -> None:
    """Play on (as :func:`pass_turns`) until the next age's first turn (after its refills,
    mulligans and start-of-age effects) or the end of the game."""
    age = s.age
    while (s.age == age or s.phase == AGE_START) and not s.is_terminal():
        if s.phase == AGE_START:
            finish_age_start(s)
            continue
        acts = [a for a in s.legal_actions() if a.kind != EXCHANGE]
        if s.phase in (BUILD, DEVELOP) and not s.stack:
            do(s, "pass")
        else:
            s.apply(acts[0])
