"""Issue 7, "nothing lost": a real server killed with SIGKILL loses no acknowledged action.

The test runs ``dominari serve`` as a separate process on a SQLite file (and, when
``DOMINARI_TEST_PG_URL`` names a reachable PostgreSQL database, on PostgreSQL), starts
games between humans and bots, plays the human seats over HTTP and notes every
acknowledged action (a 200 answer: the action and the version it made). It then kills the
whole server (its bot workers too) with SIGKILL while games are unfinished and bots are
thinking, starts it again on the same database and checks that

- every game is there, at least at the version last acknowledged (exactly there, and with
  the same view, when only humans play it);
- every game goes on to its end: humans over HTTP, bots by themselves (bot-versus-bot games
  included, which were mid-game at the kill);
- each finished game's record holds every acknowledged action at the place (version) it was
  acknowledged, ``dominari replay`` replays it (exit 0), and replaying it with the engine
  reaches the scores of the server's final view.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")

from dominari.dominations.engine import DominationsState
from dominari.dominion.engine import DominionState

PG_ENV = "DOMINARI_TEST_PG_URL"
"""A PostgreSQL URL (``postgresql+psycopg://user:password@host:port/db``) for the
PostgreSQL run; it is skipped when unset or unreachable."""

START_TIMEOUT = 60.0
"""Seconds the server has to answer /api/health after it is started."""
PLAY_TIMEOUT = 120.0
"""Seconds the games have for the part before the kill, and again to end after it."""

# The games: (name, game, seats, extra create options). Seeds are fixed.
HUMAN: dict[str, Any] = {"kind": "human"}
GAMES: list[tuple[str, str, list[dict[str, Any]], dict[str, Any]]] = [
    ("dominion human v bmu", "dominion", [HUMAN, {"kind": "bot", "bot": "bmu"}],
     {"seed": 11, "kingdom": "first-game", "max_turns": 30}),
    ("dominations human v greedy", "dominations", [HUMAN, {"kind": "bot", "bot": "greedy"}],
     {"seed": 12}),
    ("dominion human v human", "dominion", [HUMAN, HUMAN],  # dealt at random: no seed
     {"kingdom": "first-game", "max_turns": 30}),
]
BOTS_ONLY = ("dominations greedy v random", "dominations",
             [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], {"seed": 14})
"""Started just before the kill, which comes once it is well under way."""

BEFORE_KILL = {"dominion": 10, "dominations": 30}
"""Acknowledged actions per human seat before the kill (every game is still on then)."""
BOTS_ONLY_BEFORE_KILL = 20
"""The bot-versus-bot game's version at which the server is killed."""


# -- a small HTTP client (standard library only) ------------------------------------------


class HttpError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body

    @property
    def code(self) -> str | None:
        err = self.body.get("error") if isinstance(self.body, dict) else None
        return err.get("code") if isinstance(err, dict) else None


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         timeout: float = 30.0) -> Any:
    """The JSON answer of ``method path``; raises :class:`HttpError` for a 4xx/5xx."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            parsed: Any = json.loads(raw)
        except ValueError:
            parsed = raw.decode(errors="replace")
        raise HttpError(exc.code, parsed) from None


# -- the server process ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dominari_command() -> list[str]:
    script = Path(sys.executable).with_name("dominari")
    return [str(script)] if script.exists() else [sys.executable, "-m", "dominari"]


class Server:
    """``dominari serve`` in its own process group (so that a kill takes its bot workers
    too), its output in a log file."""

    def __init__(self, db_url: str, log: Path) -> None:
        self.db_url = db_url
        self.log_path = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [*dominari_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db_url, "--bot-workers", "1"]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("DOMINARI_DB_URL", None)
        with self.log_path.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"the server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                if call(self.base, "GET", "/api/health", timeout=2.0).get("ok"):
                    return
            except (OSError, HttpError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer within {START_TIMEOUT:.0f} s:\n"
                            f"{self.output()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL the server and every process of its group (bot workers included)."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc = None

    def output(self) -> str:
        """The end of the server's output, without the access log's successes."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no output)"
        return "\n".join(x for x in lines if 'HTTP/1.1" 2' not in x)[-8000:]


# -- the games as the test sees them ---------------------------------------------------------


