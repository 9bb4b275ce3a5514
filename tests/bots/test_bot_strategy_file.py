"""Strategy files: the format, validation messages, built-ins and load_bot."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from dominari.bots import (
    BUILTIN_BOTS,
    BUILTIN_STRATEGIES,
    Bot,
    RandomBot,
    StrategyBot,
    builtin_strategy,
    load_bot,
    load_strategy,
)
from dominari.bots.strategy import DEFAULT_DISCARD, DEFAULT_TRASH, Options, parse_strategy_text
from dominari.core.errors import DominariError, StrategyError
from dominari.dominion import cards as C

FULL = """
name = "Village Smithy"
description = "a test strategy"
play = ["Village", "Smithy"]
discard = ["Curse", "Estate", "Copper"]
trash = ["Curse", "Estate"]

[[buy]]
card = "Province"
when = "total_money > 15"

[[buy]]
card = "Smithy"
when = "count('Smithy') < 2"

[[buy]]
card = "village"

[options]
chancellor = false
moat = false
chapel_min_money = 4
late_game_provinces = 3
remodel_gold = false
"""


def test_full_file(tmp_path: Path) -> None:
    path = tmp_path / "vs.toml"
    path.write_text(FULL, encoding="utf-8")
    bot = load_strategy(path)
    st = bot.strategy
    assert bot.name == st.name == "Village Smithy"
    assert st.description == "a test strategy"
    assert [r.card for r in st.buy] == [C.PROVINCE, C.SMITHY, C.VILLAGE]
    assert [r.when for r in st.buy] == ["total_money > 15", "count('Smithy') < 2", None]
    assert st.buy[2].cond is None and st.buy[0].cond is not None
    assert st.play == (C.VILLAGE, C.SMITHY)
    assert st.discard == (C.CURSE, C.ESTATE, C.COPPER)
    assert st.trash == (C.CURSE, C.ESTATE)
    assert st.options == Options(chancellor=False, moat=False, chapel_min_money=4,
                                 late_game_provinces=3, remodel_gold=False)
    assert st.source == str(path)
    assert isinstance(bot, Bot)


def test_minimal_file_defaults(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text('[[buy]]\ncard = "Gold"\n', encoding="utf-8")
    st = load_strategy(path).strategy
    assert st.name == "tiny"  # the file name
    assert st.description == "" and st.play == ()
    assert st.discard is None and st.trash is None
    assert st.options == Options()
    assert DEFAULT_DISCARD[0] == C.CURSE and DEFAULT_TRASH == (C.CURSE, C.ESTATE, C.COPPER)


RULE = '[[buy]]\ncard = "Gold"\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("this is = not toml", "not valid TOML"),
        ('nmae = "x"\n' + RULE, "unknown top-level key 'nmae' (allowed: name, description"),
        ('name = 3\n' + RULE, "'name' must be a non-empty string"),
        ('name = ""\n' + RULE, "'name' must be a non-empty string"),
        ('name = "bm\\u001b[2J"\n' + RULE, r"'name' must hold no control characters: "
                                          r"'bm\x1b[2J'"),
        ('name = "bm\\u202ex"\n' + RULE, r"'name' must hold no control characters: "
                                       r"'bm\u202ex'"),
        ("description = 1\n" + RULE, "'description' must be a string, not an integer"),
        ('name = "x"\n', "no buy rules"),
        ("buy = []\n", "no buy rules ('buy' is empty)"),
        ("x = " + "[" * 100_000 + "]" * 100_000 + "\n" + RULE, "nested too deeply"),
        ("buy = 3\n", "'buy' must be an array of tables"),
        ('buy = ["Gold"]\n', "'buy' must be an array of tables"),
        ("[buy]\ncard = 'Gold'\n", "'buy' must be an array of tables"),
        ('[[buy]]\nwhen = "coins > 3"\n', "buy rule 1: missing field 'card'"),
        (RULE + '[[buy]]\ncard = "Silver"\ncost = 3\n',
         "buy rule 2: unknown field 'cost' (allowed: card, when)"),
        (RULE + '[[buy]]\ncard = "Silver"\nplay = ["Smithy"]\n',
         "buy rule 2: unknown field 'play' (allowed: card, when); 'play' is a top-level key, "
         "which TOML puts in this [[buy]] table when it comes after one: move it above the "
         "first [[buy]]"),
        (RULE + '[[buy]]\ncard = "Platinum"\n',
         "buy rule 2 field 'card': unknown card 'Platinum'; not one of the 32 base-set cards"),
        ("[[buy]]\ncard = 6\n", "buy rule 1 field 'card': a card name must be a string, not an"),
        (RULE + RULE + '[[buy]]\ncard = "Silver"\nwhen = "coins >"\n',
         "buy rule 3 field 'when': invalid syntax"),
        (RULE + '[[buy]]\ncard = "Silver"\nwhen = "' + "(" * 300 + "1" + ")" * 300 + '"\n',
         "too many nested parentheses at column 201 in '((((("),
        (RULE + '[[buy]]\ncard = "Silver"\nwhen = "coins > ' + "9" * 5000 + '"\n',
         "buy rule 2 field 'when': Exceeds the limit (4300 digits) for integer string "
         "conversion: value has 5000 digits in 'coins > 999"),
        (RULE + '[[buy]]\ncard = "Silver"\nwhen = 3\n',
         "buy rule 2 field 'when': must be a string, not an integer"),
        (RULE + '[[buy]]\ncard = "Silver"\nwhen = "money > 3"\n',
         "buy rule 2 field 'when': unknown name 'money'"),
        (RULE + '[[buy]]\ncard = "Silver"\nwhen = "count(\'Silverr\') < 3"\n',
         "buy rule 2 field 'when': count('Silverr'): unknown card"),
        (RULE + '[[buy]]\ncard = "Silver"\nwhen = "__import__(\'os\')"\n',
         "buy rule 2 field 'when': calling '__import__' is not allowed"),
        ('play = "Smithy"\n' + RULE, "'play': must be a list of card names, not a string"),
        ('play = ["Smithy", "Gold"]\n' + RULE, "'play' item 2: Gold is not an Action card"),
        ('play = ["Smithy", "Smithy"]\n' + RULE, "'play' item 2: Smithy is listed twice"),
        ('play = ["Smity"]\n' + RULE, "'play' item 1: unknown card 'Smity'"),
        ('discard = ["Estate", 3]\n' + RULE,
         "'discard' item 2: a card name must be a string, not an integer"),
        ('trash = "Estate"\n' + RULE, "'trash': must be a list of card names"),
        ('trash = ["Estat"]\n' + RULE, "'trash' item 1: unknown card 'Estat'"),
        ("options = 3\n" + RULE, "'options' must be a table"),
        (RULE + "[options]\nchancelor = true\n",
         "options: unknown option 'chancelor' (known: chancellor, moat,"),
        (RULE + "[options]\nchancellor = 1\n",
         "options.chancellor: must be a boolean, not an integer"),
        (RULE + "[options]\nchapel_min_money = true\n",
         "options.chapel_min_money: must be an integer, not a boolean"),
        (RULE + '[options]\nlate_game_provinces = "4"\n',
         "options.late_game_provinces: must be an integer, not a string"),
        (RULE + "[options]\nlate_game_provinces = -1\n",
         "options.late_game_provinces: must not be negative"),
    ],
)
def test_errors_name_file_place_and_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StrategyError) as info:
        load_strategy(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: "), msg
    assert message in msg, msg
    assert "\n" not in msg
    assert isinstance(info.value, DominariError)


def test_a_file_name_with_a_control_character_is_no_bots_name(tmp_path: Path) -> None:
    """Without a ``name``, a strategy is named by its file: a tab there would split a table's
    row; the error says the name is the file's."""
    path = tmp_path / "my\tstrat.toml"
    path.write_text(RULE, encoding="utf-8")
    with pytest.raises(StrategyError, match=r"its file's name \(its bot's, without a 'name'\) "
                                            r"must hold no control characters: 'my\\tstrat'"):
        load_strategy(path)
    path.write_text('name = "My strat"\n' + RULE, encoding="utf-8")
    assert load_strategy(path).name == "My strat"


