"""Find-a-friend: the hidden friend knows its side, samples agree with the call, and duplicate
deals credit only games whose sides keep A's and B's bots apart."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tuolaji.bots.determinize import build_round, sample_hidden
from tuolaji.bots.driver import SoloRound, Table
from tuolaji.bots.memory import remember
from tuolaji.bots.registry import make_bot
from tuolaji.bots.search_setup import friend_candidates, usual_friend
from tuolaji.cards import POINTS
from tuolaji.engine.observation import Observation, observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import a_seats_for, duplicate_deck, play_deal
from tuolaji.tricks import trick_winner

FRIEND = load_rules("bianfeng-friend")


def _positions(deals: int) -> Iterator[tuple[Round, Observation]]:
    """Every play decision of heuristic self-play in find-a-friend rounds, before it is made."""
    for i in range(deals):
        deck, level, dealer = duplicate_deck(FRIEND, 11, i)
        rnd = Round(rules=FRIEND, deck=deck, level=level, dealer=dealer)
        table = Table(SoloRound(rnd), [make_bot("heuristic", seed=k) for k in range(4)])
        while rnd.phase != Phase.DONE:
            if rnd.phase == Phase.PLAY and rnd.turn is not None:
                yield rnd, observe(rnd, rnd.turn)
            table.step()


def _calls(deals: int) -> Iterator[tuple[int, Observation]]:
    """The dealer's view when it is to call a friend, in heuristic self-play, deal by deal."""
    for i in range(deals):
        deck, level, dealer = duplicate_deck(FRIEND, 5, i)
        rnd = Round(rules=FRIEND, deck=deck, level=level, dealer=dealer)
        table = Table(SoloRound(rnd), [make_bot("heuristic", seed=k) for k in range(4)])
        while rnd.phase not in (Phase.CALL_FRIEND, Phase.DONE):
            table.step()
        if rnd.phase == Phase.CALL_FRIEND and rnd.turn is not None:
            yield i, observe(rnd, rnd.turn)


def test_a_hidden_friend_feeds_points_to_the_dealer_winning_the_trick() -> None:
    """Playing last to a trick the dealer wins, the friend nobody has seen yet (it holds the
    other copy of the called card) adds points when it has some in the suit led: it knows it
    plays for the dealer. (It used to count itself an attacker, as the others see it, and
    kept its points from its own partner.)"""
    fed = seen = 0
    for rnd, obs in _positions(40):
        t = rnd.trick
        if rnd.friend_revealed or obs.seat != rnd.friend or t is None or len(t.plays) != rnd.players - 1:
            continue
        if len(t.plays[0]) != 1 or t.seats[trick_winner(t.plays, obs.ctx, t.lead_comps)] != rnd.dealer:
            continue
        suit = obs.ctx.eff[t.plays[0][0]]
        same = [c for c in obs.hand if obs.ctx.eff[c] == suit]
        if not any(POINTS[c] for c in same) or all(POINTS[c] for c in same):
            continue
        seen += 1
        play = make_bot("heuristic", seed=0).play(obs)
        fed += POINTS[play[0]] > 0
    assert seen >= 5
    assert fed >= 0.8 * seen, (fed, seen)


def test_samples_give_the_dealer_its_copy_of_the_called_card() -> None:
    """Every seat's samples keep the dealer's copy of the called card with the dealer, so the
    friend in every sample of the friend's own view is the friend itself."""
    checked = 0
    for rnd, obs in _positions(12):
        if rnd.friend_revealed or rnd.friend is None or len(rnd.tricks) % 3 or obs.seat == rnd.dealer:
            continue
        card = rnd.friend_card
        assert card is not None and rnd.dealer is not None
        if card not in rnd.hands[rnd.dealer]:
            continue
        mem = remember(obs)
        rng = random.Random(len(rnd.tricks))
        for _ in range(5):
            hands, kitty = sample_hidden(obs, mem, rng)
            assert card in hands[rnd.dealer]
            built = build_round(obs, hands, kitty)
            if obs.seat == rnd.friend:
                assert built.dealer_side() == rnd.dealer_side()
        checked += 1
    assert checked >= 10


def test_the_search_calls_a_card_it_holds_a_copy_of() -> None:
    """The calls the search compares keep the convention its samples rely on: when the usual
    call is a card the dealer holds a copy of, so is every other candidate."""
    for i, obs in _calls(12):
        usual = make_bot("heuristic", seed=0).call_friend(obs)
        cands = friend_candidates(obs, usual)
        if obs.hand.count(usual):
            assert all(obs.hand.count(c) >= 1 for c in cands), (i, cands)


def test_a_duplicate_deal_credits_only_games_whose_sides_keep_the_bots_apart() -> None:
    """In find-a-friend the call makes the sides: when the dealer's partner sits beside it, A's
    bots and B's bots play on both sides, and such a game counts as a tie for both."""
    mixed = aligned = 0
    for i in range(16):
        r = play_deal("heuristic", "random", FRIEND, 2026, i)
        for game in r.games:
            if game.redeal:
                continue
            if game.mixed:
                mixed += 1
                assert game.a_levels == 0
            else:
                aligned += 1
        # a point margin only from the games that count
        assert r.a_point_margin() == sum(
            (g.attacker_points if g.a_attacks else -g.attacker_points) for g in r.games if not g.mixed and not g.redeal
        )
    assert mixed and aligned
    assert a_seats_for(0, 4) == [0, 2]


def test_the_search_simulates_the_call_its_dealer_will_make() -> None:
    """Declaring and burying by search play each sample out with the dealer's call made for it:
    that must be the call the dealer then makes (a plain ace it holds one copy of), not the first
    ace it lacks, or the simulated partner is not the real one."""
    compared = differs_from_first_ace = 0
    for i, obs in _calls(16):
        called = make_bot("heuristic", seed=0).call_friend(obs)
        assert usual_friend(obs.hand, obs.ctx, obs.decks) == called, i
        compared += 1
        first_ace = next(c for c in (12, 25, 38, 51) if not obs.ctx.is_trump(c) and obs.hand.count(c) < obs.decks)
        differs_from_first_ace += first_ace != called
    assert compared >= 8 and differs_from_first_ace >= 1
