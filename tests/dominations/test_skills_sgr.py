"""Science, Government and Religion mastery skills (S3a … R9d) played through the engine.

Each test acquires the skill (cost, VP on acquiring, prerequisite), lets its basic side act the
way the game triggers it, then upgrades it (upgrade cost and VP) and checks that the advanced
side acts instead (data spec §2, §3; rules §7, §9).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominations.board import LAND
from dominari.dominations.engine import (
    AGE_END,
    BUILD,
    CITY_LIMIT,
    DEVELOP,
    EV_KNOWLEDGE,
    GROWTH,
    VP_MASTERY,
    VP_ROLES,
    DominationsState,
)
from dominari.dominations.grid import Cell
from dominari.dominations.notation import ACQUIRE, Action
from dominari.dominations.production import CITY as CITY_YIELD
from dominari.dominations.production import CITY_BONUS
from dominari.dominations.tree import Pos

from .helpers import (
    assign_all,
    do,
    finish_age_start,
    give,
    grant,
    new,
    other_turn,
    role_influence,
    tile,
    to_age_end,
    to_develop,
)

T, C, A, S, G, R = range(6)
V = 6  # vestigium, in production totals


# -- scenario helpers ---------------------------------------------------------------------------


def sk(s: DominationsState, sid: str) -> int:
    """The skill index of ``sid``."""
    return s.catalog.skill_index[sid.upper()]


def spot(s: DominationsState, p: int, sid: str, forms: list[int] | None = None,
         count: int | None = None) -> tuple[str, Pos]:
    """A free copy of ``sid`` and a legal tree position for it; with ``forms``, one whose
    placement completes exactly nodi of these colours; with ``count``, that many nodi."""
    cat = s.catalog
    tree = s.players[p].tree
    for code in cat.skill_copies[sk(s, sid)]:
        if s.taken[code] >= 0:
            continue
        sides = cat.copy_sides[code]
        for pos in tree.legal_positions(sides):
            formed = sorted(tree.nodi_formed(pos, sides))
            if (forms is None or formed == sorted(forms)) and (
                    count is None or len(formed) == count):
                return cat.copy_ids[code], pos
    raise AssertionError(f"no copy of {sid} fits forming {forms or count}")


def acquire(s: DominationsState, sid: str, forms: list[int] | None = None,
            count: int | None = None) -> list[int]:
    """Acquire ``sid`` through the engine (the mover, in their develop phase), where
    :func:`spot` says; returns the colours of the nodi the placement completes."""
    p = s.mover
    cat = s.catalog
    cid, (col, row) = spot(s, p, sid, forms, count)
    formed = s.players[p].tree.nodi_formed((col, row), cat.copy_sides[cat.copy_code[cid]])
    do(s, f"acquire {cid} {col},{row}")
    return formed


def gift(s: DominationsState, p: int, sid: str, forms: list[int] | None = None,
         advanced: bool = False) -> None:
    """Scenario set-up: put a copy of ``sid`` in ``p``'s tree (no cost, VP or effect)."""
    cid, pos = spot(s, p, sid, forms)
    grant(s, p, cid, pos, advanced=advanced)


def back_to(s: DominationsState, p: int) -> None:
    """Play the other players' turns until ``p``'s growth phase (start-of-turn effects done)."""
    finish_age_start(s)
    while s.mover != p:
        other_turn(s)
        finish_age_start(s)
    assert s.phase == GROWTH and not s.stack


def develop_turn(s: DominationsState, p: int) -> None:
    """On to ``p``'s next develop phase."""
    back_to(s, p)
    to_develop(s)


def settle(s: DominationsState, player: int, tid: str, cell: str, level: int = 1) -> int:
    """Scenario set-up: lay tile ``tid`` on ``cell`` (nothing produced) with ``player``'s city
    of ``level`` on its settlement; tokens and the reserve limit follow (D-BUILD-3/4)."""
    t = tile(s, tid)
    for ps in s.players:
        if t in ps.hand:
            ps.hand.remove(t)
    if t in s.supply:
        s.supply.remove(t)
    key = Cell.parse(cell).key
    td = s.data.tiles[t]
    c0, c1, c2 = td.corners
    s.board.fill(key, LAND, (c0, c1, c2), td.settlement, t, 0)
    s.board.build_city(key, player)
    for _ in range(level - 1):
        s.board.upgrade_city(key)
    ps = s.players[player]
    ps.tokens -= level
    ps.city_limit[td.settlement] = max(ps.city_limit[td.settlement], CITY_LIMIT[level])
    return key


def mine(s: DominationsState, action: Action) -> list[int]:
    """The mover's production of a placement, per domain (6 = vestigium), from the preview."""
    tot = [0] * 7
    for y in s.preview(action):
        if y.player == s.mover:
            tot[y.domain] += y.amount
    return tot


