"""The best rule bot for a Dominion kingdom, and the rule bots a search models players with.

The built-in strategies are ranked by how they play against each other, per number of
players (:data:`KINGDOM_ORDERS`, measured by ``benchmarks/kingdom_bots.py``: matches of
every pair on a kingdom holding both bots' cards, seats rotating, with 3 and 4 players
half the table each; no bot of an order loses by more than two standard errors to a bot
after it). :data:`KINGDOM_ORDER` is the 2-player one. A strategy *fits* a
kingdom when every Kingdom card its buy rules name is in it (read from the strategy file
itself, so a ranked file that starts to buy another card is judged by it); the best rule
bot is the first of the order that fits. BMU buys no Kingdom card and fits every kingdom.

A search models each other player with the ranked bot that best explains what that
player has bought (:func:`model_bot`): until a player owns a Kingdom card, the first
fitting *money* strategy (a Gardens rush, which few players take, is assumed only once
the player's own buys show it), then the fitting bot that buys the most of the Kingdom
cards the player owns. The searcher's own seat is played by the best rule bot where that
is one of the :data:`RUSHES` (``dominari.bots.mcts``).

>>> best_rule_bot("first-game")
'smithy'
>>> best_rule_bot(["Witch", "Smithy"]), best_rule_bot(["Witch", "Workshop", "Gardens"])
('witch', 'workshop-gardens')
>>> best_rule_bot(["Library", "Militia"]), best_rule_bot(["Chapel", "Thief"])
('library', 'bmu')
>>> sorted(kingdom_cards("workshop-gardens"))
['Gardens', 'Workshop']
>>> size = "size-distortion"  # Witch, Workshop and Gardens among its cards
>>> best_rule_bot(size), model_bot(size, []), model_bot(size, ["Witch"])
('workshop-gardens', 'witch', 'witch')
>>> model_bot(size, ["Workshop"]), model_bot(size, ["Village"])
('workshop-gardens', 'witch')
>>> lab = ["Laboratory", "Militia"]  # Militia hurts more with 2 players, Laboratory wins with 4
>>> best_rule_bot(lab), best_rule_bot(lab, players=4)
('militia', 'laboratory')

The bot named ``best`` (:class:`KingdomBestBot`) plays every game as that game's best
rule bot, whatever its kingdom:

>>> from dominari.dominion.engine import DominionConfig, DominionState
>>> best = KingdomBestBot()
>>> best.for_game(DominionState.new(DominionConfig(kingdom=size, seed=1))).name
'Workshop/Gardens'
>>> best.for_game(DominionState.new(DominionConfig(kingdom="first-game", seed=1))).name
'Smithy'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from dominari.bots.base import check_seed, raise_misuse
from dominari.core.checks import is_whole
from dominari.core.errors import ConfigError
from dominari.dominion import cards as C

if TYPE_CHECKING:
    from dominari.bots.strategy import Strategy, StrategyBot
    from dominari.dominion.actions import Action
    from dominari.dominion.engine import DominionState

KINGDOM_ORDER: tuple[str, ...] = (
    "workshop-gardens", "witch", "smithy", "council-room", "library", "militia",
    "market", "laboratory", "moat", "bureaucrat", "moneylender", "bmu",
)  # fmt: skip
"""The built-in strategies from the strongest down, as measured two by two (2 players):
Workshop/Gardens beats even Double Witch, whose Curses swell its Gardens."""

_MANY: tuple[str, ...] = (
    "workshop-gardens", "witch", "smithy", "council-room", "library", "laboratory",
    "militia", "market", "moneylender", "moat", "bureaucrat", "bmu",
)  # fmt: skip
KINGDOM_ORDERS: dict[int, tuple[str, ...]] = {2: KINGDOM_ORDER, 3: _MANY, 4: _MANY}
"""The orders by number of players (one for 3 and 4, measured apart: they agree within
the noise). With 3 and 4 the Laboratory climbs over Militia and Market and the
Moneylender over the Moat and the Bureaucrat: each attack hurts an opponent less (two
copies of the attacker share the table), and a Gardens rush beats even Double Witch
nearly always."""


_KINGDOM = frozenset(C.KINGDOM)


def strategy_needs(strategy: Strategy) -> frozenset[int]:
    """The Kingdom card ids ``strategy`` buys (it fits a kingdom holding them all)."""
    return frozenset(r.card for r in strategy.buy if r.card in _KINGDOM)


@cache
def _needs(name: str) -> frozenset[int]:
    from dominari.bots import builtin_strategy

    return strategy_needs(builtin_strategy(name))


def kingdom_cards(name: str) -> frozenset[str]:
    """The Kingdom cards that the built-in strategy ``name`` buys (it fits a kingdom
    holding them all)."""
    return frozenset(C.NAME[c] for c in _needs(name))


def _ids(kingdom: str | Iterable[int | str]) -> frozenset[int]:
    if isinstance(kingdom, str):
        from dominari.dominion.kingdoms import RECOMMENDED, is_card

        key = kingdom.strip().lower()
        if key not in RECOMMENDED and "," not in key and not is_card(kingdom):
            raise ConfigError(f"unknown kingdom {kingdom!r}: use one of "
                              f"{', '.join(RECOMMENDED)}, or a comma-separated list of "
                              "kingdom cards")  # fmt: skip
        kingdom = RECOMMENDED[key] if key in RECOMMENDED else kingdom.split(",")
    try:
        return frozenset(k if isinstance(k, int) else C.card_id(k) for k in kingdom)
    except (TypeError, AttributeError):  # (told only now: a search asks at every decision)
        raise ConfigError(f"a kingdom is a set's name or a list of card names or ids, "
                          f"not {kingdom!r}") from None


RUSHES: frozenset[str] = frozenset({"workshop-gardens"})
"""Strategies a model assumes only once a player's buys show them."""


