"""Who may do what (server/access.py): the table, its page, every WebSocket message and every
HTTP endpoint checked against it (issue 15 item 4)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from aio import run_async
from tuolaji.engine.match import Match
from tuolaji.server.access import RULES, Act, Role, allowed, markdown_table
from tuolaji.server.room import Conn, Room, Seat, hash_token, on_loop

DOCS = Path(__file__).resolve().parent.parent / "docs" / "table.md"
Msg = dict[str, Any]


def test_the_documented_table_is_the_one_the_server_uses() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert markdown_table() in text, "docs/table.md: paste tuolaji.server.access.markdown_table()"


def test_every_act_has_a_rule_and_only_the_host_deletes() -> None:
    assert set(RULES) == set(Act)
    for roles in ({Role.ANYONE}, {Role.ANYONE, Role.PLAYER}):
        assert not allowed(Act.DELETE, roles) and not allowed(Act.DELETE, roles, host_here=False)
    assert allowed(Act.DELETE, {Role.ANYONE, Role.HOST}) and allowed(Act.DELETE, {Role.ANYONE, Role.LOCAL})


# ------------------------------------------------------------------ WebSocket messages, in the room core
# one message per act (its outcome beyond authorization does not matter here)
WS_MESSAGES: dict[Act, list[Msg]] = {
    Act.STAND: [{"type": "stand"}],
    Act.START: [{"type": "start"}],
    Act.KICK: [{"type": "kick", "seat": 1}],
    Act.CHAT: [{"type": "chat", "text": "hi"}],
    Act.SETTINGS: [{"type": "settings", "speed": "fast"}],
    Act.AUTOPLAY: [{"type": "autoplay", "on": False}],
    Act.READY: [{"type": "ready"}],
    Act.ACT: [{"type": t} for t in ("pass", "redeal")]
    + [
        {"type": "play", "cards": ["SA"]},
        {"type": "declare", "cards": ["S2"]},
        {"type": "bury", "cards": ["SA"]},
        {"type": "call_friend", "card": "SA"},
    ],
    Act.CHECK: [{"type": "check", "cards": ["SA"]}, {"type": "hint"}],
    Act.DEAL: [{"type": "deal"}],
}


async def _people(room: Room, *, local: bool = False) -> dict[str, Conn]:
    """The host, a player and a stranger connected; or, on a play-mode table, its local player
    alone (who takes over the human seats and the host's role whatever its token: server/local.py)."""
    out = {}
    people = (("local", "tok-local"),) if local else (("host", "tok-host"), ("player", "tok-player"), ("stranger", None))
    for who, token in people:
        conn = Conn(local=local)
        hello: Msg = {"type": "hello", "token": token} if token else {"type": "hello"}
        await room.handle(conn, json.dumps(hello))
        conn.take(room)
        out[who] = conn
    return out


def _new_room(status: str) -> Room:
    seats = [Seat(token=hash_token("tok-host")), Seat(token=hash_token("tok-player")), Seat(), Seat()]
    return Room(
        "AUTH1",
        Match(rules="classic", seed=3),
        seats=seats,
        host=hash_token("tok-host"),
        status=status,
        settings={"speed": "instant", "difficulty": "easy"},
        offload=on_loop,
    )


@pytest.mark.parametrize("status", ["lobby", "playing"])
@pytest.mark.parametrize("host_here", [True, False])
def test_every_message_is_allowed_or_refused_as_the_table_says(status: str, host_here: bool) -> None:
    async def main() -> None:
        for act, messages in WS_MESSAGES.items():
            for msg in messages:
                for who in ("host", "player", "stranger", "local"):
                    room = _new_room(status)
                    people = await _people(room, local=who == "local")
                    if not host_here and who != "local":
                        room.leave(people["host"])
                    conn = people[who]
                    roles = room.roles(conn)
                    expect = allowed(act, roles, host_here=room.host_here())
                    before = room.match.actions
                    await room.handle(conn, json.dumps(msg))
                    refusal = next((m["code"] for m in conn.take(room) if m["type"] == "refused"), None)
                    refused_by_rule = refusal == RULES[act].refusal
                    assert refused_by_rule != expect, (act, msg, who, status, host_here, refusal)
                    if not expect:
                        assert room.match.actions == before and room.status == status

    run_async(main())


def test_a_stranger_may_sit_only_in_a_free_seat() -> None:
    async def main() -> None:
        room = _new_room("playing")
        people = await _people(room)
        stranger = people["stranger"]
        for taken in (0, 1):
            await room.handle(stranger, json.dumps({"type": "sit", "seat": taken}))
            assert any(m.get("code") == "seat_taken" for m in stranger.take(room))
        await room.handle(stranger, json.dumps({"type": "sit", "seat": 2}))
        assert any(m["type"] == "seated" for m in stranger.take(room))
        assert Role.PLAYER in room.roles(stranger) and Role.HOST not in room.roles(stranger)

    run_async(main())


# ------------------------------------------------------------------ HTTP endpoints
pytest.importorskip("starlette")

from server_util import Client, create_game  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def _delete(srv: LiveServer, code: str, token: str | None) -> int:
    headers = {"X-Tuolaji-Token": token} if token else {}
    return httpx.delete(f"{srv.url}/api/games/{code}", headers=headers, timeout=10).status_code


def test_a_stranger_who_sits_in_a_computer_seat_mid_game_cannot_delete(srv: LiveServer) -> None:
    game = create_game(srv, seed=61, speed="normal")
    host = Client(srv, game["code"], token=game["token"])
    stranger = Client(srv, game["code"])
    stranger.request({"type": "sit", "seat": 2}, "seated")
    assert _delete(srv, game["code"], stranger.token) == 403
    assert _delete(srv, game["code"], None) == 403
    assert httpx.get(f"{srv.url}/api/games/{game['code']}", timeout=10).status_code == 200  # still there
    stranger.close()
    assert _delete(srv, game["code"], game["token"]) == 200
    host.close()


def test_a_player_who_is_not_the_host_cannot_delete(srv: LiveServer) -> None:
    game = create_game(srv, seed=62, start=False)
    guest = Client(srv, game["code"])
    guest.request({"type": "sit", "seat": 1}, "seated")  # seated before the start: a real player
    assert _delete(srv, game["code"], guest.token) == 403
    guest.close()
    assert _delete(srv, game["code"], game["token"]) == 200


def test_a_game_without_a_human_seat_needs_its_creators_token(srv: LiveServer) -> None:
    game = create_game(srv, seed=63, seat=None, token="creator-token-63")
    assert _delete(srv, game["code"], None) == 403
    assert _delete(srv, game["code"], "someone-else") == 403
    assert _delete(srv, game["code"], "creator-token-63") == 200


def test_an_imported_game_belongs_to_its_importer(srv: LiveServer) -> None:
    game = create_game(srv, seed=64, seat=None, token="t64")
    record = httpx.get(f"{srv.url}/api/games/{game['code']}/record", timeout=10)
    assert record.status_code == 200
    r = httpx.post(f"{srv.url}/api/import", content=record.content, timeout=30)  # no token sent
    assert r.status_code == 200, r.text
    imported = r.json()
    assert imported["token"]  # the importer's new token, to keep
    assert _delete(srv, imported["code"], None) == 403
    assert _delete(srv, imported["code"], "t64") == 403
    assert _delete(srv, imported["code"], imported["token"]) == 200
    r = httpx.post(f"{srv.url}/api/import", content=record.content, headers={"X-Tuolaji-Token": "mine-64"}, timeout=30)
    assert r.json()["token"] is None and _delete(srv, r.json()["code"], "mine-64") == 200


def test_what_anyone_may_read(srv: LiveServer) -> None:
    game = create_game(srv, seed=65, token="t65")
    code = game["code"]
    for path in ("/api/games", f"/api/games/{code}", f"/api/games/{code}/record"):
        assert httpx.get(srv.url + path, timeout=10).status_code == 200, path
    assert allowed(Act.LIST, {Role.ANYONE}) and allowed(Act.EXPORT, {Role.ANYONE, Role.GUEST})  # no password: all guests
    assert not allowed(Act.EXPORT, {Role.ANYONE})


def test_a_password_room_shows_its_record_replays_and_information_only_to_its_people(srv: LiveServer) -> None:
    """Item 4 of issue 15: the password keeps strangers from reading a room over HTTP too."""
    game = create_game(srv, seed=67, seat=None, token="t67", password="Pw-67", start=True)
    code = game["code"]
    host = Client(srv, code, token="t67")  # the host needs no password, even without a seat
    try:
        host.wait_state(lambda s: s.get("summary") is not None, timeout=60)  # round 1 finished
    finally:
        host.close()
    paths = [f"/api/games/{code}", f"/api/games/{code}/record", f"/api/games/{code}/replay?round=1&seat=spectator"]

    def get(path: str, **headers: str) -> httpx.Response:
        return httpx.get(srv.url + path, headers=headers, timeout=10)

    for path in paths:
        for refused in (
            get(path),
            get(path, **{"X-Tuolaji-Password": "pw-67"}),
            get(path, **{"X-Tuolaji-Token": "stranger", "Accept-Language": "zh"}),
        ):
            assert refused.status_code == 403 and refused.json()["code"] == "bad_password", (path, refused.text)
            assert "Pw-67" not in refused.text and "SA" not in refused.text
        assert "需要密码" in get(path, **{"Accept-Language": "zh"}).json()["error"]
        for headers in ({"X-Tuolaji-Password": "Pw-67"}, {"X-Tuolaji-Token": "t67"}):
            ok = get(path, **headers)
            assert ok.status_code == 200, (path, headers, ok.text)
    assert get(paths[2], **{"X-Tuolaji-Password": "Pw-67"}).json()["frames"]
    # a guest who sits with the password is a player: their token opens the room from then on
    guest = Client(srv, code, hello=False)
    guest.send({"type": "hello", "token": "guest-67", "password": "Pw-67"})
    guest.wait(lambda m: m["type"] == "welcome")
    guest.request({"type": "sit", "seat": 1}, "seated")
    guest.close()
    assert get(paths[1], **{"X-Tuolaji-Token": "guest-67"}).status_code == 200
    listed = {g["code"] for g in httpx.get(srv.url + "/api/games", timeout=10).json()["games"]}
    assert code in listed  # the list shows the room (to join it one needs the password)


def test_the_local_player_of_a_play_server_may_delete(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "local.sqlite3", allow_seed=True, mode="play") as local:
        game = create_game(local, seed=66, seat=None, token="t66")
        assert _delete(local, game["code"], None) == 200  # from this computer, no token needed


def test_refusal_codes_have_texts() -> None:
    from tuolaji.errors import Reason
    from tuolaji.messages import text

    for rule in RULES.values():
        assert rule.refusal in set(Reason), rule.refusal
    assert "3" in text("reason", Reason.SEAT_NEXT_ROUND, "en", seat=3)