def placement(s: DominationsState, tids: tuple[str, ...], want: Callable[[list[int]], bool]
              ) -> tuple[Action, list[int]]:
    """Give the mover these tiles and find a placement of one of them whose production
    (:func:`mine`) satisfies ``want``."""
    give(s, *tids)
    for a in s.placements([tile(s, t) for t in tids]):
        tot = mine(s, a)
        if want(tot):
            return a, tot
    raise AssertionError("no such placement")


def city_items(s: DominationsState, action: Action) -> list[tuple[int, int]]:
    """(source, amount) of the city items of a placement's preview."""
    return [(y.source, y.amount) for y in s.preview(action)
            if y.source in (CITY_YIELD, CITY_BONUS)]


def play_until(s: DominationsState, stop: Callable[[DominationsState], bool]) -> None:
    """Play on (first legal answers, passes) until ``stop`` holds."""
    while not stop(s):
        if s.phase in (BUILD, DEVELOP) and not s.stack:
            do(s, "pass")
        else:
            s.apply(s.legal_actions()[0])


def last_develop(s: DominationsState) -> bool:
    """The develop phase of the last turn of the age, nothing pending."""
    return (s.round == 4 and s.seat == s.num_players - 1 and s.phase == DEVELOP
            and not s.stack)


def mastery_vp(s: DominationsState, p: int) -> int:
    return s.players[p].vp_by[VP_MASTERY]


# -- templates T1, T2, T3, A5, N1 (data spec §2.5) ----------------------------------------------


@pytest.mark.rule("D-DEV-1", "D-DEV-2", "D-DEV-5", "D-FLOW-5")
@pytest.mark.parametrize(("sid", "d"), [("S3a", S), ("G3a", G), ("R3a", R)])
def test_t1_start_of_turn_gain(sid: str, d: int) -> None:
    """Shipping / Military Doctrine / Religious Rituals (T1): 1 of the domain at the start of
    each of your turns, before growth; 2 once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[d] = 4
    acquire(s, sid)
    assert ps.knowledge[d] == 1 and ps.vp == 0  # paid 3, no VP for a 3
    back_to(s, p)
    assert ps.knowledge[d] == 2  # +1 at the start of the turn, still before growth
    to_develop(s)
    ps.knowledge[d] = 3
    do(s, f"upgrade {sid}")
    assert ps.knowledge[d] == 1 and ps.vp == 1 == mastery_vp(s, p)  # upgrade: 2, +1 VP
    assert s.phase == GROWTH and s.mover != p  # one develop action, then the turn ends
    back_to(s, p)
    assert ps.knowledge[d] == 3  # advanced: +2


@pytest.mark.rule("D-VOC-1", "D-VOC-2", "D-DEV-5")
@pytest.mark.parametrize(("sid", "d"), [("S3b", S), ("G3b", G), ("R3b", R)])
def test_t2_on_produce(sid: str, d: int) -> None:
    """Mathematics / Taxation / Mysticism (T2): each 2 of the domain produced in the turn give
    1 more (2 once upgraded), counted before the reserve limit cuts; gained knowledge never
    counts; produced vestigium counts as the domain it is assigned to."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[d] = 3
    acquire(s, sid)
    assert ps.knowledge[d] == 0 and ps.vp == 0
    back_to(s, p)
    action, tot = placement(s, ("L46", "L47", "L48", "L53", "L67", "L85"),
                            lambda t: t[d] == 3 and t[V] == 0)
    assert tot[d] == 3
    ps.knowledge[d] = 4  # limit 5: only 1 of the 3 is kept, yet all 3 count
    start = len(s.events)
    s.apply(action)
    adds = [e[3:5] for e in s.events[start:] if e[0] == EV_KNOWLEDGE and e[1:3] == (p, d)]
    assert adds == [(3, 1), (1, 0)]  # (amount, kept): 3 produced, then 1 gained, cut
    assert ps.knowledge[d] == 5
    do(s, "pass")
    ps.city_limit[d] = 20
    ps.knowledge[d] = 2
    do(s, f"upgrade {sid}")
    assert ps.knowledge[d] == 0 and ps.vp == 1
    back_to(s, p)
    # produced vestigium assigned to the domain counts toward the running total
    action, tot = placement(s, ("L15", "L30", "L45", "L60", "L75", "L90"),
                            lambda t: t[d] == 1 and t[V] == 1)
    assert (tot[d], tot[V]) == (1, 1)
    s.apply(action)
    do(s, f"vestigium {'TCASGR'[d]}")
    assert ps.knowledge[d] == 2 + 2  # 1 + 1 vestigium = 2: advanced +2 (not cut: limit 20)


