"""A tournament's table of game results: every game kept exactly, a few bytes each."""

from __future__ import annotations

import pytest

from dominari.sim.journal import GameResult
from dominari.sim.table import GameTable
from dominari.sim.tournament import seating


def _table(games: int, seats: int = 2) -> GameTable:
    entries = [tuple(range(seats)), tuple(range(1, seats + 1))]
    return GameTable([[seating(e, j) for j in range(24)] for e in entries], games)


def _game(m: int, j: int, seats: int = 2, **kw: object) -> GameResult:
    entries = tuple(range(m, m + seats))
    fields = {"seating": seating(entries, j), "ranks": tuple(range(1, seats + 1)),
              "scores": tuple(10 * j + p for p in range(seats)), "reason": "provinces"}
    fields.update(kw)
    return GameResult(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_games_read_back_as_they_were_put_in(seats: int) -> None:
    t = _table(30, seats)
    put = {(m, j): _game(m, j, seats, reason=("provinces", "piles", "turns")[j % 3],
                         ranks=(1,) * seats if j % 4 == 0 else tuple(range(1, seats + 1)))
           for m in (0, 1) for j in range(0, 30, 2)}
    for key, game in put.items():
        t[key] = game
    assert len(t) == len(put) and list(t) == sorted(put)
    assert {key: t[key] for key in t} == put
    assert t.keys_at(range(len(t))) == sorted(put)
    assert t.keys_at([0, 3, 3, 20]) == [sorted(put)[i] for i in (0, 3, 3, 20)]
    with pytest.raises(IndexError):
        t.keys_at([len(t)])
    assert (0, 1) not in t and (0, 2) in t and "x" not in t
    with pytest.raises(KeyError):
        t[0, 1]
    with pytest.raises(KeyError):  # iterating a match-up stops at the first game not in
        list(t.matchups[0])
    assert list(t.matchups[0].present())[:3] == [0, 2, 4]


def test_a_complete_match_up_reads_as_the_list_of_its_games() -> None:
    t = _table(10)
    games = [_game(1, j, scores=(-3 * j, 2**40 if j == 7 else j)) for j in range(10)]
    for j, game in enumerate(games):
        t[1, j] = game
    assert list(t.matchups[1]) == games == [t.matchups[1][j] for j in range(10)]
    assert t.matchups[1][-1] == games[-1] and t.matchups[1][2:4] == games[2:4]
    assert t.matchups[1].scores.typecode == "q"  # 2**40 needed 8 bytes a score


def test_later_games_are_kept_apart_up_to_the_limit() -> None:
    """A journal of a longer run holds games past this run's: they are kept (a recheck
    may pick them, as it picks among all the journal's games), not counted as played, and
    not read as the match-up's games; past the limit, or of a match-up the table does not
    have, they are not kept."""
    t = GameTable([[seating((0, 1), j) for j in range(2)]], 5, limit=50)
    t[0, 1] = _game(0, 1)
    t[0, 7] = _game(0, 7)
    t[0, 30] = _game(0, 30)
    t[0, 50] = _game(0, 50)  # past the limit
    t[2, 0] = _game(0, 0)  # no such match-up
    assert len(t) == 3 and t.played() == 1 and list(t) == [(0, 1), (0, 7), (0, 30)]
    assert t[0, 30] == _game(0, 30) and (0, 50) not in t
    assert len(t.matchups[0]) == 5 and list(t.matchups[0].present()) == [1]
    with pytest.raises(IndexError):
        t.matchups[0][7]
    assert t.keys_at([1, 2]) == [(0, 7), (0, 30)]
    del t[0, 7]
    assert len(t) == 2 and t.played() == 1


def test_a_game_the_table_cannot_hold_is_refused_whole() -> None:
    t = _table(5)
    with pytest.raises(ValueError, match="seats"):
        t[0, 1] = _game(0, 0)  # game 0's seating for game 1
    with pytest.raises(ValueError, match="one place"):
        t[0, 1] = _game(0, 1, ranks=(1, 256))
    with pytest.raises(ValueError, match="out of range"):
        t[0, 1] = _game(0, 1, scores=(1, 2**63))
    with pytest.raises(ValueError, match="out of range"):
        t[0, 1] = _game(0, 1, scores=(-(2**63) - 1, 0))
    assert len(t) == 0 and (0, 1) not in t
    t[0, 1] = _game(0, 1)
    del t[0, 1]
    assert len(t) == 0
    with pytest.raises(KeyError):
        del t[0, 1]


def test_the_table_takes_a_few_bytes_a_game() -> None:
    import sys

    t = _table(100_000)
    size = sum(sys.getsizeof(a) for m in t.matchups
               for a in (m.ranks, m.scores, m.reason, m.order))  # fmt: skip
    assert size / (2 * 100_000) <= 14  # 2 ranks, 2 scores, a reason, an order: 13 bytes


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_turn_orders_are_kept_and_an_unknown_one_stays_unknown(seats: int) -> None:
    import itertools

    t = _table(30, seats)
    orders = list(itertools.permutations(range(seats)))
    for j in range(30):
        t[0, j] = _game(0, j, seats, order=orders[j % len(orders)] if j % 5 else ())
    assert [t[0, j].order for j in range(30)] == [orders[j % len(orders)] if j % 5 else ()
                                                  for j in range(30)]  # fmt: skip
    assert list(t.matchups[0].unordered()) == list(range(0, 30, 5))
    for bad in ((0,) * seats, tuple(range(seats + 1)), (9, 8)):
        with pytest.raises(ValueError, match="does not name each of"):
            t[1, 0] = _game(1, 0, seats, order=bad)
    assert (1, 0) not in t  # refused whole
