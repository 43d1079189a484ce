"""The end of a match (and a redeal) as players see it: a timed match whose clock runs out before any round
finished still gets its end screen, a tie nobody reached first reads as a draw (in the statistics too), and a failed
throw at a table with a stake says how many coins it cost."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import WAIT_MS  # noqa: E402
from test_client_modules import fake_table  # noqa: E402
from test_table_feel import _state_after_a_failed_throw  # noqa: E402

from server_util import create_game, room_of  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def _time_runs_out(srv: LiveServer, code: str) -> None:
    room = room_of(srv, code)

    def past_deadline() -> None:  # the clock jumps past the deadline; the room's driver ends the match
        deadline = room.match_deadline
        room.clock = lambda: deadline + 1
        room.wakeup.set()

    srv.call(past_deadline)


@pytest.mark.parametrize(
    ("locale", "lang", "draw", "size"),
    [("zh-CN", "zh", "比赛打平", (390, 844)), ("en-US", "en", "The match is a draw", (1280, 800))],
)
def test_time_up_in_the_first_round_shows_the_end_of_the_match_as_a_draw(
    srv: LiveServer, browser: Any, locale: str, lang: str, draw: str, size: tuple[int, int]
) -> None:
    """Seed 003: 如到了規定時間，雙方級數相同，則先到該級的一方勝出 — both sides still at 2, which
    neither reached first: nobody wins. Before, no end screen came (no round had finished) and the
    match named team 0 the winner."""
    token = f"tok-end-{lang}"
    game = create_game(srv, seed=11, speed="slow", token=token, rules={"preset": "competition", "stake": 100})
    code = game["code"]
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale)
    ctx.set_default_timeout(WAIT_MS)
    try:
        ctx.add_init_script(f"localStorage.setItem('tuolaji.token', '{token}'); localStorage.setItem('tuolaji.lang', '{lang}')")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(srv.url + f"/r/{code}")
        page.locator("#match-clock").wait_for()
        _time_runs_out(srv, code)
        end = page.locator("#match-end")
        end.wait_for()
        assert page.locator("#winner").inner_text().startswith(draw)
        assert page.locator("#time-up").is_visible()
        levels = page.locator("#match-end-levels").inner_text()
        assert levels.count(" 2") == 2, levels  # both sides at the start level
        purses = page.locator("#match-end-coins tbody tr")
        assert purses.count() == 4
        assert [purses.nth(i).locator("td").inner_text().strip() for i in range(4)] == ["0"] * 4
        assert page.locator("#match-end a").count() >= 2  # export and home; no replay without a finished round
        assert page.locator("#dialog-title").inner_text() == ("比赛结束" if lang == "zh" else "Match over")
        # the statistics count the match as drawn: played, neither won nor lost (before, a match the clock
        # ended with no round finished was not counted at all)
        page.goto(srv.url + "/")
        matches = page.locator("#stats tbody tr").first.locator("td").nth(3)
        assert matches.inner_text() == ("0 / 1 · 平 1 场" if lang == "zh" else "0 / 1 · 1 drawn"), matches.inner_text()
        assert not errors, errors
    finally:
        ctx.close()


def test_a_failed_throw_at_a_table_with_a_stake_names_its_coin_penalty(srv: LiveServer, context: Any) -> None:
    """Seed 004: 若玩家甩牌失败，则强制性出导致甩牌失败牌型中的最小牌并扣除当前房间底金的1/2 — the
    notice and the log line say how many coins the throw cost (half of a 100-coin stake)."""
    state, _ = _state_after_a_failed_throw()
    page = fake_table(srv, context, state)
    rules = {"throw_penalty": "stake", "stake": 100, "decks": 2}
    for lang, notice_text, log_text in (
        ("en", "Penalty: 50 coins (half the stake).", "(penalty 50 coins)"),
        ("zh", "罚 50 金币（底金的一半）。", "（罚 50 金币）"),
    ):
        page.evaluate(
            """async ([s, rules, lang]) => {
              const { setLang } = await import('/static/js/i18n.js'); setLang(lang);
              window.room.deliver({ type: 'welcome', rules }); window.room.deliver(s);
            }""",
            [state, rules, lang],
        )
        notice = page.locator("#failed-throw").inner_text()
        assert notice_text in notice, notice
        log = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
        assert any(log_text in line for line in log), log
    # without a stake a failed throw costs nothing: no penalty is named
    page.evaluate(
        "([s]) => { window.room.deliver({ type: 'welcome', rules: { throw_penalty: 'stake', stake: 0 } });"
        " window.room.deliver(s); }",
        [state],
    )
    assert "罚" not in page.locator("#failed-throw").inner_text()
    assert not page.errors


@pytest.mark.parametrize(
    ("rules", "names", "expect"),
    [
        ({"match_target_level": "6"}, ["7", "4"], "First to 6: the match ends there."),
        ({"match_end": "fixed_rounds", "match_rounds": 8}, ["5", "4"], "All 8 rounds played"),
    ],
)
def test_the_end_screen_says_why_the_match_ended(
    srv: LiveServer, context: Any, rules: dict[str, Any], names: list[str], expect: str
) -> None:
    """Seed 004 appendix: 一方先打到6结束; seed 003: a set number of rounds — the end screen says
    which ended the match (the time-up case is above)."""
    state, _ = _state_after_a_failed_throw()
    state = {**state, "summary": None, "view": {**state["view"], "over": True, "winner": 0, "draw": False, "time_up": False}}
    state["view"]["level_names"] = names
    page = fake_table(srv, context, state)
    page.evaluate(
        """async ([s, rules]) => {
          const { setLang } = await import('/static/js/i18n.js'); setLang('en');
          window.room.deliver({ type: 'welcome', rules }); window.room.deliver(s);
        }""",
        [state, rules],
    )
    page.locator("#match-end").wait_for()
    assert expect in page.locator("#match-end-why").inner_text()
    assert not page.errors


def test_the_log_names_who_asked_for_a_redeal(srv: LiveServer, context: Any) -> None:
    """Seed 000 C: 當對家玩家中有人手裡的牌少於15分，則可「暴動」，即重新洗牌摸牌。此時莊家不變。 —
    the log says who asked, and not that nobody declared."""
    state, _ = _state_after_a_failed_throw()
    state = {**state, "events": [{"e": "redeal_requested", "seat": 1}, {"e": "redealt"}]}
    page = fake_table(srv, context, state)
    log = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert any("asks for a redeal" in line and "dealer stays" in line for line in log), log
    assert not any("Nobody declared" in line for line in log), log
    assert not page.errors


@pytest.mark.parametrize(("winner", "draw", "won", "drawn"), [(0, False, 1, 0), (1, False, 0, 0), (None, True, 0, 1)])
def test_a_match_counts_once_in_the_statistics_as_won_lost_or_drawn(
    srv: LiveServer, context: Any, winner: int | None, draw: bool, won: int, drawn: int
) -> None:
    """Seat 0 (team 0) sees the match over: won, lost, or drawn (a timed match with no side ahead: played,
    neither won nor lost). States after the end count it once."""
    state, _ = _state_after_a_failed_throw()
    state = {**state, "view": {**state["view"], "over": True, "winner": winner, "draw": draw, "time_up": draw}}
    context.add_init_script("localStorage.removeItem('tuolaji.stats')")
    page = fake_table(srv, context, state)
    page.evaluate("(s) => { window.room.deliver(s); window.room.deliver(s); }", state)
    lines = page.evaluate("() => JSON.parse(localStorage.getItem('tuolaji.stats')).lines")
    (line,) = lines.values()
    assert (line["matches"], line["matchesWon"], line.get("matchesDrawn", 0)) == (1, won, drawn), line
    assert not page.errors
