"""Seeded random games of 2, 3 and 4 players, retail and prototype rules, checked after every
action: tiles and cards conserved, city tokens, knowledge within limits, VP equal to the sum
of their breakdown; and replayed from their records to the same end.

The default run checks 48 games; ``DOMINARI_SLOW=1`` (or ``-m slow``) checks 3,000.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dominari.bots.dominations_random import DominationsRandomBot
from dominari.dominations.engine import (
    CITY_TOKENS,
    OVER,
    SETUP,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.rules import Rules


def check(s: DominationsState) -> None:
    """Every invariant of a consistent state."""
    n_tiles = len(s.data.tiles)
    on_board = list(s.board.tile.values())
    everywhere = s.supply + on_board + [t for ps in s.players for t in ps.hand]
    assert sorted(everywhere) == list(range(n_tiles)), "tiles are conserved"
    cat = s.catalog
    held: Counter[int] = Counter()
    levels_in_trees = 0
    for p, ps in enumerate(s.players):
        for pos, card in ps.tree.cards.items():
            if card.level_card:
                levels_in_trees += 1
            elif pos != (0, 0):
                code = cat.copy_code[card.id]
                assert s.taken[code] == p, f"{card.id} is in {p}'s tree"
                held[code] += 1
        own = [lv for key, lv in s.board.city_level.items() if s.board.city_owner[key] == p]
        assert ps.tokens + sum(own) == CITY_TOKENS and ps.tokens >= 0
        for d in range(6):
            assert 0 <= ps.knowledge[d] <= ps.limit(d) <= 20
        assert ps.vp == sum(ps.vp_by) and ps.influence >= 0
        assert len(ps.hand) <= 9 + 2
    assert all(c == 1 for c in held.values())
    assert sum(1 for p in s.taken if p >= 0) == sum(held.values()), "mastery cards conserved"
    assert sum(s.levels_taken.values()) == levels_in_trees
    if s.phase != SETUP:
        assert len(s.monuments) == s.num_players == len(set(s.monuments))
        assert all(o >= 0 for o in s.objectives)
    assert s.current_player() in (range(s.num_players) if s.phase != OVER else (-1,))


def play_checked(seed: int, players: int, variant: str) -> DominationsState:
    s = DominationsState.new(DominationsConfig(players=players, seed=seed,
                                               rules=Rules(variant=variant)))
    bots = [DominationsRandomBot(seed=seed * 7 + i) for i in range(players)]
    check(s)
    while not s.is_terminal():
        s.apply(bots[s.current_player()].act(s))
        check(s)
    assert s.age == 3 and all(ps.turns == 15 for ps in s.players)
    again = DominationsState.from_record(s.record(), log=True)
    assert again.outcome() == s.outcome() and again.view(0) == s.view(0)
    return s


CASES = [(seed, players, variant) for variant in ("retail", "prototype")
         for players in (2, 3, 4) for seed in range(8)]


@pytest.mark.rule("D-FLOW-1", "D-SET-4", "D-BUILD-3", "D-GROW-9", "D-AGE-9", "D-END-2")
@pytest.mark.parametrize(("seed", "players", "variant"), CASES)
def test_random_games_stay_consistent(seed: int, players: int, variant: str) -> None:
    play_checked(seed, players, variant)


@pytest.mark.slow
@pytest.mark.rule("D-FLOW-1", "D-SET-4", "D-BUILD-3", "D-GROW-9", "D-AGE-9", "D-END-2")
def test_thousands_of_random_games_stay_consistent() -> None:
    for k in range(3000):
        play_checked(1000 + k, 2 + k % 3, "prototype" if k % 2 else "retail")
