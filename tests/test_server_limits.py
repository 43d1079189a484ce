"""What one guest may cost the table (issue 15, finding 9): each limit of ``Limits`` enforced."""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

pytest.importorskip("starlette")

from server_util import Client, create_game, room_of  # noqa: E402
from tuolaji.server.limits import Limits  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

LIMITS = Limits(
    hello_timeout_s=0.5,
    header_timeout_s=0.5,
    connections_per_address=12,
    messages_per_second=5,
    message_burst=10,
    rooms_per_address_per_hour=6,
    connections_per_room=3,
    max_body_bytes=10_000,
)


@pytest.fixture()
def srv() -> Iterator[LiveServer]:
    with LiveServer(":memory:", allow_seed=True, limits=LIMITS) as s:
        yield s


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while True:
            if not sock.recv(4096):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def test_half_sent_headers_and_silent_sockets_are_closed(srv: LiveServer) -> None:
    silent = socket.create_connection(("127.0.0.1", srv.port))
    half = socket.create_connection(("127.0.0.1", srv.port))
    half.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    try:
        assert _closed_within(silent, 5) and _closed_within(half, 5)
    finally:
        silent.close()
        half.close()
    assert httpx.get(srv.url + "/api/info", timeout=5).status_code == 200


def test_connections_per_address_are_limited(srv: LiveServer) -> None:
    held = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(LIMITS.connections_per_address)]
    extra = socket.create_connection(("127.0.0.1", srv.port))
    try:
        assert _closed_within(extra, 2)
    finally:
        extra.close()
        for s in held:
            s.close()
    time.sleep(0.2)
    assert httpx.get(srv.url + "/api/info", timeout=5).status_code == 200  # freed as they close


def test_a_websocket_that_never_says_hello_is_closed(srv: LiveServer) -> None:
    game = create_game(srv)
    c = Client(srv, game["code"], hello=False)
    t0 = time.monotonic()
    with pytest.raises(ConnectionClosed) as info:
        c.recv(timeout=5)
    assert "4408" in str(info.value)
    assert time.monotonic() - t0 < 4


def test_oversized_bodies_are_refused_before_they_are_read(srv: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", srv.port)) as s:  # announces 300 MB, sends a little
        s.sendall(
            b'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 300000000\r\n\r\n{"name":'
        )
        s.settimeout(5)
        assert s.recv(100).startswith(b"HTTP/1.1 413")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams in
        yield b'{"name":"'
        for _ in range(100):
            yield b"x" * 1000

    r = httpx.post(srv.url + "/api/games", content=chunks(), timeout=10)
    assert r.status_code == 413 and r.json()["code"] == "too_big"


def test_message_rate_per_connection(srv: LiveServer) -> None:
    game = create_game(srv, speed="slow")
    c = Client(srv, game["code"], token=game["token"])
    for _ in range(LIMITS.message_burst + 5):
        c.send({"type": "ping"})
    got = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            m = c.recv(timeout=0.5)
        except TimeoutError:
            break
        if m["type"] in ("pong", "refused"):
            got.append(m)
    pongs = [m for m in got if m["type"] == "pong"]
    slow = [m for m in got if m["type"] == "refused" and m["code"] == "slow_down"]
    assert LIMITS.message_burst - 1 <= len(pongs) < LIMITS.message_burst + 4 and len(slow) == 1  # hello took one
    time.sleep(1.0)  # the budget refills
    assert c.request({"type": "ping"}, "pong")["type"] == "pong"
    with pytest.raises(ConnectionClosed):  # a client that keeps flooding is disconnected
        for _ in range(500):
            c.send({"type": "ping"})
            time.sleep(0.001)
        while True:
            c.recv(timeout=3)
    c.close()


def test_rooms_per_address(srv: LiveServer) -> None:
    for _ in range(LIMITS.rooms_per_address_per_hour):
        create_game(srv)
    r = httpx.post(srv.url + "/api/games", json={}, timeout=5)
    assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"


def test_connections_per_room() -> None:
    # its own server without the half-second header and hello timeouts of the others: a loaded
    # machine can take that long to answer a handshake, which is not what is tested here
    limits = dataclasses.replace(LIMITS, hello_timeout_s=60.0, header_timeout_s=60.0)
    with LiveServer(":memory:", allow_seed=True, limits=limits) as srv:
        game = create_game(srv, speed="slow")
        clients = [Client(srv, game["code"]) for _ in range(limits.connections_per_room)]
        late = Client(srv, game["code"], hello=False)
        try:
            assert late.recv(timeout=60)["code"] == "room_full"
            clients[0].close()  # a place frees up: the next one gets in
            until = time.monotonic() + 60
            while srv.call(lambda: len(room_of(srv, game["code"]).conns)) >= limits.connections_per_room:
                assert time.monotonic() < until
                time.sleep(0.05)
            clients[0] = Client(srv, game["code"])
        finally:
            late.close()
            for c in clients:
                c.close()


def test_computer_only_rooms_get_a_share_of_computer_time(srv: LiveServer) -> None:
    game = create_game(srv, seat=None, speed="instant")
    c = Client(srv, game["code"])  # a spectator: only computer players play
    code = game["code"]

    def plays() -> int:
        return srv.call(lambda: sum(1 for e in room_of(srv, code).match.events if type(e).__name__ == "Played"))

    deadline = time.monotonic() + 20
    while plays() < 5:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    n0, t0 = plays(), time.monotonic()
    time.sleep(1.0)
    rate = (plays() - n0) / (time.monotonic() - t0)
    assert rate <= 1.5 / LIMITS.bot_room_move_s, rate
    c.close()


def test_imported_records_are_bounded(srv: LiveServer) -> None:
    from tuolaji.cards import cards_str, new_deck
    from tuolaji.engine.match import Match
    from tuolaji.record import to_record

    rec = to_record(Match(seed=1))
    rec["deals"] = [cards_str(new_deck(2))] * (LIMITS.max_import_rounds + 1)
    r = httpx.post(srv.url + "/api/import", json=rec, timeout=20)
    assert r.status_code == 400 and f"at most {LIMITS.max_import_rounds}" in r.json()["error"]
    r = httpx.post(srv.url + "/api/import", content=b"[" + b"0," * LIMITS.max_import_bytes + b"0]", timeout=20)
    assert r.status_code == 413
