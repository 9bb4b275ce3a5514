"""The engines' RNG helpers draw exactly what :mod:`random` draws (determinism: a seed and
an action list replay a game, so a faster shuffle must not change a single deal)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominari.core.rng import clone, restore, shuffle, snapshot


@pytest.mark.rule("N-SET-1", "N-TURN-4")
@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(), max_size=80))
def test_shuffle_deals_what_random_shuffle_deals(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, reference = items[:], items[:]
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.getstate() == theirs.getstate()  # the same numbers drawn, no more


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=50))
def test_a_clone_goes_on_as_the_original_and_apart_from_it(seed: int, used: int) -> None:
    rng = random.Random(seed)
    for _ in range(used):
        rng.random()
    twin = clone(rng)
    assert twin is not rng and twin.getstate() == rng.getstate()
    assert [twin.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    twin.random()
    assert twin.getstate() != rng.getstate()  # drawing from one leaves the other alone


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=50),
       st.booleans())
def test_generators_restored_from_one_snapshot_go_on_as_the_original(
        seed: int, used: int, gaussian: bool) -> None:
    """A search plays each candidate in one sampled world with a generator restored from
    one snapshot of the world's: each must draw what a clone would, and apart from the
    others. A half-used Gaussian pair is part of the state too."""
    rng = random.Random(seed)
    for _ in range(used):
        rng.random()
    if gaussian:
        rng.gauss(0.0, 1.0)  # leaves the pair's second value cached
    seeds = snapshot(rng)
    copies = [restore(seeds) for _ in range(3)]
    twin = clone(rng)
    assert all(type(c) is random.Random and c.getstate() == rng.getstate()
               for c in [*copies, twin])
    expected = [rng.gauss(0.0, 1.0), rng.random(), rng.getrandbits(40)]
    for c in [*copies, twin]:
        assert [c.gauss(0.0, 1.0), c.random(), c.getrandbits(40)] == expected
    copies[0].random()
    assert copies[0].getstate() != copies[1].getstate()
