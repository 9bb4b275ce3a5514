"""StrategyBot's default decisions, one decision kind at a time.

Each test stages the start of a turn (chosen hands and decks in a real game),
then lets the engine and the bots play on: the decisions arise from the engine
exactly as in a game, and every answer must be legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.bots import StrategyBot, builtin_strategy
from dominari.bots.strategy import lone_play, parse_strategy_text
from dominari.dominion import cards as C
from dominari.dominion.actions import Action
from dominari.dominion.engine import ACTION_PHASE, DominionConfig, DominionState

Cards = Sequence[str]


def stage(
    hands: Mapping[int, Cards],
    decks: Mapping[int, Cards] | None = None,
    *,
    kingdom: str = "first-game",
    players: int = 2,
    provinces: int | None = None,
    seed: int = 0,
) -> DominionState:
    """A real game at the start of a turn with chosen cards. Seats are relative to
    the turn player (0 = whose turn, 1 = next). ``decks`` list cards top first and
    replace the whole deck. Ownership is recounted from the zones."""
    s = DominionState.new(DominionConfig(players=players, kingdom=kingdom, seed=seed))
    tp = s.turn_player
    for rel, names in hands.items():
        ps = s.players[(tp + rel) % players]
        ps.in_play = []
        ps.hand = [C.card_id(n) for n in names]
    for rel, names in (decks or {}).items():
        ps = s.players[(tp + rel) % players]
        ps.deck = [C.card_id(n) for n in reversed(names)]
    for ps in s.players:
        ps.owned = [0] * C.NUM_CARDS
        for c in ps.all_cards():
            ps.owned[c] += 1
    if provinces is not None:
        s.supply[C.PROVINCE] = provinces
    s.phase = ACTION_PHASE
    s.actions, s.buys, s.coins = 1, 1, 0
    return s


def moat_wins() -> DominionState:
    """Two Supply piles are empty and a third holds one Moat; the player to buy leads and
    has 3 coins: a money bot buys a Silver, and the Moat ends the game on three empty
    piles, won in every world (the search tests' position)."""
    s = stage({0: ["Silver", "Copper", "Estate", "Estate", "Estate"], 1: ["Copper"] * 5},
              decks={0: ["Province"] * 2 + ["Gold"] * 3 + ["Silver"] * 4,
                     1: ["Province"] + ["Gold"] * 4 + ["Silver"] * 4})  # fmt: skip
    for pile in ("Village", "Woodcutter"):
        s.supply[C.card_id(pile)] = 0
    s.empty_piles = 2
    s.supply[C.MOAT] = 1
    s.phase, s.coins = 1, 3
    return s


def bot(text: str | None = None, builtin: str = "bm") -> StrategyBot:
    if text is None:
        return StrategyBot(builtin_strategy(builtin))
    return StrategyBot(parse_strategy_text(text, "<test>"))


def run(s: DominionState, b: StrategyBot, stop: str = "buy") -> list[tuple[int, str, str]]:
    """Let ``b`` play every seat until the ``stop`` decision (or the game's end);
    return (seat relative to the turn player, decision kind, action) per answer."""
    tp = s.turn_player
    n = s.num_players
    out: list[tuple[int, str, str]] = []
    while not s.is_terminal():
        kind = s.decision().kind
        if kind == stop:
            break
        p = s.current_player()
        a = b.act(s)
        assert isinstance(a, Action)
        assert s.is_legal(a), f"{a} is illegal in {kind}"
        out.append(((p - tp) % n, kind, str(a)))
        s.apply(a)
    assert b.fallbacks == 0
    return out


def names(cards: list[int]) -> list[str]:
    return sorted(C.NAME[c] for c in cards)


# ------------------------------------------------------------------ action phase
@pytest.mark.parametrize(
    ("hand", "first"),
    [
        (["Smithy", "Village", "Copper", "Copper", "Estate"], "play Village"),
        (["Smithy", "Festival", "Copper", "Copper", "Estate"], "play Festival"),
        (["Smithy", "Laboratory", "Copper", "Copper", "Estate"], "play Laboratory"),
        (["Militia", "Smithy", "Copper", "Copper", "Copper"], "play Smithy"),
        (["Smithy", "Witch", "Copper", "Copper", "Copper"], "play Witch"),
        (["Woodcutter", "Council Room", "Copper", "Copper", "Copper"], "play Council Room"),
        (["Library", "Smithy", "Copper", "Copper", "Copper"], "play Library"),
        (["Moneylender", "Estate", "Estate", "Estate", "Estate"], "end"),
        (["Moneylender", "Copper", "Estate", "Estate", "Estate"], "play Moneylender"),
        (["Remodel", "Copper", "Copper", "Copper", "Silver"], "end"),
        (["Remodel", "Estate", "Copper", "Copper", "Silver"], "play Remodel"),
        (["Mine", "Estate", "Estate", "Estate", "Estate"], "end"),
        (["Mine", "Copper", "Estate", "Estate", "Estate"], "play Mine"),
        (["Chapel", "Curse", "Copper", "Copper", "Copper"], "play Chapel"),
        (["Cellar", "Copper", "Copper", "Copper", "Copper"], "end"),
        (["Cellar", "Smithy", "Copper", "Copper", "Estate"], "play Cellar"),
        (["Throne Room", "Copper", "Copper", "Copper", "Copper"], "end"),
        (["Throne Room", "Smithy", "Copper", "Copper", "Copper"], "play Throne Room"),
        (["Throne Room", "Laboratory", "Smithy", "Copper", "Copper"], "play Laboratory"),
        (["Throne Room", "Market", "Copper", "Copper", "Copper"], "play Throne Room"),
        (["Smithy", "Market", "Spy", "Copper", "Copper"], "play Market"),
    ],
)
def test_play_order(hand: list[str], first: str) -> None:
    s = stage({0: hand}, {0: ["Copper"] * 3 + ["Silver"] * 5})
    assert str(bot().act(s)) == first


def test_villages_before_terminals_whole_turn() -> None:
    s = stage({0: ["Smithy", "Village", "Militia", "Copper", "Copper"]},
              {0: ["Copper"] * 8, 1: ["Copper"] * 5})
    plays = [a for seat, kind, a in run(s, bot()) if kind == "action"]
    assert plays == ["play Village", "play Smithy", "play Militia"]


def test_play_list_overrides_default_order() -> None:
    b = bot('play = ["Militia", "Cellar"]\n[[buy]]\ncard = "Gold"\n')
    s = stage({0: ["Village", "Militia", "Cellar", "Copper", "Copper"]})
    assert str(b.act(s)) == "play Militia"
    s = stage({0: ["Village", "Cellar", "Copper", "Copper", "Copper"]})
    assert str(b.act(s)) == "play Cellar"  # even with nothing to discard
    s = stage({0: ["Village", "Smithy", "Copper", "Copper", "Copper"]})
    assert str(b.act(s)) == "play Village"  # unlisted cards: default order


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from((*C.KINGDOM, C.COPPER, C.SILVER, C.ESTATE, C.CURSE)),
                     min_size=1, max_size=9),
       curses=st.integers(0, 10), play=st.sampled_from(["", 'play = ["Militia", "Cellar"]\n',
                                                       'play = ["Smithy"]\n']))
