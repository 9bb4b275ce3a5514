"""Dominion actions: small hashable values with a text notation.

An action is a verb and a tuple of card ids. ``str(action)`` prints the
notation and :func:`parse` reads it back:

>>> a = parse("play Village")
>>> a == Action("play", (VILLAGE,)), str(a)
(True, 'play Village')
>>> str(parse("discard estate copper"))
'discard Estate Copper'
>>> str(parse("play Sala del Consejo")), str(parse("play throne room"))
('play Council Room', 'play Throne Room')
>>> parse(str(END_A)) == END_A
True

Verbs and where they are used:

====================  ==========================================================
``play X``            action phase; Throne Room's choice
``buy X``             buy phase
``end``               end the action phase / end the turn (buy phase)
``discard X [Y ...]`` Cellar, Militia; Spy (discard the revealed card)
``trash X [Y ...]``   Chapel, Remodel, Mine, Thief
``gain X``            Workshop, Feast, Remodel, Mine, Thief (take a trashed card)
``done``              stop choosing (Cellar, Chapel)
``pass``              decline an optional choice (Moat, Chancellor, Thief's gain)
``reveal Moat``       reveal Moat against an Attack
``set-aside X``       Library: set aside the Action card just drawn
``keep X``            Library: keep it in hand; Spy: put the revealed card back
``topdeck X``         Bureaucrat: put a Victory card from hand onto the deck
``discard-deck``      Chancellor: put the deck into the discard pile
====================  ==========================================================

Several cards after ``discard`` or ``trash`` (``discard Estate Copper``) choose
the whole selection at once where a decision takes several cards (Cellar,
Chapel, Militia); one card is a single step.
"""

from __future__ import annotations

from typing import NamedTuple

from dominari.core.errors import ParseError
from dominari.dominion.cards import NAME, NUM_CARDS, VILLAGE, card_id  # noqa: F401 (doctest)

PLAY = "play"
BUY = "buy"
END = "end"
DONE = "done"
PASS = "pass"
DISCARD = "discard"
TRASH = "trash"
GAIN = "gain"
REVEAL = "reveal"
SET_ASIDE = "set-aside"
KEEP = "keep"
TOPDECK = "topdeck"
DISCARD_DECK = "discard-deck"

VERBS: tuple[str, ...] = (
    PLAY, BUY, END, DONE, PASS, DISCARD, TRASH, GAIN, REVEAL, SET_ASIDE, KEEP, TOPDECK,
    DISCARD_DECK,
)  # fmt: skip
CARDLESS_VERBS = frozenset({END, DONE, PASS, DISCARD_DECK})


class Action(NamedTuple):
    """A verb and the card ids it names (empty for ``end``, ``done``, ``pass``)."""

    verb: str
    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        if not self.cards:
            return self.verb
        return self.verb + " " + " ".join(NAME[c] for c in self.cards)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @property
    def card(self) -> int:
        """The first (usually only) card named, or -1."""
        return self.cards[0] if self.cards else -1

    @staticmethod
    def parse(text: str) -> Action:
        return parse(text)


def _table(verb: str) -> tuple[Action, ...]:
    return tuple(Action(verb, (c,)) for c in range(NUM_CARDS))


# Interned single-card actions, indexed by card id (no allocation on the hot path).
PLAY_A = _table(PLAY)
BUY_A = _table(BUY)
DISCARD_A = _table(DISCARD)
TRASH_A = _table(TRASH)
GAIN_A = _table(GAIN)
REVEAL_A = _table(REVEAL)
SET_ASIDE_A = _table(SET_ASIDE)
KEEP_A = _table(KEEP)
TOPDECK_A = _table(TOPDECK)
END_A = Action(END)
DONE_A = Action(DONE)
PASS_A = Action(PASS)
DISCARD_DECK_A = Action(DISCARD_DECK)


def _split_cards(words: list[str]) -> tuple[int, ...]:
    """Card ids from words, joining up to three words for names such as
    ``Throne Room`` or ``Sala del Consejo`` (longest name first)."""
    cards: list[int] = []
    i = 0
    while i < len(words):
        for width in (3, 2):
            if i + width <= len(words):
                try:
                    cards.append(card_id("".join(words[i : i + width])))
                except ParseError:
                    continue
                i += width
                break
        else:
            cards.append(card_id(words[i]))
            i += 1
    return tuple(cards)


def parse(text: str) -> Action:
    """Parse full notation (exact verb and card names, any case).

    Raises :class:`ParseError` saying what is wrong.
    """
    words = text.split()
    if not words:
        raise ParseError("empty action: expected a verb such as 'play', 'buy' or 'end'")
    verb = words[0].lower()
    if verb not in VERBS:
        raise ParseError(f"unknown verb {words[0]!r}: expected one of {', '.join(VERBS)}")
    if verb in CARDLESS_VERBS:
        if len(words) > 1:
            raise ParseError(f"'{verb}' takes no card, got {' '.join(words[1:])!r}")
        return Action(verb)
    if len(words) == 1:
        raise ParseError(f"'{verb}' needs a card name, e.g. '{verb} Copper'")
    return Action(verb, _split_cards(words[1:]))
