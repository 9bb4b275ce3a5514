"""Game-agnostic protocol: states, actions, views, outcomes, records, errors."""

from dominari.core.errors import (
    ConfigError,
    DominariError,
    IllegalActionError,
    ParseError,
    RecordError,
    StrategyError,
    UnknownBotError,
)
from dominari.core.game import TERMINAL, GameState, Outcome

__all__ = [
    "TERMINAL",
    "ConfigError",
    "DominariError",
    "GameState",
    "IllegalActionError",
    "Outcome",
    "ParseError",
    "RecordError",
    "StrategyError",
    "UnknownBotError",
]
