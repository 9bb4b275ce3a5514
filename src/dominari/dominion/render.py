"""Text for people: log lines, decision descriptions and a terminal picture of a state.

Nothing here runs on the engine's hot path; the engine logs integer tuples and
this module turns them into words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dominari.dominion import events as G
from dominari.dominion.cards import COST, NAME

if TYPE_CHECKING:
    from dominari.dominion.engine import Decision, DominionState

_WHERE = {0: "", 1: " into hand", 2: " onto deck", 3: " from the trash"}

_PROMPTS = {
    "action": "play an Action card or end the action phase",
    "buy": "buy a card or end the turn",
    "cellar": "Cellar: discard any number of cards, then draw as many (done to stop)",
    "chapel": "Chapel: trash up to 4 cards from hand (done to stop)",
    "militia": "Militia: discard down to 3 cards",
    "moat": "an Attack is played: reveal Moat to be unaffected?",
    "chancellor": "Chancellor: put your deck into your discard pile?",
    "library": "Library: set aside the Action card you drew?",
    "gain": "gain a card",
    "remodel": "Remodel: trash a card from your hand",
    "mine": "Mine: trash a Treasure from your hand",
    "mine-gain": "Mine: gain a Treasure into your hand",
    "throne-room": "Throne Room: choose an Action card to play twice",
    "bureaucrat": "Bureaucrat: put a Victory card from your hand onto your deck",
    "spy": "Spy: discard the revealed card or put it back?",
    "thief": "Thief: choose a revealed Treasure to trash",
    "thief-gain": "Thief: gain the trashed Treasure?",
    "over": "the game is over",
}


def seat(state: DominionState, p: int) -> str:
    names = state.config.names
    return names[p] if names else f"P{p + 1}"


def describe_decision(state: DominionState, d: Decision, viewer: int | None) -> dict[str, Any]:
    """A JSON-ready description of the pending decision, as ``viewer`` may see it."""
    out: dict[str, Any] = {"kind": d.kind, "player": d.player, "prompt": _PROMPTS[d.kind]}
    if d.card >= 0:
        out["card"] = NAME[d.card]
    if d.target >= 0:
        out["target"] = d.target
    if d.kind == "gain" or d.kind == "mine-gain":
        out["limit"] = d.count
    private = d.kind == "library" and viewer != d.player
    if d.cards and not private:
        out["cards"] = [NAME[c] for c in d.cards]
    return out


def event_line(state: DominionState, ev: tuple[Any, ...]) -> str:
    kind, p, card, extra = ev
    who = seat(state, p) if p >= 0 else ""
    cname = NAME[card] if card >= 0 else ""
    if kind == G.EV_TURN:
        return f"— {who}, turn {extra} —"
    if kind == G.EV_PLAY:
        return f"{who} plays {cname}" + (" again" if extra else "")
    if kind == G.EV_BUY:
        return f"{who} buys {cname}"
    if kind == G.EV_GAIN:
        return f"{who} gains {cname}{_WHERE[extra]}"
    if kind == G.EV_TRASH:
        return f"{who} trashes {cname}"
    if kind == G.EV_DISCARD:
        return f"{who} discards {cname or 'a card'}"
    if kind == G.EV_REVEAL:
        return f"{who} reveals {cname}" + (" (unaffected by the Attack)" if extra else "")
    if kind == G.EV_TOPDECK:
        return f"{who} puts {cname} onto their deck"
    if kind == G.EV_SET_ASIDE:
        return f"{who} sets aside {cname}"
    if kind == G.EV_SHUFFLE:
        return f"{who} shuffles"
    if kind == G.EV_DRAW:
        return f"{who} draws {extra} card{'s' if extra != 1 else ''}"
    if kind == G.EV_TREASURES:
        return f"{who} plays Treasures for {extra} coin{'s' if extra != 1 else ''}"
    if kind == G.EV_DECK_TO_DISCARD:
        return f"{who} puts their deck ({extra} cards) into their discard pile"
    if kind == G.EV_REVEAL_HAND:
        shown = ", ".join(NAME[c] for c in extra) or "nothing"
        return f"{who} reveals a hand with no Victory card: {shown}"
    if kind == G.EV_END:
        return f"Game over ({extra.replace('-', ' ')})"
    return f"event {kind}"  # pragma: no cover


def log_lines(state: DominionState, start: int = 0) -> list[str]:
    """The public log from event ``start`` on (draws as counts only): the lines that
    ``log_lines(state)`` shows for those events, so a log can be extended piece by piece."""
    if state.log is None:
        return []
    lines = []
    last: tuple[Any, ...] = state.log[start - 1] if 0 < start <= len(state.log) else ()
    for ev in state.log[start:]:
        # A bought card's gain repeats the buy; draws are shown as hand sizes.
        if ev[0] != G.EV_DRAW and not (
            ev[0] == G.EV_GAIN and last[:3] == (G.EV_BUY, ev[1], ev[2])
        ):
            lines.append(event_line(state, ev))
        last = ev
    return lines


def cards_text(cards: list[int]) -> str:
    """``3 Copper, Estate`` from a list of card ids (grouped, in id order)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    parts = [(f"{k} " if k > 1 else "") + NAME[c] for c, k in sorted(counts.items())]
    return ", ".join(parts) if parts else "(none)"


def supply_text(state: DominionState) -> str:
    rows = []
    for c in state.in_supply:
        rows.append(f"{NAME[c]} ({COST[c]}): {state.supply[c]}")
    return " | ".join(rows)


def scores_text(state: DominionState) -> str:
    out = state.outcome()
    lines = []
    for p in range(state.num_players):
        turns = state.players[p].turns
        line = f"{seat(state, p)}: {state.score(p)} VP in {turns} turn{'' if turns == 1 else 's'}"
        if out is not None and out.ranks[p] == 1:
            line += "  (shared win)" if out.is_shared_win else "  (wins)"
        lines.append(line)
    return "\n".join(lines)


def status_text(state: DominionState, player: int) -> str:
    """A terminal picture of what ``player`` sees now."""
    ps = state.players[player]
    lines = [
        f"Supply: {supply_text(state)}",
        f"Trash: {cards_text(state.trash)}",
    ]
    for q in range(state.num_players):
        qs = state.players[q]
        top = NAME[qs.discard[-1]] if qs.discard else "-"
        lines.append(
            f"{seat(state, q)}: {state.score(q) if q == player else '?'} VP, hand {len(qs.hand)},"
            f" deck {len(qs.deck)}, discard {len(qs.discard)} (top {top}),"
            f" in play: {cards_text(qs.in_play)}"
        )
    lines.append(f"Your hand: {cards_text(ps.hand)}")
    lines.append(
        f"Actions {state.actions}, Buys {state.buys}, Coins {state.coins}"
        if state.turn_player == player else f"{seat(state, state.turn_player)}'s turn"
    )
    return "\n".join(lines)
