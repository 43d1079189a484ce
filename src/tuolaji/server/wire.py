"""The wire contract: every JSON message the server sends to a browser, declared once.

The builders (the room, its projection of state for one seat, the HTTP handlers) are annotated
to return these types, so mypy checks that they send what is declared here; ``wire_ts`` writes
the same declarations as TypeScript (``web/static/js/wire.d.ts``) for the web client's JSDoc
types, and a test keeps that file in step with this module.

Conventions: cards are strings ("S10", "HA", "LJ", "BJ"); a suit or trump is one letter
("S", "H", "C", "D") or ``null`` for no-trump; seats are ints from 0; ``re`` echoes the ``id`` of
the client message a reply answers. Client → server messages are validated by ``protocol``.
"""

from typing import Literal, NotRequired, TypedDict

Card = str
Suit = Literal["S", "H", "C", "D"]
Phase = Literal["deal", "declare", "bury", "call_friend", "play", "surrender", "done", "override"]
Side = Literal["dealer", "attacker"]
Status = Literal["lobby", "playing", "finished"]
ReqId = int | str


# ------------------------------------------------------------------ engine events, as sent
class EvRoundStarted(TypedDict):
    e: Literal["round_started"]
    number: int
    level: int  # rank 2..14
    dealer: int | None
    levels: list[int]  # level indexes per team (find-a-friend: per seat)


class EvDealt(TypedDict):
    e: Literal["dealt"]
    seat: int
    card: Card | None  # None: another seat's card


class EvDeclared(TypedDict):
    e: Literal["declared"]
    seat: int
    cards: list[Card]
    trump: Suit | None


class EvPassed(TypedDict):
    e: Literal["passed"]
    seat: int


class EvTrumpFixed(TypedDict):
    e: Literal["trump_fixed"]
    trump: Suit | None
    dealer: int
    source: str


class EvRedealt(TypedDict):
    e: Literal["redealt"]


class EvKittyTaken(TypedDict):
    e: Literal["kitty_taken"]
    seat: int
    cards: list[Card] | None


class EvBuried(TypedDict):
    e: Literal["buried"]
    seat: int
    cards: list[Card] | None


class EvPlayed(TypedDict):
    e: Literal["played"]
    seat: int
    cards: list[Card]
    attempted: list[Card] | None
    beaten_by: NotRequired[int]  # a failed throw: the first seat after the leader able to beat it
    beating: NotRequired[list[Card]]  # the combination that seat shows (public, as at a real table)


class EvRedealRequested(TypedDict):
    e: Literal["redeal_requested"]
    seat: int


class EvFriendCalled(TypedDict):
    e: Literal["friend_called"]
    seat: int
    card: Card
    nth: NotRequired[int]  # friend_call nth_played: whoever plays this copy (1 = the first) joins


class EvSurrenderProposed(TypedDict):
    e: Literal["surrender_proposed"]
    seat: int


class EvSurrenderAnswered(TypedDict):
    e: Literal["surrender_answered"]
    seat: int
    accept: bool


class EvFriendRevealed(TypedDict):
    e: Literal["friend_revealed"]
    seat: int | None  # None: the call finds nobody (or the dealer played the called copy)
    call: NotRequired[int]  # which of the dealer's calls (0, the first, when absent)


class EvTimeIsUp(TypedDict):
    e: Literal["time_is_up"]


class EvTrickEnded(TypedDict):
    e: Literal["trick_ended"]
    winner: int
    points: int
    attacker_points: int


class RoundResult(TypedDict):
    """A finished round's ``round_ended`` event (also a view's ``result``)."""

    e: Literal["round_ended"]
    attacker_points: int
    trick_points: int
    kitty: list[Card]
    kitty_points: int
    multiplier: int
    kitty_captured: bool
    team: Literal["dealer", "attackers"]
    levels: int
    next_dealer: int
    dealer_side: list[int]
    overrides: int
    failed_throws: list[int]
    penalty_points: int
    coins: NotRequired[list[int]]  # per seat, won (+) or paid (-); only with a stake (rules.stake)
    j_hook: NotRequired[bool]  # 勾J: the dealers at level J go back to 2
    surrendered: NotRequired[Literal["dealer", "attackers"]]  # 投降: the side that conceded


class EvMatchEnded(TypedDict):
    e: Literal["match_ended"]
    winner: int | None  # None: a draw
    levels: list[int]


