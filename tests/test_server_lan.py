"""LAN rooms: a short chat, a room password, and the host giving a player's seat to the computer."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


def lobby(srv: LiveServer, **extra: object) -> str:
    return str(create_game(srv, token="host", start=False, **extra)["code"])


def test_chat_reaches_everyone_and_newcomers_see_recent_lines(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        code = lobby(srv)
        host, guest = Client(srv, code, token="host"), Client(srv, code, token="guest", lang="zh")
        try:
            host.send({"type": "chat", "text": "  hello\x07   all "})
            line = guest.wait(lambda m: m["type"] == "chat")["lines"][-1]
            assert line == {"seat": 0, "name": "", "text": "hello all"}
            assert host.refused({"type": "chat", "text": "again"})["code"] == "chat_fast"
            assert guest.refused({"type": "chat", "text": " \x01 "})["reason"] == "请先输入内容"
            assert guest.refused({"type": "chat", "text": "x" * 121})["code"] == "bad_message"
            late = Client(srv, code, token="late", hello=False)
            late.send({"type": "hello", "token": "late"})
            assert late.wait(lambda m: m["type"] == "chat")["lines"][0]["text"] == "hello all"
            late.close()
        finally:
            host.close()
            guest.close()


def test_a_room_password_keeps_strangers_out(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        code = lobby(srv, password="Qx7pw")
        info = httpx.get(srv.url + f"/api/games/{code}", headers={"X-Tuolaji-Password": "Qx7pw"}).json()
        assert info["password"] is True and "Qx7pw" not in str(info)
        stranger = Client(srv, code, hello=False)
        try:
            assert stranger.refused({"type": "hello", "lang": "zh"})["reason"] == "这个房间需要密码"
            assert stranger.refused({"type": "sit", "seat": 1})["code"] == "hello_first"
            stranger.send({"type": "hello", "password": "Qx7pw"})
            assert stranger.wait(lambda m: m["type"] == "welcome")["seat"] is None
        finally:
            stranger.close()
        host = Client(srv, code, token="host")  # the host's own seat needs no password
        assert host.welcome["seat"] == 0
        host.close()


def test_the_host_gives_a_seat_to_the_computer(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        code = lobby(srv)
        host, guest, other = (Client(srv, code, token=t) for t in ("host", "guest", "other"))
        try:
            assert guest.request({"type": "sit", "seat": 2}, "seated")["seat"] == 2
            assert other.refused({"type": "kick", "seat": 2})["code"] == "not_host"
            assert host.refused({"type": "kick", "seat": 1})["code"] == "not_a_player"
            assert host.refused({"type": "kick", "seat": 0})["code"] == "not_a_player"
            state = host.act({"type": "kick", "seat": 2})
            assert state["room"]["seats"][2]["human"] is False
            assert guest.wait(lambda m: m["type"] == "refused")["code"] == "kicked"
            assert guest.wait_state(lambda s: s["you"]["seat"] is None)["you"]["seat"] is None
            assert guest.refused({"type": "sit", "seat": 2})["code"] == "seat_taken"
        finally:
            for c in (host, guest, other):
                c.close()
