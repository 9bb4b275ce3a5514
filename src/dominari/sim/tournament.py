"""Round-robin tournaments between bots, with win rates, head-to-head counts and ratings.

A tournament takes two or more *entries* (bot specs, as for a simulation) and a
table size ``seats`` (2 to 4). Every combination of ``seats`` entries
(:func:`itertools.combinations`, in entry order) is a *match-up*, and every
match-up plays the same number of games ``games`` (``-n``): the number is per
match-up, so a tournament plays ``C(entries, seats) * games`` games in all.

Decisions where the rules of a tournament are open:

- **Entries** are distinct by position, not by spec: ``bmu,smithy,bmu`` is a
  three-entry tournament with two copies of BMU, named ``BMU#1`` and ``BMU#2``
  (as :func:`~dominari.sim.runner.seat_names` names repeated seats). A mirror
  entry is a useful calibration: its ratings and head-to-head show the noise.
- **Seats** rotate (:func:`seating`): game ``j`` of a match-up seats its entries
  in rotation ``j % seats`` of a cyclic order, and the cyclic order changes
  every ``seats`` games, through all ``(seats - 1)!`` of them. So every block of
  ``seats`` consecutive games puts each entry in each seat once, and every block
  of ``seats!`` games plays every seat order once (for 2 seats: the players swap
  seats every game). With ``games`` not a multiple of ``seats`` the seats are not
  balanced exactly (:attr:`TournamentResult.seat_balanced` says so).
- **Seeds**: game ``j`` of the match-up of entries ``e`` is played with
  :func:`tournament_game_seed` ``(seed, e, j)`` and its bots are reset with
  :func:`tournament_bot_seed`; a game depends only on these, never on the number
  of workers or the backend. Seeds follow the entries' positions, not the
  match-up's index, so appending entries to ``--players`` leaves the games of the
  earlier entries' match-ups as they were.
- **Wins** are counted as in a simulation (:class:`~dominari.sim.stats.Tally`): a
  win is an outright win, a shared first place is a tie, the win rate is wins
  over games (with a Wilson 95% interval) and the tie rate is reported apart.
- **Turn order**: the engines draw who begins each game from its seed, so a seat is
  not a place in the turn order, and rotating seats does not balance it. Every game
  keeps its turn order (:func:`~dominari.sim.runner.turn_order`), and each entry's
  results are also counted by its place in it (:attr:`Standing.by_turn`), as are
  everyone's (:attr:`TournamentResult.by_turn`), as in a simulation.
- **Head to head**: for each pair of entries, the games they played together and
  how many of them the row entry finished ranked strictly better than the column
  entry (for 2 seats: beat it).
- **Ratings** use OpenSkill's full-pairing Bradley-Terry model (:data:`RATING_MODEL`):
  a game of 3 or 4 is rated as every pair of its players, each pair a win, a loss or
  (equal ranks, a shared win or place) a draw. For 2 players it rates exactly as
  OpenSkill's Plackett-Luce model; with 3 or 4 it keeps a shared win apart from the
  places behind it, where OpenSkill 6.2's Plackett-Luce, given ranks 1, 1, 3, 4,
  raised the third as much as the two winners (to 25.93 each from 25). Its dynamics
  ``tau`` is 0: a bot's skill does not drift between games, so the uncertainty
  ``sigma`` keeps shrinking as games are played. Ratings are updated game by game in
  *rounds* (round ``j`` is game ``j`` of every match-up, match-ups in order), as a
  real round robin is played, so no match-up's games all come first; the order is
  fixed, so ratings are reproducible. The leaderboard sorts by the conservative
  ``ordinal`` = mu - 3 sigma.

Work is cut into shards of consecutive games of one match-up (:class:`Shard`);
:func:`play_shard` is a top-level function of picklable values, so any pool of
:func:`~dominari.sim.pool.run_tasks` runs it.

>>> [seating((0, 1), j) for j in range(3)]
[(0, 1), (1, 0), (0, 1)]
>>> matchups(4, 3)
[(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
import os
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dominari.bots.base import GameBot
from dominari.bots.kingdom import KingdomBestBot, best_rule_bot, rule_bot
from dominari.core.checks import escaped
from dominari.core.errors import ConfigError
from dominari.dominion.cards import NAME
from dominari.dominion.kingdoms import fixed as fixed_kingdom
from dominari.dominion.kingdoms import resolve as resolve_kingdom
from dominari.sim.deadline import check_decision_timeout
from dominari.sim.journal import (
    FORMAT,
    GameResult,
    Journal,
    JournalError,
    code_fingerprint,
    comparable_key,
)
from dominari.sim.pool import beat, check_stall, each_result, init_ray, run_tasks
from dominari.sim.records import (
    SIMULATION_RECORDS,
    TOURNAMENT_INDEX,
    TOURNAMENT_RECORDS,
    HeldFolder,
    remove_files,
    temporary_files,
    write_text_atomic,
)
from dominari.sim.runner import (
    DEFAULT_MAX_TURNS,
    GAME_TITLES,
    STOPPED,
    BotError,
    DominionOptions,
    GameOptions,
    alike_features,
    bots_for,
    check_by_card,
    check_game,
    check_request,
    check_run,
    chunk_size,
    data_digest_of,
    derive_seed,
    dominations_data,
    game_code,
    game_options,
    game_range,
    held_cards,
    key_cards,
    load_bots,
    own_code,
    play_game,
    reset_bots,
    run_files,
    run_notes,
    seat_labels,
    seat_names,
    start_run,
    stopped_record,
    turn_order,
    use_stamp,
    write_record,
)
from dominari.sim.seats import SeatRecorder
from dominari.sim.stats import (
    INTERVALS,
    CardSplit,
    EndReasons,
    HeldCard,
    Places,
    Tally,
    TurnPlace,
    WinShare,
    _pair,
    _plain,
    card_splits,
    made_by,
    mastery_splits,
    mean_ci95,
    sample_sd,
)
from dominari.sim.table import GameTable

if TYPE_CHECKING:
    from dominari.dominations.rules import Rules

MAX_MATCHUP_GAMES = 1_000_000
"""The most games a match-up plays in one tournament (every game's result is kept, for
the ratings; a million already gives intervals of a tenth of a point)."""
MAX_TOURNAMENT_GAMES = 10_000_000
"""The most games of all match-ups together in one tournament: every game's result is
kept for the ratings, in a :class:`~dominari.sim.table.GameTable` of 13 bytes a 2-seat
game, 23 a 4-seat one (a journal shares it, and is read a line at a time), so that the
maximum takes some 160 to 310 MB (measured with stand-in games before the turn order's byte
was added: 150 MB for 10,000,000 at 2 seats, 145 MB for 5,000,000 at 4); but the
ratings, updated game by game after the games, then take some 5 to 7 minutes on this
project's 2-core reference machine (33 µs a game at 2 seats, 42 at 4: ``benchmarks/
ratings.py``), a third more on a busy one."""
SEATS: tuple[int, ...] = (2, 3, 4)
"""The table sizes a tournament can play (both games take 2 to 4 players)."""

RATING_MU = 25.0
"""The prior mean skill of every entry."""
RATING_SIGMA = 25.0 / 3.0
"""The prior uncertainty (standard deviation) of every entry's skill."""
RATING_Z = 3.0
"""``ordinal = mu - RATING_Z * sigma``: a conservative skill estimate."""
RATING_CAVEAT = ("σ is the model's uncertainty, not a margin of error: a μ moves with "
                 "another seed, or with the same games rated in another order, by less or "
                 "by more than σ (as much as 2.5 σ measured), so where two players' ratings "
                 "are close, their win rates and head to head, with intervals, tell them "
                 "apart better")
"""What a tournament's footer and its JSON's ``rating_model`` say of σ. The statistician's
and the tournament organiser's audits: over 8 seeds one μ moved by a tenth of its σ,
another by 2.5 σ, and two bots of one strategy were ranked against their win counts."""
RATING_MODEL: dict[str, Any] = {"library": "openskill", "model": "BradleyTerryFull",
                                "mu": RATING_MU, "sigma": RATING_SIGMA,
                                "beta": RATING_SIGMA / 2, "tau": 0.0,
                                "ordinal": f"mu - {RATING_Z:g} * sigma",
                                "order": "game by game in rounds: game j of every match-up, "
                                         "match-ups in order",
                                "note": RATING_CAVEAT}  # fmt: skip
"""The rating model and its parameters, as reported in a result's JSON."""
RATING_NAME = "OpenSkill Bradley-Terry (full pairing)"
"""The rating model in words, as the table and the chart name it."""


def tournament_game_seed(seed: int, entries: Sequence[int], index: int) -> int:
    """The seed of game ``index`` (0-based) of the match-up of ``entries`` (entry
    positions) in a tournament seeded ``seed`` (63 bits)."""
    return derive_seed("dominari-tournament-game", seed, *entries, "game", index)


