"""The component data files and their loader (``dominations-data.md``; rule ids ``D-…``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dominari.core.errors import ConfigError
from dominari.dominations.data import (
    ANY,
    CITY_DOMAIN,
    COLOURS,
    CORRUPTIO,
    DOMAIN_NAMES,
    DOMAINS,
    FILES,
    VESTIGIUM,
    Action,
    DataError,
    GameData,
    Goal,
    Modifier,
    Per,
    Prerequisite,
    RoleEffect,
    SkillDef,
    Triggered,
    builtin_folder,
    colour_code,
    colour_letter,
    default_data,
    load_data,
)

T, C, A, S, G, R = range(6)
DE = "001_f0682230117551ac.txt"


@pytest.fixture(scope="module")
def data() -> GameData:
    return default_data()


def skill(data: GameData, sid: str) -> SkillDef:
    return data.skill_by_id[sid]


def gain(domain: int, amount: int, per: Per | None = None) -> Action:
    return Action("gain_knowledge", amount, domain, per)


def vp(amount: int, per: Per | None = None) -> Action:
    return Action("gain_vp", amount, None, per)


def infl(amount: int, per: Per | None = None) -> Action:
    return Action("gain_influence", amount, None, per)


def trig(trigger: str, *actions: Action, **params: int) -> Triggered:
    return Triggered(trigger, actions, **params)


# ---------------------------------------------------------------- codes and loading
def test_codes() -> None:
    assert DOMAINS == "TCASGR" and COLOURS == "TCASGRVX"
    assert DOMAIN_NAMES == ("Trade", "Craft", "Art", "Science", "Government", "Religion")
    assert (VESTIGIUM, CORRUPTIO) == (6, 7)
    assert [colour_code(c) for c in COLOURS] == list(range(8))
    assert [colour_letter(i) for i in range(8)] == list(COLOURS)
    assert colour_letter(ANY) == "*"
    with pytest.raises(ValueError, match="unknown colour 'Q'"):
        colour_code("Q")
    with pytest.raises(ValueError):
        colour_letter(9)


def test_default_data_is_cached_and_complete(data: GameData) -> None:
    assert load_data() is data and default_data() is data
    assert (len(data.tiles), len(data.cradle), len(data.skills), len(data.campfires),
            len(data.roles), len(data.monuments), len(data.objectives)) == (
        90, 6, 72, 4, 6, 12, 16)  # fmt: skip
    assert len(data.copy_by_id) == 288 and len(data.level_by_id) == 50
    assert len(data.layouts) == 342
    assert data.builtin_files == frozenset(FILES)
    assert all(folder == builtin_folder() for folder in data.origins.values())
    assert [t.index for t in data.tiles] == list(range(90))
    assert isinstance(DataError("x"), ConfigError)


def test_importing_the_loader_does_not_import_pydantic() -> None:
    code = ("import sys, dominari.dominations.data as d; assert 'pydantic' not in sys.modules; "
            "d.default_data(); assert 'pydantic' in sys.modules")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True)


def test_summary(data: GameData) -> None:
    rows = {row.kind: row for row in data.summary()}
    assert {k: r.total for k, r in rows.items()} == {
        "land tiles": 90, "cradle cells": 6, "mastery skills": 72, "nodus layouts": 342,
        "campfires": 4, "roles": 6, "monuments": 12, "level cards": 50, "objectives": 16,
    }  # fmt: skip
    assert all(r.rulebook + r.reconstructed == r.total and r.builtin for r in rows.values())
    assert rows["land tiles"].rulebook == 0 and rows["roles"].rulebook == 6
    assert rows["level cards"].rulebook == 5  # the Pharos
    assert rows["objectives"].rulebook == 2  # Egypt and Romans
    assert rows["mastery skills"].rulebook == sum(s.prov.rulebook for s in data.skills)


# ---------------------------------------------------------------- tiles and cradle
def test_tiles(data: GameData) -> None:
    """Data spec §5: L01 is a Trade settlement with corners T, T, S; 15 tiles per colour."""
    l01 = data.tile_by_id["L01"]
    assert (l01.index, l01.settlement, l01.corners) == (0, T, (T, T, S))
    assert data.tile_by_id["L90"].corners == (VESTIGIUM, R, A)
    assert Counter(t.settlement for t in data.tiles) == dict.fromkeys(range(6), 15)
    assert all(not t.prov.rulebook for t in data.tiles)


@pytest.mark.rule("D-SET-1")
def test_cradle_rule(data: GameData) -> None:
    """Cell k shows colour k at its ccw corner and k+3 at its cw corner; each colour twice;
    the two corners meeting at each outer vertex differ."""
    assert [c.id for c in data.cradle] == [f"K{k}" for k in range(6)]
    for k, cell in enumerate(data.cradle):
        assert (cell.index, cell.ccw, cell.cw) == (k, k, (k + 3) % 6)
        assert cell.cw != data.cradle[(k + 1) % 6].ccw
    assert Counter(c for cell in data.cradle for c in (cell.ccw, cell.cw)) == dict.fromkeys(
        range(6), 2)  # fmt: skip
    assert all(cell.prov.source == "reconstructed" for cell in data.cradle)


# ---------------------------------------------------------------- mastery cards
@pytest.mark.rule("D-DEV-2", "D-DEV-5")
def test_skill_structure_and_numbers(data: GameData) -> None:
    """12 names per domain, four each of cost 3, 6, 9, in slot order 3a…9d. Rule R-CARD-1:
    upgrade cost 2/4/6, VP on acquiring 0/2/4, on upgrading 1/2/3, no printed influence, both
    paid in the card's own domain."""
    numbers = {3: (2, 0, 1), 6: (4, 2, 2), 9: (6, 4, 3)}
    for d in range(6):
        names = [s for s in data.skills if s.domain == d]
        assert [s.id for s in names] == [f"{DOMAINS[d]}{c}{x}" for c in (3, 6, 9) for x in "abcd"]
    for s in data.skills:
        assert (s.upgrade_cost, s.vp_acquire, s.vp_upgrade) == numbers[s.cost], s.id
        assert s.upgrade_domain == s.domain and s.influence == 0
        assert [c.id for c in s.copies] == [f"{s.id}-{k}" for k in range(1, 5)]
        assert all(c.owner == s.id for c in s.copies)
        assert data.copy_by_id[s.copies[2].id] is s.copies[2]


