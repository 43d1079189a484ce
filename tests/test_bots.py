"""Computer players: legal play, honesty (they decide from their own view only), inference."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tuolaji.bots.base import Bot
from tuolaji.bots.determinize import build_round, sample_hidden
from tuolaji.bots.driver import SoloRound, Table
from tuolaji.bots.heuristic import heuristic_bury
from tuolaji.bots.memory import remember
from tuolaji.bots.registry import DIFFICULTIES, difficulty_specs, make_bot, parse_spec
from tuolaji.bots.rollout import rollout
from tuolaji.engine.actions import Bury, Deal, Pass, Play
from tuolaji.engine.observation import Observation, observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import PRESETS, load_rules
from tuolaji.sim.runner import duplicate_deck, play_deal
from tuolaji.trump import TRUMP

RULES = load_rules(None)
# iteration-bound, so deterministic; two samples never overrule the heuristic in the endgame (MIN_SAMPLES),
# so a small node budget there leaves the decisions as they are and saves most of the CPU
FAST_SEARCH = "search:iterations=2,candidates=3,time=30,endgame_nodes=2000"


def _round(index: int) -> Round:
    deck, level, dealer = duplicate_deck(RULES, 7, index)
    return Round(rules=RULES, deck=deck, level=level, dealer=dealer)


def play_to(rnd: Round, bots: list[Bot], *, tricks: int | None = None, check: object = None) -> Round:
    """Drive ``rnd`` with ``bots`` through the one decision loop until ``tricks`` tricks are done
    or the end; every bot action must stand (no refusal, no fallback)."""
    table = Table(SoloRound(rnd), bots)
    while rnd.phase != Phase.DONE and (tricks is None or len(rnd.tricks) < tricks or rnd.phase != Phase.PLAY):
        if rnd.phase == Phase.PLAY and callable(check):
            assert rnd.turn is not None
            check(rnd, observe(rnd, rnd.turn))
        table.step()
    assert table.illegal == [0] * rnd.players
    return rnd


@pytest.mark.parametrize("spec", ["random", "heuristic", FAST_SEARCH, "oracle:iterations=2,candidates=3"])
def test_bots_play_only_legal_actions(spec: str) -> None:
    deals = 12 if spec in ("random", "heuristic") else 2
    for i in range(deals):
        r = play_deal(spec, "heuristic" if spec != "heuristic" else "random", RULES, 3, i)
        assert r.a.illegal == 0 and r.b.illegal == 0, (spec, i)
        assert all(g.attacker_points >= 0 for g in r.games)


def test_bots_apply_checked_every_phase() -> None:
    # the engine's checked path refuses anything illegal: a whole round goes through
    for i in range(3):
        bots = [make_bot(s, seed=i * 4 + k) for k, s in enumerate(["heuristic", FAST_SEARCH] * 2)]
        rnd = play_to(_round(i), bots)
        assert rnd.result is not None


def test_observation_holds_only_what_the_seat_may_see() -> None:
    hidden_seen = Counter[str]()

    def check(rnd: Round, obs: Observation) -> None:
        assert sorted(obs.hand) == sorted(rnd.hands[obs.seat])
        assert obs.kitty is None or obs.seat == rnd.burier
        # another seat's dealt cards, and a kitty another seat took or buried, arrive without the cards
        for e in obs.events:
            d = e.to_dict()
            private = d.get("card") if d["e"] == "dealt" else d.get("cards") if d["e"] in ("kitty_taken", "buried") else None
            if d["e"] in ("dealt", "kitty_taken", "buried") and d["seat"] != obs.seat:
                assert private is None, f"seat {obs.seat} sees seat {d['seat']}'s {d['e']} cards"
                hidden_seen[d["e"]] += 1

    bots = [make_bot("heuristic", seed=k) for k in range(4)]
    play_to(_round(1), bots, check=check)
    assert hidden_seen["dealt"] and hidden_seen["kitty_taken"] + hidden_seen["buried"], hidden_seen


def _poisoned(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round with every card hidden from ``seat`` dealt anew among the hidden places."""
    other = rnd.copy()
    hidden_places = [s for s in range(rnd.players) if s != seat]
    pool = [c for s in hidden_places for c in rnd.hands[s]]
    own_kitty = seat == rnd.dealer
    if not own_kitty:
        pool += rnd.kitty
    rng.shuffle(pool)
    for s in hidden_places:
        n = len(rnd.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    if not own_kitty:
        other.kitty = pool
    return other


@pytest.mark.parametrize("spec", ["heuristic", "easy", FAST_SEARCH])
def test_bots_decide_the_same_whatever_the_hidden_cards(spec: str) -> None:
    rng = random.Random(5)
    for i in range(4):
        bots = [make_bot("heuristic", seed=k) for k in range(4)]
        rnd = play_to(_round(i), bots, tricks=3 + 4 * i)
        if rnd.phase != Phase.PLAY:
            continue
        seat = rnd.turn
        assert seat is not None
        poisoned = _poisoned(rnd, seat, rng)
        assert poisoned.hands != rnd.hands
        o1, o2 = observe(rnd, seat, with_events=False), observe(poisoned, seat, with_events=False)
        assert o1 == o2
        assert make_bot(spec, seed=11).play(o1) == make_bot(spec, seed=11).play(o2)


def test_oracle_uses_the_round_it_is_shown() -> None:
    bot = make_bot("oracle:iterations=2,candidates=3", seed=1)
    rnd = play_to(_round(2), [make_bot("heuristic", seed=k) for k in range(4)], tricks=5)
    seat = rnd.turn
    assert seat is not None
    bot.see_round(rnd)  # type: ignore[attr-defined]
    play = bot.play(observe(rnd, seat))
    rnd.apply(Play(seat, play))


def test_memory_finds_voids_and_samples_respect_them() -> None:
    rng = random.Random(2)
    for i in range(6):
        rnd = play_to(_round(i), [make_bot("heuristic", seed=k) for k in range(4)], tricks=12)
        if rnd.phase != Phase.PLAY:
            continue
        seat = rnd.turn
        assert seat is not None
        obs = observe(rnd, seat)
        mem = remember(obs)
        eff = obs.ctx.eff
        for s in range(rnd.players):  # inferred voids are true
            for suit in mem.void[s]:
                assert not any(eff[c] == suit for c in rnd.hands[s])
        assert sum(mem.unseen.values()) == sum(len(rnd.hands[s]) for s in range(4) if s != seat) + (
            0 if seat == rnd.dealer else len(rnd.kitty)
        )
        for _ in range(5):
            hands, kitty = sample_hidden(obs, mem, rng)
            assert [len(h) for h in hands] == [len(h) for h in rnd.hands]
            assert hands[seat] == list(obs.hand) and len(kitty) == rnd.kitty_size
            assert Counter(c for h in hands for c in h) + Counter(kitty) == Counter(c for h in rnd.hands for c in h) + Counter(
                rnd.kitty
            )
            for s in range(rnd.players):
                if s != seat:
                    assert not any(eff[c] in mem.void[s] for c in hands[s])


def test_memory_counts_every_card_played_in_public_in_the_order_played() -> None:
    """``played`` holds the finished tricks' cards and the trick in progress's, counted in the
    order they were played (the human-like bots read it: the order of its entries matters),
    asked before and after the memory's other answers."""
    in_progress = 0
    for i in range(4):
        bots = [make_bot("heuristic", seed=k) for k in range(4)]
        rnd = _round(i)
        for tricks in (3, 7, 11):
            rnd = play_to(rnd, bots, tricks=tricks)
            for _ in range(i % 4):  # a trick in progress, some of the time
                if rnd.phase == Phase.PLAY:
                    seat = rnd.turn
                    assert seat is not None
                    rnd.apply(Play(seat, tuple(bots[seat].play(observe(rnd, seat)))))
            if rnd.phase != Phase.PLAY:
                continue
            seat = rnd.turn
            assert seat is not None
            obs = observe(rnd, seat)
            expected: Counter[int] = Counter()
            for t in (*obs.tricks, *((obs.trick,) if obs.trick else ())):
                for play in t.plays:
                    for c in play:
                        expected[c] += 1
            in_progress += bool(obs.trick and obs.trick.plays)
            mem = remember(obs)
            assert list(mem.played.items()) == list(expected.items())
            assert list(remember(obs).played.items()) == list(expected.items())  # the kept notes unchanged
    assert in_progress >= 3


@pytest.mark.parametrize("preset", ["classic", "bianfeng-friend"])
def test_built_round_with_the_true_hands_plays_like_the_real_one(preset: str) -> None:
    """Search rebuilds a round from a seat's view plus guessed hands; with the true hands it must
    play out exactly like the real round: same score, and in find-a-friend the same partnership,
    whether the friend has shown itself yet or not."""
    rules = load_rules(preset)
    hidden_friends = 0
    for i in range(6):
        deck, level, dealer = duplicate_deck(rules, 7, i)
        for tricks in (1, 4, 9):
            rnd = play_to(
                Round(rules=rules, deck=deck, level=level, dealer=dealer),
                [make_bot("heuristic", seed=k) for k in range(4)],
                tricks=tricks,
            )
            if rnd.phase != Phase.PLAY:
                continue
            hidden_friends += rnd.friend is not None and not rnd.friend_revealed
            for seat in range(rnd.players):
                built = build_round(observe(rnd, seat), [list(h) for h in rnd.hands], list(rnd.kitty))
                assert built.dealer_side() == rnd.dealer_side()
                real = rnd.copy()
                rollout(real, random.Random(i))
                rollout(built, random.Random(i))
                assert real.result is not None and built.result is not None
                assert (real.result.attacker_points, real.result.team, real.result.levels) == (
                    built.result.attacker_points,
                    built.result.team,
                    built.result.levels,
                )
    assert hidden_friends > 0 or preset == "classic"


def test_heuristic_bury_keeps_trumps_and_empties_a_short_suit() -> None:
    for i in range(10):
        rnd = _round(i)
        while rnd.phase == Phase.DEAL:
            rnd.apply(Deal())
        while rnd.phase == Phase.DECLARE:
            assert rnd.turn is not None
            rnd.apply(Pass(rnd.turn))
        assert rnd.phase == Phase.BURY and rnd.dealer is not None and rnd.ctx is not None
        hand = rnd.hands[rnd.dealer]
        buried = heuristic_bury(hand, rnd.ctx, rnd.kitty_size)
        plain = [c for c in hand if rnd.ctx.eff[c] != TRUMP]
        if len(plain) >= rnd.kitty_size:
            assert all(rnd.ctx.eff[c] != TRUMP for c in buried)
        rnd.apply(Bury(rnd.dealer, buried))


def test_registry_names_and_difficulties() -> None:
    for name in ["random", "heuristic", "search", "oracle", *DIFFICULTIES]:
        assert isinstance(make_bot(name, seed=1), Bot)
    assert parse_spec("search:iterations=5,time=0.5") == ("search", {"iterations": 5, "time": 0.5})
    assert make_bot("hard").steps < make_bot("expert").steps  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_bot("nonsense")
    with pytest.raises(ValueError):
        make_bot("search:bogus=1")


def test_the_browser_expert_keeps_the_budget_measured_for_it() -> None:
    """The offline build (Pyodide: sys.platform 'emscripten') plays the expert at the budget whose
    browser latency docs/bots.md reports, even if the server's default budget is raised."""
    from tuolaji.bots.search import SearchBot

    browser, server = difficulty_specs("emscripten"), difficulty_specs("linux")
    assert DIFFICULTIES == server and browser.keys() == server.keys()
    bot = make_bot(browser["expert"], seed=1)
    assert isinstance(bot, SearchBot)
    assert (bot.steps, bot.setup_steps, bot.endgame_nodes, bot.time) == (2000, 8000, 20000, 1.0)
    assert all(browser[d] == server[d] for d in ("easy", "normal", "hard"))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bots_play_every_preset_legally(preset: str) -> None:
    rules = load_rules(preset)
    for spec_a, spec_b in [("heuristic", "random"), ("search:iterations=1,candidates=2,time=30", "heuristic")]:
        r = play_deal(spec_a, spec_b, rules, 5, 0)
        assert r.a.illegal == 0 and r.b.illegal == 0, (preset, spec_a)


def test_search_overrules_the_heuristic_only_on_clear_evidence() -> None:
    from tuolaji.bots.search import pick

    assert pick([[0.0, 0.0], [5.0, 5.0]], 1.0) == 0  # two samples prove nothing
    assert pick([[0.0] * 6, [1.0, 1.1, 0.9, 1.0, 1.2, 0.8]], 1.0) == 1
    assert pick([[0.0] * 6, [3.0, -3.0, 3.0, -2.0, 3.0, -3.0]], 1.0) == 0  # better on average, too noisy


def test_the_search_clock_counts_work_not_waiting() -> None:
    """The time cap reads this thread's CPU time: time spent waiting (a busy machine, other
    threads) does not end a search early."""
    import time

    from tuolaji.bots.clock import clock

    t0 = clock()
    time.sleep(0.2)
    waited = clock() - t0
    t0 = clock()
    sum(i * i for i in range(300_000))
    worked = clock() - t0
    assert waited < 0.05 and worked > 0


def test_follows_to_a_pair_are_exactly_the_legal_ones_of_the_suit() -> None:
    """The tactics list a pair's follows from the suit without asking the follow check of each
    (a pair when the suit holds one, else any two): the same list, in the same order, as every
    two cards of the suit filtered by the engine's structure check."""
    from tuolaji.bots.tactics import TrickState, follow_options
    from tuolaji.combos import decompose, required_structure
    from tuolaji.engine.legal import all_submultisets
    from tuolaji.tricks import structure_reason
    from tuolaji.trump import TrumpContext

    rng = random.Random(12)
    checked = with_pair = 0
    for decks in (2, 3, 4):
        for _ in range(400):
            ctx = TrumpContext(rng.randrange(2, 15), rng.choice([None, 0, 1, 2, 3]), decks)
            e = rng.randrange(TRUMP + 1)
            kinds = [c for c in range(54) if ctx.eff[c] == e]
            if not kinds:
                continue
            lead = (rng.choice(kinds),) * 2
            suit = [rng.choice(kinds) for _ in range(rng.randrange(3, 12))]
            suit = [c for i, c in enumerate(suit) if suit[: i + 1].count(c) <= decks]
            if len(suit) <= 2:
                continue
            hand = suit + [c for c in range(54) if ctx.eff[c] != e][:5]
            comps = decompose(lead, ctx)
            st = TrickState(0, 4, hand, ctx, (3,), (lead,), comps, lambda a, b: a % 2 == b % 2, True, 5)
            items = sorted(Counter(suit).items())
            required = required_structure(Counter(suit), comps, 2, ctx.order)
            legal = [p for p in all_submultisets(items, 2) if structure_reason(p, required, comps, ctx) is None]
            assert follow_options(st) == legal
            checked += 1
            with_pair += any(n >= 2 for _, n in items)
    assert checked > 500 and 0 < with_pair < checked


def test_the_kept_sampling_preparation_is_its_own_threads() -> None:
    """A server searches for several tables at once on worker threads: the preparation that a
    search's draws for one observation share is its own thread's, never replaced by another
    thread's draws for another observation."""
    import threading

    from tuolaji.bots.determinize import _prepared

    rounds = [play_to(_round(i), [make_bot("heuristic", seed=k) for k in range(4)], tricks=3) for i in (1, 2)]
    views = []
    for rnd in rounds:
        seat = rnd.turn
        assert seat is not None
        obs = observe(rnd, seat)
        views.append((obs, remember(obs), {s: obs.hand_sizes[s] for s in range(obs.players) if s != seat}))
    mine = _prepared(*views[0])
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(_prepared(*views[1])))
    worker.start()
    worker.join()
    assert theirs[0].obs is views[1][0]
    assert _prepared(*views[0]) is mine


