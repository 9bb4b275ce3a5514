"""The game store (issue 7 §2): append-only logs committed in order, SQLite in WAL mode,
clear errors for a database that cannot be used, and the ``serve`` command's bad input."""

from __future__ import annotations

import shutil
import socket
import sqlite3
from pathlib import Path

import pytest

from dominari.cli import main
from dominari.dominations.data import builtin_folder
from dominari.server import check_port, database_url
from dominari.server.store import ConflictError, SeatRow, Store, StoreError, default_url, redact


def _game(store: Store) -> str:
    return store.create_game("dominion", {"players": 2, "seed": 1}, "spectator-id",
                             [SeatRow(0, "human", None, "A", "h" * 64),
                              SeatRow(1, "bot", "bmu", "B", None)])


def test_entries_are_appended_in_order_and_never_twice(tmp_path: Path) -> None:
    store = Store(default_url(tmp_path))
    gid = _game(store)
    store.append(gid, 1, "act", 0, "buy Silver")
    store.append(gid, 2, "undo", 0, "")
    with pytest.raises(ConflictError, match="out of order"):
        store.append(gid, 2, "act", 0, "buy Gold")  # a second writer of entry 2
    with pytest.raises(ConflictError):
        store.append(gid, 5, "act", 0, "end")  # a gap
    store.append(gid, 3, "act", 0, "end", finished=True)
    g = store.load(gid)
    assert g is not None
    assert [(e.seq, e.kind, e.text) for e in g.log] == [
        (1, "act", "buy Silver"), (2, "undo", ""), (3, "act", "end")]
    assert g.version == 3 and g.status == "finished"
    assert store.active_games() == []
    assert store.game_of_spectator("spectator-id") == gid
    assert store.seats_of_tokens(["h" * 64, "nope"]) == [(gid, 0)]
    store.close()


def test_sqlite_runs_in_wal_mode_in_the_data_folder(tmp_path: Path) -> None:
    url = database_url(None, str(tmp_path / "data"))
    assert url.endswith("data/dominari.db")
    store = Store(url)
    _game(store)
    store.close()
    with sqlite3.connect(tmp_path / "data" / "dominari.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_database_url_prefers_the_flag_then_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DOMINARI_DB_URL", "sqlite:///env.db")
    assert database_url("sqlite:///flag.db") == "sqlite:///flag.db"
    assert database_url(None) == "sqlite:///env.db"
    monkeypatch.delenv("DOMINARI_DB_URL")
    monkeypatch.setenv("DOMINARI_DATA", str(tmp_path / "d"))
    assert database_url(None) == f"sqlite:///{(tmp_path / 'd' / 'dominari.db').resolve()}"


def test_passwords_are_kept_out_of_messages() -> None:
    assert redact("postgresql+psycopg://ann:s3cret@db:5432/x") == \
        "postgresql+psycopg://ann:***@db:5432/x"
    assert redact("sqlite:///a.db") == "sqlite:///a.db"
    with pytest.raises(StoreError) as err:
        Store("postgresql+psycopg://ann:s3cret@127.0.0.1:1/x?connect_timeout=2")
    assert "s3cret" not in str(err.value)


def test_a_database_that_cannot_be_opened_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot"):
        Store(f"sqlite:///{tmp_path}/missing/folder/x.db")
    with pytest.raises(StoreError, match="cannot use the database"):
        Store("nosuchdialect://x")


@pytest.mark.parametrize(("argv", "fragment"), [
    (["serve", "--port", "70000"], "port"),
    (["serve", "--port", "x"], "port"),
    (["serve", "--bot-seconds", "0"], "bot-seconds"),
    (["serve", "--data", "nonsense"], "NAME=DIR"),
    (["serve", "--data", "mine=/no/such/folder"], "not a folder"),
    (["serve", "--data", "mine=BROKEN"], "monuments.json: invalid JSON"),
    (["serve", "--port", "FREE", "--db", "nosuchdialect://x"], "cannot use the database"),
])
def test_serve_refuses_bad_flags_in_one_line(argv: list[str], fragment: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    if "mine=BROKEN" in argv:  # a set that is a folder but not a data set: refused at start
        broken = tmp_path / "broken"
        shutil.copytree(builtin_folder(), broken)
        (broken / "monuments.json").write_text("[{", encoding="utf-8")
        argv = [f"mine={broken}" if a == "mine=BROKEN" else a for a in argv]
        fragment = f"data set 'mine': {broken / fragment}"  # the file named by its path
    if "FREE" in argv:  # a port that can be listened on, so that the database is tried
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            free = str(s.getsockname()[1])
        argv = [free if a == "FREE" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1, err


def test_a_busy_port_is_reported() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(Exception, match=f"cannot listen on 127.0.0.1:{port}"):
            check_port("127.0.0.1", port)


def test_a_server_that_cannot_listen_leaves_no_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = str(s.getsockname()[1])
        db = tmp_path / "x.db"
        assert main(["serve", "--port", port, "--db", f"sqlite:///{db}"]) == 2
        assert "cannot listen" in capsys.readouterr().err
        assert not db.exists()
        monkeypatch.setenv("DOMINARI_DATA", str(tmp_path / "data"))
        monkeypatch.delenv("DOMINARI_DB_URL", raising=False)
        assert main(["serve", "--port", port]) == 2
        assert not (tmp_path / "data").exists()
