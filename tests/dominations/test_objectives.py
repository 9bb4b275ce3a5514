"""Objective cards at game end: which goals are met and what they score (D-END-2, D-END-3)."""

from __future__ import annotations

import pytest

from dominari.dominations.board import LAND, Board
from dominari.dominations.data import CardRequirement, Goal, ObjectiveDef, default_data
from dominari.dominations.grid import CRADLE_CELLS, Cell
from dominari.dominations.objectives import (
    GOAL_KINDS,
    PER_GOAL_VP,
    PROGRESSIVE_VP,
    SCORINGS,
    describe_goal,
    goal_gains,
    goal_met,
    goal_progress,
    goals_met,
    goals_progress,
    objective_vp,
)
from dominari.dominations.tree import DIRECTIONS, Tree

T, C, A, S, G, R = range(6)
DATA = default_data()
ME, YOU = 0, 1


# ------------------------------------------------------------------ set-up helpers
def board() -> Board:
    return Board.with_cradle(DATA.cradle)


def city(b: Board, x: int, y: int, player: int = ME, level: int = 1) -> None:
    """A land tile with a settlement on ``x,y`` and a city of ``player`` at ``level``."""
    key = Cell(x, y).key
    if not b.is_filled(key):
        b.fill(key, LAND, (T, T, T), T, tile=0)
    b.build_city(key, player)
    for _ in range(level - 1):
        b.upgrade_city(key)


def row(b: Board, y: int, xs: range, player: int = ME, level: int = 1) -> None:
    """Cities on consecutive cells of a row: each is side-adjacent to the next."""
    for x in xs:
        city(b, x, y, player, level)


def arm(tree: Tree, direction: int, colour: int, n: int) -> None:
    """``n`` cards whose four halves are all ``colour``, in a straight line from the campfire
    (``direction`` as :data:`DIRECTIONS`): ``n`` nodi of that colour. Four arms never touch."""
    dc, dr = DIRECTIONS[direction]
    for k in range(1, n + 1):
        tree.place((dc * k, dr * k), f"{colour}-{direction}-{k}", (colour,) * 4)


def cards_tree(*cards: tuple[int, int], advanced: int = 0) -> Tree:
    """A tree of mastery cards ``(domain, value)`` in a row right of the campfire (Trade halves
    everywhere, so every placement is legal); the first ``advanced`` are turned over."""
    tree = Tree()
    for k, (domain, value) in enumerate(cards, start=1):
        tree.place((k, 0), f"card-{k}", (T, T, T, T), domain=domain, value=value)
        if k <= advanced:
            tree.upgrade((k, 0))
    return tree


def progress(goal: Goal, b: Board | None = None, tree: Tree | None = None, influence: int = 0,
             controlled: int = 0) -> tuple[int, int]:  # fmt: skip
    """``goal_progress`` for ME, checked against ``goal_met`` (met iff have >= need)."""
    b = board() if b is None else b
    tree = Tree() if tree is None else tree
    have, need = goal_progress(goal, ME, b, tree, influence, controlled)
    assert goal_met(goal, ME, b, tree, influence, controlled) is (have >= need)
    return have, need


def met(goal: Goal, b: Board | None = None, tree: Tree | None = None, influence: int = 0,
        controlled: int = 0) -> bool:  # fmt: skip
    have, need = progress(goal, b, tree, influence, controlled)
    return have >= need


def levels(*pairs: tuple[int, int]) -> Goal:
    return Goal("cities_of_levels", levels=pairs)


# ------------------------------------------------------------------ cities of levels
@pytest.mark.rule("D-END-3")
def test_cities_of_levels_counts_higher_cities_for_lower_requirements() -> None:
    """D-END-3: cities of levels — N cities of at least level L; a higher city counts for a
    lower requirement; N-1 cities do not do."""
    goal = levels((1, 5))
    b = board()
    row(b, 3, range(0, 4))
    assert progress(goal, b) == (4, 5)
    city(b, 10, 3, level=3)  # a level-3 city fills a level-1+ requirement
    assert progress(goal, b) == (5, 5)
    goal2 = levels((2, 2))
    assert progress(goal2, b) == (1, 2)
    city(b, 12, 3, level=2)
    assert progress(goal2, b) == (2, 2)


