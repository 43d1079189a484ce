"""The WebSocket protocol refuses everything it must, in the player's language, changing nothing."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_util import Client, create_game, legal_play, my_turn, room_of, snapshot, until  # noqa: E402
from tuolaji.cards import parse_cards  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


@pytest.fixture()
def solo(srv: LiveServer) -> Iterator[tuple[Client, str]]:
    """Seat 0 is a human at its first play decision; seats 1-3 are bots."""
    game = create_game(srv, seed=11)
    c = Client(srv, game["code"], token=game["token"])
    until(c, srv, lambda s: s["options"]["phase"] == "play")
    yield c, game["code"]
    c.close()


def refused_unchanged(c: Client, srv: LiveServer, code: str, obj: object, expect: str) -> dict:
    before = snapshot(srv, code)
    m = c.refused(obj)
    assert m["code"] == expect, m
    assert m["reason"] and m["why"]
    assert snapshot(srv, code) == before, "a refused message changed the game"
    return m


MALFORMED = [
    ("not json at all", "bad_json"),
    ('{"type": "play", ', "bad_json"),
    ("[1, 2, 3]", "bad_message"),
    ('"play"', "bad_message"),
    (json.dumps({"type": 5}), "bad_message"),
    (json.dumps({"cards": ["SA"]}), "bad_message"),
    (json.dumps({"type": "frobnicate"}), "unknown_type"),
    (json.dumps({"type": "__init__"}), "unknown_type"),
    (json.dumps({"type": "play"}), "bad_message"),
    (json.dumps({"type": "play", "cards": "SA"}), "bad_message"),
    (json.dumps({"type": "play", "cards": ["ZZ"]}), "bad_message"),
    (json.dumps({"type": "play", "cards": [10]}), "bad_message"),
    (json.dumps({"type": "play", "cards": ["SA"], "extra": 1}), "bad_message"),
    (json.dumps({"type": "play", "cards": ["SA"], "seat": "0"}), "bad_message"),
    (json.dumps({"type": "play", "cards": ["SA"], "seat": True}), "bad_message"),
    (json.dumps({"type": "play", "cards": ["SA"], "id": {"x": 1}}), "bad_message"),
    (json.dumps({"type": "bury", "cards": ["SA"] * 100}), "bad_message"),
    (json.dumps({"type": "settings", "speed": "warp"}), "bad_message"),
    (json.dumps({"type": "autoplay"}), "bad_message"),
    (json.dumps({"type": "sit", "seat": -1}), "bad_message"),
    (json.dumps({"type": "hello", "lang": "fr"}), "bad_message"),
    ("x" * 20_000, "too_big"),
]


@pytest.mark.parametrize(("text", "code"), MALFORMED)
def test_malformed_messages_are_refused_and_change_nothing(
    srv: LiveServer, solo: tuple[Client, str], text: str, code: str
) -> None:
    c, room = solo
    refused_unchanged(c, srv, room, text, code)


def test_binary_garbage_is_refused(srv: LiveServer, solo: tuple[Client, str]) -> None:
    c, room = solo
    refused_unchanged(c, srv, room, b"\xff\xfe\x00garbage", "bad_json")


def test_illegal_plays_are_refused_with_the_engine_reason(srv: LiveServer, solo: tuple[Client, str]) -> None:
    c, room = solo
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(60):
        s = until(c, srv, lambda s: s["options"]["phase"] == "play" and my_turn(s), rng=rng)
        hand = s["view"]["hand"]
        o = s["options"]
        missing = next(x for x in ("SA", "HA", "CA", "DA", "S3", "H3", "C3", "D3") if x not in hand)
        refused_unchanged(c, srv, room, {"type": "play", "cards": [missing]}, "not_in_hand")
        refused_unchanged(c, srv, room, {"type": "play", "cards": []}, "empty_play")
        if o.get("lead"):
            eff = o["eff"]
            a, b = 0, next((i for i, e in enumerate(eff) if e != eff[0]), None)
            if b is not None:
                m = refused_unchanged(c, srv, room, {"type": "play", "cards": [hand[a], hand[b]]}, "mixed_suits")
                seen.add(m["code"])
        else:
            n = o["follow"]["count"]
            if len(hand) > n:
                refused_unchanged(c, srv, room, {"type": "play", "cards": hand[: n + 1]}, "wrong_count")
                seen.add("wrong_count")
            off = [card for card, p in zip(hand, o["playable"], strict=True) if not p]
            if o["playable"].count(True) > n and len(off) >= n:
                m = refused_unchanged(c, srv, room, {"type": "play", "cards": off[:n]}, "must_follow_suit")
                assert "must follow" in m["reason"]
                assert m["why"] != m["reason"], "the coach explains which obligation applied"
                seen.add(m["code"])
        if {"mixed_suits", "must_follow_suit", "wrong_count"} <= seen:
            return
        c.act({"type": "play", "cards": legal_play(srv, room, 0, rng)})
    pytest.fail(f"only saw {seen}")


def test_refusals_come_in_the_players_language(srv: LiveServer) -> None:
    game = create_game(srv, seed=12)
    c = Client(srv, game["code"], token=game["token"], lang="zh")
    until(c, srv, lambda s: s["options"]["phase"] == "play")
    m = refused_unchanged(c, srv, game["code"], {"type": "play", "cards": []}, "empty_play")
    assert CJK.search(m["reason"]), m
    m = refused_unchanged(c, srv, game["code"], "{oops", "bad_json")
    assert CJK.search(m["reason"]), m
    c.send({"type": "lang", "lang": "en"})
    m = refused_unchanged(c, srv, game["code"], {"type": "play", "cards": []}, "empty_play")
    assert not CJK.search(m["reason"]), m
    c.close()


def test_actions_for_another_seat_are_refused(srv: LiveServer, solo: tuple[Client, str]) -> None:
    c, room = solo
    s = c.state
    assert s is not None
    cards = legal_play(srv, room, 0)
    for other in (1, 2, 3):
        refused_unchanged(c, srv, room, {"type": "play", "seat": other, "cards": cards}, "not_your_seat")
        refused_unchanged(c, srv, room, {"type": "pass", "seat": other}, "not_your_seat")
        refused_unchanged(c, srv, room, {"type": "bury", "seat": other, "cards": s["view"]["hand"][:8]}, "not_your_seat")
        refused_unchanged(c, srv, room, {"type": "declare", "seat": other, "cards": ["BJ", "BJ"]}, "not_your_seat")
    refused_unchanged(c, srv, room, {"type": "deal"}, "server_deals")
    # the same play for its own seat is accepted
    c.act({"type": "play", "seat": 0, "cards": cards})


def test_wrong_phase_actions_are_refused(srv: LiveServer, solo: tuple[Client, str]) -> None:
    c, room = solo
    s = c.state
    assert s is not None
    refused_unchanged(c, srv, room, {"type": "pass"}, "wrong_phase")
    refused_unchanged(c, srv, room, {"type": "bury", "cards": s["view"]["hand"][:8]}, "wrong_phase")
    code = c.refused({"type": "declare", "cards": s["view"]["hand"][:1]})["code"]
    assert code in ("wrong_phase", "bad_declaration")


def test_out_of_turn_and_spectators(srv: LiveServer) -> None:
    game = create_game(srv, seed=5, start=False)  # b sits before the deal, so it plays from the first round
    a = Client(srv, game["code"], token=game["token"])
    b = Client(srv, game["code"])  # a spectator until it sits
    assert b.state is not None and b.state["you"]["seat"] is None
    assert b.state["view"]["hand"] == []
    refused_unchanged(b, srv, game["code"], {"type": "play", "cards": ["SA"]}, "not_seated")
    refused_unchanged(b, srv, game["code"], {"type": "sit", "seat": 0}, "seat_taken")
    refused_unchanged(b, srv, game["code"], {"type": "sit", "seat": 7}, "bad_seat")
    b.request({"type": "sit", "seat": 2}, "seated")
    b.wait_state(lambda s: s["you"]["seat"] == 2)
    a.act({"type": "start"})
    rng = random.Random(1)
    done = 0
    deadline = time.monotonic() + 180  # (a loaded machine plays slowly; this is patience, not a timing)
    while time.monotonic() < deadline:
        for me, other in ((a, b), (b, a)):
            s = me.state
            assert s is not None
            if my_turn(s) and s["options"]["phase"] == "play":
                seat_other = other.state["you"]["seat"] if other.state else None
                cards = legal_play(srv, game["code"], s["you"]["seat"], rng)
                refused_unchanged(other, srv, game["code"], {"type": "play", "cards": cards}, "not_your_turn")
                refused_unchanged(
                    other, srv, game["code"], {"type": "play", "seat": s["you"]["seat"], "cards": cards}, "not_your_seat"
                )
                assert seat_other is not None
                done += 1
                me.act({"type": "play", "cards": cards})
                break
            if my_turn(s) and s["options"]["phase"] in ("declare", "bury"):
                if s["options"]["phase"] == "declare":
                    refused_unchanged(other, srv, game["code"], {"type": "pass"}, "not_your_turn")
                    me.act({"type": "pass"})
                else:
                    me.act({"type": "bury", "cards": s["view"]["hand"][:8]})
                break
        else:
            # neither has a decision yet: wait for the next state on either socket
            for cl in (a, b):
                try:
                    cl.recv(timeout=0.3)
                except TimeoutError:
                    pass
        if done >= 4:
            break
    assert done >= 4
    a.close()
    b.close()


def test_hello_first_and_unknown_room(srv: LiveServer) -> None:
    game = create_game(srv, seed=8)
    c = Client(srv, game["code"], hello=False)
    m = c.refused({"type": "play", "cards": ["SA"]})
    assert m["code"] == "hello_first"
    c.close()
    d = Client(srv, "NOSUCH", hello=False)
    m = d.recv()
    assert m["type"] == "refused" and m["code"] == "no_room"
    d.close()


def test_check_hint_ping_and_settings(srv: LiveServer, solo: tuple[Client, str]) -> None:
    c, room = solo
    before = snapshot(srv, room)
    cards = legal_play(srv, room, 0)
    ok = c.request({"type": "check", "cards": cards}, "checked")
    assert ok["ok"] is True
    bad = c.request({"type": "check", "cards": []}, "checked")
    assert bad["ok"] is False and bad["code"] == "empty_play" and bad["why"]
    hint = c.request({"type": "hint"}, "hint")
    assert hint["type"] == "hint" and hint["action"]["type"] == "play"
    hand = c.state["view"]["hand"] if c.state else []
    assert all(parse_cards([x]) for x in hint["action"]["cards"])
    assert all(x in hand for x in hint["action"]["cards"])
    assert c.request({"type": "ping"}, "pong")["type"] == "pong"
    assert snapshot(srv, room) == before, "check, hint and ping change nothing"
    c.send({"type": "settings", "timer": 30})
    c.wait_state(lambda s: s["room"]["settings"]["timer"] == 30)
    assert srv.call(lambda: room_of(srv, room).settings["timer"]) == 30
