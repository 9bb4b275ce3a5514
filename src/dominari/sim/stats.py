"""Statistics for simulations: the Wilson interval and exact integer tallies.

A :class:`Tally` counts wins, ties, victory points (with their breakdown by
source, where the game gives one) and turns with integers only, so tallies
merged in any grouping give the same totals: the result of a simulation does
not depend on how its games were split between processes. :class:`SimResult`
turns the totals into rates, intervals and means.

>>> lo, hi = wilson(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

INTERVALS: dict[str, str] = {
    "ci95": "Wilson score", "tie_ci95": "Wilson score",
    "mean_vp_ci95": "Student's t", "mean_score_ci95": "Student's t",
    "win_share_ci95": "Student's t, each end widened to Wilson's of the share where that "
                      "is further out",
    "by_card.difference.ci95": "Newcombe hybrid score (of two Wilson intervals)",
    "by_card.adjusted.ci95": "stratified Mee score, Mantel-Haenszel weights",
    "by_card.cards.difference_ci95": "Newcombe hybrid score (of two Wilson intervals)",
    "by_card.cards.adjusted.ci95": "stratified Mee score, Mantel-Haenszel weights",
    "by_mastery.cards.difference_ci95": "Newcombe hybrid score (of two Wilson "
                                        "intervals)",
    "by_mastery.cards.alike.ci95": "stratified Mee score, Mantel-Haenszel weights",
    "by_monument.monuments.difference_ci95": "Newcombe hybrid score (of two Wilson "
                                             "intervals)",
    "by_monument.monuments.alike.ci95": "stratified Mee score, Mantel-Haenszel weights",
    "by_bot.cards.difference_ci95": "Newcombe hybrid score (of two Wilson intervals)",
    "by_bot.cards.alike.ci95": "stratified Mee score, Mantel-Haenszel weights",
    "by_bot.monuments.difference_ci95": "Newcombe hybrid score (of two Wilson intervals)",
    "by_bot.monuments.alike.ci95": "stratified Mee score, Mantel-Haenszel weights",
}
"""How each kind of 95% interval of a result's JSON is computed, as its ``intervals``
say (each result names those it has)."""


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n`` trials.

    It stays inside [0, 1] and behaves well near 0% and 100%, unlike the
    normal approximation. ``n == 0`` gives the uninformative ``(0.0, 1.0)``.

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    return wilson_share(successes, n, z)


def wilson_share(total: float, n: int, z: float = Z95) -> tuple[float, float]:
    """:func:`wilson` of a mean of ``n`` values in [0, 1] that add up to ``total`` (not
    only yes or no: a share of a win), taking the most spread such values can have.

    >>> wilson_share(0, 10) == wilson(0, 10), wilson_share(2.0, 4) == wilson(2, 4)
    (True, True)
    """
    if n < 0 or not -1e-9 <= total <= n + 1e-9:  # (a sum of shares may be a hair off)
        raise ValueError(f"need 0 <= total <= n, got {total} of {n}")
    if n == 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, total / n))
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = (z / denom) * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    lo = 0.0 if total <= 1e-9 else max(0.0, center - half)
    hi = 1.0 if total >= n - 1e-9 else min(1.0, center + half)
    return (lo, hi)


def newcombe(a: int, n: int, b: int, m: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two independent rates, ``a`` of ``n`` minus ``b`` of ``m``, with
    Newcombe's hybrid score interval (his method 10: the two rates' Wilson intervals
    combined). Like them it stays within [-1, 1] and behaves near 0% and 100%.

    >>> [round(x, 4) for x in newcombe(56, 70, 48, 80)]  # Newcombe (1998), example (b)
    [0.2, 0.0524, 0.3339]
    """
    if not n or not m:
        raise ValueError(f"a difference of rates needs games on both sides, not {n} and {m}")
    p, q = a / n, b / m
    (pl, pu), (ql, qu) = wilson(a, n, z), wilson(b, m, z)
    d = p - q
    return (d, d - math.sqrt((p - pl) ** 2 + (qu - q) ** 2),
            d + math.sqrt((pu - p) ** 2 + (q - ql) ** 2))


@dataclass
class Tally:
    """Integer totals over some games between ``players`` seats.

    ``wins[p]`` counts games seat ``p`` won alone, ``ties[p]`` games it shared
    the win, ``shared[p][k]`` those it shared ``k`` ways; ``vp[p]`` and ``turns[p]`` are
    sums over games, ``vp_sq[p]`` the sum of the squared VP (for the spread of the mean);
    ``rounds`` sums each game's longest turn count; ``reasons`` counts how games ended.
    ``breakdown[source][p]`` sums seat ``p``'s VP from ``source`` (games whose
    outcome itemises VP, such as Dominations; sources in the order first seen).
    ``places`` counts each seat's games, outright and shared wins by its place in the
    turn order (:class:`Places`; games added with their ``order``: the engines draw who
    begins, so a seat is not a place in the turn order). ``split[feature]`` counts the
    games that had a feature (games added with their ``features``: ``card:Witch`` for a
    Kingdom card, ``as:1:Witch-BM`` for the rule bot seat 1's ``best`` played) and each
    seat's outright and shared wins in them, as ``[games, wins…, ties…]``.

    >>> t = Tally(2)
    >>> t.add((5, 3), (1, 2), (4, 4), "end", [{"a": 5}, {"a": 1, "b": 2}])
    >>> t.breakdown
    {'a': [5, 1], 'b': [0, 2]}
    """

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    ties: list[int] = field(default_factory=list)
    vp: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    vp_sq: list[int] = field(default_factory=list)
    rounds: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    breakdown: dict[str, list[int]] = field(default_factory=dict)
    places: Places | None = None
    split: dict[str, list[int]] = field(default_factory=dict)
    shared: list[list[int]] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    """Each game's own result, where asked for (a simulation's ``each_game``): taken by
    the run as it arrives, never merged."""

    def __post_init__(self) -> None:
        for name in ("wins", "ties", "vp", "turns", "vp_sq"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)
        if not self.shared:
            self.shared = [[0] * (self.players + 1) for _ in range(self.players)]
        if self.places is None:
            self.places = Places(self.players, self.players)

    def add(self, scores: Sequence[int], ranks: Sequence[int], turns: Sequence[int],
            reason: str, breakdown: Sequence[Mapping[str, int]] | None = None,
            order: Sequence[int] | None = None, features: Iterable[str] = ()) -> None:
        """Count one finished game (``breakdown``: per seat, VP by source; ``order``: the
        seats in the order of their first turns, the one that began first; ``features``:
        what the game had, for :attr:`split`)."""
        self.games += 1
        winners = ranks.count(1)
        shared = winners > 1
        if features:
            n = self.players
            won = [1 + p + (n if shared else 0) for p in range(n) if ranks[p] == 1]
            for feature in features:
                row = self.split.get(feature)
                if row is None:
                    row = self.split[feature] = [0] * (1 + 2 * n)
                row[0] += 1
                for at in won:
                    row[at] += 1
        if order is not None:
            assert self.places is not None
            self.places.add(order, ranks)
        for p in range(self.players):
            if ranks[p] == 1:
                if shared:
                    self.ties[p] += 1
                    self.shared[p][winners] += 1
                else:
                    self.wins[p] += 1
            self.vp[p] += scores[p]
            self.vp_sq[p] += scores[p] * scores[p]
            self.turns[p] += turns[p]
        self.rounds += max(turns)
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        if breakdown is not None:
            for p, sources in enumerate(breakdown):
                for source, vp in sources.items():
                    self._source(source)[p] += int(vp)

    def _source(self, source: str) -> list[int]:
        sums = self.breakdown.get(source)
        if sums is None:
            sums = self.breakdown[source] = [0] * self.players
        return sums

    def merge(self, other: Tally) -> None:
        """Add ``other``'s totals to these."""
        if other.players != self.players:
            raise ValueError("cannot merge tallies of different player counts")
        self.games += other.games
        for p in range(self.players):
            self.wins[p] += other.wins[p]
            self.ties[p] += other.ties[p]
            self.vp[p] += other.vp[p]
            self.vp_sq[p] += other.vp_sq[p]
            self.turns[p] += other.turns[p]
            for k, count in enumerate(other.shared[p]):
                self.shared[p][k] += count
        assert self.places is not None and other.places is not None
        self.places.merge(other.places)
        self.rounds += other.rounds
        for reason, k in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + k
        for source, sums in other.breakdown.items():
            mine = self._source(source)
            for p in range(self.players):
                mine[p] += sums[p]
        for feature, row in other.split.items():
            have = self.split.get(feature)
            if have is None:
                self.split[feature] = list(row)
            else:
                for i, k in enumerate(row):
                    have[i] += k