def test_a_file_name_that_is_not_utf8_names_the_strategy_in_text(tmp_path: Path) -> None:
    """A strategy named by its file (no ``name``) whose file name is not UTF-8 is
    named with a replacement character: records and JSON are text (writing one with the
    raw name failed after the games were played)."""
    import json
    import os

    path = os.path.join(os.fsencode(tmp_path), b"\xffgood.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(RULE)
    strategy = load_strategy(os.fsdecode(path))
    assert strategy.name == "\ufffdgood"
    json.dumps(strategy.name).encode("utf-8")  # writes as UTF-8


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(StrategyError, match="cannot read strategy file"):
        load_strategy(tmp_path / "missing.toml")
    with pytest.raises(StrategyError, match="cannot read strategy file"):
        load_strategy(tmp_path)  # a directory
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(StrategyError, match="not a UTF-8 text file"):
        load_strategy(binary)


def test_parse_text_source_name() -> None:
    with pytest.raises(StrategyError, match=r"^<mine>: no buy rules"):
        parse_strategy_text("", "<mine>")


def test_builtins_ship_as_package_data() -> None:
    folder = resources.files("dominari.bots").joinpath("strategies")
    shipped = sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml"))
    assert shipped == sorted(f"{name}.toml" for name in BUILTIN_STRATEGIES)
    assert ("random", *BUILTIN_STRATEGIES, "best") == BUILTIN_BOTS
    assert BUILTIN_STRATEGIES[:5] == ("bm", "bmu", "smithy", "smithy-market", "witch")
    assert len(set(BUILTIN_STRATEGIES)) == 14


@pytest.mark.parametrize("name", BUILTIN_STRATEGIES)
def test_builtins_load(name: str) -> None:
    bot = load_bot(name)
    assert isinstance(bot, StrategyBot) and isinstance(bot, Bot)
    assert bot.strategy == builtin_strategy(name)
    assert bot.strategy.buy and bot.strategy.description
    assert load_bot(name.upper()).name == bot.name  # any case
    assert load_bot(name) is not bot  # a fresh bot each time


def test_builtin_contents() -> None:
    bm = builtin_strategy("bm")
    assert [(r.card, r.when) for r in bm.buy] == [
        (C.PROVINCE, None), (C.GOLD, None), (C.SILVER, None)]
    bmu = builtin_strategy("bmu")
    assert [(C.NAME[r.card], r.when) for r in bmu.buy] == [
        ("Province", "total_money > 18"), ("Duchy", "provinces_left <= 4"),
        ("Estate", "provinces_left <= 2"), ("Gold", None), ("Duchy", "provinces_left <= 6"),
        ("Silver", None)]
    smithy = builtin_strategy("smithy")
    assert ("Smithy", "count('Smithy') < count_treasures / 11") in [
        (C.NAME[r.card], r.when) for r in smithy.buy]
    assert (smithy.buy[0].card, smithy.buy[0].when) == (C.PROVINCE, "total_money > 15")
    market = builtin_strategy("smithy-market")
    rules = [(C.NAME[r.card], r.when) for r in market.buy]
    assert rules[0] == ("Province", "total_money > 15 and (provinces_left > 1 or vp_lead + 6 > 0)")
    assert rules[1:5] == [(C.NAME[r.card], r.when) for r in smithy.buy][1:5]  # its greening
    assert rules[5:] == [("Smithy", "count('Smithy') < 1"), ("Market", None), ("Silver", None)]
    witch = builtin_strategy("witch")
    assert ("Witch", "count('Witch') < 2") in [(C.NAME[r.card], r.when) for r in witch.buy]


def test_load_bot_random_and_paths(tmp_path: Path) -> None:
    assert isinstance(load_bot("random"), RandomBot)
    assert isinstance(load_bot(" Random "), RandomBot)
    path = tmp_path / "mine.toml"
    path.write_text('name = "Mine"\n[[buy]]\ncard = "Gold"\n', encoding="utf-8")
    bot = load_bot(str(path))
    assert isinstance(bot, StrategyBot) and bot.name == "Mine"
    plain = tmp_path / "strategy-without-suffix"
    plain.write_text('[[buy]]\ncard = "Gold"\n', encoding="utf-8")
    assert load_bot(str(plain)).name == "strategy-without-suffix"


def test_load_bot_unknown(tmp_path: Path) -> None:
    with pytest.raises(StrategyError, match=r"unknown bot '.*': it is a folder; a strategy is "
                       r"a \.toml file \(or use one of random, bm"):
        load_bot(str(tmp_path))
    with pytest.raises(StrategyError) as info:
        load_bot("bigmoney")
    msg = str(info.value)
    assert "unknown bot 'bigmoney'" in msg
    for name in BUILTIN_BOTS:
        assert name in msg
    with pytest.raises(StrategyError, match="cannot read strategy file"):
        load_bot("no/such/file.toml")
    with pytest.raises(StrategyError, match="no built-in strategy"):
        builtin_strategy("nope")


def test_the_documented_complete_file_loads(tmp_path: Path) -> None:
    """The example in ``dominari.bots.strategy``'s docstring is a file that works."""
    import textwrap

    from dominari.bots import strategy as module

    doc = module.__doc__ or ""
    start = doc.index("A complete file::") + len("A complete file::")
    end = doc.index("A file may also name")
    path = tmp_path / "example.toml"
    path.write_text(textwrap.dedent(doc[start:end]).strip() + "\n", encoding="utf-8")
    bot = load_strategy(str(path))
    assert bot.name == "Smithy"
    strategy = bot.strategy
    assert [C.NAME[r.card] for r in strategy.buy] == ["Province", "Smithy", "Silver"]
    assert [C.NAME[c] for c in strategy.play] == ["Village", "Smithy"]
    assert strategy.options.late_game_provinces == 4
