"""The ``dominari`` command line: simulate, play, replay and bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dominari import __version__
from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot
from dominari.cli import main
from dominari.core.errors import ConfigError
from dominari.dominion.engine import DominionState
from dominari.dominion.render import scores_text

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


# ---------------------------------------------------------------- simulate
def test_simulate_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "dominion", "--kingdom", "first-game", "--players",
                         "bmu,smithy", "-n", "20", "--seed", "1", "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    for key in ("games", "players", "mean_turns", "seed", "kingdom", "end_reasons", "max_turns",
                "turn_limit_games"):
        assert key in data
    assert data["games"] == 20
    assert data["seed"] == 1
    assert data["kingdom"] == "first-game"
    assert sum(data["end_reasons"].values()) == 20
    assert [p["name"] for p in data["players"]] == ["BMU", "Smithy"]
    for p in data["players"]:
        for key in ("name", "wins", "ties", "win_rate", "ci95", "tie_rate", "tie_ci95",
                    "mean_vp", "mean_turns"):
            assert key in p
        lo, hi = p["ci95"]
        assert 0 <= lo <= p["win_rate"] <= hi <= 1
        assert p["win_rate"] == p["wins"] / 20
        assert [t["place"] for t in p["by_turn"]] == [1, 2]
        assert sum(t["games"] for t in p["by_turn"]) == 20
    assert [(t["place"], t["games"]) for t in data["by_turn"]] == [(1, 20), (2, 20)]


def test_simulate_json_does_not_depend_on_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "dominion", "--players", "bm,smithy", "-n", "16", "--seed", "9", "--json"]
    _, one, _ = run(capsys, *args, "--workers", "1")
    _, two, _ = run(capsys, *args, "--workers", "2")
    assert json.loads(one) == json.loads(two)


def test_simulate_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    strategy = tmp_path / "mine.toml"
    strategy.write_text('name = "Mine"\ndescription = "x"\n\n[[buy]]\ncard = "Province"\n\n'
                        '[[buy]]\ncard = "Silver"\n', encoding="utf-8")  # fmt: skip
    code, out, err = run(capsys, "simulate", "dominion", "--players", f"bmu,{strategy}", "-n",
                         "10", "--seed", "1", "--workers", "1", "--max-turns", "8")
    assert code == 0, err
    assert "BMU vs Mine: 10 games" in out
    assert "Win % [95% CI]" in out and "Tie % [95% CI]" in out
    assert "seed 1" in out
    assert "turn limit" in out  # 8 turns each is too short for most games
    assert " turns (the most any player took; Turns: each player's own)" in out
    assert "win % by turn order, whoever sat there (drawn per game): 1st to " \
           "play " in out and ", 2nd " in out
    assert err == ""


def test_simulate_by_card(capsys: pytest.CaptureFixture[str]) -> None:
    """``--by-card`` adds each seat's win rate with each Kingdom card and without it; a seat
    of ``best`` always says which rule bots it played; a kingdom that is the same in every
    game cannot be split, and says so."""
    args = ["simulate", "dominion", "--players", "best,bmu", "-n", "12", "--seed", "4",
            "--workers", "1", "--no-progress"]  # fmt: skip
    code, out, err = run(capsys, *args, "--by-card")
    assert code == 0, err
    for name in ("Best", "BMU"):  # a table a seat, with the difference, and a footnote
        assert f"{name}: win % with each Kingdom card, and without it" in out
    assert "With [95% CI]" in out and "Δ alike [95% CI]" in out
    assert "Δ: with minus without, in points (--json gives its interval, Newcombe's). A " \
        "kingdom always has 10 cards" in out
    assert "Δ alike: the same among games alike in the rule bot best played" in out
    _, few, _ = run(capsys, "simulate", "dominion", "--players", "bm,best", "-n", "6",
                    "--seed", "1", "--workers", "1", "--no-progress", "--by-card")
    few = " ".join(few.split())  # 6 kingdoms of 10 cards: 24 of the 25 dealt, no Witch
    # The chance count is of the differences with an interval in all the tables (the
    # statistician's audit found the cards of one table counted): recounted from --json.
    _, raw, _ = run(capsys, "simulate", "dominion", "--players", "bm,best", "-n", "6",
                    "--seed", "1", "--workers", "1", "--no-progress", "--by-card", "--json")
    compared = sum(a["ci95"] is not None for c in json.loads(raw)["by_card"]
                   for a in c["adjusted"])
    assert compared == 20
    assert "About one card in 20 shows a difference that looks significant at 95% by " \
        "chance alone: some 1 of the 20 differences of 2 tables. Witch was in no game: no " \
        "row." in few
    assert " Witch " not in few.split("Δ: with minus without")[0]
    _, plain, _ = run(capsys, "simulate", "dominion", "--players", "random,bmu", "-n", "12",
                      "--seed", "4", "--workers", "1", "--no-progress", "--by-card")
    assert "Δ alike: no rule bot here buys Kingdom cards, so it is Δ, with a score " \
        "interval (Mee's)." in plain
    _, witch, _ = run(capsys, "simulate", "dominion", "--players", "witch,bmu", "-n", "12",
                      "--seed", "4", "--workers", "1", "--no-progress", "--by-card")
    assert "Δ alike: the same among games alike in the cards the strategies here buy " \
        "(Witch)" in witch
    # with key cards, each seat's results by which of them the kingdom had
    assert "Win % by which of the strategies' cards the kingdom had" in witch
    groups = witch.split("Win % by which of the strategies' cards the kingdom had")[1]
    assert " Witch " in groups and " none of them " in groups
    assert "Win % by which" not in out  # no strategy's cards: no such table, but best's
    assert "Win % by the rule bot best played" in out and " Best as " in out
    # five key cards of four rule bots: 32 groups at most; the table shows the 8 with the
    # most games (a row a seat), and says where the others are
    four = ["simulate", "dominion", "--players", "witch,smithy,militia,workshop-gardens",
            "-n", "80", "--seed", "3", "--workers", "1", "--no-progress", "--by-card"]
    _, many, _ = run(capsys, *four)
    _, raw, _ = run(capsys, *four, "--json")
    groups = json.loads(raw)["by_key_cards"]
    assert len(groups) > 8 and sum(g["games"] for g in groups) == 80
    shown = sorted(groups, key=lambda g: -g["games"])[:8]
    assert f"the 8 groups with the most games; {len(groups) - 8} smaller ones in --json " \
        "(by_key_cards)" in many
    assert all(f" {', '.join(g['cards']) or 'none of them'} " in many for g in shown)
    assert "Best: win % by the rule bot it played (the best for each kingdom)" in out
    assert max(len(line) for line in out.splitlines() if line.startswith(" ")) <= 80  # tables
    code, out, err = run(capsys, *args, "--by-card", "--json")
    data = json.loads(out)
    assert sum(c["games"] for c in data["by_card"]) == 12 * 10  # 10 cards a game
    assert [(s["seat"], s["name"]) for s in data["by_card"][0]["with"]] == [(0, "Best"),
                                                                             (1, "BMU")]
    assert sum(a["games"] for a in data["players"][0]["played_as"]) == 12
    # best and BMU: no strategy buys a card by which to group games, but best plays as
    # the rule bot of each kingdom, and games are grouped by that
    assert data["by_card_key_cards"] == [] and data["by_card_key_played_as"] is True
    played = {a["strategy"]: a["games"] for a in data["players"][0]["played_as"]}
    assert {g["played_as"]: g["games"] for g in data["by_key_cards"]} == played
    code, out, err = run(capsys, *args)
    assert "Kingdom card" not in out and "Best: win % by the rule bot it played" in out
    code, out, err = run(capsys, *args, "--by-card", "--kingdom", "first-game")
    assert code == 2 and out == ""
    assert "--by-card: results by Kingdom card need kingdoms that differ between games, and " \
        "the kingdom first-game is the same in every game" in err


def test_the_footer_names_the_kingdom_cards_as_the_game_writes_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A kingdom of some cards is printed with the cards' names and how many more each
    game draws at random (it echoed the flag: "kingdom witch, throne room"); a set's name
    and ``random`` as they are."""
    for flag, footer in (("witch, throne room", "kingdom Witch, Throne Room and 8 random "
                          "cards drawn per game · seed 1"),
                         ("First-Game", "kingdom first-game · seed 1")):
        for command in ("simulate", "tournament"):
            code, out, err = run(capsys, command, "dominion", "--players", "bm,bmu", "-n",
                                 "2", "--seed", "1", "--workers", "1", "--no-progress",
                                 "--kingdom", flag)
            assert code == 0, err
            assert footer in out, out


