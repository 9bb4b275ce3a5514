"""The best rule bot for a Dominion kingdom, and how a search models each seat with the
ranked strategies (issue 6: the search is guided by the best rule bot for the kingdom)."""

from __future__ import annotations

import pytest

from dominari.bots import BUILTIN_STRATEGIES, builtin_strategy, load_bot
from dominari.bots.kingdom import KINGDOM_ORDER, RUSHES, best_rule_bot, kingdom_cards, model_bot
from dominari.bots.mcts import MCTSBot
from dominari.core.errors import ConfigError, ParseError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED
from dominari.sim import tournament


def test_every_ranked_strategy_is_built_in_and_bmu_fits_every_kingdom() -> None:
    assert set(KINGDOM_ORDER) <= set(BUILTIN_STRATEGIES)
    assert len(set(KINGDOM_ORDER)) == len(KINGDOM_ORDER)
    # Unranked: plain Big Money (BMU plays it better) and Smithy-Market (a model of the
    # searcher's own seat, not of an opponent).
    assert set(BUILTIN_STRATEGIES) - set(KINGDOM_ORDER) == {"bm", "smithy-market"}
    assert KINGDOM_ORDER[-1] == "bmu" and kingdom_cards("bmu") == frozenset()
    assert all(kingdom_cards(n) for n in KINGDOM_ORDER[:-1])
    assert set(KINGDOM_ORDER) >= RUSHES


def test_a_strategys_cards_are_read_from_its_buy_rules() -> None:
    assert kingdom_cards("council-room") == {"Council Room"}
    assert kingdom_cards("workshop-gardens") == {"Workshop", "Gardens"}
    for name in KINGDOM_ORDER:
        bought = {C.NAME[r.card] for r in builtin_strategy(name).buy}
        assert kingdom_cards(name) == {c for c in bought if C.card_id(c) in C.KINGDOM}


@pytest.mark.parametrize(("kingdom", "best"), [
    ("first-game", "smithy"),
    ("big-money", "market"),
    ("interaction", "council-room"),
    ("size-distortion", "workshop-gardens"),  # Workshop, Gardens and Witch
    ("village-square", "smithy"),
    (["Witch", "Smithy", "Council Room"], "witch"),
    (["Library", "Militia", "Village"], "library"),
    (["Militia", "Laboratory", "Market"], "militia"),
    (["Gardens", "Woodcutter"], "bmu"),  # Gardens without Workshop: no rush ranked
    ([], "bmu"),
])  # fmt: skip
def test_the_best_rule_bot_is_the_first_ranked_strategy_that_fits(
        kingdom: str | list[str], best: str) -> None:
    assert best_rule_bot(kingdom) == best


def test_kingdoms_are_named_as_anywhere_else() -> None:
    ids = RECOMMENDED["interaction"]
    assert best_rule_bot(tuple(C.card_id(c) for c in ids)) == "council-room"
    assert best_rule_bot(" Interaction ") == best_rule_bot(",".join(ids)) == "council-room"
    assert best_rule_bot("witch, smithy") == "witch"
    with pytest.raises(ParseError, match="unknown card 'Wizard'"):
        best_rule_bot(["Smithy", "Wizard"])
    with pytest.raises(ConfigError, match="unknown kingdom 'nonsense': use one of first-game"):
        best_rule_bot("nonsense")  # neither a set nor a card
    with pytest.raises(ParseError, match="unknown card 'nonsense'"):
        best_rule_bot("Witch,nonsense")


def test_a_player_is_modelled_by_what_it_has_bought() -> None:
    size = "size-distortion"
    assert model_bot(size) == model_bot(size, ["Village", "Chapel"]) == "witch"
    assert model_bot(size, ["Witch"]) == "witch"
    assert model_bot(size, ["Gardens"]) == model_bot(size, [C.WORKSHOP]) == "workshop-gardens"
    assert model_bot(size, ["Workshop", "Gardens", "Witch"]) == "workshop-gardens"
    # Cards outside the kingdom are no evidence.
    assert model_bot("first-game", ["Witch", "Library"]) == "smithy"
    assert model_bot("first-game", ["Militia"]) == "militia"
    # A tie goes to the stronger strategy.
    assert model_bot(["Smithy", "Militia"], ["Smithy", "Militia"]) == "smithy"


