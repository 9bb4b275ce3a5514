"""Tournament journals: a stopped tournament goes on where it stopped, with the same result
as an uninterrupted run, and a journal that cannot serve is refused with a clear message."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dominari.cli import main
from dominari.core.errors import ConfigError
from dominari.sim import simulate
from dominari.sim.journal import GameResult, Journal, JournalError, spec_files
from dominari.sim.stats import t95
from dominari.sim.tournament import TournamentResult, tournament

journal_module = importlib.import_module("dominari.sim.journal")
tournament_module = importlib.import_module("dominari.sim.tournament")  # not the function
PLAYERS = ["bm", "smithy", "bmu"]
MINE = 'name = "Mine"\n[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n'


def run(path: Path | None, games: int = 6, seed: int = 5, players: list[str] = PLAYERS,
        **kw: Any) -> TournamentResult:
    return tournament(players, games, seed, workers=1, kingdom="first-game", journal=path,
                      **kw)  # fmt: skip


def test_a_journaled_run_is_the_plain_run(tmp_path: Path, counted: list[int]) -> None:
    path = tmp_path / "t.jsonl"
    assert run(path).to_json() == run(None).to_json()
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(head)["key"]["players"] == PLAYERS
    assert sum(len(json.loads(line)["games"]) for line in rest) == 3 * 6


def test_a_stopped_run_goes_on_where_it_stopped(tmp_path: Path, counted: list[int]) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=4)  # the first 4 games of each match-up
    counted.clear()
    seen: list[int] = []
    again = run(path, games=10, progress=seen.append)
    assert sum(counted) == 3 * 6  # only the missing games were played
    assert sum(seen) == 3 * 10 and seen[0] == 3 * 4  # the reused games reported first
    assert again.to_json() == run(None, games=10).to_json()
    counted.clear()
    assert run(path, games=10).to_json() == again.to_json()
    assert counted == []  # everything reused
    assert run(path, games=3).to_json() == run(None, games=3).to_json()  # a prefix serves


def test_a_game_written_twice_must_be_the_same_game(tmp_path: Path) -> None:
    """A line repeated whole is harmless; a line that gives another result for a game an
    earlier line holds is damage (an edit, two journals joined), refused naming the line."""
    path = tmp_path / "t.jsonl"
    plain = run(path).to_json()
    head, first, *rest = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([head, first, *rest, first]) + "\n", encoding="utf-8")
    assert run(path).to_json() == plain
    entry = json.loads(first)
    game = entry["games"][0]
    game[1:3] = ([2, 1], [40, 50]) if game[1] == [1, 2] else ([1, 2], [50, 40])  # another
    text = "\n".join([head, first, *rest, json.dumps(entry)]) + "\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(JournalError, match=rf"line {len(rest) + 3}: game {entry['start']} of "
                       rf"match-up {entry['matchup']} \(counted from 0, as in the file\) "
                       r"is not the game an earlier line holds"):
        run(path)
    assert path.read_text(encoding="utf-8") == text


def test_gaps_are_filled(tmp_path: Path, counted: list[int]) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=6)
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([head, *rest[::2]]) + "\n", encoding="utf-8")  # lose runs
    counted.clear()
    filled = run(path, games=6)
    assert 0 < sum(counted) < 3 * 6
    assert filled.to_json() == run(None, games=6).to_json()


def test_an_unfinished_last_line_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"matchup": 0, "start": 2, "ga')  # killed while writing
    assert run(path, games=4).to_json() == run(None, games=4).to_json()
    assert path.read_bytes().startswith(whole)
    assert all(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize(("change", "message"), [
    ({"seed": 6}, "seed 5 there, 6 here"),
    ({"players": ["bm", "smithy", "bm"]}, "players"),
    ({"seats": 3}, "seats 2 there, 3 here"),
    ({"max_turns": 30}, "options.max_turns "),  # the option that differs, not them all
])  # fmt: skip
def test_another_tournament_is_refused(tmp_path: Path, change: dict[str, Any],
                                       message: str) -> None:  # fmt: skip
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    before = path.read_bytes()
    with pytest.raises(JournalError, match="written for another tournament") as e:
        run(path, games=2, **change)
    assert message in str(e.value) and "give another file or delete it" in str(e.value)
    assert path.read_bytes() == before  # nothing written


def test_changed_code_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    monkeypatch.setattr(journal_module, "code_fingerprint", lambda game=None: "0" * 64)
    monkeypatch.setattr(tournament_module, "code_fingerprint",
                        lambda game=None: "0" * 64)
    with pytest.raises(JournalError, match="the code has changed since"):
        run(path, games=2)


def _new_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the code look changed (a refactor that plays the same games)."""
    monkeypatch.setattr(tournament_module, "code_fingerprint", lambda game=None: "1" * 64)


def test_a_journal_of_other_code_is_refused_with_a_hint(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        ) -> None:  # fmt: skip
    path = tmp_path / "t.jsonl"
    run(path, games=4)
    before = path.read_bytes()
    _new_code(monkeypatch)
    with pytest.raises(JournalError, match=r"the code has changed since.*--recheck N"):
        run(path, games=4)
    assert path.read_bytes() == before


def test_a_journal_of_other_code_is_kept_when_its_games_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """``recheck`` plays that many of the journal's games again; when each comes out the
    same, the journal is stamped with the new code and serves as before: only the missing
    games are played, and the result is the uninterrupted run's."""
    path = tmp_path / "t.jsonl"
    run(path, games=4)
    games = path.read_text(encoding="utf-8").splitlines()[1:]
    _new_code(monkeypatch)
    counted.clear()
    result = run(path, games=6, recheck=5)
    assert counted[:5] == [1] * 5 and sum(counted) == 5 + 3 * 2  # rechecked, then missing
    assert result.to_json() == run(None, games=6).to_json()
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(head)["key"]["code"] == "1" * 64
    assert rest[:len(games)] == games  # the journal's games kept as they were
    counted.clear()
    assert run(path, games=6).to_json() == result.to_json() and counted == []


