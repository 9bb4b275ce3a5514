"""The whole game: setup drafts and mulligans, the ages, roles acting in the next age, keeping
tiles, objectives and the final ranking, and the prototype variant (§3, §4, §9, §10, §14)."""

from __future__ import annotations

import pytest

from dominari.core.errors import ConfigError, IllegalActionError, ParseError
from dominari.dominations.engine import (
    AGE_START,
    BUILD,
    DEVELOP,
    EV_AGE_END,
    EV_COPY,
    EV_INFLUENCE_VP,
    EV_OBJECTIVE,
    EV_ROLE,
    EV_ROLE_BACK,
    EV_TURN,
    F_CHOOSE,
    F_ORDER,
    F_TILES,
    GROWTH,
    HAND_SIZE,
    OVER,
    SETUP,
    T_KEEP,
    T_KEEP_ALL,
    T_MULLIGAN,
    T_MULLIGAN_ALL,
    TURNS_PER_AGE,
    VP_OBJECTIVES,
    VP_ROLES,
    VP_SOURCES,
    VP_TREE,
    DominationsConfig,
    DominationsState,
    tree_score,
)
from dominari.dominations.notation import (
    CHOOSE,
    DONE_ACTION,
    EXCHANGE,
    MULLIGAN,
    ORDER,
    PASS,
    PASS_ACTION,
    PLACE,
    REACTIVATE,
    RETURN,
    RETURN_ALL,
    Action,
    order_code,
)
from dominari.dominations.objectives import goals_met, objective_vp
from dominari.dominations.production import SETTLEMENT, SETTLEMENT_BONUS, reactivation_yields
from dominari.dominations.rules import Rules

from .helpers import assign_all, do, finish_age_start, grant, new, random_game, skip_setup

T, C, A, S, G, R = range(6)


def step(s: DominationsState) -> None:
    """One plain action: pass build/develop (and the Artisan's tile), keep tiles, keep the
    order, else the first legal answer."""
    acts = s.legal_actions()
    if s.phase in (BUILD, DEVELOP) and not s.stack:
        do(s, "pass")
    elif DONE_ACTION in acts:
        s.apply(DONE_ACTION)
    elif s.stack and s.stack[-1][0] == F_ORDER:
        s.apply(Action(ORDER, order_code(s.order)))
    elif s.phase == GROWTH and s.second:
        do(s, "pass")
    else:
        s.apply(next(a for a in acts if a.kind not in (EXCHANGE, REACTIVATE)))


def to_last_develop(s: DominationsState) -> None:
    """On to the develop phase of the age's last turn (the next pass ends the age)."""
    while not (s.round == TURNS_PER_AGE - 1 and s.seat == s.num_players - 1
               and s.phase == DEVELOP and not s.stack):
        step(s)


def end_age(s: DominationsState, rows: dict[int, dict[int, int]]) -> None:
    """End the age with these knowledge rows (player -> domain -> amount; the rest 0), so
    that the roles go where the test wants (D-AGE-7)."""
    to_last_develop(s)
    for p, ps in enumerate(s.players):
        ps.knowledge = [rows.get(p, {}).get(d, 0) for d in range(6)]
    do(s, "pass")


def to_turn_of(s: DominationsState, p: int) -> None:
    """On to ``p``'s growth phase (answering between-age questions plainly)."""
    while not (s.mover == p and s.phase == GROWTH and not s.stack and not s.second):
        step(s)


def game(players: int = 2, seed: int = 1, **kw: object) -> DominationsState:
    return DominationsState.new(DominationsConfig(players=players, seed=seed, **kw))  # type: ignore[arg-type]


# -- setup (D-SET) ------------------------------------------------------------------------------


