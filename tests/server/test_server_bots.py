"""Bots deciding for server seats (issue 6 §1, issue 7): a search bot's answer for a
position and seed is the same whether the server's workers run one decision at a time or
several at once in threads."""

from __future__ import annotations

import asyncio
import pickle
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from server_client import Api, auth, hold_decisions, make_client, until

from dominari.bots import load_bot
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.server.bots import _bot, choose


def _positions() -> list[tuple[str, bytes]]:
    """Searched decisions of both games, a few turns into games of rule bots."""
    out: list[tuple[str, bytes]] = []
    for seed in (3, 8):
        d = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=seed))
        bots = [load_bot("smithy"), load_bot("bm")]
        while not (d.turn_number >= 6 + seed and d.phase == 1 and len(d.legal_actions()) > 2):
            d.apply(bots[d.current_player()].act(d))
        out.append(("dominion", pickle.dumps(d)))
    g = DominationsState.new(DominationsConfig(players=2, seed=4, log=False))
    greedy = load_bot("greedy", "dominations")
    while not (g.turn_number >= 3 and g.phase == 0 and len(g.legal_actions()) > 2):
        g.apply(greedy.act(g))
    out.append(("dominations", pickle.dumps(g)))
    return out


def test_concurrent_decisions_answer_as_one_at_a_time() -> None:
    jobs: list[tuple[str, bytes, int]] = [
        (game, state, seed) for game, state in _positions() for seed in (1, 2)]

    def decide(job: tuple[str, bytes, int]) -> str:
        game, state, seed = job
        return choose(game, state, "mcts-easy", seed, 60.0)  # the level's budget binds

    alone = [decide(j) for j in jobs]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads take turns often, as on a busy server
    try:
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            together = list(pool.map(decide, jobs))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone


def test_a_server_greedy_seat_plays_the_game_of_simulate() -> None:
    """The server asks its worker's bot afresh for each decision, from a pickled state: the
    greedy bot keeps nothing between decisions (the turn's exchanges are the state's), so its
    game is the one ``simulate`` plays. Seed 2 at four players differed while it did."""
    served = DominationsState.new(DominationsConfig(players=4, seed=2))
    while not served.is_terminal():
        blob = pickle.dumps(served)
        served.apply(served.parse_action(choose("dominations", blob, "greedy", 7, 1.0)))
    alone = DominationsState.new(DominationsConfig(players=4, seed=2))
    bots = [load_bot("greedy", "dominations") for _ in range(4)]
    while not alone.is_terminal():
        alone.apply(bots[alone.current_player()].act(alone))
    assert served.history == alone.history


def test_each_worker_thread_has_its_own_bots() -> None:
    mine = _bot("dominion", "mcts", 2.0)
    assert _bot("dominion", "mcts", 2.0) is mine  # made once per thread
    theirs: list[Any] = []
    worker = threading.Thread(target=lambda: theirs.append(_bot("dominion", "mcts", 2.0)))
    worker.start()
    worker.join()
    assert theirs[0] is not mine and theirs[0].seconds == mine.seconds == 2.0
    # a game's own settings (those it was created with) make a bot of their own
    kept = {**mine.settings(), "steps": 5000}
    theirs_then = _bot("dominion", "mcts", 2.0, kept)
    assert theirs_then is not mine and theirs_then.settings() == kept
    assert theirs_then.name == "mcts:seconds=2"
    assert _bot("dominion", "mcts", 2.0, kept) is theirs_then
    # settings another version kept that make no search now: the level as it is, said so
    odd = _bot("dominion", "mcts", 2.0, {**kept, "lookahead": 3})
    assert odd.settings() == mine.settings() and odd.seconds == 2.0


