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


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_one_chain_fits_exactly_where_the_placements_find_it(decks: int) -> None:
    """``embed_chains`` answers one chain from the longest runs, without listing placements:
    the same flag as the placement search (eleventh session)."""
    from tuolaji.combos import _embed, embed_chains

    rng = random.Random(decks * 13)
    fits = 0
    for _ in range(3_000):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=40)
        suit = [c for c in hand if ctx.eff[c] == ctx.eff[hand[0]]]
        counts = kind_counts(suit)
        shape = (rng.randint(2, decks), rng.randint(1, 4))
        want = _embed(dict(counts), [shape], 0, ctx.order)
        assert embed_chains(counts, [shape], ctx.order) == want
        fits += want[0]
    assert 300 < fits < 2_700


def test_the_free_tuple_search_is_remembered_by_its_count_pattern() -> None:
    """The best tuples of ``r`` cards chosen freely depend only on how many copies each kind
    holds: the remembered answer is the search's for every hand, whichever kinds repeat."""
    from tuolaji.combos import _FREE_BEST, _best_tuples, _free_best_tuples

    rng = random.Random(17)
    _FREE_BEST.clear()
    for _ in range(6_000):
        counts = {kind: rng.randint(1, 4) for kind in rng.sample(range(54), rng.randint(1, 12))}
        top = rng.randint(2, 4)
        needs = [(k, rng.randint(0, 4)) for k in range(top, 1, -1)]
        r = rng.randint(1, 12)
        assert _free_best_tuples(counts, r, needs) == _best_tuples({}, counts, r, needs)
    assert 100 < len(_FREE_BEST) < 6_000  # answers were remembered and used again


@pytest.mark.parametrize("preset", ["classic", "three-deck", "super-four-deck"])
def test_declaration_options_shared_by_the_seats_answer_as_worked_out_afresh(preset: str) -> None:
    """The seats that did not make the standing bid share one table of first standing copies
    (eleventh session), and the same bid made by another seat is answered by the same tables
    (twelfth): each seat's options, asked in turn, are those worked out with the table emptied
    first; the declaring counts are the kinds in the order the hand first shows them."""
    import dataclasses

    from tuolaji.declaring import _FIRSTS, declaring_counts, declaring_kinds, options, read_bid
    from tuolaji.ruleset import DeclareStyle, load_rules

    base = load_rules(preset)
    variants = [base, dataclasses.replace(base, declare_style=DeclareStyle.JOKER_BACKED)]
    variants.append(dataclasses.replace(base, self_override=True, suit_order_overrides=True, jokers_declare_first=False))
    rng = random.Random(len(preset))
    shown = moved_differs = 0
    for _ in range(1_500):
        rules = rng.choice(variants)
        level = rng.randint(2, 15)
        deck = new_deck(rules.decks)
        hands = [rng.sample(deck, rng.randint(0, 40)) for _ in range(4)]
        current = None
        first = options(0, rng.sample(deck, 30), level, None, rules)
        if first:
            current = read_bid(rng.randrange(4), list(rng.choice(first)), level, rules)
        pairs_only = rng.random() < 0.3
        shared = [options(seat, hand, level, current, rules, pairs_only=pairs_only) for seat, hand in enumerate(hands)]
        moved = current and current._replace(seat=(current.seat + 1 + rng.randrange(3)) % 4)  # the tables above serve it
        again = [options(seat, hand, level, moved, rules, pairs_only=pairs_only) for seat, hand in enumerate(hands)]
        for seat, hand in enumerate(hands):
            kinds = declaring_kinds(level)
            assert list(declaring_counts(hand, level).items()) == [(c, hand.count(c)) for c in dict.fromkeys(hand) if c in kinds]
            _FIRSTS.clear()
            assert options(seat, hand, level, current, rules, pairs_only=pairs_only) == shared[seat]
            _FIRSTS.clear()
            assert options(seat, hand, level, moved, rules, pairs_only=pairs_only) == again[seat]
            shown += len(shared[seat])
            moved_differs += again[seat] != shared[seat]
    assert shown > 1_000 and moved_differs > 100


