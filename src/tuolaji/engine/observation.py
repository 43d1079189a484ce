"""The typed, per-seat snapshot that computer players decide from.

An :class:`Observation` is built by copying only what ``seat`` may know out of a round: its
own hand, the public play, the declarations, and the kitty only if this seat buried it. Bots
get nothing else, so a bot cannot peek even by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

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


def _public(t: Trick) -> PublicTrick:
    if t.public is not None:
        return t.public
    pub = PublicTrick(t.leader, tuple(t.seats), tuple(t.plays), t.winner, t.points, t.attempted)
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


# An observation is made for every decision and after every card dealt: it is put together
# through its slots' own setters, one call per field in straight-line code, instead of the
# dataclass __init__ (keyword matching and a generic object.__setattr__ per field cost about
# twice as much) or a dict of the values by field name (its building and look-ups cost a sixth
# of an observation). A NEW FIELD needs its setter here and a line in observe().
_FIELDS = (
    "seat", "players", "phase", "turn", "level", "dealer", "ctx", "trump_fixed", "bid_seat", "bid_cards", "hand",
    "hand_sizes", "kitty", "kitty_size", "trick", "tricks", "attacker_points", "decks", "events", "rules", "bid",
    "known_dealer_side", "friend_card", "friend_known", "friend_calls", "friend_seats", "calls_shown", "from_kitty",
    "may_declare", "may_redeal", "may_surrender", "surrender_by", "kept_options",
)  # fmt: skip
assert _FIELDS == tuple(f.name for f in fields(Observation)), "observe() sets every field of an Observation"
(
    _SEAT, _PLAYERS, _PHASE, _TURN, _LEVEL, _DEALER, _CTX, _TRUMP_FIXED, _BID_SEAT, _BID_CARDS, _HAND,
    _HAND_SIZES, _KITTY, _KITTY_SIZE, _TRICK, _TRICKS, _ATTACKER_POINTS, _DECKS, _EVENTS, _RULES, _BID,
    _KNOWN_DEALER_SIDE, _FRIEND_CARD, _FRIEND_KNOWN, _FRIEND_CALLS, _FRIEND_SEATS, _CALLS_SHOWN, _FROM_KITTY,
    _MAY_DECLARE, _MAY_REDEAL, _MAY_SURRENDER, _SURRENDER_BY, _KEPT_OPTIONS,
) = (getattr(Observation, name).__set__ for name in _FIELDS)  # fmt: skip
_new = object.__new__


def observe(rnd: Round, seat: int, *, with_events: bool = True) -> Observation:
    phase = rnd.phase
    own_kitty = seat == rnd.burier and phase != _BURY
    hand = tuple(rnd.hands[seat])
    bid = rnd.bid
    trick = rnd.trick
    revealed = rnd.friend_revealed
    obs: Observation = _new(Observation)
    _SEAT(obs, seat)
    _PLAYERS(obs, rnd.players)
    _PHASE(obs, phase)
    _TURN(obs, rnd.turn)
    _LEVEL(obs, rnd.level)
    _DEALER(obs, rnd.dealer)
    _CTX(obs, rnd.level_ctx)
    _TRUMP_FIXED(obs, rnd.ctx is not None)
    _BID_SEAT(obs, bid.seat if bid else None)
    _BID_CARDS(obs, bid.cards if bid else ())
    _HAND(obs, hand)
    _HAND_SIZES(obs, tuple(map(len, rnd.hands)))
    _KITTY(obs, tuple(rnd.kitty) if own_kitty else None)
    _KITTY_SIZE(obs, rnd.kitty_size)
    _TRICK(obs, _public(trick) if trick is not None else None)
    _TRICKS(obs, _public_tricks(rnd))
    _ATTACKER_POINTS(obs, rnd.attacker_points)
    _DECKS(obs, rnd.rules.decks)
    _EVENTS(obs, tuple(e.redacted(seat) for e in rnd.events) if with_events else ())
    _RULES(obs, rnd.rules)
    _BID(obs, bid)
    _KNOWN_DEALER_SIDE(obs, _known_dealer_side(rnd, revealed))
    _FRIEND_CARD(obs, rnd.friend_card)
    _FRIEND_KNOWN(obs, revealed)
    _FRIEND_CALLS(obs, tuple(rnd.friend_calls))
    _FRIEND_SEATS(
        obs,
        tuple(s if shown else None for s, shown in zip(rnd.call_seats, rnd.call_shown, strict=True)) if rnd.call_seats else (),
    )
    _CALLS_SHOWN(obs, tuple(rnd.call_shown))
    _FROM_KITTY(obs, tuple(rnd.from_kitty[seat]))
    _MAY_DECLARE(obs, rnd.declare_refusal(seat) is None)
    _MAY_REDEAL(obs, phase == _DECLARE and rnd.turn == seat and is_legal(rnd, Redeal(seat)))
    _MAY_SURRENDER(obs, rnd.rules.surrender and rnd.surrender_refusal(seat) is None)
    _SURRENDER_BY(obs, rnd.surrender_by)
    # during the deal: the round's kept options for this hand and bid (see declaration_options)
    _KEPT_OPTIONS(obs, (hand, bid, tuple(rnd.declaration_options(seat))) if phase == _DEAL else None)
    return obs


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
