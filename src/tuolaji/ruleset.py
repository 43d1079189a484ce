"""One frozen, validated, serialisable settings object for every rule variant.

Every variant that ``RULES.md`` names is a field here with the default rule as its default.
A setting that cannot be played raises :class:`RuleSetError`, which names the setting and says
why in the player's language (the ``rules`` section of the message catalogs).
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from .messages import lang_code, text


class RulesProblem(StrEnum):
    """Why a rule set cannot be played; the texts are the catalogs' ``rules`` section."""

    BAD_CHAR = "bad_char"
    BAD_CHOICE = "bad_choice"
    CARDS_NOT_USED = "cards_not_used"
    EMPTY_OR_ONE_OF = "empty_or_one_of"
    FILE_NOT_JSON = "file_not_json"
    FILE_UNREADABLE = "file_unreadable"
    MINUTES_NEEDED = "minutes_needed"
    NO_PRESET = "no_preset"
    NOT_A_LEVEL = "not_a_level"
    NOT_BOOL = "not_bool"
    NOT_INTEGER = "not_integer"
    NOT_LEVEL_LIST = "not_level_list"
    NOT_OBJECT = "not_object"
    NOT_ONE_OF = "not_one_of"
    NOT_POSITIVE = "not_positive"
    NOT_SPEC = "not_spec"
    NOT_TEXT = "not_text"
    NOT_WHOLE = "not_whole"
    OUT_OF_RANGE = "out_of_range"
    PLAYERS_NEED_FRIENDS = "players_need_friends"
    KITTY_UNEVEN = "kitty_uneven"
    ROUNDS_NEEDED = "rounds_needed"
    TARGET_NOT_ABOVE_START = "target_not_above_start"
    TOO_LONG = "too_long"
    UNKNOWN_SETTINGS = "unknown_settings"


class RuleSetError(ValueError):
    """A rule set that cannot be played: a :class:`RulesProblem` and the fields its text takes.

    ``setting`` is a setting's name (English shows the name, Chinese its label); ``choices`` and
    ``presets`` are lists of option values and preset names, shown by their labels.
    """

    code = "bad_rules"

    def __init__(self, problem: RulesProblem, /, **fields: object) -> None:
        self.problem = problem
        self.fields = fields
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        zh = lang_code(lang) == "zh"
        sep = "、" if zh else ", "
        shown: dict[str, object] = {}
        for key, value in self.fields.items():
            if key == "setting":
                shown[key] = f"“{text('setting', str(value), lang)}”" if zh else f"{str(value)!r}"
            elif key in ("choices", "presets") and isinstance(value, (list, tuple)):
                section = "option" if key == "choices" else "preset"
                shown[key] = sep.join(text(section, str(v), lang) if zh else str(v) for v in value)
            elif key == "names" and isinstance(value, (list, tuple)):
                shown[key] = sep.join(map(str, value))
            else:
                shown[key] = value
        return text("rules", self.problem, lang, **shown)


class Partnership(StrEnum):
    FIXED = "fixed"  # 固定对家 (rooms marked 定)
    FIND_FRIEND = "find_friend"  # 挑选对家 (rooms marked 寻), seeds 000, 001


class DeclareStyle(StrEnum):
    LEVEL_CARD = "level_card"  # show a level card (seeds 002, 003)
    JOKER_BACKED = "joker_backed"  # level card + matching-colour joker (seed 000 C)


class DeclareRights(StrEnum):
    ANYONE = "anyone"  # anyone may declare in every round (seeds 002, 003, 004)
    DEALER_SIDE = "dealer_side"  # after round 1 the dealer's side; the others only if it cannot (000 C)


class FirstRoundDealer(StrEnum):
    FIRST_DECLARER = "first_declarer"  # 抢庄: whoever shows first deals (seeds 002, 003)
    LAST_DECLARER = "last_declarer"  # 反主反打: an override before the kitty takes the deal


