"""Combinations: singles, tuples (pair, triple, quad) and tractors, and how plays decompose.

A *shape* is ``(k, m)``: ``m`` consecutive ``k``-tuples (``m == 1`` is a plain tuple, ``k == 1``
a single). Shapes order largest first by ``(k, m)``, so with two decks a lead decomposes into
its longest tractors, then pairs, then singles (RULES.md §5, precise rulings).

All functions take cards of one effective suit unless they say otherwise; ``order`` from the
:class:`~tuolaji.trump.TrumpContext` is both strength and chain position.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .cards import kind_counts
from .trump import TrumpContext

Shape = tuple[int, int]


class Combo(NamedTuple):
    k: int  # cards per tuple
    m: int  # tuples in the chain
    top: int  # order of the highest tuple
    cards: tuple[int, ...]

    @property
    def shape(self) -> Shape:
        return (self.k, self.m)

    @property
    def kind(self) -> str:
        return combo_kind(self.k, self.m)


# Combo(k, m, top, cards) without the namedtuple's Python __new__ (the same object, half the cost),
# for the combinations made per card and per trump context. Typed Any: the checker reads it as
# making plain tuples.
_new_tuple: Any = tuple.__new__


def combo_kind(k: int, m: int) -> str:
    if k == 1:
        return "single"
    if m == 1:
        return _TUPLE_KINDS.get(k) or f"{k}-tuple"
    return _CHAIN_KINDS.get(k) or f"{k}-tractor"


_TUPLE_KINDS = {2: "pair", 3: "triple", 4: "quad"}
_CHAIN_KINDS = {2: "tractor", 3: "titanic"}


def _chains(avail: dict[int, list[int]]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive orders as (low, high)."""
    runs: list[tuple[int, int]] = []
    for o in sorted(avail):
        if runs and runs[-1][1] == o - 1:
            runs[-1] = (runs[-1][0], o)
        else:
            runs.append((o, o))
    return runs


