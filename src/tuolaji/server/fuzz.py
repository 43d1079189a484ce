"""Fuzz the table server: random and mutated WebSocket messages and HTTP bodies against a live
server, with checks after every one (``benchmarks/fuzz_server.py`` runs it; a pytest runs a slice).

Four players sit at a table (every seat human, no turn timer, so nothing moves unless a client
acts) and play it out with legal moves, while a stream of mutated messages goes to them: wrong
types, unknown fields, lone surrogates and control characters, huge and deeply nested values,
garbage bytes, actions out of turn or for another seat. Throw-away connections send what may
close a socket (oversized frames, no hello). HTTP requests get mutated bodies, rules, records
and query strings. After each message:

- the server is alive (``/api/info`` answers) and no HTTP answer is a 5xx;
- nothing was logged at ERROR level or with a traceback;
- a refused message changed nothing (the whole match, seats, settings and status compared);
- no message carries a card its seat may not see (:class:`~.leaks.ClientStream` replays every
  message each seat received).
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import card_str, cards_str
from ..engine.actions import Declare
from ..engine.observation import observe
from ..record import dumps
from .leaks import PRETTY, SUITS, TOKEN, ClientStream
from .limits import Limits
from .protocol import SCHEMAS
from .testing import LiveServer

Msg = dict[str, Any]
CARDS = ["SA", "S10", "H2", "CJ", "DK", "BJ", "LJ", "S5", "HQ", "sa", "S1", "X9", "", "S10S", "♠A"]
ODD_TEXTS = [
    "\ud800",
    "\udfff",
    "a\x00b",
    "\x1b[2J",
    "x\u202ey",
    "名字",
    "A" * 25,
    "A" * 5000,
    "",
    " ",
    "null",
    "💥" * 10,
    "\n\t",
    "SA",
]


def _answers(pid: object, m: Msg) -> bool:
    return bool(m.get("re") == pid)


@dataclass
class Report:
    ws_messages: int = 0
    http_requests: int = 0
    refused: int = 0
    accepted: int = 0
    rounds: int = 0
    matches: int = 0
    crashes: int = 0  # the server stopped answering
    http_5xx: int = 0
    tracebacks: int = 0
    leaks: int = 0
    changed_by_refused: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def messages(self) -> int:
        return self.ws_messages + self.http_requests

    @property
    def ok(self) -> bool:
        return not (self.crashes or self.http_5xx or self.tracebacks or self.leaks or self.changed_by_refused)

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)

    def line(self) -> str:
        return (
            f"{self.messages} messages ({self.ws_messages} WebSocket, {self.http_requests} HTTP) in "
            f"{self.seconds:.0f} s; refused {self.refused}, accepted {self.accepted}; {self.rounds} rounds, "
            f"{self.matches} matches; crashes {self.crashes}, 5xx {self.http_5xx}, tracebacks {self.tracebacks}, "
            f"leaks {self.leaks}, state changes from refused input {self.changed_by_refused}"
        )


class LogWatch(logging.Handler):
    """Counts every record at ERROR or above, or carrying a traceback, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []
        self.lock_ = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(("tuolaji", "uvicorn", "starlette", "asyncio")):
            return  # the harness's own client library (a connection the server closed)
        if record.levelno >= logging.ERROR or record.exc_info:
            with self.lock_:
                self.bad.append(f"{record.name}: {record.getMessage()[:200]}")


