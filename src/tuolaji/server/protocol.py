"""Client → server message schemas, and refusal texts in English and Chinese.

Every WebSocket message from a client is a JSON object ``{"type": T, ...}``, optionally with an
``id`` (an int or a short string) that the server echoes in its reply (``re``). Each type has a
fixed set of fields; a missing required field, a field of the wrong type, or an unknown field is
refused with ``bad_message`` and nothing happens. The engine then checks the action itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cards import CardError, parse_card
from ..errors import REASONS as ENGINE_REASONS
from ..validate import JSONInputError, loads, text_problem

MAX_MESSAGE_BYTES = 16_384
LANGS = ("en", "zh")
SPEEDS = ("slow", "normal", "fast", "instant")
DIFFICULTIES = ("easy", "normal", "hard", "expert")
MAX_TIMER = 600
CHAT_MAX = 120  # characters in one chat line

# Refusals the server itself gives (the engine's own codes come from tuolaji.errors.REASONS).
SERVER_REASONS: dict[str, tuple[str, str]] = {
    "bad_json": ("that message is not valid JSON", "消息不是有效的 JSON"),
    "too_big": ("that message is too long", "消息太长"),
    "bad_message": ("malformed message: {why}", "消息格式错误：{why}"),
    "unknown_type": ("unknown message type {kind!r}", "未知的消息类型 {kind!r}"),
    "hello_first": ("say hello first", "请先发送 hello"),
    "not_seated": ("you are watching: take a seat to play", "你在旁观：请先入座"),
    "not_your_seat": ("you sit in seat {mine}, not seat {seat}", "你坐在 {mine} 号位，不是 {seat} 号位"),
    "seat_taken": ("seat {seat} is taken by another player", "{seat} 号位已有玩家"),
    "bad_seat": ("there is no seat {seat}", "没有 {seat} 号座位"),
    "already_seated": ("you already sit in seat {seat}", "你已经坐在 {seat} 号位"),
    "not_started": ("the game has not started yet", "游戏尚未开始"),
    "already_started": ("the game has already started", "游戏已经开始"),
    "not_host": ("only the host may do that", "只有房主可以这样做"),
    "server_deals": ("the table deals the cards; you cannot deal", "由牌桌发牌，玩家不能发牌"),
    "round_break": ("the round is over: wait for the next deal", "本局已结束，请等待下一局发牌"),
    "match_over": ("the match is over", "比赛已结束"),
    "no_room": ("there is no room {room}", "没有房间 {room}"),
    "busy": ("the computer is still thinking; try again", "电脑还在思考，请稍后再试"),
    "no_hint": ("there is nothing to hint now", "现在没有可提示的操作"),
    "bad_password": ("this room needs its password", "这个房间需要密码"),
    "kicked": ("the host gave your seat to the computer", "房主把你的座位交给了电脑"),
    "not_a_player": ("seat {seat} has no player to remove", "{seat} 号位没有可移出的玩家"),
    "chat_empty": ("say something first", "请先输入内容"),
    "chat_fast": ("wait a moment before the next message", "请稍等再发下一条"),
    # HTTP answers (the start page, import, replay)
    "not_object": ("send a JSON object", "请求必须是 JSON 对象"),
    "no_seed": ("this server does not take a seed", "这个服务器不接受指定种子"),
    "bad_name": ("a name has at most 24 characters", "名字最多 24 个字"),
    "no_game": ("there is no such game", "没有这局牌"),
    "not_yours": ("only the host of this game may delete it", "只有这局的房主才能删除它"),
    "not_allowed": ("you may not do that at this table", "你不能在这桌这样做"),
    "seat_next_round": ("you play seat {seat} from the next round; the computer plays this one",
                        "你从下一局起坐 {seat} 号位；本局由电脑代打"),
    "file_too_big": ("that file is too large", "文件太大"),
    "bad_record": ("not a game record this program can load: {why}", "不是本程序能读取的牌谱文件：{why}"),
    "no_round": ("round {round} has not finished (finished rounds: {done})", "第 {round} 局还没打完（已打完 {done} 局）"),
    "bad_replay": ("the replay needs a round number and a seat", "回放需要局数和座位"),
    "too_deep": ("that message is nested too deeply", "消息嵌套层数太多"),
    "bad_text": ("a text in that message is not valid Unicode ({where})", "消息中有无效的 Unicode 文字（{where}）"),
    "too_slow": ("the request did not arrive in time", "请求发送超时"),
    "too_many_rooms": ("too many new games from your address: wait a while", "你的地址新建的牌局太多，请稍后再试"),
    "room_full": ("this room is full", "房间已满"),
    "slow_down": ("too many messages: slow down", "消息太频繁，请放慢速度"),
    "save_failed": ("this game cannot be saved now (the server's disk?): progress since may be lost if the "
                    "server stops", "现在无法保存本局（服务器磁盘问题？）：如果服务器停止，之后的进度可能丢失"),
    "saved_again": ("this game is saved again", "本局已恢复保存"),
}


class Why(ValueError):
    """What a field must be, in English and Chinese (a part of a ``bad_message`` refusal)."""

    def __init__(self, en: str, zh: str) -> None:
        super().__init__(en)
        self.en, self.zh = en, zh

    def text(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en


def reason_text(code: str, lang: str, **fields: object) -> str:
    en, zh = SERVER_REASONS.get(code) or ENGINE_REASONS.get(code) or (code, code)
    text = zh if lang.startswith("zh") else en
    try:
        return text.format(**{k: v.text(lang) if isinstance(v, Why) else v for k, v in fields.items()})
    except (KeyError, IndexError, ValueError):
        return text


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


def _dict(v: Any) -> Any:
    if not isinstance(v, dict) or len(json.dumps(v)) > 4000:
        raise Why("an object of settings", "设置对象")
    return v


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