@pytest.mark.rule("D-SET-3", "D-SET-2")
def test_drafts_draw_two_keep_one_and_monuments_in_play_equal_players() -> None:
    s = game(players=3, seed=4)
    assert s.phase == SETUP and s.phase_name == "draft"
    seen_objectives: set[int] = set()
    seen_monuments: set[int] = set()
    asked = []
    while s.stack and s.stack[-1][0] == F_CHOOSE:
        top = s.stack[-1]
        p, what, options = top[1], top[2], top[3]
        asked.append((p, what))
        assert s.current_player() == p and len(options) == 2
        assert s.legal_actions() == [Action(CHOOSE, what, i) for i in options]
        pool = seen_objectives if what == 0 else seen_monuments
        assert not pool & set(options)  # every player draws different cards
        pool.update(options)
        view = s.view(p)
        assert view["pending"]["kind"] == "draft" and len(view["pending"]["options"]) == 2
        other = s.view((p + 1) % 3)["pending"]
        assert "options" not in other  # the cards drawn are the drawer's until revealed
        wrong = next(i for i in range(len(s.data.objectives if what == 0 else
                                          s.data.monuments)) if i not in options)
        with pytest.raises(IllegalActionError, match="keeps one of the two"):
            s.apply(Action(CHOOSE, what, wrong))
        s.apply(Action(CHOOSE, what, options[1]))
    assert asked == [(p, 0) for p in s.order] + [(p, 1) for p in s.order]
    assert len(s.monuments) == 3 and len(set(s.monuments)) == 3
    assert set(s.monuments) <= seen_monuments
    assert all(o in seen_objectives for o in s.objectives)
    assert s.levels_taken == dict.fromkeys(s.monuments, 0)  # level stacks, level 1 on top
    view = s.view(None)
    assert [m["id"] for m in view["monuments"]] == [s.data.monuments[m].id
                                                    for m in s.monuments]
    assert all(pl["objective"]["id"] for pl in view["players"])  # objectives are public


@pytest.mark.rule("D-SET-3")
def test_kept_cards_are_revealed_together_in_the_log() -> None:
    from dominari.dominations.text import event_lines

    s = game(players=3, seed=4, log=True)
    kept = []
    while s.stack and s.stack[-1][0] == F_CHOOSE:
        top = s.stack[-1]
        if top[2] == 1 and not kept[3:]:  # the monument draft starts
            lines = event_lines(s, s.events)
            assert sum("keeps the objective" in x for x in lines) == 3
        # Until the last player keeps one, the log says nothing of what was kept.
        assert not any("keeps the" + (" monument" if top[2] else "") in x
                       for x in event_lines(s, s.events))
        kept.append((top[1], top[2], top[3][0]))
        s.apply(Action(CHOOSE, top[2], top[3][0]))
    lines = [x for x in event_lines(s, s.events) if " keeps the " in x]
    names = s.config.player_names()
    assert lines == [f"{names[p]} keeps the {'monument' if what else 'objective'} "
                     f"{(s.data.monuments if what else s.data.objectives)[c].name}"
                     for p, what, c in kept]


@pytest.mark.rule("D-SET-3")
def test_determinize_deals_the_others_drafts_again() -> None:
    import random

    s = game(players=3, seed=4)
    first, second, third = s.order
    s.apply(Action(CHOOSE, 0, s.stack[-1][3][1]))  # the first keeps one
    mine = set(s.drawn[0][second])
    rng = random.Random(2)
    objectives, options = set(), set()
    for _ in range(30):
        d = s.determinize(second, rng)
        assert d.view(second) == s.view(second)  # nothing it may see has changed
        assert s.stack[-1][3] == sorted(mine) and d.stack[-1][3] == sorted(mine)
        assert d.objectives[first] in d.drawn[0][first]
        assert not mine & {d.objectives[first], *d.drawn[0][first], *d.drawn[0][third]}
        # The dealt cards are all different, and the pending frames hold the new draws.
        dealt = [c for pair in d.drawn[0] for c in pair]
        assert len(set(dealt)) == 6
        frames = {f[1]: f[3] for f in d.stack if f[0] == F_CHOOSE and f[2] == 0}
        assert frames[third] == list(d.drawn[0][third])
        monuments = {f[1]: f[3] for f in d.stack if f[0] == F_CHOOSE and f[2] == 1}
        assert monuments[second] == list(s.drawn[1][second])
        objectives.add(d.objectives[first])
        options.add(tuple(frames[third]))
        d.apply(d.legal_actions()[0])  # a world the game goes on in
    assert s.drawn[0][first] != () and s.objectives[first] in s.drawn[0][first]
    assert len(objectives) > 3 and len(options) > 5  # hidden: dealt again, not kept
    # The objectives revealed, the first keeps a monument: only the monuments are hidden.
    while s.stack[-1][2] == 0:
        s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[1])
    monuments = set()
    for _ in range(20):
        d = s.determinize(third, rng)
        assert d.view(third) == s.view(third) and d.objectives == s.objectives
        assert d.monuments[0] in d.drawn[1][first] and len(d.monuments) == 1
        assert not set(s.drawn[1][third]) & {*d.drawn[1][first], *d.drawn[1][second]}
        assert d.levels_taken == {d.monuments[0]: 0}
        monuments.add(d.monuments[0])
    assert len(monuments) > 3
    # Once the drafts are over, everything but the supply order is public again.
    while s.stack and s.stack[-1][0] == F_CHOOSE:
        s.apply(s.legal_actions()[0])
    d = s.determinize(first, rng)
    assert (d.objectives, d.monuments, d.drawn) == (s.objectives, s.monuments, s.drawn)


