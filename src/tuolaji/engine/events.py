"""Frozen events: what happened, appended once per accepted action (and per consequence).

``redacted(seat)`` gives the form a seat may see: another seat's dealt card, and the kitty
picked up or buried by another seat, are hidden (``None``) until the round ends.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform

from ..cards import SUITS, card_str, cards_str, parse_card, parse_cards

_E = TypeVar("_E", bound="Event")
# (typed Any: the checker reads these as making and comparing plain tuples)
_tuple_new: Any = tuple.__new__
_tuple_eq: Any = tuple.__eq__
_tuple_ne: Any = tuple.__ne__

# An event is a tuple underneath, its fields read by index (as a namedtuple's are): a round makes
# one for every card dealt and played, and a tuple subclass is built by one C call, where a frozen
# slotted dataclass pays a descriptor call per field (a ``Played``: 4.3 k machine instructions
# against 1.4 k). Otherwise it behaves as the frozen dataclass it was: ``dataclasses.fields`` and
# ``replace``, its repr, equality only with an event of the same class (and the same hash),
# ``FrozenInstanceError`` on assignment, pickling and copying, ``__match_args__``, always true.
if TYPE_CHECKING:
    _Record = object  # to the type checker an event is a record, not a sequence
else:
    _Record = tuple


@dataclass_transform(frozen_default=True)
def event_class(cls: type[_E]) -> type[_E]:
    """The event class written as ``cls`` (its annotated fields, in order, with their defaults):
    the decorator of every event class, where a dataclass would have ``@dataclass(frozen=True)``."""
    ns = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    ns["__slots__"] = ()
    new = type(cls.__name__, cls.__bases__, ns)
    dataclass(init=False, eq=False, frozen=True)(new)  # fields(), repr, frozen assignment, __match_args__
    names = [f.name for f in fields(new)]
    getters = namedtuple(f"_{cls.__name__}", names).__dict__  # noqa: PYI024  (its C field readers, by index)
    for name in names:
        setattr(new, name, getters[name])  # replaces a default left as a class attribute
    params = "".join(f", {f.name}" if f.default is MISSING else f", {f.name}=_d[{f.name!r}]" for f in fields(new))
    src = f"def __new__(_cls{params}):\n    return _tuple_new(_cls, ({''.join(n + ', ' for n in names)}))\n"
    scope: dict[str, Any] = {"_tuple_new": _tuple_new, "_d": {f.name: f.default for f in fields(new)}}
    exec(src, scope)  # noqa: S102  (the names are the class's own field names)
    scope["__new__"].__qualname__ = f"{new.__qualname__}.__new__"
    new.__new__ = scope["__new__"]  # type: ignore[method-assign]
    return new


@event_class
class Event(_Record):
    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return _tuple_eq(self, other)  # type: ignore[no-any-return]
        return NotImplemented if not isinstance(other, tuple) else False

    def __ne__(self, other: object) -> bool:
        if type(other) is type(self):
            return _tuple_ne(self, other)  # type: ignore[no-any-return]
        return NotImplemented if not isinstance(other, tuple) else True

    __hash__ = tuple.__hash__  # the dataclass's hash: that of the tuple of the fields

    def __bool__(self) -> bool:  # an event with no fields is still true
        return True

    def __lt__(self, other: object) -> bool:  # not ordered, as the dataclass was not
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __getnewargs__(self) -> tuple[Any, ...]:  # pickled and copied through __new__ and its fields
        return tuple(self)  # type: ignore[arg-type]

    def redacted(self, seat: int | None) -> Event:
        return self

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"e": EVENT_NAMES[type(self)]}
        for f in fields(self):
            v = getattr(self, f.name)
            if (v is None or v == ()) and f.name in _OMITTED_WHEN_EMPTY:
                continue
            if f.name in _OMITTED_AT_DEFAULT and v == _OMITTED_AT_DEFAULT[f.name]:
                continue
            if f.name in _CARD_FIELDS and v is not None:
                v = cards_str(v)
            elif f.name in _ONE_CARD_FIELDS and v is not None:
                v = card_str(v)
            elif f.name == "trump" and v is not None:
                v = SUITS[v]  # one spelling on every wire: a letter, or null for no-trump
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


@event_class
class Dealt(Event):
    seat: int
    card: int | None

    def redacted(self, seat: int | None) -> Event:
        return self if seat == self.seat else Dealt(self.seat, None)


@event_class
class Declared(Event):
    seat: int
    cards: tuple[int, ...]
    trump: int | None  # suit 0..3, None for no-trump


@event_class
class Passed(Event):
    seat: int


@event_class
class TrumpFixed(Event):
    trump: int | None
    dealer: int
    source: str  # "declared" or the no-declaration fallback used ("kitty_first", "kitty_third")


@event_class
class Redealt(Event):
    """No one declared in the first round: the cards are dealt again."""


@event_class
class KittyTaken(Event):
    seat: int
    cards: tuple[int, ...] | None

    def redacted(self, seat: int | None) -> Event:
        return self if seat == self.seat else KittyTaken(self.seat, None)


@event_class
class Buried(Event):
    seat: int
    cards: tuple[int, ...] | None

    def redacted(self, seat: int | None) -> Event:
        return self if seat == self.seat else Buried(self.seat, None)


@event_class
class Played(Event):
    seat: int
    cards: tuple[int, ...]
    attempted: tuple[int, ...] | None = None  # a failed throw: what was shown before the forced play
    beaten_by: int | None = None  # a failed throw: the first seat after the leader able to beat it
    beating: tuple[int, ...] | None = None  # ... and the lowest combination it shows to do so


@event_class
class RedealRequested(Event):
    """An attacker with a weak hand asked for a redeal (暴动); the dealer stays."""

    seat: int


@event_class
class FriendCalled(Event):
    seat: int
    card: int
    nth: int = 0  # friend_call nth_played: the copy (1st, 2nd, ...) whose player joins; 0 otherwise


@event_class
class FriendRevealed(Event):
    """A call showed its friend, who played the called card (seat None: the call finds nobody,
    or the dealer played the called copy himself)."""

    seat: int | None
    call: int = 0  # which of the dealer's calls (0 = the first)


@event_class
class SurrenderProposed(Event):
    """投降: a seat proposed on its turn that its side concede the round."""

    seat: int


@event_class
class SurrenderAnswered(Event):
    """A partner accepted or declined the proposal (one decline and play goes on)."""

    seat: int
    accept: bool


@event_class
class TimeIsUp(Event):
    """A timed match reached its deadline; it ends with the current round."""


@event_class
class TrickEnded(Event):
    winner: int
    points: int
    attacker_points: int  # running total after this trick


@event_class
class RoundEnded(Event):
    attacker_points: int
    trick_points: int
    kitty: tuple[int, ...]
    kitty_points: int
    multiplier: int
    kitty_captured: bool
    team: str  # "dealer" or "attackers": who goes up (or takes over)
    levels: int
    next_dealer: int
    dealer_side: tuple[int, ...] = ()  # the dealer and partner(s) (find-a-friend: as it turned out)
    overrides: int = 0  # overriding declarations made this round (may multiply a stake)
    failed_throws: tuple[int, ...] = ()  # per seat
    penalty_points: int = 0  # added to the attackers' total by failed-throw penalties
    coins: tuple[int, ...] = ()  # per seat, won (+) or paid (-); empty without a stake (scoring.round_coins)
    j_hook: bool = False  # 勾J: the attackers took the last trick with a J at level J; the dealers go back to 2
    surrendered: str | None = None  # 投降: "dealer" or "attackers", the side that conceded


_CARD_FIELDS = {"cards", "attempted", "kitty", "beating"}
_ONE_CARD_FIELDS = {"card"}
_OPTIONAL_FIELDS = {
    "attempted",
    "dealer_side",
    "overrides",
    "failed_throws",
    "penalty_points",
    "beaten_by",
    "beating",
    "coins",
    "j_hook",
    "surrendered",
    "nth",
    "call",
}
# Fields added after records were first written, left out when None or empty so older events read the same
# (coins: a table without a stake).
_OMITTED_WHEN_EMPTY = {"beaten_by", "beating", "coins"}
# written only when they differ from their default, so records of games without these rules stay as they were
_OMITTED_AT_DEFAULT = {"j_hook": False, "surrendered": None, "nth": 0, "call": 0}

EVENT_NAMES: dict[type[Event], str] = {
    Dealt: "dealt",
    Declared: "declared",
    Passed: "passed",
    TrumpFixed: "trump_fixed",
    Redealt: "redealt",
    KittyTaken: "kitty_taken",
    Buried: "buried",
    Played: "played",
    TrickEnded: "trick_ended",
    RoundEnded: "round_ended",
    RedealRequested: "redeal_requested",
    FriendCalled: "friend_called",
    FriendRevealed: "friend_revealed",
    TimeIsUp: "time_is_up",
    SurrenderProposed: "surrender_proposed",
    SurrenderAnswered: "surrender_answered",
}
EVENT_TYPES = {v: k for k, v in EVENT_NAMES.items()}


def _parse_trump(v: Any) -> int:
    if isinstance(v, str) and v in SUITS:
        return SUITS.index(v)
    if type(v) is int and 0 <= v < 4:  # records written before trump was spelled as a letter
        return v
    raise ValueError(f"trump must be one of S, H, C, D or null, not {v!r:.20}")


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of ``Event.to_dict``; raises ValueError on a malformed event."""
    if not isinstance(data, dict) or data.get("e") not in EVENT_TYPES:
        raise ValueError(f"unknown event {data!r:.80}")
    cls = EVENT_TYPES[data["e"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name in _OPTIONAL_FIELDS:
                continue
            raise ValueError(f"event {data['e']!r} lacks {f.name!r}")
        v = data[f.name]
        if f.name in _CARD_FIELDS and v is not None:
            v = tuple(parse_cards(v))
        elif f.name in _ONE_CARD_FIELDS and v is not None:
            v = parse_card(v)
        elif f.name == "trump" and v is not None:
            v = _parse_trump(v)
        elif isinstance(v, list):
            v = tuple(v)
        kwargs[f.name] = v
    return cls(**kwargs)


# The round makes these three once per card dealt, card played and trick: built by tuple.__new__
# itself, without the Python __new__ (the same fields, in the same order, as the constructors).


def dealt(seat: int, card: int) -> Dealt:
    """``Dealt(seat, card)``."""
    ev: Dealt = _tuple_new(Dealt, (seat, card))
    return ev


def played(
    seat: int,
    cards: tuple[int, ...],
    attempted: tuple[int, ...] | None = None,
    beaten_by: int | None = None,
    beating: tuple[int, ...] | None = None,
) -> Played:
    """``Played(seat, cards, attempted, beaten_by, beating)``."""
    ev: Played = _tuple_new(Played, (seat, cards, attempted, beaten_by, beating))
    return ev


def trick_ended(winner: int, points: int, attacker_points: int) -> TrickEnded:
    """``TrickEnded(winner, points, attacker_points)``."""
    ev: TrickEnded = _tuple_new(TrickEnded, (winner, points, attacker_points))
    return ev
