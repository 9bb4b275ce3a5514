"""The game server's HTTP API (issue 7 §1 and §3): creating games, seat views, actions,
stale and illegal submissions, tokens, records and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_client import Api, auth, make_client

from dominari.bots import load_bot
from dominari.dominion.engine import DominionState


def _two_humans(api: Api, game: str = "dominion", **extra: Any) -> tuple[str, list[str]]:
    if game == "dominion":
        extra.setdefault("kingdom", "first-game")
    g = api.create(game=game, seats=[{"kind": "human"}, {"kind": "human"}], seed=4, **extra)
    return g["game_id"], [s["token"] for s in g["seats"]]


def test_create_returns_one_token_per_human_seat_and_a_spectator(api: Api) -> None:
    g = api.create(game="dominations", seats=[{"kind": "human", "name": "Ann"},
                                              {"kind": "bot", "bot": "greedy"},
                                              {"kind": "human"}])
    tokens = [s["token"] for s in g["seats"]]
    assert tokens[1] is None
    assert all(isinstance(t, str) and len(t) >= 40 for t in (tokens[0], tokens[2]))
    assert tokens[0] != tokens[2]
    assert g["seats"][0]["name"] == "Ann" and g["seats"][1]["kind"] == "bot"
    assert g["spectator"] and g["spectator"] not in tokens
    # The store keeps only digests: no token appears in the database.
    stored = api.service.db.load(g["game_id"])
    assert all(t not in str(stored) for t in (tokens[0], tokens[2]))


def test_each_token_sees_its_own_seat(api: Api) -> None:
    gid, tokens = _two_humans(api)
    for seat, token in enumerate(tokens):
        v = api.view(gid, token)
        assert v["seat"] == seat and v["view"]["player"] == seat
        assert v["view"]["hand"] is not None
    spect = api.c.get(f"/api/spectate/{api.service.table(gid).spectator}").json()
    assert spect["seat"] is None and spect["view"]["hand"] is None


def test_missing_wrong_or_other_games_token_acts_for_nobody(api: Api) -> None:
    gid, tokens = _two_humans(api)
    _, other_tokens = _two_humans(api)
    before = api.view(gid, tokens[0])["version"]
    r = api.c.post(f"/api/games/{gid}/actions", json={"action": "end", "version": before})
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_token"
    r = api.act(gid, "x" * 43, "end", before)
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    r = api.act(gid, other_tokens[0], "end", before)
    assert r.status_code == 403
    for header in (f"Basic {tokens[0]}", tokens[0], "Bearer ", f"Token {tokens[0]}"):
        r = api.c.post(f"/api/games/{gid}/actions", headers={"Authorization": header},
                       json={"action": "end", "version": before})
        assert r.status_code == 401
        assert r.json()["error"] == {"code": "no_token", "message": "the Authorization "
                                     "header must be 'Bearer <seat token>'"}
        assert tokens[0] not in r.text
    assert api.view(gid, tokens[0])["version"] == before
    # An error never echoes the token.
    r = api.act(gid, "secret-token-value", "end", before)
    assert "secret-token-value" not in r.text


def test_only_the_deciding_seat_may_act(api: Api) -> None:
    gid, tokens = _two_humans(api)
    v = api.view(gid, tokens[0])
    current = v["current_seat"]
    idle = 1 - current
    r = api.act(gid, tokens[idle], "end", v["version"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    # The message names the deciding player, and their seat both as people count it and
    # as the views do.
    name = v["seats"][current]["name"]
    assert r.json()["error"]["message"] == (
        f"it is not your decision: {name} decides now (the {('1st', '2nd')[current]} seat, "
        f"{current} in the views)")


def test_an_action_moves_the_version_and_a_stale_one_is_refused(api: Api) -> None:
    gid, tokens = _two_humans(api)
    v = api.view(gid, tokens[0])
    seat = v["current_seat"]
    me = api.view(gid, tokens[seat])
    action = me["view"]["legal_actions"][0]
    r = api.act(gid, tokens[seat], action, me["version"])
    assert r.status_code == 200 and r.json()["version"] == me["version"] + 1
    # The same submission again (a duplicate) is stale: nothing changes.
    r2 = api.act(gid, tokens[seat], action, me["version"])
    assert r2.status_code == 409 and r2.json()["error"]["code"] == "stale"
    assert api.view(gid, tokens[seat])["version"] == me["version"] + 1
    # A version the game has not reached was never seen: not stale, a bad request.
    now = api.view(gid, tokens[0])
    r3 = api.act(gid, tokens[now["current_seat"]], "buy Silver", now["version"] + 4)
    assert r3.status_code == 400 and r3.json()["error"] == {
        "code": "bad_request",
        "message": f"there is no version {now['version'] + 4} yet: the game is at version "
                   f"{now['version']}"}
    assert api.view(gid, tokens[0])["version"] == now["version"]
    # And a request of the wrong type is refused, not read as another value.
    for version in (True, "1"):
        r4 = api.act(gid, tokens[seat], action, version)  # type: ignore[arg-type]
        assert r4.status_code == 422 and "version" in r4.json()["error"]["message"]


def test_illegal_and_unreadable_actions_are_refused_with_a_reason(api: Api) -> None:
    gid, tokens = _two_humans(api)
    seat = api.view(gid, tokens[0])["current_seat"]
    r = api.act(gid, tokens[seat], "buy Province", 0)  # 5 Coppers at most on turn 1
    assert r.status_code == 400 and r.json()["error"]["code"] == "illegal_action"
    assert "Province" in r.json()["error"]["message"]
    r = api.act(gid, tokens[seat], "fly away", 0)
    assert r.status_code == 400 and r.json()["error"]["code"] in ("bad_action",
                                                                    "illegal_action")
    assert api.view(gid, tokens[seat])["version"] == 0


def test_prefixes_are_stored_in_canonical_notation(api: Api) -> None:
    gid, tokens = _two_humans(api)
    seat = api.view(gid, tokens[0])["current_seat"]
    r = api.act(gid, tokens[seat], "b silv", 0)
    assert r.status_code == 200, r.text
    assert api.service.db.load(gid).log[0].text == "buy Silver"


def test_bots_play_their_seats(api: Api) -> None:
    g = api.create(game="dominion", kingdom="first-game", seed=2,
                   seats=[{"kind": "bot", "bot": "bmu"}, {"kind": "bot", "bot": "smithy"}])
    api.settle()
    t = api.service.table(g["game_id"])
    assert t.finished and t.version == len(t.actions) > 20
    rec = api.c.get(f"/api/games/{g['game_id']}/record").json()
    assert DominionState.from_record(rec).outcome() == t.state.outcome()
    assert [(x["kind"], x["bot"]) for x in rec["seats"]] == [("bot", "bmu"), ("bot", "smithy")]


def test_a_record_names_the_search_bots_with_their_time_per_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A server's search bots think for ``--bot-seconds``, so a seed alone does not play
    their games again: the record says how each seat was played."""
    with make_client(bot_seconds=0.05) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=2, max_turns=3,
                       seats=[{"kind": "bot", "bot": "mcts-easy", "name": "Eve"},
                              {"kind": "bot", "bot": "bm"}])
        api.settle()
        for _ in range(3000):
            if api.service.table(g["game_id"]).finished:
                break
            api.settle()
        rec = api.c.get(f"/api/games/{g['game_id']}/record").json()
        search = rec["seats"][0]["search"]
        assert [{k: v for k, v in x.items() if k != "search"} for x in rec["seats"]] == [
            {"seat": 0, "kind": "bot", "bot": "mcts-easy:seconds=0.05", "name": "Eve"},
            {"seat": 1, "kind": "bot", "bot": "bm", "name": "bm (2)"}]
        # every setting of the search as the server played it: the level's and its clock
        assert search == {**load_bot("mcts-easy").settings(), "seconds": 0.05}
        assert DominionState.from_record(rec).is_terminal()
    # replay says how the server played each bot seat
    from dominari.cli import main

    path = tmp_path / "server.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # lines as the terminal's width wraps them
    assert ("Bots as they played: mcts-easy:seconds=0.05 (seat 1): 30 rollouts, at most 0.05 s "
            "a decision, at most 4 candidates, paired worlds; margin 0 bm (seat 2) ") in out


