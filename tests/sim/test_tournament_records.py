"""A tournament's game records (``record_dir``): one replayable record a game, an index of
the match-ups, and records that go on with a journal and never mix with another run's."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dominari.core.errors import ConfigError
from dominari.dominations.engine import DominationsState
from dominari.dominion.engine import DominionState
from dominari.sim.tournament import (
    RECORDS_INDEX,
    matchups,
    tournament,
    tournament_game_seed,
    tournament_record_name,
)

tournament_module = importlib.import_module("dominari.sim.tournament")
runner = importlib.import_module("dominari.sim.runner")
PLAYERS = ["bm", "smithy", "bmu"]


def run(folder: Path | None, games: int = 4, journal: Path | None = None,
        **kw: Any) -> Any:  # fmt: skip
    return tournament(PLAYERS, games, 5, workers=1, kingdom="first-game", record_dir=folder,
                      journal=journal, **kw)  # fmt: skip


def _records(folder: Path) -> dict[str, Any]:
    return {f.name: json.loads(f.read_text(encoding="utf-8"))
            for f in sorted(folder.glob("matchup-*.json"))}  # fmt: skip


@pytest.mark.parametrize(("game", "players", "seats", "games"), [
    ("dominion", PLAYERS, 2, 4), ("dominion", [*PLAYERS, "random"], 3, 3),
    ("dominations", ["greedy", "random"], 2, 2)])  # fmt: skip
def test_every_game_has_a_record_that_replays_its_result(
        tmp_path: Path, game: str, players: list[str], seats: int, games: int) -> None:
    folder = tmp_path / "recs" / "deep"
    kingdom = "first-game" if game == "dominion" else None
    r = tournament(players, games, 5, seats=seats, workers=2, game=game, kingdom=kingdom,
                   record_dir=folder)  # fmt: skip
    combos = matchups(len(players), seats)
    names = sorted(f.name for f in folder.iterdir())
    assert names == sorted([RECORDS_INDEX] + [tournament_record_name(m, j)
                                              for m in range(len(combos))
                                              for j in range(games)])  # fmt: skip
    index = json.loads((folder / RECORDS_INDEX).read_text(encoding="utf-8"))
    assert index["tournament"] == {"game": game, "players": players, "seats": seats,
                                   "seed": 5, "options": r.options}  # fmt: skip
    by_name = {p.entry: p.name for p in r.players}
    assert [m["players"] for m in index["matchups"]] == [[by_name[e] for e in c]
                                                         for c in combos]  # fmt: skip
    state_class: Any = DominionState if game == "dominion" else DominationsState
    wins = {p.name: 0 for p in r.players}
    for m, entries in enumerate(combos):
        for j in range(games):
            record = json.loads((folder / tournament_record_name(m, j)).read_text("utf-8"))
            assert record["config"]["seed"] == tournament_game_seed(5, entries, j)
            assert sorted(record["config"]["names"]) == sorted(by_name[e] for e in entries)
            outcome = state_class.from_record(record).outcome()
            assert outcome.to_json() == record["outcome"]
            if outcome.ranks.count(1) == 1:
                wins[record["config"]["names"][outcome.winners[0]]] += 1
    assert wins == {p.name: p.wins for p in r.players}


def test_a_second_run_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    """Without a journal, records of an earlier run (or of another tournament) are never
    mixed with a new run's: refused before any game, the folder as it was."""
    folder = tmp_path / "recs"
    run(folder)
    before = _records(folder)
    with pytest.raises(ConfigError, match=r"--record-dir '.*recs': already holds the records "
                                          r"of an earlier run \(matchup-001-game-000001\.json"):
        run(folder)
    assert _records(folder) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / RECORDS_INDEX).write_text(json.dumps({"tournament": {"seed": 9}}), "utf-8")
    with pytest.raises(ConfigError, match="holds the records of another tournament"):
        run(other, journal=tmp_path / "t.jsonl")
    assert not (tmp_path / "t.jsonl").exists()  # the journal it made is not left


def test_a_run_that_fails_leaves_no_records(tmp_path: Path,
                                            full_disk: Callable[..., Any]) -> None:
    """A disk that fills up: one error naming the record, and neither this run's records,
    its index nor the folders it made are left, so the same run goes again."""
    disk = full_disk(5)
    folder = tmp_path / "runs" / "recs"
    with pytest.raises(ConfigError, match=r"cannot write game record '.*matchup-002-game-"
                                          r"000002\.json' \(No space left on device\)"):
        run(folder)
    assert not (tmp_path / "runs").exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    disk.clear()
    with pytest.raises(ConfigError, match="No space left"):
        run(mine)
    assert [f.name for f in mine.iterdir()] == ["notes.txt"]
    disk.mend()
    run(mine)
    assert len(_records(mine)) == 3 * 4


