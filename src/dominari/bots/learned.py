"""Learned buys: a strategy bot's buy re-ranked by a linear policy (expert iteration).

A :class:`BuyPolicy` scores every card a player may buy (and buying nothing) as
``weights[card] . features + bonus * [card is the strategy's own buy]`` and takes the best:
the strategy's rules propose, the learned weights may overrule. The weights are data (a
JSON file, validated when read), learned by ``benchmarks/expert.py`` from the Dominion
search's buys, so that a search can play its own seat in its rollouts more as it will play
it itself.

>>> from dominari.dominion.engine import DominionConfig, DominionState
>>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=4))
>>> len(buy_features(s, s.current_player())) == len(FEATURES)
True
>>> flat = BuyPolicy.from_dict({"format": FORMAT, "features": list(FEATURES),
...                             "weights": {}, "bonus": 1.0})
>>> flat.choose(s, s.current_player(), 1)  # no weights: the strategy's own buy
1
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from operator import mul
from pathlib import Path
from typing import Any, TypeGuard

from dominari.core.errors import ConfigError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionState

FORMAT = "dominari-buy-policy-1"
NOTHING = C.NUM_CARDS
"""The index that stands for buying nothing."""

_HELD = ("Market", "Militia", "Smithy", "Remodel", "Cellar", "Village", "Mine")
FEATURES: tuple[str, ...] = (
    "bias", "deck_size", "money_density", "green_density", "action_density",
    "draw_pile_share", "draw_pile_money", "draw_pile_green", "their_money_density",
    "their_green_density", "provinces_left", "provinces_left_le2", "provinces_left_le4",
    "provinces_left_le6", "duchies_left", "vp_lead", "coins", "extra_buy", "turn",
    "played_first", *(f"held_{n.lower()}" for n in _HELD),
)  # fmt: skip
"""The features, in order, each about 0 to 1."""

_COPPER, _SILVER, _GOLD, _MARKET = (C.NAME.index(n) for n in ("Copper", "Silver", "Gold",
                                                               "Market"))
_ESTATE, _DUCHY, _PROVINCE = (C.NAME.index(n) for n in ("Estate", "Duchy", "Province"))
_NOT_ACTION = tuple(i for i in range(C.NUM_CARDS) if not C.IS_ACTION[i])
_HELD_IDX = tuple(C.NAME.index(n) for n in _HELD)
_COST = C.COST


def _money_green(counts: Sequence[int], size: int) -> tuple[float, float]:
    """Coins (a Market's counted) and Victory cards (Estate, Duchy, Province) a card."""
    if not size:
        return 0.0, 0.0
    money = (counts[_COPPER] + 2 * counts[_SILVER] + 3 * counts[_GOLD] + counts[_MARKET])
    return money / size, (counts[_ESTATE] + counts[_DUCHY] + counts[_PROVINCE]) / size


def features(owned: Sequence[int], deck: Sequence[int], theirs: Sequence[int],
             supply: Sequence[int], lead: int, coins: int, buys: int, turn: int,
             first: int) -> list[float]:
    """:data:`FEATURES` of a buy: the buyer's cards (``owned``; ``deck``, its draw pile, as
    counts by card), the other player's, the supply, the buyer's VP lead, its coins and
    buys, the turn and whether it played first."""
    size = sum(owned)
    money, green = _money_green(owned, size)
    actions = (size - sum([owned[c] for c in _NOT_ACTION])) / size if size else 0.0
    in_deck = sum(deck)
    dmoney, dgreen = _money_green(deck, in_deck)
    tmoney, tgreen = _money_green(theirs, sum(theirs))
    left = supply[_PROVINCE]
    x = [1.0, size / 30.0, money, green, actions, in_deck / (size or 1), dmoney, dgreen,
         tmoney, tgreen, left / 8.0, float(left <= 2), float(left <= 4), float(left <= 6),
         supply[_DUCHY] / 8.0, max(-1.0, min(1.0, lead / 20.0)), coins / 8.0,
         float(buys > 1), min(turn, 40) / 40.0, float(first)]
    x += [min(owned[c], 4) / 4.0 for c in _HELD_IDX]
    return x


def counts(cards: Sequence[int]) -> list[int]:
    """How many of each card ``cards`` hold, by card index."""
    out = [0] * C.NUM_CARDS
    for c in cards:
        out[c] += 1
    return out


def buy_features(state: DominionState, p: int) -> list[float]:
    """:data:`FEATURES` of ``p``'s buy at ``state``; with more than two players the other
    player is the next one and the lead is over the best other score."""
    n = state.num_players
    mine, theirs = state.players[p], state.players[(p + 1) % n]
    deck = counts(mine.deck)
    lead = state.score(p) - max(state.score(q) for q in range(n) if q != p)
    return features(mine.owned, deck, theirs.owned, state.supply, lead, state.coins,
                    state.buys, state.turn_number, int(mine.turns > theirs.turns))


def _finite(value: object) -> TypeGuard[float]:
    """Whether ``value`` is a finite number (JSON's NaN and Infinity are not weights)."""
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


class BuyPolicy:
    """Linear scores over the buys; see the module's docstring."""

    def __init__(self, weights: Sequence[Sequence[float]], bonus: float,
                 source: str = "<policy>") -> None:
        self.weights = tuple(tuple(w) for w in weights)
        self.bonus = bonus
        self.source = source

    @classmethod
    def from_dict(cls, data: Any, source: str = "<policy>") -> BuyPolicy:
        """Validate a policy read from JSON: :class:`ConfigError` names what is wrong."""
        if not isinstance(data, dict):
            raise ConfigError(f"{source}: a buy policy is a JSON object")
        if data.get("format") != FORMAT:
            raise ConfigError(f"{source}: format {data.get('format')!r}, expected {FORMAT!r}")
        if data.get("features") != list(FEATURES):
            raise ConfigError(f"{source}: its features are not this version's "
                              f"({len(FEATURES)} named in dominari.bots.learned.FEATURES)")
        bonus = data.get("bonus")
        if not _finite(bonus):
            raise ConfigError(f"{source}: bonus must be a finite number, not {bonus!r}")
        table = data.get("weights")
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: weights must be an object of card: [numbers]")
        weights = [[0.0] * len(FEATURES) for _ in range(NOTHING + 1)]
        for name, row in table.items():
            if name == "nothing":
                card = NOTHING
            elif name in C.NAME:
                card = C.NAME.index(name)
            else:
                raise ConfigError(f"{source}: weights: unknown card {name!r}")
            if (not isinstance(row, list) or len(row) != len(FEATURES)
                    or not all(_finite(v) for v in row)):
                raise ConfigError(f"{source}: weights[{name!r}] must be {len(FEATURES)} "
                                  "finite numbers")
            weights[card] = [float(v) for v in row]
        return cls(weights, float(bonus), source)

    @classmethod
    def load(cls, path: str | Path) -> BuyPolicy:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
        except OSError as e:
            raise ConfigError(f"cannot read buy policy {path}: {e.strerror or e}") from e
        except ValueError as e:
            raise ConfigError(f"{path}: not JSON ({e})") from e
        except (RecursionError, MemoryError):
            raise ConfigError(f"{path}: not a buy policy: nested too deeply") from None
        return cls.from_dict(data, str(path))

    def to_dict(self) -> dict[str, Any]:
        names = [*C.NAME, "nothing"]
        return {"format": FORMAT, "features": list(FEATURES), "bonus": self.bonus,
                "weights": {names[c]: list(w) for c, w in enumerate(self.weights)
                            if any(w)}}

    def choose(self, state: DominionState, p: int, proposed: int) -> int:
        """The card ``p`` buys at ``state`` (:data:`NOTHING` for none), the strategy
        having proposed ``proposed``: the best score among the buys that are legal."""
        supply = state.supply
        coins = state.coins
        legal = [c for c in state.in_supply if supply[c] > 0 and _COST[c] <= coins]
        legal.append(NOTHING)
        return self.pick(buy_features(state, p), legal, proposed)

    def pick(self, x: Sequence[float], legal: Sequence[int], proposed: int) -> int:
        """The best of ``legal`` (cards, :data:`NOTHING` among them) by their scores at
        features ``x``, ``proposed`` with the bonus and winning ties."""
        weights = self.weights
        best = proposed
        best_s = sum(map(mul, weights[proposed], x)) + self.bonus
        for c in legal:
            if c != proposed:
                s = sum(map(mul, weights[c], x))
                if s > best_s:
                    best, best_s = c, s
        return best
