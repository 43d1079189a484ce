"""Leading, following, throws and who wins a trick (RULES.md §3–§5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from .cards import kind_counts
from .combos import Combo, beating_combo, best_top, decompose, matches_fully, required_structure, structure, tuples
from .errors import Reason
from .trump import TRUMP, TrumpContext


def lead_reason(cards: Sequence[int], ctx: TrumpContext) -> Reason | None:
    """Why a lead is malformed (before any throw check), or None."""
    if not cards:
        return Reason.EMPTY_PLAY
    eff = ctx.eff
    e = eff[cards[0]]
    for c in cards:
        if eff[c] != e:
            return Reason.MIXED_SUITS
    return None


def is_sub_multiset(part: Sequence[int], whole: Counter[int] | Sequence[int]) -> bool:
    if isinstance(whole, Counter):
        need = Counter(part)
        return all(whole[c] >= n for c, n in need.items())
    if len(part) == 1:
        return part[0] in whole
    if len(part) == 2:  # most plays of several cards are pairs (more so with three and four decks)
        a, b = part
        if a != b:
            return a in whole and b in whole
        try:
            whole.index(a, whole.index(a) + 1)
        except ValueError:
            return False
        return True
    # plays are short and hands are lists: each copy is looked for by a C-level scan from just
    # after the copy before it, which stops at the copy needed (a count scans the whole hand:
    # with three and four decks a pair's check read the hand one and a third times, now two thirds)
    after: dict[int, int] = {}
    index = whole.index
    try:
        for c in part:
            after[c] = index(c, after.get(c, -1) + 1)
    except ValueError:
        return False
    return True


def follow_reason(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int], ctx: TrumpContext, lead_comps: Sequence[Combo] | None = None
) -> Reason | None:
    """Why ``play`` is not a legal follow to ``lead`` from ``hand``, or None when it is legal.

    ``hand`` is the follower's whole hand before playing.
    """
    if len(play) != len(lead):
        return Reason.WRONG_COUNT
    if not is_sub_multiset(play, hand):
        return Reason.NOT_IN_HAND
    return follow_shape_reason(lead, hand, play, ctx, lead_comps)


def follow_shape_reason(
    lead: Sequence[int],
    hand: Sequence[int],
    play: Sequence[int],
    ctx: TrumpContext,
    lead_comps: Sequence[Combo] | None = None,
    suit_hand: Sequence[int] | None = None,
) -> Reason | None:
    """:func:`follow_reason` for a play already known to be in the hand and of the lead's size;
    ``suit_hand``: the hand's cards of the led suit, when the caller keeps them."""
    n = len(lead)
    eff = ctx.eff
    e = eff[lead[0]]
    suit_of = eff.__getitem__
    if n == 1:  # a single led: any card of the suit, or any card when the suit is out
        if eff[play[0]] == e or not (e in map(suit_of, hand) if suit_hand is None else suit_hand):
            return None
        return Reason.MUST_FOLLOW_SUIT
    in_suit = list(map(suit_of, play)).count(e)
    held = list(map(suit_of, hand)).count(e) if suit_hand is None else len(suit_hand)
    if held <= n:
        return None if in_suit == held else Reason.MUST_FOLLOW_SUIT
    if in_suit != n:
        return Reason.MUST_FOLLOW_SUIT
    comps = lead_comps if lead_comps is not None else decompose(lead, ctx)
    if len(comps) == n:  # all singles
        return None
    if n == 2 and play[0] == play[1]:  # a pair led, a pair of the suit followed: nothing more to owe
        return None
    if suit_hand is None:
        suit_hand = [c for c in hand if eff[c] == e]
    if n == 2:  # a pair led, two other cards of the suit: owed a pair if the suit holds one
        return Reason.MUST_PLAY_PAIR if len(set(suit_hand)) < len(suit_hand) else None
    if len(comps) == 1:
        if n == 3:  # a triple led (most structured leads with three and four decks)
            return _triple_follow_reason(play, suit_hand)
        if comps[0].k == 2:  # a tractor of pairs led (the next most)
            return _tractor_follow_reason(play, suit_hand, comps[0].m, ctx.order)
    key = (ctx, n, tuple(comps), tuple(suit_hand))
    need = _NEEDS.get(key)
    if need is None:
        need = _Need(required_structure(kind_counts(suit_hand), comps, n, ctx.order))
        if len(_NEEDS) >= _NEEDS_MAX:
            _NEEDS.clear()
        _NEEDS[key] = need
    played = tuple(play)
    last_play, last_reason = need.last
    if played == last_play:  # the play just checked (a random follow, checked when drawn and when played)
        return last_reason
    reason = structure_reason(played, need.structure, comps, ctx)
    need.last = (played, reason)  # one store: a bot in another thread never reads a play with another's answer
    return reason


