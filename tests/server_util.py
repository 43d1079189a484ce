"""Helpers for the table-server tests: a WebSocket client and ways to look inside a room."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.sync.client import connect

from tuolaji.bots.random_bot import random_legal
from tuolaji.cards import cards_str
from tuolaji.engine.observation import observe
from tuolaji.record import dumps
from tuolaji.server.testing import LiveServer

Msg = dict[str, Any]


def create_game(
    srv: LiveServer,
    *,
    seed: int = 7,
    seat: int | None = 0,
    token: str | None = None,
    start: bool = True,
    speed: str = "instant",
    difficulty: str = "easy",
    **extra: Any,
) -> Msg:
    headers = {"X-Tuolaji-Token": token} if token else {}
    body = {"seed": seed, "seat": seat, "start": start, "speed": speed, "difficulty": difficulty, **extra}
    r = httpx.post(srv.url + "/api/games", json=body, headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    data: Msg = r.json()
    if token and not data.get("token"):
        data["token"] = token
    return data


class Client:
    """A WebSocket client that keeps every message it received (for the leak checks)."""

    def __init__(self, srv: LiveServer, code: str, *, token: str | None = None, lang: str = "en", hello: bool = True) -> None:
        self.srv = srv
        self.code = code
        self.ws = connect(srv.url.replace("http", "ws", 1) + f"/ws/{code}", open_timeout=30, max_size=2**22).__enter__()
        self.msgs: list[Msg] = []
        self.state: Msg | None = None
        self.next_id = 0
        self.token = token
        if hello:
            self.send({"type": "hello", "token": token, "lang": lang} if token else {"type": "hello", "lang": lang})
            self.welcome = self.wait(lambda m: m["type"] == "welcome")
            if self.welcome.get("token"):
                self.token = self.welcome["token"]
            self.wait_state(lambda s: True)

    def close(self) -> None:
        self.ws.close()

    def send(self, obj: Any) -> int | None:
        if isinstance(obj, dict) and "id" not in obj:
            self.next_id += 1
            obj = dict(obj, id=self.next_id)
        self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))
        return obj.get("id") if isinstance(obj, dict) else None

    def recv(self, timeout: float = 30.0) -> Msg:
        m: Msg = json.loads(self.ws.recv(timeout))
        self.msgs.append(m)
        if m["type"] == "state":
            self.state = m
        return m

    def drain(self) -> None:
        """Read every message that has arrived, without waiting."""
        while True:
            try:
                self.recv(timeout=0)
            except TimeoutError:
                return

    def wait(self, pred: Callable[[Msg], bool], timeout: float = 60.0) -> Msg:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message; last state: {json.dumps(self.state)[:400]}")
            m = self.recv(left)
            if pred(m):
                return m

    def wait_state(self, pred: Callable[[Msg], bool], timeout: float = 60.0) -> Msg:
        if self.state is not None and pred(self.state) and not self._pending():
            return self.state
        return self.wait(lambda m: m["type"] == "state" and pred(m), timeout)

    def _pending(self) -> bool:
        return False

    def refused(self, obj: Any) -> Msg:
        """Send something the server must refuse; return the refusal."""
        mid = self.send(obj)
        m = self.wait(lambda m: m["type"] in ("refused", "state") and (m["type"] == "refused" or mid in (m.get("re") or [])))
        assert m["type"] == "refused", f"accepted: {obj!r}"
        if mid is not None and "re" in m:
            assert m["re"] == mid
        return m

    def request(self, obj: Msg, kind: str) -> Msg:
        mid = self.send(obj)
        return self.wait(lambda m: m.get("re") == mid and m["type"] in (kind, "refused"))

    def act(self, obj: Msg) -> Msg:
        """Send an action that must be accepted; return the state that acknowledges it."""
        mid = self.send(obj)
        m = self.wait(
            lambda m: (m["type"] == "state" and mid in (m.get("re") or [])) or (m["type"] == "refused" and m.get("re") == mid)
        )
        assert m["type"] == "state", f"refused: {m}"
        return m


def my_turn(s: Msg) -> bool:
    o = s.get("options") or {}
    return bool(o.get("turn")) and not s.get("between")


def room_of(srv: LiveServer, code: str) -> Any:
    return srv.tables.rooms[code]


def snapshot(srv: LiveServer, code: str) -> tuple[str, int]:
    """The whole game as a record (every hidden card included) and the action count."""
    return srv.call(lambda: (dumps(room_of(srv, code).match), room_of(srv, code).match.actions))


def legal_play(srv: LiveServer, code: str, seat: int, rng: random.Random | None = None) -> list[str]:
    """A legal play for ``seat`` now, computed inside the server (test harness only)."""
    rng = rng or random.Random(0)

    def pick() -> list[str]:
        rnd = room_of(srv, code).match.round
        return cards_str(random_legal(observe(rnd, seat, with_events=False), rng))

    return srv.call(pick)


def play_turn(c: Client, srv: LiveServer, rng: random.Random | None = None) -> Msg:
    """Take this client's pending decision (pass, bury, play, next round) and return the new state."""
    s = c.state
    assert s is not None
    if s.get("between"):
        c.send({"type": "ready"})
        return c.wait_state(lambda s: not s["between"] or s["view"]["over"])
    o = s["options"]
    phase = o["phase"]
    if phase in ("declare", "override"):
        return c.act({"type": "pass"})
    if phase == "bury":
        return c.act({"type": "bury", "cards": s["view"]["hand"][: o["bury"]]})
    if phase == "call_friend":  # the first plain ace or king not called yet (several friends: one per turn)
        called = {(x["card"], x["nth"]) for x in s["view"].get("friend_calls", [])}
        nth = 1 if o.get("friend_copies") else 0
        card = next(c for c in ("SA", "HA", "CA", "DA", "SK", "HK", "CK", "DK") if (c, nth) not in called)
        return c.act({"type": "call_friend", "card": card, **({"nth": nth} if nth else {})})
    if phase == "play":
        return c.act({"type": "play", "cards": legal_play(srv, c.code, s["you"]["seat"], rng)})
    raise AssertionError(f"nothing to do in phase {phase}")


def until(c: Client, srv: LiveServer, pred: Callable[[Msg], bool], *, limit: int = 400, rng: random.Random | None = None) -> Msg:
    """Play this client's turns (others are bots) until ``pred(state)`` holds at its turn or break."""
    for _ in range(limit):
        s = c.wait_state(lambda s: my_turn(s) or s["between"] or s["view"]["over"], timeout=60)
        if pred(s):
            return s
        if s["view"]["over"]:
            raise AssertionError("the match ended first")
        play_turn(c, srv, rng)
    raise AssertionError("condition never reached")
