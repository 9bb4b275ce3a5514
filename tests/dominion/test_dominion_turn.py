"""The turn, reshuffles, the end of the game and illegal actions (N-TURN, N-END)."""

from __future__ import annotations

import pytest

from dominari.core.errors import IllegalActionError
from dominari.core.game import TERMINAL
from dominari.dominion import events as G
from dominari.dominion.actions import Action, parse

# ------------------------------------------------------------------ N-TURN-1


@pytest.mark.rule("N-TURN-1")
def test_one_action_per_turn(kit) -> None:
    s = kit.position(hand=["Smithy", "Village", "Copper", "Copper", "Estate"],
                     deck=["Estate", "Estate", "Estate", "Copper"])
    assert s.phase_name == "action" and s.actions == 1
    assert kit.legal(s) == ["play Smithy", "play Village", "end"]
    kit.act(s, "play Smithy")
    # No Action left: the Village stays in hand and the buy phase starts by itself.
    assert s.phase_name == "buy" and s.actions == 0
    assert kit.hand(s, 0)["Village"] == 1
    assert kit.names(s.players[0].in_play)[0] == "Smithy"


@pytest.mark.rule("N-TURN-1")
def test_playing_actions_is_optional(kit) -> None:
    s = kit.position(hand=["Village", "Smithy", "Copper", "Copper", "Copper"])
    kit.act(s, "end")
    assert s.phase_name == "buy"
    assert kit.hand(s, 0) == {"Village": 1, "Smithy": 1}
    assert s.coins == 3


@pytest.mark.rule("N-TURN-1")
def test_action_fully_resolved_before_the_next(kit) -> None:
    s = kit.position(hand=["Cellar", "Village", "Estate", "Copper"], deck=["Silver"] * 5)
    kit.act(s, "play Cellar")
    assert kit.kind(s) == "cellar"
    assert "play Village" not in kit.legal(s)
    with pytest.raises(IllegalActionError, match="cellar"):
        s.apply(parse("play Village"))
    kit.act(s, "discard Estate", "done")
    assert s.phase_name == "action" and s.actions == 1
    assert "play Village" in kit.legal(s)


@pytest.mark.rule("N-TURN-1")
def test_card_is_played_even_if_it_cannot_do_everything(kit) -> None:
    s = kit.position(hand=["Village", "Smithy", "Moneylender", "Estate"])
    kit.act(s, "play Village")  # nothing to draw
    assert s.actions == 2 and kit.hand(s, 0) == {"Smithy": 1, "Moneylender": 1, "Estate": 1}
    kit.act(s, "play Smithy")
    kit.act(s, "play Moneylender")  # no Copper
    assert kit.names(s.players[0].in_play) == ["Village", "Smithy", "Moneylender"]
    assert s.phase_name == "buy" and s.coins == 0 and not s.trash


# ------------------------------------------------------------------ N-TURN-2


@pytest.mark.rule("N-TURN-2")
def test_buy_phase_plays_treasures_and_buys_to_discard(kit) -> None:
    s = kit.position(hand=["Copper", "Silver", "Silver", "Copper", "Estate", "Estate"],
                     deck=["Copper"] * 5)
    assert s.phase_name == "buy"
    assert s.coins == 6
    assert kit.bag(s.players[0].in_play) == {"Copper": 2, "Silver": 2}
    assert kit.hand(s, 0) == {"Estate": 2}
    before = s.supply[kit.card("Gold")]
    legal = kit.legal(s)
    assert "buy Gold" in legal and "buy Duchy" in legal and "buy Province" not in legal
    kit.act(s, "buy Gold")
    # One Buy: the turn is over. The Gold is in the discard pile, not in hand or deck.
    assert s.turn_player == 1
    assert s.supply[kit.card("Gold")] == before - 1
    assert kit.bag(s.players[0].discard)["Gold"] == 1
    assert kit.bag(s.players[0].hand + s.players[0].deck)["Gold"] == 0
    assert s.players[0].owned[kit.card("Gold")] == 1


