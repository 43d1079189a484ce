"""The offline build's worker side, on CPython: the API the page calls, saves in the browser's
store (a dict here), damaged and foreign saves, import of a server export, and the packed
package importing without the server's dependencies."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.engine.match import Match
from tuolaji.offline.build import pack_package, packed_files
from tuolaji.offline.host import OfflineHost
from tuolaji.server.api import export_record


class DictSaves:
    """IndexedDB as the worker hands it over: async methods taking and returning text."""

    def __init__(self) -> None:
        self.saves: dict[str, str] = {}
        self.meta: dict[str, str] = {}

    async def put(self, code: str, save: str, meta: str) -> None:
        self.saves[code], self.meta[code] = save, meta

    async def get(self, code: str) -> str:
        return self.saves.get(code, "")

    async def list(self) -> str:
        return json.dumps(list(self.meta.values()))

    async def delete(self, code: str) -> None:
        self.saves.pop(code, None)
        self.meta.pop(code, None)


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run on a thread of its own: a browser test's Playwright may hold this thread's event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def call(host: OfflineHost, method: str, path: str, body: Any = None, token: str = "", lang: str = "en") -> tuple[int, Any]:
    text = body if isinstance(body, str) else json.dumps(body) if body is not None else ""
    answer = json.loads(run(host.request(method, path, text, token, lang)))
    return answer["status"], answer["data"]


async def until(cond: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the host's tasks run until ``cond()`` holds (a loaded machine may take a while)."""
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, "the host did not get there in time"
        await asyncio.sleep(0.01)


def new_host(saves: DictSaves | None = None) -> tuple[OfflineHost, DictSaves, list[tuple[int, str]]]:
    saves = saves or DictSaves()
    sent: list[tuple[int, str]] = []
    return OfflineHost(saves, lambda conn, text: sent.append((conn, text))), saves, sent


def test_a_new_game_is_saved_listed_as_mine_and_restored_by_a_new_worker() -> None:
    host, saves, _ = new_host()
    status, made = call(host, "POST", "/api/games", {"seat": 0, "start": True, "rules": "one-deck", "difficulty": "hard"})
    assert status == 200 and made["token"]
    code = made["code"]
    assert json.loads(saves.saves[code])["format"] == "tuolaji-browser-save"
    _, listed = call(host, "GET", "/api/games", token=made["token"])
    assert [(g["code"], g["mine"]) for g in listed["games"]] == [(code, 0)]
    fresh, _, _ = new_host(saves)  # the browser was closed: a new worker, the same IndexedDB
    status, info = call(fresh, "GET", f"/api/games/{code}")
    assert status == 200 and info["rules"]["name"] == "one-deck" and info["settings"]["difficulty"] == "hard"


def test_damaged_and_foreign_saves_are_refused_in_the_players_language_and_kept() -> None:
    host, saves, sent = new_host()
    _, made = call(host, "POST", "/api/games", {"seat": 0})
    saves.saves["BADXX"] = '{"format": "tuolaji-browser-save", "version": 1, "rec'
    saves.saves["OTHER"] = json.dumps({"format": "something-else"})
    saves.saves["NEWER"] = json.loads(json.dumps(saves.saves[made["code"]])).replace('"version":1', '"version":99')
    status, data = call(host, "GET", "/api/games/BADXX")
    assert status == 422 and data["code"] == "bad_save" and "cannot be read" in data["error"]
    status, data = call(host, "GET", "/api/games/OTHER", lang="zh")
    assert status == 422 and data["code"] == "foreign_save" and "不是本游戏" in data["error"]
    assert call(host, "GET", "/api/games/NEWER")[1]["code"] == "foreign_save"
    assert "BADXX" in saves.saves and "OTHER" in saves.saves, "a refused save is left as it is"
    run(host.open(1, "BADXX", "en"))  # the table says so too, then closes
    refused = json.loads(sent[0][1])
    assert refused["type"] == "refused" and refused["code"] == "bad_save" and sent[1] == (1, "")
    assert call(host, "GET", f"/api/games/{made['code']}")[0] == 200, "the other games still open"
    assert call(host, "DELETE", "/api/games/BADXX")[0] == 200 and "BADXX" not in saves.saves


