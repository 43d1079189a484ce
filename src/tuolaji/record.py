"""Game records: a versioned JSON document from which any game, finished or not, is rebuilt.

Format (``docs/records.md``)::

    {"format": "tuolaji-record", "version": 1,
     "rules": {...settings...}, "seed": 123 | null,
     "deals": [["S10", "HA", ...108 cards in deal order...], ...one per round started],
     "events": [{"e": "round_started", ...}, {"e": "dealt", "seat": 0, "card": "S10"}, ...]}

Loading replays the events that are actions (dealt, declared, passed, buried, played) through
the checked engine and compares every event the engine derives (trump fixed, tricks won, round
results) with the record, so a damaged record is refused with the index of the first bad event.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from enum import StrEnum
from typing import Any

from .cards import CardError, cards_str, new_deck, parse_cards
from .engine.actions import (
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
)
from .engine.events import (
    Buried,
    Dealt,
    Declared,
    Event,
    FriendCalled,
    Passed,
    Played,
    RedealRequested,
    SurrenderAnswered,
    SurrenderProposed,
    TimeIsUp,
    event_from_dict,
)
from .engine.match import Match, MatchEnded
from .errors import IllegalAction
from .messages import text
from .ruleset import RuleSet, RuleSetError
from .validate import JSONInputError, unencodable_path
from .validate import loads as loads_json

FORMAT = "tuolaji-record"
VERSION = 1
MAX_DEPTH = 16  # a record is 4 levels deep (events → event → cards → card)


class RecordProblem(StrEnum):
    """What is wrong with a record; the texts are the catalogs' ``record`` section."""

    ACTION_REFUSED = "action_refused"
    BAD_TEXT = "bad_text"
    DEAL_CARD = "deal_card"
    DEAL_INCOMPLETE = "deal_incomplete"
    DEALS = "deals"
    EVENT_DIFFERS = "event_differs"
    EVENT_NOT_ACTION = "event_not_action"
    EVENT_UNREADABLE = "event_unreadable"
    EVENTS = "events"
    FEW_DEALS = "few_deals"
    FORMAT = "format"
    NOT_JSON = "not_json"
    NOT_OBJECT = "not_object"
    RULES = "rules"
    SAVE_DAMAGED = "save_damaged"
    SEED = "seed"
    TOO_DEEP = "too_deep"
    TOO_MANY_ROUNDS = "too_many_rounds"
    VERSION = "version"


class RecordError(ValueError):
    """A record that cannot be loaded; the message says where it is damaged, in the reader's
    language (``detail``: an English-only detail for developers, which Chinese leaves out)."""

    def __init__(self, problem: RecordProblem, /, **fields: object) -> None:
        self.problem = problem
        self.fields = fields
        super().__init__(problem)

    def __str__(self) -> str:
        return self.message("en")

    def message(self, lang: str = "en") -> str:
        return text("record", self.problem, lang, **self.fields)

    @classmethod
    def from_json(cls, exc: JSONInputError) -> RecordError:
        return cls(RecordProblem.TOO_DEEP if exc.code == "too_deep" else RecordProblem.NOT_JSON, detail=str(exc))


def to_record(match: Match) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "deals": [cards_str(d) for d in match.deals],
        "events": [e.to_dict() for e in match.events],
    }


def dumps(match: Match) -> str:
    return json.dumps(to_record(match), ensure_ascii=False, separators=(",", ":"))


def action_of_event(event: Event) -> Action | None:
    """The action an event records, or None for events the engine derives (tricks won, results).
    ValueError for an action's event without its cards (a record's ``null``, or a seat's
    redacted view of a bury)."""
    if isinstance(event, Dealt):
        return Deal()
    if isinstance(event, Passed):
        return Pass(event.seat)
    if isinstance(event, (Declared, Buried, Played)):
        if event.cards is None:
            raise ValueError(f"{event.to_dict()['e']!r} without its cards")
        if isinstance(event, Declared):
            return Declare(event.seat, event.cards)
        if isinstance(event, Buried):
            return Bury(event.seat, event.cards)
        return Play(event.seat, event.attempted if event.attempted is not None else event.cards)
    if isinstance(event, RedealRequested):
        return Redeal(event.seat)
    if isinstance(event, FriendCalled):
        return CallFriend(event.seat, event.card, event.nth)
    if isinstance(event, SurrenderProposed):
        return Surrender(event.seat)
    if isinstance(event, SurrenderAnswered):
        return SurrenderAnswer(event.seat, event.accept)
    if isinstance(event, TimeIsUp):
        return TimeUp()
    return None


