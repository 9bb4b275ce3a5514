"""Live games of the server: a table is one game's state rebuilt from its log.

A :class:`Table` holds the engine state, the effective action list, the version (the
number of log entries, undos included) and the undo stack. Every change goes through
:meth:`Table.check_action` / :meth:`Table.install` (or the undo pair): the server checks a
submission on a copy of the state, commits the log entry to the store, and only then
installs the new state, so a refused or failed commit leaves the game as it was.

**Undo** follows Board Game Arena's policy: a player may take back their own last
action while it is still their decision, and never across another player's action, a
revealed hidden card or a chance event. An action can be undone only when

- it did not use chance or reveal anything hidden (the game's :func:`chance_key` is
  the same before and after it: the RNG state and, in Dominion, every deck and hand
  size, in Dominations the size of the tile supply), and
- the same player still decides after it, and the game is not over.

Consecutive such actions stack up and can be undone one by one; any other action
empties the stack.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dominari.core.errors import ConfigError, DominariError, IllegalActionError, ParseError
from dominari.core.game import GameState
from dominari.server.store import Entry, SeatRow, StoredGame

MAX_ACTION_TEXT = 500
"""The longest action notation the server accepts (characters)."""
LOG_TAIL = 150
"""Lines of the Dominations log in words sent with each view (``log_start`` says where
they begin; clients keep the earlier ones, and a replay carries the whole log)."""


class ActionError(DominariError):
    """A submission the server refuses; ``code`` names the kind for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def chance_key(state: GameState) -> Hashable:
    """What changes when an action uses chance or reveals hidden information."""
    rng = state.rng.getstate()  # type: ignore[attr-defined]
    if state.game_name == "dominion":
        players = state.players  # type: ignore[attr-defined]
        return (rng, tuple(len(ps.deck) for ps in players), tuple(len(ps.hand) for ps in players))
    return (rng, len(state.supply))  # type: ignore[attr-defined]


def new_state(game: str, config: Mapping[str, Any], data: Mapping[str, str]) -> GameState:
    """A fresh game from a stored engine config (with the event log on, for the views).

    ``data`` maps Dominations data set names to folders (the server's ``--data``)."""
    if game == "dominion":
        from dominari.dominion.engine import DominionConfig, DominionState

        return DominionState.new(DominionConfig.from_json(dict(config), log=True))
    if game == "dominations":
        from dominari.dominations.engine import DominationsConfig, DominationsState
        from dominari.sim.runner import dominations_data

        cfg = DominationsConfig.from_json(dict(config), log=True)
        return DominationsState.new(cfg, dominations_data(cfg.data))
    raise ConfigError(f"unknown game {game!r}: dominion or dominations")


