"""The bot interface: a bot decides from an :class:`Observation` of its own seat only."""

from __future__ import annotations

from ..cards import SPADE_ACE, make, rank_of
from ..engine.events import RoundEnded
from ..engine.observation import Observation


class Bot:
    """Override the decisions you care about; the defaults never declare."""

    name = "bot"

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        """Called after each card dealt to this seat and at the last call: cards to show, or None."""
        return None

    def bury(self, obs: Observation) -> tuple[int, ...]:
        raise NotImplementedError

    def play(self, obs: Observation) -> tuple[int, ...]:
        raise NotImplementedError

    def call_friend(self, obs: Observation) -> int:
        """Find-a-friend: the card to call. By default an ace of a plain suit this seat is short in."""
        return default_friend_card(obs)

    def game_over(self, seat: int, result: RoundEnded | None) -> None:
        """Called once per bot when a game (round) ends, with its public result (None: redealt)."""


def default_friend_card(obs: Observation) -> int:
    """An ace (or failing that a king) of a plain suit, preferring one the dealer holds a copy of,
    so that the partner is the holder of the other copy."""
    ctx = obs.ctx
    best: tuple[int, int] | None = None
    for rank in (14, 13):
        for suit in range(4):
            card = make(suit, rank)
            if ctx.is_trump(card):
                continue
            held = obs.hand.count(card)
            if held >= obs.decks:
                continue
            score = (held, -rank)
            if best is None or score > (obs.hand.count(best[1]), -rank_of(best[1])):
                best = (score[0], card)
    return best[1] if best else SPADE_ACE  # when every plain ace and king is held
