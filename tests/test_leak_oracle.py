"""The leak oracle (server/leaks.py) itself: what made the fuzz harness's last two flags, and that
it still catches a real leak (issue 15 item 2).

The full fuzz run flagged two refusals naming ♠A. Both were the oracle's error: the client had
named SA itself in the message refused, but the state of a new round was already on its way
when it sent it; that state's round start forgot the cards the client had named (they were kept
with what the seat knows of the round), so the refusal that repeated them looked like a leak.
"""

from __future__ import annotations

from typing import Any

import pytest

from tuolaji.server.leaks import ClientStream

Msg = dict[str, Any]


def state(seat: int, hand: list[str], events: list[Msg]) -> Msg:
    return {"type": "state", "you": {"seat": seat}, "events": events, "view": {"hand": hand, "kitty": None, "phase": "deal"}}


def round_start(seat: int, card: str) -> list[Msg]:
    return [{"e": "round_started"}, {"e": "dealt", "seat": seat, "card": card}]


def refusal(text: str) -> Msg:
    return {"type": "refused", "code": "not_in_hand", "reason": text, "why": text}


def test_a_refusal_repeating_what_the_client_named_is_no_leak_across_a_round_start() -> None:
    stream = ClientStream(1)
    assert stream.received(state(1, ["S5"], round_start(1, "S5"))) == []
    stream.sent({"SA"})  # {"type": "play", "cards": ["SA"]}, while the next round's state is on its way
    assert stream.received(state(1, ["H3"], [{"e": "round_ended", "kitty": []}, *round_start(1, "H3")])) == []
    assert stream.received(refusal("you do not hold ♠A")) == []  # judged with the next state
    assert stream.received({"type": "pong", "re": 9}) == []
    stream.settled()
    assert stream.received(state(1, ["H3"], [])) == []


@pytest.mark.parametrize(
    "message",
    [
        refusal("you do not hold ♥K"),  # a card the client never named
        {"type": "hint", "action": {"type": "play", "cards": ["SA"]}},  # named, but a hint is no echo
    ],
)
def test_a_card_the_seat_may_not_see_is_still_caught(message: Msg) -> None:
    stream = ClientStream(1)
    stream.received(state(1, ["S5"], round_start(1, "S5")))
    stream.sent({"SA"})
    stream.received(message)
    leaks = stream.received(state(1, ["S5"], []))
    assert len(leaks) == 1 and ("HK" in str(leaks[0]) or "SA" in str(leaks[0]))


def test_named_cards_do_not_hide_a_later_leak() -> None:
    stream = ClientStream(2)
    stream.received(state(2, ["S5"], round_start(2, "S5")))
    stream.sent({"SA"})
    stream.received(refusal("you do not hold ♠A"))
    stream.received(state(2, ["S5"], []))
    stream.settled()  # answered: SA is no longer the client's own word
    stream.received(refusal("seat 0 holds ♠A"))
    assert len(stream.received(state(2, ["S5"], []))) == 1
