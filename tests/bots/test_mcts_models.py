"""A search with models of one's own: ``MCTSBot(policy=…, evaluate=…)``, the rollout
policy and the cut-off evaluation an AI researcher plugs in (as OpenSpiel's MCTS takes an
evaluator); and a bot file that makes a search, whose records name the file."""

from __future__ import annotations

import json
import random
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot
from dominari.core.errors import ConfigError, RecordError
from dominari.dominion.cards import ESTATE, GOLD, SILVER
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.sim import simulate
from dominari.sim.runner import BotError, play_game
from dominari.sim.seats import rerun, seat_bots, seat_entries


def _estates(state: Any) -> list[float]:
    """A model that loves Estates: 10 points for each one owned."""
    return [10.0 * ps.owned[ESTATE] for ps in state.players]


def _money(state: Any) -> list[float]:
    """A model that counts the coins of the treasures owned."""
    return [float(ps.owned[SILVER] * 2 + ps.owned[GOLD] * 3) for ps in state.players]


def _first_turns(bot: MCTSBot, seed: int = 4) -> list[str]:
    """What ``bot`` (seat of the first turn) buys in its first two turns against bm."""
    state = DominionState.new(DominionConfig(players=2, seed=seed, kingdom="first-game"))
    me = state.current_player()
    bots = [load_bot("bm"), load_bot("bm")]
    bots[me] = bot
    bot.reset(1)
    bought: list[str] = []
    while state.turn_number < 4 and not state.is_terminal():
        p = state.current_player()
        action = bots[p].act(state)
        text = state.format_action(action)
        if p == me and text.startswith("buy "):
            bought.append(text[4:])
        state.apply(action)
    return bought


def test_its_own_evaluation_judges_the_cut_off_rollouts() -> None:
    """The same search buys money with an evaluation that counts money, and Estates with
    one that loves Estates."""
    def search(evaluate: Any) -> MCTSBot:
        return MCTSBot("dominion", iterations=6, cutoff_turns=1, paired=True, trust=0.0,
                       evaluate=evaluate)  # fmt: skip

    rich = _first_turns(search(_money))
    assert rich and set(rich) <= {"Silver", "Gold"}, rich
    assert _first_turns(search(_estates)) == ["Estate", "Estate"]


class _Counting:
    """A policy of bm in every seat that counts its calls and draws from the search's
    generator."""

    def __init__(self) -> None:
        self.calls = 0
        self.draws: list[float] = []

    def __call__(self, state: Any, rng: random.Random) -> list[Any]:
        self.calls += 1
        self.draws.append(rng.random())
        return [load_bot("bm")] * state.num_players


def test_its_own_policy_plays_the_rollouts_and_the_models() -> None:
    policy = _Counting()
    bot = MCTSBot("dominion", iterations=10, policy=policy, seed=3)
    state = DominionState.new(DominionConfig(players=2, seed=1, kingdom="first-game"))
    assert [b.name for b in bot.models(state)] == ["BM", "BM"]  # not the game's Smithy
    games = []
    for _ in range(2):  # reproducible: its random numbers are the search's
        policy.draws.clear()
        bot.reset(9)
        s = DominionState.new(DominionConfig(players=2, seed=2, kingdom="first-game"))
        play_game([bot, load_bot("smithy")], s)
        games.append((s.record()["actions"], list(policy.draws)))
    assert policy.calls > 0 and games[0] == games[1]


