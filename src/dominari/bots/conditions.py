"""A small, safe condition language for strategy files, compiled to closures.

A condition is one expression in a subset of Python syntax::

    total_money > 15 and provinces_left <= 4
    count('Smithy') < count_treasures / 11
    2 <= supply('Curse') < 5 or not in_hand('Moat')

Allowed: numbers, the variables in :data:`VARIABLES`, comparisons (chains too),
``and``/``or``/``not``, ``+ - * / // %``, unary minus, parentheses and calls of
the functions in :data:`FUNCTIONS` with one card name in quotes. Division or
modulo by zero gives 0. Anything else (attributes, other calls, strings outside
a call, lambdas, ...) is rejected when the file is loaded.

The text is parsed once with :mod:`ast` and turned into nested closures of
``(state, player, coins)``: card names become card ids at load time, so no
string or dict work happens while a game runs. ``coins`` is passed in because a
gain decision (Workshop, Feast, Remodel) evaluates the buy rules with the gain
limit in place of the coins in hand.

>>> from dominari.dominion.engine import DominionState, DominionConfig
>>> s = DominionState.new(DominionConfig(seed=1))
>>> p = s.turn_player
>>> compile_condition("total_money == 7 and count('Estate') == 3")(s, p, 0)
True
>>> compile_condition("provinces_left - 1 > 6 > coins")(s, p, 5)
True
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from dominari.core.errors import ParseError, StrategyError
from dominari.dominion import cards as C

if TYPE_CHECKING:
    from dominari.dominion.engine import DominionState

Expr = Callable[["DominionState", int, int], float]
"""A compiled expression: ``(state, player, coins) -> number`` (bools are numbers)."""


# ------------------------------------------------------------------ variables
def _coins(s: DominionState, p: int, c: int) -> float:
    return c


def _buys(s: DominionState, p: int, c: int) -> float:
    return s.buys


def _actions(s: DominionState, p: int, c: int) -> float:
    return s.actions


def _turn(s: DominionState, p: int, c: int) -> float:
    return s.players[p].turns


def _total_money(s: DominionState, p: int, c: int) -> float:
    o = s.players[p].owned
    return o[C.COPPER] + 2 * o[C.SILVER] + 3 * o[C.GOLD]


def _count_treasures(s: DominionState, p: int, c: int) -> float:
    o = s.players[p].owned
    return o[C.COPPER] + o[C.SILVER] + o[C.GOLD]


def _count_actions(s: DominionState, p: int, c: int) -> float:
    o = s.players[p].owned
    return sum([o[k] for k in s.kingdom if C.IS_ACTION[k]])


def _count_victory(s: DominionState, p: int, c: int) -> float:
    o = s.players[p].owned
    return o[C.ESTATE] + o[C.DUCHY] + o[C.PROVINCE] + o[C.GARDENS]


def _cards_owned(s: DominionState, p: int, c: int) -> float:
    return sum(s.players[p].owned)


def _provinces_left(s: DominionState, p: int, c: int) -> float:
    return s.supply[C.PROVINCE]


def _empty_piles(s: DominionState, p: int, c: int) -> float:
    return s.empty_piles


def _players(s: DominionState, p: int, c: int) -> float:
    return s.num_players


def _my_vp(s: DominionState, p: int, c: int) -> float:
    return s.score(p)


def _opponent_vp(s: DominionState, p: int, c: int) -> float:
    return max([s.score(q) for q in range(s.num_players) if q != p])


def _vp_lead(s: DominionState, p: int, c: int) -> float:
    return s.score(p) - _opponent_vp(s, p, c)


VARIABLES: dict[str, tuple[Expr, str]] = {
    "coins": (_coins, "coins available (the gain limit when gaining)"),
    "buys": (_buys, "Buys left this turn"),
    "actions": (_actions, "Actions left this turn"),
    "turn": (_turn, "your own turn number (1 on your first turn)"),
    "total_money": (_total_money, "coins of all Treasures you own"),
    "count_treasures": (_count_treasures, "Treasure cards you own"),
    "count_actions": (_count_actions, "Action cards you own"),
    "count_victory": (_count_victory, "Victory cards you own (not Curses)"),
    "cards_owned": (_cards_owned, "all cards you own"),
    "provinces_left": (_provinces_left, "Provinces left in the Supply"),
    "empty_piles": (_empty_piles, "empty Supply piles"),
    "players": (_players, "number of players"),
    "my_vp": (_my_vp, "your victory points now"),
    "opponent_vp": (_opponent_vp, "the best opponent's victory points now"),
    "vp_lead": (_vp_lead, "my_vp - opponent_vp"),
}


# ------------------------------------------------------------------ functions
def _fn_count(card: int) -> Expr:
    def count(s: DominionState, p: int, c: int) -> float:
        return s.players[p].owned[card]

    return count


def _fn_supply(card: int) -> Expr:
    def supply(s: DominionState, p: int, c: int) -> float:
        return s.supply[card]  # piles not in the game are 0

    return supply


def _fn_in_hand(card: int) -> Expr:
    def in_hand(s: DominionState, p: int, c: int) -> float:
        return s.players[p].hand.count(card)

    return in_hand


FUNCTIONS: dict[str, tuple[Callable[[int], Expr], str]] = {
    "count": (_fn_count, "copies of the card you own"),
    "supply": (_fn_supply, "cards left in its Supply pile (0 if not in the game)"),
    "in_hand": (_fn_in_hand, "copies of the card in your hand"),
}

ALLOWED = (
    "numbers, the variables " + ", ".join(VARIABLES) + ", comparisons, and/or/not, "
    "+ - * / // %, parentheses and " + ", ".join(f"{f}('Card')" for f in FUNCTIONS)
)


class _Reject(Exception):
    """Raised inside the compiler; turned into a StrategyError with the location."""


# ------------------------------------------------------------------ compiler
def _div(a: float, b: float) -> float:
    return a / b if b else 0


def _floordiv(a: float, b: float) -> float:
    return a // b if b else 0


def _mod(a: float, b: float) -> float:
    return a % b if b else 0


_BINOPS: dict[type[ast.operator], tuple[str, Callable[[float, float], float]]] = {
    ast.Add: ("+", lambda a, b: a + b),
    ast.Sub: ("-", lambda a, b: a - b),
    ast.Mult: ("*", lambda a, b: a * b),
    ast.Div: ("/", _div),
    ast.FloorDiv: ("//", _floordiv),
    ast.Mod: ("%", _mod),
}

_CMPOPS: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}


def _const(value: float) -> Expr:
    def const(s: DominionState, p: int, c: int) -> float:
        return value

    return const


def _compare_const(left: Expr, op: type[ast.cmpop], k: float) -> Expr:
    """``left <op> k`` with a constant right side: the common case, one call fewer."""
    if op is ast.Lt:
        return lambda s, p, c: left(s, p, c) < k
    if op is ast.LtE:
        return lambda s, p, c: left(s, p, c) <= k
    if op is ast.Gt:
        return lambda s, p, c: left(s, p, c) > k
    if op is ast.GtE:
        return lambda s, p, c: left(s, p, c) >= k
    if op is ast.Eq:
        return lambda s, p, c: left(s, p, c) == k
    return lambda s, p, c: left(s, p, c) != k


def _compare2(left: Expr, op: type[ast.cmpop], right: Expr) -> Expr:
    if op is ast.Lt:
        return lambda s, p, c: left(s, p, c) < right(s, p, c)
    if op is ast.LtE:
        return lambda s, p, c: left(s, p, c) <= right(s, p, c)
    if op is ast.Gt:
        return lambda s, p, c: left(s, p, c) > right(s, p, c)
    if op is ast.GtE:
        return lambda s, p, c: left(s, p, c) >= right(s, p, c)
    if op is ast.Eq:
        return lambda s, p, c: left(s, p, c) == right(s, p, c)
    return lambda s, p, c: left(s, p, c) != right(s, p, c)


def _describe(node: ast.AST) -> str:
    try:
        return repr(ast.unparse(node))
    except Exception:  # pragma: no cover - unparse handles every parsed node
        return type(node).__name__


MAX_NUMBER = 1_000_000_000
"""The largest number a condition may write: no sensible threshold comes near it, and a
larger one could overflow a division while a game is played."""


class _Compiler:
    """Compiles a validated expression tree; returns (closure, constant or None)."""

    def compile(self, node: ast.AST) -> tuple[Expr, float | None]:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool) or not isinstance(v, int | float):
                what = "a string" if isinstance(v, str) else repr(v)
                hint = " (card names go inside count(), supply() or in_hand())" if isinstance(
                    v, str) else ""
                raise _Reject(f"{what} is not allowed here{hint}")
            if not -MAX_NUMBER <= v <= MAX_NUMBER:  # nan too: no comparison holds for it
                raise _Reject(f"the number {_describe(node)} is out of range (at most "
                              f"{MAX_NUMBER:,} either way)")
            return _const(v), v
        if isinstance(node, ast.Name):
            entry = VARIABLES.get(node.id)
            if entry is None:
                hint = (f" ({node.id} is a function: write {node.id}('Card'))"
                         if node.id in FUNCTIONS else "")
                raise _Reject(f"unknown name {node.id!r}{hint}; variables are: "
                              + ", ".join(VARIABLES))
            return entry[0], None
        if isinstance(node, ast.Call):
            return self._call(node), None
        if isinstance(node, ast.UnaryOp):
            fn, k = self.compile(node.operand)
            if isinstance(node.op, ast.Not):
                if k is not None:
                    return _const(not k), float(not k)
                return (lambda s, p, c: not fn(s, p, c)), None
            if isinstance(node.op, ast.USub):
                if k is not None:
                    return _const(-k), -k
                return (lambda s, p, c: -fn(s, p, c)), None
            if isinstance(node.op, ast.UAdd):
                return fn, k
            raise _Reject("the operator '~' is not allowed")
        if isinstance(node, ast.BinOp):
            binop = _BINOPS.get(type(node.op))
            if binop is None:
                sym = {ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
                       ast.LShift: "<<", ast.RShift: ">>", ast.MatMult: "@"}.get(
                    type(node.op), type(node.op).__name__)
                raise _Reject(f"the operator '{sym}' is not allowed (use + - * / // %)")
            opfn = binop[1]
            lf, lk = self.compile(node.left)
            rf, rk = self.compile(node.right)
            if lk is not None and rk is not None:
                v = opfn(lk, rk)
                return _const(v), v
            if rk is not None and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
                kk = rk
                if isinstance(node.op, ast.Add):
                    return (lambda s, p, c: lf(s, p, c) + kk), None
                if isinstance(node.op, ast.Sub):
                    return (lambda s, p, c: lf(s, p, c) - kk), None
                if isinstance(node.op, ast.Mult):
                    return (lambda s, p, c: lf(s, p, c) * kk), None
                if kk:
                    return (lambda s, p, c: lf(s, p, c) / kk), None
            return (lambda s, p, c: opfn(lf(s, p, c), rf(s, p, c))), None
        if isinstance(node, ast.BoolOp):
            parts = [self.compile(v)[0] for v in node.values]
            if isinstance(node.op, ast.And):
                if len(parts) == 2:
                    a, b = parts
                    return (lambda s, p, c: a(s, p, c) and b(s, p, c)), None

                def all_of(s: DominionState, p: int, c: int) -> float:
                    v: float = True
                    for f in parts:
                        v = f(s, p, c)
                        if not v:
                            return v
                    return v

                return all_of, None
            if len(parts) == 2:
                a, b = parts
                return (lambda s, p, c: a(s, p, c) or b(s, p, c)), None

            def any_of(s: DominionState, p: int, c: int) -> float:
                v: float = False
                for f in parts:
                    v = f(s, p, c)
                    if v:
                        return v
                return v

            return any_of, None
        if isinstance(node, ast.Compare):
            return self._compare(node), None
        what = {
            ast.Attribute: "attribute access ('.')", ast.Subscript: "indexing ('[...]')",
            ast.IfExp: "'if ... else' expressions", ast.Lambda: "lambda",
            ast.List: "lists", ast.Tuple: "tuples", ast.Dict: "dicts", ast.Set: "sets",
            ast.NamedExpr: "':='", ast.JoinedStr: "f-strings",
        }.get(type(node), type(node).__name__)
        raise _Reject(f"{what} not allowed; conditions may use {ALLOWED}")

    def _call(self, node: ast.Call) -> Expr:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise _Reject(f"calling {_describe(node.func)} is not allowed; the functions are "
                          + ", ".join(f"{f}('Card')" for f in FUNCTIONS))
        fname = node.func.id
        if node.keywords or len(node.args) != 1:
            raise _Reject(f"{fname}() takes exactly one card name, e.g. {fname}('Smithy')")
        arg = node.args[0]
        if not isinstance(arg, ast.Constant) or not isinstance(arg.value, str):
            raise _Reject(f"{fname}() takes a card name in quotes, e.g. {fname}('Smithy'), "
                          f"not {_describe(arg)}")
        try:
            card = C.card_id(arg.value)
        except ParseError:
            raise _Reject(f"{fname}({arg.value!r}): unknown card {arg.value!r}; "
                          "not one of the 32 base-set cards") from None
        return FUNCTIONS[fname][0](card)

    def _compare(self, node: ast.Compare) -> Expr:
        ops = [type(o) for o in node.ops]
        for o in node.ops:
            if type(o) not in _CMPOPS:
                sym = {ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
                raise _Reject(f"the comparison '{sym.get(type(o), type(o).__name__)}' is not "
                              "allowed (use < <= > >= == !=)")
        operands = [self.compile(node.left), *(self.compile(x) for x in node.comparators)]
        if len(ops) == 1:
            (lf, _), (rf, rk) = operands
            if rk is not None:
                return _compare_const(lf, ops[0], rk)
            return _compare2(lf, ops[0], rf)
        fns = [f for f, _ in operands]
        cmps = [_CMPOPS[o] for o in ops]
        pairs = list(zip(cmps, fns[1:], strict=True))
        first = fns[0]

        def chain(s: DominionState, p: int, c: int) -> float:
            left = first(s, p, c)
            for cmp, f in pairs:
                right = f(s, p, c)
                if not cmp(left, right):
                    return False
                left = right
            return True

        return chain


def compile_condition(text: str, where: str = "condition") -> Expr:
    """Compile ``text``; raise :class:`StrategyError` (prefixed with ``where``) if it is
    not a valid condition."""
    if not isinstance(text, str):
        raise StrategyError(f"{where}: a condition must be a string, not {type(text).__name__}")
    if not text.strip():
        raise StrategyError(f"{where}: empty condition")
    if "\n" in text.strip():
        raise StrategyError(f"{where}: a condition must be a single line")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError) as exc:  # ValueError: a null character
        col = f" at column {exc.offset}" if isinstance(exc, SyntaxError) and exc.offset else ""
        reason = (exc.msg if isinstance(exc, SyntaxError) else str(exc)).split(";")[0]
        shown = text.strip()
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise StrategyError(f"{where}: {reason}{col} in {shown!r}") from None
    except (RecursionError, MemoryError):
        raise StrategyError(f"{where}: condition too deeply nested") from None
    try:
        fn, _ = _Compiler().compile(tree.body)
    except _Reject as exc:
        raise StrategyError(f"{where}: {exc} (in {text.strip()!r})") from None
    except RecursionError:
        raise StrategyError(f"{where}: condition too deeply nested") from None
    return fn
