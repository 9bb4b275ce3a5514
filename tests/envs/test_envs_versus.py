"""One seat against bots as a single-agent Gymnasium environment (dominari.envs.versus)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dominari.bots import load_bot
from dominari.bots.mcts import MCTSBot
from dominari.core.errors import ConfigError, IllegalActionError, UnknownBotError
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominion.actions import Action as DominionAction
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.envs import dominations_versus, dominion_versus
from dominari.envs.versus import PolicyOpponent, VersusEnv
from dominari.sim.runner import BotError, derive_seed, play_game


def _episode(env: VersusEnv, seed: int, agent: str, agent_seed: int
             ) -> tuple[list[float], bool, bool, dict[str, Any]]:
    """Play an episode with a bot choosing the agent's actions through their indices."""
    game = "dominion" if "Dominion" in type(env.aec).__name__ else "dominations"
    me = load_bot(agent, game)
    obs, info = env.reset(seed=seed)
    me.reset(agent_seed)
    rewards: list[float] = []
    terminated = truncated = False
    while not (terminated or truncated):
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert env.game.current_player() == env.seat
        for index in env.aec.action_indices(me.act(env.game)):
            obs, reward, terminated, truncated, info = env.step(index)
            rewards.append(reward)
    return rewards, terminated, truncated, info


@pytest.mark.parametrize(("opponents", "seat"), [
    (["smithy"], 0), (["smithy"], 1),
    (["smithy", "random"], 2),  # the random bot reads its seed
    (["mcts-easy:trust=0"], 0),  # and a search (its own best each time) its own
])  # fmt: skip
def test_an_episode_is_the_engine_game_between_the_same_bots(opponents: list[str],
                                                             seat: int) -> None:
    """The agent's indices and the opponents' decisions make the game the simulator plays
    between the same bots with the same seeds: the bot of seat q is reset with
    ``derive_seed("versus-bot", game seed, q)``."""
    players = len(opponents) + 1
    env = dominion_versus(opponents=opponents, seat=seat, kingdom="size-distortion")
    rewards, terminated, truncated, info = _episode(env, 21, "bm", agent_seed=5)
    assert terminated and not truncated and info["seat"] == seat
    state = DominionState.new(DominionConfig(players=players, kingdom="size-distortion",
                                             seed=21))
    bots = [load_bot(b) for b in opponents]
    bots.insert(seat, load_bot("bm"))
    for q, bot in enumerate(bots):
        bot.reset(5 if q == seat else derive_seed("versus-bot", 21, q))
    play_game(bots, state)
    assert env.game.history == state.history
    outcome = state.outcome()
    assert outcome is not None and info["outcome"] == outcome.to_json()
    share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    assert rewards[-1] == share and sum(rewards[:-1]) == 0.0
    assert "view" in info


def test_a_dominations_episode_against_greedy() -> None:
    """Dominations: the same game as the simulator's between the same bots (the agent's
    level 1 monuments are two steps), the reward the agent's share of the win."""
    env = dominations_versus(opponents=["greedy"], seat=1, raw_view=False)
    rewards, terminated, _, info = _episode(env, 4, "random", agent_seed=9)
    state = DominationsState.new(DominationsConfig(players=2, seed=4, log=False))
    greedy, me = load_bot("greedy", "dominations"), load_bot("random", "dominations")
    greedy.reset(derive_seed("versus-bot", 4, 0))
    me.reset(9)
    play_game([greedy, me], state)
    assert terminated and env.game.history == state.history
    outcome = state.outcome()
    assert outcome is not None
    assert sum(rewards) == (1 / len(outcome.winners) if 1 in outcome.winners else 0.0)
    assert "view" not in info and info["outcome"]["winners"] == list(outcome.winners)


