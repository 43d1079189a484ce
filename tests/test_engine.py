"""The round and match engine on rules that are not judge questions (RULES.md §1, §3, §6–§8),
and the golden playthrough (tests/golden/, regenerate with ``python tests/golden/regenerate.py``)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from playthrough import play_to, step
from random_hands import random_trump_and_hand
from tuolaji.cards import new_deck, parse_card, parse_cards
from tuolaji.engine.actions import Action, Bury, Deal, Declare, Pass, Play
from tuolaji.engine.events import Dealt, Played, Redealt, TrumpFixed, event_from_dict
from tuolaji.engine.legal import legal_actions, legal_plays
from tuolaji.engine.match import Match
from tuolaji.engine.round import Phase, Round
from tuolaji.errors import IllegalAction
from tuolaji.record import dumps, from_record, to_record
from tuolaji.ruleset import RuleSet

RULES = RuleSet()
GOLDEN = Path(__file__).parent / "golden" / "match_seed157.json"


def deck_for(hands: dict[int, str], kitty: str, *, seed: int = 0, start_seat: int = 0) -> list[int]:
    """A deal order giving the listed seats (at least) the listed cards and the kitty its first cards."""
    rest = Counter(new_deck(2))
    fixed = {s: parse_cards(h) for s, h in hands.items()}
    head = parse_cards(kitty)
    for cards in [*fixed.values(), head]:
        rest.subtract(cards)
    assert not -rest, "more copies than two decks hold"
    pool = list(rest.elements())
    random.Random(seed).shuffle(pool)
    full = {}
    for s in range(4):
        mine = fixed.get(s, [])
        full[s] = mine + [pool.pop() for _ in range(25 - len(mine))]
    kit = head + [pool.pop() for _ in range(8 - len(head))]
    assert not pool
    deck = [full[(start_seat + i) % 4][i // 4] for i in range(100)]
    return deck + kit


def deal_all(rnd: Round) -> None:
    while rnd.phase == Phase.DEAL:
        rnd.apply(Deal())


def pass_all(rnd: Round) -> None:
    while rnd.phase == Phase.DECLARE:
        assert rnd.turn is not None
        rnd.apply(Pass(rnd.turn))


def _shuffled_in_play(rules: RuleSet, rng: random.Random, *, level: int) -> Round:
    """A shuffled round with seat 1 dealing, nobody declaring and the first cards buried: at its first lead."""
    deck = new_deck(rules.decks)
    rng.shuffle(deck)
    rnd = Round(rules=rules, deck=deck, level=level, dealer=1)
    deal_all(rnd)
    pass_all(rnd)
    rnd.apply(Bury(1, tuple(rnd.hands[1][: rnd.kitty_size])))
    return rnd


def refused(rnd: Round | Match, action: Action, code: str) -> None:
    with pytest.raises(IllegalAction) as info:
        rnd.apply(action)
    assert info.value.code == code, (info.value.code, code)
    assert info.value.message("en") and info.value.message("zh")


# ------------------------------------------------------------------ the deal
def test_cards_are_dealt_one_at_a_time_counter_clockwise() -> None:
    deck = new_deck(2)
    random.Random(1).shuffle(deck)
    rnd = Round(rules=RULES, deck=deck, level=2, dealer=3)
    deal_all(rnd)
    dealt = [e for e in rnd.events if isinstance(e, Dealt)]
    assert [e.seat for e in dealt] == [(3 + i) % 4 for i in range(100)]
    assert [e.card for e in dealt] == deck[:100]
    assert [len(h) for h in rnd.hands] == [25] * 4 and len(rnd.kitty) == 8
    assert rnd.phase == Phase.DECLARE and rnd.turn == 3


# ------------------------------------------------------------------ declaring (§8)
def test_first_declarer_deals_the_first_round_even_when_overridden() -> None:
    deck = deck_for({2: "H2", 1: "S2 S2"}, "D9")
    rnd = Round(rules=RULES, deck=deck, level=2, dealer=None)
    for _ in range(40):
        rnd.apply(Deal())
    rnd.apply(Declare(2, (parse_card("H2"),)))
    rnd.apply(Deal())
    rnd.apply(Declare(1, parse_cards("S2 S2")))
    deal_all(rnd)
    pass_all(rnd)
    fixed = [e for e in rnd.events if isinstance(e, TrumpFixed)][0]
    assert (fixed.trump, fixed.dealer, rnd.dealer) == (0, 2, 2)
    assert rnd.phase == Phase.BURY and rnd.turn == 2 and len(rnd.hands[2]) == 33


def test_declarations_during_the_deal() -> None:
    deck = deck_for({0: "H5 H5 S5 S5 LJ LJ", 1: "C5 C5 D5 BJ BJ"}, "D9", seed=2)
    rnd = Round(rules=RULES, deck=deck, level=5, dealer=0)
    while rnd.phase == Phase.DEAL:
        rnd.apply(Deal())
        if rnd.dealt == 40:  # everyone holds their first ten cards
            break
    assert not Counter(parse_cards("H5 H5 S5 S5 LJ LJ")) - Counter(rnd.hands[0])  # dealt first
    other = next(c for c in rnd.hands[0] if c < 52 and c % 13 + 2 != 5)
    refused(rnd, Declare(0, (other,)), "bad_declaration")
    refused(rnd, Declare(0, parse_cards("BJ BJ")), "not_in_hand")
    refused(rnd, Declare(1, parse_cards("BJ")), "bad_declaration")
    refused(rnd, Declare(1, parse_cards("C5 D5")), "bad_declaration")
    rnd.apply(Declare(0, parse_cards("H5")))
    refused(rnd, Declare(1, parse_cards("C5")), "weak_declaration")  # a single does not override a single
    refused(rnd, Declare(0, parse_cards("S5 S5")), "self_override")
    rnd.apply(Declare(0, parse_cards("H5 H5")))  # reinforcing (加固)
    refused(rnd, Declare(1, parse_cards("C5 C5")), "weak_declaration")  # a reinforced pair stands
    rnd.apply(Declare(1, parse_cards("BJ BJ")))
    refused(rnd, Declare(0, parse_cards("LJ LJ")), "weak_declaration")
    assert rnd.bid is not None and rnd.bid.trump is None and rnd.bid.seat == 1
    deal_all(rnd)
    pass_all(rnd)
    fixed = [e for e in rnd.events if isinstance(e, TrumpFixed)][0]
    assert fixed.trump is None and fixed.dealer == 0, "after the first round the dealer stays (no-trump by BJ BJ)"


def test_no_declaration_after_the_first_round_takes_the_kitty_suit() -> None:
    for kitty, suit in (("C9", 2), ("BJ LJ D3", 3), ("S4", 0)):
        rnd = Round(rules=RULES, deck=deck_for({}, kitty, seed=5), level=7, dealer=1)
        deal_all(rnd)
        levels_held = [c for h in rnd.hands for c in h if c < 52 and c % 13 + 2 == 7]
        assert levels_held  # nobody chose to declare though they could
        pass_all(rnd)
        fixed = [e for e in rnd.events if isinstance(e, TrumpFixed)][0]
        assert (fixed.trump, fixed.source, fixed.dealer) == (suit, "kitty_first", 1)


def test_no_declaration_in_the_first_round_redeals() -> None:
    match = Match(seed=3)
    rnd = match.round
    while rnd.phase == Phase.DEAL:
        match.apply(Deal())
    for seat in (0, 1, 2, 3):
        match.apply(Pass(seat))
    assert rnd.redeal and any(isinstance(e, Redealt) for e in rnd.events)
    assert match.round is not rnd and match.round.dealer is None and match.deals[1] != match.deals[0]
    assert match.levels == [0, 0]


def test_no_declaring_after_the_kitty_is_picked_up() -> None:
    rnd = Round(rules=RULES, deck=deck_for({3: "D2"}, "C9"), level=2, dealer=0)
    deal_all(rnd)
    pass_all(rnd)
    assert rnd.phase == Phase.BURY
    refused(rnd, Declare(3, parse_cards("D2")), "wrong_phase")
    kitty_cards = rnd.hands[0][25:]
    level_in_kitty = [c for c in kitty_cards if c % 13 == 0 and c < 52]
    if level_in_kitty:  # cards from the kitty cannot be used either
        refused(rnd, Declare(0, (level_in_kitty[0],)), "wrong_phase")


# ------------------------------------------------------------------ burying (§6)
def test_burying() -> None:
    rnd = Round(rules=RULES, deck=deck_for({}, "C9"), level=2, dealer=0)
    deal_all(rnd)
    pass_all(rnd)
    hand = rnd.hands[0]
    refused(rnd, Bury(1, tuple(rnd.hands[1][:8])), "not_dealer")
    refused(rnd, Bury(0, tuple(hand[:7])), "wrong_kitty_size")
    missing = next(c for c in range(54) if c not in hand)
    refused(rnd, Bury(0, (missing, *hand[:7])), "not_in_hand")
    refused(rnd, Play(0, (hand[0],)), "wrong_phase")
    before = [list(h) for h in rnd.hands]
    rnd.apply(Bury(0, tuple(hand[:8])))
    assert sorted(rnd.kitty) == sorted(before[0][:8]) and len(rnd.hands[0]) == 25
    assert rnd.phase == Phase.PLAY and rnd.turn == 0, "the dealer leads the first trick"
    from tuolaji.engine.view import round_view

    assert round_view(rnd, 0)["kitty"] is not None
    assert all(round_view(rnd, s)["kitty"] is None for s in (1, 2, 3, None))


# ------------------------------------------------------------------ throws in the engine (§3)
def _ready(hands: dict[int, str], kitty: str, level: int, bury: str) -> Round:
    rnd = Round(rules=RULES, deck=deck_for(hands, kitty, seed=11), level=level, dealer=0)
    deal_all(rnd)
    pass_all(rnd)
    rnd.apply(Bury(0, tuple(parse_cards(bury))))
    return rnd


def test_a_failed_throw_plays_the_forced_combination_and_keeps_the_rest() -> None:
    # level 2, hearts trump (the kitty's first card). Seat 0 throws SAA + SQ; seat 1 holds SK.
    rnd = _ready(
        {0: "SA SA SQ C3 C3 C4 C4 C6 C6 C7 C7", 1: "SK S3 S4", 2: "SK S5", 3: "S6 S8"}, "H3", 2, "C3 C3 C4 C4 C6 C6 C7 C7"
    )
    assert rnd.ctx is not None and rnd.ctx.trump == 1
    rnd.apply(Play(0, tuple(parse_cards("SA SA SQ"))))
    played = [e for e in rnd.events if isinstance(e, Played)][-1]
    assert played.cards == tuple(parse_cards("SQ")) and played.attempted == tuple(parse_cards("SA SA SQ"))
    assert Counter(rnd.hands[0])[parse_card("SA")] == 2, "the rest of the throw returns to the hand"
    assert rnd.trick is not None and rnd.trick.plays == [tuple(parse_cards("SQ"))]
    assert rnd.turn == 1
    refused(rnd, Play(1, tuple(parse_cards("S3 S4"))), "wrong_count")  # follow the forced single
    spades = [c for c in rnd.hands[1] if c // 13 == 0 and c % 13 != 0]
    assert set(legal_plays(rnd, 1)) == {(c,) for c in spades}


def test_a_failed_throw_names_the_first_seat_that_beats_it_and_the_combination_shown() -> None:
    # Seat 0 throws SA + SJ SJ. The pair fails first (RULES.md §3: largest shape first): seat 2
    # holds SQ SQ and seat 3 SK SK; seat 2 comes first in play order and shows its lowest beating pair.
    rnd = _ready(
        {0: "SA SJ SJ C3 C3 C4 C4 C6 C6 C7 C7", 1: "S3 S4", 2: "SQ SQ S5", 3: "SK SK S6"}, "H3", 2, "C3 C3 C4 C4 C6 C6 C7 C7"
    )
    rnd.apply(Play(0, tuple(parse_cards("SA SJ SJ"))))
    played = [e for e in rnd.events if isinstance(e, Played)][-1]
    assert played.cards == tuple(parse_cards("SJ SJ"))
    assert played.beaten_by == 2 and played.beating == tuple(parse_cards("SQ SQ"))
    wire = played.to_dict()
    assert wire["beaten_by"] == 2 and wire["beating"] == ["SQ", "SQ"]
    assert event_from_dict(wire) == played


def test_an_event_without_a_failed_throw_reads_as_before() -> None:
    played = Played(1, tuple(parse_cards("S3")))
    assert played.to_dict() == {"e": "played", "seat": 1, "cards": ["S3"], "attempted": None}


def test_events_behave_as_the_frozen_dataclasses_they_were() -> None:
    import copy
    import dataclasses
    import pickle

    from tuolaji.engine.events import EVENT_NAMES, RoundEnded, TimeIsUp, TrickEnded, played

    ev = Played(1, (3, 4))
    assert ev == Played(1, (3, 4)) == played(1, (3, 4)) and hash(ev) == hash(Played(1, (3, 4)))
    assert ev != Played(1, (3, 5)) and not (ev != Played(1, (3, 4)))
    # equality needs the same class (the same fields are not enough), and never holds with a plain tuple
    assert Redealt() != TimeIsUp() and not (Redealt() == TimeIsUp()) and Redealt() == Redealt()
    assert ev != (1, (3, 4), None, None, None) and (1, (3, 4), None, None, None) != ev and ev != 1
    assert bool(Redealt()) and bool(TimeIsUp())
    assert repr(ev) == "Played(seat=1, cards=(3, 4), attempted=None, beaten_by=None, beating=None)"
    assert repr(Redealt()) == "Redealt()" and Played.__match_args__ == ("seat", "cards", "attempted", "beaten_by", "beating")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.seat = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        _ = ev < ev
    assert [f.name for f in dataclasses.fields(TrickEnded)] == ["winner", "points", "attacker_points"]
    assert dataclasses.replace(ev, beaten_by=2) == Played(1, (3, 4), None, 2)
    assert Played(seat=1, cards=(3, 4), beating=(5, 5)).beating == (5, 5)
    for e in (ev, Redealt(), Dealt(0, 7), RoundEnded(0, 0, (), 0, 1, False, "dealer", 1, 1, coins=(1, -1))):
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            got = pickle.loads(pickle.dumps(e, proto))
            assert got == e and type(got) is type(e)
        assert copy.copy(e) == e and copy.deepcopy(e) == e and event_from_dict(e.to_dict()) == e
        assert e.__class__ in EVENT_NAMES and not hasattr(e, "__dict__")
    assert Dealt(0, 7).redacted(1) == Dealt(0, None) and Dealt(0, 7).redacted(0) == Dealt(0, 7)


def test_a_valid_throw_stands() -> None:
    rnd = _ready({0: "SA SA SK C3 C3 C4 C4 C6 C6 C7 C7", 1: "SK S3", 2: "SQ SQ", 3: "S6 S8"}, "H3", 2, "C3 C3 C4 C4 C6 C6 C7 C7")
    rnd.apply(Play(0, tuple(parse_cards("SA SA SK"))))  # SAA is the top pair, the other SK only equals SK
    played = [e for e in rnd.events if isinstance(e, Played)][-1]
    assert played.attempted is None and sorted(played.cards) == sorted(parse_cards("SA SA SK"))
    assert rnd.turn == 1 and rnd.trick is not None and len(rnd.trick.plays[0]) == 3


# ------------------------------------------------------------------ turns and refusals
def test_turns_and_refusals() -> None:
    match, rng = play_to(8, 0)
    refused(match, Play(0, (1,)), "wrong_phase")
    refused(match, Pass(0), "wrong_phase")
    while match.round.phase != Phase.PLAY:
        step(match, rng)
    rnd = match.round
    turn = rnd.turn
    assert turn is not None
    refused(match, Play((turn + 1) % 4, (rnd.hands[(turn + 1) % 4][0],)), "not_your_turn")
    refused(match, Play(turn, ()), "empty_play")
    refused(match, Play(7, (1,)), "bad_seat")
    refused(match, Deal(), "wrong_phase")
    hand = rnd.hands[turn]
    mixed = next(((a, b) for a in hand for b in hand if rnd.ctx and rnd.ctx.eff[a] != rnd.ctx.eff[b]), None)
    if mixed:
        refused(match, Play(turn, mixed), "mixed_suits")


def test_play_goes_round_the_table_and_the_winner_leads() -> None:
    match, _ = play_to(12, 1200)
    for rnd in match.rounds:
        for trick in rnd.tricks:
            assert trick.seats == [(trick.leader + i) % 4 for i in range(4)]


def test_legal_actions_in_each_phase() -> None:
    match, rng = play_to(14, 0)
    rnd = match.round
    assert list(legal_actions(rnd, 0)) == [] or all(isinstance(a, Declare) for a in legal_actions(rnd, 0))
    while rnd.phase != Phase.DECLARE:
        step(match, rng, declare_p=0.0)
    assert rnd.turn is not None
    acts = list(legal_actions(rnd, rnd.turn))
    assert Pass(rnd.turn) in acts
    assert list(legal_actions(rnd, (rnd.turn + 1) % 4)) == []


def test_a_finished_match_refuses_everything() -> None:
    from playthrough import play_match

    match = play_match(2)
    refused(match, Deal(), "match_over")
    refused(match, Pass(0), "match_over")


def test_match_apply_reads_a_declaration_once_and_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Match.apply checks an action once and acts on it (as Round.apply does): a declaration's
    bid is read once, and the declaration stands as the round's bid."""
    import tuolaji.engine.round as round_module

    match = Match(seed=11)
    while not any(match.round.declaration_options(s) for s in range(4)):
        match.apply(Deal())
    seat = next(s for s in range(4) if match.round.declaration_options(s))
    cards = match.round.declaration_options(seat)[0]
    reads = []
    real = round_module.read_bid
    monkeypatch.setattr(round_module, "read_bid", lambda *a, **k: reads.append(a) or real(*a, **k))
    match.apply(Declare(seat, cards))
    assert len(reads) == 1
    assert match.round.bid is not None and match.round.bid.seat == seat
    assert match.actions == match.round.dealt + 1


