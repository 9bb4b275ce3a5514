"""Generate the reconstructed Dominations component files ``tiles.json`` and ``layouts.json``.

No physical tile list or nodus layout is known, so ``dominations-data.md`` gives rules that
produce them (§4 nodus layouts, §5 land tiles). This script applies those rules and writes the
two files into ``src/dominari/dominations/datafiles/``, where they are committed; the engine only
ever reads the files.

* **Tiles** (§5): 15 corner patterns, given as offsets from the settlement's index in the
  canonical domain order ``T C A S G R``, applied to each of the six settlement colours. Tile
  ``L{15·i + j:02}`` has settlement ``i`` (T=0 … R=5) and pattern row ``j`` (1–15).
* **Nodus layouts** (§4): every record has its own SplitMix64 generator, seeded with
  FNV-1a-64 of ``"dominations-layout/" + id``, so changing one card never moves another's
  layout. Mastery copies ``T3a-1`` … ``T3a-4`` (four per skill, from the skill's domain, cost
  and prerequisite domain in ``skills.json``), monument level cards ``M01-L1`` … (from the
  monument's domain and level count in ``monuments.json``) and the campfires ``F1`` … ``F4``
  (all four halves vestigium, ids from ``campfires.json``). Sides are ``[top, right, bottom,
  left]``.

The generator reads the raw JSON of ``skills.json``, ``monuments.json`` and ``campfires.json``
(not the validating loader, which insists that the layouts already match).

Usage::

    python scripts/generate_dominations_data.py           # write tiles.json and layouts.json
    python scripts/generate_dominations_data.py --check   # exit 1 if the committed files differ

Both modes run the §4 self-tests first and exit 1 if one fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT / "src" / "dominari" / "dominations" / "datafiles"

DOMAINS = "TCASGR"
V = "V"  # vestigium: white half-nodus / white tile dot
X = "X"  # corruptio: black half-nodus
MASK64 = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
SEED_PREFIX = "dominations-layout/"
RECONSTRUCTED: dict[str, Any] = {
    "source": "reconstructed", "cite": [], "known": [], "read": [], "assigned": [],
}  # fmt: skip

# §5: the 15 corner patterns (clockwise), as offsets from the settlement's index; V = vestigium.
TILE_PATTERNS: tuple[tuple[int | str, int | str, int | str], ...] = (
    (0, 0, 3), (1, 1, 4), (2, 2, 5), (3, 3, 0), (4, 4, 1), (5, 5, 2), (5, 5, 1),  # pairs
    (0, 1, 2), (0, 2, 4), (0, 4, 2), (1, 3, 5), (1, 5, 3), (2, 3, 4), (3, 4, 5),  # three colours
    (V, 0, 3),  # vestigium corner
)  # fmt: skip


# ------------------------------------------------------------------ PRNG (§4)
def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bits.

    >>> hex(fnv1a64(b""))
    '0xcbf29ce484222325'
    >>> hex(fnv1a64(b"a"))
    '0xaf63dc4c8601ec8c'
    """
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def layout_seed(record_id: str) -> int:
    """The seed of a record's layout generator: FNV-1a-64 of ``"dominations-layout/" + id``."""
    return fnv1a64((SEED_PREFIX + record_id).encode("utf-8"))


class SplitMix64:
    """SplitMix64 over unsigned 64-bit integers, exactly as §4 states it.

    >>> rng = SplitMix64(0)
    >>> hex(rng.next())
    '0xe220a8397b1dcdaf'
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def rand(self, n: int) -> int:
        """``next() mod n``."""
        return self.next() % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates from the back: for i = len−1 down to 1, swap items[i] and
        items[rand(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.rand(i + 1)
            items[i], items[j] = items[j], items[i]


# ------------------------------------------------------------------ layouts (§4)
def mastery_copies(
    skill_id: str, domain: str, cost: int, prerequisite: str | None,
) -> list[list[str]]:  # fmt: skip
    """The four copies' sides ``[top, right, bottom, left]`` of one mastery skill."""
    rng = SplitMix64(layout_seed(skill_id))
    others = [d for d in DOMAINS if d != domain]
    if cost == 9:
        if prerequisite is None:
            raise ValueError(f"skill {skill_id}: a cost-9 card needs a prerequisite domain")
        extra = prerequisite
    else:
        extra = others[rng.rand(5)]
    pool = [*others, extra]
    while True:
        rng.shuffle(pool)
        if pool[0] != pool[1] and pool[3] != pool[4]:
            break
    copies = [
        [domain, domain, pool[0], pool[1]],
        [domain, domain, pool[2], V],
        [domain, pool[3], pool[4], V],
        [domain, domain, pool[5], X],
    ]
    for copy in copies:
        rng.shuffle(copy)
    return copies


