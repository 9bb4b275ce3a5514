"""A search level with options, named wherever a bot is (issue 6: difficulty levels
"usable everywhere a bot name is", a budget "by iterations or by time per decision").

``mcts:steps=200000:width=8`` is the level ``mcts`` with those options changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominari.bots import load_bot
from dominari.bots.mcts import LEVELS, SEARCH_OPTIONS, MCTSBot, mcts_bot, search_spec
from dominari.cli import main
from dominari.core.errors import ConfigError, UnknownBotError
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED
from dominari.sim.journal import spec_files


def first_game(seed: int = 4) -> DominionState:
    return DominionState.new(DominionConfig(players=2, seed=seed,
                                            kingdom=RECOMMENDED["first-game"]))


def test_options_change_the_level_and_keep_the_rest() -> None:
    bot = load_bot("mcts:steps=20000:width=3")
    assert isinstance(bot, MCTSBot)
    assert (bot.steps, bot.width) == (20_000, 3)
    level = LEVELS["dominion"]["mcts"]
    assert (bot.prune, bot.paired, bot.iterations) == (level["prune"], True, None)
    assert bot.name == "mcts:steps=20000:width=3"  # tables tell the variants apart
    hard = load_bot("MCTS-Hard : Seconds = 1.5 : iterations = none", "dominations")
    assert isinstance(hard, MCTSBot)
    assert (hard.seconds, hard.iterations, hard.game) == (1.5, None, "dominations")
    assert hard.name == "mcts-hard:seconds=1.5:iterations=none"
    assert search_spec("smithy") is None and search_spec("mcts") == ("mcts", {})
    assert mcts_bot("mcts-easy:steps=2e5:paired=no", "dominion").steps == 200_000
    assert mcts_bot("mcts-easy:paired=no", "dominion").paired is False


def test_a_search_spec_plays_as_the_bot_built_with_the_same_settings() -> None:
    """Deterministic for a seed and a budget: the spec is only a way of naming it."""
    named = load_bot("mcts:steps=3000:width=3")
    built = MCTSBot("dominion", **{**LEVELS["dominion"]["mcts"], "steps": 3000, "width": 3})
    named.reset(9)
    built.reset(9)
    state = first_game()
    moves = 0
    while not state.is_terminal() and moves < 60:
        a, b = named.act(state), built.act(state)
        assert a == b
        state.apply(a)
        moves += 1


def test_an_own_bot_option_names_a_rule_bot_or_a_strategy_file(tmp_path: Path) -> None:
    bot = load_bot("mcts:own=bmu")
    assert isinstance(bot, MCTSBot)
    state = first_game()
    assert bot.models(state)[state.current_player()].name == "BMU"
    strategy = tmp_path / "mine.toml"
    strategy.write_text('name = "Mine"\n[[buy]]\ncard = "Province"\n[[buy]]\n'
                        'card = "Gold"\n[[buy]]\ncard = "Silver"\n', encoding="utf-8")
    spec = f"mcts:own={strategy}"
    bot = load_bot(spec)
    assert isinstance(bot, MCTSBot)
    assert bot.models(state)[state.current_player()].name == "Mine"
    # A tournament's journal is voided when that file changes.
    before = spec_files([spec, "mcts"])
    assert list(before) == [spec]
    strategy.write_text(strategy.read_text(encoding="utf-8").replace("Mine", "Mine 2"),
                        encoding="utf-8")
    assert spec_files([spec])[spec] != before[spec]


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:depth=3", "unknown option 'depth'; the options are iterations, steps"),
    ("mcts:steps", "'steps' is not option=value"),
    ("mcts:steps=", "'steps=' is not option=value"),
    ("mcts::steps=1", "'' is not option=value"),
    ("mcts:steps=1:steps=2", "option 'steps' is given twice"),
    ("mcts:steps=2.5", "steps='2.5' is not a whole number"),
    ("mcts:steps=many", "steps='many' is not a whole number"),
    ("mcts:seconds=inf", "seconds='inf' is not a number"),
    ("mcts:paired=maybe", "paired='maybe' is not yes or no"),
    ("mcts:tree=yours", "tree='yours' is not mine or all"),
    ("mcts:steps=0", "steps must be at least 1, not 0"),
    ("mcts:seconds=-1", "seconds per decision must be positive"),
    ("mcts:margin=2", "margin must be between 0 and 1"),
    ("mcts:trust=-1", "trust (standard errors) must be at least 0, not -1"),
    ("mcts:c=-0.5", "the exploration constant c must be at least 0, not -0.5"),
    ("mcts:widen=-1", "widen must be at least 0, not -1"),
    ("mcts:iterations=none:steps=none", "a search needs a budget"),
    ("mcts:own=mcts-hard", "own must be a rule bot"),
    ("mcts:own=nobody", "own bot 'nobody' is not a rule bot of dominion"),
])
def test_a_bad_option_is_refused_naming_the_spec_and_why(spec: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_bot(spec)
    assert f"search bot {spec!r}" in str(caught.value)
    assert message in str(caught.value)


def test_a_bad_level_with_options_is_an_unknown_bot() -> None:
    with pytest.raises(UnknownBotError, match="unknown bot 'mcts-insane:steps=1'"):
        load_bot("mcts-insane:steps=1")
    with pytest.raises(ConfigError, match="greedy"):  # a Dominion bot in a Dominations seat
        load_bot("mcts:own=smithy", "dominations")


def test_every_option_is_an_argument_of_the_search() -> None:
    import inspect

    arguments = inspect.signature(MCTSBot).parameters
    assert set(SEARCH_OPTIONS) <= set(arguments)


def test_simulate_takes_a_search_spec(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "dominion", "--kingdom", "first-game", "--players",
            "mcts:steps=2000:width=2,smithy", "-n", "2", "--seed", "3", "--workers", "1",
            "--no-progress", "--json"]
    assert main(args) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert [p["name"] for p in data["players"]] == ["mcts:steps=2000:width=2", "Smithy"]
    assert out.err == ""  # a budget of steps says nothing: the games depend on the seed
    assert "timed_searches" not in data
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == data


def test_a_search_stopped_by_the_clock_is_said_to_depend_on_the_machine(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "dominion", "--kingdom", "first-game", "--players",
                 "mcts-easy:seconds=0.05:iterations=8,smithy", "-n", "1", "--seed", "3",
                 "--workers", "1", "--no-progress", "--json"]) == 0
    out = capsys.readouterr()
    assert "mcts-easy:seconds=0.05:iterations=8 stops its search by the clock" in out.err
    assert "not only on --seed" in out.err
    # the JSON keeps it with the results
    assert json.loads(out.out)["timed_searches"] == ["mcts-easy:seconds=0.05:iterations=8"]
    assert main(["tournament", "dominion", "--kingdom", "first-game", "--players",
                 "mcts-easy:seconds=0.05:iterations=4,smithy,bm", "-n", "1", "--seed", "3",
                 "--workers", "1", "--no-progress", "--json"]) == 0
    tour = json.loads(capsys.readouterr().out)
    assert tour["timed_searches"] == ["mcts-easy:seconds=0.05:iterations=4"]


def test_a_bad_search_spec_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["simulate", "dominion", "-n", "2"], ["tournament", "dominion", "-n", "2"],
                    ["play", "dominion"]):
        code = main([*command, "--players", "mcts:steps=0,smithy", "--seed", "1"])
        out = capsys.readouterr()
        assert code == 2
        assert out.err.strip() == ("dominari: error: search bot 'mcts:steps=0': steps must "
                                   "be at least 1, not 0")


def test_bot_seconds_caps_a_search_that_has_its_own_clock() -> None:
    from dominari.cli import _cap_search

    slow, quick, plain = (load_bot("mcts:seconds=5"), load_bot("mcts:seconds=0.5"),
                          load_bot("mcts"))
    _cap_search([slow, quick, plain, None], 1.0)
    assert [b.seconds for b in (slow, quick, plain)] == [1.0, 0.5, 1.0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_a_random_own_model_plays_the_same_game_for_a_seed(game: str) -> None:
    """``own=random`` draws numbers of its own in the rollouts: they are seeded by the
    bot's seed too, so a seed still plays one game (they came from the system's entropy)."""
    from dominari.dominations.engine import DominationsConfig, DominationsState

    def play(seed: int) -> list[object]:
        bot = load_bot("mcts-easy:own=random:iterations=6", game)
        bot.reset(seed)
        s: object = (first_game(3) if game == "dominion" else
                     DominationsState.new(DominationsConfig(players=2, seed=3, log=False)))
        moves = []
        for _ in range(40):
            if s.is_terminal():  # type: ignore[attr-defined]
                break
            a = bot.act(s)
            moves.append(a)
            s.apply(a)  # type: ignore[attr-defined]
        return moves

    assert play(11) == play(11)
