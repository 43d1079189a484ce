"""Game records (docs/records.md): save/load round trips, and damaged records refused with where."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playthrough import play_match, play_to, step
from tuolaji.cards import card_str, parse_card
from tuolaji.engine.match import Match
from tuolaji.record import FORMAT, VERSION, RecordError, dumps, from_record, loads, to_record

SLOW = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=60)


@pytest.fixture(scope="module")
def finished() -> Match:
    return play_match(21)


@pytest.fixture(scope="module")
def midway() -> Match:
    match, _ = play_to(4, 1234)  # a few rounds in, mid-round
    return match


def _state(match: Match) -> tuple[Any, ...]:
    rnd = match.round
    trick = None if rnd.trick is None else (rnd.trick.leader, rnd.trick.plays, rnd.trick.seats)
    return (
        match.levels,
        match.dealer,
        match.winner,
        len(match.rounds),
        rnd.phase,
        rnd.turn,
        rnd.hands,
        rnd.kitty,
        rnd.dealer,
        rnd.bid,
        rnd.attacker_points,
        trick,
        [t.winner for t in rnd.tricks],
    )


# ------------------------------------------------------------------ round trips
def test_record_format(midway: Match) -> None:
    data = json.loads(dumps(midway))
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert set(data) == {"format", "version", "rules", "seed", "deals", "events"}
    assert all(len(d) == 108 for d in data["deals"])
    assert data["events"][0]["e"] == "round_started"
    assert data == to_record(midway)


def test_finished_match_round_trips(finished: Match) -> None:
    text = dumps(finished)
    again = loads(text)
    assert again.over and again.winner == finished.winner
    assert dumps(again) == text
    assert _state(again) == _state(finished)


@SLOW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), actions=st.integers(min_value=0, max_value=1500))
def test_match_in_progress_round_trips_and_plays_on_identically(seed: int, actions: int) -> None:
    match, rng = play_to(seed, actions)
    text = dumps(match)
    again = loads(text)
    assert dumps(again) == text
    assert _state(again) == _state(match)
    rng2 = random.Random()
    rng2.setstate(rng.getstate())
    rounds = len(match.rounds)
    while not match.over and len(match.rounds) == rounds:  # on to the end of the current round
        step(match, rng)
        step(again, rng2)
    assert len(again.rounds) == len(match.rounds)
    if match.rounds:
        assert again.rounds[-1].events == match.rounds[-1].events
        assert again.levels == match.levels and again.dealer == match.dealer and again.winner == match.winner


def test_a_loaded_seeded_match_deals_the_next_round_as_the_original() -> None:
    match = Match(seed=0)
    again = loads(dumps(match))  # saved before the first card
    rng, rng2 = random.Random(1), random.Random(1)
    while not match.rounds:
        step(match, rng)
        step(again, rng2)
    assert match.deals[1] != match.deals[0]
    assert again.deals[1] == match.deals[1], "the second round must be dealt from the seed, not repeat round 1"


def test_a_record_may_stop_after_any_event(midway: Match) -> None:
    data = to_record(midway)
    events = data["events"]
    for cut in sorted(random.Random(0).sample(range(len(events)), 40)) + [0, 1, len(events)]:
        short = {**data, "events": events[:cut]}
        loaded = from_record(short)
        assert to_record(loaded)["events"][:cut] == events[:cut]


def test_records_of_whole_matches_from_the_match_tests_load() -> None:
    for seed in (100, 101):
        match = play_match(seed)
        assert dumps(loads(dumps(match))) == dumps(match)


# ------------------------------------------------------------------ damaged records
def _refused(data: Any, *needles: str) -> str:
    with pytest.raises(RecordError) as info:
        from_record(data)
    msg = str(info.value)
    for needle in needles:
        assert needle in msg, f"{needle!r} not in {msg!r}"
    return msg


def test_bad_json_is_refused_with_its_position(midway: Match) -> None:
    text = dumps(midway)
    _refused("{" + text, "not valid JSON", "line 1", "column")
    _refused(text[: len(text) // 2], "not valid JSON", "column")  # truncated file
    _refused("", "not valid JSON")
    _refused("[]", "JSON object")


def test_wrong_format_or_version_is_refused(midway: Match) -> None:
    data = to_record(midway)
    _refused({**data, "version": 99}, "version 99")
    _refused({**data, "version": "1"}, "version")
    _refused({k: v for k, v in data.items() if k != "version"}, "version")
    _refused({**data, "format": "chess-pgn"}, "'format'", "chess-pgn")


def test_damaged_header_fields_are_named(midway: Match) -> None:
    data = to_record(midway)
    _refused({**data, "rules": {"decks": 9}}, "'rules'", "decks")
    _refused({**data, "rules": {"no_such_rule": True}}, "'rules'", "no_such_rule")
    _refused({**data, "deals": []}, "'deals'")
    _refused({**data, "events": "all of them"}, "'events'")
    _refused({**data, "seed": "abc"}, "'seed'")


def test_a_tampered_deal_is_refused(midway: Match) -> None:
    data = copy.deepcopy(to_record(midway))
    deal = data["deals"][1]
    deal[7] = deal[8] if deal[8] != deal[7] else deal[9]  # one card twice, another missing
    _refused(data, "'deals'[1]", "not a complete")
    data = copy.deepcopy(to_record(midway))
    data["deals"][0][3] = "X9"
    _refused(data, "'deals'[0]", "X9")


def test_a_deal_missing_for_the_events_is_refused(midway: Match) -> None:
    data = to_record(midway)
    assert len(data["deals"]) > 1
    msg = _refused({**data, "deals": data["deals"][:-1]})
    assert "'deals'" in msg or re.match(r"'events'\[\d+\] is \{\"e\": \"dealt\"", msg), msg


def _event_index(events: list[dict[str, Any]], kind: str, nth: int) -> int:
    return [i for i, e in enumerate(events) if e["e"] == kind][nth]


def test_a_tampered_played_card_is_refused_at_its_event(midway: Match) -> None:
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "played", 30)
    seat = events[i]["seat"]
    holding = from_record({**data, "events": events[:i]}).round.hands[seat]
    not_held = next(card_str(k) for k in range(54) if k not in holding)
    events[i]["cards"] = [not_held] + events[i]["cards"][1:]
    _refused(data, f"'events'[{i}]", "refuses")


def test_a_tampered_bury_is_refused_at_its_event(midway: Match) -> None:
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "buried", 0)
    events[i]["cards"] = events[i]["cards"][:-1]  # one card short
    _refused(data, f"'events'[{i}]", "refuses")


def test_an_impossible_action_is_refused_at_its_event(midway: Match) -> None:
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "played", 10)
    events[i]["seat"] = (events[i]["seat"] + 1) % 4  # not this seat's turn
    msg = _refused(data, f"'events'[{i}]", "refuses")
    assert "turn" in msg
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "trick_ended", 3) + 1  # a second deal in the middle of play
    events.insert(i, {"e": "dealt", "seat": 0, "card": "S2"})
    _refused(data, f"'events'[{i}]")


def test_a_tampered_derived_event_is_refused_at_its_event(midway: Match) -> None:
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "trick_ended", 5)
    events[i]["winner"] = (events[i]["winner"] + 1) % 4
    _refused(data, f"'events'[{i}]", "but the game gives")
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "round_ended", 0)
    events[i]["attacker_points"] += 5
    _refused(data, f"'events'[{i}]", "but the game gives")
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "trump_fixed", 0)
    events[i]["trump"] = "S" if events[i]["trump"] != "S" else "H"
    _refused(data, f"'events'[{i}]")


def test_a_tampered_dealt_card_is_refused_at_its_event(midway: Match) -> None:
    data = copy.deepcopy(to_record(midway))
    events = data["events"]
    i = _event_index(events, "dealt", 17)
    card = parse_card(events[i]["card"])
    events[i]["card"] = card_str((card + 1) % 54)
    _refused(data, f"'events'[{i}]")


def test_malformed_events_are_named(midway: Match) -> None:
    for bad in ({"e": "teleported"}, {"e": "played", "seat": 0}, {"e": "dealt", "seat": 0, "card": "Q5"}, "played", 7):
        data = copy.deepcopy(to_record(midway))
        data["events"][40] = bad
        _refused(data, "'events'[40]")


def test_an_action_event_without_its_cards_is_refused_at_its_event(midway: Match) -> None:
    """A declaration, bury or play recorded with null cards is a refused record naming the event
    (the import endpoint answered HTTP 500 to a declaration without cards)."""
    base = to_record(midway)
    for kind in ("declared", "buried", "played"):
        data = copy.deepcopy(base)
        i = next(j for j, e in enumerate(data["events"]) if e["e"] == kind)
        data["events"][i]["cards"] = None
        _refused(data, f"'events'[{i}]")


def test_every_refusal_names_a_place() -> None:
    """Whatever one event is damaged into, the error names the event (or the header field)."""
    match, _ = play_to(9, 500)
    base = to_record(match)
    rng = random.Random(3)
    for _ in range(200):
        data = copy.deepcopy(base)
        i = rng.randrange(len(data["events"]))
        ev = data["events"][i]
        key = rng.choice(sorted(ev))
        ev[key] = rng.choice([None, -1, 99, "S2", ["BJ"], {"x": 1}, "round_started"])
        try:
            from_record(data)
        except RecordError as exc:
            assert re.search(r"'events'\[\d+\]|'deals'", str(exc)), str(exc)


def test_a_record_with_trump_as_a_suit_number_still_loads(midway: Match) -> None:
    """Records written before trump was spelled as a letter (0..3) load as the same game."""
    data = copy.deepcopy(to_record(midway))
    old = 0
    for e in data["events"]:
        if e.get("trump") is not None:
            e["trump"] = "SHCD".index(e["trump"])
            old += 1
    assert old
    assert to_record(from_record(data)) == to_record(midway)
    bad = copy.deepcopy(data)
    i = next(i for i, e in enumerate(bad["events"]) if e.get("trump") is not None)
    bad["events"][i]["trump"] = "X"
    _refused(bad, f"'events'[{i}]", "trump must be one of S, H, C, D or null")
