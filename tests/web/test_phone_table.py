"""The table on a phone, upright and held sideways, in Chinese and English: the top bar takes at
most two lines, a seat's level stays beside its name, and the hand keeps to one row sideways."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from test_client_modules import fake_table  # noqa: E402
from test_layout import BOXES, layout_problems  # noqa: E402
from test_several_friends_table import SWITCH_LANGUAGE  # noqa: E402
from test_table_feel import _bots_until, _state_for  # noqa: E402

from tuolaji.engine.round import Phase  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "match_seed157.json"  # a whole match, for the replay
RULES: dict[str, dict[str, Any]] = {
    "classic": {"preset": "classic"},
    "friend5": {"preset": "bianfeng-friend", "players": 5, "decks": 2},
    "friend6": {"preset": "bianfeng-friend", "players": 6, "decks": 3},
    "friend8": {"preset": "bianfeng-friend", "players": 8, "decks": 4},
}

# The lines the top bar takes: its pieces (each team's level, each control, the rest) grouped
# into rows by where they sit; and every team whose name and level were split over two lines.
TOP_LINES = """() => {
  const bar = document.querySelector('.topbar');
  const shown = (e) => e.getClientRects().length > 0;
  const pieces = [...bar.querySelectorAll(':scope > :not(.levels):not(.controls), .levels .team, .controls > *')].filter(shown);
  const boxes = pieces.map((e) => e.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  let lines = 0, bottom = -1;
  for (const r of boxes) { if (r.top >= bottom - 2) { lines++; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom); }
  const split = [...bar.querySelectorAll('.levels .team')].filter((e) => e.getClientRects().length > 1).map((e) => e.textContent);
  const wide = [...bar.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
    .map((e) => e.textContent);
  return { lines, split, wide };
}"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def _host_state(rules: dict[str, Any]) -> dict[str, Any]:
    """Seat 0's state on its first turn to play, as the host (the top bar has the room's settings)."""
    match = _bots_until(rules, lambda m: m.round.phase == Phase.PLAY and m.round.turn == 0 and not m.round.tricks)
    state = _state_for(match, 0)
    state["you"]["host"] = True
    return state


def _styled_table(srv: LiveServer, browser: Any, state: dict[str, Any], size: tuple[int, int], lang: str) -> tuple[Any, Any]:
    """A fake table of ``state`` at ``size`` in ``lang``, with the page's style sheet: its context
    (the caller closes it) and its page."""
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale="zh-CN" if lang == "zh" else "en-US", reduced_motion="reduce"
    )
    try:
        page = fake_table(srv, ctx, state, lang=lang)
        page.add_style_tag(url=srv.url + "/static/style.css")
    except BaseException:
        ctx.close()
        raise
    return ctx, page


@pytest.mark.parametrize("rules", sorted(RULES))
def test_the_top_bar_takes_two_lines_on_a_phone(srv: LiveServer, browser: Any, rules: str) -> None:
    """English took three lines at 640x360 (a phone held sideways) and a find-a-friend table five
    at 360x640, a seat's level on another line than its name ("Seat 5" ... "2")."""
    state = _host_state(RULES[rules])
    ctx, page = _styled_table(srv, browser, state, (640, 360), "en")
    try:
        page.locator("#settings summary").wait_for()
        problems = []
        for lang in ("en", "zh"):
            page.evaluate(SWITCH_LANGUAGE, [lang, state])
            page.wait_for_timeout(100)
            sideways = [(640, 360), (844, 390)] + ([(568, 320)] if rules in ("classic", "friend5") else [])
            for w, h in [*sideways, (360, 640), (390, 844)]:
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(100)
                got = page.evaluate(TOP_LINES)
                most = 2 if h < w or rules == "classic" else 4  # upright, five seats' levels take two lines of their own
                if got["lines"] > most:
                    problems.append(f"{lang} {w}x{h}: the top bar takes {got['lines']} lines")
                problems += [f"{lang} {w}x{h}: {t!r} split over two lines" for t in got["split"]]
                problems += [f"{lang} {w}x{h}: {t!r} leaves the screen" for t in got["wide"]]
        # the short forms keep their names for a screen reader and a pointer's tooltip
        names = [
            page.locator(".topbar .home").get_attribute("aria-label"),
            page.locator("#settings summary").get_attribute("aria-label"),
            page.locator("#points").get_attribute("title"),
            page.locator("#points").inner_text().split()[0],
        ]
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)
    assert names == ["首页", "设置", "闲家得分", "得分"]