def test_a_seed_of_another_type_is_refused_not_read_as_a_number(api: Api) -> None:
    """``true`` is not the seed 1, nor ``"7"`` the seed 7: one clear error each."""
    for seed in (True, "7", 1.0):
        r = api.c.post("/api/games", json={"game": "dominion", "seats": [{}, {}],
                                           "seed": seed})
        assert r.status_code == 422, r.text
        assert r.json()["error"] == {"code": "bad_request",
                                     "message": "seed: Input should be a valid integer"}


def test_two_seats_of_one_name_are_refused(api: Api) -> None:
    """The log and the tables name players by their names, so two seats may not share one
    (whatever the case), and nothing is created."""
    before = len(api.service.tables)
    r = api.c.post("/api/games", json={"game": "dominion", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "bm", "name": "ann"}]})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == {"code": "bad_request", "message": "the 1st and 2nd seats are "
                                 "both named 'ann': give each seat a name of its own"}
    # nor names that read the same: a zero-width space or a direction mark shows nothing
    for first, hidden in [("Ann", "A\u200bnn"), ("Ann", "Ann\u200f"), ("Ann", "\u061cANN"),
                          ("Ann", "Ann\u034f"), ("Zo\u00eb", "Zoe\u0308")]:
        r = api.c.post("/api/games", json={"game": "dominion", "seats": [
            {"kind": "human", "name": first}, {"kind": "human", "name": hidden}]})
        assert r.status_code == 400 and "both named" in r.json()["error"]["message"], hidden
    assert len(api.service.tables) == before
    # a name of invisible marks only is no name: the seat's own is given
    g = api.create(game="dominion", seats=[{"kind": "human", "name": "\u200b\u200f"},
                                           {"kind": "human", "name": "\u3164"}])
    assert [s["name"] for s in api.view(g["game_id"], g["seats"][0]["token"])["seats"]] \
        == ["Player 1", "Player 2"]


