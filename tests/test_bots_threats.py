"""The shortcuts of the threat oracles and of the rollouts' lead listing answer exactly what the
plain questions do.

A lead's options ask whether any opponent could beat each of them (``beaten_by``): the card
memory's oracle answers from the lowest top nobody beats, kept per question; the rollouts' oracle
reads only what its test needs from the round's suit counts, seat by seat. Both must agree with
asking ``could_beat`` seat by seat, on real positions of heuristic self-play. The rollouts list
their leads suit by suit, each suit's part remembered: the same options as before.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from selfplay import heuristic_plays
from tuolaji.bots.heuristic import MemoryThreats, trick_state
from tuolaji.bots.memory import remember
from tuolaji.bots.rollout import HandThreats
from tuolaji.bots.tactics import TrickState
from tuolaji.engine.actions import Play
from tuolaji.engine.legal import random_play
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Round
from tuolaji.trump import TRUMP

SHAPES = ((1, 1, 1), (2, 1, 2), (2, 2, 4), (3, 1, 3), (1, 1, 2))  # (k, m, cards)


def _questions(rng: random.Random, others: list[int]) -> list[tuple[list[int], int, int, int, int, int, int]]:
    """Twelve random threat questions: (seats, suit, tier, k, m, top, n), seats among ``others``."""
    out = []
    for _ in range(12):
        seats = rng.sample(others, rng.randint(0, len(others)))
        suit, tier = rng.choice([0, 1, 2, 3, TRUMP]), rng.randint(0, 1)
        k, m, n = rng.choice(SHAPES)
        out.append((seats, suit, tier, k, m, rng.randint(0, 14), n))
    return out


@pytest.mark.parametrize("preset", [None, "three-deck", "bianfeng-friend"])
def test_beaten_by_is_could_beat_of_any_seat(preset: str | None) -> None:
    rng = random.Random(7)
    asked = beaten = 0
    for rnd in heuristic_plays(preset, 43, 0):
        seat = rnd.turn
        assert seat is not None and rnd.ctx is not None
        obs = observe(rnd, seat, with_events=False)
        oracles = [MemoryThreats(remember(obs), obs.hand_sizes, obs.kitty_size), HandThreats(rnd.copy())]
        others = [s for s in range(rnd.players) if s != seat]
        for seats, suit, tier, k, m, top, n in _questions(rng, others):
            for threats in oracles:
                want = any(threats.could_beat(s, suit, tier, k, m, top, n) for s in seats)
                assert threats.beaten_by(seats, suit, tier, k, m, top, n) == want
                # asked again (kept answers), and with the seats in another order
                assert threats.beaten_by(seats[::-1], suit, tier, k, m, top, n) == want
                asked += 1
                beaten += want
    assert asked > 1000 and 0 < beaten < asked


@pytest.mark.parametrize("preset", [None, "bianfeng-friend"])
def test_the_memorys_hold_chance_is_certain_exactly_when_no_seat_could_beat(preset: str | None) -> None:
    """hold_chance asks could_beat of each seat inline: 1.0 exactly when none of the seats could
    beat the play, the flat guess for a beaten pair or ruff, a chance below one for a beaten single."""
    from tuolaji.bots.tactics import HELD

    rng = random.Random(11)
    asked = held = 0
    for rnd in heuristic_plays(preset, 45, 0):
        seat = rnd.turn
        assert seat is not None
        obs = observe(rnd, seat, with_events=False)
        threats = MemoryThreats(remember(obs), obs.hand_sizes, obs.kitty_size)
        others = [s for s in range(rnd.players) if s != seat]
        for seats, suit, tier, k, m, top, n in _questions(rng, others):
            beats = [s for s in seats if threats.could_beat(s, suit, tier, k, m, top, n)]
            chance = threats.hold_chance(seats, suit, tier, k, m, top, n)
            if not beats:
                assert chance == 1.0
            elif k != 1 or tier != 0:
                assert chance == HELD
            else:
                assert 0.0 <= chance < 1.0
            asked += 1
            held += chance == 1.0
    assert asked > 500 and 0 < held < asked


def test_the_rollout_oracle_follows_the_hands_as_they_are_played() -> None:
    """One oracle serves a whole rollout: after each play its answers are those of a new oracle."""
    rng = random.Random(3)
    checked = 0
    for i, rnd in enumerate(heuristic_plays(None, 44, 1)):
        if i % 9:
            continue
        play = rnd.copy()
        kept = HandThreats(play)
        while play.trick is not None and play.hands[play.turn or 0] and checked < 4000:
            fresh = HandThreats(play)
            for s in range(play.players):
                for suit in (0, 1, 2, 3, TRUMP):
                    for k, m, n in SHAPES:
                        top = rng.randint(0, 14)
                        for tier in (0, 1):
                            assert kept.could_beat(s, suit, tier, k, m, top, n) == fresh.could_beat(s, suit, tier, k, m, top, n)
                            checked += 1
            seat = play.turn
            assert seat is not None
            play.apply_unchecked(Play(seat, random_play(play, seat, rng)))
            if play.result is not None:
                break
    assert checked >= 4000


def test_rollout_leads_are_the_heuristics_multi_card_leads_and_each_suits_top_and_low_single() -> None:
    """The rollouts list their leads suit by suit (each suit's part remembered): the same
    options as the heuristic's listing without singles, plus per suit the highest single and the
    lowest single without points (the lowest when all hold points)."""
    from tuolaji.bots.rollout import _few_leads
    from tuolaji.bots.tactics import lead_option_set
    from tuolaji.cards import POINTS

    checked = 0
    for preset in (None, "three-deck"):
        for rnd in heuristic_plays(preset, 46, 3):
            if rnd.trick is None or rnd.trick.plays:
                continue
            seat = rnd.turn
            assert seat is not None and rnd.ctx is not None
            ctx = rnd.ctx
            obs = observe(rnd, seat, with_events=False)
            top = MemoryThreats(remember(obs), obs.hand_sizes, obs.kitty_size).unseen_top
            hand = rnd.hands[seat]
            want = lead_option_set(hand, ctx, top, singles=False)
            for _ in range(2):  # worked out, then remembered
                got = set(_few_leads(hand, ctx, top))
                assert {p for p in got if len(p) > 1} == want
                for e in {ctx.eff[c] for c in hand}:
                    cards = [c for c in hand if ctx.eff[c] == e]
                    tops = {c for c in cards if (ctx.order[c], POINTS[c]) == max((ctx.order[x], POINTS[x]) for x in cards)}
                    plain = [c for c in cards if not POINTS[c]] or cards
                    lows = {c for c in plain if (ctx.order[c], POINTS[c]) == min((ctx.order[x], POINTS[x]) for x in plain)}
                    singles = {p[0] for p in got if len(p) == 1 and ctx.eff[p[0]] == e}
                    assert singles & tops and singles & lows and singles <= tops | lows and len(singles) <= 2
            checked += 1
    assert checked > 30


def test_a_rollouts_kept_oracle_is_its_own_threads() -> None:
    """A server searches for several tables at once on worker threads: the oracle a rollout
    keeps from play to play is its own thread's, never replaced by (or handed to) another
    thread's rollout of another round."""
    import threading

    from tuolaji.bots.rollout import _threats

    mine_round, other_round = (rnd.copy() for _, rnd in zip(range(2), heuristic_plays(None, 47, 2), strict=False))
    mine = _threats(mine_round)
    theirs: list[HandThreats] = []
    worker = threading.Thread(target=lambda: theirs.append(_threats(other_round)))
    worker.start()
    worker.join()
    assert theirs[0].rnd is other_round
    assert _threats(mine_round) is mine


def _several_cards_led(preset: str | None) -> Iterator[TrickState]:
    """The follower's trick state at each follow to a lead of several cards in heuristic rounds."""
    for index in range(3):
        for rnd in heuristic_plays(preset, 44, index):
            trick, seat = rnd.trick, rnd.turn
            assert trick is not None and rnd.ctx is not None and seat is not None
            if trick.plays and len(trick.plays[0]) > 1:
                yield trick_state(observe(rnd, seat, with_events=False))


@pytest.mark.parametrize("preset", [None, "three-deck", "super-four-deck"])
def test_a_remembered_follows_facts_are_its_points_cost_and_rank(preset: str | None) -> None:
    """The follows to a lead of several cards are remembered with what scoring reads of each
    alone: its points, cost() and play_rank() in this hand, when first listed and when found
    again (also for another hand of the same cards of the led suit)."""
    from tuolaji.bots.tactics import cost, follow_listing, points
    from tuolaji.tricks import play_rank

    checked = 0
    for st in _several_cards_led(preset):
        assert st.comps is not None
        for _ in range(2):  # listed, then remembered
            options, facts = follow_listing(st)
            if facts is None:  # too many to list (not remembered)
                continue
            for p, fact in zip(options, facts, strict=True):
                assert fact == (points(p), cost(p, st.hand, st.ctx), play_rank(p, st.plays[0], st.comps, st.ctx))
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("preset", [None, "three-deck", "super-four-deck"])
def test_a_follows_listing_is_the_same_remembered_or_not_and_a_pairs_follows_are_the_suits_pairs(preset: str | None) -> None:
    """Listing a follow without remembering it (the heuristic's own decisions) gives the same
    options and facts, in the same order, as the remembered listing; to a pair led, the options
    are the suit's pairs in the order the legal enumeration lists them (any two cards of the suit
    when it holds no pair)."""
    from collections import Counter

    from tuolaji.bots.tactics import _FOLLOWS, follow_listing
    from tuolaji.engine.legal import all_submultisets

    pairs_led = 0
    for st in _several_cards_led(preset):
        _FOLLOWS.clear()
        unkept = follow_listing(st, keep=False)
        assert not _FOLLOWS
        assert unkept == follow_listing(st) == follow_listing(st)  # listed, then remembered
        lead, eff = st.plays[0], st.ctx.eff
        suit = [c for c in st.hand if eff[c] == eff[lead[0]]]
        if len(lead) == 2 and lead[0] == lead[1] and len(suit) > 2:
            every = all_submultisets(sorted(Counter(suit).items()), 2)
            assert unkept[0] == ([p for p in every if p[0] == p[1]] or every)
            pairs_led += 1
    assert pairs_led > 5


def _trick_state(play: Round, threats: HandThreats) -> TrickState:
    """The trick state of the seat to play, with the rollout oracle's sides."""
    trick, seat, ctx = play.trick, play.turn, play.ctx
    assert trick is not None and seat is not None and ctx is not None
    att, side = threats.sides()
    hand = play.hands[seat]
    return TrickState(seat, play.players, hand, ctx, trick.seats, trick.plays, trick.lead_comps, side, att[seat], len(hand))


@pytest.mark.parametrize("preset", [None, "three-deck", "bianfeng-friend"])
def test_a_rollouts_follow_to_a_single_is_choose_follows_over_the_card_kinds(preset: str | None) -> None:
    """The rollouts score a follow to a single led card kind by card kind, from the round's suit
    counts, without a trick state or a list of scored options: the same choice as
    ``choose_follow`` over the same options (ties included: the higher card)."""
    from tuolaji.bots.rollout import _single_follow
    from tuolaji.bots.tactics import choose_follow
    from tuolaji.cards import ONE_CARD

    checked = 0
    for index in range(5):
        for rnd in heuristic_plays(preset, 48, index):
            trick, seat, ctx = rnd.trick, rnd.turn, rnd.ctx
            assert trick is not None and seat is not None and ctx is not None
            if not trick.plays or len(trick.plays[0]) != 1:
                continue
            play = rnd.copy()
            threats = HandThreats(play)
            st = _trick_state(play, threats)
            by_suit = play.suit_counts(seat)
            own = by_suit.get(ctx.eff[trick.plays[0][0]])
            kinds = list(own.items()) if own else [x for cards in by_suit.values() for x in cards.items()]
            want = choose_follow(st, threats, [ONE_CARD[c] for c, _ in kinds])
            assert _single_follow(play, seat, threats, kinds) == want
            assert _single_follow(play, seat, threats, kinds[::-1]) == want  # (whatever the order)
            checked += len(kinds) > 1
    assert checked > 100


@pytest.mark.parametrize("preset", [None, "three-deck", "bianfeng-friend"])
def test_a_rollouts_leads_score_as_score_leads_over_the_same_options(preset: str | None) -> None:
    """The rollouts score their leads from the round's suit counts, asking whether a foe beats an
    option once per suit and shape: every option gets the score ``score_leads`` gives it with the
    rollout's oracle, over the same options and voids (the voids drawn at random, so that the
    partner-ruff terms are met)."""
    from tuolaji.bots.rollout import _few_leads, _scored_leads
    from tuolaji.bots.tactics import score_leads

    rng = random.Random(5)
    checked = 0
    for index in range(4):
        for rnd in heuristic_plays(preset, 49, index):
            trick, seat, ctx = rnd.trick, rnd.turn, rnd.ctx
            assert trick is not None and seat is not None and ctx is not None
            if trick.plays:
                continue
            play = rnd.copy()
            threats = HandThreats(play)
            st = _trick_state(play, threats)
            att = threats.sides()[0]
            options = _few_leads(st.hand, ctx, lambda e, k, m: rng.randint(-1, 14))
            ally_void = set(rng.sample(range(TRUMP + 1), rng.randint(0, 2)))
            foe_void = set(rng.sample(range(TRUMP + 1), rng.randint(0, 2)))
            want = score_leads(st, threats, options, ally_void.__contains__, foe_void.__contains__)
            foes = [play.suit_counts(s) for s in range(play.players) if att[s] != att[seat]]
            assert _scored_leads(play, seat, att, foes, options, ally_void, foe_void) == want
            checked += len(set(options)) > 1
    assert checked > 60
