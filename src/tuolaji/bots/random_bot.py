"""A bot that picks uniformly among a simple family of legal actions."""

from __future__ import annotations

import random

from ..engine.legal import random_legal_play
from ..engine.observation import Observation
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
    trick = obs.trick
    lead = trick.plays[0] if trick is not None and trick.plays else None
    return random_legal_play(obs.hand, lead, obs.ctx, rng)
