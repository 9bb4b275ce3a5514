"""The develop phase through the engine: acquiring and upgrading mastery cards (D-DEV), the
pending-decision stack (effect order, gained vestigium) and the card notation."""

from __future__ import annotations

import pytest

from dominari.core.errors import IllegalActionError, ParseError
from dominari.dominations.engine import (
    DEVELOP,
    EV_EFFECT,
    F_EFFECTS,
    F_GAIN,
    GROWTH,
    VP_MASTERY,
)
from dominari.dominations.notation import (
    ACQUIRE,
    ADVANCE,
    EXCHANGE,
    PASS,
    RESOLVE,
    Action,
)

from .helpers import (
    A,
    C,
    G,
    S,
    T,
    do,
    grant,
    new,
    other_turn,
    pass_turns,
    role_influence,
    to_age_end,
    to_develop,
)


@pytest.mark.rule("D-DEV-1", "D-DEV-2")
def test_acquire_pays_its_domain_takes_the_copy_and_ends_the_turn() -> None:
    s = new(seed=1)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge = [0, 4, 0, 0, 0, 0]
    kinds = {a.kind for a in s.legal_actions()}
    assert kinds <= {ACQUIRE, ADVANCE, PASS, EXCHANGE} and ACQUIRE in kinds
    # Craft 3s are affordable, nothing of another domain or of value 6
    cat = s.catalog
    offered = {cat.skills[cat.copy_skill[a.a]].id for a in s.legal_actions() if a.kind == ACQUIRE}
    assert offered == {"C3a", "C3b", "C3c", "C3d"}
    do(s, "acquire C3c-2 0,-1")
    assert ps.knowledge[C] == 1 + 2  # paid 3, and Mining's own Craft nodus gave 2 (D-DEV-6)
    assert ps.tree.cards[(0, -1)].id == "C3c-2"
    assert s.taken[cat.copy_code["C3c-2"]] == p
    assert s.phase == GROWTH and s.mover != p  # one develop action, then the turn ends
    # the copy is gone from the supply, the other copies remain for others
    q = s.mover
    to_develop(s)
    s.players[q].knowledge[C] = 3
    with pytest.raises(IllegalActionError, match="already in P"):
        do(s, "acquire C3c-2 0,-1")
    do(s, "acquire C3c-1 -1,0")
    assert s.players[q].tree.cards[(-1, 0)].id == "C3c-1"


@pytest.mark.rule("D-DEV-3")
def test_a_nine_needs_its_prerequisite() -> None:
    """Mercantilism (T9d) needs a Science card of value 3 or more in the tree first."""
    s = new(seed=2)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.city_limit[T] = 20
    ps.knowledge[T] = 12
    cat = s.catalog
    t9d = cat.skill_index["T9D"]
    assert not [a for a in s.legal_actions()
                if a.kind == ACQUIRE and cat.copy_skill[a.a] == t9d]
    with pytest.raises(IllegalActionError, match="needs a Science mastery card of value 3"):
        do(s, "acquire T9d-1 0,-1")
    assert ps.knowledge[T] == 12 and s.taken[cat.copy_code["T9d-1"]] < 0
    grant(s, p, "S3a-1")
    legal = [a for a in s.legal_actions() if a.kind == ACQUIRE and cat.copy_skill[a.a] == t9d]
    assert legal
    s.apply(legal[0])
    assert ps.knowledge[T] == 3 and ps.vp_by[VP_MASTERY] == 4  # a 9 gives 4 VP on acquiring


@pytest.mark.rule("D-DEV-4")
def test_one_copy_of_each_skill() -> None:
    s = new(seed=3)
    p = s.mover
    grant(s, p, "A3a-1")
    to_develop(s)
    s.players[p].knowledge[A] = 5
    cat = s.catalog
    assert not [a for a in s.legal_actions()
                if a.kind == ACQUIRE and cat.skills[cat.copy_skill[a.a]].id == "A3a"]
    with pytest.raises(IllegalActionError, match="at most one copy of each skill"):
        do(s, "acquire A3a-2 0,-1")


@pytest.mark.rule("D-DEV-7")
def test_an_illegal_position_is_refused_and_changes_nothing() -> None:
    s = new(seed=4)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[T] = 3
    # Caravans T3a-4 has a corruptio on its left: it cannot lie right of the campfire
    with pytest.raises(IllegalActionError, match="corruptio never joins"):
        do(s, "acquire T3a-4 1,0")
    with pytest.raises(IllegalActionError, match="touches no side"):
        do(s, "acquire T3a-4 3,3")
    assert ps.knowledge[T] == 3 and len(ps.tree) == 1 and s.phase == DEVELOP
    assert s.taken[s.catalog.copy_code["T3a-4"]] < 0


