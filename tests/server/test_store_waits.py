"""Reads of a locked database wait briefly on the event loop: the store's reads take
``wait`` as its writes do, the server's requests wait :data:`STORE_WAIT` and get one clear
503 after it, and loading the games at startup keeps the usual wait.

In WAL mode a reader waits for no writer. What makes it wait (SQLite's busy timeout,
5 s) is a lock on the WAL index: here another process holds its recovery lock with the
index's header half rewritten, as a process rebuilding the index does."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_client import Api, auth, make_client
from starlette.websockets import WebSocketDisconnect

from dominari.server.service import STORE_WAIT
from dominari.server.store import BUSY_TIMEOUT, SeatRow, Store, StoreError, default_url

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks of the WAL index")

_RECOVERING = r"""
import fcntl, os, sys
fd = os.open(sys.argv[1] + "-shm", os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 122, 0)  # the WAL index's recovery lock
# the header's first copy no longer matches its second (written through this descriptor:
# closing another one, as mmap's, would drop the lock)
word = int.from_bytes(os.pread(fd, 4, 4), "little")  # (any word of the first copy)
os.pwrite(fd, (word + 1).to_bytes(4, "little"), 4)
print("held", flush=True)
sys.stdin.read()  # until the test (or its process) ends
"""


@contextlib.contextmanager
def _recovering(path: Path) -> Iterator[None]:
    """Another process rebuilding the WAL index of the database at ``path`` (in use, so
    with its ``-shm`` file) for the block: every reader waits for it. After it the next
    reader rebuilds the index itself."""
    holder = subprocess.Popen([sys.executable, "-c", _RECOVERING, str(path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(10)


def _waits(store: Store, n: int) -> list[Any]:
    """The busy timeouts of ``n`` of the store's pooled connections (all held at once)."""
    with contextlib.ExitStack() as stack:
        conns = [stack.enter_context(store.engine.connect()) for _ in range(n)]
        return [c.exec_driver_sql("PRAGMA busy_timeout").scalar() for c in conns]


def test_a_read_of_a_locked_database_waits_only_as_long_as_asked(tmp_path: Path) -> None:
    """A read (and a write) given ``wait`` fails after it with the store unavailable while
    another process holds the WAL index, not after :data:`BUSY_TIMEOUT`, nothing written;
    every connection goes back to the pool with the usual wait."""
    store = Store(default_url(tmp_path))
    seats = [SeatRow(0, "human", None, "A", "h" * 64), SeatRow(1, "bot", "bmu", "B", None)]
    gid = store.create_game("dominion", {"players": 2, "seed": 1}, "spect", seats)
    store.append(gid, 1, "act", 0, "buy Silver", wait=0.05)  # the writer, kept
    assert store.load(gid) is not None  # and a second connection, for reading
    calls: list[tuple[str, Any]] = [
        ("load", lambda: store.load(gid, wait=0.05)),
        ("spectator", lambda: store.game_of_spectator("spect", wait=0.05)),
        ("tokens", lambda: store.games_of_tokens(["h" * 64], wait=0.05)),
        ("active", lambda: store.active_games(wait=0.05)),
        ("create", lambda: store.create_game("dominion", {"players": 2, "seed": 2}, "other",
                                             [], wait=0.05)),
        ("append", lambda: store.append(gid, 2, "act", 0, "end", wait=0.05)),
    ]
    took = {}
    with _recovering(tmp_path / "dominari.db"):
        for name, call in calls:
            started = time.monotonic()
            with pytest.raises(StoreError, match="locked"):
                call()
            took[name] = time.monotonic() - started
    # (wide for a loaded machine, yet far from BUSY_TIMEOUT, 5 s)
    assert all(t < 1.5 for t in took.values()), took
    assert _waits(store, 2) == [BUSY_TIMEOUT * 1000] * 2  # the writer's too (dropped)
    g = store.load(gid)
    assert g is not None and [e.seq for e in g.log] == [1]  # nothing written
    assert store.game_of_spectator("other") is None and store.active_games() == [gid]
    store.append(gid, 2, "act", 0, "end", wait=0.05)
    assert [(g.id, g.seat) for g in store.games_of_tokens(["h" * 64], wait=0.05)] == [(gid, 0)]
    store.close()


