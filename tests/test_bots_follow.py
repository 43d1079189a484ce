"""Following with a card an opponent still to play may beat: the king-or-ace choice.

The follow tactics price a winning play by its chance to hold. A flat guess (it holds 60 % of
the time whenever an opponent to come might beat it) made both the heuristic and the search's
rollouts follow with a king while holding the ace, giving the king's 10 points to the other
ace; now the chance comes from where the cards that beat it can be.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from selfplay import heuristic_plays
from tuolaji.bots.heuristic import MemoryThreats
from tuolaji.bots.memory import remember
from tuolaji.bots.rollout import tactical_play
from tuolaji.bots.tactics import HELD
from tuolaji.cards import POINTS
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Round
from tuolaji.trump import TRUMP


def _follows(deals: int) -> Iterator[Round]:
    """Every position of heuristic self-play where a seat is to follow a single-card lead."""
    for index in range(deals):
        for rnd in heuristic_plays(None, 41, index):
            if rnd.trick is not None and len(rnd.trick.plays) == 1 and len(rnd.trick.plays[0]) == 1:
                yield rnd


def _king_and_ace(rnd: Round) -> tuple[int, int, int] | None:
    """(seat, king, ace) when the seat to follow holds the led plain suit's ace and a 10-point
    card just below it, and the only card that beats that card is the other ace, held by the
    opponent still to play (the leader's partner, right after the seat)."""
    ctx = rnd.ctx
    trick = rnd.trick
    assert ctx is not None and trick is not None
    seat = rnd.turn
    assert seat is not None
    suit = ctx.eff[trick.plays[0][0]]
    if suit == TRUMP:
        return None
    hand = rnd.hands[seat]
    mine = sorted({c for c in hand if ctx.eff[c] == suit}, key=lambda c: ctx.order[c])
    if len(mine) < 2 or hand.count(mine[-1]) != 1:
        return None
    ace, king = mine[-1], mine[-2]
    if POINTS[king] != 10 or ctx.order[king] != ctx.order[ace] - 1 or hand.count(king) != 1:
        return None
    if ctx.order[trick.plays[0][0]] > ctx.order[king]:
        return None
    foe = (seat + 1) % rnd.players  # the leader's partner
    if ace not in rnd.hands[foe] or ctx.order[ace] != max(ctx.order[c] for c in hand if ctx.eff[c] == suit):
        return None
    return seat, king, ace


def test_a_rollout_player_does_not_give_its_king_to_the_ace_it_can_see() -> None:
    """Inside a sampled deal the rollout players see the hands: following with the king while
    the opponent still to play holds the other ace loses the king's 10 points (and whatever is
    on the table); the ace wins the trick for sure (a tie goes to the card played first)."""
    seen = 0
    kings = 0
    for rnd in _follows(60):
        found = _king_and_ace(rnd)
        if found is None:
            continue
        seat, king, ace = found
        seen += 1
        if tactical_play(rnd.copy(), seat, random.Random(0)) == (king,):
            kings += 1
    assert seen >= 5
    assert kings == 0


def test_the_heuristic_prices_a_king_by_where_the_ace_may_be() -> None:
    """From card memory alone: the chance that a single card holds is the chance that none of
    the unseen cards that beat it is with the opponents still to play, each unseen card being in
    a hand that may hold the suit in proportion to its size; an opponent known to hold a beating
    card (here: none) or a possible ruff falls back to the flat guess."""
    checked = 0
    for rnd in _follows(20):
        seat = rnd.turn
        assert seat is not None and rnd.ctx is not None and rnd.trick is not None
        obs = observe(rnd, seat, with_events=False)
        mem = remember(obs)
        threats = MemoryThreats(mem, obs.hand_sizes, obs.kitty_size)
        suit = rnd.ctx.eff[rnd.trick.plays[0][0]]
        if suit == TRUMP or any(suit in v for v in mem.void) or sum(threats.unseen(suit).values()) < 4:
            continue
        order = rnd.ctx.order
        last = (seat + 1) % rnd.players  # the opponent still to play
        for c in set(c for c in rnd.hands[seat] if rnd.ctx.eff[c] == suit):
            higher = sum(n for u, n in threats.unseen(suit).items() if order[u] > order[c])
            got = threats.hold_chance([last], suit, 0, 1, 1, order[c], 1)
            if not higher:
                assert got == 1.0
                continue
            holders = [s for s in range(rnd.players) if s != seat]
            share = obs.hand_sizes[last] / (sum(obs.hand_sizes[s] for s in holders) + (obs.kitty_size if mem.kitty_hidden else 0))
            assert abs(got - (1 - share) ** higher) < 1e-9
            checked += 1
        # a pair is not priced this way (the flat guess)
        assert threats.hold_chance([last], suit, 0, 2, 1, -1, 2) in (1.0, HELD)
    assert checked >= 20
