"""SQLite persistence: every game as a game record (tuolaji.record) plus its room settings.

A record is kept in normalised form so saving is cheap while a game is played: the header
(rules, seed, deals) in ``games`` and the event list in ``events``, appended as events happen.
:meth:`Store.record` reassembles exactly the document :func:`tuolaji.record.to_record` writes,
and a game is restored by loading it (:func:`tuolaji.record.from_record`), which replays and
cross-checks every event.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..record import FORMAT, VERSION
from . import jsontext

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,            -- 'lobby', 'playing' or 'finished'
    rules TEXT NOT NULL,             -- RuleSet.to_dict() as JSON
    seed TEXT,                       -- the match seed (text: it may not fit a signed 64-bit int)
    deals TEXT NOT NULL,             -- [[card, ...], ...] one deal per round started
    room TEXT NOT NULL,              -- seats, settings, host (JSON)
    summary TEXT NOT NULL,           -- levels, round number, winner (JSON), for the start page
    n_events INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL,
    idx INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (code, idx)
) WITHOUT ROWID;
"""


CHECKPOINT_BYTES = 4 << 20  # the saver copies the write-ahead log into the file once it holds this much
SCHEMA_VERSION = 1  # PRAGMA user_version of a database this program writes


def _migrate_0_to_1(db: sqlite3.Connection) -> None:
    """Files written before the schema had a version hold the version-1 tables already."""


# MIGRATIONS[v] turns a version-v database into version v + 1 (run in one transaction each)
MIGRATIONS = {0: _migrate_0_to_1}


class StoreError(RuntimeError):
    """The database file cannot be used; the message names the file and says what to do."""


class StoreLocked(StoreError):
    """Another server holds this database file."""