def test_a_locked_database_holds_up_a_request_that_reads_only_briefly(tmp_path: Path) -> None:
    """A request that reads the store (a game not in memory, a spectator id, a player's
    games, a socket's join, the readiness check) while another process holds the WAL
    index gets one clear error after :data:`STORE_WAIT`, with nothing changed: before,
    each waited 5 s, the whole server standing still (a health check took 4.8 s)."""
    path = tmp_path / "games.db"
    with make_client(f"sqlite:///{path}") as client:
        api = Api(client)
        svc = api.service
        g = api.create(game="dominion", kingdom="first-game", seed=3,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        gid, token = g["game_id"], g["seats"][0]["token"]
        v = api.view(gid, token)
        assert api.act(gid, token, v["view"]["legal_actions"][0], v["version"]).status_code \
            == 200  # the store's writer, kept
        del svc.tables[gid]  # not in memory (as a finished game the server let go of)
        assert api.view(gid, token)["version"] == 1  # loaded again, on a second connection
        del svc.tables[gid]
        requests: list[tuple[str, Any]] = [
            ("game", lambda: client.get(f"/api/games/{gid}", headers=auth(token))),
            ("spectator", lambda: client.get("/api/spectate/nobody")),
            ("my games", lambda: client.post("/api/my-games", json={"tokens": [token]})),
            ("ready", lambda: client.get("/api/ready")),
        ]
        assert requests[-1][1]().json() == {"ok": True, "games": 0}  # the store answers
        took: dict[str, float] = {}
        unavailable = {"error": {"code": "unavailable",
                                 "message": "the game store is unavailable; try again"}}
        with _recovering(path):
            for name, request in requests:
                started = time.monotonic()
                r = request()
                took[name] = time.monotonic() - started
                assert r.status_code == 503 and r.json() == unavailable, (name, r.text)
            # a health check while a read waits: the loop is held only as long
            reader = threading.Thread(target=requests[1][1])
            reader.start()
            time.sleep(0.3)
            started = time.monotonic()
            assert client.get("/api/health").status_code == 200
            took["health"] = time.monotonic() - started
            reader.join()
            with client.websocket_connect("/api/ws") as ws:
                started = time.monotonic()
                ws.send_json({"type": "join", "spectator": g["spectator"]})
                err = ws.receive_json()
                took["join"] = time.monotonic() - started
                assert err["type"] == "error" and err["code"] == "unavailable", err
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 1013  # try again later
        # (bounds wide for a loaded machine, yet they tell 1 s from 5)
        waited = ("game", "spectator", "my games", "ready", "join")
        assert all(0.8 < took[k] < 3.0 for k in waited), took
        assert took["health"] < 3.0, took
        assert _waits(svc.db, 1) == [BUSY_TIMEOUT * 1000]  # the reader's, as it came
        assert gid not in svc.tables  # nothing changed
        assert api.view(gid, token)["version"] == 1
        assert client.get("/api/spectate/nobody").status_code == 404
        r = client.post("/api/my-games", json={"tokens": [token]})
        assert r.status_code == 200 and [x["game_id"] for x in r.json()["games"]] == [gid]


def test_the_server_loads_its_games_at_start_with_the_usual_wait(
        db_file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading the active games when the server starts (no game is played yet) waits the
    store's usual time; a request's read waits :data:`STORE_WAIT`."""
    with make_client(db_file) as client:
        gid = Api(client).create(game="dominion", kingdom="first-game", seed=3,
                                 seats=[{"kind": "human"}, {"kind": "human"}])["game_id"]
    waits: list[tuple[str, float | None]] = []
    for name in ("load", "active_games", "game_of_spectator"):
        real = getattr(Store, name)

        def spy(self: Store, *args: Any, _name: str = name, _real: Any = real,
                wait: float | None = None) -> Any:
            waits.append((_name, wait))
            return _real(self, *args, wait=wait)

        monkeypatch.setattr(Store, name, spy)
    with make_client(db_file) as client:
        assert waits == [("active_games", None), ("load", None)]
        assert gid in client.app.state.service.tables  # type: ignore[attr-defined]
        assert client.get("/api/spectate/nobody").status_code == 404
        assert client.get("/api/games/nogamehere").status_code == 404
    assert waits[2:] == [("game_of_spectator", STORE_WAIT), ("load", STORE_WAIT)]
