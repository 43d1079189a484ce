"""``tuolaji play`` / ``serve`` keep their port across a restart and say so when it is truly taken;
the player at this computer owns the human seats of a play-mode server whatever their token."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game  # noqa: E402
from tuolaji.server.cli import listen, main  # noqa: E402
from tuolaji.server.local import is_local_player  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


def time_wait_port() -> int:
    """A port whose last connection the server side closed first: it sits in TIME_WAIT, as after Ctrl+C."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    port = int(srv.getsockname()[1])
    cli = socket.create_connection(("127.0.0.1", port))
    conn, _ = srv.accept()
    conn.close()  # the server closes first → its end waits in TIME_WAIT
    cli.recv(1)
    cli.close()
    srv.close()
    return port


def test_a_restart_keeps_the_port_in_time_wait() -> None:
    port = time_wait_port()
    with pytest.raises(OSError):  # what a plain bind (the old free-port probe) meets
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", port))
    sock = listen("127.0.0.1", port)
    assert sock.getsockname()[1] == port
    sock.close()


def test_a_port_held_by_another_program_stops_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        for command in ("play", "serve"):
            rc = main(
                ["--host", "127.0.0.1", "--port", str(port), "--no-browser", "--db", str(tmp_path / "g.sqlite3")], command=command
            )
            err = capsys.readouterr().err
            assert rc == 1
            assert f"port {port}" in err and "--port" in err, err


def test_who_is_the_local_player() -> None:
    assert is_local_player("play", "127.0.0.1", None)
    assert is_local_player("play", "::1", "http://localhost:8321")
    assert is_local_player("play", "127.0.0.1", "http://127.0.0.1:9000")
    assert not is_local_player("serve", "127.0.0.1", None), "a LAN room server has many players"
    assert not is_local_player("play", "192.168.1.20", None), "another computer"
    assert not is_local_player("play", "127.0.0.1", "https://evil.example"), "another site's page"
    assert not is_local_player("play", "127.0.0.1", "null")


def test_the_local_player_takes_back_their_seat_with_a_new_token(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "g.sqlite3", mode="play", allow_seed=True) as srv:
        game = create_game(srv, token="old-origin-token", speed="slow")
        code = game["code"]
        # the start page of another origin (no token yet) lists the game as the player's own
        games = httpx.get(srv.url + "/api/games").json()["games"]
        assert [g["mine"] for g in games if g["code"] == code] == [0]
        # and its table connects as seat 0, not as a spectator; the seat follows the new token
        c = Client(srv, code, token="new-origin-token")
        try:
            assert c.welcome["seat"] == 0
            assert c.wait_state(lambda s: True)["you"]["seat"] == 0
        finally:
            c.close()
        mine = httpx.get(srv.url + "/api/games", headers={"X-Tuolaji-Token": "new-origin-token"}).json()["games"]
        assert [g["mine"] for g in mine if g["code"] == code] == [0]
    # a LAN room server does not hand seats to whoever connects from this computer
    with LiveServer(tmp_path / "s.sqlite3", mode="serve", allow_seed=True) as srv:
        code = create_game(srv, token="owner-token", speed="slow")["code"]
        c = Client(srv, code, token="someone-else")
        try:
            assert c.welcome["seat"] is None
        finally:
            c.close()
