"""A search level with options, named wherever a bot is (issue 6: difficulty levels
"usable everywhere a bot name is", a budget "by iterations or by time per decision").

``mcts:steps=200000:width=8`` is the level ``mcts`` with those options changed."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

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
    ("mcts:steps=\uff11\uff10", "steps='\uff11\uff10' is not a whole number"),
    ("mcts:steps=1__0", "steps='1__0' is not a whole number"),
    ("mcts:steps=1e-999999", "steps='1e-999999' is not a whole number"),
    ("mcts:steps=9007199254740993", "steps='9007199254740993' is not at most "
                                    "1,000,000,000,000"),
    ("mcts-easy:width=1e300", "width='1e300' is not at most 1,000,000,000,000"),
    ("mcts:seconds=\uff11", "seconds='\uff11' is not a number"),
    ("mcts:seconds=-inf", "seconds='-inf' is not a finite number"),
    ("mcts:steps=-1e13", "steps='-1e13' is not positive"),
    ("mcts:steps=-1e9999999999999999999", "is not positive"),
    ("mcts:steps=1e9999999999999999999", "is not at most 1,000,000,000,000"),
    ("mcts:seconds=e5", "seconds='e5' is not a number"),
    ("mcts:seconds=+-inf", "seconds='+-inf' is not a number"),
    ("mcts:seconds=.e1", "seconds='.e1' is not a number"),
    ("mcts:seconds=inf", "seconds='inf' is not a finite number"),
    ("mcts:seconds=nan", "seconds='nan' is not a finite number"),
    ("mcts:seconds=61", "seconds='61' is not at most 60; a longer search takes steps or "
                        "iterations instead"),
    ("mcts:seconds=0", "seconds='0' is not more than 0 (seconds:"),
    ("mcts:seconds=none", "seconds=none changes nothing: Dominion's mcts has no limit of "
                          "seconds (mcts: 100,000 rollout steps"),
    ("mcts:iterations=none", "iterations=none changes nothing"),
    ("mcts-easy:book=no", "book=no changes nothing: Dominion's mcts-easy has no opening "
                          "book"),
    ("mcts:own=none", "own=none changes nothing"),
    ("mcts:own=None", "own=None changes nothing"),
    ("mcts:paired=maybe", "paired='maybe' is not yes or no"),
    ("mcts:tree=yours", "tree='yours' is not mine or all"),
    ("mcts:steps=0", "steps must be at least 1, not 0"),
    ("mcts:seconds=-1", "seconds='-1' is not more than 0 (seconds:"),
    ("mcts:margin=2", "margin must be between 0 and 1"),
    ("mcts:trust=-1", "trust (standard errors) must be at least 0, not -1"),
    ("mcts:c=-0.5", "the exploration constant c must be at least 0, not -0.5"),
    ("mcts:widen=-1", "widen must be at least 0, not -1"),
    ("mcts:steps=none", "a search needs a budget"),
    ("mcts-easy:iterations=none", "a search needs a budget"),
    ("mcts:own=mcts-hard", "own must be a rule bot"),
    ("mcts:own=nobody", "own bot 'nobody' is not a rule bot of dominion"),
])
def test_a_bad_option_is_refused_naming_the_spec_and_why(spec: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_bot(spec)
    assert f"search bot {spec!r}" in str(caught.value)
    assert message in str(caught.value)


def test_numbers_are_read_as_python_writes_them() -> None:
    """Underscores between digits, in a fraction and an exponent too, a sign, a point, an
    exponent: as Python reads them, whole numbers exactly (not through a float)."""
    bot = load_bot("mcts:steps=1_5e1_0:trust=0.000_5:margin=+.5e-0_1")
    assert isinstance(bot, MCTSBot)
    assert (bot.steps, bot.trust, bot.margin) == (150_000_000_000, 0.0005, 0.05)
    bot = load_bot("mcts:steps=999_999_999_999.0")
    assert isinstance(bot, MCTSBot) and bot.steps == 999_999_999_999


@hypothesis_settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789_.eE+-", max_size=10))
def test_a_number_is_what_python_reads(text: str) -> None:
    """A spec's number is any text Python's ``float`` reads, with its value; a whole one
    is read exactly, up to 10^12; any other text is refused with a message of ours."""
    from dominari.bots.mcts import _real, _whole

    try:
        expected: float | None = float(text)
    except ValueError:
        expected = None
    try:
        got: float | None = _real(text)
    except ValueError as e:
        assert str(e) in ("a number", "a finite number")
        got = None
    assert got == expected or (expected is not None and not math.isfinite(expected))
    try:
        whole = _whole(text)
    except ValueError as e:
        assert str(e) in ("a whole number", "at most 1,000,000,000,000", "positive")
        return
    assert expected is not None and whole == expected and abs(expected) <= 10**12


def test_a_bad_level_with_options_is_an_unknown_bot() -> None:
    with pytest.raises(UnknownBotError, match="unknown bot 'mcts-insane:steps=1'"):
        load_bot("mcts-insane:steps=1")
    with pytest.raises(UnknownBotError, match=r"unknown bot 'mcts-hrad' \(did you mean "
                                              r"'mcts-hard'\?\): use one of"):
        load_bot("mcts-hrad")
    with pytest.raises(UnknownBotError, match=r"unknown Dominations bot 'mcts_easy' \(did "
                                              r"you mean 'mcts-easy'\?\)"):
        load_bot("mcts_easy", "dominations")


@pytest.mark.parametrize(("spec", "game"), [("smithy:width=3", "dominion"),
                                             ("greedy:seconds=1", "dominations")])
def test_a_rule_bot_given_options_is_told_only_a_level_takes_them(spec: str, game: str) -> None:
    name = spec.partition(":")[0]
    with pytest.raises(ConfigError, match=f"bot '{spec}': {name} takes no options \\(only a "
                                          "search level does: mcts-easy, mcts, mcts-hard\\)"):
        load_bot(spec, game)


def test_a_book_word_is_named_in_lower_case_and_a_book_file_as_given() -> None:
    assert load_bot("mcts:book=YES").name == load_bot("mcts:book=yes").name == "mcts:book=yes"
    assert load_bot("mcts:book=No").name == "mcts:book=no"
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
    # play says so too, for a spec's clock and for --bot-seconds, two bots in one line
    assert main(["play", "dominion", "--kingdom", "first-game", "--players",
                 "mcts-easy:iterations=4,mcts-easy:width=3:iterations=4", "--seed", "3",
                 "--max-turns", "2", "--bot-seconds", "0.05"]) == 0
    err = capsys.readouterr().err
    assert "note: mcts-easy:iterations=4:seconds=0.05, mcts-easy:width=3:iterations=4:" \
        "seconds=0.05 stop their searches by the clock: their games depend on the " \
        "machine's speed and load, not only on --seed" in err
    assert main(["play", "dominion", "--kingdom", "first-game", "--players",
                 "mcts-easy:iterations=4,bm", "--seed", "3", "--max-turns", "2"]) == 0
    assert "by the clock" not in capsys.readouterr().err  # without a clock: no note


def test_bots_lists_every_bot_the_levels_budgets_and_the_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    from dominari.bots import bot_names
    from dominari.bots.mcts import describe_level

    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    assert "Dominion bots" in out and "Dominations bots" in out
    assert out.count("FILE.py:NAME") == 2
    for option in SEARCH_OPTIONS:
        assert f" {option} " in out
    for game in ("dominion", "dominations"):
        assert main(["bots", game, "--json"]) == 0
        listing = json.loads(capsys.readouterr().out)
        assert [b["name"] for b in listing["bots"]] == list(bot_names(game))
        for level, settings in LEVELS[game].items():
            entry = next(b for b in listing["bots"] if b["name"] == level)
            assert entry["kind"] == "search" and entry["settings"] == settings
            assert entry["budget"] == describe_level(settings)
            load_bot(level, game)  # each listed bot loads
        assert ("book" in listing["search_options"]) == (game == "dominion")
        assert "FILE.py" in listing["python_bots"]  # a bot of one's own, in both games
        # a level says how strong it measured, against the game's own rule bots
        plays = {b["name"]: b["plays"] for b in listing["bots"]}
        rival = "smithy" if game == "dominion" else "greedy"
        assert f"against {rival}" in plays["mcts"] and f"against {rival}" in plays["mcts-easy"]
    assert "search, quick: wins 4 in 10 two-player games against smithy on First Game; 30 " \
        "rollouts" in " ".join(out.split())
    assert "100,000 rollout steps" in describe_level(LEVELS["dominion"]["mcts"])
    assert main(["bots", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


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
