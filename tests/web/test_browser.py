"""Real Chromium plays through the page: a whole round against bots, two browsers in one LAN room,
a reload mid-round, a server restart mid-game, declaring during the deal, phone size, Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from table_page import act, hand, my_turn, new_game, next_round, phase, play_until, players, wait_js  # noqa: E402

from processes import free_port, serve, stop  # noqa: E402
from tuolaji.server.app import lan_addresses  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", host="0.0.0.0", allow_seed=True) as s:
        yield s


def console_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_a_whole_round_against_the_computer(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    errors = console_errors(page)
    new_game(page, srv.url)
    assert page.locator("#levels").inner_text()
    # keyboard: move along the hand and select with the space bar, Escape clears
    page.locator("#hand .hand-card").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.locator("#hand .hand-card[aria-selected='true']").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("#hand .hand-card[aria-selected='true']").count() == 0
    play_until([page], lambda: phase(page) == "between")
    summary = page.locator("#summary")
    summary.wait_for()
    total = int(page.locator("#summary-total").inner_text())
    assert 0 <= total <= 400
    assert page.locator("#summary .kitty-end .card").count() == 8, "the kitty is shown at the end"
    assert page.locator("#summary-result").inner_text()
    assert page.locator("#review").is_visible()
    next_round(page)
    assert not errors, errors


def test_two_browsers_play_in_one_lan_room(srv: LiveServer, browser: Any) -> None:
    lan = httpx.get(srv.url + "/api/info").json()["lan_urls"]
    base = lan[0].rstrip("/") if lan else srv.url
    if not lan:
        ip = (lan_addresses() or ["127.0.0.1"])[0]
        base = f"http://{ip}:{srv.port}"
    with players(browser, "en-US", "zh-CN", viewport={"width": 1200, "height": 800}) as (a, b):
        errors_a, errors_b = console_errors(a), console_errors(b)  # the lists the listeners fill
        a.goto(base + "/")
        a.select_option("#speed", "instant")
        a.select_option("#difficulty", "easy")
        a.fill("#name", "Alice")
        a.click("#btn-create-room")
        a.locator("#lobby").wait_for()
        link = a.locator("#share-link").inner_text()
        assert link.startswith(base), (link, base)
        b.goto(link)
        b.locator("#lobby").wait_for()
        b.click("[data-sit='2']")
        wait_js(a, "() => document.querySelectorAll('[data-sit]').length === 2")
        a.click("#btn-start")
        b.locator("#hand .hand-card").first.wait_for()
        assert b.get_attribute(".table-page", "data-seat") == "2"
        assert a.get_attribute(".table-page", "data-seat") == "0"
        play_until([a, b], lambda: phase(a) == "between" and phase(b) == "between")
        assert a.locator("#summary-total").inner_text() == b.locator("#summary-total").inner_text()
        # both confirm, and the next round deals to both
        a.click("#btn-next-round")
        b.click("#btn-next-round")
        for p in (a, b):
            wait_js(p, "() => document.querySelector('.table-page').dataset.phase !== 'between'")
        assert not errors_a and not errors_b, (errors_a, errors_b)


def test_reload_mid_round_resumes(srv: LiveServer, context: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # the reload must come back within the reconnect grace, or the computer rightly plays the
    # turn meanwhile (the hand changes): 3 s is short for a page reload on a loaded machine
    from tuolaji.server import room as room_module

    monkeypatch.setattr(room_module, "RECONNECT_GRACE", 120.0)
    page = context.new_page()
    new_game(page, srv.url)
    play_until([page], lambda: phase(page) == "play" and my_turn(page) and len(hand(page)) <= 22)
    before = hand(page)
    page.reload()
    page.locator("#hand .hand-card").first.wait_for()
    wait_js(page, "() => document.querySelector('.table-page').dataset.myTurn === 'true'")
    assert hand(page) == before
    assert act(page)
    assert len(hand(page)) < len(before) or phase(page) == "between"


def test_server_restart_mid_game_resumes(tmp_path: Path, context: Any) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    proc = serve(db, port)
    try:
        page = context.new_page()
        code = new_game(page, f"http://127.0.0.1:{port}")
        play_until([page], lambda: phase(page) == "play" and my_turn(page) and len(hand(page)) <= 21)
        before = hand(page)
        stop(proc)
        page.locator(".banner:not([hidden])").wait_for()  # the page says it is reconnecting
        proc = serve(db, port)
        page.locator(".banner[hidden]").wait_for(state="attached")
        wait_js(page, "() => document.querySelector('.table-page').dataset.myTurn === 'true'")
        assert hand(page) == before
        assert page.url.endswith(f"/r/{code}")
        assert act(page)
        # the start page lists the game to resume
        page.goto(f"http://127.0.0.1:{port}/")
        page.locator(f"[data-resume='{code}']").wait_for()
    finally:
        stop(proc)


def test_declaring_during_the_deal(srv: LiveServer, context: Any) -> None:
    # a deal whose first card (seat 0's) is a 2, the level, and whose next 31 hold no 2 and no
    # joker: the declare button shows while the cards are still being dealt, and no computer
    # player can declare (or override) before the click lands
    from tuolaji.engine.match import Match

    def good(seed: int) -> bool:
        deck = Match(seed=seed).deals[0]
        return deck[0] < 52 and deck[0] % 13 == 0 and all(c < 52 and c % 13 != 0 for c in deck[1:32])

    seed = next(s for s in range(1000) if good(s))
    token = "declare-test-token"
    body = {"seed": seed, "seat": 0, "speed": "slow", "difficulty": "easy"}
    game = httpx.post(srv.url + "/api/games", json=body, headers={"X-Tuolaji-Token": token}).json()
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('tuolaji.token', '{token}')")
    page.goto(srv.url + f"/r/{game['code']}")
    button = page.locator(".declare-btn").first
    button.wait_for()
    assert phase(page) == "deal"
    button.click()
    wait_js(
        page,
        "() => [...document.querySelectorAll('#log li')].some(li => li.textContent.includes('South (you) declares'))"
        " || document.querySelector('#refusal')",
    )
    assert page.locator("#refusal").count() == 0, page.locator("#refusal").inner_text()  # declared, not refused


def test_phone_layout_in_chinese(srv: LiveServer, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = console_errors(page)
    page.goto(srv.url + "/")
    assert page.locator("#btn-new-game").inner_text() == "开始"
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    page.select_option("#speed", "instant")
    page.click("#btn-new-game")
    page.locator("#hand .hand-card").first.wait_for()
    wait_js(page, "() => document.querySelector('.table-page').dataset.myTurn === 'true'")
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] + 1, f"the page scrolls sideways on a phone: {width}"
    box = page.locator("#hand .hand-card").last.bounding_box()
    assert box and box["x"] + box["width"] <= 391
    page.locator("#hand .hand-card").first.tap(position={"x": 6, "y": 20})  # the visible strip of an overlapped card
    assert page.locator("#hand .hand-card[aria-selected='true']").count() == 1
    assert not errors, errors
    ctx.close()


def test_rules_panel_checks_settings(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    page.goto(srv.url + "/")
    page.click(".rules-details summary")
    page.fill("#rule-decks", "9")
    page.locator("#rule-decks").dispatch_event("change")
    page.locator(".rules-msg.bad").wait_for()
    page.select_option("#rules-preset", "classic")
    assert page.locator("#rules-preset").input_value() == "classic"


def test_replay_a_finished_round(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    code = new_game(page, srv.url)
    play_until([page], lambda: phase(page) == "between")
    page.goto(srv.url + f"/replay/{code}")
    page.locator("#rp-next").wait_for()
    page.select_option("#replay-seat", "1")
    page.locator("#rp-step").wait_for()
    for _ in range(6):
        page.click("#rp-next")
    text = page.locator("#rp-step").inner_text()
    assert "Trick 1" in text or "Trick 2" in text, text
    page.click("#rp-next-trick")
    assert page.locator(".replay-table #hand .hand-card").count() > 0


def test_tuolaji_opens_the_table_and_resumes(srv: LiveServer, context: Any) -> None:
    """``tuolaji`` opens /play: a new table against the computer, and the same one next time."""
    page = context.new_page()
    page.goto(srv.url + "/play")
    page.wait_for_url("**/r/*")
    page.locator("#hand .hand-card").first.wait_for()
    code = page.url.rsplit("/", 1)[1]
    page.goto(srv.url + "/play")
    page.wait_for_url(f"**/r/{code}")
    page.locator("#hand .hand-card").first.wait_for()


def test_the_end_of_a_match(srv: LiveServer, context: Any) -> None:
    """A finished match (imported here) shows the winner, with replay and export at hand."""
    from tuolaji.bots.driver import Table
    from tuolaji.bots.registry import make_bot
    from tuolaji.engine.match import Match
    from tuolaji.record import dumps

    match = Match(seed=9)
    Table(match, [make_bot("random", seed=i) for i in range(4)]).play_match()
    code = httpx.post(srv.url + "/api/import", content=dumps(match)).json()["code"]
    page = context.new_page()
    page.goto(srv.url + f"/r/{code}")
    page.locator("#winner").wait_for()
    assert "Match over" in page.locator("#summary h2").inner_text()
    page.locator("#summary a[href$='/record']").wait_for()
    page.click(f"#summary a[href='/replay/{code}']")
    page.locator("#rp-next").wait_for()