@dataclass
class Game:
    name: str
    game: str
    gid: str
    spectator: str
    players: int
    tokens: dict[int, str]
    """Human seats' tokens."""
    acked: list[tuple[int, int, str]] = field(default_factory=list)
    """Every acknowledged action: (version it made, seat, action as sent)."""
    seen: int = 0
    """The highest version any answer showed (every answer shows committed state)."""
    last_views: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    """The last view message each seat (None: spectator) got."""
    finished: bool = False
    final: dict[str, Any] | None = None
    rng: random.Random = field(default_factory=random.Random)
    """The human seats' choices (seeded with the game's seed, or a seed of their own in a
    game of people, which the server deals at random: each game's choices are the same
    every run, whatever the timing of the others)."""

    @property
    def humans_only(self) -> bool:
        return len(self.tokens) == self.players

    def note(self, seat: int | None, msg: dict[str, Any]) -> None:
        self.seen = max(self.seen, msg["version"])
        prev = self.last_views.get(seat)
        if prev is None or msg["version"] >= prev["version"]:
            self.last_views[seat] = msg
        if msg["status"] == "finished":
            self.finished = True
            self.final = msg

    def look(self, base: str, seat: int | None = None) -> dict[str, Any]:
        if seat is None:
            msg = call(base, "GET", f"/api/spectate/{self.spectator}")
        else:
            msg = call(base, "GET", f"/api/games/{self.gid}", token=self.tokens[seat])
        self.note(seat, msg)
        return dict(msg)


def create(base: str, name: str, game: str, seats: list[dict[str, Any]],
           options: dict[str, Any]) -> Game:
    made = call(base, "POST", "/api/games", {"game": game, "seats": seats, **options})
    tokens = {s["seat"]: s["token"] for s in made["seats"] if s["kind"] == "human"}
    return Game(name, game, made["game_id"], made["spectator"], len(seats), tokens,
                seen=made["version"], rng=random.Random(options.get("seed", 13)))


PREFERRED = ("buy Province", "buy Gold", "buy Silver")


def choose(game: str, legal: list[str], rng: random.Random) -> str:
    """A human's pick: in Dominion a money-first policy (so games end soon), else at
    random (seeded, so the test is the same every run)."""
    if game == "dominion":
        for want in PREFERRED:
            if want in legal:
                return want
        if any(a.startswith("buy ") for a in legal) and "end" in legal:
            return "end"
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return rng.choice(plays)
    return rng.choice(legal)


def step(base: str, g: Game) -> bool:
    """Play one human action in ``g`` if a human seat decides now; whether one was played
    (False: the game is over or waits on a bot)."""
    for seat, token in g.tokens.items():
        msg = g.look(base, seat)
        if msg["status"] == "finished" or msg["current_seat"] != seat:
            continue
        legal = msg["view"]["legal_actions"]
        assert legal, f"{g.name}: seat {seat} decides but has no legal action"
        action = choose(g.game, legal, g.rng)
        while True:
            try:
                answer = call(base, "POST", f"/api/games/{g.gid}/actions",
                              {"action": action, "version": msg["version"]}, token=token)
            except HttpError as exc:
                if exc.code == "too_many":  # the per-seat rate limit: wait and resend
                    time.sleep(0.2)
                    continue
                raise
            break
        assert answer["version"] == msg["version"] + 1, answer["version"]
        g.acked.append((answer["version"], seat, action))
        g.note(seat, answer)
        return True
    return False


def human_count(g: Game, seat: int) -> int:
    return sum(1 for _, s, _ in g.acked if s == seat)


def outcome_scores(g: Game) -> list[int]:
    """The scores of the server's final view."""
    assert g.final is not None
    view = g.final["view"]
    if g.game == "dominion":
        return list(view["outcome"]["scores"])
    return [p["vp"] for p in view["players"]]


# -- the database ---------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of one run: a fresh SQLite file, or a fresh schema of its own in the
    PostgreSQL database ``$DOMINARI_TEST_PG_URL`` (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'crash.db'}"
        return
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"{PG_ENV} is not set: no PostgreSQL to test on")
    pytest.importorskip("psycopg")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from dominari.server.store import Base

    schema = f"crash_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url, connect_args={"connect_timeout": 3})
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except SQLAlchemyError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at {PG_ENV} is unreachable or unusable: "
                    f"{str(exc).splitlines()[0]}")
    scoped = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    scoped_url = scoped.render_as_string(hide_password=False)
    engine = create_engine(scoped_url, connect_args={"connect_timeout": 3})
    try:
        Base.metadata.drop_all(engine)  # a fresh schema: nothing there, but be sure
        engine.dispose()
        yield scoped_url
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


