"""Cards as small ints, and the text notation for them.

A card kind is an int 0..53: ``suit * 13 + (rank - 2)`` for the 52 suited cards (suits in the
order S H C D, ranks 2..14 with J=11 Q=12 K=13 A=14), then 52 = little joker, 53 = big joker.
Several decks hold several copies of each kind, so hands are multisets of kinds.

Notation: suit letter then rank (``S10``, ``HA``, ``D2``; ``T`` is accepted for 10), ``LJ`` and
``BJ`` for the jokers.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable
from typing import NewType

SUITS = "SHCD"
SUIT_NAMES_EN = ("spades", "hearts", "clubs", "diamonds")
SUIT_NAMES_ZH = ("黑桃", "红桃", "梅花", "方块")
SUIT_SYMBOLS = "♠♥♣♦"
RANK_TOKENS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LJ = 52
BJ = 53
NUM_KINDS = 54
KINDS_PER_DECK = 54


class CardError(ValueError):
    """A card token or rank that cannot be read."""

    code = "bad_card"


def make(suit: int, rank: int) -> int:
    return suit * 13 + (rank - 2)


def suit_of(card: int) -> int:
    """Printed suit 0..3, or 4 for a joker."""
    return card // 13 if card < 52 else 4


def rank_of(card: int) -> int:
    """Rank 2..14 for suited cards; 15 little joker, 16 big joker."""
    return card % 13 + 2 if card < 52 else card - 37


def is_joker(card: int) -> bool:
    return card >= 52


# Two numbers name a level; the types keep them apart (mypy refuses one where the other belongs).
LevelRank = NewType("LevelRank", int)
"""The rank a round is played at: 2..14 (A), or 15 for 打王 (trump.JOKER_LEVEL); its cards are level cards."""
LevelIndex = NewType("LevelIndex", int)
"""A side's place on the ladder: 0 (level 2) .. 12 (A), 13 (王); ``scoring.LEVELS`` is indexed by it."""


def level_rank(index: LevelIndex) -> LevelRank:
    """The rank played at ladder place ``index`` (0 → 2, 12 → A, 13 → 王)."""
    return LevelRank(index + 2)


def level_index(rank: LevelRank) -> LevelIndex:
    return LevelIndex(rank - 2)


def is_level_card(card: int, level_rank: LevelRank) -> bool:
    """A suited card of the level rank (jokers are never level cards)."""
    return card < 52 and card % 13 + 2 == level_rank


def is_red(suit: int) -> bool:
    return suit in (1, 3)


def suit_letter(suit: int | None) -> str | None:
    """The wire spelling of a suit (``"S"``, ``"H"``, ``"C"``, ``"D"``); ``None`` (no-trump) stays ``None``."""
    return None if suit is None else SUITS[suit]


def parse_suit(letter: str) -> int:
    if type(letter) is str and letter in _SUIT_INDEX:  # the usual spellings by one look-up
        return _SUIT_INDEX[letter]
    t = letter.strip().upper() if isinstance(letter, str) else ""
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    raise CardError(f"bad suit {letter!r}: use S, H, C or D")


_SUIT_INDEX = {letter: i for i, letter in enumerate(SUITS)}


def points(card: int) -> int:
    if card >= 52:
        return 0
    r = card % 13 + 2
    return 5 if r == 5 else 10 if r in (10, 13) else 0


# Per-kind tables for hot loops: a tuple index costs no more than the arithmetic it names.
POINTS = tuple(points(c) for c in range(NUM_KINDS))
SUIT_OF = tuple(suit_of(c) for c in range(NUM_KINDS))
RANK_OF = tuple(rank_of(c) for c in range(NUM_KINDS))
# The play of one card, per card kind, made once: most plays are singles, and a shared tuple is
# one object fewer for each round to keep and the collector to trace.
ONE_CARD: tuple[tuple[int], ...] = tuple([(c,) for c in range(NUM_KINDS)])
SPADE_ACE = make(0, 14)


