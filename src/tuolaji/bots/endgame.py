"""The last few tricks solved exactly in each sampled deal (perfect information, alpha-beta).

With only a few cards left in every hand the whole rest of the round is a small game tree:
each seat's side maximizes its own outcome (the attackers' final total, the kitty and its
multiplier included, on the search's level scale), so a sampled deal has an exact value for
each of this seat's plays. The search bot averages those values over the sampled deals and
plays the best, which is what "plan for the last trick" means when the kitty is worth it.
"""

from __future__ import annotations

import math

from ..engine.actions import Play
from ..engine.legal import legal_plays
from ..engine.round import Phase, Round
from .rollout import value


class OutOfNodes(Exception):
    """The node budget ran out in the middle of a solve."""


def solve(rnd: Round, me: int, budget: list[int], alpha: float = -math.inf, beta: float = math.inf) -> float:
    """The exact value for ``me``'s side of ``rnd`` played to the end by every seat perfectly.

    ``budget[0]`` is the number of positions still allowed; :class:`OutOfNodes` when spent.
    """
    if rnd.phase != Phase.PLAY:
        return value(rnd, me)
    seat = rnd.turn
    assert seat is not None
    ours = rnd.is_attacker(seat) == rnd.is_attacker(me)
    best = -math.inf if ours else math.inf
    for cards in legal_plays(rnd, seat):
        budget[0] -= 1
        if budget[0] < 0:
            raise OutOfNodes
        child = rnd.copy()
        child.apply_unchecked(Play(seat, cards))
        v = solve(child, me, budget, alpha, beta)
        if ours:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


__all__ = ["solve", "OutOfNodes"]
