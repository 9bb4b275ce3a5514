"""Attacks (Bureaucrat, Militia, Spy, Thief, Witch) and Moat, with 2 to 4 players."""

from __future__ import annotations

import pytest

from dominari.core.errors import IllegalActionError
from dominari.dominion import events as G
from dominari.dominion.actions import parse

FIVE = ["Copper", "Copper", "Estate", "Estate", "Silver"]

# ------------------------------------------------------------------ Bureaucrat


def test_bureaucrat_silver_onto_deck_victim_topdecks_victory(kit) -> None:
    s = kit.position(kingdom="big-money", hand=["Bureaucrat"], deck=["Copper"],
                     others={1: {"hand": ["Estate"] + ["Copper"] * 4, "deck": ["Gold"]}})
    silver = s.supply[kit.card("Silver")]
    kit.act(s, "play Bureaucrat")
    assert kit.top(s, 0) == ["Silver", "Copper"]
    assert s.supply[kit.card("Silver")] == silver - 1
    assert s.players[0].owned[kit.card("Silver")] == 1
    assert kit.top(s, 1) == ["Estate", "Gold"] and kit.hand(s, 1) == {"Copper": 4}


@pytest.mark.rule("N-TURN-6")
def test_bureaucrat_four_players_each_victim_in_order(kit) -> None:
    s = kit.position(players=4, kingdom="big-money", p=3, hand=["Bureaucrat"], log=True,
                     others={0: {"hand": ["Estate", "Copper", "Copper"], "deck": ["Gold"]},
                             1: {"hand": ["Duchy", "Estate", "Copper"]},
                             2: {"hand": ["Copper"] * 5}})
    kit.act(s, "play Bureaucrat")
    # Player 0 has one kind of Victory card (no choice); player 1 chooses.
    assert s.current_player() == 1 and kit.kind(s) == "bureaucrat"
    assert kit.legal(s) == ["topdeck Estate", "topdeck Duchy"]
    kit.act(s, "topdeck Duchy")
    assert kit.top(s, 0) == ["Estate", "Gold"] and kit.top(s, 1) == ["Duchy"]
    assert kit.hand(s, 1) == {"Estate": 1, "Copper": 1}
    assert kit.hand(s, 2) == {"Copper": 5}
    topdecks = [(e[1], kit.names([e[2]])[0]) for e in kit.events(s, G.EV_TOPDECK)]
    assert topdecks == [(0, "Estate"), (1, "Duchy")]
    shown = kit.events(s, G.EV_REVEAL_HAND)
    assert [(e[1], kit.names(e[3])) for e in shown] == [(2, ["Copper"] * 5)]
    assert kit.top(s, 3) == ["Silver"]


def test_bureaucrat_gardens_is_a_victory_card(kit) -> None:
    s = kit.position(kingdom="size-distortion", hand=["Bureaucrat"],
                     others={1: {"hand": ["Gardens", "Curse", "Copper"]}})
    kit.act(s, "play Bureaucrat")
    assert kit.top(s, 1) == ["Gardens"] and kit.hand(s, 1) == {"Curse": 1, "Copper": 1}


@pytest.mark.rule("N-CARD-BUREAUCRAT")
def test_bureaucrat_with_empty_decks(kit) -> None:
    s = kit.position(players=3, hand=["Bureaucrat"], discard=["Gold"],
                     others={1: {"hand": ["Estate", "Copper"], "discard": ["Duchy"]},
                             2: {"hand": ["Province"]}})
    kit.act(s, "play Bureaucrat")
    assert kit.top(s, 0) == ["Silver"]
    assert kit.names(s.players[0].discard) == ["Gold"]
    assert kit.top(s, 1) == ["Estate"] and kit.names(s.players[1].discard) == ["Duchy"]
    assert kit.top(s, 2) == ["Province"] and not s.players[2].hand


