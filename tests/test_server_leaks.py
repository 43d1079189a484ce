"""No client ever receives a card its seat may not see, in any message type or HTTP answer.

Every message each client received during a whole round is replayed against what that seat
legitimately knows at that moment: its own dealt cards (and the kitty it picked up), cards shown
in declarations, cards played, and the kitty once the round is over. Card strings are looked
for everywhere: card fields, lists of options, and the coach's texts (♠A, 大王 ...).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, legal_play, my_turn, room_of, until  # noqa: E402
from tuolaji.cards import parse_card  # noqa: E402
from tuolaji.server.leaks import SeatKnowledge, card_strings  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def test_no_message_carries_a_hidden_card(srv: LiveServer) -> None:
    game = create_game(srv, seed=21, start=False)
    code = game["code"]
    a = Client(srv, code, token=game["token"])
    b = Client(srv, code)
    b.request({"type": "sit", "seat": 2}, "seated")
    spectator = Client(srv, code, lang="zh")
    a.send({"type": "start"})
    rng = random.Random(4)
    kinds: set[str] = set()
    for _ in range(3000):
        if a.state is not None and a.state["between"]:
            break  # the round is over (the summary was sent)
        acted = False
        for c in (a, b):
            s = c.state
            if s is None or s["between"] or not my_turn(s):
                continue
            acted = True
            o = s["options"]
            if o["phase"] == "declare":
                c.act({"type": "pass"})
            elif o["phase"] == "bury":
                c.request({"type": "hint"}, "hint")
                c.request({"type": "check", "cards": s["view"]["hand"][:8], "action": "bury"}, "checked")
                c.act({"type": "bury", "cards": s["view"]["hand"][:8]})
            elif o["phase"] == "play":
                c.request({"type": "hint"}, "hint")
                hand = s["view"]["hand"]
                off = [x for x, p in zip(hand, o.get("playable") or [True] * len(hand), strict=True) if not p]
                if o.get("follow") and off and o["playable"].count(True) > o["follow"]["count"]:
                    kinds.add(c.refused({"type": "play", "cards": off[: o["follow"]["count"]]})["code"])
                cards = legal_play(srv, code, s["you"]["seat"], rng)
                c.request({"type": "check", "cards": cards}, "checked")
                c.act({"type": "play", "cards": cards})
        if not acted:
            for c in (a, b):
                try:
                    c.recv(timeout=0.2)
                except TimeoutError:
                    pass
        for _ in range(200):  # the spectator reads as the game goes: a client that never reads stops answering pings
            try:
                spectator.recv(timeout=0)
            except TimeoutError:
                break
    assert a.state is not None and a.state["between"], "the round did not finish"
    assert kinds, "some illegal follow was tried (and refused with the coach's why)"
    # drain what is left on every socket
    a.request({"type": "ping"}, "pong")
    b.request({"type": "ping"}, "pong")
    spectator.request({"type": "ping"}, "pong")
    spectator.refused({"type": "play", "cards": ["SA"]})
    for client, seat in ((a, 0), (b, 2), (spectator, None)):
        know = SeatKnowledge(seat)
        types = Counter(m["type"] for m in client.msgs)
        for m in client.msgs:
            know.message(m)
        assert know.checked == len(client.msgs)
        expected = {"welcome", "state", "pong"} | ({"hint", "checked", "seated"} if seat == 2 else set())
        assert expected <= set(types), types
    assert any(m["type"] == "refused" for m in b.msgs + a.msgs)


def test_http_answers_carry_no_hidden_card(srv: LiveServer) -> None:
    game = create_game(srv, seed=22)
    code = game["code"]
    a = Client(srv, code, token=game["token"])
    until(a, srv, lambda s: s["options"]["phase"] == "play" and s["view"]["tricks_played"] >= 2)
    current_deal = srv.call(lambda: list(room_of(srv, code).match.deals[-1]))
    # the game list and room info carry no cards at all
    for path in ("/api/games", f"/api/games/{code}"):
        r = httpx.get(srv.url + path, headers={"X-Tuolaji-Token": game["token"]})
        assert r.status_code == 200
        assert not [x for x in card_strings(r.json()) if x], r.text[:300]
        assert '"seed"' not in r.text
    # the export of a game in progress stops at the last finished round: no seed, no current deal
    rec = httpx.get(srv.url + f"/api/games/{code}/record").json()
    assert rec["seed"] is None
    assert len(rec["deals"]) == 1
    assert [parse_card(x) for x in rec["deals"][0]] != current_deal
    assert all(e["e"] != "played" for e in rec["events"])
    # the current round cannot be replayed
    r = httpx.get(srv.url + f"/api/games/{code}/replay", params={"round": 1, "seat": 1})
    assert r.status_code == 400
    a.close()
