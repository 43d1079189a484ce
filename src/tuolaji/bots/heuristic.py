"""The heuristic bot: card memory, void inference and the strategy notes of RULES.md §11.

It remembers which cards are out and who has shown a void, leads sure winners (plain aces,
pairs, tractors, safe throws), lets a void partner ruff, feeds points to a partner who is
winning, ruffs point tricks cheaply, keeps trump pairs whole, buries to void short suits
without giving points away, and declares when its trumps would be long enough.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from ..cards import POINTS, LevelRank, is_joker, is_level_card, suit_of
from ..combos import best_top, decompose
from ..engine.observation import Observation
from ..trump import TRUMP, TrumpContext
from .base import Bot
from .memory import Memory, remember
from .registry import register
from .tactics import BEATEN_HOLDS, HELD, TrickState, follow_listing, lead_options, score_follows, score_leads
from .teams import believed_side_table, believed_sides, same_side


class MemoryThreats:
    """Who might beat a play, from unseen cards and shown voids (never from hidden hands).

    One decision asks the same questions of the unseen cards again and again (for every option
    and every opponent): their best combination of a shape and their count per suit are worked
    out once per question and kept (a Memory never changes)."""

    seat = -1  # the seat asking
    holds: Sequence[Mapping[int, int]] | None = None  # per seat: cards it is known to hold
    sizes: Sequence[int] | None = None  # the hands' sizes now (None: taken as equal)
    kitty = 0  # hidden kitty cards, a place unseen cards may be

    def __init__(self, mem: Memory, sizes: Sequence[int] | None = None, kitty: int = 0) -> None:
        self.mem = mem
        self.ctx = mem.ctx
        self.void: Sequence[AbstractSet[int]] = mem.void
        self.no_pairs: Sequence[AbstractSet[int]] = mem.no_pairs
        self._suits: dict[int, dict[int, int]] | None = None
        self._by_suit: dict[int, dict[int, int]] = {}
        self._tops: dict[tuple[int, int, int], int] = {}
        self._totals: dict[int, int] = {}
        self._beaten: dict[tuple[tuple[int, ...], int, int, int, int, int], int] = {}
        self.seat, self.holds, self.sizes = mem.seat, mem.holds, sizes
        self.kitty = kitty if mem.kitty_hidden else 0

    def unseen(self, suit: int) -> dict[int, int]:
        """``mem.unseen_in(suit)`` as a plain dict (read only): from the memory's copies left per
        card kind, the suit's kinds (a decision asks about few suits), else every suit's share
        of ``mem.unseen`` sorted out in one pass."""
        left = self.mem.left
        if left is not None:
            got = self._by_suit.get(suit)
            if got is None:
                got = self._by_suit[suit] = {c: left[c] for c in self.ctx.suit_kinds[suit] if left[c] > 0}
            return got
        suits = self._suits
        if suits is None:
            suits = self._suits = {}
            eff = self.mem.ctx.eff
            for c, n in self.mem.unseen.items():
                if n:
                    e = eff[c]
                    got = suits.get(e)
                    if got is None:
                        got = suits[e] = {}
                    got[c] = n
        got = suits.get(suit)
        if got is None:
            got = suits[suit] = {}
        return got

    def unseen_top(self, suit: int, k: int, m: int) -> int:
        """``best_top`` of the unseen cards of ``suit``."""
        key = (suit, k, m)
        top = self._tops.get(key)
        if top is None:
            top = self._tops[key] = best_top(self.unseen(suit), k, m, self.ctx.order)
        return top

    def _few_left(self, suit: int, n: int) -> bool:
        """Fewer than two leads' worth of ``suit`` unseen."""
        total = self._totals.get(suit)
        if total is None:
            total = self._totals[suit] = sum(self.unseen(suit).values())
        return total < n * 2

    def hold_chance(self, seats: Sequence[int], suit: int, tier: int, k: int, m: int, top: int, n: int) -> float:
        """A single card of the led suit that only a higher card of that suit can beat: the chance
        that none of the unseen higher cards is in ``seats``' hands, each unseen card being in any
        other hand that may hold the suit (or the hidden kitty) in proportion to its size. Anything
        else (pairs, ruffs, a seat known to hold a higher card): the flat guess."""
        void = self.void
        if tier == 0:  # could_beat() of each seat, inline: the suit's top and a ruff's chance asked once
            above = self.unseen_top(suit, k, m) > top
            pairs = k >= 2
            ruff: bool | None = None  # whether a seat void in the suit (or few of it left) may ruff
            beats = []
            for s in seats:
                v = void[s]
                if suit not in v and above and not (pairs and suit in self.no_pairs[s]):
                    beats.append(s)
                elif suit != TRUMP and TRUMP not in v and (suit in v or self._few_left(suit, n)):
                    if ruff is None:
                        ruff = self.unseen_top(TRUMP, k, m) >= 0
                    if ruff:
                        beats.append(s)
        else:
            beats = [s for s in seats if self.could_beat(s, suit, tier, k, m, top, n)]
        if not beats:
            return 1.0
        if k != 1 or tier != 0:
            return HELD
        if suit != TRUMP and any(suit in void[s] for s in beats):
            return HELD  # a ruff
        if suit != TRUMP and self._few_left(suit, n):
            return HELD  # few left: a ruff is likely
        order = self.ctx.order
        higher = [(c, v) for c, v in self.unseen(suit).items() if order[c] > top]
        holds = self.holds
        if holds is not None and any(h[c] for s in beats if (h := holds[s]) for c, _ in higher):  # (most hold nothing known)
            return BEATEN_HOLDS
        sizes = self.sizes
        holders = [s for s in range(len(void)) if s != self.seat and suit not in void[s]]
        if sizes is None:
            share = len(beats) / max(1, len(holders))
        else:
            room = sum(sizes[s] for s in holders) + self.kitty
            share = sum(sizes[s] for s in beats) / room if room else 1.0
        return (1 - min(1.0, share)) ** sum(v for _, v in higher)

    def beaten_by(self, seats: Sequence[int], suit: int, tier: int, k: int, m: int, top: int, n: int) -> bool:
        """:meth:`could_beat` of any of ``seats``, from the lowest top that none of them beats,
        kept per question (a lead's options ask it of the same foes for every top): a seat beats
        a play of the led suit when it may hold the suit's unseen best (top below it) or may ruff
        (any top); a ruff when it may hold the unseen best trump (top below it)."""
        key = (tuple(seats), suit, tier, k, m, n)
        safe_from = self._beaten.get(key)
        if safe_from is None:
            safe_from = _NEVER
            void, no_pairs = self.void, self.no_pairs
            for s in seats:
                v = void[s]
                if tier:  # a ruff: beaten by the unseen best trump, by a seat that may ruff
                    if TRUMP not in v and (suit in v or self._few_left(suit, n)):
                        safe_from = self.unseen_top(TRUMP, k, m)
                        break
                    continue
                if (
                    suit != TRUMP
                    and TRUMP not in v
                    and (suit in v or self._few_left(suit, n))
                    and self.unseen_top(TRUMP, k, m) >= 0
                ):
                    safe_from = _ALWAYS  # it may ruff whatever the top
                    break
                if suit not in v and not (k >= 2 and suit in no_pairs[s]):
                    safe_from = max(safe_from, self.unseen_top(suit, k, m))
            self._beaten[key] = safe_from
        return top < safe_from

    def could_beat(self, seat: int, suit: int, tier: int, k: int, m: int, top: int, n: int) -> bool:
        void = self.void[seat]
        trumps_possible = TRUMP not in void
        if tier == 0:
            if suit not in void:
                if k >= 2 and suit in self.no_pairs[seat]:
                    pass
                elif self.unseen_top(suit, k, m) > top:
                    return True
            if suit != TRUMP and trumps_possible:
                if suit in void or self._few_left(suit, n):
                    return self.unseen_top(TRUMP, k, m) >= 0
            return False
        if not trumps_possible:
            return False
        if suit in void or self._few_left(suit, n):
            return self.unseen_top(TRUMP, k, m) > top
        return False


