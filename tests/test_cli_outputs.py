"""Files the commands write where the user says: a record, a board, a chart. Nothing a
run reads or a user keeps is replaced by a slip of the keyboard, and a record that cannot
be written at the end of a game is kept elsewhere, or said lost, never lost silently."""

from __future__ import annotations

import errno
import importlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

import dominari.cli as cli
from dominari.bots.learned import FEATURES, FORMAT
from dominari.bots.mcts import MCTSBot
from dominari.cli import main
from dominari.dominations.data import builtin_folder
from dominari.dominion.engine import DominionState

MINE = 'name = "Mine"\n[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n'
BOTS = ["play", "dominion", "--players", "bm,smithy", "--seed", "3", "--kingdom",
        "first-game"]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_record_never_replaces_a_strategy_file_the_game_is_played_with(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(MINE, encoding="utf-8")
    code, out, err = run(capsys, "play", "dominion", "--players", f"{mine},bm", "--seed", "1",
                         "--record", str(mine))
    assert code == 2 and out == ""
    assert err == (f"dominari: error: --record: {str(mine)!r} is a file a player plays "
                   "with, which this run reads: write to another file\n")
    assert mine.read_text(encoding="utf-8") == MINE


def test_a_record_never_replaces_the_buy_policy_a_strategy_file_names(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A buy policy begins ``{"format": "dominari-buy-policy-1"``, like a record's format:
    it is a file the player reads, whatever it looks like."""
    policy = tmp_path / "pol.json"
    policy.write_text(json.dumps({"format": FORMAT, "features": list(FEATURES), "bonus": 0.0,
                                  "weights": {"Silver": [1.0] * len(FEATURES)}}),
                      encoding="utf-8")  # fmt: skip
    kept = policy.read_bytes()
    strategy = tmp_path / "strat.toml"
    strategy.write_text('policy = "pol.json"\n' + MINE, encoding="utf-8")
    code, _, err = run(capsys, "play", "dominion", "--players", f"{strategy},bm", "--seed",
                       "1", "--record", str(policy))
    assert code == 2 and "is a file a player plays with, which this run reads" in err
    assert policy.read_bytes() == kept and kept.startswith(b'{"format": "dominari-')


def test_a_record_replaces_an_earlier_record_or_an_empty_file_but_nothing_else(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    journal = tmp_path / "t.jsonl"
    journal.write_text('{"format": 2, "key": {}}\n', encoding="utf-8")
    for kept in (notes, journal):
        code, _, err = run(capsys, *BOTS, "--record", str(kept))
        assert code == 2
        assert err == (f"dominari: error: --record: {str(kept)!r} is already there and is "
                       "not a game record: give another file name, or remove it\n")
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert journal.read_text(encoding="utf-8") == '{"format": 2, "key": {}}\n'
    game, empty = tmp_path / "game.json", tmp_path / "empty.json"
    empty.touch()
    for path in (game, game, empty):  # the second time over the first game's record
        code, out, err = run(capsys, *BOTS, "--record", str(path))
        assert code == 0 and err == "" and f"Record written to {path}" in out
        assert DominionState.from_record(json.loads(path.read_text(encoding="utf-8")))


def test_a_read_only_file_is_not_replaced(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``echo > file`` would not. (The suite runs as root, whom a file's mode does not
    stop, so the check's answer for the file is made ``no``.)"""
    game = tmp_path / "game.json"
    assert run(capsys, *BOTS, "--record", str(game))[0] == 0
    before = game.read_bytes()
    access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == game and
                        mode == os.W_OK else access(p, mode, **kw))  # fmt: skip
    code, _, err = run(capsys, *BOTS[:5], "4", "--record", str(game))
    assert code == 2
    assert err == (f"dominari: error: --record: cannot write {str(game)!r}: the file is "
                   "read-only (make it writable, or give another file)\n")
    assert game.read_bytes() == before


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_a_record_through_a_symbolic_link_keeps_the_link(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    game, link = tmp_path / "game.json", tmp_path / "link.json"
    game.touch()
    link.symlink_to(game.name)
    code, out, _ = run(capsys, *BOTS, "--record", str(link))
    assert code == 0 and f"Record written to {link}" in out
    assert link.is_symlink() and json.loads(game.read_text(encoding="utf-8"))["actions"]


def test_dominations_outputs_never_replace_a_data_file_or_each_other(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(builtin_folder() / "roles.json", data / "roles.json")
    roles = (data / "roles.json").read_bytes()
    game = ["play", "dominations", "--players", "greedy,random", "--seed", "1",
            "--data", str(data)]  # fmt: skip
    for flag in ("--record", "--svg"):
        code, _, err = run(capsys, *game, flag, str(data / "roles.json"))
        assert code == 2
        assert err == (f"dominari: error: {flag}: {str(data / 'roles.json')!r} is a file of "
                       f"the --data folder {str(data)!r}, which this run reads: write to "
                       "another file\n")
    code, _, err = run(capsys, "show", "dominations", "--data", str(data), "--record",
                       str(data / "roles.json"))
    assert code == 2 and "is a file of the --data folder" in err
    both = str(tmp_path / "both.json")
    code, _, err = run(capsys, *game, "--svg", both, "--record", both)
    assert code == 2
    assert err == (f"dominari: error: --svg and --record both name {both!r}: the board would "
                   "replace the record\n")
    assert (data / "roles.json").read_bytes() == roles and not Path(both).exists()


def test_a_read_only_chart_is_not_replaced(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    chart = tmp_path / "chart.png"
    chart.write_bytes(b"mine")
    access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == chart and
                        mode == os.W_OK else access(p, mode, **kw))  # fmt: skip
    code, _, err = run(capsys, "tournament", "dominion", "--players", "bm,smithy", "-n", "1",
                       "--seed", "1", "--plot", str(chart))
    assert code == 2
    assert err == (f"dominari: error: --plot: cannot write {str(chart)!r}: the file is "
                   "read-only (make it writable, or give another file)\n")
    assert chart.read_bytes() == b"mine"


def _fail_writing(monkeypatch: pytest.MonkeyPatch, *failing: Path) -> None:
    """``play``'s record writes fail for the paths ``failing``, as for a folder removed
    while the game went on."""
    write = cli.write_record_atomic

    def write_or_fail(path: Any, data: Any) -> None:
        if Path(path) in failing:
            raise FileNotFoundError(2, "No such file or directory")
        write(path, data)

    monkeypatch.setattr(cli, "write_record_atomic", write_or_fail)


def test_a_record_that_cannot_be_written_at_the_end_goes_to_the_temporary_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, elsewhere = tmp_path / "gone" / "game.json", tmp_path / "tmp"
    game.parent.mkdir()
    elsewhere.mkdir()
    monkeypatch.setattr(cli.tempfile, "tempdir", str(elsewhere))
    _fail_writing(monkeypatch, game)
    code, out, err = run(capsys, *BOTS, "--record", str(game))
    (kept,) = elsewhere.glob("dominari-dominion-3-*.json")
    assert code == 0 and "Record written" not in out
    assert err == (f"dominari: --record: cannot write {str(game)!r} (No such file or "
                   f"directory); the game is in {kept} instead\n")
    assert DominionState.from_record(json.loads(kept.read_text(encoding="utf-8"))).outcome()


def test_a_record_written_nowhere_says_the_game_was_not_saved(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, elsewhere = tmp_path / "game.json", tmp_path / "tmp"  # (no such folder)
    monkeypatch.setattr(cli.tempfile, "tempdir", str(elsewhere))
    _fail_writing(monkeypatch, game)
    code, _, err = run(capsys, *BOTS, "--record", str(game))
    assert code == 2
    assert err == (f"dominari: error: --record: cannot write {str(game)!r} (No such file or "
                   f"directory), nor a file in {elsewhere} (No such file or directory): the "
                   "game was not saved\n")


def test_ctrl_c_with_a_record_that_cannot_be_written_says_where_the_game_went(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {"n": 0}
    act = MCTSBot.act

    def interrupted(self: MCTSBot, state: Any) -> Any:
        seen["n"] += 1
        if seen["n"] > 6:
            raise KeyboardInterrupt
        return act(self, state)

    monkeypatch.setattr(MCTSBot, "act", interrupted)
    game, elsewhere = tmp_path / "game.json", tmp_path / "tmp"
    monkeypatch.setattr(cli.tempfile, "tempdir", str(elsewhere))
    argv = ["play", "dominion", "--players", "mcts-easy:iterations=8,bm", "--seed", "3",
            "--record", str(game)]  # fmt: skip
    _fail_writing(monkeypatch, game)
    elsewhere.mkdir()
    code, _, err = run(capsys, *argv)
    (kept,) = elsewhere.glob("dominari-dominion-3-*.json")
    assert code == 130 and err.rstrip().endswith("interrupted")
    assert f"cannot write {str(game)!r} (No such file or directory); the game is in {kept} " \
        "instead" in err
    assert json.loads(kept.read_text(encoding="utf-8"))["outcome"] is None
    seen["n"] = 0
    elsewhere.rename(tmp_path / "gone")  # the temporary folder gone too
    code, _, err = run(capsys, *argv)
    assert code == 130 and err.rstrip().endswith("interrupted")
    assert "the game was not saved" in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_a_dangling_link_is_written_through(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    code, _, _ = run(capsys, *BOTS, "--record", str(link))
    assert code == 0 and link.is_symlink() and (tmp_path / "made.json").is_file()


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "mkfifo"), reason="pipes")
def test_a_pipe_given_for_an_output_is_refused_at_once(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """Looking at what it holds would wait forever."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    code, _, err = run(capsys, *BOTS, "--record", str(pipe))
    assert code == 2
    assert err == (f"dominari: error: --record: {str(pipe)!r} is a pipe, socket or device, "
                   "not a file: give a file's name\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_a_loop_of_links_given_for_a_record_is_replaced_as_a_link_would_be(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A loop has no file at its end: the link named is replaced, as before links were
    written through, never a traceback."""
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.symlink_to(two.name)
    two.symlink_to(one.name)
    code, _, err = run(capsys, *BOTS, "--record", str(one))
    assert code == 0 and err == ""
    assert one.is_file() and not one.is_symlink() and two.is_symlink()


def test_a_board_drawing_replaces_only_a_drawing(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    notes, board = tmp_path / "notes.svg", tmp_path / "board.svg"
    notes.write_text("my notes\n", encoding="utf-8")
    game = ["play", "dominations", "--players", "greedy,random", "--seed", "1"]
    code, _, err = run(capsys, *game, "--svg", str(notes))
    assert code == 2
    assert err == (f"dominari: error: --svg: {str(notes)!r} is already there and is not an SVG "
                   "drawing: give another file name, or remove it\n")
    board.write_text('<?xml version="1.0"?>\n<!-- mine -->\n<svg xmlns="x"></svg>\n',
                     encoding="utf-8")
    assert run(capsys, *game, "--svg", str(board))[0] == 0
    assert board.read_text(encoding="utf-8").startswith("<svg")
    both = str(tmp_path / "both.json")
    code, _, err = run(capsys, "show", "dominations", "--svg", both, "--record", both)
    assert code == 2 and "--svg and --record both name" in err


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.rule("N-END-2", "N-SET-3")
def test_per_game_writes_each_games_result_as_its_record_has_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """N-END-2, N-SET-3: ``--per-game`` writes each game's own result, a JSON line a game
    in game order (for an analyst's own statistics, without reading thousands of records):
    its scores, ranks (1: won; shared where several are 1), turns, how it ended, its
    seed and turn order, its kingdom (drawn per game) and the rule bot ``best`` played.
    The same whatever the workers, and adding up to the summary."""
    from dominari.bots import builtin_strategy
    from dominari.bots.kingdom import best_rule_bot
    from dominari.sim import game_seed, record_name

    args = ["simulate", "dominion", "--players", "best,bmu", "-n", "24", "--seed", "6",
            "--no-progress"]  # fmt: skip
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    code, _, err = run(capsys, *args, "--workers", "1", "--per-game", str(one),
                       "--record-dir", str(tmp_path / "records"))  # fmt: skip
    assert code == 0, err
    code, out, err = run(capsys, *args, "--workers", "2", "--per-game", str(two), "--json")
    assert code == 0, err
    assert one.read_bytes() == two.read_bytes()
    rows = _lines(one)
    assert [r["index"] for r in rows] == list(range(24))
    for r in rows:
        record = json.loads((tmp_path / "records" / record_name(r["index"])).read_text(
            encoding="utf-8"))  # fmt: skip
        assert r["seed"] == game_seed(6, r["index"]) == record["config"]["seed"]
        assert r["scores"] == record["outcome"]["scores"]
        assert r["ranks"] == record["outcome"]["ranks"]
        assert sorted(r["kingdom"]) == sorted(record["kingdom"])
        assert r["played_as"] == [builtin_strategy(best_rule_bot(r["kingdom"], 2)).name, None]
        assert sorted(r["turn_order"]) == [0, 1] and r["ended"] in ("provinces", "three-piles")
    summary = json.loads(out)
    for p, player in enumerate(summary["players"]):
        assert player["wins"] == sum(r["ranks"][p] == 1 and r["ranks"].count(1) == 1
                                     for r in rows)  # fmt: skip
        assert player["ties"] == sum(r["ranks"][p] == 1 and r["ranks"].count(1) > 1
                                     for r in rows)  # fmt: skip
    code, _, err = run(capsys, "simulate", "dominations", "--players", "greedy,random", "-n",
                       "2", "--seed", "1", "--workers", "1", "--no-progress", "--per-game",
                       str(one))  # a file of games is replaced by the next run's
    assert code == 0, err
    rows = _lines(one)
    assert len(rows) == 2 and "kingdom" not in rows[0]
    assert [sum(v.values()) for v in rows[0]["vp_breakdown"]] == rows[0]["scores"]


def test_per_game_never_replaces_another_file_and_leaves_nothing_when_it_fails(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is not a file of games is not replaced (a slip of the keyboard); a run
    that fails while writing (a full disk) or is stopped leaves the file as it was and no
    temporary file, with one message."""
    import errno

    from dominari.sim.records import LinesFile

    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    args = ["simulate", "dominion", "--players", "bm,bmu", "-n", "20", "--seed", "1",
            "--workers", "1", "--no-progress", "--kingdom", "first-game"]  # fmt: skip
    code, out, err = run(capsys, *args, "--per-game", str(notes))
    assert code == 2 and out == ""
    assert f"--per-game: {str(notes)!r} is already there and is not a file of games, one a " \
        "line: give another file name, or remove it" in err
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    records = tmp_path / "records"  # a record's place, whose temporary files the run removes
    code, out, err = run(capsys, *args, "--record-dir", str(records), "--per-game",
                         str(records / "game-000001.json"))  # fmt: skip
    assert (code, out) == (2, "") and "is in the --record-dir folder" in err
    assert not records.exists()
    games = tmp_path / "games.jsonl"
    code, _, err = run(capsys, *args, "--per-game", str(games))
    assert code == 0, err
    kept = games.read_bytes()
    real = LinesFile.write
    written = []

    class Full:  # the file's own writes fail: a full disk
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def close(self) -> None:
            pass

    def full(self: LinesFile, value: Any) -> None:
        if len(written) == 5:
            self.file = Full()  # type: ignore[assignment]
        written.append(value)
        real(self, value)

    monkeypatch.setattr(LinesFile, "write", full)
    code, out, err = run(capsys, *args, "--seed", "2", "--per-game", str(games))
    assert code == 1 and out == ""  # the machine's failure, not the request's mistake
    assert err.strip().endswith(f"--per-game {str(games)!r} cannot be written (No space "
                                "left on device); it was left as it was")
    assert games.read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "notes.txt"]
    monkeypatch.setattr(LinesFile, "write", real)

    def stop(self: LinesFile, value: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LinesFile, "write", stop)
    code, out, err = run(capsys, *args, "--seed", "3", "--per-game", str(games))
    assert code == 130 and games.read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "notes.txt"]


@pytest.mark.parametrize(("error", "status"), [(errno.ENOSPC, 1), (errno.EDQUOT, 1),
                                               (errno.EIO, 1), (errno.EACCES, 2),
                                               (errno.ENOENT, 2), (errno.EROFS, 2)])
def test_a_full_disk_ends_with_1_a_refused_path_with_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        error: int, status: int) -> None:
    """Status 2 says the request was wrong (fix the command); a run the machine stopped (a
    full disk or quota, a failing device) ended with 2 too, as a mistake. It now ends with
    1, as a full standard output does: the same command may work elsewhere or later. A
    path that is missing, refused or read-only stays the request's (2)."""
    runner = importlib.import_module("dominari.sim.runner")

    def failing(path: Path, data: Any) -> None:
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(runner, "write_record_atomic", failing)
    code, out, err = run(capsys, "simulate", "dominion", "--players", "bm,bmu", "-n", "4",
                         "--seed", "1", "--workers", "1", "--no-progress",
                         "--kingdom", "first-game", "--record-dir", str(tmp_path / "r"))
    assert (code, out) == (status, "")
    assert err == (f"dominari: error: cannot write game record "
                   f"{str(tmp_path / 'r' / 'game-000001.json')!r} ({os.strerror(error)})\n")


def test_the_status_of_an_error_follows_its_cause() -> None:
    """An error that says what failed (a ``ConfigError`` naming the file) carries the OS
    error as its cause or its context: that decides the status."""
    from dominari.cli import EXIT_FAILED, EXIT_USAGE, _status_of
    from dominari.core.errors import ConfigError

    def said(error: int, cause: bool) -> ConfigError:
        try:
            raise OSError(error, os.strerror(error))
        except OSError as exc:
            try:
                if cause:
                    raise ConfigError("cannot write x") from exc
                raise ConfigError("cannot write x") from None
            except ConfigError as told:
                return told

    for cause in (True, False):
        assert _status_of(said(errno.ENOSPC, cause)) == EXIT_FAILED
        assert _status_of(said(errno.EACCES, cause)) == EXIT_USAGE
    assert _status_of(ConfigError("unknown card 'Wtich'")) == EXIT_USAGE
    assert _status_of(OSError(errno.EIO, "I/O error")) == EXIT_FAILED


def test_a_machine_failure_in_a_worker_keeps_its_status(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """The review: a record that a worker process could not write came back without its
    cause (an error's cause and context do not cross processes), so a full disk ended
    with 2 once the run had two workers, as by default. The error now carries the mark
    itself (``machine``), which does; as do a worker's running out of memory, here or in
    a worker whose retries are spent."""
    import pickle

    from dominari.cli import EXIT_FAILED, EXIT_USAGE, _status_of
    from dominari.core.errors import ConfigError
    from dominari.dominion.engine import DominionConfig
    from dominari.sim import pool, runner

    state = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
    for error, status in ((errno.ENOSPC, EXIT_FAILED), (errno.EACCES, EXIT_USAGE)):
        def failing(path: Path, data: Any, error: int = error) -> None:
            raise OSError(error, os.strerror(error))

        monkeypatch.setattr(runner, "write_record_atomic", failing)
        with pytest.raises(ConfigError) as told:
            runner.write_record(tmp_path / "g.json", state, [])
        back = pickle.loads(pickle.dumps(told.value))  # as from a worker
        assert back.__context__ is None and _status_of(back) == status

    def short(task: int) -> int:
        raise MemoryError

    with pytest.raises(pool.PoolError) as ran_out:
        pool.each_result(short, [1], lambda k, v: None)
    assert _status_of(pickle.loads(pickle.dumps(ran_out.value))) == EXIT_FAILED
    results = pool._Results([1], lambda k, v: None, 0)
    with pytest.raises(pool.PoolError) as spent:
        results.charge(0, pool.OUT_OF_MEMORY)
    assert _status_of(spent.value) == EXIT_FAILED
    # a worker killed, or crashed, for a reason unknown: not the request's mistake (the
    # last notes left it at 2)
    with pytest.raises(pool.WorkersLost) as lost:
        pool._Results([1], lambda k, v: None, 0).charge(0, "its worker was killed")
    assert _status_of(lost.value) == EXIT_FAILED
    assert _status_of(pool.PoolError("no Ray cluster answers at RAY_ADDRESS=x")) == EXIT_USAGE


@pytest.mark.parametrize(("stop", "code"), [(KeyboardInterrupt, 130), ("terminated", 143)])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_stopped_simulation_prints_the_results_of_the_games_it_finished(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        stop: Any, code: int, as_json: bool) -> None:
    """Ctrl-C (or SIGTERM) on ``simulate`` lost every game played: now it prints the
    results of those finished in order, said to be of so many games asked for (the same
    as ``-n`` that many gives), and says that its records and ``--per-game`` file are not
    kept, as for any run that does not end."""
    import signal

    from dominari.sim import runner

    real = runner.run_chunk
    chunks: list[Any] = []

    def stopping(chunk: Any) -> Any:
        chunks.append(chunk)
        if len(chunks) == 4:
            raise KeyboardInterrupt if stop is KeyboardInterrupt else \
                cli._Terminated(signal.SIGTERM)
        return real(chunk)

    monkeypatch.setattr(runner, "run_chunk", stopping)
    games, records = tmp_path / "games.jsonl", tmp_path / "records"
    args = ["simulate", "dominion", "--players", "bm,smithy", "-n", "400", "--seed", "4",
            "--workers", "1", "--no-progress", "--kingdom", "first-game"]  # fmt: skip
    extra = ["--json"] if as_json else []
    got, out, err = run(capsys, *args, *extra, "--per-game", str(games), "--record-dir",
                        str(records))  # fmt: skip
    finished = chunks[3].start  # the three chunks before the one stopped
    assert got == code and err.rstrip().endswith("interrupted" if code == 130 else "terminated")
    assert (f"dominari: note: stopped after {finished} of 400 games, the batches done in "
            "order (a batch being played, and any after it, are not counted): the results "
            f"are those of the first {finished}, as -n {finished} --seed 4 gives them; as for "
            f"any run that does not end, the records it wrote are removed and {games} is left "
            "as it was") in err
    assert not games.exists() and not records.exists()
    monkeypatch.setattr(runner, "run_chunk", real)
    whole_args = [*args[:5], str(finished), *args[6:], *extra]
    done, whole, _ = run(capsys, *whole_args)
    assert done == 0
    if as_json:
        assert json.loads(out) == {**json.loads(whole), "games_asked": 400, "stopped": True}
    else:
        first, *rest = out.splitlines()
        assert first == f"Stopped after {finished} of 400 games: the results of the first " \
            f"{finished}"
        assert rest[:-1] == whole.splitlines()[:-1]  # all but the speed


def test_a_simulation_stopped_before_its_first_batch_says_it_has_no_results(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped while its first batch of games is played, a run says it has no results to
    give (it said only ``interrupted``)."""
    from dominari.sim import runner

    def stopped(chunk: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_chunk", stopped)
    code, out, err = run(capsys, "simulate", "dominion", "--players", "bm,smithy", "-n", "40",
                         "--seed", "4", "--workers", "1", "--no-progress", "--kingdom",
                         "first-game")  # fmt: skip
    assert (code, out) == (130, "")
    assert err == ("dominari: note: stopped before its first batch of games was done: no "
                   "results to give\n\ndominari: interrupted\n")


_CLOSED_STDOUT = """
import os, signal, sys
from dominari import cli
from dominari.sim import runner
real, seen = runner.run_chunk, []
def stopping(chunk):
    seen.append(chunk)
    if len(seen) == 4:
        raise cli._Terminated(signal.SIGTERM) if sys.argv[1] == "term" else KeyboardInterrupt
    return real(chunk)
runner.run_chunk = stopping
if sys.argv[2] == "full":
    os.dup2(os.open("/dev/full", os.O_WRONLY), 1)  # standard output: a full disk
else:
    r, w = os.pipe()
    os.close(r)
    os.dup2(w, 1)  # standard output: a pipe whose reader is gone (| head, done)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # (as Python runs)
sys.exit(cli.main(["simulate", "dominion", "--players", "bm,smithy", "-n", "400", "--seed",
                   "4", "--workers", "1", "--no-progress", "--kingdom", "first-game"]
                  + sys.argv[3:]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize(("stop", "code", "last"), [("term", 143, "terminated"),
                                                    ("int", 130, "interrupted")])
@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_stopped_simulation_whose_output_is_gone_still_says_so(
        stop: str, code: int, last: str, extra: list[str]) -> None:
    """Stopped with its standard output's reader gone, a run printed the results first,
    failed there, and ended with status 1 and nothing said: it now says what it stopped
    after, and ends as the stop says."""
    import subprocess

    proc = subprocess.run([sys.executable, "-c", _CLOSED_STDOUT, stop, "gone", *extra],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == code, proc.stderr
    assert "dominari: note: stopped after " in proc.stderr
    assert proc.stderr.rstrip().endswith(f"dominari: {last}")
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a device that is always full")
@pytest.mark.parametrize(("stop", "code", "last"), [("term", 143, "terminated"),
                                                    ("int", 130, "interrupted")])
@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_stopped_simulation_whose_output_is_full_ends_as_the_stop_says(
        stop: str, code: int, last: str, extra: list[str]) -> None:
    """Stopped with its standard output on a full disk, a run's results could not be
    written, and the interpreter's last flush failed again: a traceback after the stop's
    last line, and status 120 for 143 or 130. What could not be written is dropped."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered
    proc = subprocess.run([sys.executable, "-c", _CLOSED_STDOUT, stop, "full", *extra],
                          capture_output=True, text=True, timeout=300, env=env)  # fmt: skip
    assert proc.returncode == code, proc.stderr
    assert "dominari: note: stopped after " in proc.stderr
    assert proc.stderr.rstrip().endswith(f"dominari: {last}")
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shells' closed descriptors")
def test_a_closed_standard_output_is_no_failure() -> None:
    """With standard output closed (``>&-``, a daemon's), a command runs as before, its
    output going nowhere (Python's ``sys.stdout`` is None)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    for args in (["--version"], ["bots"], ["simulate", "dominion", "--players", "bm,smithy",
                                           "-n", "4", "--seed", "1", "--no-progress"]):
        proc = subprocess.run([sys.executable, "-m", "dominari", *args], stdout=None,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=120,
                              preexec_fn=lambda: os.close(1))  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a device that is always full")
@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("extra", [[], ["--json"], ["--help"]])
def test_a_full_standard_output_is_said_once_as_the_outputs(buffered: bool,
                                                            extra: list[str]) -> None:
    """``dominari simulate … --json > out.json`` on a full disk: one line says that standard
    output could not be written, and the run ends with 1. It said a bare "No space left on
    device", as though of a file nobody named, then the interpreter's traceback on its last
    flush, and ended with 120. Help that could not be written (argparse drops it, and says
    nothing) is said too: it ended with 0 and nothing said where the help did not fit the
    buffer, or where standard output is unbuffered."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "dominari", "simulate", "dominion",
                               "--players", "bm,smithy", "-n", "4", "--seed", "1",
                               "--kingdom", "first-game", "--no-progress", *extra],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=env,
                              timeout=120)  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1:] == [
        "dominari: error: standard output cannot be written (No space left on device): what "
        "it shows is cut short or missing"]
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a device that is always full")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["tournament", "--help"]])
def test_help_on_a_full_disk_is_said(args: list[str]) -> None:
    """``dominari --help > /dev/full`` with an unbuffered output (``PYTHONUNBUFFERED``, as
    some terminals' and CI's environments set it) ended with 0 and said nothing: the
    write of the help failed at once, and argparse drops what it cannot write. It now
    says so, as every other output's failure, and ends with 1."""
    import subprocess

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "dominari", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert (proc.returncode, proc.stderr) == (1, (
        "dominari: error: standard output cannot be written (No space left on device): what "
        "it shows is cut short or missing\n"))


@pytest.mark.parametrize(("command", "flag", "name"), [
    ("simulate", "--per-game", "rows.jsonl"), ("tournament", "--per-game", "rows.jsonl"),
    ("tournament", "--journal", "games.jsonl"), ("tournament", "--plot", "chart.png")])
def test_a_file_flag_never_names_standard_outputs_file(tmp_path: Path, command: str,
                                                       flag: str, name: str) -> None:
    """``--per-game out.json > out.json`` wrote the rows over the results (or the results
    over the rows): a file a flag writes that is where standard output goes is refused
    before any game, as is ``-``, which named a file called "-"."""
    import subprocess

    out = tmp_path / name
    with out.open("w") as f:
        proc = subprocess.run([sys.executable, "-m", "dominari", command, "dominion",
                               "--players", "bm,bmu", "-n", "4", "--seed", "1",
                               "--no-progress", flag, str(out)],
                              stdout=f, stderr=subprocess.PIPE, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == (f"dominari: error: {flag} {str(out)!r} is the file standard output "
                           "goes to, which holds the results: give another file\n")
    assert out.read_text() == "" and [p.name for p in tmp_path.iterdir()] == [name]
    proc = subprocess.run([sys.executable, "-m", "dominari", command, "dominion", "--players",
                           "bm,bmu", "-n", "4", "--seed", "1", "--no-progress", flag, "-"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"dominari: error: {flag} -: give a file's name; standard output "
                           "holds the results\n")
    assert not (tmp_path / "-").exists()
