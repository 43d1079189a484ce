#!/usr/bin/env python3
"""A player's tour of every screen, for a person to look at: the start page, declaring, burying
the kitty, calling a friend (find-a-friend), a trick, the settings, the round summary, a LAN room
seen from two browsers, the end of a match and its replay, find-a-friend tables of 5, 7 and 8.
One viewport size per run.

    python scripts/tour.py --size 360x640 --lang zh --out /tmp/tour
    python scripts/tour.py --size 1366x768 --lang zh --out /tmp/tour

Needs the server and test extras and Debian's Chromium, as the browser tests. The images are
not committed; tests/web/test_layout.py and tests/web/test_tour.py check the rules a person
checks here (nothing overlaps, nothing hidden, no English in the Chinese table).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))  # the page-driving helpers of the browser tests

CHROMIUM = os.environ.get("TUOLAJI_CHROMIUM", "/usr/bin/chromium")
GOLDEN = ROOT / "tests" / "golden" / "match_seed157.json"  # a whole match, for the match end and the replay


def _context(browser: Any, lang: str, size: tuple[int, int], token: str) -> Any:
    w, h = size
    ctx = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US", viewport={"width": w, "height": h}, reduced_motion="reduce"
    )
    ctx.set_default_timeout(60_000)
    ctx.add_init_script(f"localStorage.setItem('tuolaji.token', '{token}'); localStorage.setItem('tuolaji.lang', '{lang}')")
    return ctx


def _until(page: Any, pred: Any, timeout: float = 120.0) -> None:
    from table_page import act

    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("the tour did not get there in time")
        if not act(page):
            page.wait_for_timeout(80)


def dealer_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    """Find-a-friend: declare during the deal (so this seat deals), bury, call the friend, play."""
    for seed in range(1, 40):
        if _dealer_seed(browser, url, lang, size, shoot, seed):
            return
    raise AssertionError("no seed let this seat deal")


def _dealer_seed(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any, seed: int) -> bool:
    import httpx
    from table_page import my_turn, phase

    token = f"tour-{lang}-{seed}"
    ctx = _context(browser, lang, size, token)
    page = ctx.new_page()
    body = {
        "seed": seed,
        "seat": 0,
        "speed": "slow",
        "difficulty": "easy",
        "rules": "bianfeng-friend",
        "name": "小明" if lang == "zh" else "Sam",
    }
    code = httpx.post(url + "/api/games", json=body, headers={"X-Tuolaji-Token": token}).json()["code"]
    page.goto(url + f"/r/{code}")
    try:
        page.locator(".declare-btn").first.wait_for(timeout=20_000)
    except Exception:
        ctx.close()
        return False
    shoot(page, "declare")
    page.locator(".declare-btn").first.click()
    while phase(page) in ("deal", "declare", "override"):
        if my_turn(page) and page.locator("#btn-pass").count():
            page.locator("#btn-pass").click()
        page.wait_for_timeout(100)
    if phase(page) != "bury" or not my_turn(page):
        ctx.close()
        return False
    page.locator("#btn-hint").click()
    page.locator("#hand .hand-card.selected").first.wait_for()
    shoot(page, "bury")
    page.locator("#btn-bury:not([disabled])").click()
    page.wait_for_function("() => document.querySelector('.table-page').dataset.phase === 'call_friend'")
    shoot(page, "call-friend")
    page.locator("#btn-call-friend:not([disabled])").click()
    _until(
        page,
        lambda: (
            phase(page) == "play"
            and my_turn(page)
            and page.locator("#trick:not(.finished) .play").count() == 0
            and page.locator("#hand .hand-card").count() <= 22
        ),
    )
    page.click("#prefs summary")
    shoot(page, "prefs")
    page.click("#prefs summary")
    page.locator("#btn-hint").click()
    page.locator("#hand .hand-card.selected").first.wait_for()
    shoot(page, "lead")
    page.locator("#btn-rules-help").click()
    page.locator("#btn-help-close").wait_for()
    shoot(page, "rules-help")
    page.locator("#btn-help-close").click()
    _until(page, lambda: phase(page) == "between", timeout=600)
    page.locator("#summary").wait_for()
    shoot(page, "summary")
    page.locator("#summary").evaluate("el => el.closest('.dialog').scrollTop = 1e6")
    shoot(page, "summary-end")
    ctx.close()
    return True


def lan_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    """A LAN room: the host's lobby, a guest who sits, the table from the guest's side with chat."""
    from table_page import act, my_turn, phase

    host_ctx = _context(browser, lang, size, f"tour-host-{lang}")
    guest_ctx = _context(browser, lang, size, f"tour-guest-{lang}")
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    host.goto(url + "/")
    host.select_option("#speed", "fast")
    host.click("#btn-create-room")
    host.locator("#lobby").wait_for()
    shoot(host, "lan-lobby-host")
    guest.goto(host.locator("#share-link").inner_text())
    guest.locator("[data-sit='2']").click()
    host.wait_for_function("() => document.querySelectorAll('[data-sit]').length <= 2")
    shoot(guest, "lan-lobby-guest")
    host.locator("#btn-start").click()
    guest.locator("#hand .hand-card").first.wait_for()
    pages = [host, guest]
    deadline = time.monotonic() + 240
    while not (phase(guest) == "play" and len(guest.locator("#hand .hand-card").all()) <= 22 and my_turn(guest)):
        if time.monotonic() > deadline:
            raise AssertionError("the LAN round did not get there")
        if not any(act(p) for p in pages):
            guest.wait_for_timeout(80)
    guest.locator("#chat-input").fill("好牌！" if lang == "zh" else "Nice!")
    guest.locator("#btn-chat").click()
    host.locator("#chat-lines li").first.wait_for()
    shoot(guest, "lan-guest")
    shoot(host, "lan-host")
    host_ctx.close()
    guest_ctx.close()


def match_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    """A finished match (the golden record, imported): its end, and a replay of its last round."""
    import httpx

    token = f"tour-import-{lang}"
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    r = httpx.post(url + "/api/import", json=record, headers={"X-Tuolaji-Token": token}, timeout=60)
    code = r.json()["code"]
    ctx = _context(browser, lang, size, token)
    page = ctx.new_page()
    page.goto(url + f"/r/{code}")
    page.locator("#summary").wait_for()
    shoot(page, "match-end")
    page.goto(url + f"/replay/{code}")
    page.locator("#rp-next").wait_for()
    for _ in range(12):
        page.locator("#rp-next-trick").click()
    shoot(page, "replay")
    ctx.close()


def seats_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    """Find-a-friend tables of 5, 7 and 8: following a trick with every other seat's cards on it."""
    import httpx
    from table_page import my_turn, phase

    for players, decks in ((5, 2), (7, 3), (8, 4)):
        token = f"tour-seats{players}-{lang}"
        ctx = _context(browser, lang, size, token)
        page = ctx.new_page()
        body = {
            "seed": 3,
            "seat": 0,
            "speed": "instant",
            "difficulty": "easy",
            "rules": {"preset": "bianfeng-friend", "players": players, "decks": decks},
        }
        code = httpx.post(url + "/api/games", json=body, headers={"X-Tuolaji-Token": token}).json()["code"]
        page.goto(url + f"/r/{code}")
        page.locator("#hand .hand-card").first.wait_for()
        _until(
            page,
            lambda page=page, players=players: (  # this loop's page and seat count, bound now
                phase(page) == "play" and my_turn(page) and page.locator("#trick:not(.finished) .play").count() == players - 1
            ),
            timeout=400,
        )
        page.locator("#btn-hint").click()
        page.locator("#hand .hand-card.selected").first.wait_for()
        shoot(page, f"seats{players}-follow")
        ctx.close()


