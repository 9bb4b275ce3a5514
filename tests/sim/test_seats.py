"""What a record says played its seats (``seats``): each bot's spec and seed, a search
level's every setting, the rule bot ``best`` played as, the files a bot played with; enough
for a search of an iteration budget to play the recorded game again, whatever the level's
budget is later (:mod:`dominari.sim.seats`, ``replay --bots``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dominari.bots import load_bot
from dominari.bots.mcts import LEVELS, MCTSBot
from dominari.cli import main
from dominari.core.errors import RecordError
from dominari.dominations.engine import DominationsState
from dominari.dominion.engine import DominionState
from dominari.sim import simulate
from dominari.sim.journal import code_fingerprint
from dominari.sim.runner import bot_seed, game_seed, play_game
from dominari.sim.seats import rerun
from dominari.sim.stats import made_by
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
        assert rerun(record, DominionState.from_record(record, upto=0)).made
        # with another seed the search plays another game: the record's is the one it had
        other = {**record, "seats": [{**search, "seed": search["seed"] + 1}, best]}
        assert _replayed_by_its_bots(other, "dominion") != record["actions"]
        done = rerun(other, DominionState.from_record(other, upto=0))
        assert done.divergence is not None and done.divergence.seat == 0
        assert done.divergence.bot == "mcts-easy:trust=0"
        assert done.divergence.recorded == record["actions"][done.divergence.action - 1]
        assert done.divergence.played != done.divergence.recorded


def test_a_tournaments_records_name_what_played_each_seat(tmp_path: Path) -> None:
    """Seats rotate between a match-up's games: each record names its own seating."""
    tournament(["mcts-easy:cutoff=2", "random"], 2, 3, workers=1, game="dominations",
               record_dir=tmp_path)  # fmt: skip
    records = _records(tmp_path, "matchup-*.json")
    assert [[e["bot"] for e in r["seats"]] for r in records] == [
        ["mcts-easy:cutoff=2", "random"], ["random", "mcts-easy:cutoff=2"]]
    for j, record in enumerate(records):
        assert [e["seed"] for e in record["seats"]] == [
            tournament_bot_seed(3, (0, 1), j, p) for p in range(2)]
        search = next(e for e in record["seats"] if e["bot"] == "mcts-easy:cutoff=2")["search"]
        assert search["cutoff"] == 2 and search["iterations"] == 2
        assert "played_as" not in str(record["seats"])
    for record in records:
        assert _replayed_by_its_bots(record, "dominations") == record["actions"]
        done = rerun(record, DominationsState.from_record(record, upto=0))
        assert done.made and done.compared == len(record["actions"])


def test_play_records_its_seats(tmp_path: Path,
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
            "30 s a decision, at most 2 candidates, paired worlds; margin 0 best (seat 2): "
            "played as Smithy —") in out


