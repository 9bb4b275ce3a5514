"""Learning environments: a PettingZoo AEC environment for each game (optional ``envs`` extra).

:class:`~dominari.envs.dominion.DominionEnv` and
:class:`~dominari.envs.dominations.DominationsEnv` (or the factories :func:`dominion_env` and
:func:`dominations_env`) wrap the engines in PettingZoo's agent-environment-cycle API: agents
``player_0`` … ``player_{n-1}`` (seat numbers of the engine), one ``Discrete`` action space of
fixed size per configuration with an ``int8`` action mask, and a fixed-length ``float32``
observation vector of what the agent may see. The raw view of the engine
(:meth:`~dominari.core.game.GameState.view`) is in ``env.infos[agent]["view"]`` for the agent
to act (for every agent once the game is over) and ``env.view(agent)`` for anyone at any time.
:mod:`dominari.envs.base` describes the shared behaviour (seeding, rewards, illegal indices);
each game's module documents its action index layout and observation layout.

:class:`~dominari.envs.versus.VersusEnv` (:func:`dominion_versus`,
:func:`dominations_versus`) is one seat of either game against Dominari's bots as a
single-agent ``gymnasium.Env``: the bots play the other seats inside ``reset()`` and
``step()`` (:mod:`dominari.envs.versus`).

This package needs NumPy, Gymnasium and PettingZoo (``pip install 'dominari[envs]'``); the
engines, bots and simulation never import them.

>>> env = dominion_env(num_players=2, kingdom="first-game")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].dtype, obs["observation"].dtype, int(obs["action_mask"].sum()) >= 1
(dtype('int8'), dtype('float32'), True)
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "dominari.envs needs the envs extra: pip install 'dominari[envs]' "
        f"({exc.name or 'a dependency'} is missing)"
    ) from exc

from dominari.envs.dominations import DominationsEnv, dominations_env
from dominari.envs.dominion import DominionEnv, dominion_env
from dominari.envs.versus import PolicyOpponent, VersusEnv, dominations_versus, dominion_versus

__all__ = ["DominationsEnv", "DominionEnv", "PolicyOpponent", "VersusEnv", "dominations_env",
           "dominations_versus", "dominion_env", "dominion_versus"]
