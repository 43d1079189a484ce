"""The judge protocol: one JSON request per line in, one JSON response per line out.

Programs in any language ask the engine rules questions (see ``docs/judge.md``). A malformed
or unanswerable request gets ``{"id": ..., "error": "..."}`` and the judge keeps reading.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, BinaryIO, TextIO

from .cards import POINTS, CardError, cards_str, level_rank, parse_cards, parse_suit, suit_letter
from .combos import decompose
from .declaring import bid_reason, read_bid, redeal_refusal, shown_cards
from .ruleset import PRESETS, FirstRoundDealer, RuleSet, RuleSetError, load_rules
from .scoring import kitty_multiplier, level_change, match_leader, parse_level, round_coins, surrender_total
from .tricks import check_throw, follow_reason, lead_reason, trick_winner
from .trump import JOKER_LEVEL, TrumpContext
from .validate import JSONInputError, loads, safe_dumps


class JudgeError(ValueError):
    pass


def _need(req: dict[str, Any], key: str) -> Any:
    if key not in req:
        raise JudgeError(f"missing {key!r}")
    return req[key]


def _cards(req: dict[str, Any], key: str, *, allow_empty: bool = False) -> list[int]:
    raw = _need(req, key)
    if not isinstance(raw, list):
        raise JudgeError(f"{key!r} must be a list of card strings")
    try:
        cards = parse_cards(raw)
    except CardError as exc:
        raise JudgeError(f"in {key!r}: {exc}") from None
    if not cards and not allow_empty:
        raise JudgeError(f"{key!r} is empty")
    return cards


def _card_lists(req: dict[str, Any], key: str, *, allow_empty: bool = False) -> list[list[int]]:
    raw = _need(req, key)
    if not isinstance(raw, list):
        raise JudgeError(f"{key!r} must be a list of card lists")
    for x in raw:  # every entry's type before any entry's cards
        if type(x) is not list and not isinstance(x, list):
            raise JudgeError(f"{key!r} must be a list of card lists")
    try:
        out = list(map(parse_cards, raw))
    except CardError:
        out = []
    if len(out) == len(raw) and (allow_empty or all(out)):
        return out
    for i, lst in enumerate(raw):  # a refusal: name the first entry at fault, as it comes
        try:
            cards = parse_cards(lst)
        except CardError as exc:
            raise JudgeError(f"in {key!r}[{i}]: {exc}") from None
        if not cards and not allow_empty:
            raise JudgeError(f"{key!r}[{i}] is empty")
    raise AssertionError("a card list both read and refused")  # pragma: no cover


_RULES_SEEN: dict[str, RuleSet] = {}  # settings objects already validated, by their JSON text
_RULES_SEEN_MAX = 256


def _rules(spec: dict[str, Any]) -> RuleSet:
    """``load_rules`` of a settings object, remembered: a client asks with the same settings again
    and again, and validating them is most of a short request (a RuleSet is frozen)."""
    key = safe_dumps(spec, sort_keys=True)
    rules = _RULES_SEEN.get(key)
    if rules is None:
        rules = load_rules(spec)
        if len(_RULES_SEEN) >= _RULES_SEEN_MAX:
            _RULES_SEEN.clear()
        _RULES_SEEN[key] = rules
    return rules


_CONTEXTS: dict[tuple[object, ...], tuple[RuleSet, TrumpContext]] = {}  # see _context
_CONTEXTS_MAX = 1024
_PLAIN = (str, int, type(None))  # JSON values a context key may hold (lists and objects are read each time)
_SETTING = (str, int, bool, type(None))  # values of a settings object remembered by its items (no floats: -0.0 == 0.0)


def _context(req: dict[str, Any]) -> tuple[RuleSet, TrumpContext]:
    """The rules and trump context a request names, remembered for a preset, the default rules or
    a settings object of plain values: clients ask again and again with the same few (types in the
    key: ``true`` is not ``1``; a settings object by its items in order)."""
    spec, decks, level, trump = req.get("rules"), req.get("decks"), req.get("level"), req.get("trump")
    if not (type(decks) in _PLAIN and type(level) in _PLAIN and type(trump) in _PLAIN):
        return _read_context(req)
    rules_key: object = spec
    if type(spec) is dict:  # a settings object of plain values: its items, with their types
        rules_key = tuple([(k, type(v), v) for k, v in spec.items()])
        if not all(type(v) in _SETTING for v in spec.values()):
            return _read_context(req)
    elif type(spec) not in _PLAIN:
        return _read_context(req)
    # absent decks (the rules' own) is not null decks (refused)
    key = (type(spec), rules_key, "decks" in req, type(decks), decks, type(level), level, type(trump), trump)
    got = _CONTEXTS.get(key)
    if got is None:
        got = _read_context(req)  # a request it refuses is refused again each time
        if len(_CONTEXTS) >= _CONTEXTS_MAX:
            _CONTEXTS.clear()
        _CONTEXTS[key] = got
    return got


def _read_context(req: dict[str, Any]) -> tuple[RuleSet, TrumpContext]:
    spec = req.get("rules")
    if spec is not None and not isinstance(spec, (str, dict)):
        raise JudgeError("'rules' must be a preset name or a settings object")
    if isinstance(spec, str) and spec not in PRESETS:  # never a path: the judge reads no files
        raise JudgeError(f"no rules preset named {spec!r}; presets: {', '.join(sorted(PRESETS))}")
    try:
        rules = _rules(spec) if isinstance(spec, dict) else load_rules(spec)
    except RuleSetError as exc:
        raise JudgeError(str(exc)) from None
    decks = req.get("decks", rules.decks)
    if type(decks) is not int or not 1 <= decks <= 4:
        raise JudgeError(f"'decks' must be 1 to 4, not {decks!r}")
    if decks != rules.decks:
        try:
            rules = rules.replace(decks=decks, hand_size=None, kitty_size=None)
        except RuleSetError as exc:
            raise JudgeError(str(exc)) from None
    raw_level = _need(req, "level")
    if raw_level == "王":  # 打王 (seed 000 H, setting joker_level): the no-trump level after A
        if not rules.joker_level:
            raise JudgeError("level '王' is played only with \"joker_level\": true")
        level = JOKER_LEVEL
    else:
        try:
            level = level_rank(parse_level(str(raw_level)))
        except ValueError as exc:
            raise JudgeError(str(exc)) from None
    trump_raw = req.get("trump")
    if trump_raw is None or (isinstance(trump_raw, str) and trump_raw.upper() in ("NT", "NONE", "")):
        trump = None
    else:
        try:
            trump = parse_suit(trump_raw)
        except CardError:
            raise JudgeError(f"'trump' must be S, H, C, D or null, not {trump_raw!r}") from None
    if level == JOKER_LEVEL and trump is not None:
        raise JudgeError("the level '王' is played in no-trump: 'trump' must be null")
    ctx = TrumpContext(level, trump, decks, rules.notrump_level_tractor)
    return rules, ctx


def _suited(cards: list[int], ctx: TrumpContext, key: str) -> None:
    reason = lead_reason(cards, ctx)
    if reason == "mixed_suits":
        raise JudgeError(f"{key!r} mixes suits: a lead is all one suit or all trumps")


def op_winner(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    plays = _card_lists(req, "plays")
    if not plays:
        raise JudgeError("'plays' is empty: give at least the lead")
    _suited(plays[0], ctx, "plays[0]")
    n = len(plays[0])
    for p in plays:
        if len(p) != n:
            raise JudgeError("every play must have as many cards as the lead")
    return {"winner": trick_winner(plays, ctx)}


def op_legal(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    lead = _cards(req, "lead")
    _suited(lead, ctx, "lead")
    hand = _cards(req, "hand")
    play = _cards(req, "play", allow_empty=True)
    reason = follow_reason(lead, hand, play, ctx)
    return {"legal": reason is None, "reason": reason}


def op_throw(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    throw = _cards(req, "throw")
    _suited(throw, ctx, "throw")
    hands = _card_lists(req, "hands", allow_empty=True)
    ok, forced = check_throw(throw, hands, ctx)
    return {"ok": ok, "forced": None if forced is None else cards_str(forced)}


def op_combos(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    cards = _cards(req, "cards")
    return {
        "combos": [
            {"type": c.kind, "cards": cards_str(sorted(c.cards, key=ctx.sort_key.__getitem__))} for c in decompose(cards, ctx)
        ]
    }


def op_kitty_multiplier(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    play = _cards(req, "play")
    basis = _cards(req, "lead") if req.get("lead") is not None else play
    return {"multiplier": kitty_multiplier(decompose(basis, ctx), rules.kitty_multiplier)}


def op_level_change(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    points = _need(req, "points")
    if type(points) is not int or points < 0:
        raise JudgeError("'points' must be a whole number of points, 0 or more")
    team, levels = level_change(points, rules)
    return {"team": team, "levels": levels}


def _seat_list(req: dict[str, Any], key: str, rules: RuleSet) -> list[int]:
    raw = _need(req, key)
    if not isinstance(raw, list) or not all(type(s) is int and 0 <= s < rules.players for s in raw):
        raise JudgeError(f"{key!r} must be a list of seats 0 to {rules.players - 1}")
    return raw


def op_coins(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    """Coins per seat for a round (``rules.stake``): the level change of the attackers' points,
    the overrides made and each seat's failed throws."""
    points = _need(req, "points")
    if type(points) is not int or points < 0:
        raise JudgeError("'points' must be a whole number of points, 0 or more")
    side = _seat_list(req, "dealer_side", rules)
    if not side:
        raise JudgeError("'dealer_side' is empty: the dealer is on it")
    overrides = req.get("overrides", 0)
    if type(overrides) is not int or not 0 <= overrides <= 64:
        raise JudgeError("'overrides' must be a whole number 0 to 64")
    throws = req.get("failed_throws", [0] * rules.players)
    if not isinstance(throws, list) or len(throws) != rules.players or not all(type(n) is int and 0 <= n <= 64 for n in throws):
        raise JudgeError(f"'failed_throws' must list {rules.players} whole numbers, one per seat")
    team, levels = level_change(points, rules)
    coins = round_coins(rules, dealer_side=side, team=team, levels=levels, overrides=overrides, failed_throws=throws)
    return {"team": team, "levels": levels, "coins": list(coins) or [0] * rules.players}


