"""Declaration helpers shared by bots: what a seat could show that would stand."""

from __future__ import annotations

from collections import Counter

from ..cards import is_joker, is_level_card, suit_of
from ..engine.observation import Observation


def possible_declarations(obs: Observation) -> list[tuple[int, ...]]:
    """Declarations that would stand over the current bid under the round's rules."""
    return obs.declaration_options()


def best_declaration(obs: Observation) -> tuple[int, ...] | None:
    """The declaration that makes the seat's longest suit trump, if any would stand."""
    options = possible_declarations(obs)
    if not options:
        return None
    suit_len = Counter(suit_of(c) for c in obs.hand if not is_joker(c))
    level_cards = sum(1 for c in obs.hand if is_level_card(c, obs.level))
    jokers = sum(1 for c in obs.hand if is_joker(c))

    def score(cards: tuple[int, ...]) -> float:
        if all(is_joker(c) for c in cards):  # no-trump only pays with many level cards and jokers
            return level_cards * 2 + jokers - 4
        return suit_len[suit_of(cards[0])] + 2 * len(cards)

    best = max(options, key=score)
    return best if score(best) > 0 else None
