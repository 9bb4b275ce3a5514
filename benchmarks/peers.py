"""Benchmarks of peer Dominion engines, each run in its own throwaway virtual environment.

Currently: pyminion 0.4.0 (https://pypi.org/project/pyminion/), Big Money vs Big Money,
2 players, on the second-edition First Game kingdom (pyminion has no first-edition
Woodcutter and defines no "first game" kingdom of its own).

The peer runs in a subprocess with its own interpreter, so nothing it does to global
state (pyminion sets the root logger to INFO at import) can leak into this process.

Usage as a script: ``python benchmarks/peers.py [GAMES]`` prints the result dict.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

PYMINION_VERSION = "0.4.0"

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
PEER_SCRIPTS = BENCH_DIR / "peer_scripts"

INSTALL_TIMEOUT_S = 900.0
RUN_TIMEOUT_S = 1800.0


def _venv_python(venv_dir: Path) -> Path:
    if os.name == "nt":
        return venv_dir / "Scripts" / "python.exe"
    return venv_dir / "bin" / "python"


def _clean_env() -> dict[str, str]:
    """Environment for peer subprocesses: no PYTHONPATH leaking our own sources in."""
    env = dict(os.environ)
    for key in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"):
        env.pop(key, None)
    return env


def _one_line(text: str, limit: int = 200) -> str:
    """Last non-empty line of ``text``, shortened to ``limit`` characters."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[-1] if lines else "no output"
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _installed_version(python: Path, dist: str) -> str | None:
    """Version of ``dist`` installed for interpreter ``python``, or None."""
    if not python.exists():
        return None
    code = f"import importlib.metadata as m; print(m.version({dist!r}))"
    try:
        proc = subprocess.run(
            [str(python), "-c", code],
            capture_output=True,
            text=True,
            timeout=60,
            env=_clean_env(),
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.strip() or None


def _ensure_venv(venv_dir: Path, requirement: str, dist: str, version: str) -> str | None:
    """Make ``venv_dir`` a venv with ``requirement`` installed. Returns an error line or None."""
    python = _venv_python(venv_dir)
    if _installed_version(python, dist) == version:
        return None
    try:
        if not python.exists():
            venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
        proc = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", requirement],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
            env=_clean_env(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"pip install {requirement} timed out after {INSTALL_TIMEOUT_S:.0f}s"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"could not create venv at {venv_dir}: {_one_line(str(exc))}"
    if proc.returncode != 0:
        return f"pip install {requirement} failed: {_one_line(proc.stderr or proc.stdout)}"
    if _installed_version(python, dist) != version:
        return f"{dist}=={version} not importable in {venv_dir} after install"
    return None


def _run_json(python: Path, script: Path, args: list[str]) -> dict[str, Any] | str:
    """Run ``script`` and parse the JSON object on its last stdout line (or return an error)."""
    try:
        proc = subprocess.run(
            [str(python), str(script), *args],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            env=_clean_env(),
            cwd=str(script.parent),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"{script.name} timed out after {RUN_TIMEOUT_S:.0f}s"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"could not run {script.name}: {_one_line(str(exc))}"
    if proc.returncode != 0:
        return f"{script.name} exited {proc.returncode}: {_one_line(proc.stderr or proc.stdout)}"
    try:
        result = json.loads(_one_line(proc.stdout, limit=10_000))
    except json.JSONDecodeError:
        return f"{script.name} printed no JSON: {_one_line(proc.stdout)}"
    if not isinstance(result, dict):
        return f"{script.name} printed JSON that is not an object"
    return result


def measure_pyminion(
    games: int, *, venv_dir: Path = Path(".bench-venv/pyminion")
) -> dict[str, Any]:
    """Play ``games`` Big Money mirror games in pyminion 0.4.0 and time them.

    ``venv_dir`` (relative paths are taken from the repository root) is created and
    ``pyminion==0.4.0`` installed into it unless that is already the case.

    Returns ``{"games", "seconds", "games_per_s", "version"}``, or ``{"skipped": reason}``
    when anything goes wrong. Never raises.
    """
    try:
        if games < 1:
            return {"skipped": f"games must be >= 1, got {games}"}
        if not venv_dir.is_absolute():
            venv_dir = REPO_ROOT / venv_dir
        error = _ensure_venv(
            venv_dir, f"pyminion=={PYMINION_VERSION}", "pyminion", PYMINION_VERSION
        )
        if error is not None:
            return {"skipped": error}
        result = _run_json(_venv_python(venv_dir), PEER_SCRIPTS / "pyminion_bm.py", [str(games)])
        if isinstance(result, str):
            return {"skipped": result}
        expected = {"games", "seconds", "games_per_s", "version"}
        if not expected <= result.keys():
            return {"skipped": f"pyminion_bm.py output lacks {sorted(expected - result.keys())}"}
        return result
    except Exception as exc:  # the harness must never take the benchmark run down
        return {"skipped": f"unexpected {type(exc).__name__}: {_one_line(str(exc))}"}


def main(argv: list[str]) -> int:
    games = int(argv[1]) if len(argv) > 1 else 200
    print(measure_pyminion(games))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