def test_replay_passes_over_seats_it_cannot_read(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A record's seats are what a file says: odd entries are left out of the replay's
    list, never an error, since the game itself replays from the actions."""
    simulate(["mcts-easy", "bm"], 1, seed=2, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    first = record["seats"][0]
    for seats in ([{**first, "search": {"steps": "many"}}, "bm", {"seat": 1}],
                  [{**first, "search": {"seconds": 10**400}}, {"seat": 1, "bot": "bm"}],
                  [{**first, "search": []}] + [{"seat": 1, "bot": "bm"}] * 100_000):
        record["seats"] = seats
        path.write_text(json.dumps(record), encoding="utf-8")
        assert main(["replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert "Bots as they played:\n  mcts-easy (seat 1)\n" in out
        assert out.count("bm (seat 2)") <= 1  # only the game's seats


def test_a_strategy_file_is_named_by_its_full_path_and_its_digest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A bot played from a strategy file, and a search whose own seat is one: the record
    names the files by their full paths with their SHA-256, so the game is played again
    from another folder, and an edited file is refused, saying which."""
    here, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    (here / "silvers.toml").write_text('name = "Silvers"\n\n[[buy]]\ncard = "Province"\n'
                                       '\n[[buy]]\ncard = "Silver"\n', encoding="utf-8")
    monkeypatch.chdir(here)
    simulate(["mcts-easy:own=silvers.toml:trust=0", "silvers.toml"], 1, seed=4, workers=1,
             kingdom="first-game", record_dir="recs")  # fmt: skip
    path = here / "recs" / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    search, rule = record["seats"]
    full = str(here / "silvers.toml")
    assert search["search"]["own"] == full and rule["file"] == full
    assert rule["bot"] == "silvers.toml"  # as it was named
    assert set(search["files"]) == set(rule["files"]) == {full}
    monkeypatch.chdir(elsewhere)
    assert main(["replay", str(path), "--bots"]) == 0
    assert "each the recorded one" in capsys.readouterr().out
    (here / "silvers.toml").write_text('name = "Golds"\n\n[[buy]]\ncard = "Gold"\n',
                                       encoding="utf-8")  # fmt: skip
    assert main(["replay", str(path), "--bots"]) == 2
    err = capsys.readouterr().err
    assert f"seat 1 (mcts-easy:own=silvers.toml:trust=0) played with {full}, which has " \
        "changed since" in err
    with pytest.raises(RecordError, match="has changed since"):
        rerun(record, DominionState.from_record(record, upto=0))


def test_replay_bots_says_where_a_bot_plays_otherwise(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --bots``: 0 when the bots make every recorded move of theirs, 1 at the
    first they do not, saying which; 2 for a record that names no bots to play it with."""
    simulate(["mcts-easy:trust=0", "bm"], 1, seed=3, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert main(["replay", str(path), "--bots"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: played again by the bots its seats name, "
                          f"{len(record['actions'])} decisions of theirs")  # fmt: skip
    record["seats"][0]["seed"] += 1
    other = tmp_path / "other.json"
    other.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(other), "--bots"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "(seat 1, mcts-easy:trust=0) is recorded as 'buy" in out
    assert "and the bot plays 'buy" in out
    for seats, words in ((None, "does not say what played its seats"),
                         ([{"seat": 0, "kind": "bot", "bot": "mcts-easy"},
                           {"seat": 1, "kind": "bot", "bot": "bm"}],
                          "names no bot and seed it was reset with"),
                         ([{"seat": 0, "kind": "bot", "bot": "bm", "seed": 1}],
                          "'seats' name 1 seat for a game of 2 players")):  # fmt: skip
        if seats is None:
            record.pop("seats")
        else:
            record["seats"] = seats
        other.write_text(json.dumps(record), encoding="utf-8")
        assert main(["replay", str(other), "--bots"]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1
    assert main(["replay", str(path), "--bots", "--upto", "3"]) == 2
    assert "without --upto" in capsys.readouterr().err


def test_a_record_names_its_code_and_replay_bots_says_when_it_is_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reproducibility audit: a record did not say which code made it, so a bot that
    played otherwise in a later version was only "the bot plays … there now". A record
    names Dominari's version and the code's fingerprint (``dominari``, as a run's JSON),
    and ``replay --bots`` notes at a divergence that the record's code was other, or is
    not named (an older record)."""
    simulate(["bm", "smithy"], 1, seed=3, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["dominari"] == made_by(code_fingerprint("dominion"))
    record["seats"][0]["bot"] = "smithy"  # (it buys a Smithy where BM buys otherwise)
    other = tmp_path / "other.json"
    for made, note in ((record["dominari"], None),
                       ({"version": "0.0.9", "code": "0" * 64},
                        "dominari: note: the record was written by Dominari 0.0.9 with other "
                        "code (code 000000000000…, now "
                        f"{code_fingerprint('dominion')[:12]}…): a bot may play otherwise "
                        "for that alone"),
                       ({"code": ""}, "dominari: note: the record's 'dominari' names no "
                                      "code that wrote it ({'code': ''}): other code may play "
                                      "otherwise"),
                       (None, "dominari: note: the record does not say which code wrote it "
                              "(records written before they did): other code may play "
                              "otherwise")):  # fmt: skip
        if made is None:
            record.pop("dominari")
        else:
            record["dominari"] = made
        other.write_text(json.dumps(record), encoding="utf-8")
        assert main(["replay", str(other), "--bots"]) == 1
        err = capsys.readouterr().err
        assert err == ("" if note is None else note + "\n")
    records = tmp_path / "t"
    tournament(["bm", "smithy"], 1, 1, workers=1, record_dir=records)
    index = json.loads((records / "tournament.json").read_text(encoding="utf-8"))
    assert index["dominari"] == made_by(code_fingerprint("dominion"))


def test_a_human_seats_actions_are_taken_as_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A human seat is recorded as one, and ``replay --bots`` plays its moves as recorded
    and asks the bots theirs."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("end\n" * 6 + "quit\n"))
    path = tmp_path / "game.json"
    assert main(["play", "dominion", "--players", "human,bm", "--seed", "2", "--kingdom",
                 "first-game", "--record", str(path)]) == 0  # fmt: skip
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["seats"] == [{"seat": 0, "kind": "human"},
                               {"seat": 1, "kind": "bot", "bot": "bm",
                                "seed": bot_seed(2, 0, 1)}]  # fmt: skip
    capsys.readouterr()
    done = rerun(record, DominionState.from_record(record, upto=0))
    assert done.made and 0 < done.compared < done.actions


def test_a_built_in_own_bot_is_never_read_as_a_file_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``own=bm`` is the built-in BM wherever the run is, even beside a file named ``bm``:
    the record names it so, and its game plays again."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bm").write_text('name = "X"\n\n[[buy]]\ncard = "Copper"\n', encoding="utf-8")
    simulate(["mcts-easy:own=bm:trust=0", "bm"], 1, seed=1, workers=1, kingdom="first-game",
             record_dir="recs")  # fmt: skip
    path = tmp_path / "recs" / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["seats"][0]["search"]["own"] == "bm"
    assert "files" not in record["seats"][0] and "file" not in record["seats"][1]
    assert main(["replay", str(path), "--bots"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(("edit", "words"), [
    (lambda seats: seats[0]["search"].update(seconds=10**400), "cannot be played again"),
    (lambda seats: seats[0]["search"].update(own="a\u0000b.toml"), "cannot be played again"),
    (lambda seats: seats[0].update(search=[1, 2]), "'search' is not the settings of a search"),
    (lambda seats: seats[0]["search"].update(foo=1), "unknown search setting(s) 'foo'"),
    (lambda seats: seats[0].update(files={"/dev/zero": "0"}), "not a regular file"),
    (lambda seats: seats[0].update(files={"a\u0000b": "0"}), "which cannot be read"),
    (lambda seats: seats[1].update(bot="a\u0000b.toml"), "cannot be played again"),
    (lambda seats: [s.update(kind="human") for s in seats],
     "every seat of the record is a human's"),
])  # fmt: skip
def test_a_hand_edited_record_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, words: str) -> None:
    simulate(["mcts-easy", "bm"], 1, seed=2, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    edit(record["seats"])
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--bots"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dominari: error: ") and err.count("\n") == 1 and words in err


def test_replay_bots_says_when_best_now_plays_a_kingdom_otherwise(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record whose ``best`` played as another rule bot than ``best`` would now (the
    rankings changed since) says so before it compares the moves."""
    simulate(["best", "bm"], 1, seed=2, workers=1, kingdom="first-game", record_dir=tmp_path)
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["seats"][0]["played_as"] == "Smithy"
    assert main(["replay", str(path), "--bots"]) == 0
    assert capsys.readouterr().err == ""
    record["seats"][0]["played_as"] = "Witch"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--bots"]) == 0  # its moves are Smithy-BM's all the same
    assert capsys.readouterr().err == (
        "dominari: note: best (seat 1) plays this kingdom as Smithy now, where the record says "
        "Witch: the rule bots' ranking has changed since\n")


def test_replay_prints_what_a_record_says_without_a_terminal_acting_on_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hand-edited record's escape sequences are printed as escapes: in the seats' list,
    in a note, in an error, and a player's name anywhere the replay names it."""
    simulate(["mcts-easy", "bm"], 1, seed=2, workers=1, kingdom="first-game",
             record_dir=tmp_path)  # fmt: skip
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    search, rule = record["seats"]
    search["bot"] = "mcts-easy\x1b[2J"
    search["search"]["seconds"] = 5.0  # a clocked search: replay --bots notes it
    rule["bot"] = "bm\x1b]0;title\x07"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "  mcts-easy\\x1b[2J (seat 1): " in out and "  bm\\x1b]0;title\\x07 (seat 2)\n" in out
    assert main(["replay", str(path), "--bots"]) == 2  # no such bot
    err = capsys.readouterr().err
    assert "seat 2 (bm\\x1b]0;title\\x07) cannot be played again" in err and "\x1b" not in err
    rule["bot"] = "bm"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--bots"]) in (0, 1)  # (a clocked search)
    err = capsys.readouterr().err
    assert "dominari: note: mcts-easy\\x1b[2J searched with a time per decision" in err
    assert "\x1b" not in err
    record["config"]["names"] = ["Ann\x1b[31m", "Bob"]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out and "Players: Ann\\x1b[31m (seat 1), Bob (seat 2)" in out


def test_replay_names_only_the_settings_that_are_not_the_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tree search's exploration constant is named where it is not 0.7, the default, and
    never for a race, which has none."""
    simulate(["mcts-easy:paired=no", "mcts-easy:paired=no:c=1.5", "mcts-easy"], 1, seed=2,
             workers=1, kingdom="first-game", record_dir=tmp_path)  # fmt: skip
    assert main(["replay", str(tmp_path / "game-000001.json")]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if "(seat " in x][-3:]
    assert [x.split(" (seat")[0].strip() for x in lines] == [
        "mcts-easy:paired=no", "mcts-easy:paired=no:c=1.5", "mcts-easy"]
    assert "c 0.7" not in lines[0] and "c 1.5" in lines[1] and " c " not in lines[2]


def test_the_one_line_error_escapes_what_a_file_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every control character but the line breaks an error is folded at is printed as
    its escape, those Python counts as white space (\\x1c, \\x85) too."""
    simulate(["bm", "bmu"], 1, seed=2, workers=1, kingdom="first-game", record_dir=tmp_path)
    path = tmp_path / "game-000001.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["seats"][1]["bot"] = "bm\x1cx\x85y\tz"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--bots"]) == 2
    err = capsys.readouterr().err
    assert "seat 2 (bm\\x1cx\\x85y\\tz) cannot be played again" in err
    assert err.count("\n") == 1