def test_a_seat_name_with_control_characters_is_refused(api: Api) -> None:
    """A name is shown in others' browsers and printed by ``replay``: one holding a control
    character or a bidirectional override is refused, and nothing is created."""
    before = len(api.service.tables)
    for name in ("Ann\x1b[2J", "Ann\u202e"):
        r = api.c.post("/api/games", json={"game": "dominations", "seats": [
            {"kind": "human", "name": name}, {"kind": "bot", "bot": "greedy"}]})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == {"code": "bad_request", "message": "a player's name must "
                                     f"hold no control characters: {name!r}"}
    assert len(api.service.tables) == before


def test_a_game_stored_with_such_a_name_loads_naming_it_by_its_escapes(db_file: str) -> None:
    """A game stored before names were checked, with an escape sequence in a seat's name,
    is loaded and goes on, the name read as its escapes (as a record's is by ``replay``)."""
    import sqlite3

    with make_client(db_file) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=2,
                       seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "bm"}])
        gid, token = g["game_id"], g["seats"][0]["token"]
    with sqlite3.connect(db_file.removeprefix("sqlite:///")) as conn:
        (config,) = conn.execute("SELECT config FROM games WHERE id = ?", (gid,)).fetchone()
        stored = json.loads(config)
        stored["names"] = ["Ann\x1b[2J", *stored["names"][1:]]
        conn.execute("UPDATE games SET config = ? WHERE id = ?", (json.dumps(stored), gid))
        conn.execute("UPDATE seats SET name = ? WHERE game_id = ? AND seat = 0",
                     ("Ann\x1b[2J", gid))
    with make_client(db_file) as client:
        api = Api(client)
        v = api.view(gid, token)
        assert v["seats"][0]["name"] == "Ann\\x1b[2J"
        r = api.act(gid, token, v["view"]["legal_actions"][-1], v["version"])
        assert r.status_code == 200, r.text
        assert api.service.table(gid).state.config.names[0] == "Ann\\x1b[2J"


