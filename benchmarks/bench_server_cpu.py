"""CPU time the table server spends per player action, without sockets.

N rooms of four seated connections each, in one process: every action is what the server does
for a WebSocket message (parse, check and apply it; write it to the database before the answer,
as ``Tables.save_now``; build each connection's new state and its JSON), with random legal
plays. The bench_load.py break point is set by this cost (one core runs every table); the
socket framing of uvicorn comes on top. Medians of ``--repeat`` runs, CPU time.

    python benchmarks/bench_server_cpu.py --rooms 40 --actions 3000 --repeat 3
    python benchmarks/bench_server_cpu.py --profile      # where the time goes (cProfile)
    python benchmarks/bench_server_cpu.py --rooms 200 --actions 6000 --gc 600:100000 --gc 3000:700

``--gc EVERY:YOUNG`` runs the server's garbage-collection policy inside the measurement: a full
collection and ``gc.freeze()`` every EVERY client actions (the live server does it on a clock:
at 300 quick tables about 600 client actions a second), automatic young collections at the
YOUNG threshold; it reports each policy's collections side by side in CPU time (the pauses).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tuolaji.bots.random_bot import random_legal
from tuolaji.cards import cards_str
from tuolaji.engine.match import Match
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase
from tuolaji.server.app import Tables
from tuolaji.server.pauses import PauseWatch
from tuolaji.server.projection import declaration_choices
from tuolaji.server.room import Conn, Room, Seat, hash_token, on_loop
from tuolaji.server.store import Store
from tuolaji.server.ws import dumps


async def run(rooms_n: int, actions: int, policy: tuple[int, int] | None = None) -> tuple[float, float, dict[str, Any]]:
    """(CPU microseconds per client action, bytes of state sent per client action, the
    collections by kind when ``policy`` (freeze every N actions, young threshold) is given)."""
    tables = Tables(Store(Path(tempfile.mkdtemp()) / "bench.sqlite3"))
    rooms: list[tuple[Room, list[Conn]]] = []
    for r in range(rooms_n):
        seats = [Seat(name=f"p{s}", token=hash_token(f"t{r}-{s}")) for s in range(4)]
        room = Room(
            f"R{r:04d}",
            Match(rules="classic", seed=r),
            seats=seats,
            host=seats[0].token,
            settings={"speed": "instant", "difficulty": "easy"},
            offload=on_loop,
        )
        tables.add(room)
        conns = []
        for s in range(4):
            conn = Conn()
            await room.handle(conn, json.dumps({"type": "hello", "token": f"t{r}-{s}"}))
            conn.take(room)
            conns.append(conn)
        rooms.append((room, conns))
    rng = random.Random(1)
    sent = 0

    def drain(room: Room, conns: list[Conn]) -> None:
        nonlocal sent
        for conn in conns:
            for msg in conn.take(room):
                sent += len(dumps(msg))

    watch = PauseWatch()
    threshold = gc.get_threshold()
    if policy:
        gc.collect()
        gc.freeze()
        gc.set_threshold(policy[1], *threshold[1:])
        watch.install()
    t0 = time.process_time()
    client = 0.0
    n = 0
    while n < actions:
        for room, conns in rooms:
            rnd = room.match.round
            if room.between:  # everyone pressed "next round"
                room.between = False
                room.changed()
            elif rnd.phase == Phase.DEAL:
                room._deal_tick(everything=True)
            elif rnd.turn is not None:
                seat = rnd.turn
                c0 = time.process_time()  # the client's choice is not the server's work
                if rnd.phase == Phase.BURY:
                    msg = {"type": "bury", "cards": cards_str(rnd.hands[seat][: rnd.kitty_size])}
                elif rnd.phase == Phase.PLAY:
                    msg = {"type": "play", "cards": cards_str(random_legal(observe(rnd, seat, with_events=False), rng))}
                else:  # declare when possible: in the first round nobody declaring means a redeal
                    choices = declaration_choices(rnd, seat)
                    msg = {"type": "declare", "cards": cards_str(choices[0])} if choices else {"type": "pass"}
                text = json.dumps({**msg, "id": n})
                client += time.process_time() - c0
                await room.handle(conns[seat], text)
                if room.dirty:
                    tables.save_now(room)
                n += 1
                if policy and n % policy[0] == 0:
                    watch.freezing = True
                    gc.collect()
                    gc.freeze()
                    watch.freezing = False
            drain(room, conns)
    dt = time.process_time() - t0 - client
    collections = watch.report()["gc"]
    if policy:
        watch.uninstall()
        gc.set_threshold(*threshold)
        gc.unfreeze()
    tables.store.close()
    return dt * 1e6 / n, sent / n, collections


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", type=int, default=40)
    p.add_argument("--actions", type=int, default=3000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--gc", action="append", default=[], metavar="EVERY:YOUNG", help="a collection policy to compare")
    a = p.parse_args()
    if a.gc:
        gc_policies(a)
        return
    if a.profile:
        prof = cProfile.Profile()
        prof.runcall(asyncio.run, run(a.rooms, a.actions))
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return
    runs = [asyncio.run(run(a.rooms, a.actions)) for _ in range(a.repeat)]
    per = statistics.median(r[0] for r in runs)  # (no --gc: the process's default collector)
    print(
        f"{a.rooms} rooms, {a.actions} client actions x {a.repeat}: median {per:.0f} us CPU per action "
        f"(runs: {', '.join(f'{r[0]:.0f}' for r in runs)}); {runs[0][1]:.0f} bytes of state sent per action"
    )


def gc_policies(a: argparse.Namespace) -> None:
    """Each policy in turn, ``--repeat`` rounds of them: CPU per action and the collections' CPU."""
    policies = [tuple(int(x) for x in spec.split(":")) for spec in a.gc]
    for rep in range(a.repeat):
        for pol in policies:
            per, _, cols = asyncio.run(run(a.rooms, a.actions, (pol[0], pol[1])))
            total = sum(c["cpu_total_ms"] for c in cols.values())
            worst = max((c["cpu_max_ms"] for c in cols.values()), default=0.0)
            kinds = "  ".join(f"{k} {c['count']}x max {c['cpu_max_ms']} ms" for k, c in cols.items())
            print(
                f"run {rep + 1} freeze every {pol[0]} actions, young threshold {pol[1]}: {per:.0f} us CPU an action; "
                f"collections {1000 * total / a.actions:.0f} us an action, longest {worst} ms CPU  ({kinds})",
                flush=True,
            )


if __name__ == "__main__":
    main()
