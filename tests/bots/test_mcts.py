"""Information-set MCTS on the core protocol, for both games (issue 6, first part)."""

from __future__ import annotations

import pytest

from dominari.bots import bot_names, load_bot
from dominari.bots.mcts import LEVELS, MCTSBot, mcts_bot
from dominari.core.errors import ConfigError, StrategyError
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED


def dominion() -> DominionState:
    return DominionState.new(DominionConfig(players=2, seed=4,
                                            kingdom=RECOMMENDED["first-game"]))


def dominations() -> DominationsState:
    return DominationsState.new(DominationsConfig(players=2, seed=4, log=False))


@pytest.mark.parametrize("make", [dominion, dominations])
def test_search_returns_legal_actions_and_is_deterministic(make: object) -> None:
    state = make()  # type: ignore[operator]
    game = state.game_name
    for _ in range(25):
        if state.is_terminal():
            break
        a = MCTSBot(game, iterations=8, cutoff=30, seed=1)
        b = MCTSBot(game, iterations=8, cutoff=30, seed=1)
        first, second = a.act(state), b.act(state)
        assert first == second and first in state.legal_actions()
        state.apply(first)


def test_the_tree_counts_availability_and_visits() -> None:
    s = dominations()
    while len(s.legal_actions()) < 2:
        s.apply(s.legal_actions()[0])
    bot = MCTSBot("dominations", iterations=30, cutoff=20, seed=2)
    bot.act(s)
    root = bot.last_root
    assert root is not None and root.children
    assert sum(ch.visits for ch in root.children.values()) == 30
    for ch in root.children.values():
        assert ch.avail >= ch.visits >= 1 and 0.0 <= ch.value <= ch.visits


def test_levels_are_bot_names_of_both_games() -> None:
    for game in ("dominion", "dominations"):
        names = bot_names(game)
        for level in LEVELS[game]:
            assert level in names
            bot = load_bot(level, game=game)
            assert isinstance(bot, MCTSBot) and bot.name == level and bot.game == game
    assert LEVELS["dominations"]["mcts"]["iterations"] < LEVELS["dominations"]["mcts-hard"][
        "iterations"]


def test_bad_budgets_and_names_are_refused() -> None:
    with pytest.raises(ConfigError, match="budget"):
        MCTSBot("dominion", iterations=None)
    with pytest.raises(ConfigError, match="at least 1"):
        MCTSBot("dominion", iterations=0)
    with pytest.raises(ConfigError, match="no search for the game"):
        MCTSBot("chess")
    with pytest.raises(ConfigError, match="unknown search level"):
        mcts_bot("mcts-insane", "dominion")
    with pytest.raises(StrategyError):
        load_bot("mcts-insane", game="dominations")


def test_a_time_budget_stops_the_search() -> None:
    s = dominations()
    while len(s.legal_actions()) < 2:
        s.apply(s.legal_actions()[0])
    bot = MCTSBot("dominations", iterations=None, seconds=0.05, cutoff=10, seed=3)
    assert bot.act(s) in s.legal_actions()
    root = bot.last_root
    assert root is not None and sum(ch.visits for ch in root.children.values()) >= 1
