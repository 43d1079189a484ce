"""Inference from the others' play: deals under which their follows look likely weigh more, and
the deals the search keeps place the hidden cards better than plain samples do."""

from __future__ import annotations

import random
from collections import Counter

from test_bots import play_to
from tuolaji.bots.determinize import sample_hidden
from tuolaji.bots.heuristic import HeuristicBot
from tuolaji.bots.inference import PlayModel, sample_weighted
from tuolaji.bots.memory import remember
from tuolaji.bots.search import SearchBot
from tuolaji.cards import POINTS
from tuolaji.combos import best_top
from tuolaji.engine.observation import Observation, observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import duplicate_deck
from tuolaji.trump import TRUMP

RULES = load_rules(None)


def _positions(count: int) -> list[tuple[Round, Observation]]:
    """Lead positions in the middle of heuristic self-play (the model's own policy)."""
    out = []
    for i in range(count):
        deck, level, dealer = duplicate_deck(RULES, 99, i)
        rnd = play_to(
            Round(rules=RULES, deck=deck, level=level, dealer=dealer), [HeuristicBot(s) for s in range(4)], tricks=6 + i % 8
        )
        if rnd.phase == Phase.PLAY and rnd.turn is not None:
            out.append((rnd, observe(rnd, rnd.turn)))
    return out


def test_the_true_deal_looks_more_likely_than_samples() -> None:
    above = total = 0
    for rnd, obs in _positions(6):
        model = PlayModel(obs)
        assert model.follows
        others = [s for s in range(4) if s != obs.seat]
        truth = model.log_weight([list(h) for h in rnd.hands], list(rnd.kitty) if obs.kitty is None else [])
        mem, rng = remember(obs), random.Random(1)
        samples = [model.log_weight(*sample_hidden(obs, mem, rng)) for _ in range(20)]
        above += sum(truth > x for x in samples)
        total += len(samples)
        assert all(len(f.play) >= 1 and f.seat in others for f in model.follows)
    assert above > 0.75 * total


def test_weighted_draws_follow_the_weights() -> None:
    class Fixed(PlayModel):
        def __init__(self) -> None:
            self.follows = [object()]  # type: ignore[list-item]

        def log_weight(self, hands: list[list[int]], kitty: list[int]) -> float:
            return {0: 0.0, 1: -2.0}[hands[0][0]]

    rng = random.Random(4)
    deals = [([[0]], []), ([[1]], [])]
    picks = Counter(sample_weighted(deals, Fixed(), rng)[0][0][0] for _ in range(3000))  # type: ignore[arg-type]
    assert 0.84 < picks[0] / 3000 < 0.92  # e^0 : e^-2 = 88 % : 12 %


def test_kept_deals_place_the_hidden_point_cards_better() -> None:
    right = {False: 0, True: 0}
    out_of = 0
    for rnd, obs in _positions(10):
        mem = remember(obs)
        model = PlayModel(obs)
        for infer in (False, True):
            rng = random.Random(7)
            for _ in range(15):
                pool = [sample_hidden(obs, mem, rng) for _ in range(6 if infer else 1)]
                hands, _ = sample_weighted(pool, model, rng)
                for s in range(4):
                    if s != obs.seat:
                        truth = Counter(c for c in rnd.hands[s] if POINTS[c])
                        right[infer] += sum((truth & Counter(hands[s])).values())
                        out_of += sum(truth.values()) * infer
    assert right[True] > right[False] * 1.05, (right, out_of)


def test_inference_is_a_search_setting_and_counts_in_the_budget() -> None:
    _, obs = _positions(1)[0]
    on, off = SearchBot(3, steps=600, time=30), SearchBot(3, steps=600, time=30, infer=0)
    on.play(obs)
    off.play(obs)
    assert 0 < on.last_iterations < off.last_iterations  # the scored follows spent part of the budget


def test_a_kept_likelihood_is_the_one_worked_out_afresh() -> None:
    """The model keeps a follow's log-likelihood per the follower's cards it depends on (the led
    suit's, trump's, the whole hand when short of the suit; the kitty it buried): every deal's
    weight is the same as a model that has kept nothing works out, and deals do repeat them."""
    repeats = 0
    for preset in (None, "bianfeng-friend"):
        rules = load_rules(preset)
        for i in range(10):
            deck, level, dealer = duplicate_deck(rules, 98, i)
            bots = [HeuristicBot(s) for s in range(rules.players)]
            rnd = play_to(Round(rules=rules, deck=deck, level=level, dealer=dealer), bots, tricks=4 + i)
            if rnd.phase != Phase.PLAY or rnd.turn is None:
                continue
            obs = observe(rnd, rnd.turn)
            model, mem, rng = PlayModel(obs), remember(obs), random.Random(i)
            for _ in range(40):
                hands, kitty = sample_hidden(obs, mem, rng)
                assert model.log_weight(hands, kitty) == PlayModel(obs).log_weight(hands, kitty)
                for j, f in enumerate(model.follows):  # the trump part of the key: the threats' answer
                    # (a kitty known to the follower: here another hand's trumps, as dealers seldom bury any)
                    known = [c for c in hands[(f.seat + 1) % rules.players] if obs.ctx.eff[c] == TRUMP]
                    for kit in (None, known):
                        unseen = Counter({c: f.left[c] for c in range(len(f.left)) if obs.ctx.eff[c] == TRUMP})
                        unseen.subtract(hands[f.seat] + list(f.since.elements()) + (kit or []))
                        want = best_top(+unseen, f.comps[0].k, f.comps[0].m, obs.ctx.order)
                        kit_trumps = model._trumps_of(kit) if kit is not None else None
                        assert model._trump_top(j, model._trumps_of(hands[f.seat]), kit_trumps) == want
            repeats += model.evaluations - len(model._logs)
    assert repeats > 100
