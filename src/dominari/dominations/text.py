"""Words for the event log and the production breakdown (never used on the hot path).

>>> from dominari.dominations.engine import DominationsConfig, DominationsState
>>> s = DominationsState.new(DominationsConfig(players=2, seed=5, names=("Ann", "Bob")))
>>> s.apply(s.legal_actions()[0])
>>> for line in event_lines(s, s.events)[2:5]: print(line)
— Age 1, turn 1: Bob —
Bob places L80 on 0,1 r0 (via 0,0)
    Bob: +1 Science (resource of 0,1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dominari.dominations.data import DOMAIN_NAMES, VESTIGIUM
from dominari.dominations.engine import (
    EV_AGE_END,
    EV_ASSIGN,
    EV_CITY,
    EV_DRAW,
    EV_EXCHANGE,
    EV_GAME_END,
    EV_KNOWLEDGE,
    EV_NO_PLACEMENT,
    EV_PASS,
    EV_PLACE,
    EV_TURN,
    EV_YIELDS,
    DominationsState,
)
from dominari.dominations.grid import Cell, Vertex
from dominari.dominations.notation import (
    link_text,
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
            out.append(f"{names[ev[1]]} builds nothing")
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
    return out
