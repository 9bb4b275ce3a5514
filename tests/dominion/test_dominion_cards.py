"""The non-Attack kingdom cards: basic effects and the rulebook's rulings (N-CARD)."""

from __future__ import annotations

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominion import events as G
from dominari.dominion.actions import parse

FIRST_GAME_UP_TO_4 = [
    "gain Copper", "gain Silver", "gain Estate", "gain Curse", "gain Cellar", "gain Militia",
    "gain Moat", "gain Remodel", "gain Smithy", "gain Village", "gain Woodcutter",
    "gain Workshop",
]  # fmt: skip
FIRST_GAME_UP_TO_5 = [
    "gain Copper", "gain Silver", "gain Estate", "gain Duchy", "gain Curse", "gain Cellar",
    "gain Market", "gain Militia", "gain Mine", "gain Moat", "gain Remodel", "gain Smithy",
    "gain Village", "gain Woodcutter", "gain Workshop",
]  # fmt: skip


def plays(kit, s) -> list[str]:
    return [kit.names([e[2]])[0] for e in kit.events(s, G.EV_PLAY)]


# ------------------------------------------------------------------ +Cards / +Actions


def test_smithy_draws_3(kit) -> None:
    s = kit.position(hand=["Smithy"], deck=["Estate", "Duchy", "Province", "Gold"])
    kit.act(s, "play Smithy")
    assert kit.held(s, 0) == {"Estate": 1, "Duchy": 1, "Province": 1}
    assert kit.top(s, 0) == ["Gold"]


def test_moat_draws_2(kit) -> None:
    s = kit.position(hand=["Moat"], deck=["Estate", "Duchy", "Gold"])
    kit.act(s, "play Moat")
    assert kit.held(s, 0) == {"Estate": 1, "Duchy": 1}
    assert kit.top(s, 0) == ["Gold"]


def test_village_card_and_2_actions(kit) -> None:
    s = kit.position(hand=["Village", "Smithy"], deck=["Estate"] * 5)
    kit.act(s, "play Village")
    assert s.actions == 2 and s.phase_name == "action"
    assert kit.hand(s, 0) == {"Smithy": 1, "Estate": 1}


def test_laboratory_2_cards_1_action(kit) -> None:
    s = kit.position(hand=["Laboratory", "Smithy"], deck=["Estate", "Duchy", "Gold"])
    kit.act(s, "play Laboratory")
    assert s.actions == 1 and s.phase_name == "action"
    assert kit.hand(s, 0) == {"Smithy": 1, "Estate": 1, "Duchy": 1}


def test_market_card_action_buy_coin(kit) -> None:
    s = kit.position(hand=["Market", "Copper"], deck=["Estate", "Gold"])
    kit.act(s, "play Market")
    assert kit.held(s, 0) == {"Copper": 1, "Estate": 1}
    assert s.actions == 1 and s.buys == 2 and s.coins == 2


def test_festival_actions_buy_coins(kit) -> None:
    s = kit.position(hand=["Festival", "Copper"])
    kit.act(s, "play Festival")
    assert s.phase_name == "buy"
    assert s.actions == 2 and s.buys == 2 and s.coins == 3


def test_woodcutter_buy_and_coins(kit) -> None:
    s = kit.position(hand=["Woodcutter", "Copper"])
    kit.act(s, "play Woodcutter")
    assert s.buys == 2 and s.coins == 3 and s.actions == 0


@pytest.mark.rule("N-CARD-COUNCILROOM")
def test_council_room_others_must_draw(kit) -> None:
    s = kit.position(players=3, hand=["Council Room"], deck=["Estate"] * 4 + ["Gold"],
                     others={1: {"deck": ["Copper", "Duchy"]}, 2: {"discard": ["Silver"]}})
    kit.act(s, "play Council Room")
    assert kit.held(s, 0) == {"Estate": 4}
    assert s.buys == 2
    assert kit.hand(s, 1) == {"Copper": 1} and kit.top(s, 1) == ["Duchy"]
    # Player 2 has no deck: the discard pile is shuffled to draw.
    assert kit.hand(s, 2) == {"Silver": 1} and not s.players[2].discard


