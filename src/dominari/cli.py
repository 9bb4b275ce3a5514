"""The ``dominari`` command: simulate, play and replay games.

``dominari simulate dominion --players bmu,smithy -n 10000 --seed 1 --workers 2``
(or ``simulate dominations --players greedy,random …``) plays many bot games in
parallel and prints win rates with 95% intervals (for Dominations also the mean
VP by source). ``dominari tournament dominion --players random,bm,bmu,smithy -n 100``
plays a round robin (``--seats 2|3|4``) and prints a leaderboard with win rates and
OpenSkill ratings (``--plot FILE.png`` draws them). ``dominari play dominion --players
human,bmu`` (or ``play dominations --players human,greedy``) plays in the terminal
(with no ``human`` seat it shows a whole bot game). ``dominari replay FILE`` prints a recorded
game (either game). ``dominari show dominations --seed 5 --turns 12
--svg board.svg`` lets bots play Dominations turns and draws the board.
``dominari data check [DIR]`` validates a folder of Dominations component files
(default: the built-in set) and summarises it. Bad input ends
with one line ``dominari: error: …`` on stderr and exit status 2; a run the machine stops
(a full disk, too little memory) ends the same way with status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import random
import re
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, TextIO, TypeVar

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from dominari import __version__
from dominari.bots import BUILTIN_STRATEGIES, bot_blurbs, load_bot
from dominari.bots.base import Bot, DominationsBot, GameBot
from dominari.bots.dominations_random import DominationsRandomBot
from dominari.bots.mcts import (
    LEVELS,
    MAX_SECONDS,
    SEARCH_BOTS,
    SEARCH_OPTIONS,
    SETTINGS,
    MCTSBot,
    describe_level,
    mcts_bot,
    search_spec,
    seconds_fault,
)
from dominari.core.checks import UNSHOWN, escaped
from dominari.core.errors import (
    ConfigError,
    DominariError,
    IllegalActionError,
    ParseError,
    RecordError,
    machine_cause,
)
from dominari.dominations.data import (
    COLOURS,
    DOMAIN_NAMES,
    DOMAINS,
    GameData,
    builtin_folder,
    load_data,
)
from dominari.dominations.engine import DominationsConfig, DominationsState
from dominari.dominations.grid import Cell
from dominari.dominations.notation import PLACE, REACTIVATE
from dominari.dominations.production import totals
from dominari.dominations.render import state_svg
from dominari.dominations.rules import CHOICES, Rules
from dominari.dominations.text import event_lines
from dominari.dominations.tree_render import tree_svg
from dominari.dominion import events as G
from dominari.dominion.cards import KINGDOM, NAME
from dominari.dominion.engine import DominionConfig, DominionState
from dominari.dominion.kingdoms import describe as describe_kingdom
from dominari.dominion.render import (
    cards_text,
    describe_decision,
    event_line,
    scores_text,
    seat,
    status_text,
)
from dominari.sim.deadline import (
    MAX_DECISION_TIMEOUT,
    MIN_DECISION_TIMEOUT,
    check_decision_timeout,
)
from dominari.sim.pool import (
    MEMORY_ERROR,
    MIN_STALL,
    PoolError,
    WorkersLost,
    check_backend,
    end_own_ray,
)
from dominari.sim.records import (
    ANY_RECORDS,
    LinesFile,
    check_writable_file,
    load_record,
    missing_folders,
    prepare_dir,
    remove_folders,
    write_record_atomic,
    write_text_atomic,
)
from dominari.sim.runner import (
    DEFAULT_MAX_TURNS,
    GAME_TITLES,
    HUMAN,
    BotError,
    DominationsOptions,
    GameOptions,
    action_text,
    ask_bot,
    bot_seed,
    card_gaps,
    check_by_card,
    check_game,
    default_workers,
    dominations_data,
    game_options,
    in_library,
    parse_players,
    reset_bots,
    seat_labels,
    seat_names,
    seat_words,
    simulate,
    stopped_record,
    timed_searches,
)
from dominari.sim.seats import record_with_seats, rerun, seat_entries
from dominari.sim.stats import (
    CardSplit,
    HeldCard,
    PlayerResult,
    SimResult,
    TurnPlace,
    WinShare,
)
from dominari.sim.tournament import (
    RATING_CAVEAT,
    RATING_MU,
    RATING_NAME,
    RATING_SIGMA,
    SEATS,
    TournamentResult,
    parse_entries,
    title,
    tournament,
)

PROG = "dominari"
EXIT_USAGE = 2
"""The exit status of a mistake in the request: a bad flag, file, card, bot …"""
EXIT_FAILED = 1
"""The exit status of a run the machine stopped (a full disk, too little memory), as of
standard output that cannot be written: the request may work elsewhere or later, or with
less asked of the machine."""
DEFAULT_PLAYERS = {"dominion": f"{HUMAN},bmu", "dominations": f"{HUMAN},greedy"}


class UsageError(DominariError):
    """A bad command line (unknown flag, bad value, missing argument)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, raised instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: None = None) -> argparse.Namespace:
        """As argparse's, but a flag no command knows points to the command's own help."""
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            prog = " ".join([self.prog, *(str(getattr(ns, d)) for d in ("command",
                                                                       "data_command")
                                          if getattr(ns, d, None))])  # fmt: skip
            raise UsageError(f"unrecognized arguments: {' '.join(extras)} (see '{prog} "
                             "--help')")  # fmt: skip
        return ns


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        most = sys.get_int_max_str_digits()
        digits = text.strip().lstrip("+-").replace("_", "")
        if most and len(digits) > most and _WHOLE.fullmatch(text.strip()):  # whole, but
            raise argparse.ArgumentTypeError(  # past what Python converts
                f"a whole number of {len(digits):,} digits is too long (at most "
                f"{most:,})") from None
        shown = text if len(text) <= 40 else text[:39] + "…"
        raise argparse.ArgumentTypeError(f"expected a whole number, not {shown!r}") from None


_WHOLE = re.compile(r"[+-]?[0-9]+(_[0-9]+)*")
"""A whole number as ``int()`` reads one (an underscore between digits)."""


def _seed(text: str) -> int:
    value = _integer(text)
    if value < 0:  # as the server and the environments: a seed is 0 or more
        raise argparse.ArgumentTypeError(f"a seed is a whole number of 0 or more, not {value}")
    return value


def _positive(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _text(text: str) -> str:
    """A name, path or list given to a flag: an empty one is a mistake (``--plot ""`` would
    otherwise draw nothing, ``--kingdom ""`` deal a random kingdom)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def _non_negative(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _port(text: str) -> int:
    value = _integer(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def _float_seconds(text: str) -> float:
    """A number of seconds more than 0, for a flag."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0.0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _seconds(text: str) -> float:
    """A search bot's time a decision: at most a minute (:data:`MAX_SECONDS`), worded as
    a spec's ``seconds=`` is (:func:`~dominari.bots.mcts.seconds_fault`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    fault = seconds_fault(value, text)
    if fault:
        raise argparse.ArgumentTypeError(f"must be {fault}")
    return value


def _stall(text: str) -> float:
    """A stall limit: a number of seconds, at least :data:`~dominari.sim.pool.MIN_STALL`."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isfinite(value) and value < MIN_STALL:  # 0 and -1 too, with the same words
        raise argparse.ArgumentTypeError(f"must be at least {MIN_STALL:g} seconds, not {text}")
    return _float_seconds(text)


def _decision_timeout(text: str) -> float:
    """A decision's time limit in seconds, as the runner takes it
    (:func:`~dominari.sim.deadline.check_decision_timeout`)."""
    value = _float_seconds(text)
    try:
        check_decision_timeout(value)
    except ConfigError:  # worded with the text given (1e12, not 1000000000000.0)
        raise argparse.ArgumentTypeError(f"must be {MIN_DECISION_TIMEOUT:g} to "
                                         f"{MAX_DECISION_TIMEOUT:g} seconds, not {text}"
                                         ) from None  # fmt: skip
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Dominari: play, simulate and replay board games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=_Parser)  # fmt: skip

    sim = sub.add_parser(
        "simulate", help="play many bot games and report win rates",
        description="Play many seeded games between bots, in parallel processes, and report "
        "win and tie rates with 95% Wilson intervals. Results depend on --seed only, "
        "never on --workers or --backend.",
    )  # fmt: skip
    sim.add_argument("game", help="the game: dominion or dominations")
    sim.add_argument("--players", required=True, metavar="A,B",
                     help="comma-separated bots, one per seat (2 to 4): for dominion random, "
                     f"{', '.join(BUILTIN_STRATEGIES)}, best (the kingdom's best rule bot) "
                     "or strategy file paths; for "
                     "dominations random, greedy; for both the search levels mcts-easy, "
                     "mcts, mcts-hard, with options as in mcts:steps=200000:width=8, and "
                     "bots of your own in Python, FILE.py:CLASS "
                     "('dominari bots' lists them all, and the options)")  # fmt: skip
    sim.add_argument("-n", "--games", type=_positive, default=1000, metavar="N",
                     help="number of games (default 1000)")  # fmt: skip
    _run_flags(sim, "simulation")
    sim.add_argument("--record-dir", type=_text, metavar="DIR",
                     help="write one record file per game here")
    sim.add_argument("--per-game", type=_text, metavar="FILE",
                     help="write each game's result here, a JSON line a game in game order "
                     "(index, seed, scores, ranks, turns, how it ended, turn order, "
                     "kingdom …), for statistics of your own")  # fmt: skip
    sim.add_argument("--by-card", action="store_true",
                     help="also give each seat's win rate in the games with each card and "
                     "without it: dominion, kingdoms that differ between games, by Kingdom "
                     "card; dominations, by the mastery cards the seat held at the end")
    sim.add_argument("--json", action="store_true", help="print the results as JSON")
    sim.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    sim.set_defaults(func=cmd_simulate)

    tour = sub.add_parser(
        "tournament", help="play a round robin between bots and rate them",
        description="Play a round robin: every combination of SEATS players is a match-up "
        "that plays N seeded games, rotating the seats every game. Reports win rates with "
        f"95% Wilson intervals, head-to-head results and {RATING_NAME} ratings. "
        "Results depend on --seed only, never on --workers or --backend.",
    )  # fmt: skip
    tour.add_argument("game", help="the game: dominion or dominations")
    tour.add_argument("--players", required=True, metavar="A,B,C",
                      help="comma-separated bots, at least SEATS of them (a repeated bot is "
                      "a separate entry): for dominion random, "
                      f"{', '.join(BUILTIN_STRATEGIES)}, best (the kingdom's best rule "
                      "bot), mcts-easy, mcts, mcts-hard or "
                      "strategy file paths; for "
                      "dominations random, greedy and the mcts levels; a level takes "
                      "options: mcts:steps=200000:width=8; for both, bots of your own in "
                      "Python, FILE.py:CLASS ('dominari bots' lists them "
                      "all, and the options)")  # fmt: skip
    tour.add_argument("-n", "--games", type=_positive, default=100, metavar="N",
                      help="games per match-up (default 100); a multiple of SEATS balances "
                      "the seats exactly (who begins is still drawn per game by the "
                      "engine)")  # fmt: skip
    tour.add_argument("--seats", type=_seats, default=2,
                      help="players per game, 2 to 4 (default 2)")
    _run_flags(tour, "tournament")
    tour.add_argument("--json", action="store_true", help="print the results as JSON")
    tour.add_argument("--plot", type=_text, metavar="FILE.png",
                      help="draw win rates and ratings to this PNG file (needs matplotlib)")
    tour.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    tour.add_argument("--journal", type=_text, metavar="FILE.jsonl",
                      help="write the finished games to this file (a batch of at most 1%% "
                      "of them at a time), and reuse the games it already holds: a stopped "
                      "tournament run again with the same arguments (an explicit --seed) "
                      "goes on where it stopped")  # fmt: skip
    tour.add_argument("--recheck", type=_non_negative, default=0, metavar="N",
                      help="with --journal: a journal written by another version of "
                      "Dominari, or before a --data folder's files changed, is kept if N "
                      "of its games, picked at random and played again now, come out the "
                      "same (default 0: such a journal is refused); a journal written "
                      "before a player's file changed (a strategy file, a Python bot's) "
                      "goes on without it, playing that player's match-ups again; a "
                      "journal of this code is checked so (a game edited by hand comes out "
                      "otherwise)")
    tour.add_argument("--record-dir", type=_text, metavar="DIR",
                      help="write one record file per game here (matchup-001-game-000001.json "
                      "…, and tournament.json, which says who plays each match-up); with "
                      "--journal, the records go on with it")  # fmt: skip
    tour.add_argument("--by-card", action="store_true",
                      help="dominion, kingdoms that differ between games: also give each "
                      "player's win rate in its games with each Kingdom card and without it; "
                      "dominations: with each mastery card it held at the end and without "
                      "it")
    tour.add_argument("--per-game", type=_text, metavar="FILE",
                      help="write each game's result here, a JSON line a game, match-up by "
                      "match-up (match-up, index, seed, seating, players, scores, ranks, how "
                      "it ended, turn order, kingdom or mastery cards), for statistics of your "
                      "own")
    tour.set_defaults(func=cmd_tournament)

    play = sub.add_parser(
        "play", help="play a game in the terminal (or watch bots play)",
        description="Play in the terminal. Seats named 'human' read actions from standard "
        "input (Dominion: unambiguous prefixes allowed, 'b prov'; 'help' lists the legal "
        "actions, for Dominations 'help L07' those starting with L07 and what each placement "
        "would produce; 'quit' stops). With no human seat, prints a whole bot game.",
    )  # fmt: skip
    play.add_argument("game", help="the game: dominion or dominations")
    play.add_argument("--players", default=None, metavar="A,B",
                      help="comma-separated seats: 'human' or bot names (dominion: also "
                      "strategy files; both: a Python bot, FILE.py:CLASS; default human,bmu; "
                      "dominations: default "
                      "human,greedy); a search level takes options: "
                      "mcts:steps=200000:width=8 ('dominari bots' lists the bots and "
                      "the options)")  # fmt: skip
    play.add_argument("--seed", type=_seed, default=None, help="game seed (default: random)")
    play.add_argument("--kingdom", type=_text, default=None,
                      help="dominion: recommended set name, 'random' or comma-separated cards "
                      "(default random, from the seed)")  # fmt: skip
    play.add_argument("--max-turns", type=_positive, default=None, metavar="T",
                      help=f"dominion: stop after T turns per player (default {DEFAULT_MAX_TURNS})")
    play.add_argument("--bot-seconds", type=_seconds, default=None, metavar="S",
                      help="search bots (mcts-easy, mcts, mcts-hard): think at most S "
                      f"seconds a decision, S at most {MAX_SECONDS:g} (default: their "
                      "level's budget alone, so that a seed plays the same game on any "
                      "machine)")  # fmt: skip
    _decision_timeout_flag(play, "the game")
    _dominations_flags(play)
    play.add_argument("--svg", type=_text, metavar="FILE",
                      help="dominations: redraw the board to this SVG file after every action")
    where = play.add_mutually_exclusive_group()
    where.add_argument("--record", type=_text, metavar="FILE",
                       help="write the game record here at the end")
    where.add_argument("--record-dir", type=_text, metavar="DIR",
                       help="write the game record at the end into DIR (as "
                       "<game>-<seed>.json)")  # fmt: skip
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="print a recorded game turn by turn",
                         description="Replay a game record and print its log and scores; "
                         "with --bots, play it again with the bots it names instead.")
    rep.add_argument("file", type=_text, metavar="FILE",
                     help="a record written by play, show, simulate, tournament or the "
                     "server")  # fmt: skip
    rep.add_argument("--upto", type=_non_negative, default=None, metavar="N",
                     help="stop after the first N actions")
    rep.add_argument("--data", type=_text, default=None, metavar="DIR",
                     help="dominations: the folder of component files the game was played "
                     "with (default: the one the record names, looked up from here, then "
                     "beside the record)")  # fmt: skip
    rep.add_argument("--bots", action="store_true",
                     help="play the game again with the bots the record names (each reset "
                     "with its recorded seed, a search with its recorded settings) and say "
                     "whether they make every recorded move of theirs: exit 0 if they do, 1 "
                     "at the first they do not, 2 for a record they cannot play again (no "
                     "seeds, as a server's; a file changed since)")  # fmt: skip
    _decision_timeout_flag(rep, "the game --bots plays again")
    rep.set_defaults(func=cmd_replay)

    srv = sub.add_parser(
        "serve", help="run the game server (HTTP and WebSocket API)",
        description="Run the game server: games between humans and bots over HTTP and "
        "WebSocket, stored in SQLite (default: data/dominari.db, or $DOMINARI_DATA) or "
        "PostgreSQL (--db or $DOMINARI_DB_URL). Prints its address; Ctrl-C stops it.",
    )  # fmt: skip
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on "
                     "(default 127.0.0.1)")
    srv.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    srv.add_argument("--db", type=_text, default=None, metavar="URL",
                     help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/db "
                     "(default: $DOMINARI_DB_URL, else SQLite in the data folder)")
    srv.add_argument("--data", action="append", default=[], metavar="NAME=DIR",
                     help="offer a folder of Dominations component data as NAME (repeatable)")
    srv.add_argument("--bot-workers", type=_positive, default=None, metavar="N",
                     help="processes that run bot decisions (default: one fewer than the "
                     "CPUs, at least 1)")
    srv.add_argument("--bot-seconds", type=_seconds, default=1.0, metavar="S",
                     help=f"a search bot's time per decision, at most {MAX_SECONDS:g}, in "
                     "the games created from now on (default 1.0; a game keeps the time it "
                     "was created with)")
    srv.add_argument("--max-bot-games", type=_non_negative, default=50, metavar="N",
                     help="unfinished games of bots only played at once; another is "
                     "refused (429) until one ends (default 50; 0: no limit). Games with a "
                     "person in them are never refused, and their bots go first")
    srv.add_argument("--ws-compression", action=argparse.BooleanOptionalAction,
                     default=True, help="compress WebSocket messages (permessage-deflate; "
                     "default on: a view then takes a few hundred bytes instead of ~10 KB)")
    srv.set_defaults(func=cmd_serve)

    bots = sub.add_parser(
        "bots", help="list the bots of each game, the search levels and their options",
        description="List the bots a --players list takes: each game's rule bots, and the "
        "search levels with their budgets and the options a level takes "
        "(LEVEL:option=value:…).",
    )  # fmt: skip
    bots.add_argument("game", nargs="?", default=None,
                      help="dominion or dominations (default: both)")
    bots.add_argument("--json", action="store_true", help="print the list as JSON")
    bots.set_defaults(func=cmd_bots)

    data = sub.add_parser("data", help="check Dominations component data files",
                          description="Work with the Dominations component data files.")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="ACTION",
                                   parser_class=_Parser)  # fmt: skip
    check = data_sub.add_parser(
        "check", help="validate a data folder and summarise it",
        description="Validate the Dominations component files in DIR (default: the built-in "
        "set); files DIR lacks are taken from the built-in set. Prints, per component kind, "
        "the count, how many records are rulebook facts and how many reconstructed, and where "
        "each file came from.",
    )  # fmt: skip
    check.add_argument("dir", nargs="?", default=None, metavar="DIR",
                       help="a folder of data files (default: the built-in data)")
    check.set_defaults(func=cmd_data_check)

    show = sub.add_parser(
        "show", help="let bots play some Dominations turns; print the log, draw the board",
        description="Set up a Dominations game, let random bots play the first T turns "
        "(all players together), print what happened with every production item, the "
        "players' boards, and optionally draw the board as SVG.",
    )  # fmt: skip
    show.add_argument("game", help="the game: dominations")
    show.add_argument("--players", type=_player_count, default=2, metavar="N",
                      help="number of players, 2 to 4 (default 2)")
    show.add_argument("--seed", type=_seed, default=None, help="game seed (default: random)")
    show.add_argument("--turns", type=_non_negative, default=12, metavar="T",
                      help="turns to play, all players together (default 12)")
    show.add_argument("--svg", type=_text, metavar="FILE", help="draw the board to this SVG file")
    show.add_argument("--trees", type=_text, metavar="DIR",
                      help="draw each player's civilization tree to DIR/tree-<player>.svg")
    show.add_argument("--monuments", type=_text, metavar="IDS",
                      help="the monuments in play, e.g. M01,M07 (default: drawn at random)")
    show.add_argument("--record", type=_text, metavar="FILE", help="write the game record here")
    show.add_argument("--data", type=_text, metavar="DIR",
                      help="a folder of corrected component files (see 'dominari data check')")
    show.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule option, e.g. connection=all-sides (repeatable)")
    show.add_argument("--no-log", action="store_true", help="print only the final position")
    show.set_defaults(func=cmd_show)
    return parser


