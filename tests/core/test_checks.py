"""What a library caller passes in is checked, with one clear ConfigError (issue 6: "every
error a user can cause gets one clear message"): the numbers of configs and searches, the
arguments of simulate and tournament, player indices."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dominari.bots import MCTSBot, load_bot
from dominari.core.checks import player, real, seed, whole
from dominari.core.errors import ConfigError, ParseError
from dominari.dominations import DominationsConfig, DominationsState, Rules
from dominari.dominion import DominionConfig, DominionState
from dominari.sim import MatchupResult, game_options, simulate, tournament


class FakeInt:
    """An integer type that is not ``int`` (as NumPy's are)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __index__(self) -> int:
        return self.n


import numbers  # noqa: E402

numbers.Integral.register(FakeInt)


def test_whole_numbers_of_any_integer_type_but_not_bools_floats_or_texts() -> None:
    assert whole(FakeInt(3), "games", 1) == 3 and type(whole(FakeInt(3), "games")) is int
    for bad in (True, 2.0, "2", None):
        with pytest.raises(ConfigError, match="games must be a whole number"):
            whole(bad, "games")
    with pytest.raises(ConfigError, match="games must be at least 1, not 0"):
        whole(0, "games", 1)
    assert seed(FakeInt(0)) == 0
    with pytest.raises(ConfigError, match="a seed is a whole number of 0 or more, not -5"):
        seed(-5)
    with pytest.raises(ConfigError, match="must be a finite number"):
        real(float("inf"), "c")
    with pytest.raises(ConfigError, match="margin must be between 0 and 1, not 2"):
        real(2, "margin", 0.0, 1.0)
    with pytest.raises(ConfigError, match="no player 2: the players are 0 to 1"):
        player(2, 2)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"iterations": float("nan")}, "iterations must be a whole number"),
    ({"iterations": 30.5}, "iterations must be a whole number"),
    ({"iterations": True}, "iterations must be a whole number"),
    ({"iterations": "30"}, "iterations must be a whole number"),
    ({"width": 2.5}, "width must be a whole number"),
    ({"cutoff": 2.5}, "cutoff must be a whole number"),
    ({"seconds": float("nan"), "iterations": None}, "seconds per decision must be a finite"),
    ({"seconds": "1"}, "seconds per decision must be a number"),
    ({"c": float("nan")}, "exploration constant c must be a finite number"),
    ({"c": "x"}, "exploration constant c must be a number"),
    ({"paired": "no"}, "paired must be True or False, not 'no'"),
    ({"seed": -3}, "the search's seed is a whole number of 0 or more"),
    ({"own": load_bot("bmu")}, "own names a rule bot"),
])
def test_a_search_refuses_what_it_cannot_use(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        MCTSBot("dominion", **kwargs)


def test_a_budget_of_seconds_or_steps_alone_is_not_capped_by_iterations() -> None:
    assert MCTSBot("dominion").iterations == 200
    assert MCTSBot("dominion", seconds=1.0).iterations is None
    assert MCTSBot("dominion", steps=5000).iterations is None
    assert MCTSBot("dominion", steps=5000, iterations=10).iterations == 10
    assert MCTSBot("Dominion", iterations=FakeInt(30)).iterations == 30  # type: ignore[arg-type]
    assert load_bot("bmu", "Dominion").name == "BMU"
    with pytest.raises(ConfigError, match="a bot is named by a string"):
        load_bot(load_bot("bmu"))  # type: ignore[arg-type]


def test_seeds_are_0_or_more_and_configs_check_their_fields() -> None:
    with pytest.raises(ConfigError, match="the seed is a whole number of 0 or more, not -5"):
        DominionConfig(seed=-5)
    with pytest.raises(ConfigError, match="the seed is a whole number of 0 or more"):
        DominationsConfig(seed=-5)
    for bad in (1.5, "x", True):
        with pytest.raises(ConfigError, match="the seed is a whole number"):
            DominationsConfig(seed=bad)  # type: ignore[arg-type]
    assert isinstance(DominationsConfig(seed=None).seed, int)  # drawn, as Dominion's
    assert DominionConfig(seed=FakeInt(3)).seed == 3  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="kingdom must be a set's name"):
        DominionConfig(kingdom=123)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="rules must be a Rules object"):
        DominationsConfig(rules={"variant": "prototype"})  # type: ignore[arg-type]
    assert DominationsConfig(rules=Rules()).rules == Rules()


