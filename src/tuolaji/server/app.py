"""The Starlette app: the web client, the JSON API and the WebSocket per room.

Routes::

    GET  /  /play  /r/{code}  /replay/{code}   the web client (one page, static files);
                                          /play resumes your game against the computer or starts one
    GET  /api/info                        version, LAN addresses, presets, difficulties, speeds
    GET  /api/rules                       every rule setting (type, options, default) and the presets
    POST /api/rules/check                 {"rules": ...} → {"ok": true} or {"ok": false, "error": ...}
    GET  /api/games                       saved games, newest first ("mine": your seat, by token)
    POST /api/games                       create a room → {"code", "token", "seat"}
    GET  /api/games/{code}                public room information
    DELETE /api/games/{code}              forget a game (a seated player's token, or no humans)
    GET  /api/games/{code}/record         export the record (a game in progress: finished rounds only)
    GET  /api/games/{code}/replay?round=N&seat=S   a finished round, play by play, from a seat's view
    POST /api/import                      a record file → a new room
    GET  /api/stats                       counters for the load benchmark
    WS   /ws/{code}                       the table protocol (docs/table.md)

The reconnect token travels in the ``X-Tuolaji-Token`` header on HTTP and in ``hello`` on the
WebSocket; the server keeps only its hash.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import json
import logging
import random
import socket
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__
from ..engine.events import Event, event_from_dict
from ..engine.match import Match
from ..record import RecordError, from_record
from ..ruleset import PRESETS, RuleSetError
from ..validate import JSONInputError, loads, unencodable_path
from .access import RULES, Act, Role, allowed, roles_of
from .api import deal_shape, export_record, new_room, parse_rules, read_new_game, record_to_continue, rules_schema
from .jsontext import dumps
from .limits import AddressBook, BotBudget, Limits, TooBig, TooSlow, read_body
from .local import is_local_player, is_loopback
from .pauses import PauseWatch
from .protocol import DIFFICULTIES, LANGS, SPEEDS, MessageError, reason_text
from .room import Conn, Room, Seat, hash_token, new_token, saved_deadline
from .store import Store
from .wire import InfoResponse
from .ws import serve_socket

log = logging.getLogger("tuolaji.server")
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 5
GC_FREEZE_S = 1.0  # the saver collects and freezes what survived this long
GC_YOUNG_THRESHOLD = 100_000  # automatic young collections: only a burst between two freezes


def static_dir() -> Path:
    return Path(str(resources.files("tuolaji") / "web" / "static"))


class Tables:
    """The rooms in memory, backed by the store; saves dirty rooms every ``save_interval``."""

    def __init__(
        self, store: Store, *, allow_seed: bool = False, save_interval: float = 1.0, limits: Limits | None = None
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.failing: set[str] = set()  # rooms whose last save failed (their players were told)
        self.bot_budget = BotBudget(self.limits)
        self.saves = 0  # save batches written (for /api/stats and the durability checks)
        self.allow_seed = allow_seed
        self.save_interval = save_interval
        self.rooms: dict[str, Room] = {}
        self.rng = random.SystemRandom()
        self.started = time.time()
        self._saver: asyncio.Task[None] | None = None
        self.loading: dict[str, asyncio.Future[Room | None]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pauses = PauseWatch()
        self._lag_task: asyncio.Task[None] | None = None
        self._gc_threshold = gc.get_threshold()
        self.save_seconds = 0.0
        self.writer = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="tuolaji-saver")

    # ------------------------------------------------------------------ lifecycle
    def freeze_heap(self) -> None:
        """Collect cyclic garbage, then move every surviving object out of the collector's reach.

        Games are large, long-lived object graphs (events, tricks, cached JSON); a full collection
        that walks them all stops every table for 100 ms and more once a few hundred games run.
        Objects that survived until now are almost all live game state, so they are frozen
        (``gc.freeze``); later collections only walk what was made since. Memory is still freed
        by reference counting when a game is dropped (a dropped room holds no reference cycle:
        tests/test_server_memory.py). This runs every second, and the automatic young
        collections are held back (``GC_YOUNG_THRESHOLD``): each object is walked once, by this
        collection, instead of by every young and middle collection it lived through; with the
        default thresholds those came dozens of times a second and the middle ones stopped the
        loop for 30-50 ms of CPU at 300 tables (docs/table.md, "The break point").
        """
        self.pauses.freezing = True
        try:
            gc.collect()
            gc.freeze()
        finally:
            self.pauses.freezing = False

    async def startup(self) -> None:
        gc.freeze()  # the modules and the app itself
        self._gc_threshold = gc.get_threshold()
        gc.set_threshold(GC_YOUNG_THRESHOLD, *self._gc_threshold[1:])
        self.loop = asyncio.get_running_loop()
        self._saver = asyncio.get_running_loop().create_task(self._save_loop(), name="tuolaji-saver")
        self.pauses.install()
        self._lag_task = asyncio.get_running_loop().create_task(self.pauses.watch(), name="tuolaji-lag")

    async def shutdown(self) -> None:
        for task in (self._saver, self._lag_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.pauses.uninstall()
        gc.set_threshold(*self._gc_threshold)
        for room in list(self.rooms.values()):
            await room.stop()
        self.writer.shutdown(wait=True)
        self.flush_all()
        self.store.close()

    async def _save_loop(self) -> None:
        last_evict = last_freeze = time.monotonic()
        while True:
            await asyncio.sleep(self.save_interval)
            try:
                await self.save_dirty()
                assert self.loop is not None  # the log is copied into the file off the loop
                await self.loop.run_in_executor(self.writer, self.store.checkpoint)
                now = time.monotonic()
                if now - last_evict > min(30.0, self.limits.idle_room_s / 2, self.limits.finished_room_s / 2):
                    last_evict = now
                    await self._evict()
                if now - last_freeze > GC_FREEZE_S:
                    last_freeze = now
                    self.freeze_heap()
            except Exception:  # pragma: no cover - logged; the next round of saving retries
                log.exception("saving games failed")

    async def _evict(self) -> None:
        """Let go of the rooms nobody is connected to: after ``idle_room_s``, or ``finished_room_s``
        once the match is over (about 0.5 MB each, and a reload reads the game back from the store;
        kept ten minutes, finished rooms were most of the soak's memory)."""
        now = time.monotonic()
        for code, room in list(self.rooms.items()):
            limit = self.limits.finished_room_s if room.match.over else self.limits.idle_room_s
            if not room.conns and now - room.idle_since > limit:
                if self.flush(room):
                    continue  # not saved: keep it in memory and try again later
                await room.stop()
                del self.rooms[code]

    def _collect(self, rooms: list[Room]) -> list[dict[str, Any]]:
        """What to write for these rooms (taken on the event loop; JSON and SQL happen later)."""
        out = []
        for room in rooms:
            match = room.match
            out.append(
                {
                    "code": room.code,
                    "status": room.status,
                    "rules": room.rules_dict,
                    "seed": match.seed,
                    "deals": room.deal_tokens() if len(match.deals) != room.saved_deals else None,
                    "room": room.persist_data(),
                    "summary": room.public_summary(),
                    "events": room.new_events(),
                    "n_events": len(match.events),
                    "created": room.created,
                }
            )
            room.saved_events = len(match.events)
            room.saved_deals = len(match.deals)
            room.dirty = False
        return out

    async def save_dirty(self) -> None:
        """Save every changed room: collect on the loop, write on the saver thread."""
        t0 = time.perf_counter()
        batch: list[dict[str, Any]] = []
        rows = []
        mark = time.perf_counter()
        for room in [r for r in self.rooms.values() if r.dirty]:
            # JSON is made here, a few milliseconds at a time, not on the saver thread: a thread
            # doing Python work would hold the GIL and slow every socket operation of the loop
            game = self._collect([room])[0]
            batch.append(game)
            rows.append(self.store.row(game))
            if time.perf_counter() - mark > 0.003:
                await asyncio.sleep(0)
                mark = time.perf_counter()
        if batch:
            assert self.loop is not None
            try:
                failed = await self.loop.run_in_executor(self.writer, self.store.write, rows)
            except Exception as exc:
                failed = {g["code"]: f"{type(exc).__name__}: {exc}" for g in batch}
            self._written(batch, failed)
        self.save_seconds += time.perf_counter() - t0

    def _written(self, batch: list[dict[str, Any]], failed: dict[str, str]) -> None:
        """After a write: rooms that were not saved are written again, whole, next time, and
        their players are told (once) that their game is not being saved; and told again
        when saving works again."""
        self.saves += 1
        for g in batch:
            code = g["code"]
            room = self.rooms.get(code)
            if code not in failed and room is not None:
                first = g["events"][0][0] if g["events"] else g["n_events"]
                if first <= room.durable:  # (a write after one that failed proves nothing)
                    room.durable = max(room.durable, g["n_events"])
                room.release_saved()
            if code in failed:
                if room is not None:
                    room.saved_events = min(room.saved_events, g["events"][0][0] if g["events"] else room.saved_events)
                    room.saved_deals = 0
                    room.dirty = True
                if code not in self.failing:
                    self.failing.add(code)
                    log.error("game %s cannot be saved to %s: %s", code, self.store.path, failed[code])
                    if room is not None:
                        self._tell(room, "save_failed")
            elif code in self.failing:
                self.failing.discard(code)
                log.warning("game %s is saved again", code)
                if room is not None:
                    self._tell(room, "saved_again")

    @staticmethod
    def _tell(room: Room, code: str) -> None:
        for c in room.conns:
            c.push({"type": "notice", "code": code, "reason": reason_text(code, c.lang)})

    def save_now(self, room: Room) -> bool:
        """Write this room's changes before anyone is told about them (on the event loop: one
        small transaction). True when saved."""
        # events the saver collected but has not written yet (its thread writes a moment later)
        # go into this write too: it commits first, and a kill before the saver's batch lands
        # must not leave the file with a hole in the game's events (it would not load)
        room.saved_events = min(room.saved_events, room.durable)
        batch = self._collect([room])
        failed = self.store.write([self.store.row(g) for g in batch])
        self._written(batch, failed)
        return not failed

    def _changed(self, room: Room) -> None:
        """Every change of a room: a round that ended (a new deal, or the match's end, which
        deals none) is written at once, so a crash right after a round summary cannot undo it."""
        match = room.match
        if room.saved_deals and (len(match.deals) != room.saved_deals or (match.over and len(match.events) != room.saved_events)):
            self.save_now(room)

    def flush_all(self) -> None:
        """Save every changed room now, on this thread (shutdown, tests)."""
        batch = self._collect([r for r in self.rooms.values() if r.dirty])
        if batch:
            self._written(batch, self.store.save_many(batch))

    def flush(self, room: Room) -> dict[str, str]:
        """Save one room now; ``{code: why}`` when it could not be saved."""
        batch = self._collect([room])
        failed = self.store.save_many(batch)
        self._written(batch, failed)
        return failed

    # ------------------------------------------------------------------ rooms
    def new_code(self) -> str:
        while True:  # one indexed look-up per try, not a read of every code
            code = "".join(self.rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.loading and not self.store.exists(code):
                return code

    def add(self, room: Room) -> Room | None:
        """Keep a new room and save it; None (and the room forgotten) when it cannot be saved."""
        self.rooms[room.code] = room
        self._attach(room)
        if self.flush(room):
            del self.rooms[room.code]
            self.failing.discard(room.code)
            return None
        return room

    def _attach(self, room: Room) -> None:
        room.on_change = self._changed
        room.bot_budget = self.bot_budget
        code, store = room.code, self.store

        def history(start: int, end: int) -> list[Event]:
            return [event_from_dict(d) for d in store.events(code, start, end)]

        room.history = history  # finished rounds are let go of once saved, and read back from here

    async def get(self, code: str) -> Room | None:
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if code in self.loading:
            return await self.loading[code]
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self.loading[code] = fut
        try:
            # reading and replaying a long game takes a while: off the loop, so other tables go on
            loaded = await asyncio.to_thread(self._read, code)
            room = self.rooms.get(code) or (self._restore(code, *loaded) if loaded is not None else None)
            fut.set_result(room)
        except Exception as exc:  # pragma: no cover
            fut.set_exception(exc)
            raise
        finally:
            del self.loading[code]
        return room

    def _read(self, code: str) -> tuple[Match, dict[str, Any], dict[str, Any]] | None:
        """A saved game, replayed (runs on a worker thread: it touches no room)."""
        loaded = self.store.load(code)
        if loaded is None:
            return None
        record, info = loaded
        try:
            match = from_record(record)
        except (RecordError, RuleSetError) as exc:
            log.error("game %s cannot be restored: %s", code, exc)
            return None
        return match, record, info

    def _restore(self, code: str, match: Match, record: dict[str, Any], info: dict[str, Any]) -> Room:
        data = info["room"]
        seats = [
            Seat(
                name=s.get("name") or "",
                token=s.get("token"),
                autoplay=bool(s.get("autoplay")),
                from_round=int(s.get("from_round") or 0),
            )
            for s in data.get("seats", [])
        ]
        if len(seats) != match.rules.players:
            seats = [Seat() for _ in range(match.rules.players)]
        room = Room(
            code,
            match,
            settings=data.get("settings"),
            seats=seats,
            host=data.get("host"),
            status=data.get("status", "playing"),
            created=info["created"],
            match_deadline=saved_deadline(data),
        )
        room.saved_events = room.durable = len(record["events"])
        room.saved_deals = len(record["deals"])
        # a timed game saved without a deadline (before the match clock existed) got a full clock
        # on load: save it, so the next restart keeps this one
        room.dirty = len(match.events) != room.saved_events or room.match_deadline != saved_deadline(data)
        for s in seats:
            s.left_at = 0.0
        self._attach(room)
        self.rooms[code] = room
        return room


# ------------------------------------------------------------------ helpers
async def _turn_away(websocket: WebSocket, code: str, reason: str, close_code: int) -> None:
    """Refuse a connection and close it; one that is already gone (a client that sent an oversized
    frame is closed by the protocol while its room is looked up) needs nothing more."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_text(json.dumps({"type": "refused", "code": code, "reason": reason}))
        await websocket.close(code=close_code)


def _json_error(message: str, status: int = 400, code: str = "bad_request") -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def _refuse(request: Request, code: str, status: int = 400, **fields: object) -> JSONResponse:
    """An HTTP refusal in the player's language (``reason_text``'s catalog)."""
    return _json_error(reason_text(code, _lang(request), **fields), status, code)


async def _body(request: Request, limits: Limits) -> Any:
    """A JSON request body: read in chunks up to the limit, decoded with a nesting limit, and
    refused (MessageError) when any text in it is not valid Unicode."""
    try:
        raw = await read_body(request, limit=limits.max_body_bytes, timeout=limits.body_timeout_s)
    except TooBig:
        raise MessageError("too_big") from None
    except TooSlow:
        raise MessageError("too_slow") from None
    if not raw:
        return {}
    try:
        data = loads(raw)
    except JSONInputError as exc:
        raise MessageError(exc.code) from None
    bad = unencodable_path(data)
    if bad is not None:
        raise MessageError("bad_text", where=bad[:64])
    return data


_STATUS = {"too_big": 413, "too_slow": 408, "too_many_rooms": 429}


def _refusal(exc: MessageError, lang: str = "en") -> JSONResponse:
    return _json_error(exc.message(lang), _STATUS.get(exc.code, 400), exc.code)


def _address(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "?"


def _token(request: Request) -> str:
    """The reconnect token header, when it is an acceptable text (else none was given)."""
    token = request.headers.get("x-tuolaji-token") or ""
    return token if 0 < len(token) <= 64 and token.isprintable() else ""


def _lang(request: HTTPConnection) -> str:
    """The player's language: ``?lang=``, the page's choice (``X-Tuolaji-Lang``), else the browser's."""
    for chosen in (request.query_params.get("lang"), request.headers.get("x-tuolaji-lang")):
        if chosen in LANGS:
            return chosen
    return "zh" if request.headers.get("accept-language", "").lower().startswith("zh") else "en"


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses (best effort, no traffic sent)."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))
            found.append(s.getsockname()[0])
        finally:
            s.close()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    out = []
    for ip in found:
        if not ip.startswith("127.") and ip not in out and ip != "0.0.0.0":
            out.append(ip)
    return out


# ------------------------------------------------------------------ the app
def create_app(
    db_path: str | Path | None = None,
    *,
    allow_seed: bool = False,
    save_interval: float = 1.0,
    mode: str = "serve",
    listen_host: str = "0.0.0.0",
    limits: Limits | None = None,
) -> Starlette:
    """The ASGI app. ``db_path`` None: the default file under the user's data directory.

    ``mode`` "play" is this computer's table (its player owns every human seat, server/local.py);
    ``listen_host`` is the address the server listens on, for telling whether friends can reach it.
    The database file is checked and locked here: :class:`~.store.StoreError` (a damaged or
    empty file) and :class:`~.store.StoreLocked` (another server uses it) name the file.
    """
    from .store import default_db_path

    limits = limits or Limits()
    addresses = AddressBook(limits)
    store = Store(db_path if db_path is not None else default_db_path(), exclusive=True, check=True)
    tables = Tables(store, allow_seed=allow_seed, save_interval=save_interval, limits=limits)
    static = static_dir()
    index = static / "index.html"

    async def page(request: Request) -> Response:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    lan = not is_loopback(listen_host)

    def local_player(conn: HTTPConnection) -> bool:
        return is_local_player(mode, conn.client.host if conn.client else None, conn.headers.get("origin"))

    def request_roles(request: Request, room: Room) -> frozenset[Role]:
        """The requester's roles at ``room`` (server/access.py), from its token and address."""
        token = _token(request)
        return roles_of(
            token_hash=hash_token(token) if token else None,
            host=room.host,
            seat_tokens=[s.token for s in room.seats],
            local=local_player(request),
            guest=room.knows_password(request.headers.get("x-tuolaji-password")),
        )

    async def readable(request: Request, act: Act) -> Room | Response:
        """The room of the request's code, if the requester may ``act`` on it; else the refusal."""
        room = await tables.get(request.path_params["code"])
        if room is None:
            return _refuse(request, "no_game", 404)
        if not allowed(act, request_roles(request, room)):
            return _refuse(request, RULES[act].refusal, 403)
        return room

    async def info(request: Request) -> Response:
        port = request.url.port or 80
        body: InfoResponse = {
            "version": __version__,
            "mode": mode,
            # friends can open these only when the server listens beyond this computer; a play-mode
            # server on loopback says how to serve the network instead (``lan_how``)
            "lan": lan,
            "lan_urls": [f"http://{ip}:{port}/" for ip in lan_addresses()] if lan else [],
            "lan_how": None if lan else "tuolaji serve",
            "presets": sorted(PRESETS),
            "difficulties": list(DIFFICULTIES),
            "speeds": list(SPEEDS),
            "lang": _lang(request),
        }
        return JSONResponse(body)

    async def rules(request: Request) -> Response:
        return JSONResponse(rules_schema())

    async def rules_check(request: Request) -> Response:
        try:
            body = await _body(request, limits)
            rules = parse_rules(body.get("rules") if isinstance(body, dict) else None)
        except (RuleSetError, MessageError) as exc:
            return JSONResponse({"ok": False, "error": exc.message(_lang(request))})
        return JSONResponse({"ok": True, "deal": deal_shape(rules)})

    async def list_games(request: Request) -> Response:
        token = _token(request)
        h = hash_token(token) if token else None
        local = local_player(request)
        games = store.list_games()
        for g in games:
            room = tables.rooms.get(g["code"])
            if room is not None:  # fresher than the last save
                g["status"] = room.status
                g["summary"] = room.public_summary()
                g["seats"] = [{"name": s.name, "human": s.token is not None} for s in room.seats]
                tokens = [s.token for s in room.seats]
            else:
                tokens = g["tokens"]
            del g["tokens"]
            g["mine"] = tokens.index(h) if h and h in tokens else None
            if g["mine"] is None and local:  # the player at this computer owns its human seats
                g["mine"] = next((i for i, t in enumerate(tokens) if t), None)
        return JSONResponse({"games": games})

    async def create_game(request: Request) -> Response:
        try:
            game = read_new_game(await _body(request, limits), allow_seed=tables.allow_seed)
        except RuleSetError as exc:
            return _json_error(exc.message(_lang(request)), code="bad_rules")
        except MessageError as exc:
            return _refusal(exc, _lang(request))
        if not addresses.may_create_room(_address(request)):
            return _refuse(request, "too_many_rooms", 429)
        room, made = new_room(tables.new_code(), game, _token(request))
        if tables.add(room) is None:
            return _json_error(reason_text("save_failed", _lang(request)), 503, "save_failed")
        return JSONResponse({"code": room.code, "token": made, "seat": game.seat, "url": f"/r/{room.code}"})

    async def game_info(request: Request) -> Response:
        room = await readable(request, Act.INFO)
        if isinstance(room, Response):
            return room
        return JSONResponse(
            {
                **room.room_info(),
                "rules": room.match.rules.to_dict(),
                "summary": room.public_summary(),
                "rounds": len(room.match.rounds),
                "over": room.match.over,
            }
        )

    async def delete_game(request: Request) -> Response:
        code = request.path_params["code"].upper()
        room = await tables.get(code)
        if room is None:
            return _refuse(request, "no_game", 404)
        if not allowed(Act.DELETE, request_roles(request, room)):
            return _refuse(request, "not_yours", 403)
        for c in list(room.conns):
            c.push({"type": "closed", "reason": "deleted"})
        await room.stop()
        tables.rooms.pop(code, None)
        store.delete(code)
        return JSONResponse({"ok": True})

    async def export(request: Request) -> Response:
        room = await readable(request, Act.EXPORT)
        if isinstance(room, Response):
            return room
        data = export_record(room.match, room.all_events())
        stamp = time.strftime("%Y%m%d", time.localtime(room.created))
        return Response(
            json.dumps(data, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="tuolaji-{room.code}-{stamp}.json"'},
        )

    async def replay(request: Request) -> Response:
        room = await readable(request, Act.REPLAY)
        if isinstance(room, Response):
            return room
        try:
            number = int(request.query_params.get("round", "1"))
            seat_q = request.query_params.get("seat", "0")
            seat = None if seat_q in ("", "none", "spectator") else int(seat_q)
        except ValueError:
            return _refuse(request, "bad_replay")
        if seat is not None and not 0 <= seat < room.players:
            return _refuse(request, "bad_seat", seat=seat)
        if not 1 <= number <= len(room.match.rounds):
            return _refuse(request, "no_round", round=number, done=len(room.match.rounds))
        # the kept replay's JSON text with the room's names and summary of now added: the text
        # JSONResponse would make of the merged dict, without decoding and encoding ~80 KB again
        text = room.replay_text(number, seat)
        body = f'{text[:-1]},"names":{dumps(room.names())},"summary":{dumps(room.public_summary())}}}'
        return Response(body, media_type="application/json")

    async def import_record(request: Request) -> Response:
        try:
            raw = await read_body(request, limit=limits.max_import_bytes, timeout=limits.body_timeout_s)
        except TooBig:
            return _refuse(request, "file_too_big", 413)
        except TooSlow:
            return _refuse(request, "too_slow", 408)
        if not addresses.may_create_room(_address(request)):
            return _refuse(request, "too_many_rooms", 429)
        try:
            # replaying a long record takes a while: on a worker thread, so the tables keep playing
            match = await asyncio.to_thread(lambda: from_record(record_to_continue(raw, max_rounds=limits.max_import_rounds)))
        except ValueError as exc:  # RecordError, RuleSetError: said in the player's language
            return _refuse(request, "bad_record", why=exc)
        token = _token(request)
        made: str | None = None
        if not token:  # the importer is the host, so that the game can be deleted
            token = made = new_token()
        room = Room(tables.new_code(), match, host=hash_token(token), status="finished" if match.over else "lobby")
        if tables.add(room) is None:
            return _json_error(reason_text("save_failed", _lang(request)), 503, "save_failed")
        return JSONResponse({"code": room.code, "over": match.over, "rounds": len(match.rounds), "token": made})

    async def stats(request: Request) -> Response:
        rooms = tables.rooms.values()
        pauses = tables.pauses.report()
        return JSONResponse(
            {
                "rooms": len(tables.rooms),
                "connections": sum(len(r.conns) for r in rooms),
                "actions": sum(r.actions_applied for r in rooms),
                "uptime": time.time() - tables.started,
                "loop_lag_ms": pauses["loop_lag_ms"],
                "gc": pauses["gc"],
                "stalls": pauses["stalls"],
                "save_seconds": tables.save_seconds,
                "saves": tables.saves,
                "save_failing": len(tables.failing),
                "refused_connections": addresses.refused_connections,
            }
        )

    async def ws_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        code = websocket.path_params["code"].upper()
        room = await tables.get(code)
        lang = "zh" if websocket.headers.get("accept-language", "").lower().startswith("zh") else "en"
        if room is None:
            await _turn_away(websocket, "no_room", reason_text("no_room", lang, room=code[:8]), 4404)
            return
        if len(room.conns) >= limits.connections_per_room:
            await _turn_away(websocket, "room_full", reason_text("room_full", lang), 4429)
            return
        conn = Conn(lang=lang, local=local_player(websocket))
        await serve_socket(websocket, room, conn, limits=limits, after=tables.save_now)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await tables.startup()
        try:
            yield
        finally:
            await tables.shutdown()

    routes = [
        Route("/", page),
        Route("/play", page),
        Route("/r/{code}", page),
        Route("/replay/{code}", page),
        Route("/api/info", info),
        Route("/api/rules", rules),
        Route("/api/rules/check", rules_check, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{code}", game_info, methods=["GET"]),
        Route("/api/games/{code}", delete_game, methods=["DELETE"]),
        Route("/api/games/{code}/record", export),
        Route("/api/games/{code}/replay", replay),
        Route("/api/import", import_record, methods=["POST"]),
        Route("/api/stats", stats),
        WebSocketRoute("/ws/{code}", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = tables
    app.state.limits = limits
    app.state.addresses = addresses
    return app


__all__ = ["create_app", "Tables", "export_record", "lan_addresses"]