def _dominations_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", choices=CHOICES["variant"], default=None,
                        help="dominations: the rules variant (default retail)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="dominations: a rule option, e.g. connection=all-sides "
                        "(repeatable)")  # fmt: skip
    parser.add_argument("--data", type=_text, metavar="DIR",
                        help="dominations: a folder of corrected component files "
                        "(see 'dominari data check')")  # fmt: skip


def _run_flags(parser: argparse.ArgumentParser, what: str) -> None:
    """The flags of commands that play many games: seed, workers, backend, game options."""
    parser.add_argument("--seed", type=_seed, default=None,
                        help=f"{what} seed (default: random, reported)")
    parser.add_argument("--workers", type=_positive, default=None, metavar="W",
                        help="worker processes (default: one per CPU; at most 4 a CPU, "
                        "or 16 on a machine of 4 CPUs or fewer); with --backend ray, the "
                        "number of tasks running at once (default: this machine's CPUs; "
                        "on a cluster give its CPUs)")  # fmt: skip
    parser.add_argument("--backend", default="local", metavar="NAME",
                        help="where games run: local processes (default) or ray (the "
                        "cluster at RAY_ADDRESS, else a local one; needs pip install "
                        "'dominari[cluster]')")  # fmt: skip
    parser.add_argument("--stall-timeout", type=_stall, default=None, metavar="S",
                        help="a worker that finishes no game for S seconds (at least "
                        f"{MIN_STALL:g}) is taken for hung, stopped, and its games played "
                        "again (default: wait)")  # fmt: skip
    _decision_timeout_flag(parser, "the run")
    parser.add_argument("--kingdom", type=_text, default=None,
                        help="dominion: recommended set name, 'random' or comma-separated "
                        "cards (default random, from the seed)")  # fmt: skip
    parser.add_argument("--max-turns", type=_positive, default=None, metavar="T",
                        help="dominion: stop a game after T turns per player "
                        f"(default {DEFAULT_MAX_TURNS})")  # fmt: skip
    _dominations_flags(parser)


def _seats(text: str) -> int:
    value = _integer(text)
    if value not in SEATS:
        raise argparse.ArgumentTypeError(f"a game seats 2 to 4 players, not {value}")
    return value


def _decision_timeout_flag(parser: argparse.ArgumentParser, what: str) -> None:
    """``--decision-timeout S``, which stops ``what`` (``the run``) at a bot's decision
    (or ``reset``) that takes longer."""
    parser.add_argument("--decision-timeout", type=_decision_timeout, default=None,
                        metavar="S", help=f"stop {what}, naming the bot, when a bot takes "
                        "more than S seconds over one decision or over reset (a bot of "
                        "your own that hangs is stopped where it is; default: no "
                        "limit)")  # fmt: skip


def _player_count(text: str) -> int:
    value = _integer(text)
    if not 2 <= value <= 4:
        raise argparse.ArgumentTypeError(f"Dominations is for 2 to 4 players, not {value}")
    return value


def _rules(args: argparse.Namespace) -> Rules:
    """The rule options from ``--rule`` and ``--variant`` (a conflict between them is an
    error)."""
    rules = Rules.parse(args.rule)
    if args.variant is not None:
        named = [item for item in args.rule
                 if item.partition("=")[0].strip().replace("-", "_") == "variant"]
        if named and rules.variant != args.variant:
            raise ConfigError(f"--variant {args.variant} conflicts with --rule {named[-1]}: "
                              "give the variant once")  # fmt: skip
        rules = rules.with_options({"variant": args.variant})
    return rules


def _only_for(game: str, args: argparse.Namespace) -> None:
    """Reject the flags of the other game."""
    if game == "dominion":
        flags = [("--variant", args.variant), ("--rule", args.rule), ("--data", args.data),
                 ("--svg", getattr(args, "svg", None))]  # fmt: skip
        other, own = "Dominations", "--kingdom and --max-turns"
    else:
        flags = [("--kingdom", args.kingdom), ("--max-turns", args.max_turns)]
        other, own = "Dominion", "--variant, --rule and --data"
    used = [flag for flag, value in flags if value is not None and value != []]
    if used:
        raise ConfigError(f"{', '.join(used)}: {other} option{'s' if len(used) > 1 else ''}; "
                          f"{GAME_TITLES[game]} takes {own}")


def _sim_options(args: argparse.Namespace, game: str) -> GameOptions:
    _only_for(game, args)
    if game == "dominion":
        max_turns = DEFAULT_MAX_TURNS if args.max_turns is None else args.max_turns
        return game_options(game, kingdom=args.kingdom, max_turns=max_turns)
    return DominationsOptions(_rules(args), args.data)


def _random_seed() -> int:
    return random.SystemRandom().randrange(2**32)


_NAME_WIDTH = 16
"""The width a table keeps for a player's name before wrapping it (a search bot with
options, a strategy file's path)."""
_LEAST_NAME_WIDTH = 6
"""The narrowest a table's names are broken to fit the terminal (the width of their
heading, ``Player``)."""


def _name_width(players: Sequence[Any], width: int = _NAME_WIDTH) -> int:
    """The least width of a table's column of ``players``' names (each has a ``name``), as
    :func:`_name_text` breaks them into lines of at most ``width``."""
    return min(width, max(len(line) for p in players
                          for line in _name_lines(p.name, width)))  # fmt: skip


def _name_lines(name: str, width: int = _NAME_WIDTH) -> list[str]:
    """A player's name in lines of at most ``width`` characters, broken where it can be:
    a search spec after its colons, an option too long for a line on lines of its own
    after its ``=``, so that a narrow column does not cut a value in two; a part still
    too long after a ``/``, ``-`` or white space, else anywhere. A name of words (no
    colon) is left whole, for the table to wrap at its spaces as its column allows.

    >>> _name_lines("mcts-easy:seconds=0.05:width=3")
    ['mcts-easy:', 'seconds=0.05:', 'width=3']
    >>> _name_lines("mcts-easy:iterations=100000:own=smithy-market")
    ['mcts-easy:', 'iterations=', '100000:', 'own=', 'smithy-market']
    >>> _name_lines("mcts:width=3"), _name_lines("Smithy")
    (['mcts:width=3'], ['Smithy'])
    >>> _name_lines("mcts-easy:iterations=20", 8)
    ['mcts-', 'easy:', 'iteratio', 'ns=', '20']
    >>> _name_lines("strategies/smithy-big-money.toml")
    ['strategies/', 'smithy-big-', 'money.toml']
    >>> _name_lines("Smithy with a Market or two")
    ['Smithy with a Market or two']
    """
    if len(name) <= width:
        return [name]
    if ":" not in name:
        return [name] if any(c.isspace() for c in name) else _broken(name, width)
    lines = [""]
    alone = False  # the last line is a long option's: the next part begins a line
    for part in re.findall(r"[^:]*:|[^:]+$", name):
        if len(part) <= width:
            if lines[-1] and (alone or len(lines[-1]) + len(part) > width):
                lines.append(part)
            else:
                lines[-1] += part
            alone = False
            continue
        key, eq, value = part.partition("=")
        pieces = [key + eq, value] if eq else [part]
        lines.extend(line for piece in pieces for line in _broken(piece, width))
        alone = True
    return [line for line in lines if line]