class NoDeclaration(StrEnum):
    KITTY_FIRST = "kitty_first"  # suit of the kitty's first non-joker card (seed 003)
    KITTY_THIRD = "kitty_third"  # kitty's third card; a joker means no-trump (seed 004)
    KITTY_PAIR = "kitty_pair"  # kitty's third card; the side of a player holding its match deals (000 C)
    REDEAL = "redeal"


class KittyMultiplier(StrEnum):
    EXPONENTIAL = "exponential"  # single x2, pair x4, tractor of n pairs x2*2^n (seeds 000A, 001, 002)
    LINEAR = "linear"  # tractor of n pairs x4*n (seeds 000 C, 004)
    FIXED16 = "fixed16"  # any tractor x16 (seed 003)
    FLAT8 = "flat8"  # any tractor x8 (K&Q rules appended to seed 004)
    BY_SIZE = "by_size"  # 2 x number of cards in the largest combination (seed 003)


class ScoringTable(StrEnum):
    STANDARD = "standard"  # seeds 000 A, 001, 002
    FINE = "fine"  # seed 004's finer table


class ThrowPenalty(StrEnum):
    NONE = "none"
    POINTS = "points"
    STAKE = "stake"  # seed 004: half the table stake


class JRule(StrEnum):
    """勾J: the attackers win the last trick with a J while the dealers play level J."""

    OFF = "off"
    ANY_J = "any_j"  # any J in the winning play (at level J every J is a trump)
    TRUMP_J = "trump_j"  # only the trump suit's J (any J in no-trump)


class FriendCall(StrEnum):
    HOLDER = "holder"  # the holder of a copy other than the caller's own (calling a card held: the other copy)
    NTH_PLAYED = "nth_played"  # the call names a copy: whoever plays the Nth copy of the card joins


class MatchEnd(StrEnum):
    PASS_ACE = "pass_ace"  # going past A wins (seed 000 D)
    WRAP = "wrap"  # wrap back to 2 and keep playing
    FIXED_ROUNDS = "fixed_rounds"  # seed 003: higher level after N rounds wins
    TIMED = "timed"  # seed 003: higher level at the deadline wins


MAX_STAKE = 1_000_000  # coins stay exact in a browser's numbers even after many doubled rounds
LEVEL_TOKENS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


