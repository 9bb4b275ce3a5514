"""``dominari tournament``: the table, JSON, the chart and bad input."""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from dominari.cli import main

_SHARE_LINE = ("win share %, a shared win split among its winners (95% CI, Student's t, "
               "each end widened to Wilson's where that is further out): ")
BASE = ["tournament", "dominion", "--kingdom", "first-game", "--players", "random,bm,smithy",
        "--seed", "1", "--workers", "1", "--no-progress"]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *BASE, "-n", "4")
    assert code == 0, err
    assert "Dominion tournament: 3 players, 3 match-ups × 4 games at 2 seats" in out
    assert "Head to head" in out
    for name in ("random", "BM", "Smithy"):
        assert name in out
    assert "seed 1" in out and "12 games played in" in out
    assert "not exactly balanced" not in out
    # who begins is drawn per game: results by place in the turn order, each player's
    # (8 games each, split between the places) and everyone's
    assert "Win % by place in the turn order (drawn per game)" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(" ")
            and line.strip().endswith("]") and ("1st to play" in line or " 2nd " in line)]
    assert len(rows) == 3 * 2  # a row per player and place
    assert sum(int(r[-5].replace(",", "")) for r in rows) == 3 * 8  # Games: 8 each
    assert "win % by turn order, whoever sat there (drawn per game): 1st to play " in out
    assert max(len(line) for line in out.splitlines() if line.startswith(" ")) <= 80  # tables
    _, odd, _ = run(capsys, *BASE, "-n", "3")
    assert "not a multiple of 2: the seats are not exactly balanced" in odd


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *BASE, "-n", "4", "--seats", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seats"] == 3 and data["games_per_matchup"] == 4 and data["games"] == 4
    assert data["seed"] == 1 and data["game"] == "dominion"
    assert {p["spec"] for p in data["players"]} == {"random", "bm", "smithy"}
    assert data["options"] == {"kingdom": "first-game", "max_turns": 100}
    assert [t["place"] for t in data["by_turn"]] == [1, 2, 3]
    assert all(t["games"] == 4 for t in data["by_turn"])
    for p in data["players"]:
        assert sum(t["games"] for t in p["by_turn"]) == p["games"]
    _, again, _ = run(capsys, *BASE, "-n", "4", "--seats", "3", "--json")
    assert json.loads(again) == data


def test_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chart = tmp_path / "t.png"
    code, out, err = run(capsys, *BASE, "-n", "2", "--plot", str(chart))
    assert code == 0, err
    assert f"Chart drawn to {chart}" in out
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_plot_refuses_a_picture_that_is_no_chart_before_any_game(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:  # fmt: skip
    """A slip of the name (``--plot photo.png``) loses no picture: it is refused before any
    game is played, and a chart drawn before is drawn over."""
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    code, out, err = run(capsys, *BASE, "-n", "2", "--plot", str(photo))
    assert code == 2 and out == ""
    assert err == (f"dominari: error: --plot: {str(photo)!r} is already there and is not a "
                   "tournament chart (a PNG file Dominari drew): give another file name, or "
                   "remove it\n")  # fmt: skip
    assert photo.read_bytes() == b"\x89PNG\r\n\x1a\n" + b"\0" * 40
    chart = tmp_path / "t.png"
    for _ in range(2):
        code, out, err = run(capsys, *BASE, "-n", "2", "--plot", str(chart))
        assert code == 0, err


def test_a_chart_that_cannot_be_drawn_loses_no_results(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The results are printed before the chart is drawn: a disk that fills up or a folder
    removed during a long tournament costs the chart, not the games."""
    chart = tmp_path / "t.png"
    plot = importlib.import_module("dominari.sim.plot")

    def full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plot.os, "replace", full)
    code, out, err = main_with(capsys, *BASE, "-n", "2", "--plot", str(chart))
    assert code == 1 and "Dominion tournament" in out and "Chart drawn" not in out
    assert err == (f"dominari: error: --plot {str(chart)!r}: the chart cannot be written "
                   "(No space left on device)\n")
    assert list(tmp_path.iterdir()) == []  # no half-written chart or temporary file
    monkeypatch.undo()
    gone = tmp_path / "gone"
    gone.mkdir()
    real = plot.plot_tournament

    def vanish(result: object, path: str) -> None:
        gone.rmdir()  # the folder went away while the games were played
        real(result, path)  # type: ignore[arg-type]

    monkeypatch.setattr(plot, "plot_tournament", vanish)
    code, out, err = main_with(capsys, *BASE, "-n", "2", "--json", "--plot", str(gone / "t.png"))
    assert code == 2 and json.loads(out)["games"] == 2 * 3
    assert "does not exist" in err and err.count("\n") == 1


def main_with(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main``, with the exit status of an error (2) instead of raising."""
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_dominations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "dominations", "--players", "random,random",
                         "-n", "2", "--seed", "3", "--workers", "1", "--no-progress")
    assert code == 0, err
    assert "Dominations tournament" in out and "random#2" in out
    # greedy beats random at 3 seats as at 2: the leaderboard, the places and the JSON
    code, out, err = run(capsys, "tournament", "dominations", "--players",
                         "random,greedy,random", "--seats", "3", "-n", "3", "--seed", "3",
                         "--workers", "1", "--no-progress", "--json")  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert result["game"] == "dominations" and result["games"] == 3 and result["seats"] == 3
    board = result["players"]
    assert board[0]["name"] == "greedy" and board[0]["wins"] == 3
    assert all(p["games"] == 3 and p["wins"] + p["ties"] + p["losses"] == 3 for p in board)
    assert board[0]["rating"]["mu"] > max(p["rating"]["mu"] for p in board[1:])
    assert sum(result["end_reasons"].values()) == 3


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "bmu,nobot"], "unknown bot 'nobot'"),
    (["--players", "bmu"], "at least 2 players"),
    (["--players", "bmu,,bm"], "empty entry"),
    (["--players", "bmu,bm", "--seats", "5"], "2 to 4"),
    (["--players", "bmu,bm", "--seats", "3"], "needs at least 3 players"),
    (["--players", "bmu,bm", "-n", "0"], "at least 1"),
    (["--players", "bmu,bm", "--backend", "spark"], "unknown backend"),
    (["--players", "bmu,bm", "--rule", "connection=all-sides"], "Dominations option"),
    (["--players", "bmu,bm", "--plot", "out.svg"], "PNG"),
    (["--players", "bmu,bm", "--plot", "missing/out.png"], "does not exist"),
    (["--players", "bmu,bm", "--plot", ""], "argument --plot: must not be empty"),
    (["--players", "bmu,bm", "--kingdom", " "], "argument --kingdom: must not be empty"),
    (["--players", "bmu,bm", "--data", ""], "argument --data: must not be empty"),
    (["--players", "bmu,bm", "--journal", ""], "argument --journal: must not be empty"),
    (["--players", "bmu,bm", "-n", "99999999999999999999"], "at most 1,000,000"),
    (["--players", ",".join(["bm"] * 20), "--seats", "4", "-n", "1000000"],
     "4,845 match-ups × 1,000,000 games = 4,845,000,000 games, and a tournament plays at "
     "most 10,000,000"),
    (["--players", "bmu,bm", "--plot", "t.png", "--journal", "./t.png"],
     "would replace the journal"),
    (["--players", "human,bm"], "cannot play in a simulation or a tournament"),
    # refused before the notes on a bot's cards and a search by the clock: one line
    (["--players", "witch,bm,bmu,smithy,market,random", "-n", "700000"],
     "15 match-ups × 700,000 games = 10,500,000 games"),
    (["--players", "mcts-easy:seconds=0.1,witch", "--plot", "missing/out.png"],
     "does not exist"),
    (["--players", "mcts:seconds=1,bm", "--seats", "3"], "needs at least 3 players"),
    (["--players", "mcts:seconds=1,witch,bmx"], "unknown bot 'bmx'"),
    (["--players", "mcts:seconds=1,witch", "-n", "2000000"], "at most 1,000,000"),
    (["--players", "mcts:seconds=1,witch", "--workers", "100000"], "at most"),
])  # fmt: skip
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch, args: list[str],
                               message: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "tournament", "dominion", "--seed", "1", "--workers", "1",
                         "--no-progress", *args)
    assert code == 2
    assert out == ""
    assert err.startswith("dominari: error: ") and err.count("\n") == 1
    assert message in err
    assert list(tmp_path.iterdir()) == []