@pytest.mark.rule("D-END-3")
def test_cities_of_levels_one_city_fills_one_requirement() -> None:
    """D-END-3: 5 cities of level ≥1 and 1 of level ≥2 need 6 cities, at least one of level ≥2;
    one city never fills two requirements."""
    goal = levels((1, 5), (2, 1))
    b = board()
    row(b, 3, range(0, 4))
    city(b, 10, 3, level=2)
    assert progress(goal, b) == (5, 6)  # 5 cities: the level-2 one cannot count twice
    city(b, 12, 3)
    assert progress(goal, b) == (6, 6)

    all_level_one = board()
    row(all_level_one, 3, range(0, 6))
    assert progress(goal, all_level_one) == (5, 6)  # 6 cities, none of level 2

    two_high = board()
    row(two_high, 3, range(0, 4))
    row(two_high, 5, range(0, 2), level=3)
    assert met(goal, two_high)  # 4 × L1 + 2 × L3


@pytest.mark.rule("D-END-3")
def test_cities_of_levels_assigns_optimally_whatever_the_order() -> None:
    """D-END-3: the cities are assigned to the requirements in the best way: a level-1+
    requirement listed first does not take the only level-3 city."""
    b = board()
    city(b, 0, 3, level=3)
    city(b, 4, 3, level=1)
    assert progress(levels((1, 1), (3, 1)), b) == (2, 2)
    assert progress(levels((3, 1), (1, 1)), b) == (2, 2)
    assert progress(levels((3, 2)), b) == (1, 2)
    # Inca's last goal (2:3, 3:2): two level-3 cities and two level-2 cities are 4 of 5.
    inca = levels((2, 3), (3, 2))
    b2 = board()
    row(b2, 3, range(0, 2), level=3)
    row(b2, 5, range(0, 2), level=2)
    city(b2, 8, 5)  # a level-1 city helps nothing
    assert progress(inca, b2) == (4, 5)
    city(b2, 10, 5, level=3)
    assert progress(inca, b2) == (5, 5)


@pytest.mark.rule("D-END-3")
def test_cities_of_levels_counts_only_the_players_cities() -> None:
    """D-END-3: only your own cities count for your goals."""
    b = board()
    row(b, 3, range(0, 5), player=YOU, level=3)
    assert progress(levels((1, 1)), b) == (0, 1)
    assert goal_met(levels((1, 5)), YOU, b, Tree(), 0, 0)


# ------------------------------------------------------------------ adjacent cities, groups
@pytest.mark.rule("D-END-3", "D-ADJ-1", "D-ADJ-2")
def test_adjacent_cities_eight_and_three_are_not_eleven() -> None:
    """D-END-3 (rulebook example): two separate groups of 8 and 3 cities are two groups, not
    one of 11; the largest group is 8."""
    b = board()
    row(b, 3, range(0, 8))  # 8 cities in a chain
    city(b, 8, 3, player=YOU)  # another player's city between them connects nothing
    row(b, 3, range(9, 12))  # 3 more
    assert progress(Goal("adjacent_cities", count=11), b) == (8, 11)
    assert not met(Goal("adjacent_cities", count=9), b)
    assert met(Goal("adjacent_cities", count=8), b)
    assert progress(Goal("city_groups", count=2), b) == (2, 2)
    assert not met(Goal("city_groups", count=3), b)


