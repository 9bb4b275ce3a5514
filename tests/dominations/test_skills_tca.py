"""Mastery skills of Trade, Craft and Art (data spec §3), each played through the engine.

Every test acquires its skill in a develop phase (cost, VP on acquiring, immediate effects),
lets the basic side act the way the game triggers it, upgrades the card in a later develop
phase (upgrade cost, VP on upgrading) and checks that the advanced side now acts instead.
Scenario set-up (knowledge, limits, prerequisite cards, cities) is written directly into the
state; everything the skill does goes through ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominations.engine import (
    ASSIGN,
    BUILD,
    DEVELOP,
    EV_EFFECT,
    GROWTH,
    START_TURN,
    TURNS_PER_AGE,
    VP_MASTERY,
    VP_MONUMENTS,
    DominationsState,
)
from dominari.dominations.grid import Cell
from dominari.dominations.notation import ADVANCE, EXCHANGE, MONUMENT, Action
from dominari.dominations.production import SETTLEMENT, SETTLEMENT_BONUS
from dominari.dominations.tree import Pos

from .helpers import do, give, grant, new, tile, to_age_end, to_develop

T, C, A, S, G, R = range(6)
V = 6
"""Vestigium in a production row."""

# -- scenario helpers ---------------------------------------------------------------------------


def start(seed: int = 5, monuments: tuple[str, ...] = ()) -> tuple[DominationsState, int]:
    """A two-player game and its first mover."""
    s = new(2, seed, monuments=monuments)
    return s, s.mover


def skill(s: DominationsState, sid: str) -> int:
    return s.catalog.skill_index[sid.upper()]


def step(s: DominationsState) -> None:
    """One action as the helpers' bots play: pass build/develop, else the first legal answer."""
    if s.phase in (BUILD, DEVELOP) and not s.stack:
        do(s, "pass")
    else:
        s.apply(next(a for a in s.legal_actions() if a.kind != EXCHANGE))


def to_my_turn(s: DominationsState, p: int) -> None:
    """Play on until ``p``'s turn has started: its start-of-turn effects are resolved (or wait
    for a vestigium answer) and the growth phase is next."""
    while not (s.mover == p and s.phase in (START_TURN, GROWTH)):
        step(s)


def my_develop(s: DominationsState, p: int) -> None:
    """Play on to ``p``'s next develop phase (its placement is the first legal one)."""
    to_my_turn(s, p)
    while s.stack:
        step(s)
    to_develop(s)


def to_final_develop(s: DominationsState) -> None:
    """Play on to the develop phase of the age's last turn (the next pass ends the age)."""
    while not (s.round == TURNS_PER_AGE - 1 and s.seat == s.num_players - 1
               and s.phase == DEVELOP and not s.stack):
        step(s)


def grow(s: DominationsState, action: Action | None = None) -> None:
    """The mover's growth phase: ``action`` (or the first legal placement), vestigium to
    Trade, effects in the order offered; the build phase is next."""
    s.apply(action if action is not None else s.placements()[0])
    while s.phase == ASSIGN or s.stack:
        step(s)
    assert s.phase == BUILD


def produced(s: DominationsState, action: Action) -> list[int]:
    """What a placement would produce for the mover, per domain (index 6: vestigium)."""
    out = [0] * 7
    for y in s.preview(action):
        if y.player == s.mover:
            out[y.domain] += y.amount
    return out


def find_placement(s: DominationsState, want: Callable[[list[int]], bool]) -> Action:
    """A placement of a tile not yet on the board whose production for the mover passes
    ``want``; the tile is put into the mover's hand."""
    placed = set(s.board.tile.values())
    free = [t.id for i, t in enumerate(s.data.tiles) if i not in placed]
    trial = s.copy()
    give(trial, *free)
    for a in trial.placements():
        if want(produced(trial, a)):
            give(s, s.data.tiles[a.a].id)
            return a
    raise AssertionError("no placement produces that")


def acquire(s: DominationsState, sid: str, forming: Callable[[list[int]], bool] | None = None
            ) -> tuple[Pos, list[int]]:
    """Acquire a copy of ``sid`` through the engine (the mover is in the develop phase) at the
    first position whose newly formed nodi pass ``forming``. Returns the position and the
    colours of the nodi the placement forms."""
    cat = s.catalog
    tree = s.players[s.mover].tree
    for code in cat.skill_copies[skill(s, sid)]:
        if s.taken[code] >= 0:
            continue
        sides = cat.copy_sides[code]
        for pos in tree.legal_positions(sides):
            formed = tree.nodi_formed(pos, sides)
            if forming is None or forming(formed):
                text = f"acquire {cat.copy_ids[code]} {pos[0]},{pos[1]}"
                assert s.parse_action(text) in s.legal_actions()
                do(s, text)
                return pos, formed
    raise AssertionError(f"no copy of {sid} fits as wanted")


