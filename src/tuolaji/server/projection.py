"""What one seat is sent: plain functions from the game (and the room core) to wire messages.

Nothing here touches a socket or the event loop: every function reads the match (and, for the
room-wide parts, the :class:`~tuolaji.server.room.Room` core) and returns the typed messages of
:mod:`tuolaji.server.wire`. Each seat's messages hold only what that seat may see: its own hand,
the redacted event log and public summaries; a finished round is public as a whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..cards import LevelIndex, cards_str, suit_letter
from ..engine.actions import Declare, Redeal
from ..engine.events import Buried, Dealt, Event, KittyTaken, Played
from ..engine.legal import is_legal
from ..engine.match import Match, RoundStarted
from ..engine.round import Phase, Round
from ..engine.view import round_view
from ..errors import IllegalAction
from ..ruleset import FriendCall
from ..scoring import level_name
from . import coach
from .wire import (
    Options,
    PublicSummary,
    ReplayFrame,
    ReplayLabel,
    ReplayResponse,
    RoundView,
    Side,
    Summary,
    TableView,
    WireEvent,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

OWNED_EVENTS = (Dealt, KittyTaken, Buried)  # hidden from every seat but their own


# ------------------------------------------------------------------ the table view
def sides(rnd: Round) -> list[Side | None]:
    """Per seat: "dealer" side, "attacker", or None while unknown (publicly known only)."""
    if rnd.dealer is None:
        return [None] * rnd.players
    if rnd.find_friend and not rnd.friend_revealed:  # until every friend shows, the dealer and those shown
        shown = (rnd.dealer, *rnd.shown_friends())
        return ["dealer" if s in shown else None for s in range(rnd.players)]
    return ["attacker" if rnd.publicly_attacker(s) else "dealer" for s in range(rnd.players)]


def table_view(match: Match, seat: int | None) -> TableView:
    """The match as ``seat`` sees it (None: a spectator, no hand), with level names and sides."""
    view = cast(TableView, match.view(seat))
    view["level_names"] = [level_name(x) for x in match.levels]
    view["sides"] = sides(match.round)
    return view


def seat_view(match: Match, public: TableView, seat: int | None) -> TableView:
    """``table_view(match, seat)`` made from the spectator's view of the same moment: only the
    seat, its hand and (for the seat that buried it) the kitty differ, so a room builds the
    rest once for all its connections (tests/test_server_views.py checks they are equal)."""
    if seat is None:
        return public
    rnd = match.round
    view = cast(TableView, dict(public))
    view["seat"] = seat
    view["hand"] = cards_str(rnd.level_ctx.sort(rnd.hands[seat]))
    if rnd.phase != Phase.DONE and seat == rnd.burier and rnd.phase != Phase.BURY:
        view["kitty"] = cards_str(rnd.kitty)
    return view


def declaration_choices(rnd: Round, seat: int) -> list[tuple[int, ...]]:
    """Declarations ``seat`` may make now (the engine's options, checked against the round)."""
    if rnd.phase != Phase.DEAL and rnd.turn != seat:
        return []
    if rnd.phase == Phase.DEAL and rnd.dealt == 0:
        return []
    out = []
    for cards in rnd.declaration_options(seat):
        try:
            rnd.check(Declare(seat, tuple(cards)))
        except IllegalAction:
            continue
        out.append(tuple(cards))
    return out


def kitty_taken(rnd: Round, seat: int) -> list[int] | None:
    """The cards ``seat`` took from the kitty this round (None: it took none, or another did)."""
    for ev in reversed(rnd.events):
        if isinstance(ev, KittyTaken):
            return list(ev.cards) if ev.seat == seat and ev.cards is not None else None
    return None


def options(match: Match, seat: int) -> Options:
    """What ``seat`` may do now, for the buttons and the legal-play hint (own hand only)."""
    rnd = match.round
    phase = rnd.phase
    ctx = rnd.level_ctx
    hand = ctx.sort(list(rnd.hands[seat]))
    out: Options = {"phase": phase.value, "turn": rnd.turn == seat, "eff": coach.effective_suits(hand, ctx)}
    if phase in (Phase.DEAL, Phase.DECLARE, Phase.OVERRIDE):
        out["declare"] = [cards_str(c) for c in declaration_choices(rnd, seat)]
        out["can_pass"] = phase != Phase.DEAL and rnd.turn == seat
        out["can_redeal"] = phase == Phase.DECLARE and is_legal(rnd, Redeal(seat))
    elif phase == Phase.BURY and rnd.turn == seat:
        out["bury"] = rnd.kitty_size
        taken = kitty_taken(rnd, seat)
        out["from_kitty"] = cards_str(taken) if taken is not None else []
    elif phase == Phase.CALL_FRIEND and rnd.turn == seat:
        out["call_friend"] = True
        if rnd.rules.friend_call == FriendCall.NTH_PLAYED:
            out["friend_copies"] = rnd.rules.decks
    elif phase == Phase.SURRENDER and rnd.turn == seat and rnd.surrender_by is not None:
        out["answer_surrender"] = rnd.surrender_by
    elif phase == Phase.PLAY and rnd.turn == seat and rnd.trick is not None:
        trick = rnd.trick
        if trick.plays:
            lead = trick.plays[0]
            e = ctx.eff[lead[0]]
            n = len(lead)
            in_suit = [ctx.eff[c] == e for c in hand]
            short = sum(in_suit) <= n
            out["follow"] = {"count": n, "suit": "SHCDT"[e] if e < 4 else "T"}  # type: ignore[typeddict-item]
            # legal-play hint: which cards may be part of a play, which must be
            out["playable"] = [True] * len(hand) if short else in_suit
            out["required"] = in_suit if short else [False] * len(hand)
        else:
            out["lead"] = True
        out["can_surrender"] = rnd.surrender_refusal(seat) is None
    return out


# ------------------------------------------------------------------ summaries
def levels_before(match: Match, number: int) -> list[LevelIndex] | None:
    """The levels when round ``number`` started (from its ``round_started`` event)."""
    for ev in reversed(match.events):
        if isinstance(ev, RoundStarted) and ev.number == number:
            return list(ev.levels)
    return None


def round_summary(match: Match, seat: int | None, lang: str, names: Sequence[str]) -> Summary | None:
    """The last finished round, public: result, kitty, last trick, and the coach's review for
    ``seat``'s side (a spectator gets the defenders' review)."""
    if not match.rounds:
        return None
    rnd = match.rounds[-1]
    if rnd.result is None:
        return None
    number = len(match.rounds)
    before = levels_before(match, number)
    last = rnd.tricks[-1] if rnd.tricks else None
    return cast(
        Summary,
        {
            "round": number,
            "level": rnd.level,
            "dealer": rnd.dealer,
            "trump": suit_letter(rnd.trump),
            "result": rnd.result.to_dict(),
            "sides": ["attacker" if rnd.is_attacker(s) else "dealer" for s in range(rnd.players)],
            "levels_before": before,
            "levels_after": list(match.levels),
            "level_names_before": None if before is None else [level_name(x) for x in before],
            "level_names_after": [level_name(x) for x in match.levels],
            "points_total": match.rules.points_total,
            "last_trick": None
            if last is None or last.winner is None
            else {
                "plays": [{"seat": s, "cards": cards_str(p)} for s, p in zip(last.seats, last.plays, strict=False)],
                "winner": last.winner,
                "points": last.points,
            },
            "review": coach.review(rnd, seat, lang, names),
            "winner": match.winner,
            "stake": match.rules.stake,
            "purses": list(match.purses),
        },
    )


def public_summary(match: Match, names: list[str]) -> PublicSummary:
    """The game for the start page's list: levels, round, winner, names, teams."""
    return {
        "levels": list(match.levels),
        "level_names": [level_name(x) for x in match.levels],
        "round": match.round_number,
        "winner": match.winner,
        "rules": match.rules.name,
        "names": names,
        "players": match.rules.players,
        "teams": [match.holder(s) for s in range(match.rules.players)],
    }


# ------------------------------------------------------------------ the event log
class EventLog:
    """``match.events`` as each seat may see them, each event's JSON built once.

    An event that hides something (a dealt card, the kitty) is shown whole only to the seat it
    belongs to; every other seat gets its redacted form.

    Only the current round's and the last finished round's JSON is kept (``base`` is the index
    of the first event kept): a long match would otherwise hold every event of every round
    twice, as objects and as JSON. Older events are only wanted again by a client or a save
    that fell a whole round behind, and are built again for it.
    """

    def __init__(self, match: Match) -> None:
        self.match = match
        self.base = 0
        # per event from ``base``: (its JSON, the seat that may see it whole or None for everyone, the JSON others get)
        self.cache: list[tuple[WireEvent, int | None, WireEvent | None]] = []
        self.starts: list[int] = []  # indices of the round starts from ``base`` on
        self.round_starts: list[int] = []  # index of every round's start (round n at [n - 1])

    @staticmethod
    def _entry(ev: Event) -> tuple[WireEvent, int | None, WireEvent | None]:
        full = cast("WireEvent", ev.to_dict())
        hidden = ev.redacted(None)
        if hidden is ev:
            return full, None, None
        assert isinstance(ev, OWNED_EVENTS), f"{type(ev).__name__} hides something from its own seat"
        return full, ev.seat, cast("WireEvent", hidden.to_dict())

    def _fill(self) -> None:
        events = self.match.events
        cache = self.cache
        n = len(events)
        if n < self.base + len(cache):  # pragma: no cover - events are only appended
            raise RuntimeError("the match's events went back")
        while self.base + len(cache) < n:
            i = self.base + len(cache)
            if isinstance(events[i], RoundStarted):
                self.starts.append(i)
                self.round_starts.append(i)
            cache.append(self._entry(events[i]))
        if len(self.starts) > 2:  # forget what comes before the last finished round
            keep = self.starts[-2]
            del cache[: keep - self.base]
            del self.starts[:-2]
            self.base = keep

    def sync(self) -> None:
        """Take in the events appended since the last call."""
        self._fill()

    def _entries(self, start: int, end: int) -> list[tuple[WireEvent, int | None, WireEvent | None]]:
        self._fill()
        if start < self.match.released:
            raise ValueError(f"events before {self.match.released} were released (the store has them)")
        base = self.base
        old = [self._entry(ev) for ev in self.match.events[start : min(end, base)]] if start < base else []
        return old + self.cache[max(0, start - base) : max(0, end - base)]

    def for_seat(self, start: int, end: int, seat: int | None) -> list[WireEvent]:
        """Events ``start:end`` as ``seat`` may see them."""
        return [
            full if owner is None or owner == seat else cast("WireEvent", other)
            for full, owner, other in self._entries(start, end)
        ]

    def full(self, start: int) -> list[tuple[int, WireEvent]]:
        """Events from ``start`` whole, as (index, JSON) pairs for saving (shared: do not change them)."""
        return [(i, entry[0]) for i, entry in enumerate(self._entries(start, len(self.match.events)), start)]


# ------------------------------------------------------------------ replays
def replay_frames(match: Match, number: int, seat: int | None, saved: Sequence[Event] | None = None) -> ReplayResponse:
    """Frames of finished round ``number`` as ``seat`` saw it: after the bury, then after every
    play. Only finished rounds may be replayed (every card of a finished round is public at its
    end). The round is played again from its own deal and start, so the cost is one round's,
    whichever round of however long a match. ``saved``: the round's events from its
    ``round_started`` on, read back from the store, for a round the match let go of
    (:meth:`Match.release`).
    """
    if not 1 <= number <= len(match.rounds):
        raise ValueError(f"round {number} is not finished; finished rounds: 1..{len(match.rounds)}")
    events = match.events if saved is None else saved
    start = next((ev for ev in events if isinstance(ev, RoundStarted) and ev.number == number), None)
    if start is None:
        raise ValueError(f"round {number} has no start in this game")
    played = match.rounds[number - 1].events if saved is None else saved
    rnd = Round(rules=match.rules, deck=match.deals[number - 1], level=start.level, dealer=start.dealer)
    from ..record import action_of_event

    frames: list[ReplayFrame] = []
    last_phase = rnd.phase
    for ev in played:
        if rnd.phase == Phase.DONE:
            break  # (saved events run on to the match's end)
        action = action_of_event(ev)
        if action is None:
            continue  # an event the engine derives itself
        rnd.apply(action)
        phase = rnd.phase
        label: ReplayLabel | None = None
        if isinstance(ev, Played):
            in_progress = rnd.trick is not None and bool(rnd.trick.plays)
            label = {
                "e": "played",
                "seat": ev.seat,
                "cards": cards_str(ev.cards),
                "attempted": None if ev.attempted is None else cards_str(ev.attempted),
                "trick": len(rnd.tricks) + (1 if in_progress else 0),
            }
        elif isinstance(ev, Buried):
            label = {"e": "buried", "seat": rnd.burier}
        elif phase != last_phase and phase == Phase.DECLARE:
            label = {"e": "last_call"}
        elif phase != last_phase and phase == Phase.BURY:
            label = {"e": "kitty_taken", "seat": rnd.turn}
        elif phase != last_phase and phase not in (Phase.DEAL, Phase.DONE, Phase.PLAY):
            label = {"e": phase.value, "seat": rnd.turn}
        if label is not None:
            frames.append({"label": label, "view": cast(RoundView, round_view(rnd, seat))})
        last_phase = phase
    return {
        "round": number,
        "seat": seat,
        "rounds": len(match.rounds),
        "frames": frames,
        "players": match.rules.players,
        "levels": list(start.levels),
        "level_names": [level_name(x) for x in start.levels],
    }  # as they stood in that round
