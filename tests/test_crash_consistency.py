"""kill -9 the server at random moments of live games and restart it on the same file: every game
resumes at (or after) the last action its player saw acknowledged (issue 15, crash consistency)."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from websockets.sync.client import connect  # noqa: E402

from processes import free_port, serve, stop  # noqa: E402
from tuolaji.record import from_record  # noqa: E402
from tuolaji.server.store import Store  # noqa: E402
from tuolaji.server.testing import legal_from_view  # noqa: E402


class Seat0:
    """The human at seat 0 of one game: plays legal moves and remembers what was acknowledged."""

    def __init__(self, port: int, code: str, token: str, rng: random.Random) -> None:
        self.code, self.token, self.rng = code, token, rng
        self.acked: list[list[str]] = []  # its plays the server acknowledged, in order
        self.round_ends_seen = 0
        self.over = False  # its match has ended (no more plays to wait for)
        self.pending: tuple[int, list[str]] | None = None
        self.next_id = 0
        self.connect(port)

    def connect(self, port: int) -> None:
        self.ws = connect(f"ws://127.0.0.1:{port}/ws/{self.code}", open_timeout=20, ping_interval=None).__enter__()
        self.pending = None
        self.send({"type": "hello", "token": self.token})

    def send(self, msg: dict[str, Any]) -> int:
        self.next_id += 1
        self.ws.send(json.dumps(dict(msg, id=self.next_id)))
        return self.next_id

    def pump(self, until: float) -> None:
        """Read and act until the monotonic time ``until``."""
        while time.monotonic() < until:
            try:
                m = json.loads(self.ws.recv(max(0.001, min(0.05, until - time.monotonic()))))
            except TimeoutError:
                continue
            if m["type"] == "refused" and self.pending and m.get("re") == self.pending[0]:
                self.pending = None
            if m["type"] != "state":
                continue
            self.round_ends_seen += sum(1 for e in m.get("events", []) if e["e"] == "round_ended")
            if self.pending and self.pending[0] in (m.get("re") or []):
                self.acked.append(self.pending[1])
                self.pending = None
            if self.pending is None:
                self.act(m)

    def act(self, s: dict[str, Any]) -> None:
        self.over = bool(s["view"]["over"])
        if self.over:
            return
        if s["between"]:
            self.send({"type": "ready"})
            return
        o = s.get("options") or {}
        if not o.get("turn"):
            return
        if o["phase"] in ("declare", "override"):
            self.send({"type": "pass"})
        elif o["phase"] == "bury":
            self.send({"type": "bury", "cards": s["view"]["hand"][: o["bury"]]})
        elif o["phase"] == "play":
            cards = legal_from_view(s["view"], self.rng)
            self.pending = (self.send({"type": "play", "cards": cards}), cards)


def _check(db: Path, players: list[Seat0]) -> int:
    """Every acknowledged play and every round end a player saw is in the file; each game loads."""
    store = Store(db)
    try:
        total = 0
        for p in players:
            loaded = store.load(p.code)
            assert loaded is not None
            record, _ = loaded
            from_record(record)  # the saved game is whole: it replays and cross-checks
            mine = iter(e["cards"] for e in record["events"] if e["e"] == "played" and e["seat"] == 0)
            # in order, among the seat's plays (the computer also plays for it while it reconnects)
            lost = [cards for cards in p.acked if not any(cards == got for got in mine)]
            assert not lost, f"{p.code}: an acknowledged play was lost ({len(lost)} of {len(p.acked)})"
            ends = sum(1 for e in record["events"] if e["e"] == "round_ended")
            assert ends >= p.round_ends_seen, f"{p.code}: a round its player saw end was undone"
            total += len(p.acked)
        return total
    finally:
        store.close()


KILLS = 6
PATIENCE_S = 180.0  # how long a kill may wait for the game to move on (a loaded machine is slow)


def test_kill_9_at_random_moments_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    rng = random.Random(int(os.environ.get("CRASH_SEED", "5")))
    proc = serve(db, port, "--allow-seed")
    players: list[Seat0] = []
    try:
        for i in range(3):  # three games played at once: concurrent writes
            r = httpx.post(
                f"http://127.0.0.1:{port}/api/games",
                timeout=10,
                json={"seed": 100 + i, "seat": 0, "speed": "instant", "difficulty": "easy"},
            )
            players.append(Seat0(port, r.json()["code"], r.json()["token"], rng))
        acked = 0
        for kill in range(KILLS):
            # a random moment (mid-trick, right after a round ...), but never before the game has
            # moved on since the last restart, and the last one not before a round has ended: a
            # slow machine makes the test slower, never meaningless
            moment = time.monotonic() + rng.uniform(0.3, 2.5)
            deadline = moment + PATIENCE_S
            before = sum(len(p.acked) for p in players)
            while time.monotonic() < moment or (
                time.monotonic() < deadline
                and (
                    (sum(len(p.acked) for p in players) < before + 2 and not all(p.over for p in players))
                    or (kill == KILLS - 1 and not any(p.round_ends_seen for p in players))
                )
            ):
                for p in players:
                    p.pump(time.monotonic() + 0.05)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
            for p in players:
                p.ws.close()
            acked = _check(db, players)
            proc = serve(db, port, "--allow-seed")  # the lock died with the process: a new server starts at once
            for p in players:
                p.connect(port)
        assert acked >= 2 * KILLS, "the players made too few plays for the test to mean anything"
        assert sum(p.round_ends_seen for p in players) >= 1
    finally:
        for p in players:
            p.ws.close()
        stop(proc)
