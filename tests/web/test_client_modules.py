"""The web client's modules in Chromium without a server in between: the table page on a fake
transport (the seam the offline build's worker uses), the coach's "why", skipped events, and the
postMessage transport over a MessageChannel."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

# A table page whose transport is a fake room in the page: window.room.deliver(msg) plays the server.
HARNESS = """async ([state, lang]) => {
  const transport = await import("/static/js/transport.js");
  const { TablePage } = await import("/static/js/table.js");
  const { setLang } = await import("/static/js/i18n.js");
  setLang(lang);
  const sent = [];
  let on = null;
  transport.setTransportFactory((room, handlers) => {
    on = handlers;
    setTimeout(() => handlers.open(), 0);
    return { send(m) { sent.push(m); return true; }, close() {} };
  });
  document.body.innerHTML = "<main id='app'></main>";
  new TablePage(state.room.code, { container: document.getElementById("app") });
  await new Promise((r) => setTimeout(r, 20));
  window.room = { sent, deliver: (m) => on.message(m) };
  on.message(state);
}"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


@pytest.fixture(scope="module")
def state(srv: LiveServer) -> dict[str, Any]:
    """A real state message for seat 0, from the server."""
    game = create_game(srv, seed=5, speed="fast")
    c = Client(srv, game["code"], token=game["token"])
    try:
        return c.wait_state(lambda s: len(s["view"]["hand"]) >= 20, timeout=60)
    finally:
        c.close()


def fake_table(srv: LiveServer, context: Any, state: dict[str, Any], *, lang: str = "en") -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(srv.url + "/api/info")  # any page of the origin: the modules are imported by the harness
    page.evaluate(HARNESS, [state, lang])
    page.locator("#hand .hand-card").first.wait_for()
    page.errors = errors
    return page


def test_the_table_talks_through_the_transport_it_is_given(srv: LiveServer, context: Any, state: dict[str, Any]) -> None:
    page = fake_table(srv, context, state)
    sent = page.evaluate("window.room.sent")
    assert sent[0]["type"] == "hello"
    assert page.locator("#hand .hand-card").count() == len(state["view"]["hand"])
    assert not page.errors


def test_a_new_why_with_the_same_reason_shows_the_new_explanation(srv: LiveServer, context: Any, state: dict[str, Any]) -> None:
    page = fake_table(srv, context, state)
    refuse = "(why) => window.room.deliver({type: 'refused', code: 'must_follow', reason: 'same reason', why})"
    page.evaluate(refuse, "the first explanation")
    page.evaluate(refuse, "the second explanation")  # the same markup: the region is kept, not redrawn
    page.locator("#btn-why").click()
    assert page.locator("#why-text").inner_text() == "the second explanation"
    page.evaluate(refuse, "the third explanation")
    page.locator("#btn-why").click()
    assert page.locator("#why-text").inner_text() == "the third explanation"
    assert not page.errors


def test_skipped_events_are_said_in_the_log(srv: LiveServer, context: Any, state: dict[str, Any]) -> None:
    page = fake_table(srv, context, state)
    page.evaluate("(s) => window.room.deliver({...s, events_skipped: 37, events: []})", state)
    assert "37 earlier events not shown" in page.locator("#log").inner_text()
    assert not page.errors


def test_the_post_message_transport_over_a_message_channel(srv: LiveServer, context: Any) -> None:
    page = context.new_page()
    page.goto(srv.url + "/api/info")
    result = page.evaluate("""async () => {
      const { postMessageTransport } = await import("/static/js/transport.js");
      const { port1, port2 } = new MessageChannel();
      const seen = [];
      port2.onmessage = (ev) => {  // a room core behind postMessage, as a worker would run it
        const d = ev.data;
        seen.push(d);
        if (d.open) port2.postMessage({ conn: d.conn, open: true });
        else if (d.msg) port2.postMessage({ conn: d.conn, msg: { type: "pong", re: d.msg.id } });
      };
      const got = [];
      let before = null;
      const open = postMessageTransport(port1);
      const t = open("ABCDE", {
        open: () => { before = t.send({ type: "ping", id: 7 }); },
        message: (m) => got.push(m),
        lost: () => got.push("lost"),
      });
      const early = t.send({ type: "ping", id: 1 });  // not open yet: dropped
      for (let i = 0; i < 100 && !got.length; i++) await new Promise((r) => setTimeout(r, 10));
      t.close();
      await new Promise((r) => setTimeout(r, 20));
      return { got, seen, early, before };
    }""")
    assert result["early"] is False and result["before"] is True
    assert result["got"] == [{"type": "pong", "re": 7}]
    conn = result["seen"][0]["conn"]
    assert result["seen"] == [
        {"conn": conn, "room": "ABCDE", "open": True},
        {"conn": conn, "msg": {"type": "ping", "id": 7}},
        {"conn": conn, "close": True},
    ]


