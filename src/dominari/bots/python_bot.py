"""Bots of your own, written in Python, named ``FILE.py:NAME`` wherever a bot is named
(``simulate``, ``tournament``, ``play``, ``replay --bots``, :func:`~dominari.bots.load_bot`,
the learning environments' opponents); not by the game server, which seats only its own
bots, nor as a search's own seat (``mcts:own=``, a rule bot).

``NAME`` is a class or a function of the file (``Outer.make`` reaches into a class), which
is called with no arguments for each bot: a new bot for every seat, and in every worker
process, since games are played apart. What it returns plays by the protocol of
:mod:`dominari.bots.base`: a ``name`` (the tables' name for it), ``reset(seed)`` before
each game and ``act(state)`` for each of its decisions.

A run checks the file as it checks a strategy file: the journal of a run and the stamp its
workers check hold its SHA-256, so a run that goes on after the file was edited is refused,
and a worker that finds other contents at the path stops the run. Only that file is
digested: a module it imports is not (keep what a bot plays by in its one file, or note
its version in the bot's name). Modules beside the file import as they would beside a
script, and each bot file gets its own, though another's folder holds modules of the same
names (where two do, the name is the later one's: import at the top of the file). A file is
loaded once per process for what it holds: an edited file is loaded anew, as a module of
its own.

>>> python_spec("bots/mine.py:Mine"), python_spec("C:/bots/mine.py:make.bot")
(('bots/mine.py', 'Mine'), ('C:/bots/mine.py', 'make.bot'))
>>> [python_spec(s) for s in ("mcts:steps=100", "mine.toml", "mcts:own=mine.py:Mine")]
[None, None, None]
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import re
import sys
import threading
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from dominari.core.errors import StrategyError

_SPEC = re.compile(r"^(?P<path>.+\.py):(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$",
                   re.IGNORECASE)
_MODULES: dict[tuple[str, str], ModuleType] = {}
"""The bot files loaded in this process, by real path and SHA-256 of their contents."""


def python_spec(spec: str) -> tuple[str, str] | None:
    """The file's path and the name in it of a Python bot's spec (``FILE.py:NAME``), or
    None for a spec of another kind (a spec that ends ``.py`` without a name is one:
    :func:`load_python_bot` says what it lacks)."""
    text = spec.strip()
    from dominari.bots.mcts import SEARCH_BOTS  # (a search's options may name files)

    if text.partition(":")[0].strip().lower() in SEARCH_BOTS:
        return None
    m = _SPEC.match(text)
    if m is None:
        if text.lower().endswith(".py"):
            return text, ""
        return None
    return m["path"].strip(), m["name"]


def load_python_bot(spec: str) -> Any:
    """A new bot from the Python bot spec ``spec`` (``FILE.py:NAME``, see the module
    docstring). :class:`StrategyError` for a file that cannot be read or run (with the
    line of the file where it failed), a name it lacks, or what it makes not being a bot;
    the caller checks that ``spec`` is one (:func:`python_spec`)."""
    parts = python_spec(spec)
    assert parts is not None
    path, name = parts
    if not name:
        raise StrategyError(f"bot {spec.strip()!r}: name the class or function of the file "
                            f"that makes the bot, as FILE.py:NAME (e.g. {path}:MyBot)")
    module = _module(path, spec.strip())
    made: Any = module
    for part in name.split("."):
        try:
            made = getattr(made, part)
        except AttributeError:
            raise StrategyError(f"bot {spec.strip()!r}: {path} has no {name!r}") from None
    if not callable(made):
        raise StrategyError(f"bot {spec.strip()!r}: {name} is a {type(made).__name__}, not a "
                            f"class or function that makes a bot")
    try:
        bot = made()
    except Exception as exc:  # the user's code: said in one line, where it failed
        raise StrategyError(f"bot {spec.strip()!r}: {name}() failed: "
                            f"{_where(exc, path)}") from exc
    missing = [what for what in ("act", "reset") if not callable(getattr(bot, what, None))]
    if missing or not isinstance(getattr(bot, "name", None), str):
        lacks = [f"{m}()" for m in missing]
        if not isinstance(getattr(bot, "name", None), str):
            lacks.insert(0, "a name (a string)")
        raise StrategyError(f"bot {spec.strip()!r}: {name}() made a {type(bot).__name__}, "
                            f"which lacks {' and '.join(lacks)}: a bot has a name, reset(seed) "
                            f"and act(state) (see dominari.bots.base)")
    return bot


def python_file(spec: str) -> str | None:
    """The file a Python bot spec plays with, if it is one (a bad one is the loader's to
    report)."""
    parts = python_spec(spec)
    if parts is None or not parts[1]:
        return None
    return parts[0] if os.path.isfile(parts[0]) else None


def _module(path: str, spec: str) -> ModuleType:
    """The module of the bot file ``path`` as it is now: loaded once per contents."""
    try:
        source = Path(path).read_bytes()
        real = os.path.realpath(path)
    except OSError as exc:
        raise StrategyError(f"bot {spec!r}: cannot read {path}: "
                            f"{exc.strerror or exc}") from None
    digest = hashlib.sha256(source).hexdigest()
    with _LOADING:  # (sys.path and sys.modules are the process's: one file at a time)
        module = _MODULES.get((real, digest))
        if module is None:
            module = _load(source, real, digest, path, spec)
            _MODULES[(real, digest)] = module
        return module


def _load(source: bytes, real: str, digest: str, path: str, spec: str) -> ModuleType:
    stem = re.sub(r"\W", "_", Path(path).stem)
    name = f"_dominari_bot_{stem}_{digest[:16]}"
    found = importlib.util.spec_from_file_location(name, real)
    if found is None or found.loader is None:  # pragma: no cover - a .py file always has one
        raise StrategyError(f"bot {spec!r}: {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(found)
    folder = os.path.dirname(real)
    _make_way(folder)
    before = set(sys.modules)
    sys.modules[name] = module  # (its classes pickle, and dataclasses find their module)
    sys.path.insert(0, folder)  # modules beside it import as beside a script, first
    try:
        code = compile(source, real, "exec")
        exec(code, module.__dict__)  # the user's own bot file, named by them
    except SyntaxError as exc:
        del sys.modules[name]
        raise StrategyError(f"bot {spec!r}: {path} line {exc.lineno}: SyntaxError: "
                            f"{exc.msg}") from None
    except Exception as exc:
        del sys.modules[name]
        raise StrategyError(f"bot {spec!r}: {path} cannot be run: {_where(exc, path)}"
                            ) from exc
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)
        if folder not in sys.path:  # (after all others: a lazy import of its own finds it)
            sys.path.append(folder)
        for mod in set(sys.modules) - before:  # its own modules, beside it
            if _beside(sys.modules.get(mod), folder):
                _HELPERS[mod] = folder
    _check_beside(module, folder, real, spec)
    return module


_LOADING = threading.RLock()
_HELPERS: dict[str, str] = {}
"""The modules that bot files imported from their own folders: by name, that folder."""


def bot_files() -> set[str]:
    """The bot files loaded in this process (real paths)."""
    return {real for real, _ in _MODULES}


def bot_folders() -> set[str]:
    """The folders of the bot files loaded in this process (real paths)."""
    return {os.path.dirname(real) for real, _ in _MODULES}


def _beside(module: object, folder: str) -> bool:
    """Whether ``module`` is a module directly in ``folder`` (``NAME.py``, or the package
    ``NAME/``), not one found deeper (an environment or a checkout kept there)."""
    file = getattr(module, "__file__", None)
    if not isinstance(file, str):
        return False
    at = os.path.dirname(os.path.realpath(file))
    if os.path.basename(file) == "__init__.py":
        at = os.path.dirname(at)
    return at == folder


def _make_way(folder: str) -> None:
    """Take out of ``sys.modules`` the modules another bot file imported from its folder
    whose names ``folder`` holds modules of: each bot file gets its own (the other bot
    keeps the one it has)."""
    for mod, other in list(_HELPERS.items()):
        top = mod.partition(".")[0]
        if other != folder and (os.path.isfile(os.path.join(folder, f"{top}.py"))
                                or os.path.isfile(os.path.join(folder, top, "__init__.py"))):
            sys.modules.pop(mod, None)
            del _HELPERS[mod]


def _check_beside(module: ModuleType, folder: str, real: str, spec: str) -> None:
    """:class:`StrategyError` where the bot file took, by the name of a module beside it,
    something from a module elsewhere (one of that name loaded before it, as Python's own
    ``json``: the bot would play with another module than its own)."""
    for value in list(vars(module).values()):
        source = value if isinstance(value, ModuleType) else sys.modules.get(
            getattr(value, "__module__", None) or "")
        if source is None or source is module:
            continue
        top = source.__name__.partition(".")[0]
        beside = os.path.join(folder, f"{top}.py")
        if os.path.isfile(beside) and beside != real and not _beside(
                sys.modules.get(top, source), folder):
            raise StrategyError(f"bot {spec!r}: it imports {top}, and {beside} is not the "
                                f"{top} it got (a module of that name was loaded before it: "
                                f"rename {top}.py)")


def _where(exc: BaseException, path: str) -> str:
    """``line N: Type: message`` of ``exc`` at its last frame in the file ``path``."""
    real = os.path.realpath(path)
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.realpath(frame.filename) == real:
            line = frame.lineno
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return f"line {line}: {text}" if line is not None else text
