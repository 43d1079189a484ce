// @ts-check
// Replay of a finished round, step by step, as any seat (or a spectator) saw it; the frames are
// drawn by the table's own read-only page.
import { t } from "./i18n.js";
import { cardRow, cardsText } from "./cards.js";
import { h, errorText } from "./dom.js";
import { api } from "./api.js";
import { follow, link } from "./nav.js";
import { PHASE_KEYS, defaultName, langButton } from "./ui.js";
import { TablePage } from "./table.js";

/**
 * @typedef {import("./wire").ReplayResponse} ReplayResponse
 * @typedef {import("./wire").ReplayLabel} ReplayLabel
 * @typedef {import("./wire").GameInfoResponse} GameInfoResponse
 */

export class ReplayPage {
  /**
   * @param {string} code
   * @param {HTMLElement} app
   */
  constructor(code, app) {
    this.code = code;
    this.round = 1;
    /** @type {number | null} the seat whose view is shown (null: a spectator's) */
    this.seat = 0;
    this.i = 0;
    /** @type {ReplayResponse | null} */
    this.data = null;
    /** @type {GameInfoResponse | null} */
    this.info = null;
    this.rounds = 0;
    /** @type {TablePage | null} */
    this.table = null;
    this.root = h("div", { class: "replay-page" });
    app.appendChild(this.root);
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => {
      const target = /** @type {HTMLElement | null} */ (e.target);
      if (target && ["INPUT", "SELECT"].includes(target.tagName)) return;
      if (e.key === "ArrowRight") this.step(1); else if (e.key === "ArrowLeft") this.step(-1);
      else if (e.key === "PageDown") this.trick(1); else if (e.key === "PageUp") this.trick(-1);
    };
    document.addEventListener("keydown", this.onKey);
    this.init();
  }

  destroy() { document.removeEventListener("keydown", this.onKey); if (this.table) this.table.destroy(); }

  async init() {
    try { this.info = await api(`/api/games/${this.code}`); } catch (e) { this.root.textContent = errorText(e); return; }
    this.rounds = this.info ? this.info.rounds : 0;
    if (!this.rounds) { this.root.append(h("p", {}, t("replay_none")), h("a", { href: link("/") }, t("start_page"))); return; }
    await this.load();
  }

  async load() {
    try {
      this.data = await api(`/api/games/${this.code}/replay?round=${this.round}&seat=${this.seat === null ? "spectator" : this.seat}`);
    } catch (e) { this.root.textContent = errorText(e); return; }
    this.i = 0;
    this.render();
  }

  /** @param {number} d */
  step(d) { if (!this.data) return; this.i = Math.max(0, Math.min(this.data.frames.length - 1, this.i + d)); this.render(); }

  /** @param {number} d */
  trick(d) {
    if (!this.data) return;
    const f = this.data.frames;
    let i = this.i;
    /** @param {number} x */
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
    if (!this.data) return;
    const data = this.data;
    const names = (data.names || []).map((n, i) => n || defaultName(i, data.players, this.seat));
    const seatNames = (data.names || []).map((n, i) => n || defaultName(i, data.players));
    const roundSel = h("select", { id: "replay-round", "aria-label": t("replay_round") }, ...Array.from({ length: this.rounds }, (_, k) => h("option", { value: k + 1, selected: k + 1 === this.round }, t("round_n", { n: k + 1 }))));
    roundSel.addEventListener("change", () => { this.round = parseInt(roundSel.value, 10); this.load(); });
    const seatSel = h("select", { id: "replay-seat", "aria-label": t("replay_seat") }, ...seatNames.map((n, k) => h("option", { value: k, selected: k === this.seat }, n)), h("option", { value: "spectator", selected: this.seat === null }, t("spectator")));
    seatSel.addEventListener("change", () => { this.seat = seatSel.value === "spectator" ? null : parseInt(seatSel.value, 10); this.load(); });
    const frames = data.frames;
    const frame = frames[this.i];
    const label = frame ? this.describe(frame.label, names) : "";
    r.appendChild(h("header", { class: "topbar" },
      h("a", { class: "home", href: link("/"), onclick: follow("/"), "aria-label": t("home"), title: t("home") }, "← ", h("span", { class: "long" }, t("home"))),
      h("strong", {}, t("replay_title", { code: this.code })),
      h("label", {}, t("replay_round"), " ", roundSel), h("label", {}, t("replay_seat"), " ", seatSel),
      langButton(() => this.render())));
    const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay") },
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
    const summary = data.summary;
    /** @type {import("./wire").TableView} */
    const v = Object.assign({}, frame.view, {
      level_names: data.level_names, round_number: this.round, sides: [],
      levels: data.levels, winner: null, over: false, draw: false, time_up: false, purses: [],
    });
    table.state = {
      type: "state",
      room: {
        code: this.code, status: "playing", host: false, rules: "", spectators: 0,
        // only the names players chose: the table names the others as this seat sees them ("我", not "我 (你)")
        seats: names.map((_n, i) => ({ name: (data.names || [])[i] || "", human: true, connected: true, autoplay: false, bot: false, team: summary ? summary.teams[i] : i % 2 })),
        settings: { speed: null, timer: null, difficulty: null }, counter: false, password: false,
      },
      you: { seat: this.seat, host: false, lang: "", autoplay: false }, view: v, between: false, thinking: false,
      waiting_for: frame.view.turn, timer_ms: null, events: [],
    };
    table.render();
    table.overlay.hidden = true;
    if (frame.view.result) {  // the round's result beside the table, not over the replay's buttons
      table.side.prepend(h("section", { class: "replay-result", id: "replay-result" }, h("h2", {}, t("step_done")),
        h("p", {}, `${t("total")}: ${frame.view.result.attacker_points}`), h("div", { class: "kitty-end" }, cardRow(frame.view.result.kitty, { small: true }))));
    }
    this.table = table;
  }

  /**
   * @param {ReplayLabel} label
   * @param {string[]} names
   */
  describe(label, names) {
    /** @param {number | null | undefined} s */
    const name = (s) => (s === null || s === undefined ? "?" : names[s] ?? "?");
    if (label.e === "played") return t("step_play", { t: label.trick, name: name(label.seat), cards: cardsText(label.cards) });
    if (label.e === "buried") return t("step_buried", { name: name(label.seat) });
    if (label.e === "kitty_taken") return t("step_bury", { name: name(label.seat) });
    if (label.e === "last_call") return t("step_declare");
    return t(PHASE_KEYS[label.e] || label.e);
  }
}