def _rank_by_the_whole_structure(play: tuple[int, ...], lead: list[int], ctx: TrumpContext) -> tuple[int, int] | None:
    """The plain rank of a follow to a lead of one combination: None unless it is all of the led
    suit or all trumps and matches the lead's whole structure; then (0 in the suit, 1 a ruff) and
    its best combination of the lead's shape."""
    from tuolaji.combos import best_top, decompose, matches_fully
    from tuolaji.trump import TRUMP

    s = ctx.eff[play[0]]
    if s != ctx.eff[lead[0]] and s != TRUMP or any(ctx.eff[c] != s for c in play):
        return None
    counts = kind_counts(play)
    comps = decompose(lead, ctx)
    if not matches_fully(counts, comps, ctx.order):
        return None
    return (0 if s == ctx.eff[lead[0]] else 1, best_top(counts, comps[0].k, comps[0].m, ctx.order))


@pytest.mark.parametrize("decks", [3, 4])
def test_a_follow_to_a_triple_or_quad_ranks_as_the_whole_structure_check(decks: int) -> None:
    """``play_rank`` answers a follow to one tuple of three or four by whether it is that many
    copies of one card (eleventh session): as the general check (same suit or trump, the lead's
    whole structure matched, ranked by its best tuple) answers."""
    from tuolaji.combos import decompose
    from tuolaji.tricks import play_rank
    from tuolaji.trump import TRUMP

    rng = random.Random(decks)
    ranked = 0
    for _ in range(4_000):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15)
        k = rng.randint(3, decks)
        lead = [hand[0]] * k
        pool = [c for c in new_deck(decks) if rng.random() < 0.3 or ctx.eff[c] in (ctx.eff[hand[0]], TRUMP)]
        card = rng.choice(pool)
        play = tuple([card] * k) if rng.random() < 0.5 else tuple(rng.sample(pool, k))
        want = _rank_by_the_whole_structure(play, lead, ctx)
        assert play_rank(play, lead, decompose(lead, ctx), ctx) == want
        ranked += want is not None
    assert 500 < ranked < 3_500


def test_a_contexts_tables_are_those_its_suits_and_orders_define() -> None:
    """A trump context's derived tables (twelfth session: made by a sort and slices, the display
    keys and the order groups when first read, the singles shared by the contexts) are what each
    card's effective suit and order define, for every level, trump and tractor rule."""
    from tuolaji.cards import SUIT_OF
    from tuolaji.combos import Combo, single_combo

    singles: dict[tuple[int, int], Combo] = {}
    for level in range(2, 16):
        for trump in (None, 0, 1, 2, 3):
            for tractor in (True, False):
                ctx = TrumpContext(level, trump, 2, tractor)  # type: ignore[arg-type]
                eff, order = ctx.eff, ctx.order
                for e in range(5):
                    kinds = tuple(c for c in range(54) if eff[c] == e)
                    assert ctx.suit_kinds[e] == kinds and ctx.suit_sets[e] == frozenset(kinds)
                    assert ctx.by_order[e] == tuple(tuple(c for c in kinds if order[c] == o) for o in range(20))
                for c in range(54):
                    assert ctx.pos[c] == eff[c] * 32 + order[c] and ctx.pos_bit[c] == 1 << ctx.pos[c]
                    assert ctx.sort_key[c] == eff[c] * 64 + order[c] * 4 + SUIT_OF[c] % 4
                    one = single_combo(c, ctx)
                    assert one == Combo(1, 1, order[c], (c,))
                    assert singles.setdefault((order[c], c), one) is one  # one object per card and order
                assert ctx.sort(list(range(54))) == sorted(range(54), key=lambda c: (eff[c], order[c], SUIT_OF[c] % 4))