def test_a_view_pushed_when_a_bot_starts_thinking_says_so() -> None:
    """The move that hands the turn to a bot is pushed with ``bot_thinking`` on (the browser
    shows "… is thinking"): the bot is scheduled before the views are sent."""
    from contextlib import ExitStack


    with make_client() as client:
        r = client.post("/api/games", json={
            "game": "dominion", "kingdom": "first-game", "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "mcts-easy"}]})
        g = r.json()
        gid, token = g["game_id"], g["seats"][0]["token"]
        with ExitStack() as stack:
            ws = stack.enter_context(client.websocket_connect("/api/ws"))
            ws.send_json({"type": "join", "game_id": gid, "token": token})
            view = ws.receive_json()
            while view["current_seat"] == 0:
                ws.send_json({"type": "act", "version": view["version"],
                              "action": view["view"]["legal_actions"][-1]})
                view = ws.receive_json()
                assert view["type"] == "view", view
            assert view["current_seat"] == 1 and view["bot_thinking"] is True


def _bots_game() -> list[str]:
    """The actions of a First Game of BM against Smithy (seed 5) on a new server, played
    to its end (bots asked again after ``BOT_RETRY`` included)."""
    import time

    body = {"game": "dominion", "kingdom": "first-game", "seed": 5,
            "seats": [{"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "smithy"}]}
    with make_client() as client:
        gid = client.post("/api/games", json=body).json()["game_id"]
        svc = client.app.state.service  # type: ignore[attr-defined]
        for _ in range(3000):  # retries come after BOT_RETRY: wait for the end
            client.portal.call(svc.idle)  # type: ignore[union-attr]
            if svc.tables[gid].finished:
                break
            time.sleep(0.002)
        t = svc.tables[gid]
        assert t.finished
        return list(t.actions)


def test_a_lost_worker_is_asked_again_not_answered_for(monkeypatch: Any) -> None:
    """A bot whose worker dies (killed, a server stopping) decides again, however often
    it dies: the game stores the bot's own choices, the same as a game whose workers
    never died. (After 3 lost workers the server used to play the first legal action
    for it: a search bot bought Copper.)"""
    from concurrent.futures.process import BrokenProcessPool

    from dominari.server import service as service_module

    plain = _bots_game()
    real = service_module.choose
    calls = {"n": 0}

    def dies_five_times_on_its_third_decision(*args: Any) -> str:
        calls["n"] += 1
        if calls["n"] in (3, 4, 5, 6, 7):  # the third decision, and its first 4 retries
            raise BrokenProcessPool("a worker died")
        return str(real(*args))

    monkeypatch.setattr(service_module, "choose", dies_five_times_on_its_third_decision)
    monkeypatch.setattr(service_module, "BOT_RETRY", 0.001)
    assert _bots_game() == plain
    assert calls["n"] == len(plain) + 5  # asked 5 times more, nothing stored for it


def test_a_bot_waiting_to_be_asked_again_is_shown_thinking(monkeypatch: Any) -> None:
    """Between a lost worker and the bot's next try, the table still says the bot is
    thinking, to the sockets that were watching and to a view asked for then (a page
    loaded in the wait said it was not), and the bot's own move is stored after."""
    import time
    from concurrent.futures.process import BrokenProcessPool

    from dominari.server import service as service_module

    real = service_module.choose
    calls = {"n": 0}

    def dies_once(*args: Any) -> str:
        calls["n"] += 1
        if calls["n"] == 1:
            raise BrokenProcessPool("a worker died")
        return str(real(*args))

    def game(client: Any) -> tuple[str, str, Any]:
        g = client.post("/api/games", json={
            "game": "dominion", "kingdom": "first-game", "seed": 3,
            "seats": [{"kind": "bot", "bot": "smithy"}, {"kind": "human"}]}).json()
        return g["game_id"], g["seats"][1]["token"], client.app.state.service

    with make_client() as client:  # the bot's first move, never lost
        gid, token, svc = game(client)
        client.portal.call(svc.idle)
        plain = list(svc.tables[gid].actions)
    monkeypatch.setattr(service_module, "choose", dies_once)
    monkeypatch.setattr(service_module, "BOT_RETRY", 0.5)
    with make_client() as client:
        gid, token, svc = game(client)
        for _ in range(2000):
            if calls["n"] == 1 and not svc._tasks:  # lost, and waiting to ask again
                break
            time.sleep(0.002)
        view = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
        assert view.json()["current_seat"] == 0 and view.json()["bot_thinking"] is True
        for _ in range(2000):
            if svc.tables[gid].current_seat() == 1:
                break
            time.sleep(0.002)
        assert list(svc.tables[gid].actions) == plain and calls["n"] == 2


def test_bot_worker_processes_outlive_a_stop_signal_until_the_server_stops_them() -> None:
    """Ctrl-C or SIGTERM reach a server's whole process group: its bot workers ignore them
    (a decision cut short would otherwise be lost or, worse, answered for the bot), and
    the server stops them itself when it closes."""
    import os
    import signal
    import time

    from dominari.server.bots import make_executor, stop_executor

    pool = make_executor("process", 1)
    pid = pool.submit(os.getpid).result(timeout=60)
    assert pid != os.getpid()
    os.kill(pid, signal.SIGINT)
    os.kill(pid, signal.SIGTERM)
    assert pool.submit(os.getpid).result(timeout=60) == pid  # still there, still working
    pool.submit(time.sleep, 60)  # a decision that is still running when the server stops
    time.sleep(0.2)
    started = time.monotonic()
    stop_executor(pool)
    assert time.monotonic() - started < 2.0  # killed, not waited for
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    else:  # a child not reaped yet counts as gone once it is a zombie
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            assert f.read().split(")")[-1].split()[0] == "Z"


def _bot_games(n: int, stop_at: int | None = None) -> list[list[str]]:
    """Play ``n`` rule-bot games of First Game at once on one bot worker (threads), each
    until ``stop_at`` actions are stored (None: to the end); their stored actions."""
    import time

    bodies = [{"game": "dominion", "kingdom": "first-game", "seed": 10 + k,
               "seats": [{"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "smithy"}]}
              for k in range(n)]
    with make_client(bot_workers=1) as client:
        svc = client.app.state.service  # type: ignore[attr-defined]
        gids = [client.post("/api/games", json=b).json()["game_id"] for b in bodies]

        def done(gid: str) -> bool:
            t = svc.tables[gid]
            return bool(t.finished or (stop_at is not None and len(t.actions) >= stop_at))

        for _ in range(20000):
            if all(done(g) for g in gids):
                break
            time.sleep(0.002)
        assert all(done(g) for g in gids)
        return [list(svc.tables[g].actions)[:stop_at] for g in gids]


def test_bots_waiting_for_a_busy_worker_are_not_answered_for(monkeypatch: Any) -> None:
    """A server with more bot decisions than workers queues them: the time limit on a
    decision counts from when a worker takes it, so no bot's move is replaced by the
    first legal action because other games kept the worker busy (the limit here is 3
    decisions, with six games waiting on one worker)."""
    import time

    from dominari.server import service as service_module

    plain = _bot_games(6, stop_at=8)
    real = service_module.choose

    def slow(*args: Any) -> str:
        time.sleep(0.05)
        return str(real(*args))

    monkeypatch.setattr(service_module, "choose", slow)
    monkeypatch.setattr(service_module, "BOT_LIMIT", 0.15)
    monkeypatch.setattr(service_module, "BOT_LIMIT_PER_SECOND", 0.0)
    assert _bot_games(6, stop_at=8) == plain


def test_a_stuck_decision_is_asked_again_on_fresh_workers(monkeypatch: Any) -> None:
    """A decision that runs past the limit has a stuck worker: the workers are replaced
    and the bot decides again, so the game stores its own choice, not the first legal
    action."""
    import time

    from dominari.server import service as service_module

    plain = _bot_games(1)
    real = service_module.choose
    calls = {"n": 0}
    executors: set[int] = set()

    def stuck_on_its_third_decision(*args: Any) -> str:
        calls["n"] += 1
        executors.add(id(client_service()._executor))
        if calls["n"] == 3:
            time.sleep(0.5)
        return str(real(*args))

    services: list[Any] = []

    def client_service() -> Any:
        return services[0]

    real_open = service_module.GameService.open

    def open_and_remember(self: Any) -> None:
        services.append(self)
        real_open(self)

    monkeypatch.setattr(service_module.GameService, "open", open_and_remember)
    monkeypatch.setattr(service_module, "choose", stuck_on_its_third_decision)
    monkeypatch.setattr(service_module, "BOT_LIMIT", 0.2)
    monkeypatch.setattr(service_module, "BOT_LIMIT_PER_SECOND", 0.0)
    monkeypatch.setattr(service_module, "BOT_RETRY", 0.001)
    assert _bot_games(1) == plain
    assert calls["n"] == len(plain[0]) + 1  # asked once more, nothing stored for it
    assert len(executors) == 2  # the stuck worker's pool was replaced once


async def _served(queued: list[tuple[str, int, Any]], running: tuple[int, Any],
                  cancelled: int) -> tuple[list[str], list[tuple[int, int]]]:
    """On a gate of one worker, busy with a decision of ``running`` (level, owner), queue
    the decisions ``queued`` (name, level, owner), cancel the one at index ``cancelled``
    (its game closed while its bot waited), then free the worker: the order the others
    are served in, and the decisions waiting by level before and after the cancel. The
    gate ends with its worker free and nobody waiting."""
    from dominari.server.service import WorkerGate

    gate = WorkerGate(1)
    order: list[str] = []
    await gate.acquire(*running)

    async def decide(name: str, level: int, owner: Any) -> None:
        async with gate.slot(level, owner):
            order.append(name)
            await asyncio.sleep(0)

    tasks = [asyncio.create_task(decide(*q)) for q in queued]
    await asyncio.sleep(0)
    assert gate.free == 0
    waiting = [(gate.waiting(0), gate.waiting(1))]
    tasks[cancelled].cancel()
    await asyncio.sleep(0)
    waiting.append((gate.waiting(0), gate.waiting(1)))
    gate.release()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert gate.free == 1 and gate.waiting(0) == gate.waiting(1) == 0
    return order, waiting


def test_the_worker_gate_serves_games_with_a_person_first() -> None:
    """Free workers go to the first waiting decision of the lowest level, first come first
    served within a level; a waiter cancelled before its turn takes no slot, and a slot
    freed goes to a waiter, never to a decision that arrives after."""
    from dominari.server.service import WorkerGate

    order, waiting = _run_apart(_served(
        [("bots-1", 1, None), ("bots-2", 1, None), ("human-1", 0, None), ("gone", 0, None),
         ("bots-3", 1, None), ("human-2", 0, None)], (1, None), 3))  # (a bot-only game's)
    assert waiting == [(3, 3), (2, 3)]
    assert order == ["human-1", "human-2", "bots-1", "bots-2", "bots-3"]

    async def handed_as_cancelled() -> None:
        """A waiter handed the slot in the same tick as its game is closed gives it on."""
        gate = WorkerGate(1)
        await gate.acquire(1)
        got: list[str] = []

        async def decide(name: str, level: int) -> None:
            async with gate.slot(level):
                got.append(name)

        first = asyncio.create_task(decide("handed", 0))
        second = asyncio.create_task(decide("next", 1))
        await asyncio.sleep(0)
        gate.release()  # the slot passes to the first waiter …
        first.cancel()  # … cancelled before it could run
        await asyncio.gather(first, second, return_exceptions=True)
        assert got == ["next"] and gate.free == 1 and gate.waiting(0) == gate.waiting(1) == 0

    _run_apart(handed_as_cancelled())


def test_the_clients_that_made_the_games_take_turns_for_the_workers() -> None:
    """Within a level the owners of the games (the clients that made them) take turns:
    one client's twelve games of search bots delayed another's rule bot by twelve
    decisions (18 s for a 0.06 s move), now by about one. A cancelled waiter leaves its
    owner's turn to the others."""
    queued = [(name, level, name[0]) for name, level in [
        ("a2", 0), ("a3", 0), ("a4", 0), ("b1", 0), ("c1", 1), ("d1", 1), ("c2", 1),
        ("e1", 0), ("b2", 0)]]
    order, waiting = _run_apart(_served(queued, (0, "a"), 7))  # (one of a's is running)
    assert waiting[0][0] == 6 and waiting[0][1] == 3 and waiting[1][0] == 5
    assert order == ["a2", "b1", "a3", "b2", "a4", "c1", "d1", "c2"]


def test_a_games_bots_wait_as_the_client_that_made_it(monkeypatch: Any) -> None:
    """A game's owner is the address of the client that made it, its next game's too,
    and its bots ask for a worker as that owner's."""
    from dominari.server.service import WorkerGate

    owners: list[Any] = []
    real = WorkerGate.acquire

    async def noted(self: Any, level: int, owner: Any = None) -> None:
        owners.append(owner)
        await real(self, level, owner)

    monkeypatch.setattr(WorkerGate, "acquire", noted)
    with make_client() as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", max_turns=2, seed=1,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "bm"}])
        gid, token = g["game_id"], g["seats"][0]["token"]
        t = api.service.tables[gid]
        assert t.owner == "testclient"
        while (v := api.view(gid, token))["status"] != "finished":
            if v["current_seat"] == 0:
                api.act(gid, token, v["view"]["legal_actions"][-1], v["version"])
            api.settle()
        assert owners and set(owners) == {"testclient"}
        again = client.post(f"/api/games/{gid}/again", headers=auth(token)).json()
        assert api.service.tables[again["game_id"]].owner == "testclient"


def test_bots_pause_before_each_move_as_their_game_asks(monkeypatch: Any,
                                                       tmp_path: Any) -> None:
    """A game of bots raced to its end in a second or two, too fast to follow: with
    ``bot_pause`` each bot waits that long before it moves (not holding a worker), in
    its next game too and after a restart; the record's config is the engine's alone,
    and a pause out of bounds is refused."""
    from dominari.server import service as service_module

    pauses: list[float] = []

    async def noted(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(service_module, "_pause", noted)
    db = f"sqlite:///{tmp_path / 'g.db'}"
    bots = [{"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "bmu"}]
    with make_client(db) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", max_turns=2, seed=1,
                       seats=bots, bot_pause=1.5)
        until(lambda: api.service.tables[g["game_id"]].finished)
        t = api.service.tables[g["game_id"]]
        assert pauses == [1.5] * len(t.actions) and t.config["bot_pause"] == 1.5
        assert service_module._again_spec(t).bot_pause == 1.5  # its next game's
        record = client.get(f"/api/games/{g['game_id']}/record").json()
        assert "bot_pause" not in record["config"]
        plain = api.create(game="dominion", kingdom="first-game", max_turns=2, seed=1,
                           seats=bots)
        until(lambda: api.service.tables[plain["game_id"]].finished)
        assert len(pauses) == len(t.actions)  # none for a game without one
        for bad in (-1, 11):
            r = client.post("/api/games", json={"game": "dominion", "seats": bots,
                                                "bot_pause": bad})
            assert r.status_code == 422, r.text
        people = api.create(game="dominations", seed=2, bot_pause=0.5, seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    pauses.clear()
    with make_client(db) as client:  # restarted: the game keeps its pause
        api = Api(client)
        t = api.service.tables[people["game_id"]]
        token = people["seats"][0]["token"]
        while t.current_seat() != 1:
            v = api.view(people["game_id"], token)
            api.act(people["game_id"], token, v["view"]["legal_actions"][0], v["version"])
        until(lambda: t.current_seat() == 0 and not t.bot_busy)
        assert pauses and set(pauses) == {0.5}


def test_a_bot_facing_a_person_waits_only_for_the_decisions_running(monkeypatch: Any) -> None:
    """With one worker held by a game of bots only and more of them waiting, the bot of a
    game with a person in it decides next, not after every decision queued before it (20
    bot-only search games made a rule bot's reply to a person take 10 s, not 0.03 s). What
    each bot plays is the same."""

    calls: list[str] = []
    go = hold_decisions(monkeypatch, calls)
    bots_only = {"game": "dominion", "kingdom": "first-game", "max_turns": 3,
                 "seats": [{"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "bmu"}]}
    try:
        with make_client(bot_workers=1) as client:
            svc = client.app.state.service  # type: ignore[attr-defined]

            for seed in range(4):
                client.post("/api/games", json={**bots_only, "seed": seed})
            until(lambda: len(calls) == 1 and svc._slots.waiting(1) == 3)
            g = client.post("/api/games", json={
                "game": "dominion", "kingdom": "first-game", "seed": 10, "max_turns": 3,
                "seats": [{"kind": "bot", "bot": "smithy"}, {"kind": "human"}]}).json()
            until(lambda: svc._slots.waiting(0) == 1)
            go.set()
            until(lambda: svc.tables[g["game_id"]].version == 1)
            # the decision that was running, then the person's opponent's
            assert calls[0] in ("bm", "bmu") and calls[1] == "smithy"
            assert svc.tables[g["game_id"]].actions == _alone_first_move()
    finally:
        go.set()


def test_a_bot_waiting_for_a_worker_is_said_to_wait_not_to_think(monkeypatch: Any) -> None:
    """The browser audit: with every bot worker held by other games, a person's opponent
    showed "thinking" for seconds while its decision waited its turn. The views now say
    ``bot_waiting`` while it waits, and a new view says it thinks once it has a worker."""

    go = hold_decisions(monkeypatch, [])
    try:
        with make_client(bot_workers=1) as client:
            svc, gid, token = _a_bot_waits(client)
            with client.websocket_connect("/api/ws") as ws:
                ws.send_json({"type": "join", "game_id": gid, "token": token})
                first = ws.receive_json()
                assert first["version"] == 0 and first["current_seat"] == 0
                assert first["bot_thinking"] and first["bot_waiting"]
                go.set()
                thinking = ws.receive_json()  # a worker is free: it thinks now
                assert thinking["version"] == 0 and thinking["bot_thinking"]
                assert not thinking["bot_waiting"]
                moved = ws.receive_json()
                assert moved["version"] == 1 and not moved["bot_waiting"]
            t = svc.tables[gid]
            assert t.actions[:1] == _alone_first_move()[:1] and not t.bot_waiting
    finally:
        go.set()


def test_a_failure_as_a_waiting_bot_gets_its_worker_frees_the_worker(monkeypatch: Any) -> None:
    """The review of the waiting view: the view saying that a bot thinks now went out
    after its decision took a worker and before the block that frees it. Had it failed (a
    MemoryError), the worker stayed taken for good, and every bot of the server waited.
    It is freed now, and the bot is asked again."""

    go = hold_decisions(monkeypatch, [])
    try:
        with make_client(bot_workers=1) as client:
            svc, gid, _ = _a_bot_waits(client)
            real, failed = svc.broadcast, []

            def broadcast(t: Any) -> None:
                if t.id == gid and not failed and not t.bot_waiting:  # "thinking now"
                    failed.append(t.version)
                    raise MemoryError
                real(t)

            monkeypatch.setattr(svc, "broadcast", broadcast)
            go.set()
            until(lambda: svc.tables[gid].version >= 1, "the bot never moved", 60)
            assert failed == [0]  # it failed once, and was asked again
            client.portal.call(svc.idle)  # type: ignore[union-attr]
            assert svc._slots.free == 1
    finally:
        go.set()


def _a_bot_waits(client: Any) -> tuple[Any, str, str]:
    """With decisions held (:func:`hold_decisions`) and one worker: a game of bots whose
    decision holds the worker, then a person's game whose bot (Smithy, seed 10: its seat
    begins) waits for it. Returns the service, that game's id and the person's token."""
    svc = client.app.state.service
    client.post("/api/games", json={
        "game": "dominion", "kingdom": "first-game", "seed": 0, "max_turns": 3,
        "seats": [{"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "bmu"}]})
    until(lambda: svc._slots.free == 0)  # its decision holds the one worker
    g = client.post("/api/games", json={
        "game": "dominion", "kingdom": "first-game", "seed": 10, "max_turns": 3,
        "seats": [{"kind": "bot", "bot": "smithy"}, {"kind": "human"}]}).json()
    until(lambda: svc._slots.waiting(0) == 1)
    return svc, g["game_id"], g["seats"][1]["token"]


def _alone_first_move() -> list[str]:
    """Smithy's first move on First Game, seed 10 (its seat starts), where nothing else waits."""
    with make_client() as client:
        g = client.post("/api/games", json={
            "game": "dominion", "kingdom": "first-game", "seed": 10, "max_turns": 3,
            "seats": [{"kind": "bot", "bot": "smithy"}, {"kind": "human"}]}).json()
        svc = client.app.state.service  # type: ignore[attr-defined]
        client.portal.call(svc.idle)  # type: ignore[union-attr]
        return list(svc.tables[g["game_id"]].actions)


def test_games_of_bots_only_are_capped(monkeypatch: Any) -> None:
    """A server plays at most ``max_bot_games`` unfinished games of bots only: one more is
    refused (429) with a message saying why, a game with a person in it is not, and once
    one ends another may start."""

    go = hold_decisions(monkeypatch, [])
    body = {"game": "dominion", "kingdom": "first-game", "max_turns": 1,
            "seats": [{"kind": "bot", "bot": "bm"}, {"kind": "bot", "bot": "bmu"}]}
    try:
        with make_client(max_bot_games=2) as client:
            svc = client.app.state.service  # type: ignore[attr-defined]
            assert [client.post("/api/games", json=body).status_code
                    for _ in range(2)] == [201, 201]
            r = client.post("/api/games", json=body)
            assert r.status_code == 429 and r.json()["error"] == {
                "code": "too_many",
                "message": "this server already plays 2 games of bots only (at most 2 at "
                           "once): wait for one to end, or give a seat to a person"}
            person = {**body, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "bm"}]}
            assert client.post("/api/games", json=person).status_code == 201
            svc.settings.max_bot_games = 3  # games with a person in them are not counted
            assert client.post("/api/games", json=body).status_code == 201
            assert client.post("/api/games", json=body).status_code == 429
            go.set()
            until(lambda: sum(not t.finished for t in svc.tables.values()) <= 1,
                  "the games of bots only never ended")  # (the person's is left)
            assert client.post("/api/games", json=body).status_code == 201
    finally:
        go.set()


def test_a_stored_game_whose_bot_this_version_lacks_still_loads(db_file: str) -> None:
    """The seats' facts (the cards a rule bot lacks, the bot ``best`` played as) are
    advisory: a stored game whose bot name no longer loads is served all the same (its
    seat says nothing of cards), and its player can see it and play on (before, it was
    left out at the restart: every request got 409 ``unloadable``)."""
    import sqlite3

    from server_client import Api, auth

    with make_client(db_file) as client:
        api = Api(client)
        g = api.create(game="dominion", kingdom="first-game", seed=3,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "witch"}])
        api.settle()
        gid, token = g["game_id"], g["seats"][0]["token"]
    db = sqlite3.connect(db_file.removeprefix("sqlite:///"))
    with db:
        assert db.execute("UPDATE seats SET bot = 'oldbot' WHERE bot = 'witch'").rowcount == 1
    db.close()
    with make_client(db_file) as client:
        api = Api(client)
        assert gid in api.service.tables
        r = client.get(f"/api/games/{gid}", headers=auth(token))
        assert r.status_code == 200, r.text
        assert [s.get("missing_cards") for s in r.json()["seats"]] == [None, None]
        view = r.json()
        assert view["current_seat"] == 0
        action = view["view"]["legal_actions"][0]
        assert api.act(gid, token, action, view["version"]).status_code == 200


def test_a_bot_worker_still_starting_outlives_a_stop_signal() -> None:
    """A worker is deaf from its birth: one that Ctrl-C, SIGTERM or a hang-up reaches while
    it still starts (before its initializer ignores them: a server stopped or hung up just
    as its first bot thinks) is not killed, and answers. Before, it died, and the server
    took it for lost and asked another."""
    import os
    import signal

    from dominari.server.bots import make_executor, stop_executor

    pool = make_executor("process", 1)
    try:
        first = pool.submit(os.getpid)  # starts the worker, which takes a while to be up
        workers = list(pool._processes.values())  # type: ignore[attr-defined]
        assert len(workers) == 1 and not first.done()  # (its process not yet up)
        for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
            os.kill(workers[0].pid, sig)
        assert first.result(timeout=60) == workers[0].pid
    finally:
        stop_executor(pool)


@pytest.mark.parametrize("failure", ["memory", "spawn"])
def test_a_decision_cut_short_by_the_machine_is_asked_again(monkeypatch: Any,
                                                            failure: str) -> None:
    """A worker that runs out of memory, or a pool that cannot start a worker (an
    ``OSError`` from ``submit``), cut the decision short: the bot is asked again on fresh
    workers and the game stores its own choices. (Before, they were taken for the bot's
    own failure and its first legal action, buying Copper, was played for it.)"""

    from dominari.server import service as service_module

    plain = _bots_game()
    calls = {"n": 0}
    if failure == "memory":
        real = service_module.choose

        def short_of_memory(*args: Any) -> str:
            calls["n"] += 1
            if calls["n"] in (3, 4):  # the third decision, and its first retry
                raise MemoryError
            return str(real(*args))

        monkeypatch.setattr(service_module, "choose", short_of_memory)
    else:
        real_make = service_module.make_executor

        def make_executor(kind: str, workers: int) -> Any:
            pool = real_make(kind, workers)
            submit = pool.submit

            def no_worker(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
                calls["n"] += 1
                if calls["n"] in (3, 4):
                    raise OSError(11, "Resource temporarily unavailable")
                return submit(fn, *args, **kwargs)

            pool.submit = no_worker  # type: ignore[method-assign]
            return pool

        monkeypatch.setattr(service_module, "make_executor", make_executor)
    monkeypatch.setattr(service_module, "BOT_RETRY", 0.001)
    assert _bots_game() == plain
    assert calls["n"] == len(plain) + 2  # asked twice more, nothing played for it


@pytest.mark.parametrize("failure", ["memory", "own"])
def test_a_decision_that_cannot_succeed_is_played_for_the_bot(monkeypatch: Any,
                                                               failure: str) -> None:
    """A decision whose worker runs out of memory on every try (a search that needs more
    than a worker has) is asked again up to ``MEMORY_TRIES`` times, then has its first
    legal action played, and the game goes on; an ``OSError`` of the bot's own (a file
    it cannot read) is its own failure at once, not the machine's."""
    from dominari.server import service as service_module

    plain = _bots_game()
    real = service_module.choose
    calls = {"n": 0}

    def fails(*args: Any) -> str:
        calls["n"] += 1
        if 3 <= calls["n"] < 3 + (service_module.MEMORY_TRIES if failure == "memory" else 1):
            raise MemoryError if failure == "memory" else PermissionError("book.toml")
        return str(real(*args))

    monkeypatch.setattr(service_module, "choose", fails)
    monkeypatch.setattr(service_module, "BOT_RETRY", 0.001)
    played = _bots_game()
    assert played[:2] == plain[:2] and played[2] == "buy Copper" != plain[2]
    tries = service_module.MEMORY_TRIES if failure == "memory" else 1
    assert calls["n"] == len(played) + tries - 1  # the third decision tried that often


def _run_apart(coroutine: Any) -> Any:
    """``asyncio.run(coroutine)`` in a thread of its own: a browser test run before it in
    the same process (Playwright's sync API) leaves an event loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
