"""Typed errors with a machine-readable reason code and messages in English and Chinese."""

from __future__ import annotations

from enum import StrEnum

from .messages import text


class Reason(StrEnum):
    """Every reason the engine or the server gives for refusing something.

    The texts, in each language, are the ``reason`` section of the message catalogs
    (:mod:`tuolaji.messages`); a test checks that both catalogs cover exactly these codes.
    """

    ACTION_ACCEPT = "action_accept"
    ACTION_CARDS = "action_cards"
    ACTION_NOT_OBJECT = "action_not_object"
    ACTION_NTH = "action_nth"
    ACTION_SEAT = "action_seat"
    ACTION_TYPE = "action_type"
    ALREADY_SEATED = "already_seated"
    ALREADY_STARTED = "already_started"
    BAD_ACTION = "bad_action"
    BAD_DECLARATION = "bad_declaration"
    BAD_FRIEND_CARD = "bad_friend_card"
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    BAD_NAME = "bad_name"
    BAD_PASSWORD = "bad_password"
    BAD_RECORD = "bad_record"
    BAD_REPLAY = "bad_replay"
    BAD_SAVE = "bad_save"
    BAD_SEAT = "bad_seat"
    BAD_TEXT = "bad_text"
    BUSY = "busy"
    CHAT_EMPTY = "chat_empty"
    CHAT_FAST = "chat_fast"
    DEAL_NOT_DONE = "deal_not_done"
    DEALER_SIDE_DECLARES = "dealer_side_declares"
    DECLARATION_LOCKED = "declaration_locked"
    DECLARE_COPIES = "declare_copies"
    DECLARE_JOKERS_PAIR = "declare_jokers_pair"
    DECLARE_MIXED = "declare_mixed"
    DECLARE_MIXED_JOKERS = "declare_mixed_jokers"
    DECLARE_NOT_LEVEL = "declare_not_level"
    DECLARE_NOTHING = "declare_nothing"
    DECLARE_SINGLE_JOKER = "declare_single_joker"
    DECLARE_WITH_BIG_JOKER = "declare_with_big_joker"
    DECLARE_WITH_SMALL_JOKER = "declare_with_small_joker"
    EMPTY_PLAY = "empty_play"
    FILE_TOO_BIG = "file_too_big"
    FOREIGN_SAVE = "foreign_save"
    FRIEND_COPY = "friend_copy"
    FRIEND_NO_COPY = "friend_no_copy"
    FRIEND_CALLED = "friend_called_already"
    HELLO_FIRST = "hello_first"
    JOKER_DECLARES_FIRST = "joker_declares_first"
    KICKED = "kicked"
    KITTY_PAIR_OVERRIDE = "kitty_pair_override"
    MATCH_OVER = "match_over"
    MIXED_SUITS = "mixed_suits"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    MUST_PLAY_PAIR = "must_play_pair"
    MUST_PLAY_QUAD = "must_play_quad"
    MUST_PLAY_TRACTOR = "must_play_tractor"
    MUST_PLAY_TRIPLE = "must_play_triple"
    NO_GAME = "no_game"
    NO_HINT = "no_hint"
    NO_REDEAL = "no_redeal"
    NO_SURRENDER = "no_surrender"
    REDEAL_TRUMPS = "redeal_trumps"
    SURRENDER_DECLINED = "surrender_declined"
    SURRENDER_SIDES_HIDDEN = "surrender_sides_hidden"
    NO_ROOM = "no_room"
    NO_ROUND = "no_round"
    NO_SEED = "no_seed"
    NOT_A_CARD = "not_a_card"
    NOT_A_PLAYER = "not_a_player"
    NOT_ALLOWED = "not_allowed"
    NOT_DEALER = "not_dealer"
    NOT_FOUND = "not_found"
    NOT_HOST = "not_host"
    NOT_IN_HAND = "not_in_hand"
    NOT_OBJECT = "not_object"
    NOT_SEATED = "not_seated"
    NOT_STARTED = "not_started"
    NOT_TIME_UP = "not_time_up"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_YOURS = "not_yours"
    OVERRIDE_NEEDS_PAIR = "override_needs_pair"
    REDEAL_ATTACKERS = "redeal_attackers"
    REDEAL_OFF = "redeal_off"
    REDEAL_POINTS = "redeal_points"
    ROOM_FULL = "room_full"
    ROUND_BREAK = "round_break"
    ROUND_OVER = "round_over"
    SAVE_FAILED = "save_failed"
    SAVED_AGAIN = "saved_again"
    SEAT_NEXT_ROUND = "seat_next_round"
    SEAT_TAKEN = "seat_taken"
    SELF_OVERRIDE = "self_override"
    SERVER_DEALS = "server_deals"
    SLOW_DOWN = "slow_down"
    TOO_BIG = "too_big"
    TOO_DEEP = "too_deep"
    TOO_MANY_ROOMS = "too_many_rooms"
    TOO_SLOW = "too_slow"
    UNKNOWN_TYPE = "unknown_type"
    WEAK_DECLARATION = "weak_declaration"
    WRONG_COUNT = "wrong_count"
    WRONG_KITTY_SIZE = "wrong_kitty_size"
    WRONG_PHASE = "wrong_phase"


class RuleError(ValueError):
    """An action or a rules question the rules refuse; carries a reason code."""

    def __init__(self, code: Reason, **fields: object) -> None:
        self.code = code
        self.fields = fields
        super().__init__(code)  # the text is made when read: refusals are often caught and dropped

    def __str__(self) -> str:
        return self.message("en")

    def message(self, lang: str = "en") -> str:
        return reason_message(self.code, lang, **self.fields)


def reason_message(code: str, lang: str, /, **fields: object) -> str:
    """A refusal's text. A field that is itself a :class:`Reason` (the ``why`` of a refusal) and
    a ``phase`` are shown in the same language, never as English inside a Chinese sentence."""
    shown = {
        k: reason_message(v, lang, **{f: x for f, x in fields.items() if f != k})
        if isinstance(v, Reason)
        else text("phase", str(v), lang)
        if k == "phase"
        else v
        for k, v in fields.items()
    }
    return text("reason", code, lang, **shown)


class IllegalAction(RuleError):
    """An action the engine refused; the state is unchanged."""