def test_a_server_export_imports_and_a_bad_file_is_refused() -> None:
    match = Match(seed=3)
    table = Table(match, [make_bot("random", seed=s) for s in range(4)])
    while len(match.rounds) < 1 or match.round.dealt < 10:
        table.step()
    host, saves, _ = new_host()
    status, data = call(host, "POST", "/api/import", json.dumps(export_record(match)), token="tok")
    assert status == 200 and data["rounds"] == 1 and not data["over"]
    _, info = call(host, "GET", f"/api/games/{data['code']}")
    assert info["status"] == "lobby" and info["rounds"] == 1
    status, bad = call(host, "POST", "/api/import", '{"format": "tuolaji-record", "events": 3}', lang="zh")
    assert status == 400 and bad["code"] == "bad_record" and "牌谱文件" in bad["error"]
    assert len(saves.saves) == 1, "a refused import adds nothing"
    code = data["code"]
    assert call(host, "GET", f"/api/games/{code}/replay?round=1&seat=1")[0] == 200
    for query, reason, said in (
        ("round=x", "bad_replay", "回放需要局数和座位"),
        ("round=1&seat=9", "bad_seat", "没有 9 号座位"),
        ("round=2", "no_round", "第 2 局还没打完（已打完 1 局）"),
    ):
        status, refused = call(host, "GET", f"/api/games/{code}/replay?{query}", lang="zh")
        assert (status, refused["code"], refused["error"]) == (400, reason, said)  # as the server refuses


def test_export_from_the_browser_hides_the_current_deal() -> None:
    host, _, _ = new_host()
    _, made = call(host, "POST", "/api/games", {"seat": 0})
    status, record = call(host, "GET", f"/api/games/{made['code']}/record")
    assert status == 200 and record["seed"] is None and record["events"] == []


def test_unknown_api_paths_are_refused() -> None:
    host, _, _ = new_host()
    assert call(host, "GET", "/api/nothing")[0] == 404
    assert call(host, "GET", "/elsewhere")[0] == 404
    assert call(host, "GET", "/api/games/ZZZZZ")[1]["code"] == "no_game"


def test_the_packed_package_imports_without_the_servers_dependencies(tmp_path: Path) -> None:
    names = {p.as_posix() for p in packed_files()}
    assert "offline/host.py" in names and "server/room.py" in names and "presets/classic.json" in names
    assert not {"server/app.py", "server/store.py", "cli.py"} & names
    zipped = tmp_path / "tuolaji.zip"
    pack_package(zipped)
    code = (
        "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2]); sys.path.insert(0, sys.argv[2]);"
        "import tuolaji.offline.host, tuolaji.bots.search, tuolaji.server.coach;"
        "from tuolaji.ruleset import load_rules; load_rules('three-deck');"
        "assert 'starlette' not in sys.modules and 'rich' not in sys.modules"
    )
    # -S: no site-packages, as in Pyodide, where only the standard library is there
    subprocess.run([sys.executable, "-S", "-c", code, str(zipped), str(tmp_path / "lib")], check=True, timeout=60)


def test_a_table_opened_in_the_worker_speaks_the_servers_protocol() -> None:
    host, saves, sent = new_host()
    _, made = call(host, "POST", "/api/games", {"seat": 0, "speed": "instant", "difficulty": "easy"})

    def got(kind: str) -> bool:
        return any(json.loads(t).get("type") == kind for c, t in sent if c == 7 and t)

    async def session() -> list[dict[str, Any]]:
        assert await host.open(7, made["code"], "zh-CN")
        await host.message(7, json.dumps({"type": "hello", "token": made["token"], "lang": "en"}))
        await until(lambda: got("state"))  # the room's driver deals; the page gets its state
        await host.message(7, json.dumps({"type": "play", "cards": ["S2"], "seat": 1}))
        await until(lambda: got("refused"))
        room = host.rooms[made["code"]]
        host.close(7)
        await room.stop()
        return [json.loads(t) for c, t in sent if c == 7 and t]

    msgs = run(session())
    assert msgs[0]["type"] == "welcome" and msgs[0]["seat"] == 0
    state = next(m for m in msgs if m["type"] == "state")
    assert state["you"]["seat"] == 0 and state["view"]["hand"] is not None
    refused = [m for m in msgs if m["type"] == "refused"]
    assert refused and refused[-1]["code"] == "not_your_seat", "another seat's action is refused, as on the server"