def test_the_search_models_each_opponent_by_its_buys() -> None:
    """On Size Distortion a player who has bought a Workshop is modelled as the Gardens
    rush and players who have bought nothing as Witch-BM; the searcher plays the rush, the
    kingdom's best rule bot."""
    s = DominionState.new(DominionConfig(players=3, seed=2, kingdom="size-distortion"))
    rush, money = load_bot("workshop-gardens"), load_bot("bmu")
    while True:
        p = s.current_player()
        if (p == 0 and s.phase == 1 and not s.stack
                and s.players[1].owned[C.WORKSHOP] > 0):
            break
        s.apply((rush if p == 1 else money).act(s))
    assert [b.name for b in MCTSBot("dominion").models(s)] == [
        "Workshop/Gardens", "Workshop/Gardens", "Witch"]
    assert [b.name for b in MCTSBot("dominion", own="witch").models(s)] == [
        "Witch", "Workshop/Gardens", "Witch"]
    assert MCTSBot("dominion", iterations=8, seed=1).act(s) in s.legal_actions()


def test_each_ranked_strategy_beats_big_money_ultimate_on_its_cards() -> None:
    for name in KINGDOM_ORDER[:-1]:
        cards = sorted(kingdom_cards(name))
        r = tournament([name, "bmu"], 200, 5, kingdom=cards)
        m = r.matchups[0]
        assert m.wins[0] > m.wins[1], (name, m.wins)


def test_the_gardens_rush_beats_double_witch() -> None:
    """Workshop/Gardens ranks above Witch-BM: the Curses swell its Gardens."""
    r = tournament(["workshop-gardens", "witch"], 100, 5,
                   kingdom=["Witch", "Workshop", "Gardens"])
    wins = r.matchups[0].wins
    assert wins[0] > 2 * wins[1]


def _played(bots: list, seed: int, kingdom: str) -> DominionState:
    s = DominionState.new(DominionConfig(players=len(bots), kingdom=kingdom, seed=seed))
    while not s.is_terminal():
        s.apply(bots[s.current_player()].act(s))
    return s


@pytest.mark.parametrize("kingdom", ["first-game", "size-distortion", "interaction", "random"])
def test_best_plays_each_game_as_its_kingdoms_best_rule_bot(kingdom: str) -> None:
    best = load_bot("best")
    assert best.name == "Best" and repr(best) == "KingdomBestBot()"
    for seed in range(6):
        game = _played([best, load_bot("bmu")], seed, kingdom)
        own = load_bot(best_rule_bot(game.kingdom))
        assert game.history == _played([own, load_bot("bmu")], seed, kingdom).history
    assert best.fallbacks == 0


def test_best_changes_with_the_kingdom_from_game_to_game() -> None:
    best = load_bot("best")
    names = []
    plain = ["Chapel", "Thief", "Spy", "Adventurer", "Chancellor", "Feast", "Festival", "Mine",
             "Remodel", "Village"]  # no ranked strategy's card: BMU
    for kingdom in ["first-game", "size-distortion", "first-game", plain]:
        s = DominionState.new(DominionConfig(kingdom=kingdom, seed=3))
        names.append(best.for_game(s).name)
        s.apply(best.act(s))  # it acts as that bot
    assert names == ["Smithy", "Workshop/Gardens", "Smithy", "BMU"]


