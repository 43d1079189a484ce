// @ts-check
// The start page: play the computer, rooms for friends, saved games, importing a record.
// "tuolaji" opens /play (quickPlay): back to your unfinished game against the computer, or a new one.
import { t, lang } from "./i18n.js";
import { h, toast, errorText } from "./dom.js";
import { api, setToken, savedName } from "./api.js";
import { go, follow, redraw, link } from "./nav.js";
import { defaultName, langButton, exportLink } from "./ui.js";
import { RulesPanel } from "./rules_panel.js";

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
    const body = {
      seat: 0, start: true, name: savedName(),
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
    const create = async (start) => {
      try {
        const res = await api("/api/games", { method: "POST", body: Object.assign(settings(), { seat: 0, start }) });
        setToken(res.token);
        go(`/r/${res.code}`);
      } catch (e) { rules.showError(t("bad_rules", { e: errorText(e) })); }
    };
    const solo = h("section", { class: "card-panel", "aria-labelledby": "h-solo" },
      h("h2", { id: "h-solo" }, t("play_computer")),
      h("div", { class: "form" },
        h("label", { class: "row", for: "name" }, h("span", {}, t("your_name")), name),
        h("label", { class: "row", for: "difficulty" }, h("span", {}, t("difficulty")), diff),
        h("label", { class: "row", for: "speed" }, h("span", {}, t("speed")), speed),
        h("label", { class: "row", for: "timer" }, h("span", {}, t("timer")), timer),
        rules.el),
      h("button", { id: "btn-new-game", class: "primary big", type: "button", onclick: () => create(true) }, t("start_game")));

    const code = h("input", { id: "join-code", type: "text", maxlength: "8", placeholder: "ABCDE", autocapitalize: "characters", "aria-label": t("room_code") });
    const join = () => { const c = code.value.trim().toUpperCase(); if (c) go(`/r/${c}`); };
    code.addEventListener("keydown", (e) => { if (e.key === "Enter") join(); });
    const lan = info.lan_urls.length && info.mode === "serve"
      ? h("p", { class: "lan" }, t("lan_hint"), " ", ...info.lan_urls.map((u) => h("code", {}, u)))
      : h("p", { class: "lan muted" }, info.lan_urls.length ? t("lan_hint") + " " + info.lan_urls.join(" ") : t("lan_none"));
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
        if (g.status !== "finished") actions.appendChild(h("a", { class: "button primary", href: link(`/r/${g.code}`), "data-resume": g.code, onclick: follow(`/r/${g.code}`) }, g.mine !== null && g.mine !== undefined ? t("resume") : t("watch")));
        if (finishedRounds > 0) actions.appendChild(h("a", { class: "button", href: link(`/replay/${g.code}`), onclick: follow(`/replay/${g.code}`) }, t("replay")));
        actions.appendChild(exportLink(g.code));
        actions.appendChild(h("button", { type: "button", class: "danger", onclick: async () => {
          if (!confirm(t("confirm_delete", { code: g.code }))) return;
          try { await api(`/api/games/${g.code}`, { method: "DELETE" }); } catch (e) { toast(errorText(e)); }
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
      const f = file.files && file.files[0];
      if (!f) return;
      try {
        const res = await api("/api/import", { method: "POST", body: await f.text(), headers: { "Content-Type": "application/json" } });
        toast(t("import_done", { code: res.code }));
        go(res.over ? `/replay/${res.code}` : `/r/${res.code}`);
      } catch (e) { toast(errorText(e)); }
    });
    list.appendChild(h("label", { class: "import row", for: "import-file" }, h("span", {}, t("import_record")), file));
    r.append(solo, info.mode === "offline" ? "" : friends, list);  // offline: every table is in this browser
  }
}
