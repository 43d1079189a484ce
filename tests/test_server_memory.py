"""What a room keeps of finished rounds (issue 15: the soak's memory): the event log keeps the
JSON of the current and the last finished round only, and still gives every seat exactly its
view of any event, old or new, to a client or a save that fell behind."""

from __future__ import annotations

import gc
import json
import random
import weakref
from pathlib import Path
from typing import Any

import pytest

from aio import run_async

pytest.importorskip("starlette")

from tuolaji.bots.driver import Table  # noqa: E402
from tuolaji.bots.random_bot import random_legal  # noqa: E402
from tuolaji.bots.registry import make_bot  # noqa: E402
from tuolaji.cards import cards_str  # noqa: E402
from tuolaji.engine.match import RELEASED, Match, RoundStarted  # noqa: E402
from tuolaji.engine.observation import observe  # noqa: E402
from tuolaji.engine.round import Phase  # noqa: E402
from tuolaji.record import from_record, to_record  # noqa: E402
from tuolaji.ruleset import RuleSet  # noqa: E402
from tuolaji.server.api import export_record  # noqa: E402
from tuolaji.server.app import Tables  # noqa: E402
from tuolaji.server.projection import EventLog, declaration_choices, replay_frames  # noqa: E402
from tuolaji.server.room import Conn, Room, Seat, hash_token  # noqa: E402
from tuolaji.server.store import Store  # noqa: E402


