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
    """One SQLite file; all calls happen on the server's event-loop thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ writing
    def save(self, code: str, *, status: str, rules: dict[str, Any], seed: int | None,
             deals: list[list[str]] | None, room: dict[str, Any], summary: dict[str, Any],
             events: Iterable[tuple[int, str]], n_events: int, created: float | None = None) -> None:
        """Upsert the game row and append new events (``(index, json)`` pairs), in one transaction."""
        now = time.time()
        db = self.db
        db.execute("BEGIN")
        try:
            row = db.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO games (code, created, updated, status, rules, seed, deals, room, summary, n_events)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (code, created or now, now, status, json.dumps(rules), None if seed is None else str(seed),
                     json.dumps(deals or []), json.dumps(room, ensure_ascii=False),
                     json.dumps(summary, ensure_ascii=False), n_events),
                )
            else:
                sets = "updated = ?, status = ?, room = ?, summary = ?, n_events = ?"
                args: list[Any] = [now, status, json.dumps(room, ensure_ascii=False),
                                   json.dumps(summary, ensure_ascii=False), n_events]
                if deals is not None:
                    sets += ", deals = ?"
                    args.append(json.dumps(deals))
                db.execute(f"UPDATE games SET {sets} WHERE code = ?", (*args, code))
            db.executemany("INSERT OR REPLACE INTO events (code, idx, data) VALUES (?, ?, ?)",
                           ((code, i, d) for i, d in events))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def delete(self, code: str) -> None:
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM events WHERE code = ?", (code,))
        self.db.execute("DELETE FROM games WHERE code = ?", (code,))
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ reading
    def exists(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone() is not None

    def load(self, code: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """``(record, row)`` for a saved game: the record document and the room data."""
        row = self.db.execute(
            "SELECT created, updated, status, rules, seed, deals, room, summary, n_events FROM games WHERE code = ?",
            (code,),
        ).fetchone()
        if row is None:
            return None
        created, updated, status, rules, seed, deals, room, summary, n_events = row
        events = [json.loads(d) for (d,) in self.db.execute(
            "SELECT data FROM events WHERE code = ? AND idx < ? ORDER BY idx", (code, n_events))]
        record = {"format": FORMAT, "version": VERSION, "rules": json.loads(rules),
                  "seed": None if seed is None else int(seed), "deals": json.loads(deals), "events": events}
        info = {"created": created, "updated": updated, "status": status, "room": json.loads(room),
                "summary": json.loads(summary)}
        return record, info

    def list_games(self, limit: int = 100) -> list[dict[str, Any]]:
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
                "summary": json.loads(summary),
            })
        return out

    def codes(self) -> set[str]:
        return {c for (c,) in self.db.execute("SELECT code FROM games")}