# ------------------------------------------------------------------ Adventurer


def test_adventurer_digs_for_2_treasures(kit) -> None:
    s = kit.position(hand=["Adventurer"], deck=["Estate", "Copper", "Village", "Silver", "Gold"])
    kit.act(s, "play Adventurer")
    assert kit.held(s, 0) == {"Copper": 1, "Silver": 1}
    assert kit.bag(s.players[0].discard) == {"Estate": 1, "Village": 1}
    assert kit.top(s, 0) == ["Gold"]
    assert s.coins == 3 and not s.players[0].aside


@pytest.mark.rule("N-CARD-ADVENTURER", "N-TURN-4")
def test_adventurer_reshuffle_excludes_revealed_and_one_treasure(kit) -> None:
    s = kit.position(hand=["Adventurer"], deck=["Estate"], discard=["Duchy", "Copper"],
                     log=True)
    kit.act(s, "play Adventurer")
    # Estate revealed, then the discard pile (without it) shuffled; only one Treasure.
    assert kit.held(s, 0) == {"Copper": 1}
    assert kit.bag(s.players[0].discard) == {"Estate": 1, "Duchy": 1}
    assert not s.players[0].deck and not s.players[0].aside
    revealed = [kit.names([e[2]])[0] for e in kit.events(s, G.EV_REVEAL)]
    assert sorted(revealed) == ["Copper", "Duchy", "Estate"]
    assert revealed[0] == "Estate"
    assert len(kit.events(s, G.EV_SHUFFLE)) == 1


@pytest.mark.rule("N-CARD-ADVENTURER")
def test_adventurer_with_no_treasure_at_all(kit) -> None:
    s = kit.position(hand=["Adventurer"], deck=["Estate", "Duchy"], discard=["Village"])
    kit.act(s, "play Adventurer")
    assert kit.held(s, 0) == {}
    assert kit.bag(s.players[0].discard) == {"Estate": 1, "Duchy": 1, "Village": 1}
    assert not s.players[0].deck


# ------------------------------------------------------------------ Cellar


@pytest.mark.rule("N-CARD-CELLAR")
def test_cellar_discards_then_draws_as_many(kit) -> None:
    s = kit.position(hand=["Cellar", "Estate", "Estate", "Copper", "Smithy"],
                     deck=["Silver", "Gold", "Duchy"])
    kit.act(s, "play Cellar")
    assert s.current_player() == 0 and kit.kind(s) == "cellar"
    assert kit.legal(s) == ["discard Copper", "discard Estate", "discard Smithy", "done"]
    kit.act(s, "discard Estate", "discard Estate")
    assert kit.hand(s, 0) == {"Copper": 1, "Smithy": 1}  # nothing drawn yet
    kit.act(s, "done")
    assert kit.hand(s, 0) == {"Copper": 1, "Smithy": 1, "Silver": 1, "Gold": 1}
    assert kit.bag(s.players[0].discard) == {"Estate": 2}
    assert s.actions == 1 and s.phase_name == "action"


@pytest.mark.rule("N-CARD-CELLAR")
def test_cellar_discard_several_at_once(kit) -> None:
    s = kit.position(hand=["Cellar", "Estate", "Estate", "Copper", "Smithy"],
                     deck=["Silver", "Gold", "Duchy"])
    kit.act(s, "play Cellar", "discard Estate Estate Copper")
    assert kit.hand(s, 0) == {"Smithy": 1, "Silver": 1, "Gold": 1, "Duchy": 1}
    assert kit.bag(s.players[0].discard) == {"Estate": 2, "Copper": 1}
    assert s.phase_name == "action"


@pytest.mark.rule("N-CARD-CELLAR")
def test_cellar_cannot_discard_itself(kit) -> None:
    s = kit.position(hand=["Cellar", "Estate"], deck=["Gold"])
    kit.act(s, "play Cellar")
    assert "discard Cellar" not in kit.legal(s)
    with pytest.raises(IllegalActionError):
        s.apply(parse("discard Cellar"))