@dataclass
class Places:
    """Games, outright wins and shared wins of each of ``who`` players by its place in the
    turn order (of ``places``; 0: it began), for results by turn order; ``counted`` is the
    number of games added.

    >>> p = Places(2, 2)
    >>> p.add((1, 0), (2, 1))  # seat 1 began and won
    >>> [(t.place, t.games, t.wins) for t in p.of(1)], p.everyone()[0].wins
    ([(1, 1, 1), (2, 0, 0)], 1)
    """

    who: int
    places: int
    counted: int = 0
    games: list[list[int]] = field(default_factory=list)
    wins: list[list[int]] = field(default_factory=list)
    ties: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("games", "wins", "ties"):
            if not getattr(self, name):
                setattr(self, name, [[0] * self.places for _ in range(self.who)])

    def add(self, order: Sequence[int], ranks: Sequence[int],
            who: Sequence[int] | None = None) -> None:
        """Count a game: ``order`` the seats in the order of their first turns, ``ranks``
        by seat, ``who[seat]`` the player at each seat (the seat itself by default)."""
        self.counted += 1
        shared = ranks.count(1) > 1
        for k, seat in enumerate(order):
            p = seat if who is None else who[seat]
            self.games[p][k] += 1
            if ranks[seat] == 1:
                (self.ties if shared else self.wins)[p][k] += 1

    def merge(self, other: Places) -> None:
        """Add ``other``'s counts to these."""
        self.counted += other.counted
        for mine, theirs in ((self.games, other.games), (self.wins, other.wins),
                             (self.ties, other.ties)):
            for row, more in zip(mine, theirs, strict=True):
                for k, n in enumerate(more):
                    row[k] += n

    def of(self, p: int) -> tuple[TurnPlace, ...]:
        """Player ``p``'s results by place."""
        return tuple(TurnPlace(k + 1, g, w, t) for k, (g, w, t) in
                     enumerate(zip(self.games[p], self.wins[p], self.ties[p], strict=True)))

    def everyone(self) -> tuple[TurnPlace, ...]:
        """The results by place, whoever took it (every game counted has each place)."""
        return tuple(TurnPlace(k + 1, self.counted, sum(w[k] for w in self.wins),
                               sum(t[k] for t in self.ties)) for k in range(self.places))


def _share(wins: int, shared_ways: Sequence[int]) -> tuple[float, float]:
    """The sum over games of a seat's share of the win (1 alone, ``1/k`` shared ``k``
    ways), and of its square."""
    return (wins + sum(count / k for k, count in enumerate(shared_ways) if count),
            wins + sum(count / (k * k) for k, count in enumerate(shared_ways) if count))


def mean_ci95(total: float, total_sq: float, n: int) -> tuple[float, float] | None:
    """A 95% interval of a mean from the sum and the sum of squares of ``n`` values, with
    Student's t quantile for ``n - 1`` degrees of freedom (the spread is estimated from
    the values themselves: the normal quantile's interval held the mean of 3 normal
    values only 81% of the time); ``None`` for fewer than 2 values, which tell nothing
    of the spread.

    >>> [round(x, 2) for x in mean_ci95(40, 416, 4)]  # 8, 8, 12, 12
    [6.33, 13.67]
    >>> mean_ci95(51, 2601, 1) is None
    True
    """
    sd = sample_sd(total, total_sq, n)
    if sd is None:
        return None
    mean = total / n
    half = t95(n - 1) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def sample_sd(total: float, total_sq: float, n: int) -> float | None:
    """The standard deviation of ``n`` values (``n - 1`` in the denominator) from their sum
    and sum of squares; ``None`` for fewer than 2. With the mean and ``n`` it gives
    :func:`mean_ci95` again (``--json`` reports it beside the mean).

    >>> sample_sd(40, 416, 4)  # 8, 8, 12, 12
    2.309401076758503
    >>> sample_sd(51, 2601, 1) is None
    True
    """
    if n < 2:
        return None
    mean = total / n
    return math.sqrt(max(0.0, (total_sq - n * mean * mean) / (n - 1)))