@pytest.mark.rule("D-DEV-3")
def test_prerequisites(data: GameData) -> None:
    """Rule R-CARD-2: only 9s have one, always another domain; slots 9a–9d ask 3, 6, 6, 3; each
    domain is named by four 9s (twice at 3, twice at 6); a domain's 9s name four domains; each
    domain skips exactly one other (C skips R, T skips A, S skips G, A skips S, G skips C,
    R skips T). Printed: Craft's values, and 3 for Promissory Notes, Chemistry, Architecture."""
    named: Counter[tuple[int, int]] = Counter()
    for s in data.skills:
        if s.cost != 9:
            assert s.prerequisite is None
            continue
        pre = s.prerequisite
        assert pre is not None and pre.domain != s.domain
        assert pre.value == {"a": 3, "b": 6, "c": 6, "d": 3}[s.id[-1]]
        named[pre.domain, pre.value] += 1
    assert named == {(d, v): 2 for d in range(6) for v in (3, 6)}
    skips = {}
    for d in range(6):
        pres = {s.prerequisite.domain for s in data.skills if s.domain == d and s.prerequisite}
        assert len(pres) == 4
        (skipped,) = set(range(6)) - pres - {d}
        skips[DOMAINS[d]] = DOMAINS[skipped]
    assert skips == {"C": "R", "T": "A", "S": "G", "A": "S", "G": "C", "R": "T"}
    craft = {s.name: s.prerequisite for s in data.skills if s.domain == C and s.cost == 9}
    assert {n: p.value for n, p in craft.items() if p} == {
        "Masonry": 3, "Irrigation": 6, "Warehouse": 6, "Smithing": 3}  # fmt: skip
    printed = {sid: skill(data, sid).prerequisite for sid in ("T9a", "S9a", "A9a")}
    assert {sid: pre.value for sid, pre in printed.items() if pre} == dict.fromkeys(printed, 3)
    assert skill(data, "T9a").prerequisite == Prerequisite(G, 3)


def test_craft_names_are_printed(data: GameData) -> None:
    """The DE "Basis Handwerk" aid prints all 12 Craft names."""
    craft = [(s.name, s.name_de) for s in data.skills if s.domain == C]
    assert craft == [
        ("Fishing", "Fischerei"), ("Agriculture", "Landwirtschaft"), ("Mining", "Bergbau"),
        ("Handicraft", "Kunsthandwerk"), ("Pottery", "Töpferei"),
        ("Road Building", "Straßenbau"), ("Livestock", "Viehzucht"),
        ("Bridge Building", "Brückenbau"), ("Masonry", "Maurerhandwerk"),
        ("Irrigation", "Bewässerung"), ("Warehouse", "Warenlager"),
        ("Smithing", "Schmiedekunst"),
    ]  # fmt: skip
    for s in data.skills:
        if s.domain == C:
            assert s.prov.rulebook and "name" in s.prov.known and "domain" in s.prov.known


