"""Action notation, prefix parsing, records and configs."""

from __future__ import annotations

import json

import pytest

from dominari.core.errors import ConfigError, ParseError, RecordError
from dominari.dominion import cards as C
from dominari.dominion.actions import Action, parse
from dominari.dominion.engine import DominionConfig, DominionState


@pytest.mark.parametrize(
    ("text", "verb", "cards", "canonical"),
    [
        ("play Village", "play", ("Village",), "play Village"),
        ("PLAY throne room", "play", ("Throne Room",), "play Throne Room"),
        ("buy Council Room", "buy", ("Council Room",), "buy Council Room"),
        ("play Aldea", "play", ("Village",), "play Village"),
        ("discard estate copper", "discard", ("Estate", "Copper"), "discard Estate Copper"),
        ("trash Copper Copper Estate", "trash", ("Copper", "Copper", "Estate"),
         "trash Copper Copper Estate"),
        ("end", "end", (), "end"),
        ("Done", "done", (), "done"),
        ("pass", "pass", (), "pass"),
        ("discard-deck", "discard-deck", (), "discard-deck"),
        ("set-aside Smithy", "set-aside", ("Smithy",), "set-aside Smithy"),
        ("topdeck Gardens", "topdeck", ("Gardens",), "topdeck Gardens"),
    ],
)  # fmt: skip
def test_parse_and_print(text: str, verb: str, cards: tuple[str, ...], canonical: str) -> None:
    a = parse(text)
    assert a == Action(verb, tuple(C.card_id(c) for c in cards))
    assert str(a) == canonical and parse(canonical) == a


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty action"),
        ("jump", "unknown verb 'jump'"),
        ("end Copper", "'end' takes no card"),
        ("buy", "'buy' needs a card"),
        ("buy Dragon", "unknown card 'Dragon'"),
    ],
)
def test_parse_errors(text: str, match: str) -> None:
    with pytest.raises(ParseError, match=match):
        parse(text)


def test_parse_action_prefixes(kit) -> None:
    s = kit.position(hand=["Gold", "Gold", "Silver"])
    assert s.parse_action("b prov") == parse("buy Province")
    assert s.parse_action("e") == parse("end")
    with pytest.raises(ParseError, match="ambiguous"):
        s.parse_action("b s")
    with pytest.raises(ParseError, match="not a legal verb"):
        s.parse_action("pl Smithy")
    # Well-formed but illegal: returned as is, for apply() to say why.
    assert s.parse_action("play Smithy") == parse("play Smithy")
    with pytest.raises(ParseError, match="empty"):
        s.parse_action("  ")
    s2 = kit.position(hand=["Village", "Smithy", "Copper"], deck=["Estate"] * 5)
    assert s2.parse_action("p vil") == parse("play Village")
    assert s2.parse_action("play smi") == parse("play Smithy")


def _game(kit, seed: int = 8) -> DominionState:
    import random

    s = kit.new(3, "random", seed, max_turns=6)
    kit.play_random(s, random.Random(seed))
    return s


def test_record_contents_and_replay(kit) -> None:
    s = _game(kit)
    rec = s.record()
    assert rec["format"] == "dominari-record" and rec["version"] == 1
    assert rec["game"] == "dominion"
    assert rec["config"]["seed"] == 8 and rec["config"]["players"] == 3
    assert rec["kingdom"] == [C.NAME[c] for c in s.kingdom]
    assert rec["actions"] == [str(a) for a in s.history]
    assert rec["outcome"] == s.outcome().to_json()
    r = DominionState.from_record(json.loads(json.dumps(rec)))
    assert kit.snapshot(r) == kit.snapshot(s)


def test_record_of_unseeded_game_keeps_the_seed(kit) -> None:
    s = DominionState.new(DominionConfig(players=2))
    kit.act(s, *[str(a) for a in s.legal_actions()[-1:]])
    r = DominionState.from_record(s.record())
    assert kit.snapshot(r) == kit.snapshot(s)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda r: r.update(format="other"), "not a Dominari record"),
        (lambda r: r.update(version=99), "unsupported record version"),
        (lambda r: r.update(game="dominations"), "not dominion"),
        (lambda r: r["config"].update(seed=None), "no seed"),
        (lambda r: r["config"].update(players=7), "record config"),
        (lambda r: r["config"].update(colour="red"), "unknown config field"),
        (lambda r: r.update(actions="end"), "list of strings"),
        (lambda r: r["actions"].insert(0, "fly away"), "action 1"),
        (lambda r: r["actions"].insert(0, "buy Province"), "action 1"),
    ],
)
def test_bad_records(kit, change, match: str) -> None:
    rec = json.loads(json.dumps(_game(kit).record()))
    change(rec)
    with pytest.raises(RecordError, match=match):
        DominionState.from_record(rec)


def test_not_a_record() -> None:
    with pytest.raises(RecordError):
        DominionState.from_record([1, 2])


def test_config_json_round_trip_and_errors() -> None:
    cfg = DominionConfig(players=3, kingdom=("Witch", "Moat"), seed=4, max_turns=9,
                         names=("a", "b", "c"))
    assert DominionConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    with pytest.raises(ConfigError, match="names"):
        DominionConfig(players=2, names=("a",))
    with pytest.raises(ConfigError, match="max_turns"):
        DominionConfig(max_turns=0)
    with pytest.raises(ConfigError, match="seed"):
        DominionConfig(seed="x")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="kingdom"):
        DominionState.new(DominionConfig(kingdom="no-such-set"))
