"""Values of a tournament's results checked against numbers worked out by hand: the
conservative rating and the leaderboard's order, each match-up's totals by entry after the
seats rotate, each seat's own bot seed, shared wins by place in the turn order, and the
order in which a simulation's tallies are merged."""

from __future__ import annotations

import dataclasses

import pytest

from dominari.bots import load_bot
from dominari.sim import GameResult, Shard, TournamentResult, play_shard
from dominari.sim.runner import DominionOptions, _InOrder, bots_for
from dominari.sim.stats import Places, Tally, TurnPlace
from dominari.sim.tournament import seating, tournament_bot_seed


def _result(games: list[GameResult], *, entries: int = 2, seats: int = 2) -> TournamentResult:
    """A tournament's result from the games of its one match-up (or first, with more)."""
    specs = tuple(f"bot{e}" for e in range(entries))
    names = tuple(f"B{e}" for e in range(entries))
    return TournamentResult.from_games([games], specs=specs, names=names, seats=seats, seed=0,
                                       game="dominion", options={})


# --------------------------------------------------------------------- ratings
def test_the_ordinal_is_mu_less_three_sigma() -> None:
    g = GameResult((0, 1), (1, 2), (30, 20), "provinces")
    r = _result([g, g, g])
    for s in r.players:
        assert s.ordinal == pytest.approx(s.mu - 3.0 * s.sigma)
        assert s.to_json()["rating"] == {"mu": s.mu, "sigma": s.sigma, "ordinal": s.ordinal}
    a, b = r.players
    a = dataclasses.replace(a, mu=26.0, sigma=1.0)
    assert a.ordinal == pytest.approx(23.0)
    assert dataclasses.replace(b, mu=27.0, sigma=3.0).ordinal == pytest.approx(18.0)


def test_the_leaderboard_puts_the_surer_rating_first() -> None:
    """A (mu 26, sigma 1: ordinal 23) leads B (mu 27, sigma 3: ordinal 18), though B's
    mean skill is higher: the leaderboard sorts by ``mu - 3 sigma``, and the JSON ranks
    the players in its order."""
    g = GameResult((0, 1), (1, 2), (30, 20), "provinces")
    r = _result([g, g])
    a, b = r.players
    r = dataclasses.replace(r, players=(dataclasses.replace(a, name="A", mu=26.0, sigma=1.0),
                                        dataclasses.replace(b, name="B", mu=27.0, sigma=3.0)))
    assert [s.name for s in r.leaderboard] == ["A", "B"]
    data = r.to_json()
    assert [(p["rank"], p["name"]) for p in data["players"]] == [(1, "A"), (2, "B")]
    assert [p["rating"]["ordinal"] for p in data["players"]] == pytest.approx([23.0, 18.0])
    r = dataclasses.replace(r, players=(dataclasses.replace(a, name="A", mu=26.0, sigma=3.0),
                                        dataclasses.replace(b, name="B", mu=27.0, sigma=3.0)))
    assert [s.name for s in r.leaderboard] == ["B", "A"]  # the same sigma: the higher mu


# -------------------------------------------------------------------- match-ups
def test_a_matchups_totals_follow_its_entries_as_the_seats_rotate() -> None:
    """The second game seats the entries the other way round: its scores and ranks are
    by seat, and the match-up's totals add each to the entry that sat there."""
    first = GameResult((0, 1), (1, 2), (30, 10), "provinces")
    second = GameResult((1, 0), (2, 1), (10, 30), "provinces")  # entry 0 again, in seat 1
    r = _result([first, second])
    (m,) = r.matchups
    assert m.entries == (0, 1) and m.games == 2
    assert m.total_scores == (60, 20)
    assert m.wins == (2, 0) and m.ties == (0, 0)
    assert m.to_json(["B0", "B1"])["mean_score"] == [30.0, 10.0]
    assert [(s.total_score, s.wins) for s in r.players] == [(60, 2), (20, 0)]


def test_a_matchups_totals_are_by_its_own_entries_at_three_seats() -> None:
    """With three entries at two seats the third match-up is of entries 1 and 2: its
    totals are by its entries in its order, whatever seats they took."""
    games = [[GameResult((0, 1), (1, 2), (30, 10), "provinces")],
             [GameResult((2, 0), (1, 2), (40, 5), "provinces")],
             [GameResult((2, 1), (1, 2), (25, 15), "three-piles")]]
    r = TournamentResult.from_games(games, specs=("a", "b", "c"), names=("A", "B", "C"),
                                    seats=2, seed=0, game="dominion", options={})
    assert [(m.entries, m.total_scores, m.wins) for m in r.matchups] == [
        ((0, 1), (30, 10), (1, 0)), ((0, 2), (5, 40), (0, 1)), ((1, 2), (15, 25), (0, 1))]


