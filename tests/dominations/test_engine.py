"""The Dominations engine: setup, growth, vestigium, reserve limits, cities, exchange."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from dominari.core.errors import IllegalActionError, ParseError, RecordError
from dominari.dominations.board import LINK_LOCUS
from dominari.dominations.data import Modifier, builtin_folder
from dominari.dominations.engine import (
    ASSIGN,
    BUILD,
    CITY_TOKENS,
    DEVELOP,
    EV_KNOWLEDGE,
    GROWTH,
    HAND_SIZE,
    OVER,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.grid import Cell
from dominari.dominations.notation import AS_DOMAIN, CITY, EXCHANGE, PASS, PLACE, UPGRADE

from .helpers import (
    do,
    finish_age_start,
    finish_turn,
    give,
    new,
    other_turn,
    patch_fx,
    random_game,
    tile,
)

T, C, A, S, G, R = range(6)


@pytest.mark.rule("D-SET-1", "D-SET-4", "D-SET-6")
def test_setup() -> None:
    s = new(3, seed=11)
    assert sorted(s.order) == [0, 1, 2]
    assert s.current_player() == s.order[0] and s.phase == GROWTH
    for ps in s.players:
        assert ps.knowledge == [0] * 6 and ps.limits() == [5] * 6
        assert ps.tokens == CITY_TOKENS == 15 and ps.vp == 0 and ps.influence == 0
        assert len(ps.hand) == HAND_SIZE
    assert len(s.supply) == 90 - 21
    assert len(s.board.kind) == 6  # the cradle
    again = new(3, seed=11)
    assert again.order == s.order and again.supply == s.supply
    assert len({tuple(new(4, seed=k).order) for k in range(30)}) > 5  # random initiative


@pytest.mark.rule("D-SET-1")
def test_a_game_may_be_set_up_from_keyword_options_as_dominions_is() -> None:
    """``DominationsState.new(players=3, seed=11)`` is the game of that config; a config
    and keywords together are refused, as Dominion refuses them."""
    s = DominationsState.new(players=3, seed=11)
    assert s.config == DominationsConfig(players=3, seed=11)
    plain = new(3, seed=11, setup=False)
    assert s.order == plain.order and s.supply == plain.supply and s.players[0].hand == \
        plain.players[0].hand
    with pytest.raises(TypeError, match="give either a config or keyword options"):
        DominationsState.new(DominationsConfig(), players=3)


@pytest.mark.rule("D-SET-1")
def test_a_data_folder_given_with_keyword_options_is_the_configs(tmp_path: Path) -> None:
    """``data=`` is the loaded component data beside a config, and the config's folder
    among keyword options (a path string or object)."""
    shutil.copy(builtin_folder() / "roles.json", tmp_path / "roles.json")
    for folder in (str(tmp_path), tmp_path):
        s = DominationsState.new(players=2, seed=4, data=folder)
        assert s.config.data == str(tmp_path) and s.data.origins["roles.json"] == tmp_path
    data = new(2).data
    assert DominationsState.new(DominationsConfig(players=2, seed=4), data).data is data
    with pytest.raises(TypeError, match="with a config, data is its loaded component data"):
        DominationsState.new(DominationsConfig(), str(tmp_path))


@pytest.mark.rule("D-GROW-1")
def test_a_tile_must_be_placed() -> None:
    s = new()
    assert all(a.kind in (PLACE, EXCHANGE) for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="place a tile first"):
        do(s, "pass")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        other = s.players[1 - s.mover].hand[0]
        s.apply(s.placements([other])[0])


@pytest.mark.rule("D-GROW-2")
def test_placement_errors_say_why() -> None:
    s = new()
    t = s.data.tiles[s.players[s.mover].hand[0]].id
    with pytest.raises(IllegalActionError, match="already filled"):
        do(s, f"{t} 0,0 r0")
    with pytest.raises(IllegalActionError, match="none of its sides"):
        do(s, f"{t} 5,5 r0 via 4,5")
    with pytest.raises(ParseError, match="does not share a side"):
        do(s, f"{t} 2,0 r0 via 0,0")
    with pytest.raises(ParseError, match="unknown action or tile"):
        do(s, "L99 2,0")


def test_preview_matches_what_is_added() -> None:
    s = new(seed=8)
    for action in s.placements()[:40]:
        t = s.copy()
        ys = t.preview(action)
        t.events.clear()
        t.apply(action)
        while t.phase == ASSIGN:
            t.apply(t.parse_action("vestigium T"))
        produced = sum(e[3] for e in t.events if e[0] == EV_KNOWLEDGE)
        assert produced == sum(y.amount for y in ys)


@pytest.mark.rule("D-GROW-9")
def test_knowledge_beyond_the_limit_is_lost() -> None:
    s = new(seed=3)
    p = s.mover
    s.players[p].knowledge[T] = 4
    give(s, "L01")  # Trade settlement, corners T T S
    do(s, "L01 2,0 r0")  # settlement alone gives 1 T at least
    assert s.players[p].knowledge[T] == 5 == s.players[p].limit(T)


@pytest.mark.rule("D-GROW-10")
def test_overflow_gives_one_vp_per_phase_and_domain() -> None:
    """The rulebook example: at 20, producing 3 more gives 1 VP instead; the next turn again."""
    s = new(seed=3)
    p = s.mover
    ps = s.players[p]
    ps.city_limit[T] = 20
    ps.knowledge[T] = 20
    give(s, "L01")
    do(s, "L01 2,0 r0")
    assert ps.knowledge[T] == 20 and ps.vp == 1
    # two exchanges into Trade in one build phase: one more VP, not two
    ps.knowledge[C] = 4
    do(s, "exchange C T", "exchange C T")
    assert ps.vp == 2 and ps.knowledge[C] == 0
    finish_turn(s)
    other_turn(s)
    assert s.mover == p
    give(s, "L02")  # Trade settlement again: the next growth phase gives another VP
    s.apply(s.placements([tile(s, "L02")])[0])
    while s.phase == ASSIGN:
        do(s, "vestigium G")
    assert ps.vp == 3 and ps.overflow_vp == 3


@pytest.mark.rule("D-VOC-1", "D-VOC-2")
def test_produced_vestigium_is_assigned_by_its_receiver() -> None:
    s = new(seed=4)
    p = s.mover
    patch_fx(s, p, bonuses=(0, 2, 0, 0))  # a settlement producing 2 extra vestigium
    give(s, "L01")
    preview = s.preview(s.parse_action("L01 2,0 r0"))
    assert sum(y.amount for y in preview if y.domain == 6) == 2
    plain_g = sum(y.amount for y in preview if y.domain == G)  # the cradle's Government corner
    do(s, "L01 2,0 r0")
    assert s.phase == ASSIGN and s.current_player() == p
    legal = s.legal_actions()
    assert {a.a for a in legal if a.kind == AS_DOMAIN} == set(range(6))
    before = s.players[p].knowledge.copy()
    do(s, "vestigium Art")
    assert s.phase == ASSIGN  # one unit left: it may go to another domain
    do(s, "vestigium G")
    assert s.phase == BUILD
    gained = [a - b for a, b in zip(s.players[p].knowledge, before, strict=True)]
    assert gained[A] == 1 and gained[G] == 1 + plain_g


@pytest.mark.rule("D-GROW-6", "D-GROW-11")
def test_other_players_cities_produce_for_their_owner_in_my_turn() -> None:
    s = new(seed=6)
    me = s.mover
    give(s, "L16")  # a Craft settlement
    do(s, "L16 2,0 r0")
    key = Cell(2, 0).key
    s.board.build_city(key, 1 - me)
    s.board.upgrade_city(key)
    finish_turn(s)
    other = s.mover
    assert other == 1 - me
    other_turn(s, avoid=("3,0",))
    assert s.mover == me
    give(s, "L31")
    before = s.players[other].knowledge[C]
    do(s, "L31 3,0 r0 via 2,0")  # the other player's level-2 city produces 2 Craft for them
    assert s.players[other].knowledge[C] == min(5, before + 2)


@pytest.mark.rule("D-BUILD-1", "D-BUILD-2", "D-BUILD-3", "D-FAQ-1")
def test_cities_build_and_upgrade() -> None:
    s = new(seed=7)
    p = s.mover
    give(s, "L16")
    do(s, "L16 2,0 r0")  # Craft settlement
    ps = s.players[p]
    ps.knowledge[C] = 3
    assert [a for a in s.legal_actions() if a.kind == CITY] == [
        s.parse_action("city 2,0")]
    with pytest.raises(IllegalActionError, match="no city can go on 0,0"):
        do(s, "city 0,0")  # the cradle has no settlement
    do(s, "city 2,0")
    assert ps.knowledge[C] == 0 and ps.influence == 1 and ps.tokens == 14
    assert ps.limit(C) == 10
    assert s.phase == DEVELOP and s.mover == p  # one build action, then the develop phase
    do(s, "pass")
    assert s.phase == GROWTH and s.mover != p
    # the other player may not upgrade it nor build on it
    q = s.players[s.mover]
    s.apply(next(a for a in s.placements() if a.b != Cell(3, 0).key))
    while s.phase == ASSIGN:
        do(s, "vestigium T")
    q.knowledge[C] = 9
    with pytest.raises(IllegalActionError, match="only your own"):
        do(s, "upgrade 2,0")
    with pytest.raises(IllegalActionError, match="already has"):
        do(s, "city 2,0")
    finish_turn(s)
    # p upgrades twice over two turns: 6 then 9 Craft, +2 then +3 influence
    s.apply(s.placements()[0])
    while s.phase == ASSIGN:
        do(s, "vestigium T")
    ps.knowledge[C] = 10
    do(s, "upgrade 2,0")
    assert ps.knowledge[C] == 4 and ps.influence == 3 and ps.limit(C) == 15
    assert s.board.city_level[Cell(2, 0).key] == 2
    ps.tokens = 0
    do(s, "pass")
    other_turn(s)
    s.apply(s.placements()[0])
    while s.phase == ASSIGN:
        do(s, "vestigium T")
    ps.knowledge[C] = 9
    assert s.mover == p and s.phase == BUILD
    assert not [a for a in s.legal_actions() if a.kind in (CITY, UPGRADE)]
    with pytest.raises(IllegalActionError, match="no city tokens"):
        do(s, "upgrade 2,0")
    ps.tokens = 1
    ps.knowledge[C] = 9
    do(s, "upgrade 2,0")
    assert ps.influence == 6 and ps.limit(C) == 20 and ps.tokens == 0
    assert s.board.city_level[Cell(2, 0).key] == 3


@pytest.mark.rule("D-BUILD-4")
def test_three_level_one_cities_raise_a_limit_to_ten_not_fifteen() -> None:
    s = new(seed=9)
    p = s.mover
    ps = s.players[p]
    keys = []
    cells = ("2,0", "3,0", "2,-1")
    for tid, cell in zip(("L16", "L17", "L18"), cells, strict=True):
        while s.mover != p:
            other_turn(s, avoid=cells)
        give(s, tid)  # Craft settlements
        do(s, f"{tid} {cell} r0")
        while s.phase == ASSIGN:
            do(s, "vestigium T")
        ps.knowledge[C] = 3
        do(s, f"city {cell}", "pass")
        keys.append(Cell.parse(cell).key)
    assert all(s.board.city_owner[k] == p for k in keys)
    assert ps.limit(C) == 10


@pytest.mark.rule("D-BUILD-5", "D-FAQ-2")
def test_city_cost_reductions_stop_at_zero() -> None:
    s = new(seed=10)
    p = s.mover
    ps = s.players[p]
    patch_fx(s, p, costs={"city": (Modifier("cost_reduction", amount=5, target="city"),)})
    give(s, "L16")
    do(s, "L16 2,0 r0")
    ps.knowledge[C] = 2
    assert s.city_cost(p, 1) == 0 and s.city_cost(p, 2) == 1
    do(s, "city 2,0")
    assert ps.knowledge[C] == 2  # free, and nothing given back


@pytest.mark.rule("D-FLOW-3", "D-DEV-9")
def test_campfire_exchange_in_ones_own_turn() -> None:
    s = new(seed=12)
    p = s.mover
    ps = s.players[p]
    ps.knowledge[T] = 5
    assert {(a.a, a.b) for a in s.legal_actions() if a.kind == EXCHANGE} == {
        (T, b) for b in range(6) if b != T}
    assert s.exchanged == 0
    do(s, "exchange T Science", "exchange T S")
    assert ps.knowledge[T] == 1 and ps.knowledge[S] == 2
    assert s.exchanged == 1 << S  # the domains exchanged into this turn, for bots
    assert s.copy().exchanged == 1 << S
    with pytest.raises(IllegalActionError, match="needs 2"):
        do(s, "exchange T S")
    with pytest.raises(ParseError, match="different domain"):
        do(s, "exchange T T")
    # not while another player assigns their vestigium in my turn
    q = 1 - p
    patch_fx(s, q, bonuses=(0, 0, 0, 1))  # their cities produce 1 extra vestigium
    give(s, "L16")
    do(s, "L16 2,0 r0")
    finish_turn(s)
    assert s.exchanged == 0  # a new turn
    # q builds a city on 2,0, then p connects to it
    s.apply(next(a for a in s.placements() if a.b != Cell(3, 0).key))
    while s.phase == ASSIGN:
        do(s, "vestigium T")
    s.players[q].knowledge[C] = 3
    do(s, "city 2,0", "pass")
    give(s, "L31")
    ps.knowledge[T] = 4
    do(s, "L31 3,0 r0 via 2,0")
    assert s.phase == ASSIGN and s.current_player() == q
    assert not [a for a in s.legal_actions() if a.kind == EXCHANGE]
    with pytest.raises(IllegalActionError, match="own turn"):
        do(s, "exchange T C")
    do(s, "vestigium R")
    assert s.phase == BUILD and s.current_player() == p


@pytest.mark.rule("D-GROW-7")
def test_a_completed_locus_is_forced_in_the_engine() -> None:
    s = random_game(seed=21, stop=60)
    while s.phase != GROWTH:
        s.apply(s.legal_actions()[0])
    forced = [a for a in s.placements() if a.d >= LINK_LOCUS]
    cells = {a.b for a in forced}
    for a in s.placements():
        if a.b in cells:
            assert a.d >= LINK_LOCUS
    if forced:
        text = s.format_action(forced[0])
        assert " locus @" in text and s.parse_action(text) == forced[0]


@pytest.mark.rule("D-AGE-9")
def test_between_ages_knowledge_resets_and_hands_refill() -> None:
    s = new(seed=13)
    while s.age == 1:
        s.apply(s.legal_actions()[0] if s.phase not in (BUILD, DEVELOP)
                else s.parse_action("pass"))
    finish_age_start(s)
    assert s.age == 2 and s.round == 0 and s.phase == GROWTH
    for p, ps in enumerate(s.players):
        assert ps.knowledge == [0] * 6
        assert len(ps.hand) == HAND_SIZE + (2 if s.roles[5] == p else 0)  # High Priestess
        assert ps.turns >= 5


@pytest.mark.rule("D-VOC-3")
def test_ties_go_to_initiative() -> None:
    s = random_game(seed=14)
    assert s.phase == OVER
    for ps in s.players:
        ps.vp = 10
    out = s.outcome()
    assert out is not None
    assert out.ranks[s.order[0]] == 1 and out.ranks[s.order[1]] == 2


def test_all_sides_option_scores_every_touching_side() -> None:
    s = new(seed=15, connection="all-sides")
    for a in s.placements():
        assert a.d >= LINK_LOCUS
    with pytest.raises(ParseError, match="leave out 'via'"):
        t = s.data.tiles[s.players[s.mover].hand[0]].id
        do(s, f"{t} 2,0 r0 via 1,0")


def test_illegal_phase_actions() -> None:
    s = new()
    with pytest.raises(IllegalActionError):
        s.apply("pass")  # type: ignore[arg-type]
    s.apply(s.placements()[0])
    while s.phase == ASSIGN:
        do(s, "vestigium T")
    with pytest.raises(IllegalActionError, match="build phase"):
        s.apply(s.placements()[0] if s.placements() else s.parse_action("vestigium T"))
    assert s.parse_action("pass").kind == PASS


def test_record_replays_and_rejects_tampering() -> None:
    s = random_game(seed=16, players=3)
    rec = s.record()
    again = DominationsState.from_record(rec)
    assert again.outcome() == s.outcome()
    assert again.history == s.history
    assert again.seed == s.seed == rec["config"]["seed"] == 16  # as a Dominion state's
    assert s.copy().seed == 16
    bad = dict(rec, actions=[*rec["actions"][:5], "city 40,40", *rec["actions"][6:]])
    with pytest.raises(RecordError, match="action 6"):
        DominationsState.from_record(bad)
    other = dict(rec, config=dict(rec["config"], data_digest="0000"))
    with pytest.raises(RecordError, match="other component data than the built-in data"):
        DominationsState.from_record(other)
    with pytest.raises(RecordError, match="not dominations"):
        DominationsState.from_record(dict(rec, game="dominion"))


def test_the_view_writes_each_legal_action_in_notation() -> None:
    """The legal actions of a view are the state's notation of ``legal_actions()``, in
    order, and only the player to act is given them."""
    for seed, stop in ((3, 5), (4, 60), (3, 5), (5, 120)):
        s = random_game(seed=seed, stop=stop)
        current = s.current_player()
        view = s.view(current)
        assert view["legal_actions"] == [s.format_action(a) for a in s.legal_actions()]
        assert all(v["legal_actions"] == [] for p, v in enumerate(s.views([None, 0, 1]))
                   if p == 0 or p - 1 != current)


def test_a_game_without_a_seed_is_dealt_at_random_and_replays() -> None:
    """As Dominion's: a config without a seed picks one, and holds it for the record (the
    library user's audit: every unseeded Dominations game was the same game, seed 0)."""
    a, b = DominationsConfig(), DominationsConfig(players=2)
    assert isinstance(a.seed, int) and 0 <= a.seed < 2 ** 63 and a.seed != b.seed
    s = DominationsState.new(players=2)
    t = DominationsState.new(players=2)
    assert s.seed != t.seed and s.view(None) != t.view(None)
    rng = random.Random(3)
    for _ in range(30):
        s.apply(rng.choice(s.legal_actions()))
    again = DominationsState.from_record(s.record())
    assert again.seed == s.seed and again.view(None) == s.view(None)
    assert DominationsConfig(seed=0).seed == 0
    # from JSON as from the constructor; a record without its seed is refused, not
    # replayed with seed 0 (the review: from_json gave 0)
    assert DominationsConfig.from_json({"players": 2}).seed != 0
    rec = s.record()
    del rec["config"]["seed"]
    with pytest.raises(RecordError, match="record config has no seed"):
        DominationsState.from_record(rec)
    assert repr(s).startswith(f"<DominationsState seed={s.seed} age=1 ")
    assert repr(DominationsState()) == "<DominationsState (being set up)>"


