"""Hypothesis properties of the engine (issue 2, item 7).

Positions come from random play through the checked engine (tests/playthrough.py): a seed and
a number of actions give a match anywhere in its life — mid-deal, at the last call, burying,
mid-trick, between rounds, or over.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playthrough import advance_to, cards_in_round, full_deck, play_to, points_of, step
from tuolaji.cards import BJ, LJ, NUM_KINDS, RANK_TOKENS, SUITS, CardError, card_str, cards_str, parse_card, parse_cards
from tuolaji.combos import beating_combo, best_top, decompose
from tuolaji.engine.actions import (
    Bury,
    CallFriend,
    Deal,
    Declare,
    Pass,
    Play,
    Redeal,
    action_from_dict,
    action_to_dict,
)
from tuolaji.engine.events import Buried, Dealt, KittyTaken, event_from_dict
from tuolaji.engine.legal import count_legal_plays, count_submultisets, legal_plays, submultisets
from tuolaji.engine.match import Match
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase
from tuolaji.engine.view import events_for
from tuolaji.errors import IllegalAction, Reason
from tuolaji.record import dumps
from tuolaji.ruleset import RuleSet
from tuolaji.scoring import kitty_multiplier, level_change
from tuolaji.tricks import follow_reason, trick_winner
from tuolaji.trump import TrumpContext

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
ACTIONS = st.integers(min_value=0, max_value=900)  # a round is about 210 actions
SLOW = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


# ------------------------------------------------------------------ conservation and points
@SLOW
@given(seed=SEEDS, actions=ACTIONS)
def test_cards_are_conserved(seed: int, actions: int) -> None:
    match, rng = play_to(seed, actions)
    deck = full_deck(match.rules.decks)
    for _ in range(30):  # and for the next few actions too
        assert cards_in_round(match.round) == deck
        for rnd in match.rounds[-2:]:
            assert cards_in_round(rnd) == deck
        if match.over:
            break
        step(match, rng)


@SLOW
@given(seed=SEEDS, actions=st.integers(min_value=200, max_value=1500))
def test_trick_and_kitty_points_total_100_per_deck(seed: int, actions: int) -> None:
    match, _ = play_to(seed, actions)
    finished = [r for r in match.rounds if r.result is not None]
    for rnd in finished:
        res = rnd.result
        assert res is not None and rnd.dealer is not None
        trick_points = sum(t.points for t in rnd.tricks)
        assert trick_points + points_of(rnd.kitty) == 100 * match.rules.decks
        assert res.kitty_points == points_of(rnd.kitty)
        attackers = {s for s in range(rnd.players) if s % 2 != rnd.dealer % 2}
        assert res.trick_points == sum(t.points for t in rnd.tricks if t.winner in attackers)
        last = rnd.tricks[-1]
        assert res.kitty_captured == (last.winner in attackers)
        expected_mult = kitty_multiplier(last.lead_comps or [], match.rules.kitty_multiplier) if res.kitty_captured else 0
        assert res.multiplier == expected_mult
        assert res.attacker_points == res.trick_points + res.kitty_points * res.multiplier
        assert (res.team, res.levels) == level_change(res.attacker_points, match.rules)
        assert sum(len(t.plays[0]) for t in rnd.tricks) == match.rules.hand_size_value
        assert all(len(t.plays) == rnd.players and len({len(p) for p in t.plays}) == 1 for t in rnd.tricks)


# ------------------------------------------------------------------ refused actions
CARD = st.integers(min_value=0, max_value=NUM_KINDS - 1)
SEAT = st.integers(min_value=-1, max_value=4)


def _actions(hand_cards: list[int]) -> st.SearchStrategy[object]:
    cards = st.one_of(
        st.lists(CARD, max_size=10).map(tuple),
        st.lists(st.sampled_from(hand_cards), max_size=12).map(tuple) if hand_cards else st.just(()),
    )
    return st.one_of(
        st.just(Deal()),
        st.builds(Declare, SEAT, cards),
        st.builds(Pass, SEAT),
        st.builds(Bury, SEAT, cards),
        st.builds(Play, SEAT, cards),
        st.builds(Redeal, SEAT),
        st.builds(CallFriend, SEAT, CARD),
    )


@SLOW
@given(seed=SEEDS, actions=ACTIONS, data=st.data())
def test_a_refused_action_leaves_the_record_unchanged(seed: int, actions: int, data: st.DataObject) -> None:
    match, _ = play_to(seed, actions)
    for _ in range(5):
        hand_cards = [c for h in match.round.hands for c in h]
        action = data.draw(_actions(hand_cards))
        before = dumps(match)
        hands = [list(h) for h in match.round.hands]
        views = [match.view(s) for s in range(4)]
        try:
            match.apply(action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert exc.code in set(Reason), exc.code
            assert exc.message("en") and exc.message("zh")
            assert dumps(match) == before
            assert [list(h) for h in match.round.hands] == hands
            assert [match.view(s) for s in range(4)] == views
        else:
            assert dumps(match) != before, "an accepted action is recorded"


# ------------------------------------------------------------------ views leak nothing hidden
def _poisoned(match: Match, seat: int | None) -> Match:
    """A copy in which everything ``seat`` may not see is replaced by other cards."""
    m = match.copy()
    rnd = m.round
    for t in range(rnd.players):
        if t != seat:
            rnd.hands[t] = [BJ if c != BJ else LJ for c in rnd.hands[t]]
    kitty_visible = rnd.phase == Phase.DONE or (seat is not None and seat == rnd.burier and rnd.phase != Phase.BURY)
    if not kitty_visible:
        rnd.kitty = [LJ if c != LJ else BJ for c in rnd.kitty]
    rnd.deck = tuple(reversed(rnd.deck))
    m.deals = [tuple(reversed(d)) for d in m.deals]

    def poison(events: list[object]) -> list[object]:
        out = []
        for e in events:
            if isinstance(e, Dealt) and e.seat != seat:
                e = dataclasses.replace(e, card=BJ if e.card != BJ else LJ)
            elif isinstance(e, (KittyTaken, Buried)) and e.seat != seat and e.cards is not None:
                e = dataclasses.replace(e, cards=tuple(BJ if c != BJ else LJ for c in e.cards))
            out.append(e)
        return out

    m.events = poison(m.events)  # type: ignore[arg-type]
    rnd.events = poison(rnd.events)  # type: ignore[arg-type]
    return m


@SLOW
@given(seed=SEEDS, actions=ACTIONS)
def test_no_view_leaks_a_hidden_card(seed: int, actions: int) -> None:
    """Views of a seat do not change when the cards it may not see are changed."""
    match, rng = play_to(seed, actions)
    for _ in range(3):
        for seat in (None, 0, 1, 2, 3):
            other = _poisoned(match, seat)
            assert other.view(seat) == match.view(seat)
            assert events_for(other.events, seat) == events_for(match.events, seat)
            if seat is not None:
                assert observe(other.round, seat) == observe(match.round, seat)
        view = match.view(0)
        assert view["hand"] == cards_str(match.round.level_ctx.sort(match.round.hands[0]))
        if match.over:
            break
        for _ in range(rng.randrange(1, 60)):
            if not match.over:
                step(match, rng)


def test_poisoning_is_noticed() -> None:
    """The leak test can fail: a seat's own hand, and the kitty it buried, do show in its view."""
    match, rng = play_to(11, 150)
    assert _poisoned(match, 1).view(0) != match.view(0)  # seat 0's own hand changed
    assert advance_to(match, rng, Phase.PLAY)
    burier = match.round.burier
    assert burier is not None
    other = _poisoned(match, (burier + 1) % 4)
    assert other.view(burier)["kitty"] != match.view(burier)["kitty"]
    assert observe(other.round, burier).kitty != observe(match.round, burier).kitty