def test_records_go_on_with_a_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a journal a stopped run keeps its records, and the same command goes on into
    the same folder: every game has its record, as in an uninterrupted run."""
    whole = tmp_path / "whole"
    run(whole, games=6)
    real = tournament_module.play_shard
    shards: list[int] = []

    def stop_after_two(shard: Any) -> Any:
        if len(shards) == 2:
            raise KeyboardInterrupt
        shards.append(shard.matchup)
        return real(shard)

    monkeypatch.setattr(tournament_module, "play_shard", stop_after_two)
    folder, journal = tmp_path / "recs", tmp_path / "t.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run(folder, games=6, journal=journal)
    kept = _records(folder)
    assert 0 < len(kept) < 3 * 6 and (folder / RECORDS_INDEX).is_file()
    monkeypatch.setattr(tournament_module, "play_shard", real)
    again = run(folder, games=6, journal=journal)
    assert again.reused == len(kept)
    assert _records(folder) == _records(whole)
    assert run(None, games=6).to_json() == again.to_json()


def test_a_journal_with_games_needs_its_records_folder(tmp_path: Path) -> None:
    """The journal's games are not played again, so their records could not be written
    to another folder: refused, naming the journal, with the journal and folder as they
    were."""
    journal = tmp_path / "t.jsonl"
    run(None, games=2, journal=journal)
    before = journal.read_bytes()
    folder = tmp_path / "recs"
    with pytest.raises(ConfigError, match=r"--record-dir '.*recs': journal .*t\.jsonl holds 6 "
                                          r"game\(s\) of this tournament whose records were "
                                          r"not written to this folder"):
        run(folder, games=4, journal=journal)
    assert journal.read_bytes() == before and not folder.exists()


def test_cli_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dominari.cli import main

    base = ["tournament", "dominion", "--kingdom", "first-game", "--players", "bm,bmu",
            "--seed", "2", "-n", "2", "--workers", "1", "--no-progress"]  # fmt: skip
    folder = tmp_path / "recs"
    assert main([*base, "--record-dir", str(folder)]) == 0
    assert sorted(_records(folder)) == ["matchup-001-game-000001.json",
                                        "matchup-001-game-000002.json"]  # fmt: skip
    capsys.readouterr()
    same = tmp_path / "same"
    assert main([*base, "--record-dir", str(same), "--journal", str(same)]) == 2
    assert "--record-dir and --journal both name" in capsys.readouterr().err
    chart = tmp_path / "chart.png"  # refused before any game: no folder made, nothing drawn
    assert main([*base, "--record-dir", str(chart), "--plot", str(chart)]) == 2
    assert "--record-dir and --plot both name" in capsys.readouterr().err
    assert not chart.exists()
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    assert main([*base, "--record-dir", str(afile)]) == 2
    assert "--record-dir: " in capsys.readouterr().err


def test_a_new_journal_does_not_go_on_from_another_runs_records(tmp_path: Path) -> None:
    """Only a journal that holds games goes on from the records in its folder: with a new
    journal the folder must hold none (an earlier run's, or records without an index,
    which a stop would then remove), refused with the folder as it was."""
    folder = tmp_path / "recs"
    run(folder, journal=tmp_path / "a.jsonl")
    before = _records(folder)
    with pytest.raises(ConfigError, match="already holds the records of an earlier run"):
        run(folder, journal=tmp_path / "b.jsonl")
    assert _records(folder) == before and not (tmp_path / "b.jsonl").exists()
    (folder / RECORDS_INDEX).unlink()
    with pytest.raises(ConfigError, match="already holds the records of an earlier run"):
        run(folder, journal=tmp_path / "b.jsonl")
    assert _records(folder) == before and not (folder / RECORDS_INDEX).exists()


def test_a_journal_whose_records_are_not_all_in_the_folder_is_refused(tmp_path: Path) -> None:
    """A journal's games are not played again: a run that went on without --record-dir
    left games without records, and the folder is refused, naming the first."""
    folder, journal = tmp_path / "recs", tmp_path / "t.jsonl"
    run(folder, games=2, journal=journal)
    run(None, games=4, journal=journal)  # games 3 and 4 of each match-up: no records
    with pytest.raises(ConfigError, match=r"holds 12 game\(s\) of this tournament and this "
                                          r"folder lacks the record of game 3 of match-up 1 "
                                          r"\(matchup-001-game-000003\.json\)"):
        run(folder, games=4, journal=journal)
    assert len(_records(folder)) == 3 * 2


def test_a_second_run_on_a_records_folder_is_refused_while_one_writes(tmp_path: Path) -> None:
    from dominari.sim.runner import game_options

    pytest.importorskip("fcntl")
    folder = tmp_path / "recs"
    identity = {"game": "dominion", "players": PLAYERS, "seats": 2, "seed": 5,
                "options": game_options("dominion", kingdom="first-game").to_json()}  # fmt: skip
    held = tournament_module._Records(folder, identity, ["a", "b", "c"], matchups(3, 2), (), 0,
                                      None, 4)  # fmt: skip
    try:
        with pytest.raises(ConfigError, match="another run is writing records there now"):
            run(folder)
        assert (folder / RECORDS_INDEX).is_file()  # the holder's index stays
    finally:
        held.close()
    run(folder)  # once let go
    assert len(_records(folder)) == 3 * 4


def test_simulation_and_tournament_records_never_mix(tmp_path: Path) -> None:
    """Each refuses a folder that holds the other's records (or a tournament's index),
    before any game, the folder as it was."""
    from dominari.sim import simulate

    sim, tour = tmp_path / "sim", tmp_path / "tour"
    simulate(["bm", "bmu"], 2, 1, record_dir=sim)
    run(tour, games=2)
    with pytest.raises(ConfigError, match=r"holds the records of a simulation "
                                          r"\(game-000001\.json …\)"):
        run(sim, journal=tmp_path / "t.jsonl")
    assert sorted(f.name for f in sim.iterdir()) == ["game-000001.json", "game-000002.json"]
    assert not (tmp_path / "t.jsonl").exists()
    before = sorted(f.name for f in tour.iterdir())
    with pytest.raises(ConfigError, match=r"already holds 6 game records "
                                          r"\(matchup-001-game-000001\.json …\) and a "
                                          r"tournament's index of its records "
                                          r"\(tournament\.json\) from an earlier run"):
        simulate(["bm", "bmu"], 2, 1, record_dir=tour)
    assert sorted(f.name for f in tour.iterdir()) == before


def test_the_index_says_the_games_per_match_up_of_the_last_run(tmp_path: Path) -> None:
    folder, journal = tmp_path / "recs", tmp_path / "t.jsonl"
    run(folder, games=4, journal=journal)
    index = json.loads((folder / RECORDS_INDEX).read_text(encoding="utf-8"))
    assert index["games_per_matchup"] == 4
    run(folder, games=2, journal=journal)  # the journal's first 2 games of each
    index = json.loads((folder / RECORDS_INDEX).read_text(encoding="utf-8"))
    assert index["games_per_matchup"] == 2 and len(_records(folder)) == 3 * 4


def test_replaying_the_index_says_what_it_is(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from dominari.cli import main

    run(tmp_path, games=2)
    assert main(["replay", str(tmp_path / RECORDS_INDEX)]) == 2
    assert "this is the index of a tournament's records (which match-up is who), not a " \
        "game's record" in capsys.readouterr().err


def _other_code(monkeypatch: pytest.MonkeyPatch,
                count_games: Callable[[], list[int]]) -> list[int]:
    """The tournament's code stamped otherwise (an upgrade), and a count of the games it
    plays in this process."""
    monkeypatch.setattr(tournament_module, "code_fingerprint", lambda game=None: "f" * 64)
    return count_games()


def test_a_recheck_plays_no_game_for_a_folder_that_cannot_serve(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_games: Callable[[], list[int]]) -> None:
    """A records folder that would be refused is refused before a journal's recheck plays
    any game, and before ``started``; journal and folder are left as they were."""
    journal, folder, other = tmp_path / "t.jsonl", tmp_path / "recs", tmp_path / "other"
    run(folder, games=2, journal=journal)
    tournament(PLAYERS, 2, 6, workers=1, kingdom="first-game", record_dir=other)  # another
    played = _other_code(monkeypatch, count_games)
    before = journal.read_bytes(), sorted(f.name for f in other.iterdir())
    index = (other / RECORDS_INDEX).read_bytes()
    said: list[int] = []
    with pytest.raises(ConfigError, match="whose records were not written to this folder"):
        run(other, games=2, journal=journal, recheck=2, started=lambda: said.append(1))
    assert played == [] and said == []
    assert (journal.read_bytes(), sorted(f.name for f in other.iterdir())) == before
    assert (other / RECORDS_INDEX).read_bytes() == index


def test_a_recheck_that_fails_leaves_the_records_folder_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_games: Callable[[], list[int]]) -> None:
    """The folder is checked before the recheck, and its index is written only after the
    recheck keeps the journal: a recheck that comes out otherwise changes no file, and a
    new folder made for the run is removed."""
    from dominari.sim.journal import JournalError

    journal, folder = tmp_path / "t.jsonl", tmp_path / "recs"
    run(folder, games=2, journal=journal)
    played = _other_code(monkeypatch, count_games)
    real = tournament_module.play_shard

    def otherwise(shard: Any) -> Any:  # the upgraded code plays the games otherwise
        (game,) = real(shard)
        return (game._replace(scores=tuple(s + 1 for s in game.scores)),)

    monkeypatch.setattr(tournament_module, "play_shard", otherwise)
    files = {f.name: f.read_bytes() for f in folder.iterdir()}
    head = journal.read_bytes()
    with pytest.raises(JournalError, match="comes out otherwise with this code"):
        run(folder, games=4, journal=journal, recheck=2)  # the index would say 4 a match-up
    assert {f.name: f.read_bytes() for f in folder.iterdir()} == files
    assert journal.read_bytes() == head and played == [1, 1]  # the two games rechecked
    played.clear()
    fresh = tmp_path / "deep" / "recs"
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(head)
    with pytest.raises(ConfigError, match="whose records were not written to this folder"):
        run(fresh, games=2, journal=copy, recheck=2)
    assert not (tmp_path / "deep").exists() and played == []
    monkeypatch.setattr(tournament_module, "play_shard", real)
    result = run(folder, games=4, journal=journal, recheck=2)  # the same games: kept
    assert result.reused == 3 * 2
    assert json.loads((folder / RECORDS_INDEX).read_text())["games_per_matchup"] == 4


def _as_first_format(journal: Path) -> None:
    """Make ``journal`` one of format 1, as written before games kept their turn order."""
    head, *rest = journal.read_text(encoding="utf-8").splitlines()
    lines = [json.dumps({**json.loads(head), "dominari_journal": 1})]
    for line in rest:
        entry = json.loads(line)
        entry["games"] = [g[:4] for g in entry["games"]]  # without the turn order
        lines.append(json.dumps(entry))
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_refused_folder_leaves_a_journal_of_the_first_format_as_it_was(
        tmp_path: Path) -> None:
    """A journal written before turn orders were kept is written again with them as a run
    takes it; a run refused its records folder writes nothing, so the journal stays in the
    format the version that wrote it reads."""
    journal, other = tmp_path / "t.jsonl", tmp_path / "other"
    run(None, games=2, journal=journal)
    _as_first_format(journal)
    before = journal.read_bytes()
    tournament(PLAYERS, 2, 6, workers=1, kingdom="first-game", record_dir=other)  # another
    with pytest.raises(ConfigError, match="whose records were not written to this folder"):
        run(other, games=2, journal=journal)
    assert journal.read_bytes() == before


def test_a_run_stopped_before_its_first_game_lets_go_of_what_it_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_games: Callable[[], list[int]]) -> None:
    """Ctrl-C at any point before the first game (while a recheck starts, while the games
    reused are counted) leaves no index or folder the run made, and lets go of the folder
    and the journal: the same command then runs."""
    journal, folder = tmp_path / "t.jsonl", tmp_path / "new" / "recs"
    run(None, games=2, journal=journal)
    head = journal.read_text(encoding="utf-8").splitlines()[0]
    journal.write_text(head + "\n", encoding="utf-8")  # a journal of other code, no games
    _other_code(monkeypatch, count_games)

    def stop(*_: Any) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # in the recheck, once the folder is checked
        run(folder, games=2, journal=journal, recheck=2, started=stop)
    assert not (tmp_path / "new").exists()
    assert journal.read_text(encoding="utf-8") == head + "\n"
    fresh = run(folder, games=2, journal=journal, recheck=2)
    assert fresh.reused == 0 and len(_records(folder)) == 3 * 2
    monkeypatch.undo()
    kept = tmp_path / "kept"
    run(kept, games=2, journal=tmp_path / "u.jsonl")
    records = _records(kept)
    with pytest.raises(KeyboardInterrupt):  # counting the 6 games reused, going on to 4
        run(kept, games=4, journal=tmp_path / "u.jsonl", progress=stop)
    assert _records(kept) == records  # kept: the journal goes on from them
    done = run(kept, games=4, journal=tmp_path / "u.jsonl")  # not "another run is writing"
    assert done.reused == 6 and len(_records(kept)) == 3 * 4


def test_the_index_is_written_whole_or_not_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is replaced by a rename: a stop while it is written leaves the index the
    folder held (an emptied one would refuse the folder to the journal it goes on with)."""
    import dominari.sim.records as records_module

    journal, folder = tmp_path / "t.jsonl", tmp_path / "recs"
    run(folder, games=2, journal=journal)
    index = (folder / RECORDS_INDEX).read_bytes()

    def stopped(src: Any, dst: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(records_module.os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        run(folder, games=4, journal=journal)
    monkeypatch.undo()
    assert (folder / RECORDS_INDEX).read_bytes() == index
    assert sorted(f.name for f in folder.iterdir() if f.name.startswith(".")) == []
    assert run(folder, games=4, journal=journal).reused == 6
    assert json.loads((folder / RECORDS_INDEX).read_text())["games_per_matchup"] == 4


def test_the_temporary_index_of_a_killed_run_is_removed(tmp_path: Path) -> None:
    """A run killed (no ``finally`` runs) while it wrote the index leaves its temporary
    file: the next run on the folder, which holds it, removes it, whether that run goes on
    with the journal or, the first having held no game, starts afresh."""
    journal, folder = tmp_path / "t.jsonl", tmp_path / "recs"
    folder.mkdir()
    (folder / f".{RECORDS_INDEX}.x1.tmp").write_text('{"dominari_tou')
    run(folder, games=2, journal=journal)
    assert [f.name for f in folder.iterdir() if f.name.startswith(".")] == []
    (folder / f".{RECORDS_INDEX}.x2.tmp").write_text("{")
    assert run(folder, games=4, journal=journal).reused == 6
    assert [f.name for f in folder.iterdir() if f.name.startswith(".")] == []


def test_a_run_stopped_before_its_journal_holds_a_game_removes_its_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal left holding no game (a run killed at once left its first line) goes on
    like a new one: a run on it stopped before its first batch is written removes the
    records its games wrote, so the same command runs again."""
    journal, folder = tmp_path / "t.jsonl", tmp_path / "recs"
    run(None, games=2, journal=journal)
    journal.write_text(journal.read_text(encoding="utf-8").splitlines()[0] + "\n",
                       encoding="utf-8")  # fmt: skip
    real = tournament_module.play_shard

    def stopped(shard: Any) -> Any:  # the games played, their records written, then Ctrl-C
        real(shard)
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament_module, "play_shard", stopped)
    with pytest.raises(KeyboardInterrupt):
        run(folder, games=2, journal=journal)
    assert not folder.exists()
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 1
    monkeypatch.undo()
    assert run(folder, games=2, journal=journal).reused == 0
    assert len(_records(folder)) == 3 * 2


def test_an_index_that_cannot_be_written_refuses_the_run_before_the_journal_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index the run may write but not replace (another user's, in a shared folder) is
    written in place; one that cannot be written at all (a full disk) refuses the run
    before a format-1 journal is written again as format 2."""
    import errno

    journal, folder = tmp_path / "t.jsonl", tmp_path / "recs"
    run(folder, games=2, journal=journal)
    _as_first_format(journal)
    before = journal.read_bytes()

    def full(path: Any, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tournament_module, "write_text_atomic", full)
    with pytest.raises(ConfigError, match=r"cannot write tournament\.json \(No space left"):
        run(folder, games=4, journal=journal)
    assert journal.read_bytes() == before

    def not_replaced(path: Any, text: str) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(tournament_module, "write_text_atomic", not_replaced)
    assert run(folder, games=4, journal=journal).reused == 6
    assert json.loads((folder / RECORDS_INDEX).read_text())["games_per_matchup"] == 4
    assert json.loads(journal.read_text(encoding="utf-8").splitlines()[0])[
        "dominari_journal"] == 2
