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
from ..trump import TRUMP, TrumpContext
from .protocol import reason_text

SUIT_EN = ("spades", "hearts", "clubs", "diamonds", "trumps")
SUIT_ZH = ("黑桃", "红桃", "梅花", "方块", "主牌")
STRONGEST = ("expert", "hard", "normal", "heuristic", "easy")


def zh(lang: str) -> bool:
    return lang.startswith("zh")


def show(cards: Sequence[int], lang: str = "en") -> str:
    out = []
    for c in cards:
        if c == BJ:
            out.append("大王" if zh(lang) else "BJ")
        elif c == LJ:
            out.append("小王" if zh(lang) else "LJ")
        else:
            out.append(pretty(c))
    return " ".join(out)


def suit_name(eff: int, lang: str) -> str:
    return (SUIT_ZH if zh(lang) else SUIT_EN)[eff]


def seat_name(names: Sequence[str], seat: int | None, lang: str) -> str:
    if seat is None:
        return "?"
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"{seat} 号位" if zh(lang) else f"seat {seat}"


def explain(code: str, rnd: Round, seat: int | None, cards: Sequence[int], lang: str,
            names: Sequence[str] = (), **fields: object) -> str:
    """A sentence or two saying which obligation refused ``cards`` (the "why?" of the coach)."""
    base = reason_text(code, lang, **fields)
    try:
        extra = _explain(code, rnd, seat, cards, lang, names)
    except Exception:  # the coach must never break the table
        extra = None
    return f"{base}. {extra}" if extra and not zh(lang) else f"{base}。{extra}" if extra else base


def _explain(code: str, rnd: Round, seat: int | None, cards: Sequence[int], lang: str,
             names: Sequence[str]) -> str | None:
    z = zh(lang)
    if code == "not_your_turn":
        who = seat_name(names, rnd.turn, lang)
        return f"现在轮到 {who}" if z else f"It is {who}'s turn now"
    if seat is None:
        return None
    ctx = rnd.ctx or rnd.level_ctx
    hand = rnd.hands[seat]
    if code == "mixed_suits":
        suits = sorted({ctx.eff[c] for c in cards})
        names_ = "、".join(suit_name(s, lang) for s in suits) if z else ", ".join(suit_name(s, lang) for s in suits)
        return (f"你选的牌来自：{names_}；主牌（王、级牌、主花色）算作同一门" if z else
                f"You chose cards from {names_}; all trumps (jokers, level cards, trump suit) count as one suit")
    if code in ("not_in_hand", "empty_play", "wrong_kitty_size"):
        if code == "wrong_kitty_size":
            return f"你选了 {len(cards)} 张" if z else f"You chose {len(cards)}"
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
    if code == "wrong_count":
        return f"首家出了 {lead_s}（{n} 张）" if z else f"The lead is {lead_s} ({n} cards)"
    if code == "must_follow_suit":
        if len(own) <= n:
            own_s = show(sorted(own, key=ctx.sort_key.__getitem__), lang)
            return (f"首家出的是{suit}（{lead_s}）。你只有 {len(own)} 张{suit}：{own_s}，必须全部出，其余任意"
                    if z else
                    f"The lead is {suit} ({lead_s}). You hold only {len(own)} {suit}: {own_s}; "
                    "play all of them, then anything")
        return (f"首家出的是{suit}（{lead_s}）。你有 {len(own)} 张{suit}，所以 {n} 张都必须是{suit}"
                if z else
                f"The lead is {suit} ({lead_s}). You hold {len(own)} {suit}, so all {n} cards must be {suit}")
    comps = trick.lead_comps or decompose(lead, ctx)
    if code == "must_play_tractor":
        need = [c for c in comps if c.m > 1]
        mine = _tractors(own, ctx, need[0].k if need else 2, need[0].m if need else 2)
        held = show(mine[0], lang) if mine else "?"
        return (f"首家出了拖拉机（{lead_s}）。你手里有同样长度的拖拉机，例如 {held}"
                if z else
                f"The lead holds a tractor ({lead_s}). You hold a {suit} tractor as long, e.g. {held}; play it")
    if code in ("must_play_pair", "must_play_triple", "must_play_quad"):
        k = {"must_play_pair": 2, "must_play_triple": 3}.get(code, 4)
        counts = Counter(own)
        tuples_held = [c for c in sorted(counts, key=ctx.sort_key.__getitem__) if counts[c] >= k]
        lead_tuples = sum(c.m * (c.k // k) for c in comps if c.k >= k)
        chosen = Counter(cards)
        chosen_tuples = sum(v // k for v in chosen.values())
        pairs_s = " ".join(show((c,) * k, lang).replace(" ", "") for c in tuples_held)
        return (f"首家出了 {lead_tuples} 个{'对子' if k == 2 else '三张'}（{lead_s}）。你的{suit}里有：{pairs_s}；"
                f"你只出了 {chosen_tuples} 个，能跟多少就必须跟多少"
                if z else
                f"The lead holds {lead_tuples} {'pair' if k == 2 else 'triple'}(s) ({lead_s}). Your {suit} hold "
                f"{pairs_s}; you chose {chosen_tuples}: play as many as the lead has and you hold")
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
    who = seat_name(names, bid.seat, lang)
    shown = show(bid.cards, lang)
    if zh(lang):
        return f"当前是 {who} 亮的 {shown}；要反主需要更大的对子（或一对王）"
    return f"{who} shows {shown}; to override, show a stronger pair (or a joker pair)"


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
        who = seat_name(names, t.winner, lang)
        if zh(lang):
            note = f"{who} 用 {show(win_play, lang)} 赢得此墩，{t.points} 分" + (f"，其中我方送出 {given} 分" if given else "")
        else:
            note = f"{who} won it with {show(win_play, lang)}: {t.points} points" + (
                f", {given} of them from our side" if given else "")
        out.append({
            "trick": i + 1, "leader": t.leader, "winner": t.winner, "points": t.points, "given": given,
            "plays": [{"seat": s, "cards": cards_str(p)} for s, p in zip(t.seats, t.plays, strict=False)],
            "note": note,
        })
    res = rnd.result
    if res is not None and res.kitty_captured and res.kitty_points and not attacker_view:
        out.append({"trick": len(rnd.tricks), "kitty": True, "points": res.kitty_points * res.multiplier,
                    "note": (f"底牌被抠：{res.kitty_points} 分 × {res.multiplier}" if zh(lang) else
                             f"the kitty was captured: {res.kitty_points} points × {res.multiplier}")})
    return out


def _pts(cards: Sequence[int]) -> int:
    from ..cards import POINTS

    return sum(POINTS[c] for c in cards)


def effective_suits(cards: Sequence[int], ctx: TrumpContext) -> list[int]:
    """Effective suit per card (0..3, 4 = trump), for grouping a hand on screen."""
    eff = ctx.eff
    return [TRUMP if eff[c] == TRUMP else eff[c] for c in cards]