def test_templates(data: GameData) -> None:
    """Templates T1/T2/T3/A5/N1 (data spec §2.5) in slots 3a, 3b, 3c, 6a, 6b of every domain;
    the advanced side doubles the number."""
    for d in range(6):
        x = DOMAINS[d]
        t1, t2, t3 = skill(data, f"{x}3a"), skill(data, f"{x}3b"), skill(data, f"{x}3c")
        a5, n1 = skill(data, f"{x}6a"), skill(data, f"{x}6b")
        assert t1.basic == (trig("start_of_turn", gain(d, 1)),)
        assert t1.advanced == (trig("start_of_turn", gain(d, 2)),)
        assert t2.basic == (trig("on_produce", gain(d, 1), domain=d, every=2),)
        assert t2.advanced == (trig("on_produce", gain(d, 2), domain=d, every=2),)
        assert t3.basic == (trig("on_complete_nodus", gain(d, 2), colour=d),)
        assert t3.advanced == (trig("on_complete_nodus", gain(d, 4), colour=d),)
        assert a5.basic == (trig("start_of_age", gain(d, 5)),)
        assert a5.advanced == (trig("start_of_age", gain(d, 10)),)
        assert n1.basic == (trig("end_of_age", vp(1, Per("nodi", colour=d))),)
        assert n1.advanced == (trig("end_of_age", vp(2, Per("nodi", colour=d))),)
    barter, agriculture = skill(data, "T3b"), skill(data, "C3b")
    assert barter.name == "Barter" and agriculture.name == "Agriculture"
    assert barter.prov.cite == (DE, "002_3edeaffb8ad076ea.txt")
    assert "+2" in barter.prov.note and "+1" in barter.prov.note


def test_rulebook_effects(data: GameData) -> None:
    """Effects the seed rulebook prints (as the data spec reads them)."""
    notes = skill(data, "T9a")
    assert (notes.name, notes.basic) == ("Promissory Notes", (Modifier("exchange", domain=T,
                                                                       pay=1, get=1),))
    assert notes.advanced == notes.basic
    assert skill(data, "T6c").basic == (trig("immediate", gain(T, 10)),)
    assert skill(data, "C9a").basic == skill(data, "C9a").advanced == (
        trig("immediate", infl(6)),)  # fmt: skip
    irrigation = skill(data, "C9b").basic
    assert irrigation == (Modifier("cost_reduction", 1, Per("cities"), target="city"),)
    assert skill(data, "C9c").advanced == (trig("end_of_age", vp(1, Per("know", domain=C))),
                                           Modifier("reserve_limit_raise", 5, domain=C))
    assert skill(data, "C9d").basic == (
        trig("end_of_age", vp(1, Per("nodi", except_colour=C))),)  # fmt: skip
    assert skill(data, "C6c").basic == (Modifier("production_bonus", 1, source="settle",
                                                 as_vestigium=True),)
    assert skill(data, "C6d").basic == (
        trig("on_build_or_upgrade_city", gain(CITY_DOMAIN, 2)),)  # fmt: skip
    assert skill(data, "A3d").basic == skill(data, "A3d").advanced == (
        trig("immediate", infl(1)),)  # fmt: skip
    assert skill(data, "A9a").basic == (trig("end_of_age", vp(3, Per("mcards"))),)
    assert skill(data, "S6c").basic == (trig("end_of_age", vp(3, Per("colours"))),)
    assert skill(data, "S9a").basic == (trig("end_of_age", vp(1, Per("cards", side="b")),
                                             vp(2, Per("cards", side="a"))),)
    art_of_war = skill(data, "G6c")
    assert art_of_war.basic == (trig("immediate", infl(1, Per("cities"))),)
    assert art_of_war.advanced == (trig("immediate", infl(1, Per("levels"))),)
    assert set(art_of_war.prov.assigned) == {"cost", "domain"}
    assert skill(data, "R6c").basic == (trig("on_domination_received", vp(6)),)
    assert skill(data, "R6d").basic == skill(data, "R6d").advanced == (
        Modifier("cost_reduction", 2, target="city"),)  # fmt: skip
    assert skill(data, "S9d").basic == (
        trig("end_of_age", vp(2, Per("cards", values=(6, 9)))),)  # fmt: skip
    assert skill(data, "R9c").basic == (trig("on_produce", gain(R, 1), domain=ANY, every=3),)
    assert skill(data, "T9b").basic == (trig("end_of_age", vp(1, Per("know", divisor=3))),)


def test_provenance_translation(data: GameData) -> None:
    """src letters: plain → known, ``~`` → read, ``*`` → assigned; ``rc`` → reconstructed with
    empty lists; parenthetical remarks → note."""
    caravans = skill(data, "T3a").prov
    assert caravans.source == "rulebook" and caravans.cite == (DE,)
    assert set(caravans.known) == {"name", "name_de", "cost", "basic", "advanced"}
    assert caravans.assigned == ("domain",) and caravans.read == ()
    assert caravans.note == "Caravans=Trade, Shipping=Science"
    barter = skill(data, "T3b").prov
    assert set(barter.read) == {"basic", "cost", "domain"}
    masonry = skill(data, "C9a").prov
    assert "prerequisite.value" in masonry.read and "prerequisite.domain" in masonry.assigned
    markets = skill(data, "T3c").prov
    assert (markets.source, markets.cite, markets.known, markets.read, markets.assigned) == (
        "reconstructed", (), (), (), ())  # fmt: skip
    writing = skill(data, "S3d").prov
    assert writing.source == "reconstructed" and "upgrade costs" in writing.note
    rulebook = [s for s in data.skills if s.prov.rulebook]
    assert all(DE in s.prov.cite for s in rulebook)
    assert {s.domain for s in data.skills if not s.prov.rulebook} == set(range(6)) - {C}
    for s in data.skills:
        listed = [*s.prov.known, *s.prov.read, *s.prov.assigned]
        assert len(listed) == len(set(listed))
        if s.cost == 9 and s.prov.rulebook:
            assert "prerequisite.domain" in s.prov.assigned


