"""Games not in memory: finished games the server let go (beyond its last
:data:`~dominari.server.service.KEEP_FINISHED`), and games that failed to load when it
started. Reading them never holds up the other games, and answers as if they had stayed."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from server_client import Api, auth, make_client, until

from dominari.core.errors import DominariError
from dominari.server import service as service_module
from dominari.server.tables import Table


def _client(db_url: str = "sqlite://") -> Any:
    """A test client whose players may act as fast as they like."""
    return make_client(db_url, action_rate=1e6, action_burst=1e6)


def _finish(api: Api, gid: str, token: str) -> None:
    """Play the human seat of ``gid`` (against bots) to the end, at random."""
    rng = random.Random(gid)
    for _ in range(2000):
        api.settle()
        v = api.view(gid, token)
        if v["status"] == "finished":
            return
        legal = v["view"]["legal_actions"]
        if v["current_seat"] == v["seat"] and legal:
            r = api.act(gid, token, rng.choice(legal), v["version"])
            assert r.status_code == 200, r.text
    raise AssertionError(f"game {gid} never ended")


def _finished_games(api: Api) -> list[tuple[str, str | None]]:
    """(game id, the human seat's token) of finished games: Dominion with a rule bot
    whose Kingdom card First Game lacks, against a person, and Dominations of bots (no
    token), a long game."""
    made = [api.create(game="dominion", kingdom="first-game", max_turns=2, seats=[
                {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "witch"}]),
            api.create(game="dominations", seed=3, seats=[
                {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])]
    out = []
    for g in made:
        token = next((s["token"] for s in g["seats"] if s["token"]), None)
        if token is not None:
            _finish(api, g["game_id"], token)
        api.settle()
        assert api.service.table(g["game_id"]).finished
        out.append((g["game_id"], token))
    return out


def _reads(client: Any, gid: str, spectator: str) -> dict[str, Any]:
    """Everything anyone may read of a finished game, by anyone with its links."""
    out = {}
    for path in (f"/api/games/{gid}/log", f"/api/games/{gid}/record",
                 f"/api/games/{gid}/catalog", f"/api/spectate/{spectator}",
                 f"/api/replay/{spectator}?step=3&seat=1"):
        r = client.get(path)
        assert r.status_code == 200, (path, r.text)
        out[path] = r.json()
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "join", "spectator": spectator})
        out["join"] = ws.receive_json()
    return out


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Each rebuild of a game from its log, noted as whether it ran on an event loop."""
    real = Table.load.__func__  # type: ignore[attr-defined]
    seen: list[bool] = []

    def load(cls: type[Table], stored: Any, data: Any) -> Table:
        try:
            asyncio.get_running_loop()
            seen.append(True)
        except RuntimeError:
            seen.append(False)
        return real(cls, stored, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(Table, "load", classmethod(load))
    yield seen


def test_my_games_answers_for_finished_games_without_rebuilding_them(
        db_file: str, rebuilds: list[bool]) -> None:
    """The "My games" page of a player with many finished games the server no longer
    holds (up to 100 tokens) rebuilt each from its whole log on the event loop, some
    100 ms a game: 60 held every game up for 6 s. It is answered from the store's rows,
    as it was while the games were in memory (a finished game is nobody's turn)."""
    with _client(db_file) as client:
        api = Api(client)
        (gid, token), _ = _finished_games(api)
        other = api.create(game="dominion", kingdom="random", max_turns=1, seats=[
            {"kind": "bot", "bot": "smithy"}, {"kind": "human"}])
        _finish(api, other["game_id"], other["seats"][1]["token"])
        tokens = [other["seats"][1]["token"], "unknown", token]
        before = client.post("/api/my-games", json={"tokens": tokens}).json()
    assert [(g["game_id"], g["seat"], g["status"]) for g in before["games"]] == [
        (other["game_id"], 1, "finished"), (gid, 0, "finished")]
    assert before["games"][1]["seats"][1]["missing_cards"] == ["Witch"]
    with _client(db_file) as client:  # a restart: only active games are loaded
        rebuilds.clear()
        after = client.post("/api/my-games", json={"tokens": tokens}).json()
        assert after == before
        assert rebuilds == []
        assert client.get("/api/health").json()["games"] == 0


def test_reads_of_a_finished_game_not_in_memory_are_as_before(
        db_file: str, rebuilds: list[bool]) -> None:
    """Its log, record, components, spectators' view, replay and a socket's first view
    are those of the game in memory; it is rebuilt off the event loop, once."""
    with _client(db_file) as client:
        api = Api(client)
        games = _finished_games(api)
        spectators = {gid: api.service.table(gid).spectator for gid, _ in games}
        before = {gid: _reads(client, gid, spectators[gid]) for gid, _ in games}
    with _client(db_file) as client:
        rebuilds.clear()
        for gid, _ in games:
            assert _reads(client, gid, spectators[gid]) == before[gid]
        assert rebuilds == [False, False]  # each once, in a thread with no event loop


def test_a_finished_game_being_rebuilt_holds_up_nothing_else(
        db_file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a game is rebuilt from its log, the server answers other requests; the
    requests for that game meanwhile wait for the one rebuild and get their answers."""
    with _client(db_file) as client:
        (gid, token), (long_game, _) = _finished_games(Api(client))
        spectator, long_spectator = (Api(client).service.table(g).spectator
                                     for g in (gid, long_game))
        log = client.get(f"/api/games/{gid}/log").json()
    real = Table.load.__func__  # type: ignore[attr-defined]
    held, began, loads = threading.Event(), threading.Event(), []

    def slow_load(cls: type[Table], stored: Any, data: Any) -> Table:
        began.set()
        loads.append(held.wait(60))  # (False: the rebuild was never let go)
        return real(cls, stored, data)  # type: ignore[no-any-return]

    with _client(db_file) as client:
        monkeypatch.setattr(Table, "load", classmethod(slow_load))
        answers: dict[str, Any] = {}

        def ask(name: str, call: Callable[[], Any]) -> threading.Thread:
            thread = threading.Thread(target=lambda: answers.__setitem__(name, call()))
            thread.start()
            return thread

        waiting = [ask("log", lambda: client.get(f"/api/games/{gid}/log")),
                   ask("view", lambda: client.get(f"/api/games/{gid}", headers=auth(token))),
                   ask("spectate", lambda: client.get(f"/api/spectate/{spectator}"))]
        assert began.wait(60), "no rebuild began"
        health = client.get("/api/health")  # answered while the rebuild is held
        assert health.status_code == 200 and not held.is_set()
        assert len(answers) == 0  # (the game's own requests wait for it)
        held.set()
        for thread in waiting:
            thread.join(60)
        assert loads == [True]  # one rebuild, let go by the test
        assert answers["log"].json() == log
        assert answers["view"].json()["status"] == "finished"
        assert answers["spectate"].status_code == 200
        # the long game: rebuilt too while the loop goes on
        assert client.get(f"/api/spectate/{long_spectator}").status_code == 200
        assert loads == [True, True]


def test_a_watched_finished_game_goes_once_its_watchers_leave(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game that a socket still watches when its time to go comes stays as
    long as it is watched, and goes once its last watcher leaves (before, it stayed in
    memory for good)."""
    monkeypatch.setattr(service_module, "KEEP_FINISHED", 2)
    body = {"game": "dominion", "kingdom": "first-game", "max_turns": 2,
            "seats": [{"kind": "bot", "bot": "bmu"}, {"kind": "bot", "bot": "bmu"}]}
    with _client() as client:
        api = Api(client)

        def finished_game() -> dict[str, Any]:
            g = api.create(**body)
            api.settle()
            assert api.service.table(g["game_id"]).finished
            return g

        first = finished_game()
        gid = first["game_id"]
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "join", "spectator": first["spectator"]})
            assert ws.receive_json()["status"] == "finished"
            for _ in range(3):
                finished_game()
            assert gid in api.service.tables  # watched: kept (the others go first)
            assert client.get("/api/health").json()["games"] == 2
        until(lambda: not api.service.tables[gid].subscribers, "the socket never left")
        finished_game()
        assert client.get("/api/health").json()["games"] == 2
        assert gid not in api.service.tables
        # and it is still there for whoever comes back to it
        assert client.get(f"/api/spectate/{first['spectator']}").status_code == 200


def test_a_game_loaded_after_failing_to_load_at_the_start_has_its_bot_play(
        db_file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that could not be loaded when the server started (a store that failed
    then) is loaded when someone asks for it; if it is its bot's turn, the bot plays
    (before, nothing started it: the game waited for good)."""
    from server_client import hold_decisions

    go = hold_decisions(monkeypatch, [])
    try:
        with _client(db_file) as client:
            api = Api(client)
            g = api.create(game="dominion", kingdom="first-game", seed=10,  # the bot starts
                           seats=[{"kind": "bot", "bot": "smithy"}, {"kind": "human"}])
            gid, token = g["game_id"], g["seats"][1]["token"]
            assert api.view(gid, token)["bot_thinking"] is True  # held until the stop
    finally:
        go.set()
    monkeypatch.undo()
    real = Table.load.__func__  # type: ignore[attr-defined]
    failures = [DominariError("the store failed")]

    def fails_once(cls: type[Table], stored: Any, data: Any) -> Table:
        if failures:
            raise failures.pop()
        return real(cls, stored, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(Table, "load", classmethod(fails_once))
    with _client(db_file) as client:
        api = Api(client)
        assert gid not in api.service.tables and not failures  # it failed at the start
        first = api.view(gid, token)
        assert first["version"] == 0 and first["current_seat"] == 0
        api.settle()
        assert api.view(gid, token)["current_seat"] == 1  # the bot played


def test_my_games_lists_a_game_that_cannot_be_loaded(db_file: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that cannot be loaded (a store that fails for it) is listed from its rows,
    as active and nobody's turn, beside the others: one such game does not fail the
    whole list (before, the answer was an error)."""
    with _client(db_file) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game",
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "bm"}])
        other = api.create(game="dominion", kingdom="first-game",
                           seats=[{"kind": "human"}, {"kind": "bot", "bot": "bm"}])
        api.settle()
        tokens = [g["seats"][0]["token"], other["seats"][0]["token"]]
        before = client.post("/api/my-games", json={"tokens": tokens}).json()["games"]
    real = Table.load.__func__  # type: ignore[attr-defined]

    def broken(cls: type[Table], stored: Any, data: Any) -> Table:
        if stored.id == g["game_id"]:
            raise DominariError("the store failed")
        return real(cls, stored, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(Table, "load", classmethod(broken))
    with _client(db_file) as client:
        r = client.post("/api/my-games", json={"tokens": tokens})
        assert r.status_code == 200, r.text
        games = r.json()["games"]
    assert [x["game_id"] for x in games] == [g["game_id"], other["game_id"]]
    assert games[1] == before[1]
    assert games[0] == {**before[0], "your_turn": False}
    assert games[0]["status"] == "active"