@pytest.mark.rule("N-CARD-CELLAR", "N-TURN-4")
def test_cellar_reshuffle_includes_the_discarded_cards(kit) -> None:
    s = kit.position(hand=["Cellar", "Estate", "Estate", "Smithy"], discard=["Gold"])
    kit.act(s, "play Cellar", "discard Estate Estate")
    p0 = s.players[0]
    assert len(p0.hand) == 3 and len(p0.deck) == 1 and not p0.discard
    assert kit.bag(p0.hand + p0.deck) == {"Smithy": 1, "Estate": 2, "Gold": 1}


# ------------------------------------------------------------------ Chancellor


@pytest.mark.rule("N-CARD-CHANCELLOR")
def test_chancellor_decides_at_once_and_puts_deck_into_discard(kit) -> None:
    s = kit.position(hand=["Chancellor", "Copper"], deck=["Estate", "Gold"],
                     discard=["Silver"])
    kit.act(s, "play Chancellor")
    assert s.current_player() == 0 and kit.kind(s) == "chancellor"
    assert kit.legal(s) == ["discard-deck", "pass"]
    for early in ("end", "buy Copper"):
        with pytest.raises(IllegalActionError):
            s.apply(parse(early))
    kit.act(s, "discard-deck")
    assert not s.players[0].deck
    assert kit.bag(s.players[0].discard) == {"Silver": 1, "Estate": 1, "Gold": 1}
    assert s.phase_name == "buy" and s.coins == 3


def test_chancellor_pass_keeps_the_deck(kit) -> None:
    s = kit.position(hand=["Chancellor"], deck=["Estate", "Gold"])
    kit.act(s, "play Chancellor", "pass")
    assert kit.top(s, 0) == ["Estate", "Gold"] and s.coins == 2


@pytest.mark.rule("N-CARD-CHANCELLOR")
def test_chancellor_with_empty_deck_asks_nothing(kit) -> None:
    s = kit.position(hand=["Chancellor"], discard=["Silver"])
    kit.act(s, "play Chancellor")
    assert s.phase_name == "buy" and s.coins == 2 and not s.stack


# ------------------------------------------------------------------ Chapel


@pytest.mark.rule("N-CARD-CHAPEL")
def test_chapel_trashes_up_to_4_not_itself(kit) -> None:
    s = kit.position(hand=["Chapel", "Estate", "Estate", "Copper", "Copper", "Curse"])
    kit.act(s, "play Chapel")
    assert kit.legal(s) == ["trash Copper", "trash Estate", "trash Curse", "done"]
    kit.act(s, "trash Curse", "trash Estate", "trash Estate", "trash Copper")
    # The fourth card ends the Chapel by itself.
    assert kit.bag(s.trash) == {"Curse": 1, "Estate": 2, "Copper": 1}
    assert kit.held(s, 0) == {"Copper": 1}
    assert s.players[0].owned[kit.card("Estate")] == 0
    assert kit.names(s.players[0].in_play)[0] == "Chapel"


@pytest.mark.rule("N-CARD-CHAPEL")
def test_chapel_selection_at_once_and_limit(kit) -> None:
    s = kit.position(hand=["Chapel", "Estate", "Estate", "Copper", "Copper", "Curse"])
    kit.act(s, "play Chapel")
    with pytest.raises(IllegalActionError, match="at most 4"):
        s.apply(parse("trash Estate Estate Copper Copper Curse"))
    kit.act(s, "trash Estate Curse")
    assert kit.bag(s.trash) == {"Estate": 1, "Curse": 1}
    assert kit.held(s, 0) == {"Estate": 1, "Copper": 2}
    assert not s.stack