@pytest.mark.rule("D-DEV-7")
def test_a_card_without_a_legal_position_cannot_be_taken() -> None:
    """A copy whose four halves are corruptio or vestigium facing only vestigia is never
    offered: here every campfire side is already used, so nothing fits."""
    s = new(seed=5)
    p = s.mover
    ps = s.players[p]
    to_develop(s)
    ps.knowledge[C] = 3
    # fill the campfire's four sides with cards whose outer halves are all corruptio
    tree = ps.tree
    for k, (pos, sides) in enumerate((((0, 1), (7, 7, 0, 7)), ((1, 0), (7, 7, 7, 0)),
                                      ((0, -1), (0, 7, 7, 7)), ((-1, 0), (7, 0, 7, 7)))):
        # a wall: Trade faces the campfire, corruptio outside
        tree.place(pos, f"M02-L{k + 1}", sides, level_card=True)
    assert not [a for a in s.legal_actions() if a.kind == ACQUIRE]


@pytest.mark.rule("D-DEV-5", "D-DEV-6")
def test_upgrade_turns_the_card_and_its_side_acts() -> None:
    """Fishing (T1): 1 Craft at the start of each turn, 2 once upgraded; upgrading a 3 costs
    2 of its domain and gives 1 VP."""
    s = new(seed=6)
    p = s.mover
    ps = s.players[p]
    grant(s, p, "C3a-1")
    other = 1 - p
    to_develop(s)
    do(s, "pass")
    other_turn(s)
    assert s.mover == p and ps.knowledge[C] >= 1  # the start of turn gave 1 Craft
    ps.knowledge[C] = 2
    to_develop(s)
    ps.knowledge[C] = 2
    do(s, "upgrade C3a")
    assert ps.knowledge[C] == 0 and ps.vp_by[VP_MASTERY] == 1
    assert ps.tree.cards[ps.tree.position_of("C3a-1")].advanced  # type: ignore[index]
    assert s.mover == other
    other_turn(s)
    assert ps.knowledge[C] == 2  # now 2 at the start of the turn
    to_develop(s)
    with pytest.raises(IllegalActionError, match="already on its advanced side"):
        do(s, "upgrade C3a")
    with pytest.raises(IllegalActionError, match="no Painting card"):
        do(s, "upgrade A3a")


@pytest.mark.rule("D-FLOW-5")
def test_simultaneous_effects_whose_order_matters_are_ordered_by_their_owner() -> None:
    """Diplomacy (influence per colour) and Epic Poetry (VP per 3 influence) both at the end of
    the age: resolving Diplomacy first can give more VP, so the owner chooses."""
    results = {}
    for first in ("A9c", "A9d"):
        s = new(seed=7)
        p = s.order[0]
        ps = s.players[p]
        grant(s, p, "A9c-2", (0, 1))     # Diplomacy
        grant(s, p, "A9d-1", (0, -1))    # Epic Poetry
        ps.influence = 5
        colours = ps.tree.colours()
        assert colours >= 1
        while not (s.stack and s.stack[-1][0] == F_EFFECTS and s.current_player() == p):
            s.apply(next(a for a in s.legal_actions() if a.kind != EXCHANGE)
                    if s.phase not in (2, 3) or s.stack else s.parse_action("pass"))
        assert s.phase_name == "order effects" and s.age == 1
        assert {s.format_action(a) for a in s.legal_actions()} == {"resolve A9c", "resolve A9d"}
        before = ps.vp_by[VP_MASTERY]
        do(s, f"resolve {first}")
        results[first] = (ps.vp_by[VP_MASTERY] - before, ps.influence)
        assert ps.influence - role_influence(s, p) == 5 + colours
    assert results["A9c"][0] == (5 + colours) // 3 and results["A9d"][0] == 5 // 3


@pytest.mark.rule("D-FLOW-5")
def test_effects_whose_order_cannot_matter_resolve_without_asking() -> None:
    s = new(seed=8)
    p = s.mover
    grant(s, p, "C3a-1")   # Fishing: 1 Craft at the start of the turn
    grant(s, p, "T3a-1")   # Caravans: 1 Trade at the start of the turn
    to_develop(s)
    do(s, "pass")
    other_turn(s)
    assert s.mover == p and s.phase == GROWTH and not s.stack
    fired = [e for e in s.events if e[0] == EV_EFFECT and e[1] == p]
    assert len(fired) == 2


