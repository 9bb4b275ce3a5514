"""The search's fast rollouts play exactly the game that applying each bot's action plays:
the same decisions, draws, shuffles, history and end, from any position of any kingdom."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot
from dominari.bots.playout import play_out
from dominari.bots.strategy import StrategyBot, parse_strategy_text
from dominari.dominion.engine import DominionConfig, DominionState

BOTS = ("bm", "bmu", "smithy", "smithy-market", "witch", "workshop-gardens", "militia",
        "moat")

ENGINE = """
name = "Engine"
play = ["Village", "Market", "Festival", "Laboratory"]
[[buy]]
card = "Province"
when = "total_money > 12"
[[buy]]
card = "Gold"
[[buy]]
card = "Laboratory"
[[buy]]
card = "Market"
[[buy]]
card = "Festival"
[[buy]]
card = "Village"
when = "count('Village') < 2"
[[buy]]
card = "Smithy"
when = "count('Smithy') < count('Village') + 1"
[[buy]]
card = "Militia"
when = "count('Militia') < 1"
[[buy]]
card = "Council Room"
when = "count('Council Room') < 1"
[[buy]]
card = "Moat"
when = "count('Moat') < 1"
[[buy]]
card = "Cellar"
when = "count('Cellar') < 1"
[[buy]]
card = "Throne Room"
when = "count('Throne Room') < 1"
[[buy]]
card = "Library"
when = "count('Library') < 1"
[[buy]]
card = "Spy"
when = "count('Spy') < 1"
[[buy]]
card = "Bureaucrat"
when = "count('Bureaucrat') < 1"
[[buy]]
card = "Thief"
when = "count('Thief') < 1"
[[buy]]
card = "Workshop"
when = "count('Workshop') < 1"
[[buy]]
card = "Feast"
when = "count('Feast') < 1"
[[buy]]
card = "Moneylender"
when = "count('Moneylender') < 1"
[[buy]]
card = "Chancellor"
when = "count('Chancellor') < 1"
[[buy]]
card = "Adventurer"
when = "count('Adventurer') < 1"
[[buy]]
card = "Mine"
when = "count('Mine') < 1"
[[buy]]
card = "Remodel"
when = "count('Remodel') < 1"
[[buy]]
card = "Chapel"
when = "count('Chapel') < 1"
[[buy]]
card = "Witch"
when = "count('Witch') < 1"
[[buy]]
card = "Woodcutter"
when = "count('Woodcutter') < 1"
[[buy]]
card = "Gardens"
when = "provinces_left < 4"
[[buy]]
card = "Silver"
"""
"""Buys, once each, every Action card with an effect of its own, to take the playout
through the engine's general path (attacks, gains, trashing, Throne Room)."""


def _state(bots: list[Any], kingdom: str, players: int, seed: int,
           skip: int, max_turns: int | None) -> DominionState:
    state = DominionState.new(DominionConfig(players=players, kingdom=kingdom, seed=seed,
                                             max_turns=max_turns))
    for _ in range(skip):  # a position some way into the game
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].act(state))
    return state


def _same(a: DominionState, b: DominionState) -> None:
    assert a.history == b.history
    assert a.outcome() == b.outcome() and a.is_terminal()
    assert a.supply == b.supply and a.empty_piles == b.empty_piles and a.trash == b.trash
    assert a.turn_number == b.turn_number and a.turn_player == b.turn_player
    assert (a.phase, a.actions, a.buys, a.coins) == (b.phase, b.actions, b.buys, b.coins)
    for x, y in zip(a.players, b.players, strict=True):
        assert (x.hand, x.deck, x.discard, x.in_play, x.aside, x.owned, x.turns,
                x.known_top, x.hidden, x.shown) == (y.hand, y.deck, y.discard, y.in_play,
                                                    y.aside, y.owned, y.turns, y.known_top,
                                                    y.hidden, y.shown)
    assert a.rng.getstate() == b.rng.getstate()


@pytest.mark.rule("N-TURN-1", "N-TURN-2", "N-TURN-3", "N-TURN-4", "N-END-1")
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       kingdom=st.sampled_from(["first-game", "size-distortion", "random", "big-money",
                                "interaction"]),
       names=st.lists(st.sampled_from((*BOTS, "engine")), min_size=4, max_size=4),
       skip=st.integers(0, 120), max_turns=st.sampled_from([None, None, 12]))
