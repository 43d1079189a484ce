"""Every screen looked at as a player sees it (scripts/tour.py, a phone and a desktop, Chinese and
English): each defect seen there is fixed and checked here by what the page shows."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from test_client_modules import fake_table  # noqa: E402
from test_table_feel import GOLDEN, _bots_until, _state_for, _zh_page  # noqa: E402

from tuolaji.engine.match import Match  # noqa: E402
from tuolaji.engine.round import Phase  # noqa: E402
from tuolaji.messages import catalog  # noqa: E402
from tuolaji.record import from_record  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN", reduced_motion="reduce")
    ctx.set_default_timeout(90_000)
    yield ctx
    ctx.close()


def _rect(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.locator(selector).first.evaluate(
        "el => { const r = el.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }"
    )
    return box


def test_the_rules_help_reads_as_a_page_on_a_phone_and_keeps_its_place(srv: LiveServer, phone: Any) -> None:
    """Seen at 390×844: the rules help was a box scrolling inside the screen, and each state the
    table received (every computer player's card) redrew it at its top: the player lost their place."""
    match: Match = _bots_until("classic", lambda m: m.round.phase == Phase.PLAY and len(m.round.tricks) >= 2)
    state = _state_for(match, 0)
    page = _zh_page(srv, phone, state)
    page.add_style_tag(url="/static/style.css")  # the harness page is not the app's: it has no style
    page.evaluate("(rules) => window.room.deliver({type: 'welcome', rules})", match.rules.to_dict())
    page.click("#btn-rules-help")
    page.locator("#rules-help").wait_for()
    # the whole screen, like a page of its own
    dialog = _rect(page, ".overlay .dialog")
    assert dialog == {"left": 0, "top": 0, "right": PHONE["width"], "bottom": PHONE["height"]}, dialog
    # read down to the last rule; the game goes on (new states arrive); the place is kept
    page.locator("#rules-help table.score tr").last.scroll_into_view_if_needed()
    scrolled = page.evaluate("() => document.querySelector('.overlay .dialog').scrollTop")
    assert scrolled > 300, "the rules are longer than a phone's screen"
    for _ in range(3):
        page.evaluate("(s) => window.room.deliver({...s, events: []})", state)
    assert page.evaluate("() => document.querySelector('.overlay .dialog').scrollTop") == scrolled
    last = _rect(page, "#rules-help table.score tr:last-child")
    assert 0 <= last["top"] and last["bottom"] <= PHONE["height"], "the last rule is still in sight"
    page.click("#btn-help-close")
    page.locator("#rules-help").wait_for(state="detached")
    assert not page.errors


def test_the_rules_help_shows_what_the_table_deals_not_a_blank(srv: LiveServer, phone: Any) -> None:
    """Seen in the help: settings left to be worked out (hand and kitty size, the number of friends)
    and settings with no limit read "—", which tells a player nothing."""
    match: Match = _bots_until("bianfeng-friend", lambda m: m.round.phase == Phase.PLAY)
    page = _zh_page(srv, phone, _state_for(match, 0))
    page.evaluate("(rules) => window.room.deliver({type: 'welcome', rules})", match.rules.to_dict())
    page.click("#btn-rules-help")
    page.locator("#rules-help").wait_for()
    rows: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#rules-help table.score tr')]
            .map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]))"""
    )
    zh = catalog("zh")
    rules = match.rules
    assert rows[zh["setting"]["hand_size"]] == str(rules.hand_size_value)
    assert rows[zh["setting"]["kitty_size"]] == str(rules.kitty_size_value)
    assert rows[zh["setting"]["friends"]] == str(rules.friends_value)
    assert rows[zh["setting"]["match_minutes"]] == zh["ui"]["none"]
    assert "—" not in rows.values()
    assert not page.errors


def test_the_kitty_mark_leaves_the_rank_and_suit_readable(srv: LiveServer, phone: Any) -> None:
    """Seen at 390×844 when burying: the dot marking the cards taken from the kitty sat on the
    card's corner, over its rank (a 9 or a 2 could not be read)."""
    match = _bots_until("classic", lambda m: m.round.phase == Phase.BURY)
    dealer = match.round.turn
    assert dealer is not None
    page = _zh_page(srv, phone, _state_for(match, dealer))
    page.add_style_tag(url="/static/style.css")
    covered = page.evaluate(
        """() => [...document.querySelectorAll('#hand .hand-card.from-kitty')].map((el) => {
          const card = el.getBoundingClientRect();
          const dot = getComputedStyle(el, '::after');
          const left = card.left + parseFloat(dot.left), top = card.top + parseFloat(dot.top);
          const box = { left, top, right: left + parseFloat(dot.width), bottom: top + parseFloat(dot.height) };
          const marks = [...el.querySelectorAll('svg text')].slice(0, 2).map((t) => t.getBoundingClientRect());
          return marks.some((r) => r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom);
        })"""
    )
    assert len(covered) == match.round.kitty_size, covered
    assert not any(covered), covered