def test_a_state_dealt_again_refuses_to_be_recorded() -> None:
    """As Dominion's: a copy given a generator or a determinize world (the supply
    reshuffled) would record the seed's game and not replay; ``record()`` says so."""
    s = random_game(seed=5, stop=30)
    assert DominationsState.from_record(s.copy().record()).view(None) == s.view(None)
    for dealt in (s.copy(random.Random(3)), s.determinize(0, random.Random(4)),
                  s.determinize(1, random.Random(4)).copy()):
        assert dealt.dealt_again
        with pytest.raises(RecordError, match="would not replay: record the game itself"):
            dealt.record()
    assert not s.dealt_again


def test_a_finished_games_view_carries_its_outcome() -> None:
    """D-END-4: every view of a finished game carries the outcome as Dominion's views do
    (VP, ranks with initiative breaking equal VP, winners), so a client of the server need
    not rank the players itself; a game not over has none."""
    s = random_game(seed=7, stop=40)
    assert all(v["outcome"] is None for v in s.views([None, 0, 1]))
    s = random_game(seed=7)
    assert s.is_terminal()
    out = s.outcome()
    assert out is not None
    views = s.views([None, 0, 1])
    assert all(v["outcome"] == out.to_json() for v in views)
    got = views[0]["outcome"]
    assert got["scores"] == [p["vp"] for p in views[0]["players"]]
    assert sorted(got["ranks"]) == [1, 2] and len(got["winners"]) == 1
    assert got["ranks"][got["winners"][0]] == 1


def test_view_hides_only_the_supply_order() -> None:
    s = random_game(seed=17, stop=20)
    v = s.view(0)
    assert v["supply"] == len(s.supply)
    assert v["supply_bottom"] == [s.data.tiles[t].id
                                  for t in reversed(s.supply[:s.supply_known])]
    assert "L" in v["players"][1]["hand"][0]  # hands are public (rules §13.10)
    assert not any(isinstance(x, list) and len(x) == len(s.supply) > 7 for x in v.values())
    d = s.determinize(0, random.Random(1))
    assert sorted(d.supply) == sorted(s.supply) and d.supply != s.supply
    assert d.players[1].hand == s.players[1].hand