def level_layouts(monument_id: str, domain: str, levels: int) -> list[list[str]]:
    """The sides of a monument's level cards 1…n."""
    rng = SplitMix64(layout_seed(monument_id))
    others = [d for d in DOMAINS if d != domain]
    r = rng.rand(5)
    out = []
    for k in range(1, levels + 1):
        halves = [V, V, domain, others[(r + k - 1) % 5]]
        rng.shuffle(halves)
        out.append(halves)
    return out


def _prerequisite_domain(skill: Mapping[str, Any]) -> str | None:
    pre = skill.get("prerequisite")
    return None if pre is None else str(pre["domain"])


def generate_layouts(
    skills: Sequence[Mapping[str, Any]], monuments: Sequence[Mapping[str, Any]],
    campfires: Sequence[Mapping[str, Any]],
) -> dict[str, list[str]]:  # fmt: skip
    """Every layout record, keyed by card id and sorted by id: ``{"T3a-1": [top, right,
    bottom, left], …}`` for the mastery copies, the monument level cards and the campfires."""
    out: dict[str, list[str]] = {}
    for s in skills:
        copies = mastery_copies(str(s["id"]), str(s["domain"]), int(s["cost"]),
                                _prerequisite_domain(s))  # fmt: skip
        for k, sides in enumerate(copies, 1):
            out[f"{s['id']}-{k}"] = sides
    for m in monuments:
        levels = m["levels"]
        for level, sides in zip(levels, level_layouts(str(m["id"]), str(m["domain"]), len(levels)),
                                strict=True):  # fmt: skip
            out[str(level["id"])] = sides
    for f in campfires:
        out[str(f["id"])] = [V, V, V, V]
    return dict(sorted(out.items()))


# ------------------------------------------------------------------ tiles (§5)
def tile_id(settlement: int, row: int) -> str:
    """``L{15·i + j}`` with two digits: settlement index ``i`` (0–5), pattern row ``j`` (1–15).

    >>> tile_id(0, 1), tile_id(1, 1), tile_id(5, 15)
    ('L01', 'L16', 'L90')
    """
    return f"L{15 * settlement + row:02d}"


def generate_tiles() -> list[dict[str, Any]]:
    """The 90 land tile records, in id order (Trade L01–L15, Craft L16–L30, …)."""
    tiles = []
    for i, settlement in enumerate(DOMAINS):
        for j, pattern in enumerate(TILE_PATTERNS, 1):
            corners = [V if o == V else DOMAINS[(i + int(o)) % 6] for o in pattern]
            tiles.append({"id": tile_id(i, j), "settlement": settlement, "corners": corners,
                          **RECONSTRUCTED})  # fmt: skip
    return tiles


# ------------------------------------------------------------------ self-tests (§4)
def joins(a: str, b: str) -> bool:
    """Whether two half-nodi form a complete nodus (D-DEV-7): same colour, or vestigium with a
    colour; vestigium+vestigium and anything with corruptio never join."""
    if a == X or b == X or (a == V and b == V):
        return False
    return a in (b, V) or b == V


# Side k of a card faces side OPPOSITE[k] of its neighbour ([top, right, bottom, left]).
OPPOSITE = (2, 3, 0, 1)


def placeable_next_to(card: Sequence[str], root: Sequence[str]) -> bool:
    """Whether ``card`` can go next to a lone ``root`` card on some side: the card's side k
    touches the root's opposite side, and the two halves must join."""
    return any(joins(card[k], root[OPPOSITE[k]]) for k in range(4))


