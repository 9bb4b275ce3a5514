"""WebSocket sessions (issue 7 §1 and §3): joining a seat or watching, views pushed after
every change, stale and duplicate submissions, bad messages and floods, and what every
socket is sent over whole games: never what its seat may not see."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from server_client import Api, make_client
from starlette.websockets import WebSocketDisconnect

from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominations.text import event_lines
from dominari.dominion.cards import NAME
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.sim.runner import dominations_data

Socket = Any


def _join(stack: ExitStack, api: Api, gid: str, token: str | None = None,
          spectator: str | None = None) -> Socket:
    ws = stack.enter_context(api.c.websocket_connect("/api/ws"))
    msg = {"type": "join", "spectator": spectator} if spectator else {
        "type": "join", "game_id": gid, "token": token}
    ws.send_json(msg)
    return ws


def _upto(ws: Socket, version: int, into: list[dict[str, Any]]) -> dict[str, Any]:
    """Receive messages (kept in ``into``) until the view of ``version``."""
    if into and into[-1]["type"] == "view" and into[-1]["version"] == version:
        return into[-1]
    while True:
        m = ws.receive_json()
        into.append(m)
        assert m["type"] != "error", m
        if m["type"] == "view" and m["version"] >= version:
            assert m["version"] == version
            return m


def _prefer(legal: list[str], rng: random.Random) -> str:
    for word in ("buy Province", "buy Gold", "buy Silver", "play Smithy", "play "):
        for a in legal:
            if a.startswith(word):
                return a
    return rng.choice(legal)


def test_join_views_and_pushes(api: Api) -> None:
    g = api.create(game="dominion", kingdom="first-game", seed=8,
                   seats=[{"kind": "human"}, {"kind": "human"}])
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    stack = ExitStack()
    a, b = _join(stack, api, gid, tokens[0]), _join(stack, api, gid, tokens[1])
    s = _join(stack, api, gid, spectator=g["spectator"])
    first = [ws.receive_json() for ws in (a, b, s)]
    assert [m["seat"] for m in first] == [0, 1, None]
    seat = first[0]["current_seat"]
    me = (a, b)[seat]
    me.send_json({"type": "act", "action": first[seat]["view"]["legal_actions"][0],
                  "version": 0})
    for ws in (a, b, s):
        assert ws.receive_json()["version"] == 1
    # The same submission again is stale: an error with the current view, nothing changed.
    me.send_json({"type": "act", "action": first[seat]["view"]["legal_actions"][0],
                  "version": 0})
    err = me.receive_json()
    assert err["type"] == "error" and err["code"] == "stale" and err["view"]["version"] == 1
    s.send_json({"type": "act", "action": "end", "version": 1})
    assert s.receive_json()["message"] == "spectators cannot play"
    stack.close()


def _deciding(stack: ExitStack, api: Api) -> tuple[Socket, str, str, str]:
    """A new Dominion game of two people, joined by the seat that decides first: its
    socket (its first view received), the game, that seat's token and a legal action."""
    g = api.create(game="dominion", kingdom="first-game", seed=8,
                   seats=[{"kind": "human"}, {"kind": "human"}])
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    token = tokens[api.view(gid, tokens[0])["current_seat"]]
    ws = _join(stack, api, gid, token)
    return ws, gid, token, ws.receive_json()["view"]["legal_actions"][0]


def test_an_act_or_undo_without_a_version_gets_one_clear_error(api: Api) -> None:
    """A submission without ``version`` cannot tell a retry from a new one: it is refused
    with one error saying that the version is needed, and nothing is played; with the
    version it plays once, and the same message again is stale."""
    with ExitStack() as stack:
        ws, gid, token, action = _deciding(stack, api)
        for msg in ({"type": "act", "action": action}, {"type": "undo"},
                    {"type": "act", "action": action, "version": None}):
            ws.send_json(msg)
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_request", err
            assert err["message"] == (
                f"{msg['type']}: the version of the view it answers is needed ('version'), "
                "so that a retried submission cannot play twice")
            assert err["view"]["version"] == 0
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # nothing else was sent
        assert api.view(gid, token)["version"] == 0
        ws.send_json({"type": "act", "action": action, "version": 0})
        assert ws.receive_json()["version"] == 1
        ws.send_json({"type": "act", "action": action, "version": 0})  # a retry
        assert ws.receive_json()["code"] == "stale"
        assert len(api.service.db.load(gid).log) == 1


