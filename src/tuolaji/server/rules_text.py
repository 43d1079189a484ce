"""What players read about rule settings, in English and Chinese: each setting's name, each option
value, each preset's title and description, and the refusals of a rule set that cannot be played.

The preset files keep their developer notes (which seed text a rule comes from); players get the
descriptions below, without seed numbers. ``/api/rules`` serves these texts with the schema, so
the browser shows what the server checks, in the player's language.
"""

from __future__ import annotations

import re

from ..ruleset import RuleSetError

Text = tuple[str, str]  # (English, Chinese)

SETTINGS: dict[str, Text] = {
    "name": ("Name", "名称"),
    "description": ("Description", "说明"),
    "decks": ("Decks", "几副牌"),
    "players": ("Players", "人数"),
    "hand_size": ("Hand size", "每人张数"),
    "kitty_size": ("Kitty size", "底牌张数"),
    "declare_style": ("Declaring", "亮主方式"),
    "declare_rights": ("Who may declare after round 1", "首局后谁可以亮主"),
    "jokers_declare_first": ("A joker pair may declare first", "对王可以首先亮主（无主）"),
    "suit_order_overrides": ("Suit order breaks ties (♠>♥>♣>♦)", "同级按花色比大小（♠>♥>♣>♦）"),
    "self_override": ("May override own declaration", "可以反自己的主"),
    "pair_locks": ("A declared pair locks trump", "亮对定主"),
    "override_after_bury": ("Override after the bury", "扣底后反主（反主炒底）"),
    "first_round_dealer": ("First-round dealer", "首局庄家"),
    "no_declaration": ("Nobody declared", "无人亮主时"),
    "first_round_no_declaration": ("Nobody declared in round 1", "首局无人亮主时"),
    "redeal_request": ("Weak hand may ask for a redeal", "牌太差可要求重发（暴动）"),
    "redeal_request_max_points": ("Redeal: at most points", "重发：最多分数"),
    "override_count_multiplies_stake": ("Overrides multiply the stake", "反主次数翻倍"),
    "notrump_level_tractor": ("No-trump: level pair + small joker pair is a tractor", "无主：级牌对+小王对算拖拉机"),
    "throw_penalty": ("Failed throw penalty", "甩牌失败罚分"),
    "throw_penalty_points": ("Penalty points", "罚分"),
    "kitty_multiplier": ("Kitty multiplier", "抠底倍数"),
    "scoring_table": ("Scoring table", "升级表"),
    "level_cap": ("Most levels per round", "每局最多升级"),
    "scale_with_decks": ("Scale scoring with decks", "按副数调整分数线"),
    "match_end": ("Match end", "比赛结束"),
    "joker_level": ("Play the joker level (王) after A", "过A后打王（无主）"),
    "must_defend": ("Levels that must be defended", "必打级"),
    "match_target_level": ("Ends when a side reaches level", "打到此级结束"),
    "match_rounds": ("Rounds", "局数"),
    "match_minutes": ("Minutes", "分钟"),
    "start_level": ("Start level", "起始级"),
    "partnership": ("Partners", "搭档"),
}

# every option value of every choice setting, by value (the same value means the same thing)
OPTIONS: dict[str, Text] = {
    "level_card": ("show a level card", "亮级牌"),
    "joker_backed": ("level card with a joker of its colour", "级牌带同色王"),
    "first_declarer": ("whoever declares first deals", "先亮主者坐庄（抢庄）"),
    "last_declarer": ("the last override before the kitty deals", "最后反主者坐庄（反主反打）"),
    "kitty_first": ("the kitty's first card sets trump", "翻底牌第一张定主"),
    "kitty_third": ("the kitty's third card sets trump", "翻底牌第三张定主"),
    "kitty_pair": ("the kitty's third card sets trump; whoever can pair it deals", "翻底牌第三张定主，能与之配对的一方坐庄"),
    "anyone": ("anyone", "任何人"),
    "dealer_side": ("the dealer's side (the others only if it cannot)", "庄家一方（叫不起主时另一方才可以）"),
    "redeal": ("deal again", "重新发牌"),
    "exponential": ("single ×2, pair ×4, tractor ×2·2ⁿ", "单张×2、对子×4、拖拉机×2·2ⁿ"),
    "linear": ("tractor ×4 per pair", "拖拉机按对数×4"),
    "fixed16": ("any tractor ×16", "拖拉机一律×16"),
    "flat8": ("any tractor ×8", "拖拉机一律×8"),
    "by_size": ("×2 per card of the largest combination", "按最大牌型张数×2"),
    "standard": ("standard", "标准"),
    "fine": ("finer steps (Super Tractor)", "细分（超级拖拉机）"),
    "none": ("none", "不罚"),
    "points": ("points", "罚分"),
    "stake": ("half the stake", "扣一半底金"),
    "pass_ace": ("past A wins", "过A获胜"),
    "wrap": ("past A starts again at 2", "过A从2重新开始"),
    "fixed_rounds": ("a fixed number of rounds", "固定局数"),
    "timed": ("timed", "限时"),
    "fixed": ("fixed partners", "固定对家"),
    "find_friend": ("find a friend (the dealer calls a card)", "找朋友（庄家叫牌定对家）"),
}