def test_a_game_keeps_the_time_per_decision_it_was_created_with(
        db_file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server started again with another ``--bot-seconds``, or a later version whose
    level is another, plays an earlier game's search bots as they were chosen, and the
    game's record names the time and the settings they played with."""
    from dominari.bots.mcts import LEVELS
    from dominari.server import service as service_module

    with make_client(db_file, bot_seconds=0.05) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=2, max_turns=3,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "mcts-easy"}])
        gid, token = g["game_id"], g["seats"][0]["token"]
        assert api.service.bot_seconds(api.service.table(gid)) == 0.05
    created = {**load_bot("mcts-easy").settings(), "seconds": 0.05}  # type: ignore[attr-defined]
    monkeypatch.setitem(LEVELS["dominion"], "mcts-easy",
                        {**LEVELS["dominion"]["mcts-easy"], "iterations": 3})  # fmt: skip
    asked: list[Any] = []
    choose = service_module.choose

    def spied(*args: Any) -> str:
        asked.append(args[-1])  # the settings the search is built with
        return choose(*args)

    monkeypatch.setattr(service_module, "choose", spied)
    with make_client(db_file, bot_seconds=2.0) as client:
        api = Api(client)
        t = api.service.table(gid)
        assert api.service.bot_seconds(t) == 0.05
        for _ in range(400):
            api.settle()
            if t.finished:
                break
            v = api.view(gid, token)
            if v["current_seat"] == 0:
                r = api.act(gid, token, v["view"]["legal_actions"][-1], v["version"])
                assert r.status_code == 200, r.text
        rec = api.c.get(f"/api/games/{gid}/record").json()
        assert rec["seats"][1]["bot"] == "mcts-easy:seconds=0.05"
        assert rec["seats"][1]["search"] == created and created["iterations"] == 30
        assert asked and all(settings == created for settings in asked)
        # the engine's config, as it replays
        assert "bot_seconds" not in rec["config"] and "bot_settings" not in rec["config"]
        assert DominionState.from_record(rec).outcome() == t.state.outcome()
        # a game without search bots keeps nothing of the kind
        h = api.create(game="dominion", seed=3, seats=[{"kind": "human"},
                                                       {"kind": "bot", "bot": "bm"}])
        assert "bot_seconds" not in api.service.table(h["game_id"]).config


