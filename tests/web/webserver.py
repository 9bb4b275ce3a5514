"""A real game server for the browser tests: uvicorn in a thread on a free loopback port,
with a SQLite store and bots thinking in threads (imported by the tests as ``webserver``;
the fixtures are in ``conftest.py``)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from typing import Any

import uvicorn

from dominari.server import ws_protocol
from dominari.server.app import create_app
from dominari.server.service import Settings


class LiveServer:
    """The game server on a free loopback port, with helpers to set games up."""

    def __init__(self, db_url: str) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        settings = Settings(db_url=db_url, bot_executor="thread", bot_seconds=0.05,
                            create_rate=1000.0, create_burst=1000.0, action_rate=1000.0,
                            action_burst=1000.0, socket_rate=1000.0, socket_burst=1000.0)
        self.app = create_app(settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", ws_max_size=1 << 20, ws=ws_protocol())
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    @property
    def service(self) -> Any:
        return self.app.state.service

    def call(self, method: str, path: str, body: Any = None, token: str | None = None
             ) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def create(self, **body: Any) -> dict[str, Any]:
        """Create a game; a ``seed`` for a game of two or more people (which the server
        refuses to take from a client) deals it all the same: tests play known deals."""
        seed = body.get("seed")
        people = sum(s.get("kind", "human") == "human" for s in body.get("seats", ()))
        if seed is None or people < 2:
            return dict(self.call("POST", "/api/games", body))
        from dominari.server import service as service_module

        with contextlib.ExitStack() as deal:
            real = service_module.deal_seed
            service_module.deal_seed = lambda: seed
            deal.callback(setattr, service_module, "deal_seed", real)
            return dict(self.call("POST", "/api/games", {k: v for k, v in body.items()
                                                         if k != "seed"}))

    def view(self, game_id: str, token: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/games/{game_id}", token=token))

    def spectate(self, spectator: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/spectate/{spectator}"))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def watch_policy(page: Any, errors: list[str]) -> None:
    """Put in ``errors`` what ``page`` was refused by the server's content policy (a
    script, style or connection its pages may not have), as Chromium reports it."""
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and "Content Security Policy" in m.text else None)
