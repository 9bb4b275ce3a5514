"""How a search turns its statistics into a move and its rollouts into rewards: the trust
checks of a paired race and of the tree, the final move by visits, the backup of each edge
to the player who chose it, and the score-margin term of a finished game's reward."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot, Node
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED


def _moat_wins() -> DominionState:
    """The position of ``test_the_search_finds_a_win_its_policy_does_not_see``: its policy
    buys a Silver; the Moat ends the game on three piles, won in every world."""
    from test_bot_decisions import moat_wins

    return moat_wins()


def _policy_buys_silver(bot: MCTSBot, s: DominionState) -> Any:
    """The policy's action for the player to move, checked to be the Silver."""
    policy = bot.models(s)[s.current_player()].act(s)
    assert str(policy) == "buy Silver"
    return policy


def _dominion_buy() -> DominionState:
    """A First Game position where the player to move is buying with a real choice."""
    s = DominionState.new(DominionConfig(players=2, seed=4, kingdom=RECOMMENDED["first-game"]))
    smithy = load_bot("smithy")
    while not (s.phase == 1 and not s.stack and s.coins >= 5):
        s.apply(smithy.act(s))
    return s


def _edges(root: Node) -> list[Node]:
    """Every edge of the tree below ``root``: its children, and those of every decision
    node their ``next`` leads to, all the way down."""
    found: list[Node] = []
    edges = list(root.children.values())
    while edges:
        edge = edges.pop()
        found.append(edge)
        for node in edge.next.values():
            edges.extend(node.children.values())
    return found


# ---------------------------------------------------------------------- trust
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_paired_race_leaves_its_policy_for_a_candidate_ahead_by_trust(seed: int) -> None:
    """A paired race that prunes nothing ends with every candidate alive: it plays the
    best mean only if its paired lead over the policy's action is more than ``trust``
    standard errors. The Moat wins every world and the Silver only some, so the race
    leaves its policy's Silver for the Moat; a trust no lead can beat keeps the Silver."""
    s = _moat_wins()
    bot = MCTSBot("dominion", iterations=60, width=5, paired=True, trust=1.0, margin=0,
                  seed=seed)  # fmt: skip
    silver = _policy_buys_silver(bot, s)
    moat = bot.act(s)
    assert str(moat) == "buy Moat"
    root = bot.last_root
    assert root is not None
    assert next(iter(root.children)) == silver  # the policy's action is the first candidate
    assert {ch.visits for ch in root.children.values()} == {12}  # none pruned: 12 worlds
    won, kept = root.children[moat], root.children[silver]
    assert won.value == won.visits  # a win in every world
    assert kept.value < kept.visits  # and the Silver loses some of them
    stubborn = MCTSBot("dominion", iterations=60, width=5, paired=True, trust=1e9, margin=0,
                       seed=seed)  # fmt: skip
    assert stubborn.act(s) == silver


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_tree_leaves_its_policy_for_a_move_ahead_by_trust(seed: int) -> None:
    """Without pairing, the tree's most visited move is played when its mean beats the
    policy's by ``trust`` standard errors: the Moat, won in every world it was tried,
    over the policy's Silver; a trust no lead can beat keeps the Silver."""
    s = _moat_wins()
    bot = MCTSBot("dominion", iterations=200, trust=1.0, margin=0, seed=seed)
    silver = _policy_buys_silver(bot, s)
    moat = bot.act(s)
    assert str(moat) == "buy Moat"
    root = bot.last_root
    assert root is not None
    won, kept = root.children[moat], root.children[silver]
    assert won.value == won.visits > kept.visits > 0
    assert kept.value < kept.visits
    assert won is max(root.children.values(), key=lambda ch: ch.visits)
    stubborn = MCTSBot("dominion", iterations=200, trust=1e9, margin=0, seed=seed)
    assert stubborn.act(s) == silver


