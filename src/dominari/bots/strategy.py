"""Strategies as data: TOML strategy files and the bot that plays them.

A strategy file says what to buy, in priority order, with optional conditions;
every other decision has a sensible default that a few lists and options can
adjust. A complete file::

    name = "Smithy"               # optional: the file's name; no control characters
    description = "Smithy Big Money"
    play = ["Village", "Smithy"]  # optional: play these first, in this order
    discard = ["Curse", "Estate"] # optional: cards to discard first (Cellar, Militia)
    trash = ["Curse", "Estate"]   # optional: cards to trash (Chapel, Remodel)
    # (top-level keys come before the first table: in TOML a key after [[buy]] is the
    # buy rule's)

    [[buy]]                       # buy rules, first match wins
    card = "Province"
    when = "total_money > 15"     # optional condition (see dominari.bots.conditions)

    [[buy]]
    card = "Smithy"
    when = "count('Smithy') < count_treasures / 11"

    [[buy]]
    card = "Silver"

    [options]                     # optional tunables of the default decisions
    chancellor = true             # Chancellor puts the deck into the discard pile
    moat = true                   # reveal Moat against Attacks
    chapel_min_money = 6          # Chapel trashes Coppers only while money stays >= this
    late_game_provinces = 4       # 'late game' once this few Provinces are left
    remodel_gold = true           # late game, Remodel turns Gold into Province

A file may also name a learned buy policy (``benchmarks/expert.py train`` writes one;
see :mod:`dominari.bots.learned`) that may overrule its buy rules: a top-level ``policy =
"weights.json"`` (before the first table), a path relative to the strategy file's
folder. The policy is read and validated with the strategy.

A buy rule applies when its card costs at most the coins in hand, its pile is
not empty and its condition holds; when none applies the bot ends its turn.
Gains (Workshop, Feast, Remodel) use the same rules with ``coins`` set to the
gain limit, then the most expensive useful card.

Any mistake in a file raises one :class:`~dominari.core.errors.StrategyError`
naming the file, the rule and field, and the problem.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dominari.bots.base import check_seed, raise_misuse
from dominari.bots.conditions import Expr, compile_condition
from dominari.bots.learned import NOTHING, BuyPolicy
from dominari.core.checks import UNSHOWN
from dominari.core.errors import ConfigError, ParseError, StrategyError
from dominari.dominion import cards as C
from dominari.dominion.actions import (
    BUY_A,
    DISCARD_A,
    DISCARD_DECK_A,
    DONE_A,
    END_A,
    GAIN_A,
    KEEP_A,
    PASS_A,
    PLAY_A,
    REVEAL_A,
    SET_ASIDE_A,
    TOPDECK_A,
    TRASH_A,
    Action,
)
from dominari.dominion.cards import (
    COPPER,
    COST,
    CURSE,
    ESTATE,
    GOLD,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    MOAT,
    NAME,
    PROVINCE,
    SILVER,
)
from dominari.dominion.effects import KIND_NAMES
from dominari.dominion.engine import BUY_PHASE, DominionState

TOP_LEVEL_KEYS = ("name", "description", "buy", "play", "discard", "trash", "options",
                  "policy")
RULE_KEYS = ("card", "when")

DEFAULT_DISCARD: tuple[int, ...] = (CURSE, ESTATE, C.DUCHY, PROVINCE, C.GARDENS)
DEFAULT_TRASH: tuple[int, ...] = (CURSE, ESTATE, COPPER)


@dataclass(frozen=True)
class Options:
    """Tunables of the default decisions (the ``[options]`` table)."""

    chancellor: bool = True
    moat: bool = True
    chapel_min_money: int = 6
    late_game_provinces: int | None = None  # None: 4 with 2 players, 6 with more
    remodel_gold: bool = True


OPTION_TYPES: dict[str, type] = {
    "chancellor": bool,
    "moat": bool,
    "chapel_min_money": int,
    "late_game_provinces": int,
    "remodel_gold": bool,
}


@dataclass(frozen=True)
class BuyRule:
    """Buy ``card`` when ``when`` holds (always when ``when`` is None)."""

    card: int
    when: str | None = None
    cond: Expr | None = field(default=None, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, tuple[int, str | None]]:
        """Pickled as its card and text; the condition is compiled again (a compiled
        condition is a closure, which pickle cannot carry)."""
        return _buy_rule, (self.card, self.when)


def _buy_rule(card: int, when: str | None) -> BuyRule:
    return BuyRule(card, when, None if when is None else compile_condition(when))


@dataclass(frozen=True)
class Strategy:
    """A parsed, validated strategy file."""

    name: str
    buy: tuple[BuyRule, ...]
    description: str = ""
    play: tuple[int, ...] = ()
    discard: tuple[int, ...] | None = None
    trash: tuple[int, ...] | None = None
    options: Options = Options()
    source: str = "<strategy>"
    policy: BuyPolicy | None = field(default=None, compare=False, repr=False)
    """A learned policy that may overrule the buy rules (the file's ``policy``)."""


# ------------------------------------------------------------------ parsing
def _type_name(value: object) -> str:
    return {str: "a string", int: "an integer", bool: "a boolean", float: "a number",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)  # fmt: skip


def _card(value: object, where: str) -> int:
    if not isinstance(value, str):
        raise StrategyError(f"{where}: a card name must be a string, not {_type_name(value)}")
    try:
        return C.card_id(value)
    except ParseError:
        raise StrategyError(
            f"{where}: unknown card {value!r}; not one of the 32 base-set cards") from None


def _card_list(value: object, where: str, actions_only: bool = False) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise StrategyError(f"{where}: must be a list of card names, not {_type_name(value)}")
    out: list[int] = []
    for i, item in enumerate(value, 1):
        card = _card(item, f"{where} item {i}")
        if actions_only and not IS_ACTION[card]:
            raise StrategyError(f"{where} item {i}: {NAME[card]} is not an Action card")
        if card in out:
            raise StrategyError(f"{where} item {i}: {NAME[card]} is listed twice")
        out.append(card)
    return tuple(out)


def parse_strategy(data: dict[str, Any], source: str = "<strategy>",
                   default_name: str = "strategy", folder: Path | None = None) -> Strategy:
    """Validate decoded TOML ``data``; raise StrategyError naming ``source``. A relative
    ``policy`` path is read from ``folder`` (the file's; None: the working directory)."""
    unknown = [k for k in data if k not in TOP_LEVEL_KEYS]
    if unknown:
        raise StrategyError(f"{source}: unknown top-level key {unknown[0]!r} "
                            f"(allowed: {', '.join(TOP_LEVEL_KEYS)})")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise StrategyError(f"{source}: 'name' must be a non-empty string")
    if UNSHOWN.search(name):
        what = "'name'" if "name" in data else "its file's name (its bot's, without a 'name')"
        raise StrategyError(f"{source}: {what} must hold no control characters: {name!r}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise StrategyError(f"{source}: 'description' must be a string, "
                            f"not {_type_name(description)}")
    if "buy" not in data:
        raise StrategyError(f"{source}: no buy rules; add [[buy]] tables with a 'card'")
    raw_rules = data["buy"]
    if not isinstance(raw_rules, list) or not all(isinstance(r, dict) for r in raw_rules):
        raise StrategyError(f"{source}: 'buy' must be an array of tables ([[buy]] sections)")
    if not raw_rules:
        raise StrategyError(f"{source}: no buy rules ('buy' is empty); add [[buy]] tables "
                            f"with a 'card'")
    rules: list[BuyRule] = []
    for i, raw in enumerate(raw_rules, 1):
        where = f"{source}: buy rule {i}"
        bad = [k for k in raw if k not in RULE_KEYS]
        if bad:
            late = (f"; {bad[0]!r} is a top-level key, which TOML puts in this [[buy]] table "
                    f"when it comes after one: move it above the first [[buy]]"
                    if bad[0] in TOP_LEVEL_KEYS else "")
            raise StrategyError(f"{where}: unknown field {bad[0]!r} (allowed: card, when)"
                                f"{late}")
        if "card" not in raw:
            raise StrategyError(f"{where}: missing field 'card'")
        card = _card(raw["card"], f"{where} field 'card'")
        when = raw.get("when")
        cond = None
        if when is not None:
            if not isinstance(when, str):
                raise StrategyError(f"{where} field 'when': must be a string, "
                                    f"not {_type_name(when)}")
            cond = compile_condition(when, f"{where} field 'when'")
        rules.append(BuyRule(card, when, cond))
    play = _card_list(data.get("play", []), f"{source}: 'play'", actions_only=True)
    discard = (_card_list(data["discard"], f"{source}: 'discard'")
               if "discard" in data else None)
    trash = _card_list(data["trash"], f"{source}: 'trash'") if "trash" in data else None
    raw_opts = data.get("options", {})
    if not isinstance(raw_opts, dict):
        raise StrategyError(f"{source}: 'options' must be a table ([options])")
    opts: dict[str, Any] = {}
    for key, value in raw_opts.items():
        want = OPTION_TYPES.get(key)
        if want is None:
            raise StrategyError(f"{source}: options: unknown option {key!r} "
                                f"(known: {', '.join(OPTION_TYPES)})")
        if type(value) is not want:
            raise StrategyError(f"{source}: options.{key}: must be {_type_name(want())}, "
                                f"not {_type_name(value)}")
        if isinstance(value, int) and value < 0:
            raise StrategyError(f"{source}: options.{key}: must not be negative")
        opts[key] = value
    policy = _policy(data["policy"], source, folder) if "policy" in data else None
    return Strategy(
        name=name.strip(), buy=tuple(rules), description=description, play=play,
        discard=discard, trash=trash, options=Options(**opts), source=source,
        policy=policy,
    )  # fmt: skip


def policy_path(value: str, folder: Path | None) -> Path:
    """Where a strategy file's ``policy = value`` points: relative to ``folder`` (the
    file's; None: the working directory) unless absolute."""
    path = Path(value)
    return path if folder is None or path.is_absolute() else folder / path


def _policy(value: object, source: str, folder: Path | None) -> BuyPolicy:
    """The learned buy policy a strategy file names, read and validated."""
    if not isinstance(value, str) or not value.strip():
        raise StrategyError(f"{source}: 'policy' must be the path of a buy policy file, "
                            f"not {_type_name(value)}")
    try:
        return BuyPolicy.load(policy_path(value, folder))
    except ConfigError as exc:
        raise StrategyError(f"{source}: 'policy': {exc}") from None


def parse_strategy_text(text: str, source: str = "<strategy>",
                        default_name: str = "strategy", folder: Path | None = None) -> Strategy:
    """Parse the text of a strategy file (``folder``: where its ``policy`` path starts)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{source}: not valid TOML: {exc}") from None
    except (RecursionError, MemoryError):
        raise StrategyError(f"{source}: not a strategy file: nested too deeply") from None
    return parse_strategy(data, source, default_name, folder)


def read_text(path: Path, what: str) -> str:
    """The text of the ``what`` file (a strategy file, a book file) at ``path``, or a
    StrategyError saying why it cannot be read."""
    if path.exists() and not path.is_file() and not path.is_dir():
        raise StrategyError(f"{path}: not a {what} but a pipe, socket or device (a "
                            f"{what} is a text file)")  # reading it would wait forever
    try:  # a byte-order mark (as Windows Notepad writes) is no part of the text
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise StrategyError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise StrategyError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None


def read_strategy(path: str | Path) -> Strategy:
    """Read and validate a strategy file."""
    p = Path(path)
    # A file name need not be UTF-8; the name it gives a strategy must be text.
    stem = os.fsencode(p.stem).decode("utf-8", "replace")
    return parse_strategy_text(read_text(p, "strategy file"), str(p), stem, p.parent)


def load_strategy(path: str | Path) -> StrategyBot:
    """A bot playing the strategy file at ``path``."""
    return StrategyBot(read_strategy(path))


# ------------------------------------------------------------------ the bot
_VILLAGES = (C.VILLAGE, C.FESTIVAL)  # +2 Actions: play first
_CANTRIPS = (C.LABORATORY, C.MARKET, C.SPY)  # +1 Action
_GAIN_PREF_TREASURE = 2
_Decide = Callable[[DominionState, int], Action]


def _learned_buy(learned: BuyPolicy, state: DominionState, p: int, proposed: int) -> Action:
    card = learned.choose(state, p, proposed)
    return END_A if card == NOTHING else BUY_A[card]


def _nonterminal(card: int) -> bool:
    return C.CARDS[card].plus_actions > 0


_SITUATIONAL = frozenset({C.CELLAR, C.CHAPEL, C.LIBRARY, C.MINE, C.MONEYLENDER, C.REMODEL,
                          C.THRONE_ROOM})
"""Action cards whose worth to play (:meth:`StrategyBot._value`) depends on the position:
every other Action card is always worth playing."""
_LONE_PLAY: tuple[Action | None, ...] = tuple(
    PLAY_A[c] if IS_ACTION[c] and c not in _SITUATIONAL else None
    for c in range(len(IS_ACTION)))


def lone_play(hand: list[int]) -> Action | None:
    """The action phase's answer of every strategy bot for a hand whose Action cards are
    all copies of one card that is always worth playing (not :data:`_SITUATIONAL`): play
    it; None for any other hand. A shortcut for the most common action phases of a money
    deck (a Smithy, or two Witches, in hand).

    >>> lone_play([C.COPPER, C.SMITHY, C.ESTATE]) == lone_play([C.SMITHY, C.SMITHY])
    True
    >>> lone_play([C.COPPER, C.SMITHY, C.ESTATE])
    Action.parse('play Smithy')
    >>> lone_play([C.SMITHY, C.MARKET]) is lone_play([C.REMODEL]) is lone_play([]) is None
    True
    """
    found = -1
    for c in hand:
        if IS_ACTION[c] and c != found:
            if found >= 0:
                return None
            found = c
    return _LONE_PLAY[found] if found >= 0 else None


class StrategyBot:
    """Plays a :class:`Strategy`: buys by its rules, decides everything else by
    defaults adjusted by its lists and options. Deterministic; every answer is
    legal (the first legal action is the fallback, counted in ``fallbacks``)."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = strategy.name
        self.fallbacks = 0
        self.learned: BuyPolicy | None = strategy.policy
        """A learned policy that may overrule the buy rules (:mod:`dominari.bots.learned`)."""
        self._play = strategy.play
        self._discard = DEFAULT_DISCARD if strategy.discard is None else strategy.discard
        self._discard_set = frozenset(self._discard)
        self._trash = DEFAULT_TRASH if strategy.trash is None else strategy.trash
        self._opts = strategy.options
        self._derive()

    _DERIVED = ("_rules", "_gain_rules", "_decide", "_by_kind")
    """What :meth:`_derive` builds from the strategy: compiled conditions (closures) and
    bound methods, which a pickle leaves out and builds again."""

    def _derive(self) -> None:
        strategy = self.strategy
        self._rules: tuple[tuple[int, int, Expr | None, Action], ...] = tuple(
            (r.card, COST[r.card], r.cond, BUY_A[r.card]) for r in strategy.buy
        )
        self._gain_rules: tuple[tuple[int, int, Expr | None], ...] = tuple(
            (r.card, COST[r.card], r.cond) for r in strategy.buy
        )
        self._decide: dict[str, _Decide] = {
            "action": self._action_phase,
            "cellar": self._cellar,
            "chapel": self._chapel,
            "militia": self._militia,
            "moat": self._moat,
            "chancellor": self._chancellor,
            "library": self._library,
            "gain": self._gain,
            "remodel": self._remodel,
            "mine": self._mine,
            "mine-gain": self._mine_gain,
            "throne-room": self._throne,
            "bureaucrat": self._bureaucrat,
            "spy": self._spy,
            "thief": self._thief,
            "thief-gain": self._thief_gain,
        }
        self._by_kind: dict[int, _Decide] = {
            kind: self._decide[name] for kind, name in KIND_NAMES.items()}
        """The deciders of pending decisions by kind id (``Frame.kind``)."""

    def __repr__(self) -> str:
        return f"StrategyBot({self.name!r})"

    def __getstate__(self) -> dict[str, Any]:
        """Everything but what :meth:`_derive` builds (a pickle, ``copy.deepcopy``): the
        strategy's buy rules compile their conditions again when loaded."""
        return {k: v for k, v in self.__dict__.items() if k not in self._DERIVED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._derive()

    def reset(self, seed: int) -> None:
        """Nothing to reset: the bot is deterministic (the seed is checked all the same)."""
        check_seed(seed)

    # -------------------------------------------------------------- dispatch
    def act(self, state: DominionState) -> Action:
        """The strategy's action; a finished game raises
        :class:`~dominari.core.errors.IllegalActionError`, a Dominations state
        :class:`~dominari.core.errors.ConfigError`."""
        try:
            if not state.stack and state.phase == BUY_PHASE:
                # Hot path: walk the buy rules.
                coins = state.coins
                supply = state.supply
                p = state.turn_player
                learned = self.learned
                for card, cost, cond, action in self._rules:
                    if cost <= coins and supply[card] > 0 and (
                            cond is None or cond(state, p, coins)):
                        return (action if learned is None
                                else _learned_buy(learned, state, p, card))
                return END_A if learned is None else _learned_buy(learned, state, p, NOTHING)
            p = state.current_player()
            stack = state.stack
            decide = self._by_kind.get(stack[-1].kind) if stack else self._action_phase
            answer = decide(state, p) if decide is not None else None
            if answer is not None and state.is_legal(answer):
                return answer
            first = state.legal_actions()[0]
            self.fallbacks += 1  # (counted once the fallback is there: not a finished game)
            return first
        except Exception as exc:  # misuse is told apart only now: a decision pays nothing for it
            raise_misuse(exc, state, "dominion", self.name)

    # ------------------------------------------------------------- helpers
    def _late(self, s: DominionState) -> bool:
        n = self._opts.late_game_provinces
        if n is None:
            n = 4 if s.num_players == 2 else 6
        return s.supply[PROVINCE] <= n

    def _gain_choice(self, s: DominionState, p: int, limit: int) -> int:
        """The card to gain costing up to ``limit``: the buy rules with coins = limit,
        then the most expensive useful card; -1 if nothing can be gained."""
        supply = s.supply
        for card, cost, cond in self._gain_rules:
            if cost <= limit and supply[card] > 0 and (cond is None or cond(s, p, limit)):
                return card
        late = self._late(s)
        best, best_key = -1, (-1, -1)
        for card in s.in_supply:
            if supply[card] <= 0 or COST[card] > limit or card == CURSE:
                continue
            if IS_VICTORY[card]:
                pref = 3 if late else 0
            elif IS_TREASURE[card]:
                pref = _GAIN_PREF_TREASURE if card != COPPER else 0
            else:
                pref = 1
            key = (COST[card], pref)
            if key > best_key:
                best, best_key = card, key
        if best < 0 and supply[CURSE] > 0:
            best = CURSE
        return best

    def _chapel_target(self, s: DominionState, p: int, hand: list[int]) -> int:
        late = self._late(s)
        for card in self._trash:
            if card in hand:
                if card == ESTATE and late:
                    continue
                if card == COPPER and s.treasure_value(p) - 1 < self._opts.chapel_min_money:
                    continue
                if IS_TREASURE[card] and card != COPPER and (
                        s.treasure_value(p) - C.COINS[card] < self._opts.chapel_min_money):
                    continue
                return card
        return -1

    def _remodel_target(self, s: DominionState, hand: list[int]) -> int:
        """A card worth remodelling, or -1."""
        late = self._late(s)
        if self._opts.remodel_gold and late and GOLD in hand and s.supply[PROVINCE] > 0:
            return GOLD
        for card in self._trash:
            if card in hand and not IS_TREASURE[card] and not (card == ESTATE and late):
                return card
        return -1

    def _mine_target(self, s: DominionState, hand: list[int]) -> int:
        if SILVER in hand and s.supply[GOLD] > 0:
            return SILVER
        if COPPER in hand and s.supply[SILVER] > 0:
            return COPPER
        return -1

    def _value(self, s: DominionState, p: int, card: int, hand: list[int]) -> float:
        """Rough worth of playing ``card`` now, in coins; <= 0 means it would do nothing
        useful. ``hand`` still holds the card."""
        if card == C.WITCH:
            return 4.5 if s.supply[CURSE] > 0 else 2.0
        if card == C.COUNCIL_ROOM:
            return 3.8
        if card == C.SMITHY:
            return 3.0
        if card == C.LIBRARY:
            return max(0.0, 7 - (len(hand) - 1) + 0.1)
        if card == C.ADVENTURER:
            return 3.2
        if card == C.MILITIA:
            return 2.9
        if card == C.MONEYLENDER:
            return 2.5 if COPPER in hand else 0.0
        if card == C.WOODCUTTER:
            return 2.2
        if card == C.CHANCELLOR:
            return 2.1
        if card == C.MINE:
            return 2.0 if self._mine_target(s, hand) >= 0 else 0.0
        if card in (C.BUREAUCRAT, C.MOAT, C.FEAST):
            return 2.0
        if card == C.WORKSHOP:
            return 1.5
        if card == C.REMODEL:
            return 1.8 if self._remodel_target(s, hand) >= 0 else 0.0
        if card == C.CHAPEL:
            return 3.5 if self._chapel_target(s, p, hand) >= 0 else 0.0
        if card == C.THIEF:
            return 1.0
        if card == C.CELLAR:
            return 0.5 if any(c in self._discard_set for c in hand) else 0.0
        if card == C.LABORATORY:
            return 2.5
        if card in (C.MARKET, C.FESTIVAL):
            return 2.0
        if card == C.SPY:
            return 1.3
        if card == C.VILLAGE:
            return 1.2
        if card == C.THRONE_ROOM:
            others = {c for c in hand if IS_ACTION[c] and c != C.THRONE_ROOM}
            if not others:
                return 0.0
            return 2 * max(self._value(s, p, c, hand) for c in others)
        return 1.0

    def _throne_target(self, s: DominionState, p: int, hand: list[int]) -> int:
        """The best card to play twice (Throne Room is in play, not in hand)."""
        targets = sorted({c for c in hand if IS_ACTION[c]})
        if not targets:
            return -1
        terminals = [c for c in hand if IS_ACTION[c] and not _nonterminal(c)
                     and c != C.THRONE_ROOM]
        if s.actions == 0 and terminals:
            # Actions from a doubled village / cantrip let the terminals be played too.
            givers = [c for c in targets if _nonterminal(c)]
            if givers:
                return max(givers, key=lambda c: (C.CARDS[c].plus_actions,
                                                  self._value(s, p, c, hand)))
        return max(targets, key=lambda c: self._value(s, p, c, hand))

    # ------------------------------------------------------------- decisions
    def _action_phase(self, s: DominionState, p: int) -> Action:
        hand = s.players[p].hand
        return lone_play(hand) or self._weigh_actions(s, p, hand)

    def _weigh_actions(self, s: DominionState, p: int, hand: list[int]) -> Action:
        """The action phase's choice, weighed: the Action to play next, or end."""
        for card in self._play:
            if card in hand:
                return PLAY_A[card]
        # Villages and cantrips first: they cost no Action.
        for card in _VILLAGES:
            if card in hand:
                return PLAY_A[card]
        if C.THRONE_ROOM in hand:
            others = [c for c in hand if IS_ACTION[c] and c != C.THRONE_ROOM]
            if others and all(_nonterminal(c) for c in others):
                return PLAY_A[C.THRONE_ROOM]
        for card in _CANTRIPS:
            if card in hand:
                return PLAY_A[card]
        if C.CELLAR in hand and any(c in self._discard_set for c in hand):
            return PLAY_A[C.CELLAR]
        # Terminals: the most valuable one that does something.
        best, best_value = -1, 0.0
        for card in sorted(set(hand)):
            if IS_ACTION[card] and not _nonterminal(card):
                v = self._value(s, p, card, hand)
                if v > best_value:
                    best, best_value = card, v
        return PLAY_A[best] if best >= 0 else END_A

    def _cellar(self, s: DominionState, p: int) -> Action:
        hand = s.players[p].hand
        for card in self._discard:
            if card in hand:
                return DISCARD_A[card]
        return DONE_A

    def _chapel(self, s: DominionState, p: int) -> Action:
        card = self._chapel_target(s, p, s.players[p].hand)
        return TRASH_A[card] if card >= 0 else DONE_A

    def _militia(self, s: DominionState, p: int) -> Action:
        hand = s.players[p].hand
        for card in self._discard:
            if card in hand:
                return DISCARD_A[card]
        # Dead Actions: terminals beyond what the hand's villages can play.
        terminals = sorted((c for c in hand if IS_ACTION[c] and not _nonterminal(c)),
                           key=lambda c: COST[c])
        givers = sum(1 for c in hand if C.CARDS[c].plus_actions >= 2)
        if len(terminals) > 1 + givers:
            return DISCARD_A[terminals[0]]
        # Then the cheapest card; on a tie an Action before a Treasure.
        card = min(hand, key=lambda c: (COST[c], not IS_ACTION[c]))
        return DISCARD_A[card]

    def _moat(self, s: DominionState, p: int) -> Action:
        if self._opts.moat and MOAT in s.players[p].hand:
            return REVEAL_A[MOAT]
        return PASS_A

    def _chancellor(self, s: DominionState, p: int) -> Action:
        return DISCARD_DECK_A if self._opts.chancellor and s.players[p].deck else PASS_A

    def _library(self, s: DominionState, p: int) -> Action:
        card = s.stack[-1].n  # the card drawn (the decision's frame, not described)
        return SET_ASIDE_A[card] if s.actions == 0 else KEEP_A[card]

    def _gain(self, s: DominionState, p: int) -> Action:
        """The card gained from the decision's source (Workshop, Feast, Remodel) costing up
        to its limit: a Province from a Remodel in the late game, else :meth:`_gain_choice`
        (none there: pass)."""
        f = s.stack[-1]  # the source and the cost limit
        limit = f.n
        if (f.card == C.REMODEL and limit >= COST[PROVINCE] and s.supply[PROVINCE] > 0
                and self._late(s)):
            return GAIN_A[PROVINCE]
        card = self._gain_choice(s, p, limit)
        return GAIN_A[card] if card >= 0 else PASS_A

    def _remodel(self, s: DominionState, p: int) -> Action:
        hand = s.players[p].hand
        card = self._remodel_target(s, hand)
        if card < 0:  # forced: the least useful card
            rank = {CURSE: -3, ESTATE: -2, COPPER: -1}
            card = min(hand, key=lambda c: (rank.get(c, COST[c]), c))
        return TRASH_A[card]

    def _mine(self, s: DominionState, p: int) -> Action:
        hand = s.players[p].hand
        card = self._mine_target(s, hand)
        if card < 0:
            card = max((c for c in hand if IS_TREASURE[c]), key=lambda c: COST[c])
        return TRASH_A[card]

    def _mine_gain(self, s: DominionState, p: int) -> Action:
        limit = s.stack[-1].n
        supply = s.supply
        for card in (GOLD, SILVER, COPPER):
            if COST[card] <= limit and supply[card] > 0:
                return GAIN_A[card]
        return PASS_A

    def _throne(self, s: DominionState, p: int) -> Action:
        card = self._throne_target(s, p, s.players[p].hand)
        return PLAY_A[card] if card >= 0 else PASS_A

    def _bureaucrat(self, s: DominionState, p: int) -> Action:
        hand = s.players[p].hand
        card = min((c for c in hand if IS_VICTORY[c]), key=lambda c: (COST[c], c))
        return TOPDECK_A[card]

    def _spy(self, s: DominionState, p: int) -> Action:
        d = s.decision()
        card = d.cards[0]
        junk = IS_VICTORY[card] or card in (CURSE, COPPER)
        if d.target == p:
            return DISCARD_A[card] if junk else KEEP_A[card]
        return KEEP_A[card] if junk else DISCARD_A[card]

    def _thief(self, s: DominionState, p: int) -> Action:
        d = s.decision()
        treasures = [c for c in d.cards if IS_TREASURE[c]]
        card = max(treasures, key=lambda c: COST[c])
        return TRASH_A[card]

    def _thief_gain(self, s: DominionState, p: int) -> Action:
        card = s.decision().cards[0]
        return GAIN_A[card] if card in (SILVER, GOLD) else PASS_A


__all__ = [
    "DEFAULT_DISCARD",
    "DEFAULT_TRASH",
    "BuyRule",
    "Options",
    "Strategy",
    "StrategyBot",
    "load_strategy",
    "parse_strategy",
    "parse_strategy_text",
    "read_strategy",
]
