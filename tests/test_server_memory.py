"""What a room keeps of finished rounds (issue 15: the soak's memory): the event log keeps the
JSON of the current and the last finished round only, and still gives every seat exactly its
view of any event, old or new, to a client or a save that fell behind."""

from __future__ import annotations

from typing import Any

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.engine.match import Match, RoundStarted
from tuolaji.server.projection import EventLog


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