def _deliver_options(page: Any, state: dict[str, Any], options: dict[str, Any], phase: str) -> None:
    msg = {**state, "options": options, "view": {**state["view"], "phase": phase}}
    page.evaluate("(m) => window.room.deliver(m)", msg)


def test_table_rule_buttons_send_their_actions(srv: LiveServer, context: Any, state: dict[str, Any]) -> None:
    """Surrender (propose, answer) and calling a copy of a card: the buttons the options offer
    send the actions the server expects."""
    page = fake_table(srv, context, state)
    base = {"turn": True, "eff": state["options"]["eff"]}
    _deliver_options(page, state, {**base, "phase": "surrender", "answer_surrender": 2}, "surrender")
    page.locator("#btn-surrender-accept").click()
    _deliver_options(page, state, {**base, "phase": "play", "lead": True, "can_surrender": True}, "play")
    page.locator("#btn-surrender").click()
    _deliver_options(page, state, {**base, "phase": "call_friend", "call_friend": True, "friend_copies": 2}, "call_friend")
    page.select_option("#friend-card", "HA")
    page.select_option("#friend-copy", "2")
    page.locator("#btn-call-friend").click()
    sent = [m for m in page.evaluate("window.room.sent") if m["type"] in ("surrender", "surrender_answer", "call_friend")]
    assert [{k: v for k, v in m.items() if k != "id"} for m in sent] == [
        {"type": "surrender_answer", "accept": True},
        {"type": "surrender"},
        {"type": "call_friend", "card": "HA", "nth": 2},
    ]
    assert not page.errors


def test_the_second_of_two_friend_calls(srv: LiveServer, context: Any, state: dict[str, Any]) -> None:
    """Several friends (issue 11 item 10d): after one call the dealer is asked for the next one,
    the card already called cannot be picked again, and the top bar lists the call."""
    page = fake_table(srv, context, state)
    base = {"turn": True, "eff": state["options"]["eff"]}
    view = {**state["view"], "phase": "call_friend", "dealer": 0, "friends": 2}
    view["friend_card"] = "SA"
    view["friend_calls"] = [{"card": "SA", "nth": 0, "shown": False, "seat": None}]
    msg = {**state, "options": {**base, "phase": "call_friend", "call_friend": True}, "view": view}
    page.evaluate("(m) => window.room.deliver(m)", msg)
    page.locator("#btn-call-friend").wait_for()
    assert "Friend 2 of 2" in page.locator("#actions").inner_text() or "Friend 2 of 2" in page.inner_text("body")
    assert page.locator("#friend-card option[value='SA']").is_disabled()
    assert page.locator("#friend-card").input_value() != "SA"
    assert page.locator("#called-card strong[data-call]").count() == 1
    page.select_option("#friend-card", "DA")
    page.locator("#btn-call-friend").click()
    sent = [m for m in page.evaluate("window.room.sent") if m["type"] == "call_friend"]
    assert [{k: v for k, v in m.items() if k != "id"} for m in sent] == [{"type": "call_friend", "card": "DA"}]
    assert not page.errors


def test_a_joker_face_reads_in_the_page_language(srv: LiveServer, context: Any) -> None:
    """The English table showed 大王/小王 on the jokers' faces: an English face reads BIG/SMALL beside
    the JOKER letters (and the log says Big Joker); the Chinese keeps 大王/小王."""
    page = context.new_page()
    page.goto(srv.url + "/api/info")
    faces = page.evaluate(
        """async () => {
          const { cardEl, cardText } = await import('/static/js/cards.js');
          const { setLang } = await import('/static/js/i18n.js');
          const out = {};
          for (const lang of ['en', 'zh', 'en']) {
            setLang(lang);
            for (const c of ['BJ', 'LJ']) {
              const el = cardEl(c);
              const face = el.querySelector('svg').textContent.replace(/\\s+/g, '');
              out[lang + c] = [face, el.getAttribute('aria-label'), cardText(c)];
            }
          }
          return out;
        }"""
    )
    assert faces["enBJ"] == ["JOKER★BIG", "big joker", "Big Joker"], faces
    assert faces["enLJ"] == ["JOKER★SMALL", "small joker", "Small Joker"], faces
    assert faces["zhBJ"] == ["JOKER★大王", "大王", "大王"], faces
    assert faces["zhLJ"] == ["JOKER★小王", "小王", "小王"], faces
    assert not re.search(r"[\u4e00-\u9fff]", faces["enBJ"][0] + faces["enLJ"][0])