@dataclass(eq=False)
class Table:
    """One live game (see the module docstring)."""

    id: str
    game: str
    config: dict[str, Any]
    spectator: str
    seats: tuple[SeatRow, ...]
    """Who plays each seat; a human seat's ``token_hash`` is its token's SHA-256."""
    state: GameState
    version: int = 0
    actions: list[str] = field(default_factory=list)
    undo_stack: list[tuple[GameState, int]] = field(default_factory=list)
    """(state before, player) of each undoable action at the end of the log."""
    subscribers: set[Any] = field(default_factory=set)
    bot_busy: bool = False
    _log: tuple[Any, int, list[str]] | None = field(default=None, repr=False)
    """(last event seen, events seen, lines) of the Dominations log in words."""

    @classmethod
    def load(cls, stored: StoredGame, data: Mapping[str, str]) -> Table:
        """Rebuild a game from its stored config and log."""
        state = new_state(stored.game, stored.config, data)
        t = cls(
            id=stored.id, game=stored.game, config=stored.config, spectator=stored.spectator,
            seats=stored.seats, state=state,
        )
        for e in stored.log:
            t.replay_entry(e)
        return t

    # -- queries -----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def current_seat(self) -> int:
        return self.state.current_player()

    def can_undo(self, seat: int) -> bool:
        return (bool(self.undo_stack) and self.undo_stack[-1][1] == seat
                and self.state.current_player() == seat)

    def record(self) -> dict[str, Any]:
        return self.state.record()

    def seat_list(self) -> list[dict[str, Any]]:
        """The public facts of the seats (never their tokens)."""
        return [{"seat": x.seat, "kind": x.kind, "bot": x.bot, "name": x.name}
                for x in self.seats]

    # -- changes -----------------------------------------------------------------------

    def check_version(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise ActionError("stale", f"the game has moved on: you saw version {version}, "
                                       f"it is now at version {self.version}")

    def check_action(self, seat: int, text: str, version: int | None
                     ) -> tuple[GameState, str]:
        """The state after ``seat`` plays ``text`` and the action's canonical notation;
        raises :class:`ActionError` (nothing changes)."""
        self.check_version(version)
        state = self.state
        if state.is_terminal():
            raise ActionError("game_over", "the game is over")
        if state.current_player() != seat:
            raise ActionError("not_your_turn",
                              f"it is not your decision: seat {state.current_player() + 1} "
                              "decides now")
        if len(text) > MAX_ACTION_TEXT:
            raise ActionError("bad_action", f"an action is at most {MAX_ACTION_TEXT} "
                                            f"characters, not {len(text)}")
        try:
            action = state.parse_action(text)
        except ParseError as exc:
            raise ActionError("bad_action", f"cannot read the action {text!r}: {exc}") from None
        after = state.copy()
        try:
            after.apply(action)
        except (IllegalActionError, ParseError) as exc:
            raise ActionError("illegal_action", f"illegal action {text!r}: {exc}") from None
        return after, state.format_action(action)

    def install(self, seat: int, text: str, after: GameState) -> None:
        """Make ``after`` (from :meth:`check_action`) the state, once its entry is stored."""
        before = self.state
        if (chance_key(before) == chance_key(after) and not after.is_terminal()
                and after.current_player() == seat):
            self.undo_stack.append((before, seat))
        else:
            self.undo_stack.clear()
        self.state = after
        self.actions.append(text)
        self.version += 1

    def check_undo(self, seat: int, version: int | None) -> None:
        self.check_version(version)
        if not self.can_undo(seat):
            why = ("the game is over" if self.finished
                   else "it is not your decision" if self.state.current_player() != seat
                   else "your last action cannot be taken back: there is none this turn, "
                        "or it drew or revealed a card or used chance, or another player "
                        "has acted since")
            raise ActionError("cannot_undo", f"nothing to undo: {why}")

    def install_undo(self) -> None:
        state, _ = self.undo_stack.pop()
        self.state = state
        self.actions.pop()
        self.version += 1

    def replay_entry(self, e: Entry) -> None:
        """Apply a stored log entry (on load)."""
        if e.kind == "undo":
            self.check_undo(e.seat, None)
            self.install_undo()
        else:
            after, text = self.check_action(e.seat, e.text, None)
            self.install(e.seat, text, after)
        if e.seq != self.version:
            raise DominariError(f"game {self.id}: log entry {e.seq} out of order")

    # -- messages ----------------------------------------------------------------------

    def log_lines(self) -> list[str] | None:
        """Dominations: the game's events in words (Dominion views carry their own log).
        Extended incrementally while the event list only grows."""
        if self.game != "dominations":
            return None
        from dominari.dominations.text import event_lines

        events = self.state.events  # type: ignore[attr-defined]
        cached = self._log
        if cached is not None:
            last, n, lines = cached
            if n <= len(events) and (n == 0 or events[n - 1] is last):
                if n < len(events):
                    lines = lines + event_lines(self.state, events[n:])  # type: ignore[arg-type]
                    self._log = (events[-1], len(events), lines)
                return lines
        lines = event_lines(self.state, events)  # type: ignore[arg-type]
        self._log = (events[-1] if events else None, len(events), lines)
        return lines

    def preview(self, seat: int, text: str) -> dict[str, Any]:
        """Dominations: what the placement ``text`` would produce, item by item, for the
        seat that decides now (nothing changes)."""
        if self.game != "dominations":
            raise ActionError("bad_request", "only Dominations placements can be previewed")
        state = self.state
        if state.is_terminal():
            raise ActionError("game_over", "the game is over")
        if state.current_player() != seat:
            raise ActionError("not_your_turn", "it is not your decision")
        if len(text) > MAX_ACTION_TEXT:
            raise ActionError("bad_action", f"an action is at most {MAX_ACTION_TEXT} "
                                            "characters")
        from dominari.dominations.data import DOMAINS
        from dominari.dominations.grid import Cell
        from dominari.dominations.production import SOURCE_NAMES
        from dominari.dominations.text import yield_line

        try:
            action = state.parse_action(text)
            yields = state.preview(action)  # type: ignore[attr-defined]
        except (IllegalActionError, ParseError) as exc:
            raise ActionError("illegal_action", f"cannot preview {text!r}: {exc}") from None
        names = state.config.player_names()  # type: ignore[attr-defined]
        items = [{"player": y.player,
                  "domain": DOMAINS[y.domain] if y.domain < len(DOMAINS) else "V",
                  "amount": y.amount, "source": SOURCE_NAMES[y.source],
                  "cell": str(Cell.from_key(y.cell)), "text": yield_line(y, names)}
                 for y in yields]
        totals: list[dict[str, int]] = [{} for _ in names]
        for it in items:
            t = totals[it["player"]]
            t[it["domain"]] = t.get(it["domain"], 0) + it["amount"]
        return {"type": "preview", "action": state.format_action(action), "items": items,
                "totals": totals, "version": self.version}

    def message(self, seat: int | None) -> dict[str, Any]:
        """The view message for ``seat`` (None: a spectator): the engine's view of what that
        seat may see, with the table's public facts."""
        s = self.state
        current = s.current_player()
        out = {
            "type": "view",
            "game_id": self.id,
            "game": self.game,
            "version": self.version,
            "seat": seat,
            "status": "finished" if s.is_terminal() else "active",
            "seats": self.seat_list(),
            "current_seat": current if current >= 0 else None,
            "bot_thinking": self.bot_busy,
            "can_undo": seat is not None and self.can_undo(seat),
            "view": s.view(seat),
        }
        if seat is not None:
            out["spectator"] = self.spectator  # for the replay link; it shows nothing secret
        lines = self.log_lines()
        if lines is not None:
            start = max(0, len(lines) - LOG_TAIL)
            out["log"] = lines[start:]
            out["log_start"] = start
        return out


def replay(table: Table, step: int, seat: int | None, data: Mapping[str, str]
           ) -> dict[str, Any]:
    """A finished game at ``step`` (0: the start) seen by ``seat`` (None: spectators), with
    the whole list of moves: once a game is over, nothing in it is secret any more."""
    if not table.finished:
        raise ActionError("in_progress", "a replay is available when the game is over")
    n = len(table.actions)
    if not 0 <= step <= n:
        raise ActionError("bad_request", f"step must be between 0 and {n}, not {step}")
    if seat is not None and not 0 <= seat < len(table.seats):
        raise ActionError("bad_request", f"seat must be between 0 and {len(table.seats) - 1}")
    state = new_state(table.game, table.config, data)
    moves = []
    at_step = state
    for i, text in enumerate(table.actions):
        if i == step:
            at_step = state.copy()
        moves.append({"seat": state.current_player(), "action": text})
        state.apply(state.parse_action(text))
    if step == n:
        at_step = state
    shown = Table(id=table.id, game=table.game, config=table.config,
                  spectator=table.spectator, seats=table.seats, state=at_step, version=step)
    msg = shown.message(seat)
    lines = shown.log_lines()
    if lines is not None:
        msg["log"], msg["log_start"] = lines, 0
    msg["type"] = "replay"
    msg["step"] = step
    msg["steps"] = n
    msg["moves"] = moves
    return msg
