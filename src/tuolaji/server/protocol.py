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
from ..validate import JSONInputError, loads, text_problem

MAX_MESSAGE_BYTES = 16_384
LANGS = ("en", "zh")
SPEEDS = ("slow", "normal", "fast", "instant")
DIFFICULTIES = ("easy", "normal", "hard", "expert")
MAX_TIMER = 600
CHAT_MAX = 120  # characters in one chat line

class Why(ValueError):
    """What a field must be, in English and Chinese (a part of a ``bad_message`` refusal)."""

    def __init__(self, en: str, zh: str) -> None:
        super().__init__(en)
        self.en, self.zh = en, zh

    def text(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en


def reason_text(code: str, lang: str, **fields: object) -> str:
    """A refusal in the player's language, from the catalogs' ``reason`` section (codes: :class:`Reason`)."""
    return reason_message(code, lang, **{k: v.text(lang) if isinstance(v, Why) else v for k, v in fields.items()})


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
            raise Why(f"a plain text of at most {max_len} characters", f"不超过 {max_len} 个字的纯文字")
        return v
    return check


def _name(v: Any) -> Any:
    if not isinstance(v, str) or text_problem(v, max_len=24) is not None:
        raise Why("a name of at most 24 characters of plain text", "不超过 24 个字的纯文字名字")
    v = " ".join(v.split())
    return v


def _int(lo: int, hi: int) -> Check:
    def check(v: Any) -> Any:
        if type(v) is not int or not lo <= v <= hi:
            raise Why(f"a whole number {lo}..{hi}", f"{lo} 到 {hi} 之间的整数")
        return v
    return check


def _bool(v: Any) -> Any:
    if not isinstance(v, bool):
        raise Why("true or false", "true 或 false")
    return v


def _choice(options: tuple[str, ...]) -> Check:
    def check(v: Any) -> Any:
        if v not in options:
            raise Why("one of " + ", ".join(options), "以下之一：" + "、".join(f"“{o}”" for o in options))
        return v
    return check


def _cards(v: Any) -> Any:
    if not isinstance(v, list) or len(v) > 64:
        raise Why("a list of at most 64 card strings such as 'S10', 'HA', 'BJ'", "最多 64 张牌的列表，例如 'S10'、'HA'、'BJ'")
    out = []
    for t in v:
        if not isinstance(t, str) or len(t) > 4:
            raise Why("cards are strings such as 'S10', 'HA', 'BJ'", "牌要写成 'S10'、'HA'、'BJ' 这样的文字")
        try:
            out.append(parse_card(t))
        except CardError:
            raise Why(f"cards such as 'S10', 'HA', 'BJ' ({t!r} is not a card)",
                      f"'S10'、'HA'、'BJ' 这样的牌（{t!r} 不是牌）") from None
    return tuple(out)


def _card(v: Any) -> Any:
    if not isinstance(v, str) or len(v) > 4:
        raise Why("a card string such as 'SA'", "一张牌，例如 'SA'")
    try:
        return parse_card(v)  # read once here: the room builds typed actions from it
    except CardError:
        raise Why(f"a card such as 'SA' ({v!r} is not a card)", f"一张牌，例如 'SA'（{v!r} 不是牌）") from None


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
    "call_friend": {"card": Field(_card, True), "seat": _SEAT},  # find-a-friend
    "deal": {"seat": _SEAT},  # well-formed but always refused: the server deals
    "check": {"cards": Field(_cards, True), "action": Field(_choice(("play", "bury", "declare")))},
    "hint": {},
    "ready": {},
    "autoplay": {"on": Field(_bool, True)},
    "settings": {"speed": Field(_choice(SPEEDS)), "timer": Field(_int(0, MAX_TIMER)),
                 "difficulty": Field(_choice(DIFFICULTIES)), "counter": Field(_bool)},
    "chat": {"text": Field(_str(CHAT_MAX), True)},  # LAN rooms: a short line to the table
    "kick": {"seat": Field(_int(0, 7), True)},  # the host gives a player's seat to the computer
    "lang": {"lang": Field(_choice(LANGS), True)},
    "ping": {},
}
ACTION_TYPES = ("declare", "pass", "bury", "play", "redeal", "call_friend", "deal")


@dataclass(frozen=True)
class Message:
    type: str
    fields: dict[str, Any]
    id: int | str | None = None

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def _id(v: Any) -> int | str:
    if (type(v) is int and -2**53 < v < 2**53) or (isinstance(v, str) and text_problem(v, max_len=32) is None):
        return v
    raise MessageError("bad_message", why=Why("'id' must be a number or a short text", "“id”必须是数字或短文字"))


def parse_message(text: str | bytes) -> Message:
    """Parse and validate one client message; raise MessageError (nothing changes) if refused."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise MessageError("too_big")
    try:
        data = loads(text)
    except JSONInputError as exc:
        raise MessageError(exc.code) from None
    if not isinstance(data, dict):
        raise MessageError("bad_message", why=Why("a message is a JSON object with a 'type'", "消息必须是带“type”的 JSON 对象"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MessageError("bad_message", why=Why("'type' must be a text", "“type”必须是文字"))
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
            raise MessageError("bad_message", why=Why(f"{kind!r} has no field {ascii(name[:32])}",
                                                      f"“{kind}”没有“{ascii(name[:32])}”这一项"))
        try:
            fields[name] = f.check(value)
        except Why as exc:
            raise MessageError("bad_message", why=Why(f"{name!r} must be {exc.en}", f"“{name}”必须是{exc.zh}")) from None
    for name, f in schema.items():
        if f.required and name not in fields:
            raise MessageError("bad_message", why=Why(f"{kind!r} needs {name!r}", f"“{kind}”需要“{name}”"))
    return Message(kind, fields, msg_id)


def validate_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Room settings from a create request (speed, timer, difficulty); bad values raise."""
    out: dict[str, Any] = {}
    for name in ("speed", "timer", "difficulty", "counter"):
        if name in data and data[name] is not None:
            try:
                out[name] = SCHEMAS["settings"][name].check(data[name])
            except Why as exc:
                raise MessageError("bad_message", why=Why(f"{name!r} must be {exc.en}", f"“{name}”必须是{exc.zh}")) from None
    return out