def test_a_journal_whose_games_do_not_replay_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that comes out otherwise with the new code is named, and the journal is
    left as it was."""
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    head, first, *rest = path.read_text(encoding="utf-8").splitlines()
    line = json.loads(first)
    line["games"][0][1:3] = [1, 2], [99, 98]  # a result this code does not play
    path.write_text("\n".join([head, json.dumps(line), *rest]) + "\n", encoding="utf-8")
    before = path.read_bytes()
    _new_code(monkeypatch)
    with pytest.raises(JournalError, match=r": game 1 of match-up 1 \(\S+ vs \S+; the "
                       r"journal's game 0 of match-up 0, counted from 0\) comes out otherwise "
                       r"with this code \(ranks ./., scores 99/98 there.*\): it was written "
                       r"by other code or files, or edited"):  # fmt: skip
        run(path, games=2, recheck=6)  # all six games: the changed one among them
    assert path.read_bytes() == before


def test_recheck_checks_a_journal_of_this_code_too(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The reproducibility audit: a game of a journal edited by hand (a win made a loss)
    was read back as it stood, and ``--recheck N`` did nothing on a journal of this code.
    It now plays N of its games again there too: the edited game, if picked, stops the
    run, and an intact journal serves as before, saying so."""
    path = tmp_path / "t.jsonl"
    first = run(path, games=2)
    rechecked = run(path, games=2, recheck=3)
    assert rechecked.rechecked == 3 and not rechecked.restamped and rechecked.reused == 6
    assert rechecked.to_json() == first.to_json()
    head, line, *rest = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(head)["key"]["code"] == first.code  # not stamped again
    edited = json.loads(line)
    edited["games"][0][1:3] = [list(reversed(edited["games"][0][1])),
                               list(reversed(edited["games"][0][2]))]  # fmt: skip
    path.write_text("\n".join([head, json.dumps(edited), *rest]) + "\n", encoding="utf-8")
    assert run(path, games=2).to_json() != first.to_json()  # (read back as it stands)
    with pytest.raises(JournalError, match="or edited"):
        run(path, games=2, recheck=6)
    assert main(["tournament", "dominion", "--players", "bm,smithy", "-n", "2", "--seed", "1",
                 "--journal", str(tmp_path / "c.jsonl"), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["tournament", "dominion", "--players", "bm,smithy", "-n", "2", "--seed", "1",
                 "--journal", str(tmp_path / "c.jsonl"), "--no-progress", "--recheck",
                 "2"]) == 0
    assert "2 of the journal's games played again came out the same (--recheck)" in \
        capsys.readouterr().out


def _without_orders(path: Path) -> None:
    """Make ``path`` a journal as written before turn orders were kept."""
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    lines = [head]
    for line in rest:
        entry = json.loads(line)
        assert all(len(g) == 5 for g in entry["games"])
        entry["games"] = [g[:4] for g in entry["games"]]
        lines.append(json.dumps(entry))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.rule("N-SET-1")
def test_a_journal_without_turn_orders_gets_them_from_the_deals(
        tmp_path: Path, counted: list[int]) -> None:
    """N-SET-1: a journal written before games kept their turn order still serves: its
    games are dealt again (not played) to learn who began, the results by turn order are
    the uninterrupted run's, and the orders are written into the journal."""
    path = tmp_path / "t.jsonl"
    first = run(path, games=4)
    games = path.read_text(encoding="utf-8").splitlines()[1:]
    _without_orders(path)
    counted.clear()
    again = run(path, games=4)
    assert counted == [] and again.reused == 3 * 4  # dealt again, not played
    assert again.to_json() == first.to_json() and again.by_turn
    assert path.read_text(encoding="utf-8").splitlines()[1:] == games  # written back
    assert Journal.read(path).known == Journal.open(path, json.loads(
        path.read_text(encoding="utf-8").splitlines()[0])["key"]).known


def test_a_journal_without_turn_orders_rechecks_against_played_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """A journal of other code and of the older format: the games played again have
    their turn order and the journal's have none, which is no difference."""
    path = tmp_path / "t.jsonl"
    first = run(path, games=2)
    _without_orders(path)
    _new_code(monkeypatch)
    counted.clear()
    assert run(path, games=2, recheck=6).to_json() == first.to_json()
    assert counted == [1] * 6


def test_a_journal_of_the_first_format_is_written_in_this_one(tmp_path: Path) -> None:
    """Format 1 (games without their turn order) is read, and written as format 2 once the
    games have their orders: code of format 1 then says the format, rather than calling
    the journal damaged. A format this version does not know is refused."""
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    _without_orders(path)
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([json.dumps({**json.loads(head), "dominari_journal": 1}),
                               *rest]) + "\n", encoding="utf-8")  # fmt: skip
    run(path, games=2)
    head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert head["dominari_journal"] == journal_module.FORMAT == 2
    path.write_text(json.dumps({**head, "dominari_journal": 3}) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="format 3, this version reads formats 1 and 2"):
        run(path, games=2)


def test_the_command_says_a_journal_of_the_first_format_is_written_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dominari.cli import main

    path = tmp_path / "t.jsonl"
    args = ["tournament", "dominion", "--players", "bm,bmu", "-n", "2", "--seed", "5",
            "--kingdom", "first-game", "--workers", "1", "--no-progress", "--journal",
            str(path)]  # fmt: skip
    assert main(args) == 0
    assert "format" not in capsys.readouterr().err
    _without_orders(path)
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([json.dumps({**json.loads(head), "dominari_journal": 1}),
                               *rest]) + "\n", encoding="utf-8")  # fmt: skip
    assert main(args) == 0
    assert (f"dominari: note: journal {path} is of format 1, without the turn order of its "
            "games: they are dealt again (not played) to learn it, and the journal is written "
            "as format 2") in capsys.readouterr().err
    assert main(args) == 0
    assert "format" not in capsys.readouterr().err  # written as format 2


def test_writing_a_journal_again_keeps_what_the_table_does_not_hold(tmp_path: Path) -> None:
    """A game past a table's limit is written as the file has it, on the same line as held
    games given their orders; the journal is then of this format, and not written again."""
    from dominari.sim.table import GameTable

    path = tmp_path / "t.jsonl"
    j = Journal.open(path, {"seed": 1})
    games = [GameResult(tournament_module.seating((0, 1), k), (1, 2), (k, 0), "provinces")
             for k in range(4)]  # fmt: skip
    j.record(0, 0, games[:2])
    j.record(0, 2, games[2:])  # games 2 and 3: the table below keeps game 2 only
    table = GameTable([[(0, 1), (1, 0)]], 2, limit=3)
    j = Journal.open(path, {"seed": 1}, into=table, hold=True)
    try:
        for k in range(3):
            table[0, k] = table[0, k]._replace(order=(k % 2, 1 - k % 2))
        j.write_known()
        with pytest.raises(JournalError, match="another run is writing it now"):
            Journal.open(path, {"seed": 1}, hold=True)  # still held after the rewrite
    finally:
        j.close()
    lines = [json.loads(line)["games"] for line in path.read_text("utf-8").splitlines()[1:]]
    assert [len(g) for run_ in lines for g in run_] == [5, 5, 5, 4]
    again = Journal.open(path, {"seed": 1})
    assert again.format == 2 and again.known[(0, 3)] == games[3]
    assert again.known[(0, 2)].order == (0, 1)