@functools.lru_cache(maxsize=256)
def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t distribution with ``df`` degrees of
    freedom: exact to about 1e-15 up to 100 (the distribution function's closed form for
    whole ``df``, Abramowitz and Stegun 26.7.3-4, solved by halving), then the
    Cornish-Fisher series in ``1/df`` (26.7.5; off by under 1e-10 at 101).

    >>> [round(t95(k), 4) for k in (1, 2, 3, 10, 30, 1000)]
    [12.7062, 4.3027, 3.1824, 2.2281, 2.0423, 1.9623]
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df > 100:
        x = Z95
        return (x + (x**3 + x) / 4 / df + (5 * x**5 + 16 * x**3 + 3 * x) / 96 / df**2
                + (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384 / df**3
                + (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x)
                / 92160 / df**4)  # fmt: skip
    lo, hi = 0.0, 16.0  # P(|T| <= 16) > 0.95 for every df >= 1
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_within(mid, df) < 0.95:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return (lo + hi) / 2


def _t_within(t: float, df: int) -> float:
    """``P(|T| <= t)`` for Student's t with whole ``df`` (Abramowitz and Stegun 26.7.3
    for odd ``df``, 26.7.4 for even)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    term = total = 1.0
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        for k in range(3, df - 1, 2):
            term *= (k - 1) / k * cos2
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    for k in range(2, df - 1, 2):
        term *= (k - 1) / k * cos2
        total += term
    return math.sin(theta) * total


class WinCounts:
    """Rates and intervals of a player's ``wins`` (outright) and ``ties`` (shared wins)
    over ``games`` (a mixin of the result records of simulations and tournaments)."""

    games: int
    wins: int
    ties: int

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.ties

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def tie_rate(self) -> float:
        return self.ties / self.games if self.games else 0.0

    @property
    def tie_ci95(self) -> tuple[float, float]:
        return wilson(self.ties, self.games)

    def counts_json(self) -> dict[str, Any]:
        """The counts, rates and intervals as JSON keys; the rates and intervals of no
        games are ``null`` (the tables' "-"), not 0."""
        if not self.games:
            return {"wins": 0, "ties": 0, "losses": 0, "win_rate": None, "ci95": None,
                    "tie_rate": None, "tie_ci95": None}  # fmt: skip
        return {"wins": self.wins, "ties": self.ties, "losses": self.losses,
                "win_rate": self.win_rate, "ci95": list(self.ci95),
                "tie_rate": self.tie_rate, "tie_ci95": list(self.tie_ci95)}  # fmt: skip


class WinShare(WinCounts):
    """:class:`WinCounts` with the games whose win was shared ``k`` ways
    (``shared_ways[k]``), for the seat's share of the wins (a mixin of the result records
    of simulations and tournaments)."""

    shared_ways: tuple[int, ...]
    """Per ``k``, the games whose win was shared ``k`` ways (they add up to :attr:`ties`)."""

    @property
    def win_share(self) -> float:
        """The seat's share of the wins: a win counts 1, a win shared ``k`` ways ``1/k``,
        a loss 0 (so every game's shares add up to 1; with 2 players, the score with a
        shared win as ½).

        >>> r = PlayerResult(0, "a", "a", games=4, wins=2, ties=2, total_vp=0,
        ...                  total_turns=0, shared_ways=(0, 0, 1, 0, 1))
        >>> r.win_share  # 1 + 1 + 1/2 + 1/4 over 4 games
        0.6875
        """
        return _share(self.wins, self.shared_ways)[0] / self.games if self.games else 0.0

    @property
    def win_share_ci95(self) -> tuple[float, float] | None:
        """A 95% interval of :attr:`win_share`: Student's t from the games' spread (a share
        is not a yes or no), widened where it is narrower to the Wilson interval of the
        share over the games (:func:`wilson_share`), which takes the most spread a share of
        [0, 1] with that mean can have; ``None`` for fewer than 2 games. t alone says too
        much where the games show little spread: every game lost gave ``[0, 0]``, and one
        shared win among 19 losses an interval narrower than 20 losses'. With many games
        the two agree to a tenth of a point unless many wins are shared.

        >>> r = PlayerResult(0, "a", "a", games=16, wins=0, ties=0, total_vp=0,
        ...                  total_turns=0)
        >>> [round(x, 3) for x in r.win_share_ci95]  # 16 losses: not [0, 0]
        [0.0, 0.194]
        """
        total, total_sq = _share(self.wins, self.shared_ways)
        interval = mean_ci95(total, total_sq, self.games)
        if interval is None:
            return None
        low, high = wilson_share(total, self.games)
        return (max(0.0, min(interval[0], low)), min(1.0, max(interval[1], high)))

    def share_json(self) -> dict[str, Any]:
        """The share of the wins and its interval as JSON keys (``null`` for no games)."""
        ways = {str(k): count for k, count in enumerate(self.shared_ways) if count}
        if not self.games:
            return {"win_share": None, "win_share_ci95": None, "ties_by_ways": ways}
        return {"win_share": self.win_share, "win_share_ci95": _pair(self.win_share_ci95),
                "ties_by_ways": ways}


class EndReasons:
    """Games by how they ended (``end_reasons``), with the games the turn limit stopped
    apart (a mixin of the results of simulations and tournaments)."""

    end_reasons: dict[str, int]

    @property
    def turn_limit_games(self) -> int:
        """Games stopped by the turn limit rather than by the rules."""
        return self.end_reasons.get("turn-limit", 0)


@dataclass(frozen=True)
class PlayerResult(WinShare):
    """One seat's results over a simulation."""

    seat: int
    name: str
    spec: str
    games: int
    wins: int
    ties: int
    total_vp: int
    total_turns: int
    total_breakdown: tuple[tuple[str, int], ...] = ()
    """(source, VP summed over games) for games that itemise VP; empty otherwise."""
    total_vp_sq: int = 0
    """The sum over games of the squared VP (0: unknown)."""
    by_turn: tuple[TurnPlace, ...] = ()
    """The seat's results by its place in the turn order (who began the game first)."""
    played_as: tuple[PlayedAs, ...] = ()
    """For ``best``: its results by the rule bot it played (the kingdom's best), most
    games first."""
    shared_ways: tuple[int, ...] = ()

    @property
    def mean_vp(self) -> float:
        return self.total_vp / self.games if self.games else 0.0

    @property
    def mean_vp_ci95(self) -> tuple[float, float] | None:
        """A 95% interval of the mean VP (Student's t, from the games' spread; ``None``
        for fewer than 2 games: see :func:`mean_ci95`).

        >>> r = PlayerResult(0, "a", "a", games=4, wins=0, ties=0, total_vp=40,
        ...                  total_turns=0, total_vp_sq=416)  # VP 8, 8, 12, 12
        >>> [round(x, 2) for x in r.mean_vp_ci95]
        [6.33, 13.67]
        """
        return mean_ci95(self.total_vp, self.total_vp_sq, self.games)

    @property
    def mean_turns(self) -> float:
        return self.total_turns / self.games if self.games else 0.0

    @property
    def mean_breakdown(self) -> dict[str, float]:
        """Mean VP per game by source (empty for games that do not itemise VP)."""
        return {source: (vp / self.games if self.games else 0.0)
                for source, vp in self.total_breakdown}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "name": self.name,
            "spec": self.spec,
            **self.counts_json(),
            **self.share_json(),
            "mean_vp": self.mean_vp,
            "mean_vp_ci95": _pair(self.mean_vp_ci95),
            "vp_sd": sample_sd(self.total_vp, self.total_vp_sq, self.games),
            "mean_turns": self.mean_turns,
        }
        if self.total_breakdown:
            out["vp_breakdown"] = self.mean_breakdown
        if self.by_turn:
            out["by_turn"] = [place.to_json() for place in self.by_turn]
        if self.played_as:
            out["played_as"] = [bot.to_json() for bot in self.played_as]
        return out


@dataclass(frozen=True)
class TurnPlace(WinCounts):
    """Wins and shared wins over the ``games`` in which a seat (or any seat) took the
    ``place``-th first turn of the game (1: it began)."""

    place: int
    games: int
    wins: int
    ties: int

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "games": self.games, **self.counts_json()}


@dataclass(frozen=True)
class Share(WinCounts):
    """Wins and shared wins over some ``games``."""

    games: int
    wins: int
    ties: int

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, **self.counts_json()}