@pytest.mark.rule("N-TURN-2")
def test_coins_from_actions_and_extra_buys(kit) -> None:
    s = kit.position(hand=["Woodcutter", "Copper", "Copper", "Copper"], deck=["Estate"] * 5)
    kit.act(s, "play Woodcutter")
    assert s.phase_name == "buy" and s.coins == 5 and s.buys == 2
    kit.act(s, "buy Silver")
    assert s.turn_player == 0 and s.coins == 2 and s.buys == 1
    assert "buy Silver" not in kit.legal(s) and "buy Cellar" in kit.legal(s)
    kit.act(s, "buy Cellar")
    assert s.turn_player == 1
    assert kit.bag(s.players[0].discard)["Silver"] == 1
    assert kit.bag(s.players[0].discard)["Cellar"] == 1


@pytest.mark.rule("N-TURN-2")
def test_never_buy_from_the_trash(kit) -> None:
    s = kit.position(hand=["Copper"] * 5, supply={"Smithy": 0})
    s.trash.append(kit.card("Smithy"))
    assert "buy Smithy" not in kit.legal(s)
    with pytest.raises(IllegalActionError, match="Smithy pile is empty"):
        s.apply(parse("buy Smithy"))
    assert s.trash == [kit.card("Smithy")]


@pytest.mark.rule("N-TURN-2")
def test_end_in_buy_phase_buys_nothing(kit) -> None:
    s = kit.position(hand=["Gold"] * 3, deck=["Copper"] * 5)
    supply = s.supply[:]
    kit.act(s, "end")
    assert s.supply == supply and s.turn_player == 1


# ------------------------------------------------------------------ N-TURN-3


@pytest.mark.rule("N-TURN-3")
def test_cleanup_discards_everything_and_draws_5(kit) -> None:
    s = kit.position(hand=["Village", "Copper", "Estate"],
                     deck=["Silver", "Gold", "Estate", "Copper", "Copper", "Duchy", "Province"],
                     discard=["Curse"])
    kit.act(s, "play Village")
    assert s.phase_name == "buy" and s.coins == 3
    kit.act(s, "end")
    p0 = s.players[0]
    assert kit.bag(p0.discard) == {"Curse": 1, "Village": 1, "Copper": 1, "Silver": 1,
                                   "Estate": 1}
    assert kit.bag(p0.hand) == {"Gold": 1, "Estate": 1, "Copper": 2, "Duchy": 1}
    assert kit.top(s, 0) == ["Province"]
    assert not p0.in_play and not p0.aside
    assert s.turn_player == 1 and s.turn_number == 2 and s.players[1].turns == 1
    assert s.actions == 1 and s.buys == 1


@pytest.mark.rule("N-TURN-3", "N-TURN-4")
def test_cleanup_draw_reshuffles_the_cards_just_discarded(kit) -> None:
    s = kit.position(hand=["Copper", "Copper", "Estate"], deck=["Gold", "Gold"],
                     discard=["Duchy"])
    kit.act(s, "end")
    p0 = s.players[0]
    # 2 Gold drawn, then the discard pile (with this turn's cards) shuffled; 3 more drawn.
    assert kit.bag(p0.hand)["Gold"] == 2 and len(p0.hand) == 5
    assert kit.bag(p0.hand + p0.deck) == {"Gold": 2, "Copper": 2, "Estate": 1, "Duchy": 1}
    assert len(p0.deck) == 1 and not p0.discard


# ------------------------------------------------------------------ N-TURN-4


@pytest.mark.rule("N-TURN-4")
def test_reshuffle_only_when_a_card_must_be_drawn(kit) -> None:
    s = kit.position(hand=["Smithy"], deck=["Duchy", "Duchy", "Duchy"],
                     discard=["Estate", "Estate"], log=True)
    kit.act(s, "play Smithy")
    assert kit.hand(s, 0) == {"Duchy": 3}
    assert kit.bag(s.players[0].discard) == {"Estate": 2}  # not shuffled
    assert not kit.events(s, G.EV_SHUFFLE)