# -- the test -------------------------------------------------------------------------------


@pytest.mark.timeout(300)
def test_kill_and_restart_loses_nothing(db_url: str, tmp_path: Path) -> None:
    """Issue 7, "nothing lost": SIGKILL mid-game, restart, every acknowledged action is
    there, every game plays on to its end and its record replays."""
    log = tmp_path / "server.log"
    server = Server(db_url, log)
    try:
        server.start()
        base = server.base
        games = [create(base, *spec) for spec in GAMES]

        # Before the kill: every human seat plays some actions (bots answer meanwhile).
        def wants(g: Game) -> bool:
            return not g.finished and any(human_count(g, s) < BEFORE_KILL[g.game]
                                          for s in g.tokens)

        deadline = time.monotonic() + PLAY_TIMEOUT
        while any(wants(g) for g in games):
            played = [step(base, g) for g in games if wants(g)]
            if not any(played):
                assert time.monotonic() < deadline, "the games stalled before the kill"
                time.sleep(0.01)
        assert all(g.acked for g in games)
        ended = [g.name for g in games if g.finished]
        assert not ended, f"games ended before the kill: {ended}"
        with pytest.raises(HttpError) as refused:  # no record while a game is on
            call(base, "GET", f"/api/games/{games[0].gid}/record")
        assert refused.value.status == 409

        # A bot-versus-bot game, killed once it is well under way.
        bots = create(base, *BOTS_ONLY)
        while bots.look(base)["version"] < BOTS_ONLY_BEFORE_KILL:
            assert time.monotonic() < deadline, "the bots do not play"
            time.sleep(0.005)
        games.append(bots)
        server.kill()
        assert not bots.finished, "the bot-versus-bot game ended before the kill"
        before = {g.gid: (list(g.acked), g.seen) for g in games}

        # Restart on the same database: every acknowledged action is there.
        server.port = free_port()
        server.base = base = f"http://127.0.0.1:{server.port}"
        server.start()
        for g in games:
            acked, seen = before[g.gid]
            for seat in [*g.tokens, None]:
                last = g.last_views.get(seat)
                msg = g.look(base, seat)
                assert msg["version"] >= seen, (g.name, msg["version"], seen)
                if last is not None and last["version"] == msg["version"]:
                    assert msg["view"] == last["view"], (g.name, seat)
            if g.humans_only:  # nobody moved since the last acknowledged action
                assert msg["version"] == acked[-1][0], (g.name, msg["version"])
                assert msg["status"] == "active"

        # Every game goes on to its end.
        deadline = time.monotonic() + PLAY_TIMEOUT
        while not all(g.finished for g in games):
            played = [step(base, g) for g in games if not g.finished]
            if not any(played):
                for g in games:
                    if not g.finished and not g.tokens:
                        g.look(base)
                assert time.monotonic() < deadline, (
                    "games stalled after the restart: "
                    + ", ".join(f"{g.name} v{g.seen}" for g in games if not g.finished))
                time.sleep(0.02)

        # Each record holds every acknowledged action where it was acknowledged, replays
        # with `dominari replay` and reaches the final view's scores.
        for g in games:
            assert g.final is not None
            record = call(base, "GET", f"/api/games/{g.gid}/record")
            actions = record["actions"]
            assert record["game"] == g.game
            assert len(actions) == g.final["version"], g.name  # no undo was played
            acked, _ = before[g.gid]
            assert len(actions) >= len(g.acked) >= len(acked)
            for version, seat, action in g.acked:
                assert actions[version - 1] == action, (g.name, version, seat)
            if g.humans_only:  # then the record is exactly what was acknowledged
                assert actions == [a for _, _, a in g.acked], g.name

            state_cls = DominionState if g.game == "dominion" else DominationsState
            replayed = state_cls.from_record(record)
            assert replayed.is_terminal(), g.name
            out = replayed.outcome()
            assert out is not None
            assert list(out.scores) == outcome_scores(g) == record["outcome"]["scores"]

            path = tmp_path / f"{g.gid}.json"
            path.write_text(json.dumps(record))
            done = subprocess.run([*dominari_command(), "replay", str(path)],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, (g.name, done.stdout[-2000:], done.stderr[-2000:])
    except BaseException:
        print(server.output())
        raise
    finally:
        server.kill()
