"""Dominion, base game, first edition: 7 basic and 25 kingdom cards, 2-4 players.

>>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
>>> s.apply(s.parse_action("buy silver"))
>>> s.history
[Action.parse('buy Silver')]
"""

from dominari.dominion.actions import Action, parse
from dominari.dominion.engine import Decision, DominionConfig, DominionState, PlayerState
from dominari.dominion.kingdoms import RECOMMENDED

__all__ = [
    "RECOMMENDED",
    "Action",
    "Decision",
    "DominionConfig",
    "DominionState",
    "PlayerState",
    "parse",
]
