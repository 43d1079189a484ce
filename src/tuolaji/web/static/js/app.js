// The tuolaji web client: start page, table, replay. Plain ES modules, no build step.
// The server decides everything; this page shows the state it is sent and sends the player's choices.
import { t, lang, setLang, settingLabel, presetLabel } from "./i18n.js";
import { cardEl, cardRow, cardText, cardsText, cardLabel, suitText } from "./cards.js";

const app = document.getElementById("app");
let page = null; // the active page: has destroy()

// ------------------------------------------------------------------ small helpers
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

// Replace a region's children only when the markup changed, so a click that lands while a
// new state arrives is not lost on a freshly rebuilt button.
function swap(target, box) {
  if (target.innerHTML === box.innerHTML) return false;
  target.replaceChildren(...box.childNodes);
  return true;
}

function token() { return localStorage.getItem("tuolaji.token") || ""; }
function setToken(tk) { if (tk) localStorage.setItem("tuolaji.token", tk); }
function savedName() { return localStorage.getItem("tuolaji.name") || ""; }

async function api(path, opts = {}) {
  const headers = Object.assign({ "X-Tuolaji-Token": token() }, opts.headers || {});
  let body = opts.body;
  if (body !== undefined && typeof body !== "string") {
    body = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const res = await fetch(path, { method: opts.method || "GET", headers, body });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

const COMPASS = { en: ["North", "East", "South", "West"], zh: ["北家", "东家", "南家", "西家"] };
export function defaultName(seat, players = 4) {
  if (players === 4) return COMPASS[lang()][seat];
  return t("seat_n", { n: seat + 1 });
}

function levelText(rank) {
  return { 11: "J", 12: "Q", 13: "K", 14: "A" }[rank] || String(rank);
}

function trumpText(view) {
  if (!view) return "";
  const s = view.trump;
  if (s) return `${suitText(s)}${levelText(view.level)}`;
  if (view.trump_fixed || (view.bid && view.bid.cards && view.bid.cards[0] && view.bid.cards[0].endsWith("J")))
    return `${t("no_trump")} ${levelText(view.level)}`;
  return `${levelText(view.level)} · ?`;
}

function toast(text) {
  const el = h("div", { class: "toast", role: "status" }, text);
  document.body.appendChild(el);
  setTimeout(() => el.remove(), 2400);
}

function langButton(onChange) {
  return h("button", {
    class: "lang", type: "button", "aria-label": lang() === "zh" ? "Switch to English" : "切换到中文",
    onclick: () => { setLang(lang() === "zh" ? "en" : "zh"); onChange(); },
  }, t("language"));
}

// ------------------------------------------------------------------ router
function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  app.innerHTML = "";
  if (location.pathname === "/play") { quickPlay(); return; }
  const m = location.pathname.match(/^\/(r|replay)\/([A-Za-z0-9]+)\/?$/);
  if (m && m[1] === "r") page = new TablePage(m[2].toUpperCase());
  else if (m) page = new ReplayPage(m[2].toUpperCase());
  else page = new StartPage();
}


// "tuolaji" opens /play: back to your unfinished game against the computer, or a new one.
async function quickPlay() {
  app.appendChild(h("p", { class: "loading" }, t("title"), " …"));
  try {
    const games = (await api("/api/games")).games || [];
    const mine = games.find((g) => g.status === "playing" && g.mine !== null && g.mine !== undefined);
    if (mine) { history.replaceState({}, "", `/r/${mine.code}`); route(); return; }
    const body = {
      seat: 0, start: true, name: savedName(),
      difficulty: localStorage.getItem("tuolaji.difficulty") || "normal",
      speed: localStorage.getItem("tuolaji.speed") || "normal",
      timer: parseInt(localStorage.getItem("tuolaji.timer") || "0", 10),
    };
    const res = await api("/api/games", { method: "POST", body });
    setToken(res.token);
    history.replaceState({}, "", `/r/${res.code}`);
  } catch (e) {
    history.replaceState({}, "", "/");
  }
  route();
}

// ------------------------------------------------------------------ the rules panel
class RulesPanel {
  constructor(schema) {
    this.schema = schema;
    this.el = h("fieldset", { class: "rules-panel" });
    this.preset = "classic";
    this.values = {};
    this.render();
  }

  presetValues() { return this.schema.presets[this.preset] || {}; }

  value() {
    const base = this.presetValues();
    const out = { preset: this.preset };
    for (const [k, v] of Object.entries(this.values)) {
      if (JSON.stringify(v) !== JSON.stringify(base[k])) out[k] = v;
    }
    return out;
  }

  render() {
    const el = this.el;
    el.innerHTML = "";
    el.appendChild(h("legend", {}, t("rules")));
    const sel = h("select", { id: "rules-preset", "aria-label": t("preset") },
      ...Object.keys(this.schema.presets).map((p) => h("option", { value: p, selected: p === this.preset }, presetLabel(p).name)));
    sel.addEventListener("change", () => { this.preset = sel.value; this.values = {}; this.render(); this.check(); });
    el.appendChild(h("label", { class: "row" }, h("span", {}, t("preset")), sel));
    const about = presetLabel(this.preset, this.presetValues().description).description;
    if (about) el.appendChild(h("p", { class: "preset-about muted", id: "preset-about" }, about));
    const details = h("details", { class: "rules-details" }, h("summary", {}, t("change_rules")));
    const grid = h("div", { class: "rules-grid" });
    const base = this.presetValues();
    for (const f of this.schema.fields) {
      if (f.name === "name" || f.name === "description") continue;
      const cur = f.name in this.values ? this.values[f.name] : base[f.name];
      const id = `rule-${f.name}`;
      let input;
      if (f.kind === "enum") {
        input = h("select", { id }, ...f.options.map((o) => h("option", { value: o, selected: o === cur }, o.replace(/_/g, " "))));
        input.addEventListener("change", () => this.set(f.name, input.value));
      } else if (f.kind === "bool") {
        input = h("input", { id, type: "checkbox", checked: !!cur });
        input.addEventListener("change", () => this.set(f.name, input.checked));
      } else if (f.kind === "int") {
        input = h("input", { id, type: "number", min: "0", value: cur === null || cur === undefined ? "" : cur, placeholder: f.optional ? "—" : "" });
        input.addEventListener("change", () => this.set(f.name, input.value === "" ? (f.optional ? null : 0) : parseInt(input.value, 10)));
      } else if (f.kind === "list") {
        input = h("input", { id, type: "text", value: (cur || []).join(" ") });
        input.addEventListener("change", () => this.set(f.name, input.value.split(/[\s,]+/).filter(Boolean)));
      } else {
        input = h("input", { id, type: "text", value: cur ?? "" });
        input.addEventListener("change", () => this.set(f.name, input.value));
      }
      grid.appendChild(h("label", { class: "rule", for: id }, h("span", {}, settingLabel(f.name)), input));
    }
    details.appendChild(grid);
    this.msg = h("p", { class: "rules-msg", role: "status" });
    details.appendChild(this.msg);
    el.appendChild(details);
  }

  set(name, value) { this.values[name] = value; this.check(); }

  async check() {
    try {
      const r = await api("/api/rules/check", { method: "POST", body: { rules: this.value() } });
      this.msg.textContent = r.ok ? t("rules_ok") : t("bad_rules", { e: r.error });
      this.msg.classList.toggle("bad", !r.ok);
    } catch (e) { this.msg.textContent = String(e.message || e); }
  }
}

// ------------------------------------------------------------------ start page
class StartPage {
  constructor() {
    this.root = h("div", { class: "start-page" });
    app.appendChild(this.root);
    this.load();
  }

  destroy() {}

  async load() {
    try {
      [this.info, this.schema, this.games] = await Promise.all([api("/api/info"), api("/api/rules"), api("/api/games")]);
    } catch (e) {
      this.root.textContent = String(e.message || e);
      return;
    }
    this.rules = new RulesPanel(this.schema);
    this.render();
  }

  render() {
    document.title = `${t("title")} · Tractor`;
    const r = this.root;
    r.innerHTML = "";
    r.appendChild(h("header", { class: "start-head" },
      h("div", {}, h("h1", {}, t("title")), h("p", { class: "sub" }, t("subtitle"))),
      langButton(() => { this.rules.render(); this.render(); })));

    const name = h("input", { id: "name", type: "text", maxlength: "24", value: savedName(), autocomplete: "nickname" });
    name.addEventListener("change", () => localStorage.setItem("tuolaji.name", name.value.trim()));
    const diff = h("select", { id: "difficulty" }, ...this.info.difficulties.map((d) =>
      h("option", { value: d, selected: d === (localStorage.getItem("tuolaji.difficulty") || "normal") }, t(d))));
    const speed = h("select", { id: "speed" }, ...this.info.speeds.map((s) =>
      h("option", { value: s, selected: s === (localStorage.getItem("tuolaji.speed") || "normal") }, t(s))));
    const timer = h("select", { id: "timer" }, ...[0, 15, 30, 60, 120].map((n) =>
      h("option", { value: n, selected: String(n) === (localStorage.getItem("tuolaji.timer") || "0") }, n ? t("seconds", { n }) : t("timer_off"))));
    const settings = () => {
      localStorage.setItem("tuolaji.name", name.value.trim());
      localStorage.setItem("tuolaji.difficulty", diff.value);
      localStorage.setItem("tuolaji.speed", speed.value);
      localStorage.setItem("tuolaji.timer", timer.value);
      return { name: name.value.trim(), difficulty: diff.value, speed: speed.value, timer: parseInt(timer.value, 10), rules: this.rules.value() };
    };
    const create = async (start) => {
      try {
        const res = await api("/api/games", { method: "POST", body: Object.assign(settings(), { seat: 0, start }) });
        setToken(res.token);
        go(`/r/${res.code}`);
      } catch (e) { this.rules.msg.textContent = t("bad_rules", { e: e.message }); this.rules.el.querySelector("details").open = true; }
    };
    const solo = h("section", { class: "card-panel", "aria-labelledby": "h-solo" },
      h("h2", { id: "h-solo" }, t("play_computer")),
      h("div", { class: "form" },
        h("label", { class: "row", for: "name" }, h("span", {}, t("your_name")), name),
        h("label", { class: "row", for: "difficulty" }, h("span", {}, t("difficulty")), diff),
        h("label", { class: "row", for: "speed" }, h("span", {}, t("speed")), speed),
        h("label", { class: "row", for: "timer" }, h("span", {}, t("timer")), timer),
        this.rules.el),
      h("button", { id: "btn-new-game", class: "primary big", type: "button", onclick: () => create(true) }, t("start_game")));

    const code = h("input", { id: "join-code", type: "text", maxlength: "8", placeholder: "ABCDE", autocapitalize: "characters", "aria-label": t("room_code") });
    const join = () => { const c = code.value.trim().toUpperCase(); if (c) go(`/r/${c}`); };
    code.addEventListener("keydown", (e) => { if (e.key === "Enter") join(); });
    const lan = this.info.lan_urls.length && this.info.mode === "serve"
      ? h("p", { class: "lan" }, t("lan_hint"), " ", ...this.info.lan_urls.map((u) => h("code", {}, u)))
      : h("p", { class: "lan muted" }, this.info.lan_urls.length ? t("lan_hint") + " " + this.info.lan_urls.join(" ") : t("lan_none"));
    const friends = h("section", { class: "card-panel", "aria-labelledby": "h-friends" },
      h("h2", { id: "h-friends" }, t("play_friends")), lan,
      h("div", { class: "row-buttons" },
        h("button", { id: "btn-create-room", type: "button", onclick: () => create(false) }, t("create_room")),
        h("span", { class: "join" }, code, h("button", { id: "btn-join", type: "button", onclick: join }, t("join_room")))));

    const list = h("section", { class: "card-panel saved", "aria-labelledby": "h-saved" }, h("h2", { id: "h-saved" }, t("saved_games")));
    const games = this.games.games || [];
    if (!games.length) list.appendChild(h("p", { class: "muted" }, t("no_saved")));
    else {
      const tbody = h("tbody");
      for (const g of games) {
        const s = g.summary || {};
        const names = (g.seats || []).map((x, i) => (x.human ? (x.name || defaultName(i, g.seats.length)) : null)).filter(Boolean).join(", ") || "—";
        const when = new Date(g.updated * 1000).toLocaleString(lang() === "zh" ? "zh-CN" : "en");
        const finishedRounds = (s.round || 1) - (g.status === "finished" ? 0 : 1);
        const actions = h("td", { class: "actions" });
        if (g.status !== "finished") actions.appendChild(h("a", { class: "button primary", href: `/r/${g.code}`, "data-resume": g.code, onclick: (e) => { e.preventDefault(); go(`/r/${g.code}`); } }, g.mine !== null && g.mine !== undefined ? t("resume") : t("watch")));
        if (finishedRounds > 0) actions.appendChild(h("a", { class: "button", href: `/replay/${g.code}`, onclick: (e) => { e.preventDefault(); go(`/replay/${g.code}`); } }, t("replay")));
        actions.appendChild(h("a", { class: "button", href: `/api/games/${g.code}/record`, download: `tuolaji-${g.code}.json` }, t("export")));
        actions.appendChild(h("button", { type: "button", class: "danger", onclick: async () => {
          if (!confirm(t("confirm_delete", { code: g.code }))) return;
          try { await api(`/api/games/${g.code}`, { method: "DELETE" }); } catch (e) { toast(e.message); }
          this.games = await api("/api/games"); this.render();
        } }, t("delete")));
        tbody.appendChild(h("tr", { "data-code": g.code },
          h("td", {}, h("code", {}, g.code)), h("td", {}, when), h("td", {}, names),
          h("td", {}, `${t("round_n", { n: s.round || 1 })} · ${(s.level_names || []).join(" : ")}`),
          h("td", {}, t(`status_${g.status}`)), actions));
      }
      list.appendChild(h("div", { class: "table-wrap" }, h("table", { class: "games" },
        h("thead", {}, h("tr", {}, ...["room_code", "", "players", "levels", "", ""].map((k) => h("th", { scope: "col" }, k ? t(k) : "")))), tbody)));
    }
    const file = h("input", { id: "import-file", type: "file", accept: ".json,application/json" });
    file.addEventListener("change", async () => {
      const f = file.files[0];
      if (!f) return;
      try {
        const res = await api("/api/import", { method: "POST", body: await f.text(), headers: { "Content-Type": "application/json" } });
        toast(t("import_done", { code: res.code }));
        go(res.over ? `/replay/${res.code}` : `/r/${res.code}`);
      } catch (e) { toast(e.message); }
    });
    list.appendChild(h("label", { class: "import row", for: "import-file" }, h("span", {}, t("import_record")), file));
    r.append(solo, friends, list);
  }
}

// ------------------------------------------------------------------ the table
const PHASE_KEYS = { deal: "phase_deal", declare: "phase_declare", bury: "phase_bury", play: "phase_play", done: "phase_done", override: "phase_override", call_friend: "phase_call_friend" };

export function seatPosition(rel, n, radiusX, radiusY) {
  const angle = (Math.PI / 2) - (rel * 2 * Math.PI) / n;
  return { x: 50 + radiusX * Math.cos(angle), y: 50 + radiusY * Math.sin(angle) };
}

class TablePage {
  constructor(code, { readonly = false, container = null } = {}) {
    this.code = code;
    this.readonly = readonly;
    this.container = container || app;
    this.state = null;
    this.selected = [];
    this.focusKey = null;
    this.reqId = 0;
    this.pendingAction = null;
    this.pendingCheck = null;
    this.checkResult = null;
    this.coachMsg = null;
    this.hintText = null;
    this.logLines = [];
    this.retry = 0;
    this.destroyed = false;
    this.build();
    if (!readonly) this.connect();
    this.tick = setInterval(() => this.renderTimer(), 250);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.tick);
    if (this.ws) this.ws.close();
    document.removeEventListener("keydown", this.onKey);
  }

  // ---------------------------------------------------------------- connection
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.banner(null);
      ws.send(JSON.stringify({ type: "hello", token: token() || undefined, lang: lang(), name: savedName() || undefined }));
    };
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.destroyed || this.gone) return;
      this.banner(t("reconnecting"));
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => { if (!this.destroyed) this.connect(); }, delay);
    };
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    msg.id = ++this.reqId;
    this.ws.send(JSON.stringify(msg));
    return msg.id;
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        if (m.token) setToken(m.token);
        break;
      case "state":
        this.onState(m);
        break;
      case "refused":
        if (this.hintText && this.hintText.endsWith("…")) this.hintText = null;
        if (m.code === "no_room") { this.gone = true; this.root.innerHTML = ""; this.root.appendChild(h("p", { class: "gone" }, t("room_missing", { code: this.code }), " ", h("a", { href: "/" }, t("start_page")))); return; }
        if (m.re !== undefined && m.re === this.pendingAction) this.pendingAction = null;
        this.coachMsg = { reason: m.reason, why: m.why, code: m.code, open: false };
        this.renderActions();
        break;
      case "checked":
        if (m.re === this.pendingCheck) { this.checkResult = m; this.renderActions(); }
        break;
      case "hint":
        this.applyHint(m.action);
        break;
      case "closed":
        this.gone = true;
        go("/");
        break;
      default:
        break;
    }
  }

  onState(m) {
    const prev = this.state;
    this.state = m;
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
    if (newRound || turnChanged) { this.hintText = null; this.checkResult = null; }
    if (newRound) this.selected = [];
    for (const e of m.events || []) this.logEvent(e);
    this.render();
  }

  // ---------------------------------------------------------------- layout
  build() {
    this.root = h("div", { class: "table-page", "data-phase": "", "data-my-turn": "false" });
    this.topbar = h("header", { class: "topbar" });
    this.bannerEl = h("div", { class: "banner", role: "alert", hidden: true });
    this.felt = h("section", { class: "felt", "aria-label": "table" });
    this.statusEl = h("p", { class: "status-line", id: "status", "aria-live": "polite" });
    this.handEl = h("div", { id: "hand", class: "hand", role: "listbox", "aria-multiselectable": "true", "aria-label": t("your_hand"), tabindex: "-1" });
    this.actionsEl = h("div", { class: "actions", id: "actions" });
    this.coachEl = h("div", { class: "coach", id: "coach", role: "status", "aria-live": "polite" });
    this.handArea = h("section", { class: "hand-area" }, this.statusEl, this.handEl, this.actionsEl, this.coachEl);
    this.side = h("aside", { class: "side" });
    this.overlay = h("div", { class: "overlay", id: "overlay", hidden: true });
    this.root.append(this.topbar, this.bannerEl, this.felt, this.handArea, this.side, this.overlay);
    this.container.appendChild(this.root);
    this.handEl.addEventListener("keydown", (e) => this.onHandKey(e));
    this.onKey = (e) => this.onGlobalKey(e);
    if (!this.readonly) document.addEventListener("keydown", this.onKey);
  }

  banner(text) {
    this.bannerEl.hidden = !text;
    this.bannerEl.textContent = text || "";
  }

  names() {
    const st = this.state;
    const seats = st && st.room ? st.room.seats : [];
    return seats.map((s, i) => s.name || defaultName(i, seats.length));
  }

  name(seat) {
    if (seat === null || seat === undefined) return "?";
    const n = this.names()[seat] || defaultName(seat);
    return this.me() === seat ? `${n} (${t("you")})` : n;
  }

  me() { return this.state && this.state.you ? this.state.you.seat : null; }

  players() { return this.state && this.state.room ? this.state.room.seats.length : 4; }

  myTurn() { const o = this.state && this.state.options; return !!(o && o.turn && !this.state.between); }

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
    this.renderHand();
    this.renderActions();
    this.renderSide();
    this.renderOverlay();
  }

  teamLabels() {
    const st = this.state;
    const v = st.view;
    const seats = st.room.seats;
    const me = this.me();
    const holders = [...new Set(seats.map((s) => s.team))];
    return holders.map((hIdx) => {
      const members = seats.map((s, i) => (s.team === hIdx ? i : null)).filter((x) => x !== null);
      let label;
      if (me !== null && holders.length === 2) label = members.includes(me) ? t("us") : t("them");
      else label = members.map((i) => this.names()[i]).join("·");
      return { label, level: (v.level_names || [])[hIdx] ?? "?", mine: me !== null && members.includes(me), dealer: v.dealer !== null && members.includes(v.dealer) };
    });
  }

  renderTop() {
    const st = this.state;
    const v = st.view;
    const top = document.createElement("div");
    const link = `${location.origin}/r/${this.code}`;
    top.appendChild(h("a", { class: "home", href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, "← ", t("home")));
    top.appendChild(h("span", { class: "room" }, `${t("room_code")} `, h("strong", { id: "room-code" }, this.code),
      h("button", { type: "button", class: "small", title: link, onclick: () => { navigator.clipboard && navigator.clipboard.writeText(link); toast(t("copied")); } }, t("copy_link"))));
    const teams = this.teamLabels().map((x) => h("span", { class: "team" + (x.mine ? " mine" : "") + (x.dealer ? " dealer" : "") },
      `${x.label} `, h("strong", {}, x.level)));
    top.appendChild(h("span", { class: "levels", id: "levels", "aria-label": t("levels") }, ...teams));
    top.appendChild(h("span", { class: "trump", id: "trump" }, `${t("trump")} `, h("strong", { class: v.trump === "H" || v.trump === "D" ? "red" : "" }, trumpText(v))));
    top.appendChild(h("span", { class: "points", id: "points" }, `${t("attackers_points")} `, h("strong", {}, String(v.attacker_points))));
    top.appendChild(h("span", { class: "round" }, t("round_n", { n: v.round_number })));
    const controls = h("span", { class: "controls" });
    if (!this.readonly && st.you.host) {
      const sp = h("select", { id: "speed-select", "aria-label": t("speed") }, ...["slow", "normal", "fast", "instant"].map((s) => h("option", { value: s, selected: st.room.settings.speed === s }, t(s))));
      sp.addEventListener("change", () => this.send({ type: "settings", speed: sp.value }));
      const tm = h("select", { id: "timer-select", "aria-label": t("timer") }, ...[0, 15, 30, 60, 120].map((n) => h("option", { value: n, selected: st.room.settings.timer === n }, n ? t("seconds", { n }) : t("timer_off"))));
      tm.addEventListener("change", () => this.send({ type: "settings", timer: parseInt(tm.value, 10) }));
      const df = h("select", { id: "difficulty-select", "aria-label": t("difficulty") }, ...["easy", "normal", "hard", "expert"].map((s) => h("option", { value: s, selected: st.room.settings.difficulty === s }, t(s))));
      df.addEventListener("change", () => this.send({ type: "settings", difficulty: df.value }));
      const open = this.settingsOpen ? { open: true } : {};
      const box = h("details", Object.assign({ class: "settings", id: "settings" }, open), h("summary", {}, "⚙ ", t("settings")),
        h("div", { class: "settings-panel" }, h("label", {}, t("speed"), " ", sp), h("label", {}, t("timer"), " ", tm), h("label", {}, t("difficulty"), " ", df)));
      box.addEventListener("toggle", () => { this.settingsOpen = box.open; });
      controls.append(box);
    }
    if (!this.readonly && this.me() !== null) {
      const on = st.you.autoplay;
      controls.appendChild(h("button", { type: "button", id: "btn-autoplay", "aria-pressed": on ? "true" : "false", onclick: () => this.send({ type: "autoplay", on: !on }) }, on ? t("autoplay_stop") : t("autoplay")));
    }
    controls.appendChild(langButton(() => { this.send({ type: "lang", lang: lang() }); this.render(); }));
    top.appendChild(controls);
    swap(this.topbar, top);
  }

  renderFelt() {
    const st = this.state;
    const v = st.view;
    const felt = document.createElement("div");
    const n = this.players();
    const me = this.me() ?? 0;
    const sides = v.sides || [];
    for (let seat = 0; seat < n; seat++) {
      const rel = (seat - me + n) % n;
      const info = st.room.seats[seat];
      const pos = rel === 0 ? { x: 0, y: 90 } : seatPosition(rel, n, 40, 38);
      // seats near the left or right edge are anchored to that edge, so they never stick out
      const place = pos.x < 20 ? `left:0.4rem;top:${pos.y}%;transform:translate(0,-50%)`
        : pos.x > 80 ? `right:0.4rem;top:${pos.y}%;transform:translate(0,-50%)` : `left:${pos.x}%;top:${pos.y}%`;
      const turn = st.waiting_for === seat;
      const badges = [];
      if (v.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("dealer") }, lang() === "zh" ? "庄" : "D"));
      if (sides[seat] === "attacker") badges.push(h("span", { class: "badge att" }, lang() === "zh" ? "闲" : "A"));
      if (info.bot) badges.push(h("span", { class: "badge bot", title: info.human ? t("away") : t("bot") }, info.human ? "☕" : "🤖"));
      const box = h("div", {
        class: "seat" + (turn ? " turn" : "") + (rel === 0 && this.me() !== null ? " me" : "") + (info.human ? " human" : ""),
        style: place, "data-seat": seat, "aria-label": this.name(seat) + (turn ? `, ${t("your_turn")}` : ""),
      },
      h("div", { class: "seat-name" }, this.name(seat), ...badges),
      rel !== 0 || this.me() === null ? h("div", { class: "seat-cards" }, h("span", { class: "mini-back", "aria-hidden": "true" }), t("cards_left", { n: v.hand_sizes[seat] })) : null,
      h("div", { class: "seat-timer", "data-timer-seat": seat }));
      felt.appendChild(box);
    }
    // the trick in the middle: the current one, or the last one until the next lead
    const trick = v.trick && v.trick.plays.length ? v.trick : null;
    const showing = trick || v.last_trick;
    if (showing) {
      const area = h("div", { class: "trick" + (trick ? "" : " finished"), id: "trick", "aria-label": trick ? t("trick_n", { n: v.tricks_played + 1 }) : t("last_trick") });
      for (const p of showing.plays) {
        const rel = (p.seat - me + n) % n;
        const pos = seatPosition(rel, n, 22, 24);
        const won = !trick && showing.winner === p.seat;
        area.appendChild(h("div", { class: "play" + (won ? " won" : ""), style: `left:${pos.x}%;top:${pos.y}%`, "data-seat": p.seat },
          cardRow(p.cards)));
      }
      if (trick && trick.attempted) area.appendChild(h("div", { class: "attempted" }, cardsText(trick.attempted)));
      felt.appendChild(area);
    }
    if (v.phase === "deal" || v.phase === "declare") {
      const bid = v.bid;
      felt.appendChild(h("div", { class: "deal-info", id: "deal-info" },
        `${t("phase_" + v.phase)} · ${v.dealt}`,
        bid ? h("div", { class: "bid" }, t("ev_declared", { name: this.name(bid.seat), cards: "" }), cardRow(bid.cards, { small: true })) : null));
    }
    if (swap(this.felt, felt)) this.renderTimer();
  }

  handKeys() {
    const v = this.state.view;
    const count = {};
    return v.hand.map((c) => { count[c] = (count[c] || 0) + 1; return `${c}#${count[c] - 1}`; });
  }

  renderHand() {
    const st = this.state;
    const v = st.view;
    const hadFocus = this.handEl.contains(document.activeElement);
    this.handEl.setAttribute("aria-label", t("your_hand"));
    this.handEl.hidden = this.me() === null;
    const el = document.createElement("div");
    const keys = this.handKeys();
    this.selected = this.selected.filter((k) => keys.includes(k));
    if (!keys.includes(this.focusKey)) this.focusKey = keys[0] || null;
    const o = st.options || {};
    const eff = o.eff || [];
    const kittyLeft = {};
    for (const c of o.from_kitty || []) kittyLeft[c] = (kittyLeft[c] || 0) + 1;
    v.hand.forEach((c, i) => {
      const key = keys[i];
      const sel = this.selected.includes(key);
      const classes = ["hand-card"];
      if (sel) classes.push("selected");
      if (i > 0 && eff.length && eff[i] !== eff[i - 1]) classes.push("group-start");
      if (o.playable && !o.playable[i]) classes.push("dim");
      if (o.required && o.required[i]) classes.push("required");
      if (kittyLeft[c]) { classes.push("from-kitty"); kittyLeft[c]--; }
      const item = h("div", {
        class: classes.join(" "), role: "option", "aria-selected": sel ? "true" : "false", tabindex: key === this.focusKey ? "0" : "-1",
        "data-key": key, "data-card": c, "aria-label": cardLabel(c) + (classes.includes("from-kitty") ? `, ${t("from_kitty")}` : ""),
        onclick: () => { this.focusKey = key; this.toggle(key); },
      }, cardEl(c, { label: false }));
      el.appendChild(item);
    });
    if (!swap(this.handEl, el)) return;
    if (hadFocus && this.focusKey) { const f = this.handEl.querySelector(`[data-key="${CSS.escape(this.focusKey)}"]`); if (f) f.focus(); }
  }

  toggle(key) {
    if (this.readonly) return;
    const i = this.selected.indexOf(key);
    if (i >= 0) this.selected.splice(i, 1); else this.selected.push(key);
    this.checkResult = null;
    this.coachMsg = null;
    this.renderHand();
    this.checkSelection();
    this.renderActions();
  }

  selectedCards() { return this.selected.map((k) => k.split("#")[0]); }

  checkSelection() {
    const o = this.state && this.state.options;
    if (!o || !o.turn || !this.selected.length) { this.pendingCheck = null; return; }
    if (o.phase === "play") this.pendingCheck = this.send({ type: "check", action: "play", cards: this.selectedCards() });
    else if (o.phase === "bury" && this.selected.length === o.bury) this.pendingCheck = this.send({ type: "check", action: "bury", cards: this.selectedCards() });
  }

  onHandKey(e) {
    const keys = this.handKeys();
    let i = keys.indexOf(this.focusKey);
    const move = (j) => {
      j = Math.max(0, Math.min(keys.length - 1, j));
      this.focusKey = keys[j];
      for (const el of this.handEl.children) el.tabIndex = el.dataset.key === this.focusKey ? 0 : -1;
      const f = this.handEl.querySelector(`[data-key="${CSS.escape(this.focusKey)}"]`);
      if (f) f.focus();
    };
    if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); move(i + 1); }
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); move(i - 1); }
    else if (e.key === "Home") { e.preventDefault(); move(0); }
    else if (e.key === "End") { e.preventDefault(); move(keys.length - 1); }
    else if (e.key === " " || e.key === "Spacebar") { e.preventDefault(); if (this.focusKey) this.toggle(this.focusKey); }
    else if (e.key === "Enter") { e.preventDefault(); this.primary(); }
  }

  onGlobalKey(e) {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "Escape") { this.selected = []; this.coachMsg = null; this.render(); }
    else if ((e.key === "h" || e.key === "H") && !e.ctrlKey && !e.metaKey) { if (this.myTurn() || (this.state && this.state.options && this.state.options.phase === "deal")) this.askHint(); }
    else if (e.key === "Enter" && e.target === document.body) { this.primary(); }
  }

  primary() {
    const o = this.state && this.state.options;
    if (!o || !o.turn || this.readonly) return;
    const cards = this.selectedCards();
    if (o.phase === "play" && cards.length) this.pendingAction = this.send({ type: "play", cards });
    else if (o.phase === "bury" && cards.length === o.bury) this.pendingAction = this.send({ type: "bury", cards });
  }

  askHint() {
    if (this.send({ type: "hint" }) !== null) { this.hintText = `${t("hint")} …`; this.renderActions(); }
  }

  applyHint(action) {
    if (!action) return;
    const o = this.state.options || {};
    if ((action.type === "play" || action.type === "bury") && action.cards) {
      const keys = this.handKeys();
      const picked = [];
      for (const c of action.cards) {
        const k = keys.find((x) => x.split("#")[0] === c && !picked.includes(x));
        if (k) picked.push(k);
      }
      this.selected = picked;
      this.hintText = t("hint_play", { cards: cardsText(action.cards) });
      this.renderHand();
      this.checkSelection();
    } else if (action.type === "declare") this.hintText = t("hint_declare", { cards: cardsText(action.cards) });
    else if (action.type === "pass") this.hintText = t("hint_pass");
    else if (action.type === "call_friend") this.hintText = `${t("call_friend")}: ${cardText(action.card)}`;
    void o;
    this.renderActions();
  }

  renderActions() {
    const st = this.state;
    if (!st) return;
    const el = document.createElement("div");
    const o = st.options || {};
    const v = st.view;
    const me = this.me();
    let status = "";
    if (st.room.status === "lobby") status = t("waiting_host");
    else if (st.between) status = t("phase_done");
    else if (v.over) status = t("match_over");
    else if (this.myTurn()) status = t("your_turn");
    else if (st.waiting_for !== null && st.waiting_for !== undefined) status = st.thinking ? t("thinking", { name: this.name(st.waiting_for) }) : t("waiting_for", { name: this.name(st.waiting_for) });
    else status = t(PHASE_KEYS[v.phase] || "phase_play");
    if (!this.readonly && me !== null && !st.between && st.room.status === "playing") {
      if (o.phase === "deal" || o.phase === "declare" || o.phase === "override") {
        for (const cards of o.declare || []) {
          el.appendChild(h("button", { type: "button", class: "declare-btn", "data-cards": cards.join(" "),
            onclick: () => { this.pendingAction = this.send({ type: "declare", cards }); } },
          t("declare", { cards: "" }), cardRow(cards, { small: true })));
        }
        if (o.can_pass) el.appendChild(h("button", { type: "button", id: "btn-pass", onclick: () => { this.pendingAction = this.send({ type: "pass" }); } }, t("pass")));
        if (o.can_redeal) el.appendChild(h("button", { type: "button", id: "btn-redeal", onclick: () => { this.pendingAction = this.send({ type: "redeal" }); } }, t("redeal")));
        if (o.phase === "deal" && (o.declare || []).length) status = t("declare_during_deal");
        else if (o.phase !== "deal" && o.turn) status = `${t("your_turn")} — ${t("phase_" + o.phase)}`;
      } else if (o.phase === "bury" && o.bury) {
        const n = this.selected.length;
        el.appendChild(h("button", { type: "button", id: "btn-bury", class: "primary", disabled: n !== o.bury, onclick: () => this.primary() }, t("bury", { n, k: o.bury })));
        status = t("select_bury", { k: o.bury });
      } else if (o.phase === "call_friend" && o.call_friend) {
        const sel = h("select", { id: "friend-card", "aria-label": t("call_friend") });
        for (const s of "SHCD") for (const r of ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]) sel.appendChild(h("option", { value: s + r }, cardText(s + r)));
        el.append(sel, h("button", { type: "button", id: "btn-call-friend", class: "primary", onclick: () => { this.pendingAction = this.send({ type: "call_friend", card: sel.value }); } }, t("call_friend")));
      } else if (o.phase === "play" && o.turn) {
        el.appendChild(h("button", { type: "button", id: "btn-play", class: "primary", disabled: !this.selected.length, onclick: () => this.primary() }, t("play")));
        status = o.follow ? `${t("your_turn")} — ${t("follow_n", { n: o.follow.count })}` : `${t("your_turn")} — ${t("lead_anything")}`;
      }
      if (o.turn || (o.phase === "deal" && (o.declare || []).length)) {
        el.appendChild(h("button", { type: "button", id: "btn-hint", title: "H", onclick: () => this.askHint() }, t("hint")));
      }
      if (this.selected.length) el.appendChild(h("button", { type: "button", class: "subtle", onclick: () => { this.selected = []; this.checkResult = null; this.renderHand(); this.renderActions(); } }, "✕"));
    }
    swap(this.actionsEl, el);
    if (this.statusEl.textContent !== status) this.statusEl.textContent = status;
    // coach: legality of the selection, hints, refusals with their why
    const coach = document.createElement("div");
    if (this.checkResult && this.selected.length) {
      const c = this.checkResult;
      coach.appendChild(h("p", { class: c.ok ? "ok" : "bad", id: "check-result" }, c.ok ? t("legal") : c.reason,
        !c.ok ? h("button", { type: "button", class: "link", id: "btn-check-why", onclick: () => { this.coachMsg = { reason: c.reason, why: c.why, open: true, check: true }; this.renderActions(); } }, t("why")) : null));
    }
    if (this.hintText) coach.appendChild(h("p", { class: "hint", id: "hint-text" }, this.hintText));
    if (this.coachMsg) {
      const m = this.coachMsg;
      coach.appendChild(h("div", { class: "refusal", id: "refusal", role: "alert" },
        h("strong", {}, `${m.check ? t("coach") : t("refused")}: `),
        m.open ? h("span", { class: "why", id: "why-text" }, m.why) : m.reason, " ",
        m.open ? null : h("button", { type: "button", class: "link", id: "btn-why", onclick: () => { m.open = true; this.renderActions(); } }, t("why")),
        h("button", { type: "button", class: "link", onclick: () => { this.coachMsg = null; this.renderActions(); } }, t("close"))));
    }
    swap(this.coachEl, coach);
  }

  renderTimer() {
    const st = this.state;
    if (!st || !this.felt) return;
    for (const el of this.felt.querySelectorAll("[data-timer-seat]")) el.textContent = "";
    if (st.timer_ms === null || st.timer_ms === undefined || st.waiting_for === null) return;
    if (!this.timerBase || this.timerBase.state !== st) this.timerBase = { state: st, at: performance.now() };
    const left = Math.max(0, st.timer_ms - (performance.now() - this.timerBase.at));
    const el = this.felt.querySelector(`[data-timer-seat="${st.waiting_for}"]`);
    if (el) el.textContent = `⏱ ${Math.ceil(left / 1000)}`;
  }

  renderSide() {
    const st = this.state;
    const v = st.view;
    const side = document.createElement("div");
    const last = v.last_trick;
    const lastBox = h("section", { class: "last-trick", id: "last-trick", "aria-label": t("last_trick") }, h("h2", {}, t("last_trick")));
    if (last) {
      for (const p of last.plays) lastBox.appendChild(h("div", { class: "lt-row" + (p.seat === last.winner ? " won" : "") }, h("span", { class: "who" }, this.name(p.seat)), cardRow(p.cards, { small: true })));
      lastBox.appendChild(h("p", { class: "muted" }, t("ev_trick", { name: this.name(last.winner), p: last.points })));
    } else lastBox.appendChild(h("p", { class: "muted" }, t("none")));
    side.appendChild(lastBox);
    if (v.kitty && v.kitty.length && !st.between) side.appendChild(h("section", { class: "kitty-box", id: "kitty" }, h("h2", {}, t("kitty")), cardRow(v.kitty, { small: true })));
    if (!this.readonly && st.room.status === "playing" && this.me() === null) {
      const free = st.room.seats.map((s, i) => (!s.human ? i : null)).filter((x) => x !== null);
      if (free.length) side.appendChild(h("section", { class: "take-seat" }, h("h2", {}, t("take_seat")),
        ...free.map((i) => h("button", { type: "button", "data-sit": i, onclick: () => this.send({ type: "sit", seat: i, name: savedName() || undefined }) }, `${t("sit_here")}: ${this.name(i)}`))));
    }
    const spect = st.room.spectators ? h("p", { class: "muted" }, t("spectators", { n: st.room.spectators })) : null;
    const log = h("section", { class: "log" }, h("h2", {}, t("log")),
      h("ol", { id: "log", role: "log", "aria-live": "polite" }, ...this.logLines.slice(-40).map((l) => h("li", {}, l))));
    side.append(log);
    if (spect) side.appendChild(spect);
    if (swap(this.side, side)) { const ol = this.side.querySelector("ol"); if (ol) ol.scrollTop = ol.scrollHeight; }
  }

  logEvent(e) {
    const name = (s) => this.name(s);
    let line = null;
    switch (e.e) {
      case "declared": line = t("ev_declared", { name: name(e.seat), cards: cardsText(e.cards) }); break;
      case "trump_fixed": line = t("ev_trump_fixed", { trump: e.trump === null || e.trump === undefined ? t("no_trump") : suitText(e.trump), name: name(e.dealer) }); break;
      case "buried": line = t("ev_buried", { name: name(e.seat) }); break;
      case "played":
        if (e.attempted) line = t("ev_failed_throw", { name: name(e.seat), tried: cardsText(e.attempted), cards: cardsText(e.cards) });
        break;
      case "trick_ended": line = t("ev_trick", { name: name(e.winner), p: e.points }); break;
      case "redealt": line = t("ev_redealt"); break;
      case "round_ended": line = t("ev_round", { p: e.attacker_points }); break;
      case "friend_called": line = t("ev_friend_called", { name: name(e.seat), card: cardText(e.card) }); break;
      case "friend_revealed": if (e.seat !== null) line = t("ev_friend_revealed", { name: name(e.seat) }); break;
      case "round_started": line = `— ${t("round_n", { n: e.number })} —`; break;
      default: break;
    }
    if (line) this.logLines.push(line);
    if (this.logLines.length > 200) this.logLines.splice(0, 100);
  }

  renderOverlay() {
    const st = this.state;
    const ov = document.createElement("div");
    let content = null;
    if (st.room.status === "lobby") content = this.lobby();
    else if (st.summary && (st.between || st.view.over)) content = this.summary(st.summary, st.view.over);
    this.overlay.hidden = !content;
    if (content) {
      const dialog = h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" }, content);
      ov.appendChild(dialog);
    }
    const opened = swap(this.overlay, ov);
    if (opened && content && !this.overlay.contains(document.activeElement)) {
      const focus = this.overlay.querySelector("button.primary, button, a");
      if (focus) focus.focus();
    }
  }

  lobby() {
    const st = this.state;
    const link = `${location.origin}/r/${this.code}`;
    const seats = st.room.seats.map((s, i) => {
      const mine = this.me() === i;
      return h("li", { class: "lobby-seat" + (mine ? " mine" : "") },
        h("span", {}, `${defaultName(i, st.room.seats.length)}: `, h("strong", {}, s.human ? (s.name || t("players")) : t("empty_seat")), mine ? ` (${t("you")})` : ""),
        !s.human ? h("button", { type: "button", "data-sit": i, onclick: () => this.send({ type: "sit", seat: i, name: savedName() || undefined }) }, t("sit_here")) : null,
        mine ? h("button", { type: "button", class: "subtle", onclick: () => this.send({ type: "stand" }) }, t("stand_up")) : null);
    });
    return h("div", { class: "lobby", id: "lobby" },
      h("h2", { id: "dialog-title" }, t("lobby_title", { code: this.code })),
      h("p", {}, t("share"), " ", h("code", { id: "share-link" }, link), " ",
        h("button", { type: "button", class: "small", onclick: () => { navigator.clipboard && navigator.clipboard.writeText(link); toast(t("copied")); } }, t("copy"))),
      h("p", { class: "muted" }, t("take_seat")),
      h("ul", { class: "lobby-seats" }, ...seats),
      st.you.host ? h("button", { type: "button", id: "btn-start", class: "primary big", onclick: () => this.send({ type: "start" }) }, t("start")) : h("p", {}, t("waiting_host")));
  }

  summary(s, over) {
    const st = this.state;
    const r = s.result;
    const me = this.me();
    const rows = [];
    rows.push(h("tr", {}, h("th", { scope: "row" }, t("trick_points")), h("td", {}, String(r.trick_points))));
    if (r.kitty_captured) rows.push(h("tr", {}, h("th", { scope: "row" }, t("kitty")), h("td", {}, t("kitty_captured", { p: r.kitty_points, m: r.multiplier, t: r.kitty_points * r.multiplier }))));
    else rows.push(h("tr", {}, h("th", { scope: "row" }, t("kitty")), h("td", {}, t("kitty_safe", { p: r.kitty_points }))));
    if (r.penalty_points) rows.push(h("tr", {}, h("th", { scope: "row" }, "±"), h("td", {}, String(r.penalty_points))));
    rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t("total")), h("td", {}, h("strong", { id: "summary-total" }, String(r.attacker_points)))));
    const result = r.team === "dealer" ? t("result_dealer", { n: r.levels }) : (r.levels ? t("result_attackers", { n: r.levels }) : t("result_attackers0"));
    const labels = this.teamLabels();
    const lv = (names, i) => (names || [])[i] ?? "?";
    const levelRows = labels.map((x, i) => `${x.label} ${lv(s.level_names_before, i)} → ${lv(s.level_names_after, i)}`).join(" · ");
    const review = h("section", { class: "review", id: "review" }, h("h3", {}, t("review")));
    if (!s.review.length) review.appendChild(h("p", { class: "muted" }, t("review_none")));
    for (const item of s.review) {
      review.appendChild(h("div", { class: "review-item" },
        h("div", { class: "review-head" }, item.kitty ? t("kitty") : t("trick_n", { n: item.trick }), " · ", h("strong", {}, `${item.points}`)),
        item.plays ? h("div", { class: "review-plays" }, ...item.plays.map((p) => h("span", { class: "rp" + (p.seat === item.winner ? " won" : "") }, h("span", { class: "who" }, this.name(p.seat)), cardRow(p.cards, { small: true })))) : null,
        h("p", { class: "note" }, item.note)));
    }
    let head = t("summary_title", { n: s.round });
    let winnerLine = null;
    if (over && s.winner !== null && s.winner !== undefined) {
      head = t("match_over");
      const mine = me !== null && st.room.seats[me] && st.room.seats[me].team === s.winner;
      winnerLine = h("p", { class: "winner", id: "winner" }, me === null ? t("winner_team", { team: t("team_n", { n: s.winner + 1 }) }) : (mine ? t("we_win") : t("they_win")));
    }
    const ready = st.ready || [];
    const actions = h("div", { class: "dialog-actions" });
    if (over) {
      actions.append(h("a", { class: "button primary", href: `/replay/${this.code}`, onclick: (e) => { e.preventDefault(); go(`/replay/${this.code}`); } }, t("replay")),
        h("a", { class: "button", href: `/api/games/${this.code}/record`, download: `tuolaji-${this.code}.json` }, t("export")),
        h("a", { class: "button", href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, t("home")));
    } else if (me !== null) {
      const done = ready.includes(me);
      actions.appendChild(h("button", { type: "button", id: "btn-next-round", class: "primary big", disabled: done, onclick: () => this.send({ type: "ready" }) }, t("next_round")));
      if (ready.length) actions.appendChild(h("span", { class: "muted" }, t("ready_n", { n: ready.length })));
    }
    return h("div", { class: "summary", id: "summary" },
      h("h2", { id: "dialog-title" }, head), winnerLine,
      h("p", {}, `${t("trump")} ${s.trump ? suitText(s.trump) : t("no_trump")}${levelText(s.level)} · ${t("dealer")}: ${this.name(s.dealer)}`),
      h("table", { class: "score" }, h("tbody", {}, ...rows)),
      h("p", { class: "result", id: "summary-result" }, result),
      h("p", { id: "summary-levels" }, `${t("levels")}: ${levelRows}`),
      h("div", { class: "kitty-end" }, h("span", {}, `${t("kitty")}: `), cardRow(r.kitty, { small: true })),
      review, actions);
  }
}

