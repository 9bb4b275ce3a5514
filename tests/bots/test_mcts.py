"""Information-set MCTS on the core protocol, for both games (issue 6, first part)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import bot_names, load_bot
from dominari.bots.mcts import FOLLOW, LEVELS, MCTSBot, Node, mcts_bot
from dominari.core.errors import (
    ConfigError,
    IllegalActionError,
    StrategyError,
    UnknownBotError,
)
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominations.rules import Rules
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED


def dominion() -> DominionState:
    return DominionState.new(DominionConfig(players=2, seed=4,
                                            kingdom=RECOMMENDED["first-game"]))


def dominations() -> DominationsState:
    return DominationsState.new(DominationsConfig(players=2, seed=4, log=False))


def _root_statistics(bot: MCTSBot) -> list[tuple[Any, int, float, int]] | None:
    """Each root candidate's action, visits, value and availability, in the order tried."""
    root = bot.last_root
    return None if root is None else [(a, ch.visits, ch.value, ch.avail)
                                      for a, ch in root.children.items()]


def test_a_dominion_search_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    """The same seed and budget: the same statistics at every decision, not only the same
    choice; another seed samples other worlds (so the comparison can fail)."""
    state = dominion()
    other_worlds = 0
    for _ in range(25):
        if state.is_terminal():
            break
        a, b, c = (MCTSBot("dominion", iterations=8, cutoff=30, seed=seed) for seed in (1, 1, 2))
        first, second = a.act(state), b.act(state)
        assert first == second and first in state.legal_actions()
        assert _root_statistics(a) == _root_statistics(b)
        c.act(state)
        other_worlds += _root_statistics(c) != _root_statistics(a)
        state.apply(first)
    assert other_worlds >= 5


