"""Search for the decisions before the first trick: declaring (the last call and 炒底 overrides
included), burying the kitty and calling a friend.

Each decision has a short list of candidates, the heuristic's choice first. Every candidate
is played out to the end of the round in the same sampled deals (common random numbers) with
the search's rollout policy, and the best mean is chosen only if it beats the heuristic's
choice by ``confidence`` standard errors of the paired differences (:func:`.search.pick`).

A sample deals the cards this seat has not seen at random: the rest of the deal (when
declaring during the deal), the other hands and a kitty this seat did not bury; a standing
declaration's cards stay with the seat that showed them. Before the first trick nothing else
is public, so nothing else constrains the sample. Simplifications, all the same for every
candidate: after a declaration nobody else declares; the seat that ends up burying buries
like the heuristic; in find-a-friend games the dealer calls the usual plain ace.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..cards import new_deck
from ..engine.observation import Observation
from ..engine.round import Phase, Round, Trick, find_friend
from ..trump import TrumpContext
from .base import friend_card
from .clock import clock
from .heuristic import heuristic_bury
from .rollout import Policy, rollout, value
from .teams import same_side

Deal = tuple[list[list[int]], list[int]]  # every seat's hand, and a kitty not yet seen (may be empty)


def sample_deal(obs: Observation, rng: random.Random) -> Deal:
    """Every seat's hand as it will be at the bury (this seat's own completed if the deal is
    still going) and the hidden kitty, the unseen cards placed at random."""
    deck = new_deck(obs.rules.decks)
    size = (len(deck) - obs.kitty_size) // obs.players
    unseen = Counter(deck)
    unseen.subtract(obs.hand)
    if obs.kitty is not None:
        unseen.subtract(obs.kitty)
    hands: list[list[int]] = [[] for _ in range(obs.players)]
    hands[obs.seat] = list(obs.hand)
    if obs.bid_seat is not None and obs.bid_seat != obs.seat:
        shown = [c for c in obs.bid_cards if unseen[c] > 0]
        hands[obs.bid_seat].extend(shown)
        unseen.subtract(shown)
    pool = list((+unseen).elements())
    rng.shuffle(pool)
    for s in range(obs.players):
        need = size - len(hands[s])
        if obs.phase == Phase.BURY and s == obs.seat:
            need = 0  # holds the kitty already
        hands[s].extend(pool[: max(0, need)])
        del pool[: max(0, need)]
    return hands, pool  # what is left is the kitty this seat has not seen


def play_position(
    obs: Observation,
    hands: Sequence[Sequence[int]],
    kitty: Sequence[int],
    *,
    trump: int | None,
    dealer: int,
    burier: int,
    buried: Sequence[int] | None = None,
    friend_card: int | None = None,
) -> Round:
    """A Round at the first lead: ``burier`` adds ``kitty`` to its hand and buries ``buried``
    (by default what the heuristic would)."""
    rules = obs.rules
    ctx = TrumpContext(obs.level, trump, rules.decks, rules.notrump_level_tractor)
    held = [list(h) for h in hands]
    held[burier].extend(kitty)
    out = list(buried) if buried is not None else list(heuristic_bury(held[burier], ctx, obs.kitty_size))
    for c in out:
        held[burier].remove(c)
    rnd = Round(rules=rules, deck=new_deck(rules.decks), level=obs.level, dealer=dealer)
    rnd.dealt = rnd.players * rnd.hand_size
    rnd.hands = held
    rnd.kitty = out
    rnd.ctx = ctx
    rnd.burier = burier
    rnd.phase = Phase.PLAY
    rnd.turn = dealer
    rnd.trick = Trick(dealer)
    if rnd.find_friend:
        calls = [card for card, _ in obs.friend_calls] if dealer == obs.seat else []
        while len(calls) < rules.friends_value:  # the calls made, this one, then the usual ones
            if friend_card is not None and friend_card not in calls:
                calls.append(friend_card)
            else:
                calls.append(usual_friend(held[dealer], ctx, rules.decks, calls))
        seats = [find_friend(held, dealer, card, rnd.players) for card in calls]
        rnd.set_friend_calls([(card, 0) for card in calls], seats, [s is None for s in seats])
    return rnd


def usual_friend(hand: Sequence[int], ctx: TrumpContext, decks: int, taken: Sequence[int] = ()) -> int:
    """The call a dealer holding ``hand`` makes as the heuristic would (a plain ace it holds one
    copy of, if any: :func:`.base.friend_card`), not called yet."""
    return friend_card(hand, ctx, decks, taken)


def compare(
    n: int,
    play_out: Callable[[int, Deal], Round],
    obs: Observation,
    *,
    steps: int,
    iterations: int,
    policy: Policy,
    rng: random.Random,
    time_cap: float,
) -> tuple[list[list[float]], bool]:
    """Values for this seat of ``n`` candidates played out in the same samples, within budget;
    and whether the time cap (not the step or sample budget) ended the search."""
    values: list[list[float]] = [[] for _ in range(n)]
    start = clock()
    done = spent_steps = 0
    while done < iterations and spent_steps < steps:
        deal = sample_deal(obs, rng)
        seed = rng.getrandbits(32)
        for i in range(n):
            rnd = play_out(i, deal)
            spent_steps += rollout(rnd, random.Random(seed), policy)
            values[i].append(value(rnd, obs.seat))
        done += 1
        spent = clock() - start
        if spent + spent / done > time_cap:
            return values, done < iterations and spent_steps < steps
    return values, False


# ------------------------------------------------------------------ the candidates and their play-outs
def declare_candidates(obs: Observation, heuristic: tuple[int, ...] | None) -> list[tuple[int, ...] | None]:
    """The heuristic's choice first, then passing (when a declaration stands: passing keeps it),
    then the other legal declarations. Empty when there is nothing to compare.

    Over a partner's standing declaration only the heuristic's choice and passing: a good player
    takes trump from a partner only with a clearly better suit (the heuristic's raised bar), and
    the samples priced other overrides too kindly (no one overrides after them there), e.g. a
    pair of small jokers (no-trump) over a partner's level pair."""
    options = obs.declaration_options()
    if not options:
        return []
    cands: list[tuple[int, ...] | None] = [heuristic]
    if heuristic is not None and obs.bid_seat is not None:
        cands.append(None)
    if not _over_partner(obs):
        cands.extend(o for o in options if o != heuristic)
    if None in cands and obs.bid_seat is None:
        cands = [c for c in cands if c is not None]  # passing with no declaration: unknown trump
    return cands if len(cands) > 1 else []


def _over_partner(obs: Observation) -> bool:
    """Is the standing declaration a partner's (with the sides known: a dealer is set)?"""
    bidder = obs.bid_seat
    return bidder is not None and bidder != obs.seat and obs.dealer is not None and same_side(obs.is_attacker, bidder, obs.seat)


def declare_play_out(obs: Observation, cands: Sequence[tuple[int, ...] | None]) -> Callable[[int, Deal], Round]:
    def trump_of(cards: tuple[int, ...]) -> int | None:
        plain = [c for c in cards if c < 52]
        return plain[0] // 13 if plain else None

    override = obs.phase == Phase.OVERRIDE

    def play_out(i: int, deal: Deal) -> Round:
        hands, kitty = deal
        cand = cands[i]
        if cand is None:
            bid_seat = obs.bid_seat
            assert bid_seat is not None
            trump = obs.bid.trump if obs.bid is not None else None
        else:
            bid_seat, trump = obs.seat, trump_of(cand)
        dealer = obs.dealer if obs.dealer is not None else bid_seat
        if override:  # 炒底: the overrider takes the kitty and buries; passing leaves it buried
            if cand is None:
                return play_position(obs, hands, kitty, trump=trump, dealer=dealer, burier=dealer, buried=kitty)
            return play_position(obs, hands, kitty, trump=trump, dealer=dealer, burier=obs.seat)
        return play_position(obs, hands, kitty, trump=trump, dealer=dealer, burier=dealer)

    return play_out


def bury_play_out(obs: Observation, cands: Sequence[tuple[int, ...]]) -> Callable[[int, Deal], Round]:
    assert obs.dealer is not None
    trump = obs.ctx.trump

    def play_out(i: int, deal: Deal) -> Round:
        return play_position(obs, deal[0], (), trump=trump, dealer=obs.dealer or 0, burier=obs.seat, buried=cands[i])

    return play_out


def friend_candidates(obs: Observation, heuristic: int) -> list[int]:
    """The heuristic's call first, then the plain aces and kings this seat lacks a copy of; of
    those, only ones it holds a copy of when the heuristic's call is one: then the holder of the
    other copy knows it is the partner, and everyone's samples take the dealer to hold a copy
    (:func:`.determinize._dealer_copies`, :func:`.teams.hidden_friend`)."""
    ctx = obs.ctx
    out = [heuristic]
    called = {card for card, _ in obs.friend_calls}
    least = 1 if obs.hand.count(heuristic) else 0
    for rank in (14, 13):
        for suit in range(4):
            card = suit * 13 + rank - 2
            if card not in out and card not in called and not ctx.is_trump(card) and least <= obs.hand.count(card) < obs.decks:
                out.append(card)
    return out[:6]


def friend_play_out(obs: Observation, cands: Sequence[int]) -> Callable[[int, Deal], Round]:
    kitty = tuple(obs.kitty or ())

    def play_out(i: int, deal: Deal) -> Round:
        return play_position(
            obs, deal[0], kitty, trump=obs.ctx.trump, dealer=obs.seat, burier=obs.seat, buried=kitty, friend_card=cands[i]
        )

    return play_out


__all__ = [
    "sample_deal",
    "play_position",
    "compare",
    "declare_candidates",
    "declare_play_out",
    "bury_play_out",
    "friend_candidates",
    "friend_play_out",
    "usual_friend",
    "Deal",
]
