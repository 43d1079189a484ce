"""The table's defects from issue 12, each reproduced in a real browser: the game log after a
reload, seat names relative to the viewer, double clicks, auto-play, replay and start page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from table_page import hand, my_turn, new_game, phase, play_until, players, wait_js  # noqa: E402

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
    assert after[-len(before) :] == before, (before, after)


def seat_label(page: Any, pos: str) -> tuple[str, str]:
    el = page.locator(f".felt .seat[data-pos='{pos}']")
    return str(el.get_attribute("data-seat")), el.locator(".seat-name").inner_text()


def lobby_places(page: Any) -> dict[int, str]:
    """Each lobby row's seat name, by seat."""
    rows = page.eval_on_selector_all(
        "#lobby .lobby-seat", "els => els.map(e => [e.dataset.seat, e.querySelector('.lobby-place').textContent])"
    )
    return {int(seat): name for seat, name in rows}


def test_seats_are_named_as_the_viewer_sees_them(srv: LiveServer, browser: Any) -> None:
    with players(browser, "en-US", "zh-CN") as (host, guest):
        host.goto(srv.url + "/")
        host.select_option("#speed", "slow")
        host.fill("#name", "Alice")
        host.click("#btn-create-room")
        host.locator("#lobby").wait_for()
        guest.goto(host.locator("#share-link").inner_text())
        # the lobby names seats as the table will: a visitor not seated yet by the spectator's names
        guest.locator("#lobby .lobby-seat").first.wait_for()
        assert lobby_places(guest) == {0: "南家", 1: "东家", 2: "北家", 3: "西家"}
        guest.click("[data-sit='1']")
        guest.locator("#lobby .lobby-seat.mine[data-seat='1']").wait_for()
        host.locator("[data-sit]").first.wait_for()
        host.wait_for_function("() => document.querySelectorAll('[data-sit]').length === 2")
        # seated: from the viewer's own seat, in the table's words (我/下家/对家/上家; South = you)
        assert lobby_places(guest) == {0: "上家", 1: "我", 2: "下家", 3: "对家"}
        assert lobby_places(host) == {0: "South", 1: "East", 2: "North", 3: "West"}
        assert "(you)" in host.locator("#lobby .lobby-seat[data-seat='0']").inner_text()
        assert "(你)" not in guest.locator("#lobby .lobby-seat[data-seat='1']").inner_text()  # 我 says it
        host.click("#btn-start")
        guest.locator(".felt .seat[data-pos='left']").wait_for()
        host.locator(".felt .seat[data-pos='left']").wait_for()
        # the guest in seat 1: 我 at the bottom, 下家 (seat 2) on the right, 对家 across, 上家 (the host) on the left
        assert seat_label(guest, "bottom")[0] == "1" and seat_label(guest, "bottom")[1].startswith("我")
        assert seat_label(guest, "right")[0] == "2" and seat_label(guest, "right")[1].startswith("下家")
        assert seat_label(guest, "top")[0] == "3" and seat_label(guest, "top")[1].startswith("对家")
        # the host chose a name: it shows, and beside it where she sits (上家)
        assert seat_label(guest, "left")[0] == "0" and seat_label(guest, "left")[1].startswith("Alice")
        assert guest.locator(".felt .seat[data-pos='left'] .seat-place").inner_text() == "上家"
        assert guest.locator(".felt .seat .seat-place").count() == 1, "an unnamed seat's name already says it"
        # the host in seat 0, in English: the compass follows the screen, the host at South
        assert seat_label(host, "bottom")[0] == "0" and seat_label(host, "bottom")[1].startswith("Alice (you)")
        assert host.locator(".felt .seat .seat-place").count() == 0
        assert seat_label(host, "right")[0] == "1" and seat_label(host, "right")[1].startswith("East")
        assert seat_label(host, "left")[0] == "3" and seat_label(host, "left")[1].startswith("West")