def test_a_dominations_search_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    """Dominations hides only the order of the tile supply, so the worlds differ only
    where a rollout draws tiles: played on from the first placement until a decision
    whose worlds do, every search of one seed has the same statistics, and there one of
    another seed has others."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    state, greedy = _at_growth(), DominationsGreedyBot()
    settings: dict[str, Any] = {"iterations": 3, "width": 2, "paired": True, "trust": 0.0,
                                "cutoff_turns": 1}  # fmt: skip
    for _ in range(80):
        a, b, c = (MCTSBot("dominations", seed=seed, **settings) for seed in (1, 1, 2))
        first = a.act(state)
        assert b.act(state) == first and first in state.legal_actions()
        assert _root_statistics(a) == _root_statistics(b)
        c.act(state)
        if _root_statistics(c) != _root_statistics(a):
            break
        state.apply(greedy.act(state))
    else:
        pytest.fail("no decision of 80 whose sampled worlds differ between seeds")


def test_the_tree_counts_availability_and_visits() -> None:
    s = _at_growth()
    bot = MCTSBot("dominations", iterations=12, cutoff=12, seed=2)
    bot.act(s)
    root = bot.last_root
    assert root is not None and root.children
    assert sum(ch.visits for ch in root.children.values()) == 12
    for ch in root.children.values():
        assert ch.avail >= ch.visits >= 1 and 0.0 <= ch.value <= ch.visits


def test_selection_weighs_an_action_by_the_worlds_it_was_available_in() -> None:
    """Availability-aware selection (Cowling, Powley & Whitehouse 2012): an action's
    exploration term is sqrt(log(avail) / visits), where ``avail`` counts the visits of its
    node in whose world it was legal, not the node's visits; and a visit makes available
    only the actions legal in its world. Two candidates of equal visits and mean differ
    only in availability: the one available more often is explored, where plain UCT
    would take the first; an action not legal in the world is neither counted nor taken."""
    s = _dominion_buy()
    me = s.current_player()
    bot = MCTSBot("dominion", iterations=1, width=2, seed=3)
    hooks_order = bot._hooks.order
    assert hooks_order is not None
    first, second = hooks_order(s, s.legal_actions())[:2]  # the order options are looked at
    root = Node(player=me)
    root.visits = 400
    for action, avail, value in ((first, 20, 5.0), (second, 400, 5.0), ("no action", 10, 9.0)):
        child = root.children[action] = Node(action, me)
        child.visits, child.value, child.avail = 10, value, avail
    rng = random.Random(1)
    bot._descend(None, root, s.determinize(me, rng), me, bot.models(s), rng)
    picked = {a: ch.visits for a, ch in root.children.items()}
    assert picked == {first: 10, second: 11, "no action": 10}
    assert [ch.avail for ch in root.children.values()] == [21, 401, 10]


def _tree_nodes(root: Node) -> list[Node]:
    """Every decision node below ``root`` (those its edges lead to)."""
    found: list[Node] = []
    edges = list(root.children.values())
    while edges:
        edge = edges.pop()
        for node in edge.next.values():
            found.append(node)
            edges.extend(node.children.values())
    return found


@pytest.mark.parametrize(("make", "settings"), [
    ("dominion", {"iterations": 30, "tree": "all", "widen": 1.0}),  # one tree, every player
    ("dominion", {"iterations": 12, "width": 4, "paired": True}),  # a race, as the levels
    ("dominations", {"iterations": 2, "cutoff": 8, "width": 2, "paired": True}),
    ("dominations", {"iterations": 4, "cutoff": 8}),
])  # fmt: skip
def test_the_search_plays_only_in_worlds_dealt_from_what_it_may_see(
        monkeypatch: pytest.MonkeyPatch, make: str, settings: dict[str, Any]) -> None:
    """Information-set search: every world the search plays is the game dealt again by
    ``determinize(me)`` (everything the searcher cannot see drawn afresh), or a copy of
    such a world, never the real game nor a copy of it, which would know the hidden
    cards (the other hands, every deck's order; Dominations: the tile supply's order)."""
    state = _dominion_buy() if make == "dominion" else _at_growth()
    me = state.current_player()
    cls = type(state)
    dealt: list[Any] = []  # every world dealt and every copy of one (kept: ids stay theirs)
    ids: set[int] = set()
    asked: list[int] = []

    def keep(world: Any) -> Any:
        dealt.append(world)
        ids.add(id(world))
        return world

    determinize, copy, raw_copy = cls.determinize, cls.copy, cls._copy

    def dealt_again(self: Any, player: int, rng: Any, **kw: Any) -> Any:
        asked.append(player)
        return keep(determinize(self, player, rng, **kw))

    def copied(original: Callable[..., Any]) -> Callable[..., Any]:
        def copy_of(self: Any, *args: Any, **kw: Any) -> Any:
            new = original(self, *args, **kw)
            return keep(new) if id(self) in ids else new
        return copy_of

    monkeypatch.setattr(cls, "determinize", dealt_again)
    monkeypatch.setattr(cls, "copy", copied(copy))
    monkeypatch.setattr(cls, "_copy", copied(raw_copy))
    played: list[bool] = []
    rollout = MCTSBot._rollout

    def spied(self: MCTSBot, world: Any, policy: list[Any]) -> Sequence[float]:
        played.append(id(world) in ids)
        return rollout(self, world, policy)

    monkeypatch.setattr(MCTSBot, "_rollout", spied)
    bot = MCTSBot(make, seed=3, **settings)
    assert bot.act(state) in state.legal_actions()
    assert played and all(played)
    assert asked and set(asked) == {me}  # dealt from the searcher's view, no other's


@pytest.mark.rule("N-END-1")
def test_the_search_finds_a_win_its_policy_does_not_see() -> None:
    """Two Supply piles are empty and a third holds one Moat; the player to buy leads
    and has 3 coins. Its policy (the rule bot that models its seat) buys a Silver, as
    every money bot would; the search plays each candidate on and sees that the Moat
    ends the game on three empty piles, won in every world."""
    from test_bot_decisions import moat_wins

    s = moat_wins()
    me = s.current_player()
    assert s.score(me) > s.score(1 - me)
    bot = mcts_bot("mcts:book=no", "dominion")  # the book would play its opening here
    policy = bot.models(s)[me]
    assert str(policy.act(s)) == "buy Silver"
    bot.reset(1)
    moat = bot.act(s)
    assert str(moat) == "buy Moat"
    assert bot.last_root is not None
    won = bot.last_root.children[moat]
    assert won.value == won.visits > 0  # a win in every world
    s.apply(moat)
    while not s.is_terminal():
        s.apply(policy.act(s))  # the turn's end ends the game
    outcome = s.outcome()
    assert outcome is not None and outcome.reason == "three-piles" and outcome.winners == (me,)


def test_levels_are_bot_names_of_both_games() -> None:
    for game in ("dominion", "dominations"):
        names = bot_names(game)
        for level in LEVELS[game]:
            assert level in names
            bot = load_bot(level, game=game)
            assert isinstance(bot, MCTSBot) and bot.name == level and bot.game == game
    assert LEVELS["dominations"]["mcts"]["iterations"] < LEVELS["dominations"]["mcts-hard"][
        "iterations"]


def test_dominion_levels_search_more_worlds_level_by_level() -> None:
    """The levels are budgets: ``mcts-easy`` races its 4 candidates through about 30
    worlds in all (so few that it is clearly weaker, BENCHMARKS.md), ``mcts`` and
    ``mcts-hard`` through many more."""
    s = _dominion_buy()
    worlds = {}
    for level in ("mcts-easy", "mcts", "mcts-hard"):
        bot = mcts_bot(level, "dominion")
        bot.reset(1)
        assert bot.act(s) in s.legal_actions()
        root = bot.last_root
        assert root is not None
        worlds[level] = sum(ch.visits for ch in root.children.values())
    easy = LEVELS["dominion"]["mcts-easy"]  # whole worlds for each of its candidates
    assert easy["iterations"] <= worlds["mcts-easy"] < easy["iterations"] + easy["width"]
    assert worlds["mcts-easy"] * 10 < worlds["mcts"] <= worlds["mcts-hard"]


def test_dominations_levels_race_their_candidates_through_their_worlds() -> None:
    """Each Dominations level plays each of its candidates (its width) in the same
    worlds, as many as its rollouts (iterations) take: mcts-easy 1, mcts 2, mcts-hard 3."""
    s = _at_growth()
    for level, settings in LEVELS["dominations"].items():
        bot = mcts_bot(level, "dominations")
        bot.reset(1)
        assert bot.act(s) in s.legal_actions()
        root = bot.last_root
        assert root is not None
        width, rollouts = settings["width"], settings["iterations"]
        assert len(root.children) == width and root.visits == -(-rollouts // width)
        assert [ch.visits for ch in root.children.values()] == [root.visits] * width


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


def test_options_that_would_do_nothing_are_refused() -> None:
    """A paired race without widen has no tree below its candidates, so an exploration
    constant would change nothing; an unpaired search has no race to prune. Both are
    refused instead of silently ignored, and a level's own race is dropped with its
    pairing."""
    with pytest.raises(ConfigError, match=r"c \(the exploration constant\) does nothing"):
        MCTSBot("dominion", paired=True, c=1.0)
    with pytest.raises(ConfigError, match="prune does nothing"):
        MCTSBot("dominion", prune=2.0)
    with pytest.raises(ConfigError, match="does nothing"):
        mcts_bot("mcts:c=1", "dominion")
    with pytest.raises(ConfigError, match="prune does nothing"):
        mcts_bot("mcts:paired=no:prune=2", "dominion")
    assert MCTSBot("dominion", paired=True, widen=1.0, c=1.5).c == 1.5
    assert MCTSBot("dominion").c == 0.7
    unpaired = mcts_bot("mcts:paired=no:c=1", "dominion")
    assert (unpaired.paired, unpaired.prune, unpaired.c) == (False, 0.0, 1.0)


def test_a_search_asked_what_it_cannot_answer_says_so() -> None:
    """A state of the other game, a finished game and a name that is not text are one
    clear error each, not an AttributeError from deep inside the search."""
    with pytest.raises(ConfigError, match="plays dominion games, not a DominationsState"):
        MCTSBot("dominion", iterations=5, seed=1).act(dominations())
    with pytest.raises(ConfigError, match="plays dominations games, not a DominionState"):
        MCTSBot("dominations", iterations=1, seed=1).act(dominion())
    over = dominion()
    bots = [load_bot("bm"), load_bot("bm")]
    while not over.is_terminal():
        over.apply(bots[over.current_player()].act(over))
    with pytest.raises(IllegalActionError, match="the game is over"):
        MCTSBot("dominion", iterations=5, seed=1).act(over)
    for name in (5, "", None):
        with pytest.raises(ConfigError, match="name is a non-empty string"):
            MCTSBot("dominion", name=name)  # type: ignore[arg-type]


@pytest.mark.parametrize("bot", ["mcts-easy", "random", "bm", "best", "greedy"])
@pytest.mark.parametrize("seed", [-5, 1.5, "7", None, True])
def test_a_bots_reset_takes_only_a_seed(bot: str, seed: object) -> None:
    """Every bot's ``reset(seed)`` takes what every seed is, a whole number of 0 or more:
    ``random.Random`` would play -5 as 5, and None as numbers from the system."""
    game = "dominations" if bot == "greedy" else "dominion"
    with pytest.raises(ConfigError, match="a bot's seed is a whole number of 0 or more"):
        load_bot(bot, game).reset(seed)  # type: ignore[arg-type]


def test_a_paired_race_reads_its_budget_between_worlds() -> None:
    """In a paired race a world plays every candidate still in the race, and the budget is
    read between worlds: one rollout asked for plays one world, a rollout per candidate."""
    s = dominion()
    bot = load_bot("bm")
    while not (s.phase == 1 and not s.stack and len(s.legal_actions()) > 5):
        s.apply(bot.act(s))
    search = MCTSBot("dominion", iterations=1, paired=True, width=4, seed=1)
    search.act(s)
    assert search.last_root is not None
    assert [c.visits for c in search.last_root.children.values()] == [1, 1, 1, 1]


@pytest.mark.timeout(60)  # a search that ignored its clock would never end
def test_a_time_budget_stops_the_search() -> None:
    s = _at_growth()
    bot = MCTSBot("dominations", iterations=None, seconds=0.3, cutoff=10, seed=3)
    assert bot.act(s) in s.legal_actions()
    root = bot.last_root
    assert root is not None and sum(ch.visits for ch in root.children.values()) >= 1


class Watched(MCTSBot):
    """A search that shows every rollout, once played, to ``seen(world, policy)``: the
    world where it stopped and the bots that played its seats."""

    def __init__(self, *args: Any, seen: Callable[[Any, list[Any]], None],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seen = seen

    def _rollout(self, world: Any, policy: list[Any]) -> Sequence[float]:
        out = super()._rollout(world, policy)
        self._seen(world, policy)
        return out


def _dominion_buy() -> DominionState:
    """A First Game position where the player to move is buying with a real choice."""
    s = dominion()
    smithy = load_bot("smithy")
    while not (s.phase == 1 and not s.stack and s.coins >= 5):
        s.apply(smithy.act(s))
    return s


def test_the_search_follows_the_policy_unless_trust_is_beaten() -> None:
    s = _dominion_buy()
    policy_choice = load_bot("smithy-market").act(s)  # First Game: the searcher's own bot
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


def test_a_deeper_decision_follows_the_policy_first_then_widens() -> None:
    """Below the root a decision's first edge is FOLLOW, the policy's action in each world
    (worlds that look the same to the searcher may differ in what the policy does); actual
    actions are admitted beside it only as ``widen`` lets them (0: never)."""
    s = _dominion_buy()
    strict = MCTSBot("dominion", iterations=80, seed=2)  # widen 0
    strict.act(s)
    assert strict.last_root is not None
    deeper = [node for edge in strict.last_root.children.values()
              for node in edge.next.values()]
    assert deeper and all(set(node.children) == {FOLLOW} for node in deeper)
    wide = MCTSBot("dominion", iterations=200, widen=1.0, seed=2)
    wide.act(s)
    assert wide.last_root is not None
    nodes = [node for edge in wide.last_root.children.values() for node in edge.next.values()]
    assert all(FOLLOW in node.children for node in nodes)
    assert any(len(node.children) > 1 for node in nodes)
    for node in nodes:  # one admitted while there were fewer than 1 + widen * sqrt(visits)
        assert len(node.children) < 2 + math.sqrt(node.visits)


def test_a_paired_race_with_widen_searches_below_each_candidate() -> None:
    """With ``widen`` a race grows a tree of the searcher's later decisions below each
    candidate (same worlds for all of them); without it, plain rollouts and no tree.
    Either way the search is deterministic and counts the walk against ``steps``."""
    s = _dominion_buy()
    flat = MCTSBot("dominion", iterations=60, width=3, paired=True, seed=4)
    flat.act(s)
    assert flat.last_root is not None
    assert all(not ch.next for ch in flat.last_root.children.values())
    a = MCTSBot("dominion", iterations=60, width=3, paired=True, widen=0.5, seed=4)
    b = MCTSBot("dominion", iterations=60, width=3, paired=True, widen=0.5, seed=4)
    assert a.act(s) == b.act(s) in s.legal_actions()
    root = a.last_root
    assert root is not None and {ch.visits for ch in root.children.values()} == {20}
    for ch in root.children.values():
        assert ch.next  # the searcher's next decisions, by what it observes
        assert sum(n.visits for n in ch.next.values()) <= ch.visits
    c = MCTSBot("dominion", iterations=None, steps=3000, width=3, paired=True, widen=0.5,
                seed=4)
    c.act(s)
    assert 3000 <= c._steps_done < 3000 + 3 * 400  # at most one more world's rollouts


def test_a_paired_search_plays_its_candidates_in_the_same_worlds() -> None:
    s = _dominion_buy()
    a = MCTSBot("dominion", iterations=60, width=3, paired=True, seed=4)
    b = MCTSBot("dominion", iterations=60, width=3, paired=True, seed=4)
    assert a.act(s) == b.act(s) and a.act(s) in s.legal_actions()
    root = a.last_root
    assert root is not None and len(root.children) == 3
    assert load_bot("smithy-market").act(s) in root.children  # its own bot's action too
    assert {ch.visits for ch in root.children.values()} == {20}  # 60 rollouts, 20 worlds


def test_an_own_bot_plays_the_searchers_seat(tmp_path: Path) -> None:
    """``own`` (a bot name or a strategy file) replaces the policy in the searcher's seat
    only: its buy is the root's first candidate (with ``width`` 1 the only one), and in
    every rollout it plays the searcher's seat while the opponent keeps the policy
    (Smithy-BM on First Game)."""
    own = tmp_path / "silver.toml"
    own.write_text('name = "Silver only"\n[[buy]]\ncard = "Silver"\n')
    s = _dominion_buy()
    me = s.current_player()
    silver = load_bot(str(own)).act(s)
    assert silver != load_bot("smithy").act(s)
    assert MCTSBot("dominion", iterations=9, width=1, paired=True, own=str(own)).act(s) == silver
    seats: list[list[str]] = []
    bot = Watched("dominion", iterations=12, width=3, paired=True, own=str(own), seed=3,
                  seen=lambda world, policy: seats.append([b.name for b in policy]))
    assert bot.act(s) in s.legal_actions() and bot.own == str(own)
    assert len(seats) == 12
    assert all(names[me] == "Silver only" and names[1 - me] == "Smithy" for names in seats)


def _market_or_silver() -> DominionState:
    """A First Game buy with 5 coins after a Smithy: Smithy-Market takes a Market where
    Smithy-BM takes a Silver."""
    s = dominion()
    bot = load_bot("smithy-market")
    while not (s.phase == 1 and not s.stack and s.coins == 5
               and s.players[s.current_player()].owned[C.SMITHY] > 0):
        s.apply(bot.act(s))
    return s


@pytest.mark.parametrize(("kingdom", "mine", "theirs"), [
    ("first-game", "Smithy-Market", "Smithy"),
    ("village-square", "Smithy-Market", "Smithy"),
    # Workshop/Gardens beats Witch-BM there: the searcher plays it, but another player is
    # modelled as a Gardens rush only once its buys show one (the bots here bought none).
    ("size-distortion", "Workshop/Gardens", "Witch"),
    ("interaction", "Council Room", "Council Room"),  # no Witch, Smithy or Gardens
    ("big-money", "Market", "Market"),
    (("Smithy", "Village", "Cellar", "Moat", "Militia", "Mine", "Remodel", "Woodcutter",
      "Workshop", "Chapel"), "Smithy", "Smithy"),  # no Market: Smithy-BM plays both seats
])
def test_the_search_models_its_own_seat_by_the_kingdom(
        kingdom: str | tuple[str, ...], mine: str, theirs: str) -> None:
    """Without ``own``, a Dominion search plays its own seat (in the rollouts and outside
    the tree) as the kingdom's best rule bot, as Smithy-Market where that is Smithy-BM and
    Market is in the kingdom; the opponent, having bought no Kingdom card, is the kingdom's
    first ranked money strategy (``dominari.bots.kingdom.model_bot``)."""
    cards = RECOMMENDED[kingdom] if isinstance(kingdom, str) else kingdom
    s = DominionState.new(DominionConfig(players=2, seed=4, kingdom=cards))
    while not (s.phase == 1 and not s.stack and s.coins >= 5):
        s.apply(load_bot("bmu").act(s))
    me = s.current_player()
    seats: list[list[str]] = []
    bot = Watched("dominion", iterations=6, width=2, paired=True, seed=1,
                  seen=lambda world, policy: seats.append([b.name for b in policy]))
    assert bot.act(s) in s.legal_actions()
    assert seats and all(names[me] == mine and names[1 - me] == theirs for names in seats)


def test_smithy_market_is_the_first_candidate_on_first_game() -> None:
    s = _market_or_silver()
    market, silver = load_bot("smithy-market").act(s), load_bot("smithy").act(s)
    assert [C.NAME[c] for c in market.cards] == ["Market"]
    assert [C.NAME[c] for c in silver.cards] == ["Silver"]
    assert MCTSBot("dominion", iterations=4, width=1, paired=True).act(s) == market
    # A bot's own ``own`` overrides the kingdom's: here Smithy-BM models the searcher.
    assert MCTSBot("dominion", iterations=4, width=1, paired=True, own="smithy").act(s) == silver


def test_an_own_bot_must_be_a_rule_bot() -> None:
    with pytest.raises(ConfigError, match="own must be a rule bot"):
        MCTSBot("dominion", own="mcts-easy")
    with pytest.raises(ConfigError, match="own bot 'nobody' is not a rule bot of dominion"):
        MCTSBot("dominion", own="nobody")


def test_a_broken_own_strategy_file_says_what_is_wrong_with_it(tmp_path: Path) -> None:
    """Only an unknown name becomes "not a rule bot"; a file's own error is kept."""
    bad = tmp_path / "unknown.toml"
    bad.write_text('name = "x"\n[[buy]]\ncard = "Nonesuch"\n', encoding="utf-8")
    with pytest.raises(StrategyError, match="unknown card 'Nonesuch'") as caught:
        MCTSBot("dominion", own=str(bad))
    assert not isinstance(caught.value, (ConfigError, UnknownBotError))
    with pytest.raises(StrategyError, match="cannot read strategy file"):
        MCTSBot("dominion", own=str(tmp_path / "missing.toml"))