@pytest.mark.rule("D-END-3", "D-ADJ-1")
def test_adjacent_cities_boundary_and_corner_contact() -> None:
    """D-END-3, D-ADJ-1: a group of N-1 does not meet "N adjacent", N does; cities whose tiles
    touch only at a corner are not adjacent (two groups); a shared side joins them."""
    goal = Goal("adjacent_cities", count=4)
    b = board()
    row(b, 3, range(0, 3))
    assert progress(goal, b) == (3, 4)
    city(b, 0, 4)  # 0,4 (▽) touches 0,3 (△) only at the vertex @0,4
    assert progress(goal, b) == (3, 4)
    assert progress(Goal("city_groups", count=2), b) == (2, 2)
    city(b, 1, 4)  # 1,4 shares a side with 0,4 and with 1,3: one group of 5
    assert progress(goal, b) == (5, 4)
    assert progress(Goal("city_groups", count=2), b) == (1, 2)


@pytest.mark.rule("D-END-3")
def test_no_city_no_group() -> None:
    """D-END-3: the cradle has no cities; a board with only the cradle (or only other players'
    cities) has no group at all."""
    b = board()
    for cell in CRADLE_CELLS:
        with pytest.raises(ValueError):
            b.build_city(cell.key, ME)
    city(b, 5, 5, player=YOU)
    assert progress(Goal("adjacent_cities", count=1), b) == (0, 1)
    assert progress(Goal("city_groups", count=1), b) == (0, 1)


@pytest.mark.rule("D-END-3", "D-ADJ-2")
def test_city_groups_counts_maximal_groups() -> None:
    """D-END-3: non-adjacent cities — each maximal group of adjacent cities counts once;
    N-1 groups do not meet N."""
    goal = Goal("city_groups", count=4)
    b = board()
    for y in (3, 6, 9):
        row(b, y, range(0, 3))  # three groups of 3
    assert progress(goal, b) == (3, 4)
    city(b, 20, 3)
    assert progress(goal, b) == (4, 4)
    city(b, 19, 3)  # joins the lone city: still 4 groups
    assert progress(goal, b) == (4, 4)
    city(b, 3, 3)  # extends the first row: still 4
    assert progress(goal, b) == (4, 4)


# ------------------------------------------------------------------ monuments, influence
@pytest.mark.rule("D-END-3")
def test_monuments_and_influence_boundaries() -> None:
    """D-END-3: control at least N monuments; at least N influence (N-1 is not enough)."""
    mo = Goal("monuments", count=2)
    assert progress(mo, controlled=1) == (1, 2)
    assert met(mo, controlled=2) and met(mo, controlled=3)
    inf = Goal("influence", count=35)
    assert progress(inf, influence=34) == (34, 35)
    assert met(inf, influence=35) and met(inf, influence=40)


# ------------------------------------------------------------------ nodi
@pytest.mark.rule("D-END-3")
def test_nodi_each_listed_colour() -> None:
    """D-END-3: nodi — at least N complete nodi of each listed colour; surplus in one colour
    makes up for nothing in another."""
    goal = Goal("nodi", nodi=((T, 8), (G, 5), (S, 3)))
    tree = Tree()
    arm(tree, 1, T, 10)  # right: 10 Trade nodi
    arm(tree, 0, G, 5)  # up: 5 Government
    arm(tree, 2, S, 2)  # down: 2 Science
    arm(tree, 3, R, 4)  # left: 4 Religion (not listed)
    assert tree.nodi_counts()[:6] == [10, 0, 0, 2, 5, 4]
    assert progress(goal, tree=tree) == (15, 16)
    tree.place((0, -3), "S-2-3", (S, S, S, S))
    assert progress(goal, tree=tree) == (16, 16)
    assert progress(Goal("nodi", nodi=((R, 4),)), tree=tree) == (4, 4)
    assert progress(Goal("nodi", nodi=((R, 5),)), tree=tree) == (4, 5)
    assert progress(Goal("nodi", nodi=((C, 1),)), tree=tree) == (0, 1)


