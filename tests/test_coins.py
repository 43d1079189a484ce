"""Coins (底金): a round's coins from its result, purses kept with the match and its record.

The per-round rule is traced to the seeds in tests/scenarios/coins.json (judge op ``coins``);
these tests check the engine counts them in play, keeps purses across save and restore, and
the choices where the seeds are silent (docs/settings.md, "Coins").
"""

from __future__ import annotations

import json
import random

import pytest

from test_variants import dealt_round, parse_card_tuple, pass_all_declare
from tuolaji.cards import parse_cards
from tuolaji.engine.actions import Bury, Declare, Play
from tuolaji.engine.legal import random_play
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase
from tuolaji.engine.simulate import random_match
from tuolaji.record import dumps, loads, to_record
from tuolaji.ruleset import PRESETS, RuleSet, RuleSetError
from tuolaji.scoring import round_coins


def test_a_failed_throw_costs_half_the_stake_in_play() -> None:
    """Seed 004: 若玩家甩牌失败，则强制性出导致甩牌失败牌型中的最小牌并扣除当前房间底金的1/2。"""
    rules = RuleSet(stake=100, throw_penalty="stake")
    rnd = dealt_round(rules, ["H2 SA SK", "SA", "", ""], dealer=0)
    rnd.apply(Declare(0, parse_card_tuple("H2")))
    pass_all_declare(rnd)
    keep = set(parse_cards("H2 SA SK"))
    rnd.apply(Bury(0, tuple([c for c in rnd.hands[0] if c not in keep][:8])))
    rnd.apply(Play(0, parse_card_tuple("SA SK")))  # seat 1 holds S A: the throw fails
    rng = random.Random(1)
    while rnd.phase == Phase.PLAY:
        assert rnd.turn is not None
        rnd.apply(Play(rnd.turn, random_play(rnd, rnd.turn, rng)))
    result = rnd.result
    assert result is not None and result.failed_throws == (1, 0, 0, 0) and result.penalty_points == 0
    worth = 100 * max(result.levels, 1)
    winners = {0, 2} if result.team == "dealer" else {1, 3}
    assert result.coins == tuple((worth if s in winners else -worth) - (50 if s == 0 else 0) for s in range(4))
    assert result.to_dict()["coins"] == list(result.coins)


def test_purses_add_up_the_rounds_and_survive_the_record() -> None:
    rules = PRESETS["bianfeng-fixed"]
    assert rules.stake == 100
    match = random_match(Match(rules=rules, seed=11), random.Random(11), max_rounds=6)
    results = [r.result for r in match.rounds if r.result is not None]
    assert results and all(len(r.coins) == 4 for r in results)
    for r in results:  # a round's coins add up to zero, less half a stake per failed throw
        assert sum(r.coins) == -50 * sum(r.failed_throws)
    assert match.purses == [sum(r.coins[s] for r in results) for s in range(4)]
    assert any(match.purses)
    again = loads(dumps(match))
    assert again.purses == match.purses
    record = to_record(match)
    ended = [e for e in record["events"] if e["e"] == "round_ended"]
    assert [e["coins"] for e in ended] == [list(r.coins) for r in results]
    # a record whose coins were changed is refused: the engine counts them again on loading
    ended[0]["coins"] = [c + 1 for c in ended[0]["coins"]]
    with pytest.raises(ValueError, match="round_ended"):
        loads(json.dumps(record))


def test_a_copy_and_an_undone_action_keep_their_own_purses() -> None:
    match = random_match(Match(rules=RuleSet(stake=10), seed=3), random.Random(3), max_rounds=1)
    purses = list(match.purses)
    copy = random_match(match.copy(), random.Random(4), max_rounds=4)
    assert copy.purses != purses and match.purses == purses
    saved = match._save()  # what Match.apply restores when an action raises
    match.purses[0] += 5
    match._restore(saved)
    assert match.purses == purses


def test_without_a_stake_nothing_is_counted_and_records_stay_as_they_were() -> None:
    match = random_match(Match(seed=5), random.Random(5), max_rounds=2)
    assert match.purses == [0, 0, 0, 0]
    assert all("coins" not in e for e in to_record(match)["events"])


def test_find_a_friend_sides_of_unequal_size_share_the_same_total() -> None:
    """docs/settings.md: each player of the larger side wins or pays the round's worth and the
    smaller side shares the same total, odd coins to the lowest seats."""
    rules = RuleSet(stake=100, partnership="find_friend")
    # the dealer alone against three, winning one level: three stakes to the dealer
    assert round_coins(rules, dealer_side=(0,), team="dealer", levels=1, overrides=0, failed_throws=(0, 0, 0, 0)) == (
        300,
        -100,
        -100,
        -100,
    )
    six = RuleSet(stake=100, partnership="find_friend", players=6)
    assert round_coins(six, dealer_side=(0, 3), team="attackers", levels=2, overrides=0, failed_throws=(0,) * 6) == (
        -400,
        200,
        200,
        -400,
        200,
        200,
    )
    eight = RuleSet(stake=100, partnership="find_friend", players=8)
    got = round_coins(eight, dealer_side=(0, 2, 5), team="dealer", levels=1, overrides=0, failed_throws=(0,) * 8)
    assert got == (167, -100, 167, -100, -100, 166, -100, -100) and sum(got) == 0


def test_stake_is_checked() -> None:
    with pytest.raises(RuleSetError, match="stake"):
        RuleSet(stake=-1)
    with pytest.raises(RuleSetError, match="stake"):
        RuleSet(stake=10**9)
    with pytest.raises(RuleSetError, match="stake"):
        RuleSet.from_dict({"stake": "100"})
