"""``dominari data check [DIR]``: validate component data and summarise it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dominari.cli import main
from dominari.dominations.data import builtin_folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_built_in_data(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "data", "check")
    assert code == 0, err
    assert err == ""
    assert "Dominations data: built-in" in out
    for kind, count in (("land tiles", "90"), ("mastery skills", "72"), ("nodus layouts", "342"),
                        ("level cards", "50"), ("objectives", "16")):  # fmt: skip
        line = next(line for line in out.splitlines() if kind in line)
        assert count in line.split(), line
        assert "built-in" in line
    assert "All 8 data files are valid: the built-in set." in out


def test_check_partial_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(builtin_folder() / "roles.json", tmp_path / "roles.json")
    code, out, err = run(capsys, "data", "check", str(tmp_path))
    assert code == 0, err
    roles = next(line for line in out.splitlines() if line.strip().startswith("roles"))
    assert roles.split()[-1] == "folder" and roles.split()[2:5] == ["6", "6", "0"]
    assert "(1 file there, the rest built-in)" in out
    for f in builtin_folder().glob("*.json"):  # a whole set: nothing is built-in
        shutil.copy(f, tmp_path / f.name)
    code, out, err = run(capsys, "data", "check", str(tmp_path))
    assert code == 0, err
    assert f"All 8 data files are valid: {tmp_path} (8 files there, none built-in)." \
        in out.replace("\n", "")


def test_check_bad_folder_is_one_line_and_exit_2(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    skills = json.loads((builtin_folder() / "skills.json").read_text(encoding="utf-8"))
    skills[13]["cost"] = "three"
    (tmp_path / "skills.json").write_text(json.dumps(skills), encoding="utf-8")
    code, out, err = run(capsys, "data", "check", str(tmp_path))
    assert code == 2 and out == ""
    assert err == (f"dominari: error: {tmp_path / 'skills.json'}: record C3b: field 'cost': "
                   "expected an integer, got \"three\"\n")  # fmt: skip


def test_check_missing_folder_and_usage(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "data", "check", str(tmp_path / "none"))
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    code, _, err = run(capsys, "data")
    assert code == 2 and err.startswith("dominari: error:") and "ACTION" in err
    code, _, err = run(capsys, "data", "check", "a", "b")
    assert code == 2 and "unrecognized arguments" in err
