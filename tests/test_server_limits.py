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

# No test here depends on how fast a loaded machine is: the timeouts of the shared server are far
# longer than any handshake can take, the tests of the timeouts themselves run their own server
# and wait for the close with a generous deadline, and the message budget refills so slowly that
# a sender paused by the machine cannot earn more messages than the test counts on.
LIMITS = Limits(
    hello_timeout_s=60.0,
    header_timeout_s=60.0,
    connections_per_address=12,
    messages_per_second=1.0,
    message_burst=10,
    rooms_per_address_per_hour=6,
    connections_per_room=3,
    max_body_bytes=10_000,
)
SHORT = dataclasses.replace(LIMITS, hello_timeout_s=1.0, header_timeout_s=2.0)
PATIENCE_S = 60.0  # how long a test waits for what the server must do "soon"


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


def _answers(srv: LiveServer) -> bool:
    """``/api/info`` answers 200, asked until it does (a loaded server frees closed sockets late)."""
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        try:
            if httpx.get(srv.url + "/api/info", timeout=10).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    return False


def test_half_sent_headers_and_silent_sockets_are_closed() -> None:
    with LiveServer(":memory:", limits=SHORT) as srv:
        silent = socket.create_connection(("127.0.0.1", srv.port))
        half = socket.create_connection(("127.0.0.1", srv.port))
        half.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        try:  # (without the header deadline both are held for ever)
            assert _closed_within(silent, PATIENCE_S) and _closed_within(half, PATIENCE_S)
        finally:
            silent.close()
            half.close()
        assert _answers(srv)


def test_connections_per_address_are_limited(srv: LiveServer) -> None:
    held = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(LIMITS.connections_per_address)]
    extra = socket.create_connection(("127.0.0.1", srv.port))
    try:  # (the held ones say nothing, but the header deadline is a minute: only the limit closes it)
        assert _closed_within(extra, PATIENCE_S / 2)
    finally:
        extra.close()
        for s in held:
            s.close()
    assert _answers(srv)  # freed as they close


def test_a_websocket_that_never_says_hello_is_closed() -> None:
    with LiveServer(":memory:", allow_seed=True, limits=SHORT) as srv:
        game = create_game(srv)
        c = Client(srv, game["code"], hello=False)
        with pytest.raises(ConnectionClosed) as info:  # (without the hello deadline: TimeoutError)
            c.recv(timeout=PATIENCE_S)
        assert "4408" in str(info.value)


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
    pongs = slow = 0
    deadline = time.monotonic() + PATIENCE_S
    quiet = 0.0
    # every answer comes: burst - 1 pongs (hello took one) and one slow_down, then nothing more
    while time.monotonic() < deadline and (pongs < LIMITS.message_burst - 1 or not slow or quiet < 1.0):
        try:
            m = c.recv(timeout=0.5)
        except TimeoutError:
            quiet += 0.5
            continue
        quiet = 0.0
        pongs += m["type"] == "pong"
        slow += m["type"] == "refused" and m["code"] == "slow_down"
    # (the budget refills one message a second: only a sender paused for seconds gets more pongs)
    assert LIMITS.message_burst - 1 <= pongs < LIMITS.message_burst + 3 and slow == 1, (pongs, slow)
    # the budget refills: a ping is answered again (one ping per refill, so it never floods)
    deadline = time.monotonic() + PATIENCE_S
    while True:
        assert time.monotonic() < deadline, "the budget never refilled"
        c.send({"type": "ping"})
        try:
            if c.wait(lambda m: m["type"] == "pong", timeout=2.5 / LIMITS.messages_per_second):
                break
        except TimeoutError:
            continue
    with pytest.raises(ConnectionClosed):  # a client that keeps flooding is disconnected
        for _ in range(500):
            c.send({"type": "ping"})
            time.sleep(0.001)
        while True:
            c.recv(timeout=PATIENCE_S)
    c.close()


def test_rooms_per_address(srv: LiveServer) -> None:
    for _ in range(LIMITS.rooms_per_address_per_hour):
        create_game(srv)
    r = httpx.post(srv.url + "/api/games", json={}, timeout=5)
    assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"


def test_connections_per_room(srv: LiveServer) -> None:
    game = create_game(srv, speed="slow")
    clients = [Client(srv, game["code"]) for _ in range(LIMITS.connections_per_room)]
    late = Client(srv, game["code"], hello=False)
    try:
        assert late.recv(timeout=PATIENCE_S)["code"] == "room_full"
        clients[0].close()  # a place frees up: the next one gets in
        until = time.monotonic() + PATIENCE_S
        while srv.call(lambda: len(room_of(srv, game["code"]).conns)) >= LIMITS.connections_per_room:
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

    deadline = time.monotonic() + PATIENCE_S
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


def test_a_silent_websocket_is_closed_after_the_idle_timeout() -> None:
    with LiveServer(":memory:", allow_seed=True, limits=dataclasses.replace(LIMITS, idle_timeout_s=1.0)) as srv:
        game = create_game(srv, start=False)  # a lobby: the server sends nothing on its own
        c = Client(srv, game["code"])  # greeted, then silent
        with pytest.raises(ConnectionClosed) as info:  # (without the idle timeout: TimeoutError)
            while True:
                c.recv(timeout=PATIENCE_S)
        assert "4408" in str(info.value)


def test_a_body_that_does_not_arrive_in_time_is_answered_408() -> None:
    with LiveServer(":memory:", limits=dataclasses.replace(LIMITS, body_timeout_s=1.0)) as srv:
        for path in ("/api/games", "/api/import"):
            with socket.create_connection(("127.0.0.1", srv.port)) as s:  # announces 1,000 bytes, sends 10
                head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                s.sendall(head.encode() + b'{"name":"x')
                s.settimeout(PATIENCE_S)
                assert s.recv(100).startswith(b"HTTP/1.1 408"), path


def test_connections_beyond_the_total_are_answered_503() -> None:
    limits = dataclasses.replace(LIMITS, connections_total=4)
    with LiveServer(":memory:", limits=limits) as srv:
        held = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(limits.connections_total)]
        try:
            deadline = time.monotonic() + PATIENCE_S  # (until the server has accepted the held ones)
            while (status := httpx.get(srv.url + "/api/info", timeout=10).status_code) != 503:
                assert time.monotonic() < deadline, status
                time.sleep(0.05)
        finally:
            for s in held:
                s.close()
        assert _answers(srv)  # room again once they close


def test_websocket_messages_are_bounded_by_the_setting() -> None:
    limits = dataclasses.replace(LIMITS, max_message_bytes=1000)
    with LiveServer(":memory:", allow_seed=True, limits=limits) as srv:
        game = create_game(srv, start=False)
        c = Client(srv, game["code"], token=game["token"])
        chat = {"type": "chat", "text": "x" * 1200}  # past the setting, far below the built-in 16 kB
        assert c.refused(chat)["code"] == "too_big"
        assert c.request({"type": "ping"}, "pong")["type"] == "pong"  # refused, still open
        with pytest.raises(ConnectionClosed):  # a frame past 4x the setting closes the socket
            c.send({"type": "chat", "text": "x" * 5000})
            while True:
                c.recv(timeout=PATIENCE_S)