def test_bureaucrat_with_empty_silver_pile_gains_nothing(kit) -> None:
    s = kit.position(hand=["Bureaucrat"], deck=["Copper"], supply={"Silver": 0},
                     others={1: {"hand": ["Estate"]}})
    kit.act(s, "play Bureaucrat")
    assert kit.top(s, 0) == ["Copper"] and s.players[0].owned[kit.card("Silver")] == 0
    assert kit.top(s, 1) == ["Estate"]


# ------------------------------------------------------------------ Militia


def test_militia_victim_decides_what_to_discard(kit) -> None:
    s = kit.position(hand=["Militia", "Copper"], others={1: {"hand": FIVE}})
    kit.act(s, "play Militia")
    assert s.current_player() == 1 and kit.kind(s) == "militia"
    assert kit.legal(s) == ["discard Copper", "discard Silver", "discard Estate"]
    before = kit.snapshot(s)
    with pytest.raises(IllegalActionError, match="exactly 3"):
        s.apply(parse("discard Copper Estate Estate"))
    with pytest.raises(IllegalActionError, match="1 Silver in hand, not 2"):
        s.apply(parse("discard Silver Silver"))
    assert kit.snapshot(s) == before
    kit.act(s, "discard Estate Estate")
    assert kit.hand(s, 1) == {"Copper": 2, "Silver": 1}
    assert kit.bag(s.players[1].discard) == {"Estate": 2}
    assert s.current_player() == 0 and s.phase_name == "buy" and s.coins == 3


def test_militia_one_card_at_a_time(kit) -> None:
    s = kit.position(hand=["Militia"], others={1: {"hand": [*FIVE, "Gold"]}})
    kit.act(s, "play Militia", "discard Copper", "discard Estate")
    assert kit.kind(s) == "militia" and s.current_player() == 1
    kit.act(s, "discard Estate")
    assert kit.hand(s, 1) == {"Copper": 1, "Silver": 1, "Gold": 1}
    assert s.current_player() == 0


@pytest.mark.rule("N-CARD-MILITIA", "N-TURN-6")
@pytest.mark.parametrize("players", [3, 4])
def test_militia_with_3_or_4_players(kit, players: int) -> None:
    others = {2: {"hand": FIVE}, 0: {"hand": ["Copper", "Estate", "Estate", "Gold"]}}
    if players == 4:
        others[3] = {"hand": ["Estate", "Estate", "Gold"]}  # 3 cards: discards nothing
    s = kit.position(players=players, p=1, hand=["Militia"], others=others)
    kit.act(s, "play Militia")
    assert s.current_player() == 2
    kit.act(s, "discard Estate Estate")
    assert s.current_player() == 0
    kit.act(s, "discard Estate")
    assert s.current_player() == 1 and s.phase_name == "buy" and s.coins == 2
    assert kit.hand(s, 0) == {"Copper": 1, "Estate": 1, "Gold": 1}
    assert kit.hand(s, 2) == {"Copper": 2, "Silver": 1}
    if players == 4:
        assert kit.hand(s, 3) == {"Estate": 2, "Gold": 1} and not s.players[3].discard


@pytest.mark.rule("N-CARD-MILITIA")
def test_militia_victims_with_3_or_fewer_cards(kit) -> None:
    s = kit.position(players=3, hand=["Militia"],
                     others={1: {"hand": ["Estate"] * 3}, 2: {"hand": ["Gold"]}})
    kit.act(s, "play Militia")
    assert s.phase_name == "buy" and s.current_player() == 0 and s.coins == 2
    assert kit.hand(s, 1) == {"Estate": 3} and kit.hand(s, 2) == {"Gold": 1}


# ------------------------------------------------------------------ Witch


def test_witch_draws_2_and_curses_each_other_player(kit) -> None:
    s = kit.position(players=3, hand=["Witch"], deck=["Estate", "Estate", "Gold"])
    curses = s.supply[kit.card("Curse")]
    kit.act(s, "play Witch")
    assert kit.hand(s, 0) == {"Estate": 2}
    for q in (1, 2):
        assert kit.bag(s.players[q].discard)["Curse"] == 1
        assert s.players[q].owned[kit.card("Curse")] == 1
    assert s.supply[kit.card("Curse")] == curses - 2
    assert s.players[0].owned[kit.card("Curse")] == 0


