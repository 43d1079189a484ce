"""What one guest may cost the table: connection, room, message and CPU limits.

Every limit is a keyword of :class:`Limits` (documented in ``docs/table.md``); ``create_app``
takes one, and :func:`uvicorn_options` turns it into the uvicorn settings that enforce the
connection-level part (per-address connections, the time allowed to send request headers,
keep-alive, WebSocket frame size and pings). The rest is enforced by the app: request bodies
are read in chunks and refused as soon as they pass the limit, a WebSocket must say hello in
time and is closed when silent for too long, each connection has a message budget, each
address a room budget, and rooms with no human player share a small budget of computer time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import defaultdict, deque
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request


@dataclasses.dataclass(frozen=True, kw_only=True)
class Limits:
    """The limits of one server; every default suits a table on a home or office network."""

    connections_per_address: int = 64  # open TCP connections (HTTP and WebSocket) from one address
    connections_total: int = 4000  # open connections in all; beyond it HTTP requests get 503
    header_timeout_s: float = 10.0  # a request's headers must arrive within this after connecting
    keep_alive_s: float = 5.0  # an idle HTTP keep-alive connection is closed after this
    body_timeout_s: float = 30.0  # a request body must arrive within this
    max_body_bytes: int = 100_000  # JSON API request bodies (rules, new games)
    max_import_bytes: int = 2_000_000  # an imported game record (a round takes about 12 kB)
    max_import_rounds: int = 200  # rounds in an imported record
    max_message_bytes: int = 16_384  # one WebSocket message from a client
    messages_per_second: float = 20.0  # sustained WebSocket messages per connection ...
    message_burst: int = 60  # ... with bursts up to this many
    hello_timeout_s: float = 10.0  # a WebSocket must send hello within this
    idle_timeout_s: float = 1800.0  # a WebSocket that sends nothing for this long is closed
    ws_ping_s: float = 20.0  # WebSocket pings; a peer that does not answer in time is dropped
    connections_per_room: int = 64  # players and spectators of one room
    rooms_per_address_per_hour: int = 120  # new and imported games from one address
    bot_room_move_s: float = 0.05  # shortest pause between computer moves in a room no human plays
    bot_room_searches: int = 1  # hard/expert computer players thinking at once in rooms no human plays
    idle_room_s: float = 600.0  # a room nobody is connected to is saved and let go of from memory after this
    finished_room_s: float = 60.0  # ... and a room whose match is over, after this (its record is all in the store)

    def replace(self, **changes: Any) -> Limits:
        return dataclasses.replace(self, **changes)


def parse_limits(specs: list[str], base: Limits | None = None) -> Limits:
    """Limits from ``NAME=VALUE`` texts (the command line's ``--limit``); ValueError names the problem."""
    limits = base or Limits()
    kinds = {f.name: type(getattr(limits, f.name)) for f in dataclasses.fields(Limits)}
    changes: dict[str, Any] = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in kinds:
            raise ValueError(f"--limit {spec!r}: give NAME=VALUE with NAME one of {', '.join(kinds)}")
        try:
            number = kinds[name](value)
        except ValueError:
            raise ValueError(f"--limit {spec!r}: {name} takes a number") from None
        if number <= 0:
            raise ValueError(f"--limit {spec!r}: {name} must be more than 0")
        changes[name] = number
    return limits.replace(**changes)


# What a test or benchmark server allows one address (every client there is on loopback).
LOOPBACK_CROWD = {"connections_per_address": 100_000, "rooms_per_address_per_hour": 10**9}


class BotBudget:
    """Computer time for rooms where no human plays: a shortest pause between their moves, and
    a few searching players thinking at once (the others wait their turn)."""

    def __init__(self, limits: Limits) -> None:
        self.move_s = limits.bot_room_move_s
        self.searches = limits.bot_room_searches
        self._slots: asyncio.Semaphore | None = None

    def search_slot(self) -> asyncio.Semaphore:
        if self._slots is None:  # made on the event loop that uses it
            self._slots = asyncio.Semaphore(max(1, self.searches))
        return self._slots


class TooBig(Exception):
    """A request body passed its limit (answered 413)."""


class TooSlow(Exception):
    """A request body did not arrive in time (answered 408)."""


async def read_body(request: Request, *, limit: int, timeout: float) -> bytes:
    """The request body, read in chunks: refused as soon as it passes ``limit`` bytes (or says
    it will in Content-Length), so an oversized upload never sits whole in memory."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise TooBig
        except ValueError:
            raise TooBig from None
    chunks: list[bytes] = []
    size = 0

    async def collect() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise TooBig
            chunks.append(chunk)

    try:
        await asyncio.wait_for(collect(), timeout)
    except TimeoutError:
        raise TooSlow from None
    return b"".join(chunks)


class TokenBucket:
    """``rate`` events per second with bursts of ``burst``: a connection's message budget."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class AddressBook:
    """Per-address counts: open connections (pruned as they close) and recent room creations."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[str, set[Any]] = defaultdict(set)
        self.created: dict[str, deque[float]] = defaultdict(deque)
        self.refused_connections = 0

    def admit(self, transport: Any, address: str) -> bool:
        """Count a new connection; False (refuse it) when its address has too many open."""
        live = self.open[address]
        for t in [t for t in live if t.is_closing()]:
            live.discard(t)
        if len(live) >= self.limits.connections_per_address:
            self.refused_connections += 1
            return False
        live.add(transport)
        if len(self.open) > 1000:  # forget addresses whose connections have all closed
            for a in [a for a, ts in self.open.items() if not any(not t.is_closing() for t in ts)]:
                del self.open[a]
        return True

    def may_create_room(self, address: str) -> bool:
        """Count a room creation; False when the address made too many in the last hour."""
        now = time.monotonic()
        times = self.created[address]
        while times and now - times[0] > 3600:
            times.popleft()
        if len(times) >= self.limits.rooms_per_address_per_hour:
            return False
        times.append(now)
        return True


def uvicorn_options(limits: Limits, addresses: AddressBook) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.Config`` that enforce the connection limits."""
    base: Any
    try:  # the faster parser when it is installed, as uvicorn's "auto" would choose
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base
    except ImportError:  # pragma: no cover
        from uvicorn.protocols.http.h11_impl import H11Protocol as base

    class GuardedHTTPProtocol(base):  # type: ignore[misc]
        """uvicorn's HTTP protocol with a per-address connection limit and a deadline for each
        request's headers (a half-sent request or a silent connection is closed, not held)."""

        _deadline: asyncio.TimerHandle | None = None
        _watched: object = None
        _upgraded = False

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            if not addresses.admit(transport, address):
                transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._watched = self.cycle  # a new request replaces the cycle before the deadline
            self._deadline = self.loop.call_later(limits.header_timeout_s, self._late)

        def _late(self) -> None:
            self._deadline = None
            if not self._upgraded and self.cycle is self._watched and not self.transport.is_closing():
                self.transport.close()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._upgraded = True
            if self._deadline is not None:
                self._deadline.cancel()
            super().handle_websocket_upgrade(*args)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

    return {
        "http": GuardedHTTPProtocol,
        "timeout_keep_alive": limits.keep_alive_s,
        "limit_concurrency": limits.connections_total,
        "ws_max_size": limits.max_message_bytes * 4,  # the app refuses what passes max_message_bytes
        "ws_ping_interval": limits.ws_ping_s,
        "ws_ping_timeout": limits.ws_ping_s,
        "ws_per_message_deflate": False,
    }
