"""``dominari simulate/play/replay`` for Dominations: tables, JSON, records, terminal play
driven through standard input, and bad flags."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from dominari.bots.dominations_random import DominationsRandomBot
from dominari.cli import dominations_help, dominations_prompt, main, preview_text
from dominari.dominations.data import builtin_folder
from dominari.dominations.engine import VP_SOURCES, DominationsConfig, DominationsState
from dominari.dominations.notation import PLACE
from dominari.sim.runner import bot_seed, dominations_data, game_seed


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


SIM = ["simulate", "dominations", "--players", "random,random", "-n", "4", "--seed", "1"]


# ---------------------------------------------------------------- simulate
def test_simulate_json_keys_and_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SIM, "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    for key in ("game", "games", "seed", "players", "mean_turns", "end_reasons",
                "turn_limit_games", "rules", "data"):
        assert key in data
    assert data["game"] == "dominations" and data["games"] == 4 and data["seed"] == 1
    assert data["end_reasons"] == {"game end": 4}
    assert data["rules"]["variant"] == "retail" and data["data"] is None
    assert [p["name"] for p in data["players"]] == ["random#1", "random#2"]
    assert sum(p["wins"] for p in data["players"]) == 4  # ties go to initiative
    for p in data["players"]:
        for key in ("name", "wins", "ties", "win_rate", "ci95", "tie_rate", "tie_ci95",
                    "mean_vp", "mean_turns", "vp_breakdown"):
            assert key in p
        assert p["ties"] == 0
        lo, hi = p["ci95"]
        assert 0 <= lo <= p["win_rate"] == p["wins"] / 4 <= hi <= 1
        assert set(p["vp_breakdown"]) == set(VP_SOURCES)
        assert sum(p["vp_breakdown"].values()) == pytest.approx(p["mean_vp"])


def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SIM, "--workers", "1")
    assert code == 0, err
    assert err == ""
    assert "random#1 vs random#2: 4 games" in out
    assert "Win % [95% CI]" in out and "Tie % [95% CI]" in out and "Mean VP" in out
    assert "Mean VP by source" in out
    for source in VP_SOURCES:
        assert source in out
    assert "retail rules · seed 1" in out


def test_simulate_does_not_depend_on_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*SIM, "--variant", "prototype", "--json"]
    _, one, _ = run(capsys, *args, "--workers", "1")
    code, two, err = run(capsys, *args, "--workers", "2")
    assert code == 0, err
    assert json.loads(one) == json.loads(two)
    assert json.loads(one)["rules"]["variant"] == "prototype"


def test_simulate_records_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_dir = tmp_path / "recs"
    code, out, err = run(capsys, "simulate", "dominations", "--players", "random,random,random",
                         "-n", "2", "--seed", "5", "--workers", "1", "--rule",
                         "connection=all-sides", "--record-dir", str(out_dir), "--json")
    assert code == 0, err
    assert json.loads(out)["rules"]["connection"] == "all-sides"
    assert sorted(os.listdir(out_dir)) == ["game-000001.json", "game-000002.json"]
    for i, name in enumerate(sorted(os.listdir(out_dir))):
        record: dict[str, Any] = json.loads((out_dir / name).read_text(encoding="utf-8"))
        assert record["config"]["seed"] == game_seed(5, i)
        assert record["config"]["rules"]["connection"] == "all-sides"
        state = DominationsState.from_record(record)
        outcome = state.outcome()
        assert outcome is not None and outcome.to_json() == record["outcome"]
    code, out, err = run(capsys, "replay", str(out_dir / "game-000002.json"))
    assert code == 0, err
    assert "Replay of" in out and "=== Game over ===" in out
    assert "Final scores" in out and "Ranking: 1. " in out


def test_simulate_with_a_data_folder(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    folder = tmp_path / "mydata"
    folder.mkdir()
    shutil.copy(builtin_folder() / "tiles.json", folder / "tiles.json")
    code, out, err = run(capsys, *SIM[:4], "-n", "1", "--workers", "1", "--data", str(folder),
                         "--record-dir", str(tmp_path / "r"), "--json")
    assert code == 0, err
    assert json.loads(out)["data"] == str(folder)
    record = json.loads((tmp_path / "r" / "game-000001.json").read_text(encoding="utf-8"))
    assert record["config"]["data"] == str(folder)
    # the run names its data's files as a record does: two versions of a folder differ
    assert json.loads(out)["data_digest"] == record["config"]["data_digest"]
    code, out, err = run(capsys, "replay", str(tmp_path / "r" / "game-000001.json"))
    assert code == 0, err
    # a tournament names it beside the folder in its options
    code, out, err = run(capsys, "tournament", "dominations", "--players", "random,random",
                         "-n", "1", "--seed", "1", "--workers", "1", "--data", str(folder),
                         "--json", "--no-progress")
    assert code == 0, err
    options = json.loads(out)["options"]
    assert options["data"] == str(folder)
    assert options["data_digest"] == record["config"]["data_digest"]
    # the text and the chart name it too (the strategist's audit: "data mydata" alone
    # read the same for a folder edited between two runs)
    digest = record["config"]["data_digest"]
    for command in ("simulate", "tournament"):
        code, out, err = run(capsys, command, "dominations", "--players", "random,random",
                             "-n", "1", "--seed", "1", "--workers", "1", "--data",
                             str(folder), "--no-progress",
                             *(("--plot", str(tmp_path / "t.png"))
                               if command == "tournament" else ()))  # fmt: skip
        assert code == 0, err
        assert f"data {folder} (digest {digest})" in " ".join(out.split()), out
    from dominari.sim.plot import tournament_figure
    from dominari.sim.tournament import tournament

    figure = tournament_figure(tournament(["random", "random"], 1, 1, game="dominations",
                                          data=folder, workers=1))  # fmt: skip
    assert figure.get_suptitle().endswith(f" · data {folder} (digest {digest})")


def test_a_record_played_with_a_data_folder_replays_from_elsewhere(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record names the folder as given (relative); replay finds it beside the record,
    or takes ``--data``, which the mismatch error advises."""
    game = tmp_path / "game"
    folder = game / "mydata"
    folder.mkdir(parents=True)
    shutil.copy(builtin_folder() / "tiles.json", folder / "tiles.json")
    monkeypatch.chdir(game)
    code, _, err = run(capsys, "play", "dominations", "--players", "random,random", "--seed",
                       "2", "--data", "mydata", "--record", "d.json")
    assert code == 0, err
    record = game / "d.json"
    assert json.loads(record.read_text(encoding="utf-8"))["config"]["data"] == "mydata"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "replay", str(record))
    assert code == 0, err
    assert "data game/mydata" in out.replace(str(tmp_path) + os.sep, "")
    copy = elsewhere / "copied"
    shutil.copytree(folder, copy)
    code, out, err = run(capsys, "replay", str(record), "--data", str(copy))
    assert code == 0, err
    tiles = json.loads((copy / "tiles.json").read_text(encoding="utf-8"))
    (copy / "tiles.json").write_text(json.dumps(tiles).replace('"name"', ' "name"', 1),
                                     encoding="utf-8")  # the same data: the digest holds
    assert run(capsys, "replay", str(record), "--data", str(copy))[0] == 0
    code, out, err = run(capsys, "replay", str(record), "--data", "no-such-folder")
    assert code == 2 and out == "" and err.count("\n") == 1
    # the folder given is at fault, not the record's config
    assert err.startswith("dominari: error: --data no-such-folder: data folder "
                          "'no-such-folder' does not exist"), err
    tiles[0]["corners"] = tiles[0]["corners"][1:] + tiles[0]["corners"][:1]  # another tile
    (copy / "tiles.json").write_text(json.dumps(tiles), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(record), "--data", str(copy))
    assert code == 2 and "the files have changed since, or this is another folder" in err
    shutil.rmtree(folder)  # the recorded folder is gone: say where it was looked for
    code, out, err = run(capsys, "replay", str(record))
    assert code == 2 and "was played with the data folder 'mydata', found neither from " \
        "here nor beside the record: give it with 'replay --data DIR'" in err, err


