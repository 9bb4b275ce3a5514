"""Dominion as a PettingZoo AEC environment: action indices and the observation vector.

Action index space
------------------
The engine offers every choice one card at a time (``legal_actions()`` never lists a
several-card selection: Cellar, Chapel and Militia ask card by card, ``done`` stops), so an
action is a verb and at most one card id, and the space is the same for every kingdom and
player count: :data:`NUM_ACTIONS` = 4 + 9 × 32 = **292** indices.

=========================  ===============================================================
index                      action
=========================  ===============================================================
0, 1, 2, 3                 ``end``, ``done``, ``pass``, ``discard-deck``
4 + 32·v + c               verb ``v`` of card id ``c`` (:mod:`dominari.dominion.cards`):
                           v = 0 ``play``, 1 ``buy``, 2 ``discard``, 3 ``trash``, 4 ``gain``,
                           5 ``reveal``, 6 ``set-aside``, 7 ``keep``, 8 ``topdeck``
=========================  ===============================================================

The same verb serves several decisions (``discard`` for Cellar, Militia and Spy; ``keep`` for
Library and Spy); which one is asked is in the observation (``decision``). Some indices are
never legal: ``play`` of a Treasure (the engine plays every Treasure in hand as the buy
phase begins, N-TURN-2), a Victory card or Curse, and the verbs of cards that are not in
the game's kingdom; a policy's outputs for them are always masked out.

>>> from dominari.dominion.actions import parse
>>> action_to_index(parse("buy Province")), str(index_to_action(4 + 32 + 5))
(41, 'buy Province')
>>> [str(index_to_action(i)) for i in range(4)]
['end', 'done', 'pass', 'discard-deck']

Observation vector
------------------
``float32``, raw counts (not scaled); seats relative to the observer (slot 0 is the observer,
slot ``r`` the player ``r`` seats after). Its length depends on the player count only: 843 for
2 players, 1,107 for 3, 1,371 for 4 (``observation_layout(players).describe()`` lists the blocks).
Card vectors have 32 entries indexed by card id.

===================  ========  ===============================================================
block                size      meaning
===================  ========  ===============================================================
phase                3         one-hot: action, buy, over
decision             18        one-hot: action, buy, over, then the card decisions of
                               :mod:`dominari.dominion.effects` (cellar … thief-gain)
decision_card        32        one-hot: the card asking (Militia for a Militia discard)
decision_player      P         one-hot seat: who decides now
decision_target      P         one-hot seat: who the decision is about (a victim, Spy's target)
decision_count       1         cards chosen so far (Cellar, Chapel) or the cost limit of a gain
decision_cards       32        counts: the revealed cards in question (Spy, Thief, Thief's
                               gain; Library's drawn card to its player only)
replays              32        counts: the cards a Throne Room will play again once the card
                               played now is done (a Throne-Roomed Chapel's first play has
                               its second still to come)
turn                 1         turn number (every player's turns counted)
actions, buys, coins 3         of the turn player
turn_player          P         one-hot seat
supply               32        pile sizes (0 for cards not in this game)
in_supply            32        1 for this game's 17 piles
empty_piles          1         Supply piles empty now
trash                32        counts
hand                 32        the observer's hand, counts
draw_pile            32        the observer's deck as counts (its order is hidden)
discard              32        the observer's discard pile, counts
owned                P × 32    every card each seat owns (public: all gains and trashes are)
in_play              P × 32    cards in play, counts
aside                P × 32    cards set aside or revealed, counts
discard_top          P × 32    one-hot: the top of each discard pile
discard_seen         P × 32    counts: the cards of each discard pile that everyone saw go
                               there (all but those discarded face down together, such as a
                               hand at clean-up; the top card is always seen)
shown                P × 32    counts: cards everyone knows are in each hand (a revealed Moat,
                               a hand revealed to Bureaucrat)
deck_top             P × 32    counts: cards everyone saw put on top of each deck (Bureaucrat,
                               Spy's kept card)
deck_next            P × 32    one-hot: the next card each player draws, where it is known
pile_sizes           P × 3     hand, deck and discard pile sizes
turns                P         turns taken
vp                   P         victory points now (from owned cards: public)
===================  ========  ===============================================================

Own deck and discard compositions are what a player knows by remembering their own cards;
of another player's hand, deck and discard pile only what everyone saw is encoded (sizes,
owned totals, what is face up, and the ``discard_seen``, ``shown`` and ``deck_top`` blocks,
as in the engine's ``view`` and kept by its ``determinize``).

What the turn order itself shows: the engine asks a player only where it has a choice,
so that a decision has few legal actions, and whether a player is asked can tell the
others something of its hidden cards, through ``agent_selection``, the ``phase`` and
``decision`` blocks of every observation, and the number of steps (which a parallel
wrapper such as ``turn_based_aec_to_parallel`` shows every agent at every step):

- a player asked whether to reveal a Moat against an Attack holds a Moat, even when it
  declines to reveal it (a player without one has nothing to decide);
- a Library asks its player about a drawn card only when it is an Action card, so a
  Library decision tells the others that the card drawn is one, even when it is kept;
- a turn has an action phase only when its player holds an Action card and an action to
  play it with; otherwise the engine goes straight to the buy phase.

At a table these questions are not seen; an agent may learn to use them, which a human
opponent could not. In the plain AEC loop (``agent_iter``), an agent observes only when
it acts, after any such decision of another player is over; the counts of the others'
cards are in no observation.

Global state
------------
``env.state()`` (:func:`encode_state`, layout :func:`state_layout`) is the vector of an
observer who sees everything, for centralised critics and analysis, never for a seat's own
policy. It has the observation's blocks with seat ``q`` in slot ``q`` (absolute, not relative
to anyone), except that the observer's ``hand``, ``draw_pile`` and ``discard`` become
``hands``, ``draw_piles`` and ``discards`` (P × 32 each, every seat's), ``deck_next`` is the
real top of each deck (none while a deck is empty: the next draw shuffles), ``next_hand``
(P × 32) counts each deck's top 5 cards (the hand clean-up draws, when the deck holds 5),
and ``decision_cards`` always holds a Library's drawn card. It is 1,003 entries for 2
players, 1,395 for 3, 1,787 for 4; the order of the cards under each deck's top 5 is not in
it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from dominari.core.errors import ConfigError, IllegalActionError
from dominari.core.game import TERMINAL, GameState
from dominari.dominion import effects as E
from dominari.dominion.actions import (
    BUY,
    DISCARD,
    DISCARD_DECK,
    DONE,
    END,
    GAIN,
    KEEP,
    PASS,
    PLAY,
    REVEAL,
    SET_ASIDE,
    TOPDECK,
    TRASH,
    Action,
)
from dominari.dominion.cards import NAME, NUM_CARDS
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import resolve as resolve_kingdom
from dominari.dominion.render import cards_text, supply_text
from dominari.envs.base import FloatArray, GameEnv, Layout, Node, check_options, check_players
from dominari.sim.runner import DEFAULT_MAX_TURNS

CARDLESS: tuple[str, ...] = (END, DONE, PASS, DISCARD_DECK)
"""Verbs without a card, indices 0–3."""
CARD_VERBS: tuple[str, ...] = (PLAY, BUY, DISCARD, TRASH, GAIN, REVEAL, SET_ASIDE, KEEP, TOPDECK)
"""Verbs with one card: index ``4 + NUM_CARDS * CARD_VERBS.index(verb) + card``."""
NUM_ACTIONS = len(CARDLESS) + len(CARD_VERBS) * NUM_CARDS

_CARDLESS_INDEX = {v: i for i, v in enumerate(CARDLESS)}
_VERB_INDEX = {v: i for i, v in enumerate(CARD_VERBS)}
_ACTIONS: tuple[Action, ...] = (
    *(Action(v) for v in CARDLESS),
    *(Action(v, (c,)) for v in CARD_VERBS for c in range(NUM_CARDS)),
)

DECISIONS: tuple[str, ...] = ("action", "buy", "over",
                              *(E.KIND_NAMES[k] for k in sorted(E.KIND_NAMES)))
"""The ``decision`` one-hot, in order."""
_DECISION_INDEX = {name: i for i, name in enumerate(DECISIONS)}
_PHASES = ("action", "buy", "over")
_BIG = 1000.0
"""Bound of card counts and the like (there are fewer than 500 cards in a game)."""
NEXT_HAND = 5
"""How many of each deck's top cards the global state counts (a clean-up draws 5)."""
_HUGE = 1e6
"""Bound of counters with no rule limit (turn number, coins)."""


