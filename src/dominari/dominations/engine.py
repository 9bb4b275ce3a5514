"""The Dominations game state on the core protocol.

This module holds the turn loop (D-FLOW): ages of five turns per player in
initiative order, each turn a growth phase (D-GROW), a build phase (D-BUILD:
a city, a city upgrade or a monument level) and a develop phase (D-DEV: a
mastery card acquired or upgraded). Card effects (data spec §2) fire from
:mod:`~dominari.dominations.effects` and wait on a stack of pending
decisions: when several are due at once and their order matters their owner
chooses it (D-FLOW-5), vestigium knowledge gained is split unit by unit
(D-VOC-1), and a monument level paid in any mix of domains is paid in
steps. At the end of an age, end-of-age effects resolve, the influence
leader may copy a card and everyone scores their influence (D-AGE-3 … 6),
the domination cards are handed out and act in the next age (D-AGE-7,
D-AGE-8) and knowledge resets while hands are kept and refilled (D-AGE-9).
A game starts with the objective and monument drafts and the mulligans
(D-SET-3, D-SET-5) and ends with the objectives (D-END-2); every one of
these choices is a pending decision of the player it belongs to.

>>> s = DominationsState.new(DominationsConfig(players=2, seed=5))
>>> s.phase_name, [s.format_action(a) for a in s.legal_actions()]
('draft', ['choose O01', 'choose O15'])
>>> while s.phase_name != "growth":  # keep the first card offered, take no mulligan
...     s.apply(s.parse_action("done") if s.phase_name == "tiles" else s.legal_actions()[0])
>>> a = s.legal_actions()[0]
>>> s.apply(a); s.phase_name
'build'
>>> s.apply(s.parse_action("pass")); s.phase_name
'develop'
>>> s.apply(s.parse_action("pass")); s.phase_name, s.turn_number
('growth', 2)
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from dominari.core.checks import escaped, is_whole
from dominari.core.checks import names as check_names
from dominari.core.checks import player as player_index
from dominari.core.checks import seed as seed_value
from dominari.core.errors import ConfigError, IllegalActionError, ParseError, RecordError
from dominari.core.game import TERMINAL, GameState, Outcome
from dominari.core.records import (
    DEALT_AGAIN,
    RECORD_FORMAT,
    RECORD_VERSION,
    check_header,
    replay,
)
from dominari.core.rng import clone, shuffle
from dominari.dominations.board import (
    KIND_NAMES,
    LAND,
    LINK_ALL_SIDES,
    LINK_LOCUS,
    MAX_CITY_LEVEL,
    Board,
)
from dominari.dominations.cards import LEVEL_BASE, Catalog
from dominari.dominations.data import (
    ANY,
    CITY_DOMAIN,
    COLOURS,
    DOMAIN_NAMES,
    DOMAINS,
    GameData,
    LevelDef,
    Modifier,
    RoleDef,
    RoleEffect,
    Triggered,
    default_data,
    load_data,
)
from dominari.dominations.data import VESTIGIUM as WILD
from dominari.dominations.effects import (
    DOMINANCE,
    END_OF_AGE,
    FILL,
    GAIN,
    IMMEDIATE,
    INFLUENCE,
    ON_CITY,
    ON_DOMINATION,
    ON_NODUS,
    ON_PRODUCE,
    START_OF_AGE,
    START_OF_TURN,
    Due,
    Effects,
    Holdings,
    amount,
    compile_effects,
    order_matters,
    reduction,
)
from dominari.dominations.grid import Cell, Vertex, corner_vertex, key_text, side_neighbour
from dominari.dominations.monuments import (
    PlacedMonument,
    circle_options,
    controller,
    diamond_options,
    place_monument,
    rewards_for_city,
    rewards_on_placement,
)
from dominari.dominations.notation import (
    ACQUIRE,
    ADVANCE,
    AS_DOMAIN,
    CHOOSE,
    CITY,
    COPY,
    COPY_ADVANCE,
    DONE,
    DONE_ACTION,
    EXCHANGE,
    FIELD_COUNTS,
    LINK_UNSPECIFIED,
    MONUMENT,
    MULLIGAN,
    NO_TILE,
    ORDER,
    PASS,
    PASS_ACTION,
    PAY,
    PLACE,
    REACTIVATE,
    RESOLVE,
    RETURN,
    RETURN_ALL,
    UPGRADE,
    Action,
    format_action,
    link_text,
    order_code,
    order_players,
    parse,
    tile_code,
    tile_where,
)
from dominari.dominations.objectives import (
    describe_goal,
    goals_met,
    goals_progress,
    objective_vp,
)
from dominari.dominations.production import (
    Yield,
    placement_yields,
    reactivation_yields,
)
from dominari.dominations.rules import Rules
from dominari.dominations.tree import Pos, Tree, format_position

AGES = 3
TURNS_PER_AGE = 5
END_REASON = "game end"
"""How every game ends (``Outcome.reason``): after the third age."""
END_REASONS = frozenset({END_REASON})
HAND_SIZE = 7
CITY_TOKENS = 15
START_LIMIT = 5
MAX_LIMIT = 20
CITY_LIMIT = (START_LIMIT, 10, 15, 20)
"""Reserve limit given by the highest city of a domain, by its level (D-BUILD-4)."""
CITY_COST = (0, 3, 6, 9)
"""Knowledge to build (level 1) or upgrade to level 2, 3 (D-BUILD-3)."""
CITY_INFLUENCE = (0, 1, 2, 3)

# Phases of a turn and of the end of an age
GROWTH = 0
ASSIGN = 1
"""Choosing the domain of produced vestigium knowledge, one unit at a time."""
BUILD = 2
DEVELOP = 3
OVER = 4
START_TURN = 5
"""Start-of-turn effects resolving (D-FLOW-5)."""
AGE_END = 6
"""The end-of-age phase (D-AGE-1)."""
AGE_START = 7
"""Between ages: the Governor's order, keeping tiles, refills, mulligans, start-of-age
effects (ages 2 and 3)."""
SETUP = 8
"""The objective and monument drafts and the first mulligans (D-SET-3, D-SET-5)."""
PHASE_NAMES = ("growth", "vestigium", "build", "develop", "over", "start of turn",
               "end of age", "start of age", "setup")  # fmt: skip

# Pending decisions (frames of the stack; each a list whose first item is its kind)
F_EFFECTS = 0
"""``[F_EFFECTS, player, dues]``: effects due at once; the player orders them if it matters."""
F_GAIN = 1
"""``[F_GAIN, player, units left, source]``: gained vestigium to split (D-VOC-1)."""
F_PAY = 2
"""``[F_PAY, player, left to pay]``: a monument level's cost, any mix of domains."""
F_STEP = 3
"""``[F_STEP, step, args…]``: what the engine does once the frames above it are done."""
F_COPY = 4
"""``[F_COPY, player]``: the influence leader may copy a mastery card (D-AGE-3, D-AGE-4)."""
F_CHOOSE = 5
"""``[F_CHOOSE, player, what, options]``: keep one of two objectives (``what`` 0) or
monuments (1) drawn at setup (D-SET-3)."""
F_TILES = 6
"""``[F_TILES, player, mode]``: tiles going back under the supply (``T_*`` modes)."""
F_ORDER = 7
"""``[F_ORDER, player]``: the Governor chooses the initiative order of the new age."""
DECISION_NAMES = ("order effects", "vestigium", "pay", "step", "copy", "draft", "tiles",
                  "initiative")  # fmt: skip

# F_TILES modes
T_KEEP = 0
"""Between ages: return any of last age's tiles, keep the rest (D-AGE-9)."""
T_MULLIGAN = 1
"""The once-per-age mulligan: return any tiles, then draw back up (D-SET-5, D-AGE-9)."""
T_KEEP_ALL = 2
"""Prototype, between ages: keep last age's tiles (drawing fewer) or return them all (§14)."""
T_MULLIGAN_ALL = 3
"""Prototype: put the whole hand back and draw 7, then 6, then 5 (§14)."""
TILE_MODES = ("keep", "mulligan", "keep or return all", "mulligan")
PROTOTYPE_MULLIGANS = (7, 6, 5)
"""Prototype: the hand drawn by the first, second and third mulligan (§14)."""
OBJECTIVE, MONUMENT_CARD = 0, 1
"""``F_CHOOSE``'s ``what``."""

# Steps
S_GROWTH = 0
S_BUILD = 1
S_DEVELOP = 2
S_END_TURN = 3
S_TAKE_LEVEL = 4
S_DOMINANCE = 5
S_ROLES = 6
S_NEXT_AGE = 7
S_START_TURN = 8
S_INFLUENCE = 9
S_INFLUENCE_VP = 10
S_AFTER_GROWTH = 11
S_REFILL = 12
S_START_AGE = 13
S_FINAL = 14
S_DRAW = 15
S_MULLIGANS = 16
STEP_NAMES = ("growth", "build", "develop", "end turn", "take level", "dominance", "roles",
              "next age", "start turn", "influence", "influence vp", "after growth", "refill",
              "start age", "final", "draw", "mulligans")
"""The steps (``F_STEP`` frames) by their ``S_*`` number: what the engine does once the
decisions above them are made."""

# VP sources (the outcome's breakdown)
VP_SOURCES = ("mastery", "monuments", "roles", "overflow", "influence", "objectives", "tree")
VP_MASTERY, VP_MONUMENTS, VP_ROLES, VP_OVERFLOW, VP_INFLUENCE, VP_OBJECTIVES, VP_TREE = range(7)
"""``tree``: the prototype's final tree scoring (§14); 0 with the retail rules."""
COPY_VALUES = ((12, 3), (22, 6))
"""Influence up to 12 copies value 3 only, up to 22 values 3 and 6, more any (D-AGE-3)."""

# Log events (tuples; first item the kind)
EV_TURN = 0  # (EV_TURN, player, age, turn in age)
EV_PLACE = 1  # (EV_PLACE, player, tile, cell key, rotation, link)
EV_YIELDS = 2  # (EV_YIELDS, tuple of Yield)
EV_KNOWLEDGE = 3  # (EV_KNOWLEDGE, player, domain, produced or gained, kept, overflow vp)
EV_CITY = 4  # (EV_CITY, player, cell key, new level, cost paid, influence gained)
EV_EXCHANGE = 5  # (EV_EXCHANGE, player, paid domain, paid, gained domain, kept, overflow vp)
EV_PASS = 6  # (EV_PASS, player, phase)
EV_ASSIGN = 7  # (EV_ASSIGN, player, domain)
EV_NO_PLACEMENT = 8  # (EV_NO_PLACEMENT, player)
EV_AGE_END = 9  # (EV_AGE_END, age)
EV_DRAW = 10  # (EV_DRAW, player, count)
EV_GAME_END = 11  # (EV_GAME_END,)
EV_ACQUIRE = 12  # (EV_ACQUIRE, player, copy code, position, cost paid, vp)
EV_ADVANCE = 13  # (EV_ADVANCE, player, skill index, cost paid, vp)
EV_LEVEL = 14  # (EV_LEVEL, player, level index, position, vp)
EV_MONUMENT_TILE = 15  # (EV_MONUMENT_TILE, player, monument index, tile code)
EV_PAY = 16  # (EV_PAY, player, domain, amount)
EV_EFFECT = 17  # (EV_EFFECT, player, source code, effect index)
EV_VP = 18  # (EV_VP, player, amount, source code or -1, vp source kind)
EV_INFLUENCE = 19  # (EV_INFLUENCE, player, amount, source code or -1)
EV_REWARD = 20  # (EV_REWARD, player, vp, monument index, cell key)
EV_ROLE = 21  # (EV_ROLE, player, domain, vp)
EV_COPY = 22  # (EV_COPY, player, copy code or -1, skill index, position or None, vp)
EV_INFLUENCE_VP = 23  # (EV_INFLUENCE_VP, player, vp)
EV_CHOOSE = 24  # (EV_CHOOSE, player, what, index)
EV_RETURN = 25  # (EV_RETURN, player, tile)
EV_ORDER = 26  # (EV_ORDER, player, new order tuple)
EV_REACTIVATE = 27  # (EV_REACTIVATE, player, cell key, link)
EV_OBJECTIVE = 28  # (EV_OBJECTIVE, player, objective index, goals met tuple, vp)
EV_TREE_VP = 29  # (EV_TREE_VP, player, vp)
EV_ROLE_BACK = 30  # (EV_ROLE_BACK, player, domain): a one-shot role used goes back
EV_MULLIGAN = 31  # (EV_MULLIGAN, player, tiles returned, mulligans so far)


