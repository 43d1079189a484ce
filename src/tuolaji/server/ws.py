"""The WebSocket transport: carries one connection's messages between a socket and the room core.

The room core (``server/room.py``) knows nothing of sockets: this adapter feeds it what the
client sends (:meth:`Room.handle`), within the connection limits (idle and hello timeouts, a
message rate), and sends what :meth:`Conn.take` gives, as JSON text.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import jsontext
from .limits import Limits, TokenBucket
from .protocol import reason_text
from .room import Conn, Room


def dumps(msg: dict[str, Any]) -> str:
    return jsontext.dumps(msg)


async def serve_socket(websocket: WebSocket, room: Room, conn: Conn, *, limits: Limits, after: Callable[[Room], object]) -> None:
    """Run one accepted socket against ``room`` until it closes. ``after(room)`` runs after each
    message that changed the room, before the reply is sent (the app saves it there)."""
    writer = asyncio.get_running_loop().create_task(_writer(conn, room, websocket))
    room.start()
    budget = TokenBucket(limits.messages_per_second, limits.message_burst)
    over = 0  # messages refused in a row for going over the budget
    try:
        while True:
            try:
                async with asyncio.timeout(limits.idle_timeout_s if conn.greeted else limits.hello_timeout_s):
                    message = await websocket.receive()  # (a timeout scope: no task per message)
            except TimeoutError:  # silent (or never said hello): free the connection
                await websocket.close(code=4408)
                break
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes")
            if data is None:
                continue
            if not budget.take():
                over += 1
                if over > limits.message_burst:  # it keeps flooding: hang up
                    await websocket.close(code=4429)
                    break
                if over == 1:
                    room.refuse(conn, "slow_down", reason_text("slow_down", conn.lang))
                continue
            over = 0
            await room.handle(conn, data, max_bytes=limits.max_message_bytes)
            if room.dirty:
                # written before the writer task sends the acknowledgement (it runs only when
                # this handler yields): an answered action survives a crash
                after(room)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        room.leave(conn)
        room.idle_since = time.monotonic()
        writer.cancel()


async def _writer(conn: Conn, room: Room, websocket: WebSocket) -> None:
    """Send a connection's queued replies, then its latest state (coalesced)."""
    try:
        while not conn.closed:
            await conn.wake.wait()
            conn.wake.clear()
            for msg in conn.take(room):
                await websocket.send_text(dumps(msg))
    except asyncio.CancelledError:
        raise
    except Exception:  # the socket went away: the reader notices and cleans up
        conn.closed = True
        with contextlib.suppress(Exception):
            await websocket.close()