@pytest.mark.rule("D-DEV-6", "D-DEV-7", "D-DEV-8", "D-DEV-5")
@pytest.mark.parametrize(("sid", "other", "d"),
                         [("S3c", "S3a", S), ("G3c", "G3a", G), ("R3c", "R3a", R)])
def test_t3_on_complete_nodus(sid: str, other: str, d: int) -> None:
    """Astronomy / Code of Laws / Temple (T3): 2 of the domain per nodus of its colour a card
    placement completes, the card's own placement included (D-DEV-6); 4 once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[d] = 3
    assert acquire(s, sid, forms=[d]) == [d]
    assert ps.knowledge[d] == 0 + 2 and ps.tree.nodi(d) == 1
    develop_turn(s, p)
    ps.knowledge[d] = 2
    do(s, f"upgrade {sid}")  # turning a card over forms no nodus
    assert ps.knowledge[d] == 0 and ps.vp == 1
    develop_turn(s, p)
    ps.knowledge[d] = 3
    assert acquire(s, other, forms=[d]) == [d]
    assert ps.knowledge[d] == 0 + 4 and ps.tree.nodi(d) == 2


@pytest.mark.rule("D-AGE-9", "D-DEV-5")
@pytest.mark.parametrize(("sid", "d"), [("S6a", S), ("G6a", G), ("R6a", R)])
def test_a5_start_of_age(sid: str, d: int) -> None:
    """Philosophy / Administration / Polytheism (A5): 5 of the domain at the start of ages 2 and
    3, after the reset (D-AGE-9); 10 once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.city_limit[d] = 20
    ps.knowledge[d] = 7
    acquire(s, sid)
    assert ps.knowledge[d] == 1 and ps.vp == 2  # cost 6, 2 VP
    to_age_end(s)
    assert s.age == 2 and ps.knowledge[d] == 5 and sum(ps.knowledge) == 5
    develop_turn(s, p)
    ps.knowledge[d] = 4
    do(s, f"upgrade {sid}")
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 4
    to_age_end(s)
    assert s.age == 3 and ps.knowledge[d] == 10


@pytest.mark.rule("D-AGE-2", "D-DEV-8", "D-DEV-5")
@pytest.mark.parametrize(("sid", "d", "extra"),
                         [("S6b", S, "S3a"), ("G6b", G, "G3a"), ("R6b", R, "R3a")])
def test_n1_end_of_age_vp_per_own_nodus(sid: str, d: int, extra: str) -> None:
    """Geometry / Citizenship / Scriptures (N1): at the end of each age 1 VP per nodus of the
    card's colour in your tree; 2 once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, extra, forms=[d])  # one nodus of the colour already
    to_develop(s)
    ps.knowledge[d] = 6
    assert acquire(s, sid, forms=[d]) == [d]
    assert ps.tree.nodi(d) == 2 and ps.vp == 2
    to_age_end(s)
    assert mastery_vp(s, p) == 2 + 2
    develop_turn(s, p)
    ps.knowledge[d] = 4
    do(s, f"upgrade {sid}")
    assert mastery_vp(s, p) == 4 + 2
    to_age_end(s)
    assert mastery_vp(s, p) == 6 + 2 * 2


# -- Science -------------------------------------------------------------------------------------


@pytest.mark.rule("D-DEV-5", "D-FAQ-2", "D-FAQ-3")
def test_s3d_writing_lowers_upgrade_costs() -> None:
    """Writing: upgrading costs 2 less (3 less once upgraded), paid in the card's own domain; a
    cost reduced below 0 is free and gives nothing back. Writing upgrades itself for free."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "S6a")
    assert s.upgrade_cost(p, sk(s, "S6a")) == 4
    to_develop(s)
    ps.knowledge[S] = 3
    acquire(s, "S3d")
    assert ps.knowledge[S] == 0 and ps.vp == 0
    assert s.upgrade_cost(p, sk(s, "S6a")) == 2 and s.upgrade_cost(p, sk(s, "S3d")) == 0
    assert s.acquire_cost(p, sk(s, "S3a")) == 3  # acquiring is not cheaper
    develop_turn(s, p)
    ps.knowledge[S] = 0
    do(s, "upgrade S3d")  # 2 - 2 = 0: free
    assert ps.knowledge[S] == 0 and ps.vp == 1
    assert s.upgrade_cost(p, sk(s, "S6a")) == 1 and s.upgrade_cost(p, sk(s, "S9a")) == 3
    assert s.upgrade_cost(p, sk(s, "S3a")) == 0  # 2 - 3 stops at 0
    develop_turn(s, p)
    ps.knowledge[S] = 2
    do(s, "upgrade S6a")
    assert ps.knowledge[S] == 1 and ps.vp == 1 + 2


