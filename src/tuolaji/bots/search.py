"""The search bot: determinized Monte-Carlo over sampled deals (perfect-information rollouts).

For each play decision it keeps the heuristic's best few candidates, then repeatedly samples
the hidden hands consistently with public play (:mod:`.determinize`), plays every candidate
in that same sample to the end with the fast rollout policy, and picks the candidate with
the best average outcome in levels. Using one sample for all candidates (common random
numbers) makes the comparison much less noisy than separate samples would.

Budget: ``iterations`` samples at most, and ``time`` seconds at most (checked between
samples, with the next sample's expected cost, so one decision stays near the limit).
Declaring and burying use the heuristic.
"""

from __future__ import annotations

import random
import time as _time

from ..engine.actions import Play
from ..engine.observation import Observation
from .base import Bot
from .determinize import build_round, sample_hidden
from .heuristic import heuristic_bury, heuristic_declaration, scored_plays
from .memory import remember
from .registry import register
from .rollout import POLICIES, rollout, value

DEFAULT_ITERATIONS = 40
DEFAULT_TIME = 0.8  # seconds; the p95 target is 1 s on one core


class SearchBot(Bot):
    name = "search"

    def __init__(self, seed: int | None = None, *, iterations: int = DEFAULT_ITERATIONS, time: float = DEFAULT_TIME,
                 candidates: int = 6, margin: float = 0.0, policy: str = "greedy") -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time = time
        self.candidates = candidates
        self.margin = margin  # how much better than the heuristic's pick a candidate must average
        self.last_iterations = 0
        self.policy = POLICIES[policy]

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        return heuristic_declaration(obs)

    def bury(self, obs: Observation) -> tuple[int, ...]:
        return heuristic_bury(obs.hand, obs.ctx, obs.kitty_size)

    def play(self, obs: Observation) -> tuple[int, ...]:
        mem = remember(obs)
        scored = sorted(scored_plays(obs, mem), key=lambda x: -x[0])
        cands = [p for _, p in scored[: self.candidates]]
        self.last_iterations = 0
        if len(cands) == 1 or self.iterations <= 0:
            return cands[0]
        totals = [0.0] * len(cands)
        start = _time.perf_counter()
        done = 0
        while done < self.iterations:
            hands, kitty = sample_hidden(obs, mem, self.rng)
            base = build_round(obs, hands, kitty)
            seed = self.rng.getrandbits(32)
            for i, cand in enumerate(cands):
                rnd = base.copy()
                rnd.apply_unchecked(Play(obs.seat, cand))
                rollout(rnd, random.Random(seed), self.policy)
                totals[i] += value(rnd, obs.seat)
            done += 1
            spent = _time.perf_counter() - start
            if spent + spent / done > self.time:
                break
        self.last_iterations = done
        best = max(range(len(cands)), key=lambda i: (totals[i] - (self.margin * done if i else 0.0), -i))
        return cands[best]


register("search", lambda seed, **kw: SearchBot(seed, **kw))

__all__ = ["SearchBot", "DEFAULT_ITERATIONS", "DEFAULT_TIME"]
