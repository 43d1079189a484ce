"""One round (一局) as a phase machine.

    deal ─▶ declare (last call) ─▶ bury ─▶ [override after the bury ⇄ bury] ─▶ [call a friend] ─▶ play ─▶ done
                                                                                   play ⇄ [surrender: partners answer]

Every action goes through :meth:`Round.apply`, which checks it completely before changing
anything, so a refused action (an :class:`~tuolaji.errors.IllegalAction`) leaves the round
exactly as it was. :meth:`Round.apply_unchecked` skips the checks for trusted callers
(simulations, rollouts); :meth:`Round.copy` is cheap enough for search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, get_args

from ..cards import NUM_KINDS, POINTS, RANK_OF, LevelRank, is_joker, suit_of
from ..combos import Combo, decompose, single_combo
from ..declaring import (
    DECLARING_SETS,
    Bid,
    bid_reason,
    declaring_counts,
    is_override_bid,
    options,
    options_from_counts,
    read_bid,
    redeal_refusal,
    shown_cards,
)
from ..errors import IllegalAction, Reason
from ..ruleset import (
    DeclareRights,
    FirstRoundDealer,
    FriendCall,
    JRule,
    NoDeclaration,
    Partnership,
    RuleSet,
    ThrowPenalty,
)
from ..scoring import kitty_multiplier, level_change, round_coins, surrender_total
from ..tricks import best_so_far, follow_shape_reason, is_sub_multiset, lead_reason, throw_block
from ..trump import JOKER_LEVEL, TrumpContext
from .actions import Action, Bury, CallFriend, Deal, Declare, Pass, Play, Redeal, Surrender, SurrenderAnswer
from .events import (
    Buried,
    Dealt,
    Declared,
    Event,
    FriendCalled,
    FriendRevealed,
    KittyTaken,
    Passed,
    Played,
    RedealRequested,
    Redealt,
    RoundEnded,
    SurrenderAnswered,
    SurrenderProposed,
    TrickEnded,
    TrumpFixed,
)

if TYPE_CHECKING:
    from .observation import PublicTrick


PhaseValue = Literal["deal", "declare", "bury", "override", "call_friend", "play", "surrender", "done"]


class Phase(str):
    """A round's phase: one constant per phase, a string equal to its value (``Phase.PLAY ==
    "play"``), with an enum's ``value``, ``name``, ``Phase("play")`` and iteration (``PHASES``).

    Not an ``enum.StrEnum``: on Python 3.11 every attribute read on an enum class goes through
    the enum metaclass's ``__getattr__`` hook (about ten times a plain class attribute's cost),
    and every caller's loop reads them (``while rnd.phase == Phase.PLAY``)."""

    __slots__ = ()
    DEAL: ClassVar[Phase]  # cards dealt one at a time; anyone may declare between cards
    DECLARE: ClassVar[Phase]  # last call after the deal: each seat in turn declares or passes
    BURY: ClassVar[Phase]  # the dealer (or an overrider) has the kitty and buries as many cards
    OVERRIDE: ClassVar[Phase]  # 反主炒底: after a bury, the others in turn may override or pass
    CALL_FRIEND: ClassVar[Phase]  # find-a-friend: the dealer names a card
    PLAY: ClassVar[Phase]
    SURRENDER: ClassVar[Phase]  # 投降: a side's proposal to concede awaits its partners' answers
    DONE: ClassVar[Phase]

    def __new__(cls, value: str) -> Phase:
        """The phase whose value is ``value`` (ValueError for any other), as an enum's call reads it."""
        got = _BY_VALUE.get(value) if type(value) is str or type(value) is Phase else None
        if got is None:
            raise ValueError(f"{value!r} is not a valid Phase")
        return got

    @property
    def value(self) -> PhaseValue:
        return str.__str__(self)  # type: ignore[return-value]  # one of PhaseValue, made below

    @property
    def name(self) -> str:
        return self.value.upper()

    def __repr__(self) -> str:
        return f"<Phase.{self.name}: {self.value!r}>"

    def __reduce__(self) -> tuple[type[Phase], tuple[str]]:
        return Phase, (self.value,)  # unpickled as the same constant

    def __copy__(self) -> Phase:
        return self

    def __deepcopy__(self, memo: object) -> Phase:
        return self


PHASES: tuple[Phase, ...] = tuple(str.__new__(Phase, v) for v in get_args(PhaseValue))
_BY_VALUE: dict[str, Phase] = {p.value: p for p in PHASES}
for _p in PHASES:
    setattr(Phase, _p.name, _p)
del _p

# Phases as module constants: a global read is cheaper still than a class attribute on the hot path.
_DEAL, _DECLARE, _OVERRIDE, _PLAY = Phase.DEAL, Phase.DECLARE, Phase.OVERRIDE, Phase.PLAY
_BURY, _CALL_FRIEND, _SURRENDER, _DONE = Phase.BURY, Phase.CALL_FRIEND, Phase.SURRENDER, Phase.DONE
_FIND_FRIEND, _DEALER_SIDE = Partnership.FIND_FRIEND, DeclareRights.DEALER_SIDE


class Trick:
    """A trick in progress or finished: who led, the plays in order, and the winner."""

    __slots__ = ("leader", "plays", "seats", "winner", "points", "lead_comps", "attempted", "public")

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.seats: list[int] = []
        self.plays: list[tuple[int, ...]] = []
        self.winner: int | None = None
        self.points = 0
        self.lead_comps: list[Combo] | None = None
        self.attempted: tuple[int, ...] | None = None
        self.public: PublicTrick | None = None  # its public form once finished (shared by every observation)

    def copy(self) -> Trick:
        t = Trick(self.leader)
        t.seats, t.plays = list(self.seats), list(self.plays)
        t.winner, t.points, t.lead_comps, t.attempted = self.winner, self.points, self.lead_comps, self.attempted
        return t


class _Declaring:
    """One seat's declaring cards during the deal and the last call, kept up to date as cards
    arrive, and the options they gave against the standing bid and dealer (None: to be worked
    out again; every new bid, which may change the dealer too, drops them)."""

    __slots__ = ("hand", "n", "counts", "options")

    def __init__(self, hand: list[int], counts: dict[int, int]) -> None:
        self.hand = hand  # the hand list these counts describe, at length ``n``
        self.n = len(hand)
        self.counts = counts  # declaring.declaring_counts(hand, level)
        self.options: tuple[tuple[int, ...], ...] | None = None


