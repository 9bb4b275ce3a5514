"""Card effects and the decisions they ask for, as a stack of pending frames.

Each multi-step effect pushes :class:`Frame` values on the state's stack. A
*decision* frame names the player who decides and offers a short list of
legal actions (``OPTIONS[kind]``); ``RESOLVE[kind]`` applies the choice. A
*continuation* frame (kind >= ``FIRST_CONTINUATION``) is work to resume once
the decisions above it are done (Throne Room's second play, the next victim of
an Attack, Library's next draw). The engine pops continuations and resolves
decisions that offer a single action by itself, so a player is only asked
when there is a real choice.

Decision kinds and their actions:

===============  =========================  ===================================
kind             who decides                actions
===============  =========================  ===================================
cellar           the player                 ``discard X`` … ``done``
chapel           the player                 ``trash X`` … ``done`` (4 at most)
militia          each victim                ``discard X`` until 3 in hand
moat             each victim with Moat      ``reveal Moat`` / ``pass``
chancellor       the player                 ``discard-deck`` / ``pass``
library          the player                 ``set-aside X`` / ``keep X``
gain             the player                 ``gain X`` (Workshop, Feast, Remodel)
remodel          the player                 ``trash X``
mine             the player                 ``trash X`` (a Treasure)
mine-gain        the player                 ``gain X`` (a Treasure, to hand)
throne-room      the player                 ``play X``
bureaucrat       each victim                ``topdeck X`` (a Victory card)
spy              the Spy's player           ``discard X`` / ``keep X``, each revealed card
thief            the Thief's player         ``trash X`` (a revealed Treasure)
thief-gain       the Thief's player         ``gain X`` / ``pass``
===============  =========================  ===================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from dominari.core.errors import IllegalActionError
from dominari.dominion import cards as C
from dominari.dominion.actions import (
    DISCARD,
    DISCARD_A,
    DISCARD_DECK,
    DISCARD_DECK_A,
    DONE,
    DONE_A,
    GAIN,
    GAIN_A,
    KEEP_A,
    PASS_A,
    PLAY,
    PLAY_A,
    REVEAL,
    REVEAL_A,
    SET_ASIDE,
    SET_ASIDE_A,
    TOPDECK_A,
    TRASH,
    TRASH_A,
    Action,
)
from dominari.dominion.cards import COST, IS_ACTION, IS_TREASURE, IS_VICTORY, MOAT, NAME
from dominari.dominion.events import (
    EV_DECK_TO_DISCARD,
    EV_DISCARD,
    EV_GAIN,
    EV_REVEAL,
    EV_REVEAL_HAND,
    EV_SET_ASIDE,
    EV_TOPDECK,
)

if TYPE_CHECKING:
    from dominari.dominion.engine import Decision, DominionState

# Decision kinds.
CELLAR = 0
CHAPEL = 1
MILITIA = 2
MOAT_REVEAL = 3
CHANCELLOR = 4
LIBRARY = 5
GAIN_CARD = 6
REMODEL = 7
MINE = 8
MINE_GAIN = 9
THRONE = 10
BUREAUCRAT = 11
SPY = 12
THIEF = 13
THIEF_GAIN = 14
# Continuations.
FIRST_CONTINUATION = 20
REPLAY = 20
ATTACK = 21
LIBRARY_DRAW = 22
THIEF_DISCARD = 23

KIND_NAMES = {
    CELLAR: "cellar", CHAPEL: "chapel", MILITIA: "militia", MOAT_REVEAL: "moat",
    CHANCELLOR: "chancellor", LIBRARY: "library", GAIN_CARD: "gain", REMODEL: "remodel",
    MINE: "mine", MINE_GAIN: "mine-gain", THRONE: "throne-room", BUREAUCRAT: "bureaucrat",
    SPY: "spy", THIEF: "thief", THIEF_GAIN: "thief-gain",
}  # fmt: skip
MULTI_SELECT = {CELLAR: DISCARD, CHAPEL: TRASH, MILITIA: DISCARD}
CHAPEL_LIMIT = 4
MILITIA_HAND = 3


class Frame:
    """A pending decision or continuation.

    ``player`` decides; ``target`` is the player affected; ``card`` is the card
    causing it; ``n`` and ``data`` are the kind's own parameters (a count, a cost
    limit, a revealed card, the cards revealed or set aside).
    """

    __slots__ = ("card", "data", "kind", "n", "player", "target")

    def __init__(
        self, kind: int, player: int, target: int, card: int, n: int = 0,
        data: tuple[int, ...] = (),
    ) -> None:  # fmt: skip
        self.kind = kind
        self.player = player
        self.target = target
        self.card = card
        self.n = n
        self.data = data

    def copy(self) -> Frame:
        return Frame(self.kind, self.player, self.target, self.card, self.n, self.data)

    def __repr__(self) -> str:
        return (f"Frame({KIND_NAMES.get(self.kind, self.kind)}, player={self.player}, "
                f"target={self.target}, card={self.card}, n={self.n}, data={self.data})")


def _distinct(cards: list[int], table: tuple[Action, ...]) -> list[Action]:
    return [table[c] for c in sorted(set(cards))]


# ------------------------------------------------------------------ options
def _opt_cellar(s: DominionState, f: Frame) -> list[Action]:
    acts = _distinct(s.players[f.player].hand, DISCARD_A)
    acts.append(DONE_A)
    return acts


def _opt_chapel(s: DominionState, f: Frame) -> list[Action]:
    if f.n >= CHAPEL_LIMIT:
        return []
    acts = _distinct(s.players[f.player].hand, TRASH_A)
    acts.append(DONE_A)
    return acts


def _opt_militia(s: DominionState, f: Frame) -> list[Action]:
    hand = s.players[f.player].hand
    return _distinct(hand, DISCARD_A) if len(hand) > MILITIA_HAND else []


def _opt_moat(s: DominionState, f: Frame) -> list[Action]:
    if MOAT in s.players[f.player].hand:
        return [REVEAL_A[MOAT], PASS_A]
    return [PASS_A]


def _opt_chancellor(s: DominionState, f: Frame) -> list[Action]:
    return [DISCARD_DECK_A, PASS_A] if s.players[f.player].deck else [PASS_A]


def _opt_library(s: DominionState, f: Frame) -> list[Action]:
    return [SET_ASIDE_A[f.n], KEEP_A[f.n]]


def _opt_gain(s: DominionState, f: Frame) -> list[Action]:
    supply = s.supply
    limit = f.n
    return [GAIN_A[c] for c in s.in_supply if supply[c] > 0 and COST[c] <= limit]


def _opt_remodel(s: DominionState, f: Frame) -> list[Action]:
    return _distinct(s.players[f.player].hand, TRASH_A)


def _opt_mine(s: DominionState, f: Frame) -> list[Action]:
    return [TRASH_A[c] for c in sorted(set(s.players[f.player].hand)) if IS_TREASURE[c]]


def _opt_mine_gain(s: DominionState, f: Frame) -> list[Action]:
    supply = s.supply
    return [GAIN_A[c] for c in C.TREASURES
            if c in s.in_supply and supply[c] > 0 and COST[c] <= f.n]  # fmt: skip


def _opt_throne(s: DominionState, f: Frame) -> list[Action]:
    return [PLAY_A[c] for c in sorted(set(s.players[f.player].hand)) if IS_ACTION[c]]


def _opt_bureaucrat(s: DominionState, f: Frame) -> list[Action]:
    return [TOPDECK_A[c] for c in sorted(set(s.players[f.player].hand)) if IS_VICTORY[c]]


def _opt_spy(s: DominionState, f: Frame) -> list[Action]:
    return [DISCARD_A[f.n], KEEP_A[f.n]]


def _opt_thief(s: DominionState, f: Frame) -> list[Action]:
    aside = s.players[f.target].aside
    return [TRASH_A[c] for c in sorted(set(f.data)) if IS_TREASURE[c] and c in aside]


def _opt_thief_gain(s: DominionState, f: Frame) -> list[Action]:
    return [GAIN_A[f.n], PASS_A] if f.n in s.trash else []


# ------------------------------------------------------------------ resolution
def _res_cellar(s: DominionState, f: Frame, a: Action) -> None:
    if a.verb == DONE:
        s.stack.pop()
        s.draw(f.player, f.n)
        return
    s.discard_from(f.player, s.players[f.player].hand, a.cards[0])
    f.n += 1


def _res_chapel(s: DominionState, f: Frame, a: Action) -> None:
    if a.verb == DONE:
        s.stack.pop()
        return
    s.trash_from(f.player, s.players[f.player].hand, a.cards[0])
    f.n += 1
    if f.n >= CHAPEL_LIMIT:
        s.stack.pop()


def _res_militia(s: DominionState, f: Frame, a: Action) -> None:
    hand = s.players[f.player].hand
    s.discard_from(f.player, hand, a.cards[0])
    if len(hand) <= MILITIA_HAND:
        s.stack.pop()


def _res_moat(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == REVEAL:
        s.emit(EV_REVEAL, f.player, MOAT, 1)
        shown = s.players[f.player].shown
        if MOAT not in shown:  # everyone now knows of a Moat in this hand (N-HIDDEN)
            shown.append(MOAT)
        return
    ATTACK_EFFECT[f.card](s, f.n, f.player)


def _res_chancellor(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == DISCARD_DECK:
        ps = s.players[f.player]
        s.emit(EV_DECK_TO_DISCARD, f.player, -1, len(ps.deck))
        # Nobody sees the moved cards but those known on top of the deck and the
        # one that ends on top of the discard pile (N-HIDDEN).
        ps.hide(ps.deck, ps.known_top)
        ps.discard += ps.deck
        ps.deck.clear()
        ps.known_top = 0


def _res_library(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == SET_ASIDE:
        ps = s.players[f.player]
        ps.hand.remove(f.n)  # the card just drawn, not one known to be in the hand
        ps.aside.append(f.n)
        s.emit(EV_SET_ASIDE, f.player, f.n)
        below = s.stack[-1]
        below.data = (*below.data, f.n)


def _res_gain(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    s.gain(f.player, a.cards[0])


def _res_remodel(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    card = a.cards[0]
    s.trash_from(f.player, s.players[f.player].hand, card)
    s.push(Frame(GAIN_CARD, f.player, f.player, C.REMODEL, COST[card] + 2))


def _res_mine(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    card = a.cards[0]
    s.trash_from(f.player, s.players[f.player].hand, card)
    s.push(Frame(MINE_GAIN, f.player, f.player, C.MINE, COST[card] + 3))


def _res_mine_gain(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    s.gain(f.player, a.cards[0], 1)


def _res_throne(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    card = a.cards[0]
    ps = s.players[f.player]
    ps.take_from_hand(card)
    ps.in_play.append(card)
    s.push(Frame(REPLAY, f.player, f.player, card))
    s.play_card(f.player, card)


def _res_bureaucrat(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    card = a.cards[0]
    ps = s.players[f.player]
    ps.take_from_hand(card)
    ps.deck.append(card)
    ps.known_top += 1
    s.emit(EV_TOPDECK, f.player, card)


def _res_spy(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    ps = s.players[f.target]
    ps.aside.remove(f.n)
    if a.verb == DISCARD:
        ps.discard.append(f.n)
        s.emit(EV_DISCARD, f.target, f.n)
    else:
        ps.deck.append(f.n)
        ps.known_top += 1


def _res_thief(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    card = a.cards[0]
    s.trash_from(f.target, s.players[f.target].aside, card)
    s.push(Frame(THIEF_GAIN, f.player, f.target, C.THIEF, card))


def _res_thief_gain(s: DominionState, f: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == GAIN:
        s.trash.reverse()
        s.trash.remove(f.n)
        s.trash.reverse()
        ps = s.players[f.player]
        ps.discard.append(f.n)
        ps.owned[f.n] += 1
        s.emit(EV_GAIN, f.player, f.n, 3)


# ------------------------------------------------------------------ continuations
def _cont_replay(s: DominionState, f: Frame) -> None:
    s.play_card(f.player, f.card, True)


def _cont_attack(s: DominionState, f: Frame) -> None:
    victim = f.target
    if MOAT in s.players[victim].hand:
        s.push(Frame(MOAT_REVEAL, victim, victim, f.card, f.player))
        return
    ATTACK_EFFECT[f.card](s, f.player, victim)


def _cont_library(s: DominionState, f: Frame) -> None:
    p = f.player
    ps = s.players[p]
    hand = ps.hand
    while len(hand) < 7:
        if not s.draw(p, 1):
            break
        hand = ps.hand
        card = hand[-1]
        if IS_ACTION[card]:
            s.push(f)
            s.push(Frame(LIBRARY, p, p, C.LIBRARY, card))
            return
    for card in f.data:
        s.discard_from(p, ps.aside, card)


def _cont_thief_discard(s: DominionState, f: Frame) -> None:
    v = f.target
    aside = s.players[v].aside
    for card in f.data:
        if card in aside:
            s.discard_from(v, aside, card)


# ------------------------------------------------------------------ card specials
def _attack(s: DominionState, p: int, card: int) -> None:
    """Queue the Attack against each other player, from the next one clockwise
    (N-TURN-6); each may reveal Moat first (N-CARD-MOAT)."""
    n = s.num_players
    for i in range(n - 1, 0, -1):
        s.push(Frame(ATTACK, p, (p + i) % n, card))


def _sp_adventurer(s: DominionState, p: int, again: bool) -> None:
    ps = s.players[p]
    found = 0
    revealed: list[int] = []
    while found < 2:
        card = s.reveal_top(p)
        if card < 0:
            break
        if IS_TREASURE[card]:
            ps.aside.remove(card)
            ps.hand.append(card)
            found += 1
        else:
            revealed.append(card)
    for card in revealed:
        s.discard_from(p, ps.aside, card)


def _sp_bureaucrat(s: DominionState, p: int, again: bool) -> None:
    s.gain(p, C.SILVER, 2)
    _attack(s, p, C.BUREAUCRAT)


def _sp_cellar(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(CELLAR, p, p, C.CELLAR))


def _sp_chancellor(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(CHANCELLOR, p, p, C.CHANCELLOR))


def _sp_chapel(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(CHAPEL, p, p, C.CHAPEL))


def _sp_council_room(s: DominionState, p: int, again: bool) -> None:
    n = s.num_players
    for i in range(1, n):
        s.draw((p + i) % n, 1)


def _sp_feast(s: DominionState, p: int, again: bool) -> None:
    ps = s.players[p]
    if not again and C.FEAST in ps.in_play:
        s.trash_from(p, ps.in_play, C.FEAST)
    s.push(Frame(GAIN_CARD, p, p, C.FEAST, 5))


def _sp_library(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(LIBRARY_DRAW, p, p, C.LIBRARY))


def _sp_militia(s: DominionState, p: int, again: bool) -> None:
    _attack(s, p, C.MILITIA)


def _sp_mine(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(MINE, p, p, C.MINE))


def _sp_moneylender(s: DominionState, p: int, again: bool) -> None:
    ps = s.players[p]
    if C.COPPER in ps.hand:
        s.trash_from(p, ps.hand, C.COPPER)
        s.coins += 3


def _sp_remodel(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(REMODEL, p, p, C.REMODEL))


def _sp_spy(s: DominionState, p: int, again: bool) -> None:
    _attack(s, p, C.SPY)
    _spy_reveal(s, p, p)  # you first (N-CARD-SPY)


def _sp_thief(s: DominionState, p: int, again: bool) -> None:
    _attack(s, p, C.THIEF)


def _sp_throne(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(THRONE, p, p, C.THRONE_ROOM))


def _sp_witch(s: DominionState, p: int, again: bool) -> None:
    _attack(s, p, C.WITCH)


def _sp_workshop(s: DominionState, p: int, again: bool) -> None:
    s.push(Frame(GAIN_CARD, p, p, C.WORKSHOP, 4))


# ------------------------------------------------------------------ attack effects
def _spy_reveal(s: DominionState, p: int, victim: int) -> None:
    card = s.reveal_top(victim)
    if card >= 0:
        s.push(Frame(SPY, p, victim, C.SPY, card))


def _atk_bureaucrat(s: DominionState, p: int, victim: int) -> None:
    hand = s.players[victim].hand
    if any(IS_VICTORY[c] for c in hand):
        s.push(Frame(BUREAUCRAT, victim, victim, C.BUREAUCRAT))
    else:
        s.emit(EV_REVEAL_HAND, victim, -1, tuple(sorted(hand)))
        s.players[victim].shown = hand[:]  # the whole hand is now known (N-HIDDEN)


def _atk_militia(s: DominionState, p: int, victim: int) -> None:
    s.push(Frame(MILITIA, victim, victim, C.MILITIA))


def _atk_thief(s: DominionState, p: int, victim: int) -> None:
    revealed = []
    for _ in range(2):
        card = s.reveal_top(victim)
        if card >= 0:
            revealed.append(card)
    if not revealed:
        return
    data = tuple(revealed)
    s.push(Frame(THIEF_DISCARD, p, victim, C.THIEF, 0, data))
    if any(IS_TREASURE[c] for c in revealed):
        s.push(Frame(THIEF, p, victim, C.THIEF, 0, data))


def _atk_witch(s: DominionState, p: int, victim: int) -> None:
    s.gain(victim, C.CURSE)


Special = Callable[["DominionState", int, bool], None]
SPECIAL: list[Special | None] = [None] * C.NUM_CARDS
for _card, _fn in (
    (C.ADVENTURER, _sp_adventurer), (C.BUREAUCRAT, _sp_bureaucrat), (C.CELLAR, _sp_cellar),
    (C.CHANCELLOR, _sp_chancellor), (C.CHAPEL, _sp_chapel), (C.COUNCIL_ROOM, _sp_council_room),
    (C.FEAST, _sp_feast), (C.LIBRARY, _sp_library), (C.MILITIA, _sp_militia), (C.MINE, _sp_mine),
    (C.MONEYLENDER, _sp_moneylender), (C.REMODEL, _sp_remodel), (C.SPY, _sp_spy),
    (C.THIEF, _sp_thief), (C.THRONE_ROOM, _sp_throne), (C.WITCH, _sp_witch),
    (C.WORKSHOP, _sp_workshop),
):  # fmt: skip
    SPECIAL[_card] = _fn

ATTACK_EFFECT: dict[int, Callable[[DominionState, int, int], None]] = {
    C.BUREAUCRAT: _atk_bureaucrat, C.MILITIA: _atk_militia, C.SPY: _spy_reveal,
    C.THIEF: _atk_thief, C.WITCH: _atk_witch,
}  # fmt: skip

Options = Callable[["DominionState", Frame], list[Action]]
Resolve = Callable[["DominionState", Frame, Action], None]
OPTIONS: dict[int, Options] = {
    CELLAR: _opt_cellar, CHAPEL: _opt_chapel, MILITIA: _opt_militia, MOAT_REVEAL: _opt_moat,
    CHANCELLOR: _opt_chancellor, LIBRARY: _opt_library, GAIN_CARD: _opt_gain,
    REMODEL: _opt_remodel, MINE: _opt_mine, MINE_GAIN: _opt_mine_gain, THRONE: _opt_throne,
    BUREAUCRAT: _opt_bureaucrat, SPY: _opt_spy, THIEF: _opt_thief, THIEF_GAIN: _opt_thief_gain,
}  # fmt: skip
RESOLVE: dict[int, Resolve] = {
    CELLAR: _res_cellar, CHAPEL: _res_chapel, MILITIA: _res_militia, MOAT_REVEAL: _res_moat,
    CHANCELLOR: _res_chancellor, LIBRARY: _res_library, GAIN_CARD: _res_gain,
    REMODEL: _res_remodel, MINE: _res_mine, MINE_GAIN: _res_mine_gain, THRONE: _res_throne,
    BUREAUCRAT: _res_bureaucrat, SPY: _res_spy, THIEF: _res_thief, THIEF_GAIN: _res_thief_gain,
}  # fmt: skip
# Shortcuts for the hot path (every rollout of a search, every simulated attack), kind by
# kind. Each answers "yes" only where the options say so (the answer is among them; there
# are two options or more) and "not known" (False) otherwise, for the caller to list the
# options as before: a shortcut can make a test faster, never change its answer.


def _answers_cellar(s: DominionState, f: Frame, a: Action) -> bool:
    if a == DONE_A:
        return True
    return a.verb == DISCARD and len(a.cards) == 1 and a.cards[0] in s.players[f.player].hand


def _answers_chapel(s: DominionState, f: Frame, a: Action) -> bool:
    if f.n >= CHAPEL_LIMIT:
        return False
    if a == DONE_A:
        return True
    return a.verb == TRASH and len(a.cards) == 1 and a.cards[0] in s.players[f.player].hand


def _answers_militia(s: DominionState, f: Frame, a: Action) -> bool:
    hand = s.players[f.player].hand
    return (len(hand) > MILITIA_HAND and a.verb == DISCARD and len(a.cards) == 1
            and a.cards[0] in hand)  # fmt: skip


def _answers_moat(s: DominionState, f: Frame, a: Action) -> bool:
    return a == PASS_A or (a == REVEAL_A[MOAT] and MOAT in s.players[f.player].hand)


def _answers_gain(s: DominionState, f: Frame, a: Action) -> bool:
    if a.verb != GAIN or len(a.cards) != 1:
        return False
    c = a.cards[0]
    return s.supply[c] > 0 and COST[c] <= f.n and c in s.in_supply


def _answers_remodel(s: DominionState, f: Frame, a: Action) -> bool:
    return a.verb == TRASH and len(a.cards) == 1 and a.cards[0] in s.players[f.player].hand


def _answers_mine(s: DominionState, f: Frame, a: Action) -> bool:
    if a.verb != TRASH or len(a.cards) != 1:
        return False
    c = a.cards[0]
    return IS_TREASURE[c] and c in s.players[f.player].hand


def _answers_mine_gain(s: DominionState, f: Frame, a: Action) -> bool:
    return _answers_gain(s, f, a) and IS_TREASURE[a.cards[0]]


def _answers_throne(s: DominionState, f: Frame, a: Action) -> bool:
    if a.verb != PLAY or len(a.cards) != 1:
        return False
    c = a.cards[0]
    return IS_ACTION[c] and c in s.players[f.player].hand


def _two_cards(hand: list[int]) -> bool:
    """Whether ``hand`` holds two different cards."""
    return bool(hand) and hand.count(hand[0]) != len(hand)


def _many_cellar(s: DominionState, f: Frame) -> bool:
    return bool(s.players[f.player].hand)  # a card to discard, and done


def _many_chapel(s: DominionState, f: Frame) -> bool:
    return f.n < CHAPEL_LIMIT and bool(s.players[f.player].hand)


def _many_militia(s: DominionState, f: Frame) -> bool:
    hand = s.players[f.player].hand
    return len(hand) > MILITIA_HAND and _two_cards(hand)


def _many_moat(s: DominionState, f: Frame) -> bool:
    return MOAT in s.players[f.player].hand


def _many_gain(s: DominionState, f: Frame) -> bool:
    supply = s.supply
    return supply[C.COPPER] > 0 and supply[C.CURSE] > 0  # both cost 0, always in the Supply


def _many_remodel(s: DominionState, f: Frame) -> bool:
    return _two_cards(s.players[f.player].hand)


ANSWERS: dict[int, Callable[[DominionState, Frame, Action], bool]] = {
    CELLAR: _answers_cellar, CHAPEL: _answers_chapel, MILITIA: _answers_militia,
    MOAT_REVEAL: _answers_moat, GAIN_CARD: _answers_gain, REMODEL: _answers_remodel,
    MINE: _answers_mine, MINE_GAIN: _answers_mine_gain, THRONE: _answers_throne,
}  # fmt: skip
"""``ANSWERS[kind](s, f, a)``: ``a`` (of at most one card, each a valid card id: the
callers check that first) is surely among the options of the decision ``f`` (False: not
known; list them)."""
MANY: dict[int, Callable[[DominionState, Frame], bool]] = {
    CELLAR: _many_cellar, CHAPEL: _many_chapel, MILITIA: _many_militia, MOAT_REVEAL: _many_moat,
    GAIN_CARD: _many_gain, REMODEL: _many_remodel,
}  # fmt: skip
"""``MANY[kind](s, f)``: the decision ``f`` surely has two options or more, a real choice
(False: not known; list them)."""

CONTINUE: dict[int, Callable[[DominionState, Frame], None]] = {
    REPLAY: _cont_replay, ATTACK: _cont_attack, LIBRARY_DRAW: _cont_library,
    THIEF_DISCARD: _cont_thief_discard,
}  # fmt: skip


# ------------------------------------------------------------------ validation
def _multi_ok(s: DominionState, f: Frame, a: Action) -> str | None:
    """Why a several-card selection is illegal, or None if it is legal."""
    verb = MULTI_SELECT.get(f.kind)
    if verb is None or a.verb != verb:
        return "this decision takes one card at a time"
    hand = s.players[f.player].hand
    need = Counter(a.cards)
    have = Counter(hand)
    for card, k in need.items():
        if have[card] < k:
            return f"you have {have[card]} {NAME[card]} in hand, not {k}"
    if f.kind == CHAPEL and f.n + len(a.cards) > CHAPEL_LIMIT:
        return f"Chapel trashes at most {CHAPEL_LIMIT} cards"
    if f.kind == MILITIA and len(hand) - len(a.cards) != MILITIA_HAND:
        return f"discard down to exactly {MILITIA_HAND} cards ({len(hand) - MILITIA_HAND} now)"
    return None


def check(s: DominionState, f: Frame, a: Action) -> None:
    """Raise IllegalActionError saying why ``a`` is not a legal answer to ``f``."""
    if len(a.cards) >= 2:
        why = _multi_ok(s, f, a)
        if why is None:
            return
    else:
        sure = ANSWERS.get(f.kind)
        if sure is not None and sure(s, f, a):
            return
        opts = OPTIONS[f.kind](s, f)
        if a in opts:
            return
        why = "legal: " + ", ".join(str(o) for o in opts)
    who = s.config.names[f.player] if s.config.names else f"P{f.player + 1}"
    raise IllegalActionError(
        f"'{a}' is not a legal answer to the {KIND_NAMES[f.kind]} decision "
        f"({NAME[f.card]}, {who} decides): {why}"
    )


def resolve(s: DominionState, f: Frame, a: Action) -> None:
    """Apply a checked action to the decision ``f``."""
    if len(a.cards) >= 2:
        res = RESOLVE[f.kind]
        since = len(s.log) if s.log is not None else 0
        for card in a.cards:
            res(s, f, Action(a.verb, (card,)))
        if a.verb == DISCARD:  # several at once: the others see only the last (N-HIDDEN)
            ps = s.players[f.player]
            ps.hide(a.cards)
            s.unlog_discards(since)
            if ps.shown:  # which of the cards known in the hand went is not seen
                ps.shown = []
        if s.stack and s.stack[-1] is f and f.kind != MILITIA:
            res(s, f, DONE_A)
        return
    RESOLVE[f.kind](s, f, a)


def describe(s: DominionState, f: Frame) -> Decision:
    from dominari.dominion.engine import Decision

    cards: tuple[int, ...] = ()
    if f.kind in (LIBRARY, SPY, THIEF_GAIN):
        cards = (f.n,)
    elif f.kind == THIEF:
        cards = f.data
    # count: cards chosen so far (Cellar, Chapel) or the cost limit (gain, mine-gain).
    count = f.n if f.kind in (CELLAR, CHAPEL, GAIN_CARD, MINE_GAIN) else 0
    return Decision(KIND_NAMES[f.kind], f.player, f.card, f.target, count, cards)


def pinned_cards(s: DominionState) -> dict[int, list[int]]:
    """Cards in hands that pending decisions refer to (kept by determinize)."""
    pinned: dict[int, list[int]] = {}
    for f in s.stack:
        if f.kind == LIBRARY:
            pinned.setdefault(f.player, []).append(f.n)
    return pinned

