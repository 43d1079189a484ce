"""A room builds the table view once for all its connections (projection.seat_view): every
seat must still get exactly what ``table_view`` gives it, at every moment of play."""

from __future__ import annotations

import pytest

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.engine.match import Match
from tuolaji.server.projection import seat_view, table_view


@pytest.mark.parametrize("rules", ["classic", "bianfeng-friend", "kq-competition"])
def test_every_seat_sees_what_table_view_shows_it(rules: str) -> None:
    match = Match(rules=rules, seed=4)
    table = Table(match, [make_bot("random", seed=i) for i in range(match.rules.players)], seed=1)
    steps = 0
    while len(match.rounds) < 2 and not match.over and steps < 3000:
        table.step()
        steps += 1
        public = table_view(match, None)
        for seat in (None, *range(match.rules.players)):
            assert seat_view(match, public, seat) == table_view(match, seat), (rules, steps, seat)
    assert len(match.rounds) >= 1
