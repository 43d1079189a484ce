"""No client ever receives a card its seat may not see, in any message type or HTTP answer.

Every message each client received during a whole round is replayed against what that seat
legitimately knows at that moment: its own dealt cards (and the kitty it picked up), cards shown
in declarations, cards played, and the kitty once the round is over. Card strings are looked
for everywhere: card fields, lists of options, and the coach's texts (♠A, 大王 ...).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, legal_play, my_turn, room_of, until  # noqa: E402
from tuolaji.cards import parse_card  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

CARD_KEYS = {"hand", "cards", "kitty", "attempted", "card", "from_kitty", "declare"}
TEXT_KEYS = {"why", "reason", "note"}
PRETTY = re.compile(r"([♠♥♣♦])(10|[2-9JQKA])|(大王|小王)")
SUITS = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
TOKEN = re.compile(r"^(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)$")


def card_strings(obj: Any, key: str | None = None, out: list[str] | None = None) -> list[str]:
    """Every card mentioned in a message, outside the round summary (public) and the events
    (checked one by one, in order, by :class:`SeatKnowledge`)."""
    out = [] if out is None else out
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("summary", "events"):
                continue
            card_strings(v, k, out)
    elif isinstance(obj, list):
        for v in obj:
            card_strings(v, key, out)
    elif isinstance(obj, str):
        if key in CARD_KEYS and TOKEN.match(obj):
            out.append(obj)
        elif key in TEXT_KEYS:
            for m in PRETTY.finditer(obj):
                if m.group(3):
                    out.append("BJ" if m.group(3) == "大王" else "LJ")
                else:
                    out.append(SUITS[m.group(1)] + m.group(2))
    return out


class SeatKnowledge:
    """Replays one client's messages, tracking what its seat may know."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: set[str] = set()
        self.hand: Counter[str] = Counter()
        self.buried_own = False
        self.checked = 0

    def new_round(self) -> None:
        self.known = set()
        self.hand = Counter()
        self.buried_own = False

    def event(self, e: dict[str, Any]) -> None:
        kind = e["e"]
        mine = self.seat is not None and e.get("seat") == self.seat
        if kind == "round_started":
            self.new_round()
        elif kind == "dealt":
            if mine:
                assert e["card"] is not None
                self.known.add(e["card"])
                self.hand[e["card"]] += 1
            else:
                assert e["card"] is None, f"seat {self.seat} saw another seat's dealt card: {e}"
        elif kind in ("kitty_taken", "buried"):
            if mine:
                assert e["cards"] is not None
                self.known.update(e["cards"])
                if kind == "kitty_taken":
                    self.hand.update(e["cards"])
                else:
                    self.hand.subtract(e["cards"])
                    self.buried_own = True
            else:
                assert e["cards"] is None, f"seat {self.seat} saw a hidden kitty: {e}"
        elif kind == "declared":
            self.known.update(e["cards"])
        elif kind == "played":
            self.known.update(e["cards"])
            self.known.update(e.get("attempted") or [])
            if mine:
                self.hand.subtract(e["cards"])
        elif kind == "round_ended":
            self.known.update(e["kitty"])
        elif kind == "friend_called":
            self.known.add(e["card"])

    def message(self, m: dict[str, Any]) -> None:
        if m["type"] == "state":
            assert "events_skipped" not in m
            for e in m.get("events", []):
                self.event(e)
            v = m["view"]
            if self.seat is None:
                assert v["hand"] == [], "a spectator was sent a hand"
            elif m["you"]["seat"] == self.seat:
                assert Counter(v["hand"]) == +self.hand, "the hand sent is not exactly the seat's own cards"
            if v["kitty"] is not None:
                assert v["phase"] == "done" or self.buried_own, "the buried kitty was shown to another seat"
        cards = card_strings(m)
        leaked = {c for c in cards if c not in self.known}
        assert not leaked, f"seat {self.seat} was sent hidden cards {sorted(leaked)} in a {m['type']!r} message"
        self.checked += 1


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
