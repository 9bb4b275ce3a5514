"""The package is typed (PEP 561): it ships ``py.typed``, so that mypy checks a user's
code against its hints instead of taking every name of it for ``Any``."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_ships_its_py_typed_marker() -> None:
    assert resources.files("dominari").joinpath("py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["dominari"]


def test_mypy_checks_a_users_script_against_the_hints(tmp_path: Path) -> None:
    """Before, mypy said ``module is installed, but missing library stubs or py.typed
    marker`` for every import of dominari and let anything through."""
    script = tmp_path / "mine.py"
    script.write_text("from dominari.sim import simulate\n"
                      "result = simulate(['bm', 'smithy'], 2, seed=1)\n"
                      "rate: float = result.players[0].win_rate\n"
                      "name: int = result.players[0].name\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                           str(tmp_path / "cache"), str(script)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "mine.py:4:" in errors[0], done.stdout  # the name, a str
    assert "py.typed" not in done.stdout
