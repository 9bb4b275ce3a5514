"""The docstring examples of the library modules are tests too, those of a module's
attributes (a string literal after an assignment, which :mod:`doctest` does not find)
included."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import dominari


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(dominari.__path__, "dominari."):
        if info.name.endswith("__main__") or ".web" in info.name:
            continue
        names.append(info.name)
    return names


def _attribute_docstrings(module: ModuleType) -> dict[str, str]:
    """The docstrings of ``module``'s attributes that hold examples, by attribute name."""
    tree = ast.parse(inspect.getsource(module))
    found = {}
    for before, node in zip(tree.body, tree.body[1:], strict=False):
        if not (isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            continue
        target = before.targets[0] if isinstance(before, ast.Assign) else before.target
        if isinstance(target, ast.Name) and ">>>" in node.value.value:
            found[target.id] = node.value.value
    return found


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS)
    for attr, text in _attribute_docstrings(module).items():
        test = parser.get_doctest(text, dict(vars(module)), f"{name}.{attr}", name, 0)
        assert runner.run(test).failed == 0, f"the examples of {name}.{attr} failed"


def test_attribute_docstrings_are_found() -> None:
    """The search's settings are the attribute with examples this test exists for."""
    from dominari.bots import mcts

    assert "SETTINGS" in _attribute_docstrings(mcts)
