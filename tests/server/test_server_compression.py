"""WebSocket compression of ``dominari serve`` (uvicorn with the server's protocol): views
are compressed with deflate's whole 32 KiB window, so that each one is compressed against
the one before it; ``--no-ws-compression`` turns compression off. Either way the views
arrive whole."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import uvicorn
from server_client import dealt
from websockets.sync.client import connect

from dominari.server import ws_protocol
from dominari.server.app import create_app
from dominari.server.service import Settings


@pytest.fixture(params=[True, False], ids=["compressed", "plain"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, bool]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'games.db'}",
                              bot_executor="thread"))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws=ws_protocol(request.param))
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}", request.param
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


def _create(where: str) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://{where}/api/games", method="POST",
        data=json.dumps({"game": "dominations",
                         "seats": [{"kind": "human"}, {"kind": "human"}]}).encode(),
        headers={"Content-Type": "application/json"})
    # the same deal every run (a game of people takes no seed from a client)
    with dealt(3), urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.loads(r.read()))


def test_views_are_compressed_with_the_whole_window(server: tuple[str, bool]) -> None:
    where, compressed = server
    g = _create(where)
    with connect(f"ws://{where}/api/ws") as a, connect(f"ws://{where}/api/ws") as b:
        extensions: list[Any] = list(a.protocol.extensions)
        if compressed:
            assert [e.name for e in extensions] == ["permessage-deflate"]
            assert extensions[0].remote_max_window_bits == 15
        else:
            assert extensions == []
        socks = [a, b]
        for ws, seat in zip(socks, g["seats"], strict=True):
            ws.send(json.dumps({"type": "join", "game_id": g["game_id"],
                                "token": seat["token"]}))
        views = [json.loads(ws.recv()) for ws in socks]
        for _ in range(20):
            seat = views[0]["current_seat"]
            mine = views[seat]
            socks[seat].send(json.dumps({"type": "act", "version": mine["version"],
                                         "action": mine["view"]["legal_actions"][0]}))
            views = [json.loads(ws.recv()) for ws in socks]
            assert [v["version"] for v in views] == [mine["version"] + 1] * 2
            assert [v["seat"] for v in views] == [0, 1]
