"""A time limit on each decision of a bot (``decision_timeout``, ``--decision-timeout``):
a class tournament's student bot that hangs, or thinks too long, stops the run naming it,
instead of hanging the run (the classroom audit left it: only ``--stall-timeout`` stopped
such a run, after whole games' silence, naming no decision)."""

from __future__ import annotations

import re
import signal
import textwrap
import threading
from pathlib import Path

import pytest

from dominari.cli import main
from dominari.core.errors import ConfigError
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.sim import simulate
from dominari.sim.deadline import DecisionClock, Overtime, check_decision_timeout
from dominari.sim.runner import BotError, load_bots, play_game
from dominari.sim.tournament import tournament

# A pytest-timeout of its own SIGALRM would take the clock's (which then only judges a
# decision once it returns): these tests are timed by a thread.
pytestmark = pytest.mark.timeout(120, method="thread")

BOTS = textwrap.dedent('''
    import time


    class Hangs:
        name = "hangs"

        def reset(self, seed):
            self.n = 0

        def act(self, state):
            self.n += 1
            while self.n == 4:
                pass
            return state.legal_actions()[0]


    class Slow:
        name = "slow"

        def reset(self, seed):
            self.n = 0

        def act(self, state):
            self.n += 1
            if self.n == 4:
                time.sleep(0.3)
            return state.legal_actions()[0]


    class HangsInReset:
        name = "slow-reset"

        def reset(self, seed):
            while True:
                pass

        def act(self, state):
            return state.legal_actions()[0]


    class CleansUp:
        """Stopped from outside (Ctrl-C) as it decides, and slow to clean up."""
        name = "cleans-up"

        def reset(self, seed):
            pass

        def act(self, state):
            try:
                raise KeyboardInterrupt
            finally:
                began = time.perf_counter()
                while time.perf_counter() - began < 0.5:
                    pass


    class Quick:
        name = "quick"

        def reset(self, seed):
            pass

        def act(self, state):
            return state.legal_actions()[0]
''')
HANG_LINE = 13  # of ``while self.n == 4``
WHILE = r"\(seat 1, \w+: .*students\.py:\w+\) was still deciding after the decision timeout "


@pytest.fixture
def students(tmp_path: Path) -> Path:
    path = tmp_path / "students.py"
    path.write_text(BOTS, encoding="utf-8")
    return path


@pytest.mark.parametrize("limit", [0, -1, 0.001, 1e7, float("nan"), float("inf"), True, "1",
                                   [1]])
def test_a_bad_limit_is_refused(limit: object) -> None:
    with pytest.raises(ConfigError, match="the decision timeout must be a number of seconds"):
        check_decision_timeout(limit)
    with pytest.raises(ConfigError, match="the decision timeout must be"):
        simulate(["bm", "bm"], 1, 1, decision_timeout=limit)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="the decision timeout must be"):
        tournament(["bm", "bm"], 1, 1, decision_timeout=limit)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_hangs_is_stopped_where_it_is(students: Path, workers: int) -> None:
    """In this process (one worker) and in worker processes: the endless loop is broken,
    and the error names the game, the bot and the line it was on."""
    with pytest.raises(BotError) as caught:
        simulate([f"{students}:Hangs", "bm"], 2, 1, workers=workers, kingdom="first-game",
                 decision_timeout=0.2)  # fmt: skip
    text = str(caught.value)  # (two workers: the first game of each to stop may be said)
    assert re.match(r"game [12] of the simulation: bot 'hangs' " + WHILE + r"of 0\.2 s in the "
                    rf"game with seed \d+, and was stopped \(at .*students\.py line {HANG_LINE}"
                    r"\)$", text), text  # fmt: skip
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL  # given back as it was
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_tournament_names_the_match_up_and_its_journal_keeps_the_games(
        students: Path, tmp_path: Path) -> None:  # fmt: skip
    journal = tmp_path / "class.jsonl"
    quick = f"{students}:Quick"
    with pytest.raises(BotError, match=r"^game 1 of match-up \d \(\w+ vs hangs\): bot 'hangs' "
                                       + WHILE.replace("seat 1", r"seat \d")):
        tournament([quick, "bm", f"{students}:Hangs"], 3, 1, kingdom="first-game",
                   workers=1, decision_timeout=0.2, journal=journal)  # fmt: skip
    # the match-up played before it (quick vs bm) is kept
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 2 and '"key"' in lines[0], lines


