"""A match: rounds chained from the start level until a team goes past A."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import new_deck
from ..errors import IllegalAction
from ..ruleset import RuleSet, load_rules
from ..scoring import parse_level
from .actions import Action
from .events import Event
from .round import Phase, Round


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    number: int
    level: int  # rank 2..14 of this round
    dealer: int | None  # None in the first round until someone declares
    levels: tuple[int, ...]  # each team's level index 0 (2) .. 12 (A)


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: int  # the winning team (0: seats 0 and 2, 1: seats 1 and 3)
    levels: tuple[int, ...]


def _register() -> None:
    from . import events

    events.EVENT_NAMES[RoundStarted] = "round_started"
    events.EVENT_NAMES[MatchEnded] = "match_ended"
    events.EVENT_TYPES.update({"round_started": RoundStarted, "match_ended": MatchEnded})


_register()


class Match:
    """Rounds from the start level to the end of the match.

    The deal of each round comes from ``deals`` when given, otherwise from ``seed``; a match is a
    function of (rules, deals or seed, actions).
    """

    def __init__(self, *, rules: RuleSet | str | None = None, seed: int | None = None,
                 deals: Sequence[Sequence[int]] | None = None) -> None:
        self.rules = load_rules(rules)
        self.rules.check_supported()
        self.seed = seed if seed is not None or deals is not None else random.randrange(2**63)
        self._rng = random.Random(self.seed)
        self._given_deals = [tuple(d) for d in deals] if deals is not None else None
        self.deals: list[tuple[int, ...]] = []
        start = parse_level(self.rules.start_level)
        self.levels = [start, start]
        self.dealer: int | None = None
        self.rounds: list[Round] = []
        self.events: list[Event] = []
        self.winner: int | None = None
        self.actions = 0
        self.round = self._new_round()

    @property
    def over(self) -> bool:
        return self.winner is not None

    def _next_deck(self) -> tuple[int, ...]:
        i = len(self.deals)
        if self._given_deals is not None and i < len(self._given_deals):
            deck = self._given_deals[i]
        else:
            cards = new_deck(self.rules.decks)
            self._rng.shuffle(cards)
            deck = tuple(cards)
        self.deals.append(deck)
        return deck

    def _new_round(self) -> Round:
        level_index = self.levels[self.dealer % 2] if self.dealer is not None else self.levels[0]
        rnd = Round(rules=self.rules, deck=self._next_deck(), level=min(level_index, 12) + 2,
                    dealer=self.dealer)
        self.events.append(RoundStarted(len(self.rounds) + 1, rnd.level, self.dealer, tuple(self.levels)))
        return rnd

    def check(self, action: Action) -> None:
        if self.over:
            raise IllegalAction("match_over")
        self.round.check(action)

    def apply(self, action: Action) -> None:
        self.check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        rnd = self.round
        before = len(rnd.events)
        rnd.apply_unchecked(action)
        self.actions += 1
        self.events.extend(rnd.events[before:])
        if rnd.phase == Phase.DONE:
            self._end_round(rnd)

    def _end_round(self, rnd: Round) -> None:
        self.rounds.append(rnd)
        result = rnd.result
        if result is not None:
            assert rnd.dealer is not None
            dealer_team = rnd.dealer % 2
            team = dealer_team if result.team == "dealer" else 1 - dealer_team
            self.levels[team] += result.levels
            self.dealer = result.next_dealer
            if self.levels[team] > 12:  # past A
                self.winner = team
                self.events.append(MatchEnded(team, tuple(self.levels)))
                return
        self.round = self._new_round()

    def view(self, seat: int | None) -> dict[str, object]:
        from .view import match_view

        return match_view(self, seat)

    def copy(self) -> Match:
        m = object.__new__(Match)
        m.__dict__.update(self.__dict__)
        m._rng = random.Random()
        m._rng.setstate(self._rng.getstate())
        m.deals = list(self.deals)
        m.levels = list(self.levels)
        m.rounds = list(self.rounds)
        m.events = list(self.events)
        m.round = self.round.copy()
        return m