@pytest.mark.rule("D-AGE-2", "D-DEV-8")
def test_s6c_cartography_vp_per_colour() -> None:
    """Cartography: at the end of each age 3 VP per colour with a complete nodus in your tree;
    4 once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "T3a", forms=[T])
    gift(s, p, "C3a", forms=[C])
    to_develop(s)
    ps.knowledge[S] = 6
    assert acquire(s, "S6c", forms=[S]) == [S]
    assert ps.tree.colours() == 3 and ps.vp == 2
    to_age_end(s)
    assert mastery_vp(s, p) == 2 + 3 * 3
    develop_turn(s, p)
    ps.knowledge[S] = 4
    do(s, "upgrade S6c")
    assert mastery_vp(s, p) == 11 + 2
    to_age_end(s)
    assert mastery_vp(s, p) == 13 + 4 * 3


@pytest.mark.rule("D-VOC-1", "D-DEV-6", "D-DEV-7")
def test_s6d_alchemy_vestigium_per_nodus() -> None:
    """Alchemy: 1 vestigium per nodus of any colour a card placement completes (its own
    placement included), split by its owner; 2 per nodus once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge = [0, 0, 0, 6, 0, 0]
    formed = acquire(s, "S6d")
    assert len(formed) == 1 and ps.vp == 2
    assert s.phase_name == "vestigium" and s.current_player() == p and s.mover == p
    do(s, "vestigium A")
    assert ps.knowledge == [0, 0, 1, 0, 0, 0]
    assert s.mover != p  # the turn ends once the vestigium is assigned
    develop_turn(s, p)
    ps.knowledge = [0, 0, 0, 4, 0, 0]
    do(s, "upgrade S6d")  # turning the card over forms no nodus: nothing gained
    assert ps.knowledge == [0] * 6 and ps.vp == 4 and s.mover != p
    gift(s, p, "C3a")  # a third card: now a position touches two cards
    develop_turn(s, p)
    ps.knowledge = [0, 0, 0, 3, 0, 0]
    assert len(acquire(s, "S3b", count=2)) == 2  # Mathematics: no effect of its own here
    for dom in "TTCC":
        assert s.phase_name == "vestigium"
        do(s, f"vestigium {dom}")
    assert ps.knowledge == [2, 2, 0, 0, 0, 0] and s.mover != p


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-5")
def test_s9a_chemistry_vp_per_card_side() -> None:
    """Chemistry (needs Craft 3): at the end of each age 1 VP per basic mastery card and 2 per
    advanced one (itself included); 3 per advanced card once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.city_limit[S] = 20
    ps.knowledge[S] = 9
    with pytest.raises(IllegalActionError, match="Craft mastery card of value 3"):
        acquire(s, "S9a")
    assert not [a for a in s.legal_actions()
                if a.kind == ACQUIRE and s.catalog.copy_skill[a.a] == sk(s, "S9a")]
    gift(s, p, "C3a")  # the prerequisite, basic side up
    gift(s, p, "T3a", advanced=True)
    acquire(s, "S9a")
    assert ps.knowledge[S] == 0 and ps.vp == 4
    to_age_end(s)  # basic: C3a, S9a; advanced: T3a
    assert mastery_vp(s, p) == 4 + (2 * 1 + 1 * 2)
    develop_turn(s, p)
    ps.city_limit[S] = 20
    ps.knowledge[S] = 6
    do(s, "upgrade S9a")
    assert ps.knowledge[S] == 0 and mastery_vp(s, p) == 8 + 3
    to_age_end(s)  # basic: C3a; advanced: T3a, S9a
    assert mastery_vp(s, p) == 11 + (1 * 1 + 2 * 3)


@pytest.mark.rule("D-DEV-3", "D-GROW-9", "D-DEV-5")
def test_s9b_encyclopedia_raises_every_limit() -> None:
    """Encyclopedia (needs Art 6): every reserve limit 5 higher (10 once upgraded), added to the
    limit from cities, at most 20; knowledge is then kept up to the new limit."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "A6a")
    to_develop(s)
    ps.city_limit[S] = 10  # as from a level-1 Science city
    ps.knowledge[S] = 9
    acquire(s, "S9b")
    assert ps.knowledge[S] == 0 and ps.vp == 4
    assert ps.limits() == [10, 10, 10, 15, 10, 10]
    back_to(s, p)
    ps.knowledge[T] = 8
    action, tot = placement(s, ("L01", "L02", "L08", "L09", "L10"),
                            lambda t: t[T] == 3 and t[V] == 0)
    assert tot[T] == 3
    s.apply(action)
    assert ps.knowledge[T] == 10  # 11 cut at the raised limit, not at 5
    do(s, "pass")
    ps.knowledge[S] = 6
    do(s, "upgrade S9b")
    assert ps.knowledge[S] == 0 and ps.vp == 7
    ps.city_limit[T] = 20
    assert ps.limits() == [20, 15, 15, 20, 15, 15]  # 10 + 10 capped at 20; 5 + 10


