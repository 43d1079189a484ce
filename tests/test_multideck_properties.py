"""Following and ruffing with triples and quads (3 and 4 decks), checked against brute force.

The rule (docs/settings.md): a follower with more cards of the led suit than the lead owes,
lexicographically, the lead's chains (longest first), then as many tuples of each size as any
choice of cards allows (largest size first). Brute force here tries every choice of cards.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tuolaji.combos import Combo, decompose, matches_fully, required_structure, structure
from tuolaji.engine.legal import submultisets
from tuolaji.tricks import follow_reason, trick_winner
from tuolaji.trump import TrumpContext

CTX3 = TrumpContext(2, 1, 3)
CTX4 = TrumpContext(2, 1, 4)
SPADES = list(range(1, 9))  # ♠3..♠10: one plain suit (level 2 skipped), chain positions 0..7


def hand_of(cards: list[int], copies: int, min_size: int, max_size: int) -> st.SearchStrategy[list[int]]:
    """A multiset of ``cards`` with at most ``copies`` of each, every size in range: no example is wasted."""
    return st.integers(min_size, max_size).flatmap(lambda n: st.permutations(cards * copies).map(lambda p: sorted(p[:n])))


def suit_hand(decks: int, max_size: int = 12) -> st.SearchStrategy[list[int]]:
    return hand_of(SPADES, decks, 2, max_size)


def brute_required(suit: list[int], comps: list, n: int, ctx: TrumpContext) -> tuple:
    items = sorted(Counter(suit).items())
    return max(structure(Counter(p), comps, ctx.order) for p in submultisets(items, n))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), decks=st.sampled_from([3, 4]))
def test_required_structure_is_the_best_any_choice_achieves(data: st.DataObject, decks: int) -> None:
    ctx = CTX3 if decks == 3 else CTX4
    lead = data.draw(suit_hand(3), label="lead")
    n = len(lead)
    follower = data.draw(hand_of(SPADES, 3, n + 1, max(n + 1, 12)), label="follower")  # more than the lead
    comps = decompose(lead, ctx)
    want = brute_required(follower, comps, n, ctx)
    got = required_structure(Counter(follower), comps, n, ctx.order)
    assert got == want


@settings(max_examples=150, deadline=None)
@given(data=st.data(), decks=st.sampled_from([3, 4]))
def test_legal_follows_are_exactly_the_best_choices(data: st.DataObject, decks: int) -> None:
    """With more cards of the suit than the lead, a follow is legal exactly when no other choice of
    cards matches more of the lead's structure; so some follow is always legal."""
    ctx = CTX3 if decks == 3 else CTX4
    lead = data.draw(suit_hand(decks, max_size=7), label="lead")
    n = len(lead)
    follower = data.draw(hand_of(SPADES, decks, n + 1, 12), label="follower")
    comps = decompose(lead, ctx)
    hand = follower + [40, 41]  # two diamonds the follower may not play while holding spades
    choices = list(submultisets(sorted(Counter(follower).items()), n))
    best = max(structure(Counter(p), comps, ctx.order) for p in choices)
    legal = [p for p in choices if follow_reason(lead, hand, p, ctx) is None]
    assert legal, "a legal follow must always exist"
    assert legal == [p for p in choices if structure(Counter(p), comps, ctx.order) == best]
    assert follow_reason(lead, hand, choices[0][:-1] + (40,), ctx) == "must_follow_suit"


HEARTS = list(range(14, 22))  # ♥3..♥10: trumps (hearts, level 2), consecutive ids are consecutive ranks


def brute_arrangeable(cards: list[int], comps: list) -> bool:
    """Exhaustive search: can every tuple and chain of the lead (k cards at each of m consecutive
    ranks) get its own cards at once? Tries every start rank for every part, in every order the
    recursion reaches; leftover cards are the singles. Knows nothing of the engine's matching."""
    parts = sorted(((c.k, c.m) for c in comps if c.k >= 2), reverse=True)

    def place(counts: Counter[int], i: int) -> bool:
        if i == len(parts):
            return True
        k, m = parts[i]
        for start in HEARTS:
            run = [start + j for j in range(m)]
            if all(counts[r] >= k for r in run):
                for r in run:
                    counts[r] -= k
                ok = place(counts, i + 1)
                for r in run:
                    counts[r] += k
                if ok:
                    return True
        return False

    return place(Counter(cards), 0)


def test_the_arrangement_search_itself() -> None:
    pair, tractor = Combo(2, 1, 0, ()), Combo(2, 2, 0, ())
    assert brute_arrangeable([14, 14, 15, 15], [tractor])  # ♥3♥3♥4♥4
    assert not brute_arrangeable([14, 14, 16, 16], [tractor])  # ♥3♥3♥5♥5: not consecutive
    assert brute_arrangeable([14, 14, 15, 15, 20, 20], [tractor, pair])
    assert not brute_arrangeable([14, 14, 14, 15, 15, 20], [tractor, pair])  # left over: ♥3 ♥9, no pair
    assert brute_arrangeable([14, 14, 14, 20], [pair])  # a triple serves a pair and a single


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_ruff_needs_the_whole_structure(data: st.DataObject) -> None:
    ctx = CTX3
    lead = data.draw(suit_hand(3), label="lead")
    ruff = data.draw(hand_of(HEARTS, 3, len(lead), len(lead)), label="ruff")  # as many trumps as the lead
    comps = decompose(lead, ctx)
    fits = matches_fully(Counter(ruff), comps, ctx.order)
    assert fits == brute_arrangeable(ruff, comps)
    winner = trick_winner([lead, ruff], ctx)
    assert winner == (1 if fits else 0)


def reference_best_tuples(
    fixed: dict[int, int], rest: dict[int, int], r: int, tuple_needs: list[tuple[int, int]]
) -> tuple[int, ...]:
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