@pytest.mark.rule("D-SET-3")
def test_config_fixes_objectives_and_monuments_and_checks_them() -> None:
    s = game(players=2, objectives=("O03", "O04"), monuments=("M01", "M07"))
    assert [s.data.objectives[o].id for o in s.objectives] == ["O03", "O04"]
    assert [s.data.monuments[m].id for m in s.monuments] == ["M01", "M07"]
    assert s.stack[-1][0] == F_TILES  # straight to the mulligans
    with pytest.raises(ConfigError, match="unknown objective"):
        game(players=2, objectives=("O03", "X99"))
    with pytest.raises(ConfigError, match="one per player"):
        game(players=3, objectives=("O03", "O04"))
    out = DominationsConfig.from_json(game(objectives=("O01", "O02")).config.to_json())
    assert out.objectives == ("O01", "O02")


@pytest.mark.rule("D-SET-5", "D-SET-6")
def test_the_mulligan_returns_tiles_under_the_supply_and_draws_back_up() -> None:
    s = game(players=2, seed=3, objectives=("O01", "O02"), monuments=("M01", "M02"))
    p = s.order[0]
    top = s.stack[-1]
    assert top[0] == F_TILES and top[2] == T_MULLIGAN and s.current_player() == p
    hand = s.players[p].hand.copy()
    assert len(hand) == HAND_SIZE
    assert s.legal_actions() == [DONE_ACTION, *(Action(RETURN, t) for t in sorted(hand))]
    back = sorted(hand)[:2]
    for t in back:
        do(s, f"return {s.data.tiles[t].id}")
    assert s.supply[:2] == [back[1], back[0]]  # at the bottom
    other = next(t for t in range(len(s.data.tiles)) if t not in hand)
    with pytest.raises(IllegalActionError, match="not in"):
        s.apply(Action(RETURN, other))
    do(s, "done")
    assert len(s.players[p].hand) == HAND_SIZE and not set(back) & set(s.players[p].hand)
    assert s.mulligans[p] == 1
    q = s.order[1]
    assert s.current_player() == q  # once each, in initiative order
    for t in sorted(s.players[q].hand):  # returning the whole hand ends the question
        s.apply(Action(RETURN, t))
    assert len(s.players[q].hand) == HAND_SIZE and s.phase == GROWTH
    assert s.mover == s.order[0] and s.turn_number == 1


@pytest.mark.rule("D-SET-5", "D-AGE-9")
def test_determinize_keeps_the_tiles_put_back_where_everyone_saw_them_go() -> None:
    """Hands are public (rules §13.10), so the tiles put back under the supply are known, in
    order, until they are drawn: a sampled world reshuffles only the rest."""
    import random

    s = game(players=2, seed=3, objectives=("O01", "O02"), monuments=("M01", "M02"))
    assert s.supply_known == 0
    p = s.order[0]
    for t in sorted(s.players[p].hand)[:2]:
        s.apply(Action(RETURN, t))
    s.apply(DONE_ACTION)
    for t in sorted(s.players[s.order[1]].hand):
        s.apply(Action(RETURN, t))
    assert s.supply_known == 9 and s.phase == GROWTH
    # Every view names them, the next to be drawn first, the very bottom last.
    ids = [s.data.tiles[t].id for t in s.supply[:9]]
    assert [s.view(v)["supply_bottom"] for v in (0, 1, None)] == [ids[::-1]] * 3
    rng = random.Random(5)
    rests = set()
    for player in (0, 1, 0, 1, 0, 1):
        d = s.determinize(player, rng)
        assert d.supply[:9] == s.supply[:9] and d.supply_known == 9
        assert sorted(d.supply) == sorted(s.supply)
        rests.add(tuple(d.supply[9:]))
    assert len(rests) == 6  # the unknown order is dealt again each time
    # Drawn down into them, fewer are left to know: all of the supply.
    s.supply = s.supply[:11]
    s._draw(p, 4)
    assert s.supply_known == len(s.supply) == 7
    assert s.view(0)["supply_bottom"] == ids[:7][::-1]
    d = s.determinize(1, rng)
    assert d.supply == s.supply
    # Tiles put back at an age's refill are known the same way.
    later = random_game(seed=8, stop=100)
    assert later.age > 1 and later.supply_known > 0
    k = later.supply_known
    assert later.determinize(0, rng).supply[:k] == later.supply[:k]