def test_the_last_trick_shows_each_play_beside_its_player_on_a_phone(srv: LiveServer, phone: Any) -> None:
    """Seen at 390×844, in the panel under the table: the last trick's names at the left edge and
    their cards at the right edge, the screen's width apart."""
    match = _bots_until("classic", lambda m: m.round.phase == Phase.PLAY and len(m.round.tricks) >= 2)
    page = _zh_page(srv, phone, _state_for(match, 0))
    page.add_style_tag(url="/static/style.css")
    rows = page.evaluate(
        """() => [...document.querySelectorAll('#last-trick .lt-row')].map((row) => {
          const who = row.querySelector('.who').getBoundingClientRect();
          const cards = row.querySelector('.card-row').getBoundingClientRect();
          return { who: who.left, cards: cards.left, gap: cards.left - who.right };
        })"""
    )
    assert len(rows) == 4, rows
    assert all(r["gap"] < 20 for r in rows), rows  # the cards follow the name
    assert len({round(r["cards"]) for r in rows}) == 1, rows  # in one column, row under row


def test_a_spectator_reads_who_won_the_match_and_the_kitty_under_its_points(srv: LiveServer, browser: Any) -> None:
    """Seen at the end of an imported match: "1 队 获胜！" (team 1 wins), a number the table shows
    nowhere (its top bar names the sides by their seats); and the kitty's cards came after the
    coins, away from the points row they counted for."""
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    code = httpx.post(srv.url + "/api/import", json=record, timeout=60).json()["code"]
    winner = from_record(record).winner
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.goto(srv.url + f"/r/{code}")
        page.locator("#winner").wait_for()
        text = page.locator("#winner").inner_text()
        sides = [label.rsplit(" ", 1)[0] for label in page.locator("#levels .team").all_inner_texts()]
        assert sides == ["南家·北家", "东家·西家"], sides
        assert text.startswith(sides[winner]) and "队" not in text, text
        assert page.locator("#summary table.score + .kitty-end").count() == 1
    finally:
        ctx.close()


def test_english_says_one_card_not_card_s(srv: LiveServer, context: Any) -> None:
    """Seen on the English table at every single lead: "Your turn — Follow with 1 card(s).";
    the catalog's text for exactly one is used where it has one."""

    def follow_one(m: Match) -> bool:
        trick = m.round.trick
        return (
            m.round.phase == Phase.PLAY
            and m.round.turn == 0
            and trick is not None
            and len(trick.plays) == 1
            and len(trick.plays[0]) == 1
        )

    match = _bots_until("classic", follow_one)
    page = fake_table(srv, context, _state_for(match, 0))  # the harness speaks English
    assert page.locator("#status").inner_text() == "Your turn — Follow with 1 card."
    assert page.evaluate("async () => (await import('/static/js/i18n.js')).t('follow_n', {n: 2})") == "Follow with 2 cards."


# ---------------------------------------------------------------- session 4: the Chinese pass at 390×844 and 1366×768


def test_the_log_reads_in_the_language_the_player_switches_to(srv: LiveServer, context: Any) -> None:
    """Seen on the Chinese table (the language button pressed once): the log's earlier lines stayed in
    English ("West wins the trick (0 points)") under Chinese ones; the log is worded when shown."""
    match = _bots_until("classic", lambda m: m.round.phase == Phase.PLAY and len(m.round.tricks) >= 3)
    page = fake_table(srv, context, _state_for(match, 0))  # the harness speaks English
    log = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"
    english = page.evaluate(log)
    assert any("wins the trick" in line for line in english), english
    page.locator(".topbar button.lang").click()
    chinese = page.evaluate(log)
    assert len(chinese) == len(english), chinese
    assert not any(re.search(r"[a-z]{3,}", line) for line in chinese), chinese
    assert any("赢得此墩" in line for line in chinese), chinese
    page.locator(".topbar button.lang").click()
    assert page.evaluate(log) == english
    assert not page.errors


