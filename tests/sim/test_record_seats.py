"""What a record says played its seats (``seats``): each bot's spec and seed, a search
level's every setting, the rule bot ``best`` played as; enough for a search of an iteration
budget to play the recorded game again, whatever the level's budget is later."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import load_bot
from dominari.bots.mcts import LEVELS, MCTSBot
from dominari.cli import main
from dominari.dominations.engine import DominationsState
from dominari.dominion.engine import DominionState
from dominari.sim import simulate
from dominari.sim.runner import bot_seed, game_seed, play_game
from dominari.sim.tournament import tournament, tournament_bot_seed

STATES: dict[str, Any] = {"dominion": DominionState, "dominations": DominationsState}


def _replayed_by_its_bots(record: dict[str, Any], game: str) -> list[str]:
    """The actions of the record's game played again by the bots its seats name, each
    reset with its recorded seed, a search built from its recorded settings alone."""
    bots = []
    for entry in record["seats"]:
        if "search" in entry:
            bot: Any = MCTSBot(game, name=entry["bot"], **entry["search"])
        else:
            bot = load_bot(entry["bot"], game)
        bot.reset(entry["seed"])
        bots.append(bot)
    state = STATES[game].from_record(record, upto=0)
    play_game(bots, state)
    actions: list[str] = state.record()["actions"]
    return actions


def _records(folder: Path, pattern: str) -> list[dict[str, Any]]:
    return [json.loads(f.read_text(encoding="utf-8")) for f in sorted(folder.glob(pattern))]


def test_a_simulations_records_name_what_played_and_play_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # trust=0: the search's own best each time, never the policy's kept (its seed matters)
    simulate(["mcts-easy:trust=0", "best"], 2, seed=3, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    # a later change of the level's budget changes neither the record nor its bots' games
    monkeypatch.setitem(LEVELS["dominion"], "mcts-easy",
                        {**LEVELS["dominion"]["mcts-easy"], "iterations": 3})  # fmt: skip
    records = _records(tmp_path, "game-*.json")
    assert len(records) == 2
    for i, record in enumerate(records):
        search, best = record["seats"]
        assert search["seat"] == 0 and search["kind"] == "bot"
        assert search["bot"] == "mcts-easy:trust=0" and search["search"]["trust"] == 0.0
        assert search["seed"] == bot_seed(3, i, 0) and best["seed"] == bot_seed(3, i, 1)
        assert search["search"]["iterations"] == 30 and search["search"]["width"] == 4
        assert best == {"seat": 1, "kind": "bot", "bot": "best", "seed": bot_seed(3, i, 1),
                        "played_as": "Smithy"}  # the best rule bot of First Game
        assert _replayed_by_its_bots(record, "dominion") == record["actions"]
        # with another seed the search plays another game: the record's is the one it had
        other = {**search, "seed": search["seed"] + 1}
        assert _replayed_by_its_bots({**record, "seats": [other, best]},
                                     "dominion") != record["actions"]  # fmt: skip


def test_a_tournaments_records_name_what_played_each_seat(tmp_path: Path) -> None:
    """Seats rotate between a match-up's games: each record names its own seating."""
    tournament(["mcts-easy", "random"], 2, 3, workers=1, game="dominations",
               record_dir=tmp_path)  # fmt: skip
    records = _records(tmp_path, "matchup-*.json")
    assert [[e["bot"] for e in r["seats"]] for r in records] == [
        ["mcts-easy", "random"], ["random", "mcts-easy"]]
    for j, record in enumerate(records):
        assert [e["seed"] for e in record["seats"]] == [
            tournament_bot_seed(3, (0, 1), j, p) for p in range(2)]
        search = next(e for e in record["seats"] if e["bot"] == "mcts-easy")["search"]
        assert search["cutoff"] == 8 and search["iterations"] == 2
        assert "played_as" not in str(record["seats"])
    assert _replayed_by_its_bots(records[1], "dominations") == records[1]["actions"]


def test_play_records_its_seats_human_and_bot(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert main(["play", "dominion", "--players", "mcts-easy:width=2,best", "--seed", "5",
                 "--kingdom", "first-game", "--bot-seconds", "30",
                 "--record", str(path)]) == 0  # fmt: skip
    record = json.loads(path.read_text(encoding="utf-8"))
    search, best = record["seats"]
    # the clock it was given is in its name and its settings
    assert search["bot"] == "mcts-easy:width=2:seconds=30" and search["seed"] == bot_seed(5, 0, 0)
    assert search["search"] == {**load_bot("mcts-easy:width=2").settings(),  # type: ignore[attr-defined]
                                "seconds": 30.0}
    assert best["played_as"] == "Smithy"
    assert record["config"]["seed"] == 5 != game_seed(5, 0)  # play's game is its seed's
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # lines as the terminal's width wraps them
    assert ("Bots as they played: mcts-easy:width=2:seconds=30 (seat 1): 30 rollouts, at most "
            "30 s a decision, at most 2 candidates, paired worlds best (seat 2): played as "
            "Smithy —") in out


def test_replay_passes_over_seats_it_cannot_read(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A record's seats are what a file says: odd entries are left out of the replay's
    list, never an error, since the game itself replays from the actions."""
    simulate(["mcts-easy", "bm"], 1, seed=2, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["seats"] = [{**record["seats"][0], "search": {"steps": "many"}}, "bm", {"seat": 1}]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Bots as they played:\n  mcts-easy (seat 1)\n—" in out
