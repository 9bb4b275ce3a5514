"""Bots and their helpers misused: a finished game, the other game's state, a bad spec or
argument each get one clear error of the project, as the search bot's, not a raw Python
one from inside the bot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import BUILTIN_BOTS, DOMINATIONS_BOTS, load_bot
from dominari.bots.kingdom import KingdomBestBot, best_rule_bot, model_bot
from dominari.bots.mcts import MAX_SECONDS, MCTSBot
from dominari.bots.random_bot import RandomBot
from dominari.core.errors import ConfigError, IllegalActionError, UnknownBotError
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.sim.runner import load_bots

OVER = "the game is over: there is no decision to make"


def _finished(state: Any, bot: Any) -> Any:
    bot.reset(1)
    while not state.is_terminal():
        state.apply(bot.act(state))
    return state


@pytest.fixture(scope="module")
def dominion_over() -> DominionState:
    state = DominionState.new(DominionConfig(seed=1, kingdom="first-game"))
    return _finished(state, load_bot("bm"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def dominations_over() -> DominationsState:
    state = DominationsState.new(DominationsConfig(seed=1, log=False))
    return _finished(state, load_bot("random", "dominations"))  # type: ignore[no-any-return]


RULE_BOTS = [name for name in BUILTIN_BOTS if name != "random"]  # the strategies and best


@pytest.mark.parametrize("name", BUILTIN_BOTS)
def test_a_dominion_bot_says_a_finished_game_is_over(name: str,
                                                     dominion_over: DominionState) -> None:
    with pytest.raises(IllegalActionError, match=OVER):
        load_bot(name).act(dominion_over)


@pytest.mark.parametrize("name", DOMINATIONS_BOTS)
def test_a_dominations_bot_says_a_finished_game_is_over(
        name: str, dominations_over: DominationsState) -> None:
    with pytest.raises(IllegalActionError, match=OVER):
        load_bot(name, "dominations").act(dominations_over)


def test_the_search_says_it_the_same_way(dominion_over: DominionState) -> None:
    with pytest.raises(IllegalActionError, match=OVER):
        MCTSBot("dominion", iterations=5).act(dominion_over)


@pytest.mark.parametrize("name", RULE_BOTS)
def test_a_dominion_rule_bot_names_its_game_given_a_dominations_state(name: str) -> None:
    bot = load_bot(name)
    state = DominationsState.new(DominationsConfig(seed=1, log=False))
    with pytest.raises(ConfigError) as caught:
        bot.act(state)  # type: ignore[arg-type]
    assert str(caught.value) == f"{bot.name} plays dominion games, not a DominationsState"


def test_best_names_its_game_when_handed_a_dominations_game() -> None:
    state = DominationsState.new(DominationsConfig(seed=1, log=False))
    with pytest.raises(ConfigError, match=r"^Best plays dominion games, not a "
                                          r"DominationsState$"):
        KingdomBestBot().for_game(state)  # type: ignore[arg-type]


def test_the_greedy_bot_names_its_game_given_a_dominion_state() -> None:
    state = DominionState.new(DominionConfig(seed=1, kingdom="first-game"))
    with pytest.raises(ConfigError, match=r"^greedy plays dominations games, not a "
                                          r"DominionState$"):
        load_bot("greedy", "dominations").act(state)


def test_the_random_bot_plays_either_game_but_no_finished_one(
        dominations_over: DominationsState) -> None:
    bot = RandomBot(seed=1)
    state = DominationsState.new(DominationsConfig(seed=1, log=False))
    assert bot.act(state) in state.legal_actions()  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=OVER):
        bot.act(dominations_over)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^random plays a game's state, not a NoneType$"):
        bot.act(None)  # type: ignore[arg-type]


def test_a_bot_failing_on_a_game_in_play_keeps_its_own_error() -> None:
    """Only misuse is turned into a clear error: a bot's own bug stays as it was raised."""
    bot = load_bot("bm")
    bot._rules = None  # type: ignore[attr-defined]
    state = DominionState.new(DominionConfig(seed=1, kingdom="first-game"))
    while state.phase_name != "buy":
        state.apply(state.legal_actions()[-1])
    with pytest.raises(TypeError):
        bot.act(state)


# -- helpers' arguments ---------------------------------------------------------------------


def test_load_bots_refuses_one_string_of_names_as_simulate_does() -> None:
    with pytest.raises(ConfigError) as caught:
        load_bots("bm,bm")  # type: ignore[arg-type]
    assert str(caught.value) == ("the bots are a list of bot specs, one per seat, not the "
                                 "string 'bm,bm': ['bm', 'bm']")


