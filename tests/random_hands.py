"""Random trump contexts and hands for the rule checks' property tests: half the hands are cut
from a shuffled deck, half are one effective suit only (where tractors come often)."""

from __future__ import annotations

import random

from tuolaji.cards import new_deck
from tuolaji.trump import TrumpContext


def random_trump_and_hand(
    rng: random.Random, decks: int, *, top_level: int = 14, suit_cards: int = 40
) -> tuple[TrumpContext, list[int]]:
    ctx = TrumpContext(rng.randint(2, top_level), rng.choice([None, 0, 1, 2, 3]), decks)
    deck = new_deck(decks)
    rng.shuffle(deck)
    hand = deck[: rng.randint(1, 60)]
    if rng.random() < 0.5:  # one suit only: long tractors, off-suit level cards sharing a position
        hand = [c for c in deck if ctx.eff[c] == ctx.eff[hand[0]]][: rng.randint(1, suit_cards)]
    return ctx, hand
