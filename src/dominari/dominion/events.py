"""Public log events: tuples ``(EV_*, player, card, extra)``.

The engine appends integer tuples (no strings on the hot path) only when the game
was created with ``log=True``; :mod:`dominari.dominion.render` turns them into words.
Everything logged is public: draws are counts, discards from hand hide the card.
"""

EV_TURN = 0  # extra = the player's turn number
EV_PLAY = 1
EV_BUY = 2
EV_GAIN = 3  # extra = where: 0 discard, 1 hand, 2 deck
EV_TRASH = 4
EV_DISCARD = 5
EV_REVEAL = 6
EV_TOPDECK = 7
EV_SET_ASIDE = 8
EV_SHUFFLE = 9
EV_DRAW = 10  # card = -1, extra = how many (which cards is private)
EV_TREASURES = 11  # card = -1, extra = coins made
EV_DECK_TO_DISCARD = 12
EV_REVEAL_HAND = 13  # extra = tuple of cards
EV_END = 14  # extra = reason