class Player:
    """A seated WebSocket client whose every received message is checked for leaks."""

    def __init__(self, srv: LiveServer, code: str, seat: int, token: str | None, report: Report) -> None:
        from websockets.sync.client import connect

        self.ws = connect(
            srv.url.replace("http", "ws", 1) + f"/ws/{code}", open_timeout=10, max_size=2**23, ping_interval=None
        ).__enter__()
        self.seat = seat
        self.report = report
        self.stream = ClientStream(seat)
        self.state: Msg | None = None
        self.stood = False
        self.seated = False
        self.next_id = 0
        self.send_obj({"type": "hello", "token": token} if token else {"type": "hello"})
        welcome = self.until(lambda m: m["type"] == "welcome")
        self.token = token or welcome["token"]

    def send_raw(self, data: str | bytes) -> None:
        # cards a client names itself may come back in the refusal ("you hold no SA")
        self.stream.sent(_named(data))
        self.ws.send(data)

    def send_obj(self, obj: Msg) -> int:
        self.next_id += 1
        self.ws.send(json.dumps(dict(obj, id=self.next_id)))
        return self.next_id

    def recv(self, timeout: float) -> Msg:
        m: Msg = json.loads(self.ws.recv(timeout))
        if m["type"] == "state":
            now_seat = (m.get("you") or {}).get("seat")
            if now_seat == self.seat:
                self.seated = True
            elif self.seated:
                self.stood = True  # it left its seat (a fuzzed "stand"): from now on a spectator
        if self.stood:
            view = m.get("view") or {}
            if view.get("hand"):
                self.report.leaks += 1
                self.report.problem(f"seat {self.seat} stood up and still got a hand")
            return m
        for exc in self.stream.received(m):
            self.report.leaks += 1
            self.report.problem(f"leak: {exc}: {json.dumps(m, ensure_ascii=False)[:400]}")
        if m["type"] == "state":
            self.state = m
        return m

    def until(self, pred: Callable[[Msg], bool], timeout: float = 20.0) -> Msg:
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(m):
                return m

    def barrier(self) -> list[Msg]:
        """Every message the server sent in answer to what came before (a ping answers last)."""
        pid = self.send_obj({"type": "ping"})
        got: list[Msg] = []
        while True:
            m = self.recv(20.0)
            if m["type"] == "pong" and m.get("re") == pid:
                self.stream.settled()
                return got
            got.append(m)