# ------------------------------------------------------------------ notation
def test_every_card_round_trips() -> None:
    for kind in range(NUM_KINDS):
        text = card_str(kind)
        assert parse_card(text) == kind
        assert parse_card(text.lower()) == kind
        assert parse_card(f"  {text} ") == kind
    assert {card_str(k) for k in range(NUM_KINDS)} == {s + r for s in SUITS for r in RANK_TOKENS} | {"BJ", "LJ"}
    assert parse_card("ST") == parse_card("S10")


@given(st.lists(CARD, max_size=40))
def test_card_lists_round_trip(cards: list[int]) -> None:
    assert parse_cards(cards_str(cards)) == cards
    assert parse_cards(" ".join(cards_str(cards))) == cards
    assert parse_cards(",".join(cards_str(cards))) == cards


@given(st.text(min_size=1, max_size=5))
def test_bad_tokens_are_named(token: str) -> None:
    try:
        kind = parse_card(token)
    except CardError as exc:
        assert repr(token) in str(exc)
    else:
        assert card_str(kind) == token.strip().upper().replace("T", "10") or card_str(kind) == token.strip().upper()


@SLOW
@given(seed=SEEDS, actions=ACTIONS)
def test_actions_events_and_rules_round_trip(seed: int, actions: int) -> None:
    match, rng = play_to(seed, actions)
    for event in match.events:
        assert event_from_dict(event.to_dict()) == event
        for seat in (None, 0, 1, 2, 3):
            red = event.redacted(seat)
            assert event_from_dict(red.to_dict()) == red
    if not match.over:
        from playthrough import random_action

        action = random_action(match.round, rng)
        assert action_from_dict(action_to_dict(action)) == action
    assert RuleSet.from_dict(match.rules.to_dict()) == match.rules


