"""Dominations component data: the JSON files, their validation, and the typed records.

The game's components (land tiles, the cradle, mastery cards, monuments, objectives, roles,
campfires and every card's nodus layout) live in eight JSON files. The built-in set ships in
``dominari/dominations/datafiles/``; :func:`load_data` reads a folder of your own instead, and
takes every file that folder lacks from the built-in set. So to correct one component kind,
copy its file, edit it and run ``dominari data check DIR``. Every error names the file, the
record and the field, on one line.

Where the values come from is ``dominations-data.md`` (the component data spec); rule ids
``D-…`` are those of ``dominations.md``. Numbers below follow that spec.

Codes
-----
Domains and colours are letters in files and small integers in the loaded records (the
canonical order is the engine's index order):

====  ===========  ====  =======================================================
code  domain       int   notes
====  ===========  ====  =======================================================
T     Trade        0     yellow
C     Craft        1     orange
A     Art          2     blue
S     Science      3     green
G     Government   4     red
R     Religion     5     purple
V     vestigium    6     white half-nodus, white tile dot, black-number knowledge
X     corruptio    7     black half-nodus (layouts only): never joins
``*`` any          -1    :data:`ANY`: "every domain" / "any colour"
====  ===========  ====  =======================================================

>>> colour_code("S"), colour_letter(VESTIGIUM), DOMAIN_NAMES[colour_code("G")]
(3, 'V', 'Government')

Provenance (every record)
-------------------------
Every record carries ``"source"``: ``"rulebook"`` when a seed rulebook shows that the
component exists, ``"reconstructed"`` when the data spec invented it; ``"cite"``: the seed
files (non-empty for rulebook records, empty for reconstructed ones); ``"known"``, ``"read"``
and ``"assigned"``: names of the record's fields whose values a seed states outright, reads
from damaged text, or allows several readings of (the spec chose one). A dotted name such as
``"prerequisite.value"`` names part of a field. Fields listed nowhere are reconstructed, so a
reconstructed record has all three lists empty. ``"note"`` (optional) is free text. When you
correct a record from a physical card, say so here.

The files
---------
Record files are JSON lists of objects; ids are unique within their kind. Unknown fields are
errors, as are values of the wrong type (``3`` is not ``"3"``, ``true`` is not ``1``).
Numbers (costs, VP, counts) are whole and at most :data:`MAX_NUMBER` (1,000).

``tiles.json`` — exactly 90 land tiles, 15 per settlement colour::

    {"id": "L01", "settlement": "T", "corners": ["T", "T", "S"], <provenance>}

  ``corners``: the three corner resources clockwise (any of ``T C A S G R V``).
  :attr:`TileDef.index` is the tile's position in the file.

``cradle.json`` — the six cradle cells ``K0`` … ``K5`` (clockwise from the top)::

    {"id": "K0", "ccw": "T", "cw": "S", <provenance>}

  ``ccw``/``cw``: the resource at the anticlockwise / clockwise end of the cell's outer side.

``skills.json`` — exactly 72 mastery skills, 12 per domain (four each of cost 3, 6 and 9)::

    {"id": "T9a", "name": "Promissory Notes", "name_de": "Schuldscheine", "domain": "T",
     "cost": 9, "prerequisite": {"domain": "G", "value": 3}, "upgrade_cost": 6,
     "upgrade_domain": "T", "vp_acquire": 4, "vp_upgrade": 3, "influence": 0,
     "basic": [<effect>, …], "advanced": [<effect>, …], <provenance>}

  ``prerequisite`` is ``null`` except on cost-9 cards, which name another domain and a value
  (3, 6 or 9). ``advanced`` replaces ``basic`` when the card is upgraded (it is a complete
  list, not an addition). ``name_de`` may be ``null``.

``layouts.json`` — one nodus layout per card: the 4 copies ``<skill>-1`` … ``<skill>-4`` of every
skill, every monument level card (by its id) and every campfire::

    {"T3a-1": ["T", "T", "C", "A"], …, "M01-L1": ["V", "T", "V", "S"], …,
     "F1": ["V", "V", "V", "V"]}

  Sides are ``[top, right, bottom, left]``, each ``T C A S G R V X``. A bare list is a
  reconstructed layout (``scripts/generate_dominations_data.py`` makes them, data spec §4). To
  record a layout read from a physical card, write an object instead:
  ``{"sides": ["T", "V", "C", "T"], "source": "rulebook", "cite": ["my copy"], "known":
  ["sides"], "read": [], "assigned": []}``. Every card needs exactly one layout, and every
  layout a card.

``campfires.json`` — exactly 4 campfire cards::

    {"id": "F1", "name": "Campfire", "name_de": "Lagerfeuer",
     "effects": [{"modifier": "exchange", "domain": "any", "pay": 2, "get": 1}], <provenance>}

``roles.json`` — the 6 domination cards, one per domain::

    {"id": "DG", "domain": "G", "name": "Governor", "name_de": "Gouverneur",
     "name_es": "Gobernador", "vp": 6, "vp_two_players": 0, "vp_age3": 3, "one_shot": false,
     "effects": [{"role": "role_initiative"}], <provenance>}

  ``vp``: VP at the end of ages 1–2 (``vp_two_players`` in a 2-player game); ``vp_age3``: the
  back side's VP at the end of age 3 (D-END-1). ``one_shot``: the card goes back once used.

``monuments.json`` — exactly 12 monuments carrying their level cards, 50 level cards in all::

    {"id": "M01", "name": "Pharos of Alexandria", "name_de": "Der Pharos", "domain": "T",
     "shape": "diamond", "place": {"adjacent_city": "T"},
     "reward": {"vp": 10, "per": "city_across_R_side"},
     "sides": {"s1": "R", "s2": "R", "s3": "-", "s4": "-"},
     "corners": {"c1.P": "T", "c1.Q": "S", "c1.S": null, "c2.R": "A", "c2.Q": "T", "c2.S": null},
     "levels": [{"id": "M01-L1", "level": 1, "cost": 5, "cost_domain": null, "vp": 5,
                 "effects": [<effect>, …], <provenance>}, …],
     <provenance>}

  A ``diamond`` (rhombus P, Q, R, S clockwise; cells c1 = P-Q-S and c2 = R-S-Q; sides s1 = PQ,
  s2 = QR, s3 = RS, s4 = SP) is placed ``{"adjacent_city": <domain>}`` and rewards
  ``{"vp": n, "per": "city_across_R_side"}``; each side is ``"R"`` (open, reward symbol),
  ``"O"`` (open) or ``"-"`` (closed); corners are a colour or ``null``, and a corner whose
  vertex touches only closed sides must be ``null``. A ``circle`` goes on a free locus
  (``"place": {"locus": true}``), rewards ``{"vp": n, "per_city_of": <domain>}`` and has
  ``"sides": null, "corners": null``. Levels are numbered 1 … n in order. ``cost_domain``
  ``null`` means the cost is paid in any mix of domains (rule option ``monument_cost``).

``objectives.json`` — exactly 16 objective cards with 5 goals each::

    {"id": "O01", "name": "Egypt", "name_de": "Aegyptus", "goals": [<goal> × 5], <provenance>}

  Goals (D-END-3): ``{"kind": "cities_of_levels", "require": [{"level": 1, "count": 5},
  {"level": 2, "count": 1}]}``, ``{"kind": "adjacent_cities", "count": 7}``, ``{"kind":
  "city_groups", "count": 5}``, ``{"kind": "monuments", "count": 1}``, ``{"kind": "nodi",
  "require": {"T": 8, "G": 5, "S": 3}}``, ``{"kind": "influence", "count": 30}``, ``{"kind":
  "mastery_cards", "require": [{"count": 4, "value": 6, "domains": ["T", "S"]}]}``.

Effects
-------
An effect (data spec §2) is *triggered*, a *modifier* or a *role* effect (roles only).

Triggered: ``{"trigger": <trigger>, <params>, "actions": [<action>, …]}`` with the triggers
``immediate``, ``start_of_turn``, ``start_of_age``, ``end_of_age``, ``on_build_or_upgrade_city``,
``on_domination_received``, ``when_dominance_determined``, ``on_produce`` (params ``"domain"``:
a domain or ``"*"``, ``"every"``: n — once per n knowledge of that domain produced this turn)
and ``on_complete_nodus`` (param ``"colour"``: a domain or ``"*"``).

Actions: ``{"kind": "gain_knowledge", "domain": d, "amount": n}`` (``d`` a domain, ``"V"`` for
vestigium, or ``"city"`` for the settlement domain of the city just built or upgraded, only
under ``on_build_or_upgrade_city``); ``{"kind": "fill_knowledge", "domain": d}`` (up to your
limit); ``{"kind": "gain_vp", "amount": n}``; ``{"kind": "gain_influence", "amount": n}``. The
three amounts may add ``"per": <count>``: the amount is then ``n × ⌊count ÷ divisor⌋``.

Counts: ``{"count": c, <params>, "divisor": k}`` (``divisor`` optional, default 1) with ``c``
one of ``nodi`` (``"colour"``: a domain or ``"*"``; optional ``"except"``: a domain, only with
``"*"``), ``colours``, ``cards`` (``"side"``: ``"b"``, ``"a"`` or ``"*"``; ``"value"``: ``"3"``,
``"6"``, ``"9"``, ``">=6"`` or ``"*"``), ``mcards``, ``cities``, ``bcities`` (cities of all
players), ``know`` (each with ``"domain"``: a domain or ``"*"``), ``levels``, ``groups``,
``influence``.

Modifiers: ``{"modifier": "cost_reduction", "target": "acq"|"upg"|"city"|"mon", "amount": n}``
(optional ``"per"``); ``{"modifier": "production_bonus", "source": "settle"|"city", "amount": n,
"as": "same"|"V"}``; ``{"modifier": "exchange", "domain": d|"any", "pay": a, "get": b}``;
``{"modifier": "reserve_limit_raise", "domain": d|"*", "amount": n}``.

Role effects: ``{"role": "role_initiative"}``, ``{"role": "role_tiles", "amount": 2}``,
``{"role": "role_reactivate"}``, ``{"role": "role_second_tile"}``.

Example (*Road Building*, basic side)::

    {"trigger": "end_of_age",
     "actions": [{"kind": "gain_vp", "amount": 1, "per": {"count": "nodi", "colour": "C"}}]}
"""

