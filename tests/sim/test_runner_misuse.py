"""The runner misused: the wrong number of bots, specs that are no strings, a script that
starts workers without a main guard; each gets one clear message of the project."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import StrategyBot, load_bot
from dominari.core.errors import ConfigError
from dominari.dominations.data import DataError
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.sim import simulate
from dominari.sim.pool import PoolError
from dominari.sim.runner import game_options, load_bots, play_game
from dominari.sim.tournament import tournament

pytestmark = pytest.mark.timeout(300)

MINE = 'name = "Mine"\n[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n'


def _state(players: int = 2) -> DominionState:
    return DominionState.new(DominionConfig(players=players, seed=1, kingdom="first-game"))


@pytest.mark.parametrize(("names", "words"), [
    (["bm"], "1 bot for a game of 2 players: give one bot a player, in seat order"),
    (["bm", "bm", "smithy"], "3 bots for a game of 2 players: give one bot a player"),
])
def test_play_game_needs_one_bot_a_player(names: list[str], words: str) -> None:
    state = _state()
    with pytest.raises(ConfigError) as caught:
        play_game(load_bots(names), state)
    assert str(caught.value).startswith(words)
    assert state.history == []  # refused before playing


def test_play_game_still_plays_one_bot_a_player() -> None:
    assert play_game(load_bots(["bm", "smithy", "witch"]), _state(3)).is_terminal()


def test_simulate_names_what_is_no_spec() -> None:
    with pytest.raises(ConfigError) as caught:
        simulate([5, "bm"], 2, 1)  # type: ignore[list-item]
    assert str(caught.value) == ("players are named by their specs (a bot's name, a "
                                 "strategy file's path or a Python bot's FILE.py:NAME, as "
                                 "load_bot takes), not int 5")
    with pytest.raises(ConfigError, match=re.escape(
            "not StrategyBot objects: every game needs its own bots, made in its worker from "
            "a spec (a bot of your own: the file and the class or function that makes it, "
            "FILE.py:NAME)")):
        simulate([load_bot("bm"), "bm"], 2, 1)  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="not StrategyBot classes: every game needs"):
        simulate([StrategyBot, "bm"], 2, 1)  # type: ignore[list-item]


def test_a_strategy_file_path_plays_and_records_as_its_string(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE, encoding="utf-8")
    runs: list[Any] = []
    for k, spec in enumerate([str(path), path]):
        records = tmp_path / f"records-{k}"
        result = simulate([spec, "bm"], 3, 7, kingdom="first-game", record_dir=records)
        files = {f.name: json.loads(f.read_text("utf-8")) for f in sorted(records.iterdir())}
        runs.append((result.to_json(), files))
    assert runs[0] == runs[1]
    assert [p["spec"] for p in runs[1][0]["players"]] == [str(path), "bm"]
    journals = []
    for k, spec in enumerate([str(path), path]):
        journal = tmp_path / f"journal-{k}.jsonl"
        result = tournament([spec, "bm"], 2, 7, kingdom="first-game", journal=journal)
        journals.append((result.to_json(), journal.read_text("utf-8")))
    assert journals[0] == journals[1]


def test_a_script_without_a_main_guard_is_told_the_likely_cause(tmp_path: Path) -> None:
    script = tmp_path / "no_guard.py"
    script.write_text(textwrap.dedent("""
        from dominari.sim import simulate
        simulate(["bm", "smithy"], 6, seed=3, workers=2)
    """), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=240, check=False, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 1
    # (the workers' own tracebacks may come after it: one dying late writes its own)
    error = f"{PoolError.__module__}.PoolError: worker processes died "
    lines = [line for line in run.stderr.splitlines() if line.startswith(error)]
    assert len(lines) == 1, run.stderr[-3000:]
    last = lines[0]
    assert last.endswith(" (likely cause: worker processes are started with 'spawn' and "
                         "import the calling script, so a script must call the simulation "
                         "under 'if __name__ == \"__main__\":')")


@pytest.mark.parametrize(("options", "words"), [
    ({"kingdom": "nonsense"}, "unknown kingdom 'nonsense': use 'random', one of first-game"),
    ({"kingdom": ["Smithy", "Smithee"]}, "kingdom: unknown card 'Smithee'"),
    ({"kingdom": ["Smithy", "Smithy"]}, "kingdom: "),
    ({"max_turns": 0}, "max_turns must be a positive integer, not 0"),
])
def test_game_options_refuse_a_kingdom_or_turn_limit_no_game_can_have(
        options: dict[str, Any], words: str) -> None:
    """Said when the options are made, not first when a run starts with them."""
    with pytest.raises(ConfigError, match=words):
        game_options("dominion", **options)


def test_game_options_refuse_a_dominations_data_folder_that_does_not_load(
        tmp_path: Path) -> None:
    with pytest.raises(DataError, match="does not exist"):
        game_options("dominations", data=tmp_path / "nowhere")
    assert game_options("dominion", kingdom=["Smithy"], max_turns=None).kingdom == ("Smithy",)
