"""Bad texts, bad JSON and crafted records at the server's edge (issue 15, findings 1, 6, 10)."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, play_turn, room_of, snapshot, until  # noqa: E402
from tuolaji.bots.driver import Table  # noqa: E402
from tuolaji.bots.registry import make_bot  # noqa: E402
from tuolaji.engine.match import Match  # noqa: E402
from tuolaji.record import RecordError, dumps, from_record, to_record  # noqa: E402
from tuolaji.server.api import record_to_continue  # noqa: E402
from tuolaji.server.store import Store  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

LONE = "\udfff"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def _post(srv: LiveServer, path: str, text: str | bytes) -> httpx.Response:
    return httpx.post(srv.url + path, content=text, headers={"Content-Type": "application/json"}, timeout=20)


def test_a_lone_surrogate_in_a_seat_name_is_refused_and_saving_goes_on(srv: LiveServer) -> None:
    game = create_game(srv, seed=41, seat=None, start=False)
    code = game["code"]
    c = Client(srv, code)
    before = snapshot(srv, code)
    # the exact message of the report: valid JSON, one lone UTF-16 surrogate in the name
    m = c.refused('{"type":"sit","seat":1,"name":"\\udfff","id":99}')
    assert m["code"] == "bad_message" and "name" in m["reason"]
    assert snapshot(srv, code) == before
    for bad in ("a\x00b", "x\u202eevil", "\x1b[31mred", "x" * 25):  # control, direction-override, too long
        assert c.refused({"type": "sit", "seat": 1, "name": bad})["code"] == "bad_message"
    assert c.request({"type": "sit", "seat": 1, "name": "小明"}, "seated")["type"] == "seated"  # a plain name works
    assert srv.call(lambda: srv.tables.save_now(room_of(srv, code)))
    r = httpx.get(srv.url + "/api/games", timeout=10)
    assert r.status_code == 200 and any(g["code"] == code for g in r.json()["games"])
    c.close()


def test_a_lone_surrogate_in_a_new_game_or_its_rules_is_refused(srv: LiveServer) -> None:
    for body in ('{"name":"\\udfff"}', '{"rules":{"preset":"classic","name":"\\udfff"}}', '{"x":{"\\ud800":1}}'):
        r = _post(srv, "/api/games", body)
        assert r.status_code == 400, (body, r.status_code, r.text)
        assert "Unicode" in r.json()["error"] or "name" in r.json()["error"]
    for name in ("bell\x07", "x" * 25):  # a control character; longer than a seat name may be
        r = _post(srv, "/api/games", json.dumps({"name": name}))
        assert r.status_code == 400 and r.json()["code"] == "bad_name", (name, r.text)
    assert httpx.get(srv.url + "/api/games", timeout=10).status_code == 200


def _match(seed: int, rounds: int, *, extra_plays: int = 0) -> Match:
    m = Match(seed=seed)
    table = Table(m, [make_bot("random", seed=i) for i in range(4)])
    while len(m.rounds) < rounds:
        table.step()
    for _ in range(extra_plays):
        table.step()
    return m


def test_an_imported_record_with_a_lone_surrogate_is_refused(srv: LiveServer) -> None:
    record = to_record(_match(5, 1))
    record["rules"]["name"] = LONE
    text = json.dumps(record)  # escapes the surrogate: valid JSON
    r = _post(srv, "/api/import", text)
    assert r.status_code == 400 and r.json()["code"] == "bad_record"
    with pytest.raises(RecordError, match="Unicode"):
        from_record(text)


@pytest.mark.parametrize("path", ["/api/games", "/api/rules/check", "/api/import"])
def test_deep_json_bodies_are_refused_not_500(srv: LiveServer, path: str) -> None:
    for body in ("[" * 1000 + "]" * 1000, '{"a":' * 5000 + "1" + "}" * 5000):
        r = _post(srv, path, body)
        assert r.status_code < 500, r.text
        if path == "/api/rules/check":
            assert r.json()["ok"] is False
        else:
            assert r.status_code == 400


def test_deep_json_on_the_websocket_is_refused_and_the_socket_stays(srv: LiveServer) -> None:
    game = create_game(srv, seed=42)
    c = Client(srv, game["code"], token=game["token"])
    before = snapshot(srv, game["code"])
    assert c.refused('{"type":"ping","id":' + "[" * 2000 + "]" * 2000 + "}")["code"] == "too_deep"
    assert snapshot(srv, game["code"]) == before
    assert c.request({"type": "ping"}, "pong")["type"] == "pong"  # still open
    c.close()


def test_records_that_are_not_utf8_or_too_deep_raise_record_error() -> None:
    for bad in (
        b"\xff\xfe{}",
        "[" * 3000 + "]" * 3000,
        '{"format":' * 100 + "1" + "}" * 100,
        json.dumps({"format": "tuolaji-record", "version": 1, "rules": {"x": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}}),
    ):
        with pytest.raises(RecordError):
            from_record(bad)


def test_an_imported_game_continues_with_deals_the_importer_cannot_know(srv: LiveServer) -> None:
    """A crafted record (a chosen seed, no events) must not fix the hands friends then play."""
    seed = 123456789
    crafted = to_record(Match(seed=seed))
    crafted["events"] = []
    r = _post(srv, "/api/import", json.dumps(crafted))
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    m = srv.call(lambda: room_of(srv, code).match)
    known = Match(seed=seed)
    assert m.seed != seed
    assert m.deals[0] != known.deals[0]
    # a record stopped mid-round: its finished round is kept, the unfinished one is dealt anew
    mid = _match(7, 1, extra_plays=40)
    r = _post(srv, "/api/import", dumps(mid))
    assert r.status_code == 200, r.text
    m2 = srv.call(lambda: room_of(srv, r.json()["code"]).match)
    assert len(m2.rounds) == 1 and m2.deals[0] == mid.deals[0]
    assert m2.deals[1] != mid.deals[1] and m2.seed != mid.seed


def test_fresh_seeds_do_not_come_from_the_global_mersenne_twister() -> None:
    random.seed(2024)
    expected = random.randrange(2**63)
    random.seed(2024)
    assert Match().seed != expected
    random.seed(2024)
    assert Match().deals[0] != Match(seed=expected).deals[0]
    # whatever function of the global generator a seed came from, the same generator state would
    # give the same seed twice: a new match's, and an imported game's fresh one
    seeds = []
    for _ in range(2):
        random.seed(2024)
        seeds.append(Match().seed)
    assert seeds[0] != seeds[1]
    record = dumps(_match(7, 1, extra_plays=4))
    fresh = []
    for _ in range(2):
        random.seed(2024)
        fresh.append(record_to_continue(record, max_rounds=10)["seed"])
    assert fresh[0] != fresh[1] and 7 not in fresh


def test_off_turn_hints_are_refused_without_a_bot_traceback(srv: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    game = create_game(srv, seed=43, difficulty="expert", speed="slow")
    c = Client(srv, game["code"], token=game["token"])
    until(c, srv, lambda s: s["options"]["phase"] == "play")
    play_turn(c, srv)  # now the computer players think (slow speed): not this seat's turn
    assert not srv.call(lambda: room_of(srv, game["code"]).decider() == 0)
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="tuolaji"):
        m = c.request({"type": "hint"}, "hint")
        assert m["type"] == "refused" and m["code"] == "no_hint"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    c.close()


def test_store_reads_back_what_it_wrote(tmp_path: Path) -> None:
    store = Store(tmp_path / "x.sqlite3")
    assert store.codes() == set()
    store.close()


def test_a_client_gone_before_its_refusal_logs_no_traceback(srv: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    """An oversized first frame to an unknown room: the protocol closes the socket while the
    room is looked up, and the refusal that follows must not log "Exception in ASGI application"
    (the full fuzz run's only tracebacks)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    caplog.clear()
    with caplog.at_level(logging.ERROR):
        for i in range(12):
            with connect(srv.url.replace("http", "ws", 1) + f"/ws/NOROOM{i}", open_timeout=10, ping_interval=None) as ws:
                try:
                    ws.send("x" * 300_000)
                    ws.recv(5)
                except (ConnectionClosed, TimeoutError):
                    pass
        assert httpx.get(srv.url + "/api/info", timeout=10).status_code == 200  # the log has caught up
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:2000]