def _players(players: object) -> int:
    if not is_whole(players) or players not in KINGDOM_ORDERS:
        raise ConfigError(f"players must be 2, 3 or 4, not {players!r}")
    return int(players)  # a whole number of any integer type


@lru_cache(maxsize=4096)  # bounded: a simulation of random kingdoms meets millions
def _fitting(kingdom: frozenset[int], players: int) -> tuple[str, ...]:
    """The ranked strategies that fit ``kingdom``, in order (BMU, last, fits any)."""
    return tuple(n for n in KINGDOM_ORDERS[players] if _needs(n) <= kingdom)


@lru_cache(maxsize=4096)
def _model(kingdom: frozenset[int], owned: frozenset[int], players: int) -> str:
    fitting = _fitting(kingdom, players)
    best, overlap = next(n for n in fitting if n not in RUSHES), 0
    for name in fitting:  # the first of the order wins a tie
        k = len(_needs(name) & owned)
        if k > overlap:
            best, overlap = name, k
    return best


def model_bot(kingdom: str | Iterable[int | str], owned: Iterable[int | str] = (),
              players: int = 2) -> str:
    """The name of the ranked bot that models a player who owns the Kingdom cards
    ``owned`` (ids or names; other cards are ignored) in ``kingdom``, in a game of
    ``players``: of the strategies that fit the kingdom, the first of the order for that
    many players (:data:`KINGDOM_ORDERS`) among those that buy the most kinds of the
    cards owned; with none of them owned, the first that is not one of the
    :data:`RUSHES`."""
    k = _ids(kingdom)
    return _model(k, _ids(owned) & k, _players(players))


def best_rule_bot(kingdom: str | Iterable[int | str], players: int = 2) -> str:
    """The name of the best built-in rule bot for ``kingdom`` (card ids or names, a
    recommended set's name or card names separated by commas) in a game of ``players``
    (2 to 4): the first strategy of the order for that many players
    (:data:`KINGDOM_ORDERS`) whose Kingdom cards are all in it. An unknown card name in a
    list raises :class:`~dominari.core.errors.ParseError`; a name that is neither a set nor
    a card, or another number of players, :class:`~dominari.core.errors.ConfigError`."""
    return _fitting(_ids(kingdom), _players(players))[0]


def rule_bot(name: str) -> StrategyBot:
    """A new bot of the built-in strategy ``name`` (what ``best`` plays, and a search's
    model of a seat)."""
    from dominari.bots import builtin_strategy
    from dominari.bots.strategy import StrategyBot

    return StrategyBot(builtin_strategy(name))


class KingdomBestBot:
    """The bot ``best``: each game played as :func:`best_rule_bot` of that game's kingdom
    and number of players (Smithy-BM on First Game, Double Witch where Witch is in the
    kingdom ...), so that one name is "the strongest rule bot" over random kingdoms. It is
    deterministic, as the strategies are; :meth:`for_game` is the strategy bot that plays
    a game, to which a simulation hands the game (:func:`dominari.bots.base.playing`), so
    that it is played at a strategy bot's speed."""

    name = "Best"

    def __init__(self) -> None:
        self._bots: dict[str, StrategyBot] = {}
        self._kingdom: tuple[int, ...] | None = None
        self._players = 0
        self._bot: StrategyBot | None = None

    def __repr__(self) -> str:
        return "KingdomBestBot()"

    @property
    def fallbacks(self) -> int:
        """The answers that fell back to the first legal action, over every game."""
        return sum(bot.fallbacks for bot in self._bots.values())

    def reset(self, seed: int) -> None:
        """Nothing to reset: the strategies are deterministic (the seed is checked all the
        same)."""
        check_seed(seed)

    def for_game(self, state: DominionState) -> StrategyBot:
        """The strategy bot that plays ``state``'s game (one per strategy, kept); a
        Dominations state raises :class:`~dominari.core.errors.ConfigError`."""
        try:
            kingdom = state.kingdom
            bot = self._bot
            if (kingdom is not self._kingdom or bot is None
                    or state.num_players != self._players):
                self._players = state.num_players
                name = best_rule_bot(kingdom, self._players)
                bot = self._bots.get(name)
                if bot is None:
                    bot = self._bots[name] = rule_bot(name)
                self._kingdom, self._bot = kingdom, bot
            return bot
        except Exception as exc:  # misuse is told apart only now: a game pays nothing for it
            raise_misuse(exc, state, "dominion", self.name)

    def act(self, state: DominionState) -> Action:
        """The action of the kingdom's best rule bot."""
        return self.for_game(state).act(state)


__all__ = ["KINGDOM_ORDER", "KINGDOM_ORDERS", "RUSHES", "KingdomBestBot", "best_rule_bot",
           "kingdom_cards", "model_bot", "rule_bot", "strategy_needs"]