def test_bad_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tournament", "chess", "--players", "a,b")
    assert code == 2 and "unknown game 'chess'" in err


def test_journal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    journal = str(tmp_path / "t.jsonl")
    code, first, err = run(capsys, *BASE, "-n", "4", "--json", "--journal", journal)
    assert code == 0, err
    assert "gave back" not in err  # (a journal made by this run)
    code, again, err = run(capsys, *BASE, "-n", "4", "--json", "--journal", journal)
    assert code == 0, err
    assert json.loads(again) == json.loads(first)
    # A run that goes on says so as it begins (the organiser's audit: only the last line
    # said it, once every game was played).
    assert f"dominari: note: the journal {journal} gave back 12 of the 12 games: none to " \
        "play\n" in err
    code, table, err = run(capsys, *BASE, "-n", "5", "--journal", journal)
    assert code == 0, err  # the speed counts the games played, not those read back
    assert "3 games played in" in table and "12 more read from the journal" in table
    assert f"the journal {journal} gave back 12 of the 15 games: 3 to play\n" in err
    code, out, err = run(capsys, *BASE[:-5], "--seed", "2", "--workers", "1", "--no-progress",
                         "-n", "4", "--journal", journal)  # fmt: skip
    assert code == 2 and out == ""
    assert "written for another tournament (seed 1 there, 2 here)" in err
    assert err.count("\n") == 1


def test_a_run_without_a_terminal_says_how_far_it_is(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    """Where standard error is no terminal (``nohup``, a log), a run says how far it is
    every minute (here every 0 s), the games then each step after them; ``--no-progress``
    says nothing. (A 150,000-game tournament was silent.)"""
    import dominari.cli as cli

    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.0)
    code, _, err = run(capsys, *BASE[:-1], "-n", "2")
    assert code == 0, err
    lines = err.splitlines()
    games = [line for line in lines if line.startswith("dominari: tournament: ")]
    assert games and games[-1].startswith("dominari: tournament: 6 of 6 games (100.0%), 0:0")
    assert all(line.endswith(" elapsed") for line in games)
    assert any(line.startswith("dominari: rating: 6 of 6 games (100.0%)") for line in lines)
    code, _, err = run(capsys, *BASE, "-n", "2")
    assert code == 0 and "dominari: tournament:" not in err and "rating:" not in err
    # a run that goes on from a journal counts the games it gave back (the review: the
    # lines stopped at "4 of 12")
    journal = str(tmp_path / "t.jsonl")
    assert run(capsys, *BASE, "-n", "2", "--journal", journal)[0] == 0
    code, _, err = run(capsys, *BASE[:-1], "-n", "4", "--journal", journal)
    games = [line for line in err.splitlines() if line.startswith("dominari: tournament: ")]
    assert code == 0 and games[-1].startswith("dominari: tournament: 12 of 12 games (100.0%)")
    code, _, err = run(capsys, "simulate", "dominion", "--players", "bm,smithy", "-n", "3",
                       "--seed", "1", "--workers", "1", "--kingdom", "first-game")
    assert code == 0 and "dominari: simulating: 3 of 3 games (100.0%)" in err


