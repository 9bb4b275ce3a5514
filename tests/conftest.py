"""Shared test helpers.

Dominion tests get the helpers through the session fixture ``kit`` (the
:class:`Kit` class): test modules must not import ``conftest`` themselves,
since several ``conftest.py`` files may exist under ``tests/``.

The central helper is :meth:`Kit.setup`, which puts a game in a chosen
position: it makes a player the active player at the start of their action
phase with the given hand, deck and discard pile (card names or ids; decks are
given top card first), keeps every player's ``owned`` counts consistent with
their zones and lets the engine run its automatic steps, exactly as after a
real turn change.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from dominari.dominion import cards as C
from dominari.dominion.actions import Action, parse
from dominari.dominion.engine import ACTION_PHASE, DominionConfig, DominionState
from dominari.dominion.kingdoms import RECOMMENDED

Cards = Sequence[str | int]
MULTI_KINDS = {"cellar": "discard", "chapel": "trash", "militia": "discard"}


def pytest_configure(config: pytest.Config) -> None:
    # pyproject registers these markers too; registering twice is harmless and keeps
    # the tests self-contained if it ever does not.
    config.addinivalue_line("markers", "rule(id, ...): names the spec rule ids a test checks")
    config.addinivalue_line("markers", "slow: long-running test")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip ``slow`` tests unless asked for (``-m slow`` or ``DOMINARI_SLOW=1``)."""
    if os.environ.get("DOMINARI_SLOW") == "1" or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or DOMINARI_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


