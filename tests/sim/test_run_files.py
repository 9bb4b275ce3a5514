"""A run plays with what its files hold when it begins: strategy files and data folders
edited between runs of one process (a notebook, a Ray cluster's long-lived workers) are
read again, a file changed under a running run is refused, and a tournament's records go
on from another folder as its journal does."""

from __future__ import annotations

import importlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dominari.core.errors import ConfigError
from dominari.sim import simulate
from dominari.sim.runner import (
    CHANGED,
    Chunk,
    DominionOptions,
    begin_run,
    game_options,
    run_chunk,
    run_stamp,
    use_stamp,
)
from dominari.sim.tournament import RECORDS_INDEX, tournament

STRATEGIES = Path(importlib.import_module("dominari.bots").__file__ or "").parent / "strategies"
DATA = Path(importlib.import_module("dominari.dominations").__file__ or "").parent / "datafiles"


def _play(folder: str) -> list[float]:
    """Mean VP by seat of one Dominations game of ``greedy`` on the data ``folder``."""
    r = simulate(["greedy", "greedy"], 1, seed=4, workers=1, game="dominations", data=folder)
    return [p.mean_vp for p in r.players]


def _edit(folder: Path) -> None:
    """Deal the tiles otherwise: their order in the file reversed, each id kept in place."""
    f = folder / "tiles.json"
    tiles = json.loads(f.read_text(encoding="utf-8"))
    ids = [t["id"] for t in tiles]
    tiles.reverse()
    for t, i in zip(tiles, ids, strict=True):
        t["id"] = i
    f.write_text(json.dumps(tiles), encoding="utf-8")


def test_a_data_folder_edited_between_runs_is_read_again(tmp_path: Path) -> None:
    """A run of one process plays the data folder as it is when the run begins,
    not as an earlier run of the process loaded it (one worker plays in this process)."""
    folder, fresh = tmp_path / "data", tmp_path / "fresh"
    shutil.copytree(DATA, folder)
    before = _play(str(folder))
    _edit(folder)
    shutil.copytree(folder, fresh)
    assert _play(str(fresh)) != before  # the edit changes the game
    assert _play(str(folder)) == _play(str(fresh))