def test_journal_of_other_code_kept_by_recheck(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """After an upgrade that plays the same games, ``--recheck N`` keeps the journal; without
    it the journal is refused with one line saying how to keep it."""
    journal = str(tmp_path / "t.jsonl")
    code, first, err = run(capsys, *BASE, "-n", "4", "--json", "--journal", journal)
    assert code == 0, err
    module = importlib.import_module("dominari.sim.tournament")  # not the function
    monkeypatch.setattr(module, "code_fingerprint", lambda game=None: "f" * 64)
    code, out, err = run(capsys, *BASE, "-n", "4", "--json", "--journal", journal)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "the code has changed since" in err and "(--recheck N)" in err
    code, again, err = run(capsys, *BASE, "-n", "4", "--json", "--journal", journal,
                           "--recheck", "4")  # fmt: skip
    assert code == 0, err
    assert json.loads(again) == json.loads(first)  # the results, the same as before
    monkeypatch.setattr(module, "code_fingerprint", lambda game=None: "e" * 64)
    code, out, err = run(capsys, *BASE, "-n", "4", "--journal", journal, "--recheck", "5")
    assert code == 0, err  # the table says that the journal was rechecked, and how
    assert out.splitlines()[-2:] == [
        "the journal was written by other code: 5 of its games played again with this code "
        "came out the same, so its games serve (it is stamped with this code)",
        f"no new game played: all {3 * 4} read from the journal"]
    code, out, err = run(capsys, *BASE, "-n", "4", "--journal", journal, "--recheck", "5")
    assert code == 0, err  # stamped: rechecked as a journal of this code (a check of it)
    assert out.splitlines()[-2] == ("5 of the journal's games played again came out the same "
                                    "(--recheck)")
    code, out, err = run(capsys, *BASE, "-n", "4", "--recheck", "2")
    assert code == 2 and "--recheck needs --journal" in err


def test_journal_needs_a_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "tournament", "dominion", "--players", "bm,bmu", "-n", "2",
                         "--journal", str(tmp_path / "t.jsonl"))  # fmt: skip
    assert code == 2 and out == ""
    assert "--journal needs an explicit --seed" in err
    assert list(tmp_path.iterdir()) == []


def test_the_progress_bar_follows_the_reading_then_the_ratings(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """On a terminal, the bar follows the games, then the reading of them (their rows, by
    card), then the rating of them; a step that is not taken is never shown."""
    from dominari import cli

    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    made: list[Any] = []

    class Bars(cli.Progress):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            made.append(self)

    monkeypatch.setattr(cli, "Progress", Bars)
    bars: list[list[tuple[str, float, float | None, bool]]] = []  # the tasks, as shown

    def shown() -> None:
        bars.append([(t.description, t.completed, t.total, t.visible) for t in made[-1].tasks])

    def run(progress: Any = None, reading: Any = None, rating: Any = None) -> str:
        progress(4)
        progress(6)
        shown()
        if reading is not None:
            reading(10)
            shown()
        rating(4)
        shown()
        rating(6)
        shown()
        return "done"

    steps = (("reading", "rows, by card"), ("rating", "rating"))
    assert cli._run_games("tournament", 10, True, run, steps) == "done"
    assert bars == [
        [("tournament", 10, 10, True), ("rows, by card", 0, 10, False),
         ("rating", 0, 10, False)],  # the games played
        [("tournament", 10, 10, False), ("rows, by card", 10, 10, True),
         ("rating", 0, 10, False)],  # then read
        [("tournament", 10, 10, False), ("rows, by card", 10, 10, False),
         ("rating", 4, 10, True)],  # then rated, timed
        [("tournament", 10, 10, False), ("rows, by card", 10, 10, False),
         ("rating", 10, 10, True)],
    ]
    assert made[-1].tasks[1].start_time is not None
    assert made[-1].tasks[2].start_time is not None
    bars.clear()
    assert cli._run_games("tournament", 10, True, run, steps[1:]) == "done"
    assert bars == [
        [("tournament", 10, 10, True), ("rating", 0, 10, False)],  # the games played
        [("tournament", 10, 10, False), ("rating", 4, 10, True)],  # then rated, timed
        [("tournament", 10, 10, False), ("rating", 10, 10, True)],
    ]
    assert cli._run_games("simulating", 10, True, lambda progress: "plain") == "plain"


@pytest.mark.parametrize(("flags", "step"), [([], None), (["--by-card"], "by card"),
                                            (["--per-game", "rows.jsonl"], "rows"),
                                            (["--by-card", "--per-game", "rows.jsonl"],
                                             "rows, by card")])
def test_the_tournament_bar_names_the_reading_it_asks_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        flags: list[str], step: str | None) -> None:  # fmt: skip
    """The bar's step between the games and the ratings names what ``--per-game`` and
    ``--by-card`` ask for, and is there only when one is; every game is read once."""
    from dominari import cli

    monkeypatch.chdir(tmp_path)
    asked: list[Any] = []
    real = cli._run_games

    def spying(label: str, total: int, progress: bool, run: Any, after: Any = (),
               resumed: Any = None) -> Any:
        asked.append(tuple(after))
        read: list[int] = []
        if any(keyword == "reading" for keyword, _ in after):
            run = functools.partial(run, reading=read.append)
        out = real(label, total, False, run)  # (no bar: the steps are what is checked)
        asked.append(sum(read))
        return out

    monkeypatch.setattr(cli, "_run_games", spying)
    code, _, err = run(capsys, "tournament", "dominion", "--players", "bm,smithy,witch", "-n",
                       "4", "--seed", "2", *flags)  # fmt: skip
    assert code == 0, err
    steps = ((("reading", step),) if step else ()) + (("rating", "rating"),)
    assert asked == [steps, 12 if step else 0]


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_the_stall_timeout_flag(capsys: pytest.CaptureFixture[str], command: str) -> None:
    players = "bm,bmu"
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "4",
                               "--seed", "1", "--stall-timeout", "0")
    # the same words for 0 as for 0.05: the limit is 0.1 s
    assert code == 2 and out == "" and "--stall-timeout: must be at least 0.1 seconds" in err
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "4",
                               "--seed", "1", "--stall-timeout", "inf")
    assert code == 2 and out == "" and "--stall-timeout: must be a positive number" in err
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "4",
                               "--seed", "1", "--stall-timeout", "1e-320")
    assert code == 2 and out == "" and "--stall-timeout: must be at least 0.1 seconds" in err
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "4",
                               "--seed", "1", "--stall-timeout", "60", "--workers", "1",
                               "--json", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["games"] == 4


