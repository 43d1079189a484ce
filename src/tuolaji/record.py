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
from typing import Any

from .cards import CardError, cards_str, new_deck, parse_cards
from .engine.actions import Action, Bury, CallFriend, Deal, Declare, Pass, Play, Redeal, TimeUp
from .engine.events import (
    Buried,
    Dealt,
    Declared,
    Event,
    FriendCalled,
    Passed,
    Played,
    RedealRequested,
    TimeIsUp,
    event_from_dict,
)
from .engine.match import Match
from .errors import IllegalAction
from .ruleset import RuleSet, RuleSetError
from .validate import JSONInputError, unencodable_path
from .validate import loads as loads_json

FORMAT = "tuolaji-record"
VERSION = 1
MAX_DEPTH = 16  # a record is 4 levels deep (events → event → cards → card)


class RecordError(ValueError):
    """A record that cannot be loaded; the message says where it is damaged."""


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
    """The action an event records, or None for events the engine derives (tricks won, results)."""
    if isinstance(event, Dealt):
        return Deal()
    if isinstance(event, Declared):
        return Declare(event.seat, event.cards)
    if isinstance(event, Passed):
        return Pass(event.seat)
    if isinstance(event, Buried):
        assert event.cards is not None
        return Bury(event.seat, event.cards)
    if isinstance(event, Played):
        return Play(event.seat, event.attempted if event.attempted is not None else event.cards)
    if isinstance(event, RedealRequested):
        return Redeal(event.seat)
    if isinstance(event, FriendCalled):
        return CallFriend(event.seat, event.card)
    if isinstance(event, TimeIsUp):
        return TimeUp()
    return None


def from_record(data: Any) -> Match:
    """Rebuild a match from a record (a dict, or JSON text)."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = loads_json(data, max_depth=MAX_DEPTH)
        except JSONInputError as exc:
            raise RecordError(f"record is {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("record must be a JSON object")
    bad = unencodable_path(data, max_depth=MAX_DEPTH)
    if bad is not None:
        raise RecordError(f"record is nested too deep or holds text that is not valid Unicode at {bad[:80]}")
    if data.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}, not {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported (this is version {VERSION})")
    try:
        rules = RuleSet.from_dict(data.get("rules", {}))
        rules.check_supported()
    except RuleSetError as exc:
        raise RecordError(f"'rules': {exc}") from None
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list) or not raw_deals:
        raise RecordError("'deals' must be a non-empty list of deals")
    full = Counter(new_deck(rules.decks))
    deals = []
    for i, d in enumerate(raw_deals):
        try:
            cards = parse_cards(d) if isinstance(d, list) else None
        except CardError as exc:
            raise RecordError(f"'deals'[{i}]: {exc}") from None
        if cards is None or Counter(cards) != full:
            raise RecordError(f"'deals'[{i}] is not a complete {rules.decks}-deck deal")
        deals.append(cards)
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise RecordError("'seed' must be an integer or null")
    raw_events = data.get("events")
    if not isinstance(raw_events, list):
        raise RecordError("'events' must be a list")
    match = Match(rules=rules, seed=seed, deals=deals)
    expected: list[Event] = []
    for i, raw in enumerate(raw_events):
        try:
            expected.append(event_from_dict(raw))
        except (ValueError, TypeError, CardError) as exc:
            raise RecordError(f"'events'[{i}]: {exc}") from None
    match_events = match.events
    # The engine re-derives every event; the record must agree with it one for one.
    pos = 0
    for ev in match_events:
        _expect(expected, pos, ev)
        pos += 1
    while pos < len(expected):
        action = action_of_event(expected[pos])
        if action is None:
            raise RecordError(f"'events'[{pos}]: {expected[pos].to_dict()['e']} event where an action was expected")
        before = len(match_events)
        try:
            match.apply(action)
        except IllegalAction as exc:
            raise RecordError(f"'events'[{pos}]: the engine refuses this action: {exc}") from None
        for ev in match_events[before:]:
            _expect(expected, pos, ev)
            pos += 1
    if len(match.deals) > len(deals):
        raise RecordError("'deals' has fewer deals than the events need")
    return match


def _expect(expected: list[Event], pos: int, got: Event) -> None:
    if pos >= len(expected):
        return  # a record may stop right after an action; derived events then follow from replay
    want = expected[pos]
    if isinstance(want, Played) and isinstance(got, Played) and want.beaten_by is None:
        got = replace(got, beaten_by=None, beating=None)  # written before failed throws named who beat them
    if want != got:
        raise RecordError(
            f"'events'[{pos}] is {json.dumps(expected[pos].to_dict(), ensure_ascii=False)} "
            f"but the game gives {json.dumps(got.to_dict(), ensure_ascii=False)}"
        )


def loads(text: str) -> Match:
    return from_record(text)
