"""Dominations: Road to Civilization — component data, board, growth, cities.

Modules, one per concept: :mod:`grid` (triangular geometry and its notation),
:mod:`data` (validated component files), :mod:`board` (tiles around the cradle,
legal placements, loci), :mod:`production` (what a placement produces, itemised),
:mod:`rules` (rule options), :mod:`engine` (game state), :mod:`notation` (action
text), :mod:`render` (SVG).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dominari.dominations.engine import DominationsConfig, DominationsState
    from dominari.dominations.rules import Rules

__all__ = ["DominationsConfig", "DominationsState", "Rules"]


def __getattr__(name: str) -> Any:
    """``DominationsState``, ``DominationsConfig`` and ``Rules``, imported when first asked
    for (the engine is heavy; its submodules alone are not)."""
    if name in ("DominationsConfig", "DominationsState"):
        from dominari.dominations import engine

        return getattr(engine, name)
    if name == "Rules":
        from dominari.dominations.rules import Rules

        return Rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