def test_simulations_play_best_at_a_strategy_bots_speed_and_the_same_games() -> None:
    """The runner hands the game to the fast playout with the kingdom's strategy bot in
    ``best``'s seat: the results are those of the step-by-step games."""
    from dominari.bots.playout import can_play_out
    from dominari.sim.runner import play_game

    for seed in range(8):
        bots = [load_bot("best"), load_bot("witch")]
        config = DominionConfig(players=2, kingdom="random", seed=seed)
        fast = play_game(bots, DominionState.new(config))
        assert not can_play_out(fast, bots)  # not as it is: the runner unwraps it
        assert fast.history == _played(bots, seed, "random").history


def test_best_is_a_bot_name_of_dominion_only() -> None:
    from dominari.bots import bot_blurbs, bot_names
    from dominari.core.errors import UnknownBotError

    assert "best" in bot_names("dominion") and "best" not in bot_names("dominations")
    assert bot_blurbs()["best"] == "the kingdom's best rule bot"
    assert load_bot(" BEST ").name == "Best"
    with pytest.raises(UnknownBotError,
                       match=r"unknown Dominations bot 'best' \(a Dominion bot\)"):
        load_bot("best", "dominations")
    with pytest.raises(UnknownBotError, match=r"unknown bot 'Greedy' \(a Dominations bot\)"):
        load_bot("Greedy", "dominion")
    with pytest.raises(UnknownBotError, match=r"unknown Dominations bot 'nobody': use"):
        load_bot("nobody", "dominations")  # no other game claimed for a name of none
    r = tournament(["best", "bmu"], 40, 9, kingdom="random")
    assert r.matchups[0].wins[0] > r.matchups[0].wins[1]


def test_the_order_depends_on_the_number_of_players() -> None:
    from dominari.bots.kingdom import KINGDOM_ORDERS

    assert KINGDOM_ORDERS[2] == KINGDOM_ORDER
    for players, order in KINGDOM_ORDERS.items():
        assert sorted(order) == sorted(KINGDOM_ORDER), players
        assert order[-1] == "bmu"
    lab = ["Laboratory", "Militia"]
    assert best_rule_bot(lab) == best_rule_bot(lab, 2) == "militia"
    assert best_rule_bot(lab, 3) == best_rule_bot(lab, players=4) == "laboratory"
    assert model_bot(lab, [], 4) == "laboratory" and model_bot(lab, ["Militia"], 4) == "militia"
    assert best_rule_bot("first-game", 4) == "smithy"


@pytest.mark.parametrize("players", [1, 5, "4", 4.0, True, None, [4]])
def test_a_number_of_players_outside_2_to_4_is_refused(players: object) -> None:
    from dominari.core.errors import ConfigError

    with pytest.raises(ConfigError, match="players must be 2, 3 or 4, not"):
        best_rule_bot("first-game", players)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="players must be 2, 3 or 4, not"):
        model_bot("first-game", (), players)  # type: ignore[arg-type]


def test_why_the_orders_differ_laboratory_and_militia() -> None:
    """Double Militia beats Laboratory-BM two-handed; at a table of four (two of each)
    the Laboratories win more (KINGDOM_ORDERS, measured by benchmarks/kingdom_bots.py)."""
    kingdom = ["Laboratory", "Militia"]
    two = tournament(["militia", "laboratory"], 400, 5, kingdom=kingdom).matchups[0]
    assert two.wins[0] > two.wins[1]
    four = tournament(["laboratory", "laboratory", "militia", "militia"], 400, 5, seats=4,
                      kingdom=kingdom).matchups[0]
    assert four.wins[0] + four.wins[1] > four.wins[2] + four.wins[3]


def test_best_and_the_search_use_the_order_for_the_tables_size() -> None:
    plain = ["Laboratory", "Militia", "Chapel", "Thief", "Spy", "Adventurer", "Chancellor",
             "Feast", "Festival", "Village"]
    best = load_bot("best")
    for players, name in [(2, "Militia"), (4, "Laboratory"), (3, "Laboratory")]:
        s = DominionState.new(DominionConfig(players=players, kingdom=plain, seed=1))
        assert best.for_game(s).name == name
        assert {b.name for b in MCTSBot("dominion").models(s)} == {name}
