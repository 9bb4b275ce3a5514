"""Kingdom choice (N-SET-3): the five recommended sets, random and user-named kingdoms.

>>> [name(c) for c in resolve("first-game", seed=1)][:3]
['Cellar', 'Market', 'Militia']
>>> len(resolve("random", seed=7)), resolve("random", seed=7) == resolve("random", seed=7)
(10, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dominari.core.errors import ConfigError, ParseError
from dominari.dominion.cards import KINGDOM, NAME, card_id, name

RECOMMENDED: dict[str, tuple[str, ...]] = {
    "first-game": ("Cellar", "Market", "Militia", "Mine", "Moat", "Remodel", "Smithy", "Village",
                   "Woodcutter", "Workshop"),
    "big-money": ("Adventurer", "Bureaucrat", "Chancellor", "Chapel", "Feast", "Laboratory",
                  "Market", "Mine", "Moneylender", "Throne Room"),
    "interaction": ("Bureaucrat", "Chancellor", "Council Room", "Festival", "Library", "Militia",
                    "Moat", "Spy", "Thief", "Village"),
    "size-distortion": ("Cellar", "Chapel", "Feast", "Gardens", "Laboratory", "Thief", "Village",
                        "Witch", "Woodcutter", "Workshop"),
    "village-square": ("Bureaucrat", "Cellar", "Festival", "Library", "Market", "Remodel",
                       "Smithy", "Throne Room", "Village", "Woodcutter"),
}  # fmt: skip

KINGDOM_SIZE = 10


def check_spec(spec: object) -> str | tuple[str, ...]:
    """A kingdom spec as configs keep it: a set's name or ``random`` (a string), or card
    names (a tuple); :class:`ConfigError` for anything else."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, (list, tuple)) and all(isinstance(c, str) for c in spec):
        return tuple(spec)
    raise ConfigError(f"kingdom must be a set's name, 'random' or a list of card names, "
                      f"not {spec!r}")


def resolve(spec: str | Sequence[str], seed: int) -> tuple[int, ...]:
    """The 10 kingdom card ids for a spec, sorted by id.

    ``spec`` is a recommended set name, ``"random"``, or card names (a list or a
    comma-separated string). Fewer than 10 names are completed at random; the
    random part depends only on ``seed``, never on the game's own RNG.
    Raises :class:`ConfigError` for an unknown set or card, a basic card, a
    duplicate or more than 10 cards.
    """
    chosen = _named(spec)
    if len(chosen) < KINGDOM_SIZE:
        rest = [c for c in KINGDOM if c not in chosen]
        chosen += random.Random(f"kingdom:{seed}").sample(rest, KINGDOM_SIZE - len(chosen))
    return tuple(sorted(chosen))


def fixed(spec: str | Sequence[str]) -> tuple[int, ...] | None:
    """The kingdom card ids, sorted, when every game of ``spec`` has the same (a recommended
    set, or 10 cards named); None when each game draws some (:func:`resolve` raises for
    a spec it refuses).

    >>> [name(c) for c in fixed("first-game")][:3], fixed("witch"), fixed("random")
    (['Cellar', 'Market', 'Militia'], None, None)
    """
    chosen = _named(spec)
    return tuple(sorted(chosen)) if len(chosen) == KINGDOM_SIZE else None


def chance(spec: str | Sequence[str], card: int) -> float:
    """The share of the games of ``spec`` whose kingdom has the Kingdom card ``card``: 1
    for a card it names, else the chance that the cards drawn at random take it (0 when it
    names all 10).

    >>> witch, moat = card_id("Witch"), card_id("Moat")
    >>> chance("random", witch), chance("witch", witch), chance("witch", moat)
    (0.4, 1.0, 0.375)
    >>> chance("first-game", witch)
    0.0
    """
    chosen = _named(spec)
    if card in chosen:
        return 1.0
    return (KINGDOM_SIZE - len(chosen)) / (len(KINGDOM) - len(chosen))


def _named(spec: str | Sequence[str]) -> list[int]:
    """The kingdom card ids ``spec`` names, in its order (a recommended set's, none for
    ``random``), checked as :func:`resolve` says."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        if key in RECOMMENDED:
            names: list[str] = list(RECOMMENDED[key])
        elif key == "random":
            names = []
        else:
            names = [part.strip() for part in spec.split(",")]
            if not all(names):
                raise ConfigError(f"kingdom {spec!r}: an empty card name; give card names "
                                  "separated by single commas")  # fmt: skip
            if len(names) == 1 and "," not in spec and not is_card(names[0]):
                raise ConfigError(
                    f"unknown kingdom {spec!r}: use 'random', one of "
                    f"{', '.join(RECOMMENDED)}, or a comma-separated list of kingdom cards"
                )
    else:
        names = list(spec)
    chosen: list[int] = []
    for text in names:
        try:
            cid = card_id(text)
        except ParseError as exc:
            raise ConfigError(f"kingdom: {exc}") from None
        if cid not in KINGDOM:
            raise ConfigError(f"kingdom: {name(cid)} is a basic card, not a kingdom card")
        if cid in chosen:
            raise ConfigError(f"kingdom: {name(cid)} is named twice")
        chosen.append(cid)
    if len(chosen) > KINGDOM_SIZE:
        raise ConfigError(f"kingdom: {len(chosen)} cards named, at most {KINGDOM_SIZE} allowed")
    return chosen


def describe(spec: str | Sequence[str]) -> str:
    """A kingdom spec in words, as the simulation footers print it: a recommended set's
    name as such, ``random`` saying that each game draws its own; card names as the game
    writes them, with how many more each game draws at random (from its own seed). A spec
    :func:`resolve` would refuse is given back as it came.

    >>> describe("witch, throne room")
    'Witch, Throne Room and 8 random cards drawn per game'
    >>> describe(" First-Game"), describe("random"), describe(["moat"])
    ('first-game', 'random, a new one drawn per game', 'Moat and 9 random cards drawn per game')
    >>> describe("cellar, chapel, moat, village, smithy, militia, feast, mine, witch")[-38:]
    'Witch and 1 random card drawn per game'
    >>> describe("moat, moat"), describe("copper")
    ('moat, moat', 'copper')
    """
    try:
        chosen = _named(spec)
    except ConfigError:
        return spec if isinstance(spec, str) else ", ".join(map(str, spec))
    if isinstance(spec, str):
        key = spec.strip().lower()
        if key == "random":
            return "random, a new one drawn per game"
        if key in RECOMMENDED:
            return key
    cards = [NAME[c] for c in chosen]
    more = KINGDOM_SIZE - len(cards)
    if more <= 0:
        return ", ".join(cards)
    return f"{', '.join(cards)} and {more} random card{'s' if more > 1 else ''} drawn per game"


def is_card(text: str) -> bool:
    """Whether ``text`` names one of the base-set cards (any case, a unique prefix)."""
    try:
        card_id(text)
    except ParseError:
        return False
    return True


def names(kingdom: Sequence[int]) -> list[str]:
    return [NAME[c] for c in kingdom]
