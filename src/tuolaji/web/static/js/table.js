// @ts-check
// The table: seats around the felt, the trick, the hand and the buttons, the coach, the side
// panel (last trick, kitty, log) and the dialogs. The server decides everything; this page
// draws the state it is sent and sends the player's choices through a Transport.
import { t, lang } from "./i18n.js";
import { cardRow, cardText, cardsText, suitText } from "./cards.js";
import { h, swap, toast } from "./dom.js";
import { token, setToken, savedName } from "./api.js";
import { follow, go, link, roomLink } from "./nav.js";
import { openTransport } from "./transport.js";
import { PHASE_KEYS, defaultName, langButton, levelLabel, relSeat, seatPlace, signed, trumpText } from "./ui.js";
import { onHandKey, renderHand, selectCards, selectedCards } from "./hand.js";
import { lobbyDialog, matchEndDialog, summaryDialog } from "./summary.js";
import { GameLog, throwPenalty } from "./log.js";
import { recordMatch, recordRound } from "./stats.js";
import { RoundTally, effectiveSuit, GROUPS } from "./tally.js";
import { applyMotion, dealTo, flyIn, fxOn, motionOn, play as playCue, reducedMotion, setFx, sweepTo } from "./fx.js";
import { helpDialog } from "./help.js";

/**
 * @typedef {import("./wire").ServerMessage} ServerMessage
 * @typedef {import("./wire").StateMsg} StateMsg
 * @typedef {import("./wire").TableView} TableView
 * @typedef {import("./wire").CheckedMsg} CheckedMsg
 * @typedef {import("./wire").HintAction} HintAction
 * @typedef {import("./wire").Options} Options
 * @typedef {import("./transport.js").ClientMessage} ClientMessage
 * @typedef {{ reason: string, why: string, open: boolean, check: boolean }} CoachMsg  a refusal or a failed check, folded or open
 */

