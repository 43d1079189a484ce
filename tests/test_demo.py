"""``tuolaji demo`` ends: a match that has an end plays to it; one that wraps past A stops cleanly."""

from __future__ import annotations

import pytest

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.demo import main
from tuolaji.engine.match import Match
from tuolaji.ruleset import PRESETS


def test_super_four_deck_demo_stops_after_the_round_cap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", "super-four-deck", "--seed", "1", "--rounds", "3", "--quiet-tricks"]) == 0
    out = capsys.readouterr().out
    assert "Round 3" in out and "Round 4" not in out
    assert "Stopped after 3 rounds" in out and "no end of its own" in out


def test_super_four_deck_match_with_a_target_level_ends() -> None:
    """Scaled thresholds keep four-deck rounds close, and a target level (seed 004 appendix) ends it."""
    rules = PRESETS["super-four-deck"].replace(match_target_level="4")
    match = Match(rules=rules, seed=2)
    Table(match, [make_bot("heuristic", seed=s) for s in range(4)]).play_match(max_rounds=80)
    assert match.over and match.levels[match.winner] >= 2


def test_the_demo_says_a_redeal_was_granted_not_that_nobody_declared() -> None:
    """Seed 000 C: 當對家玩家中有人手裡的牌少於15分，則可「暴動」，即重新洗牌摸牌 — the demo printed the
    request and then "Nobody declared: the cards are dealt again", as if nobody had declared."""
    from io import StringIO

    from rich.console import Console

    from test_variants import make_hands
    from tuolaji.demo import Printer
    from tuolaji.engine.actions import Deal, Pass, Redeal
    from tuolaji.engine.events import Redealt
    from tuolaji.engine.round import Phase, Round
    from tuolaji.engine.simulate import deck_from_hands
    from tuolaji.ruleset import RuleSet

    rules = RuleSet(redeal_request=True)
    hands, kitty = make_hands(["", "", "", ""], rules=rules)
    pool = [c for h in hands for c in h] + kitty
    zero = [c for c in pool if c < 52 and (c % 13 + 2) not in (5, 10, 13)][:25]  # seat 1: no points at all
    for c in zero:
        pool.remove(c)
    deck = deck_from_hands([pool[:25], zero, pool[25:50], pool[50:75]], pool[75:])
    match = Match(rules=rules, deals=[deck])
    match.dealer = 0
    match.round = Round(rules=rules, deck=deck, level=2, dealer=0)
    text = StringIO()
    printer = Printer(Console(file=text, width=200, highlight=False))
    printer.seen = len(match.events)
    while match.round.phase == Phase.DEAL:
        match.apply(Deal())
    for action in (Pass(0), Redeal(1)):
        match.apply(action)
        printer(match, action)
    out = text.getvalue()
    assert any(isinstance(e, Redealt) for e in match.events[printer.seen - 2 :]), "the round was dealt again"
    assert "asks for a redeal (暴动): granted, the cards are dealt again" in out, out
    assert "Nobody declared" not in out, out
