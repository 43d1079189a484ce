"""Trick-level tactics shared by the heuristic bot and the search bot's rollouts.

The functions here decide from a :class:`TrickState` (own hand, the trick so far, who sits
where) plus a :class:`Threats` oracle that says whether a later seat might beat a play. The
heuristic bot's oracle reasons from card memory (unseen cards, voids); the rollouts' oracle
looks at the sampled hands, which is fair because those hands are guesses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..cards import POINTS, kind_counts
from ..combos import Combo, _avail, _chains, best_top, decompose, needs, required_structure
from ..engine.legal import all_submultisets, count_submultisets, lead_combos, submultisets
from ..tricks import Rank, best_so_far, follow_reason, play_rank, structure_reason
from ..trump import TRUMP, TrumpContext

LAMBDA = 0.3  # points a unit of card strength is worth keeping (a plain A ~ 3.3 points)
LEAD_BONUS = 2.0  # what winning the lead is worth on its own
ENUM_LIMIT = 240  # enumerate follows exhaustively up to this many choices


BEATEN_HOLDS = 0.15  # a play that an opponent to come holds the cards to beat still wins this often
HELD = 0.6  # chance a winning play holds when a later opponent might beat it (nothing better known)


class Threats(Protocol):
    def could_beat(self, seat: int, suit: int, tier: int, k: int, m: int, top: int, n: int) -> bool:
        """Might ``seat`` beat a play of tier (0: led suit, 1: trump ruff) and shape top?"""
        ...

    def hold_chance(self, seats: Sequence[int], suit: int, tier: int, k: int, m: int, top: int, n: int) -> float:
        """The chance that none of ``seats`` (opponents still to play) beats such a play."""
        ...

    def beaten_by(self, seats: Sequence[int], suit: int, tier: int, k: int, m: int, top: int, n: int) -> bool:
        """Might any of ``seats`` beat such a play (``could_beat`` of any)?"""
        ...


@dataclass(slots=True)
class TrickState:
    seat: int
    players: int
    hand: Sequence[int]
    ctx: TrumpContext
    seats: Sequence[int]  # seats that played to the trick so far
    plays: Sequence[tuple[int, ...]]
    comps: Sequence[Combo] | None  # the lead's decomposition
    same_side: Callable[[int, int], bool]
    attacker: bool  # is this seat attacking
    tricks_left: int  # tricks still to play, this one included


def strength(c: int, ctx: TrumpContext) -> int:
    """How valuable a card is to keep: plain 0..11 by rank, trumps 16..31."""
    return ctx.order[c] + (16 if ctx.eff[c] == TRUMP else 0)


_STRENGTHS: dict[TrumpContext, tuple[int, ...]] = {}


def strengths(ctx: TrumpContext) -> tuple[int, ...]:
    """:func:`strength` of every card kind, one table per context (contexts are shared objects)."""
    got = _STRENGTHS.get(ctx)
    if got is None:
        got = _STRENGTHS[ctx] = tuple(strength(c, ctx) for c in range(len(ctx.eff)))
    return got


def points(cards: Sequence[int]) -> int:
    return sum(map(POINTS.__getitem__, cards))


def cost(play: Sequence[int], hand: Sequence[int], ctx: TrumpContext, have: Mapping[int, int] | None = None) -> float:
    """Future value given up by playing ``play`` from ``hand``: strength, and broken pairs
    (``have``: the hand's count of each card it holds, when the caller has it)."""
    total = 0.0
    if have is None:
        have = kind_counts(hand)
    tab = strengths(ctx)
    if len(play) == 1:
        c = play[0]
        if have[c] >= 2:
            total += 10 if ctx.eff[c] == TRUMP else 6
        return LAMBDA * (total + tab[c])
    for c, n in kind_counts(play).items():
        total += tab[c] * n
        if n == 1 and have[c] >= 2:  # breaking a pair (worse for trump pairs)
            total += 10 if ctx.eff[c] == TRUMP else 6
    return LAMBDA * total


def later_seats(st: TrickState) -> list[int]:
    return [(st.seat + j) % st.players for j in range(1, st.players - len(st.plays))]


def winning_shape(play: Sequence[int], lead: Sequence[int], comps: Sequence[Combo], ctx: TrumpContext) -> tuple[int, int]:
    """(tier, top) of a play judged by the lead's leading shape."""
    k, m = comps[0].k, comps[0].m
    tier = 0 if ctx.eff[play[0]] == ctx.eff[lead[0]] else 1
    if len(play) == 1:
        return tier, ctx.order[play[0]]
    return tier, best_top(kind_counts(play), k, m, ctx.order)


def threatened(st: TrickState, play: Sequence[int], by: Sequence[int], threats: Threats) -> bool:
    """Might an opponent among ``by`` beat ``play`` (the current best of the trick)?"""
    lead = st.plays[0] if st.plays else play
    comps = st.comps if st.plays and st.comps else decompose(lead, st.ctx)
    tier, top = winning_shape(play, lead, comps, st.ctx)
    suit = st.ctx.eff[lead[0]]
    k, m = comps[0].k, comps[0].m
    return any(threats.could_beat(o, suit, tier, k, m, top, len(lead)) for o in by if not st.same_side(o, st.seat))


def survival(st: TrickState, play: Sequence[int], foes: Sequence[int], threats: Threats) -> float:
    """The chance that ``play`` (the best of the trick so far) is not beaten by ``foes``, the
    opponents still to play, as the threats judge it (card memory: where the higher cards may
    be; a sampled deal: whether those seats hold them), not a flat guess: a flat 60 % made the
    bots follow with a king while holding the ace, the king's 10 points going to the other ace."""
    if not foes:
        return 1.0
    lead = st.plays[0] if st.plays else play
    comps = st.comps if st.plays and st.comps else decompose(lead, st.ctx)
    tier, top = winning_shape(play, lead, comps, st.ctx)
    return threats.hold_chance(foes, st.ctx.eff[lead[0]], tier, comps[0].k, comps[0].m, top, len(lead))


# ------------------------------------------------------------------ following
Fact = tuple[int, float, Rank | None]  # a follow's points, the value it gives up (cost()), its play_rank()
_Listing = tuple[tuple[tuple[int, ...], ...], list[Fact]]  # follows and their facts (never changed)
_FOLLOWS: dict[tuple[TrumpContext, tuple[int, ...], bool, tuple[int, ...]], _Listing] = {}
_FOLLOWS_MAX = 8192  # entries; a search's rollouts meet the same hands again and again


def follow_options(st: TrickState) -> list[tuple[int, ...]]:
    """A varied set of legal follows: everything when few, else cheap / strong / point picks."""
    return follow_listing(st)[0]


def follow_listing(st: TrickState, keep: bool = True) -> tuple[list[tuple[int, ...]], Sequence[Fact] | None]:
    """:func:`follow_options`, and for a lead of several cards what :func:`score_follows` reads of
    each option alone (its facts, in the options' order; None when not worked out here).

    Follows to a lead of several cards are remembered with their facts per context and lead, by
    the cards of the led suit (in hand order) or, short of the suit, by the whole hand (all that
    the options and their facts read): the search's rollouts and its inference ask for the same
    ones many times. The list is the same, in the same order, as working it out again. With
    ``keep`` false they are neither looked up nor kept: a seat's own decision never meets its
    hand again (heuristic self-play found none of its follows there), and what is kept only
    for the collector to walk costs time."""
    lead = st.plays[0]
    ctx = st.ctx
    eff = ctx.eff
    n = len(lead)
    e = eff[lead[0]]
    hand = st.hand
    suit = [c for c in hand if eff[c] == e]
    if n == 1:
        if len(suit) > 1:
            return [(c,) for c in set(suit)], None
        if suit:
            return [tuple(suit)], None
        # void: every card kind of the rest once, in card order (as all_submultisets lists them)
        out: set[tuple[int, ...]] = set()
        out.update((c,) for c in sorted(set(hand)))
        return list(out), None
    short = len(suit) <= n
    key = (ctx, tuple(lead), short, tuple(hand) if short else tuple(suit)) if keep else None
    if key is not None:
        got = _FOLLOWS.get(key)
        if got is not None:
            return list(got[0]), got[1]
    comps = st.comps or decompose(lead, ctx)
    options = _follows(lead, hand, suit, comps, ctx)
    if options is not None:
        facts = _follow_facts(options, hand, lead, comps, ctx)
        if key is not None:
            if len(_FOLLOWS) >= _FOLLOWS_MAX:
                _FOLLOWS.clear()
            _FOLLOWS[key] = (tuple(options), facts)
        return options, facts
    return _large_follows(lead, list(hand), suit, comps, ctx), None


def _follows(
    lead: Sequence[int], hand: Sequence[int], suit: list[int], comps: Sequence[Combo], ctx: TrumpContext
) -> list[tuple[int, ...]] | None:
    """:func:`follow_options` of several cards from the suit's cards (or, short of the suit, the
    hand); None for a large choice within the suit, where the hand is asked (not remembered)."""
    eff = ctx.eff
    n = len(lead)
    e = eff[lead[0]]
    out: set[tuple[int, ...]] = set()
    if len(suit) <= n:
        need = n - len(suit)
        if need == 0:
            return [tuple(sorted(suit))]
        rest = [c for c in hand if eff[c] != e]
        if need == 1:  # every card kind of the rest once, in card order (as all_submultisets lists them)
            out.update(tuple(sorted([*suit, c])) for c in sorted(set(rest)))
            return list(out)
        items = sorted(kind_counts(rest).items())
        if count_submultisets(items, need) <= ENUM_LIMIT:
            out.update(tuple(sorted(suit + list(x))) for x in all_submultisets(items, need))
        else:
            by_keep = sorted(rest, key=lambda c: (strength(c, ctx), POINTS[c]))
            out.add(tuple(sorted(suit + by_keep[:need])))
            by_pts = sorted(rest, key=lambda c: (-POINTS[c], strength(c, ctx)))
            out.add(tuple(sorted(suit + by_pts[:need])))
            if not suit:
                trumps = [c for c in rest if eff[c] == TRUMP]
                if len(trumps) >= n:
                    for low in (True, False):
                        out.add(tuple(sorted(structured_pick(trumps, comps, ctx, low=low))))
        return list(out)
    items = sorted(kind_counts(suit).items())
    if count_submultisets(items, n) <= ENUM_LIMIT:
        if len(comps) == n:  # all singles: any n cards of the suit
            return all_submultisets(items, n)
        if n == 2:  # a pair led: a pair of the suit when it holds one (structure_reason's answer), else any two
            # (the pairs in the order all_submultisets lists them: by card, each before the cards above it)
            return [(c, c) for c, v in items if v >= 2] or all_submultisets(items, 2)
        required = required_structure(Counter(suit), comps, n, ctx.order)
        return [p for p in all_submultisets(items, n) if structure_reason(p, required, comps, ctx) is None]
    return None


def _large_follows(
    lead: Sequence[int], hand: list[int], suit: list[int], comps: Sequence[Combo], ctx: TrumpContext
) -> list[tuple[int, ...]]:
    """Too many follows within the suit to list: the lead's shape, low and high, as far as legal."""
    n = len(lead)
    out: set[tuple[int, ...]] = set()
    for low in (True, False):
        p = tuple(sorted(structured_pick(suit, comps, ctx, low=low)))
        if follow_reason(lead, hand, p, ctx, comps) is None:
            out.add(p)
    if not out:
        for p in submultisets(sorted(Counter(suit).items()), n):
            if follow_reason(lead, hand, p, ctx, comps) is None:
                out.add(p)
                break
    return list(out)


def structured_pick(cards: Sequence[int], comps: Sequence[Combo], ctx: TrumpContext, *, low: bool) -> list[int]:
    """Cards shaped like the lead as far as they allow, the lowest (or highest) such."""
    n = sum(len(c.cards) for c in comps)
    counts = Counter(cards)
    picked: list[int] = []
    chains, tuple_needs = needs(comps)
    pick = min if low else max
    for k, m in chains:
        avail = _avail(counts, k, ctx.pos)
        starts = [s for lo, hi in _chains(avail) for s in range(lo, hi - m + 2)]
        if not starts or len(picked) + k * m > n:
            continue
        s = pick(starts)
        for o in range(s, s + m):
            c = avail[o][0]
            counts[c] -= k
            picked.extend([c] * k)
    for k, need in tuple_needs:
        have = sum(v // k for v in kind_counts(picked).values())
        while have < need and len(picked) + k <= n:
            options = [c for c, v in counts.items() if v >= k]
            if not options:
                break
            c = pick(options, key=lambda x: strength(x, ctx))
            counts[c] -= k
            picked.extend([c] * k)
            have += 1
    rest = [c for c, v in counts.items() for _ in range(v)]
    if low:  # fill with low singles first, keeping pairs whole
        rest.sort(key=lambda c: (counts[c] >= 2, strength(c, ctx)))
    else:
        rest.sort(key=lambda c: -strength(c, ctx))
    picked.extend(rest[: n - len(picked)])
    return picked


def choose_follow(st: TrickState, threats: Threats, options: Sequence[tuple[int, ...]] | None = None) -> tuple[int, ...]:
    facts: Sequence[Fact] | None = None
    if options is None:
        options, facts = follow_listing(st)
    if len(options) == 1:
        return options[0]
    return max(score_follows(st, threats, options, facts))[1]


# One shared (tier, top) tuple per rank (tops are card orders, below 32): the facts kept in the
# follow table hold these, not a tuple each, so fewer objects outlive a decision for the collector
_RANKS: tuple[tuple[Rank, ...], tuple[Rank, ...]] = (tuple((0, o) for o in range(64)), tuple((1, o) for o in range(64)))


def _follow_facts(
    opts: Sequence[tuple[int, ...]], hand: Sequence[int], lead: Sequence[int], comps: Sequence[Combo], ctx: TrumpContext
) -> list[Fact]:
    """Per option (to a lead of several cards): its points, :func:`cost` and :func:`play_rank`
    (the shared tuple of that rank), worked out inline (cost's sums are of whole numbers: the
    same values in any order)."""
    eff, order = ctx.eff, ctx.order
    tab = _STRENGTHS.get(ctx) or strengths(ctx)
    suit = eff[lead[0]]
    have = kind_counts(hand)
    out: list[Fact] = []
    if len(lead) == 2 and comps[0].k == 2:  # a pair led: only a pair can win
        for a, b in opts:
            if a == b:
                ea = eff[a]
                rank = _RANKS[0][order[a]] if ea == suit else (_RANKS[1][order[a]] if ea == TRUMP else None)
                out.append((POINTS[a] * 2, LAMBDA * (tab[a] * 2), rank))
            else:
                total = tab[a] + tab[b]
                if have[a] >= 2:
                    total += 10 if eff[a] == TRUMP else 6
                if have[b] >= 2:
                    total += 10 if eff[b] == TRUMP else 6
                out.append((POINTS[a] + POINTS[b], LAMBDA * total, None))
        return out
    for p in opts:
        total = sum(map(tab.__getitem__, p))
        for c in p:
            if have[c] >= 2 and p.count(c) == 1:  # breaking a pair (worse for trump pairs)
                total += 10 if eff[c] == TRUMP else 6
        rank = play_rank(p, lead, comps, ctx)
        out.append((sum(map(POINTS.__getitem__, p)), LAMBDA * total, _RANKS[rank[0]][rank[1]] if rank is not None else None))
    return out


# Per table size, cards played to the trick and seat: the seats still to play after it, in order
_LATER: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple((seat + j) % players for j in range(1, players - played)) for seat in range(players))
        for played in range(players)
    )
    for players in range(9)
)

