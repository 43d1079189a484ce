"""Find-a-friend for 4 to 8 players with several friends (issue 11 item 10d, a table rule stated in
docs/settings.md "Several friends"; the step-by-step scenarios are
tests/variant_scenarios/several_friends.json, run by tests/test_table_rules.py)."""

from __future__ import annotations

import random

import pytest

from playthrough import cards_in_round, full_deck
from random_budget import budget, run_seeds
from test_bots import FAST_SEARCH, play_to
from tuolaji.bots.determinize import build_round
from tuolaji.bots.driver import Table
from tuolaji.bots.external import observation_to_dict
from tuolaji.bots.registry import make_bot
from tuolaji.bots.rollout import rollout
from tuolaji.engine.events import FriendCalled, FriendRevealed
from tuolaji.engine.match import Match
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase, Round
from tuolaji.engine.simulate import random_match
from tuolaji.record import dumps, loads
from tuolaji.ruleset import RuleSet, RuleSetError, RulesProblem
from tuolaji.sim.runner import duplicate_deck


def friends_rules(players: int, **kw: object) -> RuleSet:
    return RuleSet(players=players, partnership="find_friend", **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- settings
def test_odd_players_need_find_a_friend() -> None:
    with pytest.raises(RuleSetError) as err:
        RuleSet(players=5)
    assert err.value.problem == RulesProblem.PLAYERS_NEED_FRIENDS
    assert "找朋友" in err.value.message("zh")
    for players in (3, 9):
        with pytest.raises(RuleSetError) as err:
            friends_rules(players)
        assert err.value.problem == RulesProblem.OUT_OF_RANGE
    assert friends_rules(5).players == 5 and friends_rules(7).players == 7


def test_every_player_count_and_deck_count_deals_equal_hands() -> None:
    """docs/settings.md "Deal sizes": the derived kitty leaves equal hands for 4-8 players."""
    shown = {(5, 2): (20, 8), (6, 2): (17, 6), (7, 2): (14, 10), (8, 2): (12, 12), (5, 3): (30, 12), (7, 3): (22, 8)}
    for players in range(4, 9):
        for decks in range(1, 5):
            rules = friends_rules(players, decks=decks)
            assert rules.hand_size_value * players + rules.kitty_size_value == 54 * decks
            assert 4 <= rules.kitty_size_value <= 12
            if (players, decks) in shown:
                assert (rules.hand_size_value, rules.kitty_size_value) == shown[(players, decks)]


def test_a_kitty_that_leaves_unequal_hands_names_the_sizes_that_work() -> None:
    with pytest.raises(RuleSetError) as err:
        friends_rules(5, kitty_size=7)
    assert err.value.problem == RulesProblem.KITTY_UNEVEN
    assert "3, 8" in str(err.value) and "8" in err.value.message("zh") and "底牌" in err.value.message("zh")
    assert friends_rules(5, kitty_size=13 - 10).hand_size_value == 21


def test_friends_default_per_player_count_and_range() -> None:
    assert [friends_rules(p).friends_value for p in range(4, 9)] == [1, 1, 2, 2, 3]
    assert friends_rules(5, friends=2).friends_value == 2
    for players, bad in ((4, 2), (6, 3), (8, 4), (5, 0)):
        with pytest.raises(RuleSetError) as err:
            friends_rules(players, friends=bad)
        assert err.value.problem == RulesProblem.OUT_OF_RANGE and "friends" in str(err.value)
    with pytest.raises(RuleSetError):
        friends_rules(6, friends="2")


# ---------------------------------------------------------------- random matches, every player count
MATCH_BUDGET = 3.0  # seconds per player count (tests/random_budget.py)


def check_friend_round(rnd: Round) -> None:
    """The several-friends rules from the outside on a finished round."""
    res = rnd.result
    assert res is not None and rnd.dealer is not None
    if res.surrendered is None:  # (a surrender leaves a trick unfinished)
        assert cards_in_round(rnd) == full_deck(rnd.rules.decks)
    calls = [e for e in rnd.events if isinstance(e, FriendCalled)]
    shown = [e for e in rnd.events if isinstance(e, FriendRevealed)]
    assert len(calls) == rnd.rules.friends_value
    assert len({(e.card, e.nth) for e in calls}) == len(calls), "no call twice"
    assert len({e.call for e in shown}) == len(shown) <= len(calls)
    side = res.dealer_side
    assert side[0] == rnd.dealer and len(set(side)) == len(side) <= 1 + len(calls)
    assert {e.seat for e in shown if e.seat is not None} <= set(side)
    if res.surrendered is None:
        attackers = [s for s in range(rnd.players) if s not in side]
        assert res.trick_points == sum(t.points for t in rnd.tricks if t.winner in attackers)
    if res.team == "attackers":
        after = [(rnd.dealer + k) % rnd.players for k in range(1, rnd.players)]
        assert res.next_dealer == next(s for s in after if s not in side)
    else:
        assert res.next_dealer == (side[1] if len(side) > 1 else rnd.dealer)


@pytest.mark.parametrize("players", range(4, 9))
def test_random_matches_with_several_friends(players: int) -> None:
    """Random matches (checked actions) of every player count, both kinds of call, 2-3 decks:
    cards and points conserved, the sides as the calls turned out, levels per player, the deal
    passed by the rule, records replay."""

    def play(seed: int) -> None:
        rng = random.Random(seed)
        rules = friends_rules(
            players,
            decks=rng.choice((2, 3)),
            friend_call=rng.choice(("holder", "nth_played")),
            friends=rng.randint(1, (players - 1) // 2),
            surrender=rng.random() < 0.3,
            stake=rng.choice((0, 10)),
        )
        m = random_match(Match(rules=rules, seed=seed), rng, max_rounds=6)
        for rnd, before, after in zip(m.rounds, m_levels(m), m_levels(m)[1:], strict=False):
            if rnd.result is None:
                continue
            check_friend_round(rnd)
            res = rnd.result
            winners = set(res.dealer_side) if res.team == "dealer" else set(range(players)) - set(res.dealer_side)
            for s in range(players):
                if s not in winners:
                    assert after[s] <= before[s] or rules.match_end != "pass_ace", "only the winners climb"
            if res.coins:
                assert sum(res.coins) == 0 or any(res.failed_throws)
        assert loads(dumps(m)).levels == m.levels

    run_seeds(f"random {players}-player find-a-friend matches", play, seconds=budget(MATCH_BUDGET), minimum=3)


def m_levels(m: Match) -> list[list[int]]:
    """The levels before each round and after the last, from the RoundStarted/MatchEnded events."""
    from tuolaji.engine.match import MatchEnded, RoundStarted

    out = [list(e.levels) for e in m.events if isinstance(e, RoundStarted)]
    if m.over:
        out += [list(e.levels) for e in m.events if isinstance(e, MatchEnded)]
    else:
        out.append(list(m.levels))
    return out


# ---------------------------------------------------------------- bots
@pytest.mark.parametrize(("players", "spec"), [(5, "heuristic"), (6, "human:level=normal"), (7, FAST_SEARCH), (8, "heuristic")])
def test_bots_call_and_play_with_several_friends(players: int, spec: str) -> None:
    """Every bot kind makes the dealer's calls (all different) and plays the round legally."""
    for call in ("holder",) if spec == FAST_SEARCH else ("holder", "nth_played"):
        rules = friends_rules(players, friend_call=call)
        deck, level, dealer = duplicate_deck(rules, 11, players)
        rnd = play_to(Round(rules=rules, deck=deck, level=level, dealer=dealer), [make_bot(spec, seed=k) for k in range(players)])
        check_friend_round(rnd)


def test_a_bot_match_of_seven_plays_through() -> None:
    rules = friends_rules(7, decks=3, match_rounds=3, match_end="fixed_rounds")
    match = Match(rules=rules, seed=4)
    table = Table(match, [make_bot("heuristic", seed=k) for k in range(7)])
    steps = 0
    while not match.over and steps < 20_000:
        table.step()
        steps += 1
    assert match.over and table.illegal == [0] * 7
    assert len(match.levels) == 7 and max(match.levels) > 0


@pytest.mark.parametrize("call", ["holder", "nth_played"])
def test_built_round_with_the_true_hands_keeps_every_call(call: str) -> None:
    """Search's rebuilt round (true hands) plays out like the real one with several friends,
    whichever calls have shown: same sides, same score."""
    rules = friends_rules(6, friend_call=call)
    partly_shown = 0
    for i in range(4):
        deck, level, dealer = duplicate_deck(rules, 5, i)
        for tricks in (1, 3, 6):
            rnd = play_to(
                Round(rules=rules, deck=deck, level=level, dealer=dealer),
                [make_bot("heuristic", seed=k) for k in range(6)],
                tricks=tricks,
            )
            if rnd.phase != Phase.PLAY:
                continue
            partly_shown += any(rnd.call_shown) and not all(rnd.call_shown)
            for seat in range(rnd.players):
                built = build_round(observe(rnd, seat), [list(h) for h in rnd.hands], list(rnd.kitty))
                assert built.dealer_side() == rnd.dealer_side() or call == "nth_played"
                real = rnd.copy()
                rollout(real, random.Random(i))
                rollout(built, random.Random(i))
                assert real.result is not None and built.result is not None
                assert (real.result.attacker_points, real.result.dealer_side) == (
                    built.result.attacker_points,
                    built.result.dealer_side,
                )
    assert partly_shown > 0


# ---------------------------------------------------------------- what each seat sees
def test_hidden_friends_stay_hidden_and_the_protocol_carries_the_calls() -> None:
    rules = friends_rules(6)
    deck, level, dealer = duplicate_deck(rules, 3, 1)
    rnd = play_to(
        Round(rules=rules, deck=deck, level=level, dealer=dealer), [make_bot("heuristic", seed=k) for k in range(6)], tricks=0
    )
    assert rnd.phase == Phase.PLAY and len(rnd.friend_calls) == 2
    hidden = [s for s, shown in zip(rnd.call_seats, rnd.call_shown, strict=True) if s is not None and not shown]
    assert hidden, "the calls found friends who have not played the card yet"
    for seat in range(6):
        obs = observe(rnd, seat)
        assert obs.friend_calls == tuple(rnd.friend_calls)
        assert all(s is None for s, shown in zip(obs.friend_seats, obs.calls_shown, strict=True) if not shown)
        sent = observation_to_dict(obs)
        assert sent["friends"] == 2 and [c["seat"] for c in sent["friend_calls"]] == [None, None]
        assert all(s not in obs.known_dealer_side for s in hidden)


def test_the_judge_takes_seven_players_with_three_friends() -> None:
    """The judge's coins for a 7-player round: a dealer's side of 3 (a call found nobody) beats 4
    attackers; the coins still add up to zero."""
    from tuolaji.judge import handle

    rules = {"preset": "bianfeng-friend", "players": 7, "decks": 3, "friends": 3}
    got = handle({"id": 1, "op": "coins", "rules": rules, "points": 0, "dealer_side": [2, 4, 6], "level": "2"})
    assert got["team"] == "dealer" and got["levels"] == 3 and sum(got["coins"]) == 0
    assert [got["coins"][s] > 0 for s in range(7)] == [False, False, True, False, True, False, True]
    bad = handle({"id": 2, "op": "level_change", "rules": {"players": 7}, "points": 80, "level": "2"})
    assert "players" in bad["error"] and "find_friend" in bad["error"]