class _Suits:
    """One seat's cards by effective suit, each list in hand order, for one hand list at one
    length (trump fixed); the seat's plays keep it up to date."""

    __slots__ = ("hand", "n", "lists")

    def __init__(self, hand: list[int], eff: Sequence[int]) -> None:
        self.hand = hand
        self.n = len(hand)
        self.lists: dict[int, list[int]] = {}
        lists = self.lists
        for c in hand:
            got = lists.get(eff[c])
            if got is None:
                lists[eff[c]] = [c]
            else:
                got.append(c)


class SuitCounts(Counter[int]):
    """A seat's card kinds of one effective suit and their copies, as :meth:`Round.suit_counts`
    keeps them (never a zero count): a ``Counter`` made and emptied by ``dict``'s own C methods,
    where ``Counter``'s ``__init__`` and ``__delitem__`` are Python code (a rollout's copy of the
    round makes every seat's again, and its plays empty them). Read only."""

    __init__ = dict.__init__
    __delitem__ = dict.__delitem__  # type: ignore[assignment]  # only kinds held are deleted


_tuple_new: Any = tuple.__new__  # the events made per card and trick, as events.dealt() etc. make them
_MOST_SEATS = 8  # a rule set seats 4 to 8 players
# Every card dealt and every single played makes an event that can only be one of a few hundred
# values, and events are frozen: each is made once here and shared by every round that appends it
# (equal to one made anew; a tuple's 1.4 k machine instructions saved per card dealt or single played).
_DEALT_EVENTS: tuple[tuple[Dealt, ...], ...] = tuple(
    tuple([_tuple_new(Dealt, (seat, card)) for card in range(NUM_KINDS)]) for seat in range(_MOST_SEATS)
)
_SINGLE_PLAYED: tuple[tuple[Played, ...], ...] = tuple(
    tuple([_tuple_new(Played, (seat, (card,), None, None, None)) for card in range(NUM_KINDS)]) for seat in range(_MOST_SEATS)
)
_PASSED: tuple[Passed, ...] = tuple([_tuple_new(Passed, (seat,)) for seat in range(_MOST_SEATS)])
# A trick's end is one of a few thousand (winner, points, attacker points) events: each is made
# once and shared while this table keeps it (a hit costs a fifth of a new event, and a round holds
# no new tuple per trick for the collector to trace).
_TRICK_ENDED: dict[tuple[int, int, int], TrickEnded] = {}
_NO_CARDS: list[int] = []  # a suit a hand does not hold (never changed)