_GIVEN_UP: dict[TrumpContext, tuple[tuple[float, ...], tuple[float, ...]]] = {}


def _given_up(ctx: TrumpContext) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per card kind, :func:`cost` of playing one copy, as :func:`score_follows` works it
    out for a single: from one copy, and from two or more (a pair broken)."""
    got = _GIVEN_UP.get(ctx)
    if got is None:
        tab, eff = strengths(ctx), ctx.eff
        kept = tuple(LAMBDA * (0.0 + tab[c]) for c in range(len(tab)))
        broken = tuple(LAMBDA * (((10 if eff[c] == TRUMP else 6) + 0.0) + tab[c]) for c in range(len(tab)))
        got = _GIVEN_UP[ctx] = (kept, broken)
    return got


def score_follows(
    st: TrickState, threats: Threats, opts: Sequence[tuple[int, ...]], facts: Sequence[Fact] | None = None
) -> list[tuple[float, tuple[int, ...]]]:
    """Each option scored by the expected point swing for our side, minus the cards' value
    (``facts``: the options' own, from :func:`follow_listing`, when the lead has several cards)."""
    ctx = st.ctx
    plays = st.plays
    lead = plays[0]
    n = len(lead)
    eff = ctx.eff
    suit = eff[lead[0]]
    seat = st.seat
    same_side = st.same_side
    if n == 1:  # a single led (most follows)
        held = st.hand.count  # how many of the card the hand holds (one C-level scan)
        kinds = [(p[0], held(p[0])) for p in opts]
        singles = score_singles(ctx, seat, st.players, plays, st.seats, st.comps, same_side, threats, kinds, st.tricks_left == 1)
        return [(score, p) for (score, _), p in zip(singles, opts, strict=True)]
    # the seats still to play: a partner among them, and the opponents (the only ones threats are asked of)
    partner_later = False
    foes_later: list[int] = []
    for o in _LATER[st.players][len(plays)][seat]:
        if same_side(o, seat):
            partner_later = True
        else:
            foes_later.append(o)
    comps = st.comps or decompose(lead, ctx)
    w, best_rank = best_so_far(plays, ctx, comps)
    table = sum([POINTS[c] for p in plays for c in p])
    k, m = comps[0].k, comps[0].m
    ours_now = same_side(st.seats[w], seat)
    p_partner = 0.0
    if ours_now:
        p_partner = survival(st, plays[w], foes_later, threats)
    elif partner_later:
        p_partner = 0.25
    last_bonus = 0.0
    if st.tricks_left == 1:  # the last trick decides the kitty
        last_bonus = 30.0
    scored: list[tuple[float, tuple[int, ...]]] = []
    # survival() of a winning play asks the same of the same foes for the same (tier, top): a
    # winning play's rank is exactly its winning_shape(), so the answer is kept per rank
    beaten: dict[Rank, float] = {}
    if facts is None:
        facts = _follow_facts(opts, st.hand, lead, comps, ctx)
    for i, p in enumerate(opts):
        pts, given_up, rank = facts[i]
        pts += table
        if rank is not None and rank > best_rank:  # p would win the trick so far
            if not foes_later:
                p_win = 1.0
            else:
                chance = beaten.get(rank)
                if chance is None:
                    tier, top = rank
                    chance = beaten[rank] = threats.hold_chance(foes_later, suit, tier, k, m, top, n)
                p_win = chance
            if ours_now:  # overtaking a partner only matters if the partner was at risk
                if p_partner > p_win:  # (max() without the call)
                    p_win = p_partner
        else:
            p_win = p_partner
        score = p_win * (pts + LEAD_BONUS + last_bonus) - (1 - p_win) * (pts + last_bonus) - given_up
        scored.append((score, p))
    return scored


def score_singles(
    ctx: TrumpContext,
    seat: int,
    players: int,
    plays: Sequence[tuple[int, ...]],
    seats: Sequence[int],
    comps: Sequence[Combo] | None,
    same_side: Callable[[int, int], bool],
    threats: Threats,
    kinds: Iterable[tuple[int, int]],
    last_trick: bool,
) -> list[tuple[float, int]]:
    """:func:`score_follows` of one-card follows to a single led, one ``(score, card)`` per
    ``kinds`` entry (a card kind that may be played and its copies in hand): best_so_far's,
    survival()'s, cost()'s, points()' and play_rank()'s single cases inline (the same arithmetic;
    the cost from a table per context), a rank (tier, top) as one number, ``tier * 64 + top``
    (tops are below 64; -1: cannot win). The rollouts call it without a trick state."""
    eff, order = ctx.eff, ctx.order
    suit = eff[plays[0][0]]
    # the seats still to play: a partner among them, and the opponents (the only ones threats are asked of)
    partner_later = False
    foes_later: list[int] = []
    for o in _LATER[players][len(plays)][seat]:
        if same_side(o, seat):
            partner_later = True
        else:
            foes_later.append(o)
    w, (best_tier, best_top) = best_so_far(plays, ctx, comps)
    best = best_tier * 64 + best_top
    table = 0
    for p in plays:
        table += POINTS[p[0]]
    ours_now = same_side(seats[w], seat)
    p_partner = 0.0
    if ours_now:
        p_partner = 1.0
        if foes_later:
            b = plays[w][0]
            p_partner = threats.hold_chance(foes_later, suit, 0 if eff[b] == suit else 1, 1, 1, order[b], 1)
    elif partner_later:
        p_partner = 0.25
    last_bonus = 30.0 if last_trick else 0.0  # the last trick decides the kitty
    kept, broken = _given_up(ctx)
    beaten: dict[int, float] = {}  # hold_chance per winning rank, asked once
    scored: list[tuple[float, int]] = []
    for c, held in kinds:
        pts = table + POINTS[c]
        given_up = broken[c] if held >= 2 else kept[c]
        ec = eff[c]
        rank = order[c] if ec == suit else (64 + order[c] if ec == TRUMP else -1)
        if rank > best:  # c would win the trick so far
            if not foes_later:
                p_win = 1.0
            else:
                chance = beaten.get(rank)
                if chance is None:
                    chance = beaten[rank] = threats.hold_chance(foes_later, suit, rank >> 6, 1, 1, rank & 63, 1)
                p_win = chance
            if ours_now:  # overtaking a partner only matters if the partner was at risk
                if p_partner > p_win:  # (max() without the call)
                    p_win = p_partner
        else:
            p_win = p_partner
        score = p_win * (pts + LEAD_BONUS + last_bonus) - (1 - p_win) * (pts + last_bonus) - given_up
        scored.append((score, c))
    return scored


# ------------------------------------------------------------------ leading
def sure_combos(cards: Sequence[int], ctx: TrumpContext, unseen_suit: Mapping[int, int]) -> list[Combo]:
    """Combinations of one suit that nothing unseen of the same shape can beat."""
    return _sure(decompose(cards, ctx), unseen_suit, ctx.order)


def _sure(comps: Sequence[Combo], unseen_suit: Mapping[int, int], order: Sequence[int]) -> list[Combo]:
    tops: dict[tuple[int, int], int] = {}  # the unseen cards' best top per shape, asked once
    out: list[Combo] = []
    for c in comps:
        shape = (c.k, c.m)
        top = tops.get(shape)
        if top is None:
            top = tops[shape] = best_top(unseen_suit, c.k, c.m, order)
        if top <= c.top:
            out.append(c)
    return out


HandLeads = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, tuple[Combo, ...]], ...]]