export class TablePage {
  /**
   * @param {string} code the room
   * @param {{ readonly?: boolean, container: HTMLElement }} opts readonly: a replay frame (no connection)
   */
  constructor(code, { readonly = false, container }) {
    this.code = code;
    this.readonly = readonly;
    /** @type {Set<string>} rounds and the match this page has counted in the statistics */
    this.counted = new Set();
    this.container = container;
    /** @type {StateMsg | null} */
    this.state = null;
    /** @type {string[]} keys of the selected hand cards (see hand.js) */
    this.selected = [];
    /** @type {string | null} */
    this.focusKey = null;
    this.reqId = 0;
    /** @type {number | null} the id of the action sent and not yet acknowledged */
    this.pendingAction = null;
    /** @type {number | null} */
    this.pendingCheck = null;
    /** @type {CheckedMsg | null} */
    this.checkResult = null;
    /** @type {CoachMsg | null} */
    this.coachMsg = null;
    /** @type {string | null} */
    this.hintText = null;
    this.log = new GameLog();
    this.retry = 0;
    this.destroyed = false;
    this.gone = false;
    this.settingsOpen = false;
    this.prefsOpen = false;
    /** @type {number | null} the round whose summary was shown last */
    this.summaryRound = null;
    this.summaryClosed = false;
    this.tally = new RoundTally();
    /** @type {import("./wire").ChatLine[]} */
    this.chatLines = [];
    /** @type {HTMLElement | null} a dialog the player opened (rules help) */
    this.extraDialog = null;
    /** the friend call chosen so far (find-a-friend), kept while the buttons redraw */
    this.friendPick = { card: "SA", nth: 1 };
    /** @type {Record<string, any> | null} the room's rules (from welcome) */
    this.rules = null;
    /** @type {{ seat: number, tried: string[], cards: string[], by: number | null, beating: string[] | null } | null} the last failed throw, shown until the trick ends */
    this.failedThrow = null;
    /** @type {string} the trick and the number of its plays drawn last (new plays slide in) */
    this.drawnPlays = "";
    /** @type {Set<string> | null} the hand's cards drawn last (new ones fly in from the deck) */
    this.handSeen = null;
    /** @type {number[] | null} the seats' card counts drawn last (a card dealt flies to its seat) */
    this.sizesSeen = null;
    /** @type {{ key: string, at: number } | null} the finished trick being swept to its winner, since when */
    this.sweep = null;
    applyMotion();
    /** @type {number | null} the round being played when this page opened */
    this.firstRound = null;
    /** @type {import("./wire").Summary | null} the last round's summary (sent only between rounds) */
    this.lastSummary = null;
    /** @type {import("./transport.js").Transport | null} */
    this.transport = null;
    /** @type {{ state: StateMsg, at: number } | null} */
    this.timerBase = null;
    /** @type {{ state: StateMsg, at: number } | null} when the match clock's last reading came */
    this.clockBase = null;
    // the page's regions, each redrawn on its own (see swap() in dom.js)
    this.root = h("div", { class: "table-page", "data-phase": "", "data-my-turn": "false" });
    this.topbar = h("header", { class: "topbar" });
    this.bannerEl = h("div", { class: "banner", role: "alert", hidden: true });
    this.felt = h("section", { class: "felt", "aria-label": t("felt") });
    this.statusEl = h("p", { class: "status-line", id: "status", "aria-live": "polite" });
    this.handEl = h("div", { id: "hand", class: "hand", role: "listbox", "aria-multiselectable": "true", "aria-label": t("your_hand"), tabindex: "-1" });
    this.actionsEl = h("div", { class: "actions", id: "actions" });
    this.coachEl = h("div", { class: "coach", id: "coach", role: "status", "aria-live": "polite" });
    this.handArea = h("section", { class: "hand-area" }, this.statusEl, this.handEl, this.actionsEl, this.coachEl);
    this.side = h("aside", { class: "side" });
    this.overlay = h("div", { class: "overlay", id: "overlay", hidden: true });
    this.root.append(this.topbar, this.bannerEl, this.felt, this.handArea, this.side, this.overlay);
    this.container.appendChild(this.root);
    this.handEl.addEventListener("keydown", (e) => onHandKey(this, e));
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => this.onGlobalKey(e);
    if (!this.readonly) document.addEventListener("keydown", this.onKey);
    // a phone held sideways (style.css's query of that name): the call-a-friend controls take short
    // words there, so the status line beside them keeps to two lines and the felt its height
    this.sideways = typeof matchMedia === "function" ? matchMedia("(orientation: landscape) and (max-height: 500px)") : null;
    this.onSideways = () => { if (this.state) this.renderActions(); };
    if (this.sideways) this.sideways.addEventListener("change", this.onSideways);
    if (!readonly) this.connect();
    this.tick = setInterval(() => this.renderTimer(), 250);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.tick);
    if (this.transport) this.transport.close();
    document.removeEventListener("keydown", this.onKey);
    if (this.sideways) this.sideways.removeEventListener("change", this.onSideways);
  }

  // ---------------------------------------------------------------- connection
  connect() {
    const transport = openTransport(this.code, {
      open: () => {
        this.retry = 0;
        this.pendingAction = null;  // an action lost with the old connection is not waited for
        this.banner(null);
        const password = sessionStorage.getItem(`tuolaji.password.${this.code}`) || undefined;
        transport.send({ type: "hello", token: token() || undefined, lang: lang(), name: savedName() || undefined, password });
      },
      message: (m) => this.onMessage(m),
      lost: () => {
        if (this.destroyed || this.gone) return;
        this.banner(t("reconnecting"));
        const delay = Math.min(5000, 300 * 2 ** this.retry++);
        setTimeout(() => { if (!this.destroyed) this.connect(); }, delay);
      },
    });
    this.transport = transport;
  }

  /**
   * Send a message with a fresh id (the server echoes it as "re").
   * @param {ClientMessage} msg
   * @returns {number | null} the id, or null when not connected
   */
  send(msg) {
    if (!this.transport) return null;
    msg.id = ++this.reqId;
    return this.transport.send(msg) ? msg.id : null;
  }

  /** @param {ServerMessage} m */
  onMessage(m) {
    switch (m.type) {
      case "welcome":
        if (m.token) setToken(m.token);
        this.rules = m.rules;
        break;
      case "state":
        this.onState(m);
        break;
      case "chat":
        this.chatLines.push(...m.lines);
        this.chatLines.splice(0, Math.max(0, this.chatLines.length - 30));
        if (this.state) this.renderSide();
        break;
      case "refused":
        if (this.hintText && this.hintText.endsWith("…")) this.hintText = null;
        if (m.code === "bad_password") { this.askPassword(m.reason); return; }
        // a table that cannot be opened: gone, or (offline build) a damaged or foreign save
        if (m.code === "no_room" || m.code === "bad_save" || m.code === "foreign_save") { this.gone = true; this.root.innerHTML = ""; this.root.appendChild(h("p", { class: "gone" }, m.code === "no_room" ? t("room_missing", { code: this.code }) : m.reason, " ", h("a", { href: link("/") }, t("start_page")))); return; }
        if (m.re !== undefined && m.re === this.pendingAction) this.pendingAction = null;
        this.coachMsg = { reason: m.reason, why: m.why, open: false, check: false };
        this.renderActions();
        break;
      case "checked":
        if (m.re === this.pendingCheck) { this.checkResult = m; this.renderActions(); }
        break;
      case "hint":
        this.applyHint(m.action);
        break;
      case "notice":  // e.g. the server cannot save the game now (its disk): every player is told
        toast(m.reason);
        break;
      case "closed":
        this.gone = true;
        go("/");
        break;
      default:
        break;
    }
  }

  /** @param {StateMsg} m */
  onState(m) {
    const prev = this.state;
    this.state = m;
    if (m.summary) this.lastSummary = m.summary;
    this.count(m);
    if (this.firstRound === null) this.firstRound = m.view.round_number;
    if (m.re && this.pendingAction !== null && m.re.includes(this.pendingAction)) {
      this.pendingAction = null;
      this.selected = [];
      this.checkResult = null;
      this.hintText = null;
      this.coachMsg = null;
    }
    const v = m.view;
    const newRound = prev && (prev.view.round_number !== v.round_number || (prev.view.phase !== "deal" && v.phase === "deal"));
    const turnChanged = !prev || !prev.options || !m.options || prev.options.turn !== m.options.turn || prev.view.phase !== v.phase;
    if (newRound || turnChanged) { this.hintText = null; this.checkResult = null; this.coachMsg = null; }  // a refusal belongs to its turn
    if (newRound) this.selected = [];
    // the game starts: the table comes into view (a phone's page may have been scrolled down to
    // the lobby's seats or its Start button)
    if (prev && prev.room.status === "lobby" && m.room.status !== "lobby") window.scrollTo(0, 0);
    this.log.add(m);
    this.watch(m, prev);
    if (localStorage.getItem("tuolaji.trumpLeft") === "on") trumpSide(m, true);
    this.render();
  }

  /**
   * A room with a password: ask for it, then greet the room again.
   * @param {string} reason
   */
  askPassword(reason) {
    const input = h("input", { id: "password-input", type: "password", maxlength: "32", "aria-label": t("password") });
    const go = () => {
      sessionStorage.setItem(`tuolaji.password.${this.code}`, input.value);
      if (this.transport) this.transport.send({ type: "hello", token: token() || undefined, lang: lang(), name: savedName() || undefined, password: input.value });
      this.overlay.hidden = true;
      this.overlay.replaceChildren();
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    this.overlay.replaceChildren(h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "pw-title" },
      h("h2", { id: "pw-title" }, t("password_ask")), h("p", { class: "muted" }, reason), input, " ",
      h("button", { type: "button", class: "primary", id: "btn-password", onclick: go }, t("join_room"))));
    this.overlay.hidden = false;
    input.focus();
  }

  /** The rules help, over the table until closed. */
  async openHelp() {
    if (!this.rules) return;
    this.extraDialog = await helpDialog(this.rules, () => { this.extraDialog = null; this.renderOverlay(); });
    this.renderOverlay();
  }

  /**
   * Count a finished round, and a finished match, in the player's statistics (stats.js counts each
   * once; this page asks once per round and match it saw).
   * @param {StateMsg} m
   */
  count(m) {
    const me = m.you ? m.you.seat : null;
    if (me === null || this.readonly) return;
    const base = { code: this.code, difficulty: m.room.settings.difficulty || "normal", rules: m.room.rules };
    const s = m.summary;
    if (s && !this.counted.has(`round ${s.round}`)) {
      this.counted.add(`round ${s.round}`);
      const won = (s.sides[me] === "dealer") === (s.result.team === "dealer");
      recordRound({ ...base, round: s.round, won, levels: won ? s.result.levels : 0 });
    }
    if (m.view.over && !this.counted.has("match")) {  // also when the clock ended it with no round finished
      this.counted.add("match");
      const team = m.room.seats[me] ? m.room.seats[me].team : null;
      recordMatch({ ...base, result: m.view.draw ? "drawn" : m.view.winner !== null && m.view.winner === team ? "won" : "lost" });
    }
  }

  /**
   * Follow the round's public events: the tally (scored cards, points left, card counter), the
   * failed throw to announce, and the sounds.
   * @param {StateMsg} m
   * @param {StateMsg | null} prev
   */
  watch(m, prev) {
    const me = m.you ? m.you.seat : null;
    const fresh = prev !== null;  // a page's first state replays the round so far: no sounds for it
    for (const e of m.events || []) {
      if (e.e === "trick_ended") {
        const lead = this.tally.current[0];
        const won = this.tally.current.find((p) => p.seat === e.winner);
        const eff = (/** @type {string} */ c) => effectiveSuit(c, m.view.trump, m.view.level);
        if (fresh && lead && won && lead.cards[0] && won.cards[0] && eff(lead.cards[0]) !== "T" && eff(won.cards[0]) === "T") playCue("ruff");
        this.failedThrow = null;
      }
      this.tally.add(e);
      if (e.e === "played" && e.attempted) {
        this.failedThrow = { seat: e.seat, tried: e.attempted, cards: e.cards, by: e.beaten_by ?? null, beating: e.beating || null };
        if (fresh) playCue("failed_throw");
      }
      if (fresh && (e.e === "declared" || e.e === "trump_fixed")) playCue("trump");
      if (fresh && e.e === "round_ended" && me !== null) playCue(e.dealer_side.includes(me) === (e.team === "dealer") ? "won" : "lost");
    }
    const myTurnNow = !!(m.options && m.options.turn && !m.between);
    const wasMyTurn = !!(prev && prev.options && prev.options.turn && !prev.between);
    if (fresh && myTurnNow && !wasMyTurn && !(m.you && m.you.autoplay)) playCue("turn");
  }

  // ---------------------------------------------------------------- layout

  /** @param {string | null} text */
  banner(text) {
    this.bannerEl.hidden = !text;
    this.bannerEl.textContent = text || "";
  }

  names() {
    const st = this.current();
    const seats = st && st.room ? st.room.seats : [];
    return seats.map((s, i) => s.name || defaultName(i, seats.length, this.me()));
  }

  /**
   * The seat's name, "(you)" added for the viewer.
   * @param {number | null | undefined} seat
   */
  name(seat) {
    if (seat === null || seat === undefined) return "?";
    const chosen = this.state && this.state.room ? (this.state.room.seats[seat] || { name: "" }).name : "";
    const n = this.names()[seat] || defaultName(seat, this.players(), this.me());
    // "我" needs no "(you)"; a chosen name or a compass name does
    return this.me() === seat && (chosen || lang() !== "zh") ? `${n} (${t("you")})` : n;
  }

  /** @returns {StateMsg} the state drawn now (the render methods run only once there is one) */
  current() {
    if (!this.state) throw new Error("no state yet");
    return this.state;
  }

  /** @returns {number | null} the viewer's seat (null: watching) */
  me() { return this.state && this.state.you ? this.state.you.seat : null; }

  /** @returns {TableView | null} */
  view() { return this.state ? this.state.view : null; }

  players() { return this.state && this.state.room ? this.state.room.seats.length : 4; }

  myTurn() { const st = this.state; return !!(st && st.options && st.options.turn && !st.between); }

  // ---------------------------------------------------------------- render
  render() {
    const st = this.state;
    if (!st) return;
    const v = st.view;
    this.root.dataset.phase = st.room.status === "lobby" ? "lobby" : (st.between ? "between" : v.phase);
    this.root.dataset.myTurn = String(this.myTurn());
    this.root.dataset.seat = this.me() === null ? "" : String(this.me());
    document.title = `${t("title")} · ${this.code}`;
    this.renderTop();
    this.renderFelt();
    renderHand(this);
    this.renderActions();
    this.renderSide();
    this.renderOverlay();
  }

  teamLabels() {
    const st = this.current();
    const v = st.view;
    const seats = st.room.seats;
    const me = this.me();
    const holders = [...new Set(seats.map((s) => s.team))];
    return holders.map((hIdx) => {
      const members = seats.map((s, i) => (s.team === hIdx ? i : null)).filter((x) => x !== null);
      let label;
      if (me !== null && holders.length === 2) label = members.includes(me) ? t("us") : t("them");
      else label = members.map((i) => this.names()[i]).join("·");
      return { label, level: levelLabel((v.level_names || [])[hIdx] ?? "?"), mine: me !== null && members.includes(me), dealer: v.dealer !== null && members.includes(v.dealer) };
    });
  }

  renderTop() {
    const st = this.current();
    const v = st.view;
    const top = document.createElement("div");
    const share = roomLink(this.code);
    // on a phone the top bar's words give way to their short forms (style.css): ← for Home, ⚙ for Settings
    top.appendChild(h("a", { class: "home", href: link("/"), onclick: follow("/"), "aria-label": t("home"), title: t("home") }, "← ", h("span", { class: "long" }, t("home"))));
    top.appendChild(h("span", { class: "room" }, `${t("room_code")} `, h("strong", { id: "room-code" }, this.code),
      share ? h("button", { type: "button", class: "small", title: share, onclick: () => { navigator.clipboard && navigator.clipboard.writeText(share); toast(t("copied")); } }, t("copy_link")) : null));
    const teams = this.teamLabels().map((x) => h("span", { class: "team" + (x.mine ? " mine" : "") + (x.dealer ? " dealer" : "") },
      `${x.label} `, h("strong", {}, x.level)));
    top.appendChild(h("span", { class: "levels", id: "levels", "aria-label": t("levels") }, ...teams));
    top.appendChild(h("span", { class: "trump", id: "trump" }, `${t("trump")} `, h("strong", { class: v.trump === "H" || v.trump === "D" ? "red" : "" }, trumpText(v))));
    if (v.friend_calls && v.friend_calls.length) {
      // every call so far: its card (and copy), ticked once its friend has shown
      const calls = v.friend_calls.map((c, i) => h("strong", { class: (c.card[0] === "H" || c.card[0] === "D" ? "red" : "") + (c.shown ? " shown" : ""), "data-call": i, title: c.shown ? t("friend_shown") : t("friend_unknown") },
        c.nth ? t("copy_of", { n: c.nth, card: cardText(c.card) }) : cardText(c.card)));
      top.appendChild(h("span", { class: "called", id: "called-card" }, `${t("called_card")} `, ...calls.flatMap((x, i) => i ? [" ", x] : [x])));
    }
    top.appendChild(h("span", { class: "points", id: "points", title: t("attackers_points") },
      h("span", { class: "long" }, t("attackers_points")), h("span", { class: "short" }, t("points")), " ", h("strong", {}, String(v.attacker_points))));
    top.appendChild(h("span", { class: "round" }, t("round_n", { n: v.round_number })));
    if (st.clock_ms !== undefined) top.appendChild(h("span", { class: "clock", id: "match-clock" }, h("strong", {}, this.clockText())));
    const me = this.me();
    if (this.rules && this.rules.stake > 0 && me !== null && v.purses) {
      top.appendChild(h("span", { class: "purse", id: "my-purse" }, `${t("coins")} `, h("strong", {}, signed(v.purses[me] ?? 0))));
    }
    const controls = h("span", { class: "controls" });
    if (!this.readonly && st.you.host) {
      const sp = h("select", { id: "speed-select", "aria-label": t("speed") }, ...["slow", "normal", "fast", "instant"].map((s) => h("option", { value: s, selected: st.room.settings.speed === s }, t(s))));
      sp.addEventListener("change", () => this.send({ type: "settings", speed: sp.value }));
      const tm = h("select", { id: "timer-select", "aria-label": t("timer") }, ...[0, 15, 30, 60, 120].map((n) => h("option", { value: n, selected: st.room.settings.timer === n }, n ? t("seconds", { n }) : t("timer_off"))));
      tm.addEventListener("change", () => this.send({ type: "settings", timer: parseInt(tm.value, 10) }));
      const df = h("select", { id: "difficulty-select", "aria-label": t("difficulty") }, ...["easy", "normal", "hard", "expert"].map((s) => h("option", { value: s, selected: st.room.settings.difficulty === s }, t(s))));
      df.addEventListener("change", () => this.send({ type: "settings", difficulty: df.value }));
      const open = this.settingsOpen ? { open: true } : {};
      const box = h("details", Object.assign({ class: "settings", id: "settings" }, open), h("summary", { "aria-label": t("settings"), title: t("settings") }, "⚙", h("span", { class: "long" }, t("settings"))),
        h("div", { class: "settings-panel" }, h("label", {}, t("speed"), " ", sp), h("label", {}, t("timer"), " ", tm), h("label", {}, t("difficulty"), " ", df)));
      box.addEventListener("toggle", () => { this.settingsOpen = box.open; });
      controls.append(box);
    }
    if (!this.readonly) controls.append(h("button", { type: "button", id: "btn-rules-help", onclick: () => this.openHelp() }, t("rules_help")));
    if (!this.readonly) controls.append(this.playerSettings());
    if (!this.readonly && this.me() !== null) {
      const on = st.you.autoplay;
      controls.appendChild(h("button", { type: "button", id: "btn-autoplay", "aria-pressed": on ? "true" : "false", onclick: () => this.send({ type: "autoplay", on: !on }) }, on ? t("autoplay_stop") : t("autoplay")));
    }
    controls.appendChild(langButton(() => { this.send({ type: "lang", lang: lang() }); this.render(); }));
    top.appendChild(controls);
    swap(this.topbar, top);
  }

  /** The player's own choices, kept in this browser: sound, animation, counter, hand order, colours. */
  playerSettings() {
    /** @param {string} id @param {string} label @param {boolean} on @param {(on: boolean) => void} set @param {string | null} [locked] why it cannot be changed */
    const check = (id, label, on, set, locked = null) => {
      const box = h("input", { id, type: "checkbox", checked: on, disabled: !!locked });
      box.addEventListener("change", () => { set(box.checked); this.render(); });
      return h("label", { for: id, title: locked || undefined }, box, " ", label, locked ? h("small", { class: "muted" }, locked) : null);
    };
    /** @param {string} key */
    const flag = (key, dflt = false) => { const v = localStorage.getItem(key); return v === null ? dflt : v === "on"; };
    /** @param {string} key @param {boolean} on */
    const keep = (key, on) => localStorage.setItem(key, on ? "on" : "off");
    const open = this.prefsOpen ? { open: true } : {};
    const box = h("details", Object.assign({ class: "settings prefs", id: "prefs" }, open), h("summary", { "aria-label": t("settings") }, "☰"),
      h("div", { class: "settings-panel" },
        check("pref-sound", t("sound"), fxOn("sound"), (on) => setFx("sound", on)),
        check("pref-motion", t("motion"), motionOn(), (on) => setFx("motion", on), reducedMotion() ? t("motion_reduced") : null),
        check("pref-counter", t("counter_setting"), flag("tuolaji.counter", true), (on) => keep("tuolaji.counter", on)),
        check("pref-trump-left", `${t("hand_sort")}: ${t("trump_left")}`, flag("tuolaji.trumpLeft"), (on) => { keep("tuolaji.trumpLeft", on); if (this.state) trumpSide(this.state, on); }),
        check("pref-four-colour", t("four_colour"), flag("tuolaji.fourColour"), (on) => { keep("tuolaji.fourColour", on); document.documentElement.classList.toggle("four-colour", on); })));
    document.documentElement.classList.toggle("four-colour", flag("tuolaji.fourColour"));
    box.addEventListener("toggle", () => { this.prefsOpen = box.open; });
    return box;
  }

  renderFelt() {
    const st = this.current();
    const v = st.view;
    const felt = document.createElement("div");
    const n = this.players();
    const me = this.me();
    const sides = v.sides || [];
    /** @type {number[]} */
    const freshSeats = [];
    /** @type {string | null} */
    let sweepKey = null;
    this.felt.dataset.players = String(n);
    for (let seat = 0; seat < n; seat++) {
      const rel = relSeat(seat, me, n);
      const info = st.room.seats[seat];
      const turn = st.waiting_for === seat;
      const badges = [];
      // a chosen name hides where that player sits in the order of play: say it (上家/下家...) beside it
      const place = info.name && me !== null && seat !== me && n === 4 ? h("span", { class: "seat-place" }, defaultName(seat, n, me)) : null;
      if (v.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("dealer") }, lang() === "zh" ? "庄" : "D"));
      if (sides[seat] === "attacker") badges.push(h("span", { class: "badge att" }, lang() === "zh" ? "闲" : "A"));
      else if (sides[seat] === "dealer" && v.dealer !== seat && v.friend_card) badges.push(h("span", { class: "badge friend", title: t("friend_shown") }, lang() === "zh" ? "友" : "F"));
      else if (sides[seat] === null && v.dealer !== null && v.friend_card) badges.push(h("span", { class: "badge unknown", title: t("friend_unknown") }, t("unknown_side")));
      // words, not emoji: a computer without an emoji font would show an empty box
      if (info.bot) badges.push(h("span", { class: "badge bot", title: info.human ? t("away") : t("bot") }, info.human ? t("badge_away") : t("badge_bot")));
      const box = h("div", {
        class: "seat" + (turn ? " turn" : "") + (rel === 0 && this.me() !== null ? " me" : "") + (info.human ? " human" : ""),
        "data-pos": seatPlace(rel, n), "data-seat": seat, "aria-label": this.name(seat) + (turn ? `, ${t("your_turn")}` : ""),
      },
      h("div", { class: "seat-name" }, this.name(seat), place, ...badges),
      rel !== 0 || this.me() === null ? h("div", { class: "seat-cards" }, h("span", { class: "mini-back", "aria-hidden": "true" }), t("cards_left", { n: v.hand_sizes[seat] })) : null,
      h("div", { class: "seat-timer", "data-timer-seat": seat }));
      felt.appendChild(box);
    }
    // the trick in the middle: the current one, or the last one until the next lead
    const trick = v.trick && v.trick.plays.length ? v.trick : null;
    const showing = trick || v.last_trick;
    if (showing) {
      const winner = !trick && "winner" in showing ? showing.winner : null;
      const area = h("div", {
        class: "trick" + (trick ? "" : " finished"), id: "trick", "data-layout": "grid",
        "data-winner-pos": winner === null ? "" : seatPlace(relSeat(winner, me, n), n),
        "aria-label": trick ? t("trick_n", { n: v.tricks_played + 1 }) : t("last_trick"),
        // the longest play: the trick's cards are as small as three of it a row need (style.css)
        style: `--cards: ${Math.max(1, ...showing.plays.map((p) => p.cards.length))}`,
      });
      const firstDraw = this.drawnPlays === "";  // a page opened mid-trick shows it as it is
      const drawn = this.drawnPlays.split(":");
      const same = drawn[0] === `${v.round_number}.${v.tricks_played}.${trick ? "open" : "done"}`
        || (!trick && drawn[0] === `${v.round_number}.${v.tricks_played - 1}.open`);  // the trick just ended: its last play is new
      const before = same ? parseInt(drawn[1] || "0", 10) : (trick ? 0 : showing.plays.length);
      this.drawnPlays = `${v.round_number}.${v.tricks_played}.${trick ? "open" : "done"}:${showing.plays.length}`;
      showing.plays.forEach((p, i) => {
        const won = winner === p.seat;
        if (i >= before && !firstDraw) freshSeats.push(p.seat);
        area.appendChild(h("div", { class: "play" + (won ? " won" : ""), "data-pos": seatPlace(relSeat(p.seat, me, n), n), "data-seat": p.seat },
          cardRow(p.cards)));
      });
      if (winner !== null) sweepKey = `${v.round_number}.${v.tricks_played}`;
      if (trick && trick.attempted) area.appendChild(h("div", { class: "attempted" }, cardsText(trick.attempted)));
      felt.appendChild(area);
    }
    if (v.phase === "deal" || v.phase === "declare") {
      const bid = v.bid;
      felt.appendChild(h("div", { class: "deal-info", id: "deal-info", "data-layout": "grid" },
        `${t("phase_" + v.phase)} · ${t("dealt_n", { n: v.dealt })}`,
        bid ? h("div", { class: "bid" }, t("ev_declared", { name: this.name(bid.seat), cards: "" }), cardRow(bid.cards, { small: true })) : null));
    }
    const redrawn = swap(this.felt, felt);
    if (redrawn) this.renderTimer();
    if (!this.readonly) this.moveCards(redrawn, freshSeats, sweepKey, v.hand_sizes, v.phase);
  }

  /**
   * The felt's motion, after it is drawn: cards dealt fly from the deck to their seats, new plays
   * fly in from their players, a finished trick is swept to its winner (all off with motion off).
   * @param {boolean} redrawn whether the felt was rebuilt (a kept felt keeps its animations)
   * @param {number[]} freshSeats seats whose play is new since the last draw
   * @param {string | null} sweepKey the finished trick shown, if any
   * @param {number[]} sizes the seats' card counts
   * @param {string} phase
   */
  moveCards(redrawn, freshSeats, sweepKey, sizes, phase) {
    const seatRect = (/** @type {number} */ seat) => {
      const el = this.felt.querySelector(`.seat[data-seat="${seat}"]`);
      return el ? el.getBoundingClientRect() : null;
    };
    const seen = this.sizesSeen;
    this.sizesSeen = [...sizes];
    if (phase === "deal" && seen && seen.length === sizes.length) {
      const deck = (this.felt.querySelector("#deal-info") || this.felt).getBoundingClientRect();
      sizes.forEach((n, seat) => {
        const to = seatRect(seat);
        if (n > seen[seat] && seat !== this.me() && to) dealTo(deck, to);
      });
    }
    if (!redrawn) return;
    for (const seat of freshSeats) {
      const el = this.felt.querySelector(`.trick .play[data-seat="${seat}"]`);
      const from = seatRect(seat);
      if (el && from) flyIn(el, from, "play");
    }
    if (sweepKey === null) { this.sweep = null; return; }
    if (!this.sweep || this.sweep.key !== sweepKey) this.sweep = { key: sweepKey, at: performance.now() };
    const winner = this.felt.querySelector(".trick .play.won");
    const to = winner ? seatRect(Number(/** @type {HTMLElement} */ (winner).dataset.seat)) : null;
    if (!to) return;
    const elapsed = performance.now() - this.sweep.at;
    for (const el of this.felt.querySelectorAll(".trick .play")) sweepTo(el, to, elapsed);
  }

  /** @param {KeyboardEvent} e */
  onGlobalKey(e) {
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (e.key === "Escape") { this.selected = []; this.coachMsg = null; this.render(); }
    else if ((e.key === "h" || e.key === "H") && !e.ctrlKey && !e.metaKey) { if (this.myTurn() || (this.state && this.state.options && this.state.options.phase === "deal")) this.askHint(); }
    else if (e.key === "Enter" && e.target === document.body) { this.primary(); }
  }

  primary() {
    const o = this.state && this.state.options;
    // one action at a time: a second click before the server answered would be "not your turn"
    if (!o || !o.turn || this.readonly || this.pendingAction !== null) return;
    const cards = selectedCards(this);
    if (o.phase === "play" && cards.length) this.act({ type: "play", cards });
    else if (o.phase === "bury" && cards.length === o.bury) this.act({ type: "bury", cards });
  }

  /**
   * Send a decision, once: while it waits for the server's answer the buttons are disabled.
   * @param {ClientMessage} msg
   */
  act(msg) {
    if (this.pendingAction !== null || this.readonly) return;
    const id = this.send(msg);
    this.pendingAction = id;
    this.renderActions();
    // the answer always comes (a state or a refusal); if the connection ate it, free the buttons
    setTimeout(() => { if (this.pendingAction === id && id !== null) { this.pendingAction = null; this.renderActions(); } }, 8000);
  }

  askHint() {
    if (this.send({ type: "hint" }) !== null) { this.hintText = `${t("hint")} …`; this.renderActions(); }
  }

  /** @param {HintAction} action */
  applyHint(action) {
    if (!action) return;
    if ((action.type === "play" || action.type === "bury") && action.cards) {
      this.hintText = t("hint_play", { cards: cardsText(action.cards) });
      selectCards(this, action.cards);
    } else if (action.type === "declare") this.hintText = t("hint_declare", { cards: cardsText(action.cards) });
    else if (action.type === "pass") this.hintText = t("hint_pass");
    else if (action.type === "call_friend" && action.card) this.hintText = `${t("call_friend")}: ${cardText(action.card)}`;
    else if (action.type === "surrender") this.hintText = `${t("hint")}: ${t("surrender")}`;
    else if (action.type === "surrender_answer") this.hintText = `${t("hint")}: ${t(action.accept ? "surrender_accept" : "surrender_decline")}`;
    this.renderActions();
  }

  renderActions() {
    const st = this.state;
    if (!st) return;
    const el = document.createElement("div");
    /** @type {Partial<Options>} */
    const o = st.options || {};
    const v = st.view;
    const me = this.me();
    const busy = this.pendingAction !== null;  // sent, not answered yet
    this.root.dataset.busy = String(busy);  // (the browser tests wait for the answer)
    let status = "";
    const autoplay = !!(st.you && st.you.autoplay) && me !== null;
    this.root.dataset.autoplay = String(autoplay);
    if (st.room.status === "lobby") status = t("waiting_host");
    else if (st.between) status = t("phase_done");
    else if (v.over) status = t("match_over");
    else if (this.readonly && st.waiting_for !== null && st.waiting_for !== undefined) status = t("replay_turn", { name: this.name(st.waiting_for) });  // a replay's frame: nobody is waited for
    else if (this.myTurn()) status = t("your_turn");
    else if (st.waiting_for !== null && st.waiting_for !== undefined) status = st.thinking ? t("thinking", { name: this.name(st.waiting_for) }) : t("waiting_for", { name: this.name(st.waiting_for) });
    else status = t(PHASE_KEYS[v.phase] || "phase_play");
    if (!this.readonly && me !== null && !st.between && st.room.status === "playing") {
      if (o.phase === "deal" || o.phase === "declare" || o.phase === "override") {
        for (const cards of o.declare || []) {
          el.appendChild(h("button", { type: "button", class: "declare-btn", "data-cards": cards.join(" "),
            disabled: busy, onclick: () => this.act({ type: "declare", cards }) },
          t("declare", { cards: "" }), cardRow(cards, { small: true })));
        }
        if (o.can_pass) el.appendChild(h("button", { type: "button", id: "btn-pass", disabled: busy, onclick: () => this.act({ type: "pass" }) }, t("pass")));
        if (o.can_redeal) el.appendChild(h("button", { type: "button", id: "btn-redeal", disabled: busy, onclick: () => this.act({ type: "redeal" }) }, t("redeal")));
        if (o.phase === "deal" && (o.declare || []).length) status = t("declare_during_deal");
        else if (o.phase !== "deal" && o.turn) status = `${t("your_turn")} — ${t("phase_" + o.phase)}`;
      } else if (o.phase === "bury" && o.bury) {
        const n = this.selected.length;
        el.appendChild(h("button", { type: "button", id: "btn-bury", class: "primary", disabled: busy || n !== o.bury, onclick: () => this.primary() }, t("bury", { n, k: o.bury })));
        status = t("select_bury", { k: o.bury });
      } else if (o.phase === "call_friend" && o.call_friend) {
        const short = !!(this.sideways && this.sideways.matches);  // a phone held sideways: short words
        const sel = h("select", { id: "friend-card", "aria-label": t("call_friend") });
        const held = new Set(v.hand || []);
        const copies = o.friend_copies || 0;  // nth_played: the call names which copy played joins
        const made = v.friend_calls || [];  // several friends: one call at a time, none twice
        if (made.some((c) => c.card === this.friendPick.card && (!copies || c.nth === this.friendPick.nth))) {
          const free = ["SA", "HA", "CA", "DA", "SK", "HK", "CK", "DK"].find((c) => !made.some((m) => m.card === c));
          if (free) this.friendPick = { card: free, nth: 1 };
        }
        for (const s of "SHCD") {
          for (const r of ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]) {
            // calling a card one holds names the other copy (friend_call holder)
            const other = short ? t("other_copy_short", { card: cardText(s + r) }) : `${cardText(s + r)} — ${t("other_copy")}`;
            const label = held.has(s + r) && !copies ? other : cardText(s + r);
            sel.appendChild(h("option", { value: s + r, selected: s + r === this.friendPick.card, disabled: !copies && made.some((c) => c.card === s + r) }, label));
          }
        }
        sel.addEventListener("change", () => { this.friendPick.card = sel.value; });  // kept when the buttons redraw
        el.append(sel);
        /** @type {HTMLSelectElement | null} */
        let nth = null;
        if (copies) {
          nth = h("select", { id: "friend-copy", "aria-label": t("friend_copy") });
          for (let n = 1; n <= copies; n++) nth.appendChild(h("option", { value: String(n), selected: n === this.friendPick.nth }, t(short ? "copy_n_short" : "copy_n", { n })));
          const pick = nth;
          pick.addEventListener("change", () => { this.friendPick.nth = parseInt(pick.value, 10); });
          el.append(nth);
        }
        el.append(h("button", { type: "button", id: "btn-call-friend", class: "primary", disabled: busy, onclick: () => this.act(nth ? { type: "call_friend", card: sel.value, nth: parseInt(nth.value, 10) } : { type: "call_friend", card: sel.value }) }, t("call_friend")));
        const what = t((copies ? "select_friend_nth" : "select_friend") + (short ? "_short" : ""));
        status = (v.friends || 1) > 1 ? `${t(short ? "call_i_of_n_short" : "call_i_of_n", { i: made.length + 1, n: v.friends })} — ${what}` : what;
      } else if (o.phase === "surrender" && o.answer_surrender !== undefined) {
        status = t("surrender_asked", { name: this.name(o.answer_surrender) });
        el.append(h("button", { type: "button", id: "btn-surrender-accept", disabled: busy, onclick: () => this.act({ type: "surrender_answer", accept: true }) }, t("surrender_accept")),
          h("button", { type: "button", id: "btn-surrender-decline", class: "primary", disabled: busy, onclick: () => this.act({ type: "surrender_answer", accept: false }) }, t("surrender_decline")));
      } else if (o.phase === "play" && o.turn) {
        el.appendChild(h("button", { type: "button", id: "btn-play", class: "primary", disabled: busy || !this.selected.length, onclick: () => this.primary() }, t("play")));
        if (o.can_surrender) el.appendChild(h("button", { type: "button", id: "btn-surrender", class: "subtle", disabled: busy, onclick: () => this.act({ type: "surrender" }) }, t("surrender")));
        status = o.follow ? `${t("your_turn")} — ${t("follow_n", { n: o.follow.count })}` : `${t("your_turn")} — ${t("lead_anything")}`;
      }
      if (o.turn || (o.phase === "deal" && (o.declare || []).length)) {
        el.appendChild(h("button", { type: "button", id: "btn-hint", title: "H", onclick: () => this.askHint() }, t("hint")));
      }
      if (this.selected.length) el.appendChild(h("button", { type: "button", class: "subtle", onclick: () => { this.selected = []; this.checkResult = null; renderHand(this); this.renderActions(); } }, "✕"));
    }
    if (autoplay && !this.readonly) {  // 托管: the computer plays this seat; say so where the player looks
      status = t("autoplay_banner");
      el.replaceChildren(h("button", { type: "button", id: "btn-autoplay-off", class: "primary", onclick: () => this.send({ type: "autoplay", on: false }) }, t("autoplay_stop")));
    }
    swap(this.actionsEl, el);
    this.statusEl.classList.toggle("autoplay", autoplay);
    this.statusEl.id = "status";
    if (this.statusEl.textContent !== status) this.statusEl.textContent = status;
    // coach: legality of the selection, hints, refusals with their why
    const coach = document.createElement("div");
    if (this.checkResult && this.selected.length) {
      const c = this.checkResult;
      coach.appendChild(h("p", { class: c.ok ? (c.throw ? "warn" : "ok") : "bad", id: "check-result" }, c.ok ? (c.throw ? t("throw_warning") : t(o.phase === "bury" ? "legal_bury" : "legal")) : c.reason,
        !c.ok ? h("button", { type: "button", class: "link", id: "btn-check-why", onclick: () => this.explainCheck() }, t("why")) : null));
    }
    if (this.failedThrow) {
      const f = this.failedThrow;
      const cost = throwPenalty(this.rules);
      const penalty = cost === null ? "" : "coins" in cost ? t("failed_throw_penalty_stake", { c: cost.coins }) : t("failed_throw_penalty", { p: cost.points });
      // older records do not say who beat the throw
      const beaten = f.by !== null && f.beating ? t("failed_beaten_by", { by: this.name(f.by), beating: cardsText(f.beating) }) : t("failed_beaten");
      coach.appendChild(h("div", { class: "failed-throw", id: "failed-throw", role: "alert" }, h("strong", {}, `${t("failed_throw_title")}: `),
        t("failed_throw", { name: this.name(f.seat), tried: cardsText(f.tried), beaten, cards: cardsText(f.cards) }) + penalty));
    }
    if (this.hintText) coach.appendChild(h("p", { class: "hint", id: "hint-text" }, this.hintText));
    if (this.coachMsg) {
      const m = this.coachMsg;
      coach.appendChild(h("div", { class: "refusal", id: "refusal", role: "alert" },
        h("strong", {}, `${m.check ? t("coach") : t("refused")}: `),
        m.open ? h("span", { class: "why", id: "why-text" }, m.why) : m.reason, " ",
        m.open ? null : h("button", { type: "button", class: "link", id: "btn-why", onclick: () => this.openWhy() }, t("why")),
        h("button", { type: "button", class: "link", onclick: () => { this.coachMsg = null; this.renderActions(); } }, t("close"))));
    }
    swap(this.coachEl, coach);
  }

  /** The coach's explanation of the checked selection. */
  explainCheck() {
    const c = this.checkResult;
    if (!c || c.ok) return;
    this.coachMsg = { reason: c.reason || "", why: c.why || "", open: true, check: true };
    this.renderActions();
  }

  /** Unfold the refusal's "why" (of the refusal shown now: see swap() in dom.js). */
  openWhy() {
    if (!this.coachMsg) return;
    this.coachMsg.open = true;
    this.renderActions();
  }

  /** The match clock's time left, counted down on this page from the last state's clock_ms. */
  clockText() {
    const st = this.state;
    if (!st || st.clock_ms === undefined) return "";
    if (st.view.over || st.view.time_up) return t("time_up");
    if (!this.clockBase || this.clockBase.state !== st) this.clockBase = { state: st, at: performance.now() };
    const left = Math.max(0, Math.ceil((st.clock_ms - (performance.now() - this.clockBase.at)) / 1000));
    return t("match_clock", { t: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
  }

  renderTimer() {
    const st = this.state;
    if (!st || !this.felt) return;
    const clock = this.topbar.querySelector("#match-clock strong");
    if (clock) clock.textContent = this.clockText();
    for (const el of this.felt.querySelectorAll("[data-timer-seat]")) el.textContent = "";
    if (st.timer_ms === null || st.timer_ms === undefined || st.waiting_for === null) return;
    if (!this.timerBase || this.timerBase.state !== st) this.timerBase = { state: st, at: performance.now() };
    const left = Math.max(0, st.timer_ms - (performance.now() - this.timerBase.at));
    const el = this.felt.querySelector(`[data-timer-seat="${st.waiting_for}"]`);
    if (el) el.textContent = `⏱ ${Math.ceil(left / 1000)}`;
  }

  renderSide() {
    const st = this.current();
    const v = st.view;
    const side = document.createElement("div");
    const last = v.last_trick;
    const lastBox = h("section", { class: "last-trick", id: "last-trick", "aria-label": t("last_trick") }, h("h2", {}, t("last_trick")));
    if (last) {
      for (const p of last.plays) lastBox.appendChild(h("div", { class: "lt-row" + (p.seat === last.winner ? " won" : "") }, h("span", { class: "who" }, this.name(p.seat)), cardRow(p.cards, { small: true })));
      lastBox.appendChild(h("p", { class: "muted" }, t("ev_trick", { name: this.name(last.winner), p: last.points })));
    } else lastBox.appendChild(h("p", { class: "muted" }, t("none")));
    side.appendChild(this.watchPanel());
    side.appendChild(lastBox);
    if (v.kitty && v.kitty.length && !st.between) side.appendChild(h("section", { class: "kitty-box", id: "kitty" }, h("h2", {}, t("kitty")), cardRow(v.kitty, { small: true })));
    if (!this.readonly && st.room.status === "playing" && this.me() === null) {
      const free = st.room.seats.map((s, i) => (!s.human ? i : null)).filter((x) => x !== null);
      if (free.length) side.appendChild(h("section", { class: "take-seat" }, h("h2", {}, t("take_seat")),
        ...free.map((i) => h("button", { type: "button", "data-sit": i, onclick: () => this.send({ type: "sit", seat: i, name: savedName() || undefined }) }, `${t("sit_here")}: ${this.name(i)}`))));
    }
    const humans = st.room.seats.filter((x) => x.human).length;
    if (!this.readonly && (humans > 1 || st.room.spectators > 0 || this.chatLines.length)) side.appendChild(this.chatBox());
    if (!this.readonly && st.you.host && humans > 1) {
      const others = st.room.seats.map((x, i) => (x.human && i !== this.me() ? i : null)).filter((x) => x !== null);
      side.appendChild(h("section", { class: "players", id: "players" }, h("h2", {}, t("players")),
        ...others.map((i) => h("div", { class: "lt-row" }, h("span", {}, this.name(i)),
          h("button", { type: "button", class: "small danger", "data-kick": i, onclick: () => { if (confirm(t("kick_confirm", { name: this.name(i) }))) this.send({ type: "kick", seat: i }); } }, t("kick"))))));
    }
    const spect = st.room.spectators ? h("p", { class: "muted" }, t("spectators", { n: st.room.spectators })) : null;
    const log = h("section", { class: "log" }, h("h2", {}, t("log")),
      h("ol", { id: "log", role: "log", "aria-live": "polite" }, ...this.log.lines(40, (s) => this.name(s), this.rules).map((l) => h("li", {}, l))));
    if (!this.readonly) side.append(log);  // a replay's steps are its log
    if (spect) side.appendChild(spect);
    const typing = document.activeElement && document.activeElement.id === "chat-input";
    if (swap(this.side, side)) {
      const ol = this.side.querySelector("#log"); if (ol) ol.scrollTop = ol.scrollHeight;
      const input = /** @type {HTMLInputElement | null} */ (this.side.querySelector("#chat-input"));
      if (typing && input) { input.focus(); input.setSelectionRange(input.value.length, input.value.length); }  // a new state must not eat what is being typed
    }
  }

  /** LAN chat: the recent lines, a line to type, and a few quick phrases. */
  chatBox() {
    const before = /** @type {HTMLInputElement | null} */ (this.side.querySelector("#chat-input"));
    const input = h("input", { id: "chat-input", type: "text", maxlength: "120", placeholder: t("chat_placeholder"), "aria-label": t("chat"), value: before ? before.value : "" });
    const say = (/** @type {string} */ text) => { if (text.trim()) this.send({ type: "chat", text }); input.value = ""; };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") say(input.value); });
    return h("section", { class: "chat", id: "chat" }, h("h2", {}, t("chat")),
      h("ol", { id: "chat-lines", "aria-live": "polite" }, ...this.chatLines.map((l) => h("li", {},
        h("strong", {}, `${l.seat === null ? (l.name || t("spectator")) : this.name(l.seat)}: `), l.text))),
      h("div", { class: "row-buttons" }, input, h("button", { type: "button", id: "btn-chat", onclick: () => say(input.value) }, t("chat_send"))),
      h("div", { class: "quick" }, ...t("quick_phrases").split("|").map((p) => h("button", { type: "button", onclick: () => say(p) }, p))));
  }

  /** Scored cards, points still in play, and (where the room allows it) the card counter. */
  watchPanel() {
    const st = this.current();
    const v = st.view;
    const sides = v.sides || [];
    const decks = this.rules && typeof this.rules.decks === "number" ? this.rules.decks : 2;
    // as the engine counts the attackers' points in public: before a find-a-friend friend shows,
    // every seat but the dealer's counts as attacking
    const scored = this.tally.scoredCards((s) => sides[s] === "attacker" || (sides[s] === null && v.dealer !== null && s !== v.dealer));
    const head = h("h2", {}, t("scored"), " ", h("strong", {}, String(v.attacker_points)));
    // a replay's frame carries no events to count the cards from: its points only
    if (this.readonly) return h("section", { class: "watch-panel", id: "watch" }, head);
    const box = h("section", { class: "watch-panel", id: "watch" }, head,
      h("div", { class: "scored", id: "scored-cards" }, scored.length ? cardRow(scored, { small: true }) : h("span", { class: "none muted" }, t("none"))),
      h("p", { id: "points-left" }, `${t("points_left")}: `, h("strong", {}, String(this.tally.pointsLeft(decks)))));
    const me = this.me();
    if (st.room.counter && me !== null && localStorage.getItem("tuolaji.counter") !== "off" && (v.phase === "play" || v.phase === "done")) {
      const left = this.tally.unseen({ decks, trump: v.trump, level: v.level, hand: v.hand, kitty: v.kitty });
      const groups = GROUPS.filter((g) => g !== v.trump);  // the trump suit's cards count as trump
      box.appendChild(h("h3", { class: "counter-head" }, t("counter")));
      box.appendChild(h("div", { class: "counter", id: "counter", title: t("counter_title"), "aria-label": t("counter_title"), style: `grid-template-columns: repeat(${groups.length}, auto)` },
        ...groups.map((g) => h("span", { class: "suit" + (g === "H" || g === "D" ? " red" : "") }, g === "T" ? t("trump") : (suitText(g) || g))),
        ...groups.map((g) => h("span", { "data-group": g }, String(left[g])))));
    }
    return box;
  }

  renderOverlay() {
    // the rules help stays as it is while the game goes on (rebuilt, it jumped back to its top)
    if (this.extraDialog && this.overlay.contains(this.extraDialog)) return;
    const st = this.current();
    const ov = document.createElement("div");
    let content = null;
    if (this.extraDialog) content = this.extraDialog;
    else if (st.room.status === "lobby") content = lobbyDialog(this);
    else if (st.summary && this.readonly) content = null;
    else if (st.summary || this.lastSummary) {
      // a round's summary stays until the player closes it or asks for the next round, even when
      // the next round starts without them (auto-play, a timer); the server sends it between rounds
      const summary = /** @type {import("./wire").Summary} */ (st.summary || this.lastSummary);
      if (summary.round !== this.summaryRound) {  // open for a round that ended while this page watched
        this.summaryRound = summary.round;
        this.summaryClosed = !(st.between || st.view.over) && summary.round < (this.firstRound ?? 0);
      }
      if (st.between || st.view.over || !this.summaryClosed) content = summaryDialog(this, summary, st.view.over);
    } else if (st.view.over && !this.readonly) content = matchEndDialog(this);  // the clock ran out before any round finished
    this.overlay.hidden = !content;
    // on a phone the rules help is a page of its own (full screen) instead of a box that scrolls
    this.overlay.classList.toggle("sheet", content !== null && content === this.extraDialog);
    if (content) {
      const dialog = h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" }, content);
      ov.appendChild(dialog);
    }
    const opened = swap(this.overlay, ov);
    if (opened && content && !this.overlay.contains(document.activeElement)) {
      const focus = /** @type {HTMLElement | null} */ (this.overlay.querySelector("button.primary, button, a"));
      if (focus) focus.focus();
    }
  }

}

/**
 * Trump at the left or the right of the hand: the state's hand (and the per-card options)
 * reordered, the trumps moved as one block (the server sends them at the right).
 * @param {StateMsg} m
 * @param {boolean} left
 */
function trumpSide(m, left) {
  const v = m.view;
  const trump = v.hand.map((c) => effectiveSuit(c, v.trump, v.level) === "T");
  const first = left ? 1 : -1;
  const order = [...v.hand.keys()].sort((a, b) => first * (Number(trump[b]) - Number(trump[a])) || a - b);
  if (order.every((i, k) => i === k)) return;
  /** @template T @param {T[] | undefined} xs @returns {T[] | undefined} */
  const by = (xs) => (xs ? order.map((i) => /** @type {T} */ (xs[i])) : xs);
  v.hand = /** @type {string[]} */ (by(v.hand));
  const o = m.options;
  if (o) {
    if (o.eff) o.eff = /** @type {number[]} */ (by(o.eff));
    if (o.playable) o.playable = /** @type {boolean[]} */ (by(o.playable));
    if (o.required) o.required = /** @type {boolean[]} */ (by(o.required));
  }
}