def parse_card(token: str) -> int:
    if type(token) is str:  # the usual spellings by one look-up; the rest below
        card = _TOKENS.get(token)
        if card is not None:
            return card
    if not isinstance(token, str):
        raise CardError(f"bad card {token!r}: a card is a string such as 'S10', 'HA', 'BJ'")
    t = token.strip().upper()
    if t == "BJ":
        return BJ
    if t == "LJ":
        return LJ
    if len(t) >= 2 and t[0] in SUITS:
        rank = t[1:]
        if rank == "T":
            rank = "10"
        if rank in RANK_TOKENS:
            return make(SUITS.index(t[0]), RANK_TOKENS.index(rank) + 2)
    raise CardError(
        f"bad card {token!r}: write suit S/H/C/D then rank 2-10/J/Q/K/A (e.g. 'S10', 'HA'), or BJ / LJ for the jokers"
    )


def _spellings() -> dict[str, int]:
    out: dict[str, int] = {}
    for card in range(NUM_KINDS):
        text = card_str(card)
        for t in {text, text.replace("10", "T")}:
            out[t] = out[t.lower()] = out[t[0] + t[1:].lower()] = card
    return out


def parse_cards(tokens: Iterable[str] | str) -> list[int]:
    """Parse a list of tokens, or one string of tokens separated by spaces or commas."""
    if type(tokens) is not list:  # a list (the usual case) needs none of the tests below
        if isinstance(tokens, str):
            tokens = tokens.replace(",", " ").split()
        elif not isinstance(tokens, Iterable):
            raise CardError(f"bad card list {tokens!r}: expected a list of card strings")
        elif not isinstance(tokens, (list, tuple)):
            tokens = list(tokens)  # read twice below
    try:
        cards = list(map(_TOKENS.get, tokens))  # the usual spellings by one look-up each
    except TypeError:  # an unhashable token: parse_card names it
        cards = [None]
    if None in cards:
        return [parse_card(t) for t in tokens]
    return cards  # type: ignore[return-value]


# every card's token by its number (the server writes hands and events with these in every message)
CARD_TOKENS = tuple(SUITS[c // 13] + RANK_TOKENS[c % 13] for c in range(52)) + ("LJ", "BJ")
_TOKEN_OF = dict(enumerate(CARD_TOKENS))


def card_str(card: int) -> str:
    token = _TOKEN_OF.get(card)
    if token is None:
        raise CardError(f"no card has the number {card}")
    return token


def cards_str(cards: Iterable[int]) -> list[str]:
    cards = cards if isinstance(cards, (list, tuple)) else list(cards)
    try:
        return [_TOKEN_OF[c] for c in cards]
    except (KeyError, TypeError):
        return [card_str(c) for c in cards]  # raises, naming the card


def pretty(card: int) -> str:
    """Human form for terminals: ``♠10``, ``♥A``, ``BJ``."""
    if is_joker(card):
        return "BJ" if card == BJ else "LJ"
    return SUIT_SYMBOLS[suit_of(card)] + RANK_TOKENS[rank_of(card) - 2]


def kind_counts(cards: Iterable[int]) -> dict[int, int]:
    """How many copies of each card kind ``cards`` hold, the kinds in the order they first come
    (a plain dict: the same items as a Counter, without its constructor's Mapping test)."""
    out: dict[int, int] = {}
    _count_elements(out, cards)
    return out


# Counter's own counting loop (C in CPython and Pyodide, a Python loop where the C module is missing).
_count_elements: Callable[[dict[int, int], Iterable[int]], None] = collections._count_elements  # type: ignore[attr-defined]


def new_deck(decks: int) -> list[int]:
    return [c for _ in range(decks) for c in range(NUM_KINDS)]


_TOKENS = _spellings()  # every upper- and lower-case spelling parse_card reads without spaces
