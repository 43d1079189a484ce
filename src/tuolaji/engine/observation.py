"""The typed, per-seat snapshot that computer players decide from.

An :class:`Observation` is built by copying only what ``seat`` may know out of a round: its
own hand, the public play, the declarations, and the kitty only if this seat buried it. Bots
get nothing else, so a bot cannot peek even by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..cards import LevelRank
from ..declaring import Bid, options
from ..ruleset import RuleSet
from ..trump import TrumpContext
from .actions import Redeal
from .events import Event
from .legal import is_legal
from .round import Phase, Round, Trick

# the phases an observation is made in, as module constants (an enum member read through its
# class costs a look-up each time: an observation is made after every card dealt)
_DEAL, _DECLARE, _OVERRIDE, _BURY = Phase.DEAL, Phase.DECLARE, Phase.OVERRIDE, Phase.BURY
_new = object.__new__
# the last bid observed, with the round's level and rules: (bid, level, rules, the deal's context for
# them or None, the bid's cards); the same bid stands over many observations (Bid.cards builds a tuple).
# One tuple, read and replaced whole: bots in other threads observe other rounds.
_LAST_BID: list[tuple[Any, ...]] = [(None, None, None, None, ())]


@dataclass(frozen=True, slots=True)
class PublicTrick:
    leader: int
    seats: tuple[int, ...]
    plays: tuple[tuple[int, ...], ...]
    winner: int | None
    points: int
    attempted: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    players: int
    phase: Phase
    turn: int | None
    level: LevelRank
    dealer: int | None
    ctx: TrumpContext  # the fixed trump context, or the current bid's during the deal
    trump_fixed: bool
    bid_seat: int | None
    bid_cards: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    kitty: tuple[int, ...] | None  # only for the seat that buried it
    kitty_size: int
    trick: PublicTrick | None
    tricks: tuple[PublicTrick, ...]
    attacker_points: int
    decks: int
    events: tuple[Event, ...]  # the public event log, redacted for this seat
    rules: RuleSet  # the (public) rules of the game, for bots that simulate
    bid: Bid | None  # the declaration standing now (public)
    known_dealer_side: tuple[int, ...]  # seats everyone knows are on the dealer's side
    friend_card: int | None  # find-a-friend: the first called card, once called
    friend_known: bool = False  # find-a-friend: every call made and shown (the sides are known)
    friend_calls: tuple[tuple[int, int], ...] = ()  # find-a-friend: the calls so far, (card, copy or 0)
    friend_seats: tuple[int | None, ...] = ()  # per call: the friend it showed (None: not shown, or nobody)
    calls_shown: tuple[bool, ...] = ()  # per call: shown (its friend played the card, or it finds nobody)
    from_kitty: tuple[int, ...] = ()  # kitty cards this seat took and still holds (cannot override)
    may_declare: bool = True  # False when the rules keep this seat from declaring now (000 C)
    may_redeal: bool = False  # this seat may ask for a redeal now (暴动, redeal_no_trump)
    may_surrender: bool = False  # this seat may propose now that its side concede (投降)
    surrender_by: int | None = None  # the seat whose proposal to concede awaits this seat's answer
    # during the deal: (hand, bid, the round's kept declaration options for them), see observe()
    kept_options: tuple[tuple[int, ...], Bid | None, tuple[tuple[int, ...], ...]] | None = field(
        default=None, compare=False, repr=False
    )

    def is_attacker(self, seat: int) -> bool:
        """Is ``seat`` publicly known to attack? (find-a-friend: a hidden friend counts as attacker)."""
        return self.dealer is not None and seat not in self.known_dealer_side

    def declaration_options(self) -> list[tuple[int, ...]]:
        """Declarations this seat could make now that would stand."""
        if not self.may_declare:
            return []
        kept = self.kept_options
        if kept is not None and kept[0] is self.hand and kept[1] is self.bid and self.phase == _DEAL:
            return list(kept[2])  # the round's answer for this very hand and bid
        hand = list(self.hand)
        for c in self.from_kitty:
            hand.remove(c)
        return options(self.seat, hand, self.level, self.bid, self.rules, pairs_only=self.phase == _OVERRIDE)


class _TrickDraft:
    """A PublicTrick being put together, as an observation is (see _Draft below)."""

    __slots__ = ("leader", "seats", "plays", "winner", "points", "attempted")


def _public(t: Trick) -> PublicTrick:
    if t.public is not None:
        return t.public
    draft: Any = _new(_TrickDraft)
    draft.leader = t.leader
    draft.seats = tuple(t.seats)
    draft.plays = tuple(t.plays)
    draft.winner = t.winner
    draft.points = t.points
    draft.attempted = t.attempted
    draft.__class__ = PublicTrick
    pub: PublicTrick = draft
    if t.winner is not None:  # a finished trick never changes again: build its public form once
        t.public = pub
    return pub


def _public_tricks(rnd: Round) -> tuple[PublicTrick, ...]:
    """The finished tricks' public forms, kept on the round and extended as tricks finish (the
    same tuple serves every observation until the next trick ends)."""
    tricks = rnd.tricks
    got = rnd.public_tricks
    n = len(got)
    if n > len(tricks) or (n and got[-1] is not tricks[n - 1].public):
        got, n = (), 0  # not this round's tricks any more: start again
    if n < len(tricks):
        got = rnd.public_tricks = got + tuple(_public(t) for t in tricks[n:])
    return got


# An observation is made for every decision and after every card dealt. It is put together as
# a _Draft, a plain class with the very same slots, by attribute stores (the interpreter
# specialises those to a direct slot write) and then turned into an Observation by setting its
# class: a frozen dataclass's own stores go through its refusing __setattr__, and its __init__
# or the slots' setters called one by one cost about three times as much (about 3 µs of an
# observation). The class can be set because the layouts are the same (the same slot names:
# CPython lays slots out in sorted order, and refuses the assignment for any other layout).
# A NEW FIELD needs its name in _FIELDS and a line in observe().
_FIELDS = (
    "seat", "players", "phase", "turn", "level", "dealer", "ctx", "trump_fixed", "bid_seat", "bid_cards", "hand",
    "hand_sizes", "kitty", "kitty_size", "trick", "tricks", "attacker_points", "decks", "events", "rules", "bid",
    "known_dealer_side", "friend_card", "friend_known", "friend_calls", "friend_seats", "calls_shown", "from_kitty",
    "may_declare", "may_redeal", "may_surrender", "surrender_by", "kept_options",
)  # fmt: skip
assert _FIELDS == tuple(f.name for f in fields(Observation)), "observe() sets every field of an Observation"


class _Draft:
    """An Observation being put together (see above); never seen outside observe()."""

    __slots__ = _FIELDS


def observe(rnd: Round, seat: int, *, with_events: bool = True) -> Observation:
    phase = rnd.phase
    bid = rnd.bid
    trick = rnd.trick
    level, rules, fixed = rnd.level, rnd.rules, rnd.ctx
    revealed = rnd.friend_revealed if rnd.friend_calls else False  # no call yet: never (friends >= 1)
    obs: Any = _new(_Draft)
    obs.seat = seat
    obs.players = rnd.players
    obs.phase = phase
    obs.turn = rnd.turn
    obs.level = level
    obs.dealer = rnd.dealer
    memo = _LAST_BID[0]
    if bid is not memo[0] or level != memo[1] or rules is not memo[2]:  # a new bid (or round)
        memo = _LAST_BID[0] = (bid, level, rules, rnd.level_ctx if fixed is None else None, bid.cards if bid else ())
    obs.ctx = fixed if fixed is not None else memo[3] or rnd.level_ctx
    obs.trump_fixed = fixed is not None
    obs.bid_seat = bid.seat if bid else None
    obs.bid_cards = memo[4]
    obs.hand = hand = tuple(rnd.hands[seat])
    obs.hand_sizes = tuple(map(len, rnd.hands))
    obs.kitty = tuple(rnd.kitty) if seat == rnd.burier and phase != _BURY else None  # only the burier's own
    obs.kitty_size = rnd.kitty_size
    obs.trick = _public(trick) if trick is not None else None
    obs.tricks = _public_tricks(rnd)
    obs.attacker_points = rnd.attacker_points
    obs.decks = rules.decks
    obs.events = tuple(e.redacted(seat) for e in rnd.events) if with_events else ()
    obs.rules = rules
    obs.bid = bid
    obs.known_dealer_side = _known_dealer_side(rnd, revealed)
    obs.friend_card = rnd.friend_card
    obs.friend_known = revealed
    call_seats = rnd.call_seats
    obs.friend_seats = (
        tuple(s if shown else None for s, shown in zip(call_seats, rnd.call_shown, strict=True)) if call_seats else ()
    )
    obs.friend_calls = tuple(rnd.friend_calls)
    obs.calls_shown = tuple(rnd.call_shown)
    obs.from_kitty = tuple(rnd.from_kitty[seat])
    obs.may_declare = rnd.declare_refusal(seat) is None
    obs.may_redeal = phase == _DECLARE and rnd.turn == seat and is_legal(rnd, Redeal(seat))
    obs.may_surrender = rules.surrender and rnd.surrender_refusal(seat) is None
    obs.surrender_by = rnd.surrender_by
    # during the deal: the round's kept options for this hand and bid (see declaration_options)
    obs.kept_options = (hand, bid, tuple(rnd.declaration_options(seat))) if phase == _DEAL else None
    obs.__class__ = Observation
    done: Observation = obs
    return done


_PARITY_SIDES: dict[tuple[int, int], tuple[int, ...]] = {}  # (players, dealer) -> the dealer's parity


def _known_dealer_side(rnd: Round, revealed: bool) -> tuple[int, ...]:
    """The seats everyone knows are on the dealer's side, in seat order: the seats that are not
    publicly attackers (find-a-friend before every friend shows: the dealer and the friends shown)."""
    dealer = rnd.dealer
    if dealer is None:
        return ()
    if not rnd.find_friend:  # the dealer's parity: one answer per table size and dealer
        key = (rnd.players, dealer)
        got = _PARITY_SIDES.get(key)
        if got is None:
            got = _PARITY_SIDES[key] = tuple(sorted(rnd.dealer_side()))
        return got
    if not revealed:
        return tuple(sorted((dealer, *rnd.shown_friends())))
    return tuple(sorted(rnd.dealer_side()))
