"""Rounds of heuristic self-play on the simulator's duplicate deals, for tests that need real
positions (a follow to a single card, the last tricks)."""

from __future__ import annotations

from collections.abc import Iterator

from tuolaji.bots.driver import decide
from tuolaji.bots.registry import make_bot
from tuolaji.engine.actions import Deal
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import duplicate_deck


def heuristic_plays(preset: str | None, seed: int, index: int) -> Iterator[Round]:
    """Deal ``index`` of ``seed`` played by four heuristic bots: the round before each play
    (the round itself, played on once the caller moves to the next one: copy it to keep it)."""
    rules = load_rules(preset)
    deck, level, dealer = duplicate_deck(rules, seed, index)
    rnd = Round(rules=rules, deck=deck, level=level, dealer=dealer)
    bots = [make_bot("heuristic", seed=s) for s in range(rnd.players)]
    while rnd.phase != Phase.DONE:
        if rnd.phase == Phase.DEAL:
            seat = rnd.next_deal_seat
            rnd.apply(Deal())
            if rnd.phase == Phase.DEAL and (action := decide(bots[seat], observe(rnd, seat, with_events=False))):
                rnd.apply(action)
            continue
        seat = rnd.turn
        assert seat is not None
        if rnd.phase == Phase.PLAY:
            yield rnd
        action = decide(bots[seat], observe(rnd, seat, with_events=False))
        assert action is not None
        rnd.apply(action)