def _broken(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken after a ``/``, ``-`` or
    white space where it can be, else anywhere but within a number (one longer than
    ``width`` has a line of its own, longer).

    >>> _broken("steps=2000000", 6), _broken("smithy-market", 8)
    (['steps=', '2000000'], ['smithy-', 'market'])
    """
    lines = [""]
    for piece in re.findall(r"[^/\-\s]*[/\-\s]|[^/\-\s]+$", text):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        if len(lines[-1]) + len(piece) <= width:
            lines[-1] += piece
            continue
        for bit in _NUMBER_OR_NOT.findall(piece):  # no break within it: cut where the
            if lines[-1] and len(lines[-1]) + len(bit) > width:  # line ends, numbers whole
                lines.append("")
            lines[-1] += bit
            while len(lines[-1]) > width and not _NUMBER.fullmatch(lines[-1]):
                lines[-1:] = [lines[-1][:width], lines[-1][width:]]
    return [line for line in lines if line]


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_NUMBER_OR_NOT = re.compile(r"\d+(?:\.\d+)?|\D+")


def _name_text(name: str, width: int = _NAME_WIDTH) -> Text:
    """A player's name for a table cell, broken as :func:`_name_lines` does."""
    return Text("\n".join(_name_lines(name, width)))


class _Layout(NamedTuple):
    """How a table is laid out to fit the terminal: its players' names broken into lines
    of at most ``names`` characters (:func:`_name_lines`); with ``stacked``, each rate's
    interval on a line under it, which takes some 6 columns less a rate."""

    names: int = _NAME_WIDTH
    stacked: bool = False


_WIDE = _Layout()
"""A table's layout where nothing needs to give way: names up to :data:`_NAME_WIDTH`,
intervals beside their rates."""


def _fitted(build: Callable[[_Layout], Table], names: Sequence[str], width: int,
            stack: bool = True) -> tuple[Table, _Layout]:  # fmt: skip
    """``(build(layout), layout)`` for the first layout at which the table fits in
    ``width`` columns (a terminal's): its players' ``names`` as wide as they can be, up to
    :data:`_NAME_WIDTH`, down to :data:`_LEAST_NAME_WIDTH`; then, with ``stack``, the same
    with every interval under its rate. Its numbers never wrap, so a table too wide for
    the terminal would have every row wrapped there, or its columns dropped and numbers
    cut to fit. Where none fits, the last tried (the narrowest), for
    :func:`_print_whole`."""
    longest = max((len(line) for name in names for line in _name_lines(name)), default=0)
    start = max(_LEAST_NAME_WIDTH, min(_NAME_WIDTH, longest))
    for stacked in (False, True) if stack else (False,):
        w = start
        while True:
            layout = _Layout(w, stacked)
            table = build(layout)
            over = _table_width(table) - width
            if over <= 0:
                return table, layout
            if w <= _LEAST_NAME_WIDTH or not names:
                break
            w = max(_LEAST_NAME_WIDTH, w - over)
    return table, layout


def _print_fitted(console: Console, build: Callable[[_Layout], Table],
                  players: Sequence[Any] = ()) -> None:  # fmt: skip
    """Print the table ``build(layout)`` of ``players`` (each has a ``name``) as
    :func:`_fitted` fits it to the console's width, whole (:func:`_print_whole`)."""
    _print_whole(console, _fitted(build, [p.name for p in players], console.width)[0])


def _print_whole(console: Console, table: Table) -> None:
    """Print ``table`` with every column and number whole: where it is wider than the
    console, at its own width (a terminal then wraps its rows), never with a column
    dropped or a number cut to ``…``, as rich would to fit it."""
    need = _table_width(table)
    if need <= console.width:
        console.print(table)
        return
    width = console.width
    console.width = need
    try:
        console.print(table)
    finally:
        console.width = width


def _stdout_console() -> Console:
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


R = TypeVar("R")


def _run_games(label: str, total: int, progress: bool, run: Callable[..., R],
               after: Sequence[tuple[str, str]] = (),
               resumed: Callable[[int], None] | None = None) -> R:  # fmt: skip
    """``run()``, a simulation or a tournament of ``total`` games, with a progress bar on
    standard error when ``progress`` and that is a terminal (else, with ``progress``, a
    line there every :data:`PROGRESS_EVERY` seconds: a long run under ``nohup`` or in a
    log says how far it is); ``after`` names what ``run``
    may go on to do with the games once all are played (a tournament), each as its
    keyword argument and its label: ``("rating", "rating")`` for ``run(rating=…)``. The bar
    follows each of them from its first call. ``resumed(k)`` (a tournament's: ``run``
    takes it) says that ``k`` games were read back from a journal; the bar then counts
    them done, and times and foresees only the games played. Standard output is for the
    results alone: whatever the run writes there (Ray's notice of a lost worker …) goes to
    standard error."""
    err = Console(stderr=True)
    with contextlib.redirect_stdout(sys.stderr):
        try:
            if not (progress and err.is_terminal) or err.is_dumb_terminal:  # (TERM=dumb: a
                # bar it cannot redraw, that left a blank line behind)
                if not progress:
                    return run(**({} if resumed is None else {"resumed": resumed}))
                lines = _ProgressLines(label, total)

                def read_lines(k: int) -> None:
                    assert resumed is not None
                    resumed(k)
                    lines.restart(k)  # (the games read back are counted, not timed)

                extra: dict[str, Any] = {} if resumed is None else {"resumed": read_lines}
                return run(progress=lines.advance, **extra,
                           **{keyword: lines.follow(step) for keyword, step in after})
            columns = (
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("games"), TimeElapsedColumn(), TextColumn("eta"),
                TimeRemainingColumn(),
            )  # fmt: skip
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task(label, total=total)
                shown = [task]

                def follow(step: str) -> Callable[[int], None]:
                    phase = bar.add_task(step, total=total, visible=False, start=False)

                    def advance(k: int) -> None:
                        if shown[0] != phase:  # the games are all played (and the steps
                            bar.update(shown[0], visible=False)  # before this one done):
                            bar.update(phase, visible=True)  # this one follows, timed
                            bar.start_task(phase)  # from now on
                            shown[0] = phase
                        bar.advance(phase, k)
                    return advance

                def read_back(k: int) -> None:
                    assert resumed is not None
                    resumed(k)
                    bar.reset(task, completed=k)  # (the games read back are not timed)

                more: dict[str, Any] = {} if resumed is None else {"resumed": read_back}
                return run(progress=lambda k: bar.advance(task, k), **more,
                           **{keyword: follow(step) for keyword, step in after})
        finally:  # Ray's late notices (a lost worker …) go to stderr too, not after results
            end_own_ray()


PROGRESS_EVERY = 60.0
"""Seconds between two lines of progress of a run whose standard error is no terminal."""


class _ProgressLines:
    """A run's progress where standard error is no terminal: a line at most every
    :data:`PROGRESS_EVERY` seconds (``tournament: 45,000 of 150,000 games (30%), 2:05``),
    none for a run that ends sooner; a step after the games (``rating``) is followed
    once the games are done, from its first call."""

    def __init__(self, label: str, total: int) -> None:
        self.label, self.total = label, total
        self.start = self.last = time.monotonic()
        self.done = 0

    def advance(self, k: int) -> None:
        self.done += k
        self._line(self.label, self.done)

    def restart(self, done: int) -> None:
        """Count ``done`` games done already (a journal's), timing from now."""
        self.done = done
        self.start = self.last = time.monotonic()

    def follow(self, step: str) -> Callable[[int], None]:
        done = [0]

        def advance(k: int) -> None:
            done[0] += k
            self._line(step, done[0])
        return advance

    def _line(self, what: str, done: int) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        seconds = int(now - self.start)
        sys.stderr.write(f"{PROG}: {what}: {done:,} of {self.total:,} games "
                         f"({_pct(done / self.total)}), {seconds // 60}:{seconds % 60:02d} "
                         "elapsed\n")
        sys.stderr.flush()


def _note_clock(specs: Sequence[str], game: str, notes: list[str]) -> None:
    """The note (into ``notes``) when a search bot among ``specs`` stops its search by the
    clock (``mcts:seconds=…``): its games then depend on the machine, not only on the seed
    (the results' JSON names them, ``timed_searches``). A bad search spec fails here,
    before anything is said (other bots load in the run)."""
    _note_clock_bots([mcts_bot(spec, game) for spec in specs
                             if search_spec(spec) is not None], notes)  # fmt: skip


def _note_clock_bots(bots: Sequence[object], notes: list[str] | None = None) -> None:
    """:func:`_note_clock` for bots already made (``play``'s, capped by --bot-seconds),
    said on stderr at once without ``notes``."""
    timed = timed_searches(bots)
    if timed:
        one = len(timed) == 1
        _note(f"{', '.join(timed)} {'stops its search' if one else 'stop their searches'} "
              f"by the clock: {'its' if one else 'their'} games depend on the machine's speed "
              "and load, not only on --seed", notes)  # fmt: skip


def _note(text: str, notes: list[str] | None) -> None:
    """A note for stderr (``dominari: note: …``): into ``notes``, said once the run has
    checked what it was given (:func:`_say`), or at once without them."""
    line = f"{PROG}: note: {escaped(text)}\n"  # names from files, as written there
    if notes is None:
        sys.stderr.write(line)
    else:
        notes.append(line)


def _say(notes: Sequence[str]) -> None:
    """Say the notes a run kept: it has checked what it was given (a refused run says only
    why), and is about to play."""
    for line in notes:
        sys.stderr.write(line)


def _check_folder(path: str | Path, flag: str, fresh: str | Sequence[str] | None = None,
                  files: Sequence[Path] = (), keep: bool = False) -> Path:
    """Check before any work that files (``files`` among them) can be written in the folder
    ``path`` given with ``flag``, which the messages name first, as :func:`prepare_dir`
    does. Unless ``keep``, no folder is left made: the command makes it when it writes."""
    made = missing_folders(path)
    try:
        try:
            target = prepare_dir(path, fresh)
        except ConfigError as exc:
            raise ConfigError(f"{flag}: {exc}") from None
        for file in files:
            check_writable_file(file, flag)
    finally:
        if not keep:
            remove_folders(made)
    return target


# ---------------------------------------------------------------- simulate
def _note_timeouts(args: argparse.Namespace, notes: list[str]) -> None:
    """A note where ``--stall-timeout`` is no longer than ``--decision-timeout``: a worker
    stuck in one decision is then taken for hung, and its games played again, before the
    decision's limit names the bot."""
    stall, decision = args.stall_timeout, args.decision_timeout
    if stall is not None and decision is not None and stall <= decision:
        notes.append(f"--stall-timeout {stall:g} is no longer than --decision-timeout "
                     f"{decision:g}: a worker stuck in one decision is taken for hung first, "
                     "and its games played again, before the decision's limit names the "
                     "bot; give a stall timeout longer than a game")


def cmd_simulate(args: argparse.Namespace) -> int:
    game = check_game(args.game)
    backend = check_backend(args.backend)
    specs = parse_players(args.players, game)
    options = _sim_options(args, game)
    if args.by_card:
        try:
            check_by_card(options)
        except ConfigError as exc:
            raise ConfigError(f"--by-card: {exc}") from None
    notes: list[str] = []  # said once the run has checked what it was given
    _note_clock(specs, game, notes)
    _note_timeouts(args, notes)
    _note_missing(specs, game, getattr(args, "kingdom", None), notes,
                  bool(getattr(args, "by_card", False)))
    if args.record_dir is not None:
        _check_folder(args.record_dir, "--record-dir", fresh=ANY_RECORDS)
    per_game = _PerGame(args.per_game, specs, getattr(args, "data", None),
                        ("--record-dir", args.record_dir))  # fmt: skip
    seed = args.seed if args.seed is not None else _random_seed()
    workers = args.workers if args.workers is not None else default_workers()

    def started() -> None:
        per_game.open()
        _say(notes)

    cut: list[SimResult] = []  # the games played before a stop, if any
    run = partial(simulate, specs, args.games, seed, workers, options=options,
                  record_dir=args.record_dir, backend=backend, by_card=args.by_card,
                  stall=args.stall_timeout, decision_timeout=args.decision_timeout,
                  started=started, stopped=cut.append,
                  each_game=per_game.each_game)  # fmt: skip
    t0 = time.perf_counter()
    try:
        result = per_game.whole(lambda: _run_games("simulating", args.games,
                                                   not args.no_progress, run))  # fmt: skip
    except BaseException as exc:  # stopped (a closed terminal's bar fails as it closes:
        if _stop_in(exc) is not None:  # that too)
            # The results first: a hung-up terminal's stderr fails, and output to a file
            # or a pipe still gets them; then what they are, if stderr is still there
            # (also where stdout's reader is gone).
            try:
                if cut:
                    _print_sim_result(args, cut[0], time.perf_counter() - t0, workers)
            finally:
                with contextlib.suppress(OSError):
                    _note(_stopped_note(args, seed, cut[0] if cut else None), None)
        raise
    _print_sim_result(args, result, time.perf_counter() - t0, workers)
    return 0


class _PerGame:
    """A run's ``--per-game`` file (none where ``path`` is None), checked at once: not a
    file another flag of ``others`` (flag, path) names, nor a file a player plays with
    (``specs``' files, the ``data`` folder's) or of another kind; opened once the run has
    checked what it was given, and put in its place whole when the run ends, else left as
    it was (:class:`~dominari.sim.records.LinesFile`)."""

    def __init__(self, path: str | None, specs: Sequence[str], data: str | None,
                 *others: tuple[str, str | None]) -> None:  # fmt: skip
        self.path = path
        self.file: LinesFile | None = None
        if path is None:
            return
        _not_output("--per-game", path)
        for flag, other in others:
            if other and _same_file(path, other):
                raise ConfigError(f"--per-game and {flag} both name {path!r}")
            if (other and flag == "--record-dir"
                    and _inside(os.path.dirname(os.path.abspath(path)), other)):
                raise ConfigError(f"--per-game {path!r} is in the --record-dir folder "
                                  f"{other!r}, which holds the run's records and nothing "
                                  "else: give a file elsewhere")  # fmt: skip
        check_writable_file(path, "--per-game", kind="games", reads=_reads(specs, data))

    def open(self) -> None:
        if self.path is not None:
            self.file = LinesFile(self.path, "--per-game")

    @property
    def each_game(self) -> Callable[[dict[str, Any]], None] | None:
        """What the run gives each game's row to (None without a file)."""
        return None if self.path is None else self._write

    def _write(self, row: dict[str, Any]) -> None:
        assert self.file is not None  # (opened before the first game)
        self.file.write(row)

    def whole(self, run: Callable[[], R]) -> R:
        """``run()``, the file kept if it ends, left as it was if not."""
        try:
            result = run()
            if self.file is not None:
                self.file.keep()
        except BaseException:
            if self.file is not None:
                self.file.discard()
            raise
        return result


def _stopped_note(args: argparse.Namespace, seed: int, result: SimResult | None) -> str:
    """What a stopped simulation says of the results it printed (``result``, None where
    no batch of games was done), and of its files."""
    lost = [what for what, given in (("the records it wrote are removed", args.record_dir),
                                     (f"{args.per_game} is left as it was", args.per_game))
            if given is not None]  # fmt: skip
    files = f"; as for any run that does not end, {' and '.join(lost)}" if lost else ""
    if result is None:
        return f"stopped before its first batch of games was done: no results to give{files}"
    games = result.games
    return (f"stopped after {games:,} of {result.games_asked:,} games, the batches done in "
            "order (a batch being played, and any after it, are not counted): the results "
            f"are those of the first {games:,}, as -n {games} --seed {seed} gives them{files}")


def _print_sim_result(args: argparse.Namespace, result: SimResult, elapsed: float,
                      workers: int) -> None:  # fmt: skip
    """A simulation's results on standard output, as JSON or tables, and on stderr the
    batches played again (:func:`_note_retried`)."""
    if args.json:
        _print_json(result.to_json())
    else:
        _print_sim(_stdout_console(), result, elapsed, min(workers, result.games_asked))
    _note_retried(result.retried)


def _note_retried(retried: Sequence[str]) -> None:
    """Say on stderr which batches of games were played again, their workers lost (each
    game counted once: the results are a run's that lost none), so that a report of the
    run can say so."""
    if retried:
        n = len(retried)
        _note(f"{n:,} batch{'es' if n != 1 else ''} of games {'were' if n != 1 else 'was'} "
              f"played again, {'their workers' if n != 1 else 'its worker'} lost (each game "
              f"counted once): {'; '.join(retried)}", None)  # fmt: skip


def _pct(x: float) -> str:
    """A rate in %, to a tenth, with its sign (in prose): ``66.7%``."""
    return f"{100 * x:.1f}%"


def _percent(x: float) -> str:
    """A rate in %, to a tenth, without its sign (in a column headed in %): ``66.7``."""
    return f"{100 * x:.1f}"


def _interval(rate: float, ci: tuple[float, float], stacked: bool = False,
              number: Callable[[float], str] = _percent) -> str:
    """A rate and its interval, in % (or as ``number`` writes them): ``66.7 [30.0, 90.3]``;
    ``stacked``, the interval on a line under the rate.

    >>> _interval(0.667, (0.3, 0.903))
    '66.7 [30.0, 90.3]'
    >>> _interval(0.032, (-0.0004, 0.07), number=_points)
    '+3.2 [0.0, +7.0]'
    """
    return f"{number(rate)}{_BELOW[stacked]}[{number(ci[0])}, {number(ci[1])}]"


def _rate_head(what: str, stacked: bool) -> str:
    """The heading of a column of rates with their intervals (:func:`_interval`)."""
    return f"{what}{_BELOW[stacked]}[95% CI]"


_BELOW = {False: " ", True: "\n"}
"""What goes between a rate and its interval, side by side or stacked."""


def _points(x: float) -> str:
    """A difference of rates in points, signed (``+3.2``, ``-0.4``), 0 without a sign
    (where it rounds to it: never ``-0.0``)."""
    text = f"{100 * x:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


_REASONS = {"provinces": "Provinces gone", "three-piles": "three piles empty",
            "turn-limit": "turn limit"}  # fmt: skip


def _note_missing(specs: Sequence[str], game: str, kingdom: Any, notes: list[str],
                  by_card: bool = False) -> None:  # fmt: skip
    """A note (into ``notes``) when a Dominion rule bot buys Kingdom cards that the kingdom
    does not always have: a fixed kingdom (a recommended set, or 10 cards) without them, or
    kingdoms drawn per game that have them only in some games
    (:func:`~dominari.sim.runner.card_gaps`, which the results' JSON names too). The bot
    then plays without them, often as a money bot, which a table of its results does not
    show. ``by_card``: the run splits its results by card."""
    spec = "random" if kingdom is None else kingdom
    if game != "dominion":
        return
    try:
        bots = [load_bot(bot_spec, game) for bot_spec in specs]  # (search bots too)
    except DominariError:
        return  # the run says what is wrong with it
    names = seat_names([bot.name for bot in bots], specs)  # as the results name them (BM#1 …)
    missing, partial = card_gaps(bots, names, spec)
    said: dict[tuple[str, tuple[tuple[str, float], ...]], list[str]] = {}  # the players
    where = describe_kingdom(spec)  # of a note, by the bots' name and cards' shares
    for bot, name in zip(bots, names, strict=True):
        if name in missing:
            cards = tuple((card, 0.0) for card in missing[name])
        elif name in partial:
            cards = tuple(partial[name].items())
        else:
            continue
        said.setdefault((bot.name, cards), []).append(name)
    never = [(who, cards) for (_, cards), who in said.items() if cards[0][1] == 0]
    some = [(who, cards) for (_, cards), who in said.items() if cards[0][1] != 0]
    if len(never) == 1:  # players alike said once: "BM#1 and BM#2 buy"
        (who, cards), = never
        one = len(who) == 1
        it = "them" if len(cards) > 1 else "it"
        _note(f"{_and_list(who)} {'buys' if one else 'buy'} {', '.join(c for c, _ in cards)}, "
              f"not in this kingdom ({where}): {'it plays' if one else 'they play'} without "
              f"{it}", notes)
    elif never:  # several players, each its cards: one note, not a line each
        each = "; ".join(f"{_and_list(who)} {'buys' if len(who) == 1 else 'buy'} "
                         f"{', '.join(c for c, _ in cards)}" for who, cards in never)
        _note(f"{each}: not in this kingdom ({where}); each plays without its cards", notes)
    if len(some) == 1:
        (who, cards), = some
        one = len(who) == 1
        plays = "it plays" if one else "they play"
        it = "them" if len(cards) > 1 else "it"
        # a share of kingdoms, not of this run's games
        percents = " and ".join(f"{100 * v:.0f}%" for _, v in cards)
        how = (f"the results by card below compare the games with and without {it}"
               if by_card else f"name {'its' if one else 'their'} cards (--kingdom) to "
               "compare strategies with their cards, or split the results by card "
               "(--by-card)")
        _note(f"{_and_list(who)} {'buys' if one else 'buy'} "
              f"{' and '.join(c for c, _ in cards)}, which {percents} of kingdoms have "
              f"(kingdom {where}): {plays} without {it} where the kingdom lacks {it}; {how}",
              notes)
    elif some:
        each = "; ".join(
            f"{_and_list(who)} {'buys' if len(who) == 1 else 'buy'} "
            f"{' and '.join(c for c, _ in cards)} "
            f"(in {' and '.join(f'{100 * v:.0f}%' for _, v in cards)} of kingdoms)"
            for who, cards in some)
        how = ("the results by card below compare the games with and without them"
               if by_card else "name their cards (--kingdom) to compare strategies with "
               "their cards, or split the results by card (--by-card)")
        _note(f"{each}; kingdom {where}: each plays without its cards where the kingdom "
              f"lacks them; {how}", notes)


def _print_json(out: dict[str, Any]) -> None:
    """A run's results (``out``, its ``to_json()``: its notes and its data folder's digest
    included) on standard output as JSON."""
    sys.stdout.write(json.dumps(out, indent=2) + "\n")
    sys.stdout.flush()


def sim_table(result: SimResult, layout: _Layout = _WIDE) -> Table:
    """The results of a simulation as a rich table, one row per seat in seat order
    (rates in %, Wilson 95% intervals; VP and turns are means per game), laid out as
    ``layout`` says."""
    names, stacked = layout
    vs = " vs ".join(p.name for p in result.players)
    plural = "" if result.games == 1 else "s"
    table = Table(title=Text(f"{vs}: {result.games:,} game{plural}"), title_style="bold",
                  box=box.SIMPLE_HEAVY, pad_edge=False, collapse_padding=True)  # fmt: skip
    table.add_column("Player", style="bold", overflow="fold",  # a long name wraps
                     min_width=_name_width(result.players, names))
    table.add_column("Wins", justify="right", no_wrap=True)
    table.add_column(_rate_head("Win %", stacked), justify="right", no_wrap=True)
    table.add_column("Ties", justify="right", no_wrap=True)
    table.add_column(_rate_head("Tie %", stacked), justify="right", no_wrap=True)
    table.add_column("Mean VP", justify="right", no_wrap=True)
    turns = result.game == "dominion"  # a Dominations game always lasts 3 ages
    if turns:
        table.add_column("Turns", justify="right", no_wrap=True)
    for p in result.players:
        cells: list[Text | str] = [_name_text(p.name, names), f"{p.wins:,}",
                                   _interval(p.win_rate, p.ci95, stacked),
                                   f"{p.ties:,}", _interval(p.tie_rate, p.tie_ci95, stacked),
                                   f"{p.mean_vp:.2f}"]
        if turns:
            cells.append(f"{p.mean_turns:.2f}")
        table.add_row(*cells)
    return table


def card_table(result: SimResult, at: int, layout: _Layout = _WIDE) -> Table:
    """Seat ``at``'s outright win rate in the games whose kingdom had each card and in the
    others, the difference in points, and the difference among games alike in the key
    cards, by card name; ``layout``: its intervals stacked or not."""
    return _split_table(result.players[at].name, result.by_card, at,
                        not result.unadjusted, layout)  # fmt: skip


def entry_card_table(result: TournamentResult, entry: int, layout: _Layout = _WIDE) -> Table:
    """:func:`card_table` of a tournament's entry ``entry``, in all its games."""
    return _split_table(result.players[entry].name, result.by_card[entry], 0,
                        not result.by_card_unadjusted, layout)  # fmt: skip


def _split_table(name: str, splits: Sequence[CardSplit], at: int, alike_too: bool,
                 layout: _Layout) -> Table:  # fmt: skip
    """The table of :func:`card_table`: player ``at`` of ``splits``, called ``name``;
    ``alike_too``: with the differences among games alike (else the note says why there
    are none)."""
    stacked = layout.stacked
    table = Table(title=Text(f"{name}: win % with each Kingdom card, and without it"),
                  title_style="bold", box=box.SIMPLE_HEAVY, pad_edge=False,
                  collapse_padding=True)  # fmt: skip
    for col in ("Card", "Games", _rate_head("With", stacked), "Without", "Δ",
                *((_rate_head("Δ alike", stacked),) if alike_too else ())):  # fmt: skip
        table.add_column(col, justify="left" if col == "Card" else "right", no_wrap=True)
    for card in splits:  # (Δ's interval is in the JSON: with it the table is too wide
        have, lack = card.present[at], card.absent[at]  # for 80 columns, even stacked)
        plain = card.difference(at)
        delta = "-" if plain is None else _points(plain[0])
        alike = card.adjusted[at] if card.adjusted else None
        table.add_row(card.card, f"{have.games:,}",
                      _interval(have.win_rate, have.ci95, stacked) if have.games else "-",
                      _percent(lack.win_rate) if lack.games else "-", delta,
                      *(("-" if alike is None else
                         _interval(alike[0], (alike[1], alike[2]), stacked, _points),)
                        if alike_too else ()))  # fmt: skip
    return table


def _mastery_table(name: str, cards: Sequence[HeldCard], layout: _Layout = _WIDE,
                   monuments: bool = False) -> Table:  # fmt: skip
    """The table of a player ``name`` (a seat, a tournament's entry, the seats of one bot:
    :func:`held_tables`): its outright win rate in the games in which it held each mastery
    card at the end and in the others, With and Without, whose difference is Δ (in the
    JSON, with its interval), then Δ alike with its interval, the surest gain first (as
    :attr:`SimResult.by_mastery` is ordered); ``monuments``: by monument, in the games in
    which it built a level of each, and in its others with it in play. No cell wraps
    where the intervals are beside their rates (a card's name broken onto a line of its
    own would read as another card): :func:`_fitted` stacks the intervals first, and then
    a name may wrap; ``layout``: its intervals stacked or not."""
    stacked = layout.stacked
    title = (f"{name}: win % where it built a level of each monument, and in its other "
             "games with it" if monuments else
             f"{name}: win % with each mastery card it held at the end, and without it")
    table = Table(title=Text(title), title_style="bold", box=box.SIMPLE_HEAVY,
                  pad_edge=False, collapse_padding=True)  # fmt: skip
    # Where the intervals stack under their rates (each row two lines), a name may wrap
    # onto the row's second line, and further where it must: every row begins with an id.
    for col in ("Monument" if monuments else "Card", "Games", _rate_head("With", stacked),
                "Without", _rate_head("Δ alike", stacked)):  # fmt: skip
        first = not table.columns
        table.add_column(col, justify="left" if first else "right",
                         no_wrap=not (first and stacked))  # fmt: skip
    for c in cards:  # (Δ, with its interval, is in the JSON: with it the table is too
        held, lacked, alike = c.held, c.lacked, c.alike  # wide for 80 columns)
        table.add_row(Text(f"{c.card} {c.name}"), f"{held.games:,}",
                      _interval(held.win_rate, held.ci95, stacked),
                      _percent(lacked.win_rate) if lacked.games else "-",
                      "-" if alike is None else
                      _interval(alike[0], (alike[1], alike[2]), stacked, _points))  # fmt: skip
    return table


def held_tables(result: SimResult) -> list[tuple[str, tuple[HeldCard, ...],
                                                 tuple[HeldCard, ...]]]:
    """The tables by mastery card and by monument the text shows, in seat order: one for
    the seats of each bot that plays several (:attr:`SimResult.by_bot`, named
    ``greedy (seats 1, 2 and 3)``), one for each other seat; each its name, cards and
    monuments."""
    pooled = {g.seats[0]: g for g in result.by_bot}
    within = {p for g in result.by_bot for p in g.seats}
    out = []
    for p, player in enumerate(result.players):
        if p in pooled:
            g = pooled[p]
            seats = _and_list([str(q + 1) for q in g.seats])
            out.append((f"{g.name} (seats {seats})", g.cards, g.monuments))
        elif p not in within:
            out.append((player.name, result.by_mastery[p],
                        result.by_monument[p] if result.by_monument else ()))  # fmt: skip
    return out


def mastery_note(result: SimResult) -> str:
    """The footnote of :func:`_mastery_table`: what Δ and Δ alike measure, the order, how
    many cards look significant by chance alone, and the cards no table has; where seats
    play one bot, that one table holds them (:func:`held_tables`)."""
    shown = held_tables(result)
    note = mastery_note_of([cards for _, cards, _ in shown], [name for name, _, _ in shown],
                           _skill_ids(result.options.get("data")))  # fmt: skip
    if not result.by_bot:
        return note
    return (f"{note} Seats that play one bot share a table: each seat's games count as games "
            "of their own, alike only with the same seat's (--json gives each seat's table "
            "too, in by_mastery and by_monument).")


def monument_note(result: SimResult) -> str:
    """The footnote of the tables by monument: what the columns and Δ alike measure, and
    how many monuments look significant by chance alone."""
    shown = [monuments for _, _, monuments in held_tables(result)]
    compared = sum(c.alike is not None for table in shown for c in table)
    tables = sum(1 for table in shown if table)
    return ("Monuments: With, a seat's win % in the games in which it built a level of the "
            "monument (held a level card of it at the end); Without, in its other games "
            "with the monument in play. Δ alike: the difference among games in which the "
            "seat held as many level cards, as for the mastery cards. A level built is the "
            "player's choice, so this says which monuments go with winning, not how strong "
            f"one is. {_by_chance(compared, tables, 'monument')}")


def _data_words(data: object, digest: str) -> str:
    """The footer's data: ``built-in``, or a folder with the digest of its files (the
    ``data_digest`` a record names), so that runs on a folder edited between them differ.

    >>> _data_words(None, ""), _data_words("mydata", "7f55d188c71d044a")
    ('built-in', 'mydata (digest 7f55d188c71d044a)')
    """
    if not data:
        return "built-in"
    return f"{data} (digest {digest})" if digest else str(data)


def _skill_ids(data: object) -> list[str]:
    """The ids of the mastery cards of the run's data (a folder's, or the built-in)."""
    return [s.id for s in dominations_data(data if isinstance(data, str) else None).skills]


def mastery_note_of(by_mastery: Sequence[Sequence[HeldCard]], names: Sequence[str] = (),
                    cards: Sequence[str] = (), tournament: bool = False) -> str:
    """:func:`mastery_note` of the tables of ``by_mastery`` (a seat's or an entry's cards
    each), called ``names``; ``cards``: every mastery card's id, for those no table has
    (no game's player held them); ``tournament``: its groups of games alike are of one
    match-up too."""
    compared = sum(c.alike is not None for table in by_mastery for c in table)
    tables = len(by_mastery)
    alike_in = ("of one match-up, in which the player held as many mastery cards"
                if tournament else "in which the seat held as many mastery cards")
    return ("Δ, With minus Without (in points in --json, with its interval, Newcombe's): a "
            "card held is the player's choice, and a player who wins takes more cards, so Δ "
            f"tells which cards go with winning. Δ alike: the same among games {alike_in}, "
            "so that a card is set against the other cards of a player who took as many, "
            "not against taking fewer (groups weighted as Mantel-Haenszel's; none for a card "
            "held in every such game or none), with a stratified score interval (Mee's). It "
            "too says which cards go with winning, not what a card does: a strong player "
            "takes the cards it favours. Cards are listed by the low end of Δ alike's "
            "interval, the surest gain first, so that a card held in few games, whose "
            "interval is wide, comes lower than its Δ alike alone would put it. Picked so, "
            "the first rows' low ends are not 95% bounds: read them against the count below "
            "of differences that look significant by chance. "
            f"{_by_chance(compared, tables)}"
            f"{_unheld_note(by_mastery, names, cards)}")


def _unheld_note(by_mastery: Sequence[Sequence[HeldCard]], names: Sequence[str],
                 cards: Sequence[str]) -> str:
    """What :func:`mastery_note_of` says of the mastery cards without a row: those no
    table has, then each table's others (``names[k]`` the table's player)."""
    if not cards or len(names) != len(by_mastery):
        return ""
    lacks = [(name, [c for c in cards if c not in {h.card for h in table}])
             for name, table in zip(names, by_mastery, strict=True)]  # fmt: skip
    nowhere = [c for c in lacks[0][1] if all(c in m for _, m in lacks)] if lacks else []
    said = (f" {_and_list(nowhere)} {'was' if len(nowhere) == 1 else 'were'} held in no game:"
            " no row." if nowhere else "")
    return said + "".join(f" {name} held {_and_list(rest)} in no game: no row there."
                          for name, missing in lacks
                          if (rest := [c for c in missing if c not in nowhere]))


def _by_chance(cards: int, tables: int = 1, what: str = "card") -> str:
    """The footnote's caution that some of ``cards`` differences (in ``tables`` tables,
    one a ``what``) look significant by chance alone ('' for none).

    >>> _by_chance(58).endswith("by chance alone: some 2.9 in a table of 58.")
    True
    >>> _by_chance(175, 3).endswith("some 8.8 of the 175 differences of 3 tables.")
    True
    """
    if not cards:
        return ""
    expected = f"{cards / 20:.1f}".removesuffix(".0")
    where = (f"in a table of {cards}" if tables == 1 else
             f"of the {cards} differences of {tables} tables")
    return (f"About one {what} in 20 shows a difference that looks significant at 95% by "
            f"chance alone: some {expected} {where}.")


def _and_list(items: Sequence[str]) -> str:
    """``items`` in a sentence: "A", "A and B", "A, B and C"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _dealt_note(tables: Sequence[tuple[str, set[str]]]) -> str:
    """What the by-card footnote says of the Kingdom cards without a row: of ``tables``,
    each a player's name and the cards its table has; all alike: the cards no game had."""
    lacks = [(name, [NAME[c] for c in KINGDOM if NAME[c] not in cards])
             for name, cards in tables]
    nowhere = [c for c in (lacks[0][1] if lacks else []) if all(c in m for _, m in lacks)]
    said = (f" {_and_list(nowhere)} {'was' if len(nowhere) == 1 else 'were'} in no game: no "
            "row." if nowhere else "")
    return said + "".join(f" {name} had no game with {_and_list(rest)}: no row there."
                          for name, missing in lacks
                          if (rest := [c for c in missing if c not in nowhere]))


KEY_CARD_ROWS = 32
"""The most rows :func:`key_card_table` shows, a row a seat in each group of games
(``--json`` has them all)."""


def key_card_table(result: SimResult, layout: _Layout = _WIDE) -> Table:
    """Every seat's outright win rate in the games of each group alike in the key cards
    (which of the cards the strategies here buy the kingdom had) and in the rule bot
    ``best`` played, the groups with the most key cards first; of more groups than
    :data:`KEY_CARD_ROWS` rows hold, those with the most games (none without key cards or
    ``best``: see ``result.by_key_cards``); laid out as ``layout`` says."""
    names, stacked = layout
    keyed, played = bool(result.key_cards), result.key_played_as
    title = ("Win % by which of the strategies' cards the kingdom had" if not played else
             "Win % by the rule bot best played" if not keyed else
             "Win % by the strategies' cards the kingdom had, and the rule bot best played")
    table = Table(title=Text(title), title_style="bold", box=box.SIMPLE_HEAVY,
                  pad_edge=False, collapse_padding=True)  # fmt: skip
    rates = _rate_head("Win %", stacked)
    heads = (*(("Key cards",) if keyed else ()), *(("Best as",) if played else ()),
             "Games", "Player", rates)
    for col in heads:
        table.add_column(col, justify="right" if col in ("Games", rates) else
                         "left", no_wrap=col != "Key cards", overflow="fold")  # fmt: skip
    room = max(1, KEY_CARD_ROWS // len(result.players))
    biggest = sorted(range(len(result.by_key_cards)),
                     key=lambda g: -result.by_key_cards[g].games)[:room]  # fmt: skip
    groups = [result.by_key_cards[g] for g in sorted(biggest)]
    for g, group in enumerate(groups):
        for at, (p, share) in enumerate(zip(result.players, group.shares, strict=True)):
            lead = [*([Text(", ".join(group.cards) or "none of them")] if keyed else []),
                    *([Text(group.played_as)] if played else [])]
            table.add_row(*(lead if at == 0 else [""] * len(lead)),
                          f"{group.games:,}" if at == 0 else "", _name_text(p.name, names),
                          _interval(share.win_rate, share.ci95, stacked),
                          end_section=at == len(group.shares) - 1 and g < len(groups) - 1)
    left = len(result.by_key_cards) - len(groups)
    if left:
        table.caption = Text(f"the {len(groups)} groups with the most games; {left:,} "
                             f"smaller one{'s' if left != 1 else ''} in --json (by_key_cards)")
    return table


def card_note(result: SimResult) -> str:
    """The footnote of :func:`card_table`: what the two differences measure."""
    keys = ", ".join(result.key_cards)
    alike_in = " and ".join(
        ([f"the cards the strategies here buy ({keys})"] if keys else [])
        + (["the rule bot best played (the first of its order the kingdom fits)"]
           if result.key_played_as else []))  # fmt: skip
    if result.unadjusted:
        alike = f"Δ alike: not given, since {result.unadjusted}."
    elif alike_in:
        alike = (f"Δ alike: the same among games alike in {alike_in}, so that a card "
                 "displaces only cards that change no rule bot's play here: its own effect "
                 "(groups weighted as Mantel-Haenszel's; none for a card every such game "
                 "has or lacks), with a stratified score interval (Mee's).")
    else:
        alike = ("Δ alike: no rule bot here buys Kingdom cards, so it is Δ, with a score "
                 "interval (Mee's).")
    dealt = {c.card for c in result.by_card}
    compared = _compared([(result.by_card, at) for at in range(len(result.players))],
                         not result.unadjusted)
    return ("Δ: with minus without, in points (--json gives its interval, Newcombe's). A "
            "kingdom always has 10 cards, so Δ is a card's worth against the average card it "
            f"displaces, a card a strategy needs among them. {alike} "
            f"{_by_chance(compared, len(result.players))}{_dealt_note([('', dealt)])}")


def _compared(tables: Sequence[tuple[Sequence[CardSplit], int]], alike: bool) -> int:
    """How many differences with an interval the tables by Kingdom card hold, each the
    splits of one player (``at``): Δ alike's where the tables show it, else Δ's (in
    ``--json``). A card in every game of a player, or in none, has none."""
    def has_one(card: CardSplit, at: int) -> bool:
        if alike:
            return bool(card.adjusted) and card.adjusted[at] is not None
        return card.difference(at) is not None

    return sum(has_one(card, at) for splits, at in tables for card in splits)


def entry_card_note(result: TournamentResult) -> str:
    """The footnote of :func:`entry_card_table`: what the two differences measure, and
    by what games are alike (the cards the strategies at each match-up's table buy, all
    named; ``best`` where it plays)."""
    keys = sorted({c for cards in result.by_card_key_cards for c in cards})
    alike_in = " and ".join(
        ([f"the cards the strategies at its table buy (here {', '.join(keys)}; match-up by "
          "match-up in --json)"] if keys else [])
        + (["the rule bot best played there"] if any(result.by_card_key_played_as)
           else []))  # fmt: skip
    if result.by_card_unadjusted:
        alike = f"Δ alike: not given, since {result.by_card_unadjusted}."
    elif alike_in:
        alike = (f"Δ alike: the same among games of one match-up alike in {alike_in}, so "
                 "that a card displaces only cards that change no rule bot's play: its own "
                 "effect (groups weighted as Mantel-Haenszel's; none for a card every such "
                 "game has or lacks), with a stratified score interval (Mee's).")
    else:
        alike = ("Δ alike: no rule bot here buys Kingdom cards, so it is Δ among games of "
                 "one match-up (groups weighted as Mantel-Haenszel's), with a stratified "
                 "score interval (Mee's).")
    tables = [(s.name, {c.card for c in result.by_card[s.entry]}) for s in result.leaderboard]
    compared = _compared([(result.by_card[s.entry], 0) for s in result.leaderboard],
                         not result.by_card_unadjusted)
    return ("Δ: with minus without, in points (--json gives its interval, Newcombe's), "
            "over a player's games against every opponent. A kingdom always has 10 cards, so Δ is "
            f"a card's worth against the average card it displaces. {alike} "
            f"{_by_chance(compared, len(tables))}{_dealt_note(tables)}")


def played_as_table(player: PlayerResult, layout: _Layout = _WIDE) -> Table:
    """The results of a seat played by ``best`` by the rule bot it played, most games
    first; ``layout``: its intervals stacked or not."""
    stacked = layout.stacked
    table = Table(title=Text(f"{player.name}: win % by the rule bot it played (the best for "
                             "each kingdom)"), title_style="bold", box=box.SIMPLE_HEAVY,
                  pad_edge=False, collapse_padding=True)  # fmt: skip
    table.add_column("Rule bot", no_wrap=True)
    for col in ("Games", "Wins", _rate_head("Win %", stacked)):
        table.add_column(col, justify="right", no_wrap=True)
    for a in player.played_as:
        table.add_row(Text(a.strategy), f"{a.games:,}", f"{a.wins:,}",
                      _interval(a.win_rate, a.ci95, stacked))
    return table


def breakdown_table(result: SimResult, layout: _Layout = _WIDE) -> Table:
    """Mean VP per game by source (rows) for each seat (columns), with the total; the
    players' names, heading the columns, broken as ``layout`` says."""
    table = Table(title="Mean VP by source", title_style="bold", box=box.SIMPLE_HEAVY,
                  pad_edge=False)  # fmt: skip
    table.add_column("Source", no_wrap=True)
    for p in result.players:  # a long name wraps in its heading, never a number
        table.add_column(_name_text(p.name, layout.names), justify="right", no_wrap=True)
    means = [p.mean_breakdown for p in result.players]
    for source in result.sources:
        table.add_row(Text(source), *(f"{m.get(source, 0.0):.2f}" for m in means))
    table.add_row(Text("total", style="bold"), *(f"{p.mean_vp:.2f}" for p in result.players))
    return table


def _rules_text(rules: dict[str, Any]) -> str:
    """The non-default rule options, e.g. ``connection=all-sides`` (or ``default rule
    options``)."""
    defaults = Rules().to_json()
    changed = [f"{k}={v}" for k, v in rules.items() if k != "variant" and defaults.get(k) != v]
    return ", ".join(changed) if changed else "default rule options"


def _print_sim(console: Console, result: SimResult, elapsed: float, workers: int) -> None:
    if result.stopped:
        console.print(f"Stopped after {result.games:,} of {result.games_asked:,} games: the "
                      f"results of the first {result.games:,}", markup=False)  # fmt: skip
    _print_fitted(console, partial(sim_table, result), result.players)
    _print_same_names(console, result.players)
    _print_by_turn(console, result.by_turn, result.game)
    _print_seats_by_turn(console, result)
    _print_win_share(console, [(p.name, p) for p in result.players])
    for p in result.players:  # best: which rule bot it played, and how it did as each
        if p.played_as:
            _print_fitted(console, partial(played_as_table, p))
    if result.by_card:
        for at in range(len(result.players)):
            _print_fitted(console, partial(card_table, result, at))
        console.print(card_note(result), style="dim", markup=False)
        if result.by_key_cards:
            _print_fitted(console, partial(key_card_table, result), result.players)
    if result.by_mastery:
        shown = held_tables(result)
        for name, cards, _ in shown:
            _print_fitted(console, partial(_mastery_table, name, cards))
        console.print(mastery_note(result), style="dim", markup=False)
        if any(monuments for _, _, monuments in shown):
            for name, _, monuments in shown:
                if monuments:
                    _print_fitted(console, partial(_mastery_table, name, monuments,
                                                   monuments=True))  # fmt: skip
            console.print(monument_note(result), style="dim", markup=False)
    if result.game == "dominations":
        if result.sources:
            _print_fitted(console, partial(breakdown_table, result), result.players)
        rules = result.options.get("rules") or {}
        data = result.options.get("data")
        console.print(f"Dominations, {rules.get('variant', 'retail')} rules · seed "
                      f"{result.seed} · {_rules_text(rules)} · data "
                      f"{_data_words(data, result.data_digest)} · ties in VP go to "
                      "initiative", markup=False)  # fmt: skip
    else:
        _print_dominion_footer(console, result)
    console.print(_RATE_INTERVALS, markup=False)
    _print_speed(console, result.games, elapsed, workers)


def _print_same_names(console: Console, players: Sequence[Any]) -> None:
    """A line saying which player is which where different players (each has a ``name``
    and a ``spec``) go by the same name, told apart by ``#1``, ``#2``… (two strategy files
    that call themselves ``BM``, say; the same spec twice is the same bot)."""
    specs: dict[str, set[str]] = {}
    for p in players:
        specs.setdefault(_SAME_NAME.sub("", p.name), set()).add(_same_bot(p.spec))
    which = [f"{p.name} is {p.spec}" for p in players
             if len(specs[_SAME_NAME.sub("", p.name)]) > 1]  # fmt: skip
    if which:
        console.print(f"the same name for different players: {'; '.join(which)}",
                      markup=False)  # fmt: skip


def _same_bot(spec: str) -> str:
    """``spec`` as one bot's specs all read (``BM`` as ``bm``, ``./x.toml`` as ``x.toml``):
    a file by its full path, any other spec in lower case."""
    path = Path(spec)
    return str(path.resolve()) if path.is_file() else spec.strip().lower()


_SAME_NAME = re.compile(r"#\d+$")
"""The number that tells apart players of the same name
(:func:`~dominari.sim.runner.seat_names`)."""

_ORDINALS = ("1st to play", "2nd", "3rd", "4th")
_RATE_INTERVALS = ("[95% CI] of a rate: Wilson score interval (--json names each "
                   "interval's method)")


def _print_by_turn(console: Console, by_turn: Sequence[TurnPlace], game: str) -> None:
    """The line of win rates by place in the turn order, whoever sat there (none when
    the games' turn orders are not known)."""
    if by_turn:  # the engines draw who begins: a seat is not a place in turn order
        console.print(f"win % by {_TURN_ORDER[game]}, whoever sat there (drawn per game): "
                      f"{_places_text(by_turn)}", markup=False)


def _places_text(by_turn: Sequence[TurnPlace], games: bool = False) -> str:
    """Win rates by place in the turn order (``1st to play 51.8 [47.4, 56.1], 2nd …``),
    with ``games``, of how many games each."""
    return ", ".join(f"{_ORDINALS[t.place - 1]} " + (
        f"{_interval(t.win_rate, t.ci95)}" if t.games or not games else "-")
        + (f" of {t.games:,}" if games else "") for t in by_turn)


def _print_seats_by_turn(console: Console, result: SimResult) -> None:
    """A line a seat: its win rate by its place in the turn order, of how many games (the
    engines draw who begins, so a seat began about as often as not, not exactly)."""
    for p in result.players:
        if p.by_turn:
            console.print(Text(f"{p.name}, win % by {_TURN_ORDER[result.game]}: "
                               f"{_places_text(p.by_turn, games=True)}"))


def _print_win_share(console: Console, players: Sequence[tuple[str, WinShare]]) -> None:
    """With shared wins: every player's share of the wins, a win shared ``k`` ways counted
    ``1/k`` (with 2 players, a shared win as ½), with its 95% interval (Student's t, each
    end widened to the end of Wilson's of the share where that is further out)."""
    if any(p.ties for _, p in players):
        shares = ", ".join(
            f"{name} {_percent(p.win_share)}" + (
                "" if (ci := p.win_share_ci95) is None else f" [{_percent(ci[0])}, "
                                                            f"{_percent(ci[1])}]")
            for name, p in players)  # fmt: skip
        console.print(Text("win share %, a shared win split among its winners (95% CI, "
                           f"Student's t, each end widened to Wilson's where that is further "
                           f"out): {shares}"))


_TURN_ORDER = {"dominion": "turn order", "dominations": "initiative order in age 1"}
"""What the place in the turn order is, by game: Dominations redraws nothing, but the
Governor changes the initiative order each age, so the first age's is the one drawn."""


def turn_order_table(result: TournamentResult, layout: _Layout = _WIDE) -> Table:
    """Each player's outright win rate by its place in the turn order (who begins is
    drawn per game, so rotating seats does not balance it), a row per player and place,
    leaderboard order, laid out as ``layout`` says."""
    names, stacked = layout
    table = Table(title=Text(f"Win % by place in the {_TURN_ORDER[result.game]} (drawn per "
                             "game)"), title_style="bold",
                  box=box.SIMPLE_HEAVY, pad_edge=False, collapse_padding=True)  # fmt: skip
    board = result.leaderboard
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Player", style="bold", overflow="fold",
                     min_width=_name_width(board, names))
    for col in ("Place", "Games", "Wins", _rate_head("Win %", stacked)):
        table.add_column(col, justify="right", no_wrap=True)
    for k, p in enumerate(board, 1):
        for t in p.by_turn:
            first = t.place == 1
            table.add_row(str(k) if first else "", _name_text(p.name if first else "", names),
                          _ORDINALS[t.place - 1], f"{t.games:,}", f"{t.wins:,}",
                          _interval(t.win_rate, t.ci95, stacked) if t.games else "-",
                          end_section=t.place == result.seats)
    return table


def _print_dominion_footer(console: Console, result: SimResult) -> None:
    kingdom = describe_kingdom(result.kingdom or "random")
    console.print(f"kingdom {kingdom} · seed {result.seed} · max {result.max_turns} turns "
                  f"per player · mean game length {result.mean_turns:.2f} turns (the most "
                  "any player took; Turns: each player's own)",
                  markup=False)  # fmt: skip
    _print_ends(console, result.end_reasons, result.games, len(result.players))
    _print_turn_limit(console, result.turn_limit_games, f" (--max-turns {result.max_turns})")


def _print_ends(console: Console, reasons: Mapping[str, int], games: int,
                players: int) -> None:
    """How a Dominion run's games ended, with the share of each way, and what its Ties
    column counts (games of ``players`` players)."""
    ends = ", ".join(f"{_REASONS.get(r, r)} {k:,} ({_pct(k / games)})"
                     for r, k in reasons.items())  # fmt: skip
    console.print(f"games ended by: {ends}", markup=False)
    lower = "; a tie for a lower place counts as neither" if players > 2 else ""
    console.print(f"Ties: games whose first place was shared (equal VP and turns){lower}",
                  markup=False)


def _print_turn_limit(console: Console, limited: int, which: str = "") -> None:
    """The warning that ``limited`` games were stopped by the turn limit (none: nothing);
    ``which``: the limit, as it is to be named."""
    if limited:
        console.print(f"{_count(limited, 'game')} stopped by the turn limit{which} and scored "
                      "as they stood", style="yellow", markup=False)


# -------------------------------------------------------------- tournament
def cmd_tournament(args: argparse.Namespace) -> int:
    game = check_game(args.game)
    specs = parse_entries(args.players)
    options = _sim_options(args, game)
    notes: list[str] = []  # said once the run has checked what it was given
    _note_clock(specs, game, notes)
    _note_timeouts(args, notes)
    if args.by_card and game == "dominion":  # (Dominations': by mastery card)
        try:
            check_by_card(options)
        except ConfigError as exc:
            raise ConfigError(f"--by-card: {exc}") from None
    _note_missing(specs, game, getattr(args, "kingdom", None), notes, bool(args.by_card))
    if args.plot:
        from dominari.sim.plot import check_plot_path

        _not_output("--plot", args.plot)
        check_plot_path(args.plot)  # before any game is played
        if args.journal is not None and _same_file(args.plot, args.journal):
            raise ConfigError(f"--plot and --journal both name {args.plot!r}: the chart "
                              "would replace the journal")  # fmt: skip
    seed = args.seed if args.seed is not None else _random_seed()
    workers = args.workers if args.workers is not None else default_workers()
    if args.journal is not None and args.seed is None:
        raise ConfigError("--journal needs an explicit --seed: a journal holds the games "
                          "of one seed, and a random seed would never match it again")
    if args.journal is not None:
        _not_output("--journal", args.journal)
    if args.recheck and args.journal is None:
        raise ConfigError("--recheck needs --journal: it replays some of a journal's games")
    if args.record_dir is not None:
        _check_folder(args.record_dir, "--record-dir")  # the tournament checks what it holds
        if args.journal is not None and _same_file(args.record_dir, args.journal):
            raise ConfigError(f"--record-dir and --journal both name {args.record_dir!r}")
        if args.plot and _same_file(args.record_dir, args.plot):
            raise ConfigError(f"--record-dir and --plot both name {args.record_dir!r}: the "
                              "chart is a file, the records a folder")  # fmt: skip
    per_game = _PerGame(args.per_game, specs, getattr(args, "data", None),
                        ("--journal", args.journal), ("--plot", args.plot),
                        ("--record-dir", args.record_dir))  # fmt: skip
    if args.journal is not None:
        _note_old_journal(args.journal, notes)
    begun: list[bool] = []

    def started() -> None:
        begun.append(True)
        per_game.open()
        _say(notes)

    run = partial(tournament, specs, args.games, seed, seats=args.seats, workers=workers,
                  backend=args.backend, options=options, journal=args.journal,
                  stall=args.stall_timeout, decision_timeout=args.decision_timeout,
                  record_dir=args.record_dir, recheck=args.recheck, started=started,
                  by_card=args.by_card,
                  each_game=per_game.each_game)  # fmt: skip
    t0 = time.perf_counter()
    total = math.comb(len(specs), args.seats) * args.games
    reads = [what for what, asked in (("rows", args.per_game), ("by card", args.by_card))
             if asked]  # fmt: skip
    after = ((("reading", ", ".join(reads)),) if reads else ()) + (("rating", "rating"),)
    def resumed(k: int) -> None:
        rest = total - k
        _note(f"the journal {args.journal} gave back {k:,} of the {total:,} games: "
              + (f"{rest:,} to play" if rest else "none to play"), None)

    try:
        result = per_game.whole(lambda: _run_games("tournament", total, not args.no_progress,
                                                   run, after, resumed))  # fmt: skip
    except BaseException as exc:  # stopped (or a closed terminal's bar failed): say what
        stop = _stop_in(exc) is not None  # it
        with contextlib.suppress(OSError):  # kept, if stderr is still there
            if (stop or isinstance(exc, PoolError)) and begun and args.journal is not None \
                    and os.path.isfile(args.journal):  # stopped, or workers (a cluster) lost
                _note(f"the journal {args.journal} keeps the games played so far: the same "
                      "command goes on from them", None)
            elif isinstance(exc, BotError) and begun and args.journal is not None \
                    and os.path.isfile(args.journal):  # a bot failed: mend it, go on
                _note(f"the journal {args.journal} keeps the games played so far; once the "
                      "bot's file is mended, the same command goes on from them, playing "
                      "the match-ups of the players whose files changed again", None)
            elif stop and begun and args.journal is None:
                seed_too = "" if args.seed is not None else " and a --seed"
                _note("a tournament keeps the games it played only in a journal: run with "
                      f"--journal FILE{seed_too}, and a stopped run goes on where it "
                      "stopped", None)  # fmt: skip
        raise
    elapsed = time.perf_counter() - t0
    if result.files_changed:
        _note_files_changed(args.journal, result)
    if args.json:  # the results first: a chart that fails to draw loses none of them
        _print_json(result.to_json())
    else:
        console = _stdout_console()
        _print_tournament(console, result, elapsed, min(workers, result.games))
    _note_retried(result.retried)
    if args.plot:
        from dominari.sim.plot import plot_tournament

        plot_tournament(result, args.plot)
        if not args.json:
            console.print(f"Chart drawn to {args.plot}", markup=False)
    return 0


def _note_files_changed(journal: str, result: TournamentResult) -> None:
    """The note of a journal that let go of the games of players whose files changed
    (:attr:`~dominari.sim.tournament.TournamentResult.files_changed`)."""
    names = ", ".join(result.files_changed)
    whose = "its" if len(result.files_changed) == 1 else "their"
    n = result.dropped
    if n:
        _note(f"the files of {names} have changed since the journal {journal} was written: "
              f"it let go of its {n:,} game{'' if n == 1 else 's'} of {whose} match-ups, "
              "played again as far as this run goes", None)  # fmt: skip
    else:
        _note(f"the files of {names} have changed since the journal {journal} was written: "
              f"it held no game of {whose} match-ups", None)  # fmt: skip


def _note_old_journal(path: str, notes: list[str]) -> None:
    """A note (into ``notes``) when a journal of an older format will be written again in this one
    (if it serves the tournament): versions before this one then cannot read it."""
    from dominari.sim.journal import FORMAT, READS

    if not os.path.isfile(path):  # none yet, or not a file to read (a pipe would never
        return  # answer): the run says what is wrong with it
    try:
        with open(path, encoding="utf-8") as f:
            head = json.loads(f.readline())
    except (OSError, ValueError, UnicodeDecodeError):
        return  # none yet, or the run says what is wrong with it
    version = head.get("dominari_journal") if isinstance(head, dict) else None
    if version in READS and version < FORMAT:
        _note(f"journal {path} is of format {version}, without the turn order of its games: "
              "they are dealt again (not played) to learn it, and the journal is written as "
              f"format {FORMAT}, which versions of Dominari before this one do not read",
              notes)  # fmt: skip


def _reads(specs: Sequence[str], data: str | None = None) -> list[tuple[str, str]]:
    """The files a game of ``specs`` (and the Dominations ``data`` folder) reads, each with
    what it is, for :func:`check_writable_file` to refuse writing over one: a player's
    strategy file, the buy policy it names, a search's opening book (:func:`spec_paths`),
    the data folder's files."""
    from dominari.sim.journal import spec_paths

    out = [(str(path), "a file a player plays with") for spec in specs
           if spec.strip().lower() != HUMAN for path in spec_paths(spec)]  # fmt: skip
    if data is not None and Path(data).is_dir():
        out += [(str(f), f"a file of the --data folder {data!r}")
                for f in sorted(Path(data).iterdir()) if f.is_file()]  # fmt: skip
    return out


def _check_svg_and_record(svg: str | None, record: str | None) -> None:
    """:class:`ConfigError` where ``--svg`` and ``--record`` name one file."""
    if svg and record and _same_file(svg, record):
        raise ConfigError(f"--svg and --record both name {record!r}: the board would "
                          "replace the record")  # fmt: skip


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is the folder ``folder`` or within it (existing or not)."""
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def _same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file (existing or not)."""
    return os.path.realpath(a) == os.path.realpath(b)


def _not_output(flag: str, path: str) -> None:
    """:class:`ConfigError` where the file ``path`` that ``flag`` writes is ``-`` or the
    file standard output goes to (``--per-game out.json > out.json``): one would replace
    the other's text, and the results be lost."""
    if path == "-":
        raise ConfigError(f"{flag} -: give a file's name; standard output holds the "
                          "results")  # fmt: skip
    try:
        out, there = os.fstat(sys.stdout.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # (no such file yet; no descriptor)
        return
    if stat.S_ISREG(out.st_mode) and os.path.samestat(out, there):
        raise ConfigError(f"{flag} {path!r} is the file standard output goes to, which "
                          "holds the results: give another file")  # fmt: skip


def tournament_table(result: TournamentResult, layout: _Layout = _WIDE) -> Table:
    """The leaderboard of a tournament as a rich table, best first (by the ordinal
    rating mu - 3 sigma): outright wins and ties, win rate with its Wilson 95%
    interval, mean VP and the rating; laid out as ``layout`` says."""
    names, stacked = layout
    each = result.players[0].games  # every player plays as many games
    table = Table(title=Text(f"{title(result)}: {each:,} game{'s' if each != 1 else ''} each"),
                  title_style="bold",
                  box=box.SIMPLE_HEAVY, pad_edge=False, collapse_padding=True)  # fmt: skip
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Player", style="bold", overflow="fold",  # long names wrap rather
                     min_width=_name_width(result.players, names))
    for col in ("Wins", _rate_head("Win %", stacked), "Ties", "Mean VP", "μ − 3σ", "μ ± σ"):
        table.add_column(col, justify="right", no_wrap=True)
    for k, p in enumerate(result.leaderboard, 1):
        table.add_row(str(k), _name_text(p.name, names), f"{p.wins:,}",
                      _interval(p.win_rate, p.ci95, stacked),
                      f"{p.ties:,}", f"{p.mean_score:.2f}", f"{p.ordinal:.2f}",
                      f"{p.mu:.2f} ± {p.sigma:.2f}")  # fmt: skip
    return table


def head_to_head_tables(result: TournamentResult, width: int = 80) -> list[Table]:
    """For every pair of players, the share of their games together in which the row
    player finished ahead of the column player (leaderboard order). Columns are headed by
    the players' places on the leaderboard, so that long names never crowd the numbers;
    where they do not all fit ``width`` characters beside the names, they are split into
    tables of consecutive columns, as few as fit, so that no name or number is cut. The
    names are broken into shorter lines (:func:`_fitted`) only where not even the widest
    column fits beside them, and where it still does not, it is one table."""
    board = result.leaderboard
    n = len(board)
    cells = [["-" if rate is None else _pct(rate) for rate in
              (result.head_to_head_rate(p.entry, q.entry) for q in board)] for p in board]
    if n < 2:
        return [_head_to_head_block(result, cells, range(n), False)]
    # A column's width is its widest cell; the rest (the place and name columns, each
    # column's padding) is measured once on tables of one and of two columns.
    wide = [max(len(f"#{c + 1}"), *(len(row[c]) for row in cells)) for c in range(n)]
    widest = max(range(n), key=wide.__getitem__)
    _, (names, _) = _fitted(lambda layout: _head_to_head_block(
        result, cells, range(widest, widest + 1), False, layout.names),
        [p.name for p in board], width, stack=False)  # fmt: skip
    one = _table_width(_head_to_head_block(result, cells, range(1), False, names))
    two = _table_width(_head_to_head_block(result, cells, range(2), False, names))
    pad = two - one - wide[1]
    fixed = one - wide[0] - pad

    def fits(columns: range) -> bool:
        return fixed + sum(wide[c] + pad for c in columns) <= width

    if not all(fits(range(c, c + 1)) for c in range(n)):
        return [_head_to_head_block(result, cells, range(n), False, names)]
    size = n + 1
    for blocks in range(1, n + 1):
        if -(-n // blocks) == size:  # the same tables as the last count tried
            continue
        size = -(-n // blocks)  # the columns of a table, the last one's at most
        parts = [range(k, min(n, k + size)) for k in range(0, n, size)]
        if all(fits(part) for part in parts):
            break
    return [_head_to_head_block(result, cells, part, len(parts) > 1, names) for part in parts]


def _head_to_head_block(result: TournamentResult, cells: Sequence[Sequence[str]],
                        columns: range, part: bool, names: int = _NAME_WIDTH) -> Table:
    """The head-to-head table of every row and the leaderboard places ``columns``
    (0-based) of ``cells``; ``part``: the title says which columns."""
    what = "row beat column" if result.seats == 2 else "row finished ahead of column"
    which = (f" (columns #{columns[0] + 1}–#{columns[-1] + 1})" if len(columns) > 1 else
             f" (column #{columns[0] + 1})") if part else ""  # fmt: skip
    table = Table(title=Text(f"Head to head: % of games the {what}{which}"),
                  title_style="bold", box=box.SIMPLE_HEAVY, pad_edge=False,
                  collapse_padding=True)  # fmt: skip
    board = result.leaderboard
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Player", style="bold", overflow="fold",
                     min_width=_name_width(board, names))
    for k in columns:
        table.add_column(f"#{k + 1}", justify="right", no_wrap=True)
    for k, (p, row) in enumerate(zip(board, cells, strict=True), 1):
        table.add_row(str(k), _name_text(p.name, names), *(row[c] for c in columns))
    return table


def _table_width(table: Table) -> int:
    """The least width ``table`` takes without cutting a cell that may not wrap: its
    natural width (the last column's padding included, which a console's soft wrap
    prints), less what its columns that may wrap (names) give up down to their longest
    word. (Rich's own least width would also count the cells that may not wrap at their
    longest word; it cuts them, with ``…``, to get there.)"""
    console = Console(width=10_000, file=io.StringIO())
    options = console.options
    width = Measurement.get(console, options, table).maximum
    for column in table.columns:
        if column.no_wrap:
            continue
        sizes = [Measurement.get(console, options, cell) for cell in (column.header,
                                                                      *column.cells)]
        least = max(column.min_width or 0, *(m.minimum for m in sizes))
        width -= max(least, *(m.maximum for m in sizes)) - least
    return width


def _print_tournament(console: Console, result: TournamentResult, elapsed: float,
                      workers: int) -> None:
    _print_fitted(console, partial(tournament_table, result), result.players)
    if len(result.players) > 2:
        for table in head_to_head_tables(result, console.width):
            _print_whole(console, table)
        shared = "a shared win" if result.seats == 2 else "an equal place"
        console.print(f"a cell and the one across it add up to 100 less the games of "
                      f"{shared}", style="dim", markup=False)
    if all(p.by_turn for p in result.players):
        _print_fitted(console, partial(turn_order_table, result), result.players)
    _print_same_names(console, result.players)
    _print_by_turn(console, result.by_turn, result.game)
    _print_win_share(console, [(p.name, p) for p in result.leaderboard])
    if result.by_card:
        for p in result.leaderboard:
            _print_fitted(console, partial(entry_card_table, result, p.entry))
        console.print(entry_card_note(result), style="dim", markup=False)
    if result.by_mastery:
        for p in result.leaderboard:
            _print_fitted(console, partial(_mastery_table, p.name,
                                           result.by_mastery[p.entry]))  # fmt: skip
        console.print(mastery_note_of(result.by_mastery, [p.name for p in result.players],
                                      _skill_ids(result.options.get("data")), True),
                      style="dim", markup=False)  # fmt: skip
    if result.game == "dominations":
        rules = result.options.get("rules") or {}
        data = result.options.get("data")
        console.print(f"Dominations, {rules.get('variant', 'retail')} rules · seed "
                      f"{result.seed} · {_rules_text(rules)} · data "
                      f"{_data_words(data, result.data_digest)} · ties in VP go to "
                      "initiative", markup=False)  # fmt: skip
    else:
        kingdom = describe_kingdom(result.options.get("kingdom") or "random")
        max_turns = result.options.get("max_turns")
        console.print(f"kingdom {kingdom} · seed {result.seed} · max {max_turns} turns per "
                      "player", markup=False)  # fmt: skip
        _print_ends(console, result.end_reasons, result.games,  # (Dominations: 3 ages)
                    result.seats)
    limit = result.options.get("max_turns")
    _print_turn_limit(console, result.turn_limit_games,
                      f" (--max-turns {limit})" if isinstance(limit, int) else "")
    console.print(f"ratings: {RATING_NAME}, μ {RATING_MU:g} and σ {RATING_SIGMA:.2f} at "
                  "the start, updated game by game in rounds; players are ranked by μ − 3σ. "
                  f"{RATING_CAVEAT}", markup=False)  # fmt: skip
    console.print(_RATE_INTERVALS, markup=False)
    if not result.seat_balanced:
        n = result.games_per_matchup
        console.print(f"{n:,} game{'s' if n != 1 else ''} per match-up is not a multiple of "
                      f"{result.seats}: the seats are not exactly balanced",
                      style="yellow", markup=False)  # fmt: skip
    _print_speed(console, result.games - result.reused, elapsed, workers, result.reused,
                 result.rechecked, result.restamped)  # fmt: skip


def _print_speed(console: Console, played: int, elapsed: float, workers: int,
                 reused: int = 0, rechecked: int = 0, restamped: bool = True) -> None:
    """The closing line of a run: the games played, how fast, and those read back (and
    played again first, to recheck a journal written by other code, or to check it)."""
    if rechecked and restamped:
        console.print(f"the journal was written by other code: {rechecked:,} of its games "
                      f"played again with this code came out the same, so its games serve "
                      f"(it is stamped with this code)", style="dim", markup=False)
    elif rechecked:
        console.print(f"{rechecked:,} of the journal's games played again came out the "
                      "same (--recheck)", style="dim", markup=False)  # fmt: skip
    if not played and reused:  # a journal that held every game
        console.print(f"no new game played: all {reused:,} read from the journal",
                      style="dim", markup=False)  # fmt: skip
        return
    rate = played / elapsed if elapsed > 0 else 0.0
    speed = f"{rate:,.0f}" if rate >= 10 or rate == 0 else f"{rate:.2g}"  # searches: slow
    more = f"; {reused:,} more read from the journal" if reused else ""
    console.print(f"{played:,} game{'' if played == 1 else 's'} played in {elapsed:.1f} s "
                  f"({speed} games/s, "
                  f"{workers} worker{'s' if workers != 1 else ''}){more}", style="dim",
                  markup=False)  # fmt: skip


# -------------------------------------------------------------- game text
_STYLES = {G.EV_TURN: "bold cyan", G.EV_BUY: "green", G.EV_GAIN: "green", G.EV_TRASH: "red",
           G.EV_END: "bold magenta"}  # fmt: skip


def print_events(console: Console, state: DominionState, start: int) -> int:
    """Print the public log from event ``start`` on, one line each; return the next index.

    Draws are private (only their count is public) and left out, as in
    :func:`dominari.dominion.render.log_lines`; the gain that follows a buy
    is not repeated.
    """
    log = state.log
    if log is None:
        return start
    for i in range(start, len(log)):
        ev = log[i]
        kind = ev[0]
        if kind == G.EV_DRAW:
            continue
        if kind == G.EV_GAIN and i > 0 and log[i - 1][:3] == (G.EV_BUY, ev[1], ev[2]):
            continue
        line = event_line(state, ev)
        if kind == G.EV_TURN or kind == G.EV_END:
            console.print(Text(line, style=_STYLES[kind]))
        else:
            console.print(Text("  " + line, style=_STYLES.get(kind, "")))
    return len(log)


def _print_header(console: Console, state: DominionState, title: str) -> None:
    kingdom = ", ".join(NAME[c] for c in state.kingdom)
    cfg = state.config
    spec = cfg.kingdom if isinstance(cfg.kingdom, str) else "custom"
    console.print(Text(title, style="bold"))
    console.print(Text(f"Seed {state.seed} · kingdom {spec}: {kingdom}"))
    seats = ", ".join(f"{seat(state, p)} (seat {p + 1})" for p in range(state.num_players))
    console.print(Text(f"Players: {seats}"))


def _print_scores(console: Console, state: DominionState) -> None:
    console.print()
    console.print(Text("Final scores" if state.is_terminal() else "Scores so far",
                       style="bold"))  # fmt: skip
    console.print(Text(scores_text(state)))
    for p, ps in enumerate(state.players):
        console.print(Text(f"  {seat(state, p)} owns: {cards_text(ps.all_cards())}", style="dim"))


# -------------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    game = check_game(args.game)
    _only_for(game, args)
    if game == "dominations":
        return _play_dominations(args)
    specs = parse_players(DEFAULT_PLAYERS[game] if args.players is None else args.players, game)
    seats: list[Bot | None] = [None if spec.lower() == HUMAN else load_bot(spec)
                               for spec in specs]  # fmt: skip
    _cap_search(seats, args.bot_seconds)
    notes: list[str] = []  # said once what was given is checked
    _note_clock_bots(seats, notes)
    names = [HUMAN if b is None else b.name for b in seats]  # a capped search says so
    record_path = (check_writable_file(args.record, "--record", reads=_reads(specs),
                                       kind="record")
                   if args.record is not None else None)  # fmt: skip
    seed = args.seed if args.seed is not None else _random_seed()
    max_turns = DEFAULT_MAX_TURNS if args.max_turns is None else args.max_turns
    config = DominionConfig(players=len(specs), kingdom=args.kingdom or "random", seed=seed,
                            max_turns=max_turns, names=seat_names(names, specs), log=True)
    state = DominionState.new(config)
    if args.record_dir is not None:
        record_path = _play_record_path(args.record_dir, game, seed)
    bots = _PlayBots(seats, specs, seat_names(names), args.decision_timeout)
    played = bots.begin(seed, state)
    _say(notes)
    console = _stdout_console()
    humans = [p for p, b in enumerate(seats) if b is None]
    who = ", ".join(seat(state, p) for p in humans)
    with _kept_if_stopped(record_path, state, played):
        _print_header(console, state, f"Dominion: {who} at the keyboard" if humans else
                      "Dominion: a bot game")  # fmt: skip
        if humans:
            console.print(Text("Type an action ('buy Silver', prefixes like 'b sil' work), "
                               "'help' for the legal actions, 'quit' to stop.", style="dim"))
        finished = _play_loop(console, state, bots, sys.stdin, sys.stderr)
    if finished:
        _print_scores(console, state)
    if record_path is not None:
        _write_record(record_path, state, played, console)
    return 0


class _PlayBots:
    """``play``'s seats: a bot's (its decisions checked as a run's, :func:`ask_bot`, within
    ``--decision-timeout``'s ``timeout``) or a human's (None); ``names`` are the seats'
    names as the game has them (``BM#2``), for the bots' errors as a run words them."""

    def __init__(self, seats: Sequence[GameBot | None], specs: Sequence[str],
                 names: Sequence[str], timeout: float | None) -> None:  # fmt: skip
        self.seats, self.specs, self.timeout = seats, specs, timeout
        self.labels = seat_labels(names, specs)

    def __getitem__(self, p: int) -> GameBot | None:
        return self.seats[p]

    def begin(self, seed: int, state: DominionState | DominationsState,
              ) -> list[dict[str, Any]]:  # fmt: skip
        """Reset the bots for the game of ``seed`` (the seeds a simulation's first game
        gives them), each within the timeout; what plays each seat, for the record
        (:func:`seat_entries`)."""
        seats = self.seats
        seeds = [bot_seed(seed, 0, p) for p in range(len(seats))]
        at = [p for p, seated in enumerate(seats) if seated is not None]
        reset_bots([b for b in seats if b is not None], [seeds[p] for p in at], self.labels,
                   self.timeout, seats=at)  # fmt: skip
        return seat_entries(seats, self.specs, seeds, state)

    def play(self, p: int, state: Any) -> None:
        """Seat ``p``'s bot's move on ``state``: a :class:`BotError` naming it where it
        fails, changes the state, takes too long or chooses what the engine refuses."""
        bot = self.seats[p]
        assert bot is not None
        who = f"bot {bot.name!r} ({seat_words(p, self.labels)})"
        action = ask_bot(bot, state, who, self.timeout)
        try:
            state.apply(action)
        except DominariError as exc:
            raise BotError.chose(state.config.seed, who, action_text(state, action),
                                 exc) from None  # fmt: skip


@contextlib.contextmanager
def _kept_if_stopped(record_path: Path | None, state: DominionState | DominationsState,
                     played: list[dict[str, Any]]) -> Iterator[None]:
    """Write the game so far to ``record_path`` if play is stopped by Ctrl-C, ``kill`` or
    a closed output (``| head``), as ``quit`` does, then let the stop go on; or by a bot
    (it failed, or took longer than ``--decision-timeout``): with the stop in words
    (``stopped``), as a run's stopped game, named in the bot's error."""
    try:
        yield
    except BotError as exc:
        where = "" if record_path is None else stopped_record(record_path, state,
                                                              lambda: played, exc)
        raise exc.again(f"{exc}{where}") from exc
    except (KeyboardInterrupt, _Terminated, BrokenPipeError, SystemExit):  # rich: SystemExit
        if record_path is not None:
            with contextlib.suppress(OSError):  # stderr itself may be gone
                sys.stderr.write("\n")
                try:
                    _write_record(record_path, state, played, None)
                except ConfigError as exc:  # said, and the stop goes on
                    sys.stderr.write(f"{PROG}: {exc}\n")
        raise


def _write_record(record_path: Path, state: DominionState | DominationsState,
                  played: list[dict[str, Any]], console: Console | None) -> None:
    """Write ``play``'s record of the game (so far) to ``record_path``, saying so on
    ``console`` (on stderr without one, as play stops). Where it cannot be written (its
    folder removed meanwhile, a full disk), the record goes to a file of the system's
    temporary folder instead, and stderr says why and where; a :class:`ConfigError`
    when neither can be written, saying the game was not saved."""
    data = record_with_seats(state, played)
    try:
        write_record_atomic(record_path, data)
    except OSError as exc:
        why = f"cannot write {str(record_path)!r} ({exc.strerror or exc})"
        try:  # a new file of its own (mkstemp, private): never one another user put there
            fd, fallback = tempfile.mkstemp(prefix=f"dominari-{state.game_name}-"
                                            f"{state.config.seed}-", suffix=".json")
            os.close(fd)
            write_record_atomic(fallback, data)  # replaced as any record, keeping its mode
        except OSError as again:
            raise ConfigError(f"--record: {why}, nor a file in {tempfile.gettempdir()} ("
                              f"{again.strerror or again}): the game was not saved") from None
        sys.stderr.write(f"{PROG}: --record: {why}; the game is in {fallback} instead\n")
        return
    if console is None:
        sys.stderr.write(f"{PROG}: the game so far is in {record_path}\n")
    else:
        console.print(Text(f"Record written to {record_path}", style="dim"))


def _cap_search(seats: Sequence[GameBot | None], seconds: float | None) -> None:
    """Give the search bots among ``seats`` at most ``seconds`` a decision (``--bot-seconds``);
    a ConfigError when there is none to give it to."""
    if seconds is None:
        return
    searches = [b for b in seats if isinstance(b, MCTSBot)]
    if not searches:
        raise ConfigError("--bot-seconds: no search bot among the players; it applies to "
                          f"{', '.join(SEARCH_BOTS)}")
    for bot in searches:  # a bot's own time budget (mcts:seconds=…) may be shorter
        bot.cap_seconds(seconds)


def _play_loop(console: Console, state: DominionState, seats: _PlayBots,
               stdin: TextIO, stderr: TextIO) -> bool:
    """Run the game to its end (True) or until a human quits or input ends (False)."""
    shown = print_events(console, state, 0)
    while not state.is_terminal():
        p = state.current_player()
        if seats[p] is not None:
            seats.play(p, state)
            shown = print_events(console, state, shown)
            continue
        console.print()
        console.print(Text(status_text(state, p)))
        prompt = describe_decision(state, state.decision(), p)["prompt"]
        console.print(Text(f"{seat(state, p)}: {prompt}", style="bold yellow"))
        if not _human_action(console, state, f"{seat(state, p)}> ", stdin, stderr,
                             partial(_dominion_help, state)):
            return False
        shown = print_events(console, state, shown)
    print_events(console, state, shown)
    return True


def _human_action(console: Console, state: Any, prompt: str, stdin: TextIO, stderr: TextIO,
                  help_lines: Callable[[str], list[Text] | None]) -> bool:
    """Read lines until one is an action the game accepts, and apply it (True); False when
    the player quits or the input ends. ``help_lines(text)`` answers a help request (None:
    the text is not one). A rejected action prints the game's message and changes nothing."""
    while True:
        line = _read_line(prompt, console, stdin)
        if not line:
            console.print()
            console.print(Text("End of input: the game is left unfinished.", style="dim"))
            return False
        text = line.strip()
        if not text:
            continue
        answer = help_lines(text)
        if answer is not None:
            for out in answer:
                console.print(out)
            continue
        if text.lower() in ("quit", "exit"):
            console.print(Text("Game abandoned.", style="dim"))
            return False
        try:
            state.apply(state.parse_action(text))
        except (ParseError, IllegalActionError) as exc:
            stderr.write(" ".join(str(exc).split()) + "\n")
            stderr.flush()
            continue
        return True


def _dominion_help(state: DominionState, text: str) -> list[Text] | None:
    if text.lower() not in ("help", "?"):
        return None
    legal = ", ".join(str(a) for a in state.legal_actions())
    return [Text(f"Legal actions: {legal}"), Text("Also: 'help', 'quit'.", style="dim")]


def _dominations_help_request(state: DominationsState, text: str, player: int
                              ) -> list[Text] | None:
    word, _, rest = text.partition(" ")
    if word.lower() not in ("help", "?"):
        return None
    return [Text(out) for out in dominations_help(state, rest.strip(), player)]


def _play_record_path(folder: str, game: str, seed: int) -> Path:
    """``DIR/<game>-<seed>.json`` (``-2``, ``-3`` … when taken); creates ``DIR``."""
    target = _check_folder(folder, "--record-dir", keep=True)
    path = target / f"{game}-{seed}.json"
    k = 1
    while path.exists():
        k += 1
        path = target / f"{game}-{seed}-{k}.json"
    return path


def _read_line(prompt: str, console: Console, stdin: TextIO) -> str:
    """A line of input ('' at end of input), with line editing at a terminal.

    Input that does not come from a terminal is echoed after the prompt, so a
    transcript of a scripted game reads like a typed one."""
    if stdin is sys.stdin and stdin.isatty() and console.file is sys.stdout:
        try:
            return input(prompt) + "\n"
        except EOFError:
            return ""
    line = stdin.readline()
    console.file.write(prompt + (line.rstrip("\r\n") + "\n" if line else ""))
    console.file.flush()
    return line


# ------------------------------------------------------------- play dominations
HELP_LIMIT = 40
"""Legal actions listed one by one by 'help'; longer lists are grouped by their next word."""
SHOW_INLINE = 6
"""At most this many legal actions are shown with the prompt itself."""

_PHASE_PROMPTS = {
    "growth": "place a tile from your hand, e.g. 'L07 2,0 r1 via 1,0'",
    "vestigium": "count one unit of vestigium as a domain: 'vestigium T'",
    "build": "build a city ('city 2,0'), upgrade one ('upgrade 2,0'), contribute a monument "
             "level ('monument M01 0,1 …') or 'pass'",
    "develop": "acquire a mastery card ('acquire T3a-2 0,1'), upgrade one ('upgrade T3a') "
               "or 'pass'",
}


def _play_dominations(args: argparse.Namespace) -> int:
    game = "dominations"
    specs = parse_players(DEFAULT_PLAYERS[game] if args.players is None else args.players, game)
    rules = _rules(args)
    seats: list[DominationsBot | None] = [
        None if spec.strip().lower() == HUMAN else load_bot(spec, "dominations")
        for spec in specs]  # fmt: skip
    _cap_search(seats, args.bot_seconds)
    notes: list[str] = []  # said once what was given is checked
    _note_clock_bots(seats, notes)
    names = [HUMAN if b is None else b.name for b in seats]  # a capped search says so
    reads = _reads(specs, args.data)
    _check_svg_and_record(args.svg, args.record)
    svg_path = (check_writable_file(args.svg, "--svg", reads=reads, kind="svg")
                if args.svg is not None else None)  # fmt: skip
    record_path = (check_writable_file(args.record, "--record", reads=reads, kind="record")
                   if args.record is not None else None)  # fmt: skip
    seed = args.seed if args.seed is not None else _random_seed()
    config = DominationsConfig(players=len(specs), seed=seed, names=seat_names(names, specs),
                               rules=rules, data=args.data, log=True)  # fmt: skip
    state = DominationsState.new(config)  # a bad --data folder fails here
    if args.record_dir is not None:
        record_path = _play_record_path(args.record_dir, game, seed)
    bots = _PlayBots(seats, specs, seat_names(names), args.decision_timeout)
    played = bots.begin(seed, state)
    _say(notes)
    console = _stdout_console()
    humans = [p for p, b in enumerate(seats) if b is None]
    who = ", ".join(config.player_names()[p] for p in humans)
    with _kept_if_stopped(record_path, state, played):
        console.print(Text(f"Dominations: {who} at the keyboard" if humans else
                           "Dominations: a bot game", style="bold"))  # fmt: skip
        _print_dominations_header(console, state)
        if humans:
            console.print(Text("Type an action ('L07 2,0 r1 via 1,0', 'city 2,0', 'pass' …); "
                               "'help' lists the legal actions, 'help L07' those starting "
                               "with L07; 'quit' stops.", style="dim"))  # fmt: skip
        finished = _play_dominations_loop(console, state, bots, sys.stdin, sys.stderr,
                                          svg_path)  # fmt: skip
    if finished:
        print_dominations_scores(console, state)
    if record_path is not None:
        _write_record(record_path, state, played, console)
    if svg_path is not None:
        console.print(Text(f"Board drawn to {svg_path}", style="dim"))
    return 0


def _print_dominations_header(console: Console, state: DominationsState) -> None:
    names = state.config.player_names()
    rules = state.rules.to_json()
    data = state.config.data
    console.print(Text(f"Seed {state.config.seed} · {state.rules.variant} rules · "
                       f"{_rules_text(rules)} · data {data if data else 'built-in'}"))
    seats = ", ".join(f"{names[p]} (seat {p + 1})" for p in state.order)
    console.print(Text(f"Initiative order: {seats}"))
    mons = ", ".join(f"{state.data.monuments[m].id} {state.data.monuments[m].name}"
                     for m in state.monuments)  # fmt: skip
    if mons:
        console.print(Text(f"Monuments: {mons}"))


def print_dominations_events(console: Console, state: DominationsState, start: int) -> int:
    """Print the log in words from event ``start`` on; return the next index."""
    events = state.events
    for line in event_lines(state, events[start:]):
        if line.startswith(("—", "===")):
            console.print(Text(line, style="bold cyan"))
        else:
            console.print(Text(line, style="dim" if line.startswith("    ") else ""))
    return len(events)


def _draw_board(path: Path | None, state: DominationsState) -> None:
    if path is not None:
        write_text_atomic(path, state_svg(state))  # a temporary file renamed over the target


def _play_dominations_loop(console: Console, state: DominationsState, seats: _PlayBots,
                           stdin: TextIO, stderr: TextIO, svg: Path | None = None) -> bool:
    """Run the game to its end (True) or until a human quits or input ends (False).

    Whoever ``current_player()`` names decides, in turn or not (pending decisions such
    as the influence copy or gained vestigium): a bot acts, a human types an action.
    """
    names = state.config.player_names()
    shown = print_dominations_events(console, state, 0)
    _draw_board(svg, state)
    while not state.is_terminal():
        p = state.current_player()
        if seats[p] is not None:
            seats.play(p, state)
            shown = print_dominations_events(console, state, shown)
            _draw_board(svg, state)
            continue
        console.print()
        print_dominations_status(console, state, p)
        if not _human_action(console, state, f"{names[p]}> ", stdin, stderr,
                             partial(_dominations_help_request, state, player=p)):
            return False
        shown = print_dominations_events(console, state, shown)
        _draw_board(svg, state)
    print_dominations_events(console, state, shown)
    return True


def _tile_text(state: DominationsState, tile: int) -> str:
    t = state.data.tiles[tile]
    corners = " ".join(COLOURS[c] for c in t.corners)
    where = f"{DOMAINS[t.settlement]} settlement" if 0 <= t.settlement < 6 else "no settlement"
    return f"{t.id} ({where}; corners {corners})"


def dominations_prompt(state: DominationsState, player: int) -> str:
    """What ``player`` (the current player) is asked: the pending decision or the phase."""
    pending = state.view(player)["pending"]
    if not pending:
        phase = state.phase_name
        return _PHASE_PROMPTS.get(phase, f"decide ({phase})")
    kind = str(pending.get("kind"))
    if kind == "order effects" and pending.get("effects"):
        cards = ", ".join(f"{e['card']} ({e['name']})" for e in pending["effects"])
        return f"several effects are due: choose the next with 'resolve <card>': {cards}"
    if kind == "vestigium":
        return (f"count gained vestigium as a domain ({pending.get('left')} left): "
                "'vestigium T'")
    if kind == "pay":
        return f"pay for the monument level, {pending.get('left')} more: e.g. 'pay 2 T'"
    if kind == "copy":
        return (f"you lead in influence ({pending.get('influence')}): copy a card another "
                "player holds ('copy T3a-2 0,1'), turn yours advanced ('copy upgrade T3a') "
                "or 'pass'")
    if kind == "draft":
        return _draft_prompt(state, pending)
    if kind == "tiles":
        return {
            "keep": "keep last age's tiles: 'return L07' for each one to put back, then 'done'",
            "mulligan": "mulligan once: 'return L07' for each tile to put back, then 'done' "
                        "draws back up",
            "keep or return all": "keep last age's tiles ('done') or 'return all'",
        }.get(str(pending.get("mode")),
              f"'mulligan' (the whole hand; {pending.get('mulligans', 0)} taken) or 'done'")
    if kind == "initiative":
        return ("you hold the Governor: set this age's initiative order by player number, "
                "first player first, e.g. 'order 2 1'")
    details = ", ".join(f"{k} {_plain_text(v)}" for k, v in pending.items()
                        if k not in ("kind", "player"))
    return f"decide: {kind}" + (f" ({details})" if details else "")


def _draft_prompt(state: DominationsState, pending: dict[str, Any]) -> str:
    """The two cards drawn at setup, described, for 'choose <id>' (D-SET-3)."""
    from dominari.dominations.objectives import describe_goal

    data = state.data
    lines = []
    if pending.get("what") == "objective":
        by_id = {o.id: o for o in data.objectives}
        for oid in pending.get("options", []):
            o = by_id[oid]
            lines.append(f"  {o.id} {o.name}: " + "; ".join(describe_goal(g) for g in o.goals))
        head = "keep one objective (1–5 goals met: 10/20/40/70/100 VP)"
    else:
        monuments = {m.id: m for m in data.monuments}
        for mid in pending.get("options", []):
            m = monuments[mid]
            levels = m.levels
            lines.append(f"  {m.id} {m.name} ({m.shape}, {DOMAIN_NAMES[m.domain]}): levels "
                         + ", ".join(f"{lv.cost}→{lv.vp} VP" for lv in levels))
        head = "keep one monument (it comes into play)"
    return head + ": 'choose <id>'\n" + "\n".join(lines)


def _plain_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_plain_text(v) for v in value)
    if isinstance(value, dict):
        return " ".join(f"{k}={_plain_text(v)}" for k, v in value.items())
    return str(value)


def print_dominations_status(console: Console, state: DominationsState, player: int) -> None:
    """The position as ``player`` sees it before deciding: every player's board, the
    monuments, their hand tiles, cities and VP by source, and what they are asked."""
    names = state.config.player_names()
    ps = state.players[player]
    console.print(dominations_table(state, hand=False))
    if state.monuments:
        console.print(monuments_table(state))
    me = state.view(player)["players"][player]
    hand = " · ".join(_tile_text(state, t) for t in ps.hand) or "empty"
    console.print(Text(f"Your hand: {hand}"))
    others = " · ".join(f"{names[p]}: {' '.join(state.data.tiles[t].id for t in q.hand)}"
                        for p, q in enumerate(state.players) if p != player and q.hand)
    if others:
        console.print(Text(f"Other hands: {others}", style="dim"))
    know = " ".join(f"{DOMAINS[d]} {k}/{lim}"
                    for d, (k, lim) in enumerate(zip(ps.knowledge, ps.limits(), strict=True)))
    console.print(Text(f"Knowledge/limit: {know} · influence {ps.influence} · "
                       f"city tokens {ps.tokens}"))  # fmt: skip
    board = state.board
    cities = [f"{_cell(k)} level {board.city_level[k]} ({DOMAINS[board.settlement[k]]})"
              for k in board.order if board.city_owner.get(k) == player]
    if cities:
        console.print(Text(f"Your cities: {' · '.join(cities)}"))
    parts = ", ".join(f"{src} {vp}" for src, vp in me.get("vp_breakdown", {}).items() if vp)
    console.print(Text(f"Your VP: {ps.vp}" + (f" ({parts})" if parts else "")))
    objective = me.get("objective")
    if objective:
        goals = " · ".join(f"{g['text']} {g['have']}/{g['need']}" + (" ✓" if g["met"] else "")
                           for g in objective["goals"])
        console.print(Text(f"Your objective {objective['name']} ({objective['vp_now']} VP "
                           f"now): {goals}"))
    legal = state.legal_actions()
    options = (" | ".join(state.format_action(a) for a in legal) if len(legal) <= SHOW_INLINE
               else f"{len(legal)} legal actions; 'help' lists them")
    console.print(Text(f"{names[player]}: {dominations_prompt(state, player)} [{options}]",
                       style="bold yellow"))  # fmt: skip


def _cell(key: int) -> str:
    return str(Cell.from_key(key))


def preview_text(state: DominationsState, action: Any, viewer: int) -> str:
    """What a placement (or the Inventor's reactivation) would produce, summed per player
    and domain: ``you: 2 T, 1 V; P2: 1 C`` (V is vestigium); '' for other actions."""
    if getattr(action, "kind", None) not in (PLACE, REACTIVATE):
        return ""
    try:
        yields = state.preview(action)
    except DominariError:
        return ""
    names = state.config.player_names()
    letters = DOMAINS + "V"
    parts = []
    for p, row in enumerate(totals(yields, state.num_players)):
        items = [f"{n} {letters[d]}" for d, n in enumerate(row) if n]
        if items:
            parts.append(f"{'you' if p == viewer else names[p]}: {', '.join(items)}")
    return "; ".join(parts) if parts else "nothing"


def dominations_help(state: DominationsState, prefix: str, viewer: int) -> list[str]:
    """The legal actions starting with ``prefix`` (any case), each placement with what it
    would produce; more than :data:`HELP_LIMIT` are grouped by their next word."""
    acts = [(state.format_action(a), a) for a in state.legal_actions()]
    want = " ".join(prefix.split()).lower()
    if want:
        acts = [(t, a) for t, a in acts if t.lower().startswith(want)]
    if not acts:
        return [f"No legal action starts with {prefix!r}; 'help' lists them all."]
    head = f"Legal actions{f' starting with {prefix!r}' if want else ''} ({len(acts)}):"
    if len(acts) <= HELP_LIMIT:
        width = max(len(t) for t, _ in acts)
        lines = [head]
        for text, action in acts:
            gain = preview_text(state, action, viewer)
            lines.append(f"  {text:<{width}}  → {gain}" if gain else f"  {text}")
        return [*lines, "Also: 'help <start of an action>', 'quit'."]
    groups = _groups([t for t, _ in acts])
    lines = [head]
    for i, (key, items) in enumerate(groups.items()):
        if i == HELP_LIMIT:
            lines.append(f"  … and {len(groups) - HELP_LIMIT} more groups")
            break
        lines.append(f"  {items[0]}" if len(items) == 1 else
                     f"  {key} …  ({len(items)} actions, e.g. {items[0]})")
    first = next(k for k, v in groups.items() if len(v) > 1) if any(
        len(v) > 1 for v in groups.values()) else next(iter(groups))
    return [*lines, f"Type 'help {first}' (or any start of an action) to see them one by one."]


def _groups(texts: Sequence[str]) -> dict[str, list[str]]:
    """The texts grouped by their first words: as few words as make more than one group."""
    longest = max(len(t.split()) for t in texts)
    depth = 1
    while True:
        groups: dict[str, list[str]] = {}
        for text in texts:
            groups.setdefault(" ".join(text.split()[:depth]), []).append(text)
        if len(groups) > 1 or depth >= longest:
            return groups
        depth += 1


def dominations_scores_table(state: DominationsState) -> Table:
    """VP by source (rows, as the engine itemises them) for every player (columns), the
    total and, once the game is over, the rank."""
    names = state.config.player_names()
    out = state.outcome()
    if out is not None and "vp_breakdown" in out.extra:
        breakdown: list[dict[str, int]] = out.extra["vp_breakdown"]
    else:
        breakdown = [pl["vp_breakdown"] for pl in state.view(None)["players"]]
    table = Table(title=Text("Final scores" if out is not None else "Scores so far"),
                  title_style="bold", box=box.SIMPLE_HEAVY, pad_edge=False)  # fmt: skip
    table.add_column("Source", no_wrap=True)
    for p in range(state.num_players):
        table.add_column(Text(names[p]), justify="right", no_wrap=True)
    sources: list[str] = []
    for row in breakdown:
        sources.extend(s for s in row if s not in sources)
    for source in sources:
        table.add_row(Text(source), *(str(row.get(source, 0)) for row in breakdown))
    table.add_row(Text("total", style="bold"),
                  *(str(ps.vp) for ps in state.players))  # fmt: skip
    if out is not None:
        table.add_row(Text("rank", style="bold"), *(str(r) for r in out.ranks))
    return table


def print_dominations_scores(console: Console, state: DominationsState) -> None:
    console.print()
    console.print(dominations_scores_table(state))
    out = state.outcome()
    if out is not None:
        names = state.config.player_names()
        ranking = sorted(range(state.num_players), key=lambda p: out.ranks[p])
        line = " · ".join(f"{out.ranks[p]}. {names[p]} {out.scores[p]} VP" for p in ranking)
        console.print(Text(f"Ranking: {line} (equal VP are ranked by initiative)",
                           style="bold"))  # fmt: skip


# ------------------------------------------------------------------ replay
def cmd_replay(args: argparse.Namespace) -> int:
    if args.decision_timeout is not None and not args.bots:
        raise ConfigError("--decision-timeout limits the decisions of the bots that --bots "
                          "plays the game again with: give it with --bots")  # fmt: skip
    record = load_record(args.file)
    try:
        return _replay(args, record)
    except RecordError as exc:
        text = str(exc)
        if text.startswith(repr(args.file)):
            raise
        raise RecordError(f"{args.file!r}: {text}") from None  # which file, every time


def _replay(args: argparse.Namespace, record: dict[str, Any]) -> int:
    if "dominari_tournament_records" in record:
        raise RecordError("this is the index of a tournament's records (which match-up is "
                          "who), not a game's record: replay one of the "
                          "matchup-…-game-….json files beside it")  # fmt: skip
    game = record.get("game")
    if game == "dominations":
        return _replay_dominations(args, record)
    if args.data is not None:
        raise ConfigError("--data is for records of Dominations games (its component files)")
    if record.get("format") == "dominari-record" and game != "dominion":
        raise RecordError(f"a record of an unknown game {game!r}: records are of dominion or "
                          "dominations")  # fmt: skip
    state = DominionState.from_record(record, log=True, upto=_upto(args, record))
    actions = record["actions"]
    complete = args.upto is None or args.upto >= len(actions)
    saved = record.get("outcome")
    out = state.outcome()
    if complete and saved is not None and out is not None and out.to_json() != saved:
        raise RecordError(f"the replayed outcome {out.to_json()} differs from the recorded "
                          f"one {saved}")  # fmt: skip
    if args.bots:
        return _replay_bots(args, record, DominionState.from_record(record, upto=0))
    console = _stdout_console()
    _print_header(console, state, f"Replay of {args.file}")
    _print_recorded_bots(console, record, state.num_players)
    print_events(console, state, 0)
    if not complete:
        console.print(Text(f"(stopped after {args.upto} of {len(actions)} actions)",
                           style="dim"))  # fmt: skip
    _print_scores(console, state)
    _print_stop(console, record, complete)
    return 0


def _replay_bots(args: argparse.Namespace, record: dict[str, Any], start: Any) -> int:
    """``replay --bots``: the record's game played again by the bots its seats name, from
    ``start``, its game at the beginning (:func:`~dominari.sim.seats.rerun`); 0 when they
    make every recorded move of theirs, 1 at the first they do not."""
    if args.upto is not None:
        raise ConfigError("--bots plays the whole game again: give it without --upto")
    _check_python_seats(record)
    try:
        done = rerun(record, start, args.decision_timeout)
    except BotError:  # a bot that fails now: other code may be why
        other = _other_code(record, start.game_name)
        if other:
            _note(other, None)
        raise
    if done.clocked:
        one = len(done.clocked) == 1
        _note(f"{', '.join(done.clocked)} searched with a time per decision: "
              f"{'its' if one else 'their'} moves depended on the machine's speed and load "
              "when the game was played, and may differ now", None)  # fmt: skip
    for p, then, now in done.played_as:
        _note(f"best (seat {p + 1}) plays this kingdom as {now} now, where the record says "
              f"{then}: the rule bots' ranking has changed since", None)  # fmt: skip
    console = _stdout_console()
    d = done.divergence
    if d is None:
        console.print(Text(f"{args.file}: played again by the bots its seats name, "
                           f"{_count(done.compared, 'decision')} of theirs in "
                           f"{_count(done.actions, 'action')}, each the recorded one"))
        _print_stop(console, record, True)  # (not asked again: it may hang)
        return 0
    before = (f"the {_count(done.compared - 1, 'decision')} of theirs before it were the "
              "recorded ones" if done.compared > 1 else "the first decision of theirs")
    console.print(Text(f"{args.file}: played again by the bots its seats name, action "
                       f"{d.action:,} (seat {d.seat + 1}, {escaped(d.bot)}) is recorded as "
                       f"{d.recorded!r}, and the bot plays {d.played!r} there now "
                       f"({before})"))  # fmt: skip
    other = _other_code(record, start.game_name)
    if other:
        _note(other, None)
    return 1


def _other_code(record: dict[str, Any], game: str) -> str:
    """Words for a record written by other code than the code that plays ``game`` now
    (its ``dominari``: the version and the code's fingerprint, as a run's JSON names
    them), or that does not say: its bots may play otherwise for that alone; ``""``
    where the code is the same."""
    from dominari.sim.journal import code_fingerprint

    now = code_fingerprint(game)
    made = record.get("dominari")
    code = made.get("code") if isinstance(made, dict) else None
    if code == now:
        return ""
    if "dominari" not in record:
        return ("the record does not say which code wrote it (records written before "
                "they did): other code may play otherwise")  # fmt: skip
    if not isinstance(code, str) or not code:
        return (f"the record's 'dominari' names no code that wrote it ({made!r}): other code "
                "may play otherwise")  # fmt: skip
    version = made.get("version") if isinstance(made, dict) else None
    by = f"Dominari {version}" if isinstance(version, str) else "Dominari"
    return (f"the record was written by {by} with other code (code {code[:12]}…, now "
            f"{now[:12]}…): a bot may play otherwise for that alone")  # fmt: skip


def _check_python_seats(record: dict[str, Any]) -> None:
    """:class:`RecordError` for a seat of a Python bot (``FILE.py:NAME``) that the record
    does not name with its file's SHA-256, or whose file is a library's (Python's own, an
    installed package's, Dominari's): playing a bot runs its file, and a record may come
    from anyone, so only a bot file that is as it was when the game was played, and no
    library's code, is run. (The SHA-256 is checked against the file as it is now by
    :func:`~dominari.sim.seats.rerun`.)"""
    from dominari.bots.python_bot import python_spec

    seats = record.get("seats")
    for p, entry in enumerate(seats if isinstance(seats, list) else []):
        spec = entry.get("bot") if isinstance(entry, dict) else None
        python = python_spec(spec) if isinstance(spec, str) else None
        if python is None:
            continue
        file, files = entry.get("file"), entry.get("files")
        if not isinstance(file, str) or not isinstance(files, dict) or file not in files:
            raise RecordError(f"the record's seat {p + 1} ({spec}) is a Python bot, and the "
                              "record does not name its file with the file's SHA-256: "
                              "--bots runs only a bot file that is as it was when the game "
                              "was played")  # fmt: skip
        if in_library(file):
            raise RecordError(f"the record's seat {p + 1} ({spec}) names {file}, a file of a "
                              "library, not a bot of anyone's own: --bots does not run it")


def _count(n: int, what: str) -> str:
    """``1 action``, ``2 actions``."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


_SEARCH_DEFAULTS = {k: SETTINGS[k]
                    for k in ("trust", "widen", "tree", "c", "margin", "shared", "policy",
                              "evaluate")}
"""The search settings :func:`~dominari.bots.mcts.describe_level` does not put in words,
with :class:`~dominari.bots.mcts.MCTSBot`'s defaults: ``replay`` names those that differ."""


def _print_recorded_bots(console: Console, record: dict[str, Any], players: int) -> None:
    """The bots the record says played its seats (those of its ``players``), as they
    played: a search level with its budget in words (``mcts (seat 1): 100,000 rollout
    steps, …``; a server's record names its time per decision, ``mcts-hard:seconds=1``),
    the rule bot ``best`` played as; nothing for a record without them (older records name
    their bots only as players)."""
    seats = record.get("seats")
    if not isinstance(seats, list):
        return
    lines = []
    for x in seats[:players]:
        if not (isinstance(x, dict) and isinstance(x.get("bot"), str)
                and type(x.get("seat")) is int and 0 <= x["seat"] < players):  # fmt: skip
            continue
        line = f"  {x['bot']} (seat {x['seat'] + 1})"
        search, played_as = x.get("search"), x.get("played_as")
        if isinstance(search, dict):
            # a record's odd values (text for a number, a number too large for a float …)
            with contextlib.suppress(TypeError, ValueError, OverflowError):
                own = search.get("own")
                line += ": " + describe_level(search, own if isinstance(own, str) else None)
                others = [f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
                          for k, default in _SEARCH_DEFAULTS.items()
                          if (v := search.get(k)) is not None and v != default]  # fmt: skip
                if others:  # the settings the words above leave out, where not the default
                    line += "; " + ", ".join(others)
        elif isinstance(played_as, str):
            line += f": played as {played_as}"
        lines.append(escaped(line))  # a hand-edited record's text, as written there
    if lines:
        console.print(Text("Bots as they played:"))
        for line in lines:
            console.print(Text(line))


def _upto(args: argparse.Namespace, record: dict[str, Any]) -> int | None:
    """``--upto``, checked against the record's actions (a bad record is its replay's to
    report)."""
    actions = record.get("actions")
    if args.upto is not None and isinstance(actions, list) and args.upto > len(actions):
        raise ConfigError(f"--upto {args.upto}: {args.file!r} has only {len(actions):,} "
                          "actions")  # fmt: skip
    upto: int | None = args.upto
    return upto


def _replay_dominations(args: argparse.Namespace, record: dict[str, Any]) -> int:
    config = record.get("config")
    if isinstance(config, dict):
        folder = config.get("data")
        if args.data is not None:  # the folder the player names, not the one recorded
            try:  # its faults are the folder's, not the record's
                dominations_data(args.data)
            except DominariError as exc:
                raise ConfigError(f"--data {args.data}: {exc}") from None
            record = {**record, "config": {**config, "data": args.data}}
        elif isinstance(folder, str) and not os.path.isdir(folder):
            beside = Path(args.file).parent / folder  # recorded relative to where it was
            if not os.path.isabs(folder) and beside.is_dir():  # played: the likeliest
                record = {**record, "config": {**config, "data": str(beside)}}
            else:
                raise ConfigError(f"{args.file!r} was played with the data folder {folder!r}, "
                                  f"found neither from here nor beside the record: give it "
                                  f"with 'replay --data DIR'")
    upto = _upto(args, record)
    state = DominationsState.from_record(record, log=True, upto=upto)
    start = state if upto == 0 else DominationsState.from_record(record, upto=0)
    complete = args.upto is None or args.upto >= len(record["actions"])
    saved = record.get("outcome")
    out = state.outcome()
    if complete and saved is not None and out is not None and out.to_json() != saved:
        raise RecordError(f"the replayed outcome {out.to_json()} differs from the recorded "
                          f"one {saved}")  # fmt: skip
    if args.bots:
        return _replay_bots(args, record, start)
    console = _stdout_console()
    console.print(Text(f"Replay of {args.file}", style="bold"))
    _print_dominations_header(console, start)  # as the game began, as play showed it
    _print_recorded_bots(console, record, state.num_players)
    print_dominations_events(console, state, 0)
    if not complete:
        console.print(Text(f"(stopped after {args.upto} of {len(record['actions'])} actions)",
                           style="dim"))  # fmt: skip
    console.print(dominations_table(state))
    print_dominations_scores(console, state)
    _print_stop(console, record, complete)
    return 0


def _print_stop(console: Console, record: dict[str, Any], complete: bool) -> None:
    """The words of a game a bot stopped (a record ``stopped-….json`` of ``simulate`` or
    ``tournament``), once the whole record is shown."""
    stop = record.get("stopped")
    if complete and isinstance(stop, str):
        console.print(Text(f"The game stopped here: {stop}"))


# -------------------------------------------------------------------- data
def data_table(data: GameData, folder: str | None = None) -> Table:
    """The summary of a data set as a rich table, one row per component kind; "From" says
    whether the file came from ``folder`` or from the built-in set."""
    title = Text("Dominations data: " + (f"built-in ({builtin_folder()}; copy it to correct a "
                                        "file)" if folder is None else folder))
    table = Table(title=title, title_style="bold", box=box.SIMPLE_HEAVY, pad_edge=False)
    table.add_column("Component", style="bold", no_wrap=True)
    table.add_column("File", no_wrap=True)
    table.add_column("Count", justify="right", no_wrap=True)
    table.add_column("Rulebook", justify="right", no_wrap=True)
    table.add_column("Reconstructed", justify="right", no_wrap=True)
    table.add_column("From", no_wrap=True)
    for row in data.summary():
        origin = "built-in" if row.builtin else "folder"
        table.add_row(Text(row.kind), Text(row.file), f"{row.total:,}", f"{row.rulebook:,}",
                      f"{row.reconstructed:,}", Text(origin))  # fmt: skip
    return table


def cmd_serve(args: argparse.Namespace) -> int:
    from dominari.server import serve

    data_sets: dict[str, str] = {}
    for item in args.data:
        name, sep, folder = item.partition("=")
        if not sep or not name.strip() or not folder.strip():
            raise ConfigError(f"bad --data {item!r}: expected NAME=DIR")
        if name.strip() == "builtin":
            raise ConfigError("--data: the name 'builtin' is the built-in data")
        if UNSHOWN.search(name):  # (players see it in the lobby)
            raise ConfigError(f"--data: a data set's name must hold no control characters: "
                              f"{name.strip()!r}")
        if name.strip() in data_sets:
            raise ConfigError(f"--data: the name {name.strip()!r} is given twice")
        data_sets[name.strip()] = folder.strip()
    if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is _on_stop_signal:
        # The server stops on a hang-up as on SIGTERM, gracefully (uvicorn's own handler
        # of SIGTERM; an exception raised in its event loop by ours would only be logged)
        signal.signal(signal.SIGHUP, _hang_up_as_sigterm)
    serve(args.host, args.port, args.db, data_sets=data_sets, bot_workers=args.bot_workers,
          bot_seconds=args.bot_seconds, ws_compression=args.ws_compression,
          max_bot_games=args.max_bot_games)
    return 0


# -------------------------------------------------------------------- bots
def bot_list(game: str) -> dict[str, Any]:
    """The bots of ``game`` as JSON values: each with a few words on how it plays, a search
    level with its budget, and the options a level takes."""
    blurbs = bot_blurbs(game)
    entries = []
    for name, blurb in blurbs.items():
        entry: dict[str, Any] = {"name": name, "plays": blurb,
                                 "kind": "search" if name in SEARCH_BOTS else "rule"}
        if name in SEARCH_BOTS:
            entry["budget"] = describe_level(LEVELS[game][name])
            entry["settings"] = dict(LEVELS[game][name])
        entries.append(entry)
    out: dict[str, Any] = {"game": game, "bots": entries}
    if game == "dominion":
        out["strategy_files"] = ("the path of a .toml strategy file plays as its rules say "
                                 "(the format of src/dominari/bots/strategies/*.toml)")
    out["python_bots"] = ("a bot of your own: the class or function NAME of the Python file "
                          "FILE.py that makes it (a name, reset(seed), act(state); see "
                          "dominari.bots.python_bot)")
    out["search_options"] = {name: meaning for name, (_, meaning) in SEARCH_OPTIONS.items()
                             if game == "dominion" or name != "book"}  # fmt: skip
    return out


def cmd_bots(args: argparse.Namespace) -> int:
    games = [check_game(args.game)] if args.game is not None else list(GAME_TITLES)
    lists = [bot_list(game) for game in games]
    if args.json:
        print(json.dumps(lists[0] if args.game is not None else lists, indent=1,
                         ensure_ascii=False))  # fmt: skip
        return 0
    console = _stdout_console()
    for listing in lists:
        table = Table(title=Text(f"{GAME_TITLES[listing['game']]} bots"), title_style="bold",
                      box=box.SIMPLE_HEAVY, pad_edge=False)  # fmt: skip
        table.add_column("Bot", no_wrap=True)
        table.add_column("How it plays")
        for entry in listing["bots"]:
            how = entry["plays"] + (f"; {entry['budget']}" if "budget" in entry else "")
            table.add_row(Text(entry["name"]), Text(how))
        if "strategy_files" in listing:
            table.add_row(Text("FILE.toml"), Text(listing["strategy_files"]))
        table.add_row(Text("FILE.py:NAME"), Text(listing["python_bots"]))
        console.print(table)
    options = Table(title=Text("A search level's options (LEVEL:option=value:…, e.g. "
                               "mcts:steps=200000:width=8)"), title_style="bold",
                    box=box.SIMPLE_HEAVY, pad_edge=False)  # fmt: skip
    options.add_column("Option", no_wrap=True)
    options.add_column("What it sets")
    shown = {name: meaning for listing in lists  # every game's, once
             for name, meaning in listing["search_options"].items()}
    for name, meaning in shown.items():
        options.add_row(Text(name), Text(meaning + (" (Dominion)" if name == "book"
                                                    and len(lists) > 1 else "")))
    console.print(options)
    console.print("A budget option replaces the level's budget of its kind and keeps the "
                  "others; every budget set bounds the search, whichever runs out first "
                  "(none lifts one). Iterations and steps play a seed's games the same on "
                  "any machine; seconds do not.", markup=False)
    return 0


def cmd_data_check(args: argparse.Namespace) -> int:
    data = load_data(args.dir)
    console = _stdout_console()
    console.print(data_table(data, args.dir))
    own = len(data.origins) - len(data.builtin_files)
    rest = ", the rest built-in" if data.builtin_files else ", none built-in"
    where = "the built-in set" if args.dir is None else (
        f"{args.dir} ({own} file{'s' if own != 1 else ''} there{rest})")
    console.print(f"All {len(data.origins)} data files are valid: {where}.", markup=False)
    return 0


# -------------------------------------------------------------------- show
def cmd_show(args: argparse.Namespace) -> int:
    if args.game.strip().lower() != "dominations":
        raise ConfigError(f"'show' draws Dominations positions; unknown game {args.game!r}")
    reads = _reads((), args.data)
    _check_svg_and_record(args.svg, args.record)
    for path, flag in ((args.svg, "--svg"), (args.record, "--record")):
        if path:
            check_writable_file(path, flag, reads=reads, kind=flag.removeprefix("--"))
    seed = args.seed if args.seed is not None else _random_seed()
    monuments = tuple(m.strip() for m in args.monuments.split(",")) if args.monuments else ()
    config = DominationsConfig(players=args.players, seed=seed, rules=Rules.parse(args.rule),
                               data=args.data, monuments=monuments)  # fmt: skip
    names = config.player_names()
    state = DominationsState.new(config)  # a bad --data folder or monument fails here
    tree_files = []
    if args.trees:
        folder = Path(args.trees)
        tree_files = [folder / f"tree-{name}.svg" for name in names]
        _check_folder(folder, "--trees", files=tree_files)
    seeds = [bot_seed(seed, 0, p) for p in range(args.players)]
    bots = [DominationsRandomBot(seed=bot_seed_) for bot_seed_ in seeds]
    played = seat_entries(bots, ["random"] * args.players, seeds, state)
    while not state.is_terminal() and state.turn_number <= args.turns:
        state.apply(bots[state.current_player()].act(state))
    console = _stdout_console()
    console.print(Text(f"Dominations, {args.players} players, seed {seed}", style="bold"))
    if not args.no_log:
        for line in event_lines(state, state.events):
            console.print(Text(line, style="dim" if line.startswith("    ") else ""))
    console.print(dominations_table(state))
    console.print(monuments_table(state))
    for p in state.order:
        console.print(Text(f"{names[p]}'s tree", style="bold"))
        console.print(Text(state.players[p].tree.render_text()))
    if args.svg:
        write_text_atomic(args.svg, state_svg(state))
        console.print(f"Board drawn to {args.svg}", markup=False)
    if tree_files:
        tree_files[0].parent.mkdir(parents=True, exist_ok=True)
    for p, path_ in enumerate(tree_files):
        write_text_atomic(str(path_), tree_svg(state.players[p].tree, state.data,
                                               title=f"{names[p]} — civilization tree",
                                               player=p))
        console.print(f"Tree of {names[p]} drawn to {path_}", markup=False)
    if args.record:
        write_record_atomic(args.record, record_with_seats(state, played))
        console.print(f"Record written to {args.record}", markup=False)
    return 0


def dominations_table(state: DominationsState, hand: bool = True) -> Table:
    """Each player's board: VP, influence, city tokens, knowledge/limit per domain, tree
    (mastery cards + level cards / complete nodi) and (with ``hand``) hand."""
    names = state.config.player_names()
    where = "Game over" if state.is_terminal() else (
        f"Age {state.age}, turn {state.round + 1}: {names[state.mover]}, {state.phase_name} phase")
    table = Table(title=Text(where), box=box.SIMPLE_HEAVY, pad_edge=False,
                  collapse_padding=True)  # fmt: skip
    table.add_column("Player", no_wrap=True)
    for col in ("VP", "Infl", "Tokens"):
        table.add_column(col, justify="right", no_wrap=True)
    for letter in DOMAINS:  # knowledge/limit, by domain letter
        table.add_column(letter, justify="right", no_wrap=True)
    table.add_column("Tree", no_wrap=True)
    if hand:
        table.add_column("Hand")
    for p in state.order:
        ps = state.players[p]
        know = [f"{k}/{lim}" for k, lim in zip(ps.knowledge, ps.limits(), strict=True)]
        tree = ps.tree
        cards = f"{tree.count_cards()}+{tree.count_cards(level_cards=True)}m/{tree.nodi_total()}"
        row: list[Text | str] = [Text(names[p]), str(ps.vp), str(ps.influence), str(ps.tokens),
                                 *know, cards]
        if hand:
            row.append(Text(" ".join(state.data.tiles[t].id for t in ps.hand)))
        table.add_row(*row)
    return table


def monuments_table(state: DominationsState) -> Table:
    """The monuments in play: levels built, the next level's cost and VP, tile, controller."""
    names = state.config.player_names()
    cat = state.catalog
    table = Table(title=Text("Monuments"), box=box.SIMPLE_HEAVY, pad_edge=False,
                  collapse_padding=True)  # fmt: skip
    for col in ("Monument", "Shape", "Levels", "Next", "Cost", "VP", "Controller"):
        table.add_column(col, no_wrap=True)
    for m in state.monuments:
        mon = state.data.monuments[m]
        levels = cat.monument_levels[m]
        taken = state.levels_taken[m]
        nxt = cat.levels[levels[taken]] if taken < len(levels) else None
        who = state.controller(m)
        table.add_row(Text(f"{mon.id} {mon.name}"), mon.shape, f"{taken}/{len(levels)}",
                      nxt.id if nxt else "-", str(nxt.cost) if nxt else "-",
                      str(nxt.vp) if nxt else "-", Text(names[who] if who is not None else "-"))
    return table


# -------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input, 1 for a run the
    machine stopped: :data:`EXIT_FAILED`)."""
    parser = build_parser()
    previous = _catch_stop_signals()
    output = None
    if sys.stdout is not None:  # (None where it is closed: a daemon's, `>&-`)
        _tolerant(sys.stdout)
        output = sys.stdout = _Output(sys.stdout)  # its failures said as its own
    try:
        args = parser.parse_args(argv)
        code = int(args.func(args))
        _flush_output()  # what is still buffered fails here (a full disk), not at the exit
        return code
    except SystemExit as exc:  # --help and --version; rich's on a closed pipe
        stop = _stop_in(exc)  # (while a stop's results were printed)
        if stop is not None:
            return _stopped(stop)
        try:
            _flush_output()  # (argparse says nothing of help it could not write)
            if output is not None and output.failed is not None:  # (nor of a write's
                raise output.failed  # failure: it drops what it could not write)
        except OSError as failed:
            if not isinstance(failed, BrokenPipeError):
                return _output_failed(failed)
            _silence_stdout()
        return exc.code if isinstance(exc.code, int) else 0
    except _Terminated as exc:  # kill <pid>, a closed terminal: stop as Ctrl-C does
        return _stopped(exc)
    except DominariError as exc:
        return _fail(str(exc), _status_of(exc))
    except OSError as exc:
        stop = _stop_in(exc)  # a hung-up terminal, or a pipe's reader gone with it
        if stop is not None:
            if isinstance(exc, BrokenPipeError):
                _silence_stdout()
            return _stopped(stop)
        if isinstance(exc, BrokenPipeError):
            _silence_stdout()
            return 1
        if getattr(exc, _OUTPUT_FAILED, False):
            return _output_failed(exc)
        what = f"{exc.strerror or exc}" + (f": {exc.filename!r}" if exc.filename else "")
        return _fail(what, _status_of(exc))
    except MemoryError:  # this process's own (a worker's is retried): no traceback
        return _fail(f"this process {MEMORY_ERROR}: a machine with more memory, or a "
                     "smaller run, may give it room)", EXIT_FAILED)
    except KeyboardInterrupt:
        _last_line(f"\n{PROG}: interrupted")
        return 130
    finally:
        if output is not None:
            if sys.stdout is output:
                sys.stdout = output.stream
            try:  # a stop's results that could not be written (a full disk) are dropped
                output.stream.flush()  # here, not failed again at the exit, in a traceback
            except (OSError, ValueError):  # that would hide the stop's status
                _silence_stdout()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


_OUTPUT_FAILED = "dominari_output_failed"
"""The mark :class:`_Output` leaves on an error of standard output's."""