@pytest.mark.rule("D-DEV-2", "D-DEV-3", "D-DEV-5", "D-FAQ-2")
def test_s9c_scientific_method_lowers_acquire_and_upgrade_costs() -> None:
    """Scientific Method (needs Trade 6): acquiring and upgrading cost 2 less each (3 less once
    upgraded), never below 0; its own price is paid in full."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "T6a")
    to_develop(s)
    ps.city_limit[S] = 20
    ps.knowledge[S] = 9
    assert s.acquire_cost(p, sk(s, "S9c")) == 9
    acquire(s, "S9c")
    assert ps.knowledge[S] == 0 and ps.vp == 4
    assert [s.acquire_cost(p, sk(s, x)) for x in ("S3a", "S6a", "S9a")] == [1, 4, 7]
    assert [s.upgrade_cost(p, sk(s, x)) for x in ("S9c", "T6a")] == [4, 2]
    develop_turn(s, p)
    ps.knowledge[S] = 4
    do(s, "upgrade S9c")
    assert ps.knowledge[S] == 0 and ps.vp == 7
    assert [s.acquire_cost(p, sk(s, x)) for x in ("S3a", "S6a", "S9a")] == [0, 3, 6]
    assert [s.upgrade_cost(p, sk(s, x)) for x in ("S9c", "T6a")] == [3, 1]
    develop_turn(s, p)
    ps.knowledge = [0, 0, 0, 3, 0, 0]
    acquire(s, "S6a")
    assert ps.knowledge[S] == 0 and ps.vp == 9


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-5")
def test_s9d_universities_vp_per_high_card() -> None:
    """Universities (needs Religion 3): at the end of each age 2 VP per mastery card of value 6
    or 9; once upgraded 2 per value-6 card and 3 per value-9 card."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "R3a")  # the prerequisite, value 3: not counted
    gift(s, p, "G6a")
    to_develop(s)
    ps.city_limit[S] = 20
    ps.knowledge[S] = 9
    acquire(s, "S9d")
    assert ps.vp == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 2 * 2
    develop_turn(s, p)
    ps.city_limit[S] = 20
    ps.knowledge[S] = 6
    do(s, "upgrade S9d")
    assert mastery_vp(s, p) == 8 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 11 + (2 * 1 + 3 * 1)


# -- Government ----------------------------------------------------------------------------------


@pytest.mark.rule("D-BUILD-1", "D-BUILD-2", "D-BUILD-3", "D-DEV-5")
def test_g3d_census_vp_per_city_built_or_upgraded() -> None:
    """Census: 1 VP each time you build a city or upgrade one of yours, after paying; 2 VP once
    upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[G] = 3
    acquire(s, "G3d")
    assert ps.knowledge[G] == 0 and ps.vp == 0
    back_to(s, p)
    give(s, "L16")  # a Craft settlement
    place = s.placements([tile(s, "L16")])[0]
    s.apply(place)
    assign_all(s)
    cell = Cell.from_key(place.b)
    ps.knowledge[C] = 3
    do(s, f"city {cell}")
    assert ps.knowledge[C] == 0 and ps.influence == 1 and ps.vp == 1 == mastery_vp(s, p)
    assert s.phase == DEVELOP
    ps.knowledge[G] = 2
    do(s, "upgrade G3d")
    assert ps.vp == 2
    back_to(s, p)
    s.apply(next(a for a in s.placements() if a.b != place.b))
    assign_all(s)
    ps.knowledge[C] = 6
    do(s, f"upgrade {cell}")
    assert ps.knowledge[C] == 0 and ps.influence == 3 and ps.vp == 2 + 2


@pytest.mark.rule("D-DEV-6", "D-DEV-5")
def test_g6c_art_of_war_influence_per_city_then_per_level() -> None:
    """Art of War: on acquiring, 1 influence per city you have; on upgrading, 1 per level of
    your cities (DE FAQ). Other players' cities do not count."""
    s = new(seed=5)
    p = s.mover
    q = 1 - p
    ps = s.players[p]
    settle(s, p, "L16", "2,0")
    settle(s, p, "L17", "3,0", level=2)
    settle(s, q, "L18", "-2,0")
    to_develop(s)
    ps.knowledge[G] = 6
    before = ps.influence
    acquire(s, "G6c")
    assert ps.knowledge[G] == 0 and ps.vp == 2
    assert ps.influence == before + 2  # two cities
    develop_turn(s, p)
    ps.knowledge[G] = 4
    do(s, "upgrade G6c")
    assert ps.knowledge[G] == 0 and ps.vp == 4
    assert ps.influence == before + 2 + 3  # levels 1 + 2