@pytest.mark.rule("N-CARD-CHAPEL")
def test_chapel_may_trash_another_chapel_or_nothing(kit) -> None:
    s = kit.position(hand=["Chapel", "Chapel", "Estate"])
    kit.act(s, "play Chapel")
    assert "trash Chapel" in kit.legal(s)
    kit.act(s, "trash Chapel", "done")
    assert kit.names(s.trash) == ["Chapel"]
    assert kit.hand(s, 0) == {"Estate": 1}
    s2 = kit.position(hand=["Chapel", "Estate"])
    kit.act(s2, "play Chapel", "done")
    assert not s2.trash and kit.hand(s2, 0) == {"Estate": 1}


# ------------------------------------------------------------------ Feast


@pytest.mark.rule("N-CARD-FEAST")
def test_feast_trashes_itself_and_gains_up_to_5(kit) -> None:
    s = kit.position(hand=["Feast", "Gold", "Gold"])
    kit.act(s, "play Feast")
    assert kit.names(s.trash) == ["Feast"] and not s.players[0].in_play
    assert s.players[0].owned[kit.card("Feast")] == 0
    # Coins in hand do not raise the limit.
    assert kit.legal(s) == FIRST_GAME_UP_TO_5
    kit.act(s, "gain Duchy")
    assert kit.names(s.players[0].discard) == ["Duchy"]


@pytest.mark.rule("N-CARD-FEAST")
def test_feast_gains_from_the_supply_only(kit) -> None:
    s = kit.position(hand=["Feast"], supply={"Duchy": 0, "Market": 0})
    s.trash.append(kit.card("Duchy"))
    kit.act(s, "play Feast")
    assert "gain Duchy" not in kit.legal(s) and "gain Market" not in kit.legal(s)
    with pytest.raises(IllegalActionError):
        s.apply(parse("gain Duchy"))


# ------------------------------------------------------------------ Gardens


@pytest.mark.rule("N-CARD-GARDENS", "N-END-2")
def test_gardens_one_vp_per_10_cards(kit) -> None:
    s = kit.position(hand=["Gardens", "Copper"], deck=["Copper"] * 16, discard=["Gardens"])
    assert sum(s.players[0].owned) == 19 and s.score(0) == 2
    s.players[0].discard.append(kit.card("Curse"))
    kit.recount(s, 0)
    assert s.score(0) == 2 * 2 - 1
    s.players[0].discard += [kit.card("Copper")] * 19
    kit.recount(s, 0)
    assert s.score(0) == 2 * 3 - 1


@pytest.mark.rule("N-CARD-GARDENS")
def test_gardens_counts_all_owned_cards_at_game_end(kit) -> None:
    s = kit.position(kingdom="size-distortion", hand=["Gold", "Gold", "Silver", "Gardens"],
                     deck=["Copper"] * 10, discard=["Estate"] * 5 + ["Gardens"],
                     supply={"Province": 1})
    kit.act(s, "buy Province")
    assert s.is_terminal()
    # 4 + 10 + 6 + the Province = 21 cards: 2 Gardens x 2 + 5 Estates + 1 Province.
    assert sum(s.players[0].owned) == 21
    assert s.outcome().scores[0] == 2 * 2 + 5 + 6


# ------------------------------------------------------------------ Library


def test_library_draws_to_7_setting_aside_actions(kit) -> None:
    s = kit.position(hand=["Library", "Copper", "Copper", "Copper", "Estate"],
                     deck=["Silver", "Village", "Gold", "Copper", "Duchy"])
    kit.act(s, "play Library")
    assert s.current_player() == 0 and kit.kind(s) == "library"
    assert kit.legal(s) == ["set-aside Village", "keep Village"]
    kit.act(s, "set-aside Village")
    assert kit.held(s, 0) == {"Copper": 4, "Estate": 1, "Silver": 1, "Gold": 1}
    assert kit.names(s.players[0].discard) == ["Village"]
    assert kit.top(s, 0) == ["Duchy"] and not s.players[0].aside