def test_a_seat_drawn_for_each_game_follows_the_seed() -> None:
    """``seat=None``: the seat is drawn at each reset, the same for the same seed, and a
    seeded reset's followers (``reset()``) are the same games and seats every time."""
    def seats(env: VersusEnv) -> list[tuple[int, int | None]]:
        out = []
        for seed in (1, None, None, 8, None):
            _, info = env.reset(seed=seed)
            out.append((info["seat"], env.aec.game_seed))
        return out

    first = seats(dominion_versus(opponents=["bm", "bmu"], seat=None, raw_view=False))
    again = seats(dominion_versus(opponents=["bm", "bmu"], seat=None, raw_view=False))
    assert first == again
    env = dominion_versus(opponents=["bm"], seat=None, raw_view=False)
    drawn = set()
    for seed in range(20):
        _, info = env.reset(seed=seed)
        assert env.game.current_player() == info["seat"] == env.seat
        drawn.add(info["seat"])
    assert drawn == {0, 1}


def test_a_game_stopped_by_the_turn_limit_is_truncated() -> None:
    env = dominion_versus(opponents=["bm"], kingdom="first-game", max_turns=3,
                          raw_view=False)
    rewards, terminated, truncated, info = _episode(env, 2, "bm", agent_seed=1)
    assert truncated and not terminated and sum(rewards) == 0.0
    assert info["outcome"]["reason"] == "turn-limit"
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.step(0)
    assert not env.action_masks().any()


