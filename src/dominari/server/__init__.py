"""The game server: ``dominari serve`` (FastAPI + uvicorn, SQLAlchemy store).

Needs the ``web`` extra (``pip install 'dominari[web]'``). :func:`serve` runs a server;
:func:`dominari.server.app.create_app` builds the ASGI app for tests and embedding.
"""

from __future__ import annotations

import copy
import os
import signal
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


def hold_store(url: str) -> int | None:
    """Hold the SQLite database of ``url`` for this server (an exclusive ``flock`` of the
    file beside it, ``dominari.db.server-lock``, holding this process's id), released
    when the process ends; None where there is nothing to hold (another database, one in
    memory, a system without locks). A :class:`DominariError` names the server that holds
    it: two servers on one store loaded the same games, and the one that stored a move
    second retried it for good while its players were told to try again (the server
    host's audit)."""
    from dominari.sim.records import BUSY, lock_file

    database = _sqlite_file(url)
    if not database:
        return None
    path = Path(f"{database}.server-lock")
    try:
        held = lock_file(path, create=True)
    except OSError:
        return None  # (a folder it cannot write in: the store would have said so)
    if held is BUSY:
        try:
            pid = path.read_text(encoding="utf-8").strip()
        except OSError:
            pid = ""
        by = f" (process {pid})" if pid.isdigit() else ""
        raise DominariError(f"the store {database} is in use by another server{by}: "
                            f"stop it, or give this one another data folder (${DATA_ENV}) "
                            "or database (--db)")
    if not isinstance(held, int):
        return None
    os.ftruncate(held, 0)
    os.write(held, f"{os.getpid()}\n".encode())
    return held


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
    fresh = _store_words(url)
    Store(url).close()  # fail here, with one line, if the database cannot be opened
    held = hold_store(url)  # one server a store
    workers = default_bot_workers() if bot_workers is None else bot_workers
    settings = Settings(db_url=url, data_sets=sets, bot_workers=workers,
                        bot_seconds=bot_seconds, max_bot_games=max_bot_games)
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    offered = f"; data sets {', '.join(sorted(sets))}" if sets else ""
    print(f"Dominari server: http://{shown}:{port}/  (API docs at /docs; "
          f"store {redact(url)}{fresh}; {workers} bot worker{'s' if workers != 1 else ''}"
          f"{offered})", flush=True)
    if host in ("0.0.0.0", "::"):
        print(f"  listening on every address of this machine: players open "
              f"http://<this machine's address>:{port}/", flush=True)
    cpus = os.cpu_count() or 1
    if workers > cpus:
        print(f"  note: {workers} bot workers on {cpus} CPUs: searches then share the CPUs "
              "and each thinks slower (--bot-workers)", flush=True)
    interrupted: list[int] = []

    def on_ctrl_c(signum: int, frame: Any) -> None:  # (uvicorn raises it again once it
        interrupted.append(signum)  # has stopped, and takes the KeyboardInterrupt itself)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_ctrl_c) if _main_thread() else None
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 20,
                    ws=ws_protocol(ws_compression), timeout_graceful_shutdown=5,
                    log_config=log_config(log_level))
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if held is not None:
            os.close(held)
    if interrupted:  # stopped by Ctrl-C, gracefully: said as any command's (status 130)
        raise KeyboardInterrupt


def _sqlite_file(url: str) -> str | None:
    """The file of the SQLite database of ``url``; ``""`` for one in memory, None for
    another database (or a URL the store refuses, saying why)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    return "" if parsed.database in (None, ":memory:") else parsed.database


def _store_words(url: str) -> str:
    """What the banner says of a store that starts empty: a new SQLite file (a mistyped
    data folder is made silently, and its lobby is empty), or one in memory."""
    database = _sqlite_file(url)
    if database is None:
        return ""
    if not database:
        return " (in memory: nothing is kept when the server stops)"
    return "" if Path(database).exists() else " (new: no games yet)"


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's logging, each line with its time, and the server's own lines with their
    time and level, at ``level``: under ``nohup … > log`` nothing said when anything
    happened (the server host's audit)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    for formatter in config["formatters"].values():
        formatter["fmt"] = "%(asctime)s " + formatter["fmt"]
        formatter["datefmt"] = "%Y-%m-%d %H:%M:%S"
    config["loggers"]["dominari"] = {"handlers": ["default"], "level": level.upper(),
                                     "propagate": False}
    return config
