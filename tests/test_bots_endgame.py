"""The last tricks solved exactly: alpha-beta agrees with plain minimax; decisions stay honest."""

from __future__ import annotations

import math
import random

from selfplay import heuristic_plays
from tuolaji.bots.endgame import OutOfNodes, solve
from tuolaji.bots.registry import make_bot
from tuolaji.bots.rollout import value
from tuolaji.bots.search import SearchBot
from tuolaji.engine.actions import Play
from tuolaji.engine.legal import legal_plays
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase, Round

# a quarter of the default node budget: the same decisions are checked (legal, from the seat's view,
# the solver overruling the heuristic 7 times in these deals as with the default) at a quarter of the CPU
ENDGAME = "search:playing=false,declaring=false,burying=false,calling=false,time=30,endgame=4,endgame_nodes=5000"


def _near_the_end(preset: str | None, index: int, cards_left: int) -> Round | None:
    """A round played by the heuristic until the seat to play holds at most ``cards_left`` cards
    (None if the round ends first: the last tricks were pairs)."""
    return next((r for r in heuristic_plays(preset, 13, index) if len(r.hands[r.turn or 0]) <= cards_left), None)


def _minimax(rnd: Round, me: int) -> float:
    if rnd.phase != Phase.PLAY:
        return value(rnd, me)
    seat = rnd.turn
    assert seat is not None
    outcomes = []
    for cards in legal_plays(rnd, seat):
        child = rnd.copy()
        child.apply_unchecked(Play(seat, cards))
        outcomes.append(_minimax(child, me))
    return max(outcomes) if rnd.is_attacker(seat) == rnd.is_attacker(me) else min(outcomes)


def test_alpha_beta_gives_the_minimax_value() -> None:
    checked = 0
    for preset in (None, "bianfeng-friend"):
        for i in range(5):
            rnd = _near_the_end(preset, i, 2)
            if rnd is None:
                continue
            me = rnd.turn
            assert me is not None
            budget = [10**6]
            assert math.isclose(solve(rnd.copy(), me, budget), _minimax(rnd.copy(), me))
            assert budget[0] < 10**6
            checked += 1
    assert checked >= 5


def test_the_node_budget_is_kept() -> None:
    rnd = next(r for i in range(9) if (r := _near_the_end(None, i, 4)) is not None)
    me = rnd.turn
    assert me is not None
    budget = [5]
    try:
        solve(rnd, me, budget)
    except OutOfNodes:
        assert budget[0] < 0
    else:  # pragma: no cover - four cards each take more than five positions
        raise AssertionError("a four-card endgame fits in five positions?")


def test_endgame_play_is_legal_and_decided_from_the_seat_view_only() -> None:
    rng = random.Random(2)
    differs = 0
    for i in range(8):
        rnd = _near_the_end(None, i, 4)
        if rnd is None:
            continue
        seat = rnd.turn
        assert seat is not None
        obs = observe(rnd, seat, with_events=False)
        bot = make_bot(ENDGAME, seed=3)
        choice = bot.play(obs)
        assert tuple(sorted(choice)) in set(legal_plays(rnd, seat))
        # the cards hidden from the seat dealt anew: the same observation, the same decision
        other = rnd.copy()
        places = [s for s in range(rnd.players) if s != seat]
        pool = [c for s in places for c in rnd.hands[s]] + ([] if seat == rnd.burier else list(rnd.kitty))
        rng.shuffle(pool)
        for s in places:
            n = len(rnd.hands[s])
            other.hands[s], pool = pool[:n], pool[n:]
        if seat != rnd.burier:
            other.kitty = pool
        assert observe(other, seat, with_events=False) == obs
        assert make_bot(ENDGAME, seed=3).play(observe(other, seat, with_events=False)) == choice
        assert make_bot(ENDGAME + ",endgame=0", seed=3).play(obs) == make_bot("heuristic").play(obs)
        while rnd.phase == Phase.PLAY:  # every later decision: does the solver ever disagree?
            seat = rnd.turn
            assert seat is not None
            obs = observe(rnd, seat, with_events=False)
            choice = bot.play(obs)
            assert isinstance(bot, SearchBot)
            differs += bot.last_iterations > 0 and choice != make_bot("heuristic").play(obs)
            rnd.apply(Play(seat, choice))
    assert differs > 0, "the exact endgame overrules the heuristic somewhere"


def test_rollouts_lead_a_kept_pair_in_the_last_trick() -> None:
    """A rollout's tail is greedy (cheap), and the greedy policy leads singles; once a hand is down
    to its last two cards the search's rollouts play the tactics again, which lead a pair nobody
    can beat, so the last trick (and the kitty's multiplier) shows what keeping a pair is worth."""
    from tuolaji.bots.rollout import greedy_play, tactical_play
    from tuolaji.bots.search import DEFAULT_FINAL, truncated

    leads = []
    for i in range(40):  # (heuristic self-play reaches a last-two-cards pair in few deals)
        rnd = _near_the_end(None, i, 2)
        if rnd is None or rnd.trick is None or rnd.trick.plays:
            continue
        seat = rnd.turn
        assert seat is not None
        hand = rnd.hands[seat]
        if len(hand) == 2 and hand[0] == hand[1]:
            searched = truncated(tactical_play, 0, DEFAULT_FINAL)(rnd.copy(), seat, random.Random(0))
            assert len(greedy_play(rnd.copy(), seat, random.Random(0))) == 1
            leads.append(len(searched))
    assert leads.count(2) >= 2  # (a pair an unseen pair might beat is not led as one)