from __future__ import annotations

import json
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

from dominari.core.checks import UNSHOWN, escaped
from dominari.core.errors import ConfigError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from dominari.dominations.cards import Catalog

__all__ = [
    "ANY", "CITY_DOMAIN", "COLOURS", "CORNER_KEYS", "CORRUPTIO", "DOMAINS", "DOMAIN_NAMES",
    "FILES", "VESTIGIUM", "Action", "CampfireDef", "CardCopy", "CardRequirement",
    "CradleCellDef", "DataError", "Effect", "GameData", "Goal", "LevelDef", "Modifier",
    "MonumentDef", "ObjectiveDef", "Per", "Prerequisite", "Provenance", "RoleDef", "RoleEffect",
    "SkillDef", "SummaryRow", "TileDef", "Triggered", "builtin_folder", "colour_code",
    "colour_letter", "default_data", "load_data",
]  # fmt: skip

DOMAINS: Final = "TCASGR"
DOMAIN_NAMES: Final = ("Trade", "Craft", "Art", "Science", "Government", "Religion")
COLOURS: Final = "TCASGRVX"
VESTIGIUM: Final = 6
CORRUPTIO: Final = 7
ANY: Final = -1
"""``"*"`` / ``"any"`` in a file: every domain, any colour."""
CITY_DOMAIN: Final = 8
"""``gain_knowledge`` domain ``"city"``: the settlement domain of the city just built/upgraded."""

FILES: Final = ("tiles.json", "cradle.json", "skills.json", "layouts.json", "campfires.json",
                "roles.json", "monuments.json", "objectives.json")  # fmt: skip
CORNER_KEYS: Final = ("c1.P", "c1.Q", "c1.S", "c2.R", "c2.Q", "c2.S")
"""The diamond corner order of :attr:`MonumentDef.corners`."""
SIDE_KEYS: Final = ("s1", "s2", "s3", "s4")

TILES, CRADLE_CELLS, SKILLS, COPIES = 90, 6, 72, 4
CAMPFIRES, ROLES, MONUMENTS, LEVEL_CARDS, OBJECTIVES, GOALS = 4, 6, 12, 50, 16, 5
_PROVENANCE_FIELDS = frozenset({"source", "cite", "known", "read", "assigned", "note"})
_CARD_VALUES = {"3": (3,), "6": (6,), "9": (9,), ">=6": (6, 9), "*": (3, 6, 9)}
# The sides that meet at each diamond corner's vertex (P: s1 s4, Q: s1 s2, R: s2 s3, S: s3 s4).
_CORNER_SIDES = {"c1.P": (0, 3), "c1.Q": (0, 1), "c1.S": (2, 3), "c2.R": (1, 2),
                 "c2.Q": (0, 1), "c2.S": (2, 3)}  # fmt: skip


class DataError(ConfigError):
    """A component data file that is missing, malformed or inconsistent (one line: file,
    record, field, and what is wrong)."""


def colour_code(letter: str) -> int:
    """The integer of a colour letter ``T C A S G R V X`` (0–7).

    >>> colour_code("T"), colour_code("X")
    (0, 7)
    """
    code = COLOURS.find(letter) if len(letter) == 1 else -1
    if code < 0:
        raise ValueError(f"unknown colour {letter!r} (expected one of {' '.join(COLOURS)})")
    return code


def colour_letter(code: int) -> str:
    """The letter of a colour integer 0–7, or ``*`` for :data:`ANY`.

    >>> colour_letter(0), colour_letter(ANY)
    ('T', '*')
    """
    if code == ANY:
        return "*"
    if not 0 <= code < len(COLOURS):
        raise ValueError(f"no colour has the code {code}")
    return COLOURS[code]


def _code(text: str) -> int:
    """Any letter code of a validated file as an integer (``*``/``any`` → ANY, ``city``)."""
    if text in ("*", "any"):
        return ANY
    if text == "city":
        return CITY_DOMAIN
    return COLOURS.index(text)


# ------------------------------------------------------------------ records
@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a record's facts come from (see the module docstring)."""

    source: str
    cite: tuple[str, ...] = ()
    known: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    assigned: tuple[str, ...] = ()
    note: str = ""

    @property
    def rulebook(self) -> bool:
        """Whether a seed rulebook shows that the component exists."""
        return self.source == "rulebook"


@dataclass(frozen=True, slots=True)
class Per:
    """A count that multiplies an amount: ``amount × ⌊count ÷ divisor⌋`` (data spec §2.4)."""

    count: str
    """``nodi colours cards mcards cities levels groups bcities know influence``."""
    colour: int = ANY
    """``nodi``: the colour counted (ANY = all colours)."""
    except_colour: int | None = None
    """``nodi``: a colour left out (``nodi(¬c)``)."""
    side: str = "*"
    """``cards``: ``"b"`` basic, ``"a"`` advanced or ``"*"`` either."""
    values: tuple[int, ...] = (3, 6, 9)
    """``cards``: the card values counted."""
    domain: int = ANY
    """``cities``, ``bcities``, ``know``: the domain counted (ANY = all)."""
    divisor: int = 1


@dataclass(frozen=True, slots=True)
class Action:
    """What a triggered effect does: ``kind`` is ``gain_knowledge``, ``fill_knowledge``,
    ``gain_vp`` or ``gain_influence``."""

    kind: str
    amount: int = 0
    domain: int | None = None
    """Knowledge actions: a domain 0–5, :data:`VESTIGIUM` or :data:`CITY_DOMAIN`."""
    per: Per | None = None


