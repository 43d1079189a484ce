"""Random play through the checked engine, for the property, match and record tests.

The random players here try everything the default rules allow: declarations during the deal
and at the last call (overrides and reinforcements included), any bury, single-combination
leads, throw attempts (any subset of one suit, so throws that fail too) and legal follows.
Every action goes through ``Match.apply``, so a random play the engine refuses is an error.
"""

from __future__ import annotations

import random
from collections import Counter

from tuolaji.cards import POINTS, new_deck
from tuolaji.declaring import options
from tuolaji.engine.actions import Action, Bury, Deal, Declare, Pass, Play
from tuolaji.engine.legal import lead_combos, random_play
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase, Round


def random_lead(rnd: Round, seat: int, rng: random.Random, throw_p: float, multi_p: float) -> tuple[int, ...]:
    """A throw attempt (any subset of one suit) with ``throw_p``, a pair or tractor with ``multi_p``."""
    assert rnd.ctx is not None
    hand = rnd.hands[seat]
    if rng.random() < throw_p:
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            by_suit.setdefault(rnd.ctx.eff[c], []).append(c)
        suit = rng.choice(sorted(by_suit.values(), key=len))
        if len(suit) >= 2:
            return tuple(rng.sample(suit, rng.randint(2, min(len(suit), 8))))
    if rng.random() < multi_p:
        multi = [c for c in lead_combos(hand, rnd.ctx) if len(c) > 1]
        if multi:
            return rng.choice(multi)
    return random_play(rnd, seat, rng)


def random_action(
    rnd: Round, rng: random.Random, *, throw_p: float = 0.15, multi_p: float = 0.3, declare_p: float = 0.04
) -> Action:
    """A random action the engine must accept, for whoever acts now."""
    phase = rnd.phase
    if phase == Phase.DEAL:
        if rnd.dealt and rng.random() < declare_p:
            seat = rng.randrange(rnd.players)
            opts = options(seat, rnd.hands[seat], rnd.level, rnd.bid, rnd.rules)
            if opts:
                return Declare(seat, rng.choice(opts))
        return Deal()
    seat = rnd.turn
    assert seat is not None
    if phase in (Phase.DECLARE, Phase.OVERRIDE):
        if rng.random() < 0.3:
            opts = options(seat, rnd.hands[seat], rnd.level, rnd.bid, rnd.rules, pairs_only=phase == Phase.OVERRIDE)
            if opts:
                return Declare(seat, rng.choice(opts))
        return Pass(seat)
    if phase == Phase.BURY:
        return Bury(seat, tuple(rng.sample(rnd.hands[seat], rnd.kitty_size)))
    if phase == Phase.PLAY:
        if rnd.trick is not None and not rnd.trick.plays:
            return Play(seat, random_lead(rnd, seat, rng, throw_p, multi_p))
        return Play(seat, random_play(rnd, seat, rng))
    raise AssertionError(f"no random action in phase {phase}")


def step(match: Match, rng: random.Random, **kw: float) -> Action:
    action = random_action(match.round, rng, **kw)
    match.apply(action)
    return action


def play_match(seed: int, *, max_rounds: int = 400, **kw: float) -> Match:
    rng = random.Random(seed)
    match = Match(seed=seed)
    while not match.over and len(match.rounds) < max_rounds:
        step(match, rng, **kw)
    return match


def play_to(seed: int, actions: int, **kw: float) -> tuple[Match, random.Random]:
    """A match after ``actions`` random actions (or at its end), and the generator to go on with."""
    rng = random.Random(seed)
    match = Match(seed=seed)
    for _ in range(actions):
        if match.over:
            break
        step(match, rng, **kw)
    return match, rng


def advance_to(match: Match, rng: random.Random, phase: Phase, **kw: float) -> bool:
    """Play on until the round is in ``phase`` (False if the match ends first)."""
    while not match.over and match.round.phase != phase:
        step(match, rng, **kw)
    return not match.over


def cards_in_round(rnd: Round) -> Counter[int]:
    """Every card of the round wherever it is: hands, undealt, kitty, played."""
    total: Counter[int] = Counter()
    for hand in rnd.hands:
        total.update(hand)
    total.update(rnd.deck[rnd.dealt : rnd.players * rnd.hand_size])
    total.update(rnd.kitty)
    for trick in rnd.tricks:
        for play in trick.plays:
            total.update(play)
    if rnd.trick is not None and (not rnd.tricks or rnd.trick is not rnd.tricks[-1]):
        for play in rnd.trick.plays:
            total.update(play)
    return total


def full_deck(decks: int) -> Counter[int]:
    return Counter(new_deck(decks))


def points_of(cards: object) -> int:
    return sum(POINTS[c] for c in cards)  # type: ignore[attr-defined]
