"""Sampling hidden hands consistent with an observation, and building a playable Round from them.

A sample respects everything public: the cards still unseen, each seat's hand size, the suits
each seat has shown void, the pairs it has shown it lacks, and the cards it is known to hold
(its standing declaration, the rest of a failed throw). A hidden kitty is assumed to hold no
trumps when that fits (good dealers keep their trumps), else anything.
"""

from __future__ import annotations

import random
import threading
from collections import Counter

from ..cards import NUM_KINDS, new_deck
from ..combos import decompose
from ..engine.observation import Observation
from ..engine.round import Phase, Round, Trick, find_friend
from ..ruleset import RuleSet, load_rules
from ..trump import TRUMP
from .memory import Memory

KITTY = -1  # the pseudo-seat of a hidden kitty


def sample_hidden(obs: Observation, mem: Memory, rng: random.Random, *, tries: int = 30) -> tuple[list[list[int]], list[int]]:
    """Hands for every seat (the observer's own as is) and the kitty, drawn at random."""
    sizes = {s: obs.hand_sizes[s] for s in range(obs.players) if s != obs.seat}
    if mem.kitty_hidden:
        sizes[KITTY] = obs.kitty_size
    prep = _prepared(obs, mem, sizes)
    for attempt in range(tries):
        strict = attempt < tries - 5  # last tries: relax the soft rules (kitty without trumps, no pairs)
        got = _try_sample(prep, rng, strict=strict, voids=attempt < tries - 1)
        if got is not None:
            hands = [list(obs.hand) if s == obs.seat else got[s] for s in range(obs.players)]
            kitty = list(obs.kitty) if obs.kitty is not None else got[KITTY]
            return hands, kitty
    raise AssertionError("no consistent deal found")  # pragma: no cover - the relaxed try always fits


Allowed = tuple[list[int], list[int], tuple[tuple[int, ...], ...]]  # see _Prepared.options


class _Prepared:
    """What every draw for one observation and memory starts from: the known holdings placed,
    the room left per seat, the cards left to deal (before shuffling), and per set of rules
    (strict, voids) each card's allowed seats and their number."""

    __slots__ = ("obs", "mem", "sizes", "out", "room", "cards", "allowed")

    def __init__(self, obs: Observation, mem: Memory, sizes: dict[int, int]) -> None:
        self.obs, self.mem, self.sizes = obs, mem, sizes
        room = dict(sizes)
        out: dict[int, list[int]] = {s: [] for s in sizes}
        pool = Counter(mem.unseen)
        for s in sizes:  # known holdings first
            if s == KITTY:
                continue
            for c, n in mem.holds[s].items():
                take = min(n, pool[c], room[s])
                out[s].extend([c] * take)
                pool[c] -= take
                room[s] -= take
        dealer = obs.dealer if obs.dealer is not None else -2
        for c in _dealer_copies(obs, mem):  # find-a-friend: the copy the dealer called beside
            if pool[c] > 0 and room.get(dealer, 0) > 0:
                out[dealer].append(c)
                pool[c] -= 1
                room[dealer] -= 1
        # per seat the cards placed and the room left, as lists with the kitty's last (KITTY is -1):
        # what a draw fills and counts down
        self.out = [out.get(s, []) for s in range(obs.players)] + [out.get(KITTY, [])]
        self.room = [room.get(s, 0) for s in range(obs.players)] + [room.get(KITTY, 0)]
        self.cards = list(pool.elements())
        self.allowed: dict[tuple[bool, bool], Allowed] = {}

    def options(self, strict: bool, voids: bool) -> Allowed:
        """Per card kind (a list by kind): the index of its set of allowed seats (kinds allowed
        the same seats share one) and their number; the sets, in seat order."""
        got = self.allowed.get((strict, voids))
        if got is None:
            mem, eff = self.mem, self.mem.ctx.eff

            def allowed(s: int, c: int) -> bool:
                if s == KITTY:
                    return not (strict and eff[c] == TRUMP)
                return not voids or eff[c] not in mem.void[s]

            sets: dict[tuple[int, ...], int] = {}
            group = [0] * NUM_KINDS
            sizes = [0] * NUM_KINDS
            for c in set(self.cards):
                seats = tuple(s for s in self.sizes if allowed(s, c))
                group[c] = sets.setdefault(seats, len(sets))
                sizes[c] = len(seats)
            got = self.allowed[strict, voids] = (group, sizes, tuple(sets))
        return got


def _dealer_copies(obs: Observation, mem: Memory) -> list[int]:
    """Find-a-friend: the called cards the dealer is taken to hold a copy of, unseen by this seat.

    The dealer calls a card it holds one copy of whenever it can, so that the holder of the
    other copy is its partner (:func:`.base.default_friend_card`: 98 % of calls in heuristic
    self-play); a sample that dealt that copy elsewhere would usually make the wrong seat the
    friend — the friend itself, holding the other copy, would often not be its own partner.
    Not when the call has shown, when the dealer played a copy already (it held it, and it is
    gone), or when it has shown void in that suit."""
    dealer = obs.dealer
    if dealer is None or dealer == obs.seat or obs.friend_known:
        return []
    tricks = [t for t in (*obs.tricks, obs.trick) if t is not None]
    played = {c for t in tricks for s, p in zip(t.seats, t.plays, strict=False) if s == dealer for c in p}
    return [
        card
        for (card, nth), shown in zip(obs.friend_calls, obs.calls_shown, strict=True)
        if not nth and not shown and card not in played and mem.ctx.eff[card] not in mem.void[dealer]
    ]