class Fuzzer:
    def __init__(self, srv: LiveServer, rng: random.Random, report: Report) -> None:
        self.srv = srv
        self.rng = rng
        self.report = report
        self.players: list[Player] = []
        self.code = ""
        self.http = __import__("httpx").Client(base_url=srv.url, timeout=30)

    # ------------------------------------------------------------------ the table
    def new_table(self) -> None:
        for p in self.players:
            p.ws.close()  # replies still waiting for their state cannot be checked: dropped
        r = self.http.post(
            "/api/games",
            json={
                "seed": self.rng.randrange(2**31),
                "seat": 0,
                "start": False,
                "speed": "instant",
                "difficulty": "easy",
                "timer": 0,
            },
        )
        game = r.json()
        self.code = game["code"]
        self.players = [Player(self.srv, self.code, 0, game["token"], self.report)]
        for seat in (1, 2, 3):
            p = Player(self.srv, self.code, seat, None, self.report)
            pid = p.send_obj({"type": "sit", "seat": seat})
            p.until(functools.partial(_answers, pid))
            self.players.append(p)
        self.players[0].send_obj({"type": "start"})
        for p in self.players:
            p.barrier()
        self.report.matches += 1

    def snapshot(self, *, whole: bool = False) -> tuple[Any, ...]:
        """The room as a comparable value: the whole match record (every hidden card) when
        ``whole``, else its action and event counts (a refused action changes neither)."""
        code = self.code

        def take() -> tuple[Any, ...]:
            room = self.srv.tables.rooms[code]
            m = room.match
            game = dumps(m) if whole else (m.actions, len(m.events), m.round.phase.value, len(m.rounds))
            return (game, [s.to_dict() for s in room.seats], dict(room.settings), room.status, room.between, room.host)

        return self.srv.call(take)

    def legal(self, seat: int) -> Msg | None:
        """The action a careful player would take for ``seat`` now (computed inside the server)."""
        code = self.code
        rng = random.Random(self.rng.randrange(2**32))

        def pick() -> Msg | None:
            from ..bots.random_bot import random_legal
            from ..engine.legal import legal_actions

            room = self.srv.tables.rooms[code]
            if room.between:
                return {"type": "ready"}
            rnd = room.match.round
            if room.match.over or room.decider() != seat:
                return None
            phase = rnd.phase.value
            if phase == "play":
                return {"type": "play", "cards": cards_str(random_legal(observe(rnd, seat, with_events=False), rng))}
            if phase == "bury":
                return {"type": "bury", "cards": cards_str(rng.sample(rnd.hands[seat], rnd.kitty_size))}
            options = list(itertools.islice(legal_actions(rnd, seat), 200))
            declares = [a for a in options if isinstance(a, Declare)]
            if phase in ("declare", "override"):
                if declares and phase == "declare":  # else every deal is thrown in and dealt again
                    return {"type": "declare", "cards": cards_str(rng.choice(declares).cards)}
                return {"type": "pass"}
            for action in options:
                out: Msg = {"type": action.type}
                if hasattr(action, "cards"):
                    out["cards"] = cards_str(action.cards)
                if hasattr(action, "card"):
                    out["card"] = card_str(action.card)
                return out
            return None

        return self.srv.call(pick)

    def progress(self) -> None:
        """Move the game on: the seat to act plays legally (everyone presses "next round")."""
        room_over = self.srv.call(lambda: self.srv.tables.rooms[self.code].match.over)
        if room_over:
            self.new_table()
            return
        between = self.srv.call(lambda: self.srv.tables.rooms[self.code].between)
        if between:
            self.report.rounds += 1
            for p in self.players:
                p.send_obj({"type": "ready"})
            for p in self.players:
                p.barrier()
            return
        for p in self.players:
            action = self.legal(p.seat)
            if action is not None:
                p.send_obj(action)
                p.barrier()
                self.report.ws_messages += 1
                return
        for p in self.players:  # dealing: let the driver run
            p.barrier()

    # ------------------------------------------------------------------ mutations
    def value(self, depth: int = 0) -> Any:
        r = self.rng.random()
        if r < 0.15:
            return self.rng.choice([0, 1, -1, 7, 8, 2**31, 2**63, -(2**70), 10**400 if depth else 3, 1.5])
        if r < 0.35:
            return self.rng.choice(ODD_TEXTS)
        if r < 0.55:
            return [self.rng.choice(CARDS) for _ in range(self.rng.randrange(0, 70))]
        if r < 0.6:
            return self.rng.choice([True, False, None])
        if r < 0.7 and depth < 3:
            return {
                self.rng.choice(ODD_TEXTS + ["cards", "seat", "type"]): self.value(depth + 1)
                for _ in range(self.rng.randrange(3))
            }
        if r < 0.8:
            n = self.rng.choice([40, 200, 2000])
            return json.loads("[" * n + "]" * n) if n < 900 else "deep"
        hand = (self.players[0].state or {}).get("view", {}).get("hand") or ["SA"]
        return self.rng.sample(hand, min(len(hand), self.rng.randrange(1, 5)))

    def mutated(self) -> str | bytes:
        r = self.rng.random()
        if r < 0.06:
            return bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 64)))
        if r < 0.1:
            n = self.rng.choice([100, 1000, 5000])
            return '{"type":"ping","id":' + "[" * n + "]" * n + "}"
        if r < 0.14:
            return json.dumps({"type": "play", "cards": ["SA"]})[: self.rng.randrange(1, 25)]
        kind = self.rng.choice([*SCHEMAS, *SCHEMAS, "bogus", "", "HELLO"])
        if kind in ("stand", "autoplay") and self.rng.random() < 0.9:
            kind = "play"  # accepted ones end the table (the four are seated again): keep them rare
        msg: Msg = {"type": kind if self.rng.random() > 0.03 else self.value()}
        fields = list(SCHEMAS.get(kind, {}))
        for name in fields:
            if self.rng.random() < 0.7:
                msg[name] = self.value()
        if self.rng.random() < 0.2:
            msg[self.rng.choice(["extra", "\ud800", "seat", "cards", "x" * 100])] = self.value()
        if self.rng.random() < 0.8:
            msg["id"] = self.rng.choice([1, "a", 2**60, "\udfff", [], {}, None, 1.5, "x" * 40])
        return json.dumps(msg, allow_nan=True)

    def ws_round(self) -> None:
        p = self.rng.choice(self.players)
        data = self.mutated()
        if len(data) > 60_000:
            data = data[:60_000]
        whole = self.report.ws_messages % 10 == 0
        before = self.snapshot(whole=whole)
        p.send_raw(data)
        answers = p.barrier()
        self.report.ws_messages += 1
        refused = [m for m in answers if m["type"] == "refused"]
        if refused:
            self.report.refused += 1
            if self.snapshot(whole=whole) != before:
                self.report.changed_by_refused += 1
                self.report.problem(f"refused {refused[0]['code']} but the game changed: {data[:200]!r}")
        else:
            self.report.accepted += 1
            after = self.snapshot()
            if after[1] != before[1]:  # a player stood up or asked for autoplay: seat the four again
                self.new_table()

    def throwaway(self) -> None:
        """A connection that may get closed: oversized frames, no hello, floods."""
        from websockets.sync.client import connect

        url = self.srv.url.replace("http", "ws", 1) + f"/ws/{self.rng.choice([self.code, 'ZZZZZ', 'x' * 300])}"
        try:
            with connect(url, open_timeout=10, max_size=2**23, ping_interval=None) as ws:
                choice = self.rng.random()
                if choice < 0.3:
                    ws.send("x" * self.rng.choice([70_000, 300_000]))
                elif choice < 0.6:
                    ws.send(json.dumps({"type": "play", "cards": ["SA"]}))
                else:
                    ws.send(json.dumps({"type": "hello"}))
                    ws.send(self.mutated())
                ws.send(json.dumps({"type": "ping", "id": 424242}))
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    m = json.loads(ws.recv(5))
                    v = m.get("view") or {}
                    if v.get("hand"):
                        self.report.leaks += 1
                        self.report.problem(f"a spectator got a hand: {str(m)[:200]}")
                    if m.get("re") == 424242 or m.get("code") == "no_room":
                        break
        except Exception:  # closed by the server: that is its right here
            pass
        self.report.ws_messages += 1

    def http_round(self) -> None:
        r = self.rng.random()
        body: Any
        if r < 0.3:
            body = {
                k: self.value()
                for k in self.rng.sample(["rules", "name", "seat", "seed", "speed", "timer", "difficulty", "start", "x"], 3)
            }
            resp = self.http.post(
                "/api/games",
                content=json.dumps(body, allow_nan=True),
                headers={"X-Tuolaji-Token": self.rng.choice(["", "t", "x" * 100, "a b"])},
            )
            if resp.status_code == 200:  # do not let fuzzed rooms pile up
                made = resp.json()
                self.http.delete(f"/api/games/{made['code']}", headers={"X-Tuolaji-Token": made.get("token") or "t"})
        elif r < 0.5:
            import dataclasses

            from ..ruleset import RuleSet

            names = [f.name for f in dataclasses.fields(RuleSet)]
            rules = {self.rng.choice(names): self.value() for _ in range(self.rng.randrange(1, 4))}
            resp = self.http.post("/api/rules/check", content=json.dumps({"rules": rules}, allow_nan=True))
        elif r < 0.7:
            rec = self.http.get(f"/api/games/{self.code}/record").json()
            for _ in range(self.rng.randrange(1, 4)):
                key = self.rng.choice(["rules", "seed", "deals", "events", "format", "version"])
                if (
                    key == "events"
                    and isinstance(rec.get("events"), list)
                    and rec["events"]
                    and isinstance(rec["events"][0], dict)
                    and self.rng.random() < 0.5
                ):
                    i = self.rng.randrange(len(rec["events"]))
                    ev = dict(rec["events"][i])
                    ev[self.rng.choice(list(ev))] = self.value()
                    rec["events"][i] = ev
                elif key == "rules" and isinstance(rec.get("rules"), dict):
                    rec["rules"][self.rng.choice(list(rec["rules"]) + ["name"])] = self.value()
                else:
                    rec[key] = self.value()
            resp = self.http.post("/api/import", content=json.dumps(rec, allow_nan=True))
            if resp.status_code == 200:
                self.http.delete(f"/api/games/{resp.json()['code']}")
        elif r < 0.85:
            q = {
                "round": self.rng.choice(["1", "0", "-1", "999999", "x", "1e9", ""]),
                "seat": self.rng.choice(["0", "3", "9", "-1", "none", "x"]),
            }
            resp = self.http.get(f"/api/games/{self.code}/replay", params=q)
        else:
            path = self.rng.choice(
                [
                    "/api/games/%ED%A0%80",
                    "/api/games/" + "A" * 500,
                    "/r/..%2f..%2fetc",
                    "/static/../../pyproject.toml",
                    "/api/games",
                    "/api/info",
                    "/api/rules",
                    f"/api/games/{self.code}",
                ]
            )
            resp = self.http.request(
                self.rng.choice(["GET", "GET", "DELETE", "POST"]), path, content=bytes(self.rng.randrange(256) for _ in range(20))
            )
        self.report.http_requests += 1
        if resp.status_code >= 500:
            self.report.http_5xx += 1
            self.report.problem(f"HTTP {resp.status_code} for {resp.request.method} {resp.request.url}: {resp.text[:200]}")

    def alive(self) -> bool:
        try:
            return bool(self.http.get("/api/info").status_code == 200)
        except Exception:
            return False

    def close(self) -> None:
        """Close the players' sockets and the HTTP client's (left to the garbage collector, they
        were reported as unclosed sockets in whatever test ran then)."""
        for p in self.players:
            p.ws.close()
        self.http.close()


