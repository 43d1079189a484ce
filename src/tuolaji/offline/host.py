"""The table server of the offline build: runs in a Web Worker on Pyodide, answers the web
client's JSON API and speaks the table protocol, with the server's own rooms, bots and records.

The worker (``web/static/offline/worker.js``) hands it two things: ``saves``, a key-value store in
IndexedDB whose async methods take and return text, and ``send(conn, text)``, which posts a table
message to the page. Nothing here is a second copy of game logic: the rooms are
:class:`tuolaji.server.room.Room`, the API answers come from :mod:`tuolaji.server.api`, and saves
are the record format of :mod:`tuolaji.record` plus the room's own persistence data.

A save in the browser is ``{"format": "tuolaji-browser-save", "version": 1, "code", "created",
"updated", "status", "room", "record"}`` with the full record (seed included: it stays on this
device, like the server's database). A save that cannot be read, or was written by something
else, is refused with a message and left as it is.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from .. import __version__
from ..record import RecordError, RecordProblem, from_record, to_record
from ..ruleset import PRESETS, RuleSetError
from ..server.access import Act, allowed, roles_of
from ..server.api import deal_shape, export_record, new_room, parse_rules, read_new_game, record_to_continue, rules_schema
from ..server.limits import Limits
from ..server.protocol import DIFFICULTIES, SPEEDS, MessageError, reason_text
from ..server.room import Conn, Room, Seat, hash_token, saved_deadline

log = logging.getLogger("tuolaji.offline")
SAVE_FORMAT = "tuolaji-browser-save"
SAVE_VERSION = 1
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # the server's: no 0/O/1/I/L
LIMITS = Limits()  # the server's defaults: the largest record to import, its rounds


class Saves(Protocol):
    """The worker's IndexedDB store (every value is JSON text; a missing key reads as "")."""

    def put(self, code: str, save: str, meta: str) -> Awaitable[Any]: ...
    def get(self, code: str) -> Awaitable[str]: ...
    def list(self) -> Awaitable[str]: ...  # a JSON array of the meta texts
    def delete(self, code: str) -> Awaitable[Any]: ...


class HostError(Exception):
    """A refusal: HTTP-like status, code, and the text in the player's language."""

    def __init__(self, status: int, code: str, lang: str, **detail: Any) -> None:
        self.status, self.code = status, code
        super().__init__(reason_text(code, lang, **detail))


def save_document(room: Room) -> dict[str, Any]:
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "code": room.code,
        "created": room.created,
        "updated": time.time(),
        "status": room.status,
        "room": room.persist_data(),
        "record": to_record(room.match),
    }


def save_meta(room: Room, updated: float) -> dict[str, Any]:
    """What the start page lists (the shape of the server's ``store.list_games`` rows)."""
    return {
        "code": room.code,
        "created": room.created,
        "updated": updated,
        "status": room.status,
        "seats": [{"name": s.name, "human": s.token is not None} for s in room.seats],
        "tokens": [s.token for s in room.seats],
        "summary": room.public_summary(),
    }


