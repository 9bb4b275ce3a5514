"""Whole games between bots: they finish, are reproducible, and play sensibly."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from dominari.bots import BUILTIN_BOTS, Bot, RandomBot, load_bot
from dominari.core.game import Outcome
from dominari.dominion.engine import DominionConfig, DominionState

MAX_DECISIONS = 20_000


def play(bots: Sequence[Bot], seed: int, kingdom: str = "first-game",
         max_turns: int | None = None) -> DominionState:
    for i, b in enumerate(bots):
        b.reset(seed * 7 + i)
    s = DominionState.new(DominionConfig(players=len(bots), kingdom=kingdom, seed=seed,
                                         max_turns=max_turns))
    for _ in range(MAX_DECISIONS):
        if s.is_terminal():
            return s
        s.apply(bots[s.current_player()].act(s))
    raise AssertionError(f"game {seed} did not finish in {MAX_DECISIONS} decisions")


def wins(a: str, b: str, games: int, kingdom: str) -> tuple[float, float]:
    """Share of games won outright by ``a`` and by ``b``, seats alternating."""
    bot_a, bot_b = load_bot(a), load_bot(b)
    won = [0, 0]
    for seed in range(games):
        seats = [bot_a, bot_b] if seed % 2 == 0 else [bot_b, bot_a]
        out = play(seats, seed, kingdom).outcome()
        assert isinstance(out, Outcome)
        if len(out.winners) == 1:
            winner = seats[out.winners[0]]
            won[0 if winner is bot_a else 1] += 1
    return won[0] / games, won[1] / games


def test_random_bot_is_legal_and_reproducible() -> None:
    bot = RandomBot()
    assert isinstance(bot, Bot) and bot.name == "random"
    records = []
    for _ in range(2):
        s = play([bot, RandomBot(5)], seed=3)
        records.append(s.record())
    assert records[0] == records[1]
    other = play([bot, RandomBot(5)], seed=3)
    bot.reset(99)
    s = DominionState.new(DominionConfig(seed=3))
    assert s.is_legal(bot.act(s))
    assert other.record() == records[0]


def test_random_bots_only_play_legal_actions() -> None:
    for seed in range(40):
        bots = [RandomBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)]
        s = DominionState.new(DominionConfig(players=3, kingdom="random", seed=seed))
        while not s.is_terminal():
            a = bots[s.current_player()].act(s)
            assert s.is_legal(a)
            s.apply(a)


def test_strategy_games_are_deterministic() -> None:
    a = play([load_bot("smithy"), load_bot("witch")], seed=17, kingdom="village-square")
    b = play([load_bot("smithy"), load_bot("witch")], seed=17, kingdom="village-square")
    assert a.record() == b.record()


def test_thousands_of_games_finish() -> None:
    kingdoms = ["first-game", "big-money", "interaction", "size-distortion",
                "village-square", "Witch", "random"]
    names = list(BUILTIN_BOTS)
    played = 0
    for seed in range(2400):
        n = 2 + seed % 3
        seats = [load_bot(names[(seed + 2 * i) % len(names)]) for i in range(n)]
        kingdom = kingdoms[seed % len(kingdoms)]
        s = play(seats, seed, kingdom)
        out = s.outcome()
        assert out is not None and out.reason in ("provinces", "three-piles")
        assert all(getattr(b, "fallbacks", 0) == 0 for b in seats)
        played += 1
    assert played == 2400


def test_bm_takes_provinces_and_ends_games_by_provinces() -> None:
    s = play([load_bot("bm"), load_bot("bm")], seed=5)
    out = s.outcome()
    assert out is not None and out.reason == "provinces"
    assert sum(s.score(p) for p in range(2)) >= 8 * 6


def test_sanity_gate_bmu_beats_bm() -> None:
    """Published figure: Big Money Ultimate beats plain Big Money about 81%."""
    bmu, bm = wins("bmu", "bm", 2000, "first-game")
    assert bmu > 0.65, (bmu, bm)


@pytest.mark.parametrize(
    ("a", "b", "kingdom", "games", "least"),
    [
        ("smithy", "bmu", "first-game", 600, 0.6),
        ("witch", "bmu", "Witch", 400, 0.8),
        ("witch", "smithy", "Witch, Smithy", 400, 0.7),
        ("bm", "random", "random", 100, 0.99),
    ],
)
def test_stronger_bots_win(a: str, b: str, kingdom: str, games: int, least: float) -> None:
    share, _ = wins(a, b, games, kingdom)
    assert share >= least, share


@pytest.mark.parametrize("kingdom", ["first-game", "size-distortion"])
def test_every_builtin_bot_pickles_and_plays_on_the_same(kingdom: str) -> None:
    """A pickled bot (a rule bot's conditions are closures: they are compiled again from
    their text) plays the same game as the bot it was made from."""
    import pickle

    from dominari.bots.base import playing

    state = DominionState.new(DominionConfig(kingdom=kingdom, seed=1))
    for name in BUILTIN_BOTS:
        bot = playing(load_bot(name), state)
        copy = pickle.loads(pickle.dumps(bot))
        assert copy.name == bot.name
        assert (play([bot, load_bot("bm")], seed=3, kingdom=kingdom).history
                == play([copy, load_bot("bm")], seed=3, kingdom=kingdom).history)


def test_a_copied_rule_bot_keeps_what_was_set_on_it() -> None:
    """A pickle or a deep copy of a rule bot keeps its learned policy, its name and its
    count of fallbacks (only the compiled conditions and deciders are built again), and
    plays the same games."""
    import copy
    import pickle
    import random

    from dominari.bots.learned import FEATURES, NOTHING, BuyPolicy

    rng = random.Random(4)
    bot = load_bot("smithy-market")
    bot.learned = BuyPolicy([[rng.uniform(-1, 1) for _ in FEATURES]
                             for _ in range(NOTHING + 1)], 0.0)
    bot.name, bot.fallbacks = "mine", 3
    for other in (pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)):
        assert (other.name, other.fallbacks, other.strategy) == ("mine", 3, bot.strategy)
        assert other.learned is not None and other.learned.weights == bot.learned.weights
        for seed in range(3):
            assert (play([other, load_bot("bm")], seed=seed).history
                    == play([bot, load_bot("bm")], seed=seed).history)


def test_the_readmes_library_example_plays_the_same_game_twice(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The README's library example: a search bot and a rule bot, reset with seeds, play a
    whole game, and the same game again."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    (example,) = [b for b in blocks if "load_bot(\"mcts-easy\")" in b]
    code = compile(example, "README.md", "exec")
    exec(code, {})
    first = capsys.readouterr().out
    exec(code, {})
    assert capsys.readouterr().out == first
    assert first.startswith("(") and "buy " in first