@pytest.mark.rule("N-TURN-4")
def test_no_reshuffle_when_nothing_is_drawn(kit) -> None:
    s = kit.position(hand=["Cellar", "Smithy"], discard=["Estate", "Gold"], log=True)
    kit.act(s, "play Cellar", "done")  # discards nothing, so draws nothing
    assert not s.players[0].deck and kit.names(s.players[0].discard) == ["Estate", "Gold"]
    assert not kit.events(s, G.EV_SHUFFLE)
    kit.act(s, "play Smithy")
    assert len(kit.events(s, G.EV_SHUFFLE)) == 1


@pytest.mark.rule("N-TURN-4")
def test_draw_from_short_deck_shuffles_discard(kit) -> None:
    s = kit.position(hand=["Smithy"], deck=["Duchy", "Duchy"],
                     discard=["Estate", "Estate", "Estate"], log=True)
    kit.act(s, "play Smithy")
    # The deck's 2 cards first, then one card of the shuffled discard pile.
    assert kit.hand(s, 0) == {"Duchy": 2, "Estate": 1}
    assert kit.top(s, 0) == ["Estate", "Estate"]
    assert not s.players[0].discard
    assert len(kit.events(s, G.EV_SHUFFLE)) == 1


@pytest.mark.rule("N-TURN-4")
def test_not_enough_cards_draws_what_there_is(kit) -> None:
    s = kit.position(hand=["Smithy"], deck=["Duchy"], discard=["Estate"])
    kit.act(s, "play Smithy")
    assert kit.hand(s, 0) == {"Duchy": 1, "Estate": 1}
    assert not s.players[0].deck and not s.players[0].discard
    assert s.draw(0, 3) == 0


# ------------------------------------------------------------------ N-TURN-5


@pytest.mark.rule("N-TURN-5")
def test_gain_goes_to_discard_and_trash_to_trash(kit) -> None:
    s = kit.position(hand=["Workshop", "Estate"], deck=["Copper"] * 5)
    kit.act(s, "play Workshop", "gain Smithy")
    p0 = s.players[0]
    assert kit.names(p0.discard) == ["Smithy"]
    assert p0.owned[kit.card("Smithy")] == 1
    s2 = kit.position(hand=["Chapel", "Estate", "Copper"], deck=["Copper"] * 5)
    kit.act(s2, "play Chapel", "trash Estate", "done")
    assert kit.names(s2.trash) == ["Estate"]
    assert s2.players[0].owned[kit.card("Estate")] == 0


@pytest.mark.rule("N-TURN-5")
def test_reveal_returns_the_card(kit) -> None:
    # Spy: the revealed card is shown (public) and, if kept, returns to the deck top.
    s = kit.position(kingdom="interaction", hand=["Spy"], deck=["Copper", "Gold"],
                     others={1: {"hand": ["Estate"] * 5, "deck": ["Silver"]}})
    kit.act(s, "play Spy")
    assert kit.kind(s) == "spy" and s.view(1)["piles"][0]["aside"] == ["Gold"]
    kit.act(s, "keep Gold")
    assert kit.top(s, 0) == ["Gold"] and not s.players[0].aside


# ------------------------------------------------------------------ N-TURN-6


@pytest.mark.rule("N-TURN-6")
@pytest.mark.parametrize("active", [0, 2, 3])
def test_attack_victims_in_clockwise_order(kit, active: int) -> None:
    hand5 = {"hand": ["Copper", "Copper", "Estate", "Estate", "Silver"]}
    others = {q: hand5 for q in range(4) if q != active}
    s = kit.position(players=4, p=active, hand=["Militia"], others=others)
    kit.act(s, "play Militia")
    order = []
    while s.phase_name == "action" and kit.kind(s) == "militia":
        order.append(s.current_player())
        kit.act(s, "discard Estate", "discard Estate")
    assert order == [(active + i) % 4 for i in (1, 2, 3)]


@pytest.mark.rule("N-TURN-6", "N-CARD-COUNCILROOM")
def test_council_room_draws_in_turn_order(kit) -> None:
    s = kit.position(players=3, kingdom="interaction", p=1, hand=["Council Room"],
                     deck=["Copper"] * 4, others={2: {"deck": ["Gold"]}, 0: {"deck": ["Duchy"]}},
                     log=True)
    kit.act(s, "play Council Room")
    draws = [(e[1], e[3]) for e in kit.events(s, G.EV_DRAW)]
    assert draws[-3:] == [(1, 4), (2, 1), (0, 1)]
    assert kit.hand(s, 2) == {"Gold": 1} and kit.hand(s, 0) == {"Duchy": 1}


