"""Find-a-friend tables of 5, 7 and 8 in a real browser (issue 11 item 10d), in Chinese: the
create-game screen offers the table size and says what it deals, the felt seats everyone without
overlaps on a phone and a desktop, and the dealer's calls show in the top bar. Long plays at every
table size keep to their places."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from table_page import my_turn, phase, play_until, wait_js  # noqa: E402
from test_client_modules import fake_table  # noqa: E402
from test_layout import BOXES, layout_problems  # noqa: E402
from test_table_feel import _bots_until, _state_for  # noqa: E402

from tuolaji.engine.round import Phase  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

# table size -> what the create-game screen says it deals (the decks follow the size)
DEALS = {
    5: ("5 人", "2 副牌", "每人 20 张", "底牌 8 张", "庄家叫 1 个朋友"),
    7: ("7 人", "3 副牌", "每人 22 张", "底牌 8 张", "找朋友，庄家叫 2 个朋友"),
    8: ("8 人", "4 副牌", "每人 26 张", "底牌 8 张", "庄家叫 3 个朋友"),
}


@pytest.mark.parametrize("players", sorted(DEALS))
def test_a_find_a_friend_table_of_five_to_eight(tmp_path: Any, browser: Any, players: int) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN", reduced_motion="reduce")
        ctx.set_default_timeout(90_000)
        page = ctx.new_page()
        try:
            page.goto(srv.url + "/")
            # fixed partners: an odd size switches to find-a-friend; an even one stays as the preset says
            page.select_option("#rules-preset", "classic" if players % 2 else "bianfeng-friend")
            page.select_option("#rules-players", str(players))
            # an odd table plays find-a-friend; the deal follows the size (e.g. 7: 3 decks, 22 each, kitty 8)
            wait_js(page, "(n) => document.querySelector('#rules-deal').textContent.includes(n + ' 人')", players)
            deal = page.locator("#rules-deal").inner_text()
            assert all(part in deal for part in DEALS[players]), deal
            page.select_option("#speed", "instant")
            page.select_option("#difficulty", "easy")
            page.click("#btn-new-game")
            page.wait_for_url("**/r/*")
            page.locator("#hand .hand-card").first.wait_for()
            assert page.locator(".felt .seat").count() == players
            places = page.eval_on_selector_all(".felt .seat", "els => els.map(e => e.dataset.pos)")
            assert len(set(places)) == players, places

            # my turn to follow, with every other seat's cards on the table (a round in which
            # the player never plays last is played out, then the next one dealt)
            def following_last() -> bool:
                return (
                    phase(page) == "play" and my_turn(page) and page.locator("#trick:not(.finished) .play").count() == players - 1
                )

            for _ in range(4):
                play_until([page], lambda: following_last() or phase(page) == "between", timeout=240)
                if following_last():
                    break
                page.locator("#btn-next-round").click()
                wait_js(page, "() => document.querySelector('.table-page').dataset.phase !== 'between'")
            else:
                raise AssertionError("the player never played last in four rounds")
            assert page.locator("#called-card strong[data-call]").count() == players // 2 - 1
            page.locator("#btn-hint").click()
            page.locator("#hand .hand-card.selected").first.wait_for()
            wait_js(page, "() => !document.querySelector('#btn-play').disabled")
            problems = [p for size in [(360, 640), (640, 360), (1366, 768), (1920, 1080)] for p in layout_problems(page, size)]
        finally:
            ctx.close()
    assert not problems, "\n".join(problems)


# table size -> the decks it is dealt from, as the create-game screen deals it
DECKS = {4: 2, 5: 2, 6: 3, 7: 3, 8: 4}
# a ten-card throw: a tractor of three triples and a single (four decks hold four copies of a card)
THROW = ["9", "9", "9", "10", "10", "10", "J", "J", "J", "Q"]
PHONES = [(360, 640), (390, 844)]
# a phone held sideways to see a long hand: the felt is short, not narrow
LANDSCAPES = [(640, 360), (740, 360), (844, 390)]
LEFT_THE_PANEL = """() => {
  const panel = document.querySelector('#last-trick').getBoundingClientRect();
  return [...document.querySelectorAll('#last-trick .lt-row')].filter((row) => [...row.querySelectorAll('.card')]
    .some((c) => { const r = c.getBoundingClientRect(); return r.left < panel.left - 1 || r.right > panel.right + 1; }))
    .map((row) => row.querySelector('.who').textContent);
}"""
DESKTOPS = [(1280, 800), (1366, 768), (1920, 1080)]
SWITCH_LANGUAGE = """async ([lang, state]) => {
  const { setLang } = await import('/static/js/i18n.js');
  setLang(lang);
  window.room.deliver(state);
}"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