def test_every_decision_can_be_a_node() -> None:
    """``tree="all"``: the other players' decisions (and the searcher's outside its buys)
    are nodes of the tree too; ``mine`` leaves them to the policy."""
    s = _dominion_buy()
    me = s.current_player()
    players = {}
    for tree in ("all", "mine"):
        bot = MCTSBot("dominion", iterations=40, tree=tree, seed=5)
        assert bot.act(s) in s.legal_actions()
        assert bot.last_root is not None
        players[tree] = {node.player for node in _tree_nodes(bot.last_root)}
    assert players == {"all": {0, 1}, "mine": {me}}
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


def _at_growth(seed: int = 4, players: int = 2, objectives: tuple[str, ...] = (),
               rules: Rules | None = None) -> DominationsState:
    """A Dominations game at its first tile placement (the greedy bot plays the setup)."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    s = DominationsState.new(DominationsConfig(players=players, seed=seed, log=False,
                                               objectives=objectives,
                                               rules=rules or Rules()))
    bot = DominationsGreedyBot()
    while s.stack or s.phase != 0:
        s.apply(bot.act(s))
    return s


def test_greedy_ranks_its_own_choice_first_then_the_options_it_weighed() -> None:
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    s = _at_growth()
    bot = DominationsGreedyBot()
    ranked = bot.ranked(s, 5)
    legal = s.legal_actions()
    assert len(ranked) == 5 and len(set(ranked)) == 5
    assert ranked[0] == bot.act(s) and all(a in legal for a in ranked)
    # asking for every option gives each legal placement once, the choice still first
    everything = bot.ranked(s, len(legal))
    assert everything[0] == ranked[0] and set(everything) <= set(legal)
    assert everything[:5] == ranked
    # a decision the bot does not weigh gives its choice alone
    while not s.stack:
        s.apply(bot.act(s))
    assert bot.ranked(s, 4) == [bot.act(s)]


def test_dominations_search_searches_the_choices_of_a_turn_only() -> None:
    """Placements, builds and developments are searched among the greedy bot's best options;
    the setup drafts, payments and the rest are the greedy bot's."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot
    from dominari.bots.mcts import HOOKS

    hooks = HOOKS["dominations"]
    setup = DominationsState.new(DominationsConfig(players=2, seed=4, log=False))
    assert len(setup.legal_actions()) > 1 and not hooks.searched(setup)
    bot = MCTSBot("dominations", iterations=4, cutoff=10, width=2, paired=True, trust=0.0,
                  seed=1)
    assert bot.act(setup) == DominationsGreedyBot().act(setup) and bot.last_root is None
    s = _at_growth()
    assert hooks.searched(s)
    choice = bot.act(s)
    root = bot.last_root
    assert root is not None and choice in root.children
    assert list(root.children) == DominationsGreedyBot().ranked(s, 2)
    assert [ch.visits for ch in root.children.values()] == [2, 2]  # the same 2 worlds each


