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

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dominari.core.errors import ConfigError, DominariError, IllegalActionError, ParseError
from dominari.core.game import GameState
from dominari.server.store import Entry, SeatRow, StoredGame

MAX_ACTION_TEXT = 500
"""The longest action notation the server accepts (characters)."""
LOG_TAIL = 150
"""Lines of the log in words sent with the first view a client gets (``log_start`` says
where they begin; the client fetches the earlier ones if it wants them). Every later view
on the same socket carries only the lines that changed since the last one it got, and a
replay carries the whole log."""


class ActionError(DominariError):
    """A submission the server refuses; ``code`` names the kind for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def nth(seat: int) -> str:
    """A seat counted from 0, as the API's JSON counts it, in words counted from 1, so
    that a message reads the same to a person and to a client.

    >>> nth(0), nth(1), nth(2), nth(3)
    ('1st', '2nd', '3rd', '4th')
    """
    return f"{seat + 1}{('st', 'nd', 'rd')[seat] if seat < 3 else 'th'}"


def chance_key(state: GameState) -> Hashable:
    """What changes when an action uses chance or reveals hidden information."""
    rng = state.rng.getstate()  # type: ignore[attr-defined]
    if state.game_name == "dominion":
        players = state.players  # type: ignore[attr-defined]
        return (rng, tuple(len(ps.deck) for ps in players), tuple(len(ps.hand) for ps in players))
    return (rng, len(state.supply))  # type: ignore[attr-defined]


def new_state(game: str, config: Mapping[str, Any], data: Mapping[str, str]) -> GameState:
    """A fresh game from a stored engine config (with the event log on, for the views).

    ``data`` maps Dominations data set names to folders (the server's ``--data``): a game
    stored with a set's name (``data_set``) plays with the folder the server has for that
    name now, and its files must be those the game was created with (``data_digest``).
    ``bot_seconds`` and ``bot_settings``, the search bots' time per decision and settings
    the game was created with, and ``bot_pause``, are the server's, not the engine's."""
    config = {k: v for k, v in config.items()
              if k not in ("bot_seconds", "bot_settings", "bot_pause")}
    if game == "dominion":
        from dominari.dominion.engine import DominionConfig, DominionState

        return DominionState.new(DominionConfig.from_json(config, log=True))
    if game == "dominations":
        from dominari.dominations.engine import DominationsConfig, DominationsState
        from dominari.sim.runner import dominations_data

        name = config.pop("data_set", None)
        if name is not None:
            if name not in data:
                raise ConfigError(f"this game plays with the data set {name!r}, which this "
                                  f"server does not have (start it with --data {name}=DIR)")
            config["data"] = data[name]
        cfg = DominationsConfig.from_json(config, log=True)
        state = DominationsState.new(cfg, dominations_data(cfg.data))
        digest = config.get("data_digest")
        if digest is not None and digest != state.data_digest():
            where = (f"the data set {name!r}" if name is not None
                     else f"the data folder {cfg.data!r}" if cfg.data is not None
                     else "the built-in data (of another version of Dominari)")
            raise ConfigError(f"{where} has changed since this game was created (its files "
                              f"now digest to {state.data_digest()}, not {digest}): the game "
                              f"would play otherwise")
        return state
    raise ConfigError(f"unknown game {game!r}: dominion or dominations")


def seat_facts(game: str, seats: Iterable[SeatRow],
               state: Callable[[], GameState] | None) -> list[dict[str, Any]]:
    """The public facts of ``seats`` (see :meth:`Table.seat_list`); ``state`` gives a
    state of the game (any: the kingdom is the game's from its start), asked only for a
    Dominion rule bot that buys Kingdom cards (None: such a seat's ``missing_cards`` are
    left out). It may raise what making the state raises."""
    from dominari.server.bots import buys_kingdom_cards, missing_cards

    made: GameState | None = None
    out = []
    for x in seats:
        facts: dict[str, Any] = {"seat": x.seat, "kind": x.kind, "bot": x.bot,
                                 "name": x.name}
        if x.bot and state is not None and buys_kingdom_cards(game, x.bot):
            if made is None:
                made = state()
            lacking = missing_cards(game, x.bot, made)
            if lacking:
                facts["missing_cards"] = lacking
        out.append(facts)
    return out


class LogCursor:
    """What one client holds of a table's log in words: the lines as of the last view
    message it was sent (None: no message yet). See :meth:`Table.message`."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: list[str] | None = None


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
    owner: str | None = None
    """The address of the client that made the game (its next games keep it; not stored:
    None for a game read back from the store). Its bots' decisions share the workers
    with other clients' games in turn (:class:`~dominari.server.service.WorkerGate`)."""
    bot_busy: bool = False
    bot_waiting: bool = False
    """The bot's decision waits for a free worker (other games' bots hold them all): the
    views say so (``bot_waiting``), so that a player does not take the wait for thought."""
    bot_crashes: int = 0
    """Workers lost, or its move not stored, in a row while this game's bot decided
    (reset by a stored move)."""
    bot_answer: tuple[int, int, str] | None = None
    """(version, seat, action) of a bot's move that the store could not take: tried
    again as it is, not decided again, while the game is still at that version."""
    again: tuple[str, str] | None = None
    """The id and spectator id of the next game, once a player of this finished one asked
    to play again (the views say so: ``again``)."""
    seats_failed: dict[str, float] = field(default_factory=dict, repr=False)
    """The token hashes lately found in no seat, even as the store has them, and when
    (``time.monotonic()``; see :meth:`~dominari.server.service.GameService.seat_of`)."""
    _log: tuple[Any, int, list[str]] | None = field(default=None, repr=False)
    """(last event seen, events seen, lines) of the log in words. A list of lines is
    never changed once made: a longer log is a new list."""
    _log_parent: list[str] | None = field(default=None, repr=False)
    """The lines the current ones extend (a prefix of them), if they were extended."""
    _views: tuple[int, bool, bool, tuple[str, str] | None,
                  dict[int | None, dict[str, Any]]] | None = field(default=None, repr=False)
    """(version, bot_busy, bot_waiting, again, messages without the log by seat) of the
    current state."""
    _seat_list: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """The public facts of the seats (see :meth:`seat_list`), made once."""

    def __post_init__(self) -> None:
        self._seat_list.extend(seat_facts(self.game, self.seats, lambda: self.state))

    @classmethod
    def load(cls, stored: StoredGame, data: Mapping[str, str]) -> Table:
        """Rebuild a game from its stored config and log."""
        state = new_state(stored.game, stored.config, data)
        t = cls(
            id=stored.id, game=stored.game, config=stored.config, spectator=stored.spectator,
            seats=stored.seats, state=state, again=stored.again,
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
        """The public facts of the seats (never their tokens): ``seat``, ``kind``, ``bot``
        and ``name``, and for a Dominion rule bot that buys Kingdom cards this game's
        kingdom lacks, those cards (``missing_cards``, only then): it plays without them
        (see :func:`dominari.server.bots.missing_cards`)."""
        return [dict(x) for x in self._seat_list]

    # -- changes -----------------------------------------------------------------------

    def check_version(self, version: int | None) -> None:
        """Refuse a submission answering another version than the game's: ``stale`` for an
        older one, ``bad_request`` for one the game has not reached (no view had it)."""
        if version is not None and version > self.version:
            raise ActionError("bad_request", f"there is no version {version} yet: the game "
                                             f"is at version {self.version}")
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
        current = state.current_player()
        if current != seat:
            raise ActionError("not_your_turn",
                              f"it is not your decision: {self._seat_list[current]['name']} "
                              f"decides now (the {nth(current)} seat, {current} in the views)")
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
        if (not after.is_terminal() and after.current_player() == seat
                and chance_key(before) == chance_key(after)):
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

    def _events(self) -> list[Any]:
        if self.game == "dominations":
            return self.state.events  # type: ignore[attr-defined, no-any-return]
        return self.state.log or []  # type: ignore[attr-defined]

    def _lines_of(self, start: int) -> list[str]:
        """The log in words of the events from ``start`` on."""
        if self.game == "dominations":
            from dominari.dominations.text import event_lines

            return event_lines(self.state, self._events()[start:])  # type: ignore[arg-type]
        from dominari.dominion.render import log_lines

        return log_lines(self.state, start)  # type: ignore[arg-type]

    def log_lines(self) -> list[str]:
        """The game's events in words (every line is public). Extended incrementally while
        the event list only grows."""
        events = self._events()
        cached = self._log
        if cached is not None:
            last, n, lines = cached
            if n <= len(events) and (n == 0 or events[n - 1] is last):
                if n < len(events):
                    self._log_parent = lines
                    lines = lines + self._lines_of(n)
                    self._log = (events[-1], len(events), lines)
                return lines
        lines = self._lines_of(0)
        self._log = (events[-1] if events else None, len(events), lines)
        self._log_parent = None
        return lines

    def log_from(self, known: list[str] | None) -> tuple[int, list[str]]:
        """``(start, lines)``: the whole log now, and the first line that a client holding
        ``known`` (the whole log as of an earlier call) lacks or has wrong (after an undo,
        ``start`` may be ``len(lines)``: the client drops its lines from there). A client
        that holds nothing gets the last :data:`LOG_TAIL` lines."""
        lines = self.log_lines()
        if known is None:
            return max(0, len(lines) - LOG_TAIL), lines
        if known is lines or known is self._log_parent:
            return len(known), lines
        n = min(len(known), len(lines))
        if lines[:n] == known[:n]:
            return n, lines
        return next(i for i in range(n) if lines[i] != known[i]), lines

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

        try:  # the codes of a move: unreadable text is a bad action, a refused one illegal
            action = state.parse_action(text)
        except ParseError as exc:
            raise ActionError("bad_action", f"cannot read the action {text!r}: {exc}") from None
        try:
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

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """The view messages of ``seats`` (None: spectators) without the log: the engine's
        view of what each seat may see, with the table's public facts. Built once per
        version, for all the seats asked at once; read-only (they share their parts)."""
        key = (self.version, self.bot_busy, self.bot_waiting, self.again)
        cached = self._views
        if cached is None or cached[:4] != key:
            cached = self._views = (*key, {})
        done = cached[4]
        missing = [seat for seat in dict.fromkeys(seats) if seat not in done]
        if missing:
            s = self.state
            current = s.current_player()
            facts = {
                "type": "view",
                "game_id": self.id,
                "game": self.game,
                "version": self.version,
            }
            if self.game == "dominations":  # what the game is played by, for every seat
                facts["rules"] = self.config.get("rules") or {}
                facts["data_set"] = self.config.get("data_set")
            else:  # (as asked for: "random" says nothing the table does not show)
                facts["kingdom"] = self.config.get("kingdom")
                facts["max_turns"] = self.config.get("max_turns")
            status = "finished" if s.is_terminal() else "active"
            # the next game of a finished one, to join (a seat) or watch (anyone)
            facts["again"] = (None if self.again is None else
                              {"game_id": self.again[0], "spectator": self.again[1]})
            seat_list = self.seat_list()
            for seat, view in zip(missing, s.views(missing, log=False), strict=True):
                out = {
                    **facts,
                    "seat": seat,
                    "status": status,
                    "seats": seat_list,
                    "current_seat": current if current >= 0 else None,
                    "bot_thinking": self.bot_busy,
                    "bot_waiting": self.bot_busy and self.bot_waiting,
                    "can_undo": seat is not None and self.can_undo(seat),
                    "view": view,
                }
                if seat is not None:
                    out["spectator"] = self.spectator  # for the replay link; nothing secret
                done[seat] = out
        return done

    def message(self, seat: int | None, cursor: LogCursor | None = None) -> dict[str, Any]:
        """The view message for ``seat`` (None: a spectator) with the log in words: for a
        client whose ``cursor`` says what it holds, the lines it lacks (``log_start``
        says where they begin) and the cursor moves on; else the log's last lines."""
        start, lines = self.log_from(cursor.lines if cursor is not None else None)
        if cursor is not None:
            cursor.lines = lines
        return {**self.views((seat,))[seat], "log": lines[start:], "log_start": start}


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
    moves, marks = _replayed(table, data)
    at_step = marks[step // REPLAY_MARKS].copy()
    for text in table.actions[step - step % REPLAY_MARKS:step]:
        at_step.apply(at_step.parse_action(text))
    shown = Table(id=table.id, game=table.game, config=table.config,
                  spectator=table.spectator, seats=table.seats, state=at_step, version=step)
    msg = shown.message(seat)
    msg["log"], msg["log_start"] = shown.log_lines(), 0
    msg["type"] = "replay"
    msg["step"] = step
    msg["steps"] = n
    msg["moves"] = moves
    if table.game == "dominion":  # each player's VP at the step (nothing is secret now;
        # a Dominations view has its players' VP already)
        msg["scores"] = [at_step.score(p)  # type: ignore[attr-defined]
                         for p in range(len(table.seats))]
    return msg


REPLAY_MARKS = 16
"""A replay keeps the game's position every this many moves, so that a step is played
from the nearest one before it (at most 15 moves), not from the start."""

REPLAYS_KEPT = 8
"""The finished games whose replays are kept (the most recently asked for): some 20
positions each for a long Dominations game."""

_replays: OrderedDict[str, tuple[list[dict[str, Any]], list[GameState]]] = OrderedDict()
_replays_held = threading.Lock()  # (replays are made in the loader threads)


def _replayed(table: Table, data: Mapping[str, str]
              ) -> tuple[list[dict[str, Any]], list[GameState]]:
    """The moves of the finished ``table`` (who made each, what, and what it did in the
    log's words: ``text``, a line each) and its positions every :data:`REPLAY_MARKS`
    moves from the start, made once (a finished game never changes) and kept for the
    :data:`REPLAYS_KEPT` games last asked for."""
    with _replays_held:
        kept = _replays.get(table.id)
        if kept is not None:
            _replays.move_to_end(table.id)
            return kept
    state = new_state(table.game, table.config, data)
    reader = Table(id=table.id, game=table.game, config=table.config,
                   spectator=table.spectator, seats=table.seats, state=state)
    moves: list[dict[str, Any]] = []
    marks: list[GameState] = []
    for i, text in enumerate(table.actions):
        if i % REPLAY_MARKS == 0:
            marks.append(state.copy())
        seat, before = state.current_player(), len(reader._events())
        state.apply(state.parse_action(text))
        words = [line.strip() for line in reader._lines_of(before) if line.strip()]
        moves.append({"seat": seat, "action": text, "text": words})
    if len(table.actions) % REPLAY_MARKS == 0:
        marks.append(state)
    with _replays_held:
        _replays[table.id] = (moves, marks)
        _replays.move_to_end(table.id)
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    return moves, marks