def test_the_table_comes_into_view_when_the_game_starts_on_a_phone(srv: LiveServer, browser: Any) -> None:
    with players(browser, "zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True) as (host,):
        host.goto(srv.url + "/")
        host.select_option("#speed", "slow")
        host.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # down to the start page's buttons
        host.click("#btn-create-room")
        host.locator("#lobby").wait_for()
        assert host.evaluate("() => scrollY") == 0, "the room opens at its top"
        host.evaluate("() => window.scrollTo(0, 400)")  # the host scrolled the lobby down to Start
        assert host.evaluate("() => scrollY") > 0
        host.click("#btn-start")
        host.locator("#hand .hand-card").first.wait_for()
        assert host.evaluate("() => scrollY") == 0
        assert host.locator(".topbar").bounding_box()["y"] >= 0, "the top bar (room, levels, trump) is in view"


def test_double_clicks_start_one_game_and_play_once(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    page.goto(srv.url + "/")
    page.select_option("#speed", "fast")
    page.select_option("#difficulty", "easy")
    before = len(httpx.get(srv.url + "/api/games").json()["games"])
    page.dblclick("#btn-new-game")
    page.wait_for_url("**/r/*")
    page.locator("#hand .hand-card").first.wait_for()
    page.wait_for_timeout(500)
    assert len(httpx.get(srv.url + "/api/games").json()["games"]) == before + 1, "one press, one game"
    play_until([page], lambda: phase(page) == "play" and my_turn(page), timeout=120)
    n = len(hand(page))
    page.locator("#btn-hint").click()
    page.locator("#hand .hand-card.selected").first.wait_for()
    page.locator("#btn-play:not([disabled])").dblclick()
    page.wait_for_function("n => document.querySelectorAll('#hand .hand-card').length < n", arg=n)
    page.wait_for_timeout(400)
    assert page.locator("#refusal").count() == 0, page.locator("#refusal").all_inner_texts()


def test_auto_play_says_so_and_the_summary_waits(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    new_game(page, srv.url, speed="fast")  # the next round starts by itself after a short break
    page.click("#btn-autoplay")
    page.locator("#status.autoplay").wait_for()
    assert "Auto-play" in page.locator("#status").inner_text()
    assert page.locator("#btn-autoplay-off").is_visible()
    # the round ends and the next starts by itself; the summary stays until closed
    page.wait_for_function("() => document.querySelector('.topbar .round').textContent.includes('2')", timeout=120_000)
    assert page.locator("#summary").is_visible()
    assert "Round 1" in page.locator("#summary h2").inner_text()
    page.click("#btn-summary-close")
    page.locator("#summary").wait_for(state="detached")
    # the round counts in the player's statistics on the start page
    page.goto(srv.url + "/")
    row = page.locator("#stats tbody tr").first
    row.wait_for()
    assert "/ 1" in row.inner_text() or "/ 2" in row.inner_text(), row.inner_text()


def test_play_mode_says_how_to_serve_the_network(tmp_path: Any, context: Any) -> None:
    with LiveServer(tmp_path / "g.sqlite3", mode="play") as play:
        page = context.new_page()
        page.goto(play.url + "/")
        text = page.locator("#lan").inner_text()
        assert "tuolaji serve" in text and "http://" not in text, text


def test_replay_shows_the_top_bar_and_stays_usable_and_delete_is_for_players(srv: LiveServer, browser: Any) -> None:
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    code = new_game(page, srv.url)
    play_until([page], lambda: phase(page) == "between")
    page.goto(srv.url + f"/replay/{code}")
    page.locator("#rp-next").wait_for()
    page.locator(".replay-table #trump").wait_for()
    assert page.locator(".replay-table #points").is_visible()
    for _ in range(3):
        page.click("#rp-next-trick")
    for _ in range(40):  # to the end of the round, where a summary used to cover the buttons
        if page.locator("#replay-result").count():
            break
        page.click("#rp-next-trick")
    page.locator("#replay-result").wait_for()
    page.click("#rp-prev", timeout=30_000)  # fails when something covers it
    page.click("#rp-next", timeout=30_000)
    # the start page offers Delete on my games only
    other = browser.new_context(locale="en-US")
    stranger = other.new_page()
    stranger.goto(srv.url + "/")
    stranger.locator(f"tr[data-code='{code}']").wait_for()
    assert stranger.locator(f"[data-delete='{code}']").count() == 0
    page.goto(srv.url + "/")
    page.locator(f"[data-delete='{code}']").wait_for()
    other.close()
    ctx.close()


def test_the_chinese_start_page_and_table_speak_chinese(srv: LiveServer, browser: Any) -> None:
    ctx = browser.new_context(locale="zh-CN")
    page = ctx.new_page()
    page.goto(srv.url + "/")
    page.click(".rules-details summary")
    texts = page.eval_on_selector_all(
        ".rules-panel option, .rules-panel .rule span, #preset-about", "els => els.map(e => e.textContent)"
    )
    english = [x for x in texts if re.search(r"[A-Za-z]{3,}", x) and x not in ("Titanic",)]
    assert not english, english
    assert not any("种子" in x for x in texts)
    page.fill("#rule-decks", "9")
    page.locator("#rule-decks").dispatch_event("change")
    page.locator(".rules-msg.bad").wait_for()
    msg = page.locator(".rules-msg.bad").inner_text()
    assert "几副牌" in msg and not re.search(r"[A-Za-z]{3,}", msg), msg
    page.goto(srv.url + "/")  # back to playable rules
    page.select_option("#speed", "slow")
    page.click("#btn-new-game")
    page.locator("#deal-info").wait_for()
    assert "已发" in page.locator("#deal-info").inner_text()
    ctx.close()


def points_of(cards: list[str]) -> int:
    return sum(5 if c[1:] == "5" else 10 if c[1:] in ("10", "K") else 0 for c in cards)


def test_what_players_watch(srv: LiveServer, context: Any) -> None:
    """Scored cards add up to the attackers' points; the counter counts exactly the cards the
    player cannot see; points still in play and taken add up to the deck's 200."""
    page = context.new_page()
    new_game(page, srv.url)

    def leading_late() -> bool:
        return (
            phase(page) == "play"
            and my_turn(page)
            and len(hand(page)) <= 15
            and page.locator("#trick:not(.finished) .play").count() == 0
        )

    for _ in range(4):  # a round in which the player never leads late is played out; then the next
        play_until([page], lambda: leading_late() or phase(page) == "between")
        if leading_late():
            break
        page.locator("#btn-next-round").click()
        wait_js(page, "() => document.querySelector('.table-page').dataset.phase !== 'between'")
    else:
        raise AssertionError("the player never led late in four rounds")
    scored = page.eval_on_selector_all("#scored-cards .card", "els => els.map(e => e.dataset.card)")
    attackers = int(page.locator("#watch h2 strong").inner_text())
    assert points_of(scored) == attackers, (scored, attackers)
    left = int(page.locator("#points-left strong").inner_text())
    lines = log_lines(page)
    this_round = lines[max((i for i, line in enumerate(lines) if line.startswith("—")), default=0) :]  # after "— round n —"
    taken = sum(int(x) for x in re.findall(r"\((\d+) (?:points|分)\)", " ".join(this_round)))
    assert left + taken == 200, (left, taken)
    counts = [int(x) for x in page.eval_on_selector_all("#counter [data-group]", "els => els.map(e => e.textContent)")]
    sizes = page.eval_on_selector_all(".felt .seat:not(.me) .seat-cards", "els => els.map(e => e.textContent)")
    others = sum(int(re.sub(r"\D", "", x)) for x in sizes)
    i_buried = page.locator(".felt .seat.me .badge.dealer").count() == 1
    assert sum(counts) == others + (0 if i_buried else 8), (counts, others, i_buried)


def test_find_a_friend_shows_the_called_card_and_unknown_seats(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    page.goto(srv.url + "/")
    page.select_option("#rules-preset", "bianfeng-friend")
    page.select_option("#speed", "instant")
    page.select_option("#difficulty", "easy")
    page.click("#btn-new-game")
    page.locator("#hand .hand-card").first.wait_for()
    play_until([page], lambda: phase(page) == "play")
    page.locator("#called-card").wait_for()
    assert page.locator("#called-card").inner_text().strip()
    # before the friend shows (or the dealer holds both called cards: one against three), only the
    # dealer is marked and the others are unknown; never "attacker" for seats nobody can know.
    # The computer players play on meanwhile: badges and log are read at one moment, in one call
    unknown, att, revealed = page.evaluate(
        "() => [document.querySelectorAll('.felt .badge.unknown').length,"
        " document.querySelectorAll('.felt .badge.att').length,"
        " [...document.querySelectorAll('#log li')].some(li => li.textContent.includes('friend'))]"
    )
    assert (unknown == 3 and att == 0) or (unknown == 0 and att in (2, 3)), (unknown, att)
    if revealed:
        assert unknown == 0


def test_lan_room_chat_kick_password_and_rules_help(srv: LiveServer, browser: Any) -> None:
    with players(browser, "en-US", "zh-CN") as (host, guest):
        host.goto(srv.url + "/")
        host.select_option("#speed", "slow")
        host.fill("#room-password", "Qx7pw")
        host.click("#btn-create-room")
        host.locator("#lobby").wait_for()
        guest.goto(host.locator("#share-link").inner_text())
        guest.locator("#password-input").fill("Qx7pw")  # the room asks for its password
        guest.click("#btn-password")
        guest.click("[data-sit='2']")
        # the page sends the password it was given with its HTTP requests (record, replay, info)
        code = host.locator("#share-link").inner_text().rstrip("/").rsplit("/", 1)[-1]
        read = (
            "async c => { const { api } = await import('/static/js/api.js'); try { "
            "return (await api(`/api/games/${c}/record`, { headers: { 'X-Tuolaji-Token': '' } })).rules !== undefined;"
            " } catch (e) { return String(e); } }"
        )
        assert guest.evaluate(read, code) is True
        guest.evaluate("() => sessionStorage.clear()")  # a page that was not given the password
        assert "需要密码" in guest.evaluate(read, code)
        host.wait_for_function("() => document.querySelectorAll('[data-sit]').length === 2")
        host.click("#btn-start")
        guest.locator("#chat-input").wait_for()
        guest.locator("#chat").get_by_role("button", name="打得好！").click()
        host.locator("#chat-lines li", has_text="打得好！").wait_for()
        host.locator("#chat-input").fill("thanks")
        host.keyboard.press("Enter")
        guest.locator("#chat-lines li", has_text="thanks").wait_for()
        # the rules of this table, in the player's language
        guest.click("#btn-rules-help")
        guest.locator("#rules-help").wait_for()
        assert "几副牌" in guest.locator("#rules-help").inner_text()
        guest.click("#btn-help-close")
        # the host gives the guest's seat to the computer
        host.once("dialog", lambda d: d.accept())
        host.click("[data-kick='2']")
        guest.wait_for_function("() => document.querySelector('.table-page').dataset.seat === ''")