def test_a_stop_while_a_journal_is_written_again_leaves_it_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    _without_orders(path)
    before = path.read_bytes()
    calls: list[int] = []
    real = journal_module._run_line

    def stop(*args: Any) -> str:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(journal_module, "_run_line", stop)
    with pytest.raises(KeyboardInterrupt):
        run(path, games=2)
    assert path.read_bytes() == before
    assert sorted(f.name for f in tmp_path.iterdir()) == ["t.jsonl"]  # no part file


@pytest.mark.parametrize("order", [[0, 0], [0, 1, 2], [2, 1], "01", [0, True]])
def test_a_damaged_turn_order_is_refused(tmp_path: Path, order: object) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    head, first, *rest = path.read_text(encoding="utf-8").splitlines()
    line = json.loads(first)
    line["games"][0][4] = order
    path.write_text("\n".join([head, json.dumps(line), *rest]) + "\n", encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"line 2: game 0 is not \[seating, ranks, scores, "
                       r"reason\] or \[seating, ranks, scores, reason, turn order\] \(the "
                       r"turn order: every seat once\)"):  # fmt: skip
        run(path, games=2)
    assert path.read_bytes() == before


def test_recheck_needs_a_journal_and_a_count() -> None:
    with pytest.raises(ConfigError, match="rechecking games needs a journal"):
        run(None, games=2, recheck=1)
    with pytest.raises(ConfigError, match="to recheck must be 0 or more, not -1"):
        run(None, games=2, recheck=-1)


