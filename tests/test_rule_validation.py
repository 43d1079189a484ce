"""Every rule set that validates plays, bad settings are refused by name, and an action that
raises leaves the match exactly as it was (issue 15, item 10)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tuolaji.engine.actions import Deal, Pass
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase
from tuolaji.engine.simulate import random_action, random_match
from tuolaji.judge import handle
from tuolaji.record import dumps
from tuolaji.ruleset import (
    DeclareStyle,
    FirstRoundDealer,
    FriendCall,
    JRule,
    KittyMultiplier,
    MatchEnd,
    NoDeclaration,
    Partnership,
    RuleSet,
    RuleSetError,
    ScoringTable,
    ThrowPenalty,
)


@pytest.mark.parametrize(
    "settings_, word",
    [
        ({"must_defend": "5"}, "must_defend"),
        ({"must_defend": "10"}, "must_defend"),
        ({"must_defend": [5]}, "must_defend"),
        ({"start_level": 2}, "start_level"),
        ({"name": 7}, "'name' must be text"),
        ({"name": ["classic"]}, "'name' must be text"),
        ({"description": {"a": 1}}, "'description' must be text"),
        ({"name": "x" * 61}, "too long"),
        ({"description": "x" * 1001}, "too long"),
        ({"name": "a\udfffb"}, "not allowed"),
        ({"name": "line\nbreak"}, "not allowed"),
        ({"description": "bell\x07"}, "not allowed"),
        ({"scale_with_decks": "yes"}, "scale_with_decks"),
        ({"jokers_declare_first": 0}, "jokers_declare_first"),
    ],
)
def test_wrong_types_are_refused_by_name(settings_: dict[str, Any], word: str) -> None:
    with pytest.raises(RuleSetError, match=word):
        RuleSet.from_dict(settings_)


def test_the_judge_refuses_bad_rules_with_the_reason() -> None:
    got = handle({"id": 1, "op": "level_change", "level": "2", "points": 0, "rules": {"must_defend": "5"}})
    assert "must_defend" in got["error"]
    got = handle({"id": 2, "op": "level_change", "level": "2", "points": 0, "rules": {"name": "\ud800"}})
    assert "'name'" in got["error"]


def test_good_text_and_levels_still_load() -> None:
    rules = RuleSet.from_dict({"name": "家里的规则 ♠", "description": "x" * 1000, "must_defend": ["5", "10"]})
    assert rules.must_defend == ("5", "10") and rules.name == "家里的规则 ♠"


def test_kitty_size_zero_plays_a_round_nobody_declares() -> None:
    """kitty_size 0 validates, so it plays: with no declaration and no kitty, the round is no-trump."""
    for fallback in (NoDeclaration.KITTY_FIRST, NoDeclaration.KITTY_THIRD):
        rules = RuleSet(kitty_size=0, first_round_no_declaration=fallback)
        assert rules.hand_size_value == 27
        match = Match(rules=rules, seed=3)
        while match.round.phase == Phase.DEAL:
            match.apply(Deal())
        for seat in range(4):
            match.apply(Pass(seat))
        assert match.round.phase == Phase.BURY and match.round.trump is None
        random_match(match, random.Random(3), max_rounds=3)
        assert len(match.rounds) == 3 and all(r.result is not None for r in match.rounds)


def _settings() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "decks": st.integers(1, 4),
            "players": st.integers(4, 8),  # 5 and 7: find-a-friend only
            "kitty_size": st.one_of(st.none(), st.integers(0, 12)),
            "declare_style": st.sampled_from(list(DeclareStyle)),
            "jokers_declare_first": st.booleans(),
            "suit_order_overrides": st.booleans(),
            "self_override": st.booleans(),
            "pair_locks": st.booleans(),
            "override_after_bury": st.booleans(),
            "first_round_dealer": st.sampled_from(list(FirstRoundDealer)),
            "no_declaration": st.sampled_from(list(NoDeclaration)),
            "first_round_no_declaration": st.sampled_from(list(NoDeclaration)),
            "redeal_request": st.booleans(),
            "redeal_no_trump": st.booleans(),
            "surrender": st.booleans(),
            "j_rule": st.sampled_from(list(JRule)),
            "friend_call": st.sampled_from(list(FriendCall)),
            "friends": st.one_of(st.none(), st.integers(1, 3)),
            "notrump_level_tractor": st.booleans(),
            "throw_penalty": st.sampled_from(list(ThrowPenalty)),
            "kitty_multiplier": st.sampled_from(list(KittyMultiplier)),
            "scoring_table": st.sampled_from(list(ScoringTable)),
            "scale_with_decks": st.booleans(),
            "level_cap": st.one_of(st.none(), st.integers(0, 6)),
            "match_end": st.sampled_from([MatchEnd.PASS_ACE, MatchEnd.WRAP]),
            "must_defend": st.lists(st.sampled_from(["5", "10", "K", "A"]), max_size=2),
            "start_level": st.sampled_from(["2", "9", "J", "A"]),
            "partnership": st.sampled_from(list(Partnership)),
        }
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_settings(), seed=st.integers(0, 2**32))
def test_every_rule_set_that_validates_plays(data: dict[str, Any], seed: int) -> None:
    try:
        rules = RuleSet.from_dict(data)
    except RuleSetError:
        return
    match = random_match(Match(rules=rules, seed=seed), random.Random(seed), max_rounds=3)
    assert match.over or len(match.rounds) == 3


def test_an_action_that_raises_leaves_the_match_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while starting the next round undoes the whole action: levels, events, rounds."""
    match = Match(rules="classic", seed=11)
    rng = random.Random(11)
    while True:  # play up to the last card of the first scored round
        action = random_action(match.round, rng)
        trial = match.copy()
        trial.apply(action)
        if trial.rounds and trial.rounds[-1].result is not None:
            break
        match.apply(action)
    before = dumps(match)
    rnd, levels, dealer = match.round, list(match.levels), match.dealer

    def broken(self: Match) -> None:
        raise RuntimeError("cannot start the next round")

    monkeypatch.setattr(Match, "_new_round", broken)
    with pytest.raises(RuntimeError):
        match.apply(action)
    assert dumps(match) == before
    assert match.round is rnd and match.levels == levels and match.dealer == dealer and not match.rounds
    monkeypatch.undo()
    match.apply(action)  # and the same action then plays on
    assert match.rounds and match.rounds[-1].result is not None


