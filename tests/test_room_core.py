"""The room core and its projection, without sockets: what each seat is sent, seats taken
mid-round, replays, and that the core runs with no transport (the offline build's Web Worker)."""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import tracemalloc
from typing import Any

import pytest

from aio import run_async
from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.cards import cards_str
from tuolaji.engine.actions import Deal, Pass
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase
from tuolaji.engine.view import events_for, round_view
from tuolaji.record import action_of_event, from_record, to_record
from tuolaji.server import projection
from tuolaji.server.room import REPLAYS_KEPT, Conn, Room, Seat, hash_token, on_loop

Msg = dict[str, Any]


def _room(*, seed: int = 5, status: str = "playing", rules: str = "classic") -> Room:
    seats = [Seat(name="A", token=hash_token("tok-a"))] + [Seat() for _ in range(3)]
    return Room(
        "CORE1",
        Match(rules=rules, seed=seed),
        seats=seats,
        host=hash_token("tok-a"),
        status=status,
        settings={"speed": "instant", "difficulty": "easy"},
        bot_seed=1,
        offload=on_loop,
    )


async def _say(room: Room, conn: Conn, msg: Msg) -> list[Msg]:
    await room.handle(conn, json.dumps(msg))
    return conn.take(room)


async def _hello(room: Room, token: str | None = None) -> Conn:
    conn = Conn()
    await _say(room, conn, {"type": "hello", "token": token} if token else {"type": "hello"})
    return conn


def _bots(match: Match) -> Table[Match]:
    return Table(match, [make_bot("random", seed=s) for s in range(match.rules.players)], seed=3)


def _until(match: Match, pred: Any, limit: int = 20_000) -> None:
    """Drive every seat of ``match`` with bots (the room's driver is not running) until ``pred``."""
    table = _bots(match)
    for _ in range(limit):
        if pred(match):
            return
        table.step()
    raise AssertionError("never reached")


def _refusal(msgs: list[Msg]) -> str | None:
    return next((m["code"] for m in msgs if m["type"] == "refused"), None)


def _state(msgs: list[Msg]) -> Msg:
    return [m for m in msgs if m["type"] == "state"][-1]


# ------------------------------------------------------------------ issue 15 item 5: computer seats' hands
def test_a_computer_seat_taken_mid_round_shows_no_hand_and_takes_no_action_until_the_next_round() -> None:
    async def main() -> None:
        room = _room()
        host = await _hello(room, "tok-a")
        guest = await _hello(room)
        # mid-round, at the computer seat 2's turn to play
        _until(room.match, lambda m: m.round.phase == Phase.PLAY and m.round.turn == 2)
        host.take(room), guest.take(room)
        hand = list(room.match.round.hands[2])
        msgs = await _say(room, guest, {"type": "sit", "seat": 2, "id": 1})
        assert any(m["type"] == "seated" for m in msgs)
        s = _state(msgs)
        assert s["you"]["seat"] == 2 and s["you"]["from_round"] == 2
        assert s["view"]["hand"] == [] and "options" not in s
        assert not any(
            e["e"] == "dealt" and e["seat"] == 2 and e["card"] for m in msgs if m["type"] == "state" for e in m["events"]
        )
        # it may not act for the computer seat, on its turn, in any way
        before = room.match.actions
        play = cards_str(hand[:1])
        assert _refusal(await _say(room, guest, {"type": "play", "cards": play})) == "seat_next_round"
        assert _refusal(await _say(room, guest, {"type": "play", "seat": 2, "cards": play})) == "seat_next_round"
        assert _refusal(await _say(room, guest, {"type": "check", "cards": play})) == "seat_next_round"
        assert _refusal(await _say(room, guest, {"type": "hint"})) == "seat_next_round"
        assert room.match.actions == before
        assert not room.human_controls(2)  # the computer plays it for the rest of this round
        # the next round: the seat is theirs, hand and all (the room's driver is not running here,
        # so the round break is over as soon as the next deal is done)
        _until(room.match, lambda m: len(m.rounds) == 1 and m.round.phase != Phase.DEAL)
        s = room.state_for(guest)
        assert s["view"]["hand"] == cards_str(room.match.round.level_ctx.sort(room.match.round.hands[2]))
        assert "options" in s and "from_round" not in s["you"] and room.human_controls(2)

    run_async(main())


