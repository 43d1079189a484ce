"""Games survive a server restart; records export, import and replay; the start page's list."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, room_of, snapshot, until  # noqa: E402
from tuolaji.bots.driver import Table  # noqa: E402
from tuolaji.bots.registry import make_bot  # noqa: E402
from tuolaji.cards import cards_str  # noqa: E402
from tuolaji.engine.match import Match  # noqa: E402
from tuolaji.record import dumps, from_record  # noqa: E402
from tuolaji.server.app import export_record  # noqa: E402
from tuolaji.server.protocol import parse_message  # noqa: E402
from tuolaji.server.store import Store  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


def test_a_game_resumes_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rng = random.Random(2)
    with LiveServer(db, allow_seed=True) as srv:
        game = create_game(srv, seed=31, speed="instant")
        code, token = game["code"], game["token"]
        c = Client(srv, code, token=token)
        s = until(c, srv, lambda s: s["options"]["phase"] == "play" and s["view"]["tricks_played"] >= 3, rng=rng)
        before, actions = snapshot(srv, code)
        hand = s["view"]["hand"]
        c.close()
    # a new server process on the same file (LiveServer shuts down cleanly, which saves)
    with LiveServer(db, allow_seed=True) as srv2:
        c2 = Client(srv2, code, token=token)
        s2 = c2.wait_state(lambda s: my_turn_play(s))
        assert s2["you"]["seat"] == 0
        assert s2["view"]["hand"] == hand
        assert snapshot(srv2, code) == (before, actions)
        s3 = until(c2, srv2, lambda s: s["view"]["tricks_played"] >= 5, rng=rng)
        assert s3["view"]["tricks_played"] >= 5
        c2.close()


def my_turn_play(s: dict) -> bool:
    o = s.get("options") or {}
    return bool(o.get("turn")) and o.get("phase") == "play"


def test_saved_as_it_goes_without_a_clean_shutdown(tmp_path: Path) -> None:
    """What the periodic saver wrote is a complete game: a crash loses at most the last second."""
    db = tmp_path / "games.sqlite3"
    with LiveServer(db, allow_seed=True, save_interval=0.1) as srv:
        game = create_game(srv, seed=32)
        c = Client(srv, game["code"], token=game["token"])
        until(c, srv, lambda s: s["options"]["phase"] == "play" and s["view"]["tricks_played"] >= 2)
        expected, _ = snapshot(srv, game["code"])  # the game waits for this player's play now
        # the saver writes on its own schedule (one write may be under way): read the file, while
        # the server still runs, until it holds the game as it is; a loaded machine may take a while
        deadline = time.monotonic() + 30
        while True:
            store = Store(db)
            loaded = store.load(game["code"])
            store.close()
            assert loaded is not None
            record, info = loaded
            saved = dumps(from_record(record))
            if saved == expected or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert saved == expected
        assert info["room"]["seats"][0]["token"] and info["room"]["seats"][0]["token"] != game["token"]
        c.close()


def test_start_page_lists_my_games(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "g.sqlite3", allow_seed=True) as srv:
        mine = create_game(srv, seed=1, token="my-browser-token")
        other = create_game(srv, seed=2, token="someone-else")
        games = httpx.get(srv.url + "/api/games", headers={"X-Tuolaji-Token": "my-browser-token"}).json()["games"]
        by_code = {g["code"]: g for g in games}
        assert by_code[mine["code"]]["mine"] == 0
        assert by_code[other["code"]]["mine"] is None
        # deleting needs a player's token
        r = httpx.delete(srv.url + f"/api/games/{other['code']}", headers={"X-Tuolaji-Token": "my-browser-token"})
        assert r.status_code == 403
        r = httpx.delete(srv.url + f"/api/games/{mine['code']}", headers={"X-Tuolaji-Token": "my-browser-token"})
        assert r.status_code == 200
        codes = {g["code"] for g in httpx.get(srv.url + "/api/games").json()["games"]}
        assert mine["code"] not in codes and other["code"] in codes


def finished_match(seed: int = 5, rounds: int = 2) -> Match:
    m = Match(seed=seed)
    table = Table(m, [make_bot("random", seed=i) for i in range(4)])
    while len(m.rounds) < rounds:
        table.step()
    return m


def test_export_import_and_replay(tmp_path: Path) -> None:
    match = finished_match()
    record = dumps(match)
    with LiveServer(tmp_path / "g.sqlite3") as srv:
        r = httpx.post(srv.url + "/api/import", content=record, headers={"X-Tuolaji-Token": "t"})
        assert r.status_code == 200, r.text
        code = r.json()["code"]
        assert r.json()["rounds"] == 2
        # a game in progress exports its finished rounds, which load again
        exported = httpx.get(srv.url + f"/api/games/{code}/record").json()
        again = from_record(exported)
        assert len(again.rounds) == 2
        assert [e.to_dict() for e in again.events[: len(exported["events"])]] == exported["events"]
        # replay a finished round from two seats' views
        for seat in (0, 3):
            data = httpx.get(srv.url + f"/api/games/{code}/replay", params={"round": 2, "seat": seat}).json()
            frames = data["frames"]
            plays = [f for f in frames if f["label"]["e"] == "played"]
            assert len(plays) == 4 * len(match.rounds[1].tricks)
            assert all(f["view"]["seat"] == seat for f in frames)
            first = plays[0]["view"]
            assert first["hand_sizes"][seat] == len(first["hand"])
            assert frames[-1]["view"]["result"]["attacker_points"] == match.rounds[1].result.attacker_points
            assert [f["label"]["trick"] for f in plays][-1] == len(match.rounds[1].tricks)
        spect = httpx.get(srv.url + f"/api/games/{code}/replay", params={"round": 1, "seat": "spectator"}).json()
        assert all(f["view"]["hand"] == [] for f in spect["frames"])
        bad = httpx.get(srv.url + f"/api/games/{code}/replay", params={"round": 3, "seat": 0})
        assert bad.status_code == 400
        # a damaged record is refused with the engine's reason
        broken = json.loads(record)
        broken["events"][5]["card"] = "BJ"
        r = httpx.post(srv.url + "/api/import", content=json.dumps(broken))
        assert r.status_code == 400 and "events" in r.json()["error"]
        r = httpx.post(srv.url + "/api/import", content=b"not a record")
        assert r.status_code == 400


def test_export_of_a_game_in_progress_hides_the_current_deal() -> None:
    match = finished_match(rounds=1)
    table = Table(match, [make_bot("random", seed=i) for i in range(4)])
    for _ in range(150):
        table.step()
    assert len(match.rounds) == 1 and match.round.dealt > 0
    data = export_record(match)
    assert data["seed"] is None
    assert len(data["deals"]) == 2
    assert data["deals"][1] != cards_str(match.deals[1])
    loaded = from_record(data)
    assert len(loaded.rounds) == 1 and loaded.round.dealt == 0


def test_create_validates_rules_and_settings(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "g.sqlite3") as srv:
        post = lambda body: httpx.post(srv.url + "/api/games", json=body)  # noqa: E731
        assert post({"rules": "no-such-preset"}).status_code == 400
        assert post({"rules": {"preset": "classic", "decks": 9}}).status_code == 400
        assert post({"speed": "warp"}).status_code == 400
        assert post({"seed": 3}).status_code == 400  # this server takes no seed
        assert post({"seat": 9}).status_code == 400
        for body, word in (
            ({"start": "no"}, "'start'"),
            ({"rules": {"preset": "classic", "must_defend": "5"}}, "must_defend"),
            ({"rules": {"preset": "classic", "name": 5}}, "'name'"),
        ):
            refused = post(body)
            assert refused.status_code == 400 and word in refused.json()["error"], refused.text
        ok = post({"rules": {"preset": "classic"}, "speed": "fast", "timer": 30, "difficulty": "hard", "seat": 1})
        assert ok.status_code == 200
        code = ok.json()["code"]
        info = httpx.get(srv.url + f"/api/games/{code}").json()
        assert info["settings"] == {"speed": "fast", "timer": 30, "difficulty": "hard"}
        assert info["seats"][1]["human"] and not info["seats"][0]["human"]
        check = httpx.post(srv.url + "/api/rules/check", json={"rules": {"preset": "classic", "decks": 9}}).json()
        assert check["ok"] is False and "decks" in check["error"]
        schema = httpx.get(srv.url + "/api/rules").json()
        assert "classic" in schema["presets"] and any(f["name"] == "decks" for f in schema["fields"])
        by_name = {f["name"]: f for f in schema["fields"]}  # coins are counted: every stake setting is offered
        assert not any("offered" in f or "hidden_options" in f for f in schema["fields"])
        assert by_name["stake"]["kind"] == "int" and by_name["stake"]["default"] == 0
        assert "stake" in by_name["throw_penalty"]["options"] and by_name["override_count_multiplies_stake"]["kind"] == "bool"
        assert by_name["declare_rights"]["options"] == ["anyone", "dealer_side"]
        assert room_of(srv, code).status == "playing"


def test_message_schema_unit() -> None:
    assert parse_message('{"type": "play", "cards": ["S10", "ha"], "id": 3}').fields["cards"] == (8, 25)
    for text in ('{"type": "play", "cards": ["S1"]}', '{"type": "pass", "seat": 1.5}', '{"type": "ready", "x": 1}'):
        with pytest.raises(ValueError):
            parse_message(text)


def test_a_finished_match_shows_the_winner(tmp_path: Path) -> None:
    match = Match(seed=9)
    Table(match, [make_bot("random", seed=i) for i in range(4)]).play_match()
    assert match.over
    with LiveServer(tmp_path / "g.sqlite3") as srv:
        r = httpx.post(srv.url + "/api/import", content=dumps(match))
        assert r.status_code == 200 and r.json()["over"]
        code = r.json()["code"]
        c = Client(srv, code)
        s = c.state
        assert s is not None and s["view"]["over"] and s["room"]["status"] == "finished"
        assert s["summary"]["winner"] == match.winner
        assert s["summary"]["round"] == len(match.rounds)
        assert c.refused({"type": "play", "cards": ["SA"]})["code"] == "not_seated"
        c.close()