def upgrade(s: DominationsState, sid: str) -> None:
    """Upgrade the mover's card of ``sid`` through the engine (a legal action)."""
    assert Action(ADVANCE, skill(s, sid)) in s.legal_actions()
    do(s, f"upgrade {sid}")


def grant_forming(s: DominationsState, p: int, sid: str, colour: int) -> None:
    """Scenario: put a copy of ``sid`` into ``p``'s tree where it forms a ``colour`` nodus."""
    cat = s.catalog
    tree = s.players[p].tree
    for code in cat.skill_copies[skill(s, sid)]:
        if s.taken[code] >= 0:
            continue
        for pos in tree.legal_positions(cat.copy_sides[code]):
            if colour in tree.nodi_formed(pos, cat.copy_sides[code]):
                grant(s, p, cat.copy_ids[code], pos)
                return
    raise AssertionError(f"no copy of {sid} forms that nodus")


def mastery_vp(s: DominationsState, p: int) -> int:
    return s.players[p].vp_by[VP_MASTERY]


def cell_of(action: Action) -> str:
    return str(Cell.from_key(action.b))


def only(knowledge: list[int], **kw: int) -> None:
    """Set a knowledge row: the named domains (letters) to their values, the rest to 0."""
    for d in range(6):
        knowledge[d] = kw.get("TCASGR"[d], 0)


# -- templates (data spec §2.5): T1, T2, T3, A5, N1 --------------------------------------------


@pytest.mark.rule("D-FLOW-5", "D-DEV-2", "D-DEV-5")
@pytest.mark.parametrize("sid", ["T3a", "C3a", "A3a"])
def test_t1_start_of_turn_gain(sid: str) -> None:
    """Caravans, Fishing, Painting (T1): cost 3, no VP; at the start of each own turn, before
    growth, gain 1 of the card's domain; upgraded (2, +1 VP): gain 2."""
    s, p = start()
    d = "TCA".index(sid[0])
    ps = s.players[p]
    ps.city_limit[d] = 20
    to_develop(s)
    ps.knowledge[d] = 3
    acquire(s, sid)
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 0
    to_my_turn(s, p)
    assert s.phase == GROWTH and ps.knowledge[d] == 1
    to_develop(s)
    ps.knowledge[d] = 2
    upgrade(s, sid)
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 1
    to_my_turn(s, p)
    assert s.phase == GROWTH and ps.knowledge[d] == 2


@pytest.mark.rule("D-VOC-2", "D-DEV-2", "D-DEV-5")
@pytest.mark.parametrize("sid", ["T3b", "C3b", "A3b"])
def test_t2_every_two_produced(sid: str) -> None:
    """Barter, Agriculture, Typography (T2): each 2 knowledge of the domain produced in a turn
    gain 1 (the rules example for Barter: producing 4 Trade gives 2 more); upgraded, 2 per 2
    produced, so producing 3 gives 2."""
    s, p = start()
    d = "TCA".index(sid[0])
    ps = s.players[p]
    ps.city_limit[d] = 20
    to_develop(s)
    ps.knowledge[d] = 3
    acquire(s, sid)
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 0
    to_my_turn(s, p)
    action = find_placement(s, lambda y: y[d] == 4 and y[V] == 0)
    grow(s, action)
    assert ps.knowledge[d] == 4 + 2
    do(s, "pass")
    ps.knowledge[d] = 2
    upgrade(s, sid)
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 1
    to_my_turn(s, p)
    action = find_placement(s, lambda y: y[d] == 3 and y[V] == 0)
    grow(s, action)
    assert ps.knowledge[d] == 3 + 2
    # the count is taken before the reserve limit cuts the production
    to_my_turn(s, p)
    ps.city_limit[d] = 5
    ps.knowledge[d] = 5
    action = find_placement(s, lambda y: y[d] == 2 and y[V] == 0)
    s.events.clear()
    grow(s, action)
    assert ps.knowledge[d] == 5
    assert [e for e in s.events if e[0] == EV_EFFECT] == [(EV_EFFECT, p, skill(s, sid), 0)]


@pytest.mark.rule("D-DEV-6", "D-DEV-7", "D-DEV-8", "D-DEV-2", "D-DEV-5")
@pytest.mark.parametrize("sid", ["T3c", "C3c", "A3c"])
def test_t3_per_nodus_of_own_colour(sid: str) -> None:
    """Markets, Mining, Sculpture (T3): gain 2 of the domain per complete nodus of that colour a
    placement forms, the card's own placement included (D-DEV-6); upgraded, 4 per nodus."""
    s, p = start()
    d = "TCA".index(sid[0])
    ps = s.players[p]
    ps.city_limit[d] = 20
    to_develop(s)
    ps.knowledge[d] = 3
    _, formed = acquire(s, sid, lambda f: f == [d])  # one nodus of its colour, with the campfire
    assert ps.knowledge[d] == 0 + 2 and mastery_vp(s, p) == 0
    # basic: a later card forming nodi of the colour (and no other effect on knowledge)
    my_develop(s, p)
    ps.knowledge[d] = 6
    _, formed = acquire(s, f"{sid[0]}6b", lambda f: d in f)
    n = formed.count(d)
    assert n == 1 and ps.knowledge[d] == 0 + 2 * n
    my_develop(s, p)
    ps.knowledge[d] = 2
    upgrade(s, sid)  # an upgrade places nothing: no nodus, no gain
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 2 + 1
    my_develop(s, p)
    ps.knowledge[d] = 6
    _, formed = acquire(s, f"{sid[0]}6d", lambda f: d in f)
    n = formed.count(d)
    assert n == 1 and ps.knowledge[d] == 0 + 4 * n