# ------------------------------------------------------------------ mastery cards
@pytest.mark.rule("D-END-3")
def test_mastery_cards_value_and_domain() -> None:
    """D-END-3: mastery cards — at least N cards of exactly that value whose domain is listed;
    upgraded cards count; another value or domain does not."""
    goal = Goal("mastery_cards", cards=(CardRequirement(2, 9, (C, R)),))
    assert progress(goal, tree=cards_tree((C, 9), (T, 9), (R, 6), (C, 6))) == (1, 2)
    assert progress(goal, tree=cards_tree((C, 9), (R, 9), advanced=2)) == (2, 2)
    assert progress(goal, tree=cards_tree((C, 9), (C, 9), (T, 3))) == (2, 2)


@pytest.mark.rule("D-END-3")
def test_mastery_cards_ignore_level_cards_and_campfire() -> None:
    """D-END-3: monument level cards and the campfire are not mastery cards."""
    goal = Goal("mastery_cards", cards=(CardRequirement(1, 9, (T,)),))
    tree = Tree()
    # A level card, even one carrying a value, is not a mastery card.
    tree.place((1, 0), "M01-L1", (T, T, T, T), level_card=True, domain=T, value=9)
    assert progress(goal, tree=tree) == (0, 1)
    tree.place((2, 0), "T9a-1", (T, T, T, T), domain=T, value=9)
    assert progress(goal, tree=tree) == (1, 1)


@pytest.mark.rule("D-END-3")
def test_mastery_cards_joined_requirements_take_different_cards() -> None:
    """D-END-3: requirements joined with "+" are met by different cards, assigned in the best
    way (a card that fits both goes where it is needed)."""
    mali = Goal("mastery_cards", cards=(CardRequirement(4, 6, (T, S)),
                                        CardRequirement(3, 9, (T, G))))  # fmt: skip
    tree = cards_tree((T, 6), (S, 6), (S, 6), (T, 9), (G, 9), (T, 9))
    assert progress(mali, tree=tree) == (6, 7)
    tree.place((7, 0), "A6", (T, T, T, T), domain=A, value=6)  # Art: not listed
    assert progress(mali, tree=tree) == (6, 7)
    tree.place((8, 0), "T6", (T, T, T, T), domain=T, value=6)
    assert progress(mali, tree=tree) == (7, 7)

    # Same value twice: {T, S} listed first must not take the only Trade card.
    same = Goal("mastery_cards", cards=(CardRequirement(1, 6, (T, S)),
                                        CardRequirement(1, 6, (T,))))  # fmt: skip
    assert progress(same, tree=cards_tree((T, 6), (S, 6))) == (2, 2)
    assert progress(same, tree=cards_tree((S, 6), (S, 6))) == (1, 2)
    assert progress(same, tree=cards_tree((T, 6))) == (1, 2)  # one card, one requirement
    assert progress(same, tree=cards_tree((T, 6), (T, 6))) == (2, 2)


@pytest.mark.rule("D-END-3")
def test_mastery_cards_filled_whatever_the_trees_order() -> None:
    """D-END-3: which cards fill which requirement is chosen in the best way, so the order of
    the cards in the tree changes nothing."""
    mali = DATA.objectives[15].goals[4]
    cards = [(T, 6), (S, 6), (T, 9), (G, 9), (A, 6), (T, 9), (S, 6)]
    seen = {progress(mali, tree=cards_tree(*order))
            for order in (cards, cards[::-1], cards[3:] + cards[:3], sorted(cards))}
    assert seen == {(6, 7)}


