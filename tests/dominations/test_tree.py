"""The civilization tree: nodus joins, placement rules, counts and notation (D-DEV-7/8)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.core.errors import IllegalActionError, ParseError
from dominari.dominations.data import ANY, CORRUPTIO, VESTIGIUM, CardCopy, default_data
from dominari.dominations.tree import (
    CAMPFIRE_SIDES,
    COLOURLESS,
    DIRECTIONS,
    ROOT,
    Pos,
    Sides,
    Tree,
    format_position,
    join,
    parse_position,
)

T, C, A, S, G, R, V, X = range(8)
DATA = default_data()
COPIES = [c for s in DATA.skills for c in s.copies]
LEVELS = [lv for m in DATA.monuments for lv in m.levels]
SKILL = {c.id: s for s in DATA.skills for c in s.copies}
ALL_CARDS: list[tuple[str, Sides]] = [(c.id, c.sides) for c in COPIES] + [
    (lv.id, lv.sides) for lv in LEVELS]


def place_copy(tree: Tree, pos: Pos, copy_id: str) -> list[int]:
    copy = DATA.copy_by_id[copy_id]
    skill = SKILL[copy_id]
    return tree.place(pos, copy_id, copy.sides, domain=skill.domain, value=skill.cost)


def brute_legal(tree: Tree, sides: Sides) -> list[Pos]:
    """Legal positions straight from D-DEV-7 over the bounding box (plus a margin)."""
    cols = [p[0] for p in tree.cards]
    rows = [p[1] for p in tree.cards]
    out = []
    for col in range(min(cols) - 2, max(cols) + 3):
        for row in range(min(rows) - 2, max(rows) + 3):
            if (col, row) in tree.cards:
                continue
            touching = 0
            ok = True
            for d, (dc, dr) in enumerate(DIRECTIONS):
                other = tree.cards.get((col + dc, row + dr))
                if other is None:
                    continue
                touching += 1
                if join(sides[d], other.sides[(d + 2) % 4], tree.vestigium_pairs) is None:
                    ok = False
            if touching and ok:
                out.append((col, row))
    return sorted(out)


# ---------------------------------------------------------------- joins
@pytest.mark.rule("D-DEV-7")
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        *[(c, c, c) for c in range(6)],  # same colour
        *[(V, c, c) for c in range(6)],  # vestigium + colour, both orders
        *[(c, V, c) for c in range(6)],
        (V, V, None),  # two vestigia never join
        *[(X, c, None) for c in range(8)],  # corruptio never joins, not even with X
        *[(c, X, None) for c in range(8)],
        (T, C, None),  # different colours
        (A, S, None),
        (G, R, None),
    ],
)
def test_join(a: int, b: int, expected: int | None) -> None:
    assert join(a, b) == expected
    if V not in (a, b) or X in (a, b) or a != b:
        assert join(a, b, vestigium_pairs=True) == expected


@pytest.mark.rule("D-DEV-7")
def test_join_every_pair_of_colours() -> None:
    for a in range(6):
        for b in range(6):
            assert join(a, b) == (a if a == b else None)


@pytest.mark.rule("D-DEV-7")
def test_vestigium_pairs_option() -> None:
    """Prototype variant (§14): V+V makes a colourless nodus; X still never joins."""
    assert join(V, V, vestigium_pairs=True) == COLOURLESS
    assert join(X, X, vestigium_pairs=True) is None
    assert join(V, X, vestigium_pairs=True) is None
    assert COLOURLESS not in range(6)


def test_join_rejects_bad_codes() -> None:
    with pytest.raises(ValueError, match="0-7"):
        join(8, 0)
    with pytest.raises(ValueError, match="0-7"):
        join(0, -1)


# ---------------------------------------------------------------- placement
@pytest.mark.rule("D-DEV-7", "D-ADJ-1")
def test_card_must_touch_a_side_not_only_a_corner() -> None:
    t = Tree()
    assert place_copy(t, (1, 0), "T3a-1") == [T]  # T3a-1 = (T, C, A, T): left T meets V
    sides = (V, T, T, V)  # it would join anything coloured on its right or bottom
    assert not t.is_legal((0, 1), (V, V, V, V))
    # 1,1 touches only T3a-1 (below it): legal iff its bottom joins T3a-1's top (Trade).
    assert t.is_legal((1, 1), sides)
    # These touch the tree at most at a corner: diagonal contact never counts.
    for pos in [(2, 1), (-1, 1), (-1, -1), (2, -1), (3, 0), (0, 2)]:
        assert not t.is_legal(pos, (T, T, T, T))
        with pytest.raises(IllegalActionError, match=r"touches no side .*D-ADJ-1"):
            t.place(pos, "X", (T, T, T, T))
    assert (2, 1) not in t.legal_positions((T, T, T, T))
    assert t.frontier() == [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (2, 0)]


@pytest.mark.rule("D-DEV-7")
def test_occupied_position_is_illegal() -> None:
    t = Tree()
    place_copy(t, (0, 1), "S3a-1")  # (S, S, C, A): its bottom Craft meets the campfire's V
    for pos, who in [(ROOT, "the campfire at 0,0"), ((0, 1), "S3a-1 at 0,1")]:
        with pytest.raises(IllegalActionError, match=f"taken by {who}"):
            t.place(pos, "T3a-1", (T, T, T, T))
        assert pos not in t.legal_positions((T, T, T, T))


@pytest.mark.rule("D-DEV-7")
def test_every_touching_side_must_form_a_nodus() -> None:
    t = Tree()
    assert t.place((1, 0), "a", (C, A, T, T), domain=C, value=3) == [T]
    assert t.place((0, 1), "b", (A, G, T, R), domain=G, value=3) == [T]  # bottom T on the V
    # Now 1,1 touches b (right half G) on its left and a (top C) on its bottom.
    ok = (S, S, C, G)
    bad = (S, S, C, R)  # bottom joins, left does not
    bad2 = (S, S, T, G)  # left joins, bottom does not
    assert t.is_legal((1, 1), ok)
    assert t.nodi_formed((1, 1), ok) == [C, G]
    with pytest.raises(IllegalActionError) as e:
        t.place((1, 1), "c", bad)
    assert str(e.value) == (
        "c at 1,1: its left half (Religion) and the right half (Government) of b at 0,1 do "
        "not form a nodus: different colours (D-DEV-7)"
    )
    with pytest.raises(IllegalActionError, match=r"its bottom half \(Trade\) and the top half "
                       r"\(Craft\) of a at 1,0"):  # fmt: skip
        t.place((1, 1), "c", bad2)
    assert (1, 1) not in t.legal_positions(bad)
    assert (1, 1) in t.legal_positions(ok)
    assert t.place((1, 1), "c", ok) == [C, G]
    assert t.nodi_counts() == [2, 1, 0, 0, 1, 0, 0] == t.slow_nodi()


@pytest.mark.rule("D-DEV-7")
def test_corruptio_and_vestigium_pairs_in_the_tree() -> None:
    t = Tree()
    t.place((0, 1), "a", (X, T, T, T))
    with pytest.raises(IllegalActionError, match=r"\(corruptio\) .* a corruptio never joins"):
        t.place((0, 2), "b", (T, T, X, T))  # X on X
    with pytest.raises(IllegalActionError, match=r"\(corruptio\) .* a corruptio never joins"):
        t.place((0, 2), "b", (T, T, V, T))  # V on X
    with pytest.raises(IllegalActionError, match="two vestigia never join"):
        t.place((1, 0), "b", (T, T, T, V))  # V on the campfire's V
    # An all-white card fits only beside a's coloured (Trade) halves, never beside a V.
    assert t.legal_positions((V, V, V, V)) == [(-1, 1), (1, 1)]
    assert t.legal_positions((X, X, X, X)) == []
    assert not t.can_place((X, X, X, X))  # a card with no legal position cannot be taken


@pytest.mark.rule("D-DEV-7", "D-DEV-8")
def test_vestigium_pairs_tree() -> None:
    t = Tree(vestigium_pairs=True)
    assert t.legal_positions((V, V, V, V)) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert t.place((1, 0), "a", (X, A, T, V)) == [COLOURLESS]
    assert t.nodi(COLOURLESS) == 1
    assert t.nodi_total() == 1
    assert t.colours() == 0  # a colourless nodus counts for no colour
    assert [t.nodi(c) for c in range(6)] == [0] * 6
    assert t.slow_nodi() == t.nodi_counts()
    with pytest.raises(IllegalActionError, match="corruptio never joins"):
        t.place((1, 1), "b", (V, V, X, V))


@pytest.mark.rule("D-DEV-7")
def test_no_rotation() -> None:
    """A card is legal where its printed sides fit and illegal where only a rotation fits."""
    t = Tree()
    sides = (X, T, C, A)
    turned = (A, X, T, C)  # the same card turned a quarter clockwise
    # Around [V, V, V, V] a side fits where the card's facing half is coloured: not below
    # (its top is X), though the turned card (top A) would fit there.
    assert t.legal_positions(sides) == [(-1, 0), (0, 1), (1, 0)]
    assert not t.is_legal((0, -1), sides)
    assert t.is_legal((0, -1), turned)
    with pytest.raises(IllegalActionError, match=r"its top half \(corruptio\)"):
        t.place((0, -1), "x", sides)
    u = Tree()
    # Beside T3a-1 (right half Craft) the printed card fits and its turned self does not.
    place_copy(u, (1, 0), "T3a-1")  # (T, C, A, T): its right half is Craft
    card = (S, S, S, C)  # fits on the right of T3a-1 (left C meets right C)
    turned = (S, S, C, S)  # the same card turned a quarter anticlockwise: left S
    assert u.is_legal((2, 0), card)
    assert not u.is_legal((2, 0), turned)
    assert (2, 0) in u.legal_positions(card)
    assert (2, 0) not in u.legal_positions(turned)
    u.place((2, 0), "s", card)
    assert u.cards[(2, 0)].sides == card  # stored as printed, never turned


@pytest.mark.rule("D-DEV-7")
def test_failed_placement_changes_nothing() -> None:
    t = Tree()
    place_copy(t, (1, 0), "T3a-1")
    before = t.copy()
    frontier = t.frontier()
    with pytest.raises(IllegalActionError):
        t.place((2, 0), "x", (T, T, T, T))  # left T vs right C
    assert t == before
    assert t.frontier() == frontier
    assert t.nodi_counts() == before.nodi_counts()


def test_bad_sides_are_value_errors() -> None:
    t = Tree()
    for sides in [(0, 1, 2), (0, 1, 2, 8), (0, 1, 2, -1), (0, 1, 2, 3, 4)]:
        with pytest.raises(ValueError, match="four half codes"):
            t.legal_positions(sides)
        with pytest.raises(ValueError, match="four half codes"):
            t.place((1, 0), "x", sides)


# ---------------------------------------------------------------- nodi (D-DEV-8)
@pytest.mark.rule("D-DEV-8")
def test_unjoined_halves_never_count() -> None:
    t = Tree()
    assert t.nodi_total() == 0  # a lone campfire: four open halves, no nodus
    assert t.colours() == 0
    assert t.place((0, -1), "a", (A, A, A, A)) == [A]  # four Art halves, one nodus
    assert t.nodi(A) == t.nodi_total() == 1
    assert t.place((1, -1), "b", (X, X, X, A)) == [A]  # touches a, not the campfire
    assert t.nodi_counts() == [0, 0, 2, 0, 0, 0, 0] == t.slow_nodi()
    assert t.colours() == 1


@pytest.mark.rule("D-DEV-8")
def test_nodi_formed_counts_every_side() -> None:
    t = Tree()
    assert t.place((1, 0), "a", (T, C, A, T)) == [T]
    assert t.place((0, 1), "b", (G, A, T, G)) == [T]
    assert t.place((2, 0), "e", (C, X, X, C)) == [C]
    assert t.place((2, 1), "c", (C, C, C, A)) == [C]
    # 1,1 now touches a (top T), b (right A) and c (left A).
    sides = (V, A, T, A)
    assert t.nodi_formed((1, 1), sides) == [A, T, A]
    assert t.place((1, 1), "d", sides) == [A, T, A]
    assert t.nodi(A) == 2
    assert t.nodi_counts() == [3, 2, 2, 0, 0, 0, 0]
    assert t.nodi(ANY) == t.nodi_total() == 7
    for bad in (-2, 7):
        with pytest.raises(ValueError, match="no nodus"):
            t.nodi(bad)
    assert t.colours() == 3
    assert t.nodi_counts() == t.slow_nodi()
    with pytest.raises(IllegalActionError):
        t.nodi_formed((5, 5), sides)


# ---------------------------------------------------------------- random trees
@st.composite
def grown_trees(draw: st.DrawFn) -> tuple[Tree, list[tuple[Pos, str, list[int]]]]:
    """A tree grown with random real copies and level cards at random legal positions; each
    step is checked against the brute-force rules as it is taken."""
    tree = Tree(DATA.campfires[draw(st.integers(0, 3))].sides,
                vestigium_pairs=draw(st.booleans()))  # fmt: skip
    steps = []
    for _ in range(draw(st.integers(0, 25))):
        if draw(st.integers(0, 5)) == 0:
            level = draw(st.sampled_from(LEVELS))
            card_id, sides, level_card = level.id, level.sides, True
        else:
            copy = draw(st.sampled_from(COPIES))
            card_id, sides, level_card = copy.id, copy.sides, False
        legal = tree.legal_positions(sides)
        assert legal == brute_legal(tree, sides)
        assert tree.can_place(sides) == bool(legal)
        if not legal:
            with pytest.raises(IllegalActionError):
                tree.place(draw(st.sampled_from(tree.frontier())), card_id, sides)
            continue
        pos = draw(st.sampled_from(legal))
        expected = tree.nodi_formed(pos, sides)
        formed = tree.place(pos, card_id, sides, level_card=level_card)
        assert formed == expected
        assert tree.nodi_counts() == tree.slow_nodi()
        assert len(formed) >= 1
        steps.append((pos, card_id, formed))
    return tree, steps


@pytest.mark.rule("D-DEV-7", "D-DEV-8", "D-ADJ-1")
@settings(max_examples=150, deadline=None)
@given(grown_trees(), st.sampled_from(COPIES))
def test_random_trees_match_the_rules(grown: tuple[Tree, list[tuple[Pos, str, list[int]]]],
                                      probe: CardCopy) -> None:  # fmt: skip
    tree, steps = grown
    sides = probe.sides
    assert tree.legal_positions(sides) == brute_legal(tree, sides)
    # The frontier is exactly the empty orthogonal neighbours of the tree.
    neighbours = {(c + dc, r + dr) for c, r in tree.cards for dc, dr in DIRECTIONS}
    assert tree.frontier() == sorted(neighbours - tree.cards.keys())
    # Every card is touching the tree, and every touching pair forms a nodus.
    total = 0
    for (c, r), card in tree.cards.items():
        for d, (dc, dr) in enumerate(DIRECTIONS):
            other = tree.cards.get((c + dc, r + dr))
            if other is not None:
                nodus = join(card.sides[d], other.sides[(d + 2) % 4], tree.vestigium_pairs)
                assert nodus is not None
                total += 1
    assert total == 2 * tree.nodi_total()
    assert sum(len(f) for _, _, f in steps) == tree.nodi_total()
    assert tree.colours() == sum(1 for c in range(6) if tree.nodi(c))
    # A copy replays to an equal tree.
    replay = Tree(tree.cards[ROOT].sides, vestigium_pairs=tree.vestigium_pairs)
    for pos, card_id, formed in steps:
        card = tree.cards[pos]
        assert replay.place(pos, card_id, card.sides, level_card=card.level_card) == formed
    assert replay == tree


# ---------------------------------------------------------------- the data self-test
@pytest.mark.rule("D-DEV-7")
def test_every_card_fits_next_to_a_lone_campfire() -> None:
    """Data spec §4 self-test: every mastery copy and level card can start a tree."""
    assert len(COPIES) == 288
    assert len(LEVELS) == 50
    for campfire in DATA.campfires:
        assert campfire.sides == CAMPFIRE_SIDES
        for card_id, sides in ALL_CARDS:
            t = Tree(campfire.sides, root_id=campfire.id)
            legal = t.legal_positions(sides)
            assert legal, f"{card_id} {sides} cannot start a tree"
            # Next to [V, V, V, V] exactly the sides whose facing half is coloured fit.
            expected = sorted((dc, dr) for d, (dc, dr) in enumerate(DIRECTIONS)
                              if sides[(d + 2) % 4] < VESTIGIUM)  # fmt: skip
            assert legal == expected
            for pos in legal:
                u = t.copy()
                assert u.place(pos, card_id, sides) == [sides[(DIRECTIONS.index(pos) + 2) % 4]]
                assert u.nodi_total() == 1


@pytest.mark.rule("D-DEV-7")
def test_no_card_has_only_unjoinable_halves() -> None:
    for _, sides in ALL_CARDS:
        assert any(h not in (VESTIGIUM, CORRUPTIO) for h in sides)


# ---------------------------------------------------------------- copies, upgrades, counts
def test_copies_are_independent() -> None:
    t = Tree()
    place_copy(t, (1, 0), "T3a-1")
    u = t.copy()
    assert u == t and u is not t
    place_copy(u, (0, 1), "S3a-1")
    u.upgrade((1, 0))
    assert len(t) == 2 and len(u) == 3
    assert t != u
    assert not t.cards[(1, 0)].advanced and u.cards[(1, 0)].advanced
    assert t.nodi_total() == 1 and u.nodi_total() == 2
    assert (0, 1) in t.frontier() and (0, 1) not in u.frontier()
    assert t.is_legal((0, 1), (S, S, C, A)) and not u.is_legal((0, 1), (S, S, C, A))
    assert t.nodi_counts() == t.slow_nodi() and u.nodi_counts() == u.slow_nodi()
    # Changing the original does not reach the copy either.
    v = t.copy()
    place_copy(t, (0, -1), "A3a-1")  # (R, A, A, T): its top R meets the campfire's V
    assert len(v) == 2 and v.nodi_total() == 1 and (0, -1) in v.frontier()
    w = Tree(vestigium_pairs=True).copy()
    assert w.vestigium_pairs and w.can_place((V, V, V, V))


def test_upgrade() -> None:
    t = Tree()
    place_copy(t, (1, 0), "T3a-1")
    t.place((0, 1), "M01-L1", (V, V, T, V), level_card=True, domain=T)
    t.upgrade((1, 0))
    assert t.cards[(1, 0)].advanced
    assert t.cards[(1, 0)].sides == DATA.copy_by_id["T3a-1"].sides
    with pytest.raises(IllegalActionError, match="already advanced"):
        t.upgrade((1, 0))
    with pytest.raises(IllegalActionError, match="the campfire has no advanced side"):
        t.upgrade(ROOT)
    with pytest.raises(IllegalActionError, match="level card"):
        t.upgrade((0, 1))
    with pytest.raises(IllegalActionError, match="no card"):
        t.upgrade((5, 5))


def test_counting_helpers() -> None:
    t = Tree()
    place_copy(t, (1, 0), "T3a-1")  # Trade 3: left T
    t.place((0, 1), "M01-L2", (V, V, T, V), level_card=True, domain=T)
    t.place((-1, 0), "X9a-1", (G, A, S, A), domain=A, value=9)
    t.place((0, -1), "M01-L1", (T, V, V, V), level_card=True, domain=T)
    t.upgrade((-1, 0))
    assert t.count_cards() == 2
    assert t.count_cards(domains=[T]) == 1
    assert t.count_cards(values=(6, 9)) == 1
    assert t.count_cards(advanced=True) == 1
    assert t.count_cards(advanced=False, values=(9,)) == 0
    assert t.count_cards(level_cards=True) == 2
    assert t.count_cards(level_cards=True, domains=(A,)) == 0
    assert t.level_cards({f"M01-L{k}": k for k in range(1, 6)}) == [1, 2]
    assert t.level_cards({f"M02-L{k}": k for k in range(1, 6)}) == []
    assert t.has_skill("T3a") and t.has_skill("X9a") and not t.has_skill("T3")
    assert not t.has_skill("M01")
    assert t.position_of("X9a-1") == (-1, 0)
    assert t.position_of("F1") == ROOT
    assert t.position_of("nope") is None
    assert [p for p, _ in t.mastery_cards()] == [(1, 0), (-1, 0)]


def test_render_text() -> None:
    t = Tree()
    place_copy(t, (1, 0), "T3a-1")  # (T, C, A, T)
    t.place((0, 1), "M01-L1", (V, V, T, V), level_card=True, domain=T)
    t.upgrade((1, 0))
    assert t.render_text().split("\n") == [
        " V",
        "VmV",
        " T",
        " V  T",
        "V@VTTC",
        " V  A",
    ]
    assert Tree().render_text() == " V\nV@V\n V"
    assert repr(t) == "<Tree F1@0,0 T3a-1@1,0 M01-L1@0,1>"


# ---------------------------------------------------------------- notation
@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_position_round_trip(col: int, row: int) -> None:
    assert parse_position(format_position((col, row))) == (col, row)


def test_position_notation() -> None:
    assert format_position((-3, 0)) == "-3,0"
    assert parse_position("(-3, +4)") == (-3, 4)
    for bad in ["", "1", "1,", ",2", "1,2,3", "a,b", "1.5,2", "(1,2", "1,2)", "@1,2", "((1,2))"]:
        with pytest.raises(ParseError, match="not a tree position"):
            parse_position(bad)