# ------------------------------------------------------------------ legal plays
ENUM_CAP = 20_000


def _play_position(seed: int, actions: int) -> tuple[Match, int] | None:
    match, rng = play_to(seed, actions, throw_p=0.3, multi_p=0.7)
    if not advance_to(match, rng, Phase.PLAY, throw_p=0.3, multi_p=0.7):
        return None
    rnd = match.round
    # sometimes move into the trick, so that follows are as common as leads
    for _ in range(rng.randrange(4)):
        if rnd.phase != Phase.PLAY or match.round is not rnd:
            return None
        step(match, rng, throw_p=0.3, multi_p=0.7)
    if match.round is not rnd or rnd.phase != Phase.PLAY:
        return None
    assert rnd.turn is not None
    return match, rnd.turn


def _accepted(match: Match, seat: int, cards: tuple[int, ...]) -> bool:
    try:
        match.check(Play(seat, cards))
    except IllegalAction:
        return False
    return True


@SLOW
@given(seed=SEEDS, actions=st.integers(min_value=0, max_value=700), data=st.data())
def test_legal_plays_and_check_agree(seed: int, actions: int, data: st.DataObject) -> None:
    """Every generated legal play is accepted, and every accepted candidate play is generated."""
    pos = _play_position(seed, actions)
    if pos is None:
        return
    match, seat = pos
    rnd = match.round
    hand = rnd.hands[seat]
    ctx = rnd.ctx
    assert ctx is not None and rnd.trick is not None
    lead = rnd.trick.plays[0] if rnd.trick.plays else None
    bound = (
        count_legal_plays(rnd, seat)
        if lead is None
        else count_submultisets(sorted(Counter(c for c in hand if ctx.eff[c] == ctx.eff[lead[0]]).items()), len(lead))
    )
    if lead is not None and bound > ENUM_CAP:
        return
    gen = legal_plays(rnd, seat)
    enumerated = list(itertools.islice(gen, ENUM_CAP))
    complete = next(gen, None) is None
    generated = set(enumerated)
    assert len(generated) == len(enumerated), "each legal play is generated once"
    rng = random.Random(data.draw(SEEDS))
    for play in rng.sample(enumerated, min(len(enumerated), 300)):
        assert _accepted(match, seat, play), (cards_str(play), "generated but refused")
    candidates: list[tuple[int, ...]] = []
    n = len(lead) if lead is not None else None
    for _ in range(150):
        size = n if n is not None and rng.random() < 0.8 else rng.randint(1, len(hand))
        candidates.append(tuple(rng.sample(hand, min(size, len(hand)))))
    if lead is not None:
        suit = [c for c in hand if ctx.eff[c] == ctx.eff[lead[0]]]
        for _ in range(100):
            if len(suit) >= len(lead):
                candidates.append(tuple(rng.sample(suit, len(lead))))
    candidates.extend(
        data.draw(st.lists(st.lists(st.sampled_from(hand), min_size=1, max_size=len(hand)).map(tuple), max_size=10))
    )
    for cand in candidates:
        in_hand = not (Counter(cand) - Counter(hand))
        accepted = _accepted(match, seat, cand)
        if complete or not accepted:
            assert accepted == (in_hand and tuple(sorted(cand)) in generated), (
                cards_str(cand),
                "accepted" if accepted else "refused",
                "lead" if lead is None else cards_str(lead),
                cards_str(hand),
            )
        if lead is not None and in_hand and len(cand) == len(lead):
            assert accepted == (follow_reason(lead, hand, cand, ctx) is None)


