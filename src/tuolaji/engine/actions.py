"""Actions a round accepts. Each is a frozen value; JSON form ``{"type": ..., ...}``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import CardError, card_str, cards_str, parse_card
from ..errors import IllegalAction, Reason


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next card (no choice: the deal order is fixed by the seed or explicit deal)."""

    type = "deal"


@dataclass(frozen=True, slots=True)
class Declare:
    seat: int
    cards: tuple[int, ...]
    type = "declare"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to declare in the last call after the deal."""

    seat: int
    type = "pass"


@dataclass(frozen=True, slots=True)
class Bury:
    seat: int
    cards: tuple[int, ...]
    type = "bury"


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    cards: tuple[int, ...]
    type = "play"


@dataclass(frozen=True, slots=True)
class Redeal:
    """Ask for a redeal with a hand weak in points (暴动, seed 000 C), at the last call."""

    seat: int
    type = "redeal"


@dataclass(frozen=True, slots=True)
class CallFriend:
    """Find-a-friend: the dealer names the card whose holder becomes the partner."""

    seat: int
    card: int
    nth: int = 0  # friend_call nth_played: which copy played makes the friend (1 = the first); 0 otherwise
    type = "call_friend"


@dataclass(frozen=True, slots=True)
class Surrender:
    """投降 (table rule ``surrender``): on its turn in play, a seat proposes that its side concede."""

    seat: int
    type = "surrender"


@dataclass(frozen=True, slots=True)
class SurrenderAnswer:
    """A partner's answer to a surrender proposal: every partner must accept for the side to concede."""

    seat: int
    accept: bool
    type = "surrender_answer"


@dataclass(frozen=True, slots=True)
class TimeUp:
    """A timed match's deadline passed: the match ends when the current round does."""

    type = "time_up"


# The actions made every card and every turn (by every caller: tables, bots, benchmarks) are
# built without the frozen dataclass __init__, which pays an object.__setattr__ call per field: a
# fieldless Deal needs no __init__ at all; the others set their slots through the slots' own
# setters, by an __init__ written out once per class here. Same objects, same signatures.
del Deal.__init__


def _slot_init(cls: type) -> None:
    names = list(cls.__dataclass_fields__)  # type: ignore[attr-defined]  # a dataclass
    scope: dict[str, Any] = {f"_set_{n}": cls.__dict__[n].__set__ for n in names}
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    exec(f"def __init__(self, {', '.join(names)}):\n{body}", scope)  # noqa: S102  (the class's own field names)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]


for _cls in (Play, Declare, Pass, Bury):  # fields without defaults
    _slot_init(_cls)
del _cls


Action = Deal | Declare | Pass | Bury | Play | Redeal | CallFriend | Surrender | SurrenderAnswer | TimeUp


def action_to_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.type}
    if not isinstance(action, (Deal, TimeUp)):
        out["seat"] = action.seat
    if isinstance(action, (Declare, Bury, Play)):
        out["cards"] = cards_str(action.cards)
    if isinstance(action, CallFriend):
        out["card"] = card_str(action.card)
        if action.nth:
            out["nth"] = action.nth
    if isinstance(action, SurrenderAnswer):
        out["accept"] = action.accept
    return out


def action_from_dict(data: Any) -> Action:
    """Read an action from JSON; malformed input raises IllegalAction('bad_action')."""
    if not isinstance(data, dict):
        raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_NOT_OBJECT)
    kind = data.get("type")
    if kind == "deal":
        return Deal()
    if kind == "time_up":
        return TimeUp()
    if kind not in ("declare", "pass", "bury", "play", "redeal", "call_friend", "surrender", "surrender_answer"):
        raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_TYPE, kind=repr(kind)[:40])
    seat = data.get("seat")
    if type(seat) is not int:
        raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_SEAT)
    if kind == "pass":
        return Pass(seat)
    if kind == "redeal":
        return Redeal(seat)
    if kind == "surrender":
        return Surrender(seat)
    if kind == "surrender_answer":
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_ACCEPT)
        return SurrenderAnswer(seat, accept)
    if kind == "call_friend":
        nth = data.get("nth", 0)
        if type(nth) is not int:
            raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_NTH)
        return CallFriend(seat, _card(data.get("card")), nth)
    raw = data.get("cards")
    if not isinstance(raw, list):
        raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_CARDS)
    cards = tuple(_card(token) for token in raw)
    if kind == "declare":
        return Declare(seat, cards)
    if kind == "bury":
        return Bury(seat, cards)
    return Play(seat, cards)


def _card(token: object) -> int:
    try:
        return parse_card(token)  # type: ignore[arg-type]
    except CardError:
        raise IllegalAction(Reason.BAD_ACTION, why=Reason.NOT_A_CARD, card=repr(token)[:20]) from None
