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
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..record import FORMAT, VERSION

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


def default_db_path() -> Path:
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tuolaji" / "games.sqlite3"


class Store:
    """One SQLite file. Writes come from the server's saver thread, reads from the event loop;
    a lock keeps them apart on the one connection."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # ------------------------------------------------------------------ writing
    def save(self, code: str, **game: Any) -> None:
        self.save_many([dict(game, code=code)])

    def save_many(self, games: Iterable[dict[str, Any]]) -> None:
        """Upsert game rows and append their new events, all in one transaction.

        Each game: ``code, status, rules, seed, deals (None: unchanged), room, summary,
        events [(index, event dict)], n_events, created``.
        """
        self.write([self.row(g) for g in games])

    def write(self, rows: list[tuple[dict[str, Any], tuple[str, str | None, str, str, list[tuple[int, str]]]]]) -> None:
        """Write rows made by :meth:`row` (no JSON work here: this may run on a saver thread)."""
        now = time.time()
        with self.lock:
            db = self.db
            db.execute("BEGIN")
            try:
                for g, (rules, deals, room, summary, events) in rows:
                    code = g["code"]
                    exists = db.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone()
                    if exists is None:
                        db.execute(
                            "INSERT INTO games (code, created, updated, status, rules, seed, deals, room, summary, n_events)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (code, g.get("created") or now, now, g["status"], rules,
                             None if g.get("seed") is None else str(g["seed"]), deals or "[]", room, summary,
                             g["n_events"]),
                        )
                    else:
                        sets = "updated = ?, status = ?, room = ?, summary = ?, n_events = ?"
                        args: list[Any] = [now, g["status"], room, summary, g["n_events"]]
                        if deals is not None:
                            sets += ", deals = ?"
                            args.append(deals)
                        db.execute(f"UPDATE games SET {sets} WHERE code = ?", (*args, code))
                    db.executemany("INSERT OR REPLACE INTO events (code, idx, data) VALUES (?, ?, ?)",
                                   ((code, i, d) for i, d in events))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @staticmethod
    def row(g: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, str | None, str, str, list[tuple[int, str]]]]:
        def text(v: Any) -> str:
            return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(",", ":"))

        deals = g.get("deals")
        return g, (text(g["rules"]), None if deals is None else text(deals), text(g["room"]), text(g["summary"]),
                   [(i, text(d)) for i, d in g.get("events", ())])

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
            texts = [d for (d,) in self.db.execute(
                "SELECT data FROM events WHERE code = ? AND idx < ? ORDER BY idx", (code, n_events))]
        record = {"format": FORMAT, "version": VERSION, "rules": json.loads(rules),
                  "seed": None if seed is None else int(seed), "deals": json.loads(deals),
                  "events": [json.loads(d) for d in texts]}
        info = {"created": created, "updated": updated, "status": status, "room": json.loads(room),
                "summary": json.loads(summary)}
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
            out.append({
                "code": code, "created": created, "updated": updated, "status": status,
                "seats": [{"name": s.get("name"), "human": bool(s.get("token"))} for s in r.get("seats", [])],
                "tokens": [s.get("token") for s in r.get("seats", [])],
                "summary": json.loads(summary),
            })
        return out

    def codes(self) -> set[str]:
        with self.lock:
            return {c for (c,) in self.db.execute("SELECT code FROM games")}
