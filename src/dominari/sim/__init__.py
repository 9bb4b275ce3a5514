"""Simulation: many seeded bot-versus-bot games (Dominion or Dominations), in parallel,
with statistics; round-robin tournaments with ratings.

>>> from dominari.sim import wilson
>>> [round(x, 3) for x in wilson(50, 100)]
[0.404, 0.596]
"""

from dominari.sim.journal import GameResult, Journal, JournalError
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
from dominari.sim.tournament import (
    MatchupResult,
    Shard,
    Standing,
    TournamentResult,
    play_shard,
    seating,
    tournament,
    tournament_bot_seed,
    tournament_game_seed,
)

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GAMES",
    "HUMAN",
    "BotError",
    "Chunk",
    "DominationsOptions",
    "DominionOptions",
    "GameResult",
    "Journal",
    "JournalError",
    "MatchupResult",
    "PlayerResult",
    "Shard",
    "SimResult",
    "Standing",
    "Tally",
    "TournamentResult",
    "bot_seed",
    "game_options",
    "game_seed",
    "load_bots",
    "load_record",
    "play_game",
    "play_shard",
    "record_name",
    "run_chunk",
    "seating",
    "simulate",
    "tournament",
    "tournament_bot_seed",
    "tournament_game_seed",
    "wilson",
    "write_json_atomic",
]
