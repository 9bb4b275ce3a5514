"""Bots deciding for server seats (issue 6 §1, issue 7): a search bot's answer for a
position and seed is the same whether the server's workers run one decision at a time or
several at once in threads."""

from __future__ import annotations

import pickle
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

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


def test_each_worker_thread_has_its_own_bots() -> None:
    mine = _bot("dominion", "mcts", 2.0)
    assert _bot("dominion", "mcts", 2.0) is mine  # made once per thread
    theirs: list[Any] = []
    worker = threading.Thread(target=lambda: theirs.append(_bot("dominion", "mcts", 2.0)))
    worker.start()
    worker.join()
    assert theirs[0] is not mine and theirs[0].seconds == mine.seconds == 2.0
