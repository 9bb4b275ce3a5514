"""Server load: concurrent bot-vs-bot games over WebSockets against one server process.

Many games at once, played through real WebSocket clients against one ``dominari serve``
process with SQLite, measured and written to BENCHMARKS.md.

The script starts the server (``dominari serve`` on a free loopback port, a fresh SQLite
file in a temporary folder), creates the games over HTTP (half Dominion on the First Game
kingdom with a 30-turn limit, half 2-player Dominations; every seat human), opens two
WebSocket connections per game (one per seat) from this one asyncio process, and lets
every game play at once. Each socket's "client bot" answers every view in which its seat
decides with one action from the view's legal actions: in Dominion it mostly buys
Province, then Gold, then Silver, plays its actions and otherwise ends the phase, with one
decision in ten taken at random; in Dominations every choice is random. Both are seeded;
the deals are random (the server takes no chosen seed for a game of two people).
A client keeps under the server's per-socket message limit (20/s) on its own. The clients
share the cores with the server, so they are kept lean: they run on uvloop (when it is
installed, as the server does) and read the messages with orjson.

Measured: games finished per minute and actions per second over the playing time; the
latency of each action, from sending it to receiving, on the same socket, the view whose
version is the acted version + 1 (the committed and pushed result); errors (error
messages received, connections that failed, games not finished); and the CPU time of the
server, of this client and of everything else on the machine during the run.

Two runs by default: flat out (a client answers at once: the server is saturated, and by
Little's law latency is the number of games waiting over the throughput) and paced (each
decision takes a random think time, mean ``--think`` ms, as a quick human or a UI would;
the latency then shows the server's own work and queueing).

Usage: ``python benchmarks/server_load.py [--games N] [--quick] [--think MS]
[--runs both|flat|paced] [--no-write] [--server-profile FILE]``. ``--server-profile`` runs
the server under cProfile to see where its time goes (nothing is written then).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

try:  # the dev extra's client (as Starlette's test client imports it); else the older name
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef,import-not-found,unused-ignore]

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine, publish

START = "<!-- server:start -->"
END = "<!-- server:end -->"
GOAL_GAMES = 100
GOAL_P99 = 0.100
"""Issue 7's goal: 100 concurrent games, zero errors, p99 latency under 100 ms."""
SEND_RATE = 18.0
SEND_BURST = 40.0
"""The client's own limit per socket, under the server's (20/s, burst 60)."""
STALL = 120.0
"""Seconds a socket may wait for a message before its game counts as stalled."""
MAX_ERRORS = 20
"""Error messages one socket takes before it gives its game up."""
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dominari_command() -> str:
    """The ``dominari`` console script of this interpreter's environment."""
    here = Path(sys.executable).parent / "dominari"
    found = here if here.exists() else shutil.which("dominari")
    if not found:
        raise SystemExit("cannot find the dominari command (install the project: make install)")
    return str(found)


class Server:
    """``dominari serve`` as a child process, its output in a log file."""

    def __init__(self, folder: Path, profile: str | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/api/ws"
        self.db = folder / "load.db"
        self.log_path = folder / "server.log"
        self._log = self.log_path.open("wb")
        command = [dominari_command(), "serve", "--port", str(self.port), "--db",
                   f"sqlite:///{self.db}"]
        if profile:  # the server under cProfile (written when it stops)
            command = [sys.executable, "-m", "cProfile", "-o", profile, *command]
        self.proc = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited ({self.proc.returncode}):\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=2.0).status_code == 200:
                    return
            time.sleep(0.2)
        self.stop()
        raise SystemExit(f"the server did not answer within {timeout:.0f} s:\n{self.tail()}")

    def cpu_seconds(self) -> float:
        """User + system CPU of the server process and its children so far."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        # Fields 14-17 of stat (utime, stime, cutime, cstime); [0] here is field 3.
        return sum(int(x) for x in fields[11:15]) / CLK_TCK

    def peak_rss_mib(self) -> float:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def tail(self, lines: int = 20) -> str:
        self._log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def total_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy (from /proc/stat)."""
    try:
        first = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return float("nan")
    values = [int(x) for x in first[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return (sum(values[:8]) - idle) / CLK_TCK


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The clients' event loop: uvloop's when it is installed, as the server's is (the
    clients share the cores with the server, so they had better be lean)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def own_cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# -- the clients ---------------------------------------------------------------------------


@dataclass
class GameRun:
    index: int
    game: str
    game_id: str
    tokens: list[str]
    finished: bool = False
    actions: int = 0


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"dominion": [], "dominations": []})
    slowest: list[tuple[float, str, str]] = field(default_factory=list)
    """The slowest actions: (seconds, game, action)."""
    errors: Counter[str] = field(default_factory=Counter)
    failed_connections: int = 0
    stalled_sockets: int = 0