def test_a_replay_header_shows_the_game_as_it_began(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    record = tmp_path / "d.json"
    code, played, err = run(capsys, "play", "dominations", "--players", "greedy,random",
                            "--seed", "2", "--record", str(record))
    assert code == 0, err
    order = next(line for line in played.splitlines() if line.startswith("Initiative order"))
    for upto in ([], ["--upto", "0"], ["--upto", "40"]):
        code, out, err = run(capsys, "replay", str(record), *upto)
        assert code == 0, err
        assert next(line for line in out.splitlines()
                    if line.startswith("Initiative order")) == order


# -------------------------------------------------------------- bad input
BAD_INPUTS = [
    ([*SIM[:3], "random,nobot"], "random, greedy"),
    ([*SIM[:3], "random,bmu"], "random, greedy"),
    ([*SIM[:3], "random"], "2 to 4 players, not 1"),
    ([*SIM[:3], "random,random,random,random,random"], "2 to 4 players, not 5"),
    ([*SIM[:3], "human,random"], "human"),
    ([*SIM, "-n", "0"], "-n/--games"),
    ([*SIM, "--workers", "0"], "--workers"),
    ([*SIM, "--variant", "deluxe"], "--variant"),
    ([*SIM, "--variant", "prototype", "--rule", "variant=retail"], "conflicts"),
    ([*SIM, "--rule", "colour=blue"], "colour"),
    ([*SIM, "--rule", "connection"], "name=value"),
    ([*SIM, "--data", "no-such-folder"], "does not exist"),
    ([*SIM, "--kingdom", "first-game"], "--kingdom"),
    ([*SIM, "--max-turns", "5"], "--max-turns"),
    (["simulate", "dominion", "--players", "bm,bm", "--variant", "prototype"], "--variant"),
    (["simulate", "dominion", "--players", "bm,bm", "--data", "x"], "--data"),
    (["play", "dominations", "--players", "human,nobot"], "nobot"),
    (["play", "dominations", "--players", "random"], "2 to 4"),
    (["play", "dominations", "--players", "random,random", "--data", "nope"], "nope"),
    (["play", "dominations", "--players", "random,random", "--kingdom", "x"], "--kingdom"),
    (["play", "dominion", "--players", "bm,bm", "--svg", "b.svg"], "--svg"),
    (["play", "dominations", "--svg", "no/such/dir/b.svg"], "does not exist"),
]


@pytest.mark.parametrize(("argv", "words"), BAD_INPUTS)
def test_bad_input_is_one_clear_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                     words: str) -> None:
    monkeypatch.chdir(tmp_path)
    extra = ["--record-dir", "out"] if argv[0] == "simulate" else ["--record", "game.json"]
    code, out, err = run(capsys, *argv, *extra)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("dominari: error: ")
    assert words in lines[0]
    assert os.listdir(tmp_path) == []


