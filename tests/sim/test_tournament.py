"""Round-robin tournaments: structure, seat rotation, reproducibility, ratings, ties, charts."""

from __future__ import annotations

import io
import itertools
import json
import math
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dominari.core.errors import ConfigError, StrategyError
from dominari.sim import (
    GameResult,
    Shard,
    TournamentResult,
    play_shard,
    seating,
    tournament,
    tournament_game_seed,
)
from dominari.sim.plot import check_plot_path, plot_tournament, tournament_figure
from dominari.sim.runner import DominionOptions
from dominari.sim.stats import wilson
from dominari.sim.tournament import matchups, rate_games, tournament_record_name

FAST = ["random", "bm", "bmu", "smithy"]
PNG = b"\x89PNG\r\n\x1a\n"


def small(players: list[str] = FAST, games: int = 4, seed: int = 1, *, seats: int = 2,
          workers: int = 1) -> TournamentResult:
    return tournament(players, games, seed, seats=seats, workers=workers, kingdom="first-game")


# ------------------------------------------------------------------- structure
@pytest.mark.parametrize(("entries", "seats"), [(4, 2), (4, 3), (5, 3), (4, 4), (6, 4)])
def test_round_robin_structure(entries: int, seats: int) -> None:
    combos = matchups(entries, seats)
    assert len(combos) == math.comb(entries, seats)
    assert combos == list(itertools.combinations(range(entries), seats))
    per_entry = Counter(e for c in combos for e in c)
    assert set(per_entry.values()) == {math.comb(entries - 1, seats - 1)}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seat_rotation_is_balanced(seats: int) -> None:
    entries = tuple(range(10, 10 + seats))
    orders = [seating(entries, j) for j in range(math.factorial(seats))]
    # every block of `seats` games puts each entry in each seat once
    for start in range(0, len(orders), seats):
        block = orders[start:start + seats]
        for s in range(seats):
            assert sorted(order[s] for order in block) == list(entries)
    # every block of seats! games plays every seat order once
    assert sorted(orders) == sorted(itertools.permutations(entries))
    assert seating(entries, len(orders)) == orders[0]


def test_counts_add_up() -> None:
    r = small(games=6)
    assert len(r.matchups) == 6
    assert r.games == 36
    assert r.games_per_matchup == 6 and r.seat_balanced
    assert sum(r.end_reasons.values()) == 36
    for p in r.players:
        assert p.games == 18  # 3 opponents × 6 games
        assert p.wins + p.ties + p.losses == p.games
        assert p.ci95 == wilson(p.wins, p.games)  # of the outright wins over its games
    shared = r.games - sum(p.wins for p in r.players)
    assert sum(p.ties for p in r.players) >= 2 * shared
    for i, j in itertools.permutations(range(4), 2):
        assert r.met[i][j] == 6
        assert r.better[i][j] + r.better[j][i] <= 6
    assert [p.name for p in r.players] == ["random", "BM", "BMU", "Smithy"]


def test_three_seat_tournament_rotates_seats_in_each_matchup() -> None:
    options = DominionOptions("first-game")
    names = ("random", "BM", "Smithy")
    shard = Shard(("random", "bm", "smithy"), names, options, 5, 0, (0, 1, 2), 0, 6)
    games = play_shard(shard)
    assert len(games) == 6
    for s in range(3):
        assert Counter(g.seating[s] for g in games) == {0: 2, 1: 2, 2: 2}
    assert {g.seating for g in games} == set(itertools.permutations((0, 1, 2)))
    r = small(["random", "bm", "smithy", "bmu"], games=3, seats=3)
    assert len(r.matchups) == 4
    assert all(p.games == 9 for p in r.players)
    assert not small(["random", "bm", "smithy"], games=4, seats=3).seat_balanced


def test_mirror_entries_are_separate_players() -> None:
    r = small(["bmu", "bm", "bmu"], games=2)
    assert [p.name for p in r.players] == ["BMU#1", "BM", "BMU#2"]
    assert r.met[0][2] == 2


