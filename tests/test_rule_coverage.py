"""Spec coverage: which rule ids the tests name in their ``rule`` markers.

Every rule of both specs (``N-…`` for Dominion, ``D-…`` for Dominations) must be named by a
test, and every id a marker names must exist in a spec (no typos, no stale ids).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SPECS = {
    "dominion": Path("shared") / "rules" / "dominion.md",
    "dominations": Path("shared") / "rules" / "dominations.md",
}
RULE_ID = re.compile(r"\b[ND]-[A-Z0-9-]*[A-Z0-9]")
MARKER = re.compile(r"\brule\(([^)]*)\)")

DOMINATIONS_BUILT = re.compile(r"^D-[A-Z]+-\d+$")
"""Every Dominations rule: the whole game is built (issues 3 to 5)."""


def _spec(name: str) -> Path | None:
    # The specs live in shared/ beside the repository (CI clones it as <repo>/../shared),
    # or in a shared/ folder of any directory above the tests.
    for d in (HERE, *HERE.parents):
        if (d / SPECS[name]).is_file():
            return d / SPECS[name]
    return None


def _rules(text: str, prefix: str) -> set[str]:
    ids = {i for i in RULE_ID.findall(text) if i.startswith(prefix)}
    # Section tags such as N-TURN group the rules N-TURN-1... and are not rules themselves.
    return {i for i in ids if not any(j.startswith(i + "-") for j in ids)}


def _named() -> set[str]:
    named: set[str] = set()
    for f in HERE.rglob("test_*.py"):
        for args in MARKER.findall(f.read_text(encoding="utf-8")):
            named.update(RULE_ID.findall(args))
    return named


def _load(name: str) -> str:
    spec = _spec(name)
    if spec is None:
        pytest.skip(f"{SPECS[name]} not found above {HERE}")
    return spec.read_text(encoding="utf-8")


def test_every_dominion_rule_is_covered() -> None:
    wanted = _rules(_load("dominion"), "N-")
    assert wanted, "no N- rule ids in the Dominion spec"
    missing = sorted(wanted - _named())
    assert not missing, f"spec rules named by no test's rule marker: {', '.join(missing)}"


def test_every_built_dominations_rule_is_covered() -> None:
    built = {i for i in _rules(_load("dominations"), "D-") if DOMINATIONS_BUILT.match(i)}
    assert len(built) > 20, "the D- ids of the built parts were not found in the spec"
    missing = sorted(built - _named())
    assert not missing, f"Dominations rules named by no test's rule marker: {', '.join(missing)}"


def test_every_named_rule_exists() -> None:
    known = _rules(_load("dominion"), "N-") | _rules(_load("dominations"), "D-")
    unknown = sorted(_named() - known)
    assert not unknown, f"rule markers name ids that are in no spec: {', '.join(unknown)}"