def _hand_leads(hand: Sequence[int], ctx: TrumpContext, singles: bool) -> HandLeads:
    """What :func:`lead_options` takes from the hand alone: its single-combination leads (first
    occurrences, in order) and, per suit in the order the hand shows them, the suit's
    decomposition. Not remembered: only the heuristic's own leads ask (the rollouts list theirs
    suit by suit, :func:`.rollout._few_leads`), and a seat never leads from the same hand twice."""
    # a tuple of one card kind is sorted already; only chains need sorting
    combos = tuple(dict.fromkeys(c if c[0] == c[-1] else tuple(sorted(c)) for c in lead_combos(hand, ctx, singles=singles)))
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(ctx.eff[c], []).append(c)
    return combos, tuple((e, tuple(decompose(cards, ctx))) for e, cards in by_suit.items())


UnseenTop = Callable[[int, int, int], int]  # (suit, k, m) -> best_top of the unseen cards of the suit


def lead_options(hand: Sequence[int], ctx: TrumpContext, unseen_top: UnseenTop, *, singles: bool = True) -> list[tuple[int, ...]]:
    """Single combinations (singles, pairs, tractors) plus, per suit, a throw of its sure combos
    (``unseen_top``: the best top of a shape among the unseen cards of a suit, which the
    threat oracles keep per question)."""
    return list(lead_option_set(hand, ctx, unseen_top, singles=singles))