def from_record(data: Any) -> Match:
    """Rebuild a match from a record (a dict, or JSON text)."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = loads_json(data, max_depth=MAX_DEPTH)
        except JSONInputError as exc:
            raise RecordError.from_json(exc) from None
    if not isinstance(data, dict):
        raise RecordError(RecordProblem.NOT_OBJECT)
    bad = unencodable_path(data, max_depth=MAX_DEPTH)
    if bad is not None:
        raise RecordError(RecordProblem.BAD_TEXT, where=bad[:80])
    if data.get("format") != FORMAT:
        raise RecordError(RecordProblem.FORMAT, expected=repr(FORMAT), got=repr(data.get("format"))[:40])
    if data.get("version") != VERSION:
        raise RecordError(RecordProblem.VERSION, got=repr(data.get("version"))[:40], version=VERSION)
    try:
        rules = RuleSet.from_dict(data.get("rules", {}))
    except RuleSetError as exc:
        raise RecordError(RecordProblem.RULES, cause=exc) from None
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list) or not raw_deals:
        raise RecordError(RecordProblem.DEALS)
    full = Counter(new_deck(rules.decks))
    deals = []
    for i, d in enumerate(raw_deals):
        try:
            cards = parse_cards(d) if isinstance(d, list) else None
        except CardError as exc:
            raise RecordError(RecordProblem.DEAL_CARD, i=i, detail=str(exc)) from None
        if cards is None or Counter(cards) != full:
            raise RecordError(RecordProblem.DEAL_INCOMPLETE, i=i, decks=rules.decks)
        deals.append(cards)
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise RecordError(RecordProblem.SEED)
    raw_events = data.get("events")
    if not isinstance(raw_events, list):
        raise RecordError(RecordProblem.EVENTS)
    match = Match(rules=rules, seed=seed, deals=deals)
    expected: list[Event] = []
    for i, raw in enumerate(raw_events):
        try:
            expected.append(event_from_dict(raw))
        except (ValueError, TypeError, CardError) as exc:
            raise RecordError(RecordProblem.EVENT_UNREADABLE, i=i, detail=str(exc)) from None
    match_events = match.events
    # The engine re-derives every event; the record must agree with it one for one.
    pos = 0
    for ev in match_events:
        _expect(expected, pos, ev)
        pos += 1
    while pos < len(expected):
        try:
            action = action_of_event(expected[pos])
        except ValueError as exc:
            raise RecordError(RecordProblem.EVENT_UNREADABLE, i=pos, detail=str(exc)) from None
        if action is None:
            raise RecordError(RecordProblem.EVENT_NOT_ACTION, i=pos, event=expected[pos].to_dict()["e"])
        before = len(match_events)
        try:
            match.apply(action)
        except IllegalAction as exc:
            raise RecordError(RecordProblem.ACTION_REFUSED, i=pos, cause=exc) from None
        for ev in match_events[before:]:
            _expect(expected, pos, ev)
            pos += 1
    if len(match.deals) > len(deals):
        raise RecordError(RecordProblem.FEW_DEALS)
    return match


def _expect(expected: list[Event], pos: int, got: Event) -> None:
    if pos >= len(expected):
        return  # a record may stop right after an action; derived events then follow from replay
    want = expected[pos]
    if isinstance(want, Played) and isinstance(got, Played) and want.beaten_by is None:
        got = replace(got, beaten_by=None, beating=None)  # written before failed throws named who beat them
    if isinstance(want, MatchEnded) and isinstance(got, MatchEnded) and got.winner is None and want.levels == got.levels:
        got = want  # written before a tie nobody reached first was a draw: team 0 was named; it is a draw now
    if want != got:
        raise RecordError(
            RecordProblem.EVENT_DIFFERS,
            i=pos,
            event=json.dumps(want.to_dict(), ensure_ascii=False),
            got=json.dumps(got.to_dict(), ensure_ascii=False),
        )


def loads(text: str) -> Match:
    return from_record(text)