def test_a_lone_action_is_played_as_the_weighed_choice_plays_it(
        hand: list[int], curses: int, play: str) -> None:
    """The action phase's shortcut (:func:`lone_play`: a hand whose Action cards are copies
    of one card that is always worth playing plays it) answers as the weighed choice does,
    whatever the rest of the hand, the position and the bot's play list; other hands are
    left to it."""
    b = bot(play + '[[buy]]\ncard = "Gold"\n')
    s = stage({0: [C.NAME[c] for c in hand]}, kingdom="random", seed=len(hand))
    s.supply[C.CURSE] = curses
    p = s.turn_player
    lone = lone_play(s.players[p].hand)
    if lone is not None:
        assert lone == b._weigh_actions(s, p, s.players[p].hand)
        assert len({c for c in hand if C.IS_ACTION[c]}) == 1
    assert b.act(s) == (lone or b._weigh_actions(s, p, s.players[p].hand))


# ------------------------------------------------------------------ buy phase
def test_buy_rules_first_match_and_end() -> None:
    b = bot(builtin="bmu")
    s = stage({0: ["Copper"] * 5})
    s.phase, s.coins = 1, 8
    assert str(b.act(s)) == "buy Gold"  # total money 7: no Province yet
    s.supply[C.PROVINCE] = 4
    assert str(b.act(s)) == "buy Duchy"
    s.coins = 2
    assert str(b.act(s)) == "end"  # Estate only at <= 2 Provinces
    s.supply[C.PROVINCE] = 2
    assert str(b.act(s)) == "buy Estate"
    s.supply[C.ESTATE] = 0
    assert str(b.act(s)) == "end"  # empty pile skipped