def test_eight_seats_fit_a_small_phone_held_sideways(srv: LiveServer, browser: Any) -> None:
    """Eight seats at 568x320: a full hand (26 cards) wrapped to a second row, which took the felt's
    height: the seat labels covered one another and the trick. Sideways the hand keeps to one row,
    every card still showing its rank and suit."""
    state = _host_state(RULES["friend8"])
    view = state["view"]
    assert len(view["hand"]) == 26
    view["trick"] = {"leader": 1, "plays": [{"seat": s, "cards": ["SHCD"[s % 4] + "9"]} for s in range(1, 8)], "attempted": None}
    ctx, page = _styled_table(srv, browser, state, (568, 320), "en")
    try:
        page.locator("#trick .play").first.wait_for()
        problems = []
        for lang in ("en", "zh"):
            page.evaluate(SWITCH_LANGUAGE, [lang, state])
            page.wait_for_timeout(100)
            for size in [(568, 320), (640, 360), (740, 360), (844, 390)]:
                problems += [f"{lang} {p}" for p in layout_problems(page, size)]
                cards = page.evaluate(BOXES)["cards"]
                rows = {round(c["y"]) for c in cards}
                if len(rows) > 1:
                    problems.append(f"{lang} {size}: the hand takes {len(rows)} rows")
                strips = [b["x"] - a["x"] for a, b in zip(cards, cards[1:], strict=False)]
                if min(strips) < 0.3 * cards[0]["w"]:
                    problems.append(f"{lang} {size}: a hand card shows a strip of {min(strips):.0f} px")
                if cards[-1]["r"] > page.viewport_size["width"]:
                    problems.append(f"{lang} {size}: the hand's last card leaves the screen")
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)


def test_the_attackers_cards_wrap_inside_the_side_panel(srv: LiveServer, browser: Any) -> None:
    """Two tricks of point cards won by the attackers (24 cards) ran out of a desktop's side panel,
    which cut the last ones off: the row wraps at the panel's width, at every size with the panel."""
    state = _host_state(RULES["classic"])
    sides = state["view"]["sides"]
    attacker = sides.index("attacker")
    events: list[dict[str, Any]] = []
    for _ in range(2):
        events += [{"e": "played", "seat": s, "cards": ["HK", "H10", "H5"]} for s in range(4)]
        events.append({"e": "trick_ended", "winner": attacker, "points": 100})
    ctx, page = _styled_table(srv, browser, state, (1366, 768), "en")
    try:
        page.evaluate("(s) => window.room.deliver(s)", {**state, "events": events})
        page.locator("#scored-cards .card").nth(23).wait_for()
        problems = []
        for w, h in [(1024, 600), (1366, 768), (1920, 1080), (2560, 1440)]:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(100)
            out = page.evaluate("""() => {
              const panel = document.querySelector('.side').getBoundingClientRect();
              return [...document.querySelectorAll('#scored-cards .card')].map((c) => c.getBoundingClientRect())
                .filter((r) => r.left < panel.left - 1 || r.right > panel.right + 1).length;
            }""")
            if out:
                problems.append(f"{w}x{h}: {out} of the attackers' 24 cards leave the side panel")
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)


def test_a_replay_leaves_the_felt_its_room_on_a_phone_held_sideways(srv: LiveServer, browser: Any) -> None:
    """At 640x360 the replay's header and step buttons took three rows and left the felt 112 px:
    sideways the four buttons share one row with the step's words, and the felt keeps its room."""
    token = "replay-sideways"
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    code = httpx.post(srv.url + "/api/import", json=record, headers={"X-Tuolaji-Token": token}, timeout=60).json()["code"]
    problems = []
    for locale in ("en-US", "zh-CN"):
        ctx = browser.new_context(viewport={"width": 640, "height": 360}, locale=locale, reduced_motion="reduce")
        try:
            page = ctx.new_page()
            page.goto(srv.url + f"/replay/{code}")
            page.locator("#rp-next").wait_for()
            for _ in range(12):
                page.locator("#rp-next-trick").click()
            page.locator(".replay-table #trick .play").first.wait_for()
            for w, h in [(640, 360), (568, 320), (844, 390)]:
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(100)
                got = page.evaluate("""() => ({
                  rows: new Set([...document.querySelectorAll('.replay-controls button')]
                    .map((b) => Math.round(b.getBoundingClientRect().top))).size,
                  felt: document.querySelector('.replay-table .felt').getBoundingClientRect().height })""")
                if got["rows"] > 1:
                    problems.append(f"{locale} {w}x{h}: the replay's buttons take {got['rows']} rows")
                if got["felt"] < 0.4 * h:
                    problems.append(f"{locale} {w}x{h}: the felt has {got['felt']:.0f} px of {h}")
        finally:
            ctx.close()
    assert not problems, "\n".join(problems)