def lead_option_set(
    hand: Sequence[int], ctx: TrumpContext, unseen_top: UnseenTop, *, singles: bool = True
) -> set[tuple[int, ...]]:
    """:func:`lead_options` as the set it is listed from."""
    combos, suits = _hand_leads(hand, ctx, singles)
    out = set(combos)  # (added one by one in the same order as before: the same set, the same order)
    for e, comps in suits:
        throw = sure_throw(e, comps, unseen_top)
        if throw is not None:
            out.add(throw)
    return out


def sure_throw(e: int, comps: Sequence[Combo], unseen_top: UnseenTop) -> tuple[int, ...] | None:
    """The throw of suit ``e``'s combinations (``comps``, its decomposition) that nothing unseen
    of the same shape beats, when there are two or more of them (sorted), else None."""
    if len(comps) < 2:
        return None  # one combination: no throw (its unseen cards need not be counted)
    tops: dict[int, int] = {}  # per shape (k, m), asked once
    sure: list[int] = []  # the sure combinations' cards
    n_sure = 0
    for k, m, top, cards in comps:  # (a Combo's fields, read by unpacking)
        shape = k << 8 | m
        unseen = tops.get(shape)
        if unseen is None:
            unseen = tops[shape] = unseen_top(e, k, m)
        if unseen <= top:
            sure += cards
            n_sure += 1
    if n_sure >= 2:
        sure.sort()
        return tuple(sure)
    return None