def _expected(match: Match, start: int, end: int, seat: int | None) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them, built from scratch."""
    out = []
    for ev in match.events[start:end]:
        owner = getattr(ev, "seat", None)
        out.append(ev.to_dict() if ev.redacted(None) is ev or owner == seat else ev.redacted(None).to_dict())
    return out


def test_the_event_log_forgets_old_rounds_but_still_shows_them_exactly() -> None:
    match = Match(rules="classic", seed=8)
    table = Table(match, [make_bot("random", seed=i) for i in range(4)], seed=2)
    log = EventLog(match)
    sent = 0
    while len(match.rounds) < 6:
        table.step()
        if match.actions % 7 == 0:  # a client being sent what is new, now and then
            n = len(match.events)
            assert log.for_seat(sent, n, 1) == _expected(match, sent, n, 1)
            sent = n
    n = len(match.events)
    starts = [i for i, ev in enumerate(match.events) if isinstance(ev, RoundStarted)]
    assert len(starts) >= 7
    log.for_seat(n, n, None)
    assert log.base == starts[-2] and len(log.cache) == n - starts[-2]  # two rounds kept, not six
    for seat in (None, 0, 1, 2, 3):
        for start, end in ((0, n), (0, 5), (starts[1] - 3, starts[2] + 3), (starts[-2] - 1, n), (n - 4, n)):
            assert log.for_seat(start, end, seat) == _expected(match, start, end, seat), (seat, start, end)
    assert [i for i, _ in log.full(starts[2])] == list(range(starts[2], n))
    assert [e for _, e in log.full(0)] == [ev.to_dict() for ev in match.events]  # what a save writes: whole


def _served_room(tmp_path: Path, seed: int, rules: RuleSet | str = "classic") -> tuple[Tables, Room, list[Conn]]:
    tables = Tables(Store(tmp_path / "games.sqlite3"))
    seats = [Seat(name=f"p{s}", token=hash_token(f"t{s}")) for s in range(4)]
    room = Room("MEMRY", Match(rules=rules, seed=seed), seats=seats, host=seats[0].token, settings={"speed": "instant"})
    assert tables.add(room) is room
    return tables, room, []


async def _play(tables: Tables, room: Room, rounds: int, records: list[dict[str, Any]], *, save_each: bool = True) -> None:
    """Four seated clients play random legal moves (declaring when they can), the server saving
    each answered action as it does (``save_each``); ``records`` gets every event as it happens."""
    conns = []
    for s in range(4):
        conn = Conn()
        await room.handle(conn, json.dumps({"type": "hello", "token": f"t{s}"}))
        conns.append(conn)
    rng = random.Random(3)
    match = room.match
    while len(match.rounds) < rounds and not match.over:
        rnd = match.round
        if room.between:
            room.between = False
            room.changed()
        elif rnd.phase == Phase.DEAL:
            room._deal_tick(everything=True)
        else:
            seat = rnd.turn
            assert seat is not None
            if rnd.phase == Phase.BURY:
                msg = {"type": "bury", "cards": cards_str(rnd.hands[seat][: rnd.kitty_size])}
            elif rnd.phase == Phase.PLAY:
                msg = {"type": "play", "cards": cards_str(random_legal(observe(rnd, seat, with_events=False), rng))}
            else:
                choices = declaration_choices(rnd, seat)
                msg = {"type": "declare", "cards": cards_str(choices[0])} if choices else {"type": "pass"}
            await room.handle(conns[seat], json.dumps(msg))
            if room.dirty and save_each:
                tables.save_now(room)
        for ev in match.events[len(records) :]:
            records.append(ev.to_dict())
        for conn in conns:
            for sent in conn.take(room):
                assert all(e["e"] != "released" for e in sent.get("events", ())), "a released event was sent"
    for conn in conns:
        room.leave(conn)


def test_a_served_room_lets_go_of_saved_rounds_and_reads_them_back(tmp_path: Path) -> None:
    """Issue 15 (soak): a room's memory does not grow with its match. Once the store holds a
    finished round older than the last one, the room keeps only its result; the export, every
    replay and a restart still give the whole game, exactly."""
    tables, room, _ = _served_room(tmp_path, seed=11)
    seen: list[dict[str, Any]] = []
    run_async(_play(tables, room, 7, seen))
    match = room.match
    assert match.released_rounds == len(match.rounds) - 1  # all but the last finished round
    assert all(not r.events and not r.tricks for r in match.rounds[:-1]) and match.rounds[-1].events
    assert match.events[: match.released] == [RELEASED] * match.released
    assert [r.result for r in match.rounds] and all(r.result is not None or r.redeal for r in match.rounds)

    # the export is the whole game, as played
    whole = from_record(
        {**to_record(Match(rules="classic", seed=11)), "deals": [cards_str(d) for d in match.deals], "events": seen}
    )
    assert export_record(match, room.all_events())["events"] == export_record(whole)["events"]
    # every round replays as it was played, released or not, for every seat
    for number in range(1, len(match.rounds) + 1):
        for seat in (None, 0, 3):
            assert room.replay(number, seat) == replay_frames(whole, number, seat), (number, seat)
    # a late-comer gets this round's events, never a released one
    late = Conn()
    run_async(room.handle(late, json.dumps({"type": "hello"})))
    late.cursor = 0  # as if it had been sent nothing at all
    state = [m for m in late.take(room) if m["type"] == "state"][-1]
    assert state["events_skipped"] >= match.released and state["events_skipped"] + len(state["events"]) == len(seen)
    assert [e["e"] for e in state["events"]] == [e["e"] for e in seen[state["events_skipped"] :]]
    # a restart on the same file gives the whole game back
    tables.flush_all()
    tables.store.close()
    again = Tables(Store(tmp_path / "games.sqlite3"))
    loaded = again._read("MEMRY")
    assert loaded is not None
    assert [e.to_dict() for e in loaded[0].events] == seen
    again.store.close()


def test_a_room_keeps_what_a_failed_save_did_not_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds are let go of only when every event before them is known to be in the store:
    while writes fail (a full disk), the room keeps every round; the first write that works
    writes everything since the last one that did, and only then are rounds let go of."""
    tables, room, _ = _served_room(tmp_path, seed=12)
    real = tables.store.write
    monkeypatch.setattr(tables.store, "write", lambda rows: {g["code"]: "OperationalError: disk full" for g, _ in rows})
    seen: list[dict[str, Any]] = []
    run_async(_play(tables, room, 5, seen))
    assert room.match.released == 0 and room.match.rounds[0].events
    monkeypatch.setattr(tables.store, "write", real)
    assert tables.save_now(room)
    assert room.match.released_rounds == len(room.match.rounds) - 1
    loaded = Store(tmp_path / "games.sqlite3").load("MEMRY")
    assert loaded is not None and loaded[0]["events"] == seen


