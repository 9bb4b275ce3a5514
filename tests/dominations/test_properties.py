"""Properties over random games: limits, legal placements, production, notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.bots.dominations_random import DominationsRandomBot
from dominari.dominations.board import LINK_ALL_SIDES, LINK_LOCUS, Board
from dominari.dominations.data import ANY, Triggered
from dominari.dominations.effects import ON_NODUS, card_source
from dominari.dominations.engine import (
    ASSIGN,
    EV_ASSIGN,
    EV_EFFECT,
    EV_KNOWLEDGE,
    EV_YIELDS,
    GROWTH,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.grid import Cell
from dominari.dominations.notation import EXCHANGE, PLACE, Action
from dominari.dominations.rules import Rules
from dominari.dominations.tree import DIRECTIONS, ROOT, Tree, join


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


def check_tree(tree: Tree) -> None:
    """D-DEV-7 from scratch: every card joined to the root through side-adjacent cards, and
    every pair of touching halves forms a nodus."""
    cards = tree.cards
    for (col, row), card in cards.items():
        for d, (dc, dr) in enumerate(DIRECTIONS):
            other = cards.get((col + dc, row + dr))
            if other is not None:
                assert join(card.sides[d], other.sides[(d + 2) % 4],
                            tree.vestigium_pairs) is not None
    seen = {ROOT}
    todo = [ROOT]
    while todo:
        col, row = todo.pop()
        for dc, dr in DIRECTIONS:
            q = (col + dc, row + dr)
            if q in cards and q not in seen:
                seen.add(q)
                todo.append(q)
    assert seen == set(cards)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]))
@pytest.mark.rule("D-DEV-6", "D-DEV-7", "D-DEV-8", "D-VOC-2")
def test_trees_nodi_and_triggers_in_random_games(seed: int, players: int) -> None:
    """Over random games with the random bot: every tree obeys the placement rules, the kept
    nodus counts equal a recount, and ``on_complete_nodus`` fires exactly once per matching
    nodus a placement forms (gains, cities and the rest never fire it)."""
    s = DominationsState.new(DominationsConfig(players=players, seed=seed, log=True))
    bots = [DominationsRandomBot(seed=seed + i) for i in range(players)]
    cat = s.catalog
    expected_nodus = 0
    actual_nodus = 0
    while not s.is_terminal():
        nodi_before = [q.tree.nodi_counts() for q in s.players]
        action = bots[s.current_player()].act(s)
        mark = len(s.events)
        s.apply(action)
        for q, before in zip(s.players, nodi_before, strict=True):
            # the mover's cards, or the influence leader's copy at the end of an age
            formed = [a - b for a, b in zip(q.tree.nodi_counts(), before, strict=True)]
            if any(formed):
                expected_nodus += sum(
                    sum(formed[:7]) if h.effect.colour == ANY else formed[h.effect.colour]
                    for h in q.fx.hooked(ON_NODUS))
        for e in s.events[mark:]:
            if e[0] == EV_EFFECT:
                eff = cat.effects(e[2], _advanced(s, e[1], e[2]))[e[3]]
                if isinstance(eff, Triggered) and eff.trigger == ON_NODUS:
                    actual_nodus += 1
        for q in s.players:
            assert q.tree.nodi_counts() == q.tree.slow_nodi()
    assert actual_nodus == expected_nodus
    for q in s.players:
        check_tree(q.tree)


def _advanced(s: DominationsState, player: int, source: int) -> bool:
    tree = s.players[player].tree
    for pos, card in tree.cards.items():
        if card_source(s.catalog, card.id, pos) == source:
            return card.advanced
    return False


@pytest.mark.rule("D-VOC-2")
def test_on_produce_counts_the_turns_production_only() -> None:
    """The running total of a turn equals what the mover's placements produced for them
    (after vestigium is assigned, before limits), whatever they gained."""
    for seed in range(6):
        s = DominationsState.new(DominationsConfig(players=2, seed=seed))
        bots = [DominationsRandomBot(seed=seed + i) for i in range(2)]
        made = [0] * 6
        turn = s.turn_number
        while not s.is_terminal():
            if s.turn_number != turn:
                made = [0] * 6
                turn = s.turn_number
            mark = len(s.events)
            mover = s.mover
            in_growth = s.phase in (GROWTH, ASSIGN) and not s.stack
            s.apply(bots[s.current_player()].act(s))
            if in_growth and s.turn_number == turn:
                for e in s.events[mark:]:
                    if e[0] == EV_EFFECT:
                        break  # what follows is gained, not produced
                    if e[0] == EV_YIELDS:
                        for y in e[1]:
                            if y.player == mover and y.domain < 6:
                                made[y.domain] += y.amount
                    elif e[0] == EV_ASSIGN and e[1] == mover:
                        made[e[2]] += 1
                if s.phase not in (GROWTH, ASSIGN):
                    assert s.produced == made