def test_a_bot_answers_after_a_human(api: Api) -> None:
    g = api.create(game="dominations", seed=3,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, token = g["game_id"], g["seats"][0]["token"]
    for _ in range(40):
        api.settle()
        v = api.view(gid, token)
        if v["current_seat"] == 0:
            r = api.act(gid, token, v["view"]["legal_actions"][0], v["version"])
            assert r.status_code == 200, r.text
    api.settle()  # the bot may be answering the last act: its thread shares the test database
    log = api.service.db.load(gid).log
    assert {e.seat for e in log} == {0, 1}


def test_record_only_once_the_game_is_over(api: Api) -> None:
    gid, _ = _two_humans(api)
    r = api.c.get(f"/api/games/{gid}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "in_progress"
    assert api.c.get("/api/games/nosuchgame/record").status_code == 404


def test_my_games_lists_the_games_of_the_tokens_held(api: Api) -> None:
    gid, tokens = _two_humans(api)
    gid2, tokens2 = _two_humans(api, "dominations")
    r = api.c.post("/api/my-games", json={"tokens": [tokens[1], tokens2[0], "unknown"]})
    games = r.json()["games"]
    assert [(g["game_id"], g["seat"]) for g in games] == [(gid, 1), (gid2, 0)]
    assert all("token" not in str(g) for g in games)


@pytest.mark.parametrize(("body", "fragment"), [
    ({"game": "chess", "seats": [{}, {}]}, "game"),
    ({"game": "dominion", "seats": [{}]}, "seats"),
    ({"game": "dominion", "seats": [{}] * 5}, "seats"),
    ({"game": "dominion", "seats": [{}, {"kind": "bot", "bot": "deep-blue"}]}, "deep-blue"),
    ({"game": "dominion", "seats": [{}, {"kind": "bot", "bot": "/etc/passwd"}]}, "passwd"),
    ({"game": "dominion", "seats": [{}, {"kind": "bot"}]}, "bot"),
    ({"game": "dominion", "seats": [{}, {}], "kingdom": ["Nonsense"]}, "Nonsense"),
    ({"game": "dominion", "seats": [{}, {}], "variant": "prototype"}, "Dominations"),
    ({"game": "dominations", "seats": [{}, {}], "kingdom": "first-game"}, "Dominion"),
    ({"game": "dominations", "seats": [{}, {}], "rules": {"connection": "x"}}, "connection"),
    ({"game": "dominations", "seats": [{}, {}], "data": "mine"}, "data set"),
    ({"game": "dominations", "seats": [{}, {}], "extra": 1}, "extra"),
    ({"game": "dominations", "seats": [{}, {}], "seed": -1}, "seed"),
    ({"game": "dominations", "seats": [{}, {}], "variant": "retail",
      "rules": {"variant": "prototype"}}, "conflicts with rules.variant"),
    ({"game": "dominion", "seats": [{}, {"kind": "bot", "bot": "mcts:steps=1"}]},
     "mcts:steps=1"),  # a search level's options are the command line's, not the server's
])
def test_bad_game_requests_say_what_is_wrong(api: Api, body: dict[str, Any],
                                             fragment: str) -> None:
    r = api.c.post("/api/games", json=body)
    assert r.status_code in (400, 422), r.text
    err = r.json()["error"]
    assert fragment.lower() in err["message"].lower(), err
    assert api.service.tables == {}


def test_malformed_oversized_and_unknown_requests_get_json_errors(api: Api) -> None:
    r = api.c.post("/api/games", content=b"{not json", headers={"content-type":
                                                                 "application/json"})
    assert r.status_code == 422 and "error" in r.json()
    r = api.c.post("/api/games", content=b"x" * (70 * 1024),
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"

    def chunks(n: int) -> Any:  # a body in chunks, its size unsaid (no Content-Length)
        yield b'{"game": "dominion", "seats": [' + b" " * n
        yield b'{"kind": "human"}, {"kind": "human"}]}'

    r = api.c.post("/api/games", content=chunks(70 * 1024),
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text
    r = api.c.post("/api/games", content=chunks(10), headers={"content-type":
                                                              "application/json"})
    assert r.status_code == 201, r.text  # read whole, then given to the app
    r = api.c.get("/api/nowhere")
    assert r.status_code == 404 and "error" in r.json()
    r = api.c.get("/api/games/" + "a" * 40, headers=auth("x"))
    assert r.status_code == 422
    assert "Traceback" not in r.text


def test_a_flood_of_submissions_is_throttled() -> None:
    # A slow refill (one submission every 10 s after a burst of 5), so that the flood is
    # throttled however slowly a loaded machine answers it.
    with make_client(action_rate=0.1, action_burst=5.0) as client:
        api = Api(client)
        gid, tokens = _two_humans(api)
        seat = api.view(gid, tokens[0])["current_seat"]
        codes = [api.act(gid, tokens[seat], "buy Province", 0).status_code for _ in range(8)]
        assert codes[:5] == [400] * 5 and codes[5:] == [429] * 3  # illegal, then throttled
        r = api.act(gid, tokens[seat], "buy Province", 0)
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many"
        assert "slow down" in r.json()["error"]["message"]
        # The other seat has its own allowance.
        other = api.act(gid, tokens[1 - seat], "buy Province", 0)
        assert other.json()["error"]["code"] != "too_many"


def test_games_survive_a_restart(db_file: str) -> None:
    with make_client(db_file) as c:
        api = Api(c)
        gid, tokens = _two_humans(api)
        seat = api.view(gid, tokens[0])["current_seat"]
        assert api.act(gid, tokens[seat], "buy Silver", 0).status_code == 200
        before = api.view(gid, tokens[seat])
    with make_client(db_file) as c:
        after = Api(c).view(gid, tokens[seat])
    assert after["version"] == before["version"] == 1
    assert after["view"] == before["view"]


def test_a_seat_for_an_unknown_bot_or_a_level_with_options_is_refused(api: Api) -> None:
    """Only the built-in names can sit at the server's tables (never a file): a level with
    options is told so, not called unknown."""
    for bot, says in [("nobody", "unknown dominion bot 'nobody': use one of"),
                      ("mcts:steps=9", "the server seats its levels as they are, without "
                       "options; use one of"),
                      ("mcts-hard:seconds=1:steps=none:width=8", "the server seats its "
                       "levels as they are, without options"),  # a long spec: the same
                      ("smithy:x=1", "smithy takes no options (only a search level "
                       "does"),
                      ("greedy", "'greedy' is a Dominations bot, not a Dominion one: use "
                       "one of")]:
        r = api.c.post("/api/games", json={"game": "dominion", "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": bot}]})
        assert r.status_code == 400, r.text
        assert says in r.json()["error"]["message"]
        assert "mcts-hard" in r.json()["error"]["message"]


def test_a_game_on_a_data_set_is_found_by_its_name_and_refused_once_the_set_changed(
        tmp_path: Path) -> None:
    """A game created on ``--data custom=DIR`` is stored with the set's name and the
    digest of its files: a server started again from elsewhere, with the set at another
    path, carries it on; one whose set was edited, or that lacks it, refuses it with a
    message saying so (it loaded the stored path as typed, and an edited set replayed
    the game's actions under other rules, or failed on an illegal action)."""
    import shutil

    from dominari.dominations.data import builtin_folder
    from dominari.sim import runner

    first, moved = tmp_path / "sets" / "custom", tmp_path / "elsewhere"
    shutil.copytree(builtin_folder(), first)
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with make_client(db, data_sets={"custom": str(first)}) as client:
        api = Api(client)
        g = api.create(game="dominations", seed=5, data="custom",
                       seats=[{"kind": "human"}, {"kind": "human"}])
        gid, tokens = g["game_id"], [x["token"] for x in g["seats"]]
        v = api.view(gid, tokens[0])
        seat = v["current_seat"]
        v = api.view(gid, tokens[seat])
        assert api.act(gid, tokens[seat], v["view"]["legal_actions"][0],
                       v["version"]).status_code == 200
    shutil.move(str(first), str(moved))
    with make_client(db, data_sets={"custom": str(moved)}) as client:
        assert Api(client).view(gid, tokens[0])["version"] == 1  # the same game, carried on
        t = Api(client).service.table(gid)
        assert t.config["data_set"] == "custom" and t.state.config.data == str(moved)
    monuments = moved / "monuments.json"
    monuments.write_text(monuments.read_text(encoding="utf-8").replace('"vp": 5', '"vp": 6', 1),
                         encoding="utf-8")
    runner._DATA.pop(str(moved))  # a process loads a set once: this one is a new server
    with make_client(db, data_sets={"custom": str(moved)}) as client:
        r = client.get(f"/api/games/{gid}", headers=auth(tokens[0]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "unloadable"
        assert "the data set 'custom' has changed since this game was created" in r.text
    with make_client(db) as client:
        r = client.get(f"/api/games/{gid}", headers=auth(tokens[0]))
        assert r.status_code == 409
        assert "the data set 'custom', which this server does not have" in r.text


def test_rule_options_are_spelled_as_on_the_command_line(api: Api) -> None:
    """A hyphen and an underscore are one in a rule option's name and value, over the API
    as with ``--rule`` (``monument-cost`` was an unknown option here)."""
    g = api.create(game="dominations", seed=1, seats=[{"kind": "human"}, {"kind": "human"}],
                   rules={"monument-cost": "named", "objective_scoring": "per-goal"})
    rules = api.service.table(g["game_id"]).config["rules"]
    assert rules["monument_cost"] == "named" and rules["objective_scoring"] == "per_goal"


def test_an_action_or_undo_without_a_version_is_refused_so_a_retry_plays_once(
        api: Api) -> None:
    """A submission without ``version`` was applied again when a client retried it (the
    bot had answered meanwhile, so the retry met the same decision): the version is
    required, and the retry of a submission that carries it is refused as stale."""
    g = api.create(game="dominion", kingdom="first-game", seed=3,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "bm"}])
    gid, token = g["game_id"], g["seats"][0]["token"]
    api.settle()
    v = api.view(gid, token)
    assert v["current_seat"] == 0
    url = f"/api/games/{gid}"
    for path, body in [("actions", {"action": "buy Silver"}), ("undo", {}), ("undo", None),
                       ("actions", {"action": "buy Silver", "version": None}),
                       ("undo", {"version": None}), ("actions", None)]:
        r = api.c.post(f"{url}/{path}", headers=auth(token),
                       **({} if body is None else {"json": body}))
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_request"
        message = r.json()["error"]["message"]
        if path == "actions" and body is None:  # no body: no action either
            assert message.startswith("action: Field required; version: ")
            message = message.split("; ", 1)[1]
        assert message.startswith("version: the version of the view it answers is needed")
        assert "cannot play twice" in message
    assert api.view(gid, token)["version"] == v["version"]  # nothing changed
    assert api.act(gid, token, "buy Silver", v["version"]).status_code == 200
    api.settle()  # the bot answers: the decision is the human's again
    assert api.view(gid, token)["current_seat"] == 0
    retry = api.act(gid, token, "buy Silver", v["version"])  # the same request again
    assert retry.status_code == 409 and retry.json()["error"]["code"] == "stale"
    log = api.service.db.load(gid).log
    assert [e.text for e in log if e.seat == 0] == ["buy Silver"]


def test_a_rule_bot_whose_cards_the_kingdom_lacks_is_seated_and_said_so(db_file: str) -> None:
    """Witch and Moneylender are not in First Game: they are seated (a random kingdom often
    lacks a bot's cards) and play without them, and the answer, every view's seats (a
    restarted server's too) and the record say which cards each lacks."""
    body = {"game": "dominion", "kingdom": "first-game", "seed": 4, "max_turns": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "witch", "name": "Wendy"},
                      {"kind": "bot", "bot": "moneylender"}, {"kind": "bot", "bot": "smithy"}]}
    with make_client(db_file) as client:
        api = Api(client)
        g = api.create(**body)
        gid, token = g["game_id"], g["seats"][0]["token"]
        assert [s.get("missing_cards") for s in g["seats"]] == [
            None, ["Witch"], ["Moneylender"], None]
        assert "missing_cards" not in g["seats"][0] and "missing_cards" not in g["seats"][3]
        assert g["notes"] == [
            "Seat 2 (Wendy): the bot witch buys Witch, not in this game's kingdom: it plays "
            "without it, buying only basic cards.",
            "Seat 3 (moneylender (3)): the bot moneylender buys Moneylender, not in this "
            "game's kingdom: it plays without it, buying only basic cards."]
        seen = api.view(gid, token)["seats"]
        watched = client.get(f"/api/spectate/{g['spectator']}").json()["seats"]
        assert seen == watched == [{k: v for k, v in s.items() if k != "token"}
                                   for s in g["seats"]]
    with make_client(db_file) as client:  # worked out again from the stored game
        api = Api(client)
        assert api.view(gid, token)["seats"] == seen
        mine = client.post("/api/my-games", json={"tokens": [token]}).json()["games"]
        assert mine[0]["seats"] == seen
        moves = 0
        while not api.service.table(gid).finished and moves < 200:
            api.settle()
            v = api.view(gid, token)
            if v["status"] == "finished":
                break
            if v["current_seat"] == 0:
                assert api.act(gid, token, v["view"]["legal_actions"][-1],
                               v["version"]).status_code == 200
                moves += 1
        record = client.get(f"/api/games/{gid}/record").json()
        assert [s.get("missing_cards") for s in record["seats"]] == [
            None, ["Witch"], ["Moneylender"], None]


