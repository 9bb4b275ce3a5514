"""The Dominion environment: the index space, masks, observations, whole games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from dominari.bots import load_bot
from dominari.core.errors import ConfigError
from dominari.dominion import effects as E
from dominari.dominion.actions import Action, parse
from dominari.dominion.cards import NUM_CARDS, card_id
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED
from dominari.envs.dominion import (
    DECISIONS,
    NUM_ACTIONS,
    DominionEnv,
    action_to_index,
    dominion_env,
    encode_observation,
    encode_state,
    index_to_action,
    observation_layout,
    state_layout,
)


def _play(env: DominionEnv, rng: np.random.Generator, check: Any = None) -> int:
    """Play a whole game with uniformly random legal indices; return the steps."""
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if check is not None:
            check(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


def test_index_space_is_a_bijection() -> None:
    assert NUM_ACTIONS == 292
    seen = set()
    for i in range(NUM_ACTIONS):
        a = index_to_action(i)
        assert action_to_index(a) == i
        seen.add(a)
    assert len(seen) == NUM_ACTIONS
    assert action_to_index(parse("end")) == 0
    assert action_to_index(parse("gain Gold")) == 4 + 4 * NUM_CARDS + card_id("Gold")
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(ValueError, match="out of range"):
            index_to_action(bad)
    for action in (parse("discard Estate Copper"), Action("play"), Action("end", (1,)),
                   Action("fly", (1,)), Action("buy", (99,)), ("buy", (1,))):
        with pytest.raises(ValueError):
            action_to_index(action)  # type: ignore[arg-type]


def test_every_decision_kind_of_every_kingdom_maps_legal_actions_to_distinct_indices() -> None:
    kinds = set()
    for k, kingdom in enumerate(RECOMMENDED):
        for g in range(8):
            s = DominionState.new(DominionConfig(players=2 + g % 3, kingdom=kingdom,
                                                 seed=10 * k + g, max_turns=40))
            rng = random.Random(g)
            while not s.is_terminal():
                kinds.add(s.decision().kind)
                legal = s.legal_actions()
                indices = [action_to_index(a) for a in legal]
                assert len(set(indices)) == len(legal)
                assert all(0 <= i < NUM_ACTIONS for i in indices)
                assert [index_to_action(i) for i in indices] == legal
                s.apply(rng.choice(legal))
    assert kinds == set(DECISIONS) - {"over"}  # every card decision was asked and indexed


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_mask_is_exactly_the_legal_actions(players: int) -> None:
    env = DominionEnv(num_players=players, kingdom="interaction", raw_view=False)
    env.reset(seed=players)
    space = env.observation_space(env.agent_selection)

    def check(env: DominionEnv, agent: str, obs: dict[str, Any]) -> None:
        legal = set(env.game.legal_actions())
        mask = obs["action_mask"]
        assert {index_to_action(int(i)) for i in np.flatnonzero(mask)} == legal
        assert agent == f"player_{env.game.current_player()}"
        assert space.contains(obs)

    steps = _play(env, np.random.default_rng(players), check)
    assert steps > 50 and not env.agents
    assert env.game.is_terminal()


def test_game_end_rewards_and_infos() -> None:
    env = DominionEnv(num_players=3, kingdom="first-game")
    env.reset(seed=8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            assert terminated and not truncated
            assert info["outcome"] == env.game.outcome().to_json()
            assert info["view"] == env.game.view(int(agent[-1]))
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winners = env.game.outcome().winners
    assert totals == {f"player_{p}": (1 / len(winners) if p in winners else 0.0)
                      for p in range(3)}


def test_turn_limit_is_a_truncation_without_reward() -> None:
    env = DominionEnv(num_players=2, kingdom="big-money", max_turns=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    ends = []
    for _ in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            ends.append((terminated, truncated, reward, info["outcome"]["reason"]))
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ends == [(False, True, 0.0, "turn-limit")] * 2


def test_reproducible_from_the_seed() -> None:
    def run(seed: int) -> list[Any]:
        env = DominionEnv(num_players=2, kingdom="random", raw_view=False)
        env.reset(seed=seed)
        trace: list[Any] = []
        rng = np.random.default_rng(0)
        for agent in env.agent_iter(300):
            obs, *_ = env.last()
            trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            if not obs["action_mask"].any():
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return trace

    assert run(3) == run(3)
    assert run(3) != run(4)
    env = DominionEnv(num_players=2)
    env.reset(seed=3)
    assert env.game.kingdom == DominionState.new(DominionConfig(players=2, seed=3)).kingdom


def test_observation_hides_what_the_player_cannot_see(kit: Any) -> None:
    rng = random.Random(2)
    layout = observation_layout(3)
    for seed in range(3):
        s = DominionState.new(DominionConfig(players=3, kingdom="interaction", seed=seed,
                                             max_turns=12))
        while not s.is_terminal():
            for viewer in range(3):
                obs = encode_observation(s, viewer, layout)
                other = s.determinize(viewer, rng)  # all the viewer cannot see dealt again
                assert np.array_equal(encode_observation(other, viewer, layout), obs)
            s.apply(rng.choice(s.legal_actions()))


def test_observation_layout_and_library_privacy(kit: Any) -> None:
    lay = observation_layout(2)
    assert lay.size == 843 and observation_layout(3).size == 1107
    assert observation_layout(4).size == 1371
    s = kit.position(kingdom="interaction", hand=["Library"], deck=["Smithy", "Copper"])
    kit.act(s, "play Library")
    assert s.decision().kind == "library"
    cards = lay["decision_cards"]
    mine = encode_observation(s, 0)[cards.offset:cards.end]
    theirs = encode_observation(s, 1)[cards.offset:cards.end]
    assert mine[card_id("Smithy")] == 1 and not theirs.any()
    obs = encode_observation(s, 1)
    decision = lay["decision"].offset
    assert obs[decision + DECISIONS.index("library")] == 1
    # seat-relative: player 1 sees player 0 (the decider) in slot 1
    assert obs[lay["decision_player"].offset + 1] == 1
    hand = lay["hand"].offset
    assert encode_observation(s, 0)[hand + card_id("Smithy")] == 1
    assert len(E.KIND_NAMES) + 3 == len(DECISIONS)


@pytest.mark.rule("N-CARD-THRONEROOM")
def test_a_throne_roomed_cards_second_play_to_come_is_observed(kit: Any) -> None:
    """The first play of a Throne-Roomed Chapel and its second ask the same question of the
    same hand; the observation tells them apart (the second play is still to come, and
    everyone saw the Throne Room), so a policy without memory knows what is left."""
    lay = observation_layout(2)
    replays = lay["replays"]
    s = kit.position(kingdom=["Throne Room", "Chapel", "Village", "Smithy", "Militia", "Moat",
                              "Cellar", "Market", "Mine", "Witch"],
                     hand=["Throne Room", "Chapel", "Estate", "Copper", "Copper"])
    kit.act(s, "play Throne Room")  # Chapel, its only Action card to play twice
    assert s.decision().kind == "chapel"
    first = encode_observation(s, 0)
    assert first[replays.offset + card_id("Chapel")] == 1
    assert encode_observation(s, 1)[replays.offset + card_id("Chapel")] == 1  # public
    kit.act(s, "done")
    assert s.decision().kind == "chapel"  # the second play, asking the same
    second = encode_observation(s, 0)
    assert not second[replays.offset:replays.end].any()
    assert not np.array_equal(first, second)
    kit.act(s, "done")
    assert not encode_observation(s, 0)[replays.offset:replays.end].any()


def test_bots_play_seats_through_action_indices() -> None:
    env = DominionEnv(num_players=2, kingdom="first-game", raw_view=False)
    env.reset(seed=9)
    bots = [load_bot("bmu"), load_bot("smithy")]
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = bots[int(agent[-1])].act(env.game)
        (index,) = env.action_indices(action)
        assert env.index_action(index) == action
        env.step(index)
    assert env.game.is_terminal() and env.game.outcome().reason != "turn-limit"


def test_bad_dominion_options() -> None:
    with pytest.raises(ConfigError, match="unknown kingdom"):
        DominionEnv(kingdom="nonsense")
    with pytest.raises(ConfigError, match="Dragon"):
        DominionEnv(kingdom=["Witch", "Dragon"])
    with pytest.raises(ConfigError, match="kingdom must be"):
        DominionEnv(kingdom=7)  # type: ignore[arg-type]
    for bad in (0, True, 2.5):
        with pytest.raises(ConfigError, match="max_turns"):
            DominionEnv(max_turns=bad)  # type: ignore[arg-type]
    env = DominionEnv(kingdom=("Witch", "Village"))
    env.reset(seed=1)
    assert {card_id("Witch"), card_id("Village")} <= set(env.game.kingdom)


def test_an_agent_that_never_buys_is_truncated_by_the_default_turn_limit() -> None:
    env = dominion_env(num_players=2, kingdom="first-game")
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter(max_iter=10_000):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))  # always the first legal index
        steps += 1
    assert not env.agents and steps < 10_000
    assert all(env.truncations.values())


def test_bad_seeds_and_agent_names_are_one_clear_error() -> None:
    env = dominion_env(num_players=2, kingdom="first-game")
    for bad in ("1", 1.0, True, -1):
        with pytest.raises(ConfigError, match="a seed is a non-negative integer"):
            env.reset(seed=bad)  # type: ignore[arg-type]
    env.reset(seed=np.int64(3))
    assert env.game_seed == 3 and type(env.game_seed) is int
    for call in (env.view, env.observe, env.action_space, env.observation_space):
        with pytest.raises(ConfigError, match="no agent 'player_9': the agents are player_0, "
                           "player_1"):
            call("player_9")  # type: ignore[operator]
    assert env.action_space("player_1") is env.action_spaces["player_1"]
    assert env.observation_space("player_0") is env.observation_spaces["player_0"]


@pytest.mark.rule("N-HIDDEN")
def test_what_everyone_saw_of_a_hand_a_deck_and_a_discard_pile_is_observed(kit: Any) -> None:
    """The cards everyone knows of another player (as the engine's view and determinize
    keep them) are in the observation: a Moat revealed from the hand, cards seen put on
    top of a deck (Spy's kept cards, the next draw first) and the cards seen going to a
    discard pile; the hand discarded face down at clean-up is not."""
    lay = observation_layout(2)
    k = NUM_CARDS

    def block(obs: Any, name: str, slot: int) -> dict[str, int]:
        part = obs[lay[name].offset + slot * k:lay[name].offset + (slot + 1) * k]
        return {kit.names([c])[0]: int(part[c]) for c in np.flatnonzero(part)}

    s = kit.position(kingdom="interaction", hand=["Spy", "Village"], actions=2,
                     deck=["Copper", "Gold", "Estate"],
                     others={1: {"hand": ["Copper"] * 5,
                                 "deck": ["Province", "Estate", "Copper", "Silver"]}})
    kit.act(s, "play Spy", "keep Gold", "keep Province")
    obs = encode_observation(s, 0)  # player 1 is slot 1 to player 0
    assert block(obs, "deck_top", 1) == block(obs, "deck_next", 1) == {"Province": 1}
    assert block(obs, "deck_top", 0) == block(obs, "deck_next", 0) == {"Gold": 1}
    assert np.array_equal(encode_observation(s.determinize(0, random.Random(3)), 0), obs)

    hand1 = ["Moat", "Copper", "Copper", "Estate", "Silver"]
    s = kit.position(kingdom="interaction", hand=["Village", "Militia"],
                     others={1: {"hand": hand1, "deck": ["Gold", "Duchy", "Copper"] * 3}})
    kit.act(s, "play Village", "play Militia", "reveal Moat")
    assert block(encode_observation(s, 0), "shown", 1) == {"Moat": 1}

    s = kit.position(hand=["Smithy", "Province", "Duchy", "Estate", "Copper"],
                     deck=["Copper"] * 4 + ["Estate"] * 3 + ["Silver"] * 3, discard=["Gold"])
    kit.act(s, "end", "end")  # played Copper seen, the hand discarded face down but its top
    assert block(encode_observation(s, 1), "discard_seen", 1) == {
        "Gold": 1, "Copper": 1, "Estate": 1}
    assert block(encode_observation(s, 0), "discard", 0) == {
        "Gold": 1, "Copper": 1, "Estate": 1, "Smithy": 1, "Province": 1, "Duchy": 1}


_SEAT_BLOCKS = ("decision_player", "decision_target", "turn_player", "owned", "in_play",
                "aside", "discard_top", "discard_seen", "shown", "deck_top", "pile_sizes",
                "turns", "vp")
"""The blocks with a slot per seat that the observation and the global state share."""


def _slots(vec: np.ndarray, block: Any, players: int) -> np.ndarray:
    return vec[block.offset:block.end].reshape(players, -1)


@pytest.mark.rule("N-TURN-3")  # the next hand: each deck's top 5 cards
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_global_state_is_every_observation_at_once(players: int) -> None:
    """``state()`` holds what each seat observes, with seats absolute (seat q in slot q), and
    what no seat may see: every hand, deck and discard pile, the real top of each deck and its
    top 5 cards, a Library's drawn card. Sampled worlds that every observation cannot tell
    apart differ in it."""
    obs_lay, lay = observation_layout(players), state_layout(players)
    assert lay.size == {2: 1003, 3: 1395, 4: 1787}[players]
    shared = [b.name for b in obs_lay.blocks if b.name in lay]
    assert "hand" in obs_lay and "hand" not in lay
    rng = random.Random(players)
    hidden_seen = 0
    for seed in range(4):
        s = DominionState.new(DominionConfig(players=players, kingdom="interaction", seed=seed,
                                             max_turns=20))
        while not s.is_terminal():
            state = encode_state(s, lay)
            for q, ps in enumerate(s.players):
                for name, cards in (("hands", ps.hand), ("draw_piles", ps.deck),
                                    ("discards", ps.discard)):
                    assert np.array_equal(_slots(state, lay[name], players)[q],
                                          np.bincount(cards, minlength=NUM_CARDS))
                top = _slots(state, lay["deck_next"], players)[q]
                assert top.tolist() == ([float(c == ps.deck[-1]) for c in range(NUM_CARDS)]
                                        if ps.deck else [0.0] * NUM_CARDS)
                assert np.array_equal(_slots(state, lay["next_hand"], players)[q],
                                      np.bincount(ps.deck[::-1][:5], minlength=NUM_CARDS))
            for v in range(players):
                obs = encode_observation(s, v, obs_lay)
                for name in shared:
                    mine, full = obs[obs_lay[name].offset:obs_lay[name].end], \
                        state[lay[name].offset:lay[name].end]
                    if name in _SEAT_BLOCKS:  # obs slot r is seat v + r
                        full = np.roll(_slots(state, lay[name], players), -v, axis=0).ravel()
                    if name == "deck_next":  # known to the observer: the real top
                        full = np.roll(_slots(state, lay[name], players), -v, axis=0).ravel()
                        assert (full[mine == 1] == 1).all()
                    elif name == "decision_cards" and not mine.any():
                        pass  # a Library's card, to its player only
                    else:
                        assert np.array_equal(mine, full), name
                for name, own in (("hand", "hands"), ("draw_pile", "draw_piles"),
                                  ("discard", "discards")):
                    assert np.array_equal(obs[obs_lay[name].offset:obs_lay[name].end],
                                          _slots(state, lay[own], players)[v])
                other = s.determinize(v, rng)
                if not np.array_equal(encode_state(other, lay), state):
                    hidden_seen += 1
            s.apply(rng.choice(s.legal_actions()))
    assert hidden_seen > 100


@pytest.mark.rule("N-CARD-LIBRARY")
def test_the_global_state_holds_a_librarys_card_for_everyone(kit: Any) -> None:
    lay = state_layout(2)
    s = kit.position(kingdom="interaction", hand=["Library"], deck=["Smithy", "Copper"])
    kit.act(s, "play Library")
    assert s.decision().kind == "library"
    assert encode_state(s, lay)[lay["decision_cards"].offset + card_id("Smithy")] == 1
    assert encode_state(s)[lay["decision_player"].offset] == 1  # seat 0, absolute
