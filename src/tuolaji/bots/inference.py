"""Inference from how the others played: weighting sampled deals by the likelihood of their plays.

:func:`~.determinize.sample_hidden` deals the hidden cards consistently with the hard facts
(voids, pairs not played when owed, known holdings). Play says more than that: a seat that
followed with a low card while its partner was winning probably had no point card to feed, a
seat that did not take a point trick probably could not. :class:`PlayModel` reads that from
the others' recent follows: for a sampled deal it rebuilds each such seat's hand and view at
the moment it played (its hand then is its sampled hand plus what it has played since; what
it could not see is everything not yet played outside that hand), scores that seat's options
with the heuristic's own follow tactics, and takes the probability of the play it made under
a soft-max of those scores (``temper`` points make a play e times less likely), mixed with
``eps`` of uniform choice for plays the model does not explain. Deals under which the plays
look likely get more weight.

The search uses it as sampling-importance-resampling: it draws ``pool`` deals, and keeps one
in proportion to its weight (:func:`sample_weighted`), so the rollouts are spent on deals
that fit the play, not wasted on deals that do not.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ..cards import NUM_KINDS
from ..combos import Combo, best_top, decompose
from ..engine.observation import Observation
from ..trump import TRUMP, TrumpContext
from .heuristic import MemoryThreats
from .memory import _Notes
from .tactics import TrickState, follow_options, score_follows
from .teams import believed_sides, hidden_friend, public_side_table, same_side_table

DEFAULT_POOL = 4  # deals drawn per kept deal
DEFAULT_WINDOW = 6  # finished tricks read back (and the trick in progress)
DEFAULT_TEMPER = 1.0  # points of the heuristic's score that make a play e times less likely
DEFAULT_EPS = 0.1  # share of play the model does not explain (uniform over the options)
EVALUATION_NODES = 2  # endgame positions that cost about as much time as one scored follow
MAX_LEAD = 2  # follows to leads of at most this many cards (larger ones cost too much to score)


@dataclass(frozen=True, slots=True)
class _Follow:
    """One follow by another seat, with the public context it was made in."""

    seat: int
    play: tuple[int, ...]
    seats: tuple[int, ...]  # who played to the trick before it
    plays: tuple[tuple[int, ...], ...]
    comps: list[Combo]
    since: Counter[int]  # cards this seat has played from then on (this play included)
    left: tuple[int, ...]  # per card kind: copies not played in public before this play
    void: tuple[frozenset[int], ...]  # public voids and pair shortages shown before this trick
    no_pairs: tuple[frozenset[int], ...]
    suit: int  # the led suit (effective)
    held_suit: int  # cards of the led suit among ``since``
    whole: int  # with at most this many cards of the led suit then, its options come from the whole hand


class PlayModel:
    """The likelihood of the others' recent follows under the heuristic's tactics, per sampled deal."""

    def __init__(
        self, obs: Observation, *, window: int = DEFAULT_WINDOW, temper: float = DEFAULT_TEMPER, eps: float = DEFAULT_EPS
    ) -> None:
        self.obs, self.ctx, self.temper, self.eps = obs, obs.ctx, temper, eps
        self.follows = _recent_follows(obs, window)
        self._public_sides = public_side_table(obs)
        self.evaluations = 0  # follows scored so far (the search counts them in its step budget)
        # the log-likelihood of a follow depends only on some of the follower's cards then (and of
        # the kitty if it buried it, see log_weight): kept per follow and those cards, for the deals
        # that repeat them; a repeat still counts as an evaluation, so budgets are unchanged
        self._logs: dict[tuple[int, bool, tuple[int, ...], tuple[int, ...] | None, int, bool], float] = {}
        # per follow: the copies of each trump kind unseen by the follower then, before its hand
        # now and the kitty are taken out (not played before it, not played by it since)
        self._since = [tuple(f.since.elements()) for f in self.follows]  # per follow: its ``since`` as cards
        self._trumps = [{c: f.left[c] - f.since.get(c, 0) for c in self.ctx.suit_kinds[TRUMP]} for f in self.follows]
        order = self.ctx.order
        self._trumps_down = sorted(self.ctx.suit_kinds[TRUMP], key=order.__getitem__, reverse=True)  # best first

    def _trump_top(self, i: int, now: dict[int, int], kitty: dict[int, int] | None) -> int:
        """``unseen_top(TRUMP, k, m)`` of follow ``i``'s threats (the lead's shape) in this deal
        (``now``, ``kitty``: the follower's trumps in this deal and the kitty's, per card kind)."""
        f = self.follows[i]
        left = self._trumps[i]
        k, m = f.comps[0].k, f.comps[0].m
        if m == 1:  # every lead scored (at most MAX_LEAD cards): the best kind with k copies left
            for c in self._trumps_down:
                n = left[c] - now.get(c, 0)
                if kitty is not None:
                    n -= kitty.get(c, 0)
                if n >= k:
                    return self.ctx.order[c]
            return -1
        counts = {c: n - now.get(c, 0) - (kitty.get(c, 0) if kitty is not None else 0) for c, n in left.items()}
        return best_top({c: n for c, n in counts.items() if n > 0}, k, m, self.ctx.order)

    def _trumps_of(self, cards: list[int]) -> dict[int, int]:
        """The trumps among ``cards``, per card kind."""
        eff = self.ctx.eff
        out: dict[int, int] = {}
        for c in cards:
            if eff[c] == TRUMP:
                out[c] = out.get(c, 0) + 1
        return out

    def log_weight(self, hands: list[list[int]], kitty: list[int]) -> float:
        obs, ctx = self.obs, self.ctx
        eff = ctx.eff
        total = 0.0
        burier_hidden = obs.kitty is None  # the burier knows the kitty: its cards are not unseen to it
        friends = bool(obs.friend_calls)
        # per seat: its cards in this deal by suit (in hand order) and its trumps per kind, worked
        # out once for all its follows; the kitty's trumps, for the burier's
        seats: dict[int, tuple[dict[int, list[int]], dict[int, int]]] = {}
        kitty_trumps: dict[int, int] | None = None
        for i, f in enumerate(self.follows):
            knows_kitty = burier_hidden and f.seat == obs.dealer
            now = hands[f.seat]
            e = f.suit
            got = seats.get(f.seat)
            if got is None:
                by_suit = ctx.by_suit(now)
                got = seats[f.seat] = (by_suit, self._trumps_of(by_suit.get(TRUMP, [])))
            # The follow's score reads the follower's cards of the led suit (its options and what
            # they break), its whole hand only when short of the suit, the unseen cards of the led
            # suit (``left`` less its hand and the kitty it knows), of trump only their best top of
            # the lead's shape (whether a foe may ruff, or beat a partner's ruff), and whether it is
            # a hidden friend; the rest of ``since`` is fixed per follow. Those key the
            # log-likelihood kept for the deals that repeat them.
            suit_now = got[0].get(e, [])
            whole = len(suit_now) + f.held_suit <= f.whole
            mine: tuple[int, ...] = tuple(sorted(now)) if whole else tuple(sorted(suit_now))
            seen_kitty = tuple(sorted([c for c in kitty if eff[c] == e])) if knows_kitty else None
            if e == TRUMP:
                trump_top = -2
            else:
                if knows_kitty and kitty_trumps is None:
                    kitty_trumps = self._trumps_of(kitty)
                trump_top = self._trump_top(i, got[1], kitty_trumps if knows_kitty else None)
            hidden = friends and hidden_friend(obs, f.seat, {*now, *f.since})
            key = (i, whole, mine, seen_kitty, trump_top, hidden)
            self.evaluations += 1
            known = self._logs.get(key)
            if known is not None:  # this follow from these cards (and kitty) scored before
                total += known
                continue
            cards = sorted([*now, *self._since[i]])  # its hand then
            left = list(f.left)  # unseen by the seat then: not played before, not in its hand
            for c in cards:
                left[c] -= 1
            if knows_kitty:
                for c in kitty:
                    left[c] -= 1
            if hidden:  # a hidden friend then knew its side
                is_attacker = believed_sides(obs, f.seat, {*now, *f.since})
                sides = same_side_table(is_attacker, obs.players)
            else:  # the public sides (what believed_sides answers then), one table for every follow
                is_attacker = obs.is_attacker
                sides = self._public_sides
            st = TrickState(
                f.seat,
                obs.players,
                cards,
                ctx,
                f.seats,
                f.plays,
                f.comps,
                sides,
                is_attacker(f.seat),
                max(1, len(cards) // len(f.plays[0])),
            )
            options = follow_options(st)
            if f.play not in options:
                options.append(f.play)
            scored = score_follows(st, _ThenThreats(ctx, left, f.void, f.no_pairs, f.seat), options)
            top = max([s for s, _ in scored])
            z = sum([math.exp((s - top) / self.temper) for s, _ in scored])
            chosen = scored[options.index(f.play)][0]  # (scored in the order of the options)
            prob = (1 - self.eps) * math.exp((chosen - top) / self.temper) / z + self.eps / len(scored)
            known = self._logs[key] = math.log(prob)
            total += known
        return total


class _ThenThreats(MemoryThreats):
    """:class:`MemoryThreats` of a seat at the time of its follow, in a sampled deal: the unseen
    cards of a suit are counted from ``left`` (per card kind) when that suit is first asked."""

    def __init__(
        self,
        ctx: TrumpContext,
        left: list[int],
        void: Sequence[AbstractSet[int]],
        no_pairs: Sequence[AbstractSet[int]],
        seat: int,
    ) -> None:
        self.ctx, self.void, self.no_pairs, self.seat = ctx, void, no_pairs, seat
        self._left = left
        self._by_suit: dict[int, dict[int, int]] = {}
        self._tops: dict[tuple[int, int, int], int] = {}
        self._totals: dict[int, int] = {}
        self._beaten: dict[tuple[tuple[int, ...], int, int, int, int, int], int] = {}

    def unseen(self, suit: int) -> dict[int, int]:
        got = self._by_suit.get(suit)
        if got is None:
            left = self._left
            got = self._by_suit[suit] = {c: left[c] for c in self.ctx.suit_kinds[suit] if left[c] > 0}
        return got


def _recent_follows(obs: Observation, window: int) -> list[_Follow]:
    """The other seats' follows in the last ``window`` finished tricks and the current one."""
    ctx = obs.ctx
    tricks = list(obs.tricks)
    if obs.trick is not None and obs.trick.plays:
        tricks.append(obs.trick)
    first = max(0, len(obs.tricks) - window)
    players = obs.players
    notes = _Notes(
        0, None, Counter(), [set() for _ in range(players)], [set() for _ in range(players)], [Counter() for _ in range(players)]
    )  # what the tricks before each one showed
    for t in tricks[:first]:
        notes.note(t, ctx)
    since: list[Counter[int]] = [Counter() for _ in range(players)]
    for t in tricks[first:]:
        for s, p in zip(t.seats, t.plays, strict=False):
            since[s].update(p)
    seen = Counter(notes.played)
    out: list[_Follow] = []
    for t in tricks[first:]:
        comps = decompose(t.plays[0], ctx)
        void = tuple(frozenset(v) for v in notes.void)
        no_pairs = tuple(frozenset(v) for v in notes.no_pairs)
        for j, (s, p) in enumerate(zip(t.seats, t.plays, strict=False)):
            if j and s != obs.seat and len(t.plays[0]) <= MAX_LEAD:
                out.append(
                    _Follow(
                        s,
                        tuple(sorted(p)),
                        tuple(t.seats[:j]),
                        tuple(t.plays[:j]),
                        comps,
                        Counter(since[s]),
                        tuple(obs.decks - seen[c] for c in range(NUM_KINDS)),
                        void,
                        no_pairs,
                        ctx.eff[t.plays[0][0]],
                        sum(1 for c, n in since[s].items() if ctx.eff[c] == ctx.eff[t.plays[0][0]] for _ in range(n)),
                        0 if len(t.plays[0]) == 1 else len(t.plays[0]),
                    )
                )
            seen.update(p)
            since[s].subtract(p)
        notes.note(t, ctx)
    return out


def sample_weighted(
    draw: list[tuple[list[list[int]], list[int]]], model: PlayModel, rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """One of the drawn deals, in proportion to the likelihood of the observed follows under it."""
    if len(draw) == 1 or not model.follows:
        return draw[0]
    logs = [model.log_weight(h, k) for h, k in draw]
    top = max(logs)
    return rng.choices(draw, [math.exp(x - top) for x in logs])[0]


__all__ = ["PlayModel", "sample_weighted", "DEFAULT_POOL", "DEFAULT_WINDOW", "DEFAULT_TEMPER", "DEFAULT_EPS"]
