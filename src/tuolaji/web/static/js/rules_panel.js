// @ts-check
// The rules panel of the start page: a preset and, folded away, every setting it may change.
import { t, lang } from "./i18n.js";
import { h, errorText } from "./dom.js";
import { api } from "./api.js";

/**
 * @typedef {import("./wire").RulesSchema} RulesSchema
 * @typedef {import("./wire").RulesCheckResponse} RulesCheckResponse
 */

const LAST = "tuolaji.rules";  // the rules the player last started a game with
// decks suggested when the player picks a table size: hands of 20-26 cards (docs/settings.md "Deal sizes")
const DECKS_FOR = { 5: 2, 6: 3, 7: 3, 8: 4 };

/**
 * @param {{ en: string, zh: string } | undefined} text
 * @param {string} fallback
 */
function inLang(text, fallback) { return text ? (lang() === "zh" ? text.zh : text.en) : fallback; }

export class RulesPanel {
  /** @param {RulesSchema} schema */
  constructor(schema) {
    this.schema = schema;
    this.el = h("fieldset", { class: "rules-panel" });
    this.preset = "classic";
    /** @type {Record<string, unknown>} the settings changed from the preset's */
    this.values = {};
    try {  // offer the custom rules the player last used
      const last = JSON.parse(localStorage.getItem(LAST) || "null");
      if (last && typeof last.preset === "string" && last.preset in schema.presets) {
        const { preset, ...changes } = last;
        this.preset = preset;
        this.values = changes;
      }
    } catch {
      localStorage.removeItem(LAST);
    }
    this.msg = h("p", { class: "rules-msg", role: "status" });
    /** @type {HTMLElement | null} what these rules deal (the checked answer) */
    this.deal = null;
    this.render();
    this.check();
  }

  /** Remember these rules for next time (called when a game starts with them). */
  remember() { localStorage.setItem(LAST, JSON.stringify(this.value())); }

  /** @param {string} name a setting */
  label(name) { return inLang(this.schema.labels.settings[name], name.replace(/_/g, " ")); }

  /** @param {string} value an option value */
  optionLabel(value) { return inLang(this.schema.labels.options[value], value.replace(/_/g, " ")); }

  /** @param {string} name a preset @returns {{ title: string, description: string }} */
  presetText(name) {
    const text = this.schema.labels.presets[name];
    return { title: inLang(text && text.title, name), description: inLang(text && text.description, "") };
  }

  /** @returns {Record<string, any>} */
  presetValues() { return this.schema.presets[this.preset] || {}; }

  /** @returns {Record<string, unknown>} the rules to send: {preset, ...changes} */
  value() {
    const base = this.presetValues();
    /** @type {Record<string, unknown>} */
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
      ...Object.keys(this.schema.presets).map((p) => h("option", { value: p, selected: p === this.preset }, this.presetText(p).title)));
    sel.addEventListener("change", () => { this.preset = sel.value; this.values = {}; this.render(); this.check(); });
    el.appendChild(h("label", { class: "row" }, h("span", {}, t("preset")), sel));
    const about = this.presetText(this.preset).description;
    if (about) el.appendChild(h("p", { class: "preset-about muted", id: "preset-about" }, about));
    el.appendChild(this.playersRow());
    this.deal = h("p", { class: "rules-deal muted", id: "rules-deal", role: "status" });
    el.appendChild(this.deal);
    const details = h("details", { class: "rules-details" }, h("summary", {}, t("change_rules")));
    const grid = h("div", { class: "rules-grid" });
    const base = this.presetValues();
    for (const f of this.schema.fields) {
      if (f.name === "name" || f.name === "description" || f.offered === false) continue;
      const cur = f.name in this.values ? this.values[f.name] : base[f.name];
      const id = `rule-${f.name}`;
      let input;
      if (f.kind === "enum") {
        const shown = (f.options || []).filter((o) => o === cur || !(f.hidden_options || []).includes(o));
        input = h("select", { id }, ...shown.map((o) => h("option", { value: o, selected: o === cur }, this.optionLabel(o))));
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
      grid.appendChild(h("label", { class: "rule", for: id }, h("span", {}, this.label(f.name)), input));
    }
    details.appendChild(grid);
    this.msg = h("p", { class: "rules-msg", role: "status" });
    details.appendChild(this.msg);
    el.appendChild(details);
  }

  /** The table size, 4 to 8, in view: 5 and 7 play find-a-friend, and the decks follow the size. */
  playersRow() {
    const base = this.presetValues();
    const cur = Number("players" in this.values ? this.values.players : base.players) || 4;
    const sel = h("select", { id: "rules-players" }, ...[4, 5, 6, 7, 8].map((n) => h("option", { value: String(n), selected: n === cur }, String(n))));
    sel.addEventListener("change", () => {
      const n = parseInt(sel.value, 10);
      this.values.players = n;
      // the deal is derived again; an odd table cannot sit in two fixed teams
      for (const k of ["hand_size", "kitty_size", "friends"]) this.values[k] = null;
      this.values.decks = n === base.players ? base.decks : (/** @type {Record<number, number>} */ (DECKS_FOR))[n] || base.decks;
      if (n % 2 && (this.values.partnership ?? base.partnership) === "fixed") this.values.partnership = "find_friend";
      this.render();
      this.check();
    });
    return h("label", { class: "row", for: "rules-players" }, h("span", {}, this.label("players")), sel);
  }

  /**
   * @param {string} name
   * @param {unknown} value
   */
  set(name, value) { this.values[name] = value; this.check(); }

  /** Show an error under the rules, unfolded. @param {string} text */
  showError(text) {
    this.msg.textContent = text;
    const details = this.el.querySelector("details");
    if (details) details.open = true;
  }

  async check() {
    try {
      /** @type {RulesCheckResponse} */
      const r = await api("/api/rules/check", { method: "POST", body: { rules: this.value() } });
      this.msg.textContent = r.ok ? t("rules_ok") : t("bad_rules", { e: r.error });
      this.msg.classList.toggle("bad", !r.ok);
      const d = r.deal;
      if (this.deal) this.deal.textContent = d ? t("deal_shape", d) + (d.friends ? (lang() === "zh" ? "；" : "; ") + t("deal_friends", { n: d.friends }) : "") : "";
    } catch (e) { this.msg.textContent = errorText(e); }
  }
}

