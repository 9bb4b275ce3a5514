"""The simulation runner on Dominations: bots per game, VP breakdown, records, options."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import DOMINATIONS_BOTS, bot_names, load_bot
from dominari.bots.dominations_random import DominationsRandomBot
from dominari.core.errors import ConfigError, DominariError, StrategyError
from dominari.dominations.data import builtin_folder
from dominari.dominations.engine import VP_SOURCES, DominationsState
from dominari.dominations.rules import Rules
from dominari.sim import game_seed, record_name, simulate
from dominari.sim.runner import (
    Chunk,
    DominationsOptions,
    game_options,
    parse_players,
    play_game,
    run_chunk,
)


def test_a_dominations_simulation_counts_vp_by_source(tmp_path: Path) -> None:
    out = tmp_path / "recs"
    r = simulate(["random", "random"], 4, seed=3, workers=1, game="dominations", record_dir=out)
    assert r.game == "dominations" and r.games == 4
    assert [p.name for p in r.players] == ["random#1", "random#2"]
    assert r.end_reasons == {"game end": 4}
    assert r.turn_limit_games == 0
    assert set(r.sources) == set(VP_SOURCES)
    assert r.options == {"rules": Rules().to_json(), "data": None}
    wins = [0, 0]
    vp = [0, 0]
    for i in range(4):
        record: dict[str, Any] = json.loads((out / record_name(i)).read_text(encoding="utf-8"))
        assert record["game"] == "dominations"
        assert record["config"]["seed"] == game_seed(3, i)
        assert record["config"]["names"] == ["random#1", "random#2"]
        state = DominationsState.from_record(record)
        outcome = state.outcome()
        assert outcome is not None and outcome.to_json() == record["outcome"]
        wins[outcome.winners[0]] += 1  # ties in VP go to initiative: one winner
        vp = [v + s for v, s in zip(vp, outcome.scores, strict=True)]
    assert wins == [p.wins for p in r.players]
    assert vp == [p.total_vp for p in r.players]
    for p in r.players:
        assert p.ties == 0 and p.wins + p.losses == 4
        # the breakdown accounts for every VP
        assert sum(total for _, total in p.total_breakdown) == p.total_vp
        assert sum(p.mean_breakdown.values()) == pytest.approx(p.mean_vp)
        assert set(p.to_json()["vp_breakdown"]) == set(VP_SOURCES)
    assert simulate(["random", "random"], 4, seed=3, workers=1, game="dominations") == r


def test_dominations_chunks_merge_to_the_whole() -> None:
    opts = DominationsOptions(Rules(variant="prototype"))
    assert pickle.loads(pickle.dumps(opts)) == opts  # travels to worker processes
    names = ("random#1", "random#2", "random#3")
    specs = ("random",) * 3
    whole = run_chunk(Chunk(specs, names, opts, 8, 0, 3))
    left = run_chunk(Chunk(specs, names, opts, 8, 0, 1))
    left.merge(run_chunk(Chunk(specs, names, opts, 8, 1, 3)))
    assert left == whole
    assert set(whole.breakdown) == set(VP_SOURCES)
    assert whole.games == 3


def test_play_game_works_on_any_state() -> None:
    state = DominationsOptions().new_game(2, 11, ("a", "b"))
    bots = [DominationsRandomBot(seed=1), DominationsRandomBot(seed=2)]
    assert play_game(bots, state) is state
    assert state.is_terminal() and state.outcome() is not None


def test_bot_names_are_per_game() -> None:
    assert DOMINATIONS_BOTS == ("random", "greedy")
    assert bot_names("dominations") == (*DOMINATIONS_BOTS, "mcts-easy", "mcts", "mcts-hard")
    assert isinstance(load_bot("RANDOM", "dominations"), DominationsRandomBot)
    with pytest.raises(StrategyError, match="random, greedy"):
        load_bot("bmu", "dominations")
    with pytest.raises(StrategyError, match="random, bm, bmu"):
        load_bot("greedy", "dominion")
    with pytest.raises(ConfigError, match="dominion, dominations"):
        bot_names("chess")


def test_game_options_reject_the_other_games_options(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="Dominations options"):
        game_options("dominion", rules=Rules())
    with pytest.raises(ConfigError, match="no kingdom"):
        game_options("dominations", kingdom="first-game")
    with pytest.raises(ConfigError, match="3 ages"):
        game_options("dominations", max_turns=20)
    # a folder is loaded as the options are made (files it lacks are the built-in ones)
    shutil.copy(builtin_folder() / "tiles.json", tmp_path / "tiles.json")
    assert game_options("Dominations", data=tmp_path) == DominationsOptions(Rules(),
                                                                          str(tmp_path))
    with pytest.raises(ConfigError, match="data folder 'x' does not exist"):
        game_options("dominations", data="x")
    with pytest.raises(ConfigError, match="Dominations is for 2 to 4 players, not 5"):
        parse_players("a,b,c,d,e", "dominations")


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"players": ["random", "bmu"]}, StrategyError, "random, greedy"),
        ({"players": ["random", "human"]}, StrategyError, "human"),
        ({"players": ["random"]}, ConfigError, "2 to 4"),
        ({"players": ["random"] * 5}, ConfigError, "2 to 4"),
        ({"games": 0}, ConfigError, "at least 1"),
        ({"workers": 0}, ConfigError, "at least 1"),
        ({"data": "no-such-folder"}, ConfigError, "does not exist"),
        ({"kingdom": "first-game"}, ConfigError, "kingdom"),
        ({"game": "chess"}, ConfigError, "chess"),
    ],
)
def test_bad_input_fails_before_any_work(tmp_path: Path, kwargs: dict[str, Any],
                                         error: type[DominariError], words: str) -> None:
    args: dict[str, Any] = {"players": ["random", "random"], "games": 2, "seed": 1,
                            "workers": 1, "game": "dominations",
                            "record_dir": tmp_path / "out"}  # fmt: skip
    args.update(kwargs)
    with pytest.raises(error, match=words):
        simulate(**args)
    assert not (tmp_path / "out").exists()


def test_the_greedy_bot_loads_by_name() -> None:
    from dominari.bots.base import DominationsBot

    bot = load_bot("Greedy", "dominations")
    assert isinstance(bot, DominationsBot) and bot.name == "greedy"