# ---------------------------------------------------------------- monuments
@pytest.mark.rule("D-BUILD-6")
def test_pharos_levels(data: GameData) -> None:
    """The Pharos as printed: costs 5/8/12/24/15 and VP 5/8/6/8/5 in that order (cost 24 is
    more than one domain's limit, so level costs are paid in any mix: cost_domain None)."""
    pharos = data.monument_by_id["M01"]
    assert (pharos.name, pharos.name_de, pharos.domain) == ("Pharos of Alexandria", "Der Pharos",
                                                            T)
    assert [lv.cost for lv in pharos.levels] == [5, 8, 12, 24, 15]
    assert [lv.vp for lv in pharos.levels] == [5, 8, 6, 8, 5]
    assert [lv.level for lv in pharos.levels] == [1, 2, 3, 4, 5]
    assert all(lv.cost_domain is None and lv.prov.rulebook and lv.prov.cite == (DE,)
               for lv in pharos.levels)  # fmt: skip
    l1, l2, l3, l4, l5 = pharos.levels
    assert l1.effects == (trig("immediate", Action("fill_knowledge", 0, T)),)
    assert l2.effects == (trig("immediate", gain(T, 1, Per("bcities", domain=T))),)
    assert l3.effects == l4.effects == ()
    assert l5.effects == (trig("when_dominance_determined", gain(T, 2)),)
    assert l1.prov.read == ("vp",) and "uncertain" in l1.prov.note
    assert "vp" in l3.prov.known and "cost" in l4.prov.known


@pytest.mark.rule("D-BUILD-7", "D-BUILD-9", "D-SET-3")
def test_monuments(data: GameData) -> None:
    """Six diamonds and six circles, two monuments per domain, 50 level cards numbered 1…n;
    the reconstructed level numbers follow the data spec's table by stack size."""
    assert Counter(m.shape for m in data.monuments) == {"diamond": 6, "circle": 6}
    assert Counter(m.domain for m in data.monuments) == dict.fromkeys(range(6), 2)
    assert sum(len(m.levels) for m in data.monuments) == 50
    table = {5: ([5, 8, 12, 15, 20], [5, 6, 7, 8, 10]), 4: ([5, 9, 13, 17], [5, 6, 8, 10]),
             3: ([6, 12, 18], [5, 8, 11])}  # fmt: skip
    for m in data.monuments:
        assert [lv.level for lv in m.levels] == list(range(1, len(m.levels) + 1))
        assert all(lv.monument == m.id and lv.id == f"{m.id}-L{lv.level}" for lv in m.levels)
        assert all(lv.sides == data.layouts[lv.id].sides for lv in m.levels)
        if m.id != "M01":
            assert ([lv.cost for lv in m.levels], [lv.vp for lv in m.levels]) == table[
                len(m.levels)], m.id  # fmt: skip
        if m.shape == "diamond":
            assert m.place_domain == m.domain and m.reward_domain is None
            assert m.sides is not None and m.corners is not None and len(m.corners) == 6
        else:
            assert m.place_domain is None and m.reward_domain == m.domain
            assert m.sides is None and m.corners is None
    pharos, wall, gardens = (data.monument_by_id[k] for k in ("M01", "M02", "M07"))
    assert (pharos.reward_vp, pharos.sides) == (10, ("R", "R", "-", "-"))
    assert pharos.corners == (T, S, None, A, T, None)
    assert wall.shape == "diamond" and "shape" in wall.prov.known
    assert (gardens.shape, gardens.reward_vp, gardens.reward_domain) == ("circle", 5, C)
    assert set(gardens.prov.known) >= {"shape", "domain", "reward"}
    assert [m.id for m in data.monuments if m.prov.rulebook] == ["M01", "M02", "M07"]


