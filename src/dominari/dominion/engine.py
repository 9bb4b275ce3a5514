"""The Dominion game state: setup, turns, the pending-decision stack, end and scoring.

>>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
>>> s.current_player() == s.turn_player, s.phase_name
(True, 'buy')
>>> me = s.players[s.turn_player]   # no Action card in hand: Treasures are in play
>>> len(me.hand) + len(me.in_play), s.coins == len(me.in_play)
(5, True)

Card effects and the decisions they ask for live in :mod:`dominari.dominion.effects`;
this module holds the state, the primitives effects use (draw, gain, trash,
shuffle) and the turn structure (N-TURN, N-END).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dominari.core.checks import escaped, is_whole
from dominari.core.checks import names as check_names
from dominari.core.checks import player as player_index
from dominari.core.checks import seed as seed_value
from dominari.core.errors import ConfigError, IllegalActionError, ParseError, RecordError
from dominari.core.game import TERMINAL, GameState, Outcome
from dominari.core.records import (
    DEALT_AGAIN,
    RECORD_FORMAT,
    RECORD_VERSION,
    check_header,
    replay,
)
from dominari.core.rng import clone, shuffle
from dominari.dominion import cards as C
from dominari.dominion import effects as E
from dominari.dominion.actions import (
    BUY,
    BUY_A,
    END,
    END_A,
    PLAY,
    PLAY_A,
    Action,
    parse,
)
from dominari.dominion.cards import (
    COINS,
    COPPER,
    COST,
    CURSE,
    DUCHY,
    ESTATE,
    GARDENS,
    IS_ACTION,
    IS_TREASURE,
    NAME,
    NUM_CARDS,
    PROVINCE,
    VP,
)
from dominari.dominion.effects import Frame
from dominari.dominion.events import (
    EV_BUY,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_GAIN,
    EV_PLAY,
    EV_REVEAL,
    EV_SHUFFLE,
    EV_TRASH,
    EV_TREASURES,
    EV_TURN,
)
from dominari.dominion.kingdoms import check_spec
from dominari.dominion.kingdoms import resolve as resolve_kingdom

_INTERNED_BUY: dict[int, int] = {id(a): a.cards[0] for a in BUY_A}

ACTION_PHASE = 0
BUY_PHASE = 1
OVER = 2
PHASE_NAMES = ("action", "buy", "over")

ENDING_PILES = 3
END_REASONS = frozenset({"provinces", "three-piles", "turn-limit"})
"""How a game ends (``Outcome.reason``): the Provinces gone, three Supply piles empty
(N-END-1), or the turn limit reached (``max_turns``, not a rule)."""
_TREASURE_COINS = tuple(COINS[c] if IS_TREASURE[c] else -1 for c in range(NUM_CARDS))
"""The coins of each Treasure card, -1 for the other cards (the Treasures played at once)."""


@dataclass(frozen=True)
class DominionConfig:
    """Everything that fixes a game before the first action.

    ``kingdom`` is a recommended set name, ``"random"`` or card names (see
    :func:`dominari.dominion.kingdoms.resolve`). ``seed=None`` picks a seed.
    ``max_turns`` (optional, not a rule) ends a game after that many turns of
    every player, for simulations of strategies that may never end a game.
    ``names`` are display names of the seats. ``log`` keeps a public event log.
    """

    players: int = 2
    kingdom: str | tuple[str, ...] = "random"
    seed: int | None = None
    max_turns: int | None = None
    names: tuple[str, ...] = ()
    log: bool = False

    def __post_init__(self) -> None:
        # One config per simulated game: plain ints pass at once, other integer types
        # (NumPy's) are checked and stored as ints.
        if type(self.players) is not int or not 2 <= self.players <= 4:
            if not is_whole(self.players) or not 2 <= int(self.players) <= 4:
                raise ConfigError(f"Dominion is for 2 to 4 players, not {self.players!r}")
            object.__setattr__(self, "players", int(self.players))
        turns = self.max_turns
        if turns is not None and (type(turns) is not int or turns < 1):
            if not is_whole(turns) or int(turns) < 1:
                raise ConfigError(f"max_turns must be a positive integer, not {turns!r}")
            object.__setattr__(self, "max_turns", int(turns))
        if self.seed is not None and (type(self.seed) is not int or self.seed < 0):
            # random.Random would play -5 as 5
            object.__setattr__(self, "seed", seed_value(self.seed, "the seed"))
        if self.names and len(self.names) != self.players:
            raise ConfigError(f"{len(self.names)} names given for {self.players} players")
        if self.names:
            check_names(self.names)
        if type(self.kingdom) is not str:
            object.__setattr__(self, "kingdom", check_spec(self.kingdom))

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "kingdom": self.kingdom if isinstance(self.kingdom, str) else list(self.kingdom),
            "seed": self.seed,
            "max_turns": self.max_turns,
            "names": list(self.names),
        }

    @classmethod
    def from_json(cls, data: Any, *, log: bool = False) -> DominionConfig:
        if not isinstance(data, dict):
            raise ConfigError("config must be a JSON object")
        unknown = set(data) - {"players", "kingdom", "seed", "max_turns", "names"}
        if unknown:
            raise ConfigError(f"unknown config field(s): {', '.join(sorted(unknown))}")
        kingdom = data.get("kingdom", "random")
        if not isinstance(kingdom, str) and not (
            isinstance(kingdom, list) and all(isinstance(k, str) for k in kingdom)
        ):
            raise ConfigError("config: kingdom must be a string or a list of card names")
        names = data.get("names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError("config: names must be a list of strings")
        return cls(
            players=data.get("players", 2),
            kingdom=kingdom if isinstance(kingdom, str) else tuple(kingdom),
            seed=data.get("seed"),
            max_turns=data.get("max_turns"),
            names=tuple(map(escaped, names)),  # as written, not acted on (checks.names)
            log=log,
        )


class PlayerState:
    """One player's cards. ``deck[-1]`` is the top of the deck; ``discard[-1]`` the top
    of the discard pile. ``owned[c]`` counts every copy of card ``c`` the player owns.
    ``aside`` holds cards revealed or set aside while an effect resolves.
    ``known_top`` counts the cards on top of the deck that everyone has seen put there
    (Spy's put-back, Bureaucrat): ``determinize`` leaves them in place. ``hidden`` lists
    the cards in the discard pile that the others never saw there (N-HIDDEN): cards
    discarded together (a hand at clean-up, a Cellar's or a Militia victim's choice made
    at once) and a deck moved by Chancellor, all but the card left on top, which everyone
    sees; ``determinize`` deals them again with the hand and the deck. ``shown`` lists
    cards that everyone knows are in the hand: a Moat revealed against an attack, a hand
    revealed to Bureaucrat, a Treasure gained to the hand; each leaves the list when a
    card of its kind leaves the hand, and ``determinize`` keeps them in the hand.
    """

    __slots__ = ("aside", "deck", "discard", "hand", "hidden", "in_play", "known_top", "owned",
                 "shown", "turns")

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.in_play: list[int] = []
        self.aside: list[int] = []
        self.owned: list[int] = [0] * NUM_CARDS
        self.turns = 0
        self.known_top = 0
        self.hidden: list[int] = []
        self.shown: list[int] = []

    def copy(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.hand = self.hand[:]
        p.deck = self.deck[:]
        p.discard = self.discard[:]
        p.in_play = self.in_play[:]
        p.aside = self.aside[:]
        p.owned = self.owned[:]
        p.turns = self.turns
        p.known_top = self.known_top
        p.hidden = self.hidden[:]
        p.shown = self.shown[:]
        return p

    def deck_top(self) -> list[int]:
        """The cards everyone saw put on top of the deck (``known_top`` of them), the next
        to be drawn first.

        >>> p = PlayerState()
        >>> p.deck, p.known_top = [C.COPPER, C.SILVER, C.GOLD], 2
        >>> [C.NAME[c] for c in p.deck_top()]
        ['Gold', 'Silver']
        >>> p.known_top = 3  # the whole deck
        >>> [C.NAME[c] for c in p.deck_top()]
        ['Gold', 'Silver', 'Copper']
        """
        return self.deck[len(self.deck) - self.known_top:][::-1] if self.known_top else []

    def seen_discards(self) -> list[int]:
        """The cards of the discard pile that everyone saw go there, bottom first: all but
        those in ``hidden``; the top card is always seen.

        >>> p = PlayerState()
        >>> p.discard = [C.ESTATE, C.COPPER, C.COPPER, C.SILVER]
        >>> p.hidden = [C.COPPER, C.ESTATE]
        >>> [C.NAME[c] for c in p.seen_discards()]
        ['Copper', 'Silver']
        """
        if not self.hidden:
            return self.discard[:]
        need = [0] * NUM_CARDS
        for c in self.hidden:
            need[c] += 1
        seen = []
        for c in self.discard[:-1]:
            if need[c]:
                need[c] -= 1
            else:
                seen.append(c)
        seen.append(self.discard[-1])
        return seen

    def hide(self, cards: Sequence[int], seen: int = 1) -> None:
        """Note that ``cards``, put on the discard pile together (bottom first), were not
        seen there by the others but for the last ``seen`` of them, at least the one left
        on top (N-HIDDEN). The caller moves the cards; this only records what is hidden.

        >>> p = PlayerState()
        >>> p.hide([1, 2, 3])
        >>> p.hidden
        [1, 2]
        >>> p.hide([4, 5, 6], seen=2)
        >>> p.hidden
        [1, 2, 4]
        """
        unseen = len(cards) - max(seen, 1)
        if unseen > 0:
            self.hidden += cards[:unseen]

    def clean_up(self) -> None:
        """Clean-up's discards (N-TURN-3): the cards in play, then the hand, which the
        others do not see but for the card left on top (N-HIDDEN)."""
        self.discard += self.in_play
        hand = self.hand
        self.hide(hand)
        self.discard += hand
        self.in_play = []
        self.hand = []
        if self.shown:
            self.shown = []

    def take_from(self, zone: list[int], card: int) -> None:
        """Take ``card`` out of ``zone``, one of this player's (:meth:`take_from_hand`
        for the hand)."""
        if zone is self.hand:
            self.take_from_hand(card)
        else:
            zone.remove(card)

    def take_from_hand(self, card: int) -> None:
        """Take ``card`` out of the hand before everyone's eyes (played, trashed,
        discarded alone, put on the deck): one fewer of its kind is known to be there.

        >>> p = PlayerState()
        >>> p.hand = [C.MOAT, C.COPPER, C.SILVER]
        >>> p.shown = [C.MOAT, C.COPPER]
        >>> p.take_from_hand(C.MOAT); p.take_from_hand(C.SILVER)
        >>> p.hand == p.shown == [C.COPPER]
        True
        """
        self.hand.remove(card)
        shown = self.shown
        if shown and card in shown:
            shown.remove(card)

    def all_cards(self) -> list[int]:
        return self.hand + self.deck + self.discard + self.in_play + self.aside


@dataclass(frozen=True)
class Decision:
    """A public description of what is being decided, for views and bots.

    ``count`` is the number of cards chosen so far (Cellar, Chapel) or the cost
    limit of a gain (gain, mine-gain); ``cards`` the revealed cards in question.
    """

    kind: str
    player: int
    card: int = -1
    target: int = -1
    count: int = 0
    cards: tuple[int, ...] = ()


class DominionState(GameState):
    """A Dominion game in progress. Create with :meth:`new` or :meth:`from_record`."""

    game_name = "dominion"

    config: DominionConfig
    seed: int
    rng: random.Random
    kingdom: tuple[int, ...]
    supply: list[int]
    """Pile sizes indexed by card id (0 for cards not in this game)."""
    in_supply: tuple[int, ...]
    """The card ids of this game's Supply piles: 7 basic, then 10 kingdom."""
    empty_piles: int
    trash: list[int]
    players: list[PlayerState]
    turn_player: int
    turn_number: int
    phase: int
    actions: int
    buys: int
    coins: int
    stack: list[Frame]
    history: list[Action]
    log: list[tuple[Any, ...]] | None
    reason: str
    _outcome: Outcome | None
    dealt_again: bool = False
    """Whether this state draws other random numbers than its seed's (a :meth:`copy` given
    a generator, a :meth:`determinize` world, or a copy of one): a search's, whose
    :meth:`record` would not replay, and is refused."""

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, config: DominionConfig | None = None, **kwargs: Any) -> DominionState:
        """Set up a game (N-SET-1, N-SET-2): supply by player count, 7 Copper and
        3 Estate each, shuffled, 5 drawn, a random first player."""
        if config is None:
            config = DominionConfig(**kwargs)
        elif kwargs:
            raise TypeError("give either a config or keyword options, not both")
        seed = config.seed
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self = cls.__new__(cls)
        n = config.players
        self.config = config
        self.seed = seed
        self.num_players = n
        self.rng = random.Random(seed)
        self.kingdom = resolve_kingdom(config.kingdom, seed)
        victory = 8 if n == 2 else 12
        supply = [0] * NUM_CARDS
        supply[C.COPPER] = 60 - 7 * n
        supply[C.SILVER] = 40
        supply[C.GOLD] = 30
        supply[ESTATE] = supply[DUCHY] = supply[PROVINCE] = victory
        supply[CURSE] = 10 * (n - 1)
        for k in self.kingdom:
            supply[k] = victory if k == GARDENS else 10
        self.supply = supply
        self.in_supply = C.BASIC + self.kingdom
        self.empty_piles = 0
        self.trash = []
        self.players = []
        for _ in range(n):
            ps = PlayerState()
            ps.deck = [COPPER] * 7 + [ESTATE] * 3
            ps.owned[COPPER] = 7
            ps.owned[ESTATE] = 3
            shuffle(self.rng, ps.deck)
            ps.hand = ps.deck[-5:]
            del ps.deck[-5:]
            self.players.append(ps)
        self.turn_player = self.rng.randrange(n)
        self.turn_number = 1
        self.players[self.turn_player].turns = 1
        self.phase = ACTION_PHASE
        self.actions = 1
        self.buys = 1
        self.coins = 0
        self.stack = []
        self.history = []
        self.log = [] if config.log else None
        self.reason = ""
        self._outcome = None
        if self.log is not None:
            self.log.append((EV_TURN, self.turn_player, -1, 1))
        self._advance()
        return self

    def copy(self, rng: random.Random | None = None) -> DominionState:
        """An independent copy, drawing its random numbers from a clone of this state's
        generator, or from ``rng`` if given (a search's candidates in one sampled world:
        :func:`dominari.core.rng.restore` of one snapshot each)."""
        if rng is None:
            return self._copy(clone(self.rng))
        if not isinstance(rng, random.Random):
            raise ConfigError(f"copy needs a random.Random, not {rng!r}")
        s = self._copy(rng)
        s.dealt_again = True
        return s

    def _copy(self, rng: random.Random) -> DominionState:
        """A copy that draws its random numbers from ``rng``."""
        s = DominionState.__new__(DominionState)
        s.config = self.config
        s.seed = self.seed
        s.num_players = self.num_players
        s.rng = rng
        s.kingdom = self.kingdom
        s.supply = self.supply[:]
        s.in_supply = self.in_supply
        s.empty_piles = self.empty_piles
        s.trash = self.trash[:]
        s.players = [p.copy() for p in self.players]
        s.turn_player = self.turn_player
        s.turn_number = self.turn_number
        s.phase = self.phase
        s.actions = self.actions
        s.buys = self.buys
        s.coins = self.coins
        s.stack = [f.copy() for f in self.stack]
        s.history = self.history[:]
        s.log = None if self.log is None else self.log[:]
        s.reason = self.reason
        s._outcome = self._outcome
        s.dealt_again = self.dealt_again
        return s

    # ------------------------------------------------------------ primitives
    def draw(self, p: int, n: int) -> int:
        """Draw ``n`` cards for player ``p``, shuffling the discard pile into the deck
        when the deck runs out (N-TURN-4). Returns how many were drawn."""
        ps = self.players[p]
        deck = ps.deck
        if ps.known_top:
            ps.known_top = max(0, ps.known_top - n)
        if len(deck) >= n:
            if n:
                ps.hand += deck[-n:]
                del deck[-n:]
            drawn = n
        else:
            drawn = len(deck)
            ps.hand += deck
            deck.clear()
            if ps.discard:
                self._shuffle(ps, p)
                deck = ps.deck
                k = min(n - drawn, len(deck))
                if k:
                    ps.hand += deck[-k:]
                    del deck[-k:]
                drawn += k
        if self.log is not None and drawn:
            self.log.append((EV_DRAW, p, -1, drawn))
        return drawn

    def _shuffle(self, ps: PlayerState, p: int) -> None:
        """Shuffle the discard pile to form the deck (the deck must be empty)."""
        ps.deck, ps.discard = ps.discard, ps.deck
        ps.known_top = 0
        if ps.hidden:
            ps.hidden.clear()
        shuffle(self.rng, ps.deck)
        if self.log is not None:
            self.log.append((EV_SHUFFLE, p, -1, 0))

    def reveal_top(self, p: int) -> int:
        """Take the top card of ``p``'s deck (shuffling if needed) into ``aside``;
        return it, or -1 if deck and discard are both empty (N-TURN-4)."""
        ps = self.players[p]
        if not ps.deck:
            if not ps.discard:
                return -1
            self._shuffle(ps, p)
        card = ps.deck.pop()
        if ps.known_top:
            ps.known_top -= 1
        ps.aside.append(card)
        if self.log is not None:
            self.log.append((EV_REVEAL, p, card, 0))
        return card

    def gain(self, p: int, card: int, where: int = 0) -> bool:
        """Gain ``card`` from the Supply: 0 to discard, 1 to hand, 2 onto the deck.
        An empty pile gains nothing (returns False)."""
        supply = self.supply
        if supply[card] <= 0:
            return False
        supply[card] -= 1
        if supply[card] == 0:
            self.empty_piles += 1
        ps = self.players[p]
        ps.owned[card] += 1
        if where == 0:
            ps.discard.append(card)
        elif where == 1:  # before everyone's eyes
            ps.hand.append(card)
            ps.shown.append(card)
        else:
            ps.deck.append(card)
            ps.known_top += 1
        if self.log is not None:
            self.log.append((EV_GAIN, p, card, where))
        return True

    def trash_from(self, p: int, zone: list[int], card: int) -> None:
        """Move ``card`` from one of ``p``'s zones to the trash."""
        ps = self.players[p]
        ps.take_from(zone, card)
        self.trash.append(card)
        ps.owned[card] -= 1
        if self.log is not None:
            self.log.append((EV_TRASH, p, card, 0))

    def discard_from(self, p: int, zone: list[int], card: int) -> None:
        """Move ``card`` to ``p``'s discard pile, where it lies on top, seen by everyone
        (N-HIDDEN). Cards discarded together are seen but for the last: the caller
        notes that (:meth:`PlayerState.hide`, :meth:`unlog_discards`)."""
        ps = self.players[p]
        ps.take_from(zone, card)
        ps.discard.append(card)
        if self.log is not None:
            self.log.append((EV_DISCARD, p, card, 0))

    def unlog_discards(self, since: int, seen: int = 1) -> None:
        """Make the discards logged from event ``since`` on, cards discarded together,
        unseen in the public log but for the last ``seen`` (N-HIDDEN: only the pile's
        top card is seen; "discards a card" in the log)."""
        log = self.log
        if log is None:
            return
        at = [i for i in range(since, len(log)) if log[i][0] == EV_DISCARD]
        for i in at[: max(0, len(at) - seen)]:
            kind, p, _card, extra = log[i]
            log[i] = (kind, p, -1, extra)

    def push(self, frame: Frame) -> None:
        self.stack.append(frame)

    def emit(self, event: int, p: int, card: int = -1, extra: Any = 0) -> None:
        if self.log is not None:
            self.log.append((event, p, card, extra))

    def play_card(self, p: int, card: int, again: bool = False) -> None:
        """Resolve ``card``'s effect for ``p`` (it is already in play)."""
        info = C.CARDS[card]
        if self.log is not None:
            self.log.append((EV_PLAY, p, card, 1 if again else 0))
        if info.plus_cards:
            self.draw(p, info.plus_cards)
        self.actions += info.plus_actions
        self.buys += info.plus_buys
        self.coins += info.plus_coins
        special = E.SPECIAL[card]
        if special is not None:
            special(self, p, again)

    # ------------------------------------------------------------ the turn
    def _advance(self) -> None:
        """Run automatic steps until a player must choose between 2+ actions."""
        stack = self.stack
        while True:
            if stack:
                f = stack[-1]
                k = f.kind
                if k >= E.FIRST_CONTINUATION:
                    stack.pop()
                    E.CONTINUE[k](self, f)
                    continue
                many = E.MANY.get(k)
                if many is not None and many(self, f):
                    return  # a real choice, known without listing it
                opts = E.OPTIONS[k](self, f)
                if len(opts) >= 2:
                    return
                if opts:
                    E.RESOLVE[k](self, f, opts[0])
                else:
                    stack.pop()
                continue
            if self.phase == ACTION_PHASE:
                if self.actions > 0:
                    for c in self.players[self.turn_player].hand:
                        if IS_ACTION[c]:
                            return
                self._start_buy()
            if self.phase == BUY_PHASE:
                if self.buys > 0 and self._can_buy_something():
                    return
                self._cleanup()
            if self.phase == OVER:
                return

    def _start_buy(self) -> None:
        """Enter the buy phase. All Treasures in hand are played at once: in the base
        set no card cares about a Treasure left in hand, so this is the same game (N-TURN-2)."""
        self.phase = BUY_PHASE
        ps = self.players[self.turn_player]
        hand = ps.hand
        coins = 0
        kept = None  # the other cards, if any
        in_play = ps.in_play
        for c in hand:
            v = _TREASURE_COINS[c]
            if v >= 0:
                coins += v
                in_play.append(c)
            elif kept is None:
                kept = [c]
            else:
                kept.append(c)
        if kept is None or len(kept) != len(hand):  # Treasures played
            ps.hand = kept or []
            if ps.shown:
                ps.shown = [c for c in ps.shown if not IS_TREASURE[c]]
        self.coins += coins
        if self.log is not None:
            self.log.append((EV_TREASURES, self.turn_player, -1, coins))

    def _can_buy_something(self) -> bool:
        supply = self.supply
        if supply[COPPER] > 0 or supply[CURSE] > 0:
            return True
        coins = self.coins
        return any(supply[c] > 0 and COST[c] <= coins for c in self.in_supply)

    def _cleanup(self) -> None:
        """Clean-up (N-TURN-3), the end check (N-END-1) and the next turn."""
        tp = self.turn_player
        self.players[tp].clean_up()
        self.draw(tp, 5)
        self._next_turn()

    def _next_turn(self) -> None:
        """After a clean-up: the end check (N-END-1), then the next player's turn."""
        if self.supply[PROVINCE] == 0:
            self._finish("provinces")
            return
        if self.empty_piles >= ENDING_PILES:
            self._finish("three-piles")
            return
        nxt = (self.turn_player + 1) % self.num_players
        mt = self.config.max_turns
        if mt is not None and self.players[nxt].turns >= mt:
            self._finish("turn-limit")
            return
        self.turn_player = nxt
        self.turn_number += 1
        self.players[nxt].turns += 1
        self.phase = ACTION_PHASE
        self.actions = 1
        self.buys = 1
        self.coins = 0
        if self.log is not None:
            self.log.append((EV_TURN, nxt, -1, self.players[nxt].turns))

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.reason = reason
        self.stack.clear()
        if self.log is not None:
            self.log.append((EV_END, -1, -1, reason))

    # --------------------------------------------------------------- protocol
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.stack:
            return self.stack[-1].player
        return self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[Action]:
        """The legal actions now, as interned values, in a stable order."""
        if self.phase == OVER:
            return []
        if self.stack:
            f = self.stack[-1]
            return E.OPTIONS[f.kind](self, f)
        if self.phase == ACTION_PHASE:
            hand = self.players[self.turn_player].hand
            acts = [PLAY_A[c] for c in sorted(set(hand)) if IS_ACTION[c]]
            acts.append(END_A)
            return acts
        coins = self.coins
        supply = self.supply
        acts = [BUY_A[c] for c in self.in_supply if supply[c] > 0 and COST[c] <= coins]
        acts.append(END_A)
        return acts

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def _check(self, action: Action) -> None:
        """Raise IllegalActionError saying why ``action`` is not legal now."""
        if self.phase == OVER:
            raise IllegalActionError("the game is over")
        if not isinstance(action, Action):
            if isinstance(action, str):
                raise IllegalActionError(f"apply() takes an Action, not the text {action!r}: "
                                         f"state.parse_action({action!r}) reads it")
            raise IllegalActionError(f"not a Dominion action: {action!r}")
        for c in action.cards:
            if type(c) is not int or not 0 <= c < NUM_CARDS:
                raise IllegalActionError(f"{c!r} is not a card id (0 to {NUM_CARDS - 1})")
        if self.stack:
            f = self.stack[-1]
            E.check(self, f, action)
            return
        verb = action.verb
        if verb == END:
            if action.cards:
                raise IllegalActionError("'end' takes no card")
            return
        if len(action.cards) != 1:
            raise IllegalActionError(f"'{verb}' takes exactly one card")
        card = action.cards[0]
        if self.phase == ACTION_PHASE:
            if verb != PLAY:
                raise IllegalActionError(
                    f"it is the action phase: 'play' an Action card or 'end', not '{verb}'"
                )
            if not IS_ACTION[card]:
                raise IllegalActionError(f"{NAME[card]} is not an Action card")
            if card not in self.players[self.turn_player].hand:
                raise IllegalActionError(f"{NAME[card]} is not in your hand")
            if self.actions <= 0:
                raise IllegalActionError("no Actions left")
            return
        if verb != BUY:
            raise IllegalActionError(f"it is the buy phase: 'buy' a card or 'end', not '{verb}'")
        if card not in self.in_supply:
            raise IllegalActionError(f"{NAME[card]} is not in this game's Supply")
        if self.supply[card] <= 0:
            raise IllegalActionError(f"the {NAME[card]} pile is empty")
        if COST[card] > self.coins:
            raise IllegalActionError(
                f"{NAME[card]} costs {COST[card]} but you have {self.coins} coins"
            )
        if self.buys <= 0:
            raise IllegalActionError("no Buys left")

    def apply(self, action: Action) -> None:
        """Apply a legal action (IllegalActionError, state unchanged, otherwise)."""
        stack = self.stack
        if not stack and self.phase == BUY_PHASE:
            # Hot path: the interned ``buy X`` values bots return, known by identity.
            card = _INTERNED_BUY.get(id(action), -1)
            if card >= 0 and self.supply[card] > 0 and COST[card] <= self.coins and self.buys:
                self.coins -= COST[card]  # as _buy, inlined
                self.buys -= 1
                if self.log is not None:
                    self.log.append((EV_BUY, self.turn_player, card, 0))
                self.gain(self.turn_player, card)
                self.history.append(action)
                self._advance()
                return
        self._check(action)
        self.apply_legal(action)

    def apply_legal(self, action: Action) -> None:
        """Apply ``action``, known to be legal (:meth:`is_legal` said so), without checking
        it again: a bot's answer that it checked itself. An illegal one breaks the state."""
        stack = self.stack
        if stack:
            E.resolve(self, stack[-1], action)
        elif action.verb == END:
            if self.phase == ACTION_PHASE:
                self._start_buy()
            else:
                self._cleanup()
        elif action.verb == BUY:
            self._buy(action.cards[0])
        else:
            # Play an Action card (N-TURN-1).
            card = action.cards[0]
            ps = self.players[self.turn_player]
            ps.take_from_hand(card)
            ps.in_play.append(card)
            self.actions -= 1
            self.play_card(self.turn_player, card)
        self.history.append(action)
        self._advance()

    def _buy(self, card: int) -> None:
        """Buy a checked card: pay, use a Buy, gain it to the discard pile (N-TURN-2)."""
        self.coins -= COST[card]
        self.buys -= 1
        if self.log is not None:
            self.log.append((EV_BUY, self.turn_player, card, 0))
        self.gain(self.turn_player, card)

    # ------------------------------------------------------------- scoring
    def score(self, p: int) -> int:
        """Victory points of everything ``p`` owns (N-END-2, N-CARD-GARDENS)."""
        owned = self.players[p].owned
        total = 0
        for c in C.VICTORIES:
            if owned[c]:
                total += owned[c] * VP[c]
        total -= owned[CURSE]
        if owned[GARDENS]:
            total += owned[GARDENS] * (sum(owned) // 10)
        return total

    def outcome(self) -> Outcome | None:
        """Highest VP wins; ties go to the tied player with fewer turns; still tied,
        a shared win (N-END-2)."""
        if self.phase != OVER:
            return None
        if self._outcome is None:
            scores = tuple(self.score(p) for p in range(self.num_players))
            turns = tuple(ps.turns for ps in self.players)
            keys = [(scores[p], -turns[p]) for p in range(self.num_players)]
            ranks = tuple(1 + sum(1 for k in keys if k > keys[p]) for p in range(self.num_players))
            self._outcome = Outcome(scores=scores, ranks=ranks, reason=self.reason, turns=turns)
        return self._outcome

    def winners(self) -> list[int]:
        """The players ranked first in a finished game, as :meth:`outcome` ranks them
        (highest VP, then fewer turns: N-END-2), without building the outcome: a search
        reads only this at the end of each rollout.

        >>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=1))
        >>> s.players[1].owned[C.PROVINCE] += 1
        >>> s._finish("provinces")
        >>> s.winners(), s.outcome().winners
        ([1], (1,))
        """
        players = self.players
        best = (-(1 << 30), 0)
        out: list[int] = []
        for p in range(self.num_players):
            key = (self.score(p), -players[p].turns)
            if key > best:
                best = key
                out = [p]
            elif key == best:
                out.append(p)
        return out

    def treasure_value(self, p: int) -> int:
        """Total coins of all Treasures ``p`` owns (the 'total money' of bots)."""
        owned = self.players[p].owned
        return owned[COPPER] + 2 * owned[C.SILVER] + 3 * owned[C.GOLD]

    # ----------------------------------------------------------- accessors
    def decision(self) -> Decision:
        """What is being decided now (the phase, or the pending card decision)."""
        if self.phase == OVER:
            return Decision("over", TERMINAL)
        if self.stack:
            return E.describe(self, self.stack[-1])
        return Decision(PHASE_NAMES[self.phase], self.turn_player)

    # ------------------------------------------------------------ notation
    def format_action(self, action: Action) -> str:
        return str(action)

    def parse_action(self, text: str) -> Action:
        """Parse notation here, allowing unambiguous prefixes of verbs and card names
        among the legal actions (``b prov`` → ``buy Province``)."""
        if not isinstance(text, str):
            raise ParseError(f"an action's notation is a string, not {text!r}")
        words = text.split()
        if not words:
            raise ParseError("empty action; type 'help' to list the legal actions")
        try:
            action = parse(text)
        except ParseError:
            action = None
        legal = self.legal_actions()
        if action is not None and (self.is_legal(action) or not legal):
            return action
        verbs = sorted({a.verb for a in legal})
        vmatch = [v for v in verbs if v == words[0].lower()] or [
            v for v in verbs if v.startswith(words[0].lower())
        ]
        if not vmatch:
            if action is not None:
                return action  # well-formed but illegal: apply() will say why
            raise ParseError(
                f"{words[0]!r} is not a legal verb now; legal: {', '.join(verbs)}"
            )
        if len(vmatch) > 1:
            raise ParseError(f"{words[0]!r} is ambiguous: {', '.join(vmatch)}")
        verb = vmatch[0]
        if len(words) == 1:
            cands = [a for a in legal if a.verb == verb]
            if len(cands) == 1 and not cands[0].cards:
                return cands[0]
            if action is not None:
                return action
            raise ParseError(f"'{verb}' needs a card: {', '.join(str(a) for a in cands)}")
        pool = sorted({c for a in legal if a.verb == verb for c in a.cards})
        chosen: list[int] = []
        for word in _card_words(words[1:]):
            m = C.match_prefix(word, pool) or C.match_prefix(word)
            if not m:
                raise ParseError(f"no card matches {word!r}")
            if len(m) > 1:
                raise ParseError(
                    f"{word!r} is ambiguous: {', '.join(NAME[c] for c in m)}"
                )
            chosen.append(m[0])
        return Action(verb, tuple(chosen))

    # -------------------------------------------------------------- views
    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (N-HIDDEN): their own hand, every pile's size, the
        top of every discard pile, the trash, the Supply, cards in play and revealed
        cards, and of each player what everyone knows: the cards in the hand (``shown``:
        a revealed Moat, say), the cards seen put on top of the deck (``deck_top``, the
        next to be drawn first: Bureaucrat's Silver, Spy's kept card) and the cards seen
        going to the discard pile (``discard_seen``: all but those discarded face down
        together, such as a hand at clean-up; the top card is always seen). Never another
        player's hand, any other deck order or an unseen discard. ``None``: a spectator.

        >>> s = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=3))
        >>> pile = s.view(None)["piles"][0]
        >>> pile["shown"], pile["deck_top"], pile["discard_seen"]
        ([], [], [])
        """
        return self.views([player])[0]

    def views(self, players: Sequence[int | None], *, log: bool = True
              ) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``players``; their public parts are built once and
        shared (read-only). ``log=False`` leaves the log out."""
        for player in players:
            if player is not None:
                player_index(player, self.num_players)  # ConfigError naming the players
        from dominari.dominion.render import describe_decision, log_lines

        piles = []
        for q, ps in enumerate(self.players):
            piles.append({
                "player": q,
                "name": self.config.names[q] if self.config.names else f"P{q + 1}",
                "hand_size": len(ps.hand),
                "deck_size": len(ps.deck),
                "discard_size": len(ps.discard),
                "discard_top": NAME[ps.discard[-1]] if ps.discard else None,
                "in_play": [NAME[c] for c in ps.in_play],
                "aside": [NAME[c] for c in ps.aside],
                "shown": sorted(NAME[c] for c in ps.shown),
                "deck_top": [NAME[c] for c in ps.deck_top()],
                "discard_seen": sorted(NAME[c] for c in ps.seen_discards()),
                "turns": ps.turns,
            })  # fmt: skip
        current = self.current_player()
        decision = self.decision()
        kingdom = [NAME[c] for c in self.kingdom]
        supply = {NAME[c]: self.supply[c] for c in self.in_supply}
        trash = [NAME[c] for c in self.trash]
        lines = (log_lines(self) if self.log is not None else []) if log else None
        out = self.outcome()
        outcome = out.to_json() if out is not None else None
        legal: list[str] | None = None
        views = []
        for player in players:
            if player is not None and player == current:
                if legal is None:
                    legal = [str(a) for a in self.legal_actions()]
                mine = legal
            else:
                mine = []
            v: dict[str, Any] = {
                "game": "dominion",
                "player": player,
                "players": self.num_players,
                "turn": self.turn_number,
                "turn_player": self.turn_player,
                "current_player": current,
                "phase": self.phase_name,
                "actions": self.actions,
                "buys": self.buys,
                "coins": self.coins,
                "kingdom": kingdom,
                "supply": supply,
                "trash": trash,
                "piles": piles,
                "decision": describe_decision(self, decision, player),
                "hand": [NAME[c] for c in sorted(self.players[player].hand)]
                if player is not None else None,
                "legal_actions": mine,
            }  # fmt: skip
            if lines is not None:
                v["log"] = lines
            v["outcome"] = outcome
            views.append(v)
        return views

    def determinize(self, player: int, rng: Any, *, tries: int = 200) -> DominionState:
        """A copy in which everything ``player`` cannot see is dealt again at random:
        other players' hands, decks and the cards in their discard piles nobody saw go
        there (``PlayerState.hidden``, such as a hand discarded at clean-up), pooled and dealt
        again in the same sizes, and every deck order, with a fresh RNG drawn from
        ``rng``. Cards everyone saw put on top of a deck stay there, and so do the cards
        seen going to a discard pile and its top card, and the cards known to be in a hand
        (``PlayerState.shown``: a revealed Moat, say). What is public about a hand holds
        in the copy: in the buy phase the turn player's hand holds no Treasure (they
        were all played), and a deciding player keeps a real choice exactly when they
        had one (only such deals are kept; after ``tries`` failed deals their hand is
        kept).
        """
        if type(player) is not int or not 0 <= player < self.num_players:
            player_index(player, self.num_players)  # ConfigError naming the players
        if not isinstance(rng, random.Random):
            raise ConfigError(f"determinize needs a random.Random, not {rng!r}")
        s = self._copy(random.Random(rng.getrandbits(64)))  # not a clone, replaced at once
        s.dealt_again = True
        pinned = E.pinned_cards(s)
        decider = s.current_player()
        choice = decider >= 0 and decider != player and len(self.legal_actions()) >= 2
        buying = self.phase == BUY_PHASE
        for q, ps in enumerate(s.players):
            known = ps.deck[len(ps.deck) - ps.known_top:] if ps.known_top else []
            unknown = ps.deck[: len(ps.deck) - ps.known_top]
            if q == player:
                shuffle(rng, unknown)
                ps.deck = unknown + known
                continue
            keep = list(pinned.get(q, ())) + ps.shown
            hidden = ps.hidden
            pool = ps.hand + unknown + hidden
            for c in keep:
                pool.remove(c)
            k = len(ps.hand) - len(keep)
            h = len(hidden)
            seen: list[int] = []
            if h:  # the discard pile without its unseen cards; the top card stays on top
                seen = ps.seen_discards()
                seen_top = seen.pop()
            original = (ps.hand, ps.deck, ps.discard, ps.hidden)
            no_treasure = buying and q == s.turn_player
            for _ in range(tries):
                shuffle(rng, pool)
                if no_treasure:  # the hand from the non-Treasures, the rest elsewhere
                    rest = [c for c in pool if not IS_TREASURE[c]]
                    hand = rest[:k]
                    deck = rest[k:] + [c for c in pool if IS_TREASURE[c]]
                    shuffle(rng, deck)
                else:
                    hand, deck = pool[:k], pool[k:]
                ps.hand = keep + hand
                if h:
                    ps.hidden = deck[:h]
                    ps.discard = seen + ps.hidden
                    ps.discard.append(seen_top)
                    deck = deck[h:]
                ps.deck = deck + known
                if q != decider or (len(s.legal_actions()) >= 2) == choice:
                    break
            else:
                ps.hand, ps.deck, ps.discard, ps.hidden = original
        return s

    # ------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The game record: seed, config and actions in notation (JSON-ready); a
        :class:`RecordError` for a state :attr:`dealt_again`."""
        if self.dealt_again:
            raise RecordError(DEALT_AGAIN)
        cfg = self.config.to_json()
        cfg["seed"] = self.seed
        out = self.outcome()
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": "dominion",
            "config": cfg,
            "kingdom": [NAME[c] for c in self.kingdom],
            "actions": [str(a) for a in self.history],
            "outcome": out.to_json() if out is not None else None,
        }

    @classmethod
    def from_record(cls, record: Any, *, log: bool = False, upto: int | None = None
                    ) -> DominionState:
        """Replay a record (its first ``upto`` actions, where given). Raises
        :class:`RecordError` saying what is wrong with the record, ``ConfigError`` with
        ``upto``."""
        record = check_header(record, "dominion")
        try:
            config = DominionConfig.from_json(record.get("config"), log=log)
        except ConfigError as exc:
            raise RecordError(f"record config: {exc}") from None
        if config.seed is None:
            raise RecordError("record config has no seed, so the game cannot be replayed")
        try:
            state = cls.new(config)
        except ConfigError as exc:
            raise RecordError(f"record config: {exc}") from None
        kingdom = record.get("kingdom")
        if kingdom is not None and kingdom != [NAME[c] for c in state.kingdom]:
            raise RecordError(f"the record's kingdom {kingdom!r} is not the one its config "
                              f"deals ({', '.join(NAME[c] for c in state.kingdom)})")
        replay(state, record, upto, parse)
        return state

    def __repr__(self) -> str:
        return (f"<DominionState seed={self.seed} turn={self.turn_number} "
                f"player={self.turn_player} phase={self.phase_name}>")


def _card_words(words: Sequence[str]) -> list[str]:
    """Group words into card names: up to three words are joined when together they
    start a card name (``thr room`` → one word), longest first."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for width in (3, 2):
            if i + width <= len(words) and C.match_prefix("".join(words[i : i + width])):
                out.append("".join(words[i : i + width]))
                i += width
                break
        else:
            out.append(words[i])
            i += 1
    return out
