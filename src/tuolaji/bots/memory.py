"""Card memory and inference from public play: what is out, what is unseen, who is void.

Everything here is computed from an :class:`Observation` alone (the seat's hand, its own
kitty if it buried it, the public tricks and the standing bid), so it can never leak a
hidden card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import new_deck
from ..combos import decompose
from ..engine.observation import Observation, PublicTrick
from ..trump import TrumpContext


@dataclass(slots=True)
class Memory:
    seat: int
    ctx: TrumpContext
    played: Counter[int]  # every card played in public so far
    unseen: Counter[int]  # cards in other hands or in a kitty this seat did not bury
    void: list[set[int]]  # per seat: effective suits it has shown it lacks
    no_pairs: list[set[int]]  # per seat: effective suits in which it has shown it holds no pair
    holds: list[Counter[int]]  # per seat: cards it is known to hold (failed throws, declarations)
    kitty_hidden: bool  # the kitty is among the unseen cards (this seat did not bury it)

    def unseen_in(self, suit: int) -> Counter[int]:
        eff = self.ctx.eff
        return Counter({c: n for c, n in self.unseen.items() if n and eff[c] == suit})

    def may_hold(self, seat: int, suit: int) -> bool:
        return suit not in self.void[seat]


def _tricks(obs: Observation) -> Iterable[PublicTrick]:
    yield from obs.tricks
    if obs.trick is not None and obs.trick.plays:
        yield obs.trick


def remember(obs: Observation) -> Memory:
    ctx = obs.ctx
    eff = ctx.eff
    players = obs.players
    played: Counter[int] = Counter()
    void: list[set[int]] = [set() for _ in range(players)]
    no_pairs: list[set[int]] = [set() for _ in range(players)]
    holds: list[Counter[int]] = [Counter() for _ in range(players)]
    if obs.bid_seat is not None and obs.bid_cards and obs.bid_seat != obs.dealer:
        holds[obs.bid_seat].update(obs.bid_cards)  # the dealer may have buried its declared cards
    for t in _tricks(obs):
        lead = t.plays[0]
        n = len(lead)
        suit = eff[lead[0]]
        pairs_needed = _pairs(lead, ctx) if n > 1 else 0
        if t.attempted is not None:  # a failed throw shows cards that went back to the hand
            holds[t.leader].update(Counter(t.attempted) - Counter(lead))
        for seat, play in zip(t.seats, t.plays, strict=False):
            played.update(play)
            holds[seat] -= Counter(play)
            if seat == t.leader:
                continue
            in_suit = [c for c in play if eff[c] == suit]
            if len(in_suit) < n:
                void[seat].add(suit)
            elif pairs_needed and sum(v // 2 for v in Counter(in_suit).values()) < pairs_needed:
                no_pairs[seat].add(suit)
    unseen = Counter(new_deck(obs.decks))
    unseen.subtract(played)
    unseen.subtract(obs.hand)
    if obs.kitty is not None:
        unseen.subtract(obs.kitty)
    unseen = +unseen
    holds[obs.seat] = Counter()
    for h in holds:
        for c in list(h):
            h[c] = min(h[c], unseen[c])
    return Memory(obs.seat, ctx, played, unseen, void, no_pairs, holds, obs.kitty is None)


def _pairs(cards: Sequence[int], ctx: TrumpContext) -> int:
    return sum(c.m * (c.k // 2) for c in decompose(cards, ctx) if c.k >= 2)
