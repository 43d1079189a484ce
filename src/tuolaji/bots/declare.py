"""Declaration helpers shared by bots: what a seat could show that would stand."""

from __future__ import annotations

from collections import Counter

from ..cards import BJ, LJ
from ..engine.observation import Observation


def possible_declarations(obs: Observation) -> list[tuple[int, ...]]:
    """Declarations that would stand over the current bid (default declaring rules)."""
    counts = Counter(obs.hand)
    current = len(obs.bid_cards) if obs.bid_cards else 0
    cur_card = obs.bid_cards[0] if obs.bid_cards else None
    cur_strength = 0 if cur_card is None else (3 if cur_card == LJ else 4 if cur_card == BJ else current)
    out: list[tuple[int, ...]] = []
    for card, n in counts.items():
        if card in (LJ, BJ):
            if n >= 2 and (3 if card == LJ else 4) > cur_strength and obs.bid_seat != obs.seat:
                out.append((card, card))
            continue
        if card % 13 + 2 != obs.level:
            continue
        for size in range(1, min(n, 2) + 1):
            if obs.bid_seat == obs.seat:
                if card == cur_card and size > current:
                    out.append((card,) * size)
            elif size > cur_strength:
                out.append((card,) * size)
    return out


def best_declaration(obs: Observation) -> tuple[int, ...] | None:
    """The declaration that makes the seat's longest suit trump, if any would stand."""
    options = possible_declarations(obs)
    if not options:
        return None
    suit_len = Counter(c // 13 for c in obs.hand if c < 52)
    level_cards = sum(1 for c in obs.hand if c < 52 and c % 13 + 2 == obs.level)
    jokers = sum(1 for c in obs.hand if c >= 52)

    def score(cards: tuple[int, ...]) -> float:
        if cards[0] >= 52:  # no-trump only pays with many level cards and jokers
            return level_cards * 2 + jokers - 4
        return suit_len[cards[0] // 13] + 2 * len(cards)

    best = max(options, key=score)
    return best if score(best) > 0 else None