@dataclass(frozen=True, slots=True)
class Triggered:
    """An effect that fires on ``trigger`` and then applies its actions in order."""

    trigger: str
    actions: tuple[Action, ...]
    domain: int = ANY
    """``on_produce``: the domain produced (ANY = all domains together)."""
    every: int = 0
    """``on_produce``: fire once per ``every`` knowledge produced this turn."""
    colour: int = ANY
    """``on_complete_nodus``: the nodus colour (ANY = any colour)."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """A passive effect, active while its side is face up: ``kind`` is ``cost_reduction``,
    ``production_bonus``, ``exchange`` or ``reserve_limit_raise``."""

    kind: str
    amount: int = 0
    per: Per | None = None
    """``cost_reduction``: the amount is per counted item."""
    target: str = ""
    """``cost_reduction``: ``acq``, ``upg``, ``city`` or ``mon``."""
    source: str = ""
    """``production_bonus``: ``settle`` or ``city``."""
    as_vestigium: bool = False
    """``production_bonus``: the extra is vestigium (else the source's own domain)."""
    domain: int = ANY
    """``exchange`` (ANY = any domain) and ``reserve_limit_raise`` (ANY = all six)."""
    pay: int = 0
    get: int = 0


@dataclass(frozen=True, slots=True)
class RoleEffect:
    """A domination card's own effect: ``role_initiative``, ``role_tiles`` (``amount``
    extra tiles), ``role_reactivate`` or ``role_second_tile``."""

    kind: str
    amount: int = 0


Effect: TypeAlias = Triggered | Modifier | RoleEffect


@dataclass(frozen=True, slots=True)
class CardCopy:
    """One card's nodus layout: ``sides`` are colour codes ``[top, right, bottom, left]``."""

    id: str
    owner: str
    """The skill, level card or campfire whose layout this is."""
    sides: tuple[int, int, int, int]
    prov: Provenance


@dataclass(frozen=True, slots=True)
class TileDef:
    id: str
    index: int
    settlement: int
    corners: tuple[int, int, int]
    """Clockwise corner resources (0–5 or :data:`VESTIGIUM`)."""
    prov: Provenance


@dataclass(frozen=True, slots=True)
class CradleCellDef:
    id: str
    index: int
    """k of ``Kk``: 0 top, then clockwise."""
    ccw: int
    cw: int
    prov: Provenance


@dataclass(frozen=True, slots=True)
class Prerequisite:
    domain: int
    value: int


@dataclass(frozen=True, slots=True)
class SkillDef:
    id: str
    index: int
    name: str
    name_de: str | None
    domain: int
    cost: int
    prerequisite: Prerequisite | None
    upgrade_cost: int
    upgrade_domain: int
    vp_acquire: int
    vp_upgrade: int
    influence: int
    basic: tuple[Effect, ...]
    advanced: tuple[Effect, ...]
    copies: tuple[CardCopy, ...]
    prov: Provenance


@dataclass(frozen=True, slots=True)
class CampfireDef:
    id: str
    name: str
    name_de: str | None
    effects: tuple[Effect, ...]
    sides: tuple[int, int, int, int]
    prov: Provenance


@dataclass(frozen=True, slots=True)
class RoleDef:
    id: str
    domain: int
    name: str
    name_de: str | None
    name_es: str | None
    vp: int
    vp_two_players: int
    vp_age3: int
    one_shot: bool
    effects: tuple[Effect, ...]
    prov: Provenance


@dataclass(frozen=True, slots=True)
class LevelDef:
    id: str
    monument: str
    level: int
    cost: int
    cost_domain: int | None
    """None: paid in any mix of domains (rule option ``monument_cost``)."""
    vp: int
    effects: tuple[Effect, ...]
    sides: tuple[int, int, int, int]
    prov: Provenance


@dataclass(frozen=True, slots=True)
class MonumentDef:
    id: str
    index: int
    name: str
    name_de: str | None
    domain: int
    shape: str
    """``diamond`` or ``circle``."""
    place_domain: int | None
    """Diamond: placed adjacent to a city on a settlement of this domain; circle: None."""
    reward_vp: int
    reward_domain: int | None
    """Circle: VP per city of this domain on the locus; diamond: None (VP per city across an
    ``R`` side)."""
    sides: tuple[str, str, str, str] | None
    """Diamond sides s1…s4: ``"R"``, ``"O"`` or ``"-"``; None for circles."""
    corners: tuple[int | None, ...] | None
    """Diamond corner resources in :data:`CORNER_KEYS` order; None for circles."""
    levels: tuple[LevelDef, ...]
    prov: Provenance


@dataclass(frozen=True, slots=True)
class CardRequirement:
    count: int
    value: int
    domains: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Goal:
    """One objective goal (D-END-3). ``kind`` is ``cities_of_levels`` (``levels``: (level,
    count) pairs), ``adjacent_cities``, ``city_groups``, ``monuments``, ``influence`` (each
    ``count``), ``nodi`` (``nodi``: (colour, count) pairs) or ``mastery_cards`` (``cards``)."""

    kind: str
    count: int = 0
    levels: tuple[tuple[int, int], ...] = ()
    nodi: tuple[tuple[int, int], ...] = ()
    cards: tuple[CardRequirement, ...] = ()


@dataclass(frozen=True, slots=True)
class ObjectiveDef:
    id: str
    index: int
    name: str
    name_de: str | None
    goals: tuple[Goal, ...]
    prov: Provenance


class SummaryRow(NamedTuple):
    """One line of :meth:`GameData.summary`."""

    kind: str
    file: str
    total: int
    rulebook: int
    reconstructed: int
    folder: Path
    builtin: bool


@dataclass(frozen=True, slots=True, eq=False)
class GameData:
    """Every component, validated. ``roles`` are in domain order (``roles[d]`` is the card of
    domain ``d``); the other tuples are in file order. ``origins`` maps each file name to the
    folder it was read from; ``builtin_files`` are those taken from the built-in set. Compared
    and hashed by identity."""

    tiles: tuple[TileDef, ...]
    cradle: tuple[CradleCellDef, ...]
    skills: tuple[SkillDef, ...]
    campfires: tuple[CampfireDef, ...]
    roles: tuple[RoleDef, ...]
    monuments: tuple[MonumentDef, ...]
    objectives: tuple[ObjectiveDef, ...]
    layouts: Mapping[str, CardCopy]
    origins: Mapping[str, Path]
    builtin_files: frozenset[str]
    tile_by_id: Mapping[str, TileDef] = field(init=False)
    skill_by_id: Mapping[str, SkillDef] = field(init=False)
    copy_by_id: Mapping[str, CardCopy] = field(init=False)
    """Mastery card copies only (``T3a-1`` …); every layout is in :attr:`layouts`."""
    campfire_by_id: Mapping[str, CampfireDef] = field(init=False)
    role_by_id: Mapping[str, RoleDef] = field(init=False)
    monument_by_id: Mapping[str, MonumentDef] = field(init=False)
    level_by_id: Mapping[str, LevelDef] = field(init=False)
    objective_by_id: Mapping[str, ObjectiveDef] = field(init=False)
    catalog: Catalog | None = field(init=False, default=None, repr=False)
    """The engine's index of these components
    (:meth:`~dominari.dominations.cards.Catalog.of`), made on first use and kept as long
    as they are."""

    def __copy__(self) -> GameData:
        return self  # unchanging: a copy (of a state, a bot) shares it, and its catalog

    def __deepcopy__(self, memo: dict[int, Any]) -> GameData:
        return self

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "tile_by_id", {t.id: t for t in self.tiles})
        put(self, "skill_by_id", {s.id: s for s in self.skills})
        put(self, "copy_by_id", {c.id: c for s in self.skills for c in s.copies})
        put(self, "campfire_by_id", {f.id: f for f in self.campfires})
        put(self, "role_by_id", {r.id: r for r in self.roles})
        put(self, "monument_by_id", {m.id: m for m in self.monuments})
        put(self, "level_by_id", {lv.id: lv for m in self.monuments for lv in m.levels})
        put(self, "objective_by_id", {o.id: o for o in self.objectives})

    def summary(self) -> list[SummaryRow]:
        """Per component kind: count, rulebook and reconstructed records, and origin."""
        levels = [lv for m in self.monuments for lv in m.levels]
        kinds: list[tuple[str, str, Sequence[Any]]] = [
            ("land tiles", "tiles.json", self.tiles),
            ("cradle cells", "cradle.json", self.cradle),
            ("mastery skills", "skills.json", self.skills),
            ("nodus layouts", "layouts.json", list(self.layouts.values())),
            ("campfires", "campfires.json", self.campfires),
            ("roles", "roles.json", self.roles),
            ("monuments", "monuments.json", self.monuments),
            ("level cards", "monuments.json", levels),
            ("objectives", "objectives.json", self.objectives),
        ]
        rows = []
        for kind, file, records in kinds:
            rulebook = sum(1 for r in records if r.prov.rulebook)
            rows.append(SummaryRow(kind, file, len(records), rulebook, len(records) - rulebook,
                                   self.origins[file], file in self.builtin_files))  # fmt: skip
        return rows