def test_a_request_id_is_echoed_in_the_answers_to_that_request(api: Api) -> None:
    """The web-API audit: errors carried no request id, so a client matched them to its
    messages by order alone. A message may carry an ``id`` (text of at most 64 characters
    or a whole number): its error, pong or preview carries it back, and a played act or
    undo is answered ``done`` with the new version after the view; without an id nothing
    new is sent."""
    with ExitStack() as stack:
        ws, _, _, action = _deciding(stack, api)
        ws.send_json({"type": "ping", "id": 7})
        assert ws.receive_json() == {"type": "pong", "id": 7}
        ws.send_json({"type": "act", "action": action, "version": 5, "id": "a1"})
        err = ws.receive_json()
        assert (err["type"], err["code"], err["id"]) == ("error", "bad_request", "a1")
        ws.send_json({"type": "fly", "id": "a2"})
        assert ws.receive_json()["id"] == "a2"
        ws.send_json({"type": "act", "action": action, "version": 0, "id": "a3"})
        view = ws.receive_json()
        assert view["type"] == "view" and view["version"] == 1 and "id" not in view
        assert ws.receive_json() == {"type": "done", "id": "a3", "version": 1}
        ws.send_json({"type": "act", "action": action, "version": 0, "id": 4})  # a retry
        err = ws.receive_json()
        assert (err["code"], err["id"]) == ("stale", 4)
        for bad in ("x" * 65, 1.5, True, [1]):
            ws.send_json({"type": "ping", "id": bad})
            err = ws.receive_json()
            assert err["code"] == "bad_request" and "id" not in err
            assert err["message"].startswith("id must be a string of at most 64")
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


@pytest.mark.parametrize(("raw", "code"), [
    ("{nope", "bad_request"),
    ("[1, 2]", "bad_request"),
    ('{"type": "fly"}', "bad_request"),
    ('{"type": "act"}', "bad_request"),
    ('{"type": "act", "action": "end", "version": "seven"}', "bad_request"),
    ('{"type": "act", "action": "dance", "version": 0}', "bad_action"),
    ("x" * 20000, "too_large"),
])
def test_bad_messages_get_errors_and_the_game_is_unharmed(api: Api, raw: str,
                                                          code: str) -> None:
    g = api.create(game="dominion", kingdom="first-game", seed=8,
                   seats=[{"kind": "human"}, {"kind": "human"}])
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    seat = api.view(gid, tokens[0])["current_seat"]
    stack = ExitStack()
    ws = _join(stack, api, gid, tokens[seat])
    ws.receive_json()
    ws.send_text(raw)
    err = ws.receive_json()
    assert err["type"] == "error" and err["code"] in (code, "illegal_action"), err
    assert "Traceback" not in str(err)
    ws.send_json({"type": "ping"})
    assert ws.receive_json() == {"type": "pong"}
    assert api.view(gid, tokens[seat])["version"] == 0
    stack.close()


def test_a_flood_is_throttled_but_the_socket_stays_usable(api: Api) -> None:
    g = api.create(game="dominion", kingdom="first-game", seed=8,
                   seats=[{"kind": "human"}, {"kind": "human"}])
    stack = ExitStack()
    ws = _join(stack, api, g["game_id"], g["seats"][0]["token"])
    ws.receive_json()
    for _ in range(120):
        ws.send_json({"type": "ping"})
    replies = [ws.receive_json() for _ in range(120)]
    assert {"type": "pong"} in replies
    assert any(r.get("code") == "too_many" for r in replies)
    stack.close()


