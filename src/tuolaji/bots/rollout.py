"""A fast greedy policy for search rollouts, and the value of a finished round.

Rollouts run inside a sampled deal, so the policy may look at that deal's hands. It is kept
to a few list scans per decision (tens of microseconds): singles and their follows get
simple, sensible play (win cheaply, feed a winning partner, ruff points, discard low);
larger leads get a structured random follow.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..cards import ONE_CARD, POINTS
from ..combos import Combo, best_top, decompose_unkept
from ..engine.legal import lead_combos, random_play
from ..engine.round import Phase, Round
from ..tricks import follow_reason, trick_winner
from ..trump import TRUMP, TrumpContext
from .tactics import (
    _LATER,
    _STRENGTHS,
    BEATEN_HOLDS,
    TrickState,
    choose_follow,
    lead_scores,
    score_singles,
    strengths,
    structured_pick,
    sure_throw,
)
from .teams import same_side


def greedy_play(rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...]:
    trick = rnd.trick
    ctx = rnd.ctx
    assert trick is not None and ctx is not None
    hand = rnd.hands[seat]
    eff, order = ctx.eff, ctx.order
    if not trick.plays:
        return _lead(hand, eff, order, rng)
    lead = trick.plays[0]
    if len(lead) != 1:
        return _multi_follow(rnd, seat, rng)
    e = eff[lead[0]]
    plays = trick.plays
    best_i, best = 0, lead[0]
    table = POINTS[best]
    for i in range(1, len(plays)):
        c = plays[i][0]
        table += POINTS[c]
        if (eff[c] == eff[best] and order[c] > order[best]) or (eff[c] == TRUMP and eff[best] != TRUMP):
            best_i, best = i, c
    is_attacker = rnd.is_attacker
    ours = is_attacker(trick.seats[best_i]) == is_attacker(seat)  # (teams.same_side, inline)
    last = len(plays) == rnd.players - 1
    suit = [c for c in hand if eff[c] == e]
    tab = _STRENGTHS.get(ctx) or strengths(ctx)  # a card's rank, trumps above the plain suits
    if suit:
        if ours:
            pts = [c for c in suit if POINTS[c]]
            return ONE_CARD[_highest(pts, _feeding(ctx, tab)) if pts and (last or rng.random() < 0.7) else _lowest(suit, tab)]
        if eff[best] == e:
            top = order[best]
            beaters = [c for c in suit if order[c] > top]
            if beaters and (table or last or rng.random() < 0.5):
                return ONE_CARD[_lowest(beaters, tab) if last else _highest(beaters, tab)]
        plain = [c for c in suit if not POINTS[c]] or suit
        return ONE_CARD[_lowest(plain, tab)]
    if ours:
        pts = [c for c in hand if POINTS[c] and eff[c] != TRUMP]
        if pts:
            return ONE_CARD[_highest(pts, _feeding(ctx, tab))]
    elif table:
        ruffs = [c for c in hand if eff[c] == TRUMP and (eff[best] != TRUMP or order[c] > order[best])]
        if ruffs:
            return ONE_CARD[_lowest(ruffs, tab)]
    junk = [c for c in hand if eff[c] != TRUMP and not POINTS[c]] or [c for c in hand if eff[c] != TRUMP] or hand
    return ONE_CARD[_lowest(junk, tab)]


def _lowest(cards: Sequence[int], rank: Sequence[int]) -> int:
    """``min(cards, key=rank.__getitem__)``: the first card of the lowest rank, by a loop (a few
    cards: cheaper than ``min`` calling a key per card)."""
    best = cards[0]
    low = rank[best]
    for c in cards:
        if rank[c] < low:
            best, low = c, rank[c]
    return best


def _highest(cards: Sequence[int], rank: Sequence[int]) -> int:
    """``max(cards, key=rank.__getitem__)``: the first card of the highest rank, by a loop."""
    best = cards[0]
    high = rank[best]
    for c in cards:
        if rank[c] > high:
            best, high = c, rank[c]
    return best


_FEEDING: dict[TrumpContext, tuple[int, ...]] = {}


def _feeding(ctx: TrumpContext, tab: tuple[int, ...]) -> tuple[int, ...]:
    """Per card kind, how good it is to feed a winning partner: its points, then the weaker card
    (the order of ``(POINTS[c], -strength)``, as one number: strengths are below 100)."""
    got = _FEEDING.get(ctx)
    if got is None:
        got = _FEEDING[ctx] = tuple(POINTS[c] * 100 - tab[c] for c in range(len(tab)))
    return got


def _multi_follow(rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...]:
    """Follow a pair, tractor or throw: shape-matching low cards, or high ones to take points."""
    trick = rnd.trick
    ctx = rnd.ctx
    assert trick is not None and ctx is not None and trick.lead_comps is not None
    hand = rnd.hands[seat]
    eff = ctx.eff
    lead = trick.plays[0]
    n = len(lead)
    e = eff[lead[0]]
    suit = [c for c in hand if eff[c] == e]
    comps = trick.lead_comps
    best_i = trick_winner(trick.plays, ctx, comps)
    ours = same_side(rnd.is_attacker, trick.seats[best_i], seat)
    if len(suit) <= n:
        rest = sorted(
            (c for c in hand if eff[c] != e), key=lambda c: (eff[c] == TRUMP, POINTS[c] * (-1 if ours else 1), ctx.order[c])
        )
        if not suit and not ours and sum(1 for c in hand if eff[c] == TRUMP) >= n:
            ruff = tuple(structured_pick([c for c in hand if eff[c] == TRUMP], comps, ctx, low=True))
            if trick_winner([*trick.plays, ruff], ctx, comps) == len(trick.plays):
                return ruff
        return tuple(suit + rest[: n - len(suit)])
    for low in (ours or rng.random() < 0.5, not (ours or rng.random() < 0.5)):
        pick = tuple(structured_pick(suit, comps, ctx, low=low))
        if follow_reason(lead, hand, pick, ctx, comps) is None:
            if low or ours or trick_winner([*trick.plays, pick], ctx, comps) == len(trick.plays):
                return pick
    return random_play(rnd, seat, rng)


def _lead(hand: list[int], eff: tuple[int, ...], order: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    seen: dict[int, int] = {}
    pair = None
    for c in hand:
        if c in seen and (pair is None or order[c] > order[pair]) and eff[c] != TRUMP:
            pair = c
        seen[c] = 1
    if pair is not None and order[pair] >= 8 and rng.random() < 0.7:
        return (pair, pair)
    plain = [c for c in hand if eff[c] != TRUMP]
    if not plain:
        return ONE_CARD[_highest(hand, order) if rng.random() < 0.5 else _lowest(hand, order)]
    top = _highest(plain, order)
    if order[top] >= 11 and rng.random() < 0.8:  # an ace
        return ONE_CARD[top]
    c = rng.choice(plain)
    low = [x for x in plain if eff[x] == eff[c] and not POINTS[x]]
    return ONE_CARD[_lowest(low, order) if low else c]


Policy = Callable[[Round, int, random.Random], tuple[int, ...]]
_PLAY = Phase.PLAY  # (an enum member read through its class costs a look-up each time)


class Truncated:
    """``policy`` until ``until`` tricks are done, then the greedy policy, and ``policy`` again
    once the seat to play holds at most ``final`` cards (see :func:`.search.truncated`); a
    rollout makes that choice in its own loop."""

    __slots__ = ("policy", "until", "final")

    def __init__(self, policy: Policy, until: int, final: int) -> None:
        self.policy, self.until, self.final = policy, until, final

    def __call__(self, rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...]:
        if len(rnd.tricks) < self.until or len(rnd.hands[seat]) <= self.final:
            return self.policy(rnd, seat, rng)
        return greedy_play(rnd, seat, rng)


def rollout(rnd: Round, rng: random.Random, policy: Policy | None = None) -> int:
    """Play ``rnd`` to the end with ``policy`` (default: greedy), in place; returns the plays made."""
    pick = policy or greedy_play
    steps = 0
    play = rnd._play  # apply_unchecked(Play(...)) without the action and its dispatch
    if type(pick) is Truncated:  # its choice of policy made here, without a call per play
        policy, until, final = pick.policy, pick.until, pick.final
    else:
        policy, until, final = pick, 1 << 30, 0  # never switches to greedy
    tactical = policy is tactical_play  # then called with this rollout's oracle (made on first use)
    threats: HandThreats | None = None
    tricks, hands = rnd.tricks, rnd.hands  # (the round's own lists, changed in place)
    while rnd.phase == _PLAY:
        seat = rnd.turn
        assert seat is not None
        if len(tricks) >= until and len(hands[seat]) > final:
            play(seat, greedy_play(rnd, seat, rng))
        elif tactical:
            if threats is None:
                threats = HandThreats(rnd)
            play(seat, _tactical(rnd, seat, threats))
        else:
            play(seat, policy(rnd, seat, rng))
        steps += 1
    _CURRENT.threats = None  # the policy's oracle for this round is done with
    return steps


def value(rnd: Round, seat: int) -> float:
    """The round's outcome for ``seat``'s side, in levels on a continuous scale.

    Levels move one per 40 points (two decks), so the attackers' total minus the 80-point
    take-over mark, divided by 40, tracks the level outcome without its steps; sampled outcomes
    then vary much less, which is what comparing candidates needs.
    """
    res = rnd.result
    assert res is not None
    unit = 40.0 * rnd.rules.decks / 2
    for_attackers = (res.attacker_points - 2 * unit) / unit
    return for_attackers if rnd.is_attacker(seat) else -for_attackers


_NONE: Mapping[int, int] = {}  # no cards of a suit (never written)


class HandThreats:
    """Threats judged from the (sampled) hands themselves: fine inside a rollout.

    The answers are read from the round's suit counts, which its plays keep up to date, so one
    oracle serves the whole rollout (:func:`_threats`). They are worked out each time they are
    asked: most are asked once of a hand as it is (answers kept per seat until its hand changed
    were found again for fewer than half the questions, and cost more to keep than they saved)."""

    def __init__(self, rnd: Round) -> None:
        self.rnd = rnd
        assert rnd.ctx is not None
        self._order = rnd.ctx.order
        self._sides: tuple[tuple[bool, ...], Callable[[int, int], bool]] | None = None
        self._calls: list[int | None] = []

    def sides(self) -> tuple[tuple[bool, ...], Callable[[int, int], bool]]:
        """Per seat whether it attacks, and whether two seats play together: the sampled deal's
        truth (:func:`_attackers`), asked again only when a friend call settles (find-a-friend)."""
        calls = self.rnd.call_seats
        if self._sides is None or calls != self._calls:
            att = _attackers(self.rnd)

            def side(a: int, b: int) -> bool:
                return att[a] == att[b]

            self._sides, self._calls = (att, side), list(calls)
        return self._sides

    def by_suit(self, seat: int) -> dict[int, Counter[int]]:
        """The seat's cards per suit it still holds (the round keeps them up to date)."""
        return self.rnd.suit_counts(seat)

    def suit_cards(self, seat: int, suit: int) -> Mapping[int, int]:
        return self.rnd.suit_counts(seat).get(suit) or _NONE

    def _holding(self, seat: int, suit: int, k: int, m: int) -> tuple[bool, int, int]:
        """What ``seat`` could answer a ``(k, m)`` lead of ``suit`` with: (whether it holds the
        suit, how many cards of it or else of trump, their best top)."""
        by_suit = self.rnd.suit_counts(seat)
        own = by_suit.get(suit)
        cards = own if own else (by_suit.get(TRUMP) if suit != TRUMP else None)
        if not cards:
            return (False, 0, -1)
        if k == 1:  # best_top of singles (the round keeps no zero counts)
            return (bool(own), sum(cards.values()), max(map(self._order.__getitem__, cards)))
        return (bool(own), sum(cards.values()), best_top(cards, k, m, self._order))

    def hold_chance(self, seats: Sequence[int], suit: int, tier: int, k: int, m: int, top: int, n: int) -> float:
        """An opponent that holds a beating play (in this sample) mostly uses it."""
        return BEATEN_HOLDS if self.beaten_by(seats, suit, tier, k, m, top, n) else 1.0

    def beaten_by(self, seats: Sequence[int], suit: int, tier: int, k: int, m: int, top: int, n: int) -> bool:
        """:meth:`could_beat` of any of ``seats``, worked out inline from the round's suit counts
        (only what the test reads, in the order it reads it: most questions are asked once of a
        hand as it is, so keeping the answers cost more than they saved)."""
        suit_counts, order = self.rnd.suit_counts, self._order
        # (singles: a card above the top is asked for by a loop, cheaper than max() over a few
        # kinds; one card led needs no count, the round keeping no zero counts)
        for seat in seats:
            by_suit = suit_counts(seat)
            own = by_suit.get(suit)
            if own:  # holding the suit: only a better combination of it beats
                if tier == 0 and (n == 1 or sum(own.values()) >= n):
                    if k == 1:
                        for c in own:
                            if order[c] > top:
                                return True
                    elif best_top(own, k, m, order) > top:
                        return True
            elif suit != TRUMP:  # void: a ruff with enough trumps (none for a trump lead)
                cards = by_suit.get(TRUMP)
                if cards and (n == 1 or sum(cards.values()) >= n):
                    low = top if tier == 1 else -1
                    if k == 1:
                        for c in cards:
                            if order[c] > low:
                                return True
                    elif best_top(cards, k, m, order) > low:
                        return True
        return False

    def could_beat(self, seat: int, suit: int, tier: int, k: int, m: int, top: int, n: int) -> bool:
        own, count, best = self._holding(seat, suit, k, m)
        if own:  # holding the suit, the seat must follow it: only a better combination of it beats
            return tier == 0 and count >= n and best > top
        # void in the suit: a ruff with enough trumps (none for a trump lead)
        return count >= n and best > (top if tier == 1 else -1)