class Round:
    """A round for ``rules.players`` seats; ``deck`` is the deal order (hands first, kitty last).

    ``dealer`` is None in a match's first round: the declaration decides it (抢庄).
    """

    # Slots: a class whose instances hold more than 30 attributes loses CPython's fast attribute
    # access (its instances fall back to a dict); every field is set in __init__ and copied by copy().
    __slots__ = (
        "rules",
        "players",
        "hand_size",
        "kitty_size",
        "deck",
        "level",
        "dealer",
        "first_round",
        "start_seat",
        "dealt",
        "next_deal_seat",
        "hands",
        "bid",
        "first_bidder",
        "overrides",
        "phase",
        "turn",
        "passes",
        "ctx",
        "kitty",
        "burier",
        "from_kitty",
        "friend_calls",
        "call_seats",
        "call_shown",
        "call_copies",
        "tricks",
        "trick",
        "seat_points",
        "attacker_points",
        "failed_throws",
        "events",
        "result",
        "redeal",
        "surrender_by",
        "surrender_waiting",
        "surrender_declined",
        "_suit_counts",
        "public_tricks",
        "_declaring",
        "_suits",
        "_deal_size",
        "_declaring_kinds",
        "_find_friend",
        "__weakref__",  # the server's tests follow rounds by weak reference
    )

    def __init__(self, *, rules: RuleSet, deck: Sequence[int], level: LevelRank, dealer: int | None, start_seat: int = 0) -> None:
        self.rules = rules
        self.players = rules.players
        self.hand_size = rules.hand_size_value
        self.kitty_size = rules.kitty_size_value
        if len(deck) != self.players * self.hand_size + self.kitty_size:
            raise ValueError(f"a deal needs {self.players * self.hand_size + self.kitty_size} cards, got {len(deck)}")
        self.deck: tuple[int, ...] = tuple(deck)
        self.level = level  # the rank played (not the ladder place: cards.LevelIndex)
        self.dealer: int | None = dealer
        self.first_round = dealer is None
        self.start_seat = dealer if dealer is not None else start_seat
        self.dealt = 0
        # the seat the next card goes to, kept by the deal (a plain read: every dealer loop asks it
        # per card, and a property costs ten times as much); bots that set ``dealt`` from outside
        # set the whole deal, which brings the deal back to ``start_seat`` as this value is
        self.next_deal_seat = self.start_seat
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.bid: Bid | None = None
        self.first_bidder: int | None = None
        self.overrides = 0
        self.phase = _DEAL
        self.turn: int | None = None
        self.passes = 0
        self.ctx: TrumpContext | None = None
        self.kitty: list[int] = list(self.deck[self.players * self.hand_size :])
        self.burier: int | None = None  # who buried the kitty now face down
        self.from_kitty: list[list[int]] = [[] for _ in range(self.players)]  # kitty cards still in hand
        # find-a-friend: the dealer's calls in order, each (card, copy: 0 or, nth_played, 1 = the first played)
        self.friend_calls: list[tuple[int, int]] = []
        self.call_seats: list[int | None] = []  # per call: the seat it makes a friend (None: nobody or the dealer)
        self.call_shown: list[bool] = []  # per call: known to all (its friend played the card, or there is none)
        self.call_copies: list[int] = []  # per call (nth_played): copies of its card played so far
        self.tricks: list[Trick] = []
        self.trick: Trick | None = None
        self.seat_points = [0] * self.players
        self.attacker_points = 0  # public running total (find-a-friend: seats known to attack)
        self.failed_throws = [0] * self.players
        self.events: list[Event] = []
        self.result: RoundEnded | None = None
        self.redeal = False
        self.surrender_by: int | None = None  # the seat whose proposal awaits answers
        self.surrender_waiting: list[int] = []  # partners still to answer, in order
        self.surrender_declined = [-1] * self.players  # per seat: tricks finished when its proposal was declined
        self._suit_counts: list[dict[int, Counter[int]] | None] | None = None  # see suit_counts()
        self.public_tricks: tuple[PublicTrick, ...] = ()  # finished tricks' public forms so far (observe)
        self._declaring: list[_Declaring | None] = [None] * self.players  # see declaration_options()
        self._suits: list[_Suits | None] = [None] * self.players  # see suit_cards()
        self._deal_size = self.players * self.hand_size  # cards dealt to hands (the rest is the kitty)
        self._declaring_kinds = DECLARING_SETS[level]
        self._find_friend = rules.partnership == _FIND_FRIEND

    # ----------------------------------------------------------------- queries
    @property
    def find_friend(self) -> bool:
        return self._find_friend

    def dealer_side(self) -> tuple[int, ...]:
        """The dealer's side as it really is (find-a-friend: the dealer, then the friends, hidden
        ones included, in play order after the dealer)."""
        if self.dealer is None:
            return ()
        if self.find_friend:
            return (self.dealer, *self._friends(self.call_seats))
        return tuple(range(self.dealer % 2, self.players, 2))  # the seats of the dealer's parity

    def _friends(self, seats: Sequence[int | None]) -> tuple[int, ...]:
        """The distinct seats among ``seats`` other than the dealer, in play order after the dealer
        (one seat answering two calls is one friend)."""
        dealer = self.dealer if self.dealer is not None else 0
        found = {s for s in seats if s is not None and s != dealer}
        return tuple(s for k in range(1, self.players) for s in [(dealer + k) % self.players] if s in found)

    @property
    def friend_card(self) -> int | None:
        """The first called card (None before the call)."""
        return self.friend_calls[0][0] if self.friend_calls else None

    @property
    def friend(self) -> int | None:
        """The first friend after the dealer in play order (hidden ones included), or None."""
        friends = self._friends(self.call_seats)
        return friends[0] if friends else None

    @property
    def friend_revealed(self) -> bool:
        """Every call made and shown: the sides are known to all."""
        return len(self.friend_calls) >= self.rules.friends_value and all(self.call_shown)

    def shown_friends(self) -> tuple[int, ...]:
        """The friends everyone knows of so far."""
        return self._friends([s for s, shown in zip(self.call_seats, self.call_shown, strict=True) if shown])

    def set_friend_calls(
        self,
        calls: Sequence[tuple[int, int]],
        seats: Sequence[int | None],
        shown: Sequence[bool],
        played: Sequence[int] = (),
    ) -> None:
        """Put calls in place without their events (bots' simulated rounds); ``played``: every
        card played so far, for the copies ``nth_played`` counts."""
        self.friend_calls = list(calls)
        self.call_seats = list(seats)
        self.call_shown = list(shown)
        self.call_copies = [played.count(card) for card, _ in calls]

    def is_attacker(self, seat: int) -> bool:
        """Is ``seat`` on the attacking side (the truth, used for scoring)."""
        dealer = self.dealer
        if dealer is None:
            return False
        if self.find_friend:
            return seat != dealer and seat not in self.call_seats  # the dealer's friends are the called seats
        return (seat - dealer) % 2 == 1  # not of the dealer's parity (dealer_side())

    def publicly_attacker(self, seat: int) -> bool:
        """Is ``seat`` known to everyone to attack? (find-a-friend: the friend may still be hidden)."""
        if not self.find_friend or self.friend_revealed:
            return self.is_attacker(seat)
        return self.dealer is not None and seat != self.dealer and seat not in self.shown_friends()

    @property
    def trump(self) -> int | None:
        return self.ctx.trump if self.ctx else (self.bid.trump if self.bid else None)

    @property
    def level_ctx(self) -> TrumpContext:
        """The context for sorting and combos: the fixed one, or the current bid's during the deal."""
        if self.ctx is not None:
            return self.ctx
        return self._context(self.bid.trump if self.bid else None)

    def _context(self, trump: int | None) -> TrumpContext:
        return TrumpContext(self.level, trump, self.rules.decks, self.rules.notrump_level_tractor)

    @property
    def deal_done(self) -> bool:
        return self.dealt >= self._deal_size

    def suit_counts(self, seat: int) -> dict[int, Counter[int]]:
        """The seat's cards by effective suit (trump fixed), kept up to date as it plays.

        Built on first use (a copy of the round starts without them) and only read by callers.
        """
        assert self.ctx is not None
        cache = self._suit_counts
        if cache is None:
            cache = self._suit_counts = [None] * self.players
        got = cache[seat]
        if got is None:
            eff = self.ctx.eff
            got = cache[seat] = {}
            for c in self.hands[seat]:
                counts = got.get(eff[c])
                if counts is None:
                    counts = got[eff[c]] = SuitCounts()
                counts[c] = counts.get(c, 0) + 1
        return got

    def suit_cards(self, seat: int, suit: int) -> list[int]:
        """The seat's cards of effective suit ``suit`` (trump fixed), in hand order: kept up to
        date by its plays, worked out again for a hand put in from outside. Read only."""
        hand = self.hands[seat]
        kept = self._suits[seat]
        if kept is None or kept.hand is not hand or kept.n != len(hand):
            assert self.ctx is not None
            kept = self._suits[seat] = _Suits(hand, self.ctx.eff)
        return kept.lists.get(suit, _NO_CARDS)

    # ----------------------------------------------------------------- checking
    def check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` is not allowed now; changes nothing."""
        phase = self.phase
        if phase == _DONE:
            raise IllegalAction(Reason.ROUND_OVER)
        kind = action.type
        if kind == "deal":
            if phase != _DEAL:
                raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)
            return
        if kind == "time_up":
            raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)  # a match-level action
        seat = action.seat  # type: ignore[union-attr]
        if not (type(seat) is int and 0 <= seat < self.players):
            raise IllegalAction(Reason.BAD_SEAT, seat=seat)
        if type(action) is Play:  # the common case first, with one exact type test
            self._check_play(seat, action.cards)
        elif isinstance(action, Declare):
            self._check_declare(action)
        elif isinstance(action, Pass):
            if phase not in (_DECLARE, _OVERRIDE):
                raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)
            self._check_turn(seat)
        elif isinstance(action, Redeal):
            self._check_redeal(seat)
        elif isinstance(action, Surrender):
            reason = self.surrender_refusal(seat)
            if reason:
                raise IllegalAction(reason, phase=phase.value, turn=self.turn)
        elif isinstance(action, SurrenderAnswer):
            if phase != _SURRENDER:
                raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)
            self._check_turn(seat)
            if not isinstance(action.accept, bool):
                raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_ACCEPT)
        elif isinstance(action, Bury):
            if phase != _BURY:
                raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)
            if seat != self.turn:
                raise IllegalAction(Reason.NOT_DEALER)
            if len(action.cards) != self.kitty_size:
                raise IllegalAction(Reason.WRONG_KITTY_SIZE, n=self.kitty_size)
            if not is_sub_multiset(action.cards, self.hands[seat]):
                raise IllegalAction(Reason.NOT_IN_HAND)
        elif isinstance(action, CallFriend):
            if phase != _CALL_FRIEND:
                raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)
            self._check_turn(seat)
            if not (type(action.card) is int and 0 <= action.card < 54):
                raise IllegalAction(Reason.BAD_FRIEND_CARD)
            if self.rules.friend_call == FriendCall.NTH_PLAYED:
                if not (type(action.nth) is int and 1 <= action.nth <= self.rules.decks):
                    raise IllegalAction(Reason.BAD_FRIEND_CARD, why=Reason.FRIEND_COPY, decks=self.rules.decks)
            elif action.nth != 0:
                raise IllegalAction(Reason.BAD_FRIEND_CARD, why=Reason.FRIEND_NO_COPY)
            if any(card == action.card and nth == action.nth for card, nth in self.friend_calls):
                raise IllegalAction(Reason.BAD_FRIEND_CARD, why=Reason.FRIEND_CALLED)
        elif isinstance(action, Play):
            self._check_play(seat, action.cards)
        else:
            raise IllegalAction(Reason.BAD_ACTION, why=Reason.ACTION_TYPE, kind=type(action).__name__)

    def _check_play(self, seat: int, cards: Sequence[int]) -> None:
        if self.phase != _PLAY:
            raise IllegalAction(Reason.WRONG_PHASE, phase=self.phase.value)
        self._check_turn(seat)
        reason = self.play_reason(seat, cards)
        if reason:
            lead = self.trick.plays[0] if self.trick and self.trick.plays else ()
            raise IllegalAction(reason, n=len(lead))

    def _check_turn(self, seat: int) -> None:
        if seat != self.turn:
            raise IllegalAction(Reason.NOT_YOUR_TURN, turn=self.turn)

    def _check_declare(self, action: Declare) -> Bid:
        phase = self.phase
        if phase not in (_DEAL, _DECLARE, _OVERRIDE):
            raise IllegalAction(Reason.WRONG_PHASE, phase=phase.value)
        if phase != _DEAL:
            self._check_turn(action.seat)
        refusal = self.declare_refusal(action.seat)
        if refusal:
            raise IllegalAction(refusal)
        return self._read_bid(action, pairs_only=phase == _OVERRIDE)

    def declare_refusal(self, seat: int) -> Reason | None:
        """Why ``seat`` may not declare at all now (seed 000 C: after the first round only the
        dealer's side declares; the other side may at the last call when it cannot), or None."""
        if self.rules.declare_rights != _DEALER_SIDE or self.dealer is None or self.first_round or self.phase == _OVERRIDE:
            return None
        side = self.dealer_side()
        if seat in side:
            return None
        if (
            self.phase == _DECLARE
            and (self.bid is None or self.bid.seat not in side)
            and not any(options(s, self.hands[s], self.level, None, self.rules) for s in side)
        ):
            return None
        return Reason.DEALER_SIDE_DECLARES

    def _check_redeal(self, seat: int) -> None:
        rules = self.rules
        if not (rules.redeal_request or rules.redeal_no_trump):
            raise IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_OFF)
        if self.phase != _DECLARE:
            raise IllegalAction(Reason.WRONG_PHASE, phase=self.phase.value)
        self._check_turn(seat)
        if self.dealer is None or not self.is_attacker(seat):
            raise IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_ATTACKERS)
        refusal = redeal_refusal(self.hands[seat], self.level, rules)
        if refusal is not None:
            raise refusal

    def sides_public(self) -> bool:
        """Does everyone know who is on which side? (find-a-friend: once the friend has shown)"""
        return self.dealer is not None and (not self.find_friend or self.friend_revealed)

    def partners(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s side (the truth), in play order after it."""
        attacker = self.is_attacker(seat)
        return [s for k in range(1, self.players) for s in [(seat + k) % self.players] if self.is_attacker(s) == attacker]

    def surrender_refusal(self, seat: int) -> Reason | None:
        """Why ``seat`` may not propose to concede now (table rule ``surrender``), or None."""
        if not self.rules.surrender:
            return Reason.NO_SURRENDER
        if self.phase != _PLAY:
            return Reason.WRONG_PHASE
        if seat != self.turn:
            return Reason.NOT_YOUR_TURN
        if not self.sides_public():
            return Reason.SURRENDER_SIDES_HIDDEN
        if self.surrender_declined[seat] >= len(self.tricks):
            return Reason.SURRENDER_DECLINED
        return None

    def play_reason(self, seat: int, cards: Sequence[int]) -> Reason | None:
        """Why ``seat`` may not play ``cards`` now (ignoring whose turn it is), or None."""
        hand = self.hands[seat]
        if not cards:
            return Reason.EMPTY_PLAY
        if not is_sub_multiset(cards, hand):
            return Reason.NOT_IN_HAND
        trick, ctx = self.trick, self.ctx
        assert ctx is not None and trick is not None
        if not trick.plays:
            return lead_reason(cards, ctx) if len(cards) > 1 else None
        lead = trick.plays[0]
        if len(cards) != len(lead):
            return Reason.WRONG_COUNT
        e = ctx.eff[lead[0]]
        if len(cards) == 1 and ctx.eff[cards[0]] == e:  # a single of the suit led always follows
            return None
        # the round's kept cards of the suit: no pass over a long hand (three and four decks)
        return follow_shape_reason(lead, hand, cards, ctx, trick.lead_comps, self.suit_cards(seat, e))

    def declaration_options(self, seat: int) -> list[tuple[int, ...]]:
        """Declarations ``seat`` could make now that would stand.

        During the deal (asked after every card) each seat's answer is kept, with its counts of
        level cards and jokers: a plain card dealt leaves it as it was; a level card or joker
        dealt to the seat, or a new standing bid, has it worked out again. The counts serve the
        last call too (the hands do not change until the kitty is taken, which drops them).
        """
        memo = self._declaring[seat]
        if memo is not None:
            got = memo.options
            if got is not None and memo.hand is self.hands[seat] and memo.n == len(memo.hand):
                return [*got] if got else []  # a new list each time ([*got]: no call of list())
        phase = self.phase
        if phase is not _DEAL and (phase is not _DECLARE or self.from_kitty[seat]):
            if self.declare_refusal(seat):
                return []
            hand = self.declaring_hand(seat)
            return options(seat, hand, self.level, self.bid, self.rules, pairs_only=self.phase == _OVERRIDE)
        hand = self.hands[seat]
        if memo is None or memo.hand is not hand or memo.n != len(hand):  # first use, or a hand put in from outside
            memo = self._declaring[seat] = _Declaring(hand, declaring_counts(hand, self.level))
        if not memo.counts or self.declare_refusal(seat):  # no level card nor joker: nothing to show
            got = memo.options = ()
        else:
            got = memo.options = tuple(options_from_counts(seat, memo.counts, self.level, self.bid, self.rules))
        return [*got]

    def declaring_hand(self, seat: int) -> list[int]:
        """The cards ``seat`` may declare with: a pair made up from the kitty cannot override
        (seed 003: 底牌湊成的對或王不可以反), so kitty cards still in hand do not count."""
        taken = self.from_kitty[seat]
        if not taken:
            return self.hands[seat]
        hand = list(self.hands[seat])
        for c in taken:
            hand.remove(c)
        return hand

    def _read_bid(self, action: Declare, *, pairs_only: bool) -> Bid:
        hand = self.hands[action.seat]
        cards = shown_cards(action.seat, action.cards, self.bid)
        if not is_sub_multiset(cards, hand):
            raise IllegalAction(Reason.NOT_IN_HAND)
        if pairs_only and not is_sub_multiset(cards, self.declaring_hand(action.seat)):
            raise IllegalAction(Reason.KITTY_PAIR_OVERRIDE)
        bid = read_bid(action.seat, cards, self.level, self.rules)  # or IllegalAction(bad_declaration)
        if pairs_only and not is_override_bid(bid):
            raise IllegalAction(Reason.OVERRIDE_NEEDS_PAIR)
        reason = bid_reason(bid, self.bid, self.rules, after_bury=pairs_only)
        if reason:
            raise IllegalAction(reason)
        return bid

    # ----------------------------------------------------------------- acting
    def apply(self, action: Action) -> None:
        t = type(action)
        if t is Deal:  # the common actions checked and acted on without the general dispatch
            if self.phase is _DEAL:
                self._deal()
                return
        elif t is Play:
            seat = action.seat  # type: ignore[union-attr]
            if self.phase is _PLAY and type(seat) is int and seat == self.turn:
                cards = action.cards  # type: ignore[union-attr]
                if type(cards) is tuple and len(cards) == 1 and self._single(seat, cards):
                    return
                reason = self.play_reason(seat, cards)
                if reason:  # as _check_play raises it (its phase and turn tests just passed)
                    trick = self.trick
                    raise IllegalAction(reason, n=len(trick.plays[0]) if trick and trick.plays else 0)
                self._play(seat, cards)
                return
        elif t is Declare:
            seat = action.seat  # type: ignore[union-attr]
            if self.phase in (_DEAL, _DECLARE, _OVERRIDE) and type(seat) is int and 0 <= seat < self.players:
                self._declare(action, self._check_declare(action))  # type: ignore[arg-type]  # the bid read once
                return
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
        elif kind == "call_friend":
            self._call_friend(action.seat, action.card, action.nth)  # type: ignore[union-attr]
        elif kind == "redeal":
            self.events.append(RedealRequested(action.seat))  # type: ignore[union-attr]
            self._redeal()
        elif kind == "surrender":
            self._propose_surrender(action.seat)  # type: ignore[union-attr]
        elif kind == "surrender_answer":
            self._answer_surrender(action.seat, action.accept)  # type: ignore[union-attr]

    def _deal(self) -> None:
        dealt = self.dealt
        seat = (self.start_seat + dealt) % self.players
        card = self.deck[dealt]
        hand = self.hands[seat]
        hand.append(card)
        self.dealt = dealt = dealt + 1
        self.next_deal_seat = (seat + 1) % self.players
        memo = self._declaring[seat]
        if memo is not None and memo.hand is hand and memo.n == len(hand) - 1:
            memo.n += 1
            if card in self._declaring_kinds:  # a new kind goes last: first shown last
                memo.counts[card] = memo.counts.get(card, 0) + 1
                memo.options = None
        self.events.append(_DEALT_EVENTS[seat][card])  # Dealt(seat, card), made once
        if dealt >= self._deal_size:
            self.phase = _DECLARE
            self.turn = self.start_seat
            self.passes = 0
            for memo in self._declaring:  # the counts stay right for the last call, not the answers
                if memo is not None:
                    memo.options = None

    def _declare(self, action: Declare, bid: Bid | None = None) -> None:
        if bid is None:  # unchecked: read it here
            bid = read_bid(action.seat, shown_cards(action.seat, action.cards, self.bid), self.level, self.rules)
        previous = self.bid
        self.bid = bid
        for memo in self._declaring:  # every seat's kept options answered the bid before
            if memo is not None:
                memo.options = None
        if self.first_bidder is None:
            self.first_bidder = bid.seat
        if (
            self.rules.declare_rights == _DEALER_SIDE
            and not self.first_round
            and self.phase == _DECLARE
            and bid.seat not in self.dealer_side()
        ):
            self.dealer = bid.seat  # 000 C: the dealer's side could not declare, the deal changes hands
        if previous is not None and not (previous.seat == bid.seat and previous.card == bid.card):
            self.overrides += 1
        self.events.append(_tuple_new(Declared, (bid.seat, tuple(action.cards), bid.trump)))  # Declared(...)
        if self.phase == _DECLARE:
            self.passes = 0
            self._next_turn()
        elif self.phase == _OVERRIDE:  # 反主炒底: the overrider takes the kitty and buries
            self.ctx = self._context(bid.trump)
            self.events.append(TrumpFixed(bid.trump, self._dealer(), "override"))
            self._take_kitty(bid.seat)

    def _pass(self, seat: int) -> None:
        self.events.append(_PASSED[seat])  # Passed(seat), made once
        self.passes += 1
        if self.phase == _OVERRIDE:
            if self.passes >= self.players - 1:
                self._after_burying()
            else:
                self._next_turn()
        elif self.passes >= self.players:
            self._close_declaring()
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        assert self.turn is not None
        self.turn = (self.turn + 1) % self.players

    def _dealer(self) -> int:
        assert self.dealer is not None
        return self.dealer

    def _redeal(self) -> None:
        self._declaring = [None] * self.players
        self.redeal = True
        self.phase = _DONE
        self.turn = None
        self.events.append(Redealt())

    def _close_declaring(self) -> None:
        rules = self.rules
        bid = self.bid
        if self.level == JOKER_LEVEL:  # 打王: no-trump whatever was shown (only joker pairs can be)
            if self.dealer is None:
                self.dealer = bid.seat if bid is not None else self.start_seat
            self.ctx = self._context(None)
            self.events.append(TrumpFixed(None, self._dealer(), "joker_level"))
            self._take_kitty(self._dealer())
            return
        if bid is not None:
            trump: int | None = bid.trump
            source = "declared"
            if self.dealer is None:
                self.dealer = bid.seat if rules.first_round_dealer == FirstRoundDealer.LAST_DECLARER else self.first_bidder
        else:
            fallback = rules.first_round_no_declaration if self.dealer is None else rules.no_declaration
            if fallback == NoDeclaration.REDEAL:
                self._redeal()
                return
            if fallback == NoDeclaration.KITTY_PAIR:
                holder = kitty_pair_holder(self.hands, self.kitty, self.dealer if self.dealer is not None else self.start_seat)
                if holder is not None and holder not in self.dealer_side():
                    self.dealer = holder
            if self.dealer is None:
                self.dealer = self.start_seat
            trump = kitty_trump(self.kitty, fallback)
            source = fallback.value
        self.ctx = self._context(trump)
        self.events.append(TrumpFixed(trump, self._dealer(), source))
        self._take_kitty(self._dealer())

    def _take_kitty(self, seat: int) -> None:
        self._declaring = [None] * self.players  # kept for the deal and the last call only
        self.hands[seat].extend(self.kitty)
        self.from_kitty[seat].extend(self.kitty)
        self.events.append(KittyTaken(seat, tuple(self.kitty)))
        self.kitty = []
        self.phase = _BURY
        self.turn = seat

    def _bury(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        taken = self.from_kitty[seat]
        for c in cards:
            hand.remove(c)
            if c in taken:  # a buried card is taken to be the kitty's copy: the seat keeps its own
                taken.remove(c)
        self.kitty = list(cards)
        self.burier = seat
        self.events.append(Buried(seat, tuple(cards)))
        if self.rules.override_after_bury and not self.first_round:
            self.phase = _OVERRIDE
            self.turn = (seat + 1) % self.players
            self.passes = 0
        else:
            self._after_burying()

    def _after_burying(self) -> None:
        dealer = self._dealer()
        if self.find_friend:
            self.phase = _CALL_FRIEND
            self.turn = dealer
        else:
            self._start_play()

    def _call_friend(self, seat: int, card: int, nth: int = 0) -> None:
        call = len(self.friend_calls)
        self.friend_calls.append((card, nth))
        self.call_copies.append(0)
        self.events.append(FriendCalled(seat, card, nth))
        if nth:  # nth_played: whoever plays that copy joins, found only as it is played
            self.call_seats.append(None)
            self.call_shown.append(False)
        else:
            friend = find_friend(self.hands, seat, card, self.players)
            self.call_seats.append(friend)
            self.call_shown.append(friend is None)
            if friend is None:  # the dealer holds every other copy: this call finds nobody, known at once
                self.events.append(FriendRevealed(None, call))
        if len(self.friend_calls) >= self.rules.friends_value:
            self._start_play()

    def _start_play(self) -> None:
        dealer = self._dealer()
        self._suit_counts = None  # the kitty and the trump may have changed the hands' suits
        self._suits = [None] * self.players
        self.phase = _PLAY
        self.turn = dealer
        self.trick = Trick(dealer)

    def _play(self, seat: int, cards: Sequence[int]) -> None:
        trick = self.trick
        ctx = self.ctx
        assert trick is not None and ctx is not None
        attempted: tuple[int, ...] | None = None
        beaten_by: int | None = None
        beating: tuple[int, ...] | None = None
        if not trick.plays:
            comps = decompose(cards, ctx) if len(cards) > 1 else [single_combo(cards[0], ctx)]
            if len(comps) > 1:
                n = self.players
                others = [self.hands[(seat + i) % n] for i in range(1, n)]  # in play order
                block = throw_block(cards, others, ctx)
                if block is not None:
                    attempted = tuple(cards)
                    cards = block.forced
                    beaten_by, beating = (seat + 1 + block.other) % n, tuple(block.beating)
                    comps = decompose(cards, ctx)
                    self.failed_throws[seat] += 1
            trick.lead_comps = comps
            trick.attempted = attempted
        played = tuple(cards)
        hand = self.hands[seat]
        kept = self._suits[seat]
        if kept is not None and kept.hand is hand and kept.n == len(hand):
            eff = ctx.eff
            lists = kept.lists
            for c in played:
                lists[eff[c]].remove(c)
            kept.n -= len(played)
        for c in played:
            hand.remove(c)
        by_suit = self._suit_counts[seat] if self._suit_counts is not None else None
        if by_suit is not None:
            eff = ctx.eff
            for c in played:
                counts = by_suit[eff[c]]
                counts[c] -= 1
                if not counts[c]:
                    del counts[c]
                    if not counts:
                        del by_suit[eff[c]]
        trick.seats.append(seat)
        trick.plays.append(played)
        if len(played) == 1 and attempted is None:
            self.events.append(_SINGLE_PLAYED[seat][played[0]])  # Played(seat, played), made once
        else:
            self.events.append(_tuple_new(Played, (seat, played, attempted, beaten_by, beating)))  # events.played(...)
        if self.friend_calls and not all(self.call_shown):
            self._show_friends(seat, played)
        if len(trick.plays) < self.players:
            self.turn = (seat + 1) % self.players
            return
        self._end_trick(trick, ctx)

    def _single(self, seat: int, cards: tuple[int, ...]) -> bool:
        """Check and act on one card led, or following a single lead (most plays): as
        play_reason and _play would, in one pass. False (nothing done) for any other play."""
        trick: Trick = self.trick  # type: ignore[assignment]  # set in play
        plays = trick.plays
        if plays and len(plays[0]) != 1:
            return False
        c = cards[0]
        if type(c) is not int or not 0 <= c < 54:  # not a card kind: the general path refuses it
            return False
        hand = self.hands[seat]
        ctx: TrumpContext = self.ctx  # type: ignore[assignment]  # fixed in play
        eff = ctx.eff
        kept = self._suits[seat]
        if kept is None or kept.hand is not hand or kept.n != len(hand):
            if c not in hand:
                raise IllegalAction(Reason.NOT_IN_HAND, n=len(plays[0]) if plays else 0)
            kept = self._suits[seat] = _Suits(hand, eff)
        lists = kept.lists
        ec = eff[c]
        mine = lists.get(ec, _NO_CARDS)
        try:  # the kept suit list holds the card exactly when the hand does (one scan: found here, deleted below)
            at = mine.index(c)
        except ValueError:
            raise IllegalAction(Reason.NOT_IN_HAND, n=len(plays[0]) if plays else 0) from None
        if plays:
            e = eff[plays[0][0]]
            if ec != e and lists.get(e):  # a single of another suit while holding the suit led
                raise IllegalAction(Reason.MUST_FOLLOW_SUIT, n=1)
        else:  # a single led: its one combination, no throw to check
            trick.lead_comps = [single_combo(c, ctx)]
            trick.attempted = None
        del mine[at]
        kept.n -= 1
        hand.remove(c)
        if self._suit_counts is not None and (by_suit := self._suit_counts[seat]) is not None:
            counts = by_suit[ec]
            counts[c] -= 1
            if not counts[c]:
                del counts[c]
                if not counts:
                    del by_suit[ec]
        trick.seats.append(seat)
        plays.append(cards)
        self.events.append(_SINGLE_PLAYED[seat][c])  # Played(seat, cards), made once
        if self.friend_calls and not all(self.call_shown):
            self._show_friends(seat, cards)
        if len(plays) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._end_trick(trick, ctx)
        return True

    def _show_friends(self, seat: int, played: tuple[int, ...]) -> None:
        """A play showing friends, each call on its own: ``holder``: its friend plays the called
        card; ``nth_played``: the seat playing the called copy joins the dealer (the dealer playing
        it himself: that call finds nobody). Announced at once; the public running total then
        counts only the seats still known to attack."""
        shown = False
        for call, (card, nth) in enumerate(self.friend_calls):
            if self.call_shown[call] or card not in played:
                continue
            if nth:
                self.call_copies[call] += played.count(card)
                if self.call_copies[call] < nth:
                    continue
                self.call_seats[call] = None if seat == self.dealer else seat
            elif self.call_seats[call] != seat:
                continue
            self.call_shown[call] = shown = True
            self.events.append(FriendRevealed(self.call_seats[call], call))
        if shown:
            self.attacker_points = sum(p for s, p in enumerate(self.seat_points) if self.publicly_attacker(s))

    def _propose_surrender(self, seat: int) -> None:
        self.events.append(SurrenderProposed(seat))
        self.surrender_by = seat
        self.surrender_waiting = self.partners(seat)
        self.phase = _SURRENDER
        self.turn = self.surrender_waiting[0] if self.surrender_waiting else seat
        if not self.surrender_waiting:  # a side of one (the dealer alone) concedes at once
            self._finish_surrender(seat)

    def _answer_surrender(self, seat: int, accept: bool) -> None:
        self.events.append(SurrenderAnswered(seat, accept))
        proposer = self.surrender_by
        assert proposer is not None
        self.surrender_waiting.remove(seat)
        if not accept:
            self.surrender_declined[proposer] = len(self.tricks)
            self.surrender_by, self.surrender_waiting = None, []
            self.phase, self.turn = _PLAY, proposer
        elif self.surrender_waiting:
            self.turn = self.surrender_waiting[0]
        else:
            self._finish_surrender(proposer)

    def _finish_surrender(self, proposer: int) -> None:
        """The side of ``proposer`` concedes: the round is scored on the points so far, moved if need
        be so that the other side wins (see docs/settings.md, ``surrender``)."""
        side = self.dealer_side()
        conceded = "dealer" if proposer in side else "attackers"
        trick_points = sum(p for s, p in enumerate(self.seat_points) if s not in side)
        penalty = self._throw_penalty(side)
        total = surrender_total(max(0, trick_points + penalty), conceded, self.rules)
        self._score(side, total, trick_points, sum(POINTS[c] for c in self.kitty), 0, False, penalty, surrendered=conceded)

    def _score(
        self,
        side: tuple[int, ...],
        total: int,
        trick_points: int,
        kitty_points: int,
        mult: int,
        captured: bool,
        penalty: int,
        *,
        j_hook: bool = False,
        surrendered: str | None = None,
    ) -> None:
        """End the round with ``total`` points for the attackers: the level change, the next dealer
        and the coins follow from it."""
        self.attacker_points = total
        team, levels = level_change(total, self.rules)
        coins = round_coins(
            self.rules, dealer_side=side, team=team, levels=levels, overrides=self.overrides, failed_throws=self.failed_throws
        )
        self._end(
            RoundEnded(
                total,
                trick_points,
                tuple(self.kitty),
                kitty_points,
                mult,
                captured,
                team,
                levels,
                self._next_dealer(team, self._dealer()),
                side,
                self.overrides,
                tuple(self.failed_throws),
                penalty,
                coins,
                j_hook=j_hook,
                surrendered=surrendered,
            )
        )

    def _throw_penalty(self, side: tuple[int, ...]) -> int:
        penalty = 0
        if self.rules.throw_penalty == ThrowPenalty.POINTS:
            for s, n in enumerate(self.failed_throws):
                penalty += (-n if s not in side else n) * self.rules.throw_penalty_points
        return penalty

    def _next_dealer(self, team: str, dealer: int) -> int:
        """Attackers taking over: the first attacker after the dealer; the dealer's side going up:
        the next seat of that side (find-a-friend: the first friend after the dealer, the dealer
        again when alone)."""
        side = self.dealer_side()
        if team == "attackers":
            return next(s for k in range(1, self.players) for s in [(dealer + k) % self.players] if s not in side)
        if self.find_friend:
            return side[1] if len(side) > 1 else dealer
        return (dealer + 2) % self.players

    def _end(self, result: RoundEnded) -> None:
        self.result = result
        self.events.append(result)
        self.phase = _DONE
        self.turn = None
        self.trick = None
        self.surrender_by, self.surrender_waiting = None, []

    def j_hook(self, last: Trick) -> bool:
        """勾J (table rule ``j_rule``): at level J the attackers win the last trick with a play
        holding a J (``trump_j``: the trump suit's J; in no-trump any J)."""
        rule = self.rules.j_rule
        if rule == JRule.OFF or self.level != 11 or last.winner is None or last.winner in self.dealer_side():
            return False
        won_with = last.plays[last.seats.index(last.winner)]
        jacks = [c for c in won_with if RANK_OF[c] == 11]
        if rule == JRule.TRUMP_J and self.trump is not None:
            jacks = [c for c in jacks if suit_of(c) == self.trump]
        return bool(jacks)

    def _end_trick(self, trick: Trick, ctx: TrumpContext) -> None:
        plays = trick.plays
        winner = trick.seats[best_so_far(plays, ctx, trick.lead_comps)[0]]
        pts = 0
        if len(plays[0]) == 1:  # singles (most tricks): no loop over each play's cards
            for play in plays:
                pts += POINTS[play[0]]
        else:
            for play in plays:
                for c in play:
                    pts += POINTS[c]
        trick.winner, trick.points = winner, pts
        self.seat_points[winner] += pts
        if self._find_friend:
            if self.publicly_attacker(winner):
                self.attacker_points += pts
        elif (winner - self.dealer) % 2:  # type: ignore[operator]  # is_attacker: fixed partners, dealer set in play
            self.attacker_points += pts
        self.tricks.append(trick)
        key = (winner, pts, self.attacker_points)
        ended = _TRICK_ENDED.get(key)
        if ended is None:
            if len(_TRICK_ENDED) >= 4096:
                _TRICK_ENDED.clear()
            ended = _TRICK_ENDED[key] = _tuple_new(TrickEnded, key)  # events.trick_ended(*key)
        self.events.append(ended)
        if self.hands[winner]:
            self.trick = Trick(winner)
            self.turn = winner
        else:
            self._finish(trick)

    def _finish(self, last: Trick) -> None:
        assert last.winner is not None and last.lead_comps is not None
        side = self.dealer_side()
        trick_points = sum(p for s, p in enumerate(self.seat_points) if s not in side)
        kitty_points = sum(POINTS[c] for c in self.kitty)
        captured = last.winner not in side
        mult = kitty_multiplier(last.lead_comps, self.rules.kitty_multiplier) if captured else 0
        penalty = self._throw_penalty(side)
        total = max(0, trick_points + kitty_points * mult + penalty)
        self._score(side, total, trick_points, kitty_points, mult, captured, penalty, j_hook=self.j_hook(last))

    # ----------------------------------------------------------------- copying
    def copy(self) -> Round:
        r = object.__new__(Round)
        copy_fields(self, r)
        r.hands = [list(h) for h in self.hands]
        r.kitty = list(self.kitty)
        r.tricks = list(self.tricks)  # finished tricks are never changed again
        r.trick = self.trick.copy() if self.trick else None
        r.seat_points = list(self.seat_points)
        r.failed_throws = list(self.failed_throws)
        r.from_kitty = [list(x) for x in self.from_kitty]
        r.surrender_waiting = list(self.surrender_waiting)
        r.surrender_declined = list(self.surrender_declined)
        r.friend_calls = list(self.friend_calls)
        r.call_seats = list(self.call_seats)
        r.call_shown = list(self.call_shown)
        r.call_copies = list(self.call_copies)
        r.events = list(self.events)
        r._suit_counts = None
        r._declaring = [None] * self.players
        r._suits = [None] * self.players
        return r


def _fields_copier(names: Sequence[str]) -> Callable[[Round, Round], None]:
    """A function setting every field of one round to another's (what ``__dict__.update`` did
    before the round had slots): one plain assignment per field, written out once here."""
    src = "def copy_fields(src, dst):\n" + "".join(f"    dst.{n} = src.{n}\n" for n in names)
    found: dict[str, Callable[[Round, Round], None]] = {}
    exec(src, found)  # noqa: S102  (the names are the class's own slots)
    return found["copy_fields"]


copy_fields = _fields_copier([n for n in Round.__slots__ if n != "__weakref__"])


def kitty_trump(kitty: Sequence[int], rule: NoDeclaration) -> int | None:
    """Trump chosen from the kitty when no one declared (no kitty, or only jokers: no-trump)."""
    if not kitty:
        return None
    if rule in (NoDeclaration.KITTY_THIRD, NoDeclaration.KITTY_PAIR):
        card = kitty[min(2, len(kitty) - 1)]
        return None if is_joker(card) else suit_of(card)
    for card in kitty:
        if not is_joker(card):
            return suit_of(card)
    return None


def kitty_pair_holder(hands: Sequence[Sequence[int]], kitty: Sequence[int], first: int) -> int | None:
    """Seed 000 C: the player who can pair the kitty card that set trump (the third), nearest
    in play order from ``first``; None if nobody holds its match."""
    if not kitty:
        return None
    card = kitty[min(2, len(kitty) - 1)]
    players = len(hands)
    for k in range(players):
        seat = (first + k) % players
        if card in hands[seat]:
            return seat
    return None


def find_friend(hands: Sequence[Sequence[int]], dealer: int, card: int, players: int) -> int | None:
    """The dealer's partner for a called card (挑选对家, seeds 000, 001).

    Holding one copy (in hand or buried), the partner is the holder of another; holding none,
    the holder nearest after the dealer in play order; holding every other copy, nobody (one
    against all). Copies left in the kitty belong to no one.
    """
    holders = [s for k in range(1, players) for s in [(dealer + k) % players] if card in hands[s]]
    return holders[0] if holders else None
