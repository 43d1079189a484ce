"""Driving the table page like a player: read what the page shows, click what a player clicks."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

Page = Any

# How long a page may take to show what a test waits for. A wait ends as soon as the page shows
# it, so this only bounds a failure; it is long because a loaded 2-core machine (the whole suite,
# two workers) can stall a page or the server for many seconds. pytest-timeout bounds each test.
WAIT_MS = 90_000


@contextmanager
def players(browser: Any, *locales: str, **options: Any) -> Iterator[list[Page]]:
    """A page per locale, each in a browser context of its own (its own storage: another player)."""
    contexts = [browser.new_context(locale=locale, **options) for locale in locales]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(WAIT_MS)
        yield [ctx.new_page() for ctx in contexts]
    finally:
        for ctx in contexts:
            ctx.close()


def phase(page: Page) -> str:
    return page.get_attribute(".table-page", "data-phase") or ""


def my_turn(page: Page) -> bool:
    return page.get_attribute(".table-page", "data-my-turn") == "true"


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all("#hand .hand-card", "els => els.map(e => e.dataset.card)")


def wait_js(page: Page, script: str, arg: Any = None, timeout: float = WAIT_MS) -> None:
    page.wait_for_function(script, arg=arg, timeout=timeout)


def act(page: Page) -> bool:
    """Take the pending decision through the page (hint, then play / bury / pass); False if none."""
    if phase(page) == "between" or not my_turn(page):
        return False
    ph = phase(page)
    if ph in ("declare", "override"):
        # until the server has answered: the turn may come straight back (a computer player
        # declares in the last call and everyone may answer again) before the page sees it leave
        page.locator("#btn-pass").click()
        wait_js(page, "() => document.querySelector('.table-page').dataset.busy !== 'true'")
        return True
    if ph == "bury":
        page.locator("#btn-hint").click()
        page.locator("#btn-bury:not([disabled])").click()
        wait_js(page, "() => document.querySelector('.table-page').dataset.phase !== 'bury'")
        return True
    if ph == "call_friend":  # one call (of several friends, the next call's turn follows)
        calls = page.locator("#called-card strong").count()
        page.locator("#btn-call-friend:not([disabled])").click()
        wait_js(
            page,
            "n => document.querySelector('.table-page').dataset.phase !== 'call_friend' || "
            "document.querySelectorAll('#called-card strong').length > n",
            calls,
        )
        return True
    if ph == "play":
        n = len(hand(page))
        page.locator("#btn-hint").click()
        page.locator("#hand .hand-card.selected").first.wait_for()
        page.locator("#btn-play:not([disabled])").click()
        wait_js(
            page,
            "n => document.querySelectorAll('#hand .hand-card').length < n || "
            "document.querySelector('.table-page').dataset.phase === 'between'",
            n,
        )
        return True
    return False


def play_until(pages: list[Page], done: Any, timeout: float = 240.0) -> None:
    """Act on whichever page has a decision until ``done()``; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the game did not get there in time; phases: " + ", ".join(phase(p) for p in pages))
        if not any(act(p) for p in pages):
            pages[0].wait_for_timeout(60)


def new_game(page: Page, base: str, *, speed: str = "instant", difficulty: str = "easy") -> str:
    page.goto(base + "/")
    page.select_option("#speed", speed)
    page.select_option("#difficulty", difficulty)
    page.click("#btn-new-game")
    page.wait_for_url("**/r/*")
    page.locator("#hand .hand-card").first.wait_for()
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def next_round(page: Page) -> None:
    """From the round's summary, deal the next round (the second) and wait for the new hand."""
    page.locator("#btn-next-round").wait_for()
    page.click("#btn-next-round")
    wait_js(page, "() => document.querySelector('.table-page').dataset.phase !== 'between'")
    page.locator("#hand .hand-card").first.wait_for()
    assert "2" in page.locator(".topbar .round").inner_text()