// ------------------------------------------------------------------ replay
class ReplayPage {
  constructor(code) {
    this.code = code;
    this.round = 1;
    this.seat = 0;
    this.i = 0;
    this.data = null;
    this.root = h("div", { class: "replay-page" });
    app.appendChild(this.root);
    this.onKey = (e) => {
      if (e.target && ["INPUT", "SELECT"].includes(e.target.tagName)) return;
      if (e.key === "ArrowRight") this.step(1); else if (e.key === "ArrowLeft") this.step(-1);
      else if (e.key === "PageDown") this.trick(1); else if (e.key === "PageUp") this.trick(-1);
    };
    document.addEventListener("keydown", this.onKey);
    this.init();
  }

  destroy() { document.removeEventListener("keydown", this.onKey); if (this.table) this.table.destroy(); }

  async init() {
    try { this.info = await api(`/api/games/${this.code}`); } catch (e) { this.root.textContent = e.message; return; }
    this.rounds = this.info.rounds;
    if (!this.rounds) { this.root.append(h("p", {}, t("replay_none")), h("a", { href: "/" }, t("start_page"))); return; }
    await this.load();
  }

  async load() {
    try {
      this.data = await api(`/api/games/${this.code}/replay?round=${this.round}&seat=${this.seat === null ? "spectator" : this.seat}`);
    } catch (e) { this.root.textContent = e.message; return; }
    this.i = 0;
    this.render();
  }