@pytest.mark.rule("N-CARD-LIBRARY")
def test_library_skipping_an_action_is_optional(kit) -> None:
    s = kit.position(hand=["Library", "Copper", "Copper", "Copper", "Estate"],
                     deck=["Silver", "Village", "Gold", "Copper", "Duchy"])
    kit.act(s, "play Library", "keep Village")
    assert kit.held(s, 0) == {"Copper": 3, "Estate": 1, "Silver": 1, "Village": 1, "Gold": 1}
    assert kit.top(s, 0) == ["Copper", "Duchy"] and not s.players[0].discard


@pytest.mark.rule("N-CARD-LIBRARY", "N-TURN-4")
def test_library_set_aside_cards_are_not_reshuffled(kit) -> None:
    s = kit.position(hand=["Library", "Estate"], deck=["Village"], discard=["Copper", "Copper"])
    kit.act(s, "play Library", "set-aside Village")
    assert kit.held(s, 0) == {"Estate": 1, "Copper": 2}
    assert kit.names(s.players[0].discard) == ["Village"]
    assert not s.players[0].deck and not s.players[0].aside


@pytest.mark.rule("N-CARD-LIBRARY")
def test_library_with_7_in_hand_draws_nothing(kit) -> None:
    s = kit.position(hand=["Library"] + ["Estate"] * 7, deck=["Gold"])
    kit.act(s, "play Library")
    assert kit.hand(s, 0) == {"Estate": 7} and kit.top(s, 0) == ["Gold"]


def test_library_with_empty_deck_and_discard(kit) -> None:
    s = kit.position(hand=["Library", "Estate"])
    kit.act(s, "play Library")
    assert kit.hand(s, 0) == {"Estate": 1} and not s.stack and s.phase_name == "buy"


# ------------------------------------------------------------------ Mine


@pytest.mark.rule("N-CARD-MINE")
def test_mine_copper_to_silver_into_hand(kit) -> None:
    s = kit.position(hand=["Mine", "Copper", "Estate"], deck=["Estate"] * 5)
    silver = s.supply[kit.card("Silver")]
    kit.act(s, "play Mine")
    # One Treasure: trashed without asking; then the choice of Treasure up to 3.
    assert kit.names(s.trash) == ["Copper"]
    assert kit.kind(s) == "mine-gain" and kit.legal(s) == ["gain Copper", "gain Silver"]
    kit.act(s, "gain Silver")
    assert kit.held(s, 0) == {"Silver": 1, "Estate": 1}
    assert s.coins == 2  # the gained Silver is in hand, so it is spent this turn
    assert s.supply[kit.card("Silver")] == silver - 1
    assert not s.players[0].discard


@pytest.mark.rule("N-CARD-MINE")
def test_mine_choose_treasure_silver_to_gold(kit) -> None:
    s = kit.position(hand=["Mine", "Copper", "Silver"])
    kit.act(s, "play Mine")
    assert kit.legal(s) == ["trash Copper", "trash Silver"]
    kit.act(s, "trash Silver")
    assert kit.legal(s) == ["gain Copper", "gain Silver", "gain Gold"]
    kit.act(s, "gain Gold")
    assert kit.held(s, 0) == {"Copper": 1, "Gold": 1} and kit.names(s.trash) == ["Silver"]


@pytest.mark.rule("N-CARD-MINE")
def test_mine_without_treasure_does_nothing(kit) -> None:
    s = kit.position(hand=["Mine", "Estate"])
    kit.act(s, "play Mine")
    assert not s.trash and kit.hand(s, 0) == {"Estate": 1} and not s.stack


@pytest.mark.rule("N-CARD-MINE")
def test_mine_gains_nothing_from_empty_piles(kit) -> None:
    s = kit.position(hand=["Mine", "Copper", "Estate"], supply={"Copper": 0, "Silver": 0})
    kit.act(s, "play Mine")
    assert kit.names(s.trash) == ["Copper"]
    assert kit.held(s, 0) == {"Estate": 1}
    assert s.players[0].owned[kit.card("Copper")] == 0


# ------------------------------------------------------------------ Moneylender


