"""The Dominations game state on the core protocol.

This module holds the turn loop (D-FLOW): ages of five turns per player in
initiative order, each turn a growth phase (D-GROW), a build phase (D-BUILD,
cities here; monuments come with the civilization tree) and a develop phase
(the civilization tree's issue fills it in; until then a turn ends after the
build phase). Between ages knowledge resets and hands refill (D-AGE-9); the
other end-of-age steps, setup drafts and final scoring arrive with the
whole-game issue and extend this same loop.

>>> s = DominationsState.new(DominationsConfig(players=2, seed=5))
>>> s.current_player() in (0, 1), s.phase_name
(True, 'growth')
>>> a = s.legal_actions()[0]
>>> s.apply(a); s.phase_name
'build'
>>> s.apply(s.parse_action("pass")); s.phase_name, s.turn_number
('growth', 2)
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dominari.core.errors import ConfigError, IllegalActionError, ParseError, RecordError
from dominari.core.game import TERMINAL, GameState, Outcome
from dominari.core.records import RECORD_FORMAT, RECORD_VERSION, check_header, replay
from dominari.dominations.board import (
    KIND_NAMES,
    LAND,
    LINK_ALL_SIDES,
    LINK_LOCUS,
    MAX_CITY_LEVEL,
    Board,
)
from dominari.dominations.data import (
    COLOURS,
    DOMAIN_NAMES,
    DOMAINS,
    GameData,
    default_data,
    load_data,
)
from dominari.dominations.data import VESTIGIUM as WILD
from dominari.dominations.grid import Cell, corner_vertex
from dominari.dominations.notation import (
    CITY,
    EXCHANGE,
    LINK_UNSPECIFIED,
    PASS,
    PASS_ACTION,
    PLACE,
    UPGRADE,
    VESTIGIUM,
    Action,
    format_action,
    link_text,
    parse,
)
from dominari.dominations.production import (
    Yield,
    placement_yields,
)
from dominari.dominations.rules import Rules

AGES = 3
TURNS_PER_AGE = 5
HAND_SIZE = 7
CITY_TOKENS = 15
START_LIMIT = 5
MAX_LIMIT = 20
CITY_LIMIT = (START_LIMIT, 10, 15, 20)
"""Reserve limit given by the highest city of a domain, by its level (D-BUILD-4)."""
CITY_COST = (0, 3, 6, 9)
"""Knowledge to build (level 1) or upgrade to level 2, 3 (D-BUILD-3)."""
CITY_INFLUENCE = (0, 1, 2, 3)
CAMPFIRE_RATE = (2, 1)
"""The campfire exchange: pay 2 of one domain, gain 1 of another (D-FLOW-3, D-DEV-9)."""

# Phases (decision kinds)
GROWTH = 0
ASSIGN = 1
"""Choosing the domain of produced vestigium knowledge, one unit at a time."""
BUILD = 2
DEVELOP = 3
OVER = 4
PHASE_NAMES = ("growth", "vestigium", "build", "develop", "over")

# Log events (tuples; first item the kind)
EV_TURN = 0  # (EV_TURN, player, age, turn in age)
EV_PLACE = 1  # (EV_PLACE, player, tile, cell key, rotation, link)
EV_YIELDS = 2  # (EV_YIELDS, tuple of Yield)
EV_KNOWLEDGE = 3  # (EV_KNOWLEDGE, player, domain, produced, kept, overflow vp)
EV_CITY = 4  # (EV_CITY, player, cell key, new level, cost paid, influence gained)
EV_EXCHANGE = 5  # (EV_EXCHANGE, player, paid domain, paid, gained domain, kept, overflow vp)
EV_PASS = 6  # (EV_PASS, player)
EV_ASSIGN = 7  # (EV_ASSIGN, player, domain)
EV_NO_PLACEMENT = 8  # (EV_NO_PLACEMENT, player)
EV_AGE_END = 9  # (EV_AGE_END, age)
EV_DRAW = 10  # (EV_DRAW, player, count)
EV_GAME_END = 11  # (EV_GAME_END,)


@dataclass(frozen=True)
class DominationsConfig:
    """What a game is started with; with the action list, a record."""

    players: int = 2
    seed: int = 0
    names: tuple[str, ...] = ()
    rules: Rules = field(default_factory=Rules)
    data: str | None = None
    """A folder of corrected component files (``--data``); None: the built-in data."""
    log: bool = True
    """Keep the event log (bots in simulation turn it off)."""

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise ConfigError(f"Dominations is for 2 to 4 players, not {self.players!r}")
        if self.names and len(self.names) != self.players:
            raise ConfigError(f"{len(self.names)} names given for {self.players} players")

    def player_names(self) -> tuple[str, ...]:
        return self.names or tuple(f"P{i + 1}" for i in range(self.players))

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "names": list(self.player_names()),
            "rules": self.rules.to_json(),
            "data": self.data,
        }

    @classmethod
    def from_json(cls, data: Any, *, log: bool = True) -> DominationsConfig:
        if not isinstance(data, dict):
            raise ConfigError("a Dominations config must be a JSON object")
        unknown = set(data) - {"players", "seed", "names", "rules", "data", "data_digest"}
        if unknown:
            raise ConfigError(f"unknown config field(s): {', '.join(sorted(unknown))}")
        players = data.get("players", 2)
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError(f"config seed must be an integer, not {seed!r}")
        names = data.get("names") or ()
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
            raise ConfigError("config names must be a list of strings")
        folder = data.get("data")
        if folder is not None and not isinstance(folder, str):
            raise ConfigError("config data must be a folder name or null")
        return cls(players=players, seed=seed, names=tuple(names),
                   rules=Rules.from_json(data.get("rules")), data=folder, log=log)


class PlayerState:
    """One player's board: knowledge, limits, city tokens, scores and tile hand."""

    __slots__ = (
        "bonuses",
        "city_discount",
        "city_limit",
        "exchange_rates",
        "hand",
        "influence",
        "knowledge",
        "limit_bonus",
        "overflow",
        "overflow_vp",
        "tokens",
        "turns",
        "vp",
    )

    def __init__(self) -> None:
        self.knowledge = [0] * 6
        self.city_limit = [START_LIMIT] * 6
        """Limit from the highest city of each domain (D-BUILD-4)."""
        self.limit_bonus = [0] * 6
        """Sum of reserve-limit raises from cards (data spec §2.3)."""
        self.tokens = CITY_TOKENS
        self.influence = 0
        self.vp = 0
        self.overflow_vp = 0
        """VP earned from overflow (D-GROW-10), for the score breakdown."""
        self.hand: list[int] = []
        self.overflow = 0
        """Bitmask of domains that already gave their overflow VP in this phase."""
        self.bonuses = (0, 0, 0, 0)
        """Production bonuses: settlement +same, +vestigium; city +same, +vestigium."""
        self.city_discount = 0
        self.exchange_rates: list[tuple[int, int, int]] = [(-1, *CAMPFIRE_RATE)]
        """(domain or -1 for any, pay, gain) — the campfire, later also cards."""
        self.turns = 0

    def limit(self, domain: int) -> int:
        """The reserve limit of ``domain`` (D-GROW-9): cities and cards, at most 20."""
        return min(MAX_LIMIT, self.city_limit[domain] + self.limit_bonus[domain])

    def limits(self) -> list[int]:
        return [self.limit(d) for d in range(6)]

    def exchange_price(self, domain: int) -> tuple[int, int]:
        """The cheapest (pay, gain) to exchange away ``domain``."""
        best = (0, 0)
        for dom, pay, gain in self.exchange_rates:
            if (dom < 0 or dom == domain) and (best[0] == 0 or pay * best[1] < best[0] * gain):
                best = (pay, gain)
        return best

    def copy(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.knowledge = self.knowledge.copy()
        p.city_limit = self.city_limit.copy()
        p.limit_bonus = self.limit_bonus.copy()
        p.tokens = self.tokens
        p.influence = self.influence
        p.vp = self.vp
        p.overflow_vp = self.overflow_vp
        p.hand = self.hand.copy()
        p.overflow = self.overflow
        p.bonuses = self.bonuses
        p.city_discount = self.city_discount
        p.exchange_rates = self.exchange_rates.copy()
        p.turns = self.turns
        return p


class DominationsState(GameState):
    """A game of Dominations in progress. Create with :meth:`new` or :meth:`from_record`."""

    game_name = "dominations"

    __slots__ = (
        "_tile_index",
        "age",
        "assign_queue",
        "batch",
        "board",
        "config",
        "data",
        "events",
        "history",
        "num_players",
        "order",
        "phase",
        "players",
        "rng",
        "round",
        "rules",
        "seat",
        "supply",
        "turn_number",
    )

    def __init__(self) -> None:  # use new() / from_record()
        self.config = DominationsConfig()
        self.data: GameData = default_data()
        self.rules = self.config.rules
        self.num_players = 0
        self.players: list[PlayerState] = []
        self.board = Board()
        self.supply: list[int] = []
        self.rng = random.Random(0)
        self.order: list[int] = []
        self.age = 1
        self.round = 0
        self.seat = 0
        self.phase = GROWTH
        self.turn_number = 0
        self.batch: list[list[int]] = []
        """Knowledge produced by the current placement, per player per domain 0–6."""
        self.assign_queue: list[int] = []
        """Players who still have produced vestigium to assign, in order."""
        self.history: list[Action] = []
        self.events: list[tuple[Any, ...]] = []
        self._tile_index: dict[str, int] = {}

    # -- setup ------------------------------------------------------------------------------

    @classmethod
    def new(cls, config: DominationsConfig, data: GameData | None = None) -> DominationsState:
        """Set up a game (D-SET-1, D-SET-4 … D-SET-6)."""
        s = cls()
        s.config = config
        s.rules = config.rules
        if data is None:
            data = load_data(config.data) if config.data is not None else default_data()
        s.data = data
        s._tile_index = {t.id.upper(): i for i, t in enumerate(data.tiles)}
        s.num_players = config.players
        s.rng = random.Random(config.seed)
        s.board = Board.with_cradle(data.cradle)
        s.players = [PlayerState() for _ in range(config.players)]
        s.supply = list(range(len(data.tiles)))
        s.rng.shuffle(s.supply)
        s.order = list(range(config.players))
        s.rng.shuffle(s.order)
        for p in s.order:
            s._draw(p, HAND_SIZE)
        s._start_turn()
        return s

    def _draw(self, player: int, count: int) -> None:
        """Draw up to ``count`` tiles from the top of the supply (rules §13.8)."""
        hand = self.players[player].hand
        n = min(count, len(self.supply))
        for _ in range(n):
            hand.append(self.supply.pop())
        if self.config.log and n:
            self.events.append((EV_DRAW, player, n))

    # -- protocol ---------------------------------------------------------------------------

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def mover(self) -> int:
        """The player whose turn it is (the decider may differ while assigning vestigium)."""
        return self.order[self.seat]

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == ASSIGN:
            return self.assign_queue[0]
        return self.order[self.seat]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == GROWTH:
            return self.placements() + self._exchanges()
        if phase == BUILD:
            return [*self._builds(), PASS_ACTION, *self._exchanges()]
        if phase == ASSIGN:
            acts = [Action(VESTIGIUM, d) for d in range(6)]
            if self.assign_queue[0] == self.mover:
                acts += self._exchanges()
            return acts
        return []

    def placements(self, tiles: Sequence[int] | None = None) -> list[Action]:
        """Every legal growth placement (D-GROW-1, D-GROW-2), from the kept frontier."""
        board = self.board
        hand = self.players[self.mover].hand if tiles is None else tiles
        all_sides = self.rules.all_sides
        out: list[Action] = []
        append = out.append
        for key in board.frontier:
            links = board.links(key, all_sides)
            for t in hand:
                for r in (0, 1, 2):
                    for link in links:
                        append(Action(PLACE, t, key, r, link))
        return out

    def _builds(self) -> list[Action]:
        p = self.mover
        ps = self.players[p]
        if ps.tokens <= 0:
            return []
        board = self.board
        know = ps.knowledge
        out = []
        discount = ps.city_discount
        cost1 = max(0, CITY_COST[1] - discount)
        for key, dom in board.settlement.items():
            owner = board.city_owner.get(key)
            if owner is None:
                if know[dom] >= cost1:
                    out.append(Action(CITY, key))
            elif owner == p:
                level = board.city_level[key]
                if level < MAX_CITY_LEVEL and know[dom] >= max(0, CITY_COST[level + 1] - discount):
                    out.append(Action(UPGRADE, key))
        return out

    def _exchanges(self) -> list[Action]:
        ps = self.players[self.mover]
        out: list[Action] = []
        for a in range(6):
            pay, _gain = ps.exchange_price(a)
            if pay and ps.knowledge[a] >= pay:
                out.extend(Action(EXCHANGE, a, b) for b in range(6) if b != a)
        return out

    def apply(self, action: Any) -> None:
        if not isinstance(action, Action):
            raise IllegalActionError(f"not a Dominations action: {action!r}")
        kind = action.kind
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("the game is over")
        if kind == EXCHANGE:
            self._exchange(action)
        elif phase == GROWTH:
            if kind != PLACE:
                raise IllegalActionError(
                    f"it is the growth phase: place a tile first (D-GROW-1), not "
                    f"{self.format_action(action)!r}")
            self._place(action)
        elif phase == ASSIGN:
            if kind != VESTIGIUM or not 0 <= action.a < 6:
                raise IllegalActionError(
                    f"{self.config.player_names()[self.assign_queue[0]]} must say which domain "
                    "their produced vestigium knowledge counts as, e.g. 'vestigium T'")
            self._assign(action.a)
        elif phase == BUILD:
            if kind == PASS:
                self._log(EV_PASS, self.mover)
                self._end_build()
            elif kind in (CITY, UPGRADE):
                self._city(action)
            else:
                raise IllegalActionError(
                    "it is the build phase: build a city, upgrade one of yours, or pass")
        else:  # pragma: no cover - no other phase takes decisions yet
            raise IllegalActionError(f"no decision is pending in phase {self.phase_name}")
        self.history.append(action)

    # -- growth -----------------------------------------------------------------------------

    def _check_place(self, action: Action) -> tuple[int, int, tuple[int, int, int], int]:
        """Validate a placement; return (tile, key, rotated corner colours, link)."""
        tile, key, rotation, link = action.a, action.b, action.c, action.d
        ps = self.players[self.mover]
        tiles = self.data.tiles
        if not 0 <= tile < len(tiles) or tile not in ps.hand:
            name = tiles[tile].id if 0 <= tile < len(tiles) else str(tile)
            raise IllegalActionError(f"tile {name} is not in your hand (hand: "
                                     f"{', '.join(tiles[t].id for t in ps.hand) or 'empty'})")
        if rotation not in (0, 1, 2):
            raise IllegalActionError(f"rotation must be 0, 1 or 2, not {rotation}")
        board = self.board
        if key not in board.frontier:
            cell = Cell.from_key(key)
            if board.is_filled(key):
                why = "it is already filled"
            elif key in board.blocked:
                why = "it lies against a closed monument side (D-GROW-2)"
            else:
                why = "none of its sides lies fully against the cradle or a placed tile (D-GROW-2)"
            raise IllegalActionError(f"no tile may go on {cell}: {why}")
        links = board.links(key, self.rules.all_sides)
        if link not in links:
            raise IllegalActionError(self._link_error(key, link, links))
        t = tiles[tile]
        corners = t.corners
        colours = (corners[(0 - rotation) % 3], corners[(1 - rotation) % 3],
                   corners[(2 - rotation) % 3])
        return tile, key, colours, link

    def _link_error(self, key: int, link: int, links: Sequence[int]) -> str:
        cell = Cell.from_key(key)
        options = " or ".join(repr(link_text(key, x)) for x in links if link_text(key, x))
        if links and links[0] >= LINK_LOCUS and links[0] != LINK_ALL_SIDES:
            return (f"placing on {cell} completes a locus, which must be scored instead of a "
                    f"connection (D-GROW-7): say {options}")
        if link >= LINK_LOCUS and link != LINK_ALL_SIDES:
            v = corner_vertex(key, link - LINK_LOCUS)
            return f"placing on {cell} does not complete a locus at {Cell.from_key(v)}"
        if link == LINK_UNSPECIFIED:
            return f"placing on {cell} touches several tiles: choose the connection, {options}"
        if self.rules.all_sides:
            return "with connection=all-sides every touching side scores: leave out 'via'"
        return f"{link_text(key, link)!r} is not a side of {cell} against a placed tile: {options}"

    def preview(self, action: Action) -> list[Yield]:
        """What the placement ``action`` would produce, item by item, without doing it."""
        if action.kind != PLACE:
            raise IllegalActionError("only a placement can be previewed")
        tile, key, colours, link = self._check_place(action)
        return placement_yields(self.board, key, colours, self.data.tiles[tile].settlement,
                                link, self.mover, self._bonuses())

    def _bonuses(self) -> list[tuple[int, int, int, int]]:
        return [p.bonuses for p in self.players]

    def _place(self, action: Action) -> None:
        if self.phase != GROWTH:
            raise IllegalActionError("a tile can only be placed in your growth phase")
        tile, key, colours, link = self._check_place(action)
        mover = self.mover
        settlement = self.data.tiles[tile].settlement
        yields = placement_yields(self.board, key, colours, settlement, link, mover,
                                  self._bonuses())
        self.players[mover].hand.remove(tile)
        self.board.fill(key, LAND, colours, settlement, tile, action.c)
        if self.config.log:
            self.events.append((EV_PLACE, mover, tile, key, action.c, link))
            self.events.append((EV_YIELDS, tuple(yields)))
        batch = [[0] * 7 for _ in range(self.num_players)]
        for y in yields:
            batch[y.player][y.domain] += y.amount
        self.batch = batch
        queue = [p for p in self._turn_order_from(mover) if batch[p][WILD]]
        if queue:
            self.assign_queue = queue
            self.phase = ASSIGN
        else:
            self._commit_batch()

    def _turn_order_from(self, player: int) -> list[int]:
        order = self.order
        i = order.index(player)
        return order[i:] + order[:i]

    def _assign(self, domain: int) -> None:
        p = self.assign_queue[0]
        row = self.batch[p]
        row[WILD] -= 1
        row[domain] += 1
        self._log(EV_ASSIGN, p, domain)
        if row[WILD] == 0:
            self.assign_queue.pop(0)
            if not self.assign_queue:
                self._commit_batch()

    def _commit_batch(self) -> None:
        """Add the produced knowledge (limits, overflow VP); the growth phase is over."""
        for p in self._turn_order_from(self.mover):
            row = self.batch[p]
            for d in range(6):
                if row[d]:
                    self._add(p, d, row[d])
        self.batch = []
        self.assign_queue = []
        self._enter(BUILD)

    def _add(self, player: int, domain: int, amount: int) -> tuple[int, int]:
        """Add knowledge under the reserve limit (D-GROW-9) with overflow VP (D-GROW-10).

        Returns (kept, overflow VP gained).
        """
        ps = self.players[player]
        limit = ps.limit(domain)
        before = ps.knowledge[domain]
        after = before + amount
        vp = 0
        if after > limit:
            if limit >= MAX_LIMIT and not ps.overflow >> domain & 1:
                ps.overflow |= 1 << domain
                vp = 1
                ps.vp += 1
                ps.overflow_vp += 1
            after = limit
        ps.knowledge[domain] = after
        if self.config.log:
            self.events.append((EV_KNOWLEDGE, player, domain, amount, after - before, vp))
        return after - before, vp

    # -- build ------------------------------------------------------------------------------

    def city_cost(self, player: int, level: int) -> int:
        """Knowledge to bring a city to ``level`` (1 = build), after reductions (D-BUILD-5)."""
        return max(0, CITY_COST[level] - self.players[player].city_discount)

    def _city(self, action: Action) -> None:
        p = self.mover
        ps = self.players[p]
        key = action.a
        board = self.board
        cell = Cell.from_key(key) if key >= 0 else key
        if key not in board.settlement:
            what = "is empty" if not board.is_filled(key) else "has no settlement"
            raise IllegalActionError(f"no city can go on {cell}: it {what} (D-BUILD-2)")
        if ps.tokens <= 0:
            raise IllegalActionError("you have no city tokens left (D-BUILD-3, D-FAQ-1)")
        dom = board.settlement[key]
        owner = board.city_owner.get(key)
        if action.kind == CITY:
            if owner is not None:
                whose = "your" if owner == p else f"{self.config.player_names()[owner]}'s"
                raise IllegalActionError(f"{cell} already has {whose} city: "
                                         + ("upgrade it instead" if owner == p else
                                            "cities go on empty settlements (D-BUILD-2)"))
            level = 1
        else:
            if owner != p:
                raise IllegalActionError(f"you have no city on {cell} to upgrade: only your own "
                                         "cities can be upgraded (D-BUILD-3)")
            level = board.city_level[key] + 1
            if level > MAX_CITY_LEVEL:
                raise IllegalActionError(f"your city on {cell} is already level 3 (D-BUILD-3)")
        cost = self.city_cost(p, level)
        if ps.knowledge[dom] < cost:
            raise IllegalActionError(
                f"{'building' if level == 1 else 'upgrading'} the city on {cell} costs {cost} "
                f"{DOMAIN_NAMES[dom]}, you have {ps.knowledge[dom]}")
        ps.knowledge[dom] -= cost
        ps.tokens -= 1
        if level == 1:
            board.build_city(key, p)
        else:
            board.upgrade_city(key)
        ps.influence += CITY_INFLUENCE[level]
        if CITY_LIMIT[level] > ps.city_limit[dom]:
            ps.city_limit[dom] = CITY_LIMIT[level]
        self._log(EV_CITY, p, key, level, cost, CITY_INFLUENCE[level])
        self._end_build()

    def _end_build(self) -> None:
        # The develop phase (civilization tree) is added by the next issue; a turn ends here.
        self._end_turn()

    # -- exchange ---------------------------------------------------------------------------

    def _exchange(self, action: Action) -> None:
        """The campfire exchange, a free action in one's own turn (D-FLOW-3, rules §13.4)."""
        if self.phase == ASSIGN and self.assign_queue[0] != self.mover:
            raise IllegalActionError("exchanges are only possible in your own turn (D-FLOW-3)")
        p = self.mover
        ps = self.players[p]
        a, b = action.a, action.b
        if not (0 <= a < 6 and 0 <= b < 6) or a == b:
            raise IllegalActionError("an exchange pays one domain and gains another")
        pay, gain = ps.exchange_price(a)
        if ps.knowledge[a] < pay:
            raise IllegalActionError(f"exchanging {DOMAIN_NAMES[a]} needs {pay}, "
                                     f"you have {ps.knowledge[a]}")
        ps.knowledge[a] -= pay
        kept, vp = self._add(p, b, gain)
        self._log(EV_EXCHANGE, p, a, pay, b, kept, vp)

    # -- turn flow --------------------------------------------------------------------------

    def _enter(self, phase: int) -> None:
        """Change phase; overflow VP is once per phase per domain (rules §13.5)."""
        self.phase = phase
        for ps in self.players:
            ps.overflow = 0

    def _start_turn(self) -> None:
        p = self.mover
        self.turn_number += 1
        self.players[p].turns += 1
        self._log(EV_TURN, p, self.age, self.round + 1)
        self._enter(GROWTH)
        if not self.board.frontier or not self.players[p].hand:
            # Rules §13.3: no legal placement, the growth phase is skipped.
            self._log(EV_NO_PLACEMENT, p)
            self._enter(BUILD)

    def _end_turn(self) -> None:
        self.seat += 1
        if self.seat == self.num_players:
            self.seat = 0
            self.round += 1
            if self.round == TURNS_PER_AGE:
                self._end_age()
                if self.phase == OVER:
                    return
        self._start_turn()

    def _end_age(self) -> None:
        """D-AGE-1 … D-AGE-9 as far as this engine goes: reset knowledge, refill hands."""
        self._log(EV_AGE_END, self.age)
        if self.age == AGES:
            self.phase = OVER
            self._log(EV_GAME_END)
            return
        for ps in self.players:
            ps.knowledge = [0] * 6  # D-AGE-9
        for p in self.order:
            self._draw(p, HAND_SIZE - len(self.players[p].hand))
        self.age += 1
        self.round = 0
        self.seat = 0

    def _log(self, *event: Any) -> None:
        if self.config.log:
            self.events.append(event)

    # -- results ----------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        vps = tuple(ps.vp for ps in self.players)
        rank_order = sorted(range(self.num_players),
                            key=lambda p: (-vps[p], self.order.index(p)))  # D-VOC-3, D-END-4
        ranks = [0] * self.num_players
        for i, p in enumerate(rank_order):
            ranks[p] = i + 1
        breakdown = [{"overflow": ps.overflow_vp} for ps in self.players]
        return Outcome(scores=vps, ranks=tuple(ranks), reason="game end",
                       turns=tuple(ps.turns for ps in self.players),
                       extra={"vp_breakdown": breakdown,
                              "influence": [ps.influence for ps in self.players]})

    # -- copies, views, notation ---------------------------------------------------------------

    def copy(self) -> DominationsState:
        s = DominationsState.__new__(DominationsState)
        s.config = self.config
        s.data = self.data
        s.rules = self.rules
        s.num_players = self.num_players
        s.players = [p.copy() for p in self.players]
        s.board = self.board.copy()
        s.supply = self.supply.copy()
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.order = self.order.copy()
        s.age = self.age
        s.round = self.round
        s.seat = self.seat
        s.phase = self.phase
        s.turn_number = self.turn_number
        s.batch = [row.copy() for row in self.batch]
        s.assign_queue = self.assign_queue.copy()
        s.history = self.history.copy()
        s.events = self.events.copy()
        s._tile_index = self._tile_index
        return s

    def determinize(self, player: int, rng: Any) -> DominationsState:
        """Only the order of the tile supply is hidden (rules §13.10): reshuffle it."""
        s = self.copy()
        rng.shuffle(s.supply)
        s.rng = random.Random(rng.getrandbits(64))
        return s

    def parse_action(self, text: str) -> Action:
        action = parse(text, self._tile_index)
        if action.kind == PLACE and action.d == LINK_UNSPECIFIED:
            links = self.board.links(action.b, self.rules.all_sides)
            if len(links) == 1:
                action = action._replace(d=links[0])
            elif self.board.is_open_cell(action.b):
                raise ParseError(self._link_error(action.b, LINK_UNSPECIFIED, links))
        elif action.kind == PLACE and self.rules.all_sides and action.d < LINK_LOCUS:
            raise ParseError("with connection=all-sides every touching side scores: "
                             "leave out 'via'")
        return action

    def format_action(self, action: Any) -> str:
        return format_action(action, self.tile_ids)

    @property
    def tile_ids(self) -> list[str]:
        return [t.id for t in self.data.tiles]

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything is public except the order of the tile supply (rules §13.10)."""
        names = self.config.player_names()
        tiles = self.data.tiles
        board = self.board
        cells = []
        for key in board.order:
            entry: dict[str, Any] = {
                "cell": str(Cell.from_key(key)),
                "kind": KIND_NAMES[board.kind[key]],
                "colours": [_colour(c) for c in board.colours[key]],
            }
            if key in board.tile:
                entry["tile"] = tiles[board.tile[key]].id
                entry["rotation"] = board.rotation[key]
            if key in board.settlement:
                entry["settlement"] = DOMAINS[board.settlement[key]]
            if key in board.city_owner:
                entry["city"] = {"owner": board.city_owner[key], "level": board.city_level[key]}
            cells.append(entry)
        current = self.current_player()
        return {
            "game": "dominations",
            "viewer": player,
            "age": self.age,
            "turn": self.round + 1,
            "phase": self.phase_name,
            "current_player": current,
            "initiative": list(self.order),
            "supply": len(self.supply),
            "players": [
                {
                    "name": names[p],
                    "knowledge": dict(zip(DOMAINS, ps.knowledge, strict=True)),
                    "limits": dict(zip(DOMAINS, ps.limits(), strict=True)),
                    "tokens": ps.tokens,
                    "influence": ps.influence,
                    "vp": ps.vp,
                    "hand": [tiles[t].id for t in ps.hand],
                }
                for p, ps in enumerate(self.players)
            ],
            "board": cells,
            "legal_actions": ([self.format_action(a) for a in self.legal_actions()]
                              if player is not None and player == current else []),
        }

    def record(self) -> dict[str, Any]:
        cfg = self.config.to_json()
        cfg["data_digest"] = self.data_digest()
        out = self.outcome()
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": "dominations",
            "config": cfg,
            "actions": [self.format_action(a) for a in self.history],
            "outcome": out.to_json() if out is not None else None,
        }

    def data_digest(self) -> str:
        """A short fingerprint of the component data the game was played with."""
        return data_digest(self.data)

    @classmethod
    def from_record(cls, record: Any, *, log: bool = False, upto: int | None = None
                    ) -> DominationsState:
        """Replay a record. Raises :class:`RecordError` saying what is wrong."""
        record = check_header(record, "dominations")
        try:
            config = DominationsConfig.from_json(record.get("config"), log=log)
            state = cls.new(config)
        except ConfigError as exc:
            raise RecordError(f"record config: {exc}") from None
        digest = record["config"].get("data_digest")
        if digest is not None and digest != state.data_digest():
            raise RecordError("the record was played with different component data "
                              f"(digest {digest}, this data {state.data_digest()}): "
                              "pass the same --data folder")
        replay(state, record, upto, state.parse_action)
        return state


def _colour(code: int) -> str | None:
    return None if code < 0 else COLOURS[code]


def data_digest(data: GameData) -> str:
    """SHA-256 (first 16 hex digits) of the tiles and cradle the board is built from."""
    payload = json.dumps(
        {
            "tiles": [[t.id, t.settlement, list(t.corners)] for t in data.tiles],
            "cradle": [[c.ccw, c.cw] for c in data.cradle],
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:16]