@pytest.mark.rule("N-CARD-WITCH", "N-TURN-6")
@pytest.mark.parametrize(("left", "cursed"), [(2, [2, 3]), (1, [2]), (0, [])])
def test_witch_when_curses_run_out(kit, left: int, cursed: list[int]) -> None:
    s = kit.position(players=4, p=1, hand=["Witch"], deck=["Estate", "Estate"],
                     supply={"Curse": left})
    kit.act(s, "play Witch")
    assert kit.hand(s, 1) == {"Estate": 2}  # the Witch still draws
    got = [q for q in range(4) if s.players[q].owned[kit.card("Curse")]]
    assert got == cursed
    assert s.supply[kit.card("Curse")] == 0
    assert s.empty_piles == 1


# ------------------------------------------------------------------ Spy


@pytest.mark.rule("N-CARD-SPY", "N-TURN-6")
@pytest.mark.parametrize("active", [0, 2])
def test_spy_draws_first_then_each_player_reveals_in_order(kit, active: int) -> None:
    decks = {0: ["Silver"], 1: ["Estate"], 2: ["Duchy"]}
    others = {q: {"hand": ["Copper"], "deck": d} for q, d in decks.items() if q != active}
    s = kit.position(players=3, p=active, kingdom="interaction", hand=["Spy"],
                     deck=["Copper", "Gold"], others=others)
    kit.act(s, "play Spy")
    assert kit.hand(s, active) == {"Copper": 1}  # drew first: the Copper, not the Gold
    assert s.actions == 1
    seen = []
    while kit.kind(s) == "spy":
        d = s.decision()
        assert d.player == active == s.current_player()
        card = kit.names(d.cards)[0]
        seen.append((d.target, card))
        assert kit.legal(s) == [f"discard {card}", f"keep {card}"]
        kit.act(s, f"keep {card}" if d.target == active else f"discard {card}")
    order = [(active + i) % 3 for i in range(3)]
    expected = {q: (decks[q][0] if q != active else "Gold") for q in range(3)}
    assert seen == [(q, expected[q]) for q in order]
    assert kit.top(s, active) == ["Gold"]
    for q in range(3):
        if q != active:
            assert not s.players[q].deck
            assert kit.names(s.players[q].discard) == decks[q]
        assert not s.players[q].aside


def test_spy_victim_without_cards_reveals_nothing(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Spy"], deck=["Copper"],
                     others={1: {"hand": ["Estate"]}})
    kit.act(s, "play Spy")
    # The Spy's player drew their last card and has nothing to reveal; so has player 1.
    assert not s.stack and s.phase_name == "buy"


def test_spy_reveal_reshuffles_discard(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Spy"], deck=["Copper", "Gold"],
                     others={1: {"hand": ["Estate"], "discard": ["Province"]}})
    kit.act(s, "play Spy", "keep Gold")
    assert s.decision().target == 1 and kit.names(s.decision().cards) == ["Province"]
    kit.act(s, "keep Province")
    assert kit.top(s, 1) == ["Province"] and not s.players[1].discard


# ------------------------------------------------------------------ Thief


def test_thief_trashes_treasure_and_may_gain_it(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Thief"],
                     others={1: {"hand": ["Estate"], "deck": ["Gold", "Copper", "Estate"]}})
    kit.act(s, "play Thief")
    d = s.decision()
    assert d.kind == "thief" and d.player == 0 and d.target == 1
    assert sorted(kit.names(d.cards)) == ["Copper", "Gold"]
    assert kit.legal(s) == ["trash Copper", "trash Gold"]
    kit.act(s, "trash Gold")
    assert kit.names(s.trash) == ["Gold"] and s.players[1].owned[kit.card("Gold")] == 0
    assert kit.kind(s) == "thief-gain" and kit.legal(s) == ["gain Gold", "pass"]
    kit.act(s, "gain Gold")
    assert not s.trash
    assert kit.names(s.players[0].discard) == ["Gold"]
    assert s.players[0].owned[kit.card("Gold")] == 1
    assert kit.names(s.players[1].discard) == ["Copper"]
    assert kit.top(s, 1) == ["Estate"] and not s.players[1].aside


