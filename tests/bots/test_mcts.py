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


def _dominion_buy() -> DominionState:
    """A First Game position where the player to move is buying with a real choice."""
    s = dominion()
    smithy = load_bot("smithy")
    while not (s.phase == 1 and not s.stack and s.coins >= 5):
        s.apply(smithy.act(s))
    return s


def test_the_search_follows_the_policy_unless_trust_is_beaten() -> None:
    s = _dominion_buy()
    policy_choice = load_bot("smithy").act(s)  # First Game: Smithy-BM is the policy
    stubborn = MCTSBot("dominion", iterations=60, trust=1e9, seed=1)
    assert stubborn.act(s) == policy_choice
    root = stubborn.last_root
    assert root is not None and policy_choice in root.children


def test_decisions_below_an_edge_are_split_by_what_the_searcher_observes() -> None:
    s = _dominion_buy()
    bot = MCTSBot("dominion", iterations=120, widen=1.0, seed=2)
    bot.act(s)
    root = bot.last_root
    assert root is not None
    keys = {key for edge in root.children.values() for key in edge.next}
    # A later decision of the searcher: (player, phase, coins, buys), several coin counts.
    assert keys and all(k[0] == s.current_player() and k[1] == 1 for k in keys)
    assert len({k[2] for k in keys}) > 1
    for edge in root.children.values():
        for node in edge.next.values():
            assert node.visits >= sum(ch.visits for ch in node.children.values())


def test_a_paired_search_plays_its_candidates_in_the_same_worlds() -> None:
    s = _dominion_buy()
    a = MCTSBot("dominion", iterations=60, width=3, paired=True, seed=4)
    b = MCTSBot("dominion", iterations=60, width=3, paired=True, seed=4)
    assert a.act(s) == b.act(s) and a.act(s) in s.legal_actions()
    root = a.last_root
    assert root is not None and len(root.children) == 3
    assert load_bot("smithy").act(s) in root.children  # the policy's action is a candidate
    assert {ch.visits for ch in root.children.values()} == {20}  # 60 rollouts, 20 worlds


def test_every_decision_can_be_a_node() -> None:
    s = _dominion_buy()
    bot = MCTSBot("dominion", iterations=40, tree="all", seed=5)
    assert bot.act(s) in s.legal_actions()
    with pytest.raises(ConfigError, match="tree"):
        MCTSBot("dominion", tree="some")
    with pytest.raises(ConfigError, match="margin"):
        MCTSBot("dominion", margin=2.0)


def test_a_steps_budget_is_deterministic_and_bounds_the_rollouts() -> None:
    """Steps count the actions the rollouts play (plus a set-up cost per rollout): the
    same seed gives the same choice, and the search stops once the budget is spent."""
    from dominari.bots.mcts import ROLLOUT_COST

    s = _dominion_buy()
    a = MCTSBot("dominion", iterations=None, steps=3000, width=3, paired=True, seed=6)
    b = MCTSBot("dominion", iterations=None, steps=3000, width=3, paired=True, seed=6)
    assert a.act(s) == b.act(s) and a.act(s) in s.legal_actions()
    root = a.last_root
    assert root is not None
    rollouts = sum(ch.visits for ch in root.children.values())
    # The last world's candidates may overrun the budget by at most one world's rollouts.
    assert a._steps_done >= 3000
    assert a._steps_done - rollouts * ROLLOUT_COST < 3000 + 3 * 200
    more = MCTSBot("dominion", iterations=None, steps=12000, width=3, paired=True, seed=6)
    more.act(s)
    assert more.last_root is not None
    assert sum(ch.visits for ch in more.last_root.children.values()) > rollouts
    with pytest.raises(ConfigError, match="steps"):
        MCTSBot("dominion", iterations=None, steps=0)
    with pytest.raises(ConfigError, match="prune"):
        MCTSBot("dominion", prune=-1.0)


def test_a_race_drops_candidates_that_are_clearly_behind() -> None:
    """With ``prune``, candidates behind the best by that many standard errors of the
    paired differences stop being played; the race ends when one is left."""
    s = _dominion_buy()
    racing = MCTSBot("dominion", iterations=8000, width=7, paired=True, prune=2.0, seed=7)
    choice = racing.act(s)
    assert choice in s.legal_actions()
    root = racing.last_root
    assert root is not None and len(root.children) == 7
    visits = sorted(ch.visits for ch in root.children.values())
    assert sum(visits) < 8000  # the race ended before the budget: one candidate was left
    assert all(v >= 32 for v in visits)  # none was dropped before 32 worlds
    best = max(root.children.values(), key=lambda ch: ch.visits)
    assert choice == best.action  # the winner played in the most worlds
    flat = MCTSBot("dominion", iterations=700, width=7, paired=True, seed=7)
    flat.act(s)
    assert flat.last_root is not None
    assert {ch.visits for ch in flat.last_root.children.values()} == {100}


def test_dominion_candidates_put_victory_cards_first() -> None:
    """A buy's candidates: the policy's action, then Province, Duchy and Estate where
    affordable (greening decides close games), then the dearest cards."""
    from dominari.bots.mcts import _dominion_order
    from dominari.dominion.cards import COST, IS_VICTORY

    s = _dominion_buy()
    ranked = _dominion_order(s, s.legal_actions())
    cards = [a.cards[0] for a in ranked if a.cards]
    victories = [c for c in cards if IS_VICTORY[c]]
    assert cards[: len(victories)] == victories and victories
    rest = cards[len(victories):]
    assert [COST[c] for c in rest] == sorted((COST[c] for c in rest), reverse=True)
    assert not ranked[-1].cards  # ending the buys comes last
