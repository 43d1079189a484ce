"""Search before the first trick: declaring, burying and calling a friend by search."""

from __future__ import annotations

import random
from collections import Counter

from tuolaji.bots.heuristic import bury_candidates, heuristic_bury, heuristic_declaration
from tuolaji.bots.registry import make_bot
from tuolaji.bots.search import SearchBot
from tuolaji.bots.search_setup import declare_candidates, sample_deal
from tuolaji.engine.actions import Bury, Deal, Declare, Pass
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import duplicate_deck, play_deal, seat_seed

SETUP = "search:playing=false,iterations=8,setup_steps=100000,time=30"  # sample-bound: deterministic


def _to_phase(preset: str | None, index: int, phase: Phase, *, seed: int = 11) -> Round:
    """A round driven by the heuristic up to ``phase``."""
    rules = load_rules(preset)
    deck, level, dealer = duplicate_deck(rules, seed, index)
    rnd = Round(rules=rules, deck=deck, level=level, dealer=dealer)
    heur = make_bot("heuristic", seed=1)
    while rnd.phase != phase:
        if rnd.phase == Phase.DEAL:
            seat = rnd.next_deal_seat
            rnd.apply(Deal())
            if rnd.phase == Phase.DEAL and (cards := heur.declare(observe(rnd, seat))):
                rnd.apply(Declare(seat, cards))
        elif rnd.phase in (Phase.DECLARE, Phase.OVERRIDE):
            assert rnd.turn is not None
            rnd.apply(Pass(rnd.turn))
        elif rnd.phase == Phase.BURY:
            assert rnd.turn is not None
            rnd.apply(Bury(rnd.turn, heur.bury(observe(rnd, rnd.turn))))
        else:
            raise AssertionError(rnd.phase)
    return rnd


def _reshuffled(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round with every card hidden from ``seat`` dealt anew among the hidden places."""
    other = rnd.copy()
    places = [s for s in range(rnd.players) if s != seat]
    pool = [c for s in places for c in rnd.hands[s]] + ([] if seat == rnd.burier else list(rnd.kitty))
    rng.shuffle(pool)
    for s in places:
        n = len(rnd.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    if seat != rnd.burier:
        other.kitty = pool
    return other


def test_bury_search_compares_sensible_buries_and_decides_from_the_seat_view_only() -> None:
    changed = 0
    rng = random.Random(3)
    for i in range(6):
        rnd = _to_phase(None, i, Phase.BURY)
        seat = rnd.turn
        assert seat is not None and rnd.ctx is not None
        obs = observe(rnd, seat, with_events=False)
        cands = bury_candidates(obs.hand, obs.ctx, obs.kitty_size)
        assert cands[0] == heuristic_bury(obs.hand, obs.ctx, obs.kitty_size)
        for cand in cands:
            assert len(cand) == obs.kitty_size and not Counter(cand) - Counter(obs.hand)
        choice = SearchBot(5, **_params(SETUP)).bury(obs)
        assert choice in cands
        other = observe(_reshuffled(rnd, seat, rng), seat, with_events=False)
        assert other == obs and SearchBot(5, **_params(SETUP)).bury(other) == choice
        assert SearchBot(5, **_params(SETUP + ",burying=false")).bury(obs) == cands[0]
        changed += choice != cands[0]
    assert changed > 0, "with a real budget the search overrules the heuristic's bury somewhere"


def test_declare_search_at_the_last_call_picks_a_legal_option_or_passes() -> None:
    seen_options = 0
    for i in range(8):
        rnd = _to_phase("bianfeng-fixed", i, Phase.DECLARE) if i % 2 else _to_phase(None, i, Phase.DECLARE)
        while rnd.phase == Phase.DECLARE:
            seat = rnd.turn
            assert seat is not None
            obs = observe(rnd, seat, with_events=False)
            options = obs.declaration_options()
            seen_options += bool(options)
            choice = SearchBot(2, **_params(SETUP)).declare(obs)
            assert choice is None or choice in options
            assert SearchBot(2, **_params(SETUP + ",declaring=false")).declare(obs) == heuristic_declaration(obs)
            rnd.apply(Declare(seat, choice) if choice else Pass(seat))
    assert seen_options > 0


def test_the_declare_search_does_not_take_trump_from_its_partner_with_small_jokers() -> None:
    """Classic deal 133 of seed 2026 (docs/bots.md, session 5): at the last call the partner's
    level pair stands; seat 3 holds a pair of small jokers and the heuristic passes. The search
    used to override its partner with no-trump there (and its side lost the deal); it passes."""
    rnd = _to_phase(None, 133, Phase.DECLARE, seed=2026)
    while rnd.turn != 3:
        assert rnd.phase == Phase.DECLARE and rnd.turn is not None
        rnd.apply(Pass(rnd.turn))
    obs = observe(rnd, 3, with_events=False)
    assert obs.bid_seat == 1 and obs.dealer == 1, "the partner's declaration stands"
    small_jokers = (52, 52)
    assert small_jokers in obs.declaration_options() and heuristic_declaration(obs) is None
    assert declare_candidates(obs, None) == [], "nothing to compare: an override of the partner is no candidate"
    for seed in (seat_seed(2026, 133, 1, 3), 0, 1):  # the first: this seat's bot in the sim's second game
        bot = make_bot("search:playing=false,burying=false,calling=false,endgame=0,time=30", seed=seed)
        assert bot.declare(obs) is None


def test_samples_before_play_fill_every_hand_and_the_kitty() -> None:
    rules = load_rules(None)
    rnd = _to_phase(None, 2, Phase.BURY)
    for phase_round, seat in ((rnd, rnd.turn), (_to_phase(None, 3, Phase.DECLARE), 1)):
        assert seat is not None
        obs = observe(phase_round, seat, with_events=False)
        hands, kitty = sample_deal(obs, random.Random(1))
        assert hands[seat] == list(obs.hand)
        assert sorted(c for h in hands for c in h) + sorted(kitty) != []
        assert Counter(c for h in hands for c in h) + Counter(kitty) == Counter(phase_round.deck)
        sizes = {len(h) for s, h in enumerate(hands) if s != seat}
        assert sizes == {rules.hand_size_value}


def test_every_setup_search_plays_variants_legally() -> None:
    for preset in ("bianfeng-friend", "bianfeng-fixed", "three-deck"):
        r = play_deal("search:playing=false,iterations=4,setup_steps=2000,time=30", "heuristic", load_rules(preset), 5, 1)
        assert r.a.illegal == 0 and r.b.illegal == 0, preset


def _params(spec: str) -> dict[str, object]:
    from tuolaji.bots.registry import parse_spec

    return parse_spec(spec)[1]
