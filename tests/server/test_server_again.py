"""Playing a finished game again (``POST /api/games/{id}/again``): one next game for all
its players, each offered it in their view and given their own seat of it."""

from __future__ import annotations

from typing import Any

import pytest
from server_client import Api, auth, make_client

from dominari.server.service import again_token, token_hash

pytestmark = pytest.mark.timeout(120)
"""A view that never comes (a socket waiting for a next game not offered) fails its test
instead of holding up the suite."""


def _finish(api: Api, gid: str, tokens: list[str]) -> dict[str, Any]:
    """Play the game to its end, each seat taking its first legal action."""
    for _ in range(5000):
        view = api.view(gid, tokens[0])
        if view["status"] == "finished":
            return view
        seat = view["current_seat"]
        mine = api.view(gid, tokens[seat])
        r = api.act(gid, tokens[seat], mine["view"]["legal_actions"][0], mine["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not finish")


def _again(api: Api, gid: str, token: str) -> Any:
    return api.c.post(f"/api/games/{gid}/again", headers=auth(token))


def _two_people(api: Api, **options: Any) -> tuple[str, list[str], dict[str, Any]]:
    g = api.create(seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
                   **options)
    tokens = [s["token"] for s in g["seats"]]
    return g["game_id"], tokens, g


def test_every_player_of_a_finished_game_is_offered_the_same_next_game(api: Api) -> None:
    """The browser audit: "Play again" with two people put the new invitation links in
    the browser of the one who clicked only. Now the first to ask makes the next game
    (201), every player's view names it, and each who asks gets their own seat (200),
    with a token only they can have: the same one however often they ask."""
    gid, tokens, g = _two_people(api, game="dominion", kingdom="first-game", max_turns=2)
    assert api.view(gid, tokens[0])["again"] is None
    r = _again(api, gid, tokens[0])
    assert r.status_code == 409 and r.json()["error"]["code"] == "in_progress", r.text
    _finish(api, gid, tokens)

    first = _again(api, gid, tokens[1])  # Bob asks first
    assert first.status_code == 201, first.text
    made = first.json()
    new = made["game_id"]
    assert new != gid and made["spectator"] != g["spectator"]
    assert [(s["kind"], s["name"]) for s in made["seats"]] == [("human", "Ann"),
                                                               ("human", "Bob")]
    bob = made["seats"][1]["token"]
    assert made["seats"][0].get("token") is None  # Ann's is hers to ask for
    assert bob == again_token(tokens[1], new, 1)
    offered = {"game_id": new, "spectator": made["spectator"]}
    for token in tokens:  # both players are offered it, and spectators may watch it
        assert api.view(gid, token)["again"] == offered
    assert api.c.get(f"/api/spectate/{g['spectator']}").json()["again"] == offered

    second = _again(api, gid, tokens[0])  # Ann joins: the same game, her own seat
    assert second.status_code == 200, second.text
    assert second.json()["game_id"] == new
    ann = second.json()["seats"][0]["token"]
    assert ann not in tokens and ann != bob
    assert second.json()["seats"][1].get("token") is None  # never Bob's token
    assert _again(api, gid, tokens[0]).json()["seats"][0]["token"] == ann  # asked twice
    assert _again(api, gid, tokens[1]).json()["seats"][1]["token"] == bob

    nxt = api.view(new, ann)
    assert (nxt["seat"], nxt["status"], nxt["version"]) == (0, "active", 0)
    assert (nxt["kingdom"], nxt["max_turns"]) == ("first-game", 2)
    assert api.view(new, bob)["seat"] == 1
    # the old tokens hold no seat of it, and the store keeps only the new ones' hashes
    r = api.c.get(f"/api/games/{new}", headers=auth(tokens[0]))
    assert r.status_code == 403
    stored = api.service.db.load(new)
    assert [x.token_hash for x in stored.seats] == [token_hash(ann), token_hash(bob)]
    assert stored.again is None and api.service.db.load(gid).again == (new, made["spectator"])
    # a player's games list both
    games = api.c.post("/api/my-games", json={"tokens": [tokens[0], ann]}).json()["games"]
    assert [x["game_id"] for x in games] == [gid, new]


def test_the_next_game_keeps_the_options_and_seats_and_is_dealt_anew(api: Api) -> None:
    """Dominations: its rules; a bot stays the bot it was, with its name; the seed is new
    (a game against bots may be created with a seed: its next one is not)."""
    g = api.create(game="dominations", seed=5, rules={"variant": "prototype"},
                   seats=[{"kind": "bot", "bot": "greedy", "name": "Gus"},
                          {"kind": "human", "name": "Ann"}])
    gid, token = g["game_id"], g["seats"][1]["token"]
    api.settle()
    _finish_with_bots(api, gid, token, 1)
    r = _again(api, gid, token)
    assert r.status_code == 201, r.text
    made = r.json()
    assert [(s["kind"], s["bot"], s["name"]) for s in made["seats"]] == [
        ("bot", "greedy", "Gus"), ("human", None, "Ann")]
    api.settle()
    view = api.view(made["game_id"], made["seats"][1]["token"])
    assert view["rules"]["variant"] == "prototype"
    old = api.service.tables[gid].config
    new = api.service.tables[made["game_id"]].config
    assert new["rules"] == old["rules"] and new["seed"] != old["seed"]


def _finish_with_bots(api: Api, gid: str, token: str, seat: int) -> None:
    for _ in range(5000):
        api.settle()
        view = api.view(gid, token)
        if view["status"] == "finished":
            return
        if view["current_seat"] == seat:
            r = api.act(gid, token, view["view"]["legal_actions"][0], view["version"])
            assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not finish")


def test_play_again_refuses_what_holds_no_seat(api: Api) -> None:
    gid, tokens, _ = _two_people(api, game="dominion", max_turns=1)
    _finish(api, gid, tokens)
    r = api.c.post(f"/api/games/{gid}/again")
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_token"
    r = _again(api, gid, "not-a-token")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    r = _again(api, "nosuchgame", tokens[0])
    assert r.status_code == 404
    assert api.view(gid, tokens[0])["again"] is None  # nothing was made


def test_the_next_game_survives_a_restart(db_file: str) -> None:
    """The link and the claimed seats are stored: a server started anew offers the same
    next game, and a player who had not asked yet still gets their seat."""
    with make_client(db_file) as client:
        api = Api(client)
        gid, tokens, _ = _two_people(api, game="dominion", max_turns=1)
        _finish(api, gid, tokens)
        made = _again(api, gid, tokens[0]).json()
    with make_client(db_file) as client:
        api = Api(client)
        offered = api.view(gid, tokens[1])["again"]
        assert offered == {"game_id": made["game_id"], "spectator": made["spectator"]}
        ann = made["seats"][0]["token"]
        assert api.view(made["game_id"], ann)["seat"] == 0
        r = _again(api, gid, tokens[1])
        assert r.status_code == 200 and r.json()["game_id"] == made["game_id"]
        assert api.view(made["game_id"], r.json()["seats"][1]["token"])["seat"] == 1


def test_a_seat_claimed_through_another_server_is_found(db_file: str) -> None:
    """Two servers on one database: the next game made by one, its seat claimed through
    the other, is played through the first (which reads the seats it had not claimed); the
    other offers it to its own watchers once it learns of it (the first review found it
    did not)."""
    with make_client(db_file) as one, make_client(db_file) as two:
        a, b = Api(one), Api(two)
        gid, tokens, _ = _two_people(a, game="dominion", max_turns=1)
        _finish(a, gid, tokens)
        with two.websocket_connect("/api/ws") as ws:  # Ann watches through the other
            ws.send_json({"type": "join", "game_id": gid, "token": tokens[0]})
            assert ws.receive_json()["again"] is None
            made = _again(a, gid, tokens[0]).json()
            r = _again(b, gid, tokens[1])  # through the other server: the same next game
            assert r.status_code == 200 and r.json()["game_id"] == made["game_id"]
            # the other server, learning of it from the store, offers it to its watchers
            assert ws.receive_json()["again"]["game_id"] == made["game_id"]
        bob = r.json()["seats"][1]["token"]
        assert a.view(made["game_id"], bob)["seat"] == 1


def test_a_wrong_token_costs_no_store_read_each_time(api: Api,
                                                    monkeypatch: Any) -> None:
    """The review: with a next game's seat unclaimed, every request with a wrong token read
    the seats from the store, on the event loop. The same wrong token is now looked for in
    the store once a SEATS_REREAD; another token, or the right one, at once."""
    gid, tokens, _ = _two_people(api, game="dominion", max_turns=1)
    _finish(api, gid, tokens)
    new = _again(api, gid, tokens[0]).json()["game_id"]
    reads: list[str] = []
    real = api.service.db.load_seats
    monkeypatch.setattr(api.service.db, "load_seats",
                        lambda game_id, wait=None: reads.append(game_id) or real(game_id, wait))
    for _ in range(5):
        assert api.c.get(f"/api/games/{new}", headers=auth("junk")).status_code == 403
    assert reads == [new]
    assert api.c.get(f"/api/games/{new}", headers=auth("other")).status_code == 403
    assert len(reads) == 2
    bob = _again(api, gid, tokens[1]).json()["seats"][1]["token"]  # claimed here
    assert api.view(new, bob)["seat"] == 1