def test_buy_rule_for_card_not_in_game_is_skipped() -> None:
    b = bot('[[buy]]\ncard = "Witch"\n[[buy]]\ncard = "Silver"\n')
    s = stage({0: ["Copper"] * 5})  # first-game has no Witch
    s.phase, s.coins = 1, 5
    assert str(b.act(s)) == "buy Silver"


# ------------------------------------------------------------------ card decisions
@pytest.mark.rule("N-CARD-CELLAR")
def test_cellar_discards_victory_and_curses() -> None:
    s = stage({0: ["Cellar", "Estate", "Province", "Copper", "Curse"]},
              {0: ["Silver"] * 6})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "cellar"] == [
        "discard Curse", "discard Estate", "discard Province", "done"]
    assert names(s.players[s.turn_player].in_play) == ["Cellar", "Copper"] + ["Silver"] * 3


def test_chapel_trashes_curse_estate_then_copper_while_money_lasts() -> None:
    s = stage({0: ["Chapel", "Curse", "Estate", "Copper", "Copper"]},
              {0: ["Silver", "Gold", "Copper", "Copper", "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "chapel"] == [
        "trash Curse", "trash Estate", "trash Copper", "trash Copper"]
    # Money 2 Coppers + 3 Coppers + Silver + Gold = 10: two Coppers keep it >= 6.
    s = stage({0: ["Chapel", "Copper", "Copper", "Copper", "Copper"]},
              {0: ["Silver", "Estate", "Estate", "Estate", "Estate"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k in ("action", "chapel")] == ["end"]  # 6: keep all
    b = bot('play = ["Chapel"]\n[[buy]]\ncard = "Gold"\n')
    s = stage({0: ["Chapel", "Copper", "Copper", "Copper", "Copper"]},
              {0: ["Silver", "Estate", "Estate", "Estate", "Estate"]})
    log = run(s, b)
    assert [a for _, k, a in log if k in ("action", "chapel")] == ["play Chapel", "done"]


def test_chapel_keeps_estates_late() -> None:
    s = stage({0: ["Chapel", "Curse", "Estate", "Copper", "Gold"]},
              {0: ["Gold"] * 5}, provinces=3)
    log = run(s, bot())
    assert [a for _, k, a in log if k == "chapel"] == ["trash Curse", "trash Copper", "done"]


def test_chapel_min_money_option_and_trash_list() -> None:
    b = bot('trash = ["Copper"]\n[options]\nchapel_min_money = 0\n[[buy]]\ncard = "Gold"\n')
    s = stage({0: ["Chapel", "Curse", "Copper", "Copper", "Estate"]}, {0: ["Estate"] * 5})
    log = run(s, b)
    assert [a for _, k, a in log if k == "chapel"] == ["trash Copper", "trash Copper", "done"]


@pytest.mark.rule("N-CARD-MILITIA")
def test_militia_victim_discards_victory_then_cheapest() -> None:
    s = stage({0: ["Militia", "Copper", "Copper", "Copper", "Copper"],
               1: ["Copper", "Silver", "Estate", "Smithy", "Copper"]})
    log = run(s, bot())
    assert [a for seat, k, a in log if k == "militia"] == ["discard Estate", "discard Copper"]
    assert all(seat == 1 for seat, k, _ in log if k == "militia")
    assert names(s.players[(s.turn_player + 1) % 2].hand) == ["Copper", "Silver", "Smithy"]


def test_militia_victim_discards_surplus_terminals() -> None:
    s = stage({0: ["Militia", "Copper", "Copper", "Copper", "Copper"],
               1: ["Smithy", "Witch", "Copper", "Gold", "Silver"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "militia"] == ["discard Smithy", "discard Copper"]


@pytest.mark.rule("N-CARD-MOAT")
def test_moat_is_revealed_unless_told_not_to() -> None:
    hands = {0: ["Militia", "Copper", "Copper", "Copper", "Copper"],
             1: ["Moat", "Estate", "Estate", "Copper", "Copper"]}
    s = stage(hands)
    log = run(s, bot())
    assert [a for _, k, a in log if k in ("moat", "militia")] == ["reveal Moat"]
    assert len(s.players[(s.turn_player + 1) % 2].hand) == 5
    s = stage(hands)
    log = run(s, bot('[options]\nmoat = false\n[[buy]]\ncard = "Gold"\n'))
    assert [a for _, k, a in log if k in ("moat", "militia")] == [
        "pass", "discard Estate", "discard Estate"]


@pytest.mark.rule("N-CARD-CHANCELLOR")
def test_chancellor_discards_deck_unless_told_not_to() -> None:
    s = stage({0: ["Chancellor", "Copper", "Copper", "Copper", "Copper"]})
    assert [a for _, k, a in run(s, bot()) if k == "chancellor"] == ["discard-deck"]
    assert s.players[s.turn_player].deck == []
    s = stage({0: ["Chancellor", "Copper", "Copper", "Copper", "Copper"]})
    b = bot('[options]\nchancellor = false\n[[buy]]\ncard = "Gold"\n')
    assert [a for _, k, a in run(s, b) if k == "chancellor"] == ["pass"]


@pytest.mark.rule("N-CARD-LIBRARY")
def test_library_sets_aside_actions_only_without_actions_left() -> None:
    s = stage({0: ["Library", "Copper", "Copper", "Copper", "Copper"]},
              {0: ["Smithy", "Copper", "Copper", "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "library"] == ["set-aside Smithy"]
    assert names(s.players[s.turn_player].discard) == ["Smithy"]
    s = stage({0: ["Village", "Library", "Copper", "Copper", "Copper"]},
              {0: ["Copper", "Smithy", "Copper", "Copper", "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "library"] == ["keep Smithy"]
    assert [a for _, k, a in log if k == "action"] == [
        "play Village", "play Library", "play Smithy"]


def test_workshop_and_feast_gain_by_the_buy_rules() -> None:
    s = stage({0: ["Workshop", "Copper", "Copper", "Copper", "Copper"]})
    assert [a for _, k, a in run(s, bot()) if k == "gain"] == ["gain Silver"]
    s = stage({0: ["Feast", "Copper", "Copper", "Estate", "Estate"]}, kingdom="Witch")
    assert [a for _, k, a in run(s, bot(builtin="witch")) if k == "gain"] == ["gain Witch"]


def test_gain_falls_back_to_the_most_expensive_useful_card() -> None:
    b = bot('[[buy]]\ncard = "Province"\n')
    s = stage({0: ["Workshop", "Copper", "Copper", "Copper", "Copper"]})
    gained = [a for _, k, a in run(s, b) if k == "gain"]
    card = C.card_id(gained[0].split(" ", 1)[1])
    assert C.COST[card] == 4 and C.IS_ACTION[card]
    s = stage({0: ["Workshop", "Copper", "Copper", "Copper", "Copper"]},
              kingdom="Gardens", provinces=2)
    assert [a for _, k, a in run(s, b) if k == "gain"] == ["gain Gardens"]


@pytest.mark.rule("N-CARD-REMODEL")
def test_remodel_estate_into_silver() -> None:
    s = stage({0: ["Remodel", "Estate", "Copper", "Copper", "Silver"]})
    log = run(s, bot(builtin="bmu"))
    assert [a for _, k, a in log if k in ("remodel", "gain")] == ["trash Estate", "gain Silver"]


def test_remodel_gold_into_province_late() -> None:
    s = stage({0: ["Remodel", "Gold", "Estate", "Copper", "Silver"]}, provinces=3)
    log = run(s, bot(builtin="bmu"))
    assert [a for _, k, a in log if k in ("remodel", "gain")] == [
        "trash Gold", "gain Province"]
    s = stage({0: ["Remodel", "Gold", "Estate", "Copper", "Silver"]}, provinces=3)
    b = bot('[options]\nremodel_gold = false\n[[buy]]\ncard = "Silver"\n')
    assert [a for _, k, a in run(s, b) if k == "action"] == ["end"]  # no target left


def test_forced_remodel_trashes_the_least_useful_card() -> None:
    b = bot('play = ["Remodel"]\n[[buy]]\ncard = "Silver"\n')
    s = stage({0: ["Remodel", "Silver", "Copper", "Gold", "Gold"]})
    log = run(s, b)
    assert [a for _, k, a in log if k == "remodel"] == ["trash Copper"]


@pytest.mark.rule("N-CARD-MINE")
def test_mine_upgrades_silver_to_gold_in_hand() -> None:
    s = stage({0: ["Mine", "Copper", "Silver", "Estate", "Estate"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k in ("mine", "mine-gain")] == ["trash Silver", "gain Gold"]
    assert s.coins == 1 + 3


@pytest.mark.rule("N-CARD-THRONEROOM")
def test_throne_room_targets() -> None:
    s = stage({0: ["Throne Room", "Smithy", "Militia", "Copper", "Copper"]},
              {0: ["Copper"] * 10})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "throne-room"] == ["play Smithy"]
    # Forced to play Throne Room first with a terminal in hand and no Actions left:
    # double the Laboratory so the Smithy can still be played.
    b = bot('play = ["Throne Room"]\n[[buy]]\ncard = "Gold"\n')
    s = stage({0: ["Throne Room", "Laboratory", "Smithy", "Copper", "Copper"]},
              {0: ["Copper"] * 10})
    log = run(s, b)
    assert [a for _, k, a in log if k == "throne-room"] == ["play Laboratory"]
    assert [a for _, k, a in log if k == "action"][-1] == "play Smithy"


@pytest.mark.rule("N-CARD-FEAST")
def test_throne_room_feast_gains_twice() -> None:
    s = stage({0: ["Throne Room", "Feast", "Copper", "Copper", "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "gain"] == ["gain Silver", "gain Silver"]


def test_bureaucrat_victim_topdecks_cheapest_victory() -> None:
    s = stage({0: ["Bureaucrat", "Copper", "Copper", "Copper", "Copper"],
               1: ["Province", "Duchy", "Estate", "Copper", "Copper"]})
    log = run(s, bot())
    assert [(seat, a) for seat, k, a in log if k == "bureaucrat"] == [(1, "topdeck Estate")]


@pytest.mark.rule("N-CARD-SPY")
@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ("Estate", "Gold", ["discard Estate", "discard Gold"]),
        ("Gold", "Estate", ["keep Gold", "keep Estate"]),
        ("Copper", "Smithy", ["discard Copper", "discard Smithy"]),
        ("Smithy", "Curse", ["keep Smithy", "keep Curse"]),
    ],
)
def test_spy_discards_their_good_cards_and_my_junk(
        mine: str, theirs: str, expected: list[str]) -> None:
    s = stage({0: ["Spy", "Copper", "Copper", "Copper", "Copper"]},
              {0: ["Copper", mine, "Copper"], 1: [theirs, "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k == "spy"] == expected


def test_thief_trashes_best_treasure_and_takes_silver_or_gold() -> None:
    s = stage({0: ["Thief", "Copper", "Copper", "Copper", "Copper"]},
              {1: ["Silver", "Gold", "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k in ("thief", "thief-gain")] == ["trash Gold", "gain Gold"]
    assert s.players[s.turn_player].owned[C.GOLD] == 1
    s = stage({0: ["Thief", "Copper", "Copper", "Copper", "Copper"]},
              {1: ["Copper", "Estate", "Copper"]})
    log = run(s, bot())
    assert [a for _, k, a in log if k in ("thief", "thief-gain")] == ["pass"]
    assert s.trash == [C.COPPER]


# ------------------------------------------------------------------ whole games
def _sink() -> StrategyBot:
    """Buys two of every kingdom card, so that every decision kind comes up."""
    rules = ['[[buy]]\ncard = "Province"\nwhen = "total_money > 15"', '[[buy]]\ncard = "Gold"']
    for k in C.KINGDOM:
        rules.append(f'[[buy]]\ncard = "{C.NAME[k]}"\nwhen = "count(\'{C.NAME[k]}\') < 2"')
    rules.append('[[buy]]\ncard = "Silver"')
    return bot('name = "sink"\n' + "\n".join(rules))


KINGDOMS = ["first-game", "big-money", "interaction", "size-distortion", "village-square",
            "Thief, Mine, Bureaucrat, Spy, Library, Throne Room, Feast, Moat, Chapel, Witch"]


def test_every_decision_kind_is_answered_legally_in_real_games() -> None:
    seen: Counter[str] = Counter()
    for i in range(120):
        n = 2 + i % 3
        bots = [_sink() for _ in range(n)]
        s = DominionState.new(DominionConfig(
            players=n, kingdom=KINGDOMS[i % len(KINGDOMS)], seed=i, max_turns=60))
        while not s.is_terminal():
            kind = s.decision().kind
            a = bots[s.current_player()].act(s)
            assert s.is_legal(a), (kind, a)
            seen[kind] += 1
            s.apply(a)
        assert all(b.fallbacks == 0 for b in bots)
    expected = {"action", "buy", "cellar", "chapel", "militia", "moat", "chancellor", "library",
                "gain", "remodel", "mine", "mine-gain", "throne-room", "bureaucrat", "spy",
                "thief", "thief-gain"}
    assert set(seen) == expected, expected - set(seen)
