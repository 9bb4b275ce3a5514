"""A Dominations tournament keeps each player's mastery cards (its games, its journal, its
rows) and splits each player's results by them (``by_card``): "which mastery cards win?"
for a round robin, where before only ``simulate`` could say, by seat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dominari.cli import main
from dominari.sim.journal import GameResult, JournalError
from dominari.sim.table import GameTable
from dominari.sim.tournament import tournament

PLAYERS = ["greedy", "random", "greedy"]


def _run(journal: Path | None = None, **kw: Any) -> Any:
    return tournament(PLAYERS, 2, 3, game="dominations", workers=1, journal=journal, **kw)


def test_each_entrys_results_by_mastery_card_count_its_games() -> None:
    rows: list[dict[str, Any]] = []
    result = _run(by_card=True, each_game=rows.append)
    assert len(rows) == 6 and all(len(r["masteries"]) == 2 for r in rows)
    assert len(result.by_mastery) == 3
    for entry, cards in enumerate(result.by_mastery):
        mine = [(r["masteries"][r["seating"].index(entry)],
                 r["ranks"][r["seating"].index(entry)] == 1 and r["ranks"].count(1) == 1)
                for r in rows if entry in r["seating"]]  # fmt: skip
        assert cards, entry  # every player took some card
        for c in cards:  # counted from the rows: its games with the card, and its wins
            with_it = [won for held, won in mine if c.card in held]
            assert (c.held.games, c.held.wins) == (len(with_it), sum(with_it))
            assert c.held.games + c.lacked.games == len(mine)
    data = result.to_json()
    assert [e["name"] for e in data["by_mastery"]] == [p["name"] for p in data["players"]]
    assert "by_mastery.cards.difference_ci95" in data["intervals"]


def test_a_journal_keeps_the_cards(tmp_path: Path) -> None:
    journal = tmp_path / "t.jsonl"
    first = _run(journal, by_card=True)
    line = json.loads(journal.read_text(encoding="utf-8").splitlines()[1])
    assert all(len(game) == 6 and len(game[5]) == 2 for game in line["games"])
    again = _run(journal, by_card=True)  # read back, not played
    assert again.reused == 6 and again.to_json() == first.to_json()
    # A journal written before the cards were kept serves, but not a split by them.
    _strip_cards(journal)
    with pytest.raises(JournalError, match="written before a tournament kept each player's "
                                           "mastery cards, which --by-card splits"):
        _run(journal, by_card=True)
    rows: list[dict[str, Any]] = []
    plain = _run(journal, each_game=rows.append)
    assert plain.reused == 6 and all("masteries" not in r for r in rows)


def test_a_damaged_card_list_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "t.jsonl"
    _run(journal)
    head, line, *rest = journal.read_text(encoding="utf-8").splitlines()
    run = json.loads(line)
    run["games"][0][5] = [["A3a"]]  # one seat's cards for a game of two
    journal.write_text("\n".join([head, json.dumps(run), *rest]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="or that and each seat's mastery cards"):
        _run(journal)
    run["games"][0][5] = [["A3a"], ["Z9z"]]  # a card the data has not
    journal.write_text("\n".join([head, json.dumps(run), *rest]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="holds the mastery card 'Z9z', which the data has "
                                           "not"):
        _run(journal, by_card=True)


def test_the_table_keeps_them() -> None:
    table = GameTable([[(0, 1), (1, 0)]], 2)
    game = GameResult((0, 1), (1, 2), (30, 20), "game end", (0, 1), (("A3a",), ()))
    table[0, 0] = game
    assert table[0, 0] == game and table.matchups[0].lacks_cards() is False
    table[0, 1] = GameResult((1, 0), (1, 2), (30, 20), "game end", (1, 0))
    assert table[0, 1].held == () and table.matchups[0].lacks_cards()
    with pytest.raises(ValueError, match="mastery cards for 1 seats, not 2"):
        table[0, 1] = GameResult((1, 0), (1, 2), (3, 2), "game end", (1, 0), (("A3a",),))


def test_the_command_line_prints_each_players_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "dominations", "--players", ",".join(PLAYERS), "-n", "2", "--seed",
            "3", "--workers", "1", "--no-progress", "--by-card"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.count("win % with each mastery card it held at the end, and without it") == 3
    note = " ".join(out.split())
    assert "a card held is the player's choice" in note
    assert "Δ alike: the same among games of one match-up, in which the player held as many " \
        "mastery cards" in note
    assert main([*args, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["by_mastery"]) == 3


def _strip_cards(journal: Path) -> bytes:
    """Make ``journal`` one written before the cards were kept; its bytes."""
    head, *lines = journal.read_text(encoding="utf-8").splitlines()
    old = []
    for text in lines:
        run = json.loads(text)
        run["games"] = [game[:5] for game in run["games"]]
        old.append(json.dumps(run))
    journal.write_text("\n".join([head, *old]) + "\n", encoding="utf-8")
    return journal.read_bytes()


def test_the_refusal_comes_before_anything_is_written_or_played(tmp_path: Path) -> None:
    """The review: the refusal came after the journal was written again (a player's file
    edited: without its games; a recheck: stamped with this code, its games played
    again). It now comes first, the file as it was."""
    mine = tmp_path / "mine.py"
    mine.write_text("class Bot:\n    name = 'Mine'\n\n    def reset(self, seed):\n"
                    "        pass\n\n    def act(self, state):\n"
                    "        return state.legal_actions()[0]\n", encoding="utf-8")
    players = [f"{mine}:Bot", "random", "greedy"]
    journal = tmp_path / "t.jsonl"
    tournament(players, 2, 3, game="dominations", workers=1, journal=journal)
    before = _strip_cards(journal)
    mine.write_text(mine.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    with pytest.raises(JournalError, match="written before a tournament kept"):
        tournament(players, 2, 3, game="dominations", workers=1, journal=journal,
                   by_card=True)  # fmt: skip
    assert journal.read_bytes() == before
    with pytest.raises(JournalError, match="written before a tournament kept"):
        tournament(players, 2, 3, game="dominations", workers=1, journal=journal,
                   by_card=True, recheck=3)  # fmt: skip
    assert journal.read_bytes() == before


@pytest.mark.parametrize(("cards", "why"), [
    ([["A3a", "A3a"], []], "not sorted, or one twice"),
    ([["C3a", "A3a"], []], "not sorted, or one twice"),
])  # fmt: skip
def test_cards_out_of_order_or_twice_are_refused(tmp_path: Path, cards: list[list[str]],
                                                 why: str) -> None:
    journal = tmp_path / "t.jsonl"
    _run(journal)
    head, line, *rest = journal.read_text(encoding="utf-8").splitlines()
    run = json.loads(line)
    run["games"][0][5] = cards
    journal.write_text("\n".join([head, json.dumps(run), *rest]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=why):
        _run(journal)


def test_a_dominion_game_with_cards_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "t.jsonl"
    tournament(["bm", "smithy"], 2, 1, workers=1, journal=journal)
    head, line, *rest = journal.read_text(encoding="utf-8").splitlines()
    run = json.loads(line)
    run["games"][0].append([["Witch"], []])
    journal.write_text("\n".join([head, json.dumps(run), *rest]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="holds mastery cards, which a Dominion game has "
                                           "not"):
        tournament(["bm", "smithy"], 2, 1, workers=1, journal=journal)


def test_the_cards_are_the_records_cards_at_three_seats(tmp_path: Path) -> None:
    """Checked against another source than the table: each game's record, replayed."""
    from dominari.dominations.engine import DominationsState
    from dominari.sim.runner import held_cards
    from dominari.sim.tournament import tournament_record_name

    rows: list[dict[str, Any]] = []
    result = tournament(["greedy", "random", "greedy", "random"], 1, 5, seats=3,
                        game="dominations", workers=1, by_card=True,
                        record_dir=tmp_path / "r", each_game=rows.append)  # fmt: skip
    assert len(rows) == 4
    for row in rows:
        record = json.loads((tmp_path / "r" / tournament_record_name(
            row["matchup"], row["index"])).read_text(encoding="utf-8"))
        state = DominationsState.from_record(record)
        assert row["masteries"] == [list(c) for c in held_cards(state, 3)]
    for entry, cards in enumerate(result.by_mastery):
        mine = [(r["masteries"][r["seating"].index(entry)],
                 r["ranks"][r["seating"].index(entry)] == 1)
                for r in rows if entry in r["seating"]]  # fmt: skip
        for c in cards:
            assert (c.held.games, c.held.wins) == (
                sum(c.card in held for held, _ in mine),
                sum(c.card in held and won for held, won in mine))
            assert (c.lacked.games, c.lacked.wins) == (
                sum(c.card not in held for held, _ in mine),
                sum(c.card not in held and won for held, won in mine))


