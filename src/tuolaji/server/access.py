"""Who may do what at a table: the one authorization table of the server.

Every HTTP endpoint and every WebSocket message that changes or reveals something is an
:class:`Act`; :data:`RULES` says which :class:`Role` may do it. The room core (WebSocket
messages) and the app (HTTP endpoints) ask :func:`allowed` / :func:`require` and nothing else,
and docs/table.md shows this table (a test keeps the page in step with it).

Roles are worked out per request from the reconnect token (its hash) and the connection:

* **host**: holds the token the game was created or imported with;
* **player**: owns a seat (a seat taken in the middle of a round is played by the computer
  until the next round starts, and shows no hand before then);
* **local**: the player at this computer of a ``tuolaji play`` server (server/local.py), who
  owns every human seat there;
* **guest**: whoever knows the room's password (everyone who knows its code, where the room has
  no password): may watch and read the room's record, replays and information;
* **anyone**: everybody else who knows the room's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..errors import Reason
from .protocol import MessageError


class Role(StrEnum):
    HOST = "host"
    PLAYER = "player"
    LOCAL = "local"
    GUEST = "guest"
    ANYONE = "anyone"


class Act(StrEnum):
    LIST = "GET /api/games"
    CREATE = "POST /api/games"
    IMPORT = "POST /api/import"
    INFO = "GET /api/games/{code}"
    EXPORT = "GET /api/games/{code}/record"
    REPLAY = "GET /api/games/{code}/replay"
    DELETE = "DELETE /api/games/{code}"
    WATCH = "ws hello, ping, lang"
    CHAT = "ws chat"
    SIT = "ws sit"
    STAND = "ws stand"
    KICK = "ws kick"
    START = "ws start"
    SETTINGS = "ws settings"
    AUTOPLAY = "ws autoplay"
    READY = "ws ready"
    ACT = "ws declare, pass, bury, play, redeal, call_friend, surrender, surrender_answer"
    CHECK = "ws check, hint"
    DEAL = "ws deal"


@dataclass(frozen=True)
class Rule:
    who: frozenset[Role]
    host_away: frozenset[Role] = frozenset()  # also these roles while the host is not connected
    refusal: Reason = Reason.NOT_ALLOWED  # the refusal code for everyone else
    note: str = ""


_ALL = frozenset(Role)
_HOST = frozenset({Role.HOST, Role.LOCAL})
_PLAYER = frozenset({Role.PLAYER, Role.LOCAL})
_IN_ROOM = frozenset({Role.HOST, Role.PLAYER, Role.LOCAL, Role.GUEST})  # a password room's people

RULES: dict[Act, Rule] = {
    Act.LIST: Rule(_ALL, note='codes, names, levels; "mine" marks the asker\'s seat'),
    Act.CREATE: Rule(_ALL, note="the creator becomes the host"),
    Act.IMPORT: Rule(_ALL, note="the importer becomes the host (a token is made if none was sent)"),
    Act.INFO: Rule(_IN_ROOM, refusal=Reason.BAD_PASSWORD, note="public room information"),
    Act.EXPORT: Rule(_IN_ROOM, refusal=Reason.BAD_PASSWORD, note="a game in progress: finished rounds only, no seed"),
    Act.REPLAY: Rule(_IN_ROOM, refusal=Reason.BAD_PASSWORD, note="finished rounds only (all their cards are public)"),
    Act.DELETE: Rule(_HOST, refusal=Reason.NOT_YOURS, note="players and spectators may not"),
    Act.WATCH: Rule(_IN_ROOM, refusal=Reason.BAD_PASSWORD, note="a spectator sees no hand"),
    Act.CHAT: Rule(_ALL, note="one line a second at most"),
    Act.SIT: Rule(
        _ALL,
        refusal=Reason.SEAT_TAKEN,
        note="a free (computer) seat or one's own; taken mid-round it is yours from the next round",
    ),
    Act.STAND: Rule(_PLAYER, refusal=Reason.NOT_SEATED),
    Act.KICK: Rule(
        _HOST,
        host_away=_PLAYER,
        refusal=Reason.NOT_HOST,
        note="gives another player's seat to the computer; they may not sit here again",
    ),
    Act.START: Rule(_HOST, host_away=_PLAYER, refusal=Reason.NOT_HOST),
    Act.SETTINGS: Rule(_HOST, host_away=_PLAYER, refusal=Reason.NOT_HOST),
    Act.AUTOPLAY: Rule(_PLAYER, refusal=Reason.NOT_SEATED),
    Act.READY: Rule(_PLAYER, refusal=Reason.NOT_SEATED),
    Act.ACT: Rule(_PLAYER, refusal=Reason.NOT_SEATED, note="for one's own seat only, once it plays (not for a computer seat)"),
    Act.CHECK: Rule(_PLAYER, refusal=Reason.NOT_SEATED, note="one's own seat only, once it plays"),
    Act.DEAL: Rule(frozenset(), refusal=Reason.SERVER_DEALS, note="the table deals"),
}


def allowed(act: Act, roles: frozenset[Role] | set[Role], *, host_here: bool = True) -> bool:
    rule = RULES[act]
    return bool(rule.who & roles) or (not host_here and bool(rule.host_away & roles))


def require(act: Act, roles: frozenset[Role] | set[Role], *, host_here: bool = True) -> None:
    """Raise the act's refusal (a :class:`MessageError`, nothing changed) unless ``roles`` may."""
    if not allowed(act, roles, host_here=host_here):
        raise MessageError(RULES[act].refusal)


def roles_of(
    *, token_hash: str | None, host: str | None, seat_tokens: list[str | None], local: bool, guest: bool
) -> frozenset[Role]:
    """The roles of a requester with this token hash in a room with this host and these seats;
    ``guest``: the room has no password, or the requester gave it (over HTTP: the
    ``X-Tuolaji-Password`` header; on a WebSocket: ``hello.password``)."""
    out = {Role.ANYONE}
    if guest:
        out.add(Role.GUEST)
    if token_hash and host is not None and token_hash == host:
        out.add(Role.HOST)
    if token_hash and token_hash in seat_tokens:
        out.add(Role.PLAYER)
    if local:
        out.add(Role.LOCAL)
    return frozenset(out)


def markdown_table() -> str:
    """The table as docs/table.md shows it."""
    cols = (Role.HOST, Role.PLAYER, Role.LOCAL, Role.GUEST, Role.ANYONE)
    lines = [
        "| what | " + " | ".join(c.value for c in cols) + " | refused with | note |",
        "| --- | " + " | ".join("---" for _ in cols) + " | --- | --- |",
    ]
    for act, rule in RULES.items():
        cells = []
        for c in cols:
            cells.append("yes" if c in rule.who else "if the host is away" if c in rule.host_away else "no")
        refusal = "" if rule.who == _ALL else f"`{rule.refusal}`"
        lines.append(f"| `{act.value}` | " + " | ".join(cells) + f" | {refusal} | {rule.note} |")
    return "\n".join(lines) + "\n"