@pytest.mark.parametrize(("keywords", "words"), [
    ({"evaluate": _estates}, "evaluate does nothing without cutoff or cutoff_turns"),
    ({"evaluate": 3, "cutoff": 5}, "evaluate must be a function of a state"),
    ({"policy": "bm"}, "policy must be a function of a state and a random generator"),
])
def test_a_wrong_model_is_refused(keywords: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        MCTSBot("dominion", **keywords)


@pytest.mark.parametrize(("keywords", "words"), [
    ({"policy": lambda s, rng: [load_bot("bm")]}, r"policy <lambda> \(.*test_mcts_models\.py "
                                                   r"line \d+\) gave \[.*\] for a game of 2 "
                                                   r"players: one bot \(with act"),
    ({"evaluate": lambda s: [1.0, float("nan")], "cutoff": 3},
     r"evaluate <lambda> \(.*\) gave \[1\.0, nan\] for a game of 2 players: a finite score"),
    ({"evaluate": lambda s: None, "cutoff": 3},  # (it forgot its return)
     r"evaluate <lambda> \(.*\) gave None for a game of 2 players"),
    ({"evaluate": lambda s: ["a", "b"], "cutoff": 3},
     r"evaluate <lambda> \(.*\) gave \['a', 'b'\] for a game"),
    ({"policy": lambda s, rng: None}, r"policy <lambda> \(.*\) gave None for a game"),
])
def test_a_wrong_answer_stops_the_game_naming_the_function(keywords: dict[str, Any],
                                                           words: str) -> None:
    bot = MCTSBot("dominion", iterations=5, seed=1, **keywords)
    state = DominionState.new(DominionConfig(players=2, seed=1, kingdom="first-game"))
    with pytest.raises(BotError, match=r"was deciding: ConfigError: " + words):
        play_game([bot, load_bot("bm")], state)


def test_its_settings_make_the_same_search() -> None:
    policy = _Counting()
    bot = MCTSBot("dominion", iterations=10, cutoff=20, policy=policy, evaluate=_estates)
    settings = bot.settings()
    assert settings["policy"] is policy and settings["evaluate"] is _estates
    assert MCTSBot("dominion", **settings).settings() == settings


SEARCH_FILE = textwrap.dedent('''
    from dominari.bots.mcts import MCTSBot


    def estates(state):
        return [10.0 * ps.owned[3] for ps in state.players]


    def make():
        return MCTSBot("dominion", iterations=12, cutoff_turns=1, evaluate=estates,
                       name="estate-search")


    class Subclassed(MCTSBot):
        """A search whose every action is the first legal one: what its file plays,
        and not the settings alone."""

        def __init__(self):
            super().__init__("dominion", iterations=3, name="sub")

        def act(self, state):
            return state.legal_actions()[0]
''')


@pytest.mark.parametrize("name", ["make", "Subclassed"])
def test_a_bot_files_search_is_recorded_as_the_file_and_played_again(tmp_path: Path,
                                                                    name: str) -> None:
    """Before, a record named a bot file's search by the search's name and settings, and
    played it again as a plain search of those settings: a subclass, or a model of one's
    own, came out otherwise."""
    path = tmp_path / "my_search.py"
    path.write_text(SEARCH_FILE, encoding="utf-8")
    records = tmp_path / "records"
    simulate([f"{path}:{name}", "bm"], 2, 5, kingdom="first-game", workers=1,
             record_dir=records)  # fmt: skip
    record = json.loads((records / "game-000001.json").read_text("utf-8"))
    seat = record["seats"][0]
    assert seat["bot"] == f"{path}:{name}" and seat["file"] == str(path.resolve())
    assert "search" not in seat
    done = rerun(record, DominionState.from_record(record, upto=0))
    assert done.made and done.compared > 0


def test_a_library_records_a_search_of_its_own_by_its_functions_names() -> None:
    """A record cannot hold a function: it names it, and is not played again."""
    bot = MCTSBot("dominion", iterations=4, cutoff=10, evaluate=_estates, name="mine")
    state = DominionState.new(DominionConfig(players=2, seed=1, kingdom="first-game"))
    entries = seat_entries([bot, load_bot("bm")], ["mine", "bm"], [1, 2], state)
    assert re.fullmatch(r"_estates \(.*test_mcts_models\.py line \d+\)",
                        entries[0]["search"]["evaluate"])
    assert entries[0]["search"]["policy"] is None
    json.dumps(entries)
    with pytest.raises(RecordError, match=r"seat 1 \(mine\) searched with its own evaluate, "
                                          r"_estates \(.*line \d+\), which a record cannot "
                                          r"hold"):
        seat_bots({"seats": entries}, "dominion", 2)