@pytest.mark.parametrize("rules", ["classic", "bianfeng-friend"])
def test_a_round_that_raises_half_way_through_an_action_is_put_back(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A defect that raises after the round has changed (a trick already taken, its points
    counted, a card dealt) leaves the round and the match as they were, for whoever holds them."""
    from tuolaji.engine.round import Round

    end_trick, deal = Round._end_trick, Round._deal
    armed = [False]  # a defect of this one action (rebuilding the round replays the earlier ones)

    def broken_end_trick(self: Round, *args: Any) -> None:
        end_trick(self, *args)
        if armed[0]:
            armed[0] = False
            raise RuntimeError("defect after the trick was taken")

    def broken_deal(self: Round) -> None:
        deal(self)
        if armed[0]:
            armed[0] = False
            raise RuntimeError("defect after the card was dealt")

    match = Match(rules=rules, seed=5)
    rng = random.Random(5)
    failures = 0
    while len(match.rounds) < 2 and not match.over:
        action = random_action(match.round, rng)
        rnd = match.round
        before = dumps(match), [match.view(s) for s in range(rnd.players)], rnd.phase, rnd.turn
        with monkeypatch.context() as patch:
            patch.setattr(Round, "_end_trick", broken_end_trick)
            patch.setattr(Round, "_deal", broken_deal)
            armed[0] = True
            try:
                match.apply(action)
            except RuntimeError:
                failures += 1
                assert match.round is rnd
                assert (dumps(match), [match.view(s) for s in range(rnd.players)], rnd.phase, rnd.turn) == before
            else:
                continue
        match.apply(action)  # the same action then plays on
    assert failures > 100
