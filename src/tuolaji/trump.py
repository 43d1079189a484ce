"""The trump context: effective suit and order of every card, computed once per round.

``order`` is a card's strength inside its effective suit and doubles as its position in
tractor chains: two pairs form a tractor step when their orders differ by exactly one. The
off-suit level cards share one order (they are equal to each other and never pair), which is
exactly what the rules need: ``♠55 + ♥55`` chains (orders 12, 13), ``♣55 + ♦55`` does not.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .cards import BJ, LJ, NUM_KINDS, SUIT_OF, LevelRank, suit_letter

TRUMP = 4  # the effective suit of every trump card
JOKER_LEVEL = LevelRank(15)  # 打王 (seed 000 H): the level after A has no level cards; only jokers are trumps
NO_TRUMP: None = None


class TrumpContext:
    """Level rank (2..14), trump suit (0..3 or None for no-trump) and the derived tables."""

    __slots__ = (
        "level",
        "trump",
        "decks",
        "notrump_level_tractor",
        "eff",
        "order",
        "_sort_key",
        "pos",
        "_pos_bit",
        "_by_order",
        "suit_kinds",
        "suit_sets",
    )

    level: LevelRank
    trump: int | None
    decks: int
    notrump_level_tractor: bool
    eff: tuple[int, ...]
    order: tuple[int, ...]
    _sort_key: tuple[int, ...] | None
    pos: tuple[int, ...]
    _pos_bit: tuple[int, ...] | None
    _by_order: tuple[tuple[tuple[int, ...], ...], ...] | None
    suit_kinds: tuple[tuple[int, ...], ...]  # per effective suit (0..3, TRUMP): its card kinds in card order
    suit_sets: tuple[frozenset[int], ...]  # the same as sets: filter(suit_sets[e].__contains__, hand) is a C-level pass

    def __new__(cls, level: LevelRank, trump: int | None, decks: int = 2, notrump_level_tractor: bool = True) -> TrumpContext:
        return _context(level, trump, decks, notrump_level_tractor)

    def __repr__(self) -> str:
        suit = suit_letter(self.trump) or "NT"
        return f"TrumpContext(level={self.level}, trump={suit}, decks={self.decks})"

    @property
    def pos_bit(self) -> tuple[int, ...]:
        """Per card kind, ``1 << pos``: a set of chain positions as one int (touching: ``mask &
        mask >> 1``). Made on first use: the random player's tractor count reads it once a lead."""
        got = self._pos_bit
        if got is None:
            got = self._pos_bit = tuple([1 << p for p in self.pos])
        return got

    @property
    def sort_key(self) -> tuple[int, ...]:
        """Per card kind, its place in display order (see :meth:`sort`). Made on first use: only
        displays read it, and it was a fifth of the cost of a new context."""
        got = self._sort_key
        if got is None:
            got = self._sort_key = tuple([e * 64 + o * 4 + s % 4 for e, o, s in zip(self.eff, self.order, SUIT_OF, strict=True)])
        return got

    @property
    def by_order(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per effective suit (0..3, TRUMP), per order 0..19, its card kinds in card order. Made
        on first use: no rule check reads it, and it was half the cost of a new context."""
        got = self._by_order
        if got is None:
            groups: list[list[list[int]]] = [[[] for _ in range(20)] for _ in range(5)]
            for c, e, o in zip(range(NUM_KINDS), self.eff, self.order, strict=True):
                groups[e][o].append(c)
            got = self._by_order = tuple([tuple(map(tuple, suit_groups)) for suit_groups in groups])
        return got

    def is_trump(self, card: int) -> bool:
        return self.eff[card] == TRUMP

    def by_suit(self, cards: Iterable[int]) -> dict[int, list[int]]:
        """``cards`` grouped by effective suit, each group and the suits in the order first met."""
        eff = self.eff
        out: dict[int, list[int]] = {}
        for c in cards:
            got = out.get(eff[c])
            if got is None:
                out[eff[c]] = [c]
            else:
                got.append(c)
        return out

    def sort(self, cards: list[int]) -> list[int]:
        """Display order: plain suits grouped, trumps last, low to high inside each group."""
        key = self.sort_key
        return sorted(cards, key=key.__getitem__)


@cache
def _context(level: LevelRank, trump: int | None, decks: int, notrump_level_tractor: bool) -> TrumpContext:
    if not 2 <= level <= JOKER_LEVEL:
        raise ValueError(f"level must be 2..14 (A) or 15 (王), not {level}")
    if trump is not None and trump not in (0, 1, 2, 3):
        raise ValueError(f"trump must be a suit 0..3 or None, not {trump}")
    # suit by suit as whole slices: built once per (level, trump, decks), but a round's first
    # use of a context pays for it (the tables were a few hundred thousand instructions)
    eff: list[int] = []
    order: list[int] = []
    if level == JOKER_LEVEL:  # no level cards: every suit runs 2…A whole
        ranks = list(range(13))
    else:  # the level rank skipped: the ranks above it move down one
        ranks = [*range(level - 2), 0, *range(level - 2, 12)]
    for suit in range(4):
        eff += [TRUMP if suit == trump else suit] * 13
        order += ranks
        if level != JOKER_LEVEL:
            eff[suit * 13 + level - 2] = TRUMP
    eff += [TRUMP, TRUMP]
    order += [0, 0]
    if level == JOKER_LEVEL:  # plain suits run A…2 whole; LJ LJ BJ BJ chain
        order[LJ] = 13 if trump is not None else 0
        order[BJ] = order[LJ] + 1
    elif trump is None:
        # the level cards keep order 0 (set above)
        order[LJ] = 1 if notrump_level_tractor else 2
        order[BJ] = order[LJ] + 1
    else:
        for suit in range(4):
            order[suit * 13 + level - 2] = 13 if suit == trump else 12
        order[LJ], order[BJ] = 14, 15
    ctx = object.__new__(TrumpContext)
    ctx.level, ctx.trump, ctx.decks = level, trump, decks
    ctx.notrump_level_tractor = notrump_level_tractor
    ctx.eff, ctx.order = tuple(eff), tuple(order)
    ctx._sort_key = None  # made when first read (displays)
    # chain position across suits: equal orders of different effective suits never touch
    ctx.pos = tuple([e * 32 + o for e, o in zip(eff, order, strict=True)])
    ctx._pos_bit = ctx._by_order = None  # made when first read
    kinds: list[list[int]] = [[], [], [], [], []]
    for c, e in enumerate(eff):
        kinds[e].append(c)
    ctx.suit_kinds = tuple(map(tuple, kinds))
    ctx.suit_sets = tuple(map(frozenset, kinds))
    return ctx