# Slots: a setting's default stays out of the class (a class attribute holding an enum member made
# every read of that setting on a rule set take CPython's slow generic attribute path).
@dataclass(frozen=True, kw_only=True, slots=True)
class RuleSet:
    """All settings of a game. Construct with keywords; invalid values raise RuleSetError."""

    name: str = "classic"
    description: str = ""
    # §1 cards, players, deal
    decks: int = 2
    players: int = 4
    hand_size: int | None = None  # derived from decks and players when None
    kitty_size: int | None = None
    # §8 declaring
    declare_style: DeclareStyle = DeclareStyle.LEVEL_CARD
    declare_rights: DeclareRights = DeclareRights.ANYONE
    jokers_declare_first: bool = True  # false: a joker pair only overrides (seed 000 C 常主不可進行報主, 004)
    suit_order_overrides: bool = False  # ♠ > ♥ > ♣ > ♦ between equal-strength overrides (seed 004)
    self_override: bool = False  # 自反 (seed 002); default forbids it (seed 003)
    pair_locks: bool = False  # 上保险/定主: a declared pair cannot be overridden
    override_after_bury: bool = False  # 反主炒底 (seeds 000 C, 004)
    first_round_dealer: FirstRoundDealer = FirstRoundDealer.FIRST_DECLARER
    no_declaration: NoDeclaration = NoDeclaration.KITTY_FIRST
    first_round_no_declaration: NoDeclaration = NoDeclaration.REDEAL
    redeal_request: bool = False  # 暴动 (seed 000 C)
    redeal_request_max_points: int = 10  # a hand with at most this many points may ask
    redeal_no_trump: bool = False  # a hand without a joker or level card may ask too (table rule)
    override_count_multiplies_stake: bool = False  # each override doubles the round's coins (seed 004)
    # §3 combinations
    notrump_level_tractor: bool = True  # level pair + LJ LJ is a tractor in no-trump
    # §3 throws
    throw_penalty: ThrowPenalty = ThrowPenalty.NONE
    throw_penalty_points: int = 10
    # §6 kitty
    kitty_multiplier: KittyMultiplier = KittyMultiplier.EXPONENTIAL
    # coins (seeds 000 C, 004): the room stake (底金) per level; 0 plays without coins
    stake: int = 0
    # §7 scoring and match end
    scoring_table: ScoringTable = ScoringTable.STANDARD
    level_cap: int | None = None  # most levels gained in one round (seed 000 C: 6)
    # thresholds step by 40 points per two decks (seed 000 A 兩副牌時每增加40分; seed 002 one deck);
    # false keeps the two-deck table whatever the decks (records saved before this default)
    scale_with_decks: bool = True
    match_end: MatchEnd = MatchEnd.PASS_ACE
    joker_level: bool = False  # 打王 (seed 000 H): after A a side plays one no-trump level, 王, before passing
    j_rule: JRule = JRule.OFF  # 勾J (table rule): hooked at level J, the dealers go back to 2
    surrender: bool = False  # 投降 (table rule): a side may concede the round, partners agreeing
    must_defend: tuple[str, ...] = ()  # levels a team must win as dealer to pass (e.g. 5 10 K A)
    match_target_level: str | None = None  # the match ends when a side reaches it (seed 004 appendix "打到6结束")
    match_rounds: int | None = None
    match_minutes: int | None = None
    start_level: str = "2"
    # §9 partners
    partnership: Partnership = Partnership.FIXED
    friend_call: FriendCall = FriendCall.HOLDER  # find-a-friend: what a called card means
    friends: int | None = None  # find-a-friend: cards the dealer calls (None: 1 for 4-5 players, 2 for 6-7, 3 for 8)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kind = _ENUM_FIELDS.get(f.name)
            if kind is not None and not isinstance(value, kind):
                try:
                    object.__setattr__(self, f.name, kind(value))
                except ValueError:
                    raise RuleSetError(
                        RulesProblem.BAD_CHOICE, setting=f.name, value=repr(value), choices=[m.value for m in kind]
                    ) from None
        if isinstance(self.must_defend, list):
            object.__setattr__(self, "must_defend", tuple(self.must_defend))
        self._validate()

    def _validate_text(self) -> None:
        for name, limit in (("name", 60), ("description", 1000)):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise RuleSetError(RulesProblem.NOT_TEXT, setting=name)
            if len(value) > limit:
                raise RuleSetError(RulesProblem.TOO_LONG, setting=name, n=len(value), limit=limit)
            bad = next((ch for ch in value if _bad_char(ch)), None)
            if bad is not None:
                raise RuleSetError(RulesProblem.BAD_CHAR, setting=name, char=ascii(bad))

    def _validate(self) -> None:
        def need(cond: bool, name: str, problem: RulesProblem, **fields: object) -> None:
            if not cond:
                raise RuleSetError(problem, setting=name, **fields)

        self._validate_text()
        for name in ("decks", "players", "throw_penalty_points", "redeal_request_max_points", "stake"):
            need(type(getattr(self, name)) is int, name, RulesProblem.NOT_INTEGER)
        need(0 <= self.stake <= MAX_STAKE, "stake", RulesProblem.OUT_OF_RANGE, low=0, high=MAX_STAKE, value=self.stake)
        for name in (
            "suit_order_overrides",
            "self_override",
            "pair_locks",
            "override_after_bury",
            "redeal_request",
            "override_count_multiplies_stake",
            "notrump_level_tractor",
            "jokers_declare_first",
            "scale_with_decks",
            "joker_level",
            "redeal_no_trump",
            "surrender",
        ):
            need(isinstance(getattr(self, name), bool), name, RulesProblem.NOT_BOOL)
        need(1 <= self.decks <= 4, "decks", RulesProblem.OUT_OF_RANGE, low=1, high=4, value=self.decks)
        need(4 <= self.players <= 8, "players", RulesProblem.OUT_OF_RANGE, low=4, high=8, value=self.players)
        need(
            self.players % 2 == 0 or self.partnership == Partnership.FIND_FRIEND,
            "players",
            RulesProblem.PLAYERS_NEED_FRIENDS,
            value=self.players,
        )
        for name in ("hand_size", "kitty_size", "level_cap", "match_rounds", "match_minutes"):
            v = getattr(self, name)
            need(v is None or (type(v) is int and v >= 0), name, RulesProblem.NOT_WHOLE)
        if self.friends is not None:
            need(type(self.friends) is int, "friends", RulesProblem.NOT_INTEGER)
            most = max_friends(self.players)
            need(1 <= self.friends <= most, "friends", RulesProblem.OUT_OF_RANGE, low=1, high=most, value=self.friends)
        total = 54 * self.decks
        if self.hand_size is None and self.kitty_size is not None and self.kitty_size <= total:
            need(
                (total - self.kitty_size) % self.players == 0,
                "kitty_size",
                RulesProblem.KITTY_UNEVEN,
                players=self.players,
                kitty=self.kitty_size,
                total=total,
                fits=", ".join(str(k) for k in range(1, 13) if (total - k) % self.players == 0),
            )
        need(
            self.hand_size_value * self.players + self.kitty_size_value == total,
            "hand_size",
            RulesProblem.CARDS_NOT_USED,
            players=self.players,
            hand=self.hand_size_value,
            kitty=self.kitty_size_value,
            total=total,
        )
        need(self.hand_size_value > 0, "hand_size", RulesProblem.NOT_POSITIVE)
        need(
            isinstance(self.start_level, str) and self.start_level in LEVEL_TOKENS,
            "start_level",
            RulesProblem.NOT_ONE_OF,
            choices=LEVEL_TOKENS,
            value=repr(self.start_level),
        )
        need(isinstance(self.must_defend, tuple), "must_defend", RulesProblem.NOT_LEVEL_LIST, value=repr(self.must_defend))
        for lv in self.must_defend:
            need(isinstance(lv, str) and lv in LEVEL_TOKENS, "must_defend", RulesProblem.NOT_A_LEVEL, value=repr(lv))
        need(
            self.match_target_level is None
            or (isinstance(self.match_target_level, str) and self.match_target_level in LEVEL_TOKENS),
            "match_target_level",
            RulesProblem.EMPTY_OR_ONE_OF,
            choices=LEVEL_TOKENS,
            value=repr(self.match_target_level),
        )
        need(
            self.match_target_level is None
            or self.match_target_level not in LEVEL_TOKENS
            or LEVEL_TOKENS.index(self.match_target_level) > LEVEL_TOKENS.index(self.start_level),
            "match_target_level",
            RulesProblem.TARGET_NOT_ABOVE_START,
        )
        need(self.match_end != MatchEnd.FIXED_ROUNDS or (self.match_rounds or 0) > 0, "match_rounds", RulesProblem.ROUNDS_NEEDED)
        need(self.match_end != MatchEnd.TIMED or (self.match_minutes or 0) > 0, "match_minutes", RulesProblem.MINUTES_NEEDED)

    @property
    def hand_size_value(self) -> int:
        if self.hand_size is not None:
            return self.hand_size
        total = 54 * self.decks
        kitty = self.kitty_size if self.kitty_size is not None else _default_kitty(total, self.players)
        return (total - kitty) // self.players

    @property
    def kitty_size_value(self) -> int:
        if self.kitty_size is not None:
            return self.kitty_size
        total = 54 * self.decks
        if self.hand_size is not None:
            return total - self.hand_size * self.players
        return _default_kitty(total, self.players)

    @property
    def friends_value(self) -> int:
        """Find-a-friend: how many cards the dealer calls (see ``default_friends``)."""
        return self.friends if self.friends is not None else default_friends(self.players)

    @property
    def points_total(self) -> int:
        return 100 * self.decks

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else (v.value if isinstance(v, StrEnum) else v)
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        if not isinstance(data, dict):
            raise RuleSetError(RulesProblem.NOT_OBJECT)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleSetError(RulesProblem.UNKNOWN_SETTINGS, names=unknown)
        return cls(**data)

    def replace(self, **changes: Any) -> RuleSet:
        return dataclasses.replace(self, **changes)


