"""Integer codes for the cards a tree can hold, built once per component data set.

The engine keeps cards as small integers on its hot path; :class:`Catalog` translates between
those codes and the ids of the data files, and holds each card's effects by side:

- a **mastery copy** (``T3a-2``) has a *copy code* ``0 … 4·skills−1``, in the order of
  ``skills.json`` and then copy number; :attr:`Catalog.copy_skill` gives its skill index;
- an **effect source** (a card whose effects may need resolving) has a *source code*: the skill
  index for a mastery card (``T3a``), :data:`LEVEL_BASE` ``+ i`` for the ``i``-th monument
  level card of the data (``M01-L5``), :data:`CAMPFIRE_BASE` ``+ i`` for a campfire.

>>> from dominari.dominations.data import default_data
>>> cat = Catalog.of(default_data())
>>> code = cat.copy_code["T3a-2"]; cat.copy_ids[code], cat.skills[cat.copy_skill[code]].id
('T3a-2', 'T3a')
>>> cat.source_id(cat.source_code["M01-L5"]), cat.source_id(cat.source_code["T3A"])
('M01-L5', 'T3a')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dominari.dominations.data import (
    Effect,
    GameData,
    LevelDef,
    MonumentDef,
    SkillDef,
)

LEVEL_BASE = 1000
CAMPFIRE_BASE = 2000


@dataclass(frozen=True, eq=False)
class Catalog:
    """Codes and per-side effects for one :class:`GameData` (see the module docstring)."""

    data: GameData
    skills: tuple[SkillDef, ...]
    copy_ids: tuple[str, ...]
    copy_code: dict[str, int]
    copy_skill: tuple[int, ...]
    copy_sides: tuple[tuple[int, int, int, int], ...]
    skill_copies: tuple[tuple[int, ...], ...]
    """Copy codes of each skill, in copy order."""
    levels: tuple[LevelDef, ...]
    """Every monument level card, monument by monument, level by level."""
    level_code: dict[str, int]
    """Level card id -> index into :attr:`levels`."""
    monument_levels: tuple[tuple[int, ...], ...]
    """Per monument index, the indices into :attr:`levels` of its level cards, level 1 first."""
    level_monument: tuple[int, ...]
    level_sides: tuple[tuple[int, int, int, int], ...]
    source_code: dict[str, int]
    """Effect source id (upper case) -> source code."""
    skill_index: dict[str, int]
    """Skill id (upper case) -> skill index."""
    monument_index: dict[str, int]
    """Monument id (upper case) -> monument index."""
    skill_rows: tuple[tuple[int, int, int, int, tuple[int, ...]], ...] = ()
    """Per skill, what affordability reads on the hot path: (domain, cost, prerequisite
    domain or -1, prerequisite value, copy codes)."""
    tile_index: dict[str, int] = field(default_factory=dict)
    """Tile id (upper case) -> index into :attr:`GameData.tiles`: what a placement's
    notation names."""

    @classmethod
    def of(cls, data: GameData) -> Catalog:
        """The catalog of ``data``, built once and kept with it (:attr:`GameData.catalog`),
        so that it goes when ``data`` does."""
        cat = getattr(data, "catalog", None)  # (None in data pickled before it was kept,
        if cat is None or not hasattr(cat, "tile_index"):  # or older than its tile index)
            cat = cls._build(data)
            object.__setattr__(data, "catalog", cat)  # frozen data: its one cache
        return cat

    @classmethod
    def _build(cls, data: GameData) -> Catalog:
        copy_ids: list[str] = []
        copy_skill: list[int] = []
        copy_sides: list[tuple[int, int, int, int]] = []
        skill_copies: list[tuple[int, ...]] = []
        for s, skill in enumerate(data.skills):
            codes = []
            for cp in skill.copies:
                codes.append(len(copy_ids))
                copy_ids.append(cp.id)
                copy_skill.append(s)
                copy_sides.append(cp.sides)
            skill_copies.append(tuple(codes))
        levels: list[LevelDef] = []
        level_monument: list[int] = []
        monument_levels: list[tuple[int, ...]] = []
        for m, mon in enumerate(data.monuments):
            idx = []
            for lv in mon.levels:
                idx.append(len(levels))
                levels.append(lv)
                level_monument.append(m)
            monument_levels.append(tuple(idx))
        source_code = {s.id.upper(): i for i, s in enumerate(data.skills)}
        source_code.update({lv.id.upper(): LEVEL_BASE + i for i, lv in enumerate(levels)})
        source_code.update({f.id.upper(): CAMPFIRE_BASE + i for i, f in enumerate(data.campfires)})
        return cls(
            data=data,
            skills=data.skills,
            copy_ids=tuple(copy_ids),
            copy_code={c.upper(): i for i, c in enumerate(copy_ids)} | {
                c: i for i, c in enumerate(copy_ids)},
            copy_skill=tuple(copy_skill),
            copy_sides=tuple(copy_sides),
            skill_copies=tuple(skill_copies),
            levels=tuple(levels),
            level_code={lv.id: i for i, lv in enumerate(levels)},
            monument_levels=tuple(monument_levels),
            level_monument=tuple(level_monument),
            level_sides=tuple(lv.sides for lv in levels),
            source_code=source_code,
            skill_index={s.id.upper(): i for i, s in enumerate(data.skills)},
            monument_index={m.id.upper(): i for i, m in enumerate(data.monuments)},
            skill_rows=tuple(
                (sk.domain, sk.cost,
                 -1 if sk.prerequisite is None else sk.prerequisite.domain,
                 0 if sk.prerequisite is None else sk.prerequisite.value, skill_copies[s])
                for s, sk in enumerate(data.skills)),
            tile_index={t.id.upper(): i for i, t in enumerate(data.tiles)},
        )

    def source_id(self, code: int) -> str:
        """The id of an effect source code (``T3a``, ``M01-L5``, ``F1``)."""
        if code >= CAMPFIRE_BASE:
            return self.data.campfires[code - CAMPFIRE_BASE].id
        if code >= LEVEL_BASE:
            return self.levels[code - LEVEL_BASE].id
        return self.skills[code].id

    def source_name(self, code: int) -> str:
        """A readable name: the skill's or ``Pharos of Alexandria level 5``."""
        if code >= CAMPFIRE_BASE:
            return self.data.campfires[code - CAMPFIRE_BASE].name
        if code >= LEVEL_BASE:
            lv = self.levels[code - LEVEL_BASE]
            return f"{self.data.monument_by_id[lv.monument].name} level {lv.level}"
        return self.skills[code].name

    def effects(self, code: int, advanced: bool = False) -> tuple[Effect, ...]:
        """The effects of the side now showing of source ``code``."""
        if code >= CAMPFIRE_BASE:
            return self.data.campfires[code - CAMPFIRE_BASE].effects
        if code >= LEVEL_BASE:
            return self.levels[code - LEVEL_BASE].effects
        skill = self.skills[code]
        return skill.advanced if advanced else skill.basic

    def monument_of(self, level: int) -> MonumentDef:
        return self.data.monuments[self.level_monument[level]]