def test_a_decision_judged_once_it_returns_where_it_cannot_be_stopped(students: Path) -> None:
    """Outside a process's main thread no signal can reach the bot: a slow decision is
    judged once it returns."""
    bots = load_bots([f"{students}:Slow", "bm"])
    for bot, seed in zip(bots, (1, 2), strict=True):
        bot.reset(seed)
    caught: list[BaseException] = []

    def play() -> None:
        state = DominionState.new(DominionConfig(players=2, seed=5, kingdom="first-game"))
        try:
            play_game(bots, state, timeout=0.1)
        except BaseException as exc:
            caught.append(exc)

    thread = threading.Thread(target=play)
    thread.start()
    thread.join()
    assert len(caught) == 1 and isinstance(caught[0], BotError), caught
    assert re.fullmatch(r"bot 'slow' \(seat 1\) took 0\.3\d* s over one decision in the game "
                        r"with seed 5, past the decision timeout of 0\.1 s", str(caught[0]))


def test_the_same_games_as_without_a_limit(students: Path) -> None:
    """The clock changes no game: a run within its limit gives the same results."""
    players = [f"{students}:Quick", "smithy"]
    free = simulate(players, 12, 3, workers=1, kingdom="first-game")
    timed = simulate(players, 12, 3, workers=1, kingdom="first-game", decision_timeout=5)
    assert timed.to_json() == free.to_json()


def test_a_timer_in_use_is_left_alone() -> None:
    """A process whose real-time timer something else runs keeps it: decisions are then
    judged once they return."""
    rung: list[int] = []
    old = signal.signal(signal.SIGALRM, lambda *_: rung.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        with DecisionClock(0.05) as clock:
            assert not clock.interrupts
            clock.start()
            assert clock.stop() < 0.05
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, old)
    assert not rung


def test_the_clock_rings_only_within_a_decision() -> None:
    with DecisionClock(0.05) as clock:
        assert clock.interrupts
        clock.start()
        with pytest.raises(Overtime):
            while True:
                pass
        clock.stop()
        threading.Event().wait(0.15)  # stopped: no ring past it


def test_the_command_line_flag(students: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "dominion", "--players", f"{students}:Hangs,bm", "-n", "2",
                 "--seed", "1", "--workers", "1", "--decision-timeout", "0.2"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert re.fullmatch(r"dominari: error: game 1 of the simulation: bot 'hangs' " + WHILE
                        + r".*line 13\)\n", err), err  # fmt: skip
    for bad in ("0", "-2", "soon", "nan", "1e12"):
        assert main(["tournament", "dominion", "--players", "bm,smithy", "-n", "1",
                     "--decision-timeout", bad]) == 2  # fmt: skip
        err = capsys.readouterr().err
        assert "--decision-timeout" in err and bad in err, err


def test_a_bot_that_hangs_in_reset_is_stopped_too(students: Path) -> None:
    """The audit of the limit: a student's reset that never returned hung the run."""
    with pytest.raises(BotError, match=r"^game 1 of the simulation: bot 'slow-reset' \(seat "
                                       r"1, .*\) was still in reset\(\d+\) after the decision "
                                       r"timeout of 0\.2 s, and was stopped \(at .*students\.py "
                                       r"line \d+\)$"):
        simulate([f"{students}:HangsInReset", "bm"], 1, 1, workers=1, decision_timeout=0.2)


def test_a_stop_from_outside_is_not_the_bots_time(students: Path) -> None:
    """Ctrl-C (or a signal) while a bot decides, and the bot slow to clean up: the stop goes
    on as a stop, not as a decision that ran past its limit (the audit's first finding)."""
    bots = load_bots([f"{students}:CleansUp", "bm"])
    state = DominionState.new(DominionConfig(players=2, seed=5, kingdom="first-game"))
    while state.current_player() != 0:
        state.apply(bots[1].act(state))
    with pytest.raises(KeyboardInterrupt):
        play_game(bots, state, timeout=0.1)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_short_stall_timeout_is_noted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "dominion", "--players", "bm,bm", "-n", "2", "--seed", "1",
                 "--workers", "1", "--stall-timeout", "30", "--decision-timeout", "60"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "--stall-timeout 30 is no longer than --decision-timeout 60: a worker stuck in " \
           "one decision is taken for hung first" in err, err
