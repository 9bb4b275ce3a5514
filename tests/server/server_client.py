"""The server tests' client helpers: an app on an in-memory (or temporary file) SQLite
store with bots thinking in threads, driven through Starlette's test client. A module of
its own, not the conftest, so that test modules import it by a name no other test folder
uses (``from conftest import`` found the web tests' conftest when both folders were
collected, server first)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from dominari.server.app import create_app
from dominari.server.service import Settings


class Api:
    """A test client with helpers for the game API."""

    def __init__(self, client: TestClient) -> None:
        self.c = client

    @property
    def service(self) -> Any:
        return self.c.app.state.service  # type: ignore[attr-defined]

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.c.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def view(self, gid: str, token: str) -> dict[str, Any]:
        r = self.c.get(f"/api/games/{gid}", headers=auth(token))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def act(self, gid: str, token: str, action: str, version: int) -> Any:
        """Submit ``action`` answering the view of ``version`` (the server needs it)."""
        body: dict[str, Any] = {"action": action, "version": version}
        return self.c.post(f"/api/games/{gid}/actions", headers=auth(token), json=body)

    def settle(self) -> None:
        """Let every bot that is thinking finish (bots run in threads here)."""
        self.c.portal.call(self.service.idle)  # type: ignore[union-attr]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_client(db_url: str = "sqlite://", **settings: Any) -> TestClient:
    settings.setdefault("bot_executor", "thread")
    return TestClient(create_app(Settings(db_url=db_url, **settings)))


def until(ok: Callable[[], object], what: str = "never", seconds: float = 20.0) -> None:
    """Wait until ``ok()`` holds (the server's loop runs in another thread), else fail."""
    deadline = time.monotonic() + seconds
    while not ok():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.002)


def hold_decisions(monkeypatch: Any, calls: list[Any]) -> threading.Event:
    """Make every bot decision wait until the event returned is set (30 s at most), each
    bot's name noted in ``calls`` as its decision begins."""
    from dominari.server import service as service_module

    real = service_module.choose
    go = threading.Event()

    def held(*args: Any) -> str:
        calls.append(args[2])  # the bot's name
        go.wait(30)
        return str(real(*args))

    monkeypatch.setattr(service_module, "choose", held)
    return go