@pytest.mark.parametrize("decks", [3, 4])
def test_a_follow_to_a_triple_answers_as_the_requirement_search(decks: int) -> None:
    """Three cards of the suit following a triple are answered from the suit's largest copy
    count (thirteenth session): as the requirement's search and the structure check answer,
    refusals' reasons included."""
    from tuolaji.combos import decompose, required_structure
    from tuolaji.engine.legal import submultisets
    from tuolaji.tricks import _triple_follow_reason, structure_reason

    rng = random.Random(decks * 7)
    reasons: Counter[object] = Counter()
    for _ in range(600):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=14)
        e = ctx.eff[hand[0]]
        suit = [c for c in hand if ctx.eff[c] == e]
        if len(suit) < 4:
            continue
        card = next(c for c in range(54) if ctx.eff[c] == e)
        comps = decompose([card] * 3, ctx)
        need = required_structure(kind_counts(suit), comps, 3, ctx.order)
        for listed in submultisets(sorted(kind_counts(suit).items()), 3):
            play = tuple(rng.sample(listed, 3))  # in any order, as played
            want = structure_reason(play, need, comps, ctx)
            assert _triple_follow_reason(play, suit) == want
            reasons[want] += 1
    assert len(reasons) == 3 and min(reasons.values()) > 100  # legal, owed a triple, owed a pair


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_a_follow_to_a_tractor_of_pairs_answers_as_the_requirement_search(decks: int) -> None:
    """Cards of the suit following one tractor of pairs are answered from whether the suit holds
    such a tractor, else from its pairs (thirteenth session): as the requirement's search and
    the structure check answer, refusals' reasons included."""
    from tuolaji.combos import decompose, required_structure
    from tuolaji.engine.legal import submultisets
    from tuolaji.tricks import _tractor_follow_reason, structure_reason

    rng = random.Random(decks * 5)
    reasons: Counter[object] = Counter()
    for _ in range(400):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=12)
        e = ctx.eff[hand[0]]
        suit = [c for c in hand if ctx.eff[c] == e]
        m = rng.choice([2, 2, 3])
        by_order = sorted((ctx.order[c], c) for c in range(54) if ctx.eff[c] == e)
        if len(by_order) < m:
            continue
        low = rng.randrange(len(by_order) - m + 1)
        lead = [c for _, c in by_order[low : low + m] for _ in range(2)]
        comps = decompose(lead, ctx)
        if len(suit) <= 2 * m or len(comps) != 1 or comps[0].m != m:  # not a tractor (orders skip)
            continue
        need = required_structure(kind_counts(suit), comps, 2 * m, ctx.order)
        for listed in list(submultisets(sorted(kind_counts(suit).items()), 2 * m))[:60]:
            play = tuple(rng.sample(listed, 2 * m))
            want = structure_reason(play, need, comps, ctx)
            assert _tractor_follow_reason(play, suit, m, ctx.order) == want
            reasons[want] += 1
    assert len(reasons) == 3 and min(reasons.values()) > 50  # legal, owed a tractor, owed pairs


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_the_random_follow_to_a_triple_or_a_tractor_of_pairs_is_legal_as_drawn(decks: int) -> None:
    """The random player returns its pick for a triple or one tractor of pairs led without
    checking it (thirteenth session): each pick passes the requirement's search."""
    from tuolaji.combos import decompose, required_structure
    from tuolaji.engine.legal import _structured_pick
    from tuolaji.tricks import structure_reason

    rng = random.Random(decks * 13)
    shapes: Counter[tuple[int, int]] = Counter()
    for _ in range(3_000):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=16)
        e = ctx.eff[hand[0]]
        suit = [c for c in hand if ctx.eff[c] == e]
        by_order = sorted((ctx.order[c], c) for c in range(54) if ctx.eff[c] == e)
        k, m = rng.choice([(3, 1), (2, 2), (2, 3)] if decks > 2 else [(2, 2), (2, 3)])
        if len(by_order) < m:
            continue
        low = rng.randrange(len(by_order) - m + 1)
        lead = [c for _, c in by_order[low : low + m] for _ in range(k)]
        comps = decompose(lead, ctx)
        if len(suit) <= len(lead) or len(comps) != 1 or comps[0].m != m:
            continue
        play = _structured_pick(suit, comps, ctx, rng, len(lead))
        need = required_structure(kind_counts(suit), comps, len(lead), ctx.order)
        assert structure_reason(play, need, comps, ctx) is None, (lead, suit, play)
        shapes[k, m] += 1
    assert min(shapes.values()) > 200