WireEvent = (
    EvRoundStarted
    | EvDealt
    | EvDeclared
    | EvPassed
    | EvTrumpFixed
    | EvRedealt
    | EvKittyTaken
    | EvBuried
    | EvPlayed
    | EvRedealRequested
    | EvFriendCalled
    | EvFriendRevealed
    | EvTimeIsUp
    | EvTrickEnded
    | RoundResult
    | EvMatchEnded
    | EvSurrenderProposed
    | EvSurrenderAnswered
)


# ------------------------------------------------------------------ what one seat sees of the round
class Bid(TypedDict):
    seat: int
    cards: list[Card]


class SeatPlay(TypedDict):
    seat: int
    cards: list[Card]


class TrickView(TypedDict):
    leader: int
    plays: list[SeatPlay]
    attempted: list[Card] | None


class LastTrickView(TypedDict):
    leader: int
    plays: list[SeatPlay]
    winner: int
    points: int


class SurrenderView(TypedDict):
    by: int  # the seat that proposed
    waiting: list[int]  # partners still to answer, the first one's turn now


class FriendCallView(TypedDict):
    card: Card
    nth: int  # friend_call nth_played: the copy (1 = the first played); 0 otherwise
    shown: bool  # its friend played the card (or the call finds nobody)
    seat: int | None  # the friend it showed (None: not shown yet, or nobody)


class RoundView(TypedDict):
    """``engine.view.round_view``: the round as one seat may see it (None: a spectator)."""

    seat: int | None
    phase: Phase
    turn: int | None
    level: int
    dealer: int | None
    trump: Suit | None
    trump_fixed: bool
    bid: Bid | None
    overrides: int
    friend_card: Card | None  # the first call's card
    friend_calls: list[FriendCallView]  # find-a-friend: the dealer's calls so far
    friends: int  # find-a-friend: how many calls the dealer makes (0 in fixed partnerships)
    dealer_side: list[int]
    seat_points: list[int]
    hand: list[Card]  # empty for a spectator
    hand_sizes: list[int]
    dealt: int
    kitty_size: int
    kitty: list[Card] | None  # the burier's own kitty, or everyone's once the round is over
    trick: TrickView | None
    last_trick: LastTrickView | None
    tricks_played: int
    attacker_points: int
    result: RoundResult | None
    redeal: bool
    surrender: SurrenderView | None  # a proposal to concede awaiting answers


class MatchView(RoundView):
    """``engine.view.match_view``: the round view and the match around it."""

    levels: list[int]
    round_number: int
    winner: int | None  # None while playing, and for a draw
    over: bool
    draw: bool  # over with no single side ahead
    time_up: bool  # a timed match ended at its deadline
    purses: list[int]  # coins per seat so far (all 0 without a stake)


class TableView(MatchView):
    """The view in a ``state`` message: the match view with the table's names for it."""

    level_names: list[str]
    sides: list[Side | None]  # per seat, once publicly known


# ------------------------------------------------------------------ room and seats
class SeatInfo(TypedDict):
    name: str
    human: bool  # a person owns the seat
    connected: bool
    autoplay: bool
    bot: bool  # the computer plays it now (no owner, owner away, or autoplay)
    team: int  # index into the view's levels


class RoomSettings(TypedDict):
    speed: str | None
    timer: int | None
    difficulty: str | None


class RoomInfo(TypedDict):
    code: str
    status: Status
    host: bool  # the host is connected
    seats: list[SeatInfo]
    spectators: int
    settings: RoomSettings
    counter: bool  # the card counter (记牌器) is allowed in this room
    password: bool  # newcomers need the room's password
    rules: str


class You(TypedDict):
    seat: int | None
    host: bool
    lang: str
    autoplay: bool
    from_round: NotRequired[int]  # a seat taken mid-round: played by the computer, its hand shown from this round


class Follow(TypedDict):
    count: int
    suit: Literal["S", "H", "C", "D", "T"]  # T: trumps were led


