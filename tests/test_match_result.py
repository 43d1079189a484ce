"""How a match ends: a winner, or a draw when seed 003's tie rule leaves no side ahead."""

from __future__ import annotations

import json
import random

from tuolaji.engine.actions import Deal, TimeUp
from tuolaji.engine.match import Match, MatchEnded
from tuolaji.engine.simulate import random_match
from tuolaji.record import from_record, to_record
from tuolaji.ruleset import RuleSet

TIMED = RuleSet(match_end="timed", match_minutes=30)


def test_time_up_before_any_level_changed_is_a_draw() -> None:
    """Seed 003: 如到了規定時間，雙方級數相同，則先到該級的一方勝出 — both sides are still at the start
    level, which neither reached first: nobody wins (before, team 0 was named the winner)."""
    match = Match(rules=TIMED, seed=7)
    for _ in range(10):
        match.apply(Deal())
    match.apply(TimeUp())
    assert match.over and match.drawn and match.winner is None and match.time_up
    assert match.events[-1] == MatchEnded(None, (0, 0))
    assert match.events[-1].to_dict() == {"e": "match_ended", "winner": None, "levels": [0, 0]}
    view = match.view(0)
    assert view["over"] and view["draw"] and view["winner"] is None and view["round_number"] == 1
    again = from_record(json.loads(json.dumps(to_record(match))))
    assert again.drawn and again.events[-1] == match.events[-1]


def test_a_leader_at_the_deadline_wins_and_is_no_draw() -> None:
    match = random_match(Match(rules=TIMED, seed=4), random.Random(4), max_rounds=1)
    assert match.levels[0] != match.levels[1]  # one round played: one side went up
    match.apply(TimeUp())
    assert match.over and not match.drawn and match.winner == max((0, 1), key=lambda t: match.levels[t])
    assert not match.view(None)["draw"]


def test_a_record_naming_team_0_for_a_tie_loads_as_a_draw() -> None:
    """Records saved before draws existed named team 0 for a tie nobody reached first; they still
    load, and the match is then a draw."""
    match = Match(rules=TIMED, seed=7)
    match.apply(TimeUp())
    record = to_record(match)
    assert record["events"][-1] == {"e": "match_ended", "winner": None, "levels": [0, 0]}
    record["events"][-1]["winner"] = 0  # as the engine wrote it before
    old = from_record(json.loads(json.dumps(record)))
    assert old.over and old.drawn
    record["events"][-1]["levels"] = [1, 0]  # a record whose levels disagree is still refused
    try:
        from_record(record)
    except Exception as exc:
        assert "match_ended" in str(exc)
    else:
        raise AssertionError("a damaged match_ended was accepted")


def test_a_refused_action_after_a_draw_leaves_the_match_over() -> None:
    match = Match(rules=TIMED, seed=7)
    match.apply(TimeUp())
    events = list(match.events)
    try:
        match.apply(Deal())
    except Exception as exc:
        assert getattr(exc, "code", None) == "match_over"
    assert match.over and match.drawn and match.events == events
