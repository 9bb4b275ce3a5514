"""The server tests' client helpers: an app on an in-memory (or temporary file) SQLite
store with bots thinking in threads, driven through Starlette's test client. A module of
its own, not the conftest, so that test modules import it by a name no other test folder
uses (``from conftest import`` found the web tests' conftest when both folders were
collected, server first)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
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
        """Create a game; a ``seed`` for a game of two or more people (which the server
        refuses to take from a client) deals it all the same (:func:`dealt`)."""
        seed = body.get("seed")
        people = sum(s.get("kind", "human") == "human" for s in body.get("seats", ()))
        with contextlib.ExitStack() as deal:
            if seed is not None and people >= 2:
                del body["seed"]
                deal.enter_context(dealt(seed))
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


@contextlib.contextmanager
def dealt(seed: int) -> Iterator[None]:
    """Deal every game created meanwhile without a seed with ``seed``, as the server
    deals a game of several people (a client may not choose its seed): tests play known
    deals."""
    from dominari.server import service as service_module

    real = service_module.deal_seed
    service_module.deal_seed = lambda: seed
    try:
        yield
    finally:
        service_module.deal_seed = real


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
