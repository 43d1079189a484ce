"""What one seat may know, message by message: the oracle of the leak tests and the fuzz harness.

Every message a client receives is replayed against what its seat legitimately knows at that
moment: its own dealt cards (and the kitty it picked up), cards shown in declarations, cards
played, and the kitty once the round is over. Card strings are looked for everywhere: card
fields, lists of options, and the coach's texts (♠A, 大王 ...). A client must have been there
from before the round's deal (its knowledge starts with the events it was sent).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any


class Leak(AssertionError):
    """A message carried a card its seat may not see."""


CARD_KEYS = {"hand", "cards", "kitty", "attempted", "card", "from_kitty", "declare", "beating"}
TEXT_KEYS = {"why", "reason", "note"}
PRETTY = re.compile(r"([♠♥♣♦])(10|[2-9JQKA])|(大王|小王)")
SUITS = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
ECHOING = {"refused", "checked"}  # replies that may repeat what the client sent
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
                if e["card"] is not None:
                    raise Leak(f"seat {self.seat} saw another seat's dealt card: {e}")
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
                if e["cards"] is not None:
                    raise Leak(f"seat {self.seat} saw a hidden kitty: {e}")
        elif kind == "declared":
            self.known.update(e["cards"])
        elif kind == "played":
            self.known.update(e["cards"])
            self.known.update(e.get("attempted") or [])
            self.known.update(e.get("beating") or [])  # shown to the table to stop a throw
            if mine:
                self.hand.subtract(e["cards"])
        elif kind == "round_ended":
            self.known.update(e["kitty"])
        elif kind == "friend_called":
            self.known.add(e["card"])

    def message(self, m: dict[str, Any], echoed: frozenset[str] = frozenset()) -> None:
        """Judge one message; ``echoed``: cards the client named itself in the message this one
        answers (a refusal may repeat them: "you hold no ♠A"), allowed in replies only."""
        if m["type"] == "state":
            assert "events_skipped" not in m
            for e in m.get("events", []):
                self.event(e)
            v = m["view"]
            if self.seat is None:
                if not (v["hand"] == []):
                    raise Leak("a spectator was sent a hand")
            elif m["you"]["seat"] == self.seat:
                if not (Counter(v["hand"]) == +self.hand):
                    raise Leak("the hand sent is not exactly the seat's own cards")
            if v["kitty"] is not None:
                if not (v["phase"] == "done" or self.buried_own):
                    raise Leak("the buried kitty was shown to another seat")
        cards = card_strings(m)
        allowed = self.known | echoed if m["type"] in ECHOING else self.known
        leaked = {c for c in cards if c not in allowed}
        if not (not leaked):
            raise Leak(f"seat {self.seat} was sent hidden cards {sorted(leaked)} in a {m['type']!r} message")
        self.checked += 1


class ClientStream:
    """One client's messages in the order they arrive, each judged by :class:`SeatKnowledge`.

    A reply (a refusal, a check, a pong) is queued before the state waiting on the same
    connection, so it may name a card played just before it that the client has not been shown
    yet, and that state may already be of the next round (whose start forgets the last one's
    cards): a reply is judged when the next state comes, by what the seat knew just before or
    just after it. The cards a client names itself (:meth:`sent`) excuse the refusal that
    repeats them, and nothing else: they are kept with each reply, not added to what the seat
    knows, so neither a round starting in between nor a later state can lose or hide them.
    """

    def __init__(self, seat: int | None) -> None:
        self.know = SeatKnowledge(seat)
        self.named: frozenset[str] = frozenset()
        self.held: list[tuple[dict[str, Any], frozenset[str]]] = []

    def sent(self, named: set[str] | frozenset[str]) -> None:
        """The client sent a message naming these cards; replies from now on may repeat them."""
        self.named |= named

    def settled(self) -> None:
        """Everything the client sent so far has been answered (a ping it sent last was)."""
        self.named = frozenset()

    def received(self, m: dict[str, Any]) -> list[Leak]:
        """Take one message; the leaks found (in it, or in the replies it let be judged)."""
        if m["type"] != "state":
            self.held.append((m, self.named))
            return []
        before = set(self.know.known)
        found = self._judge(m, frozenset())
        held, self.held = self.held, []
        if held:
            after = self.know.known
            self.know.known = before | after
            try:
                for reply, named in held:
                    found += self._judge(reply, named)
            finally:
                self.know.known = after
        return found

    def _judge(self, m: dict[str, Any], named: frozenset[str]) -> list[Leak]:
        try:
            self.know.message(m, named)
        except Leak as exc:
            return [exc]
        return []
