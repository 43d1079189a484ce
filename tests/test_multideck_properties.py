"""Following and ruffing with triples and quads (3 and 4 decks), checked against brute force.

The rule (docs/settings.md): a follower with more cards of the led suit than the lead owes,
lexicographically, the lead's chains (longest first), then as many tuples of each size as any
choice of cards allows (largest size first). Brute force here tries every choice of cards.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tuolaji.combos import decompose, embed_chains, matches_fully, needs, required_structure, structure
from tuolaji.engine.legal import submultisets
from tuolaji.tricks import follow_reason, trick_winner
from tuolaji.trump import TrumpContext

CTX3 = TrumpContext(2, 1, 3)
CTX4 = TrumpContext(2, 1, 4)
SPADES = list(range(1, 9))  # ♠3..♠10: one plain suit (level 2 skipped), chain positions 0..7


def suit_hand(decks: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from(SPADES), min_size=2, max_size=12).filter(
        lambda h: max(Counter(h).values()) <= decks)


def brute_required(suit: list[int], comps: list, n: int, ctx: TrumpContext) -> tuple:
    items = sorted(Counter(suit).items())
    return max(structure(Counter(p), comps, ctx.order) for p in submultisets(items, n))


@settings(max_examples=150, deadline=None)
@given(lead=suit_hand(3), follower=suit_hand(3), decks=st.sampled_from([3, 4]))
def test_required_structure_is_the_best_any_choice_achieves(lead: list[int], follower: list[int], decks: int) -> None:
    ctx = CTX3 if decks == 3 else CTX4
    comps = decompose(lead, ctx)
    n = len(lead)
    if len(follower) <= n:
        return
    want = brute_required(follower, comps, n, ctx)
    got = required_structure(Counter(follower), comps, n, ctx.order)
    assert got == want


@settings(max_examples=150, deadline=None)
@given(lead=suit_hand(4).filter(lambda h: len(h) <= 7), follower=suit_hand(4), decks=st.sampled_from([3, 4]))
def test_legal_follows_are_exactly_the_best_choices(lead: list[int], follower: list[int], decks: int) -> None:
    """With more cards of the suit than the lead, a follow is legal exactly when no other choice of
    cards matches more of the lead's structure; so some follow is always legal."""
    ctx = CTX3 if decks == 3 else CTX4
    if max(Counter(lead).values()) > decks or max(Counter(follower).values()) > decks:
        return
    n = len(lead)
    if len(follower) <= n:
        return
    comps = decompose(lead, ctx)
    hand = follower + [40, 41]  # two diamonds the follower may not play while holding spades
    choices = list(submultisets(sorted(Counter(follower).items()), n))
    best = max(structure(Counter(p), comps, ctx.order) for p in choices)
    legal = [p for p in choices if follow_reason(lead, hand, p, ctx) is None]
    assert legal, "a legal follow must always exist"
    assert legal == [p for p in choices if structure(Counter(p), comps, ctx.order) == best]
    assert follow_reason(lead, hand, choices[0][:-1] + (40,), ctx) == "must_follow_suit"


def brute_arrangeable(cards: list[int], comps: list, ctx: TrumpContext) -> bool:
    """Try every assignment of the lead's tuples and chains to the cards."""
    shapes = [c.shape for c in comps if c.k >= 2]
    return all(embed_chains(Counter(cards), shapes, ctx.order)) if shapes else True


@settings(max_examples=150, deadline=None)
@given(lead=suit_hand(3), ruff_ranks=st.lists(st.sampled_from(range(14, 22)), min_size=2, max_size=12))
def test_ruff_needs_the_whole_structure(lead: list[int], ruff_ranks: list[int]) -> None:
    ctx = CTX3
    ruff = [c for c in ruff_ranks]  # ♥3..♥10 (trumps)
    if max(Counter(ruff).values()) > 3:
        return
    ruff = (ruff * 3)[: len(lead)]
    if len(ruff) != len(lead) or max(Counter(ruff).values()) > 3:
        return
    comps = decompose(lead, ctx)
    fits = matches_fully(Counter(ruff), comps, ctx.order)
    _, tuple_needs = needs(comps)
    tuples_ok = all(sum(v // k for v in Counter(ruff).values()) >= need for k, need in tuple_needs)
    assert fits == (tuples_ok and brute_arrangeable(ruff, comps, ctx))
    winner = trick_winner([lead, ruff], ctx)
    assert winner == (1 if fits else 0)


def reference_best_tuples(fixed: dict[int, int], rest: dict[int, int], r: int,
                          tuple_needs: list[tuple[int, int]]) -> tuple[int, ...]:
    """The plain search the fast one replaced: every count of every kind, exactly ``r`` extra cards."""
    sizes = [k for k, _ in tuple_needs]
    caps = [need for _, need in tuple_needs]
    states = {(0, tuple(0 for _ in sizes))}
    for card in sorted(set(rest) | set(fixed)):
        nxt = set()
        for used, got in states:
            for extra in range(min(rest.get(card, 0), r - used) + 1):
                total = fixed.get(card, 0) + extra
                nxt.add((used + extra, tuple(min(g + total // k, cap) for g, k, cap in zip(got, sizes, caps, strict=True))))
        states = nxt
    return max(got for used, got in states if used == r)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), decks=st.sampled_from([2, 3, 4]))
def test_fast_best_tuples_matches_the_plain_search(data: st.DataObject, decks: int) -> None:
    from tuolaji.combos import _best_tuples

    kinds = data.draw(st.integers(1, 18))
    fixed, rest = {}, {}
    for card in range(kinds):
        total = data.draw(st.integers(0, decks))
        f = data.draw(st.integers(0, total))
        if f:
            fixed[card] = f
        rest[card] = total - f
    r = data.draw(st.integers(0, sum(rest.values())))
    tuple_needs = [(k, data.draw(st.integers(0, 16 // k))) for k in range(decks, 1, -1)]
    assert _best_tuples(fixed, rest, r, tuple_needs) == reference_best_tuples(fixed, rest, r, tuple_needs)
