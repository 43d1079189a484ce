"""The wire contract: the generated TypeScript is current, and what the server sends matches wire.py."""

from __future__ import annotations

import json
import random
import types
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

import httpx
import pytest

from server_util import Client, create_game, room_of, until
from tuolaji.server import wire, wire_ts
from tuolaji.server.projection import replay_frames
from tuolaji.server.testing import LiveServer


def mismatches(value: Any, tp: Any, path: str = "$") -> list[str]:
    """Where ``value`` breaks the declared type ``tp`` (empty: it conforms). Unknown keys count."""
    origin = get_origin(tp)
    if origin in (NotRequired, Required):
        return mismatches(value, get_args(tp)[0], path)
    if tp is type(None):
        return [] if value is None else [f"{path}: {value!r:.60} is not null"]
    if tp is object or tp is Any:
        return []
    if tp is bool:
        return [] if isinstance(value, bool) else [f"{path}: {value!r:.60} is not a bool"]
    if tp is int:
        return [] if type(value) is int else [f"{path}: {value!r:.60} is not an int"]
    if tp is float:
        return [] if type(value) in (int, float) else [f"{path}: {value!r:.60} is not a number"]
    if tp is str:
        return [] if isinstance(value, str) else [f"{path}: {value!r:.60} is not a text"]
    if origin is Literal:
        return [] if value in get_args(tp) else [f"{path}: {value!r:.60} is not one of {get_args(tp)}"]
    if origin in (Union, types.UnionType):
        options = [mismatches(value, a, path) for a in get_args(tp)]
        return [] if any(not o for o in options) else min(options, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r:.60} is not a list"]
        return [m for i, v in enumerate(value) for m in mismatches(v, get_args(tp)[0], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        return [m for k, v in value.items() for m in mismatches(v, get_args(tp)[1], f"{path}.{k}")]
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: {value!r:.60} is not an object ({tp.__name__})"]
        hints = get_type_hints(tp, include_extras=True)
        out = [f"{path}.{k}: not declared in {tp.__name__}" for k in value if k not in hints]
        out += [f"{path}.{k}: missing ({tp.__name__})" for k in tp.__required_keys__ if k not in value]
        out += [m for k, v in value.items() if k in hints for m in mismatches(v, hints[k], f"{path}.{k}")]
        return out
    raise TypeError(f"cannot check {tp!r}")


MESSAGES = {get_type_hints(t)["type"].__args__[0]: t for t in get_args(wire.ServerMessage)}


def test_the_generated_typescript_is_up_to_date() -> None:
    assert wire_ts.main(["--check"]) == 0, "run: python -m tuolaji.server.wire_ts"


def test_the_checker_catches_a_wrong_message() -> None:
    good = {"type": "refused", "code": "x", "reason": "r", "why": "w"}
    assert mismatches(good, wire.RefusedMsg) == []
    assert mismatches({**good, "extra": 1}, wire.RefusedMsg) == ["$.extra: not declared in RefusedMsg"]
    assert mismatches({"type": "refused", "code": "x", "reason": "r"}, wire.RefusedMsg) == ["$.why: missing (RefusedMsg)"]
    assert mismatches({**good, "re": 1.5}, wire.RefusedMsg)


def test_everything_the_server_sends_over_a_round_matches_the_contract(tmp_path: Any) -> None:
    with LiveServer(tmp_path / "t.db", allow_seed=True) as srv:
        info = httpx.get(srv.url + "/api/info", timeout=10).json()
        assert mismatches(info, wire.InfoResponse) == []
        assert mismatches(httpx.get(srv.url + "/api/rules", timeout=10).json(), wire.RulesSchema) == []
        created = create_game(srv, seed=11)
        assert mismatches(created, wire.CreatedResponse) == []
        c = Client(srv, created["code"], token=created["token"], lang="zh")
        spectator = Client(srv, created["code"], lang="en")
        try:
            c.refused({"type": "play", "cards": ["S2", "S2", "S2", "S2", "S2", "S2", "S2", "S2", "S2"]})
            c.request({"type": "check", "action": "play", "cards": ["HA"]}, "checked")
            c.request({"type": "ping"}, "pong")
            until(c, srv, lambda s: bool(s.get("between")), rng=random.Random(3))
            games = httpx.get(srv.url + "/api/games", headers={"X-Tuolaji-Token": c.token or ""}, timeout=10).json()
            assert mismatches(games, wire.GamesResponse) == []
            game = httpx.get(srv.url + f"/api/games/{created['code']}", timeout=10).json()
            assert mismatches(game, wire.GameInfoResponse) == []
            room = room_of(srv, created["code"])

            def whole() -> dict[str, Any]:  # what the replay holds, built afresh
                return {**replay_frames(room.match, 1, 0), "names": room.names(), "summary": room.public_summary()}

            for _ in range(2):  # built, then kept: the same text both times
                got = httpx.get(srv.url + f"/api/games/{created['code']}/replay?round=1&seat=0", timeout=30)
                assert got.text == json.dumps(srv.call(whole), ensure_ascii=False, separators=(",", ":"))
            replay = got.json()
            assert mismatches(replay, wire.ReplayResponse) == []
            c.request({"type": "ping"}, "pong")  # everything sent before the answer has arrived
            spectator.request({"type": "ping"}, "pong")
            sent = c.msgs + spectator.msgs
        finally:
            c.close()
            spectator.close()
    kinds = {m["type"] for m in sent}
    assert {"welcome", "state", "refused", "checked", "pong"} <= kinds
    assert any("summary" in m for m in sent), "no state carried a round summary"
    events = {e["e"] for m in sent if m["type"] == "state" for e in m["events"]}
    assert {"dealt", "declared", "trump_fixed", "played", "trick_ended", "round_ended"} <= events
    for m in sent:
        assert mismatches(m, MESSAGES[m["type"]]) == [], m["type"]


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_every_message_type_is_exported_to_typescript(name: str) -> None:
    assert f"export interface {MESSAGES[name].__name__} " in wire_ts.render()
