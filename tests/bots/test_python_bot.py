"""Bots of your own in Python (``FILE.py:NAME``): loaded wherever a bot is named, played in
workers, checked by journals and records as strategy files are, and refused with one line
saying what is wrong with the file (the bot-author audit found no way to measure a Python
bot with ``simulate`` or ``tournament``)."""

from __future__ import annotations

import functools
import json
import os
import random
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

from dominari.bots import load_bot
from dominari.bots.python_bot import python_spec
from dominari.cli import main
from dominari.core.errors import ConfigError, StrategyError
from dominari.dominion.engine import DominionState
from dominari.envs.versus import dominion_versus
from dominari.sim import simulate
from dominari.sim.seats import rerun
from dominari.sim.tournament import tournament

WRAPPED = '''
"""Big Money by another name: the built-in bm's every decision."""
from dominari.bots import load_bot


class Wrapped:
    def __init__(self):
        self.name = "Mine"
        self.inner = load_bot("bm")

    def reset(self, seed):
        self.inner.reset(seed)

    def act(self, state):
        return self.inner.act(state)


def make():
    return Wrapped()


class Outer:
    @staticmethod
    def make():
        return Wrapped()
'''


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(WRAPPED, encoding="utf-8")
    return path


def test_a_python_bot_loads_by_its_file_and_name(mine: Path) -> None:
    for name in ("Wrapped", "make", "Outer.make"):
        bot = load_bot(f"{mine}:{name}")
        assert bot.name == "Mine"
        assert type(bot).__name__ == "Wrapped"
    assert load_bot(f"{mine}:Wrapped") is not load_bot(f"{mine}:Wrapped")  # one a seat
    assert load_bot(f" {mine}:make ", "dominations").name == "Mine"
    assert python_spec(f"{mine}:make") == (str(mine), "make")


def test_a_python_bot_plays_as_the_bot_it_wraps_in_simulate_and_tournament(mine: Path) -> None:
    """The same games as the built-in bot it plays by, seat for seat, with one worker or
    two (each worker loads the file itself)."""
    spec = f"{mine}:Wrapped"
    ref = simulate(["bm", "smithy"], 12, 5, kingdom="first-game", workers=1)
    for workers in (1, 2):
        got = simulate([spec, "smithy"], 12, 5, kingdom="first-game", workers=workers)
        assert [p.wins for p in got.players] == [p.wins for p in ref.players]
        assert [p.total_vp for p in got.players] == [p.total_vp for p in ref.players]
        assert got.players[0].name == "Mine"
        assert got.to_json()["players"][0]["spec"] == spec
    t = tournament([spec, "bm", "smithy"], 4, 3, kingdom="first-game", workers=2)
    names = [p.name for p in t.players]
    assert "Mine" in names and "BM" in names


