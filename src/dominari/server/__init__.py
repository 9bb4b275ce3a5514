"""The game server: ``dominari serve`` (FastAPI + uvicorn, SQLAlchemy store).

Needs the ``web`` extra (``pip install 'dominari[web]'``). :func:`serve` runs a server;
:func:`dominari.server.app.create_app` builds the ASGI app for tests and embedding.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from pathlib import Path

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


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, *,
          data_sets: Mapping[str, str] | None = None, bot_workers: int = 1,
          bot_seconds: float = 1.0, log_level: str = "info") -> None:
    """Run the server until interrupted (prints its address first)."""
    try:
        import uvicorn

        from dominari.server.app import create_app
        from dominari.server.service import Settings
        from dominari.server.store import Store, redact
    except ImportError as exc:
        raise DominariError(f"the server needs the web extra ({exc.name} is missing): "
                            "pip install 'dominari[web]'") from None
    url = database_url(db)
    for name, folder in (data_sets or {}).items():
        if not Path(folder).is_dir():
            raise ConfigError(f"data set {name!r}: {folder!r} is not a folder")
    Store(url).close()  # fail here, with one line, if the database cannot be opened
    check_port(host, port)
    settings = Settings(db_url=url, data_sets=dict(data_sets or {}), bot_workers=bot_workers,
                        bot_seconds=bot_seconds)
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    print(f"Dominari server: http://{shown}:{port}/  (API docs at /docs; "
          f"store {redact(url)})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 20,
                timeout_graceful_shutdown=5)