def test_a_head_to_head_of_many_players_is_split_so_that_nothing_is_cut() -> None:
    """12 players at 80 columns: the head-to-head columns come in as few tables as fit,
    every row keeps its place and name, and every cell its whole number (before, the
    names were dropped and the rates cut to ``100.…``)."""
    import itertools

    from dominari.cli import head_to_head_tables
    from dominari.sim.journal import GameResult
    from dominari.sim.tournament import TournamentResult

    n = 12
    pairs = list(itertools.combinations(range(n), 2))
    games = [[GameResult((a, b), (1, 2), (30, 20), "provinces")] for a, b in pairs]
    names = tuple(f"Strategy number {k}" for k in range(n))
    result = TournamentResult.from_games(games, specs=tuple(f"s{k}" for k in range(n)),
                                         names=names, seats=2, seed=0, game="dominion",
                                         options={})  # fmt: skip
    for width, count in ((80, 2), (200, 1)):
        tables = head_to_head_tables(result, width)
        assert len(tables) == count
        out = _printed(tables, width)
        lines = out.splitlines()
        assert max(len(line) for line in lines) <= width
        assert "…" not in out
        heads = [line.split() for line in lines if line.lstrip().startswith("#  Player")]
        assert [c for h in heads for c in h[2:]] == [f"#{k}" for k in range(1, n + 1)]
        for k, name in enumerate(names):  # entry k beat every later entry
            rows = [line.split() for line in lines if line.split()[:1] == [str(k + 1)]]
            assert len(rows) == len(tables)
            assert all(" ".join(row[1:4]) == name for row in rows)
            cells = [c for row in rows for c in row[4:]]
            assert cells.count("100.0%") == n - 1 - k and cells.count("0.0%") == k
        if len(tables) > 1:
            assert "(columns #1–#" in out


def _printed(tables: list[Any], width: int) -> str:
    import io

    from rich.console import Console

    # soft wrap, as the command line's console: nothing is cut at the edge (a last
    # column's padding past it would wrap on a terminal)
    console = Console(width=width, file=io.StringIO(), color_system=None, soft_wrap=True)
    for table in tables:
        console.print(table)
    return console.file.getvalue()  # type: ignore[no-any-return,attr-defined]


@pytest.mark.parametrize("n", [3, 7, 13])
def test_a_head_to_head_is_split_into_the_fewest_tables_that_print_whole(n: int) -> None:
    """Names that wrap (the name column narrows to its longest word), and widths from
    less than one column's to all: the names are kept as wide as they can be (up to 16)
    with some split printing whole, and the tables are then as few as print within the
    width with no number cut and no word of a name broken, found by printing every split
    at every name width; where not one column fits so, one table."""
    import itertools

    from dominari.cli import _head_to_head_block, _pct, head_to_head_tables
    from dominari.sim.journal import GameResult
    from dominari.sim.tournament import TournamentResult

    games = [[GameResult((a, b), (1, 2), (30, 20), "provinces"),
              GameResult((b, a), (1, 2), (30, 20), "provinces")]
             for a, b in itertools.combinations(range(n), 2)]  # fmt: skip
    names = tuple(f"A strategy with a rather long name, number {k}" for k in range(n))
    result = TournamentResult.from_games(games, specs=tuple(f"s{k}" for k in range(n)),
                                         names=names, seats=2, seed=0, game="dominion",
                                         options={})  # fmt: skip
    board = result.leaderboard
    cells = [["-" if r is None else _pct(r) for r in
              (result.head_to_head_rate(p.entry, q.entry) for q in board)] for p in board]
    for width in (12, 20, 30, 40, 50, 60, 80, 120, 200):
        tables = head_to_head_tables(result, width)
        fewest = None
        for wide in range(16, 5, -1):  # the names' width: the widest at which any fits
            for blocks in range(1, n + 1):
                size = -(-n // blocks)
                parts = [range(k, min(n, k + size)) for k in range(0, n, size)]
                out = _printed([_head_to_head_block(result, cells, p, False, wide)
                                for p in parts], width)  # fmt: skip
                if _whole(out, width, names):
                    fewest = len(parts)
                    break
            if fewest is not None:
                break
        assert len(tables) == (fewest or 1), width
        if fewest is not None:
            assert _whole(_printed(tables, width), width, names)


def _whole(out: str, width: int, names: tuple[str, ...]) -> bool:
    """Whether ``out`` fits ``width`` with every column and number whole (rich drops a
    column that does not fit, or cuts it with ``…``) and no word of a name broken (a
    title is one line, for the terminal to wrap: soft wrap)."""
    n = len(names)
    words = out.split()
    lines = [line for line in out.splitlines() if not line.startswith("Head to head")]
    return ("…" not in out and max(map(len, lines)) <= width
            and set(words) >= {f"#{k}" for k in range(1, n + 1)}
            and sum(w.endswith(".0%") for w in words) == n * (n - 1)
            and set(words) >= {word for name in names for word in name.split()})


LONG_SPEC = "mcts-easy:iterations=20:width=4:prune=2.5:trust=0.5:margin=0.2"


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_the_tables_fit_an_80_column_terminal_whatever_the_names(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: str) -> None:  # fmt: skip
    """At 80 columns, a search bot's spec as a name breaks into shorter lines, so that
    every line of a table fits: the numbers never wrap, and a table one column too wide
    (simulate's was 85 with ``mcts-easy`` beside ``BM``, a leaderboard 81 with a spec)
    wrapped every row on a terminal. The name is all there, line after line."""
    monkeypatch.setenv("COLUMNS", "80")
    players = "bm,smithy," + LONG_SPEC if command == "tournament" else "bm," + LONG_SPEC
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "2",
                               "--seed", "1", "--kingdom", "first-game", "--workers", "1",
                               "--no-progress")  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith(" ")]  # a table's (prose: no indent)
    assert rows and max(map(len, rows)) <= 80
    # the spec's lines, in order, in the name column of every table with names
    pieces = ("mcts-easy:", "iterations=", "width=4:", "prune=2.5:", "trust=0.5:", "margin")
    spread = "".join(line.split()[0] if line.split()[0][0].isalpha() else line.split()[1]
                     for line in rows if any(p in line for p in pieces))
    assert LONG_SPEC in spread