PRESETS: dict[str, tuple[Text, Text]] = {  # name: ((English title, Chinese title), (English, Chinese) description)
    "classic": (("Classic", "经典"), (
        "Two decks, fixed partners; declare with a level card, a pair overrides a single, a joker pair declares"
        " no-trump; kitty ×2, ×4, or ×2·2ⁿ for a tractor; the first team past A wins.",
        "两副牌，固定对家；亮级牌定主，对子反单张，对王无主；抠底单张×2、对子×4、拖拉机×2·2ⁿ；过A获胜。")),
    "bianfeng-fixed": (("Bianfeng, fixed partners", "边锋·定"), (
        "Declare with a level card and a joker of its colour; after round 1 only the dealer's side declares (the"
        " others when it cannot, taking the deal); a joker pair only overrides; nobody declared: the kitty's third"
        " card sets trump and whoever can pair it deals; overrides after the bury; in the first round the last"
        " override deals; a weak hand may ask for a redeal; at most 6 levels a round; a failed throw costs half the"
        " stake; levels start again past A.",
        "级牌带同色王亮主，首局后只有庄家一方报主（叫不起时对方可叫并换庄），对王只能反主，无人报主翻底牌第三张、能配对的一方坐庄，"
        "扣底后可反主炒底，首局反主反打，闲家牌少于15分可暴动，每局最多升6级，甩牌失败扣一半底金，过A循环。")),
    "bianfeng-friend": (("Bianfeng, find a friend", "边锋·寻"), (
        "The Bianfeng rules with find-a-friend: after taking the kitty the dealer calls a card and its holder is the"
        " partner (one against three if the dealer holds both); after round 1 only the dealer declares (the others"
        " when the dealer cannot); a joker pair only overrides; each player keeps a level; levels start again past A.",
        "边锋规则加找朋友：庄家拿底后叫一张牌，持有者为对家（庄家两张都有则一打三），首局后只有庄家报主（叫不起时他人可叫），"
        "对王只能反主，级别按人计，过A循环。")),
    "competition": (("Competition", "比赛"), (
        "A timed match of 30 minutes: the higher level wins, a tie goes to whoever reached it first; a tractor"
        " captures the kitty ×16; in no-trump only the joker pairs chain into a tractor.",
        "限时30分钟，级别高者胜，同级先到者胜；拖拉机抠底×16；无主时只有大小王对算拖拉机。")),
    "kq-competition": (("K&Q competition", "K&Q双升比赛"), (
        "Two decks; declare with a level card and a joker, override with a pair and a joker, a joker pair only"
        " overrides (no-trump); nobody declared: the kitty's third card; a tractor captures the kitty ×8; in no-trump"
        " only the joker pairs chain; 30 minutes or first to 6, then the higher level wins.",
        "两副牌；单张级牌带王叫主，对级牌带王反主，对王只能反主（无主）；无人叫主翻底牌第三张；拖拉机抠底×8；"
        "无主时只有大小王对算拖拉机；打30分钟或一方先打到6结束，级别高者胜。")),
    "super-four-deck": (("Super Tractor, four decks", "超级拖拉机"), (
        "Four decks, 52 cards each and an 8-card kitty; overrides ranked big joker, small joker, ♠, ♥, ♣, ♦;"
        " override after the bury; a joker pair only overrides; the kitty's third card sets trump when nobody declares;"
        " kitty ×4 per tractor pair; the finer level table in 80-point steps (400 points); overrides multiply the"
        " stake; levels start again past A.",
        "四副牌，每人52张、底牌8张；反主按大王>小王>黑桃>红桃>梅花>方片，扣底后可反主，对王只能反主，无人亮主翻底牌第三张，"
        "连对抠底×4×对数，细分升级表按80分一级（共400分），反主次数翻倍，过A循环。")),
    "three-deck": (("Three decks", "三副牌"), (
        "Three decks, 39 cards each and a 6-card kitty; triples and Titanics (runs of triples), kitty ×6 for a"
        " triple and ×2·3ⁿ for a Titanic; 300 points, thresholds scaled to match.",
        "三副牌，每人39张、底牌6张；有三张和Titanic（相邻三张连），三张抠底×6，Titanic×2·3ⁿ；共300分，分数线相应放大。")),
    "one-deck": (("One deck", "一副牌"), (
        "One deck (40 points): 12 cards each and a 6-card kitty; no pairs or tractors; 100 points with the"
        " thresholds halved.",
        "一副牌（40分）：每人12张、底牌6张；没有对子和拖拉机；共100分，分数线减半。")),
}


def _pick(text: Text, lang: str) -> str:
    return text[1] if lang.startswith("zh") else text[0]