@SLOW
@given(seed=SEEDS, actions=st.integers(min_value=0, max_value=700))
def test_count_legal_plays_is_the_enumeration_length(seed: int, actions: int) -> None:
    pos = _play_position(seed, actions)
    if pos is None:
        return
    match, seat = pos
    rnd = match.round
    count = count_legal_plays(rnd, seat)
    if count > 200_000:
        return
    assert count == sum(1 for _ in legal_plays(rnd, seat))
    assert count >= 1
    for other in range(4):
        if other != seat:
            assert count_legal_plays(rnd, other) == 0
            assert next(legal_plays(rnd, other), None) is None


@SLOW
@given(seed=SEEDS, actions=st.integers(min_value=0, max_value=700))
def test_failed_throws_play_the_forced_combination(seed: int, actions: int) -> None:
    """After random throw attempts: a failed throw's forced play is one combination of the attempt."""
    match, _ = play_to(seed, actions, throw_p=0.6)
    from tuolaji.engine.events import Played

    ctx_by_round = {}
    for rnd in [*match.rounds, match.round]:
        if rnd.ctx is not None:
            ctx_by_round[id(rnd)] = rnd.ctx
        for trick in rnd.tricks:
            if trick.attempted is not None:
                assert rnd.ctx is not None
                forced = trick.plays[0]
                assert not (Counter(forced) - Counter(trick.attempted))
                comps = decompose(forced, rnd.ctx)
                assert len(comps) == 1, "the forced play is a single combination"
                assert comps[0].shape in {c.shape for c in decompose(trick.attempted, rnd.ctx)}
    for e in match.events:
        if isinstance(e, Played) and e.attempted is not None:
            assert not (Counter(e.cards) - Counter(e.attempted))


# ------------------------------------------------------------------ following: an independent oracle
def _best_flags(counts: Counter[int], chains: list[int], order: tuple[int, ...]) -> tuple[bool, ...]:
    """Lexicographically best matching of the lead's tractors (lengths, longest first) in the cards."""
    if not chains:
        return ()
    m = chains[0]
    by_order: dict[int, list[int]] = {}
    for c, n in counts.items():
        if n >= 2:
            by_order.setdefault(order[c], []).append(c)
    best = (False,) + _best_flags(counts, chains[1:], order)
    for start in by_order:
        if not all(start + i in by_order for i in range(m)):
            continue
        for pick in itertools.product(*(by_order[start + i] for i in range(m))):
            rest = counts.copy()
            for c in pick:
                rest[c] -= 2
            cand = (True,) + _best_flags(+rest, chains[1:], order)
            best = max(best, cand)
    return best