@pytest.mark.rule("D-END-3")
def test_a_cards_goals_together_are_each_goal_alone() -> None:
    """D-END-3: the progress of many goals read at once (the cities, groups and cards read once
    for all) is each goal's own, for both players, as cities and cards are added."""
    goals = [g for o in DATA.objectives for g in o.goals] + [
        levels((1, 2), (3, 1)), Goal("adjacent_cities", count=3),
        Goal("city_groups", count=2)]  # fmt: skip
    b = board()
    tree = cards_tree((T, 6), (S, 9), (G, 9), (R, 6))
    arm(tree, 2, R, 2)
    seen = set()
    for step in range(4):
        if step == 1:
            row(b, 3, range(0, 3))
            city(b, 6, 3, level=2)
        elif step == 2:
            row(b, 5, range(0, 2), player=YOU, level=3)
            city(b, 8, 3, level=3)
        elif step == 3:
            tree.place((5, 0), "C9", (T, T, T, T), domain=C, value=9)
        for player, influence, controlled in ((ME, 31, 2), (YOU, 4, 0)):
            together = goals_progress(goals, player, b, tree, influence, controlled)
            alone = [goal_progress(g, player, b, tree, influence, controlled) for g in goals]
            assert together == alone
            seen.add(tuple(together))
    assert len(seen) >= 5  # the positions differ, and so does their progress


# ------------------------------------------------------------------ goals_met, scoring
@pytest.mark.rule("D-END-2")
def test_progressive_scoring_table() -> None:
    """D-END-2: 0–5 goals met score 0/10/20/40/70/100 VP, whichever goals they are."""
    for k, vp in enumerate((0, 10, 20, 40, 70, 100)):
        assert objective_vp([True] * k + [False] * (5 - k), "progressive") == vp
        assert objective_vp([False] * (5 - k) + [True] * k) == vp  # default scoring
    assert PROGRESSIVE_VP == (0, 10, 20, 40, 70, 100)


@pytest.mark.rule("D-END-2")
def test_per_goal_and_ten_each_scoring() -> None:
    """D-END-2 (rule option ``per_goal`` = 15/15/20/15/15 by goal) and the prototype's flat
    10 VP per goal met (rules §14)."""
    assert PER_GOAL_VP == (15, 15, 20, 15, 15)
    for i, vp in enumerate(PER_GOAL_VP):
        one = [j == i for j in range(5)]
        assert objective_vp(one, "per_goal") == vp
        assert objective_vp(one, "ten_each") == 10
    for k in range(6):
        first = [True] * k + [False] * (5 - k)
        assert objective_vp(first, "per_goal") == sum(PER_GOAL_VP[:k])
        assert objective_vp(first, "ten_each") == 10 * k
    assert objective_vp([True] * 5, "per_goal") == 80
    with pytest.raises(ValueError, match="unknown objective scoring"):
        objective_vp([True], "flat")
    with pytest.raises(ValueError, match="at most 5 goals"):
        objective_vp([True] * 6, "progressive")


@pytest.mark.rule("D-END-2")
@pytest.mark.parametrize("scoring", SCORINGS)
def test_goal_gains_are_what_meeting_one_more_goal_adds(scoring: str) -> None:
    """D-END-2: for every mix of goals met, a goal's gain is the objective's VP with it met
    too, less the VP now; 0 for a goal already met (the search's outlook on objectives)."""
    for mask in range(32):
        met = [bool(mask >> i & 1) for i in range(5)]
        now = objective_vp(met, scoring)
        gains = goal_gains(met, scoring)
        for i, gain in enumerate(gains):
            more = [m or j == i for j, m in enumerate(met)]
            assert gain == objective_vp(more, scoring) - now
            assert (gain == 0) == met[i]
    assert goal_gains([True, True, False], "progressive") == (0, 0, 20)  # 20 -> 40
    with pytest.raises(ValueError, match="unknown objective scoring"):
        goal_gains([False], "flat")