def test_sampling_shuffles_as_the_standard_library_does() -> None:
    """Sampling's shuffle (determinize.shuffle) makes the same swaps from the same draws as
    random.Random.shuffle: the same order, and the generator left in the same state."""
    from tuolaji.bots.determinize import shuffle

    for seed in range(40):
        cards = list(range(seed * 3 % 70))
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, std = list(cards), list(cards)
        shuffle(mine, ours)
        theirs.shuffle(std)
        assert mine == std
        assert ours.getstate() == theirs.getstate()


def _plain_draw(prep: Any, rng: random.Random, strict: bool, voids: bool) -> list[list[int]] | None:
    """A sampled deal's hidden cards drawn the plain way: each card (shuffled, the most
    constrained first) to one of its allowed seats with room, in proportion to their room."""
    room = list(prep.room)
    out = [list(cards) for cards in prep.out]
    cards = list(prep.cards)
    rng.shuffle(cards)
    group, sizes, sets = prep.options(strict, voids)
    cards.sort(key=lambda c: sizes[c])
    for c in cards:
        seats = [s for s in sets[group[c]] if room[s] > 0]
        if not seats:
            return None
        r = rng.random() * sum(room[s] for s in seats)
        for s in seats:
            r -= room[s]
            if r < 0:
                break
        out[s].append(c)
        room[s] -= 1
    if strict:
        eff = prep.mem.ctx.eff
        for s, lacks in enumerate(prep.mem.no_pairs):
            suited = [c for c in out[s] if eff[c] in lacks]
            if lacks and len(set(suited)) < len(suited):
                return None
    return out