# ---------------------------------------------------------------- roles, campfires, objectives
@pytest.mark.rule("D-AGE-7", "D-AGE-8", "D-END-1")
def test_roles(data: GameData) -> None:
    """Domination cards: VP 6/5/4/3/2/1 (Governor 0 with 2 players), 3 VP each in age 3;
    Inventor and Artisan are one-shot."""
    assert [r.domain for r in data.roles] == list(range(6))
    by_id = data.role_by_id
    assert {k: r.vp for k, r in by_id.items()} == {"DG": 6, "DR": 5, "DA": 4, "DT": 3,
                                                   "DS": 2, "DC": 1}  # fmt: skip
    assert {k: r.vp_two_players for k, r in by_id.items()} == {"DG": 0, "DR": 5, "DA": 4,
                                                               "DT": 3, "DS": 2, "DC": 1}
    assert all(r.vp_age3 == 3 for r in data.roles)
    assert {k for k, r in by_id.items() if r.one_shot} == {"DS", "DC"}
    assert by_id["DG"].effects == (RoleEffect("role_initiative"),)
    assert by_id["DR"].effects == (RoleEffect("role_tiles", 2),)
    assert by_id["DA"].effects == (trig("immediate", infl(2)),)
    assert by_id["DT"].effects == (Modifier("production_bonus", 1, source="settle"),)
    assert by_id["DS"].effects == (RoleEffect("role_reactivate"),)
    assert by_id["DC"].effects == (RoleEffect("role_second_tile"),)
    assert [(r.name, r.name_de, r.name_es) for r in data.roles] == [
        ("Merchant", "Kaufmann", "Comerciante"), ("Artisan", "Bauer", "Artesano"),
        ("Diplomat", "Diplomatin", "Diplomática"), ("Inventor", "Erfinderin", "Inventora"),
        ("Governor", "Gouverneur", "Gobernador"),
        ("High Priestess", "Hohepriesterin", "Suma Sacerdotisa"),
    ]  # fmt: skip
    assert all(r.prov.rulebook and len(r.prov.cite) == 2 for r in data.roles)


@pytest.mark.rule("D-SET-4", "D-FLOW-3", "D-DEV-9")
def test_campfires(data: GameData) -> None:
    """Four identical campfires: exchange 2 → 1 between domains; all halves vestigium."""
    assert [f.id for f in data.campfires] == ["F1", "F2", "F3", "F4"]
    for f in data.campfires:
        assert f.effects == (Modifier("exchange", domain=ANY, pay=2, get=1),)
        assert f.sides == (VESTIGIUM,) * 4
        assert f.prov.rulebook and data.layouts[f.id].prov.source == "reconstructed"


@pytest.mark.rule("D-END-2", "D-END-3")
def test_objectives(data: GameData) -> None:
    """16 cards of 5 goals; Egypt's goals; the rulebook's symbol examples are used."""
    assert all(len(o.goals) == 5 for o in data.objectives)
    egypt = data.objective_by_id["O01"]
    assert (egypt.name, egypt.name_de, egypt.prov.rulebook) == ("Egypt", "Aegyptus", True)
    assert egypt.goals == (
        Goal("monuments", count=1), Goal("nodi", nodi=((R, 4),)),
        Goal("cities_of_levels", levels=((1, 4), (2, 1))), Goal("monuments", count=2),
        Goal("mastery_cards", cards=(data.objective_by_id["O15"].goals[4].cards)),
    )  # fmt: skip
    (card,) = egypt.goals[4].cards
    assert (card.count, card.value, card.domains) == (2, 9, (C, R))
    romans = data.objective_by_id["O02"]
    assert (romans.name_de, romans.goals[0]) == ("Römer", Goal("cities_of_levels",
                                                               levels=((1, 5), (2, 1))))
    assert romans.goals[4] == Goal("influence", count=35) and "45" in romans.prov.note
    assert data.objective_by_id["O12"].goals[4] == Goal("nodi", nodi=((T, 8), (G, 5), (S, 3)))
    mali = data.objective_by_id["O16"]
    assert mali.goals[3] == Goal("influence", count=30)
    assert [(q.count, q.value, q.domains) for q in mali.goals[4].cards] == [
        (4, 6, (T, S)), (3, 9, (T, G))]  # fmt: skip
    assert [o.id for o in data.objectives if o.prov.rulebook] == ["O01", "O02"]
    kinds = Counter(g.kind for o in data.objectives for g in o.goals)
    assert set(kinds) == {"cities_of_levels", "adjacent_cities", "city_groups", "monuments",
                          "nodi", "influence", "mastery_cards"}  # fmt: skip


# ---------------------------------------------------------------- loader errors
Mutation = Callable[[Any], Any]


def write_mutated(folder: Path, name: str, mutate: Mutation | None = None,
                  text: Callable[[str], str] | None = None) -> Path:  # fmt: skip
    """Copy a built-in file into ``folder``, changed by ``mutate`` (in place on the parsed
    JSON; a returned value replaces it) or by ``text`` (on the raw text)."""
    raw = (builtin_folder() / name).read_text(encoding="utf-8")
    if text is not None:
        raw = text(raw)
    if mutate is not None:
        value = json.loads(raw)
        replaced = mutate(value)
        raw = json.dumps(value if replaced is None else replaced, ensure_ascii=False, indent=1)
    (folder / name).write_text(raw, encoding="utf-8")
    return folder


def error(folder: Path) -> str:
    with pytest.raises(DataError) as info:
        load_data(folder)
    message = str(info.value)
    assert "\n" not in message
    return message.replace(f"{folder}{os.sep}", "")  # a user's file is named by its path


def record(items: list[Any], rid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in items if r["id"] == rid)
    return found


def set_field(rid: str, key: str, value: Any) -> Mutation:
    return lambda d: record(d, rid).__setitem__(key, value)


