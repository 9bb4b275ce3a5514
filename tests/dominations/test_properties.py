"""Properties over random games: limits, legal placements, production, notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.dominations.board import LINK_ALL_SIDES, LINK_LOCUS, Board
from dominari.dominations.engine import (
    ASSIGN,
    EV_EFFECT,
    EV_KNOWLEDGE,
    GROWTH,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.grid import Cell
from dominari.dominations.notation import EXCHANGE, PLACE, Action
from dominari.dominations.rules import Rules


def reference_placements(s: DominationsState) -> set[Action]:
    """Legal placements by a slow scan of the whole board, straight from D-GROW-1/2/7."""
    board: Board = s.board
    out: set[Action] = set()
    for key in board.slow_open_cells():
        cell = Cell.from_key(key)
        loci = [c for c, v in enumerate(cell.corners())
                if sum(board.is_filled(x.key) for x in v.cells()) == 5]
        touching = [side for side, n in enumerate(cell.neighbours()) if board.is_filled(n.key)]
        if loci:
            links = [LINK_LOCUS + c for c in loci]
        elif s.rules.all_sides:
            links = [LINK_ALL_SIDES]
        else:
            links = touching
        for t in s.players[s.mover].hand:
            for r in range(3):
                for link in links:
                    out.add(Action(PLACE, t, key, r, link))
    return out


def step(s: DominationsState, rng: random.Random) -> Action:
    acts = s.legal_actions()
    plain = [a for a in acts if a.kind != EXCHANGE]
    return rng.choice(plain if rng.random() < 0.85 else acts)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.booleans())
@pytest.mark.rule("D-GROW-1", "D-GROW-2", "D-GROW-9")
def test_random_games_keep_the_invariants(seed: int, players: int, all_sides: bool) -> None:
    rules = Rules(connection="all-sides" if all_sides else "choose-one")
    s = DominationsState.new(DominationsConfig(players=players, seed=seed, rules=rules))
    rng = random.Random(seed)
    checked = 0
    while not s.is_terminal():
        if s.phase == GROWTH and checked < 6 and rng.random() < 0.3:
            assert set(s.placements()) == reference_placements(s)
            checked += 1
        action = step(s, rng)
        text = s.format_action(action)
        assert s.parse_action(text) == action, text
        if action.kind == PLACE:
            predicted = sum(y.amount for y in s.preview(action))
            mark = len(s.events)
            s.apply(action)
            while s.phase == ASSIGN:  # (exchanges here would add knowledge of their own)
                s.apply(rng.choice([a for a in s.legal_actions() if a.kind != EXCHANGE]))
            after = s.events[mark:]
            ends = [i for i, e in enumerate(after) if e[0] == EV_EFFECT]
            produced = sum(e[3] for e in after[:ends[0] if ends else None]
                           if e[0] == EV_KNOWLEDGE)
            # the breakdown sums to what is added (pre-limit), before any effect's gains
            assert produced == predicted
        else:
            s.apply(action)
        for ps in s.players:
            for d in range(6):
                assert 0 <= ps.knowledge[d] <= ps.limit(d) <= 20
            assert ps.tokens >= 0
    out = s.outcome()
    assert out is not None and sorted(out.ranks) == list(range(1, players + 1))
    assert DominationsState.from_record(s.record()).outcome() == out


def test_copies_are_independent() -> None:
    s = DominationsState.new(DominationsConfig(players=3, seed=2))
    rng = random.Random(2)
    for _ in range(30):
        s.apply(step(s, rng))
    snapshot = s.view(None)
    t = s.copy()
    for _ in range(40):
        if t.is_terminal():
            break
        t.apply(step(t, rng))
    assert s.view(None) == snapshot
