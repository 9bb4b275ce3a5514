"""The record of a game a bot stopped: kept up to the stop beside a run's records (which a
run that fails removes), named in the error, shown by ``replay`` (the classroom audit: a
game stopped by a student's bot wrote no record, so nobody could see where it went
wrong)."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from dominari.cli import main
from dominari.dominion.engine import DominionState
from dominari.sim import simulate
from dominari.sim.runner import BotError
from dominari.sim.seats import rerun
from dominari.sim.tournament import tournament

pytestmark = pytest.mark.timeout(120, method="thread")  # (the clock's SIGALRM is its own)

CAROL = textwrap.dedent('''
    class Bot:
        name = "Bot"

        def reset(self, seed):
            self.turns = 0

        def act(self, state):
            self.turns += 1
            if self.turns == 9:
                raise KeyError("duchy")
            while self.turns == 10 ** 6:
                pass
            return state.legal_actions()[0]


    class Hangs(Bot):
        def reset(self, seed):
            self.turns = 10 ** 6 - 5
''')


@pytest.fixture
def carol(tmp_path: Path) -> Path:
    path = tmp_path / "carol.py"
    path.write_text(CAROL, encoding="utf-8")
    return path


def _stopped(text: str) -> Path:
    found = re.search(r"; the game up to there: (\S+) \(dominari replay shows it\)$", text)
    assert found, text
    return Path(found.group(1))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_simulation_keeps_the_game_a_bot_stopped(carol: Path, tmp_path: Path,
                                                   workers: int) -> None:  # fmt: skip
    records = tmp_path / "records"
    with pytest.raises(BotError) as caught:
        simulate([f"{carol}:Bot", "bm"], 6, 1, workers=workers, kingdom="first-game",
                 record_dir=records)  # fmt: skip
    text = str(caught.value)
    path = _stopped(text)
    index = int(re.fullmatch(r"stopped-game-(\d{6})\.json", path.name).group(1))  # type: ignore[union-attr]
    kept = sorted(p.name for p in records.iterdir())
    # the other records removed (two workers: the other's game may have stopped too)
    assert path.name in kept and all(name.startswith("stopped-game-") for name in kept)
    record = json.loads(path.read_text("utf-8"))
    assert re.fullmatch(r"the game with seed \d+ stopped while bot 'Bot' \(seat 1, Bot: "
                        r".*carol\.py:Bot\) was deciding: KeyError: 'duchy' "
                        r"\(.*carol\.py line 11\)", record["stopped"]), record["stopped"]
    assert text == f"game {index} of the simulation: {record['stopped']}; the game up to there: " \
                   f"{path} (dominari replay shows it)"
    state = DominionState.from_record(record)
    assert not state.is_terminal() and record["seats"][0]["bot"] == f"{carol}:Bot"
    done = rerun(record, DominionState.from_record(record, upto=0))
    assert done.made and done.compared == done.actions == len(record["actions"]) > 8
    # a run into the folder leaves it be, and is not refused for it
    simulate(["bm", "bm"], 2, 1, workers=1, record_dir=records)
    assert sorted(p.name for p in records.iterdir()) == sorted(
        ["game-000001.json", "game-000002.json", *kept])


@pytest.mark.parametrize("run", ["simulation", "tournament"])
def test_a_stopped_games_record_left_half_written_is_removed(
        carol: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: str) -> None:
    """With two workers, the other worker may be stopped as it writes the record of a game
    its bot stopped too: its temporary file was left in the folder (CI met it once). A run
    that fails removes such files, and keeps the whole records of stopped games."""
    import importlib

    module = importlib.import_module(f"dominari.sim.{'runner' if run == 'simulation' else run}")
    real = module.stopped_record

    def and_another_half_written(target: Path, *rest: object) -> str:
        (target.parent / f".{target.name}.x1y2.tmp").write_text("{", encoding="utf-8")
        return str(real(target, *rest))  # type: ignore[arg-type]

    monkeypatch.setattr(module, "stopped_record", and_another_half_written)
    records = tmp_path / "records"
    with pytest.raises(BotError) as caught:
        if run == "simulation":
            simulate([f"{carol}:Bot", "bm"], 4, 1, workers=1, kingdom="first-game",
                     record_dir=records)
        else:
            tournament([f"{carol}:Bot", "bm"], 2, 3, workers=1, kingdom="first-game",
                       record_dir=records)
    assert [p.name for p in records.iterdir()] == [_stopped(str(caught.value)).name]


def test_a_tournament_keeps_it_and_a_hung_decision_too(carol: Path, tmp_path: Path) -> None:
    records = tmp_path / "records"
    with pytest.raises(BotError, match=r"^game 1 of match-up 1 \(Bot vs BM\): .* was still "
                                       r"deciding after the decision timeout") as caught:
        tournament([f"{carol}:Hangs", "bm"], 2, 3, workers=1, kingdom="first-game",
                   record_dir=records, decision_timeout=0.2)  # fmt: skip
    path = _stopped(str(caught.value))
    assert path.name == "stopped-matchup-001-game-000001.json"
    record = json.loads(path.read_text("utf-8"))
    assert "was still deciding after the decision timeout of 0.2 s" in record["stopped"]
    assert not DominionState.from_record(record).is_terminal()


def test_replay_says_what_stopped_it(carol: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    with pytest.raises(BotError) as caught:
        simulate([f"{carol}:Bot", "bm"], 1, 1, workers=1, record_dir=records)
    path = _stopped(str(caught.value))
    stop = json.loads(path.read_text("utf-8"))["stopped"]
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"The game stopped here: {stop}".rstrip()) or \
        "The game stopped here: the game with seed" in out, out
    assert main(["replay", str(path), "--bots"]) == 0
    out = capsys.readouterr().out
    assert "each the recorded one" in out and "The game stopped here: " in out
    assert main(["replay", str(path), "--upto", "3"]) == 0  # not at the stop: not said
    assert "The game stopped here" not in capsys.readouterr().out
