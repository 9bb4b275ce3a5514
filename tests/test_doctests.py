"""The docstring examples of the library modules are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import dominari


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(dominari.__path__, "dominari."):
        if info.name.endswith("__main__") or ".web" in info.name:
            continue
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
