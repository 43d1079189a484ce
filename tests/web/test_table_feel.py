"""The table as players expect it (issue 12): a failed throw says who beat it and with what, the
cards move (dealt, played, swept to the trick's winner) unless the player or the system turns
motion off, and the hand's order and colours are the player's choice, kept across a reload."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from table_page import hand, my_turn, new_game, phase, play_until  # noqa: E402
from test_client_modules import fake_table  # noqa: E402

from playthrough import play_to, step  # noqa: E402
from tuolaji.bots.driver import Table  # noqa: E402
from tuolaji.bots.registry import make_bot  # noqa: E402
from tuolaji.engine.events import Played, TrickEnded  # noqa: E402
from tuolaji.engine.match import Match  # noqa: E402
from tuolaji.engine.round import Phase  # noqa: E402
from tuolaji.server.room import Conn, Room, Seat, hash_token, on_loop  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "match_seed157.json"  # a whole match


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


# ------------------------------------------------------------------ a failed throw, announced
def _state_for(match: Match, seat: int) -> dict[str, Any]:
    """The state message ``seat`` gets from the room core on opening the table, in Chinese."""
    seats = [Seat(name="", token=hash_token(f"tok-{s}")) for s in range(match.rules.players)]
    room = Room(
        "FEEL1",
        match,
        seats=seats,
        host=hash_token("tok-0"),
        status="playing",
        settings={"speed": "slow"},
        bot_seed=1,
        offload=on_loop,
    )
    conn = Conn(lang="zh")

    async def hello() -> list[dict[str, Any]]:
        await room.handle(conn, json.dumps({"type": "hello", "token": f"tok-{seat}", "lang": "zh"}))
        return conn.take(room)

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        msgs = pool.submit(asyncio.run, hello()).result()
    return [m for m in msgs if m["type"] == "state"][-1]


def _bots_until(rules: str | dict[str, Any], pred: Any) -> Match:
    """A match played by computer players until ``pred(match)``."""
    match = Match(rules=rules, seed=7)
    table = Table(match, [make_bot("random", seed=s) for s in range(match.rules.players)], seed=3)
    for _ in range(20_000):
        if pred(match):
            return match
        table.step()
    raise AssertionError("never reached")


def _zh_page(srv: LiveServer, context: Any, state: dict[str, Any]) -> Any:
    page = fake_table(srv, context, state)
    page.evaluate(
        "async (s) => { const { setLang } = await import('/static/js/i18n.js'); setLang('zh'); window.room.deliver(s); }", state
    )
    return page


def _state_after_a_failed_throw() -> tuple[dict[str, Any], Played]:
    """Seat 0's state message, from the room core, right after some seat's throw failed."""
    match, rng = play_to(157, 0)

    def failed() -> Played | None:
        return next((e for e in match.round.events if isinstance(e, Played) and e.attempted), None)

    while failed() is None:  # the random players of the golden match throw, and some throws fail
        step(match, rng)
    played = failed()
    assert played is not None and played.beaten_by is not None and played.beating
    return _state_for(match, 0), played


def _zh(cards: list[str]) -> str:
    """Cards as the Chinese page writes them (cards.js cardText)."""
    suit = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
    return " ".join({"BJ": "大王", "LJ": "小王"}.get(c) or suit[c[0]] + c[1:] for c in cards)


def test_a_failed_throw_says_who_beat_it_with_what_and_what_was_played(srv: LiveServer, context: Any) -> None:
    state, played = _state_after_a_failed_throw()
    wire = next(e for e in state["events"] if e["e"] == "played" and e.get("attempted"))
    assert wire["beaten_by"] == played.beaten_by and wire["beating"]
    page = _zh_page(srv, context, state)
    notice = page.locator("#failed-throw").inner_text()
    by = {0: "我", 1: "下家", 2: "对家", 3: "上家"}[played.beaten_by]  # names by the viewer's (seat 0's) screen
    assert "甩牌失败" in notice and f"{by} 有 {_zh(wire['beating'])} 更大" in notice, notice
    assert _zh(wire["attempted"]) in notice and f"改出：{_zh(wire['cards'])}" in notice, notice
    log = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert any(f"（{by} 有 {_zh(wire['beating'])} 更大）" in line for line in log), log
    # what was tried, struck through on the felt, covers none of the cards played (seen on a phone)
    page.add_style_tag(url=srv.url + "/static/style.css")
    for size in ({"width": 360, "height": 640}, {"width": 1366, "height": 768}):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        covered = page.evaluate("""() => {
          const a = document.querySelector('#trick .attempted').getBoundingClientRect();
          return [...document.querySelectorAll('#trick .play .card')].map((e) => e.getBoundingClientRect())
            .filter((r) => a.left < r.right - 1 && r.left < a.right - 1 && a.top < r.bottom - 1 && r.top < a.bottom - 1).length;
        }""")
        assert covered == 0, size
    assert not page.errors


# ------------------------------------------------------------------ animation: on, off, reduced motion
WATCH = """() => {
  window.fxKinds = [];
  const note = (a) => { const kind = a.id || a.constructor.name; if (!window.fxKinds.includes(kind)) window.fxKinds.push(kind); };
  // every script animation as it is made (its id is set right after: read when asked), so a short
  // one is not missed by a loaded machine's slow frames; CSS transitions seen frame by frame
  window.fxMade = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { const a = animate.apply(this, args); window.fxMade.push(a); return a; };
  const look = () => {
    for (const a of document.getAnimations()) note(a);
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
  window.fxSeen = () => { window.fxMade.forEach(note); return window.fxKinds; };
}"""


def _animations_of_a_deal_and_two_tricks(page: Any, base: str, motion: str) -> set[str]:
    """Start a game at normal speed and watch its deal and first tricks: the animations seen."""
    page.goto(base + "/")
    page.evaluate("(m) => localStorage.setItem('tuolaji.fx.motion', m)", motion)
    page.evaluate(WATCH)  # the page is one document: the table opens without a reload
    page.select_option("#speed", "normal")
    page.select_option("#difficulty", "easy")
    page.click("#btn-new-game")
    page.wait_for_url("**/r/*")
    page.locator("#hand .hand-card").first.wait_for()
    play_until([page], lambda: phase(page) == "play" and my_turn(page) and len(hand(page)) <= 23)
    page.wait_for_timeout(400)
    return set(page.evaluate("window.fxSeen()"))


def test_cards_are_dealt_played_and_swept_with_motion_on(srv: LiveServer, context: Any) -> None:
    kinds = _animations_of_a_deal_and_two_tricks(context.new_page(), srv.url, "on")
    assert {"deal", "play", "sweep"} <= kinds, kinds


def test_the_animation_setting_turns_every_animation_off(srv: LiveServer, context: Any) -> None:
    assert _animations_of_a_deal_and_two_tricks(context.new_page(), srv.url, "off") == set()


def test_reduced_motion_turns_every_animation_off(srv: LiveServer, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        assert _animations_of_a_deal_and_two_tricks(page, srv.url, "on") == set(), "even a saved choice gives way"
        page.click("#prefs summary")
        box = page.locator("#pref-motion")
        assert not box.is_checked() and box.is_disabled()
    finally:
        ctx.close()


# ------------------------------------------------------------------ the hand: trump side, four colours
def _trump_flags(page: Any) -> list[bool]:
    return list(page.eval_on_selector_all("#hand .hand-card", "els => els.map(e => e.dataset.trump === 'true')"))


def _club_fill(page: Any) -> str:
    return str(
        page.evaluate("""() => {
      const t = document.querySelector('#hand .card[data-card^="C"] svg text');
      return t ? getComputedStyle(t).fill : '';
    }""")
    )


def test_trump_at_the_left_and_four_colours_are_kept_across_a_reload(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    new_game(page, srv.url, speed="normal")
    play_until([page], lambda: phase(page) == "play" and my_turn(page))
    before = _trump_flags(page)
    assert any(before) and not all(before), "a hand with trumps and plain cards"
    assert before[-1] and not before[0], "by default trump is at the right"
    black = _club_fill(page)
    page.click("#prefs summary")
    page.check("#pref-trump-left")
    page.check("#pref-four-colour")
    flags = _trump_flags(page)
    assert flags[0] and not flags[-1] and sorted(flags) == sorted(before)
    if black:  # a hand with a club: clubs turn green
        assert black == "rgb(17, 17, 17)" and _club_fill(page) == "rgb(27, 122, 53)"
    page.reload()
    page.locator("#hand .hand-card").first.wait_for()
    flags = _trump_flags(page)
    assert flags[0] and not flags[-1], "trump stays at the left after a reload"
    if black:
        assert _club_fill(page) == "rgb(27, 122, 53)", "four colours stay after a reload"
    page.click("#prefs summary")
    assert page.locator("#pref-trump-left").is_checked() and page.locator("#pref-four-colour").is_checked()
    page.uncheck("#pref-trump-left")
    flags = _trump_flags(page)
    assert flags[-1] and not flags[0], "and back to the right"


# ------------------------------------------------------------------ defects seen playing on a phone, in Chinese
def test_burying_and_calling_a_friend_say_what_the_dealer_does(srv: LiveServer, context: Any) -> None:
    """Seen: the bury's check said "可以出" (may play), and calling a friend said only "your turn"."""
    match = _bots_until("bianfeng-friend", lambda m: m.round.phase == Phase.BURY)
    dealer = match.round.turn
    assert dealer is not None
    state = _state_for(match, dealer)
    page = _zh_page(srv, context, state)
    assert page.locator("#status").inner_text() == "选 8 张牌扣底。"
    for card in page.locator("#hand .hand-card").all()[:8]:
        card.click()
    check = next(m for m in reversed(page.evaluate("window.room.sent")) if m["type"] == "check")
    assert check["action"] == "bury"
    page.evaluate("(id) => window.room.deliver({type: 'checked', re: id, ok: true, throw: false})", check["id"])
    assert page.locator("#check-result").inner_text() == "✓ 可以这样扣底"
    match = _bots_until("bianfeng-friend", lambda m: m.round.phase == Phase.CALL_FRIEND)
    dealer = match.round.turn
    assert dealer is not None
    page = _zh_page(srv, context, _state_for(match, dealer))
    assert "就是你的朋友" in page.locator("#status").inner_text()
    assert page.locator("#btn-call-friend").is_visible()


def test_the_attackers_scored_cards_count_before_the_friend_shows(srv: LiveServer, context: Any) -> None:
    """Seen: "闲家得分牌 20" over "无" — the points counted, the cards not, until the friend showed."""

    def scored_early(m: Match) -> bool:
        rnd = m.round
        return (
            rnd.phase == Phase.PLAY
            and not rnd.friend_revealed
            and rnd.attacker_points > 0
            and any(isinstance(e, TrickEnded) for e in rnd.events)
        )

    match = _bots_until("bianfeng-friend", scored_early)
    state = _state_for(match, 0)
    assert state["view"]["attacker_points"] > 0 and None in state["view"]["sides"]
    page = _zh_page(srv, context, state)
    cards = page.eval_on_selector_all("#scored-cards .card", "els => els.map(e => e.dataset.card)")
    points = sum({"5": 5, "10": 10, "K": 10}.get(c[1:], 0) for c in cards)
    assert points == state["view"]["attacker_points"], (cards, state["view"]["attacker_points"])


def test_a_replay_shows_the_levels_of_its_round(srv: LiveServer, context: Any) -> None:
    """Seen: replaying round 1 of a finished match showed the final levels (王 and 7) over a
    round played at level 2."""
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    r = httpx.post(srv.url + "/api/import", json=record, timeout=60)
    code = r.json()["code"]
    page = context.new_page()
    page.goto(srv.url + f"/replay/{code}")
    page.locator("#replay-round").select_option("1")
    page.wait_for_function("() => document.querySelector('#rp-step') && document.querySelector('#levels')")
    page.locator("#rp-next").click()
    levels = page.locator("#levels strong").all_inner_texts()
    assert levels == ["2", "2"], levels
    last = str(len([e for e in record["events"] if e["e"] == "round_ended"]))
    page.locator("#replay-round").select_option(last)
    page.locator("#rp-next").click()
    page.wait_for_function("() => document.querySelectorAll('#levels strong').length === 2")
    assert page.locator("#levels strong").all_inner_texts() != ["2", "2"]


LATIN_WORDS = """() => {
  const words = [];
  const walk = (n) => {
    // room codes (capitals) and addresses are data, not words
    const latin = (text) => (text.replace(/https?:\\/\\/\\S+/g, '').match(/[A-Za-z]{2,}/g) || [])
      .filter((w) => !/^[A-Z]+$/.test(w));
    if (n.nodeType === Node.TEXT_NODE) { words.push(...latin(n.textContent)); return; }
    if (n.nodeType !== Node.ELEMENT_NODE || n.closest('svg, .lang, script, style, noscript')) return;
    if (n.hidden || getComputedStyle(n).display === 'none') return;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      words.push(...latin(n.getAttribute(a) || ''));
    }
    n.childNodes.forEach(walk);
  };
  walk(document.body);
  return words;
}"""


def test_the_chinese_table_has_no_english_words(srv: LiveServer, browser: Any) -> None:
    """Every text a player of the Chinese table reads or hears (labels, titles, aria labels) is
    Chinese: the start page, the table at play with both settings panels open, and its summary."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.goto(srv.url + "/")
        page.locator("#btn-new-game").wait_for()
        page.locator(".rules-details summary").first.click()
        found = {"start": page.evaluate(LATIN_WORDS)}
        new_game(page, srv.url, speed="instant")
        play_until([page], lambda: phase(page) == "play" and my_turn(page) and len(hand(page)) <= 20)
        page.click("#settings summary")
        page.click("#prefs summary")
        found["table"] = page.evaluate(LATIN_WORDS)
        play_until([page], lambda: phase(page) == "between")
        page.locator("#summary").wait_for()
        found["summary"] = page.evaluate(LATIN_WORDS)
    finally:
        ctx.close()
    allowed = {"tuolaji", "serve", "Ctrl"}  # a command to type, a key
    english = {k: sorted(set(v) - allowed) for k, v in found.items() if set(v) - allowed}
    assert not english, english


def test_the_settings_panels_fit_a_phone(srv: LiveServer, browser: Any) -> None:
    """Seen at 360×640: the ⚙ panel ran off the left edge, its labels out of sight."""
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="zh-CN", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        new_game(page, srv.url, speed="instant")
        for panel in ("#settings", "#prefs"):
            page.click(f"{panel} summary")
            out = page.evaluate(
                """(panel) => [...document.querySelectorAll(panel + ' .settings-panel label')]
              .map((e) => e.getBoundingClientRect()).filter((r) => r.left < 0 || r.right > innerWidth).length""",
                panel,
            )
            assert out == 0, panel
            page.click(f"{panel} summary")
    finally:
        ctx.close()
