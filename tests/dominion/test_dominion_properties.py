"""Property tests over random games: conservation of cards, hidden information,
determinize, records, notation, copies, and many complete random games."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominari.core.errors import IllegalActionError
from dominari.core.rng import clone
from dominari.dominion import cards as C
from dominari.dominion import effects as E
from dominari.dominion.actions import VERBS, Action, parse
from dominari.dominion.engine import END_REASONS, TERMINAL, DominionState

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
seeds = st.integers(0, 2**32 - 1)
players = st.sampled_from([2, 3, 4])
steps = st.integers(0, 400)


def start(kit, seed: int, n: int, *, log: bool = False) -> DominionState:
    return kit.new(n, "random", seed, log=log, max_turns=30)


def walk(
    kit, seed: int, n: int, k: int, *, log: bool = False, pending: bool = False
) -> DominionState:
    """A random game after ``k`` random actions; with ``pending``, played on (a little)
    until a card's decision is pending, where most of the hidden-information cases are."""
    s = start(kit, seed, n, log=log)
    rng = random.Random(seed)
    kit.play_random(s, rng, k)
    for _ in range(300):
        if not pending or s.stack or s.is_terminal():
            break
        s.apply(kit.random_action(s, rng))
    return s


def initial_totals(s: DominionState) -> Counter[int]:
    """All the cards of ``s``'s game as it was set up."""
    fresh = DominionState.new(s.config)
    total = Counter({c: fresh.supply[c] for c in fresh.in_supply})
    total[C.COPPER] += 7 * s.num_players
    total[C.ESTATE] += 3 * s.num_players
    return +total


@pytest.mark.rule("N-SET-2", "N-TURN-5")
@SETTINGS
@given(seeds, players, steps)
def test_cards_are_conserved(kit, seed: int, n: int, k: int) -> None:
    s = start(kit, seed, n)
    expected = initial_totals(s)
    assert kit.totals(s) == expected

    def check(state: DominionState, _a: Action) -> None:
        assert kit.totals(state) == expected
        kit.check_owned(state)
        assert state.empty_piles == sum(1 for c in state.in_supply if state.supply[c] == 0)

    kit.play_random(s, random.Random(seed), k, each=check)
    check(s, Action("end"))


def _candidates(s: DominionState, rng: random.Random) -> list[Action]:
    """Single-card and card-less actions, legal or not."""
    out = [Action(v) for v in ("end", "done", "pass", "discard-deck")]
    for _ in range(4):
        verb = rng.choice([v for v in VERBS if v not in ("end", "done", "pass", "discard-deck")])
        out.append(Action(verb, (rng.randrange(C.NUM_CARDS),)))
    return out


@pytest.mark.rule("N-TURN-1", "N-TURN-2")
@SETTINGS
@given(seeds, players, steps)
def test_legal_actions_match_is_legal_and_illegal_changes_nothing(
    kit, seed: int, n: int, k: int
) -> None:
    s = start(kit, seed, n)
    rng = random.Random(seed ^ 0x5A5A)

    def check(state: DominionState, _a: Action) -> None:
        legal = state.legal_actions()
        assert legal and state.current_player() != TERMINAL
        assert 0 <= state.current_player() < n
        assert len(set(legal)) == len(legal)
        assert all(state.is_legal(a) for a in legal)
        before = kit.snapshot(state)
        for a in _candidates(state, rng):
            assert state.is_legal(a) == (a in legal), a
            if a not in legal:
                with pytest.raises(IllegalActionError):
                    state.apply(a)
        assert kit.snapshot(state) == before

    kit.play_random(s, random.Random(seed), k, each=check)
    if s.is_terminal():
        assert s.legal_actions() == [] and s.current_player() == TERMINAL


_ONE_CARD = [Action(v) for v in ("end", "done", "pass", "discard-deck")] + [
    Action(v, (c,)) for v in VERBS if v not in ("end", "done", "pass", "discard-deck")
    for c in range(C.NUM_CARDS)]