@pytest.mark.parametrize("players", sorted(DECKS))
@pytest.mark.parametrize("finished", [False, True], ids=["open", "finished"])
def test_long_plays_keep_to_their_places_at_every_table_size(srv: LiveServer, browser: Any, players: int, finished: bool) -> None:
    """A trick of ten-card plays, on my first turn to play of a real deal (a full hand: 26 cards at
    eight seats), in Chinese: on a phone upright or held sideways and on desktops no play covers
    another play or a seat label, none leaves the felt, the hand and the buttons are on screen, and
    the cards stay readable (hand cards at least 40 px wide, the trick's at least half that); the
    phone held sideways in English too.
    Open: every other seat has played and I follow; finished: every seat's play, until the next
    lead, and in the side panel's last trick, where every play stays inside the panel.
    Eight seats on a 360 px phone once left the trick 124 px between the side seats' labels; a
    640x360 phone held sideways once left the felt 100 px, its labels on top of each other."""
    rules: dict[str, Any] = {"preset": "classic"}
    if players != 4:
        rules = {"preset": "bianfeng-friend", "players": players, "decks": DECKS[players]}
    match = _bots_until(rules, lambda m: m.round.phase == Phase.PLAY and m.round.turn == 0 and not m.round.tricks)
    state = _state_for(match, 0)
    view = state["view"]
    assert len(view["hand"]) == len(match.round.hands[0]) and state["options"]["turn"]
    plays = [{"seat": seat, "cards": ["SHCD"[seat % 4] + rank for rank in THROW]} for seat in range(players)]
    if finished:
        view["trick"] = None
        view["last_trick"] = {"leader": 1, "plays": plays[1:] + plays[:1], "winner": 1, "points": 40}
    else:
        view["trick"] = {"leader": 1, "plays": plays[1:], "attempted": None}
    # motion off: a finished trick stays on the felt (with motion on, it is swept to its winner)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN", reduced_motion="reduce")
    try:
        page = fake_table(srv, ctx, state, lang="zh")
        page.add_style_tag(url=srv.url + "/static/style.css")  # the harness's page has the modules only
        page.locator("#trick .play").first.wait_for()
        assert "出牌" in page.locator("#actions").inner_text()  # the page speaks Chinese, my turn to play
        problems = []

        def check(size: tuple[int, int], lang: str) -> None:
            problems.extend(f"{lang} {p}" for p in layout_problems(page, size))
            got = page.evaluate(BOXES)
            assert len(got["plays"]) == len(plays) - (not finished) and len(got["seats"]) == players
            trick_w = page.evaluate("() => document.querySelector('#trick .card').getBoundingClientRect().width")
            hand_w = got["cards"][0]["w"]
            if trick_w < hand_w / 2 or hand_w < 40:
                problems.append(f"{lang} {size}: trick cards {trick_w:.0f} px wide, a hand card {hand_w:.0f} px")
            if finished:  # the side panel's last trick too: every play inside the panel
                out = page.evaluate(LEFT_THE_PANEL)
                problems.extend(f"{lang} {size}: a card of {who}'s play in the last trick leaves the side panel" for who in out)

        for size in PHONES + LANDSCAPES + DESKTOPS:
            check(size, "zh")
        # English labels and top bar are longer: the sideways phone again, in English
        page.evaluate(SWITCH_LANGUAGE, ["en", state])
        wait_js(page, "() => document.querySelector('#actions').textContent.includes('Play')")
        for size in LANDSCAPES:
            check(size, "en")
        assert not page.errors
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)
