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
from dominari.cli import main
from dominari.core.errors import ConfigError, StrategyError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.sim.journal import spec_files


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
    ({"bonus": "high"}, "bonus must be a finite number"),
    ({"bonus": float("inf")}, "bonus must be a finite number, not inf"),
    ({"weights": []}, "weights must be an object"),
    ({"weights": {"Platinum": [0.0] * len(FEATURES)}}, "unknown card 'Platinum'"),
    ({"weights": {"Gold": [0.0]}},
     f"weights\\['Gold'\\] must be {len(FEATURES)} finite numbers"),
    ({"weights": {"Gold": [True] * len(FEATURES)}}, "must be"),
    # JSON's NaN would never compare greater: a buy it weighs is locked in or out
    ({"weights": {"Gold": [float("nan")] + [0.0] * (len(FEATURES) - 1)}},
     f"weights\\['Gold'\\] must be {len(FEATURES)} finite numbers"),
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
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConfigError, match=r"deep\.json: not a buy policy: nested too deeply"):
        BuyPolicy.load(deep)


def test_the_valid_example_loads() -> None:
    p = BuyPolicy.from_dict(valid())
    assert p.weights[C.NAME.index("Gold")][0] == 0.1 and p.bonus == 0.5


# ------------------------------------------------------- a strategy file names its policy
SILVER_FIRST = {"format": FORMAT, "features": list(FEATURES), "bonus": 0.0,
                "weights": {"Silver": [1.0] + [0.0] * (len(FEATURES) - 1)}}
"""A policy that prefers Silver to every other buy (its bias weight; the others score 0)."""

MARKET_RULES = 'name = "Markets"\n[[buy]]\ncard = "Market"\n'


def test_a_strategy_file_plays_the_policy_it_names(tmp_path: Path) -> None:
    """``policy = "…"`` in a strategy file (relative to the file's folder) gives the bot
    that learned policy: it overrules the rules' buys wherever it scores another higher,
    in the step-by-step game and in the fast playout alike."""
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "silver.json").write_text(json.dumps(SILVER_FIRST))
    strategy = tmp_path / "markets.toml"
    strategy.write_text('policy = "policies/silver.json"\n' + MARKET_RULES)
    bot = load_bot(str(strategy), "dominion")
    assert bot.learned is not None and bot.learned.weights == BuyPolicy.from_dict(
        SILVER_FIRST).weights
    plain = load_bot("bm", "dominion")
    s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
    fast = s.copy()
    bought: list[str] = []
    while not s.is_terminal():
        a = (bot if s.current_player() == 0 else plain).act(s)
        if s.current_player() == 0 and str(a).startswith("buy"):
            bought.append(str(a))
        s.apply(a)
    assert bought and set(bought) == {"buy Silver"}  # never the rules' Market
    play_out(fast, [bot, plain])
    assert fast.history == s.history


@pytest.mark.parametrize(("line", "message"), [
    ('policy = "missing.json"', "'policy': cannot read buy policy"),
    ('policy = "bad.json"', "'policy': .*bad.json: not JSON"),
    ('policy = "old.json"', "'policy': .*format 'other'"),
    ("policy = 3", "'policy' must be the path of a buy policy file, not an integer"),
    ('policy = ""', "'policy' must be the path of a buy policy file, not a string"),
])  # fmt: skip
def test_a_bad_policy_in_a_strategy_file_says_what_is_wrong(tmp_path: Path, line: str,
                                                            message: str) -> None:
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "old.json").write_text(json.dumps({**valid(), "format": "other"}))
    strategy = tmp_path / "mine.toml"
    strategy.write_text(line + "\n" + MARKET_RULES)
    with pytest.raises(StrategyError, match=message) as e:
        load_bot(str(strategy), "dominion")
    assert str(e.value).startswith(str(strategy))  # the strategy file is named first


def test_the_command_line_plays_a_strategy_files_policy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "silver.json").write_text(json.dumps(SILVER_FIRST))
    good = tmp_path / "good.toml"
    good.write_text('policy = "silver.json"\n' + MARKET_RULES)
    assert main(["simulate", "dominion", "--kingdom", "first-game", "--players",
                 f"{good},bm", "-n", "4", "--seed", "1", "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4
    bad = tmp_path / "bad.toml"
    bad.write_text('policy = "nowhere.json"\n' + MARKET_RULES)
    assert main(["simulate", "dominion", "--players", f"{bad},bm", "-n", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dominari: error: ") and "nowhere.json" in err
    assert err.count("\n") == 1


def test_a_journal_notices_a_changed_policy(tmp_path: Path) -> None:
    """A tournament journal fingerprints a strategy file together with the policy it
    names: changing the policy alone makes the journal refuse to resume."""
    policy_file = tmp_path / "silver.json"
    policy_file.write_text(json.dumps(SILVER_FIRST))
    strategy = tmp_path / "mine.toml"
    strategy.write_text('policy = "silver.json"\n' + MARKET_RULES)
    plain = tmp_path / "plain.toml"
    plain.write_text(MARKET_RULES)
    before = spec_files([str(strategy), str(plain), "bm"])
    assert set(before) == {str(strategy), str(plain)}
    policy_file.write_text(json.dumps({**SILVER_FIRST, "bonus": 1.0}))
    after = spec_files([str(strategy), str(plain), "bm"])
    assert after[str(strategy)] != before[str(strategy)]
    assert after[str(plain)] == before[str(plain)]