# The last observation's preparation (a search draws many deals for one), per thread: a server
# searches for several tables at once on worker threads, and one table's draws must not throw
# away another's preparation.
_LAST = threading.local()


def _prepared(obs: Observation, mem: Memory, sizes: dict[int, int]) -> _Prepared:
    got: _Prepared | None = getattr(_LAST, "prepared", None)
    if got is None or got.obs is not obs or got.mem is not mem or got.sizes != sizes:
        got = _LAST.prepared = _Prepared(obs, mem, sizes)
    return got


def _try_sample(prep: _Prepared, rng: random.Random, *, strict: bool, voids: bool) -> list[list[int]] | None:
    """Per seat its hidden cards, the kitty's last (KITTY is -1), or None when this draw does not fit."""
    room = list(prep.room)
    out = [list(cards) for cards in prep.out]
    cards = list(prep.cards)
    shuffle(cards, rng)
    # the most constrained cards first, so a void-heavy seat does not end up with leftovers
    group, sizes, sets = prep.options(strict, voids)
    cards.sort(key=sizes.__getitem__)
    random_ = rng.random
    # each set of allowed seats, less the seats already full: the same until another seat fills
    open_seats: list[list[int] | None] = [None] * len(sets)
    # the room of the last card's open seats, when it drew among several: one less for the next
    # card of the same set (the cards come sorted, so most follow one of their own set)
    last = -1
    total = 0
    for c in cards:
        g = group[c]
        seats = open_seats[g]
        if seats is None:
            seats = open_seats[g] = [s for s in sets[g] if room[s] > 0]
        if len(seats) == 1:  # r = random() * room[s] - room[s] < 0: this seat (the draw is made all the same)
            random_()
            s = seats[0]
            last = -1
        elif not seats:
            return None
        else:
            if g != last:
                total = sum(map(room.__getitem__, seats))
                last = g
            r = random_() * total
            for s in seats:
                r -= room[s]
                if r < 0:
                    break
            total -= 1
        out[s].append(c)
        room[s] -= 1
        if not room[s]:
            open_seats = [None] * len(sets)
            last = -1
    if strict:
        mem, eff = prep.mem, prep.mem.ctx.eff
        for s, lacks in enumerate(mem.no_pairs):
            if lacks:
                hand = out[s]
                suited = [c for c in hand if eff[c] in lacks]
                if len(set(suited)) < len(suited):  # a pair in a suit it has shown it holds none of
                    return None
    return out


def shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same swaps from the same draws, without a method call per
    card (a plain :class:`random.Random` draws each swap with ``_randbelow``'s getrandbits
    loop, written out here; any other generator shuffles itself)."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    steps = _SWAPS.get(len(cards)) or _swaps(len(cards))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_SWAPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle's swaps of a list of ``size``: per position ``i`` from the last down to 1, the
    number of positions it draws from (``i + 1``) and their bit length, made once per size."""
    got = _SWAPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return got


def build_round(obs: Observation, hands: list[list[int]], kitty: list[int], rules: RuleSet | None = None) -> Round:
    """A Round in the play phase with the given hands, the observed trick and the score so far.

    Made through the normal constructor (so every field exists) and then put in position; the
    engine's behaviour is not changed. Finished tricks are not rebuilt: play only needs the
    current one, the score and the hands.
    """
    rules = rules or obs.rules or load_rules(None)
    assert obs.dealer is not None
    deck = new_deck(rules.decks)
    rnd = Round(rules=rules, deck=deck, level=obs.level, dealer=obs.dealer)
    rnd.dealt = len(deck) - rnd.kitty_size
    rnd.hands = [list(h) for h in hands]
    rnd.kitty = list(kitty)
    rnd.ctx = obs.ctx
    rnd.phase = Phase.PLAY
    rnd.turn = obs.turn
    rnd.attacker_points = obs.attacker_points
    rnd.burier = obs.dealer
    if rnd.find_friend and obs.friend_calls:
        _place_friends(rnd, obs, hands)
    for done in obs.tricks:
        if done.winner is not None:  # points won per seat decide the final score
            rnd.seat_points[done.winner] += done.points
        if done.attempted is not None:  # for the throw-penalty variant
            rnd.failed_throws[done.leader] += 1
    t = obs.trick
    trick = Trick(t.leader if t is not None else obs.seat)
    if t is not None and t.plays:
        trick.seats = list(t.seats)
        trick.plays = list(t.plays)
        trick.lead_comps = decompose(t.plays[0], obs.ctx)
        trick.attempted = t.attempted
    rnd.trick = trick
    return rnd


def _place_friends(rnd: Round, obs: Observation, hands: list[list[int]]) -> None:
    """Find-a-friend: the partnership the sample implies, so rollouts play as two real sides.

    A call that has shown its friend is known to all. A hidden ``holder`` call's friend is, in
    this sample, the first seat after the dealer still holding the called card (a seat that
    already played a copy without being revealed no longer holds that copy); a ``nth_played``
    call is settled as the rollout plays the called copy.
    """
    assert obs.dealer is not None
    seats: list[int | None] = []
    for (card, nth), seat, shown in zip(obs.friend_calls, obs.friend_seats, obs.calls_shown, strict=True):
        seats.append(seat if shown or nth else find_friend(hands, obs.dealer, card, obs.players))
    played = [c for t in obs.tricks for p in t.plays for c in p]
    if obs.trick is not None:
        played += [c for p in obs.trick.plays for c in p]
    rnd.set_friend_calls(obs.friend_calls, seats, obs.calls_shown, played)


__all__ = ["sample_hidden", "build_round", "KITTY"]
