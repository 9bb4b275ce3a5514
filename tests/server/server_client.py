"""The server tests' client helpers: an app on an in-memory (or temporary file) SQLite
store with bots thinking in threads, driven through Starlette's test client. A module of
its own, not the conftest, so that test modules import it by a name no other test folder
uses (``from conftest import`` found the web tests' conftest when both folders were
collected, server first)."""

from __future__ import annotations

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