def test_an_illegal_index_raises_or_loses() -> None:
    env = dominion_versus(opponents=["smithy"], kingdom="first-game", raw_view=False)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    history = list(env.game.history)
    with pytest.raises(IllegalActionError, match=f"action index {illegal} is not legal"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(10**6)
    assert env.game.history == history  # nothing changed: a legal index still plays
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))

    env = dominion_versus(opponents=["smithy"], kingdom="first-game", illegal="lose",
                          illegal_reward=-2)
    obs, _ = env.reset(seed=3)
    for not_an_index in (3.0, "3", np.array([3]), None, True, 10**6):
        with pytest.raises(IllegalActionError):  # a bug, not a move: raised in any mode
            env.step(not_an_index)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert "is not legal" in info["illegal"] and info["seat"] == 0 and "view" in info
    assert not obs["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(illegal)


@pytest.mark.parametrize("make", [
    lambda: dominion_versus(opponents=["best"], kingdom="random", illegal="lose"),
    lambda: dominations_versus(opponents=["random", "random"], illegal="lose",
                               raw_view=False),
])
def test_gymnasiums_environment_checker_passes(make: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any complaint of the checker fails the test
        check_env(make(), skip_render_check=True)


def test_gymnasium_makes_them_by_id_and_checks_every_render_mode(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``gymnasium.make`` builds both by id (with its own checking wrappers), and with an
    id ``check_env`` also tries the other render modes."""
    env = gymnasium.make("dominari/DominionVersus-v0", opponents=["smithy"],
                         kingdom="first-game", illegal="lose", render_mode="ansi")
    assert env.spec is not None and env.spec.id == "dominari/DominionVersus-v0"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env = gymnasium.make("dominari/DominationsVersus-v0", opponents=["random", "random"],
                         raw_view=False)
    obs, info = env.reset(seed=2)
    assert info["seat"] == 0 and len(env.unwrapped.aec.possible_agents) == 3
    mask = env.get_wrapper_attr("action_masks")()
    assert np.array_equal(mask, obs["action_mask"].astype(bool))
    capsys.readouterr()


def test_a_bot_that_chooses_an_illegal_action_is_named() -> None:
    class Cheater:
        name = "cheater"

        def reset(self, seed: int) -> None:
            pass

        def act(self, state: Any) -> DominionAction:
            return DominionAction.parse("buy Province")

    env = dominion_versus(opponents=[Cheater()], seat=1, kingdom="first-game",
                          raw_view=False)
    with pytest.raises(BotError, match=r"bot 'cheater' \(player_0\) chose 'buy Province' "
                                       r"in the game with seed 6: Province costs 8 but you "
                                       r"have \d coins"):  # the engine's reason
        env.reset(seed=6)
    with pytest.raises(RuntimeError, match="call reset"):  # the episode ended with it
        env.step(0)
    assert not env.action_masks().any()


def test_a_bot_that_fails_ends_the_episode_and_is_named() -> None:
    """A bot that raises while deciding (a bug, a bot of the other game) is named with the
    game's seed, and the episode is over: the agent's next index is never played for the
    bot's seat."""
    class Fragile:
        name = "fragile"

        def __init__(self) -> None:
            self.moves = 0

        def reset(self, seed: int) -> None:
            self.moves = 0

        def act(self, state: Any) -> Any:
            self.moves += 1
            if self.moves == 3:
                raise KeyError("no such card")
            return state.legal_actions()[0]

    env = dominion_versus(opponents=[Fragile()], kingdom="first-game", raw_view=False)
    obs, _ = env.reset(seed=3)
    with pytest.raises(BotError, match=r"the game with seed 3 stopped while bot 'fragile' "
                                       r"\(player_1\) was deciding: KeyError"):
        for _ in range(100):
            obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    history = list(env.game.history)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    assert env.game.history == history and not env.action_masks().any()
    env.reset(seed=4)  # a new episode plays on
    other = dominion_versus(opponents=[load_bot("greedy", "dominations")], seat=1,
                            kingdom="first-game")
    with pytest.raises(BotError, match=r"bot 'greedy' .* was deciding: ConfigError: greedy "
                                       r"plays dominations games, not a DominionState$"):
        other.reset(seed=3)


def test_a_numpy_seed_is_the_same_seed() -> None:
    env = dominion_versus(opponents=["random"], seat=None, raw_view=False)
    obs, info = env.reset(seed=np.int64(12))
    history = list(env.game.history)
    obs2, info2 = env.reset(seed=12)
    assert env.game.history == history and info == info2
    assert np.array_equal(obs["observation"], obs2["observation"])


def test_human_rendering_prints_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = dominion_versus(opponents=["bm"], kingdom="first-game", render_mode="human",
                          raw_view=False)
    obs, _ = env.reset(seed=1)
    assert capsys.readouterr().out.count("Dominion, turn") == 1  # once, the bots answered
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert capsys.readouterr().out.count("Dominion, turn") == 1
    text = dominion_versus(opponents=["bm"], render_mode="ansi")
    text.reset(seed=1)
    assert "Supply:" in (text.render() or "") and capsys.readouterr().out == ""


def test_bad_options_are_refused() -> None:
    with pytest.raises(ConfigError, match="2 players need 1 opponent, not 2"):
        VersusEnv(dominion_versus().aec, ["bm", "bm"])
    with pytest.raises(ConfigError, match="1 to 3 opponents"):
        dominion_versus(opponents=[])
    with pytest.raises(ConfigError, match="opponents is a list of bots"):
        dominion_versus(opponents="smithy")
    with pytest.raises(ConfigError, match="do not give num_players"):
        dominations_versus(opponents=["greedy"], num_players=3)
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        dominion_versus(opponents=["nobody"])
    for seat in (2, -1, True, "0", 0.5):
        with pytest.raises(ConfigError, match=r"seat is None .* or a seat 0 to 1"):
            dominion_versus(opponents=["bm"], seat=seat)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="illegal must be one of raise, lose"):
        dominion_versus(illegal="skip")
    with pytest.raises(ConfigError, match=r"a bot with a name, reset.*or a policy"):
        dominion_versus(opponents=[object()])  # type: ignore[list-item]

    class Nameless:
        def reset(self, seed: int) -> None:
            pass

        def act(self, state: Any) -> Any:
            return state.legal_actions()[0]

    with pytest.raises(ConfigError, match=r"a bot with a name, reset.*or a policy"):
        dominion_versus(opponents=[Nameless()])  # type: ignore[list-item]
    for reward in ("x", None, float("nan"), float("inf"), True):
        with pytest.raises(ConfigError, match="illegal_reward is a finite number"):
            dominion_versus(opponents=["bm"], illegal_reward=reward)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="wraps a Dominari game environment"):
        VersusEnv(object(), ["bm"])  # type: ignore[arg-type]
    env = dominion_versus(opponents=["bm"])
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    history = list(env.game.history)
    for seed in (-1, 2.5, "3", True):
        with pytest.raises(ConfigError, match="a seed is a non-negative integer"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.game.history == history  # the episode goes on as it was
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_the_readmes_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    (example,) = [b for b in blocks if "dominion_versus" in b]
    exec(compile(example, "README.md", "exec"), {})
    assert capsys.readouterr().out == "0.0 [1]\n"  # the first legal index every time loses


def test_a_pickled_episode_plays_on_the_same() -> None:
    """An environment pickled mid-episode (its bots too: a rule bot is pickled as its
    strategy) plays on as the original does, on its own."""
    import pickle

    env = dominion_versus(opponents=["best", "smithy"], kingdom="first-game",
                          raw_view=False)
    obs, _ = env.reset(seed=8)
    for _ in range(10):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    copy = pickle.loads(pickle.dumps(env))
    for e in (env, copy):
        o, done = e.aec.observe(e.agent), False
        while not done:
            o, _, terminated, truncated, _ = e.step(int(np.flatnonzero(o["action_mask"])[-1]))
            done = terminated or truncated
    assert copy.game.history == env.game.history and copy.game is not env.game


def test_a_deep_copy_keeps_its_spaces_one_with_the_inner_environments() -> None:
    """``copy.deepcopy`` of a versus environment: its observation space is still the inner
    environment's (one object, its bounds shared with the original's, read-only), and the
    copy plays on as the original does."""
    import copy

    env = dominations_versus(opponents=["greedy"], raw_view=False)
    obs, _ = env.reset(seed=2)
    twin = copy.deepcopy(env)
    agent = twin.aec.possible_agents[0]
    assert twin.observation_space is twin.aec.observation_space(agent)
    assert twin.observation_space is not env.observation_space
    mask = twin.observation_space["action_mask"]
    assert isinstance(mask, gymnasium.spaces.Box)
    original = env.observation_space["action_mask"]
    assert isinstance(original, gymnasium.spaces.Box)
    assert mask.high is original.high and not mask.high.flags.writeable
    for e in (env, twin):
        o = obs
        for _ in range(30):
            o, _, terminated, truncated, _ = e.step(int(np.flatnonzero(o["action_mask"])[0]))
            if terminated or truncated:
                break
    assert twin.game.history == env.game.history and twin.game is not env.game


def test_a_policy_plays_a_seat_from_its_observations() -> None:
    """A callable among the opponents is a policy over its seat's observation (self-play:
    a frozen copy of the agent): it sees exactly its legal indices, the second step of a
    Dominations level 1 monument included, and the game plays to its end."""
    rng = np.random.default_rng(1)
    calls = {"all": 0, "second steps": 0}
    env: VersusEnv

    def past_self(obs: dict[str, Any]) -> int:
        calls["all"] += 1
        calls["second steps"] += bool(env.aec.pending)
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal.tolist()) == set(env.aec.choices())
        assert env.aec.agent_selection != env.agent
        return int(rng.choice(legal))

    env = dominations_versus(opponents=[past_self], raw_view=False)
    assert env.opponents == ("past_self",)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    assert terminated and calls["all"] > 50 and calls["second steps"] >= 1
    named = dominion_versus(opponents=[PolicyOpponent(lambda obs: 0, name="frozen")])
    assert named.opponents == ("frozen",)


def test_a_policy_that_fails_is_named_and_ends_the_episode() -> None:
    def wrong(obs: dict[str, Any]) -> int:
        return int(np.flatnonzero(obs["action_mask"] == 0)[0])

    def broken(obs: dict[str, Any]) -> int:
        raise ZeroDivisionError("oops")

    def quits(obs: dict[str, Any]) -> int:  # (a policy's own sys.exit: its error too)
        raise SystemExit(4)

    for policy, message in ((wrong, r"bot 'wrong' \(player_0\) chose index \d+ in the game "
                                    r"with seed 5: action index \d+ is not legal"),
                            (broken, r"stopped while bot 'broken' \(player_0\) was deciding: "
                                     r"ZeroDivisionError: oops"),
                            (quits, r"stopped while bot 'quits' \(player_0\) was deciding: "
                                    r"SystemExit: 4 \(.*test_envs_versus\.py line \d+\)")):
        env = dominion_versus(opponents=[policy], seat=1, kingdom="first-game")
        with pytest.raises(BotError, match=message):
            for seed in range(5, 40):  # until the policy's seat decides before the agent
                env.reset(seed=seed)
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)
    with pytest.raises(ConfigError, match="needs a callable policy"):
        PolicyOpponent(3)  # type: ignore[arg-type]