def test_recheck_does_not_open_another_tournament(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a change of code can be rechecked: another seed is still refused."""
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    _new_code(monkeypatch)
    with pytest.raises(JournalError, match="seed 5 there, 6 here"):
        run(path, games=2, seed=6, recheck=3)


def test_a_changed_strategy_file_plays_its_match_ups_again(tmp_path: Path,
                                                            counted: list[int]) -> None:
    """Only the games of the player whose file changed are played again (a class whose one
    student mends a bot replays that student's match-ups, not the tournament); the others
    are read back, and the result is a fresh run's with the new file."""
    strategy = tmp_path / "mine.toml"
    strategy.write_text(MINE, encoding="utf-8")
    path = tmp_path / "t.jsonl"
    players = ["bm", str(strategy), "smithy"]
    run(path, games=4, players=players)
    strategy.write_text(MINE.replace('"Silver"', '"Smithy"'), encoding="utf-8")
    counted.clear()
    again = run(path, games=4, players=players)
    assert sum(counted) == 8  # bm vs mine, mine vs smithy: 4 games each
    assert (again.reused, again.dropped, again.files_changed) == (4, 8, ("Mine",))
    assert again.to_json() == run(None, games=4, players=players).to_json()
    key = json.loads(path.read_text(encoding="utf-8").splitlines()[0])["key"]
    assert list(key["files"].values()) == list(spec_files([str(strategy)]).values())
    counted.clear()
    assert run(path, games=4, players=players).reused == 12 and not counted  # all read


def test_a_library_journal_without_changed_refuses_a_changed_file(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    Journal.open(path, {"seed": 1, "code": "c", "files": {"a.toml": "1"}})
    with pytest.raises(JournalError, match=r"the players' files have changed since: a\.toml"):
        Journal.open(path, {"seed": 1, "code": "c", "files": {"a.toml": "2"}})


def test_other_code_and_a_changed_file_are_refused_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Only the files changed: other code needs a recheck, which the changed player's
    games would fail."""
    strategy = tmp_path / "mine.toml"
    strategy.write_text(MINE, encoding="utf-8")
    path = tmp_path / "t.jsonl"
    run(path, games=2, players=["bm", str(strategy)])
    strategy.write_text(MINE.replace('"Silver"', '"Smithy"'), encoding="utf-8")
    _new_code(monkeypatch)
    with pytest.raises(JournalError, match="the code has changed since; the players' files "
                                           "have changed since"):
        run(path, games=2, players=["bm", str(strategy)])


def test_the_same_strategy_file_at_another_path_is_named_as_such(tmp_path: Path) -> None:
    """A journal goes with the paths its games were played with: the same file copied
    elsewhere is another tournament, and the error says that, not that a file changed."""
    strategy = tmp_path / "mine.toml"
    strategy.write_text(MINE, encoding="utf-8")
    path = tmp_path / "t.jsonl"
    run(path, games=2, players=["bm", str(strategy)])
    copy = tmp_path / "elsewhere"
    copy.mkdir()
    (copy / "mine.toml").write_text(MINE, encoding="utf-8")
    with pytest.raises(JournalError, match="the same players' files, at other paths"):
        run(path, games=2, players=["bm", str(copy / "mine.toml")])


@pytest.mark.parametrize(("text", "message"), [
    ("\n\n", "holds only blank lines"),
    ("hello\n", "is not a Dominari tournament journal"),
    ("\x89PNG\x1a\n", "is not a Dominari tournament journal"),  # a chart, not a journal
    ('{"name": "a record"}\n', "is not a Dominari tournament journal"),
    ('{"dominari_journal": 9, "key": {}}\n', "format 9"),
    ("some notes", "is not a Dominari tournament journal"),  # no newline, left as it is
    ('{"dominari_journal": 1, "key": {"seed": 2}}\n{"matchup"', "another tournament"),
])  # fmt: skip
def test_not_a_journal(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(JournalError, match=message):
        Journal.open(path, {"seed": 1})
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("line", "message"), [
    ("{oops", "line 2: damaged"),
    ('{"matchup": 0}', "line 2: not a run of games"),
    ('{"matchup": -1, "start": 0, "games": []}', "whole numbers of 0 or more"),
    ('{"matchup": 0, "start": 0, "games": [[[0, 1], [1], [3, 4], "end"]]}',
     "game 0 is not [seating, ranks, scores, reason]"),
])  # fmt: skip
def test_a_damaged_line_is_refused(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "t.jsonl"
    Journal.open(path, {"seed": 1})
    with path.open("a", encoding="utf-8") as f:
        f.write(line + "\n" + '{"matchup": 0, "start": 0, "games": []}\n')
    with pytest.raises(JournalError) as e:
        Journal.open(path, {"seed": 1})
    assert message in str(e.value)
    # The advice is to remove that line, not the journal: without it, it serves.
    assert str(e.value).endswith("; remove that line (its games are played again), or "
                                 "delete the journal or give another file")
    head, _, rest = path.read_text(encoding="utf-8").splitlines()
    path.write_text(f"{head}\n{rest}\n", encoding="utf-8")
    Journal.open(path, {"seed": 1}).close()


def _damage(first: dict[str, Any], kind: str) -> str:
    """A journal line damaged as ``kind`` says, from the journal's line ``first``."""
    game = first["games"][0]
    if kind == "json":
        return "garbage"
    if kind == "shape":
        return json.dumps({"matchup": 0})
    if kind == "game":
        return json.dumps({**first, "games": [game[:2]]})
    if kind == "seats":
        return json.dumps({**first, "games": [[game[0][::-1], *game[1:]]]})
    if kind == "twice":  # another result for a game an earlier line holds
        return json.dumps({**first, "games": [[game[0], game[1], [s + 1 for s in game[2]],
                                               *game[3:]]]})
    assert kind == "range"  # a game the journal does not hold yet, its score too large
    seats = list(tournament_module.seating(tuple(sorted(game[0])), 2))
    return json.dumps({"matchup": first["matchup"], "start": 2,
                       "games": [[seats, [1, 2], [2**63, 3], "provinces"]]})


@pytest.mark.parametrize(("kind", "message"), [
    ("json", "damaged (Expecting value"),
    ("shape", "not a run of games"),
    ("game", "game 0 is not [seating, ranks, scores, reason]"),
    ("seats", "game 0 of match-up 0 (counted from 0, as in the file): seats"),
    ("twice", "game 0 of match-up 0 (counted from 0, as in the file) is not the game an "
              "earlier line holds"),
    ("range", "game 2: scores"),
])  # fmt: skip
def test_a_damaged_line_is_named_by_its_line_in_the_file(tmp_path: Path, kind: str,
                                                         message: str) -> None:  # fmt: skip
    """The line as an editor numbers it, blank lines counted (they were not: a journal
    with blank lines named another line than the damaged one)."""
    path = tmp_path / "bl.jsonl"
    run(path, games=2)
    head, first, *rest = path.read_text(encoding="utf-8").splitlines()
    lines = [head, "", first, "", "", "", _damage(json.loads(first), kind), *rest]
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(JournalError) as e:
        run(path, games=4)
    assert f"journal {path} line 7: {message}" in str(e.value)
    assert path.read_text(encoding="utf-8") == text


def test_a_first_format_journal_with_blank_lines_is_written_in_this_one(
        tmp_path: Path) -> None:
    """Blank lines (even before the first line) are read past when the journal is written
    again as format 2, as when it is read (the first line was read as the file's first)."""
    path = tmp_path / "t.jsonl"
    first = run(path, games=2)
    _without_orders(path)
    head, *rest = path.read_text(encoding="utf-8").splitlines()
    old = json.dumps({**json.loads(head), "dominari_journal": 1})
    path.write_text("\n".join(["", old, "", *rest, ""]) + "\n", encoding="utf-8")
    assert run(path, games=2).to_json() == first.to_json()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["dominari_journal"] == 2 and len(lines) == 1 + len(rest)


@pytest.mark.parametrize(("game", "message"), [
    ([[5, 6], [1, 2], [3, 4], "provinces"], "game 0 of match-up 0 (counted from 0, as in the "
                                            "file): seats [5, 6], where this tournament "
                                            "seats [0, 1]"),
    ([[0, 0], [1, 2], [3, 4], "provinces"], "seats [0, 0]"),
    ([[0, 1, 2], [1, 2, 3], [3, 4, 5], "provinces"], "seats [0, 1, 2]"),
    ([[0, 1], [7, 0], [3, 4], "provinces"], "ranks [7, 0] are not places 1 to 2"),
    ([[0, 1], [2, 2], [3, 4], "provinces"], "ranks [2, 2]"),
    ([[0, 1], [1, 3], [3, 4], "provinces"], "ranks [1, 3] are not places 1 to 2"),
    ([[0, 1], [1, 1], [3, 4], "provinces"], "ranks [1, 1] do not follow the scores [3, 4]: "
                                            "more points always place better"),
    ([[0, 1], [1, 2], [3, 4], "provinces"], "ranks [1, 2] do not follow the scores [3, 4]"),
    ([[0, 1], [1, 2], [4, 3], "bogus\u001b[2J"], "ended by 'bogus\\x1b[2J', not by one of "
                                                 "provinces, three-piles, turn-limit"),
    ([[0, 1], [1, 2], [4, 3], "x" * 10_000], f"ended by '{'x' * 40}…', not by one of"),
])  # fmt: skip
def test_games_that_are_not_this_tournaments_are_refused(tmp_path: Path, game: list[Any],
                                                         message: str) -> None:
    """A well-formed line whose games cannot be this tournament's (another seating, ranks
    that are not places or contradict the scores, an end no game has) is damage, not
    results to count."""
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"matchup": 0, "start": 0, "games": [game]}) + "\n")
    text = path.read_text(encoding="utf-8")
    last = len(text.splitlines())
    with pytest.raises(JournalError) as e:
        run(path, games=2)
    assert f"line {last}:" in str(e.value) and message in str(e.value)
    assert path.read_text(encoding="utf-8") == text


