"""What one seat may see: its own hand, public play, never another hand or a hidden kitty.

Views are plain JSON-ready dicts so the same object serves bots, the terminal, the web client
and the judge. ``seat=None`` is a spectator's view (no hand at all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import cards_str, suit_letter
from .round import Phase, Round

if TYPE_CHECKING:
    from .match import Match


def _suit(trump: int | None) -> str | None:
    return suit_letter(trump)


def round_view(rnd: Round, seat: int | None) -> dict[str, Any]:
    done = rnd.phase == Phase.DONE
    ctx = rnd.level_ctx
    hand = ctx.sort(rnd.hands[seat]) if seat is not None else []
    kitty: list[str] | None = None
    if done or (seat is not None and seat == rnd.burier and rnd.phase != Phase.BURY):
        kitty = cards_str(rnd.kitty)
    trick = rnd.trick
    last = rnd.tricks[-1] if rnd.tricks else None
    return {
        "seat": seat,
        "phase": rnd.phase.value,
        "turn": rnd.turn,
        "level": rnd.level,
        "dealer": rnd.dealer,
        "trump": _suit(rnd.trump),
        "trump_fixed": rnd.ctx is not None,
        "bid": None if rnd.bid is None else {"seat": rnd.bid.seat, "cards": cards_str(rnd.bid.cards)},
        "overrides": rnd.overrides,
        "friend_card": None if rnd.friend_card is None else cards_str([rnd.friend_card])[0],
        "friend_calls": [
            {"card": cards_str([card])[0], "nth": nth, "shown": shown, "seat": seat if shown else None}
            for (card, nth), seat, shown in zip(rnd.friend_calls, rnd.call_seats, rnd.call_shown, strict=True)
        ],
        "friends": rnd.rules.friends_value if rnd.find_friend else 0,
        "dealer_side": [s for s in range(rnd.players) if rnd.dealer is not None and not rnd.publicly_attacker(s)],
        "seat_points": list(rnd.seat_points),
        "hand": cards_str(hand),
        "hand_sizes": [len(h) for h in rnd.hands],
        "dealt": rnd.dealt,
        "kitty_size": rnd.kitty_size,
        "kitty": kitty,
        "trick": None
        if trick is None
        else {
            "leader": trick.leader,
            "plays": [{"seat": s, "cards": cards_str(p)} for s, p in zip(trick.seats, trick.plays, strict=False)],
            "attempted": None if trick.attempted is None else cards_str(trick.attempted),
        },
        "last_trick": None
        if last is None
        else {
            "leader": last.leader,
            "plays": [{"seat": s, "cards": cards_str(p)} for s, p in zip(last.seats, last.plays, strict=False)],
            "winner": last.winner,
            "points": last.points,
        },
        "tricks_played": len(rnd.tricks),
        "attacker_points": rnd.attacker_points,
        "result": None if rnd.result is None else rnd.result.to_dict(),
        "redeal": rnd.redeal,
        "surrender": None if rnd.surrender_by is None else {"by": rnd.surrender_by, "waiting": list(rnd.surrender_waiting)},
    }


def match_view(match: Match, seat: int | None) -> dict[str, Any]:
    view = round_view(match.round, seat)
    view.update(
        {
            "levels": list(match.levels),
            "round_number": match.round_number,
            "winner": match.winner,  # None while the match goes on, and for a draw
            "over": match.over,
            "draw": match.drawn,  # over with no single side ahead (seed 003's tie rule left several)
            "time_up": match.time_up,  # a timed match ended at its deadline (the round in play unscored)
            "purses": list(match.purses),  # coins won (+) or lost (-) per seat; all 0 without a stake
        }
    )
    return view


def events_for(events: list[Any], seat: int | None) -> list[dict[str, Any]]:
    """The event log as ``seat`` may see it (redacted), in JSON form."""
    return [e.redacted(seat).to_dict() for e in events]
