"""Defect: the table did not fit. From a phone (360×640) to a large screen (2560×1440), and a phone
held sideways (640×360, 844×390), with a trick on the table and my cards selected: seat labels,
the cards played to the trick and the buttons never overlap, the hand and the action buttons are
on screen without scrolling, the page never scrolls sideways, and cards grow with the screen (big
cards for people who need them)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from table_page import WAIT_MS, my_turn, phase, play_until, wait_js  # noqa: E402

from tuolaji.server.testing import LiveServer  # noqa: E402

SIZES = [(360, 640), (800, 600), (1024, 600), (1920, 1080), (2560, 1440), (640, 360), (844, 390), (568, 320)]

# every box a player must be able to read or press, with the viewport's size and scroll
BOXES = """() => {
  const box = (el, kind) => { const r = el.getBoundingClientRect();
    return {kind, id: el.id || el.dataset.seat || el.textContent.trim().slice(0, 20),
            x: r.left, y: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const q = (sel) => [...document.querySelectorAll(sel)].filter(shown);
  return {
    seats: q('.felt .seat').map((e) => box(e, 'seat')),
    plays: q('#trick .play').map((e) => box(e, 'play')),
    buttons: q('#actions button').map((e) => box(e, 'button')),
    cards: q('#hand .hand-card').map((e) => box(e.querySelector('.card'), 'card')),
    felt: box(document.querySelector('.felt'), 'felt'),
    view: {w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, sy: scrollY},
  };
}"""


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["x"] < b["r"] - 1 and b["x"] < a["r"] - 1 and a["y"] < b["b"] - 1 and b["y"] < a["b"] - 1


def layout_problems(page: Any, size: tuple[int, int]) -> list[str]:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_timeout(100)
    got = page.evaluate(BOXES)
    v = got["view"]
    where = f"{size[0]}×{size[1]}"
    bad = []
    if v["sw"] > v["w"] + 1:
        bad.append(f"{where}: the page scrolls sideways ({v['sw']} > {v['w']})")
    labels, plays, buttons, cards = got["seats"], got["plays"], got["buttons"], got["cards"]
    if len(plays) < 3 or len(labels) < 4 or not buttons or not cards:
        bad.append(f"{where}: missing pieces: {len(labels)} seats, {len(plays)} plays, {len(buttons)} buttons")
    things = labels + plays + buttons
    for i, a in enumerate(things):
        for b in things[i + 1 :]:
            if overlap(a, b):
                bad.append(f"{where}: {a['kind']} {a['id']} overlaps {b['kind']} {b['id']}")
    for a in labels + plays:
        f = got["felt"]
        if a["x"] < f["x"] - 1 or a["r"] > f["r"] + 1 or a["y"] < f["y"] - 1 or a["b"] > f["b"] + 1:
            bad.append(f"{where}: {a['kind']} {a['id']} sticks out of the table")
    for a in buttons + cards:
        if a["y"] < 0 or a["b"] > v["h"] + 1 or a["x"] < 0 or a["r"] > v["w"] + 1:
            bad.append(f"{where}: {a['kind']} {a['id']} is off screen at {a['x']:.0f},{a['y']:.0f}-{a['b']:.0f}")
    big = min(size[0] / 1920, size[1] / 1080)
    if big >= 1 and cards and cards[0]["h"] < 0.11 * size[1]:
        bad.append(f"{where}: cards are small on a large screen ({cards[0]['h']:.0f} px high)")
    return bad


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_table_fits_every_screen(tmp_path: Any, browser: Any, locale: str) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        token = "layout-test"
        code = httpx.post(
            srv.url + "/api/games",
            json={"seed": 11, "seat": 0, "speed": "instant", "difficulty": "easy"},
            headers={"X-Tuolaji-Token": token},
        ).json()["code"]
        # motion off: a card caught mid-flight is not where the layout puts it
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale=locale, reduced_motion="reduce")
        ctx.set_default_timeout(WAIT_MS)
        ctx.add_init_script(f"localStorage.setItem('tuolaji.token', '{token}')")
        page = ctx.new_page()
        page.goto(srv.url + f"/r/{code}")
        page.locator("#hand .hand-card").first.wait_for()
        # my turn to follow, with the other three's cards on the table and a selection made
        play_until(
            [page], lambda: phase(page) == "play" and my_turn(page) and page.locator("#trick:not(.finished) .play").count() == 3
        )
        page.locator("#btn-hint").click()
        page.locator("#hand .hand-card.selected").first.wait_for()
        wait_js(page, "() => !document.querySelector('#btn-play').disabled")
        problems = [p for size in SIZES for p in layout_problems(page, size)]
        ctx.close()
    assert not problems, "\n".join(problems)


def test_the_start_page_fits_a_phone_with_the_rules_open(tmp_path: Any, browser: Any) -> None:
    """Defect seen on a 360 px phone: the rules fieldset, long rule options and the file input
    widened the start page, which scrolled sideways and cut off the language button."""
    with LiveServer(tmp_path / "g.sqlite3") as srv:
        ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="zh-CN")
        page = ctx.new_page()
        page.goto(srv.url + "/")
        page.locator("#btn-new-game").wait_for()
        page.locator(".rules-details summary").first.click()
        problems = []
        for w, h in [(360, 640), (320, 568), *SIZES[1:3]]:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(100)
            wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
              .map((e) => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)""")
            if wide:
                problems.append(f"{w}×{h}: wider than the screen: {wide}")
        ctx.close()
    assert not problems, "\n".join(problems)