_SUIT_LEADS: dict[tuple[TrumpContext, tuple[int, ...]], tuple[tuple[tuple[int, ...], ...], tuple[Combo, ...]]] = {}
_SUIT_LEADS_MAX = 8192  # entries; rollouts lead from the same suits again and again


def _few_leads(hand: Sequence[int], ctx: TrumpContext, unseen_top: Callable[[int, int, int], int]) -> list[tuple[int, ...]]:
    """Rollout leads: every multi-card lead the heuristic would weigh (tuples, tractors, throws
    of sure combinations), but per suit only the top and the lowest singles.

    Worked out suit by suit (no combination crosses suits), each suit's part remembered per its
    cards in hand order: a rollout's next lead finds most suits as they were. The options are
    those of ``lead_option_set`` (without singles) and the singles, possibly listed twice
    (a rollout takes the best, whatever the order)."""
    by_suit = ctx.by_suit(hand)
    out: list[tuple[int, ...]] = []
    for e, cards in by_suit.items():
        key = (ctx, tuple(cards))
        part = _SUIT_LEADS.get(key)
        if part is None:
            part = _SUIT_LEADS[key] = _suit_leads(key[1], ctx)
            if len(_SUIT_LEADS) >= _SUIT_LEADS_MAX:
                _SUIT_LEADS.clear()
        out += part[0]
        if len(part[1]) > 1:  # (one combination makes no throw)
            throw = sure_throw(e, part[1], unseen_top)
            if throw is not None:
                out.append(throw)
    return out


