"""The Dominion card catalog for clients: cost, types, simple bonuses and rules text.

>>> c = catalog()
>>> c["cards"]["Smithy"]["cost"], c["cards"]["Smithy"]["types"]
(4, ['Action'])
>>> len(c["kingdom_cards"]), c["recommended"]["first-game"][0]
(25, 'Cellar')
>>> all(card["text"] for card in c["cards"].values())
True
"""

from __future__ import annotations

from functools import cache
from typing import Any

from dominari.dominion.cards import (
    ACTION,
    ATTACK,
    CARDS,
    CURSE_TYPE,
    REACTION,
    TREASURE,
    VICTORY,
)
from dominari.dominion.kingdoms import RECOMMENDED

TYPE_NAMES = ((ACTION, "Action"), (TREASURE, "Treasure"), (VICTORY, "Victory"),
              (CURSE_TYPE, "Curse"), (ATTACK, "Attack"), (REACTION, "Reaction"))

TEXT: dict[str, str] = {
    "Copper": "Treasure worth 1 coin.",
    "Silver": "Treasure worth 2 coins.",
    "Gold": "Treasure worth 3 coins.",
    "Estate": "Worth 1 VP at the end of the game.",
    "Duchy": "Worth 3 VP at the end of the game.",
    "Province": "Worth 6 VP at the end of the game.",
    "Curse": "Worth -1 VP at the end of the game.",
    "Adventurer": "Turn over cards from your deck until two Treasures have shown up; take "
                  "those Treasures into your hand and discard the other cards turned over.",
    "Bureaucrat": "Gain a Silver and put it on top of your deck. Every other player puts a "
                  "Victory card from their hand on top of their deck, or shows their hand "
                  "to prove they have none.",
    "Cellar": "+1 Action. Discard as many cards from your hand as you like, then draw the "
              "same number.",
    "Chancellor": "+2 coins. You may move your entire deck into your discard pile right away.",
    "Chapel": "Trash up to 4 cards from your hand.",
    "Council Room": "+4 Cards, +1 Buy. Every other player draws 1 card.",
    "Feast": "Trash this card, then gain a card that costs 5 or less.",
    "Festival": "+2 Actions, +1 Buy, +2 coins.",
    "Gardens": "At the end of the game, worth 1 VP for each complete set of 10 cards you "
               "own.",
    "Laboratory": "+2 Cards, +1 Action.",
    "Library": "Draw until you hold 7 cards. Each Action card you draw along the way may be "
               "put aside instead of kept; discard the cards put aside when you stop.",
    "Market": "+1 Card, +1 Action, +1 Buy, +1 coin.",
    "Militia": "+2 coins. Every other player discards cards until they hold 3.",
    "Mine": "Trash a Treasure from your hand and gain a Treasure that costs up to 3 more; "
            "the new Treasure goes into your hand.",
    "Moat": "+2 Cards. Reaction: when another player plays an Attack, you may show this "
            "card from your hand so that the Attack does not affect you.",
    "Moneylender": "Trash a Copper from your hand. If you do, +3 coins.",
    "Remodel": "Trash a card from your hand and gain a card that costs up to 2 more than "
               "the trashed card.",
    "Smithy": "+3 Cards.",
    "Spy": "+1 Card, +1 Action. Every player, you included, turns over the top card of "
           "their deck; for each one you decide whether it is discarded or goes back on "
           "top.",
    "Thief": "Every other player turns over the top 2 cards of their deck. If Treasures "
             "show up, you trash one of them per player, and you may gain any of the "
             "trashed cards. The rest of the turned-over cards are discarded.",
    "Throne Room": "Pick an Action card in your hand and play it two times.",
    "Village": "+1 Card, +2 Actions.",
    "Witch": "+2 Cards. Every other player gains a Curse.",
    "Woodcutter": "+1 Buy, +2 coins.",
    "Workshop": "Gain a card that costs 4 or less.",
}
"""Rules text in Dominari's own words (first edition), per card name: all 32 cards."""


@cache
def catalog() -> dict[str, Any]:
    """Every card by name, the kingdom cards and the recommended kingdoms."""
    cards = {}
    for c in CARDS:
        cards[c.name] = {
            "name": c.name,
            "cost": c.cost,
            "types": [word for flag, word in TYPE_NAMES if c.types & flag],
            "coins": c.coins,
            "vp": c.vp,
            "plus_cards": c.plus_cards,
            "plus_actions": c.plus_actions,
            "plus_buys": c.plus_buys,
            "plus_coins": c.plus_coins,
            "text": TEXT.get(c.name, ""),
        }
    return {
        "game": "dominion",
        "cards": cards,
        "kingdom_cards": [c.name for c in CARDS[7:]],
        "recommended": {k: list(v) for k, v in RECOMMENDED.items()},
    }