@dataclass(frozen=True)
class PlayedAs(Share):
    """A seat's results in the games it played as the rule bot ``strategy`` (``best``
    plays each game as its kingdom's best rule bot)."""

    strategy: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, **super().to_json()}


@dataclass(frozen=True)
class CardSplit:
    """Every seat's results in the ``games`` whose kingdom had ``card`` (``present``) and
    in the others (``absent``), seat by seat; and per seat ``adjusted``, the difference of
    its outright win rate with the card and without it among games alike in the key cards
    (the cards the rule bots at the table buy: :attr:`SimResult.key_cards`, and the rule
    bot ``best`` played: :attr:`SimResult.key_played_as`), as ``(difference, low, high)``
    with a 95% interval, or None where no such games differ in the card (a key card
    itself); empty where games cannot be grouped so (:attr:`SimResult.unadjusted`).

    The plain difference compares a card with the average card it displaces (a kingdom
    always has 10): where a seat's strategy needs a card, every other card displaces it
    now and then. Within games that have the same key cards, a card displaces only cards
    no rule bot at the table buys, so the adjusted difference is the card's own effect on
    those bots' game: the differences of the groups of games, weighted by ``n1 n0 / n``
    (the Mantel-Haenszel weights of a risk difference), with a stratified score interval
    (Mee's, the Mantel-Haenszel weights'; see :func:`_adjusted`)."""

    card: str
    games: int
    present: tuple[Share, ...]
    absent: tuple[Share, ...]
    adjusted: tuple[tuple[float, float, float] | None, ...] = ()

    def difference(self, seat: int) -> tuple[float, float, float] | None:
        """Seat ``seat``'s outright win rate with the card minus without it, with its 95%
        interval (:func:`newcombe`), as ``(difference, low, high)``; None where either
        side has no game."""
        have, lack = self.present[seat], self.absent[seat]
        if not have.games or not lack.games:
            return None
        return newcombe(have.wins, have.games, lack.wins, lack.games)

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The split as JSON values, each seat's named by ``names``."""
        differences = [self.difference(p) for p in range(len(self.present))]
        out: dict[str, Any] = {
            "card": self.card, "games": self.games,
            "with": _seats_json(self.present, names),
            "without": _seats_json(self.absent, names),
            "difference": [{"seat": p, "name": names[p],
                            "difference": None if d is None else d[0],
                            "ci95": None if d is None else [d[1], d[2]]}
                           for p, d in enumerate(differences)]}  # fmt: skip
        if self.adjusted:
            out["adjusted"] = [{"seat": p, "name": names[p],
                                "difference": None if a is None else a[0],
                                "ci95": None if a is None else [a[1], a[2]]}
                               for p, a in enumerate(self.adjusted)]  # fmt: skip
        return out


@dataclass(frozen=True)
class HeldCard:
    """A seat's results in the games in which it held a copy of the mastery card
    ``card`` (a skill's id; ``name`` its name) at the end (``held``) and in the others
    (``lacked``). A card held is a choice, and a player who wins takes more cards: the
    difference says which cards go with winning, not what a card does."""

    card: str
    name: str
    held: Share
    lacked: Share
    alike: tuple[float, float, float] | None = None
    """The difference among games alike, as ``(difference, low, high)`` with a 95%
    interval: games in which the player held as many mastery cards (a tournament's: of
    one match-up too), so that the card is set against the other cards a player who took
    as many held, not against holding fewer; the groups' differences weighted as
    :attr:`CardSplit.adjusted`'s (:func:`_adjusted`). None where no group has games both
    with the card and without it."""

    @property
    def difference(self) -> float | None:
        """The win rate with the card minus without it (None where either has no game)."""
        if not self.held.games or not self.lacked.games:
            return None
        return self.held.win_rate - self.lacked.win_rate

    @property
    def difference_ci95(self) -> tuple[float, float] | None:
        """The 95% interval of :attr:`difference` (:func:`newcombe`; None where it is)."""
        held, lacked = self.held, self.lacked
        if not held.games or not lacked.games:
            return None
        _, low, high = newcombe(held.wins, held.games, lacked.wins, lacked.games)
        return (low, high)

    def to_json(self, key: str = "card") -> dict[str, Any]:
        """As JSON values, the id under ``key`` (``card``; a monument's: ``monument``)."""
        ci = self.difference_ci95
        alike = self.alike
        return {key: self.card, "name": self.name, "held": self.held.to_json(),
                "lacked": self.lacked.to_json(), "difference": self.difference,
                "difference_ci95": None if ci is None else list(ci),
                "alike": None if alike is None else {"difference": alike[0],
                                                     "ci95": [alike[1], alike[2]]}}


@dataclass(frozen=True)
class KeyCardGroup:
    """Every seat's results (``shares``, seat by seat) in the ``games`` whose kingdom had
    exactly the key cards ``cards`` (:attr:`SimResult.key_cards`) of all of them: how the
    rule bots at the table fare when each has its cards or lacks them (Witch-BM against
    Smithy-BM where both have their card, where only one has …)."""

    cards: tuple[str, ...]
    games: int
    shares: tuple[Share, ...]
    played_as: str = ""
    """The rule bot ``best`` played in these games ('' without ``best`` at the table)."""

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The group as JSON values, each seat's named by ``names``."""
        return {"cards": list(self.cards), "games": self.games,
                **({"played_as": self.played_as} if self.played_as else {}),
                "players": _seats_json(self.shares, names)}


