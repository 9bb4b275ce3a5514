"""The strategy condition language: evaluation and rejection of unsafe input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominari.bots.conditions import FUNCTIONS, VARIABLES, compile_condition
from dominari.core.errors import StrategyError
from dominari.dominion import cards as C
from dominari.dominion.engine import DominionConfig, DominionState


@pytest.fixture
def state() -> DominionState:
    s = DominionState.new(DominionConfig(players=3, kingdom="first-game", seed=11))
    p = s.turn_player
    ps = s.players[p]
    # Give the player a known collection: +2 Silver, +1 Gold, +1 Smithy, +1 Province.
    for card in (C.SILVER, C.SILVER, C.GOLD, C.SMITHY, C.PROVINCE):
        ps.discard.append(card)
        ps.owned[card] += 1
    ps.turns = 4
    other = s.players[(p + 1) % 3]
    other.owned[C.DUCHY] += 2
    s.supply[C.PROVINCE] -= 1
    s.supply[C.SMITHY] -= 1
    return s


def ev(text: str, s: DominionState, coins: int = 0) -> float:
    return compile_condition(text)(s, s.turn_player, coins)


def test_variables(state: DominionState) -> None:
    s = state
    p = s.turn_player
    assert ev("coins", s, 7) == 7
    assert ev("buys", s) == s.buys
    assert ev("actions", s) == s.actions
    assert ev("turn", s) == 4
    assert ev("total_money", s) == 7 + 4 + 3 == s.treasure_value(p)
    assert ev("count_treasures", s) == 10
    assert ev("count_actions", s) == 1
    assert ev("count_victory", s) == 4
    assert ev("cards_owned", s) == 15
    assert ev("provinces_left", s) == 11
    assert ev("empty_piles", s) == 0
    assert ev("players", s) == 3
    assert ev("my_vp", s) == 3 + 6 == s.score(p)
    assert ev("opponent_vp", s) == 3 + 6
    assert ev("vp_lead", s) == 0
    assert set(VARIABLES) >= {"coins", "total_money", "vp_lead"}


def test_functions(state: DominionState) -> None:
    s = state
    hand = s.players[s.turn_player].hand
    assert ev("count('Silver')", s) == 2
    assert ev("count('silver') == count('PLATA')", s)  # any case, Spanish names
    assert ev("count('Throne Room')", s) == 0
    assert ev("supply('Smithy')", s) == 9
    assert ev("supply('Witch')", s) == 0  # not in this game
    assert ev("supply('Curse')", s) == 20
    assert ev("in_hand('Estate')", s) == hand.count(C.ESTATE)
    assert set(FUNCTIONS) == {"count", "supply", "in_hand"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 / 2", 3.5),
        ("7 // 2", 3),
        ("7 % 4", 3),
        ("-3 + 1", -2),
        ("+3", 3),
        ("coins / 0", 0),
        ("coins // 0", 0),
        ("coins % 0", 0),
        ("5 / (coins - 5)", 0),
        ("1 < 2 < 3", True),
        ("1 < 3 < 2", False),
        ("3 > 2 >= 2 == 2 != 1 <= 1", True),
        ("not 0", True),
        ("not coins", False),
        ("0 or 4", 4),
        ("1 and 0", 0),
        ("0 and 1 and 2", 0),
        ("0 or 0 or 3", 3),
        ("coins > 4 and coins < 6", True),
        ("coins < 4 or coins == 5", True),
        ("not (coins == 5)", False),
        ("coins + 1 > 5.5", True),
        ("coins - 1", 4),
        ("coins * 2", 10),
        ("coins / 2", 2.5),
        ("2 * coins - coins", 5),
        ("coins / 2 / 5", 0.5),
        ("coins >= coins", True),
        ("coins != coins", False),
        ("1 < coins < 9 > 2", True),
    ],
)
def test_operators(state: DominionState, text: str, expected: float) -> None:
    assert ev(text, state, 5) == expected


def test_smithy_rule_from_the_brief(state: DominionState) -> None:
    rule = compile_condition("count('Smithy') < count_treasures / 11")
    s = state
    p = s.turn_player
    assert not rule(s, p, 4)  # 1 Smithy, 10 Treasures
    s.players[p].owned[C.COPPER] += 12
    assert rule(s, p, 4)  # 22 Treasures allow a second


_ints = st.integers(min_value=-50, max_value=50)


@st.composite
def _expressions(draw: st.DrawFn, depth: int = 0) -> str:
    if depth >= 3 or draw(st.booleans()):
        return str(draw(_ints)) if draw(st.booleans()) else "coins"
    op = draw(st.sampled_from(["+", "-", "*", "<", "<=", ">", ">=", "==", "!=", "and", "or"]))
    left = draw(_expressions(depth + 1))
    right = draw(_expressions(depth + 1))
    if draw(st.booleans()):
        return f"(not ({left} {op} {right}))"
    return f"({left} {op} {right})"


@settings(max_examples=200, deadline=None)
@given(_expressions(), st.integers(min_value=0, max_value=20))
def test_agrees_with_python(text: str, coins: int) -> None:
    s = DominionState.new(DominionConfig(seed=1))
    expected = eval(text, {"__builtins__": {}}, {"coins": coins})
    assert compile_condition(text)(s, s.turn_player, coins) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty condition"),
        ("   ", "empty condition"),
        ("coins >", "invalid syntax"),
        ("coins = 3", "invalid syntax"),
        ("money > 3", "unknown name 'money'"),
        ("count > 3", "count is a function"),
        ("count(Smithy) > 0", "card name in quotes"),
        ("count('Smithee') > 0", "unknown card 'Smithee'"),
        ("count('Smithy', 'Gold')", "exactly one card name"),
        ("count(card='Smithy')", "exactly one card name"),
        ("count()", "exactly one card name"),
        ("len('abc')", "calling 'len' is not allowed"),
        ("__import__('os').system('true')", "not allowed"),
        ("open('x')", "calling 'open' is not allowed"),
        ("coins.real", "attribute access"),
        ("(1).__class__", "attribute access"),
        ("coins[0]", "indexing"),
        ("coins ** 2", "'**' is not allowed"),
        ("coins << 2", "'<<' is not allowed"),
        ("coins & 1", "'&' is not allowed"),
        ("~coins", "'~' is not allowed"),
        ("'Gold' == 'Gold'", "a string is not allowed"),
        ("True", "True is not allowed"),
        ("None", "None is not allowed"),
        ("coins in (1, 2)", "'in' is not allowed"),
        ("coins is 1", "'is' is not allowed"),
        ("1 if coins else 2", "'if ... else'"),
        ("lambda: 1", "lambda"),
        ("[coins]", "lists"),
        ("{1: 2}", "dicts"),
        ("(x := 1)", "':='"),
        ("f'{coins}'", "f-strings"),
        ("coins > 1\nand coins < 3", "single line"),
        ("-" * 3000 + "1", "too deeply nested"),
        ("1" + " + 1" * 5000, "too deeply nested"),
    ],
)
def test_rejected(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as info:
        compile_condition(text, "f.toml: buy rule 3 field 'when'")
    text_of = str(info.value)
    assert text_of.startswith("f.toml: buy rule 3 field 'when': ")
    assert message in text_of


def test_not_a_string() -> None:
    with pytest.raises(StrategyError, match="must be a string"):
        compile_condition(3)  # type: ignore[arg-type]
