"""Client → server message schemas, and refusal texts in English and Chinese.

Every WebSocket message from a client is a JSON object ``{"type": T, ...}``, optionally with an
``id`` (an int or a short string) that the server echoes in its reply (``re``). Each type has a
fixed set of fields; a missing required field, a field of the wrong type, or an unknown field is
refused with ``bad_message`` and nothing happens. The engine then checks the action itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cards import CardError, parse_card
from ..errors import reason_message
from ..messages import text
from ..validate import JSONInputError, loads, text_problem

MAX_MESSAGE_BYTES = 16_384
LANGS = ("en", "zh")
SPEEDS = ("slow", "normal", "fast", "instant")
DIFFICULTIES = ("easy", "normal", "hard", "expert")
MAX_TIMER = 600
CHAT_MAX = 120  # characters in one chat line


class Why(ValueError):
    """What a field must be (the ``why`` of a ``bad_message`` refusal): a key of the catalogs'
    ``field`` section and its fields, worded in the reader's language."""

    def __init__(self, key: str, /, **fields: object) -> None:
        super().__init__(key)
        self.key, self.fields = key, fields

    def __str__(self) -> str:
        return self.message("en")

    def message(self, lang: str) -> str:
        return text("field", self.key, lang, **self.fields)


class Choices(tuple[str, ...]):
    """Option values, listed in the reader's language."""

    def message(self, lang: str) -> str:
        return text("field", "list_sep", lang).join(text("field", "choice", lang, value=v) for v in self)


def reason_text(code: str, lang: str, **fields: object) -> str:
    """A refusal in the player's language, from the catalogs' ``reason`` section (codes: :class:`Reason`)."""
    return reason_message(code, lang, **fields)


class MessageError(ValueError):
    """A client message refused before it reaches the engine."""

    def __init__(self, code: str, **fields: object) -> None:
        super().__init__(code)
        self.code = code
        self.fields = fields

    def message(self, lang: str) -> str:
        return reason_text(self.code, lang, **self.fields)


# ------------------------------------------------------------------ field validators
Check = Callable[[Any], Any]


def _str(max_len: int) -> Check:
    def check(v: Any) -> Any:
        if not isinstance(v, str) or text_problem(v, max_len=max_len, controls=True) is not None:
            raise Why("text_max", n=max_len)
        return v

    return check


def _name(v: Any) -> Any:
    if not isinstance(v, str) or text_problem(v, max_len=24) is not None:
        raise Why("name")
    v = " ".join(v.split())
    return v


def _int(lo: int, hi: int) -> Check:
    def check(v: Any) -> Any:
        if type(v) is not int or not lo <= v <= hi:
            raise Why("int_range", lo=lo, hi=hi)
        return v

    return check


def _bool(v: Any) -> Any:
    if not isinstance(v, bool):
        raise Why("bool")
    return v


def _choice(options: tuple[str, ...]) -> Check:
    def check(v: Any) -> Any:
        if v not in options:
            raise Why("one_of", options=Choices(options))
        return v

    return check


def _cards(v: Any) -> Any:
    if not isinstance(v, list) or len(v) > 64:
        raise Why("cards_list")
    out = []
    for t in v:
        if not isinstance(t, str) or len(t) > 4:
            raise Why("card_strings")
        try:
            out.append(parse_card(t))
        except CardError:
            raise Why("cards_not_card", card=repr(t)) from None
    return tuple(out)


def _card(v: Any) -> Any:
    if not isinstance(v, str) or len(v) > 4:
        raise Why("card")
    try:
        return parse_card(v)  # read once here: the room builds typed actions from it
    except CardError:
        raise Why("card_not_card", card=repr(v)) from None


@dataclass(frozen=True)
class Field:
    check: Check
    required: bool = False