"""Every answer of at most one card."""


@pytest.mark.rule("N-CARD-CELLAR", "N-CARD-CHAPEL", "N-CARD-MILITIA", "N-CARD-MOAT",
                  "N-CARD-REMODEL", "N-CARD-THRONEROOM", "N-CARD-FEAST", "N-CARD-MINE")
@SETTINGS
@given(seeds, players, steps)
def test_the_decisions_shortcuts_agree_with_their_options(
        kit, seed: int, n: int, k: int) -> None:
    """``effects.ANSWERS`` and ``effects.MANY`` spare the hot path listing a decision's
    options. They may answer only what the options say: here every decision of their
    kinds, for every player's hand of a random game and counts around the limits, against
    every answer of one card or none. Where they are exact (all but ``MANY`` for gains,
    which only looks at Copper and Curse), they must also say every "yes"."""
    s = walk(kit, seed, n, k)
    if s.is_terminal():
        return
    for kind in set(E.ANSWERS) | set(E.MANY):
        for p in range(n):
            for count in range(7):
                f = E.Frame(kind, p, p, C.CHAPEL, count)
                opts = E.OPTIONS[kind](s, f)
                many = E.MANY.get(kind)
                if many is not None:
                    assert many(s, f) <= (len(opts) >= 2), (kind, count)
                    if kind != E.GAIN_CARD:
                        assert many(s, f) == (len(opts) >= 2), (kind, count)
                sure = E.ANSWERS.get(kind)
                if sure is not None:
                    for a in _ONE_CARD:
                        assert sure(s, f, a) == (a in opts), (kind, count, a)


@pytest.mark.rule("N-HIDDEN")
@SETTINGS
@given(seeds, players, steps, st.booleans())
def test_views_do_not_depend_on_hidden_cards(
    kit, seed: int, n: int, k: int, pending: bool
) -> None:
    s = walk(kit, seed, n, k, log=True, pending=pending)
    rng = random.Random(seed)
    for viewer in [*range(n), None]:
        v = s.view(viewer)
        json.dumps(v)
        for _ in range(3):
            assert kit.scramble(s, viewer, rng).view(viewer) == v
        if viewer is None:
            assert v["hand"] is None and v["legal_actions"] == []
        else:
            assert Counter(v["hand"]) == kit.hand(s, viewer)
            if viewer != s.current_player():
                assert v["legal_actions"] == []


@pytest.mark.rule("N-HIDDEN")
@SETTINGS
@given(seeds, players, steps, st.booleans())
def test_determinize_keeps_the_view_and_the_cards(
    kit, seed: int, n: int, k: int, pending: bool
) -> None:
    s = walk(kit, seed, n, k, pending=pending)
    rng = random.Random(seed)
    totals = kit.totals(s)
    original = kit.snapshot(s)
    for viewer in range(n):
        d = s.determinize(viewer, rng)
        assert d.view(viewer) == s.view(viewer)
        assert kit.totals(d) == totals
        kit.check_owned(d)
        assert d.players[viewer].hand == s.players[viewer].hand
        assert d.is_terminal() == s.is_terminal()
        if not d.is_terminal():
            assert d.legal_actions(), f"determinized for {viewer}: no legal action"
            kit.play_random(d, random.Random(seed + viewer), 60)
            kit.check_owned(d)
    assert kit.snapshot(s) == original