@pytest.mark.parametrize("join", [
    {"type": "join", "game_id": "nosuchgame", "token": "t"},
    {"type": "join", "game_id": "GID", "token": "wrong"},
    {"type": "join", "game_id": "GID"},
    {"type": "join", "spectator": "nobody"},
    {"type": "act", "action": "end"},
])
def test_a_bad_join_is_refused_and_closed(api: Api, join: dict[str, Any]) -> None:
    g = api.create(game="dominion", kingdom="first-game", seed=8,
                   seats=[{"kind": "human"}, {"kind": "human"}])
    msg = {k: (g["game_id"] if v == "GID" else v) for k, v in join.items()}
    with api.c.websocket_connect("/api/ws") as ws:
        ws.send_json(msg)
        err = ws.receive_json()
        assert err["type"] == "error" and "view" not in err
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008  # for good: the browser says the link is wrong
    assert api.service.table(g["game_id"]).subscribers == set()


def _refused_for_now(ws: Any) -> dict[str, Any]:
    """The error a socket is refused with, ``too_many``, after which it is closed with
    1013 ("try again later")."""
    err: dict[str, Any] = ws.receive_json()
    assert err["type"] == "error" and err["code"] == "too_many", err
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 1013
    return err


def _joins(client: Any, join: dict[str, Any]) -> None:
    """A socket joins with ``join`` and gets its view."""
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json(join)
        assert ws.receive_json()["type"] == "view"


def test_a_join_to_a_full_table_is_refused_for_now_not_for_good() -> None:
    """A table with as many sockets as a server admits refuses one more with
    ``too_many`` and close code 1013 ("try again later"), so that the browser reconnects
    instead of saying the invitation link is wrong; once a socket leaves, it is admitted."""
    with make_client(max_seat_sockets=1) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=8,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        join = {"type": "join", "game_id": g["game_id"], "token": g["seats"][0]["token"]}
        with client.websocket_connect("/api/ws") as first:
            first.send_json(join)
            assert first.receive_json()["type"] == "view"
            with client.websocket_connect("/api/ws") as second:
                second.send_json(join)
                _refused_for_now(second)
        _joins(client, join)


@pytest.mark.parametrize("limits", [{"max_client_sockets": 2}, {"max_sockets": 2}])
def test_sockets_are_counted_from_one_address_and_in_all(limits: dict[str, int]) -> None:
    """Sockets open at once, joined or not, are bounded from one client address and in
    all (1,024 spectators' sockets took 108 MB, and enough would use up the server's
    files); one more is refused for now (``too_many``, 1013), and admitted once one
    closes."""
    with make_client(**limits) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=8,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        join = {"type": "join", "spectator": g["spectator"]}
        with ExitStack() as held:
            for _ in range(2):
                held.enter_context(client.websocket_connect("/api/ws"))  # not joined yet
            with client.websocket_connect("/api/ws") as third:
                assert _refused_for_now(third)["message"] == ("too many connections to "
                                                              "this server; try again later")
        _joins(client, join)


def test_a_socket_whose_first_view_fails_leaves_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A join whose first view cannot be sent does not stay counted against the seat's
    sockets: a seat cannot be filled by joins that failed."""
    from dominari.server import service as service_module

    with make_client(max_seat_sockets=1) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=8,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        join = {"type": "join", "game_id": g["game_id"], "token": g["seats"][0]["token"]}
        real = service_module.Subscriber.view
        with monkeypatch.context() as m:
            def broken(self: Any, t: Any) -> Any:
                raise RuntimeError("the socket closed while its first view was built")
            m.setattr(service_module.Subscriber, "view", broken)
            with client.websocket_connect("/api/ws") as ws:
                ws.send_json(join)
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()
        assert service_module.Subscriber.view is real
        assert api.service.table(g["game_id"]).subscribers == set()
        with client.websocket_connect("/api/ws") as again:  # the seat's one socket is free
            again.send_json(join)
            assert again.receive_json()["type"] == "view"


def test_spectators_never_keep_a_player_from_the_seat() -> None:
    """The spectator link is shared freely, so spectators have their own allowance: a
    table full of spectators refuses one more, and still admits the seats' players."""
    with make_client(max_subscribers=2, max_seat_sockets=1) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=8,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        watch = {"type": "join", "spectator": g["spectator"]}
        with client.websocket_connect("/api/ws") as a, client.websocket_connect("/api/ws") as b:
            for ws in (a, b):
                ws.send_json(watch)
                assert ws.receive_json()["type"] == "view"
            with client.websocket_connect("/api/ws") as third:
                third.send_json(watch)
                err = third.receive_json()
                assert (err["code"], err["message"]) == (
                    "too_many", "too many spectators of this game")
            for seat in g["seats"]:
                with client.websocket_connect("/api/ws") as player:
                    player.send_json({"type": "join", "game_id": g["game_id"],
                                      "token": seat["token"]})
                    assert player.receive_json()["type"] == "view"


