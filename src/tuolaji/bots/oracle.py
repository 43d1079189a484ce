"""The oracle: the search bot given the real deal instead of samples.

It sees every hand, so it is a measuring stick for tournaments only (how much do the honest
bots lose to not knowing the cards?) and never a difficulty players can pick. The tournament
runner hands it the round through :meth:`OracleBot.see_round` before each decision; without
that it plays like the search bot.
"""

from __future__ import annotations

import random

from ..engine.actions import Play
from ..engine.observation import Observation
from ..engine.round import Phase, Round
from .clock import clock
from .heuristic import scored_plays
from .memory import remember
from .registry import register
from .rollout import rollout, value
from .search import SearchBot, pick, truncated


class OracleBot(SearchBot):
    name = "oracle"

    def __init__(self, seed: int | None = None, **kw: float) -> None:
        super().__init__(seed, **kw)  # type: ignore[arg-type]
        self._round: Round | None = None

    def see_round(self, rnd: Round) -> None:
        self._round = rnd

    def play(self, obs: Observation) -> tuple[int, ...]:
        rnd = self._round
        if rnd is None or rnd.phase != Phase.PLAY or rnd.turn != obs.seat:
            return super().play(obs)
        scored = sorted(scored_plays(obs, remember(obs)), key=lambda x: -x[0])
        cands = [p for _, p in scored[: self.candidates]]
        if len(cands) == 1:
            return cands[0]
        base = rnd.copy()
        base.events = []
        values: list[list[float]] = [[] for _ in cands]
        policy = truncated(self.policy, len(obs.tricks) + self.deep, self.final)  # the search's own rollouts
        start = clock()
        steps = 0
        for done in range(1, self.iterations + 1):
            seed = self.rng.getrandbits(32)
            for i, cand in enumerate(cands):
                r = base.copy()
                r.apply_unchecked(Play(obs.seat, cand))
                steps += 1 + rollout(r, random.Random(seed), policy)
                values[i].append(value(r, obs.seat))
            if steps >= self.steps:  # the same step budget as the search bot
                break
            spent = clock() - start
            if spent + spent / done > self.time:
                break
        return cands[pick(values, self.confidence)]


register("oracle", lambda seed, **kw: OracleBot(seed, **kw))

__all__ = ["OracleBot"]