@pytest.mark.rule("D-VOC-1")
def test_gained_vestigium_is_split_by_its_receiver_one_unit_at_a_time() -> None:
    """Mercantilism: 2 vestigium at the start of your turn, split as you like."""
    s = new(seed=9)
    p = s.mover
    ps = s.players[p]
    grant(s, p, "S3a-1")
    grant(s, p, "T9d-1")
    to_develop(s)
    do(s, "pass")
    other_turn(s)
    assert s.mover == p and s.stack and s.stack[-1][0] == F_GAIN
    assert s.phase_name == "vestigium" and s.current_player() == p
    ps.knowledge = [0] * 6
    before = ps.knowledge.copy()
    assert {a.a for a in s.legal_actions() if a.kind == 1} == set(range(6))
    do(s, "vestigium G")
    assert s.stack and s.stack[-1][2] == 1
    do(s, "vestigium S")
    assert not s.stack and s.phase == GROWTH
    assert ps.knowledge[G] == before[G] + 1 and ps.knowledge[S] == before[S] + 1


@pytest.mark.rule("D-AGE-2")
def test_end_of_age_effects_resolve_before_knowledge_resets() -> None:
    """Banking: 1 VP per 3 knowledge left at the end of the age (counted before the reset)."""
    s = new(seed=10)
    p = s.order[0]
    ps = s.players[p]
    grant(s, p, "R6a-1")
    grant(s, p, "T9b-1")
    pass_turns(s, 9)
    assert s.round == 4 and s.seat == 1
    ps.knowledge = [4, 4, 1, 0, 0, 0]
    before = ps.vp_by[VP_MASTERY]
    to_age_end(s)
    assert ps.vp_by[VP_MASTERY] - before == 9 // 3
    assert s.age == 2


def test_card_notation_round_trips_and_errors_are_clear() -> None:
    s = new(seed=11)
    cat = s.catalog
    for text in ("acquire T3a-2 0,1", "upgrade T3a", "resolve M01-L5", "resolve S9a/2",
                 "pay 3 T", "monument M01 0,1", "monument M01 0,1 on 2,0 2,1",
                 "monument M07 -1,0 on @1,1"):
        action = s.parse_action(text)
        assert s.format_action(action) == text
    assert s.parse_action("acquire t3a-2 (0, 1)") == Action(ACQUIRE, cat.copy_code["T3a-2"],
                                                            0, 1)
    assert s.parse_action("pay T") == s.parse_action("pay 1 T")
    assert s.parse_action("resolve T3a") == Action(RESOLVE, cat.source_code["T3A"], 0)
    for bad, why in (("acquire T3a-9 0,1", "unknown mastery card copy"),
                     ("acquire T3a-1", "needs a mastery copy and a tree position"),
                     ("upgrade Z9z", "unknown skill"),
                     ("monument M99 0,1", "unknown monument"),
                     ("monument M01 0,1 on 2,0 5,5", "share a side"),
                     ("pay 0 T", "positive amount"),
                     ("resolve Nope", "unknown card"),
                     ("acquire T3a-1 0;1", "not a tree position")):
        with pytest.raises(ParseError, match=why):
            s.parse_action(bad)


@pytest.mark.rule("D-AGE-7", "D-VOC-3")
def test_domination_cards_go_to_the_most_knowledge_ties_to_initiative() -> None:
    s = new(players=3, seed=12)
    first, second, third = s.order
    pass_turns(s, 14)
    assert s.round == 4 and s.seat == 2
    s.players[first].knowledge = [3, 0, 0, 2, 0, 0]
    s.players[second].knowledge = [3, 4, 0, 0, 0, 0]   # ties Trade with the first player
    s.players[third].knowledge = [0, 0, 0, 1, 6, 0]
    vp = [ps.vp for ps in s.players]
    knowledge = {p: s.players[p].knowledge.copy() for p in s.order}
    to_develop(s)
    for p in s.order:  # the third player's last turn produced something: put it back
        s.players[p].knowledge = knowledge[p]
    do(s, "pass")
    assert s.age == 2
    assert s.roles == [first, second, -1, first, third, -1]  # nobody had Art or Religion
    roles = s.data.roles
    gained = [s.players[p].vp - vp[p] for p in range(3)]
    assert gained[first] == roles[T].vp + roles[S].vp == 3 + 2
    assert gained[second] == roles[C].vp == 1
    assert gained[third] == roles[G].vp == 6  # the Governor is worth 6 with 3 players


@pytest.mark.rule("D-AGE-7")
def test_the_governor_is_worth_nothing_with_two_players() -> None:
    s = new(seed=13)
    pass_turns(s, 9)
    last = s.mover
    to_develop(s)
    for ps in s.players:
        ps.knowledge = [0] * 6
    s.players[last].knowledge[G] = 2
    vp = s.players[last].vp
    do(s, "pass")
    assert s.roles[G] == last and s.players[last].vp == vp