def test_a_relative_data_folder_is_the_one_it_names_now(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same relative path from another folder names another data folder: each run
    plays the one it names when it begins."""
    for where in ("a", "b"):
        shutil.copytree(DATA, tmp_path / where / "data")
    _edit(tmp_path / "b" / "data")
    monkeypatch.chdir(tmp_path / "a")
    first = _play("data")
    monkeypatch.chdir(tmp_path / "b")
    assert _play("data") == _play(str(tmp_path / "b" / "data")) != first


def _chunk(specs: tuple[str, ...], stamp: str) -> Chunk:
    return Chunk(specs, ("Mine", "Smithy"), DominionOptions("first-game"), 2, 0, 12,
                 stamp=stamp)  # fmt: skip


def test_a_worker_serving_many_runs_plays_each_with_its_files(tmp_path: Path) -> None:
    """A worker process that outlives a run (a Ray cluster's) plays the next run's games
    with the strategy file as that run found it, not with the bots it loaded before; a
    file changed under a run is refused, not played in part."""
    mine, other = tmp_path / "mine.toml", tmp_path / "other.toml"
    options = DominionOptions("first-game")
    shutil.copy(STRATEGIES / "bmu.toml", mine)
    specs = (str(mine), "smithy")
    first = run_chunk(_chunk(specs, run_stamp(specs, options)))
    shutil.copy(STRATEGIES / "bm.toml", mine)  # between runs: the file now plays BM
    now = run_stamp(specs, options)
    again = run_chunk(_chunk(specs, now))
    shutil.copy(STRATEGIES / "bm.toml", other)
    as_bm = run_chunk(_chunk((str(other), "smithy"), run_stamp((str(other), "smithy"),
                                                               options)))
    assert again == as_bm != first
    shutil.copy(STRATEGIES / "smithy.toml", mine)  # under the run stamped ``now``
    with pytest.raises(ConfigError) as e:
        run_chunk(_chunk(specs, now))
    assert str(e.value) == CHANGED


def test_a_run_stamp_covers_the_files_a_run_reads(tmp_path: Path) -> None:
    """Runs of built-in bots on the built-in data read no file; a strategy file's
    contents and a data folder's place change the stamp."""
    dominion = DominionOptions("first-game")
    assert run_stamp(("bm", "mcts-easy"), dominion) == ""
    assert run_stamp(("greedy", "random"), game_options("dominations")) == ""
    mine = tmp_path / "mine.toml"
    shutil.copy(STRATEGIES / "bm.toml", mine)
    stamp = run_stamp((str(mine), "bm"), dominion)
    assert stamp and run_stamp((str(mine), "bm"), dominion) == stamp
    mine.write_text(mine.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    assert run_stamp((str(mine), "bm"), dominion) != stamp
    for where in ("a", "b"):
        shutil.copytree(DATA, tmp_path / where)
    stamps = {run_stamp(("greedy", "greedy"), game_options("dominations", data=tmp_path / w))
              for w in ("a", "b")}  # fmt: skip
    assert len(stamps) == 2  # the same files in two places: each its own folder
    options = game_options("dominations", data=tmp_path / "a")
    stamp = run_stamp(("greedy", "greedy"), options)
    (tmp_path / "a" / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "a" / "recs").mkdir()  # records written into the folder: not components
    (tmp_path / "a" / "recs" / "game-000001.json").write_text("{}", encoding="utf-8")
    assert run_stamp(("greedy", "greedy"), options) == stamp


def test_a_forked_worker_checks_the_files_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker forked from the process that began the run holds its stamp, but not the
    files' contents: it checks them (once), as a spawned worker does."""
    mine = tmp_path / "mine.toml"
    shutil.copy(STRATEGIES / "bmu.toml", mine)
    specs, options = (str(mine), "smithy"), DominionOptions("first-game")
    stamp = begin_run(specs, options)
    use_stamp(stamp, specs, options)  # the process that began it: nothing to check
    shutil.copy(STRATEGIES / "bm.toml", mine)
    use_stamp(stamp, specs, options)
    with monkeypatch.context() as m:
        m.setattr(os, "getpid", lambda: -7)  # a forked worker, after the edit
        with pytest.raises(ConfigError, match="edited since"):
            use_stamp(stamp, specs, options)


def test_a_chunk_made_by_hand_plays_with_what_is_loaded(tmp_path: Path) -> None:
    """A chunk without a stamp (played apart from a run) is not checked against the run
    that came before in the process."""
    mine = tmp_path / "mine.toml"
    shutil.copy(STRATEGIES / "bmu.toml", mine)
    simulate([str(mine), "smithy"], 2, seed=1, workers=1, kingdom="first-game")
    shutil.copy(STRATEGIES / "bm.toml", mine)
    tally = run_chunk(Chunk((str(mine), "smithy"), ("Mine", "Smithy"),
                            DominionOptions("first-game"), 2, 0, 2))  # fmt: skip
    assert tally.games == 2


def test_a_tournaments_records_go_on_from_another_folder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The same tournament run again from another folder (its strategy file, journal and
    records folder named from there) goes on into the records folder, as the journal
    does: the index keeps the files it names, not the paths as typed."""
    shutil.copy(STRATEGIES / "bmu.toml", tmp_path / "mine.toml")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    tournament(["mine.toml", "smithy"], 2, 3, workers=1, kingdom="first-game",
               journal="j.jsonl", record_dir="recs")  # fmt: skip
    index = json.loads((tmp_path / "recs" / RECORDS_INDEX).read_text(encoding="utf-8"))
    assert index["tournament"]["players"] == [str(tmp_path / "mine.toml"), "smithy"]
    monkeypatch.chdir(tmp_path / "sub")
    r = tournament(["../mine.toml", "smithy"], 3, 3, workers=1, kingdom="first-game",
                   journal="../j.jsonl", record_dir="../recs")  # fmt: skip
    assert r.reused == 2 and r.games == 3
    assert len(list((tmp_path / "recs").glob("matchup-*.json"))) == 3


def test_runs_at_once_in_threads_play_as_they_do_one_by_one() -> None:
    """Two runs of the same bots at once, from two threads of one process (each playing
    its games in its own thread), play the games each plays alone: a search bot keeps
    state while it plays, so each thread has its own."""
    from concurrent.futures import ThreadPoolExecutor

    def run(seed: int) -> dict[str, object]:
        result = simulate(["mcts-easy", "smithy"], 3, seed, 1, kingdom="first-game")
        return result.to_json()

    alone = [run(seed) for seed in (1, 2)]
    with ThreadPoolExecutor(2) as threads:
        assert list(threads.map(run, (1, 2))) == alone


def test_a_run_in_another_thread_does_not_reload_a_runs_data(tmp_path: Path) -> None:
    """A run plays its data folder as it was when the run began, even when a run of
    another folder begins meanwhile in another thread of the process (which loads its
    own data, not this run's again)."""
    import threading

    mine, other = tmp_path / "mine", tmp_path / "other"
    shutil.copytree(DATA, mine)
    shutil.copytree(DATA, other)

    def run(progress: Callable[[int], None] | None = None) -> list[float]:
        r = simulate(["greedy", "random"], 4, seed=4, workers=1, game="dominations",
                     data=str(mine), progress=progress)  # fmt: skip
        return [p.mean_vp for p in r.players]

    before = run()
    edited: list[int] = []

    def edit_then_run_another(done: int) -> None:
        if not edited:
            edited.append(done)
            _edit(mine)  # the edit changes the game (the test above), not this run
            thread = threading.Thread(target=_play, args=(str(other),))
            thread.start()
            thread.join()

    assert run(edit_then_run_another) == before and edited


def test_a_run_keeps_its_folders_when_the_working_folder_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative records folders are where they were when the run began, whatever the
    working folder becomes meanwhile (another thread's ``os.chdir``, a notebook's ``%cd``),
    and a message names the folder as given."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")

    def move(done: int) -> None:
        os.chdir(tmp_path / "b")

    simulate(["bm", "smithy"], 6, seed=1, record_dir="recs", progress=move)
    assert len(list((tmp_path / "a" / "recs").glob("game-*.json"))) == 6
    os.chdir(tmp_path / "a")
    tournament(["bm", "smithy"], 4, seed=1, record_dir="trecs", progress=move)
    assert not list((tmp_path / "b").iterdir())
    assert len(list((tmp_path / "a" / "trecs").glob("*.json"))) > 4  # the games, an index
    os.chdir(tmp_path / "a")
    with pytest.raises(ConfigError, match=r"^folder 'recs' already holds 6 game records"):
        simulate(["bm", "smithy"], 6, seed=1, record_dir="recs")


def test_a_run_is_played_by_one_version_of_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of a process whose code changed on disk since it loaded it (an upgrade or a
    git pull under a notebook) is refused, not played by the old code here and the new in
    its workers; and a worker whose code is not the code that began the run (another
    version installed on a Ray node) refuses its games."""
    from dominari.sim import runner

    options = DominionOptions("first-game")
    stamp = begin_run(("bm", "smithy"), options)
    with monkeypatch.context() as m:
        m.setattr(runner, "LOADED_CODE", "0" * 64)  # loaded before the files changed
        m.setattr(runner, "_LOADED_FILES", [])  # (their sizes and times then)
        with pytest.raises(ConfigError) as e:
            simulate(["bm", "smithy"], 2, seed=1, kingdom="first-game")
        assert str(e.value) == runner.CODE_CHANGED
        assert "start the process again" in runner.CODE_CHANGED
    other = "f" * 64 + stamp[stamp.index(":"):]  # the files as they are, other code
    with pytest.raises(ConfigError) as e:
        run_chunk(_chunk(("bm", "smithy"), other))
    assert str(e.value) == runner.CODE_DIFFERS
    assert sum(run_chunk(_chunk(("bm", "smithy"), stamp)).wins) > 0  # this code: played