  step(d) { if (!this.data) return; this.i = Math.max(0, Math.min(this.data.frames.length - 1, this.i + d)); this.render(); }

  trick(d) {
    const f = this.data.frames;
    let i = this.i;
    const cur = (x) => (f[x].label.trick || 0);
    const start = cur(i);
    if (d > 0) { while (i < f.length - 1 && cur(i) <= start) i++; while (i < f.length - 1 && f[i + 1].label.trick === cur(i)) i++; }
    else { while (i > 0 && cur(i) >= start) i--; }
    this.i = i;
    this.render();
  }

  render() {
    const r = this.root;
    r.innerHTML = "";
    const names = this.data.names.map((n, i) => n || defaultName(i, this.data.players));
    const roundSel = h("select", { id: "replay-round", "aria-label": t("replay_round") }, ...Array.from({ length: this.rounds }, (_, k) => h("option", { value: k + 1, selected: k + 1 === this.round }, t("round_n", { n: k + 1 }))));
    roundSel.addEventListener("change", () => { this.round = parseInt(roundSel.value, 10); this.load(); });
    const seatSel = h("select", { id: "replay-seat", "aria-label": t("replay_seat") }, ...names.map((n, k) => h("option", { value: k, selected: k === this.seat }, n)), h("option", { value: "spectator", selected: this.seat === null }, t("spectator")));
    seatSel.addEventListener("change", () => { this.seat = seatSel.value === "spectator" ? null : parseInt(seatSel.value, 10); this.load(); });
    const frames = this.data.frames;
    const frame = frames[this.i];
    const label = frame ? this.describe(frame.label, names) : "";
    r.appendChild(h("header", { class: "topbar" },
      h("a", { class: "home", href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, "← ", t("home")),
      h("strong", {}, t("replay_title", { code: this.code })),
      h("label", {}, t("replay_round"), " ", roundSel), h("label", {}, t("replay_seat"), " ", seatSel),
      langButton(() => this.render())));
    const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": "replay" },
      h("button", { type: "button", id: "rp-prev-trick", onclick: () => this.trick(-1) }, t("prev_trick")),
      h("button", { type: "button", id: "rp-prev", onclick: () => this.step(-1) }, t("prev")),
      h("span", { id: "rp-step", "aria-live": "polite" }, t("step_n", { i: this.i + 1, n: frames.length }), " — ", label),
      h("button", { type: "button", id: "rp-next", onclick: () => this.step(1) }, t("next")),
      h("button", { type: "button", id: "rp-next-trick", onclick: () => this.trick(1) }, t("next_trick")));
    r.appendChild(controls);
    if (!frame) return;
    // the table's own drawing, on a read-only page
    if (this.table) this.table.destroy();
    const holder = h("div", { class: "replay-table" });
    r.appendChild(holder);
    const table = new TablePage(this.code, { readonly: true, container: holder });
    const v = Object.assign({}, frame.view, { level_names: this.data.summary.level_names, round_number: this.round, sides: frame.view.sides || [] });
    table.state = {
      room: { status: "playing", seats: names.map((n, i) => ({ name: n, human: true, team: this.data.summary.teams ? this.data.summary.teams[i] : i % 2, bot: false })), settings: {}, spectators: 0 },
      you: { seat: this.seat, host: false }, view: v, between: false, waiting_for: frame.view.turn, options: null,
    };
    table.render();
    table.overlay.hidden = true;
    if (frame.view.result) {
      table.overlay.hidden = false;
      table.overlay.appendChild(h("div", { class: "dialog" }, h("h2", {}, t("step_done")), h("p", {}, `${t("total")}: ${frame.view.result.attacker_points}`), h("div", { class: "kitty-end" }, cardRow(frame.view.result.kitty, { small: true })), h("button", { type: "button", onclick: () => { table.overlay.hidden = true; } }, t("close"))));
    }
    this.table = table;
  }

  describe(label, names) {
    const name = (s) => names[s] ?? "?";
    if (label.e === "played") return t("step_play", { t: label.trick, name: name(label.seat), cards: cardsText(label.cards) });
    if (label.e === "buried") return t("step_buried", { name: name(label.seat) });
    if (label.e === "kitty_taken") return t("step_bury", { name: name(label.seat) });
    if (label.e === "last_call") return t("step_declare");
    return t(PHASE_KEYS[label.e] || label.e);
  }
}

// ------------------------------------------------------------------ start
window.addEventListener("popstate", route);
setLang(lang());
route();
