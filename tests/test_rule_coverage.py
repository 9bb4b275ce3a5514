"""Every rule id of the Dominion spec is named by some test's ``rule`` marker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SPEC = Path("shared") / "rules" / "dominion.md"
RULE_ID = re.compile(r"\bN-[A-Z0-9-]*[A-Z0-9]")
MARKER = re.compile(r"\brule\(([^)]*)\)")


def _spec() -> Path | None:
    # The spec lives in shared/ beside the repository (CI clones it as <repo>/../shared),
    # or in a shared/ folder of any directory above the tests.
    for d in (HERE, *HERE.parents):
        if (d / SPEC).is_file():
            return d / SPEC
    return None


def test_every_spec_rule_is_covered() -> None:
    spec = _spec()
    if spec is None:
        pytest.skip(f"{SPEC} not found above {HERE}")
    ids = set(RULE_ID.findall(spec.read_text(encoding="utf-8")))
    # Section tags such as N-TURN group the rules N-TURN-1... and are not rules themselves.
    wanted = {i for i in ids if not any(j.startswith(i + "-") for j in ids)}
    assert wanted, f"no N- rule ids in {spec}"
    named: set[str] = set()
    for f in HERE.rglob("test_*.py"):
        for args in MARKER.findall(f.read_text(encoding="utf-8")):
            named.update(RULE_ID.findall(args))
    missing = sorted(wanted - named)
    assert not missing, f"spec rules named by no test's rule marker: {', '.join(missing)}"
