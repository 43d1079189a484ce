"""The coach: why a play was refused (which obligation applied), hints from the strongest bot,
and the post-round review of the tricks where points were lost.

Explanations are built from the seat's own hand and public play only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..bots.base import Bot
from ..bots.registry import make_bot
from ..cards import BJ, LJ, cards_str, pretty
from ..combos import decompose
from ..engine.legal import lead_combos
from ..engine.round import Round
from ..errors import Reason
from ..messages import text
from ..trump import TRUMP, TrumpContext
from .protocol import reason_text

STRONGEST = ("expert", "hard", "normal", "heuristic", "easy")


def say(key: str, lang: str, /, **fields: object) -> str:
    """A text of the coach (the catalogs' ``coach`` section)."""
    return text("coach", key, lang, **fields)


def show(cards: Sequence[int], lang: str = "en") -> str:
    out = []
    for c in cards:
        if c == BJ:
            out.append(say("big_joker", lang))
        elif c == LJ:
            out.append(say("small_joker", lang))
        else:
            out.append(pretty(c))
    return " ".join(out)


def suit_name(eff: int, lang: str) -> str:
    return say(f"suit_{eff}", lang)


def seat_name(names: Sequence[str], seat: int | None, lang: str) -> str:
    if seat is None:
        return "?"
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return say("seat", lang, seat=seat)


def explain(
    code: str, rnd: Round, seat: int | None, cards: Sequence[int], lang: str, names: Sequence[str] = (), **fields: object
) -> str:
    """A sentence or two saying which obligation refused ``cards`` (the "why?" of the coach)."""
    base = reason_text(code, lang, **fields)
    try:
        extra = _explain(code, rnd, seat, cards, lang, names)
    except Exception:  # the coach must never break the table
        extra = None
    return say("sentences", lang, first=base, second=extra) if extra else base


def _explain(code: str, rnd: Round, seat: int | None, cards: Sequence[int], lang: str, names: Sequence[str]) -> str | None:
    if code == Reason.NOT_YOUR_TURN:
        return say("turn", lang, who=seat_name(names, rnd.turn, lang))
    if seat is None:
        return None
    ctx = rnd.ctx or rnd.level_ctx
    hand = rnd.hands[seat]
    if code == Reason.MIXED_SUITS:
        suits = sorted({ctx.eff[c] for c in cards})
        return say("mixed_suits", lang, suits=say("sep", lang).join(suit_name(s, lang) for s in suits))
    if code == Reason.WRONG_KITTY_SIZE:
        return say("kitty_chosen", lang, n=len(cards))
    if code in (Reason.NOT_IN_HAND, Reason.EMPTY_PLAY):
        return None
    trick = rnd.trick
    if trick is None or not trick.plays:
        return None
    lead = trick.plays[0]
    n = len(lead)
    e = ctx.eff[lead[0]]
    suit = suit_name(e, lang)
    own = [c for c in hand if ctx.eff[c] == e]
    lead_s = show(lead, lang)
    if code == Reason.WRONG_COUNT:
        return say("wrong_count", lang, lead=lead_s, n=n)
    if code == Reason.MUST_FOLLOW_SUIT:
        if len(own) <= n:
            own_s = show(sorted(own, key=ctx.sort_key.__getitem__), lang)
            return say("follow_all", lang, suit=suit, lead=lead_s, held=len(own), own=own_s)
        return say("follow_suit", lang, suit=suit, lead=lead_s, held=len(own), n=n)
    comps = trick.lead_comps or decompose(lead, ctx)
    if code == Reason.MUST_PLAY_TRACTOR:
        need = [c for c in comps if c.m > 1]
        mine = _tractors(own, ctx, need[0].k if need else 2, need[0].m if need else 2)
        return say("tractor", lang, lead=lead_s, suit=suit, held=show(mine[0], lang) if mine else "?")
    if code in (Reason.MUST_PLAY_PAIR, Reason.MUST_PLAY_TRIPLE, Reason.MUST_PLAY_QUAD):
        k = {Reason.MUST_PLAY_PAIR: 2, Reason.MUST_PLAY_TRIPLE: 3}.get(Reason(code), 4)
        counts = Counter(own)
        tuples_held = [c for c in sorted(counts, key=ctx.sort_key.__getitem__) if counts[c] >= k]
        lead_tuples = sum(c.m * (c.k // k) for c in comps if c.k >= k)
        chosen_tuples = sum(v // k for v in Counter(cards).values())
        held = " ".join(show((c,) * k, lang).replace(" ", "") for c in tuples_held)
        return say(f"tuples_{k}", lang, n=lead_tuples, lead=lead_s, suit=suit, held=held, chosen=chosen_tuples)
    return None


def _tractors(cards: Sequence[int], ctx: TrumpContext, k: int, m: int) -> list[tuple[int, ...]]:
    out = []
    for combo in lead_combos(list(cards), ctx):
        if len(combo) == k * m:
            comps = decompose(combo, ctx)
            if len(comps) == 1 and comps[0].m == m and comps[0].k == k:
                out.append(combo)
    return out


def declare_explain(rnd: Round, lang: str, names: Sequence[str]) -> str | None:
    """What stands now, for weak/self-override refusals."""
    bid = rnd.bid
    if bid is None:
        return None
    return say("declared", lang, who=seat_name(names, bid.seat, lang), shown=show(bid.cards, lang))


# ------------------------------------------------------------------ hints
def strongest_bot(seed: int | None = None) -> Bot:
    for name in STRONGEST:
        try:
            return make_bot(name, seed=seed)
        except ValueError:
            continue
    return make_bot("random", seed=seed)


# ------------------------------------------------------------------ review
def review(rnd: Round, viewer: int | None, lang: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """The finished round's tricks where the viewer's side lost points.

    Defenders (the dealer's team) lose the points of every trick the attackers win; attackers
    "lose" the points left in tricks the defenders win. A spectator sees the defenders' view.
    """
    if rnd.dealer is None or not rnd.tricks:
        return []
    attacker_view = viewer is not None and rnd.is_attacker(viewer)
    out = []
    for i, t in enumerate(rnd.tricks):
        if not t.points or t.winner is None:
            continue
        won_by_attackers = rnd.is_attacker(t.winner)
        if attacker_view == won_by_attackers:
            continue  # our side took these points (or kept them safe)
        ours = [s for s in t.seats if rnd.is_attacker(s) == attacker_view]
        given = sum(_pts(p) for s, p in zip(t.seats, t.plays, strict=False) if s in ours)
        win_play = t.plays[t.seats.index(t.winner)]
        note = say("review_trick", lang, who=seat_name(names, t.winner, lang), cards=show(win_play, lang), points=t.points)
        if given:
            note = say("review_given", lang, note=note, given=given)
        out.append(
            {
                "trick": i + 1,
                "leader": t.leader,
                "winner": t.winner,
                "points": t.points,
                "given": given,
                "plays": [{"seat": s, "cards": cards_str(p)} for s, p in zip(t.seats, t.plays, strict=False)],
                "note": note,
            }
        )
    res = rnd.result
    if res is not None and res.kitty_captured and res.kitty_points and not attacker_view:
        out.append(
            {
                "trick": len(rnd.tricks),
                "kitty": True,
                "points": res.kitty_points * res.multiplier,
                "note": say("review_kitty", lang, points=res.kitty_points, multiplier=res.multiplier),
            }
        )
    return out


def _pts(cards: Sequence[int]) -> int:
    from ..cards import POINTS

    return sum(POINTS[c] for c in cards)


def effective_suits(cards: Sequence[int], ctx: TrumpContext) -> list[int]:
    """Effective suit per card (0..3, 4 = trump), for grouping a hand on screen."""
    eff = ctx.eff
    return [TRUMP if eff[c] == TRUMP else eff[c] for c in cards]
