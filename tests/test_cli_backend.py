"""``dominari simulate --backend``: local processes or Ray, same results; bad values and a
missing Ray are one-line errors."""

from __future__ import annotations

import json
import sys

import pytest

from dominari.cli import main

ARGS = ["simulate", "dominion", "--players", "bmu,smithy", "--kingdom", "first-game",
        "-n", "12", "--seed", "4", "--json"]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_unknown_backend_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *ARGS, "--backend", "bogus")
    assert code == 2
    assert out == ""
    assert err == "dominari: error: unknown backend 'bogus': use one of local, ray\n"


def test_backend_names_ignore_case(capsys: pytest.CaptureFixture[str]) -> None:
    code, default, err = run(capsys, *ARGS, "--workers", "1")
    assert code == 0, err
    code, local, err = run(capsys, *ARGS, "--workers", "2", "--backend", "LOCAL")
    assert code == 0, err
    assert json.loads(local) == json.loads(default)


def test_ray_backend_without_ray_says_how_to_install(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    code, out, err = run(capsys, *ARGS, "--backend", "ray")
    assert code == 2
    assert out == ""
    assert err == ("dominari: error: the ray backend needs Ray: "
                   "pip install 'dominari[cluster]'\n")  # fmt: skip


def test_ray_backend_gives_the_local_results(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The command starts a local cluster of --workers CPUs itself (a few seconds)."""
    ray = pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    code, local, err = run(capsys, *ARGS, "--workers", "1")
    assert code == 0, err
    started = not ray.is_initialized()
    try:
        code, out, err = run(capsys, *ARGS, "--workers", "2", "--backend", "ray")
    finally:
        if started:
            ray.shutdown()
    assert code == 0, err
    assert json.loads(out) == json.loads(local)