class Options(TypedDict):
    """What the receiving seat may do now; only the keys of the current phase are present."""

    phase: Phase
    turn: bool
    eff: list[int]  # per hand card: its effective suit 0..3, 4 for trump (groups the hand)
    declare: NotRequired[list[list[Card]]]
    can_pass: NotRequired[bool]
    can_redeal: NotRequired[bool]
    bury: NotRequired[int]  # cards to bury
    from_kitty: NotRequired[list[Card]]
    call_friend: NotRequired[bool]
    friend_copies: NotRequired[int]  # friend_call nth_played: name which copy, 1..friend_copies
    can_surrender: NotRequired[bool]  # 投降: propose that one's side concede
    answer_surrender: NotRequired[int]  # the partner (seat) whose proposal to concede awaits this seat's answer
    follow: NotRequired[Follow]
    playable: NotRequired[list[bool]]  # per hand card: may be part of the play
    required: NotRequired[list[bool]]  # per hand card: must be part of the play
    lead: NotRequired[bool]


class ReviewItem(TypedDict):
    trick: int
    points: int
    note: str
    kitty: NotRequired[bool]
    leader: NotRequired[int]
    winner: NotRequired[int]
    given: NotRequired[int]
    plays: NotRequired[list[SeatPlay]]


class WonTrick(TypedDict):
    plays: list[SeatPlay]
    winner: int
    points: int


class Summary(TypedDict):
    """The last finished round, public, with the coach's review for the receiver's side."""

    round: int
    level: int
    dealer: int | None
    trump: Suit | None
    result: RoundResult
    sides: list[Side]
    levels_before: list[int] | None
    levels_after: list[int]
    level_names_before: list[str] | None
    level_names_after: list[str]
    points_total: int
    last_trick: WonTrick | None
    review: list[ReviewItem]
    winner: int | None
    stake: int  # the room stake (底金) per level; 0: no coins
    purses: list[int]  # coins per seat after this round


# ------------------------------------------------------------------ WebSocket messages (server → client)
class StateMsg(TypedDict):
    """The whole table as one connection may see it; sent after every change (coalesced)."""

    type: Literal["state"]
    room: RoomInfo
    you: You
    view: TableView
    between: bool  # the round is over and the table waits for the next deal
    thinking: bool  # a computer player is deciding
    re: NotRequired[list[ReqId]]  # ids of acknowledged messages (ready, stand, start, settings, …)
    waiting_for: int | None
    timer_ms: int | None  # time left for waiting_for, when the table has a turn timer
    clock_ms: NotRequired[int]  # a timed match: time left on the match clock (0: time is up)
    options: NotRequired[Options]
    summary: NotRequired[Summary | None]
    ready: NotRequired[list[int]]
    events_skipped: NotRequired[int]  # events left out before `events` (the client fell far behind)
    events: list[WireEvent]  # new events since the last state this connection was sent


class WelcomeMsg(TypedDict):
    type: Literal["welcome"]
    code: str
    seat: int | None
    token: str | None  # a new reconnect token, to keep; None when the client sent its own
    lang: str
    players: int
    rules: dict[str, object]


class RefusedMsg(TypedDict):
    """A message was refused; nothing changed."""

    type: Literal["refused"]
    code: str
    reason: str  # one line, in the connection's language
    why: str  # the coach's explanation (the reason again when there is none)
    re: NotRequired[ReqId]
    action: NotRequired[str]


class CheckedMsg(TypedDict):
    """The answer to ``check``: would this selection be legal?"""

    type: Literal["checked"]
    re: ReqId | None
    ok: bool
    code: NotRequired[str]
    reason: NotRequired[str]
    why: NotRequired[str]
    throw: NotRequired[bool]  # legal, but a throw: it fails if another hand beats a part of it


class HintAction(TypedDict):
    type: Literal["declare", "pass", "bury", "play", "call_friend", "redeal", "surrender", "surrender_answer"]
    cards: NotRequired[list[Card]]
    card: NotRequired[Card]
    nth: NotRequired[int]
    accept: NotRequired[bool]


class HintMsg(TypedDict):
    type: Literal["hint"]
    re: ReqId | None
    action: HintAction


class PongMsg(TypedDict):
    type: Literal["pong"]
    re: ReqId | None


class SeatedMsg(TypedDict):
    type: Literal["seated"]
    seat: int
    re: ReqId | None


class ClosedMsg(TypedDict):
    type: Literal["closed"]
    reason: str


class ChatLine(TypedDict):
    seat: int | None
    name: str
    text: str


class ChatMsg(TypedDict):  # LAN chat: the recent lines on joining, then each new line
    type: Literal["chat"]
    lines: list[ChatLine]