# ------------------------------------------------------------- reproducibility
def test_same_seed_same_result_whatever_the_workers() -> None:
    one = small(games=4, seed=3, workers=1)
    assert small(games=4, seed=3, workers=1).to_json() == one.to_json()
    two = small(games=4, seed=3, workers=2)
    assert two == one
    assert two.to_json() == one.to_json()
    assert small(games=4, seed=4).to_json() != one.to_json()


def test_adding_a_player_keeps_the_earlier_games() -> None:
    two = small(["bm", "smithy"], games=6, seed=8)
    three = small(["bm", "smithy", "bmu"], games=6, seed=8)
    assert three.matchups[0] == two.matchups[0]
    assert tournament_game_seed(8, (0, 1), 0) != tournament_game_seed(8, (0, 2), 0)


def test_dominations_tournament() -> None:
    r = tournament(["random", "random", "random"], 3, 2, seats=3, game="dominations")
    assert r.game == "dominations"
    assert r.games == 3
    assert [p.name for p in r.players] == ["random#1", "random#2", "random#3"]
    assert r.to_json()["options"]["rules"]["variant"] == "retail"


@pytest.mark.rule("N-SET-1", "D-SET-6")
@pytest.mark.parametrize(("game", "players", "seats", "games"), [
    ("dominion", ["bmu", "smithy", "bm"], 2, 12),
    ("dominion", ["bmu", "smithy", "bm", "random"], 3, 6),
    ("dominations", ["greedy", "random"], 2, 2),
])  # fmt: skip
def test_results_by_turn_order_are_each_deals_own(game: str, players: list[str], seats: int,
                                                  games: int) -> None:
    """N-SET-1, D-SET-6: the engines draw who begins each game from its seed, so rotating
    seats does not balance the turn order: every game keeps the order of its first turns
    as its deal draws it, and each entry's results (and everyone's) are counted by its
    place in that order, whoever sat there."""
    from dominari.sim.runner import game_options, seat_names, turn_order

    r = tournament(players, games, 7, seats=seats, game=game,
                   kingdom="first-game" if game == "dominion" else None)  # fmt: skip
    options = game_options(game, kingdom="first-game" if game == "dominion" else None)
    names = seat_names([p.name for p in r.players])
    n = len(players)
    placed = [[0] * seats for _ in range(n)]
    won = [[0] * seats for _ in range(n)]
    shared = [[0] * seats for _ in range(n)]
    for m, entries in enumerate(matchups(n, seats)):
        shard = Shard(tuple(players), tuple(names), options, 7, m, entries, 0, games)
        here = [[0] * seats for _ in entries]  # the match-up's own, by its entries
        for j, g in enumerate(play_shard(shard)):
            for k, p in enumerate(g.order):
                here[entries.index(g.seating[p])][k] += 1
            assert g.order == tuple(turn_order(options.new_game(
                seats, tournament_game_seed(7, entries, j),
                tuple(names[e] for e in g.seating))))
        assert [[t.games for t in places] for places in r.matchups[m].by_turn] == here
        for j, g in enumerate(play_shard(shard)):
            dealt = options.new_game(seats, tournament_game_seed(7, entries, j),
                                     tuple(names[e] for e in g.seating))  # fmt: skip
            assert g.order == tuple(turn_order(dealt))
            for k, p in enumerate(g.order):
                e = g.seating[p]
                placed[e][k] += 1
                if g.ranks[p] == 1:
                    (shared if g.ranks.count(1) > 1 else won)[e][k] += 1
    for s in r.players:
        assert [t.place for t in s.by_turn] == list(range(1, seats + 1))
        assert [t.games for t in s.by_turn] == placed[s.entry]
        assert [t.wins for t in s.by_turn] == won[s.entry]
        assert [t.ties for t in s.by_turn] == shared[s.entry]
        assert sum(t.games for t in s.by_turn) == s.games
    assert all(t.games == r.games for t in r.by_turn)
    assert [t.wins for t in r.by_turn] == [sum(won[e][k] for e in range(n))
                                           for k in range(seats)]  # fmt: skip
    data = r.to_json()
    assert data["by_turn"][0] == {"place": 1, "games": r.games, **r.by_turn[0].counts_json()}
    assert all(len(p["by_turn"]) == seats for p in data["players"])
    assert all(len(m["by_turn"]) == seats for m in data["matchups"])