def test_a_kingdom_with_the_bots_cards_gets_no_note(api: Api) -> None:
    """Only the cards this game's kingdom lacks count: Witch among the ten (or drawn by a
    random kingdom) says nothing; a Dominations bot, a search level and ``best`` never."""
    kingdom = ["Witch", "Moat", "Cellar", "Chapel", "Village", "Smithy", "Market", "Mine",
               "Festival", "Library"]
    g = api.create(game="dominion", kingdom=kingdom, seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "witch"}, {"kind": "bot", "bot": "best"},
        {"kind": "bot", "bot": "mcts-easy"}])
    assert g["notes"] == [] and all("missing_cards" not in s for s in g["seats"])
    g = api.create(game="dominations", seats=[{"kind": "human"},
                                              {"kind": "bot", "bot": "greedy"}])
    assert g["notes"] == [] and all("missing_cards" not in s for s in g["seats"])
    seen = set()
    for seed in range(12, 20):  # random kingdoms: as the game's own kingdom has it
        g = api.create(game="dominion", kingdom="random", seed=seed, seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "witch"}])
        has = "Witch" in _kingdom_names(api, g["game_id"])
        assert g["seats"][1].get("missing_cards") == (None if has else ["Witch"])
        assert len(g["notes"]) == (0 if has else 1)
        seen.add(has)
    assert seen == {True, False}