def test_the_dealers_hand_keeps_to_one_row_on_a_desktop(srv: LiveServer, browser: Any) -> None:
    """The dealer's 33 cards while burying wrapped to a second row of two cards at 1366x768: the hand
    keeps to one row at every size but an upright phone's, each card still showing its rank."""
    match = _bots_until(RULES["classic"], lambda m: m.round.phase == Phase.BURY)
    dealer = match.round.turn
    assert dealer is not None
    state = _state_for(match, dealer)
    assert len(state["view"]["hand"]) == 33
    ctx, page = _styled_table(srv, browser, state, (1366, 768), "zh")
    try:
        problems = []
        for w, h in [(1024, 600), (1280, 800), (1366, 768), (1920, 1080), (2560, 1440), (640, 360), (844, 390)]:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(100)
            cards = page.evaluate(BOXES)["cards"]
            rows = {round(c["y"]) for c in cards}
            strips = [b["x"] - a["x"] for a, b in zip(cards, cards[1:], strict=False)]
            if len(rows) > 1:
                problems.append(f"{w}x{h}: the hand takes {len(rows)} rows")
            elif min(strips) < 0.3 * cards[0]["w"] or cards[-1]["r"] > w:
                problems.append(f"{w}x{h}: strips of {min(strips):.0f} px, the last card's right edge at {cards[-1]['r']:.0f}")
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("players", [4, 8])
def test_the_lobby_start_button_is_in_sight(srv: LiveServer, browser: Any, players: int) -> None:
    """A room's lobby on a phone held sideways (and eight seats upright) ran past the dialog's foot:
    the host had to scroll the dialog to find Start. It stays at the foot, over the seats."""
    rules: Any = "classic" if players == 4 else {"preset": "bianfeng-friend", "players": 8, "decks": 4}
    token = f"lobby-{players}"
    body = {"seat": 0, "start": False, "speed": "instant", "difficulty": "easy", "rules": rules}
    code = httpx.post(srv.url + "/api/games", json=body, headers={"X-Tuolaji-Token": token}, timeout=30).json()["code"]
    ctx = browser.new_context(viewport={"width": 640, "height": 360}, locale="en-US", reduced_motion="reduce")
    problems = []
    try:
        ctx.add_init_script(f"localStorage.setItem('tuolaji.token', '{token}')")
        page = ctx.new_page()
        page.goto(srv.url + f"/r/{code}")
        page.locator("#lobby #btn-start").wait_for()
        for w, h in [(640, 360), (568, 320), (844, 390), (360, 640)]:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(100)
            r = page.locator("#btn-start").bounding_box()
            hit = page.evaluate("""() => { const r = document.querySelector('#btn-start').getBoundingClientRect();
              return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.id; }""")
            if r is None or r["y"] < 0 or r["y"] + r["height"] > h or hit != "btn-start":
                problems.append(f"{w}x{h}: Start is not in sight ({r}, {hit!r} at its middle)")
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)


def test_a_desktop_top_bar_keeps_its_words(srv: LiveServer, browser: Any) -> None:
    """Off a phone the top bar says Home, Settings and Attackers' points in full, ⚙ apart from its
    word (a flex box dropped the space between them: "⚙Settings")."""
    state = _host_state(RULES["classic"])
    ctx, page = _styled_table(srv, browser, state, (1366, 768), "en")
    try:
        page.locator("#settings summary").wait_for()
        words = [page.locator(sel).inner_text().strip() for sel in (".topbar .home", "#points")]
        gap = page.evaluate("""() => { const s = document.querySelector('#settings summary');
          const r = document.createRange(); r.selectNodeContents(s.firstChild);
          return s.querySelector('.long').getBoundingClientRect().left - r.getBoundingClientRect().right; }""")
        label = page.locator("#settings summary .long").inner_text()
    finally:
        ctx.close()
    assert words == ["← Home", "Attackers' points 0"]
    assert label == "Settings" and gap >= 3, (label, gap)