def _suit_leads(cards: tuple[int, ...], ctx: TrumpContext) -> tuple[tuple[tuple[int, ...], ...], tuple[Combo, ...]]:
    """One suit's rollout leads besides throws (its tuples and tractors, as ``lead_combos``
    lists them; its top and lowest single) and its decomposition (for the throw)."""
    combos = dict.fromkeys(c if c[0] == c[-1] else tuple(sorted(c)) for c in lead_combos(cards, ctx, singles=False))
    order = ctx.order
    ranked = sorted(set(cards), key=lambda c: (order[c], POINTS[c]))
    low = [c for c in ranked if not POINTS[c]] or ranked
    combos[(ranked[-1],)] = None
    combos[(low[0],)] = None
    return tuple(combos), tuple(decompose_unkept(cards, ctx))  # the caller keeps it, and few repeat


_ATTACKERS: dict[tuple[int, int | None, bool, tuple[int | None, ...]], tuple[bool, ...]] = {}
_ALL_SUITS = frozenset(range(TRUMP + 1))


def _attackers(rnd: Round) -> tuple[bool, ...]:
    """Per seat: does it attack (the truth of the sampled deal), one answer per table, dealer,
    partnership and friends (a rollout asks at every tactical play)."""
    key = (rnd.players, rnd.dealer, rnd.find_friend, tuple(rnd.call_seats))
    got = _ATTACKERS.get(key)
    if got is None:
        dealer_side = rnd.dealer_side()
        if len(_ATTACKERS) >= 1024:
            _ATTACKERS.clear()
        got = _ATTACKERS[key] = tuple(s not in dealer_side for s in range(rnd.players))
    return got


