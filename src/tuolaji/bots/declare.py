"""Declaration helpers shared by bots: what a seat could show that would stand."""

from __future__ import annotations

from collections import Counter

from ..engine.observation import Observation


def possible_declarations(obs: Observation) -> list[tuple[int, ...]]:
    """Declarations that would stand over the current bid under the round's rules."""
    return obs.declaration_options()


def best_declaration(obs: Observation) -> tuple[int, ...] | None:
    """The declaration that makes the seat's longest suit trump, if any would stand."""
    options = possible_declarations(obs)
    if not options:
        return None
    suit_len = Counter(c // 13 for c in obs.hand if c < 52)
    level_cards = sum(1 for c in obs.hand if c < 52 and c % 13 + 2 == obs.level)
    jokers = sum(1 for c in obs.hand if c >= 52)

    def score(cards: tuple[int, ...]) -> float:
        if all(c >= 52 for c in cards):  # no-trump only pays with many level cards and jokers
            return level_cards * 2 + jokers - 4
        return suit_len[cards[0] // 13] + 2 * len(cards)

    best = max(options, key=score)
    return best if score(best) > 0 else None
