"""Dominion games played to the end by strategy bots, fast: simulations and the search's rollouts.

:func:`play_out` is what ``state.apply(bots[state.current_player()].act(state))`` in a loop
does, decision for decision, with the same random numbers, the same actions in the history
and the same end, about a third faster: the common steps of a Big Money turn (playing an
Action card whose effect is only "+Cards, +Actions, +Buys, +Coins", the Treasures, a buy,
the clean-up) are done in place, without the generic dispatch, checks and
phase loop. Anything else (a card with its own effect, a pending decision) is played by the
engine (``apply_legal``: a strategy bot's answers are legal), and another kind of bot or an
event log through ``act`` and ``apply`` as usual. A search's rollout, whose end alone is
read, skips the history too (``record=False``).

>>> from dominari.bots import load_bot
>>> from dominari.dominion.engine import DominionConfig, DominionState
>>> a = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=4))
>>> b = a.copy()
>>> bots = [load_bot("smithy-market", "dominion"), load_bot("smithy", "dominion")]
>>> steps = play_out(a, bots)
>>> n = 0
>>> while not b.is_terminal():
...     b.apply(bots[b.current_player()].act(b))
...     n += 1
>>> (steps, a.history, a.outcome()) == (n, b.history, b.outcome())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dominari.bots.learned import NOTHING
from dominari.bots.strategy import StrategyBot
from dominari.dominion import effects as E
from dominari.dominion.actions import BUY_A, END_A
from dominari.dominion.cards import CARDS, COPPER, COST, IS_ACTION
from dominari.dominion.engine import ACTION_PHASE, OVER, DominionState

_PLAIN = tuple(IS_ACTION[c] and E.SPECIAL[c] is None for c in range(len(IS_ACTION)))
"""Action cards whose whole effect is +Cards, +Actions, +Buys and +Coins."""
_PLUS = tuple((c.plus_cards, c.plus_actions, c.plus_buys, c.plus_coins) for c in CARDS)


def can_play_out(state: DominionState, bots: Sequence[Any]) -> bool:
    """Whether :func:`play_out` plays ``state`` its fast way: strategy bots in every seat
    and no event log (otherwise it applies each bot's action in turn)."""
    return state.log is None and all(type(b) is StrategyBot for b in bots)


def play_out(state: DominionState, bots: Sequence[Any], record: bool = True) -> int:
    """Play ``state`` to the end with ``bots`` (one per seat); return the number of
    decisions taken (the actions applied), as a step-by-step loop would count them.

    ``record=False`` is for a scratch game whose end alone matters (a search's rollout):
    the same game, with the same random numbers and the same count, but the actions
    played here are not added to ``history`` and the discards nobody saw are not noted in
    ``PlayerState.hidden`` (both serve records and ``determinize`` only)."""
    if not can_play_out(state, bots):
        return _generic(state, bots)
    steps = 0
    history = state.history
    players = state.players
    supply = state.supply
    while True:
        phase = state.phase
        if phase == OVER:
            return steps
        if state.stack:  # a pending decision (an attack, a gain): the bot's answer,
            # checked as StrategyBot.act checks it (the same answer, the same game)
            steps += 1
            f = state.stack[-1]
            p = state.current_player()
            kind = f.kind
            sure = E.ANSWERS.get(kind)  # a Militia discard, a gain, a Mine...: where the
            # decision's shortcut knows the answer legal, without the generic checks
            if sure is not None:
                answer = bots[p]._by_kind[kind](state, p)
                if answer is not None and sure(state, f, answer):
                    state.apply_legal(answer)
                    continue
            state.apply_legal(bots[p].act(state))  # anything else: as act answers it
            continue
        tp = state.turn_player
        bot: StrategyBot = bots[tp]
        ps = players[tp]
        if phase == ACTION_PHASE:  # a decision: an Action card is in hand, an Action left
            steps += 1
            action = bot._action_phase(state, tp)
            if action is not END_A:
                card = action.cards[0]
                if not _PLAIN[card]:
                    state.apply_legal(action)  # its own effect: the engine's way
                    continue
                ps.take_from_hand(card)
                ps.in_play.append(card)
                if record:
                    history.append(action)
                plus_cards, plus_actions, plus_buys, plus_coins = _PLUS[card]
                if plus_cards:  # as DominionState.play_card, for a plain card
                    state.draw(tp, plus_cards)
                state.actions += plus_actions - 1
                state.buys += plus_buys
                state.coins += plus_coins
                if state.actions > 0 and _has_action(ps.hand):
                    continue
            elif record:
                history.append(action)
            state._start_buy()  # every Treasure in hand is played
        # The buy phase: a decision while a Buy is left and something can be bought.
        rules = bot._rules
        learned = bot.learned
        while state.buys > 0 and (supply[COPPER] > 0 or state._can_buy_something()):
            steps += 1
            coins = state.coins
            for card, cost, cond, _ in rules:
                if cost <= coins and supply[card] > 0 and (cond is None
                                                           or cond(state, tp, coins)):
                    break
            else:
                if learned is None:
                    if record:
                        history.append(END_A)
                    break
                card = NOTHING
            if learned is not None:  # a learned policy may overrule the rules' buy
                card = learned.choose(state, tp, card)
                if card == NOTHING:
                    if record:
                        history.append(END_A)
                    break
                cost = COST[card]
            state.coins -= cost
            state.buys -= 1
            supply[card] -= 1  # gained to the discard pile, as DominionState.gain
            if not supply[card]:
                state.empty_piles += 1
            ps.owned[card] += 1
            ps.discard.append(card)
            if record:
                history.append(BUY_A[card])
        # Clean-up (N-TURN-3), as PlayerState.clean_up and DominionState._cleanup: the
        # discards and a new hand; then the end check and the next turn.
        hand = ps.hand
        discard = ps.discard
        discard += ps.in_play
        if record and len(hand) > 1:
            ps.hidden += hand[:-1]  # PlayerState.hide: all but the card left on top
        discard += hand
        ps.in_play = []
        if ps.shown:
            ps.shown = []
        deck = ps.deck
        if len(deck) >= 5 and not ps.known_top:
            ps.hand = deck[-5:]
            del deck[-5:]
        else:
            ps.hand = []
            state.draw(tp, 5)
        state._next_turn()
        if state.phase == OVER:
            return steps
        if not _has_action(players[state.turn_player].hand):  # no decision: the Treasures
            state._start_buy()


def _has_action(hand: list[int]) -> bool:
    for c in hand:  # noqa: SIM110 - a loop: any() over a generator is twice as slow here
        if IS_ACTION[c]:
            return True
    return False



def _generic(state: DominionState, bots: Sequence[Any]) -> int:
    steps = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player()].act(state))
        steps += 1
    return steps