def test_play_record_and_record_dir_exclude_each_other(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "dominations", "--record", "a.json", "--record-dir",
                         "b")  # fmt: skip
    assert code == 2 and out == "" and "not allowed with" in err


# -------------------------------------------------------------------- play
def test_play_between_bots_svg_record_and_replay(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    svg, rec = tmp_path / "board.svg", tmp_path / "game.json"
    code, out, err = run(capsys, "play", "dominations", "--players", "random,random",
                         "--seed", "4", "--svg", str(svg), "--record", str(rec))
    assert code == 0, err
    assert err == ""
    assert "Dominations: a bot game" in out and "Seed 4" in out
    assert "— Age 1, turn 1: " in out and " places L" in out and "=== Game over ===" in out
    assert "Final scores" in out and "rank" in out
    ranking = next(line for line in out.splitlines() if line.startswith("Ranking: "))
    assert ET.parse(svg).getroot().tag.endswith("svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg", "game.json"]
    record = json.loads(rec.read_text(encoding="utf-8"))
    state = DominationsState.from_record(record)
    outcome = state.outcome()
    assert outcome is not None and record["outcome"] == outcome.to_json()
    code, replayed, err = run(capsys, "replay", str(rec))
    assert code == 0, err
    assert ranking in replayed
    # the same seed plays the same game
    code, again, _ = run(capsys, "play", "dominations", "--players", "random,random",
                         "--seed", "4")
    assert again.split("Final scores")[0] == out.split("Final scores")[0]


def _scripted_human(seed: int, answers: int) -> tuple[list[str], list[str], str]:
    """Seat 1 is human and answers as a random bot would; seat 2 is the CLI's random bot.

    Returns the human's first ``answers`` actions, the whole game history up to the next
    human decision, and the first tile the human places (for 'help <tile>')."""
    s = DominationsState.new(DominationsConfig(players=2, seed=seed, names=("human", "random")))
    me, other = DominationsRandomBot(seed=99), DominationsRandomBot()
    other.reset(bot_seed(seed, 0, 1))
    mine: list[str] = []
    tile = ""
    while True:
        p = s.current_player()
        if p == 0 and len(mine) == answers:
            break
        action = (me if p == 0 else other).act(s)
        if p == 0:
            mine.append(s.format_action(action))
            if action.kind == PLACE and not tile:
                tile = mine[-1].split()[0]
        s.apply(action)
    assert tile, "the human placed no tile: answer more decisions"
    return mine, [s.format_action(a) for a in s.history], tile


def test_play_a_human_through_stdin(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    answers, history, tile = _scripted_human(seed=3, answers=12)
    first_place = next(i for i, a in enumerate(answers) if a.startswith(tile))
    script = ["help", "city 99,99", "fly away", "", *answers[:first_place],
              f"help {tile}", "help zzz", *answers[first_place:], "help", "quit"]
    feed(monkeypatch, "\n".join(script) + "\n")
    svg, rec = tmp_path / "b.svg", tmp_path / "g.json"
    code, out, err = run(capsys, "play", "dominations", "--players", "human,random",
                         "--seed", "3", "--svg", str(svg), "--record", str(rec))
    assert code == 0, err
    assert "Dominations: human at the keyboard" in out
    assert "Your hand: " in out and "Knowledge/limit: " in out and "Your VP: " in out
    assert "human> help\n" in out and "Legal actions" in out
    assert f"Legal actions starting with '{tile}'" in out and "→ you: " in out
    assert "No legal action starts with 'zzz'" in out
    assert "Game abandoned." in out
    errors = err.splitlines()
    assert len(errors) == 2  # the illegal and the unreadable action, nothing else
    assert "fly" in errors[1]
    # the bad input changed nothing: the game is exactly the scripted one
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["actions"] == history and record["outcome"] is None
    assert ET.parse(svg).getroot().tag.endswith("svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.svg", "g.json"]


def test_play_end_of_input_and_record_dir(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    feed(monkeypatch, "")
    folder = tmp_path / "games"
    for expected in ("dominations-6.json", "dominations-6-2.json"):
        code, out, err = run(capsys, "play", "dominations", "--players", "random,human",
                             "--seed", "6", "--record-dir", str(folder))
        assert code == 0 and err == ""
        assert "End of input" in out
        assert (folder / expected).is_file()


def test_help_groups_long_lists_and_previews_placements() -> None:
    s = DominationsState.new(DominationsConfig(players=2, seed=3))
    bots = [DominationsRandomBot(seed=1), DominationsRandomBot(seed=2)]
    while s.phase_name != "growth" or s.stack:
        s.apply(bots[s.current_player()].act(s))
    p = s.current_player()
    lines = dominations_help(s, "", p)
    assert lines[0].startswith("Legal actions (")
    hand = {s.data.tiles[t].id for t in s.players[p].hand}
    grouped = [line.split()[0] for line in lines[1:-1]]
    assert set(grouped) == hand and all("actions, e.g." in line for line in lines[1:-1])
    tile = sorted(hand)[0]
    some = dominations_help(s, tile.lower(), p)
    assert some[0].startswith(f"Legal actions starting with '{tile.lower()}'")
    listed = [line for line in some[1:] if line.startswith(f"  {tile} ")]
    assert listed and all("→ " in line for line in listed)
    legal = [s.format_action(a) for a in s.legal_actions() if a.kind == PLACE]
    assert {line.split("→")[0].strip() for line in listed} <= set(legal)


def test_draft_prompts_describe_the_cards_drawn() -> None:
    """D-SET-3: a human choosing sees the goals of both objectives, then both monuments."""
    s = DominationsState.new(DominationsConfig(players=2, seed=3))
    p = s.current_player()
    text = dominations_prompt(s, p)
    options = [s.format_action(a).split()[1] for a in s.legal_actions()]
    names = {o.id: o.name for o in s.data.objectives}
    assert all(f"{oid} {names[oid]}:" in text for oid in options)
    assert "cities" in text or "nodi" in text or "influence" in text
    while s.stack[-1][2] == 0:
        s.apply(s.legal_actions()[0])
    text = dominations_prompt(s, s.current_player())
    assert "keep one monument" in text and "VP" in text


def test_help_previews_the_inventors_reactivation() -> None:
    """D-AGE-7 (Inventor, rules §13.6): 'help' says what a reactivation would produce."""
    s = DominationsState.new(DominationsConfig(players=2, seed=4))
    bot = DominationsRandomBot(seed=4)
    while not (s.age == 2 and s.phase_name == "growth"):
        s.apply(bot.act(s))
    s.roles[3] = s.mover  # scenario: the mover holds the Inventor, unused
    s.role_used[3] = False
    again = s.reactivations()
    assert again and all(a in s.legal_actions() for a in again)
    text = preview_text(s, again[0], s.mover)
    assert text.startswith("you:") or "P" in text
    lines = dominations_help(s, "reactivate", s.mover)
    assert any("→" in line and "reactivate" in line for line in lines)


def test_simulate_by_card_splits_dominations_by_the_mastery_cards_held(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--by-card`` on Dominations: each seat's win rate with each mastery card it held
    at the end and without it, the surest gain first, and a note that a card held is a
    choice, of the order, and of how many cards look significant by chance alone (it was
    refused: no Kingdom cards). In a narrow terminal the intervals stack under their
    rates: a card's name broken onto a line of its own read as another card."""
    code = main(["simulate", "dominations", "--players", "greedy,random", "-n", "6",
                 "--seed", "1", "--workers", "1", "--no-progress", "--by-card"])
    out, err = capsys.readouterr()
    assert code == 0, err
    for name in ("greedy", "random"):
        assert f"{name}: win % with each mastery card it held at the end, and without it" \
            in out
    assert "a card held is the player's choice, and a player who wins takes more cards" \
        in out.replace("\n", " ")
    assert "Kingdom card" not in out
    assert "greedy: win % where it built a level of each monument, and in its other games " \
        "with it" in out
    assert "Monuments: With, a seat's win % in the games in which it built a level of the " \
        "monument" in " ".join(out.split())
    note = " ".join(out.split())
    assert "Cards are listed by the low end of Δ alike's interval, the surest gain first" \
        in note
    assert "Δ alike: the same among games in which the seat held as many mastery cards" \
        in note
    from dominari.cli import _points
    from dominari.sim import simulate

    r = simulate(["greedy", "random"], 6, seed=1, workers=1, game="dominations",
                 by_card=True)  # fmt: skip
    compared = sum(c.alike is not None for cards in r.by_mastery for c in cards)
    some = f"{compared / 20:.1f}".removesuffix(".0")  # over both tables
    assert f"by chance alone: some {some} of the {compared} differences of 2 tables." in note
    held = {c.card for c in r.by_mastery[0]}  # the cards without a row, named
    assert "greedy held " in note or not held
    assert all(f" {c}" in note.split("by chance alone")[1] for c in {
        s.id for s in dominations_data(None).skills} - held)
    monkeypatch.setenv("COLUMNS", "70")
    assert main(["simulate", "dominations", "--players", "greedy,random", "-n", "6", "--seed",
                 "1", "--workers", "1", "--no-progress", "--by-card"]) == 0
    narrow = capsys.readouterr().out
    for cards in r.by_mastery:  # every card's id and name on one line
        assert all(f" {c.card} {c.name} " in narrow for c in cards)
    assert max(len(line) for line in narrow.splitlines() if line.startswith(" ")) <= 70
    top = r.by_mastery[0][0]
    row = next(line for line in out.splitlines() if f" {top.card} {top.name} " in line)
    alike = top.alike
    assert alike is not None
    assert row.split()[-8:] == [
        f"{top.held.games}", f"{100 * top.held.win_rate:.1f}",
        f"[{100 * top.held.ci95[0]:.1f},", f"{100 * top.held.ci95[1]:.1f}]",
        f"{100 * top.lacked.win_rate:.1f}", _points(alike[0]), f"[{_points(alike[1])},",
        f"{_points(alike[2])}]"]  # Δ alike with its interval (Δ: With minus Without)
