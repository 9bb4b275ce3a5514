"""The game server: ``dominari serve`` (FastAPI + uvicorn, SQLAlchemy store).

Needs the ``web`` extra (``pip install 'dominari[web]'``). :func:`serve` runs a server;
:func:`dominari.server.app.create_app` builds the ASGI app for tests and embedding.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dominari.core.errors import ConfigError, DominariError

DATA_ENV = "DOMINARI_DATA"
"""The environment variable naming the data folder (default: ``data`` in the working
folder), where the default SQLite database lives."""


def database_url(db: str | None, data_dir: str | None = None) -> str:
    """``db``, else ``$DOMINARI_DB_URL``, else SQLite in the data folder."""
    from dominari.server.store import DB_ENV, default_url

    if db:
        return db
    env = os.environ.get(DB_ENV)
    if env:
        return env
    return default_url(data_dir or os.environ.get(DATA_ENV) or "data")


def check_port(host: str, port: int) -> None:
    """Raise :class:`DominariError` when ``host:port`` cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise DominariError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            raise DominariError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def ws_protocol(compression: bool = True) -> type[Any]:
    """uvicorn's WebSocket protocol (websockets, sans-I/O) with this server's
    permessage-deflate. With ``compression``, messages to a client are compressed with
    deflate's whole 32 KiB window (uvicorn's default window, 4 KiB, is smaller than one
    view) at level 4: a view differs little from the one before it on the same socket, so
    with that one in the window a view of 8-15 KB compresses to a few hundred bytes, for
    less than half the CPU of uvicorn's setting. Each socket keeps about 144 KiB of
    compression state (uvicorn's: 32 KiB); a client that asks for a smaller window gets
    it. Without ``compression`` nothing is compressed (cheapest for clients on the same
    machine)."""
    import logging

    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.server import ServerProtocol

    class Protocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            extensions = [ServerPerMessageDeflateFactory(
                client_max_window_bits=12, compress_settings={"level": 4, "memLevel": 5},
            )] if compression else []
            self.conn = ServerProtocol(extensions=extensions, max_size=self.config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))

    return Protocol


def default_bot_workers() -> int:
    """The server's bot worker processes unless told: one fewer than the CPUs this process
    may use (the other serves the event loop and the store), at least one.

    >>> default_bot_workers() >= 1
    True
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not on every system)
        cpus = os.cpu_count() or 1
    return max(1, cpus - 1)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, *,
          data_sets: Mapping[str, str] | None = None, bot_workers: int | None = None,
          bot_seconds: float = 1.0, log_level: str = "info",
          ws_compression: bool = True, max_bot_games: int = 50) -> None:
    """Run the server until interrupted (prints its address first). ``bot_workers``: its
    bot worker processes (None: :func:`default_bot_workers`). ``ws_compression``:
    permessage-deflate on WebSockets (see :func:`ws_protocol`); ``max_bot_games``: see
    :attr:`~dominari.server.service.Settings.max_bot_games` (a whole number, 0 or more)."""
    if isinstance(max_bot_games, bool) or not isinstance(max_bot_games, int) \
            or max_bot_games < 0:
        raise ConfigError(f"max_bot_games is a whole number of 0 or more (0: no limit), not "
                          f"{max_bot_games!r}")
    try:
        import uvicorn

        from dominari.server.app import create_app
        from dominari.server.service import Settings
        from dominari.server.store import Store, redact
    except ImportError as exc:
        raise DominariError(f"the server needs the web extra ({exc.name} is missing): "
                            "pip install 'dominari[web]'") from None
    sets = {}
    for name, folder in (data_sets or {}).items():
        if not Path(folder).is_dir():
            raise ConfigError(f"data set {name!r}: {folder!r} is not a folder")
        try:  # a broken set is refused now, not when a game asks for it
            from dominari.sim.runner import dominations_data

            dominations_data(str(Path(folder).resolve()))
        except DominariError as exc:
            raise ConfigError(f"data set {name!r}: {exc}") from None
        sets[name] = str(Path(folder).resolve())  # the same folder from any working folder
    check_port(host, port)  # first: a server that cannot listen makes no data folder or file
    url = database_url(db)
    Store(url).close()  # fail here, with one line, if the database cannot be opened
    workers = default_bot_workers() if bot_workers is None else bot_workers
    settings = Settings(db_url=url, data_sets=sets, bot_workers=workers,
                        bot_seconds=bot_seconds, max_bot_games=max_bot_games)
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    print(f"Dominari server: http://{shown}:{port}/  (API docs at /docs; "
          f"store {redact(url)}; {workers} bot worker{'s' if workers != 1 else ''})",
          flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 20,
                ws=ws_protocol(ws_compression), timeout_graceful_shutdown=5)
