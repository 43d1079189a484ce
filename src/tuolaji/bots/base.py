"""The bot interface: a bot decides from an :class:`Observation` of its own seat only."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..cards import SPADE_ACE, make, rank_of
from ..engine.events import RoundEnded
from ..engine.observation import Observation
from ..trump import TrumpContext


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

    def redeal(self, obs: Observation) -> bool:
        """At the last call, when the rules let this hand ask for a redeal (``obs.may_redeal``) and
        it does not declare: ask? By default yes: a hand that weak is worth dealing again."""
        return True

    def surrender(self, obs: Observation) -> bool:
        """On its turn in play, when the rules allow (``obs.may_surrender``): propose to concede?
        By default only when the side cannot win the round any more."""
        return side_is_beaten(obs)

    def answer_surrender(self, obs: Observation) -> bool:
        """A partner proposed to concede (``obs.surrender_by``): accept? Only when the side is beaten."""
        return side_is_beaten(obs)

    def game_over(self, seat: int, result: RoundEnded | None) -> None:
        """Called once per bot when a game (round) ends, with its public result (None: redealt)."""


def side_is_beaten(obs: Observation) -> bool:
    """Can this seat's side no longer win the round? The dealers are beaten once the attackers
    hold the points that take the deal; the attackers when even every point still out would not
    reach that total, counting as many of them as the kitty can hold at the largest multiplier
    a last lead from this hand can set."""
    from ..scoring import max_kitty_multiplier, threshold_unit

    take_over = 2 * threshold_unit(obs.rules)
    if not obs.is_attacker(obs.seat):
        return obs.attacker_points >= take_over
    out = obs.rules.points_total - sum(t.points for t in obs.tricks)
    if obs.trick is not None:
        out -= obs.trick.points
    in_kitty = min(out, 10 * obs.rules.kitty_size_value)
    best = out + in_kitty * (max_kitty_multiplier(len(obs.hand), obs.rules) - 1)
    return obs.attacker_points + best < take_over


def default_friend_card(obs: Observation) -> int:
    """An ace (or failing that a king) of a plain suit not called yet, preferring one the dealer
    holds a copy of, so that the partner is the holder of the other copy."""
    return friend_card(obs.hand, obs.ctx, obs.decks, [card for card, _ in obs.friend_calls])


def friend_card(hand: Sequence[int], ctx: TrumpContext, decks: int, called: Collection[int] = ()) -> int:
    """:func:`default_friend_card` for a dealer holding ``hand`` (after the bury), with the cards
    in ``called`` called already: also what the search's simulated dealers call."""
    best: tuple[int, int] | None = None
    for rank in (14, 13):
        for suit in range(4):
            card = make(suit, rank)
            if ctx.is_trump(card) or card in called:
                continue
            held = hand.count(card)
            if held >= decks:
                continue
            score = (held, -rank)
            if best is None or score > (hand.count(best[1]), -rank_of(best[1])):
                best = (score[0], card)
    if best is not None:
        return best[1]
    # every plain ace and king held or called: the spade ace (held: alone), else a card not called
    return SPADE_ACE if SPADE_ACE not in called else next(c for c in range(54) if c not in called)
