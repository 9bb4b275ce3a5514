"""Fuzzing the HTTP API against its own OpenAPI schema (issue 7 §3): schemathesis
generates requests, valid and not, for every operation; none may get a 5xx. A second
fuzz sends arbitrary action text for a real seat: the game is never harmed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from server_client import auth, dealt, make_client

# schemathesis starts and stops the app it fuzzes around every call: an app of its own.
schema = schemathesis.openapi.from_asgi("/openapi.json", make_client().app)
client = make_client()


@pytest.fixture(scope="module", autouse=True)
def running() -> Iterator[TestClient]:
    with client:
        yield client


@schema.parametrize()
@settings(max_examples=30, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])


@given(text=st.text(max_size=600))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_arbitrary_action_text_is_answered_and_harms_nothing(text: str) -> None:
    with dealt(2):  # (a game of people takes no seed from a client)
        g = client.post("/api/games", json={"game": "dominations",
                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
    if g.status_code == 429:
        return
    body = g.json()
    gid = body["game_id"]
    t = client.app.state.service.table(gid)  # type: ignore[attr-defined]
    seat = t.current_seat()
    token = body["seats"][seat]["token"]
    before = t.state.view(seat)
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                    json={"action": text, "version": 0})
    assert r.status_code < 500, r.text
    if r.status_code != 200:
        assert "error" in r.json()
        assert t.version == 0 and t.state.view(seat) == before