@pytest.mark.parametrize("where", ["round", "match"])
def test_a_defect_while_acting_leaves_the_match_as_it_was(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """A legal action that raises while acting (a defect: in the round's trick end, or in the
    match's end of a round) is undone: the same record, hands and levels, and play goes on."""
    rng = random.Random(5)
    match = Match(seed=5)
    while True:  # to the last play of a round: the seat to play holds just the lead's size
        rnd = match.round
        trick = rnd.trick
        if rnd.phase == Phase.PLAY and trick is not None and len(trick.plays) == 3:
            if len(rnd.hands[rnd.turn or 0]) == len(trick.plays[0]):
                break
        step(match, rng, declare_p=0.0)
    last = Play(rnd.turn or 0, tuple(rnd.hands[rnd.turn or 0]))
    before, hands, levels, rounds = dumps(match), [list(h) for h in rnd.hands], list(match.levels), len(match.rounds)
    target = (Round, "_finish") if where == "round" else (Match, "_end_round")

    def broken(*args: object) -> None:
        raise RuntimeError("defect")

    with monkeypatch.context() as m:
        m.setattr(*target, broken)
        with pytest.raises(RuntimeError):
            match.apply(last)
    assert dumps(match) == before
    assert [list(h) for h in match.round.hands] == hands and match.levels == levels
    assert match.round is rnd and len(match.rounds) == rounds
    match.apply(last)
    assert len(match.rounds) == rounds + 1 and match.round is not rnd


# ------------------------------------------------------------------ golden playthrough
def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def _actions(events: list[dict[str, Any]]) -> list[Action]:
    out: list[Action] = []
    for e in events:
        kind = e["e"]
        if kind == "dealt":
            out.append(Deal())
        elif kind == "declared":
            out.append(Declare(e["seat"], tuple(parse_cards(e["cards"]))))
        elif kind == "passed":
            out.append(Pass(e["seat"]))
        elif kind == "buried":
            out.append(Bury(e["seat"], tuple(parse_cards(e["cards"]))))
        elif kind == "played":
            out.append(Play(e["seat"], tuple(parse_cards(e.get("attempted") or e["cards"]))))
    return out


def test_golden_playthrough_loads_identically() -> None:
    """Replaying the stored actions re-derives every stored event: trump, tricks, points, results."""
    golden = _golden()
    match = from_record(golden)
    assert to_record(match) == golden
    assert match.over and match.winner == golden["events"][-1]["winner"]


def test_a_record_written_before_failed_throws_named_their_beater_still_loads() -> None:
    golden = _golden()
    old = {**golden, "events": [{k: v for k, v in e.items() if k not in ("beaten_by", "beating")} for e in golden["events"]]}
    assert old["events"] != golden["events"], "the golden match has failed throws"
    assert to_record(from_record(old)) == golden


def test_golden_playthrough_replays_from_the_seed() -> None:
    """The same seed deals the same cards; the stored actions then give the identical record."""
    golden = _golden()
    match = Match(rules=RuleSet.from_dict(golden["rules"]), seed=golden["seed"])
    for action in _actions(golden["events"]):
        match.apply(action)
    assert json.loads(dumps(match)) == golden


def test_golden_playthrough_is_the_default_game() -> None:
    golden = _golden()
    rules = RuleSet.from_dict(golden["rules"])
    assert rules.replace(name="classic", description=RULES.description) == RULES
    summary = [(e["team"], e["levels"], e["attacker_points"]) for e in golden["events"] if e["e"] == "round_ended"]
    assert len(summary) == 14 and summary[0][0] in ("dealer", "attackers")


def test_card_tokens_read_by_look_up_read_as_the_full_parser_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from tuolaji import cards

    spellings = dict(cards._TOKENS)
    assert len(set(spellings.values())) == 54
    monkeypatch.setattr(cards, "_TOKENS", {})
    assert {t: parse_card(t) for t in spellings} == spellings


@pytest.mark.parametrize("decks", [2, 4])
def test_suit_counts_follow_every_play_and_copy(decks: int) -> None:
    """The per-seat counts by suit that rollouts read stay equal to counting the hand afresh."""
    from tuolaji.engine.legal import random_play

    rng = random.Random(decks)
    rules = RuleSet(decks=decks)
    rnd = _shuffled_in_play(rules, rng, level=5)
    while rnd.phase == Phase.PLAY:
        assert rnd.ctx is not None and rnd.turn is not None
        eff = rnd.ctx.eff
        if rng.random() < 0.3:
            rnd = rnd.copy()
        for s in range(rules.players):
            fresh: dict[int, Counter[int]] = {}
            for c in rnd.hands[s]:
                fresh.setdefault(eff[c], Counter())[c] += 1
            assert {e: dict(n) for e, n in rnd.suit_counts(s).items()} == {e: dict(n) for e, n in fresh.items()}
        rnd.apply(Play(rnd.turn, random_play(rnd, rnd.turn, rng)))


@pytest.mark.parametrize("decks", [2, 4])
def test_suit_cards_follow_every_play_copy_and_hand_put_in(decks: int) -> None:
    """The seats' cards by effective suit that the round keeps (random follows read them) stay
    equal to the hand's cards of that suit in hand order: after every play, in a copy, and for a
    hand put in from outside (bots' sampled worlds), even one of the same length."""
    from tuolaji.engine.legal import random_play

    rng = random.Random(decks + 10)
    rules = RuleSet(decks=decks)
    for _ in range(6):
        rnd = _shuffled_in_play(rules, rng, level=rng.randint(2, 14))
        while rnd.phase == Phase.PLAY:
            assert rnd.ctx is not None and rnd.turn is not None
            eff = rnd.ctx.eff
            roll = rng.random()
            if roll < 0.1:
                rnd = rnd.copy()
            elif roll < 0.2:  # two seats swap hands of the same length: new lists
                a, b = rng.sample(range(rules.players), 2)
                if len(rnd.hands[a]) == len(rnd.hands[b]):
                    rnd.hands[a], rnd.hands[b] = list(rnd.hands[b]), list(rnd.hands[a])
            for s in range(rules.players):
                for e in range(5):
                    assert rnd.suit_cards(s, e) == [c for c in rnd.hands[s] if eff[c] == e]
            rnd.apply(Play(rnd.turn, random_play(rnd, rnd.turn, rng)))


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_a_random_lead_is_the_choice_among_every_lead(decks: int) -> None:
    """The random player's lead, drawn without listing the leads, is the lead (and the random
    numbers) that ``rng.choice(lead_combos(hand))`` gives: the same random rounds as before."""
    from tuolaji.engine.legal import _random_lead, lead_combos

    rng = random.Random(decks)
    chained = 0
    for _ in range(400):
        ctx, hand = random_trump_and_hand(rng, decks)
        seed = rng.randrange(1 << 30)
        listed, drawn = random.Random(seed), random.Random(seed)
        want = listed.choice(lead_combos(hand, ctx))
        assert _random_lead(hand, ctx, drawn) == want
        assert drawn.random() == listed.random()
        chained += len(set(want)) > 1
    assert chained > 20  # tractors were drawn too


@pytest.mark.parametrize("decks", [2, 4])
def test_random_plays_draw_as_random_choice_draws(decks: int) -> None:
    """The random player writes ``random.Random``'s choice out for a plain ``Random`` (and its
    one-card sample, out of the suit led); a subclass, which it leaves to ``rng.choice`` and
    ``rng.sample``, draws the same plays and leaves the same random state."""
    from tuolaji.engine.legal import random_play

    class Subclass(random.Random):
        pass

    rules = RuleSet(decks=decks)
    singles = out_of_suit = 0
    for seed in range(8):
        rnd = _shuffled_in_play(rules, random.Random(seed), level=2 + seed)
        twin = rnd.copy()
        plain, sub = random.Random(seed), Subclass(seed)
        while rnd.phase == Phase.PLAY:
            assert rnd.turn is not None and twin.turn == rnd.turn and rnd.trick is not None and rnd.ctx is not None
            play = random_play(rnd, rnd.turn, plain)
            assert random_play(twin, twin.turn, sub) == play
            singles += len(play) == 1
            led = rnd.trick.plays[0] if rnd.trick.plays else None
            out_of_suit += led is not None and len(led) == 1 and not rnd.suit_cards(rnd.turn, rnd.ctx.eff[led[0]])
            rnd.apply(Play(rnd.turn, play))
            twin.apply(Play(twin.turn, play))
        assert plain.random() == sub.random()
    assert singles > 100 and out_of_suit > 20


def test_the_single_combination_leads_are_those_decompose_reads_as_one_combination() -> None:
    """``lead_combos`` (and so the random lead's tractor walk) against an independent oracle:
    every sub-multiset of each suit of the hand that decomposes into one combination, once."""
    from itertools import product

    from tuolaji.combos import decompose
    from tuolaji.engine.legal import lead_combos
    from tuolaji.trump import TrumpContext

    rng = random.Random(7)
    chained = 0
    for _ in range(300):
        decks = rng.choice((2, 3, 4))
        ctx = TrumpContext(rng.randint(2, 14), rng.choice([None, 0, 1, 2, 3]), decks)
        deck = new_deck(decks)
        rng.shuffle(deck)
        e = ctx.eff[deck[0]]
        hand = [c for c in deck if ctx.eff[c] == e][: rng.randint(1, 12)] + [c for c in deck if ctx.eff[c] != e][:5]
        listed = [tuple(sorted(lead)) for lead in lead_combos(hand, ctx)]
        assert len(listed) == len(set(listed))
        want = set()
        for suit in {ctx.eff[c] for c in hand}:
            items = sorted(Counter(c for c in hand if ctx.eff[c] == suit).items())
            for copies in product(*[range(n + 1) for _, n in items]):
                sub = tuple(sorted(c for (c, _), k in zip(items, copies, strict=True) for _ in range(k)))
                if sub and len(decompose(sub, ctx)) == 1:
                    want.add(sub)
        assert set(listed) == want
        chained += any(len(set(lead)) > 1 for lead in listed)
    assert chained > 20  # tractors were among them


def test_submultisets_built_at_once_come_in_the_lazy_order() -> None:
    from tuolaji.engine.legal import _all_submultisets, _lazy_submultisets, count_submultisets

    rng = random.Random(3)
    for _ in range(500):
        items = sorted({rng.randrange(54): rng.randint(1, 4) for _ in range(rng.randint(0, 8))}.items())
        r = rng.randint(0, sum(n for _, n in items) + 1)
        eager = _all_submultisets(items, r)
        assert eager == list(_lazy_submultisets(items, r))
        assert len(eager) == len(set(eager)) == count_submultisets(items, r)


@pytest.mark.parametrize("preset", ["classic", "competition", "kq-competition", "bianfeng-friend", "three-deck"])
def test_declaration_options_kept_during_the_deal_equal_options_worked_out_afresh(preset: str) -> None:
    """The options kept per seat while dealing (updated only for level cards, jokers and new bids)
    equal the options counted from the whole hand, after every card and every declaration."""
    from tuolaji.declaring import options
    from tuolaji.engine.simulate import random_action
    from tuolaji.ruleset import load_rules

    rules = load_rules(preset)
    rng = random.Random(preset)
    for level in (2, 9, 14, 15) if rules.joker_level else (2, 9, 14):
        deck = new_deck(rules.decks)
        rng.shuffle(deck)
        rnd = Round(rules=rules, deck=deck, level=level, dealer=None if level == 2 else 1)
        while rnd.phase in (Phase.DEAL, Phase.DECLARE):
            for s in range(rules.players):
                fresh = [] if rnd.declare_refusal(s) else options(s, rnd.declaring_hand(s), rnd.level, rnd.bid, rules)
                assert rnd.declaration_options(s) == fresh
            if rnd.phase == Phase.DEAL:  # kept by the deal, as worked out from the cards dealt
                assert rnd.next_deal_seat == (rnd.start_seat + rnd.dealt) % rnd.players
            rnd.apply(random_action(rnd, rng))
        if rnd.phase != Phase.DONE:
            assert rnd.declaration_options(0) == []
    rnd = Round(rules=rules, deck=deck, level=5, dealer=0)  # a hand put in from outside is counted afresh
    for _ in range(40):
        rnd.apply(Deal())
    assert rnd.declaration_options(0) == options(0, rnd.hands[0], 5, rnd.bid, rules)
    rnd.hands[0] = parse_cards("S5 S5 H3 BJ LJ")
    assert rnd.declaration_options(0) == options(0, rnd.hands[0], 5, rnd.bid, rules) != []


@pytest.mark.parametrize("preset", ["classic", "bianfeng-friend", "super-four-deck"])
def test_the_events_a_round_shares_are_those_it_would_make(preset: str) -> None:
    """Dealt, single Played, Passed and TrickEnded events are made once and shared by every round:
    each equals the event made afresh from its fields (same class, hash, record form), whoever appended it."""
    from tuolaji.engine.events import Dealt, Passed, Played, TrickEnded
    from tuolaji.engine.simulate import random_action

    rng = random.Random(preset)
    match = Match(rules=preset, seed=5)
    while not match.over and len(match.rounds) < 2:
        match.apply(random_action(match.round, rng))
    events = [ev for rnd in match.rounds for ev in rnd.events]
    assert sum(type(ev) is Dealt for ev in events) >= 2 * len(match.rounds[0].deck) - 16
    for ev in events:
        if type(ev) in (Dealt, Played, Passed, TrickEnded):
            fresh = type(ev)(*ev)
            assert type(fresh) is type(ev) and fresh == ev and hash(fresh) == hash(ev)
            assert fresh.to_dict() == ev.to_dict() and repr(fresh) == repr(ev)
    dealt = [ev for ev in match.rounds[0].events if type(ev) is Dealt]
    assert [(ev.seat, ev.card) for ev in dealt] == [
        ((match.rounds[0].start_seat + i) % match.rounds[0].players, c) for i, c in enumerate(match.rounds[0].deck[: len(dealt)])
    ]


@pytest.mark.parametrize("preset", ["classic", "bianfeng-friend"])
def test_observations_hold_every_field_as_the_round_defines_it(preset: str) -> None:
    """observe() puts an observation together through its slots, not the constructor: every
    field is set, the same as the constructor would make it, and read from the round."""
    import dataclasses

    from tuolaji.engine.observation import Observation, PublicTrick, observe
    from tuolaji.engine.simulate import random_action

    rng = random.Random(preset)
    match = Match(rules=preset, seed=11)
    while not match.over and len(match.rounds) < 2:
        rnd = match.round
        for seat in range(rnd.players):
            obs = observe(rnd, seat, with_events=False)
            assert dataclasses.replace(obs) == obs  # every field set (an unset slot raises here)
            assert type(obs) is Observation  # put together as a draft of the same slots, then frozen
            with pytest.raises(dataclasses.FrozenInstanceError):
                obs.hand = ()  # type: ignore[misc]
            assert (obs.seat, obs.players, obs.phase, obs.turn, obs.level, obs.dealer, obs.hand) == (
                seat, rnd.players, rnd.phase, rnd.turn, rnd.level, rnd.dealer, tuple(rnd.hands[seat])
            )  # fmt: skip
            assert obs.ctx is rnd.level_ctx and obs.bid_cards == (rnd.bid.cards if rnd.bid else ())
            assert (obs.kitty_size, obs.attacker_points, obs.bid, obs.surrender_by) == (
                rnd.kitty_size, rnd.attacker_points, rnd.bid, rnd.surrender_by
            )  # fmt: skip
            both = [*rnd.tricks, *([rnd.trick] if rnd.trick is not None else [])]
            public = [*obs.tricks, *([obs.trick] if obs.trick is not None else [])]
            assert [type(p) for p in public] == [PublicTrick] * len(both)
            assert [(p.leader, p.seats, p.plays, p.winner, p.points, p.attempted) for p in public] == [
                (t.leader, tuple(t.seats), tuple(t.plays), t.winner, t.points, t.attempted) for t in both
            ]
            assert obs.hand_sizes == tuple(len(h) for h in rnd.hands)
            assert obs.from_kitty == tuple(rnd.from_kitty[seat])
            assert (obs.friend_card, obs.friend_known) == (rnd.friend_card, rnd.friend_revealed)
            assert obs.friend_calls == tuple(rnd.friend_calls) and obs.calls_shown == tuple(rnd.call_shown)
            assert obs.friend_seats == tuple(
                s if shown else None for s, shown in zip(rnd.call_seats, rnd.call_shown, strict=True)
            )
            assert obs.may_declare == (rnd.declare_refusal(seat) is None)
            assert (obs.kept_options is not None) == (rnd.phase == Phase.DEAL)
        match.apply(random_action(rnd, rng))
    assert match.rounds


def test_observations_of_rounds_taken_in_turn_hold_each_rounds_trump_context() -> None:
    """observe() keeps the last bid's context and cards: rounds at other levels (no bid yet, the
    same rules) or with other bids, observed in turn, each get their own."""
    from tuolaji.engine.observation import observe

    rules = RuleSet()
    rounds = [Round(rules=rules, deck=new_deck(2), level=level, dealer=0) for level in (2, 5, 2, 9)]
    for _ in range(3):
        for rnd in rounds:
            rnd.apply(Deal())
            assert rnd.bid is None
            obs = observe(rnd, 0, with_events=False)
            assert obs.ctx is rnd.level_ctx and obs.ctx.level == rnd.level and obs.ctx.trump is None
    deck = new_deck(2)
    random.Random(1).shuffle(deck)
    bid_round = Round(rules=rules, deck=deck, level=3, dealer=0)
    while not any(bid_round.declaration_options(s) for s in range(4)):
        bid_round.apply(Deal())
    seat = next(s for s in range(4) if bid_round.declaration_options(s))
    bid_round.apply(Declare(seat, tuple(bid_round.declaration_options(seat)[0])))
    for rnd in (bid_round, rounds[0], bid_round):
        obs = observe(rnd, 0, with_events=False)
        assert obs.ctx is rnd.level_ctx and obs.bid == rnd.bid
        assert obs.bid_cards == (rnd.bid.cards if rnd.bid else ())
    assert bid_round.bid is not None and observe(bid_round, 0).ctx.trump == bid_round.bid.trump


@pytest.mark.parametrize("preset", ["classic", "bianfeng-friend", "six-two-friends"])
def test_observations_name_the_seats_known_to_be_on_the_dealers_side(preset: str) -> None:
    """known_dealer_side: exactly the seats that are not publicly attackers, in seat order; the
    attackers: exactly the seats not on the dealer's side."""
    from tuolaji.engine.observation import observe
    from tuolaji.engine.simulate import random_action
    from tuolaji.ruleset import load_rules

    rng = random.Random(preset)
    rules = load_rules("bianfeng-friend").replace(players=6, decks=3) if preset == "six-two-friends" else load_rules(preset)
    match = Match(rules=rules, seed=7)
    seen = set()
    while not match.over and len(match.rounds) < 3:
        rnd = match.round
        known = tuple(s for s in range(rnd.players) if rnd.dealer is not None and not rnd.publicly_attacker(s))
        assert observe(rnd, rnd.turn or 0, with_events=False).known_dealer_side == known
        side = rnd.dealer_side()
        assert [rnd.is_attacker(s) for s in range(rnd.players)] == [
            rnd.dealer is not None and s not in side for s in range(rnd.players)
        ]
        seen.add(known)
        match.apply(random_action(rnd, rng))
    assert len(seen) >= 3


def test_declaration_options_are_every_candidate_that_reads_and_stands() -> None:
    """declaring.options lists exactly the shown cards that read_bid reads and bid_reason lets
    stand, in the order shown (fewest copies first), under every declaring rule and standing bid."""
    from tuolaji.declaring import bid_reason, declaring_kinds, options, read_bid
    from tuolaji.errors import IllegalAction
    from tuolaji.ruleset import DeclareStyle, RuleSet

    rng = random.Random(2026)
    for _ in range(3000):
        decks = rng.randint(1, 4)
        rules = RuleSet(
            decks=decks,
            declare_style=rng.choice(list(DeclareStyle)),
            jokers_declare_first=rng.random() < 0.5,
            suit_order_overrides=rng.random() < 0.5,
            self_override=rng.random() < 0.5,
            pair_locks=rng.random() < 0.5,
        )
        level = rng.randint(2, 14)
        kinds = declaring_kinds(level)
        hand = [rng.choice(kinds) for _ in range(rng.randint(0, 14))] + [rng.randrange(52) for _ in range(5)]
        rng.shuffle(hand)
        seat, pairs_only = rng.randrange(4), rng.random() < 0.3
        current = None
        if rng.random() < 0.7:
            shown = [rng.choice(kinds)] * rng.randint(1, decks)
            if rules.declare_style == DeclareStyle.JOKER_BACKED and shown[0] < 52:
                shown.append(53 if shown[0] // 13 in (1, 3) else 52)
            try:
                current = read_bid(rng.randrange(4), shown, level, rules)
            except IllegalAction:
                current = None
        expected = []
        for card in dict.fromkeys(c for c in hand if c in kinds):
            for k in range(2 if pairs_only or card >= 52 else 1, hand.count(card) + 1):
                shown = [card] * k
                if card < 52 and rules.declare_style == DeclareStyle.JOKER_BACKED:
                    joker = 53 if card // 13 in (1, 3) else 52
                    if joker not in hand:
                        break
                    shown.append(joker)
                try:
                    bid = read_bid(seat, shown, level, rules)
                except IllegalAction:
                    continue
                if bid_reason(bid, current, rules, after_bury=pairs_only) is None:
                    expected.append(tuple(shown))
        assert options(seat, hand, level, current, rules, pairs_only=pairs_only) == expected
        assert options(seat, hand, level, current, rules, pairs_only=pairs_only) == expected  # remembered
