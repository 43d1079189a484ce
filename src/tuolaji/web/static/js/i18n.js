// @ts-check
// Chinese and English texts. Chinese is the default when the browser prefers it.
const STRINGS = {
  en: {
    title: "Tractor", subtitle: "拖拉机 · 升级 · 80 points", home: "Home",
    play_computer: "Play against the computer", play_friends: "Play with friends on this network",
    your_name: "Your name", difficulty: "Computer players", speed: "Game speed", timer: "Turn timer",
    timer_off: "off", seconds: "{n} s", rules: "Rules", preset: "Preset", change_rules: "Change settings",
    start_game: "Play", create_room: "Create a room", join_room: "Join", room_code: "Room code",
    saved_games: "Saved games", no_saved: "No saved games yet.", resume: "Resume", watch: "Watch",
    replay: "Replay", export: "Export", delete: "Delete", import_record: "Import a game record",
    import_done: "Imported as room {code}.", confirm_delete: "Delete game {code}?",
    boot_download: "Downloading the game ({loaded} of {total} MB; only the first time)…", boot_python: "Starting Python…",
    boot_game: "Shuffling the cards…", boot_failed: "The game could not start in this browser: {message}",
    offline_ready: "Ready to play offline.",
    lan_hint: "Friends on the same network open:", lan_none: "Start with “tuolaji serve” to let friends on the network join.",
    easy: "easy", normal: "normal", hard: "hard", expert: "expert",
    slow: "slow", fast: "fast", instant: "instant",
    status_lobby: "waiting to start", status_playing: "in progress", status_finished: "finished",
    round_n: "Round {n}", seat_n: "Seat {n}", you: "you", bot: "computer", away: "away (computer plays)",
    autoplay_on: "computer plays for you", spectators: "{n} watching",
    lobby_title: "Room {code}", share: "Share this link:", copy: "Copy", copied: "Copied",
    sit_here: "Sit here", stand_up: "Leave seat", start: "Start the game", waiting_host: "Waiting for the host to start…",
    empty_seat: "empty — computer", take_seat: "Choose a seat, or watch.",
    trump: "Trump", no_trump: "no-trump", level: "Level", dealer: "Dealer", points: "Points",
    attackers_points: "Attackers' points", us: "Us", them: "Them", team_n: "Team {n}",
    levels: "Levels", last_trick: "Last trick", log: "Game log", your_hand: "Your hand",
    phase_deal: "Dealing", phase_declare: "Last call to declare", phase_bury: "Burying the kitty",
    phase_play: "Playing", phase_done: "Round over", phase_override: "Override after the bury",
    phase_call_friend: "Calling a friend",
    declare: "Declare {cards}", pass: "Pass", bury: "Bury ({n}/{k})", play: "Play", hint: "Hint",
    redeal: "Ask for a redeal", call_friend: "Call friend", autoplay: "Auto-play", autoplay_stop: "Take back",
    your_turn: "Your turn", waiting_for: "Waiting for {name}…", thinking: "{name} is thinking…",
    lead_anything: "You lead: any single, pair, tractor, or a throw of top cards in one suit.",
    follow_n: "Follow with {n} card(s).", select_bury: "Choose {k} cards to bury.",
    legal: "✓ legal", why: "Why?", close: "Close", coach: "Coach",
    hint_play: "Hint: {cards}", hint_pass: "Hint: pass", hint_declare: "Hint: declare {cards}",
    refused: "Refused", declare_during_deal: "You may declare while the cards are dealt.",
    summary_title: "Round {n} result", trick_points: "Points in tricks", kitty: "Kitty",
    kitty_captured: "Kitty captured: {p} × {m} = {t}", kitty_safe: "Kitty kept safe by the dealer's side ({p} points)",
    total: "Attackers' total", result_dealer: "Dealer's side goes up {n} level(s)",
    result_attackers: "Attackers take over the deal and go up {n} level(s)",
    result_attackers0: "Attackers take over the deal (no level change)",
    level_change: "Levels: {before} → {after}", review: "Where points were lost", review_none: "No points lost. Well played!",
    next_round: "Next round", ready_n: "{n} ready", match_over: "Match over", winner_team: "{team} win the match!",
    we_win: "Your team wins the match!", they_win: "The other team wins the match.",
    trick_n: "Trick {n}", reconnecting: "Connection lost — reconnecting…", room_missing: "There is no room {code}.",
    copy_link: "Copy link", settings: "Settings", language: "中文",
    ev_declared: "{name} declares {cards}", ev_trump_fixed: "Trump: {trump}. {name} deals and takes the kitty.",
    ev_buried: "{name} buried the kitty", ev_trick: "{name} wins the trick ({p} points)", ev_redealt: "Nobody declared: dealing again.", ev_skipped: "… {n} earlier events not shown",
    ev_failed_throw: "{name}'s throw {tried} failed: must play {cards}", ev_round: "Round over: attackers {p} points",
    ev_friend_called: "{name} calls {card}", ev_friend_revealed: "{name} is the dealer's friend",
    ev_played: "{name}: {cards}", ev_passed: "{name} passes",
    replay_title: "Replay of room {code}", replay_round: "Round", replay_seat: "View of",
    spectator: "spectator", prev_trick: "◀◀ trick", prev: "◀ play", next: "play ▶", next_trick: "trick ▶▶",
    step_n: "Step {i} of {n}", replay_none: "No finished round to replay yet.",
    step_buried: "{name} buried the kitty", step_declare: "Last call", step_bury: "{name} takes the kitty",
    step_play: "Trick {t}: {name} plays {cards}", step_done: "Round over",
    bad_rules: "These settings cannot be played: {e}", rules_ok: "These rules can be played.",
    start_page: "Start page", you_are: "You are {name}", players: "Players", cards_left: "{n} cards",
    none: "none", from_kitty: "from the kitty", lang_name: "English",
    rounds_n: "{n} rounds", unknown: "unknown",
  },
  zh: {
    title: "拖拉机", subtitle: "升级 · 80分 · Tractor", home: "首页",
    play_computer: "和电脑玩", play_friends: "和局域网里的朋友玩",
    your_name: "你的名字", difficulty: "电脑水平", speed: "游戏速度", timer: "出牌限时",
    timer_off: "不限时", seconds: "{n} 秒", rules: "规则", preset: "规则方案", change_rules: "修改设置",
    start_game: "开始", create_room: "创建房间", join_room: "加入", room_code: "房间号",
    saved_games: "保存的牌局", no_saved: "还没有保存的牌局。", resume: "继续", watch: "观战",
    replay: "回放", export: "导出", delete: "删除", import_record: "导入牌谱文件",
    import_done: "已导入为房间 {code}。", confirm_delete: "删除牌局 {code}？",
    boot_download: "正在下载游戏（{loaded} / {total} MB，只需第一次）…", boot_python: "正在启动 Python…",
    boot_game: "正在洗牌…", boot_failed: "游戏无法在这个浏览器中启动：{message}",
    offline_ready: "已可离线游戏。",
    lan_hint: "同一网络的朋友打开：", lan_none: "用 “tuolaji serve” 启动，局域网里的朋友就能加入。",
    easy: "简单", normal: "普通", hard: "困难", expert: "高手",
    slow: "慢", fast: "快", instant: "极快",
    status_lobby: "等待开始", status_playing: "进行中", status_finished: "已结束",
    round_n: "第 {n} 局", seat_n: "{n} 号位", you: "你", bot: "电脑", away: "离开（电脑托管）",
    autoplay_on: "电脑托管中", spectators: "{n} 人观战",
    lobby_title: "房间 {code}", share: "分享这个链接：", copy: "复制", copied: "已复制",
    sit_here: "坐这里", stand_up: "离开座位", start: "开始游戏", waiting_host: "等待房主开始……",
    empty_seat: "空位 — 电脑", take_seat: "选一个座位，或者观战。",
    trump: "主", no_trump: "无主", level: "级", dealer: "庄家", points: "得分",
    attackers_points: "闲家得分", us: "我方", them: "对方", team_n: "{n} 队",
    levels: "级数", last_trick: "上一墩", log: "牌局记录", your_hand: "你的手牌",
    phase_deal: "发牌中", phase_declare: "最后亮主", phase_bury: "扣底",
    phase_play: "出牌", phase_done: "本局结束", phase_override: "反主炒底", phase_call_friend: "叫朋友",
    declare: "亮 {cards}", pass: "不亮", bury: "扣底（{n}/{k}）", play: "出牌", hint: "提示",
    redeal: "要求重发", call_friend: "叫朋友", autoplay: "托管", autoplay_stop: "取消托管",
    your_turn: "轮到你了", waiting_for: "等待 {name}……", thinking: "{name} 思考中……",
    lead_anything: "你首出：单张、对子、拖拉机，或同一门的大牌甩牌。",
    follow_n: "跟 {n} 张牌。", select_bury: "选 {k} 张牌扣底。",
    legal: "✓ 可以出", why: "为什么？", close: "关闭", coach: "教练",
    hint_play: "提示：{cards}", hint_pass: "提示：不亮", hint_declare: "提示：亮 {cards}",
    refused: "不能这样出", declare_during_deal: "发牌时可以随时亮主。",
    summary_title: "第 {n} 局结果", trick_points: "闲家墩内得分", kitty: "底牌",
    kitty_captured: "抠底：{p} × {m} = {t}", kitty_safe: "庄家方保底（底牌 {p} 分）",
    total: "闲家总分", result_dealer: "庄家方升 {n} 级",
    result_attackers: "闲家上台并升 {n} 级", result_attackers0: "闲家上台（不升级）",
    level_change: "级数：{before} → {after}", review: "丢分的墩", review_none: "没有丢分，打得好！",
    next_round: "下一局", ready_n: "{n} 人已准备", match_over: "比赛结束", winner_team: "{team} 获胜！",
    we_win: "你们队赢得了比赛！", they_win: "对方赢得了比赛。",
    trick_n: "第 {n} 墩", reconnecting: "连接中断，正在重连……", room_missing: "没有房间 {code}。",
    copy_link: "复制链接", settings: "设置", language: "English",
    ev_declared: "{name} 亮 {cards}", ev_trump_fixed: "主：{trump}。{name} 坐庄并拿底牌。",
    ev_buried: "{name} 扣好了底牌", ev_trick: "{name} 赢得此墩（{p} 分）", ev_redealt: "没人亮主，重新发牌。", ev_skipped: "……省略了 {n} 条较早的记录",
    ev_failed_throw: "{name} 甩牌 {tried} 失败，必须出 {cards}", ev_round: "本局结束：闲家 {p} 分",
    ev_friend_called: "{name} 叫 {card}", ev_friend_revealed: "{name} 是庄家的朋友",
    ev_played: "{name}：{cards}", ev_passed: "{name} 不亮",
    replay_title: "房间 {code} 回放", replay_round: "局", replay_seat: "视角",
    spectator: "旁观", prev_trick: "◀◀ 上一墩", prev: "◀ 上一步", next: "下一步 ▶", next_trick: "下一墩 ▶▶",
    step_n: "第 {i} / {n} 步", replay_none: "还没有打完的局可以回放。",
    step_buried: "{name} 扣好了底牌", step_declare: "最后亮主", step_bury: "{name} 拿底牌",
    step_play: "第 {t} 墩：{name} 出 {cards}", step_done: "本局结束",
    bad_rules: "这些设置还不能玩：{e}", rules_ok: "可以按这些规则玩。",
    start_page: "首页", you_are: "你是 {name}", players: "玩家", cards_left: "{n} 张",
    none: "无", from_kitty: "来自底牌", lang_name: "中文",
    rounds_n: "{n} 局", unknown: "未知",
  },
};

