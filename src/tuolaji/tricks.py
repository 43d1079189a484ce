"""Leading, following, throws and who wins a trick (RULES.md §3–§5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .combos import Combo, best_top, decompose, matches_fully, required_structure, structure
from .trump import TRUMP, TrumpContext


def lead_reason(cards: Sequence[int], ctx: TrumpContext) -> str | None:
    """Why a lead is malformed (before any throw check), or None."""
    if not cards:
        return "empty_play"
    e = ctx.eff[cards[0]]
    if any(ctx.eff[c] != e for c in cards):
        return "mixed_suits"
    return None


def is_sub_multiset(part: Sequence[int], whole: Counter[int] | Sequence[int]) -> bool:
    have = whole if isinstance(whole, Counter) else Counter(whole)
    need = Counter(part)
    return all(have[c] >= n for c, n in need.items())


def follow_reason(lead: Sequence[int], hand: Sequence[int], play: Sequence[int],
                  ctx: TrumpContext, lead_comps: Sequence[Combo] | None = None) -> str | None:
    """Why ``play`` is not a legal follow to ``lead`` from ``hand``, or None when it is legal.

    ``hand`` is the follower's whole hand before playing.
    """
    n = len(lead)
    if len(play) != n:
        return "wrong_count"
    if not is_sub_multiset(play, hand):
        return "not_in_hand"
    eff = ctx.eff
    e = eff[lead[0]]
    suit_hand = [c for c in hand if eff[c] == e]
    in_suit = [c for c in play if eff[c] == e]
    if len(suit_hand) <= n:
        return None if len(in_suit) == len(suit_hand) else "must_follow_suit"
    if len(in_suit) != n:
        return "must_follow_suit"
    if n == 1:
        return None
    comps = lead_comps if lead_comps is not None else decompose(lead, ctx)
    if len(comps) == n:  # all singles
        return None
    order = ctx.order
    need_chains, need_tuples = required_structure(Counter(suit_hand), comps, n, order)
    got_chains, got_tuples = structure(Counter(play), comps, order)
    if got_chains < need_chains:
        return "must_play_tractor"
    if got_chains == need_chains and got_tuples < need_tuples:
        for k_need, k_got, k in zip(need_tuples, got_tuples, _tuple_sizes(comps), strict=True):
            if k_got < k_need:
                return {2: "must_play_pair", 3: "must_play_triple"}.get(k, "must_play_quad")
    return None


def _tuple_sizes(comps: Sequence[Combo]) -> range:
    return range(max(c.k for c in comps), 1, -1)


def check_throw(cards: Sequence[int], others: Sequence[Sequence[int]],
                ctx: TrumpContext) -> tuple[bool, list[int] | None]:
    """Is a multi-combination lead safe against the other hands?

    Returns ``(True, None)`` or ``(False, forced)`` where ``forced`` is the smallest combination
    of the first (largest) shape that some other player can beat (RULES.md §3, failed throw).
    """
    comps = decompose(cards, ctx)
    if len(comps) <= 1:
        return True, None
    e = ctx.eff[cards[0]]
    eff, order = ctx.eff, ctx.order
    other_counts = [Counter(c for c in hand if eff[c] == e) for hand in others]
    seen: set[tuple[int, int]] = set()
    for comp in comps:
        if comp.shape in seen:
            continue
        seen.add(comp.shape)
        lowest = min((c for c in comps if c.shape == comp.shape), key=lambda c: c.top)
        for counts in other_counts:
            if best_top(counts, comp.k, comp.m, order) > lowest.top:
                return False, sorted(lowest.cards)
    return True, None


def trick_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext,
                 lead_comps: Sequence[Combo] | None = None) -> int:
    """Index (in play order) of the play that wins the trick; ``plays[0]`` is the lead."""
    lead = plays[0]
    eff, order = ctx.eff, ctx.order
    e = eff[lead[0]]
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
        return best
    comps = lead_comps if lead_comps is not None else decompose(lead, ctx)
    k, m = comps[0].k, comps[0].m
    best_i, best_val = 0, (0, comps[0].top)
    for i in range(1, len(plays)):
        play = plays[i]
        suits = {eff[c] for c in play}
        if len(suits) != 1:
            continue
        s = suits.pop()
        if s == e:
            tier = 0
        elif s == TRUMP:
            tier = 1
        else:
            continue
        counts = Counter(play)
        if not matches_fully(counts, comps, order):
            continue
        val = (tier, best_top(counts, k, m, order))
        if val > best_val:
            best_i, best_val = i, val
    return best_i
