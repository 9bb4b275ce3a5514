"""Fixtures of the browser tests: a real server (uvicorn in a thread, SQLite in a temporary
folder, bots thinking in threads) and Debian's Chromium driven by pytest-playwright.

``make test`` installs Chromium with apt when it is missing (Playwright cannot download
its own browsers here); set ``DOMINARI_CHROMIUM`` to use another binary. Screenshots of
key screens go to ``test-artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from webserver import LiveServer, watch_policy

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"


def chromium_path() -> str:
    path = os.environ.get("DOMINARI_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if not path:
        pytest.fail("Chromium is not installed: run 'make test' (it installs Debian's "
                    "chromium with apt) or set DOMINARI_CHROMIUM to a Chromium binary")
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, headless, with the flags this closed network needs."""
    return {
        **browser_type_launch_args,
        "executable_path": chromium_path(),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"],
    }


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("web-server")
    server = LiveServer(f"sqlite:///{folder / 'games.db'}")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots of key screens are saved (kept after the run)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _within_policy(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a test whose ``page`` was refused something by the content policy."""
    if "page" not in request.fixturenames:
        yield
        return
    refused: list[str] = []
    watch_policy(request.getfixturevalue("page"), refused)
    yield
    assert not refused, f"refused by the content policy: {refused}"


@pytest.fixture
def checked_page(browser: Browser) -> Iterator[Page]:
    """A page of its own context (1280×860), which fails the test if a script on it
    raised an error that nothing caught, or the content policy refused it something."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    watch_policy(p, errors)
    yield p
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