@pytest.mark.rule("N-CARD-THIEF")
def test_thief_trashed_treasure_not_taken_stays_in_trash(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Thief"],
                     others={1: {"hand": ["Estate"], "deck": ["Silver", "Estate"]}})
    kit.act(s, "play Thief")
    # A single Treasure: it is trashed without asking which.
    assert kit.names(s.trash) == ["Silver"] and kit.kind(s) == "thief-gain"
    kit.act(s, "pass")
    assert kit.names(s.trash) == ["Silver"]
    assert not s.players[0].discard
    assert kit.names(s.players[1].discard) == ["Estate"]


def test_thief_no_treasure_revealed(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Thief"],
                     others={1: {"hand": ["Estate"], "deck": ["Estate", "Duchy", "Gold"]}})
    kit.act(s, "play Thief")
    assert not s.stack and s.phase_name == "buy" and not s.trash
    assert kit.bag(s.players[1].discard) == {"Estate": 1, "Duchy": 1}
    assert kit.top(s, 1) == ["Gold"]


@pytest.mark.rule("N-CARD-THIEF", "N-TURN-4")
def test_thief_one_card_in_deck_reshuffles_without_it(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Thief"], log=True,
                     others={1: {"hand": ["Estate"], "deck": ["Silver"],
                                 "discard": ["Duchy"]}})
    kit.act(s, "play Thief")
    revealed = [(e[1], kit.names([e[2]])[0]) for e in kit.events(s, G.EV_REVEAL)]
    assert revealed == [(1, "Silver"), (1, "Duchy")]
    assert [e[1] for e in kit.events(s, G.EV_SHUFFLE)] == [1]
    kit.act(s, "pass")
    assert kit.names(s.trash) == ["Silver"]
    assert kit.names(s.players[1].discard) == ["Duchy"] and not s.players[1].deck


@pytest.mark.rule("N-CARD-THIEF")
def test_thief_with_too_few_cards_reveals_what_there_is(kit) -> None:
    s = kit.position(kingdom="interaction", hand=["Thief"],
                     others={1: {"hand": ["Estate"], "discard": ["Copper"]}})
    kit.act(s, "play Thief", "gain Copper")
    assert kit.names(s.players[0].discard) == ["Copper"]
    assert not s.players[1].deck and not s.players[1].discard


@pytest.mark.rule("N-TURN-6")
def test_thief_three_players_each_victim_in_order(kit) -> None:
    s = kit.position(players=3, p=2, kingdom="interaction", hand=["Thief"],
                     others={0: {"deck": ["Gold", "Silver"]}, 1: {"deck": ["Copper"]}})
    kit.act(s, "play Thief")
    assert s.decision().target == 0 and s.current_player() == 2
    kit.act(s, "trash Gold", "gain Gold")
    assert s.decision().target == 1 and kit.kind(s) == "thief-gain"
    kit.act(s, "pass")
    assert kit.bag(s.trash) == {"Copper": 1}
    assert kit.names(s.players[2].discard) == ["Gold"]
    assert kit.names(s.players[0].discard) == ["Silver"]


# ------------------------------------------------------------------ Moat


def _moat_setup(kit, attack: str, **kw):
    """Player 0 plays ``attack``; player 1 holds a Moat, player 2 does not."""
    s = kit.position(players=3, kingdom="interaction", hand=[attack], log=True,
                     deck=["Copper", "Gold", "Estate"],
                     others={1: {"hand": ["Moat", "Estate", "Copper", "Copper", "Copper"],
                                 "deck": ["Silver", "Gold"]},
                             2: {"hand": ["Estate", "Copper", "Copper", "Copper", "Silver"],
                                 "deck": ["Silver", "Duchy"]}}, **kw)
    kit.act(s, f"play {attack}")
    assert s.current_player() == 1 and kit.kind(s) == "moat"
    assert s.decision().card == kit.card(attack)
    assert kit.legal(s) == ["reveal Moat", "pass"]
    return s


