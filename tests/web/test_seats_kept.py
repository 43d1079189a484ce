"""Defect: a restart could lose your seat. After Ctrl+C and an immediate restart ``tuolaji play``
keeps its port (the old one waits in TIME_WAIT), so the page reconnects to the same seat; and the
player at this computer opened from another origin (``localhost`` instead of ``127.0.0.1``: no
token in that origin's storage) still gets their own game from ``/play``, seated, not watching."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import WAIT_MS, hand, my_turn, phase, play_until, wait_js  # noqa: E402

from processes import Proc, free_port, stop, tuolaji, wait_up  # noqa: E402


def start_play(db: Path, port: int) -> tuple[Proc, str]:
    """``tuolaji play --port PORT``; returns the process and the address it says it serves."""
    log = db.with_suffix(f".{time.monotonic_ns()}.log")
    proc = tuolaji("play", "--port", str(port), "--db", str(db), log=log)
    deadline = time.monotonic() + 60
    while not (found := re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text(errors="replace"))):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise AssertionError(f"tuolaji play said: {log.read_text(errors='replace')!r}")
        time.sleep(0.05)
    url = found.group(0).rstrip("/")
    wait_up(proc, url, log)
    return proc, url


def test_a_restart_and_another_origin_keep_your_seat(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    proc, url = start_play(db, port)
    assert url == f"http://127.0.0.1:{port}"
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        page.add_init_script(
            "localStorage.setItem('tuolaji.speed', 'instant'); localStorage.setItem('tuolaji.difficulty', 'easy')"
        )
        page.goto(url + "/play")
        page.wait_for_url("**/r/*")
        code = page.url.rsplit("/", 1)[1]
        page.locator("#hand .hand-card").first.wait_for()
        play_until([page], lambda: phase(page) == "play" and my_turn(page) and len(hand(page)) <= 22)
        before = hand(page)
        stop(proc, signal.SIGINT)  # Ctrl+C; the page's connections are closed by the server: the port waits in TIME_WAIT
        proc, again = start_play(db, port)
        assert again == url, f"the restarted table moved from {url} to {again}"
        wait_js(page, "() => document.querySelector('.table-page').dataset.myTurn === 'true'")
        assert hand(page) == before
        # the same player opens the table as http://localhost:PORT: another origin, no token there
        other = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        other.set_default_timeout(WAIT_MS)
        try:
            p2 = other.new_page()
            p2.goto(f"http://localhost:{port}/play")
            p2.wait_for_url(f"**/r/{code}")
            p2.locator("#hand .hand-card").first.wait_for()
            assert p2.get_attribute(".table-page", "data-seat") == "0", "seated, not watching"
            assert sorted(hand(p2)) == sorted(before)
        finally:
            other.close()
    finally:
        ctx.close()
        stop(proc, signal.SIGINT)
