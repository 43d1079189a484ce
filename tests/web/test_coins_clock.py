"""What a player sees of coins and the match clock, in Chinese on a phone: the clock and the purse
in the top bar, each round's coins and the purses in the round summary, the clock running out
(the match ends, the summary says why), and the table's own rules named in the rules help."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import WAIT_MS  # noqa: E402

from server_util import create_game, room_of  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

RULES = {"preset": "competition", "stake": 100, "override_count_multiplies_stake": True, "throw_penalty": "stake"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def _signed(text: str) -> int:
    return int(text.strip().replace("−", "-").replace("+", ""))


def test_coins_and_the_clock_on_a_phone_in_chinese(srv: LiveServer, browser: Any) -> None:
    game = create_game(srv, seed=9, speed="instant", token="tok-coins", rules=RULES)
    code = game["code"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True)
    ctx.set_default_timeout(WAIT_MS)
    try:
        ctx.add_init_script("localStorage.setItem('tuolaji.token', 'tok-coins'); localStorage.setItem('tuolaji.lang', 'zh')")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(srv.url + f"/r/{code}")
        clock = page.locator("#match-clock")
        clock.wait_for()
        assert re.fullmatch(r"剩余 (29|30):\d\d", clock.inner_text().strip()), clock.inner_text()
        assert page.locator("#my-purse").inner_text().replace(" ", "") == "金币0"
        # the rules help names this table's own rules first: the stake, the clock, the kitty
        page.click("#btn-rules-help")
        changed = page.locator("#rules-changed").inner_text()
        for label in ("底金", "每次反主，本局金币翻倍", "扣一半底金", "限时", "30", "拖拉机一律×16"):
            assert label in changed, (label, changed)
        page.click("#btn-help-close")
        # the computer plays the round for us; its summary shows the coins
        page.click("#btn-autoplay")
        coins = page.locator("#summary-coins")
        coins.wait_for(timeout=WAIT_MS * 2)
        assert "底金：每级 100 金币" in coins.inner_text()
        rows = coins.locator("tbody tr")
        assert rows.count() == 4
        round_coins = [_signed(rows.nth(i).locator("td").nth(0).inner_text()) for i in range(4)]
        assert any(round_coins) and sum(round_coins) <= 0 and sum(round_coins) % 50 == 0  # zero-sum less penalties
        assert "mine" in (rows.nth(0).get_attribute("class") or "")
        room = room_of(srv, code)
        # time is up: the clock jumps past the deadline, the driver ends the match

        def past_deadline() -> None:
            deadline = room.match_deadline
            room.clock = lambda: deadline + 1
            room.wakeup.set()

        srv.call(past_deadline)
        page.locator("#time-up").wait_for()
        assert "时间到" in page.locator("#time-up").inner_text()
        assert page.locator("#match-clock").inner_text().strip() == "时间到"
        assert page.locator("#summary-coins").is_visible()
        assert not errors, errors
    finally:
        ctx.close()
