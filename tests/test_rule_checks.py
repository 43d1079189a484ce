"""The rule checks' shortcuts against plain oracles (tenth session: each shortcut must give
exactly what the straightforward code gives)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from random_hands import random_trump_and_hand
from tuolaji.cards import kind_counts, new_deck
from tuolaji.engine.legal import _chained_count, _sub_chains
from tuolaji.tricks import is_sub_multiset
from tuolaji.trump import TrumpContext


def test_is_sub_multiset_is_multiset_inclusion() -> None:
    """Every copy asked for must be held (a pair needs two copies, not one found twice)."""
    rng = random.Random(3)
    missed = 0
    for _ in range(20_000):
        whole = [rng.randrange(8) for _ in range(rng.randrange(0, 14))]
        part = [rng.randrange(8) for _ in range(rng.randrange(1, 6))]
        want = all(Counter(whole)[c] >= n for c, n in Counter(part).items())
        assert is_sub_multiset(part, whole) is want
        assert is_sub_multiset(tuple(part), tuple(whole)) is want
        missed += not want
    assert 1_000 < missed < 19_000  # both answers were asked for
    assert not is_sub_multiset([5, 5], [5, 1, 2])
    assert is_sub_multiset([5, 2, 5], [5, 1, 2, 5])


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_the_tractor_leads_are_counted_as_listed(decks: int) -> None:
    """The random lead counts the tractor leads without listing them: the count is the number
    :func:`_sub_chains` lists (a wrong count would change every later draw)."""
    rng = random.Random(decks * 11)
    chained = 0
    for _ in range(3_000):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=70)
        counts = kind_counts(hand)
        want = sum(sub[4] for sub in _sub_chains(counts, ctx))
        assert _chained_count(counts, ctx) == want
        chained += want > 0
    assert chained > 500


def test_a_follow_checked_again_gets_the_same_answer_as_a_fresh_check() -> None:
    """The requirement's memo keeps the last play checked and its answer: plays checked in turn,
    each twice, answer as the requirement worked out afresh (a stale answer would differ)."""
    from tuolaji.combos import decompose, required_structure
    from tuolaji.engine.legal import submultisets
    from tuolaji.tricks import _NEEDS, follow_shape_reason, structure_reason

    ctx = TrumpContext(5, 0, 4)
    lead = (40, 40, 41, 41, 42, 42, 36)  # a three-pair tractor and a single, of clubs (suit 3)
    comps = decompose(lead, ctx)
    rng = random.Random(9)
    refused = 0
    for _ in range(40):
        suit = [c for c in new_deck(4) if ctx.eff[c] == 3]
        rng.shuffle(suit)
        hand = suit[: rng.randint(8, 14)] + [0, 1, 2]
        suit_hand = [c for c in hand if ctx.eff[c] == 3]
        need = required_structure(kind_counts(suit_hand), comps, len(lead), ctx.order)
        plays = list(submultisets(sorted(kind_counts(suit_hand).items()), len(lead)))[:30]
        for play in plays + plays[::-1]:
            want = structure_reason(play, need, comps, ctx)
            assert follow_shape_reason(lead, hand, play, ctx, comps) == want
            assert follow_shape_reason(lead, hand, play, ctx, comps) == want
            refused += want is not None
        _NEEDS.clear()
    assert refused > 100
