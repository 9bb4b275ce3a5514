"""The HTTP and WebSocket API (FastAPI on Starlette, served by uvicorn).

HTTP (the generated OpenAPI schema at ``/openapi.json`` documents it; ``/docs`` shows it):

- ``POST /api/games``: create a game; the answer holds one secret token per human seat
  and a spectator id (the only time tokens are shown);
- ``GET /api/games/{id}``: the view of the seat whose token is in
  ``Authorization: Bearer …``;
- ``GET /api/spectate/{spectator}``: the spectators' view;
- ``POST /api/games/{id}/actions`` ``{"action": "buy Province", "version": 12}``;
- ``POST /api/games/{id}/undo`` ``{"version": 13}``;
- ``POST /api/my-games`` ``{"tokens": [...]}``: the games of a token holder;
- ``GET /api/games/{id}/record``: the game record once the game is over.

WebSocket ``/api/ws``: the first message joins a seat (``{"type": "join", "game_id": …,
"token": …}``) or watches (``{"type": "join", "spectator": …}``); the server then pushes
that seat's view after every change. ``{"type": "act", "action": …, "version": …}`` and
``{"type": "undo", "version": …}`` change the game. ``version`` is required (over HTTP
too): it is the version of the view the submission answers, so that a retried one (a
client that lost the answer and sends it again) is refused as stale instead of playing
twice. A stale, duplicate or illegal submission, or one without a version, gets
``{"type": "error", "code": …, "message": …, "view": …}``. A message's optional ``id``
comes back in its answers (an error, ``pong``, ``preview``; ``{"type": "done", "id": …,
"version": …}`` after a played act or undo's view). A view message
carries the log in words beside the view, from line ``log_start`` on: over HTTP and in a
socket's first view its last lines, in every later view on the socket only the lines that
changed since the one before (see :meth:`dominari.server.tables.Table.message`).

Every error is one JSON object ``{"error": {"code": …, "message": …}}`` with a 4xx status
(5xx only when the store is down); no stack trace is ever sent. An action or an undo over
HTTP refused as ``stale`` (a duplicate among them) or ``not_your_turn`` carries the seat's
current view message beside it (``"view"``), as the socket's error does.
"""

from __future__ import annotations

try:  # the web extra, said as the envs extra is when it is missing
    import fastapi  # noqa: F401
    import orjson  # noqa: F401
    import sqlalchemy  # noqa: F401
except ImportError as exc:
    raise ImportError("dominari.server.app needs the web extra: pip install 'dominari[web]' "
                      f"({exc.name or 'a dependency'} is missing)", name=exc.name) from exc

import asyncio
import collections
import contextlib
import gc
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping, Sequence
from typing import Annotated, Any, Literal