def test_a_fast_playout_plays_the_game_that_step_by_step_play_plays(
        seed: int, players: int, kingdom: str, names: list[str], skip: int,
        max_turns: int | None) -> None:
    bots = [StrategyBot(parse_strategy_text(ENGINE, "engine.toml", "engine")) if n == "engine"
            else load_bot(n, "dominion") for n in names[:players]]
    fast = _state(bots, kingdom, players, seed, skip, max_turns)
    slow = fast.copy()
    steps = 0
    while not slow.is_terminal():
        slow.apply(bots[slow.current_player()].act(slow))
        steps += 1
    scratch = fast.copy()
    assert play_out(fast, bots) == steps  # the search's budget counts the same steps
    _same(fast, slow)
    # A scratch game (a search's rollout) keeps no history and notes no unseen discards:
    # the same game all the same, to the last card and random number.
    assert play_out(scratch, bots, record=False) == steps
    assert len(scratch.history) <= len(slow.history)
    scratch.history = slow.history
    for x, y in zip(scratch.players, slow.players, strict=True):
        x.hidden = y.hidden
    _same(scratch, slow)


GAINER = """
name = "Gainer"
[[buy]]
card = "Province"
when = "total_money > 15"
[[buy]]
card = "Duchy"
when = "provinces_left <= 4"
[[buy]]
card = "Gold"
[[buy]]
card = "Remodel"
when = "count('Remodel') < 2"
[[buy]]
card = "Feast"
when = "count('Feast') < 2"
[[buy]]
card = "Workshop"
when = "count('Workshop') < 2"
[[buy]]
card = "Mine"
when = "count('Mine') < 1"
[[buy]]
card = "Silver"
"""
"""Two each of the cards that gain (Remodel, Feast, Workshop), and a Mine."""


@pytest.mark.rule("N-CARD-FEAST", "N-CARD-REMODEL", "N-CARD-MINE")
def test_gains_are_answered_without_act_and_play_the_same_game() -> None:
    """A gain decision (Workshop, Feast, Remodel) and a Mine's two decisions are answered
    in the playout by the strategy's own decider, checked by the decision's shortcut
    (``effects.ANSWERS``), not through ``act``: the same cards gained, a Province from a
    late Remodel and a Gold from a Mine included, and the same game."""
    from dominari.dominion.effects import GAIN_CARD, MINE, MINE_GAIN

    kingdom = "Remodel,Feast,Workshop,Witch,Gardens,Village,Smithy,Market,Mine,Militia"
    gainer = StrategyBot(parse_strategy_text(GAINER, "gainer.toml", "gainer"))
    gains = mined = 0
    asked: list[int] = []
    act = StrategyBot.act

    def watched(bot: StrategyBot, state: DominionState) -> Any:
        if state.stack and state.stack[-1].kind in (GAIN_CARD, MINE, MINE_GAIN):
            asked.append(1)
        return act(bot, state)

    for seed in range(12):
        bots: list[Any] = [gainer, load_bot("witch", "dominion")]
        fast = DominionState.new(DominionConfig(players=2, kingdom=kingdom, seed=seed))
        slow = fast.copy()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(StrategyBot, "act", watched)
            steps = play_out(fast, bots)
        assert not asked  # no gain went through act
        n = 0
        while not slow.is_terminal():
            a = bots[slow.current_player()].act(slow)
            if slow.stack and slow.stack[-1].kind == MINE_GAIN and str(a) == "gain Gold":
                mined += 1  # a Mine's upgrade (a Remodel can gain a Gold too)
            slow.apply(a)
            n += 1
        assert steps == n
        _same(fast, slow)
        gains += sum(1 for a in slow.history if str(a).startswith("gain"))
    assert gains > 50 and mined > 5 and gainer.fallbacks == 0


SIFTER = """
name = "Sifter"
play = ["Throne Room", "Cellar", "Militia", "Chapel", "Remodel", "Moat"]
[[buy]]
card = "Province"
when = "total_money > 15"
[[buy]]
card = "Gold"
[[buy]]
card = "Throne Room"
when = "count('Throne Room') < 1"
[[buy]]
card = "Militia"
when = "count('Militia') < 2"
[[buy]]
card = "Chapel"
when = "count('Chapel') < 1"
[[buy]]
card = "Cellar"
when = "count('Cellar') < 2"
[[buy]]
card = "Remodel"
when = "count('Remodel') < 1"
[[buy]]
card = "Moat"
when = "count('Moat') < 2"
[[buy]]
card = "Silver"
"""
"""The cards whose decisions the playout checks by their shortcuts (effects.ANSWERS)."""