# ------------------------------------------------------------------ final move
class Staged(MCTSBot):
    """A search whose tree is given: its one iteration puts ``edges`` (action → visits,
    value) at the root instead of playing a world, so that only the final choice runs."""

    def __init__(self, *args: Any, edges: dict[Hashable, tuple[int, float]],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._edges = edges

    def _iterate(self, root: Node, world: Any, me: int, policy: list[Any],
                 rng: random.Random) -> None:
        for action, (visits, value) in self._edges.items():
            child = root.children[action] = Node(action, me)
            child.visits, child.value, child.avail = visits, value, visits
        root.visits = sum(visits for visits, _ in self._edges.values())


def _buy(s: DominionState, card: str) -> Any:
    return next(a for a in s.legal_actions() if str(a) == f"buy {card}")


def test_the_tree_plays_its_most_visited_move_not_its_best_mean() -> None:
    """The final move is the root's most visited edge (UCT's robust child), its value
    breaking a tie of visits: an edge with a higher mean but fewer visits is not taken."""
    s = _moat_wins()
    silver, moat, estate = _buy(s, "Silver"), _buy(s, "Moat"), _buy(s, "Estate")

    def choice(edges: dict[Hashable, tuple[int, float]]) -> Any:
        bot = Staged("dominion", iterations=1, trust=0.0, seed=1, edges=edges)
        return bot.act(s)

    assert choice({moat: (10, 9.0), silver: (30, 21.0)}) == silver  # 0.9 over 10, 0.7 over 30
    assert choice({silver: (10, 9.0), moat: (30, 21.0)}) == moat
    assert choice({silver: (30, 6.0), moat: (20, 15.0)}) == silver  # more value, fewer visits
    assert choice({silver: (30, 21.0), moat: (30, 24.0), estate: (5, 5.0)}) == moat  # a tie
    assert choice({moat: (30, 21.0), silver: (30, 24.0), estate: (5, 5.0)}) == silver


def test_a_search_plays_its_root_edge_of_most_visits_then_value() -> None:
    """Over the buys of a game, a search without trust plays the root edge of the most
    visits, ties broken by value, also where another edge, tried less, has a higher mean
    (a small budget leaves such lucky edges)."""
    s = DominionState.new(DominionConfig(players=2, seed=7, kingdom=RECOMMENDED["first-game"]))
    policy = load_bot("smithy")
    searched = lucky = 0
    while searched < 8:
        bot = MCTSBot("dominion", iterations=20, trust=0.0, seed=searched)
        action = bot.act(s)
        root = bot.last_root
        if root is not None:
            edges = root.children.values()
            best = max(edges, key=lambda ch: (ch.visits, ch.value))
            assert action == best.action
            lucky += best is not max(edges, key=lambda ch: (ch.value / ch.visits, ch.visits))
            searched += 1
        s.apply(policy.act(s))
        assert not s.is_terminal()
    assert lucky > 0  # the most visited edge was not always the best mean


# ---------------------------------------------------------------------- backup
class SearcherWins(MCTSBot):
    """A search whose every rollout ends in a win of the searching player alone."""

    def __init__(self, *args: Any, searcher: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._searcher = searcher

    def _rollout(self, world: Any, policy: list[Any]) -> Sequence[float]:
        return [1.0 if p == self._searcher else 0.0 for p in range(world.num_players)]


def test_every_edge_keeps_the_reward_of_the_player_who_chose_it() -> None:
    """With every decision a node (``tree="all"``), an edge chosen by the searcher gains
    the searcher's reward and one chosen by the opponent the opponent's: when the searcher
    wins every rollout, its edges are worth their visits and the opponent's nothing."""
    s = _dominion_buy()
    me = s.current_player()
    bot = SearcherWins("dominion", iterations=60, tree="all", seed=5, searcher=me)
    assert bot.act(s) in s.legal_actions()
    assert bot.last_root is not None
    edges = [e for e in _edges(bot.last_root) if e.visits]
    mine = [e for e in edges if e.player == me]
    theirs = [e for e in edges if e.player != me]
    assert mine and theirs  # both players' decisions were visited
    assert all(e.value == e.visits for e in mine)
    assert all(e.value == 0.0 for e in theirs)


# ---------------------------------------------------------------------- margin
def _finished(lead: int) -> DominionState:
    """A First Game ended on Provinces in which player 0 leads player 1 by ``lead`` VP
    (Provinces and Estates added to its 3 starting Estates)."""
    s = DominionState.new(DominionConfig(players=2, seed=4, kingdom=RECOMMENDED["first-game"]))
    provinces, estates = divmod(lead, 6)
    s.players[0].owned[C.PROVINCE] += provinces
    s.players[0].owned[C.ESTATE] += estates
    s._finish("provinces")
    assert s.score(0) - s.score(1) == lead
    return s


def test_a_finished_games_reward_blends_the_win_with_the_tanh_of_the_lead() -> None:
    """With ``margin`` m a finished game's reward is (1 - m) × the win plus m × the lead
    over the best other player squashed to 0..1 by tanh (Dominion's scale: 8 VP)."""
    m, scale = 0.5, 8.0
    bot = MCTSBot("dominion", margin=m)
    winner, loser = bot._rollout(_finished(20), [])
    assert winner == pytest.approx((1 - m) * 1.0 + m * 0.5 * (1 + math.tanh(20 / scale)))
    assert loser == pytest.approx(m * 0.5 * (1 + math.tanh(-20 / scale)))
    assert winner > 1 - m / 2 > m / 2 > loser
    # The bigger the lead, the more the winner's reward and the less the loser's.
    won, lost = zip(*(bot._rollout(_finished(lead), []) for lead in (1, 6, 12, 20)),
                    strict=True)
    assert list(won) == sorted(won) and len(set(won)) == 4
    assert list(lost) == sorted(lost, reverse=True) and len(set(lost)) == 4
    assert MCTSBot("dominion", margin=0.0)._rollout(_finished(20), []) == [1.0, 0.0]
