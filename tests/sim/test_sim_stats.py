"""Wilson intervals, integer tallies and seed derivation."""

from __future__ import annotations

import itertools
import math
import random
import re
from pathlib import Path

import pytest

from dominari.core.errors import ConfigError
from dominari.sim.runner import bot_seed, chunk_bounds, chunk_size, game_seed, seat_names
from dominari.sim.stats import (
    PlayerResult,
    SimResult,
    Tally,
    TurnPlace,
    mean_ci95,
    newcombe,
    t95,
    wilson,
    wilson_share,
)


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 10, 0.0179, 0.4042),
        (50, 100, 0.4038, 0.5962),
        (81, 263, 0.2553, 0.3662),
        (7245, 10000, 0.7157, 0.7332),
    ],
)
def test_wilson_reference_values(k: int, n: int, lo: float, hi: float) -> None:
    got_lo, got_hi = wilson(k, n)
    assert got_lo == pytest.approx(lo, abs=1e-4)
    assert got_hi == pytest.approx(hi, abs=1e-4)


@pytest.mark.parametrize(
    ("a", "n", "b", "m", "lo", "hi"),
    [  # Newcombe (1998), Statistics in Medicine 17, table II, method 10
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (5, 56, 0, 29, -0.0381, 0.1926),
    ],
)
def test_newcombe_reference_values(a: int, n: int, b: int, m: int, lo: float,
                                   hi: float) -> None:
    """The interval of a difference of rates (the plain Δ of the results by card and by
    mastery card) is Newcombe's hybrid score interval, as his paper gives it."""
    d, got_lo, got_hi = newcombe(a, n, b, m)
    assert d == pytest.approx(a / n - b / m)
    assert (got_lo, got_hi) == pytest.approx((lo, hi), abs=1e-4)


def test_newcombe_properties() -> None:
    for n, m in ((1, 1), (3, 7), (20, 5)):
        for a in range(n + 1):
            for b in range(m + 1):
                d, lo, hi = newcombe(a, n, b, m)
                assert -1.0 <= lo <= d <= hi <= 1.0
                back = newcombe(b, m, a, n)  # the other way round: the same, mirrored
                assert back == pytest.approx((-d, -hi, -lo), abs=1e-12)
    with pytest.raises(ValueError, match="games on both sides"):
        newcombe(0, 0, 1, 2)


def test_wilson_properties() -> None:
    for n in (1, 2, 7, 100):
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            # symmetric: k successes mirror n - k
            lo2, hi2 = wilson(n - k, n)
            assert math.isclose(lo, 1 - hi2, abs_tol=1e-12)
            assert math.isclose(hi, 1 - lo2, abs_tol=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)
    narrow = wilson(500, 1000)
    wide = wilson(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)


@pytest.mark.rule("N-END-2")
def test_tally_counts_wins_and_shared_wins() -> None:
    t = Tally(2)
    t.add((30, 24), (1, 2), (17, 17), "provinces")
    t.add((20, 20), (1, 1), (15, 15), "provinces")
    t.add((10, 12), (2, 1), (100, 100), "turn-limit")
    assert t.games == 3
    assert t.wins == [1, 1]
    assert t.ties == [1, 1]
    assert t.vp == [60, 56]
    assert t.rounds == 17 + 15 + 100
    assert t.reasons == {"provinces": 2, "turn-limit": 1}
    r = SimResult.from_tally(t, names=("a", "b"), specs=("bm", "bmu"), seed=1,
                             kingdom="first-game", max_turns=100)  # fmt: skip
    assert r.players[0].losses == 1
    assert r.players[0].win_rate == pytest.approx(1 / 3)
    assert r.players[1].mean_vp == pytest.approx(56 / 3)
    assert r.mean_turns == pytest.approx(132 / 3)
    assert r.turn_limit_games == 1
    js = r.to_json()
    assert js["players"][0]["ci95"] == list(wilson(1, 3))
    assert js["end_reasons"] == {"provinces": 2, "turn-limit": 1}