def _kingdom_names(api: Api, gid: str) -> list[str]:
    from dominari.dominion.cards import NAME

    return [NAME[c] for c in api.service.table(gid).state.kingdom]


@pytest.mark.parametrize(("players", "played_as"), [(2, "Militia"), (4, "Laboratory")])
def test_a_best_seats_record_says_which_rule_bot_it_played_as(
        api: Api, players: int, played_as: str) -> None:
    """``best`` plays each game as the best rule bot for its kingdom and number of players
    (Militia with 2 players on this kingdom, Laboratory with 4): the record says which, as
    ``play`` and ``simulate`` records do (``played_as``)."""
    from dominari.bots.kingdom import KingdomBestBot

    kingdom = ["Laboratory", "Militia", "Cellar", "Chapel", "Chancellor", "Feast", "Festival",
               "Village", "Remodel", "Throne Room"]
    seats = [{"kind": "bot", "bot": "best"}] + [{"kind": "bot", "bot": "bm"}] * (players - 1)
    g = api.create(game="dominion", kingdom=kingdom, seed=2, max_turns=2, seats=seats)
    api.settle()
    t = api.service.table(g["game_id"])
    assert t.finished
    record = api.c.get(f"/api/games/{g['game_id']}/record").json()
    assert record["seats"][0]["bot"] == "best"
    assert record["seats"][0]["played_as"] == played_as == KingdomBestBot().for_game(t.state).name
    assert all("played_as" not in s for s in record["seats"][1:])


