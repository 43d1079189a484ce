"""Whole random matches (issue 2, item 7), every action checked: fresh seeds on a time budget
each run (tests/random_budget.py); the 1,000-match sweep is benchmarks/sweep_random_matches.py.

The random players (tests/playthrough.py) declare, override, reinforce, bury at random, attempt
throws and follow at random; every action goes through the checked engine, so a random legal
action the engine refuses fails the test. After each match the rules of every round are
re-checked from the outside: cards, points, kitty, level table, next dealer, match end.
"""

from __future__ import annotations

import random

import pytest

from playthrough import cards_in_round, full_deck, play_match, points_of
from random_budget import budget, run_seeds
from tuolaji.bots.driver import Table
from tuolaji.bots.random_bot import RandomBot
from tuolaji.engine.events import Declared, TrumpFixed
from tuolaji.engine.match import Match, MatchEnded, RoundStarted
from tuolaji.engine.round import Round
from tuolaji.record import dumps, loads
from tuolaji.scoring import kitty_multiplier, level_change

CHUNKS = 4  # spread over pytest-xdist workers
BUDGET = 8.0  # seconds per chunk: about 200 matches on an idle core (678 in 25 s in session 16), fresh seeds (random_budget.py)


def check_round(rnd: Round, first: bool) -> None:
    """The rules of RULES.md §1, §5–§8 on a finished round, from the outside."""
    deck = full_deck(rnd.rules.decks)
    assert cards_in_round(rnd) == deck
    events = rnd.events
    fixed = [e for e in events if isinstance(e, TrumpFixed)]
    declared = [e for e in events if isinstance(e, Declared)]
    if rnd.redeal:
        assert first and not declared and rnd.result is None
        return
    assert len(fixed) == 1 and rnd.dealer is not None
    if declared:
        assert fixed[0].trump == declared[-1].trump and fixed[0].source == "declared"
        if first:
            assert rnd.dealer == declared[0].seat, "first round: the first declarer deals (抢庄)"
    else:
        kitty = rnd.deck[rnd.players * rnd.hand_size :]
        suit = next((c // 13 for c in kitty if c < 52), None)
        assert fixed[0].trump == suit, "no declaration: the suit of the kitty's first non-joker card"
    res = rnd.result
    assert res is not None
    hand_size = rnd.rules.hand_size_value
    assert sum(len(t.plays[0]) for t in rnd.tricks) == hand_size
    assert all(len(t.plays) == rnd.players and len({len(p) for p in t.plays}) == 1 for t in rnd.tricks)
    assert sum(t.points for t in rnd.tricks) + points_of(rnd.kitty) == 100 * rnd.rules.decks
    attackers = {s for s in range(rnd.players) if s % 2 != rnd.dealer % 2}
    assert res.trick_points == sum(t.points for t in rnd.tricks if t.winner in attackers)
    for prev, nxt in zip(rnd.tricks, rnd.tricks[1:], strict=False):
        assert nxt.leader == prev.winner, "the trick's winner leads the next trick"
    assert rnd.tricks[0].leader == rnd.dealer, "the dealer leads the first trick"
    last = rnd.tricks[-1]
    assert res.kitty_captured == (last.winner in attackers)
    mult = kitty_multiplier(last.lead_comps or [], rnd.rules.kitty_multiplier) if res.kitty_captured else 0
    assert res.multiplier == mult
    assert res.attacker_points == res.trick_points + res.kitty_points * res.multiplier
    assert (res.team, res.levels) == level_change(res.attacker_points, rnd.rules)
    expected_next = (rnd.dealer + 2) % 4 if res.team == "dealer" else (rnd.dealer + 1) % 4
    assert res.next_dealer == expected_next, "dealer's team stays: partner deals; else the next seat"


def check_match(match: Match) -> None:
    assert match.over and match.winner is not None
    levels = [0, 0]
    dealer: int | None = None
    starts = [e for e in match.events if isinstance(e, RoundStarted)]
    assert len(starts) == len(match.rounds)
    first = True
    for start, rnd in zip(starts, match.rounds, strict=True):
        assert list(start.levels) == levels and start.dealer == dealer
        assert rnd.level == min(levels[dealer % 2] if dealer is not None else levels[0], 12) + 2
        check_round(rnd, first)
        if rnd.result is None:
            continue
        first = False
        assert rnd.dealer is not None
        team = rnd.dealer % 2 if rnd.result.team == "dealer" else 1 - rnd.dealer % 2
        levels[team] += rnd.result.levels
        dealer = rnd.result.next_dealer
    assert levels == match.levels
    assert match.levels[match.winner] > 12, "a team that goes past A wins"
    assert match.levels[1 - match.winner] <= 12
    assert isinstance(match.events[-1], MatchEnded) and match.events[-1].winner == match.winner


def play_and_check(seed: int) -> None:
    check_match(play_match(seed))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_matches(chunk: int) -> None:
    run_seeds(f"random matches, chunk {chunk}", play_and_check, seconds=budget(BUDGET))


def test_fixed_seed_random_matches() -> None:
    """A few matches from fixed seeds, so every run also repeats known games."""
    for seed in range(3):
        play_and_check(seed)


def test_seed_determinism() -> None:
    """Same seed and same actions: the identical record; a different seed deals differently."""
    for seed in (0, 7, 2**40 + 3):
        a, b = play_match(seed), play_match(seed)
        assert dumps(a) == dumps(b)
        assert Match(seed=seed).deals == Match(seed=seed).deals
        assert Match(seed=seed).deals != Match(seed=seed + 1).deals
        assert dumps(loads(dumps(a))) == dumps(a)


def test_seeded_deals_depend_only_on_the_seed() -> None:
    """The deal of every round comes from the seed alone, whatever was played before."""
    a, b = play_match(5), play_match(5, throw_p=0.0, multi_p=0.0)
    n = min(len(a.deals), len(b.deals))
    assert n > 1 and a.deals[:n] == b.deals[:n]


def test_table_with_random_bots_plays_whole_matches() -> None:
    """The bots' driver (tuolaji.bots.driver.Table) with RandomBot: whole matches, no refusals."""
    for seed in range(3):
        match = Match(seed=seed)
        table = Table(match, [RandomBot(seed * 10 + i) for i in range(4)], seed=seed)
        table.play_match()
        check_match(match)
        assert table.illegal == [0, 0, 0, 0]


def test_copy_is_independent() -> None:
    """A copy plays on without touching the original (the cheap copy for search)."""
    match = play_match(3, max_rounds=1)
    before = dumps(match)
    other = match.copy()
    rng = random.Random(1)
    from playthrough import step

    for _ in range(300):
        if other.over:
            break
        step(other, rng)
    assert dumps(match) == before