export const SETTING_LABELS = {
  en: {
    decks: "Decks", players: "Players", hand_size: "Hand size", kitty_size: "Kitty size",
    declare_style: "Declaring", suit_order_overrides: "Suit order breaks ties (♠>♥>♣>♦)",
    self_override: "May override own declaration", pair_locks: "A declared pair locks trump",
    override_after_bury: "Override after the bury (反主炒底)", first_round_dealer: "First-round dealer",
    no_declaration: "Nobody declared", first_round_no_declaration: "Nobody declared in round 1",
    redeal_request: "Weak hand may ask for a redeal", redeal_request_max_points: "Redeal: at most points",
    override_count_multiplies_stake: "Overrides multiply the stake", notrump_level_tractor: "No-trump: level pair + LJ LJ is a tractor",
    throw_penalty: "Failed throw penalty", throw_penalty_points: "Penalty points", kitty_multiplier: "Kitty multiplier",
    scoring_table: "Scoring table", level_cap: "Most levels per round", scale_with_decks: "Scale scoring with decks",
    match_end: "Match end", must_defend: "Levels that must be defended", match_rounds: "Rounds", match_minutes: "Minutes",
    start_level: "Start level", partnership: "Partners", name: "Name",
  },
  zh: {
    decks: "几副牌", players: "人数", hand_size: "每人张数", kitty_size: "底牌张数",
    declare_style: "亮主方式", suit_order_overrides: "同级按花色比大小（♠>♥>♣>♦）",
    self_override: "可以反自己的主", pair_locks: "亮对定主", override_after_bury: "扣底后反主（反主炒底）",
    first_round_dealer: "首局庄家", no_declaration: "无人亮主时", first_round_no_declaration: "首局无人亮主时",
    redeal_request: "牌太差可要求重发（暴动）", redeal_request_max_points: "重发：最多分数",
    override_count_multiplies_stake: "反主次数翻倍", notrump_level_tractor: "无主：级牌对+小王对算拖拉机",
    throw_penalty: "甩牌失败罚分", throw_penalty_points: "罚分", kitty_multiplier: "抠底倍数",
    scoring_table: "升级表", level_cap: "每局最多升级", scale_with_decks: "按副数调整分数线",
    match_end: "比赛结束", must_defend: "必打级", match_rounds: "局数", match_minutes: "分钟",
    start_level: "起始级", partnership: "搭档", name: "名称",
  },
};