@pytest.mark.parametrize("players", [7, 8])
def test_seven_and_eight_seats_fit_the_narrowest_phone(srv: LiveServer, browser: Any, players: int) -> None:
    """At 320x568 the English corner labels of an eight-seat table took all but 55 px of the felt's
    width and the seats above and below the trick covered them: in small type three fit a row."""
    state = _host_state(RULES["friend8"] if players == 8 else {"preset": "bianfeng-friend", "players": 7, "decks": 3})
    plays = [{"seat": s, "cards": ["SHCD"[s % 4] + "9"]} for s in range(1, players)]
    state["view"]["trick"] = {"leader": 1, "plays": plays, "attempted": None}
    ctx, page = _styled_table(srv, browser, state, (320, 568), "en")
    try:
        page.locator("#trick .play").first.wait_for()
        problems = []
        for lang in ("en", "zh"):
            page.evaluate(SWITCH_LANGUAGE, [lang, state])
            page.wait_for_timeout(100)
            for size in [(320, 568), (360, 640)]:
                problems += [f"{lang} {p}" for p in layout_problems(page, size)]
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)


# Calling a friend: the felt's height, the status line's lines, the menus and buttons, the seats.
CALL_BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {id: e.id || e.dataset.seat || e.textContent.trim().slice(0, 20), x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const shown = (e) => e.getClientRects().length > 0;
  const status = document.querySelector('#status');
  const range = document.createRange(); range.selectNodeContents(status);
  return {
    felt: document.querySelector('.felt').getBoundingClientRect().height,
    lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
    status: box(status),
    text: status.textContent,
    controls: [...document.querySelectorAll('#actions select, #actions button')].filter(shown).map(box),
    seats: [...document.querySelectorAll('.felt .seat')].filter(shown).map(box),
    feltBox: box(document.querySelector('.felt')),
    hand: [...document.querySelectorAll('#hand .hand-card .card')].map(box),
    picked: document.querySelector('#friend-card').selectedOptions[0].textContent,
    sw: document.documentElement.scrollWidth,
  };
}"""


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["x"] < b["r"] - 1 and b["x"] < a["r"] - 1 and a["y"] < b["b"] - 1 and b["y"] < a["b"] - 1


def _call_overlaps(got: dict[str, Any], w: int, h: int) -> list[str]:
    """The status line, menus and buttons overlapping one another or the hand or off screen; seats
    overlapping one another or out of the felt."""
    things, seats, felt = [got["status"], *got["controls"]], got["seats"], got["feltBox"]
    bad = [f"{a['id']!r} overlaps {b['id']!r}" for i, a in enumerate(things) for b in things[i + 1 :] if _overlap(a, b)]
    bad += [f"{c['id']!r} overlaps the hand" for c in things if any(_overlap(c, k) for k in got["hand"])]
    bad += [f"{c['id']!r} leaves the screen" for c in things if c["x"] < 0 or c["r"] > w + 1 or c["b"] > h + 1]
    bad += [f"seat {a['id']} overlaps seat {b['id']}" for i, a in enumerate(seats) for b in seats[i + 1 :] if _overlap(a, b)]
    bad += [f"seat {a['id']} leaves the felt" for a in seats if a["y"] < felt["y"] - 1 or a["b"] > felt["b"] + 1]
    return bad


@pytest.mark.parametrize("rules", ["friend5", "friend8", "friend8-nth"])
def test_calling_a_friend_leaves_the_felt_its_height_sideways(srv: LiveServer, browser: Any, rules: str) -> None:
    """At 568x320 the dealer calling a friend had the instruction in five lines beside a wide menu
    ("♠A — the other copy"), and the felt kept 80 px of 320: sideways the menus and the status line
    take short words, the status two lines at most, and the felt keeps 45 % of the height."""
    base = {"preset": "bianfeng-friend", **({"players": 5, "decks": 2} if rules == "friend5" else {"players": 8, "decks": 4})}
    if rules.endswith("nth"):
        base["friend_call"] = "nth_played"
    match = _bots_until(base, lambda m: m.round.phase == Phase.CALL_FRIEND)
    dealer = match.round.turn
    assert dealer is not None
    state = _state_for(match, dealer)
    held = sorted({c for c in state["view"]["hand"] if c[0] in "SHCD" and c[1:] in ("A", "K")})
    assert held, "the dealer holds no ace or king to call"
    state["you"]["host"] = True
    ctx, page = _styled_table(srv, browser, state, (568, 320), "en")
    try:
        page.locator("#btn-call-friend").wait_for()
        page.select_option("#friend-card", held[0])  # a card held: its label is the longest ("the other copy")
        problems = []
        for lang in ("en", "zh"):
            page.evaluate(SWITCH_LANGUAGE, [lang, state])
            for w, h in [(568, 320), (640, 360)]:
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(100)
                got = page.evaluate(CALL_BOXES)
                where = f"{lang} {w}x{h}"
                if got["felt"] < 0.45 * h:
                    problems.append(f"{where}: the felt has {got['felt']:.0f} px of {h}")
                if got["lines"] > 2:
                    problems.append(f"{where}: the status line takes {got['lines']} lines")
                if got["sw"] > w + 1:
                    problems.append(f"{where}: the page scrolls sideways")
                tops = [c["y"] for c in got["controls"]]
                if max(tops) - min(tops) > 10:
                    problems.append(f"{where}: the menus and buttons take two rows")
                if held[0][1] not in got["picked"]:
                    problems.append(f"{where}: the menu shows {got['picked']!r} for {held[0]}")
                problems += [f"{where}: {p}" for p in _call_overlaps(got, w, h)]
        # off a phone held sideways the status line says it all, and the menu names the other copy
        page.set_viewport_size({"width": 1366, "height": 768})
        page.wait_for_timeout(100)
        wide = page.evaluate(CALL_BOXES)
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)
    assert wide["text"].endswith("时现身。"), wide["text"]
    if not rules.endswith("nth"):
        assert "另一张" in wide["picked"] and "—" in wide["picked"], wide["picked"]


@pytest.mark.parametrize("longest", [2, 8])
def test_a_four_seat_trick_keeps_its_cards_large_sideways(srv: LiveServer, browser: Any, longest: int) -> None:
    """At 568x320 a four-seat trick's three rows of plays had the trick's height to share: its cards
    were 25 px wide. The plays left and right sit beside the top and bottom plays, between their
    rows, so the cards need two rows of the height: they keep the usual width (a hand card's 85 %)
    and nothing covers a play or a seat label, eight-card plays too."""
    state = _host_state(RULES["classic"])
    throw = ["SA", "SK", "SQ", "SJ", "S10", "S9", "S8", "S7"][:longest]
    plays = [{"seat": s, "cards": throw if s == 1 else [f"{'SHCD'[s]}{r}" for r in "98765432"[:longest]]} for s in range(4)]
    state["view"]["trick"] = {"leader": 1, "plays": [plays[1], plays[2], plays[3], plays[0]], "attempted": None}
    ctx, page = _styled_table(srv, browser, state, (568, 320), "en")
    try:
        page.locator("#trick .play").first.wait_for()
        problems = []
        for lang in ("en", "zh"):
            page.evaluate(SWITCH_LANGUAGE, [lang, state])
            page.wait_for_timeout(100)
            for size in [(568, 320), (640, 360), (844, 390)]:
                problems += [f"{lang} {p}" for p in layout_problems(page, size)]
                widths = page.evaluate("""() => ({
                  trick: Math.min(...[...document.querySelectorAll('#trick .card')].map((c) => c.getBoundingClientRect().width)),
                  hand: document.querySelector('#hand .hand-card .card').getBoundingClientRect().width })""")
                if longest == 2 and widths["trick"] < 0.8 * widths["hand"]:  # eight cards a play: the width's limit
                    problems.append(f"{lang} {size}: trick cards {widths['trick']:.0f} px wide, a hand card {widths['hand']:.0f}")
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)