def _reference_legal(lead: list[int], hand: list[int], play: list[int], ctx: TrumpContext) -> bool:
    """RULES.md §4 and its precise rulings, by brute force over every choice from the hand."""
    n = len(lead)
    if len(play) != n or Counter(play) - Counter(hand):
        return False
    e = ctx.eff[lead[0]]
    suit = [c for c in hand if ctx.eff[c] == e]
    if len(suit) <= n:
        return not (Counter(suit) - Counter(play))
    if any(ctx.eff[c] != e for c in play):
        return False
    comps = decompose(lead, ctx)
    chains = sorted((c.m for c in comps if c.k == 2 and c.m > 1), reverse=True)
    pairs_needed = sum(c.m for c in comps if c.k == 2)

    def score(cards: Counter[int]) -> tuple[tuple[bool, ...], int]:
        return _best_flags(cards, chains, ctx.order), min(sum(v // 2 for v in cards.values()), pairs_needed)

    items = sorted(Counter(suit).items())
    best = max(score(Counter(x)) for x in submultisets(items, n))
    return score(Counter(play)) == best


@st.composite
def _follow_case(draw: st.DrawFn) -> tuple[TrumpContext, list[int], list[int]]:
    level = draw(st.sampled_from([2, 3, 5, 10, 13, 14]))
    trump = draw(st.sampled_from([0, 1, None]))
    ctx = TrumpContext(level, trump)
    e = draw(st.sampled_from([4, 2, 3] if trump != 2 else [4, 3]))  # trumps, clubs or diamonds
    kinds = sorted((c for c in range(NUM_KINDS) if ctx.eff[c] == e), key=lambda c: (ctx.order[c], c))
    width = draw(st.integers(min_value=3, max_value=7))
    lo = draw(st.integers(min_value=0, max_value=max(0, len(kinds) - width)))
    window = kinds[lo : lo + width]
    pool = Counter(c for c in window for _ in range(2))

    def take(have: Counter[int], most_pairs: int, most_singles: int) -> Counter[int]:
        pairs = draw(st.lists(st.sampled_from(window), max_size=most_pairs, unique=True))
        singles = draw(st.lists(st.sampled_from(window), max_size=most_singles))
        got = Counter({c: 2 for c in pairs}) + Counter(singles)
        return got & have

    lead = take(pool, 3, 3) or Counter([window[0]])
    hand_suit = take(pool - lead, 4, 4)
    hand_suit_list, lead_list = list(hand_suit.elements()), list(lead.elements())
    others = [c for c in range(NUM_KINDS) if ctx.eff[c] != e]
    extra = draw(st.lists(st.sampled_from(others), max_size=6, unique=True))
    return ctx, sorted(lead_list), sorted(hand_suit_list + extra)


@given(_follow_case())
def test_follow_reason_matches_a_brute_force_reading_of_the_rules(case: tuple[TrumpContext, list[int], list[int]]) -> None:
    ctx, lead, hand = case
    n = len(lead)
    for play in submultisets(sorted(Counter(hand).items()), n):
        engine = follow_reason(lead, hand, list(play), ctx) is None
        ref = _reference_legal(lead, hand, list(play), ctx)
        assert engine == ref, (cards_str(lead), cards_str(hand), cards_str(play), "engine", engine, "reference", ref)


# ------------------------------------------------------------------ trick winner: an independent oracle
def _arrangements(cards: Counter[int], shapes: list[tuple[int, int]], order: tuple[int, ...]) -> list[list[int]]:
    """Every way to give each lead shape (pairs and tractors, largest first) its own cards: the top orders."""
    if not shapes:
        return [[]]
    k, m = shapes[0]
    by_order: dict[int, list[int]] = {}
    for c, n in cards.items():
        if n >= k:
            by_order.setdefault(order[c], []).append(c)
    out = []
    for start in sorted(by_order):
        if not all(start + i in by_order for i in range(m)):
            continue
        for pick in itertools.product(*(by_order[start + i] for i in range(m))):
            rest = cards.copy()
            for c in pick:
                rest[c] -= k
            out.extend([start + m - 1, *tail] for tail in _arrangements(+rest, shapes[1:], order))
    return out


def _reference_winner(plays: list[list[int]], ctx: TrumpContext) -> int:
    """RULES.md §5 by brute force: all of the led suit or all trumps, arrangeable into the lead's
    structure, then compared by the best top of the lead's highest shape; ties keep the earlier play."""
    lead = plays[0]
    comps = decompose(lead, ctx)
    shapes = [c.shape for c in comps if c.k >= 2]
    e = ctx.eff[lead[0]]

    def value(play: list[int]) -> int | None:
        if shapes:
            arr = _arrangements(Counter(play), shapes, ctx.order)
            return max(a[0] for a in arr) if arr else None
        return max(ctx.order[c] for c in play)

    best, best_val = 0, (0, value(lead))
    for i, play in enumerate(plays[1:], start=1):
        suits = {ctx.eff[c] for c in play}
        if len(suits) != 1 or suits.pop() not in (e, 4):
            continue
        tier = 0 if ctx.eff[play[0]] == e else 1
        v = value(play)
        if v is not None and (tier, v) > best_val:  # type: ignore[operator]
            best, best_val = i, (tier, v)
    return best


@st.composite
def _trick_case(draw: st.DrawFn) -> tuple[TrumpContext, list[list[int]]]:
    level = draw(st.sampled_from([2, 5, 10, 14]))
    trump = draw(st.sampled_from([1, None]))
    ctx = TrumpContext(level, trump)
    stock = Counter(c for c in range(NUM_KINDS) for _ in range(2))

    def window(e: int) -> list[int]:
        kinds = sorted((c for c in range(NUM_KINDS) if ctx.eff[c] == e), key=lambda c: (ctx.order[c], c))
        lo = draw(st.integers(min_value=0, max_value=max(0, len(kinds) - 6)))
        return kinds[lo : lo + 6]

    lead_suit = draw(st.sampled_from([0, 4]))
    lead_w, trump_w = window(lead_suit), window(4)
    pairs = draw(st.lists(st.sampled_from(lead_w), max_size=3, unique=True))
    lead = Counter({c: 2 for c in pairs}) + Counter(draw(st.lists(st.sampled_from(lead_w), max_size=2)))
    lead = (lead & stock) or Counter([lead_w[0]])
    stock -= lead
    n = sum(lead.values())
    plays = [list(lead.elements())]
    for _ in range(3):
        source = draw(st.sampled_from(["lead", "trump", "any"]))
        pool = lead_w if source == "lead" else trump_w if source == "trump" else list(range(NUM_KINDS))
        avail = [c for c in pool for _ in range(stock[c])]
        if len(avail) < n:
            avail = list(stock.elements())
        pick = draw(st.permutations(avail))[:n]
        stock -= Counter(pick)
        plays.append(list(pick))
    return ctx, plays


@given(_trick_case())
def test_trick_winner_matches_a_brute_force_reading_of_the_rules(case: tuple[TrumpContext, list[list[int]]]) -> None:
    ctx, plays = case
    assert trick_winner(plays, ctx) == _reference_winner(plays, ctx), [cards_str(p) for p in plays]


# ------------------------------------------------------------------ what stops a throw
@given(
    level=st.integers(min_value=2, max_value=14),
    trump=st.sampled_from([0, 1, 2, 3, None]),
    suit=st.sampled_from([0, 1, 2, 3, 4]),
    k=st.integers(min_value=1, max_value=3),
    m=st.integers(min_value=1, max_value=3),
    data=st.data(),
)
def test_the_combination_shown_against_a_throw_is_the_lowest_that_beats_it(
    level: int, trump: int | None, suit: int, k: int, m: int, data: st.DataObject
) -> None:
    ctx = TrumpContext(level, trump, 3)
    kinds = [c for c in range(NUM_KINDS) if ctx.eff[c] == suit]
    if not kinds:
        return
    m = 1 if k == 1 else m  # singles make no chains
    counts = Counter(data.draw(st.lists(st.sampled_from(kinds), max_size=14)))
    above = data.draw(st.integers(min_value=-1, max_value=16))
    shown = beating_combo(counts, k, m, ctx.order, above)
    assert (shown is not None) == (best_top(counts, k, m, ctx.order) > above)
    if shown is None:
        return
    assert not Counter(shown) - counts, "shown from the hand"
    tops = sorted({ctx.order[c] for c in shown})
    assert len(shown) == k * m and len(tops) == m and tops == list(range(tops[0], tops[0] + m))
    assert all(Counter(shown)[c] % k == 0 for c in shown) and tops[-1] > above
    lower = {c: n for c, n in counts.items() if ctx.order[c] < tops[-1]}
    assert best_top(lower, k, m, ctx.order) <= above, "no lower combination beats it"