# ------------------------------------------------------------------ N-END-1


@pytest.mark.rule("N-END-1")
def test_game_ends_when_last_province_is_bought(kit) -> None:
    s = kit.position(hand=["Gold", "Gold", "Silver"], supply={"Province": 1})
    kit.act(s, "buy Province")
    assert s.is_terminal() and s.reason == "provinces"
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    assert s.outcome() is not None


@pytest.mark.rule("N-END-1")
def test_game_ends_at_end_of_turn_not_at_once(kit) -> None:
    s = kit.position(hand=["Woodcutter", "Gold", "Gold", "Silver"], supply={"Province": 1})
    kit.act(s, "play Woodcutter", "buy Province")
    assert not s.is_terminal() and s.outcome() is None
    assert s.turn_player == 0 and s.phase_name == "buy" and s.coins == 2
    kit.act(s, "buy Cellar")
    assert s.is_terminal() and s.reason == "provinces"


@pytest.mark.rule("N-END-1")
def test_game_ends_when_three_supply_piles_are_empty(kit) -> None:
    s = kit.position(hand=["Copper"] * 4, buys=3, supply={"Cellar": 1, "Moat": 1, "Curse": 1})
    kit.act(s, "buy Cellar", "buy Moat")
    assert s.empty_piles == 2 and not s.is_terminal()
    kit.act(s, "buy Curse")
    assert s.is_terminal() and s.reason == "three-piles"


@pytest.mark.rule("N-END-1")
def test_two_empty_piles_do_not_end_the_game(kit) -> None:
    s = kit.position(hand=["Copper"] * 4, buys=2, supply={"Cellar": 1, "Moat": 1})
    kit.act(s, "buy Cellar", "buy Moat")
    assert not s.is_terminal() and s.turn_player == 1


@pytest.mark.rule("N-END-1")
def test_max_turns_cap_is_every_players_turns(kit) -> None:
    s = kit.new(players=3, seed=4, max_turns=2)
    while not s.is_terminal():
        s.apply(s.legal_actions()[-1])  # always "end" (or the only choice)
    assert s.reason == "turn-limit"
    assert [ps.turns for ps in s.players] == [2, 2, 2]


# ------------------------------------------------------------------ N-END-2


@pytest.mark.rule("N-END-2")
def test_score_counts_every_owned_card(kit) -> None:
    s = kit.position(hand=["Village", "Estate"], deck=["Province", "Curse"],
                     discard=["Duchy", "Duchy", "Curse"])
    assert s.score(0) == 1 + 6 + 6 - 2
    s.players[0].aside.append(kit.card("Estate"))
    kit.recount(s, 0)
    assert s.score(0) == 12


def _finish(kit, s) -> None:
    """The active player (with 8+ coins) buys the last Province."""
    kit.act(s, "buy Province")
    assert s.is_terminal()


@pytest.mark.rule("N-END-2")
def test_highest_score_wins(kit) -> None:
    s = kit.position(hand=["Gold", "Gold", "Silver"], supply={"Province": 1},
                     others={1: {"deck": ["Duchy", "Duchy", "Estate"]}})
    _finish(kit, s)
    out = s.outcome()
    assert out.scores == (6, 7) and out.winners == (1,) and out.ranks == (2, 1)


@pytest.mark.rule("N-END-2")
def test_tie_goes_to_fewer_turns(kit) -> None:
    s = kit.position(hand=["Gold", "Gold", "Silver"], supply={"Province": 1},
                     others={1: {"deck": ["Duchy", "Duchy"]}}, turns={0: 5, 1: 4})
    _finish(kit, s)
    out = s.outcome()
    assert out.scores == (6, 6) and out.turns == (5, 4)
    assert out.winners == (1,) and not out.is_shared_win and out.ranks == (2, 1)