def test_a_match_up_the_tournament_does_not_have_is_refused_before_a_recheck(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    with path.open("a", encoding="utf-8") as f:
        f.write('{"matchup": 9, "start": 0, "games": [[[0, 1], [1, 2], [3, 4], "end"]]}\n')
    monkeypatch.setattr(tournament_module, "code_fingerprint", lambda game=None: "other")
    with pytest.raises(JournalError, match=r"match-up 9 \(counted from 0, as in the file\): "
                                           r"this tournament has 3 match-up"):
        run(path, games=2, recheck=4)


def test_reused_games_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    assert run(path, games=2).reused == 0
    again = run(path, games=3)
    assert again.reused == 3 * 2 and again.games == 3 * 3
    assert again.to_json() == run(None, games=3).to_json()


def test_a_journal_under_a_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(JournalError, match=r"notes\.txt is a file, not a folder"):
        Journal.open(tmp_path / "notes.txt" / "t.jsonl", {"seed": 1})


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="is a folder"):
        Journal.open(tmp_path, {"seed": 1})


def test_a_journal_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    """As for ``--record`` and ``--plot``: a typo in the path is not a folder to make."""
    path = tmp_path / "deep" / "t.jsonl"
    with pytest.raises(JournalError, match=r"cannot be created \(folder .*deep does not exist"):
        Journal.open(path, {"seed": 1, "players": ("a", "b")})
    assert not (tmp_path / "deep").exists()
    (tmp_path / "deep").write_text("", encoding="utf-8")
    with pytest.raises(JournalError, match=r"deep is a file, not a folder"):
        Journal.open(path, {"seed": 1, "players": ("a", "b")})
    (tmp_path / "deep").unlink()
    (tmp_path / "deep").mkdir()
    j = Journal.open(path, {"seed": 1, "players": ("a", "b")})
    j.record(0, 3, [GameResult((1, 0), (1, 1), (5, 5), "provinces")])
    again = Journal.open(path, {"seed": 1, "players": ("a", "b")})
    assert again.known == {(0, 3): GameResult((1, 0), (1, 1), (5, 5), "provinces")}


def test_the_code_fingerprint_is_stable() -> None:
    first = journal_module.code_fingerprint()
    assert len(first) == 64 and journal_module.code_fingerprint() == first


def test_a_bot_module_of_one_game_is_outside_the_other_games_fingerprint() -> None:
    """A module of ``dominari.bots`` that imports one game's package and not the other's
    (Dominion's rule bots, the kingdom rankings, the Dominations greedy bot) is left out of
    the other game's fingerprint, as the README promises."""
    import re

    bots = Path(journal_module.__file__).resolve().parent.parent / "bots"
    uses = {game: re.compile(rf"dominari\.{game}\b") for game in ("dominion", "dominations")}
    checked = 0
    for f in sorted(bots.glob("*.py")):
        text = f.read_text(encoding="utf-8")
        games = [g for g, pattern in uses.items() if pattern.search(text)]
        if len(games) == 1:
            other = "dominations" if games[0] == "dominion" else "dominion"
            rel = f"bots/{f.name}"
            assert rel.startswith(journal_module._OTHER_GAME[other]), (rel, other)
            checked += 1
    assert checked >= 8


def test_each_game_fingerprints_only_the_code_it_plays_with(tmp_path: Path) -> None:
    """Work on one game's engine or bots keeps the other game's journals; shared code
    (core, the search, the runners) changes both."""
    files = {"core/state.py": "a", "dominion/engine.py": "b", "dominations/engine.py": "c",
             "bots/mcts.py": "d", "bots/strategy.py": "e", "bots/strategies/smithy.toml": "f",
             "bots/dominations_greedy.py": "g", "sim/tournament.py": "h",
             "web/app.py": "i"}  # fmt: skip
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")

    def prints() -> tuple[str, str, str]:
        fp = journal_module.tree_fingerprint
        return fp(tmp_path), fp(tmp_path, "dominion"), fp(tmp_path, "dominations")

    changes = {"core/state.py": (True, True, True), "bots/mcts.py": (True, True, True),
               "sim/tournament.py": (True, True, True),
               "dominion/engine.py": (True, True, False),
               "bots/strategy.py": (True, True, False),
               "bots/strategies/smithy.toml": (True, True, False),
               "dominations/engine.py": (True, False, True),
               "bots/dominations_greedy.py": (True, False, True),
               "web/app.py": (False, False, False)}  # fmt: skip
    for name, expected in changes.items():
        before = prints()
        (tmp_path / name).write_text(files[name] + " changed", encoding="utf-8")
        after = prints()
        assert tuple(b != a for b, a in zip(before, after, strict=True)) == expected, name


def test_edited_data_files_are_refused(tmp_path: Path) -> None:
    """A Dominations data folder plays the games as much as the code does: editing one of
    its component files voids the journal (the folder's name alone would not; nor do other
    files kept in it)."""
    import shutil

    data = tmp_path / "data"
    shutil.copytree(Path(journal_module.__file__).parent.parent / "dominations" / "datafiles",
                    data)  # fmt: skip
    path = tmp_path / "t.jsonl"

    def play() -> TournamentResult:
        return tournament(["random", "random"], 1, 3, workers=1, game="dominations",
                          data=str(data), journal=path)  # fmt: skip

    first = play()
    assert play().reused == 1 and play().to_json() == first.to_json()
    (data / "notes.txt").write_text("mine", encoding="utf-8")  # not component files
    (data / "recs").mkdir()
    (data / "recs" / "game-000001.json").write_text("{}", encoding="utf-8")
    assert play().reused == 1
    monuments = data / "monuments.json"
    monuments.write_text(monuments.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="the data folder's files have changed"):
        play()
    plain = tmp_path / "plain.jsonl"
    run(plain, games=1)  # without a data folder the key is as it always was
    assert "data_files" not in json.loads(plain.read_text(encoding="utf-8").split("\n")[0])["key"]


