// @ts-check
// The start page: play the computer, rooms for friends, saved games, importing a record.
// "tuolaji" opens /play (quickPlay): back to your unfinished game against the computer, or a new one.
import { t, lang } from "./i18n.js";
import { h, toast, errorText } from "./dom.js";
import { api, setToken, savedName } from "./api.js";
import { go, follow, redraw, link } from "./nav.js";
import { defaultName, langButton, levelLabel, exportLink } from "./ui.js";
import { RulesPanel } from "./rules_panel.js";
import { loadStats } from "./stats.js";

/**
 * @typedef {import("./wire").InfoResponse} InfoResponse
 * @typedef {import("./wire").GamesResponse} GamesResponse
 * @typedef {import("./wire").RulesSchema} RulesSchema
 * @typedef {import("./wire").CreatedResponse} CreatedResponse
 * @typedef {import("./wire").ImportedResponse} ImportedResponse
 */

/** @param {HTMLElement} app */
export async function quickPlay(app) {
  app.appendChild(h("p", { class: "loading" }, t("title"), " …"));
  try {
    /** @type {GamesResponse} */
    const list = await api("/api/games");
    const mine = (list.games || []).find((g) => g.status === "playing" && g.mine !== null && g.mine !== undefined);
    if (mine) { redraw(`/r/${mine.code}`); return; }
    const wanted = new URLSearchParams(location.search).get("rules");
    const last = localStorage.getItem("tuolaji.rules");
    const body = {
      seat: 0, start: true, name: savedName(),
      // /play?rules=PRESET starts that preset; else the rules last played (else the server's default)
      rules: wanted || (last ? JSON.parse(last) : undefined),
      difficulty: localStorage.getItem("tuolaji.difficulty") || "normal",
      speed: localStorage.getItem("tuolaji.speed") || "normal",
      timer: parseInt(localStorage.getItem("tuolaji.timer") || "0", 10),
    };
    /** @type {CreatedResponse} */
    const res = await api("/api/games", { method: "POST", body });
    setToken(res.token);
    redraw(`/r/${res.code}`);
  } catch {
    redraw("/");
  }
}

export class StartPage {
  /** @param {HTMLElement} app */
  constructor(app) {
    this.root = h("div", { class: "start-page" });
    app.appendChild(this.root);
    /** @type {InfoResponse | null} */
    this.info = null;
    /** @type {RulesSchema | null} */
    this.schema = null;
    /** @type {GamesResponse} */
    this.games = { games: [] };
    /** @type {RulesPanel | null} */
    this.rules = null;
    this.load();
  }

  destroy() {}

  async load() {
    try {
      [this.info, this.schema, this.games] = await Promise.all([api("/api/info"), api("/api/rules"), api("/api/games")]);
    } catch (e) {
      this.root.textContent = errorText(e);
      return;
    }
    this.rules = new RulesPanel(/** @type {RulesSchema} */ (this.schema));
    this.render();
  }

