"""The data generator ``scripts/generate_dominations_data.py`` (data spec §4 nodus layouts, §5
land tiles): its PRNG, its rules, its self-tests, and that the committed files are its output."""

from __future__ import annotations

import doctest
import importlib.util
import json
import shutil
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dominari.dominations.data import builtin_folder

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "generate_dominations_data.py"
DOMAINS = "TCASGR"


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    """The generator script, imported from its file (``scripts/`` is not a package)."""
    spec = importlib.util.spec_from_file_location("generate_dominations_data", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def raw(name: str) -> Any:
    return json.loads((builtin_folder() / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sources() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    return raw("skills.json"), raw("monuments.json"), raw("campfires.json")


@pytest.fixture(scope="module")
def layouts(gen: ModuleType, sources: Any) -> dict[str, list[str]]:
    result: dict[str, list[str]] = gen.generate_layouts(*sources)
    return result


# ---------------------------------------------------------------- PRNG and seeds
def test_doctests(gen: ModuleType) -> None:
    result = doctest.testmod(gen)
    assert result.attempted > 0 and result.failed == 0


def test_splitmix64_reference_values(gen: ModuleType) -> None:
    """SplitMix64 from seed 0: the published reference sequence."""
    rng = gen.SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    ]  # fmt: skip
    rng = gen.SplitMix64(0)
    assert rng.rand(10) == 0xE220A8397B1DCDAF % 10


def test_fnv1a64_reference_values_and_seed(gen: ModuleType) -> None:
    assert gen.fnv1a64(b"") == 0xCBF29CE484222325
    assert gen.fnv1a64(b"foobar") == 0x85944171F73967E8
    assert gen.layout_seed("T3a") == gen.fnv1a64(b"dominations-layout/T3a")


def test_shuffle_is_fisher_yates_from_the_back(gen: ModuleType) -> None:
    items = list(range(8))
    gen.SplitMix64(42).shuffle(items)
    expected = list(range(8))
    rng = gen.SplitMix64(42)
    for i in range(7, 0, -1):
        j = rng.next() % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert sorted(items) == list(range(8))


# ---------------------------------------------------------------- committed output
def test_committed_files_are_the_generator_output(gen: ModuleType, sources: Any) -> None:
    texts = gen.build()
    for name, text in texts.items():
        assert (builtin_folder() / name).read_text(encoding="utf-8") == text, name
    assert raw("tiles.json") == gen.generate_tiles()
    assert raw("layouts.json") == gen.generate_layouts(*sources)
    assert list(raw("layouts.json")) == sorted(raw("layouts.json"))


def test_check_mode_and_write_mode(gen: ModuleType, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert gen.main(["--check"]) == 0
    for f in builtin_folder().glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    stale = tmp_path / "layouts.json"
    stale.write_text(stale.read_text(encoding="utf-8").replace('"V"', '"X"', 1), encoding="utf-8")
    (tmp_path / "tiles.json").unlink()
    assert gen.main(["--check", "--data-dir", str(tmp_path)]) == 1
    assert "layouts.json" in capsys.readouterr().err
    assert gen.main(["--data-dir", str(tmp_path)]) == 0
    assert gen.main(["--check", "--data-dir", str(tmp_path)]) == 0
    for name in ("tiles.json", "layouts.json"):
        assert (tmp_path / name).read_bytes() == (builtin_folder() / name).read_bytes()


def test_output_is_stable_json(gen: ModuleType) -> None:
    text = gen.render_layouts({"A-1": ["T", "V", "C", "X"], "B-1": ["V", "V", "V", "V"]})
    assert text == '{\n  "A-1": ["T", "V", "C", "X"],\n  "B-1": ["V", "V", "V", "V"]\n}\n'
    assert gen.render_json({"a": [1, 2]}) == '{"a": [1, 2]}'
    wide = gen.render_json({"a": list(range(40))}, width=20)
    assert json.loads(wide) == {"a": list(range(40))}
    assert all(len(line) <= 20 for line in wide.splitlines())


# ---------------------------------------------------------------- §4 self-tests
def test_self_tests_pass(gen: ModuleType, layouts: dict[str, list[str]], sources: Any) -> None:
    assert gen.self_test(layouts, *sources) == []


def test_self_tests_catch_a_broken_layout(gen: ModuleType, layouts: dict[str, list[str]],
                                          sources: Any) -> None:  # fmt: skip
    broken = dict(layouts)
    broken["C3b-1"] = ["X", "X", "V", "V"]
    broken["M03-L2"] = ["C", "C", "C", "C"]
    broken["F1"] = ["V", "T", "V", "V"]
    problems = "\n".join(gen.self_test(broken, *sources))
    assert "C3b" in problems and "M03-L2" in problems and "F1" in problems
    assert "C3b-1: cannot be placed next to a lone campfire" in problems


def test_counts_288_50_4(layouts: dict[str, list[str]]) -> None:
    kinds = Counter("level" if "-L" in k else "campfire" if k.startswith("F") else "copy"
                    for k in layouts)  # fmt: skip
    assert kinds == {"copy": 288, "level": 50, "campfire": 4}
    assert all(len(sides) == 4 for sides in layouts.values())


@pytest.mark.rule("D-SET-2")
def test_mastery_halves_per_name(layouts: dict[str, list[str]], sources: Any) -> None:
    """Per name: 16 halves, 7 own, each of the 5 others at least once (6 in all; the sixth is the
    prerequisite domain for 9s), 2 V, 1 X, and four copies that differ."""
    skills = sources[0]
    own_total: Counter[str] = Counter()
    for s in skills:
        copies = [layouts[f"{s['id']}-{k}"] for k in range(1, 5)]
        halves = Counter(h for c in copies for h in c)
        d = s["domain"]
        others = Counter({h: n for h, n in halves.items() if h in DOMAINS and h != d})
        assert sum(halves.values()) == 16
        assert halves[d] == 7 and halves["V"] == 2 and halves["X"] == 1, s["id"]
        assert set(others) == set(DOMAINS) - {d} and sum(others.values()) == 6, s["id"]
        if s["cost"] == 9:
            assert others[s["prerequisite"]["domain"]] == 2, s["id"]
        assert len({tuple(sorted(c)) for c in copies}) == 4, s["id"]
        assert len({tuple(c) for c in copies}) == 4
        for c in copies:
            assert c.count("X") <= 1
            assert sum(h in (d, "V") for h in c) >= 2
            assert sum(h in DOMAINS for h in c) >= 2
        own_total[d] += halves[d]
    assert own_total == dict.fromkeys(DOMAINS, 84)


def test_mastery_copy_shapes(gen: ModuleType) -> None:
    """copy1 = 2 own + 2 others, copy2 = 2 own + other + V, copy3 = own + 2 others + V,
    copy4 = 2 own + other + X (each then shuffled)."""
    for sid, d, cost, pre in (("T3a", "T", 3, None), ("C9d", "C", 9, "G"), ("R6b", "R", 6, None)):
        c1, c2, c3, c4 = (Counter(c) for c in gen.mastery_copies(sid, d, cost, pre))
        assert c1[d] == 2 and sum(n for h, n in c1.items() if h != d) == 2 and len(c1) == 3
        assert c2[d] == 2 and c2["V"] == 1
        assert c3[d] == 1 and c3["V"] == 1 and len(c3) == 4
        assert c4[d] == 2 and c4["X"] == 1
    with pytest.raises(ValueError, match="prerequisite"):
        gen.mastery_copies("Z9a", "T", 9, None)


def test_each_record_has_its_own_seed(gen: ModuleType, sources: Any) -> None:
    """Editing one card does not move the layouts of the others."""
    skills, monuments, campfires = sources
    before = gen.generate_layouts(skills, monuments, campfires)
    edited = [dict(s) for s in skills]
    edited[0]["domain"] = "C"
    after = gen.generate_layouts(edited, monuments, campfires)
    changed = {k for k in before if before[k] != after[k]}
    assert changed and all(k.startswith(f"{skills[0]['id']}-") for k in changed)


def test_level_cards_and_campfires(layouts: dict[str, list[str]], sources: Any) -> None:
    """Level cards are [V, V, dm, other] shuffled, never X; campfires are all vestigium."""
    _, monuments, campfires = sources
    for m in monuments:
        others = []
        for level in m["levels"]:
            sides = Counter(layouts[level["id"]])
            assert sides["V"] == 2 and sides[m["domain"]] == 1 and "X" not in sides
            (other,) = (h for h in sides if h not in ("V", m["domain"]))
            others.append(other)
        # others[(r + k - 1) mod 5]: consecutive levels take consecutive other domains.
        ring = [d for d in DOMAINS if d != m["domain"]]
        start = ring.index(others[0])
        assert others == [ring[(start + k) % 5] for k in range(len(others))]
    for f in campfires:
        assert layouts[f["id"]] == ["V", "V", "V", "V"]


@pytest.mark.rule("D-DEV-7")
def test_nodus_joining(gen: ModuleType) -> None:
    """Same colours join; vestigium joins a colour; two vestigia never; corruptio never."""
    assert gen.joins("T", "T") and gen.joins("V", "C") and gen.joins("C", "V")
    assert not gen.joins("T", "C")
    assert not gen.joins("V", "V")
    assert not gen.joins("X", "X") and not gen.joins("X", "V") and not gen.joins("T", "X")


@pytest.mark.rule("D-DEV-7")
def test_every_card_can_start_next_to_a_lone_campfire(gen: ModuleType,
                                                      layouts: dict[str, list[str]]) -> None:
    """With the campfire all V, a card fits if a coloured half faces it (the card's left side
    next to the campfire's right side, and so on)."""
    campfire = ["V", "V", "V", "V"]
    cards = {k: v for k, v in layouts.items() if not k.startswith("F")}
    assert len(cards) == 338
    for cid, sides in cards.items():
        assert gen.placeable_next_to(sides, campfire), cid
    # Only a card with no coloured half at all could not start a tree.
    assert not gen.placeable_next_to(["V", "X", "V", "X"], campfire)
    # Facing sides: the card's bottom meets the root's top, its left the root's right.
    assert gen.placeable_next_to(["X", "X", "T", "X"], ["T", "X", "X", "X"])
    assert not gen.placeable_next_to(["X", "X", "T", "X"], ["X", "X", "T", "X"])
    assert gen.placeable_next_to(["X", "X", "X", "T"], ["X", "V", "X", "X"])


# ---------------------------------------------------------------- §5 tiles
@pytest.fixture(scope="module")
def tiles(gen: ModuleType) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = gen.generate_tiles()
    return result


@pytest.mark.rule("D-GROW-4")
def test_tile_totals(tiles: list[dict[str, Any]]) -> None:
    """90 tiles, 15 per settlement colour, 44 corners of each colour + 6 V, 42 pair tiles
    (Concentration needs a pair), 42 three-colour tiles, 6 vestigium tiles, none with three
    identical corners."""
    assert len(tiles) == 90
    assert Counter(t["settlement"] for t in tiles) == dict.fromkeys(DOMAINS, 15)
    corners = Counter(c for t in tiles for c in t["corners"])
    assert corners == {**dict.fromkeys(DOMAINS, 44), "V": 6}
    kinds = Counter("vestigium" if "V" in t["corners"] else
                    "pair" if len(set(t["corners"])) == 2 else "three" for t in tiles)  # fmt: skip
    assert kinds == {"pair": 42, "three": 42, "vestigium": 6}
    assert all(len(set(t["corners"])) > 1 for t in tiles)
    own = Counter(t["settlement"] for t in tiles if t["settlement"] in t["corners"])
    assert own == dict.fromkeys(DOMAINS, 6)


def test_tile_ids_and_rows(gen: ModuleType, tiles: list[dict[str, Any]]) -> None:
    """``L{15·i + j}``: Trade L01–L15, Craft L16–L30, …; L01 = Trade, corners T, T, S."""
    assert [t["id"] for t in tiles] == [f"L{n:02d}" for n in range(1, 91)]
    by_id = {t["id"]: t for t in tiles}
    assert by_id["L01"]["settlement"] == "T" and by_id["L01"]["corners"] == ["T", "T", "S"]
    assert by_id["L15"]["corners"] == ["V", "T", "S"]
    assert by_id["L16"]["settlement"] == "C" and by_id["L16"]["corners"] == ["C", "C", "G"]
    assert by_id["L24"]["corners"] == ["C", "S", "R"]  # Craft row 9: offsets 0 2 4
    assert by_id["L90"]["settlement"] == "R" and by_id["L90"]["corners"] == ["V", "R", "A"]
    assert all(t["source"] == "reconstructed" and t["cite"] == [] for t in tiles)
    # Rows 10 and 12 are the mirror images of rows 9 and 11 (tiles are never flipped).
    for i in range(6):
        for a, b in ((9, 10), (11, 12)):
            ca, cb = by_id[gen.tile_id(i, a)]["corners"], by_id[gen.tile_id(i, b)]["corners"]
            assert ca[0] == cb[0] and ca[1:] == cb[:0:-1]
