"""The 7 basic and 25 kingdom cards of Dominion (first edition), as integer ids.

Cards are small integers so that the engine's hot path works on lists of
ints and counters. Per-card facts are tuples indexed by id.

>>> name(card_id("smithy")), COST[SMITHY]
('Smithy', 4)
>>> card_id("throne room") == card_id("ThroneRoom") == THRONE_ROOM
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from dominari.core.errors import ParseError

# Type flags.
TREASURE = 1
VICTORY = 2
CURSE_TYPE = 4
ACTION = 8
ATTACK = 16
REACTION = 32


class CardInfo(NamedTuple):
    """Static facts of one card. ``plus_*`` are the card's simple bonuses."""

    id: int
    name: str
    spanish: str
    cost: int
    types: int
    coins: int = 0
    vp: int = 0
    plus_cards: int = 0
    plus_actions: int = 0
    plus_buys: int = 0
    plus_coins: int = 0


_A, _T, _V = ACTION, TREASURE, VICTORY
CARDS: tuple[CardInfo, ...] = (
    CardInfo(0, "Copper", "Cobre", 0, _T, coins=1),
    CardInfo(1, "Silver", "Plata", 3, _T, coins=2),
    CardInfo(2, "Gold", "Oro", 6, _T, coins=3),
    CardInfo(3, "Estate", "Finca", 2, _V, vp=1),
    CardInfo(4, "Duchy", "Ducado", 5, _V, vp=3),
    CardInfo(5, "Province", "Provincia", 8, _V, vp=6),
    CardInfo(6, "Curse", "Maldición", 0, CURSE_TYPE, vp=-1),
    CardInfo(7, "Adventurer", "Aventurero", 6, _A),
    CardInfo(8, "Bureaucrat", "Burócrata", 4, _A | ATTACK),
    CardInfo(9, "Cellar", "Sótano", 2, _A, plus_actions=1),
    CardInfo(10, "Chancellor", "Canciller", 3, _A, plus_coins=2),
    CardInfo(11, "Chapel", "Capilla", 2, _A),
    CardInfo(12, "Council Room", "Sala del Consejo", 5, _A, plus_cards=4, plus_buys=1),
    CardInfo(13, "Feast", "Banquete", 4, _A),
    CardInfo(14, "Festival", "Festival", 5, _A, plus_actions=2, plus_buys=1, plus_coins=2),
    CardInfo(15, "Gardens", "Jardines", 4, _V),
    CardInfo(16, "Laboratory", "Laboratorio", 5, _A, plus_cards=2, plus_actions=1),
    CardInfo(17, "Library", "Biblioteca", 5, _A),
    CardInfo(18, "Market", "Mercado", 5, _A,
             plus_cards=1, plus_actions=1, plus_buys=1, plus_coins=1),
    CardInfo(19, "Militia", "Milicia", 4, _A | ATTACK, plus_coins=2),
    CardInfo(20, "Mine", "Mina", 5, _A),
    CardInfo(21, "Moat", "Foso", 2, _A | REACTION, plus_cards=2),
    CardInfo(22, "Moneylender", "Prestamista", 4, _A),
    CardInfo(23, "Remodel", "Remodelar", 4, _A),
    CardInfo(24, "Smithy", "Herrería", 4, _A, plus_cards=3),
    CardInfo(25, "Spy", "Espía", 4, _A | ATTACK, plus_cards=1, plus_actions=1),
    CardInfo(26, "Thief", "Ladrón", 4, _A | ATTACK),
    CardInfo(27, "Throne Room", "Salón del Trono", 4, _A),
    CardInfo(28, "Village", "Aldea", 3, _A, plus_cards=1, plus_actions=2),
    CardInfo(29, "Witch", "Bruja", 5, _A | ATTACK, plus_cards=2),
    CardInfo(30, "Woodcutter", "Leñadores", 3, _A, plus_buys=1, plus_coins=2),
    CardInfo(31, "Workshop", "Taller", 3, _A),
)

NUM_CARDS = len(CARDS)
(
    COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE,
    ADVENTURER, BUREAUCRAT, CELLAR, CHANCELLOR, CHAPEL, COUNCIL_ROOM, FEAST, FESTIVAL,
    GARDENS, LABORATORY, LIBRARY, MARKET, MILITIA, MINE, MOAT, MONEYLENDER, REMODEL,
    SMITHY, SPY, THIEF, THRONE_ROOM, VILLAGE, WITCH, WOODCUTTER, WORKSHOP,
) = range(NUM_CARDS)  # fmt: skip

BASIC: tuple[int, ...] = (COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE)
KINGDOM: tuple[int, ...] = tuple(range(ADVENTURER, NUM_CARDS))

NAME: tuple[str, ...] = tuple(c.name for c in CARDS)
COST: tuple[int, ...] = tuple(c.cost for c in CARDS)
COINS: tuple[int, ...] = tuple(c.coins for c in CARDS)
VP: tuple[int, ...] = tuple(c.vp for c in CARDS)
TYPES: tuple[int, ...] = tuple(c.types for c in CARDS)
IS_ACTION: tuple[bool, ...] = tuple(bool(t & ACTION) for t in TYPES)
IS_TREASURE: tuple[bool, ...] = tuple(bool(t & TREASURE) for t in TYPES)
IS_VICTORY: tuple[bool, ...] = tuple(bool(t & VICTORY) for t in TYPES)
IS_ATTACK: tuple[bool, ...] = tuple(bool(t & ATTACK) for t in TYPES)
TREASURES: tuple[int, ...] = tuple(c for c in range(NUM_CARDS) if IS_TREASURE[c])
VICTORIES: tuple[int, ...] = tuple(c for c in range(NUM_CARDS) if IS_VICTORY[c])


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


_BY_KEY: dict[str, int] = {}
for _c in CARDS:
    _BY_KEY[_key(_c.name)] = _c.id
    _BY_KEY.setdefault(_key(_c.spanish), _c.id)


def name(card: int) -> str:
    """The English name of a card id."""
    return NAME[card]


@lru_cache(maxsize=1024)
def card_id(text: str) -> int:
    """The id of a card named ``text`` (English or Spanish; case, spaces and hyphens ignored).

    Raises :class:`ParseError` naming the unknown card.
    """
    cid = _BY_KEY.get(_key(text))
    if cid is None:
        raise ParseError(f"unknown card {text!r}: not one of the 32 base-set cards")
    return cid


def match_prefix(text: str, candidates: tuple[int, ...] | list[int] | None = None) -> list[int]:
    """Card ids whose name starts with ``text`` among ``candidates``: an exact name wins,
    then English prefixes, then Spanish ones.

    >>> [name(c) for c in match_prefix("s", [SILVER, CELLAR])]
    ['Silver']
    """
    key = _key(text)
    pool = range(NUM_CARDS) if candidates is None else candidates
    exact = [c for c in pool if _key(NAME[c]) == key or _key(CARDS[c].spanish) == key]
    if exact:
        return exact[:1]
    english = [c for c in pool if _key(NAME[c]).startswith(key)]
    return english or [c for c in pool if _key(CARDS[c].spanish).startswith(key)]