@pytest.mark.rule("D-SET-6", "D-SET-4", "D-SET-1")
def test_random_initiative_and_starting_boards() -> None:
    firsts = set()
    for seed in range(12):
        s = new(players=3, seed=seed)
        firsts.add(s.order[0])
        for ps in s.players:
            assert ps.vp == 0 and ps.influence == 0 and ps.tokens == 15
            assert ps.limits() == [5] * 6
            assert len(ps.tree.cards) == 1  # the campfire
    assert firsts == {0, 1, 2}


# -- the flow of a game (D-FLOW, D-AGE-1) ----------------------------------------------------


@pytest.mark.rule("D-FLOW-1", "D-FLOW-2", "D-AGE-1", "D-END-4")
def test_three_ages_of_five_turns_in_initiative_order() -> None:
    s = new(players=3, seed=8)
    phases = []
    while s.phase != OVER:
        if (s.phase in (GROWTH, BUILD, DEVELOP) and not s.stack and s.turn_number == 1
                and (not phases or phases[-1] != s.phase)):
            phases.append(s.phase)
        step(s)
    assert phases == [GROWTH, BUILD, DEVELOP]
    turns = [e for e in s.events if e[0] == EV_TURN]
    assert len(turns) == 3 * TURNS_PER_AGE * 3
    assert all(ps.turns == 15 for ps in s.players)
    for age in (1, 2, 3):
        movers = [e[1] for e in turns if e[2] == age]
        assert movers[:3] * TURNS_PER_AGE == movers
        assert [e[3] for e in turns if e[2] == age] == [r for r in range(1, 6) for _ in "abc"]
    kinds = [e[0] for e in s.events if e[0] in (EV_AGE_END, EV_COPY, EV_INFLUENCE_VP, EV_ROLE)]
    first = kinds.index(EV_AGE_END)
    assert kinds[first + 1:].index(EV_INFLUENCE_VP) < kinds[first + 1:].index(EV_ROLE)
    out = s.outcome()
    assert out is not None
    best = sorted(range(3), key=lambda p: (-s.players[p].vp, s.order.index(p)))
    assert [out.ranks[p] for p in best] == [1, 2, 3]


@pytest.mark.rule("D-FLOW-4")
def test_once_per_turn_effects_come_once_in_each_own_turn() -> None:
    """Fishing (start of turn: +1 Craft) fires once per own turn, never in another's turn."""
    s = new(players=2, seed=9)
    p = s.mover
    grant(s, p, "C3a-1")
    gains = []
    for _ in range(6):
        before = s.players[p].knowledge[C]
        mover = s.mover
        s.apply(s.placements()[0])
        assign_all(s, "T")
        gains.append((mover, s.players[p].knowledge[C] - before))
        while s.phase in (BUILD, DEVELOP) or s.stack:
            step(s)
    assert [g for m, g in gains if m != p] == [0, 0, 0]


@pytest.mark.rule("D-SCORE-1", "D-VOC-4")
def test_scores_apply_at_once_and_are_unbounded() -> None:
    s = new(players=2, seed=10)
    p = s.mover
    s.players[p].influence = 75  # beyond the board's 50 track
    s.players[p].vp = 140
    s.players[p].vp_by[0] = 140
    while s.age == 1:
        step(s)
    assert s.players[p].vp >= 140 + 75  # influence VP at the end of the age, no wrap
    assert s.players[p].influence >= 75


# -- roles in the next age (D-AGE-7, D-AGE-8) ------------------------------------------------


