"""The browser app: plain ES modules, SVG and CSS served by the game server at ``/``.

No build step: ``static/`` is served as it is (``/static/…``) and ``static/index.html`` is
the one page; its routes live in the URL fragment (``#/play/GAME/TOKEN``), which browsers
never send to the server.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"
"""The app's files."""
INDEX = STATIC / "index.html"
"""The page served at ``/``."""
