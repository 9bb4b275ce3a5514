"""The Dominations environment: the relative index space, masks, observations, whole games."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

from dominari.bots.dominations_random import DominationsRandomBot
from dominari.core.errors import ConfigError, IllegalActionError
from dominari.dominations.data import VESTIGIUM
from dominari.dominations.engine import (
    AGE_END,
    ASSIGN,
    BUILD,
    F_CHOOSE,
    F_EFFECTS,
    F_STEP,
    MONUMENT_CARD,
    OBJECTIVE,
    OVER,
    S_TAKE_LEVEL,
    DominationsConfig,
    DominationsState,
)
from dominari.dominations.notation import (
    ACQUIRE,
    ADVANCE,
    AS_DOMAIN,
    CHOOSE,
    CITY,
    COPY,
    COPY_ADVANCE,
    DONE,
    EXCHANGE,
    FIELD_COUNTS,
    MONUMENT,
    MULLIGAN,
    NO_TILE,
    ORDER,
    PASS,
    PAY,
    PLACE,
    REACTIVATE,
    RESOLVE,
    RETURN,
    RETURN_ALL,
    UPGRADE,
    Action,
)
from dominari.dominations.rules import Rules
from dominari.envs.dominations import SEGMENTS, Codec, DominationsEnv, Observer

COMMON = {PLACE, AS_DOMAIN, CITY, UPGRADE, PASS, EXCHANGE, MONUMENT, PAY, ACQUIRE, ADVANCE,
          COPY, CHOOSE, DONE, ORDER, REACTIVATE}
CONFIGS = {  # players, rules, seed, the action kinds the random game must offer
    "2p": (2, Rules(), 2, COMMON | {RETURN}),
    "3p-all-sides": (3, Rules(connection="all-sides"), 5, COMMON | {RETURN, RESOLVE,
                                                                   COPY_ADVANCE}),
    "4p": (4, Rules(), 4, COMMON | {RETURN}),
    "2p-prototype": (2, Rules(variant="prototype"), 2, COMMON | {RETURN_ALL, MULLIGAN}),
}
"""Together the four games offer every one of the 20 kinds of action."""


def _random_game(players: int, rules: Rules, seed: int) -> Any:
    """Yield the states of a random game (uniform over actions other than exchanges, as the
    random bot plays, so that games end in a few hundred steps)."""
    s = DominationsState.new(DominationsConfig(players=players, seed=seed, rules=rules,
                                               log=False))
    rng = random.Random(seed)
    while not s.is_terminal():
        yield s
        legal = s.legal_actions()
        s.apply(rng.choice([a for a in legal if a.kind != EXCHANGE] or legal))


def test_index_space_sizes() -> None:
    sizes = {p: Codec(p).size for p in (2, 3, 4)}
    assert sizes == {2: 61957, 3: 61961, 4: 61979}
    assert Codec(2, Rules(connection="all-sides")).size == sizes[2]
    assert Codec(2, Rules(variant="prototype")).size == sizes[2]
    c = Codec(4)
    assert (c.hand_slots, c.cells, c.tree_cards) == (9, 108, 34)
    assert sum(c.sizes.values()) == c.size and list(c.offsets) == list(SEGMENTS)
    assert c.segment(0) == ("place", 0) and c.segment(c.size - 1) == ("order", 23)
    assert {p: Observer(p).layout.size for p in (2, 3, 4)} == {2: 11085, 3: 13556, 4: 16027}


def test_the_test_games_cover_every_action_kind() -> None:
    assert set().union(*(c[3] for c in CONFIGS.values())) == set(range(len(FIELD_COUNTS)))


@pytest.mark.parametrize("config", list(CONFIGS))
def test_every_legal_action_has_its_own_index_path(config: str) -> None:
    players, rules, seed, must = CONFIGS[config]
    codec = Codec(players, rules)
    kinds: set[int] = set()
    two_steps = 0
    for step, s in enumerate(_random_game(players, rules, seed)):
        legal = s.legal_actions()
        root = codec.choices(s)  # raises if two legal actions share indices
        assert sum(len(v) if isinstance(v, dict) else 1 for v in root.values()) == len(legal)
        new = {a.kind for a in legal} - kinds
        if step % 3 and not new:
            continue
        kinds |= new
        paths = set()
        for a in legal:
            path = codec.encode(s, a)
            assert all(0 <= i < codec.size for i in path)
            assert codec.decode(s, path) == a
            assert (len(path) == 2) == (a.kind == MONUMENT and a.d != NO_TILE)
            two_steps += len(path) == 2
            paths.add(path)
        assert len(paths) == len(legal)
    assert must <= kinds
    assert two_steps > 0


def _legal_heads(env: DominationsEnv) -> set[int]:
    return {env.codec.encode(env.game, a)[0] for a in env.game.legal_actions()}


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_through_the_mask(players: int) -> None:
    env = DominationsEnv(num_players=players, raw_view=False)
    env.reset(seed=players)
    space = env.observation_space("player_0")
    rng = np.random.default_rng(players)
    codec = env.codec
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            assert terminated and not truncated and "outcome" in info
            env.step(None)
            continue
        mask = obs["action_mask"]
        legal_now = np.flatnonzero(mask)
        assert space.contains(obs)
        if not env.pending:
            assert agent == f"player_{env.game.current_player()}"
            assert set(legal_now.tolist()) == _legal_heads(env)
            if steps % 5 == 0:  # mask[i] == 1 exactly when index i starts a legal action
                legal = set(env.game.legal_actions())
                for i in rng.choice(codec.size, 300, replace=False).tolist():
                    try:
                        names_legal = codec.decode(env.game, (i,)) in legal
                    except ValueError:
                        names_legal = False
                    assert names_legal == bool(mask[i]) or isinstance(env.choices().get(i), dict)
        steps += 1
        env.step(int(rng.choice(legal_now)))
    outcome = env.game.outcome()
    assert not env.agents and outcome is not None
    assert totals == {f"player_{p}": float(p in outcome.winners) for p in range(players)}
    assert steps > 100


def _find_level_one_monument(env: DominationsEnv, seed: int) -> bool:
    """Play random legal indices until a level 1 monument is legal; False if the game ends."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return False
        if any(isinstance(v, dict) for v in env.choices().values()):
            return True
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return False