def test_results_by_turn_order_need_every_games_order() -> None:
    """Games whose turn order is not known give no results by turn order (rather than
    results over some of the games)."""
    known = GameResult((0, 1), (1, 2), (30, 20), "provinces", (1, 0))
    r = TournamentResult.from_games([[known, known._replace(order=())]], specs=("a", "b"),
                                    names=("A", "B"), seats=2, seed=0, game="dominion",
                                    options={})  # fmt: skip
    assert r.by_turn == () and all(p.by_turn == () for p in r.players)
    assert "by_turn" not in r.to_json()
    r = TournamentResult.from_games([[known, known]], specs=("a", "b"), names=("A", "B"),
                                    seats=2, seed=0, game="dominion", options={})
    assert [(t.games, t.wins) for t in r.players[0].by_turn] == [(0, 0), (2, 2)]


# --------------------------------------------------------------------- ratings
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strategies_are_rated_above_random(seed: int) -> None:
    r = small(["random", "bmu", "smithy"], games=60, seed=seed)
    board = r.leaderboard
    assert board[-1].name == "random"
    assert board[-1].ordinal < min(p.ordinal for p in board[:-1])
    assert all(p.mu > 25 for p in board[:-1]) and board[-1].mu < 25
    assert all(p.sigma < 25 / 3 for p in board)


def test_ratings_at_three_seats_put_random_last() -> None:
    """Places of a 3-seat game rate every entry, in the order of their strength: Smithy-BM
    above BMU above BM, and ``random`` (never a winner) below them all."""
    r = small(["random", "bm", "bmu", "smithy"], games=12, seats=3)
    board = r.leaderboard
    assert [p.name for p in board] == ["Smithy", "BMU", "BM", "random"]
    assert board[0].mu > 25 > board[-1].mu
    assert all(a.mu > b.mu for a, b in itertools.pairwise(board))


def test_ties_are_shared_places() -> None:
    tie = GameResult((0, 1), (1, 1), (30, 30), "provinces")
    (a_mu, a_sigma), (b_mu, b_sigma) = rate_games([tie, tie], 2)
    assert a_mu == pytest.approx(b_mu) and a_sigma == pytest.approx(b_sigma)
    win = GameResult((1, 0), (1, 2), (30, 20), "provinces")
    r = TournamentResult.from_games([[tie, win, tie]], specs=("a", "b"), names=("A", "B"),
                                    seats=2, seed=0, game="dominion", options={})
    a, b = r.players
    assert (a.wins, a.ties, a.losses) == (0, 2, 1)
    assert (b.wins, b.ties, b.losses) == (1, 2, 0)
    assert r.better == ((0, 0), (1, 0))
    assert r.head_to_head_rate(1, 0) == pytest.approx(1 / 3)
    assert r.head_to_head_rate(0, 0) is None
    assert b.mu > a.mu
    assert r.leaderboard[0].name == "B"


def test_a_shared_win_at_four_seats_is_rated_above_the_places_behind_it() -> None:
    """Ranks 1, 1, 3, 4: the two winners gain alike and the most, the third is rated
    below them (OpenSkill 6.2's Plackett-Luce raised it as much as the winners), the
    last the least; a draw between two players moves neither against the other."""
    shared = GameResult((0, 1, 2, 3), (1, 1, 3, 4), (40, 40, 30, 10), "provinces")
    (a, _), (b, _), (c, _), (d, _) = rate_games([shared], 4)
    assert a == pytest.approx(b)
    assert a > c + 1 and c > d + 1
    assert a > 25 > d
    alone = GameResult((0, 1, 2, 3), (1, 2, 3, 4), (40, 39, 30, 10), "provinces")
    (a1, _), (b1, _), (c1, _), _ = rate_games([alone], 4)
    assert a1 > a > b1 > c1  # a shared first lies between first and second
    assert c1 == pytest.approx(c)  # the third lost to the same three either way
    many = rate_games([shared] * 50, 4)
    assert many[0][0] == pytest.approx(many[1][0])
    assert many[0][0] > many[2][0] + 5 > many[3][0] + 10