def setting_label(name: str, lang: str) -> str:
    return _pick(SETTINGS.get(name, (name.replace("_", " "), name.replace("_", " "))), lang)


def option_label(value: str, lang: str) -> str:
    return _pick(OPTIONS.get(value, (value.replace("_", " "), value.replace("_", " "))), lang)


def labels() -> dict[str, object]:
    """Every text above, both languages, for ``/api/rules``."""
    def both(t: Text) -> dict[str, str]:
        return {"en": t[0], "zh": t[1]}
    return {
        "settings": {k: both(v) for k, v in SETTINGS.items()},
        "options": {k: both(v) for k, v in OPTIONS.items()},
        "presets": {k: {"title": both(title), "description": both(about)} for k, (title, about) in PRESETS.items()},
    }


# ------------------------------------------------------------------ refusals of a rule set
def _quoted(s: str) -> str:
    return s.strip("'\"")


def _options_zh(listed: str) -> str:
    return "、".join(option_label(o.strip(), "zh") for o in listed.split(","))


# (pattern on the engine's English message after "setting 'NAME' ", Chinese text); groups fill {1}, {2}
_SETTING_ZH: list[tuple[re.Pattern[str], str]] = [(re.compile(p), zh) for p, zh in [
    (r"^cannot be (.+): choose one of (.+)$", "不能是 {1}，可选：{2o}"),
    (r"^must be an integer$", "必须是整数"),
    (r"^must be true or false$", "只能是“是”或“否”"),
    (r"^must be text, not (.+)$", "必须是文字"),
    (r"^is too long \((\d+) characters, at most (\d+)\)$", "太长了（{1} 个字，最多 {2} 个）"),
    (r"^holds a character that is not allowed \((.+)\)$", "含有不允许的字符（{1}）"),
    (r"^must be (\d+) to (\d+), not (.+)$", "必须在 {1} 到 {2} 之间，不能是 {3}"),
    (r"^must be 4, 6 or 8, not (.+)$", "只能是 4、6 或 8，不能是 {1}"),
    (r"^must be empty or a whole number$", "必须留空或填写整数"),
    (r"^and kitty_size must use all (\d+) cards: (.+)$", "和底牌张数必须正好用完 {1} 张牌：{2}"),
    (r"^must be positive$", "必须大于 0"),
    (r"^must be one of (.+?)(?:, not (.+))?$", "必须是 {1} 之一"),
    (r"^must be a list of levels such as (.+), not (.+)$", "必须是级别的列表，例如 {1}"),
    (r"^has (.+), not a level$", "中的 {1} 不是级别"),
    (r"^must be set for a fixed-length match$", "固定局数的比赛必须填写局数"),
    (r"^must be set for a timed match$", "限时比赛必须填写分钟数"),
]]

_OTHER_ZH: list[tuple[re.Pattern[str], str]] = [(re.compile(p), zh) for p, zh in [
    (r"^unknown setting\(s\): (.+)$", "没有这些设置：{1}"),
    (r"^no rules preset named (.+); presets: (.+)$", "没有名为 {1} 的规则方案；可选：{2p}"),
    (r"^rules must be (.+)$", "规则必须是方案名或设置对象"),
]]


def rules_error_text(exc: RuleSetError | str, lang: str) -> str:
    """A refused rule set's reason in the player's language (the engine words it in English)."""
    en = str(exc)
    if not lang.startswith("zh"):
        return en
    m = re.match(r"^setting '([a-z_]+)' (.+)$", en, re.S)
    if m:
        label = setting_label(m.group(1), "zh")
        for pattern, zh in _SETTING_ZH:
            found = pattern.match(m.group(2))
            if found:
                groups = [_quoted(g or "") for g in found.groups()]
                text = zh.replace("{2o}", _options_zh(groups[1]) if len(groups) > 1 else "")
                for i, g in enumerate(groups, 1):
                    text = text.replace(f"{{{i}}}", g)
                return f"设置“{label}”{text}"
        return f"设置“{label}”的值不能用"
    m = re.match(r"^not supported yet: (.+)$", en, re.S)
    if m:  # "name=value, ..." → each setting's and value's Chinese
        parts = []
        for item in m.group(1).split(", "):
            name, _, value = item.partition("=")
            parts.append(f"{setting_label(name, 'zh')}={option_label(_quoted(value), 'zh')}")
        return "暂不支持：" + "，".join(parts)
    for pattern, zh in _OTHER_ZH:
        found = pattern.match(en)
        if found:
            text = zh
            if "{2p}" in text:  # the presets by their Chinese titles
                text = text.replace("{2p}", "、".join(PRESETS[p.strip()][0][1] if p.strip() in PRESETS else p.strip()
                                                      for p in found.group(2).split(",")))
            for i, g in enumerate(found.groups(), 1):
                text = text.replace(f"{{{i}}}", _quoted(g or ""))
            return text
    return "这些规则不能用"