@dataclass(frozen=True)
class SimResult(EndReasons):
    """The outcome of a simulation: per-seat results and game-level totals.

    ``mean_turns`` is the mean over games of the longest player's turn count
    (turns per player, as Dominion players count a game's length).
    ``end_reasons`` counts how games ended (Dominion: ``provinces``,
    ``three-piles`` and ``turn-limit``; Dominations: ``game end``).
    ``options`` are the game's options as JSON values (Dominion: ``kingdom``
    and ``max_turns``; Dominations: ``rules`` and ``data``). ``by_turn`` (and each
    player's) gives the results by place in the turn order: the engines draw who begins
    each game, so a seat is not a place in it.
    """

    game: str
    games: int
    seed: int
    players: tuple[PlayerResult, ...]
    total_rounds: int
    end_reasons: dict[str, int]
    options: dict[str, Any] = field(default_factory=dict)
    by_turn: tuple[TurnPlace, ...] = ()
    """Results by place in the turn order, whoever sat there: the player who began, the
    second … (empty when the games were counted without their turn order)."""
    by_card: tuple[CardSplit, ...] = ()
    """Dominion, when asked for: every seat's results in the games whose kingdom had each
    card and in the others, by card name (cards never dealt are not listed)."""
    key_cards: tuple[str, ...] = ()
    """With :attr:`by_card`: the cards the strategy bots at the table buy, by which the
    adjusted differences group the games."""
    key_played_as: bool = False
    """With :attr:`by_card`: ``best`` is at the table, and the adjusted differences also
    group the games by the rule bot it played (:attr:`KeyCardGroup.played_as`)."""
    unadjusted: str = ""
    """With :attr:`by_card`: why no adjusted differences are given ('' when they are): a
    bot at the table chooses its buys by search, or the strategies buy too many cards to
    group games alike in them."""
    code: str = ""
    """The fingerprint of the code that played the games
    (:func:`~dominari.sim.runner.game_code`; '' where not known)."""
    by_mastery: tuple[tuple[HeldCard, ...], ...] = ()
    """Dominations, when asked for: seat by seat, its results with each mastery card it
    held at the end of some game and without it, the surest gain first (by the low end of
    the difference's interval, the highest first)."""
    by_monument: tuple[tuple[HeldCard, ...], ...] = ()
    """Dominations, when asked for: seat by seat, its results in the games in which it
    held a level card of each monument at the end (it built a level) and in the others in
    which the monument was in play, in the order of :attr:`by_mastery` (a
    :class:`HeldCard` a monument: its id and name; games alike: of as many level cards
    held)."""
    by_bot: tuple[PooledHeld, ...] = ()
    """With :attr:`by_mastery`: each bot that plays several seats, its seats' results by
    mastery card and by monument as one table each (:class:`PooledHeld`)."""
    by_key_cards: tuple[KeyCardGroup, ...] = ()
    """With :attr:`by_card` and :attr:`key_cards` or :attr:`key_played_as`: every seat's
    results in the games of each group of them, the groups with the most key cards first
    (then in the order of :attr:`key_cards`, then by the rule bot ``best`` played);
    groups no game fell in are not listed."""
    games_asked: int = 0
    """The games the run was asked to play: more than :attr:`games` where it was stopped
    before it played them all (:attr:`stopped`), whose results are then those of the first
    :attr:`games` of them, in game order; 0 where not known (the same as :attr:`games`)."""
    notes: Mapping[str, Any] = field(default_factory=dict)
    """What the results say beside their numbers, as JSON values
    (:func:`~dominari.sim.runner.run_notes`: ``timed_searches``, ``missing_cards``,
    ``partial_cards``, each only where there is one)."""
    data_digest: str = ""
    """Dominations with a data folder: the digest of its files, as a record names it
    ('' for the built-in data)."""
    retried: tuple[str, ...] = ()
    """The batches of games played again because their workers were lost (died, hung, ran
    out of memory), in words, once each time: each game counted once, the results those
    of a run that lost none. Not among the results' JSON."""

    @property
    def stopped(self) -> bool:
        """Whether the run was stopped before it played every game asked for: its results
        are then those of the games played before the first it had not finished."""
        return self.games_asked > self.games

    @classmethod
    def from_tally(cls, tally: Tally, *, names: tuple[str, ...], specs: tuple[str, ...],
                   seed: int, kingdom: str | tuple[str, ...] | None = None,
                   max_turns: int | None = None, game: str = "dominion",
                   options: Mapping[str, Any] | None = None,
                   key_cards: tuple[str, ...] = (), key_played_as: bool = False,
                   unadjusted: str = "", code: str = "",
                   games_asked: int = 0, notes: Mapping[str, Any] | None = None,
                   data_digest: str = "", retried: tuple[str, ...] = ()) -> SimResult:
        """Rates and means from ``tally``. ``options`` default to Dominion's
        ``kingdom`` and ``max_turns``. ``games_asked``: the games the run was asked to
        play, where it was stopped before the tally had them all."""
        if options is None:
            options = {"kingdom": kingdom, "max_turns": max_turns}
        n = tally.players
        places = tally.places
        assert places is not None
        counted = places.counted == tally.games > 0
        players = tuple(
            PlayerResult(seat=p, name=names[p], spec=specs[p], games=tally.games,
                         wins=tally.wins[p], ties=tally.ties[p], total_vp=tally.vp[p],
                         total_turns=tally.turns[p], total_vp_sq=tally.vp_sq[p],
                         total_breakdown=tuple((source, sums[p])
                                               for source, sums in tally.breakdown.items()),
                         by_turn=places.of(p) if counted else (),
                         played_as=_played_as(tally, p),
                         shared_ways=tuple(tally.shared[p]))
            for p in range(n)
        )  # fmt: skip
        by_turn = places.everyone() if counted else ()
        return cls(game=game, games=tally.games, seed=seed, players=players,
                   total_rounds=tally.rounds, end_reasons=dict(sorted(tally.reasons.items())),
                   options=dict(options), by_turn=by_turn,
                   by_card=card_splits(tally), key_cards=key_cards,
                   by_mastery=mastery_splits(tally), by_monument=monument_splits(tally),
                   by_bot=pooled_splits(tally, specs),
                   key_played_as=key_played_as, unadjusted=unadjusted, code=code,
                   by_key_cards=_by_key_cards(tally, key_cards, key_played_as),
                   games_asked=max(games_asked, tally.games), notes=dict(notes or {}),
                   data_digest=data_digest, retried=retried)  # fmt: skip

    @property
    def kingdom(self) -> str | tuple[str, ...] | None:
        """Dominion's kingdom option (None for other games)."""
        value = self.options.get("kingdom")
        return tuple(value) if isinstance(value, list) else value

    @property
    def max_turns(self) -> int | None:
        """Dominion's turn limit per player (None: no limit, or another game)."""
        value = self.options.get("max_turns")
        return value if isinstance(value, int) else None

    @property
    def mean_turns(self) -> float:
        return self.total_rounds / self.games if self.games else 0.0

    @property
    def sources(self) -> tuple[str, ...]:
        """The VP sources of the breakdown, in order (empty if the game has none)."""
        return tuple(source for source, _ in self.players[0].total_breakdown) if (
            self.players) else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "games_asked": max(self.games_asked, self.games),
            "stopped": self.stopped,
            "seed": self.seed,
            "dominari": made_by(self.code),
            **{key: _plain(value) for key, value in self.options.items()},
            **({"data_digest": self.data_digest} if self.data_digest else {}),
            "players": [p.to_json() for p in self.players],
            "mean_turns": self.mean_turns,
            "end_reasons": dict(self.end_reasons),
            "turn_limit_games": self.turn_limit_games,
            "intervals": {k: INTERVALS[k] for k in ("ci95", "tie_ci95", "win_share_ci95",
                                                    "mean_vp_ci95",
                                                    *(("by_card.difference.ci95",)
                                                      if self.by_card else ()),
                                                    *(("by_card.adjusted.ci95",)
                                                      if self.by_card
                                                      and not self.unadjusted else ()),
                                                    *(("by_mastery.cards.difference_ci95",
                                                       "by_mastery.cards.alike.ci95")
                                                      if self.by_mastery else ()),
                                                    *(("by_monument.monuments."
                                                       "difference_ci95",
                                                       "by_monument.monuments.alike.ci95")
                                                      if self.by_monument else ()),
                                                    *(("by_bot.cards.difference_ci95",
                                                       "by_bot.cards.alike.ci95",
                                                       "by_bot.monuments.difference_ci95",
                                                       "by_bot.monuments.alike.ci95")
                                                      if self.by_bot else ()))},
            **({"by_turn": [place.to_json() for place in self.by_turn]} if self.by_turn
               else {}),
            **({"by_mastery": [{"seat": p.seat, "name": p.name,
                                "cards": [c.to_json() for c in cards]}
                               for p, cards in zip(self.players, self.by_mastery,
                                                   strict=True)]}
               if self.by_mastery else {}),
            **({"by_bot": [pooled.to_json() for pooled in self.by_bot]}
               if self.by_bot else {}),
            **({"by_monument": [{"seat": p.seat, "name": p.name,
                                 "monuments": [c.to_json("monument") for c in built]}
                                for p, built in zip(self.players, self.by_monument,
                                                    strict=True)]}
               if self.by_monument else {}),
            **({"by_card": [card.to_json([p.name for p in self.players])
                            for card in self.by_card],
                "by_card_key_cards": list(self.key_cards),
                "by_card_key_played_as": self.key_played_as,
                "by_card_unadjusted": self.unadjusted or None,
                "by_key_cards": [group.to_json([p.name for p in self.players])
                                 for group in self.by_key_cards]} if self.by_card else {}),
            **_plain(dict(self.notes)),
        }


