// @ts-check
// Small pieces every page shows: seat names, level and trump texts, the language button.
import { t, lang, setLang } from "./i18n.js";
import { suitText } from "./cards.js";
import { h, toast, errorText } from "./dom.js";
import { api } from "./api.js";

/** @typedef {import("./wire").RoundView} RoundView */

const COMPASS = { en: ["North", "East", "South", "West"], zh: ["北家", "东家", "南家", "西家"] };

/**
 * @param {number} seat
 * @param {number} [players]
 * @returns {string}
 */
export function defaultName(seat, players = 4) {
  if (players === 4) return COMPASS[lang()][seat];
  return t("seat_n", { n: seat + 1 });
}

/** @param {number} rank 2..14 */
export function levelText(rank) {
  return { 11: "J", 12: "Q", 13: "K", 14: "A" }[rank] || String(rank);
}

/**
 * "♥7", "no-trump 7", or "7 · ?" while trump is open.
 * @param {RoundView | null | undefined} view
 */
export function trumpText(view) {
  if (!view) return "";
  const s = view.trump;
  if (s) return `${suitText(s)}${levelText(view.level)}`;
  if (view.trump_fixed || (view.bid && view.bid.cards && view.bid.cards[0] && view.bid.cards[0].endsWith("J")))
    return `${t("no_trump")} ${levelText(view.level)}`;
  return `${levelText(view.level)} · ?`;
}

/** @type {Record<string, string>} */
export const PHASE_KEYS = {
  deal: "phase_deal", declare: "phase_declare", bury: "phase_bury", play: "phase_play", done: "phase_done",
  override: "phase_override", call_friend: "phase_call_friend",
};

/**
 * Where a seat sits around the table, in percent of the felt; rel 0 is the viewer, at the bottom.
 * @param {number} rel
 * @param {number} n
 * @param {number} radiusX
 * @param {number} radiusY
 */
export function seatPosition(rel, n, radiusX, radiusY) {
  const angle = (Math.PI / 2) - (rel * 2 * Math.PI) / n;
  return { x: 50 + radiusX * Math.cos(angle), y: 50 + radiusY * Math.sin(angle) };
}

/** @param {() => void} onChange called after the language changed */
export function langButton(onChange) {
  return h("button", {
    class: "lang", type: "button", "aria-label": lang() === "zh" ? "Switch to English" : "切换到中文",
    onclick: () => { setLang(lang() === "zh" ? "en" : "zh"); onChange(); },
  }, t("language"));
}

/**
 * "Export": the game's record file, saved through the API (so the offline build, which has no
 * server to link to, exports the same file).
 * @param {string} code
 */
export function exportLink(code) {
  const path = `/api/games/${code}/record`;
  return h("a", { class: "button", href: path, "data-export": code, download: `tuolaji-${code}.json`, onclick: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const record = await api(path);
      const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
      const a = h("a", { href: url, download: `tuolaji-${code}.json` });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) { toast(errorText(err)); }
  } }, t("export"));
}