def op_redeal(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    """May an attacker holding ``hand`` ask for a redeal at the last call (``redeal_request``,
    暴动, seed 000 C; ``redeal_no_trump``)? ``why`` names the reason when not."""
    hand = _cards(req, "hand", allow_empty=True)
    refusal = redeal_refusal(hand, ctx.level, rules)
    why = None if refusal is None else refusal.fields.get("why")
    return {"may_redeal": refusal is None, "why": None if why is None else str(why), "points": sum(POINTS[c] for c in hand)}


def op_surrender(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    """投降 (table rule ``surrender``): the result of a round conceded by ``conceded`` ("dealer" or
    "attackers") with the attackers at ``points`` so far: the total it is scored on, and the level change."""
    if not rules.surrender:
        raise JudgeError('these rules do not allow conceding a round (set "surrender": true)')
    points = _need(req, "points")
    if type(points) is not int or points < 0:
        raise JudgeError("'points' must be a whole number of points, 0 or more")
    conceded = _need(req, "conceded")
    if conceded not in ("dealer", "attackers"):
        raise JudgeError('\'conceded\' must be "dealer" or "attackers"')
    total = surrender_total(points, conceded, rules)
    team, levels = level_change(total, rules)
    return {"points": total, "team": team, "levels": levels}


def op_match_result(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    """Who wins a match ended by the clock or the round count, from each side's level and the
    round it reached that level in (0: the start level): ``winner`` an index, or null for a draw."""
    raw = _need(req, "levels")
    if not isinstance(raw, list) or len(raw) < 2:
        raise JudgeError("'levels' must list the level of each side (or seat), two or more")
    try:
        levels = [parse_level(str(x)) for x in raw]
    except ValueError as exc:
        raise JudgeError(f"in 'levels': {exc}") from None
    reached = req.get("reached", [0] * len(levels))
    if not isinstance(reached, list) or len(reached) != len(levels) or not all(type(n) is int and n >= 0 for n in reached):
        raise JudgeError(f"'reached' must list {len(levels)} round numbers, 0 or more (0: the start level)")
    winner = match_leader(levels, reached)
    return {"winner": winner, "draw": winner is None}


def op_declare(req: dict[str, Any], rules: RuleSet, ctx: TrumpContext) -> dict[str, Any]:
    bids = _need(req, "bids")
    if not isinstance(bids, list):
        raise JudgeError("'bids' must be a list of {seat, cards}")
    first_round = bool(req.get("first_round", False))
    current = None
    first_seat: int | None = None
    valid = []
    for i, b in enumerate(bids):
        if not isinstance(b, dict) or type(b.get("seat")) is not int or not isinstance(b.get("cards"), list):
            raise JudgeError(f'bids[{i}] must be {{"seat": n, "cards": [...]}}')
        if not 0 <= b["seat"] < rules.players:
            raise JudgeError(f"bids[{i}]: no seat {b['seat']}")
        try:
            cards = parse_cards(b["cards"])
        except CardError as exc:
            raise JudgeError(f"in bids[{i}]: {exc}") from None
        cards = shown_cards(b["seat"], cards, current)
        try:
            bid = read_bid(b["seat"], cards, ctx.level, rules)
        except ValueError:
            valid.append(False)
            continue
        if bid_reason(bid, current, rules) is not None:
            valid.append(False)
            continue
        valid.append(True)
        current = bid
        if first_seat is None:
            first_seat = bid.seat
    out: dict[str, Any] = {
        "valid": valid,
        "trump": None if current is None else suit_letter(current.trump),
        "declarer": None if current is None else current.seat,
    }
    if first_round:
        out["dealer"] = (
            None
            if current is None
            else current.seat
            if rules.first_round_dealer == FirstRoundDealer.LAST_DECLARER
            else first_seat
        )
    return out


OPS: dict[str, Callable[[dict[str, Any], RuleSet, TrumpContext], dict[str, Any]]] = {
    "winner": op_winner,
    "legal": op_legal,
    "throw": op_throw,
    "combos": op_combos,
    "kitty_multiplier": op_kitty_multiplier,
    "level_change": op_level_change,
    "declare": op_declare,
    "coins": op_coins,
    "match_result": op_match_result,
    "redeal": op_redeal,
    "surrender": op_surrender,
}


def handle(req: Any) -> dict[str, Any]:
    """Answer one request (already parsed from JSON)."""
    rid = req.get("id") if isinstance(req, dict) else None
    try:
        if not isinstance(req, dict):
            raise JudgeError("a request is a JSON object")
        op = _need(req, "op")
        if not isinstance(op, str) or op not in OPS:
            raise JudgeError(f"unknown op {safe_dumps(op)[:64]}; ops: {', '.join(OPS)}")
        rules, ctx = _context(req)
        answer = OPS[op](req, rules, ctx)
    except JudgeError as exc:
        return {"id": rid, "error": str(exc)}
    except Exception as exc:  # defensive: the judge never dies on odd input
        return {"id": rid, "error": f"cannot answer: {type(exc).__name__}: {exc}"}
    return {"id": rid, **answer}


def handle_line(line: str | bytes) -> dict[str, Any]:
    """Answer one line of input, whatever it holds (bytes that are not UTF-8 included)."""
    if isinstance(line, str) and not line.isascii():  # ASCII text holds no lone surrogate
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # undecodable input bytes, kept as surrogate escapes
            return {"id": None, "error": "the line is not UTF-8 text"}
    try:
        req = loads(line, max_depth=MAX_REQUEST_DEPTH)
    except JSONInputError as exc:
        return {"id": None, "error": str(exc)}
    return handle(req)


MAX_REQUEST_DEPTH = 64


def answer_text(answer: dict[str, Any]) -> str:
    """One answer as one line that can always be written (a lone surrogate is escaped)."""
    return safe_dumps(answer) + "\n"


def serve(inp: TextIO | BinaryIO, out: TextIO) -> None:
    """One answer per non-blank input line, in order; no input line stops the judge."""
    for line in inp:
        if not line.strip():
            continue
        try:
            answer = handle_line(line)
        except Exception as exc:  # defensive: every line is answered exactly once
            answer = {"id": None, "error": f"cannot answer: {type(exc).__name__}"}
        out.write(answer_text(answer))
        out.flush()
