"""The envs extra: optional imports, PettingZoo's own API test, behaviour shared by both games."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state_space as check_state_space

from dominari.core.errors import ConfigError, IllegalActionError
from dominari.envs import DominationsEnv, DominionEnv, dominations_env, dominion_env
from dominari.envs.base import GameEnv, Layout
from dominari.envs.dominion import encode_state

# Warnings api_test gives every Dict-observation environment not on its own list of names
# (and a dead agent's all-zero mask): not problems of these environments.
API_TEST_WARNINGS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Action mask numpy array is all zeros:UserWarning",
]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_core_packages_never_import_numpy_or_pettingzoo() -> None:
    result = _run("""
        import sys
        import dominari.core, dominari.dominion.engine, dominari.dominations.engine
        import dominari.bots, dominari.sim, dominari.cli
        heavy = {"numpy", "pettingzoo", "gymnasium"} & set(sys.modules)
        assert not heavy, heavy
    """)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("missing", ["pettingzoo", "numpy", "gymnasium"])
def test_envs_without_the_extra_says_how_to_install_it(missing: str) -> None:
    result = _run(f"""
        import sys
        sys.modules[{missing!r}] = None  # as if not installed
        try:
            import dominari.envs
        except ImportError as exc:
            print(exc)
        else:
            raise SystemExit("imported without {missing}")
    """)
    assert result.returncode == 0, result.stderr
    assert "dominari.envs needs the envs extra: pip install 'dominari[envs]'" in result.stdout


ENVS = {
    "dominion-2": lambda: dominion_env(num_players=2, kingdom="first-game"),
    "dominion-4-short": lambda: dominion_env(num_players=4, kingdom="interaction",
                                             max_turns=4),
    "dominations-2": lambda: dominations_env(num_players=2),
    "dominations-4": lambda: dominations_env(num_players=4, raw_view=False),
}


@pytest.mark.filterwarnings(*API_TEST_WARNINGS)
@pytest.mark.parametrize("name", list(ENVS))
def test_pettingzoo_api_test(name: str) -> None:
    env = ENVS[name]()
    cycles = 150 if name.startswith("dominion") else 40
    api_test(env, num_cycles=cycles)


@pytest.mark.filterwarnings(*API_TEST_WARNINGS)
@pytest.mark.parametrize("name", ["dominion-2", "dominations-4"])
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(ENVS[name], num_cycles=20)


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_agents_spaces_and_first_observation(make: type[GameEnv]) -> None:
    env = make(num_players=3)
    env.reset(seed=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.agent_selection == f"player_{env.game.current_player()}"
    n = env.action_space("player_0").n
    assert n == env.num_actions
    obs, reward, terminated, truncated, info = env.last()
    assert obs["action_mask"].shape == (n,) and obs["action_mask"].dtype == np.int8
    assert obs["observation"].dtype == np.float32
    assert obs["observation"].shape == (env.layout.size,)
    assert env.observation_space(env.agent_selection).contains(obs)
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["view"] == env.view(env.agent_selection)
    others = [a for a in env.agents if a != env.agent_selection]
    for a in others:  # only the agent to act has a mask and a raw view
        assert not env.observe(a)["action_mask"].any()
        assert env.infos[a] == {}


@pytest.mark.parametrize(("make", "size"), [(DominionEnv, 1395), (DominationsEnv, 13891)])
def test_the_global_state(make: type[GameEnv], size: int) -> None:
    """``env.state()`` is the game's global vector now (the same whoever acts: seat 0's
    encoding by the state layout), a new array each call, within ``state_space``
    (PettingZoo's own state space check passes), the same in a deep copy (which shares the
    layout), and refused before ``reset()``."""
    env = make(num_players=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.state()
    check_state_space(env)  # PettingZoo's own check
    assert env.state_space.shape == (size,) == (env.state_layout.size,)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for step, _agent in enumerate(env.agent_iter(300)):
        obs, _, terminated, truncated, _ = env.last()
        state = env.state()
        assert env.state_space.contains(state)
        if isinstance(env, DominionEnv):
            assert np.array_equal(state, encode_state(env.game, env.state_layout))
        else:
            assert isinstance(env, DominationsEnv)
            assert np.array_equal(state, env.state_observer.encode(env.game, 0, env.pending))
        state[:] = -1  # a copy: the environment's own is untouched
        assert env.state_space.contains(env.state())
        if step == 60:
            twin = copy.deepcopy(env)
            assert twin.state_layout is env.state_layout
            assert np.array_equal(twin.state(), env.state())
        env.step(None if terminated or truncated
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert step > 100


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_what_choices_gives_is_the_callers(make: type[GameEnv]) -> None:
    """``choices()`` is a copy, the second steps of two-step actions included: a caller
    that prunes it (a search) leaves the environment's legal actions as they were."""
    env = make(num_players=2)
    env.reset(seed=1)
    rng = random.Random(1)
    nested = 0
    for _ in env.agent_iter(400):
        if any(env.last()[2:4]):
            env.step(None)
            continue
        before, mine = copy.deepcopy(env.choices()), env.choices()
        legal = sorted(mine)
        for choice in mine.values():
            if isinstance(choice, dict):
                nested += 1
                choice.clear()
        mine.clear()
        assert env.choices() == before  # the second steps too
        assert int(env.observe(env.agent_selection)["action_mask"].sum()) == len(legal)
        env.step(rng.choice(legal))
    assert nested or make is DominionEnv  # two-step actions were met


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_a_deep_copys_spaces_sample_on_their_own(make: type[GameEnv]) -> None:
    """A copy's spaces draw from copies of the original's generators (the bounds, read-only,
    are shared): sampling the copy's leaves the original's draws as they would have been."""
    env, same = make(num_players=2), make(num_players=2)
    for e in (env, same):
        e.reset(seed=3)
        e.action_space("player_0").seed(5)
        e.observation_space("player_0").seed(6)
    twin = copy.deepcopy(env)
    twin.action_space("player_0").sample()
    twin.observation_space("player_0").sample()
    assert env.action_space("player_0").sample() == same.action_space("player_0").sample()
    a, b = (e.observation_space("player_0").sample() for e in (env, same))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert twin.action_space("player_0").sample() == same.action_space("player_0").sample()
    # The bounds they share are read-only: a copy cannot change the original's.
    high = twin.observation_space("player_0")["observation"].high
    assert high is env.observation_space("player_0")["observation"].high
    with pytest.raises(ValueError, match="read-only"):
        high[0] = -1.0
    # Shared within the environment's copy only: a caller's own deep copy of a bound
    # beside it is a copy; a space beside it is the copy's own, either way round.
    low = env.state_space.low
    copied = copy.deepcopy({"env": env, "low": low})
    assert copied["low"] is not low and np.array_equal(copied["low"], low)
    assert copied["low"].flags.writeable
    space = env.observation_space("player_0")
    first, second = copy.deepcopy([env, space]), copy.deepcopy([space, env])
    assert first[0].observation_space("player_0") is first[1] is not space
    assert second[1].observation_space("player_0") is second[0] is not space


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_a_deep_copy_draws_the_next_games_as_the_original(make: type[GameEnv]) -> None:
    """The generator that seeds unseeded resets is copied: the copy's next games are the
    original's, and drawing them leaves the original's draws as they were."""
    env = make(num_players=2)
    env.reset(seed=7)
    twin = copy.deepcopy(env)
    twin.reset()
    twin_seeds = [twin.game_seed]
    twin.reset()
    twin_seeds.append(twin.game_seed)
    env.reset()
    seeds = [env.game_seed]
    env.reset()
    seeds.append(env.game_seed)
    assert seeds == twin_seeds and seeds[0] != seeds[1]


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_illegal_indices_raise_and_change_nothing(make: type[GameEnv]) -> None:
    env = make(num_players=2)
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.game.history[:]
    for bad in (illegal, -1, env.num_actions, None, 1.5, "3", True):
        with pytest.raises(IllegalActionError) as err:
            env.step(bad)
        assert isinstance(err.value, ValueError)
    assert env.game.history == before and env.agent_selection == agent
    legal = int(np.flatnonzero(mask)[0])
    env.step(np.int64(legal))  # NumPy integers are indices too
    assert len(env.game.history) == len(before) + 1 or env.pending == (legal,)


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_bad_configs_are_refused_clearly(make: type[GameEnv]) -> None:
    for players in (1, 5, "2", True, 2.0):
        with pytest.raises(ConfigError, match="2 to 4 players"):
            make(num_players=players)
    with pytest.raises(ConfigError, match="render_mode"):
        make(render_mode="rgb_array")
    with pytest.raises(ConfigError, match="raw_view"):
        make(raw_view="yes")


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_render_text(make: type[GameEnv], capsys: pytest.CaptureFixture[str]) -> None:
    env = make(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    # Seats are named as the agents are, not as the engine's players (P1 is player_0).
    mover = env.agent_selection
    assert mover in text.splitlines()[0] and "P1" not in text and "P2" not in text
    # the hand of the agent to act, and what it may do, in words
    assert f"\n{mover}'s " in text and "hand" in text.splitlines()[-2]
    legal = sorted(env.choices())
    assert text.splitlines()[-1].startswith(f"{mover} to act, {len(legal):,} legal action")
    assert env.action_text(legal[0]) in text.splitlines()[-1]
    human = make(render_mode="human")
    human.reset(seed=1)  # human mode prints after every reset and step, as PettingZoo's do
    assert capsys.readouterr().out.strip() == text
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text
    human.step(next(iter(human.choices())))
    env.step(next(iter(env.choices())))
    assert capsys.readouterr().out.strip() == env.render()
    silent = make()
    silent.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None
    env.close()


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_seeding(make: type[GameEnv]) -> None:
    a, b = make(), make()
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game_seed == b.game_seed == 11
    assert a.game.record() == b.game.record()
    a.reset()
    b.reset()  # the next game seed comes from the seeded RNG: the same for both
    assert a.game_seed == b.game_seed != 11
    with pytest.raises(RuntimeError, match="reset"):
        make().game  # noqa: B018
    # Random(-s) would play Random(s)'s games: a sweep over range(-n, n) would repeat them
    for bad in (-5, True, 1.5, "3"):
        env = make()
        with pytest.raises((ConfigError, TypeError)):
            env.reset(seed=bad)  # type: ignore[arg-type]
        assert env.game_seed is None


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_stepping_without_a_game_says_to_reset(make: type[GameEnv]) -> None:
    env = make(num_players=2)
    for call in (lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            call()
    env.reset(seed=4)
    returns = _play_randomly(env)
    assert sorted(returns.values()) in ([0.0, 1.0], [0.5, 0.5], [0.0, 0.0])
    assert not env.agents
    for call in (lambda: env.step(None), env.last):
        with pytest.raises(RuntimeError, match="game is over"):
            call()
    env.reset(seed=4)  # a new game starts the same way
    assert _play_randomly(env) == returns


@pytest.mark.parametrize("make", [DominionEnv, DominationsEnv])
def test_a_finished_agent_stepped_with_an_action_is_told_to_step_with_none(
        make: type[GameEnv]) -> None:
    env = make(num_players=2)
    env.reset(seed=4)
    rng = random.Random(0)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(rng.choice(list(env.choices()))))
    agent = env.agent_selection
    with pytest.raises(IllegalActionError, match=f"the game is over for {agent}: step it "
                                                 r"with None \(its last step\), not 0"):
        env.step(0)
    assert env.agent_selection == agent and agent in env.agents  # nothing changed
    while env.agents:
        env.step(None)


def test_action_text_names_what_a_legal_index_plays() -> None:
    """Every legal index in words: the game's notation of its action, or, for the first
    step of a Dominations monument, what its actions share and how many follow."""
    env = dominion_env(kingdom="first-game")
    env.reset(seed=1)
    assert {env.action_text(i) for i in env.choices()} == {
        env.game.format_action(a) for a in env.game.legal_actions()}
    illegal = next(i for i in range(env.num_actions) if i not in env.choices())
    with pytest.raises(IllegalActionError, match=f"action index {illegal} is not legal"):
        env.action_text(illegal)
    towns = dominations_env(num_players=2)
    towns.reset(seed=1)
    rng = random.Random(1)
    for _ in range(400):
        firsts = [i for i, c in towns.choices().items() if isinstance(c, dict)]
        if firsts:
            break
        towns.step(int(rng.choice(list(towns.choices()))))
    first = firsts[0]
    text = towns.action_text(first)
    seconds = [towns.game.format_action(a) for a in towns.choices()[first].values()]
    shared = text.split(" …")[0]
    assert shared.startswith("monument ") and all(t.startswith(shared) for t in seconds)
    assert text.endswith(f"(a first step: then one of {len(seconds)})" if len(seconds) > 1
                         else "(a first step: then its one second step)")
    towns.step(first)
    assert sorted(towns.action_text(i) for i in towns.choices()) == sorted(seconds)


def _play_randomly(env: GameEnv) -> dict[str, float]:
    """The README's loop: each agent's return, summed from ``last()``."""
    rng = random.Random(0)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
    return returns


def test_layout_refuses_duplicates_and_bad_bounds() -> None:
    lay = Layout()
    lay.add("a", 2)
    with pytest.raises(ValueError, match="twice"):
        lay.add("a", 1)
    with pytest.raises(ValueError, match="bad size"):
        lay.add("b", 0)
    with pytest.raises(ValueError, match="bad size"):
        lay.add("c", 1, low=2, high=1)
    assert "a" in lay and lay.size == 2


def test_a_factorys_unknown_option_is_named_with_the_options() -> None:
    """``dominion_env(kingdon=...)`` says which options there are, as the versus
    factories do (it was Python's bare ``TypeError``)."""
    with pytest.raises(ConfigError, match=r"^dominion_env: unknown option kingdon; the "
                                          r"options are DominionEnv's num_players, kingdom, "
                                          r"max_turns, render_mode, raw_view$"):
        dominion_env(kingdon="first-game")
    with pytest.raises(ConfigError, match=r"^dominations_env: unknown options foo, kingdom; "
                                          r"the options are DominationsEnv's num_players, "):
        dominations_env(kingdom="first-game", foo=1)
    assert dominion_env(kingdom="first-game").possible_agents == ["player_0", "player_1"]
