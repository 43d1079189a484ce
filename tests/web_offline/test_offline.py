"""The offline build in a real browser: the game runs in the page's Web Worker on Pyodide, with
nothing but the static folder. A whole round against the computer, a reload mid-round, a start
with the network cut (service worker), an import of a server-exported record, and the saves list
refusing a damaged or foreign save."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from offline_util import StaticServer, booted
from table_page import hand, my_turn, next_round, phase, play_until, wait_js

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.cards import cards_str
from tuolaji.engine.match import Match
from tuolaji.record import from_record
from tuolaji.server.api import export_record

Page = Any


def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def start_game(page: Page, base: str, *, speed: str = "instant", difficulty: str = "easy") -> str:
    page.goto(base + "/")
    booted(page)
    page.select_option("#speed", speed)
    page.select_option("#difficulty", difficulty)
    page.click("#btn-new-game")
    page.wait_for_url("**/#/r/*")
    page.locator("#hand .hand-card").first.wait_for()
    return str(page.url.rsplit("/", 1)[1])


def test_a_whole_round_against_the_computer(context: Any, static_server: StaticServer) -> None:
    page = context.new_page()
    errors = console_errors(page)
    page.goto(static_server.url + "/")
    page.locator("#boot progress").wait_for()  # the progress indicator while the runtime loads
    code = start_game(page, static_server.url)
    play_until([page], lambda: phase(page) == "between")
    page.locator("#summary").wait_for()
    total = int(page.locator("#summary-total").inner_text())
    assert 0 <= total <= 400
    assert page.locator("#summary .kitty-end .card").count() == 8, "the kitty is shown at the end"
    # export from the start page: the server's record format, the finished round only (no seed)
    page.goto(static_server.url + "/#/")
    with page.expect_download() as download:
        page.click(f"a[data-export='{code}']")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["format"] == "tuolaji-record" and record["seed"] is None
    assert any(e.get("e") == "round_ended" for e in record["events"])
    # the replay of the finished round, from the worker like everything else
    page.goto(static_server.url + f"/#/replay/{code}")
    page.locator("#rp-next").wait_for()
    for _ in range(6):
        page.click("#rp-next")
    assert "Trick" in page.locator("#rp-step").inner_text()
    page.goto(static_server.url + f"/#/r/{code}")
    next_round(page)
    assert not errors, errors


SAVED = """code => new Promise((resolve, reject) => {
  const open = indexedDB.open("tuolaji", 1);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const get = open.result.transaction(["saves"], "readonly").objectStore("saves").get(code);
    get.onsuccess = () => { open.result.close(); resolve(typeof get.result === "string" ? get.result : ""); };
    get.onerror = () => reject(get.error);
  };
})"""


def wait_saved(page: Page, code: str, shown: list[str], seconds: float = 60.0) -> None:
    """Until the browser's save of ``code`` holds the hand the page shows (the worker saves a
    changed game about once a second; a loaded machine may take longer)."""
    seat = int(page.get_attribute(".table-page", "data-seat") or "0")
    deadline = time.monotonic() + seconds
    while True:
        text = page.evaluate(SAVED, code)
        if text and sorted(cards_str(from_record(json.loads(text)["record"]).round.hands[seat])) == sorted(shown):
            return
        assert time.monotonic() < deadline, "the game was not saved as shown"
        page.wait_for_timeout(100)


def test_a_reload_mid_round_resumes_the_same_game(context: Any, static_server: StaticServer) -> None:
    page = context.new_page()
    code = start_game(page, static_server.url)
    play_until(
        [page],
        lambda: phase(page) == "play" and len(hand(page)) < 25 and page.get_attribute(".table-page", "data-my-turn") == "true",
    )
    before = sorted(hand(page))
    wait_saved(page, code, before)
    page.reload()  # a new worker: the game comes back from IndexedDB
    booted(page)
    assert page.url.endswith(f"#/r/{code}")
    page.locator("#hand .hand-card").first.wait_for()
    wait_js(page, "n => document.querySelectorAll('#hand .hand-card').length === n", len(before))
    assert sorted(hand(page)) == before, "the same hand after the reload"
    play_until([page], lambda: len(hand(page)) <= len(before) - 3)  # and it goes on
    page.goto(static_server.url + "/#/")  # the start page lists it to resume
    page.locator(f"[data-resume='{code}']").wait_for()


def test_a_second_visit_with_the_network_cut_resumes_and_plays(context: Any, static_server: StaticServer) -> None:
    """The seed's "done when": play, close, come back with no network, the same game goes on."""
    page = context.new_page()
    code = start_game(page, static_server.url)
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active", timeout=60_000)
    play_until([page], lambda: phase(page) == "play" and my_turn(page))  # the others wait for this player now
    before = sorted(hand(page))
    wait_saved(page, code, before)
    page.close()
    static_server.stop()  # nothing answers any more
    context.set_offline(True)
    try:
        page = context.new_page()
        page.goto(static_server.url + "/")  # from the service worker's cache
        timings = booted(page)
        assert timings["timings"]["ready"] > 0
        page.locator(f"[data-resume='{code}']").click()
        page.locator("#hand .hand-card").first.wait_for()
        wait_js(page, "n => document.querySelectorAll('#hand .hand-card').length === n", len(before))
        assert sorted(hand(page)) == before, "the same game, as it was left"
        play_until([page], lambda: phase(page) == "play" and len(hand(page)) <= 20)
        page.goto(static_server.url + "/#/")  # and a new game starts offline too
        page.click("#btn-new-game")
        page.wait_for_function(f"() => location.hash.startsWith('#/r/') && !location.hash.endsWith('{code}')")
        page.locator("#hand .hand-card").first.wait_for()
    finally:
        context.set_offline(False)