from fastapi import (
    Body,
    FastAPI,
    Header,
    Path,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.staticfiles import StaticFiles
from starlette.types import Scope as StarletteScope
from starlette.websockets import WebSocketState

from dominari.core.errors import ConfigError, DominariError
from dominari.server.bots import played_seat
from dominari.server.service import (
    STORE_WAIT,
    GameService,
    GameSpec,
    SeatSpec,
    Settings,
    Subscriber,
)
from dominari.server.store import StoreError
from dominari.server.tables import MAX_ACTION_TEXT, ActionError, Table
from dominari.web import INDEX, STATIC

log = logging.getLogger("dominari.server")

MAX_BODY = 64 * 1024
"""The largest HTTP request body accepted (bytes)."""
MAX_MESSAGE = 16 * 1024
"""The largest WebSocket message answered (bytes); uvicorn drops far larger ones."""
JOIN_TIMEOUT = 10.0
"""Seconds a socket has to send its join message."""
GC_THRESHOLD = 10_000
"""Net allocations of containers between two collections of the youngest generation
while the server runs (Python's default: 700)."""

STATUS = {
    "no_game": 404, "no_token": 401, "bad_token": 403, "not_your_turn": 409, "stale": 409,
    "game_over": 409, "cannot_undo": 409, "in_progress": 409, "bad_action": 400,
    "illegal_action": 400, "bad_request": 400, "too_many": 429, "too_large": 413,
    "unloadable": 409,
}

Auth = Annotated[str | None, Header(description="Bearer <seat token>", max_length=200)]
GameId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


_BRANCH = re.compile(r"constrained-\w+|\w+\[.*\]")
"""pydantic's name of a union's branch in an error's path (``constrained-str``,
``list[constrained-str]``): not a field of the request."""


def validation_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """One message for a request's validation errors (at most 5): each field's path,
    without the body and the union branches pydantic tried, and what is wrong. Of a union's
    branches, a type mismatch is left out where another branch says more.

    >>> validation_message([
    ...     {"loc": ("body", "kingdom", "constrained-str"), "type": "string_type",
    ...      "msg": "Input should be a valid string"},
    ...     {"loc": ("body", "kingdom", "list[constrained-str]", 1),
    ...      "type": "string_too_long", "msg": "String should have at most 40 characters"},
    ...     {"loc": ("body", "max-turns"), "type": "extra_forbidden",
    ...      "msg": "Extra inputs are not permitted"}])
    'max-turns: Extra inputs are not permitted; kingdom.1: String should have at most 40 characters'
    """
    said: list[tuple[str, str]] = []  # (field, message)
    unions: dict[str, list[tuple[str, str, str]]] = {}  # the union's field -> (type, ...)
    for e in errors:
        loc = [str(x) for x in e.get("loc", ()) if x != "body"]
        msg = str(e.get("msg", "invalid"))
        branch = next((i for i, part in enumerate(loc) if _BRANCH.fullmatch(part)), None)
        if branch is None:
            said.append((".".join(loc) or "body", msg))
        else:
            field = ".".join(loc[:branch] + loc[branch + 1:]) or "body"
            unions.setdefault(".".join(loc[:branch]), []).append(
                (str(e.get("type", "")), field, msg))
    for tried in unions.values():
        more = [(f, m) for kind, f, m in tried if not kind.endswith("_type")]
        said.extend(more or [(f, m) for _, f, m in tried])
    return "; ".join(f"{f}: {m}" for f, m in list(dict.fromkeys(said))[:5]) or "invalid request"


VERSION_NEEDED = ("the version of the view it answers is needed ('version'), so that a "
                  "retried submission cannot play twice")
"""Why an action or an undo without ``version`` is refused: the version is what tells a
retried submission (a client that lost the answer and sends it again) from a new one."""


def _versions_needed(errors: Sequence[Mapping[str, Any]], submission: str | None
                     ) -> list[Mapping[str, Any]]:
    """``errors`` with a missing ``version`` (or ``null``, as the WebSocket takes it; or a
    missing body, for a ``submission``: ``"act"`` or ``"undo"``) said as
    :data:`VERSION_NEEDED`; an action's missing body misses its ``action`` too.

    >>> [e["loc"] for e in _versions_needed([{"loc": ("body",), "type": "missing"}], "act")]
    [('body', 'action'), ('body', 'version')]
    """
    out: list[Mapping[str, Any]] = []
    for e in errors:
        loc = tuple(e.get("loc", ()))
        kind = e.get("type")
        if loc == ("body", "version") and (kind == "missing" or (
                kind == "int_type" and e.get("input", "") is None)):
            e = {**e, "type": "missing", "msg": VERSION_NEEDED}
        elif submission is not None and kind == "missing" and loc == ("body",):
            if submission == "act":
                out.append({**e, "loc": ("body", "action"), "msg": "Field required"})
            e = {**e, "loc": ("body", "version"), "msg": VERSION_NEEDED}
        out.append(e)
    return out


# -- request and response models -----------------------------------------------------------


class Strict(BaseModel):
    """A request body: no field it does not name, and each field of its own type (a seed
    of ``true`` or ``"7"`` is refused, as the WebSocket refuses a version of ``"3"``)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatIn(Strict):
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(None, max_length=200, description="bot name when kind is bot, "
                            "e.g. greedy, mcts, smithy (a search level without options)")
    name: str | None = Field(None, max_length=40)


class CreateGame(Strict):
    game: Literal["dominion", "dominations"] = "dominations"
    seats: list[SeatIn] = Field(min_length=2, max_length=4,
                                description="one entry per seat, in seat order")
    seed: int | None = Field(None, ge=0, lt=2**63)
    variant: Literal["retail", "prototype"] | None = Field(
        None, description="dominations: the rules variant")
    rules: dict[str, Annotated[str, Field(max_length=40)]] | None = Field(
        None, max_length=10, description="dominations: rule options, e.g. "
        "{\"connection\": \"all-sides\"}")
    data: str | None = Field(None, max_length=40,
                             description="dominations: a data set the server offers")
    kingdom: (Annotated[str, Field(max_length=400)]
              | Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=10)]
              | None) = Field(
        None, description="dominion: a recommended set name, 'random', or 10 card names "
                          "(a list, or one comma-separated string)")
    max_turns: int | None = Field(None, ge=1, le=1000,
                                  description="dominion: stop after this many turns each")
    bot_pause: float | None = Field(
        None, ge=0, le=10, description="seconds each bot waits before it moves, so that a "
        "game of bots can be followed as it is played (0 or none: at once)")


class SeatOut(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    token: str | None = Field(None, description="the seat's secret token (human seats)")
    missing_cards: list[str] | None = Field(
        None, description="dominion, only for a rule bot that buys Kingdom cards this "
                          "game's kingdom lacks: those cards (it plays without them); the "
                          "seats of every view say so too")


class Created(BaseModel):
    game_id: str
    game: str
    spectator: str
    version: int
    seats: list[SeatOut]
    notes: list[str] = Field(
        default_factory=list, description="a sentence for each seat whose rule bot buys "
                                          "Kingdom cards this game's kingdom lacks")


class PreviewIn(Strict):
    action: str = Field(min_length=1, max_length=MAX_ACTION_TEXT,
                        description="an action in the game's notation")
    version: int | None = Field(None, ge=0, description="the view version it answers "
                                                        "(optional: nothing changes)")


class ActIn(Strict):
    action: str = Field(min_length=1, max_length=MAX_ACTION_TEXT,
                        description="an action in the game's notation")
    version: int = Field(ge=0, description="the version of the view the action answers "
                                           "(required: a retried submission, or one "
                                           "answering an older view, is refused as stale)")


class UndoIn(Strict):
    version: int = Field(ge=0, description="the version of the view the undo answers "
                                           "(required, as an action's)")


class TokensIn(Strict):
    tokens: list[Annotated[str, Field(max_length=100)]] = Field(max_length=100)


class ViewMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: str
    game_id: str
    game: str
    version: int
    seat: int | None
    status: str
    view: dict[str, Any]


ERROR_CODES: dict[str, str] = {
    "bad_request": "400: the server refuses what the request asks (an unknown bot, a "
                   "version the game has not reached …); 422: the request's shape is "
                   "wrong (a field missing, of the wrong type, or unknown; malformed JSON)",
    "bad_action": "400: the action text cannot be read (the message says why, with the "
                  "legal verbs)",
    "illegal_action": "400: the rules refuse the action (the message says which rule)",
    "no_token": "401: no seat token, or an Authorization header not 'Bearer <token>'",
    "bad_token": "403: the token holds no seat in this game",
    "no_game": "404: no game of that id or spectator id",
    "not_found": "404: no such path",
    "method_not_allowed": "405: the path takes another method",
    "http_error": "another HTTP error of the framework's, with its status",
    "not_your_turn": "409: another seat decides now (the body carries your view)",
    "stale": "409: the game has moved on since the version answered (the body carries "
             "your view); a retried submission gets this, never a second move",
    "game_over": "409: the game is over",
    "cannot_undo": "409: the last action cannot be taken back",
    "in_progress": "409: the record or replay waits for the game's end",
    "unloadable": "409: the game's data set is missing or changed on this server",
    "too_large": "413: the body is over 64 KiB",
    "too_many": "429: too many requests, or too many games of bots only at once; "
                "wait and send it again",
    "internal": "500: a fault of the server's (logged there); nothing is sent of it",
    "unavailable": "503: the game store is busy or down; nothing was stored, send it again",
}
"""Every error ``code`` the API answers, with its HTTP status and meaning (OpenAPI's
description of :class:`ErrorBody`)."""


class ErrorBody(BaseModel):
    code: str = Field(description="what went wrong, one of: " + "; ".join(
        f"``{code}`` ({meaning})" for code, meaning in ERROR_CODES.items()))
    message: str = Field(description="the same in a sentence for people (it may change "
                                     "between versions: branch on ``code``)")


class ErrorOut(BaseModel):
    error: ErrorBody
    view: dict[str, Any] | None = Field(
        None, description="the seat's current view message, beside an action's or an "
                          "undo's error when the game has moved on (stale) or another seat "
                          "decides (not_your_turn)")


ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorOut} for c in (400, 401, 403, 404, 409, 413, 422, 429, 500, 503)
}


def error(code: str, message: str, status: int | None = None,
          headers: dict[str, str] | None = None, view: dict[str, Any] | None = None
          ) -> JSONResponse:
    body: dict[str, Any] = {"error": {"code": code, "message": message}}
    if view is not None:
        body["view"] = view
    return JSONResponse(body, status_code=status or STATUS.get(code, 400), headers=headers)


WITH_VIEW = frozenset({"stale", "not_your_turn"})
"""Errors of an action or an undo over HTTP that carry the seat's current view beside
them (``view``): the game has moved on since the view the submission answered (a client's
retry among them), so the client sees where it stands without asking again."""


# -- rate limits ---------------------------------------------------------------------------


class Bucket:
    """A token bucket: ``rate`` per second, up to ``burst`` at once."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False


class Limits:
    """Per-key buckets (client address for creating games, seat for actions)."""

    def __init__(self, rate: float, burst: float, keys: int = 10000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self.buckets: dict[Any, Bucket] = {}

    def take(self, key: Any) -> bool:
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.keys:
                self.buckets.clear()
            b = self.buckets[key] = Bucket(self.rate, self.burst)
        return b.take()


# -- body size guard -----------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes with 413 before the app reads them."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = True
                try:
                    size = int(value)
                except ValueError:
                    size = self.limit + 1
                if size > self.limit:
                    await _too_large(send, self.limit)
                    return
        if not declared and scope.get("method") in ("POST", "PUT", "PATCH"):
            # a body sent in chunks, its size unsaid: read first (the app would say a
            # failure to read it as a 400 of its own, not as this 413)
            whole = await self._read_whole(receive, send)
            if whole is None:
                return
            receive = whole
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except _TooLarge:
            if not started:
                await _too_large(send, self.limit)

    async def _read_whole(self, receive: Receive, send: Send) -> Receive | None:
        """The request's body read whole, given again to the app by the receive returned;
        None once a body over the limit was answered with 413."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await _too_large(send, self.limit)
                return None
            if not message.get("more_body", False):
                break
        whole: list[Message] = [{"type": "http.request", "body": b"".join(chunks),
                                 "more_body": False}]

        async def again() -> Message:
            return whole.pop() if whole else await receive()

        return again


class _TooLarge(Exception):
    pass


CONTENT_POLICY = ("default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
                  "object-src 'none'; base-uri 'none'; form-action 'self'; "
                  "frame-ancestors 'none'")
"""What a page of the app may load: its own files (the icon is a ``data:`` image) and its
own API and socket, no frame of it elsewhere. ``/docs`` and ``/redoc`` load FastAPI's
pages from their CDN, and have it not."""

_HARDENING = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
              (b"x-frame-options", b"DENY"))


class SecurityHeaders:
    """Headers that keep a browser from reading a response as another type than it says,
    from sending a game's address to other sites, and from showing the app in another
    site's frame (a click made for a player by a page laid over it); and the app's pages'
    :data:`CONTENT_POLICY`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        extra = list(_HARDENING)
        if not path.startswith(("/docs", "/redoc")):
            extra.append((b"content-security-policy", CONTENT_POLICY.encode()))

        async def hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, hardened)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": {"code": "too_large",
                                 "message": f"the request body is over {limit} bytes"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


_STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".html": "text/html; charset=utf-8"}
"""The app's files' types, said whatever the system's table of types has: Windows reads it
from the registry, where some programs set ``.js`` to ``text/plain``, and a browser
refuses a module script of that type (a blank page)."""