def test_a_strategy_name_is_printed_as_it_is_written(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """Brackets in a name are text, not rich markup: ``[/]`` crashed the table's title
    after every game was played, and ``[v2]`` vanished from it."""
    for name in ("[/] x", "[v2]", "[bold]B[/bold]"):
        strategy = tmp_path / "s.toml"
        strategy.write_text(f'name = "{name}"\n[[buy]]\ncard = "Gold"\n', encoding="utf-8")
        code, out, err = run(capsys, "simulate", "dominion", "--players", f"bm,{strategy}",
                             "-n", "2", "--seed", "1", "--workers", "1", "--no-progress")
        assert code == 0, err
        assert f"BM vs {name}: 2 games" in out


def test_a_strategy_in_a_folder_that_cannot_be_read_says_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot path without ``.toml`` that cannot even be looked at (a folder without
    permission: ``is_file`` raises) is read as a strategy file, and the error says it
    could not read one (it said only "Permission denied: 'locked/s'")."""
    locked = tmp_path / "locked" / "s"
    real = Path.is_file

    def is_file(self: Path) -> bool:
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "is_file", is_file)
    code, out, err = run(capsys, "simulate", "dominion", "--players", f"bm,{locked}",
                         "-n", "2")
    assert code == 2 and out == ""
    assert err.startswith(f"dominari: error: {locked}: cannot read strategy file"), err


def test_simulate_record_dir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_dir = tmp_path / "recs"
    code, _, err = run(capsys, "simulate", "dominion", "--players", "bm,witch", "-n", "3",
                       "--seed", "2", "--workers", "1", "--record-dir", str(out_dir), "--json")
    assert code == 0, err
    assert sorted(os.listdir(out_dir)) == ["game-000001.json", "game-000002.json",
                                           "game-000003.json"]  # fmt: skip
    code, out, err = run(capsys, "replay", str(out_dir / "game-000002.json"))
    assert code == 0, err
    assert "Game over" in out and "Final scores" in out


def test_simulate_refuses_a_record_folder_holding_an_earlier_runs_records(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_dir = tmp_path / "recs"
    args = ["simulate", "dominion", "--players", "bm,witch", "-n", "3", "--seed", "2",
            "--workers", "1", "--record-dir", str(out_dir), "--json"]
    assert run(capsys, *args)[0] == 0
    before = {f: (out_dir / f).read_bytes() for f in os.listdir(out_dir)}
    code, out, err = run(capsys, *args[:-3], "-n", "2", "--record-dir", str(out_dir))
    assert code == 2 and out == ""
    assert err == (f"dominari: error: --record-dir: folder {str(out_dir)!r} already "
                        "holds 3 game records (game-000001.json …) from an earlier run: name "
                        "a new or empty folder, or remove them, so that two runs' records do "
                        "not mix\n")  # alone: the note on Witch-BM's Witch only for a run
    assert {f: (out_dir / f).read_bytes() for f in os.listdir(out_dir)} == before
    (out_dir / "notes.txt").write_text("mine", encoding="utf-8")  # other files are no bar
    for f in before:
        os.unlink(out_dir / f)
    assert run(capsys, *args)[0] == 0


def test_records_get_the_permissions_of_a_new_file(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    """Not owner-only (a temporary file's): what the umask gives, or what the file had."""
    mask = os.umask(0o022)
    try:
        path = tmp_path / "g.json"
        assert run(capsys, "play", "dominion", "--players", "bm,bm", "--seed", "3",
                   "--record", str(path))[0] == 0
        assert path.stat().st_mode & 0o777 == 0o644
        path.chmod(0o640)
        assert run(capsys, "play", "dominion", "--players", "bm,bm", "--seed", "4",
                   "--record", str(path))[0] == 0
        assert path.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(mask)


def test_replay_upto_beyond_the_record_is_refused(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert run(capsys, "play", "dominion", "--players", "bm,bm", "--seed", "3",
               "--record", str(path))[0] == 0
    n = len(json.loads(path.read_text(encoding="utf-8"))["actions"])
    assert run(capsys, "replay", str(path), "--upto", str(n))[0] == 0
    code, out, err = run(capsys, "replay", str(path), "--upto", str(n + 1))
    assert code == 2 and out == ""
    assert err == f"dominari: error: --upto {n + 1}: {str(path)!r} has only {n} actions\n"
    code, out, err = run(capsys, "replay", str(path), "--data", "x")
    assert code == 2 and "--data is for records of Dominations games" in err


def test_a_record_whose_kingdom_was_edited_is_refused(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert run(capsys, "play", "dominion", "--players", "bm,witch", "--seed", "3",
               "--record", str(path))[0] == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    record["kingdom"] = ["Witch"]
    forged = _write(tmp_path / "forged.json", record)
    code, out, err = run(capsys, "replay", str(forged))
    assert code == 2 and out == ""
    assert err.startswith(f"dominari: error: {str(forged)!r}: the record's kingdom ['Witch'] "
                          "is not the one its config deals (")


def test_ctrl_c_keeps_the_game_so_far(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopping ``play`` with Ctrl-C writes its record as ``quit`` does."""
    seen = {"n": 0}
    act = MCTSBot.act

    def interrupted(self: MCTSBot, state: Any) -> Any:
        seen["n"] += 1
        if seen["n"] > 12:
            raise KeyboardInterrupt
        return act(self, state)

    monkeypatch.setattr(MCTSBot, "act", interrupted)
    path = tmp_path / "g.json"
    code, _, err = run(capsys, "play", "dominion", "--players", "mcts-easy:iterations=8,bm",
                       "--seed", "3", "--record", str(path))
    assert code == 130
    assert f"the game so far is in {path}" in err and err.rstrip().endswith("interrupted")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["outcome"] is None and len(record["actions"]) > 12
    assert DominionState.from_record(record).outcome() is None


# -------------------------------------------------------------- bad input
BAD_INPUTS = [
    (["simulate", "dominion", "--players", "bmu,nobot", "-n", "5"], "nobot"),
    (["simulate", "dominion", "--players", "bmu,smithy", "-n", "0"], "-n/--games"),
    (["simulate", "dominion", "--players", "bmu,smithy", "-n", "many"], "many"),
    (["simulate", "dominion", "--players", "bmu,smithy", "--workers", "0"], "--workers"),
    (["simulate", "dominion", "--players", "bmu,smithy", "--max-turns", "0"], "--max-turns"),
    (["simulate", "chess", "--players", "bmu,smithy"], "chess"),
    (["simulate", "dominion", "--players", "bmu,smithy", "--kingdom", "Cellar,Dragon"],
     "Dragon"),
    (["simulate", "dominion", "--players", "bmu,smithy", "--kingdom", "nope"], "nope"),
    (["simulate", "dominion", "--players", "bmu,smithy", "--kingdom", "Copper"], "basic"),
    (["simulate", "dominion", "--players", "bmu"], "2 to 4"),
    (["simulate", "dominion", "--players", "bmu,,smithy"], "empty"),
    (["simulate", "dominion", "--players", "human,bmu"], "human"),
    (["simulate", "dominion", "--players", "bmu,smithy", "--frobnicate"], "--frobnicate"),
    (["simulate", "dominion"], "--players"),
    (["play", "dominion", "--players", "human,nobot"], "nobot"),
    (["play", "dominion", "--players", "bmu,smithy", "--kingdom", "Witch,Witch"], "twice"),
    (["play", "dominions", "--players", "bmu,smithy"], "dominions"),
    (["play", "dominion", "--players", "bmu,smithy", "--bot-seconds", "1"], "no search bot"),
    (["play", "dominion", "--players", "mcts,smithy", "--bot-seconds", "0"], "--bot-seconds"),
    (["play", "dominion", "--players", "mcts,smithy", "--bot-seconds", "soon"], "seconds"),
    (["play", "dominion", "--players", ""], "empty seat"),  # not the default seats
    (["play", "dominion", "--players", "bm,bm", "--kingdom", ""], "must not be empty"),
    (["simulate", "dominion", "--players", "bm,bm", "--record-dir", " "], "must not be empty"),
    (["simulate", "dominion", "--players", "bm,bm", "-n", "100000001"], "at most 100,000,000"),
    (["serve", "--db", ""], "argument --db: must not be empty"),
    (["replay", ""], "must not be empty"),
    (["replay", "missing.json"], "not found"),
    (["replay", "missing.json", "--upto", "-3"], "--upto"),
    (["teleport"], "teleport"),
    ([], "required"),
]


@pytest.mark.parametrize(("argv", "words"), BAD_INPUTS)
def test_bad_input_is_one_clear_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                     words: str) -> None:
    monkeypatch.chdir(tmp_path)
    extra = ["--record-dir", "out"] if argv[:1] == ["simulate"] and len(argv) > 3 else []
    if argv[:1] == ["play"]:
        extra = ["--record", "game.json"]
    code, out, err = run(capsys, *argv, *extra)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("dominari: error: ")
    assert words in lines[0]
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == []


def _write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _good_record() -> dict[str, Any]:
    s = DominionState.new(seed=5)
    for text in ("buy Silver", "end", "end"):
        s.apply(s.parse_action(text) if text != "end" else s.legal_actions()[-1])
    return s.record()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ({"format": "something-else"}, "not a Dominari record"),
        ({**_good_record(), "version": 99}, "version"),
        ({**_good_record(), "game": "chess"}, "unknown game 'chess'"),
        ({**_good_record(), "game": "dominations"}, "unknown config field(s): kingdom"),
        ({**_good_record(), "config": {"players": 2, "seed": 1, "colour": 1}},
         "record config: unknown config field(s): colour"),
        ({**_good_record(), "actions": ["buy Province"]}, "does not replay"),
        ({**_good_record(), "actions": ["fly away"]}, "does not replay"),
        ({**_good_record(), "config": {"players": 9, "seed": 1}}, "2 to 4"),
        ({**_good_record(), "config": {"players": 2}}, "no seed"),
    ],
)
def test_bad_record_files(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: Any,
                          words: str) -> None:
    path = _write(tmp_path / "bad.json", content)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("dominari: error: ") and words in err


def test_bad_strategy_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path / "broken.toml", 'name = "x"\n[[buy]]\ncard = "Dragon"\n')
    code, out, err = run(capsys, "simulate", "dominion", "--players", f"bmu,{path}", "-n", "2",
                         "--record-dir", str(tmp_path / "out"))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("dominari: error: ")
    assert not (tmp_path / "out").exists()


def test_a_record_folder_that_cannot_be_made_names_its_flag(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    afile = _write(tmp_path / "afile", "x")
    for command in (["play", "dominion", "--players", "bm,bm"],
                    ["simulate", "dominion", "--players", "bm,bm", "-n", "2"]):
        code, out, err = run(capsys, *command, "--seed", "3", "--record-dir",
                             str(afile / "games"))
        assert code == 2 and out == ""
        assert err.startswith("dominari: error: --record-dir: cannot create folder") and \
            len(err.splitlines()) == 1


def test_record_outcome_mismatch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, _ = run(capsys, "play", "dominion", "--players", "bm,bm", "--seed", "3",
                     "--record", str(tmp_path / "g.json"))
    assert code == 0
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    record["outcome"]["scores"] = [99, 99]
    path = _write(tmp_path / "forged.json", record)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == "" and "outcome" in err and len(err.splitlines()) == 1


# -------------------------------------------------------------------- play
@pytest.mark.rule("N-END-1", "N-END-2")
def test_play_between_bots_and_replay(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "dominion", "--players", "bmu,smithy", "--seed", "1",
                         "--record", str(record))
    assert code == 0, err
    assert err == ""
    assert "— BMU, turn 1 —" in out and "— Smithy, turn 1 —" in out
    assert "buys Province" in out
    assert "Game over" in out
    data = json.loads(record.read_text(encoding="utf-8"))
    state = DominionState.from_record(data)
    final = scores_text(state)
    assert final in out
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary files left

    code, replayed, err = run(capsys, "replay", str(record))
    assert code == 0, err
    assert final in replayed
    # the replay prints the same game log as the live game
    start = "\n— "
    assert replayed[replayed.index(start):] == out[out.index(start):out.index("Record written")]

    code, part, err = run(capsys, "replay", str(record), "--upto", "4")
    assert code == 0, err
    assert "stopped after 4 of" in part and "Scores so far" in part


def test_play_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, a, _ = run(capsys, "play", "dominion", "--players", "random,witch", "--seed", "4",
                  "--kingdom", "random")
    _, b, _ = run(capsys, "play", "dominion", "--players", "random,witch", "--seed", "4",
                  "--kingdom", "random")
    assert a == b
    assert "Seed 4" in a


def test_play_bot_seconds_caps_each_search_decision(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bot-seconds`` gives the seated search bots a time cap on top of their level
    (without it the level's budget alone plays: ``test_play_is_reproducible``)."""
    seen: list[tuple[str, float | None]] = []
    act = MCTSBot.act

    def spy(self: MCTSBot, state: Any) -> Any:
        seen.append((self.name, self.seconds))
        return act(self, state)

    monkeypatch.setattr(MCTSBot, "act", spy)
    code, out, err = run(capsys, "play", "dominion", "--players", "mcts-easy,bm", "--seed",
                         "3", "--kingdom", "first-game", "--bot-seconds", "0.02")
    assert code == 0, err
    assert "Game over" in out
    assert seen and set(seen) == {("mcts-easy:seconds=0.02", 0.02)}
    # A whole Dominations game takes seconds: its first search decision is enough.
    seen.clear()

    def stop(self: MCTSBot, state: Any) -> Any:
        seen.append((self.name, self.seconds))
        raise _Stop

    monkeypatch.setattr(MCTSBot, "act", stop)
    code, out, err = run(capsys, "play", "dominations", "--players", "greedy,mcts", "--seed",
                         "3", "--bot-seconds", "0.5")  # (a bot's error: the game stops)
    assert code == 2 and "was deciding: _Stop" in err, err
    assert seen == [("mcts:seconds=0.5", 0.5)]


@pytest.mark.parametrize(("seconds", "words"), [
    ("0", "more than 0"),
    ("-1", "more than 0"),
    ("100", "at most 60; a longer search takes steps or iterations instead, the same on any "
            "machine"),
])
def test_bad_bot_seconds_are_worded_alike_on_the_command_line_in_a_spec_and_in_python(
        capsys: pytest.CaptureFixture[str], seconds: str, words: str) -> None:
    """``--bot-seconds``, a spec's ``seconds=`` and ``MCTSBot(seconds=…)`` share one check
    (``seconds_fault``), so they refuse the same number with the same words."""
    for command in ("play", "serve"):
        code = main([command, *(["dominion", "--players", "mcts,bm"] if command == "play"
                                else []), "--bot-seconds", seconds])
        assert code == 2
        err = capsys.readouterr().err
        head, tail = words.split(";")[0], words.partition(";")[2]
        assert f"argument --bot-seconds: must be {head}, not {seconds}{';' if tail else ''}" \
            f"{tail}" in err
    with pytest.raises(ConfigError, match=f"seconds={seconds!r} is not {words}"):
        load_bot(f"mcts:seconds={seconds}")
    with pytest.raises(ConfigError) as error:
        MCTSBot("dominion", seconds=float(seconds))
    assert str(error.value) == (f"seconds per decision must be {head}, not {seconds}"
                                + (f";{tail}" if tail else ""))


def test_a_capped_search_bot_is_named_by_its_budget_in_the_record(tmp_path: Path) -> None:
    """The seat names of a record say the time a search bot played with: a spec that
    loads the same bot; a bot's own shorter budget is kept."""
    record = tmp_path / "game.json"
    code = main(["play", "dominion", "--players", "mcts-easy:seconds=0.01,mcts-easy:width=2",
                 "--seed", "3", "--kingdom", "first-game", "--max-turns", "2",
                 "--bot-seconds", "0.05", "--record", str(record)])  # fmt: skip
    assert code == 0
    names = json.loads(record.read_text(encoding="utf-8"))["config"]["names"]
    assert names == ["mcts-easy:seconds=0.01", "mcts-easy:width=2:seconds=0.05"]
    assert load_bot(names[1]).seconds == 0.05


class _Stop(Exception):
    """Ends a game at the spied decision."""


def test_play_human_through_stdin(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The human never buys anything and only ends turns; BMU ends the game on Provinces.
    feed(monkeypatch, "help\nbuy Province\nfly away\nb zz\n\n" + "end\n" * 300)
    record = tmp_path / "human.json"
    code, out, err = run(capsys, "play", "dominion", "--players", "human,bmu", "--seed", "2",
                         "--record", str(record))
    assert code == 0
    assert "Legal actions: " in out and "buy Copper" in out
    assert "Your hand: " in out and "Supply: " in out and "Coins " in out
    errors = err.splitlines()
    assert len(errors) == 3
    assert "Province costs 8" in errors[0]
    assert "fly" in errors[1]
    assert "zz" in errors[2]
    assert "Game over (provinces)" in out
    state = DominionState.from_record(json.loads(record.read_text(encoding="utf-8")))
    assert state.is_terminal()
    assert scores_text(state) in out
    assert "BMU: " in scores_text(state) and "(wins)" in scores_text(state)


def test_play_human_prefixes_quit_and_record(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    feed(monkeypatch, "b cop\nquit\n")
    record = tmp_path / "quit.json"
    code, out, err = run(capsys, "play", "dominion", "--players", "human,bm", "--seed", "1",
                         "--record", str(record))
    assert code == 0 and err == ""
    assert "human buys Copper" in out
    assert "Game abandoned." in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["outcome"] is None
    assert "buy Copper" in data["actions"]


def test_play_human_end_of_input(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, "")
    code, out, err = run(capsys, "play", "dominion", "--players", "bm,human,bm", "--seed", "6")
    assert code == 0 and err == ""
    assert "End of input" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"dominari {__version__}"


def test_python_dash_m(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "dominari", "simulate", "dominion", "--players",
                           "bm,nobody"], capture_output=True, text=True, env=env, timeout=60,
                          cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("dominari: error: ") and len(proc.stderr.splitlines()) == 1
    proc = subprocess.run([sys.executable, "-m", "dominari", "--version"], capture_output=True,
                          text=True, env=env, timeout=60)  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.strip() == f"dominari {__version__}"


def test_a_closed_output_keeps_the_game_so_far(tmp_path: Path) -> None:
    """``play … --record FILE | head -1``: the record is written as on ``quit``."""
    path = tmp_path / "pipe.json"
    proc = subprocess.Popen([sys.executable, "-m", "dominari", "play", "dominion", "--players",
                             "bm,bmu", "--seed", "7", "--record", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": SRC})  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert f"the game so far is in {path}" in err
    DominionState.from_record(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(("argv", "words"), [
    (["simulate", "dominion", "--players", "bm,bmu", "--bogus"],
     "unrecognized arguments: --bogus (see 'dominari simulate --help')"),
    (["data", "check", "--bogus"], "(see 'dominari data check --help')"),
    (["simulate", "dominion", "--players", "bm,bmu", "--seed", "-1"],
     "a seed is a whole number of 0 or more, not -1"),
    (["play", "dominion", "--players", "bm,bmu", "--seed", "-3"], "0 or more, not -3"),
    (["simulate", "dominion", "--players", "bm,bmu", "--kingdom", "Witch,,Smithy"],
     "kingdom 'Witch,,Smithy': an empty card name"),
    (["simulate", "dominations", "--players", "random,random", "--rule", "connection=all-sides",
      "--rule", "connection=choose-one"], "rule option 'connection' is given twice"),
    # refused before the notes on a search by the clock and a bot's missing cards
    (["simulate", "dominion", "--players", "mcts-easy:seconds=1,nosuchbot"],
     "unknown bot 'nosuchbot'"),
    (["simulate", "dominion", "--players", "mcts-easy:seconds=1,witch", "--workers",
      "100000"], "at most"),
    (["simulate", "dominion", "--players", "mcts-easy:seconds=1,witch", "--kingdom",
      "first-game", "--by-card"], "--by-card"),
    (["play", "dominion", "--players", "mcts-easy,bm", "--bot-seconds", "1", "--record",
      "no-such-folder/game.json"], "--record"),
    (["play", "dominations", "--players", "mcts-easy,greedy", "--bot-seconds", "1", "--svg",
      "no-such-folder/board.svg"], "--svg"),
])
def test_more_bad_command_lines(capsys: pytest.CaptureFixture[str], argv: list[str],
                                words: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and words in err


def test_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "dominion", "--players", "bm,bmu", "-n", "1",
                         "--seed", "1", "--workers", "1")
    assert code == 0, err
    assert "1 game played in" in out


def test_apply_with_a_text_says_to_parse_it() -> None:
    from dominari.core.errors import IllegalActionError
    from dominari.dominations.engine import DominationsConfig, DominationsState
    from dominari.dominion.engine import DominionConfig

    state = DominionState.new(DominionConfig(seed=1))
    with pytest.raises(IllegalActionError, match=r"apply\(\) takes an Action, not the text "
                       r"'buy Province': state.parse_action\('buy Province'\) reads it"):
        state.apply("buy Province")  # type: ignore[arg-type]
    other = DominationsState.new(DominationsConfig(seed=1, log=False))
    with pytest.raises(IllegalActionError, match=r"apply\(\) takes an Action"):
        other.apply("pass")


def test_a_rule_bot_whose_cards_the_kingdom_lacks_is_said_to_play_without_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Witch-BM on First Game never sees a Witch: its results would pass for Witch's
    without a word. A fixed kingdom says so (stderr and --json); one that has the cards
    says nothing; kingdoms that draw cards per game say in what share of the games the bot
    has them (``partial_cards``)."""
    code, out, err = run(capsys, "simulate", "dominion", "--kingdom", "first-game",
                         "--players", "bmu,witch", "-n", "4", "--seed", "1", "--workers", "1",
                         "--json")
    assert code == 0
    assert err == ("dominari: note: Witch buys Witch, not in this kingdom (first-game): it "
                   "plays without it\n")
    assert json.loads(out)["missing_cards"] == {"Witch": ["Witch"]}
    # Several such players: one note, not a line each (the organiser's audit: 13 lines)
    code, out, err = run(capsys, "simulate", "dominion", "--kingdom", "first-game",
                         "--players", "witch,library,bm", "-n", "2", "--seed", "1",
                         "--workers", "1", "--json")
    assert code == 0
    assert err == ("dominari: note: Witch buys Witch; Library buys Library: not in this "
                   "kingdom (first-game); each plays without its cards\n")
    assert json.loads(out)["missing_cards"] == {"Witch": ["Witch"], "Library": ["Library"]}
    for kingdom in ("size-distortion", "Witch"):
        code, out, err = run(capsys, "simulate", "dominion", "--kingdom", kingdom,
                             "--players", "bmu,witch", "-n", "2", "--seed", "1",
                             "--workers", "1", "--json")
        assert code == 0 and err == "" and "missing_cards" not in json.loads(out), kingdom
        assert "partial_cards" not in json.loads(out)
    for kingdom, share in (("random", 0.4), ("Moat", 9 / 24)):
        code, out, err = run(capsys, "simulate", "dominion", "--kingdom", kingdom,
                             "--players", "witch,bmu", "-n", "2", "--seed", "1",
                             "--workers", "1", "--json")
        assert code == 0 and "missing_cards" not in json.loads(out)
        assert json.loads(out)["partial_cards"] == {"Witch": {"Witch": share}}
        # a share of kingdoms, expected, not of this run's games
        assert err.startswith(f"dominari: note: Witch buys Witch, which {100 * share:.0f}% of "
                              "kingdoms have (kingdom ") and "where the kingdom lacks it" in err
        assert err.endswith("or split the results by card (--by-card)\n")
    code, out, err = run(capsys, "simulate", "dominion", "--players", "witch,bmu", "-n", "2",
                         "--seed", "1", "--workers", "1", "--by-card")
    assert code == 0 and err.endswith("the results by card below compare the games with and "
                                      "without it\n"), err  # not told to ask for them
    code, out, err = run(capsys, "tournament", "dominion", "--kingdom", "first-game",
                         "--players", "bmu,witch,smithy", "-n", "2", "--seed", "1",
                         "--workers", "1", "--json", "--no-progress")
    assert code == 0 and "Witch buys Witch" in err
    assert json.loads(out)["missing_cards"] == {"Witch": ["Witch"]}


def test_notes_of_missing_cards_name_players_as_the_results_do(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Players of one name are numbered in the results (``BM#1``, ``BM#2``): the notes and
    ``missing_cards`` say which, where they said "BM" of a strategy file called BM (a
    Smithy buyer) beside ``bm``, and kept one of two alike bots' cards; alike players are
    said in one note."""
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "BM"\n[[buy]]\ncard = "Province"\n[[buy]]\ncard = "Gold"\n'
                    '[[buy]]\ncard = "Smithy"\nwhen = "count(\'Smithy\') < 1"\n[[buy]]\n'
                    'card = "Silver"\n', encoding="utf-8")
    code, out, err = run(capsys, "simulate", "dominion", "--kingdom", "first-game",
                         "--players", f"{mine},bm,witch,witch", "-n", "4", "--seed", "1",
                         "--workers", "1", "--json")  # fmt: skip
    assert code == 0, err
    assert "dominari: note: Witch#1 and Witch#2 buy Witch, not in this kingdom (first-game): "\
           "they play without it\n" in err
    assert "BM#1" in json.loads(out)["players"][0]["name"]
    assert json.loads(out)["missing_cards"] == {"Witch#1": ["Witch"], "Witch#2": ["Witch"]}
    code, out, err = run(capsys, "simulate", "dominion", "--players", f"{mine},bm", "-n", "2",
                         "--seed", "1", "--workers", "1", "--json")  # fmt: skip
    assert code == 0 and "dominari: note: BM#1 buys Smithy, which 40% of kingdoms" in err
    assert json.loads(out)["partial_cards"] == {"BM#1": {"Smithy": 0.4}}
    code, out, err = run(capsys, "simulate", "dominion", "--kingdom", "first-game",
                         "--players", "witch,witch,witch", "-n", "3", "--seed", "1",
                         "--workers", "1")  # fmt: skip
    assert code == 0 and err == ("dominari: note: Witch#1, Witch#2 and Witch#3 buy Witch, not "
                                 "in this kingdom (first-game): they play without it\n")