def test_simulates_table_of_short_names_is_as_it_was(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Names that fit are not broken: ``mcts-easy`` stays one line at 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = main_with(capsys, "simulate", "dominion", "--players", "bm,mcts-easy",
                               "-n", "2", "--seed", "1", "--kingdom", "first-game",
                               "--workers", "1", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert any(line.split()[:1] == ["mcts-easy"] for line in out.splitlines())
    assert max(len(line) for line in out.splitlines() if line.startswith(" ")) <= 80


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_names_that_read_the_same_are_told_apart_and_blank_ones_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    """A tournament organiser's audit: bots named ``BM `` (a space at the end) and
    ``BM`` with a zero-width space read as ``BM`` in every table, unnumbered; they are
    numbered now, with the line that says which is which. A bot whose name shows
    nothing (empty, or spaces) is refused in one line naming it: its rows were blank."""
    bots = tmp_path / "look.py"
    bots.write_text(
        "from dominari.bots import load_bot\n"
        "class _B:\n"
        "    def __init__(self, name):\n"
        "        self._b = load_bot('bm')\n"
        "        self.name = name\n"
        "    def reset(self, seed):\n"
        "        self._b.reset(seed)\n"
        "    def act(self, state):\n"
        "        return self._b.act(state)\n"
        "def Trail(): return _B('BM ')\n"
        "def Zero(): return _B('BM\\u200b')\n"
        "def Blank(): return _B('   ')\n")
    base = ["-n", "2", "--seed", "1", "--kingdom", "first-game", "--workers", "1",
            "--no-progress"]
    players = (f"{bots}:Trail,{bots}:Zero,bm" if command == "tournament" else
               f"{bots}:Trail,{bots}:Zero")
    code, out, err = main_with(capsys, command, "dominion", "--players", players, *base)
    assert code == 0, err
    rows = [line.split()[1 if command == "tournament" else 0] for line in out.splitlines()
            if line.strip().startswith(("1 ", "2 ", "3 ", "BM"))]
    assert {"BM#1", "BM#2"} <= set(rows) and "BM" not in rows, out
    said = [line for line in out.splitlines() if line.startswith("the same name")]
    assert said and f"BM#1 is {bots}:Trail" in said[0] and f"BM#2 is {bots}:Zero" in said[0]
    code, out, err = main_with(capsys, command, "dominion", "--players", f"bm,{bots}:Blank",
                               *base)
    assert code == 2 and out == ""
    assert err.startswith("dominari: error: a player's name must show something, not '")
    assert err.endswith(f"' (bot '{bots}:Blank')\n") and err.count("\n") == 1


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_players_of_the_same_name_are_told_apart(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path, command: str) -> None:
    """A strategy file that calls itself ``BM`` beside ``bm``: the tables show ``BM#1``
    and ``BM#2``, and a line says which is which (only ``--json`` did). The same spec
    twice is the same bot, and Smithy's name is its own: neither is named there alone."""
    src = Path(importlib.import_module("dominari.bots").__file__ or "").parent
    text = (src / "strategies" / "bmu.toml").read_text()
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace('name = "BMU"', 'name = "BM"'))
    players = f"bm,{mine},smithy" if command == "tournament" else f"bm,{mine}"
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "2",
                               "--seed", "1", "--kingdom", "first-game", "--workers", "1",
                               "--no-progress")  # fmt: skip
    assert code == 0, err
    said = [line for line in out.splitlines() if line.startswith("the same name")]
    assert said == [f"the same name for different players: BM#1 is bm; BM#2 is {mine}"]
    code, out, err = main_with(capsys, command, "dominion", "--players", "bm,bm,smithy",
                               "-n", "2", "--seed", "1", "--kingdom", "first-game",
                               "--workers", "1", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert "BM#2" in out and "the same name" not in out
    code, out, err = main_with(capsys, command, "dominion", "--players", "bm,BM,smithy",
                               "-n", "2", "--seed", "1", "--kingdom", "first-game",
                               "--workers", "1", "--no-progress")  # fmt: skip
    assert code == 0 and "the same name" not in out, out  # one bot, in either case


@pytest.mark.parametrize(("command", "columns"), [("simulate", 70), ("tournament", 72),
                                                  ("simulate", 50), ("tournament", 50)])
def test_a_narrow_terminal_gets_every_name_and_number_whole(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str,
        columns: int) -> None:  # fmt: skip
    """Below some 75 columns the intervals go under their rates, so that the table still
    fits; where even that is too wide, the table is printed whole at its own width (the
    terminal wraps its rows). Before, rich dropped the Player column and cut numbers to
    ``…`` to fit (``100.0 [61.0, 100.…``), or every row wrapped."""
    monkeypatch.setenv("COLUMNS", str(columns))
    players = "random,bm,bmu" if command == "tournament" else "bm,smithy"
    code, out, err = main_with(capsys, command, "dominion", "--players", players, "-n", "4",
                               "--seed", "1", "--kingdom", "first-game", "--workers", "1",
                               "--no-progress")  # fmt: skip
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith(" ")]
    assert "…" not in out
    names = {"BM", "BMU", "random"} if command == "tournament" else {"BM", "Smithy"}
    assert {w for line in rows for w in line.split()} >= names | {"Player"}
    if columns >= 70:
        assert max(map(len, rows)) <= columns  # stacked: a rate, its interval under it
        first = out.split("Win %", 1)[1]  # the first table's heading: over two lines
        assert not first.startswith(" [95% CI]") and "[95% CI]" in first
        assert any(line.split() and line.split()[0].startswith("[") for line in rows)
    else:  # whole, wider than the terminal
        assert max(map(len, rows)) > columns


