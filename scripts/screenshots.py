#!/usr/bin/env python3
"""Screenshots of the table for review: the start page, a trick in play and the round summary, at
phone to desktop sizes, in Chinese and English. The images are for people to look at; they are
not committed (the layout rules are checked by tests/web/test_layout.py).

    python scripts/screenshots.py                      # → ./screenshots/*.png
    python scripts/screenshots.py --out /tmp/shots --sizes 360x640,1920x1080 --langs zh
    python scripts/screenshots.py --rules '{"preset": "competition", "stake": 100}'   # coins and the clock

Needs the server and test extras and Debian's Chromium (/usr/bin/chromium), as the browser tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))  # the page-driving helpers of the browser tests

SIZES = "360x640,640x360,800x600,1366x768,1920x1080"  # 640x360: a phone held sideways
CHROMIUM = os.environ.get("TUOLAJI_CHROMIUM", "/usr/bin/chromium")


def table_shots(browser: Any, url: str, lang: str, seed: int, shoot: Callable[[Any, str], None], rules: Any = None) -> None:
    """One language: the start page, a trick in play (before and after a selection), the summary."""
    import httpx
    from table_page import act, my_turn, phase, play_until, wait_js

    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US", viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(30_000)
    token = f"screenshots-{lang}"
    ctx.add_init_script(f"localStorage.setItem('tuolaji.token', '{token}'); localStorage.setItem('tuolaji.lang', '{lang}')")
    page = ctx.new_page()
    page.goto(url + "/")
    page.locator("#btn-new-game").wait_for()
    shoot(page, f"{lang}-start")
    body = {"seed": seed, "seat": 0, "speed": "instant", "difficulty": "easy", "name": "小明" if lang == "zh" else "Sam"}
    if rules is not None:
        body["rules"] = rules
    code = httpx.post(url + "/api/games", json=body, headers={"X-Tuolaji-Token": token}).json()["code"]
    page.goto(url + f"/r/{code}")
    page.locator("#hand .hand-card").first.wait_for()
    # a trick in play: my turn with the three others' cards on the table, after a few tricks
    play_until(
        [page],
        lambda: (
            phase(page) == "play"
            and my_turn(page)
            and page.locator("#trick:not(.finished) .play").count() == 3
            and page.locator("#hand .hand-card").count() <= 20
        ),
    )
    shoot(page, f"{lang}-trick")
    page.locator("#btn-hint").click()
    page.locator("#hand .hand-card.selected").first.wait_for()
    wait_js(page, "() => !document.querySelector('#btn-play').disabled")
    shoot(page, f"{lang}-selected")
    act(page)
    play_until([page], lambda: phase(page) == "between")
    page.locator("#summary").wait_for()
    shoot(page, f"{lang}-summary")
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("screenshots"))
    ap.add_argument("--sizes", default=SIZES, help=f"WIDTHxHEIGHT,... (default {SIZES})")
    ap.add_argument("--langs", default="zh,en")
    ap.add_argument("--seed", type=int, default=11, help="the deal (the same table every run)")
    ap.add_argument(
        "--rules", type=json.loads, default=None, help="rules of the table as JSON: a preset name in quotes or a settings object"
    )
    args = ap.parse_args(argv)
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]

    from playwright.sync_api import sync_playwright

    from tuolaji.server.testing import LiveServer

    args.out.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []

    def shoot(page: Any, name: str) -> None:
        for w, h in sizes:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(150)
            path = args.out / f"{name}-{w}x{h}.png"
            page.screenshot(path=str(path))
            shots.append(path)

    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(Path(tmp) / "g.sqlite3", allow_seed=True) as srv,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        for lang in args.langs.split(","):
            table_shots(browser, srv.url, lang, args.seed, shoot, args.rules)
        browser.close()
    for p in shots:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
