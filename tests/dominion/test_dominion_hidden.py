"""Hidden information: what views show, and determinize (N-HIDDEN)."""

from __future__ import annotations

import json
import random

import pytest

from dominari.dominion import cards as C

PILE_KEYS = {"player", "name", "hand_size", "deck_size", "discard_size", "discard_top",
             "in_play", "aside", "shown", "deck_top", "discard_seen", "turns"}  # fmt: skip


def _midgame(kit):
    s = kit.position(players=3, kingdom="interaction", hand=["Village", "Copper", "Estate"],
                     deck=["Gold", "Silver", "Province"], discard=["Duchy", "Curse"],
                     others={1: {"hand": ["Silver", "Silver", "Moat", "Estate", "Copper"],
                                 "deck": ["Gold", "Estate"], "discard": ["Village"]},
                             2: {"hand": ["Copper"] * 4 + ["Duchy"], "deck": ["Province"],
                                 "discard": ["Silver", "Estate"]}})
    s.trash.append(C.GOLD)
    return s


@pytest.mark.rule("N-HIDDEN")
def test_view_shows_own_hand_sizes_tops_trash_supply(kit) -> None:
    s = _midgame(kit)
    v = s.view(1)
    json.dumps(v)
    assert v["player"] == 1
    assert v["hand"] == ["Copper", "Silver", "Silver", "Estate", "Moat"]
    assert v["trash"] == ["Gold"]
    assert v["supply"] == {C.NAME[c]: s.supply[c] for c in s.in_supply}
    piles = v["piles"]
    assert [set(p) for p in piles] == [PILE_KEYS] * 3
    assert [(p["hand_size"], p["deck_size"], p["discard_size"]) for p in piles] == [
        (3, 3, 2), (5, 2, 1), (5, 1, 2)
    ]
    assert [p["discard_top"] for p in piles] == ["Curse", "Village", "Estate"]
    # Another player's view differs only in its own hand and what it may do.
    v2 = s.view(2)
    assert v2["hand"] == ["Copper"] * 4 + ["Duchy"]
    assert {k: x for k, x in v.items() if k not in ("player", "hand")} == {
        k: x for k, x in v2.items() if k not in ("player", "hand")
    }


@pytest.mark.rule("N-HIDDEN")
def test_spectator_sees_no_hand_and_no_actions(kit) -> None:
    s = _midgame(kit)
    v = s.view(None)
    assert v["hand"] is None and v["legal_actions"] == []
    assert s.view(0)["legal_actions"] == ["play Village", "end"]
    assert s.view(1)["legal_actions"] == [] and s.view(2)["legal_actions"] == []
    with pytest.raises(ValueError):
        s.view(3)


@pytest.mark.rule("N-HIDDEN")
@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_view_is_blind_to_hidden_cards(kit, viewer) -> None:
    s = _midgame(kit)
    rng = random.Random(5)
    for _ in range(20):
        assert kit.scramble(s, viewer, rng).view(viewer) == s.view(viewer)


