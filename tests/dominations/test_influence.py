"""The influence step at the end of an age (D-AGE-3 … D-AGE-6): the leader's copy, then VP
equal to influence for everyone."""

from __future__ import annotations

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominations.engine import (
    F_COPY,
    VP_INFLUENCE,
    DominationsState,
)
from dominari.dominations.notation import COPY, COPY_ADVANCE, PASS

from .helpers import do, grant, new, pass_turns, role_influence, to_develop


def to_copy(s: DominationsState) -> None:
    """Play to the end of age 1 (2 players): the last develop phase passes."""
    pass_turns(s, 9)
    to_develop(s)
    do(s, "pass")


@pytest.mark.rule("D-AGE-3", "D-AGE-5", "D-AGE-6")
def test_the_leader_copies_a_card_and_its_effect_applies_before_vp() -> None:
    """Bardic Tradition copied from the other player: its +1 influence applies at once, so
    the leader scores 5 + 1 VP from influence; the other player scores their 2."""
    s = new(seed=1)
    p, q = s.order
    grant(s, q, "A3d-1")   # Bardic Tradition (3): immediate +1 influence
    grant(s, q, "C6d-1")   # Bridge Building (6): beyond the leader's value limit
    s.players[p].influence, s.players[q].influence = 5, 2
    to_copy(s)
    assert s.stack and s.stack[-1][0] == F_COPY and s.current_player() == p
    assert s.phase_name == "copy" and s.age == 1
    legal = s.legal_actions()
    assert legal[0].kind == PASS
    cat = s.catalog
    offered = {cat.skills[cat.copy_skill[a.a]].id for a in legal if a.kind == COPY}
    assert offered == {"A3d"}  # influence 5: value 3 only; A3d-1 itself stays with q
    assert all(a.a != cat.copy_code["A3d-1"] for a in legal if a.kind == COPY)
    with pytest.raises(IllegalActionError, match="cannot be copied"):
        do(s, "copy C6d-2 0,1")
    vp = [s.players[p].vp, s.players[q].vp]
    s.apply(next(a for a in legal if a.kind == COPY))
    assert s.age == 2
    dp, dq = role_influence(s, p), role_influence(s, q)  # the Diplomat's +2, after the VP
    assert s.players[p].influence == 6 + dp  # the copy's effect, at once (D-AGE-5)
    assert s.players[p].vp_by[VP_INFLUENCE] == 6 and s.players[q].vp_by[VP_INFLUENCE] == 2
    assert s.players[p].vp - vp[0] >= 6 and s.players[q].vp - vp[1] >= 2
    assert (s.players[p].influence - dp, s.players[q].influence - dq) == (6, 2)  # kept
    assert s.players[p].tree.has_skill("A3d") and s.players[q].tree.has_skill("A3d")


@pytest.mark.rule("D-AGE-3")
def test_value_limits_follow_influence() -> None:
    for influence, values in ((12, {3}), (13, {3, 6}), (22, {3, 6}), (23, {3, 6, 9})):
        s = new(seed=2)
        p, q = s.order
        for card in ("A3d-1", "C6d-1", "T9c-1"):   # Silk Road needs a Craft 6: C6d
            grant(s, q, card)
        s.players[p].influence = influence
        to_copy(s)
        cat = s.catalog
        got = {cat.skills[cat.copy_skill[a.a]].cost for a in s.legal_actions() if a.kind == COPY}
        assert got == values, influence


@pytest.mark.rule("D-AGE-4")
def test_the_leader_may_turn_their_basic_card_advanced_as_anothers() -> None:
    s = new(seed=3)
    p, q = s.order
    grant(s, q, "A3d-1", advanced=True)
    grant(s, p, "A3d-2")
    s.players[p].influence = 4
    to_copy(s)
    actions = [s.format_action(a) for a in s.legal_actions()]
    assert "copy upgrade A3d" in actions
    assert not [a for a in s.legal_actions() if a.kind == COPY]  # one copy per skill
    do(s, "copy upgrade A3d")
    card = s.players[p].tree.cards[s.players[p].tree.position_of("A3d-2")]  # type: ignore[index]
    assert card.advanced and s.players[p].influence == 5 + role_influence(s, p)
    assert s.legal_actions and s.age == 2
    assert s.parse_action("copy upgrade A3d").kind == COPY_ADVANCE


@pytest.mark.rule("D-AGE-3", "D-VOC-3")
def test_nothing_to_copy_skips_the_step_and_ties_go_to_initiative() -> None:
    s = new(seed=4)
    p, q = s.order
    s.players[p].influence = s.players[q].influence = 3
    assert s.influence_leader() == p
    to_copy(s)
    assert s.age == 2 and not any(f[0] == F_COPY for f in s.stack)  # no question (§13.9)
    assert [s.players[x].vp_by[VP_INFLUENCE] for x in (p, q)] == [3, 3]
    t = new(seed=4)
    p, q = t.order
    grant(t, q, "A3d-1")
    t.players[p].influence = t.players[q].influence = 3
    to_copy(t)
    assert t.age == 1 and t.current_player() == p  # the tie goes to p, who may decline
    do(t, "pass")
    assert t.age == 2 and not t.players[p].tree.has_skill("A3d")
