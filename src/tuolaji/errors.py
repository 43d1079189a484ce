"""Typed errors with a machine-readable reason code and messages in English and Chinese."""

from __future__ import annotations

# code -> (English, Chinese). Messages may take str.format fields.
REASONS: dict[str, tuple[str, str]] = {
    "wrong_count": ("play exactly {n} card(s), as many as the lead", "必须出 {n} 张牌，与首家张数相同"),
    "not_in_hand": ("you do not hold those cards", "手中没有这些牌"),
    "empty_play": ("choose at least one card", "请至少选择一张牌"),
    "mixed_suits": ("a lead must be all one suit or all trumps",
                    "首家出牌必须是同一花色，或全是主牌"),
    "must_follow_suit": ("you must follow the led suit while you have it",
                         "有首家花色的牌时必须跟该花色"),
    "must_play_tractor": ("you must play a tractor of the led length: you hold one",
                          "你有相同长度的拖拉机，必须跟出"),
    "must_play_pair": ("you must play pairs as the lead does: you hold them",
                       "首家出了对子，你有对子必须跟对"),
    "must_play_triple": ("you must play triples as the lead does: you hold them",
                         "首家出了三张，你有三张必须跟出"),
    "must_play_quad": ("you must play four of a kind as the lead does: you hold them",
                       "首家出了四张，你有四张必须跟出"),
    "not_your_turn": ("it is not your turn (waiting for seat {turn})", "还没轮到你（等待 {turn} 号位）"),
    "wrong_phase": ("that action is not possible now ({phase})", "现在不能这样做（{phase}）"),
    "bad_seat": ("there is no seat {seat}", "没有 {seat} 号座位"),
    "bad_declaration": ("those cards cannot declare trump: {why}", "这些牌不能亮主：{why}"),
    "weak_declaration": ("that declaration does not beat the current one",
                         "这次亮主没有大过当前的亮主"),
    "declaration_locked": ("that declaration is locked by a pair: only a joker pair overrides it",
                           "对方已用对子定主，只有对王可以反"),
    "override_needs_pair": ("an override after the bury needs a pair of level cards or jokers",
                            "炒底反主必须亮出一对级牌或一对王"),
    "no_redeal": ("you may not ask for a redeal: {why}", "不能要求重新发牌：{why}"),
    "not_time_up": ("the match is not timed", "本场比赛不计时"),
    "bad_friend_card": ("call a card that exists: {why}", "叫的朋友牌无效：{why}"),
    "joker_declares_first": ("a joker pair cannot declare first: it may only override a declaration",
                             "常主不能首先报主，只能用来反主"),
    "dealer_side_declares": ("after the first round only the dealer's side declares; the other side "
                             "only at the last call, when the dealer's side cannot",
                             "第一局之后只有庄家一方可以报主；庄家一方叫不起主时，另一方才可在最后叫主"),
    "kitty_pair_override": ("a pair made up with cards from the kitty cannot override",
                            "用底牌凑成的对子不能反主"),
    "self_override": ("you may not override your own declaration", "不能反自己的主"),
    "wrong_kitty_size": ("bury exactly {n} cards", "必须扣 {n} 张底牌"),
    "not_dealer": ("only the dealer buries the kitty", "只有庄家可以扣底"),
    "deal_not_done": ("the deal is still in progress", "还在发牌"),
    "round_over": ("the round is over", "本局已结束"),
    "match_over": ("the match is over", "比赛已结束"),
    "bad_action": ("malformed action: {why}", "动作格式错误：{why}"),
}


class RuleError(ValueError):
    """An action or a rules question the rules refuse; carries a reason code."""

    def __init__(self, code: str, **fields: object) -> None:
        self.code = code
        self.fields = fields
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        en, zh = REASONS.get(self.code, (self.code, self.code))
        text = zh if lang.startswith("zh") else en
        try:
            return text.format(**self.fields)
        except (KeyError, IndexError):
            return text


class IllegalAction(RuleError):
    """An action the engine refused; the state is unchanged."""

