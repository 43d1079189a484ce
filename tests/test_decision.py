"""The one decision loop (tuolaji.bots.driver): decide, fallback, and the table that uses them."""

from __future__ import annotations

import random

from tuolaji.bots.base import Bot, default_friend_card
from tuolaji.bots.driver import SoloRound, Table, apply_or_fallback, decide, fallback
from tuolaji.bots.registry import make_bot
from tuolaji.engine.actions import Action, Bury, CallFriend, Declare, Pass, Play
from tuolaji.engine.observation import Observation, observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import duplicate_deck


class Broken(Bot):
    """Crashes on every decision."""

    name = "broken"

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        raise RuntimeError("no")

    def bury(self, obs: Observation) -> tuple[int, ...]:
        raise RuntimeError("no")

    def play(self, obs: Observation) -> tuple[int, ...]:
        raise RuntimeError("no")

    def call_friend(self, obs: Observation) -> int:
        raise RuntimeError("no")


class Liar(Bot):
    """Answers every decision with cards it does not hold (and a card that is no card)."""

    name = "liar"

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        return (53, 53, 53, 53, 53)

    def bury(self, obs: Observation) -> tuple[int, ...]:
        return ()

    def play(self, obs: Observation) -> tuple[int, ...]:
        return (99,)

    def call_friend(self, obs: Observation) -> int:
        return 99


def _round(preset: str, index: int = 0) -> Round:
    rules = load_rules(preset)
    deck, level, dealer = duplicate_deck(rules, 11, index)
    return Round(rules=rules, deck=deck, level=level, dealer=dealer)


def _drive(rnd: Round, bots: list[Bot], seen: list[Action]) -> Table[SoloRound]:
    table = Table(SoloRound(rnd), bots, on_action=lambda _g, a: seen.append(a), seed=5)
    while rnd.phase != Phase.DONE:
        table.step()
    return table


def test_broken_and_lying_bots_still_finish_a_find_a_friend_round_with_legal_fallbacks() -> None:
    for bot in (Broken(), Liar()):
        rnd = _round("bianfeng-friend")
        seen: list[Action] = []
        table = _drive(rnd, [bot] * rnd.players, seen)
        assert rnd.result is not None
        kinds = {a.type for a in seen}
        assert {"pass", "bury", "call_friend", "play"} <= kinds
        assert not any(isinstance(a, Declare) for a in seen)  # nobody declared: the lies were refused
        # every decision outside the deal was refused and replaced by exactly one fallback (the
        # liar's declarations while cards are dealt are refused and counted too)
        decisions = sum(1 for a in seen if a.type != "deal")
        if isinstance(bot, Broken):
            assert sum(table.illegal) == decisions
        else:
            assert sum(table.illegal) > decisions
        # the friend call is the usual ace (not a fixed card)
        call = next(a for a in seen if isinstance(a, CallFriend))
        assert call.card != 99


def test_decide_turns_answers_into_typed_actions_for_the_seat() -> None:
    rnd = _round("classic")
    table = Table(SoloRound(rnd), [make_bot("heuristic", seed=s) for s in range(4)])
    phases: dict[Phase, type] = {}
    while rnd.phase != Phase.DONE and len(rnd.tricks) < 2:
        if rnd.phase != Phase.DEAL and rnd.turn is not None:
            seat = rnd.turn
            obs = observe(rnd, seat)
            action = decide(table.bots[seat], obs)
            assert action is not None and getattr(action, "seat", seat) == seat
            rnd.check(action)  # the heuristic's own decision is legal
            phases.setdefault(rnd.phase, type(action))
            other = (seat + 1) % rnd.players
            assert decide(table.bots[other], observe(rnd, other)) is None  # not its turn
        table.step()
    assert phases[Phase.PLAY] is Play and phases[Phase.BURY] is Bury
    assert phases[Phase.DECLARE] in (Pass, Declare)


def test_fallback_is_legal_in_every_phase_and_needs_only_the_seats_view() -> None:
    rng = random.Random(3)
    for preset in ("classic", "bianfeng-friend", "three-deck"):
        rnd = _round(preset, 2)
        table = Table(SoloRound(rnd), [make_bot("random", seed=s) for s in range(rnd.players)])
        while rnd.phase != Phase.DONE:
            if rnd.turn is not None and rnd.phase != Phase.DEAL:
                obs = observe(rnd, rnd.turn, with_events=False)
                action = fallback(obs, rng)
                assert action is not None
                rnd.check(action)
                if isinstance(action, CallFriend):
                    assert action.card == default_friend_card(obs)
            table.step()


def test_apply_or_fallback_applies_the_fallback_when_refused() -> None:
    rnd = _round("classic")
    table = Table(SoloRound(rnd), [make_bot("random", seed=s) for s in range(4)])
    while rnd.phase != Phase.PLAY:
        table.step()
    seat = rnd.turn
    assert seat is not None
    obs = observe(rnd, seat)
    applied: list[Action] = []

    def apply(action: Action) -> None:
        rnd.apply(action)
        applied.append(action)

    assert not apply_or_fallback(apply, Play(seat, (99,)), obs, random.Random(1))
    assert len(applied) == 1 and isinstance(applied[0], Play) and rnd.turn != seat