def _server_export(tmp_path: Path) -> Path:
    """A record exported the way the server exports a game in progress: one finished round."""
    match = Match(seed=7)
    table = Table(match, [make_bot("random", seed=s) for s in range(4)])
    while len(match.rounds) < 1 or match.round.dealt < 20:  # mid-deal of round 2, like a live game
        table.step()
    path = tmp_path / "tuolaji-server-export.json"
    path.write_text(json.dumps(export_record(match), ensure_ascii=False), encoding="utf-8")
    return path


def test_an_imported_server_record_continues(context: Any, static_server: StaticServer, tmp_path: Path) -> None:
    record = _server_export(tmp_path)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(static_server.url + "/")
    booted(page)
    page.set_input_files("#import-file", str(record))
    page.wait_for_url("**/#/r/*")
    page.locator("[data-sit='0']").click()  # an imported unfinished game opens as a lobby
    page.locator("#btn-start").click()
    page.locator("#hand .hand-card").first.wait_for()
    assert "2" in page.locator(".topbar .round").inner_text(), "it goes on with the second round"
    play_until([page], lambda: phase(page) == "play" and len(hand(page)) <= 20)
    assert not errors, errors


def test_damaged_and_foreign_saves_are_refused_and_nothing_else_is_lost(context: Any, static_server: StaticServer) -> None:
    page = context.new_page()
    page.goto(static_server.url + "/")
    booted(page)
    code = page.evaluate("""async () => {
      const { api, setToken } = await import("./static/js/api.js");  // the page's own API seam
      const made = await api("/api/games", { method: "POST", body: { seat: 0, start: true, speed: "instant" } });
      setToken(made.token);
      const db = await new Promise((ok, no) => {
        const r = indexedDB.open("tuolaji", 1); r.onsuccess = () => ok(r.result); r.onerror = no;
      });
      const meta = (code) => JSON.stringify({ code, created: 1, updated: Date.now() / 1000, status: "playing",
                                              seats: [], tokens: [], summary: {} });
      await new Promise((ok, no) => {
        const tx = db.transaction(["saves", "meta"], "readwrite");
        tx.objectStore("saves").put('{"format": "tuolaji-browser-save", "version": 1, "code": "BADXX", "rec', "BADXX");
        tx.objectStore("meta").put(meta("BADXX"), "BADXX");
        tx.objectStore("saves").put(JSON.stringify({ format: "some-other-game", data: [1, 2] }), "OTHER");
        tx.objectStore("meta").put(meta("OTHER"), "OTHER");
        tx.oncomplete = ok; tx.onerror = no;
      });
      return made.code;
    }""")
    page.goto(static_server.url + "/#/r/BADXX")
    page.locator(".gone").wait_for()
    assert "cannot be read" in page.locator(".gone").inner_text()
    page.goto(static_server.url + "/#/r/OTHER")
    page.wait_for_function("() => (document.querySelector('.gone') || {}).innerText?.includes('not made by this game')")
    # both are listed; the damaged one can be deleted, and the good game stays and opens
    page.goto(static_server.url + "/#/")
    page.locator("[data-resume='OTHER']").wait_for()
    page.once("dialog", lambda d: d.accept())
    page.locator("tr[data-code='BADXX'] button.danger").click()
    page.locator("tr[data-code='BADXX']").wait_for(state="detached")
    page.locator(f"[data-resume='{code}']").click()
    page.locator("#hand .hand-card").first.wait_for()


def test_the_app_is_installable_and_brings_its_chinese_font(context: Any, static_server: StaticServer) -> None:
    page = context.new_page()
    page.goto(static_server.url + "/")
    booted(page)
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active", timeout=60_000)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")
    assert json.loads(manifest["data"])["name"] == "拖拉机"
    # what Chromium checks before it offers "Install": manifest, icons, service worker, secure origin
    # (Playwright's contexts are incognito profiles, where Chromium never installs: that one is expected)
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert errors == ["in-incognito"], errors
    # the subset font comes from the build and has the UI's characters
    faces = page.evaluate("async () => (await document.fonts.load(\"16px 'Tuolaji CJK'\", '拖拉机 主牌 叫牌')).length")
    assert faces == 1
    assert page.evaluate("() => document.fonts.check(\"16px 'Tuolaji CJK'\", '拖拉机')")
