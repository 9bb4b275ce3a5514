"""Run many seeded bot-versus-bot games, in parallel processes, reproducibly.

Game ``i`` of a simulation with seed ``s`` is played with the game seed
:func:`game_seed` ``(s, i)`` and each seat's bot is reset with
:func:`bot_seed` ``(s, i, seat)``, so every game depends only on ``(s, i)``:
the results are the same whatever the number of worker processes.

Work is cut into chunks of consecutive games (:class:`Chunk`); a worker
process loads the bots once from their spec strings and plays a chunk into an
integer :class:`~dominari.sim.stats.Tally`. :func:`run_chunk` is a plain
top-level function of picklable values, so any pool (a process pool, Ray)
can run it.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from dominari.bots.base import Bot
from dominari.core.errors import ConfigError, DominariError, StrategyError
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import resolve as resolve_kingdom
from dominari.sim.records import prepare_dir, write_json_atomic
from dominari.sim.stats import SimResult, Tally

HUMAN = "human"
"""The seat spec of a person at the terminal (``dominari play`` only)."""

DEFAULT_MAX_TURNS = 100
"""Turns per player after which a simulated game is stopped (reported as ``turn-limit``)."""

MAX_CHUNK = 250


class BotError(DominariError):
    """A bot chose an action the engine rejects (a bug in the bot or its strategy)."""


def _derive(*parts: object) -> int:
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation seeded ``seed`` (63 bits)."""
    return _derive("dominari-game", seed, index)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed the bot in ``seat`` is reset with for game ``index``."""
    return _derive("dominari-bot", seed, index, seat)


def record_name(index: int) -> str:
    """The file name of game ``index``'s record (``game-000001.json`` for index 0)."""
    return f"game-{index + 1:06d}.json"


def load_bots(specs: Sequence[str]) -> list[Bot]:
    """One bot per seat from spec strings (built-in names or strategy file paths).

    Raises :class:`StrategyError` for an unknown name or a bad strategy file.
    """
    from dominari.bots import load_bot

    bots: list[Bot] = []
    for spec in specs:
        if spec.strip().lower() == HUMAN:
            raise StrategyError("'human' cannot play in a simulation; name a bot or strategy file")
        bots.append(load_bot(spec))
    return bots


def seat_names(names: Sequence[str]) -> tuple[str, ...]:
    """Distinct display names: repeated names get ``#1``, ``#2``… by seat."""
    out = []
    for p, n in enumerate(names):
        if names.count(n) > 1:
            out.append(f"{n}#{names[:p].count(n) + 1}")
        else:
            out.append(n)
    return tuple(out)


