"""Undo on the server (issue 7 §1), Board Game Arena's policy: a player takes back their
own last action while it is still their decision; never across another player's action,
a revealed hidden card or a chance event. Undos are log entries: the log stays
append-only and a restart rebuilds the same game."""

from __future__ import annotations

import random
from typing import Any

from server_client import Api, make_client

from dominari.server.tables import chance_key


def _game(api: Api, game: str) -> tuple[str, list[str]]:
    extra: dict[str, Any] = {"kingdom": "first-game"} if game == "dominion" else {}
    g = api.create(game=game, seats=[{"kind": "human"}, {"kind": "human"}], seed=4, **extra)
    return g["game_id"], [s["token"] for s in g["seats"]]


def _undo(api: Api, gid: str, token: str, version: int) -> Any:
    return api.c.post(f"/api/games/{gid}/undo",
                      headers={"Authorization": f"Bearer {token}"}, json={"version": version})


def _play_until_undoable(api: Api, gid: str, tokens: list[str], seed: int = 1
                         ) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """Play random legal actions until one can be undone: (seat, view before, after)."""
    rng = random.Random(seed)
    for _ in range(300):
        seat = api.view(gid, tokens[0])["current_seat"]
        before = api.view(gid, tokens[seat])
        r = api.act(gid, tokens[seat], rng.choice(before["view"]["legal_actions"]),
                    before["version"])
        assert r.status_code == 200, r.text
        if r.json()["can_undo"]:
            return seat, before, r.json()
    raise AssertionError("no undoable action in 300")


def test_undo_restores_the_position_before_the_action(api: Api) -> None:
    for game in ("dominion", "dominations"):
        gid, tokens = _game(api, game)
        seat, before, after = _play_until_undoable(api, gid, tokens)
        r = _undo(api, gid, tokens[seat], after["version"])
        assert r.status_code == 200, r.text
        back = r.json()
        assert back["version"] == after["version"] + 1  # an undo is a new log entry
        assert back["view"] == before["view"]
        log = api.service.db.load(gid).log
        assert log[-1].kind == "undo" and len(log) == back["version"]


def test_undo_is_refused_for_another_seat_and_when_stale(api: Api) -> None:
    gid, tokens = _game(api, "dominations")
    seat, _, after = _play_until_undoable(api, gid, tokens)
    r = _undo(api, gid, tokens[1 - seat], after["version"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_undo"
    r = _undo(api, gid, tokens[seat], after["version"] - 1)
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    assert api.view(gid, tokens[seat])["version"] == after["version"]


def test_no_undo_across_another_players_action(api: Api) -> None:
    gid, tokens = _game(api, "dominations")
    rng = random.Random(3)
    last = -1
    for _ in range(400):
        seat = api.view(gid, tokens[0])["current_seat"]
        v = api.view(gid, tokens[seat])
        if last >= 0 and seat != last:
            # The other player has the decision now: the one who acted before cannot undo.
            r = _undo(api, gid, tokens[last], v["version"])
            assert r.status_code == 409
            return
        last = seat
        api.act(gid, tokens[seat], rng.choice(v["view"]["legal_actions"]), v["version"])
    raise AssertionError("the decision never passed to the other player")


def test_actions_that_reveal_or_use_chance_cannot_be_undone(api: Api) -> None:
    """Every action after which undo is offered left the chance key alone; every
    action that changed it (a draw, a shuffle, a tile from the supply) offers none."""
    for game in ("dominion", "dominations"):
        gid, tokens = _game(api, game)
        t = api.service.table(gid)
        rng = random.Random(7)
        seen = {True: 0, False: 0}
        for _ in range(150):
            if t.finished:
                break
            seat = t.current_seat()
            key = chance_key(t.state)
            v = api.view(gid, tokens[seat])
            m = api.act(gid, tokens[seat], rng.choice(v["view"]["legal_actions"]),
                        v["version"]).json()
            changed = chance_key(t.state) != key
            if changed:
                assert not m["can_undo"]
            seen[changed] += 1
        assert seen[True] and seen[False]


def test_undos_replay_after_a_restart(db_file: str) -> None:
    with make_client(db_file) as c:
        api = Api(c)
        gid, tokens = _game(api, "dominations")
        seat, before, after = _play_until_undoable(api, gid, tokens)
        assert _undo(api, gid, tokens[seat], after["version"]).status_code == 200
        view = api.view(gid, tokens[seat])
    with make_client(db_file) as c:
        again = Api(c).view(gid, tokens[seat])
    assert again["version"] == view["version"] and again["view"] == before["view"]
