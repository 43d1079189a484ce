"""Rooms: absent players are played for (托管) until they return, turn timers, seats, the lobby."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, my_turn, room_of, snapshot, until  # noqa: E402
from tuolaji.server import room as room_module  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def actions(srv: LiveServer, code: str) -> int:
    return snapshot(srv, code)[1]


def wait_for(cond, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.05)


def test_a_disconnected_players_seat_is_played_until_they_return(srv: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "RECONNECT_GRACE", 0.3)
    game = create_game(srv, seed=41)
    code, token = game["code"], game["token"]
    watcher = Client(srv, code)  # someone stays, so the table goes on
    c = Client(srv, code, token=token)
    until(c, srv, lambda s: s["options"]["phase"] == "play")
    before = actions(srv, code)
    c.close()
    # the bot plays seat 0's turns while the player is away (the game never stalls)
    wait_for(lambda: actions(srv, code) > before + 8)
    info = srv.call(lambda: room_of(srv, code).room_info())
    assert info["seats"][0]["human"] and not info["seats"][0]["connected"] and info["seats"][0]["bot"]
    # back with the reconnect token: the same seat, and the bot stops playing it
    back = Client(srv, code, token=token)
    assert back.welcome["seat"] == 0
    s = back.wait_state(lambda s: my_turn(s) or s["between"])
    assert s["you"]["seat"] == 0
    if not s["between"]:
        frozen = actions(srv, code)
        time.sleep(0.8)
        assert actions(srv, code) == frozen, "the bot must not play for a player who is back"
    back.close()
    watcher.close()


def test_turn_timer_plays_for_a_slow_player(srv: LiveServer) -> None:
    game = create_game(srv, seed=42, timer=1)
    c = Client(srv, game["code"], token=game["token"])
    s = until(c, srv, lambda s: s["options"]["phase"] == "play")
    # 0 once the deadline has passed (a stalled loop may send the state late): present and bounded
    assert s["timer_ms"] is not None and 0 <= s["timer_ms"] <= 1000
    hand = len(s["view"]["hand"])
    # do nothing: within about a second the computer plays for seat 0
    c.wait_state(lambda s: len(s["view"]["hand"]) < hand, timeout=60)
    c.close()


def test_autoplay_hands_the_seat_to_the_computer_and_back(srv: LiveServer) -> None:
    game = create_game(srv, seed=43)
    c = Client(srv, game["code"], token=game["token"])
    s = until(c, srv, lambda s: s["options"]["phase"] == "play")
    hand = len(s["view"]["hand"])
    c.act({"type": "autoplay", "on": True})
    c.wait_state(lambda s: len(s["view"]["hand"]) <= hand - 3, timeout=60)
    c.act({"type": "autoplay", "on": False})
    s = c.wait_state(lambda s: my_turn(s) or s["between"])
    assert not s["you"]["autoplay"]
    c.close()


def test_lobby_seats_and_start(srv: LiveServer) -> None:
    game = create_game(srv, seed=44, start=False)
    code = game["code"]
    host = Client(srv, code, token=game["token"])
    guest = Client(srv, code)
    assert host.state is not None and host.state["room"]["status"] == "lobby"
    assert guest.refused({"type": "start"})["code"] == "not_host"
    assert guest.refused({"type": "play", "cards": ["SA"]})["code"] == "not_seated"
    guest.request({"type": "sit", "seat": 1}, "seated")
    guest.request({"type": "sit", "seat": 3}, "seated")  # moving is allowed before the start
    assert guest.refused({"type": "play", "cards": ["SA"]})["code"] == "not_started"
    host.wait_state(lambda s: s["room"]["seats"][3]["human"] and not s["room"]["seats"][1]["human"])
    host.act({"type": "start"})
    assert guest.refused({"type": "sit", "seat": 1})["code"] == "already_seated"
    guest.wait_state(lambda s: s["room"]["status"] == "playing" and len(s["view"]["hand"]) > 0)
    assert host.refused({"type": "start"})["code"] == "already_started"
    # a spectator can take a computer's seat during the game, not a player's; taken mid-round, the
    # computer finishes the round for it and its hand is not shown before the next round
    late = Client(srv, code)
    assert late.refused({"type": "sit", "seat": 3})["code"] == "seat_taken"
    late.request({"type": "sit", "seat": 2}, "seated")
    s = late.wait_state(lambda s: s["you"]["seat"] == 2)
    assert s["view"]["hand"] == [] and s["you"]["from_round"] == 2
    for cl in (host, guest, late):
        cl.close()


def test_find_a_friend_the_dealer_calls_a_card(srv: LiveServer) -> None:
    """With a find-a-friend preset, a human dealer calls the friend card through the protocol."""
    for seed in range(6, 60):  # a deal where seat 0 declares first and so deals the first round
        game = create_game(srv, seed=seed, rules={"preset": "bianfeng-friend"})
        c = Client(srv, game["code"], token=game["token"])
        for _ in range(10):
            s = c.wait_state(lambda s: my_turn(s) or s["between"], timeout=60)
            o = s["options"]
            if o["phase"] == "declare":
                c.act({"type": "declare", "cards": o["declare"][0]} if o.get("declare") else {"type": "pass"})
            elif o["phase"] == "bury":
                c.act({"type": "bury", "cards": s["view"]["hand"][: o["bury"]]})
            elif o["phase"] == "call_friend":
                assert c.refused({"type": "call_friend", "card": "XX"})["code"] == "bad_message"
                s = c.act({"type": "call_friend", "card": "HA"})
                assert s["view"]["friend_card"] == "HA"
                c.close()
                return
            else:
                break
        c.close()
    pytest.fail("seat 0 never called a friend")