def test_level_one_monument_takes_two_steps() -> None:
    env = DominationsEnv(num_players=2, raw_view=False)
    assert any(_find_level_one_monument(env, seed) for seed in range(20))
    agent = env.agent_selection
    head = next(i for i, v in env.choices().items() if isinstance(v, dict))
    tails = env.choices()[head]
    assert env.codec.segment(head)[0] == "monument"
    with pytest.raises(IllegalActionError):
        env.index_action(min(tails))  # a tail index is not legal as the first step
    assert env.index_action(head) is None
    history = len(env.game.history)
    with pytest.raises(ValueError, match="second index"):
        env.codec.decode(env.game, (head,))
    other = next(v for v in env.choices().values() if not isinstance(v, dict))
    env.step(head)
    assert env.pending == (head,) and env.agent_selection == agent
    with pytest.raises(IllegalActionError) as err:  # in the game's notation
        env.action_indices(other)
    assert str(err.value) == (f"{env.game.format_action(other)!r} does not follow the first "
                              f"step already chosen (index {head})")  # fmt: skip
    assert len(env.game.history) == history  # nothing applied yet
    obs = env.observe(agent)
    assert set(np.flatnonzero(obs["action_mask"]).tolist()) == set(tails)
    assert all(env.codec.segment(t)[0] == "monument-tile" for t in tails)
    assert obs["observation"][env.layout["substep"].offset] == 1
    assert env.state()[env.state_layout["substep"].offset] == 1  # the global state too
    tail = min(tails)
    action = tails[tail]
    assert env.action_indices(action) == (tail,)
    env.step(tail)
    assert env.game.history[history] == action and env.pending == ()