def _triple_follow_reason(play: Sequence[int], suit_hand: Sequence[int]) -> Reason | None:
    """:func:`follow_shape_reason` for three cards of the suit following a triple: the most of
    the lead three cards can match is a triple if the suit holds one, else a pair if it holds
    one (the requirement's search gives no more), and a triple also counts as a pair."""
    a, b, c = play
    if a == b == c:
        return None
    most = max(kind_counts(suit_hand).values())
    if most > 2:
        return Reason.MUST_PLAY_TRIPLE
    if most == 2 and a != b and b != c and a != c:
        return Reason.MUST_PLAY_PAIR
    return None


def _tractor_follow_reason(play: Sequence[int], suit_hand: Sequence[int], m: int, order: Sequence[int]) -> Reason | None:
    """:func:`follow_shape_reason` for cards of the suit following a tractor of ``m`` pairs: owed
    such a tractor if the suit holds one, else as many pairs as it holds, up to ``m`` (what the
    requirement's search and the structure check give for one chain of pairs)."""
    held = kind_counts(suit_hand)
    got = kind_counts(play)
    if best_top(held, 2, m, order) >= 0:
        return None if best_top(got, 2, m, order) >= 0 else Reason.MUST_PLAY_TRACTOR
    return None if tuples(got, 2) >= min(tuples(held, 2), m) else Reason.MUST_PLAY_PAIR


Structure = tuple[tuple[bool, ...], tuple[int, ...]]


class _Need:
    """What a follower's cards of the suit must match, and the last play checked against it with
    its answer (which depends on nothing else)."""

    __slots__ = ("structure", "last")

    def __init__(self, structure: Structure) -> None:
        self.structure = structure
        self.last: tuple[tuple[int, ...] | None, Reason | None] = (None, None)


# (context, lead size, lead combinations, the follower's cards of the suit) -> what they must
# match: a random follow is checked when drawn and again when played (and the search asks the
# same again), and the requirement, a search over the cards with three or four decks, depends
# on nothing else.
_NEEDS: dict[tuple[object, ...], _Need] = {}
_NEEDS_MAX = 4096  # entries