def test_a_sampled_deal_is_the_plain_draw_from_the_same_generator() -> None:
    """Sampling draws each card with the room of its open seats carried from the card before
    and the shuffle's swaps made once per size: the same deal, and the generator left in the
    same state, as the plain draw (every rule set of draws, void-heavy positions included)."""
    from tuolaji.bots.determinize import _prepared, _try_sample

    checked = failed = 0
    for i in range(1, 6):
        rnd = _round(i)
        bots = [make_bot("heuristic", seed=k) for k in range(4)]
        for tricks in (2, 6, 10):
            rnd = play_to(rnd, bots, tricks=tricks)
            seat = rnd.turn
            if seat is None:
                break
            obs = observe(rnd, seat)
            mem = remember(obs)
            prep = _prepared(obs, mem, {s: obs.hand_sizes[s] for s in range(obs.players) if s != seat})
            for seed in range(20):
                for strict, voids in ((True, True), (False, True), (False, False)):
                    ours, theirs = random.Random(seed), random.Random(seed)
                    got = _try_sample(prep, ours, strict=strict, voids=voids)
                    assert got == _plain_draw(prep, theirs, strict, voids)
                    assert ours.getstate() == theirs.getstate()
                    checked += 1
                    failed += got is None
    assert checked > 500 and failed < checked