def test_a_deep_copy_goes_on_alone_and_shares_what_never_changes() -> None:
    """``copy.deepcopy(env)`` (search over environments): the copy plays on exactly as
    the original would, stepping it leaves the original as it was, and the game data,
    the codec and the observer are shared rather than copied (a copy costs about a
    millisecond, not twenty)."""
    env = DominationsEnv(num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in env.agent_iter(40):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    twin = copy.deepcopy(env)
    assert twin.game is not env.game and twin.game.data is env.game.data
    assert twin.codec is env.codec and twin.observer is env.observer
    assert twin._node is env._node  # replaced at each step, never changed in place
    mask, twin_mask = (e.observation_spaces[e.agent_selection]["action_mask"]
                       for e in (env, twin))  # fmt: skip
    assert isinstance(mask, spaces.Box) and isinstance(twin_mask, spaces.Box)
    assert twin_mask is not mask and twin_mask.high is mask.high  # 62,000 bounds, shared

    def trace(e: DominationsEnv, steps: int) -> list[bytes]:
        r = np.random.default_rng(9)
        out = []
        for agent in e.agent_iter(steps):
            obs, reward, terminated, truncated, _ = e.last()
            out.append(agent.encode() + obs["observation"].tobytes()
                       + obs["action_mask"].tobytes() + str(reward).encode())
            e.step(None if terminated or truncated else
                   int(r.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    before = (env.agent_selection, env.observe(env.agent_selection)["observation"].tobytes(),
              len(env.game.history))
    ahead = trace(twin, 200)
    assert (env.agent_selection, env.observe(env.agent_selection)["observation"].tobytes(),
            len(env.game.history)) == before
    assert trace(env, 200) == ahead


def test_reproducible_from_the_seed() -> None:
    def run(seed: int) -> list[bytes]:
        env = DominationsEnv(num_players=3, raw_view=False)
        env.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = []
        for _ in env.agent_iter(150):
            obs, *_ = env.last()
            out.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    assert run(6) == run(6)
    assert run(6) != run(7)
    env = DominationsEnv(num_players=3)
    env.reset(seed=6)
    plain = DominationsState.new(DominationsConfig(players=3, seed=6))
    assert env.game.legal_actions() == plain.legal_actions()


def test_drafts_stay_secret() -> None:
    s = DominationsState.new(DominationsConfig(players=3, seed=2))
    top = s.stack[-1]
    assert top[0] == F_CHOOSE and top[2] == OBJECTIVE
    chooser = top[1]
    observer = Observer(3)
    other = s.copy()
    other.stack[-1] = [F_CHOOSE, chooser, OBJECTIVE, [o for o in range(16)
                                                     if o not in top[3]][:2]]
    for viewer in range(3):
        same = np.array_equal(observer.encode(s, viewer), observer.encode(other, viewer))
        assert same == (viewer != chooser)
    # a kept objective is hidden from the others until every objective is drafted
    s.apply(s.legal_actions()[0])
    lay = observer.layout["objective"]
    for viewer in range(3):
        seat = (chooser - viewer) % 3
        row = observer.encode(s, viewer)[lay.offset + 16 * seat:lay.offset + 16 * seat + 16]
        assert row.any() == (viewer == chooser)
    # the supply order is hidden
    rng = random.Random(0)
    for viewer in range(3):
        assert np.array_equal(observer.encode(s, viewer),
                              observer.encode(s.determinize(viewer, rng), viewer))


@pytest.mark.rule("D-SET-3")
def test_a_player_sees_both_pairs_it_drew_from_the_start() -> None:
    """Each player draws 2 objectives and 2 monuments at once (D-SET-3): while it chooses
    its objective it knows its monuments too (observation and view), and nobody else's."""
    s = DominationsState.new(DominationsConfig(players=3, seed=2))
    observer = Observer(3)
    lay = observer.layout["draft_options"]
    n_obj = observer.codec.n_objectives
    chooser = s.stack[-1][1]
    frames = {(f[1], f[2]): i for i, f in enumerate(s.stack) if f[0] == F_CHOOSE}
    assert (chooser, MONUMENT_CARD) in frames  # its monument draft comes later
    shown = observer.encode(s, chooser)[lay.offset:lay.end]
    assert sorted(np.flatnonzero(shown[:n_obj])) == s.stack[-1][3]
    i = frames[chooser, MONUMENT_CARD]
    assert sorted(np.flatnonzero(shown[n_obj:])) == s.stack[i][3]
    view = s.view(chooser)["drawn"]
    names = [m.id for m in s.data.monuments]
    assert view["monuments"] == [names[m] for m in s.stack[i][3]]
    assert set(view) == {"objectives", "monuments"}
    for q in range(3):  # another pair of the chooser's: only the chooser sees the change
        other = s.copy()
        unseen = [m for m in range(len(names)) if all(m not in f[3] for f in s.stack
                                                        if f[0] == F_CHOOSE)]
        other.stack[i] = [F_CHOOSE, chooser, MONUMENT_CARD, unseen[:2]]
        same = np.array_equal(observer.encode(s, q), observer.encode(other, q))
        assert same == (q != chooser)
        assert (s.view(q)["drawn"] == other.view(q)["drawn"]) == (q != chooser)
    assert s.view(None)["drawn"] == {}


def test_decode_refuses_paths_that_name_nothing() -> None:
    codec = Codec(2, Rules(connection="all-sides"))
    s = DominationsState.new(DominationsConfig(players=2, seed=3, rules=codec.rules))
    with pytest.raises(ValueError, match="one or two"):
        codec.decode(s, ())
    with pytest.raises(ValueError, match="out of range"):
        codec.decode(s, (codec.size,))
    with pytest.raises(ValueError, match="second step"):
        codec.decode(s, (codec.offsets["monument-tile"],))
    with pytest.raises(ValueError, match="one index"):
        codec.decode(s, (codec.offsets["pass"], 0))
    # cradle cell 0 (0,0) touches cradle cell 1 across side 2: not an empty cell
    with pytest.raises(ValueError, match="no empty cell"):
        codec.decode(s, (codec.offsets["place"] + 2,))
    with pytest.raises(ValueError, match="hand slot"):
        codec.decode(s, (codec.offsets["return"] + 8,))
    with pytest.raises(ValueError, match="not a Dominations action"):
        codec.encode(s, ("pass",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="order"):
        codec.encode(s, Action(18, 321))


def test_bad_dominations_options() -> None:
    with pytest.raises(ConfigError, match="variant"):
        DominationsEnv(variant="deluxe")
    with pytest.raises(ConfigError, match="connection"):
        DominationsEnv(rules={"connection": "sideways"})
    with pytest.raises(ConfigError, match="unknown rule option"):
        DominationsEnv(rules={"speed": "fast"})
    with pytest.raises(ConfigError, match="contradicts"):
        DominationsEnv(variant="prototype", rules={"variant": "retail"})
    with pytest.raises(ConfigError, match="contradicts"):
        DominationsEnv(variant="retail", rules=Rules(variant="prototype"))
    with pytest.raises(ConfigError, match="rules must be"):
        DominationsEnv(rules=["connection=all-sides"])  # type: ignore[arg-type]
    env = DominationsEnv(variant="prototype", rules=Rules(connection="all-sides"))
    assert (env.rules.variant, env.rules.connection) == ("prototype", "all-sides")
    env.reset(seed=1)
    assert env.game.rules == env.rules


def test_a_bot_plays_a_seat_through_action_indices() -> None:
    env = DominationsEnv(num_players=2, raw_view=False)
    env.reset(seed=12)
    bot = DominationsRandomBot(seed=1)
    rng = np.random.default_rng(2)
    bot_steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if agent == "player_1":
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            continue
        action = bot.act(env.game)
        path = env.action_indices(action)
        assert path == env.codec.encode(env.game, action)
        assert env.index_action(path[-1] if len(path) == 1 else path[0]) in (action, None)
        for index in path:
            env.step(index)
        assert env.game.history[-1] == action
        bot_steps += 1
    assert env.game.is_terminal() and bot_steps > 50
    with pytest.raises(IllegalActionError):
        env.action_indices(Action(PASS))  # the game is over


@pytest.mark.rule("D-SET-5", "D-AGE-9")
def test_the_known_bottom_of_the_supply_is_observed() -> None:
    """Tiles put back under the supply from a (public) hand are known to every player until
    drawn: the observation counts them and encodes the first of them, in the order they will
    be drawn, as it encodes a hand; a sampled world is observed the same."""
    observer = Observer(2)
    count = observer.layout["supply_known"].offset
    block = observer.layout["supply_bottom"]
    hands = observer.layout["hands"].offset
    width = block.size // observer.codec.hand_slots
    s = next(s for s in _random_game(2, Rules(), 3) if s.supply_known >= 3 and s.age > 1)
    k = s.supply_known
    rng = random.Random(2)
    for viewer in (0, 1):
        obs = observer.encode(s, viewer)
        assert obs[count] == k
        assert np.array_equal(obs, observer.encode(s.determinize(viewer, rng), viewer))
        # The tile next to be drawn of them is encoded as it was in the hand it left.
        shown = obs[block.offset:block.offset + block.size].reshape(-1, width)
        assert shown[:min(k, len(shown)), 0].all() and not shown[k:].any()
        mine = s.copy()
        mine.players[viewer].hand[0] = s.supply[k - 1]
        first = observer.encode(mine, viewer)[hands:hands + width]
        assert np.array_equal(shown[0], first)
    # Known in another order, the observation differs.
    other = s.copy()
    other.supply[k - 1], other.supply[0] = other.supply[0], other.supply[k - 1]
    assert not np.array_equal(observer.encode(s, 0), observer.encode(other, 0))
    assert not observer.encode(
        DominationsState.new(DominationsConfig(players=2, seed=3)), 0)[count]


_SEAT_BLOCKS = ("initiative", "knowledge", "limits", "tokens", "influence", "vp", "vp_by",
                "hand_size", "mulligans", "turns", "tree_size", "nodi", "skills", "advanced",
                "level_cards", "hands", "trees")
"""Blocks with a slot per seat and nothing seat-relative inside a slot."""
_DRAFT_BLOCKS = ("objective", "goals", "objective_vp", "monuments")
"""What the drafts hide from the other players (D-SET-3)."""


@pytest.mark.rule("D-SET-3")
@pytest.mark.parametrize("players", [2, 3])
def test_the_global_state_is_every_observation_at_once(players: int) -> None:
    """``state()`` is what seat 0 observes (seats absolute), plus what the drafts hide from
    the others (every seat's drawn cards and kept objective, the monuments drafted) and the
    next tiles of the supply, which no player knows; every seat's observation of its
    per-seat blocks is the state's, rotated to that seat."""
    observer, full = Observer(players), Observer(players, full=True)
    lay, obs_lay = full.layout, observer.layout
    assert lay.size == {2: 11392, 3: 13891}[players]
    assert "draft_options" not in lay and {"drafts", "supply_next"} <= set(lay._by_name)
    shared = [b.name for b in obs_lay.blocks if b.name in lay]
    rng = random.Random(players)
    drafted = hidden_seen = 0
    for step, s in enumerate(_random_game(players, Rules(), players)):
        state = full.encode(s, 0)
        drafting = any(f[0] == F_CHOOSE for f in s.stack) and s.phase != OVER
        obs0 = observer.encode(s, 0)
        for name in shared:
            if drafting and name in _DRAFT_BLOCKS:
                continue
            assert np.array_equal(obs0[obs_lay[name].offset:obs_lay[name].end],
                                  state[lay[name].offset:lay[name].end]), name
        if drafting:
            drafted += 1
            width = lay["drafts"].size // players
            drafts = state[lay["drafts"].offset:lay["drafts"].end].reshape(players, width)
            frames = [f for f in s.stack if f[0] == F_CHOOSE]  # objectives and monuments
            for q in range(players):
                assert drafts[q].sum() == 2 * sum(f[1] == q for f in frames)
            kept = state[lay["objective"].offset:lay["objective"].end].reshape(players, -1)
            assert [bool(row.any()) for row in kept] == [o >= 0 for o in s.objectives]
        pile = s.supply
        nxt = state[lay["supply_next"].offset:lay["supply_next"].end].reshape(
            full.codec.hand_slots, -1)
        assert nxt[:, 0].tolist() == [float(j < len(pile)) for j in range(len(nxt))]
        if pile:  # the next tile is encoded as it will be in the hand that draws it
            drawn = s.copy()
            drawn.players[0].hand[:1] = [pile[-1]]
            row = full.encode(drawn, 0)[lay["hands"].offset:][:nxt.shape[1]]
            assert np.array_equal(nxt[0], row)
        if step % 10 == 0:
            for v in range(1, players):
                obs = observer.encode(s, v)
                for name in _SEAT_BLOCKS:
                    mine = obs[obs_lay[name].offset:obs_lay[name].end].reshape(players, -1)
                    ours = state[lay[name].offset:lay[name].end].reshape(players, -1)
                    assert np.array_equal(mine, np.roll(ours, -v, axis=0)), name
                other = s.determinize(v, rng)
                assert np.array_equal(observer.encode(other, v), obs)
                hidden_seen += not np.array_equal(full.encode(other, 0), state)
    assert drafted > 0 and hidden_seen > 10


def _differs_for_all(s: Any, changed: Any, what: str) -> None:
    """Every seat's observation, and the global state, tell ``s`` and ``changed`` apart."""
    n = s.num_players
    observer, full = Observer(n), Observer(n, full=True)
    for viewer in range(n):
        assert not np.array_equal(observer.encode(s, viewer), observer.encode(changed, viewer)), \
            f"{what}: seat {viewer} cannot tell"
    assert not np.array_equal(full.encode(s, 0), full.encode(changed, 0)), what


@pytest.mark.rule("D-GROW-10", "D-GROW-11", "D-VOC-1", "D-BUILD-6", "D-DEV-6")
def test_every_public_part_of_the_game_is_observed() -> None:
    """What the rules make public and what shapes the game from here is in every seat's
    observation (and the global state): a placement's production while its vestigium is
    assigned and who assigns next, decisions waiting under the one now and the effects due
    in them, the monument level whose cost is being paid, the domains exchanged into this
    turn, the knowledge produced this turn, the overflow VP already given this phase. Changing
    any of them changes every observation; a sampled world changes none of them."""
    found = dict.fromkeys(("assign", "queued effects", "taking", "steps"), False)
    rng = random.Random(0)
    for players, seed in ((2, 0), (3, 0), (3, 3)):
        observer = Observer(players)
        for s in _random_game(players, Rules(), seed):
            if s.phase == ASSIGN and not found["assign"]:
                found["assign"] = True
                p = s.assign_queue[0]
                more = s.copy()
                more.batch[p][VESTIGIUM] += 1  # another vestigium to assign
                _differs_for_all(s, more, "the vestigium to assign")
                more = s.copy()
                more.batch[p][0] += 4  # more Trade produced
                _differs_for_all(s, more, "the production being scored")
                if len(s.assign_queue) == 1:
                    more.batch = [row.copy() for row in s.batch]
                    q = (p + 1) % players
                    more.batch[q][VESTIGIUM] += 1
                    more.assign_queue = [p, q]
                    _differs_for_all(s, more, "who assigns next")
            below = [i for i, f in enumerate(s.stack[:-1]) if f[0] == F_EFFECTS and f[2]]
            if below and not found["queued effects"]:
                found["queued effects"] = True
                fewer = s.copy()
                i = below[0]
                fewer.stack[i] = [F_EFFECTS, s.stack[i][1], s.stack[i][2][1:]]
                _differs_for_all(s, fewer, "an effect due under the decision now")
                gone = s.copy()
                del gone.stack[i]
                _differs_for_all(s, gone, "a decision waiting under the one now")
            steps = [i for i, f in enumerate(s.stack[:-1]) if f[0] == F_STEP]
            if s.phase == AGE_END and len(steps) >= 2 and not found["steps"]:
                found["steps"] = True  # what the end of the age has still to do
                fewer = s.copy()
                del fewer.stack[steps[-1]]
                _differs_for_all(s, fewer, "an engine step still to come")
            taking = [i for i, f in enumerate(s.stack[:-1])
                      if f[0] == F_STEP and f[1] == S_TAKE_LEVEL]
            if taking and not found["taking"]:
                found["taking"] = True
                f = s.stack[taking[0]]
                other = s.copy()
                col, row = f[4]
                other.stack[taking[0]] = [*f[:4], (col + 1, row), f[5]]
                _differs_for_all(s, other, "where the level card being paid for goes")
                other = s.copy()
                m = next(m for m in range(len(s.data.monuments)) if m != f[3])
                other.stack[taking[0]] = [*f[:3], m, *f[4:]]
                _differs_for_all(s, other, "the monument level being paid for")
            for v in range(players):  # all of it public: a sampled world is observed the same
                assert np.array_equal(observer.encode(s.determinize(v, rng), v),
                                      observer.encode(s, v))
            if s.round == 2 and s.age == 2 and s.phase == BUILD:
                other = s.copy()
                other.exchanged ^= 1 << 3
                _differs_for_all(s, other, "the domains exchanged into this turn")
                other = s.copy()
                other.produced = [x + (d == 2) for d, x in enumerate(s.produced)]
                _differs_for_all(s, other, "the knowledge produced this turn")
                other = s.copy()
                other.players[1].overflow ^= 1 << 5
                _differs_for_all(s, other, "overflow VP given this phase")
    assert all(found.values()), found


@pytest.mark.parametrize("players", [2, 3])
def test_the_encoders_remembered_rows_never_change_an_observation(players: int) -> None:
    """The observer keeps the entries of board cells, tree cards, tiles, objective progress
    and the mastery supply it has built, by their facts. One observer used for two games
    and for two branches of each (a copy playing on alone) encodes every step as an observer
    that has built nothing yet, for every seat, and so does the global state's."""
    warm, warm_full = Observer(players), Observer(players, full=True)
    rng = random.Random(players)
    for seed in (players, players + 10):
        state = DominationsState.new(DominationsConfig(players=players, seed=seed))
        branch: DominationsState | None = None
        while not state.is_terminal():
            for s in (state,) if branch is None else (state, branch):
                cold = Observer(players, codec=warm.codec)
                for viewer in range(players):
                    assert np.array_equal(warm.encode(s, viewer), cold.encode(s, viewer))
                cold_full = Observer(players, codec=warm.codec, full=True)
                assert np.array_equal(warm_full.encode(s, 0), cold_full.encode(s, 0))
            if branch is None and len(state.history) > 60:
                branch = state.copy()
            if branch is not None and not branch.is_terminal():
                branch.apply(rng.choice(branch.legal_actions()))
            state.apply(rng.choice(state.legal_actions()))
        assert branch is not None


def test_a_pickled_environment_leaves_the_remembered_rows_behind() -> None:
    """A pickle carries the game, not the observer's remembered entries; the environment it
    gives back observes the same."""
    env = DominationsEnv(num_players=2, raw_view=False)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(150):
        env.step(int(rng.choice(list(env.choices()))))
    before = env.observe(env.agent_selection)["observation"]
    assert env.observer._rows and env.observer._goals
    again = pickle.loads(pickle.dumps(env))
    assert not again.observer._rows and not again.observer._goals
    assert np.array_equal(again.observe(again.agent_selection)["observation"], before)
    assert again.game.history == env.game.history