def test_a_cut_off_game_is_judged_by_the_leads() -> None:
    from dominari.bots.mcts import _leads

    assert _leads([10.0, 10.0], 30.0) == [0.5, 0.5]
    a, b = _leads([40.0, 10.0], 30.0)
    assert a > 0.5 > b and a + b == pytest.approx(1.0)
    assert _leads([70.0, 10.0], 30.0)[0] > a  # graded: a bigger lead is worth more
    four = _leads([5.0, 9.0, 9.0, 1.0], 30.0)
    assert four[1] == four[2] == 0.5 and four[0] > four[3]


def test_a_cut_off_by_turns_stops_every_rollout_at_the_same_point() -> None:
    """With ``cutoff_turns`` every rollout stops when each player has had that many more
    turns (the searcher's own turn finished first), wherever the candidates' actions fall
    within a turn."""
    s = _at_growth(seed=6, players=4)
    ends: list[int] = []
    bot = Watched("dominations", iterations=6, cutoff_turns=1, width=3, paired=True,
                  trust=0.0, seed=1, seen=lambda world, policy: ends.append(world.turn_number))
    assert bot.act(s) in s.legal_actions()
    assert len(ends) == 6 and set(ends) == {s.turn_number + 4 + 1}


def _shared_victory() -> DominionState:
    """A finished First Game of two Smithy-BM bots that ends in a shared victory."""
    bot = load_bot("smithy", "dominion")
    for seed in range(200):
        s = DominionState.new(DominionConfig(players=2, seed=seed,
                                             kingdom=RECOMMENDED["first-game"]))
        while not s.is_terminal():
            s.apply(bot.act(s))
        if list(s.outcome().ranks) == [1, 1]:
            return s
    raise AssertionError("no shared victory in 200 games")