@pytest.mark.rule("D-FLOW-5", "D-AGE-9", "D-DEV-2", "D-DEV-5")
@pytest.mark.parametrize("sid", ["T6a", "C6a", "A6a"])
def test_a5_start_of_age_gain(sid: str) -> None:
    """Currency, Pottery, Poetry (A5): cost 6, 2 VP; at the start of ages 2 and 3, after the
    reset of knowledge, gain 5 of the domain; upgraded (4, +2 VP): gain 10."""
    s, p = start()
    d = "TCA".index(sid[0])
    ps = s.players[p]
    ps.city_limit[d] = 20
    to_develop(s)
    ps.knowledge[d] = 6
    acquire(s, sid)
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 2
    to_age_end(s)
    assert s.age == 2 and ps.knowledge[d] == 5  # reset to 0, then +5
    my_develop(s, p)
    ps.knowledge[d] = 4
    upgrade(s, sid)
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 4
    to_age_end(s)
    assert s.age == 3 and ps.knowledge[d] == 10


@pytest.mark.rule("D-AGE-2", "D-DEV-8", "D-DEV-2", "D-DEV-5")
@pytest.mark.parametrize("sid", ["T6b", "C6b", "A6b"])
def test_n1_end_of_age_vp_per_nodus(sid: str) -> None:
    """Trade Routes, Road Building, Theater (N1): at the end of each age 1 VP per complete
    nodus of the domain's colour in the tree; upgraded, 2 VP per nodus."""
    s, p = start()
    d = "TCA".index(sid[0])
    ps = s.players[p]
    ps.city_limit[d] = 20
    to_develop(s)
    ps.knowledge[d] = 6
    acquire(s, sid, lambda f: f == [d])
    assert ps.knowledge[d] == 0 and mastery_vp(s, p) == 2
    grant_forming(s, p, f"{sid[0]}3d", d)  # a second nodus of the colour
    assert ps.tree.nodi(d) == 2
    to_age_end(s)
    assert mastery_vp(s, p) == 2 + 2
    my_develop(s, p)
    ps.knowledge[d] = 4
    upgrade(s, sid)
    assert mastery_vp(s, p) == 4 + 2
    to_age_end(s)
    assert mastery_vp(s, p) == 6 + 2 * 2
    to_age_end(s)  # the end of age 3 too
    assert s.is_terminal() and mastery_vp(s, p) == 10 + 2 * 2


# -- Trade ---------------------------------------------------------------------------------------


@pytest.mark.rule("D-GROW-9", "D-DEV-2", "D-DEV-5")
def test_t3d_coinage_raises_the_trade_limit() -> None:
    """Coinage: Trade limit +5 (5 -> 10); produced Trade beyond 10 is lost; upgraded, +10
    (-> 15); with a level-3 Trade city the limit stays at the maximum 20."""
    s, p = start()
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[T] = 3
    acquire(s, "T3d")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 0
    assert ps.limit(T) == 10 and ps.limit(C) == 5
    to_my_turn(s, p)
    ps.knowledge[T] = 8
    grow(s, find_placement(s, lambda y: y[T] == 3 and y[V] == 0))
    assert ps.knowledge[T] == 10  # 8 + 3, cut at the raised limit
    do(s, "pass")
    upgrade(s, "T3d")
    assert ps.knowledge[T] == 8 and mastery_vp(s, p) == 1
    assert ps.limit(T) == 15
    ps.city_limit[T] = 20
    assert ps.limit(T) == 20