def test_a_policys_own_project_error_is_a_bot_error() -> None:
    """An ``IllegalActionError`` raised inside a policy is its failure, not the agent's
    illegal index: a ``BotError`` naming it, the episode over."""
    def strict(obs: dict[str, Any]) -> int:
        raise IllegalActionError("inner illegal")

    env = dominion_versus(opponents=[strict], seat=1, kingdom="first-game")
    with pytest.raises(BotError, match=r"bot 'strict' \(player_0\) was deciding: "
                                       r"IllegalActionError: inner illegal"):
        for seed in range(5, 40):
            env.reset(seed=seed)
    assert not env.action_masks().any()


def test_a_bot_that_cannot_begin_a_game_is_named() -> None:
    from dominari.bots.kingdom import KingdomBestBot

    env = dominations_versus(opponents=[load_bot("best")])  # a Dominion bot
    with pytest.raises(BotError, match=r"bot 'Best' \(player_1\) could not begin the game "
                                       r"with seed 1: ConfigError: Best plays dominion games, "
                                       r"not a DominationsState$"):
        env.reset(seed=1)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    with pytest.raises(ConfigError, match=r"a bot, not a class: KingdomBestBot\(\) makes one"):
        dominion_versus(opponents=[KingdomBestBot])


def test_options_are_named_and_numbers_may_be_numpys() -> None:
    with pytest.raises(ConfigError, match="dominion_versus: unknown option opponent; the "
                                          "options are opponents, seat, illegal, "
                                          "illegal_reward, decision_timeout and "
                                          "DominionEnv's kingdom"):
        dominion_versus(opponent=["smithy"])
    with pytest.raises(ConfigError, match="dominations_versus: unknown options foo, kingdom"):
        dominations_versus(kingdom="first-game", foo=1)
    with pytest.raises(ConfigError, match="unknown option foo"):
        gymnasium.make("dominari/DominionVersus-v0", foo=1)
    for reward in (np.float32(-1.5), np.int64(-2)):
        env = dominion_versus(opponents=["bm"], illegal="lose", illegal_reward=reward)
        assert env.illegal_reward == float(reward)
    with pytest.raises(ConfigError, match="a policy opponent's name is a string, not 5"):
        PolicyOpponent(lambda obs: 0, name=5)  # type: ignore[arg-type]