_SEAT = Field(_int(0, 7))
SCHEMAS: dict[str, dict[str, Field]] = {
    "hello": {"token": Field(_str(64)), "lang": Field(_choice(LANGS)), "name": Field(_name), "password": Field(_str(32))},
    "sit": {"seat": Field(_int(0, 7), True), "name": Field(_name)},
    "stand": {},
    "start": {},
    "declare": {"cards": Field(_cards, True), "seat": _SEAT},
    "pass": {"seat": _SEAT},
    "bury": {"cards": Field(_cards, True), "seat": _SEAT},
    "play": {"cards": Field(_cards, True), "seat": _SEAT},
    "redeal": {"seat": _SEAT},  # 暴动, where the rules allow it
    "call_friend": {"card": Field(_card, True), "nth": Field(_int(0, 4)), "seat": _SEAT},  # find-a-friend
    "surrender": {"seat": _SEAT},  # 投降: propose that one's side concede, where the rules allow it
    "surrender_answer": {"accept": Field(_bool, True), "seat": _SEAT},  # a partner's answer
    "deal": {"seat": _SEAT},  # well-formed but always refused: the server deals
    "check": {"cards": Field(_cards, True), "action": Field(_choice(("play", "bury", "declare")))},
    "hint": {},
    "ready": {},
    "autoplay": {"on": Field(_bool, True)},
    "settings": {
        "speed": Field(_choice(SPEEDS)),
        "timer": Field(_int(0, MAX_TIMER)),
        "difficulty": Field(_choice(DIFFICULTIES)),
        "counter": Field(_bool),
    },
    "chat": {"text": Field(_str(CHAT_MAX), True)},  # LAN rooms: a short line to the table
    "kick": {"seat": Field(_int(0, 7), True)},  # the host gives a player's seat to the computer
    "lang": {"lang": Field(_choice(LANGS), True)},
    "ping": {},
}
ACTION_TYPES = ("declare", "pass", "bury", "play", "redeal", "call_friend", "surrender", "surrender_answer", "deal")


@dataclass(frozen=True)
class Message:
    type: str
    fields: dict[str, Any]
    id: int | str | None = None

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def _id(v: Any) -> int | str:
    if (type(v) is int and -(2**53) < v < 2**53) or (isinstance(v, str) and text_problem(v, max_len=32) is None):
        return v
    raise MessageError("bad_message", why=Why("id"))


def parse_message(text: str | bytes, *, max_bytes: int = MAX_MESSAGE_BYTES) -> Message:
    """Parse and validate one client message; raise MessageError (nothing changes) if refused.
    ``max_bytes``: the transport's limit (``Limits.max_message_bytes`` on the server)."""
    if len(text) > max_bytes:
        raise MessageError("too_big")
    try:
        data = loads(text)
    except JSONInputError as exc:
        raise MessageError(exc.code) from None
    if not isinstance(data, dict):
        raise MessageError("bad_message", why=Why("not_object"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MessageError("bad_message", why=Why("type_text"))
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise MessageError("unknown_type", kind=kind[:32].encode("utf-8", "replace").decode())
    msg_id = _id(data["id"]) if "id" in data and data["id"] is not None else None
    fields: dict[str, Any] = {}
    for name, value in data.items():
        if name in ("type", "id"):
            continue
        f = schema.get(name)
        if f is None:
            raise MessageError("bad_message", why=Why("no_field", kind=kind, name=ascii(name[:32])))
        try:
            fields[name] = f.check(value)
        except Why as exc:
            raise MessageError("bad_message", why=Why("must_be", name=name, what=exc)) from None
    for name, f in schema.items():
        if f.required and name not in fields:
            raise MessageError("bad_message", why=Why("needs", kind=kind, name=name))
    return Message(kind, fields, msg_id)


def validate_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Room settings from a create request (speed, timer, difficulty); bad values raise."""
    out: dict[str, Any] = {}
    for name in ("speed", "timer", "difficulty", "counter"):
        if name in data and data[name] is not None:
            try:
                out[name] = SCHEMAS["settings"][name].check(data[name])
            except Why as exc:
                raise MessageError("bad_message", why=Why("must_be", name=name, what=exc)) from None
    return out
