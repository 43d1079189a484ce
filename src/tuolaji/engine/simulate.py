"""Fast random play through the engine, for conformance tests and benchmarks.

Random players here make every kind of decision the rules allow (declare, override, reinforce,
ask for a redeal, bury, call a friend, lead single combinations or throws, follow), each action
going through the checked path unless ``checked=False``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import NUM_KINDS
from ..ruleset import FriendCall
from .actions import Action, Bury, CallFriend, Deal, Declare, Pass, Play, Redeal, Surrender, SurrenderAnswer
from .legal import random_play
from .match import Match
from .round import Phase, Round


def deck_from_hands(hands: Sequence[Sequence[int]], kitty: Sequence[int], *, start_seat: int = 0) -> list[int]:
    """The deal order that gives each seat its hand (cards dealt one at a time from ``start_seat``)."""
    players = len(hands)
    size = len(hands[0])
    if any(len(h) != size for h in hands):
        raise ValueError("every hand must have the same size")
    deck = []
    for i in range(size * players):
        seat = (start_seat + i) % players
        deck.append(hands[seat][i // players])
    return deck + list(kitty)


def random_action(rnd: Round, rng: random.Random) -> Action:
    """A random legal action for whoever must act now (the deal when nobody must)."""
    phase = rnd.phase
    if phase == Phase.DEAL:
        seat = (rnd.next_deal_seat - 1) % rnd.players
        if rnd.dealt and rng.random() < 0.3:
            opts = rnd.declaration_options(seat)
            if opts:
                return Declare(seat, rng.choice(opts))
        return Deal()
    assert rnd.turn is not None
    seat = rnd.turn
    if phase in (Phase.DECLARE, Phase.OVERRIDE):
        if phase == Phase.DECLARE and (rnd.rules.redeal_request or rnd.rules.redeal_no_trump) and rng.random() < 0.2:
            try:
                rnd.check(Redeal(seat))
                return Redeal(seat)
            except ValueError:
                pass
        opts = rnd.declaration_options(seat)
        if opts and rng.random() < 0.4:
            return Declare(seat, rng.choice(opts))
        return Pass(seat)
    if phase == Phase.BURY:
        return Bury(seat, tuple(rng.sample(rnd.hands[seat], rnd.kitty_size)))
    if phase == Phase.CALL_FRIEND:
        while True:  # a call not made yet (at most 3 of 54 taken)
            nth = rng.randint(1, rnd.rules.decks) if rnd.rules.friend_call == FriendCall.NTH_PLAYED else 0
            card = rng.randrange(NUM_KINDS)
            if (card, nth) not in rnd.friend_calls:
                return CallFriend(seat, card, nth)
    if phase == Phase.SURRENDER:
        return SurrenderAnswer(seat, rng.random() < 0.5)
    if rnd.rules.surrender and rng.random() < 0.03 and rnd.surrender_refusal(seat) is None:
        return Surrender(seat)
    if rnd.trick is not None and not rnd.trick.plays and rng.random() < 0.15:
        throw = _random_throw(rnd, seat, rng)
        if throw:
            return Play(seat, throw)
    return Play(seat, random_play(rnd, seat, rng))


def _random_throw(rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...] | None:
    """Two to five random cards of one effective suit (a throw attempt, which may fail)."""
    assert rnd.ctx is not None
    by_suit: dict[int, list[int]] = {}
    for c in rnd.hands[seat]:
        by_suit.setdefault(rnd.ctx.eff[c], []).append(c)
    suits = [cards for cards in by_suit.values() if len(cards) >= 2]
    if not suits:
        return None
    cards = rng.choice(suits)
    return tuple(rng.sample(cards, rng.randint(2, min(5, len(cards)))))


def random_match(match: Match, rng: random.Random, *, checked: bool = True, max_rounds: int = 10_000) -> Match:
    """Play ``match`` to its end (or ``max_rounds`` rounds) with random legal actions."""
    apply = match.apply if checked else match.apply_unchecked
    while not match.over and len(match.rounds) < max_rounds:
        apply(random_action(match.round, rng))
    return match
