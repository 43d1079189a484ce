"""A bot that picks uniformly among a simple family of legal actions."""

from __future__ import annotations

import random

from ..engine.legal import lead_combos
from ..engine.observation import Observation
from ..tricks import follow_reason
from .base import Bot
from .declare import best_declaration


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None, *, declare_rate: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.declare_rate = declare_rate

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        return best_declaration(obs) if self.rng.random() < self.declare_rate else None

    def bury(self, obs: Observation) -> tuple[int, ...]:
        return tuple(self.rng.sample(list(obs.hand), obs.kitty_size))

    def play(self, obs: Observation) -> tuple[int, ...]:
        return random_legal(obs, self.rng)


def random_legal(obs: Observation, rng: random.Random) -> tuple[int, ...]:
    """A random legal play from what the seat can see (its hand and the trick so far)."""
    from ..engine.legal import _items, _structured_pick, submultisets

    hand = list(obs.hand)
    ctx = obs.ctx
    trick = obs.trick
    if trick is None or not trick.plays:
        return rng.choice(lead_combos(hand, ctx))
    lead = trick.plays[0]
    n = len(lead)
    eff = ctx.eff
    e = eff[lead[0]]
    suit = [c for c in hand if eff[c] == e]
    if len(suit) <= n:
        rest = [c for c in hand if eff[c] != e]
        return tuple(suit + rng.sample(rest, n - len(suit)))
    if n == 1:
        return (rng.choice(suit),)
    from ..combos import decompose

    comps = decompose(lead, ctx)
    play = _structured_pick(suit, comps, ctx, rng)
    if follow_reason(lead, hand, play, ctx, comps) is None:
        return play
    for cand in submultisets(_items(suit), n):
        if follow_reason(lead, hand, cand, ctx, comps) is None:
            return cand
    raise AssertionError("no legal follow found")  # pragma: no cover - a legal follow always exists
