"""Charts of a tournament's results (matplotlib, the optional ``plot`` extra).

:func:`plot_tournament` draws one PNG with two panels, the entries in leaderboard
order: win rates as bars with their Wilson 95% intervals as error bars (a dashed
line marks the rate of an even table, ``1 / seats``), and ratings as mu with
``± 3 sigma`` error bars and the conservative ordinal marked. The file is written
through a temporary file and a rename, so a failure leaves nothing half written.
matplotlib is imported only when a chart is drawn, and never through pyplot (no
window, no global state).

>>> check_plot_path("results.txt")
Traceback (most recent call last):
...
dominari.core.errors.ConfigError: --plot 'results.txt': the chart is a PNG file; name it ….png
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from dominari.core.errors import ConfigError
from dominari.sim.records import check_writable_file
from dominari.sim.tournament import RATING_NAME, RATING_Z, TournamentResult, title

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MISSING = "--plot needs matplotlib: pip install 'dominari[plot]'"


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """Check before any game is played that a chart can be written to ``path``: a
    ``.png`` name in an existing folder, where no file is, or only an empty one or a chart
    drawn before (:func:`is_chart`: no picture of the user's is replaced), and matplotlib
    installed. Raises :class:`ConfigError` saying what is wrong."""
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise ConfigError(f"--plot {os.fspath(path)!r}: the chart is a PNG file; "
                          f"name it ….png")  # fmt: skip
    check_writable_file(target, "--plot")
    if target.exists():
        try:
            drawn = _is_chart(target)
        except OSError as e:
            raise ConfigError(f"--plot: {os.fspath(path)!r} is already there and cannot be "
                              f"read ({e.strerror or e}) to see whether it is a chart "
                              "Dominari drew: give another file name, or remove it") from None
        if not drawn:
            raise ConfigError(f"--plot: {os.fspath(path)!r} is already there and is not a "
                              "tournament chart (a PNG file Dominari drew): give another "
                              "file name, or remove it")  # fmt: skip
    _matplotlib()
    return target


CHART_SOFTWARE = "Dominari tournament chart"
"""What a chart's PNG says made it (its ``Software`` text), so that a later run may draw
over it (:func:`is_chart`)."""
_PNG = b"\x89PNG\r\n\x1a\n"


def is_chart(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is empty or a tournament chart: a PNG file whose
    ``Software`` text, among those before its picture, begins :data:`CHART_SOFTWARE`
    (False where it cannot be read).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     f = Path(folder) / "a.png"
    ...     [(f.write_bytes(data), is_chart(f))[1] for data in (b"", b"notes", _PNG)]
    [True, False, False]
    """
    try:
        return _is_chart(path)
    except OSError:
        return False


def _is_chart(path: str | os.PathLike[str]) -> bool:
    """:func:`is_chart`, raising :class:`OSError` where the file cannot be read."""
    with open(path, "rb") as f:
        head = f.read(len(_PNG))
        if not head:
            return True
        if head != _PNG:
            return False
        mark = b"Software\0" + CHART_SOFTWARE.encode()
        for _ in range(64):  # the chunks before the picture (IDAT)
            chunk = f.read(8)
            if len(chunk) < 8 or chunk[4:] in (b"IDAT", b"IEND"):
                return False
            size = int.from_bytes(chunk[:4], "big")
            if chunk[4:] == b"tEXt" and size <= 1 << 12:
                if f.read(size).startswith(mark):
                    return True
                f.seek(4, os.SEEK_CUR)  # its check sum
            else:
                f.seek(size + 4, os.SEEK_CUR)
    return False


def _matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ConfigError(MISSING) from None


def tournament_figure(result: TournamentResult) -> Figure:
    """The two-panel chart of ``result`` as a matplotlib figure."""
    _matplotlib()
    from matplotlib.figure import Figure

    board = result.leaderboard
    names = [label(s.name) for s in board]
    ys = list(range(len(board)))
    height = 1.6 + sum(0.45 + 0.15 * name.count("\n") for name in names)
    fig = Figure(figsize=(11, height), layout="constrained")
    wins_ax, rating_ax = fig.subplots(1, 2, sharey=True)

    rates = [100 * s.win_rate for s in board]
    lows = [100 * (s.win_rate - s.ci95[0]) for s in board]
    highs = [100 * (s.ci95[1] - s.win_rate) for s in board]
    wins_ax.barh(ys, rates, xerr=[lows, highs], color="#4c72b0", ecolor="#222222",
                 capsize=4, height=0.6)  # fmt: skip
    wins_ax.axvline(100 / result.seats, color="#888888", linestyle="--", linewidth=1,
                    label=f"1 game in {result.seats}: an even share, if no win is shared")
    wins_ax.set_xlim(0, 100)
    wins_ax.set_xlabel("outright wins, % of games (95% Wilson interval)")
    wins_ax.set_title("Win rate")
    wins_ax.set_yticks(ys, names, parse_math=False)  # a name's "$5" is no formula
    wins_ax.invert_yaxis()  # the best at the top

    mus = [s.mu for s in board]
    spread = [RATING_Z * s.sigma for s in board]
    rating_ax.errorbar(mus, ys, xerr=spread, fmt="o", color="#dd8452", ecolor="#dd8452",
                       capsize=4, label=f"μ ± {RATING_Z:g}σ")  # fmt: skip
    rating_ax.plot([s.ordinal for s in board], ys, "|", color="#222222", markersize=14,
                   label=f"ordinal μ − {RATING_Z:g}σ")  # fmt: skip
    rating_ax.set_xlabel(f"{RATING_NAME} rating")
    rating_ax.set_title("Rating")
    rating_ax.grid(axis="x", alpha=0.3)
    handles, labels = wins_ax.get_legend_handles_labels()
    more, words = rating_ax.get_legend_handles_labels()
    fig.legend(handles + more, labels + words, loc="outside lower right", ncol=3,
               fontsize="small", frameon=False)  # below the charts: never over a bar

    data = result.options.get("data")  # a folder of the user's own: named, with its digest
    where = "" if not data else f" · data {data}" + (
        f" (digest {result.data_digest})" if result.data_digest else "")
    fig.suptitle(f"{title(result)} · seed {result.seed}{where}", parse_math=False)
    return fig


LABEL_WIDTH = 28
"""The most characters of a line of a player's name on the chart."""
LABEL_LINES = 3
"""The most lines of a player's name on the chart (a longer one loses its middle)."""


def label(name: str, width: int = LABEL_WIDTH, lines: int = LABEL_LINES) -> str:
    """``name`` as a label of at most ``lines`` lines of at most ``width`` characters:
    broken after a ``:``, ``=``, ``/``, ``-`` or white space where it can be (a search
    spec, a strategy file's path), else anywhere; a name that needs more lines keeps its
    first lines and its last ``width`` characters, with ``…`` for what is left out (the
    full name is in ``--json``).

    >>> print(label("mcts-easy:iterations=2:width=2"))
    mcts-easy:iterations=2:
    width=2
    >>> print(label("mcts:own=/home/me/strategies/variants/smithy/smithy-big-money.toml"))
    mcts:own=/home/me/
    strategies/variants/smithy/
    smithy-big-money.toml
    >>> print(label("Long" * 40))
    LongLongLongLongLongLongLong
    LongLongLongLongLongLongLon…
    LongLongLongLongLongLongLong
    """
    pieces = re.findall(r"[^:=/\-\s]*[:=/\-\s]|[^:=/\-\s]+$", name)
    rows: list[str] = []
    line = ""
    for piece in pieces:
        while len(piece) > width:  # no break within it: cut it where the line ends
            room = width - len(line)
            rows.append(line + piece[:room])
            piece, line = piece[room:], ""
        if len(line) + len(piece.rstrip()) > width:
            rows.append(line)
            line = ""
        line += piece
    rows.append(line)
    rows = [r for r in (" ".join(r.split()) for r in rows) if r]  # (a line break: a space)
    if len(rows) > lines:
        head = rows[:lines - 1]
        head[-1] = head[-1][:width - 1] + "…"
        tail = "".join(rows[lines - 1:])[-width:]
        rows = [*head, tail]
    return "\n".join(rows)


def plot_tournament(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Draw ``result`` (:func:`tournament_figure`) to the PNG file ``path``, atomically."""
    target = check_plot_path(path)
    fig = tournament_figure(result)
    # a fresh name opened exclusively: unlike mkstemp's, the file gets the umask's mode
    tmp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        with open(tmp, "xb") as f, warnings.catch_warnings():
            # A name in a script the font lacks (a strategy file's own name) is drawn with
            # boxes for those letters, not a warning per letter on the terminal.
            warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from",
                                    category=UserWarning)
            fig.savefig(f, format="png", dpi=120,
                        metadata={"Software": f"{CHART_SOFTWARE} (matplotlib)"})
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):  # the folder went away, the disk filled up …
            raise ConfigError(f"--plot {os.fspath(path)!r}: the chart cannot be written "
                              f"({e.strerror or e})") from None
        raise