@pytest.mark.rule("N-CARD-MILITIA", "N-CARD-MOAT", "N-CARD-CELLAR", "N-CARD-CHAPEL",
                  "N-CARD-THRONEROOM", "N-CARD-REMODEL")
def test_decisions_with_a_shortcut_skip_act_and_play_the_same_game() -> None:
    """A Militia discard, a Moat, a Cellar, a Chapel, a Throne Room or a Remodel is
    answered in the playout by the bot's own decider, checked by the decision's shortcut
    (``effects.ANSWERS``), not through ``act``: the same answers and the same game."""
    from dominari.dominion import effects as E

    kingdom = "Militia,Moat,Cellar,Chapel,Throne Room,Remodel,Village,Smithy,Market,Witch"
    sifters = [StrategyBot(parse_strategy_text(SIFTER, "sifter.toml", "sifter"))
               for _ in range(2)]
    asked: list[int] = []
    act = StrategyBot.act

    def watched(bot: StrategyBot, state: DominionState) -> Any:
        if state.stack and state.stack[-1].kind in E.ANSWERS:
            asked.append(state.stack[-1].kind)
        return act(bot, state)

    seen: set[str] = set()
    for seed in range(12):
        fast = DominionState.new(DominionConfig(players=2, kingdom=kingdom, seed=seed))
        slow = fast.copy()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(StrategyBot, "act", watched)
            steps = play_out(fast, sifters)
        assert not asked  # none went through act
        n = 0
        while not slow.is_terminal():
            if slow.stack:
                seen.add(E.KIND_NAMES[slow.stack[-1].kind])
            slow.apply(sifters[slow.current_player()].act(slow))
            n += 1
        assert steps == n
        _same(fast, slow)
    assert {"militia", "moat", "cellar", "chapel", "throne-room", "remodel"} <= seen
    assert all(b.fallbacks == 0 for b in sifters)


def test_other_bots_and_logged_games_are_played_step_by_step() -> None:
    """A bot that is not a strategy bot (here a search bot) or a game with an event log is
    played through ``act`` and ``apply``: the same game either way."""
    bots: list[Any] = [MCTSBot("dominion", iterations=4, seed=1),
                       load_bot("smithy", "dominion")]
    a = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3, log=True))
    b = a.copy()
    steps = play_out(a, bots)
    bots[0] = MCTSBot("dominion", iterations=4, seed=1)
    n = 0
    while not b.is_terminal():
        b.apply(bots[b.current_player()].act(b))
        n += 1
    assert steps == n and a.history == b.history and a.log == b.log


def test_the_search_decides_the_same_with_fast_rollouts() -> None:
    """The Dominion search's rollouts go through the fast playout: its decisions are those
    of rollouts played action by action (the same seed, the same steps budget)."""
    import dominari.bots.mcts as M

    state = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=9))
    opponent = load_bot("smithy", "dominion")
    fast = MCTSBot("dominion", iterations=None, steps=4000, width=4, paired=True,
                   margin=0.0, prune=2.5, seed=5)
    hooks = M.HOOKS["dominion"]
    assert hooks.playout is not None
    slow_hooks = M.GameHooks(hooks.scores, hooks.policy, hooks.searched, hooks.margin_scale,
                             hooks.observe, hooks.order, hooks.own)  # no playout
    slow = MCTSBot("dominion", iterations=None, steps=4000, width=4, paired=True,
                   margin=0.0, prune=2.5, seed=5)
    slow._hooks = slow_hooks
    while not state.is_terminal():
        if state.current_player() != 0:
            state.apply(opponent.act(state))
            continue
        fast.last_root = slow.last_root = None
        a = fast.act(state)
        assert slow.act(state) == a
        if fast.last_root is not None and slow.last_root is not None:  # a searched buy
            assert [(c.action, c.visits, c.value) for c in fast.last_root.children.values()] \
                == [(c.action, c.visits, c.value) for c in slow.last_root.children.values()]
        else:
            assert fast.last_root is slow.last_root is None
        state.apply(a)