@pytest.mark.rule("D-AGE-7", "D-AGE-9")
def test_the_governor_chooses_the_initiative_order_of_the_next_age() -> None:
    s = new(players=3, seed=11)
    p = s.order[2]
    end_age(s, {p: {G: 4}})
    assert s.age == 2 and s.phase == AGE_START and s.roles[G] == p
    assert s.stack[-1][0] == F_ORDER and s.current_player() == p
    assert s.phase_name == "initiative"
    legal = s.legal_actions()
    assert len(legal) == 6 and all(a.kind == ORDER for a in legal)
    with pytest.raises(ParseError, match="every player's number once"):
        s.parse_action("order 1 1 2")
    with pytest.raises(IllegalActionError, match="every player's number once"):
        do(s, "order 1 2")
    new_order = [p, *(q for q in s.order if q != p)][::-1]
    do(s, "order " + " ".join(str(q + 1) for q in new_order))
    assert s.order == new_order
    finish_age_start(s)
    assert s.mover == new_order[0] and s.phase in (GROWTH, BUILD)


@pytest.mark.rule("D-AGE-7")
def test_the_governor_is_worth_nothing_with_two_players_but_still_orders() -> None:
    s = new(players=2, seed=12)
    p = s.order[1]
    before = s.players[p].vp_by[VP_ROLES]
    end_age(s, {p: {G: 2}})
    assert s.roles[G] == p and s.players[p].vp_by[VP_ROLES] == before
    assert s.stack[-1][0] == F_ORDER and s.current_player() == p


@pytest.mark.rule("D-AGE-9", "D-AGE-7")
def test_keeping_tiles_refilling_to_seven_plus_the_high_priestess_and_a_mulligan() -> None:
    s = new(players=2, seed=13)
    p, q = s.order
    end_age(s, {q: {R: 3}})
    assert s.roles[R] == q and s.roles[G] == -1
    for player in (p, q):  # in initiative order: keep, draw, mulligan
        top = s.stack[-1]
        assert top[0] == F_TILES and top[2] == T_KEEP and s.current_player() == player
        left = sorted(s.players[player].hand)
        assert len(left) == 2  # 7 drawn, 5 placed
        do(s, f"return {s.data.tiles[left[0]].id}")
        assert s.supply[0] == left[0]
        do(s, "done")
        hand = s.players[player].hand
        assert left[1] in hand and left[0] not in hand
        assert len(hand) == HAND_SIZE + (2 if player == q else 0)
        top = s.stack[-1]
        assert top[0] == F_TILES and top[2] == T_MULLIGAN
        do(s, "done")
    assert s.phase in (GROWTH, BUILD) and s.age == 2


@pytest.mark.rule("D-AGE-7", "D-END-1")
def test_the_diplomat_gains_two_influence_in_ages_one_and_two_only() -> None:
    s = new(players=2, seed=14)
    p = s.order[1]
    before = s.players[p].influence
    end_age(s, {p: {A: 1}})
    assert s.roles[A] == p and s.players[p].influence == before + 2
    finish_age_start(s)
    end_age(s, {p: {A: 1}})
    assert s.players[p].influence == before + 4
    finish_age_start(s)
    roles_vp = s.players[p].vp_by[VP_ROLES]
    end_age(s, {p: {A: 1, T: 1, C: 1, S: 1, G: 1, R: 1}})
    assert s.phase == OVER and s.players[p].influence == before + 4
    assert s.players[p].vp_by[VP_ROLES] == roles_vp + 6 * 3  # every card 3 VP in age 3


@pytest.mark.rule("D-AGE-7", "D-AGE-8")
def test_the_merchant_doubles_settlements_for_the_next_age() -> None:
    s = new(players=2, seed=15)
    p = s.order[0]
    end_age(s, {p: {T: 2}})
    finish_age_start(s)
    assert s.roles[T] == p and s.mover == p

    def settlement(state: DominationsState) -> list[int]:
        """What settlements produce, by placement (tiles without one left out)."""
        return sorted({sum(y.amount for y in state.preview(a)
                           if y.source in (SETTLEMENT, SETTLEMENT_BONUS))
                       for a in state.placements()
                       if state.data.tiles[a.a].settlement is not None
                       and state.data.tiles[a.a].settlement >= 0})

    assert settlement(s) == [2]
    s.apply(s.placements()[0])
    while s.mover == p:
        step(s)
    assert settlement(s) == [1]  # the other player's tiles are not doubled
    q = s.mover
    end_age(s, {q: {T: 2}})  # dealt again: the card lasts one age (D-AGE-8)
    to_turn_of(s, p)
    assert settlement(s) == [1]
    to_turn_of(s, q)
    assert settlement(s) == [2]