# The threats of the round a rollout is playing (see rollout()), per thread: a server searches
# for several tables at once on worker threads.
_CURRENT = threading.local()


def _threats(rnd: Round) -> HandThreats:
    """The oracle of the round being played out, kept from play to play of one rollout."""
    got: HandThreats | None = getattr(_CURRENT, "threats", None)
    if got is None or got.rnd is not rnd:
        got = _CURRENT.threats = HandThreats(rnd)
    return got


def tactical_play(rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...]:
    """The heuristic's trick tactics, with threats read from the sampled hands."""
    return _tactical(rnd, seat, _threats(rnd))


def _tactical(rnd: Round, seat: int, threats: HandThreats) -> tuple[int, ...]:
    """:func:`tactical_play` with the oracle of the rollout (``rollout()`` keeps it at hand)."""
    trick = rnd.trick
    ctx = rnd.ctx
    assert trick is not None and ctx is not None
    hand = rnd.hands[seat]
    plays = trick.plays
    if len(hand) == (len(plays[0]) if plays else 1):  # forced (each rollout's last trick): the whole hand, as the tactics list it
        return (hand[0],) if len(hand) == 1 else tuple(sorted(hand))
    if plays and len(plays[0]) == 1:
        by_suit = rnd.suit_counts(seat)
        own = by_suit.get(ctx.eff[plays[0][0]])
        if own is not None and len(own) == 1:  # one card kind of the suit: the only follow
            return (next(iter(own)),)
        # a single led: every card kind of the suit, or of the hand when void
        if own:
            return _single_follow(rnd, seat, threats, own.items())
        return _single_follow(rnd, seat, threats, [x for cards in by_suit.values() for x in cards.items()])
    att, side = threats.sides()
    if plays:
        tricks_left = len(hand) // len(plays[0]) or 1
        st = TrickState(seat, rnd.players, hand, ctx, trick.seats, plays, trick.lead_comps, side, att[seat], tricks_left)
        return choose_follow(st, threats)
    return _tactical_lead(rnd, seat, att)