@pytest.mark.rule("D-AGE-2", "D-DEV-5")
def test_g6d_feudalism_vp_per_cities() -> None:
    """Feudalism: at the end of each age 1 VP per 2 of your cities (rounded down); 1 VP per
    city once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    for tid, cell in (("L16", "2,0"), ("L17", "3,0"), ("L18", "-2,0")):
        settle(s, p, tid, cell)
    settle(s, 1 - p, "L19", "0,1")
    to_develop(s)
    ps.knowledge[G] = 6
    acquire(s, "G6d")
    assert ps.vp == 2
    to_age_end(s)
    assert mastery_vp(s, p) == 2 + 3 // 2
    develop_turn(s, p)
    ps.knowledge[G] = 4
    do(s, "upgrade G6d")
    assert mastery_vp(s, p) == 3 + 2
    to_age_end(s)
    assert mastery_vp(s, p) == 5 + 3


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-5")
def test_g9a_empire_vp_per_city_level() -> None:
    """Empire (needs Religion 3): at the end of each age 1 VP per level of your cities; once
    upgraded also 1 VP per city."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    settle(s, p, "L16", "2,0")
    settle(s, p, "L17", "3,0", level=2)
    settle(s, 1 - p, "L18", "-2,0", level=3)
    gift(s, p, "R3a")
    to_develop(s)
    ps.city_limit[G] = 20
    ps.knowledge[G] = 9
    acquire(s, "G9a")
    assert ps.knowledge[G] == 0 and ps.vp == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 3
    develop_turn(s, p)
    ps.knowledge[G] = 6
    do(s, "upgrade G9a")
    assert mastery_vp(s, p) == 7 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 10 + 3 + 2


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-5")
def test_g9b_republic_influence_per_city() -> None:
    """Republic (needs Art 6): at the end of each age 1 influence per city you have; 1 per city
    level once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    settle(s, p, "L16", "2,0")
    settle(s, p, "L17", "3,0", level=3)
    gift(s, p, "A6a")
    to_develop(s)
    ps.city_limit[G] = 20
    ps.knowledge[G] = 9
    acquire(s, "G9b")
    assert ps.vp == 4
    before = ps.influence
    to_age_end(s)
    assert ps.influence == before + 2 + role_influence(s, p)
    develop_turn(s, p)
    ps.knowledge[G] = 6
    do(s, "upgrade G9b")
    assert mastery_vp(s, p) == 4 + 3 and ps.influence == before + 2 + role_influence(s, p)
    to_age_end(s)
    assert ps.influence == before + 2 + 4 + role_influence(s, p)


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-ADJ-1", "D-ADJ-2", "D-DEV-5")
def test_g9c_colonization_vp_per_group() -> None:
    """Colonization (needs Science 6): at the end of each age 2 VP per group of your cities
    (adjacent cities chain into one group); 3 per group once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    # 2,0 - 3,0 - 4,0 is one chain (2,0 and 4,0 touch only through 3,0); -2,0 stands alone
    for tid, cell in (("L16", "2,0"), ("L17", "3,0"), ("L18", "4,0"), ("L19", "-2,0")):
        settle(s, p, tid, cell)
    gift(s, p, "S6a")
    to_develop(s)
    ps.city_limit[G] = 20
    ps.knowledge[G] = 9
    acquire(s, "G9c")
    assert ps.vp == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 2 * 2
    develop_turn(s, p)
    ps.knowledge[G] = 6
    do(s, "upgrade G9c")
    assert mastery_vp(s, p) == 8 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 11 + 3 * 2


