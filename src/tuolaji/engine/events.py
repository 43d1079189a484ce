"""Frozen events: what happened, appended once per accepted action (and per consequence).

``redacted(seat)`` gives the form a seat may see: another seat's dealt card, and the kitty
picked up or buried by another seat, are hidden (``None``) until the round ends.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from ..cards import SUITS, card_str, cards_str, parse_card, parse_cards


@dataclass(frozen=True, slots=True)
class Event:
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


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    seat: int
    card: int | None

    def redacted(self, seat: int | None) -> Event:
        return self if seat == self.seat else replace(self, card=None)


@dataclass(frozen=True, slots=True)
class Declared(Event):
    seat: int
    cards: tuple[int, ...]
    trump: int | None  # suit 0..3, None for no-trump


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class TrumpFixed(Event):
    trump: int | None
    dealer: int
    source: str  # "declared" or the no-declaration fallback used ("kitty_first", "kitty_third")


@dataclass(frozen=True, slots=True)
class Redealt(Event):
    """No one declared in the first round: the cards are dealt again."""


@dataclass(frozen=True, slots=True)
class KittyTaken(Event):
    seat: int
    cards: tuple[int, ...] | None

    def redacted(self, seat: int | None) -> Event:
        return self if seat == self.seat else replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class Buried(Event):
    seat: int
    cards: tuple[int, ...] | None

    def redacted(self, seat: int | None) -> Event:
        return self if seat == self.seat else replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    cards: tuple[int, ...]
    attempted: tuple[int, ...] | None = None  # a failed throw: what was shown before the forced play
    beaten_by: int | None = None  # a failed throw: the first seat after the leader able to beat it
    beating: tuple[int, ...] | None = None  # ... and the lowest combination it shows to do so


@dataclass(frozen=True, slots=True)
class RedealRequested(Event):
    """An attacker with a weak hand asked for a redeal (暴动); the dealer stays."""

    seat: int


@dataclass(frozen=True, slots=True)
class FriendCalled(Event):
    seat: int
    card: int
    nth: int = 0  # friend_call nth_played: the copy (1st, 2nd, ...) whose player joins; 0 otherwise


@dataclass(frozen=True, slots=True)
class FriendRevealed(Event):
    """A call showed its friend, who played the called card (seat None: the call finds nobody,
    or the dealer played the called copy himself)."""

    seat: int | None
    call: int = 0  # which of the dealer's calls (0 = the first)


@dataclass(frozen=True, slots=True)
class SurrenderProposed(Event):
    """投降: a seat proposed on its turn that its side concede the round."""

    seat: int


@dataclass(frozen=True, slots=True)
class SurrenderAnswered(Event):
    """A partner accepted or declined the proposal (one decline and play goes on)."""

    seat: int
    accept: bool


@dataclass(frozen=True, slots=True)
class TimeIsUp(Event):
    """A timed match reached its deadline; it ends with the current round."""


@dataclass(frozen=True, slots=True)
class TrickEnded(Event):
    winner: int
    points: int
    attacker_points: int  # running total after this trick


@dataclass(frozen=True, slots=True)
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


# The round makes these three once per card dealt, card played and trick: built by setting their
# slots directly, they cost half what the frozen dataclass __init__ does (one object.__setattr__
# call per field). The same fields, in the same order, as the classes' own constructors.
_new = object.__new__
DEALT_SETTERS = _DEALT_SEAT, _DEALT_CARD = tuple(Dealt.__dict__[f].__set__ for f in ("seat", "card"))  # the round deals with them
PLAYED_SETTERS = _PLAYED = tuple(Played.__dict__[f].__set__ for f in ("seat", "cards", "attempted", "beaten_by", "beating"))
TRICK_ENDED_SETTERS = _TRICK_ENDED = tuple(TrickEnded.__dict__[f].__set__ for f in ("winner", "points", "attacker_points"))


def dealt(seat: int, card: int) -> Dealt:
    """``Dealt(seat, card)``."""
    ev = _new(Dealt)
    _DEALT_SEAT(ev, seat)
    _DEALT_CARD(ev, card)
    return ev


def played(
    seat: int,
    cards: tuple[int, ...],
    attempted: tuple[int, ...] | None = None,
    beaten_by: int | None = None,
    beating: tuple[int, ...] | None = None,
) -> Played:
    """``Played(seat, cards, attempted, beaten_by, beating)``."""
    ev = _new(Played)
    s_seat, s_cards, s_attempted, s_beaten_by, s_beating = _PLAYED
    s_seat(ev, seat)
    s_cards(ev, cards)
    s_attempted(ev, attempted)
    s_beaten_by(ev, beaten_by)
    s_beating(ev, beating)
    return ev


def trick_ended(winner: int, points: int, attacker_points: int) -> TrickEnded:
    """``TrickEnded(winner, points, attacker_points)``."""
    ev = _new(TrickEnded)
    s_winner, s_points, s_attacker_points = _TRICK_ENDED
    s_winner(ev, winner)
    s_points(ev, points)
    s_attacker_points(ev, attacker_points)
    return ev