def drop(part: Callable[[Any], Any], key: Any = -1) -> Mutation:
    """Remove ``part(data)[key]`` (the last item by default)."""

    def mutate(data: Any) -> None:
        part(data).pop(key)

    return mutate


def whole(data: Any) -> Any:
    return data


CASES: list[tuple[str, str, Mutation, str]] = [
    ("bad type", "skills.json", set_field("C3b", "upgrade_cost", "two"),
     "skills.json: record C3b: field 'upgrade_cost': expected an integer, got \"two\""),
    ("name with an escape", "skills.json", set_field("C3b", "name", "Smelting\x1b[2J"),
     "skills.json: record C3b: field 'name': must hold no control characters, got "
     "\"Smelting\\u001b[2J\""),
    ("name with an override", "roles.json", lambda d: d[0].__setitem__("name_de", "a\u202eb"),
     "roles.json: record DG: field 'name_de': must hold no control characters, got "
     "\"a\\u202eb\""),
    ("bool is no integer", "skills.json", set_field("C3b", "cost", True),
     "skills.json: record C3b: field 'cost': expected an integer, got true"),
    ("huge vp", "roles.json", set_field("DG", "vp", 10**30),
     "roles.json: record DG: field 'vp': must be at most 1,000, got "
     "1000000000000000000000000000000"),
    ("bad cost", "skills.json", set_field("C3b", "cost", 4),
     "skills.json: record C3b: field 'cost': expected 3, 6 or 9, got 4"),
    ("unknown field", "skills.json", set_field("C3b", "colour", "C"),
     "skills.json: record C3b: unknown field 'colour'"),
    ("missing field", "skills.json", drop(lambda d: record(d, "C3b"), "vp_upgrade"),
     "skills.json: record C3b: missing field 'vp_upgrade'"),
    ("bad colour", "tiles.json", set_field("L07", "corners", ["T", "Q", "S"]),
     "tiles.json: record L07: field 'corners[1]': unknown colour 'Q' (expected one of "
     "T C A S G R V)"),
    ("bad trigger", "skills.json",
     lambda d: record(d, "C3b")["basic"][0].__setitem__("trigger", "on_sunrise"),
     "skills.json: record C3b: field 'basic[0].trigger': unknown trigger \"on_sunrise\""),
    ("bad action kind", "skills.json",
     lambda d: record(d, "C3b")["advanced"][0]["actions"][0].__setitem__("kind", "steal"),
     "skills.json: record C3b: field 'advanced[0].actions[0].kind': unknown action kind "
     "\"steal\""),
    ("bad effect", "skills.json", lambda d: record(d, "C3b")["basic"].__setitem__(0, {"x": 1}),
     "skills.json: record C3b: field 'basic[0]': an effect needs a 'trigger', 'modifier' or "
     "'role' key"),
    ("bad modifier", "skills.json",
     lambda d: record(d, "T3d")["basic"][0].__setitem__("modifier", "magic"),
     "skills.json: record T3d: field 'basic[0].modifier': unknown modifier \"magic\""),
    ("bad count", "skills.json",
     lambda d: record(d, "C9d")["basic"][0]["actions"][0]["per"].__setitem__("count", "cats"),
     "skills.json: record C9d: field 'basic[0].actions[0].per.count': unknown count \"cats\""),
    ("role effect on a card", "skills.json",
     lambda d: record(d, "C3b")["basic"].__setitem__(0, {"role": "role_initiative"}),
     "skills.json: record C3b: field 'basic[0]': role effects belong on domination cards only"),
    ("city gain outside CITY", "skills.json",
     lambda d: record(d, "C3a")["basic"][0]["actions"][0].__setitem__("domain", "city"),
     "skills.json: record C3a: field 'basic[0].actions[0].domain': 'city' only works under"),
    ("71 skills", "skills.json", drop(whole), "skills.json: 71 skills, expected 72"),
    ("skills per cost", "skills.json", set_field("T6a", "cost", 3),
     "skills.json: 5 Trade skills of cost 3 (T3a, T3b, T3c, T3d, T6a), expected 4 (the game "
     "has 4 of each cost a domain: to make a card cheaper, swap its cost with another's, a "
     "cost-9 card's prerequisite with it)"),
    ("duplicate id", "skills.json", set_field("T3b", "id", "T3a"),
     "skills.json: duplicate id 'T3a' (records #1 and #2)"),
    ("prerequisite on a 3", "skills.json", set_field("T3a", "prerequisite",
                                                     {"domain": "G", "value": 3}),
     "skills.json: record T3a: field 'prerequisite': only cost-9 cards have a prerequisite"),
    ("own prerequisite", "skills.json", set_field("T9a", "prerequisite",
                                                  {"domain": "T", "value": 3}),
     "skills.json: record T9a: field 'prerequisite.domain': must be another domain"),
    ("missing prerequisite", "skills.json", set_field("T9a", "prerequisite", None),
     "skills.json: record T9a: field 'prerequisite': a cost-9 card needs a prerequisite"),
    ("provenance names a field", "skills.json", set_field("T3a", "known", ["name", "flavour"]),
     "skills.json: record T3a: field 'known': no field 'flavour' in this record"),
    ("reconstructed lists nothing", "skills.json", set_field("T3c", "read", ["name"]),
     "skills.json: record T3c: field 'read': must be empty in a reconstructed record"),
    ("rulebook cites", "roles.json", set_field("DG", "cite", []),
     "roles.json: record DG: field 'cite': a rulebook record cites at least one source"),
    ("bad source", "tiles.json", set_field("L01", "source", "guess"),
     "tiles.json: record L01: field 'source': expected 'rulebook' or 'reconstructed', "
     "got \"guess\""),
    ("14 tiles of a colour", "tiles.json", set_field("L02", "settlement", "C"),
     "tiles.json: 14 tiles with a Trade settlement (T), expected 15"),
    ("not a list", "tiles.json", lambda d: {"tiles": d},
     "tiles.json: expected a JSON list of records"),
    ("3 copies", "layouts.json", drop(whole, "C3b-2"),
     "layouts.json: skill C3b has 3 copies, expected 4 (missing C3b-2)"),
    ("layout of no card", "layouts.json", lambda d: d.__setitem__("Z9a-1", list("TTCA")),
     "layouts.json: record Z9a-1: matches no mastery card copy, level card or campfire"),
    ("a fifth copy", "layouts.json", lambda d: d.__setitem__("C3b-5", list("TTCA")),
     "layouts.json: record C3b-5: copy 5 of skill C3b is not a card"),
    ("short layout", "layouts.json", lambda d: d.__setitem__("C3b-1", list("TTC")),
     "layouts.json: record C3b-1: field 'sides': expected at least 4 items, got 3"),
    ("no level layout", "layouts.json", drop(whole, "M03-L2"),
     "layouts.json: no layout for the level card M03-L2"),
    ("level numbering", "monuments.json",
     lambda d: record(d, "M03")["levels"][1].__setitem__("level", 3),
     "monuments.json: record M03: field 'levels[1].level': expected 2"),
    ("49 level cards", "monuments.json", drop(lambda d: record(d, "M12")["levels"]),
     "monuments.json: 49 monument level cards, expected 50"),
    ("closed corner", "monuments.json",
     lambda d: record(d, "M01")["corners"].__setitem__("c1.S", "T"),
     "monuments.json: record M01: field 'corners.c1.S': must be null"),
    ("circle with sides", "monuments.json", set_field("M03", "shape", "circle"),
     "monuments.json: record M03: field 'place': a circle is placed {\"locus\": true}"),
    ("4 goals", "objectives.json", drop(lambda d: record(d, "O01")["goals"]),
     "objectives.json: record O01: field 'goals': 4 goals, expected 5"),
    ("bad goal kind", "objectives.json",
     lambda d: record(d, "O01")["goals"][1].__setitem__("kind", "nodes"),
     "objectives.json: record O01: field 'goals[1].kind': unknown goal kind \"nodes\""),
    ("two roles of a domain", "roles.json", set_field("DR", "domain", "G"),
     "roles.json: two domination cards of domain G: DG and DR"),
    ("cradle cell missing", "cradle.json", drop(whole),
     "cradle.json: 5 cells, expected 6: K5 missing"),
    ("3 campfires", "campfires.json", drop(whole),
     "campfires.json: 3 campfire cards, expected 4"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "mutate", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_loader_errors(tmp_path: Path, file: str, mutate: Mutation, expected: str) -> None:
    """One mutation of one built-in file: a one-line error naming file, record and field."""
    message = error(write_mutated(tmp_path, file, mutate))
    assert message.startswith(expected), message


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    write_mutated(tmp_path, "skills.json", text=lambda t: t.replace('"cost": 3,', '"cost": 3', 1))
    assert error(tmp_path).startswith("skills.json: invalid JSON at line 8, column 5:")
    with pytest.raises(DataError) as info:  # the file named by its path in the user's folder
        load_data(tmp_path)
    assert str(info.value).startswith(f"{tmp_path / 'skills.json'}: invalid JSON")


def test_duplicate_json_key(tmp_path: Path) -> None:
    write_mutated(tmp_path, "layouts.json",
                  text=lambda t: t.replace('"A3a-1":', '"A3a-2": ["T", "T", "T", "T"], "A3a-1":'))
    assert error(tmp_path) == "layouts.json: the key 'A3a-2' appears twice in one object"


def test_errors_in_built_in_files_say_so(tmp_path: Path) -> None:
    """A user file can break a built-in one: that file is labelled ``(built-in)``."""
    write_mutated(tmp_path, "campfires.json", set_field("F4", "id", "F5"))
    assert error(tmp_path) == ("layouts.json (built-in): record F4: matches no mastery card "
                               "copy, level card or campfire")


def test_folder_errors(tmp_path: Path) -> None:
    assert error(tmp_path / "nope") == f"data folder {str(tmp_path / 'nope')!r} does not exist"
    assert error(tmp_path).startswith(f"{tmp_path}: no data files (expected one or more of "
                                      "tiles.json")  # fmt: skip
    (tmp_path / "skill.json").write_text("[]", encoding="utf-8")
    assert error(tmp_path).startswith(f"{tmp_path}: unknown data file skill.json")
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert error(tmp_path / "file").endswith("is not a folder")


# ---------------------------------------------------------------- user folders
def test_partial_folder_takes_the_rest_built_in(tmp_path: Path) -> None:
    shutil.copy(builtin_folder() / "tiles.json", tmp_path / "tiles.json")
    data = load_data(tmp_path)
    assert data.origins["tiles.json"] == tmp_path
    assert data.builtin_files == frozenset(FILES) - {"tiles.json"}
    assert all(data.origins[f] == builtin_folder() for f in data.builtin_files)
    rows = {row.file: row for row in data.summary()}
    assert not rows["tiles.json"].builtin and rows["skills.json"].builtin
    assert data.tiles == default_data().tiles
    assert load_data(str(tmp_path)).skills == default_data().skills


def test_a_corrected_layout_keeps_its_provenance(tmp_path: Path) -> None:
    """A layout written as an object carries its own provenance (e.g. read off a card)."""
    corrected = {"sides": ["C", "V", "C", "T"], "source": "rulebook", "cite": ["my copy"],
                 "known": ["sides"], "read": [], "assigned": [], "note": "checked"}  # fmt: skip
    write_mutated(tmp_path, "layouts.json", lambda d: d.__setitem__("C3b-1", corrected))
    data = load_data(tmp_path)
    copy = data.copy_by_id["C3b-1"]
    assert copy.sides == (C, VESTIGIUM, C, T) and copy.prov.rulebook
    assert copy.prov.known == ("sides",) and copy.prov.note == "checked"
    assert {r.kind: r.rulebook for r in data.summary()}["nodus layouts"] == 1
    corrected["known"] = ["colour"]
    write_mutated(tmp_path, "layouts.json", lambda d: d.__setitem__("C3b-1", corrected))
    assert error(tmp_path).startswith("layouts.json: record C3b-1: field 'known': no field "
                                      "'colour'")  # fmt: skip


def test_a_corrected_record_loads(tmp_path: Path) -> None:
    """Correcting one field (e.g. from a physical card) is all it takes."""
    def fix(d: Any) -> None:
        rec = record(d, "T3c")
        rec.update(name="Marketplace", source="rulebook", cite=["physical card"],
                   known=["name"])

    write_mutated(tmp_path, "skills.json", fix)
    markets = load_data(tmp_path).skill_by_id["T3c"]
    assert markets.name == "Marketplace" and markets.prov.known == ("name",)


def test_a_catalog_goes_with_its_data(tmp_path: Path) -> None:
    """The engine's index of a data set is made once and kept with it, not in a cache
    of its own: a long-lived worker that loads many edited folders keeps none it let go."""
    import copy
    import gc

    from dominari.dominations.cards import Catalog

    shutil.copy(builtin_folder() / "tiles.json", tmp_path / "tiles.json")
    data = load_data(tmp_path)
    catalog = Catalog.of(data)
    assert Catalog.of(data) is catalog and catalog.data is data
    assert Catalog.of(load_data(tmp_path)) is not catalog  # each load its own
    assert copy.deepcopy(data) is data and copy.copy(data) is data  # unchanging: shared
    made = id(catalog)
    del data, catalog
    gc.collect()
    assert not any(id(o) == made for o in gc.get_objects() if isinstance(o, Catalog))


def test_a_placement_names_a_tile_of_its_own_games_data(tmp_path: Path) -> None:
    """D-GROW-1: a placement names a tile of the game's own data, by the id its file gives
    (any case); the index from ids is made once with the data's catalog, and every game
    on that data reads the same one."""
    from dominari.core import ParseError
    from dominari.dominations.cards import Catalog
    from dominari.dominations.engine import PLACE, DominationsState

    def renamed(tiles: list[dict[str, object]]) -> None:
        for tile in tiles:
            tile["id"] = "Q" + str(tile["id"])[1:]

    data = load_data(write_mutated(tmp_path, "tiles.json", renamed))
    state = DominationsState.new(data=data, players=2, seed=3)
    while not any(a.kind == PLACE for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    place = next(a for a in state.legal_actions() if a.kind == PLACE)
    text = state.format_action(place)
    assert text.startswith("Q")
    assert state.parse_action(text) == place
    assert state.parse_action(text.lower()) == place
    with pytest.raises(ParseError, match="L" + text[1:3]):
        state.parse_action("L" + text[1:])
    other = DominationsState.new(data=data, players=3, seed=4)
    assert other.parse_action(text) == place
    assert other._tile_index is state._tile_index  # one index for the data, not a game
    assert Catalog.of(data).tile_index[text.split()[0]] == place.a