def test_a_dropped_room_is_freed_by_reference_counting_alone(tmp_path: Path) -> None:
    """The server freezes its heap every second (``gc.freeze``: the cycle collector never walks
    a frozen object again), so a room it lets go of (evicted when idle, deleted) must be freed
    without the cycle collector: no reference cycle through the room, its match, its rounds,
    its connections or its driver task, or the soak's memory grows by every room evicted."""

    async def play_and_drop() -> list[weakref.ref[Any]]:
        tables, room, _ = _served_room(tmp_path, seed=13)
        room.start()
        await _play(tables, room, 3, [])
        conn = Conn()
        await room.handle(conn, json.dumps({"type": "hello"}))
        conn.take(room)
        refs = [weakref.ref(x) for x in (room, room.match, room.match.round, *room.match.rounds, conn)]
        room.leave(conn)
        await room.stop()  # what eviction does
        del tables.rooms[room.code]
        tables.store.close()
        return refs

    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        refs = run_async(play_and_drop())
        alive = [type(r()).__name__ for r in refs if r() is not None]
    finally:
        if was:
            gc.enable()
    assert not alive, f"held only by reference cycles: {alive}"


def test_a_round_end_written_while_the_savers_batch_waits_leaves_no_gap(tmp_path: Path) -> None:
    """Issue 15, finding 8 (crash consistency): the saver collects a room's new events on the
    event loop and writes them on its thread a moment later; a round that ends in between is
    written at once, before anyone sees it. That write must hold the waiting batch's events
    too: a kill before the batch lands must leave a whole game in the file, not one whose
    event list has a hole (it would not load)."""
    tables, room, _ = _served_room(tmp_path, seed=14)
    run_async(_play(tables, room, 1, []))
    room.between = False
    room.changed()
    room._deal_tick(everything=True)  # changes the saver writes later (no round ended)
    waiting = [tables.store.row(g) for g in tables._collect([room])]  # collected, not written yet
    run_async(_play(tables, room, 2, [], save_each=False))  # the round end is written at once
    assert len(room.match.rounds) == 2
    # killed now: what does the file hold?
    loaded = Store(tmp_path / "games.sqlite3").load("MEMRY")
    assert loaded is not None
    record = loaded[0]
    assert sum(e["e"] == "round_ended" for e in record["events"]) == 2
    from_record(record)  # whole: it replays and cross-checks
    tables.store.write(waiting)  # and the batch landing late changes nothing
    again = Store(tmp_path / "games.sqlite3").load("MEMRY")
    assert again is not None and again[0]["events"] == record["events"]


def test_the_round_that_ends_the_match_is_written_at_once(tmp_path: Path) -> None:
    """Issue 15, finding 8: a round end is written before anyone sees it, and so is the last
    one, which deals no new round (the test before only caught round ends that deal again): a
    kill right after the match-end screen must not undo the round or the match's end."""
    tables, room, _ = _served_room(tmp_path, seed=14, rules=RuleSet(match_end="fixed_rounds", match_rounds=1))
    run_async(_play(tables, room, 1, [], save_each=False))  # only the server's own at-once writes
    assert room.match.over
    loaded = Store(tmp_path / "games.sqlite3").load("MEMRY")  # killed now: what does the file hold?
    assert loaded is not None
    record = loaded[0]
    assert sum(e["e"] == "round_ended" for e in record["events"]) == 1
    assert from_record(record).over


def test_a_finished_room_nobody_watches_is_let_go_of_sooner(tmp_path: Path) -> None:
    """The soak's memory followed the finished rooms held for ``idle_room_s`` (about 0.5 MB
    each): a room whose match is over and that nobody is connected to goes after
    ``finished_room_s``; a reload reads it back from the store, over as it was."""
    from tuolaji.ruleset import load_rules
    from tuolaji.server.limits import Limits

    limits = Limits(idle_room_s=600.0, finished_room_s=60.0)
    tables = Tables(Store(tmp_path / "games.sqlite3"), limits=limits)
    finished = Match(rules=load_rules({"preset": "classic", "match_target_level": "3"}), seed=3)
    table = Table(finished, [make_bot("random", seed=s) for s in range(4)])
    while not finished.over:
        table.step()
    rooms = {code: Room(code, match) for code, match in (("OVERR", finished), ("GOING", Match(seed=4)))}
    for room in rooms.values():
        assert tables.add(room) is room

    async def evict_after(seconds: float) -> set[str]:
        for room in rooms.values():
            room.idle_since -= seconds  # (as if nobody had been connected for that long)
        await tables._evict()
        return set(tables.rooms)

    assert run_async(evict_after(30.0)) == {"OVERR", "GOING"}
    assert run_async(evict_after(40.0)) == {"GOING"}  # 70 s: the finished one goes, the other stays
    back = run_async(tables.get("OVERR"))
    assert back is not None and back.match.over and len(back.match.rounds) == len(finished.rounds)
    tables.store.close()
