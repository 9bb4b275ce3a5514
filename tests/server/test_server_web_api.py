"""The server endpoints the browser app uses (issue 8): options, catalogs, placement
previews, replays, the Dominations log in words, and the app's page and files."""

from __future__ import annotations

import random
from typing import Any

import pytest
from server_client import Api, auth


def _finish(api: Api, gid: str, tokens: list[str], seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(20000):
        v = api.view(gid, tokens[0])
        if v["status"] == "finished":
            return
        seat = v["current_seat"]
        mine = api.view(gid, tokens[seat])
        r = api.act(gid, tokens[seat], rng.choice(mine["view"]["legal_actions"]),
                    mine["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not finish")


def test_every_recommended_kingdom_name_is_accepted(api: Api) -> None:
    opts = api.c.get("/api/options").json()["games"]["dominion"]
    for name in opts["kingdoms"]:
        g = api.create(game="dominion", seats=[{"kind": "human"}, {"kind": "human"}],
                       kingdom=name)
        view = api.view(g["game_id"], g["seats"][0]["token"])
        if name != "random":
            assert view["view"]["kingdom"] == sorted(opts["recommended"][name])
    r = api.c.post("/api/games", json={"game": "dominion", "seats": [{}, {}],
                                       "kingdom": ["Cellar"] * 11})
    assert r.status_code == 422 and "10" in r.json()["error"]["message"]


@pytest.mark.parametrize(("extra", "message"), [
    ({"kingdom": ["Cellar"] * 11},  # the list's error, not the string branch's too
     "kingdom: List should have at most 10 items after validation, not 11"),
    ({"kingdom": ["Cellar", "x" * 41]}, "kingdom.1: String should have at most 40 characters"),
    ({"max-turns": 5}, "max-turns: Extra inputs are not permitted"),
    ({"game": "dominations", "rules": {"objective-scoring": 5}},
     "rules.objective-scoring: Input should be a valid string"),
])
def test_a_bad_field_is_named_as_the_request_names_it(api: Api, extra: dict[str, Any],
                                                      message: str) -> None:
    """A validation error names the field as the request wrote it (hyphens kept), not the
    branches of a union that pydantic tried."""
    body = {"game": "dominion", "seats": [{}, {}], **extra}
    r = api.c.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == {"code": "bad_request", "message": message}


def test_options_name_the_bots_variants_and_kingdoms(api: Api) -> None:
    opts = api.c.get("/api/options").json()
    assert "greedy" in opts["games"]["dominations"]["bots"]
    for game in ("dominion", "dominations"):  # a few words on every bot, for the lobby
        g = opts["games"][game]
        assert list(g["bot_blurbs"]) == g["bots"] and all(g["bot_blurbs"].values())
    assert opts["games"]["dominion"]["bot_blurbs"]["smithy"] == "Smithy Big Money"
    # a search level says how long it thinks here (the server's --bot-seconds)
    assert opts["bot_seconds"] == api.service.settings.bot_seconds
    for game in ("dominion", "dominations"):
        for level in ("mcts-easy", "mcts", "mcts-hard"):
            blurb = opts["games"][game]["bot_blurbs"][level]
            assert f"; up to {opts['bot_seconds']:g} s a move" in blurb, blurb
            assert blurb.endswith(", longer on a busy server"), blurb
    assert opts["games"]["dominations"]["variants"] == ["retail", "prototype"]
    assert len(opts["games"]["dominion"]["kingdom_cards"]) == 25
    assert "first-game" in opts["games"]["dominion"]["kingdoms"]
    # the rule bots' rankings by number of players, for the lobby to rank a seat's bot
    from dominari.bots.kingdom import KINGDOM_ORDERS, best_rule_bot

    orders = opts["games"]["dominion"]["rule_bot_orders"]
    assert set(orders) == {"2", "3", "4"}
    for n, order in orders.items():
        assert [e["bot"] for e in order] == list(KINGDOM_ORDERS[int(n)])
        for name, cards in opts["games"]["dominion"]["recommended"].items():
            first = next(e["bot"] for e in order if set(e["needs"]) <= set(cards))
            assert first == best_rule_bot(name, int(n)), (name, n)


def test_catalogs_describe_the_components_of_each_game(api: Api) -> None:
    d = api.create(game="dominion", seats=[{"kind": "human"}, {"kind": "human"}])
    cards = api.c.get(f"/api/games/{d['game_id']}/catalog").json()["cards"]
    assert cards["Witch"]["cost"] == 5 and "Attack" in cards["Witch"]["types"]
    assert all(c["text"] for c in cards.values())
    m = api.create(game="dominations", seats=[{"kind": "human"}, {"kind": "human"}])
    files = api.c.get(f"/api/games/{m['game_id']}/catalog").json()["files"]
    assert {"tiles", "skills", "monuments", "objectives", "roles"} <= set(files)
    assert api.c.get("/api/games/nope/catalog").status_code == 404


def test_a_placement_preview_lists_what_it_would_produce(api: Api) -> None:
    g = api.create(game="dominations", seats=[{"kind": "human"}, {"kind": "human"}], seed=4)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    rng = random.Random(2)
    for _ in range(200):  # through the draft to the first placement
        v = api.view(gid, tokens[0])
        mine = api.view(gid, tokens[v["current_seat"]])
        if mine["view"]["phase"] == "growth":
            break
        api.act(gid, tokens[v["current_seat"]], rng.choice(mine["view"]["legal_actions"]),
                mine["version"])
    seat = mine["current_seat"]
    place = next(a for a in mine["view"]["legal_actions"] if a.startswith("L"))
    r = api.c.post(f"/api/games/{gid}/preview", headers=auth(tokens[seat]),
                   json={"action": place})
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["items"] and all(it["text"].startswith(mine["seats"][it["player"]]["name"])
                              for it in p["items"])
    total: dict[str, int] = {}
    for it in p["items"]:
        if it["player"] == seat:
            total[it["domain"]] = total.get(it["domain"], 0) + it["amount"]
    assert p["totals"][seat] == total
    assert api.view(gid, tokens[0])["version"] == mine["version"]  # nothing changed
    other = api.c.post(f"/api/games/{gid}/preview", headers=auth(tokens[1 - seat]),
                       json={"action": place})
    assert other.status_code == 409
    bad = api.c.post(f"/api/games/{gid}/preview", headers=auth(tokens[seat]),
                     json={"action": "city 9,9"})
    assert bad.status_code == 400
    # the codes of a move: unreadable text is a bad action, a refused action an illegal one
    codes = {}
    for text in ("zzz", "city 9,9"):
        for path in ("preview", "actions"):
            r = api.c.post(f"/api/games/{gid}/{path}", headers=auth(tokens[seat]),
                           json={"action": text, "version": mine["version"]})
            codes[text, path] = r.json()["error"]["code"]
    assert codes == {("zzz", "preview"): "bad_action", ("zzz", "actions"): "bad_action",
                     ("city 9,9", "preview"): "illegal_action",
                     ("city 9,9", "actions"): "illegal_action"}


def test_dominations_messages_carry_the_log_in_words(api: Api) -> None:
    g = api.create(game="dominations", seats=[{"kind": "human", "name": "Ann"},
                                              {"kind": "human", "name": "Bob"}], seed=4)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    first = api.view(gid, tokens[0])
    assert isinstance(first["log"], list)
    n = len(first["log"])
    for keeps in (1, 2):  # both players keep an objective
        seat = api.view(gid, tokens[0])["current_seat"]
        mine = api.view(gid, tokens[seat])
        api.act(gid, tokens[seat], mine["view"]["legal_actions"][0], mine["version"])
        after = api.view(gid, tokens[0])
        assert after["log"][:n] == first["log"]
        # The kept objectives are revealed together, once both are kept (D-SET-3).
        kept = [line for line in after["log"] if "keeps the objective" in line]
        assert len(kept) == (0 if keeps == 1 else 2), after["log"]
    assert after["spectator"] == g["spectator"]


def test_replays_of_finished_games_only(api: Api) -> None:
    g = api.create(game="dominion", seats=[{"kind": "human"}, {"kind": "human"}], seed=5,
                   kingdom="first-game", max_turns=4)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    r = api.c.get(f"/api/replay/{g['spectator']}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "in_progress"
    _finish(api, gid, tokens)
    final = api.view(gid, tokens[1])
    first: dict[str, Any] = api.c.get(f"/api/replay/{g['spectator']}?step=0").json()
    n = first["steps"]
    assert first["type"] == "replay" and first["version"] == 0 and len(first["moves"]) == n
    last = api.c.get(f"/api/replay/{g['spectator']}?step={n}&seat=1").json()
    assert last["view"] == final["view"]
    assert api.c.get(f"/api/replay/{g['spectator']}?step={n + 1}").status_code == 400
    assert api.c.get(f"/api/replay/{g['spectator']}?seat=7").status_code == 422
    assert api.c.get("/api/replay/unknown").status_code == 404


def test_the_app_page_and_its_files_are_served(api: Api) -> None:
    r = api.c.get("/")
    assert r.status_code == 200 and '<script type="module" src="/static/js/app.js">' in r.text
    js = api.c.get("/static/js/app.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert api.c.get("/static/js/nope.js").status_code == 404
    assert api.c.get("/static/../server/app.py").status_code == 404


@pytest.mark.parametrize("game", ["dominion", "dominations"])
def test_every_step_of_a_replay_is_the_game_played_to_it(game: str) -> None:
    """A replay keeps the positions every :data:`REPLAY_MARKS` moves and plays a step from
    the nearest one before it (each step played the whole game again: 30 ms for a long
    game); each step, from either end and in any order, is the game played to it from its
    start, for every seat and for spectators, its log too."""
    from server_client import make_client

    from dominari.server.tables import REPLAY_MARKS, Table, new_state

    options = {"kingdom": "first-game", "max_turns": 14} if game == "dominion" else {}
    with make_client(action_rate=1e6, action_burst=1e6, replay_rate=1e6,
                     replay_burst=1e6) as client:
        api = Api(client)
        g = api.create(game=game, seats=[{"kind": "human"}, {"kind": "human"}], seed=5,
                       **options)
        gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
        _finish(api, gid, tokens)
        t = api.service.tables[gid]
        n = len(t.actions)
        assert n > 2 * REPLAY_MARKS
        steps = [n, 0, REPLAY_MARKS, REPLAY_MARKS - 1, REPLAY_MARKS + 1, n - 1,
                 2 * REPLAY_MARKS, n - n % REPLAY_MARKS, *random.Random(1).sample(range(n), 6)]
        for step in steps:
            state = new_state(t.game, t.config, {})
            for text in t.actions[:step]:
                state.apply(state.parse_action(text))
            played = Table(id=t.id, game=t.game, config=t.config, spectator=t.spectator,
                           seats=t.seats, state=state, version=step)
            for seat in (None, 0, 1):
                q = "" if seat is None else f"&seat={seat}"
                got = api.c.get(f"/api/replay/{g['spectator']}?step={step}{q}").json()
                assert got["view"] == played.message(seat)["view"], (step, seat)
                assert got["log"] == played.log_lines() and got["step"] == step, (step, seat)
                assert [m["action"] for m in got["moves"]] == t.actions
                if game == "dominion":  # each player's VP at the step
                    assert got["scores"] == [state.score(p) for p in (0, 1)], step
        # each move's words are the log's lines it made, in order: together, the log
        # after the lines of the setup
        last = api.c.get(f"/api/replay/{g['spectator']}?step={n}").json()
        said = [line for m in last["moves"] for line in m["text"]]
        whole = [line.strip() for line in last["log"] if line.strip()]
        assert said and whole[len(whole) - len(said):] == said


def test_replays_are_rationed_by_client() -> None:
    """Each replay plays the game again from its start (30 ms for a long Dominations
    game): asked for without pause, they slowed every other request. A client may ask
    ``replay_burst`` at once, then ``replay_rate`` a second (429 ``too_many`` beyond)."""
    from server_client import make_client

    with make_client(replay_rate=0.001, replay_burst=3) as client:
        api = Api(client)
        g = api.create(game="dominion", seats=[{"kind": "human"}, {"kind": "human"}],
                       seed=5, kingdom="first-game", max_turns=2)
        _finish(api, g["game_id"], [s["token"] for s in g["seats"]])
        codes = [api.c.get(f"/api/replay/{g['spectator']}?step={k}").status_code
                 for k in range(4)]
        assert codes == [200, 200, 200, 429]
        refused = api.c.get(f"/api/replay/{g['spectator']}").json()
        assert refused["error"] == {"code": "too_many",
                                    "message": "too many replays asked for; slow down"}


def test_the_apps_files_have_their_types_whatever_the_systems_table_says(api: Api) -> None:
    """Windows reads the types of files from its registry, where some programs make
    ``.js`` plain text, which a browser refuses as a module script (a blank page)."""
    import mimetypes

    mimetypes.add_type("text/plain", ".js")
    mimetypes.add_type("text/plain", ".css")
    try:
        js, css = api.c.get("/static/js/app.js"), api.c.get("/static/css/app.css")
    finally:
        mimetypes.add_type("text/javascript", ".js")
        mimetypes.add_type("text/css", ".css")
    assert js.headers["content-type"] == "text/javascript; charset=utf-8"
    assert css.headers["content-type"] == "text/css; charset=utf-8"


def test_every_answer_carries_the_hardening_headers(api: Api) -> None:
    """No sniffing of types, no game address sent to other sites, no frame of the app in
    another site's page (clickjacking), and the app's pages' content policy; FastAPI's
    ``/docs`` loads its page from a CDN, so it has no policy."""
    from dominari.server.app import CONTENT_POLICY

    for path in ("/", "/static/js/app.js", "/api/health", "/api/games/nope", "/docs"):
        r = api.c.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY", path
        policy = r.headers.get("content-security-policy")
        assert policy == (None if path == "/docs" else CONTENT_POLICY), path
    too_large = api.c.post("/api/games", content=b"x" * 70_000,
                           headers={"content-type": "application/json"})
    assert too_large.status_code == 413 and too_large.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in CONTENT_POLICY and "unsafe" not in CONTENT_POLICY


def test_the_whole_log_when_views_carry_its_tail(api: Api) -> None:
    from dominari.server.tables import LOG_TAIL

    g = api.create(game="dominations", seats=[{"kind": "human"}, {"kind": "human"}], seed=6)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    rng = random.Random(3)
    for _ in range(400):
        v = api.view(gid, tokens[0])
        if v["log_start"] > 0:
            break
        mine = api.view(gid, tokens[v["current_seat"]])
        api.act(gid, tokens[v["current_seat"]], rng.choice(mine["view"]["legal_actions"]),
                mine["version"])
    assert len(v["log"]) == LOG_TAIL and v["log_start"] > 0
    whole = api.c.get(f"/api/games/{gid}/log").json()
    assert whole["version"] == v["version"]
    assert whole["log"][v["log_start"]:] == v["log"]
    # Dominion's log travels the same way (beside the view, not in it).
    d = api.create(game="dominion", seats=[{"kind": "human"}, {"kind": "human"}], seed=2,
                   kingdom="first-game")
    dv = api.view(d["game_id"], d["seats"][0]["token"])
    dlog = api.c.get(f"/api/games/{d['game_id']}/log").json()
    assert dlog["log"] == dv["log"] and dv["log_start"] == 0 and "log" not in dv["view"]
    assert dlog["log"][0].startswith("— ")