@pytest.mark.rule("D-DEV-6", "D-DEV-2", "D-DEV-5")
def test_t6c_smuggling_gains_ten_trade_on_both_sides() -> None:
    """Smuggling: cost 6, 2 VP and at once 10 Trade; upgrading (4, +2 VP) gives 10 again."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[T] = 20
    to_develop(s)
    ps.knowledge[T] = 7
    acquire(s, "T6c")
    assert ps.knowledge[T] == 1 + 10 and mastery_vp(s, p) == 2
    my_develop(s, p)
    ps.knowledge[T] = 5
    upgrade(s, "T6c")
    assert ps.knowledge[T] == 1 + 10 and mastery_vp(s, p) == 4


@pytest.mark.rule("D-GROW-5", "D-DEV-2", "D-DEV-5")
def test_t6d_guilds_settlements_produce_more() -> None:
    """Guilds: the settlement of each placed tile produces 1 more of its own domain; upgraded,
    2 more."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit = [20] * 6
    to_develop(s)
    ps.knowledge[T] = 6
    acquire(s, "T6d")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 2
    to_my_turn(s, p)
    action = find_placement(s, lambda y: y[V] == 0)
    settle = s.data.tiles[action.a].settlement
    items = [(y.domain, y.amount) for y in s.preview(action)
             if y.source in (SETTLEMENT, SETTLEMENT_BONUS)]
    assert items == [(settle, 1), (settle, 1)]
    before = ps.knowledge.copy()
    want = produced(s, action)
    grow(s, action)
    assert [ps.knowledge[d] - before[d] for d in range(6)] == want[:6]
    do(s, "pass")
    ps.knowledge[T] = 4
    upgrade(s, "T6d")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4
    to_my_turn(s, p)
    action = find_placement(s, lambda y: y[V] == 0)
    settle = s.data.tiles[action.a].settlement
    items = [(y.domain, y.amount) for y in s.preview(action)
             if y.source in (SETTLEMENT, SETTLEMENT_BONUS)]
    assert items == [(settle, 1), (settle, 2)]


@pytest.mark.rule("D-DEV-3", "D-FLOW-3", "D-DEV-2", "D-DEV-5")
def test_t9a_promissory_notes_exchange_trade_one_for_one() -> None:
    """Promissory Notes (9, prerequisite Government 3): 4 VP; in one's own turn 1 Trade buys 1
    of another domain (the campfire asks 2); other domains still exchange 2 for 1. The
    advanced side (6, +3 VP) is the same."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[T] = 20
    to_develop(s)
    ps.knowledge[T] = 9
    cid = next(s.catalog.copy_ids[c] for c in s.catalog.skill_copies[skill(s, "T9a")]
               if ps.tree.can_place(s.catalog.copy_sides[c]))
    pos = ps.tree.legal_positions(s.catalog.copy_sides[s.catalog.copy_code[cid]])[0]
    with pytest.raises(IllegalActionError, match="D-DEV-3"):
        do(s, f"acquire {cid} {pos[0]},{pos[1]}")
    grant(s, p, "G3d-1")  # a Government card of value 3
    acquire(s, "T9a")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4
    to_my_turn(s, p)
    assert ps.exchange_price(T) == (1, 1) and ps.exchange_price(C) == (2, 1)
    only(ps.knowledge, T=1, C=2)
    assert Action(EXCHANGE, T, A) in s.legal_actions()
    do(s, "exchange T A")
    assert ps.knowledge[:3] == [0, 2, 1]
    do(s, "exchange C T")
    assert ps.knowledge[:3] == [1, 0, 1]
    to_develop(s)
    ps.knowledge[T] = 6
    upgrade(s, "T9a")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4 + 3
    to_my_turn(s, p)
    assert ps.exchange_price(T) == (1, 1)
    only(ps.knowledge, T=2)
    do(s, "exchange T S", "exchange T G")
    assert ps.knowledge == [0, 0, 0, 1, 1, 0]


@pytest.mark.rule("D-AGE-2", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_t9b_banking_vp_per_knowledge_left() -> None:
    """Banking (9, prerequisite Religion 6): at the end of the age 1 VP per 3 knowledge left in
    all domains together; upgraded, 1 VP per 2."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[T] = 20
    grant(s, p, "R6d-1")
    to_develop(s)
    ps.knowledge[T] = 9
    acquire(s, "T9b")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4
    to_final_develop(s)
    only(ps.knowledge, T=7, C=5, A=3)  # 15 in all
    do(s, "pass")
    assert s.age == 2 and mastery_vp(s, p) == 4 + 5
    my_develop(s, p)
    ps.knowledge[T] = 6
    upgrade(s, "T9b")
    assert mastery_vp(s, p) == 9 + 3
    to_final_develop(s)
    only(ps.knowledge, T=7, C=5, A=3)
    do(s, "pass")
    assert s.age == 3 and mastery_vp(s, p) == 12 + 7  # 15 // 2