def choose_lead(
    st: TrickState,
    threats: Threats,
    options: Sequence[tuple[int, ...]],
    ally_void: Callable[[int], bool],
    foe_void: Callable[[int], bool],
) -> tuple[int, ...]:
    return max(score_leads(st, threats, options, ally_void, foe_void))[1]


_LEADS: dict[tuple[TrumpContext, tuple[int, ...]], tuple[int, int, int, int, int, int]] = {}
_LEADS_MAX = 8192  # entries; the same few hundred leads come up again and again


def _lead_facts(p: tuple[int, ...], ctx: TrumpContext) -> tuple[int, int, int, int, int, int]:
    """What :func:`score_leads` needs of a lead on its own: (suit, k, m, top, points, strength
    sum), remembered per context and play (contexts are shared objects)."""
    key = (ctx, p)
    got = _LEADS.get(key)
    if got is None:
        size = len(p)
        comps = [Combo(1, 1, ctx.order[p[0]], p)] if size == 1 else decompose(p, ctx)
        _, top = winning_shape(p, p, comps, ctx)
        tab = strengths(ctx)
        got = (ctx.eff[p[0]], comps[0].k, comps[0].m, top, points(p), sum(map(tab.__getitem__, p)))
        if len(_LEADS) >= _LEADS_MAX:
            _LEADS.clear()
        _LEADS[key] = got
    return got