@pytest.mark.rule("D-AGE-7", "D-AGE-8")
def test_the_inventor_reactivates_a_placed_tile_once_in_the_age() -> None:
    s = new(players=2, seed=16)
    q = s.order[1]
    assert not [a for a in s.legal_actions() if a.kind == REACTIVATE]
    end_age(s, {q: {S: 1}})
    to_turn_of(s, q)
    legal = s.legal_actions()
    again = [a for a in legal if a.kind == REACTIVATE]
    assert again and {a.a for a in again} <= set(s.board.tile)
    assert any(a.b >= 3 for a in again) or all(a.b < 3 for a in again)
    action = again[0]
    expected = reactivation_yields(s.board, action.a, action.b, q, s._bonuses())
    assert s.preview(action) == expected
    hand = list(s.players[q].hand)
    s.apply(action)
    assert s.players[q].hand == hand  # no tile leaves the hand
    assert s.role_used[S] and any(e[0] == EV_ROLE_BACK and e[2] == S for e in s.events)
    assert s.view(None)["roles"][S]["used"]
    while s.mover == q:
        step(s)
    to_turn_of(s, q)
    assert not [a for a in s.legal_actions() if a.kind == REACTIVATE]
    with pytest.raises(IllegalActionError, match="Inventor"):
        s.apply(action)


@pytest.mark.rule("D-AGE-7", "D-AGE-8")
def test_the_artisan_places_a_second_tile_once_in_the_age() -> None:
    s = new(players=2, seed=17)
    p = s.order[0]
    end_age(s, {p: {C: 1}})
    to_turn_of(s, p)
    s.apply(s.placements()[0])
    assign_all(s)
    while s.stack:
        step(s)
    assert s.phase == GROWTH and s.second and s.phase_name == "growth"
    legal = s.legal_actions()
    assert PASS_ACTION in legal and any(a.kind == PLACE for a in legal)
    do(s, "pass")  # declined: the card stays for a later turn
    assert s.phase == BUILD and not s.role_used[C]
    while s.mover == p:
        step(s)
    to_turn_of(s, p)
    hand = len(s.players[p].hand)
    s.apply(s.placements()[0])
    assign_all(s)
    while s.stack:
        step(s)
    assert s.second
    s.apply(s.placements()[0])
    assign_all(s)
    while s.stack:
        step(s)
    assert s.phase == BUILD and len(s.players[p].hand) == hand - 2 and s.role_used[C]
    while s.mover == p:
        step(s)
    to_turn_of(s, p)
    s.apply(s.placements()[0])
    assign_all(s)
    while s.stack:
        step(s)
    assert s.phase == BUILD  # used: no second tile any more


# -- end of the game (D-END) ---------------------------------------------------------------------


def play_out(s: DominationsState) -> None:
    while s.phase != OVER:
        step(s)


@pytest.mark.rule("D-END-2", "D-END-3", "D-END-4")
@pytest.mark.parametrize("scoring", ["auto", "per_goal", "ten_each"])
def test_objectives_are_scored_at_the_end(scoring: str) -> None:
    s = DominationsState.new(DominationsConfig(
        players=2, seed=18, objectives=("O09", "O05"),
        rules=Rules(objective_scoring=scoring)))
    skip_setup(s)
    play_out(s)
    table = "progressive" if scoring == "auto" else scoring
    for p, ps in enumerate(s.players):
        objective = s.data.objectives[s.objectives[p]]
        met = goals_met(objective, p, s.board, ps.tree, ps.influence, s.controlled(p))
        event = next(e for e in s.events if e[0] == EV_OBJECTIVE and e[1] == p)
        assert event[3] == met and event[4] == objective_vp(met, table)
        assert ps.vp_by[VP_OBJECTIVES] == event[4]
        assert ps.vp == sum(ps.vp_by)
    out = s.outcome()
    assert out is not None
    for p, breakdown in enumerate(out.extra["vp_breakdown"]):
        assert set(breakdown) == set(VP_SOURCES) and sum(breakdown.values()) == out.scores[p]
    assert out.extra["objectives"][0]["id"] == "O09"


@pytest.mark.rule("D-END-2")
def test_goals_met_score_progressively() -> None:
    assert [objective_vp([True] * n + [False] * (5 - n), "progressive")
            for n in range(6)] == [0, 10, 20, 40, 70, 100]
    assert Rules().objective_table == "progressive"


# -- the prototype variant (§14) -------------------------------------------------------------------


