"""``make bench``: Dominari's Dominion benchmarks, written into BENCHMARKS.md.

1. Speed: complete 2-player games per second, Big Money vs Big Money on the First Game
   kingdom, one process; and in the same run pyminion 0.4.0 playing the same match
   (in a throwaway virtual environment, see ``peers.py``). Cold (first games) and
   steady-state rates, and a profile of where the time goes.
2. Checks against published numbers (a report, not tests): bot-vs-bot win rates with
   95% intervals and solo turns to 4 Provinces, to compare with DominionSim's.

Usage: ``python benchmarks/run.py [--quick] [--no-peer] [--games N] [--workers W]``.
The section between the markers in BENCHMARKS.md is replaced; the rest is kept.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import json
import math
import platform
import pstats
import sys
import time
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

from dominari.bots import load_bot  # noqa: E402
from dominari.dominion.cards import PROVINCE  # noqa: E402
from dominari.dominion.engine import OVER, DominionConfig, DominionState  # noqa: E402
from dominari.sim import simulate  # noqa: E402
from dominari.sim.runner import play_game  # noqa: E402
from dominari.sim.stats import t95  # noqa: E402
from peers import measure_pyminion  # noqa: E402

SMITHY_SOLO = str(BENCH_DIR / "strategies" / "smithy_solo.toml")
START = "<!-- bench:start -->"
END = "<!-- bench:end -->"


def play_games(first_seed: int, games: int, specs: tuple[str, str]) -> tuple[float, int]:
    """Play ``games`` 2-player games in this process; return (seconds, total turns)."""
    bots = [load_bot(specs[0]), load_bot(specs[1])]
    turns = 0
    start = time.perf_counter()
    for i in range(first_seed, first_seed + games):
        state = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=i))
        bots[0].reset(2 * i)
        bots[1].reset(2 * i + 1)
        play_game(bots, state)  # as `dominari simulate` plays them
        turns += state.turn_number
    return time.perf_counter() - start, turns


ROUNDS = 3


def speed(games: int, first_seed: int) -> dict[str, Any]:
    seconds, turns = play_games(first_seed, games, ("bm", "bm"))
    return {
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "turns_per_game": turns / games,
        "us_per_turn": seconds / turns * 1e6,
    }


def _median_round(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The round with the median ratio (or median speed without a peer)."""
    key = "ratio" if all("ratio" in r for r in rounds) else None
    ordered = sorted(rounds, key=lambda r: r[key] if key else r["ours"]["games_per_s"])
    mid = ordered[len(ordered) // 2]
    out = dict(mid["ours"])
    if key:
        out["peer"] = mid["peer"]
        out["ratio"] = mid["ratio"]
    return out


def profile(games: int) -> list[tuple[str, float, int]]:
    """The functions with the most own time over ``games`` BM-vs-BM games."""
    prof = cProfile.Profile()
    prof.enable()
    play_games(50_000, games, ("bm", "bm"))
    prof.disable()
    stats = pstats.Stats(prof, stream=io.StringIO())
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    rows = []
    for (path, line, func), v in stats.stats.items():  # type: ignore[attr-defined]
        short = path.split("/src/")[-1] if "/src/" in path else Path(path).name
        rows.append((f"{short}:{line}({func})", v[2] / total, v[1]))
    rows.sort(key=lambda r: -r[1])
    return rows[:10]


def matchup(a: str, b: str, kingdom: str, games: int, workers: int, seed: int) -> dict[str, Any]:
    res = simulate([a, b], games=games, seed=seed, workers=workers, kingdom=kingdom)
    return res.to_json()


def solo(spec: str, games: int, seed: int) -> dict[str, Any]:
    """Turns one bot needs to own 4 Provinces playing alone (the other seat passes)."""
    bot = load_bot(spec)
    counts: list[int] = []
    for i in range(games):
        state = DominionState.new(DominionConfig(players=2, kingdom="first-game", seed=seed + i,
                                                 max_turns=60))
        me = 0
        bot.reset(seed + i)
        owned = state.players[me].owned
        while state.phase != OVER and owned[PROVINCE] < 4:
            if state.current_player() == me:
                state.apply(bot.act(state))
            else:
                state.apply(state.legal_actions()[-1])  # the other seat only ends its phases
        counts.append(state.players[me].turns)
    mean = sum(counts) / games
    var = sum((c - mean) ** 2 for c in counts) / (games - 1)
    half = t95(games - 1) * math.sqrt(var / games)  # Student's t, as the CLI's means
    ordered = sorted(counts)
    return {"bot": spec, "games": games, "mean_turns": mean, "ci95": [mean - half, mean + half],
            "median": ordered[games // 2]}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(r: dict[str, Any]) -> str:
    s = r["speed"]
    out = [
        START,
        f"## Latest `make bench` ({r['date']})",
        "",
        f"- Command: `{r['command']}`",
        f"- Machine: {r['machine']}",
        "",
        "### Speed: complete 2-player games per second, BM vs BM, First Game, one process",
        "",
        "| engine | games | games/s | notes |",
        "|---|---|---|---|",
        f"| Dominari (cold, first {r['cold']['games']} games) | {r['cold']['games']} | "
        f"{r['cold']['games_per_s']:,.0f} | |",
        f"| Dominari (steady, median round) | {s['games']:,} | **{s['games_per_s']:,.0f}** | "
        f"{s['turns_per_game']:.1f} turns/game (both players), {s['us_per_turn']:.1f} µs/turn |",
    ]
    peer = r["pyminion"]
    if "skipped" in peer:
        out.append(f"| pyminion 0.4.0 | – | – | skipped: {peer['skipped']} |")
    else:
        out.append(f"| pyminion {peer['version']} (same round) | {peer['games']:,} | "
                   f"{peer['games_per_s']:,.0f} | 2E First Game (no Woodcutter) |")
        ratios = ", ".join(f"{row['ratio']:.1f}×" for row in r["rounds"])
        out += ["", f"**Ratio: Dominari is {s['ratio']:.1f}× pyminion** (median of {ROUNDS} "
                f"rounds that alternate the two engines: {ratios})."]
    out += ["", "Where Dominari's time goes (cProfile, share of own time):", "",
            "| function | share | calls |", "|---|---|---|"]
    for name, share, calls in r["profile"]:
        out.append(f"| `{name}` | {pct(share)} | {calls:,} |")
    out += ["", "### Checks against published numbers (2 players, 95% Wilson intervals)", "",
            "| match (kingdom) | games | A wins | B wins | ties | mean turns "
            "| published A/B/ties |",
            "|---|---|---|---|---|---|---|"]
    for m in r["matchups"]:
        res = m["result"]
        pa, pb = res["players"]
        lo_a, hi_a = pa["ci95"]
        lo_b, hi_b = pb["ci95"]
        out.append(
            f"| {pa['name']} vs {pb['name']} ({m['kingdom']}) | {res['games']:,} | "
            f"{pct(pa['win_rate'])} [{pct(lo_a)}–{pct(hi_a)}] | "
            f"{pct(pb['win_rate'])} [{pct(lo_b)}–{pct(hi_b)}] | {pct(pa['tie_rate'])} "
            f"[{pct(pa['tie_ci95'][0])}–{pct(pa['tie_ci95'][1])}] | "
            f"{res['mean_turns']:.1f} | {m['published']} |"
        )
    out += ["", "Solo, turns to own 4 Provinces (the other seat never buys):", "",
            "| bot | games | mean turns [95% CI] | median | published (DominionSim) |",
            "|---|---|---|---|---|"]
    for srow in r["solo"]:
        lo, hi = srow["ci95"]
        out.append(f"| {srow['label']} | {srow['games']:,} | {srow['mean_turns']:.2f} "
                   f"[{lo:.2f}–{hi:.2f}] | {srow['median']} | {srow['published']} |")
    out.append(END)
    return "\n".join(out) + "\n"


def write_report(section: str) -> Path:
    path = REPO_ROOT / "BENCHMARKS.md"
    text = path.read_text() if path.exists() else "# Benchmarks\n\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return path


def replace_section(title: str, start: str, end: str, section: str) -> Path:
    """Put ``section`` between the ``start`` and ``end`` markers of BENCHMARKS.md (a new
    ``## title`` section at the end when the markers are missing); the rest is kept. The
    file is replaced atomically."""
    path = REPO_ROOT / "BENCHMARKS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n\n"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        tail = rest.split(end, 1)[1]
        text = f"{head}{start}\n{section}\n{end}{tail}"
    else:
        text = text.rstrip("\n") + f"\n\n## {title}\n\n{start}\n{section}\n{end}\n"
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def publish(title: str, start: str, end: str, section: str, write: bool) -> None:
    """Put ``section`` in BENCHMARKS.md (:func:`replace_section`) if ``write``, then print
    it: written first, so that a closed standard output (``| head``) loses nothing."""
    if write:
        replace_section(title, start, end, section)
    print(section)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sample sizes (a smoke run)")
    ap.add_argument("--no-peer", action="store_true", help="skip the pyminion comparison")
    ap.add_argument("--games", type=int, default=None, help="games per published-number check")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = ap.parse_args(argv)
    speed_games = 500 if args.quick else 5_000
    check_games = args.games or (500 if args.quick else 20_000)
    peer_games = 100 if args.quick else 500

    r: dict[str, Any] = {"rounds": []}
    cold_games = 200
    cold_s, _ = play_games(0, cold_games, ("bm", "bm"))
    r["cold"] = {"games": cold_games, "games_per_s": cold_games / cold_s}
    r["pyminion"] = {"skipped": "--no-peer"} if args.no_peer else {}
    # Rounds alternate our engine and the peer, so both see the same machine load.
    for k in range(ROUNDS):
        print(f"round {k + 1}/{ROUNDS}: {speed_games} BM-vs-BM games…", flush=True)
        row: dict[str, Any] = {"ours": speed(speed_games, first_seed=10_000 * (k + 1))}
        print(f"  dominari {row['ours']['games_per_s']:,.0f} games/s", flush=True)
        if not args.no_peer and "skipped" not in r["pyminion"]:
            peer = measure_pyminion(peer_games)
            print(f"  pyminion {peer}", flush=True)
            if "skipped" in peer:
                r["pyminion"] = peer
            else:
                row["peer"] = peer
                row["ratio"] = row["ours"]["games_per_s"] / peer["games_per_s"]
        r["rounds"].append(row)
    r["speed"] = _median_round(r["rounds"])
    if "skipped" not in r["pyminion"]:
        r["pyminion"] = r["speed"]["peer"]
    r["profile"] = profile(500 if args.quick else 2_000)
    r["matchups"] = []
    for a, b, kingdom, published in (
        ("bm", "bmu", "first-game", "15.4 / 81.4 / 3.2"),
        ("bmu", "smithy", "first-game", "22.2 / 71.7 / 6.1"),
        ("bmu", "witch", "Witch", "4.7 / 94.5 / 0.8"),
        ("smithy", "witch", "Witch,Smithy", "13.9 / 84.3 / 1.8"),
    ):
        print(f"{a} vs {b}: {check_games} games…", flush=True)
        res = matchup(a, b, kingdom, check_games, args.workers, seed=1)
        r["matchups"].append({"kingdom": kingdom, "published": published, "result": res})
    r["solo"] = []
    for spec, label, published in (
        ("bm", "bm", "16.80 (median 17)"),
        (SMITHY_SOLO, "smithy, no greening", "14.79 (median 15)"),
    ):
        print(f"solo {label}: {check_games} games…", flush=True)
        row = solo(spec, check_games, seed=1)
        row.update(label=label, published=published)
        r["solo"].append(row)
    r["date"] = dt.date.today().isoformat()
    r["machine"] = machine()
    r["command"] = "make bench" + ("" if not argv else " (" + " ".join(argv) + ")")
    section = render(r)
    print(section)
    if not args.no_write:  # (--no-write writes nothing: the results only print)
        (BENCH_DIR / "results").mkdir(exist_ok=True)
        (BENCH_DIR / "results" / "latest.json").write_text(json.dumps(r, indent=1, default=str))
        print(f"written: {write_report(section)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