def _bad_char(ch: str) -> bool:
    """Control characters and lone surrogates cannot be shown or saved."""
    code = ord(ch)
    return code < 32 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000


def _default_kitty(total: int, players: int) -> int:
    # The largest kitty of 6..12 cards that leaves equal hands; 108/4 -> 8, 162/4 -> 6, 216/4 -> 8.
    for kitty in (8, 6, 12, 10, 7, 9, 5, 4, 11):
        if (total - kitty) % players == 0:
            return kitty
    return total % players


def default_friends(players: int) -> int:
    """Friends called by default: sides as even as they go with the dealer's side no larger (4-5
    players: 1, 6-7: 2, 8: 3), the usual 找朋友 tables."""
    return max(1, players // 2 - 1)


def max_friends(players: int) -> int:
    """The most friends a dealer may call: the dealer's side at most one more than the attackers."""
    return (players - 1) // 2


_ENUM_FIELDS: dict[str, type[StrEnum]] = {}
for _f in fields(RuleSet):
    for _cls in (
        Partnership,
        DeclareStyle,
        DeclareRights,
        FirstRoundDealer,
        NoDeclaration,
        KittyMultiplier,
        ScoringTable,
        ThrowPenalty,
        MatchEnd,
        JRule,
        FriendCall,
    ):
        if _f.type == _cls.__name__:
            _ENUM_FIELDS[_f.name] = _cls

# Settings (and options of settings) that load and replay but that the table's rules panel does
# not offer, for a rule the engine does not compute yet. Empty: every setting is played.
NOT_OFFERED: tuple[str, ...] = ()
NOT_OFFERED_OPTIONS: dict[str, tuple[str, ...]] = {}

# os.path, not pathlib: pathlib (and the urllib it imports) would be a sixth of the judge's import time
PRESET_DIR = os.path.join(os.path.dirname(__file__), "presets")


def _load_presets() -> dict[str, RuleSet]:
    out = {}
    for name in sorted(os.listdir(PRESET_DIR)):
        if name.endswith(".json"):
            with open(os.path.join(PRESET_DIR, name), encoding="utf-8") as fh:
                rules = RuleSet.from_dict(json.load(fh))
            out[rules.name] = rules
    return out


PRESETS: dict[str, RuleSet] = _load_presets()


def preset(name: str) -> RuleSet:
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleSetError(RulesProblem.NO_PRESET, name=repr(name), presets=sorted(PRESETS)) from None


def load_rules(spec: str | dict[str, Any] | RuleSet | None) -> RuleSet:
    """A preset name, a path to a JSON settings file, a settings object, or None (default)."""
    if spec is None:
        return PRESETS.get("classic") or RuleSet()
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, dict):
        base = dict(spec)
        if "preset" in base:
            start = preset(str(base.pop("preset"))).to_dict()
            start.update(base)
            base = start
        return RuleSet.from_dict(base)
    if isinstance(spec, str):
        if spec in PRESETS:
            return PRESETS[spec]
        if spec.endswith(".json") or "/" in spec or os.path.isfile(spec):
            try:
                with open(spec, encoding="utf-8") as fh:
                    data = json.load(fh)
            except OSError:
                raise RuleSetError(RulesProblem.FILE_UNREADABLE, path=repr(spec)) from None
            except json.JSONDecodeError as exc:
                raise RuleSetError(RulesProblem.FILE_NOT_JSON, path=repr(spec), line=exc.lineno, column=exc.colno) from None
            return load_rules(data)
        return preset(spec)
    raise RuleSetError(RulesProblem.NOT_SPEC)


__all__ = [
    "RuleSet",
    "RuleSetError",
    "RulesProblem",
    "PRESETS",
    "preset",
    "load_rules",
    "Partnership",
    "DeclareStyle",
    "DeclareRights",
    "FirstRoundDealer",
    "NoDeclaration",
    "KittyMultiplier",
    "ScoringTable",
    "ThrowPenalty",
    "MatchEnd",
    "JRule",
    "FriendCall",
    "LEVEL_TOKENS",
]