@pytest.mark.rule("N-END-2")
def test_a_shared_victory_is_worth_what_the_search_is_told() -> None:
    """By default the winners of a shared victory split a win, as the levels value it;
    ``shared`` sets what it is worth to each (0: only outright wins count), and an outright
    win is worth 1 whatever ``shared`` says."""
    tied = _shared_victory()
    assert MCTSBot("dominion")._rollout(tied, [])[:2] == [0.5, 0.5]
    assert MCTSBot("dominion", shared=0.0, margin=0.0)._rollout(tied, []) == [0.0, 0.0]
    assert MCTSBot("dominion", shared=0.25, margin=0.0)._rollout(tied, []) == [0.25, 0.25]
    won = dominion()
    bot = load_bot("smithy", "dominion")
    while not won.is_terminal():
        won.apply(bot.act(won))
    ranks = list(won.outcome().ranks)
    assert sorted(ranks) == [1, 2]
    assert MCTSBot("dominion", shared=0.0, margin=0.0)._rollout(won, []) == [
        1.0 if r == 1 else 0.0 for r in ranks]
    for game in ("dominion", "dominations"):
        assert all(mcts_bot(level, game).shared is None for level in LEVELS[game])
    with pytest.raises(ConfigError, match="shared must be between 0 and 1"):
        MCTSBot("dominion", shared=1.5)


def test_bad_cut_offs_are_refused() -> None:
    with pytest.raises(ConfigError, match="cutoff_turns must be at least 1"):
        MCTSBot("dominations", cutoff_turns=0)
    with pytest.raises(ConfigError, match="cutoff must be at least 1"):
        MCTSBot("dominations", cutoff=0)