class Kit:
    """Helpers to build, drive and inspect Dominion states in tests."""

    RECOMMENDED = RECOMMENDED

    # ---------------------------------------------------------------- cards
    @staticmethod
    def card(c: str | int) -> int:
        return c if isinstance(c, int) else C.card_id(c)

    @staticmethod
    def cards(cs: Iterable[str | int]) -> list[int]:
        return [Kit.card(c) for c in cs]

    @staticmethod
    def names(cs: Iterable[int]) -> list[str]:
        """Card names in the given order."""
        return [C.NAME[c] for c in cs]

    @staticmethod
    def bag(cs: Iterable[str | int]) -> Counter[str]:
        """A multiset of card names (order-free comparison of zones)."""
        return Counter(C.NAME[Kit.card(c)] for c in cs)

    # ---------------------------------------------------------------- states
    @staticmethod
    def new(
        players: int = 2, kingdom: str | Sequence[str] = "first-game", seed: int = 1,
        **kw: Any,
    ) -> DominionState:  # fmt: skip
        if not isinstance(kingdom, str):
            kingdom = tuple(kingdom)
        return DominionState.new(DominionConfig(players=players, kingdom=kingdom, seed=seed,
                                                **kw))

    @staticmethod
    def set_zones(
        state: DominionState, p: int, hand: Cards | None = None, deck: Cards | None = None,
        discard: Cards | None = None,
    ) -> None:  # fmt: skip
        """Give player ``p`` exactly these zones (``deck`` top card first; ``discard``
        top card last); in play and set aside become empty."""
        ps = state.players[p]
        ps.hand = Kit.cards(hand or ())
        ps.deck = Kit.cards(deck or ())[::-1]
        ps.discard = Kit.cards(discard or ())
        ps.in_play = []
        ps.aside = []
        Kit.recount(state, p)

    @staticmethod
    def recount(state: DominionState, p: int) -> None:
        ps = state.players[p]
        owned = [0] * C.NUM_CARDS
        for c in ps.all_cards():
            owned[c] += 1
        ps.owned = owned

    @staticmethod
    def setup(
        state: DominionState, p: int = 0, *, hand: Cards = (), deck: Cards = (),
        discard: Cards = (), others: dict[int, dict[str, Cards]] | None = None,
        actions: int = 1, buys: int = 1, coins: int = 0, supply: dict[str, int] | None = None,
        turns: dict[int, int] | None = None,
    ) -> DominionState:  # fmt: skip
        """Make ``p`` the active player at the start of an action phase with these
        zones; ``others`` maps other players to their zones (``hand``/``deck``/
        ``discard``; unnamed players keep theirs). ``supply`` sets pile sizes by card
        name (the empty-pile count follows); ``turns`` the players' turn counts (by
        default 1 for players up to ``p``, 0 after). Then the engine advances as usual."""
        state.stack.clear()
        named = {p: {"hand": hand, "deck": deck, "discard": discard}}
        named.update(others or {})
        for q, ps in enumerate(state.players):
            if q in named:
                z = named[q]
                Kit.set_zones(state, q, z.get("hand"), z.get("deck"), z.get("discard"))
            else:
                ps.discard += ps.in_play + ps.aside
                ps.in_play = []
                ps.aside = []
                Kit.recount(state, q)
        for name, n in (supply or {}).items():
            state.supply[Kit.card(name)] = n
        state.empty_piles = sum(1 for c in state.in_supply if state.supply[c] == 0)
        # Default turn counts: as in the first round of a game that player 0 began.
        for q, ps in enumerate(state.players):
            ps.turns = (turns or {}).get(q, 1 if q <= p else 0)
        state.turn_player = p
        state.turn_number = max(1, sum(ps.turns for ps in state.players))
        state.phase = ACTION_PHASE
        state.actions = actions
        state.buys = buys
        state.coins = coins
        state._advance()
        return state

    @staticmethod
    def position(
        players: int = 2, kingdom: str | Sequence[str] = "first-game", seed: int = 1,
        p: int = 0, *, log: bool = False, **kw: Any,
    ) -> DominionState:  # fmt: skip
        """A new game put in a position by :meth:`setup`."""
        return Kit.setup(Kit.new(players, kingdom, seed, log=log), p, **kw)

    # ---------------------------------------------------------------- driving
    @staticmethod
    def act(state: DominionState, *texts: str) -> DominionState:
        for text in texts:
            state.apply(parse(text))
        return state

    @staticmethod
    def legal(state: DominionState) -> list[str]:
        return [str(a) for a in state.legal_actions()]

    @staticmethod
    def kind(state: DominionState) -> str:
        """The kind of what is being decided now (a phase or a decision kind)."""
        return state.decision().kind

    @staticmethod
    def hand(state: DominionState, p: int) -> Counter[str]:
        return Kit.bag(state.players[p].hand)

    @staticmethod
    def held(state: DominionState, p: int) -> Counter[str]:
        """``p``'s hand plus the Treasures in play: the hand as it was before the buy
        phase played its Treasures automatically."""
        return Kit.bag(state.players[p].hand + [c for c in state.players[p].in_play
                                                if C.IS_TREASURE[c]])

    @staticmethod
    def top(state: DominionState, p: int, k: int | None = None) -> list[str]:
        """Names of ``p``'s deck, top card first (the top ``k`` cards if given)."""
        deck = state.players[p].deck[::-1]
        return Kit.names(deck if k is None else deck[:k])

    @staticmethod
    def events(state: DominionState, kind: int) -> list[tuple[Any, ...]]:
        assert state.log is not None, "make the state with log=True"
        return [e for e in state.log if e[0] == kind]

    # ---------------------------------------------------------------- checks
    @staticmethod
    def snapshot(state: DominionState) -> dict[str, Any]:
        """Everything that makes up a state, as comparable values."""
        return {
            "players": [
                (ps.hand[:], ps.deck[:], ps.discard[:], ps.in_play[:], ps.aside[:], ps.owned[:],
                 ps.turns, ps.known_top, sorted(ps.hidden)) for ps in state.players
            ],
            "supply": state.supply[:],
            "trash": state.trash[:],
            "empty_piles": state.empty_piles,
            "turn": (state.turn_player, state.turn_number, state.phase),
            "counters": (state.actions, state.buys, state.coins),
            "stack": [repr(f) for f in state.stack],
            "history": [str(a) for a in state.history],
            "rng": state.rng.getstate(),
            "reason": state.reason,
            "log": None if state.log is None else list(state.log),
        }

    @staticmethod
    def totals(state: DominionState) -> Counter[int]:
        """Every card in the game: Supply, trash and every player's zones."""
        total: Counter[int] = Counter()
        for c in state.in_supply:
            total[c] += state.supply[c]
        total.update(state.trash)
        for ps in state.players:
            total.update(ps.all_cards())
        return +total

    @staticmethod
    def check_owned(state: DominionState) -> None:
        for q, ps in enumerate(state.players):
            zones = Counter(ps.all_cards())
            owned = Counter({c: n for c, n in enumerate(ps.owned) if n})
            assert zones == owned, f"player {q}: owned {owned} but zones hold {zones}"
            # The unseen cards of a discard pile are in it, and never its top card.
            unseen = Counter(ps.hidden)
            assert unseen <= Counter(ps.discard[:-1]), f"player {q}: unseen {unseen} not in " \
                f"the discard pile below its top {ps.discard}"
            # The cards known to be in a hand are in it.
            assert Counter(ps.shown) <= Counter(ps.hand), f"player {q}: known in hand " \
                f"{ps.shown} but the hand is {ps.hand}"

    # ---------------------------------------------------------------- random play
    @staticmethod
    def scramble(state: DominionState, viewer: int | None, rng: random.Random) -> DominionState:
        """A copy differing only in what ``viewer`` cannot see: other players' hands and
        decks dealt again (same sizes), every deck reordered; the cards everyone saw put
        on top of a deck stay there, and the cards known to be in a hand stay in it."""
        c = state.copy()
        for q, ps in enumerate(c.players):
            cut = len(ps.deck) - ps.known_top
            unknown, known = ps.deck[:cut], ps.deck[cut:]
            if q == viewer:
                rng.shuffle(unknown)
                ps.deck = unknown + known
                continue
            rest = list(ps.hand)
            for card in ps.shown:
                rest.remove(card)
            pool = rest + unknown
            rng.shuffle(pool)
            ps.hand, ps.deck = ps.shown + pool[: len(rest)], pool[len(rest) :] + known
        return c

    @staticmethod
    def random_action(state: DominionState, rng: random.Random) -> Action:
        """A random legal action; sometimes a several-card selection for Cellar,
        Chapel or Militia (which ``legal_actions`` lists one card at a time)."""
        legal = state.legal_actions()
        verb = MULTI_KINDS.get(state.decision().kind)
        if verb is not None and rng.random() < 0.3:
            hand = state.players[state.current_player()].hand
            if state.decision().kind == "militia":
                k = len(hand) - 3
            elif state.decision().kind == "chapel":
                k = rng.randint(2, max(2, 4 - state.decision().count))
            else:
                k = rng.randint(2, max(2, len(hand)))
            if 2 <= k <= len(hand):
                multi = Action(verb, tuple(sorted(rng.sample(hand, k))))
                if state.is_legal(multi):
                    return multi
        return rng.choice(legal)

    @staticmethod
    def play_random(
        state: DominionState, rng: random.Random, steps: int | None = None,
        each: Any = None,
    ) -> list[Action]:  # fmt: skip
        """Apply random legal actions until the game ends (or ``steps`` are done),
        calling ``each(state, action)`` before each one if given."""
        done: list[Action] = []
        while not state.is_terminal() and (steps is None or len(done) < steps):
            a = Kit.random_action(state, rng)
            if each is not None:
                each(state, a)
            state.apply(a)
            done.append(a)
        return done


@pytest.fixture(scope="session")
def kit() -> type[Kit]:
    return Kit