@dataclass(frozen=True)
class DominationsConfig:
    """What a game is started with; with the action list, a record. ``seed=None`` (the
    default) picks a seed at random, as a Dominion state does: the config then holds it,
    so that the game's record replays it."""

    players: int = 2
    seed: int | None = None
    names: tuple[str, ...] = ()
    rules: Rules = field(default_factory=Rules)
    data: str | None = None
    """A folder of corrected component files (``--data``); None: the built-in data."""
    monuments: tuple[str, ...] = ()
    """The monuments in play (ids), skipping the monument draft. Empty: each player keeps one
    of two drawn (D-SET-3; prototype: as many as players, drawn at random)."""
    objectives: tuple[str, ...] = ()
    """Each player's objective (ids, by seat), skipping the objective draft. Empty: each
    player keeps one of two drawn (D-SET-3)."""
    log: bool = True
    """Keep the event log (bots in simulation turn it off)."""

    def __post_init__(self) -> None:
        if not is_whole(self.players) or not 2 <= int(self.players) <= 4:
            raise ConfigError(f"Dominations is for 2 to 4 players, not {self.players!r}")
        object.__setattr__(self, "players", int(self.players))
        object.__setattr__(self, "seed", random.SystemRandom().getrandbits(63)
                           if self.seed is None else seed_value(self.seed, "the seed"))
        if not isinstance(self.rules, Rules):
            raise ConfigError(f"rules must be a Rules object (Rules.parse, Rules.from_json, "
                              f"Rules().with_options), not {type(self.rules).__name__}")
        if self.data is not None and not isinstance(self.data, str):
            raise ConfigError(f"data must be a folder's path (a string) or None, not "
                              f"{self.data!r}")
        if self.names and len(self.names) != self.players:
            raise ConfigError(f"{len(self.names)} names given for {self.players} players")
        if self.names:
            check_names(self.names)
        if len(set(m.upper() for m in self.monuments)) != len(self.monuments):
            raise ConfigError("a monument can be in play only once")
        if self.objectives and len(self.objectives) != self.players:
            raise ConfigError(f"{len(self.objectives)} objectives given for {self.players} "
                              "players: give one per player, by seat")

    def player_names(self) -> tuple[str, ...]:
        return self.names or tuple(f"P{i + 1}" for i in range(self.players))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "seed": self.seed,
            "names": list(self.player_names()),
            "rules": self.rules.to_json(),
            "data": self.data,
        }
        if self.monuments:
            out["monuments"] = list(self.monuments)
        if self.objectives:
            out["objectives"] = list(self.objectives)
        return out

    @classmethod
    def from_json(cls, data: Any, *, log: bool = True) -> DominationsConfig:
        if not isinstance(data, dict):
            raise ConfigError("a Dominations config must be a JSON object")
        unknown = set(data) - {"players", "seed", "names", "rules", "data", "data_digest",
                               "monuments", "objectives"}
        if unknown:
            raise ConfigError(f"unknown config field(s): {', '.join(sorted(unknown))}")
        players = data.get("players", 2)
        seed = data.get("seed")  # (none: one is drawn, as by the constructor)
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ConfigError(f"config seed must be an integer, not {seed!r}")
        names = data.get("names") or ()
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
            raise ConfigError("config names must be a list of strings")
        folder = data.get("data")
        if folder is not None and not isinstance(folder, str):
            raise ConfigError("config data must be a folder name or null")
        monuments = data.get("monuments") or ()
        if not isinstance(monuments, list | tuple) or not all(
                isinstance(m, str) for m in monuments):
            raise ConfigError("config monuments must be a list of monument ids")
        objectives = data.get("objectives") or ()
        if not isinstance(objectives, list | tuple) or not all(
                isinstance(o, str) for o in objectives):
            raise ConfigError("config objectives must be a list of objective ids")
        return cls(players=players, seed=seed, names=tuple(map(escaped, names)),
                   rules=Rules.from_json(data.get("rules")), data=folder,
                   monuments=tuple(monuments), objectives=tuple(objectives), log=log)


_PLACEHOLDER = DominationsConfig(seed=0)
"""The config of a state being made, until :meth:`DominationsState.new` gives its own."""