@pytest.mark.rule("D-END-2")
def test_a_cut_off_score_counts_the_objective_met_and_the_progress_towards_it() -> None:
    """The objective's VP for the goals met now, plus half of the next step's VP for each
    goal's fraction done: O08 asks for 20 influence, then 5 city groups, 2 kinds of mastery
    cards, 35 influence and 8 city groups; the progressive table pays 0/10/20/40/70/100."""
    from dominari.bots.mcts import _objective_outlook

    s = _at_growth(objectives=("O08", "O08"))
    ps = s.players[0]
    assert [need for _, need in s.objective_progress(0)][::3] == [20, 35]
    rest = sum(have / need for have, need in s.objective_progress(0)[1:3])
    rest += sum(have / need for have, need in s.objective_progress(0)[4:])
    ps.influence = 0
    assert _objective_outlook(s, 0) == pytest.approx(0.5 * 10 * rest)
    ps.influence = 10
    assert _objective_outlook(s, 0) == pytest.approx(0.5 * 10 * (10 / 20 + 10 / 35 + rest))
    ps.influence = 20  # the first goal met: 10 VP, and the next goal is worth 10 more
    assert _objective_outlook(s, 0) == pytest.approx(10 + 0.5 * 10 * (20 / 35 + rest))
    ps.influence = 35  # two met: 20 VP, the next is worth 20 more
    assert _objective_outlook(s, 0) == pytest.approx(20 + 0.5 * 20 * rest)


@pytest.mark.rule("D-END-2")
@pytest.mark.parametrize(("table", "worth"), [("per_goal", (15, 15, 20, 15, 15)),
                                              ("ten_each", (10, 10, 10, 10, 10))])
def test_the_objective_outlook_follows_the_objective_table_in_force(
        table: str, worth: tuple[int, ...]) -> None:
    """With ``per_goal`` a goal's progress counts at that goal's own VP, with ``ten_each``
    at 10: O08's first goal is 20 influence, its fourth 35."""
    from dominari.bots.mcts import _objective_outlook

    s = _at_growth(objectives=("O08", "O08"), rules=Rules(objective_scoring=table))
    ps = s.players[0]
    progress = s.objective_progress(0)
    rest = sum(worth[i] * have / need for i, (have, need) in enumerate(progress)
               if i not in (0, 3))
    ps.influence = 10
    assert _objective_outlook(s, 0) == pytest.approx(
        0.5 * (worth[0] * 10 / 20 + worth[3] * 10 / 35 + rest))
    ps.influence = 20  # the first goal met: its own VP, whatever else is met
    assert _objective_outlook(s, 0) == pytest.approx(
        worth[0] + 0.5 * (worth[3] * 20 / 35 + rest))


@pytest.mark.rule("D-END-2")
def test_a_prototype_cut_off_score_counts_the_tree_as_it_stands() -> None:
    """The prototype's final tree scoring (§14: per domain, its mastery cards × its complete
    nodi) is in the estimate of the final score, as the tree stands at the cut-off, on top
    of what the retail estimate counts."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot, holdings_worth
    from dominari.bots.mcts import _dominations_scores, _objective_outlook
    from dominari.dominations.engine import tree_score

    s = _at_growth(rules=Rules(variant="prototype"))
    p = 0
    ps = s.players[p]
    bot = DominationsGreedyBot()
    while s.stack or tree_score(ps.tree) == 0:  # play on until the tree scores
        s.apply(bot.act(s))
    assert not s.is_terminal()
    retail_terms = (ps.vp + ps.influence * (3 - s.age + 1) + sum(ps.knowledge)
                    + _objective_outlook(s, p) + holdings_worth(s, p))
    assert _dominations_scores(s)[p] == pytest.approx(retail_terms + tree_score(ps.tree))


def test_a_cut_off_score_counts_what_the_cards_held_will_still_do() -> None:
    """A card bought for what it does each turn is worth that × the owner's turns left,
    valued as the greedy bot values it when buying: Caravans (T3a) gives a Trade unit at
    the start of every turn, so the search does not judge it a loss one round on."""
    from dominari.bots.dominations_greedy import KU_GAIN, _Eval, holdings_worth
    from dominari.bots.mcts import _dominations_scores
    from dominations.helpers import copy_of, grant  # tests/dominations/helpers.py

    s = _at_growth()
    p = 0
    before, score_before = holdings_worth(s, p), _dominations_scores(s)
    grant(s, p, copy_of(s, "T3a", p))
    turns_left = _Eval(s, p).left_game
    assert turns_left == 14  # the first turn of the game: 4 more this age, 5 in each other
    gain = holdings_worth(s, p) - before
    assert gain == pytest.approx(KU_GAIN * turns_left)
    after = _dominations_scores(s)
    assert after[p] - score_before[p] == pytest.approx(gain)
    assert after[1 - p] == score_before[1 - p]


def test_a_race_of_one_world_takes_its_best_candidate_unless_told_to_trust_the_policy() -> None:
    """Dominations' ``mcts-easy`` plays each of the greedy bot's two best options once, in
    one world: it must take the better of them there, not always the greedy bot's."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    greedy = DominationsGreedyBot()
    s = _at_growth()
    left = 0
    for _ in range(40):
        if s.is_terminal():
            break
        easy = mcts_bot("mcts-easy", "dominations")
        easy.reset(1)
        choice = easy.act(s)
        root = easy.last_root
        if root is not None and len(root.children) == 2:
            assert [ch.visits for ch in root.children.values()] == [1, 1]  # one world
            best = max(root.children.values(), key=lambda ch: ch.value)
            assert choice == best.action
            left += choice != greedy.act(s)
            trusting = MCTSBot("dominations", **{**LEVELS["dominations"]["mcts-easy"],
                                                 "trust": 1.0}, seed=1)  # no spread to trust
            assert trusting.act(s) == greedy.act(s)
        s.apply(greedy.act(s))
    assert left > 0  # the search does leave the greedy bot's choice