def _tactical_lead(rnd: Round, seat: int, att: Sequence[bool]) -> tuple[int, ...]:
    """A rollout's tactical lead (its own function: the closure's cells are made only here)."""
    ctx = rnd.ctx
    assert ctx is not None
    hand = rnd.hands[seat]
    others = _LATER[rnd.players][0][seat]  # (in play order: what is asked of them is a max or a union)
    held = [rnd.suit_counts(s) for s in others]  # each other hand's cards by suit
    order = ctx.order

    def unseen_top(e: int, k: int, m: int) -> int:
        """``best_top`` of the others' cards of suit ``e`` (singles: the best of each hand's best)."""
        if k == 1:  # (the round keeps no zero counts)
            top = -1
            for h in held:
                own = h.get(e)
                if own:
                    for c in own:  # (a loop: cheaper than max() over a few kinds)
                        if order[c] > top:
                            top = order[c]
            return top
        out: dict[int, int] = {}
        for h in held:
            for c, n in h.get(e, _NONE).items():
                out[c] = out.get(c, 0) + n
        return best_top(out, k, m, order)

    # the suits some partner (some opponent) holds none of, the same whichever lead asks
    ally_void: set[int] = set()
    foe_void: set[int] = set()
    foes: list[dict[int, Counter[int]]] = []
    me = att[seat]
    for s, h in zip(others, held, strict=True):
        if att[s] != me:
            foes.append(h)
        if len(h) <= TRUMP:
            (ally_void if att[s] == me else foe_void).update(_ALL_SUITS.difference(h))
    options = _few_leads(hand, ctx, unseen_top)
    return max(_scored_leads(rnd, seat, att, foes, options, ally_void, foe_void))[1]


