"""The turn order a simulation or tournament records for a game is the order in which its
players actually take their turns (:func:`~dominari.sim.runner.turn_order`)."""

from __future__ import annotations

import pytest

from dominari.bots import load_bot
from dominari.dominion.engine import DominionState
from dominari.sim.runner import DominionOptions, turn_order


def _turns_taken(state: DominionState, turns: int) -> list[int]:
    """The player to move at the start of each of the game's first ``turns`` turns, as
    Big Money bots play it on."""
    bot = load_bot("bm", "dominion")
    taken = [state.current_player()]
    number = state.turn_number
    while len(taken) < turns:
        assert not state.is_terminal()
        state.apply(bot.act(state))
        if state.turn_number != number:
            number = state.turn_number
            taken.append(state.current_player())
    return taken


@pytest.mark.rule("N-SET-1")
@pytest.mark.parametrize("players", [3, 4])
def test_the_recorded_turn_order_is_the_order_turns_are_played_in(players: int) -> None:
    """N-SET-1: a random player begins; the turns then pass from seat to seat. Over the
    first two rounds of games of 3 and 4 players the players take their turns in the
    order ``turn_order`` gives for the game as dealt, whoever begins."""
    options = DominionOptions("first-game")
    names = tuple(f"P{p}" for p in range(players))
    began: set[int] = set()
    for seed in range(8):
        state = options.new_game(players, seed, names)
        order = turn_order(state)
        assert sorted(order) == list(range(players))
        assert _turns_taken(state, 2 * players) == order * 2
        began.add(order[0])
    assert len(began) > 1  # the deal draws who begins
