"""Find-a-friend tables of 5, 7 and 8 in a real browser (issue 11 item 10d), in Chinese: the
create-game screen offers the table size and says what it deals, the felt seats everyone without
overlaps on a phone and a desktop, and the dealer's calls show in the top bar."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import my_turn, phase, play_until, wait_js  # noqa: E402
from test_layout import layout_problems  # noqa: E402

from tuolaji.server.testing import LiveServer  # noqa: E402

# table size -> what the create-game screen says it deals (the decks follow the size)
DEALS = {
    5: ("5 人", "2 副牌", "每人 20 张", "底牌 8 张", "庄家叫 1 个朋友"),
    7: ("7 人", "3 副牌", "每人 22 张", "底牌 8 张", "找朋友，庄家叫 2 个朋友"),
    8: ("8 人", "4 副牌", "每人 26 张", "底牌 8 张", "庄家叫 3 个朋友"),
}


@pytest.mark.parametrize("players", sorted(DEALS))
def test_a_find_a_friend_table_of_five_to_eight(tmp_path: Any, browser: Any, players: int) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN", reduced_motion="reduce")
        ctx.set_default_timeout(90_000)
        page = ctx.new_page()
        try:
            page.goto(srv.url + "/")
            # fixed partners: an odd size switches to find-a-friend; an even one stays as the preset says
            page.select_option("#rules-preset", "classic" if players % 2 else "bianfeng-friend")
            page.select_option("#rules-players", str(players))
            # an odd table plays find-a-friend; the deal follows the size (e.g. 7: 3 decks, 22 each, kitty 8)
            wait_js(page, "(n) => document.querySelector('#rules-deal').textContent.includes(n + ' 人')", players)
            deal = page.locator("#rules-deal").inner_text()
            assert all(part in deal for part in DEALS[players]), deal
            page.select_option("#speed", "instant")
            page.select_option("#difficulty", "easy")
            page.click("#btn-new-game")
            page.wait_for_url("**/r/*")
            page.locator("#hand .hand-card").first.wait_for()
            assert page.locator(".felt .seat").count() == players
            places = page.eval_on_selector_all(".felt .seat", "els => els.map(e => e.dataset.pos)")
            assert len(set(places)) == players, places

            # my turn to follow, with every other seat's cards on the table (a round in which
            # the player never plays last is played out, then the next one dealt)
            def following_last() -> bool:
                return (
                    phase(page) == "play" and my_turn(page) and page.locator("#trick:not(.finished) .play").count() == players - 1
                )

            for _ in range(4):
                play_until([page], lambda: following_last() or phase(page) == "between", timeout=240)
                if following_last():
                    break
                page.locator("#btn-next-round").click()
                wait_js(page, "() => document.querySelector('.table-page').dataset.phase !== 'between'")
            else:
                raise AssertionError("the player never played last in four rounds")
            assert page.locator("#called-card strong[data-call]").count() == players // 2 - 1
            page.locator("#btn-hint").click()
            page.locator("#hand .hand-card.selected").first.wait_for()
            wait_js(page, "() => !document.querySelector('#btn-play').disabled")
            problems = [p for size in [(360, 640), (1366, 768), (1920, 1080)] for p in layout_problems(page, size)]
        finally:
            ctx.close()
    assert not problems, "\n".join(problems)