def made_by(code: str) -> dict[str, Any]:
    """What made a result, as JSON values: Dominari's version, and the fingerprint of the
    code that played its games (None where not known)."""
    from dominari import __version__

    return {"version": __version__, "code": code or None}


def _row_shares(row: Sequence[int], n: int) -> tuple[Share, ...]:
    """Every seat's share of a :attr:`Tally.split` row (games, then ``n`` seats' wins,
    then their ties)."""
    return tuple(Share(row[0], row[1 + p], row[1 + n + p]) for p in range(n))


def _seats_json(shares: Sequence[Share], names: Sequence[str]) -> list[dict[str, Any]]:
    """Seat by seat, each share as JSON values with the seat and its name."""
    return [{"seat": p, "name": names[p], **s.to_json()} for p, s in enumerate(shares)]


def _played_as(tally: Tally, seat: int) -> tuple[PlayedAs, ...]:
    """Seat ``seat``'s results by the rule bot it played (features ``as:SEAT:NAME``), most
    games first, then by name."""
    n, lead = tally.players, f"as:{seat}:"
    out = [PlayedAs(row[0], row[1 + seat], row[1 + n + seat], feature[len(lead):])
           for feature, row in tally.split.items() if feature.startswith(lead)]
    return tuple(sorted(out, key=lambda a: (-a.games, a.strategy)))


def card_splits(tally: Tally) -> tuple[CardSplit, ...]:
    """Every seat's results with and without each card (features ``card:NAME``), by
    name, with the differences among games alike (in each group ``G``: its games have
    features ``group@G``, and ``card@G:NAME`` those of them with the card)."""
    n, out = tally.players, []
    groups = {f[6:]: row for f, row in tally.split.items() if f.startswith("group@")}
    for feature, row in sorted(tally.split.items()):
        if feature.startswith("card:"):
            card = feature[5:]
            present = _row_shares(row, n)
            absent = tuple(Share(tally.games - row[0], tally.wins[p] - row[1 + p],
                                 tally.ties[p] - row[1 + n + p]) for p in range(n))
            within = [(tally.split.get(f"card@{g}:{card}"), total)
                      for g, total in groups.items()]  # fmt: skip
            adjusted = tuple(_adjusted(within, p, n) for p in range(n)) if groups else ()
            out.append(CardSplit(card, row[0], present, absent, adjusted))
    return tuple(out)


class _Held(NamedTuple):
    """A seat's results with a card (or monument) and without it, as :class:`HeldCard`
    is made of them: ``strata``, its groups of games alike, each the row of those with the
    card (or None) and of them all, ``[games, wins]`` (the seat's wins)."""

    name: str
    held: Share
    lacked: Share
    strata: list[tuple[list[int] | None, list[int]]]


def _seat_rows(row: list[int] | None, p: int) -> list[int] | None:
    """A :attr:`Tally.split` row as ``[games, wins]`` of seat ``p``."""
    return None if row is None else [row[0], row[1 + p]]


def _mastery_parts(tally: Tally, everywhere: bool = False) -> list[dict[str, _Held]]:
    """Seat by seat, by card id, the parts of :func:`mastery_splits`; ``everywhere``:
    every seat's of each card any seat held (none held by some: all its games without)."""
    n = tally.players
    groups: list[dict[str, list[int]]] = [{} for _ in range(n)]
    within: dict[tuple[int, str], dict[str, list[int]]] = {}
    held_rows: list[list[tuple[str, str, list[int] | None]]] = [[] for _ in range(n)]
    for feature, row in tally.split.items():
        if feature.startswith("mastery:"):
            _, seat, held_card = feature.split(":", 2)
            card, _, name = held_card.partition(" ")
            held_rows[int(seat)].append((card, name, row))
        elif feature.startswith("held@"):
            seat, _, group = feature[5:].partition(":")
            groups[int(seat)][group] = row
        elif feature.startswith("mastery@"):
            seat, group, card = feature[8:].split(":", 2)
            within.setdefault((int(seat), card), {})[group] = row
    totals = [tally.games, *tally.wins, *tally.ties]  # (a row of every game)
    return _seat_parts(n, held_rows, everywhere, lambda p, card: totals,
                       lambda p, card: groups[p], within)


def _monument_parts(tally: Tally, everywhere: bool = False) -> list[dict[str, _Held]]:
    """Seat by seat, by monument id, the parts of :func:`monument_splits`; ``everywhere``:
    every seat's of each monument any seat built (none built by some: all its games with
    it in play without)."""
    n = tally.players
    in_play: dict[str, list[int]] = {}
    built: list[list[tuple[str, str, list[int] | None]]] = [[] for _ in range(n)]
    groups: dict[tuple[int, str], dict[str, list[int]]] = {}
    within: dict[tuple[int, str], dict[str, list[int]]] = {}
    for feature, row in tally.split.items():
        if feature.startswith("monument-in:"):
            in_play[feature[12:]] = row
        elif feature.startswith("monument:"):
            _, seat, which = feature.split(":", 2)
            monument, _, name = which.partition(" ")
            built[int(seat)].append((monument, name, row))
        elif feature.startswith(("mgroup@", "monument@")):
            lead, _, rest = feature.partition("@")
            seat, group, monument = rest.split(":", 2)
            into = groups if lead == "mgroup" else within
            into.setdefault((int(seat), monument), {})[group] = row
    return _seat_parts(n, built, everywhere,
                       lambda p, monument: in_play.get(monument, [0] * (1 + 2 * n)),
                       lambda p, monument: groups.get((p, monument), {}), within)