class SendBucket:
    """The client's own token bucket, so that it never trips the server's limit."""

    def __init__(self, rate: float = SEND_RATE, burst: float = SEND_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = time.monotonic()

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.level >= 1.0:
                self.level -= 1.0
                return
            await asyncio.sleep((1.0 - self.level) / self.rate)


PREFERENCES = ("buy Province", "buy Gold", "buy Silver", "play ")


def choose(game: str, legal: list[str], rng: random.Random) -> str:
    """The client bot's action among ``legal`` (notation strings)."""
    if game == "dominations" or rng.random() < 0.1:
        return rng.choice(legal)
    for prefix in PREFERENCES:
        for text in legal:
            if text.startswith(prefix):
                return text
    return "end" if "end" in legal else legal[0]


async def open_seat(url: str, g: GameRun, seat: int, stats: Stats) -> ClientConnection | None:
    """A connection that has joined ``seat`` of ``g`` (None when it failed)."""
    try:
        ws = await connect(url, open_timeout=30, max_size=1 << 22)
        await ws.send(json.dumps({"type": "join", "game_id": g.game_id,
                                  "token": g.tokens[seat]}))
        return ws
    except (OSError, TimeoutError, WebSocketException) as exc:
        stats.failed_connections += 1
        print(f"  game {g.index} seat {seat}: cannot connect: {exc!r}", file=sys.stderr)
        return None


async def play_seat(ws: ClientConnection, g: GameRun, seat: int, stats: Stats,
                    start: asyncio.Event, think: float, seed: int) -> None:
    """Answer every view in which ``seat`` decides until the game is over."""
    rng = random.Random(seed)
    bucket = SendBucket()
    acted = -1  # the last version this seat acted on
    pending: tuple[int, float, str] | None = None  # (version acted on, when sent, text)
    errors = 0
    await start.wait()
    try:
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), STALL)
            except TimeoutError:
                stats.stalled_sockets += 1
                return
            now = time.perf_counter()
            msg = orjson.loads(raw)
            if msg.get("type") == "error":
                stats.errors[str(msg.get("code"))] += 1
                errors += 1
                if errors >= MAX_ERRORS:
                    return
                pending = None
                acted = -1  # act again on the view that came with the error
                msg = msg.get("view") or {}
            if msg.get("type") != "view":
                continue
            version = msg["version"]
            if pending is not None and version > pending[0]:
                if version == pending[0] + 1:
                    took = now - pending[1]
                    stats.latencies[g.game].append(took)
                    if took > 0.05:
                        stats.slowest.append((took, g.game, pending[2]))
                pending = None
            if msg["status"] == "finished":
                g.finished = True
                return
            legal = msg["view"].get("legal_actions") or []
            if msg["current_seat"] != seat or not legal or version <= acted or pending:
                continue
            text = choose(g.game, legal, rng)
            if think > 0:
                await asyncio.sleep(rng.expovariate(1.0 / think))
            await bucket.take()
            acted = version
            pending = (version, time.perf_counter(), text)
            await ws.send(json.dumps({"type": "act", "action": text, "version": version}))
            g.actions += 1
    except ConnectionClosed as exc:
        if not g.finished:
            stats.failed_connections += 1
            print(f"  game {g.index} seat {seat}: connection closed: {exc!r}", file=sys.stderr)
    except (KeyError, TypeError, ValueError) as exc:  # a message this client cannot read
        stats.errors[f"client {exc.__class__.__name__}"] += 1
        print(f"  game {g.index} seat {seat}: {exc!r}", file=sys.stderr)
    finally:
        await ws.close()


