"""The game-agnostic protocol (dominari.core) and Dominion's implementation of it."""

from __future__ import annotations

import random

import pytest

from dominari.core import (
    TERMINAL,
    ConfigError,
    DominariError,
    GameState,
    IllegalActionError,
    Outcome,
    ParseError,
    RecordError,
    StrategyError,
)
from dominari.dominion.engine import DominionConfig, DominionState


@pytest.mark.parametrize(
    "err", [ConfigError, IllegalActionError, ParseError, RecordError, StrategyError]
)
def test_errors_are_dominari_and_value_errors(err: type[Exception]) -> None:
    assert issubclass(err, DominariError) and issubclass(err, ValueError)
    with pytest.raises(DominariError, match="why"):
        raise err("why")


def test_outcome_winners_and_json() -> None:
    o = Outcome(scores=(30, 24, 30), ranks=(1, 3, 1), reason="provinces", turns=(17, 17, 17))
    assert o.winners == (0, 2) and o.is_shared_win
    assert o.to_json() == {"scores": [30, 24, 30], "ranks": [1, 3, 1], "winners": [0, 2],
                           "reason": "provinces", "turns": [17, 17, 17]}
    single = Outcome(scores=(5, 9), ranks=(2, 1), reason="turn-limit")
    assert single.winners == (1,) and not single.is_shared_win
    assert Outcome((1,), (1,), "x", extra={"a": 1}) == Outcome((1,), (1,), "x")


def test_dominion_state_implements_the_protocol() -> None:
    assert issubclass(DominionState, GameState)
    assert not getattr(DominionState, "__abstractmethods__", set())
    assert DominionState.game_name == "dominion"


def test_protocol_over_a_whole_game() -> None:
    s = DominionState.new(DominionConfig(players=2, kingdom="random", seed=21, max_turns=12))
    rng = random.Random(21)
    while not s.is_terminal():
        p = s.current_player()
        assert p != TERMINAL and s.outcome() is None
        legal = list(s.legal_actions())
        assert legal
        a = rng.choice(legal)
        assert s.parse_action(s.format_action(a)) == a
        n = len(s.history)
        s.apply(a)
        assert len(s.history) == n + 1 and s.history[-1] == a
    assert s.current_player() == TERMINAL and list(s.legal_actions()) == []
    out = s.outcome()
    assert isinstance(out, Outcome) and out.winners
    assert s.record()["outcome"] == out.to_json()
    c = s.copy()
    assert c is not s and c.outcome() == out
    d = s.determinize(0, random.Random(1))
    assert d.is_terminal() and d.outcome() == out
