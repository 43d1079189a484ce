"""The database: one server per file, checked at start, versioned, and written before an action
is answered (issue 15, findings 1, 3 and 8)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, play_turn, room_of, until  # noqa: E402
from tuolaji.server import cli  # noqa: E402
from tuolaji.server.app import create_app  # noqa: E402
from tuolaji.server.store import SCHEMA_VERSION, Store, StoreError, StoreLocked  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


def _game(code: str, n_events: int = 3) -> dict:
    return {
        "code": code,
        "status": "playing",
        "rules": {"preset": "classic"},
        "seed": 1,
        "deals": [["SA"]],
        "room": {"seats": []},
        "summary": {},
        "events": [(i, {"e": "x", "i": i}) for i in range(n_events)],
        "n_events": n_events,
    }


def test_a_second_server_on_the_same_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    first = create_app(db)
    with pytest.raises(StoreLocked, match="another tuolaji server is using the database .*games.sqlite3"):
        create_app(db)
    assert cli.main(["--db", str(db), "--no-browser", "--port", "0"], command="serve") == 2
    assert f"another tuolaji server is using the database {db}" in capsys.readouterr().err
    first.state.tables.store.close()  # the first server stops: the file is free again
    create_app(db).state.tables.store.close()


def test_one_game_that_cannot_be_saved_never_stops_the_others(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    bad = _game("BAD01")
    bad["room"] = {"seats": [{"name": "\udfff"}]}  # got past every check somehow
    failed = store.save_many([_game("OK001"), bad, _game("OK002")])
    assert set(failed) == {"BAD01"} and "UnicodeEncodeError" in failed["BAD01"]
    assert store.codes() == {"OK001", "OK002"}
    assert len(store.list_games()) == 2
    store.close()


def test_an_older_write_landing_after_a_newer_one_never_undoes_it(tmp_path: Path) -> None:
    """The saver thread takes a batch (events 0-4), a round ends meanwhile and is written at once
    on the event loop (events 5-9); the saver's batch reaches the file second. Before, it set the
    game back to 5 events: a kill then undid a round its players had seen end."""
    store = Store(tmp_path / "g.sqlite3")
    store.save_many([_game("G0001", 0)])
    older = _game("G0001", 5)
    newer = dict(_game("G0001", 10), events=[(i, {"e": "x", "i": i}) for i in range(5, 10)], room={"seats": ["new"]})
    store.save_many([newer])
    store.save_many([older])
    loaded = store.load("G0001")
    assert loaded is not None
    record, info = loaded
    assert [e["i"] for e in record["events"]] == list(range(10))
    assert info["room"] == {"seats": ["new"]}
    store.close()


def test_commits_never_checkpoint_the_saver_does_and_nothing_is_lost(tmp_path: Path) -> None:
    """A checkpoint copies the write-ahead log into the file with an fsync, which can stall for
    hundreds of milliseconds: never inside a commit (those of answered actions run on the event
    loop), only when the saver thread asks, once the log is big enough."""
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    for i in range(300):
        store.save_many([_game(f"G{i:04d}")])
    wal = Path(str(db) + "-wal")
    size = db.stat().st_size
    assert wal.stat().st_size > 100_000 and store.checkpoint() is False  # below the size it waits for
    assert store.checkpoint(min_bytes=1) is True
    assert db.stat().st_size > size  # the log's pages are in the file now
    store.close()
    again = Store(db)
    assert len(again.codes()) == 300
    again.close()


def test_an_empty_file_is_refused_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"")
    with pytest.raises(StoreError, match=r"games.sqlite3 is empty \(0 bytes\).*never replaces it"):
        create_app(db)
    assert db.stat().st_size == 0  # left as it was
    create_app(tmp_path / "other.sqlite3").state.tables.store.close()  # and the lock was released


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database.*mv"):
        Store(db, check=True)


def test_a_damaged_page_is_found_at_start(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    store.save_many([_game(f"G{i:04d}", 40) for i in range(60)])
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    for off in range(3 * page, 3 * page + 400, 7):  # scribble over the middle of a b-tree page
        data[off] = 0xA5
    db.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=f"the database {db} (is damaged|cannot be read)"):
        Store(db, check=True)
    with pytest.raises(StoreError):
        create_app(db)


@pytest.mark.parametrize("kept", [0.2, 0.5, 0.9])
def test_a_truncated_file_is_refused_naming_it_and_left_as_it_was(tmp_path: Path, kept: float) -> None:
    """A file cut short (a copy that stopped, a full disk): refused at start with the way forward."""
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    store.save_many([_game(f"G{i:04d}", 40) for i in range(60)])
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = db.read_bytes()
    cut = data[: int(len(data) * kept) // 4096 * 4096 + 1000]  # (mid-page, as a copy stops)
    db.write_bytes(cut)
    with pytest.raises(StoreError, match=f"the database {db} (is damaged|cannot be read).*never replaces it.*--db"):
        create_app(db)
    assert db.read_bytes() == cut  # never replaced, emptied or "repaired"


def test_schema_version_is_set_and_old_files_are_migrated(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    Store(db).close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    old = tmp_path / "old.sqlite3"  # a file from before the schema had a version
    con = sqlite3.connect(old)
    from tuolaji.server.store import SCHEMA

    con.executescript(SCHEMA)
    con.execute(
        "INSERT INTO games (code, created, updated, status, rules, deals, room, summary) "
        "VALUES ('OLD01', 0, 0, 'lobby', '{}', '[]', '{}', '{}')"
    )
    con.commit()
    con.close()
    store = Store(old, check=True)
    assert store.codes() == {"OLD01"}
    store.close()
    assert sqlite3.connect(old).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    newer = tmp_path / "newer.sqlite3"
    con = sqlite3.connect(newer)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.execute("CREATE TABLE games (code TEXT)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="written by a newer tuolaji"):
        Store(newer, check=True)


def _saved_events(db: Path, code: str) -> list[dict]:
    store = Store(db)  # a reader beside the running server
    loaded = store.load(code)
    store.close()
    assert loaded is not None
    return list(loaded[0]["events"])


def test_an_answered_action_is_on_disk_before_the_answer(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with LiveServer(db, allow_seed=True, save_interval=3600) as srv:  # the periodic saver never runs
        game = create_game(srv, seed=51, speed="slow")
        c = Client(srv, game["code"], token=game["token"])
        until(c, srv, lambda s: s["options"]["phase"] == "play")
        for _ in range(3):
            s = c.wait_state(lambda s: bool(s["options"].get("turn")) and s["options"]["phase"] == "play", timeout=30)
            n_mine = s["view"]["tricks_played"]
            play_turn(c, srv)  # returns once the play is acknowledged
            mine = [e for e in _saved_events(db, game["code"]) if e["e"] == "played" and e["seat"] == 0]
            assert len(mine) >= n_mine + 1
        c.close()


def test_a_finished_round_is_on_disk_at_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with LiveServer(db, allow_seed=True, save_interval=3600) as srv:
        game = create_game(srv, seed=52, seat=None, speed="instant")
        c = Client(srv, game["code"])  # a spectator: the computer players play
        deadline = time.monotonic() + 60
        while srv.call(lambda: len(room_of(srv, game["code"]).match.rounds)) < 1:
            assert time.monotonic() < deadline, "no round finished"
            time.sleep(0.05)
        assert any(e["e"] == "round_ended" for e in _saved_events(db, game["code"]))
        c.close()


def test_players_are_told_when_their_game_cannot_be_saved(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with LiveServer(db, allow_seed=True, save_interval=0.05) as srv:
        game = create_game(srv, seed=53, speed="normal")
        c = Client(srv, game["code"], token=game["token"])
        store = srv.tables.store
        real = store.write

        def full_disk(rows: list) -> dict[str, str]:
            return {g["code"]: "OperationalError: database or disk is full" for g, _ in rows}

        store.write = full_disk  # type: ignore[method-assign]
        note = c.wait(lambda m: m["type"] == "notice", timeout=30)
        assert note["code"] == "save_failed" and "cannot be saved" in note["reason"]
        store.write = real  # type: ignore[method-assign]
        note = c.wait(lambda m: m["type"] == "notice", timeout=30)
        assert note["code"] == "saved_again"
        c.close()
