"""Setup: starting decks, Supply sizes, kingdom choice (N-SET)."""

from __future__ import annotations

from collections import Counter

import pytest

from dominari.core.errors import ConfigError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED, resolve


@pytest.mark.rule("N-SET-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_7_copper_3_estate_and_draws_5(players: int) -> None:
    s = DominionState.new(DominionConfig(players=players, seed=11))
    for q, ps in enumerate(s.players):
        assert Counter(ps.all_cards()) == {C.COPPER: 7, C.ESTATE: 3}
        assert ps.owned[C.COPPER] == 7 and ps.owned[C.ESTATE] == 3
        assert sum(ps.owned) == 10
        assert len(ps.deck) == 5
        assert not ps.discard and not ps.aside
        if q != s.turn_player:
            assert len(ps.hand) == 5 and not ps.in_play
        else:
            # The first player's Treasures are already played (no Action card in hand).
            assert len(ps.hand) + len(ps.in_play) == 5
    assert s.turn_number == 1
    assert [ps.turns for ps in s.players] == [
        1 if q == s.turn_player else 0 for q in range(players)
    ]


@pytest.mark.rule("N-SET-1")
def test_first_player_is_random_and_decks_are_shuffled() -> None:
    firsts = set()
    hands = set()
    for seed in range(60):
        s = DominionState.new(DominionConfig(players=3, seed=seed))
        firsts.add(s.turn_player)
        q = (s.turn_player + 1) % 3
        hands.add(tuple(sorted(s.players[q].hand)))
    assert firsts == {0, 1, 2}
    # Every split of 7 Copper / 3 Estate into a 5-card hand (2..5 Copper) occurs.
    assert len(hands) == 4


@pytest.mark.rule("N-SET-1")
def test_same_seed_same_setup() -> None:
    a = DominionState.new(DominionConfig(players=4, kingdom="random", seed=99))
    b = DominionState.new(DominionConfig(players=4, kingdom="random", seed=99))
    assert a.view(None) == b.view(None)
    assert [ps.deck for ps in a.players] == [ps.deck for ps in b.players]
    assert [ps.hand for ps in a.players] == [ps.hand for ps in b.players]


@pytest.mark.rule("N-SET-2")
@pytest.mark.parametrize(
    ("players", "copper", "victory", "curses"),
    [(2, 46, 8, 10), (3, 39, 12, 20), (4, 32, 12, 30)],
)
def test_supply_sizes(players: int, copper: int, victory: int, curses: int) -> None:
    s = DominionState.new(DominionConfig(players=players, kingdom="size-distortion", seed=5))
    sup = s.view(None)["supply"]
    assert sup["Copper"] == copper
    assert sup["Silver"] == 40
    assert sup["Gold"] == 30
    assert sup["Estate"] == sup["Duchy"] == sup["Province"] == victory
    assert sup["Curse"] == curses
    assert sup["Gardens"] == victory
    for name in RECOMMENDED["size-distortion"]:
        if name != "Gardens":
            assert sup[name] == 10
    # 7 basic piles + 10 kingdom piles, nothing else.
    assert len(sup) == 17
    assert set(s.in_supply) == set(C.BASIC) | set(s.kingdom)
    # Starting Estates are extra: players own 3 each on top of the pile.
    assert sum(ps.owned[C.ESTATE] for ps in s.players) == 3 * players
    assert s.empty_piles == 0


@pytest.mark.rule("N-SET-2")
def test_card_table_costs_and_types() -> None:
    costs = {
        "Copper": 0, "Silver": 3, "Gold": 6, "Estate": 2, "Duchy": 5, "Province": 8,
        "Curse": 0, "Cellar": 2, "Chapel": 2, "Moat": 2, "Chancellor": 3, "Village": 3,
        "Woodcutter": 3, "Workshop": 3, "Bureaucrat": 4, "Feast": 4, "Gardens": 4,
        "Militia": 4, "Moneylender": 4, "Remodel": 4, "Smithy": 4, "Spy": 4, "Thief": 4,
        "Throne Room": 4, "Council Room": 5, "Festival": 5, "Laboratory": 5, "Library": 5,
        "Market": 5, "Mine": 5, "Witch": 5, "Adventurer": 6,
    }  # fmt: skip
    assert {C.NAME[c]: C.COST[c] for c in range(C.NUM_CARDS)} == costs
    assert len(C.KINGDOM) == 25
    attacks = {C.NAME[c] for c in range(C.NUM_CARDS) if C.IS_ATTACK[c]}
    assert attacks == {"Bureaucrat", "Militia", "Spy", "Thief", "Witch"}
    treasures = {C.NAME[c]: C.COINS[c] for c in C.TREASURES}
    assert treasures == {"Copper": 1, "Silver": 2, "Gold": 3}
    vps = {C.NAME[c]: C.VP[c] for c in range(C.NUM_CARDS) if C.VP[c]}
    assert vps == {"Estate": 1, "Duchy": 3, "Province": 6, "Curse": -1}
    actions = {C.NAME[c] for c in range(C.NUM_CARDS) if C.IS_ACTION[c]}
    assert actions == {C.NAME[c] for c in C.KINGDOM} - {"Gardens"}
    assert C.IS_VICTORY[C.GARDENS] and not C.IS_VICTORY[C.CURSE]


@pytest.mark.rule("N-SET-3")
@pytest.mark.parametrize(
    ("key", "cards"),
    [
        ("first-game", "Cellar Market Militia Mine Moat Remodel Smithy Village Woodcutter "
                       "Workshop"),
        ("big-money", "Adventurer Bureaucrat Chancellor Chapel Feast Laboratory Market Mine "
                      "Moneylender ThroneRoom"),
        ("interaction", "Bureaucrat Chancellor CouncilRoom Festival Library Militia Moat Spy "
                        "Thief Village"),
        ("size-distortion", "Cellar Chapel Feast Gardens Laboratory Thief Village Witch "
                            "Woodcutter Workshop"),
        ("village-square", "Bureaucrat Cellar Festival Library Market Remodel Smithy "
                           "ThroneRoom Village Woodcutter"),
    ],
)  # fmt: skip
def test_recommended_kingdoms(key: str, cards: str) -> None:
    expected = {C.card_id(n) for n in cards.split()}
    for seed in (1, 2):
        s = DominionState.new(DominionConfig(players=2, kingdom=key, seed=seed))
        assert set(s.kingdom) == expected
        assert set(s.view(None)["kingdom"]) == {C.NAME[c] for c in expected}


@pytest.mark.rule("N-SET-3")
def test_random_kingdom_is_10_distinct_kingdom_cards_seeded() -> None:
    seen = set()
    for seed in range(30):
        k = resolve("random", seed)
        assert len(k) == 10 and len(set(k)) == 10
        assert all(c in C.KINGDOM for c in k)
        assert k == resolve("random", seed)
        seen.add(k)
    assert len(seen) > 20


@pytest.mark.rule("N-SET-3")
def test_default_kingdom_is_random() -> None:
    # "Kingdom choice: any 10 of the 25; random by default".
    kingdoms = {DominionState.new(DominionConfig(players=2, seed=s)).kingdom for s in range(8)}
    assert len(kingdoms) > 1


@pytest.mark.rule("N-SET-3")
def test_named_kingdom_completed_at_random_and_errors() -> None:
    k = resolve(("Witch", "Moat"), 4)
    assert {C.WITCH, C.MOAT} <= set(k) and len(set(k)) == 10
    assert resolve("Witch, Moat", 4) == k
    ten = RECOMMENDED["interaction"]
    assert set(resolve(ten, 0)) == {C.card_id(n) for n in ten}
    with pytest.raises(ConfigError, match="unknown"):
        resolve("nonsense", 1)
    with pytest.raises(ConfigError, match="basic card"):
        resolve(("Copper", "Witch"), 1)
    with pytest.raises(ConfigError, match="twice"):
        resolve(("Witch", "Witch"), 1)
    with pytest.raises(ConfigError, match="at most 10"):
        resolve([C.NAME[c] for c in C.KINGDOM[:11]], 1)


@pytest.mark.rule("N-SET-2")
@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(ConfigError, match="2 to 4"):
        DominionConfig(players=players)