@pytest.mark.rule("D-SET-3", "D-SET-5")
def test_prototype_setup_has_no_monument_draft_and_three_mulligans() -> None:
    s = game(players=3, seed=19, rules=Rules(variant="prototype"))
    assert len(s.monuments) == 3
    whats = []
    while s.stack[-1][0] == F_CHOOSE:
        whats.append(s.stack[-1][2])
        s.apply(s.legal_actions()[0])
    assert whats == [0, 0, 0]  # objectives only
    p = s.current_player()
    assert s.stack[-1][2] == T_MULLIGAN_ALL
    assert s.legal_actions() == [DONE_ACTION, Action(MULLIGAN)]
    sizes = []
    for _ in range(3):
        old = set(s.players[p].hand)
        do(s, "mulligan")
        sizes.append(len(s.players[p].hand))
        assert not old & set(s.players[p].hand)
    assert sizes == [7, 6, 5] and s.current_player() != p  # no fourth


@pytest.mark.rule("D-AGE-9")
def test_prototype_later_ages_keep_all_or_return_all() -> None:
    s = DominationsState.new(DominationsConfig(players=2, seed=20,
                                               rules=Rules(variant="prototype")))
    skip_setup(s)
    p, q = s.order
    end_age(s, {})
    top = s.stack[-1]
    assert top[0] == F_TILES and top[2] == T_KEEP_ALL
    assert s.legal_actions() == [DONE_ACTION, Action(RETURN_ALL)]
    old = set(s.players[p].hand)
    do(s, "return all")
    assert len(s.players[p].hand) == HAND_SIZE and not old & set(s.players[p].hand)
    do(s, "done")  # no mulligan
    kept = set(s.players[q].hand)
    do(s, "done")  # q keeps last age's tiles and draws fewer
    assert kept <= set(s.players[q].hand) and len(s.players[q].hand) == HAND_SIZE


@pytest.mark.rule("D-END-2")
def test_prototype_final_tree_scoring_and_value_three_upgrades() -> None:
    s = DominationsState.new(DominationsConfig(players=2, seed=21,
                                               rules=Rules(variant="prototype")))
    skip_setup(s)
    assert s.upgrade_vp(s.catalog.skill_index["T3A"]) == 0
    assert s.upgrade_vp(s.catalog.skill_index["T6A"]) == s.catalog.skills[
        s.catalog.skill_index["T6A"]].vp_upgrade
    play_out(s)
    for ps in s.players:
        assert ps.vp_by[VP_TREE] == tree_score(ps.tree)
        counts = ps.tree.nodi_counts()
        cards = [0] * 6
        for _, card in ps.tree.mastery_cards():
            cards[card.domain or 0] += 3 if card.advanced else 1
        assert tree_score(ps.tree) == sum(cards[d] * counts[d] for d in range(6))
    retail = new(players=2, seed=21)
    assert retail.upgrade_vp(retail.catalog.skill_index["T3A"]) == 1


def test_pass_is_not_an_answer_to_setup_questions() -> None:
    s = game(players=2, seed=22)
    with pytest.raises(IllegalActionError):
        s.apply(PASS_ACTION)
    assert s.phase == SETUP and PASS not in {a.kind for a in s.legal_actions()}


class _StubTree:
    """Just what the prototype's tree scoring reads."""

    def __init__(self, cards: list[tuple[int, bool]], nodi: list[int]) -> None:
        self._cards = cards
        self._nodi = nodi

    def mastery_cards(self) -> list[tuple[tuple[int, int], object]]:
        from types import SimpleNamespace

        return [((i, 1), SimpleNamespace(domain=d, advanced=adv))
                for i, (d, adv) in enumerate(self._cards)]

    def nodi_counts(self) -> list[int]:
        return self._nodi


@pytest.mark.rule("D-END-2")
def test_prototype_tree_scoring_follows_the_rulebook_example() -> None:
    """FR prototype rulebook: 5 nodi of a colour and 8 cards of its domain score 5 × 8 = 40;
    an advanced card counts 3."""
    eight = [(R, False)] * 8
    assert tree_score(_StubTree(eight, [0, 0, 0, 0, 0, 5, 0])) == 40  # type: ignore[arg-type]
    mixed = [(R, True), (R, False), (T, False)]
    assert tree_score(_StubTree(mixed, [2, 0, 0, 0, 0, 5, 3])) == 4 * 5 + 1 * 2  # type: ignore[arg-type]