def test_a_recheck_that_differs_in_the_cards_alone_shows_them(tmp_path: Path) -> None:
    """The review: a game whose cards alone were edited came out otherwise in a recheck
    that showed the same ranks and scores on both sides; it shows the cards now."""
    journal = tmp_path / "t.jsonl"
    _run(journal)
    head, line, *rest = journal.read_text(encoding="utf-8").splitlines()
    run = json.loads(line)
    first = run["games"][0][5][0]
    run["games"][0][5][0] = sorted(set(first) ^ {"A3a"})  # one card more, or one less
    journal.write_text("\n".join([head, json.dumps(run), *rest]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=r"\(mastery cards \S+ / \S+ there, mastery cards "
                                           r"\S+ / \S+ here\): it was written by other code "
                                           r"or files, or edited"):  # fmt: skip
        _run(journal, recheck=6)


def test_a_card_held_against_a_weak_player_is_not_made_good_by_it() -> None:
    """The strategist's audit: a tournament's split mixed each player's games against
    every opponent, so a card it held mostly against a weak player showed a large gain
    (+25.7 points for a card held in 5 games, all against ``random``), and a sign could
    flip. Δ alike compares games of one match-up (and as many cards held): here the card
    goes with neither winning nor losing within a match-up, and Δ alike is 0 where Δ is
    +80 points."""
    from dominari.sim.runner import DominationsOptions
    from dominari.sim.tournament import _EntryMasteries

    split = _EntryMasteries(3, 2, DominationsOptions())
    for j in range(20):  # entry 0 loses every game to 1, and wins every game against 2
        split.add(0, GameResult((0, 1), (2, 1), (100, 200), "end", (0, 1),
                                (("S9d",) if j < 2 else ("C6b",), ("T3a",))))
        split.add(1, GameResult((0, 2), (1, 2), (200, 100), "end", (0, 1),
                                (("S9d",) if j < 18 else ("C6b",), ("T3a",))))
    cards = {c.card: c for c in split.cards()[0]}
    universities = cards["S9d"]
    assert (universities.held.games, universities.held.wins) == (20, 18)
    assert universities.difference == pytest.approx(0.8)  # 90% with it, 10% without
    assert universities.alike is not None
    difference, low, high = universities.alike
    assert difference == pytest.approx(0.0) and low < 0 < high