def test_the_written_out_choice_and_sample_draw_as_random_does() -> None:
    """``_choice`` and ``_sample`` (session 16: random.Random's choice and small samples written
    out for a plain generator) give the same cards and leave the same random state as
    ``rng.choice`` and ``rng.sample``, on both sides of sample's pool size (21) and past its
    small sizes (k > 5 goes to ``rng.sample`` itself)."""
    from tuolaji.engine.legal import _choice, _sample

    rng = random.Random(16)
    big = 0
    for _ in range(4_000):
        n = rng.randint(1, 40)
        pop = [rng.randrange(54) for _ in range(n)]
        k = rng.randint(1, min(n, 7))
        seed = rng.randrange(1 << 30)
        mine, theirs = random.Random(seed), random.Random(seed)
        assert _sample(mine, pop, k) == theirs.sample(pop, k)
        assert _choice(mine, pop) == theirs.choice(pop)
        assert mine.random() == theirs.random()
        big += n > 21
    assert 1_000 < big < 3_000
    with pytest.raises(ValueError):  # more cards than there are: refused, as rng.sample refuses them
        _sample(random.Random(1), [3, 4], 3)


@pytest.mark.parametrize("decks", [3, 4])
def test_the_random_follow_to_a_triple_draws_as_the_structured_pick(decks: int) -> None:
    """The random player's follow to a triple (session 16: a triple, else a pair and one more,
    drawn without the general pick) is the play ``_structured_pick`` draws, with the same random
    numbers, whether the suit holds a triple, only pairs or neither."""
    from tuolaji.combos import decompose
    from tuolaji.engine.legal import _structured_pick, random_legal_play

    rng = random.Random(decks * 7)
    drawn: Counter[int] = Counter()
    for _ in range(3_000):
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=12)
        e = ctx.eff[hand[0]]
        suit = [c for c in hand if ctx.eff[c] == e]
        if len(suit) <= 3:
            continue
        lead = [suit[0]] * 3
        comps = decompose(lead, ctx)
        seed = rng.randrange(1 << 30)
        mine, theirs = random.Random(seed), random.Random(seed)
        play = random_legal_play(hand, lead, ctx, mine, comps)
        assert play == _structured_pick(suit, comps, ctx, theirs, 3)
        assert mine.random() == theirs.random()
        drawn[max(kind_counts(play).values())] += 1
    assert min(drawn[k] for k in (1, 2, 3)) > 100, drawn


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_a_follow_to_one_tractor_ranks_as_the_whole_structure_check(decks: int) -> None:
    """``play_rank`` answers a follow to one tractor by the best such tractor in the play (session
    16): as the general check (same suit or trump, the lead's whole structure matched, ranked by
    its best chain) answers."""
    from tuolaji.combos import decompose
    from tuolaji.tricks import play_rank
    from tuolaji.trump import TRUMP

    rng = random.Random(decks + 40)
    ranked = tried = 0
    while tried < 3_000:
        ctx, hand = random_trump_and_hand(rng, decks, top_level=15, suit_cards=30)
        e = ctx.eff[hand[0]]
        by_order = sorted({(ctx.order[c], c) for c in range(54) if ctx.eff[c] == e})
        k, m = rng.choice([(2, 2), (2, 3)] + ([(3, 2)] if decks > 2 else []))
        low = rng.randrange(len(by_order))
        lead = [c for _, c in by_order[low : low + m] for _ in range(k)]
        comps = decompose(lead, ctx)
        if len(comps) != 1 or comps[0].m != m:
            continue
        tried += 1
        pool = [c for c in new_deck(decks) if rng.random() < 0.2 or ctx.eff[c] in (e, TRUMP)]
        if rng.random() < 0.5:  # a chain of the pool's own, often one that ranks
            s = ctx.eff[rng.choice(pool)]
            orders = sorted({(ctx.order[c], c) for c in range(54) if ctx.eff[c] == s})
            start = rng.randrange(len(orders))
            play = tuple(c for _, c in orders[start : start + m] for _ in range(k))
            if len(play) != len(lead):
                play = tuple(rng.sample(pool, len(lead)))
        else:
            play = tuple(rng.sample(pool, len(lead)))
        want = _rank_by_the_whole_structure(play, lead, ctx)
        assert play_rank(play, lead, comps, ctx) == want, (lead, play)
        ranked += want is not None
    assert 300 < ranked < 2_700, ranked
