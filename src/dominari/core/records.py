"""Game records: ``{format, version, game, config (with seed), actions, outcome}`` in JSON.

A record is a seed plus the action list in notation; replaying it must reach the
recorded outcome. These helpers hold what every game's ``from_record`` shares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dominari.core.errors import ConfigError, IllegalActionError, ParseError, RecordError
from dominari.core.game import GameState

RECORD_FORMAT = "dominari-record"
RECORD_VERSION = 1
DEALT_AGAIN = ("this state draws other random numbers than its seed's (a copy given a "
               "generator, or a determinize world: a search's), so a record of it would "
               "not replay: record the game itself")
"""Why ``record()`` refuses a state dealt again (``dealt_again``)."""


def check_header(record: Any, game: str) -> dict[str, Any]:
    """The record as a dict, once its format, version and game are right.

    >>> check_header({"format": "dominari-record", "version": 1, "game": "chess"}, "dominion")
    Traceback (most recent call last):
    ...
    dominari.core.errors.RecordError: this is a record of 'chess', not dominion
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a Dominari record (format is {record.get('format')!r})")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}")
    if record.get("game") != game:
        raise RecordError(f"this is a record of {record.get('game')!r}, not {game}")
    return record


def replay(state: GameState, record: dict[str, Any], upto: int | None,
           parse: Callable[[str], Any], each: Callable[[int, Any], None] | None = None) -> None:
    """Apply the record's actions (the first ``upto``) and check the recorded outcome;
    ``each(i, action)``, where given, sees action ``i`` (from 0) before it is applied."""
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("record 'actions' must be a list of strings")
    if upto is not None and (type(upto) is not int or upto < 0):  # -1 would slice
        raise ConfigError(f"upto must be a number of actions, 0 or more, not {upto!r}")
    for i, text in enumerate(actions if upto is None else actions[:upto]):
        try:
            action = parse(text)
            if each is not None:
                each(i, action)
            state.apply(action)
        except (ParseError, IllegalActionError) as exc:
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {exc}") from None
    expected = record.get("outcome")
    if upto is None and expected is not None:
        got = state.outcome()
        recorded = expected.get("scores") if isinstance(expected, dict) else expected
        if got is None or recorded != list(got.scores):
            raise RecordError(
                "the replayed game does not reach the recorded outcome "
                f"(recorded scores {recorded!r}, "
                f"replayed {list(got.scores) if got else 'an unfinished game'})"
            )
