"""A match: rounds chained from the start level until the match-end rule says it is over."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import LevelIndex, LevelRank, level_rank, new_deck
from ..errors import IllegalAction, Reason
from ..ruleset import MatchEnd, Partnership, RuleSet, load_rules
from ..scoring import match_leader, parse_level
from .actions import Action
from .events import Event, TimeIsUp, event_class
from .round import Phase, Round, copy_fields

ACE = LevelIndex(12)  # the ladder place of A
J_LEVEL = LevelIndex(9)  # the ladder place of J (勾J, table rule j_rule)


@event_class
class RoundStarted(Event):
    number: int
    level: LevelRank  # the rank played this round
    dealer: int | None  # None in the first round until someone declares
    levels: tuple[LevelIndex, ...]  # ladder places 0 (2) .. 12 (A): per team, or per seat with find-a-friend


@event_class
class MatchEnded(Event):
    winner: int | None  # the winning team (fixed partners: 0 = seats 0, 2, …) or seat (find-a-friend); None: a draw
    levels: tuple[LevelIndex, ...]


@event_class
class Released(Event):
    """Stands in ``Match.events`` for an event let go by :meth:`Match.release` (a server that
    saved it reads it back from its store). Never in a record: it has no parser."""


RELEASED = Released()


def _register() -> None:
    from . import events

    events.EVENT_NAMES[RoundStarted] = "round_started"
    events.EVENT_NAMES[MatchEnded] = "match_ended"
    events.EVENT_NAMES[Released] = "released"  # (not in EVENT_TYPES: a record cannot hold one)
    events.EVENT_TYPES.update({"round_started": RoundStarted, "match_ended": MatchEnded})


_register()


@dataclass(slots=True)
class _Saved:
    """What :meth:`Match.apply` needs to undo an action that raised (no copy of the round: an
    action that raised is rare, and the round is rebuilt from its events then)."""

    round: Round
    round_events: int
    events: int
    rounds: int
    deals: int
    levels: list[LevelIndex]
    reached: list[int]
    purses: list[int]
    dealer: int | None
    finished: bool
    winner: int | None
    time_up: bool
    actions: int


class Match:
    """Rounds from the start level to the end of the match.

    The deal of each round comes from ``deals`` when given, otherwise from ``seed``; a match is a
    function of (rules, deals or seed, actions). ``levels`` holds each team's level index (each
    seat's with find-a-friend, where levels are kept per player).
    """

    def __init__(
        self, *, rules: RuleSet | str | None = None, seed: int | None = None, deals: Sequence[Sequence[int]] | None = None
    ) -> None:
        self.rules = load_rules(rules)
        # a fresh seed comes from the operating system, never from the process-wide Mersenne
        # Twister, whose outputs (seeds of finished games) would predict the games after them
        self.seed = seed if seed is not None or deals is not None else secrets.randbits(63)
        self._rng = random.Random(self.seed)
        self._given_deals = [tuple(d) for d in deals] if deals is not None else None
        self.deals: list[tuple[int, ...]] = []
        start = parse_level(self.rules.start_level)
        self.per_seat = self.rules.partnership == Partnership.FIND_FRIEND
        self.top = LevelIndex(ACE + 1) if self.rules.joker_level else ACE  # the last level: A, or 王 after it
        self.levels: list[LevelIndex] = [start] * (self.rules.players if self.per_seat else 2)
        self.reached = [0] * len(self.levels)  # round number when each level was reached (ties)
        self.purses = [0] * self.rules.players  # coins won (+) or lost (-) per seat so far (rules.stake)
        self.must_defend = {parse_level(x) for x in self.rules.must_defend}
        target = self.rules.match_target_level
        self.target = parse_level(target) if target is not None else None
        self.dealer: int | None = None
        self.rounds: list[Round] = []
        self.events: list[Event] = []
        self.finished = False  # the match is over (``winner`` None then: a draw)
        self.winner: int | None = None
        self.time_up = False
        self.actions = 0
        self.released = 0  # events before this index are RELEASED (Match.release)
        self.released_rounds = 0  # finished rounds let go of: their events and tricks
        self._rng_before: tuple[Any, ...] | None = None  # the deal rng before this action's first new deal
        self.round = self._new_round()

    @property
    def over(self) -> bool:
        return self.finished

    @property
    def drawn(self) -> bool:
        """The match ended with no single side ahead (levels and the round reached alike)."""
        return self.finished and self.winner is None

    @property
    def round_number(self) -> int:
        """The round in play, or the last one once the match is over; at a deadline the round
        in play (left unscored) still counts, so a match whose clock ran out in its first round
        shows round 1."""
        return len(self.rounds) + (0 if self.finished and not self.time_up else 1)

    def holder(self, seat: int) -> int:
        """Index into ``levels`` for a seat: its team, or itself with find-a-friend."""
        return seat if self.per_seat else seat % 2

    def _next_deck(self) -> tuple[int, ...]:
        i = len(self.deals)
        if self._rng_before is None:
            self._rng_before = self._rng.getstate()
        cards = new_deck(self.rules.decks)
        self._rng.shuffle(cards)  # always, so a loaded game's seed stays in step with its deals
        deck = tuple(cards)
        if self._given_deals is not None and i < len(self._given_deals):
            deck = self._given_deals[i]
        self.deals.append(deck)
        return deck

    def _new_round(self) -> Round:
        place = self.levels[self.holder(self.dealer)] if self.dealer is not None else self.levels[0]
        rnd = Round(**self._round_args(self._next_deck(), level_rank(min(place, self.top)), self.dealer))
        self.events.append(RoundStarted(len(self.rounds) + 1, rnd.level, self.dealer, tuple(self.levels)))
        return rnd

    def check(self, action: Action) -> None:
        if self.over:
            raise IllegalAction(Reason.MATCH_OVER)
        if action.type == "time_up":
            if self.rules.match_end != MatchEnd.TIMED:
                raise IllegalAction(Reason.NOT_TIME_UP)
            return
        self.round.check(action)

    def apply(self, action: Action) -> None:
        """Check and apply ``action``; whatever raises leaves the match exactly as it was.

        The round checks the action once and acts on it (:meth:`Round.apply`), and a refusal
        there changes nothing. The rest cannot fail on a legal action short of a defect, so
        instead of copying the round before every action, a failure rebuilds it from its own
        events (a round is a function of its deal and its actions, as records show) and the
        match's own fields are put back.
        """
        if self.finished:
            raise IllegalAction(Reason.MATCH_OVER)
        if action.type == "time_up":
            self.check(action)
            at_deadline = self._save()
            try:
                self.apply_unchecked(action)
            except BaseException:
                self._restore(at_deadline)
                raise
            return
        rnd = self.round
        before, events, actions = len(rnd.events), len(self.events), self.actions
        try:
            rnd.apply(action)  # checked once and acted on (a Declare's bid read once)
        except IllegalAction:
            raise  # refused: the round changed nothing, and the match nothing yet
        except BaseException:
            self._restore(self._save(before, events, actions))
            raise
        saved: _Saved | None = None
        try:
            self.actions += 1
            self.events.extend(rnd.events[before:])
            if rnd.phase == Phase.DONE:
                saved = self._save(before, events, actions)  # the end of a round changes the match's own fields
                self._end_round(rnd)
        except BaseException:
            self._restore(saved or self._save(before, events, actions))
            raise

    def _save(self, round_events: int | None = None, events: int | None = None, actions: int | None = None) -> _Saved:
        """The match as it is now, or as it was before an action that has changed only the round,
        ``events`` and ``actions`` (given: their values before that action)."""
        # Lists only grow during an action, so their lengths restore them.
        self._rng_before = None
        return _Saved(
            self.round,
            len(self.round.events) if round_events is None else round_events,
            len(self.events) if events is None else events,
            len(self.rounds),
            len(self.deals),
            list(self.levels),
            list(self.reached),
            list(self.purses),
            self.dealer,
            self.finished,
            self.winner,
            self.time_up,
            self.actions if actions is None else actions,
        )

    def _restore(self, saved: _Saved) -> None:
        rnd = saved.round
        copy_fields(self._rebuilt(rnd, saved.round_events), rnd)  # holders of the round see it restored
        self.round = rnd
        del self.events[saved.events :]
        del self.rounds[saved.rounds :]
        del self.deals[saved.deals :]
        self.levels, self.reached, self.purses = saved.levels, saved.reached, saved.purses
        self.dealer, self.finished, self.winner = saved.dealer, saved.finished, saved.winner
        self.time_up, self.actions = saved.time_up, saved.actions
        if self._rng_before is not None:
            self._rng.setstate(self._rng_before)
        self._rng_before = None

    def _round_args(self, deck: Sequence[int], level: LevelRank, dealer: int | None) -> dict[str, Any]:
        return {"rules": self.rules, "deck": deck, "level": level, "dealer": dealer}

    def _rebuilt(self, rnd: Round, events: int) -> Round:
        """``rnd`` as it was after its first ``events`` events: its deal replayed with the actions
        those events record."""
        from ..record import action_of_event

        fresh = Round(**self._round_args(rnd.deck, rnd.level, None if rnd.first_round else rnd.start_seat))
        for event in rnd.events[:events]:
            action = action_of_event(event)
            if action is not None:
                fresh.apply_unchecked(action)
        if len(fresh.events) != events:
            raise AssertionError("a round could not be rebuilt from its events")
        return fresh

    def apply_unchecked(self, action: Action) -> None:
        self.actions += 1
        if action.type == "time_up":
            # seed 003: "如到了規定時間，雙方級數相同，則先到該級的一方勝出" — the levels at the deadline
            # decide, so the round in play is left unscored and the match ends now
            self.time_up = True
            self.events.append(TimeIsUp())
            self._end_match(self._leader())
            return
        rnd = self.round
        before = len(rnd.events)
        rnd.apply_unchecked(action)
        self.events.extend(rnd.events[before:])
        if rnd.phase == Phase.DONE:
            self._end_round(rnd)

    def _end_round(self, rnd: Round) -> None:
        self.rounds.append(rnd)
        result = rnd.result
        if result is not None:
            for s, c in enumerate(result.coins):
                self.purses[s] += c
            side = set(result.dealer_side)
            winners = side if result.team == "dealer" else set(range(rnd.players)) - side
            holders = sorted({self.holder(s) for s in winners})
            as_dealer = result.team == "dealer"
            hooked = {self.holder(s) for s in side if self.levels[self.holder(s)] == J_LEVEL} if result.j_hook else set()
            for h in holders:
                if h not in hooked:
                    self._climb(h, result.levels, as_dealer)
            for h in hooked:  # 勾J: back to 2 instead of any climb
                self.levels[h] = LevelIndex(0)
                self.reached[h] = len(self.rounds)
            self.dealer = result.next_dealer
            past = [h for h in holders if self.levels[h] > self.top]
            if past:
                if self.rules.match_end == MatchEnd.WRAP:
                    for h in past:
                        self.levels[h] = LevelIndex(self.levels[h] - self.top - 1)
                else:
                    return self._end_match(past[0])
            if self.target is not None:
                arrived = [h for h in holders if self.levels[h] >= self.target]
                if arrived:  # 打到6结束 (seed 004 appendix): first to the target level wins
                    return self._end_match(arrived[0])
            played = sum(1 for r in self.rounds if r.result is not None)
            if self.rules.match_end == MatchEnd.FIXED_ROUNDS and played >= (self.rules.match_rounds or 0):
                return self._end_match(self._leader())
        self.round = self._new_round()

    def _climb(self, holder: int, levels: int, as_dealer: bool) -> None:
        """Go up ``levels``, stopping at a must-defend level, which only a win as dealer passes."""
        if levels <= 0:
            return
        level = self.levels[holder]
        for _ in range(levels):
            if level in self.must_defend and not (as_dealer and level == self.levels[holder]):
                break
            level = LevelIndex(level + 1)
            if level in self.must_defend:
                break
        if level != self.levels[holder]:
            self.levels[holder] = level
            self.reached[holder] = len(self.rounds)

    def _leader(self) -> int | None:
        """Highest level wins, a tie to whoever reached it first (seed 003); None: a draw."""
        return match_leader(self.levels, self.reached)

    def _end_match(self, winner: int | None) -> None:
        self.finished = True
        self.winner = winner
        self.events.append(MatchEnded(winner, tuple(self.levels)))

    def release(self, before: int) -> None:
        """Let go of every event before index ``before`` (the start of a round) and of the play of
        the rounds they belong to, keeping each round's result: a long match then holds only what
        it still plays with. For a server whose store keeps the whole record (issue 15: memory
        flat in the number of actions); indices into ``events`` and ``rounds`` do not change.
        A released round cannot be replayed or exported from this object any more.
        """
        events = self.events
        if before <= self.released:
            return
        start = events[before] if before < len(events) else None
        if not isinstance(start, RoundStarted):
            raise ValueError(f"event {before} does not start a round")
        upto = start.number - 1  # the rounds finished before it
        if upto > len(self.rounds):  # pragma: no cover - a round starts after the one before ends
            raise AssertionError("a round starts before the one before it ended")
        events[self.released : before] = [RELEASED] * (before - self.released)
        for rnd in self.rounds[self.released_rounds : upto]:
            rnd.events = []
            rnd.tricks = []
            rnd.public_tricks = ()
        self.released, self.released_rounds = before, upto

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
        m.reached = list(self.reached)
        m.purses = list(self.purses)
        m.rounds = list(self.rounds)
        m.events = list(self.events)
        m.round = self.round.copy()
        return m