def test_a_strategy_file_opponent_may_be_named_by_a_path(tmp_path: Path) -> None:
    """As everywhere a bot is named: a ``pathlib.Path`` is the file its string names, and
    the episode is the same game either way."""
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "Mine"\n[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n',
                    encoding="utf-8")
    histories = []
    for spec in (mine, str(mine)):
        env = dominion_versus(opponents=[spec], kingdom="first-game", raw_view=False)
        assert env.opponents == ("Mine",)
        obs, _ = env.reset(seed=3)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(
                int(np.flatnonzero(obs["action_mask"])[0]))
            done = terminated or truncated
        histories.append(env.game.history)
    assert histories[0] == histories[1]
    with pytest.raises(ConfigError, match="an opponent is a bot's spec"):
        dominion_versus(opponents=[3])


def _first_legal_episode(env: VersusEnv, seed: int) -> list[Any]:
    """The game of an episode whose agent always plays its first legal index."""
    obs, _ = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = terminated or truncated
    return list(env.game.history)


def test_envs_made_with_one_bot_object_play_their_own_episodes() -> None:
    """Each environment plays its own copy of a bot object: two made with one search bot,
    stepped in turn (as a vector of environments steps them), play each seed's episode as
    an environment alone does, and the caller's bot is left as it was (not advanced)."""
    bot = load_bot("mcts-easy")
    assert isinstance(bot, MCTSBot)
    state = bot._rng.getstate()
    alone = [_first_legal_episode(dominion_versus(opponents=["mcts-easy"],
                                                  kingdom="first-game", raw_view=False), s)
             for s in (1, 2)]  # fmt: skip
    envs = [dominion_versus(opponents=[bot], kingdom="first-game", raw_view=False)
            for _ in range(2)]
    masks = [env.reset(seed=s)[0]["action_mask"] for env, s in zip(envs, (1, 2), strict=True)]
    live = [0, 1]
    while live:
        for i in list(live):
            obs, _, terminated, truncated, _ = envs[i].step(int(np.flatnonzero(masks[i])[0]))
            masks[i] = obs["action_mask"]
            if terminated or truncated:
                live.remove(i)
    assert [list(env.game.history) for env in envs] == alone
    assert bot._rng.getstate() == state and bot.last_root is None
    assert envs[0]._bots[0] is not bot and envs[1]._bots[0] is not envs[0]._bots[0]