@pytest.mark.rule("N-HIDDEN", "N-CARD-LIBRARY")
def test_library_drawn_card_shown_to_its_player_only(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Library"], deck=["Smithy", "Copper"])
    kit.act(s, "play Library")
    assert s.view(0)["decision"]["cards"] == ["Smithy"]
    assert "cards" not in s.view(1)["decision"]
    assert "cards" not in s.view(None)["decision"]
    assert s.view(1)["decision"]["kind"] == "library"
    kit.act(s, "set-aside Smithy")
    # A set-aside card is visible to all until it is discarded.
    assert s.view(None)["piles"][0]["aside"] == []
    assert s.view(None)["piles"][0]["discard_top"] == "Smithy"


@pytest.mark.rule("N-HIDDEN")
def test_revealed_cards_are_seen_by_everyone(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Thief"],
                     others={1: {"hand": ["Estate"], "deck": ["Gold", "Copper"]}})
    kit.act(s, "play Thief")
    for viewer in (0, 1, None):
        v = s.view(viewer)
        assert sorted(v["piles"][1]["aside"]) == ["Copper", "Gold"]
        assert sorted(v["decision"]["cards"]) == ["Copper", "Gold"]
    kit.act(s, "trash Gold")
    assert s.view(1)["trash"] == ["Gold"]


@pytest.mark.rule("N-HIDDEN")
def test_public_log_hides_drawn_cards(kit) -> None:
    s = kit.position(hand=["Smithy"], deck=["Province", "Duchy", "Estate"], log=True,
                     others={1: {"hand": ["Curse"] * 5}})
    kit.act(s, "play Smithy", "end")
    lines = "\n".join(s.view(1)["log"])
    assert "Smithy" in lines
    assert "Province" not in lines and "Duchy" not in lines


@pytest.mark.rule("N-HIDDEN")
@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_determinize_keeps_what_the_player_sees(kit, viewer: int) -> None:
    s = _midgame(kit)
    rng = random.Random(viewer)
    before = kit.totals(s)
    hands = set()
    for _ in range(30):
        d = s.determinize(viewer, rng)
        assert d.view(viewer) == s.view(viewer)
        assert d.players[viewer].hand == s.players[viewer].hand
        assert kit.totals(d) == before
        kit.check_owned(d)
        for q in range(3):
            assert kit.bag(d.players[q].hand + d.players[q].deck) == kit.bag(
                s.players[q].hand + s.players[q].deck)
        hands.add(tuple(sorted(d.players[(viewer + 1) % 3].hand)))
    assert len(hands) > 1  # the unseen cards really are re-dealt


@pytest.mark.rule("N-HIDDEN", "N-CARD-SPY")
def test_determinize_keeps_a_card_spy_put_back(kit) -> None:
    # After Spy, every player has seen the card put back on top of player 1's deck.
    s = kit.position(kingdom="interaction", hand=["Spy", "Village"], actions=2,
                     deck=["Copper", "Gold", "Estate"],
                     others={1: {"hand": ["Copper"] * 5,
                                 "deck": ["Province", "Estate", "Copper", "Silver"]}})
    kit.act(s, "play Spy", "keep Gold", "keep Province")
    assert kit.top(s, 1, 1) == ["Province"] and kit.top(s, 0, 1) == ["Gold"]
    # Every view says so: the known top of each deck, the next card drawn first.
    for viewer in (0, 1, None):
        assert [p["deck_top"] for p in s.view(viewer)["piles"]] == [["Gold"], ["Province"]]
    rng = random.Random(1)
    for _ in range(20):
        d = s.determinize(0, rng)
        assert kit.top(d, 1, 1) == ["Province"]
        assert kit.top(d, 0, 1) == ["Gold"]
        assert d.view(0) == s.view(0)


@pytest.mark.rule("N-HIDDEN")
def test_determinized_state_can_be_played_on(kit) -> None:
    rng = random.Random(3)
    s = _midgame(kit)
    for _ in range(20):
        d = s.determinize(1, rng)
        kit.play_random(d, rng, 200)
        kit.check_owned(d)


@pytest.mark.rule("N-HIDDEN")
@pytest.mark.parametrize("hand", [["Mine", "Copper", "Silver"],
                                  ["Throne Room", "Smithy", "Village"]])
def test_determinize_keeps_pending_decisions_answerable(kit, hand) -> None:
    # Player 0 has a choice pending. Player 1 knows it exists (so player 0's hand
    # allows it); a determinized state must still give player 0 something to choose.
    s = kit.position(kingdom="big-money", hand=hand, deck=["Estate"] * 6)
    kit.act(s, f"play {hand[0]}")
    assert len(s.legal_actions()) >= 2
    rng = random.Random(2)
    for _ in range(30):
        d = s.determinize(1, rng)
        assert d.current_player() == 0
        assert d.legal_actions(), f"no legal action for player 0 in {d.players[0].hand}"


@pytest.mark.rule("N-HIDDEN")
def test_determinize_keeps_bureaucrat_victims_choice_answerable(kit) -> None:
    s = kit.position(kingdom="big-money", hand=["Bureaucrat"], deck=["Copper"] * 3,
                     others={1: {"hand": ["Estate", "Duchy", "Copper"],
                                 "deck": ["Copper"] * 6}})
    kit.act(s, "play Bureaucrat")
    assert s.current_player() == 1 and len(s.legal_actions()) == 2
    rng = random.Random(4)
    for _ in range(30):
        d = s.determinize(0, rng)
        assert d.legal_actions(), f"no legal action for player 1 in {d.players[1].hand}"



@pytest.mark.rule("N-HIDDEN", "N-TURN-2")
def test_determinize_in_the_buy_phase_deals_no_treasure_into_the_hand(kit) -> None:
    # Player 0's Treasures were all played at the start of the buy phase: everyone knows
    # the rest of the hand holds none, so a determinized hand must not hold one either.
    s = kit.position(kingdom="big-money", hand=["Copper", "Copper", "Estate", "Estate",
                                                "Copper"],
                     deck=["Gold", "Copper", "Province", "Silver", "Estate", "Duchy"])
    assert s.current_player() == 0 and s.phase_name == "buy"
    rng = random.Random(5)
    hands = set()
    for _ in range(30):
        d = s.determinize(1, rng)
        hand = d.players[0].hand
        assert len(hand) == 2 and not any(C.IS_TREASURE[c] for c in hand)
        assert kit.bag(hand + d.players[0].deck) == kit.bag(
            s.players[0].hand + s.players[0].deck)
        hands.add(tuple(sorted(hand)))
    assert len(hands) > 1


def _after_cleanup(kit):
    """Player 0 ends a turn holding Smithy, Province, Duchy and Estate: played Copper
    and the Gold already in the discard pile were seen, the hand was not, but for the
    Estate left on top."""
    s = kit.position(hand=["Smithy", "Province", "Duchy", "Estate", "Copper"],
                     deck=["Copper"] * 4 + ["Estate"] * 3 + ["Silver"] * 3, discard=["Gold"])
    kit.act(s, "end", "end")
    assert s.current_player() == 1
    return s


@pytest.mark.rule("N-HIDDEN", "N-TURN-3")
def test_cleanup_hides_the_discarded_hand_but_its_top(kit) -> None:
    s = _after_cleanup(kit)
    ps = s.players[0]
    assert kit.names(ps.discard) == ["Gold", "Copper", "Smithy", "Province", "Duchy", "Estate"]
    assert kit.bag(ps.hidden) == kit.bag(["Smithy", "Province", "Duchy"])
    assert s.view(1)["piles"][0]["discard_top"] == "Estate"
    # The cards seen going there (the played cards, the hand's last card on top) show.
    for viewer in (0, 1, None):
        assert s.view(viewer)["piles"][0]["discard_seen"] == ["Copper", "Estate", "Gold"]
    kit.check_owned(s)


@pytest.mark.rule("N-HIDDEN")
def test_determinize_deals_unseen_discards_again(kit) -> None:
    s = _after_cleanup(kit)
    ps = s.players[0]
    rng = random.Random(6)
    in_discard: set[tuple[str, ...]] = set()
    for _ in range(60):
        d = s.determinize(1, rng)
        q = d.players[0]
        assert d.view(1) == s.view(1)
        assert kit.totals(d) == kit.totals(s)
        kit.check_owned(d)
        assert len(q.discard) == len(ps.discard) and len(q.hand) == len(ps.hand)
        # What was seen going to the pile stays there, the top card on top.
        assert q.discard[-1] == C.ESTATE
        assert kit.bag([C.GOLD, C.COPPER]) <= kit.bag(q.discard)
        assert kit.bag(q.hand + q.deck + q.discard) == kit.bag(ps.hand + ps.deck + ps.discard)
        in_discard.add(tuple(sorted(kit.names(q.hidden))))
    # The three unseen cards are dealt again from everything player 1 has not seen.
    assert len(in_discard) > 10
    assert any("Province" not in cards for cards in in_discard)
    # Player 0 saw its own hand go there: its discard pile is kept as it is.
    for _ in range(10):
        d = s.determinize(0, rng)
        assert d.players[0].discard == ps.discard and d.players[0].hand == ps.hand


@pytest.mark.rule("N-HIDDEN", "N-TURN-4")
def test_a_shuffle_leaves_no_unseen_discard(kit) -> None:
    s = kit.position(hand=["Province", "Duchy", "Estate", "Copper", "Copper"],
                     deck=["Silver", "Silver"], discard=["Gold"])
    kit.act(s, "end", "end")  # draws 2, then shuffles the discard pile for 3 more
    assert s.players[0].hidden == [] and len(s.players[0].discard) == 0
    kit.check_owned(s)


@pytest.mark.rule("N-HIDDEN", "N-CARD-CHANCELLOR")
def test_chancellor_hides_the_moved_deck_but_known_and_top_cards(kit) -> None:
    kingdom = ["Chancellor", "Bureaucrat", "Village", "Smithy", "Market", "Moat", "Cellar",
               "Militia", "Mine", "Remodel"]
    s = kit.position(kingdom=kingdom, hand=["Chancellor", "Copper"],
                     deck=["Estate", "Gold", "Province"])
    kit.act(s, "play Chancellor", "discard-deck")
    ps = s.players[0]
    assert len(ps.discard) == 3 and ps.hidden == ps.discard[:2]
    assert s.view(1)["piles"][0]["discard_top"] == C.NAME[ps.discard[-1]]
    # A Silver everyone saw put on the deck by Bureaucrat stays seen.
    s = kit.position(kingdom=kingdom, hand=["Village", "Bureaucrat", "Chancellor"],
                     deck=["Estate", "Gold", "Province", "Duchy"])
    kit.act(s, "play Village", "play Bureaucrat", "play Chancellor", "discard-deck")
    ps = s.players[0]
    assert C.NAME[ps.discard[-1]] == "Silver" and len(ps.hidden) == len(ps.discard) - 1
    assert C.SILVER not in ps.hidden


@pytest.mark.rule("N-HIDDEN", "N-CARD-MILITIA", "N-CARD-CELLAR")
def test_cards_discarded_together_are_unseen_but_the_last(kit) -> None:
    # Discarded one at a time, each card lies on top and is seen; discarded together,
    # only the last one is (the rulebook: several cards need not be shown).
    five = ["Copper", "Copper", "Silver", "Estate", "Duchy"]
    s = kit.position(hand=["Militia"], others={1: {"hand": five}})
    kit.act(s, "play Militia", "discard Estate", "discard Duchy")
    assert s.players[1].hidden == []
    s = kit.position(hand=["Militia"], others={1: {"hand": five}})
    kit.act(s, "play Militia", "discard Duchy Estate")
    assert kit.names(s.players[1].discard) == ["Duchy", "Estate"]
    assert kit.names(s.players[1].hidden) == ["Duchy"]
    s = kit.position(hand=["Cellar", "Province", "Duchy", "Estate"],
                     deck=["Copper"] * 5, discard=["Gold"])
    kit.act(s, "play Cellar", "discard Province Duchy Estate")
    ps = s.players[0]
    assert kit.names(ps.discard) == ["Gold", "Province", "Duchy", "Estate"]
    assert kit.names(ps.hidden) == ["Province", "Duchy"]
    assert len(ps.deck) == 2  # 3 drawn
    kit.check_owned(s)


@pytest.mark.rule("N-HIDDEN", "N-CARD-MILITIA", "N-CARD-CELLAR")
def test_the_public_log_names_each_discard_seen_on_top(kit) -> None:
    # A card discarded alone lies on top of the pile, seen by all: the log names it, as
    # the view's top card shows it. Of cards discarded together only the last is seen.
    five = ["Copper", "Copper", "Silver", "Estate", "Duchy"]
    s = kit.position(hand=["Militia"], others={1: {"hand": five}}, log=True)
    kit.act(s, "play Militia", "discard Estate")
    assert s.view(0)["log"][-1].endswith("discards Estate")
    assert s.view(0)["piles"][1]["discard_top"] == "Estate"
    kit.act(s, "discard Duchy")
    discards = [x for x in s.view(None)["log"] if "discards" in x]
    assert discards == ["P2 discards Estate", "P2 discards Duchy"]
    s = kit.position(hand=["Militia"], others={1: {"hand": five}}, log=True)
    kit.act(s, "play Militia", "discard Duchy Estate")
    discards = [x for x in s.view(0)["log"] if "discards" in x]
    assert discards == ["P2 discards a card", "P2 discards Estate"]
    s = kit.position(hand=["Cellar", "Province", "Duchy", "Estate"], deck=["Copper"] * 5,
                     log=True, others={1: {"hand": ["Copper"] * 5}})
    kit.act(s, "play Cellar", "discard Province Duchy Estate")
    lines = s.view(1)["log"]
    assert [x for x in lines if "discards" in x] == ["P1 discards a card"] * 2 + [
        "P1 discards Estate"]
    assert "Province" not in "\n".join(lines) and "Duchy" not in "\n".join(lines)
    kit.check_owned(s)


def _in_hands(kit, s, viewer: int, who: int, n: int = 40, seed: int = 7) -> list:
    """``who``'s hand in ``n`` worlds sampled by ``viewer``, each a bag of card names."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        d = s.determinize(viewer, rng)
        kit.check_owned(d)
        assert d.view(viewer) == s.view(viewer)
        out.append(kit.hand(d, who))
    return out


@pytest.mark.rule("N-HIDDEN", "N-CARD-MOAT")
def test_a_revealed_moat_stays_in_the_hand_until_it_leaves(kit) -> None:
    # Player 1 reveals a Moat against Militia: player 0 now knows it is in that hand, and
    # every world player 0 samples keeps it there; nothing else about the hand is known.
    hand1 = ["Moat", "Copper", "Copper", "Estate", "Silver"]
    s = kit.position(kingdom="interaction", hand=["Village", "Militia", "Militia"],
                     others={1: {"hand": hand1, "deck": ["Gold", "Duchy", "Copper"] * 3}})
    before = _in_hands(kit, s, 0, 1)
    assert any(h["Moat"] == 0 for h in before)  # unknown until revealed
    assert [s.view(v)["piles"][1]["shown"] for v in (0, 1, None)] == [[]] * 3
    kit.act(s, "play Village", "play Militia", "reveal Moat")
    assert kit.names(s.players[1].shown) == ["Moat"]
    # Every view says so: the Moat is known to be in that hand, nothing else of it.
    assert [s.view(v)["piles"][1]["shown"] for v in (0, 1, None)] == [["Moat"]] * 3
    assert s.view(0)["piles"][0]["shown"] == []
    after = _in_hands(kit, s, 0, 1)
    assert all(h["Moat"] >= 1 for h in after)
    assert len({tuple(sorted(h.elements())) for h in after}) > 5  # the rest is dealt again
    # A second attack meets the same Moat: it is known once, not twice.
    kit.act(s, "play Militia", "reveal Moat")
    assert kit.names(s.players[1].shown) == ["Moat"]
    kit.check_owned(s)
    # Player 1 plays the Moat on its own turn: no Moat is known to be there any more.
    assert s.phase_name == "buy"  # no Action left
    kit.act(s, "end")
    assert s.current_player() == 1 and kit.names(s.players[1].shown) == ["Moat"]
    kit.act(s, "play Moat")
    assert s.players[1].shown == []
    assert s.view(0)["piles"][1]["shown"] == []
    kit.check_owned(s)


@pytest.mark.rule("N-HIDDEN", "N-CARD-BUREAUCRAT", "N-CARD-MILITIA")
def test_a_hand_revealed_to_bureaucrat_is_known_until_cards_leave_it(kit) -> None:
    hand1 = ["Copper", "Copper", "Copper", "Silver", "Gold"]
    s = kit.position(kingdom="interaction", hand=["Village", "Bureaucrat", "Militia"],
                     others={1: {"hand": hand1, "deck": ["Province", "Duchy", "Copper"] * 3}})
    kit.act(s, "play Village", "play Bureaucrat")  # no Victory card: the hand is revealed
    assert kit.bag(s.players[1].shown) == kit.bag(hand1)
    assert all(h == kit.bag(hand1) for h in _in_hands(kit, s, 0, 1))
    # Two Coppers discarded together: only the top one is seen, so which of the known
    # cards are left in the hand is not known any more.
    kit.act(s, "play Militia", "discard Copper Copper")
    assert s.players[1].shown == []
    assert len({tuple(sorted(h.elements())) for h in _in_hands(kit, s, 0, 1)}) > 1
    # Discarded one at a time, each card is seen leaving: the rest stays known.
    s = kit.position(kingdom="interaction", hand=["Village", "Bureaucrat", "Militia"],
                     others={1: {"hand": hand1, "deck": ["Province", "Duchy", "Copper"] * 3}})
    kit.act(s, "play Village", "play Bureaucrat", "play Militia", "discard Copper",
            "discard Silver")
    assert kit.bag(s.players[1].shown) == kit.bag(["Copper", "Copper", "Gold"])
    assert all(h == kit.bag(["Copper", "Copper", "Gold"]) for h in _in_hands(kit, s, 0, 1))
    kit.check_owned(s)
    # Its clean-up discards the hand: nothing is known about the next one.
    kit.act(s, "end", "end")
    assert s.players[1].shown == []


@pytest.mark.rule("N-HIDDEN", "N-CARD-MINE")
def test_a_treasure_gained_to_hand_is_known_until_played(kit) -> None:
    s = kit.position(hand=["Village", "Village", "Mine", "Copper", "Silver"],
                     deck=["Gold", "Duchy", "Copper"] * 3)
    kit.act(s, "play Village", "play Mine", "trash Copper", "gain Silver")
    assert s.phase_name == "action"
    assert kit.names(s.players[0].shown) == ["Silver"]
    hands = _in_hands(kit, s, 1, 0)
    assert all(h["Silver"] >= 1 for h in hands) and any(h["Silver"] == 1 for h in hands)
    kit.act(s, "end")  # the buy phase plays the Silver before everyone's eyes
    assert s.phase_name == "buy" and s.players[0].shown == []
    kit.check_owned(s)


def test_a_state_dealt_again_refuses_to_be_recorded() -> None:
    """A copy given a generator, a determinize world, and a copy of either draw other
    random numbers than the seed's: their record named the seed and did not replay (the
    library user's audit: "action 8 does not replay"). ``record()`` says why instead; a
    plain copy still records, and replays."""
    from dominari.core.errors import RecordError
    from dominari.dominion.engine import DominionState

    s = DominionState.new(players=2, kingdom="first-game", seed=1)
    rng = random.Random(2)
    for _ in range(12):
        s.apply(rng.choice(s.legal_actions()))
    plain = s.copy()
    assert not plain.dealt_again
    assert DominionState.from_record(plain.record()).record() == s.record()
    for dealt in (s.copy(random.Random(3)), s.determinize(0, random.Random(4)),
                  s.determinize(1, random.Random(4)).copy()):
        assert dealt.dealt_again
        with pytest.raises(RecordError, match="would not replay: record the game itself"):
            dealt.record()
    assert not s.dealt_again  # the game itself is untouched