class FileLock:
    """An exclusive lock on ``path`` held for this object's life: one server per database file.

    The lock is the operating system's (``flock``), so it goes away with the process however
    that ends, kill -9 included; no stale lock file needs cleaning up.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.fh = open(path, "a+b")  # noqa: SIM115 - held open for the life of the lock
        try:
            if sys.platform == "win32":  # pragma: no cover
                import msvcrt

                msvcrt.locking(self.fh.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(self.fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.fh.close()
            raise StoreLocked(path) from None

    def release(self) -> None:
        if not self.fh.closed:
            self.fh.close()  # closing the file releases the lock


def default_db_path() -> Path:
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tuolaji" / "games.sqlite3"


class Store:
    """One SQLite file. Writes come from the server's saver thread, reads from the event loop;
    a lock keeps them apart on the one connection."""

    def __init__(self, path: str | Path, *, exclusive: bool = False, check: bool = False) -> None:
        """Open (or create) the database. ``exclusive``: hold the file's lock (a server does;
        a second server on the same file gets :class:`StoreLocked`). ``check``: verify the file
        first (:class:`StoreError` naming the file for a damaged, empty or newer one)."""
        self.path = str(path)
        self.file_lock: FileLock | None = None
        memory = self.path == ":memory:"
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        if exclusive and not memory:
            try:
                self.file_lock = FileLock(self.path + ".lock")
            except StoreLocked:
                raise StoreLocked(
                    f"another tuolaji server is using the database {self.path}; stop it first, or give this "
                    "server its own file with --db PATH"
                ) from None
        try:
            if check and not memory:
                self._check_file()
            self.lock = threading.Lock()
            self._checkpointer: sqlite3.Connection | None = None
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                # no checkpoint inside a commit: the commits of answered actions run on the event
                # loop, and a checkpoint (copying the log into the file, with fsync) can take a
                # few hundred milliseconds on a busy disk. The saver thread calls checkpoint().
                self.db.execute("PRAGMA wal_autocheckpoint=0")
                if check and not memory:
                    self._check_contents()
                self._prepare_schema()
            except sqlite3.DatabaseError as exc:
                self.db.close()
                raise StoreError(self._damaged(f"cannot be read ({exc})")) from None
        except BaseException:
            if self.file_lock is not None:
                self.file_lock.release()
            raise

    def _damaged(self, what: str) -> str:
        return (
            f"the database {self.path} {what}. tuolaji never replaces it: move it aside (for example "
            f"mv '{self.path}' '{self.path}.damaged') to start with an empty one, restore a backup, "
            "or pass --db PATH to use another file"
        )

    def _check_file(self) -> None:
        p = Path(self.path)
        if p.exists() and p.stat().st_size == 0 and not Path(self.path + "-wal").exists():
            raise StoreError(self._damaged("is empty (0 bytes), not a tuolaji database"))
        if p.exists() and p.stat().st_size >= 16:
            with p.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StoreError(self._damaged("is not an SQLite database"))

    def _check_contents(self) -> None:
        rows = [r for (r,) in self.db.execute("PRAGMA quick_check")]
        if rows != ["ok"]:
            raise StoreError(self._damaged("is damaged (" + "; ".join(str(r) for r in rows[:3]) + ")"))

    def _prepare_schema(self) -> None:
        """Create the tables in a new file, or bring an older file up to :data:`SCHEMA_VERSION`."""
        db = self.db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the database {self.path} was written by a newer tuolaji (schema {version}; "
                f"this one reads up to {SCHEMA_VERSION}): upgrade tuolaji, or pass --db PATH"
            )
        if not tables:  # a new file
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        while version < SCHEMA_VERSION:
            db.execute("BEGIN")
            try:
                MIGRATIONS[version](db)
                db.execute(f"PRAGMA user_version = {version + 1}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            version += 1
        db.executescript(SCHEMA)  # tables a partly written file may lack

    def checkpoint(self, *, min_bytes: int = CHECKPOINT_BYTES) -> bool:
        """Copy the write-ahead log into the database file once it holds ``min_bytes``; True if
        it did. Runs on its own connection, without the store's lock and without waiting for
        the writers (a passive checkpoint), so the event loop's commits go on meanwhile."""
        wal = Path(self.path + "-wal")
        try:
            if self.path == ":memory:" or wal.stat().st_size < min_bytes:
                return False
        except FileNotFoundError:
            return False
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return True

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
        with self.lock:
            self.db.close()  # the last connection to close checkpoints the log and removes it
        if self.file_lock is not None:
            self.file_lock.release()

    # ------------------------------------------------------------------ writing
    def save_many(self, games: Iterable[dict[str, Any]]) -> dict[str, str]:
        """Upsert game rows and append their new events, each game in its own transaction.

        Each game: ``code, status, rules, seed, deals (None: unchanged), room, summary,
        events [(index, event dict)], n_events, created``. Returns ``{code: why}`` for the
        games that could not be written (the others are written).
        """
        return self.write([self.row(g) for g in games])

    def write(self, rows: list[tuple[dict[str, Any], tuple[str, str | None, str, str, list[tuple[int, str]]]]]) -> dict[str, str]:
        """Write rows made by :meth:`row` (no JSON work here: this may run on a saver thread).

        Each game is written in its own transaction, so one game that cannot be saved never
        stops the others; returns ``{code: why}`` for the games that were not written.
        """
        failed: dict[str, str] = {}
        for g, parts in rows:
            try:
                with self.lock:
                    self._write_one(g, parts)
            except (sqlite3.Error, UnicodeError, ValueError, OverflowError) as exc:
                failed[g["code"]] = f"{type(exc).__name__}: {exc}"
        return failed

    def _write_one(self, g: dict[str, Any], parts: tuple[str, str | None, str, str, list[tuple[int, str]]]) -> None:
        rules, deals, room, summary, events = parts
        now = time.time()
        db = self.db
        code = g["code"]
        db.execute("BEGIN")
        try:
            exists = db.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone()
            if exists is None:
                db.execute(
                    "INSERT INTO games (code, created, updated, status, rules, seed, deals, room, summary, n_events)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        code,
                        g.get("created") or now,
                        now,
                        g["status"],
                        rules,
                        None if g.get("seed") is None else str(g["seed"]),
                        deals or "[]",
                        room,
                        summary,
                        g["n_events"],
                    ),
                )
            else:
                sets = "updated = ?, status = ?, room = ?, summary = ?, n_events = ?"
                args: list[Any] = [now, g["status"], room, summary, g["n_events"]]
                if deals is not None:
                    sets += ", deals = ?"
                    args.append(deals)
                # a write of older changes that reaches the file after a newer one (the saver
                # thread's batch, overtaken by a round end written at once on the event loop)
                # adds its events but never sets the game back
                db.execute(f"UPDATE games SET {sets} WHERE code = ? AND n_events <= ?", (*args, code, g["n_events"]))
            db.executemany("INSERT OR REPLACE INTO events (code, idx, data) VALUES (?, ?, ?)", ((code, i, d) for i, d in events))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    @staticmethod
    def row(g: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, str | None, str, str, list[tuple[int, str]]]]:
        def text(v: Any) -> str:
            return v if isinstance(v, str) else jsontext.dumps(v)

        deals = g.get("deals")
        return g, (
            text(g["rules"]),
            None if deals is None else text(deals),
            text(g["room"]),
            text(g["summary"]),
            [(i, text(d)) for i, d in g.get("events", ())],
        )

    def delete(self, code: str) -> None:
        with self.lock:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM events WHERE code = ?", (code,))
            self.db.execute("DELETE FROM games WHERE code = ?", (code,))
            self.db.execute("COMMIT")

    # ------------------------------------------------------------------ reading
    def exists(self, code: str) -> bool:
        with self.lock:
            return self.db.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone() is not None

    def events(self, code: str, start: int, end: int) -> list[dict[str, Any]]:
        """Saved events ``start:end`` of a game (raises LookupError when the store lacks one)."""
        with self.lock:
            texts = [
                d
                for (d,) in self.db.execute(
                    "SELECT data FROM events WHERE code = ? AND idx >= ? AND idx < ? ORDER BY idx", (code, start, end)
                )
            ]
        if len(texts) != end - start:
            raise LookupError(f"game {code}: the store holds {len(texts)} of its events {start}..{end - 1}")
        return [json.loads(d) for d in texts]

    def load(self, code: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """``(record, info)`` for a saved game: the record document and the room data."""
        with self.lock:
            row = self.db.execute(
                "SELECT created, updated, status, rules, seed, deals, room, summary, n_events FROM games WHERE code = ?",
                (code,),
            ).fetchone()
            if row is None:
                return None
            created, updated, status, rules, seed, deals, room, summary, n_events = row
            texts = [
                d for (d,) in self.db.execute("SELECT data FROM events WHERE code = ? AND idx < ? ORDER BY idx", (code, n_events))
            ]
        record = {
            "format": FORMAT,
            "version": VERSION,
            "rules": json.loads(rules),
            "seed": None if seed is None else int(seed),
            "deals": json.loads(deals),
            "events": [json.loads(d) for d in texts],
        }
        info = {
            "created": created,
            "updated": updated,
            "status": status,
            "room": json.loads(room),
            "summary": json.loads(summary),
        }
        return record, info

    def list_games(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute(
                "SELECT code, created, updated, status, room, summary FROM games ORDER BY updated DESC LIMIT ?",
                (limit,),
            ).fetchall()
        out = []
        for code, created, updated, status, room, summary in rows:
            r = json.loads(room)
            out.append(
                {
                    "code": code,
                    "created": created,
                    "updated": updated,
                    "status": status,
                    "seats": [{"name": s.get("name"), "human": bool(s.get("token"))} for s in r.get("seats", [])],
                    "tokens": [s.get("token") for s in r.get("seats", [])],
                    "summary": json.loads(summary),
                }
            )
        return out

    def codes(self) -> set[str]:
        with self.lock:
            return {c for (c,) in self.db.execute("SELECT code FROM games")}