def test_a_vector_of_envs_made_with_one_bot_object_holds_a_copy_each() -> None:
    """``gymnasium.make_vec(..., opponents=[bot])`` gives every sub-environment the same
    arguments: each plays its own copy of the bot, of the same settings."""
    bot = load_bot("mcts-easy")
    assert isinstance(bot, MCTSBot)
    vec = gymnasium.make_vec("dominari/DominionVersus-v0", num_envs=3,
                             vectorization_mode="sync", opponents=[bot],
                             kingdom="first-game", raw_view=False)
    try:
        bots = [e.unwrapped._bots[0] for e in vec.envs]  # type: ignore[attr-defined]
    finally:
        vec.close()
    assert len({id(b) for b in (bot, *bots)}) == 4
    assert all(isinstance(b, MCTSBot) and b.settings() == bot.settings()
               and b.name == bot.name for b in bots)


def test_a_stateful_bot_object_is_copied_and_a_policy_shared() -> None:
    """A bot object's state is the environment's own copy's (the caller's stays as it
    was), also across ``copy.deepcopy`` of the environment; a policy is one object for
    every environment and copy given it. A bot that cannot be copied is refused."""
    import copy
    import threading

    class Counting:
        name = "counting"

        def __init__(self) -> None:
            self.moves = 0

        def reset(self, seed: int) -> None:
            pass

        def act(self, state: Any) -> Any:
            self.moves += 1
            return state.legal_actions()[0]

    def policy(obs: dict[str, Any]) -> int:
        return int(np.flatnonzero(obs["action_mask"])[0])

    counting = Counting()
    envs = [dominion_versus(opponents=[counting, policy], kingdom="first-game",
                            raw_view=False) for _ in range(2)]
    _first_legal_episode(envs[0], 4)
    twin = copy.deepcopy(envs[0])
    own = envs[0]._bots[0]
    assert isinstance(own, Counting) and own.moves > 0 and counting.moves == 0
    mine = twin._bots[0]
    assert isinstance(mine, Counting) and mine is not own and mine.moves == own.moves
    policies = [e._bots[1] for e in (*envs, twin)]
    assert all(isinstance(p, PolicyOpponent) and p.policy is policy for p in policies)
    assert policies[2] is policies[0]  # the copy plays the original's policy opponent
    assert _first_legal_episode(twin, 5) == _first_legal_episode(envs[1], 5)

    class Locked(Counting):
        def __init__(self) -> None:
            super().__init__()
            self.lock = threading.Lock()

    with pytest.raises(ConfigError, match=r"bot 'counting' cannot be copied, and each "
                                          r"environment plays its own copy"):
        dominion_versus(opponents=[Locked()])