@pytest.mark.rule("D-AGE-2", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_t9c_silk_road_vp_per_city_on_the_board() -> None:
    """Silk Road (9, prerequisite Craft 6): at the end of the age 1 VP per 3 cities of all
    players on the board; upgraded, 1 VP per 2."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[T] = 20
    grant(s, p, "C6d-1")
    to_develop(s)
    ps.knowledge[T] = 9
    acquire(s, "T9c")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4
    to_final_develop(s)
    for i, key in enumerate(sorted(s.board.settlement)[:7]):  # 4 of mine, 3 of the other's
        s.board.build_city(key, p if i % 2 == 0 else 1 - p)
    do(s, "pass")
    assert s.age == 2 and mastery_vp(s, p) == 4 + 2  # 7 // 3
    my_develop(s, p)
    ps.knowledge[T] = 6
    upgrade(s, "T9c")
    assert mastery_vp(s, p) == 6 + 3
    to_final_develop(s)
    assert len(s.board.city_owner) == 7
    do(s, "pass")
    assert s.age == 3 and mastery_vp(s, p) == 9 + 3  # 7 // 2


@pytest.mark.rule("D-FLOW-5", "D-VOC-1", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_t9d_mercantilism_vestigium_at_start_of_turn() -> None:
    """Mercantilism (9, prerequisite Science 3): at the start of each own turn gain 2
    vestigium, split freely (D-VOC-1); upgraded, 3."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[T] = 20
    grant(s, p, "S3b-1")
    to_develop(s)
    ps.knowledge[T] = 9
    acquire(s, "T9d")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4
    to_my_turn(s, p)
    only(ps.knowledge)
    assert s.phase_name == "vestigium" and s.current_player() == p
    do(s, "vestigium A")
    assert s.phase_name == "vestigium"
    do(s, "vestigium G")
    assert s.phase == GROWTH and ps.knowledge == [0, 0, 1, 0, 1, 0]
    to_develop(s)
    ps.knowledge[T] = 6
    upgrade(s, "T9d")
    assert ps.knowledge[T] == 0 and mastery_vp(s, p) == 4 + 3
    to_my_turn(s, p)
    only(ps.knowledge)
    do(s, "vestigium R", "vestigium R", "vestigium C")
    assert s.phase == GROWTH and ps.knowledge == [0, 1, 0, 0, 0, 2]


# -- Craft ---------------------------------------------------------------------------------------


@pytest.mark.rule("D-FAQ-3", "D-DEV-2", "D-DEV-5")
def test_c3d_handicraft_cheaper_cards() -> None:
    """Handicraft: acquiring mastery cards costs 1 less, still paid in the card's own domain
    (D-FAQ-3); upgrading is not cheaper; upgraded, 2 less."""
    s, p = start()
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[C] = 3
    acquire(s, "C3d")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 0
    assert s.acquire_cost(p, skill(s, "T6a")) == 5 and s.acquire_cost(p, skill(s, "A9d")) == 8
    assert s.upgrade_cost(p, skill(s, "C3d")) == 2
    my_develop(s, p)
    only(ps.knowledge, T=2, C=4)
    acquire(s, "T3d")  # a 3 for 2 Trade
    assert ps.knowledge[:2] == [0, 4]
    my_develop(s, p)
    only(ps.knowledge, C=2)
    upgrade(s, "C3d")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 1
    assert s.acquire_cost(p, skill(s, "T6a")) == 4 and s.acquire_cost(p, skill(s, "A3d")) == 1
    my_develop(s, p)
    only(ps.knowledge, A=1)
    acquire(s, "A3d")
    assert ps.knowledge[A] == 0 and ps.influence == 1


@pytest.mark.rule("D-VOC-1", "D-VOC-2", "D-DEV-2", "D-DEV-5")
def test_c6c_livestock_settlements_produce_vestigium() -> None:
    """Livestock: the settlement of each placed tile produces 1 more vestigium, which its
    receiver assigns (D-VOC-1); upgraded, 2 more."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit = [20] * 6
    to_develop(s)
    ps.knowledge[C] = 6
    acquire(s, "C6c")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 0 + 2
    to_my_turn(s, p)
    action = find_placement(s, lambda y: y[V] == 1 and y[R] == 0)
    assert [(y.domain, y.amount) for y in s.preview(action)
            if y.source == SETTLEMENT_BONUS] == [(V, 1)]
    before = ps.knowledge.copy()
    want = produced(s, action)
    s.apply(action)
    assert s.phase == ASSIGN
    do(s, "vestigium R")
    assert s.phase == BUILD
    gained = [ps.knowledge[d] - before[d] for d in range(6)]
    assert gained == [*want[:5], 1]
    do(s, "pass")
    ps.knowledge[C] = 4
    upgrade(s, "C6c")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4
    to_my_turn(s, p)
    action = find_placement(s, lambda y: y[V] == 2 and y[R] == 0)
    assert [(y.domain, y.amount) for y in s.preview(action)
            if y.source == SETTLEMENT_BONUS] == [(V, 2)]
    ps.knowledge[R] = 0
    s.apply(action)
    do(s, "vestigium R", "vestigium R")
    assert s.phase == BUILD and ps.knowledge[R] == 2


@pytest.mark.rule("D-VOC-2", "D-DEV-2")
def test_agriculture_livestock_fishing_faq() -> None:
    """DE FAQ ("Warum Produzieren und erhalten?"): Agriculture counts produced Craft only. The
    Craft that Fishing makes one *gain* at the start of the turn does not count; the extra
    vestigium that Livestock makes the settlement *produce*, assigned to Craft, does."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[C] = 20
    grant(s, p, "C3a-1")  # Fishing
    to_develop(s)
    ps.knowledge[C] = 3
    acquire(s, "C3b")  # Agriculture
    assert ps.knowledge[C] == 0
    grant(s, p, "C6c-1")  # Livestock (scenario: no cost)
    to_my_turn(s, p)
    assert ps.knowledge[C] == 1  # Fishing: gained, not produced
    action = find_placement(s, lambda y: y[C] == 1 and y[V] == 1)  # V: Livestock's only
    assert [(y.domain, y.amount) for y in s.preview(action)
            if y.source == SETTLEMENT_BONUS] == [(V, 1)]
    elsewhere = s.copy()
    s.apply(action)
    do(s, "vestigium C")  # produced Craft 1 + 1 = 2: Agriculture gains 1
    assert s.phase == BUILD and ps.knowledge[C] == 1 + 2 + 1
    elsewhere.apply(action)
    do(elsewhere, "vestigium T")  # produced Craft 1 (+ 1 gained by Fishing): nothing
    assert elsewhere.phase == BUILD and elsewhere.players[p].knowledge[C] == 1 + 1


@pytest.mark.rule("D-BUILD-2", "D-BUILD-3", "D-DEV-2", "D-DEV-5")
def test_c6d_bridge_building_gain_on_city_build_or_upgrade() -> None:
    """Bridge Building: each time one builds or upgrades a city, after paying, gain 2 of that
    city's settlement domain; upgraded, 3."""
    s, p = start()
    ps = s.players[p]
    to_develop(s)
    ps.city_limit[C] = 20
    ps.knowledge[C] = 6
    acquire(s, "C6d")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 2
    to_my_turn(s, p)
    give(s, "L01")  # a Trade settlement
    place = s.placements([tile(s, "L01")])[0]
    grow(s, place)
    only(ps.knowledge, T=3)
    do(s, f"city {cell_of(place)}")
    assert ps.knowledge[T] == 0 + 2 and ps.influence == 1 and s.phase == DEVELOP
    ps.knowledge[C] = 4
    upgrade(s, "C6d")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4
    to_my_turn(s, p)
    while s.stack:
        step(s)
    grow(s, next(a for a in s.placements() if a.b != place.b))
    only(ps.knowledge, T=6)
    do(s, f"upgrade {cell_of(place)}")
    assert ps.knowledge[T] == 0 + 3 and ps.influence == 1 + 2


@pytest.mark.rule("D-DEV-6", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_c9a_masonry_six_influence_on_both_sides() -> None:
    """Masonry (9, prerequisite Art 3): 4 VP and 6 influence at once; upgrading (6, +3 VP)
    gives 6 influence again."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[C] = 20
    grant(s, p, "A3d-1")
    to_develop(s)
    ps.knowledge[C] = 9
    acquire(s, "C9a")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4 and ps.influence == 6
    my_develop(s, p)
    ps.knowledge[C] = 6
    upgrade(s, "C9a")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 7 and ps.influence == 12


@pytest.mark.rule("D-BUILD-5", "D-FAQ-3", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_c9b_irrigation_cities_cheaper_per_city() -> None:
    """Irrigation (9, prerequisite Science 6): building and upgrading cities costs 1 less per
    city one has, paid in the settlement's domain, never below 0; the advanced side is the
    same."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[C] = 20
    grant(s, p, "S6b-1")
    to_develop(s)
    ps.knowledge[C] = 9
    acquire(s, "C9b")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [3, 6, 9]
    to_my_turn(s, p)
    while s.stack:
        step(s)
    grow(s)
    keys = sorted(s.board.settlement)
    assert len(keys) == 3
    s.board.build_city(keys[0], p)  # a city of mine (scenario)
    s.board.build_city(keys[1], 1 - p)  # the other player's does not count
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [2, 5, 8]
    dom = s.board.settlement[keys[2]]
    only(ps.knowledge, **{"TCASGR"[dom]: 2})
    do(s, f"city {Cell.from_key(keys[2])}")
    assert ps.knowledge[dom] == 0 and ps.influence == 1
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [1, 4, 7]
    ps.knowledge[C] = 6
    upgrade(s, "C9b")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4 + 3
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [1, 4, 7]
    to_my_turn(s, p)
    while s.stack:
        step(s)
    grow(s)
    new = sorted(set(s.board.settlement) - set(keys))
    assert len(new) == 2
    s.board.build_city(new[0], p)  # three cities of mine
    only(ps.knowledge, **{"TCASGR"[dom]: 3})
    do(s, f"upgrade {Cell.from_key(keys[2])}")  # to level 2: 6 - 3
    assert ps.knowledge[dom] == 0 and ps.influence == 1 + 2
    s.board.build_city(new[1], p)  # four: building would cost 3 - 4, so 0, nothing back
    assert [s.city_cost(p, lv) for lv in (1, 2, 3)] == [0, 2, 5]


@pytest.mark.rule("D-AGE-2", "D-GROW-9", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_c9c_warehouse_vp_per_craft_left() -> None:
    """Warehouse (9, prerequisite Trade 6): at the end of the age 1 VP per Craft knowledge
    left; the advanced side keeps that and raises the Craft limit by 5."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[C] = 10
    grant(s, p, "T6c-1")
    to_develop(s)
    ps.knowledge[C] = 9
    acquire(s, "C9c")
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4 and ps.limit(C) == 10
    to_final_develop(s)
    only(ps.knowledge, T=3, C=4)
    do(s, "pass")
    assert s.age == 2 and mastery_vp(s, p) == 4 + 4
    my_develop(s, p)
    ps.knowledge[C] = 6
    upgrade(s, "C9c")
    assert mastery_vp(s, p) == 8 + 3 and ps.limit(C) == 15
    to_final_develop(s)
    only(ps.knowledge, C=12)
    do(s, "pass")
    assert s.age == 3 and mastery_vp(s, p) == 11 + 12


@pytest.mark.rule("D-AGE-2", "D-DEV-8", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_c9d_smithing_vp_per_nodus() -> None:
    """Smithing (9, prerequisite Government 3): at the end of the age 1 VP per complete nodus
    not of Craft's colour; upgraded, 1 VP per nodus of any colour."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[C] = 20
    grant_forming(s, p, "G3d", G)
    to_develop(s)
    ps.knowledge[C] = 9
    acquire(s, "C9d", lambda f: C in f)
    grant_forming(s, p, "T3d", T)
    counts = ps.tree.nodi_counts()
    assert counts[C] == 1 and ps.tree.nodi_total() == 3
    assert ps.knowledge[C] == 0 and mastery_vp(s, p) == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 2
    my_develop(s, p)
    ps.knowledge[C] = 6
    upgrade(s, "C9d")
    assert mastery_vp(s, p) == 6 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 9 + 3


# -- Art -----------------------------------------------------------------------------------------


@pytest.mark.rule("D-DEV-6", "D-DEV-2", "D-DEV-5")
def test_a3d_bardic_tradition_one_influence_on_both_sides() -> None:
    """Bardic Tradition: 1 influence at once; upgrading (2, +1 VP) gives 1 influence again."""
    s, p = start()
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[A] = 3
    acquire(s, "A3d")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 0 and ps.influence == 1
    my_develop(s, p)
    ps.knowledge[A] = 2
    upgrade(s, "A3d")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 1 and ps.influence == 2


@pytest.mark.rule("D-DEV-6", "D-DEV-8", "D-DEV-2", "D-DEV-5")
def test_a6c_rhetoric_influence_per_art_nodus() -> None:
    """Rhetoric: 1 influence per Art nodus a placement forms, its own included (D-DEV-6);
    upgraded, 2 per Art nodus."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[A] = 20
    to_develop(s)
    ps.knowledge[A] = 6
    acquire(s, "A6c", lambda f: f == [A])
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 2 and ps.influence == 1
    my_develop(s, p)
    ps.knowledge[A] = 3
    _, formed = acquire(s, "A3a", lambda f: A in f)
    assert formed.count(A) == 1 and ps.influence == 1 + 1
    my_develop(s, p)
    ps.knowledge[A] = 4
    upgrade(s, "A6c")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 4 and ps.influence == 2
    my_develop(s, p)
    ps.knowledge[A] = 6
    _, formed = acquire(s, "A6b", lambda f: A in f)
    assert formed.count(A) == 1 and ps.influence == 2 + 2


@pytest.mark.rule("D-BUILD-6", "D-DEV-2", "D-DEV-5")
def test_a6d_patronage_cheaper_monument_levels() -> None:
    """Patronage: monument level cards cost 3 less; upgraded, 4 less."""
    s, p = start(monuments=("M10",))
    ps = s.players[p]
    m = s.catalog.monument_index["M10"]
    ps.city_limit[A] = 20
    assert s.level_cost(p, m) == 6
    to_develop(s)
    ps.knowledge[A] = 6
    acquire(s, "A6d")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 2
    assert s.level_cost(p, m) == 6 - 3
    s.levels_taken[m] = 1  # scenario: level 1 and the tile are built
    assert s.level_cost(p, m) == 12 - 3
    to_my_turn(s, p)
    while s.stack:
        step(s)
    grow(s)
    only(ps.knowledge, A=9)
    s.apply(next(a for a in s.legal_actions() if a.kind == MONUMENT))
    assert ps.knowledge == [0] * 6 and s.levels_taken[m] == 2
    assert ps.vp_by[VP_MONUMENTS] == 8 and ps.tree.count_cards(level_cards=True) == 1
    assert s.phase == DEVELOP
    ps.knowledge[A] = 4
    upgrade(s, "A6d")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 4
    assert s.level_cost(p, m) == 18 - 4
    to_my_turn(s, p)
    while s.stack:
        step(s)
    grow(s)
    only(ps.knowledge, A=14)
    s.apply(next(a for a in s.legal_actions() if a.kind == MONUMENT))
    assert ps.knowledge == [0] * 6 and s.levels_taken[m] == 3
    assert ps.vp_by[VP_MONUMENTS] == 8 + 11


@pytest.mark.rule("D-AGE-2", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_a9a_architecture_vp_per_monument_level_card() -> None:
    """Architecture (9, prerequisite Craft 3): at the end of the age 3 VP per monument level
    card in the tree; upgraded, 4 VP per level card."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[A] = 20
    grant(s, p, "C3a-1")
    to_develop(s)
    ps.knowledge[A] = 9
    acquire(s, "A9a")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 4
    grant(s, p, "M01-L3")  # two level cards without effects (scenario)
    grant(s, p, "M01-L4")
    assert ps.tree.count_cards(level_cards=True) == 2
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 3 * 2
    my_develop(s, p)
    ps.knowledge[A] = 6
    upgrade(s, "A9a")
    assert mastery_vp(s, p) == 10 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 13 + 4 * 2


@pytest.mark.rule("D-AGE-2", "D-DEV-8", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_a9b_mosaics_vp_per_art_nodus() -> None:
    """Mosaics (9, prerequisite Religion 6): at the end of the age 2 VP per Art nodus;
    upgraded, 3 VP per Art nodus."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[A] = 20
    grant(s, p, "R6d-1")
    to_develop(s)
    ps.knowledge[A] = 9
    acquire(s, "A9b", lambda f: A in f)
    grant_forming(s, p, "A3d", A)
    assert ps.tree.nodi(A) == 2
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 4
    to_age_end(s)
    assert mastery_vp(s, p) == 4 + 2 * 2
    my_develop(s, p)
    ps.knowledge[A] = 6
    upgrade(s, "A9b")
    assert mastery_vp(s, p) == 8 + 3
    to_age_end(s)
    assert mastery_vp(s, p) == 11 + 3 * 2


@pytest.mark.rule("D-AGE-2", "D-DEV-8", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_a9c_diplomacy_influence_per_nodus_colour() -> None:
    """Diplomacy (9, prerequisite Government 6): at the end of the age 1 influence per colour
    with a complete nodus; upgraded, also 2 VP per such colour."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[A] = 20
    grant_forming(s, p, "G6c", G)
    to_develop(s)
    ps.knowledge[A] = 9
    acquire(s, "A9c", lambda f: A in f)
    grant_forming(s, p, "T3d", T)
    assert ps.tree.colours() == 3
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 4 and ps.influence == 0
    to_age_end(s)
    assert ps.influence == 3 and mastery_vp(s, p) == 4
    my_develop(s, p)
    ps.knowledge[A] = 6
    upgrade(s, "A9c")
    assert mastery_vp(s, p) == 4 + 3
    to_age_end(s)
    assert ps.influence == 3 + 3 and mastery_vp(s, p) == 7 + 2 * 3


@pytest.mark.rule("D-AGE-2", "D-DEV-3", "D-DEV-2", "D-DEV-5")
def test_a9d_epic_poetry_vp_per_influence() -> None:
    """Epic Poetry (9, prerequisite Trade 3): at the end of the age 1 VP per 3 influence;
    upgraded, 1 VP per 2 influence."""
    s, p = start()
    ps = s.players[p]
    ps.city_limit[A] = 20
    grant(s, p, "T3d-1")
    to_develop(s)
    ps.knowledge[A] = 9
    acquire(s, "A9d")
    assert ps.knowledge[A] == 0 and mastery_vp(s, p) == 4
    to_final_develop(s)
    ps.influence = 11
    do(s, "pass")
    assert s.age == 2 and mastery_vp(s, p) == 4 + 3 and ps.influence == 11
    my_develop(s, p)
    ps.knowledge[A] = 6
    upgrade(s, "A9d")
    assert mastery_vp(s, p) == 7 + 3
    to_final_develop(s)
    do(s, "pass")
    assert s.age == 3 and mastery_vp(s, p) == 10 + 5  # 11 // 2


@pytest.mark.rule("D-FLOW-5", "D-AGE-2")
def test_diplomacy_and_epic_poetry_owner_orders_end_of_age_effects() -> None:
    """Diplomacy writes influence and Epic Poetry counts it: at the end of the age their owner
    chooses which resolves first (D-FLOW-5), and the result depends on it."""
    s, p = start()
    ps = s.players[p]
    grant(s, p, "G6c-1")
    grant(s, p, "T3d-1")
    grant(s, p, "A9c-1")
    grant(s, p, "A9d-1")
    colours = ps.tree.colours()
    assert colours == 3
    to_final_develop(s)
    ps.influence = 8
    vp = mastery_vp(s, p)
    do(s, "pass")
    assert s.phase_name == "order effects" and s.current_player() == p
    first = s.copy()
    do(first, "resolve A9c")  # 8 + 3 = 11 influence, then 11 // 3 = 3 VP
    assert first.players[p].influence == 11 and mastery_vp(first, p) == vp + 3
    do(s, "resolve A9d")  # 8 // 3 = 2 VP, then + 3 influence
    assert ps.influence == 11 and mastery_vp(s, p) == vp + 2