@SETTINGS
@given(seeds, players, steps)
def test_records_replay_to_identical_states(kit, seed: int, n: int, k: int) -> None:
    s = walk(kit, seed, n, k)
    rec = json.loads(json.dumps(s.record()))
    assert rec["config"]["seed"] == seed and len(rec["actions"]) == len(s.history)
    r = DominionState.from_record(rec)
    assert r.view(None) == s.view(None)
    assert kit.snapshot(r) == kit.snapshot(s)
    assert r.outcome() == s.outcome()
    if k > 0:
        part = DominionState.from_record(rec, upto=k // 2)
        again = kit.new(n, "random", seed, max_turns=30)
        for a in s.history[: k // 2]:
            again.apply(a)
        assert kit.snapshot(part) == kit.snapshot(again)


@SETTINGS
@given(seeds, players, steps)
def test_notation_round_trips(kit, seed: int, n: int, k: int) -> None:
    def check(state: DominionState, a: Action) -> None:
        for b in [*state.legal_actions(), a]:
            text = str(b)
            assert parse(text) == b
            assert parse(text.lower()) == b
            assert state.parse_action(text) == b
            assert state.format_action(b) == text

    s = start(kit, seed, n)
    kit.play_random(s, random.Random(seed), k, each=check)


@SETTINGS
@given(seeds, players, steps, st.integers(1, 80))
def test_copy_is_independent(kit, seed: int, n: int, k: int, more: int) -> None:
    s = walk(kit, seed, n, k, log=True)
    before = kit.snapshot(s)
    c = s.copy()
    assert kit.snapshot(c) == before
    done = kit.play_random(c, random.Random(seed + 1), more)
    assert kit.snapshot(s) == before
    # The same actions from the original reach the same state (the RNG is copied too).
    rng = clone(s.rng)
    given_rng = s.copy(rng)  # a copy drawing from the generator it is given
    assert given_rng.rng is rng
    for a in done:
        s.apply(a)
    assert kit.snapshot(s) == kit.snapshot(c)
    for a in done:
        given_rng.apply(a)
    assert kit.snapshot(given_rng) == kit.snapshot(s)


def _random_game(kit, seed: int) -> DominionState:
    rng = random.Random(seed)
    n = 2 + seed % 3
    s = kit.new(n, "random", seed, max_turns=rng.randint(3, 40))
    kit.play_random(s, rng)
    return s


def _check_finished(kit, s: DominionState, expected: Counter[int]) -> None:
    assert s.is_terminal() and s.reason in END_REASONS  # (what a journal may hold)
    out = s.outcome()
    assert out is not None and out.winners
    assert out.scores == tuple(s.score(q) for q in range(s.num_players))
    best = max(zip(out.scores, (-t for t in out.turns), strict=True))
    assert all((out.ranks[q] == 1) == ((out.scores[q], -out.turns[q]) == best)
               for q in range(s.num_players))  # fmt: skip
    assert s.winners() == list(out.winners)  # a search's rollouts read only this
    if s.reason == "provinces":
        assert s.supply[C.PROVINCE] == 0
    elif s.reason == "three-piles":
        assert sum(1 for c in s.in_supply if s.supply[c] == 0) >= 3
    assert kit.totals(s) == expected
    kit.check_owned(s)
    for ps in s.players:
        assert not ps.in_play and not ps.aside


@pytest.mark.rule("N-END-1", "N-END-2")
def test_thousands_of_random_games(kit) -> None:
    reasons: Counter[str] = Counter()
    shared = 0
    for seed in range(3000):
        s = _random_game(kit, seed)
        _check_finished(kit, s, initial_totals(s))
        reasons[s.reason] += 1
        shared += len(s.winners()) > 1
    assert reasons["three-piles"] > 0 and reasons["turn-limit"] > 0
    assert shared > 0  # shared victories are among them


@pytest.mark.slow
@pytest.mark.rule("N-END-1", "N-END-2")
def test_many_more_random_games_checked_at_every_step(kit) -> None:
    for seed in range(3000, 23000):
        rng = random.Random(seed)
        n = 2 + seed % 3
        s = kit.new(n, "random", seed, max_turns=rng.randint(3, 60))
        expected = initial_totals(s)
        kit.play_random(s, rng, each=lambda st, _a: kit.check_owned(st))
        _check_finished(kit, s, expected)
