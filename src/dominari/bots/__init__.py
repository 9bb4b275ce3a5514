"""Bots: a random bot and strategy bots defined by TOML files.

>>> BUILTIN_BOTS
('random', 'bm', 'bmu', 'smithy', 'witch')
>>> load_bot("bmu").name
'BMU'
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from dominari.bots.base import Bot
from dominari.bots.random_bot import RandomBot
from dominari.bots.strategy import (
    Strategy,
    StrategyBot,
    load_strategy,
    parse_strategy_text,
)
from dominari.core.errors import StrategyError

BUILTIN_STRATEGIES: tuple[str, ...] = ("bm", "bmu", "smithy", "witch")
BUILTIN_BOTS: tuple[str, ...] = ("random", *BUILTIN_STRATEGIES)


@cache
def builtin_strategy(name: str) -> Strategy:
    """The built-in strategy ``name`` (one of :data:`BUILTIN_STRATEGIES`)."""
    if name not in BUILTIN_STRATEGIES:
        raise StrategyError(f"no built-in strategy {name!r}; known: "
                            f"{', '.join(BUILTIN_STRATEGIES)}")
    res = resources.files("dominari.bots").joinpath("strategies", f"{name}.toml")
    return parse_strategy_text(res.read_text(encoding="utf-8"), f"{name}.toml", name)


def load_bot(spec: str) -> Bot:
    """A new bot from a built-in name (``random``, ``bm``, ``bmu``, ``smithy``,
    ``witch``; any case) or the path of a ``.toml`` strategy file."""
    key = spec.strip().lower()
    if key == "random":
        return RandomBot()
    if key in BUILTIN_STRATEGIES:
        return StrategyBot(builtin_strategy(key))
    if spec.strip().lower().endswith(".toml") or Path(spec).is_file():
        return load_strategy(spec.strip())
    raise StrategyError(f"unknown bot {spec!r}: use one of {', '.join(BUILTIN_BOTS)} "
                        "or the path of a .toml strategy file")


__all__ = [
    "BUILTIN_BOTS",
    "BUILTIN_STRATEGIES",
    "Bot",
    "RandomBot",
    "Strategy",
    "StrategyBot",
    "builtin_strategy",
    "load_bot",
    "load_strategy",
]