def test_a_game_of_several_people_takes_no_chosen_seed(api: Api) -> None:
    """Whoever chooses a game's seed knows its deal: every hidden card of the other
    people (Dominion's hands and decks, Dominations' tile supply). A game with two or
    more human seats is refused one, saying why; a game against bots keeps it."""
    person, bot = {"kind": "human"}, {"kind": "bot", "bot": "greedy"}
    for game, seats in (("dominion", [person, person]), ("dominations", [person, bot, person])):
        r = api.c.post("/api/games", json={"game": game, "seed": 7, "seats": seats})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == {
            "code": "bad_request",
            "message": "a game with two or more human seats cannot have a chosen seed: a "
                       "chosen deal would let whoever chose it know the other players' "
                       "hidden cards"}
    assert not api.service.tables
    for seats in ([person, bot], [bot, bot]):
        g = api.c.post("/api/games", json={"game": "dominations", "seed": 7, "seats": seats})
        assert g.status_code == 201, g.text
        assert api.service.table(g.json()["game_id"]).config["seed"] == 7
    g = api.c.post("/api/games", json={"game": "dominations", "seats": [person, person]})
    assert g.status_code == 201, g.text  # dealt at random


def test_a_stale_or_out_of_turn_submission_over_http_gets_the_current_view(api: Api) -> None:
    """As over the WebSocket, an action or an undo refused as stale (a duplicate among
    them) or as another seat's decision carries the seat's current view beside the
    error: the client sees where the game stands without asking again."""
    gid, tokens = _two_humans(api)
    v = api.view(gid, tokens[0])
    seat = v["current_seat"]
    action = api.view(gid, tokens[seat])["view"]["legal_actions"][0]
    assert api.act(gid, tokens[seat], action, v["version"]).status_code == 200
    for token in tokens:
        now = api.view(gid, token)
        for r in (api.act(gid, token, action, v["version"]),
                  api.c.post(f"/api/games/{gid}/undo", headers=auth(token),
                             json={"version": v["version"]})):
            assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
            assert r.json()["view"] == now
    idle = 1 - api.view(gid, tokens[0])["current_seat"]
    now = api.view(gid, tokens[idle])
    r = api.act(gid, tokens[idle], "end", now["version"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    assert r.json()["view"] == now
    assert api.view(gid, tokens[idle]) == now  # nothing changed


def test_the_schema_documents_the_seat_token_and_every_error_code(api: Api) -> None:
    """A client written from ``/openapi.json`` alone: the seat token is a bearer scheme
    on the operations that read it (``/docs`` can send it), every error code the server
    answers is named with its status, and play-again's second answer (200) is there."""
    from dominari.server.app import ERROR_CODES, STATUS

    schema = api.c.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["seat"] == {
        "type": "http", "scheme": "bearer", "description": "a human seat's secret token, "
        "given once when the game is made (``seats[i].token``)"}
    paths = schema["paths"]
    for path, method in (("/api/games/{game_id}", "get"),
                         ("/api/games/{game_id}/actions", "post"),
                         ("/api/games/{game_id}/undo", "post"),
                         ("/api/games/{game_id}/again", "post")):
        op = paths[path][method]
        assert op["security"] == [{"seat": []}], path
        assert all(p["name"] != "authorization" for p in op.get("parameters", []))
    assert "security" not in paths["/api/games"]["post"]
    assert {"200", "201", "503"} <= set(paths["/api/games/{game_id}/again"]["post"]["responses"])
    described = schema["components"]["schemas"]["ErrorBody"]["properties"]["code"]["description"]
    for code, status in STATUS.items():
        assert f"``{code}`` ({status}:" in described, code
    assert set(STATUS) <= set(ERROR_CODES)
    # The token still goes in the header, as the scheme says.
    gid, tokens = _two_humans(api)
    assert api.c.get(f"/api/games/{gid}", headers=auth(tokens[0])).status_code == 200
