"""The room core: one table's seats, connections, driver loop and message handlers.

No transport here: a connection is a :class:`Conn` whose queued messages the transport takes
with :meth:`Conn.take` (the WebSocket adapter in ``server/ws.py``; the offline build's Web
Worker). The core needs only asyncio's event loop (Pyodide's works: computer players then think
on the loop, as there are no threads), and what each seat is sent is built by the plain
functions of ``server/projection.py``.

The room is the only writer of its :class:`~tuolaji.engine.match.Match`. Human actions arrive
through :meth:`Room.handle` and go through ``match.apply`` (checked: a refusal changes nothing);
the driver task deals cards, asks computer players for their decisions, plays for absent or
timed-out humans, and pauses between rounds. Everything runs on one event loop, so no locks.
Who may do what is decided by ``server/access.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import random
import secrets
import sys
import time
import zlib
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from ..bots.base import Bot
from ..bots.driver import apply_or_fallback, decide, fallback
from ..bots.registry import make_bot
from ..cards import cards_str
from ..combos import decompose
from ..engine.actions import (
    Action,
    Bury,
    CallFriend,
    Deal,
    Declare,
    Pass,
    Play,
    Redeal,
    Surrender,
    SurrenderAnswer,
    TimeUp,
    action_to_dict,
)
from ..engine.events import Event, RoundEnded
from ..engine.match import Match
from ..engine.observation import observe
from ..engine.round import Phase
from ..errors import IllegalAction
from ..ruleset import MatchEnd
from . import coach, projection
from .access import Act, Role, allowed, require, roles_of
from .jsontext import dumps
from .limits import BotBudget
from .local import reclaim
from .protocol import MAX_MESSAGE_BYTES, Message, MessageError, parse_message, reason_text
from .seat_names import seat_names
from .wire import HintAction, PublicSummary, ReplayResponse, RoomInfo, StateMsg, Summary, TableView

log = logging.getLogger("tuolaji.server")


@dataclass(frozen=True)
class Speed:
    deal: float  # seconds per round of dealing (one card to each seat)
    bot: float  # a computer player's thinking pause
    trick: float  # extra pause after a finished trick, so people see it
    between: float  # pause between rounds when no human needs to confirm


SPEEDS: dict[str, Speed] = {
    "slow": Speed(0.5, 1.6, 1.6, 6.0),
    "normal": Speed(0.25, 0.9, 1.1, 4.0),
    "fast": Speed(0.08, 0.3, 0.5, 2.0),
    "instant": Speed(0.0, 0.0, 0.0, 0.0),
}
CHAT_GAP = 1.0  # seconds between one client's chat lines
RECONNECT_GRACE = 3.0  # seconds a dropped player's turn waits before the bot plays for them
BREAK_TIMEOUT = 45.0  # with a turn timer set, the pause between rounds ends by itself after this
ACKED = frozenset({"ready", "stand", "start", "settings", "autoplay", "lang", "kick"})  # acknowledged in the next state
EVENTS_PER_MESSAGE = 400  # a round holds about 250; a client that fell further behind gets the tail
# Replays kept per room (they never change), each as compressed JSON text: a round's frames are
# ~0.46 MB as Python objects but ~80 KB of JSON that repeats itself, ~5 KB once compressed
REPLAYS_KEPT = 8
T = TypeVar("T")
Offload = Callable[[Callable[[], T]], Awaitable[T]]


async def in_thread(fn: Callable[[], T]) -> T:
    """Run ``fn`` on a worker thread, so a searching bot does not stop the other tables."""
    return await asyncio.to_thread(fn)


async def on_loop(fn: Callable[[], T]) -> T:
    """Run ``fn`` here (no threads, as on Pyodide): the table waits for it."""
    await asyncio.sleep(0)
    return fn()


DEFAULT_OFFLOAD: Offload[Any] = on_loop if sys.platform == "emscripten" else in_thread


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Seat:
    name: str = ""
    token: str | None = None  # hash of the reconnect token of the human who owns the seat
    autoplay: bool = False  # 托管: the owner asked the computer to play for them
    left_at: float = 0.0  # when the owner's last connection dropped
    from_round: int = 0  # taken mid-round: the owner plays (and sees the hand) from this round on

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "token": self.token, "autoplay": self.autoplay, "from_round": self.from_round}


@dataclass
class Conn:
    """One client, whatever carries its messages. Replies are queued; state snapshots are
    coalesced (a client that falls behind gets the latest state, not every one). The transport
    waits on ``wake`` and sends what :meth:`take` gives."""

    token: str = ""
    token_hash: str = ""
    lang: str = "en"
    name: str = ""
    seat: int | None = None
    greeted: bool = False
    local: bool = False  # the player at this computer of a play-mode server (server/local.py)
    cursor: int = 0  # index into match.events already sent
    dirty: bool = False
    acks: list[int | str] = field(default_factory=list)
    outbox: deque[dict[str, Any]] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    chat_at: float = 0.0  # when this client last said something
    summary_round: int = 0  # the last round whose summary this client was sent

    def push(self, msg: dict[str, Any]) -> None:
        self.outbox.append(msg)
        self.wake.set()

    def mark(self) -> None:
        self.dirty = True
        self.wake.set()

    def take(self, room: Room) -> list[dict[str, Any]]:
        """The messages to send now: queued replies, then the latest state if it changed."""
        out = list(self.outbox)
        self.outbox.clear()
        if self.dirty and self.greeted and not self.closed:
            self.dirty = False
            out.append(dict(room.state_for(self)))
        return out


class Room:
    def __init__(
        self,
        code: str,
        match: Match,
        *,
        settings: dict[str, Any] | None = None,
        seats: list[Seat] | None = None,
        host: str | None = None,
        status: str = "playing",
        created: float | None = None,
        on_change: Callable[[Room], None] | None = None,
        bot_seed: int | None = None,
        offload: Offload[Any] | None = None,
        match_deadline: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.code = code
        self.match = match
        self.players = match.rules.players
        s: dict[str, Any] = {"speed": "normal", "timer": 0, "difficulty": "normal"}
        s.update(settings or {})
        self.settings = s
        self.seats = seats or [Seat() for _ in range(self.players)]
        self.host = host
        self.status = status  # lobby | playing | finished
        self.created = created or time.time()
        self.on_change = on_change
        self.conns: list[Conn] = []
        self.rng = random.Random(bot_seed)
        self.bots: dict[int, tuple[str, Bot]] = {}
        self.hint_bot: Bot | None = None
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.turn_key: tuple[int, int | None, str] | None = None
        self.turn_since = time.monotonic()
        self.ready: set[int] = set()
        self.break_since = 0.0
        self.summaries: dict[tuple[Any, ...], Summary | None] = {}
        self.replays: OrderedDict[tuple[int, int | None], bytes] = OrderedDict()  # zlib-compressed JSON
        self.offload: Offload[Any] = offload or DEFAULT_OFFLOAD
        self.seen: tuple[int, set[tuple[str, int]]] = (0, set())  # this round's (token hash, seat) hands shown
        self.chat: deque[dict[str, Any]] = deque(maxlen=30)  # LAN chat, kept in memory only
        self.banned: set[str] = set()  # token hashes the host removed from a seat
        self.saved_events = 0
        self.saved_deals = 0
        self.rules_dict = match.rules.to_dict()
        self.dirty = True
        # a timed match's deadline in wall-clock seconds, saved with the game (persist_data) so a
        # restarted server keeps the same clock; ``clock`` is injectable for tests
        self.clock = clock
        self.match_deadline = match_deadline
        self._start_clock()
        self.idle_since = time.monotonic()
        self.actions_applied = 0
        self.thinking = False
        self.bot_budget: BotBudget | None = None  # set by the server (limits for computer-only rooms)
        self.hint_lock = asyncio.Lock()
        self.version = 0
        self._info: tuple[int, RoomInfo] | None = None
        self._public: tuple[tuple[int, int, int], TableView] | None = None
        self.log = projection.EventLog(match)
        # the store's events [start, end) (set by a server that saves; only then does a room let
        # go of finished rounds: release_saved), and how many events are known to be in it
        self.history: Callable[[int, int], list[Event]] | None = None
        self.durable = 0
        self._deal_tokens: list[tuple[Sequence[int], list[str]]] = []
        if match.over:
            self.status = "finished"
        # a restored game paused between rounds: the new round has not dealt a card yet
        self.between = (
            bool(match.rounds)
            and not match.over
            and match.round.dealt == 0
            and not match.rounds[-1].redeal
            and status == "playing"
        )
        if self.between:
            self.break_since = time.monotonic()

    # ------------------------------------------------------------------ seats and people
    def names(self, lang: str | None = None, viewer: int | None = None) -> list[str]:
        """Seat names as players chose them; with ``lang``, empty seats get the name the viewer's
        page shows (by screen position: 我/下家/对家/上家, or the compass; server/seat_names.py)."""
        out = [s.name or "" for s in self.seats]
        return out if lang is None else seat_names(out, viewer, lang)

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token == h:
                return i
        return None

    def roles(self, conn: Conn) -> frozenset[Role]:
        """What ``conn`` is at this table (server/access.py)."""
        # a greeted connection gave the password (if the room has one) in its hello
        return roles_of(
            token_hash=conn.token_hash,
            host=self.host,
            seat_tokens=[s.token for s in self.seats],
            local=conn.local,
            guest=conn.greeted or self.knows_password(None),
        )

    def knows_password(self, given: str | None) -> bool:
        """Does ``given`` open this room (always, where it has no password)?"""
        password = self.settings.get("password")
        return not password or hash_token(given or "") == password

    def may(self, conn: Conn, act: Act) -> bool:
        return allowed(act, self.roles(conn), host_here=self.host_here())

    def require(self, conn: Conn, act: Act) -> None:
        require(act, self.roles(conn), host_here=self.host_here())

    def is_host(self, conn: Conn) -> bool:
        """May ``conn`` start the game and change the settings (the host, or a player while the host is away)?"""
        return self.may(conn, Act.SETTINGS)

    # ------------------------------------------------------------------ hands shown
    def round_number(self) -> int:
        return len(self.match.rounds) + 1

    def plays_now(self, seat: int) -> bool:
        """Does the seat's owner play it (and see its hand) in this round? Not when they took it
        in the middle of the round: the computer finishes the round for them."""
        return self.seats[seat].from_round <= self.round_number()

    def view_seat(self, conn: Conn) -> int | None:
        """The seat whose hand ``conn`` sees (None: a spectator's view)."""
        seat = conn.seat
        if seat is None or not self.plays_now(seat):
            return None
        self._saw(conn.token_hash, seat)
        return seat

    def _saw(self, token_hash: str, seat: int) -> None:
        number, seen = self.seen
        if number != self.round_number():
            seen = set()
            self.seen = (self.round_number(), seen)
        seen.add((token_hash, seat))

    def _hands_hidden(self) -> bool:
        """Are hands dealt in the current round (so that a seat change would show a new one)?"""
        return self.status == "playing" and not self.match.over and self.match.round.dealt > 0

    def _first_round_for(self, token_hash: str, seat: int) -> int:
        """The round from which someone who now sits in ``seat`` plays it: this one, unless its
        hand is dealt and they have not seen it this round (seed a new hand: the next round)."""
        number, seen = self.seen
        if not self._hands_hidden() or (number == self.round_number() and (token_hash, seat) in seen):
            return 0
        return self.round_number() + 1

    def host_here(self) -> bool:
        return self.host is not None and any(c.token_hash == self.host for c in self.conns)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def human_controls(self, seat: int, now: float | None = None) -> bool:
        """Does a human decide for ``seat`` now (else the seat's bot does)?"""
        s = self.seats[seat]
        if s.token is None or s.autoplay or not self.plays_now(seat):
            return False
        if self.connected(seat):
            return True
        now = time.monotonic() if now is None else now
        return now - s.left_at < RECONNECT_GRACE

    def bot_for(self, seat: int) -> Bot:
        difficulty = self.settings.get("difficulty", "normal")
        held = self.bots.get(seat)
        if held is None or held[0] != difficulty:
            try:
                bot = make_bot(difficulty, seed=self.rng.randrange(2**32))
            except Exception:  # a bot that cannot be built must not stop the table
                log.exception("cannot make bot %r; using random", difficulty)
                bot = make_bot("random", seed=self.rng.randrange(2**32))
            held = (difficulty, bot)
            self.bots[seat] = held
        return held[1]

    def join(self, conn: Conn, token: str | None, lang: str, name: str) -> str | None:
        """Greet a connection; returns a freshly made token when the client had none."""
        made = None
        if not token:
            token = made = new_token()
        conn.token, conn.lang, conn.name, conn.greeted = token, lang, name, True
        conn.token_hash = hash_token(token)
        conn.seat = self.seat_of_token(token)
        if conn.seat is None and conn.local:  # the same player, from another origin's storage
            conn.seat = reclaim(self, conn.token_hash)
        conn.cursor = self.round_start()  # a reloaded page rebuilds this round's log from its events
        self.conns.append(conn)
        if conn.seat is not None and name and not self.seats[conn.seat].name:
            self.seats[conn.seat].name = name
        conn.push(
            {
                "type": "welcome",
                "code": self.code,
                "seat": conn.seat,
                "token": made,
                "lang": lang,
                "players": self.players,
                "rules": self.match.rules.to_dict(),
            }
        )
        self.changed()
        return made

    def round_start(self) -> int:
        """Index of the current round's first event (between rounds: of the round just finished).
        A redeal does not start a round: a reloaded page shows it, as the page open all along did."""
        events = self.match.events
        last = len(events) - 1
        for i in range(last, self.match.released - 1, -1):  # (released events are in the store only)
            if isinstance(events[i], RoundEnded) and i != last:  # the end of the round before
                return i + 1
        return self.match.released

    def leave(self, conn: Conn) -> None:
        conn.closed = True
        if conn in self.conns:
            self.conns.remove(conn)
        if conn.seat is not None and not self.connected(conn.seat):
            self.seats[conn.seat].left_at = time.monotonic()
        self.changed()

    # ------------------------------------------------------------------ change notification
    def changed(self, *, persist: bool = True) -> None:
        self.version += 1
        self._track_turn()  # before any state is built: the turn timer starts now
        for c in self.conns:
            c.mark()
        self.wakeup.set()
        if persist:
            self.dirty = True
            if self.on_change:
                self.on_change(self)

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drive(), name=f"room-{self.code}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    # ------------------------------------------------------------------ applying actions
    def _apply(self, action: Action) -> None:
        """Apply a checked action (raises IllegalAction, changing nothing) and note its effects."""
        match = self.match
        rounds = len(match.rounds)
        match.apply(action)
        self.actions_applied += 1
        if len(match.rounds) > rounds:
            self._round_ended()
        elif match.over:  # a timed match's deadline ends it mid-round
            self.summaries.clear()
            self.status = "finished"
            self.between = False
        self.changed()

    def _round_ended(self) -> None:
        self.summaries.clear()
        if self.match.over:
            self.status = "finished"
            self.between = False
            return
        if self.match.rounds[-1].redeal:
            return  # nobody declared: deal again at once
        self.between = True
        self.ready = set()
        self.break_since = time.monotonic()

    def _start_clock(self) -> None:
        """A timed match's clock starts when play starts (created playing, or the host's start)."""
        rules = self.match.rules
        if (
            self.match_deadline is None
            and self.status == "playing"
            and rules.match_end == MatchEnd.TIMED
            and rules.match_minutes
            and not self.match.over
        ):
            self.match_deadline = self.clock() + 60 * rules.match_minutes

    def clock_left(self) -> float | None:
        """Seconds left on a timed match's clock (None: no clock running)."""
        if self.match_deadline is None or self.match.over:
            return None
        return max(0.0, self.match_deadline - self.clock())

    def _time_up(self) -> None:
        """At the deadline the match ends at once, the round in play unscored (Match, seed 003)."""
        left = self.clock_left()
        if left is not None and left <= 0 and not self.match.time_up:
            with contextlib.suppress(IllegalAction):
                self._apply(TimeUp())

    # ------------------------------------------------------------------ the driver
    def decider(self) -> int | None:
        """The seat whose decision the game waits for (None while dealing or between rounds)."""
        rnd = self.match.round
        if self.match.over or self.between or rnd.phase in (Phase.DEAL, Phase.DONE):
            return None
        return rnd.turn

    def deadline(self) -> float | None:
        """Monotonic time when the human deciding now will be played for (turn timer)."""
        seat = self.decider()
        timer = self.settings.get("timer") or 0
        if seat is None or not timer:
            return None
        return self.turn_since + timer

    def _track_turn(self) -> None:
        rnd = self.match.round
        key = (self.match.actions, self.decider(), rnd.phase.value)
        if key != self.turn_key:
            self.turn_key = key
            self.turn_since = time.monotonic()

    async def _drive(self) -> None:
        try:
            steps = 0
            while True:
                await self._step()
                steps += 1
                if steps % 16 == 0:
                    # computer players at "instant" speed never wait: let the other tables and the
                    # sockets run (the clients then get one state for several moves)
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, and the room restarts its loop
            log.exception("room %s: driver failed", self.code)
            await asyncio.sleep(1.0)
            self.task = None
            self.start()

    async def _wait(self, timeout: float | None) -> None:
        self.wakeup.clear()
        left = self.clock_left() if self.status == "playing" else None
        if left is not None and left > 0 and (timeout is None or left < timeout):
            timeout = left  # wake for the match clock's deadline
        if timeout is not None and timeout <= 0:
            await asyncio.sleep(0)
            return
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.wakeup.wait(), timeout)

    async def _step(self) -> None:
        match = self.match
        if self.status == "playing" and not match.over:
            self._time_up()  # the match clock runs whether or not anyone is at the table
        if not self.conns or self.status != "playing" or match.over:
            await self._wait(None)  # nobody here, not started, or finished: sleep until something changes
            return
        speed = SPEEDS.get(self.settings.get("speed", "normal"), SPEEDS["normal"])
        if self.between:
            await self._between(speed)
            return
        rnd = match.round
        if rnd.phase == Phase.DEAL:
            if speed.deal:
                await asyncio.sleep(speed.deal)
            self._deal_tick(everything=speed.deal == 0)
            return
        self._track_turn()
        seat = self.decider()
        if seat is None:  # pragma: no cover - a finished round rolls over inside Match
            await self._wait(1.0)
            return
        now = time.monotonic()
        if self.human_controls(seat, now):
            deadline = self.deadline()
            grace_end = None if self.connected(seat) else self.seats[seat].left_at + RECONNECT_GRACE
            ends = [t for t in (deadline, grace_end) if t is not None]
            if deadline is not None and now >= deadline:
                await self._bot_move(seat, 0.0)  # the turn timer ran out: the computer plays for them
                return
            await self._wait(min(ends) - now if ends else None)
            return
        pause = speed.bot
        trick = rnd.trick
        if rnd.phase == Phase.PLAY and trick is not None and not trick.plays and rnd.tricks:
            pause += speed.trick
        await self._bot_move(seat, pause)

    async def _between(self, speed: Speed) -> None:
        waiting = [
            s
            for s in range(self.players)
            if self.seats[s].token and not self.seats[s].autoplay and self.connected(s) and s not in self.ready
        ]
        elapsed = time.monotonic() - self.break_since
        limit = BREAK_TIMEOUT if self.settings.get("timer") else None
        humans = any(self.seats[s].token and self.connected(s) and not self.seats[s].autoplay for s in range(self.players))
        if not humans:
            limit = speed.between
        if not waiting and humans:
            limit = 0.0
        if limit is not None and elapsed >= limit:
            self.between = False
            self.ready = set()
            self.changed()
            return
        await self._wait(None if limit is None else limit - elapsed)

    def _deal_tick(self, *, everything: bool) -> None:
        """Deal one card to each seat (or the whole deal); bots may declare after each card."""
        rnd = self.match.round
        n = len(rnd.deck) if everything else self.players
        now = time.monotonic()
        bots = [not self.human_controls(s, now) for s in range(self.players)]
        for _ in range(n):
            if rnd.phase != Phase.DEAL or rnd is not self.match.round:
                break
            seat = rnd.next_deal_seat
            self.match.apply(Deal())
            self.actions_applied += 1
            if rnd.phase == Phase.DEAL and bots[seat]:
                action = decide(self.bot_for(seat), observe(rnd, seat, with_events=False))
                if action is not None:
                    with contextlib.suppress(IllegalAction):
                        self.match.apply(action)
                        self.actions_applied += 1
        self.changed()

    def humans_playing(self) -> bool:
        """Does a connected human decide for some seat (else only computer players play)?"""
        return any(s.token is not None and not s.autoplay and self.connected(i) for i, s in enumerate(self.seats))

    async def _bot_move(self, seat: int, pause: float) -> None:
        # a room where no human plays gets a share of computer time (limits.BotBudget), so
        # computer-only rooms at "instant" speed cannot starve the tables people play at
        budget = self.bot_budget if self.bot_budget is not None and not self.humans_playing() else None
        if budget is not None:
            pause = max(pause, budget.move_s)
        key = self.match.actions
        if pause > 0:
            await self._wait(pause)
            if self.match.actions != key or self.decider() != seat:
                return  # something happened meanwhile (a human declared, a seat changed hands)
            if self.human_controls(seat):
                return
        bot = self.bot_for(seat)
        obs = observe(self.match.round, seat, with_events=True)
        slow = self.settings.get("difficulty") in ("hard", "expert")  # searching bots think off the loop
        if slow:
            self.thinking = True
            try:
                async with budget.search_slot() if budget is not None else contextlib.nullcontext():
                    if self.match.actions != key:
                        return
                    action = await self.offload(lambda: decide(bot, obs))
            finally:
                self.thinking = False
            if self.match.actions != key or self.decider() != seat:
                return
        else:
            action = decide(bot, obs)
        if not apply_or_fallback(self._apply, action, obs, self.rng):
            log.warning("room %s: the bot for seat %d gave no legal action; played a legal fallback", self.code, seat)

    # ------------------------------------------------------------------ client messages
    async def handle(self, conn: Conn, text: str | bytes, *, max_bytes: int = MAX_MESSAGE_BYTES) -> None:
        try:
            msg = parse_message(text, max_bytes=max_bytes)
        except MessageError as exc:
            self.refuse(conn, exc.code, exc.message(conn.lang))
            return
        if not conn.greeted and msg.type != "hello":
            self.refuse(conn, "hello_first", reason_text("hello_first", conn.lang), msg.id)
            return
        handler = _HANDLERS[msg.type]
        try:
            result = handler(self, conn, msg)
            if asyncio.iscoroutine(result):
                await result
        except MessageError as exc:
            self.refuse(conn, exc.code, exc.message(conn.lang), msg.id)
            return
        if msg.id is not None and msg.type in ACKED:
            conn.acks.append(msg.id)  # the next state carries "re": [id]
            conn.mark()

    def refuse(
        self, conn: Conn, code: str, reason: str, re: int | str | None = None, why: str | None = None, **extra: Any
    ) -> None:
        msg: dict[str, Any] = {"type": "refused", "code": code, "reason": reason, "why": why or reason}
        if re is not None:
            msg["re"] = re
        msg.update(extra)
        conn.push(msg)

    def _on_hello(self, conn: Conn, msg: Message) -> None:
        if conn.greeted:  # a second hello only updates language and name
            conn.lang = msg.get("lang", conn.lang)
            conn.mark()
            return
        conn.lang = msg.get("lang", conn.lang)
        token = msg.get("token") or ""
        # the room's players and host need no password (server/access.py)
        require(
            Act.WATCH,
            roles_of(
                token_hash=hash_token(token) if token else None,
                host=self.host,
                seat_tokens=[s.token for s in self.seats],
                local=conn.local,
                guest=self.knows_password(msg.get("password")),
            ),
        )
        self.join(conn, msg.get("token"), msg.get("lang", "en"), msg.get("name", ""))
        if self.chat:
            conn.push({"type": "chat", "lines": list(self.chat)})

    def _on_chat(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.CHAT)
        text = " ".join("".join(ch for ch in msg.get("text") if ch.isprintable()).split())
        if not text:
            raise MessageError("chat_empty")
        now = time.monotonic()
        if now - conn.chat_at < CHAT_GAP:
            raise MessageError("chat_fast")
        conn.chat_at = now
        seat = conn.seat
        line = {"seat": seat, "name": (self.seats[seat].name if seat is not None else "") or conn.name, "text": text}
        self.chat.append(line)
        for c in self.conns:
            c.push({"type": "chat", "lines": [line]})

    def _on_kick(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.KICK)
        seat = msg.get("seat")
        if seat >= self.players or self.seats[seat].token is None or self.seats[seat].token == conn.token_hash:
            raise MessageError("not_a_player", seat=seat)
        gone = self.seats[seat].token
        assert gone is not None
        self.banned.add(gone)
        self.seats[seat] = Seat()
        for c in self.conns:
            if c.token_hash == gone:
                c.seat = None
                self.refuse(c, "kicked", reason_text("kicked", c.lang))
        self.changed()

    def _on_ping(self, conn: Conn, msg: Message) -> None:
        conn.push({"type": "pong", "re": msg.id})

    def _on_lang(self, conn: Conn, msg: Message) -> None:
        conn.lang = msg.get("lang")
        self.summaries.clear()
        conn.mark()

    def _on_sit(self, conn: Conn, msg: Message) -> None:
        seat = msg.get("seat")
        if seat >= self.players:
            raise MessageError("bad_seat", seat=seat)
        h = conn.token_hash
        owner = self.seats[seat].token
        if (owner is not None and owner != h) or h in self.banned:
            raise MessageError("seat_taken", seat=seat)
        if conn.seat is not None and conn.seat != seat:
            if self.status != "lobby":
                raise MessageError("already_seated", seat=conn.seat)
            self.seats[conn.seat] = Seat()
        s = self.seats[seat]
        if owner is None:  # a computer's seat: its hand is shown from the next round if dealt already
            s.from_round = self._first_round_for(h, seat)
        s.token, s.autoplay = h, False
        s.name = msg.get("name") or conn.name or s.name
        for c in self.conns:  # every tab of this player follows to the new seat
            if c.token_hash == conn.token_hash:
                c.seat = seat
        conn.push({"type": "seated", "seat": seat, "re": msg.id})
        self.changed()

    def _on_stand(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.STAND)
        if conn.seat is None:
            raise MessageError("not_seated")
        self.seats[conn.seat] = Seat()
        for c in self.conns:
            if c.token_hash == conn.token_hash:
                c.seat = None
        self.changed()

    def _on_start(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.START)
        if self.status != "lobby":
            raise MessageError("already_started")
        self.status = "playing"
        self._start_clock()
        self.changed()

    def _on_settings(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.SETTINGS)
        self.settings.update(msg.fields)
        self.changed()

    def _on_autoplay(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.AUTOPLAY)
        if conn.seat is None:
            raise MessageError("not_seated")
        self.seats[conn.seat].autoplay = bool(msg.get("on"))
        self.changed()

    def _on_ready(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.READY)
        if conn.seat is None:
            raise MessageError("not_seated")
        if self.between:
            self.ready.add(conn.seat)
            self.changed(persist=False)

    def _playing_seat(self, conn: Conn, act: Act, asked: int | None = None) -> int:
        """The sender's own seat, which it plays now (refusals: not seated, another seat, a seat
        taken mid-round that the computer plays until the next round, no game going on)."""
        self.require(conn, act)
        seat = conn.seat
        if seat is None:
            raise MessageError("not_seated")
        if asked is not None and asked != seat:
            raise MessageError("not_your_seat", seat=asked, mine=seat)
        if self.status == "lobby":
            raise MessageError("not_started")
        if self.match.over:
            raise MessageError("match_over")
        if self.between:
            raise MessageError("round_break")
        if not self.plays_now(seat):
            raise MessageError("seat_next_round", seat=seat)
        return seat

    def _own_action(self, conn: Conn, msg: Message) -> Action:
        """The typed action a message asks for, for the sender's own seat (schema already checked)."""
        if msg.type == "deal":
            self.require(conn, Act.DEAL)
        seat = self._playing_seat(conn, Act.ACT, msg.get("seat"))
        return _action(msg.type, seat, msg)

    def _act(self, conn: Conn, msg: Message) -> None:
        action = self._own_action(conn, msg)
        try:
            self._apply(action)
        except IllegalAction as exc:
            self._refuse_action(conn, exc, msg)
            return
        if msg.id is not None:
            conn.acks.append(msg.id)
            conn.mark()

    def _refuse_action(self, conn: Conn, exc: IllegalAction, msg: Message) -> None:
        rnd = self.match.round
        cards = msg.get("cards", ())
        why = coach.explain(exc.code, rnd, conn.seat, cards, conn.lang, self.names(conn.lang, conn.seat), **exc.fields)
        if exc.code in ("weak_declaration", "self_override"):
            extra = coach.declare_explain(rnd, conn.lang, self.names(conn.lang, conn.seat))
            if extra:
                why = f"{why} — {extra}"
        self.refuse(conn, exc.code, exc.message(conn.lang), msg.id, why=why, action=msg.type)

    def _on_check(self, conn: Conn, msg: Message) -> None:
        seat = self._playing_seat(conn, Act.CHECK)
        kind = msg.get("action") or ("bury" if self.match.round.phase == Phase.BURY else "play")
        action = _action(kind, seat, msg)
        try:
            self.match.check(action)
        except IllegalAction as exc:
            why = coach.explain(
                exc.code, self.match.round, seat, msg.get("cards"), conn.lang, self.names(conn.lang, conn.seat), **exc.fields
            )
            conn.push(
                {"type": "checked", "re": msg.id, "ok": False, "code": exc.code, "reason": exc.message(conn.lang), "why": why}
            )
            return
        rnd = self.match.round
        leading = kind == "play" and (rnd.trick is None or not rnd.trick.plays)
        if leading and isinstance(action, Play) and rnd.ctx is not None and len(decompose(action.cards, rnd.ctx)) > 1:
            # a throw (several combinations at once): legal to try, but it fails if another hand
            # can beat a part of it, so the page warns instead of saying "legal"
            conn.push({"type": "checked", "re": msg.id, "ok": True, "throw": True})
            return
        conn.push({"type": "checked", "re": msg.id, "ok": True})

    async def _on_hint(self, conn: Conn, msg: Message) -> None:
        self.require(conn, Act.CHECK)
        if self.between or self.status != "playing":
            raise MessageError("no_hint")
        seat = self._playing_seat(conn, Act.CHECK)
        if self.hint_lock.locked():
            raise MessageError("busy")
        if self.decider() != seat and self.match.round.phase != Phase.DEAL:
            raise MessageError("no_hint")  # not this seat's decision: a bot asked off-turn would fail
        if self.hint_bot is None:
            self.hint_bot = coach.strongest_bot(self.rng.randrange(2**32))
        bot = self.hint_bot
        obs = observe(self.match.round, seat, with_events=True)
        key = self.match.actions
        async with self.hint_lock:
            action = await self.offload(lambda: decide(bot, obs))
        if action is None or self.match.actions != key:
            raise MessageError("no_hint")
        try:
            self.match.check(action)
        except IllegalAction:
            action = fallback(obs, self.rng)
        if action is None:
            raise MessageError("no_hint")
        out = action_to_dict(action)
        out.pop("seat", None)
        hint: HintAction = out  # type: ignore[assignment]
        conn.push({"type": "hint", "re": msg.id, "action": hint})

    # ------------------------------------------------------------------ what a connection is sent
    def team_of(self, seat: int) -> int:
        """Index into ``match.levels`` for a seat (its team, or itself with find-a-friend)."""
        return self.match.holder(seat)

    def room_info(self) -> RoomInfo:
        """Seats, settings and status; the same for every client, so built once per change."""
        if self._info is not None and self._info[0] == self.version:
            return self._info[1]
        now = time.monotonic()
        info: RoomInfo = {
            "code": self.code,
            "status": self.status,  # type: ignore[typeddict-item]
            "host": self.host_here(),
            "seats": [
                {
                    "name": s.name,
                    "human": s.token is not None,
                    "connected": self.connected(i),
                    "autoplay": s.autoplay,
                    "bot": not self.human_controls(i, now),
                    "team": self.team_of(i),
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "settings": {
                "speed": self.settings.get("speed"),
                "timer": self.settings.get("timer"),
                "difficulty": self.settings.get("difficulty"),
            },
            # the card counter (记牌器): on unless the host turned it off; never in competition rules
            "counter": bool(self.settings.get("counter", True)) and self.match.rules.name != "competition",
            "password": bool(self.settings.get("password")),
            "rules": self.match.rules.name,
        }
        self._info = (self.version, info)
        return info

    def _public_view(self) -> TableView:
        """The table as a spectator sees it now, built once for all connections."""
        key = (self.version, self.match.actions, len(self.match.events))
        if self._public is None or self._public[0] != key:
            self._public = (key, projection.table_view(self.match, None))
        return self._public[1]

    def state_for(self, conn: Conn) -> StateMsg:
        """The whole table as ``conn`` may see it, with the events it has not been sent yet."""
        match = self.match
        seat = self.view_seat(conn)
        state: StateMsg = {
            "type": "state",
            "room": self.room_info(),
            "you": {
                "seat": conn.seat,
                "host": self.is_host(conn),
                "lang": conn.lang,
                "autoplay": conn.seat is not None and self.seats[conn.seat].autoplay,
            },
            "view": projection.seat_view(match, self._public_view(), seat),
            "between": self.between,
            "thinking": self.thinking,
            "waiting_for": self.decider(),
            "timer_ms": None,
            "events": [],
        }
        if conn.seat is not None and seat is None:
            state["you"]["from_round"] = self.seats[conn.seat].from_round
        if conn.acks:
            state["re"] = conn.acks
            conn.acks = []
        deadline = self.deadline()
        if deadline is not None:
            state["timer_ms"] = max(0, int((deadline - time.monotonic()) * 1000))
        if self.match_deadline is not None:
            state["clock_ms"] = 0 if match.over else max(0, int((self.match_deadline - self.clock()) * 1000))
        if seat is not None and not self.between and self.status == "playing":
            state["options"] = projection.options(match, seat)
        if self.between or (match.over and match.rounds) or conn.summary_round != len(match.rounds):
            # between rounds, and once to each connection after a round ended: states are coalesced,
            # so a page could otherwise miss a short break (auto-play) and never see the summary
            conn.summary_round = len(match.rounds)
            state["summary"] = self.summary(seat, conn.lang)
            state["ready"] = sorted(self.ready)
        start, end = conn.cursor, len(match.events)
        conn.cursor = end
        first = max(start, end - EVENTS_PER_MESSAGE, match.released)  # (released: only in the store now)
        if first > start:
            state["events_skipped"] = first - start
        state["events"] = self.log.for_seat(first, end, seat)
        return state

    def summary(self, seat: int | None, lang: str) -> Summary | None:
        """The last finished round for ``seat``'s side (cached per round, side and language)."""
        match = self.match
        if not match.rounds:
            return None
        side = None if seat is None else match.rounds[-1].is_attacker(seat)
        key = (len(match.rounds), side, seat, lang)  # the review names seats as this seat sees them
        if key not in self.summaries:
            self.summaries[key] = projection.round_summary(match, seat, lang, self.names(lang, seat))
        return self.summaries[key]

    def replay(self, number: int, seat: int | None) -> ReplayResponse:
        """A finished round's frames as ``seat`` saw them (raises ValueError)."""
        return cast(ReplayResponse, json.loads(self.replay_text(number, seat)))

    def replay_text(self, number: int, seat: int | None) -> str:
        """:meth:`replay` as JSON text, built once and kept compressed (a few KB each, the last
        ``REPLAYS_KEPT`` asked for): a replay never changes."""
        key = (number, seat)
        packed = self.replays.get(key)
        if packed is not None:
            self.replays.move_to_end(key)
            return zlib.decompress(packed).decode()
        saved = self.saved_round(number) if number <= self.match.released_rounds else None
        text = dumps(projection.replay_frames(self.match, number, seat, saved))
        self.replays[key] = zlib.compress(text.encode(), 1)
        while len(self.replays) > REPLAYS_KEPT:
            self.replays.popitem(last=False)
        return text

    # ------------------------------------------------------------------ persistence
    def release_saved(self) -> None:
        """Let go of every finished round before the last one once the store holds it (its
        events and play; ``Match.release``), so that a room's memory does not grow with the
        length of its match. Its replay and the export read it back (``history``)."""
        if self.history is None:
            return
        log = self.log
        log.sync()
        limit = min(log.base, self.durable)  # log.base: the last finished round's start
        cut = max((i for i in log.round_starts if i <= limit), default=0)
        if cut > self.match.released:
            self.match.release(cut)

    def saved_round(self, number: int) -> list[Event]:
        """Round ``number``'s events, from its start, read back from the store."""
        starts = self.log.round_starts
        if self.history is None or number >= len(starts):
            raise ValueError(f"round {number} is not kept")
        return self.history(starts[number - 1], starts[number])

    def all_events(self) -> list[Event]:
        """Every event of the match, the released ones read back from the store."""
        match = self.match
        if not match.released:
            return match.events
        assert self.history is not None
        return self.history(0, match.released) + match.events[match.released :]

    def persist_data(self) -> dict[str, Any]:
        return {
            "seats": [s.to_dict() for s in self.seats],
            "settings": self.settings,
            "host": self.host,
            "status": self.status,
            "match_deadline": self.match_deadline,
        }

    def deal_tokens(self) -> list[list[str]]:
        """Every deal of the match as card tokens, for saving (each deal written out once, not
        again for every round that follows)."""
        deals, done = self.match.deals, self._deal_tokens
        keep = 0
        while keep < len(done) and keep < len(deals) and done[keep][0] is deals[keep]:
            keep += 1  # (an action that failed may have taken its deal back)
        del done[keep:]
        done.extend((d, cards_str(d)) for d in deals[keep:])
        return [tokens for _, tokens in done]

    def public_summary(self) -> PublicSummary:
        return projection.public_summary(self.match, self.names())

    def new_events(self) -> list[tuple[int, dict[str, Any]]]:
        """Events not saved yet, as (index, JSON dict) pairs (the dicts are shared: do not change them)."""
        return [(i, dict(ev)) for i, ev in self.log.full(self.saved_events)]


# ------------------------------------------------------------------ helpers
def saved_deadline(data: dict[str, Any]) -> float | None:
    """A saved game's match deadline (wall-clock seconds), or None when it has none or it is damaged."""
    value = data.get("match_deadline")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


_WITH_CARDS: dict[str, type[Declare] | type[Bury] | type[Play]] = {"declare": Declare, "bury": Bury, "play": Play}
_SEAT_ONLY: dict[str, type[Pass] | type[Redeal] | type[Surrender]] = {"pass": Pass, "redeal": Redeal, "surrender": Surrender}


def _action(kind: str, seat: int, msg: Message) -> Action:
    """The typed action of a checked message (cards already parsed by the protocol)."""
    if kind in _WITH_CARDS:
        return _WITH_CARDS[kind](seat, msg.get("cards"))
    if kind in _SEAT_ONLY:
        return _SEAT_ONLY[kind](seat)
    if kind == "call_friend":
        return CallFriend(seat, msg.get("card"), msg.get("nth", 0))
    if kind == "surrender_answer":
        return SurrenderAnswer(seat, msg.get("accept"))
    raise MessageError("unknown_type", kind=kind)


_HANDLERS: dict[str, Callable[[Room, Conn, Message], Any]] = {
    "hello": Room._on_hello,
    "ping": Room._on_ping,
    "lang": Room._on_lang,
    "sit": Room._on_sit,
    "stand": Room._on_stand,
    "start": Room._on_start,
    "settings": Room._on_settings,
    "autoplay": Room._on_autoplay,
    "chat": Room._on_chat,
    "kick": Room._on_kick,
    "ready": Room._on_ready,
    "check": Room._on_check,
    "hint": Room._on_hint,
    **dict.fromkeys(
        ("declare", "pass", "bury", "play", "redeal", "call_friend", "surrender", "surrender_answer", "deal"), Room._act
    ),
}
