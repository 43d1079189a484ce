"""Load benchmark for the table server: N concurrent tables driven over WebSockets on loopback.

Starts ``tuolaji serve`` in a separate process (or uses ``--url``), creates ``--tables`` rooms and
seats ``--clients`` WebSocket players at each (the other seats are the server's computer players).
Each client plays like a quick human: it waits ``--think`` seconds (± 50 %), then sends a legal
action (pass at the last call, bury, a random legal play, "next round"). An action's latency is
the time from sending it to receiving the state that acknowledges it (``re``).

Reports sustained client actions per second, the server's total actions per second (deals and
computer players included), p50/p90/p99/max latency, refusals, and CPU time of both processes.

    python benchmarks/bench_load.py --tables 200 --duration 60
    python benchmarks/bench_load.py --tables 200 --think 0 --duration 30   # saturation
    python benchmarks/bench_load.py --ramp 100,200,300,400,500 --duration 30   # the p99 break point
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets import connect  # type: ignore[no-redef,attr-defined]

from tuolaji.bots.random_bot import random_legal
from tuolaji.cards import cards_str, parse_cards
from tuolaji.server.limits import LOOPBACK_CROWD
from tuolaji.server.pauses import PauseWatch
from tuolaji.trump import TrumpContext


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    rounds: int = 0
    matches: int = 0  # (renewing tables) matches played to their end
    measuring: bool = False
    errors: list[str] = field(default_factory=list)


def legal_from_view(view: dict[str, Any], rng: random.Random) -> list[str]:
    """A random legal play from what the seat is shown (its hand and the trick), nothing else."""
    trump = None if view["trump"] is None else "SHCD".index(view["trump"])
    ctx = TrumpContext(view["level"], trump, 2, True)
    trick = view["trick"]
    plays = tuple(tuple(parse_cards(p["cards"])) for p in trick["plays"]) if trick else ()
    obs = SimpleNamespace(hand=tuple(parse_cards(view["hand"])), ctx=ctx, trick=SimpleNamespace(plays=plays))
    return cards_str(random_legal(obs, rng))  # type: ignore[arg-type]


class Player:
    def __init__(self, url: str, code: str, seat: int, token: str | None, think: float, stats: Stats, rng: random.Random) -> None:
        self.url, self.code, self.seat, self.token = url, code, seat, token
        self.think, self.stats, self.rng = think, stats, rng
        self.sent: dict[int, float] = {}
        self.next_id = 0
        self.busy = False
        self.ws: Any = None
        self.ready_sent_for = -1
        self.leave_when_over = False

    async def send(self, msg: dict[str, Any]) -> None:
        self.next_id += 1
        msg["id"] = self.next_id
        self.sent[self.next_id] = time.perf_counter()
        await self.ws.send(json.dumps(msg))

    async def run(self, started: asyncio.Event, stop: asyncio.Event) -> None:
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/{self.code}"
        async with connect(ws_url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token} if self.token else {"type": "hello"}))
            if self.token is None:
                await ws.send(json.dumps({"type": "sit", "seat": self.seat}))
            started.set()
            async for raw in ws:
                if stop.is_set():
                    break
                m = json.loads(raw)
                kind = m["type"]
                if kind == "refused":
                    if m.get("re") in self.sent:
                        self.sent.pop(m["re"])
                        self.busy = False
                        if self.stats.measuring:
                            self.stats.refused += 1
                    continue
                if kind != "state":
                    continue
                if self.leave_when_over and m["view"].get("over"):
                    break
                now = time.perf_counter()
                for rid in m.get("re") or []:
                    t0 = self.sent.pop(rid, None)
                    if t0 is not None:
                        self.busy = False
                        if self.stats.measuring:
                            self.stats.latencies.append(now - t0)
                            self.stats.actions += 1
                if not self.busy and m["you"]["seat"] == self.seat:
                    action = self.decide(m)
                    if action is not None:
                        self.busy = True
                        asyncio.get_running_loop().create_task(self.later(action))

    def decide(self, m: dict[str, Any]) -> dict[str, Any] | None:
        if m.get("between"):
            n = m["summary"]["round"] if m.get("summary") else 0
            if n != self.ready_sent_for and self.seat not in (m.get("ready") or []):
                self.ready_sent_for = n
                self.stats.rounds += self.seat == 0
                return {"type": "ready"}
            return None
        o = m.get("options") or {}
        if not o.get("turn"):
            return None
        phase = o["phase"]
        if phase in ("declare", "override"):
            if o.get("declare"):  # declare when possible: in the first round nobody declaring means a redeal
                return {"type": "declare", "cards": o["declare"][0]}
            return {"type": "pass"}
        if phase == "bury":
            return {"type": "bury", "cards": m["view"]["hand"][: o["bury"]]}
        if phase == "play":
            return {"type": "play", "cards": legal_from_view(m["view"], self.rng)}
        return None

    async def later(self, action: dict[str, Any]) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        try:
            await self.send(action)
        except Exception as exc:
            if self.stats.measuring:  # (after the run, closing sockets fail pending sends: not errors)
                self.stats.errors.append(repr(exc))


async def collect_every(seconds: float, pauses: PauseWatch) -> None:
    while True:
        await asyncio.sleep(seconds)
        pauses.freezing = True
        gc.collect()
        gc.freeze()
        pauses.freezing = False


def game_body(args: argparse.Namespace, rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {
        "seed": rng.randrange(2**31),
        "seat": 0,
        "start": False,
        "speed": args.speed,
        "difficulty": args.difficulty,
    }
    if getattr(args, "target_level", None):  # short matches: the soak sees matches end and rooms go
        body["rules"] = {"preset": "classic", "match_target_level": args.target_level}
    return body


async def _request(http: httpx.AsyncClient, method: str, path: str, **kw: Any) -> httpx.Response:
    """One HTTP request, sent again if the pooled connection was found closed: on a loaded machine
    opening a table's sockets can outlast the server's keep-alive (5 s), and a request on a
    connection the server has just closed fails before the server sees it."""
    for attempt in range(3):
        try:
            return await http.request(method, path, **kw)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def open_table(
    http: httpx.AsyncClient,
    url: str,
    args: argparse.Namespace,
    stats: Stats,
    rng: random.Random,
    stop: asyncio.Event,
    tasks: list[asyncio.Task[None]],
) -> list[Player]:
    """A new room with ``args.clients`` WebSocket players seated (not started yet)."""
    token = f"bench-{rng.randrange(10**12)}"
    r = await _request(http, "POST", "/api/games", json=game_body(args, rng), headers={"X-Tuolaji-Token": token})
    code = r.json()["code"]
    players = []
    for seat in range(args.clients):
        player = Player(url, code, seat, token if seat == 0 else None, args.think, stats, random.Random(rng.randrange(2**32)))
        player.leave_when_over = getattr(args, "renew", False)
        started = asyncio.Event()
        tasks.append(asyncio.create_task(player.run(started, stop)))
        await started.wait()
        players.append(player)
    await asyncio.sleep(0.02)  # let the sits land
    return players


async def renewing_table(
    http: httpx.AsyncClient, url: str, args: argparse.Namespace, stats: Stats, rng: random.Random, stop: asyncio.Event
) -> None:
    """Match after match: when a match ends its players leave (the idle room is evicted later)
    and a new room is made."""
    while not stop.is_set():
        mine: list[asyncio.Task[None]] = []
        players = await open_table(http, url, args, stats, rng, stop, mine)
        await players[0].ws.send(json.dumps({"type": "start"}))
        await asyncio.gather(*mine, return_exceptions=True)
        stats.matches += 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        parts = fh.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux /proc)."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    proc = None
    url = args.url
    if url is None:
        port = free_port()
        db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tuolaji.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(db),
                "--no-browser",
                "--allow-seed",
                "--log-level",
                "error",
                *(f"--limit={k}={v}" for k, v in {**LOOPBACK_CROWD, **getattr(args, "limits", {})}.items()),
            ],
            env={**os.environ, "PYTHONPATH": args.src} if args.src else None,
        )
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(url + "/api/info", timeout=1)
                break
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    rng = random.Random(args.seed)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            for _ in range(args.tables):
                if getattr(args, "renew", False):  # each table plays match after match, in new rooms
                    tasks.append(asyncio.create_task(renewing_table(http, url, args, stats, rng, stop)))
                    continue
                players = await open_table(http, url, args, stats, rng, stop, tasks)
                await players[0].ws.send(json.dumps({"type": "start"}))  # the host starts the table
            print(f"{args.tables} tables, {args.tables * args.clients} WebSocket players connected", file=sys.stderr)
            await asyncio.sleep(args.warmup)
            server_pid = proc.pid if proc else None
            s0 = (await _request(http, "GET", "/api/stats")).json()
            cpu_s0 = cpu_seconds(server_pid) if server_pid else 0.0
            cpu_c0 = own_cpu()
            t0 = time.perf_counter()
            stats.measuring = True
            # the bench client's own pauses: a latency also waits for the client's loop to read it.
            # It collects as the server does (once a second, then freezes), so that its own young
            # collections, 10-20 ms each over thousands of parsed states, do not count as the server's
            client_pauses = PauseWatch()
            client_pauses.install()
            client_watch = asyncio.create_task(client_pauses.watch())
            threshold = gc.get_threshold()
            gc.collect()
            gc.freeze()
            gc.set_threshold(100_000, *threshold[1:])
            client_gc = asyncio.create_task(collect_every(1.0, client_pauses))
            rss: list[tuple[float, float]] = []  # (seconds, MB) of the server, every --rss-every seconds
            end = time.perf_counter() + args.duration
            while (left := end - time.perf_counter()) > 0:
                if server_pid and args.rss_every:
                    rss.append((round(time.perf_counter() - t0, 1), round(rss_mb(server_pid), 1)))
                    if args.rss_every and not args.json:
                        rooms = ""
                        if getattr(args, "renew", False):  # (this clears the server's pause figures)
                            st = (await _request(http, "GET", "/api/stats")).json()
                            rooms = (
                                f", {st['rooms']} rooms in memory, {stats.matches} matches ended, {st['connections']} connections"
                            )
                        print(f"  {rss[-1][0]:7.0f} s  server RSS {rss[-1][1]} MB{rooms}", file=sys.stderr, flush=True)
                await asyncio.sleep(min(left, args.rss_every or left))
            if server_pid and args.rss_every:
                rss.append((round(time.perf_counter() - t0, 1), round(rss_mb(server_pid), 1)))
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            client_watch.cancel()
            client_gc.cancel()
            client_pauses.uninstall()
            gc.set_threshold(*threshold)
            gc.unfreeze()
            s1 = (await _request(http, "GET", "/api/stats")).json()
            cpu_s1 = cpu_seconds(server_pid) if server_pid else 0.0
            cpu_c1 = own_cpu()
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

    return {
        "tables": args.tables,
        "clients_per_table": args.clients,
        "think_s": args.think,
        "speed": args.speed,
        "difficulty": args.difficulty,
        "duration_s": round(elapsed, 1),
        "client_actions": stats.actions,
        "matches_ended": stats.matches,
        "client_actions_per_s": round(stats.actions / elapsed, 1),
        "server_actions_per_s": round((s1["actions"] - s0["actions"]) / elapsed, 1),
        "refused": stats.refused,
        "errors": len(stats.errors),
        "first_errors": stats.errors[:3],
        "latency_ms": {
            "p50": round(pct(50), 2),
            "p90": round(pct(90), 2),
            "p99": round(pct(99), 2),
            "max": round(1000 * lat[-1], 2) if lat else None,
            "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        },
        "server_cpu_percent": round(100 * (cpu_s1 - cpu_s0) / elapsed, 1) if proc else None,
        # the stable figure on a shared machine: the server's CPU time per client action (sockets,
        # framing, saving, computer players and deals included), whatever the wall clock does
        "server_cpu_ms_per_client_action": round(1000 * (cpu_s1 - cpu_s0) / max(1, stats.actions), 3) if proc else None,
        "load_average": round(os.getloadavg()[0], 1),
        "bench_client_cpu_percent": round(100 * (cpu_c1 - cpu_c0) / elapsed, 1),
        "connections": s1["connections"],
        "cores": os.cpu_count(),
        "server_loop_lag_ms": s1.get("loop_lag_ms"),
        "server_gc": s1.get("gc"),
        "server_stalls": s1.get("stalls"),
        "client_pauses": client_pauses.report(),
        "server_save_seconds": round(s1.get("save_seconds", 0) - s0.get("save_seconds", 0), 2),
        "server_rss_mb": rss if proc else None,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--clients", type=int, default=4, choices=[1, 2, 3, 4], help="WebSocket players per table")
    p.add_argument("--think", type=float, default=0.5, help="mean seconds a player waits before acting")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    p.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    p.add_argument(
        "--speed",
        default="instant",
        choices=["slow", "normal", "fast", "instant"],
        help="room game speed (computer players' pauses, dealing)",
    )
    p.add_argument("--difficulty", default="easy", choices=["easy", "normal", "hard", "expert"])
    p.add_argument("--url", default=None, help="use a running server instead of starting one")
    p.add_argument(
        "--src", default=None, help="run the server from this source tree (PYTHONPATH), e.g. a baseline's src/ side by side"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    p.add_argument("--rss-every", type=float, default=0.0, help="sample the server's memory every N seconds")
    p.add_argument(
        "--ramp",
        default=None,
        metavar="N,N,...",
        help="the break point: run each table count in turn (a fresh server each) and report the "
        "first whose p99 passes --target-ms",
    )
    p.add_argument("--target-ms", type=float, default=100.0)
    args = p.parse_args()
    if args.ramp:
        ramp(args)
        return
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
        return
    lat = result["latency_ms"]
    print(
        f"tables {result['tables']} x {result['clients_per_table']} WebSocket players, think {args.think}s, "
        f"speed {args.speed}, bots {args.difficulty}, {result['cores']} cores"
    )
    print(f"  client actions/s   {result['client_actions_per_s']}  ({result['client_actions']} in {result['duration_s']}s)")
    print(f"  server actions/s   {result['server_actions_per_s']}  (deals and computer players included)")
    print(f"  latency ms         p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  max {lat['max']}")
    print(f"  refused {result['refused']}, errors {result['errors']}, connections {result['connections']}")
    print(f"  server event-loop lag ms {result['server_loop_lag_ms']}, saving took {result['server_save_seconds']}s")
    print(f"  server GC pauses {result['server_gc']}")
    print(f"  server stalls {result['server_stalls']}")
    cp = result["client_pauses"]
    st = cp["stalls"]
    print(f"  bench client: loop lag ms {cp['loop_lag_ms']}, GC {cp['gc']}, stalls {st['count']} ({st['total_ms']} ms)")
    if result["first_errors"]:
        print(f"  first errors: {result['first_errors']}")
    print(
        f"  CPU: server {result['server_cpu_percent']}% ({result['server_cpu_ms_per_client_action']} ms a client action), "
        f"bench client {result['bench_client_cpu_percent']}%; load average {result['load_average']}"
    )


def ramp(args: argparse.Namespace) -> None:
    """Each table count in turn; the break point is the first whose p99 passes the target."""
    rows = []
    for n in [int(x) for x in args.ramp.split(",")]:
        args.tables = n
        r = asyncio.run(main_async(args))
        lat = r["latency_ms"]
        rows.append(
            {
                "tables": n,
                "p50": lat["p50"],
                "p99": lat["p99"],
                "max": lat["max"],
                "client_actions_per_s": r["client_actions_per_s"],
                "server_cpu_percent": r["server_cpu_percent"],
                "server_cpu_ms_per_client_action": r["server_cpu_ms_per_client_action"],
                "load_average": r["load_average"],
                "errors": r["errors"],
                "server_loop_lag_ms": r["server_loop_lag_ms"],
                "server_gc": r["server_gc"],
                "server_stalls": {k: v for k, v in (r["server_stalls"] or {}).items() if k != "worst"},
                "client_loop_lag_ms": r["client_pauses"]["loop_lag_ms"],
            }
        )
        print(
            f"  {n:4d} tables: p50 {lat['p50']} ms  p99 {lat['p99']} ms  max {lat['max']} ms  "
            f"client actions/s {r['client_actions_per_s']}  server CPU {r['server_cpu_percent']}% "
            f"({r['server_cpu_ms_per_client_action']} ms a client action)  load {r['load_average']}  errors {r['errors']}",
            flush=True,
        )
        print(
            f"        server loop lag {r['server_loop_lag_ms']}  stalls {rows[-1]['server_stalls']}\n"
            f"        server GC {r['server_gc']}\n        bench client loop lag {rows[-1]['client_loop_lag_ms']}",
            flush=True,
        )
        if lat["p99"] >= args.target_ms:
            break
    held = [row["tables"] for row in rows if row["p99"] < args.target_ms]
    broke = [row["tables"] for row in rows if row["p99"] >= args.target_ms]
    print(
        f"break point: p99 < {args.target_ms:g} ms held up to {max(held) if held else 'no step'} tables"
        + (f", passed it at {broke[0]}" if broke else " (not reached)")
        + f"; load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