def score_leads(
    st: TrickState,
    threats: Threats,
    options: Sequence[tuple[int, ...]],
    ally_void: Callable[[int], bool],
    foe_void: Callable[[int], bool],
) -> list[tuple[float, tuple[int, ...]]]:
    """Prefer sure winners (bigger is better), then cheap leads; trumps pulled by the dealer's side."""
    eff = st.ctx.eff
    hand = st.hand
    n_trump = [*map(eff.__getitem__, hand)].count(TRUMP)  # (counted in C)
    seat, players, same_side = st.seat, st.players, st.same_side
    foes = tuple([s for j in range(1, players) if not same_side(s := (seat + j) % players, seat)])
    beaten_by = threats.beaten_by

    def beaten(e: int, k: int, m: int, top: int, size: int) -> bool:
        return beaten_by(foes, e, 0, k, m, top, size)

    return lead_scores(st.ctx, hand, st.attacker, n_trump, st.tricks_left <= 2, options, beaten, hand.count, ally_void, foe_void)


def lead_scores(
    ctx: TrumpContext,
    hand: Sequence[int],
    attacker: bool,
    n_trump: int,
    last_tricks: bool,
    options: Sequence[tuple[int, ...]],
    beaten: Callable[[int, int, int, int, int], bool],
    copies: Callable[[int], int],
    ally_void: Callable[[int], bool],
    foe_void: Callable[[int], bool],
) -> list[tuple[float, tuple[int, ...]]]:
    """:func:`score_leads` without a trick state, one ``(score, play)`` per option: ``beaten``
    says whether an opponent beats a lead (its suit, shape, top and size), ``copies`` how many of
    a card the hand holds. The rollouts call it with answers read from their sampled deal."""
    n_hand = len(hand)
    trump_rich = n_trump * 2 >= n_hand
    kept, broken = _given_up(ctx)
    have: dict[int, int] | None = None  # counted when a lead of several cards is not safe
    scored: list[tuple[float, tuple[int, ...]]] = []
    facts = _LEADS.get
    for p in options:
        got = facts((ctx, p))
        e, k, m, top, pts, total_strength = got if got is not None else _lead_facts(p, ctx)
        size = len(p)
        safe = not beaten(e, k, m, top, size)
        if safe:
            score = 6.0 + 2.0 * size + pts * 0.5
            if last_tricks and size > 1:
                score += 20.0  # the last tricks: win big, protect or capture the kitty
        else:
            if size == 1:  # cost() of one card, from a table per context
                c = p[0]
                score = -pts * 1.2 - (broken[c] if copies(c) >= 2 else kept[c]) * 0.5
            else:
                if have is None:
                    have = kind_counts(hand)
                score = -pts * 1.2 - cost(p, hand, ctx, have) * 1.0
            if e != TRUMP and ally_void(e) and not foe_void(e):
                score += 4.0 + (size == 1)  # let the partner ruff
        if e == TRUMP:
            if not attacker and trump_rich:
                score += 1.5
            elif attacker and n_trump < n_hand:
                score -= 3.0  # attackers keep trumps to ruff and to win the last trick
        elif foe_void(e) and not safe:
            score -= 2.0
        score -= 0.01 * total_strength
        scored.append((score, p))
    return scored


__all__ = [
    "TrickState",
    "Threats",
    "choose_follow",
    "choose_lead",
    "score_follows",
    "score_leads",
    "follow_options",
    "lead_options",
    "lead_option_set",
    "sure_throw",
    "strength",
    "strengths",
    "cost",
    "points",
    "structured_pick",
    "sure_combos",
    "threatened",
    "survival",
    "winning_shape",
]