def test_a_player_who_saw_one_hand_cannot_see_another_in_the_same_round() -> None:
    async def main() -> None:
        room = _room()
        host = await _hello(room, "tok-a")
        _until(room.match, lambda m: m.round.phase == Phase.PLAY)
        assert room.state_for(host)["view"]["hand"]
        await _say(room, host, {"type": "stand"})
        s = _state(await _say(room, host, {"type": "sit", "seat": 1}))
        assert s["view"]["hand"] == [] and s["you"]["from_round"] == 2
        await _say(room, host, {"type": "stand"})
        # back to the seat whose hand they already saw this round: at once
        s = _state(await _say(room, host, {"type": "sit", "seat": 0}))
        assert len(s["view"]["hand"]) == len(room.match.round.hands[0]) and "from_round" not in s["you"]

    run_async(main())


def test_seats_taken_before_the_deal_or_between_rounds_play_at_once() -> None:
    async def main() -> None:
        room = _room(status="lobby")
        guest = await _hello(room)
        await _say(room, guest, {"type": "sit", "seat": 3})
        assert room.seats[3].from_round == 0
        _until(room.match, lambda m: len(m.rounds) == 1)  # the round is over, the next not dealt
        other = await _hello(room)
        await _say(room, other, {"type": "sit", "seat": 2})
        assert room.seats[2].from_round == 0 and room.plays_now(2)

    run_async(main())


# ------------------------------------------------------------------ the projection
def test_each_seat_is_sent_its_own_cards_only() -> None:
    async def main() -> None:
        room = _room()
        conns = [await _hello(room, "tok-a"), await _hello(room)]
        _until(room.match, lambda m: m.round.phase == Phase.PLAY and len(m.round.tricks) >= 2)
        for conn in conns:
            conn.cursor = 0
            s = room.state_for(conn)
            seat = room.view_seat(conn)
            assert s["events"] == events_for(room.match.events, seat)  # the engine's own redaction
            assert s["view"]["hand"] == round_view(room.match.round, seat)["hand"]
            assert ("options" in s) == (seat is not None)

    run_async(main())


def test_options_follow_the_lead_and_the_kitty() -> None:
    match = Match(rules="classic", seed=9)
    _until(match, lambda m: m.round.phase == Phase.BURY)
    rnd = match.round
    seat = rnd.turn
    assert seat is not None
    o = projection.options(match, seat)
    assert o["bury"] == rnd.kitty_size and len(o["from_kitty"]) == rnd.kitty_size
    assert "bury" not in projection.options(match, (seat + 1) % 4)
    _until(match, lambda m: m.round.phase == Phase.PLAY and m.round.trick is not None and len(m.round.trick.plays) == 1)
    rnd = match.round
    follower = rnd.turn
    assert follower is not None
    o = projection.options(match, follower)
    lead = rnd.trick.plays[0]  # type: ignore[union-attr]
    assert o["follow"]["count"] == len(lead) and o["turn"]
    assert len(o["playable"]) == len(o["required"]) == len(rnd.hands[follower])


def _slow_replay(match: Match, number: int, seat: int | None) -> list[Msg]:
    """The oracle: rebuild the whole game from its record up to the round, then replay it."""
    data = to_record(match)
    events = data["events"]
    starts = [i for i, e in enumerate(events) if e["e"] == "round_started"]
    ends = [i for i, e in enumerate(events) if e["e"] in ("round_ended", "redealt")]
    head = dict(data, events=events[: starts[number - 1] + 1], seed=None, deals=data["deals"][:number])
    replay = from_record(head)
    rnd = replay.round  # the round replayed (the match moves on to a new one at its end)
    views = []
    from tuolaji.engine.events import event_from_dict

    for raw in events[starts[number - 1] + 1 : ends[number - 1] + 1]:
        action = action_of_event(event_from_dict(raw))
        if action is not None:
            replay.apply(action)
            views.append(round_view(rnd, seat))
    return views


def test_a_reloaded_page_gets_the_whole_round_including_a_redeal() -> None:
    """Nobody declared, so the first deal was dealt again: a page opened now (a reload) is sent
    the round from its start, the redeal included, as the page that was open all along saw it."""
    room = _room(seed=0)
    match = room.match
    while match.round.phase == Phase.DEAL:
        match.apply(Deal())
    while match.round.phase == Phase.DECLARE:
        match.apply(Pass(seat=match.round.turn))
    assert any(e["e"] == "redealt" for e in events_for(match.events, 0))

    async def main() -> list[str]:
        msgs = await _say(room, Conn(), {"type": "hello", "token": "tok-a"})
        return [e["e"] for e in _state(msgs)["events"] if e["e"] != "dealt"]

    kinds = run_async(main())
    assert kinds[0] == "round_started" and "redealt" in kinds, kinds
    assert kinds.count("round_started") == 2, kinds


