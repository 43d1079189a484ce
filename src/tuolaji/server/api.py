"""Answers of the JSON API that need no web framework, shared by the server and the offline
build's worker: the rules schema, parsing a request's rules, what an export may reveal, and
what an imported record may keep."""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from ..cards import cards_str, new_deck
from ..engine.events import Event
from ..engine.match import Match
from ..errors import Reason
from ..messages import LANGUAGES, catalog
from ..record import RecordError, RecordProblem, to_record
from ..ruleset import NOT_OFFERED, NOT_OFFERED_OPTIONS, PRESETS, Partnership, RuleSet, RuleSetError, RulesProblem, load_rules
from ..validate import JSONInputError, TextError, check_text, loads
from .protocol import MessageError, Why, validate_settings
from .room import Room, Seat, hash_token, new_token
from .wire import DealShape


def rules_labels() -> dict[str, Any]:
    """What players read about the rules, both languages: the catalogs' ``setting``, ``option``,
    ``preset`` and ``preset_about`` sections (the preset files keep their developer notes)."""

    def both(section: str) -> dict[str, dict[str, str]]:
        return {key: {lang: catalog(lang)[section][key] for lang in LANGUAGES} for key in catalog("en")[section]}

    titles, about = both("preset"), both("preset_about")
    return {
        "settings": both("setting"),
        "options": both("option"),
        "presets": {name: {"title": titles[name], "description": about[name]} for name in titles},
    }


def rules_schema() -> dict[str, Any]:
    fields = []
    default = RuleSet()
    for f in dataclasses.fields(RuleSet):
        value = getattr(default, f.name)
        entry: dict[str, Any] = {"name": f.name, "default": _plain(value)}
        if isinstance(value, StrEnum):
            entry["kind"] = "enum"
            entry["options"] = [m.value for m in type(value)]
        elif isinstance(value, bool):
            entry["kind"] = "bool"
        elif isinstance(value, int) or "int" in str(f.type):
            entry["kind"] = "int"
            entry["optional"] = "None" in str(f.type)
        elif isinstance(value, tuple):
            entry["kind"] = "list"
        else:
            entry["kind"] = "text"
        if f.name in NOT_OFFERED:
            entry["offered"] = False
        if f.name in NOT_OFFERED_OPTIONS:
            entry["hidden_options"] = list(NOT_OFFERED_OPTIONS[f.name])
        fields.append(entry)
    return {"fields": fields, "presets": {name: rs.to_dict() for name, rs in PRESETS.items()}, "labels": rules_labels()}


def deal_shape(rules: RuleSet) -> DealShape:
    """What a rule set deals, for the create-game screen: players, decks, each hand, the kitty,
    and how many friends the dealer calls (0 with fixed partners)."""
    return {
        "players": rules.players,
        "decks": rules.decks,
        "hand": rules.hand_size_value,
        "kitty": rules.kitty_size_value,
        "friends": rules.friends_value if rules.partnership == Partnership.FIND_FRIEND else 0,
    }


def _plain(v: Any) -> Any:
    if isinstance(v, StrEnum):
        return v.value
    if isinstance(v, tuple):
        return list(v)
    return v


def parse_rules(spec: Any) -> RuleSet:
    """Rules from a request: a preset name, or {"preset": name, ...changes}; checked as Match does."""
    if spec is None or spec == "":
        spec = "classic"
    if not isinstance(spec, (str, dict)):
        raise RuleSetError(RulesProblem.NOT_SPEC)
    if isinstance(spec, str) and spec not in PRESETS:
        raise RuleSetError(RulesProblem.NO_PRESET, name=repr(spec), presets=sorted(PRESETS))
    return load_rules(spec)


@dataclasses.dataclass(frozen=True)
class NewGame:
    """A checked request for a new game (``POST /api/games``, on the server and offline)."""

    match: Match
    settings: dict[str, Any]
    seat: int | None  # the creator's seat; None: the creator watches
    name: str
    start: bool  # deal at once (False: a lobby where others take seats first)
    seed: int | None