def _seat_parts(n: int, held: list[list[tuple[str, str, list[int] | None]]],
                everywhere: bool, base: Callable[[int, str], list[int]],
                groups: Callable[[int, str], dict[str, list[int]]],
                within: dict[tuple[int, str], dict[str, list[int]]],
                ) -> list[dict[str, _Held]]:  # fmt: skip
    """Seat by seat, by id, a card's (or monument's) :class:`_Held` from ``held`` (each
    seat's ids, names and rows of the games it held it in), ``base(p, id)`` (the row of the
    games it is set against: all of them, or those with the monument in play),
    ``groups(p, id)`` (seat ``p``'s groups of games alike, by group) and ``within`` (by
    seat and id, its rows in each group); ``everywhere``: every seat's of each id any seat
    held (a row of None where the seat never held it)."""
    if everywhere:
        names = {card: name for cards in held for card, name, _ in cards}
        for cards in held:
            mine = {card for card, _, _ in cards}
            cards.extend((card, name, None) for card, name in names.items()
                         if card not in mine)  # fmt: skip
    seats: list[dict[str, _Held]] = [{} for _ in range(n)]
    for p, cards in enumerate(held):
        for card, name, have in cards:
            had = Share(0, 0, 0) if have is None else Share(have[0], have[1 + p],
                                                            have[1 + n + p])
            of = base(p, card)
            lacked = Share(of[0] - had.games, of[1 + p] - had.wins, of[1 + n + p] - had.ties)
            rows = within.get((p, card), {})
            strata = [(_seat_rows(rows.get(g), p), [total[0], total[1 + p]])
                      for g, total in groups(p, card).items()]  # fmt: skip
            seats[p][card] = _Held(name, had, lacked, strata)
    return seats


def _table(parts: dict[str, _Held]) -> tuple[HeldCard, ...]:
    """The cards of ``parts``, each with its difference among games alike, the surest
    gain first."""
    cards = [HeldCard(card, part.name, part.held, part.lacked,
                      _adjusted(part.strata, 0, 1) if part.strata else None)
             for card, part in parts.items()]  # fmt: skip
    return tuple(sorted(cards, key=_surest_gain))


def _pooled(seats: Sequence[dict[str, _Held]]) -> tuple[HeldCard, ...]:
    """One table of the cards of ``seats`` (seats that play one bot): each seat's games a
    game of its own, each seat's groups of games alike groups of their own."""
    merged: dict[str, _Held] = {}
    for parts in seats:
        for card, part in parts.items():
            had = merged.get(card)
            merged[card] = part if had is None else _Held(
                had.name, _add(had.held, part.held), _add(had.lacked, part.lacked),
                had.strata + part.strata)
    return _table({card: part for card, part in merged.items() if part.held.games})


def _add(a: Share, b: Share) -> Share:
    return Share(a.games + b.games, a.wins + b.wins, a.ties + b.ties)


def mastery_splits(tally: Tally) -> tuple[tuple[HeldCard, ...], ...]:
    """Seat by seat, its results with each mastery card it held at the end of some game
    (features ``mastery:SEAT:ID NAME``) and without it, with the difference among games
    alike (:attr:`HeldCard.alike`: in each group ``G`` of the seat's games, features
    ``held@SEAT:G``, and ``mastery@SEAT:G:ID`` those of them with the card), the surest
    gain first: by the low end of the interval of the difference among games alike, the
    highest first (then by that difference, then by id; cards without one after them, by
    the plain difference's, and a card held in every game, which has neither, last), so
    that a card held in few games, whose interval is wide, comes lower than its
    difference alone would put it; empty
    where no game was split so."""
    seats = _mastery_parts(tally)
    return tuple(_table(parts) for parts in seats) if any(seats) else ()


def monument_splits(tally: Tally) -> tuple[tuple[HeldCard, ...], ...]:
    """Seat by seat, its results in the games in which it held a level card of each
    monument at the end (features ``monument:SEAT:ID NAME``) and in its other games in
    which the monument was in play (``monument-in:ID``), with the difference among games
    alike: of as many level cards held (in each group ``K``, features
    ``mgroup@SEAT:K:ID``: games with the monument in play, ``monument@SEAT:K:ID``: those
    of them in which the seat held one), in :func:`mastery_splits`' order; empty where no
    game was split so."""
    seats = _monument_parts(tally)
    return tuple(_table(parts) for parts in seats) if any(seats) else ()


@dataclass(frozen=True)
class PooledHeld:
    """The seats ``seats`` (from 0), which play one bot (``name``, the spec they share):
    their results by mastery card (``cards``) and by monument (``monuments``), as one
    seat's (:class:`HeldCard`), each seat's games counted as games of their own and
    alike only with the same seat's: four times the games of one seat where four play
    the bot, for "which mastery cards win?" with a bot playing itself."""

    name: str
    seats: tuple[int, ...]
    cards: tuple[HeldCard, ...]
    monuments: tuple[HeldCard, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.name, "seats": list(self.seats),
                "cards": [c.to_json() for c in self.cards],
                "monuments": [c.to_json("monument") for c in self.monuments]}


def _bot_key(spec: str) -> str:
    """Which bot a seat's ``spec`` names: a built-in bot's name in any case (``GREEDY``
    is ``greedy``), a file by its path as given.

    >>> _bot_key(" GREEDY "), _bot_key("Bots/Mine.py:Bot")
    ('greedy', 'Bots/Mine.py:Bot')
    """
    text = spec.strip()
    return text if ".py:" in text.lower() or text.lower().endswith(".toml") else text.lower()


def pooled_splits(tally: Tally, specs: Sequence[str]) -> tuple[PooledHeld, ...]:
    """:class:`PooledHeld` of each bot that plays more than one seat (by ``specs``, the
    seats' bots), in the order of its first seat; empty where no game was split by
    mastery card, or no bot plays two seats."""
    cards = _mastery_parts(tally, everywhere=True)
    if not any(cards):
        return ()
    monuments = _monument_parts(tally, everywhere=True)
    out = []
    keys = [_bot_key(spec) for spec in specs]
    for key, spec in dict(zip(keys, specs, strict=True)).items():
        seats = tuple(p for p, k in enumerate(keys) if k == key)
        if len(seats) > 1:
            out.append(PooledHeld(spec, seats, _pooled([cards[p] for p in seats]),
                                  _pooled([monuments[p] for p in seats])))  # fmt: skip
    return tuple(out)


def _surest_gain(card: HeldCard) -> tuple[int, float, float, str]:
    """The order of :func:`mastery_splits`: the low end of the interval of the difference
    among games alike, the highest first; then that difference; then cards without one,
    by the plain difference's the same way; a card without either last."""
    if card.alike is not None:
        return (0, -card.alike[1], -card.alike[0], card.card)
    ci, plain = card.difference_ci95, card.difference
    if ci is None or plain is None:
        return (2, 2.0, 2.0, card.card)
    return (1, -ci[0], -plain, card.card)


def _by_key_cards(tally: Tally, key_cards: Sequence[str],
                  played_as: bool = False) -> tuple[KeyCardGroup, ...]:
    """Every seat's results in each group of games alike in ``key_cards`` (features
    ``group@G``, bit ``k`` of ``G`` for ``key_cards[k]``) and, with ``played_as``, in the
    rule bot ``best`` played (``group@G/NAME``), the groups with the most key cards first;
    none without either."""
    if not key_cards and not played_as:
        return ()
    n, out = tally.players, []
    for feature, row in tally.split.items():
        if feature.startswith("group@"):
            group, _, strategy = feature[6:].partition("/")
            bits = tuple(int(group) >> k & 1 for k in range(len(key_cards)))
            cards = tuple(c for c, bit in zip(key_cards, bits, strict=True) if bit)
            shares = _row_shares(row, n)
            out.append(((-len(cards), tuple(-b for b in bits), strategy),
                        KeyCardGroup(cards, row[0], shares, strategy)))
    return tuple(g for _, g in sorted(out, key=lambda x: x[0]))