def test_differences_by_card_never_read_minus_zero(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A difference that rounds to 0 reads ``0.0`` (``-0.0`` and ``+0.0`` showed side by side
    in one column); the by-card tables fit the terminal as the others do, nothing cut."""
    from dominari.cli import _points

    assert [_points(x) for x in (-0.00049, 0.0, 0.00049, 0.0321, -0.0321)] == \
        ["0.0", "0.0", "0.0", "+3.2", "-3.2"]
    monkeypatch.setenv("COLUMNS", "70")
    code, out, err = main_with(capsys, "simulate", "dominion", "--players", "witch,smithy",
                               "-n", "20", "--seed", "1", "--workers", "1", "--by-card",
                               "--no-progress")  # fmt: skip
    assert code == 0, err
    assert "…" not in out and "-0.0" not in out and "+0.0" not in out
    rows = [line for line in out.splitlines() if line.startswith(" ")]
    assert max(map(len, rows)) <= 70


def test_a_journal_that_holds_every_game_says_none_was_played(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Run again whole from its journal, a tournament says that no game was played, not
    ``0 games played in 0.0 s (0 games/s …); 12 more read from the journal``."""
    journal = str(tmp_path / "t.jsonl")
    assert run(capsys, *BASE, "-n", "4", "--journal", journal)[0] == 0
    code, out, err = run(capsys, *BASE, "-n", "4", "--journal", journal)
    assert code == 0, err
    assert out.splitlines()[-1] == "no new game played: all 12 read from the journal"


def test_a_dominations_tournament_says_nothing_of_how_games_ended(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A Dominations game always ends after its third age: no ``games ended by: game end``
    line (simulate has none either)."""
    code, out, err = run(capsys, "tournament", "dominations", "--players", "random,random",
                         "-n", "2", "--seed", "3", "--workers", "1", "--no-progress")
    assert code == 0, err
    assert "games ended by" not in out


def test_the_dominations_breakdown_fits_and_never_splits_a_number(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of mean VP by source heads its columns with the players' names: on a
    narrow terminal the names break into shorter lines, the numbers stay whole (they
    were split over two lines, ``246.0`` / ``0``, below some 45 columns)."""
    import re

    monkeypatch.setenv("COLUMNS", "40")
    code, out, err = main_with(capsys, "simulate", "dominations", "--players",
                               "random,greedy,random,random", "-n", "2", "--seed", "1",
                               "--workers", "1", "--no-progress")  # fmt: skip
    assert code == 0, err
    table = out.split("Mean VP by source", 1)[1].split("Dominations,", 1)[0]
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines()
            if line.split() and line.split()[0] in ("mastery", "roles", "total")}
    assert len(rows) == 3
    assert all(len(v) == 4 and all(re.fullmatch(r"\d+\.\d\d", x) for x in v)
               for v in rows.values()), rows


def test_a_stopped_tournament_says_its_journal_keeps_the_games(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C on a tournament with a journal said only "interrupted", though the journal
    kept every batch played: it now says so, and that the same command goes on from
    them (as a full disk's message does). Without a journal, it says how to keep them."""
    import dominari.cli as cli

    real = cli.tournament
    done: list[int] = []

    def stopped(*args: Any, **kw: Any) -> Any:
        def progress(k: int) -> None:
            done.append(k)
            if sum(done) >= 8:
                raise KeyboardInterrupt

        kw["progress"] = progress
        return real(*args, **kw)

    monkeypatch.setattr(cli, "tournament", stopped)
    journal = tmp_path / "j.jsonl"
    argv = ["tournament", "dominion", "--players", "bm,bmu,smithy", "-n", "40", "--seed",
            "1", "--workers", "1", "--no-progress", "--kingdom", "first-game", "--journal",
            str(journal)]  # fmt: skip
    code, out, err = main_with(capsys, *argv)
    assert code == 130 and out == ""
    assert f"dominari: note: the journal {journal} keeps the games played so far: the same " \
        "command goes on from them" in err
    assert err.rstrip().endswith("dominari: interrupted")
    done.clear()
    code, out, err = main_with(capsys, *argv[:-2])  # without a journal: every game lost,
    assert code == 130 and out == ""  # and how not to lose them said
    assert "dominari: note: a tournament keeps the games it played only in a journal: run " \
        "with --journal FILE, and a stopped run goes on where it stopped" in err  # (--seed 1)
    monkeypatch.setattr(cli, "tournament", real)
    code, out, err = main_with(capsys, *argv, "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 120
    code, out, err = main_with(capsys, *argv[:-2])  # without a journal: no such note
    assert "journal" not in err


def test_a_number_too_long_to_read_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A seed of 5,001 digits is a whole number Python will not convert (past 4,300
    digits): it was called no whole number, all 5,001 digits repeated. A long value that
    is no number is cut."""
    base = ["simulate", "dominion", "--players", "bm,bmu", "-n", "2"]
    code, out, err = main_with(capsys, *base, "--seed", "7" * 5001)
    assert code == 2 and out == ""
    assert "argument --seed: a whole number of 5,001 digits is too long (at most 4,300)" in err
    code, out, err = main_with(capsys, *base, "--seed", "x" * 500)
    assert code == 2 and f"expected a whole number, not '{'x' * 39}…'" in err
    assert len(err) < 200
    for bad in ("+-5", "1__0", "_1", "7_", "--7"):  # short, and no whole number
        code, out, err = main_with(capsys, *base, f"--seed={bad}")
        assert code == 2 and f"expected a whole number, not {bad!r}" in err


def test_the_win_share_line_counts_a_shared_win_split_among_its_winners(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Where wins were shared, simulate and tournament print each player's win share (a
    win shared k ways counts 1/k), with its interval; with none shared, no such line."""
    from dominari.sim import simulate, tournament

    argv = ["dominion", "--players", "smithy,bm", "-n", "300", "--seed", "3", "--kingdom",
            "first-game", "--workers", "1", "--no-progress"]  # fmt: skip
    code, out, err = main_with(capsys, "simulate", *argv)
    assert code == 0, err
    r = simulate(["smithy", "bm"], 300, seed=3, workers=1, kingdom="first-game")
    assert r.players[0].ties > 0
    shares = ", ".join(f"{p.name} {100 * p.win_share:.1f} [{100 * p.win_share_ci95[0]:.1f}, "
                       f"{100 * p.win_share_ci95[1]:.1f}]" for p in r.players
                       if p.win_share_ci95 is not None)  # fmt: skip
    assert (f"{_SHARE_LINE}{shares}") in out
    code, out, err = main_with(capsys, "tournament", *argv)
    assert code == 0, err
    t = tournament(["smithy", "bm"], 300, 3, kingdom="first-game", workers=1)
    board = t.leaderboard
    assert f"{_SHARE_LINE}{board[0].name} {100 * board[0].win_share:.1f} [" in out
    code, out, err = main_with(capsys, "simulate", "dominations", "--players",
                               "greedy,random", "-n", "4", "--seed", "1", "--workers", "1",
                               "--no-progress")  # fmt: skip
    assert code == 0 and "win share" not in out  # initiative breaks every tie


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.rule("N-END-2", "N-SET-3")
def test_per_game_writes_each_games_result_as_its_record_has_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """N-END-2, N-SET-3: a tournament's ``--per-game`` writes each game's own result, a
    JSON line a game, match-up by match-up (as ``simulate`` has, for statistics the
    tables do not give, without reading thousands of records): who sat where, the scores,
    ranks, how it ended, its seed, turn order and kingdom (drawn per game). The same
    whatever the workers, after a stop and a journal's resumption too, and adding up to
    the summary."""
    from dominari.sim.tournament import tournament_game_seed, tournament_record_name

    args = ["tournament", "dominion", "--players", "bm,smithy,random", "-n", "6", "--seed",
            "2", "--no-progress"]  # fmt: skip
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    records = tmp_path / "records"
    code, out, err = run(capsys, *args, "--workers", "1", "--per-game", str(one),
                         "--record-dir", str(records), "--json")  # fmt: skip
    assert code == 0, err
    journal = tmp_path / "run.jsonl"
    code, _, err = run(capsys, *args, "--workers", "2", "--per-game", str(two), "--journal",
                       str(journal))  # fmt: skip
    assert code == 0, err
    assert one.read_bytes() == two.read_bytes()
    code, _, err = run(capsys, *args, "--workers", "2", "--per-game", str(two), "--journal",
                       str(journal))  # all the journal's: the same rows again
    assert code == 0, err
    assert one.read_bytes() == two.read_bytes()
    rows = _lines(one)
    matchups = [(0, 1), (0, 2), (1, 2)]
    assert [(r["matchup"], r["index"]) for r in rows] == [(m, j) for m in range(3)
                                                          for j in range(6)]  # fmt: skip
    names = ["BM", "Smithy", "random"]
    for r in rows:
        record = json.loads((records / tournament_record_name(r["matchup"], r["index"]))
                            .read_text(encoding="utf-8"))  # fmt: skip
        assert r["seed"] == record["config"]["seed"] == tournament_game_seed(
            2, matchups[r["matchup"]], r["index"])
        assert sorted(r["seating"]) == list(matchups[r["matchup"]])
        assert r["players"] == [names[e] for e in r["seating"]] == record["config"]["names"]
        assert r["scores"] == record["outcome"]["scores"]
        assert r["ranks"] == record["outcome"]["ranks"]
        assert r["ended"] == record["outcome"]["reason"]
        assert r["kingdom"] == record["kingdom"]
        assert sorted(r["turn_order"]) == [0, 1]
    summary = json.loads(out)
    for player in summary["players"]:
        e = player["entry"]
        seats = [(r, r["seating"].index(e)) for r in rows if e in r["seating"]]
        assert player["wins"] == sum(r["ranks"][p] == 1 and r["ranks"].count(1) == 1
                                     for r, p in seats)  # fmt: skip
        assert player["ties"] == sum(r["ranks"][p] == 1 and r["ranks"].count(1) > 1
                                     for r, p in seats)  # fmt: skip


def test_per_game_is_refused_where_another_file_is_named_and_left_when_stopped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``--per-game`` file that is the journal, the chart or the records folder, or a
    file in that folder, or another kind of file, is refused before any game; a run that
    fails or is stopped leaves the file as it was."""
    from dominari.sim.records import LinesFile

    journal, games = tmp_path / "run.jsonl", tmp_path / "games.jsonl"
    for flag, path in (("--journal", journal), ("--plot", tmp_path / "x.png"),
                       ("--record-dir", tmp_path / "recs")):  # fmt: skip
        code, out, err = run(capsys, *BASE, "-n", "2", flag, str(path), "--per-game",
                             str(path))  # fmt: skip
        assert (code, out) == (2, "")
        assert err == f"dominari: error: --per-game and {flag} both name {str(path)!r}\n"
    records = tmp_path / "recs"
    for name in ("tournament.json", "matchup-001-game-000001.json", "mine.jsonl",
                 "sub/mine.jsonl"):
        inside = records / name  # the index replaced, a record's temporary file removed …
        code, out, err = run(capsys, *BASE, "-n", "2", "--record-dir", str(records),
                             "--per-game", str(inside))  # fmt: skip
        assert (code, out) == (2, "")
        assert err == (f"dominari: error: --per-game {str(inside)!r} is in the --record-dir "
                       f"folder {str(records)!r}, which holds the run's records and nothing "
                       "else: give a file elsewhere\n")
    assert not records.exists()
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n", encoding="utf-8")
    code, out, err = run(capsys, *BASE, "-n", "2", "--per-game", str(notes))
    assert (code, out) == (2, "") and "is already there and is not a file of games" in err
    code, _, err = run(capsys, *BASE, "-n", "2", "--per-game", str(games))
    assert code == 0, err
    kept = games.read_bytes()

    def stop(self: LinesFile, value: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LinesFile, "write", stop)
    code, _, _ = run(capsys, *BASE, "-n", "3", "--per-game", str(games))
    assert code == 130 and games.read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "notes.txt"]


def test_by_card_gives_each_players_table_and_is_refused_where_it_cannot_be(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--by-card`` adds a table a player, best first, of its win rate in its games with
    each Kingdom card and without it, with both differences and a note; the JSON has them
    too. A kingdom the same in every game is refused at once."""
    args = ["tournament", "dominion", "--players", "witch,smithy,bmu", "-n", "10", "--seed",
            "2", "--workers", "1", "--no-progress", "--by-card"]  # fmt: skip
    monkeypatch.setenv("COLUMNS", "160")  # the tables whole, not stacked
    code, out, err = run(capsys, *args)
    assert code == 0, err
    titles = [line for line in out.splitlines()
              if line.endswith(": win % with each Kingdom card, and without it")]
    board = [line.split()[1] for line in out.splitlines()
             if line[:3].strip().isdigit() and "±" in line]  # the leaderboard, best first
    assert [t.split(":")[0] for t in titles] == board and len(board) == 3
    assert "With [95% CI]" in out and "Δ alike [95% CI]" in out
    note = " ".join(out.split())
    assert "Δ alike: the same among games of one match-up alike in the cards the strategies " \
        "at its table buy (here Smithy, Witch; match-up by match-up in --json), so that" in note
    assert "best" not in note  # (it said "and the rule bot best played there" without best)
    assert "About one card in 20 shows a difference that looks significant at 95% by chance " \
        "alone: some 3.6 of the 73 differences of 3 tables." in note and "no row" not in note
    # one note for the players whose cards some kingdoms lack, not a line each
    assert err.count("dominari: note: ") == 1, err
    assert "dominari: note: Witch buys Witch (in 40% of kingdoms); Smithy buys Smithy (in " \
        "40% of kingdoms); kingdom random, a new one drawn per game: each plays without " \
        "its cards where the kingdom lacks them; the results by card below compare the " \
        "games with and without them" in " ".join(err.split())
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert sum((c["adjusted"] or {}).get("ci95") is not None  # the note's 73, recounted
               for p in data["by_card"] for c in p["cards"]) == 73
    assert [p["name"] for p in data["by_card"]] == [p["name"] for p in data["players"]]
    assert all(len(p["cards"]) == 25 for p in data["by_card"])  # 20 kingdoms each: all dealt
    # the cards games are alike in, match-up by match-up, as the match-ups are listed
    tables = [m["players"] for m in data["matchups"]]
    assert tables == [["Witch", "Smithy"], ["Witch", "BMU"], ["Smithy", "BMU"]]
    assert data["by_card_key_cards"] == [["Smithy", "Witch"], ["Witch"], ["Smithy"]]
    assert data["by_card_key_played_as"] == [False, False, False]
    _, out, err = run(capsys, *args[:3], "best,bmu", *args[4:])
    note = " ".join(out.split())
    assert "Δ alike: the same among games of one match-up alike in the rule bot best played " \
        "there, so that" in note, note[-1200:]
    _, raw, _ = run(capsys, *args[:3], "best,bmu", *args[4:], "--json")
    data = json.loads(raw)
    assert (data["by_card_key_cards"], data["by_card_key_played_as"]) == ([[]], [True])
    _, out, _ = run(capsys, *args[:3], "random,bmu", *args[4:])
    assert "Δ alike: no rule bot here buys Kingdom cards, so it is Δ among games of one " \
        "match-up" in " ".join(out.split())
    # few games: a card in no game has no row anywhere, and a player's table lacks the
    # cards of the games it did not play (the review found one count for all the tables)
    _, out, _ = run(capsys, *args[:3], "bm,smithy,witch", *args[4:5], "2", "--seed", "3",
                    *args[8:])
    note = " ".join(out.split())
    assert "(Mee's). Feast was in no game: no row. Witch had no game with " \
        "Adventurer, Cellar and Village: no row there. Smithy had no game with Gardens: no " \
        "row there. BM had no game with Council Room, Moneylender and Throne Room: no row " \
        "there." in note, note[-700:]
    _, raw, _ = run(capsys, *args[:3], "mcts-easy,bmu", *args[4:5], "2", *args[6:], "--json")
    data = json.loads(raw)  # no games alike: none said to be (as simulate's then)
    assert data["by_card_unadjusted"]
    assert (data["by_card_key_cards"], data["by_card_key_played_as"]) == ([[]], [False])
    code, out, err = run(capsys, *args, "--kingdom", "first-game")
    assert (code, out) == (2, "") and err.startswith(
        "dominari: error: --by-card: results by Kingdom card need kingdoms that differ "
        "between games"), err  # (a Dominations tournament's: test_tournament_masteries)


def test_games_stopped_by_the_turn_limit_are_said_with_the_limit(
        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """As ``simulate`` does, a tournament names the flag whose limit stopped its games."""
    code, out, err = run(capsys, "tournament", "dominion", "--players", "bm,bmu", "-n", "4",
                         "--seed", "1", "--max-turns", "5", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert "4 games stopped by the turn limit (--max-turns 5) and scored as they stood" in out
    code, out, err = run(capsys, "tournament", "dominion", "--players", "bm,bmu", "-n", "4",
                         "--seed", "1", "--no-progress")  # fmt: skip
    assert code == 0 and "stopped by the turn limit" not in out


def test_the_footer_says_what_ties_sigma_and_the_head_to_head_cells_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The organiser's and the statistician's audits: what Ties counts was said only in
    the README; a head-to-head cell and the one across it leave out equal places without
    a word; and σ reads as a margin of error, which it is not (a μ moved by up to 2.5 σ
    with another seed). N-END-2: equal VP and turns share the place."""
    code, out, err = run(capsys, *BASE, "-n", "4", "--seats", "3")
    assert code == 0, err
    text = " ".join(out.split())
    assert "Ties: games whose first place was shared (equal VP and turns); a tie for a " \
        "lower place counts as neither" in text
    assert "a cell and the one across it add up to 100 less the games of an equal place" \
        in text
    assert "σ is the model's uncertainty, not a margin of error" in text
    code, out, err = run(capsys, *BASE, "-n", "2")
    text = " ".join(out.split())
    assert "Ties: games whose first place was shared (equal VP and turns)" in text
    assert "lower place" not in text and "less the games of a shared win" in text
    code, raw, err = run(capsys, *BASE, "-n", "2", "--json")
    model = json.loads(raw)["rating_model"]
    assert model["note"].startswith("σ is the model's uncertainty, not a margin of error")
    assert model["order"].startswith("game by game in rounds")