class PlayerState:
    """One player's board: knowledge, limits, city tokens, scores, tile hand and tree."""

    __slots__ = (
        "city_limit",
        "fx",
        "hand",
        "influence",
        "knowledge",
        "overflow",
        "tokens",
        "tree",
        "turns",
        "vp",
        "vp_by",
    )

    def __init__(self, tree: Tree | None = None, fx: Effects | None = None) -> None:
        self.knowledge = [0] * 6
        self.city_limit = [START_LIMIT] * 6
        """Limit from the highest city of each domain (D-BUILD-4)."""
        self.tokens = CITY_TOKENS
        self.influence = 0
        self.vp = 0
        self.vp_by = [0] * len(VP_SOURCES)
        """VP by source (:data:`VP_SOURCES`), for the score breakdown."""
        self.hand: list[int] = []
        self.overflow = 0
        """Bitmask of domains that already gave their overflow VP in this phase."""
        self.tree = tree if tree is not None else Tree()
        self.fx = fx if fx is not None else Effects()
        """The effects of the tree's face-up sides (rebuilt when the tree changes)."""
        self.turns = 0

    @property
    def overflow_vp(self) -> int:
        return self.vp_by[VP_OVERFLOW]

    def limit(self, domain: int) -> int:
        """The reserve limit of ``domain`` (D-GROW-9): cities and cards, at most 20."""
        return min(MAX_LIMIT, self.city_limit[domain] + self.fx.limit_bonus[domain])

    def limits(self) -> list[int]:
        return [self.limit(d) for d in range(6)]

    def exchange_price(self, domain: int) -> tuple[int, int]:
        """The cheapest (pay, gain) to exchange away ``domain`` (D-FLOW-3, data spec §2.3)."""
        best = (0, 0)
        for dom, pay, gain in self.fx.exchange_rates:
            if (dom < 0 or dom == domain) and (best[0] == 0 or pay * best[1] < best[0] * gain):
                best = (pay, gain)
        return best

    def copy(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.knowledge = self.knowledge.copy()
        p.city_limit = self.city_limit.copy()
        p.tokens = self.tokens
        p.influence = self.influence
        p.vp = self.vp
        p.vp_by = self.vp_by.copy()
        p.hand = self.hand.copy()
        p.overflow = self.overflow
        p.tree = self.tree.copy()
        p.fx = self.fx  # immutable, rebuilt on change
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
        "catalog",
        "config",
        "data",
        "dealt_again",
        "drawn",
        "events",
        "exchanged",
        "history",
        "levels_taken",
        "monuments",
        "mulligans",
        "num_players",
        "objectives",
        "order",
        "phase",
        "placed",
        "players",
        "produced",
        "rng",
        "role_bonus",
        "role_used",
        "roles",
        "round",
        "rules",
        "seat",
        "second",
        "stack",
        "supply",
        "supply_known",
        "taken",
        "tile_placed",
        "turn_number",
    )

    def __init__(self) -> None:  # use new() / from_record()
        self.config = _PLACEHOLDER
        self.dealt_again = False
        """Whether this state draws other random numbers than its seed's (a :meth:`copy`
        given a generator, a :meth:`determinize` world, or a copy of one): a search's,
        whose :meth:`record` would not replay, and is refused."""
        self.data: GameData = default_data()
        self.catalog = Catalog.of(self.data)
        self.rules = self.config.rules
        self.num_players = 0
        self.players: list[PlayerState] = []
        self.board = Board()
        self.supply: list[int] = []
        """The tile supply, its top last (drawn with ``pop()``)."""
        self.supply_known = 0
        """How many tiles at the bottom of the supply every player knows, in order: tiles
        put back from a public hand (D-SET-5, D-AGE-9) lie there until they are drawn."""
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
        self.produced = [0] * 6
        """Knowledge the mover produced this turn, per domain (``on_produce``, data spec §2.1)."""
        self.stack: list[list[Any]] = []
        """Pending decisions and steps, the top last (``F_*`` frames)."""
        self.taken: list[int] = []
        """Per mastery copy code: the player whose tree holds it, or -1 (in the supply)."""
        self.monuments: list[int] = []
        """Monument indices in play, in the order they were drawn."""
        self.levels_taken: dict[int, int] = {}
        """Monument index -> how many of its level cards have been taken (D-BUILD-6)."""
        self.placed: dict[int, PlacedMonument] = {}
        """Monument index -> its tile on the board."""
        self.roles: list[int] = [-1] * 6
        """Per domain: who took that domination card at the last end of age, or -1. Its
        effect applies during the age after (D-AGE-7); age 3's have none (D-END-1)."""
        self.role_used: list[bool] = [False] * 6
        """Per domain: a one-shot role (Inventor, Artisan) used and gone back (D-AGE-8)."""
        self.role_bonus: list[tuple[int, int, int, int]] | None = None
        """Per player: production bonuses from roles this age (the Merchant), or None."""
        self.objectives: list[int] = []
        """Per player: the kept objective (an index into ``data.objectives``), -1 until the
        draft is done (D-SET-3)."""
        self.mulligans: list[int] = []
        """Per player: mulligans taken this age (D-SET-5; the prototype allows three)."""
        self.drawn: list[list[tuple[int, ...]]] = [[], []]
        """Per draft (objectives, monuments), per player: the two cards drawn to keep one
        of (D-SET-3); empty lists when there was no draft. Only the drawer sees them."""
        self.second = False
        """The Artisan's second tile may be placed now (rules §13.7)."""
        self.tile_placed = False
        """A tile was placed in this turn's growth phase (the Artisan follows a tile)."""
        self.exchanged = 0
        """The domains the mover has exchanged into this turn, one bit each (``1 << d``)."""
        self.history: list[Action] = []
        self.events: list[tuple[Any, ...]] = []
        self._tile_index: dict[str, int] = {}

    # -- setup ------------------------------------------------------------------------------

    @classmethod
    def new(cls, config: DominationsConfig | None = None,
            data: GameData | str | os.PathLike[str] | None = None,
            **kwargs: Any) -> DominationsState:
        """Set up a game (D-SET-1 … D-SET-6): the drafts and first mulligans are the first
        pending decisions, in initiative order. The config may be given as its keyword
        options instead, as :meth:`DominionState.new <dominari.dominion.engine.DominionState.new>`
        takes them.

        >>> DominationsState.new(players=3, seed=5).config == DominationsConfig(3, 5)
        True

        ``data`` is the loaded component data (a :class:`GameData`); given with keyword
        options, a folder's path there is the config's ``data`` folder.
        """
        loaded = data if isinstance(data, GameData) else None
        if config is None:
            if isinstance(data, str | os.PathLike):  # the config's folder
                kwargs["data"] = os.fspath(data)
            config = DominationsConfig(**kwargs)
        elif kwargs:
            raise TypeError("give either a config or keyword options, not both")
        elif data is not None and loaded is None:
            raise TypeError("with a config, data is its loaded component data (a GameData); "
                            "a folder is the config's data")
        s = cls()
        s.config = config
        s.rules = config.rules
        if loaded is None:
            loaded = load_data(config.data) if config.data is not None else default_data()
        s.data = loaded
        s.catalog = cat = Catalog.of(loaded)
        s._tile_index = cat.tile_index
        s.num_players = config.players
        s.rng = random.Random(config.seed)
        s.board = Board.with_cradle(loaded.cradle)
        vpairs = s.rules.variant == "prototype"
        s.players = []
        for p in range(config.players):
            fire = loaded.campfires[p % len(loaded.campfires)]
            tree = Tree(fire.sides, root_id=fire.id, vestigium_pairs=vpairs)
            s.players.append(PlayerState(tree, compile_effects(tree, cat)))
        s.taken = [-1] * len(cat.copy_ids)
        s.supply = list(range(len(loaded.tiles)))
        shuffle(s.rng, s.supply)
        s.order = list(range(config.players))
        shuffle(s.rng, s.order)
        s.objectives = [-1] * config.players
        s.mulligans = [0] * config.players
        s.phase = SETUP
        drafts: list[list[Any]] = []
        if config.objectives:
            known = {o.id.upper(): i for i, o in enumerate(loaded.objectives)}
            for p, oid in enumerate(config.objectives):
                if oid.upper() not in known:
                    raise ConfigError(f"unknown objective {oid!r}: known are "
                                      f"{', '.join(o.id for o in loaded.objectives)}")
                s.objectives[p] = known[oid.upper()]
        else:
            if len(loaded.objectives) < 2 * config.players:
                raise ConfigError(f"{len(loaded.objectives)} objectives cannot give "
                                  f"{config.players} players 2 each (D-SET-3)")
            deck = s.rng.sample(range(len(loaded.objectives)), 2 * config.players)
            drafts.extend([F_CHOOSE, p, OBJECTIVE, sorted(deck[2 * i:2 * i + 2])]
                          for i, p in enumerate(s.order))
        if config.monuments:
            for mid in config.monuments:
                index = cat.monument_index.get(mid.upper())
                if index is None:
                    raise ConfigError(f"unknown monument {mid!r}: known are "
                                      f"{', '.join(m.id for m in loaded.monuments)}")
                s.monuments.append(index)
        elif s.rules.variant == "prototype":  # §14: drawn, no draft
            s.monuments = sorted(s.rng.sample(range(len(loaded.monuments)), config.players))
        else:
            if len(loaded.monuments) < 2 * config.players:
                raise ConfigError(f"{len(loaded.monuments)} monuments cannot give "
                                  f"{config.players} players 2 each (D-SET-3)")
            deck = s.rng.sample(range(len(loaded.monuments)), 2 * config.players)
            drafts.extend([F_CHOOSE, p, MONUMENT_CARD, sorted(deck[2 * i:2 * i + 2])]
                          for i, p in enumerate(s.order))
        for _, p, what, options in drafts:  # what each drew, for determinize
            if not s.drawn[what]:
                s.drawn[what] = [()] * config.players
            s.drawn[what][p] = tuple(options)
        s.levels_taken = dict.fromkeys(s.monuments, 0)
        for p in s.order:
            s._draw(p, HAND_SIZE)
        s.stack.append([F_STEP, S_START_TURN])
        s.stack.append([F_STEP, S_MULLIGANS])
        s.stack.extend(reversed(drafts))
        s._run()
        return s

    def _draw(self, player: int, count: int) -> None:
        """Draw up to ``count`` tiles from the top of the supply (rules §13.8)."""
        hand = self.players[player].hand
        n = min(count, len(self.supply))
        for _ in range(n):
            hand.append(self.supply.pop())
        if self.supply_known > len(self.supply):
            self.supply_known = len(self.supply)
        if self.config.log and n:
            self.events.append((EV_DRAW, player, n))

    # -- protocol ---------------------------------------------------------------------------

    @property
    def phase_name(self) -> str:
        """The phase, or the pending decision when one waits (one of
        :data:`DECISION_NAMES`: ``order effects``, ``vestigium`` gained, ``pay``,
        ``draft`` …)."""
        if self.stack and self.phase != OVER:
            return DECISION_NAMES[self.stack[-1][0]]
        return PHASE_NAMES[self.phase]

    @property
    def decision(self) -> int | None:
        """The kind of the pending decision's frame (``F_EFFECTS`` … ``F_ORDER``), or None."""
        return self.stack[-1][0] if self.stack else None

    @property
    def mover(self) -> int:
        """The player whose turn it is (the decider may differ while assigning vestigium)."""
        return self.order[self.seat]

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.stack:
            return int(self.stack[-1][1])
        if self.phase == ASSIGN:
            return self.assign_queue[0]
        return self.order[self.seat]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _own_turn(self) -> bool:
        """Whether the decider is the mover inside their turn (exchanges allowed, §13.4)."""
        phase = self.phase
        if phase in (AGE_END, AGE_START, OVER, SETUP):
            return False
        if self.stack:
            top = self.stack[-1]
            return bool(top[0] != F_PAY and top[1] == self.mover)
        if phase == ASSIGN:
            return self.assign_queue[0] == self.mover
        return True

    def legal_actions(self) -> list[Action]:
        if self.phase == OVER:
            return []
        if self.stack:
            acts = self._frame_actions(self.stack[-1])
        else:
            phase = self.phase
            if phase == GROWTH:
                acts = self.placements()
                if self.second:
                    acts.append(PASS_ACTION)
                elif self.may_reactivate():
                    acts += self.reactivations()
            elif phase == BUILD:
                acts = [*self._builds(), *self._monument_options(), PASS_ACTION]
            elif phase == DEVELOP:
                acts = [*self.acquisitions(), *self._advances(), PASS_ACTION]
            elif phase == ASSIGN:
                acts = [Action(AS_DOMAIN, d) for d in range(6)]
            else:  # pragma: no cover - other phases never wait without a frame
                acts = []
        if self._own_turn():
            acts += self._exchanges()
        return acts

    def _frame_actions(self, top: list[Any]) -> list[Action]:
        kind = top[0]
        if kind == F_GAIN:
            return [Action(AS_DOMAIN, d) for d in range(6)]
        if kind == F_COPY:
            return [PASS_ACTION, *self._copy_options(top[1])]
        if kind == F_CHOOSE:
            return [Action(CHOOSE, top[2], i) for i in top[3]]
        if kind == F_TILES:
            mode = top[2]
            if mode == T_KEEP_ALL:
                return [DONE_ACTION, Action(RETURN_ALL)]
            if mode == T_MULLIGAN_ALL:
                return [DONE_ACTION, Action(MULLIGAN)]
            return [DONE_ACTION, *(Action(RETURN, t) for t in sorted(self.players[top[1]].hand))]
        if kind == F_ORDER:
            return [Action(ORDER, order_code(o))
                    for o in itertools.permutations(sorted(self.order))]
        if kind == F_PAY:
            know = self.players[top[1]].knowledge
            left = top[2]
            return [Action(PAY, d, n) for d in range(6) for n in range(1, min(left, know[d]) + 1)]
        seen: list[Action] = []
        for due in top[2]:
            a = Action(RESOLVE, due.source, due.slot)
            if a not in seen:
                seen.append(a)
        return seen

    def placements(self, tiles: Sequence[int] | None = None) -> list[Action]:
        """Every legal growth placement (D-GROW-1, D-GROW-2), from the kept frontier."""
        board = self.board
        hand = self.players[self.mover].hand if tiles is None else tiles
        all_sides = self.rules.all_sides
        out: list[Action] = []
        append = out.append
        make = tuple.__new__  # Action(...) without the Python-level __new__: the hot path
        for key in board.frontier:
            links = board.links(key, all_sides)
            for t in hand:
                for r in (0, 1, 2):
                    for link in links:
                        append(make(Action, (PLACE, t, key, r, link)))
        return out

    def _holdings(self, player: int) -> Holdings:
        ps = self.players[player]
        return Holdings(player, ps.tree, ps.knowledge, ps.influence, self.board)

    def cost_reduction(self, player: int, target: str) -> int:
        """The sum of a player's cost reductions for ``acq``, ``upg``, ``city`` or ``mon``
        (data spec §2.3), counted now."""
        mods = self.players[player].fx.costs.get(target)
        return reduction(mods, self._holdings(player)) if mods else 0

    def _builds(self) -> list[Action]:
        p = self.mover
        ps = self.players[p]
        if ps.tokens <= 0:
            return []
        board = self.board
        know = ps.knowledge
        out = []
        discount = self.cost_reduction(p, "city")
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
            if isinstance(action, str):
                raise IllegalActionError(f"apply() takes an Action, not the text {action!r}: "
                                         f"state.parse_action({action!r}) reads it")
            raise IllegalActionError(f"not a Dominations action: {action!r}")
        kind = action.kind
        if not 0 <= kind < len(FIELD_COUNTS):
            raise IllegalActionError(f"unknown action kind {kind!r}")
        used = FIELD_COUNTS[kind]
        if used < 4 and any(action[used + 1:]):
            # fields a kind does not use are ignored: one spelling in the history
            action = Action(*action[:used + 1])
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("the game is over")
        if kind == EXCHANGE:
            self._exchange(action)
        elif self.stack:
            self._answer(action)
        elif phase == GROWTH:
            if kind == PLACE:
                self._place(action)
            elif kind == REACTIVATE:
                self._reactivate(action)
            elif kind == PASS and self.second:
                self.second = False
                self._log(EV_PASS, self.mover, GROWTH)
                self._enter(BUILD)
            else:
                raise IllegalActionError(
                    f"it is the growth phase: place a tile first (D-GROW-1), not "
                    f"{self._quote(action)}")
        elif phase == ASSIGN:
            if kind != AS_DOMAIN or not 0 <= action.a < 6:
                raise IllegalActionError(
                    f"{self.config.player_names()[self.assign_queue[0]]} must say which domain "
                    "their produced vestigium knowledge counts as, e.g. 'vestigium T'")
            self._assign(action.a)
        elif phase == BUILD:
            if kind == PASS:
                self._log(EV_PASS, self.mover, BUILD)
                self._enter(DEVELOP)
            elif kind in (CITY, UPGRADE):
                self._city(action)
            elif kind == MONUMENT:
                self._monument(action)
            else:
                raise IllegalActionError(
                    "it is the build phase: build a city, upgrade one of yours, contribute a "
                    "monument level, or pass (D-BUILD-1)")
        elif phase == DEVELOP:
            if kind == PASS:
                self._log(EV_PASS, self.mover, DEVELOP)
                self._end_turn()
                self._run()
            elif kind == ACQUIRE:
                self._acquire(action)
            elif kind == ADVANCE:
                self._advance(action)
            else:
                raise IllegalActionError(
                    "it is the develop phase: acquire a mastery card, upgrade one of yours, "
                    "or pass (D-DEV-1)")
        else:  # pragma: no cover - other phases never wait without a frame
            raise IllegalActionError(f"no decision is pending in phase {self.phase_name}")
        self.history.append(action)

    def _answer(self, action: Action) -> None:
        """An answer to the pending decision on top of the stack."""
        top = self.stack[-1]
        kind = top[0]
        who = self.config.player_names()[top[1]]
        if kind == F_GAIN:
            if action.kind != AS_DOMAIN or not 0 <= action.a < 6:
                raise IllegalActionError(
                    f"{who} must say which domain their gained vestigium knowledge counts as, "
                    "e.g. 'vestigium T' (D-VOC-1)")
            top[2] -= 1
            self._log(EV_ASSIGN, top[1], action.a)
            self._add(top[1], action.a, 1)
        elif kind == F_COPY:
            self._copy(top[1], action)
        elif kind == F_CHOOSE:
            self._choose(top, action)
        elif kind == F_TILES:
            self._tiles(top, action)
        elif kind == F_ORDER:
            self._choose_order(top[1], action)
        elif kind == F_PAY:
            if action.kind != PAY:
                raise IllegalActionError(
                    f"{who} must pay the rest of the monument level first: {top[2]} knowledge "
                    "in any mix of domains, e.g. 'pay 3 T'")
            know = self.players[top[1]].knowledge
            d, n = action.a, action.b
            if not 0 <= d < 6 or n < 1:
                raise IllegalActionError("pay a positive amount of one domain, e.g. 'pay 3 T'")
            if n > top[2]:
                raise IllegalActionError(f"only {top[2]} knowledge is left to pay, not {n}")
            if know[d] < n:
                raise IllegalActionError(f"you have {know[d]} {DOMAIN_NAMES[d]}, not {n}")
            self._pay(top[1], d, n)
            top[2] -= n
        else:
            if action.kind != RESOLVE:
                raise IllegalActionError(
                    f"several effects are due at once and their order matters: {who} chooses "
                    "which resolves next, e.g. " + " or ".join(
                        repr(self.format_action(a)) for a in self._frame_actions(top))
                    + " (D-FLOW-5)")
            dues: list[Due] = top[2]
            found = [i for i, due in enumerate(dues)
                     if due.source == action.a and due.slot == action.b]
            if not found:
                raise IllegalActionError(
                    f"{self._quote(action)} is not among the effects due: "
                    + ", ".join(repr(self.format_action(a)) for a in self._frame_actions(top)))
            self._resolve(top[1], dues.pop(found[0]))
        self._run()

    # -- setup and tiles (D-SET-3, D-SET-5, D-AGE-9) -------------------------------------------

    def _choose(self, top: list[Any], action: Action) -> None:
        p, what, options = top[1], top[2], top[3]
        data = self.data
        if action.kind != CHOOSE or action.a != what or action.b not in options:
            cards = data.objectives if what == OBJECTIVE else data.monuments
            raise IllegalActionError(
                f"{self.config.player_names()[p]} keeps one of the two "
                f"{'objectives' if what == OBJECTIVE else 'monuments'} drawn: "
                + " or ".join(f"'choose {cards[i].id}'" for i in options) + " (D-SET-3)")
        self.stack.pop()
        if what == OBJECTIVE:
            self.objectives[p] = action.b
        else:
            self.monuments.append(action.b)  # in draft order: the i-th is order[i]'s
            self.levels_taken[action.b] = 0
        if not self._drafting(what):  # the last to keep: all are revealed at once
            for i, q in enumerate(self.order):
                self._log(EV_CHOOSE, q, what,
                          self.objectives[q] if what == OBJECTIVE else self.monuments[i])

    def _drafting(self, what: int) -> bool:
        """Whether the draft of ``what`` (objectives or monuments) is under way: until
        every player has kept a card, what the others drew and kept is hidden (D-SET-3)."""
        return self.phase == SETUP and any(f[0] == F_CHOOSE and f[2] == what
                                           for f in self.stack)

    def _return_tile(self, p: int, tile: int) -> None:
        """A tile goes back to the bottom of the supply (D-SET-5, D-AGE-9)."""
        self.players[p].hand.remove(tile)
        self.supply.insert(0, tile)
        self.supply_known += 1
        self._log(EV_RETURN, p, tile)

    def _tiles(self, top: list[Any], action: Action) -> None:
        p, mode = top[1], top[2]
        ps = self.players[p]
        kind = action.kind
        names = self.config.player_names()
        if kind == DONE:
            self.stack.pop()
            if mode == T_MULLIGAN:
                returned = top[3] - len(ps.hand)
                if returned:
                    self.mulligans[p] += 1
                    self._log(EV_MULLIGAN, p, returned, self.mulligans[p])
                    self._draw(p, returned)
            return
        if mode in (T_KEEP, T_MULLIGAN) and kind == RETURN:
            if action.a not in ps.hand:
                tiles = self.data.tiles
                name = tiles[action.a].id if 0 <= action.a < len(tiles) else str(action.a)
                raise IllegalActionError(f"{name} is not in {names[p]}'s hand")
            self._return_tile(p, action.a)
            if not ps.hand:
                self._tiles(top, DONE_ACTION)
            return
        if mode == T_KEEP_ALL and kind == RETURN_ALL:
            self.stack.pop()
            for t in sorted(ps.hand):
                self._return_tile(p, t)
            return
        if mode == T_MULLIGAN_ALL and kind == MULLIGAN:
            extra = top[3]
            n = len(ps.hand)
            for t in sorted(ps.hand):
                self._return_tile(p, t)
            self.mulligans[p] += 1
            self._log(EV_MULLIGAN, p, n, self.mulligans[p])
            self._draw(p, PROTOTYPE_MULLIGANS[self.mulligans[p] - 1] + extra)
            if self.mulligans[p] >= len(PROTOTYPE_MULLIGANS):
                self.stack.pop()
            return
        usage = {
            T_KEEP: "'return L07' to put a tile of last age back, or 'done' to keep the rest "
                    "(D-AGE-9)",
            T_MULLIGAN: "'return L07' to put a tile back for the mulligan, or 'done' "
                        "(D-SET-5)",
            T_KEEP_ALL: "'done' to keep last age's tiles (drawing fewer) or 'return all' (§14)",
            T_MULLIGAN_ALL: "'mulligan' to draw a new hand (7, then 6, then 5) or 'done' (§14)",
        }[mode]
        raise IllegalActionError(f"{names[p]} decides about their tiles: {usage}")

    def _offer_mulligans(self) -> None:
        """The once-per-age mulligan of every player, in initiative order (D-SET-5)."""
        for p in reversed(self.order):
            self._push_mulligan(p)

    def _push_mulligan(self, p: int) -> None:
        hand = self.players[p].hand
        if self.rules.variant == "prototype":
            self.stack.append([F_TILES, p, T_MULLIGAN_ALL, self._extra_tiles(p)])
        elif hand:
            self.stack.append([F_TILES, p, T_MULLIGAN, len(hand)])

    def _extra_tiles(self, p: int) -> int:
        """Extra tiles at this age's refill: the High Priestess (``role_tiles``)."""
        if self.age == 1:
            return 0
        extra = 0
        for d, holder in enumerate(self.roles):
            if holder == p:
                extra += sum(e.amount for e in _role_effects(self.data.roles[d], "role_tiles"))
        return extra

    def _refill(self) -> None:
        """D-AGE-9 for every player in the new initiative order: keep any of last age's tiles
        (the rest go under the supply), draw up to 7 (+ the High Priestess), mulligan once."""
        proto = self.rules.variant == "prototype"
        for p in reversed(self.order):
            self.stack.append([F_STEP, S_MULLIGANS, p])
            self.stack.append([F_STEP, S_DRAW, p, HAND_SIZE + self._extra_tiles(p)])
            if self.players[p].hand:
                self.stack.append([F_TILES, p, T_KEEP_ALL if proto else T_KEEP])

    def _choose_order(self, p: int, action: Action) -> None:
        order = order_players(action.a) if action.kind == ORDER else []
        if sorted(order) != list(range(self.num_players)):
            raise IllegalActionError(
                f"{self.config.player_names()[p]} holds the Governor and sets the initiative "
                f"order of this age: every player's number once, first player first, e.g. "
                f"'order {' '.join(str(q + 1) for q in self.order)}' (D-AGE-7)")
        self.stack.pop()
        self.order = order
        self._log(EV_ORDER, p, tuple(order))

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
        """What the placement (or the Inventor's reactivation) ``action`` would produce, item
        by item, without doing it."""
        if action.kind == REACTIVATE:
            self._check_reactivate(action)
            return reactivation_yields(self.board, action.a, action.b, self.mover,
                                       self._bonuses())
        if action.kind != PLACE:
            raise IllegalActionError("only a placement or a reactivation can be previewed")
        tile, key, colours, link = self._check_place(action)
        return placement_yields(self.board, key, colours, self.data.tiles[tile].settlement,
                                link, self.mover, self._bonuses())

    def _bonuses(self) -> list[tuple[int, int, int, int]]:
        role = self.role_bonus
        if role is None:
            return [p.fx.bonuses for p in self.players]
        out = []
        for p, ps in enumerate(self.players):
            a, b = ps.fx.bonuses, role[p]
            out.append((a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]))
        return out

    def _place(self, action: Action) -> None:
        tile, key, colours, link = self._check_place(action)
        mover = self.mover
        settlement = self.data.tiles[tile].settlement
        yields = placement_yields(self.board, key, colours, settlement, link, mover,
                                  self._bonuses())
        self.players[mover].hand.remove(tile)
        self.board.fill(key, LAND, colours, settlement, tile, action.c)
        self.tile_placed = True
        if self.config.log:
            self.events.append((EV_PLACE, mover, tile, key, action.c, link))
            self.events.append((EV_YIELDS, tuple(yields)))
        if self.second:  # the Artisan's second tile (rules §13.7): the card goes back
            self.second = False
            self._role_back(self._active_role("role_second_tile", mover))
        self._produce(yields)

    # -- roles in the next age (D-AGE-7, D-AGE-8, rules §13.6, §13.7) ------------------------

    @property
    def roles_active(self) -> bool:
        """Whether the domination cards taken at the last end of age act now (ages 2, 3)."""
        return self.age > 1 and self.phase != OVER

    def _active_role(self, kind: str, player: int) -> int:
        """The domain of a role card with effect ``kind`` that ``player`` holds and may still
        use this age, or -1."""
        roles = self.roles
        for d in range(6):
            if roles[d] == player and not self.role_used[d] and _role_effects(
                    self.data.roles[d], kind):
                return d
        return -1

    def _role_back(self, domain: int) -> None:
        """A one-shot role card used goes back to the common area (D-AGE-8)."""
        if domain >= 0 and self.data.roles[domain].one_shot:
            self.role_used[domain] = True
            self._log(EV_ROLE_BACK, self.roles[domain], domain)

    def reactivation_links(self, key: int) -> list[int]:
        """How the placed land tile ``key`` may be reactivated (rules §13.6): across a side
        against a filled cell, or a complete locus at one of its corners."""
        board = self.board
        out = [side for side in range(3) if board.is_filled(side_neighbour(key, side))]
        out += [LINK_LOCUS + c for c in range(3) if board.is_locus(corner_vertex(key, c))]
        return out

    def may_reactivate(self) -> bool:
        """Whether the mover holds an unused Inventor in their growth phase (§13.6)."""
        return (self.phase == GROWTH and not self.second and self.roles_active
                and self._active_role("role_reactivate", self.mover) >= 0)

    def reactivations(self) -> list[Action]:
        """The Inventor's options: every placed land tile, by every link."""
        return [Action(REACTIVATE, key, link) for key in self.board.tile
                for link in self.reactivation_links(key)]

    def _check_reactivate(self, action: Action) -> None:
        if self.phase != GROWTH or self.second or not self.roles_active or self._active_role(
                "role_reactivate", self.mover) < 0:
            raise IllegalActionError("only the holder of the Inventor may reactivate a tile, "
                                     "once in the age, instead of placing one (rules §13.6)")
        key, link = action.a, action.b
        if key not in self.board.tile:
            raise IllegalActionError(f"{Cell.from_key(key)} holds no land tile to reactivate")
        links = self.reactivation_links(key)
        if link not in links:
            options = " or ".join(repr(link_text(key, x)) for x in links)
            raise IllegalActionError(
                f"{Cell.from_key(key)} can be reactivated by {options or 'nothing'}")

    def _reactivate(self, action: Action) -> None:
        if action.b == LINK_UNSPECIFIED:
            links = self.reactivation_links(action.a) if action.a in self.board.tile else []
            if len(links) == 1:
                action = action._replace(b=links[0])
        self._check_reactivate(action)
        mover = self.mover
        yields = reactivation_yields(self.board, action.a, action.b, mover, self._bonuses())
        if self.config.log:
            self.events.append((EV_REACTIVATE, mover, action.a, action.b))
            self.events.append((EV_YIELDS, tuple(yields)))
        self._role_back(self._active_role("role_reactivate", mover))
        self._produce(yields)

    def _after_growth(self) -> None:
        """The Artisan may place a second tile right after the first (rules §13.7)."""
        p = self.mover
        if (self.tile_placed and self.roles_active and self.players[p].hand
                and self.board.frontier and self._active_role("role_second_tile", p) >= 0):
            self.second = True
            self.phase = GROWTH
        else:
            self._enter(BUILD)

    def _produce(self, yields: Sequence[Yield]) -> None:
        """Knowledge produced by a placement or reactivation: vestigium assigned, then added."""
        mover = self.mover
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
        """Add the produced knowledge (limits, overflow VP), then the mover's ``on_produce``
        effects; the growth phase is over."""
        mover = self.mover
        row = self.batch[mover]
        dues = self._produce_dues(row)
        for p in self._turn_order_from(mover):
            prow = self.batch[p]
            for d in range(6):
                if prow[d]:
                    self._add(p, d, prow[d])
        self.batch = []
        self.assign_queue = []
        self.phase = GROWTH
        self.stack.append([F_STEP, S_AFTER_GROWTH])
        if dues:
            self.stack.append([F_EFFECTS, mover, dues])
        self._run()

    def _produce_dues(self, row: Sequence[int]) -> list[Due]:
        """``on_produce`` (data spec §2.1): the running total of this turn's production by the
        mover, counted after vestigium is assigned and before the limit; each new multiple of
        ``every`` fires the effect once."""
        produced = self.produced
        before = produced.copy()
        for d in range(6):
            produced[d] += row[d]
        hooks = self.players[self.mover].fx.hooked(ON_PRODUCE)
        dues: list[Due] = []
        for h in hooks:
            eff = h.effect
            if eff.domain == ANY:
                old, new = sum(before), sum(produced)
            else:
                old, new = before[eff.domain], produced[eff.domain]
            times = new // eff.every - old // eff.every
            dues.extend(Due(h.source, h.slot, eff) for _ in range(times))
        return dues

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
                ps.vp_by[VP_OVERFLOW] += 1
            after = max(limit, before)
        ps.knowledge[domain] = after
        if self.config.log:
            self.events.append((EV_KNOWLEDGE, player, domain, amount, after - before, vp))
        return after - before, vp

    def _gain_vp(self, player: int, vp: int, source: int, kind: int, log: bool = False) -> None:
        """Add VP by source kind; ``log`` an ``EV_VP`` event (effects only: the other VP are
        part of their own events)."""
        ps = self.players[player]
        ps.vp += vp
        ps.vp_by[kind] += vp
        if log and self.config.log:
            self.events.append((EV_VP, player, vp, source, kind))

    def _gain_influence(self, player: int, n: int, source: int) -> None:
        self.players[player].influence += n
        if self.config.log:
            self.events.append((EV_INFLUENCE, player, n, source))

    def _pay(self, player: int, domain: int, n: int) -> None:
        self.players[player].knowledge[domain] -= n
        if self.config.log and n:
            self.events.append((EV_PAY, player, domain, n))

    # -- build ------------------------------------------------------------------------------

    def city_cost(self, player: int, level: int) -> int:
        """Knowledge to bring a city to ``level`` (1 = build), after reductions (D-BUILD-5)."""
        return max(0, CITY_COST[level] - self.cost_reduction(player, "city"))

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
        if level == 1 and self.placed:
            # D-BUILD-9: monument rewards, once per city, when it is built (never upgrades).
            for owner_, vp, m in rewards_for_city(board, self.placed.values(),
                                                  self.data.monuments, key):
                self._gain_vp(owner_, vp, -1, VP_MONUMENTS)
                self._log(EV_REWARD, owner_, vp, m, key)
        self.stack.append([F_STEP, S_DEVELOP])
        dues = [Due(h.source, h.slot, h.effect, dom) for h in ps.fx.hooked(ON_CITY)]
        if dues:
            self.stack.append([F_EFFECTS, p, dues])
        self._run()

    # -- monuments (D-BUILD-6 … D-BUILD-10) ----------------------------------------------------

    def level_cost(self, player: int, monument: int) -> int:
        """The cost of the monument's next level card for ``player``, after reductions."""
        return max(0, self._next_level(monument).cost - self.cost_reduction(player, "mon"))

    def _next_level(self, monument: int) -> LevelDef:
        cat = self.catalog
        return cat.levels[cat.monument_levels[monument][self.levels_taken[monument]]]

    def level_domain(self, monument: int) -> int:
        """The domain a monument level is paid in, or ``ANY`` for any mix (data spec §6.1)."""
        lv = self._next_level(monument)
        if lv.cost_domain is not None:
            return lv.cost_domain
        if self.rules.monument_cost == "named":
            return self.data.monuments[monument].domain
        return ANY

    def monument_tile_options(self, monument: int) -> list[int]:
        """Where the monument's tile may go now (:func:`~notation.tile_code` values)."""
        mon = self.data.monuments[monument]
        if mon.shape == "circle":
            return [tile_code(v, 3) for v in circle_options(self.board)]
        return [tile_code(c, side) for c, side in diamond_options(self.board, mon)]

    def monument_levels(self) -> list[tuple[int, list[Pos]]]:
        """The monuments whose next level the mover can pay now, with the tree positions
        its card may take (where its tile may go is :meth:`monument_options`' business)."""
        p = self.mover
        ps = self.players[p]
        cat = self.catalog
        payable = []
        total = sum(ps.knowledge)
        discount = self.cost_reduction(p, "mon")
        for m in self.monuments:
            taken = self.levels_taken[m]
            levels = cat.monument_levels[m]
            if taken >= len(levels):
                continue
            lv = cat.levels[levels[taken]]
            cost = max(0, lv.cost - discount)
            dom = self.level_domain(m)
            if (total if dom == ANY else ps.knowledge[dom]) >= cost:
                payable.append((m, levels[taken]))
        if not payable:
            return []
        fits = ps.tree.positions_for([cat.level_sides[level] for _, level in payable])
        return [(m, positions) for (m, _), positions in zip(payable, fits, strict=True)
                if positions]

    def _monument_options(self, monuments: Sequence[int] | None = None) -> list[Action]:
        out: list[Action] = []
        for m, positions in self.monument_levels():
            if monuments is not None and m not in monuments:
                continue
            tiles = self.monument_tile_options(m) if self.levels_taken[m] == 0 else [NO_TILE]
            out.extend(Action(MONUMENT, m, col, row, t) for col, row in positions for t in tiles)
        return out

    def _monument(self, action: Action) -> None:
        p = self.mover
        ps = self.players[p]
        cat = self.catalog
        m, pos, tile = action.a, (action.b, action.c), action.d
        if m not in self.levels_taken:
            name = self.data.monuments[m].name if 0 <= m < len(self.data.monuments) else str(m)
            raise IllegalActionError(f"{name} is not in play in this game")
        mon = self.data.monuments[m]
        taken = self.levels_taken[m]
        if taken >= len(cat.monument_levels[m]):
            raise IllegalActionError(f"every level of {mon.name} has been built")
        level = cat.monument_levels[m][taken]
        lv = cat.levels[level]
        if taken == 0 and tile == NO_TILE:
            raise IllegalActionError(
                f"level 1 of {mon.name} places its tile (D-BUILD-7): say where, e.g. "
                + ("'on @1,1' (a free locus)" if mon.shape == "circle" else
                   "'on 2,0 2,1' (its two cells)"))
        if taken > 0 and tile != NO_TILE:
            raise IllegalActionError(f"the tile of {mon.name} is already on the board")
        cost = self.level_cost(p, m)
        dom = self.level_domain(m)
        have = sum(ps.knowledge) if dom == ANY else ps.knowledge[dom]
        if have < cost:
            raise IllegalActionError(
                f"{lv.id} costs {cost} " + ("knowledge" if dom == ANY else DOMAIN_NAMES[dom])
                + f", you have {have} (D-BUILD-6)")
        ps.tree.nodi_formed(pos, cat.level_sides[level], lv.id)  # raises with the reason
        if tile != NO_TILE:
            where = tile_where(tile)
            if mon.shape == "circle" and where[1] >= 0:
                raise IllegalActionError(f"{mon.name} is a circle: it goes on a locus, 'on @x,y'")
            if mon.shape != "circle" and where[1] < 0:
                raise IllegalActionError(f"{mon.name} is a diamond: it goes on two cells, "
                                         "'on x,y x,y'")
            if tile not in self.monument_tile_options(m):
                # place_monument on a copy gives the exact reason
                place_monument(self.board.copy(), mon, where)
                raise IllegalActionError(f"{mon.name} cannot go there (D-BUILD-7)")
        self.stack.append([F_STEP, S_DEVELOP])
        self.stack.append([F_STEP, S_TAKE_LEVEL, p, m, pos, tile])
        if dom == ANY:
            self.stack.append([F_PAY, p, cost])
        else:
            self._pay(p, dom, cost)
        self._run()

    def _take_level(self, p: int, m: int, pos: Pos, tile: int) -> None:
        cat = self.catalog
        mon = self.data.monuments[m]
        level = cat.monument_levels[m][self.levels_taken[m]]
        lv = cat.levels[level]
        if tile != NO_TILE:
            placed = place_monument(self.board, mon, tile_where(tile))
            self.placed[m] = placed
            self._log(EV_MONUMENT_TILE, p, m, tile)
            for owner, vp, key in rewards_on_placement(self.board, placed, mon):
                self._gain_vp(owner, vp, -1, VP_MONUMENTS)
                self._log(EV_REWARD, owner, vp, m, key)
        self.levels_taken[m] += 1
        ps = self.players[p]
        formed = ps.tree.place(pos, lv.id, cat.level_sides[level], level_card=True,
                               domain=mon.domain)
        ps.fx = compile_effects(ps.tree, cat)
        self._log(EV_LEVEL, p, level, pos, lv.vp)
        if lv.vp:
            self._gain_vp(p, lv.vp, LEVEL_BASE + level, VP_MONUMENTS)
        self._card_effects(p, LEVEL_BASE + level, False, formed)

    def _card_effects(self, p: int, source: int, advanced: bool, formed: Sequence[int]) -> None:
        """Queue a card side's immediate effects and the ``on_complete_nodus`` effects of the
        nodi its placement formed, as simultaneous effects (D-DEV-6)."""
        dues: list[Due] = []
        for index, eff in enumerate(self.catalog.effects(source, advanced)):
            if isinstance(eff, Triggered) and eff.trigger == IMMEDIATE:
                dues.append(Due(source, index, eff))
        if formed:
            for h in self.players[p].fx.hooked(ON_NODUS):
                colour = h.effect.colour
                times = len(formed) if colour == ANY else formed.count(colour)
                dues.extend(Due(h.source, h.slot, h.effect) for _ in range(times))
        if dues:
            self.stack.append([F_EFFECTS, p, dues])

    # -- develop (D-DEV) --------------------------------------------------------------------

    def acquire_cost(self, player: int, skill: int) -> int:
        return max(0, self.catalog.skills[skill].cost - self.cost_reduction(player, "acq"))

    def upgrade_vp(self, skill: int) -> int:
        """VP for turning a card advanced (R-CARD-1); the prototype scores only values 6 and
        9 (§14)."""
        sk = self.catalog.skills[skill]
        if self.rules.variant == "prototype" and sk.cost < 6:
            return 0
        return sk.vp_upgrade

    def upgrade_cost(self, player: int, skill: int) -> int:
        return max(0, self.catalog.skills[skill].upgrade_cost - self.cost_reduction(player, "upg"))

    def skills_held(self, player: int) -> dict[int, Pos]:
        """The skills in a player's tree (skill index -> position of its one copy, D-DEV-4)."""
        cat = self.catalog
        return {cat.copy_skill[cat.copy_code[c.id]]: pos
                for pos, c in self.players[player].tree.mastery_cards()}

    def _best_values(self, player: int) -> list[int]:
        """The highest mastery card value per domain in the tree (prerequisites, D-DEV-3)."""
        best = [0] * 6
        for _, card in self.players[player].tree.mastery_cards():
            if card.domain is not None and card.value > best[card.domain]:
                best[card.domain] = card.value
        return best

    def _has_prerequisite(self, player: int, skill: int) -> bool:
        pre = self.catalog.skills[skill].prerequisite
        return pre is None or self._best_values(player)[pre.domain] >= pre.value

    def acquirable_skills(self) -> list[int]:
        """Skills the mover may afford now (cost after reductions, prerequisite, not yet in
        their tree) with a copy left in the supply; whether a copy fits the tree is
        :meth:`acquisitions`' business. A cheap first stage for bots."""
        p = self.mover
        know = self.players[p].knowledge
        cat = self.catalog
        best = self._best_values(p)
        owned = self.skills_held(p)
        discount = self.cost_reduction(p, "acq")
        taken = self.taken
        out = []
        for s, (domain, cost, pre_domain, pre_value, copies) in enumerate(cat.skill_rows):
            if know[domain] < cost - discount or s in owned or (
                    pre_domain >= 0 and best[pre_domain] < pre_value):
                continue
            for c in copies:
                if taken[c] < 0:
                    out.append(s)
                    break
        return out

    def acquisitions(self, skills: Sequence[int] | None = None) -> list[Action]:
        """Every legal acquisition (D-DEV-2 … D-DEV-4, D-DEV-7), or only of these ``skills``
        (from :meth:`acquirable_skills`)."""
        cat = self.catalog
        taken = self.taken
        codes = [c for s in (self.acquirable_skills() if skills is None else skills)
                 for c in cat.skill_copies[s] if taken[c] < 0]
        sides = cat.copy_sides
        fits = self.players[self.mover].tree.positions_for([sides[c] for c in codes])
        return [Action(ACQUIRE, code, col, row)
                for code, positions in zip(codes, fits, strict=True) for col, row in positions]

    def builds(self) -> list[Action]:
        """Every city the mover may build or upgrade now (D-BUILD-2 … D-BUILD-5)."""
        return self._builds()

    def monument_options(self, monuments: Sequence[int] | None = None) -> list[Action]:
        """Every monument level the mover may contribute now, with where (D-BUILD-6, 7);
        only of these ``monuments`` if given."""
        return self._monument_options(monuments)

    def advances(self) -> list[Action]:
        """Every legal upgrade of a mastery card to its advanced side (D-DEV-5)."""
        return self._advances()

    def _advances(self) -> list[Action]:
        p = self.mover
        ps = self.players[p]
        cat = self.catalog
        discount = self.cost_reduction(p, "upg")
        out = []
        for s, pos in self.skills_held(p).items():
            if ps.tree.cards[pos].advanced:
                continue
            skill = cat.skills[s]
            if ps.knowledge[skill.upgrade_domain] >= skill.upgrade_cost - discount:
                out.append(Action(ADVANCE, s))
        return sorted(out)

    def _acquire(self, action: Action) -> None:
        p = self.mover
        ps = self.players[p]
        cat = self.catalog
        code, pos = action.a, (action.b, action.c)
        if not 0 <= code < len(cat.copy_ids):
            raise IllegalActionError(f"no mastery card copy has the code {code}")
        s = cat.copy_skill[code]
        skill = cat.skills[s]
        cid = cat.copy_ids[code]
        holder = self.taken[code]
        if holder >= 0:
            whose = "your" if holder == p else f"{self.config.player_names()[holder]}'s"
            raise IllegalActionError(f"{cid} is already in {whose} tree: choose another copy")
        if s in self.skills_held(p):
            raise IllegalActionError(f"your tree already holds a copy of {skill.name}: at most "
                                     "one copy of each skill (D-DEV-4)")
        pre = skill.prerequisite
        if pre is not None and not self._has_prerequisite(p, s):
            raise IllegalActionError(
                f"{skill.name} needs a {DOMAIN_NAMES[pre.domain]} mastery card of value "
                f"{pre.value} or more in your tree first (D-DEV-3)")
        cost = self.acquire_cost(p, s)
        if ps.knowledge[skill.domain] < cost:
            raise IllegalActionError(f"{skill.name} costs {cost} {DOMAIN_NAMES[skill.domain]}, "
                                     f"you have {ps.knowledge[skill.domain]} (D-DEV-2)")
        formed = ps.tree.place(pos, cid, cat.copy_sides[code], domain=skill.domain,
                               value=skill.cost)  # raises with the reason, changing nothing
        self._pay(p, skill.domain, cost)
        self.taken[code] = p
        ps.fx = compile_effects(ps.tree, cat)
        self._log(EV_ACQUIRE, p, code, pos, cost, skill.vp_acquire)
        if skill.vp_acquire:
            self._gain_vp(p, skill.vp_acquire, s, VP_MASTERY)
        if skill.influence:
            self._gain_influence(p, skill.influence, s)
        self.stack.append([F_STEP, S_END_TURN])
        self._card_effects(p, s, False, formed)
        self._run()

    def _advance(self, action: Action) -> None:
        p = self.mover
        ps = self.players[p]
        cat = self.catalog
        s = action.a
        if not 0 <= s < len(cat.skills):
            raise IllegalActionError(f"no skill has the index {s}")
        skill = cat.skills[s]
        pos = self.skills_held(p).get(s)
        if pos is None:
            raise IllegalActionError(f"your tree holds no {skill.name} card to upgrade (D-DEV-5)")
        if ps.tree.cards[pos].advanced:
            raise IllegalActionError(f"your {skill.name} is already on its advanced side")
        cost = self.upgrade_cost(p, s)
        dom = skill.upgrade_domain
        if ps.knowledge[dom] < cost:
            raise IllegalActionError(f"upgrading {skill.name} costs {cost} {DOMAIN_NAMES[dom]}, "
                                     f"you have {ps.knowledge[dom]} (D-DEV-5)")
        self._pay(p, dom, cost)
        ps.tree.upgrade(pos)
        ps.fx = compile_effects(ps.tree, cat)
        vp = self.upgrade_vp(s)
        self._log(EV_ADVANCE, p, s, cost, vp)
        if vp:
            self._gain_vp(p, vp, s, VP_MASTERY)
        self.stack.append([F_STEP, S_END_TURN])
        self._card_effects(p, s, True, ())
        self._run()

    # -- effects ----------------------------------------------------------------------------

    def _resolve(self, player: int, due: Due) -> None:
        """Apply one due effect's actions in order (data spec §2.2)."""
        self._log(EV_EFFECT, player, due.source, due.slot)
        kind_vp = VP_MONUMENTS if due.source >= LEVEL_BASE else VP_MASTERY
        ps = self.players[player]
        gains = 0
        for act in due.effect.actions:
            n = amount(act.amount, act.per, self._holdings(player)) if act.per else act.amount
            kind = act.kind
            if kind == GAIN:
                d = act.domain
                if d == CITY_DOMAIN:
                    d = due.city
                if d == WILD:
                    gains += n
                elif n > 0 and d is not None and 0 <= d < 6:
                    self._add(player, d, n)
            elif kind == FILL:
                d = act.domain if act.domain is not None else 0
                missing = ps.limit(d) - ps.knowledge[d]
                if missing > 0:
                    self._add(player, d, missing)
            elif kind == INFLUENCE:
                if n:
                    self._gain_influence(player, n, due.source)
            elif n:
                self._gain_vp(player, n, due.source, kind_vp, log=True)
        if gains > 0:
            self.stack.append([F_GAIN, player, gains, due.source])

    def _run(self) -> None:
        """Work through the stack until a decision is needed (or the stack is empty)."""
        stack = self.stack
        while stack and self.phase != OVER:
            top = stack[-1]
            kind = top[0]
            if kind == F_EFFECTS:
                dues = top[2]
                if not dues:
                    stack.pop()
                elif len(dues) == 1 or not order_matters(dues):
                    self._resolve(top[1], dues.pop(0))
                else:
                    return
            elif kind == F_GAIN:
                if top[2] <= 0:
                    stack.pop()
                else:
                    return
            elif kind in (F_COPY, F_CHOOSE, F_TILES, F_ORDER):
                return
            elif kind == F_PAY:
                left = top[2]
                know = self.players[top[1]].knowledge
                if left <= 0:
                    stack.pop()
                elif sum(know) == left or sum(1 for k in know if k) == 1:
                    for d in range(6):  # only one way to pay: no decision
                        n = min(know[d], left)
                        if n:
                            self._pay(top[1], d, n)
                            left -= n
                    stack.pop()
                else:
                    return
            else:
                stack.pop()
                self._step(top)

    def _step(self, frame: list[Any]) -> None:
        step = frame[1]
        if step == S_BUILD:
            self._enter(BUILD)
        elif step == S_DEVELOP:
            self._enter(DEVELOP)
        elif step == S_END_TURN:
            self._end_turn()
        elif step == S_GROWTH:
            self._growth()
        elif step == S_TAKE_LEVEL:
            self._take_level(frame[2], frame[3], frame[4], frame[5])
        elif step == S_DOMINANCE:
            self._dominance()
        elif step == S_ROLES:
            self._assign_roles()
        elif step == S_NEXT_AGE:
            self._next_age()
        elif step == S_START_TURN:
            self._start_turn()
        elif step == S_INFLUENCE:
            self._influence()
        elif step == S_INFLUENCE_VP:
            self._influence_vp()
        elif step == S_AFTER_GROWTH:
            self._after_growth()
        elif step == S_REFILL:
            self._refill()
        elif step == S_DRAW:
            self._draw(frame[2], frame[3] - len(self.players[frame[2]].hand))
        elif step == S_MULLIGANS:
            if len(frame) > 2:
                self._push_mulligan(frame[2])
            else:
                self._offer_mulligans()
        elif step == S_START_AGE:
            self._enter(AGE_START)
            self._due_all(START_OF_AGE, self.order)
        elif step == S_FINAL:
            self._final_scoring()
        else:  # pragma: no cover
            raise AssertionError(f"unknown step {step}")

    # -- exchange ---------------------------------------------------------------------------

    def _exchange(self, action: Action) -> None:
        """The exchange, a free action in one's own turn (D-FLOW-3, D-DEV-9, rules §13.4)."""
        if not self._own_turn():
            why = ("not while paying a monument level" if self.stack and
                   self.stack[-1][0] == F_PAY else "only in your own turn")
            raise IllegalActionError(f"exchanges are possible {why} (D-FLOW-3)")
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
        self.exchanged |= 1 << b
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
        self.produced = [0] * 6
        self.second = False
        self.tile_placed = False
        self.exchanged = 0
        self._log(EV_TURN, p, self.age, self.round + 1)
        self._enter(START_TURN)
        self.stack.append([F_STEP, S_GROWTH])
        self._due_all(START_OF_TURN, (p,))

    def _growth(self) -> None:
        p = self.mover
        self._enter(GROWTH)
        if not self.board.frontier or not self.players[p].hand:
            # Rules §13.3: no legal placement, the growth phase is skipped.
            self._log(EV_NO_PLACEMENT, p)
            self._enter(BUILD)

    def _due_all(self, trigger: str, players: Sequence[int]) -> None:
        """Queue ``trigger``'s effects of these players, the first player's resolving first."""
        for p in reversed(players):
            hooks = self.players[p].fx.hooked(trigger)
            if hooks:
                self.stack.append([F_EFFECTS, p, [Due(h.source, h.slot, h.effect)
                                                  for h in hooks]])

    def _end_turn(self) -> None:
        self.seat += 1
        if self.seat == self.num_players:
            self.seat = 0
            self.round += 1
            if self.round == TURNS_PER_AGE:
                self._end_age()
                return
        self._start_turn()

    def _end_age(self) -> None:
        """D-AGE-1 in order: end-of-age effects (D-AGE-2), influence (D-AGE-3 … D-AGE-6), the
        domination cards (D-AGE-7), then reset and refill (D-AGE-9) or the end of the game."""
        self._log(EV_AGE_END, self.age)
        self._enter(AGE_END)
        self.role_bonus = None  # the lasting roles go back before they are dealt again
        self.stack.append([F_STEP, S_NEXT_AGE])
        self.stack.append([F_STEP, S_DOMINANCE])
        self.stack.append([F_STEP, S_INFLUENCE])
        self._due_all(END_OF_AGE, self.order)

    def influence_leader(self) -> int:
        """The player with the most influence, ties to initiative (D-AGE-3, D-VOC-3)."""
        return max(self.order, key=lambda p: (self.players[p].influence, -self.order.index(p)))

    def _influence(self) -> None:
        """D-AGE-3: the leader may copy a card (a decision, skipped when nothing can be
        copied, rules §13.9); then everyone gains VP equal to their influence (D-AGE-6)."""
        self.stack.append([F_STEP, S_INFLUENCE_VP])
        leader = self.influence_leader()
        if self._copy_options(leader):
            self.stack.append([F_COPY, leader])

    def _influence_vp(self) -> None:
        for p in self.order:
            vp = self.players[p].influence
            self._log(EV_INFLUENCE_VP, p, vp)
            if vp:
                self._gain_vp(p, vp, -1, VP_INFLUENCE)

    def _copy_options(self, p: int) -> list[Action]:
        """What the influence leader may copy (D-AGE-3, D-AGE-4), by the value limit of their
        influence: a free copy of a skill another player holds and they lack, placed by tree
        rules; or, where another's card is advanced and theirs basic, turning theirs."""
        cat = self.catalog
        influence = self.players[p].influence
        limit = next((v for top, v in COPY_VALUES if influence <= top), 9)
        tree = self.players[p].tree
        mine = {s: tree.cards[pos].advanced for s, pos in self.skills_held(p).items()}
        theirs: dict[int, bool] = {}
        for q, ps in enumerate(self.players):
            if q == p:
                continue
            for s, pos in self.skills_held(q).items():
                if cat.skills[s].cost <= limit:
                    theirs[s] = theirs.get(s, False) or ps.tree.cards[pos].advanced
        codes = [c for s in sorted(theirs) if s not in mine
                 for c in cat.skill_copies[s] if self.taken[c] < 0]
        fits = tree.positions_for([cat.copy_sides[c] for c in codes])
        out = [Action(COPY, code, col, row)
               for code, positions in zip(codes, fits, strict=True) for col, row in positions]
        out.extend(Action(COPY_ADVANCE, s) for s in sorted(theirs)
                   if theirs[s] and mine.get(s) is False)
        return out

    def _copy(self, p: int, action: Action) -> None:
        names = self.config.player_names()
        if action.kind == PASS:
            self.stack.pop()
            self._log(EV_COPY, p, -1, -1, None, 0)
            return
        if action.kind not in (COPY, COPY_ADVANCE):
            raise IllegalActionError(
                f"{names[p]} leads in influence and may copy a mastery card another player has "
                "('copy T3a-2 0,1', 'copy upgrade T3a') or 'pass' (D-AGE-3)")
        if action not in self._copy_options(p):
            raise IllegalActionError(
                f"{self._quote(action)} cannot be copied: the skill must be in another "
                "player's tree, within the value your influence allows (12 or less: 3; 13–22: "
                "3 or 6; 23 or more: any), not yet yours (or yours basic where theirs is "
                "advanced), with a free copy that fits your tree (D-AGE-3, D-AGE-4)")
        self.stack.pop()
        cat = self.catalog
        ps = self.players[p]
        if action.kind == COPY:
            code, pos = action.a, (action.b, action.c)
            s = cat.copy_skill[code]
            skill = cat.skills[s]
            formed = ps.tree.place(pos, cat.copy_ids[code], cat.copy_sides[code],
                                   domain=skill.domain, value=skill.cost)
            self.taken[code] = p
            ps.fx = compile_effects(ps.tree, cat)
            self._log(EV_COPY, p, code, s, pos, skill.vp_acquire)
            if skill.vp_acquire:
                self._gain_vp(p, skill.vp_acquire, s, VP_MASTERY)
            self._card_effects(p, s, False, formed)  # D-AGE-5
        else:
            s = action.a
            skill = cat.skills[s]
            pos = self.skills_held(p)[s]
            ps.tree.upgrade(pos)
            ps.fx = compile_effects(ps.tree, cat)
            vp = self.upgrade_vp(s)
            self._log(EV_COPY, p, -1, s, pos, vp)
            if vp:
                self._gain_vp(p, vp, s, VP_MASTERY)
            self._card_effects(p, s, True, ())

    def _dominance(self) -> None:
        """``when_dominance_determined`` effects of all players, before the comparison."""
        self.stack.append([F_STEP, S_ROLES])
        self._due_all(DOMINANCE, self.order)

    def _assign_roles(self) -> None:
        """D-AGE-7: each domain's domination card to the player with the most knowledge left
        (ties: initiative), nobody if nobody has any; its VP at once (age 3: the back side's,
        D-END-1); then ``on_domination_received`` once per card taken."""
        taken = [0] * self.num_players
        for d in range(6):
            best, holder = 0, -1
            for p in self.order:
                k = self.players[p].knowledge[d]
                if k > best:
                    best, holder = k, p
            self.roles[d] = holder
            if holder < 0:
                continue
            role = self.data.roles[d]
            if self.age == AGES:
                vp = role.vp_age3
            else:
                vp = role.vp_two_players if self.num_players == 2 else role.vp
            self._log(EV_ROLE, holder, d, vp)
            if vp:
                self._gain_vp(holder, vp, -1, VP_ROLES)
            taken[holder] += 1
            if self.age < AGES:  # D-END-1: age 3's cards have no effect
                self._role_now(holder, d)
        for p in reversed(self.order):
            hooks = self.players[p].fx.hooked(ON_DOMINATION)
            if hooks and taken[p]:
                self.stack.append([F_EFFECTS, p, [Due(h.source, h.slot, h.effect)
                                                  for h in hooks for _ in range(taken[p])]])

    def _role_now(self, holder: int, domain: int) -> None:
        """A role's immediate effects when taken (the Diplomat's influence, D-AGE-7)."""
        for eff in self.data.roles[domain].effects:
            if not (isinstance(eff, Triggered) and eff.trigger == IMMEDIATE):
                continue
            for act in eff.actions:
                if act.kind == INFLUENCE:
                    self._gain_influence(holder, act.amount, -1)
                elif act.kind == GAIN and act.domain is not None and 0 <= act.domain < 6:
                    self._add(holder, act.domain, act.amount)
                elif act.kind not in (GAIN, FILL, INFLUENCE) and act.amount:
                    self._gain_vp(holder, act.amount, -1, VP_ROLES, log=True)

    def _role_bonuses(self) -> list[tuple[int, int, int, int]] | None:
        """Production bonuses of the roles held for this age (the Merchant), per player."""
        out = [[0, 0, 0, 0] for _ in range(self.num_players)]
        found = False
        for d, holder in enumerate(self.roles):
            if holder < 0:
                continue
            for eff in self.data.roles[d].effects:
                if isinstance(eff, Modifier) and eff.kind == "production_bonus":
                    slot = (0 if eff.source == "settle" else 2) + (1 if eff.as_vestigium else 0)
                    out[holder][slot] += eff.amount
                    found = True
        return [(a, b, c, d) for a, b, c, d in out] if found else None

    def _next_age(self) -> None:
        """D-AGE-9, then the new age: the Governor's order, keeping tiles and refills,
        mulligans, start-of-age effects (D-FLOW-5); after age 3 the final scoring."""
        if self.age == AGES:
            self._final_scoring()
            return
        for ps in self.players:
            ps.knowledge = [0] * 6  # D-AGE-9
        self.age += 1
        self.round = 0
        self.seat = 0
        self.role_used = [False] * 6
        self.mulligans = [0] * self.num_players
        self.role_bonus = self._role_bonuses()
        self._enter(AGE_START)
        self.stack.append([F_STEP, S_START_TURN])
        self.stack.append([F_STEP, S_START_AGE])
        self.stack.append([F_STEP, S_REFILL])
        for d, holder in enumerate(self.roles):
            if holder >= 0 and _role_effects(self.data.roles[d], "role_initiative"):
                self.stack.append([F_ORDER, holder])

    def controlled(self, player: int) -> int:
        """How many monuments in play ``player`` controls (D-BUILD-10, objectives)."""
        return sum(1 for m in self.monuments if self.controller(m) == player)

    def objective_progress(self, player: int, controlled: int | None = None
                           ) -> list[tuple[int, int]]:
        """Per goal of the player's objective, (have, need) now; empty before the draft.
        ``controlled``: :meth:`controlled` of the player, when the caller knows it."""
        index = self.objectives[player] if self.objectives else -1
        if index < 0:
            return []
        ps = self.players[player]
        if controlled is None:
            controlled = self.controlled(player)
        return goals_progress(self.data.objectives[index].goals, player, self.board, ps.tree,
                              ps.influence, controlled)

    def _final_scoring(self) -> None:
        """D-END-2: objectives by goals met (rule option ``objective_scoring``); prototype
        (§14): the final tree scoring; then the game is over (D-END-4)."""
        scoring = self.rules.objective_table
        for p in self.order:
            ps = self.players[p]
            index = self.objectives[p]
            if index >= 0:
                met = goals_met(self.data.objectives[index], p, self.board, ps.tree,
                                ps.influence, self.controlled(p))
                vp = objective_vp(met, scoring)
                self._log(EV_OBJECTIVE, p, index, met, vp)
                if vp:
                    self._gain_vp(p, vp, -1, VP_OBJECTIVES)
            if self.rules.variant == "prototype":
                vp = tree_score(ps.tree)
                self._log(EV_TREE_VP, p, vp)
                if vp:
                    self._gain_vp(p, vp, -1, VP_TREE)
        self.phase = OVER
        self._log(EV_GAME_END)

    def _log(self, *event: Any) -> None:
        if self.config.log:
            self.events.append(event)

    # -- results ----------------------------------------------------------------------------

    def controller(self, monument: int) -> int | None:
        """Who controls a monument in play (D-BUILD-10), or None."""
        return controller(self.board, self.placed.get(monument), self.data.monuments[monument],
                          [ps.tree for ps in self.players], self.order)

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        vps = tuple(ps.vp for ps in self.players)
        rank_order = sorted(range(self.num_players),
                            key=lambda p: (-vps[p], self.order.index(p)))  # D-VOC-3, D-END-4
        ranks = [0] * self.num_players
        for i, p in enumerate(rank_order):
            ranks[p] = i + 1
        breakdown = [dict(zip(VP_SOURCES, ps.vp_by, strict=True)) for ps in self.players]
        objectives: list[dict[str, Any] | None] = [None] * self.num_players
        for ev in self.events:
            if ev[0] == EV_OBJECTIVE:
                o = self.data.objectives[ev[2]]
                objectives[ev[1]] = {"id": o.id, "name": o.name, "met": list(ev[3]),
                                     "vp": ev[4]}
        return Outcome(scores=vps, ranks=tuple(ranks), reason=END_REASON,
                       turns=tuple(ps.turns for ps in self.players),
                       extra={"vp_breakdown": breakdown,
                              "influence": [ps.influence for ps in self.players],
                              "objectives": objectives})

    # -- copies, views, notation ---------------------------------------------------------------

    def copy(self, rng: random.Random | None = None) -> DominationsState:
        """An independent copy, drawing its random numbers from a clone of this state's
        generator, or from ``rng`` if given."""
        if rng is not None and not isinstance(rng, random.Random):
            raise ConfigError(f"copy needs a random.Random, not {rng!r}")
        s = DominationsState.__new__(DominationsState)
        s.config = self.config
        s.data = self.data
        s.catalog = self.catalog
        s.rules = self.rules
        s.num_players = self.num_players
        s.players = [p.copy() for p in self.players]
        s.board = self.board.copy()
        s.supply = self.supply.copy()
        s.supply_known = self.supply_known
        s.rng = clone(self.rng) if rng is None else rng
        s.order = self.order.copy()
        s.age = self.age
        s.round = self.round
        s.seat = self.seat
        s.phase = self.phase
        s.turn_number = self.turn_number
        s.batch = [row.copy() for row in self.batch]
        s.assign_queue = self.assign_queue.copy()
        s.produced = self.produced.copy()
        s.stack = [[f[0], f[1], f[2].copy()] if f[0] == F_EFFECTS else f.copy()
                   for f in self.stack]
        s.taken = self.taken.copy()
        s.monuments = self.monuments.copy()
        s.levels_taken = self.levels_taken.copy()
        s.placed = self.placed.copy()
        s.roles = self.roles.copy()
        s.role_used = self.role_used.copy()
        s.role_bonus = self.role_bonus
        s.objectives = self.objectives.copy()
        s.mulligans = self.mulligans.copy()
        s.drawn = self.drawn  # never changed after setup; determinize replaces it
        s.second = self.second
        s.tile_placed = self.tile_placed
        s.exchanged = self.exchanged
        s.history = self.history.copy()
        s.events = self.events.copy()
        s._tile_index = self._tile_index
        s.dealt_again = self.dealt_again or rng is not None
        return s

    def determinize(self, player: int, rng: Any) -> DominationsState:
        """Only the order of the tile supply is hidden (rules §13.10): reshuffle it, but for
        the tiles at its bottom that were put back from a public hand (D-SET-5, D-AGE-9),
        which stay where every player saw them go (:attr:`supply_known`). During a setup
        draft the cards the other players drew, and the one each kept, are hidden too
        (D-SET-3, revealed together): they are drawn again from the cards ``player`` has not
        seen, and each who has chosen keeps one of the two at random."""
        if type(player) is not int or not 0 <= player < self.config.players:
            player_index(player, self.config.players)  # ConfigError naming the players
        if not isinstance(rng, random.Random):
            raise ConfigError(f"determinize needs a random.Random, not {rng!r}")
        s = self.copy()
        s.dealt_again = True
        known = s.supply_known
        if known:
            hidden = s.supply[known:]
            shuffle(rng, hidden)
            s.supply[known:] = hidden
        else:
            shuffle(rng, s.supply)
        if s.phase == SETUP:
            s.drawn = [row.copy() for row in s.drawn]
            for what in (OBJECTIVE, MONUMENT_CARD):
                if s._drafting(what):
                    s._redraw(what, player, rng)
        s.rng = random.Random(rng.getrandbits(64))
        return s

    def _redraw(self, what: int, player: int, rng: Any) -> None:
        """Deal the other players' draws of ``what`` again (see :meth:`determinize`)."""
        drawn = self.drawn[what]
        size = len(self.data.objectives if what == OBJECTIVE else self.data.monuments)
        pool = [c for c in range(size) if c not in drawn[player]]
        shuffle(rng, pool)
        pending = {f[1]: f for f in self.stack if f[0] == F_CHOOSE and f[2] == what}
        for i, q in enumerate(self.order):
            if q == player:
                continue
            pair = tuple(sorted((pool.pop(), pool.pop())))
            drawn[q] = pair
            frame = pending.get(q)
            if frame is not None:
                frame[3] = list(pair)
                continue
            kept = pair[rng.getrandbits(1)]
            if what == OBJECTIVE:
                self.objectives[q] = kept
            else:
                del self.levels_taken[self.monuments[i]]
                self.monuments[i] = kept
                self.levels_taken[kept] = 0

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise ParseError(f"an action's notation is a string, not {text!r}")
        action = parse(text, self._tile_index, self.catalog)
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
        return format_action(action, self.tile_ids, self.catalog)

    def _quote(self, action: Action) -> str:
        """An action for an error message: its notation, or its fields when it names no
        real tile, card or domain (a malformed action from a client)."""
        try:
            return repr(self.format_action(action))
        except (IndexError, KeyError, ValueError):
            return repr(tuple(action))

    @property
    def tile_ids(self) -> list[str]:
        return [t.id for t in self.data.tiles]

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything is public except the order of the tile supply (rules §13.10): the view
        gives its size (``supply``), and the tiles put back under it from a public hand that
        are still there (``supply_bottom``, D-SET-5, D-AGE-9), in the order they will be
        drawn, the last at the very bottom."""
        return self.views([player])[0]

    def views(self, players: Sequence[int | None], *, log: bool = True
              ) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``players``; their public parts are built once and
        shared (read-only). The views carry no log (``log`` changes nothing)."""
        for player in players:
            if player is not None:
                player_index(player, self.config.players)  # ConfigError naming the players
        names = self.config.player_names()
        tiles = self.data.tiles
        board = self.board
        cat = self.catalog
        cells = []
        for key in board.order:
            entry: dict[str, Any] = {
                "cell": key_text(key),
                "kind": KIND_NAMES[board.kind[key]],
                "colours": list(_colours(board.colours[key])),
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
        # Who controls each monument in play, once (the monuments and every objective's
        # progress need it).
        controllers = {m: self.controller(m) for m in self.monuments}
        controlled = [sum(1 for c in controllers.values() if c == p)
                      for p in range(self.num_players)]
        monuments = []
        drafting = self.phase == SETUP and any(
            f[0] == F_CHOOSE and f[2] == MONUMENT_CARD for f in self.stack)
        for m in ([] if drafting else self.monuments):
            mon = self.data.monuments[m]
            levels = cat.monument_levels[m]
            taken = self.levels_taken[m]
            entry = {"id": mon.id, "name": mon.name, "shape": mon.shape,
                     "levels": len(levels), "taken": taken,
                     "next": cat.levels[levels[taken]].id if taken < len(levels) else None,
                     "controller": controllers[m]}
            placed = self.placed.get(m)
            if placed is not None:
                entry["tile"] = ([str(Cell.from_key(k)) for k in placed.cells] if placed.cells
                                 else str(Vertex.from_key(placed.vertex)))
            monuments.append(entry)
        # A player's objective is hidden from the others while objectives are drafted
        # (kept cards are revealed together, D-SET-3): only then do the players differ.
        secret = self.phase == SETUP and any(
            f[0] == F_CHOOSE and f[2] == OBJECTIVE for f in self.stack)
        objectives = [self._objective_view(p, controlled[p]) for p in range(self.num_players)]

        def player_rows(viewer: int | None) -> list[dict[str, Any]]:
            return [
                {
                    "name": names[p],
                    "knowledge": dict(zip(DOMAINS, ps.knowledge, strict=True)),
                    "limits": dict(zip(DOMAINS, ps.limits(), strict=True)),
                    "tokens": ps.tokens,
                    "influence": ps.influence,
                    "vp": ps.vp,
                    "vp_breakdown": dict(zip(VP_SOURCES, ps.vp_by, strict=True)),
                    "hand": [tiles[t].id for t in ps.hand],
                    "tree": [{"pos": format_position(pos), "card": c.id,
                              "advanced": c.advanced, "level_card": c.level_card}
                             for pos, c in ps.tree.cards.items()],
                    "nodi": dict(zip(DOMAINS, ps.tree.nodi_counts()[:6], strict=True)),
                    "roles": [DOMAINS[d] for d in range(6) if self.roles[d] == p],
                    "objective": None if secret and viewer != p else objectives[p],
                    "mulligans": self.mulligans[p] if self.mulligans else 0,
                }
                for p, ps in enumerate(self.players)
            ]

        shared_rows = None if secret else player_rows(None)
        roles = [{"domain": DOMAINS[d], "role": role.name, "holder": self.roles[d],
                  "vp": role.vp_two_players if self.num_players == 2 else role.vp,
                  "one_shot": role.one_shot, "used": self.role_used[d],
                  "active": self.roles_active and self.roles[d] >= 0
                  and not self.role_used[d] and self.phase != AGE_END}
                 for d, role in enumerate(self.data.roles)]
        mastery = [cid for cid, taken in zip(cat.copy_ids, self.taken, strict=True)
                   if taken < 0]
        bottom = [tiles[t].id for t in reversed(self.supply[:self.supply_known])]
        over = self.outcome()
        outcome = over.to_json() if over is not None else None
        legal: list[str] | None = None
        out = []
        for player in players:
            if player is not None and player == current:
                if legal is None:
                    ids = self.tile_ids
                    legal = [format_action(a, ids, cat) for a in self.legal_actions()]
                mine = legal
            else:
                mine = []
            out.append({
                "game": "dominations",
                "viewer": player,
                "age": self.age,
                "turn": self.round + 1,
                "phase": self.phase_name,
                "current_player": current,
                "initiative": list(self.order),
                "supply": len(self.supply),
                "supply_bottom": bottom,
                "players": shared_rows if shared_rows is not None else player_rows(player),
                "roles": roles,
                "board": cells,
                "monuments": monuments,
                "mastery_supply": mastery,
                "pending": self._pending_view(player),
                "drawn": self._drawn_view(player),
                "legal_actions": mine,
                "outcome": outcome,
            })
        return out

    def _objective_view(self, p: int, controlled: int | None = None
                        ) -> dict[str, Any] | None:
        """A player's objective with live progress (``controlled``: how many monuments
        the player controls, when known)."""
        index = self.objectives[p] if self.objectives else -1
        if index < 0:
            return None
        o = self.data.objectives[index]
        progress = self.objective_progress(p, controlled)
        return {"id": o.id, "name": o.name,
                "goals": [{"text": describe_goal(g), "have": have, "need": need,
                           "met": have >= need}
                          for g, (have, need) in zip(o.goals, progress, strict=True)],
                "vp_now": objective_vp([have >= need for have, need in progress],
                                       self.rules.objective_table)}

    def _drawn_view(self, viewer: int | None) -> dict[str, list[str]]:
        """The cards ``viewer`` drew at setup and has still to choose from, by draft
        (``objectives``, ``monuments``): both pairs are drawn at once (D-SET-3), so a player
        choosing its objective knows its monuments too. Empty for the others."""
        out: dict[str, list[str]] = {}
        if viewer is None or self.phase != SETUP:
            return out
        for f in self.stack:
            if f[0] == F_CHOOSE and f[1] == viewer:
                cards = self.data.objectives if f[2] == OBJECTIVE else self.data.monuments
                out["objectives" if f[2] == OBJECTIVE else "monuments"] = [
                    cards[i].id for i in f[3]]
        return out

    def _pending_view(self, viewer: int | None = None) -> dict[str, Any] | None:
        """The decision waiting on the stack, in words the web app can show (the cards drawn
        in a draft only to the one choosing)."""
        if not self.stack or self.phase == OVER:
            return None
        top = self.stack[-1]
        kind = top[0]
        out: dict[str, Any] = {"kind": DECISION_NAMES[kind], "player": top[1]}
        if kind == F_CHOOSE:
            out["what"] = "objective" if top[2] == OBJECTIVE else "monument"
            if viewer == top[1]:
                cards = self.data.objectives if top[2] == OBJECTIVE else self.data.monuments
                out["options"] = [cards[i].id for i in top[3]]
        elif kind == F_TILES:
            out["mode"] = TILE_MODES[top[2]]
            if top[2] == T_MULLIGAN_ALL:
                out["mulligans"] = self.mulligans[top[1]]
        elif kind == F_ORDER:
            out["order"] = list(self.order)
        elif kind == F_COPY:
            out["influence"] = self.players[top[1]].influence
        elif kind == F_EFFECTS:
            out["effects"] = [{"card": self.catalog.source_id(d.source),
                               "name": self.catalog.source_name(d.source), "slot": d.slot}
                              for d in top[2]]
        else:
            out["left"] = top[2]
        return out

    def record(self) -> dict[str, Any]:
        """The game record: config (seed, data digest), actions in notation and outcome
        (JSON-ready); a :class:`RecordError` for a state :attr:`dealt_again`."""
        if self.dealt_again:
            raise RecordError(DEALT_AGAIN)
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

    def __repr__(self) -> str:
        try:
            return (f"<DominationsState seed={self.seed} age={self.age} "
                    f"turn={self.round + 1} player={self.current_player()} "
                    f"phase={self.phase_name}>")
        except (AttributeError, IndexError):  # one being made (a debugger's locals)
            return "<DominationsState (being set up)>"

    @property
    def seed(self) -> int:
        """The seed the game was dealt with (its config's): with :attr:`history`, the
        game record."""
        seed = self.config.seed
        assert seed is not None  # (a config picks one where none is given)
        return seed

    def data_digest(self) -> str:
        """A short fingerprint of the component data the game was played with."""
        return data_digest(self.data)

    @classmethod
    def from_record(cls, record: Any, *, log: bool = False, upto: int | None = None
                    ) -> DominationsState:
        """Replay a record (its first ``upto`` actions, where given). Raises
        :class:`RecordError` saying what is wrong with the record, ``ConfigError`` with
        ``upto``."""
        record = check_header(record, "dominations")
        if isinstance(record.get("config"), dict) and record["config"].get("seed") is None:
            raise RecordError("record config has no seed, so the game cannot be replayed")
        try:
            config = DominationsConfig.from_json(record.get("config"), log=log)
            state = cls.new(config)
        except ConfigError as exc:
            raise RecordError(f"record config: {exc}") from None
        digest = record["config"].get("data_digest")
        if digest is not None and digest != state.data_digest():
            where = (f"the data folder {config.data!r}" if config.data is not None
                     else "the built-in data")
            raise RecordError(f"the record was played with other component data than "
                              f"{where} (digest {digest}, this data "
                              f"{state.data_digest()}): the files have changed since, or "
                              f"this is another folder; replay it with the folder it was "
                              f"played with (replay --data DIR)")
        replay(state, record, upto, state.parse_action)
        return state


def _role_effects(role: RoleDef, kind: str) -> list[RoleEffect]:
    """A domination card's own effects of ``kind`` (``role_tiles``, ``role_initiative`` …)."""
    return [e for e in role.effects if isinstance(e, RoleEffect) and e.kind == kind]


def tree_score(tree: Tree) -> int:
    """Prototype final tree scoring (§14): per domain, its mastery cards (advanced ones count
    3) times the complete nodi of its colour.

    >>> tree_score(Tree())
    0
    """
    cards = [0] * 6
    for _, card in tree.mastery_cards():
        if card.domain is not None:
            cards[card.domain] += 3 if card.advanced else 1
    nodi = tree.nodi_counts()
    return sum(cards[d] * nodi[d] for d in range(6))


def _colour(code: int) -> str | None:
    return None if code < 0 else COLOURS[code]


@functools.lru_cache(maxsize=512)
def _colours(codes: tuple[int, ...]) -> tuple[str | None, ...]:
    """A cell's colours as the view names them (remembered: few combinations occur)."""
    return tuple(_colour(c) for c in codes)


def _plain(value: Any) -> Any:
    """A JSON-able form of the data records without their provenance."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value) if f.name != "prov"}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def data_digest(data: GameData) -> str:
    """SHA-256 (first 16 hex digits) of every component the rules read (provenance left out:
    correcting a note does not change a game)."""
    payload = json.dumps(
        {
            "tiles": _plain(data.tiles),
            "cradle": _plain(data.cradle),
            "skills": _plain(data.skills),
            "campfires": _plain(data.campfires),
            "roles": _plain(data.roles),
            "monuments": _plain(data.monuments),
            "objectives": _plain(data.objectives),
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:16]