def test_player_indices_and_rngs_are_checked() -> None:
    d = DominionState.new(DominionConfig(seed=1))
    m = DominationsState.new(DominationsConfig(seed=1, log=False))
    for state in (d, m):
        for bad in (5, -1, "0", True):
            with pytest.raises(ConfigError, match="no player"):
                state.view(bad)  # type: ignore[arg-type]
            with pytest.raises(ConfigError, match="no player"):
                state.determinize(bad, random.Random(1))  # type: ignore[arg-type]
        with pytest.raises(ConfigError, match=r"determinize needs a random\.Random"):
            state.determinize(0, 42)
        with pytest.raises(ParseError, match="an action's notation is a string"):
            state.parse_action(5)  # type: ignore[arg-type]
        assert state.view(None) is not None  # a spectator
    record = d.record()
    with pytest.raises(ConfigError, match="upto must be a number of actions, 0 or more"):
        DominionState.from_record(record, upto=-1)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: simulate("bmu,smithy", 2, 1), "players are a list of bot specs, one per seat, "
                                           "not the string 'bmu,smithy': ['bmu', 'smithy']"),
    (lambda: simulate([load_bot("bmu"), load_bot("smithy")], 2, 1),
     "players are named by their specs"),
    (lambda: simulate(["bmu", "smithy"], 2.0, 1), "the number of games must be a whole number"),
    (lambda: simulate(["bmu", "smithy"], 2, -1), "the seed is a whole number of 0 or more"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, game=123), "unknown game 123"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, kingdom=123), "kingdom must be a set's name"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, options={"game": "dominion"}),
     "options must be game_options"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, options=game_options("dominion"),
                      kingdom="interaction"), "kingdom given beside options"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, options=game_options("dominion"),
                      max_turns=3), "max_turns given beside options"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, progress=5), "progress must be a function"),
    (lambda: simulate(["bmu", "smithy"], 2, 1, start_method="bogus"),
     "start_method must be spawn, fork or forkserver"),
    (lambda: tournament("bmu,smithy", 1, 1), "players are a list of bot specs"),
    (lambda: tournament(["bmu", "smithy"], 1, 1, options=game_options("dominion"),
                        kingdom="interaction"), "kingdom given beside options"),
])
def test_simulate_and_tournament_refuse_bad_arguments(call: Any, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        call()
    assert words in str(caught.value)


def test_numpy_like_integers_run_and_give_plain_json() -> None:
    import json

    result = simulate(["bmu", "smithy"], FakeInt(2), FakeInt(3), workers=1,  # type: ignore[arg-type]
                      kingdom="first-game")
    assert result.games == 2 and type(result.games) is int
    assert json.loads(json.dumps(result.to_json()))["games"] == 2
    assert MatchupResult.__name__ == "MatchupResult"


@pytest.mark.parametrize("name", ["Bob\x1b[2J", "Bob\n", "Bob\t", "\x00", "Bob\x9b",
                                  "Bo\u202eb", "Bob\u2066", "Bob\u2028"])  # fmt: skip
def test_a_name_a_terminal_or_page_would_act_on_is_refused(name: str) -> None:
    """Names reach terminals (``replay``) and pages (the server's): control characters and
    bidirectional overrides are refused by both games' configs; a record's config, or a
    game stored before the check, reads such a name as its escapes, so it still replays;
    other letters, marks, spaces and signs are names."""
    for config in (DominionConfig, DominationsConfig):
        with pytest.raises(ConfigError, match=r"a player's name must hold no control "
                                              r"characters: "):
            config(players=2, names=("Ann", name))
    for state in (DominionState.new(DominionConfig(seed=1)),
                  DominationsState.new(DominationsConfig(seed=1))):
        record = state.record()
        record["config"]["names"] = ["Ann", name]
        again = type(state).from_record(record)
        assert again.config.names == ("Ann", repr(name)[1:-1])  # as its escapes
        assert type(again).from_record(again.record()).config.names == again.config.names
    for bad in (5, None, b"Bob"):
        with pytest.raises(ConfigError, match=f"a player's name must be text, not {bad!r}"):
            DominionConfig(players=2, names=("Ann", bad))  # type: ignore[arg-type]
        with pytest.raises(ConfigError, match=f"a player's name must be text, not {bad!r}"):
            DominationsConfig(players=2, names=("Ann", bad))  # type: ignore[arg-type]
    for fine in ("Zoë 李", "Ann\u00a0B", "R2-D2 (bot) #1", "\u05d0\u05d1\u200f", "Ali\u200e"):
        assert DominionConfig(players=2, names=("Ann", fine)).names[1] == fine
        assert DominationsConfig(players=2, names=("Ann", fine)).names[1] == fine
