"""CPU time the table server spends per player action, without sockets.

N rooms of four seated connections each, in one process: every action is what the server does
for a WebSocket message (parse, check and apply it; write it to the database before the answer,
as ``Tables.save_now``; build each connection's new state and its JSON), with random legal
plays. The bench_load.py break point is set by this cost (one core runs every table); the
socket framing of uvicorn comes on top. Medians of ``--repeat`` runs, CPU time.

    python benchmarks/bench_server_cpu.py --rooms 40 --actions 3000 --repeat 3
    python benchmarks/bench_server_cpu.py --profile      # where the time goes (cProfile)
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path

from tuolaji.bots.random_bot import random_legal
from tuolaji.cards import cards_str
from tuolaji.engine.match import Match
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase
from tuolaji.server.app import Tables
from tuolaji.server.projection import declaration_choices
from tuolaji.server.room import Conn, Room, Seat, hash_token, on_loop
from tuolaji.server.store import Store
from tuolaji.server.ws import dumps


async def run(rooms_n: int, actions: int) -> tuple[float, float]:
    """(CPU microseconds per client action, bytes of state sent per client action)."""
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
            drain(room, conns)
    dt = time.process_time() - t0 - client
    tables.store.close()
    return dt * 1e6 / n, sent / n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", type=int, default=40)
    p.add_argument("--actions", type=int, default=3000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    a = p.parse_args()
    if a.profile:
        prof = cProfile.Profile()
        prof.runcall(asyncio.run, run(a.rooms, a.actions))
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return
    runs = [asyncio.run(run(a.rooms, a.actions)) for _ in range(a.repeat)]
    per = statistics.median(r[0] for r in runs)
    print(
        f"{a.rooms} rooms, {a.actions} client actions x {a.repeat}: median {per:.0f} us CPU per action "
        f"(runs: {', '.join(f'{r[0]:.0f}' for r in runs)}); {runs[0][1]:.0f} bytes of state sent per action"
    )


if __name__ == "__main__":
    main()