def _avail(counts: Mapping[int, int], k: int, order: Sequence[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c, n in counts.items():
        if n >= k:
            out.setdefault(order[c], []).append(c)
    for cards in out.values():
        cards.sort()
    return out


_DECOMPOSED: dict[tuple[TrumpContext, tuple[int, ...]], tuple[Combo, ...]] = {}
_DECOMPOSED_MAX = 8192  # entries (a few MB at most); the search asks again and again for the same few


def decompose(cards: Iterable[int], ctx: TrumpContext) -> list[Combo]:
    """Split cards into combinations, largest shape first (chains never cross suits).

    Greedy by tuple size, then the longest (and among equals the highest) chain first. Where
    equal-order cards could serve (off-suit level pairs) the lowest card id is taken.
    Remembered per context and card sequence (contexts are shared objects; the result depends on
    the order of the cards only through ties, so the key keeps the order).
    """
    key = (ctx, tuple(cards))
    got = _DECOMPOSED.get(key)
    if got is None:
        got = tuple(_decompose(key[1], ctx))
        if len(_DECOMPOSED) >= _DECOMPOSED_MAX:
            _DECOMPOSED.clear()
        _DECOMPOSED[key] = got
    return list(got)


def single_combo(card: int, ctx: TrumpContext) -> Combo:
    """The combination of one card (shared: combinations are immutable)."""
    singles = _SINGLES.get(ctx) or _singles(ctx)
    return singles[card]


def _singles(ctx: TrumpContext) -> tuple[Combo, ...]:
    # a single is (1, 1, its order, (card,)) whatever else the context is: each is made once and
    # shared by the contexts (a new context made 54 of them, a third of its first use's cost)
    singles = _SINGLES[ctx] = tuple([_ONES.get(o << 6 | c) or _one(o, c) for c, o in enumerate(ctx.order)])
    return singles


def _one(order: int, card: int) -> Combo:
    got: Combo = _new_tuple(Combo, (1, 1, order, (card,)))
    _ONES[order << 6 | card] = got
    return got


_ONES: dict[int, Combo] = {}  # order << 6 | card -> that card's single at that order (at most 20 x 54)


_TOP = operator.itemgetter(2)  # Combo.top


_SINGLES: dict[TrumpContext, tuple[Combo, ...]] = {}  # contexts are shared objects, a few hundred at most


def _decompose(cards: Sequence[int], ctx: TrumpContext) -> list[Combo]:
    counts = kind_counts(cards)
    order = ctx.pos
    if len(counts) == 1:
        ((c, n),) = counts.items()
        return [_new_tuple(Combo, (n, 1, order[c] & 31, (c,) * n))]
    top_k = max(counts.values())
    if top_k == 1:  # singles only: highest first, equal orders in the cards' order (a stable sort)
        singles = _SINGLES.get(ctx) or _singles(ctx)
        return sorted((singles[c] for c in counts), key=_TOP, reverse=True)
    comps: list[Combo] = []
    for k in range(top_k, 1, -1):
        while True:
            avail = _avail(counts, k, order)
            if not avail:
                break
            lo, hi = max(_chains(avail), key=lambda r: (r[1] - r[0], r[1]))
            if hi == lo:
                break
            chain = [avail[o][0] for o in range(lo, hi + 1)]
            for c in chain:
                counts[c] -= k
            comps.append(_new_tuple(Combo, (k, hi - lo + 1, hi & 31, tuple([c for c in chain for _ in range(k)]))))
        # highest first, equal positions in the counts' order (reverse keeps a sort stable)
        for c in sorted(counts, key=order.__getitem__, reverse=True):
            while counts[c] >= k:
                counts[c] -= k
                comps.append(_new_tuple(Combo, (k, 1, order[c] & 31, (c,) * k)))
    for c, n in counts.items():
        comps.extend([_new_tuple(Combo, (1, 1, order[c] & 31, (c,)))] * n)  # the same combination n times
    comps.sort(key=_SHAPE_TOP, reverse=True)
    return comps


_SHAPE_TOP = operator.itemgetter(0, 1, 2)  # (Combo.k, Combo.m, Combo.top): largest shape first


# decompose() without remembering the answer, for callers that keep their own (a search's rollouts)
decompose_unkept = _decompose


def best_top(counts: Mapping[int, int], k: int, m: int, order: Sequence[int]) -> int:
    """Order of the highest ``(k, m)`` combination the cards hold, or -1 if none."""
    if k == 1:
        return max([order[c] for c, n in counts.items() if n], default=-1)  # lists: no generator's resumptions
    if m == 1:
        return max([order[c] for c, n in counts.items() if n >= k], default=-1)
    # the orders holding a k-tuple, walked run by run from each run's low end (no card lists
    # sorted as _avail makes them: only the orders count here)
    held = {order[c] for c, n in counts.items() if n >= k}
    best = -1
    for lo in held:
        if lo - 1 in held:
            continue
        hi = lo
        while hi + 1 in held:
            hi += 1
        if hi - lo + 1 >= m and hi > best:
            best = hi
    return best


def beating_combo(counts: dict[int, int], k: int, m: int, order: Sequence[int], above: int) -> list[int] | None:
    """The lowest ``(k, m)`` combination the cards hold whose top order is above ``above``
    (what a player shows to stop a throw: no more than it takes), or None if none beats it.
    Agrees with :func:`best_top`: None exactly when ``best_top(...) <= above``."""
    avail = _avail(counts, k, order)
    top: int | None = None
    for lo, hi in _chains(avail):
        first = max(lo + m - 1, above + 1)
        if first <= hi and (top is None or first < top):
            top = first
    if top is None:
        return None
    return [avail[o][0] for o in range(top - m + 1, top + 1) for _ in range(k)]


def tuples(counts: dict[int, int], k: int) -> int:
    return sum([n // k for n in counts.values()])


def needs(comps: Sequence[Combo]) -> tuple[list[Shape], list[tuple[int, int]]]:
    """What a lead asks of a follower: its chain shapes, and ``(k, tuples of size k)`` for k ≥ 2.

    A tuple of size k counts as ``k // j`` tuples of size j (a triple holds one pair).
    """
    # list comprehensions, not generators: a generator's start and resumptions cost more at these sizes
    chains = [(c.k, c.m) for c in comps if c.m > 1]
    maxk = max([c.k for c in comps], default=1)
    tuple_needs = [(k, sum([c.m * (c.k // k) for c in comps if c.k >= k])) for k in range(maxk, 1, -1)]
    return chains, tuple_needs


def _shape_needs(comps: Sequence[Combo]) -> tuple[tuple[Shape, ...], tuple[tuple[int, int], ...]]:
    """:func:`needs` as tuples, remembered by the lead's shapes (the follow checks ask it of every
    follow to a lead of tuples: its lists and sums cost more than the look-up)."""
    key = tuple([(c.k, c.m) for c in comps])
    got = _NEEDS_BY_SHAPES.get(key)
    if got is None:
        chains, tuple_needs = needs(comps)
        got = (tuple(chains), tuple(tuple_needs))
        if len(_NEEDS_BY_SHAPES) >= _NEEDS_BY_SHAPES_MAX:
            _NEEDS_BY_SHAPES.clear()
        _NEEDS_BY_SHAPES[key] = got
    return got


_NEEDS_BY_SHAPES: dict[tuple[Shape, ...], tuple[tuple[Shape, ...], tuple[tuple[int, int], ...]]] = {}
_NEEDS_BY_SHAPES_MAX = 4096  # entries


def embed_chains(counts: dict[int, int], chains: Sequence[Shape], order: Sequence[int]) -> tuple[bool, ...]:
    """The lexicographically best set of the lead's chains that fit, disjointly, in the cards.

    Chains are tried longest first; a longer chain in the cards may be split to serve shorter
    ones. Returns one flag per chain (True where it is matched).
    """
    if not chains:
        return ()
    if len(chains) == 1:  # one chain fits where the cards hold a run as long (no placements listed)
        k, m = chains[0]
        return (best_top(counts, k, m, order) >= 0,)
    caps = dict(counts)
    return _embed(caps, list(chains), 0, order)


def _placements(caps: dict[int, int], k: int, m: int, order: Sequence[int]) -> list[list[int]]:
    avail = _avail(caps, k, order)
    out: list[list[int]] = []
    for lo, hi in _chains(avail):
        for start in range(lo, hi - m + 2):
            options: list[list[int]] = [[]]
            for o in range(start, start + m):
                options = [p + [c] for p in options for c in avail[o]]
            out.extend(options)
    return out


def _embed(caps: dict[int, int], chains: list[Shape], i: int, order: Sequence[int]) -> tuple[bool, ...]:
    if i == len(chains):
        return ()
    k, m = chains[i]
    best: tuple[bool, ...] | None = None
    full = len(chains) - i
    for placement in _placements(caps, k, m, order):
        for c in placement:
            caps[c] -= k
        cand = (True,) + _embed(caps, chains, i + 1, order)
        for c in placement:
            caps[c] += k
        if best is None or cand > best:
            best = cand
            if sum(best) == full:
                break
    if best is None:
        best = (False,) + _embed(caps, chains, i + 1, order)
    return best


def structure(counts: dict[int, int], comps: Sequence[Combo], order: Sequence[int]) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """How much of a lead's structure some cards match: chains, then tuple counts (capped)."""
    chains, tuple_needs = _shape_needs(comps)
    return (
        embed_chains(counts, chains, order),
        tuple([min(tuples(counts, k), need) for k, need in tuple_needs]),
    )


def required_structure(
    counts: dict[int, int], comps: Sequence[Combo], n: int, order: Sequence[int]
) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """The most of a lead's structure that some ``n`` of the follower's suit cards can match.

    Chains first (lexicographically, longest first), then tuples by size, largest first. With
    two decks the tuple part is simply the capped pair count; with more decks a triple also
    counts as a pair, so the best choice of ``n`` cards is found by a small search that keeps
    the chosen chains, which guarantees that some play always meets the requirement.
    """
    chains, tuple_needs = _shape_needs(comps)
    best_chains = embed_chains(counts, chains, order)
    if not tuple_needs or tuple_needs[0][0] == 2:  # (sizes largest first: only pairs asked)
        # Only pairs asked: every pair the hand holds can be played (the lead's pairs fit in its
        # n cards), the chains' own included, so the capped pair count is the answer.
        return best_chains, tuple([min(tuples(counts, k), need) for k, need in tuple_needs])
    chosen = [c for c, ok in zip(chains, best_chains, strict=True) if ok]
    # No placement of the chains can beat the best n cards chosen freely: stop once one reaches it.
    ceiling = _free_best_tuples(counts, n, tuple_needs)
    if not chosen:
        return best_chains, ceiling
    best: tuple[int, ...] | None = None
    tried: set[tuple[int, ...]] = set()
    for used in _chain_choices(dict(counts), chosen, order):
        key = tuple(sorted(used))
        if key in tried:  # the same cards placed in another order
            continue
        tried.add(key)
        fixed: dict[int, int] = {}
        rest = dict(counts)
        for c in used:
            fixed[c] = fixed.get(c, 0) + 1
            rest[c] -= 1
        if sum(rest.values()) < n - len(used):
            continue
        cand = _best_tuples(fixed, rest, n - len(used), tuple_needs)
        if best is None or cand > best:
            best = cand
            if best == ceiling:
                break
    assert best is not None
    return best_chains, best


def _chain_choices(caps: dict[int, int], chains: list[Shape], order: Sequence[int]) -> list[list[int]]:
    """Every way (as card lists) to place all of ``chains`` disjointly in the cards."""
    if not chains:
        return [[]]
    k, m = chains[0]
    out: list[list[int]] = []
    for placement in _placements(caps, k, m, order):
        for c in placement:
            caps[c] -= k
        for rest in _chain_choices(caps, chains[1:], order):
            out.append([c for c in placement for _ in range(k)] + rest)
        for c in placement:
            caps[c] += k
        if len(out) > 64:  # enough alternatives to find the best tuples; keeps this bounded
            break
    return out


def _free_best_tuples(counts: dict[int, int], r: int, tuple_needs: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """``_best_tuples({}, counts, r, tuple_needs)``, remembered: with nothing fixed the answer
    depends only on how many copies each kind has (at most ``r`` count), not on which kinds, and
    a kind with fewer copies than the smallest tuple adds nothing; so the few count patterns of a
    suit serve every hand (a follow to a triple or a quad, with three and four decks, is such a
    search per hand). ``tuple_needs`` as :func:`needs` lists them, sizes largest first."""
    if not tuple_needs:
        return ()
    least = tuple_needs[-1][0]
    key = (r, *tuple_needs, *sorted([n if n < r else r for n in counts.values() if n >= least]))
    got = _FREE_BEST.get(key)
    if got is None:
        got = _best_tuples({}, counts, r, tuple_needs)
        if len(_FREE_BEST) >= _FREE_BEST_MAX:
            _FREE_BEST.clear()
        _FREE_BEST[key] = got
    return got


_FREE_BEST: dict[tuple[object, ...], tuple[int, ...]] = {}
_FREE_BEST_MAX = 4096  # entries


def _best_tuples(fixed: dict[int, int], rest: dict[int, int], r: int, tuple_needs: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Lexicographically best capped tuple counts of ``fixed`` plus at most ``r`` more cards of
    ``rest`` (exactly ``r`` gives the same: more cards never lose a tuple, and ``rest`` has them).

    A dynamic programme over card kinds whose states are the capped tuple counts so far, each
    with the fewest extra cards that reach it (at most the product of the caps plus one: a few
    hundred). Taking a kind to a total that completes no new tuple is never useful, so each
    kind has at most one choice per tuple size.
    """
    sizes = [k for k, _ in tuple_needs]
    caps = tuple(need for _, need in tuple_needs)
    got0 = [0] * len(sizes)
    options: list[list[tuple[int, tuple[int, ...]]]] = []  # per kind: (extra cards, tuples gained)
    made: dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]] = {}  # (held, most) -> steps: kinds alike share them
    for card in set(rest) | set(fixed):
        base = fixed.get(card, 0)
        top = base + min(rest.get(card, 0), r)
        if base:
            for i, k in enumerate(sizes):
                got0[i] += base // k
        steps = made.get((base, top))
        if steps is None:
            steps = made[base, top] = [
                (t - base, tuple([t // k - base // k for k in sizes]))
                for t in range(base + 1, top + 1)
                if any([t % k == 0 for k in sizes])
            ]
        if steps:
            options.append(steps)
    states: dict[tuple[int, ...], int] = {tuple([min(g, cap) for g, cap in zip(got0, caps, strict=True)]): 0}
    moved: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}  # (state, gain) -> capped state
    for steps in options:
        nxt = dict(states)
        for got, used in states.items():
            for extra, gain in steps:
                u = used + extra
                if u > r:
                    break
                g = moved.get((got, gain))
                if g is None:
                    g = moved[got, gain] = tuple([min(a + b, cap) for a, b, cap in zip(got, gain, caps, strict=True)])
                if nxt.get(g, r + 1) > u:
                    nxt[g] = u
        states = nxt
    return max(states)


def matches_fully(counts: dict[int, int], comps: Sequence[Combo], order: Sequence[int]) -> bool:
    """Can the cards be arranged into the lead's whole structure (a valid ruff or beat)?

    Every chain and tuple of the lead must find its own cards at once (a larger tuple may serve
    a smaller one; leftover cards fill the singles).
    """
    shapes = [c.shape for c in comps if c.k >= 2]
    if not shapes:
        return True
    _, tuple_needs = _shape_needs(comps)
    if any(tuples(counts, k) < need for k, need in tuple_needs):
        return False
    return all(embed_chains(counts, shapes, order))
