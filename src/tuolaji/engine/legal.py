"""The legal-action API for bots and hints: enumerate, count, contains, and sample.

Leads are any non-empty set of cards of one effective suit (a multi-combination lead is a
throw attempt, which the engine then checks), so their number is counted by formula and
enumerated lazily. Follows are enumerated as multisets (a card held twice is one choice).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain, repeat, starmap

from ..cards import NUM_KINDS, ONE_CARD, kind_counts
from ..combos import Combo, _avail, _chains, _shape_needs, decompose
from ..ruleset import FriendCall
from ..tricks import follow_reason, follow_shape_reason
from ..trump import TrumpContext
from .actions import Action, Bury, CallFriend, Declare, Pass, Play, Redeal, Surrender, SurrenderAnswer
from .round import Phase, Round

_RANDOM = random.Random


def _choice(rng: random.Random, seq: Sequence[int]) -> int:
    """``rng.choice(seq)`` (``seq`` not empty). For a plain ``random.Random`` its ``_randbelow``
    is written out (the same in 3.11 to 3.13): the same getrandbits draws, without the method
    calls; any other generator draws through its own ``choice``."""
    if type(rng) is not _RANDOM:
        return rng.choice(seq)
    n = len(seq)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def _sample(rng: random.Random, pop: Sequence[int], k: int) -> list[int]:
    """``rng.sample(pop, k)``, written out for a plain ``random.Random`` and ``0 < k <= 5``
    (``sample``'s small sizes, the same in 3.11 to 3.13): a pool it draws from by swapping for at
    most 21 cards, else indices redrawn until new. Any other size goes to ``rng.sample`` (which
    refuses more cards than there are)."""
    n = len(pop)
    if type(rng) is not _RANDOM or not 0 < k <= 5 or k > n:
        return rng.sample(pop, k)
    getrandbits = rng.getrandbits
    if k == 1 or n > 21:
        b = n.bit_length()
        chosen: list[int] = []
        for _ in range(k):
            j = getrandbits(b)
            while j >= n or j in chosen:
                j = getrandbits(b)
            chosen.append(j)
        return [pop[j] for j in chosen]
    pool = list(pop)
    out: list[int] = []
    for m in range(n, n - k, -1):
        b = m.bit_length()
        j = getrandbits(b)
        while j >= m:
            j = getrandbits(b)
        out.append(pool[j])
        pool[j] = pool[m - 1]
    return out


def _items(cards: Sequence[int]) -> list[tuple[int, int]]:
    return sorted(Counter(cards).items())


def submultisets(items: Sequence[tuple[int, int]], r: int) -> Iterator[tuple[int, ...]]:
    """All sub-multisets of size ``r`` of ``items`` [(card, count)], each once.

    Order: the first item's copies from most to fewest, then the next item's, and so on. Up to
    ``EAGER_LIMIT`` choices they are built at once, sharing every suffix (no generator chain per
    choice); beyond that they are produced lazily, in the same order.
    """
    if count_submultisets(items, r) <= EAGER_LIMIT:
        return iter(_all_submultisets(items, r))
    return _lazy_submultisets(items, r)


EAGER_LIMIT = 4096


def all_submultisets(items: Sequence[tuple[int, int]], r: int) -> list[tuple[int, ...]]:
    """:func:`submultisets` as a list, for a caller that has counted them and found them few."""
    return _all_submultisets(items, r)


def _all_submultisets(items: Sequence[tuple[int, int]], r: int) -> list[tuple[int, ...]]:
    n = len(items)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]
    return _listed(items, suffix, {}, 0, r)


def _listed(
    items: Sequence[tuple[int, int]], suffix: list[int], memo: dict[tuple[int, int], list[tuple[int, ...]]], i: int, r: int
) -> list[tuple[int, ...]]:
    """The choices of ``r`` cards from ``items[i:]``, each suffix listed once (``memo``). A module
    function, not a closure: a closure that calls itself is a cycle only the collector frees."""
    if r == 0:
        return [()]
    if suffix[i] < r:
        return []
    got = memo.get((i, r))
    if got is None:
        card, cnt = items[i]
        got = []
        for take in range(min(cnt, r), -1, -1):
            head = (card,) * take
            got += [head + rest for rest in _listed(items, suffix, memo, i + 1, r - take)]
        memo[i, r] = got
    return got


def _lazy_submultisets(items: Sequence[tuple[int, int]], r: int) -> Iterator[tuple[int, ...]]:
    suffix = [0] * (len(items) + 1)  # cards left from item i on
    for i in range(len(items) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]

    def rec(i: int, r: int) -> Iterator[tuple[int, ...]]:
        if r == 0:
            yield ()
            return
        if suffix[i] < r:
            return
        card, cnt = items[i]
        for take in range(min(cnt, r), -1, -1):
            head = (card,) * take
            for rest in rec(i + 1, r - take):
                yield head + rest

    return rec(0, r)


def count_submultisets(items: Sequence[tuple[int, int]], r: int) -> int:
    ways = [1] + [0] * r
    for _, cnt in items:
        new = [0] * (r + 1)
        for total in range(r + 1):
            if ways[total]:
                for take in range(min(cnt, r - total) + 1):
                    new[total + take] += ways[total]
        ways = new
    return ways[r]


def legal_plays(rnd: Round, seat: int) -> Iterator[tuple[int, ...]]:
    """Every play ``seat`` may make now (as sorted tuples), or nothing if it is not their turn."""
    if rnd.phase != Phase.PLAY or rnd.turn != seat:
        return
    assert rnd.ctx is not None and rnd.trick is not None
    hand = rnd.hands[seat]
    ctx = rnd.ctx
    if not rnd.trick.plays:
        for cards in ctx.by_suit(hand).values():
            items = _items(cards)
            for size in range(1, len(cards) + 1):
                yield from submultisets(items, size)
        return
    lead = rnd.trick.plays[0]
    n = len(lead)
    e = ctx.eff[lead[0]]
    suit = [c for c in hand if ctx.eff[c] == e]
    if len(suit) <= n:
        rest = [c for c in hand if ctx.eff[c] != e]
        base = tuple(sorted(suit))
        for extra in submultisets(_items(rest), n - len(suit)):
            yield tuple(sorted(base + extra))
        return
    comps = rnd.trick.lead_comps
    for cand in submultisets(_items(suit), n):
        if n == 1 or follow_reason(lead, hand, cand, ctx, comps) is None:
            yield cand


def count_legal_plays(rnd: Round, seat: int) -> int:
    if rnd.phase != Phase.PLAY or rnd.turn != seat:
        return 0
    assert rnd.ctx is not None and rnd.trick is not None
    hand = rnd.hands[seat]
    ctx = rnd.ctx
    if not rnd.trick.plays:
        total = 0
        for cards in ctx.by_suit(hand).values():
            ways = 1
            for _, cnt in _items(cards):
                ways *= cnt + 1
            total += ways - 1
        return total
    lead = rnd.trick.plays[0]
    n = len(lead)
    e = ctx.eff[lead[0]]
    suit = [c for c in hand if ctx.eff[c] == e]
    if len(suit) <= n:
        return count_submultisets(_items([c for c in hand if ctx.eff[c] != e]), n - len(suit))
    return sum(1 for _ in legal_plays(rnd, seat))


def is_legal(rnd: Round, action: Action) -> bool:
    try:
        rnd.check(action)
    except ValueError:
        return False
    return True


def legal_actions(rnd: Round, seat: int) -> Iterator[Action]:
    """Every action ``seat`` may take now (not the deal itself). Burying yields every choice of
    cards (many); calling a friend yields every card."""
    phase = rnd.phase
    if phase == Phase.DEAL or (phase in (Phase.DECLARE, Phase.OVERRIDE) and rnd.turn == seat):
        if phase != Phase.DEAL:
            yield Pass(seat)
        if phase == Phase.DECLARE and is_legal(rnd, Redeal(seat)):
            yield Redeal(seat)
        for cards in declaration_options(rnd, seat):
            yield Declare(seat, cards)
    elif phase == Phase.BURY and seat == rnd.turn:
        for cards in submultisets(_items(rnd.hands[seat]), rnd.kitty_size):
            yield Bury(seat, cards)
    elif phase == Phase.CALL_FRIEND and seat == rnd.turn:
        copies = range(1, rnd.rules.decks + 1) if rnd.rules.friend_call == FriendCall.NTH_PLAYED else (0,)
        for card in range(NUM_KINDS):
            for nth in copies:
                if (card, nth) not in rnd.friend_calls:
                    yield CallFriend(seat, card, nth)
    elif phase == Phase.SURRENDER and seat == rnd.turn:
        yield SurrenderAnswer(seat, True)
        yield SurrenderAnswer(seat, False)
    elif phase == Phase.PLAY:
        if rnd.surrender_refusal(seat) is None:
            yield Surrender(seat)
        for cards in legal_plays(rnd, seat):
            yield Play(seat, cards)


# Declarations ``seat`` could make now that would stand: ``declaration_options(rnd, seat)``, the
# round's own method (polled after every card dealt: no call in between).
declaration_options = Round.declaration_options


# ------------------------------------------------------------------ for bots and sampling
def lead_combos(hand: Sequence[int], ctx: TrumpContext, *, singles: bool = True) -> list[tuple[int, ...]]:
    """Every single-combination lead: singles, tuples and tractors (every sub-chain)."""
    counts = kind_counts(hand)
    out: list[tuple[int, ...]] = []
    for card, cnt in counts.items():
        for k in range(1 if singles else 2, cnt + 1):
            out.append((card,) * k)
    out.extend(_chain_leads(counts, ctx))
    return out


def _chain_avail(counts: dict[int, int], ctx: TrumpContext) -> list[tuple[int, dict[int, list[int]]]]:
    """Per tuple size k that can chain, the kinds holding k copies by chain position (sorted), as
    :func:`lead_combos` walks them; only positions next to another (a position alone starts and
    ends no chain). Read only: a list may serve two sizes."""
    found: list[tuple[int, dict[int, list[int]]]] = []
    if sum(counts.values()) - len(counts) < 2:  # not two kinds holding two copies: no chain (most hands late in a round)
        return found
    pos = ctx.pos
    avail: dict[int, list[int]] = {}  # the kinds holding two copies or more, by position, in the counts' order
    for c, n in counts.items():  # a loop: no comprehension's call
        if n >= 2:
            got = avail.get(pos[c])
            if got is None:
                avail[pos[c]] = [c]
            else:
                got.append(c)
    k = 2
    while True:
        linked: dict[int, list[int]] = {}
        for p, cards in avail.items():
            if p + 1 in avail or p - 1 in avail:
                linked[p] = cards
                if len(cards) > 1:
                    cards.sort()
        if not linked:  # no two positions touch: fewer kinds hold more copies, none touch then either
            return found
        found.append((k, linked))
        k += 1
        # a position linked at k copies is linked at k - 1: only those are looked at again
        avail = {}
        for p, cards in linked.items():
            if len(cards) == 1:  # most positions hold one kind (several: off-suit level cards in trump)
                if counts[cards[0]] >= k:
                    avail[p] = cards
            else:
                more = [c for c in cards if counts[c] >= k]  # a sorted list's order kept
                if more:
                    avail[p] = more


def _chain_leads(counts: dict[int, int], ctx: TrumpContext) -> list[tuple[int, ...]]:
    """The tractor part of :func:`lead_combos` (after the singles and tuples), in its order."""
    out: list[tuple[int, ...]] = []
    for k, avail in _chain_avail(counts, ctx):
        for lo, hi in _chains(avail):
            for start in range(lo, hi):
                for end in range(start + 1, hi + 1):
                    options: list[tuple[int, ...]] = [()]
                    for o in range(start, end + 1):
                        options = [p + (c,) * k for p in options for c in avail[o]]
                    out.extend(options)
    return out


def _sub_chains(counts: dict[int, int], ctx: TrumpContext) -> list[tuple[int, dict[int, list[int]], int, int, int]]:
    """``(k, avail, start, end, ways)`` for every sub-chain :func:`_chain_leads` lists, in its
    order: ``ways`` leads, the product of its positions' choices."""
    subs: list[tuple[int, dict[int, list[int]], int, int, int]] = []
    for k, avail in _chain_avail(counts, ctx):
        for lo, hi in _chains(avail):
            for start in range(lo, hi):
                ways = len(avail[start])
                for end in range(start + 1, hi + 1):
                    ways *= len(avail[end])
                    subs.append((k, avail, start, end, ways))
    return subs


def _random_lead(hand: Sequence[int], ctx: TrumpContext, rng: random.Random) -> tuple[int, ...]:
    """``rng.choice(lead_combos(hand, ctx))`` without listing them: the same draw from the random
    stream (a choice by the list's length) and the same lead."""
    counts = kind_counts(hand)
    n = len(hand)
    # the tractors are counted without listing them (few draws land on one: about one lead in a
    # hundred with four decks), and listed only when the draw does
    chained = _chained_count(counts, ctx) if n - len(counts) > 1 else 0
    # rng.choice(range(m)): the singles and tuples part holds len(hand) leads
    m = n + chained
    if type(rng) is _RANDOM:  # written out as in random_play: the same draws, no range and no calls
        getrandbits = rng.getrandbits
        k = m.bit_length()
        i = getrandbits(k)
        while i >= m:
            i = getrandbits(k)
    else:
        i = rng.choice(range(m))
    if i < n:
        if len(counts) == n:  # every card a kind of its own: the counts list the hand's order
            return ONE_CARD[hand[i]]
        for card, cnt in counts.items():
            if i < cnt:
                return ONE_CARD[card] if i == 0 else (card,) * (i + 1)
            i -= cnt
    i -= n
    for k, avail, start, end, ways in _sub_chains(counts, ctx):
        if i < ways:  # the i-th choice, the first position varying slowest
            picked: list[int] = []
            for o in range(end, start - 1, -1):
                i, r = divmod(i, len(avail[o]))
                picked.append(avail[o][r])
            return tuple(c for c in reversed(picked) for _ in range(k))
        i -= ways
    raise AssertionError("drawn past the leads")  # pragma: no cover


def _chained_count(counts: dict[int, int], ctx: TrumpContext) -> int:
    """How many tractor leads :func:`_sub_chains` lists (the sum of its ``ways``), without listing
    them. Per tuple size, the positions holding it are the bits of one int; the sub-chains of two
    positions or more are the bits set in ``held & held >> 1`` (two touching positions), then in
    that and itself shifted once more (three), and so on: bit counts, no loop over positions."""
    bit = ctx.pos_bit
    held = dups = 0
    deep: list[int] = []  # the kinds held three times or more
    for c, m in counts.items():
        if m > 1:
            held |= bit[c]
            dups += 1
            if m > 2:
                deep.append(c)
    touch = held & held >> 1
    if not touch:  # no two positions touch: no tractor
        return 0
    if dups != held.bit_count():  # kinds sharing a position (off-suit level cards): a choice each
        return _shared_chained_count(counts, ctx)
    total = 0
    k = 2
    while touch:
        while touch:
            total += touch.bit_count()
            touch &= touch >> 1
        k += 1
        held = 0
        for c in deep:
            if counts[c] >= k:
                held |= bit[c]
        touch = held & held >> 1
    return total


# A kind held m times adds one to each of the nibbles 0 .. m - 2 of its chain position's entry:
# nibble j counts the kinds there held j + 2 times or more (at most three kinds share a position).
_TIERS = tuple(sum(16**j for j in range(m - 1)) for m in range(65))


def _shared_chained_count(counts: dict[int, int], ctx: TrumpContext) -> int:
    """:func:`_chained_count` where kinds share a position: along each run of touching positions,
    the sub-chains ending at a position are its choices times those of every sub-chain (one
    position or more) ending just before it."""
    pos = ctx.pos
    tiers = _TIERS
    at: dict[int, int] = {}  # chain position -> its kinds' tiers
    for c, m in counts.items():
        if m > 1:
            p = pos[c]
            if p in at:
                at[p] += tiers[m]
            else:
                at[p] = tiers[m]
    linked = [p for p in sorted(at) if p + 1 in at or p - 1 in at]
    total = 0
    shift = 0
    while linked:
        more = []  # positions linked at this size that hold a kind with one copy more
        ends = prev = -2  # ends: the choices of the sub-chains ending at prev
        for p in linked:
            a = at[p] >> shift & 15
            if a:
                if p == prev + 1:
                    total += a * ends
                    ends = a * (ends + 1)
                else:
                    ends = a
                prev = p
                if at[p] >> shift + 4:
                    more.append(p)
        linked = more
        shift += 4
    return total


def random_play(rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...]:
    """A random legal play for the seat to act, found constructively (no enumeration)."""
    ctx, trick = rnd.ctx, rnd.trick
    assert ctx is not None and trick is not None
    if not trick.plays:
        return _random_lead(rnd.hands[seat], ctx, rng)
    lead = trick.plays[0]
    hand = rnd.hands[seat]
    suit = rnd.suit_cards(seat, ctx.eff[lead[0]])  # kept by the round: no pass over the hand
    n = len(suit)
    if len(lead) == 1 and n != 1 and type(rng) is _RANDOM:  # most follows: as random_legal_play draws them
        # rng.choice(suit), or out of the suit rng.sample(hand, 1), which draws as rng.choice(hand)
        # does (one _randbelow(len(hand)) in either of its ways); random.Random's _randbelow
        # written out (the same in 3.11 to 3.13): the same getrandbits draws without the Python
        # calls (tests/test_engine.py compares them)
        pool = suit if n else hand
        n = len(pool)
        getrandbits = rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return ONE_CARD[pool[r]]
    if len(lead) == 1 and n > 1:  # another generator: through its own choice
        return ONE_CARD[rng.choice(suit)]
    return random_legal_play(hand, lead, ctx, rng, trick.lead_comps, suit=suit)


def random_legal_play(
    hand: Sequence[int],
    lead: Sequence[int] | None,
    ctx: TrumpContext,
    rng: random.Random,
    lead_comps: Sequence[Combo] | None = None,
    *,
    suit: list[int] | None = None,
) -> tuple[int, ...]:
    """A random legal lead (``lead`` None: one combination) or follow, from the hand alone.

    Needs nothing hidden, so bots use it on their own observation. ``suit``: the hand's cards
    of the led suit in hand order, when the caller keeps them (not changed here).
    """
    if lead is None:
        return _random_lead(hand, ctx, rng)
    n = len(lead)
    eff = ctx.eff
    e = eff[lead[0]]
    if suit is None:
        suit = [c for c in hand if eff[c] == e]
    if len(suit) == n:  # rng.sample of no cards draws nothing
        return tuple(suit)
    if len(suit) < n:
        if not suit:  # out of the suit (most short follows): the whole hand, as listed, without a copy
            return tuple(_sample(rng, hand, n))
        rest = [c for c in hand if eff[c] != e]
        return (*suit, *_sample(rng, rest, n - len(suit)))
    if n == 1:
        return ONE_CARD[rng.choice(suit)]
    comps = lead_comps or decompose(lead, ctx)
    if n == 2 and len(comps) == 1:  # a pair led: as _structured_pick draws it, legal as drawn
        pairs = [c for c, k in kind_counts(suit).items() if k > 1]
        if pairs:
            c = _choice(rng, pairs)
            return (c, c)
        return tuple(_sample(rng, suit, 2))  # every card of the suit a kind of its own
    if n == 3 and len(comps) == 1:  # a triple led: as _structured_pick draws it (a triple, else a pair and one), legal as drawn
        counts = kind_counts(suit)
        triples = [c for c, k in counts.items() if k > 2]
        if triples:
            c = _choice(rng, triples)
            return (c, c, c)
        pairs = [c for c, k in counts.items() if k > 1]
        if not pairs:
            return tuple(_sample(rng, suit, 3))  # every card of the suit a kind of its own
        c = _choice(rng, pairs)
        counts[c] -= 2
        return (c, c, *_sample(rng, list(chain.from_iterable(starmap(repeat, counts.items()))), 1))
    play = _structured_pick(suit, comps, ctx, rng, n)
    if len(comps) == 1 and comps[0].k == 2:
        # one tractor of pairs led: the pick takes a tractor that long if the suit holds one,
        # else its pairs up to the lead's: legal as drawn (tests/test_rule_checks.py checks the picks)
        return play
    if follow_shape_reason(lead, hand, play, ctx, comps, suit) is None:  # n cards of the hand by construction
        return play
    for cand in submultisets(_items(suit), n):  # rare: the greedy pick missed a better arrangement
        if follow_reason(lead, hand, cand, ctx, comps) is None:
            return cand
    raise AssertionError("no legal follow")  # pragma: no cover - required_structure guarantees one


def _structured_pick(suit: list[int], comps: Sequence[Combo], ctx: TrumpContext, rng: random.Random, n: int) -> tuple[int, ...]:
    """``n`` cards of ``suit`` shaped like the lead (``comps``, ``n`` cards): its chains, then its
    tuples, drawn at random; the rest sampled."""
    counts = kind_counts(suit)  # a plain dict: no Counter constructor's Mapping test
    picked: list[int] = []
    chains, tuple_needs = _shape_needs(comps)  # remembered by the lead's shapes (needs() lists them anew)
    for k, m in chains:
        avail = _avail(counts, k, ctx.pos)
        starts = [s for lo, hi in _chains(avail) for s in range(lo, hi - m + 2)]
        if not starts:
            continue
        s = _choice(rng, starts)
        for o in range(s, s + m):
            c = _choice(rng, avail[o])
            counts[c] -= k
            picked.extend([c] * k)
    for k, need in tuple_needs:
        have = sum([v // k for v in kind_counts(picked).values()]) if picked else 0
        if have >= need or len(picked) + k > n:
            continue
        options = [c for c, v in counts.items() if v >= k]  # kept as it would be listed again after each pick
        while options:
            c = _choice(rng, options)
            counts[c] -= k
            picked.extend([c] * k)
            have += 1
            if counts[c] < k:
                options.remove(c)
            if have >= need or len(picked) + k > n:
                break
    if len(picked) < n:  # (a sample of no cards draws nothing)
        rest = list(chain.from_iterable(starmap(repeat, counts.items())))  # the cards left, as Counter.elements lists them
        picked.extend(_sample(rng, rest, n - len(picked)))
    return tuple(picked)


__all__ = [
    "legal_plays",
    "count_legal_plays",
    "is_legal",
    "legal_actions",
    "declaration_options",
    "lead_combos",
    "random_play",
    "random_legal_play",
    "submultisets",
    "all_submultisets",
    "count_submultisets",
]
