"""``dominari show dominations`` and Dominations records through the command line."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dominari.cli import main
from dominari.dominations.data import builtin_folder
from dominari.dominations.engine import DominationsState


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_plays_turns_draws_and_records(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    svg, rec = tmp_path / "board.svg", tmp_path / "game.json"
    code, out, err = run(capsys, "show", "dominations", "--seed", "5", "--turns", "12",
                         "--svg", str(svg), "--record", str(rec))
    assert code == 0, err
    assert "Age 1, turn 1" in out and "places L" in out and "settlement of" in out
    assert "Age 2, turn 2: " in out  # 12 turns of 2 players: the 13th turn is next
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    record = json.loads(rec.read_text())
    state = DominationsState.from_record(record)
    assert state.turn_number == 13
    # the same seed gives the same game
    code, out2, _ = run(capsys, "show", "dominations", "--seed", "5", "--turns", "12")
    assert code == 0 and out2.split("Board drawn")[0] == out.split("Board drawn")[0]
    code, out3, err = run(capsys, "replay", str(rec))
    assert code == 0, err
    assert "Replay of" in out3 and "places L" in out3


def test_show_with_a_corrected_data_folder(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "mydata"
    folder.mkdir()
    tiles = json.loads((builtin_folder() / "tiles.json").read_text())
    for t in tiles:
        if t["id"] == "L01":
            t["corners"] = ["R", "R", "R"]
            t["source"] = "rulebook"
            t["cite"] = ["my own copy"]
            t["known"] = ["corners"]
    (folder / "tiles.json").write_text(json.dumps(tiles))
    code, out, err = run(capsys, "data", "check", str(folder))
    assert code == 0, err
    assert "1 file there" in out
    rec = tmp_path / "g.json"
    code, _out, err = run(capsys, "show", "dominations", "--seed", "3", "--turns", "30",
                         "--data", str(folder), "--record", str(rec))
    assert code == 0, err
    record = json.loads(rec.read_text())
    assert record["config"]["data"] == str(folder)
    state = DominationsState.from_record(record)
    assert state.data.tile_by_id["L01"].corners == (5, 5, 5)
    # the record names its data: replaying it without that folder fails clearly
    shutil.rmtree(folder)
    code, _, err = run(capsys, "replay", str(rec))
    assert code == 2 and "error:" in err and "mydata" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "chess"], "unknown game"),
        (["show", "dominations", "--players", "5"], "2 to 4 players"),
        (["show", "dominations", "--rule", "connection=sideways"], "not one of"),
        (["show", "dominations", "--rule", "speed=fast"], "unknown rule option"),
        (["show", "dominations", "--rule", "connection"], "name=value"),
        (["show", "dominations", "--svg", "/nonexistent/dir/b.svg"], "does not exist"),
        (["show", "dominations", "--data", "/nonexistent"], "does not exist"),
    ],
)
def test_show_rejects_bad_input(argv: list[str], message: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_show_all_sides_and_four_players(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "dominations", "--players", "4", "--seed", "9",
                         "--turns", "200", "--rule", "connection=all-sides", "--no-log")
    assert code == 0, err
    assert "Game over" in out and "places" not in out


def test_show_draws_trees_and_names_the_monuments(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "trees"
    code, out, err = run(capsys, "show", "dominations", "--seed", "3", "--turns", "20",
                         "--no-log", "--monuments", "M01,M07", "--trees", str(folder))
    assert code == 0, err
    assert "Pharos of Alexandria" in out and "P1's tree" in out and "@" in out
    for name in ("P1", "P2"):
        root = ET.parse(folder / f"tree-{name}.svg").getroot()
        assert root.tag.endswith("svg")
    code, _, err = run(capsys, "show", "dominations", "--monuments", "M99", "--no-log",
                       "--trees", str(tmp_path / "new" / "trees"))
    assert code == 2 and "unknown monument 'M99'" in err
    assert not (tmp_path / "new").exists()  # a refused run makes no folder
    (tmp_path / "afile").write_text("x")
    code, _, err = run(capsys, "show", "dominations", "--trees", str(tmp_path / "afile"))
    assert code == 2 and "is not a folder" in err
    code, _, err = run(capsys, "show", "dominations", "--trees", str(tmp_path / "afile" / "t"))
    assert code == 2 and err.startswith("dominari: error: --trees: cannot create folder")