# ------------------------------------------------------------------ loading
def builtin_folder() -> Path:
    """The folder of the data files that ship with the package."""
    return Path(__file__).resolve().with_name("datafiles")


@cache
def default_data() -> GameData:
    """The built-in data set, loaded and validated once."""
    folder = builtin_folder()
    return _load(dict.fromkeys(FILES, folder), frozenset(FILES))


def load_data(folder: str | Path | None = None) -> GameData:
    """Load and validate a data folder; files it lacks come from the built-in set.

    ``None`` gives the built-in data (cached). A folder that does not exist, is empty of data
    files or holds an unknown ``*.json`` file is an error. Every problem raises
    :class:`DataError` with one line naming the file, the record and the field.
    """
    if folder is None:
        return default_data()
    path = Path(folder)
    if not path.exists():
        raise DataError(f"data folder {str(path)!r} does not exist")
    if not path.is_dir():
        raise DataError(f"{str(path)!r} is not a folder")
    present = {p.name for p in path.glob("*.json")}
    unknown = sorted(present - set(FILES))
    if unknown:
        raise DataError(f"{path}: unknown data file {unknown[0]} (the data files are "
                        f"{', '.join(FILES)})")  # fmt: skip
    if not present:
        raise DataError(f"{path}: no data files (expected one or more of {', '.join(FILES)})")
    builtin = builtin_folder()
    origins = {name: path if name in present else builtin for name in FILES}
    return _load(origins, frozenset(FILES) - present, folder=path)


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _read_json(path: Path, label: str) -> Any:
    if path.exists() and not path.is_file() and not path.is_dir():
        raise DataError(f"{label}: {str(path)!r} is a pipe, socket or device, not a file")
    try:  # a byte-order mark (as Windows Notepad writes) is no part of the text
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise DataError(f"{label}: cannot read {str(path)!r}: {exc.strerror or exc}") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise DataError(f"{label}: invalid JSON at line {exc.lineno}, column {exc.colno}: "
                        f"{exc.msg}") from None  # fmt: skip
    except _DuplicateKey as exc:
        raise DataError(f"{label}: the key {exc.args[0]!r} appears twice in one object") from None