@pytest.mark.rule("N-CARD-MONEYLENDER")
def test_moneylender_trashes_one_copper_for_3(kit) -> None:
    s = kit.position(hand=["Moneylender", "Copper", "Copper", "Estate"])
    kit.act(s, "play Moneylender")
    assert kit.names(s.trash) == ["Copper"]
    assert s.coins == 3 + 1
    assert s.players[0].owned[kit.card("Copper")] == 1


@pytest.mark.rule("N-CARD-MONEYLENDER")
def test_moneylender_without_copper_gives_nothing(kit) -> None:
    s = kit.position(hand=["Moneylender", "Silver", "Estate"])
    kit.act(s, "play Moneylender")
    assert not s.trash and s.coins == 2


# ------------------------------------------------------------------ Remodel


@pytest.mark.rule("N-CARD-REMODEL")
def test_remodel_trash_and_gain_up_to_2_more(kit) -> None:
    s = kit.position(hand=["Remodel", "Estate", "Gold"])
    kit.act(s, "play Remodel")
    assert s.current_player() == 0 and kit.legal(s) == ["trash Gold", "trash Estate"]
    kit.act(s, "trash Estate")
    assert kit.legal(s) == FIRST_GAME_UP_TO_4
    kit.act(s, "gain Smithy")
    assert kit.names(s.trash) == ["Estate"] and kit.names(s.players[0].discard) == ["Smithy"]
    s2 = kit.position(hand=["Remodel", "Estate", "Gold"])
    kit.act(s2, "play Remodel", "trash Gold")
    assert "gain Province" in kit.legal(s2)
    kit.act(s2, "gain Province")
    assert kit.names(s2.players[0].discard) == ["Province"]


@pytest.mark.rule("N-CARD-REMODEL")
def test_remodel_cannot_trash_itself_and_may_gain_a_copy(kit) -> None:
    s = kit.position(hand=["Remodel", "Remodel", "Estate"])
    kit.act(s, "play Remodel")
    assert kit.legal(s) == ["trash Estate", "trash Remodel"]
    kit.act(s, "trash Remodel", "gain Remodel")
    assert kit.names(s.trash) == ["Remodel"]
    assert kit.names(s.players[0].discard) == ["Remodel"]
    assert kit.names(s.players[0].in_play) == ["Remodel"]


@pytest.mark.rule("N-CARD-REMODEL")
def test_remodel_with_nothing_to_trash_gains_nothing(kit) -> None:
    s = kit.position(hand=["Remodel"])
    supply = s.supply[:]
    kit.act(s, "play Remodel")
    assert not s.trash and not s.players[0].discard and s.supply == supply
    assert s.phase_name == "buy" and not s.stack


@pytest.mark.rule("N-CARD-REMODEL")
def test_remodel_with_only_empty_piles_in_range_gains_nothing(kit) -> None:
    empty = {"Copper": 0, "Curse": 0, "Estate": 0, "Cellar": 0, "Moat": 0}
    s = kit.position(hand=["Remodel", "Curse", "Gold", "Gold"], supply=empty)
    kit.act(s, "play Remodel", "trash Curse")
    assert kit.names(s.trash) == ["Curse"]
    assert not s.players[0].discard and not s.stack and s.phase_name == "buy"


# ------------------------------------------------------------------ Throne Room


@pytest.mark.rule("N-CARD-THRONEROOM")
def test_throne_room_plays_smithy_twice(kit) -> None:
    s = kit.position(hand=["Throne Room", "Smithy"], deck=["Estate"] * 7, log=True)
    kit.act(s, "play Throne Room")
    assert kit.hand(s, 0) == {"Estate": 6} and kit.top(s, 0) == ["Estate"]
    assert kit.names(s.players[0].in_play) == ["Throne Room", "Smithy"]
    assert plays(kit, s) == ["Throne Room", "Smithy", "Smithy"]


