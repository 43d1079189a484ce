"""Declaring trump during the deal (RULES.md §8) and every declaring variant in the rule set.

A bid's ``key`` orders declarations: a later bid stands only with a strictly greater key.
Level cards shown n at a time have strength n; a little-joker pair 10 + n, a big-joker pair
20 + n, so any joker pair beats any level-card bid and big beats little. With suit-order
overrides (seed 004) pairs of equal strength are further ordered ♠ > ♥ > ♣ > ♦.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import BJ, LJ, POINTS, LevelRank, is_joker, is_level_card, is_red, kind_counts, suit_of
from .errors import IllegalAction, Reason
from .ruleset import DeclareStyle, RuleSet

_JOKER_BACKED = DeclareStyle.JOKER_BACKED  # a global read is cheaper than an enum class attribute
SUIT_RANK = (4, 3, 2, 1)  # ♠ > ♥ > ♣ > ♦ for suit-order overrides (seed 004)


def redeal_refusal(hand: Sequence[int], level: LevelRank, rules: RuleSet) -> IllegalAction | None:
    """Why an attacker holding ``hand`` may not ask for a redeal at the last call, or None.

    暴动 (seed 000 C, ``redeal_request``): at most ``redeal_request_max_points`` points in hand; the
    table rule ``redeal_no_trump``: no joker and no level card. With both, either reason is enough.
    """
    if not (rules.redeal_request or rules.redeal_no_trump):
        return IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_OFF)
    if rules.redeal_no_trump and not any(is_joker(c) or is_level_card(c, level) for c in hand):
        return None
    if not rules.redeal_request:
        return IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_TRUMPS)
    pts = sum(POINTS[c] for c in hand)
    if pts > rules.redeal_request_max_points:
        return IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_POINTS, pts=pts, most=rules.redeal_request_max_points)
    return None


class Bid(NamedTuple):
    seat: int
    card: int  # the card kind shown (level card or joker)
    copies: int  # copies of ``card`` shown
    strength: int
    trump: int | None  # the suit made trump, None for no-trump
    joker: int | None = None  # the backing joker shown with level cards (joker-backed style)

    @property
    def cards(self) -> tuple[int, ...]:
        return (self.card,) * self.copies + (() if self.joker is None else (self.joker,))


# Bid(...) without the namedtuple's Python __new__ (the same object, half the cost), for the
# candidates tried during the deal. Typed Any: the checker reads it as making plain tuples.
_new_tuple: Any = tuple.__new__


def read_bid(seat: int, cards: Sequence[int], level_rank: LevelRank, rules: RuleSet) -> Bid:
    """Interpret shown cards as a declaration; raise IllegalAction (``bad_declaration``, a ValueError)
    saying why they cannot declare."""
    if not cards:
        raise _refused(Reason.DECLARE_NOTHING)
    jokers = [c for c in cards if is_joker(c)]
    plain = [c for c in cards if not is_joker(c)]
    if not plain:  # a joker pair (or more) declares no-trump
        if any(c != jokers[0] for c in jokers):
            raise _refused(Reason.DECLARE_MIXED_JOKERS)
        if len(jokers) < 2:
            raise _refused(Reason.DECLARE_SINGLE_JOKER)
        if len(jokers) > rules.decks:
            raise _refused(Reason.DECLARE_COPIES, decks=rules.decks)
        card = jokers[0]
        return Bid(seat, card, len(jokers), (10 if card == LJ else 20) + len(jokers), None)
    if any(c != plain[0] for c in plain):
        raise _refused(Reason.DECLARE_MIXED)
    card, count = plain[0], len(plain)
    if not is_level_card(card, level_rank):
        raise _refused(Reason.DECLARE_NOT_LEVEL)
    if count > rules.decks:
        raise _refused(Reason.DECLARE_COPIES, decks=rules.decks)
    suit = suit_of(card)
    joker: int | None = None
    if rules.declare_style == DeclareStyle.JOKER_BACKED:
        need = BJ if is_red(suit) else LJ  # big joker backs red suits, little joker black
        if jokers != [need]:
            raise _refused(Reason.DECLARE_WITH_BIG_JOKER if need == BJ else Reason.DECLARE_WITH_SMALL_JOKER)
        joker = need
    elif jokers:
        raise _refused(Reason.DECLARE_JOKERS_PAIR)
    return Bid(seat, card, count, count, suit, joker)


def _refused(why: Reason, **fields: object) -> IllegalAction:
    return IllegalAction(Reason.BAD_DECLARATION, why=why, **fields)


def shown_cards(seat: int, cards: Sequence[int], current: Bid | None) -> list[int]:
    """The whole declaration a seat makes by showing ``cards``.

    A declarer who shows one more copy of the declared card reinforces (自保/加固, seed 002):
    the declaration is then everything shown so far. Showing the whole pair again means the same.
    """
    if (
        current is not None
        and seat == current.seat
        and current.trump is not None
        and 0 < len(cards) <= current.copies
        and list(cards) == [current.card] * len(cards)
    ):
        return list(current.cards) + list(cards)
    return list(cards)


def _key(bid: Bid, rules: RuleSet) -> tuple[int, int]:
    if rules.suit_order_overrides and bid.trump is not None and bid.copies >= 2:
        return (bid.strength, SUIT_RANK[bid.trump])
    return (bid.strength, 0)


def bid_reason(bid: Bid, current: Bid | None, rules: RuleSet, *, after_bury: bool = False) -> Reason | None:
    """Why ``bid`` may not stand over ``current``, or None when it may. ``after_bury``: an
    override of the trump fixed at the bury (反主炒底), which may be a kitty-chosen trump."""
    if current is None:
        if bid.trump is None and not rules.jokers_declare_first and not after_bury:
            return Reason.JOKER_DECLARES_FIRST  # 常主不可進行報主 (seed 000 C, 004): jokers only override
        return None
    if bid.seat == current.seat:
        if bid.card == current.card and bid.copies > current.copies:
            return None  # reinforcing (加固/自保) one's own declaration
        if not rules.self_override:
            return Reason.SELF_OVERRIDE
    if rules.pair_locks and current.copies >= 2 and current.trump is not None and bid.trump is not None:
        return Reason.DECLARATION_LOCKED  # 定主: a declared pair stands against every level-card bid
    if bid.strength != current.strength:  # the keys' first parts differ: they decide (no key made)
        if bid.strength > current.strength:
            return None
    elif _key(bid, rules) > _key(current, rules):
        return None
    if (
        bid.seat == current.seat
        and bid.trump is not None
        and current.trump not in (None, bid.trump)
        and bid.copies >= 2
        and bid.strength >= current.strength
    ):
        return None  # 自反 (seed 002): after 自保, the declarer's pair of another suit makes it trump
    return Reason.WEAK_DECLARATION


def is_override_bid(bid: Bid) -> bool:
    """After the bury (反主炒底) only pairs of level cards or jokers may override."""
    return bid.copies >= 2


def options(
    seat: int, hand: Sequence[int], level_rank: LevelRank, current: Bid | None, rules: RuleSet, *, pairs_only: bool = False
) -> list[tuple[int, ...]]:
    """Every declaration ``seat`` could show from ``hand`` that would stand over ``current``."""
    return options_from_counts(seat, declaring_counts(hand, level_rank), level_rank, current, rules, pairs_only=pairs_only)


def declaring_kinds(level_rank: LevelRank) -> tuple[int, ...]:
    """The card kinds that may declare at ``level_rank``: the four level cards and the jokers."""
    return (level_rank - 2, level_rank + 11, level_rank + 24, level_rank + 37, LJ, BJ)


def declaring_counts(hand: Sequence[int], level_rank: LevelRank) -> dict[int, int]:
    """How many of each declaring kind ``hand`` holds, in the order the hand first shows them
    (the order the options come in); a card appended to the hand goes last if it is new."""
    # Only level cards and jokers declare: one C-level pass keeps those six kinds and counts them
    # in the order met (a scan of the hand per kind: about five times the time for a four-deck hand).
    kinds = DECLARING_SETS.get(level_rank) or frozenset(declaring_kinds(level_rank))
    return kind_counts(filter(kinds.__contains__, hand))


# per level, the kinds that declare as a set (for C-level membership tests over a hand)
DECLARING_SETS = {level: frozenset(declaring_kinds(LevelRank(level))) for level in range(2, 16)}


def options_from_counts(
    seat: int, counts: dict[int, int], level_rank: LevelRank, current: Bid | None, rules: RuleSet, *, pairs_only: bool = False
) -> list[tuple[int, ...]]:
    """:func:`options` for a hand given by its :func:`declaring_counts`."""
    # Each candidate is what read_bid would read (copies beyond the decks refused), in the order
    # its candidates came: per kind as the hand shows them, fewest copies first. A kind's
    # candidates that stand are those from its first standing number of copies up (see
    # _first_standing), which does not depend on the hand: a card dealt only lengthens a list.
    firsts = _first_standing(seat, level_rank, current, rules, pairs_only)
    decks = rules.decks
    out: list[tuple[int, ...]] = []
    for card, n in counts.items():
        if card in firsts:
            k = firsts[card]
        else:
            k = firsts[card] = _first_copies(card, seat, level_rank, current, rules, pairs_only)
        if k is None or k > n:
            continue
        top = min(n, decks)
        if card >= LJ or rules.declare_style != _JOKER_BACKED:
            out.extend([(card,) * j for j in range(k, top + 1)])
        else:
            joker = BJ if is_red(card // 13) else LJ  # big joker backs red suits, little joker black
            if counts.get(joker):
                out.extend([(card,) * j + (joker,) for j in range(k, top + 1)])
    return out


def _first_standing(
    seat: int, level_rank: LevelRank, current: Bid | None, rules: RuleSet, pairs_only: bool
) -> dict[int, int | None]:
    """Per card kind asked so far, the fewest copies of it ``seat`` could declare with over
    ``current`` (None: no number of copies): shared by every hand asking the same.

    The answers depend on the seat only through whether it made ``current`` (see _first_copies
    and bid_reason), so the other seats share one table: with more decks there are more bids,
    and each bid has every seat's kinds tried again. For the same reason the standing bid is
    keyed without its seat: the same bid made by another seat (in this round or another) is
    answered by the same tables.
    """
    if current is None:
        key: tuple[object, ...] = (id(rules), False, level_rank, None, pairs_only)
    else:
        key = (id(rules), current.seat == seat, level_rank, current[1:], pairs_only)
    known = _FIRSTS.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    if len(_FIRSTS) >= 4096:
        _FIRSTS.clear()
    firsts: dict[int, int | None] = {}
    _FIRSTS[key] = (rules, firsts)
    return firsts


# (rules id, the asking seat made the standing bid, level, standing bid less its seat, pairs only) -> first
# standing copies per kind; the rule set itself is kept in the value, so a recycled id never
# answers for another rule set.
_FIRSTS: dict[tuple[object, ...], tuple[RuleSet, dict[int, int | None]]] = {}


def _first_copies(
    card: int, seat: int, level_rank: LevelRank, current: Bid | None, rules: RuleSet, pairs_only: bool
) -> int | None:
    """The fewest copies of ``card`` that declare and stand over ``current``, or None.

    A bid that stands with k copies of a card stands with more: every test in bid_reason either
    ignores the copies or is passed by more of them (reinforcing: more than shown; the key:
    strength grows with the copies, and from two copies on the suit order counts; 自反: two or
    more, strength at least). Over another seat's bid only the key can let a bid stand, so
    strengths below the standing bid's are not tried.
    """
    weaker = 0 if current is None or current.seat == seat else current.strength
    decks = rules.decks
    if card >= LJ:  # a joker pair or more declares no-trump
        base = 10 if card == LJ else 20
        for k in range(max(2, weaker - base), decks + 1):
            if bid_reason(_new_tuple(Bid, (seat, card, k, base + k, None, None)), current, rules, after_bury=pairs_only) is None:
                return k
        return None
    if not is_level_card(card, level_rank):
        return None
    suit = card // 13
    joker = None
    if rules.declare_style == _JOKER_BACKED:
        joker = BJ if is_red(suit) else LJ
    for k in range(max(2 if pairs_only else 1, weaker), decks + 1):
        if bid_reason(_new_tuple(Bid, (seat, card, k, k, suit, joker)), current, rules, after_bury=pairs_only) is None:
            return k
    return None