@pytest.mark.parametrize(("specs", "words"), [
    ([None], "a bot is named by a string (one of random, bm,"),
    ([load_bot("bm")], "a bot is named by a string"),
    (None, "the bots are a list of bot specs, one per seat, not None"),
])
def test_load_bots_refuses_what_names_no_bot(specs: Any, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_bots(specs)
    assert words in str(caught.value)


@pytest.mark.parametrize("kingdom", [None, 5, [None]])
def test_the_best_rule_bot_of_no_kingdom_is_refused(kingdom: Any) -> None:
    with pytest.raises(ConfigError, match="a kingdom is a set's name or a list of card names "
                                          "or ids, not "):
        best_rule_bot(kingdom)
    with pytest.raises(ConfigError, match="a kingdom is a set's name"):
        model_bot(kingdom)


@pytest.mark.parametrize("make", [
    lambda: DominionState.new(DominionConfig(seed=1)),
    lambda: DominationsState.new(DominationsConfig(seed=1, log=False)),
])
def test_a_copy_needs_a_generator_as_determinize_does(make: Any) -> None:
    state = make()
    with pytest.raises(ConfigError, match=r"^copy needs a random\.Random, not 5$"):
        state.copy(5)
    with pytest.raises(ConfigError, match=r"^determinize needs a random\.Random, not 5$"):
        state.determinize(0, 5)
    rng = random.Random(3)
    assert state.copy(rng).rng is rng
    assert state.copy().rng is not state.rng


def test_a_strategy_file_may_be_named_by_a_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "Mine"\n[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n',
                    encoding="utf-8")
    assert load_bot(path).name == load_bot(str(path)).name == "Mine"
    assert [b.name for b in load_bots([path, "bm"])] == ["Mine", "BM"]
    assert MCTSBot("dominion", own=path).own == str(path)
    with pytest.raises(UnknownBotError, match=r"unknown Dominations bot .* \(a Dominion bot\)"):
        load_bot(path, "dominations")


@pytest.mark.parametrize("spec", ["", "  "])
def test_an_empty_bot_name_says_it_is_empty(spec: str) -> None:
    with pytest.raises(UnknownBotError) as caught:
        load_bot(spec)
    assert str(caught.value).startswith(f"a bot's name is empty ({spec!r}): use one of random,")
    assert "folder" not in str(caught.value)
    with pytest.raises(UnknownBotError, match=r"a bot's name is empty \(''\): use one of "
                                              r"random, greedy"):
        load_bot("", "dominations")


def test_a_search_takes_no_more_seconds_than_its_spec_may_give() -> None:
    words = (f"seconds per decision must be at most {MAX_SECONDS:g}, not 1000; a longer "
             "search takes steps or iterations instead, the same on any machine")
    with pytest.raises(ConfigError) as caught:
        MCTSBot("dominion", seconds=1000)
    assert str(caught.value) == words
    with pytest.raises(ConfigError, match="is not at most 60; a longer search takes steps"):
        load_bot("mcts:seconds=100")
    bot = MCTSBot("dominion")
    with pytest.raises(ConfigError, match="seconds per decision must be at most 60"):
        bot.cap_seconds(1000)
    assert bot.seconds is None
    assert MCTSBot("dominion", seconds=MAX_SECONDS).seconds == MAX_SECONDS


def test_the_dominations_random_bot_names_its_game_at_every_dominion_decision() -> None:
    """Every decision of a Dominion game, not only those that fail inside the bot: in a
    Dominion buy phase the bot took the state's phase for its own assign phase and gave a
    Dominations action (94 of 206 states), the others raising."""
    state = DominionState.new(DominionConfig(seed=1, kingdom="first-game"))
    mover = load_bot("bm")
    mover.reset(1)
    bot = load_bot("random", "dominations")
    asked = 0
    while not state.is_terminal():
        with pytest.raises(ConfigError, match=r"^random plays dominations games, not a "
                                              r"DominionState$"):
            bot.act(state)  # type: ignore[arg-type]
        asked += 1
        state.apply(mover.act(state))
    assert asked > 20


def test_a_finished_game_is_not_counted_as_a_fallback(dominion_over: DominionState) -> None:
    bot = load_bot("smithy")
    with pytest.raises(IllegalActionError, match=OVER):
        bot.act(dominion_over)
    assert bot.fallbacks == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "told"), [
    ("from dominari.sim import simulate\nsimulate(['bm'], 2, seed=1, workers=2)\n", True),
    ("if __name__ == '__main__':\n    pass\n", False),  # guarded: workers died otherwise
])
def test_the_main_guard_is_named_only_for_a_script_without_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, told: bool) -> None:
    """Workers that die before a task are said to have likely died of a script without
    ``if __name__ == "__main__":`` only where the script has none (not the ``dominari``
    command's, nor one out of memory)."""
    import sys
    import types

    from dominari.sim.pool import _main_guard

    script = tmp_path / "mine.py"
    script.write_text(text, encoding="utf-8")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)
    main.__spec__ = None
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert bool(_main_guard("spawn")) is told
    assert _main_guard("fork") == ""
    main.__spec__ = object()  # type: ignore[assignment]  # python -m: a module, guarded
    assert _main_guard("spawn") == ""
