"""The one decision loop: ask a seat's bot for an action, else fall back to a legal one.

Every caller of a bot goes through here: :class:`Table` (the demo, tests, tournaments through
``tuolaji.sim.runner``) and the table server's room. :func:`decide` turns a bot's answer into a
typed action, :func:`fallback` picks a legal action from the seat's own view, and
:func:`apply_or_fallback` applies the first and, when it is missing or refused, the second.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from ..engine.actions import (
    Action,
    Bury,
    CallFriend,
    Deal,
    Declare,
    Pass,
    Play,
    Redeal,
    Surrender,
    SurrenderAnswer,
    TimeUp,
)
from ..engine.match import Match
from ..engine.observation import Observation, observe
from ..engine.round import Phase, Round
from ..errors import IllegalAction
from ..ruleset import FriendCall
from .base import Bot, default_friend_card
from .random_bot import random_legal

log = logging.getLogger("tuolaji.bots")


def decide(bot: Bot, obs: Observation) -> Action | None:
    """The action ``bot`` takes for ``obs.seat`` now, unchecked.

    None when the seat has nothing to do (no declaration while cards are dealt, not its turn)
    or the bot failed (logged): the caller then falls back.
    """
    seat, phase = obs.seat, obs.phase
    try:
        if phase == Phase.DEAL:
            cards = bot.declare(obs)
            return Declare(seat, tuple(cards)) if cards else None
        if obs.turn != seat:
            return None
        if phase in (Phase.DECLARE, Phase.OVERRIDE):
            cards = bot.declare(obs)
            if cards:
                return Declare(seat, tuple(cards))
            return Redeal(seat) if obs.may_redeal and bot.redeal(obs) else Pass(seat)
        if phase == Phase.BURY:
            return Bury(seat, tuple(bot.bury(obs)))
        if phase == Phase.CALL_FRIEND:
            return friend_call(obs, bot.call_friend(obs))
        if phase == Phase.SURRENDER:
            return SurrenderAnswer(seat, bool(bot.answer_surrender(obs)))
        if phase == Phase.PLAY:
            if obs.may_surrender and bot.surrender(obs):
                return Surrender(seat)
            return Play(seat, tuple(bot.play(obs)))
    except Exception:  # a bot's crash must not stop the table: the fallback plays instead
        log.exception("bot %s failed to decide (%s)", bot.name, phase.value)
    return None


def fallback(obs: Observation, rng: random.Random) -> Action | None:
    """A legal action for ``obs.seat`` from its own view (None: nothing to do now).

    Pass at a call, a random bury or play, the usual friend card.
    """
    seat, phase = obs.seat, obs.phase
    if phase == Phase.DEAL or obs.turn != seat:
        return None
    if phase in (Phase.DECLARE, Phase.OVERRIDE):
        return Pass(seat)
    if phase == Phase.BURY:
        return Bury(seat, tuple(rng.sample(list(obs.hand), obs.kitty_size)))
    if phase == Phase.CALL_FRIEND:
        return friend_call(obs, default_friend_card(obs))
    if phase == Phase.SURRENDER:
        return SurrenderAnswer(seat, False)
    if phase == Phase.PLAY:
        return Play(seat, random_legal(obs, rng))
    return None


def friend_call(obs: Observation, card: int) -> CallFriend:
    """The call of ``card`` as the rules word it: with ``nth_played`` the first copy another seat
    plays (the copy after the caller's own, if it holds them)."""
    if obs.rules.friend_call != FriendCall.NTH_PLAYED:
        return CallFriend(obs.seat, card)
    return CallFriend(obs.seat, card, min(obs.hand.count(card) + 1, obs.decks))


def apply_or_fallback(apply: Callable[[Action], object], action: Action | None, obs: Observation, rng: random.Random) -> bool:
    """Apply ``action`` with ``apply`` (which raises IllegalAction when it refuses); when it is
    None or refused, apply :func:`fallback` instead. True when the bot's own action stood."""
    if action is not None:
        try:
            apply(action)
            return True
        except IllegalAction as exc:
            log.debug("seat %d: %s refused (%s); playing a legal fallback", obs.seat, action.type, exc.code)
    other = fallback(obs, rng)
    if other is not None:
        apply(other)
    return False


class Game(Protocol):
    """What :class:`Table` drives: a match, or a single round through :class:`SoloRound`."""

    @property
    def round(self) -> Round: ...
    def apply(self, action: Action) -> None: ...


class SoloRound:
    """A single round that looks like a match to the table."""

    def __init__(self, rnd: Round) -> None:
        self.round = rnd

    def apply(self, action: Action) -> None:
        self.round.apply(action)


G = TypeVar("G", bound=Game)


class Table(Generic[G]):
    """Drives a game: asks the bot whose turn it is, applies its action, counts refusals.

    A missing or illegal bot action is refused by the engine (counted in ``illegal``) and
    replaced by :func:`fallback`, so the table always goes on.
    """

    def __init__(
        self,
        game: G,
        bots: Sequence[Bot],
        *,
        on_action: Callable[[G, Action], None] | None = None,
        with_events: bool = False,
        seed: int = 0,
        rng: random.Random | None = None,
    ) -> None:
        self.game = game
        self.bots = list(bots)
        self.on_action = on_action
        self.with_events = with_events
        self.illegal = [0] * game.round.players
        self.rng = rng or random.Random(seed)

    def apply(self, action: Action) -> None:
        self.game.apply(action)
        if self.on_action:
            self.on_action(self.game, action)

    def observe(self, seat: int) -> Observation:
        return observe(self.game.round, seat, with_events=self.with_events)

    def ask(self, seat: int, obs: Observation, *, timed: bool) -> Action | None:
        """The seat's bot's decision; ``timed`` is False for the declaration polls of the deal
        (subclasses measure the other decisions)."""
        return decide(self.bots[seat], obs)

    def refused(self, seat: int) -> None:
        self.illegal[seat] += 1

    def step(self) -> None:
        """Advance the game by one decision."""
        rnd = self.game.round
        if rnd.phase == Phase.DEAL:
            seat = rnd.next_deal_seat
            self.apply(Deal())
            if self.game.round is not rnd or rnd.phase != Phase.DEAL:
                return  # the last card: everyone gets the last call next
            obs = self.observe(seat)
            action = self.ask(seat, obs, timed=False)
            if action is not None:
                try:
                    self.apply(action)
                except IllegalAction:
                    self.refused(seat)
            return
        turn = rnd.turn
        if turn is None:
            raise RuntimeError(f"nobody to act in phase {rnd.phase}")
        obs = self.observe(turn)
        if not apply_or_fallback(self.apply, self.ask(turn, obs, timed=True), obs, self.rng):
            self.refused(turn)

    def play_match(self, max_rounds: int = 10_000) -> None:
        match = self.game
        assert isinstance(match, Match)
        rules = match.rules
        deadline = time.monotonic() + 60 * rules.match_minutes if rules.match_minutes else None
        while not match.over and len(match.rounds) < max_rounds:
            if deadline is not None and not match.time_up and time.monotonic() > deadline:
                self.apply(TimeUp())
            self.step()