def test_another_openskill_model_may_be_named_and_an_unknown_one_is_refused() -> None:
    """The ratings benchmark compares the model with Plackett-Luce through the same loop,
    which gives that model's ratings; a misspelt model names the models there are."""
    shared = GameResult((0, 1, 2, 3), (1, 1, 3, 4), (40, 40, 30, 10), "provinces")
    ours = rate_games([shared], 4)
    theirs = rate_games([shared], 4, model="PlackettLuce")
    assert ours == rate_games([shared], 4, model="BradleyTerryFull")
    assert theirs != ours and theirs[0][0] > 25 > theirs[3][0]
    with pytest.raises(ConfigError, match="no OpenSkill model 'Elo': the models are "
                                          "BradleyTerryFull, BradleyTerryPart, PlackettLuce"):
        rate_games([shared], 4, model="Elo")


def test_json_keys() -> None:
    data = small(games=2).to_json()
    for key in ("game", "seed", "seats", "games_per_matchup", "players", "head_to_head",
                "options", "matchups", "rating_model", "end_reasons", "intervals"):
        assert key in data
    assert data["intervals"] == {"ci95": "Wilson score", "tie_ci95": "Wilson score",
                                 "win_share_ci95": "Student's t, each end widened to Wilson's "
                                                 "of the share where that is further out",
                                 "mean_score_ci95": "Student's t"}
    from dominari import __version__
    from dominari.sim.journal import code_fingerprint

    assert data["dominari"] == {"version": __version__, "code": code_fingerprint("dominion")}
    assert data["rating_model"]["model"] == "BradleyTerryFull"
    assert data["options"] == {"kingdom": "first-game", "max_turns": 100}
    names = [p["name"] for p in data["players"]]
    assert data["head_to_head"]["names"] == names
    assert [p["rank"] for p in data["players"]] == [1, 2, 3, 4]
    ordinals = [p["rating"]["ordinal"] for p in data["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    for p in data["players"]:
        assert set(p) >= {"spec", "name", "games", "wins", "ties", "win_rate", "ci95",
                          "mean_score", "rating"}
        assert set(p["rating"]) == {"mu", "sigma", "ordinal"}
    assert len(data["matchups"]) == 6
    assert data["matchups"][0]["players"] == ["random", "BM"]
    # as simulate's: the games stopped by the turn limit, apart from end_reasons
    assert data["turn_limit_games"] == data["end_reasons"].get("turn-limit", 0)
    stopped = tournament(["bm", "bmu"], 2, 1, kingdom="first-game", max_turns=3).to_json()
    assert stopped["turn_limit_games"] == stopped["games"] == 2


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize(("players", "kw", "error"), [
    (["bmu", "smithy"], {"seats": 3}, ConfigError),
    (["bmu", "smithy", "bm", "random", "witch"], {"seats": 5}, ConfigError),
    (["bmu", "smithy"], {"games": 0}, ConfigError),
    (["bmu", "nobot"], {}, StrategyError),
    (["bmu", "human"], {}, StrategyError),
    (["bmu", "smithy"], {"backend": "spark"}, ConfigError),
    (["bmu", "smithy"], {"workers": 0}, ConfigError),
])  # fmt: skip
def test_bad_input(players: list[str], kw: dict[str, object], error: type[Exception]) -> None:
    args: dict[str, object] = {"games": 2, "seed": 1, **kw}
    with pytest.raises(error):
        tournament(players, **args)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- charts
def test_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "chart.png"
    result = small(games=2, seats=3)
    fig = tournament_figure(result)
    # The dashed line is labelled: the bars count outright wins, so ties pull an even
    # table's bars below it.
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        "1 game in 3: an even share, if no win is shared", "ordinal μ − 3σ", "μ ± 3σ"]
    plot_tournament(result, target)
    assert target.read_bytes().startswith(PNG)
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]


