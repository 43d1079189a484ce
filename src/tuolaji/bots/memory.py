"""Card memory and inference from public play: what is out, what is unseen, who is void.

Everything here is computed from an :class:`Observation` alone (the seat's hand, its own
kitty if it buried it, the public tricks and the standing bid), so it can never leak a
hidden card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import NUM_KINDS, kind_counts
from ..combos import decompose
from ..engine.observation import Observation, PublicTrick
from ..trump import TrumpContext


class Memory:
    """What a seat knows from public play. Read-only: it may share the notes kept per round.

    Made by :func:`remember` with ``left`` (per card kind, the copies this seat has not seen),
    the unseen cards are counted from it only when first asked for: the heuristic's threats read
    ``left`` of the suits they ask about, and many decisions ask none. Likewise ``played`` with
    ``more`` (the plays of the trick in progress) is added up only when first asked for (only
    the human-like bots ask)."""

    __slots__ = ("seat", "ctx", "_played", "_more", "_unseen", "void", "no_pairs", "holds", "kitty_hidden", "left")

    def __init__(
        self,
        seat: int,
        ctx: TrumpContext,
        played: Counter[int],  # every card played in public so far
        unseen: Counter[int] | None,  # cards in other hands or in a kitty this seat did not bury (None: from ``left``)
        void: list[set[int]],  # per seat: effective suits it has shown it lacks
        no_pairs: list[set[int]],  # per seat: effective suits in which it has shown it holds no pair
        holds: list[Counter[int]],  # per seat: cards it is known to hold (failed throws, declarations)
        kitty_hidden: bool,  # the kitty is among the unseen cards (this seat did not bury it)
        left: Sequence[int] | None = None,  # per card kind: unseen copies (when ``unseen`` is None)
        more: Sequence[Sequence[int]] = (),  # plays not in ``played`` (the trick in progress), added when asked
    ) -> None:
        assert unseen is not None or left is not None
        self.seat, self.ctx, self._played, self._more, self._unseen = seat, ctx, played, more, unseen
        self.void, self.no_pairs, self.holds, self.kitty_hidden = void, no_pairs, holds, kitty_hidden
        self.left = left if unseen is None else None

    @property
    def played(self) -> Counter[int]:
        """Every card played in public so far (in the order ``_Notes`` counts them)."""
        more = self._more
        if more:
            played: Counter[int] = Counter()
            dict.update(played, self._played)  # (a shared count: never written)
            count = played.get
            for play in more:
                for c in play:
                    played[c] = count(c, 0) + 1
            self._played, self._more = played, ()
        return self._played

    @property
    def unseen(self) -> Counter[int]:
        """Cards in other hands or in a kitty this seat did not bury, in card order."""
        got = self._unseen
        if got is None:
            assert self.left is not None
            got = self._unseen = Counter()
            dict.update(
                got, {c: n for c, n in enumerate(self.left) if n > 0}
            )  # (Counter's own update checks its argument's type)
        return got

    def unseen_in(self, suit: int) -> Counter[int]:
        eff = self.ctx.eff
        return Counter({c: n for c, n in self.unseen.items() if n and eff[c] == suit})

    def may_hold(self, seat: int, suit: int) -> bool:
        return suit not in self.void[seat]


class _Notes:
    """What the finished tricks of a round have shown, accumulated trick by trick."""

    __slots__ = ("done", "last", "played", "void", "no_pairs", "holds", "left")

    def __init__(
        self,
        done: int,
        last: PublicTrick | None,
        played: Counter[int],
        void: list[set[int]],
        no_pairs: list[set[int]],
        holds: list[Counter[int]],
    ) -> None:
        self.done, self.last = done, last
        self.played, self.void, self.no_pairs, self.holds = played, void, no_pairs, holds
        self.left: tuple[int, ...] | None = None  # per card kind: copies not played (worked out when first asked)

    def note(self, t: PublicTrick, ctx: TrumpContext) -> None:
        """Add what ``t`` shows, in place."""
        self._note(t, ctx, self.played, self.void, self.no_pairs, self.holds, False)

    def noted(self, t: PublicTrick, ctx: TrumpContext, count: bool = True) -> _Notes:
        """These notes and what ``t`` shows, as new notes; these stay as they are. What ``t``
        leaves unchanged (most seats' voids, pair shortages and holdings) is shared, not copied.
        Without ``count``, the cards of ``t`` are not counted in: the new notes share these
        notes' ``played`` (the trick in progress, which a :class:`Memory` adds when asked)."""
        if count:
            played: Counter[int] = Counter()
            dict.update(played, self.played)  # Counter.copy() without its argument checks
        else:
            played = self.played
        void, no_pairs, holds = list(self.void), list(self.no_pairs), list(self.holds)
        self._note(t, ctx, played if count else None, void, no_pairs, holds, True)
        return _Notes(self.done, self.last, played, void, no_pairs, holds)

    @staticmethod
    def _note(
        t: PublicTrick,
        ctx: TrumpContext,
        played: Counter[int] | None,  # None: the cards are not counted
        void: list[set[int]],
        no_pairs: list[set[int]],
        holds: list[Counter[int]],
        shared: bool,
    ) -> None:
        """Note ``t`` into the given lists; with ``shared`` their sets and counters belong to
        others and are replaced (with the same contents and order) rather than changed."""
        eff = ctx.eff
        lead = t.plays[0]
        n = len(lead)
        suit = eff[lead[0]]
        pairs_needed = _pairs(lead, ctx) if n > 1 else 0
        if t.attempted is not None:  # a failed throw shows cards that went back to the hand
            h = holds[t.leader]
            if shared:
                h = holds[t.leader] = Counter(h)
            h.update(Counter(t.attempted) - Counter(lead))
        for seat, play in zip(t.seats, t.plays, strict=False):
            if played is not None:
                count = played.get
                for c in play:  # played.update(play) without Counter.update's argument checks (the same entries, in order)
                    played[c] = count(c, 0) + 1
            if holds[seat]:
                if shared:  # ``-`` keeps the same entries in the same order as ``-=``
                    holds[seat] = holds[seat] - Counter(play)
                else:
                    holds[seat] -= Counter(play)
            if seat == t.leader:
                continue
            in_suit = [c for c in play if eff[c] == suit]
            if len(in_suit) < n:
                if shared:
                    if suit not in void[seat]:
                        void[seat] = void[seat] | {suit}
                else:
                    void[seat].add(suit)
            elif pairs_needed and sum(v // 2 for v in kind_counts(in_suit).values()) < pairs_needed:
                if shared:
                    if suit not in no_pairs[seat]:
                        no_pairs[seat] = no_pairs[seat] | {suit}
                else:
                    no_pairs[seat].add(suit)


# Notes on the finished tricks, per round, so that each decision only reads the tricks finished
# since the last one. What finished tricks show is public, so every seat of a round shares the
# same notes. A round's finished tricks are shared, never-changing objects (observe() builds
# each once), so the last trick read, found at its place again, proves the observation
# continues the same round. Stored notes are never changed: noting a trick makes new ones.
_NOTES: dict[tuple[object, ...], _Notes] = {}
_NOTES_MAX = 64


def _notes(obs: Observation) -> _Notes:
    """The notes on ``obs``'s finished tricks: the stored object itself (never to be changed)."""
    players = obs.players
    key = (players, obs.ctx, obs.dealer, obs.bid_seat, obs.bid_cards)
    tricks = obs.tricks
    got = _NOTES.get(key)
    if got is None or got.done > len(tricks) or (got.done and tricks[got.done - 1] is not got.last):
        holds: list[Counter[int]] = [Counter() for _ in range(players)]
        if obs.bid_seat is not None and obs.bid_cards and obs.bid_seat != obs.dealer:
            holds[obs.bid_seat].update(obs.bid_cards)  # the dealer may have buried its declared cards
        got = _Notes(0, None, Counter(), [set() for _ in range(players)], [set() for _ in range(players)], holds)
        if not tricks:
            return got
    if got.done == len(tricks):
        return got
    notes = got
    for t in tricks[got.done :]:
        notes = notes.noted(t, obs.ctx)
    notes.done, notes.last = len(tricks), tricks[-1]
    if len(_NOTES) >= _NOTES_MAX:
        _NOTES.clear()  # games come and go; starting over costs one full read
    _NOTES[key] = notes
    return notes


_NO_HOLDINGS: Counter[int] = Counter()  # a seat known to hold nothing in particular (shared, never written)


def remember(obs: Observation) -> Memory:
    ctx = obs.ctx
    stored = _notes(obs)
    kept = stored.left
    if kept is None:
        left = [obs.decks] * NUM_KINDS
        for c, n in stored.played.items():
            left[c] -= n
        stored.left = tuple(left)
    else:
        left = list(kept)
    notes = stored
    more: tuple[tuple[int, ...], ...] = ()
    if obs.trick is not None and obs.trick.plays:
        more = obs.trick.plays  # the trick in progress: new notes, the stored ones stay (its cards counted when asked)
        notes = stored.noted(obs.trick, ctx, False)
        for play in more:
            for c in play:
                left[c] -= 1
    # The Memory shares the notes' played cards, voids and pair shortages (nobody writes to a
    # Memory); the known holdings are rebuilt below, never written in place.
    for c in obs.hand:
        left[c] -= 1
    if obs.kitty is not None:
        for c in obs.kitty:
            left[c] -= 1
    holds: list[Counter[int]] = []
    for s, h in enumerate(notes.holds):
        if h and s != obs.seat:
            known: Counter[int] = Counter()
            dict.update(known, {c: min(n, left[c] if left[c] > 0 else 0) for c, n in h.items()})
            holds.append(known)
        else:
            holds.append(_NO_HOLDINGS)
    return Memory(obs.seat, ctx, notes.played, None, notes.void, notes.no_pairs, holds, obs.kitty is None, left, more)


def _pairs(cards: Sequence[int], ctx: TrumpContext) -> int:
    return sum(c.m * (c.k // 2) for c in decompose(cards, ctx) if c.k >= 2)
