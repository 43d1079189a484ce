"""Human-like bots for the easy and normal difficulties: the heuristic's judgement, a person's slips.

A beginner does not play random cards: it plays sensible-looking cards while forgetting what
has gone, leading points into a suit an opponent has shown void, breaking pairs to follow, and
picking a near-best play rather than the best. So this bot decides like the heuristic from a
*fuzzy* memory and with a little noise:

- **forgetting cards**: each card played before the last trick is forgotten with probability
  ``forget`` (points and trumps, which people count, half as often); a forgotten card is
  believed still out, so fewer of its own cards look like sure winners;
- **forgetting voids**: each shown void and shown lack of pairs is forgotten with probability
  ``forget``, which is how points get led into a ruff;
- **breaking pairs**: with probability ``pairs``, a decision ignores what breaking a pair
  costs (a single is split off a pair to follow or to lead);
- **near-best choices**: the play is drawn with probability proportional to
  ``exp(score / temper)`` over the heuristic's scores (in points), so the slips are small
  ones far more often than big ones; ``temper=0`` always plays the best score;
- **burying** (``careless_bury``): the lowest cards, without planning a void to ruff;
- **declaring**: like the heuristic.

Every choice is still a legal play; only the judgement is blurred. Strength and latency per
difficulty are measured in docs/bots.md.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from ..cards import POINTS
from ..engine.observation import Observation
from ..trump import TRUMP
from .base import Bot
from .heuristic import bury_candidates, heuristic_bury, heuristic_declaration, scored_plays
from .memory import Memory, remember
from .registry import register
from .tactics import cost

LEVELS: dict[str, dict[str, float]] = {
    # forget: chance a card (or a void) seen before the last trick is forgotten; pairs: chance a
    # decision ignores broken pairs; temper: points of score that make a play e times less likely
    "easy": {"forget": 0.6, "pairs": 0.5, "temper": 6.0, "careless_bury": 1.0},
    "normal": {"forget": 0.25, "pairs": 0.2, "temper": 2.0, "careless_bury": 0.0},
}


class HumanBot(Bot):
    name = "human"

    def __init__(
        self,
        seed: int | None = None,
        *,
        level: str = "normal",
        forget: float | None = None,
        pairs: float | None = None,
        temper: float | None = None,
        careless_bury: float | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        base = LEVELS[level]
        self.rng = random.Random(seed)
        self.level = level
        self.forget = base["forget"] if forget is None else forget
        self.pairs = base["pairs"] if pairs is None else pairs
        self.temper = base["temper"] if temper is None else temper
        self.careless_bury = base["careless_bury"] if careless_bury is None else careless_bury

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        return heuristic_declaration(obs)

    def bury(self, obs: Observation) -> tuple[int, ...]:
        if self.rng.random() < self.careless_bury:
            return bury_candidates(obs.hand, obs.ctx, obs.kitty_size)[-1]  # the cheapest cards, no plan
        return heuristic_bury(obs.hand, obs.ctx, obs.kitty_size)

    def play(self, obs: Observation) -> tuple[int, ...]:
        mem = fuzzy_memory(obs, remember(obs), self.forget, self.rng)
        scored = scored_plays(obs, mem, keep=False)
        if self.rng.random() < self.pairs:
            scored = [(s + pair_penalty(p, obs.hand, obs), p) for s, p in scored]
        return noisy_best(scored, self.temper, self.rng)


def fuzzy_memory(obs: Observation, mem: Memory, forget: float, rng: random.Random) -> Memory:
    """``mem`` as a person who forgets might hold it: cards played before the last trick are
    forgotten (believed unseen) and shown voids and pair shortages lost, each with ``forget``
    (points and trumps half as often). Forgetting only ever adds to what is believed unseen."""
    if forget <= 0 or not obs.tricks:
        return mem
    eff = obs.ctx.eff
    unseen = Counter(mem.unseen)
    played = Counter(mem.played)
    for t in obs.tricks[:-1]:  # the last trick and the current one are still in mind
        for play in t.plays:
            for c in play:
                p = forget / 2 if POINTS[c] or eff[c] == TRUMP else forget
                if rng.random() < p:
                    unseen[c] += 1
                    played[c] -= 1
    void = [{e for e in v if rng.random() >= forget} for v in mem.void]
    no_pairs = [{e for e in v if rng.random() >= forget} for v in mem.no_pairs]
    return Memory(mem.seat, mem.ctx, +played, unseen, void, no_pairs, mem.holds, mem.kitty_hidden)


def pair_penalty(play: tuple[int, ...], hand: tuple[int, ...], obs: Observation) -> float:
    """What the heuristic charges ``play`` for the pairs it breaks (its cost with pairs, less
    its cost as if every card were single)."""
    return cost(play, hand, obs.ctx) - cost(play, hand, obs.ctx, Counter(set(hand)))


def noisy_best(scored: list[tuple[float, tuple[int, ...]]], temper: float, rng: random.Random) -> tuple[int, ...]:
    """A play drawn with probability proportional to exp(score / temper); the best when temper is 0."""
    best = max(scored)
    if temper <= 0 or len(scored) == 1:
        return best[1]
    weights = [math.exp((s - best[0]) / temper) for s, _ in scored]
    return rng.choices([p for _, p in scored], weights)[0]


register("human", lambda seed, **kw: HumanBot(seed, **kw))

__all__ = ["HumanBot", "LEVELS", "fuzzy_memory", "pair_penalty", "noisy_best"]