def test_a_chart_is_drawn_over_a_chart_never_over_another_picture(tmp_path: Path) -> None:
    """A chart says in its PNG that Dominari drew it, so a later run may draw over it (or
    over an empty file); a picture of the user's, a PNG of matplotlib's own among them, is
    refused before any game, and left as it was."""
    from matplotlib.figure import Figure

    from dominari.sim.plot import is_chart

    target = tmp_path / "chart.png"
    plot_tournament(small(games=2), target)
    assert is_chart(target) and check_plot_path(target) == target
    plot_tournament(small(games=2, seed=2), target)  # drawn again, over the first
    assert is_chart(target)
    target.write_bytes(b"")
    assert check_plot_path(target) == target
    photo = tmp_path / "photo.png"
    fig = Figure(figsize=(1, 1))
    fig.subplots()
    fig.savefig(photo, format="png")  # matplotlib's own, with its Software text
    before = photo.read_bytes()
    assert before.startswith(PNG) and b"Software" in before and not is_chart(photo)
    with pytest.raises(ConfigError, match=r"'.*photo\.png' is already there and is not a "
                                          r"tournament chart \(a PNG file Dominari drew\)"):
        plot_tournament(small(games=2), photo)
    assert photo.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.png", "photo.png"]


def test_a_chart_that_cannot_be_read_is_said_so(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that cannot be read is not called "not a chart": that it cannot be read to
    tell is said (monkeypatched: a test run as root reads any file)."""
    import importlib

    plot = importlib.import_module("dominari.sim.plot")
    target = tmp_path / "chart.png"
    plot_tournament(small(games=2), target)

    def unreadable(*args: object, **kw: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(plot, "open", unreadable, raising=False)
    with pytest.raises(ConfigError, match=r"is already there and cannot be read \(Permission "
                                          r"denied\) to see whether it is a chart Dominari "
                                          r"drew"):
        check_plot_path(target)
    assert not plot.is_chart(target)


def test_plot_shows_names_as_written(tmp_path: Path) -> None:
    """A strategy's name is any text: a ``$`` in it (a Dominion price) is no formula for
    matplotlib to parse, a name it cannot parse fails nothing, and letters its font lacks
    are drawn as boxes without a warning for each."""
    bm = (Path(__file__).parents[2] / "src/dominari/bots/strategies/bm.toml").read_text()
    names = ["Buy at $5 or $6", r"A $\frac{$ x", "Bäm 日本 🎲"]
    files = []
    for k, name in enumerate(names):
        f = tmp_path / f"s{k}.toml"
        title = json.dumps(name, ensure_ascii=False)  # TOML has no surrogate escapes
        f.write_text(bm.replace('name = "BM"', f"name = {title}"), encoding="utf-8")
        files.append(str(f))
    result = small([*files, "smithy"], games=2)
    labels = {t.get_text() for t in tournament_figure(result).axes[0].get_yticklabels()}
    assert labels == {*names, "Smithy"}
    with warnings.catch_warnings():  # letters the font lacks: no warning for each
        warnings.simplefilter("error")
        plot_tournament(result, tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes().startswith(PNG)


def test_plot_breaks_long_names_so_the_panels_keep_their_room(tmp_path: Path) -> None:
    """A search spec with a strategy file's path, and a 160-letter name: each label is
    at most 3 lines of 28 characters (broken at the spec's ``:`` and the path's ``/``,
    a longer one losing its middle to ``…``), so both panels keep most of the figure's
    width, and matplotlib gives up no layout (its warning reached the terminal)."""
    bm = (Path(__file__).parents[2] / "src/dominari/bots/strategies/bm.toml").read_text()
    long = "Long" * 40
    f = tmp_path / "long.toml"
    f.write_text(bm.replace('name = "BM"', f'name = "{long}"'), encoding="utf-8")
    own = tmp_path / "strategies" / "variants" / "smithy-big-money-variant.toml"
    own.parent.mkdir(parents=True)
    own.write_text(bm, encoding="utf-8")
    spec = f"mcts-easy:iterations=2:width=2:own={own}"
    result = small([str(f), spec, "random"], games=2)
    fig = tournament_figure(result)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    for text in labels:
        assert len(text.split("\n")) <= 3 and max(map(len, text.split("\n"))) <= 28
    assert "mcts-easy:iterations=2:" in labels[[s.name for s in result.leaderboard]
                                               .index(spec)].split("\n")  # fmt: skip
    assert any(text.startswith("LongLong") and "…" in text for text in labels)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot_tournament(result, tmp_path / "chart.png")
    fig.savefig(io.BytesIO(), format="png")  # (lays the figure out)
    for ax in fig.axes:  # each panel keeps over a quarter of the width
        assert ax.get_position().width > 0.25


def test_a_label_keeps_to_its_lines_whatever_the_name() -> None:
    from dominari.sim.plot import label

    for name in ["a\nb\nc\nd\ne", "a" * 85, "x" * 28, "x" * 29, "   ", ":::::",
                 "Long" * 40, "mcts-easy:iterations=2:width=2:own=" + "/dir" * 30]:
        text = label(name)
        rows = text.split("\n")
        assert (len(rows) <= 3 and all(0 < len(r) <= 28 for r in rows)) or text == "", name
    assert label("a" * 85).split("\n")[-1] == "a" * 28  # the last line a whole one
    assert label("a\nb") == "a b"  # a line break is a space
    assert label("x" * 28) == "x" * 28 and label("x" * 29) == "x" * 28 + "\nx"


def test_plot_errors_leave_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="PNG"):
        check_plot_path(tmp_path / "chart.svg")
    with pytest.raises(ConfigError, match="does not exist"):
        check_plot_path(tmp_path / "missing" / "chart.png")
    result = small(games=2)
    from matplotlib.figure import Figure

    def broken(*_args: object, **_kw: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Figure, "savefig", broken)
    with pytest.raises(ConfigError, match=r"the chart cannot be written \(disk full\)"):
        plot_tournament(result, tmp_path / "chart.png")
    assert list(tmp_path.iterdir()) == []


def test_plot_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ConfigError, match=r"pip install 'dominari\[plot\]'"):
        check_plot_path(tmp_path / "chart.png")


def test_the_ratings_report_their_progress_after_the_games() -> None:
    """A long tournament spends minutes rating its games after the last one is played:
    ``rating(k)`` says how far it is, every game rated once, after every game played."""
    import importlib

    module = importlib.import_module("dominari.sim.tournament")  # not the function
    calls: list[tuple[str, int]] = []
    result = tournament(FAST, 7, 1, kingdom="first-game", seats=2,
                        progress=lambda k: calls.append(("played", k)),
                        rating=lambda k: calls.append(("rated", k)))  # fmt: skip
    played = [k for what, k in calls if what == "played"]
    rated = [k for what, k in calls if what == "rated"]
    assert sum(played) == sum(rated) == result.games
    assert calls[: len(played)] == [("played", k) for k in played]  # every game, then ratings
    assert max(rated) <= module.RATED_EVERY
    with pytest.raises(ConfigError, match="rating must be a function"):
        tournament(FAST, 2, 1, rating=3)  # type: ignore[arg-type]


def test_the_reading_of_the_games_reports_its_progress_before_the_ratings(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The rows and the split by card are worked out in one pass over the games once all
    are played (each kingdom drawn once): ``reading(k)`` says how far it is, every game read
    once, after every game played and before the ratings; without rows or by card it is
    never called. A function is needed."""
    import importlib

    module = importlib.import_module("dominari.sim.tournament")  # not the function
    monkeypatch.setattr(module, "READ_EVERY", 4)
    drawn: list[int] = []
    resolve = module.resolve_kingdom

    def counted(spec: Any, game_seed: int) -> Any:
        drawn.append(game_seed)
        return resolve(spec, game_seed)

    monkeypatch.setattr(module, "resolve_kingdom", counted)
    calls: list[tuple[str, int]] = []
    rows: list[dict[str, Any]] = []
    result = tournament(["bm", "smithy", "witch"], 5, 2, by_card=True, each_game=rows.append,
                        progress=lambda k: calls.append(("played", k)),
                        reading=lambda k: calls.append(("read", k)),
                        rating=lambda k: calls.append(("rated", k)))  # fmt: skip
    kinds = [what for what, _ in calls]
    assert kinds == sorted(kinds, key=["played", "read", "rated"].index)  # in that order
    assert [k for what, k in calls if what == "read"] == [4, 4, 4, 3]
    assert len(rows) == result.games == 15 and result.by_card
    assert sorted(drawn) == sorted(row["seed"] for row in rows)  # once a game, for both
    calls.clear()
    tournament(["bm", "smithy"], 3, 2, reading=lambda k: calls.append(("read", k)))
    assert calls == []
    with pytest.raises(ConfigError, match="reading must be a function"):
        tournament(FAST, 2, 1, reading=3)  # type: ignore[arg-type]


def test_each_game_gets_every_games_row_in_order() -> None:
    """``each_game`` gets every game's row, match-up by match-up, the same as the result
    counts (a Dominations game has no kingdom); a function is needed."""
    rows: list[dict[str, Any]] = []
    r = tournament(["greedy", "random", "greedy"], 2, seed=3, seats=3, game="dominations",
                   each_game=rows.append)  # fmt: skip
    assert [(row["matchup"], row["index"]) for row in rows] == [(0, 0), (0, 1)]
    assert all("kingdom" not in row and sorted(row["seating"]) == [0, 1, 2] for row in rows)
    wins = Counter(row["seating"][row["ranks"].index(1)] for row in rows
                   if row["ranks"].count(1) == 1)  # fmt: skip
    assert {p.entry: p.wins for p in r.players} == {e: wins[e] for e in range(3)}
    with pytest.raises(ConfigError, match="each_game must be a function of a game's row"):
        tournament(["bm", "smithy"], 2, seed=3, each_game=3)  # type: ignore[arg-type]


@pytest.mark.rule("N-SET-3")
def test_results_by_card_of_a_tournament_are_each_entrys_recomputed_from_its_games(
        tmp_path: Path) -> None:
    """N-SET-3: ``by_card`` gives every entry its win rate in its games with each Kingdom
    card and in its others, the plain difference with Newcombe's interval, and the
    difference among games alike: of one match-up, and alike in the cards its table's
    strategies buy (Witch, Smithy) and the rule bot ``best`` played. All recomputed here
    from each game's row (its kingdom drawn from its seed)."""
    from dominari.bots.kingdom import best_rule_bot
    from dominari.sim.stats import _adjusted, newcombe

    rows: list[dict[str, Any]] = []
    specs = ["witch", "smithy", "best"]
    r = tournament(specs, 30, seed=4, by_card=True, each_game=rows.append, workers=2,
                   record_dir=tmp_path)  # fmt: skip
    assert not r.by_card_unadjusted and len(r.by_card) == 3
    keys = [{"Witch"}, {"Smithy"}, set()]  # what each entry's strategy buys
    for row in rows:  # the rule bot best played, where it played, named as its record has it
        assert ("played_as" in row) == (2 in row["seating"])
        if 2 in row["seating"]:
            record = json.loads((tmp_path / tournament_record_name(row["matchup"],
                                                                   row["index"]))
                                .read_text(encoding="utf-8"))  # fmt: skip
            assert row["played_as"] == [seat.get("played_as") for seat in record["seats"]]
            assert row["played_as"][row["seating"].index(2)] is not None
    for e, splits in enumerate(r.by_card):
        mine = [(row, row["seating"].index(e)) for row in rows if e in row["seating"]]
        assert {c.card for c in splits} == {k for row, _ in mine for k in row["kingdom"]}
        for c in splits:
            won = [(c.card in row["kingdom"], int(row["ranks"][p] == 1
                                                  and row["ranks"].count(1) == 1))
                   for row, p in mine]  # fmt: skip
            have = [w for present, w in won if present]
            lack = [w for present, w in won if not present]
            assert (c.games, c.present[0].wins, c.absent[0].wins) == (len(have), sum(have),
                                                                      sum(lack))
            assert c.difference(0) == pytest.approx(newcombe(sum(have), len(have), sum(lack),
                                                             len(lack)))  # fmt: skip
            groups: dict[object, list[tuple[bool, int]]] = {}
            for (row, _), w in zip(mine, won, strict=True):
                cards = set().union(*(keys[f] for f in row["seating"]))
                best = best_rule_bot(row["kingdom"], 2) if 2 in row["seating"] else None
                group = (row["matchup"], frozenset(cards & set(row["kingdom"])), best)
                groups.setdefault(group, []).append(w)
            tables = []
            for alike in groups.values():
                n1 = sum(1 for present, _ in alike if present)
                w1 = sum(w for present, w in alike if present)
                if 0 < n1 < len(alike):
                    tables.append(([n1, w1], [len(alike), sum(w for _, w in alike)]))
            got = c.adjusted[0]
            if not tables:  # (a key card: every game of a group has it, or none)
                assert got is None
            else:
                assert got == pytest.approx(_adjusted(tables, 0, 1))
    data = r.to_json()
    first = data["by_card"][0]
    assert first["entry"] == r.leaderboard[0].entry and first["name"] == r.leaderboard[0].name
    assert set(first["cards"][0]) == {"card", "games", "with", "without", "difference",
                                      "difference_ci95", "adjusted"}
    assert data["intervals"]["by_card.cards.difference_ci95"].startswith("Newcombe")
    assert data["intervals"]["by_card.cards.adjusted.ci95"].startswith("stratified Mee")
    assert data["by_card_unadjusted"] is None


def test_results_by_card_of_a_tournament_with_a_search_bot_have_no_alike_difference() -> None:
    """A search bot chooses its buys by searching: games alike in what the bots buy do not
    exist, and the result says why; a fixed kingdom and a by_card that is no bool are
    refused before any game (a Dominations tournament splits by mastery card:
    ``test_tournament_masteries``)."""
    r = tournament(["bm", "mcts-easy:iterations=4"], 2, seed=1, by_card=True)
    assert "chooses what it buys by searching the game" in r.by_card_unadjusted
    assert r.by_card and all(not c.adjusted for c in r.by_card[0])
    assert "by_card.cards.adjusted.ci95" not in r.to_json()["intervals"]
    with pytest.raises(ConfigError, match="the same in every game"):
        tournament(["bm", "smithy"], 2, seed=1, by_card=True, kingdom="first-game")
    with pytest.raises(ConfigError, match="by_card must be True or False, not 1"):
        tournament(["bm", "smithy"], 2, seed=1, by_card=1)  # type: ignore[arg-type]


def test_the_json_says_what_played_each_player(tmp_path: Path) -> None:
    """Results to be published say what played, by player name (the organiser's audit:
    ``spec`` alone, ``mcts-easy``, said nothing of what the level meant): every setting
    of a search bot, as a record's seats have them, and the SHA-256 of a bot's file, as
    the journal keys it; a simulation's too. A rule bot has neither."""
    import hashlib
    import importlib

    from dominari.bots import load_bot
    from dominari.sim import simulate

    src = Path(importlib.import_module("dominari.bots").__file__ or "").parent
    mine = tmp_path / "mine.toml"
    mine.write_text((src / "strategies" / "bmu.toml").read_text().replace(
        'name = "BMU"', 'name = "Mine"'))
    digest = hashlib.sha256(mine.read_bytes()).hexdigest()
    settings = load_bot("mcts-easy").settings()  # type: ignore[attr-defined]
    t = tournament(["bm", "mcts-easy", str(mine)], 2, 1, kingdom="first-game", workers=1)
    data = t.to_json()
    assert data["searches"] == {"mcts-easy": settings}
    assert data["bot_files"] == {"Mine": digest}
    s = simulate(["mcts-easy", str(mine)], 2, 1, kingdom="first-game", workers=1).to_json()
    assert s["searches"] == {"mcts-easy": settings} and s["bot_files"] == {"Mine": digest}
    plain = tournament(["bm", "smithy"], 2, 1, kingdom="first-game", workers=1).to_json()
    assert "searches" not in plain and "bot_files" not in plain
    # A library's own search (the README's recipe, an evaluate function): its function by
    # its name, so that the JSON is JSON (the library user's audit: a TypeError, and the
    # command line's traceback).
    search = tmp_path / "my_search.py"
    search.write_text("from dominari.bots.mcts import MCTSBot\n"
                      "def good(state):\n"
                      "    return [0.0, 0.0]\n"
                      "def make():\n"
                      "    return MCTSBot('dominion', steps=60, cutoff_turns=2, evaluate=good,\n"
                      "                   name='mine')\n")
    for run in (simulate, tournament):
        data = run([f"{search}:make", "bm"], 1, 1, kingdom="first-game",  # type: ignore[operator]
                   workers=1).to_json()
        json.dumps(data)
        assert data["searches"]["mine"]["evaluate"] == f"good ({search} line 2)"
        assert data["bot_files"] == {"mine": hashlib.sha256(search.read_bytes()).hexdigest()}
