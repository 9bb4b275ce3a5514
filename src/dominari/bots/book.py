"""The Dominion search's opening book: buys on the first turns, measured once, that a
search plays instead of its own answer.

A search's first buys are its noisiest decisions: a rollout from the first turn is a
whole game, so in its budget the search plays a few hundred of them, too few to tell
two openings a few points apart. Rule bots, at thousands of games a second, can
(``benchmarks/openings.py``). The book keeps what they found. It is data: a TOML file
(the built-in one is ``opening-book.toml`` beside this module) of *lines*, each one
covering the searcher's buys on its first ``turns`` turns in games of one kingdom and
one number of players, where the search's own model is the rule bot ``own`` (any, when
not given). There the book buys the first of the line's rules that applies (as a
strategy file's ``[[buy]]`` rules), else what the own model buys (an own model with no
buy rules of its own, ``random``, leaves the buy to the search)::

    [[line]]
    kingdom = "first-game"      # a recommended set, or its 10 cards
    players = 2
    own = "smithy-market"       # optional
    turns = 2

    [[line.buy]]
    card = "Mine"
    when = "coins == 5"

Any mistake in a file raises one :class:`~dominari.core.errors.StrategyError` naming the
file, the line and the field.

>>> from dominari.dominion.engine import DominionConfig, DominionState
>>> book = default_book()
>>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
>>> book.covers(s)
True
>>> line = book.line_for(s, "Smithy-Market")
>>> line.kingdom_name, line.turns, [r.when for r in line.buy]
('first-game', 2, ['coins == 5'])
>>> book.line_for(s, "BMU") is None   # a search with another own model: not covered
True
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from dominari.bots.base import playing
from dominari.bots.strategy import (
    BuyRule,
    Strategy,
    StrategyBot,
    _type_name,
    parse_strategy,
    read_text,
)
from dominari.core.errors import ConfigError, StrategyError
from dominari.dominion.actions import END_A, Action
from dominari.dominion.engine import BUY_PHASE, DominionState
from dominari.dominion.kingdoms import RECOMMENDED, resolve

LINE_KEYS = ("kingdom", "players", "own", "turns", "buy")


@dataclass(frozen=True)
class Line:
    """One line of a book: the kingdom (card ids, sorted) and number of players it is
    for, the own model it assumes (a rule bot's name as it plays, None: any), the turns
    it covers and its buy rules."""

    kingdom: tuple[int, ...]
    players: int
    own: str | None
    turns: int
    buy: tuple[BuyRule, ...]
    kingdom_name: str = ""
    """The kingdom as the file names it (a set's name, or its cards joined by commas)."""
    _bots: dict[Strategy | None, StrategyBot] = field(default_factory=dict,
                                                      compare=False, repr=False)

    def bot(self, own: StrategyBot | None) -> StrategyBot:
        """The rule bot that plays this line for a search whose own model is ``own``: the
        line's buy rules, then the own model's (None: the line's alone, ending the buys
        where none applies); made once per own strategy."""
        key = None if own is None else own.strategy
        bot = self._bots.get(key)
        if bot is None:
            if own is None:
                strategy = Strategy(name="opening book", buy=self.buy)
            else:
                strategy = replace(own.strategy, name=f"{own.strategy.name} (opening book)",
                                   buy=self.buy + own.strategy.buy)
            bot = self._bots[key] = StrategyBot(strategy)
        return bot


@dataclass(frozen=True)
class Book:
    """An opening book: its lines, and the file they were read from."""

    lines: tuple[Line, ...]
    source: str = "<book>"

    @functools.cached_property
    def turns(self) -> int:
        """The most turns a line covers: no decision after them is the book's."""
        return max((line.turns for line in self.lines), default=0)

    def for_game(self, state: DominionState) -> bool:
        """Whether a line is for the kingdom and number of players of the game at
        ``state`` (only in such a game can the book change a search's play)."""
        kingdom = tuple(sorted(state.kingdom))
        return any(line.kingdom == kingdom and line.players == state.num_players
                   for line in self.lines)

    def covers(self, state: DominionState) -> bool:
        """Whether the decision at ``state`` may be the book's: a buy (nothing pending, in
        the buy phase) on one of the first turns that a line covers. Cheap: a search asks
        it at every decision."""
        return (not state.stack and state.phase == BUY_PHASE
                and state.players[state.turn_player].turns <= self.turns)

    def line_for(self, state: DominionState, own: str | None) -> Line | None:
        """The line that covers the buy at ``state`` (see :meth:`covers`) for a search
        whose own model is the rule bot named ``own`` (as it plays; None: a model that is
        no rule bot, which only lines for any own model cover), or None."""
        turns = state.players[state.turn_player].turns
        kingdom = tuple(sorted(state.kingdom))
        for line in self.lines:
            if (line.kingdom == kingdom and line.players == state.num_players
                    and turns <= line.turns and line.own in (None, own)):
                return line
        return None

    def move(self, state: DominionState, own: Any) -> Action | None:
        """The book's buy at ``state`` for a search whose own model is the bot ``own``
        (``best`` plays the kingdom's rule bot), or None where no line covers it. With an
        own model that has no buy rules (``random``), a line for any own model buys by
        its rules alone, and leaves the buy to the search where none applies."""
        if not self.covers(state):
            return None
        model = playing(own, state)
        if isinstance(model, StrategyBot):
            line = self.line_for(state, model.name)
            return None if line is None else line.bot(model).act(state)
        line = self.line_for(state, None)
        if line is None:
            return None
        action = line.bot(None).act(state)
        return None if action == END_A else action


def _whole(value: object, where: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StrategyError(f"{where}: must be a whole number, not {_type_name(value)}")
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise StrategyError(f"{where}: must be {span}, not {value}")
    return value


def _kingdom(value: object, where: str) -> tuple[tuple[int, ...], str]:
    if isinstance(value, str) and value.strip().lower() == "random":
        raise StrategyError(f"{where}: a line is for one kingdom, not 'random'")
    if not (isinstance(value, str) or (isinstance(value, list) and len(value) == 10)):
        raise StrategyError(f"{where}: must be a recommended set's name ("
                            f"{', '.join(RECOMMENDED)}) or a list of 10 kingdom cards")
    try:
        cards = resolve(value if isinstance(value, str) else [str(c) for c in value], 0)
    except ConfigError as exc:
        raise StrategyError(f"{where}: {exc}") from None
    if (isinstance(value, str) and value.strip().lower() not in RECOMMENDED
            and len([c for c in value.split(",") if c.strip()]) != 10):
        raise StrategyError(f"{where}: {value!r} names fewer than 10 cards; a line is "
                                "for one whole kingdom")
    name = value.strip().lower() if isinstance(value, str) else ", ".join(map(str, value))
    return cards, name


def _own(value: object, where: str) -> str:
    from dominari.bots import BUILTIN_STRATEGIES, builtin_strategy

    if not isinstance(value, str) or value.strip().lower() not in BUILTIN_STRATEGIES:
        raise StrategyError(f"{where}: must name a built-in rule bot ("
                            f"{', '.join(BUILTIN_STRATEGIES)}), not {value!r}")
    return builtin_strategy(value.strip().lower()).name


def parse_book(data: dict[str, Any], source: str = "<book>") -> Book:
    """Validate decoded TOML ``data``; raise StrategyError naming ``source``."""
    unknown = [k for k in data if k != "line"]
    if unknown:
        raise StrategyError(f"{source}: unknown top-level key {unknown[0]!r}; a book is "
                            "[[line]] tables")
    raw_lines = data.get("line")
    if not isinstance(raw_lines, list) or not all(isinstance(r, dict) for r in raw_lines):
        raise StrategyError(f"{source}: no lines; a book is [[line]] tables, each with "
                            "kingdom, players, turns and [[line.buy]] rules")
    lines = []
    for i, raw in enumerate(raw_lines, 1):
        where = f"{source}: line {i}"
        bad = [k for k in raw if k not in LINE_KEYS]
        if bad:
            raise StrategyError(f"{where}: unknown field {bad[0]!r} (allowed: "
                                f"{', '.join(LINE_KEYS)})")
        for key in ("kingdom", "players", "turns", "buy"):
            if key not in raw:
                raise StrategyError(f"{where}: missing field {key!r}")
        kingdom, name = _kingdom(raw["kingdom"], f"{where} field 'kingdom'")
        players = _whole(raw["players"], f"{where} field 'players'", 2, 4)
        turns = _whole(raw["turns"], f"{where} field 'turns'", 1)
        own = _own(raw["own"], f"{where} field 'own'") if "own" in raw else None
        rules = parse_strategy({"buy": raw["buy"]}, where).buy
        lines.append(Line(kingdom, players, own, turns, rules, name))
    return Book(tuple(lines), source)


def parse_book_text(text: str, source: str = "<book>") -> Book:
    """Parse the text of a book file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{source}: not valid TOML: {exc}") from None
    except (RecursionError, MemoryError):
        raise StrategyError(f"{source}: not a book file: nested too deeply") from None
    return parse_book(data, source)


def read_book(path: str | Path) -> Book:
    """Read and validate a book file."""
    p = Path(path)
    return parse_book_text(read_text(p, "book file"), str(p))


@functools.cache
def default_book() -> Book:
    """The built-in opening book (``opening-book.toml``), read once."""
    res = resources.files("dominari.bots").joinpath("opening-book.toml")
    return parse_book_text(res.read_text(encoding="utf-8"), "opening-book.toml")