def test_the_same_files_however_spelled_are_the_same_tournament(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """``mine.toml``, ``./mine.toml`` and its absolute path name one file: the journal
    serves all three (and a data folder's path is compared the same way)."""
    (tmp_path / "mine.toml").write_text(MINE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "t.jsonl"
    first = run(path, games=2, players=["mine.toml", "bm"])
    for spelled in ("./mine.toml", str(tmp_path / "mine.toml")):
        counted.clear()
        again = run(path, games=2, players=[spelled, "bm"])
        assert sum(counted) == 0 and again.reused == 2
        assert [q.wins for q in again.players] == [q.wins for q in first.players]
    key = {"players": ["mine.toml"], "options": {"data": "mine.toml"}, "files": {}}
    assert Journal.open(tmp_path / "k.jsonl", key).known == {}
    spelled = {"players": ["./mine.toml"], "files": {},
               "options": {"data": str(tmp_path / "mine.toml")}}
    assert Journal.open(tmp_path / "k.jsonl", spelled).known == {}


def test_the_same_bots_however_typed_are_the_same_tournament(
        tmp_path: Path, counted: list[int]) -> None:
    """Bot names are read in any case, and a search level's options in any order: the
    journal serves them however typed, and a level with other options is refused."""
    path = tmp_path / "t.jsonl"
    first = run(path, games=2, players=["bm", "mcts-easy:iterations=3:width=2"])
    counted.clear()
    again = run(path, games=2, players=[" BM", "MCTS-Easy:Width=2:iterations=3"])
    assert sum(counted) == 0 and again.reused == 2
    # Option values too: the bot reads them in any case.
    path2 = tmp_path / "t2.jsonl"
    run(path2, games=2, players=["bm", "mcts-easy:iterations=3:width=2:paired=yes:own=bmu"])
    counted.clear()
    run(path2, games=2, players=["bm", "mcts-easy:iterations=3:width=2:paired=YES:own=BMU"])
    assert sum(counted) == 0
    assert again.to_json()["players"][0]["wins"] == first.to_json()["players"][0]["wins"]
    with pytest.raises(JournalError, match="another tournament"):
        run(path, games=2, players=["bm", "mcts-easy:iterations=4:width=2"])


def test_a_changed_strategy_file_is_played_again_even_with_a_recheck(
        tmp_path: Path, counted: list[int]) -> None:  # fmt: skip
    """A player's edited file plays that player's match-ups again, --recheck or not: a
    recheck of games picked among all match-ups could miss the edited player's (the
    review found a real edit kept that way), and the games are played anyway."""
    mine = tmp_path / "mine.toml"
    mine.write_text(MINE, encoding="utf-8")
    path = tmp_path / "t.jsonl"
    players = [str(mine), "bm", "smithy"]
    run(path, games=2, players=players)
    mine.write_text(MINE.replace('card = "Gold"\n', 'card = "Province"\n'), encoding="utf-8")
    counted.clear()
    again = run(path, games=2, players=players, recheck=1)
    assert (again.reused, again.rechecked, sum(counted)) == (2, 0, 4)
    assert again.to_json() == run(None, games=2, players=players).to_json()


def test_a_journal_made_by_a_run_that_fails_at_once_is_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is left behind when no game could be played (a lost cluster …); a journal
    that holds games is kept, to go on from."""
    def fail(*args: Any, **kw: Any) -> Any:
        raise ConfigError("no Ray cluster answers")

    path = tmp_path / "t.jsonl"
    monkeypatch.setattr(tournament_module, "each_result", fail)
    with pytest.raises(ConfigError, match="no Ray cluster"):
        run(path, games=2)
    assert not path.exists()
    monkeypatch.undo()
    run(path, games=2)
    before = path.read_bytes()
    monkeypatch.setattr(tournament_module, "each_result", fail)
    with pytest.raises(ConfigError, match="no Ray cluster"):
        run(path, games=4)
    assert path.read_bytes() == before


def test_a_journal_goes_on_from_another_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               counted: list[int]) -> None:
    """Its paths are kept as the files they name, so the tournament run again from
    elsewhere (with the paths spelled from there) reuses its games; a built-in name is
    never taken for a file that happens to bear it."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "mine.toml").write_text(MINE, encoding="utf-8")
    (work / "bm").write_text("not a bot", encoding="utf-8")
    monkeypatch.chdir(work)
    run(tmp_path / "t.jsonl", games=2, players=["mine.toml", "bm"])
    head = json.loads((tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert head["key"]["players"] == [str((work / "mine.toml").resolve()), "bm"]
    monkeypatch.chdir(tmp_path)
    counted.clear()
    again = run(tmp_path / "t.jsonl", games=2, players=["work/mine.toml", "bm"])
    assert sum(counted) == 0 and again.reused == 2


def test_an_empty_file_becomes_a_journal_and_another_games_is_named(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.touch()
    assert run(path, games=2).reused == 0
    assert run(path, games=2).reused == 6
    with pytest.raises(JournalError, match="a dominion tournament's journal, for a "
                       "dominations tournament"):
        tournament(["random", "random"], 1, 5, workers=1, game="dominations", journal=path)


def test_a_standings_mean_score_has_a_95_percent_interval(tmp_path: Path) -> None:
    """From the games' spread: the same as computed from the journal's own scores."""
    import math
    import statistics

    path = tmp_path / "t.jsonl"
    result = run(path, games=6)
    scores: dict[int, list[int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        for seating, _ranks, points, _reason, _order in json.loads(line)["games"]:
            for entry, score in zip(seating, points, strict=True):
                scores.setdefault(entry, []).append(score)
    for s in result.players:
        got = scores[s.entry]
        half = t95(len(got) - 1) * statistics.stdev(got) / math.sqrt(len(got))
        assert s.mean_score_ci95 == pytest.approx((statistics.mean(got) - half,
                                                   statistics.mean(got) + half))
        assert s.to_json()["mean_score_ci95"] == list(s.mean_score_ci95)
        assert s.to_json()["score_sd"] == pytest.approx(statistics.stdev(got))


def test_a_journal_read_by_its_own_key_and_games_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    key = {"seed": 3, "players": ["a", "b"]}
    j = Journal.open(path, key)
    first = [GameResult((0, 1), (1, 2), (30, 20), "provinces"),
             GameResult((1, 0), (2, 1), (25, 31), "provinces")]
    j.record(0, 0, first)
    j.record(0, 2, [GameResult((0, 1), (1, 1), (22, 22), "piles")])
    again = Journal.read(path)
    assert again.known == j.known
    new = GameResult((1, 0), (1, 2), (33, 30), "provinces")
    again.rewrite({(0, 1): new})
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["key"] == key and len(lines) == 3
    assert Journal.open(path, key).known == {(0, 0): first[0], (0, 1): new,
                                             (0, 2): j.known[(0, 2)]}
    with pytest.raises(JournalError, match="holds no game 5 of match-up 0 to rewrite"):
        again.rewrite({(0, 5): new})
    with pytest.raises(JournalError, match="cannot be read as a journal"):
        Journal.read(tmp_path / "none.jsonl")


def test_the_same_kingdom_however_typed_is_the_same_tournament(
        tmp_path: Path, counted: list[int]) -> None:
    """A set's name in any case, and card names in any case and order, play the same
    games: the journal serves them however typed, and another kingdom is refused."""
    path = tmp_path / "t.jsonl"
    first = tournament(PLAYERS, 3, 5, workers=1, kingdom="smithy, Village", journal=path)
    counted.clear()
    again = tournament(PLAYERS, 3, 5, workers=1, kingdom=["village", "SMITHY"], journal=path)
    assert sum(counted) == 0 and again.reused == 9
    assert again.to_json()["players"] == first.to_json()["players"]
    with pytest.raises(JournalError, match="another tournament"):
        tournament(PLAYERS, 3, 5, workers=1, kingdom="smithy,market", journal=path)
    path = tmp_path / "set.jsonl"
    tournament(PLAYERS, 3, 5, workers=1, kingdom="first-game", journal=path)
    counted.clear()
    tournament(PLAYERS, 3, 5, workers=1, kingdom=" First-Game", journal=path)
    assert sum(counted) == 0


def test_a_pipe_or_a_broken_link_is_no_journal(tmp_path: Path) -> None:
    """A named pipe would be read forever; a link to nothing cannot be created."""
    import os

    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(JournalError, match="is not a regular file"):
        Journal.open(fifo, {"seed": 1})
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "gone.jsonl")
    with pytest.raises(JournalError, match=r"is a link to .*gone\.jsonl, which does not exist"):
        Journal.open(link, {"seed": 1})


def test_the_command_refuses_a_pipe_for_a_journal_rather_than_wait_on_it(
        tmp_path: Path) -> None:
    """``tournament --journal PIPE``: one error, at once (it used to wait forever on the
    pipe, reading it for the journal's format before the journal was checked)."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "dominari", "tournament", "dominion",
                           "--players", "bm,bmu", "-n", "2", "--seed", "1", "--workers", "1",
                           "--no-progress", "--journal", str(fifo)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert "is not a regular file" in done.stderr


def test_a_journal_that_cannot_be_written_says_which_and_keeps_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        fill_disk: Callable[[], Callable[[int, Any], int]]) -> None:
    """A full disk: one error naming the journal, and no half line left in it."""
    import os

    path = tmp_path / "t.jsonl"
    j = Journal.open(path, {"seed": 1})
    j.record(0, 0, [GameResult((0, 1), (1, 2), (5, 4), "provinces")])
    before = path.read_bytes()
    real = fill_disk()
    with pytest.raises(JournalError, match=r"journal .*t\.jsonl: cannot be written \(No space"):
        j.record(0, 1, [GameResult((1, 0), (1, 2), (5, 4), "provinces")])
    monkeypatch.setattr(os, "write", real)
    assert path.read_bytes() == before
    assert Journal.open(path, {"seed": 1}).known == j.known


def test_a_long_tournament_keeps_a_few_bytes_a_game(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's result is kept for the ratings, but in a compact table: a tournament
    plays, journals and reads back its games in some 20-25 bytes of memory a game (each
    result as a tuple took 150 to 500, several GB at the 10,000,000-game maximum), and
    the results are the same."""
    import tracemalloc

    def stand_in(shard: tournament_module.Shard) -> tuple[GameResult, ...]:
        out = []
        for j in range(shard.start, shard.stop):
            ranks = (1, 2) if j % 3 else (2, 1) if j % 5 else (1, 1)
            low, high = 20 + j % 13, 20 + j % 13 + (ranks[0] != ranks[1]) * (1 + j % 7)
            out.append(GameResult(tournament_module.seating(shard.entries, j), ranks,
                                  (high, low) if ranks[0] == 1 else (low, high),
                                  "provinces" if j % 4 else "three-piles", (j % 2, 1 - j % 2)))
        return tuple(out)

    monkeypatch.setattr(tournament_module, "play_shard", stand_in)
    games = 5_000
    path = tmp_path / "t.jsonl"
    results = []
    tournament(["bm", "bmu"], 10, 1)  # imports, caches
    for journal in (None, path, path):  # no journal; one written; one read back
        tracemalloc.start()
        try:
            results.append(tournament(["bm", "bmu"], games, 1, journal=journal).to_json())
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak / games < 60, (journal, peak / games)
    assert results[0] == results[1] == results[2]


def test_a_journal_score_the_table_cannot_hold_is_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    run(path, games=2)
    seats = list(tournament_module.seating((0, 1), 2))
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"matchup": 0, "start": 2,
                            "games": [[seats, [1, 2], [2**63, 3], "provinces"]]}) + "\n")
    lines = len(path.read_text(encoding="utf-8").splitlines())
    with pytest.raises(JournalError, match=f"line {lines}: game 2: scores .* out of range"):
        run(path, games=4)


def test_a_recheck_picks_among_all_the_journals_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal longer than the run is stamped whole once rechecked, so its later games
    are among those picked, as from the sorted list of all its games: a run of 8 games
    rechecks a 16-game journal's games as a run of 16 would."""
    import random

    from dominari.sim.runner import derive_seed

    path = tmp_path / "t.jsonl"
    run(path, games=16)
    keys = sorted((m, j) for m in range(3) for j in range(16))
    want = sorted(random.Random(derive_seed("dominari-tournament-recheck", 5)).sample(keys, 6))
    assert any(j >= 8 for _, j in want)  # the seed picks later games too
    replayed: list[tuple[int, int]] = []
    real = tournament_module.play_shard

    def play(shard: tournament_module.Shard) -> tuple[GameResult, ...]:
        replayed.append((shard.matchup, shard.start))
        return real(shard)

    _new_code(monkeypatch)
    monkeypatch.setattr(tournament_module, "play_shard", play)
    run(path, games=8, recheck=6)
    assert replayed == want


@pytest.mark.skipif(journal_module.fcntl is None, reason="no flock on this system")
def test_a_journal_is_held_where_only_a_file_open_for_writing_can_be_locked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """NFS grants ``flock`` through its own locks, which an exclusive lock on a file open
    only for reading cannot have: a journal is held through a descriptor open for writing
    (the records' :func:`~dominari.sim.records.lock_file`), so a second run is still
    refused there, rather than told that another run writes it when none does."""
    import errno
    import fcntl

    from dominari.sim import records

    flock = fcntl.flock

    def nfs(fd: int, how: int) -> None:
        if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY:
            raise OSError(errno.EBADF, "Bad file descriptor")
        flock(fd, how)

    monkeypatch.setattr(records.fcntl, "flock", nfs)
    path = tmp_path / "t.jsonl"
    first = Journal.open(path, {"seed": 1}, hold=True)
    with pytest.raises(JournalError, match="another run is writing it now"):
        Journal.open(path, {"seed": 1}, hold=True)
    first.close()
    Journal.open(path, {"seed": 1}, hold=True).close()


@pytest.mark.skipif(journal_module.fcntl is None, reason="no flock on this system")
def test_a_reader_leaves_the_line_a_run_is_writing_now(tmp_path: Path) -> None:
    """The last line of a journal a run holds may be one it is writing this moment: a
    reader drops it from what it reads but does not cut it from the file (that would
    break the run's line in two); once no run holds the journal, a reader cuts it."""
    path = tmp_path / "t.jsonl"
    run_ = Journal.open(path, {"seed": 1}, hold=True)
    run_.record(0, 0, [GameResult((0, 1), (1, 2), (30, 20), "provinces")])
    writing = path.read_bytes() + b'{"matchup": 0, "start": 1, "ga'
    path.write_bytes(writing)  # the run's next line, half written
    assert Journal.open(path, {"seed": 1}).known == run_.known
    assert Journal.read(path).known == run_.known
    assert path.read_bytes() == writing
    run_.close()  # (a run killed as it wrote: the line is unfinished for good)
    assert Journal.read(path).known == run_.known
    assert path.read_bytes() == writing[:writing.rindex(b"\n") + 1]


@pytest.mark.skipif(journal_module.fcntl is None, reason="no flock on this system")
def test_a_journal_a_run_writes_is_refused_to_a_second_run_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs on one journal at once would both play the missing games and both append
    them: the run that writes a journal holds it, a second is refused before reading it,
    and the journal serves again once the first has ended (or failed)."""
    path = tmp_path / "t.jsonl"
    first = Journal.open(path, {"seed": 1}, hold=True)  # a run writing it (made by it)
    first.record(0, 0, [GameResult((0, 1), (1, 2), (30, 20), "provinces")])
    with pytest.raises(JournalError, match="another run is writing it now"):
        Journal.open(path, {"seed": 1}, hold=True)
    assert path.read_text(encoding="utf-8").count("\n") == 2  # left as it was
    # a reader that writes nothing (the benchmarks' tools) is not refused
    assert Journal.open(path, {"seed": 1}).known == first.known
    first.close()
    second = Journal.open(path, {"seed": 1}, hold=True)  # an existing journal, held
    with pytest.raises(JournalError, match="another run is writing it now"):
        Journal.open(path, {"seed": 1}, hold=True)
    second.close()
    # A tournament lets go of its journal when it ends, and when it fails.
    tour = tmp_path / "tour.jsonl"
    run(tour, games=2)
    key = json.loads(tour.read_text(encoding="utf-8").splitlines()[0])["key"]
    Journal.open(tour, key, hold=True).close()
    monkeypatch.setattr(tournament_module, "each_result",
                        lambda *a, **k: (_ for _ in ()).throw(RuntimeError("lost")))
    with pytest.raises(RuntimeError, match="lost"):
        run(tour, games=4)
    Journal.open(tour, key, hold=True).close()


def _three(tmp_path: Path) -> tuple[Path, list[str]]:
    strategy = tmp_path / "mine.toml"
    strategy.write_text(MINE, encoding="utf-8")
    return strategy, ["bm", str(strategy), "smithy"]


def _edit(strategy: Path) -> None:
    strategy.write_text(MINE.replace('"Silver"', '"Smithy"'), encoding="utf-8")


def test_a_run_refused_after_reading_the_journal_leaves_it_as_it_was(tmp_path: Path) -> None:
    """The review: a records folder refused after the journal had let go of an edited
    player's games left the journal without them, though no game was played."""
    strategy, players = _three(tmp_path)
    path = tmp_path / "t.jsonl"
    run(path, games=2, players=players)
    before = path.read_bytes()
    _edit(strategy)
    other = tmp_path / "other"
    simulate(["bm", "bm"], 1, 1, record_dir=other)  # a folder a tournament refuses
    with pytest.raises(ConfigError, match="holds the records of a simulation"):
        run(path, games=2, players=players, record_dir=other)
    assert path.read_bytes() == before


def test_records_of_an_edited_player_are_written_again_or_refused(tmp_path: Path) -> None:
    """Played again with the journal, an edited player's records are written again; a
    folder whose records of that player the journal let go in a run without it is refused
    (the review found it kept the old bot's records of the journal's new games)."""
    strategy, players = _three(tmp_path)
    path, records = tmp_path / "t.jsonl", tmp_path / "records"
    run(path, games=2, players=players, record_dir=records)
    _edit(strategy)
    fresh = tmp_path / "fresh"
    run(None, games=2, players=players, record_dir=fresh)
    run(path, games=2, players=players, record_dir=records)  # its match-ups played again
    for record in sorted(records.glob("matchup-*.json")):
        assert json.loads(record.read_text("utf-8"))["actions"] == json.loads(
            (fresh / record.name).read_text("utf-8"))["actions"], record.name
    index = json.loads((records / "tournament.json").read_text("utf-8"))
    assert list(index["files"].values()) == list(spec_files([str(strategy)]).values())
    # edited again, and played on without the folder: the folder's records are stale
    strategy.write_text(MINE, encoding="utf-8")
    run(path, games=2, players=players)
    with pytest.raises(ConfigError, match=r"holds records of the games of Mine played with "
                                          r"their files as they were before .*match-up\(s\) "
                                          r"1, 3"):
        run(path, games=2, players=players, record_dir=records)


def test_every_match_up_let_go_with_its_records(tmp_path: Path) -> None:
    """A two-player tournament whose one edited player is in every match-up: the folder's
    records are all let go, and the run is not refused for them."""
    strategy = tmp_path / "mine.toml"
    strategy.write_text(MINE, encoding="utf-8")
    players = [str(strategy), "bm"]
    path, records = tmp_path / "t.jsonl", tmp_path / "records"
    run(path, games=2, players=players, record_dir=records)
    _edit(strategy)
    again = run(path, games=2, players=players, record_dir=records)
    assert (again.reused, again.dropped) == (0, 2)
    assert again.to_json() == run(None, games=2, players=players).to_json()