def action_to_index(action: Action) -> int:
    """The index of a one-card (or cardless) Dominion action. The mapping needs no state.

    Raises ``ValueError`` for a several-card selection (legal in the engine's notation, but
    the engine always offers those choices card by card) or a malformed action.
    """
    if not isinstance(action, Action):
        raise ValueError(f"not a Dominion action: {action!r}")
    if not action.cards:
        index = _CARDLESS_INDEX.get(action.verb)
        if index is None:
            raise ValueError(f"'{action.verb}' needs a card")
        return index
    verb = _VERB_INDEX.get(action.verb)
    if verb is None:
        raise ValueError(f"'{action.verb}' takes no card")
    if len(action.cards) != 1:
        raise ValueError(f"{action} names {len(action.cards)} cards: the environment takes "
                         "one card at a time, as legal_actions() offers them")
    card = action.cards[0]
    if type(card) is not int or not 0 <= card < NUM_CARDS:
        raise ValueError(f"{card!r} is not a card id (0 to {NUM_CARDS - 1})")
    return len(CARDLESS) + NUM_CARDS * verb + card


def index_to_action(index: int) -> Action:
    """The action with this index (the inverse of :func:`action_to_index`); whether it is
    legal is the state's business. ``ValueError`` outside ``0 … NUM_ACTIONS - 1``."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} is out of range 0 to {NUM_ACTIONS - 1}")
    return _ACTIONS[index]


def observation_layout(players: int) -> Layout:
    """The observation layout for ``players`` seats (see the module docstring)."""
    return _layout(players, full=False)


def state_layout(players: int) -> Layout:
    """The layout of the global state for ``players`` seats (see the module docstring): the
    observation's blocks with seats absolute, and every hand, deck and discard pile.

    >>> [b.name for b in state_layout(2).blocks if b.name not in observation_layout(2)]
    ['hands', 'draw_piles', 'discards', 'next_hand']
    >>> state_layout(2).size, state_layout(4).size
    (1003, 1787)
    """
    return _layout(players, full=True)


def _layout(players: int, full: bool) -> Layout:
    k, p = NUM_CARDS, players
    lay = Layout()
    lay.add("phase", 3, doc="one-hot: action, buy, over")
    lay.add("decision", len(DECISIONS), doc="one-hot: " + ", ".join(DECISIONS))
    lay.add("decision_card", k, doc="one-hot card id: the card asking")
    lay.add("decision_player", p, doc="one-hot seat: who decides now")
    lay.add("decision_target", p, doc="one-hot seat: who the decision is about")
    lay.add("decision_count", 1, high=_BIG, doc="cards chosen so far, or a gain's cost limit")
    lay.add("decision_cards", k, high=_BIG, doc="counts: revealed cards in question")
    lay.add("replays", k, high=_BIG, doc="counts: cards a Throne Room will play again")
    lay.add("turn", 1, high=_HUGE, doc="turn number")
    lay.add("actions", 1, high=_HUGE, doc="Actions left to the turn player")
    lay.add("buys", 1, high=_HUGE, doc="Buys left")
    lay.add("coins", 1, high=_HUGE, doc="coins to spend")
    lay.add("turn_player", p, doc="one-hot seat")
    lay.add("supply", k, high=_BIG, doc="pile sizes by card id")
    lay.add("in_supply", k, doc="1 for the 17 piles of this game")
    lay.add("empty_piles", 1, high=k, doc="empty Supply piles")
    lay.add("trash", k, high=_BIG, doc="counts")
    if full:
        lay.add("hands", p * k, high=_BIG, doc="per seat: hand, counts")
        lay.add("draw_piles", p * k, high=_BIG, doc="per seat: deck as counts")
        lay.add("discards", p * k, high=_BIG, doc="per seat: discard pile, counts")
    else:
        lay.add("hand", k, high=_BIG, doc="own hand, counts")
        lay.add("draw_pile", k, high=_BIG, doc="own deck as counts")
        lay.add("discard", k, high=_BIG, doc="own discard pile, counts")
    lay.add("owned", p * k, high=_BIG, doc="per seat: cards owned, counts")
    lay.add("in_play", p * k, high=_BIG, doc="per seat: cards in play, counts")
    lay.add("aside", p * k, high=_BIG, doc="per seat: cards set aside or revealed, counts")
    lay.add("discard_top", p * k, doc="per seat: one-hot top of the discard pile")
    lay.add("discard_seen", p * k, high=_BIG,
            doc="per seat: discard pile cards everyone saw go there, counts")
    lay.add("shown", p * k, high=_BIG, doc="per seat: cards known to be in the hand, counts")
    lay.add("deck_top", p * k, high=_BIG,
            doc="per seat: cards seen put on top of the deck, counts")
    lay.add("deck_next", p * k, doc="per seat: one-hot next card drawn" + (
        " (the deck's real top)" if full else ", where it is known"))
    if full:
        lay.add("next_hand", p * k, high=NEXT_HAND,
                doc="per seat: the deck's top 5 cards (fewer if it is smaller), counts")
    lay.add("pile_sizes", p * 3, high=_BIG, doc="per seat: hand, deck, discard sizes")
    lay.add("turns", p, high=_HUGE, doc="per seat: turns taken")
    lay.add("vp", p, low=-_BIG, high=_BIG, doc="per seat: victory points now")
    return lay


def _counts(obs: FloatArray, offset: int, cards: Sequence[int]) -> None:
    for c in cards:
        obs[offset + c] += 1.0


def encode_observation(state: DominionState, viewer: int, layout: Layout | None = None
                       ) -> FloatArray:
    """The observation vector of ``viewer`` (see the module docstring): only what that player
    sees or remembers of their own cards.

    >>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
    >>> obs = encode_observation(s, 0)
    >>> obs.shape, float(obs[observation_layout(2)["hand"].offset:][:32].sum()) <= 5
    ((843,), True)
    """
    n = state.num_players
    return _encode(state, viewer, layout if layout is not None else observation_layout(n),
                   full=False)


def encode_state(state: DominionState, layout: Layout | None = None) -> FloatArray:
    """The global state vector (see the module docstring): everything, hidden or not, with
    seat ``q`` in slot ``q``; for a centralised critic, never for a player's policy.

    >>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
    >>> lay = state_layout(2)
    >>> hands = encode_state(s, lay)[lay["hands"].offset:lay["hands"].end]
    >>> float(hands[:32].sum()), float(hands[32:].sum())  # seat 0 has played 3 Treasures
    (2.0, 5.0)
    """
    return _encode(state, 0, layout if layout is not None else state_layout(state.num_players),
                   full=True)


def _encode(state: DominionState, viewer: int, lay: Layout, full: bool) -> FloatArray:
    """The vector of :func:`encode_observation` (``full=False``: what ``viewer`` may see, seats
    relative to them) or of :func:`encode_state` (``full``: everything, ``viewer`` 0)."""
    n = state.num_players
    obs = np.zeros(lay.size, dtype=np.float32)
    k = NUM_CARDS
    o = lay.offsets
    obs[o["phase"] + state.phase] = 1.0
    d = state.decision()
    obs[o["decision"] + _DECISION_INDEX[d.kind]] = 1.0
    if d.card >= 0:
        obs[o["decision_card"] + d.card] = 1.0
    if d.player != TERMINAL:
        obs[o["decision_player"] + (d.player - viewer) % n] = 1.0
    if d.target >= 0:
        obs[o["decision_target"] + (d.target - viewer) % n] = 1.0
    obs[o["decision_count"]] = d.count
    if full or not (d.kind == "library" and viewer != d.player):  # its drawn card is private
        _counts(obs, o["decision_cards"], d.cards)
    replays = o["replays"]
    for f in state.stack:  # public: everyone saw the Throne Room and the card it plays
        if f.kind == E.REPLAY:
            obs[replays + f.card] += 1.0
    obs[o["turn"]] = state.turn_number
    obs[o["actions"]] = state.actions
    obs[o["buys"]] = state.buys
    obs[o["coins"]] = state.coins
    obs[o["turn_player"] + (state.turn_player - viewer) % n] = 1.0
    supply, in_supply = o["supply"], o["in_supply"]
    for c in state.in_supply:
        obs[supply + c] = state.supply[c]
        obs[in_supply + c] = 1.0
    obs[o["empty_piles"]] = state.empty_piles
    _counts(obs, o["trash"], state.trash)
    if not full:
        me = state.players[viewer]
        _counts(obs, o["hand"], me.hand)
        _counts(obs, o["draw_pile"], me.deck)
        _counts(obs, o["discard"], me.discard)
    owned, in_play, aside = o["owned"], o["in_play"], o["aside"]
    top, sizes, turns, vp = o["discard_top"], o["pile_sizes"], o["turns"], o["vp"]
    seen, shown, deck_top, deck_next = (o["discard_seen"], o["shown"], o["deck_top"],
                                        o["deck_next"])
    if full:
        hands, draws, discards, next_hand = (o["hands"], o["draw_piles"], o["discards"],
                                             o["next_hand"])
    for q, ps in enumerate(state.players):
        r = (q - viewer) % n
        obs[owned + r * k:owned + (r + 1) * k] = ps.owned
        _counts(obs, in_play + r * k, ps.in_play)
        _counts(obs, aside + r * k, ps.aside)
        if ps.discard:
            obs[top + r * k + ps.discard[-1]] = 1.0
            _counts(obs, seen + r * k, ps.seen_discards())
        _counts(obs, shown + r * k, ps.shown)
        known = ps.deck_top()
        if known:
            _counts(obs, deck_top + r * k, known)
        if full:
            _counts(obs, hands + r * k, ps.hand)
            _counts(obs, draws + r * k, ps.deck)
            _counts(obs, discards + r * k, ps.discard)
            if ps.deck:  # the real top (a known top is the deck's last card too)
                obs[deck_next + r * k + ps.deck[-1]] = 1.0
                _counts(obs, next_hand + r * k, ps.deck[-NEXT_HAND:])
        elif known:
            obs[deck_next + r * k + known[0]] = 1.0
        obs[sizes + 3 * r:sizes + 3 * r + 3] = (len(ps.hand), len(ps.deck), len(ps.discard))
        obs[turns + r] = ps.turns
        obs[vp + r] = state.score(q)
    return obs


def choices(state: DominionState) -> Node:
    """The legal indices now, each mapped to its engine action."""
    return {action_to_index(a): a for a in state.legal_actions()}


class DominionEnv(GameEnv):
    """Dominion for 2 to 4 agents (see :mod:`dominari.envs.base` and this module's docstring).

    ``kingdom`` is a recommended set name, ``"random"`` (drawn from each game's seed) or card
    names, as :class:`~dominari.dominion.engine.DominionConfig` takes it. ``max_turns``
    (default 100, as in simulations; None: no limit) stops a game after that many turns of
    every player: a truncation. Keep a limit for learning agents: a policy that never buys
    a Province would otherwise never end its game.
    """

    metadata: ClassVar[dict[str, Any]] = {**GameEnv.metadata, "name": "dominion_v0"}
    _shared_on_copy = GameEnv._shared_on_copy | {"config", "obs_layout"}

    def __init__(self, num_players: int = 2, kingdom: str | Sequence[str] = "random",
                 max_turns: int | None = DEFAULT_MAX_TURNS, render_mode: str | None = None,
                 raw_view: bool = True) -> None:
        players = check_players(num_players, "Dominion")
        if not isinstance(kingdom, str) and not (
                isinstance(kingdom, Sequence) and all(isinstance(c, str) for c in kingdom)):
            raise ConfigError("kingdom must be a set name, 'random', or a list of card names, "
                              f"not {kingdom!r}")
        spec = kingdom if isinstance(kingdom, str) else tuple(kingdom)
        resolve_kingdom(spec, 0)  # unknown sets and cards fail here, not at reset
        self.config = DominionConfig(players=players, kingdom=spec, max_turns=max_turns)
        self.obs_layout = observation_layout(players)
        super().__init__(players, NUM_ACTIONS, self.obs_layout, render_mode, raw_view,
                         state_layout=state_layout(players))

    def _new_game(self, seed: int) -> DominionState:
        c = self.config
        return DominionState.new(DominionConfig(players=c.players, kingdom=c.kingdom, seed=seed,
                                                max_turns=c.max_turns))

    @property
    def game(self) -> DominionState:
        """The engine state of the current game (treat it as read-only)."""
        game = super().game
        assert isinstance(game, DominionState)
        return game

    def _choices(self, game: GameState) -> Node:
        assert isinstance(game, DominionState)
        return choices(game)

    def _action_indices(self, game: GameState, action: Hashable) -> tuple[int, ...]:
        if not isinstance(action, Action):
            raise IllegalActionError(f"not a Dominion action: {action!r}")
        try:
            return (action_to_index(action),)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None

    def _observation(self, game: GameState, player: int) -> FloatArray:
        assert isinstance(game, DominionState)
        return encode_observation(game, player, self.obs_layout)

    def _state(self, game: GameState) -> FloatArray:
        assert isinstance(game, DominionState)
        return encode_state(game, self.state_layout)

    def _truncated(self, game: GameState) -> bool:
        assert isinstance(game, DominionState)
        return game.reason == "turn-limit"

    def _render_text(self, game: GameState) -> str:
        assert isinstance(game, DominionState)
        d = game.decision()
        names = self.possible_agents  # seats by agent name, as step() and last() call them
        lines = [f"Dominion, turn {game.turn_number}: {names[game.turn_player]}, "
                 f"{game.phase_name} phase"
                 + (f" ({d.kind} decision of {names[d.player]})"
                    if d.kind not in _PHASES else ""),
                 f"Supply: {supply_text(game)}",
                 f"Trash: {cards_text(game.trash)}"]
        for q, ps in enumerate(game.players):
            top = NAME[ps.discard[-1]] if ps.discard else "-"
            lines.append(f"{names[q]}: {game.score(q)} VP, hand {len(ps.hand)}, deck "
                         f"{len(ps.deck)}, discard {len(ps.discard)} (top {top}), in play: "
                         f"{cards_text(ps.in_play)}")
        if game.is_terminal():
            out = game.outcome()
            assert out is not None
            lines.append(f"Game over ({out.reason}); winners: "
                         + ", ".join(names[p] for p in out.winners))
        else:
            lines.append(f"Actions {game.actions}, Buys {game.buys}, Coins {game.coins}; last: "
                         + (str(game.history[-1]) if game.history else "-"))
            who = game.current_player()
            lines.append(f"{names[who]}'s hand: {cards_text(game.players[who].hand)}")
        return "\n".join(lines)


def dominion_env(**kwargs: Any) -> DominionEnv:
    """A :class:`DominionEnv` (keyword arguments as its constructor's; another is
    refused, with the list of them)."""
    check_options(DominionEnv, kwargs, "dominion_env")
    return DominionEnv(**kwargs)
