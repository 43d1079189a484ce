"""Declaring trump during the deal (RULES.md §8, default rules)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import BJ, LJ
from .ruleset import RuleSet


class Bid(NamedTuple):
    seat: int
    card: int  # the card kind shown (level card or joker)
    count: int  # copies shown
    strength: int  # 1 single level card, 2 level pair, 3 little-joker pair, 4 big-joker pair
    trump: int | None  # the suit made trump, None for no-trump


def read_bid(seat: int, cards: Sequence[int], level_rank: int, rules: RuleSet) -> Bid:
    """Interpret shown cards as a declaration; raise ValueError saying why they cannot declare."""
    if not cards:
        raise ValueError("show at least one card")
    if any(c != cards[0] for c in cards):
        raise ValueError("show one card, or identical cards")
    card, count = cards[0], len(cards)
    if count > rules.decks:
        raise ValueError(f"at most {rules.decks} copies exist")
    if card in (LJ, BJ):
        if count < 2:
            raise ValueError("a single joker cannot declare; a joker pair declares no-trump")
        return Bid(seat, card, count, 3 if card == LJ else 4, None)
    if card % 13 + 2 != level_rank:
        raise ValueError("declare with a card of the level rank")
    return Bid(seat, card, count, count, card // 13)


def bid_reason(bid: Bid, current: Bid | None, rules: RuleSet) -> str | None:
    """Why ``bid`` may not stand over ``current``, or None when it may."""
    if current is None:
        return None
    if bid.seat == current.seat:
        if bid.card == current.card and bid.count > current.count:
            return None  # reinforcing (加固) one's own declaration
        if not rules.self_override:
            return "self_override"
    if bid.strength > current.strength:
        return None
    return "weak_declaration"