def _show(value: Any) -> str:
    """A value as JSON text, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _path(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_TYPE_WORDS = {
    "int_type": "an integer", "string_type": "a string", "bool_type": "true or false",
    "list_type": "a list", "dict_type": "an object", "model_type": "an object",
    "model_attributes_type": "an object", "none_required": "null",
}  # fmt: skip


def _describe(error: Mapping[str, Any]) -> str:
    """One pydantic error as ``field 'x': what is wrong`` (union tags left out of the path)."""
    # Union tags ("<Model>") and the "[key]" marker of a bad dict key are not fields.
    loc = [p for p in error["loc"] if not (isinstance(p, str) and p[:1] in ("<", "["))]
    kind, value, ctx = error["type"], error.get("input"), error.get("ctx") or {}
    where = f"field {_path(loc)!r}: " if loc else ""
    if kind == "missing":
        return f"missing field {_path(loc)!r}"
    if kind == "extra_forbidden":
        return f"unknown field {_path(loc)!r}"
    if kind in _UNION_ERRORS:
        key, what, options = _UNION_ERRORS[kind]
        if not isinstance(value, dict):
            return where + f"expected an object, got {_show(value)}"
        if kind == "effect":
            return where + ("an effect needs a 'trigger', 'modifier' or 'role' key, got the "
                            f"keys {', '.join(map(repr, value)) or 'none'}")  # fmt: skip
        if not key:
            return where + f"expected {options}, got the keys {', '.join(map(repr, value))}"
        if key not in value:
            return f"missing field {_path([*loc, key])!r}"
        return (f"field {_path([*loc, key])!r}: unknown {what} {_show(value[key])} "
                f"(expected one of {options})")  # fmt: skip
    if kind in ("code", "code_type"):
        return where + str(error["msg"])
    if kind in _TYPE_WORDS:
        return where + f"expected {_TYPE_WORDS[kind]}, got {_show(value)}"
    if kind == "literal_error":
        return where + f"expected {ctx['expected']}, got {_show(value)}"
    if kind == "greater_than_equal":
        return where + f"must be at least {ctx['ge']}, got {_show(value)}"
    if kind == "less_than_equal":
        return where + f"must be at most {ctx['le']:,}, got {_show(value)}"
    if kind == "too_short":
        return where + f"expected at least {ctx['min_length']} items, got {ctx['actual_length']}"
    if kind == "too_long":
        return where + f"expected at most {ctx['max_length']} items, got {ctx['actual_length']}"
    if kind == "string_too_short":
        return where + "must not be empty"
    if kind == "string_pattern_mismatch":
        return where + f"must be a word without spaces, got {_show(value)}"
    if kind == "shown":  # what it holds as escapes: the error is printed too
        return where + f"must hold no control characters, got {escaped(_show(value))}"
    return where + f"{error['msg']}, got {_show(value)}"


# ------------------------------------------------------------------ schema (pydantic)
MAX_NUMBER = 1000
"""The largest number a component's field may hold (a cost, VP, a count): the largest of
the game is 35, and a bound keeps every sum of a game, whose scores a tournament keeps in
64 bits, far from any limit."""
# The custom error types of the schema's unions: (tag key or "", what, the options).
_UNION_ERRORS: dict[str, tuple[str, str, str]] = {}


@cache
def _schema() -> dict[str, type[BaseModel]]:
    """The pydantic models of every record kind (built on first use: pydantic is imported
    only when data is loaded)."""
    from pydantic import (
        AfterValidator,
        BaseModel,
        ConfigDict,
        Discriminator,
        Field,
        PlainValidator,
        Tag,
    )
    from pydantic import create_model as _create_model
    from pydantic_core import PydanticCustomError

    # Typing forms used with runtime-built types: typed Any so that type checkers accept them.
    ann: Any = typing.Annotated
    union: Any = typing.Union
    lit: Any = typing.Literal
    opt: Any = typing.Optional
    lst: Any = list
    dct: Any = dict
    create_model: Callable[..., type[BaseModel]] = _create_model

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

    class Prov(Strict):
        source: typing.Literal["rulebook", "reconstructed"]
        cite: list[str]
        known: list[str]
        read: list[str]
        assigned: list[str]
        note: str = ""

    def model(title: str, base: type[BaseModel] = Strict, /, **fields: Any) -> type[BaseModel]:
        return create_model(title, __base__=base, **fields)

    def code(options: Sequence[str], what: str) -> Any:
        shown = " ".join(options)

        def check(value: object) -> str:
            if isinstance(value, str) and value in options:
                return value
            if isinstance(value, str):
                raise PydanticCustomError("code", "unknown {what} {value} (expected one of "
                                          "{shown})", {"what": what, "value": repr(value),
                                                       "shown": shown})  # fmt: skip
            raise PydanticCustomError("code_type", "expected a {what} (one of {shown}), got "
                                      "{got}", {"what": what, "shown": shown,
                                                "got": _show(value)})  # fmt: skip

        return ann[str, PlainValidator(check)]

    def one_of(*values: int) -> Any:
        """An integer that must be one of ``values``."""
        shown = ", ".join(map(str, values[:-1])) + f" or {values[-1]}"

        def check(value: int) -> int:
            if value not in values:
                raise PydanticCustomError("code", "expected {shown}, got {got}",
                                          {"shown": shown, "got": _show(value)})  # fmt: skip
            return value

        return ann[int, AfterValidator(check)]

    def tagged(key: str, what: str, models: Mapping[str, type[BaseModel]]) -> Any:
        """A union chosen by the value of ``key`` (each value names its model)."""

        def pick(value: Any) -> str | None:
            tag = value.get(key) if isinstance(value, dict) else getattr(value, key, None)
            return f"<{models[tag].__name__}>" if isinstance(tag, str) and tag in models else None

        unique = list(dict.fromkeys(models.values()))
        members = tuple(ann[m, Tag(f"<{m.__name__}>")] for m in unique)
        error = "tag_" + what.replace(" ", "_")
        _UNION_ERRORS[error] = (key, what, ", ".join(models))
        return ann[union[members], Discriminator(pick, custom_error_type=error,
                                                 custom_error_message=f"unknown {what}")]

    def keyed(what: str, models: Mapping[str, Any], error: str) -> Any:
        """A union chosen by which of the keys is present (first match wins)."""

        def pick(value: Any) -> str | None:
            # A dict when validating, a model instance when dumping.
            for key in models:
                if (key in value) if isinstance(value, dict) else hasattr(value, key):
                    return f"<{key}>"
            return None

        _UNION_ERRORS[error] = ("", what, " or ".join(f"an object with the key {k!r}"
                                                      for k in models))  # fmt: skip
        members = tuple(ann[m, Tag(f"<{k}>")] for k, m in models.items())
        return ann[union[members], Discriminator(pick, custom_error_type=error,
                                                 custom_error_message=f"expected {what}")]

    ident = ann[str, Field(min_length=1, pattern=r"^\S+$")]
    def shown(value: str) -> str:  # a name is printed to terminals and pages
        if UNSHOWN.search(value):
            raise PydanticCustomError("shown", "must hold no control characters")
        return value

    text = ann[str, Field(min_length=1), AfterValidator(shown)]
    nonneg = ann[int, Field(ge=0, le=MAX_NUMBER)]
    positive = ann[int, Field(ge=1, le=MAX_NUMBER)]
    domain = code(DOMAINS, "domain")
    domain_any = code((*DOMAINS, "*"), "domain")
    colour = code((*DOMAINS, "V"), "colour")
    half = code(tuple(COLOURS), "colour")
    per_plain = ("colours", "mcards", "levels", "groups", "influence")
    per_domain = ("cities", "bcities", "know")
    per = tagged("count", "count", {
        "nodi": model("PerNodi", count=(lit["nodi"], ...), colour=(domain_any, ...),
                      except_=(opt[domain], Field(None, alias="except")), divisor=(positive, 1)),
        "cards": model("PerCards", count=(lit["cards"], ...), side=(lit["b", "a", "*"], ...),
                       value=(lit[tuple(_CARD_VALUES)], ...), divisor=(positive, 1)),
        **dict.fromkeys(per_domain, model("PerDomain", count=(lit[per_domain], ...),
                                          domain=(domain_any, ...), divisor=(positive, 1))),
        **dict.fromkeys(per_plain, model("PerPlain", count=(lit[per_plain], ...),
                                         divisor=(positive, 1))),
    })  # fmt: skip
    action = tagged("kind", "action kind", {
        "gain_knowledge": model(
            "GainKnowledge", kind=(lit["gain_knowledge"], ...),
            domain=(code((*DOMAINS, "V", "city"), "domain"), ...), amount=(nonneg, ...),
            per=(opt[per], None)),
        "fill_knowledge": model("FillKnowledge", kind=(lit["fill_knowledge"], ...),
                                domain=(domain, ...)),
        "gain_vp": model("GainVP", kind=(lit["gain_vp"], ...), amount=(nonneg, ...),
                         per=(opt[per], None)),
        "gain_influence": model("GainInfluence", kind=(lit["gain_influence"], ...),
                                amount=(nonneg, ...), per=(opt[per], None)),
    })  # fmt: skip
    actions = ann[lst[action], Field(min_length=1)]
    plain = ("immediate", "start_of_turn", "start_of_age", "end_of_age",
             "on_build_or_upgrade_city", "on_domination_received", "when_dominance_determined")
    triggered = tagged("trigger", "trigger", {
        **dict.fromkeys(plain, model("Trigger", trigger=(lit[plain], ...), actions=(actions, ...))),
        "on_produce": model("OnProduce", trigger=(lit["on_produce"], ...),
                            domain=(domain_any, ...), every=(positive, ...),
                            actions=(actions, ...)),
        "on_complete_nodus": model("OnCompleteNodus", trigger=(lit["on_complete_nodus"], ...),
                                   colour=(domain_any, ...), actions=(actions, ...)),
    })  # fmt: skip
    modifier = tagged("modifier", "modifier", {
        "cost_reduction": model(
            "CostReduction", modifier=(lit["cost_reduction"], ...),
            target=(lit["acq", "upg", "city", "mon"], ...), amount=(nonneg, ...),
            per=(opt[per], None)),
        "production_bonus": model(
            "ProductionBonus", modifier=(lit["production_bonus"], ...),
            source=(lit["settle", "city"], ...), amount=(positive, ...),
            as_=(lit["same", "V"], Field(alias="as"))),
        "exchange": model("Exchange", modifier=(lit["exchange"], ...),
                          domain=(code((*DOMAINS, "any"), "domain"), ...), pay=(positive, ...),
                          get=(positive, ...)),
        "reserve_limit_raise": model(
            "ReserveLimitRaise", modifier=(lit["reserve_limit_raise"], ...),
            domain=(domain_any, ...), amount=(positive, ...)),
    })  # fmt: skip
    role = tagged("role", "role effect", {
        "role_initiative": model("RoleInitiative", role=(lit["role_initiative"], ...)),
        "role_tiles": model("RoleTiles", role=(lit["role_tiles"], ...), amount=(positive, ...)),
        "role_reactivate": model("RoleReactivate", role=(lit["role_reactivate"], ...)),
        "role_second_tile": model("RoleSecondTile", role=(lit["role_second_tile"], ...)),
    })  # fmt: skip
    effect = keyed("an effect", {"trigger": triggered, "modifier": modifier, "role": role},
                   error="effect")
    effects = lst[effect]

    tile = model("Tile", Prov, id=(ident, ...), settlement=(domain, ...),
                 corners=(ann[lst[colour], Field(min_length=3, max_length=3)], ...))
    cell = model("CradleCell", Prov, id=(ident, ...), ccw=(colour, ...), cw=(colour, ...))
    value = one_of(3, 6, 9)
    prerequisite = model("Prerequisite", domain=(domain, ...), value=(value, ...))
    skill = model(
        "Skill", Prov, id=(ident, ...), name=(text, ...), name_de=(opt[text], None),
        domain=(domain, ...), cost=(value, ...), prerequisite=(opt[prerequisite], None),
        upgrade_cost=(nonneg, ...), upgrade_domain=(domain, ...), vp_acquire=(nonneg, ...),
        vp_upgrade=(nonneg, ...), influence=(nonneg, ...), basic=(effects, ...),
        advanced=(effects, ...))  # fmt: skip
    layout = model("Layout", Prov, sides=(ann[lst[half], Field(min_length=4, max_length=4)], ...))
    campfire = model("Campfire", Prov, id=(ident, ...), name=(text, ...),
                     name_de=(opt[text], None), effects=(effects, ...))  # fmt: skip
    role_card = model(
        "Role", Prov, id=(ident, ...), domain=(domain, ...), name=(text, ...),
        name_de=(opt[text], None), name_es=(opt[text], None), vp=(nonneg, ...),
        vp_two_players=(nonneg, ...), vp_age3=(nonneg, ...), one_shot=(bool, ...),
        effects=(effects, ...))  # fmt: skip
    level = model("Level", Prov, id=(ident, ...), level=(positive, ...), cost=(nonneg, ...),
                  cost_domain=(opt[domain], None), vp=(nonneg, ...), effects=(effects, ...))
    side = code(("R", "O", "-"), "side")
    sides = model("Sides", **{k: (side, ...) for k in SIDE_KEYS})
    corners = model("Corners", **{k.replace(".", "_"): (opt[colour], Field(alias=k))
                                  for k in CORNER_KEYS})  # fmt: skip
    place = keyed("a placement", error="keyed_place", models={
        "adjacent_city": model("PlaceCity", adjacent_city=(domain, ...)),
        "locus": model("PlaceLocus", locus=(lit[True], ...)),
    })  # fmt: skip
    reward = keyed("a reward", error="keyed_reward", models={
        "per": model("RewardSide", vp=(nonneg, ...), per=(lit["city_across_R_side"], ...)),
        "per_city_of": model("RewardLocus", vp=(nonneg, ...), per_city_of=(domain, ...)),
    })  # fmt: skip
    monument = model(
        "Monument", Prov, id=(ident, ...), name=(text, ...), name_de=(opt[text], None),
        domain=(domain, ...), shape=(lit["diamond", "circle"], ...), place=(place, ...),
        reward=(reward, ...), sides=(opt[sides], ...), corners=(opt[corners], ...),
        levels=(ann[lst[level], Field(min_length=1)], ...))  # fmt: skip
    count_kinds = ("adjacent_cities", "city_groups", "monuments", "influence")
    goal = tagged("kind", "goal kind", {
        "cities_of_levels": model(
            "CitiesOfLevels", kind=(lit["cities_of_levels"], ...),
            require=(ann[lst[model("LevelCount", level=(one_of(1, 2, 3), ...),
                                   count=(positive, ...))], Field(min_length=1)], ...)),
        **dict.fromkeys(count_kinds, model("CountGoal", kind=(lit[count_kinds], ...),
                                           count=(positive, ...))),
        "nodi": model("NodiGoal", kind=(lit["nodi"], ...),
                      require=(ann[dct[domain, positive], Field(min_length=1)], ...)),
        "mastery_cards": model(
            "MasteryCards", kind=(lit["mastery_cards"], ...),
            require=(ann[lst[model("CardCount", count=(positive, ...), value=(value, ...),
                                   domains=(ann[lst[domain], Field(min_length=1)], ...))],
                         Field(min_length=1)], ...)),
    })  # fmt: skip
    objective = model("Objective", Prov, id=(ident, ...), name=(text, ...),
                      name_de=(opt[text], None), goals=(lst[goal], ...))  # fmt: skip
    return {"tiles.json": tile, "cradle.json": cell, "skills.json": skill, "layout": layout,
            "campfires.json": campfire, "roles.json": role_card, "monuments.json": monument,
            "level": level, "objectives.json": objective}  # fmt: skip


def _fields(model: type[BaseModel]) -> frozenset[str]:
    """The field names a provenance list may name (JSON names; not id or provenance)."""
    names = {f.alias or name for name, f in model.model_fields.items()}
    return frozenset(names - _PROVENANCE_FIELDS - {"id"})


# ------------------------------------------------------------------ conversion
class _Loader:
    """Validates the raw files of one load and builds the records."""

    def __init__(self, labels: Mapping[str, str]) -> None:
        self.labels = labels
        self.schema = _schema()

    def fail(self, file: str, message: str, record: str | None = None) -> DataError:
        where = f"record {record}: " if record is not None else ""
        return DataError(f"{self.labels[file]}: {where}{message}")

    # -- generic validation
    def records(self, file: str, data: Any) -> list[dict[str, Any]]:
        """Validate a record list; returns the records as plain dicts (defaults filled)."""
        if not isinstance(data, list):
            raise self.fail(file, f"expected a JSON list of records, got {_show(data)}")
        model = self.schema[file]
        out: list[dict[str, Any]] = []
        seen: dict[str, int] = {}
        for i, raw in enumerate(data):
            name = _record_name(raw, i)
            rec = self.validate(file, model, raw, name)
            if rec["id"] in seen:
                raise self.fail(file, f"duplicate id {rec['id']!r} (records #{seen[rec['id']]} "
                                      f"and #{i + 1})")  # fmt: skip
            seen[rec["id"]] = i + 1
            out.append(rec)
        return out

    def validate(self, file: str, model: type[BaseModel], raw: Any, name: str) -> dict[str, Any]:
        from pydantic import ValidationError

        if not isinstance(raw, dict):
            raise self.fail(file, f"expected an object, got {_show(raw)}", name)
        try:
            value = model.model_validate(raw)
        except ValidationError as exc:
            errors = exc.errors()
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise self.fail(file, _describe(errors[0]) + more, name) from None
        rec: dict[str, Any] = value.model_dump()
        self.provenance(file, name, rec, _fields(model))
        return rec

    def provenance(self, file: str, name: str, rec: Mapping[str, Any],
                   allowed: frozenset[str], prefix: str = "") -> None:  # fmt: skip
        """Check a record's provenance fields (``prefix``: the path of a nested record)."""
        lists = ("known", "read", "assigned")
        if rec["source"] == "rulebook" and not rec["cite"]:
            raise self.fail(file, f"field '{prefix}cite': a rulebook record cites at least one "
                                  "source", name)  # fmt: skip
        if rec["source"] == "reconstructed":
            for key in ("cite", *lists):
                if rec[key]:
                    raise self.fail(file, f"field '{prefix}{key}': must be empty in a "
                                          f"reconstructed record, got {_show(rec[key])}", name)
        owner: dict[str, str] = {}
        for key in lists:
            for entry in rec[key]:
                if entry.split(".")[0] not in allowed:
                    raise self.fail(file, f"field '{prefix}{key}': no field {entry!r} in this "
                                          f"record (fields: {', '.join(sorted(allowed))})", name)
                if entry in owner:
                    raise self.fail(file, f"field '{prefix}{key}': {entry!r} is also listed in "
                                          f"{owner[entry]!r}", name)  # fmt: skip
                owner[entry] = key

    @staticmethod
    def prov(rec: Mapping[str, Any]) -> Provenance:
        return Provenance(rec["source"], tuple(rec["cite"]), tuple(rec["known"]),
                          tuple(rec["read"]), tuple(rec["assigned"]), rec["note"])  # fmt: skip

    # -- effects
    def effects(self, file: str, name: str, where: str, raw: Sequence[Mapping[str, Any]],
                roles: bool = False) -> tuple[Effect, ...]:  # fmt: skip
        out: list[Effect] = []
        for i, e in enumerate(raw):
            path = f"{where}[{i}]"
            if "role" in e:
                if not roles:
                    raise self.fail(file, f"field {path!r}: role effects belong on domination "
                                          "cards only", name)  # fmt: skip
                out.append(RoleEffect(e["role"], e.get("amount", 0)))
            elif "modifier" in e:
                out.append(Modifier(
                    e["modifier"], amount=e.get("amount", 0),
                    per=self.per(file, name, f"{path}.per", e.get("per")),
                    target=e.get("target", ""), source=e.get("source", ""),
                    as_vestigium=e.get("as_") == "V", domain=_code(e.get("domain", "*")),
                    pay=e.get("pay", 0), get=e.get("get", 0)))  # fmt: skip
            else:
                acts = []
                for j, a in enumerate(e["actions"]):
                    if a.get("domain") == "city" and e["trigger"] != "on_build_or_upgrade_city":
                        raise self.fail(file, f"field '{path}.actions[{j}].domain': 'city' only "
                                              "works under the trigger on_build_or_upgrade_city",
                                        name)  # fmt: skip
                    domain = a.get("domain")
                    acts.append(Action(a["kind"], a.get("amount", 0),
                                       None if domain is None else _code(domain),
                                       self.per(file, name, f"{path}.actions[{j}].per",
                                                a.get("per"))))  # fmt: skip
                out.append(Triggered(e["trigger"], tuple(acts), _code(e.get("domain", "*")),
                                     e.get("every", 0), _code(e.get("colour", "*"))))  # fmt: skip
        return tuple(out)

    def per(self, file: str, name: str, path: str, raw: Mapping[str, Any] | None) -> Per | None:
        if raw is None:
            return None
        exc = raw.get("except_")
        if exc is not None and raw.get("colour") != "*":
            raise self.fail(file, f"field '{path}.except': only with \"colour\": \"*\"", name)
        return Per(raw["count"], colour=_code(raw.get("colour", "*")),
                   except_colour=None if exc is None else _code(exc), side=raw.get("side", "*"),
                   values=_CARD_VALUES[raw.get("value", "*")],
                   domain=_code(raw.get("domain", "*")), divisor=raw["divisor"])  # fmt: skip

    # -- one converter per file
    def tiles(self, data: Any) -> tuple[TileDef, ...]:
        file = "tiles.json"
        recs = self.records(file, data)
        if len(recs) != TILES:
            raise self.fail(file, f"{len(recs)} tiles, expected {TILES}")
        per = Counter(r["settlement"] for r in recs)
        for d, letter in enumerate(DOMAINS):
            if per[letter] != TILES // 6:
                raise self.fail(file, f"{per[letter]} tiles with a {DOMAIN_NAMES[d]} settlement "
                                      f"({letter}), expected {TILES // 6}")  # fmt: skip
        return tuple(TileDef(r["id"], i, _code(r["settlement"]),
                             (_code(r["corners"][0]), _code(r["corners"][1]),
                              _code(r["corners"][2])), self.prov(r))
                     for i, r in enumerate(recs))  # fmt: skip

    def cradle(self, data: Any) -> tuple[CradleCellDef, ...]:
        file = "cradle.json"
        recs = self.records(file, data)
        wanted = [f"K{k}" for k in range(CRADLE_CELLS)]
        by_id = {r["id"]: r for r in recs}
        for rid in by_id:
            if rid not in wanted:
                raise self.fail(file, f"unknown cell id (the cells are {', '.join(wanted)})", rid)
        missing = [k for k in wanted if k not in by_id]
        if missing:
            raise self.fail(file, f"{len(recs)} cells, expected {CRADLE_CELLS}: "
                                  f"{', '.join(missing)} missing")  # fmt: skip
        return tuple(CradleCellDef(k, i, _code(by_id[k]["ccw"]), _code(by_id[k]["cw"]),
                                   self.prov(by_id[k])) for i, k in enumerate(wanted))

    def skills(self, data: Any) -> list[dict[str, Any]]:
        file = "skills.json"
        recs = self.records(file, data)
        if len(recs) != SKILLS:
            raise self.fail(file, f"{len(recs)} skills, expected {SKILLS}")
        per = Counter((r["domain"], r["cost"]) for r in recs)
        for d, letter in enumerate(DOMAINS):
            total = sum(per[letter, c] for c in (3, 6, 9))
            if total != SKILLS // 6:
                raise self.fail(file, f"{total} {DOMAIN_NAMES[d]} skills, expected {SKILLS // 6}")
            for c in (3, 6, 9):
                if per[letter, c] != 4:
                    ids = ", ".join(r["id"] for r in recs
                                    if (r["domain"], r["cost"]) == (letter, c))
                    raise self.fail(file, f"{per[letter, c]} {DOMAIN_NAMES[d]} skills of cost "
                                          f"{c} ({ids or 'none'}), expected 4 (the game has "
                                          "4 of each cost a domain: to make a card cheaper, "
                                          "swap its cost with another's, a cost-9 card's "
                                          "prerequisite with it)")  # fmt: skip
        for r in recs:
            pre = r["prerequisite"]
            if r["cost"] == 9 and pre is None:
                raise self.fail(file, "field 'prerequisite': a cost-9 card needs a "
                                      "prerequisite", r["id"])  # fmt: skip
            if r["cost"] != 9 and pre is not None:
                raise self.fail(file, "field 'prerequisite': only cost-9 cards have a "
                                      f"prerequisite, this one costs {r['cost']}", r["id"])
            if pre is not None and pre["domain"] == r["domain"]:
                raise self.fail(file, "field 'prerequisite.domain': must be another domain "
                                      f"than the card's own ({r['domain']})", r["id"])
        return recs

    def campfires(self, data: Any) -> list[dict[str, Any]]:
        recs = self.records("campfires.json", data)
        if len(recs) != CAMPFIRES:
            raise self.fail("campfires.json", f"{len(recs)} campfire cards, expected {CAMPFIRES}")
        return recs

    def roles(self, data: Any) -> tuple[RoleDef, ...]:
        file = "roles.json"
        recs = self.records(file, data)
        if len(recs) != ROLES:
            raise self.fail(file, f"{len(recs)} domination cards, expected {ROLES}")
        by_domain: dict[str, dict[str, Any]] = {}
        for r in recs:
            if r["domain"] in by_domain:
                raise self.fail(file, f"two domination cards of domain {r['domain']}: "
                                      f"{by_domain[r['domain']]['id']} and {r['id']}")
            by_domain[r["domain"]] = r
        return tuple(
            RoleDef(r["id"], _code(r["domain"]), r["name"], r["name_de"], r["name_es"], r["vp"],
                    r["vp_two_players"], r["vp_age3"], r["one_shot"],
                    self.effects(file, r["id"], "effects", r["effects"], roles=True),
                    self.prov(r))
            for r in (by_domain[d] for d in DOMAINS))  # fmt: skip

    def monuments(self, data: Any) -> list[dict[str, Any]]:
        file = "monuments.json"
        recs = self.records(file, data)
        if len(recs) != MONUMENTS:
            raise self.fail(file, f"{len(recs)} monuments, expected {MONUMENTS}")
        level_ids: dict[str, str] = {}
        model = self.schema["level"]
        allowed = _fields(model)
        for r in recs:
            for i, lv in enumerate(r["levels"]):
                if lv["level"] != i + 1:
                    raise self.fail(file, f"field 'levels[{i}].level': expected {i + 1} (levels "
                                          f"are numbered 1 to n in order), got {lv['level']}",
                                    r["id"])  # fmt: skip
                if lv["id"] in level_ids:
                    raise self.fail(file, f"field 'levels[{i}].id': the level card id "
                                          f"{lv['id']!r} is also used by "
                                          f"{level_ids[lv['id']]}", r["id"])  # fmt: skip
                level_ids[lv["id"]] = r["id"]
                self.provenance(file, r["id"], lv, allowed, f"levels[{i}].")
            self.monument_shape(file, r)
        if len(level_ids) != LEVEL_CARDS:
            raise self.fail(file, f"{len(level_ids)} monument level cards, expected "
                                  f"{LEVEL_CARDS}")  # fmt: skip
        return recs

    def monument_shape(self, file: str, r: Mapping[str, Any]) -> None:
        name = r["id"]
        diamond = r["shape"] == "diamond"
        if diamond != ("adjacent_city" in r["place"]):
            want = '{"adjacent_city": <domain>}' if diamond else '{"locus": true}'
            raise self.fail(file, f"field 'place': a {r['shape']} is placed {want}", name)
        if diamond != ("per" in r["reward"]):
            want = ('{"vp": n, "per": "city_across_R_side"}' if diamond else
                    '{"vp": n, "per_city_of": <domain>}')  # fmt: skip
            raise self.fail(file, f"field 'reward': a {r['shape']} rewards {want}", name)
        for key in ("sides", "corners"):
            if diamond and r[key] is None:
                raise self.fail(file, f"field {key!r}: a diamond needs its {key}", name)
            if not diamond and r[key] is not None:
                raise self.fail(file, f"field {key!r}: must be null for a circle", name)
        if not diamond:
            return
        sides = [r["sides"][k] for k in SIDE_KEYS]
        if all(s == "-" for s in sides):
            raise self.fail(file, "field 'sides': a diamond needs at least one open side", name)
        for key in CORNER_KEYS:
            value = r["corners"][key.replace(".", "_")]
            if value is not None and all(sides[k] == "-" for k in _CORNER_SIDES[key]):
                raise self.fail(file, f"field 'corners.{key}': must be null, its vertex "
                                      "touches only closed sides", name)  # fmt: skip

    def objectives(self, data: Any) -> tuple[ObjectiveDef, ...]:
        file = "objectives.json"
        recs = self.records(file, data)
        if len(recs) != OBJECTIVES:
            raise self.fail(file, f"{len(recs)} objective cards, expected {OBJECTIVES}")
        out = []
        for i, r in enumerate(recs):
            if len(r["goals"]) != GOALS:
                raise self.fail(file, f"field 'goals': {len(r['goals'])} goals, expected {GOALS}",
                                r["id"])  # fmt: skip
            goals = []
            for g in r["goals"]:
                kind, req = g["kind"], g.get("require")
                if kind == "cities_of_levels":
                    goals.append(Goal(kind, levels=tuple((q["level"], q["count"]) for q in req)))
                elif kind == "nodi":
                    goals.append(Goal(kind, nodi=tuple((_code(c), n) for c, n in req.items())))
                elif kind == "mastery_cards":
                    goals.append(Goal(kind, cards=tuple(
                        CardRequirement(q["count"], q["value"], tuple(map(_code, q["domains"])))
                        for q in req)))  # fmt: skip
                else:
                    goals.append(Goal(kind, count=g["count"]))
            out.append(ObjectiveDef(r["id"], i, r["name"], r["name_de"], tuple(goals),
                                    self.prov(r)))
        return tuple(out)

    def layouts(self, data: Any, skills: Sequence[Mapping[str, Any]],
                monuments: Sequence[Mapping[str, Any]],
                campfires: Sequence[Mapping[str, Any]]) -> dict[str, CardCopy]:  # fmt: skip
        file = "layouts.json"
        if not isinstance(data, dict):
            raise self.fail(file, "expected a JSON object mapping card ids to sides, got "
                                  f"{_show(data)}")  # fmt: skip
        owners: dict[str, str] = {}
        for s in skills:
            for k in range(1, COPIES + 1):
                owners[f"{s['id']}-{k}"] = s["id"]
        for m in monuments:
            for lv in m["levels"]:
                owners[lv["id"]] = lv["id"]
        for f in campfires:
            owners[f["id"]] = f["id"]
        expected = COPIES * len(skills) + sum(len(m["levels"]) for m in monuments) + len(campfires)
        if len(owners) != expected:
            kinds = Counter([*(f"{s['id']}-{k}" for s in skills for k in range(1, 5)),
                             *(lv["id"] for m in monuments for lv in m["levels"]),
                             *(f["id"] for f in campfires)])  # fmt: skip
            twice = sorted(k for k, n in kinds.items() if n > 1)
            raise self.fail(file, f"the card id {twice[0]} belongs to two cards (a skill copy, "
                                  "a level card or a campfire); card ids must differ")
        skill_ids = {s["id"] for s in skills}
        model = self.schema["layout"]
        out: dict[str, CardCopy] = {}
        for cid, raw in data.items():
            if cid not in owners:
                base, _, num = cid.rpartition("-")
                if base in skill_ids:
                    raise self.fail(file, f"copy {num} of skill {base} is not a card: the copies "
                                          f"are {base}-1 to {base}-{COPIES}", cid)
                raise self.fail(file, "matches no mastery card copy, level card or campfire",
                                cid)  # fmt: skip
            if isinstance(raw, list):
                raw = {"sides": raw, "source": "reconstructed", "cite": [], "known": [],
                       "read": [], "assigned": []}  # fmt: skip
            elif not isinstance(raw, dict):
                raise self.fail(file, "expected a list of 4 sides [top, right, bottom, left] or "
                                      f"an object with \"sides\", got {_show(raw)}", cid)
            rec = self.validate(file, model, raw, cid)
            sides = tuple(_code(h) for h in rec["sides"])
            out[cid] = CardCopy(cid, owners[cid], (sides[0], sides[1], sides[2], sides[3]),
                                self.prov(rec))  # fmt: skip
        for s in skills:
            have = [k for k in range(1, COPIES + 1) if f"{s['id']}-{k}" in out]
            if len(have) != COPIES:
                gone = ", ".join(f"{s['id']}-{k}" for k in range(1, COPIES + 1) if k not in have)
                raise self.fail(file, f"skill {s['id']} has {len(have)} copies, expected "
                                      f"{COPIES} (missing {gone})")  # fmt: skip
        for m in monuments:
            for lv in m["levels"]:
                if lv["id"] not in out:
                    raise self.fail(file, f"no layout for the level card {lv['id']}")
        for f in campfires:
            if f["id"] not in out:
                raise self.fail(file, f"no layout for the campfire {f['id']}")
        return out