@pytest.mark.rule("N-CARD-THRONEROOM")
def test_throne_room_second_play_uses_no_action(kit) -> None:
    s = kit.position(hand=["Throne Room", "Village"], deck=["Estate"] * 3)
    kit.act(s, "play Throne Room")
    assert s.actions == 0 + 2 + 2
    s2 = kit.position(hand=["Throne Room", "Market"], deck=["Estate"] * 3)
    kit.act(s2, "play Throne Room")
    assert s2.actions == 2 and s2.buys == 3 and s2.coins == 2
    s3 = kit.position(hand=["Throne Room", "Woodcutter"])
    kit.act(s3, "play Throne Room")
    assert s3.buys == 3 and s3.coins == 4


@pytest.mark.rule("N-CARD-THRONEROOM")
def test_throne_room_on_throne_room(kit) -> None:
    s = kit.position(hand=["Throne Room", "Throne Room", "Smithy", "Village"],
                     deck=["Estate"] * 10, log=True)
    kit.act(s, "play Throne Room")
    assert kit.legal(s) == ["play Smithy", "play Throne Room", "play Village"]
    kit.act(s, "play Throne Room")
    assert kit.legal(s) == ["play Smithy", "play Village"]
    kit.act(s, "play Village")
    # The second Throne Room play must take another card: Smithy (the only one left).
    assert plays(kit, s) == ["Throne Room", "Throne Room", "Village", "Village",
                             "Throne Room", "Smithy", "Smithy"]
    assert kit.hand(s, 0) == {"Estate": 8}
    assert s.actions == 4
    assert kit.bag(s.players[0].in_play) == {"Throne Room": 2, "Village": 1, "Smithy": 1}


@pytest.mark.rule("N-CARD-THRONEROOM", "N-CARD-FEAST")
def test_throne_room_on_feast_gains_two_trashes_one(kit) -> None:
    s = kit.position(hand=["Throne Room", "Feast", "Feast"])
    kit.act(s, "play Throne Room")  # the only Action to choose: played without asking
    assert kit.names(s.trash) == ["Feast"]
    kit.act(s, "gain Duchy")
    assert kit.kind(s) == "gain"
    kit.act(s, "gain Market")
    assert kit.names(s.trash) == ["Feast"]
    assert kit.bag(s.players[0].discard) == {"Duchy": 1, "Market": 1}
    assert kit.names(s.players[0].in_play) == ["Throne Room"]
    assert kit.hand(s, 0) == {"Feast": 1}
    assert s.players[0].owned[kit.card("Feast")] == 1


@pytest.mark.rule("N-CARD-THRONEROOM")
def test_throne_room_without_action_does_nothing(kit) -> None:
    s = kit.position(hand=["Throne Room", "Copper"])
    kit.act(s, "play Throne Room")
    assert s.phase_name == "buy" and s.coins == 1 and not s.stack


# ------------------------------------------------------------------ Workshop


def test_workshop_gains_up_to_4(kit) -> None:
    s = kit.position(hand=["Workshop", "Gold", "Gold"])
    kit.act(s, "play Workshop")
    assert s.current_player() == 0 and kit.legal(s) == FIRST_GAME_UP_TO_4
    kit.act(s, "gain Silver")
    assert kit.names(s.players[0].discard) == ["Silver"]


def test_workshop_skips_empty_piles(kit) -> None:
    s = kit.position(hand=["Workshop"], supply={"Smithy": 0})
    kit.act(s, "play Workshop")
    assert "gain Smithy" not in kit.legal(s)
    before = kit.snapshot(s)
    with pytest.raises(IllegalActionError, match="gain decision"):
        s.apply(parse("gain Smithy"))
    assert kit.snapshot(s) == before
    assert s.gain(0, kit.card("Smithy")) is False
    assert s.players[0].owned[kit.card("Smithy")] == 0 and s.supply[kit.card("Smithy")] == 0


def test_workshop_with_every_pile_in_range_empty(kit) -> None:
    empty = {n.split()[1]: 0 for n in FIRST_GAME_UP_TO_4}
    s = kit.position(hand=["Workshop", "Gold", "Gold", "Gold"], supply=empty)
    kit.act(s, "play Workshop")
    assert not s.players[0].discard and not s.stack and s.phase_name == "buy"