def structure_reason(play: Sequence[int], need: Structure, comps: Sequence[Combo], ctx: TrumpContext) -> Reason | None:
    """Why an in-suit follow falls short of ``need`` (what the hand could match), or None.

    Split from :func:`follow_reason` so that checking many follows from one hand computes the
    hand's requirement once.
    """
    need_chains, need_tuples = need
    if not need_chains and len(need_tuples) == 1:  # pairs and singles led: count the pairs
        if sum([n // 2 for n in kind_counts(play).values()]) < need_tuples[0]:
            return Reason.MUST_PLAY_PAIR
        return None
    got_chains, got_tuples = structure(kind_counts(play), comps, ctx.order)
    if got_chains < need_chains:
        return Reason.MUST_PLAY_TRACTOR
    if got_chains == need_chains and got_tuples < need_tuples:
        for k_need, k_got, k in zip(need_tuples, got_tuples, _tuple_sizes(comps), strict=True):
            if k_got < k_need:
                return {2: Reason.MUST_PLAY_PAIR, 3: Reason.MUST_PLAY_TRIPLE}.get(k, Reason.MUST_PLAY_QUAD)
    return None


def _tuple_sizes(comps: Sequence[Combo]) -> range:
    return range(max(c.k for c in comps), 1, -1)


class ThrowBlock(NamedTuple):
    """Why a throw failed: what the leader must play instead, and who showed what to stop it."""

    forced: list[int]  # the smallest combination of the failing shape
    other: int  # index into ``others`` of the first hand that beats it
    beating: list[int]  # that hand's lowest combination of the shape beating ``forced``


def check_throw(cards: Sequence[int], others: Sequence[Sequence[int]], ctx: TrumpContext) -> tuple[bool, list[int] | None]:
    """Is a multi-combination lead safe against the other hands?

    Returns ``(True, None)`` or ``(False, forced)`` where ``forced`` is the smallest combination
    of the first (largest) shape that some other player can beat (RULES.md §3, failed throw).
    """
    block = throw_block(cards, others, ctx)
    return (True, None) if block is None else (False, block.forced)


def throw_block(cards: Sequence[int], others: Sequence[Sequence[int]], ctx: TrumpContext) -> ThrowBlock | None:
    """How a multi-combination lead fails against the other hands, or None if it is safe.

    ``others`` in play order after the leader: the first of them that can beat the failing shape
    is named, with the lowest combination that does.
    """
    comps = decompose(cards, ctx)
    if len(comps) <= 1:
        return None
    order = ctx.order
    in_suit = ctx.suit_sets[ctx.eff[cards[0]]].__contains__  # a C-level pass over each other hand
    other_counts: list[dict[int, int] | None] = [None] * len(others)  # counted when first asked: most throws fail at once
    lowest: dict[tuple[int, int], Combo] = {}  # per shape, largest first: its lowest combination (the first of the lowest top)
    for comp in comps:
        shape = (comp.k, comp.m)
        low = lowest.get(shape)
        if low is None or comp.top < low.top:
            lowest[shape] = comp
    for (k, m), low in lowest.items():
        for i, counts in enumerate(other_counts):
            if counts is None:
                counts = other_counts[i] = kind_counts(filter(in_suit, others[i]))
            if best_top(counts, k, m, order) > low.top:
                beating = beating_combo(counts, k, m, order, low.top)
                assert beating is not None
                return ThrowBlock(sorted(low.cards), i, beating)
    return None


def trick_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext, lead_comps: Sequence[Combo] | None = None) -> int:
    """Index (in play order) of the play that wins the trick; ``plays[0]`` is the lead."""
    return best_so_far(plays, ctx, lead_comps)[0]


Rank = tuple[int, int]  # (tier: 0 the led suit, 1 a ruff; top of the lead's leading shape)


def best_so_far(plays: Sequence[Sequence[int]], ctx: TrumpContext, lead_comps: Sequence[Combo] | None = None) -> tuple[int, Rank]:
    """The index of the play winning the trick so far, and its rank: a later play wins the
    trick exactly when its :func:`play_rank` is greater (ties go to the earlier play)."""
    lead = plays[0]
    eff, order = ctx.eff, ctx.order
    if len(lead) == 1:  # fast path: singles
        best, best_card = 0, lead[0]
        for i in range(1, len(plays)):
            c = plays[i][0]
            ec = eff[c]
            if ec == eff[best_card]:
                if order[c] > order[best_card]:
                    best, best_card = i, c
            elif ec == TRUMP:
                best, best_card = i, c
        return best, (0 if eff[best_card] == eff[lead[0]] else 1, order[best_card])
    comps = lead_comps if lead_comps is not None else decompose(lead, ctx)
    best_i, best_val = 0, (0, comps[0].top)
    for i in range(1, len(plays)):
        val = play_rank(plays[i], lead, comps, ctx)
        if val is not None and val > best_val:
            best_i, best_val = i, val
    return best_i, best_val


def play_rank(play: Sequence[int], lead: Sequence[int], comps: Sequence[Combo], ctx: TrumpContext) -> Rank | None:
    """How a follow competes for the trick, or None when it cannot win it (wrong suit, or not
    shaped like the whole lead)."""
    eff, order = ctx.eff, ctx.order
    s = eff[play[0]]
    if s == eff[lead[0]]:
        tier = 0
    elif s == TRUMP:
        tier = 1
    else:
        return None
    if len(play) == 1:
        return tier, order[play[0]]
    if len(play) == 2 and comps[0].k == 2:  # a pair led: only a pair can win
        return (tier, order[play[0]]) if play[0] == play[1] else None
    if len(comps) == 1 and comps[0].m == 1 and comps[0].k == len(play):  # a triple or quad led: only as many of one card
        return (tier, order[play[0]]) if play.count(play[0]) == len(play) else None
    if list(map(eff.__getitem__, play)).count(s) != len(play):
        return None
    counts = kind_counts(play)
    k, m = comps[0].k, comps[0].m
    if len(comps) == 1:  # one tractor led: the play holds such a tractor (all its cards) or cannot win
        top = best_top(counts, k, m, order)
        return None if top < 0 else (tier, top)
    if not matches_fully(counts, comps, order):
        return None
    return tier, best_top(counts, k, m, order)