class _Output:
    """Standard output (``stream``) for a run, as it is, but for its errors: each is
    marked as standard output's (:data:`_OUTPUT_FAILED`), so that a full disk under
    ``--json > file`` is said as the output's failure, not as a file's nobody named."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.failed: OSError | None = None
        """The first error of a write, kept: argparse drops the help it cannot write."""

    def write(self, text: str) -> Any:  # (a wrapper's may give None)
        try:
            return self.stream.write(text)
        except OSError as exc:
            setattr(exc, _OUTPUT_FAILED, True)
            if self.failed is None:
                self.failed = exc
            raise

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            setattr(exc, _OUTPUT_FAILED, True)
            raise

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding …
        return getattr(self.stream, name)


_SIGNS = "μσΔ−±≥×…·→—✓"
"""Characters the results print beyond ASCII (ratings' μ and σ, differences' Δ …)."""


def _tolerant(stream: Any) -> None:
    """Let ``stream`` write ``?`` for a character its encoding lacks (a Windows code page
    where the output is a file or a pipe, ``PYTHONIOENCODING=ascii``) rather than fail
    once a whole run's games are played, its results lost."""
    try:
        _SIGNS.encode(getattr(stream, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        with contextlib.suppress(AttributeError, ValueError):  # (not a text file: a test's)
            stream.reconfigure(errors="replace")
    except LookupError:  # (an encoding Python does not know: nothing is written yet)
        pass


def _flush_output() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def _output_failed(exc: OSError) -> int:
    """Say that standard output could not be written (a full disk), and drop the rest of
    it (the interpreter's last flush would fail again, and say so in a traceback)."""
    _silence_stdout()
    _last_line(f"{PROG}: error: standard output cannot be written "
               f"({exc.strerror or exc}): what it shows is cut short or missing")  # fmt: skip
    return 1


class _Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread so that the run unwinds as on Ctrl-C:
    its workers stopped, the records and journal of a stopped run cleaned up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.what = "hung up" if signum == getattr(signal, "SIGHUP", None) else "terminated"


def _on_stop_signal(signum: int, frame: object) -> None:
    if signum == signal.SIGTERM and _HUNG_UP:  # (uvicorn's, raised again once stopped)
        signum = signal.SIGHUP
    raise _Terminated(signum)


_HUNG_UP: list[bool] = []
"""Whether ``serve`` was hung up (its SIGTERM then says so)."""


def _hang_up_as_sigterm(signum: int, frame: object) -> None:
    _HUNG_UP.append(True)
    os.kill(os.getpid(), signal.SIGTERM)


def _catch_stop_signals() -> dict[int, Any]:
    """Turn SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) into
    :class:`_Terminated` for this run; the handlers it replaced, by signal (none where
    signals cannot be set: not the main thread). A SIGHUP ignored when the run began
    (``nohup``) stays ignored."""
    previous: dict[int, Any] = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is None:
            continue
        try:
            if sig != signal.SIGTERM and signal.getsignal(sig) == signal.SIG_IGN:
                continue
            handler = signal.signal(sig, _on_stop_signal)
        except ValueError:
            return previous
        previous[sig] = signal.SIG_DFL if handler is None else handler
    return previous


def _stop_in(exc: BaseException) -> _Terminated | KeyboardInterrupt | None:
    """The stop (SIGTERM, SIGHUP: :class:`_Terminated`; Ctrl-C) that ``exc`` is or was
    raised while handling, if any: a progress bar that closes on a hung-up terminal fails
    to write to it, output whose reader is gone fails to be written, and that error
    replaces the stop that was being handled."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, (_Terminated, KeyboardInterrupt)):
            return cause
        seen.add(id(cause))
        cause = cause.__context__
    return None


def _stopped(stop: _Terminated | KeyboardInterrupt) -> int:
    if isinstance(stop, KeyboardInterrupt):
        _last_line(f"\n{PROG}: interrupted")
        return 130
    _last_line(f"\n{PROG}: {stop.what}")
    return 128 + stop.signum


def _status_of(exc: BaseException) -> int:
    """:data:`EXIT_FAILED` for an error that comes of the machine: one marked so
    (:attr:`~dominari.core.errors.DominariError.machine`, which comes back from a worker),
    or caused by a :class:`MemoryError` or an OS error of
    :data:`~dominari.core.errors.MACHINE_ERRNOS` (itself, or the cause or context of the
    error that says it, a file named), or workers that died, hung or could not start
    (:class:`~dominari.sim.pool.WorkersLost`: not the request's fault, as far as can be
    told); else :data:`EXIT_USAGE`."""
    seen: BaseException | None = exc
    for _ in range(8):  # (a chain of causes is short; never a loop)
        if seen is None:
            break
        if getattr(seen, "machine", False) is True or machine_cause(seen) \
                or isinstance(seen, WorkersLost):  # workers that died, hung, did not start
            return EXIT_FAILED
        seen = seen.__cause__ or seen.__context__
    return EXIT_USAGE


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    line = escaped(" ".join(re.split(r"[ \r\n]+", message.strip())))  # one line; the rest
    # of what a file says (a name's tab, its escape sequence) as escapes
    _last_line(f"{PROG}: error: {line}")
    return status


def _last_line(line: str) -> None:
    """Write the run's last line to stderr, if it is still there (a hung-up terminal's
    is not: the exit status says it then)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{line}\n")
        sys.stderr.flush()


def _silence_stdout() -> None:
    # Output piped into a command that stopped reading (e.g. `| head`): drop the rest quietly.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
