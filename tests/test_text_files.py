"""Text files a user gives (strategy files, data files, game records): one saved with a
byte-order mark, as Windows Notepad saves UTF-8, reads as the same text without it; a
pipe or device given for one is refused at once, where reading it would wait forever."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from dominari.bots import load_bot
from dominari.core.errors import RecordError, StrategyError
from dominari.dominations.data import DataError, builtin_folder, load_data
from dominari.sim import simulate
from dominari.sim.records import load_record

BOM = b"\xef\xbb\xbf"
MINE = 'name = "Mine"\n[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n'
needs_pipes = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "mkfifo"),
                                 reason="named pipes")  # fmt: skip


def test_a_strategy_file_with_a_byte_order_mark_plays_as_without(tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(MINE, encoding="utf-8")
    marked.write_bytes(BOM + MINE.encode())
    assert load_bot(str(marked)).name == "Mine"
    games = [simulate([str(f), "bm"], 6, seed=4, workers=1, kingdom="first-game").to_json()
             for f in (plain, marked)]
    assert [p["wins"] for p in games[0]["players"]] == [p["wins"] for p in games[1]["players"]]


def test_a_data_file_with_a_byte_order_mark_loads_as_without(tmp_path: Path) -> None:
    (tmp_path / "roles.json").write_bytes(BOM + (builtin_folder() / "roles.json").read_bytes())
    assert load_data(tmp_path).roles == load_data(None).roles


def test_a_record_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    record = {"format": "dominari-record", "version": 1, "game": "dominion"}
    path = tmp_path / "game.json"
    path.write_bytes(BOM + json.dumps(record).encode())
    assert load_record(path) == record


@needs_pipes
def test_a_pipe_given_for_a_text_file_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    with pytest.raises(StrategyError, match="not a strategy file but a pipe, socket or "
                                            "device"):
        load_bot(str(pipe))
    with pytest.raises(RecordError, match="is a pipe, socket or device, not a record file"):
        load_record(pipe)
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(builtin_folder() / "tiles.json", data / "tiles.json")
    os.mkfifo(data / "roles.json")
    with pytest.raises(DataError, match="is a pipe, socket or device, not a file"):
        load_data(data)


@pytest.mark.parametrize("games", [0, 2])
def test_a_tournament_journal_given_for_a_record_is_named_so(tmp_path: Path,
                                                             games: int) -> None:
    """``dominari replay`` reads game records; a journal (a header line, then a line a
    game) is said to be one, not 'not valid JSON (line 2, column 1: Extra data)'."""
    path = tmp_path / "t.jsonl"
    lines = [{"dominari_journal": 2, "key": {"game": "dominion"}}]
    lines += [{"m": 0, "g": g} for g in range(games)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert str(caught.value) == (f"{str(path)!r} is a tournament journal (a JSON line a "
                                 "game), not a game record: a tournament writes its games' "
                                 "records with --record-dir")