def _record_name(raw: Any, index: int) -> str:
    rid = raw.get("id") if isinstance(raw, dict) else None
    return rid if isinstance(rid, str) and rid.strip() else f"#{index + 1}"


def _load(origins: Mapping[str, Path], builtin_files: frozenset[str],
          folder: Path | None = None) -> GameData:
    """The data of the files ``origins`` names; with a user's ``folder``, messages name its
    files by their path and a built-in one beside them as ``(built-in)``."""
    labels = {name: name if folder is None else f"{name} (built-in)" if name in builtin_files
              else str(folder / name) for name in FILES}  # fmt: skip
    raw = {name: _read_json(origins[name] / name, labels[name]) for name in FILES}
    ld = _Loader(labels)
    tiles = ld.tiles(raw["tiles.json"])
    cradle = ld.cradle(raw["cradle.json"])
    skills = ld.skills(raw["skills.json"])
    campfires = ld.campfires(raw["campfires.json"])
    roles = ld.roles(raw["roles.json"])
    monuments = ld.monuments(raw["monuments.json"])
    objectives = ld.objectives(raw["objectives.json"])
    layouts = ld.layouts(raw["layouts.json"], skills, monuments, campfires)

    def copies(owner: str) -> tuple[CardCopy, ...]:
        return tuple(layouts[f"{owner}-{k}"] for k in range(1, COPIES + 1))

    skill_defs = tuple(
        SkillDef(
            r["id"], i, r["name"], r["name_de"], _code(r["domain"]), r["cost"],
            None if r["prerequisite"] is None else
            Prerequisite(_code(r["prerequisite"]["domain"]), r["prerequisite"]["value"]),
            r["upgrade_cost"], _code(r["upgrade_domain"]), r["vp_acquire"], r["vp_upgrade"],
            r["influence"], ld.effects("skills.json", r["id"], "basic", r["basic"]),
            ld.effects("skills.json", r["id"], "advanced", r["advanced"]), copies(r["id"]),
            ld.prov(r))
        for i, r in enumerate(skills))  # fmt: skip
    campfire_defs = tuple(
        CampfireDef(r["id"], r["name"], r["name_de"],
                    ld.effects("campfires.json", r["id"], "effects", r["effects"]),
                    layouts[r["id"]].sides, ld.prov(r))
        for r in campfires)  # fmt: skip
    monument_defs = tuple(
        MonumentDef(
            r["id"], i, r["name"], r["name_de"], _code(r["domain"]), r["shape"],
            _code(r["place"]["adjacent_city"]) if "adjacent_city" in r["place"] else None,
            r["reward"]["vp"],
            _code(r["reward"]["per_city_of"]) if "per_city_of" in r["reward"] else None,
            None if r["sides"] is None else
            (r["sides"]["s1"], r["sides"]["s2"], r["sides"]["s3"], r["sides"]["s4"]),
            None if r["corners"] is None else
            tuple(None if (c := r["corners"][k.replace(".", "_")]) is None else _code(c)
                  for k in CORNER_KEYS),
            tuple(LevelDef(lv["id"], r["id"], lv["level"], lv["cost"],
                           None if lv["cost_domain"] is None else _code(lv["cost_domain"]),
                           lv["vp"],
                           ld.effects("monuments.json", r["id"], f"levels[{j}].effects",
                                      lv["effects"]),
                           layouts[lv["id"]].sides, ld.prov(lv))
                  for j, lv in enumerate(r["levels"])),
            ld.prov(r))
        for i, r in enumerate(monuments))  # fmt: skip
    return GameData(tiles, cradle, skill_defs, campfire_defs, roles, monument_defs, objectives,
                    layouts, dict(origins), builtin_files)  # fmt: skip
