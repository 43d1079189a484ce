"""The table's defects from issue 12, each reproduced in a real browser: the game log after a
reload, seat names relative to the viewer, double clicks, auto-play, replay and start page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import hand, my_turn, new_game, phase, play_until  # noqa: E402

from tuolaji.server.testing import LiveServer  # noqa: E402


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def log_lines(page: Any) -> list[str]:
    return page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")


def test_the_log_survives_a_reload(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    new_game(page, srv.url)
    play_until([page], lambda: phase(page) == "play" and my_turn(page) and len(hand(page)) <= 22)
    before = log_lines(page)
    assert any("trick" in line for line in before), before
    page.reload()
    page.locator("#hand .hand-card").first.wait_for()
    page.locator("#log li").first.wait_for()
    after = log_lines(page)
    assert after[-len(before):] == before, (before, after)