class NoticeMsg(TypedDict):
    """Something every player of the room should know: ``save_failed`` (the game cannot be saved
    now), ``saved_again``."""

    type: Literal["notice"]
    code: str
    reason: str  # one line, in the connection's language


ServerMessage = StateMsg | WelcomeMsg | RefusedMsg | CheckedMsg | HintMsg | PongMsg | SeatedMsg | ClosedMsg | ChatMsg | NoticeMsg


# ------------------------------------------------------------------ HTTP answers the client reads
class ApiError(TypedDict):
    error: str
    code: str


class InfoResponse(TypedDict):
    version: str
    mode: str
    lan: bool  # friends on the network can reach this table
    lan_urls: list[str]
    lan_how: str | None  # when they cannot: the command that serves the network
    presets: list[str]
    difficulties: list[str]
    speeds: list[str]
    lang: str


class RuleField(TypedDict):
    name: str
    default: object
    kind: Literal["enum", "bool", "int", "list", "text"]
    options: NotRequired[list[str]]
    optional: NotRequired[bool]
    offered: NotRequired[bool]  # false: the table does not offer it (a rule the engine does not compute yet)
    hidden_options: NotRequired[list[str]]  # option values the table does not offer


class Both(TypedDict):
    en: str
    zh: str


class PresetText(TypedDict):
    title: Both
    description: Both


class RuleLabels(TypedDict):  # server/api.py rules_labels(): what players read about the rules
    settings: dict[str, Both]
    options: dict[str, Both]
    presets: dict[str, PresetText]


class RulesSchema(TypedDict):
    fields: list[RuleField]
    presets: dict[str, dict[str, object]]
    labels: RuleLabels


class PublicSummary(TypedDict):
    levels: list[int]
    level_names: list[str]
    round: int
    winner: int | None
    rules: str
    names: list[str]
    players: int
    teams: list[int]


class GameSeat(TypedDict):
    name: str | None
    human: bool


class GameEntry(TypedDict):
    code: str
    created: float
    updated: float
    status: Status
    seats: list[GameSeat]
    summary: PublicSummary
    mine: int | None  # the asker's seat in this game


class GamesResponse(TypedDict):
    games: list[GameEntry]


class CreatedResponse(TypedDict):
    code: str
    token: str | None
    seat: int | None
    url: str


class ImportedResponse(TypedDict):
    code: str
    over: bool
    rounds: int


class GameInfoResponse(TypedDict):
    """The room's info (as ``RoomInfo``) with its full rule settings, for the replay page."""

    code: str
    status: Status
    host: bool
    seats: list[SeatInfo]
    spectators: int
    settings: RoomSettings
    counter: bool
    password: bool  # the page asks for the password before joining
    rules: dict[str, object]
    summary: PublicSummary
    rounds: int
    over: bool


class ReplayLabel(TypedDict):
    e: str  # "played", "buried", "last_call", "kitty_taken" or a phase
    seat: NotRequired[int | None]
    cards: NotRequired[list[Card]]
    attempted: NotRequired[list[Card] | None]
    trick: NotRequired[int]


class ReplayFrame(TypedDict):
    label: ReplayLabel
    view: RoundView


class ReplayResponse(TypedDict):
    round: int
    seat: int | None
    rounds: int
    frames: list[ReplayFrame]
    players: int
    levels: list[int]  # the levels as they stood in that round (per team, or per seat with find-a-friend)
    level_names: list[str]
    names: NotRequired[list[str]]
    summary: NotRequired[PublicSummary]


class DealShape(TypedDict):
    """``server.api.deal_shape``: what the checked rules deal."""

    players: int
    decks: int
    hand: int  # cards in each hand
    kitty: int
    friends: int  # find-a-friend: calls the dealer makes (0 with fixed partners)


class RulesCheckResponse(TypedDict):
    ok: bool
    error: NotRequired[str]
    deal: NotRequired[DealShape]  # when ok


# The top-level types the TypeScript file exports, in order (``wire_ts`` writes every type they use).
EXPORTS: tuple[object, ...] = (
    StateMsg,
    WelcomeMsg,
    RefusedMsg,
    CheckedMsg,
    HintMsg,
    PongMsg,
    SeatedMsg,
    ClosedMsg,
    InfoResponse,
    RulesSchema,
    GamesResponse,
    CreatedResponse,
    ImportedResponse,
    GameInfoResponse,
    ReplayResponse,
    RulesCheckResponse,
    ApiError,
)
