"""Play a match with bots in every seat (the demo, tests and tournaments use this loop)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from ..engine.actions import Action, Bury, CallFriend, Deal, Declare, Pass, Play, TimeUp
from ..engine.match import Match
from ..engine.observation import Observation, observe
from ..engine.round import Phase, Round
from ..errors import IllegalAction
from .base import Bot
from .random_bot import random_legal


def _turn(rnd: Round) -> int:
    assert rnd.turn is not None
    return rnd.turn


class Table:
    """Drives a match: asks the bot whose turn it is, applies its action, counts refusals.

    An illegal bot action is refused by the engine (counted in ``illegal``) and replaced by a
    random legal one, so the table always goes on.
    """

    def __init__(self, match: Match, bots: Sequence[Bot], *,
                 on_action: Callable[[Match, Action], None] | None = None,
                 with_events: bool = False, seed: int = 0) -> None:
        self.match = match
        self.bots = list(bots)
        self.on_action = on_action
        self.with_events = with_events
        self.illegal = [0] * match.rules.players
        self.rng = random.Random(seed)

    def _apply(self, action: Action) -> bool:
        try:
            self.match.apply(action)
        except IllegalAction:
            return False
        if self.on_action:
            self.on_action(self.match, action)
        return True

    def step(self) -> None:
        """Advance the match by one decision."""
        rnd = self.match.round

        def obs(seat: int) -> Observation:
            return observe(rnd, seat, with_events=self.with_events)

        if rnd.phase == Phase.DEAL:
            seat = rnd.next_deal_seat
            self._apply(Deal())
            if rnd.phase != Phase.DEAL:  # the last card: everyone gets the last call next
                return
            cards = self.bots[seat].declare(obs(seat))
            if cards and not self._apply(Declare(seat, tuple(cards))):
                self.illegal[seat] += 1
        elif rnd.phase in (Phase.DECLARE, Phase.OVERRIDE):
            seat = _turn(rnd)
            cards = self.bots[seat].declare(obs(seat))
            if cards and self._apply(Declare(seat, tuple(cards))):
                return
            if cards:
                self.illegal[seat] += 1
            self._apply(Pass(seat))
        elif rnd.phase == Phase.CALL_FRIEND:
            seat = _turn(rnd)
            if not self._apply(CallFriend(seat, self.bots[seat].call_friend(obs(seat)))):
                self.illegal[seat] += 1
                self._apply(CallFriend(seat, 12))
        elif rnd.phase == Phase.BURY:
            seat = _turn(rnd)
            if not self._apply(Bury(seat, tuple(self.bots[seat].bury(obs(seat))))):
                self.illegal[seat] += 1
                self._apply(Bury(seat, tuple(self.rng.sample(rnd.hands[seat], rnd.kitty_size))))
        elif rnd.phase == Phase.PLAY:
            seat = _turn(rnd)
            o = obs(seat)
            if not self._apply(Play(seat, tuple(self.bots[seat].play(o)))):
                self.illegal[seat] += 1
                self._apply(Play(seat, random_legal(o, self.rng)))

    def play_round(self) -> None:
        start = len(self.match.rounds)
        while not self.match.over and len(self.match.rounds) == start:
            self.step()

    def play_match(self, max_rounds: int = 10_000) -> None:
        rules = self.match.rules
        deadline = time.monotonic() + 60 * (rules.match_minutes or 0) if rules.match_minutes else None
        while not self.match.over and len(self.match.rounds) < max_rounds:
            if deadline is not None and not self.match.time_up and time.monotonic() > deadline:
                self._apply(TimeUp())
            self.step()