async def create_games(base: str, games: int) -> tuple[list[GameRun], float]:
    """Create ``games`` games (alternately Dominion and Dominations); (games, seconds).
    They are dealt at random: the server takes no chosen seed for a game of two people."""
    out: list[GameRun] = []
    t = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=30.0) as client:
        for i in range(games):
            game = "dominion" if i % 2 == 0 else "dominations"
            body: dict[str, Any] = {"game": game, "seats": [{"kind": "human"}] * 2}
            if game == "dominion":
                body.update(kingdom="first-game", max_turns=30)
            r = await client.post("/api/games", json=body)
            if r.status_code != 201:
                raise SystemExit(f"creating game {i} failed: {r.status_code} {r.text}")
            data = r.json()
            out.append(GameRun(i, game, data["game_id"],
                               [s["token"] for s in data["seats"]]))
    return out, time.perf_counter() - t


async def load_run(server: Server, games: int, think: float, first_seed: int,
                   timeout: float) -> dict[str, Any]:
    """Play ``games`` games at once; the measurements."""
    stats = Stats()
    played, create_s = await create_games(server.base, games)
    t = time.perf_counter()
    sockets = await asyncio.gather(*(open_seat(server.ws_url, g, seat, stats)
                                     for g in played for seat in (0, 1)))
    connect_s = time.perf_counter() - t
    start = asyncio.Event()
    tasks = [asyncio.create_task(play_seat(ws, g, seat, stats, start, think,
                                           first_seed * 7 + 2 * g.index + seat))
             for (g, seat), ws in zip(((g, s) for g in played for s in (0, 1)), sockets,
                                      strict=True)
             if ws is not None]
    cpu0 = (server.cpu_seconds(), own_cpu_seconds(), total_busy_seconds())
    t0 = time.perf_counter()
    start.set()
    _, late = await asyncio.wait(tasks, timeout=timeout)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - t0
    cpu1 = (server.cpu_seconds(), own_cpu_seconds(), total_busy_seconds())
    server_cpu, client_cpu, busy = (b - a for a, b in zip(cpu0, cpu1, strict=True))
    finished = [g for g in played if g.finished]
    result: dict[str, Any] = {
        "games": games, "think_ms": think * 1000, "wall_s": wall, "create_s": create_s,
        "connect_s": connect_s, "finished": len(finished),
        "actions": sum(g.actions for g in played),
        "errors": dict(stats.errors), "failed_connections": stats.failed_connections,
        "stalled_sockets": stats.stalled_sockets, "timed_out": len(late),
        "server_cpu_s": server_cpu, "client_cpu_s": client_cpu,
        "other_cpu_s": busy - server_cpu - client_cpu,
        "per_game": {},
        "slowest": sorted(stats.slowest, reverse=True)[:10],
    }
    everything: list[float] = []
    for name, lat in stats.latencies.items():
        of_kind = [g for g in played if g.game == name]
        result["per_game"][name] = {
            "games": len(of_kind), "finished": sum(g.finished for g in of_kind),
            "actions": sum(g.actions for g in of_kind), **percentiles(lat)}
        everything += lat
    result.update(percentiles(everything))
    result["games_per_min"] = len(finished) / wall * 60
    result["actions_per_s"] = result["actions"] / wall
    return result


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "p50": float("nan"), "p90": float("nan"), "p99": float("nan"),
                "max": float("nan")}
    v = sorted(values)

    def at(q: float) -> float:
        return v[min(len(v) - 1, round(q * (len(v) - 1)))]

    return {"n": len(v), "p50": at(0.50), "p90": at(0.90), "p99": at(0.99), "max": v[-1]}


def error_count(r: dict[str, Any]) -> int:
    """Error messages received, connections that failed and games not finished (a stalled
    socket leaves its game unfinished, so it is not counted twice)."""
    return int(sum(r["errors"].values()) + r["failed_connections"] + r["games"] - r["finished"])


