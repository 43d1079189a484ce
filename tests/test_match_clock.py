"""The match clock of a timed match (match_end "timed", match_minutes): kept with the saved game,
shown to every seat, ending the match at its deadline. The clock is injected: nothing sleeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aio import run_async
from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase
from tuolaji.record import from_record, to_record
from tuolaji.server.room import Conn, Room, Seat, hash_token, on_loop, saved_deadline

Msg = dict[str, Any]


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _room(clock: FakeClock, *, status: str = "playing", rules: str = "competition", **kw: Any) -> Room:
    seats = [Seat(name="A", token=hash_token("tok-a"))] + [Seat() for _ in range(3)]
    return Room(
        "CLOCK",
        Match(rules=rules, seed=3),
        seats=seats,
        host=hash_token("tok-a"),
        status=status,
        settings={"speed": "instant", "difficulty": "easy"},
        bot_seed=1,
        offload=on_loop,
        clock=clock,
        **kw,
    )


async def _hello(room: Room, token: str = "tok-a") -> tuple[Conn, Msg]:
    conn = Conn()
    await room.handle(conn, json.dumps({"type": "hello", "token": token}))
    return conn, [m for m in conn.take(room) if m["type"] == "state"][-1]


def test_the_clock_starts_with_play_and_is_sent_to_the_table() -> None:
    async def main() -> None:
        clock = FakeClock()
        lobby = _room(clock, status="lobby")
        assert lobby.match_deadline is None  # not started: no clock yet
        room = _room(clock)
        assert room.match_deadline == clock.now + 30 * 60
        clock.now += 61.5
        _, state = await _hello(room)
        assert state["clock_ms"] == (30 * 60 - 61.5) * 1000
        untimed = Room("PLAIN", Match(seed=1), clock=clock)
        assert untimed.match_deadline is None
        _, plain = await _hello(untimed)
        assert "clock_ms" not in plain
        host, _ = await _hello(lobby)
        await lobby.handle(host, json.dumps({"type": "start", "id": 1}))
        assert lobby.match_deadline == clock.now + 30 * 60

    run_async(main())


def test_at_the_deadline_mid_round_the_match_ends_and_the_leader_wins() -> None:
    """Seed 003: 在規定時間內，哪方的級別高哪方獲勝，如到了規定時間，雙方級數相同，則先到該級的一方勝出。"""

    async def main() -> None:
        clock = FakeClock()
        room = _room(clock)
        host, _ = await _hello(room)
        table = Table(room.match, [make_bot("random", seed=s) for s in range(4)], seed=3)
        while not (room.match.round.phase == Phase.PLAY and room.match.round.tricks):  # into the first tricks
            table.step()
        rnd = room.match.round
        assert rnd.phase == Phase.PLAY and not room.match.over
        clock.now = room.match_deadline - 0.001  # type: ignore[operator]
        room._time_up()
        assert not room.match.over
        clock.now += 0.002
        room._time_up()  # what the room's driver does first at every step
        match = room.match
        assert match.over and match.time_up and match.winner == match._leader()
        assert match.round is rnd and rnd.result is None  # the round in play is not scored
        assert room.status == "finished"
        state = [m for m in host.take(room) if m["type"] == "state"][-1]
        assert state["view"]["over"] and state["view"]["time_up"] and state["clock_ms"] == 0
        assert [e["e"] for e in state["events"]][-2:] == ["time_is_up", "match_ended"]
        # the record replays to the same end
        again = from_record(json.loads(json.dumps(to_record(match))))
        assert again.over and again.time_up and again.winner == match.winner

    run_async(main())


def test_the_deadline_is_saved_with_the_game() -> None:
    clock = FakeClock()
    room = _room(clock)
    data = json.loads(json.dumps(room.persist_data()))
    assert saved_deadline(data) == room.match_deadline
    # a server restarted later: the same deadline, so the time left went on running
    clock.now += 600
    restored = _room(clock, match_deadline=saved_deadline(data))
    assert restored.match_deadline == room.match_deadline
    assert restored.clock_left() == pytest.approx(30 * 60 - 600)
    for damaged in ({"match_deadline": "soon"}, {"match_deadline": float("nan")}, {"match_deadline": True}, {}):
        assert saved_deadline(damaged) is None


def test_a_game_keeps_its_clock_across_a_server_restart(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from server_util import Client, create_game, room_of
    from tuolaji.server.testing import LiveServer

    db = tmp_path / "games.sqlite3"
    with LiveServer(db, allow_seed=True) as srv:
        game = create_game(srv, seed=31, speed="slow", rules="competition")
        code, token = game["code"], game["token"]
        c = Client(srv, code, token=token)
        first = c.wait_state(lambda s: "clock_ms" in s)
        deadline = srv.call(lambda: room_of(srv, code).match_deadline)
        assert 29 * 60_000 < first["clock_ms"] <= 30 * 60_000
        c.close()
    with LiveServer(db, allow_seed=True) as srv2:
        c2 = Client(srv2, code, token=token)
        s2 = c2.wait_state(lambda s: "clock_ms" in s)
        room = room_of(srv2, code)
        assert room.match_deadline == deadline
        assert s2["clock_ms"] <= first["clock_ms"]

        def past_deadline() -> None:  # the clock jumps past the deadline; the driver ends the match
            room.clock = lambda: deadline + 1
            room.wakeup.set()

        srv2.call(past_deadline)
        end = c2.wait_state(lambda s: s["view"]["over"])
        assert end["view"]["time_up"] and end["clock_ms"] == 0 and end["room"]["status"] == "finished"
        c2.close()


def test_a_game_saved_before_the_clock_existed_gets_a_full_clock_on_load(tmp_path: Path) -> None:
    """A timed game saved without a deadline (by a server from before the match clock, or with a
    damaged one) cannot tell how long it has run: loading it starts a full clock, as at the start
    of play, and that deadline is saved from then on, so a later restart keeps it."""
    pytest.importorskip("starlette")
    import sqlite3

    from server_util import Client, create_game, room_of
    from tuolaji.server.testing import LiveServer

    db = tmp_path / "games.sqlite3"
    with LiveServer(db, allow_seed=True) as srv:
        game = create_game(srv, seed=32, speed="slow", rules="competition")
        code, token = game["code"], game["token"]
        c = Client(srv, code, token=token)
        c.wait_state(lambda s: "clock_ms" in s)
        old_deadline = srv.call(lambda: room_of(srv, code).match_deadline)
        c.close()
    with sqlite3.connect(db) as conn:  # as an older server wrote it: no match_deadline in the room data
        (room_json,) = conn.execute("SELECT room FROM games WHERE code = ?", (code,)).fetchone()
        data = json.loads(room_json)
        del data["match_deadline"]
        conn.execute("UPDATE games SET room = ? WHERE code = ?", (json.dumps(data), code))
    conn.close()
    with LiveServer(db, allow_seed=True) as srv2:
        c2 = Client(srv2, code, token=token)
        s2 = c2.wait_state(lambda s: "clock_ms" in s)
        new_deadline = srv2.call(lambda: room_of(srv2, code).match_deadline)
        assert new_deadline > old_deadline  # a fresh clock, from the load
        assert 29 * 60_000 < s2["clock_ms"] <= 30 * 60_000
        c2.close()
    with LiveServer(db, allow_seed=True) as srv3:
        c3 = Client(srv3, code, token=token)
        c3.wait_state(lambda s: "clock_ms" in s)
        assert srv3.call(lambda: room_of(srv3, code).match_deadline) == new_deadline  # kept from then on
        c3.close()


def test_an_offline_save_without_a_deadline_gets_a_full_clock_and_is_saved_again() -> None:
    """The offline build's saves follow the same rule as the server's."""
    from tuolaji.offline.host import room_from_save, save_document

    clock = FakeClock()
    room = _room(clock)
    doc = json.loads(json.dumps(save_document(room)))
    assert saved_deadline(doc["room"]) == room.match_deadline
    kept = room_from_save(json.dumps(doc), "en")
    assert kept.match_deadline == room.match_deadline and not kept.dirty  # nothing new to save
    del doc["room"]["match_deadline"]  # saved before the match clock existed
    fresh = room_from_save(json.dumps(doc), "en")
    assert fresh.match_deadline is not None and fresh.match_deadline != room.match_deadline
    assert fresh.dirty  # the new deadline is written with the next save
