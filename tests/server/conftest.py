"""Fixtures of the server tests (the helpers are in :mod:`server_client`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_client import Api, make_client


@pytest.fixture
def api() -> Iterator[Api]:
    with make_client() as client:
        yield Api(client)


@pytest.fixture
def db_file(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"