@pytest.mark.rule("D-END-2", "D-END-3")
def test_a_whole_card() -> None:
    """D-END-2, D-END-3: Egypt (MO 1, NO{R4}, CL{1:4,2:1}, MO 2, MC 2×9{C,R}) with one
    monument, 4 Religion nodi and 4 cities (one of level 2): goals 1 and 2 met, 20 VP; a fifth
    city meets goal 3, 40 VP."""
    egypt = DATA.objectives[0]
    assert egypt.id == "O01"
    b = board()
    row(b, 3, range(0, 3))
    city(b, 6, 3, level=2)
    tree = Tree()
    arm(tree, 0, R, 4)
    assert goals_met(egypt, ME, b, tree, 0, 1) == (True, True, False, False, False)
    assert objective_vp(goals_met(egypt, ME, b, tree, 0, 1)) == 20
    city(b, 8, 3)
    now = goals_met(egypt, ME, b, tree, 0, 1)
    assert now == (True, True, True, False, False)
    vps = [objective_vp(now, scoring) for scoring in ("progressive", "per_goal", "ten_each")]
    assert vps == [40, 50, 30]
    assert goals_met(egypt, YOU, b, tree, 0, 0) == (False, True, False, False, False)


@pytest.mark.rule("D-END-2", "D-END-3")
def test_every_default_objective_on_an_empty_game() -> None:
    """D-END-2, D-END-3: every objective card of the data evaluates on an empty board and tree:
    no goal met, 0 VP in every scoring; every goal has a description."""
    b, tree = board(), Tree()
    assert len(DATA.objectives) == 16
    for obj in DATA.objectives:
        assert len(obj.goals) == 5
        result = goals_met(obj, ME, b, tree, 0, 0)
        assert result == (False,) * 5, obj.id
        for scoring in SCORINGS:
            assert objective_vp(result, scoring) == 0
        for goal in obj.goals:
            assert goal.kind in GOAL_KINDS
            have, need = goal_progress(goal, ME, b, tree, 0, 0)
            assert have == 0 and need > 0, (obj.id, goal)
            assert describe_goal(goal)


@pytest.mark.rule("D-END-3")
def test_descriptions() -> None:
    """D-END-3: the short texts of each goal kind."""
    assert describe_goal(Goal("adjacent_cities", count=7)) == "a group of 7 adjacent cities"
    assert describe_goal(Goal("city_groups", count=5)) == "5 separate groups of cities"
    assert describe_goal(Goal("nodi", nodi=((R, 4),))) == "4 Religion nodi"
    assert describe_goal(Goal("nodi", nodi=((R, 3), (C, 2)))) == "3 Religion and 2 Craft nodi"
    assert describe_goal(levels((1, 5), (2, 1))) == "5 cities of level 1+ and 1 of level 2+"
    three = "3 cities of level 1+, 3 of level 2+ and 1 of level 3+"
    assert describe_goal(levels((1, 3), (2, 3), (3, 1))) == three
    assert describe_goal(levels((3, 1))) == "1 city of level 3+"
    assert describe_goal(Goal("influence", count=35)) == "influence 35"
    assert describe_goal(Goal("monuments", count=2)) == "control 2 monuments"
    assert describe_goal(Goal("monuments", count=1)) == "control 1 monument"
    mc = Goal("mastery_cards", cards=(CardRequirement(2, 9, (C, R)),))
    assert describe_goal(mc) == "2 mastery cards of value 9 in Craft or Religion"
    mali = DATA.objectives[15].goals[4]
    text = "4 mastery cards of value 6 in Trade or Science and 3 of value 9 in Trade or Government"
    assert describe_goal(mali) == text


@pytest.mark.rule("D-END-3")
def test_unknown_goal_kind() -> None:
    """D-END-3: a goal kind outside the list is an error, not a silent miss."""
    odd = Goal("wonders", count=1)
    with pytest.raises(ValueError, match="unknown goal kind"):
        goal_met(odd, ME, board(), Tree(), 0, 0)
    with pytest.raises(ValueError, match="unknown goal kind"):
        describe_goal(odd)
    card = ObjectiveDef("Z", 0, "Z", None, (odd,), DATA.objectives[0].prov)
    with pytest.raises(ValueError):
        goals_met(card, ME, board(), Tree(), 0, 0)
