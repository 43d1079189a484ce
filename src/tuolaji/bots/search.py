"""The search bot: determinized Monte-Carlo over sampled deals (perfect-information rollouts).

For each play decision it keeps the heuristic's best few candidates, then repeatedly samples
the hidden hands consistently with public play (:mod:`.determinize`), plays every candidate
in that same sample to the end, and picks the candidate with
the best average outcome in levels. Using one sample for all candidates (common random
numbers) makes the comparison much less noisy than separate samples would.

Rollouts play the heuristic's trick tactics (with threats read from the sampled hands) for
the current trick and the next ``deep - 1``, then a fast greedy policy to the end: the near
tricks decide between candidates, and the cheap tail still scores the kitty and the last trick.

Budget: ``steps`` simulated plays per decision (so late, short rollouts get more samples than
early, long ones, and the result does not depend on the machine's speed), at most
``iterations`` samples, and ``time`` seconds as a safety cap (checked between samples with the
next sample's expected cost).
Declaring (the last call and 炒底 overrides included), burying and calling a friend are
searched the same way over a short list of candidates (:mod:`.search_setup`), each switchable
(``declaring``, ``burying``, ``calling``; ``playing`` switches the play search) so that
ablations can measure what each is worth.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..engine.actions import Play
from ..engine.legal import legal_plays
from ..engine.observation import Observation
from ..engine.round import Phase, Round
from .base import Bot
from .clock import clock
from .determinize import build_round, sample_hidden
from .endgame import OutOfNodes, solve
from .heuristic import bury_candidates, heuristic_bury, heuristic_declaration, scored_plays
from .inference import DEFAULT_POOL, EVALUATION_NODES, PlayModel, sample_weighted
from .memory import Memory, remember
from .registry import register
from .rollout import POLICIES, Policy, Truncated, greedy_play, rollout, value
from .search_setup import Deal, bury_play_out, compare, declare_candidates, declare_play_out, friend_candidates, friend_play_out

DEFAULT_STEPS = 11_000  # simulated plays per decision: p95 0.6 s on one core in the slowest preset (docs/bots.md, session 6)
DEFAULT_DEEP = 3  # tricks of tactical play in a rollout before the greedy tail
DEFAULT_ITERATIONS = 200
MIN_SAMPLES = 4  # fewer samples than this never overrule the heuristic
DEFAULT_TIME = 2.0  # CPU seconds, a cap (the latency target's maximum); the step budget normally ends the search first
DEFAULT_SETUP_STEPS = 44_000  # simulated plays for a declaration, bury or friend call (whole rounds)
DEFAULT_ENDGAME = 4  # cards in hand at most when the rest of the round is solved exactly per sample
DEFAULT_ENDGAME_NODES = 20_000  # positions per endgame decision, all samples together
DEFAULT_FINAL = 2  # cards in hand from which a rollout's tail plays the tactics again (the last tricks)


class SearchBot(Bot):
    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        steps: int = DEFAULT_STEPS,
        iterations: int = DEFAULT_ITERATIONS,
        time: float = DEFAULT_TIME,
        candidates: int = 6,
        confidence: float = 1.0,
        policy: str = "tactical",
        deep: int = DEFAULT_DEEP,
        playing: bool = True,
        declaring: bool = True,
        burying: bool = True,
        calling: bool = True,
        setup_steps: int = DEFAULT_SETUP_STEPS,
        endgame: int = DEFAULT_ENDGAME,
        endgame_nodes: int = DEFAULT_ENDGAME_NODES,
        infer: int = DEFAULT_POOL,
        final: int = DEFAULT_FINAL,
    ) -> None:
        self.rng = random.Random(seed)
        self.steps = steps
        self.iterations = iterations
        self.time = time
        self.candidates = candidates
        self.confidence = confidence  # standard errors by which a candidate must beat the heuristic's pick
        self.last_iterations = 0
        self.last_timed_out = False  # the last search was ended by the time cap, not its budget
        self.policy = POLICIES[policy]
        self.deep = deep  # tricks played with ``policy`` in a rollout; greedy after that
        self.playing, self.declaring, self.burying, self.calling = playing, declaring, burying, calling
        self.setup_steps = setup_steps  # simulated plays for each decision before the first trick
        self.endgame = endgame  # solve exactly when this seat holds at most this many cards (0: never)
        self.endgame_nodes = endgame_nodes  # positions per decision for the exact solves
        self.final = final  # rollouts play the tactics again once a hand is down to this many cards
        self.infer = infer  # deals drawn per deal searched, kept by the others' play (0 or 1: no inference)

    def _sampler(self, obs: Observation, mem: Memory) -> tuple[Callable[[], Deal], PlayModel | None]:
        """Draws hidden deals: plain samples, or (``infer`` > 1) one of ``infer`` samples kept in
        proportion to how likely the others' recent follows are under it (:mod:`.inference`)."""
        model = PlayModel(obs) if self.infer > 1 else None
        if model is None or not model.follows:
            return (lambda: sample_hidden(obs, mem, self.rng)), None

        def draw() -> Deal:
            return sample_weighted([sample_hidden(obs, mem, self.rng) for _ in range(self.infer)], model, self.rng)

        return draw, model

    def _setup_pick(self, n: int, play_out: Callable[[int, Deal], Round], obs: Observation) -> int:
        policy = truncated(self.policy, self.deep, self.final)
        values, self.last_timed_out = compare(
            n, play_out, obs, steps=self.setup_steps, iterations=self.iterations, policy=policy, rng=self.rng, time_cap=self.time
        )
        self.last_iterations = len(values[0])
        return pick(values, self.confidence)

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        choice = heuristic_declaration(obs)
        if not self.declaring or obs.phase == Phase.DEAL:
            return choice  # during the deal: the heuristic (a declaration poll follows every card dealt)
        cands = declare_candidates(obs, choice)
        if not cands:
            return choice
        return cands[self._setup_pick(len(cands), declare_play_out(obs, cands), obs)]

    def bury(self, obs: Observation) -> tuple[int, ...]:
        if not self.burying or obs.dealer is None:
            return heuristic_bury(obs.hand, obs.ctx, obs.kitty_size)
        cands = bury_candidates(obs.hand, obs.ctx, obs.kitty_size)
        if len(cands) == 1:
            return cands[0]
        return cands[self._setup_pick(len(cands), bury_play_out(obs, cands), obs)]

    def call_friend(self, obs: Observation) -> int:
        choice = super().call_friend(obs)
        if not self.calling:
            return choice
        cands = friend_candidates(obs, choice)
        if len(cands) == 1:
            return choice
        return cands[self._setup_pick(len(cands), friend_play_out(obs, cands), obs)]

    def play(self, obs: Observation) -> tuple[int, ...]:
        mem = remember(obs)
        scored = sorted(scored_plays(obs, mem), reverse=True)  # the heuristic's own choice first (ties as max())
        cands = [p for _, p in scored[: self.candidates]]
        self.last_iterations = 0
        self.last_timed_out = False
        if len(cands) == 1 or self.iterations <= 0:
            return cands[0]
        if len(obs.hand) <= self.endgame:
            return self._endgame(obs, mem, [p for _, p in scored])
        if not self.playing:
            return cands[0]
        values: list[list[float]] = [[] for _ in cands]
        policy = truncated(self.policy, len(obs.tricks) + self.deep, self.final)

        draw, model = self._sampler(obs, mem)
        start = clock()
        done = steps = 0
        while done < self.iterations and steps < self.steps:
            hands, kitty = draw()
            if model is not None:  # a scored follow costs about one simulated play
                steps += model.evaluations
                model.evaluations = 0
            base = build_round(obs, hands, kitty)
            seed = self.rng.getrandbits(32)
            for i, cand in enumerate(cands):
                rnd = base.copy()
                rnd.apply_unchecked(Play(obs.seat, cand))
                steps += 1 + rollout(rnd, random.Random(seed), policy)
                values[i].append(value(rnd, obs.seat))
            done += 1
            spent = clock() - start
            if spent + spent / done > self.time:
                self.last_timed_out = done < self.iterations and steps < self.steps
                break
        self.last_iterations = done
        return cands[pick(values, self.confidence)]

    def _endgame(self, obs: Observation, mem: Memory, ranked: list[tuple[int, ...]]) -> tuple[int, ...]:
        """Every legal play, valued exactly in each sampled deal; the best average (ties and too
        few solved deals: the heuristic's order)."""
        cands: list[tuple[int, ...]] = []
        values: list[list[float]] = []
        budget = [self.endgame_nodes]
        draw, model = self._sampler(obs, mem)
        start = clock()
        done = 0
        while done < self.iterations:
            hands, kitty = draw()
            if model is not None:  # inference spends the same budget as the solves
                budget[0] -= EVALUATION_NODES * model.evaluations
                model.evaluations = 0
                if budget[0] <= 0:
                    break
            base = build_round(obs, hands, kitty)
            if not cands:
                legal = set(legal_plays(base, obs.seat))
                cands = [p for p in ranked if tuple(sorted(p)) in legal]
                cands += sorted(legal - {tuple(sorted(p)) for p in cands})
                values = [[] for _ in cands]
                if len(cands) == 1:
                    return cands[0]
            row: list[float] = []
            before = budget[0]
            try:
                for cand in cands:
                    child = base.copy()
                    child.apply_unchecked(Play(obs.seat, cand))
                    row.append(solve(child, obs.seat, budget))
            except OutOfNodes:
                break
            for i, v in enumerate(row):
                values[i].append(v)
            done += 1
            spent = clock() - start
            if budget[0] < before - budget[0]:
                break  # not enough nodes left for another deal like this one
            if spent + spent / done > self.time:
                self.last_timed_out = done < self.iterations
                break
        self.last_iterations = done
        if done < MIN_SAMPLES:
            return ranked[0]
        means = [sum(v) / done for v in values]
        return cands[max(range(len(cands)), key=lambda i: (means[i], -i))]


def truncated(policy: Policy, until: int, final: int = 0) -> Policy:
    """``policy`` until ``until`` tricks are done, then the greedy policy, and ``policy`` again
    once the seat to play holds at most ``final`` cards: the greedy tail never leads a trump
    pair, so without that a rollout could not show what keeping one for the last trick (and the
    kitty's multiplier) is worth."""
    if policy is greedy_play:
        return policy
    return Truncated(policy, until, final)  # (rollout() makes its choice inline)


def pick(values: list[list[float]], confidence: float) -> int:
    """The candidate with the best mean, if it beats candidate 0 (the heuristic's choice) by
    ``confidence`` standard errors of the paired differences; else candidate 0."""
    n = len(values[0])
    if n < MIN_SAMPLES:  # too few samples to judge the spread: trust the heuristic
        return 0
    means = [sum(v) / n for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    if best == 0:
        return best
    diffs = [a - b for a, b in zip(values[best], values[0], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > confidence * math.sqrt(var / n) else 0


register("search", lambda seed, **kw: SearchBot(seed, **kw))

__all__ = ["SearchBot", "pick", "truncated", "DEFAULT_STEPS", "DEFAULT_DEEP", "DEFAULT_ITERATIONS", "DEFAULT_TIME"]
