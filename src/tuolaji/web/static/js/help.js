// @ts-check
// Rules help at the table: the room's rule set in the player's language (the server's texts for
// every setting and value), with examples of a pair, a tractor and a throw.
import { t, lang } from "./i18n.js";
import { h } from "./dom.js";
import { cardRow } from "./cards.js";
import { api } from "./api.js";

/** @typedef {import("./wire").RulesSchema} RulesSchema */

/** @type {RulesSchema | null} */
let schema = null;

/**
 * The help dialog's content for these rules.
 * @param {Record<string, any>} rules the room's rule set (welcome.rules)
 * @param {() => void} close
 * @returns {Promise<HTMLElement>}
 */
export async function helpDialog(rules, close) {
  schema = schema || /** @type {RulesSchema} */ (await api("/api/rules"));
  const labels = schema.labels;
  /** @param {{ en: string, zh: string } | undefined} x @param {string} dflt */
  const say = (x, dflt) => (x ? (lang() === "zh" ? x.zh : x.en) : dflt);
  const preset = labels.presets[rules.name];
  const fields = schema.fields.filter((f) => f.name !== "name" && f.name !== "description");
  // settings left empty are worked out from the others (hand and kitty from players and decks,
  // the number of friends from the players): show what this table deals, not a blank
  const check = await api("/api/rules/check", { method: "POST", body: { rules } });
  const deal = check && check.ok ? check.deal : null;
  /** @type {Record<string, number | undefined>} */
  const derived = deal ? { hand_size: deal.hand, kitty_size: deal.kitty, friends: deal.friends || undefined } : {};
  /** @param {import("./wire").RuleField} f */
  const row = (f) => {
    const v = rules[f.name] ?? derived[f.name];
    let shown = t("none");
    if (f.kind === "enum" && typeof v === "string") shown = say(labels.options[v], v);
    else if (f.kind === "bool") shown = v ? "✓" : "✗";
    else if (Array.isArray(v)) shown = v.join(" ") || t("none");
    else if (v !== null && v !== undefined) shown = String(v);
    return h("tr", {}, h("th", { scope: "row" }, say(labels.settings[f.name], f.name)), h("td", {}, shown));
  };
  // the settings this table plays differently from the default game, named first (coins, the
  // match clock, who may declare, …), then every setting
  const changed = fields.filter((f) => JSON.stringify(rules[f.name] ?? null) !== JSON.stringify(f.default ?? null));
  const rows = fields.map(row);
  return h("div", { class: "help-body", id: "rules-help" },
    h("h2", { id: "dialog-title" }, t("help_title"), preset ? ` · ${say(preset.title, rules.name)}` : ""),
    preset ? h("p", {}, say(preset.description, "")) : null,
    h("h3", {}, t("help_examples")),
    h("div", { class: "example" }, cardRow(["S7", "S7"], { small: true }), h("span", {}, t("help_pair"))),
    h("div", { class: "example" }, cardRow(["H8", "H8", "H9", "H9"], { small: true }), h("span", {}, t("help_tractor"))),
    h("div", { class: "example" }, cardRow(["CA", "CK", "CK"], { small: true }), h("span", {}, t("help_throw"))),
    changed.length ? h("h3", {}, t("help_changed")) : null,
    changed.length ? h("table", { class: "score", id: "rules-changed" }, h("tbody", {}, ...changed.map(row))) : null,
    h("h3", {}, t("rules")),
    h("table", { class: "score" }, h("tbody", {}, ...rows)),
    h("div", { class: "dialog-actions" }, h("button", { type: "button", class: "primary", id: "btn-help-close", onclick: close }, t("close"))));
}