@pytest.mark.rule("D-DEV-3", "D-GROW-6", "D-DEV-5")
def test_g9d_bureaucracy_city_produces_more() -> None:
    """Bureaucracy (needs Trade 3): each of your cities produces 1 more of its domain when it is
    activated; 2 more once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    settle(s, p, "L16", "2,0")  # Craft city, level 1
    gift(s, p, "T3a")
    to_develop(s)
    ps.city_limit[G] = 20
    ps.knowledge[G] = 9
    acquire(s, "G9d")
    assert ps.vp == 4
    back_to(s, p)
    give(s, "L46")  # a Science tile with no Craft resource
    via = s.parse_action("L46 3,0 r0 via 2,0")
    assert city_items(s, via) == [(CITY_YIELD, 1), (CITY_BONUS, 1)]  # its level, the bonus
    ps.knowledge[C] = 0
    s.apply(via)
    assign_all(s)
    assert ps.knowledge[C] == 1 + 1 + 1  # a Craft resource of 2,0, the city, the bonus
    do(s, "pass")
    ps.knowledge[G] = 6
    do(s, "upgrade G9d")
    assert ps.vp == 7
    back_to(s, p)
    give(s, "L49")  # a Trade tile with no Craft resource
    via = s.parse_action("L49 2,1 r0 via 2,0")
    assert city_items(s, via) == [(CITY_YIELD, 1), (CITY_BONUS, 2)]
    ps.knowledge[C] = 0
    s.apply(via)
    assign_all(s)
    assert ps.knowledge[C] == 1 + 1 + 2


# -- Religion ------------------------------------------------------------------------------------


def end_age_with(s: DominationsState, knowledge: dict[int, list[int]]) -> None:
    """Play to the last develop phase of the age, set every player's knowledge (scenario
    set-up: what is left for the comparison, D-AGE-7), and pass into the end of the age."""
    play_until(s, last_develop)
    for p, know in knowledge.items():
        s.players[p].knowledge = know.copy()
    do(s, "pass")


@pytest.mark.rule("D-AGE-7", "D-AGE-9", "D-VOC-1", "D-DEV-5")
def test_r3d_oracle_vestigium_before_dominance() -> None:
    """Oracle: when dominance is determined, 2 vestigium (3 once upgraded) before the
    comparison: it can win a domination card; like all knowledge it is then reset."""
    s = new(seed=5)
    p = s.mover
    q = 1 - p
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[R] = 3
    acquire(s, "R3d")
    assert ps.knowledge[R] == 0 and ps.vp == 0
    end_age_with(s, {p: [0] * 6, q: [0, 0, 0, 0, 0, 1]})
    assert s.phase == AGE_END and s.age == 1
    assert s.phase_name == "vestigium" and s.current_player() == p
    do(s, "vestigium R", "vestigium R")  # 2 Religion beat the other player's 1
    assert s.age == 2 and s.roles[R] == p and s.roles[T] == -1
    assert ps.vp_by[VP_ROLES] == 5 and s.players[q].vp_by[VP_ROLES] == 0  # High Priestess
    assert ps.knowledge == [0] * 6
    develop_turn(s, p)
    ps.knowledge[R] = 2
    do(s, "upgrade R3d")
    assert ps.knowledge[R] == 0 and mastery_vp(s, p) == 1
    end_age_with(s, {p: [0] * 6, q: [0, 0, 2, 0, 0, 2]})
    assert s.phase_name == "vestigium" and s.current_player() == p
    do(s, "vestigium R", "vestigium R", "vestigium R")
    assert s.age == 3 and s.roles[R] == p and s.roles[A] == q
    assert ps.vp_by[VP_ROLES] == 5 + 5


@pytest.mark.rule("D-AGE-7", "D-DEV-5")
def test_r6c_sanctuary_vp_per_domination_card() -> None:
    """Sanctuary: 6 VP for each domination card you take at the end of an age (8 once
    upgraded), on top of the card's own VP."""
    s = new(seed=5)
    p = s.mover
    q = 1 - p
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[R] = 6
    acquire(s, "R6c")
    assert ps.knowledge[R] == 0 and ps.vp == 2
    end_age_with(s, {p: [2, 0, 3, 0, 1, 0], q: [1, 1, 0, 0, 0, 0]})
    assert s.age == 2 and s.roles == [p, q, p, -1, p, -1]
    assert ps.vp_by[VP_ROLES] == 3 + 4 + 0  # Merchant, Diplomat, Governor (0 with 2 players)
    assert mastery_vp(s, p) == 2 + 3 * 6  # the 0-VP Governor is still a card taken
    assert s.players[q].vp_by[VP_MASTERY] == 0
    develop_turn(s, p)
    ps.knowledge[R] = 4
    do(s, "upgrade R6c")
    assert mastery_vp(s, p) == 20 + 2
    end_age_with(s, {p: [0, 0, 0, 1, 0, 0], q: [0] * 6})
    assert s.age == 3 and s.roles == [-1, -1, -1, p, -1, -1]
    assert ps.vp_by[VP_ROLES] == 7 + 2  # Inventor
    assert mastery_vp(s, p) == 22 + 8