class NoCacheStatic(StaticFiles):
    """The app's files, revalidated on every load (ETag), so an upgrade shows at once."""

    def file_response(self, full_path: Any, stat_result: Any, scope: StarletteScope,
                      status_code: int = 200) -> Any:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        kind = _STATIC_TYPES.get(os.path.splitext(str(full_path))[1].lower())
        if kind is not None:
            response.headers["Content-Type"] = kind
        return response


# -- the app -------------------------------------------------------------------------------


def create_app(settings: Settings) -> FastAPI:
    """The API for a server with ``settings`` (the store opens when the app starts)."""
    service = GameService(settings)
    creates = Limits(settings.create_rate, settings.create_burst)
    acts = Limits(settings.action_rate, settings.action_burst)
    replays = Limits(settings.replay_rate, settings.replay_burst)
    sockets: collections.Counter[str] = collections.Counter()  # open, by client address

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.open()
        # Everything loaded so far lives as long as the server: keep it out of the
        # collector's way (full collections otherwise pause every game for 100+ ms).
        gc.collect()
        gc.freeze()
        # An action allocates thousands of containers (a state copy, the views), most
        # freed at once by reference counting: with Python's default threshold (700) the
        # collector ran every few actions, a sixth of the server's CPU, and moved the
        # states in play to the old generation, whose full collections scanned every
        # game (60-100 ms pauses).
        threshold = gc.get_threshold()
        gc.set_threshold(GC_THRESHOLD, *threshold[1:])
        service.start_bots()
        try:
            yield
        finally:
            gc.set_threshold(*threshold)
            await service.close()

    app = FastAPI(title="Dominari", version="0.1.0", lifespan=lifespan,
                  description="Play Dominations and Dominion: games, seats, views and "
                              "actions over HTTP and WebSocket.")
    app.state.service = service
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SecurityHeaders)  # (outermost: on BodyLimit's 413 too)

    @app.exception_handler(ActionError)
    async def _action_error(request: Request, exc: ActionError) -> JSONResponse:
        return error(exc.code, exc.message)

    @app.exception_handler(ConfigError)
    async def _config_error(request: Request, exc: ConfigError) -> JSONResponse:
        return error("bad_request", str(exc))

    @app.exception_handler(StoreError)
    async def _store_error(request: Request, exc: StoreError) -> JSONResponse:
        log.error("store: %s", exc)
        return error("unavailable", "the game store is unavailable; try again", 503)

    @app.exception_handler(DominariError)
    async def _dominari_error(request: Request, exc: DominariError) -> JSONResponse:
        return error("bad_request", str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        path = request.url.path
        submission = ("act" if path.endswith("/actions") else
                      "undo" if path.endswith("/undo") else None)  # fmt: skip
        return error("bad_request", validation_message(_versions_needed(
            exc.errors(), submission)), 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return error(code, str(exc.detail), exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error("internal", "internal server error", 500)

    def bearer(authorization: str | None) -> str | None:
        if not authorization:
            return None
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            # (a token sent bare or under another scheme: say how, never echoing it)
            raise ActionError("no_token", "the Authorization header must be "
                                          "'Bearer <seat token>'")
        return token.strip()

    def client_key(conn: HTTPConnection) -> str:
        """The address of the client of a request or a socket."""
        return conn.client.host if conn.client else "?"

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index() -> HTMLResponse:
        # The browser app: one page; its routes live in the URL fragment (#/play/…), which
        # browsers never send, so invitation tokens stay out of every server log.
        return HTMLResponse(INDEX.read_text(encoding="utf-8"),
                            headers={"Cache-Control": "no-cache"})

    app.mount("/static", NoCacheStatic(directory=STATIC), name="static")

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """What a client may choose when it creates a game: bots, variants, data sets,
        kingdoms."""
        return service.options()

    @app.get("/api/games/{game_id}/catalog", responses=ERRORS)
    async def catalog(game_id: GameId) -> dict[str, Any]:
        """The game's components (Dominion cards; the Dominations data set it uses).
        Nothing in it is secret."""
        return service.catalog(await service.game(game_id))

    @app.get("/api/games/{game_id}/log", responses=ERRORS)
    async def game_log(game_id: GameId) -> dict[str, Any]:
        """The whole log in words (a view carries its last lines, or on a socket the
        lines since the last view). Every line is public: Dominion's log shows draws as
        counts only, and Dominations hides only the order of the tile supply."""
        t = await service.game(game_id)
        return {"version": t.version, "log": t.log_lines()}

    @app.post("/api/games/{game_id}/preview", responses=ERRORS)
    async def preview(game_id: GameId, body: PreviewIn, authorization: Auth = None
                      ) -> dict[str, Any]:
        """Dominations: what a placement would produce, item by item, for the seat that
        decides now; nothing changes."""
        t = await service.game(game_id)
        seat = service.seat_of(t, bearer(authorization))
        if not acts.take((game_id, seat)):
            raise ActionError("too_many", "too many submissions; slow down")
        return t.preview(seat, body.action)

    @app.get("/api/replay/{spectator}", responses=ERRORS)
    async def replay(
        request: Request,
        spectator: Annotated[str, Path(min_length=1, max_length=64,
                                       pattern=r"^[A-Za-z0-9_-]+$")],
        step: Annotated[int, Query(ge=0, le=100000)] = 0,
        seat: Annotated[int | None, Query(ge=0, le=3)] = None,
    ) -> dict[str, Any]:
        """A finished game at ``step`` (0: the start) as ``seat`` saw it (default:
        spectators), with its list of moves."""
        if not replays.take(client_key(request)):
            raise ActionError("too_many", "too many replays asked for; slow down")
        return await service.replay(spectator, step, seat)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up, and how many games it holds in memory: answered at
        once, whatever the store is doing (``/api/ready`` asks the store too)."""
        return {"ok": True, "games": len(service.tables)}

    @app.get("/api/ready", responses={503: ERRORS[503]})
    async def ready() -> dict[str, Any]:
        """Whether the server can take games and actions now: its store answered a read
        within the wait of a person's action (a 503 ``unavailable`` where it did not:
        the database down, or another process holding an SQLite file locked)."""
        await service.off_loop(service.db.ping, STORE_WAIT)  # (the loop serves the rest)
        return {"ok": True, "games": len(service.tables)}

    @app.post("/api/games", status_code=201, response_model=Created, responses=ERRORS,
              response_model_exclude_unset=True)
    async def create_game(request: Request, body: CreateGame) -> dict[str, Any]:
        """Create a game. The answer carries each human seat's secret token: give each
        player theirs (it is shown only here) and the spectator id to watchers. A Dominion
        rule bot whose Kingdom cards the kingdom lacks is seated (it plays without them):
        its seat's ``missing_cards`` names them and ``notes`` says so in words."""
        if not creates.take(client_key(request)):
            raise ActionError("too_many", "too many games created; wait a moment")
        kingdom = body.kingdom if not isinstance(body.kingdom, list) else tuple(body.kingdom)
        spec = GameSpec(
            game=body.game,
            seats=tuple(SeatSpec(s.kind, s.bot, s.name) for s in body.seats),
            seed=body.seed, variant=body.variant, rules=body.rules, data=body.data,
            kingdom=kingdom, max_turns=body.max_turns, bot_pause=body.bot_pause)
        return service.create(spec, owner=client_key(request))

    @app.get("/api/games/{game_id}", response_model=ViewMessage, responses=ERRORS)
    async def seat_view(game_id: GameId, authorization: Auth = None) -> dict[str, Any]:
        """The view of the seat whose token is given: only what that seat may see, with
        its legal actions when it decides."""
        t = await service.game(game_id)
        return t.message(service.seat_of(t, bearer(authorization)))

    @app.get("/api/spectate/{spectator}", response_model=ViewMessage, responses=ERRORS)
    async def spectator_view(
        spectator: Annotated[str, Path(min_length=1, max_length=64,
                                       pattern=r"^[A-Za-z0-9_-]+$")],
    ) -> dict[str, Any]:
        """What a spectator sees: public information only."""
        return (await service.spectated(spectator)).message(None)

    async def submitted(game_id: str, authorization: str | None,
                        submit: Callable[[Table, int], None]) -> dict[str, Any] | JSONResponse:
        """The seat's view once ``submit`` (an action or an undo) is done for the token's
        seat; a refusal of :data:`WITH_VIEW` carries that view, as over a socket."""
        t = await service.game(game_id)
        seat = service.seat_of(t, bearer(authorization))
        if not acts.take((game_id, seat)):
            raise ActionError("too_many", "too many submissions; slow down")
        try:
            submit(t, seat)
        except ActionError as exc:
            if exc.code not in WITH_VIEW:
                raise
            return error(exc.code, exc.message, view=t.message(seat))
        return t.message(seat)

    @app.post("/api/games/{game_id}/actions", response_model=ViewMessage, responses=ERRORS)
    async def act(game_id: GameId, body: ActIn, authorization: Auth = None
                  ) -> dict[str, Any] | JSONResponse:
        """Play an action for the token's seat. ``version`` (required) is the version of
        the view the action answers: a stale one is refused (409) with nothing changed,
        so a retried submission never plays twice; the error carries the seat's current
        view (``view``), as one of another seat's decision does."""
        return await submitted(game_id, authorization,
                               lambda t, seat: service.act(t, seat, body.action, body.version))

    @app.post("/api/games/{game_id}/undo", response_model=ViewMessage, responses=ERRORS)
    async def undo(game_id: GameId, body: Annotated[UndoIn, Body()],
                   authorization: Auth = None) -> dict[str, Any] | JSONResponse:
        """Take back the seat's last action, if it is still their decision and the
        action revealed nothing and used no chance. ``version`` (required) is the version
        of the view it answers, as for an action."""
        return await submitted(game_id, authorization,
                               lambda t, seat: service.undo(t, seat, body.version))

    @app.post("/api/games/{game_id}/again", status_code=201, response_model=Created,
              responses={**ERRORS, 200: {"model": Created, "description": "the next "
                                         "game was made already: your seat of it"}},
              response_model_exclude_unset=True)
    async def play_again(request: Request, response: Response, game_id: GameId,
                         authorization: Auth = None) -> dict[str, Any]:
        """Play a finished game again: a new game with the same seats, names and options
        (Dominion's kingdom as asked for, so "random" draws anew; Dominations' rules and
        data set), dealt anew. The first of its players to ask makes it (201); every
        player's view of the finished game then names it (``again``: its ``game_id`` and
        ``spectator``), and each who asks gets their own seat of it (200): the answer
        carries that seat's token only, made from the token given, so asking again gives
        the same one. Refused before the game ends (409)."""
        t = await service.game(game_id)
        token = bearer(authorization)
        seat = service.seat_of(t, token)
        if t.again is None and not creates.take(client_key(request)):
            raise ActionError("too_many", "too many games created; wait a moment")
        assert token is not None  # (seat_of refuses none)
        made, new = await service.again(t, seat, token)
        if not new:
            response.status_code = 200
        return made

    @app.post("/api/my-games", responses=ERRORS)
    async def my_games(body: TokensIn) -> dict[str, Any]:
        """The games whose seats these tokens hold (unknown tokens are left out)."""
        return {"games": await service.games_of(body.tokens)}

    @app.get("/api/games/{game_id}/record", responses=ERRORS)
    async def record(game_id: GameId) -> dict[str, Any]:
        """The game record (seed and actions), once the game is over: before that its
        seed would reveal every hidden card. It replays with ``dominari replay``. Its
        ``config.data`` names a data set by its name (``replay --data DIR`` gives its
        folder), and ``seats`` say who played each seat: a human, or the bot as this
        server played it (a search level with the game's time per decision, the server's
        when the game was created, ``mcts:seconds=1``, with every setting of its search
        in ``search``; Dominion's ``best`` with the rule bot it played the game as,
        ``played_as``). The name says how a bot played,
        not how to play its moves again: the server seeds each decision from the game's
        seed, seat and move, and the clock stops its searches; the record's actions
        replay the game exactly."""
        t = await service.game(game_id)
        if not t.finished:
            raise ActionError("in_progress", "the record is available when the game is "
                                             "over (its seed would reveal hidden cards)")
        record = await service.off_loop(t.record)  # a finished game never changes
        if t.config.get("data_set") is not None:  # the set's name, not the server's path
            record["config"]["data"] = t.config["data_set"]
        seconds = service.bot_seconds(t)
        record["seats"] = [played_seat(t.game, x, seconds, service.bot_settings(t, x["bot"]),
                                       t.state) for x in t.seat_list()]
        return record

    @app.websocket("/api/ws")
    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        client = client_key(ws)
        if (sockets.total() >= settings.max_sockets
                or sockets[client] >= settings.max_client_sockets):
            with contextlib.suppress(Exception):
                await ws.send_json(_error_msg("too_many", "too many connections to this "
                                              "server; try again later"))
                await ws.close(code=1013)
            return
        sockets[client] += 1
        try:
            await _serve_socket(service, ws)
        finally:
            sockets[client] -= 1
            if not sockets[client]:
                del sockets[client]

    generated = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = seat_scheme(generated())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def seat_scheme(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the seat token as OpenAPI's bearer scheme (``seat``): each operation
    that reads the ``Authorization`` header says so as its security, not as a header
    parameter (which OpenAPI ignores, so that ``/docs`` had no way to send a token: it
    now has an Authorize button)."""
    schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes["seat"] = {"type": "http", "scheme": "bearer",
                       "description": "a human seat's secret token, given once when the "
                                      "game is made (``seats[i].token``)"}
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            params = operation.get("parameters", [])
            kept = [p for p in params
                    if not (p.get("in") == "header" and p.get("name") == "authorization")]
            if len(kept) != len(params):
                operation["security"] = [{"seat": []}]
                if kept:
                    operation["parameters"] = kept
                else:
                    del operation["parameters"]
    return schema


# -- WebSocket sessions --------------------------------------------------------------------


TEMPORARY_REFUSALS = frozenset({"too_many", "unavailable"})
"""Error codes of a refused join that may be admitted later (the socket closes with 1013,
"try again later"); every other refusal closes it with 1008 for good."""


async def _serve_socket(service: GameService, ws: WebSocket) -> None:
    bucket = Bucket(service.settings.socket_rate, service.settings.socket_burst)

    # Join: the first message names the seat (token) or the spectator id.
    try:
        raw = await asyncio.wait_for(ws.receive_text(), JOIN_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        with contextlib.suppress(Exception):
            await ws.close(code=1008)
        return
    msg = _decode(raw)
    try:
        if isinstance(msg, str):
            raise ActionError("bad_request", msg)
        if msg.get("type") != "join":
            raise ActionError("bad_request", "the first message must be "
                                             "{\"type\": \"join\", ...}")
        spectator = msg.get("spectator")
        if isinstance(spectator, str):
            t = await service.spectated(spectator)
            seat: int | None = None
        else:
            gid = msg.get("game_id")
            if not isinstance(gid, str):
                raise ActionError("bad_request", "join needs a game_id and a token, or a "
                                                 "spectator id")
            t = await service.game(gid)
            token = msg.get("token")
            seat = service.seat_of(t, token if isinstance(token, str) else None)
        sub = Subscriber(seat)
        service.subscribe(t, sub)
    except (ActionError, StoreError) as exc:
        code = exc.code if isinstance(exc, ActionError) else "unavailable"
        with contextlib.suppress(Exception):
            await ws.send_json(_error_msg(code, str(exc)))
            # 1013 ("try again later") where the same join may be admitted in a while (a
            # full table, a store that failed), so that a client reconnects; 1008 where
            # it never will (no such game, a wrong token, a malformed join).
            await ws.close(code=1013 if code in TEMPORARY_REFUSALS else 1008)
        return

    async def writer() -> None:
        while True:
            m = await sub.queue.get()
            if m is None:
                await ws.close(code=1013)  # fell too far behind
                return
            await ws.send_text(m)

    task: asyncio.Task[None] | None = None
    try:  # from here on the socket is the table's: whatever happens, it leaves the table
        sub.push(sub.view(t))
        task = asyncio.create_task(writer())
        while True:
            raw = await ws.receive_text()
            if len(raw) > MAX_MESSAGE:
                sub.push(_error_msg("too_large", f"a message is at most {MAX_MESSAGE} bytes"))
                continue
            if not bucket.take():
                sub.push(_error_msg("too_many", "too many messages; slow down"))
                continue
            msg = _decode(raw)
            if isinstance(msg, str):
                sub.push(_error_msg("bad_request", msg))
                continue
            rid = msg.get("id")
            if rid is not None and not _request_id(rid):
                sub.push(_error_msg("bad_request", "id must be a string of at most 64 "
                                    "characters or a whole number"))
                continue

            def answer(m: dict[str, Any], rid: Any = rid) -> None:
                sub.push(m if rid is None else {**m, "id": rid})

            kind = msg.get("type")
            if kind == "ping":
                answer({"type": "pong"})
                continue
            if kind not in ("act", "undo", "view", "preview"):
                answer(_error_msg("bad_request", "unknown message type "
                                  f"{str(kind)[:40]!r}: act, undo, preview, view or ping"))
                continue
            if kind == "view":
                sub.push(sub.view(t))
                continue
            if seat is None:
                answer(_error_msg("bad_request", "spectators cannot play"))
                continue
            version = msg.get("version")
            if version is not None and (not isinstance(version, int)
                                        or isinstance(version, bool)):
                answer(_error_msg("bad_request", "version must be an integer"))
                continue
            try:
                if kind == "preview":
                    action = msg.get("action")
                    if not isinstance(action, str) or not action.strip():
                        raise ActionError("bad_request", "preview needs an action in notation")
                    answer(t.preview(seat, action))
                    continue
                if version is None:  # a retried submission would play twice
                    raise ActionError("bad_request", f"{kind}: {VERSION_NEEDED}")
                if kind == "act":
                    action = msg.get("action")
                    if not isinstance(action, str) or not action.strip():
                        raise ActionError("bad_request", "act needs an action in notation")
                    service.act(t, seat, action, version)
                else:
                    service.undo(t, seat, version)
                if rid is not None:  # (the view itself went to every socket of the game)
                    sub.push({"type": "done", "id": rid, "version": t.version})
            except ActionError as exc:
                answer(_error_msg(exc.code, exc.message, sub.view(t)))
            except StoreError as exc:
                log.error("store: %s", exc)
                answer(_error_msg("unavailable", "the game store is unavailable; "
                                  "nothing was changed", sub.view(t)))
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket closed under us
        pass
    finally:
        service.unsubscribe(t, sub)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if ws.client_state == WebSocketState.CONNECTED:  # ended by our side: say so
            with contextlib.suppress(Exception):
                await ws.close(code=1011)


def _request_id(rid: object) -> bool:
    """Whether ``rid`` may name a socket's request (echoed in its answers as ``id``)."""
    if isinstance(rid, str):
        return len(rid) <= 64
    return isinstance(rid, int) and not isinstance(rid, bool) and abs(rid) < 2 ** 53


def _error_msg(code: str, message: str, view: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if view is not None:
        out["view"] = view
    return out


def _decode(raw: str) -> dict[str, Any] | str:
    """The message as a dict, or why it is not one."""
    try:
        msg = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return "malformed JSON"
    if not isinstance(msg, dict):
        return "a message must be a JSON object"
    return msg
