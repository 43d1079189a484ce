"""A 7-player find-a-friend table in a real browser (issue 11 item 10d): the create-game screen
offers the table size and says what it deals, the felt seats seven without overlaps on a phone
and a desktop, and the dealer's calls show in the top bar."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import my_turn, phase, play_until, wait_js  # noqa: E402
from test_layout import layout_problems  # noqa: E402

from tuolaji.server.testing import LiveServer  # noqa: E402


def test_a_seven_player_find_a_friend_table(tmp_path: Any, browser: Any) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN", reduced_motion="reduce")
        ctx.set_default_timeout(90_000)
        page = ctx.new_page()
        try:
            page.goto(srv.url + "/")
            page.select_option("#rules-preset", "classic")
            page.select_option("#rules-players", "7")
            # an odd table plays find-a-friend; the deal follows the size (3 decks: 22 each, kitty 8)
            wait_js(page, "() => document.querySelector('#rules-deal').textContent.includes('7 人')")
            deal = page.locator("#rules-deal").inner_text()
            assert "3 副牌" in deal and "每人 22 张" in deal and "底牌 8 张" in deal and "找朋友，庄家叫 2 个朋友" in deal, deal
            page.select_option("#speed", "instant")
            page.select_option("#difficulty", "easy")
            page.click("#btn-new-game")
            page.wait_for_url("**/r/*")
            page.locator("#hand .hand-card").first.wait_for()
            assert page.locator(".felt .seat").count() == 7
            places = page.eval_on_selector_all(".felt .seat", "els => els.map(e => e.dataset.pos)")
            assert len(set(places)) == 7, places
            # my turn to follow, with the six others' cards on the table
            play_until(
                [page],
                lambda: phase(page) == "play" and my_turn(page) and page.locator("#trick:not(.finished) .play").count() == 6,
                timeout=400,
            )
            assert page.locator("#called-card strong[data-call]").count() == 2
            page.locator("#btn-hint").click()
            page.locator("#hand .hand-card.selected").first.wait_for()
            wait_js(page, "() => !document.querySelector('#btn-play').disabled")
            problems = [p for size in [(360, 640), (1366, 768), (1920, 1080)] for p in layout_problems(page, size)]
        finally:
            ctx.close()
    assert not problems, "\n".join(problems)