@pytest.mark.rule("N-END-2")
def test_tie_with_equal_turns_is_a_shared_win(kit) -> None:
    s = kit.position(players=3, p=2, hand=["Gold", "Gold", "Silver"], supply={"Province": 1},
                     others={0: {"deck": ["Duchy", "Duchy"]}, 1: {"deck": ["Estate"]}},
                     turns={0: 7, 1: 7, 2: 7})
    _finish(kit, s)
    out = s.outcome()
    assert out.scores == (6, 1, 6)
    assert out.is_shared_win and out.winners == (0, 2) and out.ranks == (1, 3, 1)


# ------------------------------------------------------------------ illegal actions


def _refused(kit, s, text: str | Action, match: str) -> None:
    before = kit.snapshot(s)
    action = parse(text) if isinstance(text, str) else text
    assert not s.is_legal(action)
    with pytest.raises(IllegalActionError, match=match):
        s.apply(action)
    assert kit.snapshot(s) == before


@pytest.mark.rule("N-TURN-1", "N-TURN-2")
def test_illegal_wrong_phase(kit) -> None:
    s = kit.position(hand=["Village", "Copper"], deck=["Copper"] * 5)
    _refused(kit, s, "buy Copper", "action phase")
    _refused(kit, s, "discard Copper", "action phase")
    kit.act(s, "end")
    _refused(kit, s, "play Village", "buy phase")


@pytest.mark.rule("N-TURN-1")
def test_illegal_card_not_in_hand_or_not_an_action(kit) -> None:
    s = kit.position(hand=["Village", "Copper"], deck=["Copper"] * 5)
    _refused(kit, s, "play Smithy", "Smithy is not in your hand")
    _refused(kit, s, "play Copper", "Copper is not an Action card")
    _refused(kit, s, "play Village Village", "exactly one card")
    _refused(kit, s, Action("end", (kit.card("Copper"),)), "takes no card")


@pytest.mark.rule("N-TURN-1")
def test_illegal_no_actions_left(kit) -> None:
    s = kit.position(hand=["Village", "Copper"], deck=["Copper"] * 5)
    s.actions = 0  # set by hand: the engine itself leaves the action phase at 0 Actions
    _refused(kit, s, "play Village", "no Actions left")


@pytest.mark.rule("N-TURN-2")
def test_illegal_too_expensive_empty_pile_not_in_supply(kit) -> None:
    s = kit.position(hand=["Copper", "Copper", "Copper"], supply={"Village": 0})
    assert s.phase_name == "buy" and s.coins == 3
    _refused(kit, s, "buy Province", "Province costs 8 but you have 3 coins")
    _refused(kit, s, "buy Village", "the Village pile is empty")
    _refused(kit, s, "buy Witch", "Witch is not in this game's Supply")
    _refused(kit, s, "buy Silver Silver", "exactly one card")


@pytest.mark.rule("N-TURN-2")
def test_illegal_no_buys_left(kit) -> None:
    s = kit.position(hand=["Copper", "Copper", "Copper"])
    s.buys = 0
    _refused(kit, s, "buy Copper", "no Buys left")


@pytest.mark.rule("N-TURN-2")
def test_illegal_malformed_actions_in_buy_phase(kit) -> None:
    s = kit.position(hand=["Copper", "Copper", "Copper"])
    _refused(kit, s, Action("buy", ()), "exactly one card")
    before = kit.snapshot(s)
    with pytest.raises(IllegalActionError, match=r"takes an Action, not the text .buy Copper."):
        s.apply("buy Copper")  # type: ignore[arg-type]
    assert kit.snapshot(s) == before


@pytest.mark.rule("N-TURN-1")
def test_illegal_answer_to_a_decision(kit) -> None:
    s = kit.position(hand=["Cellar", "Estate", "Copper"], deck=["Copper"] * 5)
    kit.act(s, "play Cellar")
    _refused(kit, s, "discard Gold", "cellar decision")
    _refused(kit, s, "discard Estate Estate", "1 Estate in hand, not 2")
    _refused(kit, s, "end", "legal: discard Copper, discard Estate, done")


@pytest.mark.rule("N-END-1")
def test_illegal_after_game_over(kit) -> None:
    s = kit.position(hand=["Gold", "Gold", "Silver"], supply={"Province": 1})
    kit.act(s, "buy Province")
    _refused(kit, s, "end", "the game is over")