def _states(game: str, config: dict[str, Any]) -> Any:
    if game == "dominion":
        return DominionState.new(DominionConfig.from_json(config, log=True))
    cfg = DominationsConfig.from_json(config, log=True)
    return DominationsState.new(cfg, dominations_data(cfg.data))


def _merge(known: list[str], m: dict[str, Any]) -> list[str]:
    """The log a client holds after message ``m`` (what the browser app's mergeLog does
    for a client that joined at the start)."""
    start = m["log_start"]
    assert 0 <= start <= len(known), "a log piece that does not follow what was sent"
    return known[:start] + m["log"]


def _whole_log(state: Any) -> list[str]:
    if state.game_name == "dominion":
        return list(state.view(None)["log"])
    return event_lines(state, state.events)


def _check_messages(game: str, config: dict[str, Any], actions: list[str], seat: int | None,
                    messages: list[dict[str, Any]]) -> int:
    """Every view sent to ``seat``'s socket is that seat's view of the game at that version
    and does not change when everything the seat cannot see is dealt again; merging the
    log pieces gives the whole log."""
    state = _states(game, config)
    done = 0
    rng = random.Random(5)
    checked = 0
    log: list[str] = []
    for m in messages:
        assert m["type"] == "view", m
        while done < m["version"]:
            state.apply(state.parse_action(actions[done]))
            done += 1
        assert m["seat"] == seat
        # The log travels beside the view, piece by piece (Dominion's view carries it).
        assert m["view"] == state.views([seat], log=False)[0]
        log = _merge(log, m)
        assert log == _whole_log(state)
        if seat is not None and checked % 3 == 0:
            other = state.determinize(seat, rng)
            assert other.views([seat], log=False)[0] == m["view"], \
                "the view shows hidden information"
        if game == "dominations":
            # Tiles put back under the supply are public until drawn (D-SET-5, D-AGE-9).
            hidden = {state.data.tiles[t].id for t in state.supply[state.supply_known:]}
            shown = str(m)
            assert not any(f"'{tid}'" in shown for tid in hidden)
        else:
            # No seat's hand cards or deck order in the public piles; one's own hand only.
            for pile in m["view"]["piles"]:
                assert "hand" not in pile and "deck" not in pile
            own = None if seat is None else sorted(state.players[seat].hand)
            assert m["view"]["hand"] == (None if own is None else [NAME[c] for c in own])
        checked += 1
    return checked


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_every_message_of_a_whole_game_shows_only_what_the_seat_may_see(game: str) -> None:
    # The players here answer faster than any person: no message limit in the way.
    with make_client(socket_rate=1e6, socket_burst=1e6) as client:
        _whole_game(Api(client), game)


