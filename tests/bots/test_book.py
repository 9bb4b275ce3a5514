"""The Dominion search's opening book (issue 6: search bots): the built-in line for First
Game, where it applies and where not, the search's random numbers kept, book files."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominari.bots import load_bot
from dominari.bots.book import default_book, parse_book_text, read_book
from dominari.bots.mcts import LEVELS, MCTSBot, mcts_bot
from dominari.core.errors import ConfigError, StrategyError
from dominari.dominion import cards as C
from dominari.dominion.actions import BUY_A
from dominari.dominion.engine import BUY_PHASE, DominionConfig, DominionState
from dominari.sim.journal import spec_files

MINE_AT_5 = """
[[line]]
kingdom = "first-game"
players = 2
own = "smithy-market"
turns = 2

[[line.buy]]
card = "Mine"
when = "coins == 5"
"""


def buy_with(coins: int, kingdom: str = "first-game", players: int = 2,
             turn: int = 1) -> DominionState:
    """The first deal (seeds 1 on) whose first player has ``coins`` coins at the buy of
    its turn ``turn``, both players playing Smithy-Market until then."""
    model = load_bot("smithy-market")
    for seed in range(1, 500):
        s = DominionState.new(DominionConfig(players=players, seed=seed, kingdom=kingdom))
        first = s.turn_player
        while not s.is_terminal():
            at_buy = not s.stack and s.phase == BUY_PHASE
            if at_buy and s.turn_player == first and s.players[first].turns == turn:
                break
            s.apply(model.act(s))
        if s.coins == coins:
            return s
    raise AssertionError("no such deal")


def search(book: bool | str, **kw: object) -> MCTSBot:
    """A small search (the own model's buy its only candidate) seeded alike."""
    settings: dict[str, object] = {"iterations": 6, "width": 1, **kw}
    return MCTSBot("dominion", paired=True, seed=5, book=book, **settings)  # type: ignore[arg-type]


def test_the_levels_that_play_the_book() -> None:
    levels = LEVELS["dominion"]
    assert levels["mcts"]["book"] and levels["mcts-hard"]["book"]
    assert not levels["mcts-easy"].get("book", False)  # the easy level plays its own
    assert mcts_bot("mcts", "dominion").book is True
    assert mcts_bot("mcts:book=no", "dominion").book is False


def test_first_game_5_2_buys_a_mine_where_the_search_would_not() -> None:
    s = buy_with(5)
    plain, book = search(False), search(True)
    assert plain.act(s) == BUY_A[C.SMITHY]  # Smithy-Market's buy, its only candidate
    assert book.act(s) == BUY_A[C.MINE] and book.book_moves == 1
    # The search ran all the same: its random numbers go on as without the book.
    assert book._rng.getstate() == plain._rng.getstate()


def test_with_4_coins_the_book_buys_what_the_own_model_buys() -> None:
    s = buy_with(4)
    plain, book = search(False, width=7, iterations=30), search(True, width=7, iterations=30)
    own = load_bot("smithy-market").act(s)
    assert book.act(s) == own
    assert book.book_moves == (plain.act(s) != own)


@pytest.mark.parametrize(("kingdom", "players", "turn"), [
    ("big-money", 2, 1),   # Mine in the kingdom, but no line for it
    ("first-game", 3, 1),  # another number of players
    ("first-game", 2, 3),  # after the turns the line covers
])
def test_the_book_leaves_other_buys_to_the_search(kingdom: str, players: int,
                                                  turn: int) -> None:
    s = buy_with(5, kingdom, players, turn)
    assert search(True).act(s) == search(False).act(s)
    assert default_book().move(s, load_bot("smithy-market")) is None


def test_a_line_for_another_own_model_does_not_apply() -> None:
    s = buy_with(5)
    bot = search(True, own="bmu")  # the search's own seat played as BMU, not Smithy-Market
    assert bot.act(s) == load_bot("bmu").act(s) and bot.book_moves == 0


def test_a_book_file_of_ones_own(tmp_path: Path) -> None:
    path = tmp_path / "book.toml"
    path.write_text(MINE_AT_5.replace("Mine", "Market"), encoding="utf-8")
    s = buy_with(5)
    bot = mcts_bot(f"mcts:iterations=6:steps=none:width=1:book={path}", "dominion")
    assert bot.name == f"mcts:iterations=6:steps=none:width=1:book={path}"
    assert bot.act(s) == BUY_A[C.MARKET]
    # A tournament's journal is voided when the book file changes.
    spec = f"mcts:book={path}"
    before = spec_files([spec, "mcts"])
    assert list(before) == [spec]
    path.write_text(MINE_AT_5, encoding="utf-8")
    assert spec_files([spec])[spec] != before[spec]


ANY_OWN_MINE_AT_5 = MINE_AT_5.replace('own = "smithy-market"\n', "")


def test_a_line_for_any_own_model_applies_to_best_and_random_own_models(
        tmp_path: Path) -> None:
    """``best`` plays the kingdom's rule bot (Smithy on First Game), so a line for any own
    model plays its rules, then Smithy's; ``random`` has no rules of its own, so the line
    buys by its rules alone and leaves other buys to the search."""
    book = parse_book_text(ANY_OWN_MINE_AT_5)
    assert book.lines[0].own is None
    s5, s4 = buy_with(5), buy_with(4)
    assert book.move(s5, load_bot("best")) == BUY_A[C.MINE]
    assert book.move(s4, load_bot("best")) == load_bot("smithy").act(s4)
    assert book.move(s5, load_bot("random")) == BUY_A[C.MINE]
    assert book.move(s4, load_bot("random")) is None  # no rule applies: the search buys
    path = tmp_path / "book.toml"
    path.write_text(ANY_OWN_MINE_AT_5, encoding="utf-8")
    for own in ("best", "random"):
        bot = search(str(path), own=own)
        assert bot.act(s5) == BUY_A[C.MINE] and bot.book_moves == 1


def test_the_built_in_book_reads_as_its_file() -> None:
    here = Path(__file__).resolve().parents[2] / "src/dominari/bots/opening-book.toml"
    assert read_book(here).lines == default_book().lines
    assert parse_book_text(MINE_AT_5).lines == default_book().lines


@pytest.mark.parametrize(("text", "message"), [
    ("kingdom = 1", "unknown top-level key 'kingdom'; a book is [[line]] tables"),
    ("", "no lines; a book is [[line]] tables"),
    ("[[line]\n", "not valid TOML"),
    (MINE_AT_5.replace("turns = 2", "turns = 2\nply = 1"), "line 1: unknown field 'ply'"),
    (MINE_AT_5.replace("players = 2\n", ""), "line 1: missing field 'players'"),
    (MINE_AT_5.replace('"first-game"', '"random"'), "for one kingdom, not 'random'"),
    (MINE_AT_5.replace('"first-game"', '"Mine, Smithy"'), "names fewer than 10 cards"),
    (MINE_AT_5.replace('"first-game"', '"secret-set"'), "unknown kingdom 'secret-set'"),
    (MINE_AT_5.replace('"first-game"', '["Mine"]'), "a list of 10 kingdom cards"),
    (MINE_AT_5.replace("players = 2", "players = 5"), "'players': must be 2 to 4, not 5"),
    (MINE_AT_5.replace("turns = 2", "turns = 0"), "'turns': must be 1 or more, not 0"),
    (MINE_AT_5.replace("turns = 2", 'turns = "2"'), "'turns': must be a whole number"),
    (MINE_AT_5.replace('"smithy-market"', '"smithy-mine"'), "'own': must name a built-in"),
    (MINE_AT_5.replace('"Mine"', '"Mint"'), "line 1: buy rule 1 field 'card': unknown card"),
    (MINE_AT_5.replace("coins == 5", "coins =="), "line 1: buy rule 1 field 'when'"),
])
def test_a_bad_book_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(StrategyError, match=r"^book\.toml: ") as err:
        parse_book_text(text, "book.toml")
    assert message in str(err.value)


def test_bad_book_options_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"is not yes, no or the path of a \.toml book file"):
        mcts_bot("mcts:book=maybe", "dominion")
    with pytest.raises(ConfigError, match="cannot read book file"):
        mcts_bot(f"mcts:book={tmp_path / 'none.toml'}", "dominion")
    bad = tmp_path / "bad.toml"
    bad.write_text(MINE_AT_5.replace("turns = 2", "turns = -1"), encoding="utf-8")
    with pytest.raises(ConfigError, match="'turns': must be 1 or more, not -1"):
        mcts_bot(f"mcts:book={bad}", "dominion")
    with pytest.raises(ConfigError, match="only Dominion's search has an opening book"):
        mcts_bot("mcts:book=yes", "dominations")
    # In Python the book is True or False: the spec's words name no file, and say so.
    for word in ("yes", "no"):
        with pytest.raises(ConfigError, match=f"no file '{word}': for the built-in book "
                                              "give book=True"):
            MCTSBot("dominion", book=word)