def tournament_bot_seed(seed: int, entries: Sequence[int], index: int, seat: int) -> int:
    """The seed the bot in ``seat`` is reset with for game ``index`` of the match-up of
    ``entries``."""
    return derive_seed("dominari-tournament-bot", seed, *entries, "game", index, seat)


RECORD_GLOB = TOURNAMENT_RECORDS
"""The names of a tournament's record files (:func:`tournament_record_name`)."""
RECORDS_INDEX = TOURNAMENT_INDEX
"""The file beside a tournament's records that says which tournament they are of, who
plays each match-up, and how many games each match-up played in the last run."""


def tournament_record_name(matchup: int, index: int) -> str:
    """The file name of the record of game ``index`` of match-up ``matchup`` (0-based;
    match-ups in :func:`matchups` order).

    >>> tournament_record_name(0, 0), tournament_record_name(11, 1233)
    ('matchup-001-game-000001.json', 'matchup-012-game-001234.json')
    """
    return f"matchup-{matchup + 1:03d}-game-{index + 1:06d}.json"


def matchups(entries: int, seats: int) -> list[tuple[int, ...]]:
    """The match-ups of a round robin: every combination of ``seats`` of ``entries``
    entry positions, in order."""
    return list(itertools.combinations(range(entries), seats))


def seating(entries: Sequence[int], index: int) -> tuple[int, ...]:
    """The entries of a match-up in seat order for its game ``index``.

    Rotation ``index % k`` of cyclic order ``(index // k) % (k - 1)!`` (``k`` seats):
    every ``k`` consecutive games seat each entry once in each seat, every ``k!``
    games play every seat order once.

    >>> [seating((0, 1, 2), j) for j in range(6)]
    [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
    """
    k = len(entries)
    orders = math.factorial(k - 1)
    rest = _nth_permutation(tuple(entries[1:]), (index // k) % orders)
    cycle = (entries[0], *rest)
    r = index % k
    return cycle[r:] + cycle[:r]


def _nth_permutation(items: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Permutation ``n`` of ``items`` in :func:`itertools.permutations` order."""
    pool = list(items)
    out = []
    for size in range(len(pool), 0, -1):
        block = math.factorial(size - 1)
        out.append(pool.pop(n // block))
        n %= block
    return tuple(out)


def parse_entries(text: str) -> list[str]:
    """Tournament entries from ``a,b,c,…``; :class:`ConfigError` for an empty entry or
    fewer than two.

    >>> parse_entries("bmu, smithy ,random")
    ['bmu', 'smithy', 'random']
    """
    specs = [part.strip() for part in text.split(",")]
    if any(not s for s in specs):
        raise ConfigError(f"--players {text!r}: empty entry; give comma-separated bot names")
    if len(specs) < 2:
        raise ConfigError(f"--players {text!r}: a tournament needs at least 2 players")
    return specs


# ----------------------------------------------------------------------- shards
@dataclass(frozen=True)
class Shard:
    """Games ``start`` to ``stop - 1`` of match-up ``matchup`` (the entries ``entries``)
    of a tournament: everything a worker needs."""

    specs: tuple[str, ...]
    """Every entry's bot spec, by entry position."""
    names: tuple[str, ...]
    """Every entry's display name, by entry position."""
    options: GameOptions
    seed: int
    matchup: int
    entries: tuple[int, ...]
    start: int
    stop: int
    record_dir: str | None = None
    """The folder each game's record is written to (:func:`tournament_record_name`), if
    any."""
    stamp: str | None = None
    """The run's code and what its files hold (:func:`~dominari.sim.runner.begin_run`),
    for :func:`~dominari.sim.runner.use_stamp`."""
    decision_timeout: float | None = None
    """The most seconds a bot may take over one decision
    (:func:`~dominari.sim.runner.play_game`'s ``timeout``)."""

    @property
    def own_code(self) -> tuple[str, ...]:
        """The Python bots of the user's own in its match-up (see
        :attr:`~dominari.sim.runner.Chunk.own_code`)."""
        return own_code(self.specs[e] for e in self.entries)

    def describe(self) -> str:
        """The shard in words, for messages: ``games 1-10 of bm vs smithy, seed 1``."""
        return (f"{game_range(self.start, self.stop)} of "
                f"{' vs '.join(self.names[e] for e in self.entries)}, seed {self.seed}")


def check_size(players: int, seats: int, games: int) -> None:
    """:class:`ConfigError` for a round robin of ``players`` entries at ``seats`` seats,
    ``games`` games a match-up, of more than :data:`MAX_TOURNAMENT_GAMES` games."""
    count = math.comb(players, seats)  # before listing them: 500 players make 2.6e9
    if games * count > MAX_TOURNAMENT_GAMES:
        raise ConfigError(f"{count:,} match-ups × {games:,} games = {games * count:,} "
                          f"games, and a tournament plays at most "
                          f"{MAX_TOURNAMENT_GAMES:,}: give fewer games per match-up or "
                          "fewer players")  # fmt: skip


def play_shard(shard: Shard) -> tuple[GameResult, ...]:
    """Play the shard's games (runs in a worker process); their results in game order."""
    use_stamp(shard.stamp, shard.specs, shard.options)
    bots = bots_for(shard.options.game, shard.specs)  # one per entry, loaded once a thread
    recorder = SeatRecorder(bots, shard.specs, shard.options.game)
    every = seat_labels(shard.names, shard.specs)  # by entry
    dominations = shard.options.game == "dominations"  # (its mastery cards are kept)
    out: list[GameResult] = []
    # One tuple for each distinct seating and ranking of the shard: its games share them,
    # in this process and, once unpickled, in the one that keeps every game's result.
    shared: dict[tuple[int, ...], tuple[int, ...]] = {}
    for j in range(shard.start, shard.stop):
        seats = seating(shard.entries, j)
        seats = shared.setdefault(seats, seats)
        table = [bots[e] for e in seats]
        state = shard.options.new_game(len(seats),
                                       tournament_game_seed(shard.seed, shard.entries, j),
                                       tuple(shard.names[e] for e in seats))  # fmt: skip
        order = tuple(turn_order(state))
        seeds = [tournament_bot_seed(shard.seed, shard.entries, j, p) for p in range(len(table))]
        labels = [every[e] for e in seats]
        try:
            reset_bots(table, seeds, labels, shard.decision_timeout)
            play_game(table, state, labels=labels, timeout=shard.decision_timeout)
        except BotError as exc:  # which game of which match-up: played again alone
            who = " vs ".join(shard.names[e] for e in shard.entries)
            where = "" if shard.record_dir is None else stopped_record(
                Path(shard.record_dir) / (STOPPED + tournament_record_name(shard.matchup, j)),
                state, partial(recorder.entries, seats, seeds, state), exc)  # fmt: skip
            raise exc.again(f"game {j + 1} of match-up {shard.matchup + 1} ({who}): "
                            f"{exc}{where}", game=j, matchup=shard.matchup,
                            seed=tournament_game_seed(shard.seed, shard.entries, j)) from exc
        beat()  # a game finished: the worker is not hung
        if shard.record_dir is not None:
            write_record(Path(shard.record_dir) / tournament_record_name(shard.matchup, j),
                         state, recorder.entries(seats, seeds, state))  # fmt: skip
        outcome = state.outcome()
        assert outcome is not None
        ranks = tuple(outcome.ranks)
        out.append(GameResult(seats, shared.setdefault(ranks, ranks), tuple(outcome.scores),
                              outcome.reason, shared.setdefault(order, order),
                              held_cards(state, len(seats)) if dominations else ()))  # fmt: skip
    return tuple(out)


# ---------------------------------------------------------------------- ratings
def rate_games(games: Iterable[GameResult], entries: int,
               progress: Callable[[int], None] | None = None, *,
               model: str = RATING_MODEL["model"]) -> list[tuple[float, float]]:
    """``(mu, sigma)`` of every entry after rating ``games`` in order with
    :data:`RATING_MODEL` (equal ranks are shared places); ``progress(k)`` is called each
    time ``k`` more games are rated (every :data:`RATED_EVERY`, then the rest). ``model``
    names another of OpenSkill's models, with the same parameters, to compare with.

    >>> g = GameResult((0, 1), (1, 2), (30, 20), "provinces")
    >>> (a_mu, _), (b_mu, _) = rate_games([g, g], 2)
    >>> a_mu > 25 > b_mu
    True
    >>> (a_mu, _), (b_mu, _) = rate_games([g, g], 2, model="PlackettLuce")
    >>> a_mu > 25 > b_mu
    True
    """
    from openskill import models

    known = {m.__name__: m for m in models.MODELS}
    if model not in known:
        raise ConfigError(f"no OpenSkill model {model!r}: the models are "
                          f"{', '.join(sorted(known))}")
    rater = known[model](mu=RATING_MU, sigma=RATING_SIGMA, beta=RATING_SIGMA / 2, tau=0.0)
    ratings = [rater.rating() for _ in range(entries)]
    rated = _Counter(progress, RATED_EVERY)
    for g in games:
        teams = rater.rate([[ratings[e]] for e in g.seating], ranks=[float(r) for r in g.ranks])
        for e, team in zip(g.seating, teams, strict=True):
            ratings[e] = team[0]
        rated.one()
    rated.rest()
    return [(r.mu, r.sigma) for r in ratings]


class _Counter:
    """Counts games done (:meth:`one`) and says so to ``report(k)`` every ``every`` games,
    then the rest (:meth:`rest`); without ``report``, says nothing."""

    def __init__(self, report: Callable[[int], None] | None, every: int) -> None:
        self.report, self.every, self.count = report, every, 0

    def one(self) -> None:
        self.count += 1
        if self.count == self.every and self.report is not None:
            self.report(self.count)
            self.count = 0

    def rest(self) -> None:
        if self.count and self.report is not None:
            self.report(self.count)
        self.count = 0


RATED_EVERY = 1000
"""How many games :func:`rate_games` rates between two calls of its ``progress``."""
READ_EVERY = 1000
"""How many games :func:`tournament` reads (for their rows, their split by card) between
two calls of its ``reading``."""


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class Standing(WinShare):
    """One entry's results over a tournament."""

    entry: int
    """The entry's position in the players given."""
    spec: str
    name: str
    games: int
    wins: int
    """Games won outright."""
    ties: int
    """Games whose win was shared."""
    total_score: int
    mu: float
    sigma: float
    total_score_sq: int = 0
    """The sum over games of the squared score (0: unknown)."""
    by_turn: tuple[TurnPlace, ...] = ()
    """The entry's results by its place in the turn order (1: it began the game), over
    every match-up; empty where a game's turn order is not known."""
    shared_ways: tuple[int, ...] = ()

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def mean_score_ci95(self) -> tuple[float, float] | None:
        """A 95% interval of the mean score (Student's t, from the games' spread;
        ``None`` for one game: see :func:`~dominari.sim.stats.mean_ci95`)."""
        return mean_ci95(self.total_score, self.total_score_sq, self.games)

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma``."""
        return self.mu - RATING_Z * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "spec": self.spec,
            "name": self.name,
            "games": self.games,
            **self.counts_json(),
            **self.share_json(),
            "mean_score": self.mean_score,
            "mean_score_ci95": _pair(self.mean_score_ci95),
            "score_sd": sample_sd(self.total_score, self.total_score_sq, self.games),
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
            **({"by_turn": [place.to_json() for place in self.by_turn]} if self.by_turn
               else {}),
        }


@dataclass(frozen=True)
class MatchupResult:
    """The totals of one match-up, per entry of it (in the match-up's entry order)."""

    entries: tuple[int, ...]
    games: int
    wins: tuple[int, ...]
    ties: tuple[int, ...]
    total_scores: tuple[int, ...]
    by_turn: tuple[tuple[TurnPlace, ...], ...] = ()
    """Per entry of the match-up, its results in it by place in the turn order (empty
    where a game's turn order is not known)."""

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The totals as JSON values, the entries named by ``names``."""
        out = {"players": list(names), "games": self.games, "wins": list(self.wins),
               "ties": list(self.ties),
               "mean_score": [s / self.games if self.games else 0.0
                              for s in self.total_scores]}  # fmt: skip
        if self.by_turn:
            out["by_turn"] = [[place.to_json() for place in places] for places in self.by_turn]
        return out


@dataclass(frozen=True)
class TournamentResult(EndReasons):
    """The outcome of a tournament.

    ``players`` are in entry order (:attr:`leaderboard` sorts them);
    ``better[i][j]`` counts the games in which entry ``i`` ranked strictly better
    than entry ``j``, out of ``met[i][j]`` games they played together.
    """

    game: str
    seed: int
    seats: int
    games_per_matchup: int
    players: tuple[Standing, ...]
    matchups: tuple[MatchupResult, ...]
    better: tuple[tuple[int, ...], ...]
    met: tuple[tuple[int, ...], ...]
    end_reasons: dict[str, int]
    options: dict[str, Any] = field(default_factory=dict)
    reused: int = 0
    """How many of the games were read from a journal rather than played in this run."""
    rechecked: int = 0
    """How many of the journal's games were played again with this code, to recheck a
    journal written by other code (:attr:`restamped`) or to check the file, before it was
    used (each came out the same: a game that did not stops the run); 0 where none was.
    Like :attr:`reused`, not among the results' JSON."""
    restamped: bool = False
    """Whether the journal was written by other code or files, and stamped with this code
    once :attr:`rechecked` games came out the same."""
    retried: tuple[str, ...] = ()
    """The batches of games played again because their workers were lost (died, hung, ran
    out of memory), in words, once each time: each game counted once, the results those
    of a run that lost none. Not among the results' JSON."""
    files_changed: tuple[str, ...] = ()
    """The players (by name) whose files (strategy files, Python bots' files) changed since
    the journal's games were played: the games of their match-ups were played again, the
    others read back (:attr:`dropped`). Not among the results' JSON."""
    dropped: int = 0
    """How many of the journal's games were let go for :attr:`files_changed`."""
    by_turn: tuple[TurnPlace, ...] = ()
    """Results by place in the turn order, whoever sat there: the player who began, the
    second … (empty where a game's turn order is not known)."""
    code: str = ""
    """The fingerprint of the code that played the games
    (:func:`~dominari.sim.runner.game_code`; '' where not known)."""
    notes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """What the results say beside their numbers, as JSON values
    (:func:`~dominari.sim.runner.run_notes`), as :attr:`SimResult.notes`."""
    data_digest: str = ""
    """Dominations with a data folder: the digest of its files, as a record names it (in
    the JSON's ``options``)."""
    by_mastery: tuple[tuple[HeldCard, ...], ...] = ()
    """Dominations, with ``by_card``: entry by entry (in entry order), its results in its
    games in which it held each mastery card at the end and in its others, the surest
    gain first (as :attr:`SimResult.by_mastery`'s, by seat)."""
    by_card: tuple[tuple[CardSplit, ...], ...] = ()
    """Dominion, when asked for (kingdoms that differ between games): entry by entry, in
    entry order, its results in its games whose kingdom had each card and in its others,
    by card name (each :class:`CardSplit` of one player, the entry; its differences among
    games alike are among games of one match-up)."""
    by_card_unadjusted: str = ""
    """With :attr:`by_card`: why no differences among games alike are given ('' when they
    are)."""
    by_card_key_cards: tuple[tuple[str, ...], ...] = ()
    """With :attr:`by_card`: match-up by match-up (in :attr:`matchups` order), the cards
    the strategy bots at its table buy, by which its games are grouped alike (as
    :attr:`SimResult.key_cards`; none where :attr:`by_card_unadjusted` says why no games
    are alike)."""
    by_card_key_played_as: tuple[bool, ...] = ()
    """With :attr:`by_card`: match-up by match-up, whether ``best`` is at its table, so
    that its games are also grouped by the rule bot it played (False where
    :attr:`by_card_unadjusted` says why no games are alike)."""

    @classmethod
    def from_games(cls, results: Sequence[Sequence[GameResult]], *, specs: tuple[str, ...],
                   names: tuple[str, ...], seats: int, seed: int, game: str,
                   options: dict[str, Any],
                   rating: Callable[[int], None] | None = None) -> TournamentResult:
        """The result from every match-up's games (``results[m][j]``: game ``j`` of
        match-up ``m``, all match-ups with the same number of games); ``rating`` is
        :func:`rate_games`'s ``progress``."""
        n = len(specs)
        wins, ties, score, played = [0] * n, [0] * n, [0] * n, [0] * n
        score_sq = [0] * n
        ways = [[0] * (seats + 1) for _ in range(n)]  # shared wins, by how many shared
        places = Places(n, seats)  # by entry and place in the turn order
        better = [[0] * n for _ in range(n)]
        met = [[0] * n for _ in range(n)]
        reasons: dict[str, int] = {}
        combos = matchups(n, seats)
        per_matchup = []
        for entries, games in zip(combos, results, strict=True):
            pos = {e: k for k, e in enumerate(entries)}
            mw, mt, ms = [0] * seats, [0] * seats, [0] * seats
            here = Places(seats, seats)  # by entry of the match-up (its position in it)
            at: dict[tuple[int, ...], tuple[int, ...]] = {}  # a seating's positions, by seat
            for g in games:
                winners = g.ranks.count(1)
                shared = winners > 1
                for p, e in enumerate(g.seating):
                    played[e] += 1
                    score[e] += g.scores[p]
                    score_sq[e] += g.scores[p] * g.scores[p]
                    ms[pos[e]] += g.scores[p]
                    if g.ranks[p] == 1:
                        if shared:
                            ties[e] += 1
                            ways[e][winners] += 1
                            mt[pos[e]] += 1
                        else:
                            wins[e] += 1
                            mw[pos[e]] += 1
                    for q, f in enumerate(g.seating):
                        if q != p:
                            met[e][f] += 1
                            if g.ranks[p] < g.ranks[q]:
                                better[e][f] += 1
                reasons[g.reason] = reasons.get(g.reason, 0) + 1
                if g.order:
                    places.add(g.order, g.ranks, g.seating)
                    seated = at.get(g.seating)
                    if seated is None:
                        seated = at[g.seating] = tuple(pos[e] for e in g.seating)
                    here.add(g.order, g.ranks, seated)
            per_matchup.append(MatchupResult(
                entries, len(games), tuple(mw), tuple(mt), tuple(ms),
                tuple(here.of(i) for i in range(seats))
                if here.counted == len(games) > 0 else ()))  # fmt: skip
        rounds = max((len(games) for games in results), default=0)
        in_rounds = _in_rounds(results)
        rated = rate_games(in_rounds, n, rating)
        counted = places.counted == sum(len(games) for games in results) > 0
        players = tuple(
            Standing(entry=e, spec=specs[e], name=names[e], games=played[e], wins=wins[e],
                     ties=ties[e], total_score=score[e], mu=rated[e][0], sigma=rated[e][1],
                     total_score_sq=score_sq[e],
                     by_turn=places.of(e) if counted else (), shared_ways=tuple(ways[e]))
            for e in range(n)
        )  # fmt: skip
        by_turn = places.everyone() if counted else ()
        return cls(game=game, seed=seed, seats=seats, games_per_matchup=rounds,
                   players=players, matchups=tuple(per_matchup),
                   better=tuple(tuple(row) for row in better),
                   met=tuple(tuple(row) for row in met),
                   end_reasons=dict(sorted(reasons.items())), options=dict(options),
                   by_turn=by_turn)  # fmt: skip

    @property
    def games(self) -> int:
        """The number of games played in all."""
        return sum(m.games for m in self.matchups)

    @property
    def seat_balanced(self) -> bool:
        """Whether every entry sat in every seat equally often in each match-up."""
        return self.games_per_matchup % self.seats == 0

    @property
    def leaderboard(self) -> tuple[Standing, ...]:
        """The entries best first: by ordinal, then mu, then entry position."""
        return tuple(sorted(self.players, key=lambda s: (-s.ordinal, -s.mu, s.entry)))

    def head_to_head_rate(self, i: int, j: int) -> float | None:
        """The share of their games together in which entry ``i`` ranked better than
        entry ``j`` (None if they never met, as an entry with itself)."""
        met = self.met[i][j]
        return self.better[i][j] / met if met else None

    def to_json(self) -> dict[str, Any]:
        """The result as JSON values; players and the head-to-head matrices in
        leaderboard order."""
        board = self.leaderboard
        order = [s.entry for s in board]
        names = [s.name for s in board]
        return {
            "game": self.game,
            "seed": self.seed,
            "dominari": made_by(self.code),
            "seats": self.seats,
            "games_per_matchup": self.games_per_matchup,
            "games": self.games,
            "seat_balanced": self.seat_balanced,
            "options": {**_plain(self.options),
                        **({"data_digest": self.data_digest} if self.data_digest else {})},
            "rating_model": dict(RATING_MODEL),
            "intervals": {k: INTERVALS[k] for k in ("ci95", "tie_ci95", "win_share_ci95",
                                                    "mean_score_ci95",
                                                    *(("by_card.cards.difference_ci95",)
                                                      if self.by_card else ()),
                                                    *(("by_card.cards.adjusted.ci95",)
                                                      if self.by_card
                                                      and not self.by_card_unadjusted
                                                      else ()),
                                                    *(("by_mastery.cards.difference_ci95",
                                                       "by_mastery.cards.alike.ci95")
                                                      if self.by_mastery else ()))},
            "players": [{"rank": k + 1, **s.to_json()} for k, s in enumerate(board)],
            "head_to_head": {
                "names": names,
                "games": [[self.met[i][j] for j in order] for i in order],
                "better": [[self.better[i][j] for j in order] for i in order],
                "rate": [[self.head_to_head_rate(i, j) for j in order] for i in order],
            },
            "matchups": [m.to_json([self.players[e].name for e in m.entries])
                         for m in self.matchups],
            "end_reasons": dict(self.end_reasons),
            "turn_limit_games": self.turn_limit_games,
            **({"by_turn": [place.to_json() for place in self.by_turn]} if self.by_turn
               else {}),
            **({"by_card": [{"entry": s.entry, "name": s.name,
                             "cards": [_entry_split_json(c) for c in self.by_card[s.entry]]}
                            for s in board],
                "by_card_unadjusted": self.by_card_unadjusted or None,
                "by_card_key_cards": [list(cards) for cards in self.by_card_key_cards],
                "by_card_key_played_as": list(self.by_card_key_played_as)}
               if self.by_card else {}),
            **({"by_mastery": [{"entry": s.entry, "name": s.name,
                                "cards": [c.to_json() for c in self.by_mastery[s.entry]]}
                               for s in board]} if self.by_mastery else {}),
            **_plain(dict(self.notes)),
        }


def _entry_split_json(split: CardSplit) -> dict[str, Any]:
    """An entry's results with and without a card (a :class:`CardSplit` of one player)
    as JSON values."""
    plain = split.difference(0)
    alike = split.adjusted[0] if split.adjusted else None
    return {"card": split.card, "games": split.games, "with": split.present[0].to_json(),
            "without": split.absent[0].to_json(),
            "difference": None if plain is None else plain[0],
            "difference_ci95": None if plain is None else [plain[1], plain[2]],
            **({"adjusted": {"difference": None if alike is None else alike[0],
                             "ci95": None if alike is None else [alike[1], alike[2]]}}
               if split.adjusted else {})}  # fmt: skip


class _EntrySplits:
    """Every entry's results with and without each Kingdom card, in its games of every
    match-up (of the entries ``combos[m]``), counted a game at a time (:meth:`add`, with
    the kingdom the game was dealt), with the differences among games alike: of one
    match-up, and alike in the cards the rule bots at its table buy and the rule bot
    ``best`` there played (as :func:`~dominari.sim.runner.simulate`'s,
    :class:`CardSplit`). :meth:`splits` gives them entry by entry, each of one player (the
    entry); :attr:`unknown` says why there are no differences among games alike ('' where
    there are): a bot that buys by search or a learned policy, or a table whose strategies
    buy too many cards to group games by."""

    def __init__(self, combos: Sequence[tuple[int, ...]], bots: Sequence[GameBot]) -> None:
        self.seats = seats = len(combos[0]) if combos else 2
        self.tallies = [Tally(seats) for _ in bots]
        self.tables = [key_cards([bots[e] for e in entries]) for entries in combos]
        self.unknown = next((t.unknown for t in self.tables if t.unknown), "")
        self.cards = [f"card:{NAME[c]}" for c in range(len(NAME))]
        self.bits = [[(c, 1 << k) for k, c in enumerate(t.cards)] for t in self.tables]
        # each match-up's features of games alike, made once: by (card, group)
        self.grouped: list[dict[tuple[int, object], str]] = [{} for _ in combos]
        self.zeros = (0,) * seats
        self.orders = [(p, *(q for q in range(seats) if q != p)) for p in range(seats)]

    def add(self, matchup: int, game: GameResult, dealt: Sequence[int]) -> None:
        """Count ``game`` of match-up ``matchup``, whose kingdom was ``dealt``."""
        cards = self.cards
        features = [cards[c] for c in dealt]
        if not self.unknown:
            group: object = sum(bit for c, bit in self.bits[matchup] if c in dealt)
            if self.tables[matchup].played_as:  # every seat of best plays the same rule bot
                group = (group, best_rule_bot(dealt, self.seats))
            features.extend(alike_features(dealt, group, self.grouped[matchup],
                                           f"{matchup}."))  # apart from every other
            # match-up's games
        scores, ranks = game.scores, game.ranks
        for p, e in enumerate(game.seating):  # the entry in the first seat of its tally
            order = self.orders[p]
            self.tallies[e].add(tuple(scores[q] for q in order),
                                tuple(ranks[q] for q in order), self.zeros, game.reason,
                                features=features)  # fmt: skip

    def splits(self) -> tuple[tuple[CardSplit, ...], ...]:
        """The splits entry by entry, each of one player (the entry)."""
        return tuple(tuple(CardSplit(c.card, c.games, c.present[:1], c.absent[:1],
                                     c.adjusted[:1])
                           for c in card_splits(tally)) for tally in self.tallies)


class _EntryMasteries:
    """Every entry's results in its games in which it held each mastery card at the end
    and in its others, and among its games alike: of one match-up, in which it held as
    many cards (Dominations' results by card: :class:`HeldCard`, as
    :func:`~dominari.sim.runner.simulate`'s by seat), counted a game at a time
    (:meth:`add`); :meth:`cards` gives them entry by entry."""

    def __init__(self, entries: int, seats: int, options: GameOptions) -> None:
        self.tallies = [Tally(seats) for _ in range(entries)]
        self.orders = [(p, *(q for q in range(seats) if q != p)) for p in range(seats)]
        self.zeros = (0,) * seats
        data = dominations_data(getattr(options, "data", None))
        # each card's feature, as simulate's (``mastery:SEAT:ID NAME``), of the entry's
        # seat in its tally (the first)
        self.features = {s.id: f"mastery:0:{s.id} {s.name}" for s in data.skills}

    def add(self, matchup: int, game: GameResult) -> None:
        """Count ``game`` of match-up ``matchup``, which has each seat's mastery cards;
        its group of games alike is of the match-up and how many cards the entry held
        (:func:`~dominari.sim.stats.mastery_splits`' ``held@0:M.K``)."""
        scores, ranks, features = game.scores, game.ranks, self.features
        for p, e in enumerate(game.seating):  # the entry in the first seat of its tally
            order, held = self.orders[p], game.held[p]
            group = f"{matchup}.{len(held)}"
            self.tallies[e].add(tuple(scores[q] for q in order),
                                tuple(ranks[q] for q in order), self.zeros, game.reason,
                                features=[*(features[c] for c in held),
                                          *(f"mastery@0:{group}:{c}" for c in held),
                                          f"held@0:{group}"])  # fmt: skip

    def cards(self) -> tuple[tuple[HeldCard, ...], ...]:
        """Entry by entry, its results with and without each card it held in some game,
        the surest gain first (:attr:`SimResult.by_mastery`'s order)."""
        cards = tuple((mastery_splits(tally) or ((),))[0] for tally in self.tallies)
        return cards if any(cards) else ()  # (no card held in any game: no tables)


# ----------------------------------------------------------------------- runner
def tournament(
    players: Sequence[str | os.PathLike[str]],
    games: int,
    seed: int,
    *,
    seats: int = 2,
    workers: int = 1,
    backend: str = "local",
    game: str | None = None,
    kingdom: str | Sequence[str] | None = None,
    max_turns: int | None = DEFAULT_MAX_TURNS,
    rules: Rules | None = None,
    data: str | os.PathLike[str] | None = None,
    options: GameOptions | None = None,
    progress: Callable[[int], None] | None = None,
    start_method: str | None = "spawn",
    journal: str | os.PathLike[str] | None = None,
    recheck: int = 0,
    rating: Callable[[int], None] | None = None,
    stall: float | None = None,
    decision_timeout: float | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    started: Callable[[], None] | None = None,
    each_game: Callable[[dict[str, Any]], None] | None = None,
    by_card: bool = False,
    reading: Callable[[int], None] | None = None,
    resumed: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play a round robin of ``game`` (default Dominion) between the bots named by
    ``players``: ``games`` seeded games for every match-up of ``seats`` entries.

    ``workers`` processes of ``backend`` (``local`` or ``ray``) share the games; the
    result does not depend on either. The game options are as for
    :func:`~dominari.sim.runner.simulate` (``kingdom``, ``max_turns``, ``rules``,
    ``data``, or ``options`` at once). ``progress(k)`` is called in this process
    each time ``k`` more games are done; ``rating(k)`` each time ``k`` more games are
    rated, once every game is played (the ratings follow the games in a fixed order,
    some 5 to 7 minutes for the maximum of games); ``reading(k)`` each time ``k`` more
    games are read for their rows (``each_game``) or their split by card (``by_card``),
    once every game is played, before the ratings (about 0.1 ms a game); ``resumed(k)``,
    if given, instead of ``progress(k)`` for the ``k`` games a journal gave back, before
    the first game is played (not at all where it gave none). ``stall`` is as for
    :func:`~dominari.sim.runner.simulate`: a run of games whose worker finishes no game
    for that many seconds is played again in another. ``decision_timeout`` (seconds) stops
    the run with a :class:`~dominari.sim.runner.BotError` naming the bot that takes longer
    over one decision (its journal keeps the games played). ``started()`` is called once
    everything given is checked, before the first game is played (or played again, to
    recheck a journal: the records folder is checked before that too). Raises
    :class:`DominariError` subclasses for bad input before any game is played.

    With ``journal`` (a file path, see :mod:`dominari.sim.journal`) every finished run
    of games is written to that file as it finishes, and the games the file already
    holds are reused rather than played again, so a stopped tournament goes on where
    it stopped; the result is the same as an uninterrupted run's. Runs of games are
    then small (about 1% of the games), so a stop loses little. A journal written by
    other code is refused, unless ``recheck`` is more than 0: then that many of its games,
    picked at random (from ``seed``), are played again with this code, and the journal
    serves (stamped with this code) if every one comes out the same, game for game; else
    :class:`~dominari.sim.journal.JournalError` names the first that did not, and the
    file is left as it was.

    With ``record_dir`` (a folder, made if missing) each game's record is written there
    (:func:`tournament_record_name`: ``matchup-001-game-000001.json`` …), with
    :data:`RECORDS_INDEX` saying which tournament they are of and who plays each
    match-up. The folder must hold no records (runs never mix), unless a journal that
    holds games goes on into it: with a journal the records go on with it (a run that
    stops keeps them, and the same command goes on into the same folder), and a journal
    that holds games is refused a folder that lacks one of their records (those games are
    not played again, so their records could not be written). A run that fails or is
    stopped before its journal (if any) holds a game removes the records it wrote. The
    folder is held for the run (see :class:`_Records`).

    ``each_game(row)`` is called in this process with each game's own result
    (:func:`tournament_game_row`), match-up by match-up in order, each's games in order,
    once every game is played (a journal's games too), before the ratings; an exception
    it raises stops the run (its journal keeps the games).

    ``by_card`` splits every entry's results by Kingdom card (Dominion, kingdoms that
    differ between games: :attr:`TournamentResult.by_card`), or by the mastery cards it
    held at the end (Dominations: :attr:`TournamentResult.by_mastery`; a journal's games
    written before they were kept are refused before any game is played or written),
    worked out from its games once all are played.
    """
    specs = check_request(players, options, {"kingdom": kingdom, "max_turns": max_turns,
                                             "rules": rules, "data": data},
                          progress, start_method, started)  # fmt: skip
    games, workers, seed, backend = check_run(games, workers, seed, backend,
                                              "the number of games per match-up",
                                              MAX_MATCHUP_GAMES)  # fmt: skip
    if isinstance(recheck, bool) or not isinstance(recheck, int) or recheck < 0:
        raise ConfigError(f"the number of games to recheck must be 0 or more, not "
                          f"{recheck!r}")  # fmt: skip
    stall = check_stall(stall)
    decision_timeout = check_decision_timeout(decision_timeout)
    if rating is not None and not callable(rating):
        raise ConfigError(f"rating must be a function of the games rated, not {rating!r}")
    if reading is not None and not callable(reading):
        raise ConfigError(f"reading must be a function of the games read, not {reading!r}")
    if each_game is not None and not callable(each_game):
        raise ConfigError(f"each_game must be a function of a game's row, not {each_game!r}")
    if recheck and journal is None:
        raise ConfigError("rechecking games needs a journal: it replays some of a "
                          "journal's games")  # fmt: skip
    if isinstance(seats, bool) or not isinstance(seats, int) or seats not in SEATS:
        raise ConfigError(f"a tournament seats 2 to 4 players per game, not {seats!r}")
    if options is None:
        options = game_options(game or "dominion", kingdom=kingdom, max_turns=max_turns,
                               rules=rules, data=data)  # fmt: skip
    elif game is not None and check_game(game) != options.game:
        raise ConfigError(f"options of {options.game} given for a game of {game}")
    if len(specs) < seats:
        raise ConfigError(f"a tournament at {seats} seats needs at least {seats} players, "
                          f"not {len(specs)}")  # fmt: skip
    if not isinstance(by_card, bool):
        raise ConfigError(f"by_card must be True or False, not {by_card!r}")
    if by_card and isinstance(options, DominionOptions):  # (Dominations': by mastery card)
        check_by_card(options)
    check_size(len(specs), seats, games)
    bots = load_bots(specs, options.game)  # an unknown bot fails here
    names = seat_names([b.name for b in bots], specs)
    combos = matchups(len(specs), seats)
    files = run_files(specs, options)  # for the stamp, and a journal's key
    stamp = start_run(specs, options, bots, tuple(names[e] for e in combos[0]), seed,
                      reuse=workers == 1 and backend == "local", files=files)  # fmt: skip

    # Every game's result, kept as it arrives (the journal's as they are read), a few
    # bytes a game (see dominari.sim.table).
    orders = math.factorial(seats)  # the seating of a match-up's games repeats this often
    table = GameTable([[seating(entries, j) for j in range(orders)] for entries in combos],
                      games, MAX_MATCHUP_GAMES)  # fmt: skip
    book: Journal | None = None
    rechecked = 0  # the journal's games played again to recheck it
    retried: list[str] = []  # the batches played again, their workers lost
    files_changed: list[str] = []  # the players whose files changed since the journal

    def begin(playing: bool = True) -> None:  # once: before the first game played, to
        nonlocal started  # recheck or to count (or before the count of a journal's games)
        if started is not None:
            if playing and backend == "ray":  # a cluster that cannot be reached is said
                init_ray(workers)  # before the notes, as any other refusal
            say, started = started, None
            say()

    if journal is not None:
        key = {"game": options.game, "players": list(specs), "seats": seats, "seed": seed,
               "options": options.to_json(), "code": code_fingerprint(options.game),
               "files": files.specs}  # fmt: skip
        if getattr(options, "data", None):  # a data folder's files play the games as much as
            key["data_files"] = files.data  # the code

        def fits(m: int, j: int, game: GameResult) -> str | None:
            if m >= len(combos):
                return f"this tournament has {len(combos)} match-up(s)"
            want = seating(combos[m], j)
            if game.seating != want:
                return (f"seats {list(game.seating)}, where this tournament seats "
                        f"{list(want)}")  # fmt: skip
            ranks, scores = game.ranks, game.scores
            # places as a game gives them: each one behind those better placed, shared
            # places side by side (1, 1, 3), and more points never a worse place
            if any(r != 1 + sum(o < r for o in ranks) for r in ranks):
                return f"ranks {list(ranks)} are not places 1 to {seats}"
            if any(a > b and ranks[p] >= ranks[q] for p, a in enumerate(scores)
                   for q, b in enumerate(scores)):  # fmt: skip
                return (f"ranks {list(ranks)} do not follow the scores {list(scores)}: "
                        "more points always place better")  # fmt: skip
            if game.reason not in options.end_reasons:
                shown = game.reason if len(game.reason) <= 40 else game.reason[:40] + "…"
                return (f"ended by '{escaped(shown)}', not by one of "
                        f"{', '.join(sorted(options.end_reasons))}")  # fmt: skip
            if game.held:
                if options.game != "dominations":
                    return "holds mastery cards, which a Dominion game has not"
                unknown = next((c for cards in game.held for c in cards
                                if c not in mastery_ids()), None)  # fmt: skip
                if unknown is not None:
                    shown = unknown if len(unknown) <= 20 else unknown[:20] + "…"
                    return f"holds the mastery card '{escaped(shown)}', which the data has not"
                if any(list(cards) != sorted(set(cards)) for cards in game.held):
                    return "holds a seat's mastery cards not sorted, or one twice"
            return None

        def refuse_without_cards() -> None:
            """Before any game is played or written: a split by mastery card needs every
            game's cards, which a journal written before they were kept lacks."""
            if by_card and options.game == "dominations" and any(
                    games.lacks_cards() for games in table.matchups):  # fmt: skip
                raise JournalError(f"journal {journal}: its games were written before a "
                                   "tournament kept each player's mastery cards, which "
                                   "--by-card splits the results by: give another file, or "
                                   "run without --by-card")  # fmt: skip

        @functools.cache
        def mastery_ids() -> frozenset[str]:  # (read only where a game holds cards)
            return frozenset(s.id for s in dominations_data(getattr(options, "data",
                                                                    None)).skills)

        def edited_matchups(edited: Sequence[str]) -> list[int]:
            """The match-ups of the players whose files changed (their specs as the key
            has them): their journal's games are played again, the others kept."""
            keys = comparable_key({"players": list(specs)})["players"]
            changed = {e for e, k in enumerate(keys) if k in edited}
            files_changed.extend(names[e] for e in sorted(changed))
            return [m for m, combo in enumerate(combos) if changed.intersection(combo)]

        def check(_known: Mapping[tuple[int, int], GameResult]) -> None:  # the table
            refuse_without_cards()  # (before its games are played again)
            rng = random.Random(derive_seed("dominari-tournament-recheck", seed))
            # Picked by position among the games in order, as from their sorted list, but
            # without making a list of millions of keys.
            nonlocal rechecked
            picked = table.keys_at(sorted(rng.sample(range(len(table)),
                                                     min(recheck, len(table)))))
            rechecked = len(picked)
            open_records()  # a folder that cannot serve is refused before any game
            begin()
            tasks = [Shard(specs, names, options, seed, m, combos[m], j, j + 1, stamp=stamp,
                           decision_timeout=decision_timeout) for m, j in picked]
            again = run_tasks(play_shard, tasks, workers=workers, backend=backend,
                              start_method=start_method, stall=stall,
                              retried=lambda k, why: retried.append(
                                  f"{tasks[k].describe()} (rechecked): {why}"))  # fmt: skip
            for (m, j), (game,) in zip(picked, again, strict=True):
                if not game.same(table[m, j]):
                    there, here = _result_text(table[m, j]), _result_text(game)
                    if there == here:  # (the mastery cards alone differ)
                        there, here = (f"mastery cards {_cards_text(g)}"
                                       for g in (table[m, j], game))  # fmt: skip
                    raise JournalError(
                        f"journal {journal}: game {j + 1} of match-up {m + 1} "
                        f"({' vs '.join(names[e] for e in combos[m])}; the journal's game {j} "
                        f"of match-up {m}, counted from 0) comes out otherwise with this code "
                        f"({there} there, {here} here): it "
                        "was written by other code or files, or edited: its games cannot be "
                        "reused: give another file or delete it")  # fmt: skip

    records: _Records | None = None

    def open_records() -> None:  # once the journal's games (if any) are known
        nonlocal records
        if record_dir is not None and records is None:
            records = _Records(record_dir, {
                "game": options.game, "players": list(specs), "seats": seats, "seed": seed,
                "options": options.to_json()}, names, combos, table, len(table), journal,
                games, () if book is None else book.dropped, files.specs)  # fmt: skip

    try:
        if journal is not None:
            book = Journal.open(journal, key, check if recheck else None, fits,
                                into=table, hold=True, changed=edited_matchups)  # fmt: skip
            refuse_without_cards()  # (before the journal is written again, if it is)
        open_records()  # (opened by a recheck already) before anything is written
        if records is not None:
            records.write_index()  # before the journal is written (a format-1 journal)
        if book is not None:
            book.settle()  # (without the games of players whose files changed)
            _give_orders(book, table, combos, names, options, seed)
        rdir = str(records.path) if records is not None else None
        reused = table.played()
    except BaseException:
        if records is not None:  # a recheck that came out otherwise: as it was before
            records.discard(*records.made)
        if book is not None:
            book.discard_if_unused()
            book.close()
        raise
    shards: list[Shard] = []

    def done(k: int, part: tuple[GameResult, ...]) -> None:
        shard = shards[k]
        if book is not None:
            book.record(shard.matchup, shard.start, part)  # into the table too
        else:
            for i, game in enumerate(part):
                table[shard.matchup, shard.start + i] = game
        if progress is not None:
            progress(shard.stop - shard.start)

    try:  # from here, the journal and the folder are let go of whatever happens
        missing = games * len(combos) - reused
        if missing and book is not None:
            book.check_writable()  # a read-only journal: said before the first game
        size = min(games, chunk_size(missing or 1, workers))
        if book is not None:
            size = max(1, min(size, math.ceil(games * len(combos) / 100)))
        shards.extend(Shard(specs, names, options, seed, m, entries, start, stop, rdir, stamp,
                            decision_timeout)
                      for m, entries in enumerate(combos)
                      for start, stop in _runs(table.matchups[m].present(), games, size))
        begin(bool(shards))
        if reused and resumed is not None:
            resumed(reused)
        elif reused and progress is not None:
            progress(reused)
        each_result(play_shard, shards, done, workers=workers, backend=backend,
                    start_method=start_method, stall=stall,
                    retried=lambda k, why: retried.append(f"{shards[k].describe()}: {why}"))
    except BaseException:
        # A journal this run made and never wrote a game to is removed; then, while no
        # journal holds a game (none, or none written to it), so are the records this run
        # wrote (no journal goes on from them), when the folder held none it may keep (all
        # it holds are this run's).
        try:
            if book is not None:
                book.discard_if_unused()
        finally:  # (the records go though a second Ctrl-C comes meanwhile)
            if records is not None and records.fresh and (book is None or not table.played()):
                records.discard(RECORD_GLOB, _RECORD_TEMP, RECORDS_INDEX, _INDEX_TEMP)
            if records is not None:  # a stopped game's record half written by a worker
                remove_files(records.path, _STOPPED_TEMP)  # stopped meanwhile (not whole)
        raise
    finally:
        if book is not None:
            book.close()  # another run may write it now
        if records is not None:
            records.close()
    if rdir is not None:  # a worker killed while writing a record left its temporary
        remove_files(rdir, _RECORD_TEMP)  # file: the retry wrote the record whole
    assert table.played() == games * len(combos)  # every game is in
    splits: tuple[tuple[CardSplit, ...], ...] = ()
    unadjusted = ""
    keys: tuple[tuple[str, ...], ...] = ()
    keyed: tuple[bool, ...] = ()
    masteries: tuple[tuple[HeldCard, ...], ...] = ()
    if each_game is not None or by_card:  # one pass over the games for both
        dominion = options.game == "dominion"
        split = _EntrySplits(combos, bots) if by_card and dominion else None
        held = _EntryMasteries(len(specs), seats, options) if by_card and not dominion \
            else None
        best = frozenset(e for e, bot in enumerate(bots) if isinstance(bot, KingdomBestBot))
        rows = None if each_game is None else _GameRows(seed, names, best)
        dealer = _Dealer(options)
        read = _Counter(reading, READ_EVERY)
        for m, entries in enumerate(combos):
            for j, played in enumerate(table.matchups[m]):
                game_seed = tournament_game_seed(seed, entries, j)
                dealt = dealer.kingdom(game_seed)
                if rows is not None and each_game is not None:
                    each_game(rows.row(m, entries, j, played, game_seed, dealt))
                if split is not None:
                    assert dealt is not None  # (by card: a random kingdom, checked)
                    split.add(m, played, dealt)
                if held is not None:
                    held.add(m, played)
                read.one()
        read.rest()
        if held is not None:
            masteries = held.cards()
        if split is not None:
            splits, unadjusted = split.splits(), split.unknown
            # (none alike where a bot buys by search: as simulate's, no key cards then)
            keys = tuple(() if unadjusted else tuple(NAME[c] for c in t.cards)
                         for t in split.tables)
            keyed = tuple(t.played_as and not unadjusted for t in split.tables)
    result = TournamentResult.from_games(table.matchups, specs=specs, names=names,
                                         seats=seats, seed=seed, game=options.game,
                                         options=options.to_json(), rating=rating)  # fmt: skip
    return dataclasses.replace(result, reused=reused, rechecked=rechecked,
                               restamped=book is not None and book.stamped,
                               retried=tuple(retried),
                               files_changed=tuple(files_changed),
                               dropped=sum(book.dropped.values()) if book is not None else 0,
                               code=game_code(options.game),
                               notes=run_notes(bots, names, options, specs),
                               data_digest=data_digest_of(options),
                               by_card=splits, by_card_unadjusted=unadjusted,
                               by_card_key_cards=keys,
                               by_card_key_played_as=keyed, by_mastery=masteries)  # fmt: skip


_RECORD_TEMP = temporary_files(RECORD_GLOB)
_INDEX_TEMP = temporary_files(RECORDS_INDEX)
_STOPPED_TEMP = temporary_files(STOPPED + RECORD_GLOB)


def tournament_game_row(matchup: int, index: int, game: GameResult, *, seed: int,
                        entries: Sequence[int], names: Sequence[str],
                        kingdom: Sequence[int] | None = None,
                        game_seed: int | None = None) -> dict[str, Any]:
    """Game ``index`` of match-up ``matchup`` (of the players at ``entries``; both counted
    from 0, its record :func:`tournament_record_name`) of a tournament seeded ``seed``, as
    JSON values: those two, its ``seed`` (:func:`tournament_game_seed`), the ``seating``
    (each seat's player, by position in the players given: the entries' seats rotate
    from game to game) and their ``players`` (names), each seat's ``scores`` and
    ``ranks`` (1: won; shared where several are 1), how it ``ended``, the seats in
    ``turn_order`` (the first began; not where a journal written before it was kept
    lacks it), Dominion's ``kingdom`` (card ids, written as names) and Dominations'
    ``masteries`` (each seat's mastery cards at the end, by skill id, as ``simulate``'s
    rows; not where a journal written before they were kept lacks them). ``game_seed``
    is the game's seed where the caller has it already.

    >>> g = GameResult((1, 0), (1, 2), (30, 25), "provinces", (0, 1))
    >>> row = tournament_game_row(2, 7, g, seed=1, entries=(0, 1), names=("BM", "Smithy"))
    >>> row["matchup"], row["index"], row["players"], row["ranks"], row["turn_order"]
    (2, 7, ['Smithy', 'BM'], [1, 2], [0, 1])
    """
    out: dict[str, Any] = {"matchup": matchup, "index": index,
                           "seed": (tournament_game_seed(seed, entries, index)
                                    if game_seed is None else game_seed),
                           "seating": list(game.seating),
                           "players": [names[e] for e in game.seating],
                           "scores": list(game.scores), "ranks": list(game.ranks),
                           "ended": game.reason}  # fmt: skip
    if game.order:
        out["turn_order"] = list(game.order)
    if kingdom is not None:
        out["kingdom"] = [NAME[c] for c in kingdom]
    if game.held:
        out["masteries"] = [list(cards) for cards in game.held]
    return out


class _Dealer:
    """The kingdom of each game of a run with ``options``: a fixed one made once, a
    random one drawn from each game's seed as its game drew it (None for a game without
    one: Dominations)."""

    def __init__(self, options: GameOptions) -> None:
        spec = getattr(options, "kingdom", None) if options.game == "dominion" else None
        self.spec = spec
        self.fixed = fixed_kingdom(spec) if spec is not None else None

    def kingdom(self, game_seed: int) -> tuple[int, ...] | None:
        """The kingdom of the game seeded ``game_seed``."""
        if self.fixed is None and self.spec is not None:
            return resolve_kingdom(self.spec, game_seed)
        return self.fixed


class _GameRows:
    """:func:`tournament_game_row` for every game of a tournament, with ``best`` (the
    entries it plays) the rule bot it played each game, as a record says."""

    def __init__(self, seed: int, names: Sequence[str],
                 best: frozenset[int] = frozenset()) -> None:  # fmt: skip
        self.seed, self.names, self.best = seed, names, best
        self.played: dict[str, str] = {}  # a rule bot's spec: its name, as a record has it

    def row(self, matchup: int, entries: Sequence[int], index: int, game: GameResult,
            game_seed: int, kingdom: tuple[int, ...] | None) -> dict[str, Any]:  # fmt: skip
        """Game ``index``'s row, given its seed and kingdom (:meth:`_Dealer.kingdom`)."""
        out = tournament_game_row(matchup, index, game, seed=self.seed, entries=entries,
                                  names=self.names, kingdom=kingdom,
                                  game_seed=game_seed)  # fmt: skip
        if kingdom is not None and self.best.intersection(entries):
            spec = best_rule_bot(kingdom, len(game.seating))
            played = self.played.get(spec)
            if played is None:
                played = self.played[spec] = rule_bot(spec).name
            out["played_as"] = [played if e in self.best else None for e in game.seating]
        return out


class _Records:
    """A tournament's records folder, made ready before any game is played and held for
    the run (:class:`~dominari.sim.records.HeldFolder`), so a second run on the folder,
    a tournament's or a simulation's, is refused while this one writes there.

    Raises :class:`ConfigError` for a folder that holds another tournament's index, or
    records while the journal (if any) holds no games (an earlier run's, which this run's
    would overwrite in part and mix with), or, for a journal that holds games, a folder
    that is not the one their records were written to or that lacks one of them (those
    games are not played again, so their records could not be written), or that holds
    records of players whose files have changed since, which are not played again. Once
    accepted, the records of the match-ups whose games the journal let go (``forget``:
    their players' files changed) are removed: they are played, and written, again."""

    def __init__(self, folder: str | os.PathLike[str], identity: dict[str, Any],
                 names: Sequence[str], combos: Sequence[tuple[int, ...]],
                 journaled: Iterable[tuple[int, int]], count: int,
                 journal: str | os.PathLike[str] | None, games: int,
                 forget: Iterable[int] = (), files: Mapping[str, str] | None = None,
                 ) -> None:  # fmt: skip
        self.where = f"--record-dir {str(folder)!r}"
        self._held: HeldFolder | None = HeldFolder(folder, where=self.where)
        self.path = self._held.path
        self.index = self.path / RECORDS_INDEX
        self.fresh = count == 0
        """Whether the folder held no records this run may keep: then all it holds at the
        end are this run's, to remove if the run fails."""
        existed = False
        try:  # read-write: an index this run could not write is refused here
            try:
                fd = os.open(self.index, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                existed = True
                fd = os.open(self.index, os.O_RDWR)
        except OSError as exc:
            self.discard()
            raise ConfigError(f"{self.where}: cannot open {RECORDS_INDEX} ({exc.strerror})") \
                from None
        self._text = ""  # the index, written by write_index
        self.made: tuple[str, ...] = () if existed else (RECORDS_INDEX,)
        """The files this run made in the folder before any game (its index, if new)."""
        try:
            try:
                data = os.read(fd, 1 << 24) if existed else b""
            finally:
                os.close(fd)  # the index is written by a rename (not over an open file)
            self._check(identity, names, combos, journaled, count, journal, data, games,
                        forget, files or {})  # fmt: skip
        except BaseException:
            self.discard(*self.made)
            raise

    def _check(self, identity: dict[str, Any], names: Sequence[str],
               combos: Sequence[tuple[int, ...]], journaled: Iterable[tuple[int, int]],
               count: int, journal: str | os.PathLike[str] | None, data: bytes,
               games: int, forget: Iterable[int] = (),
               files: Mapping[str, str] | None = None) -> None:  # fmt: skip
        try:
            old = json.loads(data) if data.strip() else None
        except ValueError:
            old = {}
        # Its paths as the files they name (as a journal keeps them): the same command
        # run again from another folder goes on into the folder.
        mine = comparable_key(json.loads(json.dumps(identity)))
        ours = isinstance(old, dict) and mine == comparable_key(old.get("tournament"))
        held = comparable_key({"files": dict(files or {})})["files"]
        if ours:
            assert isinstance(old, dict)
            self._check_stale(old.get("files"), held, mine["players"], names, combos,
                              set(forget))  # fmt: skip
        simulated = min((f.name for f in self.path.glob(SIMULATION_RECORDS)), default=None)
        if simulated is not None:
            raise ConfigError(f"{self.where}: holds the records of a simulation ({simulated} "
                              "…), which a tournament's would mix with; give an empty folder "
                              "or another one")  # fmt: skip
        if count:
            have = {e.name for e in os.scandir(self.path)} if ours else set()
            lacking = next((k for k in journaled
                            if tournament_record_name(*k) not in have), None)  # fmt: skip
            if lacking is not None:
                what = ("whose records were not written to this folder" if not ours else
                        f"and this folder lacks the record of game {lacking[1] + 1} of "
                        f"match-up {lacking[0] + 1} "
                        f"({tournament_record_name(*lacking)})")  # fmt: skip
                raise ConfigError(f"{self.where}: journal {journal} holds {count:,} game(s) of "
                                  f"this tournament {what}; they are not played again, so "
                                  "their records cannot be written: give the folder the "
                                  "journal's runs wrote all their records to, or another "
                                  "journal")  # fmt: skip
        else:
            if old is not None and not ours:
                raise ConfigError(f"{self.where}: holds the records of another tournament "
                                  f"({RECORDS_INDEX}); give an empty folder or another one")
            let_go = tuple(f"matchup-{m + 1:03d}-" for m in forget) if ours else ()
            records = min((f.name for f in self.path.glob(RECORD_GLOB)
                           if not f.name.startswith(let_go)),
                          default=None)  # (those a journal let go are played again)
            if records is not None:
                raise ConfigError(f"{self.where}: already holds the records of an earlier "
                                  f"run ({records} …), which this run's would overwrite in "
                                  "part and mix with; give an empty folder or another one (a "
                                  "run goes on into its folder with the journal that holds "
                                  "its games)")  # fmt: skip
        if ours:  # accepted: the records of the games a journal let go are played again
            self.forget(forget)
        self._text = json.dumps({
            "dominari_tournament_records": 1, "tournament": mine, "files": held,
            "dominari": made_by(code_fingerprint(identity.get("game"))),
            "games_per_matchup": games,
            "matchups": [{"matchup": m + 1, "players": [names[e] for e in entries],
                          "files": f"matchup-{m + 1:03d}-game-*.json"}
                         for m, entries in enumerate(combos)]}, indent=1) + "\n"  # fmt: skip

    def write_index(self) -> None:
        """Write the folder's index (once nothing else can refuse the run: an index the
        folder held is left as it was until then), whole or not at all: a stop while it is
        written leaves the index the folder held."""
        try:
            try:
                write_text_atomic(self.index, self._text)
            except PermissionError:  # another's index in a shared (sticky) folder, which
                with self.index.open("w", encoding="utf-8") as f:  # may be written, not
                    f.write(self._text)  # replaced
        except OSError as exc:
            raise ConfigError(f"{self.where}: cannot write {RECORDS_INDEX} "
                              f"({exc.strerror})") from None  # fmt: skip
        remove_files(self.path, _INDEX_TEMP)  # a run killed while it wrote the index left
        # its temporary file (none is being written: the folder is held)

    def _check_stale(self, was: object, held: dict[str, str], players: Sequence[str],
                     names: Sequence[str], combos: Sequence[tuple[int, ...]],
                     forget: set[int]) -> None:  # fmt: skip
        """A :class:`ConfigError` where the folder holds records of match-ups whose
        players' files have changed since they were written (the index says: ``was``, by
        spec, against ``held`` now) and that this run does not play again (not in
        ``forget``: the journal let their games go in an earlier run without this
        folder)."""
        changed = ({k for k, v in held.items() if was.get(k) != v} if isinstance(was, dict)
                   else set())  # fmt: skip
        whose = {e for e, k in enumerate(players) if k in changed}
        stale = [m for m, combo in enumerate(combos)
                 if whose.intersection(combo) and m not in forget
                 and any(self.path.glob(f"matchup-{m + 1:03d}-game-*.json"))]  # fmt: skip
        if stale:
            who = ", ".join(names[e] for e in sorted(whose))
            ups = ", ".join(str(m + 1) for m in stale)
            raise ConfigError(f"{self.where}: holds records of the games of {who} played with "
                              f"their files as they were before (its {RECORDS_INDEX} says "
                              f"so), which the journal's games of them are not: give another "
                              f"folder, or remove its records of match-up(s) {ups}")

    def forget(self, matchups: Iterable[int]) -> None:
        """Remove the records of the games of ``matchups`` (the journal let them go, its
        players' files having changed: they are played, and written, again)."""
        for m in matchups:
            remove_files(self.path, f"matchup-{m + 1:03d}-game-*.json")

    def close(self) -> None:
        """Let go of the folder (another run may write there)."""
        self._end(None)

    def discard(self, *patterns: str) -> None:
        """The end of a run that failed: its files matching ``patterns`` removed while the
        folder is held, then let go, and the folders made for it removed
        (:meth:`HeldFolder.discard`)."""
        self._end(patterns)

    def _end(self, discard: tuple[str, ...] | None) -> None:
        if self._held is not None:
            if discard is None:
                self._held.close()
            else:
                self._held.discard(*discard)
            self._held = None


def _give_orders(book: Journal, table: GameTable, combos: Sequence[tuple[int, ...]],
                 names: Sequence[str], options: GameOptions, seed: int) -> None:
    """Give the journal's games that have no turn order (a journal written before it was
    kept) theirs, and write them into the journal: the engines draw who begins at the
    deal, from the game's seed, so each such game is dealt again (not played: some 35 us
    a Dominion game, 1.3 ms a Dominations one)."""
    found = False
    for m, games in enumerate(table.matchups):
        for j in games.unordered():  # (a game given its order is behind)
            game = games.game(j)
            state = options.new_game(len(game.seating),
                                     tournament_game_seed(seed, combos[m], j),
                                     tuple(names[e] for e in game.seating))  # fmt: skip
            games.put(j, game._replace(order=tuple(turn_order(state))))
            found = True
    if found or book.format < FORMAT:  # an older format: written in this one
        book.write_known()


def _in_rounds(results: Sequence[Sequence[GameResult]]) -> Iterator[GameResult]:
    """Game 0 of every match-up in order, then game 1 of each, and so on (a match-up with
    fewer games is left out of the later rounds), each match-up read in order.

    >>> list(_in_rounds([[1, 2, 3], [4], [5, 6]]))  # type: ignore[list-item]
    [1, 4, 5, 2, 6, 3]
    """
    games = [iter(m) for m in results]
    while games:
        left = []
        for it in games:
            game = next(it, None)
            if game is not None:
                left.append(it)
                yield game
        games = left


def _result_text(game: GameResult) -> str:
    """A journaled game's result in words: ranks and scores by seat."""
    return (f"ranks {'/'.join(map(str, game.ranks))}, scores "
            f"{'/'.join(map(str, game.scores))}")


def _cards_text(game: GameResult) -> str:
    """A journaled game's mastery cards in words, seat by seat."""
    return " / ".join(",".join(cards) or "none" for cards in game.held) or "not kept"


def _runs(done: Iterable[int], games: int, size: int) -> list[tuple[int, int]]:
    """The games ``0 … games - 1`` not in ``done`` (ascending) as ``(start, stop)`` runs of
    consecutive games, each at most ``size`` long (without listing every game).

    >>> _runs([5, 6], 9, 2)
    [(0, 2), (2, 4), (4, 5), (7, 9)]
    """
    out: list[tuple[int, int]] = []
    start = 0
    for gap in itertools.chain(done, (games,)):
        while start < gap:
            stop = min(gap, start + size)
            out.append((start, stop))
            start = stop
        start = gap + 1
    return out


def title(result: TournamentResult) -> str:
    """A one-line title: ``Dominion tournament: 4 players, 6 match-ups × 40 games at 2
    seats``."""
    return (f"{GAME_TITLES.get(result.game, result.game)} tournament: "
            f"{len(result.players)} players, {len(result.matchups)} match-up"
            f"{'s' if len(result.matchups) != 1 else ''} × {result.games_per_matchup:,} "
            f"game{'s' if result.games_per_matchup != 1 else ''} at {result.seats} seats")
