"""The game service: games in the store, live tables, seats, bots and subscribers.

Everything that changes a game runs on the event loop, one submission at a time:
check the submission against a copy of the state, append the log entry to the store
(committed), install the new state, then push each subscriber the view of its seat.
Bots think in worker processes and submit through the same path; a free worker goes to
a decision of a game with a person in it before any of a game of bots only
(:class:`WorkerGate`), and a server plays at most :attr:`Settings.max_bot_games` games of
bots only at once. The store is written and read on the loop, so a database locked by
another process is waited for only briefly (:data:`STORE_WAIT`; a bot's move, stored again
later, hardly at all: :data:`BOT_STORE_WAIT`), except while the server starts.

Seat tokens are ``secrets.token_urlsafe(32)``, or, in a finished game's next one
(:meth:`GameService.again`), an HMAC keyed by the player's token of the finished game
(:func:`again_token`); the store keeps their SHA-256 only, the service compares digests
with :func:`hmac.compare_digest`, and nothing logs them.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import hashlib
import hmac
import logging
import pickle
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import orjson

from dominari.bots.mcts import SEARCH_BOTS
from dominari.core.checks import names as check_names
from dominari.core.errors import ConfigError, DominariError
from dominari.server.bots import (
    check_bot,
    choose,
    make_executor,
    missing_note,
    pool_size,
    search_settings,
    server_bot_blurbs,
    server_bot_names,
    stop_executor,
)
from dominari.server.store import (
    ConflictError,
    SeatGame,
    SeatRow,
    Store,
    StoredGame,
    StoreError,
)
from dominari.server.tables import (
    ActionError,
    LogCursor,
    Table,
    new_state,
    nth,
    replay,
    seat_facts,
)
from dominari.sim.runner import derive_seed

log = logging.getLogger("dominari.server")

BOT_RETRY = 1.0
"""Seconds before a bot whose worker was lost (killed, stuck) is asked again, or a bot's
move that could not be stored is stored again (the bot does not decide again); each
further failure on the same decision doubles the wait, up
to :data:`BOT_RETRY_MAX`. A lost worker never has a move played for its bot: the decision
waits, shown as the bot thinking, until a worker answers."""
BOT_RETRY_MAX = 30.0
"""The longest wait between two tries of one bot decision, in seconds."""
BOT_LIMIT = 10.0
BOT_LIMIT_PER_SECOND = 5.0
"""A decision that runs longer than ``BOT_LIMIT + BOT_LIMIT_PER_SECOND * bot_seconds``
once a worker has taken it has a stuck worker: the workers are started afresh and the
bot is asked again. The wait for a free worker is not counted: a busy server makes bots
wait their turn, never answer for them."""
STORE_WAIT = 1.0
"""Seconds a person's action or undo, or a new game, waits for an SQLite database that
another process has locked (a backup, another writer) before it is refused, with nothing
changed, as the store being unavailable; so does a request that reads the store (a game
not in memory, a spectator id, a player's games) for a lock that blocks readers too (a
rebuild of the WAL index). The store is used on the event loop: every game waits
meanwhile. Loading the active games when the server starts waits the store's usual
time."""
BOT_STORE_WAIT = 0.05
"""The same for a bot's action: a bot's move that could not be stored is stored again
after :data:`BOT_RETRY` (and twice as long each time, the bot not deciding again), so it
need not wait, and a lock held for minutes never holds up the other games for more than
this per try."""
SEATS_REREAD = 1.0
"""Seconds before the store's seats of a game are read again for a token found in none
of them while some are unclaimed (a next game's, claimed through another process)."""
KEEP_FINISHED = 200
"""Finished games kept in memory (older ones are reloaded from the store on demand); one
that is watched when its turn comes stays until its last watcher leaves."""
LOADERS = 2
"""Threads that rebuild a game not in memory from its log (some 100 ms for a long game),
and that replay finished games and make their records, so that the event loop serves
every other request meanwhile (:meth:`GameService.game`)."""
QUEUE_LIMIT = 256
"""Messages waiting for one socket; a client that falls further behind is disconnected."""


R = TypeVar("R")


MAX_BOT_PAUSE = 10.0
"""The longest pause a game's bots may take before each move (:attr:`GameSpec.bot_pause`)."""

_pause = asyncio.sleep
"""How a bot pauses before it decides (a test's to watch)."""


class WorkerGate:
    """The bot workers' free slots, handed out by priority: a decision waits for a slot
    behind every waiting decision of a lower ``level`` (0 first); within a level, the
    ``owner`` whose turn it is goes next, its decisions first come, first served, and the
    owners take turns (round robin). A slot set free goes straight to the waiter whose
    turn it is, so none is taken over by a decision that arrives meanwhile.

    The server's levels (:meth:`GameService.bot_level`): 0 for games with a human seat,
    1 for games of bots only, so that a person's opponent waits at most for the decisions
    that workers are already running, however many bot-only games are queued. Its owners
    are the clients that made the games (:attr:`Table.owner`), so that one client's many
    games of search bots delay another's by about one decision each, not by all of them:
    with one worker busy, decisions ``a1 a2 a3 b1`` queued in that order are served ``a1
    b1 a2 a3``.
    """

    def __init__(self, slots: int, levels: int = 2) -> None:
        self._free = slots
        self._waiting: tuple[dict[Any, collections.deque[asyncio.Future[None]]], ...] = tuple(
            {} for _ in range(levels))  # by owner, in the order of their turns

    @property
    def free(self) -> int:
        """Slots free now."""
        return self._free

    def waiting(self, level: int) -> int:
        """Decisions of ``level`` waiting for a slot."""
        return sum(not f.done() for queue in self._waiting[level].values() for f in queue)

    async def acquire(self, level: int, owner: Any = None) -> None:
        if self._free > 0:
            self._free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        owners = self._waiting[level]
        owners.setdefault(owner, collections.deque()).append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # handed a slot as it was cancelled
                self.release()
            else:
                queue = owners.get(owner)
                if queue is not None:
                    with contextlib.suppress(ValueError):
                        queue.remove(fut)
                    if not queue:
                        del owners[owner]
            raise

    def release(self) -> None:
        for owners in self._waiting:
            while owners:
                owner = next(iter(owners))
                queue = owners.pop(owner)
                fut = queue.popleft()
                if queue:
                    owners[owner] = queue  # its next decision waits for its next turn
                if not fut.done():
                    fut.set_result(None)  # the slot passes to it
                    return
        self._free += 1

    @contextlib.asynccontextmanager
    async def slot(self, level: int, owner: Any = None) -> AsyncIterator[None]:
        await self.acquire(level, owner)
        try:
            yield
        finally:
            self.release()


SEED_REFUSED = ("a game with two or more human seats cannot have a chosen seed: a chosen "
                "deal would let whoever chose it know the other players' hidden cards")
"""Why a game of several people is refused a ``seed`` (a game against bots keeps it)."""

WITH_A_PERSON, BOTS_ONLY = 0, 1
"""The priorities of bot decisions for a worker (:class:`WorkerGate`): a game with a
human seat, whose player waits for the bot, first; a game of bots only after."""


MEMORY_TRIES = 3
"""A bot decision that has failed this many times in a row, the last by its worker
running out of memory, has its first legal action played (and the log says why): the
machine may be short of memory for a moment, but a search that needs more than a worker
has would wait forever."""


class NoWorker(Exception):
    """No worker could be started or reached to take a bot's decision (the pool's
    ``submit`` failed: out of processes, out of memory): a fresh pool is started."""


def machine_failure(exc: BaseException) -> bool:
    """Whether a bot's decision that ended with ``exc`` was cut short by the machine, not
    by the bot: its worker died or hung (:class:`BrokenExecutor`, :class:`TimeoutError`),
    ran out of memory (:class:`MemoryError`, see :data:`MEMORY_TRIES`), or none could be
    had (:class:`NoWorker`), or the process is stopping (not an :class:`Exception`). Such
    a decision is asked again, never played for the bot; any other error, an
    :class:`OSError` of the bot's own (a file it cannot read) included, is the bot's.

    >>> machine_failure(MemoryError()), machine_failure(NoWorker(OSError(11, "no process")))
    (True, True)
    >>> machine_failure(DominariError("no legal answer")), machine_failure(PermissionError())
    (False, False)
    """
    return isinstance(exc, (BrokenExecutor, TimeoutError, MemoryError, NoWorker)) or (
        not isinstance(exc, Exception))


def bots_only(kinds: Iterable[str]) -> bool:
    """Whether seats of these kinds (``human`` or ``bot``) make a game of bots only."""
    return all(kind == "bot" for kind in kinds)


def deal_seed() -> int:
    """The seed of a game created without one: nobody can know it."""
    return secrets.randbits(63)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def again_token(token: str, game_id: str, seat: int) -> str:
    """The token of ``seat`` in the next game ``game_id`` of the player whose token of the
    finished game is ``token``: made from it (an HMAC keyed by it), so only its holder
    can have it, and the server keeps neither.

    >>> again_token("abc", "G1", 0) == again_token("abc", "G1", 0) != again_token("abd", "G1", 0)
    True
    >>> len(again_token("abc", "G1", 0)) == len(secrets.token_urlsafe(32))
    True
    """
    mac = hmac.new(token.encode("utf-8", "surrogatepass"),
                   f"dominari again {game_id} {seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def _seat_of_digest(seats: Iterable[SeatRow], digest: str) -> int:
    """The seat whose token's hash is ``digest`` (-1: none), compared in constant time."""
    seat = -1
    for x in seats:
        if x.token_hash is not None and hmac.compare_digest(digest, x.token_hash):
            seat = x.seat
    return seat


@dataclass
class Settings:
    """How a server runs."""

    db_url: str
    data_sets: dict[str, str] = field(default_factory=dict)
    """Dominations component data a game may name (``--data NAME=DIR``)."""
    bot_seconds: float = 1.0
    """A search bot's time budget per decision."""
    bot_workers: int = 1
    bot_executor: str = "process"
    max_subscribers: int = 64
    """Spectators' sockets per game (the spectator link is shared freely, so they have an
    allowance of their own: they can never keep a player from a seat)."""
    max_seat_sockets: int = 8
    """Sockets per seat of a game (a player's tabs and devices)."""
    max_bot_games: int = 50
    """Unfinished games of bots only (no human seat) a server plays at once: creating
    another is refused (``too_many``, 429) until one ends; 0: no limit. Their bots wait
    behind those of games with a person in them (:class:`WorkerGate`) all the same."""
    create_rate: float = 5.0
    create_burst: float = 200.0
    """Games one client address may create: per second, and at once."""
    action_rate: float = 20.0
    action_burst: float = 60.0
    """HTTP submissions per seat: per second, and at once."""
    socket_rate: float = 20.0
    socket_burst: float = 60.0
    """Messages per WebSocket: per second, and at once."""
    max_sockets: int = 2000
    max_client_sockets: int = 200
    """WebSockets open at once, joined or not: in all, and from one client address (a
    classroom behind one router shares one); more are refused (``too_many``, closed with
    1013, try later), so that sockets cannot use up the server's memory or files."""
    replay_rate: float = 20.0
    replay_burst: float = 120.0
    """Replay steps one client address may ask for: per second, and at once (a key held
    down steps some 30 times a second; each step plays up to 15 moves from a position
    kept, in a loader thread, and a game's first plays it whole)."""


@dataclass(frozen=True)
class SeatSpec:
    kind: str = "human"
    bot: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class GameSpec:
    """What a client asks for when it creates a game."""

    game: str = "dominations"
    seats: tuple[SeatSpec, ...] = (SeatSpec(), SeatSpec(kind="bot", bot="greedy"))
    seed: int | None = None
    variant: str | None = None
    rules: Mapping[str, str] | None = None
    data: str | None = None
    kingdom: str | tuple[str, ...] | None = None
    max_turns: int | None = None
    bot_pause: float | None = None
    """Seconds each bot waits before it decides, so that a game of bots can be followed
    as it is played (None or 0: at once)."""


def _created(t: Table, tokens: Mapping[int, str]) -> dict[str, Any]:
    """The answer that gives the game ``t`` to whom asked for it: its ids, version and
    seats, the human seats' ``tokens`` given (by seat), and ``notes``."""
    seat_list = t.seat_list()
    return {
        "game_id": t.id,
        "game": t.game,
        "spectator": t.spectator,
        "version": t.version,
        "seats": [{**x, "token": tokens.get(x["seat"])} for x in seat_list],
        # a rule bot whose cards the kingdom lacks is seated all the same (a random
        # kingdom often lacks them), and said so
        "notes": [note for x in seat_list if (note := missing_note(x)) is not None],
    }


def _again_spec(t: Table) -> GameSpec:
    """What makes a game like the finished ``t`` (:meth:`GameService.again`)."""
    seats = tuple(SeatSpec(x.kind, x.bot, x.name) for x in t.seats)
    c = t.config
    if t.game == "dominion":
        kingdom = c.get("kingdom")
        return GameSpec(game="dominion", seats=seats, max_turns=c.get("max_turns"),
                        kingdom=tuple(kingdom) if isinstance(kingdom, list) else kingdom,
                        bot_pause=c.get("bot_pause"))
    return GameSpec(game="dominations", seats=seats, rules=c.get("rules") or {},
                    data=c.get("data_set"), bot_pause=c.get("bot_pause"))


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text sent over a socket."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Subscriber:
    """A socket's seat (None: spectator), what it holds of the log, and the queue of
    messages (JSON text) waiting for it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.log = LogCursor()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)

    def view(self, t: Table) -> dict[str, Any]:
        """The view message of ``t`` for this socket, with the log lines it lacks."""
        return t.message(self.seat, self.log)

    def push(self, message: dict[str, Any] | str | None) -> None:
        """Queue a message (a dict, or its JSON text), or None: close the socket."""
        if isinstance(message, dict):
            message = encode(message)
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            # Make room for the end marker: the writer closes the socket.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class GameService:
    """Games of one server process (see the module docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.tables: dict[str, Table] = {}
        self._executor: Any = None
        self._slots: WorkerGate | None = None  # free workers
        self._tasks: set[asyncio.Task[None]] = set()
        self._finished: dict[str, None] = {}  # finished games in memory, oldest first
        self._loader: ThreadPoolExecutor | None = None  # see LOADERS
        self._loading: dict[str, asyncio.Future[Table]] = {}  # games being loaded
        self._closing = False

    # -- life cycle --------------------------------------------------------------------

    def open(self) -> None:
        """Open the store and the bot workers, and load every active game."""
        self.store = Store(self.settings.db_url)
        self._executor = make_executor(self.settings.bot_executor, self.settings.bot_workers)
        self._slots = WorkerGate(pool_size(self.settings.bot_executor,  # a slot a worker
                                           self.settings.bot_workers), levels=BOTS_ONLY + 1)
        self._loader = ThreadPoolExecutor(max_workers=LOADERS,
                                          thread_name_prefix="dominari-load")
        loaded = 0
        for gid in self.store.active_games():  # no game is played yet: the usual wait
            try:
                self._load(gid, None)
                loaded += 1
            except DominariError as exc:  # a game that no longer replays stays stored
                log.error("%s", exc)  # (it names the game: "game … cannot be loaded: …")
        if loaded:
            log.info("%d unfinished game%s loaded from the store", loaded,
                     "" if loaded == 1 else "s")

    def start_bots(self) -> None:
        """Let every loaded game's bot whose turn it is think (after a restart)."""
        for t in list(self.tables.values()):
            self._schedule_bot(t)

    async def close(self) -> None:
        self._closing = True  # no bot starts another decision, and none is played now
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task  # shutting down
        if self._executor is not None:
            stop_executor(self._executor)
            self._executor = None
        if self._loader is not None:
            self._loader.shutdown(wait=False, cancel_futures=True)
            self._loader = None
        for pending in list(self._loading.values()):  # their waiters are told, not left
            pending.cancel()
        if self.store is not None:
            self.store.close()
            self.store = None

    @property
    def db(self) -> Store:
        if self.store is None:
            raise StoreError("the server is not running")
        return self.store

    # -- games -------------------------------------------------------------------------

    def create(self, spec: GameSpec, again_of: str | None = None, owner: str | None = None
               ) -> dict[str, Any]:
        """Create a game; the answer carries each human seat's token (shown only here),
        and ``notes``: a sentence for each Dominion rule bot seated whose Kingdom cards the
        game's kingdom lacks (its seat's ``missing_cards``; it plays without them).

        With ``again_of``, the game is that finished game's next one (see :meth:`again`):
        its human seats are made without tokens, each to be claimed by its player.
        ``owner`` is the client that asks (:attr:`Table.owner`)."""
        game = spec.game
        if game not in ("dominion", "dominations"):
            raise ConfigError(f"unknown game {game!r}: dominion or dominations")
        n = len(spec.seats)
        if not 2 <= n <= 4:
            raise ConfigError(f"a game has 2 to 4 seats, not {n}")
        names: list[tuple[str, str | None, str]] = []  # kind, bot, name per seat
        for i, s in enumerate(spec.seats):
            if s.kind == "human":
                if s.bot is not None:
                    raise ConfigError(f"the {nth(i)} seat is human, so it has no bot")
                names.append(("human", None, _name(s.name, f"Player {i + 1}")))
            elif s.kind == "bot":
                if not s.bot:
                    raise ConfigError(f"the {nth(i)} seat is a bot: say which (its 'bot' field)")
                key = check_bot(game, s.bot)
                names.append(("bot", key, _name(s.name, f"{key} ({i + 1})")))
            else:
                raise ConfigError(f"the {nth(i)} seat: kind must be 'human' or 'bot', not "
                                  f"{s.kind!r}")
        seen: dict[str, int] = {}
        for i, (_, _, name) in enumerate(names):
            first = seen.setdefault(" ".join(_as_shown(name).split()), i)
            if first != i:  # the log and the tables name players by these names
                raise ConfigError(f"the {nth(first)} and {nth(i)} seats are both named {name!r}: "
                                  f"give each seat a name of its own")
        people = sum(kind == "human" for kind, _, _ in names)
        if spec.seed is not None and people >= 2:
            raise ConfigError(SEED_REFUSED)
        if bots_only(kind for kind, _, _ in names):
            self._check_bot_games()
        seed = spec.seed if spec.seed is not None else deal_seed()
        config = self._config(spec, n, seed, tuple(x[2] for x in names))
        state = new_state(game, config, self.settings.data_sets)
        data_set = config.get("data_set")
        config = state.record()["config"]  # with the data's digest: a changed set is refused
        if data_set is not None:
            config["data_set"] = data_set
        if spec.bot_pause:  # (the server's, as the search bots' settings)
            if not 0 < spec.bot_pause <= MAX_BOT_PAUSE:
                raise ConfigError(f"bot_pause is 0 to {MAX_BOT_PAUSE:g} seconds, not "
                                  f"{spec.bot_pause!r}")
            config["bot_pause"] = float(spec.bot_pause)
        if any(kind == "bot" and bot in SEARCH_BOTS for kind, bot, _ in names):
            # the game keeps its search bots' time per decision, whatever the server is
            # started with later: they play as they were chosen, and the record says so
            config["bot_seconds"] = self.settings.bot_seconds
            config["bot_settings"] = {  # and every setting of their levels now
                bot: search_settings(game, bot, self.settings.bot_seconds)
                for kind, bot, _ in names if kind == "bot" and bot in SEARCH_BOTS}
        tokens = {} if again_of is not None else {
            i: secrets.token_urlsafe(32) for i, x in enumerate(names) if x[0] == "human"}
        seats = tuple(SeatRow(i, kind, bot, name, token_hash(tokens[i]) if i in tokens else None)
                      for i, (kind, bot, name) in enumerate(names))
        spectator = secrets.token_urlsafe(16)
        gid = self.db.create_game(game, config, spectator, seats, wait=STORE_WAIT,
                                  again_of=again_of)
        t = Table(id=gid, game=game, config=config, spectator=spectator, seats=seats,
                  state=state, owner=owner)
        self.tables[gid] = t
        self._schedule_bot(t)
        return _created(t, tokens)

    async def again(self, t: Table, seat: int, token: str) -> tuple[dict[str, Any], bool]:
        """The next game of the finished ``t`` for the player of ``seat`` (whose ``token``
        it is): the same seats, names and options (Dominion's kingdom as asked for, so
        "random" draws anew; Dominations' rules and data set), dealt anew. The first player
        to ask makes it, and every player of ``t`` is then offered it (the views'
        ``again``); each who asks gets their own seat of it, by a token made from their
        token of ``t`` (:func:`again_token`), so asking twice gives the same seat. The
        answer is :meth:`create`'s, with this player's token only, and whether this call
        made the game."""
        if not t.finished:
            raise ActionError("in_progress", "this game is not over: it can be played "
                                             "again once it ends")
        made = False
        if t.again is None:
            t.again = self.db.again_of(t.id, wait=STORE_WAIT)  # made by another process?
            if t.again is None:
                try:
                    self.create(_again_spec(t), again_of=t.id, owner=t.owner)
                    made = True
                except ConflictError:  # another process made it first: that one it is
                    pass
                t.again = self.db.again_of(t.id, wait=STORE_WAIT)
                if t.again is None:
                    raise StoreError(f"game {t.id}: its next game was not stored; try again")
            self.broadcast(t)  # every player of t watching here is offered it
        nxt = await self.game(t.again[0])
        mine = again_token(token, nxt.id, seat)
        digest = token_hash(mine)
        held = nxt.seats[seat].token_hash
        if held is None or not hmac.compare_digest(held, digest):
            if not self.db.claim_seat(nxt.id, seat, digest, wait=STORE_WAIT):
                raise ActionError("bad_token", "this token holds no seat in the next game")
            nxt.seats = tuple(replace(x, token_hash=digest) if x.seat == seat else x
                              for x in nxt.seats)
        return _created(nxt, {seat: mine}), made

    def _check_bot_games(self) -> None:
        """Refuse a game of bots only when :attr:`Settings.max_bot_games` are playing."""
        cap = self.settings.max_bot_games
        if cap <= 0:
            return
        playing = sum(1 for t in self.tables.values()
                      if not t.finished and bots_only(x.kind for x in t.seats))
        if playing >= cap:
            games = "game" if playing == 1 else "games"
            raise ActionError("too_many", f"this server already plays {playing} {games} of "
                                          f"bots only (at most {cap} at once): wait for one "
                                          f"to end, or give a seat to a person")

    def _config(self, spec: GameSpec, n: int, seed: int, names: tuple[str, ...]
                ) -> dict[str, Any]:
        if spec.game == "dominion":
            if spec.variant is not None or spec.rules or spec.data is not None:
                raise ConfigError("variant, rules and data are Dominations options; Dominion "
                                  "takes a kingdom and a turn limit")
            kingdom: Any = spec.kingdom if spec.kingdom is not None else "first-game"
            if isinstance(kingdom, tuple):
                kingdom = list(kingdom)
            return {"players": n, "seed": seed, "kingdom": kingdom,
                    "max_turns": spec.max_turns, "names": list(names)}
        if spec.kingdom is not None or spec.max_turns is not None:
            raise ConfigError("kingdom and max_turns are Dominion options")
        from dominari.dominations.rules import Rules

        rules = Rules().with_options(dict(spec.rules or {}))
        named = (spec.rules or {}).get("variant")
        if spec.variant is not None and named is not None and named != spec.variant:
            raise ConfigError(f"variant {spec.variant!r} conflicts with rules.variant "
                              f"{named!r}: give one of them")  # fmt: skip
        if spec.variant is not None:
            rules = rules.with_options({"variant": spec.variant})
        folder = None
        if spec.data is not None and spec.data != "builtin":
            folder = self.settings.data_sets.get(spec.data)
            if folder is None:
                known = ", ".join(["builtin", *sorted(self.settings.data_sets)])
                raise ConfigError(f"unknown data set {spec.data!r}: this server has {known}")
        config = {"players": n, "seed": seed, "names": list(names), "rules": rules.to_json(),
                  "data": folder}
        if folder is not None:  # the set by name: a restart finds it by name, not by path
            config["data_set"] = spec.data
        return config

    def table(self, game_id: str) -> Table:
        """The table of ``game_id``, loaded now if it is not in memory (which blocks the
        event loop while its log is replayed: requests use :meth:`game`)."""
        t = self.tables.get(game_id)
        if t is None:
            t = self._load(game_id)
            with contextlib.suppress(RuntimeError):  # no loop yet: start_bots starts them
                asyncio.get_running_loop()
                self._schedule_bot(t)
        return t

    async def game(self, game_id: str) -> Table:
        """The table of ``game_id``: in memory, or read from the store and rebuilt from its
        log in a loader thread (:data:`LOADERS`) while the event loop serves everything
        else. Requests for a game that is being loaded wait for that load: a game is
        loaded once. A game loaded while it is its bot's turn has its bot think."""
        t = self.tables.get(game_id)
        if t is not None:
            return t
        pending = self._loading.get(game_id)
        if pending is None:
            pending = self._loading[game_id] = asyncio.ensure_future(self._load_apart(game_id))

            def done(f: asyncio.Future[Table]) -> None:
                if self._loading.get(game_id) is f:
                    del self._loading[game_id]
                if not f.cancelled():
                    f.exception()  # seen: every waiter gets it (and a load nobody awaits)

            pending.add_done_callback(done)
        # a waiter that gives up (its client gone) leaves the load to the others
        return await asyncio.shield(pending)

    async def _load_apart(self, game_id: str) -> Table:
        stored = self._stored(game_id)  # on the loop, as every use of the store
        t = await self.off_loop(self._rebuild, stored, True)
        if game_id in self.tables:  # loaded meanwhile by a direct table() call
            return self.tables[game_id]
        self._install(t)
        self._schedule_bot(t)  # a game that failed to load when the server started
        return t

    async def off_loop(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in a loader thread (:data:`LOADERS`): work on a finished or
        unpublished game that would hold up every other game on the event loop."""
        if self._loader is None:  # closed (or not started): no thread takes work now
            raise StoreError("the server is not running")
        return await asyncio.get_running_loop().run_in_executor(self._loader, fn, *args)

    def _stored(self, game_id: str, wait: float | None = STORE_WAIT) -> StoredGame:
        """The stored game ``game_id``, waiting ``wait`` seconds for a locked database
        (``None``: the store's usual wait)."""
        if not _plausible_id(game_id):
            raise ActionError("no_game", f"no game {game_id!r}")
        stored = self.db.load(game_id, wait=wait)
        if stored is None:
            raise ActionError("no_game", f"no game {game_id!r}")
        return stored

    def _rebuild(self, stored: StoredGame, warm: bool = False) -> Table:
        """The table of ``stored`` (with ``warm``, its log in words made too, which every
        view and the game's log need); touches nothing of the service, so it runs in any
        thread."""
        try:
            t = Table.load(stored, self.settings.data_sets)
        except DominariError as exc:
            raise ActionError("unloadable", f"game {stored.id} cannot be loaded: "
                                            f"{exc}") from None
        if warm:
            t.log_lines()
        return t

    def _install(self, t: Table) -> Table:
        """Keep the loaded ``t`` in memory (a finished game among the last ones)."""
        self.tables[t.id] = t
        if t.finished:
            self._finished[t.id] = None
            self._evict()
        return t

    def _load(self, game_id: str, wait: float | None = STORE_WAIT) -> Table:
        """Load ``game_id`` from the store now, waiting ``wait`` seconds for a locked
        database (``None``: the store's usual wait)."""
        return self._install(self._rebuild(self._stored(game_id, wait)))

    def seat_of(self, t: Table, token: str | None) -> int:
        """The seat ``token`` holds in ``t``; raises ``ActionError`` (no detail about
        which part was wrong, and the token is never echoed)."""
        if not token:
            raise ActionError("no_token", "this needs a seat token")
        digest = token_hash(token)
        seat = _seat_of_digest(t.seats, digest)
        if seat < 0 and any(x.kind == "human" and x.token_hash is None for x in t.seats):
            # a next game's seat not yet claimed here: claimed through another process?
            # (a token just found in none is not looked for again for SEATS_REREAD: a
            # client that keeps trying a wrong one costs no read each time)
            now = time.monotonic()
            failed = t.seats_failed
            if now >= failed.get(digest, float("-inf")) + SEATS_REREAD:
                stored = self.db.load_seats(t.id, wait=STORE_WAIT)
                seat = _seat_of_digest(stored, digest)
                if seat >= 0:
                    t.seats = stored
                else:
                    if len(failed) >= 64:
                        failed.clear()
                    failed[digest] = now
        if seat < 0:
            raise ActionError("bad_token", "this token holds no seat in this game")
        return seat

    async def spectated(self, spectator: str) -> Table:
        """The table that ``spectator`` watches (see :meth:`game`)."""
        if not _plausible_id(spectator, 64):
            raise ActionError("no_game", "no game for this spectator id")
        for t in self.tables.values():
            if hmac.compare_digest(t.spectator, spectator):
                return t
        gid = self.db.game_of_spectator(spectator, wait=STORE_WAIT)
        if gid is None:
            raise ActionError("no_game", "no game for this spectator id")
        return await self.game(gid)

    async def games_of(self, tokens: Sequence[str]) -> list[dict[str, Any]]:
        """The games the holder of ``tokens`` takes part in (unknown tokens are skipped).
        A finished game not in memory is answered from its rows in the store, never
        rebuilt: it is nobody's turn."""
        out = []
        for row in self.db.games_of_tokens((token_hash(t) for t in tokens if t),
                                           wait=STORE_WAIT):
            t = self.tables.get(row.id)
            if t is None and row.status != "finished":  # it failed to load at the start
                with contextlib.suppress(ActionError):  # still: its rows all the same
                    t = await self.game(row.id)
            if t is None:
                out.append(self._stored_entry(row))
                continue
            seat = row.seat
            out.append(_my_game(t.id, t.game, seat, t.seats[seat].name,
                                "finished" if t.finished else "active", t.version,
                                t.current_seat() == seat, t.spectator, t.seat_list()))
        return out

    def _stored_entry(self, row: SeatGame) -> dict[str, Any]:
        """:meth:`games_of`'s entry of a game that is not in memory: finished, or one that
        cannot be loaded (nobody's turn can be said)."""
        data = self.settings.data_sets

        def start() -> Any:  # the game's first state: its kingdom, for missing_cards
            return new_state(row.game, row.config, data)

        try:
            seats = seat_facts(row.game, row.seats, start)
        except DominariError:  # a game that no longer loads: its seats all the same
            seats = seat_facts(row.game, row.seats, None)
        return _my_game(row.id, row.game, row.seat, row.seats[row.seat].name, row.status,
                        row.version, False, row.spectator, seats)

    async def replay(self, spectator: str, step: int, seat: int | None) -> dict[str, Any]:
        """A finished game at ``step`` seen by ``seat`` (see :func:`tables.replay`), made
        in a loader thread (it plays the game again from its start)."""
        t = await self.spectated(spectator)
        if not t.finished:  # (a game in play changes on the loop: never read elsewhere)
            return replay(t, step, seat, self.settings.data_sets)
        return await self.off_loop(replay, t, step, seat, self.settings.data_sets)

    def catalog(self, t: Table) -> dict[str, Any]:
        """The components of ``t``'s game: Dominion's cards, or the Dominations data set
        the game uses (its files as they are, so a client sees any corrected data)."""
        if t.game == "dominion":
            from dominari.dominion.catalog import catalog

            return catalog()
        return dominations_catalog(t.config.get("data"))

    def options(self) -> dict[str, Any]:
        """What a client may choose when it creates a game."""
        from dominari.bots.kingdom import KINGDOM_ORDERS, kingdom_cards
        from dominari.dominion.catalog import catalog

        dominion = catalog()
        # the rule bots from the strongest down, by number of players, with the Kingdom
        # cards each needs (the first whose cards a kingdom holds is its best: the lobby
        # ranks a seat's rule bot for the kingdom chosen)
        orders = {str(n): [{"bot": name, "needs": sorted(kingdom_cards(name))}
                           for name in order] for n, order in KINGDOM_ORDERS.items()}
        return {
            "games": {
                "dominations": {
                    "bots": list(server_bot_names("dominations")),
                    "bot_blurbs": server_bot_blurbs("dominations", self.settings.bot_seconds),
                    "default_bot": "greedy",
                    "variants": ["retail", "prototype"],
                    "data_sets": ["builtin", *sorted(self.settings.data_sets)],
                },
                "dominion": {
                    "bots": list(server_bot_names("dominion")),
                    "bot_blurbs": server_bot_blurbs("dominion", self.settings.bot_seconds),
                    "default_bot": "smithy",
                    "kingdoms": ["random", *dominion["recommended"]],
                    "recommended": dominion["recommended"],
                    "kingdom_cards": dominion["kingdom_cards"],
                    "rule_bot_orders": orders,
                },
            },
            "players": {"min": 2, "max": 4},
            "bot_seconds": self.settings.bot_seconds,
        }

    # -- changes -----------------------------------------------------------------------

    def act(self, t: Table, seat: int, text: str, version: int,
            store_wait: float = STORE_WAIT) -> None:
        """Check, commit, install and broadcast ``seat``'s action, which answers the view
        of ``version`` (another version is refused: a retried submission never plays
        twice). A store that cannot commit it within ``store_wait`` seconds raises
        :class:`StoreError` with nothing changed."""
        after, canonical = t.check_action(seat, text, version)
        self.db.append(t.id, t.version + 1, "act", seat, canonical, after.is_terminal(),
                       wait=store_wait)
        t.install(seat, canonical, after)
        self._changed(t)

    def undo(self, t: Table, seat: int, version: int) -> None:
        """Take back ``seat``'s last action (see :meth:`act`)."""
        t.check_undo(seat, version)
        self.db.append(t.id, t.version + 1, "undo", seat, "", wait=STORE_WAIT)
        t.install_undo()
        self._changed(t)

    def _changed(self, t: Table) -> None:
        if t.finished:
            self._finished[t.id] = None
            self._evict()
        else:
            self._schedule_bot(t)  # first, so that the views say whether a bot thinks
        self.broadcast(t)

    def _evict(self) -> None:
        """Forget the oldest finished games beyond :data:`KEEP_FINISHED` that nobody
        watches: memory stays bounded however many games a server has served. A watched
        game keeps its place, and goes once its last watcher leaves (:meth:`unsubscribe`)
        if it is still among the oldest."""
        excess = len(self._finished) - KEEP_FINISHED
        if excess <= 0:  # (the usual case: no copy of the list made)
            return
        for gid in list(self._finished):
            if excess <= 0:
                return
            t = self.tables.get(gid)
            if t is not None and t.subscribers:
                continue
            del self._finished[gid]
            self.tables.pop(gid, None)
            excess -= 1

    def broadcast(self, t: Table) -> None:
        """Push every subscriber its seat's view of ``t`` now: the views are built once
        for all the seats watched, and each distinct message is encoded once."""
        subs = list(t.subscribers)
        if not subs:
            return
        t.views(sub.seat for sub in subs)
        texts: dict[tuple[int | None, int], str] = {}
        for sub in subs:
            msg = sub.view(t)
            key = (sub.seat, msg["log_start"])
            text = texts.get(key)
            if text is None:
                text = texts[key] = encode(msg)
            sub.push(text)

    def bot_seconds(self, t: Table) -> float:
        """The search bots' time per decision in ``t``: the server's when the game was
        created (a game stored before games kept it: the server's now)."""
        seconds = t.config.get("bot_seconds")
        return float(seconds) if seconds is not None else self.settings.bot_seconds

    def bot_settings(self, t: Table, name: str | None) -> dict[str, Any] | None:
        """Every setting of the search level ``name`` as ``t`` was created with it (None for
        a rule bot, or a game stored before games kept them: the level's now)."""
        kept = t.config.get("bot_settings")
        settings = kept.get(name) if isinstance(kept, dict) else None
        return settings if isinstance(settings, dict) else None

    def subscribe(self, t: Table, sub: Subscriber) -> None:
        """Add a socket to ``t``: spectators up to :attr:`Settings.max_subscribers`, each
        seat's up to :attr:`Settings.max_seat_sockets`, neither counting the other."""
        seat = sub.seat
        held = sum(1 for other in t.subscribers if other.seat == seat)
        if seat is None and held >= self.settings.max_subscribers:
            raise ActionError("too_many", "too many spectators of this game")
        if seat is not None and held >= self.settings.max_seat_sockets:
            raise ActionError("too_many", "too many connections to this seat (tabs or "
                                          "devices); close one")
        t.subscribers.add(sub)

    def unsubscribe(self, t: Table, sub: Subscriber) -> None:
        t.subscribers.discard(sub)
        if not t.subscribers and t.id in self._finished:
            self._evict()  # it may have been kept only for its watchers

    # -- bots --------------------------------------------------------------------------

    @staticmethod
    def bot_level(t: Table) -> int:
        """The priority of ``t``'s bot decisions for a worker (:class:`WorkerGate`):
        :data:`WITH_A_PERSON` or :data:`BOTS_ONLY`."""
        return BOTS_ONLY if bots_only(x.kind for x in t.seats) else WITH_A_PERSON

    def _schedule_bot(self, t: Table) -> None:
        if t.bot_busy or t.finished or self._closing:
            return
        seat = t.current_seat()
        if t.seats[seat].kind != "bot":
            return
        t.bot_busy = True
        task = asyncio.get_running_loop().create_task(self._bot_move(t, seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_move(self, t: Table, seat: int) -> None:
        version = t.version
        name = t.seats[seat].bot or "random"
        seconds = self.bot_seconds(t)
        seed = derive_seed("dominari-server-bot", t.config.get("seed", 0), seat, version)
        text: str | None = None
        lost = False  # the worker died, hung or was stopped: the bot gave no answer of its own
        executor = self._executor
        kept, t.bot_answer = t.bot_answer, None
        if kept is not None and kept[:2] == (version, seat):  # chosen; only not stored
            self._store_bot_move(t, name, seat, version, kept[2])
            return
        try:
            pause = t.config.get("bot_pause")
            if pause:  # (a game to be followed as it is played) before a worker is taken
                await _pause(float(pause))
            payload = pickle.dumps(t.state)
            loop = asyncio.get_running_loop()
            assert self._slots is not None
            # one decision a worker (no time is lost in a queue), a game with a person in
            # it before the games of bots only; a wait for a worker is said as such
            try:
                if self._slots.free == 0:
                    t.bot_waiting = True
                    self.broadcast(t)
                await self._slots.acquire(self.bot_level(t), t.owner)
            finally:
                waited, t.bot_waiting = t.bot_waiting, False
            try:  # (the slot is held from here: released whatever happens below)
                if waited:
                    self.broadcast(t)  # thinking now
                executor = self._executor
                try:
                    pending = loop.run_in_executor(executor, choose, t.game, payload, name,
                                                   seed, seconds, self.bot_settings(t, name))
                except OSError as exc:  # no worker to be had: a fresh pool, and again
                    self._restart_workers(executor)
                    raise NoWorker(f"{exc.__class__.__name__}: {exc}") from exc
                try:
                    text = await asyncio.wait_for(
                        pending, timeout=BOT_LIMIT + BOT_LIMIT_PER_SECOND * seconds)
                except TimeoutError:
                    self._restart_workers(executor)  # a cancelled job runs on regardless
                    raise
            finally:
                self._slots.release()
        except asyncio.CancelledError:
            t.bot_busy = False
            raise
        except BaseException as exc:  # a crashed or stuck worker must not stall the game
            lost = machine_failure(exc)
            if isinstance(exc, MemoryError) and t.bot_crashes + 1 >= MEMORY_TRIES:
                lost = False  # its search needs more memory than a worker has
                log.error("game %s: bot %s (seat %d) ran out of memory in %d tries of its "
                          "decision", t.id, name, seat + 1, MEMORY_TRIES)
            if isinstance(exc, TimeoutError):
                log.error("game %s: bot %s (seat %d) took more than %.0f s; workers "
                          "restarted", t.id, name, seat + 1,
                          BOT_LIMIT + BOT_LIMIT_PER_SECOND * seconds)
            elif lost:
                log.error("game %s: bot %s (seat %d) lost its worker: %s: %s", t.id, name,
                          seat + 1, exc.__class__.__name__, exc)
            else:
                log.error("game %s: bot %s (seat %d) failed: %s: %s", t.id, name, seat + 1,
                          exc.__class__.__name__, exc)
            if isinstance(exc, BrokenExecutor):  # a pool whose worker died starts afresh
                self._restart_workers(executor)
        if self._closing:  # a stopping server stores nothing the bot did not choose
            t.bot_busy = False
            return
        if t.version != version or t.finished or t.current_seat() != seat:
            t.bot_busy = False
            self._schedule_bot(t)
            return
        if lost:  # ask again, never play a move for it
            self._retry_bot(t, name, seat)
            return
        self._store_bot_move(t, name, seat, version, text)

    def _store_bot_move(self, t: Table, name: str, seat: int, version: int,
                        text: str | None) -> None:
        """Play the bot's answer ``text`` (None: it gave none of its own) for ``seat`` at
        ``version``. A move the store cannot take is kept, and stored again after a wait
        that doubles each time (the bot does not decide again meanwhile)."""
        t.bot_busy = False  # before the action: its views say whether a bot thinks next
        move = text
        try:
            try:
                if move is None:
                    raise ActionError("bot_failed", "no answer")
                self.act(t, seat, move, version, BOT_STORE_WAIT)
            except ActionError as exc:
                # The bot itself failed (an error of its own, an answer the game refuses):
                # asking again would fail the same way, so its first legal action is played.
                legal = t.state.legal_actions()
                move = t.state.format_action(legal[0])
                log.error("game %s: bot %s (seat %d) gave no legal answer (%s); playing "
                          "its first legal action, %s", t.id, name, seat + 1, exc, move)
                self.act(t, seat, move, version, BOT_STORE_WAIT)
        except (StoreError, ActionError) as exc:
            # Nothing was stored: the same move is stored again in a moment.
            log.error("game %s: cannot store the bot's action: %s", t.id, exc)
            if move is not None:
                t.bot_answer = (version, seat, move)
            self._retry_bot(t, name, seat)
            return
        t.bot_crashes = 0

    def _retry_bot(self, t: Table, name: str, seat: int) -> None:
        """Ask the bot of ``seat`` again (or store the move it chose again: its
        ``bot_answer``) after a wait that doubles with each failure of the decision. The
        table stays busy meanwhile, so that every view, a new socket's
        included, shows the bot thinking, and nothing else starts it."""
        t.bot_busy = True
        t.bot_crashes += 1
        wait = min(BOT_RETRY * 2 ** (t.bot_crashes - 1), BOT_RETRY_MAX)
        log.warning("game %s: bot %s (seat %d) %s again in %g s (try %d)", t.id, name,
                    seat + 1, "its move stored" if t.bot_answer is not None else "asked",
                    wait, t.bot_crashes + 1)

        def again() -> None:
            t.bot_busy = False
            self._schedule_bot(t)

        asyncio.get_running_loop().call_later(wait, again)

    def _restart_workers(self, executor: Any) -> None:
        """Stop ``executor`` and start fresh workers, unless that was done already (each
        decision it was running fails and is asked again) or the server is stopping."""
        if executor is not self._executor or self._closing:
            return
        stop_executor(executor)
        self._executor = make_executor(self.settings.bot_executor, self.settings.bot_workers)

    async def idle(self) -> None:
        """Wait until no bot is thinking (for tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


_CATALOGS: dict[str | None, dict[str, Any]] = {}


def dominations_catalog(folder: str | None) -> dict[str, Any]:
    """The Dominations data set in ``folder`` (None: the built-in one) as its files'
    JSON, keyed by file stem (``tiles``, ``skills``, ``monuments`` …)."""
    cached = _CATALOGS.get(folder)
    if cached is None:
        import json

        from dominari.sim.runner import dominations_data

        data = dominations_data(folder)
        files = {}
        for name, where in sorted(data.origins.items()):
            path = Path(where) / name
            files[Path(name).stem] = json.loads(path.read_text(encoding="utf-8-sig"))
        cached = _CATALOGS[folder] = {"game": "dominations", "files": files}
    return cached


def _name(name: str | None, default: str) -> str:
    if name is None or not _as_shown(name).strip():  # (nothing, or only invisible marks)
        return default
    text = " ".join(name.split())
    if len(text) > 40:
        raise ConfigError("a seat name is at most 40 characters")
    check_names([text])  # (a stored game's config reads such a name as its escapes)
    return text


_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0") | frozenset(
    map(chr, [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
"""Characters that show nothing and are no format characters (Cf): a combining grapheme
joiner, Hangul fillers, Khmer inherent vowels, variation selectors (Unicode's default
ignorable code points beside Cf)."""


def _as_shown(name: str) -> str:
    """``name`` as it shows, to tell seats apart: composed (NFC: "Zoë" typed either way),
    without the characters that show nothing (a zero-width space, a right-to-left mark, a
    Hangul filler …), case folded ("Ann" and "A\u200bnn" read the same on every page and
    log)."""
    shown = unicodedata.normalize("NFC", name)
    return "".join(c for c in shown
                   if unicodedata.category(c) != "Cf" and c not in _INVISIBLE).casefold()


def _plausible_id(text: str, limit: int = 32) -> bool:
    return 0 < len(text) <= limit and all(c.isalnum() or c in "-_" for c in text)


def _my_game(game_id: str, game: str, seat: int, name: str, status: str, version: int,
             your_turn: bool, spectator: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """An entry of "My games" (:meth:`GameService.games_of`): a game the tokens' holder
    takes part in, from memory or from the store."""
    return {"game_id": game_id, "game": game, "seat": seat, "name": name, "status": status,
            "version": version, "your_turn": your_turn, "spectator": spectator,
            "seats": seats}