def throw_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    """A failed throw, as seat 0 sees it right after (the browser tests' fake transport)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_client_modules import fake_table
    from test_table_feel import _state_after_a_failed_throw

    class Srv:
        pass

    srv = Srv()
    srv.url = url  # type: ignore[attr-defined]
    state, _ = _state_after_a_failed_throw()
    ctx = _context(browser, lang, size, f"tour-throw-{lang}")
    page = fake_table(srv, ctx, state)
    page.add_style_tag(url=url + "/static/style.css")
    page.evaluate(
        "async ([s, lang]) => { const { setLang } = await import('/static/js/i18n.js'); setLang(lang);"
        " window.room.deliver({ type: 'welcome', rules: { throw_penalty: 'stake', stake: 100, decks: 2 } });"
        " window.room.deliver(s); }",
        [state, lang],
    )
    page.locator("#failed-throw").wait_for()
    shoot(page, "failed-throw")
    ctx.close()


def reconnect_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    """The server goes away mid-round (its own process, stopped), then comes back."""
    import httpx

    sys.path.insert(0, str(ROOT / "tests"))
    from processes import free_port, serve, stop

    token = f"tour-reconnect-{lang}"
    with tempfile.TemporaryDirectory() as tmp:
        db, port = Path(tmp) / "g.sqlite3", free_port()
        own = f"http://127.0.0.1:{port}"
        proc = serve(db, port)
        try:
            body = {"seat": 0, "speed": "slow", "difficulty": "easy"}
            code = httpx.post(own + "/api/games", json=body, headers={"X-Tuolaji-Token": token}).json()["code"]
            ctx = _context(browser, lang, size, token)
            page = ctx.new_page()
            page.goto(own + f"/r/{code}")
            page.locator("#hand .hand-card").first.wait_for()
            stop(proc)
            page.locator(".banner:not([hidden])").wait_for()
            shoot(page, "reconnecting")
            proc = serve(db, port)
            page.locator(".banner[hidden]").wait_for(state="attached")
            shoot(page, "reconnected")
            ctx.close()
        finally:
            stop(proc)


def start_tour(browser: Any, url: str, lang: str, size: tuple[int, int], shoot: Any) -> None:
    ctx = _context(browser, lang, size, f"tour-start-{lang}")
    page = ctx.new_page()
    page.goto(url + "/")
    page.locator("#btn-new-game").wait_for()
    shoot(page, "start")
    page.locator(".rules-details summary").first.click()
    shoot(page, "start-rules")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    shoot(page, "start-bottom")
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("tour"))
    ap.add_argument("--size", default="360x640")
    ap.add_argument("--lang", default="zh")
    ap.add_argument("--only", default="start,dealer,throw,reconnect,lan,match,seats", help="which parts of the tour")
    args = ap.parse_args(argv)
    w, h = (int(x) for x in args.size.split("x"))

    from playwright.sync_api import sync_playwright

    from tuolaji.server.testing import LiveServer

    args.out.mkdir(parents=True, exist_ok=True)

    def shoot(page: Any, name: str) -> None:
        page.wait_for_timeout(200)
        path = args.out / f"{args.lang}-{w}x{h}-{name}.png"
        page.screenshot(path=str(path))
        print(path, flush=True)

    parts = {
        "start": start_tour,
        "dealer": dealer_tour,
        "throw": throw_tour,
        "reconnect": reconnect_tour,
        "lan": lan_tour,
        "match": match_tour,
        "seats": seats_tour,
    }
    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(Path(tmp) / "g.sqlite3", allow_seed=True) as srv,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        for name in args.only.split(","):
            parts[name](browser, srv.url, args.lang, (w, h), shoot)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
