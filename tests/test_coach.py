"""The coach's "why" for the follow obligations of pairs, triples and tractors: it names the lead
and the follower's own pairs, triples or tractor (cards the follower holds), in both languages."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tuolaji.cards import new_deck, parse_cards
from tuolaji.combos import decompose
from tuolaji.engine.actions import Bury, Deal, Pass, Play
from tuolaji.engine.legal import submultisets
from tuolaji.engine.round import Phase, Round
from tuolaji.errors import IllegalAction
from tuolaji.ruleset import PRESETS, RuleSet
from tuolaji.server.coach import explain, show


def trick_led(rules: RuleSet, hands: dict[int, str], lead: str, *, seed: int = 0) -> Round:
    """A round at level 7, seat 0 dealing, trump clubs (the kitty's first card), with the listed
    cards in the listed hands (the rest shuffled), where seat 0 has just led ``lead``."""
    rest = Counter(new_deck(rules.decks))
    fixed = {s: parse_cards(h) for s, h in hands.items()}
    kitty_head = parse_cards("C9")
    for cards in [*fixed.values(), kitty_head]:
        rest.subtract(cards)
    pool = list(rest.elements())
    random.Random(seed).shuffle(pool)
    n = rules.hand_size_value
    full = {s: fixed.get(s, []) + [pool.pop() for _ in range(n - len(fixed.get(s, [])))] for s in range(rules.players)}
    kitty = kitty_head + [pool.pop() for _ in range(rules.kitty_size_value - 1)]
    deck = [full[i % rules.players][i // rules.players] for i in range(n * rules.players)] + kitty
    rnd = Round(rules=rules, deck=deck, level=7, dealer=0)
    while rnd.phase == Phase.DEAL:
        rnd.apply(Deal())
    while rnd.phase == Phase.DECLARE:
        assert rnd.turn is not None
        rnd.apply(Pass(rnd.turn))
    keep = Counter(parse_cards(lead))
    bury = list((Counter(rnd.hands[0]) - keep).elements())[: rnd.kitty_size]
    rnd.apply(Bury(0, tuple(bury)))
    rnd.apply(Play(0, tuple(parse_cards(lead))))
    return rnd


def refused_follow(rnd: Round, code: str) -> tuple[int, ...]:
    """Cards of the led suit, as many as the lead, that the engine refuses with ``code``."""
    assert rnd.turn is not None and rnd.trick is not None and rnd.ctx is not None
    lead = rnd.trick.plays[0]
    own = [c for c in rnd.hands[rnd.turn] if rnd.ctx.eff[c] == rnd.ctx.eff[lead[0]]]
    for cards in itertools.islice(submultisets(sorted(Counter(own).items()), len(lead)), 2000):
        try:
            rnd.check(Play(rnd.turn, cards))
        except IllegalAction as exc:
            if exc.code == code:
                return cards
    raise AssertionError(f"no follow refused with {code}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_must_play_tractor_names_a_tractor_the_follower_holds(lang: str) -> None:
    rules = PRESETS["classic"]
    rnd = trick_led(rules, {0: "S3 S3 S4 S4", 1: "S9 S9 S10 S10 S5 S6"}, "S3 S3 S4 S4")
    assert rnd.turn == 1 and rnd.ctx is not None
    cards = refused_follow(rnd, "must_play_tractor")
    why = explain("must_play_tractor", rnd, 1, cards, lang)
    assert show(parse_cards("S3 S3 S4 S4"), lang) in why
    example = why.split("例如" if lang == "zh" else "e.g.")[1].split(";")[0].strip()
    held = parse_cards(example.translate(str.maketrans("♠♥♣♦", "SHCD")))
    assert not Counter(held) - Counter(rnd.hands[1]), f"{example} is not in the hand"
    comps = decompose(held, rnd.ctx)
    assert len(comps) == 1 and comps[0].k == 2 and comps[0].m == 2, f"{example} is not a tractor"


@pytest.mark.parametrize(
    "k,code,preset,lead,mine",
    [
        (2, "must_play_pair", "classic", "S3 S3", "S9 S9 SJ SJ S5 S8 SK"),
        (3, "must_play_triple", "three-deck", "S3 S3 S3", "S9 S9 S9 S5 S8"),
    ],
)
def test_must_play_tuples_lists_the_followers_own(k: int, code: str, preset: str, lead: str, mine: str) -> None:
    rnd = trick_led(PRESETS[preset], {0: lead, 1: mine}, lead)
    assert rnd.turn == 1 and rnd.ctx is not None
    cards = refused_follow(rnd, code)
    chosen = sum(v // k for v in Counter(cards).values())
    held = sorted(c for c, n in Counter(rnd.hands[1]).items() if n >= k and rnd.ctx.eff[c] == 0)
    assert held, "the follower holds spade tuples"
    for lang, chose in (("en", f"you chose {chosen}"), ("zh", f"你只出了 {chosen} 个")):
        why = explain(code, rnd, 1, cards, lang)
        assert show(parse_cards(lead), lang) in why and chose in why, why
        for c in held:  # every pair (triple) of the suit the follower holds, written out
            assert show((c,) * k, lang).replace(" ", "") in why, why