def _moat_revealed(kit, s) -> None:
    kit.act(s, "reveal Moat")
    assert kit.hand(s, 1) == {"Moat": 1, "Estate": 1, "Copper": 3}
    assert kit.top(s, 1) == ["Silver", "Gold"]
    assert not s.players[1].discard and not s.players[1].aside
    assert s.players[1].owned[kit.card("Curse")] == 0
    assert [(e[1], e[3]) for e in kit.events(s, G.EV_REVEAL) if e[2] == kit.card("Moat")] == [
        (1, 1)
    ]


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_against_bureaucrat(kit) -> None:
    s = _moat_setup(kit, "Bureaucrat")
    _moat_revealed(kit, s)
    assert kit.top(s, 0) == ["Silver", "Copper", "Gold", "Estate"]
    assert kit.top(s, 2) == ["Estate", "Silver", "Duchy"]


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_against_militia(kit) -> None:
    s = _moat_setup(kit, "Militia")
    _moat_revealed(kit, s)
    assert s.current_player() == 2 and kit.kind(s) == "militia"
    kit.act(s, "discard Estate Copper")
    assert len(s.players[2].hand) == 3
    assert s.current_player() == 0 and s.coins == 2


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_against_spy(kit) -> None:
    s = kit.position(players=3, kingdom="interaction", hand=["Spy"],
                     deck=["Copper", "Gold", "Estate"],
                     others={1: {"hand": ["Moat", "Estate", "Copper", "Copper", "Copper"],
                                 "deck": ["Silver", "Gold"]},
                             2: {"hand": ["Estate"], "deck": ["Silver", "Duchy"]}},
                     log=True)
    kit.act(s, "play Spy")
    assert kit.hand(s, 0) == {"Copper": 1}
    assert s.decision().target == 0  # the Spy's player reveals first
    kit.act(s, "keep Gold")
    assert s.current_player() == 1 and kit.legal(s) == ["reveal Moat", "pass"]
    _moat_revealed(kit, s)
    assert s.decision().target == 2 and kit.names(s.decision().cards) == ["Silver"]
    kit.act(s, "discard Silver")
    assert kit.top(s, 2) == ["Duchy"] and kit.top(s, 0) == ["Gold", "Estate"]


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_against_thief(kit) -> None:
    s = _moat_setup(kit, "Thief")
    _moat_revealed(kit, s)
    assert kit.names(s.trash) == ["Silver"] and kit.kind(s) == "thief-gain"
    kit.act(s, "gain Silver")
    assert kit.names(s.players[0].discard) == ["Silver"]
    assert kit.names(s.players[2].discard) == ["Duchy"]


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_against_witch(kit) -> None:
    s = _moat_setup(kit, "Witch")
    assert kit.hand(s, 0) == {"Copper": 1, "Gold": 1}  # the non-attack part already done
    _moat_revealed(kit, s)
    assert s.players[2].owned[kit.card("Curse")] == 1
    assert s.current_player() == 0


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_pass_is_affected(kit) -> None:
    s = _moat_setup(kit, "Witch")
    kit.act(s, "pass")
    assert s.players[1].owned[kit.card("Curse")] == 1
    assert s.players[2].owned[kit.card("Curse")] == 1
    assert kit.hand(s, 1)["Moat"] == 1


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_in_two_player_militia(kit) -> None:
    s = kit.position(hand=["Militia"], others={1: {"hand": ["Moat", *FIVE]}})
    kit.act(s, "play Militia", "reveal Moat")
    assert len(s.players[1].hand) == 6 and s.current_player() == 0 and s.coins == 2


def test_moat_does_not_protect_against_own_or_non_attacks(kit) -> None:
    s = kit.position(hand=["Council Room"], deck=["Estate"] * 4,
                     others={1: {"hand": ["Moat"], "deck": ["Gold"]}})
    kit.act(s, "play Council Room")
    assert kit.hand(s, 1) == {"Moat": 1, "Gold": 1} and s.phase_name == "buy"