@pytest.mark.rule("D-BUILD-2", "D-BUILD-3", "D-BUILD-5", "D-FAQ-3", "D-DEV-5")
def test_r6d_theocracy_cheaper_cities() -> None:
    """Theocracy: building and upgrading cities cost 2 less, still paid in the settlement's
    domain; the advanced side is the same."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [3, 6, 9]
    to_develop(s)
    ps.knowledge[R] = 6
    acquire(s, "R6d")
    assert ps.knowledge[R] == 0 and ps.vp == 2
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [1, 4, 7]
    back_to(s, p)
    give(s, "L16")  # a Craft settlement
    place = s.placements([tile(s, "L16")])[0]
    s.apply(place)
    assign_all(s)
    cell = Cell.from_key(place.b)
    ps.knowledge[C] = 1
    ps.knowledge[R] = 5
    do(s, f"city {cell}")
    assert ps.knowledge[C] == 0 and ps.knowledge[R] == 5 and ps.influence == 1
    ps.knowledge[R] = 4
    do(s, "upgrade R6d")
    assert ps.knowledge[R] == 0 and ps.vp == 4
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [1, 4, 7]
    back_to(s, p)
    s.apply(next(a for a in s.placements() if a.b != place.b))
    assign_all(s)
    ps.knowledge[C] = 4
    do(s, f"upgrade {cell}")
    assert ps.knowledge[C] == 0 and s.board.city_level[place.b] == 2 and ps.influence == 3


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-8", "D-DEV-5")
def test_r9a_monotheism_vp_per_religion_nodus() -> None:
    """Monotheism (needs Science 3): at the end of each age 2 VP per Religion nodus in your
    tree; 3 per nodus once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "S3a")
    gift(s, p, "R3a", forms=[R])
    to_develop(s)
    ps.city_limit[R] = 20
    ps.knowledge[R] = 9
    assert acquire(s, "R9a", forms=[R]) == [R]
    assert ps.tree.nodi(R) == 2 and ps.vp == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 2 * 2
    develop_turn(s, p)
    ps.knowledge[R] = 6
    do(s, "upgrade R9a")
    assert mastery_vp(s, p) == 8 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 11 + 3 * 2


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-5")
def test_r9b_cathedrals_vp_per_religion_city() -> None:
    """Cathedrals (needs Craft 6): at the end of each age 3 VP per city of yours on a Religion
    settlement; 4 per such city once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    settle(s, p, "L76", "2,0")  # Religion
    settle(s, p, "L77", "3,0", level=2)  # Religion
    settle(s, p, "L16", "-2,0")  # Craft: not counted
    settle(s, 1 - p, "L78", "0,1")  # the other player's Religion city: not counted
    gift(s, p, "C6a")
    to_develop(s)
    ps.city_limit[R] = 20
    ps.knowledge[R] = 9
    acquire(s, "R9b")
    assert ps.vp == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 3 * 2
    develop_turn(s, p)
    ps.knowledge[R] = 6
    do(s, "upgrade R9b")
    assert mastery_vp(s, p) == 10 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 13 + 4 * 2


@pytest.mark.rule("D-DEV-3", "D-VOC-2", "D-DEV-5")
def test_r9c_tithe_religion_per_production() -> None:
    """Tithe (needs Government 6): 1 Religion for every 3 knowledge of any domain produced in
    your turn; for every 2 once upgraded."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    gift(s, p, "G6a")
    to_develop(s)
    ps.city_limit = [20] * 6
    ps.knowledge[R] = 9
    acquire(s, "R9c")
    assert ps.knowledge[R] == 0 and ps.vp == 4
    back_to(s, p)
    action, tot = placement(s, ("L47", "L50", "L53", "L16"),
                            lambda t: sum(t) == 7 and t[V] == 0 and t[R] == 0)
    assert sum(tot) == 7
    s.apply(action)
    assert ps.knowledge[R] == 7 // 3
    do(s, "pass")
    ps.knowledge[R] = 6
    do(s, "upgrade R9c")
    assert ps.knowledge[R] == 0 and ps.vp == 7
    back_to(s, p)
    action, tot = placement(s, ("L46", "L49", "L52", "L17"),
                            lambda t: sum(t) == 7 and t[V] == 0 and t[R] == 0)
    assert sum(tot) == 7
    s.apply(action)
    assert ps.knowledge[R] == 7 // 2


@pytest.mark.rule("D-DEV-3", "D-AGE-2", "D-DEV-8", "D-DEV-5")
def test_r9d_missionaries_influence_per_religion_nodus() -> None:
    """Missionaries (needs Art 3): at the end of each age 1 influence per Religion nodus in your
    tree; once upgraded also 1 per city of yours on a Religion settlement."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    settle(s, p, "L76", "2,0")  # Religion
    settle(s, p, "L16", "3,0")  # Craft: not counted
    gift(s, p, "A3a")
    gift(s, p, "R3a", forms=[R])
    to_develop(s)
    ps.city_limit[R] = 20
    ps.knowledge[R] = 9
    assert acquire(s, "R9d", forms=[R]) == [R]
    assert ps.tree.nodi(R) == 2 and ps.vp == 4
    before = ps.influence
    to_age_end(s)
    assert ps.influence == before + 2 + role_influence(s, p)
    develop_turn(s, p)
    ps.knowledge[R] = 6
    do(s, "upgrade R9d")
    assert mastery_vp(s, p) == 4 + 3 and ps.influence == before + 2 + role_influence(s, p)
    to_age_end(s)
    assert ps.influence == before + 2 + (2 + 1) + role_influence(s, p)