def test_a_time_cap_shorter_than_one_world_keeps_the_policys_action() -> None:
    """With ``seconds`` shorter than one world of every candidate (a slow Dominations
    rollout under a small server cap), the search does not run over playing the rest:
    the candidates cannot be compared, so the policy's action it is."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    s = _at_growth()
    bot = MCTSBot("dominations", iterations=9, cutoff_turns=1, width=3, paired=True,
                  trust=0.0, seconds=1e-9, seed=1)
    assert bot.act(s) == DominationsGreedyBot().act(s)
    root = bot.last_root
    assert root is not None
    assert [ch.visits for ch in root.children.values()] == []  # none even ranked


@pytest.mark.parametrize(("paired", "seconds", "ranked"), [
    (True, 0.01, 0), (True, 0.03, 1), (False, 0.01, 0), (False, 0.03, 1)])  # fmt: skip
def test_a_time_cap_that_runs_out_before_the_candidates_plays_no_world(
        paired: bool, seconds: float, ranked: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy's move and the ranking of the candidates each take about a greedy move
    (some 20 ms in a 4-player Dominations game): a cap that has run out by then plays the
    policy's move at once, with no ranking after the time is up and no world begun (it
    used to go on to rank them and begin a rollout: three greedy moves late; a tree
    search, not paired, also worked the policy's move out again once out of time)."""
    from dominari.bots import mcts as mcts_module
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    s = _at_growth()
    policy_move = DominationsGreedyBot().act(s)
    calls = {"act": 0, "ranked": 0, "apply": 0}
    real_act, real_ranked = DominationsGreedyBot.act, DominationsGreedyBot.ranked
    real_apply = DominationsState.apply

    def act(bot: Any, state: Any) -> Any:
        calls["act"] += 1
        return real_act(bot, state)

    def ranked_(bot: Any, state: Any, n: int) -> Any:
        calls["ranked"] += 1
        return real_ranked(bot, state, n)

    def apply(state: DominationsState, action: Any) -> None:
        calls["apply"] += 1
        real_apply(state, action)

    class Clock:  # 20 ms a greedy move (a ranking is one: the move, the others weighed)
        @staticmethod
        def perf_counter() -> float:
            return 0.02 * calls["act"]

    monkeypatch.setattr(DominationsGreedyBot, "act", act)
    monkeypatch.setattr(DominationsGreedyBot, "ranked", ranked_)
    monkeypatch.setattr(DominationsState, "apply", apply)
    monkeypatch.setattr(mcts_module, "time", Clock)
    bot = MCTSBot("dominations", iterations=None, seconds=seconds, width=3, paired=paired,
                  trust=0.0, seed=1)
    assert bot.act(s) == policy_move
    assert (calls["act"], calls["ranked"], calls["apply"]) == (1 + ranked, ranked, 0)
    root = bot.last_root
    assert root is not None and not root.children


class ApplyClock:
    """A clock for :mod:`dominari.bots.mcts` that reads 1 ms for every action applied
    to a Dominations state (until ``stop``, then forever after: the time is up), so
    that a time cap is a count of actions, the same on any machine."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, stop: int | None = None) -> None:
        from dominari.bots import mcts as mcts_module

        self.applied = 0
        self.stop = stop
        real_apply = DominationsState.apply

        def apply(state: DominationsState, action: Any) -> None:
            self.applied += 1
            real_apply(state, action)

        monkeypatch.setattr(DominationsState, "apply", apply)
        monkeypatch.setattr(mcts_module, "time", self)

    def perf_counter(self) -> float:
        if self.stop is not None and self.applied >= self.stop:
            return 1e9
        return self.applied * 0.001


@pytest.mark.parametrize("paired", [False, True])
def test_a_time_cap_abandons_the_rollout_that_reaches_it(
        paired: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``seconds`` is a cap, not a wish: a rollout that reaches the deadline is
    abandoned at once, and counts for nothing. Here rollouts play Dominations to its end
    (hundreds of actions, about 0.7 s at 4 players), under a cap of 20 actions' time: the
    search stops within an action of it, compares nothing, and plays the policy's move
    (it used to finish the rollout: 14 times the cap)."""
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    s = _at_growth()
    policy_move = DominationsGreedyBot().act(s)
    clock = ApplyClock(monkeypatch)
    bot = MCTSBot("dominations", iterations=None, seconds=0.02, width=3, paired=paired,
                  trust=0.0, seed=1)
    assert bot.act(s) == policy_move
    assert clock.applied <= 20 + 2  # the candidate's own action, then one rollout action
    root = bot.last_root
    assert root is not None and root.children
    assert all(ch.visits == 0 and ch.value == 0.0 for ch in root.children.values())


