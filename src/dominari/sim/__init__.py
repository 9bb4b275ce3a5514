"""Simulation: many seeded bot-versus-bot games (Dominion or Dominations), in parallel,
with statistics.

>>> from dominari.sim import wilson
>>> [round(x, 3) for x in wilson(50, 100)]
[0.404, 0.596]
"""

from dominari.sim.records import load_record, write_json_atomic
from dominari.sim.runner import (
    DEFAULT_MAX_TURNS,
    GAMES,
    HUMAN,
    BotError,
    Chunk,
    DominationsOptions,
    DominionOptions,
    bot_seed,
    game_options,
    game_seed,
    load_bots,
    play_game,
    record_name,
    run_chunk,
    simulate,
)
from dominari.sim.stats import PlayerResult, SimResult, Tally, wilson

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GAMES",
    "HUMAN",
    "BotError",
    "Chunk",
    "DominationsOptions",
    "DominionOptions",
    "PlayerResult",
    "SimResult",
    "Tally",
    "bot_seed",
    "game_options",
    "game_seed",
    "load_bots",
    "load_record",
    "play_game",
    "record_name",
    "run_chunk",
    "simulate",
    "wilson",
    "write_json_atomic",
]