def test_tally_merge_is_grouping_independent() -> None:
    games = [((i % 7, 3), (1, 2) if i % 3 else (1, 1), (i % 5 + 1, 2), "provinces")
             for i in range(20)]  # fmt: skip
    whole = Tally(2)
    for g in games:
        whole.add(*g)
    parts = [Tally(2) for _ in range(3)]
    for i, g in enumerate(games):
        parts[min(2, i // 7)].add(*g)
    merged = Tally(2)
    for part in parts:
        merged.merge(part)
    assert merged == whole
    with pytest.raises(ValueError):
        merged.merge(Tally(3))


def test_seeds_are_deterministic_and_distinct() -> None:
    assert game_seed(1, 0) == game_seed(1, 0)
    seeds = {game_seed(1, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert game_seed(1, 5) != game_seed(2, 5)
    assert bot_seed(1, 5, 0) != bot_seed(1, 5, 1)
    assert all(0 <= s < 2**63 for s in seeds)


def test_seat_names_and_chunks() -> None:
    assert seat_names(["BMU", "Smithy"]) == ("BMU", "Smithy")
    assert seat_names(["BMU", "BMU", "Witch"]) == ("BMU#1", "BMU#2", "Witch")
    # a strategy file may itself be named like a numbered seat: names stay distinct
    assert seat_names(["BM#1", "BM", "BM"]) == ("BM#1", "BM#2", "BM#3")
    # names that read the same (ends, runs of spaces, characters that show nothing)
    assert seat_names(["BM", "BM ", "B\u200bM", "B\xadM "]) == ("BM#1", "BM#2", "BM#3",
                                                             "BM#4")
    assert seat_names(["Big  Money", "Big Money"]) == ("Big Money#1", "Big Money#2")
    assert seat_names(["BM ", "bm"]) == ("BM ", "bm")  # one of a name is kept as it is
    with pytest.raises(ConfigError, match=re.escape("not '\\u200b' (bot 'x')")):
        seat_names(["BM", "\u200b"], ["bm", "x"])
    assert seat_names(["BM", "BM", "BM#1"]) == ("BM#2", "BM#3", "BM#1")
    assert seat_names(["a#1", "a", "a#1", "a"]) == ("a#1#1", "a#1", "a#1#2", "a#2")
    assert chunk_size(10, 2) == 1
    assert chunk_size(10_000, 2) == 250
    assert chunk_size(1, 16) == 1


@pytest.mark.parametrize("games", [1, 2, 7, 100, 1_200, 100_000, 123_457])
@pytest.mark.parametrize("workers", [1, 2, 3, 16])
def test_chunks_cover_the_games_once_and_shrink_towards_the_end(games: int,
                                                               workers: int) -> None:
    """The chunks are consecutive runs that cover every game once, in order; none is
    larger than :func:`chunk_size`, and they only get smaller, so that the last ones are
    small and the workers finish together."""
    bounds = chunk_bounds(games, workers)
    assert bounds[0][0] == 0 and bounds[-1][1] == games
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    sizes = [stop - start for start, stop in bounds]
    assert all(s >= 1 for s in sizes) and max(sizes) == sizes[0] <= chunk_size(games, workers)
    assert all(a >= b for a, b in itertools.pairwise(sizes))
    if games >= 100 * workers:
        assert sizes[-2] <= max(1, sizes[0] // 8)


def test_tally_breakdown_is_integer_and_grouping_independent() -> None:
    games = [((i, 3), (1, 2), (15, 15), "game end", [{"a": i, "b": 0}, {"a": 1, "c": 2}])
             for i in range(6)]  # fmt: skip
    whole = Tally(2)
    for g in games:
        whole.add(*g)
    assert whole.breakdown == {"a": [15, 6], "b": [0, 0], "c": [0, 12]}
    left, right = Tally(2), Tally(2)
    for g in games[:2]:
        left.add(*g)
    for g in games[2:]:
        right.add(*g)
    left.merge(right)
    assert left == whole
    r = SimResult.from_tally(whole, names=("a", "b"), specs=("x", "y"), seed=1,
                             game="dominations", options={"rules": {}, "data": None})
    assert r.sources == ("a", "b", "c")
    assert r.players[1].mean_breakdown == {"a": 1.0, "b": 0.0, "c": 2.0}
    js = r.to_json()
    assert js["players"][0]["vp_breakdown"] == {"a": 2.5, "b": 0.0, "c": 0.0}
    assert js["rules"] == {} and js["data"] is None and "kingdom" not in js
    assert js["intervals"] == {"ci95": "Wilson score", "tie_ci95": "Wilson score",
                               "win_share_ci95": "Student's t, each end widened to Wilson's "
                                                 "of the share where that is further out",
                               "mean_vp_ci95": "Student's t"}  # (no by-card results)
    assert js["dominari"]["code"] is None  # (a result made here: no run, no code known)
    dominion = SimResult.from_tally(Tally(2), names=("a", "b"), specs=("x", "y"), seed=1,
                                    kingdom=("Witch", "Moat"), max_turns=9)
    assert dominion.to_json()["kingdom"] == ["Witch", "Moat"]
    assert dominion.kingdom == ("Witch", "Moat") and dominion.max_turns == 9
    assert "vp_breakdown" not in dominion.to_json()["players"][0]


def test_t95_is_students_quantile() -> None:
    """Against a printed table of t's two-sided 95% quantiles (to 3 decimals), across the
    switch from the exact form (df <= 100) to the series."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
             8: 2.306, 9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
             40: 2.021, 60: 2.000, 100: 1.984, 101: 1.984, 120: 1.980, 1000: 1.962}
    for df, t in table.items():
        assert round(t95(df), 3) == t, df
    assert abs(t95(100) - t95(101)) < 1e-3 and t95(100) > t95(101)  # no step at the switch
    # exact where t has a closed form (1 and 2 degrees of freedom), and to 1e-13 against
    # 15-digit values up to the switch (the series alone is off by 3e-8 at 30)
    assert t95(1) == pytest.approx(math.tan(0.475 * math.pi), rel=1e-13)
    assert t95(2) == pytest.approx(0.95 / math.sqrt(2 * 0.975 * 0.025), rel=1e-13)
    for df, t in ((3, 3.18244630528371), (10, 2.22813885198627), (30, 2.04227245630124),
                  (100, 1.98397151852355)):
        assert t95(df) == pytest.approx(t, abs=1e-13), df
    assert t95(10**9) == pytest.approx(1.959963984540054)
    with pytest.raises(ValueError, match="at least 1"):
        t95(0)


def test_the_mean_interval_holds_the_mean_95_percent_of_the_time_even_for_few_games() -> None:
    """Normal values, 2 to 10 of them: the interval holds the true mean in about 95% of
    draws (the normal quantile's held it 70% of the time for 2 values, 81% for 3); one
    value gives no interval."""
    import random

    rng = random.Random(7)
    for n in (2, 3, 5, 10):
        held = 0
        draws = 4000
        for _ in range(draws):
            xs = [rng.gauss(50, 8) for _ in range(n)]
            interval = mean_ci95(sum(xs), sum(x * x for x in xs), n)
            assert interval is not None
            held += interval[0] <= 50 <= interval[1]
        assert 0.935 <= held / draws <= 0.965, (n, held / draws)
    assert mean_ci95(51, 51 * 51, 1) is None
    assert mean_ci95(0, 0, 0) is None


def test_the_mean_vp_has_a_95_percent_interval_from_the_games_spread(tmp_path: Path) -> None:
    """Computed from the tallies (sums and sums of squares, merged across workers) as from
    the games themselves."""
    import json
    import math
    import statistics

    from dominari.sim import simulate

    result = simulate(["bm", "witch"], 40, 3, workers=2, kingdom="first-game",
                      record_dir=tmp_path)  # fmt: skip
    for p in result.players:
        vps = [json.loads(f.read_text(encoding="utf-8"))["outcome"]["scores"][p.seat]
               for f in sorted(tmp_path.glob("game-*.json"))]
        half = 2.0226909 * statistics.stdev(vps) / math.sqrt(len(vps))  # t, 39 df
        low, high = p.mean_vp_ci95
        assert low == pytest.approx(statistics.mean(vps) - half)
        assert high == pytest.approx(statistics.mean(vps) + half)
        assert p.to_json()["mean_vp_ci95"] == [low, high]
        # the spread too, so that the interval can be made again from the JSON alone
        assert p.to_json()["vp_sd"] == pytest.approx(statistics.stdev(vps))


@pytest.mark.parametrize(("groups", "n1", "n0", "rate"), [
    (3, 3, 30, 0.05), (3, 3, 30, 0.5), (3, 2, 6, 0.5), (3, 5, 15, 0.1), (3, 4, 11, 0.5),
    (3, 10, 10, 0.3), (3, 8, 8, 0.9), (1, 3, 30, 0.5), (1, 10, 10, 0.3)])  # fmt: skip
def test_the_alike_difference_of_a_card_that_changes_nothing_is_rarely_significant(
        groups: int, n1: int, n0: int, rate: float) -> None:
    """A card that changes nothing (the same win rate with it and without it) shows a
    95% "alike" difference that leaves out 0 in about 5% of runs, not more than 9%,
    however few games a group has (``groups`` groups of ``n1`` games with it and ``n0``
    without): Wald's spread, 0 for a group won always or never, left it out in up to 42%
    of such small runs (0 of 10 against 3 of 10 looked significant)."""
    assert _missed(random.Random(1), 1500, groups, n1, n0, rate, rate) < 0.09


def _missed(rng: random.Random, runs: int, groups: int, n1: int, n0: int, rate: float,
            with_card: float) -> float:  # fmt: skip
    """The share of ``runs`` in which the alike interval leaves out the true difference,
    each run ``groups`` groups of ``n1`` games with the card (won at ``with_card``) and
    ``n0`` without (won at ``rate``); each interval holds its difference."""
    from dominari.sim.stats import _adjusted

    missed = 0
    for _ in range(runs):
        within = []
        for _group in range(groups):
            have = sum(rng.random() < with_card for _ in range(n1))
            lack = sum(rng.random() < rate for _ in range(n0))
            within.append(([n1, have], [n1 + n0, have + lack]))
        got = _adjusted(within, 0, 1)
        assert got is not None and got[1] <= got[0] <= got[2]
        missed += not got[1] <= with_card - rate <= got[2]
    return missed / runs


def test_the_alike_interval_of_one_group_is_mees_and_never_0_wide() -> None:
    """For one group the interval is Mee's score interval, as Newcombe (1998) lists it for
    56 of 70 against 48 of 80 and 9 of 10 against 3 of 10; a seat that never won still
    gets a spread (Klingenberg's was 0 wide there, Wald's too), and a seat that always
    won with the card and never without holds its difference of 1."""
    from dominari.sim.stats import _adjusted

    def interval(n1: int, w1: int, n0: int, w0: int) -> list[float]:
        got = _adjusted([([n1, w1], [n1 + n0, w1 + w0])], 0, 1)
        assert got is not None and got[1] <= got[0] <= got[2]
        return [round(x, 4) for x in got]

    assert interval(70, 56, 80, 48) == [0.2, 0.0533, 0.3377]
    assert interval(10, 9, 10, 3) == [0.6, 0.1821, 0.837]
    nothing = interval(10, 0, 10, 0)
    assert nothing[0] == 0.0 and nothing[1] < -0.2 and nothing[2] > 0.2
    assert interval(10, 10, 10, 0)[0] == 1.0
    assert interval(5, 0, 5, 5)[0] == -1.0


def test_the_alike_interval_reaches_the_outermost_difference_not_refused() -> None:
    """Groups won always or never, with the card and without, add spread as the
    difference tried leaves 0, so the differences a score test does not refuse may come in
    two pieces: the interval spans both (here about -11 to -3 points and +2 to +23), never
    only the piece a search happened to reach first."""
    from dominari.sim.stats import _adjusted

    got = _adjusted([([5, 5], [6, 5]), ([80, 0], [85, 0]), ([20, 0], [22, 0])], 0, 1)
    assert got is not None
    assert got[0] == pytest.approx(0.1133, abs=1e-4)
    assert got[1] == pytest.approx(-0.1144, abs=1e-4) and got[2] == pytest.approx(0.2334,
                                                                                   abs=1e-4)
    got = _adjusted([([5, 0], [6, 1]), ([40, 40], [45, 45]), ([5, 5], [6, 6])], 0, 1)
    assert got is not None and got[1] < got[0] < 0.08 < got[2]


@pytest.mark.parametrize(("groups", "n1", "n0", "rate", "with_card"), [
    (1, 10, 10, 0.05, 0.2), (1, 10, 30, 0.05, 0.2), (3, 20, 20, 0.02, 0.15)])  # fmt: skip
def test_the_alike_interval_holds_a_true_difference_where_wins_are_rare(
        groups: int, n1: int, n0: int, rate: float, with_card: float) -> None:
    """A card that does change a seat's rare wins (5% without it, 20% with): the interval
    holds the true difference in 96-97% of runs (Klingenberg's in 88-89% for one group:
    its spread shrinks with the wins)."""
    assert _missed(random.Random(3), 1000, groups, n1, n0, rate, with_card) < 0.08


@pytest.mark.parametrize(("key_cards", "games", "rate", "with_card"), [
    (6, 2000, 0.1, 0.1), (8, 3000, 0.15, 0.15), (8, 3000, 0.2, 0.5)])  # fmt: skip
def test_the_alike_difference_holds_over_many_groups(
        key_cards: int, games: int, rate: float, with_card: float) -> None:
    """Up to 8 key cards make up to 256 groups of games, most of them small: the 95%
    interval holds the true difference (0, or +30 points) in about 92-95% of runs, and the
    difference itself always. Agresti and Caffo's, a win and a loss added to every group,
    drifted as groups multiplied: 0 left out in 35-41% of runs at 8 key cards, +30 points
    in 94%."""
    from dominari.sim.stats import _adjusted

    rng, runs, missed = random.Random(2), 120, 0
    share = 10 / 26  # a card's chance of being in a random kingdom
    for _ in range(runs):
        table: dict[int, list[int]] = {}
        for _game in range(games):
            group = sum(1 << k for k in range(key_cards) if rng.random() < share)
            card = rng.random() < share
            won = rng.random() < (with_card if card else rate)
            row = table.setdefault(group, [0, 0, 0, 0])  # with: games, wins; all: games, wins
            row[0] += card
            row[1] += card and won
            row[2] += 1
            row[3] += won
        within = [([r[0], r[1]], [r[2], r[3]]) for r in table.values()]
        got = _adjusted(within, 0, 1)
        assert got is not None and got[1] <= got[0] <= got[2]
        missed += not got[1] <= with_card - rate <= got[2]
    assert missed / runs < 0.12  # (about 8% measured over 300 runs of the sparsest)


def test_the_win_share_interval_is_never_narrower_than_wilsons_of_the_share() -> None:
    """Student's t said too much where the games show little spread: 16 losses gave
    ``[0.0, 0.0]``, 4 games all shared ``[0.5, 0.5]``, and one shared win among 19 losses
    an interval narrower than 20 losses'. The interval is t's, widened to Wilson's of the
    share where that is wider, so more evidence of winning never lowers its top; where the
    games spread, and with many of them, t's stands."""
    def seat(games: int, wins: int, shared: tuple[int, ...] = ()) -> PlayerResult:
        return PlayerResult(0, "a", "a", games=games, wins=wins, ties=sum(shared),
                            total_vp=0, total_turns=0, shared_ways=shared)  # fmt: skip

    assert seat(16, 0).win_share_ci95 == wilson(0, 16)
    assert seat(16, 16).win_share_ci95 == wilson(16, 16)
    assert seat(4, 0, (0, 0, 4)).win_share_ci95 == wilson_share(2.0, 4) == wilson(2, 4)
    low, high = seat(6, 0, (0, 0, 0, 6)).win_share_ci95  # a third of each of 6 games
    assert low < 1 / 3 < high and (low, high) == wilson_share(2.0, 6)
    tops = [seat(20, 0).win_share_ci95[1], seat(20, 0, (0, 0, 1)).win_share_ci95[1],
            seat(20, 1).win_share_ci95[1]]
    assert tops == sorted(tops) and tops[0] < tops[2]  # each a little more winning
    spread = seat(10, 4, (0, 0, 2))  # 4 won, 2 shared, 4 lost: t's is the wider
    t_low, t_high = mean_ci95(4 + 2 / 2, 4 + 2 / 4, 10)
    assert spread.win_share_ci95 == (max(0.0, t_low), min(1.0, t_high))
    many = seat(4000, 2396, (0, 0, 153))  # the First Game match: the same to a tenth
    assert [round(100 * x, 1) for x in many.win_share_ci95] == [60.3, 63.3]
    assert seat(1, 0).win_share_ci95 is None
    with pytest.raises(ValueError, match="need 0 <= total <= n"):
        wilson_share(5, 3)
    assert wilson_share(sum([1 / 3] * 300), 100)[1] == 1.0  # a hair off n: all of it


def test_rates_of_no_games_are_null_in_json() -> None:
    """A place in the turn order nobody took, or a card no game lacked, has no rate: its
    JSON says ``null`` (the tables' "-"), not a rate of 0 with the interval [0, 1]."""
    nothing = TurnPlace(1, 0, 0, 0).to_json()
    assert nothing["games"] == 0 and nothing["win_rate"] is None and nothing["ci95"] is None
    assert nothing["tie_rate"] is None and nothing["tie_ci95"] is None
    some = TurnPlace(1, 4, 1, 1).to_json()
    assert some["win_rate"] == 0.25 and some["ci95"] == list(wilson(1, 4))
    empty = PlayerResult(0, "a", "a", games=0, wins=0, ties=0, total_vp=0, total_turns=0)
    assert empty.share_json() == {"win_share": None, "win_share_ci95": None,
                                  "ties_by_ways": {}}
