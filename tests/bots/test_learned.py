"""Learned buys: a linear policy that may overrule a strategy's buy rules."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import load_bot
from dominari.bots.learned import FEATURES, FORMAT, NOTHING, BuyPolicy, buy_features
from dominari.bots.playout import play_out
from dominari.core.errors import ConfigError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState


def policy(seed: int, bonus: float = 0.0) -> BuyPolicy:
    """Random weights: a policy that leaves the rules often, for any kingdom."""
    rng = random.Random(seed)
    return BuyPolicy([[rng.uniform(-1, 1) for _ in FEATURES] for _ in range(NOTHING + 1)],
                     bonus)


def valid() -> dict[str, Any]:
    return {"format": FORMAT, "features": list(FEATURES), "bonus": 0.5,
            "weights": {"Gold": [0.1] * len(FEATURES), "nothing": [0.0] * len(FEATURES)}}


@pytest.mark.rule("N-TURN-2")
def test_every_learned_buy_is_legal_and_a_game_ends() -> None:
    for seed in range(20):
        s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=seed))
        bots = [load_bot("smithy-market", "dominion"), load_bot("smithy", "dominion")]
        bots[0].learned = policy(seed)
        while not s.is_terminal():
            a = bots[s.current_player()].act(s)
            assert s.is_legal(a)
            s.apply(a)


def test_a_large_bonus_keeps_the_rules_buy() -> None:
    rules = load_bot("smithy-market", "dominion")
    learned = load_bot("smithy-market", "dominion")
    learned.learned = policy(3, bonus=1e6)
    s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=5))
    while not s.is_terminal():
        a = rules.act(s) if s.current_player() == 0 else learned.act(s)
        assert a == rules.act(s)
        s.apply(a)


@pytest.mark.rule("N-TURN-1", "N-TURN-2", "N-TURN-3")
@pytest.mark.parametrize("players", [2, 3])
def test_a_fast_playout_with_learned_buys_plays_the_step_by_step_game(players: int) -> None:
    for seed in range(15):
        bots = [load_bot(n, "dominion") for n in ("smithy-market", "smithy", "bmu")[:players]]
        bots[0].learned = policy(seed)
        fast = DominionState.new(DominionConfig(players=players, kingdom="first-game",
                                                seed=seed))
        slow = fast.copy()
        n = 0
        while not slow.is_terminal():
            slow.apply(bots[slow.current_player()].act(slow))
            n += 1
        assert play_out(fast, bots) == n
        assert fast.history == slow.history and fast.outcome() == slow.outcome()


def test_features_describe_the_buyer() -> None:
    s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
    p = s.current_player()
    x = dict(zip(FEATURES, buy_features(s, p), strict=True))
    assert x["bias"] == 1.0 and x["deck_size"] == pytest.approx(10 / 30)
    assert x["money_density"] == pytest.approx(0.7) and x["green_density"] == 0.3
    assert x["provinces_left"] == 1.0 and x["vp_lead"] == 0.0 and x["played_first"] == 1.0
    assert x["draw_pile_share"] == 0.5  # five in hand, five to draw


def test_a_policy_round_trips_through_json(tmp_path: Path) -> None:
    p = policy(7, bonus=2.0)
    path = tmp_path / "w.json"
    path.write_text(json.dumps(p.to_dict()))
    q = BuyPolicy.load(path)
    assert q.weights == p.weights and q.bonus == p.bonus


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "other"}, "format 'other'"),
    ({"features": ["bias"]}, "features are not this version's"),
    ({"bonus": "high"}, "bonus must be a number"),
    ({"weights": []}, "weights must be an object"),
    ({"weights": {"Platinum": [0.0] * len(FEATURES)}}, "unknown card 'Platinum'"),
    ({"weights": {"Gold": [0.0]}}, f"weights\\['Gold'\\] must be {len(FEATURES)} numbers"),
    ({"weights": {"Gold": [True] * len(FEATURES)}}, "must be"),
])
def test_a_bad_policy_file_says_what_is_wrong(tmp_path: Path, change: dict[str, Any],
                                               message: str) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({**valid(), **change}))
    with pytest.raises(ConfigError, match=message):
        BuyPolicy.load(path)


def test_an_unreadable_policy_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read buy policy"):
        BuyPolicy.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ConfigError, match="not JSON"):
        BuyPolicy.load(bad)


def test_the_valid_example_loads() -> None:
    p = BuyPolicy.from_dict(valid())
    assert p.weights[C.NAME.index("Gold")][0] == 0.1 and p.bonus == 0.5