FUZZ_LIMITS = Limits(
    messages_per_second=1e9, message_burst=10**9, rooms_per_address_per_hour=10**9, connections_per_address=10**6
)


def run(
    *, messages: int, seed: int = 1, db: str = ":memory:", progress: Callable[[Report], None] | None = None, every: int = 5000
) -> Report:
    """Fuzz a fresh in-process server with about ``messages`` messages; the report counts problems."""
    report = Report()
    watch = LogWatch()
    root, uvicorn_log = logging.getLogger(), logging.getLogger("uvicorn")
    root.addHandler(watch)
    t0 = time.monotonic()
    try:
        with LiveServer(db, allow_seed=True, limits=FUZZ_LIMITS) as srv:
            # uvicorn's own loggers do not pass their records up to the root logger (its logging
            # configuration, applied as the server is made): watch them where they are written
            uvicorn_log.addHandler(watch)
            rng = random.Random(seed)
            fz = Fuzzer(srv, rng, report)
            try:
                fz.new_table()
                next_report = every
                while report.messages < messages:
                    r = rng.random()
                    try:
                        if r < 0.3:
                            fz.progress()
                        elif r < 0.85:
                            fz.ws_round()
                        elif r < 0.88:
                            fz.throwaway()
                        else:
                            fz.http_round()
                    except Exception as exc:  # the harness lost a connection: note it, start a new table
                        report.problem(f"harness: {type(exc).__name__}: {str(exc)[:200]} at {_where(exc)}")
                        if not fz.alive():
                            report.crashes += 1
                            break
                        fz.new_table()
                    if report.messages >= next_report:
                        next_report += every
                        if not fz.alive():
                            report.crashes += 1
                            break
                        if progress is not None:
                            report.seconds = time.monotonic() - t0
                            report.tracebacks = len(watch.bad)
                            progress(report)
                if not fz.alive():
                    report.crashes += 1
            finally:
                fz.close()
    finally:
        root.removeHandler(watch)
        uvicorn_log.removeHandler(watch)
    report.tracebacks = len(watch.bad)
    for line in watch.bad[:20]:
        report.problem(f"log: {line}")
    report.seconds = time.monotonic() - t0
    return report


def _named(data: str | bytes) -> set[str]:
    """Every card a message names itself ("SA", "sa", "ST", "♠A", "大王" ...) in any of its texts:
    a refusal may repeat them ("'♠A' is not a card") without revealing anything."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return set()
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            up = x.upper()
            up = up[:-1] + "10" if len(up) == 2 and up.endswith("T") else up
            if TOKEN.match(up):
                out.add(up)
            for m in PRETTY.finditer(x):
                out.add(("BJ" if m.group(3) == "大王" else "LJ") if m.group(3) else SUITS[m.group(1)] + m.group(2))
        elif isinstance(x, dict):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def _where(exc: BaseException) -> str:
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    return " < ".join(f"{f.name}:{f.lineno}" for f in reversed(frames[-3:]))