def test_each_info_names_the_game_seed_and_who_plays_each_seat() -> None:
    """The researcher's audit: an episode logged from a vector of environments could not be
    played again (the game's seed was only ``env.aec.game_seed``), and ``best`` was named
    ``Best`` whatever rule bot it played. Each info now holds ``game_seed`` and ``players``."""
    env = dominion_versus(opponents=["best", "smithy"], seat=None)
    obs, info = env.reset()  # an unseeded game: its seed is drawn
    assert info["game_seed"] == env.aec.game_seed
    played = [p for p in info["players"] if p is not None]
    assert info["players"][info["seat"]] is None and len(played) == 2 and played[1] == "Smithy"
    assert played[0] == load_bot("best").for_game(env.game).name  # type: ignore[attr-defined]
    first, seed = [obs["observation"].copy()], info["game_seed"]
    rng = np.random.default_rng(1)
    picks = []
    done = False
    while not done:
        picks.append(int(rng.choice(np.flatnonzero(env.action_masks()))))
        obs, _, terminated, truncated, info = env.step(picks[-1])
        first.append(obs["observation"].copy())
        assert info["game_seed"] == seed
        done = terminated or truncated
    again = [env.reset(seed=seed)[0]["observation"].copy()]
    for index in picks:
        again.append(env.step(index)[0]["observation"].copy())
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    with pytest.raises(IllegalActionError):
        env.reset(seed=seed)
        env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))
    lost = dominion_versus(opponents=["smithy"], illegal="lose")
    lost.reset(seed=2)
    info = lost.step(int(np.flatnonzero(lost.action_masks() == 0)[0]))[4]
    assert "illegal" in info and info["game_seed"] == 2 and info["players"] == (None, "Smithy")


class _Hangs:
    """A bot that hangs at its third decision (or in reset, with ``in_reset``)."""

    name = "Hangs"

    def __init__(self, in_reset: bool = False) -> None:
        self.in_reset = in_reset
        self.decisions = 0

    def reset(self, seed: int) -> None:
        self.decisions = 0
        while self.in_reset:
            pass

    def act(self, state: Any) -> Any:
        self.decisions += 1
        while self.decisions == 3:
            pass
        return state.legal_actions()[0]


@pytest.mark.timeout(120, method="thread")  # (the clock's SIGALRM is its own)
def test_a_decision_timeout_stops_a_bot_that_hangs() -> None:
    """Where a bot decides, a limit can be given (the last note's list: not in the learning
    environments' opponents): ``decision_timeout=S`` stops a bot that hangs, in ``act`` or
    ``reset``, naming it; a policy is not held to it; without it nothing changes."""
    env = dominion_versus(opponents=[_Hangs()], kingdom="first-game", decision_timeout=0.2)
    env.reset(seed=1)
    with pytest.raises(BotError, match=r"bot 'Hangs' \(player_1\) was still deciding after "
                                       r"the decision timeout of 0\.2 s in the game with seed "
                                       r"1, and was stopped \(at .*test_envs_versus\.py line"):
        while True:
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    stuck = dominations_versus(opponents=[_Hangs(in_reset=True)], decision_timeout=0.2)
    with pytest.raises(BotError, match=r"bot 'Hangs' \(seat 2, player_1\) was still in "
                                       r"reset\(\d+\) after the decision timeout of 0\.2 s"):
        stuck.reset(seed=1)
    for bad in (0, "1", -2.0):
        with pytest.raises(ConfigError, match="decision timeout must be a number of seconds"):
            dominion_versus(opponents=["bm"], decision_timeout=bad)  # type: ignore[arg-type]
    plain, timed = (dominion_versus(opponents=["smithy"], decision_timeout=t) for t in (None, 30))
    assert _episode(plain, 4, "bm", 2)[3]["outcome"] == _episode(timed, 4, "bm", 2)[3]["outcome"]
