"""Find-a-friend tables of 5 to 8 on the server (issue 11 item 10d): the rules check says what a
table size deals, a 5-seat room plays rounds with the calls in every view, and a spectator never
learns a hidden friend before it shows."""

from __future__ import annotations

import random

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, my_turn, play_turn, room_of  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


def test_the_rules_check_says_what_a_table_deals(tmp_path: object) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:  # type: ignore[operator]
        zh = {"X-Tuolaji-Lang": "zh"}
        seven = {"preset": "bianfeng-friend", "players": 7, "decks": 3}
        got = httpx.post(srv.url + "/api/rules/check", json={"rules": seven}, timeout=10).json()
        assert got == {"ok": True, "deal": {"players": 7, "decks": 3, "hand": 22, "kitty": 8, "friends": 2}}
        fixed = httpx.post(srv.url + "/api/rules/check", json={"rules": {"players": 5}}, headers=zh, timeout=10).json()
        assert fixed["ok"] is False and "找朋友" in fixed["error"]
        uneven = {"preset": "bianfeng-friend", "players": 5, "kitty_size": 7}
        bad = httpx.post(srv.url + "/api/rules/check", json={"rules": uneven}, headers=zh, timeout=10).json()
        assert bad["ok"] is False and "3、8" not in bad["error"] and "3, 8" in bad["error"], bad


def test_a_five_seat_room_plays_with_two_calls(tmp_path: object) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:  # type: ignore[operator]
        rules = {"preset": "bianfeng-friend", "players": 5, "friends": 2}
        game = create_game(srv, seed=9, rules=rules)
        c = Client(srv, game["code"], token=game["token"])
        watcher = Client(srv, game["code"])
        rng = random.Random(2)
        try:
            s = c.wait_state(lambda s: len(s["room"]["seats"]) == 5)
            assert len(s["view"]["hand_sizes"]) == 5 and s["view"]["friends"] == 2
            seen_hidden = False
            for _ in range(600):
                s = c.wait_state(lambda s: my_turn(s) or s["between"] or s["view"]["over"], timeout=30)
                if s["between"]:
                    break
                play_turn(c, srv, rng)
                rnd = srv.call(lambda: room_of(srv, game["code"]).match.round)
                watcher.drain()
                w = watcher.state
                if w is not None and rnd.friend_calls and not all(rnd.call_shown):
                    hidden = {x for x, shown in zip(rnd.call_seats, rnd.call_shown, strict=True) if x is not None and not shown}
                    seen_hidden |= bool(hidden)
                    assert not hidden & set(w["view"]["dealer_side"])
                    assert all(x["seat"] is None for x in w["view"]["friend_calls"] if not x["shown"])
            assert s["between"], "the round ended"
            result = s["summary"]["result"]
            assert 1 <= len(result["dealer_side"]) <= 3 and len(s["summary"]["sides"]) == 5
            assert seen_hidden
            # the replay and the record carry both calls
            code = game["code"]
            replay = httpx.get(srv.url + f"/api/games/{code}/replay?round=1&seat=0", timeout=30).json()
            assert len(replay["frames"][-1]["view"]["friend_calls"]) == 2
            record = httpx.get(
                srv.url + f"/api/games/{code}/record", headers={"X-Tuolaji-Token": c.token or ""}, timeout=30
            ).json()
            assert record["rules"]["players"] == 5 and record["rules"]["friends"] == 2
            assert sum(e["e"] == "friend_called" for e in record["events"]) == 2
        finally:
            c.close()
            watcher.close()
