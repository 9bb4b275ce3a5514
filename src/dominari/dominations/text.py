"""Words for the event log and the production breakdown (never used on the hot path).

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=5, names=("Ann", "Bob")))
>>> while s.phase_name != "growth":
...     s.apply(s.parse_action("done") if s.phase_name == "tiles" else s.legal_actions()[0])
>>> for line in event_lines(s, s.events)[2:4]: print(line)
Bob keeps the objective Egypt
Ann keeps the objective Celts
>>> mark = len(s.events)
>>> s.apply(s.legal_actions()[0])
>>> for line in event_lines(s, s.events[mark - 1:])[:3]: print(line)
— Age 1, turn 1: Bob —
Bob places L80 on 0,1 r0 (via 0,0)
    Bob: +1 Science (resource of 0,1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dominari.dominations.data import DOMAIN_NAMES, VESTIGIUM
from dominari.dominations.engine import (
    BUILD,
    EV_ACQUIRE,
    EV_ADVANCE,
    EV_AGE_END,
    EV_ASSIGN,
    EV_CHOOSE,
    EV_CITY,
    EV_COPY,
    EV_DRAW,
    EV_EFFECT,
    EV_EXCHANGE,
    EV_GAME_END,
    EV_INFLUENCE,
    EV_INFLUENCE_VP,
    EV_KNOWLEDGE,
    EV_LEVEL,
    EV_MONUMENT_TILE,
    EV_MULLIGAN,
    EV_NO_PLACEMENT,
    EV_OBJECTIVE,
    EV_ORDER,
    EV_PASS,
    EV_PAY,
    EV_PLACE,
    EV_REACTIVATE,
    EV_RETURN,
    EV_REWARD,
    EV_ROLE,
    EV_ROLE_BACK,
    EV_TREE_VP,
    EV_TURN,
    EV_VP,
    EV_YIELDS,
    GROWTH,
    OBJECTIVE,
    DominationsState,
)
from dominari.dominations.grid import Cell, Vertex, side_neighbour
from dominari.dominations.notation import (
    link_text,
    tile_where,
)
from dominari.dominations.production import (
    CITY,
    CITY_BONUS,
    CONCENTRATION,
    LOCUS_RESOURCE,
    RESOURCE,
    SETTLEMENT,
    SETTLEMENT_BONUS,
    Yield,
)
from dominari.dominations.tree import format_position

LEVEL_WORDS = ("", "builds a city", "upgrades a city to level 2", "upgrades a city to level 3")


def domain_word(code: int) -> str:
    return "vestigium" if code == VESTIGIUM else DOMAIN_NAMES[code]


def yield_line(y: Yield, names: Sequence[str]) -> str:
    """One production item in words.

    >>> yield_line(Yield(0, 0, 1, CONCENTRATION, Cell(2, 0).key, Vertex(2, 0).key), ["Ann"])
    'Ann: +1 Trade (concentration at @2,0)'
    """
    where = Cell.from_key(y.cell)
    what = {
        RESOURCE: f"resource of {where}",
        CONCENTRATION: f"concentration at {Vertex.from_key(y.where)}",
        SETTLEMENT: f"settlement of {where}",
        CITY: f"level-{y.where} city on {where}",
        SETTLEMENT_BONUS: f"settlement bonus on {where}",
        CITY_BONUS: f"city bonus on {where}",
        LOCUS_RESOURCE: f"locus {Vertex.from_key(y.where)}, corner of {where}",
    }[y.source]
    return f"{names[y.player]}: +{y.amount} {domain_word(y.domain)} ({what})"


def event_lines(state: DominationsState, events: Sequence[tuple[Any, ...]]) -> list[str]:
    """The events in words, one line each (production items indented)."""
    names = state.config.player_names()
    tiles = state.data.tiles
    out: list[str] = []
    for ev in events:
        kind = ev[0]
        if kind == EV_TURN:
            out.append(f"— Age {ev[2]}, turn {ev[3]}: {names[ev[1]]} —")
        elif kind == EV_PLACE:
            _, p, t, key, rot, link = ev
            how = link_text(key, link)
            out.append(f"{names[p]} places {tiles[t].id} on {Cell.from_key(key)} r{rot}"
                       + (f" ({how})" if how else " (all touching sides)"))
        elif kind == EV_YIELDS:
            out.extend("    " + yield_line(y, names) for y in ev[1])
        elif kind == EV_KNOWLEDGE:
            _, p, d, amount, kept, vp = ev
            lost = amount - kept
            line = f"  {names[p]} {DOMAIN_NAMES[d]} +{kept}"
            if lost:
                line += f" ({lost} over the limit lost"
                line += ", +1 VP)" if vp else ")"
            out.append(line)
        elif kind == EV_CITY:
            _, p, key, level, cost, infl = ev
            domain = DOMAIN_NAMES[state.board.settlement[key]]
            out.append(f"{names[p]} {LEVEL_WORDS[level]} on {Cell.from_key(key)} "
                       f"for {cost} {domain} (+{infl} influence)")
        elif kind == EV_EXCHANGE:
            _, p, a, pay, b, kept, vp = ev
            out.append(f"{names[p]} exchanges {pay} {DOMAIN_NAMES[a]} for {kept} {DOMAIN_NAMES[b]}"
                       + (" (+1 VP overflow)" if vp else ""))
        elif kind == EV_PASS:
            out.append(f"{names[ev[1]]} " + (
                "builds nothing" if ev[2] == BUILD else
                "places no second tile" if ev[2] == GROWTH else "develops nothing"))
        elif kind == EV_ASSIGN:
            out.append(f"  {names[ev[1]]} counts 1 vestigium as {DOMAIN_NAMES[ev[2]]}")
        elif kind == EV_NO_PLACEMENT:
            out.append(f"{names[ev[1]]} cannot place a tile: growth phase skipped")
        elif kind == EV_AGE_END:
            out.append(f"=== End of age {ev[1]} ===")
        elif kind == EV_DRAW:
            out.append(f"{names[ev[1]]} draws {ev[2]} tile{'s' if ev[2] != 1 else ''}")
        elif kind == EV_GAME_END:
            out.append("=== Game over ===")
        elif kind == EV_RETURN:
            out.append(f"{names[ev[1]]} puts {tiles[ev[2]].id} back under the supply")
        elif kind == EV_MULLIGAN:
            out.append(f"{names[ev[1]]} takes a mulligan ({ev[2]} tile"
                       f"{'s' if ev[2] != 1 else ''} back)")
        elif kind == EV_REACTIVATE:
            _, p, key, link = ev
            out.append(f"{names[p]} reactivates {tiles[state.board.tile[key]].id} on "
                       f"{Cell.from_key(key)} ({link_text(key, link)}) as the Inventor")
        else:
            line = _card_line(state, ev, names)
            if line:
                out.append(line)
    return out


def _card_line(state: DominationsState, ev: tuple[Any, ...], names: Sequence[str]) -> str:
    """Words for the tree, monument and effect events."""
    cat = state.catalog
    kind = ev[0]
    who = names[ev[1]]
    if kind == EV_ACQUIRE:
        _, _, code, pos, cost, vp = ev
        skill = cat.skills[cat.copy_skill[code]]
        return (f"{who} acquires {skill.name} ({cat.copy_ids[code]}) at {format_position(pos)} "
                f"for {cost} {DOMAIN_NAMES[skill.domain]}" + (f", +{vp} VP" if vp else ""))
    if kind == EV_ADVANCE:
        _, _, s, cost, vp = ev
        skill = cat.skills[s]
        return (f"{who} upgrades {skill.name} for {cost} {DOMAIN_NAMES[skill.upgrade_domain]}"
                + (f", +{vp} VP" if vp else ""))
    if kind == EV_LEVEL:
        _, _, level, pos, vp = ev
        lv = cat.levels[level]
        return (f"{who} builds {cat.monument_of(level).name} level {lv.level} ({lv.id}) into "
                f"their tree at {format_position(pos)}" + (f", +{vp} VP" if vp else ""))
    if kind == EV_MONUMENT_TILE:
        _, _, m, code = ev
        key, side = tile_where(code)
        where = (str(Vertex.from_key(key)) if side < 0 else
                 f"{Cell.from_key(key)} and {Cell.from_key(side_neighbour(key, side))}")
        return f"{who} places the tile of {state.data.monuments[m].name} on {where}"
    if kind == EV_PAY:
        return f"  {who} pays {ev[3]} {DOMAIN_NAMES[ev[2]]}"
    if kind == EV_EFFECT:
        return f"  {who}: effect of {cat.source_name(ev[2])}"
    if kind == EV_VP:
        return f"  {who} +{ev[2]} VP"
    if kind == EV_INFLUENCE:
        return f"  {who} +{ev[2]} influence"
    if kind == EV_REWARD:
        _, _, vp, m, key = ev
        return (f"  {who} +{vp} VP: reward of {state.data.monuments[m].name} for the city on "
                f"{Cell.from_key(key)}")
    if kind == EV_COPY:
        _, _, code, s, pos, vp = ev
        if s < 0:
            return f"{who} leads in influence and copies nothing"
        skill = cat.skills[s]
        what = (f"copies {skill.name} ({cat.copy_ids[code]}) to {format_position(pos)}"
                if code >= 0 else f"turns their {skill.name} advanced, as another's is")
        return f"{who} leads in influence and {what}" + (f", +{vp} VP" if vp else "")
    if kind == EV_INFLUENCE_VP:
        return f"{who} +{ev[2]} VP for their influence"
    if kind == EV_ROLE:
        _, _, d, vp = ev
        return f"{who} takes the {state.data.roles[d].name} ({DOMAIN_NAMES[d]})" + (
            f", +{vp} VP" if vp else "")
    if kind == EV_ROLE_BACK:
        return f"  {who}'s {state.data.roles[ev[2]].name} is used and goes back"
    if kind == EV_CHOOSE:
        _, _, what, index = ev
        card = (state.data.objectives[index] if what == OBJECTIVE
                else state.data.monuments[index])
        return f"{who} keeps the {'objective' if what == OBJECTIVE else 'monument'} {card.name}"
    if kind == EV_ORDER:
        return f"{who} (Governor) sets the order: " + ", ".join(names[q] for q in ev[2])
    if kind == EV_OBJECTIVE:
        _, _, index, met, vp = ev
        return (f"{who}'s objective {state.data.objectives[index].name}: {sum(met)} of "
                f"{len(met)} goals met, +{vp} VP")
    if kind == EV_TREE_VP:
        return f"{who} +{ev[2]} VP for their tree (cards × nodi per domain)"
    return ""