def self_test(
    layouts: Mapping[str, Sequence[str]], skills: Sequence[Mapping[str, Any]],
    monuments: Sequence[Mapping[str, Any]], campfires: Sequence[Mapping[str, Any]],
) -> list[str]:  # fmt: skip
    """The §4 generator self-tests; returns the failures (empty when all hold)."""
    problems: list[str] = []
    n_levels = sum(len(m["levels"]) for m in monuments)
    expected = 4 * len(skills) + n_levels + len(campfires)
    if (len(skills), n_levels, len(campfires)) != (72, 50, 4) or len(layouts) != expected:
        problems.append(f"{len(layouts)} layouts from {len(skills)} skills, {n_levels} level "
                        f"cards and {len(campfires)} campfires; expected 288 + 50 + 4")
    for s in skills:
        sid, d = str(s["id"]), str(s["domain"])
        copies = [list(layouts.get(f"{sid}-{k}", ())) for k in range(1, 5)]
        if any(len(c) != 4 for c in copies):
            problems.append(f"{sid}: missing or short copies")
            continue
        halves = Counter(h for c in copies for h in c)
        others = Counter({h: n for h, n in halves.items() if h in DOMAINS and h != d})
        if halves[d] != 7:
            problems.append(f"{sid}: {halves[d]} own halves, expected 7")
        if halves[V] != 2 or halves[X] != 1:
            problems.append(f"{sid}: {halves[V]} V and {halves[X]} X halves, expected 2 and 1")
        if sum(others.values()) != 6 or len(others) != 5:
            problems.append(f"{sid}: other colours {dict(others)}, expected all 5, 6 in all")
        pre = _prerequisite_domain(s)
        if s["cost"] == 9 and pre is not None and others[pre] != 2:
            problems.append(f"{sid}: the prerequisite domain {pre} is not the sixth other half")
        if len({tuple(sorted(c)) for c in copies}) != 4:
            problems.append(f"{sid}: two copies have the same halves")
        for k, c in enumerate(copies, 1):
            if c.count(X) > 1:
                problems.append(f"{sid}-{k}: more than one X")
            if sum(h in (d, V) for h in c) < 2 or sum(h in DOMAINS for h in c) < 2:
                problems.append(f"{sid}-{k}: fewer than 2 own-joinable or coloured halves")
    for m in monuments:
        dm = str(m["domain"])
        for level in m["levels"]:
            sides = list(layouts.get(str(level["id"]), ()))
            other = [h for h in sides if h not in (V, dm)]
            if len(sides) != 4 or sides.count(V) != 2 or sides.count(dm) != 1 or \
                    len(other) != 1 or other[0] not in DOMAINS:
                problems.append(f"{level['id']}: expected the halves V, V, {dm} and one other "
                                f"domain, got {sides}")  # fmt: skip
    for f in campfires:
        if list(layouts.get(str(f["id"]), ())) != [V, V, V, V]:
            problems.append(f"{f['id']}: a campfire is [V, V, V, V]")
    root = [V, V, V, V]
    campfire_ids = {str(f["id"]) for f in campfires}
    for cid, card in layouts.items():
        if cid not in campfire_ids and not placeable_next_to(card, root):
            problems.append(f"{cid}: cannot be placed next to a lone campfire")
    return problems


# ------------------------------------------------------------------ JSON output
def render_json(value: Any, indent: int = 0, width: int = 100, used: int = 0) -> str:
    """Stable, diff-friendly JSON: a list or object goes on one line when it fits in ``width``
    columns (``indent`` spaces plus ``used`` columns of the line are taken already), otherwise
    one item per line, indented by 2 more."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + used + len(flat) <= width or not isinstance(value, list | dict) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + render_json(v, indent + 2, width) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    lines = []
    for k, v in value.items():
        key = json.dumps(k, ensure_ascii=False) + ": "
        lines.append(pad + key + render_json(v, indent + 2, width, len(key)))
    return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"


def render_layouts(layouts: Mapping[str, Sequence[str]]) -> str:
    """``layouts.json`` text: one ``"id": [top, right, bottom, left]`` per line."""
    lines = [f"  {json.dumps(k)}: {json.dumps(list(v))}" for k, v in layouts.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def render_records(records: Iterable[Mapping[str, Any]], width: int = 150) -> str:
    """A record file's text: a JSON list, one record per line where it fits."""
    return render_json(list(records), 0, width) + "\n"


def _read(folder: Path, name: str) -> Any:
    with (folder / name).open(encoding="utf-8") as fh:
        return json.load(fh)


def build(folder: Path = DATA_DIR) -> dict[str, str]:
    """The generated files' text by file name, from the skill, monument and campfire files in
    ``folder``; raises ``AssertionError`` listing the failed self-tests."""
    skills, monuments = _read(folder, "skills.json"), _read(folder, "monuments.json")
    campfires = _read(folder, "campfires.json")
    layouts = generate_layouts(skills, monuments, campfires)
    problems = self_test(layouts, skills, monuments, campfires)
    if problems:
        raise AssertionError("layout self-tests failed:\n  " + "\n  ".join(problems))
    return {"tiles.json": render_records(generate_tiles()), "layouts.json": render_layouts(layouts)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate tiles.json and layouts.json (data "
                                     "spec §4 and §5).")  # fmt: skip
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the committed files differ")
    parser.add_argument("--data-dir", type=Path, default=DATA_DIR,
                        help=f"the data folder (default {DATA_DIR.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    try:
        texts = build(args.data_dir)
    except AssertionError as exc:
        print(exc, file=sys.stderr)
        return 1
    stale = []
    for name, text in texts.items():
        path = args.data_dir / name
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check:
        if stale:
            print(f"out of date: {', '.join(stale)} (run {Path(__file__).name})", file=sys.stderr)
            return 1
        print("generated files are up to date")
    else:
        print(f"wrote {', '.join(stale)}" if stale else "nothing to write: files up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