def _adjusted(within: Sequence[tuple[list[int] | None, list[int]]], seat: int,
              n: int) -> tuple[float, float, float] | None:
    """Seat ``seat``'s difference of outright win rate with a card and without it over
    groups of games (per group: the card's row in it, or None, and the group's row),
    Mantel-Haenszel weighted, with a 95% score interval; None if no group has games both
    with and without the card.

    The interval holds the differences ``d`` that a score test would not refuse: the
    Mantel-Haenszel difference less ``d``, over its spread where every group's two rates
    are the likeliest ones that differ by ``d``. For one group it is Mee's interval
    (Miettinen and Nurminen's without their n / (n - 1)): 56 of 70 against 48 of 80 gives
    [5.33, 33.77] points, as Newcombe (1998) lists it. Wald's spread, p(1 - p)/n a group,
    is 0 where a group was won always or never (0 of 10 against 3 of 10 looked
    significant); Agresti and Caffo's, a win and a loss added to every group, drifts as
    groups multiply (6 to 8 key cards make up to 256); Klingenberg's is 0 wide where a
    seat never wins. This one is never 0 wide and always holds the difference. Measured,
    it leaves out the true difference in about 5% of runs, from one group of a few games
    to 256 groups of thousands, for a card that changes nothing and for one that does (20%
    against 5% in groups of 10): 9% at most where each side of a group has 5 games or
    more, and over 256 groups of a dozen games; up to 16% where the card was in one game.

    >>> [round(x, 4) for x in _adjusted([([70, 56], [150, 104])], 0, 1)]
    [0.2, 0.0533, 0.3377]
    >>> [round(x, 3) for x in _adjusted([([10, 0, 0, 0, 0], [20, 0, 0, 0, 0])], 0, 2)]
    [0.0, -0.278, 0.278]
    """
    groups = []
    weight = total = 0.0
    for have, group in within:
        n1 = have[0] if have is not None else 0
        n0 = group[0] - n1
        if not n1 or not n0:
            continue
        w1 = have[1 + seat] if have is not None else 0
        w0 = group[1 + seat] - w1
        w = n1 * n0 / (n1 + n0)
        weight += w
        total += w * (w1 / n1 - w0 / n0)
        groups.append((w, n1, w1 / n1, n0, w0 / n0))
    if not weight:
        return None
    diff = total / weight

    def score(d: float) -> float:  # the difference less d, in standard errors under d
        var = 0.0
        for w, n1, p1, n0, p0 in groups:
            q1 = _likeliest(p1, n1, p0, n0, d)
            q0 = q1 - d
            var += w * w * (q1 * (1.0 - q1) / n1 + q0 * (1.0 - q0) / n0)
        gap = (diff - d) * weight
        if var <= 0.0:
            return 0.0 if gap == 0.0 else math.copysign(math.inf, gap)
        return gap / math.sqrt(var)

    # The least d not refused (score(d) <= Z95) and the most (score(d) >= -Z95). The score
    # falls as d grows, mostly: a group won always or never, in both, adds spread as d
    # leaves 0, so the score may rise again and the d not refused come in two pieces.
    # Steps from each end find the outermost crossing, which false position then refines.
    lower = _outermost(lambda d: score(d) - Z95, -1.0, diff)
    upper = _outermost(lambda d: -score(d) - Z95, 1.0, diff)
    return (diff, min(lower, diff), max(upper, diff))


def _outermost(refused: Callable[[float], float], end: float, diff: float) -> float:
    """The difference nearest ``end`` that is not refused (``refused(d) <= 0``; ``diff``
    never is): steps from ``end`` towards ``diff`` to the first one not refused, then
    :func:`_crossing` between it and the step before."""
    previous = end
    for i in range(_STEPS + 1):
        d = end + (diff - end) * i / _STEPS
        if refused(d) <= 0.0:
            return d if i == 0 else _crossing(refused, previous, d)
        previous = d
    return diff


_STEPS = 16
"""The steps from each end of the range in which :func:`_outermost` looks for the
outermost difference a score test does not refuse (then refined)."""


def _crossing(f: Callable[[float], float], a: float, b: float) -> float:
    """Where ``f`` crosses 0 from above between ``a`` and ``b`` (either the larger; ``a``
    if it is already 0 or less there, ``b`` if it is not yet at ``b``): by false position,
    Illinois's (the side kept twice has its value halved), halving where a value is
    infinite."""
    fa, fb = f(a), f(b)
    if fa <= 0.0:
        return a
    if fb >= 0.0:
        return b
    kept = 0
    for _ in range(100):
        if abs(b - a) < 1e-12:
            break
        m = (a + b) / 2 if math.isinf(fa) or math.isinf(fb) else (a * fb - b * fa) / (fb - fa)
        if not min(a, b) < m < max(a, b):
            m = (a + b) / 2
        fm = f(m)
        if abs(fm) < 1e-9:
            return m
        if fm > 0.0:
            a, fa = m, fm
            if kept == 1:
                fb /= 2
            kept = 1
        else:
            b, fb = m, fm
            if kept == -1:
                fa /= 2
            kept = -1
    return (a + b) / 2


def _likeliest(p1: float, n1: int, p0: float, n0: int, d: float) -> float:
    """The likeliest win rate with the card, given rates ``p1`` of ``n1`` games with it
    and ``p0`` of ``n0`` without and that the two rates differ by ``d`` (with less
    without): the root in range of Miettinen and Nurminen's cubic."""
    theta = n0 / n1
    a = 1.0 + theta
    b = -(1.0 + theta + p1 + theta * p0 + d * (theta + 2.0))
    c = d * d + d * (2.0 * p1 + theta + 1.0) + p1 + theta * p0
    e = -p1 * d * (1.0 + d)
    v = b**3 / (3.0 * a) ** 3 - b * c / (6.0 * a * a) + e / (2.0 * a)
    u = math.sqrt(max(0.0, b * b / (3.0 * a) ** 2 - c / (3.0 * a)))
    if v < 0.0:
        u = -u
    if u == 0.0:
        q1 = -b / (3.0 * a)
    else:
        angle = (math.pi + math.acos(max(-1.0, min(1.0, v / u**3)))) / 3.0
        q1 = 2.0 * u * math.cos(angle) - b / (3.0 * a)
    return min(1.0, max(d if d > 0.0 else 0.0, min(1.0 + d if d < 0.0 else 1.0, q1)))


def _pair(interval: tuple[float, float] | None) -> list[float] | None:
    """An interval as JSON: a list of its two ends, or ``null``."""
    return None if interval is None else list(interval)


def _plain(value: Any) -> Any:
    """JSON values: tuples become lists (a kingdom of card names)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