def room_from_save(text: str, lang: str) -> Room:
    """A room from a save's text; ``HostError`` when it is damaged or not ours."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise HostError(422, "bad_save", lang, why=RecordError(RecordProblem.NOT_JSON, detail=str(exc))) from None
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT or doc.get("version") != SAVE_VERSION:
        raise HostError(422, "foreign_save", lang)
    try:
        match = from_record(doc["record"])
        data = doc["room"]
        seats = [
            Seat(name=str(s.get("name") or ""), token=s.get("token"), autoplay=bool(s.get("autoplay")))
            for s in data.get("seats", [])
        ]
        if len(seats) != match.rules.players:
            seats = [Seat() for _ in range(match.rules.players)]
        room = Room(
            str(doc["code"]),
            match,
            settings=data.get("settings"),
            seats=seats,
            host=data.get("host"),
            status=data.get("status", "playing"),
            created=float(doc["created"]),
            match_deadline=saved_deadline(data),
        )
    except (RecordError, RuleSetError) as exc:
        raise HostError(422, "bad_save", lang, why=exc) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        damaged = RecordError(RecordProblem.SAVE_DAMAGED, detail=f"{type(exc).__name__}: {exc}")
        raise HostError(422, "bad_save", lang, why=damaged) from None
    room.dirty = room.match_deadline != saved_deadline(data)  # a clock started on load is saved
    return room


class OfflineHost:
    """Every room of this browser, the API and the table connections of the page."""

    def __init__(self, saves: Saves, send: Callable[[int, str], Any], *, save_interval: float = 1.0) -> None:
        self.saves = saves
        self.send = send
        self.save_interval = save_interval
        self.rooms: dict[str, Room] = {}
        self.conns: dict[int, tuple[Conn, Room, asyncio.Task[None]]] = {}
        self.rng = random.SystemRandom()
        self._saver: asyncio.Task[None] | None = None
        self.saving = asyncio.Lock()

    def start(self) -> None:
        if self._saver is None:
            self._saver = asyncio.get_running_loop().create_task(self._save_loop())

    # ------------------------------------------------------------------ saving
    async def _save_loop(self) -> None:
        while True:
            await asyncio.sleep(self.save_interval)
            try:
                await self.save_dirty()
            except Exception:  # logged; the next pass retries
                log.exception("saving games failed")

    async def save_dirty(self) -> None:
        async with self.saving:
            for room in [r for r in self.rooms.values() if r.dirty]:
                await self.save(room)

    async def save(self, room: Room) -> None:
        room.dirty = False
        doc = save_document(room)
        try:
            await self.saves.put(
                room.code,
                json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
                json.dumps(save_meta(room, doc["updated"]), ensure_ascii=False),
            )
        except Exception:
            room.dirty = True
            raise

    async def _metas(self) -> list[dict[str, Any]]:
        out = []
        for text in json.loads(await self.saves.list() or "[]"):
            try:
                meta = json.loads(text)
                if isinstance(meta, dict) and isinstance(meta.get("code"), str):
                    out.append(meta)
            except json.JSONDecodeError:
                continue  # a damaged list entry: its game still opens (and is refused) by code
        return out

    async def get(self, code: str, lang: str) -> Room:
        code = code.upper()
        room = self.rooms.get(code)
        if room is None:
            text = await self.saves.get(code)
            if not text:
                raise HostError(404, "no_game", lang)
            room = self.rooms.get(code) or room_from_save(text, lang)  # another await may have loaded it
            self.rooms[code] = room
        return room

    async def new_code(self) -> str:
        taken = set(self.rooms) | {m["code"] for m in await self._metas()}
        while True:
            code = "".join(self.rng.choice(CODE_ALPHABET) for _ in range(5))
            if code not in taken:
                return code

    async def add(self, room: Room) -> Room:
        self.rooms[room.code] = room
        await self.save(room)
        return room

    # ------------------------------------------------------------------ the JSON API
    async def request(self, method: str, path: str, body: str, token: str, lang: str) -> str:
        """One API call, as the page's ``fetch`` would make it → ``{"status", "data"}`` as JSON."""
        lang = "zh" if lang == "zh" else "en"
        try:
            status, data = await self._route(method.upper(), path, body or "", token or "", lang)
        except HostError as exc:
            status, data = exc.status, {"error": str(exc), "code": exc.code}
        except Exception as exc:  # a bug must answer, not hang the page
            log.exception("offline API %s %s failed", method, path)
            status, data = 500, {"error": f"{type(exc).__name__}: {exc}", "code": "internal"}
        return json.dumps({"status": status, "data": data}, ensure_ascii=False)

    async def _route(self, method: str, path: str, body: str, token: str, lang: str) -> tuple[int, Any]:
        url = urlsplit(path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = [p for p in url.path.split("/") if p]
        if parts[:1] != ["api"]:
            raise HostError(404, "not_found", lang)
        rest = parts[1:]
        if rest == ["info"]:
            return 200, {
                "version": __version__,
                "mode": "offline",
                "lan": False,
                "lan_urls": [],
                "lan_how": None,
                "presets": sorted(PRESETS),
                "difficulties": list(DIFFICULTIES),
                "speeds": list(SPEEDS),
                "lang": lang,
            }
        if rest == ["rules"]:
            return 200, rules_schema()
        if rest == ["rules", "check"] and method == "POST":
            try:
                spec = json.loads(body or "{}")
                rules = parse_rules(spec.get("rules") if isinstance(spec, dict) else None)
            except RuleSetError as exc:
                return 200, {"ok": False, "error": exc.message(lang)}
            except ValueError:  # not JSON
                return 200, {"ok": False, "error": reason_text("not_object", lang)}
            return 200, {"ok": True, "deal": deal_shape(rules)}
        if rest == ["games"] and method == "GET":
            return 200, {"games": await self.list_games(token)}
        if rest == ["games"] and method == "POST":
            return await self.create_game(body, token, lang)
        if rest == ["import"] and method == "POST":
            return await self.import_record(body, token, lang)
        if len(rest) >= 2 and rest[0] == "games":
            if len(rest) == 2 and method == "DELETE":
                return await self.delete_game(rest[1], token, lang)
            room = await self.get(rest[1], lang)
            if len(rest) == 2:
                return 200, {
                    **room.room_info(),
                    "rules": room.match.rules.to_dict(),
                    "summary": room.public_summary(),
                    "rounds": len(room.match.rounds),
                    "over": room.match.over,
                }
            if rest[2:] == ["record"]:
                return 200, export_record(room.match)
            if rest[2:] == ["replay"]:
                try:  # refused as the server refuses (server/app.py replay)
                    number = int(query.get("round", "1"))
                    seat_q = query.get("seat", "0")
                    seat = None if seat_q in ("", "none", "spectator") else int(seat_q)
                except ValueError:
                    raise HostError(400, "bad_replay", lang) from None
                if seat is not None and not 0 <= seat < room.players:
                    raise HostError(400, "bad_seat", lang, seat=seat)
                if not 1 <= number <= len(room.match.rounds):
                    raise HostError(400, "no_round", lang, round=number, done=len(room.match.rounds))
                data = dict(room.replay(number, seat))
                data["names"] = room.names()
                data["summary"] = room.public_summary()
                return 200, data
        raise HostError(404, "not_found", lang)

    async def list_games(self, token: str) -> list[dict[str, Any]]:
        h = hash_token(token) if token else None
        games = {m["code"]: m for m in await self._metas()}
        for code, room in self.rooms.items():  # fresher than the last save
            games[code] = save_meta(room, games.get(code, {}).get("updated", time.time()))
        out = sorted(games.values(), key=lambda g: -float(g.get("updated") or 0))
        for g in out:
            tokens = g.pop("tokens", None) or []
            g["mine"] = tokens.index(h) if h and h in tokens else None
        return out

    async def create_game(self, body: str, token: str, lang: str) -> tuple[int, Any]:
        """A new game, checked as the server checks it (``server/app.py`` create_game)."""
        try:
            game = read_new_game(json.loads(body or "{}"), allow_seed=False)
        except RuleSetError as exc:
            return 400, {"error": exc.message(lang), "code": "bad_rules"}
        except MessageError as exc:
            return 400, {"error": exc.message(lang), "code": exc.code}
        except json.JSONDecodeError:
            raise HostError(400, "not_object", lang) from None
        room, made = new_room(await self.new_code(), game, token)
        await self.add(room)
        return 200, {"code": room.code, "token": made, "seat": game.seat, "url": f"/r/{room.code}"}

    async def delete_game(self, code: str, token: str, lang: str) -> tuple[int, Any]:
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None:
            # the page is this computer's own player (server/access.py: the local role)
            roles = roles_of(
                token_hash=hash_token(token) if token else None,
                host=room.host,
                seat_tokens=[s.token for s in room.seats],
                local=True,
                guest=room.knows_password(None),
            )
            if not allowed(Act.DELETE, roles):
                raise HostError(403, "not_yours", lang)
            for c in list(room.conns):
                c.push({"type": "closed", "reason": "deleted"})
            await room.stop()
            self.rooms.pop(code, None)
        elif not await self.saves.get(code):
            raise HostError(404, "no_game", lang)
        # a damaged save can always be deleted: that is how a player gets rid of it
        await self.saves.delete(code)
        return 200, {"ok": True}

    async def import_record(self, body: str, token: str, lang: str) -> tuple[int, Any]:
        """A record file → a new game; like the server, an unfinished game keeps its finished
        rounds only and deals on from a fresh secret seed (``server/api.py`` record_to_continue)."""
        if len(body.encode()) > LIMITS.max_import_bytes:
            raise HostError(413, "file_too_big", lang)
        try:
            match = from_record(record_to_continue(body, max_rounds=LIMITS.max_import_rounds))
        except ValueError as exc:  # RecordError, RuleSetError: said in the player's language
            raise HostError(400, "bad_record", lang, why=exc) from None
        room = Room(
            await self.new_code(), match, host=hash_token(token) if token else None, status="finished" if match.over else "lobby"
        )
        await self.add(room)
        return 200, {"code": room.code, "over": match.over, "rounds": len(match.rounds)}

    # ------------------------------------------------------------------ the table protocol
    async def open(self, conn_id: int, code: str, lang: str) -> bool:
        """The page opens the table of ``code`` (its WebSocket, in the server version); False
        when it cannot be opened, after a refusal that says why and the end of the connection."""
        lang = "zh" if lang.startswith("zh") else "en"
        try:
            room = await self.get(code, lang)
        except HostError as exc:
            refusal = ("no_room", reason_text("no_room", lang, room=code[:8])) if exc.code == "no_game" else (exc.code, str(exc))
            self.send(conn_id, json.dumps({"type": "refused", "code": refusal[0], "reason": refusal[1]}, ensure_ascii=False))
            self.send(conn_id, "")  # closed
            return False
        conn = Conn(lang=lang)
        task = asyncio.get_running_loop().create_task(self._writer(conn, room, conn_id))
        self.conns[conn_id] = (conn, room, task)
        room.start()
        return True

    async def message(self, conn_id: int, text: str) -> None:
        entry = self.conns.get(conn_id)
        if entry is not None:
            await entry[1].handle(entry[0], text)

    def close(self, conn_id: int) -> None:
        entry = self.conns.pop(conn_id, None)
        if entry is not None:
            conn, room, task = entry
            room.leave(conn)
            room.idle_since = time.monotonic()
            task.cancel()

    async def _writer(self, conn: Conn, room: Room, conn_id: int) -> None:
        """The connection's queued replies, then its latest state (coalesced), as the server does."""
        while not conn.closed:
            await conn.wake.wait()
            conn.wake.clear()
            for msg in conn.take(room):
                self.send(conn_id, _dumps(msg))


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


async def _inline(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def start(saves: Saves, send: Callable[[int, str], Any]) -> OfflineHost:
    """Called by the worker once Pyodide is up. Pyodide has no threads: the room's off-loop bot
    calls run inline, in the worker (the page's thread never waits for a bot)."""
    asyncio.to_thread = _inline
    host = OfflineHost(saves, send)
    host.start()
    return host