def test_replay_frames_match_a_replay_of_the_whole_record() -> None:
    match = Match(rules="classic", seed=21)
    _until(match, lambda m: len(m.rounds) >= 3)
    for number in (1, 3):
        for seat in (None, 0, 3):
            frames = projection.replay_frames(match, number, seat)
            views = _slow_replay(match, number, seat)
            assert frames["frames"], (number, seat)
            for frame in frames["frames"]:
                assert frame["view"] in views
            assert frames["frames"][-1]["view"] == views[-1]  # the round's end, every card public
    with pytest.raises(ValueError):
        projection.replay_frames(match, len(match.rounds) + 1, 0)


def test_a_replay_costs_one_rounds_work_whichever_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15, finding 7: replaying a late round of a long match must not play the match
    again from its start (round 999 cost 1.8 s a request). Counted in actions, not timed."""
    from tuolaji.engine import round as round_module

    match = Match(rules="classic", seed=21)
    _until(match, lambda m: len(m.rounds) >= 6)
    applied = 0
    real = round_module.Round.apply

    def counting(self: Any, action: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal applied
        applied += 1
        return real(self, action, *args, **kwargs)

    monkeypatch.setattr(round_module.Round, "apply", counting)
    for number in (1, 6):
        own = sum(1 for ev in match.rounds[number - 1].events if action_of_event(ev) is not None)
        applied = 0
        projection.replay_frames(match, number, 2)
        assert applied == own, (number, applied, own)


def test_the_room_keeps_replays_it_built_and_keeps_them_small(monkeypatch: pytest.MonkeyPatch) -> None:
    room = _room(seed=23)
    _until(room.match, lambda m: len(m.rounds) >= 2)
    real = projection.replay_frames
    built: list[tuple[int, int | None]] = []

    def counted(match: Match, number: int, seat: int | None, saved: Any = None) -> Any:
        built.append((number, seat))
        return real(match, number, seat, saved)

    monkeypatch.setattr(projection, "replay_frames", counted)
    first = room.replay(2, 1)
    assert first == real(room.match, 2, 1)
    assert room.replay(2, 1) == first and room.replay_text(2, 1) == json.dumps(first, ensure_ascii=False, separators=(",", ":"))
    assert built == [(2, 1)], "built once"
    assert room.replay(1, 1) != first
    # every view of both rounds (10 replays): the last REPLAYS_KEPT asked for are kept, in a few
    # KB each (a replay's frames take ~0.46 MB as Python objects: 3.7 MB for the eight)
    keys = [(number, seat) for number in (1, 2) for seat in (None, 0, 1, 2, 3)]
    for number, seat in keys:  # once before measuring: whatever the engine remembers is made
        room.replay(number, seat)
    room.replays.clear()
    gc.collect()
    tracemalloc.start()
    try:
        for number, seat in keys:
            room.replay(number, seat)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert list(room.replays) == keys[-REPLAYS_KEPT:]
    assert held < 200_000, f"{held} bytes held for {len(room.replays)} replays"
    built.clear()
    assert room.replay(2, 3) == real(room.match, 2, 3) and built == [], "a kept replay is not built again"
    assert room.replay(1, None) == real(room.match, 1, None) and built == [(1, None)], "a dropped one is"


def test_summary_levels_before_are_the_previous_levels_after() -> None:
    match = Match(rules="classic", seed=31)
    _until(match, lambda m: len(m.rounds) >= 2 and m.rounds[-1].result is not None and m.rounds[-2].result is not None)
    names = ["A", "B", "C", "D"]
    second = projection.round_summary(match, 0, "en", names)
    assert second is not None and second["round"] == len(match.rounds)
    assert second["levels_after"] == match.levels
    assert second["levels_before"] == projection.levels_before(match, len(match.rounds))


# ------------------------------------------------------------------ no transport in the core
def test_the_core_imports_no_web_server() -> None:
    code = (
        "import sys, tuolaji.server.room, tuolaji.server.projection, tuolaji.server.access; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'websockets', 'httpx')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_core_plays_a_round_on_the_loop_without_threads() -> None:
    """The offline build runs the room on Pyodide's loop, where nothing may run on a thread."""

    async def main() -> None:
        room = _room()
        room.settings["difficulty"] = "hard"  # a searching bot: its thinking goes through ``offload``
        room.seats[0] = Seat()  # computers only, and a spectator watching
        used: list[str] = []

        async def no_threads(fn: Any) -> Any:
            used.append("here")
            return await on_loop(fn)

        room.offload = no_threads
        watcher = await _hello(room)
        room.start()
        for _ in range(6000):
            if room.match.round.phase == Phase.PLAY and room.match.round.tricks:
                break
            await asyncio.sleep(0.01)
        await room.stop()
        assert room.match.round.tricks and used  # it played, and its bots thought through ``offload``
        assert any(m["type"] == "state" for m in watcher.take(room))

    run_async(main())