async def measure(games: int, think: float, timeout: float, runs: str = "both",
                  profile: str | None = None) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="dominari-load-"))
    server = Server(folder, profile)
    try:
        server.wait_ready()
        load0 = os.getloadavg()[0]
        done: list[dict[str, Any]] = []
        for label, pause in (("flat out", 0.0), ("paced", think)):
            if (label == "paced" and pause <= 0) or runs not in ("both", label.split()[0]):
                continue
            print(f"{label}: {games} games ({(games + 1) // 2} Dominion, {games // 2} "
                  f"Dominations), think time {pause * 1000:.0f} ms…", flush=True)
            r = await load_run(server, games, pause, 1000 + 10_000 * len(done), timeout)
            r["label"] = label
            print(f"  {r['finished']}/{games} games in {r['wall_s']:.1f} s, "
                  f"{r['actions_per_s']:.0f} actions/s, latency p50 {1000 * r['p50']:.1f} ms "
                  f"p99 {1000 * r['p99']:.1f} ms, errors {error_count(r)}", flush=True)
            slow = ", ".join(f"{1000 * t:.0f} ms {game} {text!r}"
                             for t, game, text in r["slowest"][:5])
            print(f"  slowest: {slow or '-'}", flush=True)
            done.append(r)
        return {"runs": done, "loadavg_before": load0, "server_peak_rss_mib":
                server.peak_rss_mib(), "db_mib": db_size(server.db) / 2**20}
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def db_size(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*") if p.exists())


# -- the report ----------------------------------------------------------------------------


def ms(x: float) -> str:
    return f"{1000 * x:.1f}"


def met(run: dict[str, Any]) -> bool:
    return run["games"] >= GOAL_GAMES and error_count(run) == 0 and run["p99"] < GOAL_P99


def render(r: dict[str, Any], command: str) -> str:
    when = dt.date.today().isoformat()
    lines = [
        f"Measured {when} with `{command}` (`benchmarks/server_load.py`) on {machine()}.",
        "One `dominari serve` process (uvicorn, SQLite in WAL mode: every action is committed "
        "before its view is pushed) and one asyncio client process with two `websockets` "
        "connections per game (one per seat), on loopback; **the client shares the 2 cores "
        "with the server**. Half the games are Dominion (First Game, 30-turn limit), half "
        "2-player Dominations; all start together. Latency: from sending an action to "
        "receiving, on the same socket, the view it produced (version + 1). Errors: error "
        "messages received / connections that failed / games not finished.",
        "",
        "| run | games (finished) | wall | games/min | actions/s | latency p50 / p90 / p99 / "
        "max (ms) | errors | server CPU per action | CPU: server / client / other (cores) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in r["runs"]:
        w = run["wall_s"]
        label = run["label"] + (f", think {run['think_ms']:.0f} ms (mean)"
                                if run["think_ms"] else ", no think time")
        codes = ", ".join(f"{k} {v}" for k, v in sorted(run["errors"].items()))
        errs = (f"{sum(run['errors'].values())} / {run['failed_connections']} / "
                f"{run['games'] - run['finished']}" + (f" ({codes})" if codes else ""))
        lines.append(
            f"| {label} | {run['games']} ({run['finished']}) | {w:.1f} s "
            f"| {run['games_per_min']:,.0f} | {run['actions_per_s']:,.0f} "
            f"| {ms(run['p50'])} / {ms(run['p90'])} / **{ms(run['p99'])}** / {ms(run['max'])} "
            f"| {errs} | {1000 * run['server_cpu_s'] / max(1, run['actions']):.2f} ms "
            f"| {run['server_cpu_s'] / w:.2f} / {run['client_cpu_s'] / w:.2f} / "
            f"{run['other_cpu_s'] / w:.2f} |")
    lines += ["", "Latency per game, p50 / p99 in ms (actions):", ""]
    for run in r["runs"]:
        parts = [f"{name} {ms(p['p50'])} / {ms(p['p99'])} ({p['actions']:,}, "
                 f"{p['actions'] / max(1, p['games']):.0f} a game)"
                 for name, p in run["per_game"].items()]
        lines.append(f"- {run['label']}: " + "; ".join(parts) + ".")
    first = r["runs"][0]
    noisy = r["loadavg_before"] > 0.5 or any(x["other_cpu_s"] / x["wall_s"] > 0.3
                                             for x in r["runs"])
    lines += [
        "",
        f"Creating {first['games']} games over HTTP took {first['create_s']:.2f} s, opening "
        f"and joining {2 * first['games']} sockets {first['connect_s']:.2f} s. Server peak "
        f"memory {r['server_peak_rss_mib']:.0f} MiB; SQLite files {r['db_mib']:.1f} MiB after "
        f"all runs. Load average before the runs: {r['loadavg_before']:.2f}"
        + ("; other processes were busy during the runs (the \"other\" CPU column), so the "
           "numbers are noisy." if noisy else "."),
        "",
        interpret(r),
    ]
    return "\n".join(lines)


def interpret(r: dict[str, Any]) -> str:
    out = [f"Goal of issue 7: {GOAL_GAMES} concurrent games, zero errors, p99 under "
           f"{GOAL_P99 * 1000:.0f} ms on 2 cores: "
           + "; ".join(f"{run['label']} {'met' if met(run) else 'not met'}"
                       for run in r["runs"]) + "."]
    flat = next((run for run in r["runs"] if not run["think_ms"]), None)
    if flat is not None:
        # Little's law: with no think time every game always has one action in flight.
        little = flat["games"] / flat["actions_per_s"]
        text = (
            f"Flat out the server is the bottleneck: all its work runs on one event loop, so "
            f"it uses one core at most (it got {flat['server_cpu_s'] / flat['wall_s']:.2f} "
            f"here), and as every game always has one action on its way, each game's cycle "
            f"(action, pushed views, next action) takes about games / throughput = "
            f"{1000 * little:.0f} ms (Little's law), most of it the measured latency")
        if flat["p99"] >= GOAL_P99:
            text += (f"; a p99 under {GOAL_P99 * 1000:.0f} ms with {flat['games']} games "
                     f"would need well over {flat['games'] / GOAL_P99:,.0f} actions/s")
        out.append(text + ".")
    paced = next((run for run in r["runs"] if run["think_ms"]), None)
    if paced is not None:
        out.append(
            f"Paced, the server uses {paced['server_cpu_s'] / paced['wall_s']:.2f} of a core "
            "and the latency is its own work per action (checking the action on a copy, the "
            "SQLite commit, building both seats' views, JSON and permessage-deflate) plus "
            "queueing behind other games' actions; the rare slow ones wait behind a burst of "
            "other games' actions or a garbage collection (the server freezes its start-up "
            "heap, so collections stay short) and share the cores with the client.")
    return " ".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None,
                    help=f"concurrent games, half of each (default {GOAL_GAMES})")
    ap.add_argument("--quick", action="store_true",
                    help="10 games (a smoke run; BENCHMARKS.md is left alone)")
    ap.add_argument("--think", type=float, default=500.0, metavar="MS",
                    help="mean think time of the paced run, in ms (0: flat out only; "
                         "default 500)")
    ap.add_argument("--timeout", type=float, default=1800.0,
                    help="seconds a run may take before its games count as unfinished")
    ap.add_argument("--runs", choices=("both", "flat", "paced"), default="both",
                    help="which runs to make (default both)")
    ap.add_argument("--server-profile", metavar="FILE", default=None,
                    help="run the server under cProfile, its stats written to FILE "
                         "(implies --no-write: the profiler slows the server)")
    ap.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = ap.parse_args(argv)
    games = args.games if args.games is not None else (10 if args.quick else GOAL_GAMES)
    if games < 1:
        ap.error("--games must be at least 1")
    if args.runs == "paced" and args.think <= 0:
        ap.error("the paced run needs a think time (--think MS above 0)")
    profile = str(Path(args.server_profile).resolve()) if args.server_profile else None
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        r = runner.run(measure(games, max(0.0, args.think) / 1000, args.timeout, args.runs,
                               profile))
    extra = " ".join(argv if argv is not None else sys.argv[1:])
    command = "make bench" if not extra else f"python benchmarks/server_load.py {extra}"
    section = render(r, command)
    publish("Server load", START, END, section, not (args.no_write or args.quick or profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