export function preferredLang() {
  const saved = localStorage.getItem("tuolaji.lang");
  if (saved === "zh" || saved === "en") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return String(langs[0] || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

let current = preferredLang();

export function lang() { return current; }

export function setLang(l) {
  current = l === "zh" ? "zh" : "en";
  localStorage.setItem("tuolaji.lang", current);
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
}

export function t(key, vars = {}) {
  const table = STRINGS[current] || STRINGS.en;
  let s = table[key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

export function settingLabel(name) {
  return (SETTING_LABELS[current] || SETTING_LABELS.en)[name] || name.replace(/_/g, " ");
}

// Preset names and summaries in Chinese; English uses the preset's own name and description.
export const PRESETS_ZH = {
  "classic": ["经典", "默认玩法（种子 000 A、001、002）：两副牌，固定对家，亮级牌定主，对子反单张，对王无主；抠底单张×2、对子×4、拖拉机×2·2ⁿ；过A获胜。"],
  "bianfeng-fixed": ["边锋·定", "边锋“定”字房（种子 000 C）：级牌带同色王亮主，扣底后可反主炒底，首局反主反打，闲家牌少于15分可暴动，每局最多升6级，甩牌失败扣一半底金，过A循环。"],
  "bianfeng-friend": ["边锋·寻", "边锋“寻”字房（种子 000 C、001）：边锋规则加挑选对家：庄家拿底后叫一张牌，持有者为对家（庄家两张都有则一打三），级别按人计，过A循环。"],
  "competition": ["比赛", "比赛规则（种子 003，及种子 004 附录）：限时30分钟，级别高者胜，同级先到者胜；拖拉机抠底×16；无主时只有大小王对算拖拉机。"],
  "super-four-deck": ["超级拖拉机", "超级拖拉机（种子 004）：四副牌，每人52张、底牌8张；反主按大王>小王>黑桃>红桃>梅花>方片，扣底后可反主，无人亮主翻底牌第三张，连对抠底×4×对数，细分升级表，过A循环。"],
  "three-deck": ["三副牌", "三副牌（种子 000、001）：每人39张、底牌6张；有三张和Titanic（相邻三张连），三张抠底×6，Titanic×2·3ⁿ；共300分，分数线×1.5。"],
  "one-deck": ["一副牌", "一副牌（升级／40分，种子 002）：每人12张、底牌6张；没有对子和拖拉机；共100分，分数线减半。"],
};

export function presetLabel(name, description) {
  const zh = current === "zh" ? PRESETS_ZH[name] : null;
  return zh ? { name: zh[0], description: zh[1] } : { name, description };
}
