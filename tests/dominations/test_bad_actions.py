"""Any action a client may send, however malformed, is either legal or refused with one
clear error, and a refused action changes nothing (the server relies on this)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.bots.dominations_random import DominationsRandomBot
from dominari.core.errors import DominariError
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominations.notation import FIELD_COUNTS as FIELDS
from dominari.dominations.notation import PLACE, REACTIVATE, Action
from dominari.dominations.rules import Rules


def positions() -> list[DominationsState]:
    """States at many kinds of decision: drafts, mulligans, every phase, ages 1–3."""
    out = []
    for seed, variant in ((1, "retail"), (2, "prototype"), (3, "retail")):
        s = DominationsState.new(DominationsConfig(players=3, seed=seed,
                                                   rules=Rules(variant=variant)))
        bot = DominationsRandomBot(seed=seed)
        k = 0
        while not s.is_terminal():
            if k % 37 == 0 or s.phase_name not in ("growth", "build", "develop"):
                out.append(s.copy())
            s.apply(bot.act(s))
            k += 1
    return out


POSITIONS = positions()
small = st.integers(-3, 40) | st.integers(-10**6, 10**6)


def snapshot(s: DominationsState) -> str:
    return json.dumps([s.view(None), s.stack.__repr__(), s.supply, s.history.__len__()],
                      sort_keys=True, default=str)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.integers(-1, 20), small, small, small, small)
def test_any_action_is_applied_or_refused_cleanly(i: int, kind: int, a: int, b: int, c: int,
                                                   d: int) -> None:
    s = POSITIONS[i].copy()
    action = Action(kind, a, b, c, d)
    if not 0 <= kind < len(FIELDS):
        before = snapshot(s)
        with pytest.raises(DominariError, match="unknown action kind"):
            s.apply(action)
        assert snapshot(s) == before
        return
    used = FIELDS[kind]  # the engine ignores the fields a kind does not use
    legal = Action(*action[:used + 1]) in s.legal_actions()
    before = snapshot(s)
    try:
        s.apply(action)
    except DominariError:
        assert not legal
        assert snapshot(s) == before  # nothing half done
    else:
        # Accepted: it must have been legal (or a placement or reactivation whose link the
        # engine filled in), and the history holds one spelling of it.
        assert legal or kind in (PLACE, REACTIVATE)
        assert s.parse_action(s.format_action(s.history[-1])) == s.history[-1]