def test_the_replay_names_the_viewer_once_and_says_whose_turn_it_was(srv: LiveServer, browser: Any) -> None:
    """Seen in the replay at both sizes: the viewer's seat read "我 (你)" (me (you)), and the status
    line "等待 下家……" (waiting for) as if the replay were waiting for someone."""
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    code = httpx.post(srv.url + "/api/import", json=record, timeout=60).json()["code"]
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.goto(srv.url + f"/replay/{code}")
        page.locator("#rp-next").wait_for()
        for _ in range(12):
            page.locator("#rp-next-trick").click()
        assert page.locator(".felt .seat[data-pos='bottom']").inner_text().split("\n")[0].strip() == "我"
        status = page.locator("#status").inner_text()
        assert status.startswith("轮到 ") and "等待" not in status, status
        last = page.locator("#last-trick").inner_text()
        assert "(你)" not in last, last
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [PHONE, {"width": 1366, "height": 768}])
def test_each_rules_example_reads_beside_its_cards(srv: LiveServer, browser: Any, size: dict[str, int]) -> None:
    """Seen in the rules help: the tractor's text (phone) and the throw's text (desktop) wrapped under
    their cards, so a row of cards stood alone with its explanation below, next to the next example."""
    match = _bots_until("classic", lambda m: m.round.phase == Phase.PLAY)
    ctx = browser.new_context(viewport=size, locale="zh-CN", reduced_motion="reduce")
    try:
        page = _zh_page(srv, ctx, _state_for(match, 0))
        page.add_style_tag(url="/static/style.css")
        page.evaluate("(rules) => window.room.deliver({type: 'welcome', rules})", match.rules.to_dict())
        page.click("#btn-rules-help")
        page.locator("#rules-help .example").first.wait_for()
        rows = page.evaluate(
            """() => [...document.querySelectorAll('#rules-help .example')].map((ex) => {
              const cards = ex.querySelector('.card-row').getBoundingClientRect();
              const text = ex.querySelector(':scope > span:not(.card-row)').getBoundingClientRect();
              return { gap: text.left - cards.right, top: text.top - cards.top, below: text.top - cards.bottom };
            })"""
        )
        assert len(rows) == 3, rows
        assert all(0 <= r["gap"] < 30 and r["below"] < 0 for r in rows), rows  # beside, not under
    finally:
        ctx.close()


def test_the_counter_says_what_it_counts_and_open_trump_says_so(srv: LiveServer, phone: Any) -> None:
    """Seen in the panel under the table: a row "主 ♠ ♥ ♣" over numbers, with nothing saying that
    these are the cards not played yet; and the top bar's trump read "主 2 · ?" while nobody had
    declared."""
    match = _bots_until("classic", lambda m: m.round.phase == Phase.PLAY and len(m.round.tricks) >= 2)
    page = _zh_page(srv, phone, _state_for(match, 0))
    assert page.locator("#watch .counter-head").inner_text() == "记牌器（还没出的牌）"
    assert page.locator("#watch .counter-head + #counter").count() == 1
    texts = page.evaluate(
        """async () => {
          const { trumpText } = await import('/static/js/ui.js');
          const { setLang } = await import('/static/js/i18n.js');
          const open = { trump: null, level: 2, trump_fixed: false, bid: null };
          const out = [trumpText(open)];
          setLang('en');
          out.push(trumpText(open));
          return out;
        }"""
    )
    assert texts == ["2 · 未定", "2 · not set yet"], texts


def test_the_import_button_speaks_the_page_language(srv: LiveServer, phone: Any) -> None:
    """Seen on the Chinese start page: the file input's "Choose File / No file chosen", the browser's
    own words in the browser's language. A button of the page's own replaces it, and still imports."""
    page = phone.new_page()
    page.goto(srv.url + "/")
    choose = page.locator("#import-choose")
    choose.wait_for()
    assert choose.inner_text() == "选择文件…"
    box = choose.bounding_box()
    assert box is not None and box["height"] >= 32 and box["width"] >= 64  # a control a finger can press
    assert page.locator("#import-file").bounding_box()["width"] <= 1  # type: ignore[index]
    with page.expect_file_chooser() as chooser:
        choose.click()
    chooser.value.set_files(str(GOLDEN))
    page.wait_for_url("**/replay/*")


def test_the_english_end_of_a_match_names_the_joker_level_and_spaces_no_trump(srv: LiveServer, browser: Any) -> None:
    """Seen at the end of the imported match in English: "Trump no-trumpK" (no space) and the joker
    level as 王 in the summary's levels and the top bar, a Chinese word in the English game."""
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    code = httpx.post(srv.url + "/api/import", json=record, timeout=60).json()["code"]
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.goto(srv.url + f"/r/{code}")
        page.locator("#summary").wait_for()
        assert page.locator("#summary-trump").inner_text().startswith("Trump no-trump K ·")
        text = page.locator("#summary").inner_text() + page.locator("#levels").inner_text()
        assert "Jokers" in text and "王" not in text, text
        page.evaluate("() => document.querySelector('.topbar button.lang').click()")  # under the summary
        assert "王" in page.locator("#levels").inner_text()
    finally:
        ctx.close()