_NEVER = -(1 << 30)  # beaten_by: no top is beaten
_ALWAYS = 1 << 30  # beaten_by: every top is beaten


def trick_state(obs: Observation) -> TrickState:
    trick = obs.trick
    seats: tuple[int, ...] = trick.seats if trick else ()
    plays: tuple[tuple[int, ...], ...] = trick.plays if trick else ()
    comps = decompose(plays[0], obs.ctx) if plays else None
    # every hand shrinks by the lead's size each trick: a follow knows exactly when it is last
    tricks_left = max(1, len(obs.hand) // len(plays[0])) if plays else len(obs.hand)
    is_attacker, sides = believed_side_table(obs)
    return TrickState(
        obs.seat,
        obs.players,
        obs.hand,
        obs.ctx,
        seats,
        plays,
        comps,
        sides,
        is_attacker(obs.seat),
        tricks_left,
    )


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ------------------------------------------------------------- declaring
    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        return heuristic_declaration(obs)

    # ------------------------------------------------------------- burying
    def bury(self, obs: Observation) -> tuple[int, ...]:
        return heuristic_bury(obs.hand, obs.ctx, obs.kitty_size)

    # ------------------------------------------------------------- playing
    def play(self, obs: Observation) -> tuple[int, ...]:
        return max(scored_plays(obs, remember(obs), keep=False))[1]


def scored_plays(obs: Observation, mem: Memory, *, keep: bool = True) -> list[tuple[float, tuple[int, ...]]]:
    """Every play the heuristic considers, with its score (higher is better). ``keep`` false:
    a follow's listing is not remembered (see :func:`.tactics.follow_listing`): a bot playing
    the heuristic alone never meets it again, where a search's rollouts and inference may."""
    threats = MemoryThreats(mem, obs.hand_sizes, obs.kitty_size)
    st = trick_state(obs)
    if st.plays:
        return score_follows(st, threats, *follow_listing(st, keep))
    is_attacker = believed_sides(obs)
    ally = [s for s in range(obs.players) if s != obs.seat and same_side(is_attacker, s, obs.seat)]
    foes = [s for s in range(obs.players) if not same_side(is_attacker, s, obs.seat)]
    options = lead_options(obs.hand, obs.ctx, threats.unseen_top)  # the tops could_beat asks for again
    # the suits some partner who may ruff (some opponent) has shown void in, asked per option
    ally_void = {e for s in ally if TRUMP not in mem.void[s] for e in mem.void[s]}
    foe_void = {e for s in foes for e in mem.void[s]}
    return score_leads(st, threats, options, ally_void.__contains__, foe_void.__contains__)


def trump_length(hand: tuple[int, ...] | list[int], ctx_suit: int | None, level: LevelRank) -> int:
    """How many trumps ``hand`` would hold with ``ctx_suit`` as trump (None: no-trump)."""
    return sum(1 for c in hand if is_joker(c) or is_level_card(c, level) or (ctx_suit is not None and suit_of(c) == ctx_suit))


def heuristic_declaration(obs: Observation) -> tuple[int, ...] | None:
    """Declare (or override) when the suit would give a long trump holding.

    Early in the deal a fair share is enough (first declarer deals in the first round);
    overriding a partner needs a clearly better suit.
    """
    options = obs.declaration_options()  # the engine's own declaring rule, every variant included
    if not options:
        return None
    hand = obs.hand
    n = max(1, len(hand))
    best: tuple[float, tuple[int, ...]] | None = None
    for cards in options:
        suit = None if is_joker(min(cards)) else suit_of(min(cards))
        length = trump_length(hand, suit, obs.level)
        strong = sum(1 for c in hand if is_joker(c) or is_level_card(c, obs.level))
        share = length / n
        if suit is None:
            share = (strong * 1.6) / n  # no-trump pays only with many jokers and level cards
        score = share + 0.05 * len(cards)
        if best is None or score > best[0]:
            best = (score, cards)
    assert best is not None
    score, cards = best
    bidder = obs.bid_seat
    threshold = 0.3 if len(hand) >= 8 else 0.45
    if bidder is not None and bidder != obs.seat and same_side(obs.is_attacker, bidder, obs.seat) and obs.dealer is not None:
        threshold += 0.1  # do not take trump away from a partner lightly
    return cards if score >= threshold else None


def heuristic_bury(hand: tuple[int, ...] | list[int], ctx: TrumpContext, size: int) -> tuple[int, ...]:
    """Bury plain cards: empty the shortest cheap suits first, then the lowest singles.

    Points, aces, kings and pairs stay in hand where possible (the kitty is only safe if the
    dealer's side wins the last trick); trumps are buried only when nothing else is left.
    """
    keep_value = _keep_value(hand, ctx)
    plain = _plain_suits(hand, ctx)
    chosen: list[int] = []
    suits = sorted(plain, key=lambda e: (len(plain[e]), sum(keep_value(c) for c in plain[e])))
    for e in suits:
        cards = plain[e]
        room = size - len(chosen)
        if len(cards) <= room and sum(keep_value(c) for c in cards) <= 14 * len(cards):
            if all(keep_value(c) < 14 for c in cards):
                chosen.extend(cards)
    return _fill(hand, ctx, size, chosen, keep_value, plain)


def bury_candidates(hand: tuple[int, ...] | list[int], ctx: TrumpContext, size: int, limit: int = 5) -> list[tuple[int, ...]]:
    """A short list of sensible buries for a search to compare, the heuristic's first: emptying
    each plain suit short enough to empty (to ruff it later), and the cheapest cards without
    emptying any suit."""
    keep_value = _keep_value(hand, ctx)
    plain = _plain_suits(hand, ctx)
    out = [heuristic_bury(hand, ctx, size)]
    for e in sorted(plain, key=lambda e: len(plain[e])):
        if len(plain[e]) <= size:
            out.append(_fill(hand, ctx, size, list(plain[e]), keep_value, plain))
    out.append(_fill(hand, ctx, size, [], keep_value, plain))
    unique: list[tuple[int, ...]] = []
    for cand in out:
        if sorted(cand) not in (sorted(u) for u in unique):
            unique.append(cand)
    return unique[:limit]


def _keep_value(hand: tuple[int, ...] | list[int], ctx: TrumpContext) -> Callable[[int], float]:
    counts = Counter(hand)

    def keep_value(c: int) -> float:
        v = ctx.order[c] * 1.0 + POINTS[c] * 0.8
        if counts[c] >= 2:
            v += 8
        if ctx.order[c] >= 10:  # A and K of a plain suit
            v += 6
        return v

    return keep_value


def _plain_suits(hand: tuple[int, ...] | list[int], ctx: TrumpContext) -> dict[int, list[int]]:
    plain: dict[int, list[int]] = {}
    for c in hand:
        if ctx.eff[c] != TRUMP:
            plain.setdefault(ctx.eff[c], []).append(c)
    return plain


def _fill(
    hand: tuple[int, ...] | list[int],
    ctx: TrumpContext,
    size: int,
    chosen: list[int],
    keep_value: Callable[[int], float],
    plain: dict[int, list[int]],
) -> tuple[int, ...]:
    """``chosen`` topped up with the cheapest other cards (plain before trump, short suits first)."""
    eff = ctx.eff
    remaining = Counter(hand)
    remaining.subtract(chosen)
    rest = [c for c in remaining.elements()]
    rest.sort(key=lambda c: (eff[c] == TRUMP, keep_value(c) if eff[c] != TRUMP else ctx.order[c], -len(plain.get(eff[c], ()))))
    return tuple((chosen + rest[: size - len(chosen)])[:size])


register("heuristic", lambda seed, **kw: HeuristicBot(seed, **kw))

__all__ = [
    "HeuristicBot",
    "MemoryThreats",
    "scored_plays",
    "heuristic_bury",
    "bury_candidates",
    "heuristic_declaration",
    "trick_state",
]