# ------------------------------------------------------------------------ seeds
def test_every_seat_of_a_tournament_game_resets_its_bot_with_its_own_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Game ``j`` of a match-up resets the bot in seat ``p`` with
    ``tournament_bot_seed(seed, entries, j, p)``: a seed of its own, whichever entry sits
    there as the seats rotate."""
    import dominari.sim.runner as runner

    monkeypatch.setattr(runner._LOADED, "bots", {})  # the bots below, not those of other tests
    specs = ("bm", "bmu")
    bots = [load_bot(spec, "dominion") for spec in specs]
    resets: list[tuple[int, int]] = []  # (entry, seed), in the order of the resets
    for entry, bot in enumerate(bots):
        def reset(seed: int, entry: int = entry) -> None:
            resets.append((entry, seed))
        monkeypatch.setattr(bot, "reset", reset)
    assert bots_for("dominion", specs, loaded=bots) is bots
    shard = Shard(specs, ("BM", "BMU"), DominionOptions("first-game", max_turns=3), 5, 0,
                  (0, 1), 0, 4)  # fmt: skip
    games = play_shard(shard)
    assert [g.seating for g in games] == [seating((0, 1), j) for j in range(4)]
    expected = [(e, tournament_bot_seed(5, (0, 1), j, p))
                for j, g in enumerate(games) for p, e in enumerate(g.seating)]
    assert resets == expected
    for j in range(4):  # two seeds a game, and another pair each game
        assert len({seed for _, seed in resets[2 * j:2 * j + 2]}) == 2
    assert len({seed for _, seed in resets}) == 8


# ------------------------------------------------------------- turn-order places
def test_a_shared_win_counts_as_a_tie_by_place_not_as_a_win() -> None:
    """``Places`` keeps outright and shared wins apart: a win shared by the seats that
    took the first and second turns is a tie at each place; an outright win a win."""
    places = Places(2, 2)
    places.add((0, 1), (1, 1))  # seat 0 began; both shared the win
    assert places.of(0) == (TurnPlace(1, 1, 0, 1), TurnPlace(2, 0, 0, 0))
    assert places.of(1) == (TurnPlace(1, 0, 0, 0), TurnPlace(2, 1, 0, 1))
    places.add((1, 0), (2, 1))  # seat 1 began and won alone
    assert places.of(1) == (TurnPlace(1, 1, 1, 0), TurnPlace(2, 1, 0, 1))
    assert places.of(0) == (TurnPlace(1, 1, 0, 1), TurnPlace(2, 1, 0, 0))
    assert places.everyone() == (TurnPlace(1, 2, 1, 1), TurnPlace(2, 2, 0, 1))
    assert places.counted == 2
    three = Places(3, 3)
    three.add((2, 0, 1), (1, 3, 1), who=(1, 2, 0))  # seats 0, 1, 2 hold players 1, 2, 0
    assert three.of(0) == (TurnPlace(1, 1, 0, 1), TurnPlace(2, 0, 0, 0), TurnPlace(3, 0, 0, 0))
    assert three.of(1) == (TurnPlace(1, 0, 0, 0), TurnPlace(2, 1, 0, 1), TurnPlace(3, 0, 0, 0))
    assert three.of(2) == (TurnPlace(1, 0, 0, 0), TurnPlace(2, 0, 0, 0), TurnPlace(3, 1, 0, 0))


def test_a_tournaments_shared_wins_by_turn_place_are_ties() -> None:
    shared = GameResult((0, 1), (1, 1), (30, 30), "provinces", (1, 0))
    r = _result([shared, shared])
    for s in r.players:
        assert (s.wins, s.ties) == (0, 2)
        assert sum(t.wins for t in s.by_turn) == 0 and sum(t.ties for t in s.by_turn) == 2
    assert [(t.wins, t.ties) for t in r.by_turn] == [(0, 2), (0, 2)]


# ----------------------------------------------------------------- merged tallies
def _tally(reason: str, source: str) -> Tally:
    t = Tally(2)
    t.add((5, 3), (1, 2), (10, 10), reason, [{source: 5}, {source: 3}], order=(0, 1))
    return t


def test_tallies_are_merged_in_chunk_order_whatever_order_they_arrive_in() -> None:
    """A simulation's chunks may finish in any order; their tallies are merged in chunk
    order, so that the end reasons and VP sources keep the order of the games."""
    merged = _InOrder(Tally(2))
    merged.add(1, _tally("three-piles", "duchies"))  # chunk 1 finishes first: it waits
    assert merged.total.games == 0 and merged.total.reasons == {}
    merged.add(0, _tally("provinces", "provinces"))
    assert merged.total.games == 2
    assert list(merged.total.reasons) == ["provinces", "three-piles"]
    assert list(merged.total.breakdown) == ["provinces", "duchies"]
    in_order = Tally(2)
    for t in (_tally("provinces", "provinces"), _tally("three-piles", "duchies")):
        in_order.merge(t)
    assert merged.total == in_order