  render() {
    const info = this.info;
    const rules = this.rules;
    if (!info || !rules) return;
    document.title = `${t("title")} · Tractor`;
    const r = this.root;
    r.innerHTML = "";
    r.appendChild(h("header", { class: "start-head" },
      h("div", {}, h("h1", {}, t("title")), h("p", { class: "sub" }, t("subtitle"))),
      langButton(() => { rules.render(); this.render(); })));

    const name = h("input", { id: "name", type: "text", maxlength: "24", value: savedName(), autocomplete: "nickname" });
    name.addEventListener("change", () => localStorage.setItem("tuolaji.name", name.value.trim()));
    const diff = h("select", { id: "difficulty" }, ...info.difficulties.map((d) =>
      h("option", { value: d, selected: d === (localStorage.getItem("tuolaji.difficulty") || "normal") }, t(d))));
    const speed = h("select", { id: "speed" }, ...info.speeds.map((s) =>
      h("option", { value: s, selected: s === (localStorage.getItem("tuolaji.speed") || "normal") }, t(s))));
    const timer = h("select", { id: "timer" }, ...[0, 15, 30, 60, 120].map((n) =>
      h("option", { value: n, selected: String(n) === (localStorage.getItem("tuolaji.timer") || "0") }, n ? t("seconds", { n }) : t("timer_off"))));
    const settings = () => {
      localStorage.setItem("tuolaji.name", name.value.trim());
      localStorage.setItem("tuolaji.difficulty", diff.value);
      localStorage.setItem("tuolaji.speed", speed.value);
      localStorage.setItem("tuolaji.timer", timer.value);
      return { name: name.value.trim(), difficulty: diff.value, speed: speed.value, timer: parseInt(timer.value, 10), rules: rules.value() };
    };
    /** @type {HTMLButtonElement[]} */
    const starters = [];
    // one game per press: the buttons wait for the server's answer (a double click made two games)
    const create = async (/** @type {boolean} */ start) => {
      if (starters.some((b) => b.disabled)) return;
      for (const b of starters) b.disabled = true;
      try {
        const body = Object.assign(settings(), { seat: 0, start }, start ? {} : { password: password.value || undefined });
        const res = await api("/api/games", { method: "POST", body });
        setToken(res.token);
        rules.remember();
        go(`/r/${res.code}`);
      } catch (e) {
        rules.showError(t("bad_rules", { e: errorText(e) }));
        for (const b of starters) b.disabled = false;
      }
    };
    const password = h("input", { id: "room-password", type: "text", maxlength: "32", autocomplete: "off", "aria-label": t("password") });
    const solo = h("section", { class: "card-panel", "aria-labelledby": "h-solo" },
      h("h2", { id: "h-solo" }, t("play_computer")),
      h("div", { class: "form" },
        h("label", { class: "row", for: "name" }, h("span", {}, t("your_name")), name),
        h("label", { class: "row", for: "difficulty" }, h("span", {}, t("difficulty")), diff),
        h("label", { class: "row", for: "speed" }, h("span", {}, t("speed")), speed),
        h("label", { class: "row", for: "timer" }, h("span", {}, t("timer")), timer),
        rules.el),
      starters[starters.push(h("button", { id: "btn-new-game", class: "primary big", type: "button", onclick: () => create(true) }, t("start_game"))) - 1]);

    const code = h("input", { id: "join-code", type: "text", maxlength: "8", placeholder: "ABCDE", autocapitalize: "characters", "aria-label": t("room_code") });
    const join = () => { const c = code.value.trim().toUpperCase(); if (c) go(`/r/${c}`); };
    code.addEventListener("keydown", (e) => { if (e.key === "Enter") join(); });
    // friends can open these addresses only when the server listens on the network; a table that
    // listens on this computer only says how to serve the network instead
    const lan = info.lan && info.lan_urls.length
      ? h("p", { class: "lan", id: "lan" }, t("lan_hint"), " ", ...info.lan_urls.map((u) => h("code", {}, u)))
      : h("p", { class: "lan muted", id: "lan" }, info.lan ? t("lan_none") : t("lan_serve", { cmd: info.lan_how || "tuolaji serve" }));
    const friends = h("section", { class: "card-panel", "aria-labelledby": "h-friends" },
      h("h2", { id: "h-friends" }, t("play_friends")), lan,
      h("div", { class: "row-buttons" },
        starters[starters.push(h("button", { id: "btn-create-room", type: "button", onclick: () => create(false) }, t("create_room"))) - 1],
        h("span", { class: "join" }, code, h("button", { id: "btn-join", type: "button", onclick: join }, t("join_room")))),
      h("label", { class: "row", for: "room-password" }, h("span", {}, t("password")), password));

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
        if (g.status !== "finished") actions.appendChild(h("a", { class: "button primary", href: link(`/r/${g.code}`), "data-resume": g.code, onclick: follow(`/r/${g.code}`) }, g.mine !== null && g.mine !== undefined ? t("resume") : t("watch")));
        if (finishedRounds > 0) actions.appendChild(h("a", { class: "button", href: link(`/replay/${g.code}`), onclick: follow(`/replay/${g.code}`) }, t("replay")));
        actions.appendChild(exportLink(g.code));
        // only a player of the game (or anyone, for a game nobody sits in) may delete it
        const mine = g.mine !== null && g.mine !== undefined;
        if (mine || !(g.seats || []).some((x) => x.human)) actions.appendChild(h("button", { type: "button", class: "danger", "data-delete": g.code, onclick: async () => {
          if (!confirm(t("confirm_delete", { code: g.code }))) return;
          try { await api(`/api/games/${g.code}`, { method: "DELETE" }); } catch (e) { toast(errorText(e)); }
          this.games = await api("/api/games"); this.render();
        } }, t("delete")));
        tbody.appendChild(h("tr", { "data-code": g.code },
          h("td", {}, h("code", {}, g.code)), h("td", {}, when), h("td", {}, names),
          h("td", {}, `${t("round_n", { n: s.round || 1 })} · ${(s.level_names || []).map(levelLabel).join(" : ")}`),
          h("td", {}, t(`status_${g.status}`)), actions));
      }
      list.appendChild(h("div", { class: "table-wrap" }, h("table", { class: "games" },
        h("thead", {}, h("tr", {}, ...["room_code", "", "players", "levels", "", ""].map((k) => h("th", { scope: "col" }, k ? t(k) : "")))), tbody)));
    }
    const file = h("input", { id: "import-file", type: "file", accept: ".json,application/json" });
    file.addEventListener("change", async () => {
      const f = file.files && file.files[0];
      if (!f) return;
      try {
        const res = await api("/api/import", { method: "POST", body: await f.text(), headers: { "Content-Type": "application/json" } });
        toast(t("import_done", { code: res.code }));
        go(res.over ? `/replay/${res.code}` : `/r/${res.code}`);
      } catch (e) { toast(errorText(e)); }
    });
    // the browser's own file button speaks the browser's language, not the page's: it is hidden
    // behind a button of ours (still the focused control, and still what a screen reader reads)
    list.appendChild(h("label", { class: "import row", for: "import-file" }, h("span", {}, t("import_record")), file,
      h("span", { class: "button", id: "import-choose", "aria-hidden": "true" }, t("choose_file"))));
    r.append(solo, info.mode === "offline" ? "" : friends, statsPanel(), list);  // offline: every table is in this browser
  }
}

/** The player's statistics from this browser (stats.js): per difficulty and rule set. */
function statsPanel() {
  const lines = Object.entries(loadStats().lines);
  const box = h("section", { class: "card-panel stats", id: "stats", "aria-labelledby": "h-stats" }, h("h2", { id: "h-stats" }, t("stats")));
  if (!lines.length) { box.appendChild(h("p", { class: "muted" }, t("stats_none"))); return box; }
  const head = ["difficulty", "stats_rules", "stats_rounds", "stats_matches", "stats_levels", "stats_streak"];
  box.appendChild(h("table", {}, h("thead", {}, h("tr", {}, ...head.map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, ...lines.map(([key, x]) => {
      const [difficulty, rules] = key.split("|");
      return h("tr", {}, h("td", {}, t(difficulty || "")), h("td", {}, rules || ""), h("td", {}, `${x.roundsWon} / ${x.rounds}`),
        h("td", {}, `${x.matchesWon} / ${x.matches}` + (x.matchesDrawn ? ` · ${t("stats_drawn", { n: x.matchesDrawn })}` : "")), h("td", {}, String(x.levels)), h("td", {}, String(x.best)));
    }))));
  return box;
}