def _scored_leads(
    rnd: Round,
    seat: int,
    att: Sequence[bool],
    foes: Sequence[Mapping[int, Mapping[int, int]]],
    options: Sequence[tuple[int, ...]],
    ally_void: set[int],
    foe_void: set[int],
) -> list[tuple[float, tuple[int, ...]]]:
    """``score_leads`` with the rollout's oracle (``att``: per seat whether it attacks in this
    deal; ``foes``: the other side's cards by suit, as the round counts them): the options scored
    by :func:`.tactics.lead_scores` (the best score wins, ties to the greater play). Whether a foe
    beats an option is asked once per suit and shape (the lowest top that no foe beats,
    :func:`_safe_from`): a suit's top and low singles ask the same."""
    ctx = rnd.ctx
    assert ctx is not None
    mine = rnd.suit_counts(seat)
    trumps = mine.get(TRUMP)
    order, eff = ctx.order, ctx.eff
    safe_from: dict[int, int] = {}  # (suit, k, m, cards) as one int -> the lowest top no foe beats

    def beaten(e: int, k: int, m: int, top: int, size: int) -> bool:
        key = e << 24 | k << 16 | m << 8 | size
        limit = safe_from.get(key)
        if limit is None:
            limit = safe_from[key] = _safe_from(foes, e, k, m, size, order)
        return top < limit

    def copies(c: int) -> int:
        return mine[eff[c]][c]

    hand = rnd.hands[seat]
    n_trump = sum(trumps.values()) if trumps else 0
    return lead_scores(
        ctx, hand, att[seat], n_trump, len(hand) <= 2, options, beaten, copies, ally_void.__contains__, foe_void.__contains__
    )


_BEATEN = 1 << 30  # a top no lead reaches: beaten whatever its top


def _safe_from(foes: Sequence[Mapping[int, Mapping[int, int]]], e: int, k: int, m: int, n: int, order: Sequence[int]) -> int:
    """The lowest top of a ``(k, m)`` lead of ``n`` cards of suit ``e`` that none of ``foes``
    (their cards by suit) beats: :meth:`HandThreats.beaten_by` at tier 0 answers True exactly
    for the tops below it (a foe holding the suit beats a lower top with its best of the shape;
    a foe void in it ruffs any top when it holds trumps enough)."""
    limit = -1
    for by_suit in foes:
        own = by_suit.get(e)
        if own:
            if n == 1 or sum(own.values()) >= n:  # (no zero counts: one card led needs no count)
                if k == 1:
                    for c in own:  # (a loop: cheaper than max() over a few kinds)
                        if order[c] > limit:
                            limit = order[c]
                else:
                    best = best_top(own, k, m, order)
                    if best > limit:
                        limit = best
        elif e != TRUMP:
            cards = by_suit.get(TRUMP)
            if cards and (n == 1 or sum(cards.values()) >= n):
                if k == 1 or best_top(cards, k, m, order) > -1:  # (any trump's order is above -1)
                    return _BEATEN
    return limit


def _single_follow(rnd: Round, seat: int, threats: HandThreats, kinds: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """``choose_follow`` to a single led, over ``kinds`` (each card kind the seat may play and its
    copies in hand), scored by :func:`.tactics.score_singles` from the round's suit counts, without
    a trick state or a scan of the hand per option; the best score wins, ties to the higher card
    (as ``choose_follow``'s ``max`` of (score, play) pairs: no two plays are equal)."""
    trick, ctx = rnd.trick, rnd.ctx
    assert trick is not None and ctx is not None
    side = threats.sides()[1]
    last = len(rnd.hands[seat]) == 1
    scored = score_singles(ctx, seat, rnd.players, trick.plays, trick.seats, trick.lead_comps, side, threats, kinds, last)
    return ONE_CARD[max(scored)[1]]


POLICIES: dict[str, Policy] = {"greedy": greedy_play, "tactical": tactical_play, "random": random_play}