def parse_players(text: str) -> list[str]:
    """Seat specs from ``a,b[,c[,d]]``; raises :class:`ConfigError` for empty entries."""
    specs = [part.strip() for part in text.split(",")]
    if any(not s for s in specs):
        raise ConfigError(f"--players {text!r}: empty seat; give comma-separated bot names")
    if not 2 <= len(specs) <= 4:
        raise ConfigError(f"--players: Dominion is for 2 to 4 players, not {len(specs)}")
    return specs


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` to ``stop - 1`` of a simulation: everything a worker needs."""

    specs: tuple[str, ...]
    names: tuple[str, ...]
    kingdom: str | tuple[str, ...]
    max_turns: int | None
    seed: int
    start: int
    stop: int
    record_dir: str | None = None


_BOTS: dict[tuple[str, ...], list[Bot]] = {}


def _bots_for(specs: tuple[str, ...]) -> list[Bot]:
    bots = _BOTS.get(specs)
    if bots is None:
        bots = _BOTS[specs] = load_bots(specs)
    return bots


def play_game(bots: Sequence[Bot], config: DominionConfig) -> DominionState:
    """Play one game between ``bots`` (seat order) to its end; return the final state."""
    state = DominionState.new(config)
    current = state.current_player
    apply = state.apply
    p = current()
    while p >= 0:
        bot = bots[p]
        action = bot.act(state)
        try:
            apply(action)
        except DominariError as exc:
            raise BotError(
                f"bot {bot.name!r} (seat {p + 1}) chose {action!s} in the game with seed "
                f"{state.seed}: {exc}"
            ) from None
        p = current()
    return state


def run_chunk(chunk: Chunk) -> Tally:
    """Play the chunk's games and count their results (runs in a worker process)."""
    bots = _bots_for(chunk.specs)
    n = len(bots)
    tally = Tally(n)
    record_dir = Path(chunk.record_dir) if chunk.record_dir is not None else None
    for i in range(chunk.start, chunk.stop):
        config = DominionConfig(players=n, kingdom=chunk.kingdom, seed=game_seed(chunk.seed, i),
                                max_turns=chunk.max_turns, names=chunk.names)  # fmt: skip
        for seat, bot in enumerate(bots):
            bot.reset(bot_seed(chunk.seed, i, seat))
        state = play_game(bots, config)
        out = state.outcome()
        assert out is not None
        tally.add(out.scores, out.ranks, out.turns, out.reason)
        if record_dir is not None:
            write_json_atomic(record_dir / record_name(i), state.record())
    return tally


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about 8 chunks per worker, at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (workers * 8))))


def default_workers() -> int:
    return os.cpu_count() or 1


def simulate(
    players: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    *,
    kingdom: str | Sequence[str] = "random",
    max_turns: int | None = DEFAULT_MAX_TURNS,
    record_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int], None] | None = None,
    start_method: str | None = "spawn",
) -> SimResult:
    """Play ``games`` seeded games between the bots named by ``players`` (one per seat).

    ``workers`` processes share the games (1: all in this process); the result
    does not depend on it. ``kingdom`` is a recommended set name, ``random``
    (a different kingdom each game) or card names. ``max_turns`` stops a game
    after that many turns of every player. ``record_dir`` receives one record
    file per game. ``progress(k)`` is called in this process each time ``k``
    more games are done. Raises :class:`DominariError` subclasses for bad input,
    before any game is played or file written.
    """
    specs = tuple(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"the number of games must be at least 1, not {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"the number of workers must be at least 1, not {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be an integer, not {seed!r}")
    kingdom_spec: str | tuple[str, ...] = kingdom if isinstance(kingdom, str) else tuple(kingdom)
    resolve_kingdom(kingdom_spec, seed)  # an unknown set or card fails here, before any work
    bots = load_bots(specs)
    names = seat_names([b.name for b in bots])
    # Validates the player count, max_turns and names.
    DominionConfig(players=len(specs), kingdom=kingdom_spec, seed=0, max_turns=max_turns,
                   names=names)  # fmt: skip
    rdir = str(prepare_dir(record_dir)) if record_dir is not None else None

    size = chunk_size(games, workers)
    chunks = [
        Chunk(specs, names, kingdom_spec, max_turns, seed, start, min(games, start + size), rdir)
        for start in range(0, games, size)
    ]
    workers = min(workers, len(chunks))
    tallies: list[Tally | None] = [None] * len(chunks)
    if workers == 1:
        _BOTS[specs] = bots
        for k, chunk in enumerate(chunks):
            tallies[k] = run_chunk(chunk)
            if progress is not None:
                progress(chunk.stop - chunk.start)
    else:
        _run_pool(chunks, tallies, workers, progress, start_method)

    total = Tally(len(specs))
    for t in tallies:  # in game order
        assert t is not None
        total.merge(t)
    return SimResult.from_tally(total, names=names, specs=specs, seed=seed, kingdom=kingdom_spec,
                                max_turns=max_turns)  # fmt: skip


def _run_pool(chunks: list[Chunk], tallies: list[Tally | None], workers: int,
              progress: Callable[[int], None] | None, start_method: str | None) -> None:
    ctx = multiprocessing.get_context(start_method)
    window = workers * 4  # bounded number of chunks in flight
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending: dict[Future[Tally], int] = {}
        next_chunk = 0
        try:
            while next_chunk < len(chunks) or pending:
                while next_chunk < len(chunks) and len(pending) < window:
                    pending[pool.submit(run_chunk, chunks[next_chunk])] = next_chunk
                    next_chunk += 1
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    k = pending.pop(fut)
                    tallies[k] = fut.result()
                    if progress is not None:
                        progress(chunks[k].stop - chunks[k].start)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