def _whole_game(api: Api, game: str) -> None:
    seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}]
    extra: dict[str, Any] = {"kingdom": "first-game"} if game == "dominion" else {}
    if game == "dominations":
        seats.append({"kind": "bot", "bot": "greedy"})
    g = api.create(game=game, seats=seats, seed=11, **extra)
    gid = g["game_id"]
    tokens = [s["token"] for s in g["seats"][:2]]
    stack = ExitStack()
    socks = [_join(stack, api, gid, tokens[0]), _join(stack, api, gid, tokens[1]),
             _join(stack, api, gid, spectator=g["spectator"])]
    got: list[list[dict[str, Any]]] = [[], [], []]
    t = api.service.table(gid)
    rng = random.Random(2)
    for ws, into in zip(socks, got, strict=True):
        _upto(ws, 0, into)
    while True:
        api.settle()
        for ws, into in zip(socks, got, strict=True):
            last = _upto(ws, t.version, into)
        if last["status"] == "finished":
            break
        seat = t.current_seat()
        mine = got[seat][-1]
        assert mine["current_seat"] == seat and mine["view"]["legal_actions"]
        socks[seat].send_json({"type": "act", "version": mine["version"],
                               "action": _prefer(mine["view"]["legal_actions"], rng)})
        _upto(socks[seat], mine["version"] + 1, got[seat])
    stack.close()
    config = t.config
    for seat, msgs in zip((0, 1, None), got, strict=True):
        views = [m for m in msgs if m["type"] == "view"]
        assert _check_messages(game, config, t.actions, seat, views) > 20


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_log_pieces_merge_into_the_whole_log_through_undos_and_late_joins(game: str) -> None:
    """Each socket gets the log's last lines once, then only what changed: merged in
    order (an undo's piece drops lines), they are the whole log after every message; a
    socket that joins a long game gets the tail and fetches the rest once."""
    from dominari.server.tables import LOG_TAIL

    with make_client(socket_rate=1e6, socket_burst=1e6) as client, ExitStack() as stack:
        api = Api(client)
        extra: dict[str, Any] = {"kingdom": "first-game"} if game == "dominion" else {}
        g = api.create(game=game, seats=[{"kind": "human"}, {"kind": "human"}], seed=3,
                       **extra)
        gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
        t = api.service.table(gid)
        socks = [_join(stack, api, gid, tokens[0]), _join(stack, api, gid, tokens[1]),
                 _join(stack, api, gid, spectator=g["spectator"])]
        logs: list[list[str]] = [[], [], []]
        late: Socket = None
        rng = random.Random(4)
        undos = 0
        for i, ws in enumerate(socks):
            logs[i] = _merge(logs[i], ws.receive_json())
        while t.version < 600 and not t.finished:
            assert all(log == t.log_lines() for log in logs)
            assert logs[0] == _whole_log(t.state)
            if late is None and len(t.log_lines()) > LOG_TAIL + 20:
                late = _join(stack, api, gid, spectator=g["spectator"])
                first = late.receive_json()
                assert first["log_start"] == len(t.log_lines()) - LOG_TAIL > 0
                assert len(first["log"]) == LOG_TAIL
                whole = api.c.get(f"/api/games/{gid}/log").json()["log"]
                socks.append(late)
                logs.append(whole[:first["log_start"]] + first["log"])
                assert logs[-1] == t.log_lines()
            seat = t.current_seat()
            want = t.version + 1
            if t.can_undo(seat) and rng.random() < 0.5:
                socks[seat].send_json({"type": "undo", "version": t.version})
                undos += 1
            else:
                legal = [t.state.format_action(a) for a in t.state.legal_actions()]
                socks[seat].send_json({"type": "act", "version": t.version,
                                       "action": rng.choice(legal)})
            for i, ws in enumerate(socks):
                m = ws.receive_json()
                assert m["type"] == "view" and m["version"] == want, m
                logs[i] = _merge(logs[i], m)
        # A view asked for again (or sent with an error) repeats nothing and loses nothing.
        socks[0].send_json({"type": "view"})
        again = socks[0].receive_json()
        assert again["log"] == [] and again["log_start"] == len(logs[0])
        assert undos > 5 and late is not None


def test_views_of_one_version_are_built_once_and_never_mixed_up(api: Api) -> None:
    """The table builds the views of all the seats watched at once and keeps them for the
    version: each seat still gets exactly its own view, whichever is asked first."""
    g = api.create(game="dominion", kingdom="first-game", seed=8,
                   seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    t = api.service.table(g["game_id"])
    for order in ([0, 1, 2, None], [None, 2, 1, 0], [1, None, 0, 2]):
        t._views = None
        for seat in order:
            m = t.message(seat)
            assert m["seat"] == seat
            assert m["view"] == t.state.views([seat], log=False)[0]
            hand = m["view"]["hand"]
            if seat is None:
                assert hand is None
            else:
                assert hand == [NAME[c] for c in sorted(t.state.players[seat].hand)]
    built = t.views([0, 1, 2, None])
    assert [built[s]["view"]["hand"] is None for s in (0, 1, 2, None)] == [
        False, False, False, True]
    assert all(built[s]["view"]["legal_actions"] == [] for s in (0, 1, 2, None)
               if s != t.current_seat())
