"""Bots in ``dominari play`` and ``dominari replay --bots`` are held to what a run holds
them to: a bot that raises an error, changes the state it is given or (with
``--decision-timeout``) takes too long stops the game with one error naming it and its
line, and ``play``'s record keeps the game up to there. Both printed Python's traceback
for a bot's error, and ``play --record`` lost the game; a bot that hung, hung them."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from dominari.cli import main
from dominari.dominations.engine import DominationsState
from dominari.dominion.engine import DominionState

pytestmark = pytest.mark.timeout(120, method="thread")  # (the clock's SIGALRM is its own)

DAN = textwrap.dedent('''
    import os


    class Bot:
        name = "Dan"

        def reset(self, seed):
            self.turns = 0

        def act(self, state):
            self.turns += 1
            if self.turns == 9 and os.environ.get("DAN_FAILS") != "no":
                raise KeyError("duchy")
            while self.turns == 10 ** 6:
                pass
            return state.legal_actions()[0]


    class Hangs(Bot):
        def reset(self, seed):
            self.turns = 10 ** 6 - 5 if os.environ.get("DAN_HANGS") != "no" else 0


    class HangsInReset(Bot):
        def reset(self, seed):
            while True:
                pass


    class Plays(Bot):
        def act(self, state):
            state.apply(state.legal_actions()[0])
            return state.legal_actions()[0]


    class Illegal(Bot):
        def act(self, state):
            self.turns += 1
            return "nonsense" if self.turns == 3 else state.legal_actions()[0]
''')


@pytest.fixture
def dan(tmp_path: Path) -> Path:
    path = tmp_path / "dan.py"
    path.write_text(DAN, encoding="utf-8")
    return path


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("dominari: error: "), err
    return lines[-1].removeprefix("dominari: error: ")


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_a_bots_error_in_play_is_named_and_the_game_so_far_kept(
        dan: Path, tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    other = "bm" if game == "dominion" else "greedy"
    assert main(["play", game, "--players", f"{other},{dan}:Bot", "--seed", "4",
                 "--record", str(record)]) == 2  # fmt: skip
    error = _error(capsys)
    found = re.fullmatch(r"the game with seed 4 stopped while bot 'Dan' \(seat 2, Dan: "
                         r"(.*)dan\.py:Bot\) was deciding: KeyError: 'duchy' \((.*)dan\.py "
                         r"line 14\); the game up to there: (.*) \(dominari replay shows "
                         r"it\)", error)  # fmt: skip
    assert found, error
    assert Path(found.group(3)) == record
    kept = json.loads(record.read_text("utf-8"))
    assert kept["stopped"] == error.split("; the game up to there: ")[0]
    state = (DominionState if game == "dominion" else DominationsState).from_record(kept)
    assert not state.is_terminal() and kept["seats"][1]["bot"] == f"{dan}:Bot"
    assert main(["replay", str(record)]) == 0
    assert f"The game stopped here: {kept['stopped']}" in capsys.readouterr().out


def test_a_bot_that_hangs_in_play_is_stopped_at_the_decision_timeout(
        dan: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    assert main(["play", "dominations", "--players", f"greedy,{dan}:Hangs", "--seed", "2",
                 "--decision-timeout", "0.2", "--record-dir", str(folder)]) == 2
    error = _error(capsys)
    assert re.fullmatch(r"bot 'Dan' \(seat 2, Dan: .*dan\.py:Hangs\) was still deciding after "
                        r"the decision timeout of 0\.2 s in the game with seed 2, and was "
                        r"stopped \(at .*dan\.py line 1[56]\); the game up to there: "
                        r".*dominations-2\.json \(dominari replay shows it\)",
                        error), error  # fmt: skip
    kept = json.loads((folder / "dominations-2.json").read_text("utf-8"))
    assert "was still deciding after the decision timeout" in kept["stopped"]


def test_play_times_reset_and_stops_a_bot_that_plays_on_the_state(
        dan: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "dominion", "--players", f"bm,{dan}:HangsInReset", "--seed", "1",
                 "--decision-timeout", "0.2"]) == 2
    assert re.fullmatch(r"bot 'Dan' \(seat 2, Dan: .*dan\.py:HangsInReset\) was still in "
                        r"reset\(\d+\) after the decision timeout of 0\.2 s, and was stopped "
                        r"\(at .*dan\.py line 2[67]\)", _error(capsys))  # fmt: skip
    assert main(["play", "dominion", "--players", f"{dan}:Plays,bm", "--seed", "1"]) == 2
    assert re.fullmatch(r"bot 'Dan' \(seat 1, Dan: .*dan\.py:Plays\) changed the game's "
                        r"state while deciding, in the game with seed 1: .*", _error(capsys))


def test_a_limit_plays_the_same_game(tmp_path: Path) -> None:
    plain, timed = tmp_path / "plain.json", tmp_path / "timed.json"
    for path, extra in ((plain, []), (timed, ["--decision-timeout", "30"])):
        assert main(["play", "dominion", "--players", "smithy,mcts:iterations=20", "--seed",
                     "6", "--kingdom", "first-game", "--record", str(path), *extra]) == 0
    assert json.loads(plain.read_text()) == json.loads(timed.read_text())


def test_replay_bots_names_a_bot_that_fails_now(dan: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    monkeypatch.setenv("DAN_FAILS", "no")  # as the game was played
    monkeypatch.setenv("DAN_HANGS", "no")
    for name, path in (("Bot", record), ("Hangs", tmp_path / "hangs.json")):
        assert main(["play", "dominion", "--players", f"{dan}:{name},bm", "--seed", "3",
                     "--kingdom", "first-game", "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", "--bots", str(record)]) == 0
    assert "each the recorded one" in capsys.readouterr().out
    monkeypatch.delenv("DAN_FAILS")  # it fails at its ninth decision now
    assert main(["replay", "--bots", str(record)]) == 2
    error = _error(capsys)
    assert re.fullmatch(rf"the game with seed 3 stopped while bot '{re.escape(str(dan))}:Bot' "
                        r"\(seat 1\) was deciding: KeyError: 'duchy' \(.*dan\.py line 14\), "
                        r"at the record's action \d+", error), error  # fmt: skip
    other = json.loads(record.read_text("utf-8"))
    other["dominari"]["code"] = "0" * 64  # written by other code: said, the bot failing
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    assert main(["replay", "--bots", str(tmp_path / "other.json")]) == 2
    err = capsys.readouterr().err
    assert "dominari: note: the record was written by Dominari" in err and \
        "KeyError: 'duchy'" in err.splitlines()[-1]
    monkeypatch.delenv("DAN_HANGS")  # it hangs at its fifth now
    assert main(["replay", "--bots", str(tmp_path / "hangs.json"),
                 "--decision-timeout", "0.2"]) == 2  # fmt: skip
    assert "was still deciding after the decision timeout of 0.2 s" in _error(capsys)
    assert main(["replay", str(record), "--decision-timeout", "1"]) == 2
    assert _error(capsys) == ("--decision-timeout limits the decisions of the bots that "
                              "--bots plays the game again with: give it with --bots")


def test_play_words_a_bots_error_as_a_run_does(dan: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The review: an action the engine refused was said as ``bot 'Dan' (Dan) chose
    nonsense: …``, without the seat, the file or the seed a run gives, and two copies of
    one bot were both ``Dan``, where the game calls them ``Dan#1`` and ``Dan#2``."""
    assert main(["play", "dominion", "--players", f"bm,{dan}:Illegal", "--seed", "5"]) == 2
    assert re.fullmatch(r"bot 'Dan' \(seat 2, Dan: .*dan\.py:Illegal\) chose nonsense in "
                        r"the game with seed 5: .*", _error(capsys))  # fmt: skip
    assert main(["play", "dominations", "--players", f"{dan}:Bot,{dan}:Bot", "--seed",
                 "4"]) == 2  # fmt: skip
    assert re.fullmatch(r"the game with seed 4 stopped while bot 'Dan' \(seat \d, Dan#\d: "
                        r".*dan\.py:Bot\) was deciding: KeyError: 'duchy' .*",
                        _error(capsys))  # fmt: skip