def test_a_rollouts_forced_play_is_the_one_the_tactics_choose() -> None:
    """A hand no bigger than the lead (each rollout's last trick) is played whole without asking
    the tactics: the same cards in the same order as the tactics' own choice."""
    from tuolaji.bots.rollout import HandThreats, _few_leads, _tactical
    from tuolaji.bots.tactics import TrickState, choose_follow, choose_lead

    forced = [0, 0]  # leads, follows to several cards

    def policy(rnd: Round, seat: int, rng: random.Random) -> tuple[int, ...]:
        threats = HandThreats(rnd)
        got = _tactical(rnd, seat, threats)
        trick, ctx, hand = rnd.trick, rnd.ctx, rnd.hands[seat]
        assert trick is not None and ctx is not None
        plays = trick.plays
        if len(hand) == (len(plays[0]) if plays else 1):
            att, side = threats.sides()
            st = TrickState(seat, rnd.players, hand, ctx, trick.seats, plays, trick.lead_comps, side, att[seat], 1)
            if plays:
                assert got == choose_follow(st, threats)
                forced[1] += len(plays[0]) > 1
            else:
                none = frozenset[int]().__contains__
                assert got == choose_lead(st, threats, _few_leads(hand, ctx, lambda e, k, m: -1), none, none)
                forced[0] += 1
        return got

    for i in range(8):
        rnd = play_to(_round(i), [make_bot("heuristic", seed=k) for k in range(4)], tricks=1 + i % 3)
        if rnd.phase == Phase.PLAY:
            rollout(rnd, random.Random(i), policy)
    assert forced[0] and forced[1]  # both kinds met


def test_a_rollout_chooses_the_truncated_policy_as_the_policy_itself_does() -> None:
    """rollout() makes a truncated policy's choice (tactics for the near tricks and the last
    cards, greedy between) in its own loop: the same plays as calling the policy each time."""
    from tuolaji.bots.rollout import tactical_play
    from tuolaji.bots.search import truncated

    for i in range(4):
        rnd = play_to(_round(i), [make_bot("heuristic", seed=k) for k in range(4)], tricks=2 + i)
        if rnd.phase != Phase.PLAY:
            continue
        policy = truncated(tactical_play, len(rnd.tricks) + 2, 2)
        inline, called = rnd.copy(), rnd.copy()
        rollout(inline, random.Random(i), policy)
        rollout(called, random.Random(i), lambda r, s, g, p=policy: p(r, s, g))
        assert inline.events == called.events and inline.result == called.result