def test_records_name_the_file_and_replay_from_anywhere(mine: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(mine.parent)
    records = tmp_path / "records"
    simulate(["mine.py:Wrapped", "bm"], 2, 7, kingdom="first-game", record_dir=records)
    record = json.loads(sorted(records.iterdir())[0].read_text("utf-8"))
    seat = record["seats"][0]
    assert seat["bot"] == "mine.py:Wrapped" and seat["file"] == str(mine.resolve())
    assert list(seat["files"]) == [str(mine.resolve())]
    monkeypatch.chdir(tmp_path.parent)  # the record names the file by its full path
    done = rerun(record, DominionState.from_record(record, upto=0))
    assert done.made and done.compared > 0
    mine.write_text(WRAPPED + "\n# edited\n", encoding="utf-8")
    with pytest.raises(Exception, match="has changed since"):
        rerun(record, DominionState.from_record(record, upto=0))


def test_a_journal_plays_an_edited_bot_files_games_again(mine: Path, tmp_path: Path) -> None:
    """An edited file's match-ups are played again with the file as it is (the classroom
    audit: one student's mended bot meant the whole tournament again); the others are read
    back, and the records of the games played again are written again."""
    journal, records = tmp_path / "j.jsonl", tmp_path / "records"
    spec = f"{mine}:Wrapped"
    players = [spec, "bm", "smithy"]
    first = tournament(players, 2, 7, kingdom="first-game", journal=journal,
                       record_dir=records)  # fmt: skip
    again = tournament(players, 2, 7, kingdom="first-game", journal=journal,
                       record_dir=records)  # fmt: skip
    assert again.to_json() == first.to_json() and again.reused == 6  # read back
    mine.write_text(WRAPPED.replace("load_bot(\"bm\")", "load_bot(\"smithy\")"),
                    encoding="utf-8")
    mended = tournament(players, 2, 7, kingdom="first-game", journal=journal,
                        record_dir=records)  # fmt: skip
    assert (mended.reused, mended.dropped, mended.files_changed) == (2, 4, ("Mine",))
    fresh = tournament(players, 2, 7, kingdom="first-game")
    assert mended.to_json() == fresh.to_json() != first.to_json()
    for name in ("matchup-001-game-000001.json", "matchup-002-game-000002.json"):
        record = json.loads((records / name).read_text("utf-8"))
        assert rerun(record, DominionState.from_record(record, upto=0)).made  # the new file's


def test_an_edited_file_is_loaded_anew(mine: Path) -> None:
    first = load_bot(f"{mine}:Wrapped")
    mine.write_text(WRAPPED.replace('self.name = "Mine"', 'self.name = "Mine2"'),
                    encoding="utf-8")
    second = load_bot(f"{mine}:Wrapped")
    assert (first.name, second.name) == ("Mine", "Mine2")


@pytest.mark.parametrize(("source", "name", "words"), [
    (WRAPPED, "", r"name the class or function of the file that makes the bot, as "
                  r"FILE\.py:NAME"),
    (WRAPPED, "Nope", r"mine\.py has no 'Nope'"),
    ("X = 3\n", "X", r"X is a int, not a class or function that makes a bot"),
    ("def make():\n    return object()\n", "make",
     r"make\(\) made a object, which lacks a name \(a string\) and act\(\) and reset\(\): a "
     r"bot has a name, reset\(seed\) and act\(state\)"),
    ("class B:\n    name = 'b'\n    def act(self, s):\n        pass\n", "B",
     r"B\(\) made a B, which lacks reset\(\)"),
    ("x = 1\ny = undefined + 1\n", "X",
     r"mine\.py cannot be run: line 2: NameError: name 'undefined' is not defined"),
    ("def f(:\n", "f", r"mine\.py line 1: SyntaxError: "),
    ("def make():\n    raise RuntimeError('no network')\n", "make",
     r"make\(\) failed: line 2: RuntimeError: no network"),
])
def test_a_bad_bot_file_is_refused_in_one_line(tmp_path: Path, source: str, name: str,
                                                words: str) -> None:
    path = tmp_path / "mine.py"
    path.write_text(source, encoding="utf-8")
    spec = f"{path}:{name}" if name else str(path)
    with pytest.raises(StrategyError, match=words) as caught:
        load_bot(spec)
    assert "\n" not in str(caught.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(StrategyError, match=r"cannot read .*nowhere\.py: No such file"):
        load_bot(f"{tmp_path / 'nowhere.py'}:Bot")


def test_the_command_line_takes_python_bots(mine: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(mine.parent)
    code = main(["simulate", "dominion", "--players", "mine.py:make,smithy", "-n", "6",
                 "--seed", "1", "--workers", "1", "--kingdom", "first-game", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [p["name"] for p in json.loads(out)["players"]] == ["Mine", "Smithy"]
    code = main(["simulate", "dominion", "--players", "mine.py:Nope,smithy", "-n", "6"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err == "dominari: error: bot 'mine.py:Nope': mine.py has no 'Nope'\n"
    # a file that would be written over the bot's file is refused
    code = main(["simulate", "dominion", "--players", "mine.py:make,smithy", "-n", "2",
                 "--per-game", "mine.py"])
    out, err = capsys.readouterr()
    assert code == 2 and "mine.py" in err
    assert "class Wrapped" in mine.read_text(encoding="utf-8")


def test_a_learning_environment_takes_a_python_bot_as_its_opponent(mine: Path) -> None:
    """An episode against it is the episode against the bot it plays by."""
    histories = []
    for opponent in (f"{mine}:Wrapped", "bm"):
        env = dominion_versus(opponents=[opponent], kingdom="first-game", seat=0)
        me = load_bot("smithy")
        env.reset(seed=3)
        me.reset(4)
        done = False
        while not done:
            for index in env.aec.action_indices(me.act(env.game)):
                _, _, terminated, truncated, _ = env.step(index)
                done = terminated or truncated
        histories.append(list(env.game.history))
    assert histories[0] == histories[1] and histories[0]


def test_the_server_never_loads_a_python_file(mine: Path) -> None:
    from dominari.server.bots import check_bot

    with pytest.raises(ConfigError, match="unknown dominion bot"):
        check_bot("dominion", f"{mine}:Wrapped")
    assert os.path.exists(mine)


def test_the_bot_file_docstring_example(tmp_path: Path) -> None:
    """The README's example bot file works as written."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("```python\n# my_bot.py")
    code = textwrap.dedent(readme[start + len("```python\n"):readme.index("```", start + 10)])
    path = tmp_path / "my_bot.py"
    path.write_text(code, encoding="utf-8")
    result = simulate([f"{path}:FirstLegal", "bm"], 2, 1, kingdom="first-game", workers=1)
    assert result.players[0].name == "first-legal"


def test_a_file_whose_name_holds_a_comma_is_named_as_such(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit: ``--players my,strat.toml,bm`` said "unknown bot 'my'"; the comma
    separates the players, so such a file cannot be named there, and the message says so."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my,strat.toml").write_text('[[buy]]\ncard = "Gold"\n', encoding="utf-8")
    code = main(["simulate", "dominion", "--players", "my,strat.toml,bm", "-n", "2"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err == ("dominari: error: --players: 'my,strat.toml' is a file whose name holds a "
                   "comma, which separates the players: rename the file\n")


def test_a_search_option_naming_a_python_file_is_the_searchs_to_refuse(mine: Path) -> None:
    """The review: ``mcts:own=mine.py:Wrapped`` was read as a Python bot's spec, and said
    "cannot read mcts:own=mine.py"; a search's spec is the search's to refuse."""
    with pytest.raises(ConfigError, match="'wrapped' is not option=value"):
        load_bot(f"mcts:own={mine}:Wrapped")


def test_a_worker_lost_with_a_bot_of_ones_own_is_the_requests_to_answer(
        mine: Path) -> None:
    """The review: a Python bot that ends its worker (``os._exit``) ended the run with
    status 1, "the same command may work elsewhere or later", which it will not. A task
    lost where a bot of one's own plays is a plain PoolError (status 2) that names it; a
    run of built-in bots keeps WorkersLost (status 1)."""
    from dominari.cli import EXIT_FAILED, EXIT_USAGE, _status_of
    from dominari.sim import pool
    from dominari.sim.runner import Chunk, game_options

    options = game_options("dominion", kingdom="first-game")
    ours = Chunk((f"{mine}:Wrapped", "bm"), ("Mine", "BM"), options, 1, 0, 5)
    theirs = Chunk(("bmu", "bm"), ("BMU", "BM"), options, 1, 0, 5)
    for task, kind, status in ((ours, pool.PoolError, EXIT_USAGE),
                               (theirs, pool.WorkersLost, EXIT_FAILED)):
        with pytest.raises(pool.PoolError) as lost:
            pool._Results([task], lambda k, v: None, 0).charge(0, "its worker process died")
        assert type(lost.value) is kind and _status_of(lost.value) == status
    with pytest.raises(pool.PoolError, match=r"a bot of your own plays there \(.*mine\.py:"
                                             r"Wrapped\): it may be what ended or stopped "
                                             r"its worker$"):
        pool._Results([ours], lambda k, v: None, 0).charge(0, "its worker process died")


def _bot_file(path: Path, body: str, name: str = "Bot") -> str:
    """Write a bot class ``name`` whose ``act`` runs ``body`` (with ``state``) and then plays
    the first legal action; its spec."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(f'''
        class {name}:
            name = "{name}"

            def reset(self, seed):
                self.turns = 0

            def act(self, state):
                self.turns += 1
        ''') + textwrap.indent(textwrap.dedent(body), " " * 8)
        + "        return state.legal_actions()[0]\n", encoding="utf-8")
    return f"{path}:{name}"


def test_two_students_helpers_of_one_name_are_each_their_own(tmp_path: Path) -> None:
    """Modules beside a bot file import, as beside a script (the review found they did not
    at first), and each bot file gets its own: in the classroom audit dan/bot.py and
    eve/bot.py each imported the utils.py beside them, and the first loaded was the one
    both got."""
    specs = []
    for who in ("dan", "eve"):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "utils.py").write_text(f"OWNER = {who!r}\n", encoding="utf-8")
        (folder / "bot.py").write_text(textwrap.dedent('''
            import utils


            class Bot:
                name = utils.OWNER

                def reset(self, seed):
                    pass

                def act(self, state):
                    assert utils.OWNER == self.name
                    return state.legal_actions()[0]
        '''), encoding="utf-8")
        specs.append(f"{folder / 'bot.py'}:Bot")
    assert [load_bot(s).name for s in specs] == ["dan", "eve"]
    result = tournament([*specs, "bm"], 1, 1, kingdom="first-game", max_turns=3, workers=1)
    assert sorted(p.name for p in result.players) == ["BM", "dan", "eve"]


def test_a_helper_named_as_a_loaded_module_is_refused(tmp_path: Path) -> None:
    (tmp_path / "json.py").write_text("MINE = True\n", encoding="utf-8")
    spec = tmp_path / "bot.py"
    spec.write_text("import json\n\nclass Bot:\n    name = 'b'\n", encoding="utf-8")
    with pytest.raises(StrategyError, match=r"it imports json, and .*json\.py is not the json "
                                            r"it got .*rename json\.py"):
        load_bot(f"{spec}:Bot")


@pytest.mark.parametrize(("body", "words"), [
    ("if self.turns == 3:\n    raise KeyError('duchy')\n",
     r"stopped while bot 'Bot' \(seat \d, Bot#\d: .*carol\.py:Bot\) was deciding: "
     r"KeyError: 'duchy' \(.*carol\.py line 11\)"),
    ("state.copy().apply(state.parse_action('buy Province'))\n",  # an engine error in a
     r"was deciding: IllegalActionError: .+ \(.*carol\.py line 10\)"),  # look-ahead
    ("if self.turns == 3:\n    import sys\n    sys.exit(3)\n",  # the bot's own stops,
     r"was deciding: SystemExit: 3 \(.*carol\.py line 12\)"),  # not Exceptions
    ("if self.turns == 3:\n    raise type('Odd', (BaseException,), {})()\n",
     r"was deciding: Odd \(.*carol\.py line 11\)$"),
    ("state.apply(state.legal_actions()[0])\n",
     r"bot 'Bot' \(seat \d, Bot#\d: .*carol\.py:Bot\) changed the game's state while "
     r"deciding, in the game with seed \d+: a bot reads the state it is given and works on "
     r"state\.copy\(\)"),
])
def test_a_failing_bot_is_named_with_its_game_file_and_line(tmp_path: Path, body: str,
                                                             words: str) -> None:
    """The classroom audit: a student's bot that failed mid-tournament was named by its
    bare name ("bot 'Bot'", two students' bots having it) with no match-up, game or line;
    an engine error it met in a look-ahead of its own named no bot at all, and a bot that
    played on the state it was given went unseen until its record would not replay."""
    good = _bot_file(tmp_path / "alice.py", "")
    bad = _bot_file(tmp_path / "carol.py", body)
    with pytest.raises(Exception) as caught:
        tournament([good, bad], 2, 1, kingdom="first-game", workers=1)
    text = str(caught.value)
    assert re.search(r"^game \d of match-up 1 \(Bot#1 vs Bot#2\): ", text), text
    assert re.search(words, text), text
    with pytest.raises(Exception) as caught:
        simulate([bad, "bm"], 2, 1, kingdom="first-game", workers=1)
    assert re.search(r"^game \d of the simulation: ", str(caught.value)), caught.value


def test_a_bot_failing_in_reset_is_named(tmp_path: Path) -> None:
    path = tmp_path / "reset.py"
    path.write_text("class Bot:\n    name = 'r'\n\n    def reset(self, seed):\n"
                    "        self.rng = random.Random(seed)\n\n    def act(self, state):\n"
                    "        return state.legal_actions()[0]\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"^game 1 of the simulation: bot 'r' \(seat 1, r: "
                                        r".*reset\.py:Bot\) failed in reset\(\d+\): NameError: "
                                        r"name 'random' is not defined \(.*reset\.py line 5\)$"):
        simulate([f"{path}:Bot", "bm"], 1, 1, workers=1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_calling_sys_exit_is_named_not_the_runs_end(tmp_path: Path, workers: int,
                                                          capsys: pytest.CaptureFixture[str],
                                                          ) -> None:  # fmt: skip
    """A bot file's ``sys.exit()`` (or an exception of its own deriving from
    ``BaseException``) ended ``dominari simulate`` with its status and no word, in this
    process; in a worker it printed a traceback. It is the bot's error now, as any other;
    in ``reset`` too."""
    bad = _bot_file(tmp_path / "quits.py", "if self.turns == 2:\n    raise SystemExit\n")
    assert main(["simulate", "dominion", "--players", f"{bad},bm", "-n", "4", "--seed", "1",
                 "--workers", str(workers)]) == 2
    err = capsys.readouterr().err
    # (with two workers, the first failed game to arrive is named: game 1 or 2, each
    # in a worker of its own, both failing; see the runner's note on it)
    game = "1" if workers == 1 else "[12]"
    assert re.search(rf"^dominari: error: game {game} of the simulation: the game with seed "
                     r"\d+ stopped while bot 'Bot' \(seat 1, Bot: .*quits\.py:Bot\) was "
                     r"deciding: SystemExit \(.*quits\.py line 11\)$", err, re.M), err
    assert "Traceback" not in err
    path = tmp_path / "reset.py"
    path.write_text("import sys\n\nclass Bot:\n    name = 'r'\n\n    def reset(self, seed):\n"
                    "        sys.exit('no')\n\n    def act(self, state):\n"
                    "        return state.legal_actions()[0]\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"^game 1 of the simulation: bot 'r' \(seat 1, r: "
                                        r".*reset\.py:Bot\) stopped in reset\(\d+\): "
                                        r"SystemExit: no \(.*reset\.py line 7\)$"):
        simulate([f"{path}:Bot", "bm"], 1, 1, workers=workers)


def test_a_stop_from_outside_during_a_bots_decision_stays_a_stop(tmp_path: Path) -> None:
    """Ctrl-C, and a signal whose handler raises (the command line's SIGTERM, Ray's), are
    stops of the run even as a bot of one's own decides: not its error."""
    import signal

    from dominari.dominion.engine import DominionConfig
    from dominari.sim.runner import ask_bot, play_game

    def state() -> DominionState:
        return DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))

    ctrl_c = load_bot(_bot_file(tmp_path / "cc.py", "raise KeyboardInterrupt\n"))
    ctrl_c.reset(1)
    with pytest.raises(KeyboardInterrupt):
        play_game([ctrl_c, load_bot("bm")], state())

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    def tagged(tag: str, signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    class Handler:
        def __call__(self, signum: int, frame: object) -> None:
            raise SystemExit(128 + signum)

    def once(signum: int, frame: object) -> None:  # gone before the stop is looked at
        signal.signal(signum, signal.SIG_DFL)
        raise SystemExit(128 + signum)

    killed = load_bot(_bot_file(tmp_path / "sig.py", "import os, signal\n"
                                "os.kill(os.getpid(), signal.SIGUSR1)\n"))  # fmt: skip
    killed.reset(1)
    old = signal.getsignal(signal.SIGUSR1)
    try:  # (the review found the three last taken for the bot's error)
        for each in (handler, functools.partial(tagged, "x"), Handler(), once):
            for call in (lambda: play_game([killed, load_bot("bm")], state()),
                         lambda: ask_bot(killed, state(), "bot 'Bot' (seat 1)")):
                signal.signal(signal.SIGUSR1, each)
                with pytest.raises(SystemExit) as caught:
                    call()
                assert caught.value.code == 128 + signal.SIGUSR1, each
    finally:
        signal.signal(signal.SIGUSR1, old)


def test_every_bad_file_is_said_at_once(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f(:\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("X = 1\n", encoding="utf-8")
    with pytest.raises(StrategyError, match=r"^3 bots cannot be loaded: bot '.*a\.py:A': .*a\.py "
                                            r"line 1: SyntaxError: .*; bot '.*b\.py:B': .*b\.py "
                                            r"has no 'B'; unknown bot 'nobody'"):
        simulate([f"{tmp_path / 'a.py'}:A", f"{tmp_path / 'b.py'}:B", "nobody"], 1, 1)


def test_a_journal_kept_after_a_bot_failed_says_how_to_go_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _bot_file(tmp_path / "late.py", "if self.turns == 12:\n    raise ValueError('late')\n")
    code = main(["tournament", "dominion", "--players", "bm,smithy,late.py:Bot", "-n", "2",
                 "--seed", "1", "--workers", "1", "--journal", "j.jsonl", "--no-progress"])
    _, err = capsys.readouterr()
    assert code == 2
    assert "ValueError: late (late.py line 11)" in err
    assert "the journal j.jsonl keeps the games played so far; once the bot's file is " \
           "mended, the same command goes on from them, playing the match-ups of the " \
           "players whose files changed again" in " ".join(err.split())
    # mended: the same command goes on, playing only the mended bot's match-ups again
    _bot_file(tmp_path / "late.py", "")
    code = main(["tournament", "dominion", "--players", "bm,smithy,late.py:Bot", "-n", "2",
                 "--seed", "1", "--workers", "1", "--journal", "j.jsonl", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "note: the files of Bot have changed since the journal j.jsonl was written: it " \
           "held no game of its match-ups" in " ".join(err.split()), err
    assert "more read from the journal" in out


def test_replay_runs_only_a_bot_file_the_record_vouches_for(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record may come from anyone, and ``replay --bots`` runs the files its Python bots
    name: only one whose SHA-256 the record gives (and that is as it was), never a
    library's file (Python's own, an installed package's)."""
    records = tmp_path / "records"
    simulate([f"{mine}:Wrapped", "bm"], 1, 7, kingdom="first-game", record_dir=records)
    path = sorted(records.iterdir())[0]
    record = json.loads(path.read_text("utf-8"))
    assert main(["replay", str(path), "--bots"]) == 0
    capsys.readouterr()
    for seat, words in (
            ({k: v for k, v in record["seats"][0].items() if k != "files"},
             "does not name its file with the file's SHA-256"),
            ({**record["seats"][0], "bot": f"{json.__file__}:dumps", "file": json.__file__,
              "files": {json.__file__: "0" * 64}},
             "a file of a library, not a bot of anyone's own")):
        forged = tmp_path / "forged.json"
        forged.write_text(json.dumps({**record, "seats": [seat, record["seats"][1]]}),
                          encoding="utf-8")
        assert main(["replay", str(forged), "--bots"]) == 2
        assert words in capsys.readouterr().err


def test_a_bot_beside_an_environment_leaves_its_modules_loaded(tmp_path: Path) -> None:
    """The review: a bot at a project's root, beside its ``.venv``, had every module first
    imported while it loaded taken out of ``sys.modules`` (numpy among them: "cannot load
    module more than once"). Only the modules directly beside the file are its own."""
    import sys

    deep = tmp_path / ".venv" / "site"
    deep.mkdir(parents=True)
    (deep / "deeplib_for_test.py").write_text("VALUE = 7\n", encoding="utf-8")
    sys.path.append(str(deep))
    try:
        path = tmp_path / "np_bot.py"
        spec = _bot_file(path, "", "Bot")
        path.write_text("import deeplib_for_test\n" + path.read_text("utf-8"), "utf-8")
        load_bot(spec)
        assert sys.modules["deeplib_for_test"].VALUE == 7  # still loaded, once
    finally:
        sys.path.remove(str(deep))
        sys.modules.pop("deeplib_for_test", None)


def test_a_bots_helper_classes_pickle_and_a_file_may_share_a_modules_name(
        tmp_path: Path) -> None:
    """The review: instances of a helper module's classes no longer pickled (the helper
    was taken out of ``sys.modules``), and a bot file named ``random.py`` importing
    ``random`` was refused as if it were a helper of that name."""
    import pickle

    folder = tmp_path / "pk"
    folder.mkdir()
    (folder / "plan_helper_for_test.py").write_text(
        "class Plan:\n    def __init__(self):\n        self.steps = [1, 2]\n", encoding="utf-8")
    (folder / "random.py").write_text(textwrap.dedent('''
        import random

        import plan_helper_for_test


        class Bot:
            name = "planner"

            def __init__(self):
                self.plan = plan_helper_for_test.Plan()
                self.rng = random.Random(1)

            def reset(self, seed):
                self.rng.seed(seed)

            def act(self, state):
                return state.legal_actions()[0]
    '''), encoding="utf-8")
    bot = load_bot(f"{folder / 'random.py'}:Bot")
    assert pickle.loads(pickle.dumps(bot)).plan.steps == [1, 2]


def test_from_a_module_of_the_helpers_name_loaded_before_is_refused(tmp_path: Path) -> None:
    """``from json import dumps`` with a json.py beside the bot gets Python's json: refused
    as ``import json`` is (the review found only the latter checked)."""
    (tmp_path / "json.py").write_text("def dumps(x):\n    return 'mine'\n", encoding="utf-8")
    path = tmp_path / "bot2.py"
    spec = _bot_file(path, "")
    path.write_text("from json import dumps\n" + path.read_text("utf-8"), "utf-8")
    with pytest.raises(StrategyError, match=r"it imports json, .*rename json\.py"):
        load_bot(spec)


def test_a_library_beside_nothing_is_not_named_as_the_bots_line(tmp_path: Path) -> None:
    """The review: an error raised in a library on the path (not Dominari's, not Python's)
    was named at the library's line; the bot's own file comes first."""
    import sys

    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "extlib_for_test.py").write_text("def boom():\n    raise ValueError('x')\n",
                                             encoding="utf-8")
    sys.path.append(str(lib))
    try:
        spec = _bot_file(tmp_path / "bots" / "uses.py",
                         "import extlib_for_test\nextlib_for_test.boom()\n")
        with pytest.raises(Exception, match=r"ValueError: x \(.*uses\.py line 11\)$"):
            simulate([spec, "bm"], 1, 1, workers=1)
    finally:
        sys.path.remove(str(lib))
        sys.modules.pop("extlib_for_test", None)


def test_a_bad_spec_given_twice_is_said_once(tmp_path: Path) -> None:
    with pytest.raises(StrategyError) as caught:
        simulate([f"{tmp_path / 'none.py'}:X", f"{tmp_path / 'none.py'}:X"], 1, 1)
    assert str(caught.value).count("cannot read") == 1
    assert not str(caught.value).startswith("2 bots")


def test_a_learning_environment_stops_an_opponent_that_plays_on_its_state(
        tmp_path: Path) -> None:
    """The review: the history check was play_game's only; an opponent in VersusEnv that
    applied a move itself played two a turn, unseen."""
    from dominari.sim.runner import BotError

    spec = _bot_file(tmp_path / "cheat.py", "state.apply(state.legal_actions()[0])\n")
    env = dominion_versus(opponents=[spec], kingdom="first-game", seat=1)
    with pytest.raises(BotError, match=r"changed the game's state while deciding"):
        env.reset(seed=3)  # the opponent begins
        for _ in range(200):
            env.step(int(np.flatnonzero(env.action_masks())[0]))


DICE_BOTS = textwrap.dedent("""
    import copy
    import pickle
    import random

    class Dice:
        name = "dice"
        def reset(self, seed):
            pass
        def act(self, state):
            return state.rng.choice(state.legal_actions())

    class Copier:
        name = "copier"
        def reset(self, seed):
            self.rng = random.Random(seed)
            self.deep = True
        def act(self, state):
            world = state.copy()  # (clones the game's generator: allowed)
            world.rng.random()
            if self.deep:  # a deep copy's and a pickle's are their own too (once a game)
                self.deep = False
                copy.deepcopy(state).rng.random()
                pickle.loads(pickle.dumps(state)).rng.random()
            return self.rng.choice(state.legal_actions())
""")


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_a_bot_of_ones_own_may_not_draw_from_the_games_generator(
        tmp_path: Path, game: str) -> None:
    """The library user's audit: a bot that drew from ``state.rng`` dealt the game other
    cards unseen, and every record of the run failed to replay. Now it is stopped, naming
    the bot and its line; a copy's generator (``state.copy()``) is its own to draw from,
    and the game's is the same after each decision (its records replay)."""
    from dominari.sim.runner import BotError, ask_bot, game_options

    path = tmp_path / "dice.py"
    path.write_text(DICE_BOTS)
    other = "bm" if game == "dominion" else "greedy"
    options: dict[str, object] = {"kingdom": "first-game"} if game == "dominion" else {}
    with pytest.raises(BotError, match=r"bot 'dice' .* was deciding: DrewGameDice: it drew "
                       r"from the game's own random numbers \(state\.rng\).*dice\.py line 11"):
        simulate([f"{path}:Dice", other], 1, seed=1, workers=1, game=game, **options)  # type: ignore[arg-type]
    records = tmp_path / "records"
    simulate([f"{path}:Copier", other], 2, seed=1, workers=1, game=game,
             record_dir=records, **options)  # type: ignore[arg-type]
    for record in sorted(records.glob("game-*.json")):
        assert main(["replay", str(record), "--upto", "1"]) == 0
    bot = load_bot(f"{path}:Dice", game)
    bot.reset(1)
    state = game_options(game, **options).new_game(2, 3, ("a", "b"))  # type: ignore[arg-type]
    real = state.rng
    with pytest.raises(BotError, match="DrewGameDice"):
        ask_bot(bot, state, "bot 'dice' (seat 1)")
    assert state.rng is real and type(real) is random.Random  # plain again, whatever it did
    # nor may it set the game's numbers anew
    from dominari.sim.runner import DrewGameDice, sealed_dice, unsealed_dice

    before = real.getstate()
    sealed = sealed_dice(state)
    try:
        for call in (lambda: real.seed(1), lambda: real.setstate(random.Random(1).getstate()),
                     lambda: real.shuffle([1, 2, 3]), lambda: real.randbytes(2)):
            with pytest.raises(DrewGameDice):
                call()
    finally:
        unsealed_dice(state, sealed)
    assert real.getstate() == before


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bots_error_carries_the_game_to_play_again(tmp_path: Path, workers: int) -> None:
    """The library user's audit: a BotError had only its message; a script had to read
    the seed out of it. It carries the game's seed, who failed, and in a run which game
    (from 0) and match-up, whatever the workers (it crosses from a worker's process)."""
    from dominari.sim.runner import BotError, game_seed
    from dominari.sim.tournament import tournament_game_seed

    path = tmp_path / "dice.py"
    path.write_text(DICE_BOTS)
    with pytest.raises(BotError) as e:
        simulate(["bm", f"{path}:Dice"], 3, seed=4, workers=workers, kingdom="first-game")
    err = e.value
    assert err.game is not None and err.matchup is None
    assert err.seed == game_seed(4, err.game) and str(err.seed) in str(err)
    assert err.who is not None and err.who.startswith("bot 'dice' (seat 2")
    with pytest.raises(BotError) as e:
        tournament(["bm", "smithy", f"{path}:Dice"], 2, 5, workers=workers,
                   kingdom="first-game")
    err = e.value
    assert err.matchup in (1, 2) and err.game is not None
    entries = (0, 2) if err.matchup == 1 else (1, 2)
    assert err.seed == tournament_game_seed(5, entries, err.game)
    # a failure in reset too (the review found no facts there)
    (tmp_path / "rs.py").write_text("class Rs:\n    name = 'rs'\n"
                                    "    def reset(self, seed):\n        raise KeyError(seed)\n"
                                    "    def act(self, state):\n        return None\n")
    with pytest.raises(BotError) as e:
        simulate([f"{tmp_path / 'rs.py'}:Rs", "bm"], 2, seed=4, workers=workers,
                 kingdom="first-game")
    err = e.value
    assert "failed in reset(" in str(err) and err.game == 0
    assert err.seed == game_seed(4, 0) and (err.who or "").startswith("bot 'rs' (seat 1")
