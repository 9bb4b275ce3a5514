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
    head, *lines = journal.read_text(encoding="utf-8").splitlines()
    old = []
    for text in lines:
        run = json.loads(text)
        run["games"] = [game[:5] for game in run["games"]]
        old.append(json.dumps(run))
    journal.write_text("\n".join([head, *old]) + "\n", encoding="utf-8")
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
    assert "A card held is the player's choice" in out
    assert main([*args, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["by_mastery"]) == 3