def read_new_game(body: Any, *, allow_seed: bool) -> NewGame:
    """Check a new-game request; :class:`MessageError` or :class:`RuleSetError` says what is wrong."""
    if not isinstance(body, dict):
        raise MessageError(Reason.NOT_OBJECT)
    rules = parse_rules(body.get("rules"))
    settings = validate_settings(body)
    password = body.get("password") or ""
    if not isinstance(password, str) or len(password) > 32:
        raise MessageError(Reason.BAD_MESSAGE, why=Why("password"))
    if password:  # kept as a hash, like the seat tokens
        settings["password"] = hash_token(password)
    seed = body.get("seed")
    if seed is not None and (not allow_seed or type(seed) is not int):
        raise MessageError(Reason.NO_SEED)
    seat = body.get("seat", 0)
    if seat is not None and (type(seat) is not int or not 0 <= seat < rules.players):
        raise MessageError(Reason.BAD_SEAT, seat=seat)
    name = body.get("name") or ""
    try:
        check_text(name, field="name", max_len=24)
        check_text(rules.name, field="rules.name", max_len=64)
    except TextError:
        raise MessageError(Reason.BAD_NAME) from None
    start = body.get("start", True)
    if not isinstance(start, bool):
        raise MessageError(Reason.BAD_MESSAGE, why=Why("start"))
    return NewGame(Match(rules=rules, seed=seed), settings, seat, " ".join(name.split()), start, seed)


def new_room(code: str, game: NewGame, token: str | None) -> tuple[Room, str | None]:
    """The room for a checked request, its creator the host; and the reconnect token made for
    the creator when they sent none (or an unusable one)."""
    made = None
    if not token or len(token) > 64:
        token = made = new_token()
    host = hash_token(token)
    seats = [Seat() for _ in range(game.match.rules.players)]
    if game.seat is not None:
        seats[game.seat] = Seat(name=game.name, token=host)
    room = Room(
        code,
        game.match,
        settings=game.settings,
        seats=seats,
        host=host,
        status="playing" if game.start else "lobby",
        bot_seed=game.seed,
    )
    return room, made


def export_record(match: Match, events: Sequence[Event] | None = None) -> dict[str, Any]:
    """The record to hand out: the whole game once it is over; otherwise only the finished rounds.

    A game in progress must not reveal the current deal (it holds every hand) nor the seed (it
    would regenerate every deal), so the export stops at the end of the last finished round and
    carries a freshly shuffled deal for the next round, with no seed. ``events``: every event of
    the match, where it let go of some (``Match.release``; the server reads them back).
    """
    data = to_record(match)
    if events is not None:
        data["events"] = [e.to_dict() for e in events]
    if match.over:
        return data
    events = data["events"]
    ends = [i for i, e in enumerate(events) if e.get("e") in ("round_ended", "redealt")]
    n = len(match.rounds)
    cut = ends[n - 1] + 1 if n and len(ends) >= n else 0
    deck = new_deck(match.rules.decks)
    random.SystemRandom().shuffle(deck)
    data.update(seed=None, events=events[:cut], deals=data["deals"][:n] + [cards_str(deck)])
    return data


def record_to_continue(raw: bytes | str, *, max_rounds: int) -> dict[str, Any]:
    """An imported record made safe to play on: a finished match as it is; otherwise only its
    finished rounds, with a fresh secret seed, so every later deal is drawn by this server.

    The importer chose the record's seed and deals; keeping them would let whoever crafted the
    file know every hand of the rounds the table then plays.
    """
    from ..record import MAX_DEPTH

    try:
        data = loads(raw, max_depth=MAX_DEPTH)
    except JSONInputError as exc:
        raise RecordError.from_json(exc) from None
    if not isinstance(data, dict):
        raise RecordError(RecordProblem.NOT_OBJECT)
    deals, events = data.get("deals"), data.get("events")
    if not isinstance(deals, list) or not isinstance(events, list):
        return data  # from_record says what is wrong
    if len(deals) > max_rounds:
        raise RecordError(RecordProblem.TOO_MANY_ROUNDS, n=len(deals), most=max_rounds)
    kinds = [e.get("e") if isinstance(e, dict) else None for e in events]
    if "match_ended" in kinds:
        return data
    ends = [i for i, k in enumerate(kinds) if k in ("round_ended", "redealt")]
    cut = ends[-1] + 1 if ends else 0
    if not deals or not isinstance(deals[0], list):
        return data
    fresh = list(deals[0])  # every deal holds the same cards: the next round's, shuffled here
    random.SystemRandom().shuffle(fresh)
    return dict(data, seed=secrets.randbits(63), deals=[*deals[: len(ends)], fresh], events=events[:cut])