def test_a_race_keeps_only_the_worlds_played_for_every_candidate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A paired race whose time runs out in the middle of a world (one candidate played
    in it, not the others) leaves that world out, and is decided by the worlds played
    for every candidate; no action is played after the cap."""
    kwargs: dict[str, Any] = {"cutoff_turns": 1, "width": 3, "paired": True,
                              "trust": 0.0, "prune": 0.0, "seed": 1}
    s = _at_growth()
    clock = ApplyClock(monkeypatch)
    one = MCTSBot("dominations", iterations=3, **kwargs)  # one world of 3 candidates
    one.act(s.copy())
    world = clock.applied
    clock.applied, clock.stop = 0, world + 3  # time is up 3 actions into the second world
    capped = MCTSBot("dominations", iterations=None, seconds=60.0, **kwargs)
    action = capped.act(s.copy())
    assert clock.applied <= world + 3 + 1
    root, first = capped.last_root, one.last_root
    assert root is not None and first is not None
    assert root.visits == 1
    assert [(a, ch.visits, ch.value) for a, ch in root.children.items()] == [
        (a, ch.visits, ch.value) for a, ch in first.children.items()]
    assert action == max(root.children.values(), key=lambda ch: ch.value).action


def test_a_time_cap_begins_no_world_it_cannot_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``seconds``, a race begins another world only if a world as long as the
    longest so far would end in time: a world is played for every candidate or not at
    all, so one begun late would run past the cap by a whole world. Here a clock that
    moves only in rollouts, 0.1 s each: 3 candidates make worlds of 0.3 s, and a cap of
    1 s plays 3 worlds (0.9 s), not a 4th that would end at 1.2 s."""
    import types

    from dominari.bots import mcts as mcts_module

    clock = [0.0]
    real = MCTSBot._rollout

    def slow_rollout(self: MCTSBot, world: Any, policy: list[Any]) -> Any:
        clock[0] += 0.1
        return real(self, world, policy)

    monkeypatch.setattr(mcts_module, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    monkeypatch.setattr(MCTSBot, "_rollout", slow_rollout)
    bot = MCTSBot("dominations", iterations=None, cutoff_turns=1, width=3, paired=True,
                  trust=0.0, seconds=1.0, seed=1)
    bot.act(_at_growth())
    root = bot.last_root
    assert root is not None and root.visits == 3
    assert [ch.visits for ch in root.children.values()] == [3, 3, 3]
    assert clock[0] == pytest.approx(0.9)


def _dominion_endgame() -> DominionState:
    """A First Game position near the end (two Provinces left), the player to move buying
    with a real choice: rollouts of a few actions, where setting up the worlds costs most."""
    s = dominion()
    smithy = load_bot("smithy")
    while not (s.supply[C.PROVINCE] <= 2 and s.phase == 1 and not s.stack
               and s.coins >= 5):
        s.apply(smithy.act(s))
    return s


def _root_stats(bot: MCTSBot, state: Any) -> tuple[Any, ...]:
    action = bot.act(state.copy())
    root = bot.last_root
    assert root is not None
    return action, bot._steps_done, [(a, ch.visits, ch.value)
                                     for a, ch in root.children.items()]


@pytest.mark.parametrize("position", ["early", "endgame", "dominations"])
def test_forked_worlds_and_fast_winners_search_as_plain_copies_and_outcomes(
        position: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A race plays its candidates in one world through :func:`fork` (copies with one
    snapshot of the world's generator, the world itself last) and reads a finished
    rollout's winners through the game's fast hook: the same search, statistic for
    statistic, as a copy of the world for each candidate and the outcome's ranks."""
    import dataclasses

    from dominari.bots import mcts

    if position == "dominations":
        state: Any = _at_growth()
        spec: dict[str, Any] = {"iterations": 4, "cutoff": 10, "width": 2, "paired": True,
                                "trust": 0.0}
    else:
        state = _dominion_buy() if position == "early" else _dominion_endgame()
        spec = {"iterations": None, "steps": 6000, "width": 4, "paired": True,
                "prune": 2.5}
    game = state.game_name
    fast = _root_stats(MCTSBot(game, seed=8, **spec), state)
    monkeypatch.setattr(mcts, "fork", lambda world, n: [world.copy() for _ in range(n)])
    plain = MCTSBot(game, seed=8, **spec)
    plain._hooks = dataclasses.replace(plain._hooks, winners=None)
    assert _root_stats(plain, state) == fast
    assert len(fast[2]) >= 2  # a race indeed


@pytest.mark.parametrize("make", [dominion, dominations])
def test_forked_states_play_the_same_game(make: Callable[[], Any]) -> None:
    from dominari.bots.mcts import fork

    state = make()
    game = state.game_name
    bot = load_bot("smithy" if game == "dominion" else "greedy", game)
    copies = fork(state, 3)
    assert copies[-1] is state and len({id(c.rng) for c in copies}) == 3
    for _ in range(500 if game == "dominion" else 12):
        if state.is_terminal():
            break
        actions = {str(bot.act(c)) for c in copies}
        assert len(actions) == 1
        for c in copies:
            c.apply(bot.act(c))
    assert len({c.rng.random() for c in copies}) == 1
    assert len({str(c.outcome()) for c in copies}) == 1


@pytest.mark.parametrize("spec", [{"iterations": 12, "width": 3},
                                  {"iterations": 12, "paired": False},
                                  {"iterations": 12, "paired": False, "cutoff": 20}])
def test_a_dominion_search_plays_its_worlds_without_the_event_log(
        spec: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played with its log on (``play``, the server) is searched in unlogged worlds
    (their rollouts take the fast path), with the same statistics and moves as the game
    without a log, and its own log untouched."""
    import dominari.bots.playout as playout

    logged = DominionState.new(DominionConfig(players=2, seed=4, log=True,
                                              kingdom=RECOMMENDED["first-game"]))  # fmt: skip
    plain = DominionState.new(DominionConfig(players=2, seed=4,
                                             kingdom=RECOMMENDED["first-game"]))  # fmt: skip
    seen: list[bool] = []
    real = playout.can_play_out

    def can_play_out(state: Any, bots: Sequence[Any]) -> bool:
        seen.append(state.log is None)
        return real(state, bots)

    monkeypatch.setattr(playout, "can_play_out", can_play_out)
    moves = 0
    while moves < 12 and not logged.is_terminal():
        assert logged.log is not None
        before = list(logged.log)
        a, b = MCTSBot("dominion", seed=7, **spec), MCTSBot("dominion", seed=7, **spec)
        move = a.act(logged)
        assert logged.log == before
        assert b.act(plain) == move and _root_statistics(a) == _root_statistics(b)
        logged.apply(move)
        plain.apply(move)
        moves += 1
    if "cutoff" not in spec:  # rollouts to the end: each asked whether it may go fast
        assert seen and all(seen)


def test_a_dominations_search_plays_its_worlds_without_the_event_log(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for Dominations: a logged game (``play``, the server) is searched in
    worlds that log nothing, with the statistics and moves of the game without a log,
    and its own events untouched."""
    seen: list[bool] = []
    real = MCTSBot._rollout

    def rollout(bot: MCTSBot, world: Any, policy: list[Any]) -> Sequence[float]:
        seen.append(not world.config.log and not world.events)
        return real(bot, world, policy)

    monkeypatch.setattr(MCTSBot, "_rollout", rollout)
    from dominari.bots.dominations_greedy import DominationsGreedyBot

    logged = DominationsState.new(DominationsConfig(players=2, seed=4, log=True))
    plain = dominations()
    greedy = DominationsGreedyBot()
    while not logged.events:
        move = greedy.act(logged)
        logged.apply(move)
        plain.apply(move)
    for _ in range(3):
        while len(logged.legal_actions()) == 1 or logged.stack or logged.phase not in (0, 2, 3):
            move = greedy.act(logged)  # on to a decision the search weighs
            logged.apply(move)
            plain.apply(move)
        before = list(logged.events)
        assert before
        a = MCTSBot("dominations", iterations=2, cutoff=6, width=2, seed=7)
        b = MCTSBot("dominations", iterations=2, cutoff=6, width=2, seed=7)
        move = a.act(logged)
        assert logged.events == before and logged.config.log
        assert b.act(plain) == move and _root_statistics(a) == _root_statistics(b)
        logged.apply(move)
        plain.apply(move)
    assert seen and all(seen)
