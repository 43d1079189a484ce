"""One round (一局) as a phase machine: deal & declare → bury → 25 tricks → result.

Every action goes through :meth:`Round.apply`, which checks it completely before changing
anything, so a refused action (an :class:`~tuolaji.errors.IllegalAction`) leaves the round
exactly as it was. :meth:`Round.apply_unchecked` skips the checks for trusted callers
(simulations, rollouts); :meth:`Round.copy` is cheap enough for search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

from ..cards import POINTS
from ..combos import Combo, decompose
from ..declaring import Bid, bid_reason, read_bid
from ..errors import IllegalAction
from ..ruleset import FirstRoundDealer, NoDeclaration, RuleSet
from ..scoring import kitty_multiplier, level_change
from ..tricks import check_throw, follow_reason, is_sub_multiset, lead_reason
from ..trump import TrumpContext
from .actions import Action, Bury, Deal, Declare, Pass, Play
from .events import (
    Buried,
    Dealt,
    Declared,
    Event,
    KittyTaken,
    Passed,
    Played,
    Redealt,
    RoundEnded,
    TrickEnded,
    TrumpFixed,
)


class Phase(StrEnum):
    DEAL = "deal"  # cards dealt one at a time; anyone may declare between cards
    DECLARE = "declare"  # last call after the deal: each seat in turn declares or passes
    BURY = "bury"  # the dealer has the kitty and buries as many cards
    PLAY = "play"
    DONE = "done"


class Trick:
    """A trick in progress or finished: who led, the plays in order, and the winner."""

    __slots__ = ("leader", "plays", "seats", "winner", "points", "lead_comps", "attempted")

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.seats: list[int] = []
        self.plays: list[tuple[int, ...]] = []
        self.winner: int | None = None
        self.points = 0
        self.lead_comps: list[Combo] | None = None
        self.attempted: tuple[int, ...] | None = None

    def copy(self) -> Trick:
        t = Trick(self.leader)
        t.seats, t.plays = list(self.seats), list(self.plays)
        t.winner, t.points, t.lead_comps, t.attempted = self.winner, self.points, self.lead_comps, self.attempted
        return t


class Round:
    """A round for ``players`` seats; ``deck`` is the deal order (hands first, kitty last)."""

    def __init__(self, *, rules: RuleSet, deck: Sequence[int], level: int, dealer: int | None,
                 start_seat: int = 0) -> None:
        self.rules = rules
        self.players = rules.players
        self.hand_size = rules.hand_size_value
        self.kitty_size = rules.kitty_size_value
        if len(deck) != self.players * self.hand_size + self.kitty_size:
            raise ValueError(f"a deal needs {self.players * self.hand_size + self.kitty_size} cards, got {len(deck)}")
        self.deck: tuple[int, ...] = tuple(deck)
        self.level = level  # the level rank 2..14
        self.dealer: int | None = dealer
        self.first_round = dealer is None
        self.start_seat = dealer if dealer is not None else start_seat
        self.dealt = 0
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.bid: Bid | None = None
        self.first_bidder: int | None = None
        self.phase = Phase.DEAL
        self.turn: int | None = None
        self.passes = 0
        self.ctx: TrumpContext | None = None
        self.kitty: list[int] = list(self.deck[self.players * self.hand_size:])
        self.tricks: list[Trick] = []
        self.trick: Trick | None = None
        self.attacker_points = 0
        self.events: list[Event] = []
        self.result: RoundEnded | None = None
        self.redeal = False

    # ----------------------------------------------------------------- queries
    def team(self, seat: int) -> int:
        return seat % 2

    def is_attacker(self, seat: int) -> bool:
        return self.dealer is not None and seat % 2 != self.dealer % 2

    @property
    def trump(self) -> int | None:
        return self.ctx.trump if self.ctx else (self.bid.trump if self.bid else None)

    @property
    def level_ctx(self) -> TrumpContext:
        """The context for sorting and combos: the fixed one, or the current bid's during the deal."""
        if self.ctx is not None:
            return self.ctx
        return TrumpContext(self.level, self.bid.trump if self.bid else None, self.rules.decks,
                            self.rules.notrump_level_tractor)

    @property
    def deal_done(self) -> bool:
        return self.dealt >= self.players * self.hand_size

    @property
    def next_deal_seat(self) -> int:
        return (self.start_seat + self.dealt) % self.players

    # ----------------------------------------------------------------- checking
    def check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` is not allowed now; changes nothing."""
        phase = self.phase
        if phase == Phase.DONE:
            raise IllegalAction("round_over")
        if isinstance(action, Deal):
            if phase != Phase.DEAL:
                raise IllegalAction("wrong_phase", phase=phase.value)
            return
        seat = action.seat
        if not (type(seat) is int and 0 <= seat < self.players):
            raise IllegalAction("bad_seat", seat=seat)
        if isinstance(action, Declare):
            if phase not in (Phase.DEAL, Phase.DECLARE):
                raise IllegalAction("wrong_phase", phase=phase.value)
            if phase == Phase.DECLARE and seat != self.turn:
                raise IllegalAction("not_your_turn", turn=self.turn)
            self._read_bid(action)
            return
        if isinstance(action, Pass):
            if phase != Phase.DECLARE:
                raise IllegalAction("wrong_phase", phase=phase.value)
            if seat != self.turn:
                raise IllegalAction("not_your_turn", turn=self.turn)
            return
        if isinstance(action, Bury):
            if phase != Phase.BURY:
                raise IllegalAction("wrong_phase", phase=phase.value)
            if seat != self.dealer:
                raise IllegalAction("not_dealer")
            if len(action.cards) != self.kitty_size:
                raise IllegalAction("wrong_kitty_size", n=self.kitty_size)
            if not is_sub_multiset(action.cards, self.hands[seat]):
                raise IllegalAction("not_in_hand")
            return
        if isinstance(action, Play):
            if phase != Phase.PLAY:
                raise IllegalAction("wrong_phase", phase=phase.value)
            if seat != self.turn:
                raise IllegalAction("not_your_turn", turn=self.turn)
            reason = self.play_reason(seat, action.cards)
            if reason:
                lead = self.trick.plays[0] if self.trick and self.trick.plays else ()
                raise IllegalAction(reason, n=len(lead))
            return
        raise IllegalAction("bad_action", why=f"unknown action {action!r}")

    def play_reason(self, seat: int, cards: Sequence[int]) -> str | None:
        """Why ``seat`` may not play ``cards`` now (ignoring whose turn it is), or None."""
        hand = self.hands[seat]
        if not cards:
            return "empty_play"
        if not is_sub_multiset(cards, hand):
            return "not_in_hand"
        assert self.ctx is not None and self.trick is not None
        if not self.trick.plays:
            return lead_reason(cards, self.ctx)
        return follow_reason(self.trick.plays[0], hand, cards, self.ctx, self.trick.lead_comps)

    def _read_bid(self, action: Declare) -> Bid:
        hand = self.hands[action.seat]
        if not is_sub_multiset(action.cards, hand):
            raise IllegalAction("not_in_hand")
        try:
            bid = read_bid(action.seat, action.cards, self.level, self.rules)
        except ValueError as exc:
            raise IllegalAction("bad_declaration", why=str(exc)) from None
        reason = bid_reason(bid, self.bid, self.rules)
        if reason:
            raise IllegalAction(reason)
        return bid

    # ----------------------------------------------------------------- acting
    def apply(self, action: Action) -> None:
        self.check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        kind = action.type  # a string compare is much cheaper than isinstance on the hot path
        if kind == "play":
            self._play(action.seat, action.cards)  # type: ignore[union-attr]
        elif kind == "deal":
            self._deal()
        elif kind == "declare":
            self._declare(action)  # type: ignore[arg-type]
        elif kind == "pass":
            self._pass(action.seat)  # type: ignore[union-attr]
        elif kind == "bury":
            self._bury(action.seat, action.cards)  # type: ignore[union-attr]

    def _deal(self) -> None:
        seat = self.next_deal_seat
        card = self.deck[self.dealt]
        self.hands[seat].append(card)
        self.dealt += 1
        self.events.append(Dealt(seat, card))
        if self.deal_done:
            self.phase = Phase.DECLARE
            self.turn = self.start_seat
            self.passes = 0

    def _declare(self, action: Declare) -> None:
        bid = read_bid(action.seat, action.cards, self.level, self.rules)
        self.bid = bid
        if self.first_bidder is None:
            self.first_bidder = bid.seat
        self.events.append(Declared(bid.seat, tuple(action.cards), bid.trump))
        if self.phase == Phase.DECLARE:
            self.passes = 0
            self._advance_last_call()

    def _pass(self, seat: int) -> None:
        self.events.append(Passed(seat))
        self.passes += 1
        if self.passes >= self.players:
            self._close_declaring()
        else:
            self._advance_last_call()

    def _advance_last_call(self) -> None:
        assert self.turn is not None
        self.turn = (self.turn + 1) % self.players

    def _close_declaring(self) -> None:
        rules = self.rules
        bid = self.bid
        if bid is not None:
            trump: int | None = bid.trump
            source = "declared"
            if self.dealer is None:
                self.dealer = (bid.seat if rules.first_round_dealer == FirstRoundDealer.LAST_DECLARER
                               else self.first_bidder)
        else:
            fallback = rules.first_round_no_declaration if self.dealer is None else rules.no_declaration
            if fallback == NoDeclaration.REDEAL:
                self.redeal = True
                self.phase = Phase.DONE
                self.turn = None
                self.events.append(Redealt())
                return
            if self.dealer is None:
                self.dealer = self.start_seat
            trump = kitty_trump(self.kitty, fallback)
            source = fallback.value
        assert self.dealer is not None
        self.ctx = TrumpContext(self.level, trump, rules.decks, rules.notrump_level_tractor)
        self.events.append(TrumpFixed(trump, self.dealer, source))
        self.hands[self.dealer].extend(self.kitty)
        self.events.append(KittyTaken(self.dealer, tuple(self.kitty)))
        self.kitty = []
        self.phase = Phase.BURY
        self.turn = self.dealer

    def _bury(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.kitty = list(cards)
        self.events.append(Buried(seat, tuple(cards)))
        self.phase = Phase.PLAY
        self.turn = seat
        self.trick = Trick(seat)

    def _play(self, seat: int, cards: Sequence[int]) -> None:
        trick = self.trick
        ctx = self.ctx
        assert trick is not None and ctx is not None
        attempted: tuple[int, ...] | None = None
        if not trick.plays:
            comps = decompose(cards, ctx) if len(cards) > 1 else [Combo(1, 1, ctx.order[cards[0]], (cards[0],))]
            if len(comps) > 1:
                others = [self.hands[s] for s in range(self.players) if s != seat]
                ok, forced = check_throw(cards, others, ctx)
                if not ok:
                    assert forced is not None
                    attempted = tuple(cards)
                    cards = forced
                    comps = decompose(cards, ctx)
            trick.lead_comps = comps
            trick.attempted = attempted
        played = tuple(cards)
        hand = self.hands[seat]
        for c in played:
            hand.remove(c)
        trick.seats.append(seat)
        trick.plays.append(played)
        self.events.append(Played(seat, played, attempted))
        if len(trick.plays) < self.players:
            self.turn = (seat + 1) % self.players
            return
        self._end_trick(trick, ctx)

    def _end_trick(self, trick: Trick, ctx: TrumpContext) -> None:
        from ..tricks import trick_winner

        w = trick_winner(trick.plays, ctx, trick.lead_comps)
        winner = trick.seats[w]
        pts = 0
        for play in trick.plays:
            for c in play:
                pts += POINTS[c]
        trick.winner, trick.points = winner, pts
        if self.is_attacker(winner):
            self.attacker_points += pts
        self.tricks.append(trick)
        self.events.append(TrickEnded(winner, pts, self.attacker_points))
        if self.hands[winner]:
            self.trick = Trick(winner)
            self.turn = winner
        else:
            self._finish(trick)

    def _finish(self, last: Trick) -> None:
        assert self.dealer is not None and last.winner is not None and last.lead_comps is not None
        kitty_points = sum(POINTS[c] for c in self.kitty)
        captured = self.is_attacker(last.winner)
        mult = kitty_multiplier(last.lead_comps, self.rules.kitty_multiplier) if captured else 0
        trick_points = self.attacker_points
        total = trick_points + kitty_points * mult
        self.attacker_points = total
        team, levels = level_change(total, self.rules)
        next_dealer = (self.dealer + 2) % self.players if team == "dealer" else (self.dealer + 1) % self.players
        self.result = RoundEnded(total, trick_points, tuple(self.kitty), kitty_points, mult, captured,
                                 team, levels, next_dealer)
        self.events.append(self.result)
        self.phase = Phase.DONE
        self.turn = None
        self.trick = None

    # ----------------------------------------------------------------- copying
    def copy(self) -> Round:
        r = object.__new__(Round)
        r.__dict__.update(self.__dict__)
        r.hands = [list(h) for h in self.hands]
        r.kitty = list(self.kitty)
        r.tricks = list(self.tricks)  # finished tricks are never changed again
        r.trick = self.trick.copy() if self.trick else None
        r.events = list(self.events)
        return r


def kitty_trump(kitty: Sequence[int], rule: NoDeclaration) -> int | None:
    """Trump chosen from the kitty when no one declared."""
    if rule == NoDeclaration.KITTY_THIRD:
        card = kitty[min(2, len(kitty) - 1)]
        return None if card >= 52 else card // 13
    for card in kitty:
        if card < 52:
            return card // 13
    return None


def counts(cards: Sequence[int]) -> Counter[int]:
    return Counter(cards)
